//! The sync test on the two crates ([CONF.IMPL.ADAPTERS]): one `macro_rules!` body builds a
//! session's world ([CONF.SYNC.SESSION]) on either crate and runs its ops ([CONF.SYNC.OPS]),
//! so a difference between them is always a crate bug.

use super::{check_schema, parse_inputs, run_loop, Session, SyncOp, SyncReply, SyncWorld};
use crate::error::{ErrorKind, HarnessError};
use crate::grid::GridMap;
use crate::replan::ModeName;

/// [CONF.SYNC.STATUS] 255 for an error.
const ERROR_STATUS: u8 = 255;

/// The session's map with its cells decoded.
fn grid_map(s: &Session) -> Result<GridMap, HarnessError> {
    let cells = hex::decode(&s.map.cells).map_err(|e| {
        HarnessError::new(
            ErrorKind::Schema,
            format!("synctest session: cells are not hex: {e}"),
        )
    })?;
    if cells.len() as u64 != u64::from(s.map.width) * u64::from(s.map.height) {
        return Err(HarnessError::new(
            ErrorKind::Schema,
            format!(
                "synctest session: {} cells for a {} x {} map",
                cells.len(),
                s.map.width,
                s.map.height
            ),
        ));
    }
    Ok(GridMap {
        width: s.map.width,
        height: s.map.height,
        cells,
        multipliers: s.map.multipliers.clone(),
        space: s.map.space,
    })
}

/// [CONF.SYNC.OPS] The output of a restore op: `u8` 0, or `u8` 1, the class, `u32` offset,
/// `i32` member (-1 for none) and the member's state class (names as `u8` length and ASCII).
/// A refused restore: class, offset, member, state class.
type Refusal<'a> = (&'a str, Option<usize>, Option<usize>, Option<&'a str>);

fn restore_output(err: Option<Refusal<'_>>, out: &mut Vec<u8>) {
    let name = |s: &str, out: &mut Vec<u8>| {
        out.push(s.len() as u8);
        out.extend_from_slice(s.as_bytes());
    };
    match err {
        None => out.push(0),
        Some((class, offset, member, state)) => {
            out.push(1);
            name(class, out);
            out.extend_from_slice(&(offset.unwrap_or(0) as u32).to_le_bytes());
            out.extend_from_slice(&member.map_or(-1, |m| m as i32).to_le_bytes());
            name(state.unwrap_or(""), out);
        }
    }
}

fn xy(p: (u32, u32)) -> (usize, usize) {
    (p.0 as usize, p.1 as usize)
}

macro_rules! define_sync_adapter {
    ($module:ident, $krate:ident, $grid_adapter:ident) => {
        /// The sync test on one crate.
        pub mod $module {
            use super::*;
            use ::$krate as op;

            /// A session's world on this crate.
            pub struct CrateWorld {
                /// The world; public so that tests can wrap it with faults.
                pub world: op::World,
                /// The session's containers, for the ops of code 8.
                containers: Vec<Vec<u8>>,
            }

            /// [CONF.SYNC.SESSION] Builds the world: grid, graph, replanner, flow field, grid
            /// search, graph search. `Err(Ok(class))` is a constructor's error class.
            pub fn build(s: &Session) -> Result<CrateWorld, Result<String, HarnessError>> {
                let map = grid_map(s).map_err(Err)?;
                // [CONF.SYNC.SESSION] Built as [CONF.GRID.MAP]; a failing call gives its class.
                let class = |e: op::GridError| Ok(e.class().to_string());
                let mut grid =
                    op::Grid::new(map.width as usize, map.height as usize).map_err(class)?;
                for &(a, m) in &map.multipliers {
                    grid.set_area_multiplier(a, m).map_err(class)?;
                }
                if let Some([ox, oy, cs]) = map.space {
                    grid.set_space(op::GridSpace {
                        origin_x: ox,
                        origin_y: oy,
                        cell_size: cs,
                    })
                    .map_err(class)?;
                }
                let w = map.width as usize;
                for (i, &c) in map.cells.iter().enumerate() {
                    if c != 0 {
                        grid.set_cell(i % w, i / w, c).map_err(class)?;
                    }
                }
                let options = crate::grid::adapter::$grid_adapter::options(&s.options);
                let mut graph = op::Graph::new(s.graph.node_count as usize)
                    .map_err(|e| Ok(e.class().to_string()))?;
                for &(a, b, w) in &s.graph.edges {
                    graph
                        .add_edge(a, b, w)
                        .map_err(|e| Ok(e.class().to_string()))?;
                }
                let mut world = op::World::new();
                let g = world.add_grid(grid);
                let n = world.add_graph(graph);
                let mode = match s.replanner.mode {
                    ModeName::Lpa => op::ReplanMode::Lpa,
                    ModeName::DStarLite => op::ReplanMode::DStarLite,
                };
                let class = |e: op::WorldError| Ok(e.class().to_string());
                world
                    .add_replanner(
                        g,
                        options.clone(),
                        mode,
                        xy(s.replanner.start),
                        xy(s.replanner.goal),
                    )
                    .map_err(class)?;
                let goals: Vec<(usize, usize)> = s.flow_goals.iter().map(|&p| xy(p)).collect();
                world
                    .add_flow_field(g, options.clone(), &goals)
                    .map_err(class)?;
                world.add_grid_search(g, options).map_err(class)?;
                world.add_graph_search(n).map_err(class)?;
                Ok(CrateWorld {
                    world,
                    containers: s.containers.iter().map(|h| h.0.clone()).collect(),
                })
            }

            fn status(s: op::SearchStatus) -> u8 {
                s as u8
            }

            impl SyncWorld for CrateWorld {
                fn run_op(&mut self, o: SyncOp, out: &mut Vec<u8>) {
                    let w = &mut self.world;
                    match o {
                        SyncOp::SetCell(x, y, a) => {
                            out.push(0);
                            let ok = w.grid_mut(0).map(|g| g.set_cell(x, y, a).is_ok());
                            out.push(if ok == Ok(true) { 0 } else { 1 });
                        }
                        SyncOp::Replan(budget) => {
                            out.push(1);
                            let Ok((grid, rp)) = w.replanner_mut(2) else {
                                out.push(ERROR_STATUS);
                                return;
                            };
                            out.push(rp.replan(grid, budget).map_or(ERROR_STATUS, status));
                            out.extend_from_slice(&rp.path_cost().to_bits().to_le_bytes());
                            let path = rp.path(grid).unwrap_or_default();
                            out.extend_from_slice(&(path.len() as i32).to_le_bytes());
                            for c in path {
                                out.extend_from_slice(&(c as i32).to_le_bytes());
                            }
                        }
                        SyncOp::FlowStep(budget) => {
                            out.push(2);
                            let Ok((grid, field)) = w.flow_field_mut(3) else {
                                out.push(ERROR_STATUS);
                                return;
                            };
                            out.push(field.step(grid, budget).map_or(ERROR_STATUS, |s| s as u8));
                        }
                        SyncOp::GridBegin(s, g) => {
                            out.push(3);
                            let ok = w.with_grid_search(4, |h| h.begin(s, g).is_ok());
                            out.push(if ok == Ok(true) { 0 } else { 1 });
                        }
                        SyncOp::GridStep(budget) => {
                            out.push(4);
                            let r = w.with_grid_search(4, |h| {
                                (status(h.step(budget)), h.path_cost(), h.iterations())
                            });
                            let (st, cost, it) = r.unwrap_or((ERROR_STATUS, f64::NAN, 0));
                            out.push(st);
                            out.extend_from_slice(&cost.to_bits().to_le_bytes());
                            out.extend_from_slice(&(it as u32).to_le_bytes());
                        }
                        SyncOp::SetWeight(edge, weight) => {
                            out.push(5);
                            let ok = w.graph_mut(1).map(|g| g.set_weight(edge, weight).is_ok());
                            out.push(if ok == Ok(true) { 0 } else { 1 });
                        }
                        SyncOp::GraphBegin(s, g) => {
                            out.push(6);
                            let ok = w.with_graph_search(5, |h| h.begin(s, g).is_ok());
                            out.push(if ok == Ok(true) { 0 } else { 1 });
                        }
                        SyncOp::Restore(i) => {
                            out.push(8);
                            let bytes = self.containers.get(i).map_or(&[][..], |b| &b[..]);
                            restore_output(
                                w.restore_state(bytes).err().map(|e| {
                                    (e.class(), e.offset(), e.member_index(), e.state_class())
                                }),
                                out,
                            );
                        }
                        SyncOp::SetArea(area, multiplier) => {
                            out.push(10);
                            let ok = w
                                .grid_mut(0)
                                .map(|g| g.set_area_multiplier(area, multiplier).is_ok());
                            out.push(if ok == Ok(true) { 0 } else { 1 });
                        }
                        SyncOp::GraphStep(budget) => {
                            out.push(7);
                            let r =
                                w.with_graph_search(5, |h| (status(h.step(budget)), h.path_cost()));
                            let (st, cost) = r.unwrap_or((ERROR_STATUS, f64::NAN));
                            out.push(st);
                            out.extend_from_slice(&cost.to_bits().to_le_bytes());
                        }
                    }
                }

                fn member_bytes(&self, index: usize, out: &mut Vec<u8>) {
                    out.clear();
                    if let Ok(b) = self.world.member_state(index) {
                        out.extend_from_slice(&b);
                    }
                }

                fn save(&self, out: &mut Vec<u8>) {
                    self.world.save_state_into(out);
                }

                fn restore(&mut self, bytes: &[u8]) -> Result<(), String> {
                    self.world.restore_state(bytes).map_err(|e| e.to_string())
                }
            }

            /// [CONF.SYNC.LOOP] Builds the session's world and runs the loop.
            pub fn run(s: &Session) -> Result<SyncReply, HarnessError> {
                check_schema(s).map_err(|e| HarnessError::new(ErrorKind::Schema, e))?;
                let frames = match parse_inputs(s) {
                    Ok(f) => f,
                    Err(e) => return Ok(SyncReply::Failed(e)),
                };
                let mut world = match build(s) {
                    Ok(w) => w,
                    Err(Ok(class)) => return Ok(SyncReply::Failed(class)),
                    Err(Err(e)) => return Err(e),
                };
                Ok(SyncReply::Ran(run_loop(&mut world, &frames)))
            }
        }
    };
}

define_sync_adapter!(reference_adapter, onepath_reference, reference_adapter);
define_sync_adapter!(optimized_adapter, onepath, optimized_adapter);
