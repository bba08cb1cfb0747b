//! Passability, moves, costs, estimates and line of sight of spec/grid-search.md §2, §3 and
//! [GS.LOS], over a padded passability map shared with the grid's cache ([`super::cache`]).

use super::cache::AreaTable;
use super::options::{validate, Connectivity, DiagonalRule, GridOptions, GridSearchError, GsKind};
use crate::plane::{clearance_map, Grid};
use std::sync::Arc;

/// [GS.COST.BASE] The f64 nearest √2.
pub(crate) const SQRT_2: f64 = std::f64::consts::SQRT_2;
/// [GS.DIR] x steps of N, E, S, W, NE, SE, SW, NW.
pub(crate) const DX: [i32; 8] = [0, 1, 0, -1, 1, 1, -1, -1];
/// [GS.DIR] y steps of N, E, S, W, NE, SE, SW, NW.
pub(crate) const DY: [i32; 8] = [-1, 0, 1, 0, -1, 1, 1, -1];
/// Marker of "no cell" in padded indexes.
pub(crate) const NONE: u32 = u32::MAX;

/// [GS.DIR] The neighbour-order index of direction `(dx, dy)` (both in `-1..=1`, not both 0).
pub(crate) fn dir_index(dx: i32, dy: i32) -> usize {
    match (dx, dy) {
        (0, -1) => 0,
        (1, 0) => 1,
        (0, 1) => 2,
        (-1, 0) => 3,
        (1, -1) => 4,
        (1, 1) => 5,
        (-1, 1) => 6,
        _ => 7,
    }
}

/// [GS.COST.PAIR] `(a1, b1) < (a2, b2)` as real numbers `a + b√2`, exactly.
#[inline]
pub(crate) fn pair_less(a1: u32, b1: u32, a2: u32, b2: u32) -> bool {
    let p = a1 as i64 - a2 as i64;
    let q = b2 as i64 - b1 as i64;
    if (p < 0 && q >= 0) || (p <= 0 && q > 0) {
        true
    } else if p >= 0 && q <= 0 {
        false
    } else if p > 0 {
        (p as i128) * (p as i128) < 2 * (q as i128) * (q as i128)
    } else {
        (p as i128) * (p as i128) > 2 * (q as i128) * (q as i128)
    }
}

/// [GS.COST.PAIR] A pair's f64 value `a + b * SQRT_2`.
#[inline(always)]
pub(crate) fn pair_f64(a: u32, b: u32) -> f64 {
    a as f64 + (b as f64) * SQRT_2
}

/// [GS.EST.OCTILE] The octile pair `(hi - lo, lo)` of the offsets `dx`, `dy`.
#[inline(always)]
pub(crate) fn octile_pair(dx: u32, dy: u32) -> (u32, u32) {
    let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
    (hi - lo, lo)
}

/// Division of indexes below `2^32` by a fixed divisor without a divide instruction (the
/// multiply-high method of Lemire, Kaser and Kurz, "Faster remainder by direct computation",
/// 2019: `n / d = (ceil(2^64 / d) * n) >> 64` for all 32-bit `n` and `2 <= d < 2^32`).
/// Grid and padded indexes are below `2^28` ([GRID.SQUARE.SIZE]).
#[derive(Clone, Copy)]
pub(crate) struct Divisor {
    d: u64,
    /// `ceil(2^64 / d)`; 0 for `d = 1`.
    m: u64,
}

impl Divisor {
    pub fn new(d: usize) -> Divisor {
        debug_assert!((1..1 << 32).contains(&d));
        let d = d as u64;
        Divisor {
            d,
            m: if d == 1 { 0 } else { u64::MAX / d + 1 },
        }
    }

    /// `(n / d, n % d)` for `n < 2^32`.
    #[inline(always)]
    pub fn div_rem(self, n: usize) -> (usize, usize) {
        debug_assert!(n < 1 << 32);
        if self.m == 0 {
            return (n, 0);
        }
        let q = ((self.m as u128 * n as u128) >> 64) as u64;
        (q as usize, (n as u64 - q * self.d) as usize)
    }
}

/// The search context: options, sizes, the padded passability map and the area table.
pub(crate) struct Ctx<'g> {
    pub grid: &'g Grid,
    pub opts: GridOptions,
    pub w: usize,
    pub h: usize,
    pub n: usize,
    /// Padded row length `w + 2`.
    pub pw: usize,
    /// Division by `w` and by `pw` (index to coordinates).
    div_w: Divisor,
    div_pw: Divisor,
    /// [GS.PASS] Padded passability without the `blocked` hook (clearance >= agent size).
    /// Shared with the grid's cache ([`super::cache`]).
    base: Arc<Vec<u8>>,
    /// [GS.PASS] Padded passability (`base` and not `blocked`); the cache's own `base` without
    /// a hook (a private copy with one).
    pub pass: Arc<Vec<u8>>,
    /// Padded index offsets of the eight directions.
    pub off: [isize; 8],
    /// [GRID.AREA.TABLE] Multiplier by area (255: unused); shared with the grid's cache.
    pub mult: Arc<[f64; 256]>,
    /// [GS.EST.SCALE] Smallest multiplier of areas 0..=254.
    pub mmin: f64,
    /// [GS.COST.UNIFORM] Every multiplier exactly 1.0.
    pub uniform: bool,
    /// Directions tried: 4 or 8.
    pub nd: usize,
}

impl<'g> Ctx<'g> {
    /// [GS.OPT.VALID] Validates the options and builds the passability map ([GS.PASS]).
    pub fn new(grid: &'g Grid, opts: GridOptions) -> Result<Self, GridSearchError> {
        validate(&opts)?;
        let (w, h) = (grid.width(), grid.height());
        let pw = w + 2;
        let base = grid.derived().base(opts.agent_size, || {
            let mut base = vec![0u8; pw * (h + 2)];
            let cells = grid.cells();
            if opts.agent_size <= 1 {
                for y in 0..h {
                    for x in 0..w {
                        base[(y + 1) * pw + x + 1] = (cells[y * w + x] != crate::WALL) as u8;
                    }
                }
            } else {
                let c = clearance_map(cells, w, h);
                for y in 0..h {
                    for x in 0..w {
                        base[(y + 1) * pw + x + 1] = (c[y * w + x] as u32 >= opts.agent_size) as u8;
                    }
                }
            }
            base
        });
        let AreaTable {
            mult,
            mmin,
            uniform,
        } = grid.derived().area_table(|| {
            let mut mult = [1.0f64; 256];
            let mut mmin = f64::INFINITY;
            let mut uniform = true;
            for a in 0..255u8 {
                let m = grid.area_multiplier(a).unwrap_or(1.0);
                mult[a as usize] = m;
                if m < mmin {
                    mmin = m;
                }
                if m != 1.0 {
                    uniform = false;
                }
            }
            AreaTable {
                mult: Arc::new(mult),
                mmin,
                uniform,
            }
        });
        let pwi = pw as isize;
        let mut off = [0isize; 8];
        for d in 0..8 {
            off[d] = DY[d] as isize * pwi + DX[d] as isize;
        }
        let nd = if opts.connectivity == Connectivity::Four {
            4
        } else {
            8
        };
        let pass = if opts.blocked.is_some() {
            Arc::new(base.to_vec())
        } else {
            base.clone()
        };
        let c = Ctx {
            grid,
            opts,
            w,
            h,
            n: w * h,
            pw,
            div_w: Divisor::new(w),
            div_pw: Divisor::new(pw),
            base,
            pass,
            off,
            mult,
            mmin,
            uniform,
            nd,
        };
        Ok(c)
    }

    /// [GS.OPT.HOOKS] [GS.PASS] Re-asks the `blocked` hook for every cell (at `begin` and
    /// restore; hooks are pure for the length of a search).
    pub fn refresh(&mut self) {
        if let Some(b) = self.opts.blocked.clone() {
            let pass = Arc::make_mut(&mut self.pass);
            for y in 0..self.h {
                for x in 0..self.w {
                    let p = (y + 1) * self.pw + x + 1;
                    pass[p] = (self.base[p] != 0 && !b((y * self.w + x) as u32)) as u8;
                }
            }
        }
    }

    /// Padded index of cell `c`.
    #[inline(always)]
    pub fn pad(&self, c: u32) -> usize {
        let (y, x) = self.div_w.div_rem(c as usize);
        (y + 1) * self.pw + x + 1
    }

    /// Cell index of padded index `p`.
    #[inline(always)]
    pub fn cell(&self, p: usize) -> u32 {
        let (y, x) = self.div_pw.div_rem(p);
        ((y - 1) * self.w + x - 1) as u32
    }

    /// `(x, y)` of padded index `p`.
    #[inline(always)]
    pub fn pxy(&self, p: usize) -> (u32, u32) {
        let (y, x) = self.div_pw.div_rem(p);
        ((x - 1) as u32, (y - 1) as u32)
    }

    /// `(x, y)` of cell `c`.
    #[inline(always)]
    pub fn xy(&self, c: u32) -> (u32, u32) {
        let (y, x) = self.div_w.div_rem(c as usize);
        (x as u32, y as u32)
    }

    /// [GS.PASS] Whether cell `c` is passable.
    #[inline(always)]
    pub fn passable(&self, c: u32) -> bool {
        (c as usize) < self.n && self.pass[self.pad(c)] != 0
    }

    /// [GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL] Whether the move from padded `p` in direction `d`
    /// is allowed (`d >= 4` only asked with connectivity `Eight`).
    #[inline(always)]
    pub fn allowed(&self, p: usize, d: usize) -> bool {
        let q = p.wrapping_add_signed(self.off[d]);
        if self.pass[q] == 0 {
            return false;
        }
        if d < 4 {
            return true;
        }
        let a = self.pass[p.wrapping_add_signed(DX[d] as isize)] != 0;
        let b = self.pass[p.wrapping_add_signed(DY[d] as isize * self.pw as isize)] != 0;
        match self.opts.diagonal {
            DiagonalRule::Always => true,
            DiagonalRule::AtMostOneBlocked => a || b,
            DiagonalRule::NoneBlocked => a && b,
        }
    }

    /// [GS.ASTAR.BEGIN] Checks `start` then `goal` (x before y) and returns their cell indexes.
    pub fn cells_of(
        &self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(u32, u32), GridSearchError> {
        let mut out = [0u32; 2];
        for (k, (which, (x, y))) in [("start", start), ("goal", goal)].into_iter().enumerate() {
            if x >= self.w {
                return Err(GridSearchError::new(GsKind::CellOutOfRange {
                    which,
                    axis: 'x',
                    value: x,
                    size: self.w,
                }));
            }
            if y >= self.h {
                return Err(GridSearchError::new(GsKind::CellOutOfRange {
                    which,
                    axis: 'y',
                    value: y,
                    size: self.h,
                }));
            }
            out[k] = (y * self.w + x) as u32;
        }
        Ok((out[0], out[1]))
    }

    /// Absolute offsets `(dx, dy)` of cells `u`, `v`.
    #[inline(always)]
    pub fn delta(&self, u: u32, v: u32) -> (u32, u32) {
        let (xu, yu) = self.xy(u);
        let (xv, yv) = self.xy(v);
        (xu.abs_diff(xv), yu.abs_diff(yv))
    }

    /// [GS.EST.OCTILE] The octile f64 value `o` of cells `u`, `v` (Manhattan with `Four`).
    #[inline(always)]
    pub fn octile(&self, u: u32, v: u32) -> f64 {
        let (dx, dy) = self.delta(u, v);
        if self.nd == 4 {
            return (dx + dy) as f64;
        }
        let (a, b) = octile_pair(dx, dy);
        pair_f64(a, b)
    }

    /// [GS.EST.EUCLID] `sqrt((dx*dx + dy*dy) as f64)` with an exact integer sum.
    #[inline(always)]
    pub fn euclid(&self, u: u32, v: u32) -> f64 {
        let (dx, dy) = self.delta(u, v);
        ((dx as u64 * dx as u64 + dy as u64 * dy as u64) as f64).sqrt()
    }

    /// [GS.LOS] Whether cells `p` and `q` are in line of sight: every cell whose closed square
    /// meets the closed segment between their centres is passable. Walks the columns the
    /// segment spans; in each, the cells meeting the part of the segment over that column's
    /// closed x-range (exact integer arithmetic in doubled coordinates).
    pub fn los(&self, p: u32, q: u32) -> bool {
        let (mut x0, mut y0) = self.xy(p);
        let (mut x1, mut y1) = self.xy(q);
        if x0 > x1 {
            std::mem::swap(&mut x0, &mut x1);
            std::mem::swap(&mut y0, &mut y1);
        }
        let ok = |x: i64, y: i64| self.pass[(y as usize + 1) * self.pw + x as usize + 1] != 0;
        let (gx0, gy0) = (2 * x0 as i64 + 1, 2 * y0 as i64 + 1);
        let (gx1, gy1) = (2 * x1 as i64 + 1, 2 * y1 as i64 + 1);
        let ddx = gx1 - gx0;
        let ddy = gy1 - gy0;
        if ddx == 0 {
            let (lo, hi) = (y0.min(y1), y0.max(y1));
            return (lo..=hi).all(|y| ok(x0 as i64, y as i64));
        }
        for x in x0 as i64..=x1 as i64 {
            let a = (2 * x).max(gx0);
            let b = (2 * x + 2).min(gx1);
            // y(t) * ddx = gy0 * ddx + ddy * (t - gx0), all >= 0.
            let na = gy0 * ddx + ddy * (a - gx0);
            let nb = gy0 * ddx + ddy * (b - gx0);
            let (mn, mx) = (na.min(nb), na.max(nb));
            let den = 2 * ddx;
            // Cells with (2y + 2) * ddx >= mn and 2y * ddx <= mx.
            let ylo = (mn + den - 1) / den - 1;
            let yhi = mx / den;
            let ylo = ylo.max(y0.min(y1) as i64);
            let yhi = yhi.min(y0.max(y1) as i64);
            for y in ylo..=yhi {
                if !ok(x, y) {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [GS.LOS] The clause's own rule: every cell whose square's bounding box overlaps the
    /// segment's and whose four corners are not all strictly on one side must be passable.
    fn los_brute(
        pass: &dyn Fn(i64, i64) -> bool,
        w: i64,
        h: i64,
        p: (i64, i64),
        q: (i64, i64),
    ) -> bool {
        let (ax, ay, bx, by) = (2 * p.0 + 1, 2 * p.1 + 1, 2 * q.0 + 1, 2 * q.1 + 1);
        for y in 0..h {
            for x in 0..w {
                let (x0, x1, y0, y1) = (2 * x, 2 * x + 2, 2 * y, 2 * y + 2);
                if x1 < ax.min(bx) || x0 > ax.max(bx) || y1 < ay.min(by) || y0 > ay.max(by) {
                    continue;
                }
                let side =
                    |cx: i64, cy: i64| ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)).signum();
                let s = [side(x0, y0), side(x1, y0), side(x0, y1), side(x1, y1)];
                if s.iter().all(|&v| v > 0) || s.iter().all(|&v| v < 0) {
                    continue;
                }
                if !pass(x, y) {
                    return false;
                }
            }
        }
        true
    }

    #[test]
    fn los_matches_the_clause() {
        let mut next = super::super::test_lcg(11u64);
        for _ in 0..40 {
            let (w, h) = (1 + next(9) as usize, 1 + next(9) as usize);
            let mut g = Grid::new(w, h).unwrap();
            for y in 0..h {
                for x in 0..w {
                    if next(100) < 15 {
                        g.set_cell(x, y, crate::WALL).unwrap();
                    }
                }
            }
            let ctx = Ctx::new(&g, GridOptions::default()).unwrap();
            let pass = |x: i64, y: i64| g.cell(x as usize, y as usize).unwrap() != crate::WALL;
            for p in 0..(w * h) as u32 {
                for q in 0..(w * h) as u32 {
                    let (px, py) = ctx.xy(p);
                    let (qx, qy) = ctx.xy(q);
                    let want = los_brute(
                        &pass,
                        w as i64,
                        h as i64,
                        (px as i64, py as i64),
                        (qx as i64, qy as i64),
                    );
                    assert_eq!(ctx.los(p, q), want, "{w}x{h} {p} {q}");
                }
            }
        }
    }

    #[test]
    fn pair_less_matches_f64_when_far_apart() {
        for a1 in 0..30u32 {
            for b1 in 0..30u32 {
                for (a2, b2) in [(0u32, 0u32), (7, 5), (12, 1), (3, 20), (29, 29)] {
                    let exact = pair_less(a1, b1, a2, b2);
                    // sqrt(2) to 30 digits vs the pair: (a1 - a2) < (b2 - b1) * 1.41421356237309504880
                    let l = (a1 as f64 - a2 as f64) * 1e20;
                    let r = (b2 as f64 - b1 as f64) * 141421356237309504880.0;
                    assert_eq!(exact, l < r, "{a1},{b1} vs {a2},{b2}");
                }
            }
        }
    }
}

#[cfg(test)]
mod divisor_tests {
    use super::Divisor;

    #[test]
    fn divides_like_the_instruction() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for d in (1..=300usize).chain([1 << 13, (1 << 26) + 2, (1 << 31) + 11, u32::MAX as usize]) {
            let div = Divisor::new(d);
            for n in [0usize, 1, d - 1, d, d + 1, (1 << 28) - 1, u32::MAX as usize] {
                assert_eq!(div.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let n = (x as u32) as usize;
                assert_eq!(div.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }
}
