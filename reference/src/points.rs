//! [GRAPH.PT] Point graphs of spec/graphs.md section 4: positions, distances, link generation.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::astar::GraphHeuristic;
use crate::csr::{CsrGraph, GraphEdge, MAX_NODES};
use crate::error::{BuildError, QueryError, COORD_BOUND};
use crate::landmarks::{LandmarkOptions, Landmarks};
use crate::options::{find_path_on, GraphOptions, GraphPath};

/// [GRAPH.VAL.POINT] A position; plane graphs use `z = 0`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point3 {
    /// [GRAPH.VAL.POINT] The x coordinate.
    pub x: f64,
    /// [GRAPH.VAL.POINT] The y coordinate.
    pub y: f64,
    /// [GRAPH.VAL.POINT] The z coordinate.
    pub z: f64,
}

impl Point3 {
    /// [GRAPH.VAL.POINT] Creates a position (no validation happens here).
    pub fn new(x: f64, y: f64, z: f64) -> Self {
        Point3 { x, y, z }
    }
}

/// [GRAPH.PT.DIST] `d2(a, b) = (dx*dx + dy*dy) + dz*dz` with `dx = b.x - a.x` (likewise y, z).
pub fn squared_distance(a: Point3, b: Point3) -> f64 {
    let dx = b.x - a.x;
    let dy = b.y - a.y;
    let dz = b.z - a.z;
    (dx * dx + dy * dy) + dz * dz
}

/// [GRAPH.PT.DIST] `distance(a, b) = sqrt(d2(a, b))`.
pub fn distance(a: Point3, b: Point3) -> f64 {
    squared_distance(a, b).sqrt()
}

/// [GRAPH.PT.LINK_LIMIT] The most generated links a point graph build accepts (`2^24`): the
/// acceptance past it fails the build with `too_many_nodes` before the links become edges.
pub const MAX_GENERATED_LINKS: usize = 1 << 24;

/// [GRAPH.PT.VALID] The optional link filter, asked `(a, b)` with `a < b`.
pub type LinkValidFn = Arc<dyn Fn(u32, u32) -> bool + Send + Sync>;

/// [GRAPH.PT.EXPLICIT] [GRAPH.PT.MAXDIST] [GRAPH.PT.NEAREST] How the links of a point graph are made.
#[derive(Clone, Default)]
pub struct LinkOptions {
    /// [GRAPH.PT.EXPLICIT] Explicit links (pairs of point indexes), never filtered.
    pub explicit: Vec<(u32, u32)>,
    /// [GRAPH.PT.MAXDIST] [GRAPH.PT.RADIUS] 0 (off) or the link radius.
    pub max_distance: f64,
    /// [GRAPH.PT.NEAREST] The number of nearest links per point (0 = off).
    pub nearest_count: usize,
    /// [GRAPH.PT.VALID] The filter of generated links (absent: accept all).
    pub link_valid: Option<LinkValidFn>,
}

/// [GRAPH.PT.COORD] True when `c` is finite and `|c| <= 2^21`.
fn coordinate_ok(c: f64) -> bool {
    c.is_finite() && c.abs() <= COORD_BOUND
}

/// [GRAPH.PT.COORD] The first bad axis of `p` in the order x, y, z, with its value.
fn bad_axis(p: Point3) -> Option<(char, f64)> {
    [('x', p.x), ('y', p.y), ('z', p.z)]
        .into_iter()
        .find(|&(_, c)| !coordinate_ok(c))
}

/// [GRAPH.PT] A graph whose nodes are positions and whose edges are links weighted by the
/// Euclidean distance. `Send + Sync`.
pub struct PointGraph {
    points: Vec<Point3>,
    csr: CsrGraph,
}

impl PointGraph {
    /// Builds a graph with one node per point, linked by the explicit links and by the links
    /// generated within `max_distance` or to the `nearest_count` nearest points, each link an
    /// edge in both directions weighted by the distance. Checks run in the order: point count
    /// (`too_many_nodes`), coordinates, `max_distance`, explicit links; link generation stops
    /// with `too_many_nodes` past [`MAX_GENERATED_LINKS`] accepted links.
    ///
    /// ```
    /// use onepath_reference::{GraphOptions, LinkOptions, PathStatus, Point3, PointGraph};
    ///
    /// let points = [
    ///     Point3::new(0.0, 0.0, 0.0),
    ///     Point3::new(3.0, 0.0, 0.0),
    ///     Point3::new(3.0, 4.0, 0.0),
    /// ];
    /// // Link every pair closer than 4.5: (0, 1) at 3 and (1, 2) at 4, not (0, 2) at 5.
    /// let options = LinkOptions { max_distance: 4.5, ..Default::default() };
    /// let graph = PointGraph::new(&points, &options).unwrap();
    /// let path = graph.find_path(0, 2, &GraphOptions::default()).unwrap();
    /// assert_eq!(path.status, PathStatus::Found);
    /// assert_eq!(path.nodes, vec![0, 1, 2]);
    /// assert_eq!(path.cost, 7.0);
    /// ```
    ///
    /// [GRAPH.PT.COORD] [GRAPH.PT.CHECKS] [GRAPH.PT.MAXDIST] [GRAPH.PT.MAXDIST_FINITE]
    /// [GRAPH.PT.EXPLICIT]
    /// [GRAPH.PT.RADIUS] [GRAPH.PT.NEAREST] [GRAPH.PT.BOTH] [GRAPH.PT.VALID_ORDER]
    /// [GRAPH.PT.LINK_LIMIT] [GRAPH.PT.MERGE]
    pub fn new(points: &[Point3], options: &LinkOptions) -> Result<PointGraph, BuildError> {
        Self::build(points, options, MAX_GENERATED_LINKS)
    }

    /// [GRAPH.PT.LINK_LIMIT] `new` with the generated-link limit `limit` (so tests can reach it
    /// cheaply).
    fn build(
        points: &[Point3],
        options: &LinkOptions,
        limit: usize,
    ) -> Result<PointGraph, BuildError> {
        let n = points.len();
        if n > MAX_NODES {
            return Err(BuildError::too_many_nodes(n as u64));
        }
        for (i, p) in points.iter().enumerate() {
            if let Some((axis, value)) = bad_axis(*p) {
                return Err(BuildError::coordinate(i, axis, value));
            }
        }
        let md = options.max_distance;
        let min_md = 1.0 / (1u64 << 30) as f64;
        if !(md == 0.0 || (md.is_finite() && md >= min_md)) {
            return Err(BuildError::invalid_max_distance(md));
        }
        for (pos, &(a, b)) in options.explicit.iter().enumerate() {
            if a as usize >= n {
                return Err(BuildError::link_out_of_range(pos, a, n));
            }
            if b as usize >= n {
                return Err(BuildError::link_out_of_range(pos, b, n));
            }
        }
        // [GRAPH.PT.MERGE] unordered pairs (min, max), self-links dropped, deduplicated, sorted.
        let mut pairs: BTreeSet<(u32, u32)> = BTreeSet::new();
        let mut add = |a: u32, b: u32| {
            if a != b {
                pairs.insert((a.min(b), a.max(b)));
            }
        };
        for &(a, b) in &options.explicit {
            add(a, b);
        }
        let valid = |a: u32, b: u32| match &options.link_valid {
            Some(f) => f(a, b),
            None => true,
        };
        let md2 = md * md;
        // [GRAPH.PT.LINK_LIMIT] accepted generated links, counted as found.
        let mut generated = 0usize;
        let mut count = || {
            generated += 1;
            if generated > limit {
                Err(BuildError::too_many_links(limit))
            } else {
                Ok(())
            }
        };
        if options.nearest_count > 0 {
            // [GRAPH.PT.NEAREST] [GRAPH.PT.BOTH] [GRAPH.PT.VALID_ORDER]
            for i in 0..n {
                let mut candidates: Vec<(f64, u32)> = (0..n)
                    .filter(|&j| j != i)
                    .map(|j| (squared_distance(points[i], points[j]), j as u32))
                    .collect();
                candidates.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                let mut accepted = 0usize;
                for (d2, j) in candidates {
                    if accepted == options.nearest_count {
                        break;
                    }
                    if md > 0.0 && !(d2 <= md2) {
                        continue;
                    }
                    let i = i as u32;
                    if valid(i.min(j), i.max(j)) {
                        count()?;
                        add(i, j);
                        accepted += 1;
                    }
                }
            }
        } else if md > 0.0 {
            // [GRAPH.PT.RADIUS] [GRAPH.PT.VALID_ORDER] pairs in increasing (a, b).
            for a in 0..n {
                for b in a + 1..n {
                    if squared_distance(points[a], points[b]) <= md2 && valid(a as u32, b as u32) {
                        count()?;
                        add(a as u32, b as u32);
                    }
                }
            }
        }
        let mut edges = Vec::with_capacity(pairs.len() * 2);
        for &(a, b) in &pairs {
            let w = distance(points[a as usize], points[b as usize]);
            edges.push(GraphEdge::new(a, b, w));
            edges.push(GraphEdge::new(b, a, w));
        }
        let csr = CsrGraph::new(n, &edges)?;
        Ok(PointGraph {
            points: points.to_vec(),
            csr,
        })
    }

    /// [GRAPH.PT] The number of points (nodes).
    pub fn node_count(&self) -> usize {
        self.points.len()
    }

    /// [GRAPH.PT] The positions, indexed by node id.
    pub fn points(&self) -> &[Point3] {
        &self.points
    }

    /// [GRAPH.PT.MERGE] The CSR form of the merged links.
    pub fn csr(&self) -> &CsrGraph {
        &self.csr
    }

    /// [GRAPH.PT.NEAREST_NODE] The node with the smallest `(d2(p_node, position), id)`; the position
    /// is checked first (`invalid_position`), then emptiness (`empty_graph`).
    pub fn nearest_node(&self, position: Point3) -> Result<u32, QueryError> {
        if let Some((axis, value)) = bad_axis(position) {
            return Err(QueryError::invalid_position(axis, value));
        }
        let mut best: Option<(f64, u32)> = None;
        for (id, p) in self.points.iter().enumerate() {
            let d2 = squared_distance(*p, position);
            match best {
                Some((bd, _)) if !(d2 < bd) => {}
                _ => best = Some((d2, id as u32)),
            }
        }
        best.map(|(_, id)| id).ok_or_else(QueryError::empty_graph)
    }

    /// [GRAPH.PT.ESTIMATE] [GRAPH.T1.CHECKS] [GRAPH.API.TIER1_SEARCH] Finds a path between two nodes
    /// with the Euclidean estimate available.
    pub fn find_path(
        &self,
        start: u32,
        goal: u32,
        options: &GraphOptions,
    ) -> Result<GraphPath, QueryError> {
        find_path_on(&self.csr, Some(&self.points), start, goal, options)
    }

    /// [GRAPH.PT.FIND_BY_POS] Snaps `from`, then `to`, to their nearest nodes and runs the node query.
    pub fn find_path_between(
        &self,
        from: Point3,
        to: Point3,
        options: &GraphOptions,
    ) -> Result<GraphPath, QueryError> {
        let start = self.nearest_node(from)?;
        let goal = self.nearest_node(to)?;
        self.find_path(start, goal, options)
    }

    /// [GRAPH.ALT.COUNT] Builds an ALT landmark table on the point graph's CSR.
    pub fn build_landmarks(&self, options: &LandmarkOptions) -> Result<Landmarks, BuildError> {
        Landmarks::build(&self.csr, options)
    }
}

/// [GRAPH.PT.ESTIMATE] The Euclidean estimate `distance(p_from, p_to)`; an id outside the points
/// estimates `+0.0`.
#[derive(Clone, Copy, Debug)]
pub struct EuclideanGraphHeuristic<'a> {
    points: &'a [Point3],
}

impl<'a> EuclideanGraphHeuristic<'a> {
    /// [GRAPH.PT.ESTIMATE] An estimate over `points` (indexed by node id).
    pub fn new(points: &'a [Point3]) -> Self {
        EuclideanGraphHeuristic { points }
    }
}

impl GraphHeuristic for EuclideanGraphHeuristic<'_> {
    fn estimate(&self, from: u32, to: u32) -> f64 {
        match (self.points.get(from as usize), self.points.get(to as usize)) {
            (Some(a), Some(b)) => distance(*a, *b),
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// Four points within 1 of each other: 6 radius links, 12 nearest-mode acceptances (k = 3).
    fn square() -> Vec<Point3> {
        vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(0.5, 0.0, 0.0),
            Point3::new(0.0, 0.5, 0.0),
            Point3::new(0.5, 0.5, 0.0),
        ]
    }

    #[test]
    fn link_limit_at_and_past() {
        let pts = square();
        let radius = LinkOptions {
            max_distance: 1.0,
            ..Default::default()
        };
        let nearest = LinkOptions {
            nearest_count: 3,
            ..Default::default()
        };
        // Radius mode accepts 4 * 3 / 2 pairs, nearest mode 4 * 3 (each pair from both ends).
        let all_pairs = pts.len() * (pts.len() - 1) / 2;
        for (options, accepted) in [(&radius, all_pairs), (&nearest, 2 * all_pairs)] {
            let at = PointGraph::build(&pts, options, accepted).unwrap();
            assert_eq!(at.csr().edge_count(), 2 * all_pairs);
            let past = PointGraph::build(&pts, options, accepted - 1)
                .err()
                .unwrap();
            assert_eq!((past.class(), past.index()), ("too_many_nodes", None));
        }
        // Explicit links are not counted.
        let explicit = LinkOptions {
            explicit: vec![(0, 1), (1, 2), (2, 3)],
            ..Default::default()
        };
        assert!(PointGraph::build(&pts, &explicit, 0).is_ok());
    }

    #[test]
    fn link_limit_stops_asking_link_valid() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let log = asked.clone();
        let options = LinkOptions {
            max_distance: 1.0,
            // Reject (0, 1): the second and third acceptances are (0, 3) and (1, 2).
            link_valid: Some(Arc::new(move |a, b| {
                log.lock().unwrap().push((a, b));
                (a, b) != (0, 1)
            })),
            ..Default::default()
        };
        let e = PointGraph::build(&square(), &options, 2).err().unwrap();
        assert_eq!(e.class(), "too_many_nodes");
        assert_eq!(*asked.lock().unwrap(), vec![(0, 1), (0, 2), (0, 3), (1, 2)]);
    }
}
