//! [VOXEL] A* and Dijkstra on voxel grids (`VoxelSearch`, `find_voxel_path`;
//! spec/voxel-search.md): graph A* over the voxel move graph, with the square generic engine's
//! buffers ([`Core`]).

use std::sync::atomic::AtomicBool;

use crate::astar::{normalize_estimate, SearchStatus};
use crate::grid::WALL;
use crate::grid_search::astar::{run_with, Core};
use crate::grid_search::options::{
    CellBlockedFn, CellCostFn, DiagonalRule, GridAlgorithm, GridSearchError,
};
use crate::hex_search::path_status;
use crate::options::PathStatus;
use crate::replan::moves::scale_of;
use crate::voxel::VoxelGrid;

/// [GS.COST.BASE] The f64 nearest √2.
const SQRT_2: f64 = std::f64::consts::SQRT_2;
/// [VOXEL.COST.BASE] The f64 nearest √3.
const SQRT_3: f64 = 1.7320508075688772;

/// [VOXEL.DIR.CONNECTIVITY] The three voxel neighbourhoods.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VoxelConnectivity {
    /// The six face neighbours.
    Six,
    /// Faces and the twelve edge neighbours.
    Eighteen,
    /// Faces, edges and the eight corner neighbours.
    #[default]
    TwentySix,
}

impl VoxelConnectivity {
    /// [VOXEL.DIR.CONNECTIVITY] The largest number of non-zero components of an offset used.
    fn max_axes(self) -> usize {
        match self {
            VoxelConnectivity::Six => 1,
            VoxelConnectivity::Eighteen => 2,
            VoxelConnectivity::TwentySix => 3,
        }
    }
}

/// [VOXEL.OPT.FIELDS] The options of a voxel search.
#[derive(Clone)]
pub struct VoxelOptions {
    /// [VOXEL.DIR.CONNECTIVITY] Which neighbours a voxel has (default `TwentySix`).
    pub connectivity: VoxelConnectivity,
    /// [VOXEL.MOVE.RULE] The corner rule of moves along two or three axes (default `NoneBlocked`).
    pub diagonal: DiagonalRule,
    /// `AStar` (default) or `Dijkstra` ([VOXEL.OPT.VALID]).
    pub algorithm: GridAlgorithm,
    /// [VOXEL.OPT.HOOKS] An extra cost per move `(from, to)` (node indexes).
    pub cell_cost: Option<CellCostFn>,
    /// [VOXEL.OPT.HOOKS] Makes a voxel impassable.
    pub blocked: Option<CellBlockedFn>,
    /// [VOXEL.EST.VALUE] The estimate's weight `w` (finite, `>= 1.0`; default 1.0).
    pub heuristic_weight: f64,
    /// [VOXEL.TIER1] The iteration budget of `find_voxel_path` (0 = unlimited).
    pub iteration_budget: u64,
    /// [VOXEL.SEARCH.RECORD] Keep the expanded voxels in order.
    pub record_expansions: bool,
}

impl Default for VoxelOptions {
    /// [VOXEL.OPT.FIELDS] The defaults.
    fn default() -> Self {
        VoxelOptions {
            connectivity: VoxelConnectivity::TwentySix,
            diagonal: DiagonalRule::NoneBlocked,
            algorithm: GridAlgorithm::AStar,
            cell_cost: None,
            blocked: None,
            heuristic_weight: 1.0,
            iteration_budget: 0,
            record_expansions: false,
        }
    }
}

impl std::fmt::Debug for VoxelOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VoxelOptions")
            .field("connectivity", &self.connectivity)
            .field("diagonal", &self.diagonal)
            .field("algorithm", &self.algorithm)
            .field("cell_cost", &self.cell_cost.is_some())
            .field("blocked", &self.blocked.is_some())
            .field("heuristic_weight", &self.heuristic_weight)
            .field("iteration_budget", &self.iteration_budget)
            .field("record_expansions", &self.record_expansions)
            .finish()
    }
}

/// [VOXEL.TIER1] The result of `find_voxel_path`.
#[derive(Clone, Debug, PartialEq)]
pub struct VoxelPath {
    /// The algorithm that ran (as requested).
    pub algorithm: GridAlgorithm,
    /// `Found`, `NotFound` or `BudgetExhausted`.
    pub status: PathStatus,
    /// The path's cost; `+infinity` unless found.
    pub cost: f64,
    /// The path's node indexes, start first.
    pub cells: Vec<u32>,
    /// [GRID.SPACE.CENTER] Each voxel's centre.
    pub points: Vec<(f64, f64, f64)>,
    /// [VOXEL.SEARCH.RECORD] The expanded voxels in order (empty unless recording).
    pub expanded: Vec<u32>,
    /// The number of expansions.
    pub expanded_count: u64,
    /// The number of pops.
    pub iterations: u64,
}

/// [VOXEL.DIR.ORDER] The 26 offsets `(dx, dy, dz)`: by the number of non-zero components, then
/// by `(dz, dy, dx)` lexicographically.
fn offsets() -> Vec<(i64, i64, i64)> {
    let mut all = Vec::new();
    for k in 1..=3 {
        for dz in -1..=1i64 {
            for dy in -1..=1i64 {
                for dx in -1..=1i64 {
                    let nonzero = [dx, dy, dz].iter().filter(|&&c| c != 0).count();
                    if nonzero == k {
                        all.push((dx, dy, dz));
                    }
                }
            }
        }
    }
    all
}

/// The number of non-zero components of an offset.
fn axes(d: (i64, i64, i64)) -> usize {
    [d.0, d.1, d.2].iter().filter(|&&c| c != 0).count()
}

/// [VOXEL.MOVE.PASSED] The offsets `d'` obtained from `d` by zeroing some, not all, of its
/// non-zero components.
fn passed(d: (i64, i64, i64)) -> Vec<(i64, i64, i64)> {
    let mut out = Vec::new();
    for mask in 1..8u8 {
        // Bit i set keeps component i.
        let keep = |i: u8, c: i64| if mask & (1 << i) != 0 { c } else { 0 };
        let e = (keep(0, d.0), keep(1, d.1), keep(2, d.2));
        if e != (0, 0, 0) && e != d && !out.contains(&e) && axes(e) < axes(d) {
            out.push(e);
        }
    }
    out
}

/// The voxel move graph a search runs over: the grid, the options, `mmin` and the offsets.
struct Moves<'g> {
    grid: &'g VoxelGrid,
    options: VoxelOptions,
    /// [VOXEL.EST.VALUE] `mmin`, read when the search is created.
    mmin: f64,
    /// [VOXEL.DIR.CONNECTIVITY] The moves of the connectivity, in voxel neighbour order.
    dirs: Vec<Direction>,
}

/// One offset of the connectivity with what [VOXEL.MOVE.RULE] asks of it, worked out once per
/// search rather than once per move.
struct Direction {
    /// The offset `d`.
    d: (i64, i64, i64),
    /// `axes(d)`: 1 straight, 2 or 3 diagonal.
    axes: usize,
    /// [VOXEL.MOVE.PASSED] `passed(d)`.
    passed: Vec<(i64, i64, i64)>,
}

impl Direction {
    fn of(d: (i64, i64, i64)) -> Self {
        Direction {
            d,
            axes: axes(d),
            passed: passed(d),
        }
    }
}

/// [VOXEL.SEARCH.GRAPH] A* (or Dijkstra) over a voxel grid's move graph.
///
/// [VOXEL.SEARCH.GRID] It borrows its grid for its whole life; [VOXEL.SEARCH.NOT_SAVED] it has no
/// state bytes.
pub struct VoxelSearch<'g> {
    moves: Moves<'g>,
    core: Core,
}

impl<'g> VoxelSearch<'g> {
    /// [VOXEL.OPT.VALID] Validates the weight, then the algorithm (`AStar` or `Dijkstra`).
    pub fn new(grid: &'g VoxelGrid, options: VoxelOptions) -> Result<Self, GridSearchError> {
        let w = options.heuristic_weight;
        if !(w.is_finite() && w >= 1.0) {
            return Err(GridSearchError::options(
                "heuristic_weight",
                format!("{w:?}"),
            ));
        }
        if !matches!(
            options.algorithm,
            GridAlgorithm::AStar | GridAlgorithm::Dijkstra
        ) {
            return Err(GridSearchError::unsupported(
                options.algorithm,
                "VoxelSearch",
            ));
        }
        let (sx, sy, sz) = grid.size();
        let max = options.connectivity.max_axes();
        Ok(VoxelSearch {
            core: Core::new(sx * sy * sz, options.record_expansions),
            moves: Moves {
                grid,
                mmin: scale_of(|a| grid.area_multiplier(a)),
                dirs: offsets()
                    .into_iter()
                    .filter(|&d| axes(d) <= max)
                    .map(Direction::of)
                    .collect(),
                options,
            },
        })
    }

    /// [VOXEL.SEARCH.BEGIN] [GRAPH.ASTAR.BEGIN] Checks the voxels (start first, then x, y, z; a
    /// failure changes nothing), resets, ends `NotFound` when an end is not passable, else pushes
    /// the start.
    pub fn begin(
        &mut self,
        start: (usize, usize, usize),
        goal: (usize, usize, usize),
    ) -> Result<(), GridSearchError> {
        let m = &self.moves;
        let (sx, sy, sz) = m.grid.size();
        for (which, (x, y, z)) in [("start", start), ("goal", goal)] {
            for (axis, value, size) in [('x', x, sx), ('y', y, sy), ('z', z, sz)] {
                if value >= size {
                    return Err(GridSearchError::cell(which, axis, value, size));
                }
            }
        }
        let p = |t: (usize, usize, usize)| (t.0 as i64, t.1 as i64, t.2 as i64);
        let (s, g) = (m.index(p(start)), m.index(p(goal)));
        self.core.reset(s, g);
        if !m.passable(p(start)) || !m.passable(p(goal)) {
            self.core.status = SearchStatus::NotFound;
            return Ok(());
        }
        let h = m.estimate(s, g);
        self.core.push_start(h);
        Ok(())
    }

    /// [GRAPH.ASTAR.STEP] At most `budget` iterations (one iteration is one pop); the status.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        let moves = &self.moves;
        self.core
            .step(budget, |_, _| {}, |core, u| moves.expand(core, u))
    }

    /// [GRAPH.ASTAR.RUN] Steps until done or cancelled.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        run_with(cancel, |b| self.step(b))
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.core.status
    }

    /// [GRAPH.ASTAR.PATH] The voxels start..goal when `Found`, else empty.
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

    /// [VOXEL.SEARCH.RECORD] The expanded voxels in order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.core.recorded
    }
}

impl Moves<'_> {
    /// [GRID.VOXEL.SIZE] The node index of `(x, y, z)`.
    fn index(&self, p: (i64, i64, i64)) -> u32 {
        let (sx, sy, _) = self.grid.size();
        (p.0 as usize + sx * (p.1 as usize + sy * p.2 as usize)) as u32
    }

    /// [GRID.VOXEL.SIZE] The coordinates of node `c`.
    fn xyz(&self, c: u32) -> (i64, i64, i64) {
        let (sx, sy, _) = self.grid.size();
        let c = c as usize;
        (
            (c % sx) as i64,
            ((c / sx) % sy) as i64,
            (c / (sx * sy)) as i64,
        )
    }

    /// [VOXEL.PASS] Inside the grid, area not 255, not blocked by the hook.
    fn passable(&self, p: (i64, i64, i64)) -> bool {
        let (sx, sy, sz) = self.grid.size();
        if p.0 < 0 || p.1 < 0 || p.2 < 0 {
            return false;
        }
        let (x, y, z) = (p.0 as usize, p.1 as usize, p.2 as usize);
        if x >= sx || y >= sy || z >= sz {
            return false;
        }
        let area = self.grid.voxel(x, y, z).unwrap_or(WALL);
        area != WALL
            && !self
                .options
                .blocked
                .as_ref()
                .is_some_and(|b| b(self.index(p)))
    }

    /// [VOXEL.MOVE.RULE] Whether the move from `u` by `dir.d` is allowed.
    fn move_allowed(&self, u: (i64, i64, i64), dir: &Direction) -> bool {
        let add = |e: (i64, i64, i64)| (u.0 + e.0, u.1 + e.1, u.2 + e.2);
        if !self.passable(add(dir.d)) {
            return false;
        }
        if dir.axes < 2 {
            return true;
        }
        let blocked = dir
            .passed
            .iter()
            .filter(|&&e| !self.passable(add(e)))
            .count();
        match self.options.diagonal {
            DiagonalRule::Always => true,
            DiagonalRule::AtMostOneBlocked => blocked <= 1,
            DiagonalRule::NoneBlocked => blocked == 0,
        }
    }

    /// [VOXEL.COST.BASE] [VOXEL.COST.MOVE] `base * m(area(v))`, then `+ extra`; `None` when
    /// `extra` is NaN, negative or `+infinity`.
    fn move_cost(&self, u: u32, v: u32, k: usize) -> Option<f64> {
        let base = match k {
            1 => 1.0,
            2 => SQRT_2,
            _ => SQRT_3,
        };
        let p = self.xyz(v);
        let area = self
            .grid
            .voxel(p.0 as usize, p.1 as usize, p.2 as usize)
            .ok()?;
        let m = self.grid.area_multiplier(area)?;
        let mut c = base * m;
        if let Some(hook) = &self.options.cell_cost {
            let extra = hook(u, v);
            if extra.is_nan() || extra < 0.0 || extra == f64::INFINITY {
                return None;
            }
            c += extra;
        }
        Some(c)
    }

    /// [VOXEL.EST.DISTANCE] The distance `o` between `u` and `v` for the connectivity.
    fn distance(&self, u: u32, v: u32) -> f64 {
        let (pu, pv) = (self.xyz(u), self.xyz(v));
        let mut d = [
            (pu.0 - pv.0).unsigned_abs(),
            (pu.1 - pv.1).unsigned_abs(),
            (pu.2 - pv.2).unsigned_abs(),
        ];
        d.sort_unstable();
        let [a, b, c] = d;
        match self.options.connectivity {
            VoxelConnectivity::Six => (a + b + c) as f64,
            VoxelConnectivity::Eighteen => {
                let e = ((a + b + c) / 2).min(a + b);
                let f = a + b + c - 2 * e;
                f as f64 + (e as f64) * SQRT_2
            }
            VoxelConnectivity::TwentySix => {
                ((c - b) as f64 + ((b - a) as f64) * SQRT_2) + (a as f64) * SQRT_3
            }
        }
    }

    /// [VOXEL.EST.VALUE] [GRAPH.ASTAR.ESTIMATE] `(o * mmin) * w` normalised, or 0 for Dijkstra.
    fn estimate(&self, v: u32, goal: u32) -> f64 {
        if self.options.algorithm == GridAlgorithm::Dijkstra {
            return 0.0;
        }
        let o = self.distance(v, goal);
        normalize_estimate((o * self.mmin) * self.options.heuristic_weight)
    }

    /// [VOXEL.MOVE.RULE] [GRAPH.ASTAR.EXPAND] Relaxes the allowed moves of `u` in voxel
    /// neighbour order.
    fn expand(&self, core: &mut Core, u: u32) {
        let pu = self.xyz(u);
        for dir in &self.dirs {
            if !self.move_allowed(pu, dir) {
                continue;
            }
            let d = dir.d;
            let v = self.index((pu.0 + d.0, pu.1 + d.1, pu.2 + d.2));
            let Some(c) = self.move_cost(u, v, dir.axes) else {
                continue;
            };
            let g2 = core.g[u as usize] + c;
            if g2 == f64::INFINITY {
                continue;
            }
            let vi = v as usize;
            if !core.reached[vi] || g2 < core.g[vi] {
                let h = self.estimate(v, core.goal);
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

    /// [GRID.SPACE.CENTER] The centre of voxel `c`.
    fn centre(&self, c: u32) -> (f64, f64, f64) {
        let sp = self.grid.space();
        let unset =
            sp.origin_x == 0.0 && sp.origin_y == 0.0 && sp.origin_z == 0.0 && sp.cell_size == 0.0;
        let (ox, oy, oz, s) = if unset {
            (0.0, 0.0, 0.0, 1.0)
        } else {
            (sp.origin_x, sp.origin_y, sp.origin_z, sp.cell_size)
        };
        let p = self.xyz(c);
        (
            ox + (p.0 as f64 + 0.5) * s,
            oy + (p.1 as f64 + 0.5) * s,
            oz + (p.2 as f64 + 0.5) * s,
        )
    }
}

/// [VOXEL.TIER1] Finds a path between two voxels of `grid` in one call:
/// `step(iteration_budget)` when the budget is non-zero, else `run(None)`.
pub fn find_voxel_path(
    grid: &VoxelGrid,
    start: (usize, usize, usize),
    goal: (usize, usize, usize),
    options: &VoxelOptions,
) -> Result<VoxelPath, GridSearchError> {
    let mut s = VoxelSearch::new(grid, options.clone())?;
    s.begin(start, goal)?;
    let budget = options.iteration_budget;
    let st = if budget > 0 {
        s.step(budget)
    } else {
        s.run(None)
    };
    let cells = s.path();
    Ok(VoxelPath {
        algorithm: options.algorithm,
        status: path_status(st),
        cost: s.path_cost(),
        points: cells.iter().map(|&c| s.moves.centre(c)).collect(),
        cells,
        expanded: s.expansions().to_vec(),
        expanded_count: s.expanded_count(),
        iterations: s.iterations(),
    })
}
