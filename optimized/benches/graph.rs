//! Road-like graph benchmark: onepath vs petgraph and pathfinding on the same graph and queries.
//!
//! Graph: a 1000 x 1000 lattice with every node jittered by up to +-0.3 in x and y, about 15% of
//! the lattice edges removed, undirected (both directions stored), weight = Euclidean length x a
//! factor in [1, 1.3]. Queries: 200 seeded one-to-one pairs, start uniform over the lattice, goal
//! = start + an offset uniform in [-200, 200]^2 (clipped to the lattice) so one batch stays in
//! the seconds range for every crate. Each benchmark measures the whole batch of 200 queries.
//!
//! The pathfinding crate needs `Ord` costs: f64 weights are wrapped in `OrdF64`, ordered by
//! `f64::total_cmp` (all costs are finite and non-negative, so this is the usual order), with
//! `Zero` and `Add` forwarding to f64. Nothing is scaled; costs are compared with onepath's.

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode};
use onepath::*;
use onepath_reference as R;
use pathfinding::num_traits::Zero;
use petgraph::graph::{DiGraph, NodeIndex};
use std::cmp::Ordering;
use std::ops::Add;
use std::time::{Duration, Instant};

const SIDE: u32 = 1000;
const QUERIES: usize = 200;
const LANDMARKS: usize = 16;

/// The bench's own small PRNG (xorshift64*).
struct Prng(u64);
impl Prng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
struct OrdF64(f64);
impl Eq for OrdF64 {}
#[allow(clippy::derive_ord_xor_partial_ord)]
impl Ord for OrdF64 {
    fn cmp(&self, o: &Self) -> Ordering {
        self.0.total_cmp(&o.0)
    }
}
impl Add for OrdF64 {
    type Output = OrdF64;
    fn add(self, o: OrdF64) -> OrdF64 {
        OrdF64(self.0 + o.0)
    }
}
impl Zero for OrdF64 {
    fn zero() -> Self {
        OrdF64(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

struct Setup {
    points: Vec<Point3>,
    csr: CsrGraph,
    pet: DiGraph<(), f64>,
    adj: Vec<Vec<(u32, f64)>>,
    queries: Vec<(u32, u32)>,
    landmarks: Landmarks,
}

fn setup() -> Setup {
    let mut rng = Prng(0x9E37_79B9_7F4A_7C15);
    let n = (SIDE * SIDE) as usize;
    let points: Vec<Point3> = (0..n as u32)
        .map(|v| {
            let (x, y) = ((v % SIDE) as f64, (v / SIDE) as f64);
            Point3::new(x + 0.6 * rng.unit() - 0.3, y + 0.6 * rng.unit() - 0.3, 0.0)
        })
        .collect();
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
    let csr = CsrGraph::new(n, &edges).unwrap();
    let mut pet = DiGraph::<(), f64>::with_capacity(n, edges.len());
    for _ in 0..n {
        pet.add_node(());
    }
    let mut adj = vec![Vec::new(); n];
    for e in &edges {
        pet.add_edge(
            NodeIndex::new(e.from as usize),
            NodeIndex::new(e.to as usize),
            e.weight,
        );
        adj[e.from as usize].push((e.to, e.weight));
    }
    let queries = (0..QUERIES)
        .map(|_| {
            let s = rng.below(n as u64) as u32;
            let (x, y) = ((s % SIDE) as i64, (s / SIDE) as i64);
            let tx = (x + rng.below(401) as i64 - 200).clamp(0, SIDE as i64 - 1);
            let ty = (y + rng.below(401) as i64 - 200).clamp(0, SIDE as i64 - 1);
            (s, (ty * SIDE as i64 + tx) as u32)
        })
        .collect();
    let t0 = Instant::now();
    let landmarks = Landmarks::build(
        &csr,
        &LandmarkOptions {
            count: LANDMARKS,
            ..Default::default()
        },
    )
    .unwrap();
    eprintln!(
        "graph: {} nodes, {} edges; landmarks built in {:?}",
        n,
        csr.edge_count(),
        t0.elapsed()
    );
    Setup {
        points,
        csr,
        pet,
        adj,
        queries,
        landmarks,
    }
}

/// The same graph built with `onepath-reference`.
fn reference_graph(st: &Setup) -> (Vec<R::Point3>, R::CsrGraph) {
    let points = st
        .points
        .iter()
        .map(|p| R::Point3::new(p.x, p.y, p.z))
        .collect();
    let (off, tg, wt) = (st.csr.offsets(), st.csr.targets(), st.csr.weights());
    let mut edges = Vec::with_capacity(tg.len());
    for u in 0..st.csr.node_count() {
        for k in off[u] as usize..off[u + 1] as usize {
            edges.push(R::GraphEdge::new(u as u32, tg[k], wt[k]));
        }
    }
    (
        points,
        R::CsrGraph::new(st.csr.node_count(), &edges).unwrap(),
    )
}

/// One batch of queries on a reusable tier-2 search: `begin`, `run`, `path()`, cost. The three
/// search types share these methods but no trait, so one macro body serves them all.
macro_rules! batch_fn {
    ($name:ident, $search:ident, $cost:path, $heur:path) => {
        fn $name<C: $cost, H: $heur>(
            s: &mut $search<'_, C, H>,
            queries: &[(u32, u32)],
        ) -> Vec<f64> {
            queries
                .iter()
                .map(|&(a, b)| {
                    s.begin(a, b).unwrap();
                    s.run(None);
                    black_box(s.path());
                    s.path_cost()
                })
                .collect()
        }
    };
}
use R::GraphAStar as RefGraphAStar;
batch_fn!(
    reference_batch,
    RefGraphAStar,
    R::GraphCost,
    R::GraphHeuristic
);
batch_fn!(onepath_batch, GraphAStar, GraphCost, GraphHeuristic);
batch_fn!(
    bidi_batch,
    BidirectionalGraphSearch,
    GraphCost,
    GraphHeuristic
);

fn bits_equal(name: &str, a: &[f64], b: &[f64]) {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.to_bits(), y.to_bits(), "{name}: query {i}: {x} vs {y}");
    }
}

fn euclid(p: &[Point3], a: usize, b: usize) -> f64 {
    distance(p[a], p[b])
}

fn pet_dijkstra(st: &Setup) -> Vec<f64> {
    st.queries
        .iter()
        .map(|&(a, b)| {
            let m = petgraph::algo::dijkstra(
                &st.pet,
                NodeIndex::new(a as usize),
                Some(NodeIndex::new(b as usize)),
                |e| *e.weight(),
            );
            m.get(&NodeIndex::new(b as usize))
                .copied()
                .unwrap_or(f64::INFINITY)
        })
        .collect()
}

fn pet_astar(st: &Setup) -> Vec<f64> {
    st.queries
        .iter()
        .map(|&(a, b)| {
            let goal = NodeIndex::new(b as usize);
            petgraph::algo::astar(
                &st.pet,
                NodeIndex::new(a as usize),
                |n| n == goal,
                |e| *e.weight(),
                |n| euclid(&st.points, n.index(), b as usize),
            )
            .map_or(f64::INFINITY, |(c, path)| {
                black_box(path);
                c
            })
        })
        .collect()
}

fn pf_dijkstra(st: &Setup) -> Vec<f64> {
    st.queries
        .iter()
        .map(|&(a, b)| {
            pathfinding::prelude::dijkstra(
                &a,
                |&v| st.adj[v as usize].iter().map(|&(t, w)| (t, OrdF64(w))),
                |&v| v == b,
            )
            .map_or(f64::INFINITY, |(path, c)| {
                black_box(path);
                c.0
            })
        })
        .collect()
}

fn pf_astar(st: &Setup) -> Vec<f64> {
    st.queries
        .iter()
        .map(|&(a, b)| {
            pathfinding::prelude::astar(
                &a,
                |&v| st.adj[v as usize].iter().map(|&(t, w)| (t, OrdF64(w))),
                |&v| OrdF64(euclid(&st.points, v as usize, b as usize)),
                |&v| v == b,
            )
            .map_or(f64::INFINITY, |(path, c)| {
                black_box(path);
                c.0
            })
        })
        .collect()
}

fn same(name: &str, a: &[f64], b: &[f64]) {
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        let ok =
            (x.is_infinite() && y.is_infinite()) || (x - y).abs() <= 1e-9 * x.abs().max(y.abs());
        assert!(ok, "{name}: query {i}: onepath {x} vs peer {y}");
    }
}

fn timed<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    eprintln!(
        "check run {label}: {:?} for {} queries",
        t.elapsed(),
        QUERIES
    );
    r
}

fn benches(c: &mut Criterion) {
    let st = setup();
    let q = &st.queries;
    let mut dij = GraphAStar::new(&st.csr, DefaultGraphCost, ZeroGraphHeuristic);
    let mut ast = GraphAStar::new(
        &st.csr,
        DefaultGraphCost,
        EuclideanGraphHeuristic::new(&st.points),
    );
    let mut bid = BidirectionalGraphSearch::new(
        &st.csr,
        DefaultGraphCost,
        EuclideanGraphHeuristic::new(&st.points),
    );
    let mut alt = GraphAStar::new(
        &st.csr,
        DefaultGraphCost,
        AltGraphHeuristic::new(&st.landmarks),
    );

    // Correctness check before timing: every engine's costs against the peers'.
    let base = timed("onepath dijkstra", || onepath_batch(&mut dij, q));
    same(
        "onepath A*",
        &timed("onepath A*", || onepath_batch(&mut ast, q)),
        &base,
    );
    same(
        "onepath bidi A*",
        &timed("onepath bidi A*", || bidi_batch(&mut bid, q)),
        &base,
    );
    same(
        "onepath ALT",
        &timed("onepath ALT", || onepath_batch(&mut alt, q)),
        &base,
    );
    same(
        "petgraph dijkstra",
        &base,
        &timed("petgraph dijkstra", || pet_dijkstra(&st)),
    );
    same(
        "petgraph astar",
        &base,
        &timed("petgraph astar", || pet_astar(&st)),
    );
    same(
        "pathfinding dijkstra",
        &base,
        &timed("pathfinding dijkstra", || pf_dijkstra(&st)),
    );
    same(
        "pathfinding astar",
        &base,
        &timed("pathfinding astar", || pf_astar(&st)),
    );
    eprintln!(
        "found: {} of {}",
        base.iter().filter(|c| c.is_finite()).count(),
        QUERIES
    );

    let mut group = |name: &str, f: &mut dyn FnMut() -> Vec<f64>| {
        let mut g = c.benchmark_group(name);
        g.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(1))
            .measurement_time(Duration::from_millis(100));
        g.bench_function("batch200", |b| b.iter(|| black_box(f())));
        g.finish();
    };
    group("dijkstra_onepath", &mut || onepath_batch(&mut dij, q));
    // Tier 1 (`Graph::find_path`, pooled 4-ary heap) over the same edges.
    let (off, tg, wt) = (st.csr.offsets(), st.csr.targets(), st.csr.weights());
    let mut edges = Vec::with_capacity(tg.len());
    for u in 0..st.csr.node_count() {
        for k in off[u] as usize..off[u + 1] as usize {
            edges.push(GraphEdge::new(u as u32, tg[k], wt[k]));
        }
    }
    let mg = Graph::from_edges(&edges, Some(st.csr.node_count()), true).unwrap();
    mg.compile();
    let opts = GraphOptions::default();
    let tier1 = || -> Vec<f64> {
        q.iter()
            .map(|&(a, b)| mg.find_path(a, b, &opts).unwrap().cost)
            .collect()
    };
    same("onepath tier-1 dijkstra", &tier1(), &base);
    group("dijkstra_onepath_tier1", &mut || tier1());
    group("dijkstra_petgraph", &mut || pet_dijkstra(&st));
    group("dijkstra_pathfinding", &mut || pf_dijkstra(&st));
    group("astar_onepath", &mut || onepath_batch(&mut ast, q));
    // Tier 1 A*: the Euclidean estimate through the `heuristic` hook (pooled 4-ary heap).
    let pts = std::sync::Arc::new(st.points.clone());
    let hook_pts = pts.clone();
    let aopts = GraphOptions {
        algorithm: Algorithm::AStar,
        heuristic: Some(std::sync::Arc::new(move |a: u32, b: u32| {
            euclid(&hook_pts, a as usize, b as usize)
        })),
        ..GraphOptions::default()
    };
    let tier1_astar = || -> Vec<f64> {
        q.iter()
            .map(|&(a, b)| mg.find_path(a, b, &aopts).unwrap().cost)
            .collect()
    };
    bits_equal(
        "onepath tier-1 A*",
        &tier1_astar(),
        &onepath_batch(&mut ast, q),
    );
    group("astar_onepath_tier1", &mut || tier1_astar());
    group("astar_petgraph", &mut || pet_astar(&st));
    group("astar_pathfinding", &mut || pf_astar(&st));
    group("bidi_astar_onepath", &mut || bidi_batch(&mut bid, q));
    // The reference crate on the same graph and queries (its results must be bit-identical).
    let (rp, rcsr) = reference_graph(&st);
    let mut rdij = R::GraphAStar::new(&rcsr, R::DefaultGraphCost, R::ZeroGraphHeuristic);
    let mut rast = R::GraphAStar::new(
        &rcsr,
        R::DefaultGraphCost,
        R::EuclideanGraphHeuristic::new(&rp),
    );
    bits_equal(
        "reference dijkstra",
        &timed("reference dijkstra", || reference_batch(&mut rdij, q)),
        &base,
    );
    let onepath_astar = onepath_batch(&mut ast, q);
    bits_equal(
        "reference A*",
        &timed("reference A*", || reference_batch(&mut rast, q)),
        &onepath_astar,
    );
    group("dijkstra_reference", &mut || reference_batch(&mut rdij, q));
    group("astar_reference", &mut || reference_batch(&mut rast, q));
    group("alt16_astar_onepath", &mut || onepath_batch(&mut alt, q));
}

criterion_group!(graph, benches);
criterion_main!(graph);
