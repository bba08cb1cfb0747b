//! `graph_points`: point-graph links built by both crates, compared with each other and the
//! brute-force builder of `links_bf.rs`, and invariant under permuting the points.

use super::Finding;
use super::*;
use crate::implementation::{Implementation, LinkRequest, LinkResult, LinkRule};
use crate::links_bf;
use arbitrary::Unstructured;

/// The decoded input of `graph_points`.
#[derive(Clone, Debug)]
pub struct PointsInput {
    /// The request (with or without a rule).
    pub request: LinkRequest,
    /// A permutation of the points (for the stability check).
    pub permutation: Vec<u32>,
}

const LIMIT: f64 = 2_097_152.0; // 2^21

fn coordinate_points(u: &mut U, grid: bool, earlier: &[[f64; 3]], axis: usize) -> Res<f64> {
    if !earlier.is_empty() && u.ratio(1, 8)? {
        return Ok(earlier[u.choose_index(earlier.len())?][axis]);
    }
    if grid {
        return Ok(small(u, 0, 4)? as f64 * pick(u, &[1.0, 2.0, 0.5])?);
    }
    Ok(match small(u, 0, 7)? {
        0 => pick(
            u,
            &[
                LIMIT,
                -LIMIT,
                LIMIT - 0.5,
                -LIMIT + 1.0,
                LIMIT - 1.0,
                0.0,
                -0.0,
            ],
        )?,
        1 => LIMIT - small(u, 0, 8)? as f64,
        2 => -LIMIT + small(u, 0, 8)? as f64 * 0.25,
        3 => small(u, 0, 1 << 20)? as f64 * 2f64.powi(-30),
        // Faults: beyond 2^21, NaN, infinity (rare).
        4 if u.ratio(1, 8)? => pick(u, &[LIMIT + 1.0, f64::NAN, f64::INFINITY, -LIMIT - 0.5])?,
        _ => u.int_in_range(-100_000i32..=100_000)? as f64 / 64.0,
    })
}

/// Decodes a `graph_points` input.
pub fn decode_points(data: &[u8]) -> Res<PointsInput> {
    let mut u = Unstructured::new(data);
    let u = &mut u;
    let n = small(u, 0, 20)?;
    let grid = u.ratio(1, 3)?;
    let three_d = u.ratio(1, 4)?;
    let mut points: Vec<[f64; 3]> = Vec::with_capacity(n as usize);
    for _ in 0..n {
        if !points.is_empty() && u.ratio(1, 10)? {
            let p = points[u.choose_index(points.len())?];
            points.push(p);
            continue;
        }
        let x = coordinate_points(u, grid, &points, 0)?;
        let y = coordinate_points(u, grid, &points, 1)?;
        let z = if three_d {
            coordinate_points(u, grid, &points, 2)?
        } else {
            0.0
        };
        points.push([x, y, z]);
    }
    let tiny = 2f64.powi(-30);
    let max_distance = pick(
        u,
        &[
            0.0,
            0.0,
            tiny,
            tiny * (1.0 + f64::EPSILON),
            1.0,
            1.5,
            2.0,
            2.5,
            5.0,
            1e-3,
            LIMIT,
            8.0 * LIMIT,
            tiny * (1.0 - f64::EPSILON / 2.0),
            -1.0,
            f64::NAN,
            f64::INFINITY,
        ],
    )?;
    let nearest_count = if u.arbitrary()? { 0 } else { small(u, 1, 6)? };
    let explicit = (0..small(u, 0, 6)?)
        .map(|_| Ok([node(u, n)?, node(u, n)?]))
        .collect::<Res<Vec<_>>>()?;
    let rule = if u.ratio(2, 5)? {
        Some(LinkRule::RejectIndexSumMultipleOf(small(u, 1, 6)?))
    } else {
        None
    };
    let mut permutation: Vec<u32> = (0..n).collect();
    for i in (1..permutation.len()).rev() {
        let j = u.int_in_range(0..=i)?;
        permutation.swap(i, j);
    }
    Ok(PointsInput {
        request: LinkRequest {
            points,
            explicit,
            max_distance,
            nearest_count,
            rule,
        },
        permutation,
    })
}

/// `graph_points`: decode and [`check_points`].
pub fn graph_points(data: &[u8]) -> Result<(), Finding> {
    match decode_points(data) {
        Ok(input) => check_points(&input),
        Err(_) => Ok(()),
    }
}

/// The first difference between two link results (CSR slot, then `link_valid` call).
pub fn link_difference(a: &LinkResult, b: &LinkResult) -> Option<String> {
    let show = |e: Option<&(u32, u32, f64)>| match e {
        Some(e) => format!(
            "{} -> {} weight {:?} (bits {:016x})",
            e.0,
            e.1,
            e.2,
            e.2.to_bits()
        ),
        None => "end of list".into(),
    };
    for i in 0..a.edges.len().max(b.edges.len()) {
        let (x, y) = (a.edges.get(i), b.edges.get(i));
        let same = matches!((x, y), (Some(x), Some(y)) if x.0 == y.0 && x.1 == y.1 && x.2.to_bits() == y.2.to_bits());
        if !same {
            return Some(format!(
                "CSR edge slot {i}: expected {}, found {}",
                show(x),
                show(y)
            ));
        }
    }
    for i in 0..a.calls.len().max(b.calls.len()) {
        if a.calls.get(i) != b.calls.get(i) {
            return Some(format!(
                "link_valid call {i}: expected {:?}, found {:?}",
                a.calls.get(i),
                b.calls.get(i)
            ));
        }
    }
    None
}

fn position_pairs(req: &LinkRequest, result: &LinkResult) -> Vec<[u64; 6]> {
    let key = |p: [f64; 3]| [p[0].to_bits(), p[1].to_bits(), p[2].to_bits()];
    let mut pairs: Vec<[u64; 6]> = result
        .edges
        .iter()
        .map(|&(a, b, _)| {
            let (kp, kq) = (key(req.points[a as usize]), key(req.points[b as usize]));
            let (lo, hi) = if kp <= kq { (kp, kq) } else { (kq, kp) };
            [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]]
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// The link invariants: both crates build the same CSR (bit for bit) and `link_valid` calls, or
/// fail with the same class and index; an accepted request equals the brute-force builder; without
/// a rule (and, in nearest modes, without distance ties or `-0.0`/`+0.0` mixes) permuting the
/// points leaves the links, as position pairs, unchanged.
pub fn check_points(input: &PointsInput) -> Result<(), Finding> {
    let req = &input.request;
    let (a, b) = (REF.build_links(req), OPT.build_links(req));
    let got = match (&a, &b) {
        (Ok(x), Ok(y)) => {
            if let Some(d) = link_difference(x, y) {
                return Err(Finding::new(format!(
                    "build_links reference vs onepath: {d}"
                )));
            }
            x
        }
        (Err(x), Err(y)) if x == y => return Ok(()),
        (x, y) => {
            let t = |r: &Result<LinkResult, crate::implementation::BuildFailure>| match r {
                Ok(l) => format!("{} edges", l.edges.len()),
                Err(f) => f.to_string(),
            };
            return Err(Finding::new(format!(
                "build_links: expected {}, found {}",
                t(x),
                t(y)
            )));
        }
    };
    let expected = links_bf::build_links(req);
    if let Some(d) = link_difference(&expected, got) {
        return Err(Finding::new(format!("build_links vs brute force: {d}")));
    }
    // Permutation stability.
    if input.permutation.len() != req.points.len() {
        return Ok(());
    }
    let signed_zero = req
        .points
        .iter()
        .flatten()
        .any(|c| *c == 0.0 && c.is_sign_negative());
    let applies =
        req.nearest_count == 0 || (!links_bf::has_distance_ties(&req.points) && !signed_zero);
    if !applies {
        return Ok(());
    }
    let perm = &input.permutation;
    let mut inverse = vec![0u32; perm.len()];
    for (j, &p) in perm.iter().enumerate() {
        inverse[p as usize] = j as u32;
    }
    let remap = |i: u32| inverse.get(i as usize).copied().unwrap_or(i);
    let unruled = LinkRequest {
        rule: None,
        ..req.clone()
    };
    let shuffled = LinkRequest {
        points: perm.iter().map(|&p| req.points[p as usize]).collect(),
        explicit: req
            .explicit
            .iter()
            .map(|l| [remap(l[0]), remap(l[1])])
            .collect(),
        rule: None,
        ..req.clone()
    };
    for imp in [&REF as &dyn Implementation, &OPT] {
        match (imp.build_links(&unruled), imp.build_links(&shuffled)) {
            (Ok(x), Ok(y)) => {
                let (px, py) = (position_pairs(&unruled, &x), position_pairs(&shuffled, &y));
                if px != py {
                    return Err(Finding::new(format!(
                        "{}: permutation {perm:?} changes the links: {} position pairs before, {} after",
                        imp.name(),
                        px.len(),
                        py.len()
                    )));
                }
            }
            (x, y) => {
                return Err(Finding::new(format!(
                    "{}: permuted build: {:?} / {:?}",
                    imp.name(),
                    x.err(),
                    y.err()
                )))
            }
        }
    }
    Ok(())
}
