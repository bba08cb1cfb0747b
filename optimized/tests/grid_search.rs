//! Grid search (spec/grid-search.md): hand-checked grids, brute-force optimal costs, sliced =
//! unsliced, state round trips and restore errors.
use onepath::*;

const R2: f64 = std::f64::consts::SQRT_2;

/// Grid from rows: '#' wall, '.' area 0, digits area n.
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

fn opts(alg: GridAlgorithm) -> GridOptions {
    GridOptions {
        algorithm: alg,
        record_expansions: true,
        ..GridOptions::default()
    }
}

/// Exact (a, b) pair comparison, independent of the crate.
fn pless(p: (i64, i64), q: (i64, i64)) -> bool {
    // a1 + b1 r < a2 + b2 r
    let (x, y) = (p.0 - q.0, q.1 - p.1); // x < y r
    if y >= 0 && x < 0 || y > 0 && x <= 0 {
        return true;
    }
    if x >= 0 && y <= 0 {
        return false;
    }
    if x > 0 {
        x * x < 2 * y * y
    } else {
        x * x > 2 * y * y
    }
}

/// Brute-force Dijkstra over cost pairs (8-connected, no corner cutting): the optimal pair.
fn brute(g: &Grid, s: (usize, usize), t: (usize, usize)) -> Option<(i64, i64)> {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let pass = |x: i64, y: i64| {
        x >= 0 && y >= 0 && x < w && y < h && g.cell(x as usize, y as usize).unwrap() != WALL
    };
    if !pass(s.0 as i64, s.1 as i64) || !pass(t.0 as i64, t.1 as i64) {
        return None;
    }
    let n = (w * h) as usize;
    let mut best: Vec<Option<(i64, i64)>> = vec![None; n];
    let mut done = vec![false; n];
    best[s.1 * w as usize + s.0] = Some((0, 0));
    loop {
        let mut u = None;
        for i in 0..n {
            if let (false, Some(p)) = (done[i], best[i]) {
                if u.is_none_or(|(_, q)| pless(p, q)) {
                    u = Some((i, p));
                }
            }
        }
        let (i, p) = u?;
        done[i] = true;
        let (x, y) = ((i as i64) % w, (i as i64) / w);
        if (x as usize, y as usize) == t {
            return Some(p);
        }
        for dx in -1..=1i64 {
            for dy in -1..=1i64 {
                if (dx, dy) == (0, 0) || !pass(x + dx, y + dy) {
                    continue;
                }
                if dx != 0 && dy != 0 && !(pass(x + dx, y) && pass(x, y + dy)) {
                    continue;
                }
                let q = if dx != 0 && dy != 0 {
                    (p.0, p.1 + 1)
                } else {
                    (p.0 + 1, p.1)
                };
                let j = ((y + dy) * w + x + dx) as usize;
                if best[j].is_none_or(|b| pless(q, b)) {
                    best[j] = Some(q);
                }
            }
        }
    }
}

/// Tiny LCG for reproducible random grids.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn random_grid(rng: &mut Lcg, w: usize, h: usize, wall_pct: u64) -> Grid {
    let mut g = Grid::new(w, h).unwrap();
    for y in 0..h {
        for x in 0..w {
            if rng.next(100) < wall_pct {
                g.set_cell(x, y, WALL).unwrap();
            }
        }
    }
    g
}

/// Checks a full-cell path: contiguous, passable, corner rule, starts/ends right, and its pair.
fn path_pair(g: &Grid, path: &[u32], s: (usize, usize), t: (usize, usize)) -> (i64, i64) {
    let w = g.width() as i64;
    let xy = |c: u32| ((c as i64) % w, (c as i64) / w);
    assert_eq!(xy(path[0]), (s.0 as i64, s.1 as i64));
    assert_eq!(xy(*path.last().unwrap()), (t.0 as i64, t.1 as i64));
    let mut p = (0, 0);
    for win in path.windows(2) {
        let (a, b) = (xy(win[0]), xy(win[1]));
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        assert!(dx.abs() <= 1 && dy.abs() <= 1 && (dx, dy) != (0, 0));
        assert_ne!(g.cell(b.0 as usize, b.1 as usize).unwrap(), WALL);
        if dx != 0 && dy != 0 {
            assert_ne!(g.cell((a.0 + dx) as usize, a.1 as usize).unwrap(), WALL);
            assert_ne!(g.cell(a.0 as usize, (a.1 + dy) as usize).unwrap(), WALL);
            p.1 += 1;
        } else {
            p.0 += 1;
        }
    }
    p
}

fn pair_cost(p: (i64, i64)) -> f64 {
    p.0 as f64 + (p.1 as f64) * R2
}

#[test]
fn open_grid_costs_and_paths_by_hand() {
    let g = grid(&[".....", ".....", "....."]);
    // (0,0) -> (4,2): two diagonals, two straights: 2 + 2*sqrt2.
    for alg in [
        GridAlgorithm::AStar,
        GridAlgorithm::Dijkstra,
        GridAlgorithm::Jps,
        GridAlgorithm::JpsPlus,
    ] {
        let r = find_grid_path(&g, (0, 0), (4, 2), &opts(alg)).unwrap();
        assert_eq!(r.status, PathStatus::Found);
        assert_eq!(r.cost.to_bits(), (2.0 + 2.0 * R2).to_bits(), "{alg:?}");
        assert_eq!(r.cells.len(), 5);
        assert_eq!(r.points[0], (0.5, 0.5));
        assert_eq!(r.expanded.len() as u64, r.expanded_count);
    }
    // Mode 1 on a straight corridor: cells 0..4 in order, A* pops only the corridor.
    let c = grid(&["....."]);
    let r = find_grid_path(&c, (0, 0), (4, 0), &opts(GridAlgorithm::AStar)).unwrap();
    assert_eq!(r.cells, vec![0, 1, 2, 3, 4]);
    assert_eq!((r.cost, r.iterations, r.expanded_count), (4.0, 5, 4));
    assert_eq!(r.expanded, vec![0, 1, 2, 3]);
    // JPS on the same corridor: start, then the goal as the only jump point.
    let r = find_grid_path(&c, (0, 0), (4, 0), &opts(GridAlgorithm::Jps)).unwrap();
    assert_eq!((r.cells.len(), r.iterations, r.expanded_count), (5, 2, 1));
    assert_eq!(r.expanded, vec![0]);
}

#[test]
fn walls_corners_and_not_found() {
    // No corner cutting: (0,0) -> (1,1) around a wall at (1,0).
    let g = grid(&[".#", ".."]);
    let r = find_grid_path(&g, (0, 0), (1, 1), &opts(GridAlgorithm::AStar)).unwrap();
    assert_eq!((r.cost, r.cells.clone()), (2.0, vec![0, 2, 3]));
    let mut o = opts(GridAlgorithm::AStar);
    o.diagonal = DiagonalRule::AtMostOneBlocked;
    let r = find_grid_path(&g, (0, 0), (1, 1), &o).unwrap();
    assert_eq!((r.cost, r.cells), (R2, vec![0, 3]));
    // Walled-off goal.
    let g = grid(&[".#.", "##.", "..."]);
    let r = find_grid_path(&g, (0, 0), (2, 2), &opts(GridAlgorithm::Jps)).unwrap();
    assert_eq!(
        (r.status, r.cost, r.iterations),
        (PathStatus::NotFound, f64::INFINITY, 1)
    );
    // Wall start: NotFound with nothing popped.
    let r = find_grid_path(&g, (1, 0), (2, 2), &opts(GridAlgorithm::AStar)).unwrap();
    assert_eq!((r.status, r.iterations), (PathStatus::NotFound, 0));
    // Budget.
    let g = grid(&["......"]);
    let mut o = opts(GridAlgorithm::Dijkstra);
    o.iteration_budget = 2;
    let r = find_grid_path(&g, (0, 0), (5, 0), &o).unwrap();
    assert_eq!((r.status, r.iterations), (PathStatus::BudgetExhausted, 2));
    // Errors.
    let e = find_grid_path(&g, (6, 0), (0, 0), &o).unwrap_err();
    assert_eq!(e.class(), "cell_out_of_range");
    assert!(e.to_string().contains("x = 6"));
    let e = find_grid_path(&g, (0, 0), (0, 1), &o).unwrap_err();
    assert!(e.to_string().contains("goal y = 1"));
    o.heuristic_weight = 0.5;
    assert_eq!(
        find_grid_path(&g, (0, 0), (1, 0), &o).unwrap_err().class(),
        "invalid_options"
    );
    let o = opts(GridAlgorithm::Theta);
    assert_eq!(
        GridSearch::new(&g, o.clone()).err().unwrap().class(),
        "unsupported_algorithm"
    );
    assert_eq!(
        AStar::new(&g, o).err().unwrap().class(),
        "unsupported_algorithm"
    );
    assert_eq!(
        ThetaSearch::new(&g, opts(GridAlgorithm::AStar))
            .err()
            .unwrap()
            .class(),
        "unsupported_algorithm"
    );
    let mut j = opts(GridAlgorithm::Jps);
    j.connectivity = Connectivity::Four;
    assert_eq!(
        JumpSearch::new(&g, j.clone()).err().unwrap().class(),
        "unsupported_algorithm"
    );
    // JPS whose options fall back runs A* (mode 2).
    let mut s = GridSearch::new(&g, j).unwrap();
    assert_eq!(s.engine(), GridEngine::NotBegun);
    s.begin((0, 0), (5, 0)).unwrap();
    assert_eq!(
        (s.engine(), s.algorithm()),
        (GridEngine::GenericAStar, GridAlgorithm::AStar)
    );
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.path_cost(), 5.0);
}

#[test]
fn engines_selected_by_options() {
    let mut g = grid(&["....", "...."]);
    let sel = |g: &Grid, o: GridOptions| {
        let mut s = GridSearch::new(g, o).unwrap();
        s.begin((0, 0), (3, 1)).unwrap();
        s.engine()
    };
    assert_eq!(
        sel(&g, opts(GridAlgorithm::AStar)),
        GridEngine::SpecialisedAStar
    );
    assert_eq!(
        sel(&g, opts(GridAlgorithm::Jps)),
        GridEngine::SpecialisedJump { finder: 0 }
    );
    assert_eq!(
        sel(&g, opts(GridAlgorithm::JpsPlus)),
        GridEngine::SpecialisedJump { finder: 1 }
    );
    let mut o = opts(GridAlgorithm::Jps);
    o.blocked = Some(std::sync::Arc::new(|c| c == 5));
    assert_eq!(sel(&g, o), GridEngine::GenericJump);
    g.set_area_multiplier(3, 2.0).unwrap();
    assert_eq!(
        sel(&g, opts(GridAlgorithm::AStar)),
        GridEngine::GenericAStar
    );
}

#[test]
fn area_costs_and_hooks_in_generic_astar() {
    // Area 1 costs 5: the path goes around it.
    let mut g = grid(&["...", ".1.", "..."]);
    g.set_area_multiplier(1, 5.0).unwrap();
    let r = find_grid_path(&g, (1, 0), (1, 2), &opts(GridAlgorithm::AStar)).unwrap();
    assert_eq!(r.cost, R2 + R2);
    assert_eq!(r.cells.len(), 3);
    assert_ne!(r.cells[1], 4);
    // A cell_cost hook of +10 into cell 1 and a NaN into cell 3.
    let g = grid(&["..", ".."]);
    let mut o = opts(GridAlgorithm::Dijkstra);
    o.cell_cost = Some(std::sync::Arc::new(|_, to| match to {
        1 => 10.0,
        2 => f64::NAN,
        _ => 0.0,
    }));
    o.diagonal = DiagonalRule::Always;
    let r = find_grid_path(&g, (0, 0), (1, 1), &o).unwrap();
    assert_eq!((r.cost, r.cells), (R2, vec![0, 3]));
    o.connectivity = Connectivity::Four;
    let r = find_grid_path(&g, (0, 0), (1, 1), &o).unwrap();
    assert_eq!((r.cost, r.cells), (12.0, vec![0, 1, 3]));
}

#[test]
fn jump_engines_match_brute_force_optimum() {
    let mut rng = Lcg(7);
    for round in 0..60 {
        let (w, h) = (3 + rng.next(14) as usize, 3 + rng.next(14) as usize);
        let g = random_grid(&mut rng, w, h, 25);
        let s = (rng.next(w as u64) as usize, rng.next(h as u64) as usize);
        let t = (rng.next(w as u64) as usize, rng.next(h as u64) as usize);
        let want = brute(&g, s, t);
        let mut costs = Vec::new();
        for alg in [
            GridAlgorithm::AStar,
            GridAlgorithm::Dijkstra,
            GridAlgorithm::Jps,
            GridAlgorithm::JpsPlus,
        ] {
            let r = find_grid_path(&g, s, t, &opts(alg)).unwrap();
            match want {
                None => assert_eq!(r.status, PathStatus::NotFound, "round {round} {alg:?}"),
                Some(p) => {
                    assert_eq!(r.status, PathStatus::Found, "round {round} {alg:?}");
                    assert_eq!(path_pair(&g, &r.cells, s, t), p, "round {round} {alg:?}");
                    assert_eq!(r.cost.to_bits(), pair_cost(p).to_bits());
                }
            }
            costs.push(r);
        }
        // JPS and JPS+ (finder 0 vs 1) are identical in everything.
        assert_eq!(costs[2].cells, costs[3].cells);
        assert_eq!(costs[2].expanded, costs[3].expanded);
        // Generic JumpSearch (blocked hook that blocks nothing) finds the same optimum.
        let mut o = opts(GridAlgorithm::Jps);
        o.blocked = Some(std::sync::Arc::new(|_| false));
        let mut js = GridSearch::new(&g, o).unwrap();
        js.begin(s, t).unwrap();
        assert_eq!(js.engine(), GridEngine::GenericJump);
        js.run(None);
        if let Some(p) = want {
            assert_eq!(path_pair(&g, &js.path(), s, t), p);
            assert!((js.path_cost() - pair_cost(p)).abs() < 1e-9);
        }
    }
}

#[test]
fn theta_by_hand() {
    let g = grid(&["....", "....", "...."]);
    for alg in [GridAlgorithm::Theta, GridAlgorithm::LazyTheta] {
        let r = find_grid_path(&g, (0, 0), (3, 2), &opts(alg)).unwrap();
        assert_eq!(r.cells, vec![0, 11], "{alg:?}");
        assert_eq!(r.cost, (13.0f64).sqrt());
    }
    // A wall at (1,1): no diagonal move passes it (NoneBlocked) and every segment touching
    // its corners is out of sight, so (0,1) -> (2,1) goes (0,0), (2,0): cost 1 + 2 + 1.
    let g = grid(&["...", ".#.", "..."]);
    for alg in [GridAlgorithm::Theta, GridAlgorithm::LazyTheta] {
        let r = find_grid_path(&g, (0, 1), (2, 1), &opts(alg)).unwrap();
        assert_eq!(r.status, PathStatus::Found);
        assert_eq!(r.cells, vec![3, 0, 2, 5], "{alg:?}");
        assert_eq!(r.cost, 4.0);
    }
    // Line of sight passing between cells: (0,0) -> (2,1) crosses the shared corner of (1,0)
    // and (1,1); with (1,1) a wall it is blocked, with (2,2) a wall it is not.
    let g = grid(&["...", "...", "..#"]);
    let r = find_grid_path(&g, (0, 0), (2, 1), &opts(GridAlgorithm::Theta)).unwrap();
    assert_eq!((r.cells, r.cost), (vec![0, 5], 5.0f64.sqrt()));
}

fn states_of<F: FnMut(u64) -> Vec<u8>>(mut f: F) -> Vec<Vec<u8>> {
    (0..6).map(&mut f).collect()
}

/// Runs `budget` iterations, saves, restores into a fresh search, checks the bytes round-trip,
/// runs both to the end and compares everything.
macro_rules! roundtrip {
    ($ty:ident, $g:expr, $o:expr, $s:expr, $t:expr) => {{
        let full = {
            let mut a = $ty::new($g, $o.clone()).unwrap();
            a.begin($s, $t).unwrap();
            a.run(None);
            (
                a.path(),
                a.path_cost().to_bits(),
                a.iterations(),
                a.expanded_count(),
                a.save_state(),
            )
        };
        for budget in [0u64, 1, 2, 3, 5, 8, 13] {
            let mut a = $ty::new($g, $o.clone()).unwrap();
            a.begin($s, $t).unwrap();
            a.step(budget);
            let bytes = a.save_state();
            let mut b = $ty::new($g, $o.clone()).unwrap();
            b.restore_state(&bytes).unwrap();
            assert_eq!(b.save_state(), bytes, "budget {budget}");
            // sliced: in steps of 1 from here.
            while a.step(1) == SearchStatus::Running {}
            b.run(None);
            let got = (
                b.path(),
                b.path_cost().to_bits(),
                b.iterations(),
                b.expanded_count(),
            );
            assert_eq!(
                (
                    a.path(),
                    a.path_cost().to_bits(),
                    a.iterations(),
                    a.expanded_count()
                ),
                got.clone()
            );
            assert_eq!((full.0.clone(), full.1, full.2, full.3), got);
            assert_eq!(a.save_state(), full.4);
        }
        full.4
    }};
}

#[test]
fn state_roundtrips_and_sliced_equals_unsliced() {
    let mut rng = Lcg(3);
    let _ = states_of(|_| Vec::new());
    for _ in 0..8 {
        let g = random_grid(&mut rng, 12, 9, 20);
        let s = (rng.next(12) as usize, rng.next(9) as usize);
        let t = (rng.next(12) as usize, rng.next(9) as usize);
        for alg in [
            GridAlgorithm::AStar,
            GridAlgorithm::Dijkstra,
            GridAlgorithm::Jps,
            GridAlgorithm::JpsPlus,
        ] {
            let o = opts(alg);
            roundtrip!(GridSearch, &g, o, s, t);
            let mut o2 = opts(alg);
            o2.blocked = Some(std::sync::Arc::new(|_| false));
            roundtrip!(GridSearch, &g, o2, s, t);
        }
        let mut o = opts(GridAlgorithm::AStar);
        o.heuristic_weight = 1.5;
        roundtrip!(AStar, &g, o, s, t);
        roundtrip!(JumpSearch, &g, opts(GridAlgorithm::Jps), s, t);
        roundtrip!(ThetaSearch, &g, opts(GridAlgorithm::Theta), s, t);
        roundtrip!(ThetaSearch, &g, opts(GridAlgorithm::LazyTheta), s, t);
    }
}

fn le(v: i32) -> [u8; 4] {
    v.to_le_bytes()
}

#[test]
fn grid_search_state_bytes_by_hand() {
    // 3x1 corridor, A* from 0 to 2, one iteration: start closed, cell 1 open.
    let g = grid(&["..."]);
    let mut s = GridSearch::new(&g, opts(GridAlgorithm::AStar)).unwrap();
    let mode0 = s.save_state();
    assert_eq!(
        mode0,
        [&b"OPGS"[..], &[1, 0, 12, 0, 0], &le(3), &le(1)].concat()
    );
    s.begin((0, 0), (2, 0)).unwrap();
    s.step(1);
    let mut want = [&b"OPGS"[..], &[1, 0, 12, 0, 1], &le(3), &le(1), &[1, 0]].concat();
    for v in [0, 2, 1, 1, -1, -1, 2] {
        want.extend_from_slice(&le(v));
    }
    // cell 0: (0,0) closed; cell 1: (1,0), open, entered moving E (direction 1 = west to parent).
    want.extend_from_slice(&[&le(0)[..], &le(0), &le(0), &[1]].concat());
    want.extend_from_slice(&[&le(1)[..], &le(1), &le(0), &[1 << 1]].concat());
    assert_eq!(s.save_state(), want);
    // Errors at their offsets; each leaves mode 0.
    let err = |s: &mut GridSearch, b: &[u8]| {
        let e = s.restore_state(b).unwrap_err();
        assert_eq!(s.engine(), GridEngine::NotBegun);
        assert_eq!(s.save_state(), mode0);
        (e.class(), e.offset())
    };
    let mut b = want.clone();
    b[0] = b'X';
    assert_eq!(err(&mut s, &b), ("bad_magic", 0));
    let mut b = want.clone();
    b[8] = 4;
    assert_eq!(err(&mut s, &b), ("out_of_range", 8));
    let mut b = want.clone();
    b[8] = 3;
    assert_eq!(err(&mut s, &b), ("engine_mismatch", 8));
    let mut b = want.clone();
    b[9] = 4;
    assert_eq!(err(&mut s, &b), ("size_mismatch", 9));
    let mut b = want.clone();
    b[18] = 1; // zeroEstimate: this is A*
    assert_eq!(err(&mut s, &b), ("engine_mismatch", 18));
    let mut b = want.clone();
    b[18] = 2;
    assert_eq!(err(&mut s, &b), ("bad_flag", 18));
    let mut b = want.clone();
    b[47 + 13 + 12] = 0x10;
    assert_eq!(err(&mut s, &b), ("bad_flag", 72));
    let mut b = want.clone();
    b[47 + 13 + 12] = 2 << 1; // parent would be north of the grid
    assert_eq!(err(&mut s, &b), ("bad_parent", 60));
    let mut b = want.clone();
    b[31] = 2;
    assert_eq!(err(&mut s, &b), ("out_of_range", 31));
    let mut b = want.clone();
    b.push(0);
    assert_eq!(err(&mut s, &b), ("trailing_bytes", want.len()));
    let b = &want[..50];
    assert_eq!(err(&mut s, b), ("count_out_of_range", 43));
    // A wall under a visited cell: not_walkable at its cell field.
    let g2 = grid(&[".#."]);
    let mut s2 = GridSearch::new(&g2, opts(GridAlgorithm::AStar)).unwrap();
    let e = s2.restore_state(&want).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("not_walkable", 60));
    // And the good bytes restore and finish as the original.
    s.restore_state(&want).unwrap();
    assert_eq!(s.engine(), GridEngine::SpecialisedAStar);
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(
        (s.path(), s.path_cost(), s.iterations()),
        (vec![0, 1, 2], 2.0, 3)
    );
}

#[test]
fn mode3_and_mode2_state_errors() {
    let g = grid(&["....", "....", "...."]);
    let mut s = GridSearch::new(&g, opts(GridAlgorithm::Jps)).unwrap();
    s.begin((0, 0), (3, 2)).unwrap();
    s.step(1);
    let b = s.save_state();
    assert_eq!(b[17], 0); // finder
    let mut plus = GridSearch::new(&g, opts(GridAlgorithm::JpsPlus)).unwrap();
    let e = plus.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("engine_mismatch", 17));
    let mut x = b.clone();
    x[17] = 2;
    let e = s.restore_state(&x).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 17));
    assert_eq!(s.status(), SearchStatus::NotStarted);
    s.restore_state(&b).unwrap();
    assert_eq!(s.save_state(), b);
    // Mode 2 (generic A* from a weighted options set).
    let mut o = opts(GridAlgorithm::AStar);
    o.heuristic_weight = 2.0;
    let mut a = GridSearch::new(&g, o.clone()).unwrap();
    a.begin((0, 0), (3, 2)).unwrap();
    a.step(2);
    let b = a.save_state();
    assert_eq!(b[8], 2);
    let mut x = b.clone();
    x[37 + 6] = 9; // embedded kind JumpSearch: not what this handle selects
    let e = a.restore_state(&x).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("engine_mismatch", 43));
    x[37 + 6] = 11;
    let e = a.restore_state(&x).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("wrong_kind", 43));
    let mut x = b.clone();
    x[17] = 1; // header startX 1 != embedded start 0
    let e = a.restore_state(&x).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 37 + 21));
    let mut x = b.clone();
    x[33] = 0;
    let e = a.restore_state(&x).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("count_out_of_range", 33));
    let mut x = b.clone();
    x[37 + 13..37 + 21].copy_from_slice(&1.0f64.to_le_bytes());
    let e = a.restore_state(&x).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("size_mismatch", 37 + 13));
    a.restore_state(&b).unwrap();
    assert_eq!(a.save_state(), b);
}

#[test]
fn clearance_by_hand() {
    let mut g = grid(&["...", ".#.", "..."]);
    assert_eq!(g.clearance(0, 0).unwrap(), None);
    g.compute_clearance();
    // Row 2: 1s next to the edge; (0,0): min(c(1,0)=1, c(0,1)=1, c(1,1)=0) + 1 = 1.
    let row = |g: &Grid, y| {
        (0..3)
            .map(|x| g.clearance(x, y).unwrap().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(row(&g, 0), vec![1, 1, 1]);
    assert_eq!(row(&g, 1), vec![1, 0, 1]);
    assert_eq!(row(&g, 2), vec![1, 1, 1]);
    g.set_cell(1, 1, 0).unwrap();
    assert_eq!(row(&g, 0), vec![3, 2, 1]);
    assert_eq!(row(&g, 1), vec![2, 2, 1]);
    assert_eq!(g.clearance(3, 0).unwrap_err().class(), "cell_out_of_range");
    let saved = g.save_state();
    g.set_cell(0, 0, WALL).unwrap();
    assert_eq!(g.clearance(0, 0).unwrap(), Some(0));
    g.restore_state(&saved).unwrap();
    assert_eq!(g.clearance(0, 0).unwrap(), Some(3));
    // Agent size 2 needs clearance 2: on a 3x3 open grid only (0..2, 0..2) are passable.
    let mut o = opts(GridAlgorithm::AStar);
    o.agent_size = 2;
    let r = find_grid_path(&g, (0, 0), (1, 1), &o).unwrap();
    assert_eq!(r.cost, R2);
    let r = find_grid_path(&g, (0, 0), (2, 2), &o).unwrap();
    assert_eq!(r.status, PathStatus::NotFound);
}

#[test]
fn mode3_state_bytes_by_hand() {
    // 4x3 open grid, JPS (0,0) -> (3,2). The start's only jump point is (2,2) (SE; from there
    // the goal is due east), pair (0, 2), F = 2r + 1 == the start's F = 1 + 2r: on the stack.
    let g = grid(&["....", "....", "...."]);
    let mut s = GridSearch::new(&g, opts(GridAlgorithm::Jps)).unwrap();
    s.begin((0, 0), (3, 2)).unwrap();
    s.step(1);
    let level = 1.0 + 2.0 * R2;
    let mut want = [&b"OPGS"[..], &[1, 0, 12, 0, 3], &le(4), &le(3), &[0, 1, 0]].concat();
    for v in [0, 11, 1, 1, -1, -1, 2] {
        want.extend_from_slice(&le(v));
    }
    for (c, a, b, p, f) in [(0, 0, 0, -1, 1u8), (10, 0, 2, 0, 5 << 1)] {
        want.extend_from_slice(&[&le(c)[..], &le(a), &le(b), &le(p), &[f]].concat());
    }
    want.extend_from_slice(&level.to_le_bytes());
    want.extend_from_slice(&le(0));
    want.extend_from_slice(&le(1));
    want.extend_from_slice(&le(10));
    assert_eq!(s.save_state(), want);
    let err = |b: &[u8]| {
        let mut t = GridSearch::new(&g, opts(GridAlgorithm::Jps)).unwrap();
        let e = t.restore_state(b).unwrap_err();
        assert_eq!(t.engine(), GridEngine::NotBegun);
        (e.class(), e.offset())
    };
    let with = |at: usize, bytes: &[u8]| {
        let mut b = want.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    assert_eq!(
        err(&with(82, &0x7FF8_0000_0000_0001u64.to_le_bytes())),
        ("nan", 82)
    );
    assert_eq!(
        err(&with(82, &f64::INFINITY.to_le_bytes())),
        ("out_of_range", 82)
    );
    assert_eq!(
        err(&with(82, &0x7FF8_0000_0000_0000u64.to_le_bytes())),
        ("out_of_range", 82)
    );
    assert_eq!(err(&with(98, &le(5))), ("bad_heap_node", 98));
    assert_eq!(err(&with(98, &le(12))), ("bad_heap_node", 98));
    let mut b = with(94, &le(0));
    b.truncate(98);
    assert_eq!(err(&b), ("missing_open_node", 65));
    assert_eq!(err(&with(18, &[3])), ("out_of_range", 90));
    assert_eq!(err(&with(65 + 16, &[4 << 1])), ("bad_parent", 65));
    assert_eq!(err(&with(65 + 8, &le(1))), ("bad_parent", 65));
    assert_eq!(err(&with(19, &[1])), ("engine_mismatch", 19));
    assert_eq!(err(&with(94, &le(2))), ("count_out_of_range", 94));
    // Good bytes: restore, save equal, finish: (2,2) then the goal pop from the stack.
    s.restore_state(&want).unwrap();
    assert_eq!(s.save_state(), want);
    assert!(s.expansions().is_empty());
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(
        (s.path(), s.iterations(), s.expanded_count()),
        (vec![0, 5, 10, 11], 3, 2)
    );
    assert_eq!(s.path_cost(), level);
    assert_eq!(s.expansions(), &[10]);
}

#[test]
fn one_handle_many_queries_equals_fresh_handles() {
    let mut rng = Lcg(99);
    let g = random_grid(&mut rng, 20, 15, 25);
    for alg in [
        GridAlgorithm::AStar,
        GridAlgorithm::Dijkstra,
        GridAlgorithm::Jps,
        GridAlgorithm::JpsPlus,
    ] {
        let mut h = GridSearch::new(&g, opts(alg)).unwrap();
        for _ in 0..20 {
            let s = (rng.next(20) as usize, rng.next(15) as usize);
            let t = (rng.next(20) as usize, rng.next(15) as usize);
            h.begin(s, t).unwrap();
            h.run(None);
            let fresh = find_grid_path(&g, s, t, &opts(alg)).unwrap();
            assert_eq!(h.path(), fresh.cells);
            assert_eq!(h.path_cost().to_bits(), fresh.cost.to_bits());
            assert_eq!(h.expansions(), &fresh.expanded[..]);
            assert_eq!(h.iterations(), fresh.iterations);
        }
    }
}

#[test]
fn four_connected_mode1_is_bfs_distance() {
    let mut rng = Lcg(21);
    for _ in 0..30 {
        let g = random_grid(&mut rng, 10, 8, 30);
        let s = (rng.next(10) as usize, rng.next(8) as usize);
        let t = (rng.next(10) as usize, rng.next(8) as usize);
        // BFS.
        let idx = |x: usize, y: usize| y * 10 + x;
        let mut dist = vec![u32::MAX; 80];
        let free = |x: usize, y: usize| g.cell(x, y).unwrap() != WALL;
        let mut q = std::collections::VecDeque::new();
        if free(s.0, s.1) && free(t.0, t.1) {
            dist[idx(s.0, s.1)] = 0;
            q.push_back(s);
        }
        while let Some((x, y)) = q.pop_front() {
            for (dx, dy) in [(0i64, -1i64), (1, 0), (0, 1), (-1, 0)] {
                let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                if nx < 0 || ny < 0 || nx >= 10 || ny >= 8 || !free(nx as usize, ny as usize) {
                    continue;
                }
                let j = idx(nx as usize, ny as usize);
                if dist[j] == u32::MAX {
                    dist[j] = dist[idx(x, y)] + 1;
                    q.push_back((nx as usize, ny as usize));
                }
            }
        }
        let d = dist[idx(t.0, t.1)];
        for alg in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
            let mut o = opts(alg);
            o.connectivity = Connectivity::Four;
            let r = find_grid_path(&g, s, t, &o).unwrap();
            if d == u32::MAX {
                assert_eq!(r.status, PathStatus::NotFound);
            } else {
                assert_eq!((r.cost, r.cells.len()), (d as f64, d as usize + 1));
            }
        }
    }
}

#[test]
fn generic_state_errors() {
    let g = grid(&["....", "...."]);
    let mut j = JumpSearch::new(&g, opts(GridAlgorithm::Jps)).unwrap();
    j.begin((0, 0), (3, 1)).unwrap();
    j.step(1);
    let b = j.save_state();
    assert_eq!(&b[6..8], &[9, 0]);
    assert_eq!(&b[13..21], &1.0f64.to_le_bytes());
    assert_eq!(&b[21..25], &le(-1)); // kind 9 writes start -1
    let mut a = AStar::new(&g, opts(GridAlgorithm::AStar)).unwrap();
    let e = a.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("wrong_kind", 6));
    let mut x = b.clone();
    x[21..25].copy_from_slice(&le(0));
    let e = j.restore_state(&x).unwrap_err();
    assert_eq!(
        (e.class(), e.offset(), j.status()),
        ("index_out_of_range", 21, SearchStatus::NotStarted)
    );
    let mut x = b.clone();
    x[13..21].copy_from_slice(&2.0f64.to_le_bytes());
    let e = j.restore_state(&x).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("size_mismatch", 13));
    j.restore_state(&b).unwrap();
    assert_eq!(j.save_state(), b);
    // Theta with weight 1.25 saves its weight; a weight-1 search refuses it.
    let mut o = opts(GridAlgorithm::LazyTheta);
    o.heuristic_weight = 1.25;
    let mut t = ThetaSearch::new(&g, o).unwrap();
    t.begin((0, 0), (3, 1)).unwrap();
    t.step(2);
    let b = t.save_state();
    assert_eq!(&b[13..21], &1.25f64.to_le_bytes());
    let mut t1 = ThetaSearch::new(&g, opts(GridAlgorithm::LazyTheta)).unwrap();
    let e = t1.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("size_mismatch", 13));
    t.restore_state(&b).unwrap();
    assert_eq!(t.save_state(), b);
}
