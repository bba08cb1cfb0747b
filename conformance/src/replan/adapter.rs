//! The replanning half of the in-process adapters ([CONF.IMPL.ADAPTERS]): one `macro_rules!` body
//! instantiated for both crates, so a difference between them is always a crate bug;
//! `adapters.rs` forwards [`Implementation::run_replan`](crate::Implementation::run_replan) here.

use super::{sha256_hex, ModeName, ReplanReply, ReplanRequest, ReplanStep, StepReply};
use crate::error::{ErrorKind, HarnessError};
use crate::outcome::SearchCode;
use crate::port::wire::{Hex, Real};
use crate::state::{SearchSummary, StateError, StateReply};

/// The cells of a request's map, checked against its size.
pub(crate) fn map_cells(r: &ReplanRequest) -> Result<Vec<u8>, HarnessError> {
    let m = &r.grid.map;
    let cells = hex::decode(&m.cells).map_err(|e| {
        HarnessError::new(
            ErrorKind::Schema,
            format!("replan request: cells are not hex: {e}"),
        )
    })?;
    if cells.len() as u64 != u64::from(m.width) * u64::from(m.height) {
        return Err(HarnessError::new(
            ErrorKind::Schema,
            format!(
                "replan request: {} cells for a {} x {} map",
                cells.len(),
                m.width,
                m.height
            ),
        ));
    }
    Ok(cells)
}

/// [CONF.REPLAN.SCRIPT] A rollback without a save before it.
pub(crate) fn no_snapshot(step: usize) -> HarnessError {
    HarnessError::new(
        ErrorKind::Schema,
        format!("replan request: step {step} rolls back, but no step saved before it"),
    )
}

/// [CONF.REPLAN.SCRIPT] A `restore_onto` step whose size `new` refuses (the kit never sends one).
pub(crate) fn no_other_grid(step: usize, w: u32, h: u32, e: &str) -> HarnessError {
    HarnessError::new(
        ErrorKind::Schema,
        format!(
            "replan request: step {step} restores onto a {w} x {h} grid, which new refuses: {e}"
        ),
    )
}

macro_rules! define_replan_adapter {
    ($module:ident, $krate:ident, $grid_adapter:ident) => {
        /// Replanner requests on one crate.
        pub mod $module {
            use super::*;
            use ::$krate as op;

            /// A new grid of another size, of the same type (and hex layout), every cell 0: the
            /// grid of a `restore_onto` step ([CONF.REPLAN.SCRIPT]).
            trait OtherGrid: Sized {
                fn other(&self, w: usize, h: usize) -> Result<Self, String>;
            }

            impl OtherGrid for op::Grid {
                fn other(&self, w: usize, h: usize) -> Result<Self, String> {
                    op::Grid::new(w, h).map_err(|e| e.to_string())
                }
            }

            impl OtherGrid for op::HexGrid {
                fn other(&self, w: usize, h: usize) -> Result<Self, String> {
                    op::HexGrid::new(w, h, self.layout()).map_err(|e| e.to_string())
                }
            }

            macro_rules! fill {
                ($g:expr, $r:expr, $cells:expr) => {{
                    let harness = |what: &str, e: &dyn std::fmt::Display| {
                        HarnessError::new(
                            ErrorKind::Build,
                            format!("replan request: {what} failed: {e}"),
                        )
                    };
                    for &(a, m) in &$r.grid.map.multipliers {
                        $g.set_area_multiplier(a, m)
                            .map_err(|e| harness("set_area_multiplier", &e))?;
                    }
                    if let Some([ox, oy, s]) = $r.grid.map.space {
                        $g.set_space(op::GridSpace {
                            origin_x: ox,
                            origin_y: oy,
                            cell_size: s,
                        })
                        .map_err(|e| harness("set_space", &e))?;
                    }
                    let w = $r.grid.map.width as usize;
                    for (i, &c) in $cells.iter().enumerate() {
                        if c != 0 {
                            $g.set_cell(i % w, i / w, c)
                                .map_err(|e| harness("set_cell", &e))?;
                        }
                    }
                }};
            }

            macro_rules! script {
                ($grid:expr, $replanner:expr, $r:expr) => {{
                    script!($grid, $replanner, $r, 0)
                }};
                // Steps before `$quiet` run but give no reply (`run_from`).
                ($grid:expr, $replanner:expr, $r:expr, $quiet:expr) => {{
                    let quiet: usize = $quiet;
                    let grid = &mut $grid;
                    let rp = &mut $replanner;
                    let mut snapshot: Option<(Vec<u8>, Vec<u8>)> = None;
                    let mut steps = Vec::with_capacity($r.script.len());
                    for (i, step) in $r.script.iter().enumerate() {
                        let mut status = None;
                        let error: Option<String> = match step {
                            ReplanStep::Replan { budget } => match rp.replan(grid, *budget) {
                                Ok(s) => {
                                    status = Some(s as u8);
                                    None
                                }
                                Err(e) => Some(e.class().to_string()),
                            },
                            ReplanStep::ReplanUntilDone { budget } => loop {
                                match rp.replan(grid, (*budget).max(1)) {
                                    Ok(s) if s as u8 == 1 => continue,
                                    Ok(s) => {
                                        status = Some(s as u8);
                                        break None;
                                    }
                                    Err(e) => break Some(e.class().to_string()),
                                }
                            },
                            ReplanStep::SetCell { x, y, area } => grid
                                .set_cell(*x as usize, *y as usize, *area)
                                .err()
                                .map(|e| e.class().to_string()),
                            ReplanStep::SetArea { area, multiplier } => grid
                                .set_area_multiplier(*area, *multiplier)
                                .err()
                                .map(|e| e.class().to_string()),
                            ReplanStep::SetStart { x, y } => rp
                                .set_start(*x as usize, *y as usize)
                                .err()
                                .map(|e| e.class().to_string()),
                            ReplanStep::SetGoal { x, y } => rp
                                .set_goal(*x as usize, *y as usize)
                                .err()
                                .map(|e| e.class().to_string()),
                            ReplanStep::InvalidateAll {} => {
                                rp.invalidate_all();
                                None
                            }
                            ReplanStep::Save {} => {
                                snapshot = Some((grid.save_state(), rp.save_state()));
                                None
                            }
                            ReplanStep::Rollback {} => {
                                let (g, s) = snapshot.as_ref().ok_or_else(|| no_snapshot(i))?;
                                match grid.restore_state(g) {
                                    Err(e) => Some(format!("{}@{}", e.class(), e.offset())),
                                    Ok(()) => rp
                                        .restore_state(grid, s)
                                        .err()
                                        .map(|e| format!("{}@{}", e.class(), e.offset())),
                                }
                            }
                            ReplanStep::Restore { bytes } => rp
                                .restore_state(grid, &bytes.0)
                                .err()
                                .map(|e| format!("{}@{}", e.class(), e.offset())),
                            ReplanStep::RestoreOnto {
                                width,
                                height,
                                bytes,
                            } => {
                                let other = grid
                                    .other(*width as usize, *height as usize)
                                    .map_err(|e| no_other_grid(i, *width, *height, &e))?;
                                rp.restore_state(&other, &bytes.0)
                                    .err()
                                    .map(|e| format!("{}@{}", e.class(), e.offset()))
                            }
                        };
                        if i < quiet {
                            continue;
                        }
                        let (path, path_error) = match rp.path(grid) {
                            Ok(p) => (p, None),
                            Err(e) => (Vec::new(), Some(e.class().to_string())),
                        };
                        steps.push(StepReply {
                            error,
                            status,
                            found: rp.found(),
                            cost: Real(rp.path_cost()),
                            path,
                            path_error,
                            iterations: rp.iterations(),
                            expanded: rp.expanded_count(),
                            last_expanded: rp.last_expanded(),
                            pending: rp.pending_count() as u64,
                            expansions: rp.expansions().to_vec(),
                            state_sha256: sha256_hex(&rp.save_state()),
                        });
                    }
                    Ok(ReplanReply::Ran {
                        steps,
                        state: Hex(rp.save_state()),
                    })
                }};
            }

            /// Builds the grid and the replanner of `r` (square or hex) and evaluates `$body`
            /// with them bound to `$grid` and `$rp`; a constructor's error returns `$failed`.
            macro_rules! with_replanner {
                ($r:expr, $cells:expr, $failed:expr, |$grid:ident, $rp:ident| $body:expr) => {{
                    let options = crate::grid::adapter::$grid_adapter::options(&$r.options);
                    let mode = match $r.mode {
                        ModeName::Lpa => op::ReplanMode::Lpa,
                        ModeName::DStarLite => op::ReplanMode::DStarLite,
                    };
                    let (w, h) = ($r.grid.map.width as usize, $r.grid.map.height as usize);
                    let start = ($r.start.0 as usize, $r.start.1 as usize);
                    let goal = ($r.goal.0 as usize, $r.goal.1 as usize);
                    match $r.grid.hex_layout {
                        None => {
                            let mut $grid = match op::Grid::new(w, h) {
                                Ok(g) => g,
                                Err(e) => return $failed(e.class().to_string()),
                            };
                            fill!($grid, $r, $cells);
                            let mut $rp = match op::GridReplanner::new(
                                &mut $grid, options, mode, start, goal,
                            ) {
                                Ok(rp) => rp,
                                Err(e) => return $failed(e.class().to_string()),
                            };
                            $body
                        }
                        Some(layout) => {
                            let layout = match op::HexLayout::try_from(layout) {
                                Ok(l) => l,
                                Err(e) => return $failed(e.class().to_string()),
                            };
                            let mut $grid = match op::HexGrid::new(w, h, layout) {
                                Ok(g) => g,
                                Err(e) => return $failed(e.class().to_string()),
                            };
                            fill!($grid, $r, $cells);
                            let mut $rp =
                                match op::HexReplanner::new(&mut $grid, options, mode, start, goal)
                                {
                                    Ok(rp) => rp,
                                    Err(e) => return $failed(e.class().to_string()),
                                };
                            $body
                        }
                    }
                }};
            }

            /// [CONF.REPLAN.REQUEST] Builds the grid and the replanner, runs the script.
            pub fn run(r: &ReplanRequest) -> Result<ReplanReply, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |c: String| Ok(ReplanReply::Failed(c));
                with_replanner!(r, cells, failed, |grid, rp| script!(grid, rp, r))
            }

            /// As [`run`], but the first `quiet` steps run without a step reply (`steps` holds
            /// the replies of steps `quiet..`): the fuzz targets replay a fixed history whose
            /// replies the vectors pin, without a path and a state hash after each of its steps.
            pub fn run_from(r: &ReplanRequest, quiet: usize) -> Result<ReplanReply, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |c: String| Ok(ReplanReply::Failed(c));
                with_replanner!(r, cells, failed, |grid, rp| script!(grid, rp, r, quiet))
            }

            /// The grid's and the replanner's saves after the whole script of `r`, which runs
            /// without step replies; `None` when a constructor fails. The fuzz targets restore
            /// them ([`run_restored`]) instead of running a fixed history per input.
            pub fn saves(r: &ReplanRequest) -> Result<Option<(Vec<u8>, Vec<u8>)>, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |_: String| Ok(None);
                with_replanner!(r, cells, failed, |grid, rp| {
                    let ran: Result<ReplanReply, HarnessError> =
                        script!(grid, rp, r, r.script.len());
                    ran?;
                    Ok(Some((grid.save_state(), rp.save_state())))
                })
            }

            /// As [`run`], but before the script the grid restores `grid_bytes` and then the
            /// replanner `state` (a rollback, [REPLAN.STATE.RESTORE]: the script continues as the
            /// replanner that saved them would); either refused is a harness error.
            pub fn run_restored(
                r: &ReplanRequest,
                grid_bytes: &[u8],
                state: &[u8],
            ) -> Result<ReplanReply, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |c: String| Ok(ReplanReply::Failed(c));
                let refused = |what: &str, e: &dyn std::fmt::Display| {
                    HarnessError::new(
                        ErrorKind::Build,
                        format!("replan request: the saved {what} is refused: {e}"),
                    )
                };
                with_replanner!(r, cells, failed, |grid, rp| {
                    grid.restore_state(grid_bytes)
                        .map_err(|e| refused("grid", &e))?;
                    rp.restore_state(&grid, state)
                        .map_err(|e| refused("replanner", &e))?;
                    script!(grid, rp, r)
                })
            }

            /// [CONF.DEBUG.REQUEST] The replanner described after the whole script.
            pub fn describe(
                r: &ReplanRequest,
            ) -> Result<crate::debug::DescribeReply, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |c: String| Ok(crate::debug::DescribeReply::Failed(c));
                with_replanner!(r, cells, failed, |grid, rp| {
                    let ran: Result<ReplanReply, HarnessError> = script!(grid, rp, r);
                    ran?;
                    let d = crate::debug::adapter::$module::replan(&rp.describe(&grid));
                    Ok(crate::debug::DescribeReply::Ran(vec![
                        crate::debug::DescribeEntry::Described(d),
                    ]))
                })
            }

            /// [CONF.STATE.REPLANNER] A state request on a replanner recipe: the script, then
            /// `before`, the restore of `bytes`, `replan(grid, 0)` when `finish`, `after`.
            pub fn state(
                r: &ReplanRequest,
                bytes: Option<&Vec<u8>>,
                finish: bool,
            ) -> Result<StateReply, String> {
                let cells = map_cells(r).map_err(|e| format!("harness: {e}"))?;
                let failed =
                    |c: String| Err(format!("harness: the recipe's replanner failed: {c}"));
                with_replanner!(r, cells, failed, |grid, rp| {
                    let ran: Result<ReplanReply, HarnessError> = script!(grid, rp, r);
                    ran.map_err(|e| format!("harness: {e}"))?;
                    let before = rp.save_state();
                    let restore = bytes.map(|b| {
                        rp.restore_state(&grid, b).map_err(|e| StateError {
                            class: e.class().to_string(),
                            offset: e.offset() as u64,
                        })
                    });
                    let search = if finish {
                        let status = rp
                            .replan(&grid, 0)
                            .map_err(|e| format!("harness: replan failed: {e}"))?;
                        Some(SearchSummary {
                            status: match status as u8 {
                                1 => SearchCode::Running,
                                2 => SearchCode::Found,
                                3 => SearchCode::NotFound,
                                _ => SearchCode::NotStarted,
                            },
                            iterations: rp.iterations(),
                            expanded: rp.expanded_count(),
                            cost_bits: rp.path_cost().to_bits(),
                            path: rp.path(&grid).unwrap_or_default(),
                            expansions: rp.expansions().to_vec(),
                        })
                    } else {
                        None
                    };
                    let after = rp.save_state();
                    let mut into = vec![0xA5u8; 3];
                    rp.save_state_into(&mut into);
                    if into != after {
                        return Err("crate: save_state_into differs from save_state".to_string());
                    }
                    Ok(StateReply {
                        before,
                        restore,
                        after,
                        cells: vec![],
                        search,
                    })
                })
            }
        }
    };
}

define_replan_adapter!(reference_adapter, onepath_reference, reference_adapter);
define_replan_adapter!(optimized_adapter, onepath, optimized_adapter);
