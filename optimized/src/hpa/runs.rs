//! Clear-run lengths for smoothing ([HPA.SMOOTH.LINE], [HPA.MOVE]): for every padded cell and
//! direction, how many allowed moves in a row start there. A smoothing line is two straight
//! segments (a diagonal then a straight one, or along `x` then along `y`), so whether every move
//! of a line is allowed is two lookups instead of a walk. Built by the hierarchy when `smooth` is
//! set, from the same context the chunk searches use, whenever it recomputes anything.

use crate::grid_search::Ctx;

/// Longest run stored (runs saturate at it); a longer segment is walked instead.
const CAP: u16 = u16::MAX;

/// `run[d][p]`: the number of consecutive allowed moves in direction `d` from padded `p`
/// (at most [`CAP`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct LineRuns {
    run: Vec<Vec<u16>>,
}

impl LineRuns {
    /// Recomputes every run from `ctx` (its connectivity's directions only).
    pub(crate) fn rebuild(&mut self, ctx: &Ctx<'_>) {
        let len = ctx.pw * (ctx.h + 2);
        self.run.resize(ctx.nd, Vec::new());
        self.run.truncate(ctx.nd);
        for d in 0..ctx.nd {
            let run = &mut self.run[d];
            run.clear();
            run.resize(len, 0);
            let off = ctx.off[d];
            // The cell a move reaches is computed first: in descending index order when it lies
            // after `p`. Padding cells keep 0 (no move starts outside the grid).
            let mut one = |p: usize| {
                if ctx.allowed(p, d) {
                    let next = run[p.wrapping_add_signed(off)];
                    run[p] = next.saturating_add(1);
                }
            };
            let (w, h, pw) = (ctx.w, ctx.h, ctx.pw);
            if off > 0 {
                for y in (1..=h).rev() {
                    for x in (1..=w).rev() {
                        one(y * pw + x);
                    }
                }
            } else {
                for y in 1..=h {
                    for x in 1..=w {
                        one(y * pw + x);
                    }
                }
            }
        }
    }

    /// Whether `k` moves in direction `d` from padded `p` are all allowed; `None` when `k` is
    /// beyond the stored cap (the caller walks the segment).
    pub(crate) fn clear(&self, p: usize, d: usize, k: u32) -> Option<bool> {
        if k >= CAP as u32 {
            return None;
        }
        Some(u32::from(self.run[d][p]) >= k)
    }
}
