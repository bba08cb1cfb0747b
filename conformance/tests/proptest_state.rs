//! proptest: state round trip and hostile restores (conformance/src/fuzzing/state_restore.rs `check_state`) for
//! kinds 1-4 and 11: golden saves (the fuzz seeds) with byte overwrites, truncation and appended
//! bytes; both crates accept or reject alike (class and offset), accepted bytes re-encode
//! unchanged, a rejected restore leaves the object unchanged (a search NotStarted).
use onepath_conformance::fuzzing::{check_state, reference_state, StateKind};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

mod common;
use common::runner;

/// (seed index, overwrites (offset, byte), truncation, appended bytes)
type Edit = (usize, Vec<(usize, u8)>, Option<usize>, Vec<u8>);

fn edits() -> impl Strategy<Value = Edit> {
    (
        any::<usize>(),
        proptest::collection::vec((any::<usize>(), any::<u8>()), 0..6),
        proptest::option::weighted(0.2, any::<usize>()),
        proptest::collection::vec(any::<u8>(), 0..3),
    )
}

fn apply(seeds: &[(String, Vec<u8>)], (which, writes, cut, tail): &Edit) -> Vec<u8> {
    let mut b = seeds[which % seeds.len()].1.clone();
    for (at, v) in writes {
        if !b.is_empty() {
            let i = at % b.len();
            // Mostly near the front (headers, counts), sometimes anywhere.
            let i = if at % 3 == 0 { i } else { i % b.len().min(64) };
            b[i] = *v;
        }
    }
    if let Some(c) = cut {
        b.truncate(c % (b.len() + 1));
    }
    b.extend_from_slice(tail);
    b
}

fn property(kind: StateKind, cases: u32, seed: u8) {
    let seeds = reference_state::seeds(kind);
    // Unmodified seeds first: every golden state round-trips in both crates.
    for (name, bytes) in &seeds {
        check_state(kind, bytes).unwrap_or_else(|e| panic!("{kind:?} seed {name}: {e}"));
    }
    let mut r = runner(cases, seed);
    let result = r.run(&edits(), |e| {
        check_state(kind, &apply(&seeds, &e)).map_err(|e| TestCaseError::fail(e.to_string()))
    });
    if let Err(e) = result {
        panic!("{kind:?}: {e}");
    }
}

#[test]
fn state_grid() {
    property(StateKind::Grid, 10_000, 21);
}

#[test]
fn state_hex() {
    property(StateKind::HexGrid, 10_000, 22);
}

#[test]
fn state_voxel() {
    property(StateKind::VoxelGrid, 3_000, 23);
}

#[test]
fn state_graph() {
    property(StateKind::Graph, 20_000, 24);
}

#[test]
fn state_graph_astar() {
    property(StateKind::GraphAStar, 10_000, 25);
}
