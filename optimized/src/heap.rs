//! Indexed 4-ary open set of [GRAPH.OPEN.ORDER] / [GRAPH.OPEN.PUSH] and the epoch-reset per-node
//! buffers of [GRAPH.ASTAR.BUFFERS].

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

/// An open-set entry `(node, f, g)`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub f: f64,
    pub g: f64,
    pub node: u32,
}

/// [GRAPH.OPEN.ORDER] `a` pops before `b`: smaller `f`, then larger `g`, then smaller id.
/// IEEE comparisons, so `-0.0 == +0.0`; keys are never NaN.
#[inline(always)]
fn less(a: &Entry, b: &Entry) -> bool {
    if a.f != b.f {
        return a.f < b.f;
    }
    if a.g != b.g {
        return a.g > b.g;
    }
    a.node < b.node
}

/// Reusable search buffers: per-node slots reset by an epoch counter, the open set, and the
/// recorded expansion list.
#[derive(Default)]
pub(crate) struct Scratch {
    pub slots: Vec<Slot>,
    heap: Vec<Entry>,
    pub epoch: u32,
    pub record: Vec<u32>,
}

impl Scratch {
    pub fn with_nodes(n: usize) -> Scratch {
        let mut s = Scratch::default();
        s.slots.resize(n, Slot::default());
        s
    }

    /// Makes every node unreached and empties the open set and the recorded list.
    pub fn reset(&mut self, n: usize) {
        if self.slots.len() < n {
            self.slots.resize(n, Slot::default());
        }
        self.heap.clear();
        self.record.clear();
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

    #[inline(always)]
    pub fn top_f(&self) -> f64 {
        self.heap[0].f
    }

    /// Sets `g[v]`, `parent[v]` (reaching `v`) and pushes or replaces its entry with key `f`
    /// ([GRAPH.OPEN.PUSH]).
    #[inline(always)]
    pub fn relax(&mut self, v: u32, g: f64, parent: u32, f: f64) {
        let epoch = self.epoch;
        let slot = &mut self.slots[v as usize];
        let old = if slot.stamp == epoch { slot.pos } else { NOT_IN_HEAP };
        slot.g = g;
        slot.parent = parent;
        slot.stamp = epoch;
        let e = Entry { f, g, node: v };
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

    /// Pops the smallest entry; the node is marked closed (not in the open set).
    #[inline]
    pub fn pop(&mut self) -> Option<Entry> {
        let top = *self.heap.first()?;
        let last = self.heap.pop().expect("non-empty");
        if !self.heap.is_empty() {
            self.sift_down(0, last);
        }
        self.slots[top.node as usize].pos = NOT_IN_HEAP;
        Some(top)
    }

    #[inline(always)]
    fn sift_up(&mut self, mut i: usize, e: Entry) {
        while i > 0 {
            let p = (i - 1) / 4;
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

    #[inline(always)]
    fn sift_down(&mut self, mut i: usize, e: Entry) {
        let len = self.heap.len();
        loop {
            let c = 4 * i + 1;
            if c >= len {
                break;
            }
            let end = if c + 4 < len { c + 4 } else { len };
            let mut m = c;
            let mut me = self.heap[c];
            for j in c + 1..end {
                let je = self.heap[j];
                if less(&je, &me) {
                    m = j;
                    me = je;
                }
            }
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
