//! [HPA.REFINE.LOOPS] [HPA.SMOOTH.LINE] [HPA.SMOOTH.RULE] [HPA.COST.PATH] Cutting loops, the
//! straight line between two cells, the greedy smoothing pass and the left-fold path cost.

use super::chunks::step_cost;
use crate::grid_search::{Ctx, DX, DY};

/// The direction index of the unit step `(dx, dy)` ([GS.DIR] order).
fn dir(dx: i64, dy: i64) -> usize {
    (0..8)
        .find(|&d| DX[d] as i64 == dx && DY[d] as i64 == dy)
        .expect("a unit step")
}

/// [HPA.MOVE] The cost of the move `u -> v` between neighbours, or `None` when not allowed.
fn move_cost(ctx: &Ctx<'_>, u: u32, v: u32) -> Option<f64> {
    let (w, u64_, v64) = (ctx.w as i64, u as i64, v as i64);
    let (dx, dy) = (v64 % w - u64_ % w, v64 / w - u64_ / w);
    let d = dir(dx, dy);
    if d >= ctx.nd || !ctx.allowed(ctx.pad(u), d) {
        return None;
    }
    Some(step_cost(ctx, v, d >= 4))
}

/// [HPA.COST.PATH] `((0 + cost(c0 -> c1)) + cost(c1 -> c2)) + ...`; every step is a move.
pub(crate) fn path_cost(ctx: &Ctx<'_>, cells: &[u32]) -> f64 {
    let mut sum = 0.0;
    for p in cells.windows(2) {
        sum += move_cost(ctx, p[0], p[1]).unwrap_or(f64::INFINITY);
    }
    sum
}

/// [HPA.REFINE.LOOPS] For `i = 0, 1, ...`: drop `i + 1 ..= j` for the last `j` holding
/// `cell[i]`.
pub(crate) fn cut_loops(cells: &mut Vec<u32>) {
    let mut i = 0;
    while i < cells.len() {
        if let Some(j) = cells.iter().rposition(|&c| c == cells[i]) {
            if j > i {
                cells.drain(i + 1..=j);
            }
        }
        i += 1;
    }
}

/// [HPA.SMOOTH.LINE] The line from `p` to `q`, both included.
fn line(ctx: &Ctx<'_>, p: u32, q: u32, out: &mut Vec<u32>) {
    let w = ctx.w as i64;
    let (mut x, mut y) = (p as i64 % w, p as i64 / w);
    let (xq, yq) = (q as i64 % w, q as i64 / w);
    out.clear();
    out.push(p);
    if ctx.nd == 8 {
        while x != xq && y != yq {
            x += (xq - x).signum();
            y += (yq - y).signum();
            out.push((y * w + x) as u32);
        }
    }
    while x != xq {
        x += (xq - x).signum();
        out.push((y * w + x) as u32);
    }
    while y != yq {
        y += (yq - y).signum();
        out.push((y * w + x) as u32);
    }
}

/// [HPA.SMOOTH.RULE] The greedy pass, then loops cut again.
pub(crate) fn smooth(ctx: &Ctx<'_>, cells: &mut Vec<u32>) {
    let mut l = Vec::new();
    let mut i = 0;
    while i + 2 < cells.len() {
        let mut j = cells.len() - 1;
        while j >= i + 2 {
            line(ctx, cells[i], cells[j], &mut l);
            let mut ok = true;
            let mut lc = 0.0;
            for p in l.windows(2) {
                match move_cost(ctx, p[0], p[1]) {
                    Some(c) => lc += c,
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok && lc < path_cost(ctx, &cells[i..=j]) {
                cells.splice(i..=j, l.iter().copied());
                break;
            }
            j -= 1;
        }
        i += 1;
    }
    cut_loops(cells);
}
