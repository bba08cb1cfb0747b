//! The grid-search half of the in-process adapters ([CONF.IMPL.ADAPTERS]): one `macro_rules!`
//! body instantiated for both crates; `adapters.rs` forwards `Implementation::run_grid` here.

use super::{GridApi, GridMap, GridOptionsData, GridOutcome, GridReply, GridRequest};
use crate::error::{ErrorKind, HarnessError};
use crate::outcome::SearchCode;
use crate::state::{SearchSummary, StateError, StateRecipe, StateReply};

macro_rules! define_grid_adapter {
    ($module:ident, $krate:ident) => {
        /// Grid requests on one crate.
        pub mod $module {
            use super::*;
            use ::$krate as op;
            use std::sync::Arc;

            /// Builds the grid of a map.
            pub(crate) fn build_grid(map: &GridMap) -> Result<op::Grid, String> {
                let g = op::Grid::new(map.width as usize, map.height as usize)
                    .map_err(|e| format!("harness: Grid::new failed: {e}"))?;
                fill_grid(g, map)
            }

            /// The multipliers, the space and the cells of a map, on a new grid of its size.
            fn fill_grid(g: op::Grid, map: &GridMap) -> Result<op::Grid, String> {
                fill_grid_classed(g, map)
                    .map_err(|(what, e)| format!("harness: {what} failed: {e}"))
            }

            /// [CONF.GRID.MAP] As [`fill_grid`], a failing call named with its error.
            fn fill_grid_classed(
                mut g: op::Grid,
                map: &GridMap,
            ) -> Result<op::Grid, (&'static str, op::GridError)> {
                for &(a, m) in &map.multipliers {
                    g.set_area_multiplier(a, m).map_err(|e| ("set_area_multiplier", e))?;
                }
                if let Some([ox, oy, s]) = map.space {
                    g.set_space(op::GridSpace { origin_x: ox, origin_y: oy, cell_size: s })
                        .map_err(|e| ("set_space", e))?;
                }
                for (i, &c) in map.cells.iter().enumerate() {
                    if c != 0 {
                        let (x, y) = (i % map.width as usize, i / map.width as usize);
                        g.set_cell(x, y, c).map_err(|e| ("set_cell", e))?;
                    }
                }
                Ok(g)
            }

            /// The crate's options for the data.
            pub fn options(o: &GridOptionsData) -> op::GridOptions {
                let cell_cost: Option<op::CellCostFn> = o.cell_cost.map(|r| {
                    let f: op::CellCostFn = Arc::new(move |a: u32, b: u32| r.extra(a, b));
                    f
                });
                let blocked: Option<op::CellBlockedFn> = o.blocked.map(|r| {
                    let f: op::CellBlockedFn = Arc::new(move |c: u32| r.blocked(c));
                    f
                });
                op::GridOptions {
                    agent_size: o.agent_size,
                    connectivity: if o.connectivity == 4 { op::Connectivity::Four } else { op::Connectivity::Eight },
                    diagonal: match o.diagonal {
                        0 => op::DiagonalRule::Always,
                        1 => op::DiagonalRule::AtMostOneBlocked,
                        _ => op::DiagonalRule::NoneBlocked,
                    },
                    algorithm: algorithm(o.algorithm),
                    cell_cost,
                    blocked,
                    heuristic_weight: o.weight,
                    iteration_budget: o.budget,
                    record_expansions: o.record,
                }
            }

            fn algorithm(code: u8) -> op::GridAlgorithm {
                match code {
                    1 => op::GridAlgorithm::Dijkstra,
                    2 => op::GridAlgorithm::Jps,
                    3 => op::GridAlgorithm::JpsPlus,
                    4 => op::GridAlgorithm::Theta,
                    5 => op::GridAlgorithm::LazyTheta,
                    _ => op::GridAlgorithm::AStar,
                }
            }

            fn status(s: op::SearchStatus) -> u8 {
                match s {
                    op::SearchStatus::NotStarted => 0,
                    op::SearchStatus::Running => 1,
                    op::SearchStatus::Found => 2,
                    op::SearchStatus::NotFound => 3,
                }
            }

            fn engine(e: op::GridEngine) -> (u8, u8) {
                match e {
                    op::GridEngine::NotBegun => (0, 0),
                    op::GridEngine::SpecialisedAStar => (1, 0),
                    op::GridEngine::GenericAStar | op::GridEngine::GenericJump => (2, 0),
                    op::GridEngine::SpecialisedJump { finder } => (3, finder),
                }
            }

            fn at(p: (u32, u32)) -> (usize, usize) {
                (p.0 as usize, p.1 as usize)
            }

            /// The reply fields a finished tier-2 search shows (no snapshot).
            macro_rules! observe {
                ($s:ident, $st:ident, $info:ident) => {{
                    let (mode, finder, algorithm) = $info(&$s);
                    GridReply {
                        status: status($st),
                        mode,
                        finder,
                        algorithm,
                        cost_bits: $s.path_cost().to_bits(),
                        path: $s.path(),
                        expansions: $s.expansions().to_vec(),
                        iterations: $s.iterations(),
                        expanded: $s.expanded_count(),
                        state: $s.save_state(),
                        ..GridReply::default()
                    }
                }};
            }

            macro_rules! drive {
                ($ty:ty, $grid:ident, $opts:ident, $r:ident, $info:expr) => {{
                    (|| -> GridOutcome {
                        let info = $info;
                        let mut s = <$ty>::new(&$grid, $opts.clone()).map_err(|e| e.class().to_string())?;
                        s.begin(at($r.start), at($r.goal)).map_err(|e| e.class().to_string())?;
                        let mut calls = 0usize;
                        let mut st = s.status();
                        while st == op::SearchStatus::Running && !$r.schedule.is_empty() {
                            st = s.step($r.schedule[calls % $r.schedule.len()]);
                            calls += 1;
                            if $r.snapshot_after == Some(calls) && st == op::SearchStatus::Running {
                                break;
                            }
                        }
                        if $r.snapshot_after.is_some() && st == op::SearchStatus::Running && !$r.schedule.is_empty() {
                            // Snapshot, restore into a fresh search over a restored grid, finish.
                            let snapshot = s.save_state();
                            let grid2 = op::Grid::from_state(&$grid.save_state())
                                .map_err(|e| format!("harness-grid: from_state: {}", e.class()))?;
                            let mut s2 = <$ty>::new(&grid2, $opts.clone()).map_err(|e| e.class().to_string())?;
                            if let Err(e) = s2.restore_state(&snapshot) {
                                return Err(format!("restore: {}@{}", e.class(), e.offset()));
                            }
                            let resaved = s2.save_state();
                            let mut st2 = s2.status();
                            while st2 == op::SearchStatus::Running {
                                st2 = s2.step($r.schedule[calls % $r.schedule.len()]);
                                calls += 1;
                            }
                            return Ok(GridReply { snapshot, resaved, ..observe!(s2, st2, info) });
                        }
                        if st == op::SearchStatus::Running {
                            st = s.run(None);
                        }
                        Ok(observe!(s, st, info))
                    })()
                }};
            }


            macro_rules! state_of {
                ($ty:ty, $grid:ident, $opts:expr, $start:expr, $goal:expr, $steps:expr, $run:expr, $bytes:expr, $finish:expr) => {{
                    let mut s = <$ty>::new(&$grid, $opts).map_err(|e| format!("harness: new failed: {e}"))?;
                    if let (Some(a), Some(b)) = ($start, $goal) {
                        s.begin(at(a), at(b)).map_err(|e| format!("harness: begin failed: {e}"))?;
                    }
                    for &k in $steps {
                        s.step(k);
                    }
                    if $run {
                        s.run(None);
                    }
                    let before = s.save_state();
                    let restore = $bytes.map(|b: &Vec<u8>| {
                        s.restore_state(b).map_err(|e| StateError { class: e.class().to_string(), offset: e.offset() as u64 })
                    });
                    if $finish {
                        s.run(None);
                    }
                    let code = match s.status() {
                        op::SearchStatus::NotStarted => SearchCode::NotStarted,
                        op::SearchStatus::Running => SearchCode::Running,
                        op::SearchStatus::Found => SearchCode::Found,
                        op::SearchStatus::NotFound => SearchCode::NotFound,
                    };
                    Ok(StateReply {
                        before,
                        restore,
                        after: {
                            // [STATE.API.INTO] save_state_into into a dirty buffer must agree.
                            let bytes = s.save_state();
                            let mut into = vec![0xA5u8; 3];
                            s.save_state_into(&mut into);
                            if into != bytes {
                                return Err(format!(
                                    "crate: save_state_into gave {} bytes that differ from save_state's {}",
                                    into.len(),
                                    bytes.len()
                                ));
                            }
                            bytes
                        },
                        cells: vec![],
                        search: Some(SearchSummary {
                            status: code,
                            iterations: s.iterations(),
                            expanded: s.expanded_count(),
                            cost_bits: s.path_cost().to_bits(),
                            path: s.path(),
                            expansions: s.expansions().to_vec(),
                        }),
                    })
                }};
            }

            /// A grid-search state recipe ([CONF.STATE.RECIPE]): build, begin, steps, run, save,
            /// restore `bytes`, finish, save.
            pub(crate) fn state(recipe: &StateRecipe, bytes: Option<&Vec<u8>>, finish: bool) -> Result<StateReply, String> {
                let StateRecipe::GridSearch { width, height, space, area_multipliers, edits, search, options: o, start, goal, steps, run } = recipe else {
                    return Err("harness: not a grid-search recipe".into());
                };
                let mut cells = vec![0u8; (*width as usize) * (*height as usize)];
                for &(x, y, a) in edits {
                    let i = y as usize * *width as usize + x as usize;
                    if i < cells.len() {
                        cells[i] = a;
                    }
                }
                let map = GridMap { width: *width, height: *height, cells, multipliers: area_multipliers.clone(), space: *space };
                let grid = build_grid(&map)?;
                let opts = options(o);
                match search {
                    GridApi::AStar => state_of!(op::AStar, grid, opts, *start, *goal, steps, *run, bytes, finish),
                    GridApi::Jump => state_of!(op::JumpSearch, grid, opts, *start, *goal, steps, *run, bytes, finish),
                    GridApi::Theta => state_of!(op::ThetaSearch, grid, opts, *start, *goal, steps, *run, bytes, finish),
                    _ => state_of!(op::GridSearch, grid, opts, *start, *goal, steps, *run, bytes, finish),
                }
            }

            /// Runs one request; `Err` is a map the crate cannot build ([`ErrorKind::Build`]).
            pub fn run(r: &GridRequest) -> Result<GridOutcome, HarnessError> {
                outcome(r).map_err(|what| HarnessError::new(ErrorKind::Build, what))
            }

            fn outcome(r: &GridRequest) -> Result<GridOutcome, String> {
                // [CONF.GRID.MAP] A map `Grid::new`, `set_area_multiplier` or `set_space`
                // rejects ([GRID.SQUARE.SIZE], [GRID.AREA.SET], [GRID.SPACE.RANGE]) is that
                // error's class, as an error of `new` or `begin` is.
                let grid = match op::Grid::new(r.map.width as usize, r.map.height as usize) {
                    Ok(g) => match fill_grid_classed(g, &r.map) {
                        Ok(g) => g,
                        Err((_, e)) => return Ok(Err(e.class().to_string())),
                    },
                    Err(e) => return Ok(Err(e.class().to_string())),
                };
                let opts = options(&r.options);
                Ok(match r.api {
                    GridApi::Tier1 => match op::find_grid_path(&grid, at(r.start), at(r.goal), &opts) {
                        Err(e) => Err(e.class().to_string()),
                        Ok(p) => Ok(GridReply {
                            status: match p.status {
                                op::PathStatus::Found => 2,
                                op::PathStatus::NotFound => 3,
                                op::PathStatus::BudgetExhausted => 4,
                            },
                            mode: 0,
                            finder: 0,
                            algorithm: p.algorithm as u8,
                            cost_bits: p.cost.to_bits(),
                            path: p.cells,
                            points: p.points.iter().map(|&(x, y)| (x.to_bits(), y.to_bits())).collect(),
                            expansions: p.expanded,
                            iterations: p.iterations,
                            expanded: p.expanded_count,
                            state: vec![],
                            snapshot: vec![],
                            resaved: vec![],
                        }),
                    },
                    GridApi::Handle => drive!(op::GridSearch, grid, opts, r, |s: &op::GridSearch| {
                        let (m, f) = engine(s.engine());
                        (m, f, s.algorithm() as u8)
                    }),
                    GridApi::AStar => drive!(op::AStar, grid, opts, r, |_s: &op::AStar| (0, 0, r.options.algorithm)),
                    GridApi::Jump => drive!(op::JumpSearch, grid, opts, r, |_s: &op::JumpSearch| (0, 0, r.options.algorithm)),
                    GridApi::Theta => drive!(op::ThetaSearch, grid, opts, r, |_s: &op::ThetaSearch| (0, 0, r.options.algorithm)),
                })
            }

        }
    };
}

define_grid_adapter!(reference_adapter, onepath_reference);
define_grid_adapter!(optimized_adapter, onepath);
