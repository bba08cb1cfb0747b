//! The flow fields' view of a grid's geometry: the moves and their base costs ([FLOW.MOVE],
//! reusing the replanners' square and hex move code, [REPLAN.MOVE.SQUARE], [REPLAN.MOVE.HEX]),
//! the geometric neighbours of the invalidation walk and the direction pass
//! ([FLOW.MOVE.AROUND]) and the region of an edited cell ([FLOW.REPAIR.REGION]).

use crate::cells::WALL;
use crate::grid_search::{Connectivity, DiagonalRule, Divisor, DX, DY, SQRT_2};
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
    four: bool,
    rule: DiagonalRule,
    div: Divisor,
}

impl SquareShape {
    /// The geometry of a `w x h` grid for agent size `k`, connectivity and corner rule.
    pub fn new(w: usize, h: usize, k: usize, conn: Connectivity, rule: DiagonalRule) -> Self {
        SquareShape {
            m: Square::new(w, h, k, conn, rule),
            w,
            h,
            k,
            four: conn == Connectivity::Four,
            rule,
            div: Divisor::new(w),
        }
    }

    /// [REPLAN.MOVE.SQUARE] [GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL] The moves of a one-cell agent,
    /// written out (passable = inside and not a wall): the straight moves N, E, S, W, then the
    /// diagonals NE, SE, SW, NW, each needing its corner cells `(x + dx, y)` and `(x, y + dy)` by
    /// the rule. The same list as the replanners' `Square::moves`, without the per-direction
    /// closure calls.
    #[inline(always)]
    fn moves_one(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize {
        let i = u as usize;
        if cells[i] == WALL {
            return 0;
        }
        let (y, x) = self.div.div_rem(i);
        let w = self.w;
        let (hn, hs, hw, he) = (y > 0, y + 1 < self.h, x > 0, x + 1 < w);
        let pn = hn && cells[i - w] != WALL;
        let pe = he && cells[i + 1] != WALL;
        let ps = hs && cells[i + w] != WALL;
        let pw = hw && cells[i - 1] != WALL;
        let mut n = 0;
        macro_rules! push {
            ($ok:expr, $v:expr, $base:expr) => {
                if $ok {
                    out[n] = ($v as u32, $base);
                    n += 1;
                }
            };
        }
        push!(pn, i.wrapping_sub(w), 1.0);
        push!(pe, i + 1, 1.0);
        push!(ps, i + w, 1.0);
        push!(pw, i.wrapping_sub(1), 1.0);
        if self.four {
            return n;
        }
        let rule = |a: bool, b: bool| match self.rule {
            DiagonalRule::Always => true,
            DiagonalRule::AtMostOneBlocked => a || b,
            DiagonalRule::NoneBlocked => a && b,
        };
        let ne = hn && he && cells[i - w + 1] != WALL && rule(pe, pn);
        push!(ne, i.wrapping_sub(w) + 1, SQRT_2);
        let se = hs && he && cells[i + w + 1] != WALL && rule(pe, ps);
        push!(se, i + w + 1, SQRT_2);
        let sw = hs && hw && cells[i + w - 1] != WALL && rule(pw, ps);
        push!(sw, (i + w).wrapping_sub(1), SQRT_2);
        let nw = hn && hw && cells[i - w - 1] != WALL && rule(pw, pn);
        push!(nw, i.wrapping_sub(w + 1), SQRT_2);
        n
    }
}

impl FlowTopo for SquareShape {
    #[inline(always)]
    fn moves(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize {
        if self.k == 1 {
            self.moves_one(cells, u, out)
        } else {
            self.m.moves(cells, u, out)
        }
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
