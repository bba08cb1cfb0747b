#![no_main]
//! `hpa_search`: see fuzz/README.md; the checks live in `onepath_conformance::fuzzing::hpa`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| onepath_conformance::fuzzing::fuzz("hpa_search", data));
