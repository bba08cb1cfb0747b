#![no_main]
//! `record_read`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::records`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("record_read", data));
