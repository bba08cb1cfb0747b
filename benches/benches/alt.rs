//! ALT (landmark) build time against the plain Dijkstras it needs, and ALT queries, on the
//! travel-time workloads `road` and `road_relabelled` (`common/graphs.rs`).
//!
//! Group `alt_build_<workload>`: `Landmarks::build` with 16 landmarks (default options: Avoid,
//! seed 1) beside 2 x 16 one-to-all Dijkstras from the same 16 landmark nodes (16 over the graph,
//! 16 over the reversed graph), run (1) with the hand-written baseline and (2) with onepath's
//! `GraphAStar` (zero estimate) aimed at an isolated extra node, so that it settles the whole
//! component. Group `alt_<workload>_<set>`: queries with the weak estimate (Euclidean / 4) and
//! with the ALT estimate, onepath and the baseline, costs asserted equal first.
//!
//! `CARGO_TARGET_DIR=/tmp/t-bench cargo bench -p onepath-benches --bench alt`

mod common;

use common::baseline;
use common::graphs::{self, assert_close, QuerySet, Workload};
use common::{group, onepath_batch, timed, Entry};
use criterion::{criterion_group, criterion_main, Criterion};
use onepath::*;
use std::hint::black_box;

const LANDMARKS: usize = 16;

fn run_workload(c: &mut Criterion, w: &Workload) {
    let n = w.node_count();
    let opts = LandmarkOptions {
        count: LANDMARKS,
        ..Default::default()
    };
    let table = timed("landmarks build", || {
        Landmarks::build(&w.csr, &opts).unwrap()
    });
    let ids: Vec<u32> = table.ids().to_vec();
    // Baseline graphs (forward and reversed) and onepath graphs with one isolated extra node.
    let fwd_edges: Vec<(u32, u32, f64)> =
        w.edges.iter().map(|e| (e.from, e.to, e.weight)).collect();
    let bfwd = baseline::Csr::from_edges(n, &fwd_edges);
    let brev = bfwd.reversed();
    let rev_edges: Vec<GraphEdge> = w
        .edges
        .iter()
        .map(|e| GraphEdge::new(e.to, e.from, e.weight))
        .collect();
    let ofwd = CsrGraph::new(n + 1, &w.edges).unwrap();
    let orev = CsrGraph::new(n + 1, &rev_edges).unwrap();
    let mut bs = baseline::Search::new(n);
    let mut of = GraphAStar::new(&ofwd, DefaultGraphCost, ZeroGraphHeuristic);
    let mut or = GraphAStar::new(&orev, DefaultGraphCost, ZeroGraphHeuristic);
    let isolated = n as u32;
    // Check: the table's distances are those of the plain Dijkstras.
    let mut settled = 0usize;
    for (k, &l) in ids.iter().enumerate() {
        let d = bs.one_to_all(&bfwd, l);
        for v in (0..n).step_by(997) {
            assert_eq!(
                d[v].to_bits(),
                table.forward(k, v as u32).to_bits(),
                "forward {k} {v}"
            );
        }
        settled = d.iter().filter(|x| x.is_finite()).count();
        let d = bs.one_to_all(&brev, l);
        for v in (0..n).step_by(997) {
            assert_eq!(
                d[v].to_bits(),
                table.backward(k, v as u32).to_bits(),
                "backward {k} {v}"
            );
        }
        of.begin(l, isolated).unwrap();
        of.run(None);
        assert_eq!(
            of.expanded_count() as usize,
            settled,
            "onepath settles the component"
        );
    }
    eprintln!(
        "{}: {} landmarks; table distances = baseline one-to-all Dijkstra (sampled, bit-identical); {} nodes settled per Dijkstra",
        w.name,
        ids.len(),
        settled
    );
    let build: Entry = (
        "landmarks_build",
        Box::new(|| {
            black_box(Landmarks::build(&w.csr, &opts).unwrap());
            Vec::new()
        }),
    );
    let base: Entry = (
        "dijkstra_2x16_baseline",
        Box::new(|| {
            for &l in &ids {
                black_box(bs.one_to_all(&bfwd, l)[0]);
                black_box(bs.one_to_all(&brev, l)[0]);
            }
            Vec::new()
        }),
    );
    let ids2 = ids.clone();
    let one: Entry = (
        "dijkstra_2x16_onepath",
        Box::new(move || {
            for &l in &ids2 {
                of.begin(l, isolated).unwrap();
                black_box(of.run(None));
                or.begin(l, isolated).unwrap();
                black_box(or.run(None));
            }
            Vec::new()
        }),
    );
    group(
        c,
        &format!("alt_build_{}", w.name),
        1,
        vec![build, base, one],
    );

    let mut weak = GraphAStar::new(
        &w.csr,
        DefaultGraphCost,
        EuclideanGraphHeuristic::new(&w.est_points),
    );
    let mut alt = GraphAStar::new(&w.csr, DefaultGraphCost, AltGraphHeuristic::new(&table));
    let mut bs = baseline::Search::new(n);
    for set in [QuerySet::Local, QuerySet::Long] {
        let q = w.queries(set);
        let ep = &w.est_points;
        let costs = onepath_batch(&mut weak, q);
        let exact = assert_close("ALT A*", &costs, &onepath_batch(&mut alt, q));
        let bl = |bs: &mut baseline::Search, h: &dyn Fn(u32, u32) -> f64| -> Vec<f64> {
            q.iter()
                .map(|&(a, b)| {
                    bs.astar(&bfwd, a, b, |v| h(v, b))
                        .map_or(f64::INFINITY, |(c, p)| {
                            black_box(p);
                            c
                        })
                })
                .collect()
        };
        let weak_h = |v: u32, b: u32| distance(ep[v as usize], ep[b as usize]);
        let alt_h = |v: u32, b: u32| table.lower_bound(v, b);
        let e2 = assert_close("baseline ALT A*", &costs, &bl(&mut bs, &alt_h));
        eprintln!(
            "{} {}: ALT A* costs = weak-estimate A* costs (1e-9 rel), bit-identical {exact} (onepath) and {e2} (baseline) of {}",
            w.name,
            set.name(),
            q.len()
        );
        let bs = std::cell::RefCell::new(&mut bs);
        group(
            c,
            &format!("alt_{}_{}", w.name, set.name()),
            q.len(),
            vec![
                ("onepath_weak", Box::new(|| onepath_batch(&mut weak, q))),
                ("onepath_alt16", Box::new(|| onepath_batch(&mut alt, q))),
                (
                    "baseline_weak",
                    Box::new(|| bl(&mut bs.borrow_mut(), &weak_h)),
                ),
                (
                    "baseline_alt16",
                    Box::new(|| bl(&mut bs.borrow_mut(), &alt_h)),
                ),
            ],
        );
    }
}

fn benches(c: &mut Criterion) {
    let road = graphs::road();
    let mut order = vec!["road", "road_relabelled"];
    if graphs::reverse_order() {
        order.reverse();
    }
    for name in order {
        if name == "road" {
            run_workload(c, &road);
        } else {
            run_workload(
                c,
                &graphs::relabelled(&road, "road_relabelled", 0x00BE_1ABE),
            );
        }
    }
}

criterion_group!(alt, benches);
criterion_main!(alt);
