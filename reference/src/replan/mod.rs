//! [REPLAN] Replanners of spec/replanning.md: `GridReplanner` (square grids) and `HexReplanner`
//! (hex grids), each running LPA* or D* Lite, with their state bytes (kinds 5 and 6).

mod engine;
pub(crate) mod moves;
mod queue;
mod state;

use std::sync::{Arc, Mutex};

use engine::{pending_limit, Engine, GridFacts, Pending};
use moves::{scale_of, HexSurface, Metric, SquareSurface};
use queue::ReplanOpenSet;

use crate::astar::SearchStatus;
use crate::debug::{square_points, ReplanDescription, ReplanExpansion};
use crate::grid::{Grid, HexGrid};
use crate::grid_error::GridStateError;
use crate::grid_search::options::{check_cells, validate};
use crate::grid_search::{Connectivity, DiagonalRule, GridAlgorithm, GridOptions, GridSearchError};

/// [REPLAN.API.NEW] Which incremental search a replanner runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ReplanMode {
    /// [REPLAN.API.NEW] LPA*: forward from the start; a start move restarts it.
    Lpa = 0,
    /// [REPLAN.API.NEW] D* Lite: backward from the goal; the start can move.
    DStarLite = 1,
}

/// [REPLAN.API.OPTIONS] [REPLAN.API.NO_HOOKS] [REPLAN.API.HEX_OPTIONS] Validates the options in
/// the order of [REPLAN.API.OPTIONS]: [GS.OPT.VALID], a hex agent size, the hooks, the algorithm.
fn check_options(options: &GridOptions, hex: bool) -> Result<(), GridSearchError> {
    validate(options)?;
    if options.heuristic_weight != 1.0 {
        return Err(GridSearchError::options(
            "heuristic_weight",
            format!("{:?} (replanners need 1.0)", options.heuristic_weight),
        ));
    }
    if hex && options.agent_size != 1 {
        return Err(GridSearchError::options(
            "agent_size",
            format!("{} (hex replanners need 1)", options.agent_size),
        ));
    }
    if options.cell_cost.is_some() {
        return Err(GridSearchError::options(
            "cell_cost",
            "a hook (replanners take none)".to_string(),
        ));
    }
    if options.blocked.is_some() {
        return Err(GridSearchError::options(
            "blocked",
            "a hook (replanners take none)".to_string(),
        ));
    }
    match options.algorithm {
        GridAlgorithm::AStar | GridAlgorithm::Dijkstra => Ok(()),
        other => Err(GridSearchError::unsupported(other, "a replanner")),
    }
}

/// [REPLAN.API.NEW] [REPLAN.EDIT.LISTEN] A new engine and the listener that feeds it.
#[allow(clippy::too_many_arguments)]
fn new_engine(
    width: usize,
    height: usize,
    metric: Metric,
    options: &GridOptions,
    mode: ReplanMode,
    cells: (u32, u32),
    facts: GridFacts,
) -> (Engine, crate::grid::CellListener) {
    let n = width * height;
    let shared = Arc::new(Mutex::new(Pending {
        initialized: false,
        overflow: false,
        entries: Vec::new(),
        limit: pending_limit(n),
    }));
    let weak = Arc::downgrade(&shared);
    let listener: crate::grid::CellListener = Box::new(move |cell, old, new| {
        // [REPLAN.API.DETACH] A dropped replanner's listener does nothing.
        if let Some(s) = weak.upgrade() {
            s.lock()
                .unwrap_or_else(|e| e.into_inner())
                .on_edit(cell, old, new);
        }
    });
    let engine = Engine {
        width,
        height,
        metric,
        mode,
        algorithm: options.algorithm,
        weight: options.heuristic_weight,
        record: options.record_expansions,
        start: cells.0,
        goal: cells.1,
        g: vec![f64::INFINITY; n],
        rhs: vec![f64::INFINITY; n],
        queue: ReplanOpenSet::new(n),
        km: 0.0,
        shared,
        found: false,
        iterations: 0,
        expanded: 0,
        last_expanded: 0,
        recorded: Vec::new(),
        recorded_kinds: Vec::new(),
        scale: facts.scale,
        area_version: facts.area_version,
        seen_restore: facts.restore_count,
    };
    (engine, listener)
}

macro_rules! replanner_methods {
    ($t:ty, $grid:ty) => {
        impl $t {
            /// [REPLAN.RUN.REPLAN] Applies pending edits (or initialises) and plans with
            /// `budget` iterations (0 = unlimited).
            pub fn replan(
                &mut self,
                grid: &$grid,
                budget: u64,
            ) -> Result<SearchStatus, GridSearchError> {
                self.check_grid(grid)?;
                let facts = Self::facts(grid);
                let surface = self.surface(grid);
                Ok(self.engine.replan(&surface, &facts, budget))
            }

            /// [REPLAN.RUN.SET_START] Moves the start.
            pub fn set_start(&mut self, x: usize, y: usize) -> Result<(), GridSearchError> {
                let (cell, _) = self.check_end("start", (x, y))?;
                self.engine.set_start(cell);
                Ok(())
            }

            /// [REPLAN.RUN.SET_GOAL] Moves the goal (a restart).
            pub fn set_goal(&mut self, x: usize, y: usize) -> Result<(), GridSearchError> {
                let (cell, _) = self.check_end("goal", (x, y))?;
                self.engine.set_goal(cell);
                Ok(())
            }

            /// [REPLAN.RUN.INVALIDATE] Restarts.
            pub fn invalidate_all(&mut self) {
                self.engine.restart();
            }

            /// [REPLAN.PATH.WALK] [REPLAN.PATH.BROKEN] The path, start first (empty unless
            /// found).
            pub fn path(&self, grid: &$grid) -> Result<Vec<u32>, GridSearchError> {
                self.check_grid(grid)?;
                let surface = self.surface(grid);
                self.engine.path(&surface)
            }

            /// [REPLAN.PATH.WALK] `g(target)` when found, else `+inf`.
            pub fn path_cost(&self) -> f64 {
                self.engine.path_cost()
            }

            /// [REPLAN.RUN.REPLAN] Whether the latest completed replan found a path.
            pub fn found(&self) -> bool {
                self.engine.found
            }

            /// [REPLAN.INIT.STATE] Whether the replanner is initialised.
            pub fn is_initialized(&self) -> bool {
                self.engine.initialized()
            }

            /// The start cell index.
            pub fn start(&self) -> u32 {
                self.engine.start
            }

            /// The goal cell index.
            pub fn goal(&self) -> u32 {
                self.engine.goal
            }

            /// [REPLAN.API.NEW] The mode.
            pub fn mode(&self) -> ReplanMode {
                self.engine.mode
            }

            /// [REPLAN.RUN.COUNTERS] Iterations since creation.
            pub fn iterations(&self) -> u64 {
                self.engine.iterations
            }

            /// [REPLAN.RUN.COUNTERS] Settles and resets since creation.
            pub fn expanded_count(&self) -> u64 {
                self.engine.expanded
            }

            /// [REPLAN.RUN.COUNTERS] Settles and resets of the latest replan.
            pub fn last_expanded(&self) -> u64 {
                self.engine.last_expanded
            }

            /// [REPLAN.RUN.RECORD] The cells the latest replan settled or reset, in order.
            pub fn expansions(&self) -> &[u32] {
                &self.engine.recorded
            }

            /// [DEBUG.REPLAN.KINDS] Settled or reset, beside each entry of `expansions()`.
            pub fn expansion_kinds(&self) -> &[ReplanExpansion] {
                &self.engine.recorded_kinds
            }

            /// [DEBUG.REPLAN.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] The replanner as plain data; the
            /// path and its points are read on `grid` (a grid of another size gives no path and
            /// the class `size_mismatch`).
            pub fn describe(&self, grid: &$grid) -> ReplanDescription {
                let (cells, path_error) = match self.path(grid) {
                    Ok(cells) => (cells, None),
                    Err(e) => (Vec::new(), Some(e.class())),
                };
                let (w, space) = (self.engine.width, grid.space());
                ReplanDescription {
                    width: self.engine.width,
                    height: self.engine.height,
                    mode: self.engine.mode,
                    start: self.engine.start,
                    goal: self.engine.goal,
                    initialized: self.is_initialized(),
                    found: self.found(),
                    cost: self.path_cost(),
                    points: square_points(space, w, &cells),
                    cells,
                    path_error,
                    expanded: self.engine.recorded.clone(),
                    expanded_kinds: self.engine.recorded_kinds.clone(),
                    expanded_points: square_points(space, w, &self.engine.recorded),
                    expanded_count: self.last_expanded(),
                    iterations: self.iterations(),
                    pending: self.pending_count(),
                }
            }

            /// [REPLAN.EDIT.LISTEN] The number of pending entries.
            pub fn pending_count(&self) -> usize {
                self.engine.pending().entries.len()
            }

            /// [REPLAN.API.DETACH] Removes the listener from `grid` (the grid it was created on).
            pub fn detach(&self, grid: &mut $grid) -> bool {
                grid.remove_listener(self.listener)
            }

            /// [STATE.API] [REPLAN.STATE.SAVE] The state bytes.
            pub fn save_state(&self) -> Vec<u8> {
                state::save(&self.engine, Self::KIND)
            }

            /// [STATE.API.INTO] The state bytes into `out` (cleared first).
            pub fn save_state_into(&self, out: &mut Vec<u8>) {
                out.clear();
                out.extend_from_slice(&self.save_state());
            }

            /// [STATE.API] [REPLAN.STATE.RESTORE] [REPLAN.STATE.ATOMIC] Restores the state
            /// bytes, validated before anything changes.
            pub fn restore_state(
                &mut self,
                grid: &$grid,
                bytes: &[u8],
            ) -> Result<(), GridStateError> {
                let facts = Self::facts(grid);
                let parsed = state::read(
                    &self.engine,
                    Self::KIND,
                    (grid.width(), grid.height()),
                    bytes,
                )?;
                state::install(&mut self.engine, parsed, &facts);
                Ok(())
            }

            fn facts(grid: &$grid) -> GridFacts {
                GridFacts {
                    restore_count: grid.restore_count(),
                    area_version: grid.area_version(),
                    scale: scale_of(|a| grid.area_multiplier(a)),
                }
            }

            /// [REPLAN.RUN.REPLAN] A grid of another size is `size_mismatch`.
            fn check_grid(&self, grid: &$grid) -> Result<(), GridSearchError> {
                let (w, h) = (self.engine.width, self.engine.height);
                if grid.width() != w || grid.height() != h {
                    return Err(GridSearchError::size_mismatch(
                        (w, h),
                        (grid.width(), grid.height()),
                    ));
                }
                Ok(())
            }

            /// [REPLAN.API.ENDS] Checks one end's coordinates.
            fn check_end(
                &self,
                which: &'static str,
                p: (usize, usize),
            ) -> Result<(u32, u32), GridSearchError> {
                let (w, h) = (self.engine.width, self.engine.height);
                if which == "start" {
                    check_cells(w, h, p, (0, 0))
                } else {
                    check_cells(w, h, (0, 0), p).map(|(_, g)| (g, g))
                }
            }
        }
    };
}

/// [REPLAN.API.NEW] LPA* or D* Lite over a square `Grid`.
pub struct GridReplanner {
    engine: Engine,
    agent_size: u32,
    connectivity: Connectivity,
    diagonal: DiagonalRule,
    listener: usize,
}

impl std::fmt::Debug for GridReplanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GridReplanner")
            .field("width", &self.engine.width)
            .field("height", &self.engine.height)
            .field("mode", &self.engine.mode)
            .finish_non_exhaustive()
    }
}

impl GridReplanner {
    const KIND: u16 = state::KIND_GRID_REPLANNER;

    /// [REPLAN.API.NEW] [REPLAN.API.OPTIONS] [REPLAN.API.NO_HOOKS] [REPLAN.API.ENDS] A new,
    /// uninitialised replanner listening to `grid`.
    pub fn new(
        grid: &mut Grid,
        options: GridOptions,
        mode: ReplanMode,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<Self, GridSearchError> {
        check_options(&options, false)?;
        let (w, h) = (grid.width(), grid.height());
        let cells = check_cells(w, h, start, goal)?;
        let metric = Metric::Square {
            width: w as i64,
            connectivity: options.connectivity,
        };
        let (engine, listener) = new_engine(w, h, metric, &options, mode, cells, Self::facts(grid));
        let listener = grid.add_listener(listener);
        Ok(GridReplanner {
            engine,
            agent_size: options.agent_size,
            connectivity: options.connectivity,
            diagonal: options.diagonal,
            listener,
        })
    }

    fn surface<'g>(&self, grid: &'g Grid) -> SquareSurface<'g> {
        SquareSurface::new(grid, self.agent_size, self.connectivity, self.diagonal)
    }
}

replanner_methods!(GridReplanner, Grid);

/// [REPLAN.API.NEW] LPA* or D* Lite over a `HexGrid`.
pub struct HexReplanner {
    engine: Engine,
    listener: usize,
}

impl std::fmt::Debug for HexReplanner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HexReplanner")
            .field("width", &self.engine.width)
            .field("height", &self.engine.height)
            .field("mode", &self.engine.mode)
            .finish_non_exhaustive()
    }
}

impl HexReplanner {
    const KIND: u16 = state::KIND_HEX_REPLANNER;

    /// [REPLAN.API.NEW] [REPLAN.API.HEX_OPTIONS] A new, uninitialised replanner listening to
    /// `grid`.
    pub fn new(
        grid: &mut HexGrid,
        options: GridOptions,
        mode: ReplanMode,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<Self, GridSearchError> {
        check_options(&options, true)?;
        let (w, h) = (grid.width(), grid.height());
        let cells = check_cells(w, h, start, goal)?;
        let metric = Metric::Hex {
            width: w as i64,
            layout: grid.layout(),
        };
        let (engine, listener) = new_engine(w, h, metric, &options, mode, cells, Self::facts(grid));
        let listener = grid.add_listener(listener);
        Ok(HexReplanner { engine, listener })
    }

    fn surface<'g>(&self, grid: &'g HexGrid) -> HexSurface<'g> {
        HexSurface::new(grid)
    }
}

replanner_methods!(HexReplanner, HexGrid);
