#![no_main]
//! `grid_bidi`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::bidi`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("grid_bidi", data));
