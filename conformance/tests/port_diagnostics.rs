//! Diagnostics a port author can act on ([DRIVER.LEVEL.FIRST], [DRIVER.CLI.SINCE],
//! [DRIVER.REPORT.JUNIT]): a wrapper over the Python port (`alter_reply.py`) alters one member of
//! its replies, and the report names that member as the first divergence — a wrong status, a
//! wrong path cell, a wrong counter by their reply member, a wrong state byte by its offset and
//! state-layout field; JUnit fails exactly the vectors that failed, also past the 50 failures a
//! section keeps; `--since` puts the clause diff in the text and JSON reports.

mod tools;

use onepath_conformance::config::FamilySet;
use onepath_conformance::port::run::{certify_port, PortOptions, PortRun};
use onepath_conformance::port::since;
use onepath_conformance::report_junit::check_well_formed;
use serde_json::Value;
use std::path::Path;
use std::time::Duration;

const DRIVER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python");
const ALTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/alter_reply.py");
const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors");
const OLD_INDEX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/since/CLAUSES-old.json");

fn altered(env: &str) -> String {
    format!("{env} python3 {ALTER} {DRIVER_DIR}")
}

fn options(env: &str, family: &str) -> PortOptions {
    tools::require_python3();
    let mut o = PortOptions::new(&altered(env));
    o.cases = 1;
    // No test of this file is about timeouts; runs may share the machine.
    o.timeout = Duration::from_secs(60);
    o.families = FamilySet::parse(family).unwrap();
    o
}

/// The family's headline difference and its first divergence.
fn first(r: &PortRun, family: &str) -> (String, String) {
    let f = r.families.iter().find(|f| f.family == family).unwrap();
    let e = f
        .first_break
        .as_ref()
        .unwrap_or_else(|| panic!("{family} has no difference:\n{}", r.to_table()));
    (
        e.quote(),
        e.brk
            .first
            .clone()
            .unwrap_or_else(|| panic!("no first divergence for {}:\n{}", e.quote(), r.to_table())),
    )
}

/// JUnit test cases of suite `vectors`: (name, failed, skipped).
fn junit_vectors(xml: &str) -> Vec<(String, bool, bool)> {
    check_well_formed(xml).unwrap();
    let mut out = Vec::new();
    let parts: Vec<&str> = xml.split("<testcase ").skip(1).collect();
    for p in parts {
        if !p.starts_with("classname=\"onepath.vectors\"") {
            continue;
        }
        let name = p
            .split(" name=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        // Up to the next test case: its own failure or skipped element, if any.
        let own = p.split("</testcase>").next().unwrap();
        out.push((
            name.to_string(),
            own.contains("<failure"),
            own.contains("<skipped"),
        ));
    }
    out
}

// pins [DRIVER.LEVEL.FIRST]: a wrong status is named by its reply member
// pins [DRIVER.CLI.SINCE]: the clause diff since an old index is in the JSON report, limited to the family
// pins [DRIVER.REPORT.JUNIT]: one altered vector fails alone
// pins [CONF.CLI.PORT]: certify --port must judge the piped port against the reference: a port
// differing in one vector's status must exit 1 with a version-4 report whose port member names that
// vector
// pins [DRIVER.REPORT.JSON]: a JSON port member without first_difference.first_divergence,
// failed_vectors holding exactly the failed vector, or clauses_since with from, families and the
// diff fails
#[test]
fn a_wrong_status_in_one_vector_is_named_and_fails_it_alone_with_the_clauses_since() {
    tools::require_python3();
    let dir = std::env::temp_dir().join(format!("onepath-port-diag-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junit = dir.join("junit.xml");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(["certify", "--port"])
        .arg(format!("python3 {ALTER} {DRIVER_DIR}"))
        .args([
            "--family",
            "hex-search",
            "--port-cases",
            "1",
            "--timeout",
            "60",
        ])
        .args([
            "--heartbeat",
            "0",
            "--json",
            "--since",
            OLD_INDEX,
            "--junit",
        ])
        .arg(&junit)
        .env("ALTER_OP", "run_lattice")
        .env("ALTER_PATH", "ran/0/path/status")
        .env("ALTER_HOW", "inc")
        .env(
            "ALTER_VECTOR",
            format!("{VECTORS}/hex-search/HEX-0013.json"),
        )
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["version"], 4);
    let port = &v["port"];
    let fd = &port["families"][0]["first_difference"];
    assert_eq!(fd["label"], "HEX-0013", "{fd}");
    assert_eq!(
        fd["first_divergence"], "ran[0].path.status: expected 2, found 3",
        "{fd}"
    );
    let failed: Vec<&String> = port["failed_vectors"].as_object().unwrap().keys().collect();
    assert_eq!(failed, ["HEX-0013"]);

    // The clause diff since the old index, limited to hex-search and the shared files.
    let d = &port["clauses_since"];
    let ids = |kind: &str| -> Vec<String> {
        d[kind]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["id"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(d["from"], OLD_INDEX);
    assert_eq!(d["families"], serde_json::json!(["hex-search"]));
    let changed = ids("changed");
    assert!(changed.contains(&"HEX.PASS".to_string()), "{d}");
    assert!(changed.contains(&"DRIVER.REPORT.JSON".to_string()), "{d}");
    assert_eq!(ids("retired"), [["HEX", "FAKE", "RETIRED"].join(".")]);
    let added = ids("added");
    assert!(added.contains(&"DRIVER.CLI.SINCE".to_string()), "{d}");
    assert!(added.contains(&"DRIVER.LEVEL.FIRST".to_string()), "{d}");
    assert!(!added.contains(&"HEX.OPT.FIELDS".to_string()), "{d}");
    for kind in ["added", "changed", "retired"] {
        for e in d[kind].as_array().unwrap() {
            assert_ne!(
                e["file"], "spec/hpa.md",
                "an HPA* clause in a hex-search run: {e}"
            );
        }
    }

    // JUnit: HEX-0013 fails, every other vector of the family passes.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let cases = junit_vectors(&xml);
    let hex: Vec<&(String, bool, bool)> =
        cases.iter().filter(|c| c.0.starts_with("HEX-")).collect();
    assert!(hex.len() > 20, "{xml}");
    for (name, failed, skipped) in hex {
        assert_eq!(*failed, name == "HEX-0013", "{name}: {xml}");
        assert!(!skipped, "{name}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

// pins [DRIVER.LEVEL.FIRST]: a wrong path cell is named by its reply member and index
// pins [DRIVER.CLI.SINCE]: the text report lists the clauses since
#[test]
fn a_wrong_path_cell_is_named_with_the_clauses_since_in_the_table() {
    let mut o = options(
        "ALTER_OP=run_lattice ALTER_PATH=ran/0/path/cells/1 ALTER_HOW=inc",
        "hex-search",
    );
    let old = since::read_since(None, OLD_INDEX).unwrap();
    o.since = Some(since::since(&old, OLD_INDEX, Path::new(VECTORS), o.families).unwrap());
    let r = certify_port(o);
    let (_, div) = first(&r, "hex-search");
    assert!(
        div.starts_with("ran[0].path.cells[1]: expected "),
        "{div}\n{}",
        r.to_table()
    );
    let table = r.to_table();
    assert!(
        table.contains(&format!("  first divergence (reply order): {div}\n")),
        "{table}"
    );
    assert!(
        table.contains(&format!(
            "clauses since {OLD_INDEX} (families hex-search and the shared files): "
        )),
        "{table}"
    );
    // The id is built, so the clause scanner does not read the fixture's fake id as a citation.
    let retired = format!("  retired: [{}]\n", ["HEX", "FAKE", "RETIRED"].join("."));
    assert!(table.contains(&retired), "{table}");
}

// pins [DRIVER.LEVEL.FIRST]: a wrong counter is named by its reply member
#[test]
fn a_wrong_counter_is_named() {
    let r = certify_port(options(
        "ALTER_OP=run_lattice ALTER_PATH=ran/0/path/iterations ALTER_HOW=inc",
        "hex-search",
    ));
    let (quote, div) = first(&r, "hex-search");
    assert!(
        div.starts_with("ran[0].path.iterations: expected "),
        "{quote}: {div}"
    );
    let json = r.to_json();
    assert!(json.contains("\"first_divergence\":\"ran[0].path.iterations: expected "));
}

// pins [DRIVER.LEVEL.FIRST]: a wrong state byte is named by its offset and state-layout field
// pins [DRIVER.REPORT.JUNIT]: vectors whose failures lie past the 50 a section keeps still fail
#[test]
fn a_wrong_state_byte_is_named_by_offset_and_field_and_every_failed_vector_fails_in_junit() {
    let r = certify_port(options(
        "ALTER_OP=state_run ALTER_PATH=after ALTER_HOW=flip:30",
        "graph",
    ));
    let (quote, div) = first(&r, "graph");
    assert!(
        div.starts_with("after: offset 30, field ") && div.contains(": expected byte 0x"),
        "{quote}: {div}"
    );
    let field = div["after: offset 30, field ".len()..]
        .split(':')
        .next()
        .unwrap();
    assert!(!field.is_empty() && !field.contains("Some"), "{div}");

    let state = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "state")
        .unwrap();
    assert!(state.failed > 50, "{}", r.to_table());
    let kept: Vec<&str> = r
        .report
        .sections
        .iter()
        .flat_map(|s| &s.failures)
        .filter_map(|f| f.vector.as_deref())
        .collect();
    assert!(
        r.failed_vectors
            .keys()
            .any(|id| !kept.contains(&id.as_str())),
        "no failed vector lies past the kept failures: the check would prove nothing"
    );
    let cases = junit_vectors(&r.to_junit());
    for id in r.failed_vectors.keys() {
        let c = cases.iter().find(|c| &c.0 == id).unwrap();
        assert!(c.1, "{id} failed but passes in JUnit");
    }
    for c in cases.iter().filter(|c| c.1) {
        assert!(
            r.failed_vectors.contains_key(&c.0),
            "{} fails in JUnit only",
            c.0
        );
    }
}

// pins [DRIVER.CLI.SINCE]: an index that is neither a file nor a revision exits 2 before any driver starts
#[test]
fn an_unreadable_since_exits_2_before_the_driver_starts() {
    let dir = std::env::temp_dir().join(format!("onepath-port-since-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let marker = dir.join("started");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(["certify", "--port"])
        .arg(format!("touch {}", marker.display()))
        .args(["--since", "no-such-index-or-revision"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("--since: "), "{err}");
    assert!(!marker.exists(), "the driver started");
    std::fs::remove_dir_all(&dir).ok();
}

// pins [DRIVER.LEVEL.FIRST]: an earlier query's difference is named before the lowest level broken
#[test]
fn an_earlier_query_of_the_same_request_is_the_first_divergence() {
    // Query 0's iterations (L3) and query 1's status (L1) of every run_case reply: the headline
    // is the status, the first divergence in reply order query 0's iterations.
    let mut o = options(
        "ALTER_OP=run_case ALTER_PATH='outcomes/0/0;outcomes/0/1' ALTER_HOW='flip:11:1;flip:2:1'",
        "graph",
    );
    o.vectors_dir = None;
    let r = certify_port(o);
    let (quote, div) = first(&r, "graph");
    assert!(
        quote.contains(" / query 1 ") && quote.contains(": status: "),
        "{quote}"
    );
    assert!(
        div.contains(" / query 0 ") && div.contains(": iterations: expected "),
        "{quote}: {div}"
    );
}
