//! proptest: the two grid-search fuzz targets (conformance/src/fuzzing/grid.rs) on seeded random
//! inputs: `grid_search` (small maps, every option, every API: both crates equal, the oracle
//! holds, sliced/snapshotted = whole) and `state_restore_grid_search` (host saves of kinds 8, 9,
//! 10 and 12 with byte overwrites, truncation and appended bytes: both crates agree, accepted
//! bytes re-encode unchanged, a rejected restore leaves NotStarted / mode 0).
use onepath_conformance::fuzzing::grid::{
    grid_search, grid_state_seeds, state_restore_grid_search,
};
use onepath_conformance::ReferenceCrate;
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

mod common;
use common::{bytes, runner};

#[test]
fn grid_search_differential() {
    // The oracle and the sliced runs on every input, not on the fuzz target's sample (issue 36).
    onepath_conformance::fuzzing::set_always_deep();
    let mut r = runner(20_000, 41);
    if let Err(e) = r.run(&bytes(400), |b| {
        grid_search(&b).map_err(|e| TestCaseError::fail(e.to_string()))
    }) {
        panic!("{e}");
    }
}

#[test]
fn grid_search_state_restore() {
    let seeds = grid_state_seeds(&ReferenceCrate);
    for (name, b) in &seeds {
        state_restore_grid_search(b).unwrap_or_else(|e| panic!("seed {name}: {e}"));
    }
    let edits = (
        any::<usize>(),
        proptest::collection::vec((any::<usize>(), any::<u8>()), 0..6),
        proptest::option::weighted(0.2, any::<usize>()),
        proptest::collection::vec(any::<u8>(), 0..3),
    );
    let mut r = runner(20_000, 42);
    let result = r.run(&edits, |(which, writes, cut, tail)| {
        let mut b = seeds[which % seeds.len()].1.clone();
        for (at, v) in writes {
            // Byte 0 picks the host; mostly damage the header and counts near the front.
            let i = 1 + at % (b.len() - 1).max(1);
            let i = if at % 3 == 0 {
                i
            } else {
                1 + (i - 1) % 96.min(b.len() - 1).max(1)
            };
            if i < b.len() {
                b[i] = v;
            }
        }
        if let Some(c) = cut {
            b.truncate(1 + c % b.len());
        }
        b.extend_from_slice(&tail);
        state_restore_grid_search(&b).map_err(|e| TestCaseError::fail(e.to_string()))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
