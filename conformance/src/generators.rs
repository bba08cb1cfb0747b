//! Seeded case generators ([CONF.GEN.*]): sparse, dense, grid-like, road-like and point graphs,
//! plus the planar road network of the `road` subcommand. Every draw comes from the harness's
//! own [`SplitMix64`], so a (kind, seed, size) triple always yields the same case.
//! [CONF.GEN.KINDS] The kinds and their parameters.

use crate::prng::SplitMix64;
use crate::scenario::{Case, GraphSpec, LandmarkSpec, Query, StrategySpec};
use serde_json::{json, Map, Value};

/// A directed edge list `(from, to, weight)`.
pub type EdgeList = Vec<(u32, u32, f64)>;

/// How a point graph is linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointMode {
    /// `max_distance > 0`, `nearest_count = 0`.
    Radius,
    /// `nearest_count > 0`, no radius.
    Nearest,
    /// Both (the radius caps the nearest candidates).
    Both,
    /// Explicit links only.
    Explicit,
}

/// Generator kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Sparse directed graph, integer weights 0..=9 (zeros included), self-loops and parallel edges.
    Sparse,
    /// Dense graph (directed or not), integer weights 1..=20.
    Dense,
    /// Lattice with integer positions and integer weights `ceil(length) + 0..=2`.
    Grid,
    /// Jittered lattice with ~15% of edges removed, weights `length * [1, 1.3)` (fractional).
    Road,
    /// Random points linked by [`PointMode`].
    Points(PointMode),
    /// Random points in 3D linked by radius.
    Points3d,
}

impl Kind {
    /// The name recorded in a scenario's `generator.kind`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sparse => "sparse",
            Kind::Dense => "dense",
            Kind::Grid => "grid",
            Kind::Road => "road",
            Kind::Points(PointMode::Radius) => "points_radius",
            Kind::Points(PointMode::Nearest) => "points_nearest",
            Kind::Points(PointMode::Both) => "points_both",
            Kind::Points(PointMode::Explicit) => "points_explicit",
            Kind::Points3d => "points_3d",
        }
    }

    /// Whether every edge weight is an integer (exact oracle comparison).
    pub fn integer_weights(self) -> bool {
        matches!(self, Kind::Sparse | Kind::Dense | Kind::Grid)
    }

    /// Every kind, for round-robin generation.
    pub const ALL: [Kind; 9] = [
        Kind::Sparse,
        Kind::Dense,
        Kind::Grid,
        Kind::Road,
        Kind::Points(PointMode::Radius),
        Kind::Points(PointMode::Nearest),
        Kind::Points(PointMode::Both),
        Kind::Points(PointMode::Explicit),
        Kind::Points3d,
    ];
}

/// A generated case with its queries and provenance.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The graph and landmark options.
    pub case: Case,
    /// Queries.
    pub queries: Vec<Query>,
    /// Whether weights are integers.
    pub integer_weights: bool,
    /// The `generator` object of a scenario file.
    pub provenance: Map<String, Value>,
}

fn landmark_spec(rng: &mut SplitMix64, n: usize) -> LandmarkSpec {
    let max = n.clamp(1, 6) as u64;
    LandmarkSpec {
        count: rng.range(1, max) as u32,
        strategy: if rng.chance(0.5) {
            StrategySpec::Avoid
        } else {
            StrategySpec::Farthest
        },
        seed: rng.below(1000) + 1,
    }
}

/// `queries` random queries over `n` nodes; about one in eight has `start == goal`.
pub fn random_queries(rng: &mut SplitMix64, n: usize, queries: usize) -> Vec<Query> {
    (0..queries)
        .map(|_| {
            let s = rng.below(n as u64) as u32;
            let g = if rng.chance(0.125) {
                s
            } else {
                rng.below(n as u64) as u32
            };
            (s, g)
        })
        .collect()
}

fn lattice(n: usize) -> (usize, usize) {
    let w = ((n as f64).sqrt().ceil() as usize).max(2);
    let h = n.div_ceil(w).max(1);
    (w, h)
}

/// The spec's distance ([GRAPH.PT.DIST]) evaluated by the harness.
pub fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (dx, dy, dz) = (b[0] - a[0], b[1] - a[1], b[2] - a[2]);
    ((dx * dx + dy * dy) + dz * dz).sqrt()
}

fn edges_graph(rng: &mut SplitMix64, kind: Kind, size: usize) -> GraphSpec {
    let n = size.max(2);
    match kind {
        Kind::Sparse => {
            let m = n * 2 + rng.below(n as u64) as usize;
            let edges = (0..m)
                .map(|_| {
                    (
                        rng.below(n as u64) as u32,
                        rng.below(n as u64) as u32,
                        rng.below(10) as f64,
                    )
                })
                .collect();
            GraphSpec::Edges {
                node_count: n as u32,
                directed: true,
                edges,
                positions: None,
            }
        }
        Kind::Dense => {
            let directed = rng.chance(0.5);
            let p = 0.3 + 0.5 * rng.unit();
            let mut edges = Vec::new();
            for a in 0..n as u32 {
                for b in 0..n as u32 {
                    if (directed && a != b || a < b) && rng.chance(p) {
                        edges.push((a, b, rng.range(1, 20) as f64));
                    }
                }
            }
            GraphSpec::Edges {
                node_count: n as u32,
                directed,
                edges,
                positions: None,
            }
        }
        Kind::Grid | Kind::Road => {
            let (w, h) = lattice(n);
            let road = kind == Kind::Road;
            let positions: Vec<[f64; 3]> = (0..w * h)
                .map(|i| {
                    let (x, y) = ((i % w) as f64, (i / w) as f64);
                    if road {
                        [
                            (x + 0.7 * rng.unit() - 0.35) * 100.0,
                            (y + 0.7 * rng.unit() - 0.35) * 100.0,
                            0.0,
                        ]
                    } else {
                        [x, y, 0.0]
                    }
                })
                .collect();
            let mut edges = Vec::new();
            let drop = if road { 0.15 } else { 0.1 };
            for i in 0..w * h {
                let (x, y) = (i % w, i / w);
                let mut neighbours = Vec::new();
                if x + 1 < w {
                    neighbours.push(i + 1);
                }
                if y + 1 < h {
                    neighbours.push(i + w);
                }
                if !road && x + 1 < w && y + 1 < h && rng.chance(0.3) {
                    neighbours.push(i + w + 1);
                }
                for j in neighbours {
                    if rng.chance(drop) {
                        continue;
                    }
                    let len = distance(positions[i], positions[j]);
                    let weight = if road {
                        len * (1.0 + 0.3 * rng.unit())
                    } else {
                        len.ceil() + rng.below(3) as f64
                    };
                    edges.push((i as u32, j as u32, weight));
                }
            }
            GraphSpec::Edges {
                node_count: (w * h) as u32,
                directed: false,
                edges,
                positions: Some(positions),
            }
        }
        _ => unreachable!("not an edges kind"),
    }
}

fn points_graph(rng: &mut SplitMix64, kind: Kind, size: usize) -> GraphSpec {
    let n = size.max(2);
    let side = (n as f64).sqrt() * 10.0;
    let three_d = kind == Kind::Points3d;
    let points: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            [
                rng.unit() * side,
                rng.unit() * side,
                if three_d { rng.unit() * 20.0 } else { 0.0 },
            ]
        })
        .collect();
    let mode = match kind {
        Kind::Points(m) => m,
        _ => PointMode::Radius,
    };
    let radius = 10.0 + 10.0 * rng.unit();
    let (max_distance, nearest_count) = match mode {
        PointMode::Radius => (radius, 0),
        PointMode::Nearest => (0.0, rng.range(1, 4) as u32),
        PointMode::Both => (radius, rng.range(1, 4) as u32),
        PointMode::Explicit => (0.0, 0),
    };
    let explicit_count = match mode {
        PointMode::Explicit => n + rng.below(n as u64) as usize,
        _ => rng.below(3) as usize,
    };
    let explicit = (0..explicit_count)
        .map(|_| [rng.below(n as u64) as u32, rng.below(n as u64) as u32])
        .collect();
    GraphSpec::Points {
        points,
        explicit,
        max_distance,
        nearest_count,
    }
}

/// Generates a case of `kind` with about `size` nodes and `queries` queries.
pub fn generate(kind: Kind, seed: u64, size: usize, queries: usize) -> Generated {
    let mut rng = SplitMix64::new(seed);
    let graph = match kind {
        Kind::Points(_) | Kind::Points3d => points_graph(&mut rng, kind, size),
        _ => edges_graph(&mut rng, kind, size),
    };
    let n = graph.node_count();
    let landmarks = landmark_spec(&mut rng, n);
    let queries = random_queries(&mut rng, n, queries);
    let provenance = match json!({"kind": kind.name(), "seed": seed, "size": size}) {
        Value::Object(m) => m,
        _ => unreachable!(),
    };
    Generated {
        case: Case { graph, landmarks },
        queries,
        integer_weights: kind.integer_weights(),
        provenance,
    }
}

/// The expanded directed edge list a graph spec denotes for an `Edges` graph (reverse edges of
/// an undirected list included, in id order per [GRAPH.MUT.FROM]). `None` for point graphs.
pub fn directed_edges(graph: &GraphSpec) -> Option<Vec<(u32, u32, f64)>> {
    match graph {
        GraphSpec::Edges {
            edges, directed, ..
        } => {
            let mut out = Vec::with_capacity(edges.len() * 2);
            for &(a, b, w) in edges {
                out.push((a, b, w));
                if !directed {
                    out.push((b, a, w));
                }
            }
            Some(out)
        }
        GraphSpec::Points { .. } => None,
    }
}

/// A planar road-like network for the `road` subcommand: a jittered lattice of about `n` nodes,
/// ~15% of edges removed, weights `length * [1, 1.3)`. Returns positions and undirected edges.
pub fn road_network(n: usize, seed: u64) -> (Vec<[f64; 3]>, EdgeList) {
    let mut rng = SplitMix64::new(seed);
    match edges_graph(&mut rng, Kind::Road, n) {
        GraphSpec::Edges {
            positions, edges, ..
        } => (positions.unwrap_or_default(), edges),
        _ => unreachable!(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generation_is_deterministic() {
        for kind in Kind::ALL {
            let a = generate(kind, 42, 30, 4);
            let b = generate(kind, 42, 30, 4);
            assert_eq!(a.case, b.case);
            assert_eq!(a.queries, b.queries);
        }
    }

    #[test]
    fn grid_weights_bound_distances() {
        let g = generate(Kind::Grid, 3, 25, 1);
        if let GraphSpec::Edges {
            edges,
            positions: Some(p),
            ..
        } = &g.case.graph
        {
            for &(a, b, w) in edges {
                assert!(w >= distance(p[a as usize], p[b as usize]));
                assert_eq!(w, w.trunc());
            }
        } else {
            panic!("grid is an edges graph with positions");
        }
    }
}
