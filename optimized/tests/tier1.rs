mod common;
use common::*;
use onepath::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn line(n: u32) -> Graph {
    let e: Vec<_> = (0..n - 1).map(|i| GraphEdge::new(i, i + 1, 1.0)).collect();
    Graph::from_edges(&e, None, false).unwrap()
}

#[test]
fn algorithm_resolution() {
    let g = line(5);
    let h: HeuristicFn = Arc::new(|a, b| (a as f64 - b as f64).abs());
    let cases = [
        (Algorithm::Auto, false, Algorithm::Dijkstra),
        (Algorithm::AStar, false, Algorithm::Dijkstra),
        (
            Algorithm::Bidirectional,
            false,
            Algorithm::BidirectionalDijkstra,
        ),
        (
            Algorithm::BidirectionalAStar,
            false,
            Algorithm::BidirectionalDijkstra,
        ),
        (Algorithm::Auto, true, Algorithm::AStar),
        (Algorithm::Dijkstra, true, Algorithm::Dijkstra),
        (
            Algorithm::Bidirectional,
            true,
            Algorithm::BidirectionalAStar,
        ),
        (
            Algorithm::BidirectionalDijkstra,
            true,
            Algorithm::BidirectionalDijkstra,
        ),
    ];
    for (asked, with_h, ran) in cases {
        let o = GraphOptions {
            algorithm: asked,
            heuristic: with_h.then(|| h.clone()),
            ..Default::default()
        };
        let r = g.find_path(0, 4, &o).unwrap();
        assert_eq!(
            (r.algorithm, r.status, r.cost, r.nodes),
            (ran, PathStatus::Found, 4.0, vec![0, 1, 2, 3, 4])
        );
    }
    assert_eq!(
        GraphOptions::bidirectional().algorithm,
        Algorithm::Bidirectional
    );
    // Dijkstra with a hook never asks it.
    let calls = Arc::new(AtomicUsize::new(0));
    let c2 = calls.clone();
    let o = GraphOptions {
        algorithm: Algorithm::Dijkstra,
        heuristic: Some(Arc::new(move |_, _| {
            c2.fetch_add(1, Ordering::Relaxed);
            0.0
        })),
        ..Default::default()
    };
    g.find_path(0, 4, &o).unwrap();
    assert_eq!(calls.load(Ordering::Relaxed), 0);
}

#[test]
fn budget_blocked_and_recording() {
    let g = line(10);
    let o = GraphOptions {
        iteration_budget: 3,
        record_expansions: true,
        ..Default::default()
    };
    let r = g.find_path(0, 9, &o).unwrap();
    assert_eq!(
        (
            r.status,
            r.cost,
            r.nodes.len(),
            r.iterations,
            r.expanded.clone()
        ),
        (
            PathStatus::BudgetExhausted,
            f64::INFINITY,
            0,
            3,
            vec![0, 1, 2]
        )
    );
    let o = GraphOptions {
        iteration_budget: 10,
        ..Default::default()
    };
    assert_eq!(g.find_path(0, 9, &o).unwrap().status, PathStatus::Found);
    let asked = Arc::new(AtomicUsize::new(0));
    let a2 = asked.clone();
    let o = GraphOptions {
        blocked: Some(Arc::new(|v| v == 9)),
        edge_cost: Some(Arc::new(move |_, _, w| {
            a2.fetch_add(1, Ordering::Relaxed);
            w
        })),
        ..Default::default()
    };
    let r = g.find_path(0, 9, &o).unwrap();
    assert_eq!(
        (r.status, r.iterations, r.cost),
        (PathStatus::NotFound, 0, f64::INFINITY)
    );
    assert_eq!(asked.load(Ordering::Relaxed), 0);
    let o = GraphOptions {
        blocked: Some(Arc::new(|v| v == 5)),
        ..GraphOptions::bidirectional()
    };
    assert_eq!(g.find_path(0, 9, &o).unwrap().status, PathStatus::NotFound);
    let o = GraphOptions {
        edge_cost: Some(Arc::new(|_, _, w| w * 2.0)),
        ..Default::default()
    };
    assert_eq!(g.find_path(0, 9, &o).unwrap().cost, 18.0);
}

#[test]
fn query_checks_and_stale_landmarks() {
    let mut g = line(6);
    let t = Arc::new(g.build_landmarks(&LandmarkOptions::default()).unwrap());
    assert_eq!(t.count(), 6);
    let o = GraphOptions::with_landmarks(t.clone());
    assert_eq!(g.find_path(0, 5, &o).unwrap().cost, 5.0);
    assert_eq!(
        g.find_path(6, 99, &o)
            .unwrap_err()
            .to_string()
            .contains("start"),
        true
    );
    assert_eq!(
        g.find_path(0, 99, &o).unwrap_err().class(),
        "node_out_of_range"
    );
    g.set_weight(0, 1.0).unwrap();
    assert!(g.is_stale());
    assert_eq!(
        g.find_path(0, 5, &o).unwrap().cost,
        5.0,
        "same weight: same fingerprint"
    );
    g.set_weight(0, 2.0).unwrap();
    assert_eq!(
        g.find_path(0, 5, &o).unwrap_err().class(),
        "stale_landmarks"
    );
    assert_eq!(
        g.find_path(0, 99, &o).unwrap_err().class(),
        "node_out_of_range",
        "range first"
    );
    g.set_weight(0, 1.0).unwrap();
    g.add_node().unwrap();
    assert_eq!(
        g.find_path(0, 5, &o).unwrap_err().class(),
        "stale_landmarks"
    );
}

#[test]
fn tier1_equals_tier2_and_concurrent_queries() {
    let mut rng = Xs(77);
    let edges = random_edges(&mut rng, 300, 1500, false);
    let g = Arc::new(Graph::from_edges(&edges, Some(300), true).unwrap());
    let pts: Vec<Point3> = (0..300).map(|i| Point3::new(i as f64, 0.0, 0.0)).collect();
    let queries: Vec<(u32, u32)> = (0..40)
        .map(|_| (rng.below(300) as u32, rng.below(300) as u32))
        .collect();
    let csr = g.compile().clone();
    let expect: Vec<GraphPath> = queries
        .iter()
        .map(|&(s, t)| {
            g.find_path(
                s,
                t,
                &GraphOptions {
                    record_expansions: true,
                    ..Default::default()
                },
            )
            .unwrap()
        })
        .collect();
    for (q, r) in queries.iter().zip(&expect) {
        let mut a = GraphAStar::new(&csr, DefaultGraphCost, ZeroGraphHeuristic);
        a.set_record_expansions(true);
        a.begin(q.0, q.1).unwrap();
        a.run(None);
        assert_eq!(
            (a.path_cost().to_bits(), a.path(), a.expansions()),
            (r.cost.to_bits(), r.nodes.clone(), &r.expanded[..])
        );
        assert_eq!(r.cost, brute_dist(300, &edges, q.0)[q.1 as usize]);
        let ho: HeuristicFn = {
            let p = pts.clone();
            Arc::new(move |a, b| distance(p[a as usize], p[b as usize]) * 0.0)
        };
        let r2 = g
            .find_path(
                q.0,
                q.1,
                &GraphOptions {
                    heuristic: Some(ho),
                    algorithm: Algorithm::BidirectionalAStar,
                    ..Default::default()
                },
            )
            .unwrap();
        let mut b = BidirectionalGraphSearch::new(&csr, DefaultGraphCost, ZeroGraphHeuristic);
        b.begin(q.0, q.1).unwrap();
        b.run(None);
        assert_eq!(
            (r2.cost.to_bits(), r2.nodes, r2.iterations),
            (b.path_cost().to_bits(), b.path(), b.iterations())
        );
    }
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let g = g.clone();
            let queries = queries.clone();
            std::thread::spawn(move || {
                let o = GraphOptions {
                    record_expansions: true,
                    ..Default::default()
                };
                (0..5)
                    .flat_map(|_| {
                        queries
                            .iter()
                            .map(|&(s, t)| g.find_path(s, t, &o).unwrap())
                            .collect::<Vec<_>>()
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for h in handles {
        let got = h.join().unwrap();
        for (i, r) in got.iter().enumerate() {
            assert_eq!(r, &expect[i % expect.len()]);
        }
    }
}
