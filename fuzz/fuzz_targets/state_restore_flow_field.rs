#![no_main]
//! `state_restore_flow_field`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::flow`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("state_restore_flow_field", data));
