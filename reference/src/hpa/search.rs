//! [HPA.QUERY] [HPA.SEARCH] [HPA.SLICED] [HPA.TIER1] The query: temporary start and goal
//! nodes, the abstract A* over the hierarchy, the sliced `HpaSearch` and `find_hpa_path`
//! (spec/hpa.md §7, §10).

use std::sync::atomic::AtomicBool;

use super::hierarchy::HpaHierarchy;
use super::intra::intra_search;
use super::refine::{cost_path, refine_concat, refine_loops, smooth_rule};
use super::{terrain, validate, HpaOptions};
use crate::astar::{cost_is_usable, normalize_estimate, SearchStatus};
use crate::grid::Grid;
use crate::grid_search::astar::{run_with, Core};
use crate::grid_search::handle::centre;
use crate::grid_search::moves::{min_multiplier, octile_pair, Terrain};
use crate::grid_search::options::check_cells;
use crate::grid_search::{GridAlgorithm, GridPath, GridSearchError};
use crate::hex_search::path_status;

/// [HPA.QUERY.OUT_ORDER] One out-edge of the abstract graph: target id, cost, stored path.
struct Out {
    to: u32,
    cost: f64,
    path: Vec<u32>,
}

/// [HPA.QUERY.TEMP] [HPA.QUERY.EDGES] The abstract graph of one query: the permanent nodes,
/// then the temporary ones, with their out-edges in ascending target id.
struct AbstractGraph {
    cells: Vec<u32>,
    out: Vec<Vec<Out>>,
    start: u32,
    goal: u32,
}

/// [HPA.QUERY.TEMP] [HPA.QUERY.EDGES] [HPA.QUERY.OUT_ORDER] The hierarchy's graph plus the
/// temporary start node `S = N` and goal node `G = N + 1` (one node `N` when the cells are
/// equal), joined to their chunks' nodes by the chunk search.
fn query_graph(t: &Terrain<'_>, h: &HpaHierarchy, start: u32, goal: u32) -> AbstractGraph {
    let b = h.built.as_ref().expect("refreshed before the query");
    let n = b.node_cells.len() as u32;
    let mut cells = b.node_cells.clone();
    let mut out: Vec<Vec<Out>> = (0..n).map(|_| Vec::new()).collect();
    for (from, to, cost, _, path) in b.edge_rows() {
        out[from as usize].push(Out { to, cost, path });
    }
    let s = n;
    cells.push(start);
    out.push(Vec::new());
    if start == goal {
        return AbstractGraph {
            cells,
            out,
            start: s,
            goal: s,
        };
    }
    let g = n + 1;
    cells.push(goal);
    out.push(Vec::new());
    let ch = &b.chunks;
    let (k, l) = (ch.chunk_of(start), ch.chunk_of(goal));
    // S -> b for the nodes of K that the chunk search from the start reaches, then S -> G.
    let tree = intra_search(t, ch, k, start);
    for &c in &b.intra[k as usize].nodes {
        if let (Some(cost), Some(path)) = (tree.cost(c), tree.path(c)) {
            let to = b.node_id(c).expect("a node cell");
            out[s as usize].push(Out { to, cost, path });
        }
    }
    if k == l {
        if let (Some(cost), Some(path)) = (tree.cost(goal), tree.path(goal)) {
            out[s as usize].push(Out { to: g, cost, path });
        }
    }
    // a -> G for the nodes of L whose chunk search reaches the goal (appended: G is largest).
    for &c in &b.intra[l as usize].nodes {
        let tree = intra_search(t, ch, l, c);
        if let (Some(cost), Some(path)) = (tree.cost(goal), tree.path(goal)) {
            let from = b.node_id(c).expect("a node cell");
            out[from as usize].push(Out { to: g, cost, path });
        }
    }
    AbstractGraph {
        cells,
        out,
        start: s,
        goal: g,
    }
}

/// [HPA.SEARCH.ESTIMATE] `(o * mmin) * w` between `v`'s cell and the goal cell, normalised.
fn estimate(t: &Terrain<'_>, graph: &AbstractGraph, mmin: f64, w: f64, v: u32) -> f64 {
    let (cv, cg) = (graph.cells[v as usize], graph.cells[graph.goal as usize]);
    let o = octile_pair(t.xy(cv), t.xy(cg), t.connectivity).value();
    normalize_estimate((o * mmin) * w)
}

/// [GRAPH.ASTAR.EXPAND] [HPA.SEARCH.GRAPH] Relaxes the out-edges of `u` in ascending target id.
fn expand(t: &Terrain<'_>, graph: &AbstractGraph, mmin: f64, w: f64, core: &mut Core, u: u32) {
    for e in &graph.out[u as usize] {
        if !cost_is_usable(e.cost) {
            continue;
        }
        let g2 = core.g[u as usize] + e.cost;
        if g2 == f64::INFINITY {
            continue;
        }
        let vi = e.to as usize;
        if !core.reached[vi] || g2 < core.g[vi] {
            let h = estimate(t, graph, mmin, w, e.to);
            if h == f64::INFINITY {
                continue;
            }
            core.g[vi] = g2;
            core.parent[vi] = Some(u);
            core.reached[vi] = true;
            core.closed[vi] = false;
            core.open.push(e.to, g2 + h, g2);
        }
    }
}

/// [HPA.SLICED.API] [HPA.SLICED.NOT_SAVED] The sliced HPA* search: it borrows a grid and a
/// hierarchy for its life and has no state bytes.
pub struct HpaSearch<'a> {
    grid: &'a Grid,
    hierarchy: &'a mut HpaHierarchy,
    terrain: Terrain<'a>,
    graph: AbstractGraph,
    mmin: f64,
    core: Core,
    /// [HPA.SEARCH.RECORD] The expanded nodes' cells.
    expanded_cells: Vec<u32>,
    /// [HPA.REFINE.CONCAT] [HPA.COST.REPORTED] The final path and its cost, once `Found`.
    result: Option<(Vec<u32>, f64)>,
}

impl<'a> HpaSearch<'a> {
    /// [HPA.SLICED.API] A search over `grid` with `hierarchy` (its options), `NotStarted`.
    pub fn new(grid: &'a Grid, hierarchy: &'a mut HpaHierarchy) -> Self {
        let terrain = terrain(grid, hierarchy.options());
        let record = hierarchy.options().record_expansions;
        HpaSearch {
            grid,
            hierarchy,
            terrain,
            graph: AbstractGraph {
                cells: Vec::new(),
                out: Vec::new(),
                start: 0,
                goal: 0,
            },
            mmin: 1.0,
            core: Core::new(0, record),
            expanded_cells: Vec::new(),
            result: None,
        }
    }

    /// [HPA.QUERY.BEGIN] [HPA.BUILD.LAZY] [GRAPH.ASTAR.BEGIN] Checks the cells (start first, x
    /// before y; a failure changes nothing), refreshes the hierarchy, resets, ends `NotFound` when
    /// an end is not passable, else adds the temporary nodes and pushes the start node.
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let (s, g) = check_cells(self.grid.width(), self.grid.height(), start, goal)?;
        self.hierarchy.refresh(self.grid);
        let record = self.hierarchy.options().record_expansions;
        self.expanded_cells.clear();
        self.result = None;
        let t = &self.terrain;
        if !t.passable(t.xy(s)) || !t.passable(t.xy(g)) {
            self.core = Core::new(0, record);
            self.core.reset(0, 0);
            self.core.status = SearchStatus::NotFound;
            return Ok(());
        }
        self.graph = query_graph(t, self.hierarchy, s, g);
        self.mmin = min_multiplier(self.grid);
        self.core = Core::new(self.graph.cells.len(), record);
        self.core.reset(self.graph.start, self.graph.goal);
        let w = self.hierarchy.options().heuristic_weight;
        let h = estimate(t, &self.graph, self.mmin, w, self.graph.start);
        self.core.push_start(h);
        Ok(())
    }

    /// [GRAPH.ASTAR.STEP] [HPA.SEARCH.ITERATION] At most `budget` abstract pops; the status.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        let (t, graph, mmin) = (&self.terrain, &self.graph, self.mmin);
        let w = self.hierarchy.options().heuristic_weight;
        let st = self.core.step(
            budget,
            |_, _| {},
            |core, u| expand(t, graph, mmin, w, core, u),
        );
        // [HPA.SEARCH.RECORD] The cells of the nodes recorded since the last call.
        for i in self.expanded_cells.len()..self.core.recorded.len() {
            let node = self.core.recorded[i];
            self.expanded_cells.push(self.graph.cells[node as usize]);
        }
        if st == SearchStatus::Found && self.result.is_none() {
            self.result = Some(self.refine());
        }
        st
    }

    /// [HPA.REFINE.CONCAT] [HPA.REFINE.LOOPS] [HPA.SMOOTH.RULE] [HPA.COST.REPORTED] The final
    /// path of the found abstract path and its cost.
    fn refine(&self) -> (Vec<u32>, f64) {
        let nodes = self.core.path();
        let segments = nodes.windows(2).map(|w| {
            let e = self.graph.out[w[0] as usize]
                .iter()
                .find(|e| e.to == w[1])
                .expect("an edge of the abstract path");
            e.path.as_slice()
        });
        let mut cells = refine_concat(segments);
        if cells.is_empty() {
            // [HPA.REFINE.CONCAT] One temporary node: the path is the start cell.
            cells.push(self.graph.cells[self.graph.start as usize]);
        }
        let mut cells = refine_loops(cells);
        if self.hierarchy.options().smooth {
            cells = smooth_rule(&self.terrain, cells);
        }
        let cost = cost_path(&self.terrain, &cells);
        (cells, cost)
    }

    /// [GRAPH.ASTAR.RUN] Steps until done or cancelled.
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        run_with(cancel, |b| self.step(b))
    }

    /// [GRAPH.ASTAR.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.core.status
    }

    /// [HPA.SLICED.API] The final path (start first) when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        self.result.as_ref().map_or(Vec::new(), |r| r.0.clone())
    }

    /// [HPA.COST.REPORTED] The final path's cost when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        self.result.as_ref().map_or(f64::INFINITY, |r| r.1)
    }

    /// [HPA.SLICED.API] [GRAPH.ASTAR.PATH] The abstract node ids `S … G` when `Found`, else empty.
    pub fn abstract_path(&self) -> Vec<u32> {
        self.core.path()
    }

    /// [HPA.SEARCH.ITERATION] The number of abstract pops.
    pub fn iterations(&self) -> u64 {
        self.core.iterations
    }

    /// [GRAPH.ASTAR.COUNTERS] The number of abstract expansions.
    pub fn expanded_count(&self) -> u64 {
        self.core.expanded
    }

    /// [HPA.SEARCH.RECORD] The expanded abstract nodes' cells in order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.expanded_cells
    }
}

/// [HPA.TIER1] [HPA.TIER1.ALGORITHM] Finds a path in one call over a new hierarchy:
/// `step(iteration_budget)` when the budget is non-zero, else `run(None)`. The result reports
/// algorithm `AStar` (the abstract search).
///
/// ```
/// use onepath_reference::{find_hpa_path, Grid, HpaOptions, PathStatus, WALL};
///
/// let mut grid = Grid::new(12, 3).unwrap();
/// for x in 0..12 {
///     grid.set_cell(x, 0, WALL).unwrap();
///     grid.set_cell(x, 2, WALL).unwrap();
/// }
/// let options = HpaOptions { chunk_size: 4, ..HpaOptions::default() };
/// let p = find_hpa_path(&grid, (0, 1), (11, 1), &options).unwrap();
/// assert_eq!(p.status, PathStatus::Found);
/// assert_eq!(p.cost, 11.0);
/// assert_eq!(p.cells.len(), 12);
/// ```
pub fn find_hpa_path(
    grid: &Grid,
    start: (usize, usize),
    goal: (usize, usize),
    options: &HpaOptions,
) -> Result<GridPath, GridSearchError> {
    validate(options)?;
    let mut h = HpaHierarchy::new(options.clone())?;
    let mut s = HpaSearch::new(grid, &mut h);
    s.begin(start, goal)?;
    let budget = options.iteration_budget;
    let st = if budget > 0 {
        s.step(budget)
    } else {
        s.run(None)
    };
    let cells = s.path();
    Ok(GridPath {
        algorithm: GridAlgorithm::AStar,
        status: path_status(st),
        cost: s.path_cost(),
        points: cells.iter().map(|&c| centre(grid, c)).collect(),
        cells,
        expanded: s.expansions().to_vec(),
        expanded_count: s.expanded_count(),
        iterations: s.iterations(),
    })
}
