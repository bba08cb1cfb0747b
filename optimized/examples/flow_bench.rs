//! Flow-field timing on a 1024 x 1024 map (spec/flow-fields.md, [FLOW.API.NO_ALLOC]): a full
//! field against a plain multi-source Dijkstra over the same moves and costs (8-connected, no
//! corner cutting, one-cell agent), and a repair after 10 local edits against a recompute.
//! `cargo run --release -p onepath --example flow_bench [size] [reps]`; with
//! `FLOW_BENCH_ONLY=dijkstra` or `=field` only that part runs (for `perf stat` on a busy machine).

use onepath::*;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

#[derive(PartialEq)]
struct Item(f64, u32);
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

/// A textbook multi-source Dijkstra (lazy deletion) toward `goals`: costs only.
fn dijkstra(g: &Grid, goals: &[u32], mult: &[f64; 256], dist: &mut Vec<f64>) {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let cells = g.cells();
    dist.clear();
    dist.resize((w * h) as usize, f64::INFINITY);
    let mut heap = BinaryHeap::new();
    for &s in goals {
        dist[s as usize] = 0.0;
        heap.push(Item(0.0, s));
    }
    const D: [(i64, i64); 8] = [
        (0, -1),
        (1, 0),
        (0, 1),
        (-1, 0),
        (1, -1),
        (1, 1),
        (-1, 1),
        (-1, -1),
    ];
    let open =
        |x: i64, y: i64| x >= 0 && y >= 0 && x < w && y < h && cells[(y * w + x) as usize] != WALL;
    while let Some(Item(d, u)) = heap.pop() {
        if d > dist[u as usize] {
            continue;
        }
        let (x, y) = (u as i64 % w, u as i64 / w);
        if !open(x, y) {
            continue;
        }
        let mu = mult[cells[u as usize] as usize];
        for (k, &(dx, dy)) in D.iter().enumerate() {
            let (vx, vy) = (x + dx, y + dy);
            if !open(vx, vy) || (k >= 4 && !(open(vx, y) && open(x, vy))) {
                continue;
            }
            let base = if k < 4 { 1.0 } else { std::f64::consts::SQRT_2 };
            let nd = d + base * mu;
            let v = (vy * w + vx) as usize;
            if nd < dist[v] {
                dist[v] = nd;
                heap.push(Item(nd, v as u32));
            }
        }
    }
}

fn best<F: FnMut()>(reps: usize, mut f: F) -> f64 {
    let mut b = f64::INFINITY;
    for _ in 0..reps {
        let t = Instant::now();
        f();
        b = b.min(t.elapsed().as_secs_f64());
    }
    b
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let n = args.first().copied().unwrap_or(1024);
    let reps = args.get(1).copied().unwrap_or(5);
    let mut r = SeededRandom::new(7);
    let mut g = Grid::new(n, n).unwrap();
    g.set_area_multiplier(1, 2.5).unwrap();
    for y in 0..n {
        for x in 0..n {
            let v = r.next_int(10);
            let a = if v < 2 {
                WALL
            } else if v < 4 {
                1
            } else {
                0
            };
            g.set_cell(x, y, a).unwrap();
        }
    }
    let goals = [(0, 0), (n / 2, n / 2), (n - 1, n - 1)];
    for &(x, y) in &goals {
        g.set_cell(x, y, 0).unwrap();
    }
    let idx: Vec<u32> = goals.iter().map(|&(x, y)| (y * n + x) as u32).collect();
    let mut mult = [1.0; 256];
    for a in 0..255u8 {
        mult[a as usize] = g.area_multiplier(a).unwrap();
    }
    let mut dist = Vec::new();
    match std::env::var("FLOW_BENCH_ONLY").as_deref() {
        Ok("dijkstra") => {
            for _ in 0..reps {
                dijkstra(&g, &idx, &mult, &mut dist);
            }
            return;
        }
        Ok("field") => {
            let mut f = GridFlowField::new(&mut g, GridOptions::default(), &goals).unwrap();
            for _ in 0..reps {
                f.recompute(&g, 0).unwrap();
            }
            return;
        }
        _ => {}
    }
    let t_dij = best(reps, || dijkstra(&g, &idx, &mult, &mut dist));
    let mut f = GridFlowField::new(&mut g, GridOptions::default(), &goals).unwrap();
    let t_field = best(reps, || {
        f.recompute(&g, 0).unwrap();
    });
    let d = f.describe();
    let same = d
        .costs
        .iter()
        .zip(&dist)
        .all(|(a, b)| a.to_bits() == b.to_bits());
    println!(
        "{n}x{n}: dijkstra {:.1} ms, field {:.1} ms ({:.2}x), costs equal: {same}",
        t_dij * 1e3,
        t_field * 1e3,
        t_field / t_dij
    );
    // Repairs: 10 local edits (a cluster near a random spot), then step; against recompute.
    let mut t_rep = 0.0;
    let mut t_rec = 0.0;
    let mut touched = 0u64;
    let rounds = 20;
    for _ in 0..rounds {
        let (cx, cy) = (
            8 + r.next_int(n as u32 - 16) as usize,
            8 + r.next_int(n as u32 - 16) as usize,
        );
        for _ in 0..10 {
            let (x, y) = (cx + r.next_int(6) as usize, cy + r.next_int(6) as usize);
            let a = if r.next_int(2) == 0 { WALL } else { 0 };
            g.set_cell(x, y, a).unwrap();
        }
        let t = Instant::now();
        f.run(&g).unwrap();
        t_rep += t.elapsed().as_secs_f64();
        touched += f.settled();
        let mut fresh = GridFlowField::new(&mut g, GridOptions::default(), &goals).unwrap();
        let t = Instant::now();
        fresh.run(&g).unwrap();
        t_rec += t.elapsed().as_secs_f64();
        let (a, b) = (fresh.describe(), f.describe());
        assert!(
            a.costs == b.costs && a.next == b.next,
            "repair != recompute"
        );
        fresh.detach(&mut g);
    }
    println!(
        "repair after 10 local edits: {:.2} ms avg ({} settled avg), recompute {:.1} ms avg: {:.1}x",
        t_rep / rounds as f64 * 1e3,
        touched / rounds as u64,
        t_rec / rounds as f64 * 1e3,
        t_rec / t_rep
    );
    let mut buf = Vec::new();
    let t_save = best(reps, || f.save_state_into(&mut buf));
    let mut other = GridFlowField::new(&mut g, GridOptions::default(), &goals).unwrap();
    let t_restore = best(reps, || other.restore_state(&g, &buf).unwrap());
    println!(
        "save {:.1} ms ({} bytes), restore {:.1} ms",
        t_save * 1e3,
        buf.len(),
        t_restore * 1e3
    );
}
