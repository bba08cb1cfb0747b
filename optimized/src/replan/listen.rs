//! The replanners' edit feed: the state the grid listener shares with its replanner (the
//! initialised and overflow flags, the pending entries) and the listener itself
//! ([REPLAN.EDIT.LISTEN], [REPLAN.EDIT.LIMIT], [REPLAN.API.DETACH]).

use crate::cells::{CellListener, WALL};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

/// [REPLAN.EDIT.LISTEN] What the listener and the replanner share.
#[derive(Debug, Default)]
pub(crate) struct Shared {
    /// [REPLAN.INIT.STATE] [REPLAN.INIT.RUN] Whether the replanner is initialised.
    pub initialized: bool,
    /// [REPLAN.EDIT.LIMIT] Set when the pending list would have grown past its limit.
    pub overflow: bool,
    /// [REPLAN.EDIT.LISTEN] The pending entries in the order they were appended.
    pub pending: Vec<i32>,
    /// [REPLAN.EDIT.LIMIT] `L = 64 + cells / 16`.
    pub limit: usize,
    /// Every listener call so far (entries or not): lets the replanner tell whether its pending
    /// entries account for every edit since it last looked at the grid.
    pub calls: u64,
}

impl Shared {
    /// [REPLAN.EDIT.LIMIT] The limit for a grid of `cells` cells.
    pub fn limit_for(cells: usize) -> usize {
        64 + cells / 16
    }

    /// [REPLAN.EDIT.LISTEN] [REPLAN.EDIT.LIMIT] One edit: nothing when uninitialised or
    /// overflowed; else `cell` when the walls did not change (both walkable or both walls),
    /// `!cell` when they did; an entry past the limit sets the overflow flag and empties the list.
    pub fn edit(&mut self, cell: u32, old: u8, new: u8) {
        self.calls = self.calls.wrapping_add(1);
        if !self.initialized || self.overflow {
            return;
        }
        let entry = if (old == WALL) == (new == WALL) {
            cell as i32
        } else {
            !(cell as i32)
        };
        if self.pending.len() >= self.limit {
            self.overflow = true;
            self.pending.clear();
        } else {
            self.pending.push(entry);
        }
    }
}

/// Locks the shared state; a poisoned lock (a panic elsewhere while it was held) is still usable,
/// since every update of it is a single step.
pub(crate) fn lock(s: &Mutex<Shared>) -> MutexGuard<'_, Shared> {
    s.lock().unwrap_or_else(PoisonError::into_inner)
}

/// [REPLAN.EDIT.LISTEN] [REPLAN.API.DETACH] The grid listener: it holds only a weak reference, so
/// a listener whose replanner was dropped does nothing.
pub(crate) fn listener(shared: &Arc<Mutex<Shared>>) -> CellListener {
    let weak: Weak<Mutex<Shared>> = Arc::downgrade(shared);
    Box::new(move |cell, old, new| {
        if let Some(s) = weak.upgrade() {
            lock(&s).edit(cell, old, new);
        }
    })
}
