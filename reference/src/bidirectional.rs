//! [GRAPH.BIDI] Bidirectional search of spec/graphs.md section 8.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::astar::{
    check_nodes, cost_is_usable, normalize_estimate, parent_chain, GraphCost, GraphHeuristic,
    SearchStatus, CANCEL_INTERVAL,
};
use crate::csr::CsrGraph;
use crate::error::QueryError;
use crate::open_set::OpenSet;

/// [GRAPH.BIDI.SIDES] The buffers and open set of one side.
struct Side {
    g: Vec<f64>,
    parent: Vec<Option<u32>>,
    reached: Vec<bool>,
    closed: Vec<bool>,
    open: OpenSet,
}

impl Side {
    fn new(n: usize) -> Self {
        Side {
            g: vec![f64::INFINITY; n],
            parent: vec![None; n],
            reached: vec![false; n],
            closed: vec![false; n],
            open: OpenSet::new(n),
        }
    }

    fn reset(&mut self) {
        for v in 0..self.g.len() {
            self.g[v] = f64::INFINITY;
            self.parent[v] = None;
            self.reached[v] = false;
            self.closed[v] = false;
        }
        self.open.clear();
    }
}

/// [GRAPH.BIDI] A resumable bidirectional search (Dijkstra or A* with the symmetric potential of
/// [GRAPH.BIDI.POTENTIAL]); it has the same methods as [`crate::GraphAStar`].
pub struct BidirectionalGraphSearch<'g, C: GraphCost, H: GraphHeuristic> {
    graph: &'g CsrGraph,
    cost: C,
    heuristic: H,
    forward: Side,
    backward: Side,
    /// [GRAPH.BIDI.TURN] True when the forward side pops next.
    forward_turn: bool,
    start: u32,
    goal: u32,
    mu: f64,
    meeting: Option<u32>,
    status: SearchStatus,
    iterations: u64,
    record: bool,
    recorded: Vec<u32>,
}

impl<'g, C: GraphCost, H: GraphHeuristic> BidirectionalGraphSearch<'g, C, H> {
    /// [GRAPH.BIDI.SIDES] Creates a search (status `NotStarted`) over `graph`.
    pub fn new(graph: &'g CsrGraph, cost: C, heuristic: H) -> Self {
        let n = graph.node_count();
        BidirectionalGraphSearch {
            graph,
            cost,
            heuristic,
            forward: Side::new(n),
            backward: Side::new(n),
            forward_turn: true,
            start: 0,
            goal: 0,
            mu: f64::INFINITY,
            meeting: None,
            status: SearchStatus::NotStarted,
            iterations: 0,
            record: false,
            recorded: Vec::new(),
        }
    }

    /// [GRAPH.BIDI.COUNTERS] Turns recording of popped nodes on or off.
    pub fn set_record_expansions(&mut self, record: bool) {
        self.record = record;
    }

    /// [GRAPH.BIDI.POTENTIAL] `pf(v) = 0.5 * (ht - hs)` with `ht = estimate(v, goal)` then
    /// `hs = estimate(start, v)` (both evaluated, normalised); `None` when either is `+infinity`.
    fn potential(&self, v: u32) -> Option<f64> {
        let ht = normalize_estimate(self.heuristic.estimate(v, self.goal));
        let hs = normalize_estimate(self.heuristic.estimate(self.start, v));
        if ht == f64::INFINITY || hs == f64::INFINITY {
            return None;
        }
        Some(0.5 * (ht - hs))
    }

    /// [GRAPH.BIDI.BEGIN] [GRAPH.ASTAR.BLOCKED] Starts a search from `start` to `goal`
    /// (`node_out_of_range`, start checked first). Blocked start or goal: `NotFound` at once.
    /// `start == goal`: `Found` at once with cost 0, no estimate asked.
    pub fn begin(&mut self, start: u32, goal: u32) -> Result<(), QueryError> {
        check_nodes(start, goal, self.graph.node_count())?;
        self.forward.reset();
        self.backward.reset();
        self.forward_turn = true;
        self.iterations = 0;
        self.recorded.clear();
        self.mu = f64::INFINITY;
        self.meeting = None;
        self.start = start;
        self.goal = goal;
        if self.cost.blocked(start) || self.cost.blocked(goal) {
            self.status = SearchStatus::NotFound;
            return Ok(());
        }
        if start == goal {
            self.status = SearchStatus::Found;
            self.mu = 0.0;
            self.meeting = Some(start);
            self.forward.g[start as usize] = 0.0;
            self.forward.reached[start as usize] = true;
            self.backward.g[start as usize] = 0.0;
            self.backward.reached[start as usize] = true;
            return Ok(());
        }
        self.status = SearchStatus::Running;
        if let Some(pf) = self.potential(start) {
            self.forward.g[start as usize] = 0.0;
            self.forward.reached[start as usize] = true;
            self.forward.open.push(start, 0.0 + pf, 0.0);
        }
        if let Some(pf) = self.potential(goal) {
            self.backward.g[goal as usize] = 0.0;
            self.backward.reached[goal as usize] = true;
            self.backward.open.push(goal, 0.0 - pf, 0.0);
        }
        Ok(())
    }

    /// [GRAPH.BIDI.STOP] [GRAPH.BIDI.TURN] [GRAPH.BIDI.EXPAND] [GRAPH.BIDI.COUNTERS] Runs at most
    /// `max_iterations` pops; the stop check precedes the budget check.
    pub fn step(&mut self, max_iterations: u64) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done: u64 = 0;
        loop {
            let (Some(top_f), Some(top_b)) = (self.forward.open.peek(), self.backward.open.peek())
            else {
                return self.finish();
            };
            if top_f.f + top_b.f >= self.mu {
                return self.finish();
            }
            if done == max_iterations {
                return SearchStatus::Running;
            }
            done += 1;
            let forward = self.forward_turn;
            self.forward_turn = !forward;
            self.pop_and_expand(forward);
        }
    }

    /// [GRAPH.BIDI.STOP] Ends the search: `Found` when `mu` is finite, else `NotFound`.
    fn finish(&mut self) -> SearchStatus {
        self.status = if self.mu.is_finite() {
            SearchStatus::Found
        } else {
            SearchStatus::NotFound
        };
        self.status
    }

    /// [GRAPH.BIDI.EXPAND] [GRAPH.BIDI.MEET] [GRAPH.BIDI.SIDES] Pops one node of one side and relaxes
    /// its out-edges (forward) or in-edges (backward), hooks getting the true edge direction.
    fn pop_and_expand(&mut self, forward: bool) {
        let graph = self.graph;
        let side = if forward {
            &mut self.forward
        } else {
            &mut self.backward
        };
        let Some(entry) = side.open.pop() else {
            return;
        };
        let u = entry.node;
        side.closed[u as usize] = true;
        self.iterations += 1;
        if self.record {
            self.recorded.push(u);
        }
        let gu = if forward {
            self.forward.g[u as usize]
        } else {
            self.backward.g[u as usize]
        };
        let slots: Vec<(u32, f64)> = if forward {
            graph.out_slots(u).collect()
        } else {
            graph.in_slots(u).collect()
        };
        for (x, w) in slots {
            // `x` is the node this relaxation would reach.
            if self.cost.blocked(x) {
                continue;
            }
            let c = if forward {
                self.cost.cost(u, x, w)
            } else {
                self.cost.cost(x, u, w)
            };
            if !cost_is_usable(c) {
                continue;
            }
            let g2 = gu + c;
            if g2 == f64::INFINITY {
                continue;
            }
            let xi = x as usize;
            let (this_reached, this_g) = if forward {
                (self.forward.reached[xi], self.forward.g[xi])
            } else {
                (self.backward.reached[xi], self.backward.g[xi])
            };
            if this_reached && !(g2 < this_g) {
                continue;
            }
            let Some(pf) = self.potential(x) else {
                continue;
            };
            let (this, other) = if forward {
                (&mut self.forward, &self.backward)
            } else {
                (&mut self.backward, &self.forward)
            };
            this.g[xi] = g2;
            this.parent[xi] = Some(u);
            this.reached[xi] = true;
            this.closed[xi] = false;
            let key = if forward { g2 + pf } else { g2 - pf };
            this.open.push(x, key, g2);
            // [GRAPH.BIDI.MEET]
            if other.reached[xi] {
                let candidate = g2 + other.g[xi];
                if candidate < self.mu {
                    self.mu = candidate;
                    self.meeting = Some(x);
                }
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

    /// [GRAPH.BIDI.PATH] The forward chain start..meeting then the backward chain to the goal
    /// (meeting node once) when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        let Some(meeting) = self.meeting else {
            return Vec::new();
        };
        let mut path = parent_chain(&self.forward.parent, meeting);
        let mut back = parent_chain(&self.backward.parent, meeting);
        back.reverse(); // meeting .. goal
        path.extend(back.into_iter().skip(1));
        path
    }

    /// [GRAPH.BIDI.PATH] [GRAPH.ASTAR.NOT_FOUND] `mu` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.mu
        } else {
            f64::INFINITY
        }
    }

    /// [GRAPH.BIDI.COUNTERS] The number of pops of both sides.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [GRAPH.BIDI.COUNTERS] Equal to `iterations` (every pop expands).
    pub fn expanded_count(&self) -> u64 {
        self.iterations
    }

    /// [GRAPH.BIDI.COUNTERS] The popped nodes in pop order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.recorded
    }
}
