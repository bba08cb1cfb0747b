//! proptest: the `graph_query` differential (conformance/src/fuzzing.rs `check_query`): tier-1
//! outcomes of every applicable variant, hooked runs with their hook logs, sliced runs with
//! arbitrary step budgets = run(None) = tier 1, identical in `onepath-reference` and `onepath`.
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
fn graph_query_differential() {
    let mut r = runner(6_000, 11);
    let result = r.run(&bytes(1200), |data| {
        let Ok(input) = onepath_conformance::fuzzing::decode_query(&data) else {
            return Ok(());
        };
        onepath_conformance::fuzzing::check_query(&input).map_err(TestCaseError::fail)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
