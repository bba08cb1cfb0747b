//! proptest: landmark invariants (conformance/src/fuzzing.rs `check_landmarks`): equal OPLM bytes
//! in both crates, equal `lower_bound` bits, admissible and consistent bounds against the oracle
//! for integer weights, round trips, and hostile OPLM bytes rejected alike (class and offset).
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
fn landmarks_invariants() {
    let mut r = runner(20_000, 12);
    let result = r.run(&bytes(900), |data| {
        let Ok(input) = onepath_conformance::fuzzing::decode_landmarks(&data) else {
            return Ok(());
        };
        onepath_conformance::fuzzing::check_landmarks(&input).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
