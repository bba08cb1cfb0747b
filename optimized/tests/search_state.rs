//! GraphAStar state (kind 11): the binary-heap discipline seen through saved heap arrays,
//! sliced-through-snapshots equivalence, and the hostile classes of [STATE.SEARCH.CHECKS].
mod common;
use common::*;
use onepath::*;

struct Table(Vec<f64>);
impl GraphHeuristic for Table {
    fn estimate(&self, from: u32, _to: u32) -> f64 {
        self.0[from as usize]
    }
}

/// A decoded / to-be-encoded GraphAStar state.
#[derive(Clone, Debug, PartialEq)]
struct St {
    n: i32,
    status: u8,
    weight: f64,
    start: i32,
    goal: i32,
    expanded: i32,
    iterations: i32,
    cost: f64,
    visited: Vec<(i32, u8, f64, i32)>,
    heap: Vec<(i32, f64, f64)>,
    rec: Vec<i32>,
}

fn enc(s: &St) -> Vec<u8> {
    let mut b = vec![0x4F, 0x50, 0x47, 0x53, 1, 0, 11, 0];
    let i = |b: &mut Vec<u8>, v: i32| b.extend(v.to_le_bytes());
    let f = |b: &mut Vec<u8>, v: f64| b.extend(v.to_bits().to_le_bytes());
    i(&mut b, s.n);
    b.push(s.status);
    f(&mut b, s.weight);
    for v in [s.start, s.goal, s.expanded, s.iterations] {
        i(&mut b, v);
    }
    f(&mut b, s.cost);
    if s.status == 0 {
        return b;
    }
    i(&mut b, s.visited.len() as i32);
    for &(v, c, g, p) in &s.visited {
        i(&mut b, v);
        b.push(c);
        f(&mut b, g);
        i(&mut b, p);
    }
    i(&mut b, s.heap.len() as i32);
    for &(v, ff, g) in &s.heap {
        i(&mut b, v);
        f(&mut b, ff);
        f(&mut b, g);
    }
    i(&mut b, s.rec.len() as i32);
    for &v in &s.rec {
        i(&mut b, v);
    }
    b
}

fn dec(b: &[u8]) -> St {
    let mut p = 8;
    let mut i = || {
        p += 4;
        i32::from_le_bytes(b[p - 4..p].try_into().unwrap())
    };
    let n = i();
    let status = b[12];
    let rd = |at: usize| f64::from_bits(u64::from_le_bytes(b[at..at + 8].try_into().unwrap()));
    let rl = |at: usize| i32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let mut s = St {
        n,
        status,
        weight: rd(13),
        start: rl(21),
        goal: rl(25),
        expanded: rl(29),
        iterations: rl(33),
        cost: rd(37),
        visited: vec![],
        heap: vec![],
        rec: vec![],
    };
    if status == 0 {
        return s;
    }
    let mut at = 45;
    let vc = rl(at);
    at += 4;
    for _ in 0..vc {
        s.visited.push((rl(at), b[at + 4], rd(at + 5), rl(at + 13)));
        at += 17;
    }
    let hc = rl(at);
    at += 4;
    for _ in 0..hc {
        s.heap.push((rl(at), rd(at + 4), rd(at + 12)));
        at += 20;
    }
    let rc = rl(at);
    at += 4;
    for _ in 0..rc {
        s.rec.push(rl(at));
        at += 4;
    }
    assert_eq!(at, b.len());
    s
}

fn csr(n: usize, e: &[(u32, u32, f64)]) -> CsrGraph {
    let edges: Vec<_> = e.iter().map(|&(a, b, w)| GraphEdge::new(a, b, w)).collect();
    CsrGraph::new(n, &edges).unwrap()
}

fn heap_nodes(s: &GraphAStar<'_, DefaultGraphCost, impl GraphHeuristic>) -> Vec<(i32, f64, f64)> {
    dec(&s.save_state()).heap
}

/// Hand-worked: pushes 1(5) 2(3) 3(4) 4(1) 5(2) give [4,5,3,1,2]; pop 4 gives [5,2,3,1];
/// the update of node 1 to f 1.5 sifts it up to [1,5,3,2].
#[test]
fn heap_array_push_pop_update() {
    let g = csr(
        8,
        &[
            (0, 1, 5.0),
            (0, 2, 3.0),
            (0, 3, 4.0),
            (0, 4, 1.0),
            (0, 5, 2.0),
            (4, 1, 0.5),
        ],
    );
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, 7).unwrap();
    assert_eq!(heap_nodes(&s), vec![(0, 0.0, 0.0)]);
    s.step(1);
    let w = |v: i32, g: f64| (v, g, g);
    assert_eq!(
        heap_nodes(&s),
        vec![w(4, 1.0), w(5, 2.0), w(3, 4.0), w(1, 5.0), w(2, 3.0)]
    );
    s.step(1); // pops 4 then relaxes 4 -> 1
    assert_eq!(
        heap_nodes(&s),
        vec![w(1, 1.5), w(5, 2.0), w(3, 4.0), w(2, 3.0)]
    );
}

/// Equal f with a smaller g moves the node later (sift down): with h = 2^53, f = 2^53 for g in
/// {0.5, 1}. Heap after the first pop [3,1,4,2]; pop 3 gives [1,2,4]; 3 -> 1 lowers g[1] to
/// 0.5 at equal f, so 1 sifts down below 2: [2,1,4].
#[test]
fn heap_update_equal_f_lower_g_sifts_down() {
    let big = 9007199254740992.0; // 2^53
    let g = csr(
        6,
        &[
            (0, 1, 1.0),
            (0, 2, 1.0),
            (0, 4, 0.5),
            (0, 3, 0.25),
            (3, 1, 0.25),
        ],
    );
    let h = Table(vec![0.0, big, big, 0.0, big, 0.0]);
    let mut s = GraphAStar::new(&g, DefaultGraphCost, h);
    s.begin(0, 5).unwrap();
    s.step(1);
    assert_eq!(
        heap_nodes(&s),
        vec![(3, 0.25, 0.25), (1, big, 1.0), (4, big, 0.5), (2, big, 1.0)]
    );
    s.step(1);
    assert_eq!(
        heap_nodes(&s),
        vec![(2, big, 1.0), (1, big, 0.5), (4, big, 0.5)]
    );
    let st = dec(&s.save_state());
    assert_eq!(
        st.visited.iter().find(|v| v.0 == 1).unwrap().3,
        3,
        "parent of 1 is now 3"
    );
}

/// Runs to completion; returns everything observable.
fn finish<H: GraphHeuristic>(
    s: &mut GraphAStar<'_, DefaultGraphCost, H>,
) -> (SearchStatus, Vec<u32>, u64, u64, u64, Vec<u32>, Vec<u8>) {
    let st = s.run(None);
    (
        st,
        s.path(),
        s.path_cost().to_bits(),
        s.iterations(),
        s.expanded_count(),
        s.expansions().to_vec(),
        s.save_state(),
    )
}

#[test]
fn sliced_through_snapshots_equals_uninterrupted() {
    let mut rng = Xs(0x5eed_1234);
    for round in 0..60 {
        let n = 2 + rng.below(40) as u32;
        let m = rng.below(4 * n as u64) as usize;
        let edges = random_edges(&mut rng, n, m, true); // integer weights 0..9: ties and zeros
        let g = CsrGraph::new(n as usize, &edges).unwrap();
        let h: Vec<f64> = (0..n)
            .map(|_| {
                if round % 2 == 0 {
                    0.0
                } else {
                    rng.below(12) as f64
                }
            })
            .collect();
        let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
        let mut full = GraphAStar::new(&g, DefaultGraphCost, Table(h.clone()));
        full.set_record_expansions(true);
        full.begin(a, b).unwrap();
        let want = finish(&mut full);
        for k in [1u64, 2, 3, 5, 8] {
            let mut s = GraphAStar::new(&g, DefaultGraphCost, Table(h.clone()));
            s.set_record_expansions(true);
            s.begin(a, b).unwrap();
            s.step(k);
            let snap = s.save_state();
            assert_eq!(s.save_state(), snap, "save twice");
            let mut r = GraphAStar::new(&g, DefaultGraphCost, Table(h.clone()));
            r.set_record_expansions(true);
            r.restore_state(&snap).unwrap();
            assert_eq!(r.save_state(), snap, "save -> restore -> save");
            assert_eq!((r.status(), r.iterations()), (s.status(), s.iterations()));
            assert_eq!(finish(&mut r), want, "round {round} k {k}");
        }
    }
}

#[test]
fn not_started_state_and_failed_restore() {
    let g = csr(3, &[(0, 1, 1.0)]);
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    let idle = s.save_state();
    let want = St {
        n: 3,
        status: 0,
        weight: 1.0,
        start: -1,
        goal: -1,
        expanded: 0,
        iterations: 0,
        cost: f64::INFINITY,
        visited: vec![],
        heap: vec![],
        rec: vec![],
    };
    assert_eq!(idle, enc(&want));
    s.begin(0, 1).unwrap();
    s.run(None);
    let done = s.save_state();
    assert_eq!(dec(&done).cost, 1.0);
    let e = s.restore_state(&done[..done.len() - 1]).unwrap_err();
    assert_eq!(e.class(), "truncated");
    assert_eq!(
        (s.status(), s.iterations(), s.path(), s.save_state()),
        (SearchStatus::NotStarted, 0, vec![], idle.clone())
    );
    s.restore_state(&done).unwrap();
    assert_eq!(
        (s.status(), s.path(), s.path_cost()),
        (SearchStatus::Found, vec![0, 1], 1.0)
    );
    s.restore_state(&idle).unwrap();
    assert_eq!(s.status(), SearchStatus::NotStarted);
    for cut in 0..done.len() {
        let e = s.restore_state(&done[..cut]).unwrap_err();
        assert!(
            ["truncated", "count_out_of_range"].contains(&e.class()),
            "{e}"
        );
        assert_eq!(s.status(), SearchStatus::NotStarted);
    }
}

/// Base: 0 -> 1, 0 -> 2, 1 -> 3 (weight 1) after one expansion of 0, recording on.
fn base() -> St {
    St {
        n: 4,
        status: 1,
        weight: 1.0,
        start: 0,
        goal: 3,
        expanded: 1,
        iterations: 1,
        cost: f64::INFINITY,
        visited: vec![(0, 1, 0.0, -1), (1, 0, 1.0, 0), (2, 0, 1.0, 0)],
        heap: vec![(1, 1.0, 1.0), (2, 1.0, 1.0)],
        rec: vec![0],
    }
}

#[test]
fn hostile_search_classes_with_offsets() {
    let g = csr(4, &[(0, 1, 1.0), (0, 2, 1.0), (1, 3, 1.0)]);
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.set_record_expansions(true);
    s.begin(0, 3).unwrap();
    s.step(1);
    assert_eq!(s.save_state(), enc(&base()));
    const V: usize = 49; // first visited entry
    const H: usize = 49 + 17 * 3 + 4; // first heap slot
    const R: usize = H + 40 + 4; // first recorded node
    type Edit = fn(&mut St);
    let cases: Vec<(Edit, &str, usize)> = vec![
        (|s| s.n = 5, "size_mismatch", 8),
        (|s| s.status = 4, "out_of_range", 12),
        (|s| s.weight = 2.0, "size_mismatch", 13),
        (|s| s.weight = f64::NAN, "nan", 13),
        (|s| s.start = 4, "index_out_of_range", 21),
        (|s| s.goal = -1, "index_out_of_range", 25),
        (|s| s.expanded = -1, "out_of_range", 29),
        (|s| s.expanded = 2, "out_of_range", 33),
        (|s| s.cost = 1.0, "out_of_range", 37),
        (|s| s.visited.swap(1, 2), "not_increasing", V + 34),
        (
            |s| {
                s.status = 2;
                s.cost = f64::INFINITY
            },
            "out_of_range",
            37,
        ),
        (|s| s.visited[2].0 = 4, "index_out_of_range", V + 34),
        (|s| s.visited[1].1 = 2, "bad_flag", V + 17 + 4),
        (|s| s.visited[1].2 = -1.0, "out_of_range", V + 17 + 5),
        (|s| s.visited[1].2 = f64::NAN, "nan", V + 17 + 5),
        (|s| s.visited[1].3 = 4, "index_out_of_range", V + 17 + 13),
        (|s| s.heap.push((0, 0.0, 0.0)), "bad_heap_node", H + 40), // closed
        (|s| s.heap[1].0 = 3, "bad_heap_node", H + 20),            // not visited
        (|s| s.heap[1].0 = -7, "bad_heap_node", H + 20),
        (|s| s.heap[1].0 = 1, "duplicate_node", H + 20),
        (|s| s.heap[1].2 = 2.0, "out_of_range", H + 20 + 12),
        (|s| s.heap[1].1 = f64::NAN, "nan", H + 20 + 4),
        (|s| s.heap[1].1 = 0.5, "heap_order", H + 20),
        (
            |s| {
                s.heap.pop();
                s.rec.push(0)
            },
            "count_out_of_range",
            H + 20,
        ),
        (|s| s.rec.push(0), "count_out_of_range", R - 4),
        (|s| s.rec[0] = 3, "bad_heap_node", R), // not visited (an open visited node is fine)
        (|s| s.cost = -1.0, "out_of_range", 37),
        (|s| s.heap[0].2 = -0.0, "out_of_range", H + 12), // g must be bit-equal
        (
            |s| {
                s.heap.pop();
            },
            "missing_open_node",
            V + 34,
        ),
        (|s| s.visited[2].3 = -1, "bad_parent", V + 34),
        (|s| s.visited[0].2 = 0.5, "bad_parent", V),
        (
            |s| {
                s.visited[2] = (2, 0, 0.5, 1);
                s.heap[1] = (2, 1.0, 0.5)
            },
            "bad_parent",
            V + 34,
        ), // g[1] = 1 > 0.5
        (
            |s| {
                s.visited[1].3 = 2;
                s.visited[2].3 = 1
            },
            "parent_cycle",
            V + 17,
        ),
    ];
    for (i, (edit, class, off)) in cases.into_iter().enumerate() {
        let mut st = base();
        edit(&mut st);
        let e = s.restore_state(&enc(&st)).expect_err(&format!("case {i}"));
        assert_eq!((e.class(), e.offset()), (class, off), "case {i}: {e}");
        assert_eq!(s.status(), SearchStatus::NotStarted);
        s.restore_state(&enc(&base())).unwrap();
    }
    // Visited count above N, and above the bytes left / 17.
    let mut b = enc(&base());
    b[45..49].copy_from_slice(&5i32.to_le_bytes());
    let e = s.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("count_out_of_range", 45));
    let big = CsrGraph::new(1000, &[]).unwrap();
    let mut t = GraphAStar::new(&big, DefaultGraphCost, ZeroGraphHeuristic);
    let mut st = base();
    st.n = 1000;
    let mut b = enc(&st);
    b[45..49].copy_from_slice(&10i32.to_le_bytes()); // 10 * 17 > bytes left
    let e = t.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("count_out_of_range", 45));
    b[45..49].copy_from_slice(&4i32.to_le_bytes()); // fits: the list is read on
    assert_ne!(t.restore_state(&b).unwrap_err().offset(), 45);
    let mut b = enc(&base());
    b.push(0);
    let e = s.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("trailing_bytes", b.len() - 1));
}

#[test]
fn found_goal_checks_and_zero_weight_cycle() {
    let g = csr(4, &[(0, 1, 0.0), (1, 2, 0.0), (2, 1, 0.0)]);
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    let cyc = St {
        n: 4,
        status: 1,
        weight: 1.0,
        start: 0,
        goal: 3,
        expanded: 3,
        iterations: 3,
        cost: f64::INFINITY,
        visited: vec![(0, 1, 0.0, -1), (1, 1, 0.0, 2), (2, 1, 0.0, 1)],
        heap: vec![],
        rec: vec![],
    };
    let e = s.restore_state(&enc(&cyc)).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("parent_cycle", 49 + 17));
    let mut ok = cyc.clone();
    ok.visited[1].3 = 0;
    s.restore_state(&enc(&ok)).unwrap();
    assert_eq!((s.run(None), s.iterations()), (SearchStatus::NotFound, 3));
    // Found: goal never visited -> path-cost field; goal open / wrong g -> goal's entry.
    let mut f = ok.clone();
    f.status = 2;
    f.cost = 0.0;
    let e = s.restore_state(&enc(&f)).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 37));
    f.goal = 2;
    f.cost = 1.0;
    let e = s.restore_state(&enc(&f)).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 49 + 34));
    f.cost = 0.0;
    s.restore_state(&enc(&f)).unwrap();
    assert_eq!(
        (s.status(), s.path(), s.path_cost()),
        (SearchStatus::Found, vec![0, 1, 2], 0.0)
    );
    assert_eq!(s.save_state(), enc(&f));
}
