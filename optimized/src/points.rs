//! Point graphs: [GRAPH.PT.COORD] .. [GRAPH.PT.ESTIMATE] (links, merge, nearest node, queries).

use crate::csr::CsrGraph;
use crate::error::{BuildError, BuildKind, End, QueryError, QueryKind};
use crate::grid::Grid;
use crate::landmarks::{LandmarkOptions, Landmarks};
use crate::tier1::{query, GraphOptions, GraphPath, Pool};
use crate::values::{distance, squared_distance, GraphEdge, Point3};
use crate::MAX_NODES;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

/// [GRAPH.PT.VALID] The `link_valid(a, b)` delegate (always asked with `a < b`).
pub type LinkValidFn = Arc<dyn Fn(u32, u32) -> bool + Send + Sync>;

/// [GRAPH.PT.EXPLICIT] [GRAPH.PT.MAXDIST] [GRAPH.PT.NEAREST] How a point graph is linked.
#[derive(Clone, Default)]
pub struct LinkOptions {
    /// [GRAPH.PT.EXPLICIT] Explicit links as pairs of point indexes.
    pub explicit: Vec<(u32, u32)>,
    /// [GRAPH.PT.MAXDIST] [GRAPH.PT.RADIUS] [GRAPH.PT.BOTH] 0 (off) or `>= 2^-30`.
    pub max_distance: f64,
    /// [GRAPH.PT.NEAREST] Links per point (0 = off).
    pub nearest_count: usize,
    /// [GRAPH.PT.VALID] Optional filter for generated links.
    pub link_valid: Option<LinkValidFn>,
}

/// [GRAPH.PT.MERGE] [GRAPH.PT.ESTIMATE] A graph over positions with Euclidean edge weights
/// (Send + Sync).
pub struct PointGraph {
    points: Vec<Point3>,
    csr: CsrGraph,
    pool: Pool,
}

const COORD_BOUND: f64 = 2_097_152.0; // 2^21

/// [GRAPH.PT.COORD] The first bad axis of `p` (x, y, z order).
fn bad_axis(p: &Point3) -> Option<(char, f64)> {
    [('x', p.x), ('y', p.y), ('z', p.z)]
        .into_iter()
        .find(|&(_, c)| !(c.is_finite() && c.abs() <= COORD_BOUND))
}

impl PointGraph {
    /// [GRAPH.PT.COORD] [GRAPH.PT.MAXDIST] [GRAPH.PT.EXPLICIT] [GRAPH.PT.RADIUS]
    /// [GRAPH.PT.NEAREST] [GRAPH.PT.BOTH] [GRAPH.PT.VALID_ORDER] [GRAPH.PT.MERGE] Builds the
    /// graph. Checks run: point count, coordinates (point order, x/y/z), `max_distance`, explicit
    /// links (list order, first then second index).
    pub fn new(points: &[Point3], options: &LinkOptions) -> Result<PointGraph, BuildError> {
        let n = points.len();
        if n > MAX_NODES {
            return Err(BuildError::new(BuildKind::TooManyNodes {
                requested: n as u64,
            }));
        }
        for (index, p) in points.iter().enumerate() {
            if let Some((axis, v)) = bad_axis(p) {
                return Err(BuildError::new(BuildKind::CoordinateOutOfRange {
                    index,
                    axis,
                    bits: v.to_bits(),
                }));
            }
        }
        let md = options.max_distance;
        if md != 0.0 && !(md.is_finite() && md >= 1.0 / (1u64 << 30) as f64) {
            return Err(BuildError::new(BuildKind::InvalidMaxDistance {
                bits: md.to_bits(),
            }));
        }
        let mut pairs: Vec<u64> = Vec::new();
        for (position, &(a, b)) in options.explicit.iter().enumerate() {
            for (end, v) in [(End::From, a), (End::To, b)] {
                if v as usize >= n {
                    return Err(BuildError::new(BuildKind::LinkOutOfRange {
                        position,
                        end,
                        value: v,
                        node_count: n,
                    }));
                }
            }
            if a != b {
                pairs.push(key(a, b));
            }
        }
        let valid = options.link_valid.as_deref();
        let k = options.nearest_count;
        if n > 1 && (k > 0 || md > 0.0) {
            let grid = Grid::new(points);
            if k > 0 {
                nearest_links(points, &grid, k, md, valid, &mut pairs);
            } else {
                radius_links(points, &grid, md, valid, &mut pairs);
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        if pairs.len() > (u32::MAX / 2) as usize {
            let requested = pairs.len() as u64 * 2;
            return Err(BuildError::new(BuildKind::TooManyEdges { requested }));
        }
        let mut edges = Vec::with_capacity(pairs.len() * 2);
        for &p in &pairs {
            let (a, b) = ((p >> 32) as u32, p as u32);
            let w = distance(points[a as usize], points[b as usize]);
            edges.push(GraphEdge::new(a, b, w));
            edges.push(GraphEdge::new(b, a, w));
        }
        Ok(PointGraph {
            points: points.to_vec(),
            csr: CsrGraph::build_unchecked(n, &edges),
            pool: Pool::default(),
        })
    }

    /// [GRAPH.VAL.NODE] The node (point) count.
    pub fn node_count(&self) -> usize {
        self.points.len()
    }

    /// [GRAPH.VAL.POINT] The positions, indexed by node id.
    pub fn points(&self) -> &[Point3] {
        &self.points
    }

    /// [GRAPH.PT.MERGE] The compiled CSR graph.
    pub fn csr(&self) -> &CsrGraph {
        &self.csr
    }

    /// [GRAPH.PT.NEAREST_NODE] The node with the smallest `(d2(p_node, p), id)`; the position is
    /// checked (`invalid_position`) before emptiness (`empty_graph`).
    pub fn nearest_node(&self, position: Point3) -> Result<u32, QueryError> {
        if let Some((axis, v)) = bad_axis(&position) {
            return Err(QueryError::new(QueryKind::InvalidPosition {
                axis,
                bits: v.to_bits(),
            }));
        }
        let mut best: Option<(u32, f64)> = None;
        for (i, &p) in self.points.iter().enumerate() {
            let d = squared_distance(p, position);
            if best.map_or(true, |(_, b)| d < b) {
                best = Some((i as u32, d));
            }
        }
        best.map(|(i, _)| i)
            .ok_or_else(|| QueryError::new(QueryKind::EmptyGraph))
    }

    /// [GRAPH.T1.CHECKS] [GRAPH.EST.COMBINE] A tier-1 query with the Euclidean estimate.
    pub fn find_path(
        &self,
        start: u32,
        goal: u32,
        options: &GraphOptions,
    ) -> Result<GraphPath, QueryError> {
        query(
            &self.csr,
            Some(&self.points),
            &self.pool,
            start,
            goal,
            options,
        )
    }

    /// [GRAPH.PT.FIND_BY_POS] Snaps `from`, then `to`, to their nearest nodes and queries.
    pub fn find_path_between(
        &self,
        from: Point3,
        to: Point3,
        options: &GraphOptions,
    ) -> Result<GraphPath, QueryError> {
        let s = self.nearest_node(from)?;
        let g = self.nearest_node(to)?;
        self.find_path(s, g, options)
    }

    /// [GRAPH.ALT.COUNT] Builds a landmark table on the compiled graph.
    pub fn build_landmarks(&self, options: &LandmarkOptions) -> Result<Landmarks, BuildError> {
        Landmarks::build(&self.csr, options)
    }
}

#[inline]
fn key(a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    ((lo as u64) << 32) | hi as u64
}

/// [GRAPH.PT.RADIUS] [GRAPH.PT.VALID_ORDER] Every pair `a < b` with `d2 <= md*md`, asked in
/// increasing `(a, b)`. Candidates of `a` come from the grid window that provably contains every
/// point within `md` (or from a scan of `a+1..N` when that is smaller).
fn radius_links(
    points: &[Point3],
    grid: &Grid,
    md: f64,
    valid: Option<&(dyn Fn(u32, u32) -> bool + Send + Sync)>,
    pairs: &mut Vec<u64>,
) {
    let n = points.len();
    let md2 = md * md;
    let span = grid.dims.iter().copied().max().unwrap_or(0) as f64;
    let r = ((md / grid.cell) * (1.0 + 1e-6)).floor().min(span) as i64 + 1;
    let mut cand: Vec<u32> = Vec::new();
    for a in 0..n {
        let pa = points[a];
        cand.clear();
        let remaining = (n - a - 1) as u128;
        let mut take = |cell: &[u32]| {
            for &b in cell {
                if b as usize > a && squared_distance(pa, points[b as usize]) <= md2 {
                    cand.push(b);
                }
            }
        };
        if !grid.window(grid.cell_of(&pa), r, remaining, &mut take) {
            for b in a + 1..n {
                if squared_distance(pa, points[b]) <= md2 {
                    cand.push(b as u32);
                }
            }
        }
        cand.sort_unstable();
        for &b in &cand {
            if valid.map_or(true, |f| f(a as u32, b)) {
                pairs.push(key(a as u32, b));
            }
        }
    }
}

/// [GRAPH.PT.NEAREST] [GRAPH.PT.ORDER] [GRAPH.PT.BOTH] [GRAPH.PT.VALID_ORDER] For each point in
/// order, its candidates in ascending `(d2, j)` are produced lazily by rings of cells: after
/// rings `0..=r` every unscanned point has a computed `d2` above `(r * cell * (1 - 1e-6))^2`
/// (the margin dwarfs the rounding of the cell coordinates), so buffered candidates at or below
/// that threshold are final and come out of a min-heap in exact brute-force order.
fn nearest_links(
    points: &[Point3],
    grid: &Grid,
    k: usize,
    md: f64,
    valid: Option<&(dyn Fn(u32, u32) -> bool + Send + Sync)>,
    pairs: &mut Vec<u64>,
) {
    let capped = md > 0.0;
    let md2 = md * md;
    let mut heap: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
    for i in 0..points.len() {
        let pi = points[i];
        let c = grid.cell_of(&pi);
        let rmax = (0..3)
            .map(|a| c[a].max(grid.dims[a] - c[a]))
            .max()
            .unwrap_or(0);
        heap.clear();
        let mut accepted = 0usize;
        let mut r = 0i64;
        'rings: loop {
            grid.ring(c, r, |cell| {
                for &j in cell {
                    if j as usize == i {
                        continue;
                    }
                    let d2 = squared_distance(pi, points[j as usize]);
                    if capped && d2 > md2 {
                        continue;
                    }
                    // d2 >= +0.0 and never NaN, so its bits order like its value.
                    heap.push(Reverse((d2.to_bits(), j)));
                }
            });
            let all = r >= rmax;
            let thr = if all {
                f64::INFINITY
            } else {
                let t = r as f64 * grid.cell * (1.0 - 1e-6);
                t * t
            };
            while let Some(&Reverse((bits, j))) = heap.peek() {
                if f64::from_bits(bits) > thr {
                    break;
                }
                heap.pop();
                let (a, b) = if (i as u32) < j {
                    (i as u32, j)
                } else {
                    (j, i as u32)
                };
                if valid.map_or(true, |f| f(a, b)) {
                    pairs.push(key(a, b));
                    accepted += 1;
                    if accepted == k {
                        break 'rings;
                    }
                }
            }
            if all || (capped && thr >= md2) {
                break;
            }
            r += 1;
        }
    }
}
