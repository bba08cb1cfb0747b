//! [REPLAN.MOVE.SQUARE] [REPLAN.MOVE.HEX] [REPLAN.MOVE.COST] [REPLAN.KEY.ESTIMATE]
//! [REPLAN.EDIT.CELLS] What a replanner sees of its grid: neighbours, move costs, the estimate's
//! units and the cells an edit entry re-examines (spec/replanning.md §2 and §5, spec/grids.md
//! §6.1). A surface is built from the grid for one call and dropped after it.

use crate::grid::{clearance_of, Grid, HexGrid, HexLayout, AREA_COUNT, WALL};
use crate::grid_search::{Connectivity, DiagonalRule};

/// [GS.COST.BASE] The f64 nearest √2.
const SQRT_2: f64 = std::f64::consts::SQRT_2;

/// [GS.DIR] Neighbour order `N, E, S, W, NE, SE, SW, NW`.
const SQUARE_DIRS: [(i64, i64); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// A neighbour `v` of `u` with the costs of the two moves between them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neighbour {
    pub(crate) v: u32,
    /// `c(u, v)`: entering `v`.
    pub(crate) out_cost: f64,
    /// `c(v, u)`: entering `u`.
    pub(crate) in_cost: f64,
}

/// The moves of one grid as a replanner sees them.
pub(crate) trait Surface {
    /// [REPLAN.MOVE.SQUARE] [REPLAN.MOVE.HEX] The neighbours of `u`, in order.
    fn neighbours(&self, u: u32) -> Vec<Neighbour>;
    /// [REPLAN.EDIT.CELLS] The cells entry `entry` re-examines, ascending.
    fn edit_cells(&self, entry: i32, lpa: bool) -> Vec<u32>;
    /// [FLOW.MOVE.AROUND] The geometric neighbours of `u` inside the grid, walls included, in
    /// neighbour order ([GS.DIR] all eight on a square grid; [GRID.HEX.NEIGHBOURS] on hex).
    fn around(&self, u: u32) -> Vec<u32>;
}

/// [REPLAN.KEY.SCALE] The smallest multiplier of areas `0..=254`.
pub(crate) fn scale_of(multiplier: impl Fn(u8) -> Option<f64>) -> f64 {
    let mut m = f64::INFINITY;
    for a in 0..AREA_COUNT {
        let v = multiplier(a as u8).unwrap_or(f64::INFINITY);
        if v < m {
            m = v;
        }
    }
    m
}

/// [REPLAN.EDIT.CELLS] The cell of an entry: itself, or its complement when negative.
pub(crate) fn entry_cell(entry: i32) -> u32 {
    if entry < 0 {
        !entry as u32
    } else {
        entry as u32
    }
}

/// A square grid under a replanner's options.
pub(crate) struct SquareSurface<'g> {
    grid: &'g Grid,
    width: i64,
    height: i64,
    agent_size: u32,
    connectivity: Connectivity,
    diagonal: DiagonalRule,
    clearance: Option<Vec<u8>>,
}

impl<'g> SquareSurface<'g> {
    /// The surface of `grid` for agent size `agent_size`, connectivity and diagonal rule.
    pub(crate) fn new(
        grid: &'g Grid,
        agent_size: u32,
        connectivity: Connectivity,
        diagonal: DiagonalRule,
    ) -> Self {
        let clearance = if agent_size > 1 {
            Some(clearance_of(grid.cells(), grid.width(), grid.height()))
        } else {
            None
        };
        SquareSurface {
            grid,
            width: grid.width() as i64,
            height: grid.height() as i64,
            agent_size,
            connectivity,
            diagonal,
            clearance,
        }
    }

    fn inside(&self, p: (i64, i64)) -> bool {
        p.0 >= 0 && p.1 >= 0 && p.0 < self.width && p.1 < self.height
    }

    fn index(&self, p: (i64, i64)) -> u32 {
        (p.1 * self.width + p.0) as u32
    }

    fn xy(&self, c: u32) -> (i64, i64) {
        (i64::from(c) % self.width, i64::from(c) / self.width)
    }

    /// [GS.PASS] Inside and clearance `>= agent_size` (agent 1: not a wall); no hook.
    fn passable(&self, p: (i64, i64)) -> bool {
        if !self.inside(p) {
            return false;
        }
        let c = self.index(p) as usize;
        match &self.clearance {
            Some(cl) => u32::from(cl[c]) >= self.agent_size,
            None => self.grid.cells()[c] != WALL,
        }
    }

    /// [REPLAN.MOVE.SQUARE] `u` passable, then [GS.MOVE.STRAIGHT] / [GS.MOVE.DIAGONAL].
    fn move_allowed(&self, u: (i64, i64), d: (i64, i64)) -> bool {
        if !self.passable(u) {
            return false;
        }
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

    /// [REPLAN.MOVE.COST] [GS.COST.MOVE] `base * m(area(v))`.
    fn enter_cost(&self, v: u32, diagonal: bool) -> f64 {
        let base = if diagonal { SQRT_2 } else { 1.0 };
        let area = self.grid.cells()[v as usize];
        base * self.grid.area_multiplier(area).unwrap_or(f64::INFINITY)
    }
}

impl Surface for SquareSurface<'_> {
    fn neighbours(&self, u: u32) -> Vec<Neighbour> {
        let p = self.xy(u);
        let mut out = Vec::with_capacity(SQUARE_DIRS.len());
        for d in SQUARE_DIRS {
            if self.move_allowed(p, d) {
                let v = self.index((p.0 + d.0, p.1 + d.1));
                let diagonal = d.0 != 0 && d.1 != 0;
                out.push(Neighbour {
                    v,
                    out_cost: self.enter_cost(v, diagonal),
                    in_cost: self.enter_cost(u, diagonal),
                });
            }
        }
        out
    }

    /// [REPLAN.EDIT.CELLS] Plain: LPA* `c`, D* Lite the 3x3 around `c` without `c`;
    /// complemented: `(x-k..=x+1, y-k..=y+1)`. Ascending index, inside the grid.
    fn edit_cells(&self, entry: i32, lpa: bool) -> Vec<u32> {
        let c = entry_cell(entry);
        let (x, y) = self.xy(c);
        let (x0, x1, y0, y1, skip_c) = if entry < 0 {
            let k = i64::from(self.agent_size);
            (x - k, x + 1, y - k, y + 1, false)
        } else if lpa {
            return vec![c];
        } else {
            (x - 1, x + 1, y - 1, y + 1, true)
        };
        let mut out = Vec::new();
        for yy in y0..=y1 {
            for xx in x0..=x1 {
                let p = (xx, yy);
                if self.inside(p) && !(skip_c && p == (x, y)) {
                    out.push(self.index(p));
                }
            }
        }
        out
    }

    fn around(&self, u: u32) -> Vec<u32> {
        let p = self.xy(u);
        SQUARE_DIRS
            .iter()
            .map(|d| (p.0 + d.0, p.1 + d.1))
            .filter(|&q| self.inside(q))
            .map(|q| self.index(q))
            .collect()
    }
}

/// A hex grid as a replanner sees it.
pub(crate) struct HexSurface<'g> {
    grid: &'g HexGrid,
    width: i64,
    height: i64,
    layout: HexLayout,
}

/// [GRID.HEX.OFFSETS] Odd-r, even row and odd row (hex neighbour order `NE, E, SE, SW, W, NW`).
const ODD_R: [[(i64, i64); 6]; 2] = [
    [(0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1)],
    [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1)],
];
/// [GRID.HEX.OFFSETS] Odd-q, even column and odd column (order `N, NE, SE, S, SW, NW`).
const ODD_Q: [[(i64, i64); 6]; 2] = [
    [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)],
    [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)],
];

impl<'g> HexSurface<'g> {
    /// The surface of `grid`.
    pub(crate) fn new(grid: &'g HexGrid) -> Self {
        HexSurface {
            grid,
            width: grid.width() as i64,
            height: grid.height() as i64,
            layout: grid.layout(),
        }
    }

    fn inside(&self, p: (i64, i64)) -> bool {
        p.0 >= 0 && p.1 >= 0 && p.0 < self.width && p.1 < self.height
    }

    fn index(&self, p: (i64, i64)) -> u32 {
        (p.1 * self.width + p.0) as u32
    }

    fn xy(&self, c: u32) -> (i64, i64) {
        (i64::from(c) % self.width, i64::from(c) / self.width)
    }

    /// [GRID.HEX.OFFSETS] The six offsets of a cell at `(x, y)`, in hex neighbour order.
    fn offsets(&self, p: (i64, i64)) -> [(i64, i64); 6] {
        let row_odd = (p.1 & 1) as usize;
        let col_odd = (p.0 & 1) as usize;
        match self.layout {
            HexLayout::OddR => ODD_R[row_odd],
            HexLayout::EvenR => ODD_R[1 - row_odd],
            HexLayout::OddQ => ODD_Q[col_odd],
            HexLayout::EvenQ => ODD_Q[1 - col_odd],
        }
    }

    /// The neighbours of `p` inside the grid, walls included, in hex neighbour order.
    fn around_xy(&self, p: (i64, i64)) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.offsets(p)
            .into_iter()
            .map(move |d| (p.0 + d.0, p.1 + d.1))
            .filter(|&q| self.inside(q))
    }

    fn walkable(&self, p: (i64, i64)) -> bool {
        self.grid.cells()[self.index(p) as usize] != WALL
    }

    /// [GRID.HEX.COST] `1.0 * m(area(v))`.
    fn enter_cost(&self, v: u32) -> f64 {
        let area = self.grid.cells()[v as usize];
        1.0 * self.grid.area_multiplier(area).unwrap_or(f64::INFINITY)
    }
}

impl Surface for HexSurface<'_> {
    /// [GRID.HEX.MOVE] Both inside, neither a wall.
    fn neighbours(&self, u: u32) -> Vec<Neighbour> {
        let p = self.xy(u);
        if !self.walkable(p) {
            return Vec::new();
        }
        self.around_xy(p)
            .filter(|&q| self.walkable(q))
            .map(|q| {
                let v = self.index(q);
                Neighbour {
                    v,
                    out_cost: self.enter_cost(v),
                    in_cost: self.enter_cost(u),
                }
            })
            .collect()
    }

    /// [REPLAN.EDIT.CELLS] Plain: LPA* `c`, D* Lite its six neighbours; complemented: `c` and
    /// its neighbours. Ascending index.
    fn edit_cells(&self, entry: i32, lpa: bool) -> Vec<u32> {
        let c = entry_cell(entry);
        if entry >= 0 && lpa {
            return vec![c];
        }
        let p = self.xy(c);
        let mut out: Vec<u32> = self.around_xy(p).map(|q| self.index(q)).collect();
        if entry < 0 {
            out.push(c);
        }
        out.sort_unstable();
        out
    }

    fn around(&self, u: u32) -> Vec<u32> {
        let p = self.xy(u);
        self.around_xy(p).map(|q| self.index(q)).collect()
    }
}

/// [REPLAN.KEY.ESTIMATE] The geometry the estimate needs: it depends on the grid's size and
/// shape, never on its cells, so a start move can price the km shift without the grid.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Metric {
    /// A square grid of this width and connectivity.
    Square {
        /// Cells per row.
        width: i64,
        /// Four or eight.
        connectivity: Connectivity,
    },
    /// A hex grid of this width and layout.
    Hex {
        /// Cells per row.
        width: i64,
        /// The offset layout.
        layout: HexLayout,
    },
}

impl Metric {
    fn xy(width: i64, c: u32) -> (i64, i64) {
        (i64::from(c) % width, i64::from(c) / width)
    }

    /// [REPLAN.KEY.ESTIMATE] The unscaled estimate: [GS.EST.OCTILE]'s f64 value
    /// `(hi - lo) + lo * SQRT_2` (`dx + dy` with connectivity `Four`), or the hex distance
    /// [GRID.HEX.DISTANCE] as f64.
    pub(crate) fn units(&self, a: u32, b: u32) -> f64 {
        match *self {
            Metric::Square {
                width,
                connectivity,
            } => {
                let (pa, pb) = (Self::xy(width, a), Self::xy(width, b));
                let dx = (pa.0 - pb.0).unsigned_abs();
                let dy = (pa.1 - pb.1).unsigned_abs();
                match connectivity {
                    Connectivity::Four => (dx + dy) as f64,
                    Connectivity::Eight => {
                        let (lo, hi) = (dx.min(dy), dx.max(dy));
                        (hi - lo) as f64 + (lo as f64) * SQRT_2
                    }
                }
            }
            Metric::Hex { width, layout } => {
                let (qa, ra) = axial(layout, Self::xy(width, a));
                let (qb, rb) = axial(layout, Self::xy(width, b));
                let (dq, dr) = (qa - qb, ra - rb);
                ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as f64
            }
        }
    }
}

/// [GRID.HEX.AXIAL] The axial `(q, r)` of offset cell `(x, y)`.
pub(crate) fn axial(layout: HexLayout, p: (i64, i64)) -> (i64, i64) {
    let (x, y) = p;
    match layout {
        HexLayout::OddR => (x - (y - (y & 1)) / 2, y),
        HexLayout::EvenR => (x - (y + (y & 1)) / 2, y),
        HexLayout::OddQ => (x, y - (x - (x & 1)) / 2),
        HexLayout::EvenQ => (x, y - (x + (x & 1)) / 2),
    }
}
