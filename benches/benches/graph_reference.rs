//! onepath beside the reference crate (and the hand-written baseline) on the `lattice` and `road`
//! workloads of `benches/benches/common/graphs.rs` (included with `#[path]`; the optimized
//! crate never names the reference, so every comparison needing both lives here).
//!
//! Before timing: the reference's costs are asserted bit-identical to onepath's (the crates must
//! agree bit for bit), and the baseline's within 1e-9 relative (bit-identical counts printed).
//!
//! `CARGO_TARGET_DIR=/tmp/t-bench cargo bench -p onepath-benches --bench graph_reference`

#[allow(dead_code)]
#[path = "common/baseline.rs"]
mod baseline;
#[allow(dead_code)]
#[path = "common/graphs.rs"]
mod graphs;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use graphs::{assert_close, QuerySet, Workload};
use onepath::*;
use onepath_reference as r;
use std::hint::black_box;
use std::time::Duration;

/// One batch on a reusable tier-2 search; the two crates' `GraphAStar` share these methods but
/// no trait, so one macro body serves both.
macro_rules! batch_fn {
    ($name:ident, $search:path, $cost:path, $heur:path) => {
        fn $name<C: $cost, H: $heur>(s: &mut $search, q: &[(u32, u32)]) -> Vec<f64> {
            q.iter()
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
batch_fn!(
    onepath_batch,
    GraphAStar<'_, C, H>,
    GraphCost,
    GraphHeuristic
);
batch_fn!(
    reference_batch,
    r::GraphAStar<'_, C, H>,
    r::GraphCost,
    r::GraphHeuristic
);

fn bits_equal(name: &str, a: &[f64], b: &[f64]) {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(x.to_bits(), y.to_bits(), "{name}: query {i}: {x} vs {y}");
    }
}

type Entry<'a> = (&'static str, Box<dyn FnMut() -> Vec<f64> + 'a>);

fn group(c: &mut Criterion, name: &str, queries: usize, mut entries: Vec<Entry<'_>>) {
    if graphs::reverse_order() {
        entries.reverse();
    }
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_millis(100))
        .throughput(Throughput::Elements(queries as u64));
    for (label, f) in entries.iter_mut() {
        g.bench_function(*label, |b| b.iter(|| black_box(f())));
    }
    g.finish();
}

fn run_workload(c: &mut Criterion, w: &Workload) {
    let rp: Vec<r::Point3> = w
        .est_points
        .iter()
        .map(|p| r::Point3::new(p.x, p.y, p.z))
        .collect();
    let redges: Vec<r::GraphEdge> = w
        .edges
        .iter()
        .map(|e| r::GraphEdge::new(e.from, e.to, e.weight))
        .collect();
    let rcsr = r::CsrGraph::new(w.node_count(), &redges).unwrap();
    let bedges: Vec<(u32, u32, f64)> = w.edges.iter().map(|e| (e.from, e.to, e.weight)).collect();
    let bg = baseline::Csr::from_edges(w.node_count(), &bedges);
    let mut bs = baseline::Search::new(w.node_count());
    let ep = &w.est_points;
    let mut dij = GraphAStar::new(&w.csr, DefaultGraphCost, ZeroGraphHeuristic);
    let mut ast = GraphAStar::new(&w.csr, DefaultGraphCost, EuclideanGraphHeuristic::new(ep));
    let mut rdij = r::GraphAStar::new(&rcsr, r::DefaultGraphCost, r::ZeroGraphHeuristic);
    let mut rast = r::GraphAStar::new(
        &rcsr,
        r::DefaultGraphCost,
        r::EuclideanGraphHeuristic::new(&rp),
    );
    let q = w.queries(QuerySet::Local);
    let d = onepath_batch(&mut dij, q);
    bits_equal("reference dijkstra", &d, &reference_batch(&mut rdij, q));
    let a = onepath_batch(&mut ast, q);
    bits_equal("reference A*", &a, &reference_batch(&mut rast, q));
    let bl_d = |bs: &mut baseline::Search| -> Vec<f64> {
        q.iter()
            .map(|&(s, t)| {
                bs.dijkstra(&bg, s, t)
                    .map_or(f64::INFINITY, |x| black_box(x).0)
            })
            .collect()
    };
    let bl_a = |bs: &mut baseline::Search| -> Vec<f64> {
        q.iter()
            .map(|&(s, t)| {
                let pt = ep[t as usize];
                bs.astar(&bg, s, t, |v| distance(ep[v as usize], pt))
                    .map_or(f64::INFINITY, |x| black_box(x).0)
            })
            .collect()
    };
    let e1 = assert_close("baseline dijkstra", &d, &bl_d(&mut bs));
    let e2 = assert_close("baseline A*", &a, &bl_a(&mut bs));
    eprintln!(
        "{}: reference bit-identical to onepath on {n}/{n} (Dijkstra and A*); baseline bit-identical on {e1} and {e2}",
        w.name,
        n = q.len()
    );
    let bs = std::cell::RefCell::new(bs);
    group(
        c,
        &format!("ref_{}_local_dijkstra", w.name),
        q.len(),
        vec![
            ("onepath", Box::new(|| onepath_batch(&mut dij, q))),
            ("reference", Box::new(|| reference_batch(&mut rdij, q))),
            ("baseline", Box::new(|| bl_d(&mut bs.borrow_mut()))),
        ],
    );
    group(
        c,
        &format!("ref_{}_local_astar", w.name),
        q.len(),
        vec![
            ("onepath", Box::new(|| onepath_batch(&mut ast, q))),
            ("reference", Box::new(|| reference_batch(&mut rast, q))),
            ("baseline", Box::new(|| bl_a(&mut bs.borrow_mut()))),
        ],
    );
}

fn benches(c: &mut Criterion) {
    let mut order = ["lattice", "road"];
    if graphs::reverse_order() {
        order.reverse();
    }
    for name in order {
        let w = if name == "lattice" {
            graphs::lattice()
        } else {
            graphs::road()
        };
        run_workload(c, &w);
    }
}

criterion_group!(graph_reference, benches);
criterion_main!(graph_reference);
