mod common;
use common::*;
use onepath::*;
use std::sync::{Arc, Mutex};

/// Brute-force nearest / radius link building straight from the clauses.
fn brute_links(pts: &[Point3], o: &LinkOptions, calls: &mut Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    let n = pts.len();
    let mut pairs = Vec::new();
    for &(a, b) in &o.explicit {
        if a != b {
            pairs.push((a.min(b), a.max(b)));
        }
    }
    let md2 = o.max_distance * o.max_distance;
    let ask = |a: u32, b: u32, calls: &mut Vec<(u32, u32)>| {
        calls.push((a, b));
        o.link_valid.as_ref().map_or(true, |f| f(a, b))
    };
    if o.nearest_count > 0 {
        for i in 0..n {
            let mut c: Vec<(f64, u32)> = (0..n)
                .filter(|&j| j != i)
                .map(|j| (squared_distance(pts[i], pts[j]), j as u32))
                .collect();
            c.sort_by(|x, y| x.0.partial_cmp(&y.0).unwrap().then(x.1.cmp(&y.1)));
            let mut acc = 0;
            for (d2, j) in c {
                if o.max_distance > 0.0 && d2 > md2 {
                    break;
                }
                let (a, b) = ((i as u32).min(j), (i as u32).max(j));
                if ask(a, b, calls) {
                    pairs.push((a, b));
                    acc += 1;
                    if acc == o.nearest_count {
                        break;
                    }
                }
            }
        }
    } else if o.max_distance > 0.0 {
        for a in 0..n {
            for b in a + 1..n {
                if squared_distance(pts[a], pts[b]) <= md2 && ask(a as u32, b as u32, calls) {
                    pairs.push((a as u32, b as u32));
                }
            }
        }
    }
    pairs.sort();
    pairs.dedup();
    pairs
}

fn cloud(rng: &mut Xs, kind: u64, n: usize) -> Vec<Point3> {
    let mut pts: Vec<Point3> = Vec::new();
    for i in 0..n {
        let p = match kind {
            0 => Point3::new(rng.unit() * 100.0, rng.unit() * 100.0, 0.0),
            1 => Point3::new((rng.below(6)) as f64, (rng.below(6)) as f64, 0.0), // many duplicates
            2 => Point3::new(i as f64 * 0.5, 3.0, 0.0), // collinear, equal gaps
            3 => Point3::new(rng.unit() * 10.0, rng.unit() * 10.0, rng.unit() * 10.0),
            4 => {
                // two far clusters and exact copies of earlier points
                if i > 0 && rng.below(4) == 0 {
                    pts[rng.below(i as u64) as usize]
                } else {
                    let off = if rng.below(2) == 0 { 0.0 } else { 5000.0 };
                    Point3::new(off + rng.unit(), -off + rng.unit(), 0.0)
                }
            }
            _ => Point3::new(1.0, 1.0, 1.0), // zero extent
        };
        pts.push(p);
    }
    pts
}

// pins [GRAPH.PT.VALID] [GRAPH.PT.VALID_ORDER]: in 120 random clouds (radius, nearest and both modes, explicit links, duplicates and ties) the link_valid calls are recorded and must equal, in order, those of a brute-force builder that asks only about generated pairs as (min, max), radius pairs in increasing (a, b), nearest candidates point by point in nearest order up to the k-th acceptance and again from the other end; asking about explicit links, with a > b, in another order, or memoising, fails.
#[test]
fn ring_search_equals_brute_force_with_call_order() {
    let mut rng = Xs(0xfeed_beef);
    for round in 0..120 {
        let kind = round % 6;
        let n = 1 + rng.below(70) as usize;
        let pts = cloud(&mut rng, kind, n);
        let reject = rng.below(3);
        let log = Arc::new(Mutex::new(Vec::new()));
        let l2 = log.clone();
        let valid: Option<LinkValidFn> = if reject == 0 {
            None
        } else {
            Some(Arc::new(move |a: u32, b: u32| {
                l2.lock().unwrap().push((a, b));
                (a * 7 + b * 3) % (reject as u32 + 2) != 0
            }))
        };
        let mode = rng.below(3);
        let o = LinkOptions {
            explicit: if rng.below(2) == 0 {
                vec![(0, (n - 1) as u32), (0, 0)]
            } else {
                vec![]
            },
            max_distance: if mode == 1 {
                0.0
            } else {
                [0.7, 3.0, 40.0][rng.below(3) as usize]
            },
            nearest_count: if mode == 2 {
                0
            } else {
                1 + rng.below(6) as usize
            },
            link_valid: valid.clone(),
        };
        let g = PointGraph::new(&pts, &o).unwrap();
        let got_calls = std::mem::take(&mut *log.lock().unwrap());
        let mut calls = Vec::new();
        let bo = LinkOptions {
            link_valid: valid.map(|f| Arc::new(move |a, b| f(a, b)) as LinkValidFn),
            ..o.clone()
        };
        let want = brute_links(&pts, &bo, &mut calls);
        log.lock().unwrap().clear();
        if reject != 0 {
            assert_eq!(got_calls, calls, "link_valid call order, round {round}");
        }
        let mut edges = Vec::new();
        for &(a, b) in &want {
            let w = distance(pts[a as usize], pts[b as usize]);
            edges.push(GraphEdge::new(a, b, w));
            edges.push(GraphEdge::new(b, a, w));
        }
        let expect = CsrGraph::new(n, &edges).unwrap();
        assert_eq!(
            g.csr().targets(),
            expect.targets(),
            "round {round} kind {kind}"
        );
        assert_eq!(g.csr().offsets(), expect.offsets());
        assert_eq!(g.csr().fingerprint(), expect.fingerprint());
    }
}

#[test]
fn larger_cloud_nearest_matches_brute_force() {
    let mut rng = Xs(99);
    let pts: Vec<Point3> = (0..1500)
        .map(|_| {
            Point3::new(
                (rng.below(300) as f64) * 0.25,
                (rng.below(300) as f64) * 0.25,
                0.0,
            )
        })
        .collect();
    let o = LinkOptions {
        nearest_count: 6,
        ..Default::default()
    };
    let g = PointGraph::new(&pts, &o).unwrap();
    let want = brute_links(&pts, &o, &mut Vec::new());
    let got: Vec<(u32, u32)> = (0..pts.len() as u32)
        .flat_map(|a| {
            let off = g.csr().offsets();
            g.csr().targets()[off[a as usize] as usize..off[a as usize + 1] as usize]
                .iter()
                .filter(move |&&b| b > a)
                .map(move |&b| (a, b))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(got, want);
}

// pins [GRAPH.PT.CHECKS] [GRAPH.PT.MAXDIST] [GRAPH.PT.MAXDIST_FINITE] [GRAPH.API.INDEX]: inputs with several faults must report the first in the order coordinates, max_distance, explicit links (a bad point names its index, a bad link its position, max_distance no index); NaN, +infinity, -1 and 1e-10 are invalid_max_distance while 0, -0.0 and 2^-30 are accepted, and a pair at exactly max_distance is linked. Another check order, an index on the wrong class, an accepted infinity or an exclusive radius fails.
#[test]
fn point_errors_in_check_order() {
    let ok = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)];
    let bad = [Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, f64::NAN, 3e6)];
    let o = LinkOptions {
        max_distance: -1.0,
        explicit: vec![(0, 5)],
        ..Default::default()
    };
    let e = PointGraph::new(&bad, &o).err().unwrap();
    assert_eq!((e.class(), e.index()), ("coordinate_out_of_range", Some(1)));
    assert!(e.to_string().contains("y ="), "{e}");
    let edge = [Point3::new(2097152.0, -2097152.0, 0.0)];
    assert!(
        PointGraph::new(&edge, &LinkOptions::default()).is_ok(),
        "bound is inclusive"
    );
    let e = PointGraph::new(&ok, &o).err().unwrap();
    assert_eq!((e.class(), e.index()), ("invalid_max_distance", None));
    for md in [f64::NAN, f64::INFINITY, 1e-10] {
        let o = LinkOptions {
            max_distance: md,
            ..Default::default()
        };
        assert_eq!(
            PointGraph::new(&ok, &o).err().unwrap().class(),
            "invalid_max_distance"
        );
    }
    let o = LinkOptions {
        explicit: vec![(0, 1), (1, 2)],
        max_distance: -0.0,
        ..Default::default()
    };
    let e = PointGraph::new(&ok, &o).err().unwrap();
    assert_eq!((e.class(), e.index()), ("link_out_of_range", Some(1)));
    // 2^-30 is the smallest radius; a pair at exactly max_distance is within it.
    let tiny = LinkOptions {
        max_distance: 2f64.powi(-30),
        ..Default::default()
    };
    assert_eq!(PointGraph::new(&ok, &tiny).unwrap().csr().edge_count(), 0);
    let exact = LinkOptions {
        max_distance: 1.0,
        ..Default::default()
    };
    assert_eq!(
        PointGraph::new(&ok, &exact).unwrap().csr().targets(),
        &[1, 0]
    );
    let e = PointGraph::new(&bad, &LinkOptions::default())
        .err()
        .unwrap();
    assert!(e.to_string().contains("2097152"), "{e}");
}

// pins [GRAPH.VAL.PORT_INTS]: a nearest_count of 2^32 - 1 (what a port with signed 32-bit integers reads as -1) or usize::MAX takes every candidate, with and without max_distance, like nearest_count N - 1, and is no error; an implementation that rejects such a count, wraps it to a small one or treats it as 0 builds other links.
#[test]
fn huge_nearest_count_takes_every_candidate() {
    let pts: Vec<Point3> = (0..7)
        .map(|i| Point3::new((i * i) as f64, (i % 3) as f64, 0.0))
        .collect();
    for md in [0.0, 10.0] {
        let all = LinkOptions {
            nearest_count: 6,
            max_distance: md,
            ..Default::default()
        };
        let want = PointGraph::new(&pts, &all).unwrap();
        assert!(want.csr().edge_count() > 0);
        for k in [u32::MAX as usize, usize::MAX] {
            let o = LinkOptions {
                nearest_count: k,
                max_distance: md,
                ..Default::default()
            };
            let got = PointGraph::new(&pts, &o).unwrap();
            assert_eq!(
                got.csr().fingerprint(),
                want.csr().fingerprint(),
                "k {k} md {md}"
            );
        }
    }
}

// pins [GRAPH.PT.NEAREST_NODE] [GRAPH.PT.FIND_BY_POS]: nearest_node breaks an exact distance tie by the smaller id, rejects a position outside the bounds before the empty graph, and find_path_between snaps both positions (0 and 1 here) and runs the node query; on an empty graph a valid first position and an invalid second one must report the first position's empty_graph. Another tie-break, check order or snapping order fails.
#[test]
fn merge_and_nearest_node() {
    let pts = [
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(3.0, 4.0, 0.0),
        Point3::new(3.0, 4.0, 0.0),
    ];
    let o = LinkOptions {
        explicit: vec![(1, 0), (0, 1), (2, 2)],
        ..Default::default()
    };
    let g = PointGraph::new(&pts, &o).unwrap();
    assert_eq!(g.csr().targets(), &[1, 0]);
    assert_eq!(g.csr().weights(), &[5.0, 5.0]);
    assert_eq!(
        g.nearest_node(Point3::new(3.0, 4.0, 0.1)).unwrap(),
        1,
        "tie -> smaller id"
    );
    assert_eq!(
        g.nearest_node(Point3::new(f64::INFINITY, 0.0, 0.0))
            .unwrap_err()
            .class(),
        "invalid_position"
    );
    let empty = PointGraph::new(&[], &LinkOptions::default()).unwrap();
    assert_eq!(
        empty
            .nearest_node(Point3::new(0.0, 0.0, 0.0))
            .unwrap_err()
            .class(),
        "empty_graph"
    );
    assert_eq!(
        empty
            .nearest_node(Point3::new(0.0, 0.0, 1e7))
            .unwrap_err()
            .class(),
        "invalid_position"
    );
    let r = g
        .find_path_between(
            Point3::new(0.1, 0.0, 0.0),
            Point3::new(2.9, 4.0, 0.0),
            &GraphOptions::default(),
        )
        .unwrap();
    assert_eq!(
        (r.status, r.cost, r.nodes.clone(), r.algorithm),
        (PathStatus::Found, 5.0, vec![0, 1], Algorithm::AStar)
    );
    let o = GraphOptions::default();
    let (good, bad) = (Point3::new(0.0, 0.0, 0.0), Point3::new(f64::NAN, 0.0, 0.0));
    assert_eq!(
        empty.find_path_between(good, bad, &o).unwrap_err().class(),
        "empty_graph",
        "the first position snaps first"
    );
    assert_eq!(
        empty.find_path_between(bad, good, &o).unwrap_err().class(),
        "invalid_position"
    );
    assert_eq!(
        g.find_path_between(good, bad, &o).unwrap_err().class(),
        "invalid_position"
    );
}
