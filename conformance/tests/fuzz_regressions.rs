//! Replays every committed fuzz regression (`fuzz/regressions/<target>/<id>`) and every committed
//! seed (`fuzz/corpus-seeds/<target>/<name>`) through the same helper the fuzz target runs
//! (`onepath_conformance::fuzzing::TARGETS`), checks that the committed state seeds are exactly
//! what the crates save today, and (test `fuzz_ci`) runs the bounded CI fuzz step `fuzz/ci.sh`
//! when `cargo +nightly fuzz` is available.
//!
//! `ONEPATH_WRITE_SEEDS=1 cargo test --release -p onepath-conformance --test fuzz_regressions seeds`
//! rewrites `fuzz/corpus-seeds/` (that is what `fuzz/seeds.sh` runs).

use onepath_conformance::fuzzing::{seed_corpus, seeds_agree, TARGETS};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect(),
        Err(_) => Vec::new(),
    };
    out.retain(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.') || n == "README.md"));
    out.sort();
    out
}

/// Runs `f` on every file of `fuzz/<sub>/<target>/` and returns the failures.
fn replay(sub: &str) -> (usize, Vec<String>) {
    let mut count = 0;
    let mut failures = Vec::new();
    for (name, f) in TARGETS {
        for path in files(&fuzz_dir().join(sub).join(name)) {
            count += 1;
            let bytes = std::fs::read(&path).expect("read regression file");
            let shown = path.strip_prefix(fuzz_dir()).unwrap_or(&path).display().to_string();
            match catch_unwind(AssertUnwindSafe(|| f(&bytes))) {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failures.push(format!("fuzz/{shown}: {e}")),
                Err(p) => {
                    let msg = p
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "panic".into());
                    failures.push(format!("fuzz/{shown}: panicked: {msg}"));
                }
            }
        }
    }
    (count, failures)
}

#[test]
fn regressions_replay() {
    let (count, failures) = replay("regressions");
    println!("replayed {count} regression files");
    assert!(failures.is_empty(), "{} of {count} regressions fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn seeds_replay() {
    let (count, failures) = replay("corpus-seeds");
    println!("replayed {count} seed files");
    assert!(count > 0, "no seed files under fuzz/corpus-seeds");
    assert!(failures.is_empty(), "{} of {count} seeds fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn seeds_are_current() {
    seeds_agree().expect("both crates save the same seed states");
    let write = std::env::var("ONEPATH_WRITE_SEEDS").is_ok_and(|v| v == "1");
    let root = fuzz_dir().join("corpus-seeds");
    let mut stale = Vec::new();
    for (target, name, bytes) in seed_corpus() {
        let path = root.join(target).join(&name);
        if write {
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, &bytes).expect("write seed");
        } else if std::fs::read(&path).ok().as_deref() != Some(&bytes[..]) {
            stale.push(format!("fuzz/corpus-seeds/{target}/{name}"));
        }
    }
    assert!(stale.is_empty(), "stale or missing seeds (run fuzz/seeds.sh):\n{}", stale.join("\n"));
}

/// The bounded CI fuzz step. Needs a nightly toolchain and cargo-fuzz; without them it prints a
/// notice and passes, unless `ONEPATH_REQUIRE_FUZZ=1`, when it fails. `ONEPATH_SKIP_FUZZ=1`
/// skips it explicitly (printed too).
#[test]
fn fuzz_ci() {
    if std::env::var("ONEPATH_SKIP_FUZZ").is_ok_and(|v| v == "1") {
        println!("NOTICE: fuzz/ci.sh skipped (ONEPATH_SKIP_FUZZ=1)");
        return;
    }
    let require = std::env::var("ONEPATH_REQUIRE_FUZZ").is_ok_and(|v| v == "1");
    let available = Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !available {
        let notice = "NOTICE: fuzz/ci.sh NOT RUN: `cargo +nightly fuzz` is not available \
                      (install: see fuzz/README.md, 'On a fresh machine')";
        println!("{notice}");
        eprintln!("{notice}");
        assert!(!require, "ONEPATH_REQUIRE_FUZZ=1 but cargo-fuzz or the nightly toolchain is missing");
        return;
    }
    let status = Command::new("bash").arg(fuzz_dir().join("ci.sh")).status().expect("run fuzz/ci.sh");
    assert!(status.success(), "fuzz/ci.sh failed ({status}); see its output above");
}
