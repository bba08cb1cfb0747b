//! JPS+ tables for finder 1 of the specialised jump engine ([GS.JUMP.TABLES]): per padded cell
//! and direction, the goal-independent distance to the next jump point (positive) or minus the
//! number of steps before a wall (no jump point). Goal stops are derived from them so the result
//! is exactly [GS.JUMP.STRAIGHT] / [GS.JUMP.DIAGONAL].

use super::ctx::{DX, DY};
use super::jump::Jumper;

/// The distance tables, `t[p * 8 + d]`: 16-bit when every distance fits (padded sides below
/// `2^15`), else 32-bit.
#[derive(Default)]
pub(crate) struct Tables {
    t: Vec<i32>,
    t16: Vec<i16>,
    pw: usize,
}

impl Tables {
    /// One entry of padded cell `c`'s row (a read ahead of its use).
    #[inline(always)]
    pub fn touch(&self, c: usize) -> i32 {
        self.get(c, 0)
    }

    /// The table entry of padded cell `c`, direction `d`.
    #[inline(always)]
    fn get(&self, c: usize, d: usize) -> i32 {
        if self.t.is_empty() {
            self.t16[c * 8 + d] as i32
        } else {
            self.t[c * 8 + d]
        }
    }

    /// Builds every table over a padded map of `pw x ph` (border cells impassable).
    pub fn build(pass: &[u8], pw: usize) -> Tables {
        let ph = pass.len() / pw;
        let mut t = vec![0i32; pass.len() * 8];
        let j = Jumper {
            pass,
            pw: pw as isize,
            goal: usize::MAX,
        };
        // Straight directions first (the diagonal tables read them). Visit cells so that
        // p + d is done before p.
        for d in 0..8 {
            let (dx, dy) = (DX[d] as isize, DY[d] as isize);
            let ys: Vec<usize> = if dy > 0 {
                (1..ph - 1).rev().collect()
            } else {
                (1..ph - 1).collect()
            };
            let xs: Vec<usize> = if dx > 0 {
                (1..pw - 1).rev().collect()
            } else {
                (1..pw - 1).collect()
            };
            for &y in &ys {
                for &x in &xs {
                    let p = y * pw + x;
                    t[p * 8 + d] = entry(&j, p, d, |c, e| t[c * 8 + e]);
                }
            }
            // Diagonals must follow all straights: straights are d 0..4, done first.
        }
        if pw < (1 << 15) && ph < (1 << 15) {
            let t16 = t.iter().map(|&v| v as i16).collect();
            return Tables {
                t: Vec::new(),
                t16,
                pw,
            };
        }
        Tables {
            t,
            t16: Vec::new(),
            pw,
        }
    }

    /// Sets the table entry of padded cell `c`, direction `d`.
    fn set(&mut self, c: usize, d: usize, v: i32) {
        if self.t.is_empty() {
            self.t16[c * 8 + d] = v as i16;
        } else {
            self.t[c * 8 + d] = v;
        }
    }

    /// Brings the tables up to date after padded cell `e` of `pass` changed between passable
    /// and blocked (`pass` already holds the new value). An entry reads the passability of its cell
    /// and the eight around it ([GS.JUMP.FORCED] looks one cell to the side of the next cell and
    /// of the cell itself) and the entries of the next cell along its direction (a diagonal also
    /// that cell's two straight entries): the entries of the 3 x 3 cells centred on `e` are
    /// recomputed, and every change walks back along its ray, recomputing until an entry keeps
    /// its value; straights first, then the diagonals, seeded also behind every changed
    /// straight entry they read. The cost is the number of entries that change, at most a few
    /// rows, columns and diagonals through `e`, not the map.
    pub fn repair(&mut self, pass: &[u8], e: usize) {
        let pw = self.pw;
        let ph = pass.len() / pw;
        let j = Jumper {
            pass,
            pw: pw as isize,
            goal: usize::MAX,
        };
        let (ex, ey) = ((e % pw) as isize, (e / pw) as isize);
        let mut near = Vec::with_capacity(9);
        for y in ey - 1..=ey + 1 {
            for x in ex - 1..=ex + 1 {
                if x >= 1 && y >= 1 && x < pw as isize - 1 && y < ph as isize - 1 {
                    near.push(y as usize * pw + x as usize);
                }
            }
        }
        let mut changed = Vec::new();
        for d in 0..4 {
            for &c in &near {
                self.walk_back(&j, c, d, Some(&mut changed));
            }
        }
        for d in 4..8 {
            let hx = super::ctx::dir_index(DX[d], 0);
            let vy = super::ctx::dir_index(0, DY[d]);
            let back = -(DY[d] as isize * pw as isize + DX[d] as isize);
            for &c in &near {
                self.walk_back(&j, c, d, None);
            }
            for &(c, s) in &changed {
                if s == hx || s == vy {
                    self.walk_back(&j, c.wrapping_add_signed(back), d, None);
                }
            }
        }
    }

    /// Recomputes the entry of padded cell `c`, direction `d`, and while it changes the entries
    /// behind it along `d` (each change logged in `changed`, when given: the straights', which
    /// the diagonals read). Border cells keep 0.
    fn walk_back(
        &mut self,
        j: &Jumper<'_>,
        mut c: usize,
        d: usize,
        mut changed: Option<&mut Vec<(usize, usize)>>,
    ) {
        let back = -(DY[d] as isize * self.pw as isize + DX[d] as isize);
        loop {
            let v = entry(j, c, d, |n, e| self.get(n, e));
            if v == self.get(c, d) {
                return;
            }
            self.set(c, d, v);
            if let Some(log) = changed.as_deref_mut() {
                log.push((c, d));
            }
            c = c.wrapping_add_signed(back);
        }
    }

    /// Padded coordinates.
    #[inline(always)]
    fn xy(&self, p: usize) -> (i64, i64) {
        ((p % self.pw) as i64, (p / self.pw) as i64)
    }

    /// [GS.JUMP.STRAIGHT] With the goal stop.
    #[inline]
    fn straight(&self, c: usize, d: usize, goal: usize) -> Option<usize> {
        let v = self.get(c, d);
        let limit = v.unsigned_abs() as i64;
        if limit == 0 {
            return None;
        }
        let (cx, cy) = self.xy(c);
        let (gx, gy) = self.xy(goal);
        let (dx, dy) = (DX[d] as i64, DY[d] as i64);
        let tg = if dx != 0 {
            if gy == cy {
                (gx - cx) * dx
            } else {
                0
            }
        } else if gx == cx {
            (gy - cy) * dy
        } else {
            0
        };
        if tg >= 1 && tg <= limit {
            return Some(goal);
        }
        if v > 0 {
            Some(self.at(c, d, v as i64))
        } else {
            None
        }
    }

    #[inline(always)]
    fn at(&self, c: usize, d: usize, k: i64) -> usize {
        (c as i64 + k * (DY[d] as i64 * self.pw as i64 + DX[d] as i64)) as usize
    }

    /// Whether the goal is reached by the straight ray from `n` in direction `d` (no jump point
    /// on it): `1 <= distance <= range`.
    #[inline(always)]
    fn goal_on_ray(&self, n: usize, d: usize, goal: usize) -> bool {
        let v = self.get(n, d);
        let limit = v.unsigned_abs() as i64;
        let (nx, ny) = self.xy(n);
        let (gx, gy) = self.xy(goal);
        let (dx, dy) = (DX[d] as i64, DY[d] as i64);
        let tg = if dx != 0 {
            if gy == ny {
                (gx - nx) * dx
            } else {
                0
            }
        } else if gx == nx {
            (gy - ny) * dy
        } else {
            0
        };
        tg >= 1 && tg <= limit
    }

    /// [GS.JUMP.DIAGONAL] With the goal stops: the goal on the diagonal, or on the horizontal
    /// or vertical ray of the one diagonal cell in its row or column.
    #[inline]
    fn diagonal(&self, c: usize, d: usize, goal: usize) -> Option<usize> {
        let v = self.get(c, d);
        let limit = v.unsigned_abs() as i64;
        if limit == 0 {
            return None;
        }
        let mut best = if v > 0 { v as i64 } else { i64::MAX };
        let (cx, cy) = self.xy(c);
        let (gx, gy) = self.xy(goal);
        let (dx, dy) = (DX[d] as i64, DY[d] as i64);
        let kx = (gx - cx) * dx;
        let ky = (gy - cy) * dy;
        if kx == ky && kx >= 1 && kx <= limit {
            best = best.min(kx);
        }
        let hx = super::ctx::dir_index(DX[d], 0);
        let vy = super::ctx::dir_index(0, DY[d]);
        if ky >= 1 && ky <= limit && ky < best && self.goal_on_ray(self.at(c, d, ky), hx, goal) {
            best = ky;
        }
        if kx >= 1 && kx <= limit && kx < best && self.goal_on_ray(self.at(c, d, kx), vy, goal) {
            best = kx;
        }
        if best == i64::MAX {
            None
        } else {
            Some(self.at(c, d, best))
        }
    }

    /// [GS.JUMP.TABLES] `jump(c, d)` towards `goal` (padded indexes).
    #[inline]
    pub fn jump(&self, c: usize, d: usize, goal: usize) -> Option<usize> {
        if d < 4 {
            self.straight(c, d, goal)
        } else {
            self.diagonal(c, d, goal)
        }
    }
}

/// [GS.JUMP.TABLES] The entry of padded cell `p`, direction `d`, given the entries `t(c, d)` of
/// the next cell along `d`: 0 for a blocked cell or a first step that is not allowed, 1 when the
/// next cell is a jump point (a straight with a forced side; a diagonal whose straight entries
/// there find one), else one more step than the next cell's entry.
#[inline(always)]
fn entry(j: &Jumper<'_>, p: usize, d: usize, t: impl Fn(usize, usize) -> i32) -> i32 {
    let pass = j.pass;
    if pass[p] == 0 {
        return 0;
    }
    let (dx, dy) = (DX[d] as isize, DY[d] as isize);
    let n = p.wrapping_add_signed(dy * j.pw + dx);
    if d < 4 {
        if pass[n] == 0 {
            0
        } else if j.forced_side(n, DX[d], DY[d], -1) || j.forced_side(n, DX[d], DY[d], 1) {
            1
        } else {
            next(t(n, d))
        }
    } else if !(pass[n] != 0
        && pass[p.wrapping_add_signed(dx)] != 0
        && pass[p.wrapping_add_signed(dy * j.pw)] != 0)
    {
        0
    } else {
        let hx = super::ctx::dir_index(DX[d], 0);
        let vy = super::ctx::dir_index(0, DY[d]);
        if t(n, hx) > 0 || t(n, vy) > 0 {
            1
        } else {
            next(t(n, d))
        }
    }
}

/// One more step along a ray: a jump point one further, or one more free step.
#[inline(always)]
fn next(v: i32) -> i32 {
    if v > 0 {
        v + 1
    } else {
        v - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tables repaired after each wall edit equal tables built afresh from the edited map,
    /// entry for entry, on random maps (one wider than `2^15`, so the 32-bit form is repaired
    /// too), edits that add and remove walls, near borders and in the open.
    #[test]
    fn repaired_tables_equal_a_fresh_build() {
        let mut next = super::super::test_lcg(11u64);
        for round in 0..40 {
            let (w, h) = match round {
                0 => ((1 << 15) - 1, 3),
                _ if round % 5 == 4 => (40 + next(60) as usize, 30 + next(40) as usize),
                _ => (1 + next(12) as usize, 1 + next(12) as usize),
            };
            let pw = w + 2;
            let mut pass = vec![0u8; pw * (h + 2)];
            let pct = [5, 20, 35][round % 3];
            for y in 0..h {
                for x in 0..w {
                    pass[(y + 1) * pw + x + 1] = (next(100) >= pct) as u8;
                }
            }
            let mut t = Tables::build(&pass, pw);
            assert_eq!(t.t16.is_empty(), round == 0);
            let edits = if round == 0 { 6 } else { 25 };
            for k in 0..edits {
                let (x, y) = (1 + next(w as u64) as usize, 1 + next(h as u64) as usize);
                let e = y * pw + x;
                pass[e] ^= 1;
                t.repair(&pass, e);
                let fresh = Tables::build(&pass, pw);
                for c in 0..pass.len() {
                    for d in 0..8 {
                        assert_eq!(
                            t.get(c, d),
                            fresh.get(c, d),
                            "{w}x{h} edit {k} at {e}: c {c} d {d}"
                        );
                    }
                }
            }
        }
    }

    /// Optimised table jumps equal the cell-by-cell jumps of [GS.JUMP.STRAIGHT] and
    /// [GS.JUMP.DIAGONAL] for every cell, direction and goal of random maps.
    #[test]
    fn tables_equal_cell_by_cell_jumps() {
        let mut next = super::super::test_lcg(5u64);
        for round in 0..30 {
            let (w, h) = (1 + next(10) as usize, 1 + next(10) as usize);
            let pw = w + 2;
            let mut pass = vec![0u8; pw * (h + 2)];
            let pct = [10, 25, 40][round % 3];
            for y in 0..h {
                for x in 0..w {
                    pass[(y + 1) * pw + x + 1] = (next(100) >= pct) as u8;
                }
            }
            let t = Tables::build(&pass, pw);
            for g in 0..pass.len() {
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
                            t.jump(c, d, g),
                            j.jump(c, d),
                            "{w}x{h} c {c} d {d} goal {g}"
                        );
                    }
                }
            }
        }
    }
}
