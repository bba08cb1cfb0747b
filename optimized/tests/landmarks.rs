mod common;
use common::*;
use onepath::*;

/// SplitMix64 written independently (u128 arithmetic, explicit masking).
fn splitmix(state: &mut u128) -> u64 {
    let m = (1u128 << 64) - 1;
    *state = (*state + 0x9E3779B97F4A7C15) & m;
    let mut z = *state;
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m;
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m;
    (z ^ (z >> 31)) as u64
}

// pins [GRAPH.RNG.NEXT_INT] [GRAPH.RNG.SEED]: next_int is compared draw by draw with an independent rejection sampler, and two seeds are chosen so that the first SplitMix64 output is rejected (2^64 - 1 for n = 3, 2^64 - 3 for n = 6, the second seed above 2^63): a next_int without the rejection, with another limit or another reduction, or a seed not taken as a full u64, returns another value.
#[test]
fn seeded_random_matches_independent_splitmix() {
    let mut r = SeededRandom::new(1);
    let mut s: u128 = 1;
    for _ in 0..100 {
        assert_eq!(r.next_u64(), splitmix(&mut s));
    }
    // next_int(n): rejection above 2^64 - (2^64 mod n), then x mod n.
    for n in [1u32, 3, 7, 1000, 1 << 31, u32::MAX] {
        let mut r = SeededRandom::new(1);
        let mut s: u128 = 1;
        for _ in 0..50 {
            let rem = (1u128 << 64) % n as u128;
            let limit = (1u128 << 64) - rem;
            let want = loop {
                let x = splitmix(&mut s) as u128;
                if x < limit {
                    break (x % n as u128) as u32;
                }
            };
            assert_eq!(r.next_int(n), want);
        }
    }
    // The first output for seed 1 starts from state 1 + golden gamma.
    assert_eq!(SeededRandom::new(1).next_u64(), splitmix(&mut 1u128));
    // Seeds whose first output is at or above the limit 2^64 - (2^64 mod n): rejected, so the
    // result is the second output mod n (1 and 2), not the first (0 and 1).
    for (seed, first, n, want) in [
        (3_558_559_446_808_474_027u64, u64::MAX, 3u32, 1u32),
        (17_595_026_016_420_499_197, u64::MAX - 2, 6, 2),
    ] {
        assert_eq!(SeededRandom::new(seed).next_u64(), first);
        let mut s = seed as u128;
        splitmix(&mut s);
        assert_eq!(splitmix(&mut s) % n as u64, want as u64);
        assert_eq!(SeededRandom::new(seed).next_int(n), want, "seed {seed}");
    }
    // A seed above 2^63 is a u64 state, not a signed or rounded one.
    let big = 17_595_026_016_420_499_197u64;
    assert_eq!(
        SeededRandom::new(big).next_u64(),
        splitmix(&mut (big as u128))
    );
}

// pins [GRAPH.ALT.OPTIONS] [GRAPH.ALT.ACCESSORS]: the defaults are read back (count 16, Avoid, seed 1, and a default build on 20 nodes picks 16 landmarks as the explicit options do), and every out-of-range accessor is called: a NaN that became a number, a bound that became non-zero, an estimate for a node without a point that is not +0.0, or next_int(0) that draws or panics fails.
#[test]
fn landmark_option_defaults_and_accessors() {
    let d = LandmarkOptions::default();
    assert_eq!(
        (d.count, d.strategy, d.seed),
        (16, LandmarkStrategy::Avoid, 1)
    );
    let mut rng = Xs(9);
    let edges = grid_graph(5, 4, &mut rng);
    let g = CsrGraph::new(20, &edges).unwrap();
    let t = Landmarks::build(&g, &LandmarkOptions::default()).unwrap();
    let explicit = Landmarks::build(
        &g,
        &LandmarkOptions {
            count: 16,
            strategy: LandmarkStrategy::Avoid,
            seed: 1,
        },
    )
    .unwrap();
    assert_eq!(t.count(), 16);
    assert_eq!(t.serialize(), explicit.serialize());
    assert!(t.forward(16, 0).is_nan());
    assert!(t.forward(0, 20).is_nan());
    assert!(t.backward(usize::MAX, 0).is_nan());
    assert!(t.backward(0, u32::MAX).is_nan());
    assert!(!t.forward(0, 19).is_nan());
    assert_eq!(t.lower_bound(0, 20).to_bits(), 0);
    assert_eq!(t.lower_bound(u32::MAX, 3).to_bits(), 0);
    let pts = [Point3::new(0.0, 0.0, 0.0), Point3::new(3.0, 4.0, 0.0)];
    let e = EuclideanGraphHeuristic::new(&pts);
    assert_eq!(e.estimate(0, 1), 5.0);
    assert_eq!(e.estimate(0, 2).to_bits(), 0);
    assert_eq!(e.estimate(7, 1).to_bits(), 0);
    let mut r = SeededRandom::new(5);
    assert_eq!(r.next_int(0), 0);
    assert_eq!(
        r.next_u64(),
        SeededRandom::new(5).next_u64(),
        "next_int(0) drew"
    );
}

fn grid_graph(w: u32, h: u32, rng: &mut Xs) -> Vec<GraphEdge> {
    let mut e = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                e.push(GraphEdge::new(v, v + 1, 1.0 + rng.below(4) as f64));
            }
            if y + 1 < h {
                e.push(GraphEdge::new(v, v + w, 1.0 + rng.below(4) as f64));
            }
        }
    }
    e
}

#[test]
fn tables_are_distances_and_bounds_admissible() {
    let mut rng = Xs(5);
    for strategy in [LandmarkStrategy::Avoid, LandmarkStrategy::Farthest] {
        let edges = grid_graph(7, 6, &mut rng);
        let g = Graph::from_edges(&edges, None, false).unwrap();
        let csr = g.compile().clone();
        let n = csr.node_count();
        let all: Vec<GraphEdge> = (0..g.edge_count() as u32)
            .map(|i| g.edge(i).unwrap().0)
            .collect();
        let t = g
            .build_landmarks(&LandmarkOptions {
                count: 5,
                strategy,
                seed: 7,
            })
            .unwrap();
        assert_eq!(t.count(), 5);
        let mut ids = t.ids().to_vec();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 5, "distinct");
        for (l, &lid) in t.ids().iter().enumerate() {
            let d = brute_dist(n, &all, lid);
            for v in 0..n as u32 {
                assert_eq!(t.forward(l, v), d[v as usize]);
                assert_eq!(t.backward(l, v), d[v as usize], "undirected");
            }
        }
        for s in 0..n as u32 {
            let d = brute_dist(n, &all, s);
            for v in 0..n as u32 {
                assert!(t.lower_bound(s, v) <= d[v as usize]);
            }
        }
        let table = std::sync::Arc::new(t);
        for _ in 0..20 {
            let (s, v) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
            let alt = g
                .find_path(s, v, &GraphOptions::with_landmarks(table.clone()))
                .unwrap();
            let dij = g.find_path(s, v, &GraphOptions::default()).unwrap();
            assert_eq!(alt.algorithm, Algorithm::AStar);
            assert_eq!(alt.cost, dij.cost);
            assert!(alt.expanded_count <= dij.expanded_count);
        }
    }
}

#[test]
fn farthest_on_a_path_takes_the_ends() {
    // 0 - 1 - 2 - 3 - 4 undirected unit weights: slot 0 is the end farther from the root,
    // slot 1 the other end (greatest distance from landmark 0).
    let edges: Vec<_> = (0..4).map(|i| GraphEdge::new(i, i + 1, 1.0)).collect();
    let g = Graph::from_edges(&edges, None, false).unwrap();
    let mut s: u128 = 3;
    let r = loop {
        let x = splitmix(&mut s) as u128;
        if x < (1u128 << 64) - (1u128 << 64) % 5 {
            break (x % 5) as u32;
        }
    };
    let first = if r >= 2 { 0 } else { 4 };
    let t = g
        .build_landmarks(&LandmarkOptions {
            count: 2,
            strategy: LandmarkStrategy::Farthest,
            seed: 3,
        })
        .unwrap();
    assert_eq!(t.ids(), &[first, 4 - first]);
    // Avoid on the path also picks a leaf of the root's tree.
    let t = g
        .build_landmarks(&LandmarkOptions {
            count: 1,
            strategy: LandmarkStrategy::Avoid,
            seed: 3,
        })
        .unwrap();
    assert!(t.ids()[0] == 0 || t.ids()[0] == 4);
    // count > N is clamped; isolated nodes fall back to the smallest free id.
    let iso = Graph::new(3).unwrap();
    let t = iso
        .build_landmarks(&LandmarkOptions {
            count: 9,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(t.ids(), &[0, 1, 2]);
    assert_eq!(
        Graph::new(0)
            .unwrap()
            .build_landmarks(&LandmarkOptions {
                count: 0,
                ..Default::default()
            })
            .unwrap_err()
            .class(),
        "invalid_landmark_count"
    );
    assert_eq!(
        Graph::new(0)
            .unwrap()
            .build_landmarks(&LandmarkOptions::default())
            .unwrap_err()
            .class(),
        "empty_graph"
    );
}

fn put(b: &mut [u8], at: usize, v: &[u8]) {
    b[at..at + v.len()].copy_from_slice(v);
}

// pins [GRAPH.OPLM.LAYOUT] [GRAPH.OPLM.CHECKS] [GRAPH.OPLM.DISTINCT_IDS] [GRAPH.OPLM.SIGN_BIT] [GRAPH.OPLM.ROUNDTRIP]: the serialized header, fingerprint and self distance are read at their offsets, deserialize then serialize must give the same bytes, and each hostile change (truncations, magic, version, counts, length, fingerprint, ids out of range and repeated, NaN, -1, -0.0 and -infinity entries, a self distance) must fail with its class and byte offset without panicking; a header claiming a 2^40-entry table must fail before allocating it. A reader that accepts -0.0 or a repeated id, checks in another order, reports another offset or allocates the claimed table fails.
#[test]
fn oplm_roundtrip_and_hostile_bytes() {
    let edges: Vec<_> = (0..3).map(|i| GraphEdge::new(i, i + 1, 1.5)).collect();
    let g = CsrGraph::new(4, &edges).unwrap();
    let t = Landmarks::build(
        &g,
        &LandmarkOptions {
            count: 2,
            ..Default::default()
        },
    )
    .unwrap();
    let b = t.serialize();
    let (k, n) = (2usize, 4usize);
    assert_eq!(b.len(), 24 + 4 * k + 16 * k * n);
    assert_eq!(&b[0..4], b"OPLM");
    assert_eq!(u32::from_le_bytes(b[4..8].try_into().unwrap()), 1);
    assert_eq!(
        u64::from_le_bytes(b[16..24].try_into().unwrap()),
        g.fingerprint()
    );
    let l0 = t.ids()[0] as usize;
    let fwd0 = 24 + 4 * k;
    assert_eq!(
        &b[fwd0 + 8 * l0..fwd0 + 8 * l0 + 8],
        &0f64.to_bits().to_le_bytes()
    );
    let back = Landmarks::deserialize(&b, &g).unwrap();
    assert_eq!(back.serialize(), b);
    assert_eq!(back.ids(), t.ids());
    let check = |bytes: &[u8], class: &str, off: usize| {
        let e = Landmarks::deserialize(bytes, &g).unwrap_err();
        assert_eq!(
            (e.class(), e.offset(), e.category()),
            (class, off, "format"),
            "{e}"
        );
    };
    check(&b[..23], "truncated", 23);
    check(&[], "truncated", 0);
    let mut x = b.clone();
    x[0] = b'X';
    x[4] = 9;
    check(&x, "bad_magic", 0);
    let mut x = b.clone();
    x[4] = 2;
    check(&x, "unsupported_version", 4);
    let mut x = b.clone();
    put(&mut x, 8, &(-4i32).to_le_bytes());
    check(&x, "node_count_mismatch", 8);
    for kk in [0i32, 5, -1] {
        let mut x = b.clone();
        put(&mut x, 12, &kk.to_le_bytes());
        check(&x, "count_out_of_range", 12);
    }
    let mut x = b.clone();
    x.push(0);
    check(&x, "length_mismatch", b.len());
    check(&b[..b.len() - 1], "length_mismatch", b.len() - 1);
    let mut x = b[..24].to_vec();
    put(&mut x, 12, &4i32.to_le_bytes());
    check(&x, "length_mismatch", 24);
    let mut x = b.clone();
    x[16] ^= 1;
    x[24] = 0xff;
    check(&x, "fingerprint_mismatch", 16);
    let mut x = b.clone();
    put(&mut x, 28, &4i32.to_le_bytes());
    check(&x, "index_out_of_range", 28);
    let mut x = b.clone();
    put(&mut x, 24, &(-1i32).to_le_bytes());
    check(&x, "index_out_of_range", 24);
    let mut x = b.clone();
    let id0 = x[24..28].to_vec();
    put(&mut x, 28, &id0);
    check(&x, "duplicate_node", 28);
    let other = (l0 + 1) % n;
    for bad in [f64::NAN, -0.0, -1.0, f64::NEG_INFINITY] {
        let mut x = b.clone();
        put(&mut x, fwd0 + 8 * other, &bad.to_bits().to_le_bytes());
        put(
            &mut x,
            fwd0 + 8 * (other + n),
            &f64::NAN.to_bits().to_le_bytes(),
        );
        check(&x, "bad_distance", fwd0 + 8 * other);
    }
    let mut x = b.clone();
    let bwd_self = fwd0 + 8 * k * n + 8 * l0;
    put(&mut x, bwd_self, &1.0f64.to_bits().to_le_bytes());
    check(&x, "self_distance", bwd_self);
    // +infinity is a valid (unreachable) entry.
    let mut x = b.clone();
    put(
        &mut x,
        fwd0 + 8 * other,
        &f64::INFINITY.to_bits().to_le_bytes(),
    );
    assert_eq!(Landmarks::deserialize(&x, &g).unwrap().serialize(), x);
    // a header claiming a huge table does not allocate: it fails the length check.
    let big = CsrGraph::new(1 << 20, &[]).unwrap();
    let mut x = b[..24].to_vec();
    put(&mut x, 8, &(1i32 << 20).to_le_bytes());
    put(&mut x, 12, &(1i32 << 20).to_le_bytes());
    let e = Landmarks::deserialize(&x, &big).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("length_mismatch", 24));
}

// pins [GRAPH.OPLM.TRUSTED]: a table whose distances are valid bytes but not true distances (every entry away from the landmarks set to +infinity, or to a large finite lie) is accepted and an ALT query on it answers NotFound or a path without an error or a panic; a reader that checks the distances against the graph, or a query that fails on an inconsistent bound, fails.
#[test]
fn trusted_tables_are_accepted_and_answer() {
    let mut edges = Vec::new();
    for i in 0..9u32 {
        edges.push(GraphEdge::new(i, i + 1, 1.0));
        edges.push(GraphEdge::new(i + 1, i, 1.0));
    }
    let g = Graph::from_edges(&edges, Some(10), true).unwrap();
    let t = g
        .build_landmarks(&LandmarkOptions {
            count: 2,
            ..Default::default()
        })
        .unwrap();
    let b = t.serialize();
    let (k, n) = (2usize, 10usize);
    let fwd0 = 24 + 4 * k;
    for lie in [f64::INFINITY, 1e300] {
        let mut x = b.clone();
        for l in 0..k {
            let id = t.ids()[l] as usize;
            for v in 0..n {
                if v != id {
                    for table in 0..2 {
                        let at = fwd0 + 8 * (table * k * n + l * n + v);
                        put(&mut x, at, &lie.to_bits().to_le_bytes());
                    }
                }
            }
        }
        let lying = Landmarks::deserialize(&x, g.compile()).unwrap();
        assert_eq!(lying.serialize(), x);
        let o = GraphOptions::with_landmarks(std::sync::Arc::new(lying));
        for (s, goal) in [(0u32, 9u32), (3, 4), (9, 0), (5, 5)] {
            let r = g.find_path(s, goal, &o).unwrap();
            assert!(
                matches!(r.status, PathStatus::Found | PathStatus::NotFound),
                "{r:?}"
            );
        }
    }
}

// pins [GRAPH.ERR.NO_PANIC]: every truncation of a valid OPLM table and every byte of it set to 0x00, 0x80 and 0xff is offered to deserialize, and constructors and queries get u32::MAX endpoints and nodes, NaN and infinite weights, coordinates and positions, and a usize::MAX nearest count on a small cloud: each must return a value or a typed error; an index, slice, overflow or allocation panic on any of them fails the test.
#[test]
fn hostile_arguments_and_bytes_never_panic() {
    let edges: Vec<_> = (0..4)
        .map(|i| GraphEdge::new(i, (i + 1) % 5, 1.0 + i as f64))
        .collect();
    let g = CsrGraph::new(5, &edges).unwrap();
    let t = Landmarks::build(
        &g,
        &LandmarkOptions {
            count: 3,
            ..Default::default()
        },
    )
    .unwrap();
    let b = t.serialize();
    let mut accepted = 0;
    for len in 0..=b.len() {
        accepted += Landmarks::deserialize(&b[..len], &g).is_ok() as usize;
    }
    assert_eq!(accepted, 1, "only the whole table is accepted");
    for at in 0..b.len() {
        for v in [0x00u8, 0x80, 0xff] {
            let mut x = b.clone();
            x[at] = v;
            if let Ok(back) = Landmarks::deserialize(&x, &g) {
                assert_eq!(back.serialize(), x);
            }
        }
    }
    for e in [
        GraphEdge::new(u32::MAX, 0, 1.0),
        GraphEdge::new(0, u32::MAX, 1.0),
        GraphEdge::new(0, 1, f64::NAN),
        GraphEdge::new(0, 1, f64::INFINITY),
        GraphEdge::new(0, 1, -1e-300),
    ] {
        assert!(CsrGraph::new(5, &[e]).is_err());
        assert!(Graph::from_edges(&[e], Some(5), false).is_err());
        assert!(Graph::from_edges(&[e], None, true).is_err());
        let mut m = Graph::new(5).unwrap();
        assert!(m.add_edge(e.from, e.to, e.weight).is_err());
        assert!(m.set_weight(u32::MAX, e.weight).is_err());
        assert!(m.remove_edge(u32::MAX).is_err());
    }
    let m = Graph::from_edges(&edges, None, true).unwrap();
    for (s, t) in [(u32::MAX, 0), (0, u32::MAX), (5, 5)] {
        assert!(m.find_path(s, t, &GraphOptions::default()).is_err());
        assert!(m.find_path(s, t, &GraphOptions::bidirectional()).is_err());
    }
    let pts = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 1.0, 0.0)];
    for p in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300] {
        let bad = [Point3::new(0.0, p, 0.0)];
        assert!(PointGraph::new(&bad, &LinkOptions::default()).is_err());
        let o = LinkOptions {
            max_distance: p,
            nearest_count: usize::MAX,
            explicit: vec![(0, u32::MAX)],
            ..Default::default()
        };
        assert!(PointGraph::new(&pts, &o).is_err());
        let pg = PointGraph::new(&pts, &LinkOptions::default()).unwrap();
        assert!(pg.nearest_node(Point3::new(p, 0.0, 0.0)).is_err());
        assert!(pg
            .find_path_between(Point3::new(0.0, 0.0, p), pts[0], &GraphOptions::default())
            .is_err());
    }
    let o = LinkOptions {
        nearest_count: usize::MAX,
        max_distance: 5.0,
        ..Default::default()
    };
    assert_eq!(PointGraph::new(&pts, &o).unwrap().csr().edge_count(), 2);
}
