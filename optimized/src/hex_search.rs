//! Hex search (spec/hex-search.md): A* and Dijkstra over the hex move graph of
//! [GRID.HEX.NEIGHBOURS] .. [GRID.HEX.ESTIMATE], sliced, with a tier-1 call.

use crate::astar::{cost_ok, SearchStatus};
use crate::cells::{HexLayout, WALL};
use crate::grid_search::{
    unsupported, validate, CellBlockedFn, CellCostFn, Divisor, GridAlgorithm, GridOptions,
    GridPath, GridSearchError, GsKind,
};
use crate::lattice::{Engine, Lattice};
use crate::plane::HexGrid;
use crate::tier1::PathStatus;
use std::sync::atomic::AtomicBool;

/// [GRID.HEX.OFFSETS] Odd-r, even row (NE, E, SE, SW, W, NW).
const ODD_R_EVEN: [(i64, i64); 6] = [(0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
/// [GRID.HEX.OFFSETS] Odd-r, odd row.
const ODD_R_ODD: [(i64, i64); 6] = [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1)];
/// [GRID.HEX.OFFSETS] Odd-q, even column (N, NE, SE, S, SW, NW).
const ODD_Q_EVEN: [(i64, i64); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)];
/// [GRID.HEX.OFFSETS] Odd-q, odd column.
const ODD_Q_ODD: [(i64, i64); 6] = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];

/// The hex move graph of one search: [HEX.PASS], [HEX.MOVE.RULE], [HEX.MOVE.COST],
/// [HEX.EST.VALUE].
pub(crate) struct HexLattice<'g> {
    cells: &'g [u8],
    w: i64,
    h: i64,
    div: Divisor,
    layout: HexLayout,
    /// Pointy-top layouts pick the offsets by row parity, flat-top by column parity.
    by_row: bool,
    /// Even layouts use the odd layouts' lists the other way round.
    flip: usize,
    /// [GRID.HEX.OFFSETS] `(dx, dy)` by parity (0 even, 1 odd, before `flip`).
    offs: [[(i64, i64); 6]; 2],
    /// The index offsets `dy * w + dx` of `offs`.
    idx: [[i64; 6]; 2],
    /// [GRID.AREA.TABLE] Multiplier by area.
    mult: [f64; 256],
    /// [HEX.EST.VALUE] `mmin` (smallest multiplier of areas 0..=254, read at creation).
    mmin: f64,
    weight: f64,
    cell_cost: Option<CellCostFn>,
    blocked: Option<CellBlockedFn>,
    /// The goal's axial coordinates.
    goal_qr: (i64, i64),
}

impl<'g> HexLattice<'g> {
    fn new(grid: &'g HexGrid, o: &GridOptions) -> Self {
        let (w, h) = (grid.width() as i64, grid.height() as i64);
        let layout = grid.layout();
        let (by_row, flip, offs) = match layout {
            HexLayout::OddR => (true, 0, [ODD_R_EVEN, ODD_R_ODD]),
            HexLayout::EvenR => (true, 1, [ODD_R_EVEN, ODD_R_ODD]),
            HexLayout::OddQ => (false, 0, [ODD_Q_EVEN, ODD_Q_ODD]),
            HexLayout::EvenQ => (false, 1, [ODD_Q_EVEN, ODD_Q_ODD]),
        };
        let mut idx = [[0i64; 6]; 2];
        for p in 0..2 {
            for k in 0..6 {
                idx[p][k] = offs[p][k].1 * w + offs[p][k].0;
            }
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
        HexLattice {
            cells: grid.cells(),
            w,
            h,
            div: Divisor::new(w as usize),
            layout,
            by_row,
            flip,
            offs,
            idx,
            mult,
            mmin,
            weight: o.heuristic_weight,
            cell_cost: o.cell_cost.clone(),
            blocked: o.blocked.clone(),
            goal_qr: (0, 0),
        }
    }

    #[inline(always)]
    fn xy(&self, c: u32) -> (i64, i64) {
        let (y, x) = self.div.div_rem(c as usize);
        (x as i64, y as i64)
    }

    /// [GRID.HEX.AXIAL] The axial `(q, r)` of `(x, y)` (exact integer halving).
    #[inline(always)]
    fn axial(&self, x: i64, y: i64) -> (i64, i64) {
        match self.layout {
            HexLayout::OddR => (x - (y - (y & 1)) / 2, y),
            HexLayout::EvenR => (x - (y + (y & 1)) / 2, y),
            HexLayout::OddQ => (x, y - (x - (x & 1)) / 2),
            HexLayout::EvenQ => (x, y - (x + (x & 1)) / 2),
        }
    }

    /// [HEX.PASS] Passable: inside (the caller's check), not a wall, not `blocked`.
    #[inline(always)]
    fn open(&self, v: u32) -> bool {
        self.cells[v as usize] != WALL && self.blocked.as_ref().is_none_or(|b| !b(v))
    }
}

impl Lattice for HexLattice<'_> {
    type At = (i64, i64);

    fn nodes(&self) -> usize {
        self.cells.len()
    }

    fn passable(&self, c: u32) -> bool {
        (c as usize) < self.cells.len() && self.open(c)
    }

    fn at(&self, c: u32) -> (i64, i64) {
        self.xy(c)
    }

    fn set_goal(&mut self, goal: u32) {
        let (x, y) = self.xy(goal);
        self.goal_qr = self.axial(x, y);
    }

    /// [HEX.EST.VALUE] [GRID.HEX.DISTANCE] `(d as f64 * mmin) * w`.
    #[inline(always)]
    fn estimate(&self, (x, y): (i64, i64)) -> f64 {
        let (q, r) = self.axial(x, y);
        let (dq, dr) = (q - self.goal_qr.0, r - self.goal_qr.1);
        let d = (dq.abs() + dr.abs() + (dq + dr).abs()) / 2;
        (d as f64 * self.mmin) * self.weight
    }

    /// [HEX.MOVE.RULE] [HEX.MOVE.COST] [GRID.HEX.MOVE] [GRID.HEX.COST] The six neighbours in hex
    /// neighbour order; a neighbour outside the grid does not exist; the move is allowed when
    /// the neighbour is passable and costs `1.0 * m(area(v))`, then `+ extra` (a NaN, negative
    /// or `+infinity` extra disallows the move; `-0.0` adds nothing).
    #[inline(always)]
    fn expand(&self, u: u32, mut f: impl FnMut(u32, (i64, i64), f64)) {
        let (x, y) = self.xy(u);
        let p = (((if self.by_row { y } else { x }) & 1) as usize) ^ self.flip;
        let interior = x > 0 && y > 0 && x + 1 < self.w && y + 1 < self.h;
        let offs = &self.offs[p];
        let idx = &self.idx[p];
        for k in 0..6 {
            let (vx, vy) = (x + offs[k].0, y + offs[k].1);
            if !interior && (vx < 0 || vy < 0 || vx >= self.w || vy >= self.h) {
                continue;
            }
            let v = (u as i64 + idx[k]) as u32;
            let area = self.cells[v as usize];
            if area == WALL {
                continue;
            }
            if let Some(b) = &self.blocked {
                if b(v) {
                    continue;
                }
            }
            let mut c = 1.0 * self.mult[area as usize];
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
            f(v, (vx, vy), c);
        }
    }
}

/// [HEX.SEARCH.GRAPH] [HEX.SEARCH.NOT_SAVED] [HEX.SEARCH.GRID] A* or Dijkstra over a hex grid's
/// move graph (graph A* of spec/graphs.md §6, one iteration per open-list pop), sliced. It
/// borrows its grid for its whole life and has no state bytes.
pub struct HexSearch<'g> {
    eng: Engine<HexLattice<'g>>,
    /// Lends the per-cell buffers (its scratch pool) and takes them back on drop.
    grid: &'g HexGrid,
}

impl Drop for HexSearch<'_> {
    fn drop(&mut self) {
        self.grid.derived().give_scratch(self.eng.take_scratch());
    }
}

impl<'g> HexSearch<'g> {
    /// [HEX.OPT.FIELDS] [HEX.OPT.VALID] [HEX.OPT.HOOKS] [HEX.SEARCH.GRID] Validates the options
    /// ([GS.OPT.VALID]: agent size range, then the weight; then agent size exactly 1, all
    /// `invalid_options`), then the algorithm (`AStar` or `Dijkstra`, else
    /// `unsupported_algorithm`). `connectivity` and `diagonal` are ignored; `mmin` and the hooks
    /// are read here.
    pub fn new(grid: &'g HexGrid, options: GridOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        if options.agent_size != 1 {
            return Err(GridSearchError::new(GsKind::InvalidOptions {
                field: "agent_size",
                value: options.agent_size.to_string(),
            }));
        }
        let zero = match options.algorithm {
            GridAlgorithm::AStar => false,
            GridAlgorithm::Dijkstra => true,
            other => return Err(unsupported(other, "HexSearch")),
        };
        let lat = HexLattice::new(grid, &options);
        let buf = grid.derived().take_scratch(grid.cells().len());
        Ok(HexSearch {
            eng: Engine::with_scratch(lat, buf, zero, options.record_expansions),
            grid,
        })
    }

    /// [HEX.SEARCH.BEGIN] Starts a search between `(x, y)` cells: `x >= width` or
    /// `y >= height` is `cell_out_of_range` naming the axis and value (start first, x before y)
    /// and changes nothing; a start or goal that is not passable ends `NotFound` at once.
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let (w, h) = (self.eng.lat.w as usize, self.eng.lat.h as usize);
        let mut out = [0u32; 2];
        for (k, (which, (x, y))) in [("start", start), ("goal", goal)].into_iter().enumerate() {
            for (axis, value, size) in [('x', x, w), ('y', y, h)] {
                if value >= size {
                    return Err(GridSearchError::new(GsKind::CellOutOfRange {
                        which,
                        axis,
                        value,
                        size,
                    }));
                }
            }
            out[k] = (y * w + x) as u32;
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

    /// [GRAPH.ASTAR.PATH] The path (cell indexes `y * width + x`, start first) when Found, else
    /// empty.
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

    /// [HEX.SEARCH.RECORD] The expanded cells in expansion order (empty unless
    /// `record_expansions`).
    pub fn expansions(&self) -> &[u32] {
        self.eng.expansions()
    }
}

/// [HEX.TIER1] [GRID.SPACE.CENTER] One-call hex search: creates a `HexSearch`, begins it, runs
/// `step(iteration_budget)` (non-zero budget) or `run(None)`, and returns the status, cost,
/// cells, their centres (on offset coordinates), the recorded expansions and the counters.
/// Errors are those of `new`, then `begin`.
pub fn find_hex_path(
    grid: &HexGrid,
    start: (usize, usize),
    goal: (usize, usize),
    options: &GridOptions,
) -> Result<GridPath, GridSearchError> {
    let mut s = HexSearch::new(grid, options.clone())?;
    s.begin(start, goal)?;
    let st = if options.iteration_budget > 0 {
        s.step(options.iteration_budget)
    } else {
        s.run(None)
    };
    let cells = s.path();
    let sp = grid.space();
    let (ox, oy, cs) = if sp.origin_x == 0.0 && sp.origin_y == 0.0 && sp.cell_size == 0.0 {
        (0.0, 0.0, 1.0)
    } else {
        (sp.origin_x, sp.origin_y, sp.cell_size)
    };
    let w = grid.width();
    let points = cells
        .iter()
        .map(|&c| {
            let (x, y) = ((c as usize % w) as f64, (c as usize / w) as f64);
            (ox + (x + 0.5) * cs, oy + (y + 0.5) * cs)
        })
        .collect();
    Ok(GridPath {
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
