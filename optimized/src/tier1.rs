//! Tier-1 queries: [GRAPH.T1.OPTIONS], [GRAPH.T1.BLOCKED], [GRAPH.T1.BUDGET],
//! [GRAPH.T1.RESULT], [GRAPH.T1.CHECKS], [GRAPH.T1.POOL], [GRAPH.EST.COMBINE], [GRAPH.EST.AUTO],
//! [GRAPH.API.TIER1_SEARCH].

use crate::astar::{
    normalize, AltGraphHeuristic, DefaultGraphCost, Engine, EuclideanGraphHeuristic, GraphCost,
    GraphHeuristic, SearchStatus, ZeroGraphHeuristic,
};
use crate::bidi::BidirectionalGraphSearch;
use crate::csr::CsrGraph;
use crate::error::{QueryError, QueryKind};
use crate::heap::Scratch;
use crate::landmarks::Landmarks;
use crate::values::Point3;
use std::sync::{Arc, Mutex};

/// [GRAPH.T1.OPTIONS] The `edge_cost(from, to, weight)` hook.
pub type EdgeCostFn = Arc<dyn Fn(u32, u32, f64) -> f64 + Send + Sync>;
/// [GRAPH.T1.OPTIONS] [GRAPH.T1.BLOCKED] The `blocked(node)` hook.
pub type BlockedFn = Arc<dyn Fn(u32) -> bool + Send + Sync>;
/// [GRAPH.T1.OPTIONS] [GRAPH.EST.COMBINE] The `heuristic(from, to)` hook.
pub type HeuristicFn = Arc<dyn Fn(u32, u32) -> f64 + Send + Sync>;

/// [GRAPH.T1.OPTIONS] [GRAPH.EST.AUTO] The algorithm to run; `Auto` and `Bidirectional` choose
/// by whether an estimate exists, and a result never reports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// [GRAPH.EST.AUTO] A* with an estimate, else Dijkstra.
    #[default]
    Auto,
    /// [GRAPH.EST.ZERO] A* with the zero estimate.
    Dijkstra,
    /// [GRAPH.EST.AUTO] A* with the combined estimate (Dijkstra without one).
    AStar,
    /// [GRAPH.T1.OPTIONS] Bidirectional A* with an estimate, else bidirectional Dijkstra.
    Bidirectional,
    /// [GRAPH.BIDI.SIDES] Bidirectional search with the zero estimate.
    BidirectionalDijkstra,
    /// [GRAPH.BIDI.POTENTIAL] Bidirectional search with the combined estimate.
    BidirectionalAStar,
}

/// [GRAPH.T1.OPTIONS] Tier-1 query options.
#[derive(Clone, Default)]
pub struct GraphOptions {
    /// [GRAPH.T1.OPTIONS] Edge cost hook (default: the stored weight).
    pub edge_cost: Option<EdgeCostFn>,
    /// [GRAPH.T1.BLOCKED] Blocked-node hook (default: nothing blocked).
    pub blocked: Option<BlockedFn>,
    /// [GRAPH.EST.COMBINE] Estimate hook, combined last.
    pub heuristic: Option<HeuristicFn>,
    /// [GRAPH.EST.AUTO] The algorithm.
    pub algorithm: Algorithm,
    /// [GRAPH.EST.COMBINE] [GRAPH.ALT.STALE] A landmark table for the ALT estimate.
    pub landmarks: Option<Arc<Landmarks>>,
    /// [GRAPH.T1.BUDGET] Iteration budget (0 = unlimited).
    pub iteration_budget: u64,
    /// [GRAPH.T1.RESULT] Whether the result lists the expanded nodes.
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

/// [GRAPH.T1.RESULT] Outcome of a tier-1 query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathStatus {
    /// [GRAPH.T1.RESULT] A path was found.
    Found,
    /// [GRAPH.T1.RESULT] The goal is unreachable.
    NotFound,
    /// [GRAPH.T1.BUDGET] The iteration budget ran out first.
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
    /// [GRAPH.ASTAR.COUNTERS] Expansions.
    pub expanded_count: u64,
    /// [GRAPH.ASTAR.COUNTERS] Iterations (pops).
    pub iterations: u64,
    /// [GRAPH.T1.RESULT] The recorded expansions (empty unless recording).
    pub expanded: Vec<u32>,
}

/// [GRAPH.T1.POOL] Per-graph pool of search buffers.
#[derive(Default)]
pub(crate) struct Pool {
    free: Mutex<Vec<Scratch>>,
}

impl Pool {
    fn take(&self) -> Scratch {
        let mut g = self.free.lock().unwrap_or_else(|e| e.into_inner());
        g.pop().unwrap_or_default()
    }

    fn give(&self, s: Scratch) {
        let mut g = self.free.lock().unwrap_or_else(|e| e.into_inner());
        g.push(s);
    }
}

/// [GRAPH.T1.BLOCKED] [GRAPH.API.TIER1_SEARCH] The cost object built from the hooks.
struct HookCost<'a> {
    edge_cost: Option<&'a EdgeCostFn>,
    blocked: Option<&'a BlockedFn>,
}

impl GraphCost for HookCost<'_> {
    #[inline(always)]
    fn cost(&self, from: u32, to: u32, weight: f64) -> f64 {
        match self.edge_cost {
            Some(f) => f(from, to, weight),
            None => weight,
        }
    }
    #[inline(always)]
    fn blocked(&self, node: u32) -> bool {
        match self.blocked {
            Some(f) => f(node),
            None => false,
        }
    }
}

/// [GRAPH.EST.COMBINE] The maximum of the existing normalised estimates, in the order
/// Euclidean, ALT, hook.
struct Combined<'a> {
    points: Option<&'a [Point3]>,
    alt: Option<&'a Landmarks>,
    hook: Option<&'a HeuristicFn>,
}

#[inline(always)]
fn max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

impl GraphHeuristic for Combined<'_> {
    fn estimate(&self, from: u32, to: u32) -> f64 {
        let mut m: Option<f64> = None;
        if let Some(p) = self.points {
            m = Some(normalize(
                EuclideanGraphHeuristic::new(p).estimate(from, to),
            ));
        }
        if let Some(t) = self.alt {
            let e = normalize(t.lower_bound(from, to));
            m = Some(m.map_or(e, |a| max(a, e)));
        }
        if let Some(h) = self.hook {
            let e = normalize(h(from, to));
            m = Some(m.map_or(e, |a| max(a, e)));
        }
        m.unwrap_or(0.0)
    }

    #[inline(always)]
    fn prefetch(&self, node: u32) {
        if let Some(p) = self.points {
            EuclideanGraphHeuristic::new(p).prefetch(node);
        }
    }
}

/// [GRAPH.T1.CHECKS] [GRAPH.EST.AUTO] Runs one tier-1 query on a compiled graph.
pub(crate) fn query(
    csr: &CsrGraph,
    points: Option<&[Point3]>,
    pool: &Pool,
    start: u32,
    goal: u32,
    options: &GraphOptions,
) -> Result<GraphPath, QueryError> {
    let n = csr.node_count();
    if start as usize >= n {
        return Err(QueryError::node(false, start, n));
    }
    if goal as usize >= n {
        return Err(QueryError::node(true, goal, n));
    }
    if let Some(t) = &options.landmarks {
        if t.node_count() != n || t.fingerprint() != csr.fingerprint() {
            return Err(QueryError::new(QueryKind::StaleLandmarks {
                table_nodes: t.node_count(),
                table_fp: t.fingerprint(),
                graph_nodes: n,
                graph_fp: csr.fingerprint(),
            }));
        }
    }
    let has_estimate =
        points.is_some() || options.landmarks.is_some() || options.heuristic.is_some();
    let algorithm = match (options.algorithm, has_estimate) {
        (Algorithm::Auto | Algorithm::AStar, true) => Algorithm::AStar,
        (Algorithm::Auto | Algorithm::AStar | Algorithm::Dijkstra, _) => Algorithm::Dijkstra,
        (Algorithm::Bidirectional | Algorithm::BidirectionalAStar, true) => {
            Algorithm::BidirectionalAStar
        }
        _ => Algorithm::BidirectionalDijkstra,
    };
    let q = Query {
        csr,
        pool,
        start,
        goal,
        options,
        algorithm,
    };
    let hooks = options.edge_cost.is_some() || options.blocked.is_some();
    if hooks {
        let cost = HookCost {
            edge_cost: options.edge_cost.as_ref(),
            blocked: options.blocked.as_ref(),
        };
        Ok(q.with_cost(cost, points))
    } else {
        Ok(q.with_cost(DefaultGraphCost, points))
    }
}

struct Query<'a> {
    csr: &'a CsrGraph,
    pool: &'a Pool,
    start: u32,
    goal: u32,
    options: &'a GraphOptions,
    algorithm: Algorithm,
}

impl Query<'_> {
    fn with_cost<C: GraphCost>(&self, cost: C, points: Option<&[Point3]>) -> GraphPath {
        let o = self.options;
        let informed = matches!(
            self.algorithm,
            Algorithm::AStar | Algorithm::BidirectionalAStar
        );
        if !informed {
            return self.run(cost, ZeroGraphHeuristic);
        }
        let alt = o.landmarks.as_deref();
        match (points, alt, o.heuristic.as_ref()) {
            (Some(p), None, None) => self.run(cost, EuclideanGraphHeuristic::new(p)),
            (None, Some(t), None) => self.run(cost, AltGraphHeuristic::new(t)),
            (points, alt, hook) => self.run(cost, Combined { points, alt, hook }),
        }
    }

    fn run<C: GraphCost, H: GraphHeuristic>(&self, cost: C, heuristic: H) -> GraphPath {
        let o = self.options;
        let bidi = matches!(
            self.algorithm,
            Algorithm::BidirectionalAStar | Algorithm::BidirectionalDijkstra
        );
        let finish = |status: SearchStatus| match status {
            SearchStatus::Found => PathStatus::Found,
            SearchStatus::Running => PathStatus::BudgetExhausted,
            _ => PathStatus::NotFound,
        };
        if bidi {
            let mut s = BidirectionalGraphSearch::with_scratch(
                self.csr,
                cost,
                heuristic,
                self.pool.take(),
                self.pool.take(),
            );
            s.set_record_expansions(o.record_expansions);
            let _ = s.begin(self.start, self.goal);
            let st = if o.iteration_budget > 0 {
                s.step(o.iteration_budget)
            } else {
                s.run(None)
            };
            let out = GraphPath {
                status: finish(st),
                cost: s.path_cost(),
                nodes: s.path(),
                algorithm: self.algorithm,
                expanded_count: s.expanded_count(),
                iterations: s.iterations(),
                expanded: s.expansions().to_vec(),
            };
            let (a, b) = s.into_scratch();
            self.pool.give(a);
            self.pool.give(b);
            out
        } else {
            let mut s =
                Engine::<C, H, 4>::with_scratch(self.csr, cost, heuristic, self.pool.take());
            s.set_record_expansions(o.record_expansions);
            let _ = s.begin(self.start, self.goal);
            let st = if o.iteration_budget > 0 {
                s.step(o.iteration_budget)
            } else {
                s.run(None)
            };
            let out = GraphPath {
                status: finish(st),
                cost: s.path_cost(),
                nodes: s.path(),
                algorithm: self.algorithm,
                expanded_count: s.expanded_count(),
                iterations: s.iterations(),
                expanded: s.expansions().to_vec(),
            };
            self.pool.give(s.into_scratch());
            out
        }
    }
}
