//! [CONF.CHECK.BIDI] Both crates' bidirectional grid searches on 1,500 seeded requests (the
//! section's cases, 31 times the CI run's 48): replies equal query for query (cost bits, path,
//! expansions, counters, meeting cells), the reference's reply against the oracle, and the
//! sliced check. The request form and checks are shared with the `grid_bidi` fuzz target
//! (`onepath_conformance::fuzzing::bidi`), which also runs the sliced check on `onepath`.

use onepath_conformance::checks::bidi;
use onepath_conformance::{Config, OptimizedCrate, ReferenceCrate};

#[test]
fn both_crates_agree_on_many_requests() {
    let config = Config {
        grid_cases: 1500,
        vectors_dir: None,
        ..Config::ci(0xB1D1)
    };
    let s = bidi::run(&[&ReferenceCrate, &OptimizedCrate], &config, None);
    assert_eq!(s.failed, 0, "{:?}", s.failures.first());
    assert!(s.passed >= 3000, "{}", s.passed);
}

#[test]
fn the_fuzz_check_passes_on_seeded_requests() {
    for seed in 0..300u64 {
        let r = onepath_conformance::bidi::cases::request(seed, seed % 9);
        if let Err(e) = onepath_conformance::fuzzing::bidi::check(&r) {
            panic!("seed {seed}: {e}");
        }
    }
}
