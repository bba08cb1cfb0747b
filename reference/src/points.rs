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
    /// [GRAPH.PT.COORD] [GRAPH.PT.MAXDIST] [GRAPH.PT.EXPLICIT] [GRAPH.PT.RADIUS] [GRAPH.PT.NEAREST]
    /// [GRAPH.PT.BOTH] [GRAPH.PT.VALID_ORDER] [GRAPH.PT.MERGE] Builds a point graph. Checks run in
    /// the order: point count (`too_many_nodes`), coordinates, `max_distance`, explicit links.
    pub fn new(points: &[Point3], options: &LinkOptions) -> Result<PointGraph, BuildError> {
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
