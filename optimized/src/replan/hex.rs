//! Hex-grid moves for the replanners (spec/grids.md §6.1): neighbour order and offsets
//! ([GRID.HEX.NEIGHBOURS], [GRID.HEX.OFFSETS]), axial coordinates and distance
//! ([GRID.HEX.AXIAL], [GRID.HEX.DISTANCE]), allowed moves ([GRID.HEX.MOVE]) and the cells an edit
//! updates ([REPLAN.EDIT.CELLS]).

use super::moves::{entry_cell, Nbrs, Topo};
use crate::cells::{HexLayout, WALL};
use crate::grid_search::Divisor;

/// [GRID.HEX.OFFSETS] Odd-r, even row (NE, E, SE, SW, W, NW).
const ODD_R_EVEN: [(i64, i64); 6] = [(0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
/// [GRID.HEX.OFFSETS] Odd-r, odd row.
const ODD_R_ODD: [(i64, i64); 6] = [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1)];
/// [GRID.HEX.OFFSETS] Odd-q, even column (N, NE, SE, S, SW, NW).
const ODD_Q_EVEN: [(i64, i64); 6] = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)];
/// [GRID.HEX.OFFSETS] Odd-q, odd column.
const ODD_Q_ODD: [(i64, i64); 6] = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];

/// A hex grid's moves.
pub(crate) struct Hex {
    w: usize,
    h: usize,
    layout: HexLayout,
    div: Divisor,
}

impl Hex {
    /// The moves of a `w x h` hex grid in `layout`.
    pub fn new(w: usize, h: usize, layout: HexLayout) -> Hex {
        Hex {
            w,
            h,
            layout,
            div: Divisor::new(w),
        }
    }

    #[inline(always)]
    fn xy(&self, c: u32) -> (i64, i64) {
        let (y, x) = self.div.div_rem(c as usize);
        (x as i64, y as i64)
    }

    /// [GRID.HEX.NEIGHBOURS] [GRID.HEX.OFFSETS] The six offsets of cell `(x, y)` in hex neighbour
    /// order: pointy-top layouts by row parity, flat-top by column parity; the even layouts use
    /// the odd layouts' lists the other way round.
    #[inline(always)]
    fn offsets(&self, x: i64, y: i64) -> &'static [(i64, i64); 6] {
        match self.layout {
            HexLayout::OddR if y & 1 == 0 => &ODD_R_EVEN,
            HexLayout::OddR => &ODD_R_ODD,
            HexLayout::EvenR if y & 1 == 0 => &ODD_R_ODD,
            HexLayout::EvenR => &ODD_R_EVEN,
            HexLayout::OddQ if x & 1 == 0 => &ODD_Q_EVEN,
            HexLayout::OddQ => &ODD_Q_ODD,
            HexLayout::EvenQ if x & 1 == 0 => &ODD_Q_ODD,
            HexLayout::EvenQ => &ODD_Q_EVEN,
        }
    }

    /// [GRID.HEX.OFFSETS] The neighbours of `c` inside the grid, in hex neighbour order ("a
    /// neighbour outside the grid does not exist"), walls included.
    pub(crate) fn neighbours(&self, c: u32, mut f: impl FnMut(u32)) {
        let (x, y) = self.xy(c);
        for &(dx, dy) in self.offsets(x, y) {
            let (vx, vy) = (x + dx, y + dy);
            if vx >= 0 && vy >= 0 && vx < self.w as i64 && vy < self.h as i64 {
                f((vy * self.w as i64 + vx) as u32);
            }
        }
    }

    /// [GRID.HEX.AXIAL] The axial `(q, r)` of `(x, y)` (exact integer halving).
    fn axial(&self, x: i64, y: i64) -> (i64, i64) {
        match self.layout {
            HexLayout::OddR => (x - (y - (y & 1)) / 2, y),
            HexLayout::EvenR => (x - (y + (y & 1)) / 2, y),
            HexLayout::OddQ => (x, y - (x - (x & 1)) / 2),
            HexLayout::EvenQ => (x, y - (x + (x & 1)) / 2),
        }
    }
}

impl Topo for Hex {
    /// [REPLAN.MOVE.HEX] [GRID.HEX.MOVE] [GRID.HEX.COST] Moves to the neighbours inside the grid
    /// when neither end is a wall, each with base cost 1.0.
    #[inline]
    fn moves(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize {
        if cells[u as usize] == WALL {
            return 0;
        }
        let mut n = 0;
        self.neighbours(u, |v| {
            if cells[v as usize] != WALL {
                out[n] = (v, 1.0);
                n += 1;
            }
        });
        n
    }

    fn moves_direct(&self, cells: &[u8], _cached: bool, u: u32, out: &mut Nbrs) -> usize {
        self.moves(cells, u, out)
    }

    /// [GRID.HEX.DISTANCE] `(|dq| + |dr| + |dq + dr|) / 2` over axial coordinates, as f64.
    fn distance(&self, a: u32, b: u32) -> f64 {
        let (xa, ya) = self.xy(a);
        let (xb, yb) = self.xy(b);
        let (qa, ra) = self.axial(xa, ya);
        let (qb, rb) = self.axial(xb, yb);
        let (dq, dr) = (qa - qb, ra - rb);
        ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as f64
    }

    /// [REPLAN.EDIT.CELLS] Plain: LPA* `c`, D* Lite the six hex neighbours of `c`; complemented:
    /// `c` and its six neighbours; ascending, those inside the grid.
    fn edit_cells(&self, e: i32, dstar: bool, out: &mut Vec<u32>) {
        out.clear();
        let c = entry_cell(e);
        if e < 0 || !dstar {
            out.push(c);
        }
        if e < 0 || dstar {
            self.neighbours(c, |v| out.push(v));
        }
        out.sort_unstable();
        out.dedup();
    }

    fn has_cache(&self) -> bool {
        false
    }

    fn rebuild(&mut self, _cells: &[u8]) {}

    fn patch(&mut self, _cells: &[u8], _entries: &[i32]) {}
}
