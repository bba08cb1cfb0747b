//! Hand-checked cases of HPA* (spec/hpa.md): entrance placement on drawn maps, chunk edge cases,
//! temporary nodes, options, budgets, refresh. The seeded randomized checks (against a plain
//! Dijkstra written there) are `hpa_random.rs`.

use onepath_reference::{
    find_hpa_path, Connectivity, DiagonalRule, Grid, GridAlgorithm, HpaEdge, HpaEdgeKind,
    HpaHierarchy, HpaNode, HpaOptions, HpaSearch, PathStatus, SearchStatus, WALL,
};

const SQRT_2: f64 = std::f64::consts::SQRT_2;

/// A grid from rows: `#` wall, `.` area 0, a digit `d` area `d`.
fn grid(rows: &[&str]) -> Grid {
    let mut g = Grid::new(rows[0].len(), rows.len()).unwrap();
    for (y, r) in rows.iter().enumerate() {
        for (x, ch) in r.chars().enumerate() {
            let a = match ch {
                '#' => WALL,
                '.' => 0,
                d => d.to_digit(10).unwrap() as u8,
            };
            g.set_cell(x, y, a).unwrap();
        }
    }
    g
}

fn opts(s: u32) -> HpaOptions {
    HpaOptions {
        chunk_size: s,
        record_expansions: true,
        ..HpaOptions::default()
    }
}

fn built(g: &Grid, o: HpaOptions) -> HpaHierarchy {
    let mut h = HpaHierarchy::new(o).unwrap();
    h.refresh(g);
    h
}

fn node(cell: u32, chunk: u32) -> HpaNode {
    HpaNode { cell, chunk }
}

/// [HPA.ENT.RUN] [HPA.ENT.PLACE] [HPA.NODE.ID] [HPA.INSPECT.NODES] Two chunks of 4×4: the border
/// x = 3|4 has runs y = 0 (length 1) and y = 2..=3 (length 2, lower middle 2).
#[test]
fn short_runs_get_one_entrance_at_the_lower_middle() {
    let g = grid(&["........", "....#...", "........", "........"]);
    let h = built(&g, opts(4));
    assert_eq!(h.chunks(), (2, 1));
    assert_eq!(
        h.nodes(),
        vec![node(3, 0), node(4, 1), node(19, 0), node(20, 1)]
    );
}

/// [HPA.ENT.PLACE] Runs of 5, 6 and 8: the middle (p0 + 2) for 5, both ends for 6 and 8.
#[test]
fn runs_of_six_or_more_get_an_entrance_at_each_end() {
    for (open, want) in [(5usize, vec![2usize]), (6, vec![0, 5]), (8, vec![0, 7])] {
        let mut g = Grid::new(16, 8).unwrap();
        for y in open..8 {
            g.set_cell(8, y, WALL).unwrap();
        }
        let h = built(&g, opts(8));
        let ys: Vec<usize> = h
            .nodes()
            .iter()
            .filter(|n| n.chunk == 0)
            .map(|n| n.cell as usize / 16)
            .collect();
        assert_eq!(ys, want, "run of {open}");
        // Each entrance cell on the west side has its partner east of it.
        for n in h.nodes() {
            let x = n.cell as usize % 16;
            assert!(x == 7 || x == 8, "{n:?}");
        }
    }
}

/// [HPA.INTER.EDGE] [HPA.INTRA.EDGE] [HPA.INSPECT.EDGES] Edges sorted by (from, to); inter-chunk
/// costs are directed (`a -> b` pays `b`'s area); intra-chunk edges join the nodes of one chunk.
#[test]
fn edges_are_directed_sorted_and_priced_by_the_move_rule() {
    let mut g = grid(&["........", "....#...", "....2...", "........"]);
    g.set_area_multiplier(2, 3.0).unwrap();
    let h = built(&g, opts(4));
    // Nodes: 0 = cell 3 (chunk 0), 1 = cell 4 (chunk 1), 2 = cell 19 (chunk 0), 3 = cell 20 (chunk 1).
    let e = h.edges();
    let keys: Vec<(u32, u32, HpaEdgeKind)> = e.iter().map(|e| (e.from, e.to, e.kind)).collect();
    assert_eq!(
        keys,
        vec![
            (0, 1, HpaEdgeKind::Inter),
            (0, 2, HpaEdgeKind::Intra),
            (1, 0, HpaEdgeKind::Inter),
            (1, 3, HpaEdgeKind::Intra),
            (2, 0, HpaEdgeKind::Intra),
            (2, 3, HpaEdgeKind::Inter),
            (3, 1, HpaEdgeKind::Intra),
            (3, 2, HpaEdgeKind::Inter),
        ]
    );
    let cost = |f: u32, t: u32| e.iter().find(|x| x.from == f && x.to == t).unwrap().cost;
    assert_eq!(cost(0, 1), 1.0);
    assert_eq!(cost(2, 3), 3.0); // enters cell (4, 2), area 2
    assert_eq!(cost(3, 2), 1.0);
    assert_eq!(cost(0, 2), 2.0); // (3,0) -> (3,1) -> (3,2)
                                 // (4,2) -> (4,0) inside chunk 1 around the wall at (4,1): no corner cutting, so four
                                 // straight moves through (5,2), (5,1), (5,0).
    assert_eq!(cost(3, 1), 4.0);
    assert_eq!(h.edge_path(3, 1), Some(vec![20, 21, 13, 5, 4]));
    assert_eq!(h.edge_path(0, 1), Some(vec![3, 4]));
    assert_eq!(h.edge_path(0, 3), None);
    // (4,0) -> (4,2): the same cells backwards, the last entering area 2.
    assert_eq!(cost(1, 3), ((1.0 + 1.0) + 1.0) + 3.0);
    assert_eq!(h.edge_path(1, 3), Some(vec![4, 5, 13, 21, 20]));
}

/// [HPA.INSPECT.UNBUILT] [HPA.BUILD.LAZY] Nothing before the first build; `begin` builds.
#[test]
fn the_hierarchy_is_built_on_the_first_query() {
    let g = Grid::new(8, 8).unwrap();
    let mut h = HpaHierarchy::new(opts(4)).unwrap();
    assert!(!h.is_built());
    assert!(h.nodes().is_empty() && h.edges().is_empty());
    assert_eq!(h.chunks(), (0, 0));
    let mut s = HpaSearch::new(&g, &mut h);
    s.begin((0, 0), (7, 7)).unwrap();
    assert_eq!(s.iterations(), 0);
    assert_eq!(s.run(None), SearchStatus::Found);
    drop(s);
    assert!(h.is_built());
    assert_eq!(h.rebuilt_chunks(), &[0, 1, 2, 3]);
}

/// [HPA.CHUNK.TILING] [HPA.CHUNK.ID] Width 10 with chunks of 4: columns 0..4, 4..8, 8..10; the
/// last chunks are partial and their borders still get entrances.
#[test]
fn partial_last_chunks() {
    let g = Grid::new(10, 5).unwrap();
    let h = built(&g, opts(4));
    assert_eq!(h.chunks(), (3, 2));
    // Border 7|8 at rows 0..4: run of 4, entrance at y = 1; rows 4..5: run of 1 at y = 4; and
    // the south border of the partial chunk 2 (x 8..10): run of 2, entrance at x = 8, y = 3|4.
    let on = |x: u32| -> Vec<u32> {
        h.nodes()
            .iter()
            .filter(|n| n.cell % 10 == x)
            .map(|n| n.cell / 10)
            .collect()
    };
    assert_eq!(on(8), vec![1, 3, 4]);
    assert_eq!(
        h.nodes().iter().find(|n| n.cell == 48).map(|n| n.chunk),
        Some(5)
    );
    let p = find_hpa_path(&g, (0, 0), (9, 4), &opts(4)).unwrap();
    assert_eq!(p.status, PathStatus::Found);
    assert_eq!(p.cells[0], 0);
    assert_eq!(*p.cells.last().unwrap(), 49);
}

/// [HPA.COMPLETE] A 1-wide corridor crossing three borders, and a corridor along a border line.
#[test]
fn one_wide_corridors_across_and_along_borders() {
    let g = grid(&["############", "............", "############"]);
    let p = find_hpa_path(&g, (0, 1), (11, 1), &opts(4)).unwrap();
    assert_eq!(p.status, PathStatus::Found);
    assert_eq!(p.cost, 11.0);
    assert_eq!(p.cells, (12..24).collect::<Vec<u32>>());
    // A vertical corridor on the west side of the border x = 3|4 and one on the east side,
    // joined only at the bottom row.
    let g = grid(&[
        "###..###", "###..###", "###..###", "###..###", "####.###", "###..###", "###..###",
        "###..###",
    ]);
    let p = find_hpa_path(&g, (3, 0), (3, 7), &opts(4)).unwrap();
    assert_eq!(p.status, PathStatus::Found);
    assert!(p.cost >= 7.0);
}

/// [HPA.QUERY.TEMP] [HPA.REFINE.CONCAT] [GRAPH.ASTAR.PATH] Start equals goal: one temporary
/// node, one iteration, the path `[start]`, cost 0.
#[test]
fn start_equal_to_goal() {
    let g = Grid::new(9, 9).unwrap();
    let mut h = HpaHierarchy::new(opts(3)).unwrap();
    let n = {
        h.refresh(&g);
        h.nodes().len() as u32
    };
    let mut s = HpaSearch::new(&g, &mut h);
    s.begin((4, 4), (4, 4)).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.path(), vec![40]);
    assert_eq!(s.path_cost(), 0.0);
    assert_eq!((s.iterations(), s.expanded_count()), (1, 0));
    assert_eq!(s.abstract_path(), vec![n]);
    // The same on an entrance cell (2, 4) (border 2|3, run of 3, middle y = 4): a temporary
    // node all the same.
    s.begin((2, 4), (2, 4)).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.abstract_path(), vec![n]);
}

/// [HPA.QUERY.TEMP] [HPA.QUERY.EDGES] [HPA.SEARCH.RECORD] A start on an entrance cell is a
/// temporary node joined to the permanent node on its cell at cost 0; both are expanded, so the
/// cell is recorded twice, and the refined path does not repeat it.
#[test]
fn a_start_on_an_entrance_cell_is_still_temporary() {
    let g = Grid::new(9, 3).unwrap();
    let mut h = HpaHierarchy::new(opts(3)).unwrap();
    h.refresh(&g);
    let nodes = h.nodes();
    let n = nodes.len() as u32;
    // Border 2|3: a run of 3, entrance at the middle y = 1, so (2, 1) = cell 11 is a node.
    let on = nodes.iter().position(|x| x.cell == 11).unwrap() as u32;
    let mut s = HpaSearch::new(&g, &mut h);
    s.begin((2, 1), (8, 1)).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    let ap = s.abstract_path();
    assert_eq!((ap[0], ap[1], *ap.last().unwrap()), (n, on, n + 1));
    assert_eq!(&s.expansions()[..2], &[11, 11]);
    assert_eq!(s.path(), (11..18).collect::<Vec<u32>>());
    assert_eq!(s.path_cost(), 6.0);
}

/// [HPA.QUERY.BEGIN] A wall at the start or the goal: `NotFound` at once, no iteration.
#[test]
fn start_or_goal_on_a_wall() {
    let g = grid(&["#....", ".....", "....#"]);
    for (s, t) in [((0, 0), (3, 1)), ((3, 1), (4, 2))] {
        let p = find_hpa_path(&g, s, t, &opts(2)).unwrap();
        assert_eq!(p.status, PathStatus::NotFound);
        assert_eq!((p.iterations, p.cost), (0, f64::INFINITY));
        assert!(p.cells.is_empty() && p.points.is_empty());
    }
}

/// [HPA.QUERY.EDGES] Start and goal in one chunk: the direct edge S -> G gives the in-chunk
/// optimum; when the chunk splits them, the way round goes through other chunks.
#[test]
fn same_chunk_direct_edge_and_way_round() {
    let g = Grid::new(8, 8).unwrap();
    let mut h = HpaHierarchy::new(opts(8)).unwrap();
    let mut s = HpaSearch::new(&g, &mut h);
    s.begin((0, 0), (7, 3)).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert!((s.path_cost() - (4.0 + 3.0 * SQRT_2)).abs() < 1e-12);
    assert_eq!(s.abstract_path(), vec![0, 1]); // no permanent nodes in a single chunk
    assert_eq!(s.iterations(), 2);
    // Chunk 0 (x 0..4) split by a wall at x = 2; the two sides join through chunk 1.
    let g = grid(&["..#.....", "..#.....", "..#.....", "..#.....", "########"]);
    let p = find_hpa_path(&g, (0, 0), (3, 0), &opts(4)).unwrap();
    assert_eq!(p.status, PathStatus::NotFound);
    let g = grid(&["..#.....", "..#.....", "..#.....", "........", "........"]);
    let p = find_hpa_path(&g, (0, 0), (3, 0), &opts(4)).unwrap();
    assert_eq!(p.status, PathStatus::Found);
    assert!(p.cells.contains(&(3 * 8 + 2)) || p.cells.contains(&(4 * 8 + 2)));
}

/// [HPA.COMPLETE] Unreachable: a full wall column.
#[test]
fn unreachable_goal() {
    let g = grid(&["...#...", "...#...", "...#..."]);
    let p = find_hpa_path(&g, (0, 0), (6, 2), &opts(2)).unwrap();
    assert_eq!(p.status, PathStatus::NotFound);
    assert!(p.iterations > 0);
}

/// [HPA.ENT.DIAGONAL] [HPA.COMPLETE] Under `Always`, a diagonal through a chunk corner between
/// two walls is an entrance; under `NoneBlocked` there is no path at all.
#[test]
fn diagonal_entrances_at_chunk_corners() {
    let g = grid(&[".###", "#.##", "##.#", "###."]);
    let mut o = opts(2);
    o.diagonal = DiagonalRule::Always;
    let h = built(&g, o.clone());
    assert_eq!(h.nodes(), vec![node(5, 0), node(10, 3)]);
    assert_eq!(
        h.edges(),
        vec![
            HpaEdge {
                from: 0,
                to: 1,
                cost: SQRT_2,
                kind: HpaEdgeKind::Inter
            },
            HpaEdge {
                from: 1,
                to: 0,
                cost: SQRT_2,
                kind: HpaEdgeKind::Inter
            },
        ]
    );
    let p = find_hpa_path(&g, (0, 0), (3, 3), &o).unwrap();
    assert_eq!(p.status, PathStatus::Found);
    assert_eq!(p.cells, vec![0, 5, 10, 15]);
    assert_eq!(p.cost, (SQRT_2 + SQRT_2) + SQRT_2);
    for d in [DiagonalRule::NoneBlocked, DiagonalRule::AtMostOneBlocked] {
        o.diagonal = d;
        assert!(built(&g, o.clone()).nodes().is_empty());
        let p = find_hpa_path(&g, (0, 0), (3, 3), &o).unwrap();
        assert_eq!(p.status, PathStatus::NotFound);
    }
}

/// [HPA.OPT.VALID] Chunk sizes 2 and 64 are accepted, 0, 1 and 65 are not; the chunk size is
/// checked before the weight.
#[test]
fn options_are_validated_chunk_size_first() {
    for s in [2, 64] {
        assert!(HpaHierarchy::new(opts(s)).is_ok(), "{s}");
    }
    for s in [0, 1, 65, u32::MAX] {
        let e = HpaHierarchy::new(opts(s)).unwrap_err();
        assert_eq!(e.class(), "invalid_options");
        assert!(e.to_string().contains("chunk_size"), "{e}");
    }
    for w in [0.5, f64::NAN, f64::INFINITY] {
        let o = HpaOptions {
            heuristic_weight: w,
            ..opts(4)
        };
        let e = HpaHierarchy::new(o.clone()).unwrap_err();
        assert!(e.to_string().contains("heuristic_weight"), "{e}");
        let g = Grid::new(2, 2).unwrap();
        assert_eq!(
            find_hpa_path(&g, (0, 0), (1, 1), &o).unwrap_err().class(),
            "invalid_options"
        );
        let e = HpaHierarchy::new(HpaOptions { chunk_size: 1, ..o }).unwrap_err();
        assert!(e.to_string().contains("chunk_size"), "{e}");
    }
}

/// [HPA.QUERY.BEGIN] Cells are checked start first, x before y; a failed `begin` builds nothing.
#[test]
fn cells_out_of_range() {
    let g = Grid::new(4, 3).unwrap();
    let mut h = HpaHierarchy::new(opts(2)).unwrap();
    let mut s = HpaSearch::new(&g, &mut h);
    let e = s.begin((4, 5), (9, 9)).unwrap_err();
    assert_eq!(e.class(), "cell_out_of_range");
    assert!(e.to_string().contains("start x = 4"), "{e}");
    let e = s.begin((0, 0), (0, 3)).unwrap_err();
    assert!(e.to_string().contains("goal y = 3"), "{e}");
    assert_eq!(s.status(), SearchStatus::NotStarted);
    drop(s);
    assert!(!h.is_built());
}

/// [HPA.SEARCH.ITERATION] [HPA.TIER1] [GRAPH.ASTAR.SLICED] A budget of 1 stops with
/// `BudgetExhausted`; any slicing gives the result of one run.
#[test]
fn budgets_and_slicing() {
    let mut g = Grid::new(20, 20).unwrap();
    for y in 0..18 {
        g.set_cell(10, y, WALL).unwrap();
    }
    let o = opts(4);
    let full = find_hpa_path(&g, (0, 0), (19, 0), &o).unwrap();
    assert_eq!(full.status, PathStatus::Found);
    assert_eq!(full.algorithm, GridAlgorithm::AStar);
    let p = find_hpa_path(
        &g,
        (0, 0),
        (19, 0),
        &HpaOptions {
            iteration_budget: 1,
            ..o.clone()
        },
    )
    .unwrap();
    assert_eq!(p.status, PathStatus::BudgetExhausted);
    assert_eq!((p.iterations, p.cost), (1, f64::INFINITY));
    assert!(p.cells.is_empty());
    let mut h = HpaHierarchy::new(o).unwrap();
    let mut s = HpaSearch::new(&g, &mut h);
    s.begin((0, 0), (19, 0)).unwrap();
    while s.step(1) == SearchStatus::Running {}
    assert_eq!(s.status(), SearchStatus::Found);
    assert_eq!(s.path(), full.cells);
    assert_eq!(s.path_cost().to_bits(), full.cost.to_bits());
    assert_eq!(s.iterations(), full.iterations);
    assert_eq!(s.expansions(), full.expanded.as_slice());
    assert_eq!(full.expanded.len() as u64, full.expanded_count);
    // [HPA.SEARCH.RECORD] The first expanded node is S, on the start cell.
    assert_eq!(full.expanded[0], 0);
    assert_eq!(full.points[0], (0.5, 0.5));
}

/// [HPA.SMOOTH.RULE] [HPA.SMOOTH.LINE] [HPA.COST.REPORTED] Smoothing never raises the cost and
/// the cost is the fold along the final path.
#[test]
fn smoothing_shortens_entrance_detours() {
    let g = Grid::new(24, 24).unwrap();
    let plain = find_hpa_path(&g, (0, 0), (23, 17), &opts(8)).unwrap();
    let o = HpaOptions {
        smooth: true,
        ..opts(8)
    };
    let smooth = find_hpa_path(&g, (0, 0), (23, 17), &o).unwrap();
    assert!(smooth.cost <= plain.cost, "{} {}", smooth.cost, plain.cost);
    // The optimum on an open grid: 6 straight and 17 diagonal steps.
    let best = 6.0 + 17.0 * SQRT_2;
    assert!(smooth.cost >= best - 1e-9);
    let mut fold = 0.0;
    for w in smooth.cells.windows(2) {
        let (a, b) = (w[0] as usize, w[1] as usize);
        fold += if a % 24 != b % 24 && a / 24 != b / 24 {
            SQRT_2
        } else {
            1.0
        };
    }
    assert_eq!(fold.to_bits(), smooth.cost.to_bits());
}

/// [HPA.REFRESH.DIRTY] [HPA.REFRESH.REBUILT] [HPA.REFRESH.WHEN] [HPA.REFRESH.RESTORE]
/// [HPA.REFRESH.EQUAL] An interior edit rebuilds one chunk; a border edit the chunks whose nodes
/// move; no change rebuilds nothing; a multiplier or a restore rebuilds everything.
#[test]
fn refresh_rebuilds_exactly_the_dirty_chunks() {
    let mut g = Grid::new(12, 12).unwrap();
    let mut h = built(&g, opts(4));
    let all: Vec<u32> = (0..9).collect();
    assert_eq!(h.rebuilt_chunks(), all.as_slice());
    h.refresh(&g);
    assert!(h.rebuilt_chunks().is_empty());
    g.set_cell(5, 5, WALL).unwrap(); // interior of chunk 4
    h.refresh(&g);
    assert_eq!(h.rebuilt_chunks(), &[4]);
    g.set_cell(3, 1, WALL).unwrap(); // west side of border 0|1, moves the entrance at y = 1
    h.refresh(&g);
    assert_eq!(h.rebuilt_chunks(), &[0, 1]);
    let fresh = built(&g, opts(4));
    assert_eq!(h.nodes(), fresh.nodes());
    assert_eq!(h.edges(), fresh.edges());
    let saved = g.save_state();
    g.restore_state(&saved).unwrap();
    h.refresh(&g);
    assert_eq!(h.rebuilt_chunks(), all.as_slice());
    g.set_area_multiplier(7, 2.0).unwrap();
    h.refresh(&g);
    assert_eq!(h.rebuilt_chunks(), all.as_slice());
    // An edit that is undone before the refresh changes nothing.
    g.set_cell(0, 0, WALL).unwrap();
    g.set_cell(0, 0, 0).unwrap();
    h.refresh(&g);
    assert!(h.rebuilt_chunks().is_empty());
}

/// [GRAPH.ASTAR.RUN] [HPA.SLICED.API] A set cancel flag stops `run` before the first pop; the
/// search continues afterwards.
#[test]
fn run_with_a_cancel_flag() {
    let g = Grid::new(16, 16).unwrap();
    let mut h = HpaHierarchy::new(opts(4)).unwrap();
    let mut s = HpaSearch::new(&g, &mut h);
    s.begin((0, 0), (15, 15)).unwrap();
    let flag = std::sync::atomic::AtomicBool::new(true);
    assert_eq!(s.run(Some(&flag)), SearchStatus::Running);
    assert_eq!(s.iterations(), 0);
    assert!(s.path().is_empty() && s.path_cost() == f64::INFINITY);
    assert_eq!(s.run(None), SearchStatus::Found);
}

/// [HPA.MOVE] [HPA.SEARCH.ESTIMATE] Four-connectivity: Manhattan moves only.
#[test]
fn four_connectivity() {
    let g = Grid::new(9, 9).unwrap();
    let o = HpaOptions {
        connectivity: Connectivity::Four,
        ..opts(3)
    };
    let p = find_hpa_path(&g, (0, 0), (8, 8), &o).unwrap();
    assert_eq!(p.status, PathStatus::Found);
    assert_eq!(p.cost, 16.0);
    assert_eq!(p.cells.len(), 17);
}
