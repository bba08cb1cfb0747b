//! The read-only surface of both crates, compared call by call: CSR arrays ([GRAPH.CSR.LAYOUT]),
//! landmark accessors ([GRAPH.ALT.ACCESSORS]), the tier-1 option constructors
//! ([GRAPH.T1.OPTIONS]), voxel grid accessors and listener ids ([GRID.VOXEL.SIZE],
//! [GRID.VERSION.COUNT], [GRID.LISTEN.EDIT]), grid coordinates ([GRID.SQUARE.XY]) and
//! `nearest_node` ([GRAPH.PT.NEAREST_NODE]). No vector reads these accessors (mutation testing
//! found their mutants alive, `MUTANTS.md`); this differential test pins each of them.

use std::sync::{Arc, Mutex};

fn real(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else {
        format!("{:016x}", x.to_bits())
    }
}

macro_rules! observe {
    ($c:ident) => {{
        use $c::*;
        let mut out: Vec<String> = Vec::new();
        // CSR arrays of a small directed graph with a self-loop, parallel edges and a sink.
        let edges: Vec<GraphEdge> = [
            (0, 1, 1.5),
            (1, 2, 2.0),
            (0, 2, 4.0),
            (2, 0, 0.5),
            (1, 1, 3.0),
            (3, 1, 1.0),
            (0, 1, 0.75),
            (2, 4, 2.5),
            (4, 3, 1.25),
        ]
        .iter()
        .map(|&(a, b, w)| GraphEdge::new(a, b, w))
        .collect();
        let g = CsrGraph::new(6, &edges).unwrap();
        out.push(format!("offsets {:?}", g.offsets()));
        out.push(format!("targets {:?}", g.targets()));
        out.push(format!("reverse_offsets {:?}", g.reverse_offsets()));
        out.push(format!("sources {:?}", g.sources()));
        let rw: Vec<String> = g.reverse_weights().iter().map(|&w| real(w)).collect();
        out.push(format!("reverse_weights {rw:?}"));
        // Landmark accessors, in range and out of range.
        for strategy in [LandmarkStrategy::Farthest, LandmarkStrategy::Avoid] {
            let options = LandmarkOptions {
                count: 3,
                strategy,
                seed: 7,
            };
            let t = Landmarks::build(&g, &options).unwrap();
            out.push(format!(
                "count {} nodes {} ids {:?}",
                t.count(),
                t.node_count(),
                t.ids()
            ));
            for l in 0..=t.count() {
                for v in 0..=6u32 {
                    out.push(format!(
                        "l{l} v{v} fwd {} bwd {}",
                        real(t.forward(l, v)),
                        real(t.backward(l, v))
                    ));
                }
            }
            for a in 0..6u32 {
                for b in 0..6u32 {
                    out.push(format!("bound {a} {b} {}", real(t.lower_bound(a, b))));
                }
            }
            let o = GraphOptions::with_landmarks(Arc::new(t));
            out.push(format!(
                "with_landmarks {:?} {}",
                o.algorithm,
                o.landmarks.is_some()
            ));
        }
        let o = GraphOptions::bidirectional();
        out.push(format!(
            "bidirectional {:?} {}",
            o.algorithm,
            o.landmarks.is_some()
        ));
        // Voxel grid accessors and listener ids.
        let mut v = VoxelGrid::new(19, 5, 3, 2).unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let first = v.add_listener(Box::new(move |i, a, b| log.lock().unwrap().push((i, a, b))));
        let second = v.add_listener(Box::new(|_, _, _| {}));
        out.push(format!(
            "voxel ids {first} {second} remove {}",
            v.remove_listener(second)
        ));
        out.push(format!("remove again {}", v.remove_listener(second)));
        v.set_voxel(18, 4, 2, 5).unwrap();
        v.set_voxel(0, 0, 0, 2).unwrap();
        v.set_voxel(3, 1, 1, WALL).unwrap();
        v.set_area_multiplier(5, 2.25).unwrap();
        out.push(format!(
            "voxel size {:?} version {} restores {}",
            v.size(),
            v.version(),
            v.restore_count()
        ));
        out.push(format!("area version {}", v.area_version()));
        for chunk in 0..8 {
            out.push(format!("chunk {chunk} {}", v.is_chunk_allocated(chunk)));
        }
        for area in [0u8, 1, 2, 5, WALL] {
            out.push(format!(
                "mult {area} {:?}",
                v.area_multiplier(area).map(real)
            ));
        }
        out.push(format!("voxel calls {:?}", seen.lock().unwrap()));
        // Square grid coordinates and listener ids.
        let mut grid = Grid::new(7, 5).unwrap();
        let a = grid.add_listener(Box::new(|_, _, _| {}));
        let b = grid.add_listener(Box::new(|_, _, _| {}));
        out.push(format!(
            "grid ids {a} {b} {} {}",
            grid.remove_listener(a),
            grid.remove_listener(a)
        ));
        for i in [0u32, 1, 6, 7, 13, 34, 35, 36, u32::MAX] {
            out.push(format!("xy {i} {:?}", grid.cell_xy(i)));
        }
        for (x, y) in [
            (0, 0),
            (6, 0),
            (7, 0),
            (0, 4),
            (6, 4),
            (0, 5),
            (usize::MAX, 0),
        ] {
            out.push(format!("index {x} {y} {:?}", grid.cell_index(x, y)));
        }
        // nearest_node on a point graph.
        let points: Vec<Point3> = [(0.0, 0.0), (3.0, 0.0), (0.0, 4.0), (3.0, 4.0), (1.5, 2.0)]
            .iter()
            .map(|&(x, y)| Point3::new(x, y, 0.0))
            .collect();
        let links = LinkOptions {
            max_distance: 3.5,
            ..LinkOptions::default()
        };
        let pg = PointGraph::new(&points, &links).unwrap();
        for (x, y) in [
            (0.1, 0.1),
            (2.9, 3.9),
            (1.5, 2.0),
            (1.5, 1.0),
            (-9.0, 9.0),
            (1.5, 0.0),
        ] {
            out.push(format!(
                "nearest {x} {y} {:?}",
                pg.nearest_node(Point3::new(x, y, 0.0)).ok()
            ));
        }
        out
    }};
}

fn reference() -> Vec<String> {
    observe!(onepath_reference)
}

fn optimized() -> Vec<String> {
    observe!(onepath)
}

#[test]
fn both_crates_answer_every_accessor_alike() {
    let (r, o) = (reference(), optimized());
    assert!(r.len() > 150, "only {} observations", r.len());
    for (i, (a, b)) in r.iter().zip(&o).enumerate() {
        assert_eq!(a, b, "observation {i} differs");
    }
    assert_eq!(r.len(), o.len());
}
