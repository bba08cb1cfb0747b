//! proptest: point-graph links (conformance/src/fuzzing/links.rs `check_points`): both crates equal the
//! brute-force builder (CSR bit for bit, `link_valid` calls), fail alike on bad input, and are
//! permutation-stable without distance ties.
use proptest::test_runner::TestCaseError;

mod common;
use common::{bytes, runner};

// pins [GRAPH.PT.PERMUTE]: 20,000 random point sets rebuilt on both crates in a random order: links
// as position pairs that change (explicit, radius, or nearest without ties) fail the property
#[test]
fn points_links() {
    let mut r = runner(20_000, 13);
    let result = r.run(&bytes(600), |data| {
        let Ok(input) = onepath_conformance::fuzzing::decode_points(&data) else {
            return Ok(());
        };
        onepath_conformance::fuzzing::check_points(&input)
            .map_err(|e| TestCaseError::fail(e.to_string()))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
