//! The flow fields' edit feed ([FLOW.EDIT.LISTEN], [FLOW.API.DETACH]): the state the grid
//! listener shares with its field (whether edits are recorded, the pending cells in order of
//! first edit with a bitset for "already pending") and the listener itself, which holds only a
//! weak reference so that a listener whose field was dropped does nothing.

use crate::cells::CellListener;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

/// [FLOW.EDIT.LISTEN] What the listener and the field share.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    /// [FLOW.EDIT.LISTEN] Whether edits are recorded: the status is not `NotStarted` and the
    /// field is usable ([FLOW.STATE.UNUSABLE]: the listener of an unusable field ignores edits).
    pub active: bool,
    /// [FLOW.EDIT.LISTEN] The pending cells, in order of first edit, each once.
    pub pending: Vec<u32>,
    /// Bit `c & 63` of word `c >> 6`: cell `c` is pending.
    marks: Vec<u64>,
    /// Every listener call so far (recorded or not).
    pub calls: u64,
    /// The listener calls made while `active` (each one's cell is pending until the list is
    /// taken): with `calls` and the grid's version this tells whether the pending cells account
    /// for every change since the field last looked at the grid.
    pub recorded: u64,
}

impl Shared {
    /// The feed of a field over `cells` cells (nothing recorded until it starts).
    pub fn new(cells: usize) -> Shared {
        Shared {
            marks: vec![0; cells.div_ceil(64)],
            ..Shared::default()
        }
    }

    /// [FLOW.EDIT.LISTEN] Appends `cell` unless it is already pending; false when it was.
    #[inline]
    pub fn add(&mut self, cell: u32) -> bool {
        let c = cell as usize;
        if c >> 6 >= self.marks.len() {
            // A grid of another size than the field's: its cells mean nothing here.
            return false;
        }
        let bit = 1 << (c & 63);
        if self.marks[c >> 6] & bit != 0 {
            return false;
        }
        self.marks[c >> 6] |= bit;
        self.pending.push(cell);
        true
    }

    /// Empties the pending list (touching only the marks of its cells).
    pub fn clear(&mut self) {
        for &c in &self.pending {
            let c = c as usize;
            self.marks[c >> 6] &= !(1 << (c & 63));
        }
        self.pending.clear();
    }

    /// Moves the pending cells into `into` (cleared first; the two buffers trade allocations)
    /// and empties the list.
    pub fn take(&mut self, into: &mut Vec<u32>) {
        into.clear();
        for &c in &self.pending {
            let c = c as usize;
            self.marks[c >> 6] &= !(1 << (c & 63));
        }
        std::mem::swap(into, &mut self.pending);
    }

    /// [FLOW.EDIT.LISTEN] One changed cell: ignored unless active; else pending once.
    fn edit(&mut self, cell: u32) {
        self.calls = self.calls.wrapping_add(1);
        if !self.active {
            return;
        }
        self.recorded = self.recorded.wrapping_add(1);
        self.add(cell);
    }
}

/// Locks the shared state; a poisoned lock is still usable (every update is a single step).
pub(crate) fn lock(s: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    s.lock().unwrap_or_else(PoisonError::into_inner)
}

/// [FLOW.EDIT.LISTEN] [FLOW.API.DETACH] The grid listener of a field's feed.
pub(crate) fn listener(shared: &Arc<Mutex<Shared>>) -> CellListener {
    let weak: Weak<Mutex<Shared>> = Arc::downgrade(shared);
    Box::new(move |cell, _old, _new| {
        if let Some(s) = weak.upgrade() {
            lock(&s).edit(cell);
        }
    })
}
