//! proptest: the `graph_query` differential (conformance/src/fuzzing/query.rs `check_query`): tier-1
//! outcomes of every applicable variant, hooked runs with their hook logs, sliced runs with
//! arbitrary step budgets = run(None) = tier 1, identical in `onepath-reference` and `onepath`.
use proptest::test_runner::TestCaseError;

mod common;
use common::{bytes, runner};

#[test]
fn graph_query_differential() {
    let mut r = runner(6_000, 11);
    let result = r.run(&bytes(1200), |data| {
        let Ok(input) = onepath_conformance::fuzzing::decode_query(&data) else {
            return Ok(());
        };
        onepath_conformance::fuzzing::check_query(&input)
            .map_err(|e| TestCaseError::fail(e.to_string()))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
