//! [GRAPH.MUT] tests: ids, from_edges, edits, errors, lazy compile.

use onepath_reference::{BuildError, Graph, GraphEdge, GraphOptions, PathStatus, MAX_NODES};

fn fail<T>(r: Result<T, BuildError>) -> BuildError {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

fn e(from: u32, to: u32, w: f64) -> GraphEdge {
    GraphEdge::new(from, to, w)
}

#[test]
fn from_edges_undirected_ids_are_2i_and_2i_plus_1() {
    let g = Graph::from_edges(&[e(0, 1, 1.0), e(2, 2, 3.0), e(1, 3, 2.0)], None, false).unwrap();
    assert_eq!(g.node_count(), 4);
    assert_eq!(g.edge_count(), 6);
    assert_eq!(g.edge(0), Some((e(0, 1, 1.0), true)));
    assert_eq!(g.edge(1), Some((e(1, 0, 1.0), true)));
    // [GRAPH.MUT.SELF_LOOP] a self-loop is added twice
    assert_eq!(g.edge(2), Some((e(2, 2, 3.0), true)));
    assert_eq!(g.edge(3), Some((e(2, 2, 3.0), true)));
    assert_eq!(g.edge(4), Some((e(1, 3, 2.0), true)));
    assert_eq!(g.edge(5), Some((e(3, 1, 2.0), true)));
    assert_eq!(g.edge(6), None);
    let csr = g.compile();
    assert_eq!(csr.edge_count(), 6);
    // compiled from live edges in id order: node 2's forward slots are ids 2 and 3
    assert_eq!(csr.offsets(), &[0, 1, 3, 5, 6]);
    assert_eq!(csr.targets(), &[1, 0, 3, 2, 2, 1]);
}

#[test]
fn from_edges_directed_ids_and_counts() {
    let g = Graph::from_edges(&[e(0, 5, 1.0), e(1, 0, 1.0)], None, true).unwrap();
    assert_eq!(g.node_count(), 6);
    assert_eq!(g.edge_count(), 2);
    assert_eq!(g.edge(1), Some((e(1, 0, 1.0), true)));
    let g = Graph::from_edges(&[], None, true).unwrap();
    assert_eq!(g.node_count(), 0);
    let g = Graph::from_edges(&[e(0, 1, 1.0)], Some(10), true).unwrap();
    assert_eq!(g.node_count(), 10);
}

#[test]
fn from_edges_errors_name_the_input_index() {
    let err = fail(Graph::from_edges(
        &[e(0, 1, 1.0), e(1, 2, 1.0), e(2, 7, 1.0)],
        Some(5),
        false,
    ));
    assert_eq!(
        (err.class(), err.index()),
        ("endpoint_out_of_range", Some(2))
    );
    let err = fail(Graph::from_edges(
        &[e(0, 1, 1.0), e(1, 2, f64::NAN)],
        None,
        false,
    ));
    assert_eq!((err.class(), err.index()), ("invalid_weight", Some(1)));
    let err = fail(Graph::from_edges(
        &[e(0, 1, 1.0)],
        Some(MAX_NODES + 1),
        true,
    ));
    assert_eq!((err.class(), err.index()), ("too_many_nodes", None));
    // implicit node count above the limit
    let err = fail(Graph::from_edges(&[e(0, 1 << 26, 1.0)], None, true));
    assert_eq!(err.class(), "too_many_nodes");
    // exactly at the limit the implicit count is fine (2^26 - 1 is the largest id)
    assert!(Graph::from_edges(&[e(0, (1 << 26) - 1, 1.0)], None, true).is_ok());
}

#[test]
fn add_node_and_add_edge() {
    let mut g = Graph::new(2).unwrap();
    assert_eq!(g.add_node().unwrap(), 2);
    assert_eq!(g.add_edge(0, 2, 1.0).unwrap(), 0);
    assert_eq!(g.add_edge(2, 1, -0.0).unwrap(), 1);
    assert_eq!(
        g.edge(1).unwrap().0.weight.to_bits(),
        0,
        "-0.0 is stored as +0.0"
    );
    // a failed add names the id the edge would get and adds nothing
    let err = g.add_edge(0, 3, 1.0).unwrap_err();
    assert_eq!(
        (err.class(), err.index()),
        ("endpoint_out_of_range", Some(2))
    );
    let err = g.add_edge(0, 1, f64::INFINITY).unwrap_err();
    assert_eq!((err.class(), err.index()), ("invalid_weight", Some(2)));
    assert_eq!(g.edge_count(), 2);
    assert_eq!(g.add_edge(1, 0, 2.0).unwrap(), 2);
    assert_eq!(
        Graph::new(MAX_NODES + 1).err().unwrap().class(),
        "too_many_nodes"
    );
}

// pins [GRAPH.MUT.STALE]: a new graph that is not stale, a compile that leaves it stale, a
// remove_edge or set_weight that does not mark it, or a failed edit that does, fails the is_stale
// asserts
#[test]
fn edits_errors_and_staleness() {
    let mut g = Graph::from_edges(&[e(0, 1, 1.0), e(1, 2, 1.0), e(0, 2, 5.0)], None, true).unwrap();
    assert!(g.is_stale());
    let fp0 = g.compile().fingerprint();
    assert!(!g.is_stale());
    let r = g.find_path(0, 2, &GraphOptions::default()).unwrap();
    assert_eq!(
        (r.status, r.cost, r.nodes.clone()),
        (PathStatus::Found, 2.0, vec![0, 1, 2])
    );

    g.remove_edge(1).unwrap();
    assert!(g.is_stale());
    assert_eq!(g.edge(1), Some((e(1, 2, 1.0), false)));
    let r = g.find_path(0, 2, &GraphOptions::default()).unwrap();
    assert_eq!((r.cost, r.nodes), (5.0, vec![0, 2]));
    assert_ne!(g.compile().fingerprint(), fp0);

    // errors: unknown, removed, bad weight naming the id; failed edits change nothing
    let err = g.remove_edge(3).unwrap_err();
    assert_eq!((err.class(), err.index()), ("unknown_edge", Some(3)));
    let err = g.remove_edge(1).unwrap_err();
    assert_eq!((err.class(), err.index()), ("removed_edge", Some(1)));
    let err = g.set_weight(1, 1.0).unwrap_err();
    assert_eq!(err.class(), "removed_edge");
    let err = g.set_weight(7, 1.0).unwrap_err();
    assert_eq!(err.class(), "unknown_edge");
    assert!(!g.is_stale(), "failed edits do not mark the graph stale");
    let err = g.set_weight(2, -2.0).unwrap_err();
    assert_eq!((err.class(), err.index()), ("invalid_weight", Some(2)));
    assert_eq!(g.edge(2), Some((e(0, 2, 5.0), true)));

    g.set_weight(2, 0.5).unwrap();
    assert!(g.is_stale());
    let r = g.find_path(0, 2, &GraphOptions::default()).unwrap();
    assert_eq!(r.cost, 0.5);
    // ids are never reused
    assert_eq!(g.add_edge(2, 0, 1.0).unwrap(), 3);
    // adding a node recompiles with the new count
    g.compile();
    assert_eq!(g.add_node().unwrap(), 3);
    assert_eq!(g.compile().node_count(), 4);
    assert_eq!(g.compile().offsets().len(), 5);
}

#[test]
fn removing_then_restoring_gives_the_same_fingerprint_as_a_fresh_build() {
    let mut g = Graph::from_edges(&[e(0, 1, 1.0), e(1, 2, 2.0)], None, true).unwrap();
    g.remove_edge(0).unwrap();
    let fresh = Graph::from_edges(&[e(1, 2, 2.0)], Some(3), true).unwrap();
    assert_eq!(g.compile().fingerprint(), fresh.compile().fingerprint());
}

#[test]
fn query_node_checks() {
    let g = Graph::new(3).unwrap();
    let err = g.find_path(3, 9, &GraphOptions::default()).unwrap_err();
    assert_eq!(err.class(), "node_out_of_range");
    assert!(err.to_string().contains("start"), "{err}");
    let err = g.find_path(0, 3, &GraphOptions::default()).unwrap_err();
    assert!(err.to_string().contains("goal"), "{err}");
}
