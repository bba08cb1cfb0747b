//! [RECORD.CASES.CHECK] [RECORD.BIN.SAME] [RECORD.RUN.EXACT] Every query of the committed vectors as a record: both transports read
//! back the same record and write back the same bytes, and the record read back from each runs,
//! in both crates, to the reply the vector expects (or, where the vector does not hold the
//! query's own reply, to the reply of the record it was written from).

use onepath_conformance::records::cases::{all, RecordCase};
use onepath_conformance::records::run::{run, RecordReply};
use onepath_conformance::records::QueryRecord;
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate};
use std::collections::BTreeMap;
use std::path::Path;

fn cases() -> Vec<RecordCase> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors");
    all(&dir).expect("the committed vectors read")
}

fn reply(imp: &dyn Implementation, case: &RecordCase, record: &QueryRecord) -> RecordReply {
    run(imp, record, &case.world).unwrap_or_else(|e| panic!("{}: {e}", case.label))
}

#[test]
fn every_family_with_queries_has_records() {
    let mut per_family: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for c in cases() {
        let e = per_family.entry(c.record.family()).or_default();
        e.0 += 1;
        e.1 += c.expected.is_some() as usize;
    }
    let families: Vec<&str> = per_family.keys().copied().collect();
    assert_eq!(
        families,
        [
            "flow-field",
            "graph",
            "grid-bidi",
            "grid-search",
            "hex-search",
            "hpa",
            "replanning",
            "voxel-search"
        ]
    );
    for (f, (n, expected)) in &per_family {
        assert!(
            *n > 0 && *expected > 0,
            "{f}: {n} records, {expected} with a vector reply"
        );
    }
    eprintln!("records per family (total, with the vector's reply): {per_family:?}");
}

// pins [RECORD.BIN.SAME]: every record of every committed vector taken through JSON and binary must
// read back equal and write back the same bytes in both transports; a transport that loses or
// changes a value fails
#[test]
fn records_round_trip_through_both_transports() {
    for c in cases() {
        let text = c.record.to_json();
        let from_text =
            QueryRecord::from_json(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", c.label));
        assert_eq!(from_text, c.record, "{}", c.label);
        assert_eq!(from_text.to_json(), text, "{}: canonical text", c.label);
        let bytes = c.record.to_binary();
        let from_bytes =
            QueryRecord::from_binary(&bytes).unwrap_or_else(|e| panic!("{}: {e}", c.label));
        assert_eq!(from_bytes, c.record, "{}", c.label);
        assert_eq!(from_bytes.to_binary(), bytes, "{}: binary", c.label);
        assert_eq!(from_bytes.to_json(), text, "{}: binary to JSON", c.label);
    }
}

// pins [RECORD.RUN.REQUEST]: over 1,000 records of all 8 families must run, as their family's
// request, to the reply their vector holds for that query; a request built with another field,
// budget or script fails
// pins [RECORD.RUN.EXACT]: every record read back from JSON and from binary must run, on both
// crates, to the very reply of the record it was written from; a transport that changes a bit of
// the query fails
// pins [RECORD.CASES.CHECK]: every record read back from both transports must run on both crates to
// the original's reply and that to the vector's where it holds one; a record, transport or crate
// that differs fails
#[test]
fn records_read_back_run_to_the_vectors_replies_in_both_crates() {
    let mut compared = 0;
    for c in cases() {
        let from_text = QueryRecord::from_json(&c.record.to_json()).unwrap();
        let from_bytes = QueryRecord::from_binary(&c.record.to_binary()).unwrap();
        let original = reply(&ReferenceCrate, &c, &c.record);
        if let Some(e) = &c.expected {
            if let Some(d) = e.difference(&original) {
                panic!("{}: the record's reply is not the vector's: {d}", c.label);
            }
            compared += 1;
        }
        for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
            for (how, r) in [("json", &from_text), ("binary", &from_bytes)] {
                assert_eq!(
                    reply(imp, &c, r),
                    original,
                    "{} ({how}) on {}",
                    c.label,
                    imp.name()
                );
            }
        }
    }
    assert!(
        compared > 1000,
        "only {compared} records compared with a vector reply"
    );
}
