//! The flow-field half of the in-process adapters ([CONF.IMPL.ADAPTERS]): one `macro_rules!`
//! body instantiated for both crates, so a difference between them is always a crate bug;
//! `adapters.rs` forwards [`Implementation::run_flow`](crate::Implementation::run_flow) here.

use super::{field_sha256, sha256_hex, FlowReply, FlowRequest, FlowStep, FlowStepReply, PathProbe};
use crate::error::{ErrorKind, HarnessError};
use crate::outcome::SearchCode;
use crate::port::wire::{Hex, Real};
use crate::state::{SearchSummary, StateError, StateReply};

/// The cells of a request's map, checked against its size.
pub(crate) fn map_cells(r: &FlowRequest) -> Result<Vec<u8>, HarnessError> {
    let m = &r.grid.map;
    let cells = hex::decode(&m.cells).map_err(|e| {
        HarnessError::new(
            ErrorKind::Schema,
            format!("flow request: cells are not hex: {e}"),
        )
    })?;
    if cells.len() as u64 != u64::from(m.width) * u64::from(m.height) {
        return Err(HarnessError::new(
            ErrorKind::Schema,
            format!(
                "flow request: {} cells for a {} x {} map",
                cells.len(),
                m.width,
                m.height
            ),
        ));
    }
    Ok(cells)
}

/// [CONF.FLOW.SCRIPT] A rollback without a save before it.
pub(crate) fn no_snapshot(step: usize) -> HarnessError {
    HarnessError::new(
        ErrorKind::Schema,
        format!("flow request: step {step} rolls back, but no step saved before it"),
    )
}

/// [CONF.STATE.FLOW_FIELD] The summary's `cost_bits`: the first 8 bytes, read as a
/// little-endian u64, of the SHA-256 of every cell's cost bits (little-endian u64, index order).
pub(crate) fn cost_bits(costs: &[f64]) -> u64 {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    for c in costs {
        h.update(c.to_bits().to_le_bytes());
    }
    let d = h.finalize();
    u64::from_le_bytes(d[..8].try_into().expect("8 bytes"))
}

macro_rules! define_flow_adapter {
    ($module:ident, $krate:ident, $grid_adapter:ident) => {
        /// Flow-field requests on one crate.
        pub mod $module {
            use super::*;
            use ::$krate as op;

            macro_rules! fill {
                ($g:expr, $r:expr, $cells:expr) => {{
                    let harness = |what: &str, e: &dyn std::fmt::Display| {
                        HarnessError::new(
                            ErrorKind::Build,
                            format!("flow request: {what} failed: {e}"),
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

            /// The field hash of `f` ([CONF.FLOW.REPLY]).
            macro_rules! hash_of {
                ($f:expr) => {{
                    let d = $f.describe();
                    field_sha256(&d.costs, &d.next)
                }};
            }

            macro_rules! script {
                ($grid:expr, $field:expr, $r:expr) => {{
                    script!($grid, $field, $r, 0)
                }};
                // Steps before `$quiet` run but give no reply (`run_from`).
                ($grid:expr, $field:expr, $r:expr, $quiet:expr) => {{
                    let quiet: usize = $quiet;
                    let grid = &mut $grid;
                    let ff = &mut $field;
                    let mut snapshot: Option<(Vec<u8>, Vec<u8>)> = None;
                    let mut steps = Vec::with_capacity($r.script.len());
                    for (i, step) in $r.script.iter().enumerate() {
                        let mut returned = None;
                        let error: Option<String> = match step {
                            FlowStep::Step { budget } => match ff.step(grid, *budget) {
                                Ok(s) => {
                                    returned = Some(s as u8);
                                    None
                                }
                                Err(e) => Some(e.class().to_string()),
                            },
                            FlowStep::StepUntilDone { budget } => loop {
                                match ff.step(grid, (*budget).max(1)) {
                                    Ok(s) if s as u8 == 1 => continue,
                                    Ok(s) => {
                                        returned = Some(s as u8);
                                        break None;
                                    }
                                    Err(e) => break Some(e.class().to_string()),
                                }
                            },
                            FlowStep::Run {} => match ff.run(grid) {
                                Ok(s) => {
                                    returned = Some(s as u8);
                                    None
                                }
                                Err(e) => Some(e.class().to_string()),
                            },
                            FlowStep::Recompute { budget } => match ff.recompute(grid, *budget) {
                                Ok(s) => {
                                    returned = Some(s as u8);
                                    None
                                }
                                Err(e) => Some(e.class().to_string()),
                            },
                            FlowStep::SetCell { x, y, area } => grid
                                .set_cell(*x as usize, *y as usize, *area)
                                .err()
                                .map(|e| e.class().to_string()),
                            FlowStep::SetArea { area, multiplier } => grid
                                .set_area_multiplier(*area, *multiplier)
                                .err()
                                .map(|e| e.class().to_string()),
                            FlowStep::Save {} => {
                                snapshot = Some((grid.save_state(), ff.save_state()));
                                None
                            }
                            FlowStep::Rollback {} => {
                                let (g, s) = snapshot.as_ref().ok_or_else(|| no_snapshot(i))?;
                                match grid.restore_state(g) {
                                    Err(e) => Some(format!("{}@{}", e.class(), e.offset())),
                                    Ok(()) => ff
                                        .restore_state(grid, s)
                                        .err()
                                        .map(|e| format!("{}@{}", e.class(), e.offset())),
                                }
                            }
                            FlowStep::Detach {} => {
                                (!ff.detach(grid)).then(|| "not_attached".to_string())
                            }
                            FlowStep::RollbackGrid {} => {
                                let (g, _) = snapshot.as_ref().ok_or_else(|| no_snapshot(i))?;
                                grid.restore_state(g)
                                    .err()
                                    .map(|e| format!("{}@{}", e.class(), e.offset()))
                            }
                            FlowStep::Restore { bytes } => ff
                                .restore_state(grid, &bytes.0)
                                .err()
                                .map(|e| format!("{}@{}", e.class(), e.offset())),
                        };
                        if i < quiet {
                            continue;
                        }
                        steps.push(FlowStepReply {
                            error,
                            returned,
                            status: ff.status() as u8,
                            repairing: ff.is_repairing(),
                            usable: ff.is_usable(),
                            settled: ff.settled(),
                            pending: ff.pending_count() as u64,
                            field_sha256: hash_of!(ff),
                            state_sha256: sha256_hex(&ff.save_state()),
                        });
                    }
                    let d = ff.describe();
                    let paths = $r
                        .probes
                        .iter()
                        .map(|&(x, y)| match ff.path(x as usize, y as usize) {
                            Ok(path) => PathProbe {
                                from: (x, y),
                                path,
                                error: None,
                            },
                            Err(e) => PathProbe {
                                from: (x, y),
                                path: Vec::new(),
                                error: Some(e.class().to_string()),
                            },
                        })
                        .collect();
                    Ok(FlowReply::Ran {
                        steps,
                        costs: d.costs.iter().map(|&c| Real(c)).collect(),
                        next: d.next.clone(),
                        paths,
                        state: Hex(ff.save_state()),
                    })
                }};
            }

            /// Builds the grid and the field of `r` (square or hex) and evaluates `$body` with
            /// them bound to `$grid` and `$ff`; a constructor's error returns `$failed`.
            macro_rules! with_field {
                ($r:expr, $cells:expr, $failed:expr, |$grid:ident, $ff:ident| $body:expr) => {{
                    let options = crate::grid::adapter::$grid_adapter::options(&$r.options);
                    let (w, h) = ($r.grid.map.width as usize, $r.grid.map.height as usize);
                    let goals: Vec<(usize, usize)> = $r
                        .goals
                        .iter()
                        .map(|&(x, y)| (x as usize, y as usize))
                        .collect();
                    match $r.grid.hex_layout {
                        None => {
                            let mut $grid = match op::Grid::new(w, h) {
                                Ok(g) => g,
                                Err(e) => return $failed(e.class().to_string()),
                            };
                            fill!($grid, $r, $cells);
                            let mut $ff = match op::GridFlowField::new(&mut $grid, options, &goals)
                            {
                                Ok(f) => f,
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
                            let mut $ff = match op::HexFlowField::new(&mut $grid, options, &goals) {
                                Ok(f) => f,
                                Err(e) => return $failed(e.class().to_string()),
                            };
                            $body
                        }
                    }
                }};
            }

            /// [CONF.FLOW.REQUEST] Builds the grid and the field, runs the script.
            pub fn run(r: &FlowRequest) -> Result<FlowReply, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |c: String| Ok(FlowReply::Failed(c));
                with_field!(r, cells, failed, |grid, ff| script!(grid, ff, r))
            }

            /// As [`run`], but the first `quiet` steps run without a step reply (`steps` holds
            /// the replies of steps `quiet..`): the fuzz targets replay a fixed history whose
            /// replies the vectors pin, without hashing the field after each of its steps.
            pub fn run_from(r: &FlowRequest, quiet: usize) -> Result<FlowReply, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |c: String| Ok(FlowReply::Failed(c));
                with_field!(r, cells, failed, |grid, ff| script!(grid, ff, r, quiet))
            }

            /// The grid's and the field's saves after the whole script of `r`, which runs
            /// without step replies; `None` when a constructor fails. The fuzz targets restore
            /// them ([`run_restored`]) instead of running a fixed history per input.
            pub fn saves(r: &FlowRequest) -> Result<Option<(Vec<u8>, Vec<u8>)>, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |_: String| Ok(None);
                with_field!(r, cells, failed, |grid, ff| {
                    let ran: Result<FlowReply, HarnessError> = script!(grid, ff, r, r.script.len());
                    ran?;
                    Ok(Some((grid.save_state(), ff.save_state())))
                })
            }

            /// As [`run`], but before the script the grid restores `grid_bytes` and then the
            /// field `state` (a rollback, [FLOW.STATE.RESTORE]: the script continues as the
            /// field that saved them would); either refused is a harness error.
            pub fn run_restored(
                r: &FlowRequest,
                grid_bytes: &[u8],
                state: &[u8],
            ) -> Result<FlowReply, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |c: String| Ok(FlowReply::Failed(c));
                let refused = |what: &str, e: &dyn std::fmt::Display| {
                    HarnessError::new(
                        ErrorKind::Build,
                        format!("flow request: the saved {what} is refused: {e}"),
                    )
                };
                with_field!(r, cells, failed, |grid, ff| {
                    grid.restore_state(grid_bytes)
                        .map_err(|e| refused("grid", &e))?;
                    ff.restore_state(&grid, state)
                        .map_err(|e| refused("field", &e))?;
                    script!(grid, ff, r)
                })
            }

            /// [CONF.DEBUG.REQUEST] The field described after the whole script.
            pub fn describe(r: &FlowRequest) -> Result<crate::debug::DescribeReply, HarnessError> {
                let cells = map_cells(r)?;
                let failed = |c: String| Ok(crate::debug::DescribeReply::Failed(c));
                with_field!(r, cells, failed, |grid, ff| {
                    let ran: Result<FlowReply, HarnessError> = script!(grid, ff, r);
                    ran?;
                    let d = crate::debug::adapter::$module::flow(&ff.describe());
                    Ok(crate::debug::DescribeReply::Ran(vec![
                        crate::debug::DescribeEntry::Described(d),
                    ]))
                })
            }

            /// [CONF.STATE.FLOW_FIELD] A state request on a flow-field recipe: the script, then
            /// `before`, the restore of `bytes`, `step(grid, 0)` when `finish`, `after`.
            pub fn state(
                r: &FlowRequest,
                bytes: Option<&Vec<u8>>,
                finish: bool,
            ) -> Result<StateReply, String> {
                let cells = map_cells(r).map_err(|e| format!("harness: {e}"))?;
                let failed =
                    |c: String| Err(format!("harness: the recipe's flow field failed: {c}"));
                with_field!(r, cells, failed, |grid, ff| {
                    let ran: Result<FlowReply, HarnessError> = script!(grid, ff, r);
                    ran.map_err(|e| format!("harness: {e}"))?;
                    let before = ff.save_state();
                    let restore = bytes.map(|b| {
                        ff.restore_state(&grid, b).map_err(|e| StateError {
                            class: e.class().to_string(),
                            offset: e.offset() as u64,
                        })
                    });
                    if finish {
                        // An unusable field's step fails; the summary then shows it as it is.
                        let _ = ff.step(&grid, 0);
                    }
                    let path = match r.probes.first() {
                        Some(&(x, y)) => ff.path(x as usize, y as usize).unwrap_or_default(),
                        None => Vec::new(),
                    };
                    let search = Some(SearchSummary {
                        status: match ff.status() as u8 {
                            1 => SearchCode::Running,
                            2 => SearchCode::Found,
                            _ => SearchCode::NotStarted,
                        },
                        iterations: ff.settled(),
                        expanded: ff.settled(),
                        cost_bits: cost_bits(&ff.describe().costs),
                        path,
                        expansions: Vec::new(),
                    });
                    let after = ff.save_state();
                    let mut into = vec![0xA5u8; 3];
                    ff.save_state_into(&mut into);
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

define_flow_adapter!(reference_adapter, onepath_reference, reference_adapter);
define_flow_adapter!(optimized_adapter, onepath, optimized_adapter);
