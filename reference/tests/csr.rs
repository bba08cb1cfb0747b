//! [GRAPH.CSR] tests: layout, stable order, parallel edges and self-loops, validation, fingerprint.

use onepath_reference::{CsrGraph, GraphEdge, MAX_NODES};

fn e(from: u32, to: u32, w: f64) -> GraphEdge {
    GraphEdge::new(from, to, w)
}

#[test]
fn layout_and_stable_order_with_parallel_edges_and_self_loops() {
    // input order:     0         1         2         3         4         5
    let edges = [
        e(2, 0, 1.0),
        e(0, 1, 2.0),
        e(0, 1, 3.0),
        e(1, 1, 4.0),
        e(0, 2, 5.0),
        e(2, 1, 6.0),
    ];
    let g = CsrGraph::new(3, &edges).unwrap();
    assert_eq!(g.node_count(), 3);
    assert_eq!(g.edge_count(), 6);
    // forward, grouped by from, input order inside a group
    assert_eq!(g.offsets(), &[0, 3, 4, 6]);
    assert_eq!(g.targets(), &[1, 1, 2, 1, 0, 1]);
    assert_eq!(g.weights(), &[2.0, 3.0, 5.0, 4.0, 1.0, 6.0]);
    // reverse, grouped by to, input order inside a group
    // to 0: edge0 (2->0); to 1: edges 1,2,3,5 (0,0,1,2); to 2: edge 4 (0)
    assert_eq!(g.reverse_offsets(), &[0, 1, 5, 6]);
    assert_eq!(g.sources(), &[2, 0, 0, 1, 2, 0]);
    assert_eq!(g.reverse_weights(), &[1.0, 2.0, 3.0, 4.0, 6.0, 5.0]);
}

#[test]
fn empty_and_isolated_graphs() {
    let g = CsrGraph::new(0, &[]).unwrap();
    assert_eq!(g.offsets(), &[0]);
    assert_eq!(g.reverse_offsets(), &[0]);
    let g = CsrGraph::new(4, &[]).unwrap();
    assert_eq!(g.offsets(), &[0, 0, 0, 0, 0]);
    assert_eq!(g.edge_count(), 0);
}

/// FNV-1a written out independently over hand-laid bytes.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 14695981039346656037;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(1099511628211);
    }
    h
}

// pins [SPEC.NUM.LE]: the fingerprint is compared with FNV-1a over hand-laid bytes: a big-endian
// u32 or an f64 not written by its little-endian IEEE bit pattern changes the hash
#[test]
fn fingerprint_of_a_tiny_graph_by_hand() {
    // N = 2, edges: 0->1 (w 1.5), 1->0 (w 0.0 given as -0.0)
    let g = CsrGraph::new(2, &[e(0, 1, 1.5), e(1, 0, -0.0)]).unwrap();
    let mut bytes: Vec<u8> = Vec::new();
    bytes.extend_from_slice(&[2, 0, 0, 0]); // node count
    bytes.extend_from_slice(&[0, 0, 0, 0]); // offsets[0]
    bytes.extend_from_slice(&[1, 0, 0, 0]); // offsets[1]
    bytes.extend_from_slice(&[2, 0, 0, 0]); // offsets[2]
    bytes.extend_from_slice(&[1, 0, 0, 0]); // slot 0 target 1
    bytes.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0xF8, 0x3F]); // 1.5 = 0x3FF8000000000000
    bytes.extend_from_slice(&[0, 0, 0, 0]); // slot 1 target 0
    bytes.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]); // +0.0 (the -0.0 is stored as +0.0)
    assert_eq!(g.fingerprint(), fnv1a(&bytes));
    // [GRAPH.VAL.NEG_ZERO]: equal graphs, equal fingerprints
    let h = CsrGraph::new(2, &[e(0, 1, 1.5), e(1, 0, 0.0)]).unwrap();
    assert_eq!(g.fingerprint(), h.fingerprint());
    assert_eq!(g.weights()[1].to_bits(), 0);
    assert_eq!(g.reverse_weights()[0].to_bits(), 0);
}

#[test]
fn fingerprint_of_the_empty_graph_hashes_count_and_one_offset() {
    let g = CsrGraph::new(0, &[]).unwrap();
    assert_eq!(g.fingerprint(), fnv1a(&[0, 0, 0, 0, 0, 0, 0, 0]));
    assert_ne!(g.fingerprint(), fnv1a(&[]));
}

#[test]
fn fingerprint_depends_on_order_and_weights() {
    let a = CsrGraph::new(3, &[e(0, 1, 1.0), e(0, 2, 1.0)]).unwrap();
    let b = CsrGraph::new(3, &[e(0, 2, 1.0), e(0, 1, 1.0)]).unwrap();
    let c = CsrGraph::new(3, &[e(0, 1, 1.0), e(0, 2, 2.0)]).unwrap();
    assert_ne!(a.fingerprint(), b.fingerprint());
    assert_ne!(a.fingerprint(), c.fingerprint());
}

#[test]
fn validation_names_the_first_bad_edge_and_endpoint() {
    let err = CsrGraph::new(32, &[e(0, 1, 1.0), e(40, 50, f64::NAN)]).unwrap_err();
    assert_eq!(err.class(), "endpoint_out_of_range");
    assert_eq!(err.index(), Some(1));
    assert!(err.to_string().contains("`from`"), "{err}");
    let err = CsrGraph::new(32, &[e(0, 1, 1.0), e(1, 2, 1.0), e(3, 40, -1.0)]).unwrap_err();
    assert_eq!(err.class(), "endpoint_out_of_range");
    assert_eq!(err.index(), Some(2));
    assert_eq!(
        err.to_string(),
        "edge 2: endpoint `to` = 40 is out of range for 32 nodes"
    );
    for bad in [
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -1.0,
        -f64::MIN_POSITIVE,
    ] {
        let err = CsrGraph::new(2, &[e(0, 1, 1.0), e(1, 0, 0.0), e(0, 0, bad)]).unwrap_err();
        assert_eq!(err.class(), "invalid_weight");
        assert_eq!(err.index(), Some(2));
    }
    // the first bad edge wins even when a later one is worse
    let err = CsrGraph::new(2, &[e(0, 1, -1.0), e(9, 9, 1.0)]).unwrap_err();
    assert_eq!((err.class(), err.index()), ("invalid_weight", Some(0)));
}

#[test]
fn node_limit() {
    let err = CsrGraph::new(MAX_NODES + 1, &[]).unwrap_err();
    assert_eq!(err.class(), "too_many_nodes");
    assert_eq!(err.index(), None);
    assert!(CsrGraph::new(0, &[e(0, 0, 1.0)]).is_err());
}

#[test]
fn csr_graph_is_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<CsrGraph>();
    assert_send_sync::<onepath_reference::Graph>();
    assert_send_sync::<onepath_reference::PointGraph>();
}
