//! Replays every committed fuzz regression (`fuzz/regressions/<target>/<id>`) and every committed
//! seed (`fuzz/corpus-seeds/<target>/<name>`) through the same helper the fuzz target runs
//! (`onepath_conformance::fuzzing::TARGETS`), and checks that the committed state seeds are
//! exactly what the crates save today. (The bounded CI fuzz step `fuzz/ci.sh` is `tests/fuzz_ci.rs`.)
//!
//! `ONEPATH_WRITE_SEEDS=1 cargo test --release -p onepath-conformance --test fuzz_regressions seeds`
//! rewrites `fuzz/corpus-seeds/` (that is what `fuzz/seeds.sh` runs).

use onepath_conformance::fuzzing::{seed_corpus, seeds_agree, TARGETS};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect(),
        Err(_) => Vec::new(),
    };
    out.retain(|p| {
        !p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.') || n == "README.md")
    });
    out.sort();
    out
}

/// `(target, regression id)` of the open bugs listed in `fuzz/known-open.txt`.
fn known_open() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(fuzz_dir().join("known-open.txt")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut parts = l.splitn(4, '|');
            Some((
                parts.next()?.trim().to_string(),
                parts.next()?.trim().to_string(),
            ))
        })
        .collect()
}

/// Which files of a directory to replay.
#[derive(Clone, Copy, PartialEq)]
enum Select {
    /// Every file.
    All,
    /// Every file not listed in `fuzz/known-open.txt`.
    Fixed,
    /// Only the listed files.
    KnownOpen,
}

/// Runs `f` on the selected files of `fuzz/<sub>/<target>/` and returns the failures.
fn replay(sub: &str, select: Select) -> (usize, Vec<String>) {
    // Every check on every file, whichever inputs the fuzz targets sample (issue 36).
    onepath_conformance::fuzzing::set_always_deep();
    let known = known_open();
    let mut count = 0;
    let mut failures = Vec::new();
    for (name, f) in TARGETS {
        for path in files(&fuzz_dir().join(sub).join(name)) {
            let id = path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let listed = known.iter().any(|(t, i)| t == name && *i == id);
            if (select == Select::Fixed && listed) || (select == Select::KnownOpen && !listed) {
                continue;
            }
            count += 1;
            let bytes = std::fs::read(&path).expect("read regression file");
            let shown = path
                .strip_prefix(fuzz_dir())
                .unwrap_or(&path)
                .display()
                .to_string();
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
    let (count, failures) = replay("regressions", Select::Fixed);
    println!("replayed {count} regression files (open bugs of fuzz/known-open.txt: test known_open_regressions)");
    assert!(
        failures.is_empty(),
        "{} of {count} regressions fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Open bugs the crates' owners have not fixed yet, listed in fuzz/known-open.txt (at the moment
/// the reference flow fields' check order of [FLOW.QUERY.CELL]). Run with `cargo test --release -p onepath-conformance --test fuzz_regressions -- --ignored`.
#[test]
#[ignore = "replays the open bugs listed in fuzz/known-open.txt"]
fn known_open_regressions() {
    let (count, failures) = replay("regressions", Select::KnownOpen);
    println!("replayed {count} open-bug regression files");
    assert!(
        failures.is_empty(),
        "{} of {count} open-bug regressions still fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn seeds_replay() {
    let (count, failures) = replay("corpus-seeds", Select::All);
    println!("replayed {count} seed files");
    assert!(count > 0, "no seed files under fuzz/corpus-seeds");
    assert!(
        failures.is_empty(),
        "{} of {count} seeds fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
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
    assert!(
        stale.is_empty(),
        "stale or missing seeds (run fuzz/seeds.sh):\n{}",
        stale.join("\n")
    );
}

/// Every target of `TARGETS` is a bin of fuzz/Cargo.toml (so `cargo fuzz list`, which `fuzz/ci.sh`
/// and `.clusterfuzzlite/build.sh` iterate, has it), has its one-line target file, an options
/// file, a row in fuzz/README.md's table and committed seeds; and fuzz/Cargo.toml has no other bin.
#[test]
fn targets_are_listed_everywhere() {
    let dir = fuzz_dir();
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("fuzz/README.md");
    let bins: Vec<String> = cargo
        .split("[[bin]]")
        .skip(1)
        .filter_map(|b| {
            let l = b.lines().find(|l| l.trim_start().starts_with("name"))?;
            Some(l.split('"').nth(1)?.to_string())
        })
        .collect();
    let mut missing = Vec::new();
    for (name, _) in TARGETS {
        if !bins.iter().any(|b| b == name) {
            missing.push(format!("{name}: no [[bin]] in fuzz/Cargo.toml"));
        }
        let src = std::fs::read_to_string(dir.join("fuzz_targets").join(format!("{name}.rs")))
            .unwrap_or_default();
        if !src.contains(&format!("fuzz(\"{name}\"")) {
            missing.push(format!(
                "{name}: fuzz/fuzz_targets/{name}.rs does not call fuzz(\"{name}\", ..)"
            ));
        }
        if !dir.join(format!("{name}.options")).is_file() {
            missing.push(format!("{name}: no fuzz/{name}.options"));
        }
        if !readme.contains(&format!("`{name}`")) {
            missing.push(format!("{name}: not in fuzz/README.md"));
        }
        if files(&dir.join("corpus-seeds").join(name)).is_empty() {
            missing.push(format!("{name}: no seeds under fuzz/corpus-seeds/{name}"));
        }
    }
    for b in &bins {
        if !TARGETS.iter().any(|(n, _)| n == b) {
            missing.push(format!(
                "{b}: a fuzz/Cargo.toml bin that is not in fuzzing::TARGETS"
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A committed `flow_script` regression must replay the script that failed: the number of steps
/// each one decodes to is recorded here, so a lower cap ([`MAX_STEPS`]) or a decoder change that
/// cuts one short fails this test instead of silently replaying less. `repair-plateau-1a4f29dc`
/// repairs in its 8th step (after a 1e-20 multiplier in its 6th and a save): a cap of 6 was
/// tried for speed in issue 36 and would have lost it.
#[test]
fn flow_script_regressions_decode_their_whole_script() {
    use onepath_conformance::fuzzing::flow::{decode_flow_script, MAX_STEPS};
    let recorded = [
        ("repair-plateau-1a4f29dc", 8),
        ("unusable-before-cell-range-b6c8b963", 8),
    ];
    let dir = fuzz_dir().join("regressions").join("flow_script");
    let names: Vec<String> = files(&dir)
        .iter()
        .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names.len(),
        recorded.len(),
        "flow_script regressions {names:?}: record each one's step count here"
    );
    for (name, steps) in recorded {
        let data = std::fs::read(dir.join(name)).expect("read regression");
        let r = decode_flow_script(&data).expect("the regression decodes");
        assert_eq!(
            r.script.len(),
            steps,
            "{name}: decodes to {} steps, recorded {steps} (cap {MAX_STEPS})",
            r.script.len()
        );
    }
}
