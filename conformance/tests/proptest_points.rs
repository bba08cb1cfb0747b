//! proptest: point-graph links (conformance/src/fuzzing.rs `check_points`): both crates equal the
//! brute-force builder (CSR bit for bit, `link_valid` calls), fail alike on bad input, and are
//! permutation-stable without distance ties.
use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};

/// A seeded, bounded runner: the same cases on every run, no persistence files.
fn runner(cases: u32, seed: u8) -> TestRunner {
    let config = Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    };
    TestRunner::new_with_rng(
        config,
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

/// Inputs: byte strings decoded by the same `arbitrary` decoder the fuzz target uses.
fn bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(any::<u8>(), 0..max)
}

#[test]
fn points_links() {
    let mut r = runner(20_000, 13);
    let result = r.run(&bytes(600), |data| {
        let Ok(input) = onepath_conformance::fuzzing::decode_points(&data) else {
            return Ok(());
        };
        onepath_conformance::fuzzing::check_points(&input).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
