//! [HPA.INTRA.SEARCH] [HPA.INTRA.EDGE] [HPA.INTRA.COST] The chunk search: graph A* with the
//! zero estimate over the cells of one chunk (moves whose target stays in the chunk, in
//! neighbour order), to the end, on an epoch-reset 4-ary open set (never saved, so only the pop
//! order of [STATE.HEAP.ARRAY] matters: smaller `g`, larger `g` on ties — equal here — then the
//! smaller cell).

use super::chunks::{step_cost, Tiling};
use crate::astar::cost_ok;
use crate::grid_search::Ctx;
use crate::heap::{Scratch, NO_PARENT};

/// Reusable chunk-search buffers.
#[derive(Default)]
pub(crate) struct ChunkSearch {
    buf: Scratch,
}

impl ChunkSearch {
    /// [HPA.INTRA.SEARCH] Searches chunk `k` from cell `from` until the open set is empty.
    pub fn run(&mut self, ctx: &Ctx<'_>, t: &Tiling, k: u32, from: u32) {
        let (x0, x1, y0, y1) = t.bounds(k);
        self.buf.reset(ctx.n);
        self.buf.relax(from, 0.0, NO_PARENT, 0.0);
        while let Some(top) = self.buf.pop() {
            let u = top.node;
            let gu = self.buf.slots[u as usize].g;
            let pu = ctx.pad(u);
            for d in 0..ctx.nd {
                if !ctx.allowed(pu, d) {
                    continue;
                }
                let v = ctx.cell(pu.wrapping_add_signed(ctx.off[d]));
                let (vx, vy) = (v as usize % t.w, v as usize / t.w);
                if vx < x0 || vx >= x1 || vy < y0 || vy >= y1 {
                    continue;
                }
                let c = step_cost(ctx, v, d >= 4);
                if !cost_ok(c) {
                    continue;
                }
                let g2 = gu + c;
                if g2 == f64::INFINITY {
                    continue;
                }
                let s = &self.buf.slots[v as usize];
                if s.stamp == self.buf.epoch && !(g2 < s.g) {
                    continue;
                }
                self.buf.relax(v, g2, u, g2 + 0.0);
            }
        }
    }

    /// The chunk cost of cell `c` from the last search's source, if reached.
    #[inline(always)]
    pub fn cost(&self, c: u32) -> Option<f64> {
        self.buf.reached(c).then(|| self.buf.slots[c as usize].g)
    }

    /// [GRAPH.ASTAR.PATH] The chunk path to a reached cell `c`, source first.
    pub fn path(&self, c: u32) -> Vec<u32> {
        let mut out = vec![c];
        let mut at = c;
        loop {
            let p = self.buf.parent(at);
            if p == NO_PARENT {
                break;
            }
            out.push(p);
            at = p;
        }
        out.reverse();
        out
    }
}
