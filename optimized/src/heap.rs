//! Indexed `D`-ary open set of [GRAPH.OPEN.ORDER] / [GRAPH.OPEN.PUSH] and the epoch-reset per-node
//! buffers of [GRAPH.ASTAR.BUFFERS]. `D = 2` is exactly the saved binary-heap discipline of
//! [STATE.HEAP.ARRAY] .. [STATE.HEAP.UPDATE] (used by `GraphAStar`); `D = 4` is the faster
//! layout used where the heap is never saved (tier 1, bidirectional, landmarks): the pop order is
//! the same for both because [GRAPH.OPEN.ORDER] is a strict total order.

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

/// An open-set entry `(node, f, g)` with `f` and `g` stored as order-preserving integer keys.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// `ord(f)`.
    hi: u64,
    /// `!ord(g)` (larger `g` first).
    lo: u64,
    pub node: u32,
    /// Sign-of-zero bits lost by the keys: bit 0 `f` is `-0.0`, bit 1 `g` is `-0.0` (only a
    /// restored entry can carry them; kept so save -> restore -> save is byte-identical).
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
    fn new(f: f64, g: f64, node: u32) -> Entry {
        Entry {
            hi: ord(f),
            lo: !ord(g),
            node,
            neg: 0,
        }
    }

    /// An entry with the exact bit patterns of `f` and `g` (neither NaN).
    pub fn exact(f: f64, g: f64, node: u32) -> Entry {
        let neg = (f.to_bits() == (-0.0f64).to_bits()) as u32
            | (((g.to_bits() == (-0.0f64).to_bits()) as u32) << 1);
        Entry {
            hi: ord(f),
            lo: !ord(g),
            node,
            neg,
        }
    }

    #[inline(always)]
    pub fn f(&self) -> f64 {
        if self.neg & 1 != 0 {
            -0.0
        } else {
            unord(self.hi)
        }
    }

    #[inline(always)]
    pub fn g(&self) -> f64 {
        if self.neg & 2 != 0 {
            -0.0
        } else {
            unord(!self.lo)
        }
    }

    #[inline(always)]
    fn key(&self) -> u128 {
        ((self.hi as u128) << 64) | self.lo as u128
    }
}

/// [GRAPH.OPEN.ORDER] [STATE.HEAP.ARRAY] `a` pops before (precedes) `b`: smaller `f`, then larger `g`, then smaller id.
/// Keys are never NaN; evaluated without short-circuit branches (the heap's hot comparison).
#[inline(always)]
pub(crate) fn less(a: &Entry, b: &Entry) -> bool {
    let (ka, kb) = (a.key(), b.key());
    (ka < kb) | ((ka == kb) & (a.node < b.node))
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

    /// `g[v]`, `+infinity` when unreached.
    #[inline(always)]
    pub fn g(&self, v: u32) -> f64 {
        let s = &self.slots[v as usize];
        if s.stamp == self.epoch {
            s.g
        } else {
            f64::INFINITY
        }
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
        let e = Entry::new(f, g, v);
        if old == NOT_IN_HEAP {
            let i = self.heap.len();
            self.heap.push(e);
            self.sift_up(i, e);
        } else {
            let i = old as usize;
            let prev = self.heap[i];
            if less(&e, &prev) {
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
            if !less(&e, &pe) {
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
            c + (c + 1 < len && less(&self.heap[c + 1], &self.heap[c])) as usize
        } else if D == 4 && c + 4 <= len {
            // Full group of four: a branch-free tournament (the comparisons are
            // unpredictable, so index arithmetic beats branches).
            let h = &self.heap[c..c + 4];
            let a = less(&h[1], &h[0]) as usize;
            let b = 2 + less(&h[3], &h[2]) as usize;
            let w = if less(&h[b], &h[a]) { b } else { a };
            c + w
        } else {
            let mut m = c;
            for j in c + 1..len.min(c + D) {
                if less(&self.heap[j], &self.heap[m]) {
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
            if !less(&me, &e) {
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
