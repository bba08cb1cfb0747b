#![no_main]
//! `flow_script`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::flow`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("flow_script", data));
