//! The second judge of mutation testing ([CONF.MUTANTS.CHECKS], `.cargo/mutants-checks.toml`,
//! `MUTANTS.md`): a small certify run of every section on both crates. A mutant that the vectors
//! miss ([CONF.MUTANTS.JUDGE]) but this run catches is pinned by a kit check (the oracle, the
//! differential comparison of the two crates, the error, hook, sliced, state and grid sections),
//! which certifies ports through the driver too; a mutant both judges miss is listed in
//! `MUTANTS.md` with the reason it is equivalent, or gets a vector.
//!
//! It is also an ordinary test: the small run passes.

use onepath_conformance::checks::{Config, DEFAULT_SEED};
use onepath_conformance::family::certify;
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate};

/// A run of every section, small enough for one mutant in the test profile.
fn small() -> Config {
    Config {
        oracle_graphs: 120,
        landmark_graphs: 24,
        sliced_graphs: 30,
        link_sets: 30,
        hook_graphs: 40,
        cancel_graphs: 20,
        grid_cases: 8,
        replan_cases: 2,
        flow_cases: 2,
        movingai_side: 32,
        movingai_buckets: 4,
        ..Config::ci(DEFAULT_SEED)
    }
}

// pins [CONF.MUTANTS.CHECKS]: the second judge's certify run: a crate (mutant) that a kit check
// catches fails report.ok, and a section that runs no check fails, so no survivor is judged on a
// partial run
#[test]
fn small_certify_passes_on_both_crates() {
    let candidates: [&dyn Implementation; 1] = [&OptimizedCrate];
    let report = certify(&ReferenceCrate, &candidates, &small(), None);
    for s in &report.sections {
        assert!(s.checks > 0, "section {} ran no check", s.name);
    }
    assert!(report.ok, "certify failed:\n{}", report.to_table());
}
