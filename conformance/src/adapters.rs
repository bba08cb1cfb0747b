//! The in-process adapters: one `macro_rules!` body instantiated for `onepath_reference` and
//! for `onepath`, whose public APIs are identical (spec/graphs.md section 12).

use crate::implementation::{Implementation, LinkRequest, LinkResult, OplmError, RunOptions};
use crate::outcome::{AlgorithmCode, Outcome, PathOutcome, StatusCode};
use crate::scenario::{Case, GraphSpec, Query, StrategySpec, Variant};

macro_rules! define_adapter {
    ($module:ident, $krate:ident, $ty:ident, $name:expr, $doc:expr) => {
        mod $module {
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
                    GraphSpec::Edges { node_count, directed, edges, positions } => {
                        let list: Vec<op::GraphEdge> = edges.iter().map(|&(a, b, w)| op::GraphEdge::new(a, b, w)).collect();
                        let plain = op::Graph::from_edges(&list, Some(*node_count as usize), *directed)
                            .map_err(|e| e.class().to_string())?;
                        let positions = positions.as_ref().map(|p| Arc::new(p.iter().map(point).collect::<Vec<_>>()));
                        Ok(Built { plain, points: None, positions })
                    }
                    GraphSpec::Points { points, explicit, max_distance, nearest_count } => {
                        let pts: Vec<op::Point3> = points.iter().map(point).collect();
                        let options = op::LinkOptions {
                            explicit: explicit.iter().map(|l| (l[0], l[1])).collect(),
                            max_distance: *max_distance,
                            nearest_count: *nearest_count as usize,
                            link_valid: None,
                        };
                        let pg = op::PointGraph::new(&pts, &options).map_err(|e| e.class().to_string())?;
                        let list: Vec<op::GraphEdge> =
                            csr_edges(pg.csr()).into_iter().map(|(a, b, w)| op::GraphEdge::new(a, b, w)).collect();
                        let plain = op::Graph::from_edges(&list, Some(pts.len()), true).map_err(|e| e.class().to_string())?;
                        Ok(Built { plain, points: Some(pg), positions: None })
                    }
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
                built.plain.build_landmarks(&options).map_err(|e| e.class().to_string())
            }

            fn algorithm(variant: Variant) -> op::Algorithm {
                match variant.algorithm() {
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

            /// The combined estimate of [GRAPH.EST.COMBINE] for tier 2.
            struct Estimate<'a> {
                geo: Option<&'a [op::Point3]>,
                alt: Option<&'a op::Landmarks>,
            }

            fn normalise(e: f64) -> f64 {
                if e == f64::INFINITY {
                    e
                } else if e > 0.0 {
                    e
                } else {
                    0.0
                }
            }

            impl op::GraphHeuristic for Estimate<'_> {
                fn estimate(&self, from: u32, to: u32) -> f64 {
                    let mut best = 0.0f64;
                    if let Some(p) = self.geo {
                        let e = normalise(op::distance(p[from as usize], p[to as usize]));
                        if e > best {
                            best = e;
                        }
                    }
                    if let Some(l) = self.alt {
                        let e = normalise(l.lower_bound(from, to));
                        if e > best {
                            best = e;
                        }
                    }
                    best
                }
            }

            /// What the sliced driver needs from both tier-2 searches.
            trait Stepper {
                fn begin_(&mut self, start: u32, goal: u32) -> Result<(), String>;
                fn step_(&mut self, n: u64) -> op::SearchStatus;
                fn run_(&mut self) -> op::SearchStatus;
                fn finish(&self, algorithm: AlgorithmCode) -> Outcome;
            }

            macro_rules! stepper {
                ($search:ident) => {
                    impl<C: op::GraphCost, H: op::GraphHeuristic> Stepper for op::$search<'_, C, H> {
                        fn begin_(&mut self, start: u32, goal: u32) -> Result<(), String> {
                            self.set_record_expansions(true);
                            self.begin(start, goal).map_err(|e| e.class().to_string())
                        }
                        fn step_(&mut self, n: u64) -> op::SearchStatus {
                            self.step(n)
                        }
                        fn run_(&mut self) -> op::SearchStatus {
                            self.run(None)
                        }
                        fn finish(&self, algorithm: AlgorithmCode) -> Outcome {
                            let status = match self.status() {
                                op::SearchStatus::Found => StatusCode::Found,
                                op::SearchStatus::NotFound => StatusCode::NotFound,
                                other => return Outcome::Error(format!("harness: tier-2 search ended {other:?}")),
                            };
                            Outcome::Path(PathOutcome {
                                algorithm,
                                status,
                                cost: self.path_cost(),
                                iterations: self.iterations(),
                                expanded_count: self.expanded_count(),
                                nodes: self.path(),
                                expanded: self.expansions().to_vec(),
                            })
                        }
                    }
                };
            }
            stepper!(GraphAStar);
            stepper!(BidirectionalGraphSearch);

            fn drive<S: Stepper>(s: &mut S, query: Query, budgets: &[u64], algorithm: AlgorithmCode) -> Outcome {
                if let Err(class) = s.begin_(query.0, query.1) {
                    return Outcome::Error(class);
                }
                let mut status = if budgets.is_empty() {
                    s.run_()
                } else {
                    let mut i = 0usize;
                    loop {
                        let st = s.step_(budgets[i % budgets.len()].max(1));
                        i += 1;
                        if st != op::SearchStatus::Running || i > 100_000_000 {
                            break st;
                        }
                    }
                };
                if status == op::SearchStatus::Running {
                    status = s.run_();
                }
                let _ = status;
                s.finish(algorithm)
            }

            impl Implementation for $ty {
                fn name(&self) -> &str {
                    $name
                }

                fn run_case(&self, case: &Case, variants: &[Variant], queries: &[Query], opts: RunOptions) -> Vec<Vec<Outcome>> {
                    let all_err = |class: &str| vec![Outcome::Error(class.to_string()); queries.len()];
                    let built = match build(&case.graph) {
                        Ok(b) => b,
                        Err(class) => return variants.iter().map(|_| all_err(&class)).collect(),
                    };
                    let table = if variants.iter().any(|v| v.uses_alt()) { Some(landmarks(&built, case).map(Arc::new)) } else { None };
                    variants
                        .iter()
                        .map(|&variant| {
                            let mut options = op::GraphOptions {
                                algorithm: algorithm(variant),
                                iteration_budget: opts.iteration_budget,
                                record_expansions: opts.record_expansions,
                                ..Default::default()
                            };
                            if variant.uses_alt() {
                                match table.as_ref().expect("table built for alt variants") {
                                    Ok(t) => options.landmarks = Some(t.clone()),
                                    Err(class) => return all_err(class),
                                }
                            }
                            if variant.uses_geo() {
                                if let Some(pos) = &built.positions {
                                    let pos = pos.clone();
                                    options.heuristic = Some(Arc::new(move |u: u32, v: u32| {
                                        match (pos.get(u as usize), pos.get(v as usize)) {
                                            (Some(a), Some(b)) => op::distance(*a, *b),
                                            _ => 0.0,
                                        }
                                    }));
                                }
                            }
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

                fn run_sliced(&self, case: &Case, variant: Variant, query: Query, budgets: &[u64]) -> Outcome {
                    let built = match build(&case.graph) {
                        Ok(b) => b,
                        Err(class) => return Outcome::Error(class),
                    };
                    let table = if variant.uses_alt() {
                        match landmarks(&built, case) {
                            Ok(t) => Some(t),
                            Err(class) => return Outcome::Error(class),
                        }
                    } else {
                        None
                    };
                    let geo: Option<&[op::Point3]> = if !variant.uses_geo() {
                        None
                    } else if let Some(pg) = &built.points {
                        Some(pg.points())
                    } else {
                        built.positions.as_ref().map(|p| p.as_slice())
                    };
                    let estimate = Estimate { geo, alt: table.as_ref() };
                    let csr = built.plain.compile();
                    if variant.bidirectional() {
                        let mut s = op::BidirectionalGraphSearch::new(csr, op::DefaultGraphCost, estimate);
                        drive(&mut s, query, budgets, variant.algorithm())
                    } else {
                        let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, estimate);
                        drive(&mut s, query, budgets, variant.algorithm())
                    }
                }

                fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, String> {
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
                    let pg = op::PointGraph::new(&pts, &options).map_err(|e| e.class().to_string())?;
                    let edges = csr_edges(pg.csr());
                    let calls = calls.lock().expect("link_valid log").clone();
                    Ok(LinkResult { edges, calls })
                }

                fn build_landmarks(&self, case: &Case) -> Result<Vec<u8>, String> {
                    let built = build(&case.graph)?;
                    Ok(landmarks(&built, case)?.serialize())
                }

                fn lower_bounds(&self, case: &Case, pairs: &[(u32, u32)]) -> Result<Vec<f64>, String> {
                    let built = build(&case.graph)?;
                    let table = landmarks(&built, case)?;
                    Ok(pairs.iter().map(|&(u, v)| table.lower_bound(u, v)).collect())
                }

                fn deserialize_oplm(&self, case: &Case, bytes: &[u8]) -> Result<Vec<u8>, OplmError> {
                    let built = build(&case.graph).map_err(|class| OplmError { class, offset: 0 })?;
                    op::Landmarks::deserialize(bytes, built.plain.compile())
                        .map(|t| t.serialize())
                        .map_err(|e| OplmError { class: e.class().to_string(), offset: e.offset() })
                }
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
define_adapter!(optimized_adapter, onepath, OptimizedCrate, "onepath", "The optimized `onepath` crate.");
