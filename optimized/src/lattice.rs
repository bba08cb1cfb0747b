//! The sliced A* / Dijkstra engine shared by the hex search (spec/hex-search.md) and the voxel
//! search (spec/voxel-search.md): [GRAPH.ASTAR.BEGIN] .. [GRAPH.ASTAR.RUN] over a lattice's move
//! graph ([HEX.SEARCH.GRAPH], [VOXEL.SEARCH.GRAPH]).
//!
//! Neither search is ever saved ([HEX.SEARCH.NOT_SAVED], [VOXEL.SEARCH.NOT_SAVED]), so the heap's
//! array layout is not observable: only its pop sequence is, and that is fixed by the strict total
//! order of [STATE.HEAP.ARRAY] (smaller `f`, then larger `g`, then smaller node), whatever the
//! heap's arity. The engine therefore uses the 4-ary indexed open set of the crate's unsaved
//! searches (`heap::Scratch`), whose order, push ([STATE.HEAP.PUSH]) and update
//! ([STATE.HEAP.UPDATE]: overwrite in place) rules are those of the binary heap; see
//! SPEC_NOTES_HEXVOX.md. Per-node buffers are reset by an epoch stamp, so `begin` costs O(1)
//! amortised, not O(cells); they are lent by the grid's pool and given back when the search is
//! dropped, so a tier-1 call allocates nothing per cell either.

use crate::astar::{normalize, SearchStatus};
use crate::heap::{Scratch, NO_PARENT};
use std::sync::atomic::{AtomicBool, Ordering};

/// A move graph over nodes `0..n` (the spec's node indexes, so the heap's node tie rule and the
/// hooks see them directly).
pub(crate) trait Lattice {
    /// What `expand` knows about a neighbour that the estimate needs (its coordinates).
    type At: Copy;
    /// The number of nodes.
    fn nodes(&self) -> usize;
    /// [HEX.PASS] [VOXEL.PASS] Whether node `c` is passable.
    fn passable(&self, c: u32) -> bool;
    /// The coordinates of node `c`.
    fn at(&self, c: u32) -> Self::At;
    /// Remembers the goal's coordinates for `estimate`.
    fn set_goal(&mut self, goal: u32);
    /// [HEX.EST.VALUE] [VOXEL.EST.VALUE] The raw A* estimate (before normalisation, weight 1
    /// and `mmin` applied) of the node at `at`.
    fn estimate(&self, at: Self::At) -> f64;
    /// [HEX.MOVE.RULE] [VOXEL.MOVE.RULE] Calls `f(v, at(v), cost)` for every allowed move
    /// `u -> v` in neighbour order, with a usable cost (not NaN, negative or `+infinity`).
    fn expand(&self, u: u32, f: impl FnMut(u32, Self::At, f64));
}

/// [GRAPH.ASTAR.BUFFERS] The search state over a lattice.
pub(crate) struct Engine<L: Lattice> {
    pub lat: L,
    buf: Scratch,
    /// Dijkstra: `h = 0`.
    zero: bool,
    record: bool,
    status: SearchStatus,
    goal: u32,
    iterations: u64,
    expanded: u64,
    path_cost: f64,
}

impl<L: Lattice> Engine<L> {
    /// An engine over `lat` whose per-node buffers are `buf` (any size: `begin` grows it; the
    /// caller's pool lends it, so that a tier-1 call allocates nothing per cell).
    pub fn with_scratch(lat: L, buf: Scratch, zero: bool, record: bool) -> Self {
        Engine {
            lat,
            buf,
            zero,
            record,
            status: SearchStatus::NotStarted,
            goal: 0,
            iterations: 0,
            expanded: 0,
            path_cost: f64::INFINITY,
        }
    }

    /// [GRAPH.ASTAR.ESTIMATE] The normalised estimate (`0` for Dijkstra).
    #[inline(always)]
    fn h(lat: &L, zero: bool, at: L::At) -> f64 {
        if zero {
            0.0
        } else {
            normalize(lat.estimate(at))
        }
    }

    /// [GRAPH.ASTAR.BEGIN] [GRAPH.ASTAR.BLOCKED] [GRAPH.ASTAR.START_INF] [HEX.SEARCH.BEGIN]
    /// [VOXEL.SEARCH.BEGIN] Resets (epoch), then pushes `(start, h, 0)` unless the start or goal
    /// is not passable (`NotFound` at once) or `h` is `+infinity` (nothing pushed). The caller
    /// has range-checked both nodes.
    pub fn begin(&mut self, start: u32, goal: u32) {
        self.buf.reset(self.lat.nodes());
        self.iterations = 0;
        self.expanded = 0;
        self.path_cost = f64::INFINITY;
        self.goal = goal;
        self.lat.set_goal(goal);
        self.status = SearchStatus::Running;
        if !self.lat.passable(start) || !self.lat.passable(goal) {
            self.status = SearchStatus::NotFound;
            return;
        }
        let h = Self::h(&self.lat, self.zero, self.lat.at(start));
        if h != f64::INFINITY {
            self.buf.relax(start, 0.0, NO_PARENT, h);
        }
    }

    /// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.RUN] [GRAPH.ASTAR.GOAL_CLOSED]
    /// [GRAPH.ASTAR.COUNTERS] [GRAPH.ASTAR.SLICED] At most `max` iterations; with `cancel`, the
    /// flag is read after the empty check whenever the iterations done in this call are a
    /// multiple of 256.
    pub fn advance(&mut self, max: u64, cancel: Option<&AtomicBool>) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done = 0u64;
        loop {
            if self.buf.is_empty() {
                self.status = SearchStatus::NotFound;
                return self.status;
            }
            if let Some(flag) = cancel {
                if done.is_multiple_of(256) && flag.load(Ordering::Relaxed) {
                    return SearchStatus::Running;
                }
            }
            if done == max {
                return SearchStatus::Running;
            }
            let Some(top) = self.buf.pop() else {
                continue;
            };
            let u = top.node;
            done += 1;
            self.iterations += 1;
            if u == self.goal {
                self.status = SearchStatus::Found;
                self.path_cost = self.buf.slots[u as usize].g;
                return self.status;
            }
            self.expand(u);
            self.expanded += 1;
            if self.record {
                self.buf.record.push(u);
            }
        }
    }

    /// [GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.FIRST_PARENT] For each allowed move `u -> v` at cost
    /// `c`: `g2 = g[u] + c`, skipped when `+infinity`; when `v` is unreached or `g2 < g[v]`
    /// strictly, `h(v)` (skipped when `+infinity`), then `g[v] = g2`, `parent[v] = u`, reopen and
    /// push `(v, g2 + h, g2)`.
    #[inline(always)]
    fn expand(&mut self, u: u32) {
        let gu = self.buf.slots[u as usize].g;
        let (lat, buf, zero) = (&self.lat, &mut self.buf, self.zero);
        lat.expand(u, |v, at, c| {
            let g2 = gu + c;
            if g2 == f64::INFINITY {
                return;
            }
            let s = &buf.slots[v as usize];
            if s.stamp == buf.epoch && g2 >= s.g {
                return;
            }
            let h = Self::h(lat, zero, at);
            if h == f64::INFINITY {
                return;
            }
            buf.relax(v, g2, u, g2 + h);
        });
    }

    /// Takes the per-node buffers back (the engine keeps empty ones).
    pub fn take_scratch(&mut self) -> Scratch {
        std::mem::take(&mut self.buf)
    }

    /// [GRAPH.ASTAR.STATUS]
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// [GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] The parent chain, start first, when Found.
    pub fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        // Two walks of the parent chain (a tree path of at most N nodes, strict improvements
        // only), so the result is the one allocation.
        let limit = self.buf.slots.len();
        let mut len = 1usize;
        let mut v = self.goal;
        while self.buf.parent(v) != NO_PARENT && len <= limit {
            v = self.buf.parent(v);
            len += 1;
        }
        let mut out = vec![0u32; len];
        let mut v = self.goal;
        for slot in out.iter_mut().rev() {
            *slot = v;
            v = self.buf.parent(v);
        }
        out
    }

    /// [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when Found, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.path_cost
        } else {
            f64::INFINITY
        }
    }

    /// [GRAPH.ASTAR.COUNTERS]
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS]
    pub fn expanded(&self) -> u64 {
        self.expanded
    }

    /// [HEX.SEARCH.RECORD] [VOXEL.SEARCH.RECORD] The recorded expansions.
    pub fn expansions(&self) -> &[u32] {
        &self.buf.record
    }
}
