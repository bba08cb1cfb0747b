//! [GRAPH.T1] tests: algorithm choice, budget, blocked endpoints, stale landmarks, tier-1 equals
#![allow(clippy::if_same_then_else)]
//! tier 2, combined estimate, concurrent queries.

mod common;

use std::sync::{Arc, Mutex};

use common::{floyd_warshall, random_edges, Lcg};
use onepath_reference::{
    Algorithm, BidirectionalGraphSearch, DefaultGraphCost, Graph, GraphAStar, GraphEdge,
    GraphHeuristic, GraphOptions, GraphPath, LandmarkOptions, Landmarks, PathStatus,
    ZeroGraphHeuristic,
};

fn e(from: u32, to: u32, w: f64) -> GraphEdge {
    GraphEdge::new(from, to, w)
}

fn chain(n: u32) -> Graph {
    let edges: Vec<GraphEdge> = (0..n - 1).map(|i| e(i, i + 1, 1.0)).collect();
    Graph::from_edges(&edges, None, true).unwrap()
}

#[test]
fn algorithm_choice() {
    let g = chain(5);
    let table = Arc::new(g.build_landmarks(&LandmarkOptions::default()).unwrap());
    let hook: onepath_reference::HeuristicFn = Arc::new(|_, _| 0.0);
    let run = |algorithm: Algorithm, landmarks: bool, heuristic: bool| {
        let opts = GraphOptions {
            algorithm,
            landmarks: landmarks.then(|| table.clone()),
            heuristic: heuristic.then(|| hook.clone()),
            ..GraphOptions::default()
        };
        let r = g.find_path(0, 4, &opts).unwrap();
        assert_eq!((r.status, r.cost), (PathStatus::Found, 4.0));
        r.algorithm
    };
    use Algorithm::*;
    assert_eq!(run(Auto, false, false), Dijkstra);
    assert_eq!(run(Auto, true, false), AStar);
    assert_eq!(run(Auto, false, true), AStar);
    assert_eq!(run(AStar, false, false), Dijkstra);
    assert_eq!(run(Dijkstra, true, true), Dijkstra);
    assert_eq!(run(Bidirectional, false, false), BidirectionalDijkstra);
    assert_eq!(run(Bidirectional, true, false), BidirectionalAStar);
    assert_eq!(run(BidirectionalAStar, false, false), BidirectionalDijkstra);
    assert_eq!(
        run(BidirectionalDijkstra, true, false),
        BidirectionalDijkstra
    );
    assert_eq!(GraphOptions::bidirectional().algorithm, Bidirectional);
    let w = GraphOptions::with_landmarks(table.clone());
    assert_eq!((w.algorithm, w.landmarks.is_some()), (Auto, true));
    let d = GraphOptions::default();
    assert_eq!((d.iteration_budget, d.record_expansions), (0, false));
}

#[test]
fn budget_exhausted_and_counters() {
    let g = chain(10);
    let opts = GraphOptions {
        iteration_budget: 3,
        record_expansions: true,
        ..Default::default()
    };
    let r = g.find_path(0, 9, &opts).unwrap();
    assert_eq!(r.status, PathStatus::BudgetExhausted);
    assert_eq!(
        (r.cost, r.nodes.len(), r.iterations, r.expanded.clone()),
        (f64::INFINITY, 0, 3, vec![0, 1, 2])
    );
    let opts = GraphOptions {
        iteration_budget: 10,
        record_expansions: true,
        ..Default::default()
    };
    let r = g.find_path(0, 9, &opts).unwrap();
    assert_eq!(
        (r.status, r.cost, r.iterations, r.expanded_count),
        (PathStatus::Found, 9.0, 10, 9)
    );
    assert_eq!(r.nodes, (0..10).collect::<Vec<_>>());
    let r = g.find_path(0, 9, &GraphOptions::default()).unwrap();
    assert!(r.expanded.is_empty(), "not recording");
    // unreachable
    let r = g.find_path(9, 0, &GraphOptions::default()).unwrap();
    assert_eq!(
        (r.status, r.cost, r.nodes.len(), r.iterations),
        (PathStatus::NotFound, f64::INFINITY, 0, 1)
    );
}

#[test]
fn blocked_endpoints_give_not_found_without_other_hooks() {
    let g = chain(4);
    for algorithm in [Algorithm::Auto, Algorithm::Bidirectional] {
        let log = Arc::new(Mutex::new(Vec::<String>::new()));
        let (l1, l2, l3) = (log.clone(), log.clone(), log.clone());
        let opts = GraphOptions {
            algorithm,
            blocked: Some(Arc::new(move |v| {
                l1.lock().unwrap().push(format!("blocked({v})"));
                v == 3
            })),
            edge_cost: Some(Arc::new(move |a, b, w| {
                l2.lock().unwrap().push(format!("cost({a},{b})"));
                w
            })),
            heuristic: Some(Arc::new(move |a, b| {
                l3.lock().unwrap().push(format!("h({a},{b})"));
                0.0
            })),
            ..Default::default()
        };
        let r = g.find_path(0, 3, &opts).unwrap();
        assert_eq!((r.status, r.iterations), (PathStatus::NotFound, 0));
        assert_eq!(*log.lock().unwrap(), vec!["blocked(0)", "blocked(3)"]);
        // a blocked inner node is never entered and its edges never costed
        log.lock().unwrap().clear();
        let r = g.find_path(0, 2, &opts).unwrap();
        assert_eq!(r.status, PathStatus::Found);
        let r = g.find_path(2, 0, &opts).unwrap();
        assert_eq!(r.status, PathStatus::NotFound);
        assert!(!log
            .lock()
            .unwrap()
            .iter()
            .any(|c| c.starts_with("cost(2,3)")));
    }
}

#[test]
fn query_checks_order_and_stale_landmarks() {
    let mut g = chain(4);
    let table = Arc::new(
        g.build_landmarks(&LandmarkOptions {
            count: 2,
            ..Default::default()
        })
        .unwrap(),
    );
    let opts = GraphOptions::with_landmarks(table.clone());
    assert!(g.find_path(0, 3, &opts).is_ok());
    g.set_weight(0, 2.0).unwrap();
    assert_eq!(
        g.find_path(0, 3, &opts).unwrap_err().class(),
        "stale_landmarks"
    );
    assert_eq!(
        g.find_path(4, 3, &opts).unwrap_err().class(),
        "node_out_of_range"
    );
    g.set_weight(0, 1.0).unwrap();
    assert!(
        g.find_path(0, 3, &opts).is_ok(),
        "only the values count, not the identity"
    );
    g.add_node().unwrap();
    assert_eq!(
        g.find_path(0, 3, &opts).unwrap_err().class(),
        "stale_landmarks"
    );
    // Dijkstra ignores the estimate but still checks staleness
    let opts = GraphOptions {
        algorithm: Algorithm::Dijkstra,
        ..GraphOptions::with_landmarks(table)
    };
    assert_eq!(
        g.find_path(0, 3, &opts).unwrap_err().class(),
        "stale_landmarks"
    );
}

/// [GRAPH.EST.COMBINE] max(normalise(ALT), normalise(hook)) written out for tier 2.
struct Combined<'a>(&'a Landmarks, fn(u32, u32) -> f64);
impl GraphHeuristic for Combined<'_> {
    fn estimate(&self, from: u32, to: u32) -> f64 {
        let norm = |x: f64| {
            if x == f64::INFINITY {
                x
            } else if x > 0.0 {
                x
            } else {
                0.0
            }
        };
        let a = norm(self.0.lower_bound(from, to));
        let b = norm((self.1)(from, to));
        if b > a {
            b
        } else {
            a
        }
    }
}

fn hook_h(a: u32, b: u32) -> f64 {
    match (a + b) % 4 {
        0 => f64::NAN,
        1 => -1.0,
        2 => 1.5,
        _ => 0.5,
    }
}

#[test]
fn tier1_equals_tier2() {
    let mut rng = Lcg(17);
    for trial in 0..40 {
        let n = 1 + rng.below(10) as u32;
        let m = rng.below(25) as usize;
        let edges = random_edges(&mut rng, n, m, 5);
        let g = Graph::from_edges(&edges, Some(n as usize), true).unwrap();
        let csr = g.compile();
        let table = Arc::new(
            Landmarks::build(
                csr,
                &LandmarkOptions {
                    count: 3,
                    ..Default::default()
                },
            )
            .unwrap(),
        );
        let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
        let fw = floyd_warshall(n as usize, &edges);

        let opts = GraphOptions {
            landmarks: Some(table.clone()),
            heuristic: Some(Arc::new(hook_h)),
            record_expansions: true,
            ..Default::default()
        };
        let r = g.find_path(a, b, &opts).unwrap();
        let mut s = GraphAStar::new(csr, DefaultGraphCost, Combined(&table, hook_h));
        s.set_record_expansions(true);
        s.begin(a, b).unwrap();
        s.run(None);
        let want = GraphPath {
            status: if s.path().is_empty() {
                PathStatus::NotFound
            } else {
                PathStatus::Found
            },
            cost: s.path_cost(),
            nodes: s.path(),
            algorithm: Algorithm::AStar,
            expanded_count: s.expanded_count(),
            iterations: s.iterations(),
            expanded: s.expansions().to_vec(),
        };
        assert_eq!(r, want, "trial {trial}");

        let opts = GraphOptions {
            record_expansions: true,
            ..GraphOptions::bidirectional()
        };
        let r = g.find_path(a, b, &opts).unwrap();
        let mut s = BidirectionalGraphSearch::new(csr, DefaultGraphCost, ZeroGraphHeuristic);
        s.set_record_expansions(true);
        s.begin(a, b).unwrap();
        s.run(None);
        assert_eq!(
            (r.cost, r.nodes.clone(), r.iterations, r.expanded.clone()),
            (
                s.path_cost(),
                s.path(),
                s.iterations(),
                s.expansions().to_vec()
            )
        );
        assert_eq!(r.cost, fw[a as usize][b as usize], "trial {trial}");
        assert_eq!(r.algorithm, Algorithm::BidirectionalDijkstra);
    }
}

#[test]
fn concurrent_queries_on_an_unedited_graph() {
    let mut rng = Lcg(8);
    let edges = random_edges(&mut rng, 30, 120, 9);
    let g = Graph::from_edges(&edges, Some(30), false).unwrap();
    let expected: Vec<GraphPath> = (0..30)
        .map(|v| g.find_path(0, v, &GraphOptions::default()).unwrap())
        .collect();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                for v in 0..30 {
                    assert_eq!(
                        g.find_path(0, v, &GraphOptions::default()).unwrap(),
                        expected[v as usize]
                    );
                }
            });
        }
    });
}
