//! [CONF.CHECK.HPA] Both crates' HPA* on 600 seeded requests (the section's cases, 12.5 times
//! the CI run's 48): replies equal query for query and the hierarchy edge for edge (costs by
//! bits, stored paths, rebuilt chunks), the reference's reply against the oracle, the sliced
//! check (every query sliced on one refreshed hierarchy equals tier 1) and the rebuild check.
//! The request form and checks are shared with the `hpa_search` fuzz target
//! (`onepath_conformance::fuzzing::hpa`), which also runs both self-checks on `onepath`.

use onepath_conformance::checks::hpa;
use onepath_conformance::{Config, OptimizedCrate, ReferenceCrate};

#[test]
fn both_crates_agree_on_many_requests() {
    let config = Config {
        grid_cases: 600,
        vectors_dir: None,
        ..Config::ci(0x4BA0)
    };
    let s = hpa::run(&[&ReferenceCrate, &OptimizedCrate], &config, None);
    assert_eq!(s.failed, 0, "{:?}", s.failures.first());
    assert!(s.passed >= 1200, "{}", s.passed);
}

#[test]
fn the_fuzz_check_passes_on_seeded_requests() {
    for seed in 0..150u64 {
        let r = onepath_conformance::hpa::cases::request(seed, seed % 9);
        if let Err(e) = onepath_conformance::fuzzing::hpa::check(&r) {
            panic!("seed {seed}: {e}");
        }
    }
}
