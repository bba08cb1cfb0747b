//! Graph A* of [GRAPH.ASTAR.STEP] / [GRAPH.ASTAR.EXPAND] with the hooks and estimates of
//! [GRAPH.ASTAR.ESTIMATE], [GRAPH.EST.ZERO] and [GRAPH.PT.ESTIMATE].

use crate::csr::CsrGraph;
use crate::error::QueryError;
use crate::heap::{Buffers, NO_PARENT};
use crate::landmarks::Landmarks;
use crate::values::{distance, Point3};
use std::sync::atomic::{AtomicBool, Ordering};

/// [GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.BLOCKED] The cost object: edge costs and blocked nodes.
pub trait GraphCost {
    /// [GRAPH.ASTAR.EXPAND] The cost of using edge `from -> to` of stored weight `weight`; NaN,
    /// negative and `+infinity` make the edge unusable.
    fn cost(&self, from: u32, to: u32, weight: f64) -> f64;
    /// [GRAPH.ASTAR.BLOCKED] Whether `node` cannot be entered.
    fn blocked(&self, node: u32) -> bool {
        let _ = node;
        false
    }
}

/// [GRAPH.ASTAR.ESTIMATE] A raw estimate of the cost from `from` to `to`.
pub trait GraphHeuristic {
    /// [GRAPH.ASTAR.ESTIMATE] The raw estimate (normalised by the search).
    fn estimate(&self, from: u32, to: u32) -> f64;

    /// [GRAPH.API.PREFETCH] A hint that `estimate(node, _)` will probably be asked soon (a node
    /// next to the likely next pop): an estimate may start loading the data it reads. It must not
    /// be observable; the default does nothing.
    #[inline(always)]
    fn prefetch(&self, node: u32) {
        let _ = node;
    }
}

/// [GRAPH.ASTAR.EXPAND] The default cost object: cost = stored weight, nothing blocked.
#[derive(Clone, Copy, Debug, Default)]
pub struct DefaultGraphCost;

impl GraphCost for DefaultGraphCost {
    #[inline(always)]
    fn cost(&self, _from: u32, _to: u32, weight: f64) -> f64 {
        weight
    }
}

/// [GRAPH.EST.ZERO] The zero estimate (A* becomes Dijkstra).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroGraphHeuristic;

impl GraphHeuristic for ZeroGraphHeuristic {
    #[inline(always)]
    fn estimate(&self, _from: u32, _to: u32) -> f64 {
        0.0
    }
}

/// [GRAPH.PT.ESTIMATE] The Euclidean estimate `distance(p_from, p_to)` over a point slice.
#[derive(Clone, Copy, Debug)]
pub struct EuclideanGraphHeuristic<'a> {
    points: &'a [Point3],
}

impl<'a> EuclideanGraphHeuristic<'a> {
    /// [GRAPH.PT.ESTIMATE] Uses `points[v]` as the position of node `v`.
    pub fn new(points: &'a [Point3]) -> Self {
        EuclideanGraphHeuristic { points }
    }
}

impl GraphHeuristic for EuclideanGraphHeuristic<'_> {
    /// [GRAPH.PT.ESTIMATE] `distance(p_from, p_to)`; a node without a point estimates `+0.0`.
    #[inline(always)]
    fn estimate(&self, from: u32, to: u32) -> f64 {
        match (self.points.get(from as usize), self.points.get(to as usize)) {
            (Some(&a), Some(&b)) => distance(a, b),
            _ => 0.0,
        }
    }

    #[inline(always)]
    fn prefetch(&self, node: u32) {
        if let Some(p) = self.points.get(node as usize) {
            crate::csr::prefetch(p);
        }
    }
}

/// [GRAPH.ALT.BOUND] The ALT estimate `lower_bound(from, to)` of a landmark table.
#[derive(Clone, Copy, Debug)]
pub struct AltGraphHeuristic<'a> {
    table: &'a Landmarks,
}

impl<'a> AltGraphHeuristic<'a> {
    /// [GRAPH.ALT.BOUND] Uses `table.lower_bound`.
    pub fn new(table: &'a Landmarks) -> Self {
        AltGraphHeuristic { table }
    }
}

impl GraphHeuristic for AltGraphHeuristic<'_> {
    #[inline(always)]
    fn estimate(&self, from: u32, to: u32) -> f64 {
        self.table.lower_bound(from, to)
    }
}

/// [GRAPH.ASTAR.ESTIMATE] `+infinity` stays, `e > 0` stays, everything else becomes `+0.0`.
#[inline(always)]
pub(crate) fn normalize(e: f64) -> f64 {
    if e == f64::INFINITY {
        e
    } else if e > 0.0 {
        e
    } else {
        0.0
    }
}

/// [GRAPH.ASTAR.EXPAND] An edge cost is usable unless NaN, negative or `+infinity`.
#[inline(always)]
pub(crate) fn cost_ok(c: f64) -> bool {
    c >= 0.0 && c != f64::INFINITY
}

/// [GRAPH.ASTAR.STATUS] Search status; the numbers are the ones saved in state bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum SearchStatus {
    /// [GRAPH.ASTAR.STATUS] `begin` has not been called.
    NotStarted = 0,
    /// [GRAPH.ASTAR.STATUS] The search can continue.
    Running = 1,
    /// [GRAPH.ASTAR.STATUS] A path was found.
    Found = 2,
    /// [GRAPH.ASTAR.STATUS] The goal is unreachable.
    NotFound = 3,
}

/// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EXPAND] [STATE.HEAP.ARRAY] A resumable A* search over a CSR
/// graph. Its open set is the binary heap of [STATE.HEAP.ARRAY] .. [STATE.HEAP.UPDATE] (it is
/// saved as it lies); buffers are allocated once and reset by an epoch counter on every `begin`.
pub struct GraphAStar<'g, C: GraphCost, H: GraphHeuristic> {
    pub(crate) e: Engine<'g, C, H, 2>,
}

/// The search engine behind `GraphAStar` (`D = 2`) and tier 1 (`D = 4`, never saved).
pub(crate) struct Engine<'g, C: GraphCost, H: GraphHeuristic, const D: usize> {
    pub(crate) graph: &'g CsrGraph,
    cost: C,
    heuristic: H,
    pub(crate) scratch: Buffers<D>,
    record: bool,
    pub(crate) start: u32,
    pub(crate) goal: u32,
    pub(crate) status: SearchStatus,
    pub(crate) iterations: u64,
    pub(crate) expanded: u64,
    pub(crate) path_cost: f64,
}

impl<'g, C: GraphCost, H: GraphHeuristic> GraphAStar<'g, C, H> {
    /// [GRAPH.ASTAR.BUFFERS] A search over `graph` with its own buffers, status `NotStarted`.
    pub fn new(graph: &'g CsrGraph, cost: C, heuristic: H) -> Self {
        GraphAStar {
            e: Engine::new(graph, cost, heuristic),
        }
    }

    /// [GRAPH.ASTAR.COUNTERS] [STATE.SEARCH.RECORD] Whether `step` appends each expanded node to
    /// the recorded list (an option of the object, never saved).
    pub fn set_record_expansions(&mut self, record: bool) {
        self.e.set_record_expansions(record)
    }

    /// [GRAPH.ASTAR.BEGIN] [GRAPH.ASTAR.BLOCKED] [GRAPH.ASTAR.START_INF] Starts a search from
    /// `start` to `goal`; fails with `node_out_of_range` (start checked first) and then changes
    /// nothing.
    pub fn begin(&mut self, start: u32, goal: u32) -> Result<(), QueryError> {
        self.e.begin(start, goal)
    }

    /// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.GOAL_CLOSED] Runs at most
    /// `max_iterations` iterations; the empty check precedes the budget check.
    pub fn step(&mut self, max_iterations: u64) -> SearchStatus {
        self.e.step(max_iterations)
    }

    /// [GRAPH.ASTAR.RUN] `step` without a budget; before each iteration (after the empty
    /// check) whose count in this call is a multiple of 256 (0 included) it reads `cancel`, and
    /// when set returns `Running` (the search can continue).
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        self.e.run(cancel)
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.e.status
    }

    /// [GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] The path start..goal when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        self.e.path()
    }

    /// [GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        self.e.path_cost()
    }

    /// [GRAPH.ASTAR.COUNTERS] Pops so far (the goal's included).
    pub fn iterations(&self) -> u64 {
        self.e.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS] Expansions so far (the goal's pop is not one).
    pub fn expanded_count(&self) -> u64 {
        self.e.expanded
    }

    /// [GRAPH.ASTAR.COUNTERS] The recorded expanded nodes in order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.e.scratch.record
    }
}

impl<'g, C: GraphCost, H: GraphHeuristic, const D: usize> Engine<'g, C, H, D> {
    pub(crate) fn new(graph: &'g CsrGraph, cost: C, heuristic: H) -> Self {
        Self::with_scratch(
            graph,
            cost,
            heuristic,
            Buffers::with_nodes(graph.node_count()),
        )
    }

    pub(crate) fn with_scratch(
        graph: &'g CsrGraph,
        cost: C,
        heuristic: H,
        scratch: Buffers<D>,
    ) -> Self {
        Engine {
            graph,
            cost,
            heuristic,
            scratch,
            record: false,
            start: 0,
            goal: 0,
            status: SearchStatus::NotStarted,
            iterations: 0,
            expanded: 0,
            path_cost: f64::INFINITY,
        }
    }

    pub(crate) fn into_scratch(self) -> Buffers<D> {
        self.scratch
    }

    /// [GRAPH.ASTAR.COUNTERS] Whether `step` appends each expanded node to the recorded list.
    pub(crate) fn set_record_expansions(&mut self, record: bool) {
        self.record = record;
    }

    /// [GRAPH.ASTAR.BEGIN] [GRAPH.ASTAR.BLOCKED] [GRAPH.ASTAR.START_INF] Starts a search from
    /// `start` to `goal`; fails with `node_out_of_range` (start checked first) and then changes
    /// nothing.
    pub(crate) fn begin(&mut self, start: u32, goal: u32) -> Result<(), QueryError> {
        let n = self.graph.node_count();
        if start as usize >= n {
            return Err(QueryError::node(false, start, n));
        }
        if goal as usize >= n {
            return Err(QueryError::node(true, goal, n));
        }
        self.scratch.reset(n);
        self.start = start;
        self.goal = goal;
        self.iterations = 0;
        self.expanded = 0;
        self.path_cost = f64::INFINITY;
        self.status = SearchStatus::Running;
        if self.cost.blocked(start) || self.cost.blocked(goal) {
            self.status = SearchStatus::NotFound;
            return Ok(());
        }
        let h = normalize(self.heuristic.estimate(start, goal));
        if h != f64::INFINITY {
            self.scratch.relax(start, 0.0, NO_PARENT, h);
        }
        Ok(())
    }

    /// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.GOAL_CLOSED] Runs at most
    /// `max_iterations` iterations; the empty check precedes the budget check.
    pub(crate) fn step(&mut self, max_iterations: u64) -> SearchStatus {
        self.advance(max_iterations, None)
    }

    /// `step` with an optional cancel flag read before an iteration whenever the number of
    /// iterations done in this call is a multiple of 256 (after the empty / stop check).
    #[inline]
    fn advance(&mut self, max_iterations: u64, cancel: Option<&AtomicBool>) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let graph = self.graph;
        let goal = self.goal;
        let mut done = 0u64;
        loop {
            if self.scratch.is_empty() {
                self.status = SearchStatus::NotFound;
                return self.status;
            }
            if let Some(flag) = cancel {
                if done.is_multiple_of(256) && flag.load(Ordering::Relaxed) {
                    return SearchStatus::Running;
                }
            }
            if done == max_iterations {
                return SearchStatus::Running;
            }
            let top = match self.scratch.pop() {
                Some(t) => t,
                None => continue,
            };
            done += 1;
            self.iterations += 1;
            let u = top.node;
            if u == goal {
                self.status = SearchStatus::Found;
                self.path_cost = self.scratch.slots[u as usize].g;
                return self.status;
            }
            // [GRAPH.ASTAR.EXPAND] g[u] from the node buffer (a restored heap entry's g equals it
            // but may differ in the sign of a zero).
            let gu = self.scratch.slots[u as usize].g;
            // The likely next pop: its arcs were prefetched when it was pushed; now start
            // loading the slots its expansion will read.
            if let Some(w) = self.scratch.peek_node() {
                for a in graph.out_arcs(w) {
                    self.scratch.prefetch_slot(a.t);
                    self.heuristic.prefetch(a.t);
                }
            }
            // The pops after it are likely among heap slots 1 and 2: start loading their arcs,
            // so that the loop above finds them in cache one pop later.
            for x in self.scratch.peek_after().into_iter().flatten() {
                graph.prefetch_out(x);
            }
            for a in graph.out_arcs(u) {
                let v = a.t;
                if self.cost.blocked(v) {
                    continue;
                }
                let c = self.cost.cost(u, v, a.w);
                if !cost_ok(c) {
                    continue;
                }
                let g2 = gu + c;
                if g2 == f64::INFINITY {
                    continue;
                }
                let s = &self.scratch.slots[v as usize];
                if s.stamp == self.scratch.epoch && !(g2 < s.g) {
                    continue;
                }
                let h = normalize(self.heuristic.estimate(v, goal));
                if h == f64::INFINITY {
                    continue;
                }
                self.scratch.relax(v, g2, u, g2 + h);
                graph.prefetch_out(v);
            }
            self.expanded += 1;
            if self.record {
                self.scratch.record.push(u);
            }
        }
    }

    /// [GRAPH.ASTAR.RUN] `step` without a budget; before each iteration (after the empty
    /// check) whose count in this call is a multiple of 256 (0 included) it reads `cancel`, and
    /// when set returns `Running` (the search can continue).
    pub(crate) fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        self.advance(u64::MAX, cancel)
    }

    /// [GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] The path start..goal when `Found`, else empty.
    pub(crate) fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        chain(&self.scratch, self.goal, true)
    }

    /// [GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when `Found`, else `+infinity`.
    pub(crate) fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.path_cost
        } else {
            f64::INFINITY
        }
    }

    /// [GRAPH.ASTAR.COUNTERS] Pops so far (the goal's included).
    pub(crate) fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS] Expansions so far (the goal's pop is not one).
    pub(crate) fn expanded_count(&self) -> u64 {
        self.expanded
    }

    /// [GRAPH.ASTAR.COUNTERS] The recorded expanded nodes in order (empty unless recording).
    pub(crate) fn expansions(&self) -> &[u32] {
        &self.scratch.record
    }
}

/// The parent chain from `from` back to its root; reversed (root first) when `reverse`.
pub(crate) fn chain<const D: usize>(scratch: &Buffers<D>, from: u32, reverse: bool) -> Vec<u32> {
    let mut out = Vec::new();
    let mut v = from;
    // A parent chain is a tree path (strict improvements only), so it has at most N nodes.
    let limit = scratch.slots.len();
    while out.len() <= limit {
        out.push(v);
        let p = scratch.parent(v);
        if p == NO_PARENT {
            break;
        }
        v = p;
    }
    if reverse {
        out.reverse();
    }
    out
}
