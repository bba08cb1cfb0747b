#![no_main]
//! `state_restore_graph`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("state_restore_graph", data));
