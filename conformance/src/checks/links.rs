//! The `links` section ([CONF.CHECK.LINKS]): point-graph link building equals the brute-force
//! builder of [`crate::links_bf`] (edges bit for bit and the `link_valid` call order), is stable
//! under permutation of the points, and rejects bad arguments with the spec's classes.

use super::{parallel_cases, Config};
use crate::implementation::{BuildFailure, Implementation, LinkRequest, LinkResult, LinkRule};
use crate::links_bf::{build_links, has_distance_ties};
use crate::prng::{derive_seed, SplitMix64};
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// The link request of set `index` and its mode name.
pub fn link_case(base: u64, index: usize) -> (String, LinkRequest) {
    let seed = derive_seed(base ^ 0x11A5, index as u64);
    let mut rng = SplitMix64::new(seed);
    let n = rng.range(1, 60) as usize;
    let side = (n as f64).sqrt() * 10.0;
    let grid = rng.chance(0.2); // integer coordinates: exact distance ties
    let three_d = rng.chance(0.25);
    let points: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            let mut c = || {
                if grid {
                    rng.below(side as u64 / 5 + 2) as f64 * 5.0
                } else {
                    rng.unit() * side
                }
            };
            [c(), c(), if three_d { c() } else { 0.0 }]
        })
        .collect();
    let mode = ["radius", "nearest", "both", "explicit"][index % 4];
    let radius = 8.0 + 12.0 * rng.unit();
    let (max_distance, nearest_count) = match mode {
        "radius" => (radius, 0),
        "nearest" => (0.0, rng.range(1, 5) as u32),
        "both" => (radius, rng.range(1, 5) as u32),
        _ => (0.0, 0),
    };
    let explicit_count = if mode == "explicit" {
        n * 2
    } else {
        rng.below(4) as usize
    };
    let explicit = (0..explicit_count)
        .map(|_| [rng.below(n as u64) as u32, rng.below(n as u64) as u32])
        .collect();
    let rule = rng
        .chance(0.6)
        .then_some(LinkRule::RejectIndexSumMultipleOf(5));
    (
        format!("points_{mode}#{seed}"),
        LinkRequest {
            points,
            explicit,
            max_distance,
            nearest_count,
            rule,
        },
    )
}

fn position_pairs(req: &LinkRequest, result: &LinkResult) -> Vec<[u64; 6]> {
    let mut pairs: Vec<[u64; 6]> = result
        .edges
        .iter()
        .map(|&(a, b, _)| {
            let (p, q) = (req.points[a as usize], req.points[b as usize]);
            let key = |p: [f64; 3]| [p[0].to_bits(), p[1].to_bits(), p[2].to_bits()];
            let (kp, kq) = (key(p), key(q));
            let (lo, hi) = if kp <= kq { (kp, kq) } else { (kq, kp) };
            [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]]
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

fn describe_edges(r: &LinkResult) -> String {
    format!(
        "{} edges, {} link_valid calls",
        r.edges.len(),
        r.calls.len()
    )
}

fn first_edge_difference(a: &LinkResult, b: &LinkResult) -> Option<(String, String, String)> {
    let show = |e: Option<&(u32, u32, f64)>| match e {
        Some(e) => format!("{} -> {} weight {:?}", e.0, e.1, e.2),
        None => "end of list".into(),
    };
    let n = a.edges.len().max(b.edges.len());
    for i in 0..n {
        let (x, y) = (a.edges.get(i), b.edges.get(i));
        let same = matches!((x, y), (Some(x), Some(y)) if x.0 == y.0 && x.1 == y.1 && x.2.to_bits() == y.2.to_bits());
        if !same {
            return Some((format!("CSR edge slot {i}"), show(x), show(y)));
        }
    }
    let n = a.calls.len().max(b.calls.len());
    for i in 0..n {
        if a.calls.get(i) != b.calls.get(i) {
            return Some((
                format!("link_valid call {i}"),
                call_words(a.calls.get(i)),
                call_words(b.calls.get(i)),
            ));
        }
    }
    None
}

/// Bad requests and the class and index each must fail with ([GRAPH.API.INDEX]).
fn bad_requests() -> Vec<(&'static str, LinkRequest, BuildFailure)> {
    let ok = LinkRequest {
        points: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 1.0, 0.0]],
        explicit: vec![],
        max_distance: 1.5,
        nearest_count: 0,
        rule: None,
    };
    let with = |f: &dyn Fn(&mut LinkRequest)| {
        let mut r = ok.clone();
        f(&mut r);
        r
    };
    vec![
        (
            "coordinate beyond 2^21",
            with(&|r| r.points[1][1] = 2_097_153.0),
            BuildFailure::new("coordinate_out_of_range", Some(1)),
        ),
        (
            "NaN coordinate",
            with(&|r| r.points[2][2] = f64::NAN),
            BuildFailure::new("coordinate_out_of_range", Some(2)),
        ),
        (
            "max_distance below 2^-30",
            with(&|r| r.max_distance = 1e-10),
            BuildFailure::new("invalid_max_distance", None),
        ),
        (
            "negative max_distance",
            with(&|r| r.max_distance = -1.0),
            BuildFailure::new("invalid_max_distance", None),
        ),
        (
            "explicit link out of range",
            with(&|r| r.explicit = vec![[0, 1], [1, 3]]),
            BuildFailure::new("link_out_of_range", Some(1)),
        ),
    ]
}

/// Runs the section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let mut sections = parallel_cases(config, config.link_sets, &["links"], |i, sections| {
        let s = &mut sections[0];
        let (name, req) = link_case(config.seed, i);
        let expected = build_links(&req);
        let mut rng = SplitMix64::new(derive_seed(config.seed, i as u64 ^ 0xBEEF));
        let mut perm: Vec<u32> = (0..req.points.len() as u32).collect();
        rng.shuffle(&mut perm);
        // Point perm[j] of the original becomes point j of the shuffled set.
        let mut inverse = vec![0u32; perm.len()];
        for (j, &p) in perm.iter().enumerate() {
            inverse[p as usize] = j as u32;
        }
        let shuffled = LinkRequest {
            points: perm.iter().map(|&p| req.points[p as usize]).collect(),
            explicit: req
                .explicit
                .iter()
                .map(|l| [inverse[l[0] as usize], inverse[l[1] as usize]])
                .collect(),
            rule: None,
            ..req.clone()
        };
        let unruled = LinkRequest {
            rule: None,
            ..req.clone()
        };
        let permutation_applies = req.nearest_count == 0 || !has_distance_ties(&req.points);
        for imp in all {
            let fail = |what: String, expected: String, found: String| Failure {
                case: Some(name.clone()),
                implementation: imp.name().to_string(),
                what,
                expected,
                found,
                ..Default::default()
            };
            match imp.build_links(&req) {
                Err(class) => s.fail(fail(
                    "build_links".into(),
                    describe_edges(&expected),
                    format!("error {class}"),
                )),
                Ok(got) => {
                    s.record(first_edge_difference(&expected, &got).map(|(w, e, f)| fail(w, e, f)))
                }
            }
            if permutation_applies {
                let problem = match (imp.build_links(&unruled), imp.build_links(&shuffled)) {
                    (Ok(a), Ok(b)) => {
                        let (pa, pb) =
                            (position_pairs(&unruled, &a), position_pairs(&shuffled, &b));
                        (pa != pb).then(|| {
                            format!(
                                "{} position pairs after shuffling, {} before",
                                pb.len(),
                                pa.len()
                            )
                        })
                    }
                    (a, b) => Some(format!(
                        "{} / {}",
                        crate::words::outcome(&a),
                        crate::words::outcome(&b)
                    )),
                };
                s.record(problem.map(|f| {
                    fail(
                        "permutation stability".into(),
                        "the same links as position pairs".into(),
                        f,
                    )
                }));
            }
            if i == 0 {
                for (what, bad, expected) in bad_requests() {
                    let got = imp.build_links(&bad);
                    s.record(match got {
                        Err(c) if c == expected => None,
                        Err(c) => Some(fail(
                            format!("rejects {what}"),
                            expected.to_string(),
                            c.to_string(),
                        )),
                        Ok(r) => Some(fail(
                            format!("rejects {what}"),
                            expected.to_string(),
                            describe_edges(&r),
                        )),
                    });
                }
            }
        }
        if let Some(p) = progress {
            p.inc(1);
        }
    });
    sections.remove(0)
}

/// A `link_valid` call in words, or `no call`.
fn call_words(c: Option<&(u32, u32)>) -> String {
    c.map_or_else(
        || "no call".into(),
        |(a, b)| format!("link_valid({a}, {b})"),
    )
}
