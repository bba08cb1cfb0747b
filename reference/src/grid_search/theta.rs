//! [GS.THETA] Theta* and Lazy Theta* (`ThetaSearch`, kind 10) (spec/grid-search.md §6).

use std::sync::atomic::AtomicBool;

use super::astar::{run_with, Core};
use super::moves::{euclid, Terrain, DIRS};
use super::options::{check_cells, validate, GridAlgorithm, GridOptions, GridSearchError};
use crate::astar::SearchStatus;
use crate::grid::Grid;

/// [GS.THETA.COST] The estimate `euclid(v, goal) * w`.
fn estimate(t: &Terrain<'_>, w: f64, v: u32, goal: u32) -> f64 {
    euclid(t.xy(v), t.xy(goal)) * w
}

/// [GS.THETA.EXPAND] [GS.THETA.LAZY] Expands `u`: for each allowed move `u -> v` in neighbour
/// order with `v` not closed, the candidate `(p, g[p] + euclid(p, v))` through `u`'s parent `p`
/// (Theta*: only when `p`, `v` are in line of sight; Lazy: always), else `(u, g[u] + euclid(u, v))`;
/// set and push when `v` is unreached or the candidate is strictly cheaper. No reopening.
fn expand(t: &Terrain<'_>, lazy: bool, w: f64, core: &mut Core, u: u32) {
    let pu = t.xy(u);
    for d in DIRS {
        if !t.move_allowed(pu, d) {
            continue;
        }
        let pv = (pu.0 + d.0, pu.1 + d.1);
        let v = t.index(pv);
        let vi = v as usize;
        if core.closed[vi] {
            continue;
        }
        let through_parent = match core.parent[u as usize] {
            Some(p) if lazy || t.line_of_sight(t.xy(p), pv) => Some(p),
            _ => None,
        };
        let (from, g) = match through_parent {
            Some(p) => (p, core.g[p as usize] + euclid(t.xy(p), pv)),
            None => (u, core.g[u as usize] + euclid(pu, pv)),
        };
        if !core.reached[vi] || g < core.g[vi] {
            core.g[vi] = g;
            core.parent[vi] = Some(from);
            core.reached[vi] = true;
            core.open.push(v, g + estimate(t, w, v, core.goal), g);
        }
    }
}

/// [GS.THETA.LAZY] After popping `u` (before the goal test): when `u` has a parent `p` not in
/// line of sight, the parent becomes the closed neighbour `s` with an allowed move `s -> u`
/// minimising `g[s] + euclid(s, u)` (first in neighbour order on ties), and `g[u]` that sum.
fn lazy_fix(t: &Terrain<'_>, core: &mut Core, u: u32) {
    let pu = t.xy(u);
    let Some(p) = core.parent[u as usize] else {
        return;
    };
    if t.line_of_sight(t.xy(p), pu) {
        return;
    }
    let mut best: Option<(u32, f64)> = None;
    for d in DIRS {
        let ps = (pu.0 + d.0, pu.1 + d.1);
        if !t.inside(ps) {
            continue;
        }
        let s = t.index(ps);
        if !core.closed[s as usize] || !t.move_allowed(ps, (-d.0, -d.1)) {
            continue;
        }
        let sum = core.g[s as usize] + euclid(ps, pu);
        if best.is_none_or(|(_, b)| sum < b) {
            best = Some((s, sum));
        }
    }
    // A cell pushed from `u` has `u` closed, so a candidate exists ([GS.THETA.LAZY]).
    if let Some((s, sum)) = best {
        core.parent[u as usize] = Some(s);
        core.g[u as usize] = sum;
    }
}

/// [GS.THETA.ALGORITHMS] [GS.THETA.COUNT] Theta* or Lazy Theta*: any-angle paths of waypoints.
pub struct ThetaSearch<'g> {
    pub(crate) terrain: Terrain<'g>,
    pub(crate) options: GridOptions,
    pub(crate) core: Core,
}

impl<'g> ThetaSearch<'g> {
    /// [GS.THETA.ALGORITHMS] [GS.OPT.VALID] A search over `grid`; only `Theta` and `LazyTheta`.
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        if !matches!(
            options.algorithm,
            GridAlgorithm::Theta | GridAlgorithm::LazyTheta
        ) {
            return Err(GridSearchError::unsupported(
                options.algorithm,
                "ThetaSearch",
            ));
        }
        let terrain = Terrain::new(grid, &options);
        let n = terrain.cell_count();
        Ok(ThetaSearch {
            core: Core::new(n, options.record_expansions),
            terrain,
            options,
        })
    }

    /// [GS.THETA.BEGIN]
    /// [GS.ASTAR.BEGIN] Checks the cells, resets, ends `NotFound` when the start or goal is not
    /// passable, else pushes the start with `h = euclid(start, goal) * w`.
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
        let h = estimate(t, self.options.heuristic_weight, s, g);
        self.core.push_start(h);
        Ok(())
    }

    /// [GS.THETA.COUNT] [GRAPH.ASTAR.STEP] At most `budget` pops.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        let t = &self.terrain;
        let w = self.options.heuristic_weight;
        let lazy = self.options.algorithm == GridAlgorithm::LazyTheta;
        self.core.step(
            budget,
            |core, u| {
                if lazy {
                    lazy_fix(t, core, u)
                }
            },
            |core, u| expand(t, lazy, w, core, u),
        )
    }

    /// [GRAPH.ASTAR.RUN] Steps until done or cancelled.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        run_with(cancel, |b| self.step(b))
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.core.status
    }

    /// [GS.THETA.COUNT] The waypoints start..goal when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        self.core.path()
    }

    /// [GS.THETA.COUNT] `g[goal]` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        self.core.path_cost()
    }

    /// [GS.THETA.COUNT] The number of pops.
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
