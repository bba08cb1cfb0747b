//! [GRAPH.ALT] and [GRAPH.OPLM] tests: strategies by hand, admissible bounds, hostile bytes.

mod common;

use common::{floyd_warshall, random_edges, Lcg};
use onepath_reference::{
    CsrGraph, Graph, GraphEdge, LandmarkOptions, LandmarkStrategy, Landmarks, SeededRandom,
};

fn e(from: u32, to: u32, w: f64) -> GraphEdge {
    GraphEdge::new(from, to, w)
}

/// The undirected path 0 - 1 - 2 - 3 with unit weights.
fn path4() -> Graph {
    Graph::from_edges(&[e(0, 1, 1.0), e(1, 2, 1.0), e(2, 3, 1.0)], None, false).unwrap()
}

#[test]
fn count_and_empty_errors() {
    let g = path4();
    let opts = LandmarkOptions {
        count: 0,
        ..LandmarkOptions::default()
    };
    assert_eq!(
        g.build_landmarks(&opts).unwrap_err().class(),
        "invalid_landmark_count"
    );
    let empty = CsrGraph::new(0, &[]).unwrap();
    let err = Landmarks::build(&empty, &LandmarkOptions::default()).unwrap_err();
    assert_eq!((err.class(), err.index()), ("empty_graph", None));
    // count first
    let opts = LandmarkOptions {
        count: 0,
        ..LandmarkOptions::default()
    };
    assert_eq!(
        Landmarks::build(&empty, &opts).unwrap_err().class(),
        "invalid_landmark_count"
    );
    assert_eq!(
        LandmarkOptions::default(),
        LandmarkOptions {
            count: 16,
            strategy: LandmarkStrategy::Avoid,
            seed: 1
        }
    );
}

#[test]
fn farthest_on_a_path_by_hand() {
    let g = path4();
    for seed in 0..20 {
        let mut rng = SeededRandom::new(seed);
        let r0 = rng.next_int(4);
        // slot 0: farthest from the root (ties: smaller id)
        let l0 = match r0 {
            0 | 1 => 3,
            _ => 0,
        };
        // slot 1: greatest d(l0, v) among the others
        let l1 = if l0 == 3 { 0 } else { 3 };
        let opts = LandmarkOptions {
            count: 2,
            strategy: LandmarkStrategy::Farthest,
            seed,
        };
        let t = g.build_landmarks(&opts).unwrap();
        assert_eq!(t.ids(), &[l0, l1], "seed {seed} root {r0}");
    }
}

#[test]
fn farthest_falls_back_to_the_smallest_free_id() {
    // directed chain 0 -> 1 -> 2 -> 3: from landmark 3 nothing else is reached
    let g = CsrGraph::new(4, &[e(0, 1, 1.0), e(1, 2, 1.0), e(2, 3, 1.0)]).unwrap();
    for seed in 0..20 {
        let r0 = SeededRandom::new(seed).next_int(4);
        let opts = LandmarkOptions {
            count: 3,
            strategy: LandmarkStrategy::Farthest,
            seed,
        };
        let t = Landmarks::build(&g, &opts).unwrap();
        let expected: &[u32] = if r0 == 3 {
            // no candidate from root 3 -> 0; then from 0: m(v) = v -> 3; then 1 (m = 1) vs 2 (2)
            &[0, 3, 2]
        } else {
            // 3, then nothing reached from 3 -> fallback 0, then from {3, 0}: m(2) = 2
            &[3, 0, 2]
        };
        assert_eq!(t.ids(), expected, "seed {seed} root {r0}");
    }
}

#[test]
fn avoid_on_a_path_by_hand() {
    let g = path4();
    for seed in 0..20 {
        let r0 = SeededRandom::new(seed).next_int(4);
        // sizes from root 0: [6, 6, 5, 3] -> node 0, descend to 3; from 1: size(1) = 4 -> 2 -> 3;
        // from 2 or 3 symmetrically -> 0
        let l0 = if r0 <= 1 { 3 } else { 0 };
        // with l0 chosen every weight d(r, v) - lb(r, v) is 0 on a path: fallback
        let l1 = if l0 == 3 { 0 } else { 1 };
        let opts = LandmarkOptions {
            count: 2,
            strategy: LandmarkStrategy::Avoid,
            seed,
        };
        let t = g.build_landmarks(&opts).unwrap();
        assert_eq!(t.ids(), &[l0, l1], "seed {seed} root {r0}");
    }
}

#[test]
fn tables_and_bounds_are_admissible_against_floyd_warshall() {
    let mut rng = Lcg(3);
    for trial in 0..30 {
        let n = 1 + rng.below(12) as u32;
        let m = rng.below(30) as usize;
        let edges = random_edges(&mut rng, n, m, 7);
        let g = CsrGraph::new(n as usize, &edges).unwrap();
        let fw = floyd_warshall(n as usize, &edges);
        for strategy in [LandmarkStrategy::Avoid, LandmarkStrategy::Farthest] {
            let count = 1 + rng.below(6) as usize;
            let opts = LandmarkOptions {
                count,
                strategy,
                seed: trial,
            };
            let t = Landmarks::build(&g, &opts).unwrap();
            assert_eq!(t.count(), count.min(n as usize));
            assert_eq!(
                (t.node_count(), t.fingerprint()),
                (n as usize, g.fingerprint())
            );
            let mut ids = t.ids().to_vec();
            ids.sort();
            ids.dedup();
            assert_eq!(ids.len(), t.count(), "landmarks are distinct");
            for (l, &lm) in t.ids().iter().enumerate() {
                for v in 0..n {
                    assert_eq!(t.forward(l, v), fw[lm as usize][v as usize]);
                    assert_eq!(t.backward(l, v), fw[v as usize][lm as usize]);
                }
            }
            for u in 0..n {
                for v in 0..n {
                    let lb = t.lower_bound(u, v);
                    let d = fw[u as usize][v as usize];
                    assert!(
                        lb >= 0.0 && lb <= d,
                        "trial {trial}: lb({u},{v}) = {lb} > {d}"
                    );
                    assert!(!lb.is_nan());
                }
                assert_eq!(t.lower_bound(u, u), 0.0);
            }
            // deterministic
            assert_eq!(Landmarks::build(&g, &opts).unwrap().ids(), t.ids());
        }
    }
}

#[test]
fn lower_bound_proves_unreachability() {
    // 0 -> 1, 2 isolated; landmark set covering everything
    let g = CsrGraph::new(3, &[e(0, 1, 2.0)]).unwrap();
    let t = Landmarks::build(
        &g,
        &LandmarkOptions {
            count: 3,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(t.lower_bound(0, 2), f64::INFINITY);
    assert_eq!(t.lower_bound(1, 0), f64::INFINITY);
    assert_eq!(t.lower_bound(0, 1), 2.0);
}

// ---------------------------------------------------------------- OPLM

/// A 4-node graph and a 2-landmark table on it: 24 + 8 + 16 * 2 * 4 = 160 bytes.
fn fixture() -> (CsrGraph, Landmarks, Vec<u8>) {
    let g = CsrGraph::new(4, &[e(0, 1, 1.0), e(1, 2, 1.5), e(2, 0, 2.0), e(2, 3, 0.5)]).unwrap();
    let opts = LandmarkOptions {
        count: 2,
        ..Default::default()
    };
    let t = Landmarks::build(&g, &opts).unwrap();
    let b = t.serialize();
    (g, t, b)
}

fn check(bytes: &[u8], g: &CsrGraph, class: &str, offset: usize) {
    let err = Landmarks::deserialize(bytes, g).unwrap_err();
    assert_eq!(
        (err.class(), err.offset(), err.category()),
        (class, offset, "format"),
        "{err}"
    );
}

#[test]
fn oplm_layout_and_round_trip() {
    let (g, t, b) = fixture();
    assert_eq!(b.len(), 160);
    assert_eq!(&b[0..4], b"OPLM");
    assert_eq!(&b[4..8], &[1, 0, 0, 0]);
    assert_eq!(&b[8..12], &[4, 0, 0, 0]);
    assert_eq!(&b[12..16], &[2, 0, 0, 0]);
    assert_eq!(&b[16..24], &g.fingerprint().to_le_bytes());
    assert_eq!(&b[24..28], &(t.ids()[0] as i32).to_le_bytes());
    // fwd[1][v] for v = 2 sits at 32 + 8 * (1 * 4 + 2)
    assert_eq!(
        &b[32 + 8 * 6..32 + 8 * 7],
        &t.forward(1, 2).to_bits().to_le_bytes()
    );
    // bwd[0][3] at 32 + 8 * (2 * 4 + 0 * 4 + 3)
    assert_eq!(
        &b[32 + 8 * 11..32 + 8 * 12],
        &t.backward(0, 3).to_bits().to_le_bytes()
    );
    let back = Landmarks::deserialize(&b, &g).unwrap();
    assert_eq!(back.serialize(), b);
    assert_eq!(back.ids(), t.ids());
    // +infinity entries are accepted (landmark table on a graph with an unreachable node)
    let g2 = CsrGraph::new(3, &[e(0, 1, 1.0)]).unwrap();
    let t2 = Landmarks::build(
        &g2,
        &LandmarkOptions {
            count: 1,
            ..Default::default()
        },
    )
    .unwrap();
    let b2 = t2.serialize();
    assert!(b2.chunks(8).count() > 0);
    assert_eq!(Landmarks::deserialize(&b2, &g2).unwrap().serialize(), b2);
}

#[test]
fn oplm_hostile_header() {
    let (g, _, b) = fixture();
    check(&[], &g, "truncated", 0);
    check(&b[..23], &g, "truncated", 23);
    let mut x = b.clone();
    x[0] = b'X';
    x[4] = 9; // also a bad version: the magic is checked first
    check(&x, &g, "bad_magic", 0);
    let mut x = b.clone();
    x[4] = 2;
    check(&x, &g, "unsupported_version", 4);
    let mut x = b.clone();
    x[8] = 5;
    check(&x, &g, "node_count_mismatch", 8);
    x[8..12].copy_from_slice(&(-4i32).to_le_bytes());
    check(&x, &g, "node_count_mismatch", 8);
    for k in [0i32, -1, 5, i32::MAX, i32::MIN] {
        let mut x = b.clone();
        x[12..16].copy_from_slice(&k.to_le_bytes());
        check(&x, &g, "count_out_of_range", 12);
    }
}

#[test]
fn oplm_hostile_length() {
    let (g, _, b) = fixture();
    let mut longer = b.clone();
    longer.push(0);
    check(&longer, &g, "length_mismatch", 160);
    check(&b[..159], &g, "length_mismatch", 159);
    check(&b[..24], &g, "length_mismatch", 24);
    // k = 1 expects 24 + 4 + 64 = 92 bytes; the input is longer
    let mut x = b.clone();
    x[12] = 1;
    check(&x, &g, "length_mismatch", 92);
    // k = 4 expects 24 + 16 + 256 = 296 bytes; the input is shorter
    let mut x = b.clone();
    x[12] = 4;
    check(&x, &g, "length_mismatch", 160);
}

#[test]
fn oplm_hostile_fingerprint_and_ids() {
    let (g, t, b) = fixture();
    let mut x = b.clone();
    x[16] ^= 1;
    check(&x, &g, "fingerprint_mismatch", 16);
    // another graph with the same node count
    let other = CsrGraph::new(4, &[e(0, 1, 1.0)]).unwrap();
    check(&b, &other, "fingerprint_mismatch", 16);
    for bad in [-1i32, 4, i32::MAX] {
        let mut x = b.clone();
        x[28..32].copy_from_slice(&bad.to_le_bytes());
        check(&x, &g, "index_out_of_range", 28);
    }
    let mut x = b.clone();
    x[28..32].copy_from_slice(&(t.ids()[0] as i32).to_le_bytes());
    check(&x, &g, "duplicate_node", 28);
    // id errors come before table errors
    x[32..40].copy_from_slice(&f64::NAN.to_bits().to_le_bytes());
    check(&x, &g, "duplicate_node", 28);
}

#[test]
fn oplm_hostile_tables() {
    let (g, t, b) = fixture();
    let bad_values = [f64::NAN, -1.0, -0.0, f64::NEG_INFINITY, -f64::MIN_POSITIVE];
    for (i, bad) in bad_values.into_iter().enumerate() {
        // entry 3 + i of the 16 (fwd then bwd)
        let idx = 3 + 2 * i;
        let at = 32 + 8 * idx;
        let mut x = b.clone();
        x[at..at + 8].copy_from_slice(&bad.to_bits().to_le_bytes());
        // a later bad entry does not matter: the first in byte order is reported
        x[152..160].copy_from_slice(&f64::NAN.to_bits().to_le_bytes());
        check(&x, &g, "bad_distance", at);
    }
    // self distances: fwd[l][L_l] then bwd[l][L_l]
    for l in 0..2 {
        let lm = t.ids()[l] as usize;
        let f_at = 32 + 8 * (l * 4 + lm);
        let b_at = 32 + 8 * (8 + l * 4 + lm);
        let mut x = b.clone();
        x[f_at..f_at + 8].copy_from_slice(&1.0f64.to_bits().to_le_bytes());
        x[b_at..b_at + 8].copy_from_slice(&1.0f64.to_bits().to_le_bytes());
        check(&x, &g, "self_distance", f_at);
        let mut x = b.clone();
        x[b_at..b_at + 8].copy_from_slice(&f64::INFINITY.to_bits().to_le_bytes());
        check(&x, &g, "self_distance", b_at);
    }
    // a bad distance anywhere beats a self distance of an earlier landmark
    let lm = t.ids()[0] as usize;
    let mut x = b.clone();
    x[32 + 8 * lm..40 + 8 * lm].copy_from_slice(&2.0f64.to_bits().to_le_bytes());
    x[152..160].copy_from_slice(&(-3.0f64).to_bits().to_le_bytes());
    check(&x, &g, "bad_distance", 152);
}

#[test]
fn oplm_never_panics_on_garbage() {
    let (g, _, b) = fixture();
    let mut rng = Lcg(99);
    for _ in 0..2000 {
        let mut x = b.clone();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(x.len() as u64) as usize;
            x[i] = rng.below(256) as u8;
        }
        let cut = rng.below(x.len() as u64 + 1) as usize;
        let _ = Landmarks::deserialize(&x[..cut], &g);
        let _ = Landmarks::deserialize(&x, &g);
    }
}
