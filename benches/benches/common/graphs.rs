//! Seeded graph workloads shared by the graph benches (`benches/benches/{graph,alt}.rs` and
//! `benches/benches/graph_reference.rs`, which includes this file with `#[path]`).
//!
//! Every generator is deterministic (the bench's own xorshift64* PRNG) and builds an undirected
//! graph (both directions stored) with a point per node:
//!
//! - `lattice`: the historical 1000 x 1000 jittered lattice (nodes moved by up to +-0.3, ~15 % of
//!   lattice edges removed, weight = Euclidean length x a factor in [1, 1.3]); estimate =
//!   Euclidean distance. Its first local queries are the ones of the earlier `BENCHMARKS.md`
//!   tables.
//! - `road`: an 800 x 800 jittered lattice with travel-time weights: weight = length x factor /
//!   speed, local streets speed 1 (factor in [1, 1.3], ~15 % removed), "arterials" on every 32nd
//!   row and column speed 2, "motorways" on every 128th row and column speed 4 (factor in
//!   [1, 1.05], never removed); estimate = Euclidean distance / 4 (the weak estimate a
//!   travel-time graph allows). The estimate points are the points scaled by 1/4: a power of two,
//!   so `distance(p/4, q/4)` is bit for bit `distance(p, q) / 4`, and every engine (onepath's
//!   `EuclideanGraphHeuristic`, the baseline, petgraph, pathfinding) reads the same array.
//! - `rgg`: a random geometric graph, 500,000 points uniform in a square of side sqrt(N), an edge
//!   between every pair closer than 1.4 (mean degree ~6.2), weight = length x factor in [1, 1.3];
//!   queries are drawn from the largest connected component only.
//! - `road_relabelled`: `road` with node ids randomly permuted (points, edges and queries mapped
//!   through the same permutation): the same graph and costs, without the lattice's memory
//!   locality.
//!
//! Two query sets per graph: `local` (start uniform over the largest component, goal uniform
//! among its nodes within +-200 in x and y; for `lattice`, the historical clipped offsets) and
//! `long` (start and goal uniform over the largest component).
#![allow(dead_code)]

use onepath::{distance, CsrGraph, GraphEdge, Point3};

/// The benches' small PRNG (xorshift64*).
pub struct Prng(pub u64);
impl Prng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One graph workload: the CSR graph, the points the estimate reads, the query sets.
pub struct Workload {
    pub name: &'static str,
    /// Points of the nodes (for geometry).
    pub points: Vec<Point3>,
    /// Points the A* estimate reads: `points` scaled so that their distance never exceeds the
    /// cheapest travel cost (`points` themselves for length weights, `points / 4` for `road`).
    pub est_points: Vec<Point3>,
    pub edges: Vec<GraphEdge>,
    pub csr: CsrGraph,
    pub local: Vec<(u32, u32)>,
    pub long: Vec<(u32, u32)>,
}

impl Workload {
    pub fn node_count(&self) -> usize {
        self.points.len()
    }
    pub fn queries(&self, set: QuerySet) -> &[(u32, u32)] {
        match set {
            QuerySet::Local => &self.local,
            QuerySet::Long => &self.long,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuerySet {
    Local,
    Long,
}
impl QuerySet {
    pub fn name(self) -> &'static str {
        match self {
            QuerySet::Local => "local",
            QuerySet::Long => "long",
        }
    }
}

/// Query counts per batch, chosen so that one batch stays well under a few seconds for the
/// slowest peer on 2 cores (criterion runs 11 batches per group).
pub const LOCAL_QUERIES: usize = 12;
pub const LONG_QUERIES: usize = 3;

fn build(
    name: &'static str,
    points: Vec<Point3>,
    est_points: Vec<Point3>,
    edges: Vec<GraphEdge>,
) -> Workload {
    let csr = CsrGraph::new(points.len(), &edges).expect("valid graph");
    Workload {
        name,
        points,
        est_points,
        edges,
        csr,
        local: Vec::new(),
        long: Vec::new(),
    }
}

fn jittered(side: u32, rng: &mut Prng) -> Vec<Point3> {
    (0..side * side)
        .map(|v| {
            let (x, y) = ((v % side) as f64, (v / side) as f64);
            Point3::new(x + 0.6 * rng.unit() - 0.3, y + 0.6 * rng.unit() - 0.3, 0.0)
        })
        .collect()
}

/// (a) The historical jittered lattice (same seed, same edges as the earlier tables).
pub fn lattice() -> Workload {
    const SIDE: u32 = 1000;
    let mut rng = Prng(0x9E37_79B9_7F4A_7C15);
    let n = (SIDE * SIDE) as usize;
    let points = jittered(SIDE, &mut rng);
    let mut edges = Vec::new();
    for v in 0..n as u32 {
        let (x, y) = (v % SIDE, v / SIDE);
        let mut link = |u: u32, rng: &mut Prng| {
            if rng.unit() < 0.15 {
                return;
            }
            let w = distance(points[v as usize], points[u as usize]) * (1.0 + 0.3 * rng.unit());
            edges.push(GraphEdge::new(v, u, w));
            edges.push(GraphEdge::new(u, v, w));
        };
        if x + 1 < SIDE {
            link(v + 1, &mut rng);
        }
        if y + 1 < SIDE {
            link(v + SIDE, &mut rng);
        }
    }
    // The historical local queries: start uniform, goal = start + offset in [-200, 200]^2,
    // clipped. One of the first 200 is not connected; it is dropped (an unreachable goal makes
    // every engine settle the whole component, which would dominate a small batch), and the
    // first LOCAL_QUERIES connected ones are kept.
    let historical: Vec<(u32, u32)> = (0..200)
        .map(|_| {
            let s = rng.below(n as u64) as u32;
            let (x, y) = ((s % SIDE) as i64, (s / SIDE) as i64);
            let tx = (x + rng.below(401) as i64 - 200).clamp(0, SIDE as i64 - 1);
            let ty = (y + rng.below(401) as i64 - 200).clamp(0, SIDE as i64 - 1);
            (s, (ty * SIDE as i64 + tx) as u32)
        })
        .collect();
    let est = points.clone();
    let mut w = build("lattice", points, est, edges);
    let comp = largest_component(&w.csr);
    let mut inside = vec![false; n];
    for &v in &comp {
        inside[v as usize] = true;
    }
    w.local = historical
        .into_iter()
        .filter(|&(a, b)| inside[a as usize] && inside[b as usize])
        .take(LOCAL_QUERIES)
        .collect();
    w.long = long_queries(&comp, &mut Prng(0x10C4_1A77), LONG_QUERIES);
    w
}

/// Speeds of the road classes; `MAX_SPEED` is a power of two (see the module comment).
pub const MAX_SPEED: f64 = 4.0;

/// (b) Road-like lattice with travel-time weights and a sparse highway hierarchy.
pub fn road() -> Workload {
    const SIDE: u32 = 800;
    let mut rng = Prng(0x0AD5_EED5_1234_5678);
    let n = (SIDE * SIDE) as usize;
    let points = jittered(SIDE, &mut rng);
    // The speed class of the line (row or column index) an edge runs along.
    let speed_of = |line: u32| -> f64 {
        if line % 128 == 64 {
            4.0
        } else if line % 32 == 16 {
            2.0
        } else {
            1.0
        }
    };
    let mut edges = Vec::new();
    for v in 0..n as u32 {
        let (x, y) = (v % SIDE, v / SIDE);
        let mut link = |u: u32, line: u32, rng: &mut Prng| {
            let speed = speed_of(line);
            let factor = if speed > 1.0 {
                1.0 + 0.05 * rng.unit()
            } else {
                if rng.unit() < 0.15 {
                    return;
                }
                1.0 + 0.3 * rng.unit()
            };
            let w = distance(points[v as usize], points[u as usize]) * factor / speed;
            edges.push(GraphEdge::new(v, u, w));
            edges.push(GraphEdge::new(u, v, w));
        };
        if x + 1 < SIDE {
            link(v + 1, y, &mut rng); // along row y
        }
        if y + 1 < SIDE {
            link(v + SIDE, x, &mut rng); // along column x
        }
    }
    let est: Vec<Point3> = points
        .iter()
        .map(|p| Point3::new(p.x / MAX_SPEED, p.y / MAX_SPEED, p.z / MAX_SPEED))
        .collect();
    let mut w = build("road", points, est, edges);
    add_queries(&mut w, 0x0AD0_0001);
    w
}

/// (c) Random geometric graph.
pub fn rgg() -> Workload {
    const N: usize = 500_000;
    const RADIUS: f64 = 1.4;
    let side = (N as f64).sqrt();
    let mut rng = Prng(0x5EED_0F_66);
    let points: Vec<Point3> = (0..N)
        .map(|_| Point3::new(side * rng.unit(), side * rng.unit(), 0.0))
        .collect();
    // Buckets of side RADIUS; each pair is linked once (from the lower id).
    let cells = (side / RADIUS).ceil() as usize;
    let cell_of = |p: &Point3| {
        let cx = ((p.x / RADIUS) as usize).min(cells - 1);
        let cy = ((p.y / RADIUS) as usize).min(cells - 1);
        (cx, cy)
    };
    let mut start = vec![0u32; cells * cells + 1];
    for p in &points {
        let (cx, cy) = cell_of(p);
        start[cy * cells + cx + 1] += 1;
    }
    for i in 0..cells * cells {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut members = vec![0u32; N];
    for (v, p) in points.iter().enumerate() {
        let (cx, cy) = cell_of(p);
        let c = cy * cells + cx;
        members[fill[c] as usize] = v as u32;
        fill[c] += 1;
    }
    let mut edges = Vec::new();
    for (v, p) in points.iter().enumerate() {
        let (cx, cy) = cell_of(p);
        for ny in cy.saturating_sub(1)..=(cy + 1).min(cells - 1) {
            for nx in cx.saturating_sub(1)..=(cx + 1).min(cells - 1) {
                let c = ny * cells + nx;
                for &u in &members[start[c] as usize..start[c + 1] as usize] {
                    if (u as usize) <= v {
                        continue;
                    }
                    let d = distance(*p, points[u as usize]);
                    if d < RADIUS {
                        let w = d * (1.0 + 0.3 * rng.unit());
                        edges.push(GraphEdge::new(v as u32, u, w));
                        edges.push(GraphEdge::new(u, v as u32, w));
                    }
                }
            }
        }
    }
    let est = points.clone();
    let mut w = build("rgg", points, est, edges);
    add_queries(&mut w, 0x0666_0001);
    w
}

/// (d) `road` with node ids randomly permuted.
pub fn relabelled(base: &Workload, name: &'static str, seed: u64) -> Workload {
    let n = base.node_count();
    let mut perm: Vec<u32> = (0..n as u32).collect();
    let mut rng = Prng(seed);
    for i in (1..n).rev() {
        perm.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut points = vec![Point3::new(0.0, 0.0, 0.0); n];
    let mut est = points.clone();
    for v in 0..n {
        points[perm[v] as usize] = base.points[v];
        est[perm[v] as usize] = base.est_points[v];
    }
    let edges: Vec<GraphEdge> = base
        .edges
        .iter()
        .map(|e| GraphEdge::new(perm[e.from as usize], perm[e.to as usize], e.weight))
        .collect();
    let mut w = build(name, points, est, edges);
    let map = |q: &[(u32, u32)]| -> Vec<(u32, u32)> {
        q.iter()
            .map(|&(a, b)| (perm[a as usize], perm[b as usize]))
            .collect()
    };
    w.local = map(&base.local);
    w.long = map(&base.long);
    w
}

/// The nodes of the largest weakly connected component (the graphs are undirected).
pub fn largest_component(g: &CsrGraph) -> Vec<u32> {
    let n = g.node_count();
    let (off, tg) = (g.offsets(), g.targets());
    let mut comp = vec![u32::MAX; n];
    let mut stack = Vec::new();
    let (mut best, mut best_size, mut next) = (0u32, 0usize, 0u32);
    for s in 0..n {
        if comp[s] != u32::MAX {
            continue;
        }
        comp[s] = next;
        stack.push(s as u32);
        let mut size = 0;
        while let Some(u) = stack.pop() {
            size += 1;
            for &t in &tg[off[u as usize] as usize..off[u as usize + 1] as usize] {
                if comp[t as usize] == u32::MAX {
                    comp[t as usize] = next;
                    stack.push(t);
                }
            }
        }
        if size > best_size {
            best_size = size;
            best = next;
        }
        next += 1;
    }
    (0..n as u32)
        .filter(|&v| comp[v as usize] == best)
        .collect()
}

fn long_queries(comp: &[u32], rng: &mut Prng, count: usize) -> Vec<(u32, u32)> {
    (0..count)
        .map(|_| {
            let a = comp[rng.below(comp.len() as u64) as usize];
            let b = comp[rng.below(comp.len() as u64) as usize];
            (a, b)
        })
        .collect()
}

/// Local and long queries over the largest component.
fn add_queries(w: &mut Workload, seed: u64) {
    let comp = largest_component(&w.csr);
    let mut rng = Prng(seed);
    let mut local = Vec::new();
    while local.len() < LOCAL_QUERIES {
        let a = comp[rng.below(comp.len() as u64) as usize];
        let pa = w.points[a as usize];
        // Rejection sampling: a goal uniform among the component's nodes within +-200.
        loop {
            let b = comp[rng.below(comp.len() as u64) as usize];
            let pb = w.points[b as usize];
            if (pa.x - pb.x).abs() <= 200.0 && (pa.y - pb.y).abs() <= 200.0 {
                local.push((a, b));
                break;
            }
        }
    }
    w.local = local;
    w.long = long_queries(&comp, &mut rng, LONG_QUERIES);
}

/// Costs agree within 1e-9 relative (both infinite counts as equal). Returns how many are also
/// bit-identical.
pub fn assert_close(name: &str, ours: &[f64], theirs: &[f64]) -> usize {
    assert_eq!(ours.len(), theirs.len(), "{name}: query counts");
    let mut exact = 0;
    for (i, (&x, &y)) in ours.iter().zip(theirs).enumerate() {
        let ok =
            (x.is_infinite() && y.is_infinite()) || (x - y).abs() <= 1e-9 * x.abs().max(y.abs());
        assert!(ok, "{name}: query {i}: onepath {x} vs {y}");
        exact += (x.to_bits() == y.to_bits()) as usize;
    }
    exact
}

/// Whether the peers should run in reverse order (`ONEPATH_BENCH_REVERSE=1`), to expose order
/// effects (heat, frequency, cache state left by the previous peer).
pub fn reverse_order() -> bool {
    std::env::var("ONEPATH_BENCH_REVERSE").is_ok_and(|v| v == "1")
}
