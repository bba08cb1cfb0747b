//! Voxel search (spec/voxel-search.md): A* and Dijkstra over the 6-, 18- or 26-connected voxel
//! move graph, sliced, with a tier-1 call.

use crate::astar::{cost_ok, SearchStatus};
use crate::grid_search::{
    unsupported, CellBlockedFn, CellCostFn, DiagonalRule, Divisor, GridAlgorithm, GridSearchError,
    GsKind,
};
use crate::lattice::{Engine, Lattice};
use crate::tier1::PathStatus;
use crate::voxel::VoxelGrid;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// [VOXEL.COST.BASE] The f64 nearest √2.
const SQRT_2: f64 = std::f64::consts::SQRT_2;
/// [VOXEL.COST.BASE] The f64 nearest √3.
const SQRT_3: f64 = 1.7320508075688772;
/// Area 255: solid ([VOXEL.PASS]).
const SOLID: u8 = 255;

/// [VOXEL.OPT.FIELDS] [VOXEL.DIR.CONNECTIVITY] The voxel neighbourhood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum VoxelConnectivity {
    /// [VOXEL.DIR.CONNECTIVITY] The six face neighbours (`k = 1`).
    Six,
    /// [VOXEL.DIR.CONNECTIVITY] Face and edge neighbours (`k <= 2`).
    Eighteen,
    /// [VOXEL.DIR.CONNECTIVITY] All 26 neighbours.
    #[default]
    TwentySix,
}

/// [VOXEL.OPT.FIELDS] Options of a voxel search (no agent size: voxel grids have no clearance).
#[derive(Clone)]
pub struct VoxelOptions {
    /// [VOXEL.OPT.FIELDS] [VOXEL.DIR.CONNECTIVITY] Six, Eighteen or TwentySix (default).
    pub connectivity: VoxelConnectivity,
    /// [VOXEL.OPT.FIELDS] [VOXEL.MOVE.RULE] The passed-voxel rule of moves with `k >= 2`
    /// (default `NoneBlocked`).
    pub diagonal: DiagonalRule,
    /// [VOXEL.OPT.FIELDS] [VOXEL.OPT.VALID] `AStar` (default) or `Dijkstra`.
    pub algorithm: GridAlgorithm,
    /// [VOXEL.OPT.HOOKS] Extra cost of the move `from -> to` (node indexes).
    pub cell_cost: Option<CellCostFn>,
    /// [VOXEL.OPT.HOOKS] Whether a voxel (node index) is impassable.
    pub blocked: Option<CellBlockedFn>,
    /// [VOXEL.OPT.FIELDS] [VOXEL.OPT.VALID] [VOXEL.EST.VALUE] Heuristic weight (finite,
    /// `>= 1`; default 1.0).
    pub heuristic_weight: f64,
    /// [VOXEL.OPT.FIELDS] [VOXEL.TIER1] Iteration budget of `find_voxel_path` (0 = unlimited).
    pub iteration_budget: u64,
    /// [VOXEL.OPT.FIELDS] [VOXEL.SEARCH.RECORD] Whether expanded voxels are recorded.
    pub record_expansions: bool,
}

impl Default for VoxelOptions {
    /// [VOXEL.OPT.FIELDS] TwentySix, NoneBlocked, AStar, no hooks, weight 1.0, budget 0, no
    /// recording.
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

impl fmt::Debug for VoxelOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
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
    /// [VOXEL.TIER1] The algorithm requested.
    pub algorithm: GridAlgorithm,
    /// [VOXEL.TIER1] Found, NotFound or BudgetExhausted.
    pub status: PathStatus,
    /// [VOXEL.TIER1] The path cost (`+infinity` unless found).
    pub cost: f64,
    /// [VOXEL.TIER1] The path's node indexes, start first.
    pub cells: Vec<u32>,
    /// [VOXEL.TIER1] [GRID.SPACE.CENTER] Each path voxel's centre.
    pub points: Vec<(f64, f64, f64)>,
    /// [VOXEL.TIER1] [VOXEL.SEARCH.RECORD] The recorded expanded voxels.
    pub expanded: Vec<u32>,
    /// [VOXEL.TIER1] Expansions.
    pub expanded_count: u64,
    /// [VOXEL.TIER1] Iterations (pops, the goal's included).
    pub iterations: u64,
}

/// One direction of the voxel neighbour order.
#[derive(Clone, Copy, Default)]
struct Dir {
    d: [i64; 3],
    /// Node index offset `dx + sx * (dy + sy * dz)`.
    idx: i64,
    /// [VOXEL.COST.BASE]
    base: f64,
    /// [VOXEL.MOVE.PASSED] Bit `j` set: direction `j` is a passed voxel of this move.
    passed: u32,
}

/// [VOXEL.DIR.ORDER] The 26 offsets ordered by `k` (non-zero components), then by
/// `(dz, dy, dx)` lexicographically.
fn order() -> [[i64; 3]; 26] {
    let mut v = Vec::with_capacity(26);
    for dz in -1..=1i64 {
        for dy in -1..=1i64 {
            for dx in -1..=1i64 {
                if (dx, dy, dz) != (0, 0, 0) {
                    v.push([dx, dy, dz]);
                }
            }
        }
    }
    // The loops already run in (dz, dy, dx) order; a stable sort by k keeps it within each k.
    v.sort_by_key(|d| d.iter().filter(|&&c| c != 0).count());
    let mut out = [[0i64; 3]; 26];
    out.copy_from_slice(&v);
    out
}

/// The voxel move graph of one search: [VOXEL.PASS], [VOXEL.MOVE.RULE], [VOXEL.COST.MOVE],
/// [VOXEL.EST.DISTANCE], [VOXEL.EST.VALUE].
pub(crate) struct VoxelLattice {
    /// Every voxel's area by node index (read at creation, [VOXEL.SEARCH.GRID]; the grid's
    /// shared flat copy, `voxel_cache`).
    areas: Arc<Vec<u8>>,
    size: [i64; 3],
    div_x: Divisor,
    div_y: Divisor,
    dirs: [Dir; 26],
    /// Directions tried: 6, 18 or 26.
    nd: usize,
    conn: VoxelConnectivity,
    rule: DiagonalRule,
    mult: [f64; 256],
    /// [VOXEL.EST.VALUE] Smallest multiplier of areas 0..=254, read at creation.
    mmin: f64,
    weight: f64,
    cell_cost: Option<CellCostFn>,
    blocked: Option<CellBlockedFn>,
    goal: [i64; 3],
}

impl VoxelLattice {
    fn new(grid: &VoxelGrid, o: &VoxelOptions) -> Self {
        let (sx, sy, sz) = grid.size();
        let areas = grid.cache().flat(|out| grid.flat_areas_into(out));
        let ord = order();
        let mut dirs = [Dir::default(); 26];
        for (i, d) in ord.iter().enumerate() {
            let k = d.iter().filter(|&&c| c != 0).count();
            let mut passed = 0u32;
            if k >= 2 {
                // [VOXEL.MOVE.PASSED] Zero some, but not all, of the non-zero components.
                for (j, e) in ord.iter().enumerate() {
                    let sub = (0..3).all(|a| e[a] == 0 || e[a] == d[a]);
                    let ke = e.iter().filter(|&&c| c != 0).count();
                    if sub && ke < k {
                        passed |= 1 << j;
                    }
                }
            }
            dirs[i] = Dir {
                d: *d,
                idx: d[0] + sx as i64 * (d[1] + sy as i64 * d[2]),
                base: [1.0, SQRT_2, SQRT_3][k - 1],
                passed,
            };
        }
        let mut mult = [1.0f64; 256];
        let mut mmin = f64::INFINITY;
        for a in 0..255u8 {
            let m = grid.area_multiplier(a).unwrap_or(1.0);
            mult[a as usize] = m;
            if m < mmin {
                mmin = m;
            }
        }
        VoxelLattice {
            areas,
            size: [sx as i64, sy as i64, sz as i64],
            div_x: Divisor::new(sx),
            div_y: Divisor::new(sy),
            dirs,
            nd: match o.connectivity {
                VoxelConnectivity::Six => 6,
                VoxelConnectivity::Eighteen => 18,
                VoxelConnectivity::TwentySix => 26,
            },
            conn: o.connectivity,
            rule: o.diagonal,
            mult,
            mmin,
            weight: o.heuristic_weight,
            cell_cost: o.cell_cost.clone(),
            blocked: o.blocked.clone(),
            goal: [0; 3],
        }
    }

    #[inline(always)]
    fn xyz(&self, c: u32) -> [i64; 3] {
        let (t, x) = self.div_x.div_rem(c as usize);
        let (z, y) = self.div_y.div_rem(t);
        [x as i64, y as i64, z as i64]
    }

    /// [VOXEL.PASS] Passable: inside (the caller's check), not solid, not `blocked`.
    #[inline(always)]
    fn open(&self, v: u32) -> bool {
        self.areas[v as usize] != SOLID && self.blocked.as_ref().is_none_or(|b| !b(v))
    }
}

/// [VOXEL.EST.DISTANCE] The move-count distance of the offsets `(dx, dy, dz)` (absolute values)
/// under `conn`, f64 operations in the order written by the spec.
#[inline(always)]
pub(crate) fn distance(conn: VoxelConnectivity, d: [u64; 3]) -> f64 {
    let [mut a, mut b, mut c] = d;
    if a > b {
        std::mem::swap(&mut a, &mut b);
    }
    if b > c {
        std::mem::swap(&mut b, &mut c);
    }
    if a > b {
        std::mem::swap(&mut a, &mut b);
    }
    match conn {
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

impl Lattice for VoxelLattice {
    type At = [i64; 3];

    fn nodes(&self) -> usize {
        self.areas.len()
    }

    fn passable(&self, c: u32) -> bool {
        (c as usize) < self.areas.len() && self.open(c)
    }

    fn at(&self, c: u32) -> [i64; 3] {
        self.xyz(c)
    }

    fn set_goal(&mut self, goal: u32) {
        self.goal = self.xyz(goal);
    }

    /// [VOXEL.EST.VALUE] `(o * mmin) * w`.
    #[inline(always)]
    fn estimate(&self, v: [i64; 3]) -> f64 {
        let d = [
            v[0].abs_diff(self.goal[0]),
            v[1].abs_diff(self.goal[1]),
            v[2].abs_diff(self.goal[2]),
        ];
        (distance(self.conn, d) * self.mmin) * self.weight
    }

    /// [VOXEL.DIR.ORDER] [VOXEL.DIR.CONNECTIVITY] [VOXEL.MOVE.PASSED] [VOXEL.MOVE.RULE]
    /// [VOXEL.COST.BASE] [VOXEL.COST.MOVE] The moves of `u` in voxel neighbour order: the
    /// passability of every neighbour of the connectivity is gathered first into a bit mask
    /// (outside the grid nothing is passable), then each move checks its target and, for
    /// `k >= 2`, its passed voxels by the diagonal rule; the cost is `base * m(area(v))`, then
    /// `+ extra` (a NaN, negative or `+infinity` extra disallows the move; `-0.0` adds nothing).
    #[inline(always)]
    fn expand(&self, u: u32, mut f: impl FnMut(u32, [i64; 3], f64)) {
        let p = self.xyz(u);
        let s = self.size;
        let interior = (0..3).all(|a| p[a] > 0 && p[a] + 1 < s[a]);
        let nd = self.nd;
        let dirs = &self.dirs[..nd];
        let mut mask = 0u32;
        for (i, d) in dirs.iter().enumerate() {
            if !interior {
                let inside = (0..3).all(|a| {
                    let q = p[a] + d.d[a];
                    q >= 0 && q < s[a]
                });
                if !inside {
                    continue;
                }
            }
            let v = (u as i64 + d.idx) as u32;
            if self.open(v) {
                mask |= 1 << i;
            }
        }
        for (i, d) in dirs.iter().enumerate() {
            if mask & (1 << i) == 0 {
                continue;
            }
            if d.passed != 0 {
                let shut = (d.passed & !mask).count_ones();
                let ok = match self.rule {
                    DiagonalRule::Always => true,
                    DiagonalRule::AtMostOneBlocked => shut <= 1,
                    DiagonalRule::NoneBlocked => shut == 0,
                };
                if !ok {
                    continue;
                }
            }
            let v = (u as i64 + d.idx) as u32;
            let mut c = d.base * self.mult[self.areas[v as usize] as usize];
            if let Some(hook) = &self.cell_cost {
                let extra = hook(u, v);
                if !cost_ok(extra) {
                    continue;
                }
                c += extra;
            }
            if !cost_ok(c) {
                continue;
            }
            f(v, [p[0] + d.d[0], p[1] + d.d[1], p[2] + d.d[2]], c);
        }
    }
}

/// [VOXEL.SEARCH.GRAPH] [VOXEL.SEARCH.NOT_SAVED] [VOXEL.SEARCH.GRID] A* or Dijkstra over a voxel
/// grid's move graph (graph A* of spec/graphs.md §6, one iteration per open-list pop), sliced. It
/// borrows its grid for its whole life and has no state bytes.
pub struct VoxelSearch<'g> {
    eng: Engine<VoxelLattice>,
    grid: &'g VoxelGrid,
}

impl Drop for VoxelSearch<'_> {
    /// Gives the per-voxel buffers back to the grid's pool.
    fn drop(&mut self) {
        self.grid.cache().give_scratch(self.eng.take_scratch());
    }
}

impl<'g> VoxelSearch<'g> {
    /// [VOXEL.OPT.VALID] [VOXEL.OPT.HOOKS] [VOXEL.SEARCH.GRID] Validates the weight (finite and
    /// `>= 1`, else `invalid_options` naming `heuristic_weight`), then the algorithm (`AStar` or
    /// `Dijkstra`, else `unsupported_algorithm`); reads the voxels, `mmin` and the hooks.
    pub fn new(grid: &'g VoxelGrid, options: VoxelOptions) -> Result<Self, GridSearchError> {
        let w = options.heuristic_weight;
        if !(w.is_finite() && w >= 1.0) {
            return Err(GridSearchError::new(GsKind::InvalidOptions {
                field: "heuristic_weight",
                value: w.to_string(),
            }));
        }
        let zero = match options.algorithm {
            GridAlgorithm::AStar => false,
            GridAlgorithm::Dijkstra => true,
            other => return Err(unsupported(other, "VoxelSearch")),
        };
        let lat = VoxelLattice::new(grid, &options);
        let buf = grid.cache().take_scratch(lat.nodes());
        Ok(VoxelSearch {
            eng: Engine::with_scratch(lat, buf, zero, options.record_expansions),
            grid,
        })
    }

    /// [VOXEL.SEARCH.BEGIN] Starts a search between `(x, y, z)` voxels: a component at or past
    /// its size is `cell_out_of_range` naming the axis and value (start first, then x, y, z) and
    /// changes nothing; a start or goal that is not passable ends `NotFound` at once.
    pub fn begin(
        &mut self,
        start: (usize, usize, usize),
        goal: (usize, usize, usize),
    ) -> Result<(), GridSearchError> {
        let (sx, sy, sz) = self.grid.size();
        let mut out = [0u32; 2];
        for (k, (which, (x, y, z))) in [("start", start), ("goal", goal)].into_iter().enumerate() {
            for (axis, value, size) in [('x', x, sx), ('y', y, sy), ('z', z, sz)] {
                if value >= size {
                    return Err(GridSearchError::new(GsKind::CellOutOfRange {
                        which,
                        axis,
                        value,
                        size,
                    }));
                }
            }
            out[k] = (x + sx * (y + sy * z)) as u32;
        }
        self.eng.begin(out[0], out[1]);
        Ok(())
    }

    /// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] At most `budget` iterations.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        self.eng.advance(budget, None)
    }

    /// [GRAPH.ASTAR.RUN] `step` without a budget, reading `cancel` every 256 iterations.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        self.eng.advance(u64::MAX, cancel)
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.eng.status()
    }

    /// [GRAPH.ASTAR.PATH] The path (node indexes, start first) when Found, else empty.
    pub fn path(&self) -> Vec<u32> {
        self.eng.path()
    }

    /// [GRAPH.ASTAR.NOT_FOUND] The path cost (`+infinity` unless Found).
    pub fn path_cost(&self) -> f64 {
        self.eng.path_cost()
    }

    /// [GRAPH.ASTAR.COUNTERS] Pops so far (the goal's included).
    pub fn iterations(&self) -> u64 {
        self.eng.iterations()
    }

    /// [GRAPH.ASTAR.COUNTERS] Expansions so far.
    pub fn expanded_count(&self) -> u64 {
        self.eng.expanded()
    }

    /// [VOXEL.SEARCH.RECORD] The expanded voxels in expansion order (empty unless
    /// `record_expansions`).
    pub fn expansions(&self) -> &[u32] {
        self.eng.expansions()
    }
}

/// [VOXEL.TIER1] [GRID.SPACE.CENTER] One-call voxel search: creates a `VoxelSearch`, begins it,
/// runs `step(iteration_budget)` (non-zero budget) or `run(None)`, and returns the status, cost,
/// node indexes, their centres, the recorded expansions and the counters. Errors are those of
/// `new`, then `begin`.
pub fn find_voxel_path(
    grid: &VoxelGrid,
    start: (usize, usize, usize),
    goal: (usize, usize, usize),
    options: &VoxelOptions,
) -> Result<VoxelPath, GridSearchError> {
    let mut s = VoxelSearch::new(grid, options.clone())?;
    s.begin(start, goal)?;
    let st = if options.iteration_budget > 0 {
        s.step(options.iteration_budget)
    } else {
        s.run(None)
    };
    let cells = s.path();
    let sp = grid.space();
    let unassigned =
        sp.origin_x == 0.0 && sp.origin_y == 0.0 && sp.origin_z == 0.0 && sp.cell_size == 0.0;
    let (ox, oy, oz, cs) = if unassigned {
        (0.0, 0.0, 0.0, 1.0)
    } else {
        (sp.origin_x, sp.origin_y, sp.origin_z, sp.cell_size)
    };
    let (sx, sy, _) = grid.size();
    let points = cells
        .iter()
        .map(|&c| {
            let c = c as usize;
            let (x, y, z) = (
                (c % sx) as f64,
                (c / sx % sy) as f64,
                (c / (sx * sy)) as f64,
            );
            (
                ox + (x + 0.5) * cs,
                oy + (y + 0.5) * cs,
                oz + (z + 0.5) * cs,
            )
        })
        .collect();
    Ok(VoxelPath {
        algorithm: options.algorithm,
        status: match st {
            SearchStatus::Found => PathStatus::Found,
            SearchStatus::Running => PathStatus::BudgetExhausted,
            _ => PathStatus::NotFound,
        },
        cost: s.path_cost(),
        cells,
        points,
        expanded: s.expansions().to_vec(),
        expanded_count: s.expanded_count(),
        iterations: s.iterations(),
    })
}
