//! [RECORD.VECTOR] [RECORD.JSON.READ] [RECORD.BIN.READ] [RECORD.SCHEMA] The committed hostile
//! records: each is rejected with the error its vector names, and the mutation families the
//! spec lists are all there: every member removed and of another type, an unknown member in
//! every object, versions 0, 2, "1" and 1.5, an unknown schema and family, and every binary
//! cut, flag and name byte.

use onepath_conformance::records::vectors::{judge, read_dir};
use onepath_conformance::records::{QueryRecord, RecordErrorClass, MAX_RECORD_BYTES};
use std::path::Path;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

// pins [RECORD.SCHEMA]: versions 0 and 2 (JSON and binary) and an unknown schema name, in every
// record vector, must be refused as unsupported_version or unknown_schema; a reader that accepts or
// reinterprets them fails
// pins [RECORD.JSON.SHAPE]: every member of the 8 golden records removed or given another JSON
// type, and an unknown member in every object, must be refused at that member; a reader that
// accepts another shape fails
#[test]
fn every_hostile_record_is_rejected_with_its_error() {
    let vectors = read_dir(&dir()).unwrap();
    assert_eq!(vectors.len(), 8);
    let mut n = 0;
    for v in &vectors {
        for h in &v.case.hostile {
            assert_ne!(h.error, "ok", "{}", h.id);
            assert_eq!(
                judge(&h.transport, &h.input),
                h.error,
                "{}: {}",
                h.id,
                h.what
            );
            n += 1;
        }
    }
    assert!(n > 1000, "{n} hostile cases");
}

#[test]
fn every_member_of_every_golden_record_is_required_and_typed() {
    for v in read_dir(&dir()).unwrap() {
        let g = QueryRecord::from_json(&v.case.golden.json).unwrap();
        let removed: Vec<&str> = v
            .case
            .hostile
            .iter()
            .filter(|h| h.what.ends_with(" removed"))
            .map(|h| h.error.as_str())
            .collect();
        let typed = v
            .case
            .hostile
            .iter()
            .filter(|h| h.what.ends_with("of another JSON type"));
        // Each removal names the member removed, as missing_field.
        for h in v
            .case
            .hostile
            .iter()
            .filter(|h| h.what.ends_with(" removed"))
        {
            let member = h.what.trim_end_matches(" removed");
            assert_eq!(h.error, format!("missing_field@{member}"), "{}", h.id);
        }
        for h in typed {
            let member = h.what.trim_end_matches(" of another JSON type");
            assert_eq!(h.error, format!("wrong_type@{member}"), "{}", h.id);
        }
        assert!(removed.len() >= 12, "{}: {} members", v.id, removed.len());
        for h in v
            .case
            .hostile
            .iter()
            .filter(|h| h.what.starts_with("an unknown member in "))
        {
            assert!(h.error.starts_with("unknown_field@"), "{}", h.id);
            assert!(
                h.error.ends_with(".zz_unknown") || h.error == "unknown_field@zz_unknown",
                "{}",
                h.id
            );
        }
        let errors = |what: &str| -> Vec<String> {
            let json = !(what.starts_with("a wrong magic")
                || what == "family 8"
                || what == "one byte appended");
            let transport = if json { "json" } else { "binary" };
            v.case
                .hostile
                .iter()
                .filter(|h| h.what == what && h.transport == transport)
                .map(|h| h.error.clone())
                .collect()
        };
        let binary = |what: &str| -> Vec<String> {
            v.case
                .hostile
                .iter()
                .filter(|h| h.what == what && h.transport == "binary")
                .map(|h| h.error.clone())
                .collect()
        };
        assert_eq!(errors("version 0"), ["unsupported_version@version"]);
        assert_eq!(errors("version 2"), ["unsupported_version@version"]);
        assert_eq!(errors("version \"1\""), ["wrong_type@version"]);
        assert_eq!(errors("version 1.5"), ["wrong_type@version"]);
        assert_eq!(errors("an unknown schema"), ["unknown_schema@schema"]);
        assert_eq!(errors("an unknown family"), ["unknown_family@family"]);
        assert!(errors("the first member written twice")[0].starts_with("duplicate_field@schema@"));
        let bytes = g.to_binary();
        let cuts = v
            .case
            .hostile
            .iter()
            .filter(|h| h.what.starts_with("cut to "))
            .count();
        assert_eq!(cuts, bytes.len(), "{}: one cut per shorter length", v.id);
        assert_eq!(errors("a wrong magic"), ["bad_magic@0"]);
        assert_eq!(binary("version 0"), ["unsupported_version@4"]);
        assert_eq!(binary("version 2"), ["unsupported_version@4"]);
        assert_eq!(errors("family 8"), ["unknown_family@6"]);
        assert_eq!(
            errors("one byte appended"),
            [format!("trailing_bytes@{}", bytes.len())]
        );
    }
}

// pins [RECORD.JSON.LIMIT]: a JSON record of exactly 1 MiB must be parsed, one byte more refused as
// too_large before parsing, and nesting far past the depth limit must be malformed; another edge
// fails
// pins [RECORD.BIN.LIMIT]: a binary record of exactly 1 MiB must be read (bad_magic at 0) and one
// byte longer must be too_large at offset 1,048,576 before anything else is read
#[test]
fn limits_are_enforced_at_and_past_their_edge() {
    // [RECORD.JSON.LIMIT] [RECORD.BIN.LIMIT] 1 MiB is read (and then judged), one byte more is
    // too_large before parsing.
    let pad = |n: usize| format!("{}{}", " ".repeat(n - 2), "{}");
    let at = QueryRecord::from_json(&pad(MAX_RECORD_BYTES)).unwrap_err();
    assert_eq!(at.label(), "missing_field@schema");
    let past = QueryRecord::from_json(&pad(MAX_RECORD_BYTES + 1)).unwrap_err();
    assert_eq!(past.class(), RecordErrorClass::TooLarge);
    let at = QueryRecord::from_binary(&vec![0u8; MAX_RECORD_BYTES]).unwrap_err();
    assert_eq!(at.label(), "bad_magic@0");
    let past = QueryRecord::from_binary(&vec![0u8; MAX_RECORD_BYTES + 1]).unwrap_err();
    assert_eq!(past.label(), format!("too_large@{MAX_RECORD_BYTES}"));
    // A list count that the bytes left cannot hold is too_long at the count, before allocating.
    let v = &read_dir(&dir()).unwrap()[1];
    let mut b = hex::decode(&v.case.golden.binary).unwrap();
    let n = b.len();
    // The grid-search body ends with the schedule count (u32) and the snapshot flag (u8).
    b[n - 5..n - 1].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(
        QueryRecord::from_binary(&b).unwrap_err().label(),
        format!("too_long@{}", n - 5)
    );
    // Nesting past serde_json's limit is malformed, not a stack overflow.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert_eq!(
        QueryRecord::from_json(&deep).unwrap_err().class(),
        RecordErrorClass::Malformed
    );
}

#[test]
fn display_names_what_and_where() {
    let e = QueryRecord::from_json("{\"schema\":\"onepath.query\",\"version\":3}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unsupported_version at version: expected 1, found 3"
    );
    let e = QueryRecord::from_binary(&[0x4F, 0x50, 0x51, 0x52, 1, 0, 9]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown_family at byte 6 (family): expected a code below 8, found 9"
    );
}
