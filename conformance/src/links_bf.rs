//! A brute-force point-graph link builder written from spec section 4 ([GRAPH.PT.*]), used by the
//! `links` check and as the oracle's edge list for point graphs. Quadratic and obviously right.

use crate::generators::distance;
use crate::implementation::{LinkRequest, LinkResult};

fn d2(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (dx, dy, dz) = (b[0] - a[0], b[1] - a[1], b[2] - a[2]);
    (dx * dx + dy * dy) + dz * dz
}

/// Candidates of point `i` in the nearest order of [GRAPH.PT.ORDER].
pub fn nearest_order(points: &[[f64; 3]], i: usize) -> Vec<(f64, u32)> {
    let mut c: Vec<(f64, u32)> = (0..points.len())
        .filter(|&j| j != i)
        .map(|j| (d2(points[i], points[j]), j as u32))
        .collect();
    c.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    c
}

/// Builds links like [GRAPH.PT.RADIUS] / [GRAPH.PT.NEAREST] / [GRAPH.PT.BOTH] / [GRAPH.PT.MERGE],
/// recording `link_valid` calls in the order of [GRAPH.PT.VALID_ORDER]. Argument errors are not
/// modelled (callers pass valid requests).
pub fn build_links(req: &LinkRequest) -> LinkResult {
    let n = req.points.len();
    let mut calls = Vec::new();
    let ask = |a: u32, b: u32, calls: &mut Vec<(u32, u32)>| match req.rule {
        Some(rule) => {
            calls.push((a, b));
            rule.accepts(a, b)
        }
        None => true,
    };
    let mut pairs: Vec<(u32, u32)> = req
        .explicit
        .iter()
        .map(|l| (l[0].min(l[1]), l[0].max(l[1])))
        .collect();
    let limit = req.max_distance * req.max_distance;
    if req.nearest_count > 0 {
        for i in 0..n {
            let mut accepted = 0;
            for (dd, j) in nearest_order(&req.points, i) {
                if accepted == req.nearest_count {
                    break;
                }
                if req.max_distance > 0.0 && !(dd <= limit) {
                    continue;
                }
                let (a, b) = ((i as u32).min(j), (i as u32).max(j));
                if ask(a, b, &mut calls) {
                    pairs.push((a, b));
                    accepted += 1;
                }
            }
        }
    } else if req.max_distance > 0.0 {
        for a in 0..n {
            for b in a + 1..n {
                if d2(req.points[a], req.points[b]) <= limit && ask(a as u32, b as u32, &mut calls)
                {
                    pairs.push((a as u32, b as u32));
                }
            }
        }
    }
    pairs.retain(|p| p.0 != p.1);
    pairs.sort_unstable();
    pairs.dedup();
    let mut edges = Vec::with_capacity(pairs.len() * 2);
    for (a, b) in pairs {
        let w = distance(req.points[a as usize], req.points[b as usize]);
        edges.push((a, b, w));
        edges.push((b, a, w));
    }
    // CSR slot order: grouped by `from`, stable in emission order.
    edges.sort_by_key(|e| e.0);
    LinkResult { edges, calls }
}

/// True when some point's nearest-order candidates have an exact distance tie (which makes
/// nearest-mode links depend on point order, [GRAPH.PT.PERMUTE]).
pub fn has_distance_ties(points: &[[f64; 3]]) -> bool {
    (0..points.len()).any(|i| {
        nearest_order(points, i)
            .windows(2)
            .any(|w| w[0].0 == w[1].0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::LinkRule;

    #[test]
    fn radius_and_rule() {
        let req = LinkRequest {
            points: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [10.0, 0.0, 0.0],
            ],
            explicit: vec![[3, 0]],
            max_distance: 1.5,
            nearest_count: 0,
            rule: Some(LinkRule::RejectIndexSumMultipleOf(3)),
        };
        let r = build_links(&req);
        assert_eq!(r.calls, vec![(0, 1), (1, 2)]);
        let pairs: Vec<(u32, u32)> = r.edges.iter().map(|e| (e.0, e.1)).collect();
        assert_eq!(pairs, vec![(0, 1), (0, 3), (1, 0), (3, 0)]);
    }
}
