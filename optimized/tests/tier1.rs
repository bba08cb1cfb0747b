mod common;
use common::*;
use onepath::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn line(n: u32) -> Graph {
    let e: Vec<_> = (0..n - 1).map(|i| GraphEdge::new(i, i + 1, 1.0)).collect();
    Graph::from_edges(&e, None, false).unwrap()
}

// pins [GRAPH.EST.AUTO] [GRAPH.T1.OPTIONS]: every requested algorithm is run with and without an estimate and the algorithm that ran is compared (Auto never reported, an A* request without an estimate runs Dijkstra, a Dijkstra request never asks the hook), and the presets default(), bidirectional() and with_landmarks() are read back field by field; a resolution that keeps the requested name, runs A* without an estimate or a preset with another field fails.
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
    let d = GraphOptions::default();
    assert_eq!(
        (
            d.algorithm,
            d.edge_cost.is_none(),
            d.blocked.is_none(),
            d.heuristic.is_none(),
            d.landmarks.is_none(),
            d.iteration_budget,
            d.record_expansions
        ),
        (Algorithm::Auto, true, true, true, true, 0, false)
    );
    let b = GraphOptions::bidirectional();
    assert!(b.landmarks.is_none() && b.heuristic.is_none() && b.iteration_budget == 0);
    let t = Arc::new(g.build_landmarks(&LandmarkOptions::default()).unwrap());
    let w = GraphOptions::with_landmarks(t.clone());
    assert_eq!(w.algorithm, Algorithm::Auto);
    assert!(Arc::ptr_eq(w.landmarks.as_ref().unwrap(), &t));
    assert_eq!(g.find_path(0, 4, &w).unwrap().algorithm, Algorithm::AStar);
    let wb = GraphOptions {
        algorithm: Algorithm::Bidirectional,
        ..w.clone()
    };
    assert_eq!(
        g.find_path(0, 4, &wb).unwrap().algorithm,
        Algorithm::BidirectionalAStar
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

// pins [GRAPH.T1.BUDGET] [GRAPH.T1.BLOCKED]: a budget of 3 on a 10-node line must stop after 3 iterations as BudgetExhausted with 3 recorded expansions (10 finds the path); a blocked goal must give NotFound with zero iterations and no cost call, and a blocked middle node must cut the line for the bidirectional search too. A budget read as NotFound, run as several steps or ignored, or a blocked check after the cost hook or skipped, fails.
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

// pins [GRAPH.T1.CHECKS] [GRAPH.ALT.STALE]: a start and a goal out of range on a stale table, then an edit that changes the fingerprint and one that changes the node count, are queried in turn: the start is named first, range before staleness, the same weight stays usable and either change is stale_landmarks. Checks in another order, staleness by object identity or by the stale flag instead of node count and fingerprint, fail.
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

// pins [GRAPH.API.TIER1_SEARCH]: 40 random tier-1 queries must equal, bit for bit with expansions, the tier-2 GraphAStar and BidirectionalGraphSearch run to completion on the compiled CSR, and 4 threads querying one graph at once must get the same results ([GRAPH.T1.POOL], its concurrency half). A tier 1 that runs another search, another estimate combination or shares buffers unsafely fails.
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

/// A zero estimate that counts its estimate and prefetch calls.
struct Counted<'a> {
    estimates: &'a AtomicUsize,
    prefetches: Option<&'a AtomicUsize>,
}

impl GraphHeuristic for Counted<'_> {
    fn estimate(&self, _from: u32, _to: u32) -> f64 {
        self.estimates.fetch_add(1, Ordering::Relaxed);
        0.0
    }
    fn prefetch(&self, node: u32) {
        let _ = node;
        if let Some(p) = self.prefetches {
            p.fetch_add(1, Ordering::Relaxed);
        }
    }
}

// pins [GRAPH.API.PREFETCH]: on an undirected star (centre 0, leaves 1..4, query 0 -> 4, zero estimates) the leaves wait in the open set while others expand, so a search has nodes to prefetch; the estimate must still be asked exactly 5 times (begin, then the 4 leaves reached from 0), by the tier-1 hook and by a tier-2 heuristic, and a heuristic that overrides prefetch must give the same path, counters, expansions and number of estimates as one that does not. A search whose prefetch asks the estimate or the hook (8 calls here), or lets prefetch change a result, fails.
#[test]
fn prefetch_is_not_observable() {
    let star: Vec<_> = (1..5).map(|i| GraphEdge::new(0, i, 1.0)).collect();
    let g = Graph::from_edges(&star, None, false).unwrap();
    let calls = Arc::new(AtomicUsize::new(0));
    let c2 = calls.clone();
    let o = GraphOptions {
        heuristic: Some(Arc::new(move |_, _| {
            c2.fetch_add(1, Ordering::Relaxed);
            0.0
        })),
        record_expansions: true,
        ..Default::default()
    };
    let r = g.find_path(0, 4, &o).unwrap();
    assert_eq!(
        (r.algorithm, r.iterations, r.expanded.clone()),
        (Algorithm::AStar, 5, vec![0, 1, 2, 3])
    );
    assert_eq!(calls.load(Ordering::Relaxed), 5, "heuristic hook calls");
    let csr = g.compile().clone();
    let run = |prefetch: bool| {
        let (e, p) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let h = Counted {
            estimates: &e,
            prefetches: prefetch.then_some(&p),
        };
        let mut a = GraphAStar::new(&csr, DefaultGraphCost, h);
        a.set_record_expansions(true);
        a.begin(0, 4).unwrap();
        a.run(None);
        let out = (
            a.path(),
            a.path_cost().to_bits(),
            a.iterations(),
            a.expanded_count(),
            a.expansions().to_vec(),
        );
        (out, e.load(Ordering::Relaxed))
    };
    let (with, n_with) = run(true);
    let (without, n_without) = run(false);
    assert_eq!(with, without);
    assert_eq!((n_with, n_without), (5, 5), "estimate calls");
}
