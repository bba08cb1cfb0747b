//! Indexed `D`-ary open set of [GRAPH.OPEN.ORDER] / [GRAPH.OPEN.PUSH] and the epoch-reset per-node
//! buffers of [GRAPH.ASTAR.BUFFERS]. `D = 2` is exactly the saved binary-heap discipline of
//! [STATE.HEAP.ARRAY] .. [STATE.HEAP.UPDATE] (used by `GraphAStar` and the grid engines); `D = 4`
//! is the faster layout used where the heap is never saved (tier 1, bidirectional): the pop order
//! is the same for both because [GRAPH.OPEN.ORDER] is a strict total order. Also the lazy-deletion
//! heap of the landmark trees ([`LazyHeap`]).
//!
//! Entries are 16 bytes (`ord(f)`, node, the sign of a zero `f`): an entry's `g` is always
//! bit-equal to its node's slot `g` (a push writes both; a restore checks it, [STATE.SEARCH.CHECKS];
//! a slot's `g` may change only while its node is not in the heap), so an `f` tie reads the
//! slots ([`Buffers::less`]). Ties are common with integer costs (unit-weight graphs, the HPA\*
//! chunk searches), so the tie-break is inlined, not a cold call (issue 33: on a unit-weight
//! 2048² lattice, graph Dijkstra's short queries took 13-32 % fewer CPU samples with it hot).

use crate::visit_set::VisitSet;

/// `pos` value of a reached node that is not in the open set (closed).
pub(crate) const NOT_IN_HEAP: u32 = u32::MAX;
/// `parent` value of a node without parent.
pub(crate) const NO_PARENT: u32 = u32::MAX;

/// Per-node state; valid only when `stamp` equals the scratch's epoch (else "unreached").
#[derive(Clone, Copy, Default)]
#[repr(C)]
pub(crate) struct Slot {
    pub g: f64,
    pub parent: u32,
    pub stamp: u32,
    pub pos: u32,
}

/// An open-set entry: `ord(f)`, the node, and the sign of a zero `f` (only a restored entry
/// can carry `-0.0`). The entry's `g` is always bit-equal to its node's slot `g`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    key: u64,
    pub node: u32,
    neg: u32,
}

/// Maps a non-NaN f64 to a u64 with the same order as the IEEE comparison (`-0.0` and `+0.0`
/// map to the same key, as they compare equal).
#[inline(always)]
fn ord(x: f64) -> u64 {
    let b = (x + 0.0).to_bits();
    if b >> 63 != 0 {
        !b
    } else {
        b | (1 << 63)
    }
}

/// Inverse of `ord` (returns `+0.0` for a zero).
#[inline(always)]
fn unord(k: u64) -> f64 {
    f64::from_bits(if k >> 63 != 0 { k & !(1 << 63) } else { !k })
}

impl Entry {
    #[inline(always)]
    fn new(f: f64, node: u32) -> Entry {
        Entry {
            key: ord(f),
            node,
            neg: 0,
        }
    }

    /// An entry with the exact bit pattern of `f` (not NaN).
    pub fn exact(f: f64, node: u32) -> Entry {
        let neg = (f.to_bits() == (-0.0f64).to_bits()) as u32;
        Entry {
            key: ord(f),
            node,
            neg,
        }
    }

    #[inline(always)]
    pub fn f(&self) -> f64 {
        if self.neg & 1 != 0 {
            -0.0
        } else {
            unord(self.key)
        }
    }
}

/// Reusable search buffers: per-node slots reset by an epoch counter, the `D`-ary open set, and
/// the recorded expansion list. `D = 2` buffers (the saved ones) also keep the set of reached
/// nodes, so that a save and a reset walk only what was reached.
#[derive(Default)]
pub(crate) struct Buffers<const D: usize> {
    pub slots: Vec<Slot>,
    heap: Vec<Entry>,
    pub epoch: u32,
    pub record: Vec<u32>,
    /// `D = 2` only: exactly the nodes whose `stamp` is the epoch.
    pub visits: VisitSet,
}

/// The 4-ary buffers of searches whose heap is never saved.
pub(crate) type Scratch = Buffers<4>;

impl<const D: usize> Buffers<D> {
    pub fn with_nodes(n: usize) -> Self {
        let mut s = Self::default();
        s.slots.resize(n, Slot::default());
        if D == 2 {
            s.visits = VisitSet::with_len(n);
        }
        s
    }

    /// Makes every node unreached and empties the open set and the recorded list.
    pub fn reset(&mut self, n: usize) {
        if self.slots.len() < n {
            self.slots.resize(n, Slot::default());
        }
        self.heap.clear();
        self.record.clear();
        if D == 2 {
            self.visits.grow(n);
            self.visits.clear();
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for s in &mut self.slots {
                s.stamp = 0;
            }
            self.epoch = 1;
        }
    }

    #[inline(always)]
    pub fn reached(&self, v: u32) -> bool {
        self.slots[v as usize].stamp == self.epoch
    }

    #[inline(always)]
    pub fn parent(&self, v: u32) -> u32 {
        self.slots[v as usize].parent
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The node that would pop next, if any.
    #[inline(always)]
    pub fn peek_node(&self) -> Option<u32> {
        self.heap.first().map(|e| e.node)
    }

    /// The nodes of heap slots 1 and 2 (the likely pops after the next), when present.
    #[inline(always)]
    pub fn peek_after(&self) -> [Option<u32>; 2] {
        [
            self.heap.get(1).map(|e| e.node),
            self.heap.get(2).map(|e| e.node),
        ]
    }

    /// Hints the CPU to load the slot of `v`.
    #[inline(always)]
    pub fn prefetch_slot(&self, v: u32) {
        if let Some(s) = self.slots.get(v as usize) {
            crate::csr::prefetch(s);
        }
    }

    /// The heap array as it lies.
    pub fn heap(&self) -> &[Entry] {
        &self.heap
    }

    /// Appends `e` at the end of the heap array without sifting (restore only; the caller
    /// validates the order and sets `pos`).
    pub fn push_raw(&mut self, e: Entry) {
        self.heap.push(e);
    }

    /// Allocation for `n` more heap entries (bounded by the caller).
    pub fn reserve_heap(&mut self, n: usize) {
        self.heap.reserve(n);
    }

    /// [GRAPH.OPEN.ORDER] [STATE.HEAP.ARRAY] `a` precedes `b`: smaller `f`, then larger `g`
    /// (the slots' `g`, equal to the entries'), then smaller id.
    #[inline(always)]
    pub fn less(&self, a: &Entry, b: &Entry) -> bool {
        if a.key != b.key {
            a.key < b.key
        } else {
            self.tie(a.node, b.node)
        }
    }

    #[inline(always)]
    fn tie(&self, a: u32, b: u32) -> bool {
        let (ga, gb) = (self.slots[a as usize].g, self.slots[b as usize].g);
        if ga != gb {
            ga > gb
        } else {
            a < b
        }
    }

    /// The `g` of a heap entry (its slot's).
    #[inline(always)]
    pub fn entry_g(&self, e: &Entry) -> f64 {
        self.slots[e.node as usize].g
    }

    #[inline(always)]
    pub fn top_f(&self) -> f64 {
        self.heap[0].f()
    }

    /// Sets `g[v]`, `parent[v]` (reaching `v`) and pushes or replaces its entry with key `f`
    /// ([GRAPH.OPEN.PUSH]; for `D = 2` exactly [STATE.HEAP.PUSH] / [STATE.HEAP.UPDATE]).
    #[inline(always)]
    pub fn relax(&mut self, v: u32, g: f64, parent: u32, f: f64) {
        let epoch = self.epoch;
        let slot = &mut self.slots[v as usize];
        let old = if slot.stamp == epoch {
            slot.pos
        } else {
            if D == 2 {
                self.visits.insert(v as usize);
            }
            NOT_IN_HEAP
        };
        slot.g = g;
        slot.parent = parent;
        slot.stamp = epoch;
        let e = Entry::new(f, v);
        if old == NOT_IN_HEAP {
            let i = self.heap.len();
            self.heap.push(e);
            self.sift_up(i, e);
        } else {
            let i = old as usize;
            let prev = self.heap[i];
            if self.less(&e, &prev) {
                self.sift_up(i, e);
            } else {
                self.sift_down(i, e);
            }
        }
    }

    /// Pops the smallest entry; the node is marked closed (not in the open set). For `D = 2`
    /// exactly [STATE.HEAP.POP].
    #[inline]
    pub fn pop(&mut self) -> Option<Entry> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        if !self.heap.is_empty() {
            self.sift_down_from_root(last);
        }
        self.slots[top.node as usize].pos = NOT_IN_HEAP;
        Some(top)
    }

    /// [STATE.HEAP.UP] (for `D = 2`) Sift up from slot `i`.
    #[inline(always)]
    fn sift_up(&mut self, mut i: usize, e: Entry) {
        while i > 0 {
            let p = (i - 1) / D;
            let pe = self.heap[p];
            if !self.less(&e, &pe) {
                break;
            }
            self.heap[i] = pe;
            self.slots[pe.node as usize].pos = i as u32;
            i = p;
        }
        self.heap[i] = e;
        self.slots[e.node as usize].pos = i as u32;
    }

    /// [STATE.HEAP.POP] The sift down from slot 0 of `last`, done bottom-up: the hole at the
    /// root follows the smallest-child path to a leaf, then `last` sifts up from there. Because
    /// [GRAPH.OPEN.ORDER] is a strict total order and the array below the root is a heap, `last`
    /// ends on the same slot of the same path as with [STATE.HEAP.DOWN] and every other entry
    /// moves exactly as there, so the array is identical; it needs one comparison per level
    /// instead of two (the popped-in last entry usually belongs near the bottom).
    #[inline(always)]
    fn sift_down_from_root(&mut self, e: Entry) {
        let len = self.heap.len();
        let mut i = 0usize;
        if D == 2 {
            // Two levels per step while the hole's four grandchildren exist: their keys load in
            // parallel with the children's, so the chain of dependent loads is half as long.
            loop {
                let c = 2 * i + 1;
                let gc = 4 * i + 3;
                if gc + 3 >= len {
                    break;
                }
                let h = &self.heap;
                let right = self.less(&h[c + 1], &h[c]) as usize;
                let l = self.less(&h[gc + 1], &h[gc]) as usize;
                let r = self.less(&h[gc + 3], &h[gc + 2]) as usize;
                let m = c + right;
                let mm = gc + 2 * right + (l ^ ((l ^ r) & right.wrapping_neg()));
                let (me, mme) = (h[m], h[mm]);
                self.heap[i] = me;
                self.slots[me.node as usize].pos = i as u32;
                self.heap[m] = mme;
                self.slots[mme.node as usize].pos = m as u32;
                i = mm;
            }
        }
        loop {
            let c = D * i + 1;
            if c >= len {
                break;
            }
            let m = self.min_child(c, len);
            let me = self.heap[m];
            self.heap[i] = me;
            self.slots[me.node as usize].pos = i as u32;
            i = m;
        }
        self.sift_up(i, e);
    }

    /// The index of the smallest entry among the children starting at `c` (`c < len`).
    #[inline(always)]
    fn min_child(&self, c: usize, len: usize) -> usize {
        if D == 2 {
            c + (c + 1 < len && self.less(&self.heap[c + 1], &self.heap[c])) as usize
        } else if D == 4 && c + 4 <= len {
            // Full group of four: a branch-free tournament (the comparisons are
            // unpredictable, so index arithmetic beats branches).
            let h = &self.heap[c..c + 4];
            let a = self.less(&h[1], &h[0]) as usize;
            let b = 2 + self.less(&h[3], &h[2]) as usize;
            let w = if self.less(&h[b], &h[a]) { b } else { a };
            c + w
        } else {
            let mut m = c;
            for j in c + 1..len.min(c + D) {
                if self.less(&self.heap[j], &self.heap[m]) {
                    m = j;
                }
            }
            m
        }
    }

    /// [STATE.HEAP.DOWN] (for `D = 2`) Sift down from slot `i`.
    #[inline(always)]
    fn sift_down(&mut self, mut i: usize, e: Entry) {
        let len = self.heap.len();
        loop {
            let c = D * i + 1;
            if c >= len {
                break;
            }
            let m = self.min_child(c, len);
            let me = self.heap[m];
            if !self.less(&me, &e) {
                break;
            }
            self.heap[i] = me;
            self.slots[me.node as usize].pos = i as u32;
            i = m;
        }
        self.heap[i] = e;
        self.slots[e.node as usize].pos = i as u32;
    }
}

/// A lazy-deletion 4-ary min-heap of `(ord(d), node)` for searches whose key is `(d, d)` and
/// whose heap is never saved (the landmark trees, [GRAPH.ALT.TREE]). [GRAPH.OPEN.ORDER] on
/// `(f, g, node)` with `f == g` is the order of `(d, node)`; a node is pushed again on every
/// strict improvement and a popped entry whose key is not its node's current distance is stale
/// (skipped by the caller). Because the order is strict and total, the live entries pop in
/// exactly the order of the indexed open set of [GRAPH.OPEN.PUSH].
#[derive(Default)]
pub(crate) struct LazyHeap {
    a: Vec<LazyEntry>,
}

/// One lazy-heap entry (16 bytes).
#[derive(Clone, Copy)]
pub(crate) struct LazyEntry {
    /// `ord(d)`.
    pub key: u64,
    pub node: u32,
}

/// The order-preserving key of a non-NaN distance (`-0.0` and `+0.0` alike).
#[inline(always)]
pub(crate) fn dist_key(d: f64) -> u64 {
    ord(d)
}

#[inline(always)]
fn lazy_less(a: &LazyEntry, b: &LazyEntry) -> bool {
    (a.key < b.key) | ((a.key == b.key) & (a.node < b.node))
}

impl LazyHeap {
    pub fn clear(&mut self) {
        self.a.clear();
    }

    /// The node of the smallest entry, if any.
    #[inline(always)]
    pub fn peek(&self) -> Option<u32> {
        self.a.first().map(|e| e.node)
    }

    /// Pushes `(ord(d), node)`.
    #[inline(always)]
    pub fn push(&mut self, d: f64, node: u32) {
        let e = LazyEntry { key: ord(d), node };
        let mut i = self.a.len();
        self.a.push(e);
        while i > 0 {
            let p = (i - 1) / 4;
            let pe = self.a[p];
            if !lazy_less(&e, &pe) {
                break;
            }
            self.a[i] = pe;
            i = p;
        }
        self.a[i] = e;
    }

    /// Pops the smallest entry (bottom-up: the hole follows the smallest children to a leaf,
    /// then the last entry sifts up from there).
    #[inline]
    pub fn pop(&mut self) -> Option<LazyEntry> {
        let top = *self.a.first()?;
        let last = self.a.pop().expect("non-empty");
        let len = self.a.len();
        if len == 0 {
            return Some(top);
        }
        let mut i = 0usize;
        loop {
            let c = 4 * i + 1;
            if c >= len {
                break;
            }
            let m = if c + 4 <= len {
                let h = &self.a[c..c + 4];
                let x = lazy_less(&h[1], &h[0]) as usize;
                let y = 2 + lazy_less(&h[3], &h[2]) as usize;
                c + if lazy_less(&h[y], &h[x]) { y } else { x }
            } else {
                let mut m = c;
                for j in c + 1..len {
                    if lazy_less(&self.a[j], &self.a[m]) {
                        m = j;
                    }
                }
                m
            };
            self.a[i] = self.a[m];
            i = m;
        }
        while i > 0 {
            let p = (i - 1) / 4;
            let pe = self.a[p];
            if !lazy_less(&last, &pe) {
                break;
            }
            self.a[i] = pe;
            i = p;
        }
        self.a[i] = last;
        Some(top)
    }
}
