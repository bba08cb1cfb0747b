//! Hex search (spec/hex-search.md) and voxel search (spec/voxel-search.md): hand-checked cases
//! and every error class (the randomized comparison with a plain Dijkstra is
//! `hex_voxel_random.rs`).

mod lattice_support;
use lattice_support::*;

// ---------------------------------------------------------------- hand-checked voxel cases

fn cube3() -> VoxelGrid {
    VoxelGrid::new(3, 3, 3, 0).unwrap()
}

#[test]
fn voxel_cube_corner_to_corner() {
    let g = cube3();
    let o = VoxelOptions::default();
    let p = find_voxel_path(&g, (0, 0, 0), (2, 2, 2), &o).unwrap();
    assert_eq!(p.status, PathStatus::Found);
    assert_eq!(p.cost, SQRT_3 * 2.0);
    assert_eq!(p.cells, vec![0, 13, 26]);
    assert_eq!(p.points[1], (1.5, 1.5, 1.5));
    let six = VoxelOptions {
        connectivity: VoxelConnectivity::Six,
        ..Default::default()
    };
    let p = find_voxel_path(&g, (0, 0, 0), (2, 2, 2), &six).unwrap();
    assert_eq!(p.cost, 6.0);
    assert_eq!(p.cells.len(), 7);
    let e18 = VoxelOptions {
        connectivity: VoxelConnectivity::Eighteen,
        ..Default::default()
    };
    let p = find_voxel_path(&g, (0, 0, 0), (2, 2, 2), &e18).unwrap();
    // 3 edge moves: 3 * √2 (summed left to right)
    assert_eq!(p.cost, SQRT_2 + SQRT_2 + SQRT_2);
}

#[test]
fn voxel_options_default() {
    let o = VoxelOptions::default();
    assert_eq!(o.connectivity, VoxelConnectivity::TwentySix);
    assert_eq!(o.diagonal, DiagonalRule::NoneBlocked);
    assert_eq!(o.algorithm, GridAlgorithm::AStar);
    assert!(o.cell_cost.is_none() && o.blocked.is_none());
    assert_eq!(o.heuristic_weight, 1.0);
    assert_eq!(o.iteration_budget, 0);
    assert!(!o.record_expansions);
}

/// [VOXEL.EST.DISTANCE] The 18-connectivity estimate: with `a <= b <= c`, `e = min((a+b+c)/2,
/// a+b)`, `f = a+b+c-2e`; checked through the first pop's f via expansion counts is awkward, so
/// the formula is checked on an open lattice where Dijkstra's exact cost equals it.
#[test]
fn eighteen_estimate_formula_values() {
    let g = VoxelGrid::new(8, 8, 8, 0).unwrap();
    let o = VoxelOptions {
        connectivity: VoxelConnectivity::Eighteen,
        algorithm: GridAlgorithm::Dijkstra,
        diagonal: DiagonalRule::Always,
        ..Default::default()
    };
    // (dx, dy, dz) -> expected o
    let cases: [((usize, usize, usize), f64); 5] = [
        ((1, 1, 1), 1.0 + SQRT_2),       // a+b+c=3: e=min(1,2)=1, f=1
        ((2, 2, 2), 0.0 + 3.0 * SQRT_2), // 6: e=min(3,4)=3, f=0
        ((0, 0, 5), 5.0),                // e=min(2,0)=0, f=5
        ((1, 2, 6), 3.0 + 3.0 * SQRT_2), // 9: e=min(4,3)=3, f=3
        ((3, 3, 1), 1.0 + 3.0 * SQRT_2), // 7: e=min(3,4)=3, f=1
    ];
    for (t, want) in cases {
        let p = find_voxel_path(&g, (0, 0, 0), t, &o).unwrap();
        assert!(close(p.cost, want), "{t:?}: {} vs {want}", p.cost);
    }
    // A* with the same estimate: the first pop is the start; on an open lattice the estimate is
    // exact, so A* expands only path voxels when ties go to larger g.
    let a = VoxelOptions {
        algorithm: GridAlgorithm::AStar,
        ..o.clone()
    };
    let p = find_voxel_path(&g, (0, 0, 0), (1, 2, 6), &a).unwrap();
    assert_eq!(p.expanded_count as usize, p.cells.len() - 1);
}

/// [VOXEL.MOVE.PASSED] [VOXEL.MOVE.RULE] A k=2 move passes two voxels, a k=3 move six.
#[test]
fn passed_voxel_rule_each_diagonal_rule() {
    let run = |solids: &[(usize, usize, usize)], rule: DiagonalRule, conn: VoxelConnectivity, t| {
        let mut g = VoxelGrid::new(2, 2, 2, 0).unwrap();
        for &(x, y, z) in solids {
            g.set_voxel(x, y, z, 255).unwrap();
        }
        let o = VoxelOptions {
            diagonal: rule,
            connectivity: conn,
            ..Default::default()
        };
        find_voxel_path(&g, (0, 0, 0), t, &o).unwrap()
    };
    use DiagonalRule::*;
    use VoxelConnectivity::*;
    // k = 2 move (0,0,0) -> (1,1,0): passed (1,0,0), (0,1,0).
    let one = [(1, 0, 0)];
    let two = [(1, 0, 0), (0, 1, 0)];
    assert_eq!(run(&[], NoneBlocked, Eighteen, (1, 1, 0)).cost, SQRT_2);
    assert_eq!(run(&one, Always, Eighteen, (1, 1, 0)).cost, SQRT_2);
    assert_eq!(
        run(&one, AtMostOneBlocked, Eighteen, (1, 1, 0)).cost,
        SQRT_2
    );
    assert_ne!(run(&one, NoneBlocked, Eighteen, (1, 1, 0)).cost, SQRT_2);
    assert_eq!(run(&two, Always, Eighteen, (1, 1, 0)).cost, SQRT_2);
    assert_ne!(
        run(&two, AtMostOneBlocked, Eighteen, (1, 1, 0)).cost,
        SQRT_2
    );
    // k = 3 move (0,0,0) -> (1,1,1): six passed voxels (every other voxel of the 2x2x2 cube).
    let all6 = [
        (1, 0, 0),
        (0, 1, 0),
        (0, 0, 1),
        (1, 1, 0),
        (1, 0, 1),
        (0, 1, 1),
    ];
    let p = run(&all6, Always, TwentySix, (1, 1, 1));
    assert_eq!((p.status, p.cost), (PathStatus::Found, SQRT_3));
    let p = run(&all6[..1], AtMostOneBlocked, TwentySix, (1, 1, 1));
    assert_eq!(p.cost, SQRT_3);
    let p = run(&all6[..2], AtMostOneBlocked, TwentySix, (1, 1, 1));
    assert!(p.cost > SQRT_3);
    let p = run(&all6[4..5], NoneBlocked, TwentySix, (1, 1, 1)); // an edge voxel blocks it
    assert!(p.cost > SQRT_3);
    assert_eq!(p.status, PathStatus::Found);
    assert_eq!(
        run(&all6, NoneBlocked, TwentySix, (1, 1, 1)).status,
        PathStatus::NotFound
    );
    assert_eq!(
        run(&all6, AtMostOneBlocked, TwentySix, (1, 1, 1)).status,
        PathStatus::NotFound
    );
}

/// [VOXEL.DIR.ORDER] The first expansion of the start pushes in voxel neighbour order; with
/// Dijkstra on a uniform grid the six face neighbours pop next, smaller node first on f ties.
#[test]
fn voxel_neighbour_order_pop_order() {
    let g = cube3();
    let o = VoxelOptions {
        algorithm: GridAlgorithm::Dijkstra,
        connectivity: VoxelConnectivity::Six,
        record_expansions: true,
        ..Default::default()
    };
    let mut s = VoxelSearch::new(&g, o).unwrap();
    s.begin((1, 1, 1), (0, 0, 0)).unwrap();
    s.step(7);
    assert_eq!(s.expansions(), &[13, 4, 10, 12, 14, 16, 22]);
}

// ---------------------------------------------------------------- hex hand-checked cases

#[test]
fn hex_paths_every_layout() {
    for layout in [
        HexLayout::OddR,
        HexLayout::EvenR,
        HexLayout::OddQ,
        HexLayout::EvenQ,
    ] {
        let g = HexGrid::new(7, 6, layout).unwrap();
        let o = GridOptions::default();
        let p = find_hex_path(&g, (0, 0), (6, 5), &o).unwrap();
        assert_eq!(p.status, PathStatus::Found);
        let want = hex_ref(&g, &o, (0, 0), (6, 5)).unwrap();
        assert_eq!(p.cost, want, "{layout:?}");
        assert_eq!(p.cells.len() as f64 - 1.0, want);
        // consecutive cells are neighbours
        for w in p.cells.windows(2) {
            let (x, y) = ((w[0] % 7) as i64, (w[0] / 7) as i64);
            let ok = hex_offsets(layout, x, y)
                .iter()
                .any(|&(dx, dy)| (y + dy) * 7 + x + dx == w[1] as i64);
            assert!(ok, "{layout:?} {w:?}");
        }
        assert_eq!(p.points[0], (0.5, 0.5));
        // An estimate-exact open map: A* expands only the path (ties to larger g).
        assert_eq!(p.expanded_count as usize, p.cells.len() - 1);
    }
    // Hand-checked: in odd-r, (1,1) is not a neighbour of (0,0) (an even row's SE is (0,1)),
    // so it is 2 moves away.
    let g = HexGrid::new(3, 3, HexLayout::OddR).unwrap();
    let p = find_hex_path(&g, (0, 0), (1, 1), &GridOptions::default()).unwrap();
    assert_eq!(p.cost, 2.0);
    let p = find_hex_path(&g, (0, 1), (1, 0), &GridOptions::default()).unwrap();
    assert_eq!(p.cost, 1.0); // odd row NE is (1,-1)
    let g = HexGrid::new(3, 3, HexLayout::EvenR).unwrap();
    let p = find_hex_path(&g, (0, 0), (1, 1), &GridOptions::default()).unwrap();
    assert_eq!(p.cost, 1.0); // even-r even row uses the odd-r odd-row list: SE (1,1)
}

#[test]
fn hex_walls_areas_and_space() {
    let mut g = HexGrid::new(5, 1, HexLayout::OddQ).unwrap();
    g.set_area_multiplier(3, 2.5).unwrap();
    g.set_cell(2, 0, 3).unwrap();
    g.set_space(GridSpace {
        origin_x: 10.0,
        origin_y: -4.0,
        cell_size: 2.0,
    })
    .unwrap();
    let p = find_hex_path(&g, (0, 0), (4, 0), &GridOptions::default()).unwrap();
    assert_eq!(p.cost, 1.0 + 2.5 + 1.0 + 1.0);
    assert_eq!(p.points[1], (10.0 + 1.5 * 2.0, -4.0 + 0.5 * 2.0));
    g.set_cell(2, 0, WALL).unwrap();
    let p = find_hex_path(&g, (0, 0), (4, 0), &GridOptions::default()).unwrap();
    assert_eq!(p.status, PathStatus::NotFound);
    assert_eq!(p.cost, f64::INFINITY);
    assert!(p.cells.is_empty());
    // start on a wall: NotFound at once, nothing popped
    let p = find_hex_path(&g, (2, 0), (4, 0), &GridOptions::default()).unwrap();
    assert_eq!((p.status, p.iterations), (PathStatus::NotFound, 0));
}

#[test]
fn start_equals_goal() {
    let g = HexGrid::new(4, 4, HexLayout::OddR).unwrap();
    let p = find_hex_path(&g, (2, 2), (2, 2), &GridOptions::default()).unwrap();
    assert_eq!(
        (p.cost, p.cells.clone(), p.iterations, p.expanded_count),
        (0.0, vec![10], 1, 0)
    );
    let v = cube3();
    let p = find_voxel_path(&v, (1, 2, 0), (1, 2, 0), &VoxelOptions::default()).unwrap();
    assert_eq!(
        (p.cost, p.cells, p.iterations, p.expanded_count),
        (0.0, vec![7], 1, 0)
    );
}

#[test]
fn budgets_and_recording() {
    let g = HexGrid::new(30, 30, HexLayout::EvenQ).unwrap();
    let o = GridOptions {
        iteration_budget: 5,
        record_expansions: true,
        algorithm: GridAlgorithm::Dijkstra,
        ..Default::default()
    };
    let p = find_hex_path(&g, (0, 0), (29, 29), &o).unwrap();
    assert_eq!(p.status, PathStatus::BudgetExhausted);
    assert_eq!((p.iterations, p.expanded_count), (5, 5));
    assert_eq!(p.expanded.len() as u64, p.expanded_count);
    assert_eq!(p.cost, f64::INFINITY);
    let o = GridOptions {
        record_expansions: true,
        ..Default::default()
    };
    let p = find_hex_path(&g, (0, 0), (29, 29), &o).unwrap();
    assert_eq!(p.expanded.len() as u64, p.expanded_count);
    assert_eq!(p.iterations, p.expanded_count + 1);
    let p = find_hex_path(&g, (0, 0), (29, 29), &GridOptions::default()).unwrap();
    assert!(p.expanded.is_empty() && p.expanded_count > 0);

    let v = VoxelGrid::new(10, 10, 10, 0).unwrap();
    let o = VoxelOptions {
        iteration_budget: 3,
        record_expansions: true,
        ..Default::default()
    };
    let p = find_voxel_path(&v, (0, 0, 0), (9, 9, 9), &o).unwrap();
    assert_eq!((p.status, p.iterations), (PathStatus::BudgetExhausted, 3));
    assert_eq!(p.expanded.len() as u64, p.expanded_count);
    let o = VoxelOptions {
        record_expansions: true,
        algorithm: GridAlgorithm::Dijkstra,
        ..Default::default()
    };
    let p = find_voxel_path(&v, (0, 0, 0), (9, 9, 9), &o).unwrap();
    assert_eq!(p.expanded.len() as u64, p.expanded_count);
    assert_eq!(p.status, PathStatus::Found);
}

/// [GRAPH.ASTAR.SLICED] Any sequence of budgets gives the same result and recording.
#[test]
fn sliced_equals_whole() {
    let mut rng = Rng(99);
    let mut v = VoxelGrid::new(12, 9, 7, 0).unwrap();
    for _ in 0..200 {
        let (x, y, z) = (
            rng.below(12) as usize,
            rng.below(9) as usize,
            rng.below(7) as usize,
        );
        v.set_voxel(x, y, z, 255).unwrap();
    }
    v.set_voxel(0, 0, 0, 0).unwrap();
    v.set_voxel(11, 8, 6, 0).unwrap();
    let o = VoxelOptions {
        record_expansions: true,
        ..Default::default()
    };
    let mut a = VoxelSearch::new(&v, o.clone()).unwrap();
    a.begin((0, 0, 0), (11, 8, 6)).unwrap();
    a.run(None);
    let mut b = VoxelSearch::new(&v, o).unwrap();
    b.begin((0, 0, 0), (11, 8, 6)).unwrap();
    let mut k = 0;
    while b.step(1 + k % 4) == SearchStatus::Running {
        k += 1;
    }
    assert_eq!(a.status(), b.status());
    assert_eq!(a.path(), b.path());
    assert_eq!(a.path_cost().to_bits(), b.path_cost().to_bits());
    assert_eq!(a.expansions(), b.expansions());
    assert_eq!(
        (a.iterations(), a.expanded_count()),
        (b.iterations(), b.expanded_count())
    );
    // cancel: a set flag stops before the first iteration, and the search continues after.
    let flag = AtomicBool::new(true);
    b.begin((0, 0, 0), (11, 8, 6)).unwrap();
    assert_eq!(b.run(Some(&flag)), SearchStatus::Running);
    assert_eq!(b.iterations(), 0);
    assert_eq!(b.run(None), a.status());
    assert_eq!(b.path(), a.path());
    // step(0) on a fresh search stays Running; before begin: NotStarted
    let c = VoxelSearch::new(&v, VoxelOptions::default()).unwrap();
    assert_eq!(c.status(), SearchStatus::NotStarted);
    assert_eq!(c.path_cost(), f64::INFINITY);
}

// ---------------------------------------------------------------- errors

#[test]
fn hex_errors() {
    let g = HexGrid::new(4, 3, HexLayout::OddR).unwrap();
    let e = |o: GridOptions| HexSearch::new(&g, o).err().unwrap();
    let x = e(GridOptions {
        agent_size: 0,
        heuristic_weight: f64::NAN,
        ..Default::default()
    });
    assert_eq!(x.class(), "invalid_options");
    assert!(
        x.to_string().contains("agent_size") && x.to_string().contains('0'),
        "{x}"
    );
    let x = e(GridOptions {
        agent_size: 2,
        heuristic_weight: 0.5,
        ..Default::default()
    });
    assert!(
        x.to_string().contains("heuristic_weight") && x.to_string().contains("0.5"),
        "{x}"
    );
    let x = e(GridOptions {
        agent_size: 2,
        ..Default::default()
    });
    assert_eq!(x.class(), "invalid_options");
    assert!(
        x.to_string().contains("agent_size") && x.to_string().contains('2'),
        "{x}"
    );
    let x = e(GridOptions {
        agent_size: 2,
        algorithm: GridAlgorithm::Theta,
        ..Default::default()
    });
    assert_eq!(x.class(), "invalid_options");
    for alg in [
        GridAlgorithm::Jps,
        GridAlgorithm::JpsPlus,
        GridAlgorithm::Theta,
        GridAlgorithm::LazyTheta,
    ] {
        let x = e(GridOptions {
            algorithm: alg,
            ..Default::default()
        });
        assert_eq!(x.class(), "unsupported_algorithm");
        assert!(x.to_string().contains(&format!("{alg:?}")), "{x}");
    }
    let x = e(GridOptions {
        heuristic_weight: f64::INFINITY,
        algorithm: GridAlgorithm::Theta,
        ..Default::default()
    });
    assert_eq!(x.class(), "invalid_options");
    // connectivity and diagonal are ignored
    assert!(HexSearch::new(
        &g,
        GridOptions {
            connectivity: Connectivity::Four,
            diagonal: DiagonalRule::Always,
            ..Default::default()
        }
    )
    .is_ok());
    let mut s = HexSearch::new(&g, GridOptions::default()).unwrap();
    s.begin((0, 0), (3, 2)).unwrap();
    s.run(None);
    let before = (s.status(), s.path(), s.iterations());
    for (st, go, axis, value) in [
        ((4, 0), (9, 9), "x", "4"),
        ((0, 3), (9, 0), "y", "3"),
        ((0, 0), (4, 0), "x", "4"),
        ((0, 0), (0, 7), "y", "7"),
    ] {
        let x = s.begin(st, go).err().unwrap();
        assert_eq!(x.class(), "cell_out_of_range");
        let m = x.to_string();
        assert!(m.contains(&format!("{axis} = {value}")), "{m}");
        assert!(
            m.contains(if st.0 >= 4 || st.1 >= 3 {
                "start"
            } else {
                "goal"
            }),
            "{m}"
        );
    }
    assert_eq!((s.status(), s.path(), s.iterations()), before);
    assert_eq!(
        find_hex_path(&g, (0, 5), (0, 0), &GridOptions::default())
            .err()
            .unwrap()
            .class(),
        "cell_out_of_range"
    );
    // new's errors come before begin's
    let bad = GridOptions {
        algorithm: GridAlgorithm::Jps,
        ..Default::default()
    };
    assert_eq!(
        find_hex_path(&g, (0, 5), (0, 0), &bad)
            .err()
            .unwrap()
            .class(),
        "unsupported_algorithm"
    );
}

#[test]
fn voxel_errors() {
    let g = VoxelGrid::new(3, 4, 5, 0).unwrap();
    for w in [f64::NAN, 0.99, f64::INFINITY, -1.0] {
        let x = VoxelSearch::new(
            &g,
            VoxelOptions {
                heuristic_weight: w,
                algorithm: GridAlgorithm::Jps,
                ..Default::default()
            },
        )
        .err()
        .unwrap();
        assert_eq!(x.class(), "invalid_options");
        assert!(x.to_string().contains("heuristic_weight"), "{x}");
    }
    let x = VoxelSearch::new(
        &g,
        VoxelOptions {
            heuristic_weight: 0.99,
            algorithm: GridAlgorithm::Dijkstra,
            ..Default::default()
        },
    )
    .err()
    .unwrap();
    assert_eq!(x.class(), "invalid_options");
    for alg in [
        GridAlgorithm::Jps,
        GridAlgorithm::JpsPlus,
        GridAlgorithm::Theta,
        GridAlgorithm::LazyTheta,
    ] {
        let x = VoxelSearch::new(
            &g,
            VoxelOptions {
                algorithm: alg,
                ..Default::default()
            },
        )
        .err()
        .unwrap();
        assert_eq!(x.class(), "unsupported_algorithm");
    }
    let mut s = VoxelSearch::new(&g, VoxelOptions::default()).unwrap();
    for (st, go, what) in [
        ((3, 0, 0), (9, 9, 9), "start x = 3"),
        ((0, 4, 0), (9, 9, 9), "start y = 4"),
        ((0, 0, 5), (9, 9, 9), "start z = 5"),
        ((0, 0, 0), (0, 0, 6), "goal z = 6"),
        ((0, 0, 0), (0, 9, 6), "goal y = 9"),
    ] {
        let x = s.begin(st, go).err().unwrap();
        assert_eq!(x.class(), "cell_out_of_range");
        assert!(x.to_string().contains(what), "{x}");
    }
    assert_eq!(s.status(), SearchStatus::NotStarted);
}

/// [VOXEL.COST.MOVE] [HEX.MOVE.COST] `-0.0` extra is allowed (counts as 0); NaN, negative and
/// `+infinity` disallow the move.
#[test]
fn extra_cost_values() {
    let g = HexGrid::new(2, 1, HexLayout::OddR).unwrap();
    let v = VoxelGrid::new(2, 1, 1, 0).unwrap();
    for (extra, found) in [
        (-0.0, true),
        (0.5, true),
        (f64::NAN, false),
        (-1e-300, false),
        (f64::INFINITY, false),
        (f64::NEG_INFINITY, false),
    ] {
        let hook: CellCostFn = Arc::new(move |_, _| extra);
        let o = GridOptions {
            cell_cost: Some(hook.clone()),
            ..Default::default()
        };
        let p = find_hex_path(&g, (0, 0), (1, 0), &o).unwrap();
        assert_eq!(p.status == PathStatus::Found, found, "hex {extra}");
        if found {
            assert_eq!(p.cost, 1.0 + extra);
            assert!(p.cost.is_sign_positive());
        }
        let o = VoxelOptions {
            cell_cost: Some(hook),
            ..Default::default()
        };
        let p = find_voxel_path(&v, (0, 0, 0), (1, 0, 0), &o).unwrap();
        assert_eq!(p.status == PathStatus::Found, found, "voxel {extra}");
    }
}

#[test]
fn blocked_hook_and_solid_default() {
    let v = VoxelGrid::new(3, 1, 1, 0).unwrap();
    let b: CellBlockedFn = Arc::new(|c| c == 1);
    let o = VoxelOptions {
        blocked: Some(b.clone()),
        ..Default::default()
    };
    assert_eq!(
        find_voxel_path(&v, (0, 0, 0), (2, 0, 0), &o)
            .unwrap()
            .status,
        PathStatus::NotFound
    );
    let p = find_voxel_path(&v, (1, 0, 0), (2, 0, 0), &o).unwrap();
    assert_eq!((p.status, p.iterations), (PathStatus::NotFound, 0));
    let solid = VoxelGrid::new(4, 4, 4, 255).unwrap();
    let p = find_voxel_path(&solid, (0, 0, 0), (1, 0, 0), &VoxelOptions::default()).unwrap();
    assert_eq!((p.status, p.iterations), (PathStatus::NotFound, 0));
    let g = HexGrid::new(3, 1, HexLayout::OddR).unwrap();
    let o = GridOptions {
        blocked: Some(b),
        ..Default::default()
    };
    assert_eq!(
        find_hex_path(&g, (0, 0), (2, 0), &o).unwrap().status,
        PathStatus::NotFound
    );
}
