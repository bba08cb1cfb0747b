//! The hex and voxel searches (spec/hex-search.md, spec/voxel-search.md): on seeded random
//! worlds of every layout, connectivity and corner rule, both crates agree bit for bit (status,
//! cost bits, path, expansions, counters) and with an independent Dijkstra written from the spec's
//! move rules (`onepath_conformance::lattice::oracle`), and a sliced run makes the pops of one run;
//! the request form and checks are shared with the `hex_search` and `voxel_search` fuzz targets
//! (`onepath_conformance::fuzzing::lattice`).

use onepath_conformance::fuzzing::lattice::{check_hex, check_voxel, world};

/// [VOXEL.SEARCH.GRAPH] [VOXEL.MOVE.RULE] [VOXEL.EST.VALUE]
#[test]
fn voxel_searches_agree_with_each_other_and_the_oracle() {
    let mut found = 0;
    for seed in 0..4000u64 {
        let w = world(0x7E5E_0000 + seed, false);
        let a = check_voxel(&w).unwrap_or_else(|f| panic!("seed {seed}: {f}"));
        found += usize::from(a.status == 2 && a.cells.len() > 2);
    }
    assert!(found > 1000, "{found} found paths of 3+ voxels");
}

/// [HEX.SEARCH.GRAPH] [HEX.MOVE.RULE] [HEX.EST.VALUE]
#[test]
fn hex_searches_agree_with_each_other_and_the_oracle() {
    let mut found = 0;
    for seed in 0..4000u64 {
        let w = world(0x4E5E_0000 + seed, true);
        let a = check_hex(&w, (seed % 4) as u8).unwrap_or_else(|f| panic!("seed {seed}: {f}"));
        found += usize::from(a.status == 2 && a.cells.len() > 2);
    }
    assert!(found > 1000, "{found} found paths of 3+ cells");
}
