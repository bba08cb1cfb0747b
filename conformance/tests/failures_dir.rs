//! `certify --port --failures-dir DIR` ([DRIVER.CLI.FAILURES_DIR]): every label with a failure in
//! a claimed family gets a file of the request lines it was sent, the handshake first, and the
//! file replays the failure: the faulty driver answers it differently from the correct one. A
//! passing port leaves an index without files; a folder the flag did not write is refused
//! before the run. The wrong port is the Python port with its `hex_tie` defect
//! ([DRIVER.PY.DEFECTS]).

mod tools;

use onepath_conformance::config::FamilySet;
use onepath_conformance::port::run::{certify_port, PortOptions, PortRun};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const DRIVER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python/driver.py");
const BIN: &str = env!("CARGO_BIN_EXE_onepath-conformance");
const CLAIMS: &str = "ONEPATH_PY_CLAIMS=hex-search=4";

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "onepath-failures-dir-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

fn run(env: &str, dir: &Path) -> PortRun {
    tools::require_python3();
    let mut o = PortOptions::new(&format!("{env} python3 {DRIVER}"));
    o.cases = 25;
    o.timeout = std::time::Duration::from_secs(60);
    o.families = FamilySet::parse("hex-search").expect("families");
    o.failures_dir = Some(dir.to_path_buf());
    certify_port(o)
}

/// The reply lines of the driver (run with `env`) to the request file `file`.
fn replay(env: &str, file: &Path) -> Vec<String> {
    let input = std::fs::read(file).expect("request file");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("{env} python3 {DRIVER}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("driver");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&input)
        .expect("write");
    let out = child.wait_with_output().expect("driver output");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn index(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("index.json")).expect("index.json"))
        .expect("index.json is JSON")
}

// pins [DRIVER.CLI.FAILURES_DIR]: a spool that loses a label or a line, mixes two labels' lines, alters a line, drops the handshake or writes requests that do not reproduce the failure fails here
#[test]
fn every_failing_label_gets_a_request_file_that_replays_its_failure() {
    let base = scratch("wrong");
    let dir = base.join("failures");
    let faulty = format!("{CLAIMS} ONEPATH_PY_DEFECT=hex_tie");
    // The driver's stdin is logged by `tee`: the oracle of what each label was sent. One worker
    // thread, so the log's lines never interleave.
    let log = base.join("stdin.log");
    tools::require_python3();
    let r = {
        let mut o = PortOptions::new(&format!(
            "tee -a {} | {faulty} python3 {DRIVER}",
            log.display()
        ));
        o.cases = 25;
        o.threads = 1;
        o.timeout = std::time::Duration::from_secs(60);
        o.families = FamilySet::parse("hex-search").expect("families");
        o.failures_dir = Some(dir.clone());
        certify_port(o)
    };
    let sent = std::fs::read_to_string(&log).expect("the driver's stdin log");
    assert!(!r.ok(), "the hex_tie port fails: {}", r.to_table());
    let files = r
        .failure_files
        .as_ref()
        .expect("--failures-dir was given")
        .as_ref()
        .expect("the folder was written");
    assert_eq!(files.left_out, 0);
    let idx = index(&dir);
    assert_eq!(idx["schema"], "onepath.failure-requests");
    assert_eq!(idx["version"], 1);
    let listed = idx["files"].as_array().expect("files");
    assert_eq!(listed.len(), files.written);
    // Every kept failure of the claimed family's vector and describe sections has its file.
    let labels: BTreeSet<&str> = listed
        .iter()
        .map(|f| f["label"].as_str().expect("label"))
        .collect();
    for s in r
        .report
        .sections
        .iter()
        .filter(|s| s.name == "vectors" || s.name == "describe")
    {
        for f in s.failures.iter().filter(|f| f.implementation != "-") {
            let label = f.vector.as_deref().or(f.case.as_deref()).expect("a label");
            let id = label.split('#').next().unwrap_or(label);
            assert!(
                labels.iter().any(|l| l.split('#').next() == Some(id)),
                "{label} ({}) has no request file: {labels:?}",
                s.name
            );
        }
    }
    assert!(!labels.is_empty());
    let hello = serde_json::to_string(&onepath_conformance::port::protocol::hello()).unwrap();
    for (i, f) in listed.iter().enumerate() {
        let label = f["label"].as_str().unwrap();
        let path = dir.join(f["file"].as_str().unwrap());
        let text = std::fs::read_to_string(&path).expect("listed file exists");
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some(hello.as_str()),
            "{label}: handshake first"
        );
        let requests: Vec<serde_json::Value> = lines
            .map(|l| serde_json::from_str(l).expect("a request line"))
            .collect();
        assert_eq!(requests.len() as u64, f["requests"].as_u64().unwrap());
        // Exactly the lines the driver was sent under this label, in order.
        let own: Vec<&str> = sent
            .lines()
            .filter(|l| {
                serde_json::from_str::<serde_json::Value>(l)
                    .map(|v| v["case"] == label)
                    .unwrap_or(false)
            })
            .collect();
        assert_eq!(
            text.lines().skip(1).collect::<Vec<_>>(),
            own,
            "{label}: the file holds every request line it was sent, as sent"
        );
        // The file reproduces the failure: the faulty driver answers differently (every fourth
        // file: each replay starts two Python drivers).
        if i % 4 != 0 {
            continue;
        }
        let wrong = replay(&faulty, &path);
        let right = replay(CLAIMS, &path);
        assert_eq!(wrong.len(), requests.len() + 1, "{label}: one reply each");
        assert_eq!(right.len(), requests.len() + 1, "{label}: one reply each");
        assert_ne!(
            wrong[1..],
            right[1..],
            "{label}: the replay shows the difference"
        );
    }
    // No spool is left beside the folder.
    let mut left: Vec<String> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["failures", "stdin.log"]);
    std::fs::remove_dir_all(&base).unwrap();
}

// pins [DRIVER.CLI.FAILURES_DIR]: a passing port's folder holds only an index with no files, and it replaces the files of an earlier run
#[test]
fn a_passing_port_leaves_an_index_without_files() {
    let base = scratch("right");
    let dir = base.join("failures");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("index.json"),
        r#"{"schema":"onepath.failure-requests","version":1,"command":"x","files":[],"left_out":0}"#,
    )
    .unwrap();
    std::fs::write(dir.join("old.jsonl"), "stale\n").unwrap();
    let r = run(CLAIMS, &dir);
    assert!(r.ok(), "{}", r.to_table());
    let files = r.failure_files.as_ref().unwrap().as_ref().unwrap();
    assert_eq!((files.written, files.left_out), (0, 0));
    assert_eq!(index(&dir)["files"], serde_json::json!([]));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["index.json"], "the earlier run's files are gone");
    std::fs::remove_dir_all(&base).unwrap();
}

// pins [DRIVER.CLI.FAILURES_DIR] [DRIVER.CLI.CHECKS]: a folder the flag did not write, a file, or a missing parent is refused with exit 2 before any driver starts, and nothing is changed
#[test]
fn a_folder_the_flag_did_not_write_is_refused_before_the_run() {
    let base = scratch("refused");
    std::fs::write(base.join("keep.txt"), "mine").unwrap();
    let marker = base.join("started");
    // The driver would create `started`: it must never run.
    let port = format!("touch {} && python3 {DRIVER}", marker.display());
    for (target, why) in [
        (base.clone(), "did not write"),
        (base.join("keep.txt"), "is not a folder"),
        (base.join("missing/sub"), "does not exist"),
    ] {
        let out = Command::new(BIN)
            .args(["certify", "--port", &port, "--failures-dir"])
            .arg(&target)
            .output()
            .expect("kit");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {err}", target.display());
        assert!(
            err.starts_with("--failures-dir: ") && err.contains(why),
            "{}: {err}",
            target.display()
        );
    }
    assert!(!marker.exists(), "no driver started");
    assert_eq!(
        std::fs::read_to_string(base.join("keep.txt")).unwrap(),
        "mine"
    );
    std::fs::remove_dir_all(&base).unwrap();
}
