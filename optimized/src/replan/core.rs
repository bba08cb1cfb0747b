//! One replanner over either grid shape: creation checks ([REPLAN.API.NEW] ..
//! [REPLAN.API.ENDS]), `replan` with its restarts and edit application ([REPLAN.RUN.REPLAN],
//! [REPLAN.EDIT.AREAS], [REPLAN.EDIT.GRID_RESTORE]), moving the ends and the path
//! ([REPLAN.RUN.SET_START] .. [REPLAN.PATH.WALK]).

use super::engine::{scale_of, Engine};
use super::listen::{lock, Shared};
use super::moves::{Shape, Topo};
use super::ReplanMode;
use crate::astar::SearchStatus;
use crate::grid_search::{validate, GsKind};
use crate::{GridAlgorithm, GridOptions, GridSearchError};
use std::sync::{Arc, Mutex};

/// What a replan reads from the grid it is given.
pub(crate) struct GridView<'a> {
    pub width: usize,
    pub height: usize,
    pub cells: &'a [u8],
    pub version: i32,
    pub area_version: i32,
    pub restore_count: u64,
    pub mult: [f64; 256],
}

/// [REPLAN.MOVE.COST] The multiplier table of a grid (area 255 unused: 1.0).
pub(crate) fn mult_table(get: impl Fn(u8) -> Option<f64>) -> [f64; 256] {
    let mut m = [1.0; 256];
    for a in 0..255u8 {
        m[a as usize] = get(a).unwrap_or(1.0);
    }
    m
}

/// The grid's state when the passability cache was last brought up to date.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SyncPoint {
    version: i32,
    restore_count: u64,
    calls: u64,
}

/// The replanner behind `GridReplanner` and `HexReplanner`.
pub(crate) struct Core {
    pub shape: Shape,
    pub e: Engine,
    pub shared: Arc<Mutex<Shared>>,
    pub listener: usize,
    pub w: usize,
    pub h: usize,
    pub algorithm: GridAlgorithm,
    pub mode: ReplanMode,
    /// [REPLAN.EDIT.AREAS] The area version the replanner was built against.
    pub area_version: i32,
    /// [REPLAN.EDIT.GRID_RESTORE] The grid's restore count as last seen.
    pub restore_count: u64,
    sync: Option<SyncPoint>,
    /// Scratch: the pending entries being applied.
    apply: Vec<i32>,
}

/// [REPLAN.API.ENDS] [GS.ASTAR.BEGIN] `(x, y)` inside `w x h` (x before y), else
/// `cell_out_of_range` naming the end, axis and value.
pub(crate) fn cell_of(
    which: &'static str,
    (x, y): (usize, usize),
    w: usize,
    h: usize,
) -> Result<u32, GridSearchError> {
    if x >= w {
        return Err(GridSearchError::new(GsKind::CellOutOfRange {
            which,
            axis: 'x',
            value: x,
            size: w,
        }));
    }
    if y >= h {
        return Err(GridSearchError::new(GsKind::CellOutOfRange {
            which,
            axis: 'y',
            value: y,
            size: h,
        }));
    }
    Ok((y * w + x) as u32)
}

fn invalid(field: &'static str, value: String) -> GridSearchError {
    GridSearchError::new(GsKind::InvalidOptions { field, value })
}

/// [REPLAN.API.OPTIONS] [REPLAN.API.NO_HOOKS] [REPLAN.API.HEX_OPTIONS] The option checks in
/// order: the fields of [GS.OPT.VALID]; a hex replanner's agent size (must be 1); `cell_cost`,
/// then `blocked` (`invalid_options`); then the algorithm (`AStar` or `Dijkstra`, else
/// `unsupported_algorithm`). The ends are checked after these, by the caller.
pub(crate) fn check_options(o: &GridOptions, hex: bool) -> Result<(), GridSearchError> {
    validate(o)?;
    // [REPLAN.API.OPTIONS] LPA* and D* Lite need an admissible estimate: weight exactly 1.0.
    if o.heuristic_weight != 1.0 {
        return Err(invalid(
            "heuristic_weight",
            format!("{:?}", o.heuristic_weight),
        ));
    }
    if hex && o.agent_size != 1 {
        return Err(invalid("agent_size", o.agent_size.to_string()));
    }
    if o.cell_cost.is_some() {
        return Err(invalid("cell_cost", "a hook".into()));
    }
    if o.blocked.is_some() {
        return Err(invalid("blocked", "a hook".into()));
    }
    match o.algorithm {
        GridAlgorithm::AStar | GridAlgorithm::Dijkstra => Ok(()),
        a => Err(crate::grid_search::unsupported(
            a,
            if hex { "HexReplanner" } else { "GridReplanner" },
        )),
    }
}

impl Core {
    /// [REPLAN.API.NEW] An uninitialised replanner ([REPLAN.INIT.STATE]) for a checked grid view;
    /// the listener is registered by the caller (`listener` is its id, `shared` what it feeds).
    pub fn new(
        shape: Shape,
        view: &GridView<'_>,
        options: &GridOptions,
        mode: ReplanMode,
        (start, goal): (u32, u32),
        (shared, listener): (Arc<Mutex<Shared>>, usize),
    ) -> Core {
        let n = view.width * view.height;
        let dstar = mode == ReplanMode::DStarLite;
        let zero = options.algorithm == GridAlgorithm::Dijkstra;
        let mut e = Engine::new(n, dstar, start, goal, options.heuristic_weight, zero);
        e.record = options.record_expansions;
        // [REPLAN.KEY.SCALE] read at creation.
        e.mult = view.mult;
        e.scale = scale_of(&view.mult);
        Core {
            shape,
            e,
            shared,
            listener,
            w: view.width,
            h: view.height,
            algorithm: options.algorithm,
            mode,
            area_version: view.area_version,
            restore_count: view.restore_count,
            sync: None,
            apply: Vec::new(),
        }
    }

    /// [REPLAN.RUN.REPLAN] [REPLAN.API.CLASSES] `size_mismatch` for a grid of another size.
    pub fn check_size(&self, width: usize, height: usize) -> Result<(), GridSearchError> {
        if (width, height) != (self.w, self.h) {
            return Err(GridSearchError::new(GsKind::SizeMismatch {
                expected: (self.w, self.h),
                found: (width, height),
            }));
        }
        Ok(())
    }

    /// [REPLAN.RUN.RESTART] Uninitialised again ([REPLAN.INIT.STATE]: values, queue, `km`,
    /// pending entries, overflow and `found` cleared); counters and the recorded list kept.
    pub fn restart(&mut self) {
        self.e.clear_values();
        self.e.found = false;
        let mut s = lock(&self.shared);
        s.initialized = false;
        s.overflow = false;
        s.pending.clear();
    }

    /// [REPLAN.RUN.REPLAN] [REPLAN.KEY.SCALE] (1) read the scale; restart on another restore
    /// count or area version (taking the grid's); (2) restart on overflow; (3) `found = false`, `last_expanded = 0`, recorded list
    /// emptied; (4) initialise, or apply the pending entries in order and empty the list; (5)
    /// compute with the budget; (6) `Found` / `NotFound` when done, else `Running`.
    pub fn replan(&mut self, view: &GridView<'_>, budget: u64) -> SearchStatus {
        self.e.mult = view.mult;
        self.e.scale = scale_of(&view.mult);
        if view.restore_count != self.restore_count || view.area_version != self.area_version {
            self.restart();
        }
        self.restore_count = view.restore_count;
        self.area_version = view.area_version;
        let (initialized, overflow) = {
            let s = lock(&self.shared);
            (s.initialized, s.overflow)
        };
        if overflow {
            self.restart();
        }
        self.e.found = false;
        self.e.last_expanded = 0;
        self.e.expansions.clear();
        self.e.expansion_kinds.clear();
        let was_initialized = initialized && !overflow;
        // Take the pending entries (their allocation goes back to the shared list) and the
        // grid's position in the edit stream.
        let calls = {
            let mut s = lock(&self.shared);
            self.apply.clear();
            std::mem::swap(&mut self.apply, &mut s.pending);
            s.initialized = true;
            s.calls
        };
        self.sync_cache(view, calls, was_initialized);
        let topo = &self.shape;
        if !was_initialized {
            self.e.initialise(topo);
        } else {
            for i in 0..self.apply.len() {
                let entry = self.apply[i];
                self.e.apply_entry(topo, view.cells, entry);
            }
        }
        self.apply.clear();
        let done = self.e.compute(topo, view.cells, budget);
        if done {
            let t = self.e.target();
            self.e.found = self.e.g(t) < f64::INFINITY;
            if self.e.found {
                SearchStatus::Found
            } else {
                SearchStatus::NotFound
            }
        } else {
            SearchStatus::Running
        }
    }

    /// Brings the passability cache (agents above one cell) up to date with the grid: patched
    /// from the wall entries when they account for every edit since the last replan (every
    /// listener call appended one and the version moved by as many), rebuilt otherwise.
    fn sync_cache(&mut self, view: &GridView<'_>, calls: u64, had_entries: bool) {
        if !self.shape.has_cache() {
            return;
        }
        let now = SyncPoint {
            version: view.version,
            restore_count: view.restore_count,
            calls,
        };
        let incremental = match self.sync {
            Some(p) if p == now => Some(&[][..]),
            Some(p) if had_entries && p.restore_count == now.restore_count => {
                let delta = now.calls.wrapping_sub(p.calls);
                let moved = (now.version as i64 - p.version as i64).rem_euclid(1 << 31) as u64;
                (delta == self.apply.len() as u64 && delta == moved).then_some(&self.apply[..])
            }
            _ => None,
        };
        match incremental {
            Some(entries) => self.shape.patch(view.cells, entries),
            None => self.shape.rebuild(view.cells),
        }
        self.sync = Some(now);
    }

    /// Whether the passability cache is current for `view` (for the path walk).
    pub fn cache_current(&self, view: &GridView<'_>) -> bool {
        let calls = lock(&self.shared).calls;
        self.sync
            == Some(SyncPoint {
                version: view.version,
                restore_count: view.restore_count,
                calls,
            })
    }

    /// [REPLAN.STATE.RESTORE] A restore replaces the pending entries, so the cache is rebuilt at
    /// the next replan.
    pub fn forget_cache(&mut self) {
        self.sync = None;
    }

    /// [REPLAN.RUN.SET_START] The same cell changes nothing; LPA* sets the start and restarts;
    /// D* Lite adds `h(old start, new start)` to `km` when initialised, then sets the start.
    pub fn set_start(&mut self, x: usize, y: usize) -> Result<(), GridSearchError> {
        let c = cell_of("start", (x, y), self.w, self.h)?;
        if c == self.e.start {
            return Ok(());
        }
        if self.e.dstar {
            if self.is_initialized() {
                let shift = self.e.h(&self.shape, self.e.start, c);
                self.e.km += shift;
            }
            self.e.start = c;
            // [REPLAN.RUN.SET_START] The path was the old start's.
            self.e.found = false;
        } else {
            self.e.start = c;
            self.restart();
        }
        Ok(())
    }

    /// [REPLAN.RUN.SET_GOAL] The same cell changes nothing; otherwise set the goal and restart.
    pub fn set_goal(&mut self, x: usize, y: usize) -> Result<(), GridSearchError> {
        let c = cell_of("goal", (x, y), self.w, self.h)?;
        if c != self.e.goal {
            self.e.goal = c;
            self.restart();
        }
        Ok(())
    }

    /// [REPLAN.INIT.STATE] Whether the replanner is initialised.
    pub fn is_initialized(&self) -> bool {
        lock(&self.shared).initialized
    }

    /// [REPLAN.PATH.WALK] The path over the grid as given (`size_mismatch` for another size).
    pub fn path(&self, view: &GridView<'_>) -> Result<Vec<u32>, GridSearchError> {
        self.check_size(view.width, view.height)?;
        if !self.e.found {
            return Ok(Vec::new());
        }
        let cached = self.cache_current(view);
        self.e.walk(&self.shape, view.cells, &view.mult, cached)
    }

    /// [REPLAN.PATH.WALK] `g(target)` when found, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        if self.e.found {
            self.e.g(self.e.target())
        } else {
            f64::INFINITY
        }
    }
}
