//! Graph search benchmark: onepath's `GraphAStar` (Dijkstra and A*) beside the plain hand-written
//! baseline (`common/baseline.rs`), petgraph and pathfinding, on four seeded workloads
//! (`common/graphs.rs`: `lattice`, `road`, `road_relabelled`, `rgg`) and two query sets each
//! (`local`, `long`). Each criterion group is one (workload, query set, algorithm); each entry
//! measures the whole batch of queries (`Throughput::Elements` = the batch size).
//!
//! Before timing, every entry's costs are asserted equal to onepath Dijkstra's within 1e-9
//! relative, and the number of bit-identical costs is printed (baseline and onepath add the same
//! weights along the same optimal path, so they agree bit for bit unless two optimal paths
//! exist). onepath engines are created once per workload and reused (`begin` + `run` + `path()`).
//!
//! `ONEPATH_BENCH_REVERSE=1` reverses the order of the workloads and of the entries in each
//! group; `ONEPATH_BENCH_WORKLOADS=lattice,road` runs only the named workloads. `scripts/bench-tables` runs both orders and writes the tables of BENCHMARKS.md.
//!
//! `CARGO_TARGET_DIR=/tmp/t-bench cargo bench -p onepath-benches --bench graph`

mod common;

use common::baseline;
use common::graphs::{self, assert_close, QuerySet, Workload};
use common::peers::{self, Peers};
use common::{group, onepath_batch, timed, Entry};
use criterion::{criterion_group, criterion_main, Criterion};
use onepath::*;
use std::hint::black_box;
use std::sync::Arc;

fn bidi_batch<C: GraphCost, H: GraphHeuristic>(
    s: &mut BidirectionalGraphSearch<'_, C, H>,
    q: &[(u32, u32)],
) -> Vec<f64> {
    q.iter()
        .map(|&(a, b)| {
            s.begin(a, b).unwrap();
            s.run(None);
            black_box(s.path());
            s.path_cost()
        })
        .collect()
}

fn baseline_dijkstra(s: &mut baseline::Search, g: &baseline::Csr, q: &[(u32, u32)]) -> Vec<f64> {
    q.iter()
        .map(|&(a, b)| {
            s.dijkstra(g, a, b).map_or(f64::INFINITY, |(c, path)| {
                black_box(path);
                c
            })
        })
        .collect()
}

fn baseline_astar(
    s: &mut baseline::Search,
    g: &baseline::Csr,
    pts: &[Point3],
    q: &[(u32, u32)],
) -> Vec<f64> {
    q.iter()
        .map(|&(a, b)| {
            let pb = pts[b as usize];
            s.astar(g, a, b, |v| distance(pts[v as usize], pb)).map_or(
                f64::INFINITY,
                |(c, path)| {
                    black_box(path);
                    c
                },
            )
        })
        .collect()
}

fn baseline_graph(w: &Workload) -> baseline::Csr {
    let edges: Vec<(u32, u32, f64)> = w.edges.iter().map(|e| (e.from, e.to, e.weight)).collect();
    baseline::Csr::from_edges(w.node_count(), &edges)
}

/// Checks every engine on both query sets, then times the groups of one workload. Returns
/// onepath's Dijkstra costs per query set (to compare a relabelled copy with).
fn run_workload(c: &mut Criterion, w: &Workload) -> [Vec<f64>; 2] {
    eprintln!(
        "workload {}: {} nodes, {} directed edges, {} local + {} long queries",
        w.name,
        w.node_count(),
        w.csr.edge_count(),
        w.local.len(),
        w.long.len()
    );
    let peers = Peers::new(w);
    let bg = baseline_graph(w);
    let mut bs = baseline::Search::new(w.node_count());
    let mut dij = GraphAStar::new(&w.csr, DefaultGraphCost, ZeroGraphHeuristic);
    let mut ast = GraphAStar::new(
        &w.csr,
        DefaultGraphCost,
        EuclideanGraphHeuristic::new(&w.est_points),
    );
    let ep = &w.est_points;
    let lattice = w.name == "lattice";
    // Tier 1 and bidirectional A* on the historical lattice only (continuity with the earlier
    // tables).
    let mg = lattice.then(|| {
        let g = Graph::from_edges(&w.edges, Some(w.node_count()), true).unwrap();
        g.compile();
        g
    });
    let mut bid = BidirectionalGraphSearch::new(
        &w.csr,
        DefaultGraphCost,
        EuclideanGraphHeuristic::new(&w.est_points),
    );
    let hook_pts = Arc::new(w.est_points.clone());
    let aopts = GraphOptions {
        algorithm: Algorithm::AStar,
        heuristic: Some(Arc::new(move |a: u32, b: u32| {
            distance(hook_pts[a as usize], hook_pts[b as usize])
        })),
        ..GraphOptions::default()
    };
    let dopts = GraphOptions::default();
    let tier1 = |q: &[(u32, u32)], o: &GraphOptions| -> Vec<f64> {
        let g = mg.as_ref().unwrap();
        q.iter()
            .map(|&(a, b)| g.find_path(a, b, o).unwrap().cost)
            .collect()
    };

    let mut out = [Vec::new(), Vec::new()];
    for (k, set) in [QuerySet::Local, QuerySet::Long].into_iter().enumerate() {
        let q = w.queries(set);
        eprintln!(" {} {}:", w.name, set.name());
        let base = timed("onepath dijkstra", || onepath_batch(&mut dij, q));
        let check = |name: &str, costs: Vec<f64>| {
            let exact = assert_close(name, &base, &costs);
            eprintln!(
                "  {name}: costs agree (1e-9 rel) on {0}/{0}, bit-identical on {exact}",
                q.len()
            );
        };
        check(
            "onepath A*",
            timed("onepath A*", || onepath_batch(&mut ast, q)),
        );
        check(
            "baseline dijkstra",
            timed("baseline dijkstra", || baseline_dijkstra(&mut bs, &bg, q)),
        );
        check(
            "baseline A*",
            timed("baseline A*", || baseline_astar(&mut bs, &bg, ep, q)),
        );
        check(
            "petgraph dijkstra",
            timed("petgraph dijkstra", || peers::pet_dijkstra(&peers, q)),
        );
        check(
            "petgraph A*",
            timed("petgraph A*", || peers::pet_astar(&peers, ep, q)),
        );
        check(
            "pathfinding dijkstra",
            timed("pathfinding dijkstra", || peers::pf_dijkstra(&peers, q)),
        );
        check(
            "pathfinding A*",
            timed("pathfinding A*", || peers::pf_astar(&peers, ep, q)),
        );
        let extras = lattice && set == QuerySet::Local;
        if extras {
            check(
                "onepath tier-1 dijkstra",
                timed("tier-1 dijkstra", || tier1(q, &dopts)),
            );
            check("onepath tier-1 A*", timed("tier-1 A*", || tier1(q, &aopts)));
            check(
                "onepath bidi A*",
                timed("bidi A*", || bidi_batch(&mut bid, q)),
            );
        }
        eprintln!(
            "  found: {} of {}",
            base.iter().filter(|c| c.is_finite()).count(),
            q.len()
        );

        let name = format!("{}_{}", w.name, set.name());
        let mut e: Vec<Entry> = vec![
            ("onepath", Box::new(|| onepath_batch(&mut dij, q))),
            ("baseline", Box::new(|| baseline_dijkstra(&mut bs, &bg, q))),
            ("petgraph", Box::new(|| peers::pet_dijkstra(&peers, q))),
            ("pathfinding", Box::new(|| peers::pf_dijkstra(&peers, q))),
        ];
        if extras {
            e.insert(1, ("onepath_tier1", Box::new(|| tier1(q, &dopts))));
        }
        group(c, &format!("{name}_dijkstra"), q.len(), e);
        let mut e: Vec<Entry> = vec![
            ("onepath", Box::new(|| onepath_batch(&mut ast, q))),
            ("baseline", Box::new(|| baseline_astar(&mut bs, &bg, ep, q))),
            ("petgraph", Box::new(|| peers::pet_astar(&peers, ep, q))),
            ("pathfinding", Box::new(|| peers::pf_astar(&peers, ep, q))),
        ];
        if extras {
            e.insert(1, ("onepath_tier1", Box::new(|| tier1(q, &aopts))));
            e.insert(2, ("onepath_bidi", Box::new(|| bidi_batch(&mut bid, q))));
        }
        group(c, &format!("{name}_astar"), q.len(), e);
        out[k] = base;
    }
    out
}

fn benches(c: &mut Criterion) {
    let mut order = vec!["lattice", "road", "road_relabelled", "rgg"];
    if graphs::reverse_order() {
        order.reverse();
    }
    // `ONEPATH_BENCH_WORKLOADS=lattice,road` restricts the run (for profiling one workload).
    if let Ok(only) = std::env::var("ONEPATH_BENCH_WORKLOADS") {
        order.retain(|w| only.split(',').any(|o| o == *w));
    }
    let mut road: Option<Workload> = None;
    let mut road_costs: Option<[Vec<f64>; 2]> = None;
    let mut relabelled_costs: Option<[Vec<f64>; 2]> = None;
    for name in order {
        let t = std::time::Instant::now();
        match name {
            "lattice" | "rgg" => {
                let w = if name == "lattice" {
                    graphs::lattice()
                } else {
                    graphs::rgg()
                };
                eprintln!("built {} in {:?}", w.name, t.elapsed());
                run_workload(c, &w);
            }
            "road" => {
                let w = road.get_or_insert_with(graphs::road);
                eprintln!("built {} in {:?}", w.name, t.elapsed());
                road_costs = Some(run_workload(c, w));
            }
            _ => {
                let base = road.get_or_insert_with(graphs::road);
                let w = graphs::relabelled(base, "road_relabelled", 0x00BE_1ABE);
                eprintln!("built {} in {:?}", w.name, t.elapsed());
                relabelled_costs = Some(run_workload(c, &w));
            }
        }
    }
    // The relabelled graph is the same graph: the same costs within rounding.
    if let (Some(a), Some(b)) = (road_costs, relabelled_costs) {
        for k in 0..2 {
            let exact = assert_close("road vs road_relabelled", &a[k], &b[k]);
            eprintln!(
                "road vs road_relabelled: {} bit-identical of {}",
                exact,
                a[k].len()
            );
        }
    }
}

criterion_group!(graph, benches);
criterion_main!(graph);
