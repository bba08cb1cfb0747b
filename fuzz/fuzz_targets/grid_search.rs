#![no_main]
//! `grid_search`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::grid`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("grid_search", data));
