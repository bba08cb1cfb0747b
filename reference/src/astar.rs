//! [GRAPH.ASTAR] Graph A* of spec/graphs.md section 6, with the cost and estimate traits of
//! sections 6-7.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::csr::CsrGraph;
use crate::error::QueryError;
use crate::open_set::OpenSet;

/// [GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.BLOCKED] The cost object of a tier-2 search.
pub trait GraphCost {
    /// [GRAPH.ASTAR.EXPAND] The cost of traversing edge `from -> to` of weight `weight`; NaN,
    /// negative or `+infinity` makes the edge unusable.
    fn cost(&self, from: u32, to: u32, weight: f64) -> f64;
    /// [GRAPH.ASTAR.BLOCKED] Whether `node` cannot be entered (default: never).
    fn blocked(&self, node: u32) -> bool {
        let _ = node;
        false
    }
}

/// [GRAPH.ASTAR.ESTIMATE] A raw estimate of the cost from `from` to `to`.
pub trait GraphHeuristic {
    /// [GRAPH.ASTAR.ESTIMATE] The raw estimate, normalised by the search.
    fn estimate(&self, from: u32, to: u32) -> f64;

    /// [GRAPH.API.PREFETCH] A hint without observable effect; the reference never calls it.
    fn prefetch(&self, node: u32) {
        let _ = node;
    }
}

/// [GRAPH.EST.ZERO] The default cost: the edge weight.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultGraphCost;

impl GraphCost for DefaultGraphCost {
    fn cost(&self, _from: u32, _to: u32, weight: f64) -> f64 {
        weight
    }
}

/// [GRAPH.EST.ZERO] The zero estimate: A* with it is Dijkstra.
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroGraphHeuristic;

impl GraphHeuristic for ZeroGraphHeuristic {
    fn estimate(&self, _from: u32, _to: u32) -> f64 {
        0.0
    }
}

/// [GRAPH.ASTAR.STATUS] The status of a tier-2 search; the numbers are saved in state bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum SearchStatus {
    /// [GRAPH.ASTAR.STATUS] `begin` has not been called.
    NotStarted = 0,
    /// [GRAPH.ASTAR.STATUS] The search can continue.
    Running = 1,
    /// [GRAPH.ASTAR.STATUS] A path was found.
    Found = 2,
    /// [GRAPH.ASTAR.STATUS] No path exists (under the cost object and the estimate).
    NotFound = 3,
}

/// [GRAPH.ASTAR.ESTIMATE] Normalises a raw estimate: `+infinity` stays, `e > 0` stays, anything
/// else (NaN, negative, `-0.0`, `+0.0`) becomes `+0.0`.
pub(crate) fn normalize_estimate(e: f64) -> f64 {
    if e == f64::INFINITY {
        f64::INFINITY
    } else if e > 0.0 {
        e
    } else {
        0.0
    }
}

/// [GRAPH.ASTAR.EXPAND] An edge cost is usable unless NaN, negative or `+infinity`.
pub(crate) fn cost_is_usable(c: f64) -> bool {
    !(c.is_nan() || c < 0.0 || c == f64::INFINITY)
}

/// [GRAPH.ASTAR.BEGIN] [GRAPH.T1.CHECKS] Checks `start` then `goal` against the node count.
pub(crate) fn check_nodes(start: u32, goal: u32, node_count: usize) -> Result<(), QueryError> {
    if start as usize >= node_count {
        return Err(QueryError::node_out_of_range("start", start, node_count));
    }
    if goal as usize >= node_count {
        return Err(QueryError::node_out_of_range("goal", goal, node_count));
    }
    Ok(())
}

/// [GRAPH.ASTAR.RUN] The number of iterations between two cancel checks.
pub(crate) const CANCEL_INTERVAL: u64 = 256;

/// [GRAPH.ASTAR] [GRAPH.ASTAR.BUFFERS] A resumable A* search over a CSR graph.
pub struct GraphAStar<'g, C: GraphCost, H: GraphHeuristic> {
    pub(crate) graph: &'g CsrGraph,
    pub(crate) cost: C,
    pub(crate) heuristic: H,
    pub(crate) g: Vec<f64>,
    pub(crate) parent: Vec<Option<u32>>,
    pub(crate) reached: Vec<bool>,
    pub(crate) closed: Vec<bool>,
    pub(crate) open: OpenSet,
    pub(crate) start: u32,
    pub(crate) goal: u32,
    pub(crate) status: SearchStatus,
    pub(crate) path_cost: f64,
    pub(crate) iterations: u64,
    pub(crate) expanded_count: u64,
    pub(crate) record: bool,
    pub(crate) recorded: Vec<u32>,
}

impl<'g, C: GraphCost, H: GraphHeuristic> GraphAStar<'g, C, H> {
    /// [GRAPH.ASTAR.BUFFERS] Creates a search (status `NotStarted`) over `graph`.
    pub fn new(graph: &'g CsrGraph, cost: C, heuristic: H) -> Self {
        let n = graph.node_count();
        GraphAStar {
            graph,
            cost,
            heuristic,
            g: vec![f64::INFINITY; n],
            parent: vec![None; n],
            reached: vec![false; n],
            closed: vec![false; n],
            open: OpenSet::new(n),
            start: 0,
            goal: 0,
            status: SearchStatus::NotStarted,
            path_cost: f64::INFINITY,
            iterations: 0,
            expanded_count: 0,
            record: false,
            recorded: Vec::new(),
        }
    }

    /// [GRAPH.ASTAR.COUNTERS] Turns recording of expanded nodes on or off.
    pub fn set_record_expansions(&mut self, record: bool) {
        self.record = record;
    }

    /// [GRAPH.ASTAR.BEGIN] [GRAPH.ASTAR.BLOCKED] [GRAPH.ASTAR.START_INF] Starts a search from
    /// `start` to `goal` (`node_out_of_range`, start checked first).
    pub fn begin(&mut self, start: u32, goal: u32) -> Result<(), QueryError> {
        check_nodes(start, goal, self.graph.node_count())?;
        // [GRAPH.ASTAR.BEGIN] reset every node, the counters and the recorded list.
        for v in 0..self.g.len() {
            self.g[v] = f64::INFINITY;
            self.parent[v] = None;
            self.reached[v] = false;
            self.closed[v] = false;
        }
        self.open.clear();
        self.iterations = 0;
        self.expanded_count = 0;
        self.recorded.clear();
        self.path_cost = f64::INFINITY;
        self.start = start;
        self.goal = goal;
        // [GRAPH.ASTAR.BLOCKED] blocked(start), then blocked(goal), before any other hook.
        if self.cost.blocked(start) || self.cost.blocked(goal) {
            self.status = SearchStatus::NotFound;
            return Ok(());
        }
        self.status = SearchStatus::Running;
        let h = normalize_estimate(self.heuristic.estimate(start, goal));
        if h.is_finite() {
            self.g[start as usize] = 0.0;
            self.parent[start as usize] = None;
            self.reached[start as usize] = true;
            self.open.push(start, h, 0.0);
        }
        Ok(())
    }

    /// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.GOAL_CLOSED]
    /// [GRAPH.ASTAR.COUNTERS] Runs at most `max_iterations` iterations; returns the status.
    pub fn step(&mut self, max_iterations: u64) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done: u64 = 0;
        loop {
            // (1) the empty check precedes the budget check.
            if self.open.is_empty() {
                self.status = SearchStatus::NotFound;
                return self.status;
            }
            // (2)
            if done == max_iterations {
                return SearchStatus::Running;
            }
            // (3)
            let Some(entry) = self.open.pop() else {
                self.status = SearchStatus::NotFound;
                return self.status;
            };
            let u = entry.node;
            done += 1;
            self.iterations += 1;
            self.closed[u as usize] = true;
            // (4)
            if u == self.goal {
                self.status = SearchStatus::Found;
                self.path_cost = self.g[u as usize];
                return self.status;
            }
            // (5)
            self.expand(u);
            self.expanded_count += 1;
            if self.record {
                self.recorded.push(u);
            }
        }
    }

    /// [GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.FIRST_PARENT] [GRAPH.ASTAR.BLOCKED] Relaxes the out-edges
    /// of `u` in CSR slot order.
    fn expand(&mut self, u: u32) {
        let graph = self.graph;
        let gu = self.g[u as usize];
        for (v, w) in graph.out_slots(u) {
            if self.cost.blocked(v) {
                continue;
            }
            let c = self.cost.cost(u, v, w);
            if !cost_is_usable(c) {
                continue;
            }
            let g2 = gu + c;
            if g2 == f64::INFINITY {
                continue;
            }
            let vi = v as usize;
            if !self.reached[vi] || g2 < self.g[vi] {
                let h = normalize_estimate(self.heuristic.estimate(v, self.goal));
                if h == f64::INFINITY {
                    continue;
                }
                self.g[vi] = g2;
                self.parent[vi] = Some(u);
                self.reached[vi] = true;
                self.closed[vi] = false;
                self.open.push(v, g2 + h, g2);
            }
        }
    }

    /// [GRAPH.ASTAR.RUN] Steps without a budget; before the first iteration and after every 256
    /// iterations of this call it first applies the termination check (`step(0)`), then reads
    /// `cancel`; a set flag returns `Running` (resumable).
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        loop {
            if self.status != SearchStatus::Running {
                return self.status;
            }
            if self.step(0) != SearchStatus::Running {
                return self.status;
            }
            if let Some(flag) = cancel {
                if flag.load(Ordering::SeqCst) {
                    return SearchStatus::Running;
                }
            }
            self.step(CANCEL_INTERVAL);
        }
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// [GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] The path start..goal when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        parent_chain(&self.parent, self.goal)
    }

    /// [GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.path_cost
        } else {
            f64::INFINITY
        }
    }

    /// [GRAPH.ASTAR.COUNTERS] The number of pops (the goal's included).
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS] The number of expansions.
    pub fn expanded_count(&self) -> u64 {
        self.expanded_count
    }

    /// [GRAPH.ASTAR.COUNTERS] The expanded nodes in order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.recorded
    }
}

/// [GRAPH.ASTAR.PATH] Follows `parent` from `end` back to the root and returns root-first order.
/// The walk is bounded by the node count, so a corrupt chain can never loop.
pub(crate) fn parent_chain(parent: &[Option<u32>], end: u32) -> Vec<u32> {
    let mut chain = vec![end];
    let mut v = end;
    while let Some(p) = parent[v as usize] {
        if chain.len() > parent.len() {
            break;
        }
        chain.push(p);
        v = p;
    }
    chain.reverse();
    chain
}
