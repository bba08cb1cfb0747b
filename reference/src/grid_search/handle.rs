//! [GS.HANDLE] [GS.TIER1] `GridSearch`, the handle that picks an engine, and `find_grid_path`
//! (spec/grid-search.md §9).

use std::sync::atomic::AtomicBool;

use super::astar::{run_with, AStar};
use super::jump::{jump_applies, JumpSearch};
use super::moves::{is_uniform, Terrain};
use super::options::{
    check_cells, validate, GridAlgorithm, GridEngine, GridOptions, GridPath, GridSearchError,
};
use super::specialised_astar::SpecialisedAStar;
use super::specialised_jump::SpecialisedJump;
use super::theta::ThetaSearch;
use crate::astar::SearchStatus;
use crate::grid::Grid;
use crate::options::PathStatus;

/// [GS.HANDLE.SELECT] The engine a handle runs, with its state.
pub(crate) enum Engine<'g> {
    /// Mode 0.
    NotBegun,
    /// Mode 1.
    Sa(SpecialisedAStar),
    /// Mode 2 with an `AStar`.
    GenericAStar(Box<AStar<'g>>),
    /// Mode 2 with a `JumpSearch`.
    GenericJump(Box<JumpSearch<'g>>),
    /// Mode 3.
    Sj(SpecialisedJump),
}

/// [GS.HANDLE.SELECT] The engine `begin` selects from the options and the grid, and the
/// algorithm that then runs.
pub(crate) fn select(grid: &Grid, options: &GridOptions) -> (GridEngine, GridAlgorithm) {
    let a = options.algorithm;
    match a {
        GridAlgorithm::AStar | GridAlgorithm::Dijkstra => {
            let specialised = is_uniform(grid)
                && options.cell_cost.is_none()
                && options.blocked.is_none()
                && options.heuristic_weight == 1.0;
            if specialised {
                (GridEngine::SpecialisedAStar, a)
            } else {
                (GridEngine::GenericAStar, a)
            }
        }
        GridAlgorithm::Jps | GridAlgorithm::JpsPlus => {
            if !jump_applies(grid, options) {
                (GridEngine::GenericAStar, GridAlgorithm::AStar)
            } else if options.blocked.is_none() && options.agent_size == 1 {
                let finder = u8::from(a == GridAlgorithm::JpsPlus);
                (GridEngine::SpecialisedJump { finder }, a)
            } else {
                (GridEngine::GenericJump, a)
            }
        }
        // Refused by `GridSearch::new`; never selected.
        GridAlgorithm::Theta | GridAlgorithm::LazyTheta => (GridEngine::NotBegun, a),
    }
}

/// [GS.HANDLE.API] [GS.HANDLE.SELECT] The grid search handle: chooses the engine at `begin`.
pub struct GridSearch<'g> {
    pub(crate) grid: &'g Grid,
    pub(crate) options: GridOptions,
    pub(crate) terrain: Terrain<'g>,
    pub(crate) engine: Engine<'g>,
    /// [GS.STATE.MODE2] The begun cells, as `(x, y)`.
    pub(crate) start_xy: (usize, usize),
    pub(crate) goal_xy: (usize, usize),
}

impl<'g> GridSearch<'g> {
    /// A search handle on `grid` that has not begun: `begin` sets the two cells, `step(budget)`
    /// runs at most `budget` iterations (a sliced search, e.g. a few per frame), `run` runs to the
    /// end, and `save_state` / `restore_state` carry a search in progress over to another handle
    /// created the same way. Invalid options fail here; `Theta`/`LazyTheta` are
    /// `unsupported_algorithm` (use `ThetaSearch`).
    ///
    /// ```
    /// use onepath_reference::{Grid, GridOptions, GridSearch, SearchStatus};
    ///
    /// // A 1-high corridor of 40 cells: A* expands one cell per iteration.
    /// let grid = Grid::new(40, 1).unwrap();
    /// let mut search = GridSearch::new(&grid, GridOptions::default()).unwrap();
    /// search.begin((0, 0), (39, 0)).unwrap();
    /// assert_eq!(search.step(10), SearchStatus::Running);
    /// assert_eq!(search.iterations(), 10);
    ///
    /// // Save the half-done search, continue it in a fresh handle, and finish both.
    /// let bytes = search.save_state();
    /// let mut resumed = GridSearch::new(&grid, GridOptions::default()).unwrap();
    /// resumed.restore_state(&bytes).unwrap();
    /// assert_eq!(resumed.iterations(), 10);
    /// assert_eq!(resumed.run(None), SearchStatus::Found);
    /// assert_eq!(search.run(None), SearchStatus::Found);
    /// assert_eq!(resumed.path(), search.path());
    /// assert_eq!(resumed.path_cost(), 39.0);
    /// assert_eq!(resumed.save_state(), search.save_state());
    /// ```
    ///
    /// [GS.HANDLE.SELECT] [GS.OPT.VALID] [STATE.API]
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        if matches!(
            options.algorithm,
            GridAlgorithm::Theta | GridAlgorithm::LazyTheta
        ) {
            return Err(GridSearchError::unsupported(
                options.algorithm,
                "GridSearch",
            ));
        }
        Ok(GridSearch {
            grid,
            terrain: Terrain::new(grid, &options),
            options,
            engine: Engine::NotBegun,
            start_xy: (0, 0),
            goal_xy: (0, 0),
        })
    }

    /// [GS.HANDLE.SELECT] A fresh engine for `sel` (mode 0 for `NotBegun`).
    pub(crate) fn fresh_engine(&self, sel: GridEngine, algorithm: GridAlgorithm) -> Engine<'g> {
        let n = self.terrain.cell_count();
        let record = self.options.record_expansions;
        let mut opts = self.options.clone();
        opts.algorithm = algorithm;
        match sel {
            GridEngine::NotBegun => Engine::NotBegun,
            GridEngine::SpecialisedAStar => Engine::Sa(SpecialisedAStar::new(
                n,
                algorithm == GridAlgorithm::Dijkstra,
                record,
            )),
            // Options were validated by `new` and the selection guarantees the algorithm is
            // accepted, so these constructors cannot fail; mode 0 is the safe fallback.
            GridEngine::GenericAStar => match AStar::new(self.grid, opts) {
                Ok(a) => Engine::GenericAStar(Box::new(a)),
                Err(_) => Engine::NotBegun,
            },
            GridEngine::GenericJump => match JumpSearch::new(self.grid, opts) {
                Ok(j) => Engine::GenericJump(Box::new(j)),
                Err(_) => Engine::NotBegun,
            },
            GridEngine::SpecialisedJump { finder } => {
                Engine::Sj(SpecialisedJump::new(n, finder, record))
            }
        }
    }

    /// [GS.HANDLE.API] [GS.ASTAR.BEGIN] [GS.HANDLE.SELECT] Checks the cells (a failure changes
    /// nothing), selects the engine and begins it.
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let (s, g) = check_cells(self.terrain.width, self.terrain.height, start, goal)?;
        let (sel, algorithm) = select(self.grid, &self.options);
        if self.engine() != sel {
            self.engine = self.fresh_engine(sel, algorithm);
        }
        self.start_xy = start;
        self.goal_xy = goal;
        let t = &self.terrain;
        match &mut self.engine {
            Engine::NotBegun => {}
            Engine::Sa(e) => e.begin(t, s, g),
            Engine::GenericAStar(e) => e.begin(start, goal)?,
            Engine::GenericJump(e) => e.begin(start, goal)?,
            Engine::Sj(e) => e.begin(t, s, g),
        }
        Ok(())
    }

    /// [GS.HANDLE.API] At most `budget` iterations of the engine.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        let t = &self.terrain;
        match &mut self.engine {
            Engine::NotBegun => SearchStatus::NotStarted,
            Engine::Sa(e) => e.step(t, budget),
            Engine::GenericAStar(e) => e.step(budget),
            Engine::GenericJump(e) => e.step(budget),
            Engine::Sj(e) => e.step(t, budget),
        }
    }

    /// [GS.HANDLE.API] [GRAPH.ASTAR.RUN] Steps until done or cancelled.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        run_with(cancel, |b| self.step(b))
    }

    /// [GS.HANDLE.API] The status (`NotStarted` in mode 0).
    pub fn status(&self) -> SearchStatus {
        match &self.engine {
            Engine::NotBegun => SearchStatus::NotStarted,
            Engine::Sa(e) => e.status,
            Engine::GenericAStar(e) => e.status(),
            Engine::GenericJump(e) => e.status(),
            Engine::Sj(e) => e.status,
        }
    }

    /// [GS.HANDLE.API] [GS.SA.PATH] [GS.JUMP.PATH] Every cell start..goal when `Found`.
    pub fn path(&self) -> Vec<u32> {
        match &self.engine {
            Engine::NotBegun => Vec::new(),
            Engine::Sa(e) => e.path(&self.terrain),
            Engine::GenericAStar(e) => e.path(),
            Engine::GenericJump(e) => e.path(),
            Engine::Sj(e) => e.path(&self.terrain),
        }
    }

    /// [GS.HANDLE.API] The path cost when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        match &self.engine {
            Engine::NotBegun => f64::INFINITY,
            Engine::Sa(e) => e.path_cost(),
            Engine::GenericAStar(e) => e.path_cost(),
            Engine::GenericJump(e) => e.path_cost(),
            Engine::Sj(e) => e.path_cost(),
        }
    }

    /// [GS.HANDLE.API] The number of iterations.
    pub fn iterations(&self) -> u64 {
        match &self.engine {
            Engine::NotBegun => 0,
            Engine::Sa(e) => e.iterations,
            Engine::GenericAStar(e) => e.iterations(),
            Engine::GenericJump(e) => e.iterations(),
            Engine::Sj(e) => e.iterations,
        }
    }

    /// [GS.HANDLE.API] The number of expansions.
    pub fn expanded_count(&self) -> u64 {
        match &self.engine {
            Engine::NotBegun => 0,
            Engine::Sa(e) => e.expanded,
            Engine::GenericAStar(e) => e.expanded_count(),
            Engine::GenericJump(e) => e.expanded_count(),
            Engine::Sj(e) => e.expanded,
        }
    }

    /// [GS.HANDLE.API] [GS.HANDLE.RECORD] The recorded expanded cells.
    pub fn expansions(&self) -> &[u32] {
        match &self.engine {
            Engine::NotBegun => &[],
            Engine::Sa(e) => &e.recorded,
            Engine::GenericAStar(e) => e.expansions(),
            Engine::GenericJump(e) => e.expansions(),
            Engine::Sj(e) => &e.recorded,
        }
    }

    /// [GS.HANDLE.API] The engine in use (mode and finder).
    pub fn engine(&self) -> GridEngine {
        match &self.engine {
            Engine::NotBegun => GridEngine::NotBegun,
            Engine::Sa(_) => GridEngine::SpecialisedAStar,
            Engine::GenericAStar(_) => GridEngine::GenericAStar,
            Engine::GenericJump(_) => GridEngine::GenericJump,
            Engine::Sj(e) => GridEngine::SpecialisedJump { finder: e.finder },
        }
    }

    /// [GS.HANDLE.API] The algorithm that runs (before `begin`: the one `begin` would run).
    pub fn algorithm(&self) -> GridAlgorithm {
        select(self.grid, &self.options).1
    }
}

/// [GRID.SPACE.CENTER] The centre of cell `c`: `(ox + (x + 0.5) * s, oy + (y + 0.5) * s)`, with
/// `(0, 0, 1)` when the space is unassigned.
pub(crate) fn centre(grid: &Grid, c: u32) -> (f64, f64) {
    let sp = grid.space();
    let (ox, oy, s) = if sp.origin_x == 0.0 && sp.origin_y == 0.0 && sp.cell_size == 0.0 {
        (0.0, 0.0, 1.0)
    } else {
        (sp.origin_x, sp.origin_y, sp.cell_size)
    };
    let x = (c as usize % grid.width()) as f64;
    let y = (c as usize / grid.width()) as f64;
    (ox + (x + 0.5) * s, oy + (y + 0.5) * s)
}

/// Finds a path between two cells `(x, y)` of `grid` in one call: the options choose the
/// algorithm, connectivity, diagonal rule and hooks. It runs a `GridSearch` (a `ThetaSearch`
/// for `Theta`/`LazyTheta`) with `step(iteration_budget)` when the budget is non-zero, else
/// `run(None)`. The path's `cells` are flat indexes `x + width * y`.
///
/// ```
/// use onepath_reference::{find_grid_path, Grid, GridOptions, PathStatus, WALL};
///
/// // 3 x 3 with a wall in the middle: from (0, 1) to (2, 1) the way goes around it, and with
/// // the default rule (no diagonal past a blocked cell) that takes 4 straight steps.
/// let mut grid = Grid::new(3, 3).unwrap();
/// grid.set_cell(1, 1, WALL).unwrap();
/// let path = find_grid_path(&grid, (0, 1), (2, 1), &GridOptions::default()).unwrap();
/// assert_eq!(path.status, PathStatus::Found);
/// assert_eq!(path.cost, 4.0);
/// assert_eq!((path.cells.first(), path.cells.last()), (Some(&3), Some(&5)));
/// assert!(!path.cells.contains(&4));
/// ```
///
/// [GS.TIER1]
pub fn find_grid_path(
    grid: &Grid,
    start: (usize, usize),
    goal: (usize, usize),
    options: &GridOptions,
) -> Result<GridPath, GridSearchError> {
    let budget = options.iteration_budget;
    let go = |status: SearchStatus| match status {
        SearchStatus::Found => PathStatus::Found,
        SearchStatus::Running => PathStatus::BudgetExhausted,
        SearchStatus::NotFound | SearchStatus::NotStarted => PathStatus::NotFound,
    };
    let mut out = GridPath {
        algorithm: options.algorithm,
        status: PathStatus::NotFound,
        cost: f64::INFINITY,
        cells: Vec::new(),
        points: Vec::new(),
        expanded: Vec::new(),
        expanded_count: 0,
        iterations: 0,
    };
    if matches!(
        options.algorithm,
        GridAlgorithm::Theta | GridAlgorithm::LazyTheta
    ) {
        let mut s = ThetaSearch::new(grid, options.clone())?;
        s.begin(start, goal)?;
        let st = if budget > 0 {
            s.step(budget)
        } else {
            s.run(None)
        };
        out.status = go(st);
        out.cost = s.path_cost();
        out.cells = s.path();
        out.expanded = s.expansions().to_vec();
        out.expanded_count = s.expanded_count();
        out.iterations = s.iterations();
    } else {
        let mut s = GridSearch::new(grid, options.clone())?;
        s.begin(start, goal)?;
        let st = if budget > 0 {
            s.step(budget)
        } else {
            s.run(None)
        };
        out.algorithm = s.algorithm();
        out.status = go(st);
        out.cost = s.path_cost();
        out.cells = s.path();
        out.expanded = s.expansions().to_vec();
        out.expanded_count = s.expanded_count();
        out.iterations = s.iterations();
    }
    out.points = out.cells.iter().map(|&c| centre(grid, c)).collect();
    Ok(out)
}
