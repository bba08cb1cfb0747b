//! The incremental search itself, shared by LPA* and D* Lite on both grid shapes: `g` and `rhs`
//! per cell, keys, `UpdateVertex`, the compute loop and the path walk ([REPLAN.KEY.CALC] ..
//! [REPLAN.COMPUTE.LOOP], [REPLAN.EDIT.CELLS], [REPLAN.PATH.WALK], [REPLAN.PATH.BROKEN]).
//!
//! Resets are O(touched): every cell that was ever given a finite value since the last
//! initialisation is on the `touched` list, and initialising walks that list instead of the grid.

use super::moves::{Nbrs, Topo};
use super::queue::{Key, Queue};
use crate::grid_search::GsKind;
use crate::GridSearchError;

/// The search state of one replanner (everything but the shared pending entries).
pub(crate) struct Engine {
    pub n: usize,
    /// [REPLAN.RUN.SET_START] D* Lite (else LPA*).
    pub dstar: bool,
    pub start: u32,
    pub goal: u32,
    g: Vec<f64>,
    rhs: Vec<f64>,
    /// Whether a cell is on `touched`.
    mark: Vec<bool>,
    /// [REPLAN.STATE.SAVE] The touched cells as a two-level bitset, so a save lists the planned
    /// cells in increasing order without sorting (`O(cells / 4096 + touched words)`).
    set: crate::visit_set::VisitSet,
    /// Cells given a finite `g` or `rhs` since the last initialisation (each once).
    touched: Vec<u32>,
    pub queue: Queue,
    /// [REPLAN.KEY.CALC] D* Lite's key modifier (`+0.0` under LPA*).
    pub km: f64,
    pub found: bool,
    pub iterations: u64,
    pub expanded: u64,
    pub last_expanded: u64,
    pub record: bool,
    pub expansions: Vec<u32>,
    /// [DEBUG.REPLAN.KINDS] Settle or reset, beside each of `expansions`.
    pub expansion_kinds: Vec<crate::debug::ReplanExpansion>,
    /// [REPLAN.KEY.SCALE] The smallest multiplier of areas `0..=254`, as last read.
    pub scale: f64,
    /// [REPLAN.KEY.ESTIMATE] The heuristic weight `w`.
    pub weight: f64,
    /// [REPLAN.KEY.ESTIMATE] Dijkstra: every estimate is `+0.0`.
    pub zero: bool,
    /// [REPLAN.MOVE.COST] The grid's multipliers (area 255 unused), read at every replan.
    pub mult: [f64; 256],
    /// Scratch: the cells of one edit entry.
    cells_buf: Vec<u32>,
}

/// [REPLAN.KEY.SCALE] The smallest multiplier of areas `0..=254` of a multiplier table.
pub(crate) fn scale_of(mult: &[f64; 256]) -> f64 {
    let mut m = f64::INFINITY;
    for &v in &mult[..255] {
        if v < m {
            m = v;
        }
    }
    m
}

impl Engine {
    pub fn new(n: usize, dstar: bool, start: u32, goal: u32, weight: f64, zero: bool) -> Engine {
        Engine {
            n,
            dstar,
            start,
            goal,
            g: vec![f64::INFINITY; n],
            rhs: vec![f64::INFINITY; n],
            mark: vec![false; n],
            set: crate::visit_set::VisitSet::with_len(n),
            touched: Vec::new(),
            queue: Queue::new(n),
            km: 0.0,
            found: false,
            iterations: 0,
            expanded: 0,
            last_expanded: 0,
            record: false,
            expansions: Vec::new(),
            expansion_kinds: Vec::new(),
            scale: 1.0,
            weight,
            zero,
            mult: [1.0; 256],
            cells_buf: Vec::new(),
        }
    }

    /// LPA*'s source is the start, D* Lite's the goal.
    #[inline]
    pub fn source(&self) -> u32 {
        if self.dstar {
            self.goal
        } else {
            self.start
        }
    }

    /// LPA*'s target is the goal, D* Lite's the start.
    #[inline]
    pub fn target(&self) -> u32 {
        if self.dstar {
            self.start
        } else {
            self.goal
        }
    }

    #[inline(always)]
    pub fn g(&self, c: u32) -> f64 {
        self.g[c as usize]
    }

    #[inline(always)]
    pub fn rhs(&self, c: u32) -> f64 {
        self.rhs[c as usize]
    }

    #[inline(always)]
    fn touch(&mut self, c: u32) {
        if !self.mark[c as usize] {
            self.mark[c as usize] = true;
            self.touched.push(c);
            self.set.insert(c as usize);
        }
    }

    #[inline(always)]
    pub fn set_g(&mut self, c: u32, v: f64) {
        if v != f64::INFINITY {
            self.touch(c);
        }
        self.g[c as usize] = v;
    }

    #[inline(always)]
    pub fn set_rhs(&mut self, c: u32, v: f64) {
        if v != f64::INFINITY {
            self.touch(c);
        }
        self.rhs[c as usize] = v;
    }

    /// [REPLAN.INIT.STATE] Every `g` and `rhs` back to `+infinity` (O(touched)), queue emptied,
    /// `km = +0.0`.
    pub fn clear_values(&mut self) {
        for &c in &self.touched {
            self.g[c as usize] = f64::INFINITY;
            self.rhs[c as usize] = f64::INFINITY;
            self.mark[c as usize] = false;
        }
        self.touched.clear();
        self.set.clear();
        self.queue.clear();
        self.km = 0.0;
    }

    /// [REPLAN.STATE.SAVE] Calls `f(cell, g, rhs)` for every cell with a finite `g` or `rhs`, in
    /// increasing index (the touched set is a bitset, so no sort is needed).
    pub fn each_planned(&self, mut f: impl FnMut(u32, f64, f64)) {
        self.set.for_each(|c| {
            let (g, r) = (self.g[c], self.rhs[c]);
            if g != f64::INFINITY || r != f64::INFINITY {
                f(c as u32, g, r);
            }
        });
    }

    /// [REPLAN.KEY.ESTIMATE] [GS.EST.SCALE] [GRID.HEX.ESTIMATE] `h(a, b) = (o * mmin) * w` with
    /// `o` the octile value (square) or the hex distance as f64 (hex); `+0.0` under Dijkstra.
    #[inline]
    pub fn h<T: Topo>(&self, topo: &T, a: u32, b: u32) -> f64 {
        if self.zero {
            return 0.0;
        }
        (topo.distance(a, b) * self.scale) * self.weight
    }

    /// [REPLAN.KEY.H] LPA* `h(s, goal)`, D* Lite `h(start, s)`.
    #[inline]
    fn hk<T: Topo>(&self, topo: &T, s: u32) -> f64 {
        if self.dstar {
            self.h(topo, self.start, s)
        } else {
            self.h(topo, s, self.goal)
        }
    }

    /// [REPLAN.KEY.CALC] `m = min(g, rhs)` (`if rhs < g { rhs } else { g }`),
    /// `((m + hk) + km, m)`.
    #[inline]
    pub fn key<T: Topo>(&self, topo: &T, s: u32) -> Key {
        let (g, r) = (self.g(s), self.rhs(s));
        let m = if r < g { r } else { g };
        Key((m + self.hk(topo, s)) + self.km, m)
    }

    /// [REPLAN.MOVE.COST] [GS.COST.MOVE] [GRID.HEX.COST] `c(u, v) = base * m(area(v))`, the cost
    /// of entering `v` (hex: base 1.0).
    #[inline(always)]
    fn cost(&self, cells: &[u8], base: f64, v: u32) -> f64 {
        base * self.mult[cells[v as usize] as usize]
    }

    /// [REPLAN.INIT.RUN] Initialise: values, queue and `km` reset, then `rhs(source) = 0.0` and
    /// `(source, key(source))` pushed. (The shared flags are the caller's.)
    pub fn initialise<T: Topo>(&mut self, topo: &T) {
        self.clear_values();
        let s = self.source();
        self.set_rhs(s, 0.0);
        let k = self.key(topo, s);
        self.queue.push(s, k);
    }

    /// [REPLAN.UPDATE] `UpdateVertex(u)`: (1) unless `u` is the source, `rhs(u)` is the smallest
    /// `g(v) + c(v, u)` (LPA*) or `c(u, v) + g(v)` (D* Lite) over the neighbours in order,
    /// starting from `+infinity`, replaced only when strictly smaller; (2) an inconsistent `u` is
    /// re-keyed or pushed, a consistent queued `u` removed.
    pub fn update_vertex<T: Topo>(&mut self, topo: &T, cells: &[u8], u: u32) {
        if u != self.source() {
            let mut nb: Nbrs = [(0, 0.0); 8];
            let cnt = topo.moves(cells, u, &mut nb);
            let mut best = f64::INFINITY;
            for &(v, base) in &nb[..cnt] {
                let val = if self.dstar {
                    self.cost(cells, base, v) + self.g(v)
                } else {
                    self.g(v) + self.cost(cells, base, u)
                };
                if val < best {
                    best = val;
                }
            }
            self.set_rhs(u, best);
        }
        let slot = self.queue.slot(u);
        if self.g(u) != self.rhs(u) {
            let k = self.key(topo, u);
            match slot {
                Some(i) => self.queue.update(i, k),
                None => self.queue.push(u, k),
            }
        } else if let Some(i) = slot {
            self.queue.remove(i);
        }
    }

    /// [REPLAN.COMPUTE.STOP] Done when the queue is empty, or when the top key is not less than
    /// `key(target)`, `rhs(target) == g(target)` and the walk from the target meets only
    /// consistent cells ([`Engine::walk_consistent`]).
    pub fn done<T: Topo>(&self, topo: &T, cells: &[u8]) -> bool {
        if self.queue.len() == 0 {
            return true;
        }
        let t = self.target();
        let less = self.queue.top_key().less(self.key(topo, t));
        if less || self.rhs(t) != self.g(t) {
            return false;
        }
        self.walk_consistent(topo, cells)
    }

    /// [REPLAN.COMPUTE.STOP] The walk of [REPLAN.PATH.WALK] from the target: false as soon as it
    /// meets a cell with `g != rhs` (the source included); true when it reaches the source, finds
    /// no neighbour of finite value, or has taken `cells` steps (those end the walk with the path
    /// query's errors, not with more planning).
    fn walk_consistent<T: Topo>(&self, topo: &T, cells: &[u8]) -> bool {
        let (src, mut u) = (self.source(), self.target());
        let mut nb: Nbrs = [(0, 0.0); 8];
        let mut steps = 0usize;
        loop {
            if self.g(u) != self.rhs(u) {
                return false;
            }
            if u == src || steps == self.n {
                return true;
            }
            steps += 1;
            let cnt = topo.moves(cells, u, &mut nb);
            let mut best = f64::INFINITY;
            let mut next = None;
            for &(v, base) in &nb[..cnt] {
                let val = if self.dstar {
                    self.cost(cells, base, v) + self.g(v)
                } else {
                    self.g(v) + self.cost(cells, base, u)
                };
                if val < best {
                    best = val;
                    next = Some(v);
                }
            }
            match next {
                Some(v) => u = v,
                None => return true,
            }
        }
    }

    /// [REPLAN.COMPUTE.STEP] One iteration on slot 0's node `u` with saved key `k_old`:
    /// (a) `k_old < key(u)`: re-key only; (b) `g > rhs`: settle (`g = rhs`, remove, update the
    /// neighbours); (c) else reset (`g = +infinity`, update the neighbours, then `u`). (b) and
    /// (c) count an expansion and record `u` before the updates.
    pub fn step<T: Topo>(&mut self, topo: &T, cells: &[u8]) {
        let top = self.queue.heap[0];
        let u = top.node;
        self.iterations += 1;
        let k_new = self.key(topo, u);
        if top.key.less(k_new) {
            self.queue.update(0, k_new);
            return;
        }
        self.expanded += 1;
        self.last_expanded += 1;
        if self.record {
            self.expansions.push(u);
        }
        let mut nb: Nbrs = [(0, 0.0); 8];
        let cnt = topo.moves(cells, u, &mut nb);
        let settle = self.g(u) > self.rhs(u);
        if self.record {
            self.expansion_kinds.push(if settle {
                crate::debug::ReplanExpansion::Settle
            } else {
                crate::debug::ReplanExpansion::Reset
            });
        }
        if settle {
            let r = self.rhs(u);
            self.set_g(u, r);
            self.queue.remove(0);
            for &(v, _) in &nb[..cnt] {
                self.update_vertex(topo, cells, v);
            }
        } else {
            self.set_g(u, f64::INFINITY);
            for &(v, _) in &nb[..cnt] {
                self.update_vertex(topo, cells, v);
            }
            self.update_vertex(topo, cells, u);
        }
    }

    /// [REPLAN.COMPUTE.LOOP] Repeats: stop when done; stop unfinished after `budget` iterations of
    /// this call (`budget > 0`); else one iteration. Returns whether planning is done.
    /// [REPLAN.STATE.STRUCTURAL] On any restored state a budget `n > 0` bounds the iterations,
    /// and every index read is a cell of the grid (validated by the restore).
    pub fn compute<T: Topo>(&mut self, topo: &T, cells: &[u8], budget: u64) -> bool {
        let mut done_here = 0u64;
        loop {
            if self.done(topo, cells) {
                return true;
            }
            if budget > 0 && done_here == budget {
                return false;
            }
            self.step(topo, cells);
            done_here += 1;
        }
    }

    /// [REPLAN.EDIT.CELLS] Applies one pending entry: `UpdateVertex` on its cells, ascending.
    pub fn apply_entry<T: Topo>(&mut self, topo: &T, cells: &[u8], e: i32) {
        let mut buf = std::mem::take(&mut self.cells_buf);
        topo.edit_cells(e, self.dstar, &mut buf);
        for &c in &buf {
            self.update_vertex(topo, cells, c);
        }
        self.cells_buf = buf;
    }

    /// [REPLAN.PATH.WALK] [REPLAN.PATH.BROKEN] The walk from the target to the source over the
    /// grid `cells` with multipliers `mult`: LPA* steps to the neighbour with the smallest
    /// `g(v) + c(v, u)`, D* Lite `c(u, v) + g(v)`, the first on ties (strict `<`), finite values
    /// only; a cell with none is `broken_path`, `cells` steps without the source `path_cycle`.
    /// Cells come back start first (LPA* reverses its walk). `cached`: the passability cache is
    /// current for `cells`. [REPLAN.STATE.STRUCTURAL] On an inconsistent restored state the walk
    /// fails instead of indexing out of range or looping: at most `cells` steps.
    pub fn walk<T: Topo>(
        &self,
        topo: &T,
        cells: &[u8],
        mult: &[f64; 256],
        cached: bool,
    ) -> Result<Vec<u32>, GridSearchError> {
        if !self.found {
            return Ok(Vec::new());
        }
        let (src, mut u) = (self.source(), self.target());
        let mut path = vec![u];
        let mut steps = 0usize;
        let mut nb: Nbrs = [(0, 0.0); 8];
        while u != src {
            if steps == self.n {
                return Err(GridSearchError::new(GsKind::PathCycle { steps }));
            }
            let cnt = topo.moves_direct(cells, cached, u, &mut nb);
            let mut best = f64::INFINITY;
            let mut next = None;
            for &(v, base) in &nb[..cnt] {
                let val = if self.dstar {
                    base * mult[cells[v as usize] as usize] + self.g(v)
                } else {
                    self.g(v) + base * mult[cells[u as usize] as usize]
                };
                if val < best {
                    best = val;
                    next = Some(v);
                }
            }
            u = next.ok_or_else(|| GridSearchError::new(GsKind::BrokenPath { cell: u }))?;
            path.push(u);
            steps += 1;
        }
        if !self.dstar {
            path.reverse();
        }
        Ok(path)
    }

    /// [REPLAN.STATE.RESTORE] Installs one saved planned cell (values as saved, `-0.0` kept).
    pub fn install_cell(&mut self, c: u32, g: f64, rhs: f64) {
        self.touch(c);
        self.g[c as usize] = g;
        self.rhs[c as usize] = rhs;
    }
}
