//! Bidirectional search on square grids (spec/grid-bidi.md): hand-traced cases pinning each
//! clause, and a seeded random comparison with a plain Dijkstra over all cells written here from
//! spec/grid-search.md §2–§3 alone.

use onepath_reference::{
    find_grid_path_bidirectional, AStar, CellBlockedFn, CellCostFn, Connectivity, DiagonalRule,
    Grid, GridAlgorithm, GridBidiSearch, GridOptions, PathStatus, SearchStatus, SeededRandom, WALL,
};
use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

const SQRT_2: f64 = std::f64::consts::SQRT_2;

fn four_dijkstra() -> GridOptions {
    GridOptions {
        connectivity: Connectivity::Four,
        algorithm: GridAlgorithm::Dijkstra,
        record_expansions: true,
        ..GridOptions::default()
    }
}

fn search(grid: &Grid, o: GridOptions, s: (usize, usize), g: (usize, usize)) -> GridBidiSearch<'_> {
    let mut b = GridBidiSearch::new(grid, o).unwrap();
    b.begin(s, g).unwrap();
    b
}

// ---------------------------------------------------------------------------------------------
// Options and errors

/// [GBIDI.OPT.VALID] [GBIDI.OPT.WEIGHT] [GBIDI.OPT.ALGORITHM] [GBIDI.API.ERRORS] The order of the
/// option checks and their classes.
#[test]
fn options_are_checked_in_order() {
    let grid = Grid::new(3, 3).unwrap();
    let err = |o: GridOptions| GridBidiSearch::new(&grid, o).err().unwrap();
    let e = err(GridOptions {
        agent_size: 0,
        heuristic_weight: 2.0,
        algorithm: GridAlgorithm::Theta,
        ..GridOptions::default()
    });
    assert_eq!(e.class(), "invalid_options");
    assert!(e.to_string().contains("agent_size"), "{e}");
    for w in [0.5, f64::NAN, f64::INFINITY, 1.5, 1.0000000000000002] {
        for algorithm in [
            GridAlgorithm::AStar,
            GridAlgorithm::Dijkstra,
            GridAlgorithm::Jps,
        ] {
            let e = err(GridOptions {
                heuristic_weight: w,
                algorithm,
                ..GridOptions::default()
            });
            assert_eq!(e.class(), "invalid_options", "{w} {algorithm:?}");
            assert!(e.to_string().contains("heuristic_weight"), "{e}");
        }
    }
    for algorithm in [
        GridAlgorithm::Jps,
        GridAlgorithm::JpsPlus,
        GridAlgorithm::Theta,
        GridAlgorithm::LazyTheta,
    ] {
        let e = err(GridOptions {
            algorithm,
            ..GridOptions::default()
        });
        assert_eq!(e.class(), "unsupported_algorithm", "{algorithm:?}");
    }
    for algorithm in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
        let s = GridBidiSearch::new(
            &grid,
            GridOptions {
                algorithm,
                agent_size: 255,
                ..GridOptions::default()
            },
        )
        .unwrap();
        // [GBIDI.STATUS] A new search is NotStarted and step/run do nothing.
        let mut s = s;
        assert_eq!(s.status(), SearchStatus::NotStarted);
        assert_eq!(s.step(10), SearchStatus::NotStarted);
        assert_eq!(s.run(None), SearchStatus::NotStarted);
        assert_eq!((s.iterations(), s.meeting_cell()), (0, None));
        assert!(s.path().is_empty() && s.path_cost() == f64::INFINITY);
    }
}

/// [GBIDI.BEGIN] [GBIDI.API.ERRORS] `cell_out_of_range`, start first, x before y; a failed begin
/// changes nothing. [GBIDI.TIER1] Errors of `new`, then `begin`.
#[test]
fn begin_checks_the_cells_and_a_failure_changes_nothing() {
    let grid = Grid::new(4, 3).unwrap();
    let mut s = search(&grid, four_dijkstra(), (0, 0), (3, 2));
    assert_eq!(s.run(None), SearchStatus::Found);
    let before = (
        s.path(),
        s.path_cost(),
        s.iterations(),
        s.expansions().to_vec(),
        s.meeting_cell(),
    );
    for (start, goal, text) in [
        ((4, 9), (9, 9), "start x = 4"),
        ((0, 3), (9, 9), "start y = 3"),
        ((0, 0), (4, 0), "goal x = 4"),
        ((0, 0), (0, 3), "goal y = 3"),
    ] {
        let e = s.begin(start, goal).err().unwrap();
        assert_eq!(e.class(), "cell_out_of_range");
        assert!(e.to_string().contains(text), "{e}");
        assert_eq!(s.status(), SearchStatus::Found);
        let after = (
            s.path(),
            s.path_cost(),
            s.iterations(),
            s.expansions().to_vec(),
            s.meeting_cell(),
        );
        assert_eq!(after, before);
    }
    let bad = GridOptions {
        heuristic_weight: 3.0,
        ..GridOptions::default()
    };
    let e = find_grid_path_bidirectional(&grid, (9, 9), (0, 0), &bad)
        .err()
        .unwrap();
    assert_eq!(e.class(), "invalid_options");
    let e = find_grid_path_bidirectional(&grid, (9, 9), (0, 0), &GridOptions::default())
        .err()
        .unwrap();
    assert_eq!(e.class(), "cell_out_of_range");
}

// ---------------------------------------------------------------------------------------------
// Begin: blocked ends, start == goal

/// [GBIDI.BEGIN] A start or goal that is not passable (wall, hook, agent size) ends `NotFound` at
/// once with zero iterations, also when `start == goal`.
#[test]
fn ends_that_are_not_passable_end_the_search_at_once() {
    let mut grid = Grid::new(4, 3).unwrap();
    grid.set_cell(0, 0, WALL).unwrap();
    let blocked: CellBlockedFn = Arc::new(|c| c == 5);
    for (o, s, g) in [
        (GridOptions::default(), (0, 0), (3, 2)),
        (GridOptions::default(), (3, 2), (0, 0)),
        (GridOptions::default(), (0, 0), (0, 0)),
        (
            GridOptions {
                blocked: Some(blocked.clone()),
                ..GridOptions::default()
            },
            (3, 2),
            (1, 1),
        ),
        (
            GridOptions {
                blocked: Some(blocked),
                ..GridOptions::default()
            },
            (1, 1),
            (1, 1),
        ),
        // Agent size 2 cannot stand in the last column (clearance 1).
        (
            GridOptions {
                agent_size: 2,
                ..GridOptions::default()
            },
            (1, 0),
            (3, 0),
        ),
    ] {
        let mut b = search(&grid, o, s, g);
        assert_eq!(b.status(), SearchStatus::NotFound, "{s:?} {g:?}");
        assert_eq!(b.step(5), SearchStatus::NotFound);
        assert_eq!(
            (b.iterations(), b.expanded_count(), b.meeting_cell()),
            (0, 0, None)
        );
        assert!(b.path().is_empty());
        assert_eq!(b.path_cost(), f64::INFINITY);
    }
}

/// [GBIDI.SAME_CELL] `start == goal`: `Found` at once, cost 0, path `[start]`, meeting cell the
/// start, zero iterations and expansions; a forward `AStar` reports one iteration.
#[test]
fn start_equal_to_goal_is_found_without_an_iteration() {
    let grid = Grid::new(3, 3).unwrap();
    for algorithm in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
        let o = GridOptions {
            algorithm,
            record_expansions: true,
            ..GridOptions::default()
        };
        let b = search(&grid, o.clone(), (1, 2), (1, 2));
        assert_eq!(b.status(), SearchStatus::Found);
        assert_eq!(b.path(), vec![7]);
        assert_eq!(b.path_cost(), 0.0);
        assert_eq!((b.iterations(), b.expanded_count()), (0, 0));
        assert!(b.expansions().is_empty());
        assert_eq!(b.meeting_cell(), Some(7));
        let p = find_grid_path_bidirectional(&grid, (1, 2), (1, 2), &o).unwrap();
        assert_eq!(
            (p.status, p.cells, p.iterations),
            (PathStatus::Found, vec![7], 0)
        );
        let mut a = AStar::new(&grid, o).unwrap();
        a.begin((1, 2), (1, 2)).unwrap();
        a.run(None);
        assert_eq!(a.iterations(), 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-traced runs: alternation, stop, meeting, ties

/// [GBIDI.TURN] [GBIDI.STOP] [GBIDI.MEET] [GBIDI.COUNTERS] [GBIDI.PATH] A 5×1 corridor under
/// Dijkstra: pops 0 (fwd), 4 (bwd), 1 (fwd), 3 (bwd); the last relaxation meets at 2 with
/// `mu = 2 + 2`; then `top_f + top_b = 2 + 2 >= 4` stops.
#[test]
fn a_corridor_alternates_and_meets_in_the_middle() {
    let grid = Grid::new(5, 1).unwrap();
    let mut b = search(&grid, four_dijkstra(), (0, 0), (4, 0));
    assert_eq!(b.run(None), SearchStatus::Found);
    assert_eq!(b.expansions(), &[0, 4, 1, 3]);
    assert_eq!((b.iterations(), b.expanded_count()), (4, 4));
    assert_eq!(b.meeting_cell(), Some(2));
    assert_eq!(b.path(), vec![0, 1, 2, 3, 4]);
    assert_eq!(b.path_cost(), 4.0);
}

/// [GBIDI.MEET] [GBIDI.OPEN] [GBIDI.FORWARD] [GBIDI.BACKWARD] 3×3, four-connected Dijkstra from
/// 0 to 8: open-set ties pop the smaller cell (1 before 3); the backward pop of 5 meets first at
/// 2 (`mu = 4`), then at 4 and (after popping 7) at 6 with equal candidates, which keep 2.
#[test]
fn equal_meeting_candidates_keep_the_first_meeting_cell() {
    let grid = Grid::new(3, 3).unwrap();
    let mut b = search(&grid, four_dijkstra(), (0, 0), (2, 2));
    // [GBIDI.SLICED] one iteration at a time, the meeting cell visible while running.
    let mut meetings = Vec::new();
    while b.step(1) == SearchStatus::Running {
        meetings.push(b.meeting_cell());
    }
    // The sixth step(1) returns Found: the stop check follows the sixth pop.
    assert_eq!(meetings, vec![None, None, None, Some(2), Some(2)]);
    assert_eq!(b.status(), SearchStatus::Found);
    assert_eq!(b.expansions(), &[0, 8, 1, 5, 3, 7]);
    assert_eq!(b.path(), vec![0, 1, 2, 5, 8]);
    assert_eq!(b.path_cost(), 4.0);
}

/// [GBIDI.POTENTIAL] The same 3×3 query under `AStar`: `pf(v) = 2 - (x + y)`, every key on a
/// monotone path is 2, ties pop the larger `g`, and the search stops after 4 pops.
#[test]
fn astar_potentials_prune_the_same_query() {
    let grid = Grid::new(3, 3).unwrap();
    let o = GridOptions {
        algorithm: GridAlgorithm::AStar,
        ..four_dijkstra()
    };
    let mut b = search(&grid, o, (0, 0), (2, 2));
    assert_eq!(b.run(None), SearchStatus::Found);
    assert_eq!(b.expansions(), &[0, 8, 1, 5]);
    assert_eq!(b.meeting_cell(), Some(2));
    assert_eq!(b.path(), vec![0, 1, 2, 5, 8]);
    assert_eq!(b.path_cost(), 4.0);
}

/// [GBIDI.OPEN] [GBIDI.POTENTIAL] 4×4 four-connected A* from 0 to 15: every key is 3, so equal
/// keys pop the larger `g` first (2 before 4 and 5, 7 before 14 and 10); the meeting is at 3.
#[test]
fn equal_keys_pop_the_larger_g_first() {
    let grid = Grid::new(4, 4).unwrap();
    let o = GridOptions {
        algorithm: GridAlgorithm::AStar,
        ..four_dijkstra()
    };
    let mut b = search(&grid, o, (0, 0), (3, 3));
    assert_eq!(b.run(None), SearchStatus::Found);
    assert_eq!(b.expansions(), &[0, 15, 1, 11, 2, 7]);
    assert_eq!(b.meeting_cell(), Some(3));
    assert_eq!(b.path(), vec![0, 1, 2, 3, 7, 11, 15]);
    assert_eq!(b.path_cost(), 6.0);
}

/// [GBIDI.STOP] An unreachable goal: a side's open set empties and `mu` is infinite.
#[test]
fn a_walled_off_goal_is_not_found() {
    let mut grid = Grid::new(3, 3).unwrap();
    for y in 0..3 {
        grid.set_cell(1, y, WALL).unwrap();
    }
    let mut b = search(&grid, four_dijkstra(), (0, 0), (2, 2));
    assert_eq!(b.run(None), SearchStatus::NotFound);
    // fwd 0, bwd 8, fwd 3, bwd 5, fwd 6: then the forward set is empty.
    assert_eq!(b.expansions(), &[0, 8, 3, 5, 6]);
    assert_eq!(b.meeting_cell(), None);
    assert!(b.path().is_empty());
    assert_eq!(b.path_cost(), f64::INFINITY);
}

// ---------------------------------------------------------------------------------------------
// Costs: the backward side prices the cell entered, hooks get the true direction

/// [GBIDI.BACKWARD] [GBIDI.FORWARD] A 3×1 corridor with multipliers 10, 1, 100: 0 → 2 costs
/// `m(1) + m(2) = 101`, 2 → 0 costs `m(1) + m(0) = 11` (the backward side prices the area of the
/// cell the move enters).
#[test]
fn the_backward_side_prices_the_area_entered() {
    let mut grid = Grid::new(3, 1).unwrap();
    grid.set_area_multiplier(1, 10.0).unwrap();
    grid.set_area_multiplier(2, 100.0).unwrap();
    grid.set_cell(0, 0, 1).unwrap();
    grid.set_cell(2, 0, 2).unwrap();
    for algorithm in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
        let o = GridOptions {
            algorithm,
            ..four_dijkstra()
        };
        let mut b = search(&grid, o.clone(), (0, 0), (2, 0));
        assert_eq!(b.run(None), SearchStatus::Found);
        assert_eq!(b.path_cost(), 101.0);
        assert_eq!(b.meeting_cell(), Some(1));
        let mut b = search(&grid, o, (2, 0), (0, 0));
        assert_eq!(b.run(None), SearchStatus::Found);
        assert_eq!(b.path_cost(), 11.0);
    }
}

/// [GBIDI.BACKWARD] [GBIDI.OPT.HOOKS] `cell_cost(from, to)` is asked in the move's true
/// direction by both sides: moving east costs 5 extra, west 0.
#[test]
fn hooks_are_asked_in_the_true_direction() {
    let grid = Grid::new(4, 1).unwrap();
    let calls = Arc::new(Mutex::new(BTreeSet::new()));
    let log = calls.clone();
    let hook: CellCostFn = Arc::new(move |from, to| {
        log.lock().unwrap().insert((from, to));
        if to > from {
            5.0
        } else {
            0.0
        }
    });
    let o = GridOptions {
        cell_cost: Some(hook),
        ..four_dijkstra()
    };
    let east = find_grid_path_bidirectional(&grid, (0, 0), (3, 0), &o).unwrap();
    assert_eq!(east.cost, 18.0);
    let west = find_grid_path_bidirectional(&grid, (3, 0), (0, 0), &o).unwrap();
    assert_eq!(west.cost, 3.0);
    // Every call names a real move between neighbours.
    for &(f, t) in calls.lock().unwrap().iter() {
        assert_eq!((f as i64 - t as i64).abs(), 1, "({f}, {t})");
    }
    // A disallowed extra removes the move for both sides: east of 1 is closed.
    let hook: CellCostFn = Arc::new(|from, to| if (from, to) == (1, 2) { -1.0 } else { 0.0 });
    let o = GridOptions {
        cell_cost: Some(hook),
        ..four_dijkstra()
    };
    let p = find_grid_path_bidirectional(&grid, (0, 0), (3, 0), &o).unwrap();
    assert_eq!(p.status, PathStatus::NotFound);
    let p = find_grid_path_bidirectional(&grid, (3, 0), (0, 0), &o).unwrap();
    assert_eq!((p.status, p.cost), (PathStatus::Found, 3.0));
}

/// [GBIDI.COST] The reported cost is `g_f[m] + g_b[m]` at the meeting cell, not a forward sum: a
/// 5×1 corridor entering multipliers 0.1, 0.1, 0.1, 0.4 meets at cell 2 with
/// `(0.1 + 0.1) + (0.4 + 0.1) = 0.7`, where a forward A* reports
/// `((0.1 + 0.1) + 0.1) + 0.4 = 0.7000000000000001`.
#[test]
fn the_cost_is_mu_as_the_meeting_summed_it() {
    let mut grid = Grid::new(5, 1).unwrap();
    grid.set_area_multiplier(1, 0.1).unwrap();
    grid.set_area_multiplier(2, 0.4).unwrap();
    for (x, area) in [(1, 1), (2, 1), (3, 1), (4, 2)] {
        grid.set_cell(x, 0, area).unwrap();
    }
    let mut b = search(&grid, four_dijkstra(), (0, 0), (4, 0));
    assert_eq!(b.run(None), SearchStatus::Found);
    assert_eq!(b.expansions(), &[0, 4, 1, 3]);
    assert_eq!(b.meeting_cell(), Some(2));
    assert_eq!(b.path(), vec![0, 1, 2, 3, 4]);
    assert_eq!(
        b.path_cost().to_bits(),
        ((0.1f64 + 0.1) + (0.4 + 0.1)).to_bits()
    );
    let mut a = AStar::new(&grid, four_dijkstra()).unwrap();
    a.begin((0, 0), (4, 0)).unwrap();
    a.run(None);
    assert_eq!(
        a.path_cost().to_bits(),
        (((0.1f64 + 0.1) + 0.1) + 0.4).to_bits()
    );
    assert_ne!(a.path_cost(), b.path_cost());
}

/// [GBIDI.OPT.FIELDS] [GBIDI.GRID] Agent size 2 on a 5×3 grid: the agent stands only where its
/// 2×2 square fits (columns 0..3, rows 0..1) and goes round the wall at (2, 0).
#[test]
fn agent_size_uses_the_clearance() {
    let mut grid = Grid::new(5, 3).unwrap();
    grid.set_cell(2, 0, WALL).unwrap();
    let o = GridOptions {
        agent_size: 2,
        ..four_dijkstra()
    };
    // Row 0 is blocked for a 2×2 agent at x = 1 and 2 (both squares hold the wall).
    let p = find_grid_path_bidirectional(&grid, (0, 0), (3, 0), &o).unwrap();
    assert_eq!(p.status, PathStatus::Found);
    let mut a = AStar::new(&grid, o.clone()).unwrap();
    a.begin((0, 0), (3, 0)).unwrap();
    a.run(None);
    assert_eq!(p.cost, a.path_cost());
    assert_eq!(p.cost, 5.0);
    assert!(p
        .cells
        .iter()
        .all(|&c| c != 1 && c != 2 && c % 5 != 4 && c / 5 != 2));
}

// ---------------------------------------------------------------------------------------------
// Sliced, cancel, tier 1

/// [GBIDI.RUN] A set cancel flag returns `Running` before any iteration; clearing it continues
/// to the same result.
#[test]
fn run_reads_the_cancel_flag() {
    let grid = Grid::new(6, 6).unwrap();
    let mut b = search(&grid, GridOptions::default(), (0, 0), (5, 5));
    let flag = AtomicBool::new(true);
    assert_eq!(b.run(Some(&flag)), SearchStatus::Running);
    assert_eq!(b.iterations(), 0);
    flag.store(false, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(b.run(Some(&flag)), SearchStatus::Found);
    let mut c = search(&grid, GridOptions::default(), (0, 0), (5, 5));
    c.run(None);
    assert_eq!((b.path(), b.iterations()), (c.path(), c.iterations()));
    // [GBIDI.STOP] A finished search stays finished whatever the flag says.
    flag.store(true, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(b.run(Some(&flag)), SearchStatus::Found);
}

/// [GBIDI.TIER1] Budget, status, points and the algorithm reported.
#[test]
fn tier1_reports_the_sliced_search() {
    let mut grid = Grid::new(6, 4).unwrap();
    grid.set_cell(2, 1, WALL).unwrap();
    for algorithm in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
        let o = GridOptions {
            algorithm,
            record_expansions: true,
            ..GridOptions::default()
        };
        let full = find_grid_path_bidirectional(&grid, (0, 0), (5, 3), &o).unwrap();
        assert_eq!(full.status, PathStatus::Found);
        assert_eq!(full.algorithm, algorithm);
        assert_eq!(full.cells.first(), Some(&0));
        assert_eq!(full.cells.last(), Some(&23));
        assert_eq!(full.points[0], (0.5, 0.5));
        assert_eq!(full.expanded.len() as u64, full.expanded_count);
        assert_eq!(full.iterations, full.expanded_count);
        let mut s = search(&grid, o.clone(), (0, 0), (5, 3));
        s.run(None);
        assert_eq!((s.path(), s.path_cost()), (full.cells.clone(), full.cost));
        let short = find_grid_path_bidirectional(
            &grid,
            (0, 0),
            (5, 3),
            &GridOptions {
                iteration_budget: 3,
                ..o.clone()
            },
        )
        .unwrap();
        assert_eq!(short.status, PathStatus::BudgetExhausted);
        assert_eq!((short.iterations, short.cost), (3, f64::INFINITY));
        assert!(short.cells.is_empty());
        assert_eq!(short.expanded, full.expanded[..3].to_vec());
        let quiet = find_grid_path_bidirectional(
            &grid,
            (0, 0),
            (5, 3),
            &GridOptions {
                record_expansions: false,
                ..o
            },
        )
        .unwrap();
        assert!(quiet.expanded.is_empty());
        assert_eq!(quiet.expanded_count, full.expanded_count);
    }
}

// ---------------------------------------------------------------------------------------------
// Random: the oracle

/// A plain model of spec/grid-search.md §2–§3: passability ([GS.PASS], [GS.CLEAR.VALUE]), moves
/// ([GS.MOVE.STRAIGHT], [GS.MOVE.DIAGONAL]) and costs ([GS.COST.MOVE]).
struct Model<'a> {
    grid: &'a Grid,
    o: &'a GridOptions,
    clear: Vec<u32>,
}

impl<'a> Model<'a> {
    fn new(grid: &'a Grid, o: &'a GridOptions) -> Self {
        let (w, h) = (grid.width(), grid.height());
        let mut clear = vec![0u32; w * h];
        for y in (0..h).rev() {
            for x in (0..w).rev() {
                if grid.cell(x, y).unwrap() == WALL {
                    continue;
                }
                let c = |x: usize, y: usize| if x < w && y < h { clear[y * w + x] } else { 0 };
                clear[y * w + x] = (1 + c(x + 1, y).min(c(x, y + 1)).min(c(x + 1, y + 1))).min(255);
            }
        }
        Model { grid, o, clear }
    }

    fn passable(&self, x: i64, y: i64) -> bool {
        let (w, h) = (self.grid.width() as i64, self.grid.height() as i64);
        if x < 0 || y < 0 || x >= w || y >= h {
            return false;
        }
        let c = (y * w + x) as usize;
        self.clear[c] >= self.o.agent_size && !self.o.blocked.as_ref().is_some_and(|b| b(c as u32))
    }

    /// The cost of the move from `u` by `(dx, dy)`, if allowed.
    fn cost(&self, u: u32, dx: i64, dy: i64) -> Option<(u32, f64)> {
        let w = self.grid.width() as i64;
        let (x, y) = (u as i64 % w, u as i64 / w);
        if !self.passable(x + dx, y + dy) {
            return None;
        }
        let diagonal = dx != 0 && dy != 0;
        if diagonal {
            if self.o.connectivity == Connectivity::Four {
                return None;
            }
            let (a, b) = (self.passable(x + dx, y), self.passable(x, y + dy));
            let ok = match self.o.diagonal {
                DiagonalRule::Always => true,
                DiagonalRule::AtMostOneBlocked => a || b,
                DiagonalRule::NoneBlocked => a && b,
            };
            if !ok {
                return None;
            }
        }
        let v = ((y + dy) * w + x + dx) as u32;
        let base = if diagonal { SQRT_2 } else { 1.0 };
        let m = self
            .grid
            .area_multiplier(self.grid.cells()[v as usize])
            .unwrap();
        let mut c = base * m;
        if let Some(hook) = &self.o.cell_cost {
            let e = hook(u, v);
            if e.is_nan() || e < 0.0 || e == f64::INFINITY {
                return None;
            }
            c += e;
        }
        Some((v, c))
    }

    /// Dijkstra over every cell (an O(n²) scan, no heap): the forward cost of the cheapest path.
    fn dijkstra(&self, s: u32, g: u32) -> f64 {
        let w = self.grid.width() as i64;
        let n = self.clear.len();
        if !self.passable(s as i64 % w, s as i64 / w) || !self.passable(g as i64 % w, g as i64 / w)
        {
            return f64::INFINITY;
        }
        let mut d = vec![f64::INFINITY; n];
        let mut done = vec![false; n];
        d[s as usize] = 0.0;
        loop {
            let mut best = None;
            for v in 0..n {
                if !done[v] && d[v] < f64::INFINITY && best.is_none_or(|b: usize| d[v] < d[b]) {
                    best = Some(v);
                }
            }
            let Some(u) = best else { break };
            done[u] = true;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if (dx, dy) == (0, 0) {
                        continue;
                    }
                    if let Some((v, c)) = self.cost(u as u32, dx, dy) {
                        if d[u] + c < d[v as usize] {
                            d[v as usize] = d[u] + c;
                        }
                    }
                }
            }
        }
        d[g as usize]
    }

    /// Checks that `cells` is a path of allowed moves from `s` to `g`; returns its forward sum.
    fn check_path(&self, cells: &[u32], s: u32, g: u32) -> f64 {
        assert_eq!(cells.first(), Some(&s));
        assert_eq!(cells.last(), Some(&g));
        let w = self.grid.width() as i64;
        let mut sum = 0.0;
        for pair in cells.windows(2) {
            let (u, v) = (pair[0] as i64, pair[1] as i64);
            let (dx, dy) = (v % w - u % w, v / w - u / w);
            assert!(dx.abs() <= 1 && dy.abs() <= 1, "{u} -> {v}");
            let (_, c) = self.cost(u as u32, dx, dy).expect("an allowed move");
            sum += c;
        }
        sum
    }
}

struct Case {
    grid: Grid,
    o: GridOptions,
    s: (usize, usize),
    g: (usize, usize),
}

/// A random grid and options; `integer` keeps every move cost an integer ([GBIDI.COST.EXACT]).
fn random_case(rng: &mut SeededRandom, integer: bool) -> Case {
    let w = 1 + rng.next_int(14) as usize;
    let h = 1 + rng.next_int(14) as usize;
    let mut grid = Grid::new(w, h).unwrap();
    let mults: [f64; 4] = if integer {
        [1.0, 2.0, 3.0, 7.0]
    } else {
        [1.0, 0.5, 1.3, 2.75]
    };
    for (a, &m) in mults.iter().enumerate().skip(1) {
        grid.set_area_multiplier(a as u8, m).unwrap();
    }
    let wall_pct = rng.next_int(35);
    for y in 0..h {
        for x in 0..w {
            let r = rng.next_int(100);
            let area = if r < wall_pct {
                WALL
            } else {
                rng.next_int(4) as u8
            };
            grid.set_cell(x, y, area).unwrap();
        }
    }
    let mut o = GridOptions {
        agent_size: if rng.next_int(5) == 0 { 2 } else { 1 },
        connectivity: if integer || rng.next_int(3) == 0 {
            Connectivity::Four
        } else {
            Connectivity::Eight
        },
        diagonal: [
            DiagonalRule::Always,
            DiagonalRule::AtMostOneBlocked,
            DiagonalRule::NoneBlocked,
        ][rng.next_int(3) as usize],
        algorithm: if rng.next_int(2) == 0 {
            GridAlgorithm::AStar
        } else {
            GridAlgorithm::Dijkstra
        },
        record_expansions: true,
        ..GridOptions::default()
    };
    if rng.next_int(3) == 0 {
        let k = rng.next_u64();
        o.blocked = Some(Arc::new(move |c| (c as u64).wrapping_mul(k) >> 60 == 0));
    }
    if rng.next_int(3) == 0 {
        let k = rng.next_u64() | 1;
        let scale = if integer { 1.0 } else { 0.3 };
        o.cell_cost = Some(Arc::new(move |f, t| {
            let r = ((f as u64 * 131 + t as u64 * 7).wrapping_mul(k) >> 59) as i64;
            if r == 0 {
                -1.0
            } else {
                (r % 4) as f64 * scale
            }
        }));
    }
    let s = (
        rng.next_int(w as u32) as usize,
        rng.next_int(h as u32) as usize,
    );
    let g = (
        rng.next_int(w as u32) as usize,
        rng.next_int(h as u32) as usize,
    );
    Case { grid, o, s, g }
}

/// [GBIDI.COST.EXACT] [GBIDI.COST.BOUND] [GBIDI.PATH] [GBIDI.COUNTERS] Random grids, options and
/// hooks: the status agrees with a plain Dijkstra, the path is made of allowed moves from the
/// start to the goal, and the cost equals Dijkstra's bit for bit with integer costs and is within
/// `d * n * 2^-50` otherwise.
// pins [GBIDI.COST.BOUND]: a search that reports Found when no path exists (or the reverse), or
// whose cost is more than d * n * 2^-50 from a plain Dijkstra's d on 1,500 non-integer cases, fails
#[test]
fn random_grids_agree_with_a_plain_dijkstra() {
    let mut rng = SeededRandom::new(0x6b1d1);
    let (mut found, mut inexact, mut worst) = (0, 0, 0.0f64);
    for i in 0..3000 {
        let integer = i % 2 == 0;
        let c = random_case(&mut rng, integer);
        let m = Model::new(&c.grid, &c.o);
        let w = c.grid.width();
        let (s, g) = ((c.s.1 * w + c.s.0) as u32, (c.g.1 * w + c.g.0) as u32);
        let d = m.dijkstra(s, g);
        let p = find_grid_path_bidirectional(&c.grid, c.s, c.g, &c.o).unwrap();
        assert_eq!(p.expanded.len() as u64, p.expanded_count, "case {i}");
        assert_eq!(p.iterations, p.expanded_count, "case {i}");
        if d == f64::INFINITY {
            assert_eq!(p.status, PathStatus::NotFound, "case {i}");
            continue;
        }
        found += 1;
        assert_eq!(p.status, PathStatus::Found, "case {i}: d = {d}");
        let sum = m.check_path(&p.cells, s, g);
        let n = (c.grid.width() * c.grid.height()) as f64;
        let bound = d * n * 2f64.powi(-50);
        if integer {
            assert_eq!(p.cost.to_bits(), d.to_bits(), "case {i}");
            assert_eq!(sum, d, "case {i}");
        } else {
            assert!((p.cost - d).abs() <= bound, "case {i}: {} vs {d}", p.cost);
            assert!((sum - d).abs() <= bound, "case {i}: path sums {sum} vs {d}");
            if p.cost != d {
                inexact += 1;
                worst = worst.max((p.cost - d).abs() / d);
            }
        }
    }
    assert!(found > 1200, "only {found} cases found a path");
    eprintln!(
        "{found} found, {inexact} costs differ from Dijkstra's, by at most {worst:e} relative"
    );
}

/// [GBIDI.SLICED] [GBIDI.TURN] Random step schedules give the run's status, path, cost,
/// counters, recorded list and meeting cell.
#[test]
fn any_step_schedule_is_one_run() {
    let mut rng = SeededRandom::new(77);
    for i in 0..400 {
        let c = random_case(&mut rng, i % 3 == 0);
        let mut whole = GridBidiSearch::new(&c.grid, c.o.clone()).unwrap();
        whole.begin(c.s, c.g).unwrap();
        whole.run(None);
        let mut sliced = GridBidiSearch::new(&c.grid, c.o.clone()).unwrap();
        sliced.begin(c.s, c.g).unwrap();
        let mut guard = 0;
        loop {
            let b = rng.next_int(6) as u64;
            let before = sliced.iterations();
            let st = if rng.next_int(8) == 0 {
                sliced.run(None)
            } else {
                sliced.step(b)
            };
            if st != SearchStatus::Running {
                break;
            }
            assert!(sliced.iterations() - before <= b, "case {i}");
            guard += 1;
            assert!(guard < 100_000);
        }
        assert_eq!(sliced.status(), whole.status(), "case {i}");
        assert_eq!(sliced.path(), whole.path(), "case {i}");
        assert_eq!(
            sliced.path_cost().to_bits(),
            whole.path_cost().to_bits(),
            "case {i}"
        );
        assert_eq!(sliced.iterations(), whole.iterations(), "case {i}");
        assert_eq!(sliced.expansions(), whole.expansions(), "case {i}");
        assert_eq!(sliced.meeting_cell(), whole.meeting_cell(), "case {i}");
        // A second begin on the same search gives the same run again.
        sliced.begin(c.s, c.g).unwrap();
        sliced.run(None);
        assert_eq!(sliced.expansions(), whole.expansions(), "case {i}");
    }
}
