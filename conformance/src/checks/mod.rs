//! The certify sections ([CONF.CHECK.*]). Each check module produces one or two [`Section`]s;
//! the family registry ([`crate::family`]) runs them for a reference and any number of candidates.

pub mod cancel;
pub mod errors;
pub mod flow_field;
pub mod generated;
pub mod grid_search;
pub mod hooks;
pub mod landmarks;
pub mod links;
pub mod replanning;
pub mod sliced;
pub mod state;

use crate::report::Section;

pub use crate::config::{
    default_threads, default_vectors_dir, Config, Shard, ShardError, ShardErrorKind, DEFAULT_SEED,
};

/// Runs `unit(i)` for `i in 0..count` on `threads` workers over contiguous ranges and merges the
/// resulting sections in index order (so failures are listed deterministically).
pub fn parallel<F>(count: usize, threads: usize, names: &[&str], unit: F) -> Vec<Section>
where
    F: Fn(usize, &mut [Section]) + Sync,
{
    let threads = threads.clamp(1, count.max(1));
    let chunk = count.div_ceil(threads);
    let parts: Vec<Vec<Section>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let unit = &unit;
                scope.spawn(move || {
                    let mut sections: Vec<Section> =
                        names.iter().map(|n| Section::new(n)).collect();
                    for i in t * chunk..((t + 1) * chunk).min(count) {
                        unit(i, &mut sections);
                    }
                    sections
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("check worker panicked"))
            .collect()
    });
    let mut merged: Vec<Section> = names.iter().map(|n| Section::new(n)).collect();
    for part in parts {
        for (m, s) in merged.iter_mut().zip(part) {
            m.merge(s);
        }
    }
    merged
}

/// As [`parallel`] over the cases `0..count` of one case list, keeping only the ordinals of
/// `config.shard`: every sharded section selects its cases through this (or [`Shard::contains`]).
pub fn parallel_cases<F>(config: &Config, count: usize, names: &[&str], unit: F) -> Vec<Section>
where
    F: Fn(usize, &mut [Section]) + Sync,
{
    let ordinals = config.shard.ordinals(count);
    parallel(ordinals.len(), config.threads, names, |j, sections| {
        unit(ordinals[j], sections)
    })
}
