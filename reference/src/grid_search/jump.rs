//! [GS.JUMP] [GS.JPSG] Jump points and the generic jump point search (`JumpSearch`, kind 9)
//! (spec/grid-search.md §5-§6).

use std::sync::atomic::AtomicBool;

use super::astar::{run_with, Core};
use super::moves::{is_uniform, octile_pair, Terrain};
use super::options::{
    check_cells, validate, Connectivity, DiagonalRule, GridAlgorithm, GridOptions, GridSearchError,
};
use crate::astar::SearchStatus;
use crate::grid::Grid;

/// [GS.JUMP.APPLIES] Jump point search runs only on a uniform grid, with no `cell_cost` hook,
/// weight 1.0, connectivity `Eight` and rule `NoneBlocked`.
pub(crate) fn jump_applies(grid: &Grid, options: &GridOptions) -> bool {
    is_uniform(grid)
        && options.cell_cost.is_none()
        && options.heuristic_weight == 1.0
        && options.connectivity == Connectivity::Eight
        && options.diagonal == DiagonalRule::NoneBlocked
}

/// `(sign dx, sign dy)` of the step from `a` to `b`.
pub(crate) fn sign_dir(a: (i64, i64), b: (i64, i64)) -> (i64, i64) {
    ((b.0 - a.0).signum(), (b.1 - a.1).signum())
}

/// [GS.JUMP.FORCED] The forced sides `s = -1, +1` (in that order) of `n` when moving straight in
/// `d`: for `E/W`, `(x, y + s)` passable and `(x - dx, y + s)` not; for `N/S`, `(x + s, y)`
/// passable and `(x + s, y - dy)` not.
pub(crate) fn forced_sides(t: &Terrain<'_>, n: (i64, i64), d: (i64, i64)) -> [bool; 2] {
    let (x, y) = n;
    let mut out = [false; 2];
    for (k, s) in [-1i64, 1].into_iter().enumerate() {
        out[k] = if d.1 == 0 {
            t.passable((x, y + s)) && !t.passable((x - d.0, y + s))
        } else {
            t.passable((x + s, y)) && !t.passable((x + s, y - d.1))
        };
    }
    out
}

/// [GS.JUMP.STRAIGHT] [GS.JUMP.DIAGONAL] `jump(c, d)`: the next jump point from `c` in `d`, or
/// `None`.
pub(crate) fn jump(
    t: &Terrain<'_>,
    c: (i64, i64),
    d: (i64, i64),
    goal: (i64, i64),
) -> Option<(i64, i64)> {
    let mut n = c;
    if d.0 == 0 || d.1 == 0 {
        // [GS.JUMP.STRAIGHT]
        loop {
            let next = (n.0 + d.0, n.1 + d.1);
            if !t.passable(next) {
                return None;
            }
            n = next;
            if n == goal || forced_sides(t, n, d).contains(&true) {
                return Some(n);
            }
        }
    }
    // [GS.JUMP.DIAGONAL]
    loop {
        let next = (n.0 + d.0, n.1 + d.1);
        let allowed =
            t.passable(next) && t.passable((n.0 + d.0, n.1)) && t.passable((n.0, n.1 + d.1));
        if !allowed {
            return None;
        }
        n = next;
        if n == goal || jump(t, n, (d.0, 0), goal).is_some() || jump(t, n, (0, d.1), goal).is_some()
        {
            return Some(n);
        }
    }
}

/// [GS.JUMP.SUCCESSORS] The directions tried from `c`, in order: all eight from the start
/// (`reached_by` none); after straight `d`: `d`, each forced side's perpendicular, each forced
/// side's diagonal; after diagonal `(dx, dy)`: `(dx, 0)`, `(0, dy)`, `(dx, dy)`.
pub(crate) fn successor_dirs(
    t: &Terrain<'_>,
    c: (i64, i64),
    reached_by: Option<(i64, i64)>,
) -> Vec<(i64, i64)> {
    let Some(d) = reached_by else {
        return super::moves::DIRS.to_vec();
    };
    if d.0 != 0 && d.1 != 0 {
        return vec![(d.0, 0), (0, d.1), d];
    }
    let forced = forced_sides(t, c, d);
    let sides = [-1i64, 1];
    let mut dirs = vec![d];
    for k in 0..2 {
        if forced[k] {
            // The perpendicular direction towards side s.
            dirs.push(if d.1 == 0 {
                (0, sides[k])
            } else {
                (sides[k], 0)
            });
        }
    }
    for k in 0..2 {
        if forced[k] {
            // The diagonal d + s.
            dirs.push(if d.1 == 0 {
                (d.0, sides[k])
            } else {
                (sides[k], d.1)
            });
        }
    }
    dirs
}

/// [GS.JUMP.PATH] Every cell between consecutive jump points: diagonal steps while both
/// coordinates differ, then straight; start first.
pub(crate) fn expand_jump_path(t: &Terrain<'_>, points: &[u32]) -> Vec<u32> {
    let mut out = Vec::new();
    let Some(&first) = points.first() else {
        return out;
    };
    out.push(first);
    for w in points.windows(2) {
        let mut p = t.xy(w[0]);
        let j = t.xy(w[1]);
        while p != j {
            let d = sign_dir(p, j);
            p = (p.0 + d.0, p.1 + d.1);
            out.push(t.index(p));
        }
    }
    out
}

/// [GS.JPSG.RULES] Expands jump point `c`: for each successor `j` with hop cost `o(c, j)`,
/// the reached / strictly-better / reopen / push rule of [GRAPH.ASTAR.EXPAND] with `h = o(j, goal)`.
fn expand(t: &Terrain<'_>, core: &mut Core, c: u32) {
    let pc = t.xy(c);
    let goal = t.xy(core.goal);
    let reached_by = core.parent[c as usize].map(|p| sign_dir(t.xy(p), pc));
    for dir in successor_dirs(t, pc, reached_by) {
        let Some(pj) = jump(t, pc, dir, goal) else {
            continue;
        };
        let j = t.index(pj);
        let hop = octile_pair(pc, pj, Connectivity::Eight).value();
        let g2 = core.g[c as usize] + hop;
        if g2 == f64::INFINITY {
            continue;
        }
        let ji = j as usize;
        if !core.reached[ji] || g2 < core.g[ji] {
            let h = octile_pair(pj, goal, Connectivity::Eight).value();
            core.g[ji] = g2;
            core.parent[ji] = Some(c);
            core.reached[ji] = true;
            core.closed[ji] = false;
            core.open.push(j, g2 + h, g2);
        }
    }
}

/// [GS.JPSG.RULES] The generic jump point search over the binary-heap open set.
pub struct JumpSearch<'g> {
    pub(crate) terrain: Terrain<'g>,
    pub(crate) core: Core,
}

impl<'g> JumpSearch<'g> {
    /// [GS.JPSG.RULES] [GS.OPT.VALID] A search over `grid`; `unsupported_algorithm` unless the
    /// algorithm is `Jps` or `JpsPlus` and [GS.JUMP.APPLIES] holds.
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        let jps = matches!(
            options.algorithm,
            GridAlgorithm::Jps | GridAlgorithm::JpsPlus
        );
        if !jps || !jump_applies(grid, &options) {
            return Err(GridSearchError::unsupported(
                options.algorithm,
                "JumpSearch",
            ));
        }
        let terrain = Terrain::new(grid, &options);
        let n = terrain.cell_count();
        Ok(JumpSearch {
            core: Core::new(n, options.record_expansions),
            terrain,
        })
    }

    /// [GS.ASTAR.BEGIN] Checks the cells, resets, ends `NotFound` when the start or goal is not
    /// passable, else pushes the start with `h = o(start, goal)`.
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
        let h = octile_pair(t.xy(s), t.xy(g), Connectivity::Eight).value();
        self.core.push_start(h);
        Ok(())
    }

    /// [GS.JPSG.RULES] [GRAPH.ASTAR.STEP] At most `budget` pops of jump points.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        let t = &self.terrain;
        self.core
            .step(budget, |_, _| {}, |core, c| expand(t, core, c))
    }

    /// [GRAPH.ASTAR.RUN] Steps until done or cancelled.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        run_with(cancel, |b| self.step(b))
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.core.status
    }

    /// [GS.JUMP.PATH] Every cell start..goal when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        expand_jump_path(&self.terrain, &self.core.path())
    }

    /// [GRAPH.ASTAR.NOT_FOUND] `g[goal]` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        self.core.path_cost()
    }

    /// [GS.JPSG.RULES] The number of jump point pops.
    pub fn iterations(&self) -> u64 {
        self.core.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS] The number of expansions.
    pub fn expanded_count(&self) -> u64 {
        self.core.expanded
    }

    /// [GRAPH.ASTAR.COUNTERS] The expanded jump points in order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.core.recorded
    }
}
