//! [HEX] A* and Dijkstra on hex grids (`HexSearch`, `find_hex_path`; spec/hex-search.md): graph
//! A* over the hex move graph, with the square generic engine's buffers ([`Core`]).

use std::sync::atomic::AtomicBool;

use crate::astar::{normalize_estimate, SearchStatus};
use crate::grid::{HexGrid, WALL};
use crate::grid_search::astar::{run_with, Core};
use crate::grid_search::options::{
    check_cells, validate, GridAlgorithm, GridOptions, GridPath, GridSearchError,
};
use crate::options::PathStatus;
use crate::replan::moves::{scale_of, HexSurface, Metric, Surface};

/// [HEX.SEARCH.GRAPH] A* (or Dijkstra) over a hex grid's move graph.
///
/// [HEX.OPT.FIELDS] It takes `GridOptions` and ignores `connectivity` and `diagonal`;
/// [HEX.OPT.HOOKS] the hooks are asked at each move; [HEX.SEARCH.GRID] it borrows its grid for
/// its whole life; [HEX.SEARCH.NOT_SAVED] it has no state bytes.
pub struct HexSearch<'g> {
    grid: &'g HexGrid,
    surface: HexSurface<'g>,
    metric: Metric,
    options: GridOptions,
    /// [HEX.EST.VALUE] `mmin`, read when the search is created.
    mmin: f64,
    core: Core,
}

impl<'g> HexSearch<'g> {
    /// [HEX.OPT.VALID] [GS.OPT.VALID] Validates the options (agent size range, weight, then
    /// agent size 1), then the algorithm (`AStar` or `Dijkstra`).
    pub fn new(grid: &'g HexGrid, options: GridOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        if options.agent_size != 1 {
            return Err(GridSearchError::options(
                "agent_size",
                options.agent_size.to_string(),
            ));
        }
        if !matches!(
            options.algorithm,
            GridAlgorithm::AStar | GridAlgorithm::Dijkstra
        ) {
            return Err(GridSearchError::unsupported(options.algorithm, "HexSearch"));
        }
        let n = grid.width() * grid.height();
        Ok(HexSearch {
            grid,
            surface: HexSurface::new(grid),
            metric: Metric::Hex {
                width: grid.width() as i64,
                layout: grid.layout(),
            },
            mmin: scale_of(|a| grid.area_multiplier(a)),
            core: Core::new(n, options.record_expansions),
            options,
        })
    }

    /// [HEX.PASS] Inside, not a wall, not blocked by the hook.
    fn passable(&self, c: u32) -> bool {
        passable(self.grid, &self.options, c)
    }

    /// [HEX.EST.VALUE] `(d * mmin) * w` normalised, or 0 for Dijkstra.
    fn estimate(&self, v: u32) -> f64 {
        estimate(&self.metric, self.mmin, &self.options, v, self.core.goal)
    }

    /// [HEX.SEARCH.BEGIN] [GRAPH.ASTAR.BEGIN] Checks the cells (start first, x before y; a
    /// failure changes nothing), resets, ends `NotFound` when an end is not passable, else pushes
    /// the start.
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let (s, g) = check_cells(self.grid.width(), self.grid.height(), start, goal)?;
        self.core.reset(s, g);
        if !self.passable(s) || !self.passable(g) {
            self.core.status = SearchStatus::NotFound;
            return Ok(());
        }
        let h = self.estimate(s);
        self.core.push_start(h);
        Ok(())
    }

    /// [GRAPH.ASTAR.STEP] At most `budget` iterations (one iteration is one pop); the status.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        let (grid, surface, metric, options, mmin) = (
            self.grid,
            &self.surface,
            &self.metric,
            &self.options,
            self.mmin,
        );
        self.core.step(
            budget,
            |_, _| {},
            |core, u| expand(grid, surface, metric, options, mmin, core, u),
        )
    }

    /// [GRAPH.ASTAR.RUN] Steps until done or cancelled.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        run_with(cancel, |b| self.step(b))
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.core.status
    }

    /// [GRAPH.ASTAR.PATH] The cells start..goal when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        self.core.path()
    }

    /// [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        self.core.path_cost()
    }

    /// [GRAPH.ASTAR.COUNTERS] The number of pops.
    pub fn iterations(&self) -> u64 {
        self.core.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS] The number of expansions.
    pub fn expanded_count(&self) -> u64 {
        self.core.expanded
    }

    /// [HEX.SEARCH.RECORD] The expanded cells in order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.core.recorded
    }
}

/// [HEX.PASS] Cell `c` (inside the grid) is passable: not a wall, not blocked by the hook.
fn passable(grid: &HexGrid, options: &GridOptions, c: u32) -> bool {
    grid.cells()[c as usize] != WALL && !options.blocked.as_ref().is_some_and(|b| b(c))
}

/// [HEX.EST.VALUE] [GRAPH.ASTAR.ESTIMATE] The estimate of `v` towards `goal`.
fn estimate(metric: &Metric, mmin: f64, options: &GridOptions, v: u32, goal: u32) -> f64 {
    if options.algorithm == GridAlgorithm::Dijkstra {
        return 0.0;
    }
    let d = metric.units(v, goal);
    normalize_estimate((d * mmin) * options.heuristic_weight)
}

/// [HEX.MOVE.COST] `1.0 * m(area(v))`, then `+ extra`; `None` when `extra` is NaN, negative or
/// `+infinity`.
fn move_cost(grid: &HexGrid, options: &GridOptions, u: u32, v: u32) -> Option<f64> {
    let m = grid.area_multiplier(grid.cells()[v as usize])?;
    let mut c = 1.0 * m;
    if let Some(hook) = &options.cell_cost {
        let extra = hook(u, v);
        if extra.is_nan() || extra < 0.0 || extra == f64::INFINITY {
            return None;
        }
        c += extra;
    }
    Some(c)
}

/// [HEX.MOVE.RULE] [GRAPH.ASTAR.EXPAND] Relaxes the allowed moves of `u` in hex neighbour order.
fn expand(
    grid: &HexGrid,
    surface: &HexSurface<'_>,
    metric: &Metric,
    options: &GridOptions,
    mmin: f64,
    core: &mut Core,
    u: u32,
) {
    for v in surface.around(u) {
        if !passable(grid, options, v) {
            continue;
        }
        let Some(c) = move_cost(grid, options, u, v) else {
            continue;
        };
        let g2 = core.g[u as usize] + c;
        if g2 == f64::INFINITY {
            continue;
        }
        let vi = v as usize;
        if !core.reached[vi] || g2 < core.g[vi] {
            let h = estimate(metric, mmin, options, v, core.goal);
            if h == f64::INFINITY {
                continue;
            }
            core.g[vi] = g2;
            core.parent[vi] = Some(u);
            core.reached[vi] = true;
            core.closed[vi] = false;
            core.open.push(v, g2 + h, g2);
        }
    }
}

/// [GRID.SPACE.CENTER] The centre of hex cell `c` on its offset coordinates.
fn centre(grid: &HexGrid, c: u32) -> (f64, f64) {
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

/// [HEX.TIER1] Finds a path between two cells `(x, y)` of a hex grid in one call:
/// `step(iteration_budget)` when the budget is non-zero, else `run(None)`.
pub fn find_hex_path(
    grid: &HexGrid,
    start: (usize, usize),
    goal: (usize, usize),
    options: &GridOptions,
) -> Result<GridPath, GridSearchError> {
    let mut s = HexSearch::new(grid, options.clone())?;
    s.begin(start, goal)?;
    let budget = options.iteration_budget;
    let st = if budget > 0 {
        s.step(budget)
    } else {
        s.run(None)
    };
    let cells = s.path();
    Ok(GridPath {
        algorithm: options.algorithm,
        status: path_status(st),
        cost: s.path_cost(),
        points: cells.iter().map(|&c| centre(grid, c)).collect(),
        cells,
        expanded: s.expansions().to_vec(),
        expanded_count: s.expanded_count(),
        iterations: s.iterations(),
    })
}

/// [HEX.TIER1] [VOXEL.TIER1] `Found`, `BudgetExhausted` while running, else `NotFound`.
pub(crate) fn path_status(st: SearchStatus) -> PathStatus {
    match st {
        SearchStatus::Found => PathStatus::Found,
        SearchStatus::Running => PathStatus::BudgetExhausted,
        SearchStatus::NotFound | SearchStatus::NotStarted => PathStatus::NotFound,
    }
}
