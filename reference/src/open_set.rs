//! [GRAPH.OPEN] The open set of spec/graphs.md section 5: a BTreeSet under the total order of
//! [GRAPH.OPEN.ORDER] plus a per-node entry map.

use std::cmp::Ordering;
use std::collections::BTreeSet;

/// [SPEC.NUM.COMPARE] Maps `-0.0` to `+0.0` so that `total_cmp` agrees with IEEE equality on the
/// (never NaN) keys.
fn key(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else {
        x
    }
}

/// [GRAPH.OPEN.ORDER] One entry `(node, f, g)`; its order is smaller `f`, then larger `g`, then
/// smaller node id.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub(crate) f: f64,
    pub(crate) g: f64,
    pub(crate) node: u32,
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        self.f
            .total_cmp(&other.f)
            .then_with(|| other.g.total_cmp(&self.g))
            .then_with(|| self.node.cmp(&other.node))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

/// [GRAPH.OPEN.ORDER] [GRAPH.OPEN.PUSH] An open set holding at most one entry per node.
#[derive(Clone, Debug)]
pub(crate) struct OpenSet {
    set: BTreeSet<Entry>,
    current: Vec<Option<Entry>>,
}

impl OpenSet {
    /// An empty open set for node ids `0..node_count`.
    pub(crate) fn new(node_count: usize) -> Self {
        OpenSet { set: BTreeSet::new(), current: vec![None; node_count] }
    }

    /// Removes every entry.
    pub(crate) fn clear(&mut self) {
        self.set.clear();
        for c in &mut self.current {
            *c = None;
        }
    }

    /// True when no entry is held.
    pub(crate) fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// [GRAPH.OPEN.PUSH] Inserts `(node, f, g)`, replacing the node's entry if it has one.
    pub(crate) fn push(&mut self, node: u32, f: f64, g: f64) {
        let entry = Entry { f: key(f), g: key(g), node };
        if let Some(old) = self.current[node as usize].take() {
            self.set.remove(&old);
        }
        self.set.insert(entry);
        self.current[node as usize] = Some(entry);
    }

    /// [GRAPH.OPEN.ORDER] The entry that would pop next.
    pub(crate) fn peek(&self) -> Option<Entry> {
        self.set.first().copied()
    }

    /// [GRAPH.OPEN.ORDER] Removes and returns the smallest entry.
    pub(crate) fn pop(&mut self) -> Option<Entry> {
        let entry = self.set.pop_first()?;
        self.current[entry.node as usize] = None;
        Some(entry)
    }
}
