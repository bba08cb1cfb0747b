//! Voxel-grid-owned derived data and search scratch, so that a tier-1 voxel query costs what it
//! explores, not what the grid holds (informative; never observable in results or state bytes).
//!
//! A [`crate::VoxelGrid`] keeps one [`VoxelCache`]: the flat copy of every voxel's area by node
//! index ([VOXEL.SEARCH.GRID]: a search reads the voxels at creation; the grid is borrowed for the
//! search's life, so the shared copy cannot change under it), built by the first search that needs
//! it and shared (`Arc`) by every later one, and a small pool of per-search scratch (node arrays
//! reset by an epoch, never cleared node by node) that searches take when made and give back when
//! dropped.
//!
//! Validity: every edit and restore takes `&mut VoxelGrid`. An edit writes its one byte into the
//! flat copy when no search holds it (always, since searches borrow the grid), else drops it; a
//! restore marks it stale and the next search rewrites it in place (O(voxels), the same work as
//! the restore itself).
//!
//! Threads: the cache sits behind one mutex (held to look up, build or pool), so it is ready for
//! concurrent readers; today `VoxelGrid` is `Send` but not `Sync` (its listeners are
//! `FnMut + Send`), so concurrent queries use one grid per thread.

use crate::heap::Scratch;
use std::sync::{Arc, Mutex, MutexGuard};

/// Scratch objects kept for reuse (more concurrent searches allocate their own).
const POOL: usize = 4;

#[derive(Default)]
struct Inner {
    /// The flat areas and whether they match the grid.
    flat: Option<Arc<Vec<u8>>>,
    valid: bool,
    scratch: Vec<Scratch>,
}

/// The derived data and scratch pool of one voxel grid (see the module docs).
#[derive(Default)]
pub(crate) struct VoxelCache {
    inner: Mutex<Inner>,
}

impl VoxelCache {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The flat areas by node index; `fill` rewrites a stale or missing copy (its buffer is
    /// reused when nothing else holds it).
    pub fn flat(&self, fill: impl FnOnce(&mut Vec<u8>)) -> Arc<Vec<u8>> {
        let mut g = self.lock();
        if g.valid {
            if let Some(a) = &g.flat {
                return a.clone();
            }
        }
        let mut buf = g
            .flat
            .take()
            .and_then(|a| Arc::try_unwrap(a).ok())
            .unwrap_or_default();
        fill(&mut buf);
        let a = Arc::new(buf);
        g.flat = Some(a.clone());
        g.valid = true;
        a
    }

    /// Pooled scratch of exactly `n` nodes, else a new one.
    pub fn take_scratch(&self, n: usize) -> Scratch {
        let mut g = self.lock();
        match g.scratch.iter().position(|b| b.slots.len() == n) {
            Some(i) => g.scratch.swap_remove(i),
            None => {
                drop(g);
                Scratch::with_nodes(n)
            }
        }
    }

    /// Gives scratch back to the pool (dropped when the pool is full).
    pub fn give_scratch(&self, b: Scratch) {
        let mut g = self.lock();
        if g.scratch.len() < POOL && !b.slots.is_empty() {
            g.scratch.push(b);
        }
    }

    /// Voxel `node` became `area`: the flat copy is repaired in place (or dropped if shared).
    pub fn edited(&mut self, node: usize, area: u8) {
        let g = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        if !g.valid {
            return;
        }
        match g.flat.as_mut().and_then(Arc::get_mut) {
            Some(f) => f[node] = area,
            None => {
                g.flat = None;
                g.valid = false;
            }
        }
    }

    /// A restore: the flat copy is stale (its buffer is kept for the rewrite).
    pub fn restored(&mut self) {
        self.inner
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .valid = false;
    }
}
