//! The certify sections ([CONF.CHECK.*]). Each check module produces one or two [`Section`]s;
//! the family registry ([`crate::family`]) runs them for a reference and any number of candidates.

pub mod bidi;
pub mod cancel;
pub mod describe;
pub mod errors;
pub mod flow_field;
pub mod generated;
pub mod grid_search;
pub mod hooks;
pub mod hpa;
pub mod landmarks;
pub mod lattice;
pub mod links;
pub mod replanning;
pub mod sliced;
pub mod state;

use crate::report::Section;

pub use crate::config::{
    default_threads, default_vectors_dir, Config, Shard, ShardError, ShardErrorKind, DEFAULT_SEED,
};

/// Runs `unit(i)` for `i in 0..count` on `threads` workers and merges the resulting sections in
/// index order, so the report (counts and the kept failures) does not depend on scheduling.
///
/// Workers take the next index from a shared counter rather than a fixed contiguous range: case
/// lists are uneven (one vector with 2,000 hostile cases beside vectors with 20), and a fixed
/// split left one worker, and in a port run one driver process, idle for most of a section.
pub fn parallel<F>(count: usize, threads: usize, names: &[&str], unit: F) -> Vec<Section>
where
    F: Fn(usize, &mut [Section]) + Sync,
{
    let threads = threads.clamp(1, count.max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<Vec<(usize, Vec<Section>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let (unit, next) = (&unit, &next);
                scope.spawn(move || {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if i >= count {
                            break done;
                        }
                        let mut sections: Vec<Section> =
                            names.iter().map(|n| Section::new(n)).collect();
                        unit(i, &mut sections);
                        done.push((i, sections));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("check worker panicked"))
            .collect()
    });
    let mut by_index: Vec<(usize, Vec<Section>)> = parts.into_iter().flatten().collect();
    by_index.sort_unstable_by_key(|(i, _)| *i);
    let mut merged: Vec<Section> = names.iter().map(|n| Section::new(n)).collect();
    for (_, part) in by_index {
        for (m, s) in merged.iter_mut().zip(part) {
            m.merge(s);
        }
    }
    merged
}

/// Runs `first` on the calling thread while `each` runs for every implementation of `others` on
/// a thread of its own, and returns both (the results of `others` in their order).
///
/// A long script (case 0 of the replanning and flow-field sections, 10,000 steps) is one request
/// per implementation; run one after the other, a port waited while the reference and its oracle
/// ran, then the reference waited for the port.
pub fn beside<R, T>(
    first: impl FnOnce() -> R,
    others: &[&dyn crate::implementation::Implementation],
    each: impl Fn(&dyn crate::implementation::Implementation) -> T + Sync,
) -> (R, Vec<T>)
where
    T: Send,
{
    std::thread::scope(|scope| {
        let each = &each;
        let handles: Vec<_> = others
            .iter()
            .map(|imp| scope.spawn(move || each(*imp)))
            .collect();
        let r = first();
        let rest = handles
            .into_iter()
            .map(|h| h.join().expect("check worker panicked"))
            .collect();
        (r, rest)
    })
}

/// As [`parallel`] over the cases `0..count` of one case list, keeping only the ordinals of
/// `config.shard`: every sharded section selects its cases through this (or [`Shard::contains`]).
pub fn parallel_cases<F>(config: &Config, count: usize, names: &[&str], unit: F) -> Vec<Section>
where
    F: Fn(usize, &mut [Section]) + Sync,
{
    let ordinals = config.shard.ordinals(count);
    parallel(ordinals.len(), config.threads, names, |j, sections| {
        // [DRIVER.PROC.DEADLINE]: a case not started by the deadline is skipped and counted.
        if config.stop.passed() {
            config.stop.skip(names.first().copied().unwrap_or("?"));
            return;
        }
        unit(ordinals[j], sections)
    })
}
