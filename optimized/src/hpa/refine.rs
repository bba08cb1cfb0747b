//! [HPA.REFINE.LOOPS] [HPA.SMOOTH.LINE] [HPA.SMOOTH.RULE] [HPA.COST.PATH] Cutting loops, the
//! straight line between two cells, the greedy smoothing pass and the left-fold path cost.

use super::chunks::step_cost;
use super::runs::LineRuns;
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
/// `cell[i]`. The cells after position `i` are always an untouched suffix of the input, so the
/// last `j` is the input's last occurrence of `cell[i]`: one pass that jumps past it, with the
/// last occurrences found in `order` (the `(cell, position)` pairs sorted).
pub(crate) fn cut_loops(cells: &mut Vec<u32>, order: &mut Vec<(u32, u32)>) {
    order.clear();
    order.extend(cells.iter().enumerate().map(|(i, &c)| (c, i as u32)));
    order.sort_unstable();
    let last = |c: u32| order[order.partition_point(|e| e.0 <= c) - 1].1 as usize;
    let (mut kept, mut p) = (0, 0);
    while p < cells.len() {
        let c = cells[p];
        cells[kept] = c;
        kept += 1;
        p = last(c) + 1;
    }
    cells.truncate(kept);
}

/// [HPA.SMOOTH.LINE] [HPA.COST.PATH] The line from `p` to `q` (both included) into `out`, its
/// move costs into `costs`, and its left-fold cost; `None` at the first move that is not allowed
/// (the rest of the line is not generated).
fn line_cost(
    ctx: &Ctx<'_>,
    p: u32,
    q: u32,
    out: &mut Vec<u32>,
    costs: &mut Vec<f64>,
) -> Option<f64> {
    let w = ctx.w as i64;
    let (mut x, mut y) = (p as i64 % w, p as i64 / w);
    let (xq, yq) = (q as i64 % w, q as i64 / w);
    out.clear();
    costs.clear();
    out.push(p);
    let mut sum = 0.0;
    // [HPA.MOVE] as `move_cost`, with the direction known and the padded index kept.
    let mut at = ctx.pad(p);
    let mut step = |x: i64, y: i64, d: usize, out: &mut Vec<u32>| -> Option<()> {
        if d >= ctx.nd || !ctx.allowed(at, d) {
            return None;
        }
        at = at.wrapping_add_signed(ctx.off[d]);
        let v = (y * w + x) as u32;
        let c = step_cost(ctx, v, d >= 4);
        sum += c;
        costs.push(c);
        out.push(v);
        Some(())
    };
    if ctx.nd == 8 {
        let d = dir((xq - x).signum(), (yq - y).signum());
        while x != xq && y != yq {
            x += (xq - x).signum();
            y += (yq - y).signum();
            step(x, y, d, out)?;
        }
    }
    if x != xq {
        let d = dir((xq - x).signum(), 0);
        while x != xq {
            x += (xq - x).signum();
            step(x, y, d, out)?;
        }
    }
    if y != yq {
        let d = dir(0, (yq - y).signum());
        while y != yq {
            y += (yq - y).signum();
            step(x, y, d, out)?;
        }
    }
    Some(sum)
}

/// A filter that never changes the outcome of [HPA.SMOOTH.RULE]: true when a line of `dx`, `dy`
/// certainly costs at least `path`, so the rule would reject it. Every move of the line costs at
/// least `mmin` (straight) or `SQRT_2 * mmin` (diagonal) in floating point, so its left-fold cost
/// is at least the real `mmin * (straight + SQRT_2 * diagonal)` less a relative rounding error
/// below `moves * 2^-53`; the margin of `1e-6` covers that for any path shorter than `2^32`
/// cells, and the products are kept out of the subnormal and overflow ranges.
fn cannot_be_cheaper(mmin: f64, eight: bool, dx: u32, dy: u32, path: f64) -> bool {
    if !mmin.is_normal() || mmin > 1e300 {
        return false;
    }
    let moves = if eight {
        let (d, s) = (dx.min(dy), dx.max(dy) - dx.min(dy));
        s as f64 + std::f64::consts::SQRT_2 * d as f64
    } else {
        (dx + dy) as f64
    };
    mmin * moves * (1.0 - 1e-6) >= path
}

/// Whether every move of the line from `p` to `q` is allowed, by two run lookups (the line is a
/// diagonal segment then a straight one with `Eight`, along `x` then along `y` with `Four`);
/// `None` when a segment is longer than the runs store.
fn line_clear(ctx: &Ctx<'_>, runs: &LineRuns, p: (u32, u32), q: (u32, u32)) -> Option<bool> {
    let (sx, sy) = (
        (q.0 as i64 - p.0 as i64).signum(),
        (q.1 as i64 - p.1 as i64).signum(),
    );
    let (dx, dy) = (p.0.abs_diff(q.0), p.1.abs_diff(q.1));
    let at = |x: u32, y: u32| (y as usize + 1) * ctx.pw + x as usize + 1;
    let (first_dir, first_len, corner) = if ctx.nd == 8 {
        let k = dx.min(dy);
        let c = (
            (p.0 as i64 + sx * k as i64) as u32,
            (p.1 as i64 + sy * k as i64) as u32,
        );
        (if k > 0 { dir(sx, sy) } else { 0 }, k, c)
    } else {
        (if dx > 0 { dir(sx, 0) } else { 0 }, dx, (q.0, p.1))
    };
    if first_len > 0 && !runs.clear(at(p.0, p.1), first_dir, first_len)? {
        return Some(false);
    }
    let (rx, ry) = (corner.0.abs_diff(q.0), corner.1.abs_diff(q.1));
    let rest = rx + ry;
    if rest == 0 {
        return Some(true);
    }
    let d = if rx > 0 { dir(sx, 0) } else { dir(0, sy) };
    runs.clear(at(corner.0, corner.1), d, rest)
}

/// [HPA.SMOOTH.RULE] The greedy pass, then loops cut again. Kept beside the cells: their
/// coordinates and the cost of each move (`moves[k]` for `cell[k] -> cell[k + 1]`, by
/// [HPA.MOVE]), spliced with the cells; for each `i`, `fold[j - i]` is `path_cost(cells[i..=j])`,
/// the same left fold, computed once for every `j`.
pub(crate) fn smooth(
    ctx: &Ctx<'_>,
    runs: &LineRuns,
    cells: &mut Vec<u32>,
    order: &mut Vec<(u32, u32)>,
) {
    let w = ctx.w as u32;
    let eight = ctx.nd == 8;
    let mut xy: Vec<(u32, u32)> = cells.iter().map(|&c| (c % w, c / w)).collect();
    let mut moves: Vec<f64> = cells
        .windows(2)
        .map(|p| move_cost(ctx, p[0], p[1]).unwrap_or(f64::INFINITY))
        .collect();
    let (mut l, mut l_moves, mut fold) = (Vec::new(), Vec::new(), Vec::new());
    let mut i = 0;
    while i + 2 < cells.len() {
        fold.clear();
        fold.push(0.0);
        let mut sum = 0.0;
        for &c in &moves[i..] {
            sum += c;
            fold.push(sum);
        }
        let (xi, yi) = xy[i];
        let mut j = cells.len() - 1;
        while j >= i + 2 {
            let (xj, yj) = xy[j];
            if cannot_be_cheaper(
                ctx.mmin,
                eight,
                xi.abs_diff(xj),
                yi.abs_diff(yj),
                fold[j - i],
            ) {
                j -= 1;
                continue;
            }
            if line_clear(ctx, runs, xy[i], xy[j]) == Some(false) {
                j -= 1;
                continue;
            }
            let lc = line_cost(ctx, cells[i], cells[j], &mut l, &mut l_moves);
            if lc.is_some_and(|lc| lc < fold[j - i]) {
                cells.splice(i..=j, l.iter().copied());
                xy.splice(i..=j, l.iter().map(|&c| (c % w, c / w)));
                moves.splice(i..j, l_moves.iter().copied());
                break;
            }
            j -= 1;
        }
        i += 1;
    }
    cut_loops(cells, order);
}
