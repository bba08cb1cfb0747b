//! Tier-1 grid queries (issue 33): `find_grid_path` as a user calls it (no reused handle), on
//! seeded 256², 1024² and 4096² maps (15 % random walls), with short (offsets of at most 10 per
//! axis, so at most 10 moves), medium (about 64 per axis) and long (about 256 per axis) queries;
//! every square-grid algorithm of `onepath` and of `onepath-reference`, beside `pathfinding`'s
//! A*, `grid_pathfinding`'s JPS (which precomputes per grid) and a plain hand-written A*.
//!
//! Every query is checked first: onepath and the reference agree bit for bit and the costs of
//! the peers' paths are printed when they differ. Each group runs its entries in the listed
//! order, reversed under `ONEPATH_BENCH_REVERSE=1`; a group's first batch (criterion's warm-up)
//! builds the grid's cache, so the medians are "after the first query". The reference is timed
//! on long queries only up to 1024² and on 4096² with short queries (its cost per call is that
//! of copying the map, whatever the query).
//!
//! Run: `cargo bench -p onepath-benches --bench tier1` (see BENCHMARKS.md, "Tier-1 queries").

use criterion::{criterion_group, criterion_main, Criterion};
mod common;

use common::{group, Entry};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hint::black_box;

/// Queries per batch.
const Q: usize = 4;

type Query = ((usize, usize), (usize, usize));

struct Map {
    side: usize,
    walls: Vec<bool>,
    grid: onepath::Grid,
    rgrid: onepath_reference::Grid,
}

fn lcg(s: &mut u64) -> u64 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *s >> 33
}

fn make_map(side: usize, seed: u64) -> Map {
    let mut s = seed;
    let walls: Vec<bool> = (0..side * side).map(|_| lcg(&mut s) % 100 < 15).collect();
    let mut grid = onepath::Grid::new(side, side).unwrap();
    let mut rgrid = onepath_reference::Grid::new(side, side).unwrap();
    for (i, &w) in walls.iter().enumerate() {
        if w {
            grid.set_cell(i % side, i / side, onepath::WALL).unwrap();
            rgrid
                .set_cell(i % side, i / side, onepath_reference::WALL)
                .unwrap();
        }
    }
    Map {
        side,
        walls,
        grid,
        rgrid,
    }
}

/// `Q` queries with offsets of about `span` per axis whose goal onepath reaches (A*).
fn queries(m: &Map, span: usize, seed: u64) -> Vec<Query> {
    let mut s = seed;
    let mut out = Vec::new();
    let n = m.side as u64;
    while out.len() < Q {
        let (x, y) = ((lcg(&mut s) % n) as usize, (lcg(&mut s) % n) as usize);
        let lo = span.div_ceil(2) as u64;
        let off = |s: &mut u64| lo + lcg(s) % (span as u64 - lo + 1);
        let sign = |s: &mut u64, v: u64| {
            if lcg(s) % 2 == 0 {
                v as i64
            } else {
                -(v as i64)
            }
        };
        let (ox, oy) = (off(&mut s), off(&mut s));
        let (gx, gy) = (x as i64 + sign(&mut s, ox), y as i64 + sign(&mut s, oy));
        if gx < 0 || gy < 0 || gx >= n as i64 || gy >= n as i64 {
            continue;
        }
        let g = (gx as usize, gy as usize);
        if m.walls[y * m.side + x] || m.walls[g.1 * m.side + g.0] {
            continue;
        }
        let p = onepath::find_grid_path(&m.grid, (x, y), g, &Default::default()).unwrap();
        if p.status == onepath::PathStatus::Found {
            out.push(((x, y), g));
        }
    }
    out
}

const ALGS: [(
    &str,
    onepath::GridAlgorithm,
    onepath_reference::GridAlgorithm,
); 6] = [
    (
        "astar",
        onepath::GridAlgorithm::AStar,
        onepath_reference::GridAlgorithm::AStar,
    ),
    (
        "dijkstra",
        onepath::GridAlgorithm::Dijkstra,
        onepath_reference::GridAlgorithm::Dijkstra,
    ),
    (
        "jps",
        onepath::GridAlgorithm::Jps,
        onepath_reference::GridAlgorithm::Jps,
    ),
    (
        "jps_plus",
        onepath::GridAlgorithm::JpsPlus,
        onepath_reference::GridAlgorithm::JpsPlus,
    ),
    (
        "theta",
        onepath::GridAlgorithm::Theta,
        onepath_reference::GridAlgorithm::Theta,
    ),
    (
        "lazy_theta",
        onepath::GridAlgorithm::LazyTheta,
        onepath_reference::GridAlgorithm::LazyTheta,
    ),
];

fn onepath_batch(m: &Map, q: &[Query], a: onepath::GridAlgorithm) -> Vec<f64> {
    let o = onepath::GridOptions {
        algorithm: a,
        ..Default::default()
    };
    q.iter()
        .map(|&(s, g)| {
            let p = onepath::find_grid_path(&m.grid, s, g, &o).unwrap();
            black_box(&p.cells);
            p.cost
        })
        .collect()
}

fn reference_batch(m: &Map, q: &[Query], a: onepath_reference::GridAlgorithm) -> Vec<f64> {
    let o = onepath_reference::GridOptions {
        algorithm: a,
        ..Default::default()
    };
    q.iter()
        .map(|&(s, g)| {
            let p = onepath_reference::find_grid_path(&m.rgrid, s, g, &o).unwrap();
            black_box(&p.cells);
            p.cost
        })
        .collect()
}

/// Octile costs in integer units (straight 10000, diagonal 14142), no corner cutting.
fn moves(m: &Map, (x, y): (usize, usize)) -> impl Iterator<Item = ((usize, usize), u32)> + '_ {
    let n = m.side as i64;
    let free =
        move |x: i64, y: i64| x >= 0 && y >= 0 && x < n && y < n && !m.walls[(y * n + x) as usize];
    [
        (0i64, -1i64),
        (1, 0),
        (0, 1),
        (-1, 0),
        (1, -1),
        (1, 1),
        (-1, 1),
        (-1, -1),
    ]
    .into_iter()
    .filter_map(move |(dx, dy)| {
        let (qx, qy) = (x as i64 + dx, y as i64 + dy);
        let ok = free(qx, qy) && (dx == 0 || dy == 0 || (free(qx, y as i64) && free(x as i64, qy)));
        ok.then_some((
            (qx as usize, qy as usize),
            if dx == 0 || dy == 0 { 10000 } else { 14142 },
        ))
    })
}

fn octile(a: (usize, usize), b: (usize, usize)) -> u32 {
    let (dx, dy) = (a.0.abs_diff(b.0) as u32, a.1.abs_diff(b.1) as u32);
    let (lo, hi) = (dx.min(dy), dx.max(dy));
    10000 * (hi - lo) + 14142 * lo
}

fn pathfinding_batch(m: &Map, q: &[Query]) -> Vec<f64> {
    q.iter()
        .map(|&(s, g)| {
            let r =
                pathfinding::prelude::astar(&s, |&p| moves(m, p), |&p| octile(p, g), |&p| p == g);
            let (path, cost) = r.expect("reachable");
            black_box(path);
            cost as f64 / 10000.0
        })
        .collect()
}

fn gp_grid(m: &Map) -> grid_pathfinding::PathingGrid {
    use grid_util::grid::ValueGrid;
    let mut pg = grid_pathfinding::PathingGrid::new(m.side, m.side, false);
    for (i, &w) in m.walls.iter().enumerate() {
        if w {
            pg.set((i % m.side) as i32, (i / m.side) as i32, true);
        }
    }
    pg.generate_components();
    pg
}

fn gp_batch(pg: &grid_pathfinding::PathingGrid, q: &[Query]) -> Vec<f64> {
    use grid_util::point::Point;
    q.iter()
        .map(|&(s, g)| {
            let p = pg.get_path_single_goal(
                Point::new(s.0 as i32, s.1 as i32),
                Point::new(g.0 as i32, g.1 as i32),
                false,
            );
            black_box(&p);
            p.map_or(f64::INFINITY, |p| p.len() as f64)
        })
        .collect()
}

/// The plain hand-written A*: binary heap of (f, g-tiebreak, cell), a generation-stamped g
/// array kept across queries (so it, too, pays per query only for what it explores).
struct Plain {
    g: Vec<u32>,
    stamp: Vec<u32>,
    gen: u32,
    heap: BinaryHeap<Reverse<(u32, u32)>>,
}

impl Plain {
    fn run(&mut self, m: &Map, s: (usize, usize), goal: (usize, usize)) -> f64 {
        let n = m.side;
        self.gen += 1;
        self.heap.clear();
        let si = s.1 * n + s.0;
        self.g[si] = 0;
        self.stamp[si] = self.gen;
        self.heap.push(Reverse((octile(s, goal), si as u32)));
        while let Some(Reverse((f, c))) = self.heap.pop() {
            let c = c as usize;
            let p = (c % n, c / n);
            let gc = self.g[c];
            if f > gc + octile(p, goal) {
                continue;
            }
            if p == goal {
                return gc as f64 / 10000.0;
            }
            for (q, w) in moves(m, p) {
                let qi = q.1 * n + q.0;
                let ng = gc + w;
                if self.stamp[qi] != self.gen || ng < self.g[qi] {
                    self.stamp[qi] = self.gen;
                    self.g[qi] = ng;
                    self.heap.push(Reverse((ng + octile(q, goal), qi as u32)));
                }
            }
        }
        f64::INFINITY
    }
}

fn bench(c: &mut Criterion) {
    let mut sides = vec![256usize, 1024, 4096];
    if common::graphs::reverse_order() {
        sides.reverse();
    }
    for side in sides {
        let m = make_map(side, 0x7133 + side as u64);
        let pg = gp_grid(&m);
        let mut plain = Plain {
            g: vec![0; side * side],
            stamp: vec![0; side * side],
            gen: 0,
            heap: BinaryHeap::new(),
        };
        let mut lengths = vec![("short", 10usize), ("medium", 64), ("long", 256)];
        if common::graphs::reverse_order() {
            lengths.reverse();
        }
        for (lname, span) in lengths {
            let span = span.min(side / 2);
            let q = queries(&m, span, 0x5EED ^ (side * 31 + span) as u64);
            for &(name, a, ra) in &ALGS {
                let mine = onepath_batch(&m, &q, a);
                let with_ref = side <= 1024 || lname == "short";
                if with_ref {
                    let theirs = reference_batch(&m, &q, ra);
                    assert_eq!(
                        mine.iter().map(|c| c.to_bits()).collect::<Vec<_>>(),
                        theirs.iter().map(|c| c.to_bits()).collect::<Vec<_>>(),
                        "{side} {lname} {name}: onepath and the reference differ"
                    );
                }
                let mut entries: Vec<Entry<'_>> = vec![(
                    "onepath",
                    Box::new(|| onepath_batch(&m, &q, a)) as Box<dyn FnMut() -> Vec<f64>>,
                )];
                if with_ref {
                    entries.push(("reference", Box::new(|| reference_batch(&m, &q, ra))));
                }
                group(c, &format!("tier1/{side}/{lname}/{name}"), Q, entries);
            }
            let astar = onepath_batch(&m, &q, onepath::GridAlgorithm::AStar);
            let pf = pathfinding_batch(&m, &q);
            let plain_costs: Vec<f64> = q.iter().map(|&(s, g)| plain.run(&m, s, g)).collect();
            let near = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-3);
            if !near(&astar, &pf) || !near(&astar, &plain_costs) {
                eprintln!("  {side} {lname}: peer costs differ: {astar:?} {pf:?} {plain_costs:?}");
            }
            let entries: Vec<Entry<'_>> = vec![
                (
                    "onepath_astar",
                    Box::new(|| onepath_batch(&m, &q, onepath::GridAlgorithm::AStar)),
                ),
                (
                    "onepath_jps_plus",
                    Box::new(|| onepath_batch(&m, &q, onepath::GridAlgorithm::JpsPlus)),
                ),
                ("pathfinding_astar", Box::new(|| pathfinding_batch(&m, &q))),
                ("grid_pathfinding_jps", Box::new(|| gp_batch(&pg, &q))),
                (
                    "plain_astar",
                    Box::new(|| q.iter().map(|&(s, g)| plain.run(&m, s, g)).collect()),
                ),
            ];
            group(c, &format!("tier1/{side}/{lname}/peers"), Q, entries);
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
