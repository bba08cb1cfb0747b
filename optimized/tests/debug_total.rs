//! [DEBUG.TOTAL] Describe calls on results passed with a grid (or positions) that is not their own.

use onepath::*;

// pins [DEBUG.TOTAL]: results of a 30 x 20 square grid, a 30 x 20 hex grid, a 12 x 10 x 6 voxel grid and a 10-node graph are described with a 3 x 2 grid, a 2 x 2 x 1 voxel grid and 2 or no positions: every call must return (no panic), each expanded cell index beyond the small grid must get the centre of (c mod w, c div w) of the given grid's width, and graph positions must be empty when one is missing; a describe that indexes the given grid's cells, divides by a zero width or reads a missing position panics or gives other points.
#[test]
fn describe_is_total_on_foreign_results() {
    let big = Grid::new(30, 20).unwrap();
    let small = Grid::new(3, 2).unwrap();
    let o = GridOptions {
        record_expansions: true,
        ..GridOptions::default()
    };
    let p = find_grid_path(&big, (0, 0), (29, 19), &o).unwrap();
    assert!(p.expanded.iter().any(|&c| c >= 6), "expands beyond 3 x 2");
    let d = describe_path(&small, &p);
    assert_eq!((d.width, d.height), (3, 2));
    assert_eq!(d.expanded_points.len(), p.expanded.len());
    for (&c, &(x, y)) in p.expanded.iter().zip(&d.expanded_points) {
        assert_eq!(
            (x, y),
            ((c % 3) as f64 + 0.5, (c / 3) as f64 + 0.5),
            "cell {c}"
        );
    }
    let hbig = HexGrid::new(30, 20, HexLayout::OddQ).unwrap();
    let hsmall = HexGrid::new(3, 2, HexLayout::OddQ).unwrap();
    let hp = find_hex_path(&hbig, (0, 0), (29, 19), &o).unwrap();
    let hd = describe_hex_path(&hsmall, &hp);
    assert_eq!(hd.expanded_points.len(), hp.expanded.len());
    let vbig = VoxelGrid::new(12, 10, 6, 1).unwrap();
    let vsmall = VoxelGrid::new(2, 2, 1, 1).unwrap();
    let vo = VoxelOptions {
        record_expansions: true,
        ..VoxelOptions::default()
    };
    let vp = find_voxel_path(&vbig, (0, 0, 0), (11, 9, 5), &vo).unwrap();
    let vd = describe_voxel_path(&vsmall, &vp);
    assert_eq!(vd.expanded_points.len(), vp.expanded.len());
    for (&c, &(x, y, z)) in vp.expanded.iter().zip(&vd.expanded_points) {
        let c = c as usize;
        let want = (
            (c % 2) as f64 + 0.5,
            ((c / 2) % 2) as f64 + 0.5,
            (c / 4) as f64 + 0.5,
        );
        assert_eq!((x, y, z), want, "voxel {c}");
    }
    let edges: Vec<GraphEdge> = (0..9).map(|i| GraphEdge::new(i, i + 1, 1.0)).collect();
    let g = Graph::from_edges(&edges, None, true).unwrap();
    let r = g
        .find_path(
            0,
            9,
            &GraphOptions {
                record_expansions: true,
                ..Default::default()
            },
        )
        .unwrap();
    let two = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)];
    for positions in [Some(&two[..]), Some(&[][..]), None] {
        let gd = describe_graph_path(&r, positions);
        assert_eq!(gd.nodes, r.nodes);
        assert!(gd.positions.is_empty());
    }
}
