//! Edges, points and the distance formula of [GRAPH.VAL.EDGE], [GRAPH.VAL.POINT], [GRAPH.PT.DIST].

/// [GRAPH.VAL.EDGE] A directed edge `from -> to` with a finite, non-negative weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphEdge {
    /// [GRAPH.VAL.NODE] The tail node id.
    pub from: u32,
    /// [GRAPH.VAL.NODE] The head node id.
    pub to: u32,
    /// [GRAPH.VAL.EDGE] The weight (finite, `>= 0`; `-0.0` is stored as `+0.0`).
    pub weight: f64,
}

impl GraphEdge {
    /// [GRAPH.VAL.EDGE] Builds the edge `from -> to` with `weight` (not validated here).
    pub fn new(from: u32, to: u32, weight: f64) -> Self {
        GraphEdge { from, to, weight }
    }
}

/// [GRAPH.VAL.POINT] A position `(x, y, z)`; plane graphs use `z = 0`.
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
    /// [GRAPH.VAL.POINT] Builds the point `(x, y, z)` (not validated here).
    pub fn new(x: f64, y: f64, z: f64) -> Self {
        Point3 { x, y, z }
    }
}

/// [GRAPH.PT.DIST] `d2(a, b) = (dx*dx + dy*dy) + dz*dz` with `dx = b.x - a.x`, in that order.
#[inline(always)]
pub fn squared_distance(a: Point3, b: Point3) -> f64 {
    let dx = b.x - a.x;
    let dy = b.y - a.y;
    let dz = b.z - a.z;
    (dx * dx + dy * dy) + dz * dz
}

/// [GRAPH.PT.DIST] `distance(a, b) = sqrt(d2(a, b))`.
#[inline(always)]
pub fn distance(a: Point3, b: Point3) -> f64 {
    squared_distance(a, b).sqrt()
}

/// [GRAPH.VAL.NEG_ZERO] Stores `-0.0` as `+0.0` (every other value unchanged).
#[inline(always)]
pub(crate) fn store_weight(w: f64) -> f64 {
    if w == 0.0 {
        0.0
    } else {
        w
    }
}

/// [GRAPH.CSR.VALIDATE] A weight is valid when finite and `>= 0` (`-0.0` included).
#[inline(always)]
pub(crate) fn weight_ok(w: f64) -> bool {
    w.is_finite() && w >= 0.0
}
