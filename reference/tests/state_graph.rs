//! [STATE.GRAPH] [STATE.SEARCH*] Graph (kind 4) and GraphAStar (kind 11) states.

mod common;

use std::time::Instant;

use common::{random_edges, Lcg};
use onepath_reference::{
    CsrGraph, DefaultGraphCost, Graph, GraphAStar, GraphEdge, GraphHeuristic, SearchStatus,
    ZeroGraphHeuristic,
};

// pins [STATE.GRAPH.RESTORE]: a restore that kept the compiled form of the graph it replaced (not stale, 1 edge compiled), dropped the removed edge or renumbered the edges fails an assertion.
#[test]
fn graph_round_trip_keeps_removed_edges() {
    let mut g = Graph::new(4).unwrap();
    g.add_edge(0, 1, 1.5).unwrap();
    g.add_edge(1, 2, -0.0).unwrap();
    g.add_edge(2, 3, 4.0).unwrap();
    g.remove_edge(1).unwrap();
    let b = g.save_state();
    assert_eq!(b.len(), 16 + 3 * 17);
    assert_eq!(&b[0..8], &[0x4F, 0x50, 0x47, 0x53, 1, 0, 4, 0]);
    assert_eq!(&b[8..16], &[4, 0, 0, 0, 3, 0, 0, 0]);
    // edge 1: from 1, to 2, weight +0.0, alive 0
    assert_eq!(
        &b[33..50],
        &[1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(g.save_state(), b);
    let mut h = Graph::new(1).unwrap();
    h.add_edge(0, 0, 1.0).unwrap();
    let _ = h.compile();
    h.restore_state(&b).unwrap();
    assert!(h.is_stale());
    assert_eq!(h.save_state(), b);
    assert_eq!(h.edge(1), Some((GraphEdge::new(1, 2, 0.0), false)));
    assert_eq!(h.compile().edge_count(), 2);
    assert_eq!(Graph::from_state(&b).unwrap().save_state(), b);
}

#[test]
fn graph_hostile() {
    let mut g = Graph::new(3).unwrap();
    g.add_edge(0, 1, 1.0).unwrap();
    let good = g.save_state();
    let cases: Vec<(usize, Vec<u8>, &str)> = vec![
        (
            8,
            ((1i32 << 26) + 1).to_le_bytes().to_vec(),
            "count_out_of_range",
        ),
        (8, (-1i32).to_le_bytes().to_vec(), "count_out_of_range"),
        (12, 2i32.to_le_bytes().to_vec(), "count_out_of_range"), // 17 bytes left: at most 1
        (12, (-1i32).to_le_bytes().to_vec(), "count_out_of_range"),
        (16, 3i32.to_le_bytes().to_vec(), "index_out_of_range"),
        (20, (-1i32).to_le_bytes().to_vec(), "index_out_of_range"),
        (24, f64::NAN.to_bits().to_le_bytes().to_vec(), "nan"),
        (
            24,
            (-0.0f64).to_bits().to_le_bytes().to_vec(),
            "out_of_range",
        ),
        (
            24,
            f64::INFINITY.to_bits().to_le_bytes().to_vec(),
            "out_of_range",
        ),
        (32, vec![2], "bad_flag"),
        (6, vec![11, 0], "wrong_kind"),
    ];
    for (at, bytes, class) in cases {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(&bytes);
        let mut h = Graph::new(3).unwrap();
        h.add_edge(2, 2, 7.0).unwrap();
        let before = h.save_state();
        let e = h.restore_state(&b).unwrap_err();
        assert_eq!(
            (e.class(), e.offset(), e.category()),
            (class, at, "format"),
            "patch at {at}"
        );
        assert_eq!(h.save_state(), before);
    }
    // [STATE.GRAPH] a cut inside the edge list leaves too few bytes for the edge count: that is
    // `count_out_of_range` at the count, not `truncated`.
    for len in 0..good.len() {
        let e = Graph::from_state(&good[..len]).err().unwrap();
        let expect = if (16..33).contains(&len) {
            ("count_out_of_range", 12)
        } else {
            ("truncated", len)
        };
        assert_eq!((e.class(), e.offset()), expect, "length {len}");
    }
    let mut b = good.clone();
    b.push(0);
    let e = Graph::from_state(&b).err().unwrap();
    assert_eq!((e.class(), e.offset()), ("trailing_bytes", good.len()));
}

#[test]
fn graph_of_2_pow_26_nodes_allocates_nothing_per_node() {
    let mut b = vec![0x4F, 0x50, 0x47, 0x53, 1, 0, 4, 0];
    b.extend_from_slice(&(1i32 << 26).to_le_bytes());
    b.extend_from_slice(&0i32.to_le_bytes());
    let t = Instant::now();
    for _ in 0..1000 {
        let g = Graph::from_state(&b).unwrap();
        assert_eq!((g.node_count(), g.edge_count()), (1 << 26, 0));
        assert!(g.is_stale()); // nothing compiled
        assert_eq!(g.save_state(), b);
    }
    let mut h = Graph::new(2).unwrap();
    h.restore_state(&b).unwrap();
    assert_eq!(h.node_count(), 1 << 26);
    // 1000 restores of 2^26 nodes would take seconds if anything were allocated per node.
    assert!(t.elapsed().as_secs_f64() < 2.0, "{:?}", t.elapsed());
}

/// An estimate from a table (not necessarily admissible; determinism is all that matters).
#[derive(Clone)]
struct Table(Vec<f64>);
impl GraphHeuristic for Table {
    fn estimate(&self, from: u32, _to: u32) -> f64 {
        self.0[from as usize]
    }
}

fn finish<H: GraphHeuristic>(
    s: &mut GraphAStar<'_, DefaultGraphCost, H>,
) -> (Vec<u32>, u64, u64, u64, Vec<u32>, Vec<u8>) {
    s.run(None);
    (
        s.path(),
        s.path_cost().to_bits(),
        s.iterations(),
        s.expanded_count(),
        s.expansions().to_vec(),
        s.save_state(),
    )
}

#[test]
fn sliced_save_restore_continues_exactly() {
    let mut rng = Lcg(7);
    for round in 0..12 {
        let n = 6 + (round % 5) * 4;
        let m = n as usize * 3;
        let edges = random_edges(&mut rng, n, m, 3); // weights 0..=3: ties and zeros
        let g = CsrGraph::new(n as usize, &edges).unwrap();
        let h = Table((0..n).map(|_| rng.below(3) as f64).collect());
        let (start, goal) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
        for heuristic in [false, true] {
            let table = if heuristic {
                h.clone()
            } else {
                Table(vec![0.0; n as usize])
            };
            let mut whole = GraphAStar::new(&g, DefaultGraphCost, table.clone());
            whole.set_record_expansions(true);
            whole.begin(start, goal).unwrap();
            let expect = finish(&mut whole);
            for k in [1u64, 2, 3, 5, 8] {
                let mut a = GraphAStar::new(&g, DefaultGraphCost, table.clone());
                a.set_record_expansions(true);
                a.begin(start, goal).unwrap();
                a.step(k);
                let saved = a.save_state();
                assert_eq!(a.save_state(), saved);
                let mut b = GraphAStar::new(&g, DefaultGraphCost, table.clone());
                b.set_record_expansions(true);
                b.restore_state(&saved).unwrap();
                assert_eq!(b.save_state(), saved, "round {round} k {k}");
                assert_eq!(b.status(), a.status());
                assert_eq!(finish(&mut b), expect, "round {round} k {k}");
            }
        }
    }
}

#[test]
fn not_started_and_finished_states() {
    let g = CsrGraph::new(3, &[GraphEdge::new(0, 1, 2.0)]).unwrap();
    let s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    let b = s.save_state();
    assert_eq!(b.len(), 45);
    assert_eq!(b[12], 0);
    assert_eq!(&b[21..29], &[0xFF; 8]);
    assert_eq!(&b[37..45], &f64::INFINITY.to_bits().to_le_bytes());
    let mut t = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    t.begin(0, 1).unwrap();
    t.run(None);
    let found = t.save_state();
    assert_eq!(found[12], 2);
    assert_eq!(&found[37..45], &2.0f64.to_bits().to_le_bytes());
    t.restore_state(&b).unwrap();
    assert_eq!(t.status(), SearchStatus::NotStarted);
    assert_eq!(t.save_state(), b);
    t.restore_state(&found).unwrap();
    assert_eq!((t.path(), t.path_cost()), (vec![0, 1], 2.0));
    // A state for another graph size.
    let other = CsrGraph::new(4, &[]).unwrap();
    let mut u = GraphAStar::new(&other, DefaultGraphCost, ZeroGraphHeuristic);
    let e = u.restore_state(&found).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("size_mismatch", 8));
}

/// The hand-built baseline: 4 nodes, Running from 0 to 3 after one expansion of 0 (edges 0 -> 1 and
/// 0 -> 2 of weight 1), recording on. Offsets: visited count 45, entries at 49, 66, 83 (node,
/// closed +4, g +5, parent +13), heap count 100, slots at 104 and 124 (f +4, g +12), recorded
/// count 144, node 148, end 152.
fn baseline() -> Vec<u8> {
    let mut b = vec![0x4F, 0x50, 0x47, 0x53, 1, 0, 11, 0];
    let i = |b: &mut Vec<u8>, v: i32| b.extend_from_slice(&v.to_le_bytes());
    let f = |b: &mut Vec<u8>, v: f64| b.extend_from_slice(&v.to_bits().to_le_bytes());
    i(&mut b, 4);
    b.push(1);
    f(&mut b, 1.0);
    for v in [0, 3, 1, 1] {
        i(&mut b, v);
    }
    f(&mut b, f64::INFINITY);
    i(&mut b, 3);
    for (node, closed, g, parent) in [(0, 1u8, 0.0, -1), (1, 0, 1.0, 0), (2, 0, 1.0, 0)] {
        i(&mut b, node);
        b.push(closed);
        f(&mut b, g);
        i(&mut b, parent);
    }
    i(&mut b, 2);
    for node in [1, 2] {
        i(&mut b, node);
        f(&mut b, 1.0);
        f(&mut b, 1.0);
    }
    i(&mut b, 1);
    i(&mut b, 0);
    b
}

fn graph4() -> CsrGraph {
    CsrGraph::new(4, &[GraphEdge::new(0, 1, 1.0), GraphEdge::new(0, 2, 1.0)]).unwrap()
}

fn put_i32(b: &mut [u8], at: usize, v: i32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_f64(b: &mut [u8], at: usize, v: f64) {
    b[at..at + 8].copy_from_slice(&v.to_bits().to_le_bytes());
}

#[test]
fn baseline_is_what_a_search_saves() {
    let g = graph4();
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.set_record_expansions(true);
    s.begin(0, 3).unwrap();
    s.step(1);
    assert_eq!(s.save_state(), baseline());
    assert_eq!(baseline().len(), 152);
}

#[test]
fn hostile_search_states() {
    let g = graph4();
    type Patch = fn(&mut Vec<u8>);
    let cases: Vec<(&str, Patch, &str, usize)> = vec![
        (
            "parent cycle",
            |b| {
                put_i32(b, 79, 2);
                put_i32(b, 96, 1);
            },
            "parent_cycle",
            66,
        ),
        (
            "parent costs more",
            |b| {
                put_f64(b, 71, 0.5); // node 1: g 0.5 (heap slot 0 likewise)
                put_f64(b, 108, 0.5);
                put_f64(b, 116, 0.5);
                put_i32(b, 79, 2); // parent 2 has g 1
            },
            "bad_parent",
            66,
        ),
        (
            "duplicate heap node",
            |b| put_i32(b, 124, 1),
            "duplicate_node",
            124,
        ),
        (
            "heap order broken",
            |b| {
                put_i32(b, 104, 2);
                put_i32(b, 124, 1);
            },
            "heap_order",
            124,
        ),
        (
            "open node missing from heap",
            |b| {
                put_i32(b, 100, 1);
                b.drain(124..144);
            },
            "missing_open_node",
            83,
        ),
        ("flag 2", |b| b[53] = 2, "bad_flag", 53),
        ("NaN g", |b| put_f64(b, 54, f64::NAN), "nan", 54),
        ("NaN f", |b| put_f64(b, 128, f64::NAN), "nan", 128),
        ("trailing byte", |b| b.push(0), "trailing_bytes", 152),
        ("status 4", |b| b[12] = 4, "out_of_range", 12),
        ("weight 2", |b| put_f64(b, 13, 2.0), "size_mismatch", 13),
        ("goal 4", |b| put_i32(b, 25, 4), "index_out_of_range", 25),
        (
            "expanded > iterations",
            |b| put_i32(b, 29, 2),
            "out_of_range",
            33,
        ),
        (
            "visited count too big",
            |b| put_i32(b, 45, 5),
            "count_out_of_range",
            45,
        ),
        (
            "not increasing",
            |b| put_i32(b, 83, 1),
            "not_increasing",
            83,
        ),
        (
            "visited node 4",
            |b| put_i32(b, 83, 4),
            "index_out_of_range",
            83,
        ),
        ("parent 7", |b| put_i32(b, 79, 7), "index_out_of_range", 79),
        (
            "closed heap node",
            |b| put_i32(b, 104, 0),
            "bad_heap_node",
            104,
        ),
        (
            "heap g differs",
            |b| put_f64(b, 136, 2.0),
            "out_of_range",
            136,
        ),
        (
            "heap count > visited",
            |b| put_i32(b, 100, 4),
            "count_out_of_range",
            100,
        ),
        (
            "recorded count",
            |b| put_i32(b, 144, 2),
            "count_out_of_range",
            144,
        ),
        (
            "recorded node outside the graph",
            |b| put_i32(b, 148, 7),
            "bad_heap_node",
            148,
        ),
        (
            "start has a parent",
            |b| put_i32(b, 62, 1),
            "bad_parent",
            49,
        ),
        (
            "Found goal not visited",
            |b| {
                b[12] = 2;
                put_f64(b, 37, 1.0);
            },
            "out_of_range",
            37,
        ),
        (
            "Found goal open",
            |b| {
                b[12] = 2;
                put_i32(b, 25, 2);
                put_f64(b, 37, 1.0);
            },
            "out_of_range",
            83,
        ),
    ];
    let good = baseline();
    for (name, patch, class, at) in cases {
        let mut b = good.clone();
        patch(&mut b);
        let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
        s.begin(0, 1).unwrap();
        let e = s.restore_state(&b).unwrap_err();
        assert_eq!(
            (e.class(), e.offset(), e.category()),
            (class, at, "format"),
            "{name}: {e}"
        );
        // [STATE.SEARCH_FAILED] a failed restore leaves NotStarted.
        assert_eq!(s.status(), SearchStatus::NotStarted, "{name}");
        assert_eq!(s.save_state().len(), 45);
    }
    let mut s = GraphAStar::new(&g, DefaultGraphCost, ZeroGraphHeuristic);
    s.restore_state(&good).unwrap();
    assert_eq!(s.save_state(), good);
    // A cut inside a list is `count_out_of_range` at its count ([STATE.SEARCH.CHECKS]: visited
    // count <= bytes left / 17, heap count <= bytes left / 20, recorded <= bytes left / 4),
    // every other cut `truncated`.
    for len in 0..good.len() {
        let e = s.restore_state(&good[..len]).unwrap_err();
        let expect = if (49..100).contains(&len) {
            ("count_out_of_range", 45)
        } else if (104..144).contains(&len) {
            ("count_out_of_range", 100)
        } else if (148..good.len()).contains(&len) {
            ("count_out_of_range", 144)
        } else {
            ("truncated", len)
        };
        assert_eq!((e.class(), e.offset()), expect, "length {len}");
    }
    for at in 0..good.len() {
        for v in [0u8, 1, 2, 0x7F, 0x80, 0xFF] {
            let mut b = good.clone();
            b[at] = v;
            if s.restore_state(&b).is_ok() {
                s.run(None); // whatever was accepted must run without panicking
            }
        }
    }
}
