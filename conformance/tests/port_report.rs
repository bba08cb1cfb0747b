//! The port run's table and JUnit explain themselves ([DRIVER.REPORT.UNCLAIMED],
//! [DRIVER.REPORT.JUNIT]): failures in families the port does not claim are named as not
//! counted, the family table aligns for every family name, JUnit skips unclaimed families, and a
//! crash is named as a crash in every section it touches, never as a hash mismatch.

mod tools;

use onepath_conformance::port::run::{certify_port, PortOptions, PortRun};
use onepath_conformance::report_junit::check_well_formed;

const DRIVER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python");

fn run(command: &str) -> PortRun {
    run_in(command, "")
}

/// A run of the named claim families ([CONF.CLI.FAMILY]); every family when `families` is empty.
fn run_in(command: &str, families: &str) -> PortRun {
    tools::require_python3();
    let mut o = PortOptions::new(command);
    o.cases = 3;
    // No test of this file is about timeouts; runs may share the machine.
    o.timeout = std::time::Duration::from_secs(60);
    if !families.is_empty() {
        o.families = onepath_conformance::config::FamilySet::parse(families).expect("families");
    }
    certify_port(o)
}

fn section<'a>(r: &'a PortRun, name: &str) -> &'a onepath_conformance::Section {
    r.report
        .sections
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no section {name}"))
}

// pins [DRIVER.REPORT.UNCLAIMED]: a table that shows unclaimed-only failures as a first-failure
// block or an unimplemented-ops line, or without the summed not-counted line and its --family hint,
// fails
#[test]
fn unclaimed_families_are_explained_aligned_and_skipped() {
    // The port claims only graph; its grid-search state restore lacks a check, which fails in
    // the unclaimed family only.
    let r = run(&format!(
        "ONEPATH_PY_CLAIMS=graph=4 ONEPATH_PY_DEFECT=grid_heap python3 {DRIVER_DIR}/driver.py"
    ));
    let table = r.to_table();
    assert!(r.ok(), "{table}");
    let state = section(&r, "state");
    assert!(
        state.failed > 0,
        "the grid_heap defect fails grid-search states: {table}"
    );
    // [DRIVER.REPORT.UNCLAIMED] Sections whose failures are all unclaimed make one line, with
    // no `first failure` block and no unimplemented-ops line of an unclaimed family.
    let summary = table
        .lines()
        .find(|l| l.starts_with("  unclaimed family grid-search ("))
        .unwrap_or_else(|| panic!("no summary line:\n{table}"));
    assert!(
        summary
            .ends_with("not counted ([DRIVER.VERDICT]); `certify --family graph` runs only those"),
        "{summary}"
    );
    assert!(!table.contains("first failure in state"), "{table}");
    assert!(!table.contains("grid-search: unimplemented ops"), "{table}");

    // Every row of the family table puts its columns where the header does.
    let lines: Vec<&str> = table.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.starts_with("family "))
        .expect("family header");
    let ends = |l: &str| -> Vec<usize> {
        let mut out = Vec::new();
        let b = l.as_bytes();
        for i in 1..=b.len() {
            if b[i - 1] != b' ' && (i == b.len() || b[i] == b' ') {
                out.push(i);
            }
        }
        out
    };
    let head = lines[header];
    let head_ends: Vec<usize> = [
        "claimed",
        "L1 costs",
        "L2 paths",
        "L3 traces",
        "L4 bytes",
        "reached",
    ]
    .iter()
    .map(|label| head.find(label).expect("header label") + label.len())
    .collect();
    for row in &lines[header + 1..header + 1 + r.families.len()] {
        // The six right-aligned cells after the family name end where the header's labels do.
        let e = ends(row);
        assert_eq!(
            e[e.len() - 6..],
            head_ends[..],
            "misaligned row {row:?}\n{table}"
        );
    }
    assert!(r.families.iter().any(|f| f.family == "grid-search"));

    let junit = r.to_junit();
    check_well_formed(&junit).unwrap();
    assert!(
        junit.contains("\">\n      <skipped message=\"family grid-search not claimed\"/>")
            && junit.contains("<testcase classname=\"onepath.vectors\" name=\"STATE-GRIDSEARCH-"),
        "{junit}"
    );
    let state_case = format!(
        "name=\"state ({} checks)\">\n      <skipped message=\"",
        state.checks
    );
    assert!(
        junit.contains(&state_case),
        "state is not skipped:\n{junit}"
    );
    assert!(
        junit.contains(
            "name=\"grid-search reaches L3\">\n      <skipped message=\"family grid-search not claimed\"/>"
        ),
        "{junit}"
    );
}

// pins [DRIVER.REPORT.NO_ANSWER]: a kit that reports an unanswered build_landmarks as a hash or
// value difference instead of 'port: crash: ...' with the port failure as found fails
#[test]
fn a_crash_is_named_in_every_section_it_touches() {
    // build_landmarks is a graph op: the graph family's sections are the ones it touches.
    let r = run_in(
        &format!(
            "CRASH_OP=build_landmarks python3 {}/tests/crash_on_op.py {DRIVER_DIR}",
            env!("CARGO_MANIFEST_DIR")
        ),
        "graph",
    );
    let table = r.to_table();
    assert!(!r.ok(), "{table}");
    let vectors = section(&r, "vectors");
    let graph_failures: Vec<_> = vectors
        .failures
        .iter()
        .filter(|f| f.vector.as_deref().is_some_and(|v| v.starts_with("GRAPH-")))
        .collect();
    assert!(!graph_failures.is_empty(), "{table}");
    for f in &graph_failures {
        assert!(
            f.what.starts_with("port: crash: ") && f.found.starts_with("port: crash ("),
            "a crash shown as a difference: {}",
            f.line()
        );
        assert!(f.found.contains("build_landmarks"), "{}", f.line());
    }
    for name in ["landmarks", "vectors"] {
        let s = section(&r, name);
        assert!(s.failed > 0, "{name}: {table}");
        assert!(
            s.failures.iter().any(|f| f.what.starts_with("port: crash")),
            "{name} does not name the crash:\n{table}"
        );
    }
}

// pins [DRIVER.VERDICT]: a verdict that counts unclaimed-family failures past the 50 kept, or
// ignores claimed-family ones there, fails
#[test]
fn failures_past_the_kept_ones_count_only_in_claimed_families() {
    // [DRIVER.VERDICT] A graph-only port whose grid engines break ties the wrong way: more
    // grid-search failures than a section keeps. The ones past the kept 50 are judged through
    // the ledger by family, so the port passes (it failed with "failures beyond the 50 kept").
    let r = run(&format!(
        "ONEPATH_PY_CLAIMS=graph=4 ONEPATH_PY_DEFECT=grid_gtie python3 {DRIVER_DIR}/driver.py"
    ));
    let table = r.to_table();
    assert!(
        r.report
            .sections
            .iter()
            .any(|s| s.failed > s.failures.len() as u64),
        "no section has failures past the kept ones: the test proves nothing\n{table}"
    );
    assert!(r.ok(), "{:?}\n{table}", r.problems);
    assert!(
        table.contains("  unclaimed family grid-search ("),
        "{table}"
    );

    // A hex-search-only port whose open set breaks ties the wrong way: the vectors section
    // keeps 50 graph failures, and its hex-search failures lie past them. They count.
    let r = run(&format!(
        "ONEPATH_PY_CLAIMS=hex-search=4 ONEPATH_PY_DEFECT=gtie python3 {DRIVER_DIR}/driver.py"
    ));
    let table = r.to_table();
    let vectors = section(&r, "vectors");
    assert!(vectors.failed > vectors.failures.len() as u64, "{table}");
    assert!(
        r.problems
            .iter()
            .any(|p| p.starts_with("section vectors: ") && p.contains("beyond the 50 kept")),
        "{:?}",
        r.problems
    );
    // That section is not summed into the uncounted line: it has a line of its own.
    assert!(
        table
            .lines()
            .any(|l| l.starts_with("  vectors ") && l.contains("of the 50 kept")),
        "{table}"
    );
}
