//! Jump points ([GS.JUMP.FORCED] .. [GS.JUMP.PATH]) and the generic `JumpSearch` (kind 9,
//! [GS.JPSG.RULES]).

use super::ctx::{octile_pair, pair_f64, Ctx, DX, DY};
use super::generic::{sliced_surface, Core, Rule};
use super::options::{
    unsupported, Connectivity, DiagonalRule, GridAlgorithm, GridOptions, GridSearchError,
};
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::heap::NO_PARENT;
use crate::plane::Grid;
use std::sync::atomic::AtomicBool;

/// [GS.JUMP.APPLIES] Uniform grid, no `cell_cost`, weight 1.0, `Eight`, `NoneBlocked`.
pub(crate) fn jump_applies(ctx: &Ctx<'_>) -> bool {
    let o = &ctx.opts;
    ctx.uniform
        && o.cell_cost.is_none()
        && o.heuristic_weight == 1.0
        && o.connectivity == Connectivity::Eight
        && o.diagonal == DiagonalRule::NoneBlocked
}

/// Jump point scans over a padded passability map (1 = passable) towards a padded goal.
#[derive(Clone, Copy)]
pub(crate) struct Jumper<'a> {
    pub pass: &'a [u8],
    pub pw: isize,
    pub goal: usize,
}

impl Jumper<'_> {
    #[inline(always)]
    fn ok(&self, p: usize, o: isize) -> bool {
        self.pass[p.wrapping_add_signed(o)] != 0
    }

    /// [GS.JUMP.FORCED] Whether side `s` (-1 first) of `n` is forced moving straight `(dx, dy)`.
    #[inline(always)]
    pub fn forced_side(&self, n: usize, dx: i32, dy: i32, s: isize) -> bool {
        if dx != 0 {
            self.ok(n, s * self.pw) && !self.ok(n, s * self.pw - dx as isize)
        } else {
            self.ok(n, s) && !self.ok(n, s - dy as isize * self.pw)
        }
    }

    /// [GS.JUMP.STRAIGHT] `jump(c, d)` for a straight direction.
    #[inline]
    pub fn straight(&self, c: usize, dx: i32, dy: i32) -> Option<usize> {
        let step = dy as isize * self.pw + dx as isize;
        let mut n = c;
        loop {
            if !self.ok(n, step) {
                return None;
            }
            n = n.wrapping_add_signed(step);
            if n == self.goal || self.forced_side(n, dx, dy, -1) || self.forced_side(n, dx, dy, 1) {
                return Some(n);
            }
        }
    }

    /// [GS.JUMP.DIAGONAL] `jump(c, d)` for a diagonal direction.
    #[inline]
    pub fn diagonal(&self, c: usize, dx: i32, dy: i32) -> Option<usize> {
        let sx = dx as isize;
        let sy = dy as isize * self.pw;
        let mut n = c;
        loop {
            if !(self.ok(n, sx + sy) && self.ok(n, sx) && self.ok(n, sy)) {
                return None;
            }
            n = n.wrapping_add_signed(sx + sy);
            if n == self.goal
                || self.straight(n, dx, 0).is_some()
                || self.straight(n, 0, dy).is_some()
            {
                return Some(n);
            }
        }
    }

    /// [GS.JUMP.STRAIGHT] [GS.JUMP.DIAGONAL] `jump(c, d)` for neighbour-order direction `d`.
    #[inline]
    pub fn jump(&self, c: usize, d: usize) -> Option<usize> {
        if d < 4 {
            self.straight(c, DX[d], DY[d])
        } else {
            self.diagonal(c, DX[d], DY[d])
        }
    }

    /// [GS.JUMP.SUCCESSORS] The directions tried from `c` reached by `by` (none: the start),
    /// as neighbour-order indexes; returns the count.
    #[inline]
    pub fn directions(&self, c: usize, by: Option<usize>, out: &mut [u8; 8]) -> usize {
        let Some(d) = by else {
            for (k, o) in out.iter_mut().enumerate() {
                *o = k as u8;
            }
            return 8;
        };
        let (dx, dy) = (DX[d], DY[d]);
        if d >= 4 {
            out[0] = super::ctx::dir_index(dx, 0) as u8;
            out[1] = super::ctx::dir_index(0, dy) as u8;
            out[2] = d as u8;
            return 3;
        }
        out[0] = d as u8;
        let mut k = 1;
        let forced = [
            self.forced_side(c, dx, dy, -1),
            self.forced_side(c, dx, dy, 1),
        ];
        for (i, s) in [-1i32, 1].into_iter().enumerate() {
            if forced[i] {
                out[k] = if dx != 0 {
                    super::ctx::dir_index(0, s)
                } else {
                    super::ctx::dir_index(s, 0)
                } as u8;
                k += 1;
            }
        }
        for (i, s) in [-1i32, 1].into_iter().enumerate() {
            if forced[i] {
                out[k] = if dx != 0 {
                    super::ctx::dir_index(dx, s)
                } else {
                    super::ctx::dir_index(s, dy)
                } as u8;
                k += 1;
            }
        }
        k
    }
}

/// [GS.JUMP.PATH] Every cell of a jump-point chain (cell indexes), start first.
pub(crate) fn fill_path(ctx: &Ctx<'_>, chain: &[u32]) -> Vec<u32> {
    let Some(&first) = chain.first() else {
        return Vec::new();
    };
    // Each leg is a straight or diagonal line: max(|dx|, |dy|) cells after its first.
    let cells = chain.windows(2).fold(1usize, |n, win| {
        let ((x0, y0), (x1, y1)) = (ctx.xy(win[0]), ctx.xy(win[1]));
        n + x0.abs_diff(x1).max(y0.abs_diff(y1)) as usize
    });
    let mut out = Vec::with_capacity(cells);
    out.push(first);
    for win in chain.windows(2) {
        let (mut x, mut y) = ctx.xy(win[0]);
        let (xj, yj) = ctx.xy(win[1]);
        while x != xj || y != yj {
            if x != xj {
                x = if xj > x { x + 1 } else { x - 1 };
            }
            if y != yj {
                y = if yj > y { y + 1 } else { y - 1 };
            }
            out.push(y * ctx.w as u32 + x);
        }
    }
    out
}

impl Core<'_> {
    /// [GS.JPSG.RULES] Pushes the jump-point successors of `c`.
    pub(crate) fn expand_jump(&mut self, c: u32) {
        let parent = self.buf.slots[c as usize].parent;
        let (xc, yc) = self.ctx.xy(c);
        let by = if parent == NO_PARENT {
            None
        } else {
            let (xp, yp) = self.ctx.xy(parent);
            let sx = (xc as i64 - xp as i64).signum() as i32;
            let sy = (yc as i64 - yp as i64).signum() as i32;
            if sx == 0 && sy == 0 {
                None
            } else {
                Some(super::ctx::dir_index(sx, sy))
            }
        };
        let pc = self.ctx.pad(c);
        let gc = self.buf.slots[c as usize].g;
        let mut dirs = [0u8; 8];
        let goal = self.ctx.pad(self.goal);
        let jumper = Jumper {
            pass: &self.ctx.pass,
            pw: self.ctx.pw as isize,
            goal,
        };
        let k = jumper.directions(pc, by, &mut dirs);
        let mut found = [0u32; 8];
        let mut m = 0;
        for &d in &dirs[..k] {
            if let Some(j) = jumper.jump(pc, d as usize) {
                found[m] = self.ctx.cell(j);
                m += 1;
            }
        }
        for &jc in &found[..m] {
            let (dx, dy) = self.ctx.delta(c, jc);
            let (a, b) = octile_pair(dx, dy);
            self.relax(c, jc, gc + pair_f64(a, b));
        }
    }
}

/// [GS.JPSG.RULES] [GS.STATE.SEARCHES] Generic jump point search (kind 9).
pub struct JumpSearch<'g> {
    pub(crate) core: Core<'g>,
}

impl<'g> JumpSearch<'g> {
    /// [GS.JPSG.RULES] [GS.OPT.VALID] A jump point search; `unsupported_algorithm` unless the
    /// algorithm is `Jps`/`JpsPlus` and [GS.JUMP.APPLIES] holds.
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        let alg = options.algorithm;
        let core = Core::new(grid, options, Rule::Jump)?;
        if !matches!(alg, GridAlgorithm::Jps | GridAlgorithm::JpsPlus) || !jump_applies(&core.ctx) {
            return Err(unsupported(alg, "JumpSearch"));
        }
        Ok(JumpSearch { core })
    }

    sliced_surface!();
}
