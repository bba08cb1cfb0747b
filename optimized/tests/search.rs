mod common;
use common::*;
use onepath::*;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

struct Table(Vec<f64>);
impl GraphHeuristic for Table {
    fn estimate(&self, from: u32, _to: u32) -> f64 {
        self.0[from as usize]
    }
}

fn diamond() -> CsrGraph {
    let e = [
        (0, 1, 1.0),
        (0, 2, 1.0),
        (1, 3, 1.0),
        (2, 3, 1.0),
        (3, 4, 1.0),
    ];
    let edges: Vec<_> = e.iter().map(|&(a, b, w)| GraphEdge::new(a, b, w)).collect();
    CsrGraph::new(5, &edges).unwrap()
}

#[test]
fn dijkstra_ties_by_id_and_first_parent() {
    let g = diamond();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.set_record_expansions(true);
    s.begin(0, 4).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.expansions(), &[0, 1, 2, 3]);
    assert_eq!(
        s.path(),
        vec![0, 1, 3, 4],
        "equal-cost route via 2 never replaces parent 1"
    );
    assert_eq!(
        (s.iterations(), s.expanded_count(), s.path_cost()),
        (5, 4, 3.0)
    );
}

#[test]
fn equal_f_pops_larger_g_first() {
    let e = [
        GraphEdge::new(0, 1, 1.0),
        GraphEdge::new(0, 2, 2.0),
        GraphEdge::new(1, 3, 2.0),
        GraphEdge::new(2, 3, 1.0),
    ];
    let g = CsrGraph::new(4, &e).unwrap();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, Table(vec![3.0, 2.0, 1.0, 0.0]));
    s.set_record_expansions(true);
    s.begin(0, 3).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    // f(1) = 1 + 2 = 3 = f(2) = 2 + 1: node 2 (g 2) first; then goal (f 3, g 3) beats node 1 (g 1).
    assert_eq!(s.expansions(), &[0, 2]);
    assert_eq!((s.iterations(), s.path()), (3, vec![0, 2, 3]));
}

#[test]
fn estimate_normalisation_and_skips() {
    // raw estimates: NaN, negative, -0.0 act as 0; +inf prunes the node.
    let e = [
        GraphEdge::new(0, 1, 1.0),
        GraphEdge::new(0, 2, 1.0),
        GraphEdge::new(1, 3, 1.0),
        GraphEdge::new(2, 3, 1.0),
    ];
    let g = CsrGraph::new(4, &e).unwrap();
    let mut s = GraphAStar::new(
        &g,
        DefaultGraphCost,
        Table(vec![f64::NAN, f64::INFINITY, -5.0, -0.0]),
    );
    s.set_record_expansions(true);
    s.begin(0, 3).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.expansions(), &[0, 2]);
    assert_eq!(s.path(), vec![0, 2, 3]);
    // infinite estimate at the start: nothing pushed, NotFound without an iteration.
    let mut s = GraphAStar::new(&g, DefaultGraphCost, Table(vec![f64::INFINITY; 4]));
    s.begin(0, 3).unwrap();
    assert_eq!(
        s.step(0),
        SearchStatus::NotFound,
        "empty check precedes the budget check"
    );
    assert_eq!(
        (s.iterations(), s.path_cost(), s.path()),
        (0, f64::INFINITY, vec![])
    );
}

struct HookCost<'a> {
    log: &'a Mutex<Vec<String>>,
    blocked: Vec<u32>,
}
impl GraphCost for HookCost<'_> {
    fn cost(&self, from: u32, to: u32, w: f64) -> f64 {
        self.log.lock().unwrap().push(format!("c{from}-{to}"));
        match (from, to) {
            (0, 1) => f64::NAN,
            (0, 2) => -1.0,
            (0, 3) => f64::INFINITY,
            _ => w,
        }
    }
    fn blocked(&self, node: u32) -> bool {
        self.log.lock().unwrap().push(format!("b{node}"));
        self.blocked.contains(&node)
    }
}

#[test]
fn cost_skips_and_blocked_order() {
    let e = [
        (0, 1, 1.0),
        (0, 2, 1.0),
        (0, 3, 1.0),
        (0, 4, 5.0),
        (0, 5, 1.0),
        (5, 4, 1.0),
    ];
    let edges: Vec<_> = e.iter().map(|&(a, b, w)| GraphEdge::new(a, b, w)).collect();
    let g = CsrGraph::new(6, &edges).unwrap();
    let log = Mutex::new(Vec::new());
    let mut s = GraphAStar::new(
        &g,
        HookCost {
            log: &log,
            blocked: vec![5],
        },
        ZeroGraphHeuristic,
    );
    s.begin(0, 4).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(s.path(), vec![0, 4]);
    assert_eq!(s.path_cost(), 5.0);
    let l = log.lock().unwrap().join(" ");
    assert_eq!(l, "b0 b4 b1 c0-1 b2 c0-2 b3 c0-3 b4 c0-4 b5");
    // blocked start: no other hook, NotFound with zero iterations.
    log.lock().unwrap().clear();
    let mut s = GraphAStar::new(
        &g,
        HookCost {
            log: &log,
            blocked: vec![0],
        },
        ZeroGraphHeuristic,
    );
    s.begin(0, 4).unwrap();
    assert_eq!(s.status(), SearchStatus::NotFound);
    assert_eq!(s.iterations(), 0);
    assert_eq!(log.lock().unwrap().join(" "), "b0");
}

#[test]
fn start_equals_goal_and_range_errors() {
    let g = diamond();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    assert_eq!(s.status(), SearchStatus::NotStarted);
    assert_eq!(s.step(10), SearchStatus::NotStarted);
    assert_eq!(s.begin(9, 99).unwrap_err().class(), "node_out_of_range");
    assert!(s.begin(9, 99).unwrap_err().to_string().contains("start"));
    assert!(s.begin(0, 99).unwrap_err().to_string().contains("goal"));
    s.begin(2, 2).unwrap();
    assert_eq!(s.run(None), SearchStatus::Found);
    assert_eq!(
        (s.path(), s.path_cost(), s.iterations(), s.expanded_count()),
        (vec![2], 0.0, 1, 0)
    );
    let mut b = BidirectionalGraphSearch::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    b.begin(3, 3).unwrap();
    assert_eq!(b.status(), SearchStatus::Found);
    assert_eq!((b.path(), b.path_cost(), b.iterations()), (vec![3], 0.0, 0));
}

#[test]
fn bidirectional_hand_example() {
    let e = [(0, 1), (1, 0), (1, 2), (2, 1)];
    let edges: Vec<_> = e.iter().map(|&(a, b)| GraphEdge::new(a, b, 1.0)).collect();
    let g = CsrGraph::new(3, &edges).unwrap();
    let mut b = BidirectionalGraphSearch::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    b.set_record_expansions(true);
    b.begin(0, 2).unwrap();
    assert_eq!(b.run(None), SearchStatus::Found);
    assert_eq!(b.expansions(), &[0, 2]);
    assert_eq!(
        (b.path(), b.path_cost(), b.iterations(), b.expanded_count()),
        (vec![0, 1, 2], 2.0, 2, 2)
    );
}

#[derive(Debug, PartialEq)]
struct Outcome(SearchStatus, Vec<u32>, u64, u64, u64, Vec<u32>);

fn run_astar<H: GraphHeuristic>(g: &CsrGraph, h: H, s: u32, t: u32, budgets: &[u64]) -> Outcome {
    let mut a = GraphAStar::new(g, DefaultGraphCost, h);
    a.set_record_expansions(true);
    a.begin(s, t).unwrap();
    let mut st = a.status();
    for &b in budgets.iter().cycle() {
        st = a.step(b);
        if st != SearchStatus::Running {
            break;
        }
    }
    Outcome(
        st,
        a.path(),
        a.path_cost().to_bits(),
        a.iterations(),
        a.expanded_count(),
        a.expansions().to_vec(),
    )
}

fn run_bidi<H: GraphHeuristic>(g: &CsrGraph, h: H, s: u32, t: u32, budgets: &[u64]) -> Outcome {
    let mut a = BidirectionalGraphSearch::new(g, DefaultGraphCost, h);
    a.set_record_expansions(true);
    a.begin(s, t).unwrap();
    let mut st = a.status();
    for &b in budgets.iter().cycle() {
        st = a.step(b);
        if st != SearchStatus::Running {
            break;
        }
    }
    Outcome(
        st,
        a.path(),
        a.path_cost().to_bits(),
        a.iterations(),
        a.expanded_count(),
        a.expansions().to_vec(),
    )
}

// pins [GRAPH.ASTAR.SLICED]: 40 random graphs, 5 queries each, run with step budgets 1, 2, 3, 7, 64 and the sequence 1, 0, 2, 3, 5 must give the uninterrupted run's path, cost bits, counters and recorded list, for A* (zero and a table estimate with infinities) and the bidirectional search; a step that loses or repeats work at a slice boundary, resets a counter or the recorded list per call, or counts the budget across calls, fails.
#[test]
fn slicing_equals_unsliced_and_costs_match_brute_force() {
    let mut rng = Xs(0x1234_5678);
    for round in 0..40 {
        let n = 2 + rng.below(40) as u32;
        let m = rng.below(5 * n as u64) as usize;
        let edges = random_edges(&mut rng, n, m, round % 2 == 0);
        let g = CsrGraph::new(n as usize, &edges).unwrap();
        let h: Vec<f64> = (0..n)
            .map(|_| {
                if rng.below(8) == 0 {
                    f64::INFINITY
                } else {
                    rng.unit()
                }
            })
            .collect();
        for _ in 0..5 {
            let (s, t) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
            let whole = run_astar(&g, ZeroGraphHeuristic, s, t, &[u64::MAX]);
            let d = brute_dist(n as usize, &edges, s)[t as usize];
            assert_eq!(f64::from_bits(whole.2), d, "dijkstra cost");
            let bw = run_bidi(&g, ZeroGraphHeuristic, s, t, &[u64::MAX]);
            if round % 2 == 0 {
                assert_eq!(
                    f64::from_bits(bw.2),
                    d,
                    "bidirectional cost, integer weights"
                );
            }
            for b in [1u64, 2, 3, 7, 64] {
                assert_eq!(run_astar(&g, ZeroGraphHeuristic, s, t, &[b]), whole);
                assert_eq!(
                    run_astar(&g, Table(h.clone()), s, t, &[b]),
                    run_astar(&g, Table(h.clone()), s, t, &[u64::MAX])
                );
                assert_eq!(run_bidi(&g, ZeroGraphHeuristic, s, t, &[b]), bw);
                assert_eq!(
                    run_bidi(&g, Table(h.clone()), s, t, &[b]),
                    run_bidi(&g, Table(h.clone()), s, t, &[u64::MAX])
                );
            }
            assert_eq!(
                run_astar(&g, ZeroGraphHeuristic, s, t, &[1, 0, 2, 3, 5]),
                whole
            );
        }
    }
}

#[test]
fn run_cancel_checks() {
    let n = 600u32;
    let edges: Vec<_> = (0..n - 1).map(|i| GraphEdge::new(i, i + 1, 1.0)).collect();
    let g = CsrGraph::new(n as usize, &edges).unwrap();
    let flag = AtomicBool::new(true);
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, n - 1).unwrap();
    assert_eq!(s.run(Some(&flag)), SearchStatus::Running);
    assert_eq!(s.iterations(), 0);
    flag.store(false, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(s.run(Some(&flag)), SearchStatus::Found);
    assert_eq!((s.iterations(), s.path_cost()), (600, 599.0));
    // Empty open set: NotFound even when cancelled.
    let mut s = GraphAStar::new(&g, DefaultGraphCost, Table(vec![f64::INFINITY; n as usize]));
    s.begin(0, 5).unwrap();
    flag.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(s.run(Some(&flag)), SearchStatus::NotFound);
    let mut b = BidirectionalGraphSearch::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    b.begin(0, n - 1).unwrap();
    assert_eq!(b.run(Some(&flag)), SearchStatus::Running);
    assert_eq!(b.iterations(), 0);
}
