//! [GS.ASTAR] Generic grid A* (`AStar`, kind 8) and the search buffers the generic engines share
//! (spec/grid-search.md §4, graph rules of spec/graphs.md §6).

use std::sync::atomic::{AtomicBool, Ordering};

use super::moves::{min_multiplier, octile_pair, Terrain, DIRS};
use super::options::{check_cells, validate, GridAlgorithm, GridOptions, GridSearchError};
use crate::astar::{normalize_estimate, parent_chain, SearchStatus, CANCEL_INTERVAL};
use crate::grid::Grid;
use crate::open_set::OpenSet;

/// [GRAPH.ASTAR.BUFFERS] [GRAPH.ASTAR.COUNTERS] The buffers, open set, status and counters of a
/// generic grid engine (`AStar`, `JumpSearch`, `ThetaSearch`).
pub(crate) struct Core {
    pub(crate) g: Vec<f64>,
    pub(crate) parent: Vec<Option<u32>>,
    pub(crate) reached: Vec<bool>,
    pub(crate) closed: Vec<bool>,
    pub(crate) open: OpenSet,
    pub(crate) start: u32,
    pub(crate) goal: u32,
    pub(crate) status: SearchStatus,
    pub(crate) path_cost: f64,
    pub(crate) iterations: u64,
    pub(crate) expanded: u64,
    pub(crate) record: bool,
    pub(crate) recorded: Vec<u32>,
}

impl Core {
    /// [GRAPH.ASTAR.BUFFERS] Buffers over `n` nodes, `NotStarted`.
    pub(crate) fn new(n: usize, record: bool) -> Core {
        Core {
            g: vec![f64::INFINITY; n],
            parent: vec![None; n],
            reached: vec![false; n],
            closed: vec![false; n],
            open: OpenSet::new(n),
            start: 0,
            goal: 0,
            status: SearchStatus::NotStarted,
            path_cost: f64::INFINITY,
            iterations: 0,
            expanded: 0,
            record,
            recorded: Vec::new(),
        }
    }

    /// [GRAPH.ASTAR.BEGIN] Resets every node to unreached, the counters and the recorded list,
    /// sets the ends and status `Running`.
    pub(crate) fn reset(&mut self, start: u32, goal: u32) {
        for v in 0..self.g.len() {
            self.g[v] = f64::INFINITY;
            self.parent[v] = None;
            self.reached[v] = false;
            self.closed[v] = false;
        }
        self.open.clear();
        self.iterations = 0;
        self.expanded = 0;
        self.recorded.clear();
        self.path_cost = f64::INFINITY;
        self.start = start;
        self.goal = goal;
        self.status = SearchStatus::Running;
    }

    /// [STATE.SEARCH_FAILED] As newly created (buffers left for the next `begin` to reset).
    pub(crate) fn reset_not_started(&mut self) {
        self.status = SearchStatus::NotStarted;
        self.start = 0;
        self.goal = 0;
        self.iterations = 0;
        self.expanded = 0;
        self.path_cost = f64::INFINITY;
        self.recorded.clear();
        self.open.clear();
    }

    /// [GRAPH.ASTAR.BEGIN] Reaches the start with `g = 0` and pushes `(start, h, 0)` when `h` is
    /// finite.
    pub(crate) fn push_start(&mut self, h: f64) {
        if h.is_finite() {
            let s = self.start as usize;
            self.g[s] = 0.0;
            self.parent[s] = None;
            self.reached[s] = true;
            self.open.push(self.start, h, 0.0);
        }
    }

    /// [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.GOAL_CLOSED] One `step(budget)`:
    /// (1) empty → `NotFound`; (2) budget; (3) pop, count, close, then `after_pop` (Lazy Theta*'s
    /// parent fix, before the goal test); (4) goal → `Found`; (5) `expand`, count, record.
    pub(crate) fn step(
        &mut self,
        budget: u64,
        mut after_pop: impl FnMut(&mut Core, u32),
        mut expand: impl FnMut(&mut Core, u32),
    ) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done: u64 = 0;
        loop {
            // (1)
            let Some(entry) = self.open.peek() else {
                self.status = SearchStatus::NotFound;
                return self.status;
            };
            // (2)
            if done == budget {
                return SearchStatus::Running;
            }
            // (3)
            self.open.pop();
            let u = entry.node;
            done += 1;
            self.iterations += 1;
            self.closed[u as usize] = true;
            after_pop(self, u);
            // (4)
            if u == self.goal {
                self.status = SearchStatus::Found;
                self.path_cost = self.g[u as usize];
                return self.status;
            }
            // (5)
            expand(self, u);
            self.expanded += 1;
            if self.record {
                self.recorded.push(u);
            }
        }
    }

    /// [GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] The parent chain start..goal when `Found`.
    pub(crate) fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        parent_chain(&self.parent, self.goal)
    }

    /// [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when `Found`, else `+infinity`.
    pub(crate) fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.path_cost
        } else {
            f64::INFINITY
        }
    }
}

/// [GRAPH.ASTAR.RUN] `step` without a budget: before the first iteration and after every 256
/// iterations it applies the empty check (`step(0)`), then reads `cancel` (set: `Running`).
pub(crate) fn run_with(
    cancel: Option<&AtomicBool>,
    mut step: impl FnMut(u64) -> SearchStatus,
) -> SearchStatus {
    loop {
        let s = step(0);
        if s != SearchStatus::Running {
            return s;
        }
        if let Some(flag) = cancel {
            if flag.load(Ordering::SeqCst) {
                return SearchStatus::Running;
            }
        }
        step(CANCEL_INTERVAL);
    }
}

/// [GS.EST.SCALE] The generic engines' estimate: `h = (o * mmin) * w`, or 0 for Dijkstra.
#[derive(Clone, Copy)]
struct Estimate {
    zero: bool,
    mmin: f64,
    weight: f64,
}

impl Estimate {
    /// [GS.EST.SCALE] [GRAPH.ASTAR.ESTIMATE] The normalised estimate from `v` to `goal`.
    fn h(&self, t: &Terrain<'_>, v: u32, goal: u32) -> f64 {
        if self.zero {
            return 0.0;
        }
        let o = octile_pair(t.xy(v), t.xy(goal), t.connectivity).value();
        normalize_estimate((o * self.mmin) * self.weight)
    }
}

/// [GRAPH.ASTAR.EXPAND] [GS.ASTAR.GRAPH] [GS.MOVE.ORDER] Relaxes the allowed moves of `u` in
/// neighbour order with the costs of [GS.COST.MOVE].
fn expand(t: &Terrain<'_>, est: Estimate, core: &mut Core, u: u32) {
    let pu = t.xy(u);
    for d in DIRS {
        if !t.move_allowed(pu, d) {
            continue;
        }
        let v = t.index((pu.0 + d.0, pu.1 + d.1));
        let diagonal = d.0 != 0 && d.1 != 0;
        let Some(c) = t.move_cost(u, v, diagonal) else {
            continue;
        };
        let g2 = core.g[u as usize] + c;
        if g2 == f64::INFINITY {
            continue;
        }
        let vi = v as usize;
        if !core.reached[vi] || g2 < core.g[vi] {
            let h = est.h(t, v, core.goal);
            if h == f64::INFINITY {
                continue;
            }
            core.g[vi] = g2;
            core.parent[vi] = Some(u);
            core.reached[vi] = true;
            core.closed[vi] = false;
            core.open.push(v, g2 + h, g2);
        }
    }
}

/// [GS.ASTAR.GRAPH] [GS.ASTAR.ALGORITHMS] Generic A* (or Dijkstra) over the grid's move graph.
pub struct AStar<'g> {
    pub(crate) terrain: Terrain<'g>,
    pub(crate) options: GridOptions,
    est: Estimate,
    pub(crate) core: Core,
}

impl<'g> AStar<'g> {
    /// [GS.OPT.VALID] [GS.ASTAR.ALGORITHMS] A search over `grid`: algorithms `AStar`,
    /// `Dijkstra`, and (`Jps`/`JpsPlus`, behaving as `AStar`); `Theta`/`LazyTheta` are
    /// `unsupported_algorithm`.
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        if matches!(
            options.algorithm,
            GridAlgorithm::Theta | GridAlgorithm::LazyTheta
        ) {
            return Err(GridSearchError::unsupported(options.algorithm, "AStar"));
        }
        let terrain = Terrain::new(grid, &options);
        let n = terrain.cell_count();
        Ok(AStar {
            est: Estimate {
                zero: options.algorithm == GridAlgorithm::Dijkstra,
                mmin: min_multiplier(grid),
                weight: options.heuristic_weight,
            },
            core: Core::new(n, options.record_expansions),
            terrain,
            options,
        })
    }

    /// [GS.ASTAR.BEGIN] [GRAPH.ASTAR.BEGIN] Checks the cells (start first, x before y; a failure
    /// changes nothing), resets, ends `NotFound` when the start or goal is not passable, else
    /// pushes the start.
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let t = &self.terrain;
        let (s, g) = check_cells(t.width, t.height, start, goal)?;
        self.core.reset(s, g);
        if !t.passable(t.xy(s)) || !t.passable(t.xy(g)) {
            self.core.status = SearchStatus::NotFound;
            return Ok(());
        }
        let h = self.est.h(t, s, g);
        self.core.push_start(h);
        Ok(())
    }

    /// [GRAPH.ASTAR.STEP] At most `budget` iterations; returns the status.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        let (t, est) = (&self.terrain, self.est);
        self.core
            .step(budget, |_, _| {}, |core, u| expand(t, est, core, u))
    }
    /// [GRAPH.ASTAR.RUN] Steps until done or cancelled.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        run_with(cancel, |b| self.step(b))
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.core.status
    }

    /// [GRAPH.ASTAR.PATH] The cells start..goal when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        self.core.path()
    }

    /// [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        self.core.path_cost()
    }

    /// [GRAPH.ASTAR.COUNTERS] The number of pops.
    pub fn iterations(&self) -> u64 {
        self.core.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS] The number of expansions.
    pub fn expanded_count(&self) -> u64 {
        self.core.expanded
    }

    /// [GRAPH.ASTAR.COUNTERS] The expanded cells in order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.core.recorded
    }
}
