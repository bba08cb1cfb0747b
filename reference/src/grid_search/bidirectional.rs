//! [GBIDI] Bidirectional A* and Dijkstra on square grids (`GridBidiSearch`,
//! `find_grid_path_bidirectional`; spec/grid-bidi.md): the graph rules of spec/graphs.md §8 over
//! the square grid's move graph, with the moves and costs of [`Terrain`].

use std::sync::atomic::{AtomicBool, Ordering};

use super::handle::centre;
use super::moves::{min_multiplier, octile_pair, Terrain, DIRS};
use super::options::{
    check_cells, validate, GridAlgorithm, GridOptions, GridPath, GridSearchError,
};
use crate::astar::{normalize_estimate, parent_chain, SearchStatus, CANCEL_INTERVAL};
use crate::grid::Grid;
use crate::open_set::OpenSet;
use crate::options::PathStatus;

/// [GRAPH.BIDI.SIDES] [GBIDI.OPEN] The buffers and open set of one side.
struct Side {
    g: Vec<f64>,
    parent: Vec<Option<u32>>,
    reached: Vec<bool>,
    closed: Vec<bool>,
    open: OpenSet,
}

impl Side {
    fn new(n: usize) -> Self {
        Side {
            g: vec![f64::INFINITY; n],
            parent: vec![None; n],
            reached: vec![false; n],
            closed: vec![false; n],
            open: OpenSet::new(n),
        }
    }

    /// [GBIDI.BEGIN] Every cell unreached, the open set empty.
    fn reset(&mut self) {
        for v in 0..self.g.len() {
            self.g[v] = f64::INFINITY;
            self.parent[v] = None;
            self.reached[v] = false;
            self.closed[v] = false;
        }
        self.open.clear();
    }

    /// [GBIDI.BEGIN] Reaches `c` with `g = 0` and pushes `(c, key, 0)`.
    fn push_end(&mut self, c: u32, key: f64) {
        self.g[c as usize] = 0.0;
        self.parent[c as usize] = None;
        self.reached[c as usize] = true;
        self.open.push(c, key, 0.0);
    }
}

/// [GBIDI.GRAPH] [GBIDI.OPT.FIELDS] [GBIDI.GRID] [GBIDI.NOT_SAVED] A resumable bidirectional
/// search (A* with the symmetric potential of [GBIDI.POTENTIAL], or Dijkstra) between two cells
/// of a square grid. It borrows its grid for its whole life and has no state bytes.
pub struct GridBidiSearch<'g> {
    terrain: Terrain<'g>,
    /// [GBIDI.OPT.ALGORITHM] `Dijkstra`: every estimate is `+0.0`.
    zero: bool,
    /// [GBIDI.POTENTIAL] [GBIDI.GRID] `mmin`, read when the search is created.
    mmin: f64,
    /// [GBIDI.POTENTIAL] `w`, which [GBIDI.OPT.WEIGHT] fixes at 1.0.
    weight: f64,
    forward: Side,
    backward: Side,
    /// [GBIDI.TURN] True when the forward side pops next.
    forward_turn: bool,
    start: u32,
    goal: u32,
    mu: f64,
    meeting: Option<u32>,
    status: SearchStatus,
    iterations: u64,
    record: bool,
    recorded: Vec<u32>,
}

impl<'g> GridBidiSearch<'g> {
    /// [GBIDI.OPT.VALID] [GBIDI.OPT.WEIGHT] [GBIDI.OPT.ALGORITHM] [GBIDI.STATUS] [GBIDI.GRID]
    /// Validates the options ([GS.OPT.VALID], then weight exactly 1.0, then `AStar` or
    /// `Dijkstra`) and creates a search (`NotStarted`) over `grid`.
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        if options.heuristic_weight != 1.0 {
            return Err(GridSearchError::options(
                "heuristic_weight",
                format!("{:?}", options.heuristic_weight),
            ));
        }
        if !matches!(
            options.algorithm,
            GridAlgorithm::AStar | GridAlgorithm::Dijkstra
        ) {
            return Err(GridSearchError::unsupported(
                options.algorithm,
                "GridBidiSearch",
            ));
        }
        let terrain = Terrain::new(grid, &options);
        let n = terrain.cell_count();
        Ok(GridBidiSearch {
            zero: options.algorithm == GridAlgorithm::Dijkstra,
            mmin: min_multiplier(grid),
            weight: options.heuristic_weight,
            terrain,
            forward: Side::new(n),
            backward: Side::new(n),
            forward_turn: true,
            start: 0,
            goal: 0,
            mu: f64::INFINITY,
            meeting: None,
            status: SearchStatus::NotStarted,
            iterations: 0,
            record: options.record_expansions,
            recorded: Vec::new(),
        })
    }

    /// [GBIDI.POTENTIAL] [GS.EST.SCALE] [GRAPH.ASTAR.ESTIMATE] `est(a, b) = (o * mmin) * w`
    /// normalised, or `+0.0` for Dijkstra.
    fn est(&self, a: u32, b: u32) -> f64 {
        if self.zero {
            return 0.0;
        }
        let t = &self.terrain;
        let o = octile_pair(t.xy(a), t.xy(b), t.connectivity).value();
        normalize_estimate((o * self.mmin) * self.weight)
    }

    /// [GBIDI.POTENTIAL] `pf(v) = 0.5 * (ht - hs)` with `ht = est(v, goal)`, `hs = est(start, v)`;
    /// `None` when either is `+infinity`.
    fn potential(&self, v: u32) -> Option<f64> {
        let ht = self.est(v, self.goal);
        let hs = self.est(self.start, v);
        if ht == f64::INFINITY || hs == f64::INFINITY {
            return None;
        }
        Some(0.5 * (ht - hs))
    }

    /// [GBIDI.BEGIN] [GBIDI.SAME_CELL] [GS.ASTAR.BEGIN] Checks the cells (`cell_out_of_range`,
    /// start first, x before y; a failure changes nothing), resets both sides, ends `NotFound`
    /// when an end is not passable, `Found` at once when `start == goal`, else pushes the start
    /// forward and the goal backward (each when its potential is finite).
    pub fn begin(
        &mut self,
        start: (usize, usize),
        goal: (usize, usize),
    ) -> Result<(), GridSearchError> {
        let (s, g) = check_cells(self.terrain.width, self.terrain.height, start, goal)?;
        self.forward.reset();
        self.backward.reset();
        self.forward_turn = true;
        self.iterations = 0;
        self.recorded.clear();
        self.mu = f64::INFINITY;
        self.meeting = None;
        self.start = s;
        self.goal = g;
        self.status = SearchStatus::Running;
        let t = &self.terrain;
        if !t.passable(t.xy(s)) || !t.passable(t.xy(g)) {
            self.status = SearchStatus::NotFound;
            return Ok(());
        }
        if s == g {
            // [GBIDI.SAME_CELL]
            self.status = SearchStatus::Found;
            self.mu = 0.0;
            self.meeting = Some(s);
            for side in [&mut self.forward, &mut self.backward] {
                side.g[s as usize] = 0.0;
                side.reached[s as usize] = true;
            }
            return Ok(());
        }
        if let Some(pf) = self.potential(s) {
            self.forward.push_end(s, 0.0 + pf);
        }
        if let Some(pf) = self.potential(g) {
            self.backward.push_end(g, 0.0 - pf);
        }
        Ok(())
    }

    /// [GBIDI.STEP] [GBIDI.STOP] [GBIDI.TURN] [GBIDI.STATUS] [GBIDI.SLICED] At most `budget`
    /// iterations; the stop check precedes the budget check, and the turn is kept between calls,
    /// so any schedule is one run. Does nothing unless `Running`.
    pub fn step(&mut self, budget: u64) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let mut done: u64 = 0;
        loop {
            // [GBIDI.STOP]
            let (Some(top_f), Some(top_b)) = (self.forward.open.peek(), self.backward.open.peek())
            else {
                return self.finish();
            };
            if top_f.f + top_b.f >= self.mu {
                return self.finish();
            }
            if done == budget {
                return SearchStatus::Running;
            }
            done += 1;
            // [GBIDI.TURN]
            let forward = self.forward_turn;
            self.forward_turn = !forward;
            self.pop_and_expand(forward);
        }
    }

    /// [GBIDI.STOP] `Found` when `mu` is finite, else `NotFound`.
    fn finish(&mut self) -> SearchStatus {
        self.status = if self.mu.is_finite() {
            SearchStatus::Found
        } else {
            SearchStatus::NotFound
        };
        self.status
    }

    /// [GBIDI.FORWARD] [GBIDI.BACKWARD] [GBIDI.OPT.HOOKS] The edges of `u` for one side in neighbour
    /// order (the hooks asked through [`Terrain`], in the move's true direction), as
    /// `(y, c)`: forward the allowed moves `u -> y` priced `base * m(area(y)) + cell_cost(u, y)`;
    /// backward the allowed moves `y -> u` from passable `y`, priced as that forward move,
    /// `base * m(area(u)) + cell_cost(y, u)`.
    fn edges(&self, u: u32, forward: bool) -> Vec<(u32, f64)> {
        let t = &self.terrain;
        let pu = t.xy(u);
        let mut out = Vec::new();
        for d in DIRS {
            let py = (pu.0 + d.0, pu.1 + d.1);
            let diagonal = d.0 != 0 && d.1 != 0;
            if forward {
                if !t.move_allowed(pu, d) {
                    continue;
                }
                let v = t.index(py);
                if let Some(c) = t.move_cost(u, v, diagonal) {
                    out.push((v, c));
                }
            } else {
                if !t.passable(py) || !t.move_allowed(py, (-d.0, -d.1)) {
                    continue;
                }
                let x = t.index(py);
                if let Some(c) = t.move_cost(x, u, diagonal) {
                    out.push((x, c));
                }
            }
        }
        out
    }

    /// [GBIDI.EXPAND] [GBIDI.MEET] [GBIDI.COUNTERS] Pops one cell of one side, counts and records
    /// it, and relaxes its edges of [GBIDI.FORWARD] / [GBIDI.BACKWARD].
    fn pop_and_expand(&mut self, forward: bool) {
        let side = if forward {
            &mut self.forward
        } else {
            &mut self.backward
        };
        let Some(entry) = side.open.pop() else {
            return;
        };
        let u = entry.node;
        side.closed[u as usize] = true;
        let gu = side.g[u as usize];
        self.iterations += 1;
        if self.record {
            self.recorded.push(u);
        }
        for (y, c) in self.edges(u, forward) {
            let g2 = gu + c;
            if g2 == f64::INFINITY {
                continue;
            }
            let yi = y as usize;
            let this = if forward {
                &self.forward
            } else {
                &self.backward
            };
            if this.reached[yi] && !(g2 < this.g[yi]) {
                continue;
            }
            let Some(pf) = self.potential(y) else {
                continue;
            };
            let (this, other) = if forward {
                (&mut self.forward, &self.backward)
            } else {
                (&mut self.backward, &self.forward)
            };
            this.g[yi] = g2;
            this.parent[yi] = Some(u);
            this.reached[yi] = true;
            this.closed[yi] = false;
            let key = if forward { g2 + pf } else { g2 - pf };
            this.open.push(y, key, g2);
            // [GBIDI.MEET]
            if other.reached[yi] {
                let candidate = g2 + other.g[yi];
                if candidate < self.mu {
                    self.mu = candidate;
                    self.meeting = Some(y);
                }
            }
        }
    }

    /// [GBIDI.RUN] Steps without a budget; before the first iteration and after every 256
    /// iterations of this call it applies the stop check (`step(0)`), then reads `cancel` (set:
    /// `Running`, resumable).
    pub fn run(&mut self, cancel: Option<&AtomicBool>) -> SearchStatus {
        loop {
            if self.step(0) != SearchStatus::Running {
                return self.status;
            }
            if let Some(flag) = cancel {
                if flag.load(Ordering::SeqCst) {
                    return SearchStatus::Running;
                }
            }
            self.step(CANCEL_INTERVAL);
        }
    }

    /// [GBIDI.STATUS] The current status.
    pub fn status(&self) -> SearchStatus {
        self.status
    }

    /// [GBIDI.PATH] The forward chain start..meeting cell, then the backward chain to the goal
    /// (the meeting cell once) when `Found`, else empty.
    pub fn path(&self) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        let Some(m) = self.meeting else {
            return Vec::new();
        };
        let mut path = parent_chain(&self.forward.parent, m);
        let mut back = parent_chain(&self.backward.parent, m);
        back.reverse(); // m .. goal
        path.extend(back.into_iter().skip(1));
        path
    }

    /// [GBIDI.COST] [GBIDI.PATH] `mu` when `Found`, else `+infinity`.
    pub fn path_cost(&self) -> f64 {
        if self.status == SearchStatus::Found {
            self.mu
        } else {
            f64::INFINITY
        }
    }

    /// [GBIDI.COUNTERS] The number of pops of both sides.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// [GBIDI.COUNTERS] Equal to `iterations` (every pop expands).
    pub fn expanded_count(&self) -> u64 {
        self.iterations
    }

    /// [GBIDI.COUNTERS] The popped cells in pop order (empty unless recording).
    pub fn expansions(&self) -> &[u32] {
        &self.recorded
    }

    /// [GBIDI.MEETING_CELL] The cell that gave the current `mu`; none while `mu` is `+infinity`.
    pub fn meeting_cell(&self) -> Option<u32> {
        if self.mu == f64::INFINITY {
            None
        } else {
            self.meeting
        }
    }
}

/// [GBIDI.TIER1] [GBIDI.TIER1.SEPARATE] [GBIDI.API.ERRORS] Finds a path between two cells
/// `(x, y)` of `grid` with a bidirectional search in one call: `step(iteration_budget)` when the
/// budget is non-zero, else `run(None)`. Errors are those of `new`, then `begin`.
///
/// ```
/// use onepath_reference::{find_grid_path_bidirectional, Grid, GridOptions, PathStatus};
///
/// let grid = Grid::new(4, 1)?;
/// let path = find_grid_path_bidirectional(&grid, (0, 0), (3, 0), &GridOptions::default())?;
/// assert_eq!((path.status, path.cost, path.cells), (PathStatus::Found, 3.0, vec![0, 1, 2, 3]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
        // [GBIDI.TIER1] `BudgetExhausted` when the search is still running.
        status: match st {
            SearchStatus::Found => PathStatus::Found,
            SearchStatus::Running => PathStatus::BudgetExhausted,
            SearchStatus::NotFound | SearchStatus::NotStarted => PathStatus::NotFound,
        },
        cost: s.path_cost(),
        points: cells.iter().map(|&c| centre(grid, c)).collect(),
        cells,
        expanded: s.expansions().to_vec(),
        expanded_count: s.expanded_count(),
        iterations: s.iterations(),
    })
}
