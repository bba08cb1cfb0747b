#![no_main]
//! `voxel_search`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::lattice`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("voxel_search", data));
