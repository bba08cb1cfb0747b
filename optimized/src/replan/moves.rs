//! The replanners' view of a grid's moves ([REPLAN.MOVE.SQUARE], [REPLAN.KEY.ESTIMATE],
//! [REPLAN.EDIT.CELLS]): the `Topo` trait the engine runs over and its square-grid form, with a
//! passability cache for agents larger than one cell that edits patch in place.

use super::hex::Hex;
use crate::cells::WALL;
use crate::grid_search::{Connectivity, DiagonalRule, Divisor, DX, DY, SQRT_2};

/// The allowed moves out of one cell: `(neighbour, base step cost)` in neighbour order.
pub(crate) type Nbrs = [(u32, f64); 8];

/// What the engine needs from a grid shape.
pub(crate) trait Topo {
    /// [REPLAN.MOVE.SQUARE] [REPLAN.MOVE.HEX] The neighbours of `u` (allowed moves `u -> v`) in
    /// neighbour order with their base step cost, read from `cells` (and the passability cache,
    /// which must be current); returns how many were written.
    fn moves(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize;
    /// [REPLAN.PATH.WALK] As `moves`, but when `cached` is false the cache may be stale and
    /// passability is read from `cells` alone.
    fn moves_direct(&self, cells: &[u8], cached: bool, u: u32, out: &mut Nbrs) -> usize;
    /// [REPLAN.KEY.ESTIMATE] The unscaled distance: octile `o` (square; `dx + dy` with
    /// connectivity `Four`) or the hex distance, as f64.
    fn distance(&self, a: u32, b: u32) -> f64;
    /// [REPLAN.EDIT.CELLS] The cells entry `e` updates, ascending, each once, inside the grid.
    fn edit_cells(&self, e: i32, dstar: bool, out: &mut Vec<u32>);
    /// Whether moves read a passability cache that must follow the grid.
    fn has_cache(&self) -> bool;
    /// Recomputes the whole cache from `cells`.
    fn rebuild(&mut self, cells: &[u8]);
    /// Brings the cache up to date after the edits `entries` (only `!cell` entries move walls).
    fn patch(&mut self, cells: &[u8], entries: &[i32]);
}

/// The cell an entry names ([REPLAN.EDIT.LISTEN]: `cell` or its complement).
#[inline]
pub(crate) fn entry_cell(e: i32) -> u32 {
    if e < 0 {
        !e as u32
    } else {
        e as u32
    }
}

/// A square grid's moves for one replanner's options.
pub(crate) struct Square {
    w: usize,
    h: usize,
    /// [GS.PASS] The agent size `k`.
    k: usize,
    four: bool,
    rule: DiagonalRule,
    div: Divisor,
    /// `k > 1`: per cell, the walkable run eastwards from it, capped at `k`.
    run: Vec<u8>,
    /// `k > 1`: per cell, 1 when the `k x k` square anchored at it lies inside and holds no wall
    /// (clearance `>= k`, [GS.CLEAR.VALUE]).
    pass: Vec<u8>,
}

impl Square {
    /// The moves of a `w x h` grid for agent size `k`, connectivity and corner rule.
    pub fn new(w: usize, h: usize, k: usize, conn: Connectivity, rule: DiagonalRule) -> Square {
        let big = k > 1;
        Square {
            w,
            h,
            k,
            four: conn == Connectivity::Four,
            rule,
            div: Divisor::new(w),
            run: if big { vec![0; w * h] } else { Vec::new() },
            pass: if big { vec![0; w * h] } else { Vec::new() },
        }
    }

    #[inline(always)]
    fn xy(&self, c: u32) -> (i64, i64) {
        let (y, x) = self.div.div_rem(c as usize);
        (x as i64, y as i64)
    }

    /// [GS.PASS] Passable by definition: the `k x k` square at `(x, y)` is inside and wall-free.
    fn pass_direct(&self, cells: &[u8], x: usize, y: usize) -> bool {
        if x + self.k > self.w || y + self.k > self.h {
            return false;
        }
        (y..y + self.k).all(|yy| {
            cells[yy * self.w + x..yy * self.w + x + self.k]
                .iter()
                .all(|&a| a != WALL)
        })
    }

    /// [REPLAN.MOVE.SQUARE] [GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL] The moves of `u` under the
    /// passability `pass(x, y)` (cells inside the grid only).
    #[inline(always)]
    fn moves_by(&self, u: u32, out: &mut Nbrs, pass: impl Fn(usize, usize) -> bool) -> usize {
        let (x, y) = self.xy(u);
        if !pass(x as usize, y as usize) {
            return 0;
        }
        let (w, h) = (self.w as i64, self.h as i64);
        let nd = if self.four { 4 } else { 8 };
        let mut n = 0;
        for d in 0..nd {
            let (vx, vy) = (x + DX[d] as i64, y + DY[d] as i64);
            if vx < 0 || vy < 0 || vx >= w || vy >= h || !pass(vx as usize, vy as usize) {
                continue;
            }
            let base = if d < 4 {
                1.0
            } else {
                let a = pass(vx as usize, y as usize);
                let b = pass(x as usize, vy as usize);
                let ok = match self.rule {
                    DiagonalRule::Always => true,
                    DiagonalRule::AtMostOneBlocked => a || b,
                    DiagonalRule::NoneBlocked => a && b,
                };
                if !ok {
                    continue;
                }
                SQRT_2
            };
            out[n] = ((vy * w + vx) as u32, base);
            n += 1;
        }
        n
    }

    /// Row `y`'s capped runs for `x` in `lo..=hi`, read from `cells`: a run at `x` depends on
    /// cells `x..x+k` only, so the scan starts at `hi + k - 1` and assumes a full run beyond it.
    fn patch_runs(&mut self, cells: &[u8], y: usize, lo: usize, hi: usize) {
        let (w, k) = (self.w, self.k);
        let x0 = (hi + k - 1).min(w - 1);
        let mut r = if x0 == w - 1 { 0 } else { k };
        for x in (lo..=x0).rev() {
            let i = y * w + x;
            r = if cells[i] == WALL { 0 } else { (r + 1).min(k) };
            if x <= hi {
                self.run[i] = r as u8;
            }
        }
    }

    /// Column `x`'s passability for `y` in `lo..=hi` from the runs (full runs on `k` rows).
    fn patch_pass(&mut self, x: usize, lo: usize, hi: usize) {
        let (w, h, k) = (self.w, self.h, self.k);
        let y0 = (hi + k - 1).min(h - 1);
        let mut v = if y0 == h - 1 { 0 } else { k };
        for y in (lo..=y0).rev() {
            let i = y * w + x;
            v = if self.run[i] as usize >= k {
                (v + 1).min(k)
            } else {
                0
            };
            if y <= hi {
                self.pass[i] = (v >= k) as u8;
            }
        }
    }
}

impl Topo for Square {
    #[inline]
    fn moves(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize {
        if self.k == 1 {
            let w = self.w;
            self.moves_by(u, out, |x, y| cells[y * w + x] != WALL)
        } else {
            let w = self.w;
            self.moves_by(u, out, |x, y| self.pass[y * w + x] != 0)
        }
    }

    fn moves_direct(&self, cells: &[u8], cached: bool, u: u32, out: &mut Nbrs) -> usize {
        if self.k == 1 || cached {
            self.moves(cells, u, out)
        } else {
            self.moves_by(u, out, |x, y| self.pass_direct(cells, x, y))
        }
    }

    /// [GS.EST.OCTILE] `(hi - lo) + lo * SQRT_2`, or `dx + dy` with connectivity `Four`.
    #[inline]
    fn distance(&self, a: u32, b: u32) -> f64 {
        let (xa, ya) = self.xy(a);
        let (xb, yb) = self.xy(b);
        let (dx, dy) = ((xa - xb).unsigned_abs(), (ya - yb).unsigned_abs());
        if self.four {
            return (dx + dy) as f64;
        }
        let (lo, hi) = if dx < dy { (dx, dy) } else { (dy, dx) };
        (hi - lo) as f64 + (lo as f64) * SQRT_2
    }

    /// [REPLAN.EDIT.CELLS] Plain `c`: LPA* `c`; D* Lite the eight cells around `c`. `!c`: the
    /// cells of `(x-k..=x+1, y-k..=y+1)`. Row-major, so ascending; clipped to the grid.
    fn edit_cells(&self, e: i32, dstar: bool, out: &mut Vec<u32>) {
        out.clear();
        let c = entry_cell(e);
        let (x, y) = self.xy(c);
        let (w, h) = (self.w as i64, self.h as i64);
        let (lo, hi) = if e >= 0 {
            if !dstar {
                out.push(c);
                return;
            }
            (1, 1)
        } else {
            (self.k as i64, 1)
        };
        for yy in (y - lo).max(0)..=(y + hi).min(h - 1) {
            for xx in (x - lo).max(0)..=(x + hi).min(w - 1) {
                if e >= 0 && xx == x && yy == y {
                    continue;
                }
                out.push((yy * w + xx) as u32);
            }
        }
    }

    fn has_cache(&self) -> bool {
        self.k > 1
    }

    fn rebuild(&mut self, cells: &[u8]) {
        if self.k == 1 {
            return;
        }
        for y in 0..self.h {
            self.patch_runs(cells, y, 0, self.w - 1);
        }
        for x in 0..self.w {
            self.patch_pass(x, 0, self.h - 1);
        }
    }

    /// Runs first for every wall edit, then passability, so that every passability value reads
    /// current runs (the result does not depend on the order of the entries).
    fn patch(&mut self, cells: &[u8], entries: &[i32]) {
        if self.k == 1 {
            return;
        }
        let k = self.k;
        for &e in entries.iter().filter(|&&e| e < 0) {
            let (x, y) = self.xy(entry_cell(e));
            let (x, y) = (x as usize, y as usize);
            self.patch_runs(cells, y, (x + 1).saturating_sub(k), x);
        }
        for &e in entries.iter().filter(|&&e| e < 0) {
            let (x, y) = self.xy(entry_cell(e));
            let (x, y) = (x as usize, y as usize);
            for xx in (x + 1).saturating_sub(k)..=x {
                self.patch_pass(xx, (y + 1).saturating_sub(k), y);
            }
        }
    }
}

/// The two grid shapes behind one engine.
pub(crate) enum Shape {
    Square(Square),
    Hex(Hex),
}

macro_rules! each {
    ($s:expr, $t:ident => $e:expr) => {
        match $s {
            Shape::Square($t) => $e,
            Shape::Hex($t) => $e,
        }
    };
}

impl Topo for Shape {
    #[inline]
    fn moves(&self, cells: &[u8], u: u32, out: &mut Nbrs) -> usize {
        each!(self, t => t.moves(cells, u, out))
    }
    fn moves_direct(&self, cells: &[u8], cached: bool, u: u32, out: &mut Nbrs) -> usize {
        each!(self, t => t.moves_direct(cells, cached, u, out))
    }
    #[inline]
    fn distance(&self, a: u32, b: u32) -> f64 {
        each!(self, t => t.distance(a, b))
    }
    fn edit_cells(&self, e: i32, dstar: bool, out: &mut Vec<u32>) {
        each!(self, t => t.edit_cells(e, dstar, out))
    }
    fn has_cache(&self) -> bool {
        each!(self, t => t.has_cache())
    }
    fn rebuild(&mut self, cells: &[u8]) {
        each!(self, t => t.rebuild(cells))
    }
    fn patch(&mut self, cells: &[u8], entries: &[i32]) {
        each!(self, t => t.patch(cells, entries))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plane::clearance_map;

    /// The cache equals clearance `>= k` after a rebuild and after random wall edits.
    #[test]
    #[allow(clippy::needless_range_loop)]
    fn cache_follows_clearance() {
        let mut x = 99u64;
        let mut next = |m: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        for _ in 0..60 {
            let (w, h) = (1 + next(12) as usize, 1 + next(12) as usize);
            let k = 2 + next(3) as usize;
            let mut cells: Vec<u8> = (0..w * h)
                .map(|_| if next(100) < 20 { WALL } else { 0 })
                .collect();
            let mut s = Square::new(w, h, k, Connectivity::Eight, DiagonalRule::Always);
            s.rebuild(&cells);
            for _ in 0..6 {
                let mut entries = Vec::new();
                for _ in 0..next(4) {
                    let c = next((w * h) as u64) as usize;
                    cells[c] = if cells[c] == WALL { 0 } else { WALL };
                    entries.push(!(c as i32));
                }
                s.patch(&cells, &entries);
                let cl = clearance_map(&cells, w, h);
                for i in 0..w * h {
                    assert_eq!(s.pass[i] != 0, cl[i] as usize >= k, "{w}x{h} k{k} cell {i}");
                    let (cx, cy) = (i % w, i / w);
                    assert_eq!(s.pass[i] != 0, s.pass_direct(&cells, cx, cy));
                }
            }
        }
    }
}
