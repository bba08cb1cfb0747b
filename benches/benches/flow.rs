//! Flow-field bench (spec/flow-fields.md; the targets: a full field within 1.5x of a plain
//! multi-source Dijkstra, a repair after k <= 10 local edits >= 5x faster than a recompute).
//!
//! Maps (`common/grids.rs`, 1024²): `open` (~600 small rectangular obstacles, ~2 % walls) and
//! `rooms` (rooms of 15 cells, one-cell walls, doors). Options: the default `GridOptions`
//! (agent size 1, 8-connected, no corner cutting, no hook); the maps have walls only, so every
//! move costs 1 or sqrt 2.
//!
//! Groups (one field per iteration; the tables show time per field):
//! - `full_<map>_<g>` (g = 1 goal near the top-left, or 16 goals on a 4 x 4 lattice): **onepath**:
//!   `GridFlowField::recompute(&grid, 0)` on a field created untimed (its buffers grown, the
//!   per-frame use); **onepath_new**: `GridFlowField::new` + `step(&grid, 0)` + `detach` (the
//!   allocation of a new field included); **dijkstra**: the plain multi-source Dijkstra a user
//!   would write (below: `BinaryHeap` with lazy deletion, f64 costs, the spec's moves and costs,
//!   a new cost array per call), costs only; **dijkstra_dirs**: the same plus the direction pass
//!   of [FLOW.DIR.RULE], i.e. the whole of what a flow field computes.
//! - `repair_<map>_<k>` (k = 1, 10, 100; one goal near the top-left): k distinct cells within 24
//!   cells of the centre toggled (wall <-> passable, never a goal), then **repair**:
//!   `step(&grid, 0)` on the complete field (the pending cells start a repair), against
//!   **recompute**: `recompute(&grid, 0)` on the same edited grid (the `full_*_1` groups show
//!   the baseline on the same goal). The k `set_cell`s are timed in both entries. Before each timed run (untimed) the previous
//!   run's edits are undone and the field restored from its saved bytes (`restore_state`, which
//!   replaces the pending cells the undo queued), so every run starts from the same state.
//!
//! Correctness before timing (asserted): the baseline's costs equal onepath's bit for bit on
//! every full workload (both compute the minimum over walks of sums added from the goals
//! outwards, [FLOW.COST.FIXED]), the baseline's directions equal onepath's steps; after every
//! repair of the pre-pass the repaired field's costs and steps equal a recomputed field's
//! ([FLOW.REPAIR.EQUAL]) and the baseline's. The pre-pass prints `bench-stat` lines (cells
//! settled per field: `settled()` of the repair / the recompute, reached cells for the
//! baseline), which `scripts/bench-tables flow` puts beside the times.
//!
//! The reference crate (`onepath_reference::GridFlowField`) is not in this bench: this crate's
//! dev-dependencies deliberately do not name it (see Cargo.toml); it is compared in
//! `benches/benches/flow_reference.rs`.
//!
//! `ONEPATH_BENCH_REVERSE=1` reverses the order of the groups and of the entries in each group.

mod common;

use common::graphs::{reverse_order, Prng};
use common::grids;
use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use onepath::{FlowStatus, Grid, GridFlowField, GridOptions, WALL};
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hint::black_box;
use std::time::{Duration, Instant};

const SIDE: usize = 1024;
const KS: [usize; 3] = [1, 10, 100];

// ---------------------------------------------------------------------------------------------
// The plain baseline, written as a user would: 8-connected, no corner cutting, cost of a move =
// (1 or sqrt 2) x the multiplier of the cell entered, f64, BinaryHeap with lazy deletion.

#[derive(Clone, Copy, PartialEq)]
struct Entry {
    cost: f64,
    cell: u32,
}
impl Eq for Entry {}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // A min-heap on cost.
        o.cost.total_cmp(&self.cost).then(o.cell.cmp(&self.cell))
    }
}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Directions in the spec's neighbour order N, E, S, W, NE, SE, SW, NW.
const DIRS: [(isize, isize); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// The plain grid the baseline reads: passability and the multiplier of each cell.
struct Plain {
    w: usize,
    h: usize,
    mult: Vec<f64>,
}

impl Plain {
    fn of(g: &Grid) -> Plain {
        let mult = g
            .cells()
            .iter()
            .map(|&a| {
                if a == WALL {
                    f64::INFINITY
                } else {
                    g.area_multiplier(a).unwrap()
                }
            })
            .collect();
        Plain {
            w: g.width(),
            h: g.height(),
            mult,
        }
    }
    fn set(&mut self, g: &Grid, x: usize, y: usize) {
        let a = g.cell(x, y).unwrap();
        self.mult[y * self.w + x] = if a == WALL {
            f64::INFINITY
        } else {
            g.area_multiplier(a).unwrap()
        };
    }
    fn open(&self, c: usize) -> bool {
        self.mult[c] != f64::INFINITY
    }
    /// The neighbours of `c` (both cells passable, no corner cutting) with the base cost.
    #[inline]
    fn neighbours(&self, c: usize, mut f: impl FnMut(usize, f64)) {
        if !self.open(c) {
            return;
        }
        let (x, y) = ((c % self.w) as isize, (c / self.w) as isize);
        let (w, h) = (self.w as isize, self.h as isize);
        for (i, &(dx, dy)) in DIRS.iter().enumerate() {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= w || ny >= h {
                continue;
            }
            let n = (ny * w + nx) as usize;
            if !self.open(n) {
                continue;
            }
            if i >= 4 && (!self.open((y * w + nx) as usize) || !self.open((ny * w + x) as usize)) {
                continue;
            }
            f(
                n,
                if i >= 4 {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                },
            );
        }
    }

    /// Multi-source Dijkstra from `goals`: `d(u) = min over neighbours v of c(u, v) + d(v)`,
    /// where `c(u, v)` is the cost of entering `v`.
    fn dijkstra(&self, goals: &[u32]) -> Vec<f64> {
        let mut d = vec![f64::INFINITY; self.w * self.h];
        let mut heap = BinaryHeap::new();
        for &g in goals {
            d[g as usize] = 0.0;
            heap.push(Entry { cost: 0.0, cell: g });
        }
        while let Some(Entry { cost, cell }) = heap.pop() {
            let u = cell as usize;
            if cost > d[u] {
                continue;
            }
            let enter_u = self.mult[u];
            self.neighbours(u, |v, base| {
                let cand = cost + base * enter_u;
                if cand < d[v] {
                    d[v] = cand;
                    heap.push(Entry {
                        cost: cand,
                        cell: v as u32,
                    });
                }
            });
        }
        d
    }

    /// [FLOW.DIR.RULE]: the first neighbour, strictly cheaper, with the smallest
    /// `c(c, v) + d(v)`; none for goals and unreached cells.
    fn directions(&self, d: &[f64], goals: &[u32]) -> Vec<Option<u32>> {
        let mut is_goal = vec![false; d.len()];
        for &g in goals {
            is_goal[g as usize] = true;
        }
        (0..d.len())
            .map(|c| {
                if is_goal[c] || d[c] == f64::INFINITY {
                    return None;
                }
                let mut best: Option<(u32, f64)> = None;
                self.neighbours(c, |v, base| {
                    if d[v] < d[c] {
                        let value = base * self.mult[v] + d[v];
                        if best.is_none_or(|(_, b)| value < b) {
                            best = Some((v as u32, value));
                        }
                    }
                });
                best.map(|(v, _)| v)
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------

struct Map {
    name: &'static str,
    grid: Grid,
    plain: Plain,
}

fn build_map(name: &'static str, seed: u64) -> Map {
    let grid = match name {
        "open" => grids::open(SIDE, seed),
        "rooms" => grids::rooms(SIDE, 15, seed),
        _ => unreachable!(),
    };
    let plain = Plain::of(&grid);
    Map { name, grid, plain }
}

/// The passable cell nearest (in scan order from `(x, y)` outwards along the row) to `(x, y)`.
fn passable_near(g: &Grid, x: usize, y: usize) -> (usize, usize) {
    for r in 0..SIDE {
        for (cx, cy) in [
            (x + r, y),
            (x.wrapping_sub(r), y),
            (x, y + r),
            (x, y.wrapping_sub(r)),
        ] {
            if cx < SIDE && cy < SIDE && g.cell(cx, cy).unwrap() != WALL {
                return (cx, cy);
            }
        }
    }
    unreachable!()
}

fn goals_of(g: &Grid, n: usize) -> Vec<(usize, usize)> {
    if n == 1 {
        return vec![passable_near(g, SIDE / 8 + 3, SIDE / 8 + 5)];
    }
    let mut out = Vec::new();
    for j in 0..4 {
        for i in 0..4 {
            out.push(passable_near(
                g,
                SIDE / 8 + i * SIDE / 4 + 3,
                SIDE / 8 + j * SIDE / 4 + 5,
            ));
        }
    }
    out
}

fn cells_of(goals: &[(usize, usize)]) -> Vec<u32> {
    goals.iter().map(|&(x, y)| (y * SIDE + x) as u32).collect()
}

#[derive(Clone, Copy, Debug)]
struct Edit {
    x: usize,
    y: usize,
    old: u8,
    new: u8,
}

/// k distinct seeded cells within 24 of the centre, each toggled wall <-> passable.
fn draw_edits(g: &Grid, goals: &[(usize, usize)], k: usize, seed: u64) -> Vec<Edit> {
    let mut r = Prng(seed);
    let mut out: Vec<Edit> = Vec::new();
    while out.len() < k {
        let x = SIDE / 2 - 24 + r.below(49) as usize;
        let y = SIDE / 2 - 24 + r.below(49) as usize;
        if goals.contains(&(x, y)) || out.iter().any(|e| (e.x, e.y) == (x, y)) {
            continue;
        }
        let old = g.cell(x, y).unwrap();
        out.push(Edit {
            x,
            y,
            old,
            new: if old == WALL { 0 } else { WALL },
        });
    }
    out
}

fn apply(g: &mut Grid, edits: &[Edit]) {
    for e in edits {
        g.set_cell(e.x, e.y, e.new).unwrap();
    }
}

fn undo(g: &mut Grid, edits: &[Edit]) {
    for e in edits.iter().rev() {
        g.set_cell(e.x, e.y, e.old).unwrap();
    }
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|c| c.to_bits()).collect()
}

fn settings(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_millis(20))
        .throughput(Throughput::Elements(1));
}

fn bench(c: &mut Criterion) {
    let t0 = Instant::now();
    let mut maps = vec![build_map("open", 0xF1), build_map("rooms", 0xF2)];
    if reverse_order() {
        maps.reverse();
    }
    let opts = GridOptions::default();
    for m in &maps {
        let walls = m.grid.cells().iter().filter(|&&a| a == WALL).count();
        eprintln!("map {}: {SIDE}x{SIDE}, {walls} walls", m.name);
    }

    // Full fields.
    let mut full_groups: Vec<(usize, usize)> = Vec::new();
    for mi in 0..maps.len() {
        for n in [1usize, 16] {
            full_groups.push((mi, n));
        }
    }
    for &(mi, n) in &full_groups {
        let m = &mut maps[mi];
        let goals = goals_of(&m.grid, n);
        let gc = cells_of(&goals);
        let name = format!("full_{}_{n}", m.name);
        // Checks.
        let t = Instant::now();
        let d = m.plain.dijkstra(&gc);
        let dt_base = t.elapsed();
        let dirs = m.plain.directions(&d, &gc);
        let mut f = GridFlowField::new(&mut m.grid, opts.clone(), &goals).unwrap();
        let t = Instant::now();
        assert_eq!(f.recompute(&m.grid, 0).unwrap(), FlowStatus::Complete);
        let dt_field = t.elapsed();
        let desc = f.describe();
        assert!(bits(&desc.costs) == bits(&d), "{name}: costs differ");
        assert!(desc.next == dirs, "{name}: directions differ");
        let reached = d.iter().filter(|c| c.is_finite()).count();
        println!(
            "bench-stat group={name} function=onepath expanded={}",
            f.settled()
        );
        println!("bench-stat group={name} function=dijkstra expanded={reached}");
        eprintln!(
            "check {name}: costs and directions equal the baseline's on {reached} reached cells; onepath {:?}, baseline {:?}",
            dt_field, dt_base
        );
        let mut entries: Vec<&str> = vec!["onepath", "onepath_new", "dijkstra", "dijkstra_dirs"];
        if reverse_order() {
            entries.reverse();
        }
        let mut cg = c.benchmark_group(&name);
        settings(&mut cg);
        for e in entries {
            cg.bench_function(e, |b| match e {
                "onepath" => b.iter(|| {
                    black_box(f.recompute(&m.grid, 0).unwrap());
                }),
                "onepath_new" => b.iter(|| {
                    let mut g = GridFlowField::new(&mut m.grid, opts.clone(), &goals).unwrap();
                    black_box(g.step(&m.grid, 0).unwrap());
                    g.detach(&mut m.grid);
                    g
                }),
                "dijkstra" => b.iter(|| m.plain.dijkstra(&gc)),
                _ => b.iter(|| {
                    let d = m.plain.dijkstra(&gc);
                    m.plain.directions(&d, &gc)
                }),
            });
        }
        cg.finish();
        f.detach(&mut m.grid);
    }

    // Repairs.
    let mut order: Vec<(usize, usize)> = Vec::new();
    for mi in 0..maps.len() {
        for &k in &KS {
            order.push((mi, k));
        }
    }
    for &(mi, k) in &order {
        let m = &mut maps[mi];
        let goals = goals_of(&m.grid, 1);
        let gc = cells_of(&goals);
        let name = format!("repair_{}_{k}", m.name);
        let edits = draw_edits(&m.grid, &goals, k, 0xED17 ^ (k as u64) << 8 ^ mi as u64);
        let mut f = GridFlowField::new(&mut m.grid, opts.clone(), &goals).unwrap();
        assert_eq!(f.step(&m.grid, 0).unwrap(), FlowStatus::Complete);
        let saved = f.save_state();
        // Checks: the repair equals a recompute and the baseline on the edited grid.
        apply(&mut m.grid, &edits);
        let t = Instant::now();
        assert_eq!(f.step(&m.grid, 0).unwrap(), FlowStatus::Complete);
        let dt_repair = t.elapsed();
        let repaired = f.describe();
        let repair_settled = f.settled();
        let mut fresh = GridFlowField::new(&mut m.grid, opts.clone(), &goals).unwrap();
        assert_eq!(fresh.recompute(&m.grid, 0).unwrap(), FlowStatus::Complete);
        let want = fresh.describe();
        fresh.detach(&mut m.grid);
        assert!(
            bits(&repaired.costs) == bits(&want.costs) && repaired.next == want.next,
            "{name}: the repaired field is not the recomputed one"
        );
        for e in &edits {
            m.plain.set(&m.grid, e.x, e.y);
        }
        let d = m.plain.dijkstra(&gc);
        assert!(
            bits(&d) == bits(&want.costs),
            "{name}: costs differ from the baseline"
        );
        undo(&mut m.grid, &edits);
        for e in &edits {
            m.plain.set(&m.grid, e.x, e.y);
        }
        println!("bench-stat group={name} function=repair expanded={repair_settled}");
        println!(
            "bench-stat group={name} function=recompute expanded={}",
            fresh.settled()
        );
        eprintln!(
            "check {name}: repair = recompute = baseline; repair settled {repair_settled} cells in {dt_repair:?}, a recompute {}",
            fresh.settled()
        );
        let mut entries: Vec<&str> = vec!["repair", "recompute"];
        if reverse_order() {
            entries.reverse();
        }
        let mut cg = c.benchmark_group(&name);
        settings(&mut cg);
        for e in entries {
            cg.bench_function(e, |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        // Untimed: the field as saved, the grid unedited.
                        f.restore_state(&m.grid, &saved).unwrap();
                        let t = Instant::now();
                        apply(&mut m.grid, &edits);
                        match e {
                            "repair" => {
                                black_box(f.step(&m.grid, 0).unwrap());
                            }
                            _ => {
                                black_box(f.recompute(&m.grid, 0).unwrap());
                            }
                        }
                        total += t.elapsed();
                        undo(&mut m.grid, &edits);
                    }
                    total
                })
            });
        }
        cg.finish();
        f.detach(&mut m.grid);
    }
    eprintln!("flow bench: {:?} in all", t0.elapsed());
}

criterion_group!(benches, bench);
criterion_main!(benches);
