//! The flow fields' view of a grid's geometry: the moves and their base costs ([FLOW.MOVE],
//! reusing the replanners' square and hex move code, [REPLAN.MOVE.SQUARE], [REPLAN.MOVE.HEX]),
//! the geometric neighbours of the invalidation walk and the direction pass
//! ([FLOW.MOVE.AROUND]) and the region of an edited cell ([FLOW.REPAIR.REGION]).

use crate::grid_search::{Connectivity, DiagonalRule, DX, DY};
use crate::replan::hex::Hex;
use crate::replan::moves::{Nbrs, Square, Topo};
use crate::HexLayout;

/// What a flow field needs from a grid shape.
pub(crate) trait FlowTopo {
    /// [FLOW.MOVE] [REPLAN.MOVE.SQUARE] [REPLAN.MOVE.HEX] The neighbours of `u` (allowed moves
    /// `u -> v`, in neighbour order) with their base step cost; returns how many were written.
    /// The passability cache (agents above one cell) must be current.
    fn moves(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize;
    /// [FLOW.MOVE.AROUND] The geometric neighbours of `c` inside the grid, walls included, in
    /// [GS.DIR] order (square: all eight) or hex neighbour order; returns how many.
    fn around(&self, c: u32, out: &mut [u32; 8]) -> usize;
    /// [FLOW.REPAIR.REGION] The region of an edit of `c`, in increasing index, into `out`
    /// (cleared first).
    fn region(&self, c: u32, out: &mut Vec<u32>);
    /// Whether moves read a passability cache that must follow the grid.
    fn has_cache(&self) -> bool;
    /// Recomputes the whole cache from `cells`.
    fn rebuild(&mut self, cells: &[u8]);
    /// Brings the cache up to date after the cells of `entries` (complemented) changed.
    fn patch(&mut self, cells: &[u8], entries: &[i32]);
}

/// A square grid's flow-field geometry for one field's options.
pub(crate) struct SquareShape {
    m: Square,
    w: usize,
    h: usize,
    k: usize,
}

impl SquareShape {
    /// The geometry of a `w x h` grid for agent size `k`, connectivity and corner rule.
    pub fn new(w: usize, h: usize, k: usize, conn: Connectivity, rule: DiagonalRule) -> Self {
        SquareShape {
            m: Square::new(w, h, k, conn, rule),
            w,
            h,
            k,
        }
    }
}

impl FlowTopo for SquareShape {
    #[inline(always)]
    fn moves(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize {
        self.m.moves(cells, u, out)
    }

    #[inline]
    fn around(&self, c: u32, out: &mut [u32; 8]) -> usize {
        let (x, y) = ((c as usize % self.w) as i64, (c as usize / self.w) as i64);
        let (w, h) = (self.w as i64, self.h as i64);
        let mut n = 0;
        for d in 0..8 {
            let (vx, vy) = (x + DX[d] as i64, y + DY[d] as i64);
            if vx >= 0 && vy >= 0 && vx < w && vy < h {
                out[n] = (vy * w + vx) as u32;
                n += 1;
            }
        }
        n
    }

    /// [FLOW.REPAIR.REGION] `(x-k..=x+1, y-k..=y+1)` clipped to the grid, row-major (so
    /// increasing).
    fn region(&self, c: u32, out: &mut Vec<u32>) {
        out.clear();
        let (x, y) = ((c as usize % self.w) as i64, (c as usize / self.w) as i64);
        let (w, h, k) = (self.w as i64, self.h as i64, self.k as i64);
        for yy in (y - k).max(0)..=(y + 1).min(h - 1) {
            for xx in (x - k).max(0)..=(x + 1).min(w - 1) {
                out.push((yy * w + xx) as u32);
            }
        }
    }

    fn has_cache(&self) -> bool {
        self.m.has_cache()
    }

    fn rebuild(&mut self, cells: &[u8]) {
        self.m.rebuild(cells);
    }

    fn patch(&mut self, cells: &[u8], entries: &[i32]) {
        self.m.patch(cells, entries);
    }
}

/// A hex grid's flow-field geometry.
pub(crate) struct HexShape {
    m: Hex,
}

impl HexShape {
    /// The geometry of a `w x h` hex grid in `layout`.
    pub fn new(w: usize, h: usize, layout: HexLayout) -> Self {
        HexShape {
            m: Hex::new(w, h, layout),
        }
    }
}

impl FlowTopo for HexShape {
    #[inline(always)]
    fn moves(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize {
        self.m.moves(cells, u, out)
    }

    #[inline]
    fn around(&self, c: u32, out: &mut [u32; 8]) -> usize {
        let mut n = 0;
        self.m.neighbours(c, |v| {
            out[n] = v;
            n += 1;
        });
        n
    }

    /// [FLOW.REPAIR.REGION] The cell and its six neighbours inside the grid, increasing.
    fn region(&self, c: u32, out: &mut Vec<u32>) {
        out.clear();
        out.push(c);
        self.m.neighbours(c, |v| out.push(v));
        out.sort_unstable();
    }

    fn has_cache(&self) -> bool {
        false
    }

    fn rebuild(&mut self, _cells: &[u8]) {}

    fn patch(&mut self, _cells: &[u8], _entries: &[i32]) {}
}
