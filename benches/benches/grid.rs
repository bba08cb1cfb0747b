//! Grid-search benchmark (issue: square-grid searches): on 1024 x 1024 maps of the four MovingAI
//! kinds, 200 seeded connected queries each, onepath's `GridSearch` A* (specialised engine,
//! mode 1), JPS (mode 3, block scans) and JPS+ (mode 3, tables) beside `grid_pathfinding`'s JPS and
//! `pathfinding`'s A* over the same grid. Before timing, every path's exact octile cost pair is
//! recomputed from its steps and compared with onepath's (which the conformance oracle certifies
//! optimal); the counts of non-optimal and corner-cutting peer paths are printed.
//!
//! Run: `cargo bench -p onepath-benches --bench grid` (see BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use onepath::{GridAlgorithm, GridOptions, GridSearch, SearchStatus};
mod maps;

use maps::{
    connected_queries, grid_pathfinding_grid, grid_pathfinding_path, onepath_grid, pair_of_path,
    pathfinding_astar,
};
use onepath_conformance::movingai::{generate_map, MapKind, MovingAiMap, OctileCost};
use std::cmp::Ordering;
use std::hint::black_box;

const SIDE: usize = 1024;
const QUERIES: usize = 200;

struct Bench {
    name: &'static str,
    map: MovingAiMap,
    grid: onepath::Grid,
    queries: Vec<((usize, usize), (usize, usize))>,
}

fn kinds() -> [(&'static str, MapKind); 4] {
    [
        ("random25", MapKind::Random { density: 0.25 }),
        ("rooms", MapKind::Rooms { room_size: 15 }),
        ("maze", MapKind::Maze { corridor_width: 4 }),
        (
            "open",
            MapKind::Scattered {
                count: 600,
                max_side: 12,
            },
        ),
    ]
}

fn setup() -> Vec<Bench> {
    kinds()
        .into_iter()
        .enumerate()
        .map(|(k, (name, kind))| {
            let map = generate_map(kind, SIDE, SIDE, 0xB0 + k as u64);
            let grid = onepath_grid(&map);
            let queries = connected_queries(&map, QUERIES, 0x5EED + k as u64);
            Bench {
                name,
                map,
                grid,
                queries,
            }
        })
        .collect()
}

fn onepath_batch(b: &Bench, algorithm: GridAlgorithm) -> Vec<OctileCost> {
    let opts = GridOptions {
        algorithm,
        ..GridOptions::default()
    };
    let mut s = GridSearch::new(&b.grid, opts).expect("search");
    b.queries
        .iter()
        .map(|&(a, g)| {
            s.begin(a, g).expect("begin");
            assert_eq!(s.run(None), SearchStatus::Found);
            let path = s.path();
            let cells: Vec<(usize, usize)> = path
                .iter()
                .map(|&c| (c as usize % SIDE, c as usize / SIDE))
                .collect();
            pair_of_path(&cells).0
        })
        .collect()
}

fn corner_cuts(m: &MovingAiMap, path: &[(usize, usize)]) -> bool {
    path.windows(2).any(|w| {
        let (x, y) = (w[0].0 as i64, w[0].1 as i64);
        let (dx, dy) = (w[1].0 as i64 - x, w[1].1 as i64 - y);
        dx != 0 && dy != 0 && !onepath_conformance::movingai::move_allowed(m, x, y, dx, dy)
    })
}

fn bench(c: &mut Criterion) {
    let benches = setup();
    for b in &benches {
        // Correctness first: onepath's three engines agree; peers are measured against them.
        let astar = onepath_batch(b, GridAlgorithm::AStar);
        assert_eq!(
            astar,
            onepath_batch(b, GridAlgorithm::Jps),
            "{}: JPS costs differ from A*",
            b.name
        );
        assert_eq!(
            astar,
            onepath_batch(b, GridAlgorithm::JpsPlus),
            "{}: JPS+ costs differ from A*",
            b.name
        );
        let mut pf_worse = 0;
        for (q, &(a, g)) in b.queries.iter().enumerate() {
            let (pair, _) = pair_of_path(&pathfinding_astar(&b.map, a, g));
            if pair != astar[q] {
                pf_worse += 1;
            }
        }
        let pg = grid_pathfinding_grid(&b.map);
        let (mut gp_missing, mut gp_longer, mut gp_shorter, mut gp_cuts) = (0, 0, 0, 0);
        for (q, &(a, g)) in b.queries.iter().enumerate() {
            match grid_pathfinding_path(&pg, a, g) {
                None => gp_missing += 1,
                Some(p) => {
                    if corner_cuts(&b.map, &p) {
                        gp_cuts += 1;
                    }
                    let (pair, _) = pair_of_path(&p);
                    match pair.cmp(&astar[q]) {
                        Ordering::Greater => gp_longer += 1,
                        Ordering::Less => gp_shorter += 1,
                        Ordering::Equal => {}
                    }
                }
            }
        }
        println!(
            "{}: {} queries; pathfinding A* paths not of onepath's optimal pair: {pf_worse}; grid_pathfinding JPS: {gp_missing} missing, {gp_longer} longer, {gp_shorter} shorter (corner cutting), {gp_cuts} paths cut corners",
            b.name,
            b.queries.len()
        );
        let mut group = c.benchmark_group(format!("grid_{}", b.name));
        group.sample_size(10);
        for (label, algorithm) in [
            ("onepath_astar", GridAlgorithm::AStar),
            ("onepath_jps", GridAlgorithm::Jps),
            ("onepath_jps_plus", GridAlgorithm::JpsPlus),
        ] {
            let opts = GridOptions {
                algorithm,
                ..GridOptions::default()
            };
            let mut s = GridSearch::new(&b.grid, opts).expect("search");
            // Warm the engine (JPS+ tables are built at the first begin, outside the timing).
            s.begin(b.queries[0].0, b.queries[0].1).expect("begin");
            s.run(None);
            group.bench_function(label, |bn| {
                bn.iter(|| {
                    for &(a, g) in &b.queries {
                        s.begin(a, g).expect("begin");
                        black_box(s.run(None));
                        black_box(s.path());
                    }
                })
            });
        }
        group.bench_function("grid_pathfinding_jps", |bn| {
            bn.iter_batched(
                || (),
                |_| {
                    for &(a, g) in &b.queries {
                        black_box(grid_pathfinding_path(&pg, a, g));
                    }
                },
                BatchSize::PerIteration,
            )
        });
        group.bench_function("pathfinding_astar", |bn| {
            bn.iter(|| {
                for &(a, g) in &b.queries {
                    black_box(pathfinding_astar(&b.map, a, g));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
