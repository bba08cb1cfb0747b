//! The sliced A* / Dijkstra engine shared by the hex search (spec/hex-search.md) and the voxel
//! search (spec/voxel-search.md): [GRAPH.ASTAR.BEGIN] .. [GRAPH.ASTAR.RUN] over a lattice's move
//! graph ([HEX.SEARCH.GRAPH], [VOXEL.SEARCH.GRAPH]).
//!
//! Neither search is ever saved ([HEX.SEARCH.NOT_SAVED], [VOXEL.SEARCH.NOT_SAVED]), so the heap's
//! array layout is not observable: only its pop sequence is, and that is fixed by the strict total
//! order of [STATE.HEAP.ARRAY] (smaller `f`, then larger `g`, then smaller node) over the open
//! nodes' current entries. The engine therefore keeps a lazy-deletion 4-ary heap whose entries
//! carry `(f, g, node)` (so an `f` tie never reads a node slot): a strict improvement pushes a new
//! entry ([STATE.HEAP.PUSH] / [STATE.HEAP.UPDATE] become "push"), and an entry whose `g` is not
//! its node's current `g` is stale and dropped when it reaches the top, before the empty check
//! ([GRAPH.ASTAR.EMPTY_FIRST]), never counted as an iteration. A node's `g` only decreases
//! within a search, so exactly one entry per open node is live, and the live entries pop in
//! the order of the indexed heap of spec/state.md §5 (see SPEC_NOTES_HEXVOX.md). Per-node slots
//! (16 bytes) are reset by an epoch stamp, so `begin` costs O(1) amortised, not O(cells).

use crate::astar::{normalize, SearchStatus};
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
    slots: Vec<Slot>,
    epoch: u32,
    heap: Vec<Entry>,
    recorded: Vec<u32>,
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
    pub fn new(lat: L, zero: bool, record: bool) -> Self {
        let n = lat.nodes();
        Engine {
            lat,
            slots: vec![Slot::default(); n],
            epoch: 0,
            heap: Vec::new(),
            recorded: Vec::new(),
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
        self.heap.clear();
        self.recorded.clear();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for s in &mut self.slots {
                s.stamp = 0;
            }
            self.epoch = 1;
        }
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
            self.slots[start as usize] = Slot {
                g: 0.0,
                parent: NO_PARENT,
                stamp: self.epoch,
            };
            push(&mut self.heap, Entry::new(h, 0.0, start));
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
            // Drop stale entries first, so the empty check sees the open set.
            while let Some(top) = self.heap.first() {
                if self.slots[top.node as usize].g.to_bits() == top.g.to_bits() {
                    break;
                }
                pop(&mut self.heap);
            }
            if self.heap.is_empty() {
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
            let u = pop(&mut self.heap).node;
            done += 1;
            self.iterations += 1;
            if u == self.goal {
                self.status = SearchStatus::Found;
                self.path_cost = self.slots[u as usize].g;
                return self.status;
            }
            self.expand(u);
            self.expanded += 1;
            if self.record {
                self.recorded.push(u);
            }
        }
    }

    /// [GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.FIRST_PARENT] For each allowed move `u -> v` at cost
    /// `c`: `g2 = g[u] + c`, skipped when `+infinity`; when `v` is unreached or `g2 < g[v]`
    /// strictly, `h(v)` (skipped when `+infinity`), then `g[v] = g2`, `parent[v] = u`, reopen and
    /// push `(v, g2 + h, g2)`.
    #[inline(always)]
    fn expand(&mut self, u: u32) {
        let gu = self.slots[u as usize].g;
        let (lat, slots, heap, zero, epoch) =
            (&self.lat, &mut self.slots, &mut self.heap, self.zero, self.epoch);
        lat.expand(u, |v, at, c| {
            let g2 = gu + c;
            if g2 == f64::INFINITY {
                return;
            }
            let s = &mut slots[v as usize];
            if s.stamp == epoch && !(g2 < s.g) {
                return;
            }
            let h = Self::h(lat, zero, at);
            if h == f64::INFINITY {
                return;
            }
            *s = Slot {
                g: g2,
                parent: u,
                stamp: epoch,
            };
            push(heap, Entry::new(g2 + h, g2, v));
        });
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
        let limit = self.slots.len();
        let mut len = 1usize;
        let mut v = self.goal;
        while self.slots[v as usize].parent != NO_PARENT && len <= limit {
            v = self.slots[v as usize].parent;
            len += 1;
        }
        let mut out = vec![0u32; len];
        let mut v = self.goal;
        for slot in out.iter_mut().rev() {
            *slot = v;
            v = self.slots[v as usize].parent;
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
        &self.recorded
    }
}

/// `parent` of the start.
const NO_PARENT: u32 = u32::MAX;

/// [GRAPH.ASTAR.BUFFERS] A node's `g` and parent; valid when `stamp` is the search's epoch
/// (else the node is unreached).
#[derive(Clone, Copy, Default)]
struct Slot {
    g: f64,
    parent: u32,
    stamp: u32,
}

/// An open-set entry `(f, g, node)` with the order keys precomputed: `fk = ord(f)`,
/// `gk = !ord(g)` (larger `g` first).
#[derive(Clone, Copy)]
struct Entry {
    fk: u64,
    gk: u64,
    node: u32,
    /// The entry's `g` (bit pattern kept for the staleness test).
    g: f64,
}

/// Maps a non-NaN f64 to a u64 with the IEEE order (`-0.0` and `+0.0` alike).
#[inline(always)]
fn ord(x: f64) -> u64 {
    let b = (x + 0.0).to_bits();
    if b >> 63 != 0 {
        !b
    } else {
        b | (1 << 63)
    }
}

impl Entry {
    #[inline(always)]
    fn new(f: f64, g: f64, node: u32) -> Entry {
        Entry {
            fk: ord(f),
            gk: !ord(g),
            node,
            g,
        }
    }
}

/// [STATE.HEAP.ARRAY] [GRAPH.OPEN.ORDER] `a` precedes `b`: smaller `f`, then larger `g`, then
/// smaller node.
#[inline(always)]
fn less(a: &Entry, b: &Entry) -> bool {
    (a.fk, a.gk, a.node) < (b.fk, b.gk, b.node)
}

/// Pushes `e` onto the 4-ary heap `h`.
#[inline(always)]
fn push(h: &mut Vec<Entry>, e: Entry) {
    let mut i = h.len();
    h.push(e);
    while i > 0 {
        let p = (i - 1) / 4;
        if !less(&e, &h[p]) {
            break;
        }
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

/// Pops the first entry of the non-empty 4-ary heap `h` (bottom-up: the hole follows the
/// smallest children to a leaf, then the last entry sifts up from there).
#[inline(always)]
fn pop(h: &mut Vec<Entry>) -> Entry {
    let top = h[0];
    let last = h.pop().expect("non-empty heap");
    let len = h.len();
    if len == 0 {
        return top;
    }
    let mut i = 0usize;
    loop {
        let c = 4 * i + 1;
        if c >= len {
            break;
        }
        let m = if c + 4 <= len {
            let x = c + less(&h[c + 1], &h[c]) as usize;
            let y = c + 2 + less(&h[c + 3], &h[c + 2]) as usize;
            if less(&h[y], &h[x]) {
                y
            } else {
                x
            }
        } else {
            let mut m = c;
            for j in c + 1..len {
                if less(&h[j], &h[m]) {
                    m = j;
                }
            }
            m
        };
        h[i] = h[m];
        i = m;
    }
    while i > 0 {
        let p = (i - 1) / 4;
        if !less(&last, &h[p]) {
            break;
        }
        h[i] = h[p];
        i = p;
    }
    h[i] = last;
    top
}
