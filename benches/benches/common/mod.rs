//! Bench-shared code (not part of any crate): seeded graph workloads (`graphs`), seeded grid maps
//! for the replanning bench (`grids`), the plain
//! hand-written baseline search (`baseline`) and the crates.io peers (`peers`). Each bench target
//! that needs it declares `mod common;`; `benches/benches/` includes `graphs.rs` and
//! `baseline.rs` directly with `#[path]`.
#![allow(dead_code)]

pub mod baseline;
pub mod graphs;
pub mod grids;
pub mod peers;

use criterion::{Criterion, SamplingMode, Throughput};
use onepath::{GraphAStar, GraphCost, GraphHeuristic};
use std::hint::black_box;
use std::time::Duration;

/// One named entry of a group: a closure running the whole batch.
pub type Entry<'a> = (&'static str, Box<dyn FnMut() -> Vec<f64> + 'a>);

/// A criterion group with the benches' settings (10 samples, flat sampling, one batch per
/// iteration, ~1 ms warm-up: 11 batches per entry), `Throughput::Elements(queries)` so the
/// table script can divide by the batch size. The entries run in the given order, reversed
/// under `ONEPATH_BENCH_REVERSE=1`.
pub fn group(c: &mut Criterion, name: &str, queries: usize, mut entries: Vec<Entry<'_>>) {
    if graphs::reverse_order() {
        entries.reverse();
    }
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(1))
        .measurement_time(Duration::from_millis(100))
        .throughput(Throughput::Elements(queries as u64));
    for (label, f) in entries.iter_mut() {
        g.bench_function(*label, |b| b.iter(|| black_box(f())));
    }
    g.finish();
}

/// Runs `f` once, printing its wall time (the check run before timing).
pub fn timed<T>(label: &str, f: impl FnOnce() -> T) -> T {
    let t = std::time::Instant::now();
    let r = f();
    eprintln!("  check run {label}: {:?}", t.elapsed());
    r
}

/// One batch on a reusable `GraphAStar`: `begin`, `run`, `path()`, cost.
pub fn onepath_batch<C: GraphCost, H: GraphHeuristic>(
    s: &mut GraphAStar<'_, C, H>,
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
