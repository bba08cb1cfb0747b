//! [GRAPH.PT] tests: distances, radius / nearest / both modes, link_valid order, errors.
#![allow(clippy::type_complexity, clippy::unnecessary_map_or)]

mod common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use common::Lcg;
use onepath_reference::{
    distance, squared_distance, Algorithm, BuildError, CsrGraph, GraphEdge, GraphOptions,
    LinkOptions, PathStatus, Point3, PointGraph,
};

fn p(x: f64, y: f64, z: f64) -> Point3 {
    Point3::new(x, y, z)
}

fn fail<T>(r: Result<T, BuildError>) -> BuildError {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    }
}

/// The undirected pairs of a point graph's CSR, checking each appears in both directions.
fn pairs(g: &PointGraph) -> BTreeSet<(u32, u32)> {
    let csr = g.csr();
    let mut set = BTreeSet::new();
    for u in 0..csr.node_count() {
        for s in csr.offsets()[u] as usize..csr.offsets()[u + 1] as usize {
            let v = csr.targets()[s];
            set.insert(((u as u32).min(v), (u as u32).max(v)));
        }
    }
    set
}

/// A recording link_valid that rejects the pairs in `reject`.
fn recorder(reject: Vec<(u32, u32)>) -> (LinkOptions, Arc<Mutex<Vec<(u32, u32)>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let l2 = log.clone();
    let opts = LinkOptions {
        link_valid: Some(Arc::new(move |a, b| {
            l2.lock().unwrap().push((a, b));
            !reject.contains(&(a, b))
        })),
        ..LinkOptions::default()
    };
    (opts, log)
}

/// 0 at x=0, 1 at x=1, 2 at x=3, 3 at x=7, 4 at x=3 (same place as 2).
fn line() -> Vec<Point3> {
    vec![
        p(0.0, 0.0, 0.0),
        p(1.0, 0.0, 0.0),
        p(3.0, 0.0, 0.0),
        p(7.0, 0.0, 0.0),
        p(3.0, 0.0, 0.0),
    ]
}

#[test]
fn distance_is_evaluated_in_clause_order() {
    let (a, b) = (p(0.1, 0.2, 0.3), p(1.7, -2.9, 4.1));
    let (dx, dy, dz): (f64, f64, f64) = (1.7 - 0.1, -2.9 - 0.2, 4.1 - 0.3);
    assert_eq!(
        squared_distance(a, b).to_bits(),
        ((dx * dx + dy * dy) + dz * dz).to_bits()
    );
    assert_eq!(
        distance(a, b).to_bits(),
        ((dx * dx + dy * dy) + dz * dz).sqrt().to_bits()
    );
}

#[test]
fn radius_mode_by_hand_with_call_order() {
    let (mut opts, log) = recorder(vec![]);
    opts.max_distance = 2.5;
    let g = PointGraph::new(&line(), &opts).unwrap();
    let expected: BTreeSet<_> = [(0, 1), (1, 2), (1, 4), (2, 4)].into_iter().collect();
    assert_eq!(pairs(&g), expected);
    assert_eq!(*log.lock().unwrap(), vec![(0, 1), (1, 2), (1, 4), (2, 4)]);
    // [GRAPH.PT.MERGE] edges min -> max then max -> min in pair order, weighted by distance
    let pts = line();
    let mut edges = Vec::new();
    for (a, b) in expected {
        let w = distance(pts[a as usize], pts[b as usize]);
        edges.push(GraphEdge::new(a, b, w));
        edges.push(GraphEdge::new(b, a, w));
    }
    let want = CsrGraph::new(5, &edges).unwrap();
    assert_eq!(g.csr().fingerprint(), want.fingerprint());
    assert_eq!(g.csr().targets(), want.targets());
}

#[test]
fn nearest_mode_by_hand_with_call_order() {
    let (mut opts, log) = recorder(vec![]);
    opts.nearest_count = 1;
    let g = PointGraph::new(&line(), &opts).unwrap();
    assert_eq!(pairs(&g), [(0, 1), (2, 3), (2, 4)].into_iter().collect());
    // no memo: (0, 1) is asked from both ends; 3's tie between 2 and 4 goes to 2
    assert_eq!(
        *log.lock().unwrap(),
        vec![(0, 1), (0, 1), (2, 4), (2, 3), (2, 4)]
    );

    let (mut opts, log) = recorder(vec![(2, 4)]);
    opts.nearest_count = 1;
    let g = PointGraph::new(&line(), &opts).unwrap();
    assert_eq!(
        pairs(&g),
        [(0, 1), (1, 2), (1, 4), (2, 3)].into_iter().collect()
    );
    assert_eq!(
        *log.lock().unwrap(),
        vec![(0, 1), (0, 1), (2, 4), (1, 2), (2, 3), (2, 4), (1, 4)]
    );
}

#[test]
fn both_mode_caps_nearest_candidates_and_adds_no_radius_links() {
    let (mut opts, log) = recorder(vec![]);
    opts.nearest_count = 2;
    opts.max_distance = 2.5;
    let g = PointGraph::new(&line(), &opts).unwrap();
    assert_eq!(
        pairs(&g),
        [(0, 1), (1, 2), (1, 4), (2, 4)].into_iter().collect()
    );
    assert_eq!(
        *log.lock().unwrap(),
        vec![(0, 1), (0, 1), (1, 2), (2, 4), (1, 2), (2, 4), (1, 4)]
    );
    // k = 1 with the cap: 1's nearest is 0, so the radius pair (1, 2) is not a link
    let opts = LinkOptions {
        nearest_count: 1,
        max_distance: 2.5,
        ..LinkOptions::default()
    };
    let g = PointGraph::new(&line(), &opts).unwrap();
    assert_eq!(pairs(&g), [(0, 1), (2, 4)].into_iter().collect());
}

#[test]
fn explicit_links_merge_and_skip_link_valid() {
    let (mut opts, log) = recorder(vec![]);
    opts.explicit = vec![(3, 0), (0, 3), (1, 1), (4, 2)];
    let g = PointGraph::new(&line(), &opts).unwrap();
    assert_eq!(pairs(&g), [(0, 3), (2, 4)].into_iter().collect());
    assert_eq!(g.csr().edge_count(), 4);
    assert!(log.lock().unwrap().is_empty());
    // explicit and generated links are merged without duplicates
    let (mut opts, _) = recorder(vec![]);
    opts.explicit = vec![(1, 0)];
    opts.max_distance = 1.0;
    let g = PointGraph::new(&line(), &opts).unwrap();
    assert_eq!(g.csr().edge_count(), 4); // (0, 1) and (2, 4)
}

/// Independent nearest selection: repeatedly take the smallest remaining (d2, j).
fn brute_nearest(pts: &[Point3], k: usize, md: f64) -> BTreeSet<(u32, u32)> {
    let mut set = BTreeSet::new();
    for i in 0..pts.len() {
        let mut used = vec![false; pts.len()];
        used[i] = true;
        for _ in 0..k {
            let mut best: Option<(f64, usize)> = None;
            for j in 0..pts.len() {
                if used[j] {
                    continue;
                }
                let d = squared_distance(pts[i], pts[j]);
                if best.map_or(true, |(bd, _)| d < bd) {
                    best = Some((d, j));
                }
            }
            let Some((d, j)) = best else { break };
            used[j] = true;
            if md > 0.0 && d > md * md {
                break;
            }
            set.insert((i.min(j) as u32, i.max(j) as u32));
        }
    }
    set
}

#[test]
fn random_point_sets_against_brute_force() {
    let mut rng = Lcg(21);
    for trial in 0..60 {
        let n = rng.below(14) as usize;
        let pts: Vec<Point3> = (0..n)
            .map(|_| {
                p(
                    rng.below(5) as f64,
                    rng.below(5) as f64,
                    rng.below(2) as f64,
                )
            })
            .collect();
        let md = rng.below(4) as f64 * 0.75;
        // radius
        if md > 0.0 {
            let g = PointGraph::new(
                &pts,
                &LinkOptions {
                    max_distance: md,
                    ..Default::default()
                },
            )
            .unwrap();
            let mut want = BTreeSet::new();
            for a in 0..n {
                for b in a + 1..n {
                    if distance(pts[a], pts[b]) <= md {
                        want.insert((a as u32, b as u32));
                    }
                }
            }
            assert_eq!(pairs(&g), want, "radius trial {trial}");
            // [GRAPH.PT.PERMUTE] reversing the input gives the same pairs of positions
            let rev: Vec<Point3> = pts.iter().rev().copied().collect();
            let g2 = PointGraph::new(
                &rev,
                &LinkOptions {
                    max_distance: md,
                    ..Default::default()
                },
            )
            .unwrap();
            let back: BTreeSet<_> = pairs(&g2)
                .into_iter()
                .map(|(a, b)| {
                    let (a, b) = (n as u32 - 1 - a, n as u32 - 1 - b);
                    (a.min(b), a.max(b))
                })
                .collect();
            assert_eq!(back, want);
        }
        // nearest, with and without the cap
        let k = 1 + rng.below(3) as usize;
        let opts = LinkOptions {
            nearest_count: k,
            max_distance: md,
            ..Default::default()
        };
        let g = PointGraph::new(&pts, &opts).unwrap();
        assert_eq!(
            pairs(&g),
            brute_nearest(&pts, k, md),
            "nearest trial {trial} k {k} md {md}"
        );
        // nearest_node against a scan
        if n > 0 {
            let q = p(rng.below(9) as f64 * 0.5, rng.below(9) as f64 * 0.5, 0.0);
            let best = (0..n)
                .min_by(|&a, &b| {
                    squared_distance(pts[a], q)
                        .partial_cmp(&squared_distance(pts[b], q))
                        .unwrap()
                        .then(a.cmp(&b))
                })
                .unwrap();
            assert_eq!(g.nearest_node(q).unwrap(), best as u32);
        }
    }
}

#[test]
fn coordinate_errors_name_point_axis_value_and_bound() {
    let bound = (1u64 << 21) as f64;
    let ok = [p(bound, -bound, 0.0)];
    assert!(PointGraph::new(&ok, &LinkOptions::default()).is_ok());
    let pts = [
        p(0.0, 0.0, 0.0),
        p(1.0, 2.0, 3.0),
        p(0.0, f64::INFINITY, f64::NAN),
    ];
    let err = fail(PointGraph::new(&pts, &LinkOptions::default()));
    assert_eq!(
        (err.class(), err.index()),
        ("coordinate_out_of_range", Some(2))
    );
    let msg = err.to_string();
    assert!(
        msg.contains("point 2") && msg.contains(" y ") && msg.contains("inf"),
        "{msg}"
    );
    assert!(msg.contains("2097152"), "{msg}");
    let pts = [p(0.0, 0.0, bound + 1.0)];
    let err = fail(PointGraph::new(&pts, &LinkOptions::default()));
    assert!(err.to_string().contains(" z "), "{err}");
    assert_eq!(err.index(), Some(0));
}

#[test]
fn max_distance_and_link_errors() {
    let pts = line();
    for md in [-1.0, f64::NAN, f64::INFINITY, 1.0 / (1u64 << 31) as f64] {
        let err = fail(PointGraph::new(
            &pts,
            &LinkOptions {
                max_distance: md,
                ..Default::default()
            },
        ));
        assert_eq!((err.class(), err.index()), ("invalid_max_distance", None));
    }
    for md in [0.0, -0.0, 1.0 / (1u64 << 30) as f64] {
        assert!(PointGraph::new(
            &pts,
            &LinkOptions {
                max_distance: md,
                ..Default::default()
            }
        )
        .is_ok());
    }
    let opts = LinkOptions {
        explicit: vec![(0, 1), (1, 5)],
        ..Default::default()
    };
    let err = fail(PointGraph::new(&pts, &opts));
    assert_eq!((err.class(), err.index()), ("link_out_of_range", Some(1)));
}

#[test]
fn nearest_node_errors_and_position_queries() {
    let opts = LinkOptions {
        max_distance: 2.5,
        ..Default::default()
    };
    let g = PointGraph::new(&line(), &opts).unwrap();
    assert_eq!(
        g.nearest_node(p(3.0, 0.0, 0.0)).unwrap(),
        2,
        "tie: smaller id"
    );
    assert_eq!(g.nearest_node(p(2.9, 1.0, 0.0)).unwrap(), 2);
    let err = g.nearest_node(p(0.0, f64::NAN, 0.0)).unwrap_err();
    assert_eq!(err.class(), "invalid_position");
    let empty = PointGraph::new(&[], &LinkOptions::default()).unwrap();
    assert_eq!(
        empty.nearest_node(p(0.0, 0.0, 0.0)).unwrap_err().class(),
        "empty_graph"
    );

    let r = g
        .find_path_between(
            p(-1.0, 0.0, 0.0),
            p(3.1, 0.2, 0.0),
            &GraphOptions::default(),
        )
        .unwrap();
    assert_eq!(r.status, PathStatus::Found);
    assert_eq!(r.nodes, vec![0, 1, 2]);
    assert_eq!(r.cost, 3.0);
    assert_eq!(
        r.algorithm,
        Algorithm::AStar,
        "a point graph always has the Euclidean estimate"
    );
    let r = g.find_path(0, 3, &GraphOptions::default()).unwrap();
    assert_eq!(r.status, PathStatus::NotFound);
}
