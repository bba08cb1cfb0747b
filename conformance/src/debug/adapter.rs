//! The describe half of the in-process adapters ([CONF.IMPL.ADAPTERS], [CONF.DEBUG.REQUEST]):
//! one `macro_rules!` body instantiated for both crates. It converts each crate's descriptions
//! into the wire form and runs the path targets; the graph, replan and flow targets run in their
//! families' adapters (which own the graph builder and the scripts) and convert here.

use super::model::{
    DescribeEntry, DescribeReply, DescribeRequest, Description, EdgeData, ErrorEntry,
    ExpansionKind, FlowData, GraphPathData, HierarchyData, PathData, ReplanData, VoxelPathData,
};
use crate::error::{ErrorKind, HarnessError};
use crate::port::wire::Real;

/// A malformed describe request: a harness error naming what.
fn malformed(what: String) -> HarnessError {
    HarnessError::new(ErrorKind::Schema, format!("describe request: {what}"))
}

/// [CONF.DEBUG.REQUEST] Every query of a path target is tier 1.
pub(crate) fn tier1_only(schedules: &[&[u64]]) -> Result<(), HarnessError> {
    match schedules.iter().position(|s| !s.is_empty()) {
        None => Ok(()),
        Some(i) => Err(malformed(format!(
            "query {i} has a schedule (describe targets are tier 1)"
        ))),
    }
}

/// An entry for a failed call.
pub(crate) fn error_entry(class: &str) -> DescribeEntry {
    DescribeEntry::Error(ErrorEntry {
        error: class.to_string(),
    })
}

fn pair(p: &(f64, f64)) -> [Real; 2] {
    [Real(p.0), Real(p.1)]
}

fn triple(p: &(f64, f64, f64)) -> [Real; 3] {
    [Real(p.0), Real(p.1), Real(p.2)]
}

macro_rules! define_debug_adapter {
    ($module:ident, $krate:ident) => {
        /// Descriptions on one crate.
        pub mod $module {
            use super::*;
            use ::$krate as op;

            fn path_status(s: op::PathStatus) -> u8 {
                match s {
                    op::PathStatus::Found => 2,
                    op::PathStatus::NotFound => 3,
                    op::PathStatus::BudgetExhausted => 4,
                }
            }

            /// [DEBUG.PATH.FIELDS] A path description in wire form.
            pub fn path(d: &op::PathDescription) -> Description {
                Description::Path(PathData {
                    width: d.width as u32,
                    height: d.height as u32,
                    algorithm: d.algorithm as u8,
                    status: path_status(d.status),
                    cost: Real(d.cost),
                    cells: d.cells.clone(),
                    points: d.points.iter().map(pair).collect(),
                    expanded: d.expanded.clone(),
                    expanded_points: d.expanded_points.iter().map(pair).collect(),
                    expanded_count: d.expanded_count,
                    iterations: d.iterations,
                })
            }

            /// [DEBUG.VOXEL.FIELDS] A voxel path description in wire form.
            pub fn voxel_path(d: &op::VoxelPathDescription) -> Description {
                Description::VoxelPath(VoxelPathData {
                    size: [d.size.0 as u32, d.size.1 as u32, d.size.2 as u32],
                    algorithm: d.algorithm as u8,
                    status: path_status(d.status),
                    cost: Real(d.cost),
                    cells: d.cells.clone(),
                    points: d.points.iter().map(triple).collect(),
                    expanded: d.expanded.clone(),
                    expanded_points: d.expanded_points.iter().map(triple).collect(),
                    expanded_count: d.expanded_count,
                    iterations: d.iterations,
                })
            }

            /// [DEBUG.GRAPH.FIELDS] A graph path description in wire form.
            pub fn graph_path(d: &op::GraphPathDescription) -> Description {
                let p3 = |p: &op::Point3| [Real(p.x), Real(p.y), Real(p.z)];
                Description::GraphPath(GraphPathData {
                    algorithm: match d.algorithm {
                        op::Algorithm::Dijkstra => "dijkstra",
                        op::Algorithm::AStar => "astar",
                        op::Algorithm::BidirectionalDijkstra => "bidirectional_dijkstra",
                        op::Algorithm::BidirectionalAStar => "bidirectional_astar",
                        _ => "harness: a result reports a request-only algorithm",
                    }
                    .to_string(),
                    status: path_status(d.status),
                    cost: Real(d.cost),
                    nodes: d.nodes.clone(),
                    positions: d.positions.iter().map(p3).collect(),
                    expanded: d.expanded.clone(),
                    expanded_positions: d.expanded_positions.iter().map(p3).collect(),
                    expanded_count: d.expanded_count,
                    iterations: d.iterations,
                })
            }

            /// [DEBUG.REPLAN.FIELDS] A replanner description in wire form.
            pub fn replan(d: &op::ReplanDescription) -> Description {
                Description::Replan(ReplanData {
                    width: d.width as u32,
                    height: d.height as u32,
                    mode: d.mode as u8,
                    start: d.start,
                    goal: d.goal,
                    initialized: d.initialized,
                    found: d.found,
                    cost: Real(d.cost),
                    cells: d.cells.clone(),
                    path_error: d.path_error.map(str::to_string),
                    points: d.points.iter().map(pair).collect(),
                    expanded: d.expanded.clone(),
                    expanded_kinds: d
                        .expanded_kinds
                        .iter()
                        .map(|k| match k {
                            op::ReplanExpansion::Settle => ExpansionKind::Settle,
                            op::ReplanExpansion::Reset => ExpansionKind::Reset,
                        })
                        .collect(),
                    expanded_points: d.expanded_points.iter().map(pair).collect(),
                    expanded_count: d.expanded_count,
                    iterations: d.iterations,
                    pending: d.pending as u64,
                })
            }

            /// [DEBUG.HPA.FIELDS] A hierarchy description in wire form.
            pub fn hierarchy(d: &op::HierarchyDescription) -> Description {
                Description::Hierarchy(HierarchyData {
                    built: d.built,
                    chunk_size: d.chunk_size,
                    chunks: [d.chunks.0 as u32, d.chunks.1 as u32],
                    nodes: d.nodes.iter().map(|n| [n.cell, n.chunk]).collect(),
                    node_points: d.node_points.iter().map(pair).collect(),
                    edges: d
                        .edges
                        .iter()
                        .map(|e| EdgeData {
                            from: e.from,
                            to: e.to,
                            cost: Real(e.cost),
                            inter: e.kind == op::HpaEdgeKind::Inter,
                            path: e.path.clone(),
                        })
                        .collect(),
                })
            }

            /// [FLOW.DEBUG.DESCRIBE] A flow-field description in wire form.
            pub fn flow(d: &op::FlowFieldDescription) -> Description {
                Description::Flow(FlowData {
                    width: d.width as u32,
                    height: d.height as u32,
                    costs: d.costs.iter().map(|&c| Real(c)).collect(),
                    next: d.next.clone(),
                    goals: d.goals.clone(),
                    status: d.status as u8,
                    settled: d.settled,
                })
            }

            fn at(v: &[u32]) -> (usize, usize) {
                (v[0] as usize, v[1] as usize)
            }

            fn at3(v: &[u32]) -> (usize, usize, usize) {
                (v[0] as usize, v[1] as usize, v[2] as usize)
            }

            fn described<T, E: ClassOf>(
                r: Result<T, E>,
                f: impl FnOnce(&T) -> Description,
            ) -> DescribeEntry {
                match r {
                    Ok(p) => DescribeEntry::Described(f(&p)),
                    Err(e) => error_entry(&e.class_of()),
                }
            }

            /// An error with a class.
            trait ClassOf {
                fn class_of(&self) -> String;
            }
            impl ClassOf for op::GridSearchError {
                fn class_of(&self) -> String {
                    self.class().to_string()
                }
            }

            /// [CONF.DEBUG.REQUEST] Runs a describe request.
            pub fn run(r: &DescribeRequest) -> Result<DescribeReply, HarnessError> {
                let sq = crate::lattice::adapter::$module::square_grid;
                match r {
                    DescribeRequest::Grid(b) | DescribeRequest::Bidi(b) => {
                        let cells = crate::bidi::adapter::validate(b)?;
                        tier1_only(
                            &b.queries
                                .iter()
                                .map(|q| &q.schedule[..])
                                .collect::<Vec<_>>(),
                        )?;
                        let g = match sq(&b.map, &cells) {
                            Ok(g) => g,
                            Err(e) => return Ok(DescribeReply::Failed(e.class().to_string())),
                        };
                        let o = crate::grid::adapter::$module::options(&b.options);
                        let bidi = matches!(r, DescribeRequest::Bidi(_));
                        Ok(DescribeReply::Ran(
                            b.queries
                                .iter()
                                .map(|q| {
                                    let found = if bidi {
                                        op::find_grid_path_bidirectional(
                                            &g,
                                            at(&q.start),
                                            at(&q.goal),
                                            &o,
                                        )
                                    } else {
                                        op::find_grid_path(&g, at(&q.start), at(&q.goal), &o)
                                    };
                                    described(found, |p| path(&op::describe_path(&g, p)))
                                })
                                .collect(),
                        ))
                    }
                    DescribeRequest::Hex(h) => {
                        let lattice = crate::lattice::LatticeRequest::Hex(h.clone());
                        crate::lattice::adapter::validate(&lattice)?;
                        tier1_only(
                            &h.queries
                                .iter()
                                .map(|q| &q.schedule[..])
                                .collect::<Vec<_>>(),
                        )?;
                        let g = match crate::lattice::adapter::$module::hex_grid(h)? {
                            Ok(g) => g,
                            Err(class) => return Ok(DescribeReply::Failed(class)),
                        };
                        let o = crate::grid::adapter::$module::options(&h.options);
                        Ok(DescribeReply::Ran(
                            h.queries
                                .iter()
                                .map(|q| {
                                    let found =
                                        op::find_hex_path(&g, at(&q.start), at(&q.goal), &o);
                                    described(found, |p| path(&op::describe_hex_path(&g, p)))
                                })
                                .collect(),
                        ))
                    }
                    DescribeRequest::Voxel(v) => {
                        let lattice = crate::lattice::LatticeRequest::Voxel(v.clone());
                        crate::lattice::adapter::validate(&lattice)?;
                        tier1_only(
                            &v.queries
                                .iter()
                                .map(|q| &q.schedule[..])
                                .collect::<Vec<_>>(),
                        )?;
                        let g = match crate::lattice::adapter::$module::voxel_grid(v)? {
                            Ok(g) => g,
                            Err(class) => return Ok(DescribeReply::Failed(class)),
                        };
                        let o = crate::lattice::adapter::$module::voxel_options(&v.options);
                        Ok(DescribeReply::Ran(
                            v.queries
                                .iter()
                                .map(|q| {
                                    let found =
                                        op::find_voxel_path(&g, at3(&q.start), at3(&q.goal), &o);
                                    described(found, |p| {
                                        voxel_path(&op::describe_voxel_path(&g, p))
                                    })
                                })
                                .collect(),
                        ))
                    }
                    DescribeRequest::Hpa(h) => {
                        let cells = crate::hpa::adapter::validate(h)?;
                        tier1_only(
                            &h.queries
                                .iter()
                                .map(|q| &q.schedule[..])
                                .collect::<Vec<_>>(),
                        )?;
                        let mut g = match sq(&h.map, &cells) {
                            Ok(g) => g,
                            Err(e) => return Ok(DescribeReply::Failed(e.class().to_string())),
                        };
                        let o = crate::hpa::adapter::$module::options(&h.options);
                        let mut entries = Vec::with_capacity(h.queries.len() + 1);
                        for q in &h.queries {
                            for &(x, y, area) in &q.edits {
                                if let Err(e) = g.set_cell(x as usize, y as usize, area) {
                                    return Ok(DescribeReply::Failed(e.class().to_string()));
                                }
                            }
                            let found = op::find_hpa_path(&g, at(&q.start), at(&q.goal), &o);
                            entries.push(described(found, |p| path(&op::describe_path(&g, p))));
                        }
                        entries.push(match op::HpaHierarchy::new(o) {
                            Ok(mut hier) => {
                                hier.refresh(&g);
                                DescribeEntry::Described(hierarchy(&hier.describe(&g)))
                            }
                            Err(e) => error_entry(e.class()),
                        });
                        Ok(DescribeReply::Ran(entries))
                    }
                    // The families' own adapters run these (they own the graph builder and
                    // the scripts); `adapters.rs` sends them there.
                    DescribeRequest::Graph(_)
                    | DescribeRequest::Replan(_)
                    | DescribeRequest::Flow(_) => Err(malformed(format!(
                        "the {} target is run by its family's adapter",
                        r.target()
                    ))),
                }
            }
        }
    };
}

define_debug_adapter!(reference_adapter, onepath_reference);
define_debug_adapter!(optimized_adapter, onepath);
