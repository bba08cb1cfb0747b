//! [CONF.INPUT.FILES], [CONF.INPUT.LIMITS], [CONF.MANIFEST.PATHS]: inputs that are not regular
//! files (`/dev/zero`, a FIFO, a folder) or are past their size limit exit 2 naming the path,
//! quickly, never an unbounded read or a hang; a file of exactly the limit is read; a vectors
//! folder with symlink loops, links out of the folder and manifest paths that leave it is
//! checked to the end, naming each.

mod cli;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with `args`, killed after 60 s; (exit code, stderr, seconds taken).
fn run_bounded(args: &[&str]) -> (i32, String, f64) {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        started.elapsed().as_secs_f64(),
    )
}

fn mkfifo(path: &Path) {
    let ok = Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo");
}

// pins [CONF.INPUT.FILES]: /dev/zero, a FIFO or a folder given as report, --expect, session, DIMACS
// or MovingAI input must exit 2 naming the path as not a regular file within 30 s, never read or
// hang
#[test]
fn devices_fifos_and_folders_are_refused_naming_the_path() {
    let dir = cli::scratch("input", "devices");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap().to_string();
    let folder = dir.to_str().unwrap().to_string();
    for path in ["/dev/zero", fifo.as_str(), folder.as_str()] {
        let cases: Vec<Vec<&str>> = vec![
            vec!["report", "merge", path],
            vec!["certify", "--port", "true", "--expect", path],
            vec!["synctest", "--session", path],
            vec!["road", "--gr", path],
            vec!["movingai", "--map", path, "--scen", path],
        ];
        for args in cases {
            let (code, stderr, secs) = run_bounded(&args);
            assert_eq!(code, 2, "{args:?}: {stderr}");
            assert!(
                stderr.contains(path) && stderr.contains("not a regular file"),
                "{args:?}: {stderr}"
            );
            assert!(secs < 30.0, "{args:?} took {secs} s");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_report_of_exactly_the_limit_is_read_and_one_byte_more_is_not() {
    let dir = cli::scratch("input", "limit");
    let limit = onepath_conformance::input::MAX_REPORT;
    let at = dir.join("at.json");
    let past = dir.join("past.json");
    // Sparse files: their zero bytes cost no disk.
    std::fs::File::create(&at).unwrap().set_len(limit).unwrap();
    std::fs::File::create(&past)
        .unwrap()
        .set_len(limit + 1)
        .unwrap();
    let (code, stderr, _) = run_bounded(&["report", "merge", past.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains(&format!("{limit}-byte limit")), "{stderr}");
    let (code, stderr, _) = run_bounded(&["report", "merge", at.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        !stderr.contains("-byte limit"),
        "read up to the limit: {stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
// pins [CONF.MANIFEST.PATHS]: manifest paths ../../dev/zero, /dev/zero and grids/../MANIFEST.json
// must each be named as leaving the folder and not read (exit 1 in under 50 s, no hang on
// /dev/zero)
#[test]
fn a_vectors_folder_is_walked_without_following_links() {
    use std::os::unix::fs::symlink;
    let dir = cli::scratch("input", "links").join("vectors");
    let (code, _, _) = run_bounded(&["vectors", "--out", dir.to_str().unwrap()]);
    assert_eq!(code, 0);
    // Two directory loops, a link out of the folder, a FIFO, and manifest paths that leave it.
    symlink("..", dir.join("graphs/loop")).unwrap();
    symlink(&dir, dir.join("state/hostile/again")).unwrap();
    symlink("/dev/zero", dir.join("grids/GRID-9999.json")).unwrap();
    mkfifo(&dir.join("hpa/fifo.json"));
    let manifest = dir.join("MANIFEST.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let files = m["files"].as_array_mut().unwrap();
    for path in ["../../dev/zero", "/dev/zero", "grids/../MANIFEST.json"] {
        files.push(serde_json::json!({"path": path, "sha256": "00"}));
    }
    std::fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let (code, stderr, secs) = run_bounded(&["vectors", "--check", "--out", dir.to_str().unwrap()]);
    assert!(secs < 50.0, "took {secs} s");
    assert_eq!(code, 1, "{stderr}");
    let out = String::from_utf8_lossy(
        &Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
            .args(["vectors", "--check", "--out", dir.to_str().unwrap()])
            .output()
            .unwrap()
            .stdout,
    )
    .into_owned();
    for needle in [
        "graphs/loop",
        "state/hostile/again",
        "grids/GRID-9999.json",
        "hpa/fifo.json",
        "\"../../dev/zero\" leaves the folder",
        "\"/dev/zero\" leaves the folder",
        "\"grids/../MANIFEST.json\" leaves the folder",
    ] {
        assert!(out.contains(needle), "{needle} not named:\n{out}");
    }
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}
