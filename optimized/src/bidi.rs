//! Bidirectional graph search of [GRAPH.BIDI.SIDES] .. [GRAPH.BIDI.COUNTERS].

use crate::astar::{chain, cost_ok, normalize, GraphCost, GraphHeuristic, SearchStatus};
use crate::csr::CsrGraph;
use crate::error::QueryError;
use crate::heap::{Scratch, NO_PARENT};
use std::sync::atomic::{AtomicBool, Ordering};

/// [GRAPH.BIDI.SIDES] [GRAPH.BIDI.TURN] [GRAPH.BIDI.STOP] A resumable bidirectional search: a
/// forward side over out-edges and a backward side over in-edges, strictly alternating.
pub struct BidirectionalGraphSearch<'g, C: GraphCost, H: GraphHeuristic> {
    graph: &'g CsrGraph,
    cost: C,
    heuristic: H,
    fwd: Scratch,
    bwd: Scratch,
    record: bool,
    start: u32,
    goal: u32,
    status: SearchStatus,
    iterations: u64,
    mu: f64,
    meet: u32,
    forward_turn: bool,
}

impl<'g, C: GraphCost, H: GraphHeuristic> BidirectionalGraphSearch<'g, C, H> {
    /// [GRAPH.BIDI.SIDES] A search over `graph` with its own buffers, status `NotStarted`.
    pub fn new(graph: &'g CsrGraph, cost: C, heuristic: H) -> Self {
        let n = graph.node_count();
        Self::with_scratch(
            graph,
            cost,
            heuristic,
            Scratch::with_nodes(n),
            Scratch::with_nodes(n),
        )
    }

    pub(crate) fn with_scratch(
        graph: &'g CsrGraph,
        cost: C,
        heuristic: H,
        fwd: Scratch,
        bwd: Scratch,
    ) -> Self {
        BidirectionalGraphSearch {
            graph,
            cost,
            heuristic,
            fwd,
            bwd,
            record: false,
            start: 0,
            goal: 0,
            status: SearchStatus::NotStarted,
            iterations: 0,
            mu: f64::INFINITY,
            meet: NO_PARENT,
            forward_turn: true,
        }
    }

    pub(crate) fn into_scratch(self) -> (Scratch, Scratch) {
        (self.fwd, self.bwd)
    }

    /// [GRAPH.BIDI.COUNTERS] Whether popped nodes are recorded in pop order.
    pub fn set_record_expansions(&mut self, record: bool) {
        self.record = record;
    }

    /// [GRAPH.BIDI.POTENTIAL] `pf(v)`, or `None` when either estimate is `+infinity`.
    #[inline(always)]
    fn potential(&self, v: u32) -> Option<f64> {
        let ht = normalize(self.heuristic.estimate(v, self.goal));
        let hs = normalize(self.heuristic.estimate(self.start, v));
        if ht == f64::INFINITY || hs == f64::INFINITY {
            None
        } else {
            Some(0.5 * (ht - hs))
        }
    }

    /// [GRAPH.BIDI.BEGIN] [GRAPH.ASTAR.BLOCKED] Starts a search; `node_out_of_range` (start
    /// checked first) changes nothing.
    pub fn begin(&mut self, start: u32, goal: u32) -> Result<(), QueryError> {
        let n = self.graph.node_count();
        if start as usize >= n {
            return Err(QueryError::node(false, start, n));
        }
        if goal as usize >= n {
            return Err(QueryError::node(true, goal, n));
        }
        self.fwd.reset(n);
        self.bwd.reset(n);
        self.start = start;
        self.goal = goal;
        self.iterations = 0;
        self.mu = f64::INFINITY;
        self.meet = NO_PARENT;
        self.forward_turn = true;
        self.status = SearchStatus::Running;
        if self.cost.blocked(start) || self.cost.blocked(goal) {
            self.status = SearchStatus::NotFound;
            return Ok(());
        }
        if start == goal {
            self.status = SearchStatus::Found;
            self.mu = 0.0;
            self.meet = start;
            return Ok(());
        }
        if let Some(pf) = self.potential(start) {
            self.fwd.relax(start, 0.0, NO_PARENT, 0.0 + pf);
        }
        if let Some(pf) = self.potential(goal) {
            self.bwd.relax(goal, 0.0, NO_PARENT, 0.0 - pf);
        }
        Ok(())
    }

    /// [GRAPH.BIDI.STOP] [GRAPH.BIDI.TURN] [GRAPH.BIDI.EXPAND] [GRAPH.BIDI.MEET] Runs at most
    /// `max_iterations` pops; the stop check precedes the budget check.
    pub fn step(&mut self, max_iterations: u64) -> SearchStatus {
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
        let mut done = 0u64;
        loop {
            if self.fwd.is_empty()
                || self.bwd.is_empty()
                || self.fwd.top_f() + self.bwd.top_f() >= self.mu
            {
                self.status = if self.mu != f64::INFINITY {
                    SearchStatus::Found
                } else {
                    SearchStatus::NotFound
                };
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
            done += 1;
            self.iterations += 1;
            let forward = self.forward_turn;
            self.forward_turn = !forward;
            if forward {
                let top = match self.fwd.pop() {
                    Some(t) => t,
                    None => continue,
                };
                let u = top.node;
                let gu = self.fwd.slots[u as usize].g;
                if self.record {
                    self.fwd.record.push(u);
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
                    if self.fwd.reached(v) && !(g2 < self.fwd.slots[v as usize].g) {
                        continue;
                    }
                    let pf = match self.potential(v) {
                        Some(p) => p,
                        None => continue,
                    };
                    self.fwd.relax(v, g2, u, g2 + pf);
                    graph.prefetch_out(v);
                    if self.bwd.reached(v) {
                        let cand = g2 + self.bwd.slots[v as usize].g;
                        if cand < self.mu {
                            self.mu = cand;
                            self.meet = v;
                        }
                    }
                }
            } else {
                let top = match self.bwd.pop() {
                    Some(t) => t,
                    None => continue,
                };
                let u = top.node;
                let gu = self.bwd.slots[u as usize].g;
                if self.record {
                    self.fwd.record.push(u);
                }
                for a in graph.in_arcs(u) {
                    let x = a.t;
                    if self.cost.blocked(x) {
                        continue;
                    }
                    let c = self.cost.cost(x, u, a.w);
                    if !cost_ok(c) {
                        continue;
                    }
                    let g2 = gu + c;
                    if g2 == f64::INFINITY {
                        continue;
                    }
                    if self.bwd.reached(x) && !(g2 < self.bwd.slots[x as usize].g) {
                        continue;
                    }
                    let pf = match self.potential(x) {
                        Some(p) => p,
                        None => continue,
                    };
                    self.bwd.relax(x, g2, u, g2 - pf);
                    graph.prefetch_in(x);
                    if self.fwd.reached(x) {
                        let cand = g2 + self.fwd.slots[x as usize].g;
                        if cand < self.mu {
                            self.mu = cand;
                            self.meet = x;
                        }
                    }
                }
            }
        }
    }

    /// [GRAPH.ASTAR.RUN] `step` without a budget; before each iteration (after the stop
    /// check) whose count in this call is a multiple of 256 (0 included) it reads `cancel`, and
    /// when set returns `Running` (the search can continue).
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        self.advance(u64::MAX, cancel)
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// [GRAPH.BIDI.PATH] Forward chain to the meeting node, then the backward chain to the goal.
    pub fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        if self.start == self.goal {
            return vec![self.start];
        }
        let mut p = chain(&self.fwd, self.meet, true);
        let back = chain(&self.bwd, self.meet, false);
        p.extend_from_slice(&back[1..]);
        p
    }

    /// [GRAPH.BIDI.PATH] `mu` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.mu
        } else {
            f64::INFINITY
        }
    }

    /// [GRAPH.BIDI.COUNTERS] Pops of both sides.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [GRAPH.BIDI.COUNTERS] Equal to `iterations` (every pop expands).
    pub fn expanded_count(&self) -> u64 {
        self.iterations
    }

    /// [GRAPH.BIDI.COUNTERS] The popped nodes in pop order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.fwd.record
    }
}
