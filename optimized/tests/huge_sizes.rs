//! A sweep of the public constructors and byte readers at and past their size limits: every
//! request past a limit is a typed error of the documented class, checked before anything of
//! that size is allocated (the tests would abort or take gigabytes otherwise).

use onepath::*;

fn build_class<T>(r: Result<T, BuildError>) -> &'static str {
    r.err().map(|e| e.class()).unwrap_or("ok")
}

fn grid_class<T>(r: Result<T, GridError>) -> &'static str {
    r.err().map(|e| e.class()).unwrap_or("ok")
}

// pins [GRAPH.CSR.LIMIT]: CsrGraph::new, Graph::new and from_edges with 2^26 + 1 and usize::MAX nodes must fail with too_many_nodes before allocating, and 2^26 nodes must build; a limit off by one, or a check after the allocation (which aborts the test), fails.
#[test]
fn graph_constructors_past_the_node_limit() {
    // [GRAPH.CSR.LIMIT] [GRAPH.MUT.NODES] [GRAPH.MUT.FROM_ERRORS]
    for n in [MAX_NODES + 1, usize::MAX] {
        assert_eq!(build_class(CsrGraph::new(n, &[])), "too_many_nodes");
        assert_eq!(build_class(Graph::new(n)), "too_many_nodes");
        assert_eq!(
            build_class(Graph::from_edges(&[], Some(n), true)),
            "too_many_nodes"
        );
    }
    // A largest endpoint of 2^26 (so N would be 2^26 + 1), or u32::MAX, with no node count.
    for v in [MAX_NODES as u32, u32::MAX] {
        let e = [GraphEdge::new(0, v, 1.0)];
        assert_eq!(
            build_class(Graph::from_edges(&e, None, false)),
            "too_many_nodes"
        );
    }
    // At the limit, a graph without edges is accepted.
    assert_eq!(Graph::new(MAX_NODES).unwrap().node_count(), MAX_NODES);
}

#[test]
fn grids_at_and_past_the_cell_limit() {
    // [GRID.SQUARE.SIZE] [GRID.VOXEL.SIZE]: width * height (* depth) <= 2^26, no overflow.
    let side = 1usize << 13;
    assert_eq!(grid_class(Grid::new(side, side)), "ok");
    for (w, h) in [
        (side, side + 1),
        (usize::MAX, 2),
        (usize::MAX, usize::MAX),
        (0, 1),
    ] {
        assert_eq!(grid_class(Grid::new(w, h)), "invalid_size", "{w} x {h}");
        assert_eq!(
            grid_class(HexGrid::new(w, h, HexLayout::OddR)),
            "invalid_size"
        );
    }
    for s in [
        [1 << 9, 1 << 9, (1 << 8) + 1],
        [usize::MAX, usize::MAX, 2],
        [1 << 32, 1 << 32, 1 << 32],
    ] {
        assert_eq!(
            grid_class(VoxelGrid::new(s[0], s[1], s[2], 0)),
            "invalid_size"
        );
    }
    assert_eq!(grid_class(VoxelGrid::new(1 << 9, 1 << 9, 1 << 8, 0)), "ok");
}

#[test]
fn oplm_header_claiming_a_huge_table() {
    // [GRAPH.OPLM.CHECKS]: k up to i32::MAX on a 3-node graph is count_out_of_range; k = N with
    // a short body is length_mismatch; neither allocates the claimed table.
    let graph = CsrGraph::new(3, &[GraphEdge::new(0, 1, 1.0)]).unwrap();
    let header = |n: i32, k: i32| {
        let mut b = b"OPLM".to_vec();
        b.extend(1u32.to_le_bytes());
        b.extend(n.to_le_bytes());
        b.extend(k.to_le_bytes());
        b.extend(graph.fingerprint().to_le_bytes());
        b
    };
    let e = Landmarks::deserialize(&header(3, i32::MAX), &graph).unwrap_err();
    assert_eq!(e.class(), "count_out_of_range");
    let e = Landmarks::deserialize(&header(3, 3), &graph).unwrap_err();
    assert_eq!(e.class(), "length_mismatch");
    let e = Landmarks::deserialize(&header(i32::MAX, 1), &graph).unwrap_err();
    assert_eq!(e.class(), "node_count_mismatch");
}
