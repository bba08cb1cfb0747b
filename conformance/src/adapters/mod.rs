//! The in-process adapters: one `macro_rules!` body instantiated for `onepath_reference` and
//! for `onepath`, whose public APIs are identical (spec/graphs.md section 12).

#[macro_use]
mod describe_graph;
#[macro_use]
mod tier2;

use crate::error::CallError;
use crate::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookCall, HookedQuery, HookedRun, Implementation,
    LinkRequest, LinkResult, OplmError, RunOptions, SearchCode,
};
use crate::outcome::{AlgorithmCode, Outcome, PathOutcome, StatusCode};
use crate::scenario::{Case, GraphSpec, Query, StrategySpec, Variant};

/// The request families' methods of [`Implementation`]: each builds its family's request on
/// the crate through the family's own adapter module (`crate::<family>::adapter::<crate>`).
macro_rules! forward_requests {
    ($module:ident; $($method:ident: $family:ident::$request:ident => $reply:ident;)*) => {
        $(
            fn $method(
                &self,
                request: &crate::$family::$request,
            ) -> Result<crate::$family::$reply, crate::error::HarnessError> {
                crate::$family::adapter::$module::run(request)
            }
        )*
    };
}

macro_rules! define_adapter {
    ($module:ident, $krate:ident, $ty:ident, $name:expr, $doc:expr) => {
        pub(crate) mod $module {
            use super::*;
            use ::$krate as op;
            use std::sync::{Arc, Mutex};

            #[doc = $doc]
            #[derive(Clone, Copy, Debug, Default)]
            pub struct $ty;

            /// The graphs a case needs: the queried graph without built-in estimate, and for
            /// point graphs the `PointGraph` itself.
            pub(super) struct Built {
                plain: op::Graph,
                points: Option<op::PointGraph>,
                positions: Option<Arc<Vec<op::Point3>>>,
            }

            fn point(p: &[f64; 3]) -> op::Point3 {
                op::Point3::new(p[0], p[1], p[2])
            }

            fn csr_edges(csr: &op::CsrGraph) -> Vec<(u32, u32, f64)> {
                let (offsets, targets, weights) = (csr.offsets(), csr.targets(), csr.weights());
                let mut out = Vec::with_capacity(targets.len());
                for v in 0..csr.node_count() {
                    for slot in offsets[v] as usize..offsets[v + 1] as usize {
                        out.push((v as u32, targets[slot], weights[slot]));
                    }
                }
                out
            }

            fn build(graph: &GraphSpec) -> Result<Built, String> {
                match graph {
                    GraphSpec::Edges {
                        node_count,
                        directed,
                        edges,
                        positions,
                    } => {
                        let list: Vec<op::GraphEdge> = edges
                            .iter()
                            .map(|&(a, b, w)| op::GraphEdge::new(a, b, w))
                            .collect();
                        let plain =
                            op::Graph::from_edges(&list, Some(*node_count as usize), *directed)
                                .map_err(|e| e.class().to_string())?;
                        let positions = positions
                            .as_ref()
                            .map(|p| Arc::new(p.iter().map(point).collect::<Vec<_>>()));
                        Ok(Built {
                            plain,
                            points: None,
                            positions,
                        })
                    }
                    GraphSpec::Points {
                        points,
                        explicit,
                        max_distance,
                        nearest_count,
                    } => {
                        let pts: Vec<op::Point3> = points.iter().map(point).collect();
                        let options = op::LinkOptions {
                            explicit: explicit.iter().map(|l| (l[0], l[1])).collect(),
                            max_distance: *max_distance,
                            nearest_count: *nearest_count as usize,
                            link_valid: None,
                        };
                        let pg = op::PointGraph::new(&pts, &options)
                            .map_err(|e| e.class().to_string())?;
                        let list: Vec<op::GraphEdge> = csr_edges(pg.csr())
                            .into_iter()
                            .map(|(a, b, w)| op::GraphEdge::new(a, b, w))
                            .collect();
                        let plain = op::Graph::from_edges(&list, Some(pts.len()), true)
                            .map_err(|e| e.class().to_string())?;
                        Ok(Built {
                            plain,
                            points: Some(pg),
                            positions: None,
                        })
                    }
                }
            }

            /// [CONF.VAR.GEO] The positions of the Euclidean estimate when the variant uses one.
            fn geo_points(built: &Built, variant: Variant) -> Option<&[op::Point3]> {
                if !variant.uses_geo() {
                    None
                } else if let Some(pg) = &built.points {
                    Some(pg.points())
                } else {
                    built.positions.as_ref().map(|p| p.as_slice())
                }
            }

            fn landmarks(built: &Built, case: &Case) -> Result<op::Landmarks, String> {
                let options = op::LandmarkOptions {
                    count: case.landmarks.count as usize,
                    strategy: match case.landmarks.strategy {
                        StrategySpec::Avoid => op::LandmarkStrategy::Avoid,
                        StrategySpec::Farthest => op::LandmarkStrategy::Farthest,
                    },
                    seed: case.landmarks.seed,
                };
                built
                    .plain
                    .build_landmarks(&options)
                    .map_err(|e| e.class().to_string())
            }

            fn algorithm(variant: Variant) -> op::Algorithm {
                algorithm_of(variant.algorithm())
            }

            fn algorithm_of(code: AlgorithmCode) -> op::Algorithm {
                match code {
                    AlgorithmCode::Dijkstra => op::Algorithm::Dijkstra,
                    AlgorithmCode::Astar => op::Algorithm::AStar,
                    AlgorithmCode::BidirectionalDijkstra => op::Algorithm::BidirectionalDijkstra,
                    AlgorithmCode::BidirectionalAstar => op::Algorithm::BidirectionalAStar,
                }
            }

            fn convert(result: Result<op::GraphPath, op::QueryError>) -> Outcome {
                let p = match result {
                    Ok(p) => p,
                    Err(e) => return Outcome::Error(e.class().to_string()),
                };
                let algorithm = match p.algorithm {
                    op::Algorithm::Dijkstra => AlgorithmCode::Dijkstra,
                    op::Algorithm::AStar => AlgorithmCode::Astar,
                    op::Algorithm::BidirectionalDijkstra => AlgorithmCode::BidirectionalDijkstra,
                    op::Algorithm::BidirectionalAStar => AlgorithmCode::BidirectionalAstar,
                    other => return Outcome::Error(format!("harness: result reports {other:?}")),
                };
                let status = match p.status {
                    op::PathStatus::Found => StatusCode::Found,
                    op::PathStatus::NotFound => StatusCode::NotFound,
                    op::PathStatus::BudgetExhausted => StatusCode::BudgetExhausted,
                };
                Outcome::Path(PathOutcome {
                    algorithm,
                    status,
                    cost: p.cost,
                    iterations: p.iterations,
                    expanded_count: p.expanded_count,
                    nodes: p.nodes,
                    expanded: p.expanded,
                })
            }

            graph_tier2_fns!();

            fn failure(e: &op::BuildError) -> BuildFailure {
                BuildFailure {
                    class: e.class().to_string(),
                    index: e.index(),
                }
            }

            fn query_failure(e: &op::QueryError) -> BuildFailure {
                BuildFailure {
                    class: e.class().to_string(),
                    index: None,
                }
            }

            fn no_target(what: &str) -> BuildFailure {
                BuildFailure {
                    class: format!("harness: no current {what}"),
                    index: None,
                }
            }

            fn edge_list(edges: &[(u32, u32, f64)]) -> Vec<op::GraphEdge> {
                edges
                    .iter()
                    .map(|&(a, b, w)| op::GraphEdge::new(a, b, w))
                    .collect()
            }

            graph_describe_fns!($module);

            impl Implementation for $ty {
                fn name(&self) -> &str {
                    $name
                }

                /// [CONF.DEBUG.REQUEST] The graph, replan and flow targets run in their
                /// families' adapters (which own the graph builder and the scripts), the path
                /// targets in the describe adapter.
                fn describe(
                    &self,
                    request: &crate::debug::DescribeRequest,
                ) -> Result<crate::debug::DescribeReply, crate::error::HarnessError> {
                    use crate::debug::DescribeRequest as R;
                    match request {
                        R::Graph(t) => describe_graph(t),
                        R::Replan(r) => crate::replan::adapter::$module::describe(r),
                        R::Flow(f) => crate::flow::adapter::$module::describe(f),
                        other => crate::debug::adapter::$module::run(other),
                    }
                }

                /// [CONF.VAR.TIER1] [CONF.VAR.ALT] [CONF.VAR.GEO] [CONF.VAR.NOT_APPLICABLE] A geo
                /// variant on an edges graph without positions gets no heuristic hook, so it
                /// runs as its variant without geo ([GRAPH.EST.AUTO]).
                fn run_case(
                    &self,
                    case: &Case,
                    variants: &[Variant],
                    queries: &[Query],
                    opts: RunOptions,
                ) -> Vec<Vec<Outcome>> {
                    let all_err =
                        |class: &str| vec![Outcome::Error(class.to_string()); queries.len()];
                    let built = match build(&case.graph) {
                        Ok(b) => b,
                        Err(class) => return variants.iter().map(|_| all_err(&class)).collect(),
                    };
                    let table = if variants.iter().any(|v| v.uses_alt()) {
                        Some(landmarks(&built, case).map(Arc::new))
                    } else {
                        None
                    };
                    variants
                        .iter()
                        .map(|&variant| {
                            let landmarks = if variant.uses_alt() {
                                match table.as_ref().expect("table built for alt variants") {
                                    Ok(t) => Some(t.clone()),
                                    Err(class) => return all_err(class),
                                }
                            } else {
                                None
                            };
                            let options = tier1_options(&built, variant, landmarks, opts);
                            queries
                                .iter()
                                .map(|&(s, g)| match (&built.points, variant.uses_geo()) {
                                    (Some(pg), true) => convert(pg.find_path(s, g, &options)),
                                    _ => convert(built.plain.find_path(s, g, &options)),
                                })
                                .collect()
                        })
                        .collect()
                }

                fn run_sliced(
                    &self,
                    case: &Case,
                    variant: Variant,
                    query: Query,
                    budgets: &[u64],
                ) -> Outcome {
                    sliced(case, &[variant], &[query], &[budgets]).remove(0).remove(0).remove(0)
                }

                fn run_sliced_case(
                    &self,
                    case: &Case,
                    variants: &[Variant],
                    queries: &[Query],
                    budgets: &[u64],
                ) -> Vec<Vec<(Outcome, Outcome)>> {
                    let all = sliced(case, variants, queries, &[&[], budgets]);
                    let pair = |mut o: Vec<Outcome>| {
                        let s = o.pop().expect("two schedules");
                        (o.pop().expect("two schedules"), s)
                    };
                    all.into_iter()
                        .map(|v| v.into_iter().map(pair).collect())
                        .collect()
                }

                fn run_hooked(&self, case: &Case, q: &HookedQuery) -> HookedRun {
                    let calls: Arc<Mutex<Vec<HookCall>>> = Arc::new(Mutex::new(Vec::new()));
                    let done = |outcome: Outcome, calls: &Arc<Mutex<Vec<HookCall>>>| HookedRun {
                        outcome,
                        calls: calls.lock().expect("hook log").clone(),
                    };
                    let built = match build(&case.graph) {
                        Ok(b) => b,
                        Err(class) => return done(Outcome::Error(class), &calls),
                    };
                    let mut options = op::GraphOptions {
                        algorithm: algorithm_of(q.algorithm),
                        iteration_budget: q.opts.iteration_budget,
                        record_expansions: q.opts.record_expansions,
                        ..Default::default()
                    };
                    if q.landmarks {
                        match landmarks(&built, case) {
                            Ok(t) => options.landmarks = Some(Arc::new(t)),
                            Err(class) => return done(Outcome::Error(class), &calls),
                        }
                    }
                    if let Some(rule) = q.hooks.cost {
                        let log = calls.clone();
                        options.edge_cost = Some(Arc::new(move |a: u32, b: u32, w: f64| {
                            log.lock().expect("hook log").push(HookCall::EdgeCost(
                                a,
                                b,
                                w.to_bits(),
                            ));
                            rule.cost(a, b, w)
                        }));
                    }
                    if let Some(rule) = q.hooks.blocked {
                        let log = calls.clone();
                        options.blocked = Some(Arc::new(move |n: u32| {
                            log.lock().expect("hook log").push(HookCall::Blocked(n));
                            rule.blocked(n)
                        }));
                    }
                    if let Some(rule) = q.hooks.heuristic {
                        let log = calls.clone();
                        options.heuristic = Some(Arc::new(move |a: u32, b: u32| {
                            log.lock()
                                .expect("hook log")
                                .push(HookCall::Heuristic(a, b));
                            rule.estimate(a, b)
                        }));
                    }
                    let (s, g) = q.query;
                    let outcome = match (&built.points, q.builtin_estimate) {
                        (Some(pg), true) => convert(pg.find_path(s, g, &options)),
                        _ => convert(built.plain.find_path(s, g, &options)),
                    };
                    drop(options);
                    done(outcome, &calls)
                }

                fn run_cancelled(
                    &self,
                    case: &Case,
                    variant: Variant,
                    query: Query,
                    first_steps: u64,
                ) -> Result<CancelTrace, CallError> {
                    let answer = || -> Result<CancelTrace, String> {
                        let built = build(&case.graph)?;
                        let table = if variant.uses_alt() {
                            Some(landmarks(&built, case)?)
                        } else {
                            None
                        };
                        let geo = geo_points(&built, variant);
                        let estimate = Estimate {
                            geo,
                            alt: table.as_ref(),
                        };
                        let csr = built.plain.compile();
                        if variant.bidirectional() {
                            let mut s = op::BidirectionalGraphSearch::new(
                                csr,
                                op::DefaultGraphCost,
                                estimate,
                            );
                            cancel_drive(&mut s, query, first_steps, variant.algorithm())
                        } else {
                            let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, estimate);
                            cancel_drive(&mut s, query, first_steps, variant.algorithm())
                        }
                    };
                    answer().map_err(CallError::Class)
                }

                /// [CONF.IMPL.OPS] [CONF.IMPL.OPS_TABLE] Only a successful `BuildLandmarks`
                /// replaces `table`; a failed one and a new (or failed) graph leave it as it is.
                fn run_ops(&self, ops: &[GraphOp]) -> Vec<Result<u64, BuildFailure>> {
                    let mut graph: Option<op::Graph> = None;
                    let mut points: Option<op::PointGraph> = None;
                    let mut table: Option<Arc<op::Landmarks>> = None;
                    let mut out = Vec::with_capacity(ops.len());
                    for operation in ops {
                        let r: Result<u64, BuildFailure> = match operation {
                            GraphOp::FromEdges {
                                edges,
                                node_count,
                                directed,
                            } => {
                                let n =
                                    node_count.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
                                match op::Graph::from_edges(&edge_list(edges), n, *directed) {
                                    Ok(g) => {
                                        let c = g.edge_count() as u64;
                                        graph = Some(g);
                                        Ok(c)
                                    }
                                    Err(e) => {
                                        graph = None;
                                        Err(failure(&e))
                                    }
                                }
                            }
                            GraphOp::NewGraph(n) => {
                                match op::Graph::new(usize::try_from(*n).unwrap_or(usize::MAX)) {
                                    Ok(g) => {
                                        let c = g.node_count() as u64;
                                        graph = Some(g);
                                        Ok(c)
                                    }
                                    Err(e) => {
                                        graph = None;
                                        Err(failure(&e))
                                    }
                                }
                            }
                            GraphOp::Csr { node_count, edges } => op::CsrGraph::new(
                                usize::try_from(*node_count).unwrap_or(usize::MAX),
                                &edge_list(edges),
                            )
                            .map(|c| c.edge_count() as u64)
                            .map_err(|e| failure(&e)),
                            GraphOp::AddNode => match graph.as_mut() {
                                Some(g) => g.add_node().map(u64::from).map_err(|e| failure(&e)),
                                None => Err(no_target("graph")),
                            },
                            GraphOp::AddEdge(a, b, w) => match graph.as_mut() {
                                Some(g) => g
                                    .add_edge(*a, *b, *w)
                                    .map(u64::from)
                                    .map_err(|e| failure(&e)),
                                None => Err(no_target("graph")),
                            },
                            GraphOp::RemoveEdge(id) => match graph.as_mut() {
                                Some(g) => g.remove_edge(*id).map(|_| 0).map_err(|e| failure(&e)),
                                None => Err(no_target("graph")),
                            },
                            GraphOp::SetWeight(id, w) => match graph.as_mut() {
                                Some(g) => {
                                    g.set_weight(*id, *w).map(|_| 0).map_err(|e| failure(&e))
                                }
                                None => Err(no_target("graph")),
                            },
                            GraphOp::BuildLandmarks(count) => match graph.as_ref() {
                                Some(g) => {
                                    let options = op::LandmarkOptions {
                                        count: usize::try_from(*count).unwrap_or(usize::MAX),
                                        strategy: op::LandmarkStrategy::Avoid,
                                        seed: 1,
                                    };
                                    match g.build_landmarks(&options) {
                                        Ok(t) => {
                                            let c = t.count() as u64;
                                            table = Some(Arc::new(t));
                                            Ok(c)
                                        }
                                        Err(e) => Err(failure(&e)),
                                    }
                                }
                                None => Err(no_target("graph")),
                            },
                            GraphOp::FindPath {
                                start,
                                goal,
                                landmarks,
                            } => match (graph.as_ref(), landmarks, table.as_ref()) {
                                (None, _, _) => Err(no_target("graph")),
                                (Some(_), true, None) => Err(no_target("landmark table")),
                                (Some(g), _, t) => {
                                    let mut options = op::GraphOptions::default();
                                    if *landmarks {
                                        options.landmarks = t.cloned();
                                    }
                                    g.find_path(*start, *goal, &options)
                                        .map(|p| p.cost.to_bits())
                                        .map_err(|e| query_failure(&e))
                                }
                            },
                            GraphOp::Points {
                                points: pts,
                                explicit,
                                max_distance,
                                nearest_count,
                            } => {
                                let pts: Vec<op::Point3> = pts.iter().map(point).collect();
                                let options = op::LinkOptions {
                                    explicit: explicit.iter().map(|l| (l[0], l[1])).collect(),
                                    max_distance: *max_distance,
                                    nearest_count: *nearest_count as usize,
                                    link_valid: None,
                                };
                                match op::PointGraph::new(&pts, &options) {
                                    Ok(pg) => {
                                        let c = pg.csr().edge_count() as u64;
                                        points = Some(pg);
                                        Ok(c)
                                    }
                                    Err(e) => {
                                        points = None;
                                        Err(failure(&e))
                                    }
                                }
                            }
                            GraphOp::NearestNode(p) => match points.as_ref() {
                                Some(pg) => pg
                                    .nearest_node(point(p))
                                    .map(u64::from)
                                    .map_err(|e| query_failure(&e)),
                                None => Err(no_target("point graph")),
                            },
                            GraphOp::FindPathBetween(a, b) => match points.as_ref() {
                                Some(pg) => pg
                                    .find_path_between(
                                        point(a),
                                        point(b),
                                        &op::GraphOptions::default(),
                                    )
                                    .map(|p| p.cost.to_bits())
                                    .map_err(|e| query_failure(&e)),
                                None => Err(no_target("point graph")),
                            },
                        };
                        out.push(r);
                    }
                    out
                }

                fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, BuildFailure> {
                    let pts: Vec<op::Point3> = request.points.iter().map(point).collect();
                    let calls = Arc::new(Mutex::new(Vec::new()));
                    let link_valid: Option<op::LinkValidFn> = request.rule.map(|rule| {
                        let calls = calls.clone();
                        let f: op::LinkValidFn = Arc::new(move |a: u32, b: u32| {
                            calls.lock().expect("link_valid log").push((a, b));
                            rule.accepts(a, b)
                        });
                        f
                    });
                    let options = op::LinkOptions {
                        explicit: request.explicit.iter().map(|l| (l[0], l[1])).collect(),
                        max_distance: request.max_distance,
                        nearest_count: request.nearest_count as usize,
                        link_valid,
                    };
                    let pg = op::PointGraph::new(&pts, &options).map_err(|e| failure(&e))?;
                    let edges = csr_edges(pg.csr());
                    let calls = calls.lock().expect("link_valid log").clone();
                    Ok(LinkResult { edges, calls })
                }

                fn build_landmarks(&self, case: &Case) -> Result<Vec<u8>, CallError> {
                    let answer = || -> Result<Vec<u8>, String> {
                        let built = build(&case.graph)?;
                        Ok(landmarks(&built, case)?.serialize())
                    };
                    answer().map_err(CallError::Class)
                }

                fn lower_bounds(
                    &self,
                    case: &Case,
                    pairs: &[(u32, u32)],
                ) -> Result<Vec<f64>, CallError> {
                    let answer = || -> Result<Vec<f64>, String> {
                        let built = build(&case.graph)?;
                        let table = landmarks(&built, case)?;
                        Ok(pairs
                            .iter()
                            .map(|&(u, v)| table.lower_bound(u, v))
                            .collect())
                    };
                    answer().map_err(CallError::Class)
                }

                fn deserialize_oplm(
                    &self,
                    case: &Case,
                    bytes: &[u8],
                ) -> Result<Vec<u8>, OplmError> {
                    let built =
                        build(&case.graph).map_err(|class| OplmError { class, offset: 0 })?;
                    op::Landmarks::deserialize(bytes, built.plain.compile())
                        .map(|t| t.serialize())
                        .map_err(|e| OplmError {
                            class: e.class().to_string(),
                            offset: e.offset(),
                        })
                }

                forward_requests!($module;
                    run_state: state::StateRequest => StateReply;
                    run_grid: grid::GridRequest => GridOutcome;
                    run_replan: replan::ReplanRequest => ReplanReply;
                    run_flow: flow::FlowRequest => FlowReply;
                    run_lattice: lattice::LatticeRequest => LatticeReply;
                    run_hpa: hpa::HpaRequest => HpaReply;
                    run_bidi: bidi::BidiRequest => BidiReply;
                    run_synctest: synctest::Session => SyncReply;
                );
            }
        }
        pub use $module::$ty;
    };
}

define_adapter!(
    reference_adapter,
    onepath_reference,
    ReferenceCrate,
    "onepath-reference",
    "The `onepath-reference` crate (the oracle of record for vectors)."
);
define_adapter!(
    optimized_adapter,
    onepath,
    OptimizedCrate,
    "onepath",
    "The optimized `onepath` crate."
);
