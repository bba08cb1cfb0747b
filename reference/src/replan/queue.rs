//! [REPLAN.QUEUE.HEAP] The replanners' queue (`ReplanOpenSet`): a binary heap of
//! `(node, key1, key2)` kept exactly as it lies, because it is saved in array order
//! (spec/replanning.md §3).

/// [REPLAN.KEY.CALC] A key pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Key {
    pub(crate) k1: f64,
    pub(crate) k2: f64,
}

impl Key {
    /// [REPLAN.QUEUE.TOP] The key of an empty queue.
    pub(crate) const INFINITE: Key = Key {
        k1: f64::INFINITY,
        k2: f64::INFINITY,
    };

    /// [REPLAN.KEY.ORDER] `self` is less than `o`: smaller `key1`, or equal `key1` and smaller
    /// `key2`.
    pub(crate) fn less(self, o: Key) -> bool {
        self.k1 < o.k1 || (self.k1 == o.k1 && self.k2 < o.k2)
    }

    /// [REPLAN.KEY.ORDER] Both parts `==`.
    pub(crate) fn equal(self, o: Key) -> bool {
        self.k1 == o.k1 && self.k2 == o.k2
    }
}

/// One slot of the queue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Entry {
    pub(crate) node: u32,
    pub(crate) key: Key,
}

/// [REPLAN.KEY.ORDER] Entry `a` precedes `b`: a less key, or equal keys and a smaller node.
pub(crate) fn precedes(a: Entry, b: Entry) -> bool {
    a.key.less(b.key) || (a.key.equal(b.key) && a.node < b.node)
}

/// [REPLAN.QUEUE.HEAP] The heap array and, per node, its slot.
pub(crate) struct ReplanOpenSet {
    pub(crate) slots: Vec<Entry>,
    pos: Vec<Option<usize>>,
}

impl ReplanOpenSet {
    /// An empty queue over `n` nodes.
    pub(crate) fn new(n: usize) -> Self {
        ReplanOpenSet {
            slots: Vec::new(),
            pos: vec![None; n],
        }
    }

    /// Empties the queue.
    pub(crate) fn clear(&mut self) {
        for e in &self.slots {
            self.pos[e.node as usize] = None;
        }
        self.slots.clear();
    }

    /// Whether `node` is queued.
    pub(crate) fn contains(&self, node: u32) -> bool {
        self.pos[node as usize].is_some()
    }

    /// [REPLAN.QUEUE.TOP] Slot 0, if any.
    pub(crate) fn top(&self) -> Option<Entry> {
        self.slots.first().copied()
    }

    /// [REPLAN.QUEUE.TOP] Slot 0's key, or `(+inf, +inf)`.
    pub(crate) fn top_key(&self) -> Key {
        self.top().map_or(Key::INFINITE, |e| e.key)
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.slots.swap(i, j);
        self.pos[self.slots[i].node as usize] = Some(i);
        self.pos[self.slots[j].node as usize] = Some(j);
    }

    /// [STATE.HEAP.UP] Sift up from slot `i`.
    fn sift_up(&mut self, mut i: usize) {
        while i > 0 {
            let p = (i - 1) / 2;
            if precedes(self.slots[i], self.slots[p]) {
                self.swap(i, p);
                i = p;
            } else {
                break;
            }
        }
    }

    /// [STATE.HEAP.DOWN] Sift down from slot `i`.
    fn sift_down(&mut self, mut i: usize) {
        let count = self.slots.len();
        loop {
            let mut c = 2 * i + 1;
            if c >= count {
                return;
            }
            if c + 1 < count && precedes(self.slots[c + 1], self.slots[c]) {
                c += 1;
            }
            if precedes(self.slots[c], self.slots[i]) {
                self.swap(c, i);
                i = c;
            } else {
                return;
            }
        }
    }

    /// [STATE.HEAP.PUSH] Appends a node that is not queued and sifts it up.
    pub(crate) fn push(&mut self, node: u32, key: Key) {
        let i = self.slots.len();
        self.slots.push(Entry { node, key });
        self.pos[node as usize] = Some(i);
        self.sift_up(i);
    }

    /// [REPLAN.QUEUE.UPDATE] Overwrites a queued node's key; sifts up if the new entry precedes
    /// the old one, otherwise down.
    pub(crate) fn update(&mut self, node: u32, key: Key) {
        let Some(i) = self.pos[node as usize] else {
            return;
        };
        let old = self.slots[i];
        let new = Entry { node, key };
        self.slots[i] = new;
        if precedes(new, old) {
            self.sift_up(i);
        } else {
            self.sift_down(i);
        }
    }

    /// [REPLAN.QUEUE.REMOVE] Removes a queued node: the last entry moves into its slot and sifts
    /// up if it precedes the removed entry, otherwise down.
    pub(crate) fn remove(&mut self, node: u32) {
        let Some(i) = self.pos[node as usize] else {
            return;
        };
        let removed = self.slots[i];
        self.pos[node as usize] = None;
        let last = self.slots.len() - 1;
        if i == last {
            self.slots.pop();
            return;
        }
        let moved = self.slots[last];
        self.slots.pop();
        self.slots[i] = moved;
        self.pos[moved.node as usize] = Some(i);
        if precedes(moved, removed) {
            self.sift_up(i);
        } else {
            self.sift_down(i);
        }
    }

    /// [REPLAN.STATE.RESTORE] Installs a validated slot array as it lies.
    pub(crate) fn install(&mut self, slots: Vec<Entry>) {
        self.clear();
        for (i, e) in slots.iter().enumerate() {
            self.pos[e.node as usize] = Some(i);
        }
        self.slots = slots;
    }
}
