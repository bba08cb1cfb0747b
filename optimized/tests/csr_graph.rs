mod common;
use onepath::*;

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

#[test]
fn layout_order_and_reverse() {
    let edges = [
        GraphEdge::new(1, 0, 2.0),
        GraphEdge::new(0, 2, 1.0),
        GraphEdge::new(0, 1, 3.0),
        GraphEdge::new(2, 2, 0.5),
        GraphEdge::new(0, 2, -0.0),
    ];
    let g = CsrGraph::new(3, &edges).unwrap();
    assert_eq!(g.offsets(), &[0, 3, 4, 5]);
    assert_eq!(g.targets(), &[2, 1, 2, 0, 2]);
    assert_eq!(g.weights(), &[1.0, 3.0, 0.0, 2.0, 0.5]);
    assert_eq!(g.weights()[2].to_bits(), 0, "-0.0 stored as +0.0");
    assert_eq!(g.reverse_offsets(), &[0, 1, 2, 5]);
    assert_eq!(g.sources(), &[1, 0, 0, 2, 0]);
    assert_eq!(g.reverse_weights()[..], [2.0, 3.0, 1.0, 0.5, 0.0]);
    assert_eq!(g.edge_count(), 5);
}

#[test]
fn fingerprint_matches_independent_fnv() {
    let empty = CsrGraph::new(0, &[]).unwrap();
    assert_eq!(empty.fingerprint(), fnv(&[0u8; 8]));
    let g = CsrGraph::new(2, &[GraphEdge::new(0, 1, 1.5), GraphEdge::new(1, 0, -0.0)]).unwrap();
    let mut b = Vec::new();
    b.extend_from_slice(&2u32.to_le_bytes());
    for o in [0u32, 1, 2] {
        b.extend_from_slice(&o.to_le_bytes());
    }
    b.extend_from_slice(&1u32.to_le_bytes());
    b.extend_from_slice(&1.5f64.to_bits().to_le_bytes());
    b.extend_from_slice(&0u32.to_le_bytes());
    b.extend_from_slice(&0u64.to_le_bytes());
    assert_eq!(g.fingerprint(), fnv(&b));
    let g2 = CsrGraph::new(2, &[GraphEdge::new(0, 1, 1.5), GraphEdge::new(1, 0, 0.0)]).unwrap();
    assert_eq!(g.fingerprint(), g2.fingerprint());
}

// pins [GRAPH.ERR.DETAILS] [GRAPH.API.INDEX]: besides class and edge index, the messages must name which endpoint (`from`, `to`), the value and the node count, and a too-large node count has no index; an error that drops a detail the clause names, or names the wrong index, fails.
#[test]
fn csr_validation_errors() {
    let e = CsrGraph::new(MAX_NODES + 1, &[]).unwrap_err();
    assert_eq!((e.class(), e.index()), ("too_many_nodes", None));
    let bad = [GraphEdge::new(0, 1, 1.0), GraphEdge::new(5, 7, f64::NAN)];
    let e = CsrGraph::new(3, &bad).unwrap_err();
    assert_eq!((e.class(), e.index()), ("endpoint_out_of_range", Some(1)));
    assert!(e.to_string().contains("from"), "{e}");
    assert!(e.to_string().contains("= 5"), "{e}");
    assert!(e.to_string().contains('3'), "{e}");
    let e = CsrGraph::new(3, &[GraphEdge::new(0, 9, f64::NAN)]).unwrap_err();
    assert!(e.to_string().contains("`to`"), "{e}");
    assert!(e.to_string().contains("9"), "{e}");
    for w in [f64::NAN, f64::INFINITY, -1.0, f64::NEG_INFINITY] {
        let e =
            CsrGraph::new(3, &[GraphEdge::new(0, 0, 1.0), GraphEdge::new(0, 1, w)]).unwrap_err();
        assert_eq!((e.class(), e.index()), ("invalid_weight", Some(1)));
    }
}

// pins [GRAPH.MUT.ADD_EDGE]: add_edge with a bad endpoint and with a bad weight must fail naming the id the edge would get (2) and add nothing (the edge count stays 2, the next good edge gets id 2); naming another index, or keeping a half-added edge, fails.
#[test]
fn mutable_ids_edits_and_errors() {
    let mut g = Graph::new(3).unwrap();
    assert_eq!(g.add_edge(0, 1, 1.0).unwrap(), 0);
    assert_eq!(g.add_edge(1, 2, 1.0).unwrap(), 1);
    let e = g.add_edge(0, 3, 1.0).unwrap_err();
    assert_eq!((e.class(), e.index()), ("endpoint_out_of_range", Some(2)));
    let e = g.add_edge(0, 1, -2.0).unwrap_err();
    assert_eq!((e.class(), e.index()), ("invalid_weight", Some(2)));
    assert_eq!(g.edge_count(), 2);
    let c = g.compile().clone();
    assert!(!g.is_stale());
    assert_eq!(c.targets(), &[1, 2]);
    g.remove_edge(0).unwrap();
    assert!(g.is_stale());
    assert_eq!(g.remove_edge(0).unwrap_err().class(), "removed_edge");
    assert_eq!(g.set_weight(0, 2.0).unwrap_err().class(), "removed_edge");
    let e = g.set_weight(7, 2.0).unwrap_err();
    assert_eq!((e.class(), e.index()), ("unknown_edge", Some(7)));
    let e = g.set_weight(1, f64::NAN).unwrap_err();
    assert_eq!((e.class(), e.index()), ("invalid_weight", Some(1)));
    g.set_weight(1, -0.0).unwrap();
    assert_eq!(g.edge(1).unwrap().0.weight.to_bits(), 0);
    assert_eq!(g.edge(0).unwrap().1, false);
    assert!(g.edge(2).is_none());
    assert_eq!(g.add_edge(2, 0, 4.0).unwrap(), 2, "ids never reused");
    let c = g.compile();
    assert_eq!(c.offsets(), &[0, 0, 1, 2]);
    assert_eq!(c.targets(), &[2, 0]);
    assert_eq!(g.add_node().unwrap(), 3);
    assert_eq!(g.compile().node_count(), 4);
    assert_eq!(
        Graph::new(MAX_NODES + 1).err().unwrap().class(),
        "too_many_nodes"
    );
}

#[test]
fn from_edges_ids_and_counts() {
    let input = [GraphEdge::new(0, 2, 1.0), GraphEdge::new(1, 1, 2.0)];
    let g = Graph::from_edges(&input, None, false).unwrap();
    assert_eq!(g.node_count(), 3);
    assert_eq!(g.edge_count(), 4);
    assert_eq!(g.edge(1).unwrap().0, GraphEdge::new(2, 0, 1.0));
    assert_eq!(
        g.edge(3).unwrap().0,
        GraphEdge::new(1, 1, 2.0),
        "self-loop added twice"
    );
    let d = Graph::from_edges(&input, Some(5), true).unwrap();
    assert_eq!((d.node_count(), d.edge_count()), (5, 2));
    assert_eq!(Graph::from_edges(&[], None, true).unwrap().node_count(), 0);
    let e = Graph::from_edges(&input, Some(2), false).err().unwrap();
    assert_eq!((e.class(), e.index()), ("endpoint_out_of_range", Some(0)));
    let bad = [
        GraphEdge::new(0, 1, 1.0),
        GraphEdge::new(0, 1, f64::INFINITY),
    ];
    let e = Graph::from_edges(&bad, None, false).err().unwrap();
    assert_eq!((e.class(), e.index()), ("invalid_weight", Some(1)));
}

#[test]
fn send_sync() {
    fn check<T: Send + Sync>() {}
    check::<CsrGraph>();
    check::<Graph>();
    check::<PointGraph>();
    check::<Landmarks>();
}
