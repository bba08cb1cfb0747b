//! [GS.PASS] [GS.MOVE] [GS.COST] [GS.EST] [GS.LOS] Passability, moves, costs, estimates and line
//! of sight on a square grid (spec/grid-search.md §2-§3, §6).

use std::cmp::Ordering;

use super::options::{CellBlockedFn, CellCostFn, Connectivity, DiagonalRule, GridOptions};
use crate::grid::{clearance_of, Grid, AREA_COUNT, WALL};

/// [GS.COST.BASE] The f64 nearest √2.
pub(crate) const SQRT_2: f64 = std::f64::consts::SQRT_2; // 1.4142135623730951

/// [GS.DIR] The directions in neighbour order `N, E, S, W, NE, SE, SW, NW`, as `(dx, dy)`.
pub(crate) const DIRS: [(i64, i64); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// [GS.DIR] The neighbour-order index of direction `(dx, dy)` (each in `-1..=1`, not both 0).
pub(crate) fn dir_index(d: (i64, i64)) -> usize {
    DIRS.iter().position(|&e| e == d).unwrap_or(0)
}

/// [GS.COST.PAIR] A cost pair `(a, b)` standing for `a + b√2`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Pair {
    pub(crate) a: u64,
    pub(crate) b: u64,
}

impl Pair {
    /// A pair.
    pub(crate) fn new(a: u64, b: u64) -> Pair {
        Pair { a, b }
    }
    /// [GS.COST.PAIR] Componentwise sum.
    pub(crate) fn add(self, o: Pair) -> Pair {
        Pair::new(self.a + o.a, self.b + o.b)
    }
    /// [GS.COST.PAIR] The f64 value `a as f64 + (b as f64) * SQRT_2`.
    pub(crate) fn value(self) -> f64 {
        self.a as f64 + (self.b as f64) * SQRT_2
    }
    /// [GS.COST.PAIR] `self < o` as real numbers: with `p = a1 - a2`, `q = b2 - b1`, whether
    /// `p < q√2`, decided by the four cases of the clause.
    pub(crate) fn less(self, o: Pair) -> bool {
        let p = self.a as i128 - o.a as i128;
        let q = o.b as i128 - self.b as i128;
        if (p < 0 && 0 <= q) || (p <= 0 && 0 < q) {
            true
        } else if p >= 0 && 0 >= q {
            false
        } else if p > 0 && q > 0 {
            p * p < 2 * q * q
        } else {
            // both negative
            p * p > 2 * q * q
        }
    }
    /// [GS.COST.PAIR] The real-number order (pairs are equal as reals only when equal as pairs).
    pub(crate) fn cmp_real(self, o: Pair) -> Ordering {
        if self == o {
            Ordering::Equal
        } else if self.less(o) {
            Ordering::Less
        } else {
            Ordering::Greater
        }
    }
}

/// [GS.EST.OCTILE] The octile pair between cells `(xu, yu)` and `(xv, yv)`: `(hi - lo, lo)`, or
/// `(dx + dy, 0)` with connectivity `Four`.
pub(crate) fn octile_pair(u: (i64, i64), v: (i64, i64), connectivity: Connectivity) -> Pair {
    let dx = (u.0 - v.0).unsigned_abs();
    let dy = (u.1 - v.1).unsigned_abs();
    match connectivity {
        Connectivity::Four => Pair::new(dx + dy, 0),
        Connectivity::Eight => {
            let lo = dx.min(dy);
            let hi = dx.max(dy);
            Pair::new(hi - lo, lo)
        }
    }
}

/// [GS.EST.EUCLID] `sqrt((dx*dx + dy*dy) as f64)` with the integer sum exact.
pub(crate) fn euclid(u: (i64, i64), v: (i64, i64)) -> f64 {
    let dx = (u.0 - v.0).unsigned_abs();
    let dy = (u.1 - v.1).unsigned_abs();
    ((dx * dx + dy * dy) as f64).sqrt()
}

/// [GS.COST.UNIFORM] Every multiplier of areas `0..=254` is exactly 1.0.
pub(crate) fn is_uniform(grid: &Grid) -> bool {
    (0..AREA_COUNT).all(|a| grid.area_multiplier(a as u8) == Some(1.0))
}

/// [GS.EST.SCALE] The smallest multiplier of areas `0..=254`.
pub(crate) fn min_multiplier(grid: &Grid) -> f64 {
    let mut m = f64::INFINITY;
    for a in 0..AREA_COUNT {
        let v = grid.area_multiplier(a as u8).unwrap_or(f64::INFINITY);
        if v < m {
            m = v;
        }
    }
    m
}

/// [GS.PASS] [GS.MOVE] [GS.COST.MOVE] The grid as one search sees it: its passability (agent
/// size, `blocked` hook), its moves (connectivity, diagonal rule) and their costs.
pub(crate) struct Terrain<'g> {
    pub(crate) grid: &'g Grid,
    pub(crate) width: usize,
    pub(crate) height: usize,
    agent_size: u32,
    pub(crate) connectivity: Connectivity,
    diagonal: DiagonalRule,
    cell_cost: Option<CellCostFn>,
    blocked: Option<CellBlockedFn>,
    /// [GS.CLEAR.VALUE] Computed by the search itself for agents larger than 1
    /// ([GS.CLEAR.GRID]: searches never depend on the grid's copy).
    clearance: Option<Vec<u8>>,
}

impl<'g> Terrain<'g> {
    /// The terrain of `grid` under `options`.
    pub(crate) fn new(grid: &'g Grid, options: &GridOptions) -> Terrain<'g> {
        let (width, height) = (grid.width(), grid.height());
        let clearance = if options.agent_size > 1 {
            Some(clearance_of(grid.cells(), width, height))
        } else {
            None
        };
        Terrain {
            grid,
            width,
            height,
            agent_size: options.agent_size,
            connectivity: options.connectivity,
            diagonal: options.diagonal,
            cell_cost: options.cell_cost.clone(),
            blocked: options.blocked.clone(),
            clearance,
        }
    }

    /// The number of cells.
    pub(crate) fn cell_count(&self) -> usize {
        self.width * self.height
    }

    /// [GRID.SQUARE.INDEX] The coordinates of cell index `c`.
    pub(crate) fn xy(&self, c: u32) -> (i64, i64) {
        (
            (c as usize % self.width) as i64,
            (c as usize / self.width) as i64,
        )
    }

    /// [GRID.SQUARE.INDEX] The index of `(x, y)`, which must be inside.
    pub(crate) fn index(&self, p: (i64, i64)) -> u32 {
        (p.1 as usize * self.width + p.0 as usize) as u32
    }

    /// Whether `(x, y)` is inside the grid.
    pub(crate) fn inside(&self, p: (i64, i64)) -> bool {
        p.0 >= 0 && p.1 >= 0 && (p.0 as usize) < self.width && (p.1 as usize) < self.height
    }

    /// [GS.PASS] Inside, clearance `>= agent_size` (agent 1: not a wall), not `blocked`.
    pub(crate) fn passable(&self, p: (i64, i64)) -> bool {
        if !self.inside(p) {
            return false;
        }
        let c = self.index(p);
        let clear = match &self.clearance {
            Some(cl) => u32::from(cl[c as usize]) >= self.agent_size,
            None => self.grid.cells()[c as usize] != WALL,
        };
        if !clear {
            return false;
        }
        match &self.blocked {
            Some(b) => !b(c),
            None => true,
        }
    }

    /// [GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL] Whether the move from `u` by `d` is allowed.
    pub(crate) fn move_allowed(&self, u: (i64, i64), d: (i64, i64)) -> bool {
        let v = (u.0 + d.0, u.1 + d.1);
        if d.0 == 0 || d.1 == 0 {
            return self.passable(v);
        }
        if self.connectivity == Connectivity::Four || !self.passable(v) {
            return false;
        }
        let side_x = self.passable((u.0 + d.0, u.1));
        let side_y = self.passable((u.0, u.1 + d.1));
        match self.diagonal {
            DiagonalRule::Always => true,
            DiagonalRule::AtMostOneBlocked => side_x || side_y,
            DiagonalRule::NoneBlocked => side_x && side_y,
        }
    }

    /// [GS.COST.BASE] [GS.COST.MOVE] The cost of the allowed move `u -> v` (diagonal or not):
    /// `base * m(area(v))`, then `+ extra`; `None` when `extra` is NaN, negative or `+infinity`.
    pub(crate) fn move_cost(&self, u: u32, v: u32, diagonal: bool) -> Option<f64> {
        let base = if diagonal { SQRT_2 } else { 1.0 };
        let area = self.grid.cells()[v as usize];
        let m = self.grid.area_multiplier(area)?;
        let mut c = base * m;
        if let Some(hook) = &self.cell_cost {
            let extra = hook(u, v);
            if extra.is_nan() || extra < 0.0 || extra == f64::INFINITY {
                return None;
            }
            c += extra;
        }
        Some(c)
    }

    /// [GS.LOS] Whether `p` and `q` are in line of sight: every cell whose closed square meets
    /// the closed segment between their centres is passable. The cells that can meet it are
    /// those of the coordinate rectangle between `p` and `q`; they are tested column by column,
    /// each column from its smallest row.
    pub(crate) fn line_of_sight(&self, p: (i64, i64), q: (i64, i64)) -> bool {
        let a = (2 * p.0 + 1, 2 * p.1 + 1);
        let b = (2 * q.0 + 1, 2 * q.1 + 1);
        for x in p.0.min(q.0)..=p.0.max(q.0) {
            for y in p.1.min(q.1)..=p.1.max(q.1) {
                if cell_meets_segment((x, y), a, b) && !self.passable((x, y)) {
                    return false;
                }
            }
        }
        true
    }
}

/// [GS.LOS] With doubled coordinates: the square `[2x, 2x+2] x [2y, 2y+2]` meets the segment
/// `a..b` when their bounding boxes overlap and its four corners are not all strictly on one side
/// of the segment's line (integer cross products).
pub(crate) fn cell_meets_segment(cell: (i64, i64), a: (i64, i64), b: (i64, i64)) -> bool {
    let (sx0, sx1) = (2 * cell.0, 2 * cell.0 + 2);
    let (sy0, sy1) = (2 * cell.1, 2 * cell.1 + 2);
    let boxes_overlap =
        sx0 <= a.0.max(b.0) && sx1 >= a.0.min(b.0) && sy0 <= a.1.max(b.1) && sy1 >= a.1.min(b.1);
    if !boxes_overlap {
        return false;
    }
    let cross = |c: (i64, i64)| (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    let corners = [(sx0, sy0), (sx1, sy0), (sx0, sy1), (sx1, sy1)];
    let all_pos = corners.iter().all(|&c| cross(c) > 0);
    let all_neg = corners.iter().all(|&c| cross(c) < 0);
    !(all_pos || all_neg)
}
