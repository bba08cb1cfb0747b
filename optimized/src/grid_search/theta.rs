//! Theta* and Lazy Theta* (`ThetaSearch`, kind 10): [GS.THETA.COST], [GS.THETA.EXPAND],
//! [GS.THETA.LAZY], [GS.THETA.COUNT], [GS.THETA.ALGORITHMS].

use super::generic::{sliced_surface, Core, Rule};
use super::options::{unsupported, GridAlgorithm, GridOptions, GridSearchError};
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::heap::NO_PARENT;
use crate::plane::Grid;
use std::sync::atomic::AtomicBool;

impl Core<'_> {
    /// [GS.THETA.EXPAND] [GS.THETA.LAZY] Relaxes the allowed moves of `u` that lead to cells not
    /// closed, through `u`'s parent when in sight (Theta*) or always (Lazy Theta*).
    pub(crate) fn expand_theta(&mut self, u: u32) {
        let lazy = self.rule == Rule::LazyTheta;
        let su = self.buf.slots[u as usize];
        let pu = self.ctx.pad(u);
        for d in 0..self.ctx.nd {
            if !self.ctx.allowed(pu, d) {
                continue;
            }
            let v = self.ctx.cell(pu.wrapping_add_signed(self.ctx.off[d]));
            if self.closed(v) {
                continue;
            }
            let (p, g) = if su.parent != NO_PARENT && (lazy || self.ctx.los(su.parent, v)) {
                let gp = self.buf.slots[su.parent as usize].g;
                (su.parent, gp + self.ctx.euclid(su.parent, v))
            } else {
                (u, su.g + self.ctx.euclid(u, v))
            };
            let sv = &self.buf.slots[v as usize];
            if sv.stamp == self.buf.epoch && !(g < sv.g) {
                continue;
            }
            let h = self.estimate(v);
            self.buf.relax(v, g, p, g + h);
        }
    }

    /// [GS.THETA.LAZY] After popping `u`: when its parent is out of sight, re-parent it to the
    /// best closed neighbour with an allowed move into `u` (first in neighbour order on ties).
    pub(crate) fn lazy_adjust(&mut self, u: u32) {
        let parent = self.buf.slots[u as usize].parent;
        if parent == NO_PARENT || self.ctx.los(parent, u) {
            return;
        }
        let pu = self.ctx.pad(u);
        let mut best: Option<(u32, f64)> = None;
        for d in 0..self.ctx.nd {
            // A move s -> u is allowed exactly when u -> s is (same corner cells).
            if !self.ctx.allowed(pu, d) {
                continue;
            }
            let s = self.ctx.cell(pu.wrapping_add_signed(self.ctx.off[d]));
            if !self.closed(s) {
                continue;
            }
            let g = self.buf.slots[s as usize].g + self.ctx.euclid(s, u);
            if best.is_none_or(|(_, b)| g < b) {
                best = Some((s, g));
            }
        }
        // [GS.THETA.LAZY]: with no closed candidate (only a restored state can lack
        // one) the parent and g are kept.
        if let Some((s, g)) = best {
            let slot = &mut self.buf.slots[u as usize];
            slot.parent = s;
            slot.g = g;
        }
    }
}

/// [GS.THETA.EXPAND] [GS.THETA.LAZY] [GS.STATE.SEARCHES] Any-angle search (kind 10).
pub struct ThetaSearch<'g> {
    pub(crate) core: Core<'g>,
}

impl<'g> ThetaSearch<'g> {
    /// [GS.THETA.ALGORITHMS] [GS.OPT.VALID] Accepts `Theta` and `LazyTheta` only.
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        let alg = options.algorithm;
        let rule = match alg {
            GridAlgorithm::Theta => Rule::Theta,
            _ => Rule::LazyTheta,
        };
        let core = Core::new(grid, options, rule)?;
        if !matches!(alg, GridAlgorithm::Theta | GridAlgorithm::LazyTheta) {
            return Err(unsupported(alg, "ThetaSearch"));
        }
        Ok(ThetaSearch { core })
    }

    sliced_surface!();
}
