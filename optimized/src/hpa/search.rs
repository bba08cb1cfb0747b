//! [HPA.QUERY.BEGIN] .. [HPA.TIER1.ALGORITHM] The query: the temporary start and goal nodes
//! and their edges, the abstract A* over permanent and temporary nodes (graph A* rules on an
//! epoch-reset 4-ary open set; never saved), refinement, smoothing and tier 1.

use super::hierarchy::HpaHierarchy;
use super::refine::{cut_loops, path_cost, smooth};
use super::{move_options, validate, HpaOptions};
use crate::astar::{normalize, SearchStatus};
use crate::grid_search::{Ctx, GridAlgorithm, GridPath, GridSearchError, HpaEntry};
use crate::heap::{Scratch, NO_PARENT};
use crate::plane::Grid;
use crate::tier1::PathStatus;
use std::sync::atomic::{AtomicBool, Ordering};

/// A temporary edge: target (or source) node id, cost, stored path.
type TempEdge = (u32, f64, Vec<u32>);

/// [HPA.SLICED.API] A sliced HPA* query on a grid and a hierarchy it borrows.
pub struct HpaSearch<'a> {
    grid: &'a Grid,
    hierarchy: &'a mut HpaHierarchy,
    ctx: Option<Ctx<'a>>,
    buf: Scratch,
    status: SearchStatus,
    start: u32,
    goal: u32,
    /// [HPA.QUERY.TEMP] The ids of `S` and `G` (equal when start = goal).
    s_id: u32,
    g_id: u32,
    /// [HPA.QUERY.EDGES] `S ->` edges (ascending target, `G` last) and `-> G` edges (ascending
    /// source).
    from_start: Vec<TempEdge>,
    to_goal: Vec<TempEdge>,
    iterations: u64,
    expanded: u64,
    record: Vec<u32>,
    path: Vec<u32>,
    abstract_path: Vec<u32>,
    cost: f64,
    /// Scratch of `expand`: the out-edges of the node being expanded.
    out: Vec<(u32, f64)>,
    /// Scratch of `cut_loops`.
    order: Vec<(u32, u32)>,
    /// Tier 1 only: the hierarchy is known to match the grid (the grid-owned hierarchy with no
    /// edit, restore or multiplier change since its last refresh), so `begin` skips the refresh,
    /// which would find nothing to do ([HPA.REFRESH.WHEN]; the hierarchy is private to the grid,
    /// so its `rebuilt_chunks` is not observed). Never set on a sliced search.
    fresh: bool,
}

impl<'a> HpaSearch<'a> {
    /// [HPA.SLICED.API] A search that has not begun.
    pub fn new(grid: &'a Grid, hierarchy: &'a mut HpaHierarchy) -> Self {
        HpaSearch {
            grid,
            hierarchy,
            ctx: None,
            buf: Scratch::default(),
            status: SearchStatus::NotStarted,
            start: 0,
            goal: 0,
            s_id: 0,
            g_id: 0,
            from_start: Vec::new(),
            to_goal: Vec::new(),
            iterations: 0,
            expanded: 0,
            record: Vec::new(),
            path: Vec::new(),
            abstract_path: Vec::new(),
            cost: f64::INFINITY,
            out: Vec::new(),
            order: Vec::new(),
            fresh: false,
        }
    }

    /// The cell of node `v`.
    fn cell(&self, v: u32) -> u32 {
        if v == self.s_id {
            self.start
        } else if v == self.g_id {
            self.goal
        } else {
            self.hierarchy.node_cell[v as usize]
        }
    }

    /// [HPA.SEARCH.ESTIMATE] `(o * mmin) * w` between `v`'s cell and the goal, normalised.
    fn estimate(&self, v: u32) -> f64 {
        let ctx = self.ctx.as_ref().expect("begun");
        let o = ctx.octile(self.cell(v), self.goal);
        normalize((o * ctx.mmin) * self.hierarchy.options().heuristic_weight)
    }

    /// [HPA.QUERY.BEGIN] [HPA.BUILD.LAZY] [HPA.QUERY.TEMP] [HPA.QUERY.EDGES] Range checks, the
    /// refresh, the reset, the ends' passability, the temporary edges and the first push.
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        // The grid is borrowed for the search's life and the options are the hierarchy's, so one
        // context serves every query of this search.
        let ctx = match self.ctx.take() {
            Some(ctx) => ctx,
            None => Ctx::new(self.grid, move_options(self.hierarchy.options()))?,
        };
        let (s, g) = match ctx.cells_of(start, goal) {
            Ok(v) => v,
            Err(e) => {
                self.ctx = Some(ctx);
                return Err(e);
            }
        };
        if !self.fresh {
            self.hierarchy.refresh(self.grid);
        }
        let n = self.hierarchy.node_cell.len() as u32;
        self.start = s;
        self.goal = g;
        self.s_id = n;
        self.g_id = if s == g { n } else { n + 1 };
        self.buf.reset(n as usize + 2);
        self.iterations = 0;
        self.expanded = 0;
        self.record.clear();
        self.path.clear();
        self.abstract_path.clear();
        self.from_start.clear();
        self.to_goal.clear();
        self.cost = f64::INFINITY;
        self.status = SearchStatus::Running;
        let passable = ctx.passable(s) && ctx.passable(g);
        self.ctx = Some(ctx);
        if !passable {
            self.status = SearchStatus::NotFound;
            return Ok(());
        }
        if s != g {
            self.connect();
        }
        let h = self.estimate(self.s_id);
        if h != f64::INFINITY {
            self.buf.relax(self.s_id, 0.0, NO_PARENT, h);
        }
        Ok(())
    }

    /// [HPA.QUERY.EDGES] The chunk searches from the start and to the goal.
    fn connect(&mut self) {
        let ctx = self.ctx.as_ref().expect("begun");
        let h = &mut *self.hierarchy;
        let t = h.tiling();
        let (k, l) = (h.chunk_of(self.start), h.chunk_of(self.goal));
        let ks: Vec<u32> = h.nodes_of(k).collect();
        let ls: Vec<u32> = h.nodes_of(l).collect();
        h.search.run(ctx, &t, k, self.start);
        for &b in &ks {
            let cell = h.node_cell[b as usize];
            if let Some(c) = h.search.cost(cell) {
                self.from_start.push((b, c, h.search.path(cell)));
            }
        }
        if k == l {
            if let Some(c) = h.search.cost(self.goal) {
                self.from_start
                    .push((self.g_id, c, h.search.path(self.goal)));
            }
        }
        for &a in &ls {
            h.search.run(ctx, &t, l, h.node_cell[a as usize]);
            if let Some(c) = h.search.cost(self.goal) {
                self.to_goal.push((a, c, h.search.path(self.goal)));
            }
        }
    }

    /// [HPA.SEARCH.ITERATION] At most `budget` pops.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        self.advance(budget, None)
    }

    /// [GRAPH.ASTAR.RUN] To the end, reading `cancel` every 256 pops of this call.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        self.advance(u64::MAX, cancel)
    }

    /// [HPA.SEARCH.GRAPH] [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.GOAL_CLOSED] The sliced loop.
    fn advance(&mut self, max: u64, cancel: Option<&AtomicBool>) -> SearchStatus {
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
            let Some(top) = self.buf.pop() else {
                continue;
            };
            let u = top.node;
            done += 1;
            self.iterations += 1;
            if u == self.g_id {
                self.status = SearchStatus::Found;
                self.finish();
                return self.status;
            }
            self.expand(u);
            self.expanded += 1;
            if self.hierarchy.options().record_expansions {
                self.record.push(self.cell(u));
            }
        }
    }

    /// [HPA.QUERY.OUT_ORDER] [GRAPH.ASTAR.EXPAND] Relaxes the out-edges of `u` in ascending
    /// target order.
    fn expand(&mut self, u: u32) {
        let gu = self.buf.slots[u as usize].g;
        let mut out = std::mem::take(&mut self.out);
        out.clear();
        if u == self.s_id {
            out.extend(self.from_start.iter().map(|e| (e.0, e.1)));
        } else {
            let h = &*self.hierarchy;
            let (lo, hi) = (
                h.first[u as usize] as usize,
                h.first[u as usize + 1] as usize,
            );
            out.extend(h.edges[lo..hi].iter().map(|e| (e.to, e.cost)));
            if let Ok(i) = self.to_goal.binary_search_by_key(&u, |e| e.0) {
                out.push((self.g_id, self.to_goal[i].1));
            }
        }
        for &(v, c) in &out {
            let g2 = gu + c;
            if g2 == f64::INFINITY {
                continue;
            }
            let s = &self.buf.slots[v as usize];
            if s.stamp == self.buf.epoch && !(g2 < s.g) {
                continue;
            }
            let h = self.estimate(v);
            if h == f64::INFINITY {
                continue;
            }
            self.buf.relax(v, g2, u, g2 + h);
        }
        self.out = out;
    }

    /// The stored path of the edge `a -> b` of the abstract path.
    fn edge_path(&self, a: u32, b: u32) -> Vec<u32> {
        if a == self.s_id {
            let e = self
                .from_start
                .iter()
                .find(|e| e.0 == b)
                .expect("an S edge");
            return e.2.clone();
        }
        if b == self.g_id {
            let e = self.to_goal.iter().find(|e| e.0 == a).expect("a G edge");
            return e.2.clone();
        }
        let h = &*self.hierarchy;
        let i = h.edge_index(a, b).expect("an edge of the abstract path");
        h.path(i).to_vec()
    }

    /// [HPA.REFINE.CONCAT] [HPA.REFINE.LOOPS] [HPA.SMOOTH.RULE] [HPA.COST.REPORTED] The node
    /// path, the refined cell path and its cost.
    fn finish(&mut self) {
        let mut nodes = vec![self.g_id];
        let mut at = self.g_id;
        while at != self.s_id {
            at = self.buf.parent(at);
            nodes.push(at);
        }
        nodes.reverse();
        let mut cells = vec![self.start];
        for p in nodes.windows(2) {
            let stored = self.edge_path(p[0], p[1]);
            cells.extend_from_slice(&stored[1..]);
        }
        cut_loops(&mut cells, &mut self.order);
        let ctx = self.ctx.as_ref().expect("begun");
        if self.hierarchy.options().smooth {
            smooth(ctx, &self.hierarchy.runs, &mut cells, &mut self.order);
        }
        self.cost = path_cost(ctx, &cells);
        self.path = cells;
        self.abstract_path = nodes;
    }

    /// [HPA.SLICED.API]
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// [HPA.SLICED.API] The final path when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        self.path.clone()
    }

    /// [HPA.COST.REPORTED] The final path's cost, `+infinity` unless `Found`.
    pub fn path_cost(&self) -> f64 {
        self.cost
    }

    /// [HPA.SEARCH.ITERATION] Abstract pops.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS] Expanded abstract nodes.
    pub fn expanded_count(&self) -> u64 {
        self.expanded
    }

    /// [HPA.SEARCH.RECORD] The expanded nodes' cells (with `record_expansions`).
    pub fn expansions(&self) -> &[u32] {
        &self.record
    }

    /// [HPA.SLICED.API] The node ids `S .. G` when `Found`, else empty.
    pub fn abstract_path(&self) -> Vec<u32> {
        self.abstract_path.clone()
    }
}

/// [HPA.TIER1] [HPA.TIER1.ALGORITHM] One call on a new hierarchy. The grid keeps the hierarchy
/// of its last tier-1 queries by options (with the abstract search's scratch) and refreshes it
/// after an edit, restore or multiplier change, so only the first query on a grid builds one:
/// by [HPA.REFRESH.EQUAL] a refreshed hierarchy answers exactly as a new one.
pub fn find_hpa_path(
    grid: &Grid,
    start: (usize, usize),
    goal: (usize, usize),
    options: &HpaOptions,
) -> Result<GridPath, GridSearchError> {
    validate(options)?;
    let cache = grid.derived();
    let mut entry = match cache.take_hpa(options) {
        Some(e) => e,
        None => HpaEntry {
            hierarchy: HpaHierarchy::new(options.clone())?,
            buf: Scratch::default(),
            fresh: false,
        },
    };
    let out = tier1(grid, &mut entry, start, goal, options);
    cache.give_hpa(entry);
    out
}

/// Tier 1 on a kept hierarchy: its scratch is lent to the search and taken back.
fn tier1(
    grid: &Grid,
    entry: &mut HpaEntry,
    start: (usize, usize),
    goal: (usize, usize),
    options: &HpaOptions,
) -> Result<GridPath, GridSearchError> {
    let mut s = HpaSearch::new(grid, &mut entry.hierarchy);
    s.buf = std::mem::take(&mut entry.buf);
    s.fresh = entry.fresh;
    let begun = s.begin(start, goal);
    // `begin` fails only before its refresh (range checks), else it has refreshed.
    entry.fresh |= begun.is_ok();
    if let Err(e) = begun {
        entry.buf = std::mem::take(&mut s.buf);
        return Err(e);
    }
    let budget = options.iteration_budget;
    let st = if budget > 0 {
        s.step(budget)
    } else {
        s.run(None)
    };
    let cells = std::mem::take(&mut s.path);
    let out = GridPath {
        algorithm: GridAlgorithm::AStar,
        status: match st {
            SearchStatus::Found => PathStatus::Found,
            SearchStatus::Running => PathStatus::BudgetExhausted,
            _ => PathStatus::NotFound,
        },
        cost: s.path_cost(),
        points: cells
            .iter()
            .map(|&c| crate::grid_search::centre(grid, c))
            .collect(),
        cells,
        expanded: std::mem::take(&mut s.record),
        expanded_count: s.expanded,
        iterations: s.iterations,
    };
    entry.buf = std::mem::take(&mut s.buf);
    Ok(out)
}
