//! [GRAPH.OPEN] [STATE.HEAP.ARRAY] The open set: a 0-based array binary heap with a per-node slot index.

/// No slot: the node is not in the heap.
const NONE: u32 = u32::MAX;

/// [GRAPH.OPEN.ORDER] One entry `(node, f, g)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Entry {
    pub(crate) f: f64,
    pub(crate) g: f64,
    pub(crate) node: u32,
}

/// [STATE.HEAP.ARRAY] [GRAPH.OPEN.ORDER] [SPEC.NUM.COMPARE] `a` precedes `b` when `a.f < b.f`, or
/// `a.f == b.f` and `a.g > b.g`, or both equal and `a.node < b.node` (IEEE comparisons).
pub(crate) fn precedes(a: &Entry, b: &Entry) -> bool {
    a.f < b.f || (a.f == b.f && (a.g > b.g || (a.g == b.g && a.node < b.node)))
}

/// [GRAPH.OPEN.ORDER] [STATE.HEAP.ARRAY] An open set holding at most one entry per node, kept as
/// the textbook binary heap so that its array can be saved as it lies.
#[derive(Clone, Debug)]
pub(crate) struct OpenSet {
    heap: Vec<Entry>,
    /// The slot of each node in `heap`, or `NONE`.
    slot: Vec<u32>,
}

impl OpenSet {
    /// An empty open set for node ids `0..node_count`.
    pub(crate) fn new(node_count: usize) -> Self {
        OpenSet {
            heap: Vec::new(),
            slot: vec![NONE; node_count],
        }
    }

    /// Removes every entry (linear in the number of entries held).
    pub(crate) fn clear(&mut self) {
        for e in &self.heap {
            self.slot[e.node as usize] = NONE;
        }
        self.heap.clear();
    }

    /// True when no entry is held.
    pub(crate) fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// [STATE.HEAP.ARRAY] The heap array as it lies (slot order).
    pub(crate) fn entries(&self) -> &[Entry] {
        &self.heap
    }

    /// [STATE.HEAP.VALID] Replaces the content by `entries`, taken as the heap array as it lies.
    /// The caller has validated it: distinct nodes `< node_count`, no slot preceding its parent.
    pub(crate) fn install(&mut self, entries: Vec<Entry>) {
        self.clear();
        for (i, e) in entries.iter().enumerate() {
            self.slot[e.node as usize] = i as u32;
        }
        self.heap = entries;
    }

    /// Swaps slots `i` and `j`, keeping the slot index right.
    fn swap(&mut self, i: usize, j: usize) {
        self.heap.swap(i, j);
        self.slot[self.heap[i].node as usize] = i as u32;
        self.slot[self.heap[j].node as usize] = j as u32;
    }

    /// [STATE.HEAP.UP] Sift up from slot `i`.
    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let p = (i - 1) / 2;
            if precedes(&self.heap[i], &self.heap[p]) {
                self.swap(i, p);
                i = p;
            } else {
                break;
            }
        }
    }

    /// [STATE.HEAP.DOWN] Sift down from slot `i`.
    fn sift_down(&mut self, mut i: usize) {
        let count = self.heap.len();
        loop {
            let mut c = 2 * i + 1;
            if c >= count {
                return;
            }
            if c + 1 < count && precedes(&self.heap[c + 1], &self.heap[c]) {
                c += 1;
            }
            if precedes(&self.heap[c], &self.heap[i]) {
                self.swap(c, i);
                i = c;
            } else {
                return;
            }
        }
    }

    /// [GRAPH.OPEN.PUSH] [STATE.HEAP.PUSH] [STATE.HEAP.UPDATE] Inserts `(node, f, g)`, or updates the
    /// node's entry in its slot and sifts up (new entry precedes the old) or down (otherwise).
    pub(crate) fn push(&mut self, node: u32, f: f64, g: f64) {
        let entry = Entry { f, g, node };
        let s = self.slot[node as usize];
        if s == NONE {
            let i = self.heap.len();
            self.heap.push(entry);
            self.slot[node as usize] = i as u32;
            self.sift_up(i);
        } else {
            let i = s as usize;
            let old = self.heap[i];
            self.heap[i] = entry;
            if precedes(&entry, &old) {
                self.sift_up(i);
            } else {
                self.sift_down(i);
            }
        }
    }

    /// [GRAPH.OPEN.ORDER] The entry that would pop next.
    pub(crate) fn peek(&self) -> Option<Entry> {
        self.heap.first().copied()
    }

    /// [STATE.HEAP.POP] Removes and returns slot 0; the last entry moves to slot 0 and sifts down.
    pub(crate) fn pop(&mut self) -> Option<Entry> {
        if self.heap.is_empty() {
            return None;
        }
        let last = self.heap.len() - 1;
        self.swap(0, last);
        let top = self.heap.pop()?;
        self.slot[top.node as usize] = NONE;
        if !self.heap.is_empty() {
            self.sift_down(0);
        }
        Some(top)
    }
}
