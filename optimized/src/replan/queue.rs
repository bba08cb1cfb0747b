//! The replanners' priority queue (`ReplanOpenSet`): a 0-based binary heap of `(node, key1, key2)`
//! entries with a slot index per node, ordered by [REPLAN.KEY.ORDER], with the push, pop, update
//! and remove rules of [REPLAN.QUEUE.HEAP] .. [REPLAN.QUEUE.TOP].

/// Marker of "not in the queue" in the slot index.
pub(crate) const NOT_QUEUED: u32 = u32::MAX;

/// [REPLAN.KEY.CALC] A key `(key1, key2)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Key(pub f64, pub f64);

impl Key {
    /// [REPLAN.QUEUE.TOP] The key of an empty queue.
    pub const INFINITE: Key = Key(f64::INFINITY, f64::INFINITY);

    /// [REPLAN.KEY.ORDER] `self` is less than `o`: smaller `key1`, or equal `key1` and smaller
    /// `key2` (IEEE comparisons).
    #[inline(always)]
    pub fn less(self, o: Key) -> bool {
        self.0 < o.0 || (self.0 == o.0 && self.1 < o.1)
    }
}

/// [REPLAN.QUEUE.HEAP] One heap slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Entry {
    pub node: u32,
    pub key: Key,
}

/// [REPLAN.KEY.ORDER] Entry `a` precedes `b`: its key is less, or the keys are equal (both parts
/// `==`) and its node is smaller.
#[inline(always)]
pub(crate) fn precedes(a: &Entry, b: &Entry) -> bool {
    a.key.less(b.key) || (a.key.0 == b.key.0 && a.key.1 == b.key.1 && a.node < b.node)
}

/// [REPLAN.QUEUE.HEAP] The heap and, per node, its slot (`NOT_QUEUED` when absent), so that a node
/// is in it at most once and its key can be updated or removed in place.
pub(crate) struct Queue {
    pub heap: Vec<Entry>,
    pos: Vec<u32>,
}

impl Queue {
    /// An empty queue over `n` nodes.
    pub fn new(n: usize) -> Queue {
        Queue {
            heap: Vec::new(),
            pos: vec![NOT_QUEUED; n],
        }
    }

    /// The number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// [REPLAN.INIT.RUN] Empties the queue in O(entries) (only the listed nodes' slots are reset).
    pub fn clear(&mut self) {
        for e in &self.heap {
            self.pos[e.node as usize] = NOT_QUEUED;
        }
        self.heap.clear();
    }

    /// The slot of `node`, if queued.
    #[inline(always)]
    pub fn slot(&self, node: u32) -> Option<usize> {
        match self.pos[node as usize] {
            NOT_QUEUED => None,
            s => Some(s as usize),
        }
    }

    /// [REPLAN.QUEUE.TOP] Slot 0's key, or `(+infinity, +infinity)` when empty.
    #[inline]
    pub fn top_key(&self) -> Key {
        self.heap.first().map_or(Key::INFINITE, |e| e.key)
    }

    #[inline(always)]
    fn place(&mut self, i: usize, e: Entry) {
        self.pos[e.node as usize] = i as u32;
        self.heap[i] = e;
    }

    /// [STATE.HEAP.UP] Sift up from slot `i` with the order of [REPLAN.KEY.ORDER].
    fn sift_up(&mut self, mut i: usize) {
        let e = self.heap[i];
        while i > 0 {
            let p = (i - 1) / 2;
            if !precedes(&e, &self.heap[p]) {
                break;
            }
            let pe = self.heap[p];
            self.place(i, pe);
            i = p;
        }
        self.place(i, e);
    }

    /// [STATE.HEAP.DOWN] Sift down from slot `i`: the child that precedes (the right one only when
    /// it precedes the left), swapped while it precedes the entry.
    fn sift_down(&mut self, mut i: usize) {
        let e = self.heap[i];
        let n = self.heap.len();
        loop {
            let mut c = 2 * i + 1;
            if c >= n {
                break;
            }
            if c + 1 < n && precedes(&self.heap[c + 1], &self.heap[c]) {
                c += 1;
            }
            if !precedes(&self.heap[c], &e) {
                break;
            }
            let ce = self.heap[c];
            self.place(i, ce);
            i = c;
        }
        self.place(i, e);
    }

    /// [STATE.HEAP.PUSH] Appends a node that is not queued and sifts up.
    pub fn push(&mut self, node: u32, key: Key) {
        debug_assert!(self.slot(node).is_none());
        let i = self.heap.len();
        self.heap.push(Entry { node, key });
        self.pos[node as usize] = i as u32;
        self.sift_up(i);
    }

    /// [REPLAN.QUEUE.UPDATE] Overwrites the keys in slot `i`; sifts up when the new entry precedes
    /// the old one, otherwise down.
    pub fn update(&mut self, i: usize, key: Key) {
        let old = self.heap[i];
        let new = Entry {
            node: old.node,
            key,
        };
        self.heap[i] = new;
        if precedes(&new, &old) {
            self.sift_up(i);
        } else {
            self.sift_down(i);
        }
    }

    /// [REPLAN.QUEUE.REMOVE] Removes slot `i`: the last slot drops; otherwise the last entry moves
    /// to `i` and sifts up when it precedes the removed entry, otherwise down.
    pub fn remove(&mut self, i: usize) {
        let removed = self.heap[i];
        self.pos[removed.node as usize] = NOT_QUEUED;
        let last = self.heap.len() - 1;
        if i == last {
            self.heap.pop();
            return;
        }
        let moved = self.heap[last];
        self.heap.pop();
        self.place(i, moved);
        if precedes(&moved, &removed) {
            self.sift_up(i);
        } else {
            self.sift_down(i);
        }
    }

    /// [REPLAN.STATE.RESTORE] Installs a validated heap as it lies (slot order kept); the queue
    /// must be empty.
    pub fn install(&mut self, entries: impl Iterator<Item = Entry>) {
        debug_assert!(self.heap.is_empty());
        for e in entries {
            self.pos[e.node as usize] = self.heap.len() as u32;
            self.heap.push(e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_keeps_order_and_slots() {
        let mut q = Queue::new(64);
        let mut x = 7u64;
        let mut next = |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            (x >> 33) % m
        };
        for round in 0..2000 {
            let node = next(64) as u32;
            let key = Key(next(5) as f64, next(3) as f64);
            match (q.slot(node), round % 3) {
                (Some(s), 0) => q.remove(s),
                (Some(s), _) => q.update(s, key),
                (None, _) => q.push(node, key),
            }
            for (i, e) in q.heap.iter().enumerate() {
                assert_eq!(q.slot(e.node), Some(i));
                if i > 0 {
                    assert!(!precedes(e, &q.heap[(i - 1) / 2]));
                }
            }
        }
    }
}
