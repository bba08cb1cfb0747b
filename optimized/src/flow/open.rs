//! The flow field's open set ([FLOW.RUN.OPEN]): the saved binary heap of [STATE.HEAP.ARRAY] with
//! [STATE.HEAP.UP], [STATE.HEAP.DOWN], [STATE.HEAP.PUSH], [STATE.HEAP.POP] and
//! [STATE.HEAP.UPDATE] exactly (it is saved as it lies), over entries `(node, f, g)`. A cell's
//! slot is kept in its `pos` (the caller's per-cell array), so queueing an enqueued cell updates
//! it in place.

use super::field::NONE;

/// [FLOW.RUN.OPEN] An open-set entry. In a field the algorithm produced `f == g == cost(node)`;
/// a restored entry keeps its saved keys ([FLOW.STATE.STRUCTURAL]).
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

/// [FLOW.RUN.OPEN] The heap array; `pos` of each entry's node lives in the field's cells.
#[derive(Default)]
pub(crate) struct Open {
    pub heap: Vec<Entry>,
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

    /// Empties the heap, marking its nodes as not enqueued.
    pub fn clear(&mut self, pos: &mut [u32]) {
        for e in &self.heap {
            pos[e.node as usize] = NONE;
        }
        self.heap.clear();
    }

    /// [FLOW.RUN.OPEN] Queues `node` with `f = g = key`: [STATE.HEAP.PUSH] when it is not in
    /// the heap, else [STATE.HEAP.UPDATE] (overwrite, then sift up when the new entry precedes
    /// the old one, else down).
    #[inline(always)]
    pub fn queue(&mut self, pos: &mut [u32], node: u32, key: f64) {
        let e = Entry {
            f: key,
            g: key,
            node,
        };
        let p = pos[node as usize];
        if p == NONE {
            let i = self.heap.len();
            self.heap.push(e);
            self.sift_up(pos, i, e);
        } else {
            let i = p as usize;
            let old = self.heap[i];
            if precedes(&e, &old) {
                self.sift_up(pos, i, e);
            } else {
                self.sift_down(pos, i, e);
            }
        }
    }

    /// [STATE.HEAP.POP] Takes slot 0; the last entry moves to slot 0 and sifts down. The sift
    /// is done bottom-up: the hole at the root follows the smaller-child path to a leaf, then the
    /// last entry sifts up from there. [STATE.HEAP.ARRAY]'s order is a strict total order (nodes
    /// are distinct) and the array below the root is a heap, so the entry stops on the same slot
    /// of the same path as with [STATE.HEAP.DOWN] and every other entry moves exactly as there:
    /// the array is identical, with one comparison per level instead of two.
    #[inline(always)]
    pub fn pop(&mut self, pos: &mut [u32]) -> Option<Entry> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        pos[top.node as usize] = NONE;
        let len = self.heap.len();
        if len == 0 {
            return Some(top);
        }
        let mut i = 0usize;
        loop {
            let mut c = 2 * i + 1;
            if c >= len {
                break;
            }
            if c + 1 < len && precedes(&self.heap[c + 1], &self.heap[c]) {
                c += 1;
            }
            let ce = self.heap[c];
            self.heap[i] = ce;
            pos[ce.node as usize] = i as u32;
            i = c;
        }
        self.sift_up(pos, i, last);
        Some(top)
    }

    /// Appends a restored entry without sifting (the caller checks the order afterwards).
    pub fn push_raw(&mut self, pos: &mut [u32], e: Entry) {
        pos[e.node as usize] = self.heap.len() as u32;
        self.heap.push(e);
    }

    /// [STATE.HEAP.UP] Sift `e` up from slot `i` (the hole), writing `pos` as entries move.
    #[inline(always)]
    fn sift_up(&mut self, pos: &mut [u32], mut i: usize, e: Entry) {
        while i > 0 {
            let p = (i - 1) / 2;
            let pe = self.heap[p];
            if !precedes(&e, &pe) {
                break;
            }
            self.heap[i] = pe;
            pos[pe.node as usize] = i as u32;
            i = p;
        }
        self.heap[i] = e;
        pos[e.node as usize] = i as u32;
    }

    /// [STATE.HEAP.DOWN] Sift `e` down from slot `i` (the hole): the smaller child (the right
    /// one only when it precedes the left) moves up while it precedes `e`.
    #[inline(always)]
    fn sift_down(&mut self, pos: &mut [u32], mut i: usize, e: Entry) {
        let len = self.heap.len();
        loop {
            let mut c = 2 * i + 1;
            if c >= len {
                break;
            }
            if c + 1 < len && precedes(&self.heap[c + 1], &self.heap[c]) {
                c += 1;
            }
            let ce = self.heap[c];
            if !precedes(&ce, &e) {
                break;
            }
            self.heap[i] = ce;
            pos[ce.node as usize] = i as u32;
            i = c;
        }
        self.heap[i] = e;
        pos[e.node as usize] = i as u32;
    }
}
