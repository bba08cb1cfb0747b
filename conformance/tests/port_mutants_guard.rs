//! The regression guard of the port-mutation judge ([CONF.PMUT.GUARD]): a fixed, seeded sample of
//! mechanical mutants of the Python port is certified by this build of the kit, and the suite
//! fails when one of them survives without an entry in the survivor ledger
//! (`conformance/ports/mutants/ledger.json`, [CONF.PMUT.LEDGER]). A change that weakens a check or
//! drops a vector lets a sampled mutant through and turns this test red; a change of the port
//! changes the sites, and so the sample, and a new survivor must be killed or explained.
//!
//! The second test shows that the guard can fail: a known survivor (HPA* cancel polling every 255
//! iterations: the kit's cancel queries, [CONF.HPA.CANCEL], set the flag before the run, so only
//! the read at 0 iterations done is reached) is reported `survived` and the run exits 1 when the
//! ledger does not name it, and `survived_explained` with exit 0 when the committed ledger does.
mod tools;

use std::path::{Path, PathBuf};
use std::process::Command;

/// The guard's sample ([CONF.PMUT.GUARD]): seed and size.
const SEED: &str = "11";
const SAMPLE: &str = "10";

/// A survivor the committed ledger explains (`equivalent`): `hpa_search.py:251` `done % 256` to
/// `done % 255` (a flag set before the run is read at 0 iterations done, where both are 0).
const KNOWN_SURVIVOR: &str = "1c3c23e912f3";

fn judge_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/mutants/port_mutants.py")
}

fn ledger() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/mutants/ledger.json")
}

/// Runs `port_mutants.py run ARGS --json OUT` with this build's kit; returns the exit code, the
/// output and the report.
fn run_judge(args: &[&str], ledger: &Path) -> (i32, String, serde_json::Value) {
    tools::require_python3();
    let out = scratch(&format!("report-{}.json", args.join("-")));
    let result = Command::new("python3")
        .arg("-B")
        .arg(judge_script())
        .arg("run")
        .args(args)
        .args([
            "--port-cases",
            "5",
            // No baseline ([CONF.PMUT.BASELINE]): tests/port.rs certifies the unmutated port at
            // L4 with every family; the limit is the one a 67 s baseline gave (3 x 67 s).
            "--no-baseline",
            "--mutant-timeout",
            "200",
            "--kit",
            env!("CARGO_BIN_EXE_onepath-conformance"),
        ])
        .arg("--ledger")
        .arg(ledger)
        .arg("--json")
        .arg(&out)
        .output()
        .expect("python3 runs the judge");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    let code = result.status.code().unwrap_or(-1);
    let report = std::fs::read(&out)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(serde_json::Value::Null);
    (code, text, report)
}

/// A fresh path in this process's scratch folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onepath-guard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

fn outcomes(report: &serde_json::Value) -> Vec<(String, String)> {
    report["mutants"]
        .as_array()
        .map(|ms| {
            ms.iter()
                .map(|m| {
                    (
                        m["describe"].as_str().unwrap_or("?").to_string(),
                        m["outcome"].as_str().unwrap_or("?").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

// pins [CONF.PMUT.GUARD]: a weakened check or dropped vector that lets a sampled port mutant
// survive unexplained makes the judge exit 1, and a judge that skips mutants fails the
// 10-reported/5-caught counts
#[test]
fn sampled_port_mutants_are_caught_or_explained() {
    let (code, text, report) = run_judge(
        &["--seed", SEED, "--sample", SAMPLE, "--jobs", "2"],
        &ledger(),
    );
    let seen = outcomes(&report);
    assert_eq!(
        code, 0,
        "a sampled port mutant survived unexplained (kill it with a vector or check, or explain it in the ledger):\n{text}"
    );
    assert_eq!(seen.len(), 10, "the sample has 10 mutants:\n{text}");
    let caught = seen
        .iter()
        .filter(|(_, o)| o == "caught" || o == "timeout")
        .count();
    assert!(
        caught >= 5,
        "most of the sample must be run and caught, not skipped: {seen:?}\n{text}"
    );
}

#[test]
fn an_unexplained_survivor_fails_the_guard() {
    let empty = scratch("empty-ledger.json");
    std::fs::write(
        &empty,
        r#"{"schema": "onepath.mutants-ledger", "version": 1, "entries": []}"#,
    )
    .expect("write the empty ledger");
    let (code, text, report) = run_judge(&["--ids", KNOWN_SURVIVOR], &empty);
    assert_eq!(code, 1, "{text}");
    assert_eq!(outcomes(&report)[0].1, "survived", "{text}");
    let (code, text, report) = run_judge(&["--ids", KNOWN_SURVIVOR], &ledger());
    assert_eq!(code, 0, "{text}");
    assert_eq!(outcomes(&report)[0].1, "survived_explained", "{text}");
}
