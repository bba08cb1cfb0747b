//! [GRAPH.ASTAR] tests: open order, expansion, skip rules, counters, slicing, cancel.

mod common;

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use common::{floyd_warshall, random_edges, Lcg};
use onepath_reference::{
    CsrGraph, DefaultGraphCost, GraphAStar, GraphCost, GraphEdge, GraphHeuristic, SearchStatus,
    ZeroGraphHeuristic,
};

fn e(from: u32, to: u32, w: f64) -> GraphEdge {
    GraphEdge::new(from, to, w)
}

/// A per-node estimate table (towards any goal).
struct Table(Vec<f64>);
impl GraphHeuristic for Table {
    fn estimate(&self, from: u32, _to: u32) -> f64 {
        self.0[from as usize]
    }
}

/// A cost object that logs every hook call and applies a cost function / blocked set.
#[derive(Clone)]
struct Logged {
    log: Arc<Mutex<Vec<String>>>,
    cost: fn(u32, u32, f64) -> f64,
    blocked: Vec<u32>,
}
impl Logged {
    fn new(cost: fn(u32, u32, f64) -> f64, blocked: Vec<u32>) -> Self {
        Logged {
            log: Arc::new(Mutex::new(Vec::new())),
            cost,
            blocked,
        }
    }
    fn calls(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}
impl GraphCost for Logged {
    fn cost(&self, from: u32, to: u32, weight: f64) -> f64 {
        self.log
            .lock()
            .unwrap()
            .push(format!("cost({from},{to},{weight})"));
        (self.cost)(from, to, weight)
    }
    fn blocked(&self, node: u32) -> bool {
        self.log.lock().unwrap().push(format!("blocked({node})"));
        self.blocked.contains(&node)
    }
}

#[test]
fn expansion_order_on_ties_smaller_f_then_larger_g_then_smaller_id() {
    // 0 -> 1 (g 1), 2 (g 2), 3 (g 2), 5 (g 0.5), 6 (g 4); 1 -> 4 (goal)
    let g = CsrGraph::new(
        7,
        &[
            e(0, 1, 1.0),
            e(0, 2, 2.0),
            e(0, 3, 2.0),
            e(0, 5, 0.5),
            e(0, 6, 4.0),
            e(1, 4, 5.0),
        ],
    )
    .unwrap();
    // f: 1 -> 3, 2 -> 3, 3 -> 3, 5 -> 3.5, 6 -> 4, 4 -> 6
    let h = Table(vec![3.0, 2.0, 1.0, 1.0, 0.0, 3.0, 0.0]);
    let mut s = GraphAStar::new(&g, DefaultGraphCost, h);
    s.set_record_expansions(true);
    s.begin(0, 4).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    // 2 before 1: larger g beats smaller id; 2 before 3: smaller id; 5 before 6: smaller f beats
    // larger g.
    assert_eq!(s.expansions(), &[0, 2, 3, 1, 5, 6]);
    assert_eq!(s.iterations(), 7);
    assert_eq!(s.expanded_count(), 6);
    assert_eq!(s.path(), vec![0, 1, 4]);
    assert_eq!(s.path_cost(), 6.0);
}

#[test]
fn estimate_normalisation_nan_negative_and_negative_zero_count_as_zero() {
    let g = CsrGraph::new(4, &[e(0, 1, 1.0), e(0, 2, 1.0), e(0, 3, 1.0)]).unwrap();
    // all three have g = 1 and (normalised) f = 1, so the id decides
    let h = Table(vec![0.0, f64::NAN, -5.0, -0.0]);
    let mut s = GraphAStar::new(&g, DefaultGraphCost, h);
    s.set_record_expansions(true);
    s.begin(0, 3).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.expansions(), &[0, 1, 2]);
}

#[test]
fn first_parent_and_strict_improvement() {
    // diamond: 3 is reached via 1 first; the equal-cost route via 2 never replaces it
    let g = CsrGraph::new(4, &[e(0, 1, 1.0), e(0, 2, 1.0), e(2, 3, 1.0), e(1, 3, 1.0)]).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, 3).unwrap();
    s.run(None);
    assert_eq!(s.path(), vec![0, 1, 3]);
    // a strictly better route replaces the parent
    let g = CsrGraph::new(4, &[e(0, 3, 5.0), e(0, 1, 1.0), e(1, 3, 1.0)]).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, 3).unwrap();
    s.run(None);
    assert_eq!((s.path(), s.path_cost()), (vec![0, 1, 3], 2.0));
}

#[test]
fn closed_nodes_are_reopened_by_strict_improvement() {
    let g = CsrGraph::new(
        4,
        &[e(0, 1, 4.0), e(0, 2, 1.0), e(2, 1, 1.0), e(1, 3, 20.0)],
    )
    .unwrap();
    let h = Table(vec![0.0, 0.0, 10.0, 0.0]); // inadmissible at 2
    let mut s = GraphAStar::new(&g, DefaultGraphCost, h);
    s.set_record_expansions(true);
    s.begin(0, 3).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.expansions(), &[0, 1, 2, 1]);
    assert_eq!(s.iterations(), 5);
    assert_eq!((s.path(), s.path_cost()), (vec![0, 2, 1, 3], 22.0));
}

#[test]
fn skip_rules_for_nan_negative_and_infinite_costs() {
    let g = CsrGraph::new(
        5,
        &[
            e(0, 1, 1.0),
            e(0, 2, 2.0),
            e(0, 3, 3.0),
            e(0, 4, 4.0),
            e(4, 1, 10.0),
            e(4, 2, 10.0),
        ],
    )
    .unwrap();
    fn cost(from: u32, to: u32, w: f64) -> f64 {
        match (from, to) {
            (0, 1) => f64::NAN,
            (0, 2) => -1.0,
            (0, 3) => f64::INFINITY,
            (0, 4) => -0.0, // not negative: usable
            _ => w,
        }
    }
    let c = Logged::new(cost, vec![]);
    let mut s = GraphAStar::new(&g, c.clone(), ZeroGraphHeuristic);
    s.begin(0, 1).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!((s.path(), s.path_cost()), (vec![0, 4, 1], 10.0));
    // node 3 was never reached
    s.begin(0, 3).unwrap();
    assert_eq!(s.run(None), SearchStatus::NotFound);
    assert_eq!(s.path(), Vec::<u32>::new());
    assert_eq!(s.path_cost(), f64::INFINITY);
    // hooks: blocked(v) before cost(u, v, w), in CSR slot order
    let calls = c.calls();
    assert_eq!(
        &calls[..8],
        &[
            "blocked(0)",
            "blocked(1)",
            "blocked(1)",
            "cost(0,1,1)",
            "blocked(2)",
            "cost(0,2,2)",
            "blocked(3)",
            "cost(0,3,3)"
        ]
    );
}

#[test]
fn overflowing_sum_is_an_unusable_edge() {
    let g = CsrGraph::new(3, &[e(0, 1, f64::MAX), e(1, 2, f64::MAX)]).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, 2).unwrap();
    assert_eq!(s.run(None), SearchStatus::NotFound);
    assert_eq!(s.iterations(), 2);
}

#[test]
fn blocked_nodes_and_blocked_endpoints() {
    let g = CsrGraph::new(4, &[e(0, 2, 1.0), e(0, 1, 1.0), e(2, 3, 1.0), e(1, 3, 5.0)]).unwrap();
    let c = Logged::new(|_, _, w| w, vec![2]);
    let mut s = GraphAStar::new(&g, c.clone(), ZeroGraphHeuristic);
    s.begin(0, 3).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.path(), vec![0, 1, 3]);
    assert!(
        !c.calls().iter().any(|x| x.starts_with("cost(0,2")),
        "{:?}",
        c.calls()
    );

    let c = Logged::new(|_, _, w| w, vec![0]);
    let mut s = GraphAStar::new(&g, c.clone(), ZeroGraphHeuristic);
    s.begin(0, 3).unwrap();
    assert_eq!(s.status(), SearchStatus::NotFound);
    assert_eq!(s.step(5), SearchStatus::NotFound);
    assert_eq!(s.iterations(), 0);
    assert_eq!(c.calls(), vec!["blocked(0)"]);

    let c = Logged::new(|_, _, w| w, vec![3]);
    let mut s = GraphAStar::new(&g, c.clone(), ZeroGraphHeuristic);
    s.begin(0, 3).unwrap();
    assert_eq!(s.status(), SearchStatus::NotFound);
    assert_eq!(c.calls(), vec!["blocked(0)", "blocked(3)"]);
}

#[test]
fn begin_checks_start_then_goal() {
    let g = CsrGraph::new(2, &[]).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    assert_eq!(s.status(), SearchStatus::NotStarted);
    assert_eq!(s.step(10), SearchStatus::NotStarted);
    let err = s.begin(2, 5).unwrap_err();
    assert_eq!(err.class(), "node_out_of_range");
    assert!(err.to_string().starts_with("start"), "{err}");
    let err = s.begin(1, 5).unwrap_err();
    assert!(err.to_string().starts_with("goal"), "{err}");
}

#[test]
fn start_equals_goal() {
    let g = CsrGraph::new(2, &[e(0, 1, 1.0)]).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(1, 1).unwrap();
    assert_eq!(s.step(1), SearchStatus::Found);
    assert_eq!(
        (s.path(), s.path_cost(), s.iterations(), s.expanded_count()),
        (vec![1], 0.0, 1, 0)
    );
}

#[test]
fn infinite_start_estimate_and_empty_first() {
    let g = CsrGraph::new(3, &[e(0, 1, 1.0)]).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, Table(vec![f64::INFINITY, 0.0, 0.0]));
    s.begin(0, 1).unwrap();
    assert_eq!(s.status(), SearchStatus::Running);
    assert_eq!(
        s.step(0),
        SearchStatus::NotFound,
        "step(0) on an empty open set"
    );
    assert_eq!(s.iterations(), 0);

    // budget runs out exactly as the open set empties: NotFound, not Running
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, 2).unwrap();
    assert_eq!(s.step(2), SearchStatus::NotFound);
    assert_eq!((s.iterations(), s.expanded_count()), (2, 2));

    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, 2).unwrap();
    assert_eq!(s.step(0), SearchStatus::Running);
    assert_eq!(s.step(1), SearchStatus::Running);
    assert_eq!(s.iterations(), 1);
}

/// Everything observable about a finished search.
fn outcome<C: GraphCost, H: GraphHeuristic>(
    s: &GraphAStar<'_, C, H>,
) -> (SearchStatus, u64, Vec<u32>, u64, u64, Vec<u32>) {
    (
        s.status(),
        s.path_cost().to_bits(),
        s.path(),
        s.iterations(),
        s.expanded_count(),
        s.expansions().to_vec(),
    )
}

#[test]
fn sliced_steps_equal_one_run() {
    let mut rng = Lcg(7);
    for trial in 0..40 {
        let n = 2 + rng.below(12) as u32;
        let m = rng.below(30) as usize;
        let edges = random_edges(&mut rng, n, m, 9);
        let g = CsrGraph::new(n as usize, &edges).unwrap();
        // an inconsistent random estimate exercises reopening
        let h: Vec<f64> = (0..n).map(|_| rng.below(6) as f64).collect();
        let (start, goal) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
        let mut whole = GraphAStar::new(&g, DefaultGraphCost, Table(h.clone()));
        whole.set_record_expansions(true);
        whole.begin(start, goal).unwrap();
        whole.run(None);
        let expected = outcome(&whole);
        for budget in [1u64, 2, 3, 7] {
            let mut s = GraphAStar::new(&g, DefaultGraphCost, Table(h.clone()));
            s.set_record_expansions(true);
            s.begin(start, goal).unwrap();
            let mut calls = 0;
            while s.step(budget) == SearchStatus::Running {
                calls += 1;
                assert!(calls < 10_000);
            }
            assert_eq!(outcome(&s), expected, "trial {trial} budget {budget}");
        }
        // with the zero estimate the cost is Dijkstra's
        let mut d = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
        d.begin(start, goal).unwrap();
        d.run(None);
        let fw = floyd_warshall(n as usize, &edges);
        assert_eq!(
            d.path_cost(),
            fw[start as usize][goal as usize],
            "trial {trial}"
        );
    }
}

#[test]
fn run_checks_cancel_before_the_first_iteration_and_can_resume() {
    // [GRAPH.ASTAR.RUN] the empty check comes first: an exhausted search reports NotFound even when cancelled
    // (an infinite start estimate pushes nothing, [GRAPH.ASTAR.START_INF])
    struct Hopeless;
    impl GraphHeuristic for Hopeless {
        fn estimate(&self, _: u32, _: u32) -> f64 {
            f64::INFINITY
        }
    }
    let lone = CsrGraph::new(2, &[]).unwrap();
    let mut t = GraphAStar::new(&lone, DefaultGraphCost, Hopeless);
    t.begin(0, 1).unwrap();
    assert_eq!(t.status(), SearchStatus::Running);
    assert_eq!(t.run(Some(&AtomicBool::new(true))), SearchStatus::NotFound);
    assert_eq!(t.iterations(), 0);
    let n = 600u32;
    let edges: Vec<GraphEdge> = (0..n - 1).map(|i| e(i, i + 1, 1.0)).collect();
    let g = CsrGraph::new(n as usize, &edges).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, n - 1).unwrap();
    let cancel = AtomicBool::new(true);
    assert_eq!(s.run(Some(&cancel)), SearchStatus::Running);
    assert_eq!(s.iterations(), 0);
    cancel.store(false, std::sync::atomic::Ordering::SeqCst);
    assert_eq!(s.run(Some(&cancel)), SearchStatus::Found);
    assert_eq!((s.iterations(), s.path_cost()), (600, 599.0));
}

#[test]
fn begin_resets_everything() {
    let g = CsrGraph::new(3, &[e(0, 1, 1.0), e(1, 2, 1.0)]).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.set_record_expansions(true);
    s.begin(0, 2).unwrap();
    s.run(None);
    assert_eq!(s.expansions(), &[0, 1]);
    s.begin(1, 2).unwrap();
    assert_eq!(
        (s.iterations(), s.expanded_count(), s.expansions().len()),
        (0, 0, 0)
    );
    s.run(None);
    assert_eq!((s.path(), s.path_cost()), (vec![1, 2], 1.0));
}
