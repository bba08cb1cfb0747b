//! [REPLAN.INIT.RUN] [REPLAN.UPDATE] [REPLAN.COMPUTE.STEP] [REPLAN.RUN.REPLAN] The LPA* / D* Lite
//! engine shared by `GridReplanner` and `HexReplanner`: g, rhs, the queue, km, the pending edits
//! and the counters, with every step written as spec/replanning.md §4–§6 writes it.

use crate::debug::ReplanExpansion;
use std::sync::{Arc, Mutex, MutexGuard};

use super::moves::{Metric, Surface};
use super::queue::{Key, ReplanOpenSet};
use super::ReplanMode;
use crate::astar::SearchStatus;
use crate::grid_search::{GridAlgorithm, GridSearchError};

/// [REPLAN.EDIT.LISTEN] [REPLAN.EDIT.LIMIT] What the grid listener shares with its replanner.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    /// Whether the replanner is initialised (the listener appends only then).
    pub(crate) initialized: bool,
    /// The overflow flag.
    pub(crate) overflow: bool,
    /// The pending entries, in the order appended.
    pub(crate) entries: Vec<i32>,
    /// `L = 64 + cells / 16`.
    pub(crate) limit: usize,
}

impl Pending {
    /// [REPLAN.EDIT.LISTEN] [REPLAN.EDIT.LIMIT] The listener's action for one changed cell.
    pub(crate) fn on_edit(&mut self, cell: u32, old: u8, new: u8) {
        if !self.initialized || self.overflow {
            return;
        }
        let wall = crate::grid::WALL;
        let entry = if (old == wall) == (new == wall) {
            cell as i32
        } else {
            !(cell as i32)
        };
        if self.entries.len() >= self.limit {
            self.overflow = true;
            self.entries.clear();
        } else {
            self.entries.push(entry);
        }
    }
}

/// [REPLAN.EDIT.LIMIT] `L = 64 + cells / 16`.
pub(crate) fn pending_limit(cells: usize) -> usize {
    64 + cells / 16
}

/// The engine of one replanner.
pub(crate) struct Engine {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) metric: Metric,
    pub(crate) mode: ReplanMode,
    pub(crate) algorithm: GridAlgorithm,
    pub(crate) weight: f64,
    pub(crate) record: bool,
    pub(crate) start: u32,
    pub(crate) goal: u32,
    pub(crate) g: Vec<f64>,
    pub(crate) rhs: Vec<f64>,
    pub(crate) queue: ReplanOpenSet,
    pub(crate) km: f64,
    pub(crate) shared: Arc<Mutex<Pending>>,
    pub(crate) found: bool,
    pub(crate) iterations: u64,
    pub(crate) expanded: u64,
    pub(crate) last_expanded: u64,
    pub(crate) recorded: Vec<u32>,
    /// [DEBUG.REPLAN.KINDS] Beside each recorded node, settled or reset.
    pub(crate) recorded_kinds: Vec<ReplanExpansion>,
    /// [REPLAN.KEY.SCALE] The smallest multiplier, as last read.
    pub(crate) scale: f64,
    /// [REPLAN.EDIT.AREAS] The area version the replanner was built against.
    pub(crate) area_version: i32,
    /// [REPLAN.EDIT.GRID_RESTORE] The grid's restore count, as last seen.
    pub(crate) seen_restore: u64,
}

/// The grid facts a replan reads besides the surface.
pub(crate) struct GridFacts {
    pub(crate) restore_count: u64,
    pub(crate) area_version: i32,
    pub(crate) scale: f64,
}

/// A `min` by [SPEC.NUM.COMPARE]: `if b < a { b } else { a }`.
fn min(a: f64, b: f64) -> f64 {
    if b < a {
        b
    } else {
        a
    }
}

impl Engine {
    /// Locks the shared pending state (a poisoned lock still holds valid data).
    pub(crate) fn pending(&self) -> MutexGuard<'_, Pending> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the replanner is initialised.
    pub(crate) fn initialized(&self) -> bool {
        self.pending().initialized
    }

    /// The number of cells.
    pub(crate) fn cells(&self) -> usize {
        self.width * self.height
    }

    fn lpa(&self) -> bool {
        self.mode == ReplanMode::Lpa
    }

    /// LPA*'s source is the start, D* Lite's the goal.
    pub(crate) fn source(&self) -> u32 {
        if self.lpa() {
            self.start
        } else {
            self.goal
        }
    }

    /// LPA*'s target is the goal, D* Lite's the start.
    pub(crate) fn target(&self) -> u32 {
        if self.lpa() {
            self.goal
        } else {
            self.start
        }
    }

    /// [REPLAN.KEY.ESTIMATE] `(o * mmin) * w`, or `+0.0` for Dijkstra.
    pub(crate) fn h(&self, a: u32, b: u32) -> f64 {
        if self.algorithm == GridAlgorithm::Dijkstra {
            return 0.0;
        }
        (self.metric.units(a, b) * self.scale) * self.weight
    }

    /// [REPLAN.KEY.H] LPA* `h(s, goal)`, D* Lite `h(start, s)`.
    fn hk(&self, s: u32) -> f64 {
        if self.lpa() {
            self.h(s, self.goal)
        } else {
            self.h(self.start, s)
        }
    }

    /// [REPLAN.KEY.CALC] `((min(g, rhs) + hk(s)) + km, min(g, rhs))`.
    fn key(&self, s: u32) -> Key {
        let m = min(self.g[s as usize], self.rhs[s as usize]);
        Key {
            k1: (m + self.hk(s)) + self.km,
            k2: m,
        }
    }

    /// [REPLAN.RUN.RESTART] [REPLAN.INIT.STATE] Uninitialised; counters and the recorded list kept.
    pub(crate) fn restart(&mut self) {
        for v in 0..self.cells() {
            self.g[v] = f64::INFINITY;
            self.rhs[v] = f64::INFINITY;
        }
        self.queue.clear();
        self.km = 0.0;
        self.found = false;
        let mut p = self.pending();
        p.initialized = false;
        p.overflow = false;
        p.entries.clear();
    }

    /// [REPLAN.INIT.RUN] Every value `+inf`, queue and pending emptied, overflow cleared,
    /// `km = 0`, `rhs(source) = 0` and the source queued.
    fn initialise(&mut self) {
        for v in 0..self.cells() {
            self.g[v] = f64::INFINITY;
            self.rhs[v] = f64::INFINITY;
        }
        self.queue.clear();
        {
            let mut p = self.pending();
            p.entries.clear();
            p.overflow = false;
            p.initialized = true;
        }
        self.km = 0.0;
        let s = self.source();
        self.rhs[s as usize] = 0.0;
        let k = self.key(s);
        self.queue.push(s, k);
    }

    /// [REPLAN.UPDATE] UpdateVertex(u).
    fn update_vertex(&mut self, surface: &dyn Surface, u: u32) {
        // (1)
        if u != self.source() {
            let mut best = f64::INFINITY;
            for n in surface.neighbours(u) {
                let value = if self.lpa() {
                    self.g[n.v as usize] + n.in_cost
                } else {
                    n.out_cost + self.g[n.v as usize]
                };
                if value < best {
                    best = value;
                }
            }
            self.rhs[u as usize] = best;
        }
        // (2)
        let (g, rhs) = (self.g[u as usize], self.rhs[u as usize]);
        if g != rhs {
            let k = self.key(u);
            if self.queue.contains(u) {
                self.queue.update(u, k);
            } else {
                self.queue.push(u, k);
            }
        } else if self.queue.contains(u) {
            self.queue.remove(u);
        }
    }

    /// [REPLAN.COMPUTE.STOP] The queue is empty, or neither the top key is less than
    /// `key(target)` nor `rhs(target) != g(target)`, and the walk from the target meets only
    /// consistent cells.
    fn planning_done(&self, surface: &dyn Surface) -> bool {
        if self.queue.top().is_none() {
            return true;
        }
        let t = self.target();
        let top_less = self.queue.top_key().less(self.key(t));
        let inconsistent = self.rhs[t as usize] != self.g[t as usize];
        if top_less || inconsistent {
            return false;
        }
        self.walk_is_consistent(surface)
    }

    /// [REPLAN.COMPUTE.STOP] The walk of [REPLAN.PATH.WALK] from the target, cell by cell: a cell
    /// with `g != rhs` (the source included) means planning goes on; reaching the source, a cell
    /// without a neighbour of finite value, or `cells` steps end it.
    fn walk_is_consistent(&self, surface: &dyn Surface) -> bool {
        let source = self.source();
        let mut u = self.target();
        let mut steps = 0usize;
        loop {
            if self.g[u as usize] != self.rhs[u as usize] {
                return false;
            }
            if u == source || steps == self.cells() {
                return true;
            }
            match self.best_neighbour(surface, u) {
                Some(v) => u = v,
                None => return true,
            }
            steps += 1;
        }
    }

    /// [REPLAN.PATH.WALK] The neighbour the walk steps to from `u`: the smallest finite
    /// `g(v) + c(v, u)` (LPA*) or `c(u, v) + g(v)` (D* Lite), the first on ties.
    fn best_neighbour(&self, surface: &dyn Surface, u: u32) -> Option<u32> {
        let mut best: Option<(u32, f64)> = None;
        for n in surface.neighbours(u) {
            let value = if self.lpa() {
                self.g[n.v as usize] + n.in_cost
            } else {
                n.out_cost + self.g[n.v as usize]
            };
            if value < f64::INFINITY && best.is_none_or(|(_, b)| value < b) {
                best = Some((n.v, value));
            }
        }
        best.map(|(v, _)| v)
    }

    /// [REPLAN.COMPUTE.STEP] One iteration on slot 0: re-key, settle or reset.
    fn iterate(&mut self, surface: &dyn Surface) {
        let Some(top) = self.queue.top() else {
            return;
        };
        let u = top.node;
        self.iterations = self.iterations.saturating_add(1);
        let k_new = self.key(u);
        if top.key.less(k_new) {
            // (a) re-key
            self.queue.update(u, k_new);
        } else if self.g[u as usize] > self.rhs[u as usize] {
            // (b) settle
            self.g[u as usize] = self.rhs[u as usize];
            self.queue.remove(u);
            self.count_expansion(u, ReplanExpansion::Settle);
            for n in surface.neighbours(u) {
                self.update_vertex(surface, n.v);
            }
        } else {
            // (c) reset
            self.g[u as usize] = f64::INFINITY;
            self.count_expansion(u, ReplanExpansion::Reset);
            for n in surface.neighbours(u) {
                self.update_vertex(surface, n.v);
            }
            self.update_vertex(surface, u);
        }
    }

    /// [REPLAN.RUN.COUNTERS] [REPLAN.RUN.RECORD] [DEBUG.REPLAN.KINDS] One settle or reset.
    fn count_expansion(&mut self, u: u32, kind: ReplanExpansion) {
        self.expanded = self.expanded.saturating_add(1);
        self.last_expanded = self.last_expanded.saturating_add(1);
        if self.record {
            self.recorded.push(u);
            self.recorded_kinds.push(kind);
        }
    }

    /// [REPLAN.COMPUTE.LOOP] Computes with budget `n` (0 = unlimited); true when planning is
    /// done.
    fn compute(&mut self, surface: &dyn Surface, budget: u64) -> bool {
        let mut done: u64 = 0;
        loop {
            if self.planning_done(surface) {
                return true;
            }
            if budget > 0 && done == budget {
                return false;
            }
            self.iterate(surface);
            done += 1;
        }
    }

    /// [REPLAN.EDIT.CELLS] Applies the pending entries in order and empties the list.
    fn apply_pending(&mut self, surface: &dyn Surface) {
        let entries = std::mem::take(&mut self.pending().entries);
        for e in entries {
            for u in surface.edit_cells(e, self.lpa()) {
                self.update_vertex(surface, u);
            }
        }
    }

    /// [REPLAN.RUN.REPLAN] `replan(grid, budget)` over a surface of the grid and its facts.
    pub(crate) fn replan(
        &mut self,
        surface: &dyn Surface,
        facts: &GridFacts,
        budget: u64,
    ) -> SearchStatus {
        // (1)
        self.scale = facts.scale;
        if facts.restore_count != self.seen_restore || facts.area_version != self.area_version {
            self.restart();
            self.seen_restore = facts.restore_count;
            self.area_version = facts.area_version;
        }
        // (2)
        if self.pending().overflow {
            self.restart();
        }
        // (3)
        self.found = false;
        self.last_expanded = 0;
        self.recorded.clear();
        self.recorded_kinds.clear();
        // (4)
        if !self.initialized() {
            self.initialise();
        } else {
            self.apply_pending(surface);
        }
        // (5), (6)
        if self.compute(surface, budget) {
            self.found = self.g[self.target() as usize] < f64::INFINITY;
            if self.found {
                SearchStatus::Found
            } else {
                SearchStatus::NotFound
            }
        } else {
            SearchStatus::Running
        }
    }

    /// [REPLAN.RUN.SET_START] LPA*: set and restart; D* Lite: `km += h(old, new)` when
    /// initialised, then set and clear `found`.
    pub(crate) fn set_start(&mut self, cell: u32) {
        if cell == self.start {
            return;
        }
        if self.lpa() {
            self.start = cell;
            self.restart();
        } else {
            if self.initialized() {
                self.km += self.h(self.start, cell);
            }
            self.start = cell;
            self.found = false;
        }
    }

    /// [REPLAN.RUN.SET_GOAL] Set and restart.
    pub(crate) fn set_goal(&mut self, cell: u32) {
        if cell == self.goal {
            return;
        }
        self.goal = cell;
        self.restart();
    }

    /// [REPLAN.PATH.WALK] [REPLAN.PATH.BROKEN] The path, start first; empty unless found.
    pub(crate) fn path(&self, surface: &dyn Surface) -> Result<Vec<u32>, GridSearchError> {
        if !self.found {
            return Ok(Vec::new());
        }
        let (from, to) = (self.target(), self.source());
        let mut walk = vec![from];
        let mut u = from;
        let mut steps = 0usize;
        while u != to {
            if steps == self.cells() {
                return Err(GridSearchError::path_cycle(u));
            }
            let Some(v) = self.best_neighbour(surface, u) else {
                return Err(GridSearchError::broken_path(u));
            };
            walk.push(v);
            u = v;
            steps += 1;
        }
        if self.lpa() {
            walk.reverse();
        }
        Ok(walk)
    }

    /// [REPLAN.PATH.WALK] `g(target)` when found, else `+inf`.
    pub(crate) fn path_cost(&self) -> f64 {
        if self.found {
            self.g[self.target() as usize]
        } else {
            f64::INFINITY
        }
    }
}
