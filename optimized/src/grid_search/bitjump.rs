//! Block scans for finder 0 of the specialised jump engine: [GS.JUMP.STRAIGHT] and
//! [GS.JUMP.DIAGONAL] over bit masks of the padded passability map, 64 cells a word.
//!
//! For each straight direction, a mask holds the cells where a straight scan stops: blocked
//! cells, and passable cells with a forced side ([GS.JUMP.FORCED]). East and west masks are
//! stored by rows, north and south masks by columns, so a scan is a search for the first set
//! bit past the start; the goal stop is checked against the found distance.

use super::ctx::{DX, DY};

/// The stop masks of a padded map (`pw x ph`, border cells impassable).
#[derive(Default)]
pub(crate) struct Bits {
    pw: usize,
    /// Words per row (east, west) and per column (north, south).
    wpr: usize,
    wpc: usize,
    /// Stop masks by direction index 0..4 (N, E, S, W).
    m: [Vec<u64>; 4],
}

impl Bits {
    /// Builds the masks of `pass` (1 = passable) with row length `pw`.
    pub fn build(pass: &[u8], pw: usize) -> Bits {
        let ph = pass.len() / pw;
        let wpr = pw.div_ceil(64);
        let wpc = ph.div_ceil(64);
        let mut b = Bits {
            pw,
            wpr,
            wpc,
            m: [
                vec![!0u64; pw * wpc],
                vec![!0u64; ph * wpr],
                vec![!0u64; pw * wpc],
                vec![!0u64; ph * wpr],
            ],
        };
        for y in 1..ph - 1 {
            for x in 1..pw - 1 {
                if pass[y * pw + x] != 0 {
                    b.set_cell(pass, x, y);
                }
            }
        }
        b
    }

    /// Sets the four stop bits of interior padded cell `(x, y)` from `pass`: a blocked cell
    /// stops every scan; a passable one the scans in which it has a forced side.
    fn set_cell(&mut self, pass: &[u8], x: usize, y: usize) {
        let pw = self.pw;
        let ok = |x: usize, y: usize| pass[y * pw + x] != 0;
        let open = ok(x, y);
        for d in 0..4 {
            let (dx, dy) = (DX[d] as isize, DY[d] as isize);
            // [GS.JUMP.FORCED]: side s of n moving (dx, dy) is forced when
            // dx != 0: (x, y + s) passable and (x - dx, y + s) blocked;
            // dy != 0: (x + s, y) passable and (x + s, y - dy) blocked.
            let mut forced = false;
            for s in [-1isize, 1] {
                let (ax, ay, bx, by) = if dx != 0 {
                    (x as isize, y as isize + s, x as isize - dx, y as isize + s)
                } else {
                    (x as isize + s, y as isize, x as isize + s, y as isize - dy)
                };
                forced |= ok(ax as usize, ay as usize) && !ok(bx as usize, by as usize);
            }
            let (word, bit) = if dx != 0 {
                (y * self.wpr + x / 64, x % 64)
            } else {
                (x * self.wpc + y / 64, y % 64)
            };
            if !open || forced {
                self.m[d][word] |= 1u64 << bit;
            } else {
                self.m[d][word] &= !(1u64 << bit);
            }
        }
    }

    /// Brings the masks up to date after padded cell `e` of `pass` changed between passable
    /// and blocked (`pass` already holds the new value): a cell's bits read only the cells
    /// around it, so the 3 x 3 interior cells centred on `e` are set again.
    pub fn repair(&mut self, pass: &[u8], e: usize) {
        let (pw, ph) = (self.pw, pass.len() / self.pw);
        let (ex, ey) = (e % pw, e / pw);
        for y in ey.saturating_sub(1).max(1)..=(ey + 1).min(ph - 2) {
            for x in ex.saturating_sub(1).max(1)..=(ex + 1).min(pw - 2) {
                self.set_cell(pass, x, y);
            }
        }
    }

    /// The first stop at index `> from` in the line at word `base` of mask `d` (forward).
    #[inline(always)]
    fn forward(&self, d: usize, base: usize, from: usize) -> usize {
        let m = &self.m[d];
        let b = from + 1;
        let mut i = b / 64;
        let mut w = m[base + i] & (!0u64 << (b % 64));
        while w == 0 {
            i += 1;
            w = m[base + i];
        }
        i * 64 + w.trailing_zeros() as usize
    }

    /// The last stop at index `< from` in the line at word `base` of mask `d` (backward).
    #[inline(always)]
    fn backward(&self, d: usize, base: usize, from: usize) -> usize {
        let m = &self.m[d];
        let b = from - 1;
        let mut i = b / 64;
        let mut w = m[base + i] & (!0u64 >> (63 - b % 64));
        while w == 0 {
            i -= 1;
            w = m[base + i];
        }
        i * 64 + 63 - w.leading_zeros() as usize
    }

    /// [GS.JUMP.STRAIGHT] From padded `(x, y)` in straight direction `d` towards the padded
    /// goal `(gx, gy)`: the stop's index along the line (x for E/W, y for N/S), or `None`.
    #[inline(always)]
    pub fn straight(
        &self,
        pass: &[u8],
        x: usize,
        y: usize,
        d: usize,
        gx: usize,
        gy: usize,
    ) -> Option<usize> {
        let (t, g) = match d {
            1 => {
                let t = self.forward(1, y * self.wpr, x);
                (t, (gy == y && gx > x && gx <= t).then_some(gx))
            }
            3 => {
                let t = self.backward(3, y * self.wpr, x);
                (t, (gy == y && gx < x && gx >= t).then_some(gx))
            }
            2 => {
                let t = self.forward(2, x * self.wpc, y);
                (t, (gx == x && gy > y && gy <= t).then_some(gy))
            }
            _ => {
                let t = self.backward(0, x * self.wpc, y);
                (t, (gx == x && gy < y && gy >= t).then_some(gy))
            }
        };
        if g.is_some() {
            return g;
        }
        let p = if d == 1 || d == 3 {
            y * self.pw + t
        } else {
            t * self.pw + x
        };
        (pass[p] != 0).then_some(t)
    }

    /// [GS.JUMP.STRAIGHT] [GS.JUMP.DIAGONAL] `jump(c, d)` from padded `c` at padded `(x, y)`
    /// towards the padded goal `goal` at `(gx, gy)`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn jump(
        &self,
        pass: &[u8],
        c: usize,
        (x, y): (usize, usize),
        d: usize,
        goal: usize,
        (gx, gy): (usize, usize),
    ) -> Option<usize> {
        let pw = self.pw;
        if d < 4 {
            let t = self.straight(pass, x, y, d, gx, gy)?;
            return Some(if d == 1 || d == 3 {
                y * pw + t
            } else {
                t * pw + x
            });
        }
        let (dx, dy) = (DX[d] as isize, DY[d] as isize);
        let (hx, vy) = (if dx > 0 { 1 } else { 3 }, if dy > 0 { 2 } else { 0 });
        let sx = dx;
        let sy = dy * pw as isize;
        let (mut n, mut x, mut y) = (c, x, y);
        loop {
            if !(pass[n.wrapping_add_signed(sx + sy)] != 0
                && pass[n.wrapping_add_signed(sx)] != 0
                && pass[n.wrapping_add_signed(sy)] != 0)
            {
                return None;
            }
            n = n.wrapping_add_signed(sx + sy);
            x = x.wrapping_add_signed(dx);
            y = y.wrapping_add_signed(dy);
            if n == goal
                || self.straight(pass, x, y, hx, gx, gy).is_some()
                || self.straight(pass, x, y, vy, gx, gy).is_some()
            {
                return Some(n);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid_search::jump::Jumper;

    /// Masks repaired after each wall edit equal masks built afresh from the edited map, word
    /// for word, on random maps (some wider and taller than a word).
    #[test]
    fn repaired_bits_equal_a_fresh_build() {
        let mut next = super::super::test_lcg(13u64);
        for round in 0..30 {
            let (w, h) = if round % 3 == 2 {
                (60 + next(80) as usize, 60 + next(80) as usize)
            } else {
                (1 + next(12) as usize, 1 + next(12) as usize)
            };
            let pw = w + 2;
            let mut pass = vec![0u8; pw * (h + 2)];
            for y in 0..h {
                for x in 0..w {
                    pass[(y + 1) * pw + x + 1] = (next(100) >= 25) as u8;
                }
            }
            let mut b = Bits::build(&pass, pw);
            for k in 0..40 {
                let (x, y) = (1 + next(w as u64) as usize, 1 + next(h as u64) as usize);
                let e = y * pw + x;
                pass[e] ^= 1;
                b.repair(&pass, e);
                let fresh = Bits::build(&pass, pw);
                for d in 0..4 {
                    assert!(
                        b.m[d] == fresh.m[d],
                        "{w}x{h} edit {k} at {e}: direction {d}"
                    );
                }
            }
        }
    }

    /// Block scans equal the cell-by-cell jumps of [GS.JUMP.STRAIGHT] and [GS.JUMP.DIAGONAL]
    /// for every cell, direction and goal of random maps (some wider than a word).
    #[test]
    fn bits_equal_cell_by_cell_jumps() {
        let mut next = super::super::test_lcg(7u64);
        for round in 0..24 {
            let big = round % 4 == 3;
            let (w, h) = if big {
                (60 + next(80) as usize, 60 + next(80) as usize)
            } else {
                (1 + next(10) as usize, 1 + next(10) as usize)
            };
            let pw = w + 2;
            let mut pass = vec![0u8; pw * (h + 2)];
            let pct = [10, 25, 40][round % 3];
            for y in 0..h {
                for x in 0..w {
                    pass[(y + 1) * pw + x + 1] = (next(100) >= pct) as u8;
                }
            }
            let b = Bits::build(&pass, pw);
            let goals: Vec<usize> = if big {
                (0..40).map(|_| next(pass.len() as u64) as usize).collect()
            } else {
                (0..pass.len()).collect()
            };
            for g in goals {
                if pass[g] == 0 {
                    continue;
                }
                let j = Jumper {
                    pass: &pass,
                    pw: pw as isize,
                    goal: g,
                };
                for c in 0..pass.len() {
                    if pass[c] == 0 {
                        continue;
                    }
                    for d in 0..8 {
                        assert_eq!(
                            b.jump(&pass, c, (c % pw, c / pw), d, g, (g % pw, g / pw)),
                            j.jump(c, d),
                            "{w}x{h} c {c} d {d} goal {g}"
                        );
                    }
                }
            }
        }
    }
}
