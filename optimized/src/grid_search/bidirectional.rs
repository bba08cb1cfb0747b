//! Bidirectional A* and Dijkstra on square grids (spec/grid-bidi.md): [GBIDI.GRAPH] the graph
//! chapter's two-sided search over the square move graph, with two epoch-reset 4-ary open sets
//! (the search is never saved, [GBIDI.NOT_SAVED], so only the pop order of [GBIDI.OPEN] is
//! observable), [GBIDI.POTENTIAL] average potentials from the grid estimate, [GBIDI.TURN] strict
//! alternation, [GBIDI.STOP] the `top_f + top_f >= mu` stop, [GBIDI.MEET] meeting at
//! relaxations, and [GBIDI.TIER1] the one-call form. Both sides' buffers are lent by the grid's
//! scratch pool (`cache.rs`) and given back on drop, so a tier-1 call allocates nothing per cell.

use super::ctx::{Ctx, SQRT_2};
use super::handle::centre;
use super::options::{unsupported, GridAlgorithm, GridOptions, GridPath, GridSearchError, GsKind};
use crate::astar::{cost_ok, normalize, SearchStatus};
use crate::heap::{Scratch, NO_PARENT};
use crate::plane::Grid;
use crate::tier1::PathStatus;
use std::sync::atomic::{AtomicBool, Ordering};

/// [GBIDI.OPT.FIELDS] .. [GBIDI.GRID] A sliced bidirectional search over a square grid. It
/// borrows its grid for its whole life and has no state bytes.
pub struct GridBidiSearch<'g> {
    ctx: Ctx<'g>,
    /// [GBIDI.OPT.ALGORITHM] `Dijkstra`: every potential `+0.0`.
    zero: bool,
    /// The forward side (from the start) and the backward side (from the goal).
    fwd: Scratch,
    bwd: Scratch,
    status: SearchStatus,
    start: u32,
    goal: u32,
    /// [GBIDI.MEET] The best meeting sum and its cell.
    mu: f64,
    meet: u32,
    iterations: u64,
    record: Vec<u32>,
}

impl Drop for GridBidiSearch<'_> {
    /// Gives both sides' buffers back to the grid's pool.
    fn drop(&mut self) {
        let cache = self.ctx.grid.derived();
        cache.give_scratch(std::mem::take(&mut self.fwd));
        cache.give_scratch(std::mem::take(&mut self.bwd));
    }
}

impl<'g> GridBidiSearch<'g> {
    /// [GBIDI.OPT.VALID] [GBIDI.OPT.WEIGHT] [GBIDI.OPT.ALGORITHM] [GBIDI.GRID] Checks the options
    /// in the order of [GBIDI.OPT.VALID]; builds passability and `mmin` once.
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        let ctx = Ctx::new(grid, options)?;
        let w = ctx.opts.heuristic_weight;
        if w != 1.0 {
            return Err(GridSearchError::new(GsKind::InvalidOptions {
                field: "heuristic_weight",
                value: w.to_string(),
            }));
        }
        let zero = match ctx.opts.algorithm {
            GridAlgorithm::AStar => false,
            GridAlgorithm::Dijkstra => true,
            other => return Err(unsupported(other, "GridBidiSearch")),
        };
        let n = ctx.n;
        let cache = grid.derived();
        Ok(GridBidiSearch {
            zero,
            fwd: cache.take_scratch(n),
            bwd: cache.take_scratch(n),
            ctx,
            status: SearchStatus::NotStarted,
            start: 0,
            goal: 0,
            mu: f64::INFINITY,
            meet: NO_PARENT,
            iterations: 0,
            record: Vec::new(),
        })
    }

    /// [GBIDI.POTENTIAL] `est(a, b) = (o * mmin) * 1.0`, normalised; `+0.0` for Dijkstra.
    #[inline(always)]
    fn est(&self, a: u32, b: u32) -> f64 {
        if self.zero {
            return normalize(0.0);
        }
        normalize((self.ctx.octile(a, b) * self.ctx.mmin) * 1.0)
    }

    /// [GBIDI.POTENTIAL] `pf(v) = 0.5 * (ht - hs)`, or `None` when either estimate is infinite.
    #[inline(always)]
    fn pf(&self, v: u32) -> Option<f64> {
        let ht = self.est(v, self.goal);
        let hs = self.est(self.start, v);
        if ht == f64::INFINITY || hs == f64::INFINITY {
            return None;
        }
        Some(0.5 * (ht - hs))
    }

    /// [GBIDI.BEGIN] [GBIDI.SAME_CELL] Range checks (a failure changes nothing), reset, the
    /// passability of both ends, then the two pushes.
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let (s, g) = self.ctx.cells_of(start, goal)?;
        let n = self.ctx.n;
        self.fwd.reset(n);
        self.bwd.reset(n);
        self.record.clear();
        self.ctx.refresh();
        self.start = s;
        self.goal = g;
        self.mu = f64::INFINITY;
        self.meet = NO_PARENT;
        self.iterations = 0;
        self.status = SearchStatus::Running;
        if !self.ctx.passable(s) || !self.ctx.passable(g) {
            self.status = SearchStatus::NotFound;
            return Ok(());
        }
        if s == g {
            self.status = SearchStatus::Found;
            self.mu = 0.0;
            self.meet = s;
            return Ok(());
        }
        if let Some(p) = self.pf(s) {
            self.fwd.relax(s, 0.0, NO_PARENT, 0.0 + p);
        }
        if let Some(p) = self.pf(g) {
            self.bwd.relax(g, 0.0, NO_PARENT, 0.0 - p);
        }
        Ok(())
    }

    /// [GBIDI.STEP] At most `budget` iterations.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        self.advance(budget, None)
    }

    /// [GBIDI.RUN] To the end, reading `cancel` every 256 iterations of this call.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        self.advance(u64::MAX, cancel)
    }

    /// [GBIDI.STOP] [GBIDI.STEP] [GBIDI.RUN] [GBIDI.TURN] The sliced loop: stop check, cancel
    /// and budget checks, then one pop of the side whose turn it is.
    fn advance(&mut self, max: u64, cancel: Option<&AtomicBool>) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done = 0u64;
        loop {
            if self.fwd.is_empty()
                || self.bwd.is_empty()
                || self.fwd.top_f() + self.bwd.top_f() >= self.mu
            {
                self.status = if self.mu != f64::INFINITY {
                    SearchStatus::Found
                } else {
                    SearchStatus::NotFound
                };
                return self.status;
            }
            if let Some(flag) = cancel {
                if done.is_multiple_of(256) && flag.load(Ordering::Relaxed) {
                    return SearchStatus::Running;
                }
            }
            if done == max {
                return SearchStatus::Running;
            }
            let forward = self.iterations.is_multiple_of(2);
            let side = if forward {
                &mut self.fwd
            } else {
                &mut self.bwd
            };
            let Some(top) = side.pop() else {
                continue;
            };
            done += 1;
            self.iterations += 1;
            if self.ctx.opts.record_expansions {
                self.record.push(top.node);
            }
            self.expand(top.node, forward);
        }
    }

    /// [GBIDI.EXPAND] [GBIDI.FORWARD] [GBIDI.BACKWARD] [GBIDI.MEET] Relaxes the edges of `u` on
    /// one side in neighbour order. By [GBIDI.SYMMETRY] the backward in-edge `x -> u` exists
    /// exactly when the move `u -> x` is allowed; it is priced by the area of `u` and the hook
    /// asked `(x, u)`.
    fn expand(&mut self, u: u32, forward: bool) {
        let this = if forward { &self.fwd } else { &self.bwd };
        let gu = this.slots[u as usize].g;
        let pu = self.ctx.pad(u);
        let cells = self.ctx.grid.cells();
        for d in 0..self.ctx.nd {
            if !self.ctx.allowed(pu, d) {
                continue;
            }
            let y = self.ctx.cell(pu.wrapping_add_signed(self.ctx.off[d]));
            let base = if d < 4 { 1.0 } else { SQRT_2 };
            let (from, to) = if forward { (u, y) } else { (y, u) };
            let mut c = base * self.ctx.mult[cells[to as usize] as usize];
            if let Some(hook) = &self.ctx.opts.cell_cost {
                let extra = hook(from, to);
                if !cost_ok(extra) {
                    continue;
                }
                c += extra;
            }
            if !cost_ok(c) {
                continue;
            }
            let g2 = gu + c;
            if g2 == f64::INFINITY {
                continue;
            }
            let this = if forward { &self.fwd } else { &self.bwd };
            let s = &this.slots[y as usize];
            if s.stamp == this.epoch && !(g2 < s.g) {
                continue;
            }
            let Some(p) = self.pf(y) else {
                continue;
            };
            let (this, other) = if forward {
                (&mut self.fwd, &self.bwd)
            } else {
                (&mut self.bwd, &self.fwd)
            };
            let key = if forward { g2 + p } else { g2 - p };
            this.relax(y, g2, u, key);
            if other.reached(y) {
                let candidate = g2 + other.slots[y as usize].g;
                if candidate < self.mu {
                    self.mu = candidate;
                    self.meet = y;
                }
            }
        }
    }

    /// [GBIDI.STATUS]
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// [GBIDI.PATH] The forward chain from the meeting cell, reversed, then the backward chain
    /// to the goal; empty unless `Found`.
    pub fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut c = self.meet;
        while c != NO_PARENT {
            out.push(c);
            c = if c == self.start {
                NO_PARENT
            } else {
                self.fwd.parent(c)
            };
        }
        out.reverse();
        let mut c = self.meet;
        while c != self.goal {
            c = self.bwd.parent(c);
            out.push(c);
        }
        out
    }

    /// [GBIDI.COST] `mu` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.mu
        } else {
            f64::INFINITY
        }
    }

    /// [GBIDI.COUNTERS] Pops of both sides.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [GBIDI.COUNTERS] Equal to `iterations` (every pop expands).
    pub fn expanded_count(&self) -> u64 {
        self.iterations
    }

    /// [GBIDI.COUNTERS] The popped cells in pop order (with `record_expansions`).
    pub fn expansions(&self) -> &[u32] {
        &self.record
    }

    /// [GBIDI.MEETING_CELL] The cell that gave the current `mu`; none while `mu` is infinite.
    pub fn meeting_cell(&self) -> Option<u32> {
        (self.mu != f64::INFINITY && self.status != SearchStatus::NotStarted).then_some(self.meet)
    }
}

/// [GBIDI.TIER1] One call: `new`, `begin`, then `step(iteration_budget)` when the budget is
/// non-zero, else `run(None)`.
pub fn find_grid_path_bidirectional(
    grid: &Grid,
    start: (usize, usize),
    goal: (usize, usize),
    options: &GridOptions,
) -> Result<GridPath, GridSearchError> {
    let mut s = GridBidiSearch::new(grid, options.clone())?;
    s.begin(start, goal)?;
    let budget = options.iteration_budget;
    let st = if budget > 0 {
        s.step(budget)
    } else {
        s.run(None)
    };
    let cells = s.path();
    Ok(GridPath {
        algorithm: options.algorithm,
        status: match st {
            SearchStatus::Found => PathStatus::Found,
            SearchStatus::Running => PathStatus::BudgetExhausted,
            _ => PathStatus::NotFound,
        },
        cost: s.path_cost(),
        points: cells.iter().map(|&c| centre(grid, c)).collect(),
        cells,
        expanded: std::mem::take(&mut s.record),
        expanded_count: s.iterations,
        iterations: s.iterations,
    })
}
