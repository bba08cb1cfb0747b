//! [HPA.CHUNK.TILING] .. [HPA.INTER.EDGE] The tiling, the entrance pairs of every border (runs
//! and their placed positions) and of chunk corners (diagonal pairs), the node set and the
//! inter-chunk edges.

use crate::grid_search::{Ctx, DX, DY, SQRT_2};

/// [HPA.CHUNK.TILING] [HPA.CHUNK.ID] The chunks of a `w` x `h` grid with side `s`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tiling {
    pub s: usize,
    pub w: usize,
    pub h: usize,
    pub cx: usize,
    pub cy: usize,
}

impl Tiling {
    pub fn new(w: usize, h: usize, s: usize) -> Tiling {
        Tiling {
            s,
            w,
            h,
            cx: w.div_ceil(s),
            cy: h.div_ceil(s),
        }
    }

    /// [HPA.CHUNK.ID] The chunk of cell `c`.
    #[inline(always)]
    pub fn chunk_of(&self, c: u32) -> u32 {
        let (x, y) = (c as usize % self.w, c as usize / self.w);
        ((y / self.s) * self.cx + x / self.s) as u32
    }

    /// The cell bounds `[x0, x1) x [y0, y1)` of chunk `k`.
    pub fn bounds(&self, k: u32) -> (usize, usize, usize, usize) {
        let (kx, ky) = (k as usize % self.cx, k as usize / self.cx);
        let (x0, y0) = (kx * self.s, ky * self.s);
        (x0, (x0 + self.s).min(self.w), y0, (y0 + self.s).min(self.h))
    }

    /// The number of chunks.
    pub fn count(&self) -> usize {
        self.cx * self.cy
    }
}

/// An entrance pair of cells `(a, b)` with `a < b`, and whether it is a diagonal pair.
pub(crate) type Pair = (u32, u32, bool);

/// [HPA.ENT.RUN] [HPA.ENT.PLACE] One border's positions as `(a, b)` cell pairs: the placed
/// positions of every run of crossable positions.
fn border(ctx: &Ctx<'_>, positions: impl Iterator<Item = (u32, u32)>, out: &mut Vec<Pair>) {
    let mut run: Vec<(u32, u32)> = Vec::new();
    let flush = |run: &mut Vec<(u32, u32)>, out: &mut Vec<Pair>| {
        let l = run.len();
        if l == 0 {
            return;
        }
        let mut place = |p: usize| {
            let (a, b) = run[p];
            out.push((a.min(b), a.max(b), false));
        };
        if l < 6 {
            place((l - 1) / 2);
        } else {
            place(0);
            place(l - 1);
        }
        run.clear();
    };
    for (a, b) in positions {
        if ctx.passable(a) && ctx.passable(b) {
            run.push((a, b));
        } else {
            flush(&mut run, out);
        }
    }
    flush(&mut run, out);
}

/// [HPA.CHUNK.BORDERS] [HPA.ENT.RUN] [HPA.ENT.PLACE] [HPA.ENT.DIAGONAL] Every entrance pair,
/// sorted, without repeats.
pub(crate) fn entrance_pairs(ctx: &Ctx<'_>, t: &Tiling) -> Vec<Pair> {
    let (w, s) = (t.w, t.s);
    let idx = |x: usize, y: usize| (y * w + x) as u32;
    let mut out = Vec::new();
    for ky in 0..t.cy {
        for kx in 0..t.cx {
            if kx + 1 < t.cx {
                let x = (kx + 1) * s;
                let ys = ky * s..((ky + 1) * s).min(t.h);
                border(ctx, ys.map(|y| (idx(x - 1, y), idx(x, y))), &mut out);
            }
            if ky + 1 < t.cy {
                let y = (ky + 1) * s;
                let xs = kx * s..((kx + 1) * s).min(w);
                border(ctx, xs.map(|x| (idx(x, y - 1), idx(x, y))), &mut out);
            }
        }
    }
    // Diagonal pairs: only a cell on a chunk's edge can cross diagonally into another chunk.
    for y in 0..t.h {
        let edge_y = y % s == 0 || y % s == s - 1;
        for x in 0..w {
            if !(edge_y || x % s == 0 || x % s == s - 1) {
                continue;
            }
            let u = idx(x, y);
            if !ctx.passable(u) {
                continue;
            }
            let pu = ctx.pad(u);
            for d in 4..8 {
                let (vx, vy) = (x as i64 + DX[d] as i64, y as i64 + DY[d] as i64);
                if vx < 0 || vy < 0 || vx >= w as i64 || vy >= t.h as i64 {
                    continue;
                }
                let v = idx(vx as usize, vy as usize);
                if t.chunk_of(u) == t.chunk_of(v) || ctx.nd < 8 || !ctx.allowed(pu, d) {
                    continue;
                }
                let side_x = idx(vx as usize, y);
                let side_y = idx(x, vy as usize);
                if !ctx.passable(side_x) && !ctx.passable(side_y) {
                    out.push((u.min(v), u.max(v), true));
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// [HPA.NODE.SET] [HPA.NODE.ID] The node cells in ascending order.
pub(crate) fn node_cells(pairs: &[Pair]) -> Vec<u32> {
    let mut cells: Vec<u32> = pairs.iter().flat_map(|&(a, b, _)| [a, b]).collect();
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// [HPA.MOVE] The cost of the move into `v` with base `1` or `SQRT_2`.
#[inline(always)]
pub(crate) fn step_cost(ctx: &Ctx<'_>, v: u32, diagonal: bool) -> f64 {
    let base = if diagonal { SQRT_2 } else { 1.0 };
    base * ctx.mult[ctx.grid.cells()[v as usize] as usize]
}

/// [HPA.INTER.EDGE] The two directed inter-chunk edges of every pair: `(from cell, to cell,
/// cost)`.
pub(crate) fn inter_edges(ctx: &Ctx<'_>, pairs: &[Pair]) -> Vec<(u32, u32, f64)> {
    let mut out = Vec::with_capacity(pairs.len() * 2);
    for &(a, b, diagonal) in pairs {
        out.push((a, b, step_cost(ctx, b, diagonal)));
        out.push((b, a, step_cost(ctx, a, diagonal)));
    }
    out
}
