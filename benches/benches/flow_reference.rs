//! Flow fields: onepath beside the reference crate, for context to `benches/benches/flow.rs`
//! (which cannot name the reference crate). The same maps (`benches/benches/common/grids.rs`,
//! included with `#[path]`): `open` and `rooms`, one goal near the top-left, the default
//! `GridOptions`.
//!
//! Groups (time per field): `flowref_<map>_<side>_full`: `recompute(&grid, 0)` on a field
//! created untimed, in both crates; `flowref_<map>_<side>_repair_10`: 10 cells within 24 of the
//! centre toggled (wall <-> passable) and `step(&grid, 0)` (a repair), both crates, each field
//! restored from its saved bytes untimed before every run. `side` is 1024 unless the reference
//! takes more than 2 s for one full field there (checked once before timing), then 256.
//!
//! Before timing: the crates' fields are asserted equal (costs by bits and steps), after the full
//! computation and after the repair.
//!
//! `CARGO_TARGET_DIR=/tmp/t-bench cargo bench -p onepath-benches --bench flow_reference`;
//! `ONEPATH_BENCH_REVERSE=1` reverses the order of the groups and of the entries in each group.

#[path = "common/graphs.rs"]
mod graphs;
#[path = "common/grids.rs"]
mod grids;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use graphs::{reverse_order, Prng};
use onepath_reference as r;
use std::hint::black_box;
use std::time::{Duration, Instant};

fn reference_grid(g: &onepath::Grid) -> r::Grid {
    let mut out = r::Grid::new(g.width(), g.height()).unwrap();
    for (i, &a) in g.cells().iter().enumerate() {
        if a != 0 {
            out.set_cell(i % g.width(), i / g.width(), a).unwrap();
        }
    }
    out
}

fn goal(g: &onepath::Grid) -> (usize, usize) {
    let side = g.width();
    let (mut x, y) = (side / 8 + 3, side / 8 + 5);
    while g.cell(x, y).unwrap() == onepath::WALL {
        x += 1;
    }
    (x, y)
}

/// 10 distinct seeded cells within 24 of the centre (never the goal): `(x, y, old, new)`.
fn edits(g: &onepath::Grid, goal: (usize, usize), seed: u64) -> Vec<(usize, usize, u8, u8)> {
    let side = g.width();
    let mut rng = Prng(seed);
    let mut out: Vec<(usize, usize, u8, u8)> = Vec::new();
    while out.len() < 10 {
        let x = side / 2 - 24 + rng.below(49) as usize;
        let y = side / 2 - 24 + rng.below(49) as usize;
        if (x, y) == goal || out.iter().any(|e| (e.0, e.1) == (x, y)) {
            continue;
        }
        let old = g.cell(x, y).unwrap();
        out.push((
            x,
            y,
            old,
            if old == onepath::WALL {
                0
            } else {
                onepath::WALL
            },
        ));
    }
    out
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|c| c.to_bits()).collect()
}

fn bench(c: &mut Criterion) {
    let mut names = vec![("open", 0xF1u64), ("rooms", 0xF2)];
    if reverse_order() {
        names.reverse();
    }
    for (name, seed) in names {
        let mut side = 1024;
        let build = |side: usize| match name {
            "open" => grids::open(side, seed),
            _ => grids::rooms(side, 15, seed),
        };
        let mut og = build(side);
        let mut rg = reference_grid(&og);
        let mut goal_cell = goal(&og);
        {
            let mut rf =
                r::GridFlowField::new(&mut rg, r::GridOptions::default(), &[goal_cell]).unwrap();
            let t = Instant::now();
            rf.recompute(&rg, 0).unwrap();
            let dt = t.elapsed();
            eprintln!("{name} {side}: one reference field in {dt:?}");
            rf.detach(&mut rg);
            if dt > Duration::from_secs(2) {
                side = 256;
                og = build(side);
                rg = reference_grid(&og);
                goal_cell = goal(&og);
                eprintln!("{name}: the reference takes more than 2 s at 1024²; using {side}²");
            }
        }
        let goals = [goal_cell];
        let ed = edits(&og, goal_cell, 0xED17 ^ seed);
        let mut of =
            onepath::GridFlowField::new(&mut og, onepath::GridOptions::default(), &goals).unwrap();
        let mut rf = r::GridFlowField::new(&mut rg, r::GridOptions::default(), &goals).unwrap();
        of.step(&og, 0).unwrap();
        rf.step(&rg, 0).unwrap();
        let (od, rd) = (of.describe(), rf.describe());
        assert!(
            bits(&od.costs) == bits(&rd.costs) && od.next == rd.next,
            "{name}: the crates' fields differ"
        );
        let (os, rs) = (of.save_state(), rf.save_state());
        assert_eq!(os, rs, "{name}: the crates' saves differ");
        for &(x, y, _, new) in &ed {
            og.set_cell(x, y, new).unwrap();
            rg.set_cell(x, y, new).unwrap();
        }
        of.step(&og, 0).unwrap();
        rf.step(&rg, 0).unwrap();
        let (od, rd) = (of.describe(), rf.describe());
        assert!(
            bits(&od.costs) == bits(&rd.costs) && od.next == rd.next,
            "{name}: the crates' repaired fields differ"
        );
        for &(x, y, old, _) in ed.iter().rev() {
            og.set_cell(x, y, old).unwrap();
            rg.set_cell(x, y, old).unwrap();
        }
        eprintln!("check {name} {side}: the crates agree on the full field and the repair");

        let full = format!("flowref_{name}_{side}_full");
        let mut g = c.benchmark_group(&full);
        g.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(1))
            .measurement_time(Duration::from_millis(20))
            .throughput(Throughput::Elements(1));
        let mut entries = vec!["onepath", "reference"];
        if reverse_order() {
            entries.reverse();
        }
        for &e in &entries {
            g.bench_function(e, |b| match e {
                "onepath" => b.iter(|| black_box(of.recompute(&og, 0).unwrap())),
                _ => b.iter(|| black_box(rf.recompute(&rg, 0).unwrap())),
            });
        }
        g.finish();

        let repair = format!("flowref_{name}_{side}_repair_10");
        let mut g = c.benchmark_group(&repair);
        g.sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_millis(1))
            .measurement_time(Duration::from_millis(20))
            .throughput(Throughput::Elements(1));
        for &e in &entries {
            g.bench_function(e, |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let t;
                        if e == "onepath" {
                            of.restore_state(&og, &os).unwrap();
                            t = Instant::now();
                            for &(x, y, _, new) in &ed {
                                og.set_cell(x, y, new).unwrap();
                            }
                            black_box(of.step(&og, 0).unwrap());
                            total += t.elapsed();
                            for &(x, y, old, _) in ed.iter().rev() {
                                og.set_cell(x, y, old).unwrap();
                            }
                        } else {
                            rf.restore_state(&rg, &rs).unwrap();
                            t = Instant::now();
                            for &(x, y, _, new) in &ed {
                                rg.set_cell(x, y, new).unwrap();
                            }
                            black_box(rf.step(&rg, 0).unwrap());
                            total += t.elapsed();
                            for &(x, y, old, _) in ed.iter().rev() {
                                rg.set_cell(x, y, old).unwrap();
                            }
                        }
                    }
                    total
                })
            });
        }
        g.finish();
        of.detach(&mut og);
        rf.detach(&mut rg);
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
