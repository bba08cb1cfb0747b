//! The core shared by the sliced grid engines `AStar`, `JumpSearch` and `ThetaSearch`
//! (spec/grid-search.md §4, §6): [GRAPH.ASTAR.STEP] over cells with the binary heap of
//! [STATE.HEAP.ARRAY] .. [STATE.HEAP.UPDATE], one `expand` per engine.

use super::ctx::Ctx;
use super::options::{GridOptions, GridSearchError};
use crate::astar::SearchStatus;
use crate::heap::{Buffers, NOT_IN_HEAP, NO_PARENT};
use crate::plane::Grid;
use std::sync::atomic::{AtomicBool, Ordering};

/// Which expansion rule runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// [GS.ASTAR.GRAPH] A* over the move graph (`zero`: Dijkstra's zero estimate).
    AStar { zero: bool },
    /// [GS.JPSG.RULES] Jump point successors.
    Jump,
    /// [GS.THETA.EXPAND] Theta*.
    Theta,
    /// [GS.THETA.LAZY] Lazy Theta*.
    LazyTheta,
}

impl Drop for Core<'_> {
    fn drop(&mut self) {
        self.recycle();
    }
}

/// The state of a sliced grid search.
pub(crate) struct Core<'g> {
    pub ctx: Ctx<'g>,
    pub rule: Rule,
    pub buf: Buffers<2>,
    pub status: SearchStatus,
    pub start: u32,
    pub goal: u32,
    pub iterations: u64,
    pub expanded: u64,
    pub path_cost: f64,
}

impl<'g> Core<'g> {
    pub fn new(grid: &'g Grid, opts: GridOptions, rule: Rule) -> Result<Self, GridSearchError> {
        let ctx = Ctx::new(grid, opts)?;
        let n = ctx.n;
        // Buffers from the grid's scratch pool when one is free ([`super::cache`]), reset by
        // their epoch.
        let buf = match grid.derived().take_bufs(n) {
            Some(mut b) => {
                b.reset(n);
                b
            }
            None => Buffers::with_nodes(n),
        };
        Ok(Core {
            ctx,
            rule,
            buf,
            status: SearchStatus::NotStarted,
            start: 0,
            goal: 0,
            iterations: 0,
            expanded: 0,
            path_cost: f64::INFINITY,
        })
    }

    /// Gives the buffers back to the grid's scratch pool.
    fn recycle(&mut self) {
        let b = std::mem::take(&mut self.buf);
        self.ctx.grid.derived().give_bufs(b);
    }

    /// [STATE.SEARCH_FAILED] NotStarted, counters zero, nothing visited.
    pub fn clear(&mut self) {
        self.buf.reset(self.ctx.n);
        self.status = SearchStatus::NotStarted;
        self.start = 0;
        self.goal = 0;
        self.iterations = 0;
        self.expanded = 0;
        self.path_cost = f64::INFINITY;
    }

    /// [GS.EST.SCALE] [GS.THETA.COST] [GS.JPSG.RULES] The normalised estimate of cell `v`.
    #[inline(always)]
    pub fn estimate(&self, v: u32) -> f64 {
        let e = match self.rule {
            Rule::AStar { zero: true } => 0.0,
            Rule::AStar { zero: false } => {
                (self.ctx.octile(v, self.goal) * self.ctx.mmin) * self.ctx.opts.heuristic_weight
            }
            Rule::Jump => self.ctx.octile(v, self.goal),
            Rule::Theta | Rule::LazyTheta => {
                self.ctx.euclid(v, self.goal) * self.ctx.opts.heuristic_weight
            }
        };
        crate::astar::normalize(e)
    }

    /// [GS.ASTAR.BEGIN] [GRAPH.ASTAR.BEGIN] Validates, resets and pushes the start unless the
    /// start or the goal is not passable (then `NotFound`).
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let (s, g) = self.ctx.cells_of(start, goal)?;
        self.clear();
        self.ctx.refresh();
        self.start = s;
        self.goal = g;
        self.status = SearchStatus::Running;
        if !self.ctx.passable(s) || !self.ctx.passable(g) {
            self.status = SearchStatus::NotFound;
            return Ok(());
        }
        let h = self.estimate(s);
        if h != f64::INFINITY {
            self.buf.relax(s, 0.0, NO_PARENT, h);
        }
        Ok(())
    }

    /// Whether `v` is reached and closed (not in the open set).
    #[inline(always)]
    pub fn closed(&self, v: u32) -> bool {
        let s = &self.buf.slots[v as usize];
        s.stamp == self.buf.epoch && s.pos == NOT_IN_HEAP
    }

    /// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.RUN] [GRAPH.ASTAR.EMPTY_FIRST] The sliced loop.
    pub fn advance(&mut self, max: u64, cancel: Option<&AtomicBool>) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done = 0u64;
        loop {
            if self.buf.is_empty() {
                self.status = SearchStatus::NotFound;
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
            let u = match self.buf.pop() {
                Some(t) => t.node,
                None => continue,
            };
            done += 1;
            self.iterations += 1;
            if self.rule == Rule::LazyTheta {
                self.lazy_adjust(u);
            }
            if u == self.goal {
                self.status = SearchStatus::Found;
                self.path_cost = self.buf.slots[u as usize].g;
                return self.status;
            }
            match self.rule {
                Rule::AStar { .. } => self.expand_astar(u),
                Rule::Jump => self.expand_jump(u),
                Rule::Theta | Rule::LazyTheta => self.expand_theta(u),
            }
            self.expanded += 1;
            if self.ctx.opts.record_expansions {
                self.buf.record.push(u);
            }
        }
    }

    /// [GS.ASTAR.GRAPH] [GS.COST.MOVE] [GRAPH.ASTAR.EXPAND] Relaxes the allowed moves of `u` in
    /// neighbour order.
    fn expand_astar(&mut self, u: u32) {
        let gu = self.buf.slots[u as usize].g;
        let pu = self.ctx.pad(u);
        let cells = self.ctx.grid.cells();
        for d in 0..self.ctx.nd {
            if !self.ctx.allowed(pu, d) {
                continue;
            }
            let v = self.ctx.cell(pu.wrapping_add_signed(self.ctx.off[d]));
            let base = if d < 4 { 1.0 } else { super::ctx::SQRT_2 };
            let mut c = base * self.ctx.mult[cells[v as usize] as usize];
            if let Some(hook) = &self.ctx.opts.cell_cost {
                let extra = hook(u, v);
                if !crate::astar::cost_ok(extra) {
                    continue;
                }
                c += extra;
            }
            if !crate::astar::cost_ok(c) {
                continue;
            }
            self.relax(u, v, gu + c);
        }
    }

    /// [GRAPH.ASTAR.EXPAND] The reached / strictly-better / reopen / push rule for `v` at `g2`.
    #[inline(always)]
    pub fn relax(&mut self, u: u32, v: u32, g2: f64) {
        if g2 == f64::INFINITY {
            return;
        }
        let s = &self.buf.slots[v as usize];
        if s.stamp == self.buf.epoch && !(g2 < s.g) {
            return;
        }
        let h = self.estimate(v);
        if h == f64::INFINITY {
            return;
        }
        self.buf.relax(v, g2, u, g2 + h);
    }

    /// [GRAPH.ASTAR.PATH] [GS.JUMP.PATH] [GS.THETA.COUNT] The parent chain, start first
    /// (jump engines fill the cells between jump points).
    pub fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        let chain = crate::astar::chain(&self.buf, self.goal, true);
        if self.rule != Rule::Jump {
            return chain;
        }
        super::jump::fill_path(&self.ctx, &chain)
    }

    /// [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when Found, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.path_cost
        } else {
            f64::INFINITY
        }
    }
}

/// The sliced surface shared by `AStar`, `JumpSearch` and `ThetaSearch`.
macro_rules! sliced_surface {
    () => {
        /// [GS.ASTAR.BEGIN] [GS.THETA.BEGIN] [GRAPH.ASTAR.BEGIN] Starts a search between `(x, y)` cells;
        /// `cell_out_of_range` (start first, x before y) changes nothing.
        pub fn begin(
            &mut self,
            start: (usize, usize),
            goal: (usize, usize),
        ) -> Result<(), GridSearchError> {
            self.core.begin(start, goal)
        }

        /// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] At most `budget` iterations.
        pub fn step(&mut self, budget: u64) -> SearchStatus {
            self.core.advance(budget, None)
        }

        /// [GRAPH.ASTAR.RUN] `step` without a budget, reading `cancel` every 256 iterations.
        pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
            self.core.advance(u64::MAX, cancel)
        }

        /// [GRAPH.ASTAR.STATUS] The current status.
        pub fn status(&self) -> SearchStatus {
            self.core.status
        }

        /// [GRAPH.ASTAR.PATH] The path start..goal when Found, else empty.
        pub fn path(&self) -> Vec<u32> {
            self.core.path()
        }

        /// [GRAPH.ASTAR.NOT_FOUND] The path cost (`+infinity` unless Found).
        pub fn path_cost(&self) -> f64 {
            self.core.path_cost()
        }

        /// [GRAPH.ASTAR.COUNTERS] Pops so far.
        pub fn iterations(&self) -> u64 {
            self.core.iterations
        }

        /// [GRAPH.ASTAR.COUNTERS] Expansions so far.
        pub fn expanded_count(&self) -> u64 {
            self.core.expanded
        }

        /// [GRAPH.ASTAR.COUNTERS] The recorded expanded cells.
        pub fn expansions(&self) -> &[u32] {
            &self.core.buf.record
        }

        /// [GS.STATE.SEARCHES] [STATE.SEARCH] The state bytes.
        pub fn save_state(&self) -> Vec<u8> {
            let mut out = Vec::new();
            self.save_state_into(&mut out);
            out
        }

        /// [STATE.API.INTO] The bytes of `save_state` written into `out` (cleared first; its
        /// allocation is reused).
        pub fn save_state_into(&self, out: &mut Vec<u8>) {
            out.clear();
            self.core.save(out);
        }

        /// [GS.STATE.SEARCHES] [STATE.SEARCH.CHECKS] [GS.STATE.FAILED] Restores a state saved
        /// by a search created the same way; on error the search is NotStarted.
        pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
            self.core.restore_whole(bytes)
        }
    };
}
pub(crate) use sliced_surface;
