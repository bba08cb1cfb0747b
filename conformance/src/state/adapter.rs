//! The state half of the in-process adapters ([CONF.IMPL.ADAPTERS]): one `macro_rules!` body
//! instantiated for every crate whose state API exists; `adapters.rs` forwards
//! `Implementation::run_state` here.

use super::{
    GraphRecipe, HeuristicName, SearchSummary, StateError, StateKind, StateRecipe, StateReply,
    StateRequest,
};
use crate::error::{ErrorKind, HarnessError};
use crate::outcome::SearchCode;

macro_rules! define_state_adapter {
    ($module:ident, $krate:ident) => {
        /// State requests on one crate.
        pub mod $module {
            use super::*;
            use ::$krate as op;
            use std::sync::{Arc, Mutex};

            /// [CONF.STATE.RECIPE] `zero` is the crate's own `ZeroGraphHeuristic` ([GRAPH.EST.ZERO]),
            /// so a crate whose zero estimate is not 0 saves other heap keys.
            struct Estimate(HeuristicName);
            impl op::GraphHeuristic for Estimate {
                fn estimate(&self, from: u32, to: u32) -> f64 {
                    match self.0 {
                        HeuristicName::Zero => {
                            op::GraphHeuristic::estimate(&op::ZeroGraphHeuristic, from, to)
                        }
                        _ => self.0.estimate(from, to),
                    }
                }
            }

            fn grid_err(e: op::GridStateError) -> StateError {
                StateError {
                    class: e.class().to_string(),
                    offset: e.offset() as u64,
                }
            }
            fn graph_err(e: op::GraphStateError) -> StateError {
                StateError {
                    class: e.class().to_string(),
                    offset: e.offset() as u64,
                }
            }
            fn harness<E: std::fmt::Display>(what: &str) -> impl Fn(E) -> String + '_ {
                move |e| format!("harness: recipe {what} failed: {e}")
            }

            fn build_graph(r: &GraphRecipe) -> Result<op::Graph, String> {
                let mut g = op::Graph::new(usize::try_from(r.node_count).unwrap_or(usize::MAX))
                    .map_err(harness("Graph::new"))?;
                for _ in 0..r.added_nodes {
                    g.add_node().map_err(harness("add_node"))?;
                }
                for &(a, b, w) in &r.edges {
                    g.add_edge(a, b, w).map_err(harness("add_edge"))?;
                }
                for &(id, w) in &r.reweights {
                    g.set_weight(id, w).map_err(harness("set_weight"))?;
                }
                for &id in &r.removals {
                    g.remove_edge(id).map_err(harness("remove_edge"))?;
                }
                Ok(g)
            }

            type Log = Arc<Mutex<Vec<(u32, u8, u8)>>>;
            fn listener(log: &Log) -> op::CellListener {
                let log = log.clone();
                Box::new(move |i: u32, a: u8, b: u8| {
                    log.lock().expect("listener log").push((i, a, b))
                })
            }
            fn taken(log: &Log) -> Vec<(u32, u8, u8)> {
                log.lock().expect("listener log").clone()
            }

            /// [STATE.API.INTO] The object's `save_state()`, checked against `save_state_into`
            /// into a dirty reused buffer: a difference is a crate bug, reported as an error.
            macro_rules! saved {
                ($g:expr) => {{
                    let bytes = $g.save_state();
                    let mut into = vec![0xA5u8; 3];
                    $g.save_state_into(&mut into);
                    if into != bytes {
                        return Err(format!(
                            "crate: save_state_into gave {} bytes that differ from save_state's {}",
                            into.len(),
                            bytes.len()
                        ));
                    }
                    bytes
                }};
            }

            macro_rules! plane {
                ($g:expr, $space:expr, $mults:expr, $edits:expr, $bytes:expr) => {{
                    let mut g = $g;
                    if let Some(s) = $space {
                        g.set_space(op::GridSpace {
                            origin_x: s[0],
                            origin_y: s[1],
                            cell_size: s[2],
                        })
                        .map_err(harness("set_space"))?;
                    }
                    for &(a, m) in $mults {
                        g.set_area_multiplier(a, m)
                            .map_err(harness("set_area_multiplier"))?;
                    }
                    for &(x, y, a) in $edits {
                        g.set_cell(x as usize, y as usize, a)
                            .map_err(harness("set_cell"))?;
                    }
                    let before = g.save_state();
                    let log: Log = Arc::default();
                    g.add_listener(listener(&log));
                    let restore = $bytes.map(|b: &Vec<u8>| g.restore_state(b).map_err(grid_err));
                    Ok(StateReply {
                        before,
                        restore,
                        after: saved!(g),
                        cells: taken(&log),
                        search: None,
                    })
                }};
            }

            fn status(s: op::SearchStatus) -> SearchCode {
                match s {
                    op::SearchStatus::NotStarted => SearchCode::NotStarted,
                    op::SearchStatus::Running => SearchCode::Running,
                    op::SearchStatus::Found => SearchCode::Found,
                    op::SearchStatus::NotFound => SearchCode::NotFound,
                }
            }

            fn restore(
                recipe: &StateRecipe,
                bytes: Option<&Vec<u8>>,
                finish: bool,
            ) -> Result<StateReply, String> {
                match recipe {
                    StateRecipe::Grid {
                        width,
                        height,
                        space,
                        area_multipliers,
                        edits,
                    } => plane!(
                        op::Grid::new(*width as usize, *height as usize)
                            .map_err(harness("Grid::new"))?,
                        space,
                        area_multipliers,
                        edits,
                        bytes
                    ),
                    StateRecipe::HexGrid {
                        width,
                        height,
                        layout,
                        space,
                        area_multipliers,
                        edits,
                    } => {
                        let layout =
                            op::HexLayout::try_from(*layout).map_err(harness("HexLayout"))?;
                        plane!(
                            op::HexGrid::new(*width as usize, *height as usize, layout)
                                .map_err(harness("HexGrid::new"))?,
                            space,
                            area_multipliers,
                            edits,
                            bytes
                        )
                    }
                    StateRecipe::VoxelGrid {
                        size,
                        default_area,
                        space,
                        area_multipliers,
                        edits,
                    } => {
                        let mut g = op::VoxelGrid::new(
                            size[0] as usize,
                            size[1] as usize,
                            size[2] as usize,
                            *default_area,
                        )
                        .map_err(harness("VoxelGrid::new"))?;
                        if let Some(s) = space {
                            g.set_space(op::VoxelSpace {
                                origin_x: s[0],
                                origin_y: s[1],
                                origin_z: s[2],
                                cell_size: s[3],
                            })
                            .map_err(harness("set_space"))?;
                        }
                        for &(a, m) in area_multipliers {
                            g.set_area_multiplier(a, m)
                                .map_err(harness("set_area_multiplier"))?;
                        }
                        for &(x, y, z, a) in edits {
                            g.set_voxel(x as usize, y as usize, z as usize, a)
                                .map_err(harness("set_voxel"))?;
                        }
                        let before = g.save_state();
                        let log: Log = Arc::default();
                        g.add_listener(listener(&log));
                        let restore = bytes.map(|b| g.restore_state(b).map_err(grid_err));
                        Ok(StateReply {
                            before,
                            restore,
                            after: saved!(g),
                            cells: taken(&log),
                            search: None,
                        })
                    }
                    StateRecipe::Graph(r) => {
                        let mut g = build_graph(r)?;
                        let before = g.save_state();
                        let restore = bytes.map(|b| g.restore_state(b).map_err(graph_err));
                        Ok(StateReply {
                            before,
                            restore,
                            after: saved!(g),
                            cells: vec![],
                            search: None,
                        })
                    }
                    StateRecipe::GraphAstar {
                        graph,
                        heuristic,
                        record,
                        start,
                        goal,
                        steps,
                        run,
                    } => {
                        let g = build_graph(graph)?;
                        let mut s = op::GraphAStar::new(
                            g.compile(),
                            op::DefaultGraphCost,
                            Estimate(*heuristic),
                        );
                        s.set_record_expansions(*record);
                        if let (Some(a), Some(b)) = (start, goal) {
                            s.begin(*a, *b).map_err(harness("begin"))?;
                        }
                        for &k in steps {
                            s.step(k);
                        }
                        if *run {
                            s.run(None);
                        }
                        let before = s.save_state();
                        let restore = bytes.map(|b| s.restore_state(b).map_err(graph_err));
                        if finish {
                            s.run(None);
                        }
                        let search = SearchSummary {
                            status: status(s.status()),
                            iterations: s.iterations(),
                            expanded: s.expanded_count(),
                            cost_bits: s.path_cost().to_bits(),
                            path: s.path(),
                            expansions: s.expansions().to_vec(),
                        };
                        Ok(StateReply {
                            before,
                            restore,
                            after: saved!(s),
                            cells: vec![],
                            search: Some(search),
                        })
                    }
                    StateRecipe::GridSearch { .. } => {
                        crate::grid::adapter::$module::state(recipe, bytes, finish)
                    }
                    StateRecipe::FlowField { request } => {
                        crate::flow::adapter::$module::state(request, bytes, finish)
                    }
                    StateRecipe::Replanner { request } => {
                        crate::replan::adapter::$module::state(request, bytes, finish)
                    }
                }
            }

            /// [CONF.IMPL.FROM_STATE] `before` empty, the result, `after` the new object's save
            /// (empty when rejected), no listener calls, no search.
            fn from_state(kind: StateKind, bytes: &[u8]) -> Result<StateReply, String> {
                let (restore, after) = match kind {
                    StateKind::Grid => match op::Grid::from_state(bytes) {
                        Ok(g) => (Ok(()), saved!(g)),
                        Err(e) => (Err(grid_err(e)), vec![]),
                    },
                    StateKind::HexGrid => match op::HexGrid::from_state(bytes) {
                        Ok(g) => (Ok(()), saved!(g)),
                        Err(e) => (Err(grid_err(e)), vec![]),
                    },
                    StateKind::VoxelGrid => match op::VoxelGrid::from_state(bytes) {
                        Ok(g) => (Ok(()), saved!(g)),
                        Err(e) => (Err(grid_err(e)), vec![]),
                    },
                    StateKind::Graph => match op::Graph::from_state(bytes) {
                        Ok(g) => (Ok(()), saved!(g)),
                        Err(e) => (Err(graph_err(e)), vec![]),
                    },
                    k => return Err(format!("harness: {k:?} has no from_state")),
                };
                Ok(StateReply {
                    before: vec![],
                    restore: Some(restore),
                    after,
                    cells: vec![],
                    search: None,
                })
            }

            /// Runs one state request ([CONF.IMPL.STATE]); `Err` is a recipe the crate cannot
            /// build ([`ErrorKind::Build`]).
            pub fn run(request: &StateRequest) -> Result<StateReply, HarnessError> {
                reply(request).map_err(|what| HarnessError::new(ErrorKind::Build, what))
            }

            fn reply(request: &StateRequest) -> Result<StateReply, String> {
                match request {
                    StateRequest::Restore {
                        recipe,
                        bytes,
                        finish,
                    } => restore(recipe, bytes.as_ref(), *finish),
                    StateRequest::FromState { kind, bytes } => from_state(*kind, bytes),
                }
            }
        }
    };
}

define_state_adapter!(reference_adapter, onepath_reference);

define_state_adapter!(optimized_adapter, onepath);
