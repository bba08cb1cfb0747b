//! The bounded CI fuzz step (`fuzz/ci.sh`): a bounded run of every fuzz target. It needs a nightly
//! toolchain and cargo-fuzz. This test binary has its own small harness (`harness = false` in
//! Cargo.toml) so that a skip is visible in its summary, which the standard harness cannot show
//! for a test that decides to skip at run time:
//!
//! ```text
//! test fuzz_ci ... skipped: `cargo +nightly fuzz` is not available (install: ...)
//! test result: ok. 0 passed; 0 failed; 1 skipped; 0 measured; 0 filtered out
//! ```
//!
//! `ONEPATH_SKIP_FUZZ=1` skips it on purpose (also shown as skipped); `ONEPATH_REQUIRE_FUZZ=1`
//! makes a missing cargo-fuzz a failure. The usual harness arguments work: a name filter,
//! `--exact`, `--skip NAME`, `--list`; other flags are accepted and ignored.

use std::path::Path;
use std::process::{Command, ExitCode};

const NAME: &str = "fuzz_ci";
const INSTALL: &str = "rustup toolchain install nightly --profile minimal && \
                       cargo install cargo-fuzz --version ^0.13 --locked (fuzz/README.md)";

enum Outcome {
    Passed,
    Skipped(String),
    Failed(String),
}

/// Whether the harness arguments select this test.
fn selected(args: &[String]) -> bool {
    let exact = args.iter().any(|a| a == "--exact");
    let mut filters = Vec::new();
    let mut skips = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--skip" => skips.extend(it.next().cloned()),
            // Flags of the standard harness that take a separate value.
            "--test-threads" | "--format" | "--color" | "--logfile" | "-Z" | "--report-time" => {
                it.next();
            }
            f if f.starts_with('-') => {}
            f => filters.push(f.to_string()),
        }
    }
    let hit = |f: &String| {
        if exact {
            f == NAME
        } else {
            NAME.contains(f.as_str())
        }
    };
    (filters.is_empty() || filters.iter().any(hit))
        && !skips.iter().any(|s| NAME.contains(s.as_str()))
}

fn run() -> Outcome {
    if std::env::var("ONEPATH_SKIP_FUZZ").is_ok_and(|v| v == "1") {
        return Outcome::Skipped("ONEPATH_SKIP_FUZZ=1".into());
    }
    let available = Command::new("cargo")
        .args(["+nightly", "fuzz", "--version"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !available {
        let why = format!("`cargo +nightly fuzz` is not available (install: {INSTALL})");
        return if std::env::var("ONEPATH_REQUIRE_FUZZ").is_ok_and(|v| v == "1") {
            Outcome::Failed(format!("ONEPATH_REQUIRE_FUZZ=1 but {why}"))
        } else {
            Outcome::Skipped(why)
        };
    }
    // The outer `cargo test` exports CARGO, RUSTUP_TOOLCHAIN and friends; the nested nightly
    // build must not inherit them.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/ci.sh");
    let mut cmd = Command::new("bash");
    cmd.arg(&script);
    for (key, _) in std::env::vars_os() {
        let k = key.to_string_lossy();
        if (k.starts_with("CARGO") && k != "CARGO_HOME")
            || ["RUSTUP_TOOLCHAIN", "RUSTC", "RUSTDOC", "RUSTFLAGS"].contains(&k.as_ref())
        {
            cmd.env_remove(&key);
        }
    }
    let t0 = std::time::Instant::now();
    match cmd.status() {
        Ok(s) if s.success() => {
            println!("fuzz/ci.sh took {:.0?}", t0.elapsed());
            Outcome::Passed
        }
        Ok(s) => Outcome::Failed(format!("fuzz/ci.sh failed ({s}); see its output above")),
        Err(e) => Outcome::Failed(format!("cannot run {}: {e}", script.display())),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--list") {
        if selected(&args) {
            println!("{NAME}: test");
        }
        return ExitCode::SUCCESS;
    }
    if !selected(&args) {
        println!("\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out\n");
        return ExitCode::SUCCESS;
    }
    println!("\nrunning 1 test");
    let (line, summary, code) = match run() {
        Outcome::Passed => ("ok".to_string(), "ok. 1 passed; 0 failed; 0 skipped", 0),
        Outcome::Skipped(why) => (
            format!("skipped: {why}"),
            "ok. 0 passed; 0 failed; 1 skipped",
            0,
        ),
        Outcome::Failed(why) => {
            eprintln!("{NAME}: {why}");
            (
                format!("FAILED: {why}"),
                "FAILED. 0 passed; 1 failed; 0 skipped",
                101,
            )
        }
    };
    println!("test {NAME} ... {line}\n\ntest result: {summary}; 0 measured; 0 filtered out\n");
    ExitCode::from(code)
}
