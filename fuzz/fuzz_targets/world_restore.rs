#![no_main]
//! `world_restore`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::world`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("world_restore", data));
