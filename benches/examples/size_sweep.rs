//! A timing probe (not a test, not a benchmark): mode-1 `GridSearch` A* over a sweep of square
//! random-obstacle maps, nanoseconds per expanded cell, to see whether the cost per expansion
//! jumps at some grid size (issue 14). Optionally pathfinding's A* on the same maps and queries.
//!
//! ```text
//! cargo run --release -p onepath-benches --example size_sweep [-- [--peer] [--dijkstra] [sizes...]]
//! ```
//!
//! Each size: a map with 20% walls (seeded), 4 queries between the top-left and bottom-right
//! corner regions, each run 3 times; the table shows the best of the 3 runs of the batch.

use onepath::{Grid, GridAlgorithm, GridOptions, GridSearch, SearchStatus, WALL};
use std::time::Instant;

struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn map(side: usize, seed: u64) -> Grid {
    let mut rng = Lcg(seed);
    let mut g = Grid::new(side, side).unwrap();
    for y in 0..side {
        for x in 0..side {
            if rng.next(100) < 20 {
                g.set_cell(x, y, WALL).unwrap();
            }
        }
    }
    g
}

fn queries(g: &Grid, side: usize, seed: u64) -> Vec<((usize, usize), (usize, usize))> {
    let mut rng = Lcg(seed ^ 0x9e37);
    let r = (side / 8).max(1) as u64;
    let mut pick = |lo: usize| loop {
        let (x, y) = (lo + rng.next(r) as usize, lo + rng.next(r) as usize);
        if g.cell(x, y).unwrap() != WALL {
            return (x, y);
        }
    };
    (0..4).map(|_| (pick(0), pick(side - r as usize))).collect()
}

/// pathfinding's A* with integer costs 10000 / 14142 and the same moves (8-connected, no
/// corner cutting).
fn peer(g: &Grid, s: (usize, usize), t: (usize, usize)) -> usize {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let open = |x: i64, y: i64| {
        x >= 0 && y >= 0 && x < w && y < h && g.cell(x as usize, y as usize).unwrap() != WALL
    };
    let succ = |&(x, y): &(i64, i64)| {
        let mut v = Vec::with_capacity(8);
        for (dx, dy) in [
            (0, -1),
            (1, 0),
            (0, 1),
            (-1, 0),
            (1, -1),
            (1, 1),
            (-1, 1),
            (-1, -1),
        ] {
            let (nx, ny) = (x + dx, y + dy);
            if !open(nx, ny) {
                continue;
            }
            if dx != 0 && dy != 0 {
                if !open(x + dx, y) || !open(x, y + dy) {
                    continue;
                }
                v.push(((nx, ny), 14142u64));
            } else {
                v.push(((nx, ny), 10000u64));
            }
        }
        v
    };
    let goal = (t.0 as i64, t.1 as i64);
    let heur = |&(x, y): &(i64, i64)| {
        let (dx, dy) = ((x - goal.0).unsigned_abs(), (y - goal.1).unsigned_abs());
        let (lo, hi) = (dx.min(dy), dx.max(dy));
        (hi - lo) * 10000 + lo * 14142
    };
    pathfinding::prelude::astar(&(s.0 as i64, s.1 as i64), succ, heur, |&p| p == goal)
        .map_or(0, |(p, _)| p.len())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let with_peer = args.iter().any(|a| a == "--peer");
    let dijkstra = args.iter().any(|a| a == "--dijkstra");
    let mut sizes: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    if sizes.is_empty() {
        sizes = vec![512, 1024, 1600, 1700, 2048, 3000, 4096];
    }
    let alg = if dijkstra {
        GridAlgorithm::Dijkstra
    } else {
        GridAlgorithm::AStar
    };
    println!("| side | cells | expansions (4 queries) | onepath ms | ns / expansion | peer ms | peer / onepath |");
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for &side in &sizes {
        let g = map(side, side as u64);
        let qs = queries(&g, side, side as u64);
        let opts = GridOptions {
            algorithm: alg,
            ..GridOptions::default()
        };
        let mut s = GridSearch::new(&g, opts).unwrap();
        let mut best = f64::INFINITY;
        let mut expanded = 0u64;
        for _ in 0..3 {
            expanded = 0;
            let t0 = Instant::now();
            for &(a, b) in &qs {
                s.begin(a, b).unwrap();
                assert_eq!(s.run(None), SearchStatus::Found);
                expanded += s.expanded_count();
            }
            best = best.min(t0.elapsed().as_secs_f64());
        }
        let (peer_ms, ratio) = if with_peer && !dijkstra {
            let mut pbest = f64::INFINITY;
            for _ in 0..3 {
                let t0 = Instant::now();
                for &(a, b) in &qs {
                    assert!(peer(&g, a, b) > 0);
                }
                pbest = pbest.min(t0.elapsed().as_secs_f64());
            }
            (
                format!("{:.1}", pbest * 1e3),
                format!("{:.2}x", pbest / best),
            )
        } else {
            ("-".into(), "-".into())
        };
        println!(
            "| {side}² | {} | {expanded} | {:.1} | {:.1} | {peer_ms} | {ratio} |",
            side * side,
            best * 1e3,
            best * 1e9 / expanded as f64
        );
    }
}
