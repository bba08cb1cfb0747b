//! Replanning (spec/replanning.md): LPA* and D* Lite on square grids (`GridReplanner`) and hex
//! grids (`HexReplanner`), fed by grid listeners, with state kinds 5 and 6. The public surface
//! of [REPLAN.API.NEW] .. [REPLAN.API.CLASSES]; the search lives in `engine`, the moves in
//! `moves` and `hex`, the queue in `queue`, the edit feed in `listen`, the bytes in `state`.

mod core;
mod engine;
pub(crate) mod hex;
mod listen;
pub(crate) mod moves;
mod queue;
mod state;

use self::core::{cell_of, check_options, mult_table, Core, GridView};
use self::hex::Hex;
use self::listen::{listener, lock, Shared};
use self::moves::{Shape, Square};
use self::state::{Marks, KIND_GRID_REPLANNER, KIND_HEX_REPLANNER};
use crate::astar::SearchStatus;
use crate::{Grid, GridOptions, GridSearchError, GridStateError, HexGrid};
use std::sync::{Arc, Mutex};

/// [REPLAN.API.NEW] Which incremental search a replanner runs (the number is saved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ReplanMode {
    /// [REPLAN.API.NEW] LPA*: forward from the start (mode 0).
    Lpa = 0,
    /// [REPLAN.API.NEW] D* Lite: backward from the goal, so the start can move (mode 1).
    DStarLite = 1,
}

/// The replanner's view of a square grid.
fn square_view(grid: &Grid) -> GridView<'_> {
    GridView {
        width: grid.width(),
        height: grid.height(),
        cells: grid.cells(),
        version: grid.version(),
        area_version: grid.area_version(),
        restore_count: grid.restore_count(),
        mult: mult_table(|a| grid.area_multiplier(a)),
    }
}

/// The replanner's view of a hex grid.
fn hex_view(grid: &HexGrid) -> GridView<'_> {
    GridView {
        width: grid.width(),
        height: grid.height(),
        cells: grid.cells(),
        version: grid.version(),
        area_version: grid.area_version(),
        restore_count: grid.restore_count(),
        mult: mult_table(|a| grid.area_multiplier(a)),
    }
}

/// [REPLAN.API.NEW] [REPLAN.EDIT.LISTEN] The shared edit feed of a new replanner over `cells`
/// cells.
fn new_shared(cells: usize) -> Arc<Mutex<Shared>> {
    Arc::new(Mutex::new(Shared {
        limit: Shared::limit_for(cells),
        ..Shared::default()
    }))
}

/// The methods both replanners share ([REPLAN.API.NEW]: the same methods over either grid).
macro_rules! replanner_methods {
    ($grid:ty, $view:ident, $kind:expr) => {
        /// [REPLAN.RUN.REPLAN] [REPLAN.COMPUTE.LOOP] Replans with `budget` iterations (0 =
        /// unlimited): `Found` or `NotFound` when planning is done, else `Running` (call again to
        /// go on). A grid of another size fails with `size_mismatch` and changes nothing.
        pub fn replan(
            &mut self,
            grid: &$grid,
            budget: u64,
        ) -> Result<SearchStatus, GridSearchError> {
            self.c.check_size(grid.width(), grid.height())?;
            Ok(self.c.replan(&$view(grid), budget))
        }

        /// [REPLAN.RUN.SET_START] Moves the start (`cell_out_of_range` outside the grid): LPA*
        /// restarts, D* Lite shifts `km` when initialised.
        pub fn set_start(&mut self, x: usize, y: usize) -> Result<(), GridSearchError> {
            self.c.set_start(x, y)
        }

        /// [REPLAN.RUN.SET_GOAL] Moves the goal (`cell_out_of_range` outside the grid) and
        /// restarts; the same cell changes nothing.
        pub fn set_goal(&mut self, x: usize, y: usize) -> Result<(), GridSearchError> {
            self.c.set_goal(x, y)
        }

        /// [REPLAN.RUN.INVALIDATE] [REPLAN.RUN.RESTART] Restarts: the next `replan` plans from
        /// scratch.
        pub fn invalidate_all(&mut self) {
            self.c.restart();
        }

        /// [REPLAN.PATH.WALK] [REPLAN.PATH.BROKEN] [REPLAN.PATH.USE] The path (cells, start
        /// first) of the latest replan, empty unless found; `broken_path` / `path_cycle` on an
        /// inconsistent restored state, `size_mismatch` for a grid of another size.
        pub fn path(&self, grid: &$grid) -> Result<Vec<u32>, GridSearchError> {
            self.c.path(&$view(grid))
        }

        /// [REPLAN.PATH.WALK] `g(target)` when found, else `+infinity`.
        pub fn path_cost(&self) -> f64 {
            self.c.path_cost()
        }

        /// [REPLAN.RUN.REPLAN] Whether the latest replan found a path.
        pub fn found(&self) -> bool {
            self.c.e.found
        }

        /// [REPLAN.INIT.STATE] [REPLAN.INIT.RUN] Whether the replanner is initialised.
        pub fn is_initialized(&self) -> bool {
            self.c.is_initialized()
        }

        /// [REPLAN.API.NEW] The start cell (flat index).
        pub fn start(&self) -> u32 {
            self.c.e.start
        }

        /// [REPLAN.API.NEW] The goal cell (flat index).
        pub fn goal(&self) -> u32 {
            self.c.e.goal
        }

        /// [REPLAN.API.NEW] LPA* or D* Lite.
        pub fn mode(&self) -> ReplanMode {
            self.c.mode
        }

        /// [REPLAN.RUN.COUNTERS] Iterations since creation (a restore sets them).
        pub fn iterations(&self) -> u64 {
            self.c.e.iterations
        }

        /// [REPLAN.RUN.COUNTERS] Settles and resets since creation (a restore sets them).
        pub fn expanded_count(&self) -> u64 {
            self.c.e.expanded
        }

        /// [REPLAN.RUN.COUNTERS] Settles and resets of the latest `replan`.
        pub fn last_expanded(&self) -> u64 {
            self.c.e.last_expanded
        }

        /// [REPLAN.RUN.RECORD] With `record_expansions`, the cells the latest `replan` settled
        /// or reset, in order (empty after a restore).
        pub fn expansions(&self) -> &[u32] {
            &self.c.e.expansions
        }

        /// [DEBUG.REPLAN.KINDS] Settle or reset, beside each entry of `expansions()`.
        pub fn expansion_kinds(&self) -> &[crate::debug::ReplanExpansion] {
            &self.c.e.expansion_kinds
        }

        /// [DEBUG.REPLAN.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] This replanner as plain data, its
        /// path and points read on `grid`.
        pub fn describe(&self, grid: &$grid) -> crate::debug::ReplanDescription {
            let plane = crate::debug::Plane::new(grid.space(), self.c.w);
            let (cells, path_error) = match self.path(grid) {
                Ok(p) => (p, None),
                Err(e) => (Vec::new(), Some(e.class())),
            };
            let e = &self.c.e;
            crate::debug::ReplanDescription {
                width: self.c.w,
                height: self.c.h,
                mode: self.c.mode,
                start: e.start,
                goal: e.goal,
                initialized: self.c.is_initialized(),
                found: e.found,
                cost: self.c.path_cost(),
                points: plane.all(&cells),
                cells,
                path_error,
                expanded: e.expansions.clone(),
                expanded_kinds: e.expansion_kinds.clone(),
                expanded_points: plane.all(&e.expansions),
                expanded_count: e.last_expanded,
                iterations: e.iterations,
                pending: self.pending_count(),
            }
        }

        /// [REPLAN.EDIT.LISTEN] [REPLAN.EDIT.LIMIT] The pending entries waiting for the next
        /// replan.
        pub fn pending_count(&self) -> usize {
            lock(&self.c.shared).pending.len()
        }

        /// [REPLAN.API.DETACH] Removes this replanner's listener from `grid`; `false` when it
        /// has none there.
        pub fn detach(&self, grid: &mut $grid) -> bool {
            grid.remove_listener(self.c.listener)
        }

        /// [REPLAN.STATE.HEADER] [REPLAN.STATE.SAVE] [STATE.STABLE] The state bytes.
        pub fn save_state(&self) -> Vec<u8> {
            let mut out = Vec::new();
            self.save_state_into(&mut out);
            out
        }

        /// [STATE.API.INTO] The bytes of `save_state` written into `out` (cleared first; its
        /// allocation is reused).
        pub fn save_state_into(&self, out: &mut Vec<u8>) {
            self.c.save($kind, out);
        }

        /// [REPLAN.STATE.CHECKS] [REPLAN.STATE.ATOMIC] [REPLAN.STATE.RESTORE]
        /// [REPLAN.STATE.ORDER] Restores saved bytes (restore the grid first); `grid` is the grid
        /// the replanner was created on (another size is `size_mismatch` at the width or height
        /// field). On error nothing changed and no listener was called.
        pub fn restore_state(&mut self, grid: &$grid, bytes: &[u8]) -> Result<(), GridStateError> {
            let view = $view(grid);
            self.c
                .restore(&view, $kind, bytes, &mut self.marks)
                .map_err(GridStateError::from_fault)
        }
    };
}

/// [REPLAN.API.NEW] An incremental planner (LPA* or D* Lite) between a start and a goal on a
/// square `Grid`, kept up to date by the grid's edits ([REPLAN.EDIT.LISTEN]).
pub struct GridReplanner {
    c: Core,
    marks: Marks,
}

impl GridReplanner {
    /// [REPLAN.API.NEW] [REPLAN.API.OPTIONS] [REPLAN.API.NO_HOOKS] [REPLAN.API.ENDS] A new,
    /// uninitialised replanner on `grid` (options checked first, then the start, then the goal,
    /// x before y); registers its listener on the grid.
    pub fn new(
        grid: &mut Grid,
        options: GridOptions,
        mode: ReplanMode,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<Self, GridSearchError> {
        check_options(&options, false)?;
        let (w, h) = (grid.width(), grid.height());
        let s = cell_of("start", start, w, h)?;
        let g = cell_of("goal", goal, w, h)?;
        let shape = Shape::Square(Square::new(
            w,
            h,
            options.agent_size as usize,
            options.connectivity,
            options.diagonal,
        ));
        let shared = new_shared(w * h);
        let id = grid.add_listener(listener(&shared));
        let c = Core::new(
            shape,
            &square_view(grid),
            &options,
            mode,
            (s, g),
            (shared, id),
        );
        Ok(GridReplanner {
            c,
            marks: Marks::default(),
        })
    }

    replanner_methods!(Grid, square_view, KIND_GRID_REPLANNER);
}

/// [REPLAN.API.NEW] [REPLAN.API.HEX_OPTIONS] An incremental planner on a `HexGrid` (moves of
/// [GRID.HEX.MOVE]); the same methods as [`GridReplanner`].
pub struct HexReplanner {
    c: Core,
    marks: Marks,
}

impl HexReplanner {
    /// [REPLAN.API.NEW] [REPLAN.API.OPTIONS] [REPLAN.API.NO_HOOKS] [REPLAN.API.HEX_OPTIONS]
    /// [REPLAN.API.ENDS] A new, uninitialised replanner on `grid` (agent size must be 1;
    /// connectivity and diagonal rule are ignored); registers its listener on the grid.
    pub fn new(
        grid: &mut HexGrid,
        options: GridOptions,
        mode: ReplanMode,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<Self, GridSearchError> {
        check_options(&options, true)?;
        let (w, h) = (grid.width(), grid.height());
        let s = cell_of("start", start, w, h)?;
        let g = cell_of("goal", goal, w, h)?;
        let shape = Shape::Hex(Hex::new(w, h, grid.layout()));
        let shared = new_shared(w * h);
        let id = grid.add_listener(listener(&shared));
        let c = Core::new(shape, &hex_view(grid), &options, mode, (s, g), (shared, id));
        Ok(HexReplanner {
            c,
            marks: Marks::default(),
        })
    }

    replanner_methods!(HexGrid, hex_view, KIND_HEX_REPLANNER);
}

impl std::fmt::Debug for GridReplanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        debug(&self.c, "GridReplanner", f)
    }
}

impl std::fmt::Debug for HexReplanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        debug(&self.c, "HexReplanner", f)
    }
}

fn debug(c: &Core, name: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    f.debug_struct(name)
        .field("mode", &c.mode)
        .field("width", &c.w)
        .field("height", &c.h)
        .field("start", &c.e.start)
        .field("goal", &c.e.goal)
        .field("found", &c.e.found)
        .field("iterations", &c.e.iterations)
        .finish_non_exhaustive()
}
