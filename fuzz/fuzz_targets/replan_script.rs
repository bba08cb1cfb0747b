#![no_main]
//! `replan_script`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::replan`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("replan_script", data));
