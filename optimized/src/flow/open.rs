//! The flow field's open set ([FLOW.RUN.OPEN]): the saved binary heap of [STATE.HEAP.ARRAY] with
//! [STATE.HEAP.UP], [STATE.HEAP.DOWN], [STATE.HEAP.PUSH], [STATE.HEAP.POP] and
//! [STATE.HEAP.UPDATE] exactly (it is saved as it lies), over entries `(node, f, g)`. A cell's
//! slot is kept in the caller's per-cell `pos` array, so queueing an enqueued cell updates it in
//! place.
//!
//! Every entry the algorithm makes has `f == g` (bit for bit), and then the order is `f`, then
//! node: the heap stores 16-byte `(f, node)` items. Only a restored entry with `f != g`
//! ([FLOW.STATE.STRUCTURAL]) switches the heap to *mixed* mode, where a parallel array holds each
//! slot's `g` and moves with it; the heap leaves mixed mode when it is emptied.

use super::field::NONE;

/// [FLOW.RUN.OPEN] An open-set entry as saved: `(node, f, g)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub f: f64,
    pub g: f64,
    pub node: u32,
}

/// [STATE.HEAP.ARRAY] `a` precedes `b`: smaller `f`, then larger `g`, then smaller node.
#[inline(always)]
pub(crate) fn precedes(a: &Entry, b: &Entry) -> bool {
    if a.f != b.f {
        a.f < b.f
    } else if a.g != b.g {
        a.g > b.g
    } else {
        a.node < b.node
    }
}

/// A stored slot: `f` and the node (`g` is `f`, or in `gs` when mixed).
#[derive(Clone, Copy, Debug)]
struct Item {
    f: f64,
    node: u32,
}

/// [STATE.HEAP.ARRAY] `a` (with `g = ga`) precedes `b` (with `g = gb`); without `M` every
/// `g` equals its `f`, so equal `f` means equal `g`.
#[inline(always)]
fn less<const M: bool>(a: Item, ga: f64, b: Item, gb: f64) -> bool {
    if a.f != b.f {
        a.f < b.f
    } else if M && ga != gb {
        ga > gb
    } else {
        a.node < b.node
    }
}

/// [FLOW.RUN.OPEN] The heap array.
#[derive(Default)]
pub(crate) struct Open {
    heap: Vec<Item>,
    /// Mixed mode only: the `g` of each slot.
    gs: Vec<f64>,
    mixed: bool,
}

impl Open {
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// The entry of slot `i` (`i < len`).
    pub fn entry(&self, i: usize) -> Entry {
        let it = self.heap[i];
        Entry {
            f: it.f,
            g: if self.mixed { self.gs[i] } else { it.f },
            node: it.node,
        }
    }

    /// Empties the heap, marking its nodes as not enqueued.
    pub fn clear(&mut self, pos: &mut [u32]) {
        for e in &self.heap {
            pos[e.node as usize] = NONE;
        }
        self.heap.clear();
        self.gs.clear();
        self.mixed = false;
    }

    /// [FLOW.RUN.OPEN] Queues `node` with `f = g = key`: [STATE.HEAP.PUSH] when it is not in
    /// the heap, else [STATE.HEAP.UPDATE] (overwrite, then sift up when the new entry precedes
    /// the old one, else down).
    #[inline(always)]
    pub fn queue(&mut self, pos: &mut [u32], node: u32, key: f64) {
        if self.mixed {
            self.queue_in::<true>(pos, node, key);
        } else {
            self.queue_in::<false>(pos, node, key);
        }
    }

    #[inline(always)]
    fn queue_in<const M: bool>(&mut self, pos: &mut [u32], node: u32, key: f64) {
        let e = Item { f: key, node };
        let p = pos[node as usize];
        if p == NONE {
            let i = self.heap.len();
            self.heap.push(e);
            if M {
                self.gs.push(key);
            }
            self.sift_up::<M>(pos, i, e, key);
        } else {
            let i = p as usize;
            let old = self.heap[i];
            let og = if M { self.gs[i] } else { old.f };
            if less::<M>(e, key, old, og) {
                self.sift_up::<M>(pos, i, e, key);
            } else {
                self.sift_down::<M>(pos, i, e, key);
            }
        }
    }

    /// [STATE.HEAP.POP] Takes slot 0 and returns its node; the last entry moves to slot 0 and
    /// sifts down.
    #[inline(always)]
    pub fn pop(&mut self, pos: &mut [u32]) -> Option<u32> {
        if self.mixed {
            self.pop_in::<true>(pos)
        } else {
            self.pop_in::<false>(pos)
        }
    }

    /// [STATE.HEAP.POP] The sift down is done bottom-up: the hole at the root follows the
    /// smaller-child path to a leaf, then the last entry sifts up from there. [STATE.HEAP.ARRAY]'s
    /// order is a strict total order (nodes are distinct) and the array below the root is a heap,
    /// so the entry stops on the same slot of the same path as with [STATE.HEAP.DOWN] and every
    /// other entry moves exactly as there: the array is identical, with one comparison per level
    /// instead of two.
    #[inline(always)]
    fn pop_in<const M: bool>(&mut self, pos: &mut [u32]) -> Option<u32> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        let lg = if M {
            self.gs.pop().expect("parallel")
        } else {
            last.f
        };
        pos[top.node as usize] = NONE;
        let len = self.heap.len();
        if len == 0 {
            return Some(top.node);
        }
        let mut i = 0usize;
        loop {
            let mut c = 2 * i + 1;
            if c >= len {
                break;
            }
            if c + 1 < len {
                let (l, r) = (self.heap[c], self.heap[c + 1]);
                let (gl, gr) = if M {
                    (self.gs[c], self.gs[c + 1])
                } else {
                    (l.f, r.f)
                };
                if less::<M>(r, gr, l, gl) {
                    c += 1;
                }
            }
            self.put::<M>(pos, i, c);
            i = c;
        }
        self.sift_up::<M>(pos, i, last, lg);
        Some(top.node)
    }

    /// Moves slot `from` to slot `to` (and its `g` when mixed), updating `pos`.
    #[inline(always)]
    fn put<const M: bool>(&mut self, pos: &mut [u32], to: usize, from: usize) {
        let it = self.heap[from];
        self.heap[to] = it;
        if M {
            self.gs[to] = self.gs[from];
        }
        pos[it.node as usize] = to as u32;
    }

    /// Writes `e` (with `g`) at slot `i`.
    #[inline(always)]
    fn place<const M: bool>(&mut self, pos: &mut [u32], i: usize, e: Item, g: f64) {
        self.heap[i] = e;
        if M {
            self.gs[i] = g;
        }
        pos[e.node as usize] = i as u32;
    }

    /// Appends a restored entry without sifting (the caller checks the order afterwards); an
    /// entry with `f != g` switches the heap to mixed mode.
    pub fn push_raw(&mut self, pos: &mut [u32], e: Entry) {
        if !self.mixed && e.f.to_bits() != e.g.to_bits() {
            self.mixed = true;
            self.gs.clear();
            self.gs.extend(self.heap.iter().map(|it| it.f));
        }
        pos[e.node as usize] = self.heap.len() as u32;
        self.heap.push(Item {
            f: e.f,
            node: e.node,
        });
        if self.mixed {
            self.gs.push(e.g);
        }
    }

    /// [STATE.HEAP.UP] Sift `e` up from slot `i` (the hole), writing `pos` as entries move.
    #[inline(always)]
    fn sift_up<const M: bool>(&mut self, pos: &mut [u32], mut i: usize, e: Item, g: f64) {
        while i > 0 {
            let p = (i - 1) / 2;
            let pe = self.heap[p];
            let pg = if M { self.gs[p] } else { pe.f };
            if !less::<M>(e, g, pe, pg) {
                break;
            }
            self.put::<M>(pos, i, p);
            i = p;
        }
        self.place::<M>(pos, i, e, g);
    }

    /// [STATE.HEAP.DOWN] Sift `e` down from slot `i` (the hole): the smaller child (the right
    /// one only when it precedes the left) moves up while it precedes `e`.
    #[inline(always)]
    fn sift_down<const M: bool>(&mut self, pos: &mut [u32], mut i: usize, e: Item, g: f64) {
        let len = self.heap.len();
        loop {
            let mut c = 2 * i + 1;
            if c >= len {
                break;
            }
            let (l, gl) = (self.heap[c], if M { self.gs[c] } else { self.heap[c].f });
            let (mut ce, mut cg) = (l, gl);
            if c + 1 < len {
                let r = self.heap[c + 1];
                let gr = if M { self.gs[c + 1] } else { r.f };
                if less::<M>(r, gr, l, gl) {
                    c += 1;
                    ce = r;
                    cg = gr;
                }
            }
            if !less::<M>(ce, cg, e, g) {
                break;
            }
            self.put::<M>(pos, i, c);
            i = c;
        }
        self.place::<M>(pos, i, e, g);
    }
}
