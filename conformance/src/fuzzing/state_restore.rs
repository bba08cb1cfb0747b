//! The state targets (`state_restore_*`): hostile bytes restored into host objects of both
//! crates (one `macro_rules!` body per crate: [`reference_state`], [`optimized_state`]); see
//! [`check_state`] for the invariants.

use super::Finding;
use super::*;

/// What one crate did with one restore into a host object.
#[derive(Clone, Debug, PartialEq)]
pub struct Restored {
    /// The host's save before the restore.
    pub before: Vec<u8>,
    /// The restore: `Ok` or `(class, offset)`.
    pub result: Result<(), (String, usize)>,
    /// The host's save after the restore.
    pub after: Vec<u8>,
    /// The save of a newly created host (for a search: the NotStarted bytes).
    pub fresh: Vec<u8>,
    /// Listener calls `(index, old, new)` during the restore (grids).
    pub listener: Vec<(u32, u8, u8)>,
    /// For a restored search, the continuation after `run(None)`:
    /// `(status, iterations, expanded, cost bits, path, expansions, save)`.
    pub resumed: Option<Resumed>,
    /// `from_state(bytes)` (kinds 1-4): the new object's save, or `(class, offset)`.
    pub from_state: Option<Result<Vec<u8>, (String, usize)>>,
    /// For an accepted graph of at most 64 nodes: a Dijkstra query `0 -> N-1` after the restore
    /// `(status, cost bits, path, iterations)`.
    pub query: Option<(u8, u64, Vec<u32>, u64)>,
}

/// The state kinds the state targets fuzz.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// Kind 1.
    Grid,
    /// Kind 2.
    HexGrid,
    /// Kind 3.
    VoxelGrid,
    /// Kind 4.
    Graph,
    /// Kind 11.
    GraphAStar,
}

impl StateKind {
    /// The fuzz target of the kind.
    pub fn target(self) -> &'static str {
        match self {
            StateKind::Grid => "state_restore_grid",
            StateKind::HexGrid => "state_restore_hex",
            StateKind::VoxelGrid => "state_restore_voxel",
            StateKind::Graph => "state_restore_graph",
            StateKind::GraphAStar => "state_restore_graph_astar",
        }
    }

    /// All five.
    pub const ALL: [StateKind; 5] = [
        StateKind::Grid,
        StateKind::HexGrid,
        StateKind::VoxelGrid,
        StateKind::Graph,
        StateKind::GraphAStar,
    ];
}

/// A small deterministic host graph for searches: `n` nodes, a spine, extra edges with weights
/// 0..9 and a few fractional ones; node `n - 1` has no in-edges (unreachable goal).
pub fn host_edges(n: u32) -> Vec<(u32, u32, f64)> {
    let mut r = crate::prng::SplitMix64::new(0x57A7E);
    let mut edges = Vec::new();
    for v in 1..n - 1 {
        edges.push((r.below(v as u64) as u32, v, r.below(10) as f64));
    }
    for _ in 0..2 * n {
        let (a, b) = (r.below(n as u64) as u32, r.below(n as u64 - 1) as u32);
        let w = if r.chance(0.2) {
            r.below(40) as f64 / 4.0
        } else {
            r.below(10) as f64
        };
        edges.push((a, b, w));
    }
    edges
}

/// Number of nodes of the search host.
pub const SEARCH_NODES: u32 = 12;

macro_rules! state_host {
    ($module:ident, $krate:ident) => {
        /// State hosts and seed histories for one crate.
        pub mod $module {
            use super::{host_edges, Restored, StateKind, SEARCH_NODES};
            use ::$krate as op;
            use std::sync::{Arc, Mutex};

            /// An inconsistent but deterministic estimate (exercises reopening).
            pub struct Estimate;
            impl op::GraphHeuristic for Estimate {
                fn estimate(&self, from: u32, to: u32) -> f64 {
                    ((from as u64 * 3 + to as u64) % 4) as f64
                }
            }

            type Log = Arc<Mutex<Vec<(u32, u8, u8)>>>;
            fn listener(log: &Log) -> op::CellListener {
                let log = log.clone();
                Box::new(move |i: u32, a: u8, b: u8| {
                    log.lock().expect("listener log").push((i, a, b))
                })
            }

            fn grid() -> op::Grid {
                let mut g = op::Grid::new(7, 5).expect("host grid");
                g.set_space(op::GridSpace {
                    origin_x: 1.5,
                    origin_y: -2.0,
                    cell_size: 0.5,
                })
                .expect("space");
                g.set_area_multiplier(3, 2.5).expect("multiplier");
                for (i, a) in [(0usize, 0u8), (8, 255), (13, 3), (34, 7)] {
                    g.set_cell(i % 7, i / 7, a).expect("cell");
                }
                g
            }

            fn hex() -> op::HexGrid {
                let mut g = op::HexGrid::new(5, 4, op::HexLayout::EvenQ).expect("host hex");
                g.set_area_multiplier(9, 0.75).expect("multiplier");
                for (i, a) in [(1usize, 255u8), (6, 9), (19, 0)] {
                    g.set_cell(i % 5, i / 5, a).expect("cell");
                }
                g
            }

            fn voxel() -> op::VoxelGrid {
                let mut g = op::VoxelGrid::new(18, 3, 17, 1).expect("host voxel");
                g.set_area_multiplier(4, 3.0).expect("multiplier");
                for (x, y, z, a) in [
                    (0usize, 0usize, 0usize, 255u8),
                    (17, 2, 16, 4),
                    (16, 1, 3, 0),
                ] {
                    g.set_voxel(x, y, z, a).expect("voxel");
                }
                g
            }

            /// The host graph (also the search host's graph).
            pub fn graph(n: u32) -> op::Graph {
                let mut g = op::Graph::new(n as usize).expect("host graph");
                for (a, b, w) in host_edges(n) {
                    g.add_edge(a, b, w).expect("host edge");
                }
                g.set_weight(3, 0.125).expect("reweight");
                g.remove_edge(5).expect("removal");
                g
            }

            fn status_byte(s: op::SearchStatus) -> u8 {
                match s {
                    op::SearchStatus::NotStarted => 0,
                    op::SearchStatus::Running => 1,
                    op::SearchStatus::Found => 2,
                    op::SearchStatus::NotFound => 3,
                }
            }

            macro_rules! grid_restore {
                ($host:expr, $bytes:expr, $from:path) => {{
                    let fresh = $host.save_state();
                    let mut g = $host;
                    let before = g.save_state();
                    let log: Log = Arc::default();
                    g.add_listener(listener(&log));
                    let result = g
                        .restore_state($bytes)
                        .map_err(|e| (e.class().to_string(), e.offset()));
                    let after = g.save_state();
                    let listener = log.lock().expect("listener log").clone();
                    let from_state = Some(
                        $from($bytes)
                            .map(|g| g.save_state())
                            .map_err(|e| (e.class().to_string(), e.offset())),
                    );
                    Restored {
                        before,
                        result,
                        after,
                        fresh,
                        listener,
                        resumed: None,
                        from_state,
                        query: None,
                    }
                }};
            }

            /// Restores `bytes` into the kind's host object.
            pub fn restore(kind: StateKind, bytes: &[u8]) -> Restored {
                match kind {
                    StateKind::Grid => grid_restore!(grid(), bytes, op::Grid::from_state),
                    StateKind::HexGrid => grid_restore!(hex(), bytes, op::HexGrid::from_state),
                    StateKind::VoxelGrid => {
                        grid_restore!(voxel(), bytes, op::VoxelGrid::from_state)
                    }
                    StateKind::Graph => {
                        let mut g = graph(6);
                        let fresh = graph(6).save_state();
                        let before = g.save_state();
                        let result = g
                            .restore_state(bytes)
                            .map_err(|e| (e.class().to_string(), e.offset()));
                        let after = g.save_state();
                        let mut query = None;
                        if result.is_ok() && (1..=64).contains(&g.node_count()) {
                            let options = op::GraphOptions {
                                algorithm: op::Algorithm::Dijkstra,
                                ..Default::default()
                            };
                            let goal = g.node_count() as u32 - 1;
                            query = Some(match g.find_path(0, goal, &options) {
                                Ok(p) => (p.status as u8, p.cost.to_bits(), p.nodes, p.iterations),
                                Err(e) => (255, 0, e.class().bytes().map(u32::from).collect(), 0),
                            });
                        }
                        let from_state = Some(
                            op::Graph::from_state(bytes)
                                .map(|g| g.save_state())
                                .map_err(|e| (e.class().to_string(), e.offset())),
                        );
                        Restored {
                            before,
                            result,
                            after,
                            fresh,
                            listener: vec![],
                            resumed: None,
                            from_state,
                            query,
                        }
                    }
                    StateKind::GraphAStar => {
                        let g = graph(SEARCH_NODES);
                        let csr = g.compile();
                        let fresh =
                            op::GraphAStar::new(csr, op::DefaultGraphCost, Estimate).save_state();
                        let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, Estimate);
                        s.set_record_expansions(true);
                        s.begin(0, 9).expect("host begin");
                        s.step(3);
                        let before = s.save_state();
                        let result = s
                            .restore_state(bytes)
                            .map_err(|e| (e.class().to_string(), e.offset()));
                        let after = s.save_state();
                        let resumed = if result.is_ok() {
                            let st = s.run(None);
                            Some((
                                status_byte(st),
                                s.iterations(),
                                s.expanded_count(),
                                s.path_cost().to_bits(),
                                s.path(),
                                s.expansions().to_vec(),
                                s.save_state(),
                            ))
                        } else {
                            Some((
                                status_byte(s.status()),
                                s.iterations(),
                                s.expanded_count(),
                                0,
                                vec![],
                                s.expansions().to_vec(),
                                vec![],
                            ))
                        };
                        Restored {
                            before,
                            result,
                            after,
                            fresh,
                            listener: vec![],
                            resumed,
                            from_state: None,
                            query: None,
                        }
                    }
                }
            }

            /// Golden seed states of the kind: `(name, bytes)`, saved by this crate.
            pub fn seeds(kind: StateKind) -> Vec<(String, Vec<u8>)> {
                let mut out = Vec::new();
                match kind {
                    StateKind::Grid => {
                        out.push(("host".into(), grid().save_state()));
                        out.push((
                            "new-7x5".into(),
                            op::Grid::new(7, 5).expect("grid").save_state(),
                        ));
                        out.push((
                            "new-1x1".into(),
                            op::Grid::new(1, 1).expect("grid").save_state(),
                        ));
                        let mut g = op::Grid::new(17, 3).expect("grid");
                        g.set_cell(16, 2, 200).expect("cell");
                        out.push(("edited-17x3".into(), g.save_state()));
                    }
                    StateKind::HexGrid => {
                        out.push(("host".into(), hex().save_state()));
                        out.push((
                            "new-5x4-evenq".into(),
                            op::HexGrid::new(5, 4, op::HexLayout::EvenQ)
                                .expect("hex")
                                .save_state(),
                        ));
                        out.push((
                            "new-3x2-oddr".into(),
                            op::HexGrid::new(3, 2, op::HexLayout::OddR)
                                .expect("hex")
                                .save_state(),
                        ));
                    }
                    StateKind::VoxelGrid => {
                        out.push(("host".into(), voxel().save_state()));
                        out.push((
                            "new-18x3x17".into(),
                            op::VoxelGrid::new(18, 3, 17, 1)
                                .expect("voxel")
                                .save_state(),
                        ));
                        out.push((
                            "new-2x2x2".into(),
                            op::VoxelGrid::new(2, 2, 2, 0).expect("voxel").save_state(),
                        ));
                    }
                    StateKind::Graph => {
                        out.push(("host".into(), graph(6).save_state()));
                        out.push(("search-host".into(), graph(SEARCH_NODES).save_state()));
                        out.push((
                            "empty".into(),
                            op::Graph::new(0).expect("graph").save_state(),
                        ));
                        let mut big = graph(6).save_state()[..8].to_vec();
                        big.extend_from_slice(&(1i32 << 26).to_le_bytes());
                        big.extend_from_slice(&0i32.to_le_bytes());
                        out.push(("2pow26-nodes-no-edges".into(), big));
                    }
                    StateKind::GraphAStar => {
                        let g = graph(SEARCH_NODES);
                        let csr = g.compile();
                        let fresh = || {
                            let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, Estimate);
                            s.set_record_expansions(true);
                            s
                        };
                        out.push(("not-started".into(), fresh().save_state()));
                        for (start, goal, steps) in [
                            (0u32, 9u32, 0u64),
                            (0, 9, 1),
                            (0, 9, 3),
                            (0, 9, 6),
                            (2, 4, 2),
                            (0, SEARCH_NODES - 1, 4),
                        ] {
                            let mut s = fresh();
                            s.begin(start, goal).expect("begin");
                            if steps > 0 {
                                s.step(steps);
                            }
                            out.push((
                                format!("begin-{start}-{goal}-step-{steps}"),
                                s.save_state(),
                            ));
                        }
                        for (start, goal) in [(0u32, 9u32), (0, SEARCH_NODES - 1), (5, 5)] {
                            let mut s = fresh();
                            s.begin(start, goal).expect("begin");
                            s.run(None);
                            out.push((format!("run-{start}-{goal}"), s.save_state()));
                        }
                        let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, Estimate);
                        s.begin(0, 9).expect("begin");
                        s.step(4);
                        out.push(("unrecorded-0-9-step-4".into(), s.save_state()));
                    }
                }
                out
            }
        }
    };
}

state_host!(reference_state, onepath_reference);
state_host!(optimized_state, onepath);

/// The state invariants for one restore: no panic; both crates accept, or both reject with the
/// same class and offset; an accepted state re-encodes to the input bytes in both; a rejected
/// restore leaves a grid or graph exactly as before (and calls no listener) and a search
/// NotStarted (its save equals a new search's); a restored search continues identically;
/// `from_state` agrees likewise.
pub fn check_state(kind: StateKind, bytes: &[u8]) -> Result<(), Finding> {
    let a = reference_state::restore(kind, bytes);
    let b = optimized_state::restore(kind, bytes);
    let res = |r: &Result<(), (String, usize)>| match r {
        Ok(()) => "accepted".to_string(),
        Err((c, o)) => format!("{c} at {o}"),
    };
    if a.result != b.result {
        return Err(Finding::new(format!(
            "restore ({} bytes): expected {}, found {}",
            bytes.len(),
            res(&a.result),
            res(&b.result)
        )));
    }
    for (name, r) in [("onepath-reference", &a), ("onepath", &b)] {
        match &r.result {
            Ok(()) => {
                if r.after != bytes {
                    let at = r
                        .after
                        .iter()
                        .zip(bytes)
                        .position(|(x, y)| x != y)
                        .unwrap_or(r.after.len().min(bytes.len()));
                    return Err(Finding::new(format!(
                        "{name}: accepted state re-encodes differently ({} bytes saved, {} given, first difference at byte {at})",
                        r.after.len(),
                        bytes.len()
                    )));
                }
            }
            Err(_) => {
                let (expect, what) = if kind == StateKind::GraphAStar {
                    (&r.fresh, "a new search's")
                } else {
                    (&r.before, "the bytes before")
                };
                if r.after != *expect {
                    return Err(Finding::new(format!(
                        "{name}: after a failed restore ({}) the save differs from {what}",
                        res(&r.result)
                    )));
                }
                if !r.listener.is_empty() {
                    return Err(Finding::new(format!(
                        "{name}: a failed restore called listeners {:?}",
                        r.listener
                    )));
                }
                if let Some(s) = &r.resumed {
                    if s.0 != 0 || s.1 != 0 || s.2 != 0 || !s.5.is_empty() {
                        return Err(Finding::new(format!(
                            "{name}: search after a failed restore is not NotStarted: {s:?}"
                        )));
                    }
                }
            }
        }
    }
    if a.after != b.after {
        return Err(Finding::new(
            "saves after the restore differ between the crates",
        ));
    }
    if a.listener != b.listener {
        let k = (0..a.listener.len().max(b.listener.len()))
            .find(|&k| a.listener.get(k) != b.listener.get(k))
            .unwrap_or(0);
        return Err(Finding::new(format!(
            "listener call {k}: expected {:?}, found {:?}",
            a.listener.get(k),
            b.listener.get(k)
        )));
    }
    if a.resumed != b.resumed {
        return Err(Finding::new(format!(
            "search continued after the restore: expected {:?}, found {:?}",
            a.resumed, b.resumed
        )));
    }
    if a.query != b.query {
        return Err(Finding::new(format!(
            "query after the restore: expected {:?}, found {:?}",
            a.query, b.query
        )));
    }
    if a.from_state != b.from_state {
        let t = |r: &Option<Result<Vec<u8>, (String, usize)>>| match r {
            Some(Ok(v)) => format!("accepted ({} bytes)", v.len()),
            Some(Err((c, o))) => format!("{c} at {o}"),
            None => "-".into(),
        };
        return Err(Finding::new(format!(
            "from_state: expected {}, found {}",
            t(&a.from_state),
            t(&b.from_state)
        )));
    }
    if let Some(Ok(saved)) = &a.from_state {
        if saved != bytes {
            return Err(Finding::new(
                "from_state: the new object's save differs from the input",
            ));
        }
    }
    Ok(())
}

/// `state_restore_graph` (kind 4).
pub fn state_restore_graph(data: &[u8]) -> Result<(), Finding> {
    check_state(StateKind::Graph, data)
}
/// `state_restore_graph_astar` (kind 11).
pub fn state_restore_graph_astar(data: &[u8]) -> Result<(), Finding> {
    check_state(StateKind::GraphAStar, data)
}
/// `state_restore_grid` (kind 1).
pub fn state_restore_grid(data: &[u8]) -> Result<(), Finding> {
    check_state(StateKind::Grid, data)
}
/// `state_restore_hex` (kind 2).
pub fn state_restore_hex(data: &[u8]) -> Result<(), Finding> {
    check_state(StateKind::HexGrid, data)
}
/// `state_restore_voxel` (kind 3).
pub fn state_restore_voxel(data: &[u8]) -> Result<(), Finding> {
    check_state(StateKind::VoxelGrid, data)
}
