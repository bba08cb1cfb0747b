//! HPA* bench (issue 16, "Speed"): onepath's `HpaHierarchy` / `HpaSearch` (spec/hpa.md) against
//! `hierarchical_pathfinding` 0.5 (`PathCache`, its closest settings) and against onepath's flat
//! A* (`GridSearch`, the optimal answer) on 1024² maps.
//!
//! Settings shared by both hierarchies: 4-connected moves of cost 1 (walls only: onepath
//! `Connectivity::Four`, hierarchical_pathfinding `ManhattanNeighborhood` with cost 1 per
//! passable cell and -1 per wall), chunk size 8 (both crates' default) and 16. onepath without
//! smoothing (its default; a smoothed path is also measured for the suboptimality table).
//! hierarchical_pathfinding with its defaults otherwise (`cache_paths`, `a_star_fallback`, no
//! `perfect_paths`), built sequentially (`default-features = false`, no rayon: both crates use
//! one core).
//!
//! Maps (seeded): `rooms` (`common/grids.rs`: rooms of 15 cells, one-cell walls, one or two
//! doors per wall segment) and `cave` (a cellular cave: 45 % random walls, then 5 rounds of
//! the 4-5 rule). Per map `QUERIES` long queries (Manhattan distance >= 512, same component).
//!
//! Groups:
//! - `hpa_build_<map>_<chunk>`: `onepath` = `HpaHierarchy::new` + `refresh` (the whole build),
//!   `hpa_crate` = `PathCache::new`. One build per iteration (n = 1).
//! - `hpa_query_<map>_<chunk>`: every query once per iteration on a built hierarchy: `onepath` =
//!   `HpaSearch::begin` + `run` + `path` (one `HpaSearch` reused), `onepath_smooth` = the same
//!   on a hierarchy with `smooth: true` ([HPA.SMOOTH.RULE]), `hpa_crate` = `find_path` +
//!   `resolve` (the whole cell path), `astar` = onepath's flat `GridSearch` A* (one reused
//!   search, same moves: the optimal path).
//!
//! Before timing, every query is checked (untimed) in all three: every path is walked move by
//! move on the map (passable cells, unit steps, start to goal), onepath's HPA* cost is never
//! below the optimal cost and equals its path's length, and a path exists for every engine.
//! The check prints `bench-subopt group=… function=… mean=… max=…` lines: the path-length ratio
//! to the optimum per engine, which `scripts/bench-tables hpa` puts beside the medians.

use criterion::{criterion_group, criterion_main, Criterion};
use hierarchical_pathfinding::prelude::*;
use onepath::*;
use std::hint::black_box;

mod common;
use common::graphs::Prng;
use common::{grids, group, Entry};

const SIDE: usize = 1024;
const QUERIES: usize = 16;
const CHUNKS: [u32; 2] = [8, 16];

/// A cellular cave: 45 % walls, five rounds of "wall when >= 5 of the 9 cells of the 3×3 block
/// are walls" (outside counts as wall).
fn cave(side: usize, seed: u64) -> Grid {
    let mut r = Prng(seed);
    let mut wall: Vec<bool> = (0..side * side).map(|_| r.below(100) < 45).collect();
    for _ in 0..5 {
        let mut next = vec![false; side * side];
        for y in 0..side {
            for x in 0..side {
                let mut n = 0;
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let (xx, yy) = (x as i64 + dx, y as i64 + dy);
                        let out = xx < 0 || yy < 0 || xx >= side as i64 || yy >= side as i64;
                        if out || wall[yy as usize * side + xx as usize] {
                            n += 1;
                        }
                    }
                }
                next[y * side + x] = n >= 5;
            }
        }
        wall = next;
    }
    let mut g = Grid::new(side, side).unwrap();
    for (i, &w) in wall.iter().enumerate() {
        if w {
            g.set_cell(i % side, i / side, WALL).unwrap();
        }
    }
    g
}

fn hpa_options(chunk: u32) -> HpaOptions {
    HpaOptions {
        chunk_size: chunk,
        connectivity: Connectivity::Four,
        ..HpaOptions::default()
    }
}

fn flat_options() -> GridOptions {
    GridOptions {
        connectivity: Connectivity::Four,
        ..GridOptions::default()
    }
}

/// hierarchical_pathfinding's cost function: 1 per passable cell, -1 (solid) per wall.
fn hp_cost(g: &Grid) -> impl Fn((usize, usize)) -> isize + Sync + '_ {
    let (w, cells) = (g.width(), g.cells());
    move |(x, y)| if cells[y * w + x] == WALL { -1 } else { 1 }
}

fn hp_build(g: &Grid, chunk: u32) -> PathCache<ManhattanNeighborhood> {
    PathCache::new(
        (g.width(), g.height()),
        hp_cost(g),
        ManhattanNeighborhood::new(g.width(), g.height()),
        PathCacheConfig::with_chunk_size(chunk as usize),
    )
}

fn onepath_build(g: &Grid, chunk: u32) -> HpaHierarchy {
    let mut h = HpaHierarchy::new(hpa_options(chunk)).unwrap();
    h.refresh(g);
    h
}

/// The number of moves of a 4-connected cell path (as cell indices, start first) after checking
/// every move on `g`.
fn walk(g: &Grid, path: &[u32], start: (usize, usize), goal: (usize, usize)) -> usize {
    let w = g.width();
    let cell = |(x, y): (usize, usize)| (y * w + x) as u32;
    let (s, d) = grids::exact_pair(g, path, cell(start), cell(goal), false);
    assert_eq!(d, 0, "a 4-connected path has no diagonal move");
    s as usize
}

fn hp_path(
    cache: &PathCache<ManhattanNeighborhood>,
    g: &Grid,
    start: (usize, usize),
    goal: (usize, usize),
) -> Vec<(usize, usize)> {
    let p = cache
        .find_path(start, goal, hp_cost(g))
        .expect("hierarchical_pathfinding finds a path");
    p.resolve(hp_cost(g))
}

struct Subopt {
    sum: f64,
    max: f64,
}

impl Subopt {
    fn add(&mut self, r: f64) {
        self.sum += r;
        self.max = self.max.max(r);
    }
    fn print(&self, group: &str, function: &str) {
        println!(
            "bench-subopt group={group} function={function} mean={:.6} max={:.6}",
            self.sum / QUERIES as f64,
            self.max
        );
    }
}

/// The untimed check of every query (see the module comment).
fn check(name: &str, g: &Grid, q: &[((usize, usize), (usize, usize))], chunk: u32) {
    let w = g.width();
    let mut flat = GridSearch::new(g, flat_options()).unwrap();
    let mut h = onepath_build(g, chunk);
    let cache = hp_build(g, chunk);
    let mut smooth_h = HpaHierarchy::new(HpaOptions {
        smooth: true,
        ..hpa_options(chunk)
    })
    .unwrap();
    let zero = || Subopt { sum: 0.0, max: 0.0 };
    let (mut ours, mut smoothed, mut theirs) = (zero(), zero(), zero());
    for &(a, b) in q {
        flat.begin(a, b).unwrap();
        assert_eq!(flat.run(None), SearchStatus::Found);
        let opt = walk(g, &flat.path(), a, b);
        assert_eq!(flat.path_cost(), opt as f64);

        let mut s = HpaSearch::new(g, &mut h);
        s.begin(a, b).unwrap();
        assert_eq!(
            s.run(None),
            SearchStatus::Found,
            "HPA* fails where a path exists"
        );
        let len = walk(g, &s.path(), a, b);
        assert_eq!(s.path_cost(), len as f64);
        assert!(len >= opt, "HPA* shorter than optimal");
        ours.add(len as f64 / opt as f64);

        let mut s = HpaSearch::new(g, &mut smooth_h);
        s.begin(a, b).unwrap();
        assert_eq!(s.run(None), SearchStatus::Found);
        let len = walk(g, &s.path(), a, b);
        assert!(len >= opt);
        smoothed.add(len as f64 / opt as f64);

        let mut cells: Vec<u32> = hp_path(&cache, g, a, b)
            .into_iter()
            .map(|(x, y)| (y * w + x) as u32)
            .collect();
        if cells.first() != Some(&((a.1 * w + a.0) as u32)) {
            cells.insert(0, (a.1 * w + a.0) as u32);
        }
        let len = walk(g, &cells, a, b);
        assert!(len >= opt, "hierarchical_pathfinding shorter than optimal");
        theirs.add(len as f64 / opt as f64);
    }
    let group = format!("hpa_query_{name}_{chunk}");
    ours.print(&group, "onepath");
    smoothed.print(&group, "onepath_smooth");
    theirs.print(&group, "hpa_crate");
    eprintln!(
        "  {group}: {} abstract nodes (onepath), {} edges",
        h.nodes().len(),
        h.edges().len()
    );
}

/// Every query of `q` on one `HpaSearch` over the built hierarchy `h`: the costs.
fn hpa_batch(g: &Grid, h: &mut HpaHierarchy, q: &[((usize, usize), (usize, usize))]) -> Vec<f64> {
    let mut s = HpaSearch::new(g, h);
    q.iter()
        .map(|&(a, b)| {
            s.begin(a, b).unwrap();
            s.run(None);
            black_box(s.path());
            s.path_cost()
        })
        .collect()
}

fn maps() -> Vec<(&'static str, Grid)> {
    let mut m = vec![
        ("rooms", grids::rooms(SIDE, 15, 0x5EED_0001)),
        ("cave", cave(SIDE, 0x5EED_0002)),
    ];
    if common::graphs::reverse_order() {
        m.reverse();
    }
    m
}

fn bench(c: &mut Criterion) {
    for (name, g) in maps() {
        let q = grids::long_pairs(&g, QUERIES, SIDE / 2, 0xC0FFEE);
        let mut chunks = CHUNKS.to_vec();
        if common::graphs::reverse_order() {
            chunks.reverse();
        }
        for chunk in chunks {
            common::timed(&format!("{name} chunk {chunk}"), || {
                check(name, &g, &q, chunk)
            });
            let g = &g;
            let build: Vec<Entry> = vec![
                (
                    "onepath",
                    Box::new(move || vec![black_box(onepath_build(g, chunk)).nodes().len() as f64]),
                ),
                (
                    "hpa_crate",
                    Box::new(move || {
                        black_box(hp_build(g, chunk));
                        vec![]
                    }),
                ),
            ];
            group(c, &format!("hpa_build_{name}_{chunk}"), 1, build);

            let mut h = onepath_build(g, chunk);
            let mut hs = HpaHierarchy::new(HpaOptions {
                smooth: true,
                ..hpa_options(chunk)
            })
            .unwrap();
            hs.refresh(g);
            let cache = hp_build(g, chunk);
            let mut flat = GridSearch::new(g, flat_options()).unwrap();
            let q = &q;
            let query: Vec<Entry> = vec![
                ("onepath", Box::new(move || hpa_batch(g, &mut h, q))),
                ("onepath_smooth", Box::new(move || hpa_batch(g, &mut hs, q))),
                (
                    "hpa_crate",
                    Box::new(move || {
                        q.iter()
                            .map(|&(a, b)| black_box(hp_path(&cache, g, a, b)).len() as f64)
                            .collect()
                    }),
                ),
                (
                    "astar",
                    Box::new(move || {
                        q.iter()
                            .map(|&(a, b)| {
                                flat.begin(a, b).unwrap();
                                flat.run(None);
                                black_box(flat.path());
                                flat.path_cost()
                            })
                            .collect()
                    }),
                ),
            ];
            group(c, &format!("hpa_query_{name}_{chunk}"), QUERIES, query);
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
