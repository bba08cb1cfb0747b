//! [GS.STATE.SEARCHES] State kinds 8 (`AStar`), 9 (`JumpSearch`) and 10 (`ThetaSearch`), and the
//! helpers kind 12 shares (spec/grid-search.md §10, layouts of spec/state.md).

use super::astar::{AStar, Core};
use super::jump::JumpSearch;
use super::theta::ThetaSearch;
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::state::graph::{read_search_body, write_search, SearchRules, SearchState, SearchView};
use crate::state::{fault, read_header, Fault, Reader};

/// [STATE.KINDS] Kind 8.
pub(super) const KIND_ASTAR: u16 = 8;
/// [STATE.KINDS] Kind 9.
pub(super) const KIND_JUMP: u16 = 9;
/// [STATE.KINDS] Kind 10.
pub(super) const KIND_THETA: u16 = 10;
/// [STATE.KINDS] Kind 12.
pub(super) const KIND_GRID_SEARCH: u16 = 12;
/// [GS.STATE.WRITE] The bits of an unpopped level.
pub(super) const LEVEL_NAN: u64 = 0x7FF8_0000_0000_0000;

/// A fault at `at` with the class and detail.
pub(super) fn bad<T>(class: &'static str, at: usize, what: String) -> Result<T, Fault> {
    fault(class, at, format!("{class} at byte {at}: {what}"))
}

pub(super) use crate::state::graph::wide;

// ---------------------------------------------------------------------------------------------
// Kinds 8, 9, 10: the search layout of [STATE.SEARCH] over the cells.

/// [GS.STATE.SEARCHES] [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] Writes a generic
/// engine's state; kinds 9 and 10 write start `-1`.
pub(super) fn save_core(kind: u16, core: &Core, weight: f64, start_unused: bool) -> Vec<u8> {
    write_search(&SearchView {
        kind,
        status: core.status,
        weight,
        start: (!start_unused).then_some(core.start),
        goal: core.goal,
        expanded: core.expanded,
        iterations: core.iterations,
        path_cost: core.path_cost(),
        reached: &core.reached,
        closed: &core.closed,
        g: &core.g,
        parent: &core.parent,
        heap: core.open.entries(),
        recorded: &core.recorded,
    })
}

/// [STATE.SEARCH.RESTORE] [STATE.SEARCH.RECORD] Installs a validated state into `core`.
pub(super) fn install_core(core: &mut Core, s: SearchState) {
    core.reset(0, 0);
    core.reset_not_started();
    for e in &s.visited {
        let v = e.node as usize;
        core.g[v] = e.g;
        core.parent[v] = e.parent;
        core.reached[v] = true;
        core.closed[v] = e.closed;
    }
    core.open.install(s.heap);
    core.status = s.status;
    if s.status != SearchStatus::NotStarted {
        core.start = s.start;
        core.goal = s.goal;
    }
    core.iterations = s.iterations;
    core.expanded = s.expanded;
    core.path_cost = s.path_cost;
    core.recorded = s.recorded;
}

/// [GS.STATE.SEARCHES] Reads a whole kind 8/9/10 state (header, payload, trailing check).
pub(super) fn read_core(
    bytes: &[u8],
    kind: u16,
    rules: &SearchRules,
) -> Result<SearchState, Fault> {
    let mut r = Reader::new(bytes);
    read_header(&mut r, kind)?;
    let s = read_search_body(&mut r, rules)?;
    r.finish()?;
    Ok(s)
}

/// [GS.STATE.FAILED] Installs `res` or leaves `core` as newly created.
pub(super) fn restore_core(
    core: &mut Core,
    res: Result<SearchState, Fault>,
) -> Result<(), GridStateError> {
    match res {
        Ok(s) => {
            install_core(core, s);
            Ok(())
        }
        Err(f) => {
            core.reset_not_started();
            Err(f.into())
        }
    }
}

/// [GS.STATE.SEARCHES] The rules of kind 8: the search's weight, a start field.
pub(super) fn astar_rules(a: &AStar<'_>) -> SearchRules {
    SearchRules {
        n: a.terrain.cell_count(),
        weight: a.options.heuristic_weight,
        start_unused: false,
    }
}

/// [GS.STATE.SEARCHES] The rules of kind 9: weight 1.0, start `-1`.
pub(super) fn jump_rules(j: &JumpSearch<'_>) -> SearchRules {
    SearchRules {
        n: j.terrain.cell_count(),
        weight: 1.0,
        start_unused: true,
    }
}

impl AStar<'_> {
    /// [GS.STATE.SEARCHES] [STATE.STABLE] The state bytes (kind 8).
    pub fn save_state(&self) -> Vec<u8> {
        save_core(KIND_ASTAR, &self.core, self.options.heuristic_weight, false)
    }

    /// [STATE.API.INTO] The bytes of `save_state()` left in `out` (cleared first; its
    /// allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.save_state());
    }

    /// [GS.STATE.SEARCHES] [GS.STATE.FAILED] Restores a kind 8 state; a failure leaves the
    /// search as newly created.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let res = read_core(bytes, KIND_ASTAR, &astar_rules(self));
        restore_core(&mut self.core, res)
    }
}

impl JumpSearch<'_> {
    /// [GS.STATE.SEARCHES] [STATE.STABLE] The state bytes (kind 9; weight 1.0, start `-1`).
    pub fn save_state(&self) -> Vec<u8> {
        save_core(KIND_JUMP, &self.core, 1.0, true)
    }

    /// [STATE.API.INTO] The bytes of `save_state()` left in `out` (cleared first; its
    /// allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.save_state());
    }

    /// [GS.STATE.SEARCHES] [GS.STATE.FAILED] Restores a kind 9 state; a failure leaves the
    /// search as newly created.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let res = read_core(bytes, KIND_JUMP, &jump_rules(self));
        restore_core(&mut self.core, res)
    }
}

impl ThetaSearch<'_> {
    /// [GS.STATE.SEARCHES] [STATE.STABLE] The state bytes (kind 10; start `-1`).
    pub fn save_state(&self) -> Vec<u8> {
        save_core(KIND_THETA, &self.core, self.options.heuristic_weight, true)
    }

    /// [STATE.API.INTO] The bytes of `save_state()` left in `out` (cleared first; its
    /// allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend_from_slice(&self.save_state());
    }

    /// [GS.STATE.SEARCHES] [GS.STATE.FAILED] Restores a kind 10 state; a failure leaves the
    /// search as newly created.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let rules = SearchRules {
            n: self.terrain.cell_count(),
            weight: self.options.heuristic_weight,
            start_unused: true,
        };
        let res = read_core(bytes, KIND_THETA, &rules);
        restore_core(&mut self.core, res)
    }
}
