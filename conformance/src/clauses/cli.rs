//! The `clauses` command ([CONF.CLI.CLAUSES]): the report of the current checkout as text or
//! JSON, and `clauses import-mutants`, which turns cargo-mutants output into a committed summary.

use super::{import, report, tree};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The onepath-rs checkout that contains the current directory (a folder with `Cargo.toml`,
/// `spec/conformance.md` and `vectors/MANIFEST.json`).
pub fn checkout_root() -> Option<PathBuf> {
    let cwd = std::env::current_dir().ok()?;
    cwd.ancestors()
        .find(|d| {
            d.join("Cargo.toml").is_file()
                && d.join("spec/conformance.md").is_file()
                && d.join("vectors/MANIFEST.json").is_file()
        })
        .map(Path::to_path_buf)
}

fn root_or_exit(root: Option<PathBuf>) -> Result<PathBuf, ExitCode> {
    root.or_else(checkout_root).ok_or_else(|| {
        eprintln!(
            "clauses: the current directory is not inside an onepath-rs checkout; pass --root DIR"
        );
        ExitCode::from(2)
    })
}

/// `clauses [--json] [--root DIR]`: exit 0 when [CONF.CLAUSES.CHECK] finds nothing, 1 when it
/// finds a problem, 2 when the checkout cannot be read.
pub fn clauses_command(root: Option<PathBuf>, json: bool) -> ExitCode {
    let root = match root_or_exit(root) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let report = match report(&root) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("clauses: {e}");
            return ExitCode::from(2);
        }
    };
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_text());
    }
    if report.problems().is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// `clauses import-mutants DIR... [--checks DIR]... --selection TEXT --out FILE`: exit 0 written, 2 on bad input.
pub fn import_mutants_command(
    root: Option<PathBuf>,
    dirs: &[PathBuf],
    checks: &[PathBuf],
    selection: &str,
    out: &Path,
) -> ExitCode {
    let root = match root_or_exit(root) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let dirs: Vec<&Path> = dirs.iter().map(PathBuf::as_path).collect();
    let checks: Vec<&Path> = checks.iter().map(PathBuf::as_path).collect();
    let summary = match import(&root, &dirs, &checks, selection) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("clauses import-mutants: {e}");
            return ExitCode::from(2);
        }
    };
    let mut text = serde_json::to_string_pretty(&summary).expect("a summary serialises");
    text.push('\n');
    if let Err(e) = crate::atomic::write(out, text) {
        eprintln!("clauses import-mutants: {}: {e}", out.display());
        return ExitCode::from(2);
    }
    let counts = summary.counts();
    println!(
        "wrote {} mutants of {} to {} ({})",
        summary.mutants.len(),
        summary.package,
        tree::relative(&root, out),
        counts
            .iter()
            .map(|(k, v)| format!("{v} {k:?}").to_lowercase())
            .collect::<Vec<_>>()
            .join(", ")
    );
    ExitCode::SUCCESS
}

/// [CONF.CLAUSES.DIFF] An index named on the command line: an existing file is an index file,
/// anything else a git revision of the checkout.
fn index_of(root: &Path, what: &str) -> Result<super::index::ClauseIndex, super::ClauseError> {
    let path = Path::new(what);
    if path.is_file() {
        super::index::ClauseIndex::read(path)
    } else {
        super::index::ClauseIndex::of_git(root, what)
    }
}

/// `clauses diff FROM [TO] [--json]`: exit 0 with the diff, 2 on bad input (an unreadable index
/// file or revision).
pub fn diff_command(root: Option<PathBuf>, from: &str, to: Option<&str>, json: bool) -> ExitCode {
    let root = match root_or_exit(root) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let old = match index_of(&root, from) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("clauses diff: {e}");
            return ExitCode::from(2);
        }
    };
    let (new, label) = match to {
        Some(t) => (index_of(&root, t), t.to_string()),
        None => (
            super::index::ClauseIndex::of_checkout(&root),
            "working tree".to_string(),
        ),
    };
    let new = match new {
        Ok(i) => i,
        Err(e) => {
            eprintln!("clauses diff: {e}");
            return ExitCode::from(2);
        }
    };
    let d = super::diff::diff(&old, from, &new, &label);
    emit(&if json { d.to_json() } else { d.to_text() });
    ExitCode::SUCCESS
}

/// `clauses index [--out FILE]`: the working tree's clause index, printed or written atomically;
/// exit 0, or 2 when the checkout cannot be read or the file cannot be written.
pub fn index_command(root: Option<PathBuf>, out: Option<&Path>) -> ExitCode {
    let root = match root_or_exit(root) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let index = match super::index::ClauseIndex::of_checkout(&root) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("clauses index: {e}");
            return ExitCode::from(2);
        }
    };
    match out {
        None => emit(&index.to_text()),
        Some(path) => {
            if let Err(e) = crate::atomic::write(path, index.to_text()) {
                eprintln!("clauses index: {}: {e}", path.display());
                return ExitCode::from(2);
            }
            println!(
                "wrote {} clauses to {}",
                index.clauses.len(),
                path.display()
            );
        }
    }
    ExitCode::SUCCESS
}

/// Writes `text` to standard output; a closed pipe (`| head`) ends the output quietly.
fn emit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}
