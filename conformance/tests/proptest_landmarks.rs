//! proptest: landmark invariants (conformance/src/fuzzing/landmarks.rs `check_landmarks`): equal OPLM bytes
//! in both crates, equal `lower_bound` bits, admissible and consistent bounds against the oracle
//! for integer weights, round trips, and hostile OPLM bytes rejected alike (class and offset).
use proptest::test_runner::TestCaseError;

mod common;
use common::{bytes, runner};

#[test]
fn landmarks_invariants() {
    let mut r = runner(20_000, 12);
    let result = r.run(&bytes(900), |data| {
        let Ok(input) = onepath_conformance::fuzzing::decode_landmarks(&data) else {
            return Ok(());
        };
        onepath_conformance::fuzzing::check_landmarks(&input)
            .map_err(|e| TestCaseError::fail(e.to_string()))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
