//! `certify --port --fail-fast` ([DRIVER.CLI.FAIL_FAST]): a run stops at the first failure that
//! already fails the verdict (a claimed family pushed below its claim) and gives the verdict the
//! whole run gives; a failure above the claim or of an unclaimed family never stops it; with
//! `--expect` the flag is refused. The Python port's defect switches ([DRIVER.PY.DEFECTS]) and
//! claims (`ONEPATH_PY_CLAIMS`) make the wrong ports: `oplm_len` breaks only L4 (landmarks),
//! `hex_tie` breaks hex-search paths.

mod tools;

use onepath_conformance::config::FamilySet;
use onepath_conformance::port::run::{certify_port, PortOptions, PortRun};
use std::process::Command;

const DRIVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python/driver.py");

fn run(env: &str, families: &str, fail_fast: bool) -> PortRun {
    tools::require_python3();
    let mut o = PortOptions::new(&format!("{env} python3 {DRIVER}"));
    o.cases = 5;
    o.timeout = std::time::Duration::from_secs(60);
    o.families = FamilySet::parse(families).expect("families");
    o.fail_fast = fail_fast;
    certify_port(o)
}

fn stopped(r: &PortRun) -> bool {
    r.problems
        .iter()
        .any(|p| p.starts_with("stopped at the first failure (--fail-fast)"))
}

fn not_run_failures(r: &PortRun) -> u64 {
    r.report
        .sections
        .iter()
        .filter(|s| s.name == "not run")
        .map(|s| s.failed)
        .sum()
}

// pins [DRIVER.CLI.FAIL_FAST]: a run that does not stop at a failure below the claim, names another failure, or lets the unsent requests cap the levels fails here
#[test]
fn a_wrong_port_stops_at_its_first_failure_below_the_claim() {
    let r = run(
        "ONEPATH_PY_CLAIMS=graph=4 ONEPATH_PY_DEFECT=oplm_len",
        "graph",
        true,
    );
    assert!(!r.ok(), "{}", r.to_table());
    assert!(
        r.problems[0]
            .starts_with("stopped at the first failure (--fail-fast): landmarks / sparse#")
            && r.problems[0]
                .contains("/ deserialize_oplm: OPLM deserialize: expected length_mismatch"),
        "the first problem names the failure that stopped the run: {:?}",
        r.problems
    );
    // The level is that of what ran: the unsent requests cap nothing (L3, as the whole run).
    assert!(
        r.problems
            .iter()
            .any(|p| p == "graph: claimed L4, reached L3"),
        "{:?}",
        r.problems
    );
    assert!(not_run_failures(&r) > 0, "later requests were not sent");
    let not_run = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "not run")
        .expect("not run");
    assert!(
        not_run.failures.iter().all(|f| f
            .found
            .contains("stopped at the first failure (--fail-fast)")),
        "every unsent request and unstarted case says why: {:?}",
        not_run.failures.first()
    );
}

// pins [DRIVER.CLI.FAIL_FAST]: a run stopped by a failure the whole run would excuse (above the claim, unclaimed family) changes the verdict and fails here
#[test]
fn a_failure_above_the_claim_or_of_an_unclaimed_family_never_stops_the_run() {
    // oplm_len breaks L4 only: an L3 claim passes, with or without --fail-fast.
    let r = run(
        "ONEPATH_PY_CLAIMS=graph=3 ONEPATH_PY_DEFECT=oplm_len",
        "graph",
        true,
    );
    assert!(r.ok(), "{:?}\n{}", r.problems, r.to_table());
    assert_eq!(not_run_failures(&r), 0);
    // hex_tie breaks hex-search, which this port does not claim: its differences never stop
    // the run (the verdict fails only because hex-search is selected and unclaimed).
    let r = run(
        "ONEPATH_PY_CLAIMS=hpa=4 ONEPATH_PY_DEFECT=hex_tie",
        "hpa,hex-search",
        true,
    );
    assert!(!stopped(&r), "{:?}", r.problems);
    assert_eq!(
        r.problems,
        vec!["--family hex-search: the port does not claim it".to_string()]
    );
    assert_eq!(not_run_failures(&r), 0);
}

#[test]
fn fail_fast_with_expect_is_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args([
            "certify",
            "--port",
            "true",
            "--fail-fast",
            "--expect",
            "x.json",
        ])
        .output()
        .expect("the kit runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'--fail-fast' cannot be used with '--expect"),
        "{err}"
    );
}
