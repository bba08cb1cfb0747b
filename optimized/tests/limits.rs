//! [GRAPH.ALT.LIMIT] [GRAPH.PT.LINK_LIMIT] Requests whose memory would not follow from the input
//! fail with `too_many_nodes` before the memory is asked for (the abort cases).

use onepath::*;

#[test]
fn default_landmarks_past_the_table_limit() {
    // 16 landmarks fit 2^28 / 16 = 2^24 nodes; one node more is refused before allocating
    // the 2 x 16 x N distances (the graph itself holds no edges, only offsets).
    let n = MAX_LANDMARK_ENTRIES / LandmarkOptions::default().count + 1;
    let graph = Graph::new(n).unwrap();
    let e = graph
        .build_landmarks(&LandmarkOptions::default())
        .unwrap_err();
    assert_eq!((e.class(), e.index()), ("too_many_nodes", None));
    assert!(e.to_string().contains("fewer landmarks"), "{e}");
    // invalid_landmark_count is still checked first.
    let zero = LandmarkOptions {
        count: 0,
        ..Default::default()
    };
    assert_eq!(
        graph.build_landmarks(&zero).unwrap_err().class(),
        "invalid_landmark_count"
    );
    // The count used is min(count, N): a huge count on a small graph is within the limit.
    let small = Graph::from_edges(&[GraphEdge::new(0, 1, 1.0)], None, false).unwrap();
    let huge = LandmarkOptions {
        count: usize::MAX,
        ..Default::default()
    };
    assert_eq!(small.build_landmarks(&huge).unwrap().ids().len(), 2);
}

#[test]
fn dense_radius_point_graph_past_the_link_limit() {
    // 20,000 points on a 100 x 200 lattice, a radius covering all of them: ~2 x 10^8 links
    // would be 4 x 10^8 edges; the build stops at the 2^24 + 1st accepted link.
    let points: Vec<Point3> = (0..20_000)
        .map(|i| Point3::new((i % 100) as f64, (i / 100) as f64, 0.0))
        .collect();
    let options = LinkOptions {
        max_distance: 1000.0,
        ..Default::default()
    };
    let e = PointGraph::new(&points, &options).err().unwrap();
    assert_eq!((e.class(), e.index()), ("too_many_nodes", None));
    assert!(
        e.to_string().contains(&MAX_GENERATED_LINKS.to_string()),
        "{e}"
    );
}

// The comparison with the reference crate (`both_crates_agree_on_the_limits`) lives in
// conformance/tests/limits.rs: this crate never names the reference, not even in its tests.
