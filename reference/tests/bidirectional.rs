//! [GRAPH.BIDI] tests: hand-traced search, hook direction, equality with Dijkstra, slicing.

mod common;

use std::sync::{Arc, Mutex};

use common::{floyd_warshall, path_cost, random_edges, Lcg};
use onepath_reference::{
    BidirectionalGraphSearch, CsrGraph, DefaultGraphCost, GraphCost, GraphEdge, GraphHeuristic,
    SearchStatus, ZeroGraphHeuristic,
};

fn e(from: u32, to: u32, w: f64) -> GraphEdge {
    GraphEdge::new(from, to, w)
}

#[derive(Clone, Default)]
struct Logged(Arc<Mutex<Vec<String>>>);
impl GraphCost for Logged {
    fn cost(&self, from: u32, to: u32, weight: f64) -> f64 {
        self.0
            .lock()
            .unwrap()
            .push(format!("cost({from},{to},{weight})"));
        weight
    }
    fn blocked(&self, node: u32) -> bool {
        self.0.lock().unwrap().push(format!("blocked({node})"));
        false
    }
}

#[test]
fn hand_traced_chain() {
    let g = CsrGraph::new(3, &[e(0, 1, 1.0), e(1, 2, 1.0)]).unwrap();
    let c = Logged::default();
    let mut s = BidirectionalGraphSearch::new(&g, c.clone(), ZeroGraphHeuristic);
    s.set_record_expansions(true);
    s.begin(0, 2).unwrap();
    // forward pops 0, backward pops 2 and meets at 1 with mu = 2; then 1 + 1 >= 2 stops.
    // The stop check precedes the budget check, so step(2) already reports Found.
    assert_eq!(s.step(2), SearchStatus::Found);
    assert_eq!(s.expansions(), &[0, 2]);
    assert_eq!((s.iterations(), s.expanded_count()), (2, 2));
    assert_eq!((s.path(), s.path_cost()), (vec![0, 1, 2], 2.0));
    // the backward side relaxing in-edge 1 -> 2 asks cost(1, 2, w) and blocked(1)
    assert_eq!(
        *c.0.lock().unwrap(),
        vec![
            "blocked(0)",
            "blocked(2)",
            "blocked(1)",
            "cost(0,1,1)",
            "blocked(1)",
            "cost(1,2,1)"
        ]
    );
}

#[test]
fn start_equals_goal_is_found_at_once() {
    let g = CsrGraph::new(2, &[e(0, 1, 1.0)]).unwrap();
    let mut s = BidirectionalGraphSearch::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(1, 1).unwrap();
    assert_eq!(s.status(), SearchStatus::Found);
    assert_eq!((s.path(), s.path_cost(), s.iterations()), (vec![1], 0.0, 0));
}

#[test]
fn range_and_unreachable() {
    let g = CsrGraph::new(3, &[e(0, 1, 1.0)]).unwrap();
    let mut s = BidirectionalGraphSearch::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    assert_eq!(s.begin(3, 0).unwrap_err().class(), "node_out_of_range");
    assert_eq!(s.begin(0, 3).unwrap_err().class(), "node_out_of_range");
    s.begin(0, 2).unwrap();
    // goal 2 has no in-edges: the backward side empties after one pop
    assert_eq!(s.run(None), SearchStatus::NotFound);
    assert_eq!(s.iterations(), 2);
    assert_eq!((s.path(), s.path_cost()), (vec![], f64::INFINITY));
}

/// An admissible and consistent estimate for the tests: 0 everywhere except a table lower bound.
struct Scaled<'a>(&'a [Vec<f64>]);
impl GraphHeuristic for Scaled<'_> {
    fn estimate(&self, from: u32, to: u32) -> f64 {
        // exact distance (consistent), halved so it stays a proper lower bound with exact sums
        let d = self.0[from as usize][to as usize];
        if d.is_finite() {
            d * 0.5
        } else {
            f64::INFINITY
        }
    }
}

#[test]
fn equals_dijkstra_cost_on_small_graphs() {
    let mut rng = Lcg(11);
    for trial in 0..200 {
        let n = 1 + rng.below(10) as u32;
        let m = rng.below(25) as usize;
        let edges = random_edges(&mut rng, n, m, 6);
        let g = CsrGraph::new(n as usize, &edges).unwrap();
        let fw = floyd_warshall(n as usize, &edges);
        let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
        let expected = fw[a as usize][b as usize];

        let mut s = BidirectionalGraphSearch::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
        s.begin(a, b).unwrap();
        let status = s.run(None);
        assert_eq!(s.path_cost(), expected, "trial {trial}: {a}->{b} {edges:?}");
        if expected.is_finite() {
            assert_eq!(status, SearchStatus::Found);
            let p = s.path();
            assert_eq!((p[0], *p.last().unwrap()), (a, b));
            assert_eq!(path_cost(&edges, &p), Some(expected), "trial {trial}");
        } else {
            assert_eq!(status, SearchStatus::NotFound);
        }

        let mut s = BidirectionalGraphSearch::new(&g, DefaultGraphCost, Scaled(&fw));
        s.begin(a, b).unwrap();
        s.run(None);
        assert_eq!(s.path_cost(), expected, "A* potential, trial {trial}");
    }
}

#[test]
fn sliced_steps_equal_one_run() {
    let mut rng = Lcg(5);
    for trial in 0..40 {
        let n = 2 + rng.below(10) as u32;
        let m = rng.below(30) as usize;
        let edges = random_edges(&mut rng, n, m, 9);
        let g = CsrGraph::new(n as usize, &edges).unwrap();
        let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
        let run = |budget: Option<u64>| {
            let mut s = BidirectionalGraphSearch::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
            s.set_record_expansions(true);
            s.begin(a, b).unwrap();
            match budget {
                None => {
                    s.run(None);
                }
                Some(k) => while s.step(k) == SearchStatus::Running {},
            }
            (
                s.status(),
                s.path_cost().to_bits(),
                s.path(),
                s.iterations(),
                s.expansions().to_vec(),
            )
        };
        let expected = run(None);
        for budget in [1, 2, 3, 7] {
            assert_eq!(run(Some(budget)), expected, "trial {trial} budget {budget}");
        }
    }
}
