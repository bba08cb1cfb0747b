#![no_main]
//! `state_restore_replanner`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::replan`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("state_restore_replanner", data));
