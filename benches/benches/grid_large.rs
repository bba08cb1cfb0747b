//! Large grids: onepath's `GridSearch` A* (mode 1, the specialised engine; asserted) beside
//! `pathfinding`'s A* over the same map and moves (8-connected, no corner cutting, octile
//! estimate, f64 costs in an `Ord` newtype).
//!
//! - `grid_<kind>_<side>`: 2048^2 and 4096^2 maps of three kinds: `cave` (45 % random walls,
//!   then 4 rounds of the 4-5 cellular-automaton smoothing rule, border counted as wall), `rooms`
//!   (the kit's generator, rooms of 15) and `maze` (the kit's generator, corridors of 8).
//! - `sweep_<side>`: `random25` maps (25 % random walls, the kind of `grid.rs`) of side 512,
//!   1024, 1600, 1700, 2048, 3000 and 4096: the ratio per size shows any size cliff of either
//!   crate (one was reported for onepath's grid A* above about 1670^2).
//!
//! The sweep groups declare onepath's expanded cells per batch as their criterion throughput,
//! so the table shows time per expanded cell (both crates run A* with the same estimate and
//! expand about the same cells): a size cliff shows as a jump of onepath's time per cell while
//! pathfinding's stays put.
//!
//! Queries: uniform pairs of passable cells in the same component (long queries), a batch of
//! `max(1, 32 x (1024 / side)^2)` (a quarter of that on mazes, whose searches cover most of the
//! map), so a batch has about the same work at every size. Before timing, every query's exact
//! octile cost pair is asserted equal between the two crates (paths recomputed step by step).
//!
//! `CARGO_TARGET_DIR=/tmp/t-bench cargo bench -p onepath-benches --bench grid_large`

mod maps;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use maps::{connected_queries, onepath_grid, pair_of_path, pathfinding_astar, Query};
use onepath::{GridEngine, GridOptions, GridSearch, SearchStatus};
use onepath_conformance::movingai::{generate_map, MapKind, MovingAiMap};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// 45 % random walls smoothed by 4 rounds of the 4-5 rule (a wall iff >= 5 of the 8 neighbours
/// are walls, cells outside the map counting as walls).
fn cave(side: usize, seed: u64) -> MovingAiMap {
    let mut m = generate_map(MapKind::Random { density: 0.45 }, side, side, seed);
    for _ in 0..4 {
        let wall = |m: &MovingAiMap, x: i64, y: i64| !m.passable(x, y);
        let mut next = m.clone();
        for y in 0..side as i64 {
            for x in 0..side as i64 {
                let mut walls = 0;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        if (dx, dy) != (0, 0) && wall(&m, x + dx, y + dy) {
                            walls += 1;
                        }
                    }
                }
                let c = if walls >= 5 { b'@' } else { b'.' };
                next.set(x as usize, y as usize, c);
            }
        }
        m = next;
    }
    m
}

fn batch_size(side: usize, maze: bool) -> usize {
    let q = (32.0 * (1024.0 / side as f64).powi(2)).round() as usize;
    (if maze { q / 4 } else { q }).max(1)
}

fn onepath_costs(s: &mut GridSearch<'_>, w: usize, q: &[Query]) -> Vec<(u64, u64)> {
    q.iter()
        .map(|&(a, g)| {
            s.begin(a, g).expect("begin");
            assert_eq!(s.run(None), SearchStatus::Found);
            let cells: Vec<(usize, usize)> = s
                .path()
                .iter()
                .map(|&c| (c as usize % w, c as usize / w))
                .collect();
            let (p, unit) = pair_of_path(&cells);
            assert!(unit, "A* paths are unit steps");
            (p.straight, p.diagonal)
        })
        .collect()
}

fn run_map(c: &mut Criterion, name: &str, m: &MovingAiMap, maze: bool, seed: u64) {
    let side = m.width();
    let t = Instant::now();
    let grid = onepath_grid(m);
    let q = connected_queries(m, batch_size(side, maze), seed);
    let mut s = GridSearch::new(&grid, GridOptions::default()).expect("search");
    let t1 = Instant::now();
    let ours = onepath_costs(&mut s, side, &q);
    let t_ours = t1.elapsed();
    assert_eq!(s.engine(), GridEngine::SpecialisedAStar, "mode 1");
    // Cells onepath expands over the whole batch: the sweep's unit of work.
    let expanded: u64 = q
        .iter()
        .map(|&(a, goal)| {
            s.begin(a, goal).expect("begin");
            s.run(None);
            s.expanded_count()
        })
        .sum();
    let sweep = name.starts_with("sweep_");
    let t2 = Instant::now();
    for (i, &(a, g)) in q.iter().enumerate() {
        let (p, _) = pair_of_path(&pathfinding_astar(m, a, g));
        assert_eq!(
            (p.straight, p.diagonal),
            ours[i],
            "{name}: query {i}: exact cost pairs differ"
        );
    }
    eprintln!(
        "{name}: {side}^2, {} passable, {} queries, {expanded} cells expanded by onepath; exact cost pairs equal on all (setup {:?}, check onepath {:?}, pathfinding {:?})",
        m.passable_count(),
        q.len(),
        t.elapsed() - t1.elapsed(),
        t_ours,
        t2.elapsed()
    );
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_millis(100))
        // Sweep groups count onepath's expanded cells (the table shows time per expanded cell, a
        // size-independent unit); the map groups count queries.
        .throughput(Throughput::Elements(if sweep {
            expanded
        } else {
            q.len() as u64
        }));
    let mut order = ["onepath_astar", "pathfinding_astar"];
    if maps::reverse_order() {
        order.reverse();
    }
    for label in order {
        if label == "onepath_astar" {
            g.bench_function(label, |b| {
                b.iter(|| {
                    for &(a, goal) in &q {
                        s.begin(a, goal).expect("begin");
                        black_box(s.run(None));
                        black_box(s.path());
                    }
                })
            });
        } else {
            g.bench_function(label, |b| {
                b.iter(|| {
                    for &(a, goal) in &q {
                        black_box(pathfinding_astar(m, a, goal));
                    }
                })
            });
        }
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    // (group name, side, kind); kinds 0 = cave, 1 = rooms, 2 = maze, 3 = random25.
    let mut plan: Vec<(String, usize, u8)> = Vec::new();
    for side in [2048, 4096] {
        for (k, kind) in ["cave", "rooms", "maze"].into_iter().enumerate() {
            plan.push((format!("grid_{kind}_{side}"), side, k as u8));
        }
    }
    for side in [512, 1024, 1600, 1700, 2048, 3000, 4096] {
        plan.push((format!("sweep_{side}"), side, 3));
    }
    if maps::reverse_order() {
        plan.reverse();
    }
    for (name, side, kind) in plan {
        let seed = 0xB100 + side as u64 * 4 + kind as u64;
        let m = match kind {
            0 => cave(side, seed),
            1 => generate_map(MapKind::Rooms { room_size: 15 }, side, side, seed),
            2 => generate_map(MapKind::Maze { corridor_width: 8 }, side, side, seed),
            _ => generate_map(MapKind::Random { density: 0.25 }, side, side, seed),
        };
        run_map(c, &name, &m, kind == 2, seed ^ 0x5EED);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
