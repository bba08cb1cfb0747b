//! [GRAPH.T1] Tier 1 of spec/graphs.md section 10: options, results and the query plumbing.

use std::sync::Arc;

use crate::astar::{
    check_nodes, normalize_estimate, DefaultGraphCost, GraphAStar, GraphCost, GraphHeuristic,
    SearchStatus, ZeroGraphHeuristic,
};
use crate::bidirectional::BidirectionalGraphSearch;
use crate::csr::CsrGraph;
use crate::error::QueryError;
use crate::landmarks::Landmarks;
use crate::points::{distance, Point3};

/// [GRAPH.T1.OPTIONS] The `edge_cost(from, to, weight)` hook.
pub type EdgeCostFn = Arc<dyn Fn(u32, u32, f64) -> f64 + Send + Sync>;
/// [GRAPH.T1.OPTIONS] [GRAPH.T1.BLOCKED] The `blocked(node)` hook.
pub type BlockedFn = Arc<dyn Fn(u32) -> bool + Send + Sync>;
/// [GRAPH.T1.OPTIONS] [GRAPH.EST.COMBINE] The `heuristic(from, to)` hook.
pub type HeuristicFn = Arc<dyn Fn(u32, u32) -> f64 + Send + Sync>;

/// [GRAPH.T1.OPTIONS] [GRAPH.EST.AUTO] The search to run. `Auto` and `Bidirectional` choose by
/// [GRAPH.EST.AUTO]; a result never reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// [GRAPH.EST.AUTO] A* when an estimate exists, else Dijkstra.
    #[default]
    Auto,
    /// [GRAPH.EST.ZERO] A* with the zero estimate (estimates ignored).
    Dijkstra,
    /// [GRAPH.EST.AUTO] A* (Dijkstra without an estimate).
    AStar,
    /// [GRAPH.T1.OPTIONS] Auto bidirectional: `BidirectionalAStar` with an estimate, else
    /// `BidirectionalDijkstra`.
    Bidirectional,
    /// [GRAPH.BIDI] Bidirectional search with the zero estimate (estimates ignored).
    BidirectionalDijkstra,
    /// [GRAPH.BIDI.POTENTIAL] Bidirectional search with the potential (`BidirectionalDijkstra`
    /// without an estimate).
    BidirectionalAStar,
}

/// [GRAPH.T1.OPTIONS] The tier-1 query options.
#[derive(Clone, Default)]
pub struct GraphOptions {
    /// [GRAPH.T1.OPTIONS] Edge cost hook (absent: the weight).
    pub edge_cost: Option<EdgeCostFn>,
    /// [GRAPH.T1.BLOCKED] Blocked-node hook (absent: nothing blocked).
    pub blocked: Option<BlockedFn>,
    /// [GRAPH.EST.COMBINE] Heuristic hook.
    pub heuristic: Option<HeuristicFn>,
    /// [GRAPH.EST.AUTO] The algorithm.
    pub algorithm: Algorithm,
    /// [GRAPH.ALT.STALE] [GRAPH.EST.COMBINE] An ALT table.
    pub landmarks: Option<Arc<Landmarks>>,
    /// [GRAPH.T1.BUDGET] Iteration budget (0 = unlimited).
    pub iteration_budget: u64,
    /// [GRAPH.T1.RESULT] Record the expanded nodes.
    pub record_expansions: bool,
}

impl GraphOptions {
    /// [GRAPH.T1.OPTIONS] Auto bidirectional (`Algorithm::Bidirectional`), nothing else.
    pub fn bidirectional() -> Self {
        GraphOptions {
            algorithm: Algorithm::Bidirectional,
            ..GraphOptions::default()
        }
    }

    /// [GRAPH.T1.OPTIONS] Auto with the landmark table `table`.
    pub fn with_landmarks(table: Arc<Landmarks>) -> Self {
        GraphOptions {
            landmarks: Some(table),
            ..GraphOptions::default()
        }
    }
}

/// [GRAPH.T1.RESULT] [GRAPH.T1.BUDGET] The outcome of a tier-1 query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathStatus {
    /// [GRAPH.T1.RESULT] A path was found.
    Found,
    /// [GRAPH.T1.RESULT] No path exists.
    NotFound,
    /// [GRAPH.T1.BUDGET] The iteration budget ran out.
    BudgetExhausted,
}

/// [GRAPH.T1.RESULT] A tier-1 result.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphPath {
    /// [GRAPH.T1.RESULT] The status.
    pub status: PathStatus,
    /// [GRAPH.T1.RESULT] The path cost (`+infinity` unless found).
    pub cost: f64,
    /// [GRAPH.T1.RESULT] The nodes start..goal (empty unless found).
    pub nodes: Vec<u32>,
    /// [GRAPH.EST.AUTO] The algorithm that ran (never `Auto` or `Bidirectional`).
    pub algorithm: Algorithm,
    /// [GRAPH.ASTAR.COUNTERS] [GRAPH.BIDI.COUNTERS] Expansions.
    pub expanded_count: u64,
    /// [GRAPH.ASTAR.COUNTERS] [GRAPH.BIDI.COUNTERS] Iterations.
    pub iterations: u64,
    /// [GRAPH.T1.RESULT] The recorded list (empty unless recording).
    pub expanded: Vec<u32>,
}

/// [GRAPH.API.TIER1_SEARCH] [GRAPH.T1.BLOCKED] The cost object built from the hooks.
struct HookCost<'o> {
    edge_cost: Option<&'o EdgeCostFn>,
    blocked: Option<&'o BlockedFn>,
}

impl GraphCost for HookCost<'_> {
    fn cost(&self, from: u32, to: u32, weight: f64) -> f64 {
        match self.edge_cost {
            Some(f) => f(from, to, weight),
            None => DefaultGraphCost.cost(from, to, weight),
        }
    }
    fn blocked(&self, node: u32) -> bool {
        match self.blocked {
            Some(f) => f(node),
            None => false,
        }
    }
}

/// [GRAPH.EST.COMBINE] The maximum of the existing estimates (Euclidean, ALT, hook, in that
/// order), each normalised first.
struct Combined<'o> {
    points: Option<&'o [Point3]>,
    landmarks: Option<&'o Landmarks>,
    hook: Option<&'o HeuristicFn>,
}

impl Combined<'_> {
    fn exists(&self) -> bool {
        self.points.is_some() || self.landmarks.is_some() || self.hook.is_some()
    }
}

impl GraphHeuristic for Combined<'_> {
    fn estimate(&self, from: u32, to: u32) -> f64 {
        let mut best: Option<f64> = None;
        let mut offer = |e: f64| {
            let e = normalize_estimate(e);
            best = Some(match best {
                Some(a) if !(e > a) => a,
                _ => e,
            });
        };
        if let Some(points) = self.points {
            let e = match (points.get(from as usize), points.get(to as usize)) {
                (Some(a), Some(b)) => distance(*a, *b),
                _ => 0.0,
            };
            offer(e);
        }
        if let Some(table) = self.landmarks {
            offer(table.lower_bound(from, to));
        }
        if let Some(hook) = self.hook {
            offer(hook(from, to));
        }
        best.unwrap_or(0.0)
    }
}

/// [GRAPH.T1.CHECKS] [GRAPH.EST.AUTO] [GRAPH.T1.BUDGET] [GRAPH.API.TIER1_SEARCH] Runs one tier-1
/// query on `graph` (`points` present for a point graph).
pub(crate) fn find_path_on(
    graph: &CsrGraph,
    points: Option<&[Point3]>,
    start: u32,
    goal: u32,
    options: &GraphOptions,
) -> Result<GraphPath, QueryError> {
    check_nodes(start, goal, graph.node_count())?;
    if let Some(table) = &options.landmarks {
        if table.node_count() != graph.node_count() || table.fingerprint() != graph.fingerprint() {
            return Err(QueryError::stale(
                table.node_count(),
                table.fingerprint(),
                graph.node_count(),
                graph.fingerprint(),
            ));
        }
    }
    let cost = HookCost {
        edge_cost: options.edge_cost.as_ref(),
        blocked: options.blocked.as_ref(),
    };
    let combined = Combined {
        points,
        landmarks: options.landmarks.as_deref(),
        hook: options.heuristic.as_ref(),
    };
    let has_estimate = combined.exists();
    let algorithm = match options.algorithm {
        Algorithm::Auto | Algorithm::AStar if has_estimate => Algorithm::AStar,
        Algorithm::Auto | Algorithm::AStar | Algorithm::Dijkstra => Algorithm::Dijkstra,
        Algorithm::Bidirectional | Algorithm::BidirectionalAStar if has_estimate => {
            Algorithm::BidirectionalAStar
        }
        Algorithm::Bidirectional
        | Algorithm::BidirectionalAStar
        | Algorithm::BidirectionalDijkstra => Algorithm::BidirectionalDijkstra,
    };
    let budget = options.iteration_budget;
    let record = options.record_expansions;
    let mut result = match algorithm {
        Algorithm::AStar => {
            let mut s = GraphAStar::new(graph, cost, combined);
            drive_astar(&mut s, start, goal, budget, record)?
        }
        Algorithm::Dijkstra => {
            let mut s = GraphAStar::new(graph, cost, ZeroGraphHeuristic);
            drive_astar(&mut s, start, goal, budget, record)?
        }
        Algorithm::BidirectionalAStar => {
            let mut s = BidirectionalGraphSearch::new(graph, cost, combined);
            drive_bidi(&mut s, start, goal, budget, record)?
        }
        _ => {
            let mut s = BidirectionalGraphSearch::new(graph, cost, ZeroGraphHeuristic);
            drive_bidi(&mut s, start, goal, budget, record)?
        }
    };
    result.algorithm = algorithm;
    Ok(result)
}

/// [GRAPH.T1.RESULT] Drives an A* search and packs its result.
fn drive_astar<C: GraphCost, H: GraphHeuristic>(
    s: &mut GraphAStar<'_, C, H>,
    start: u32,
    goal: u32,
    budget: u64,
    record: bool,
) -> Result<GraphPath, QueryError> {
    s.set_record_expansions(record);
    s.begin(start, goal)?;
    let status = if budget > 0 {
        s.step(budget)
    } else {
        s.run(None)
    };
    Ok(pack(
        status,
        s.path_cost(),
        s.path(),
        s.expanded_count(),
        s.iterations(),
        s.expansions(),
    ))
}

/// [GRAPH.T1.RESULT] Drives a bidirectional search and packs its result.
fn drive_bidi<C: GraphCost, H: GraphHeuristic>(
    s: &mut BidirectionalGraphSearch<'_, C, H>,
    start: u32,
    goal: u32,
    budget: u64,
    record: bool,
) -> Result<GraphPath, QueryError> {
    s.set_record_expansions(record);
    s.begin(start, goal)?;
    let status = if budget > 0 {
        s.step(budget)
    } else {
        s.run(None)
    };
    Ok(pack(
        status,
        s.path_cost(),
        s.path(),
        s.expanded_count(),
        s.iterations(),
        s.expansions(),
    ))
}

/// [GRAPH.T1.RESULT] [GRAPH.T1.BUDGET] Builds a `GraphPath` (algorithm filled in by the caller).
fn pack(
    status: SearchStatus,
    cost: f64,
    nodes: Vec<u32>,
    expanded_count: u64,
    iterations: u64,
    expanded: &[u32],
) -> GraphPath {
    let status = match status {
        SearchStatus::Found => PathStatus::Found,
        SearchStatus::Running => PathStatus::BudgetExhausted,
        SearchStatus::NotFound | SearchStatus::NotStarted => PathStatus::NotFound,
    };
    GraphPath {
        status,
        cost,
        nodes,
        algorithm: Algorithm::Auto,
        expanded_count,
        iterations,
        expanded: expanded.to_vec(),
    }
}
