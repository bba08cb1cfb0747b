//! `certify --port ... --since INDEX` ([DRIVER.CLI.SINCE]): the clauses added, changed and retired
//! since the clause index a port was last certified against, limited to the selected families'
//! spec files, for the text and JSON reports of the run.

use crate::clauses::diff::{diff, DiffEntry};
use crate::clauses::index::{ClauseIndex, INDEX_PATH};
use crate::config::FamilySet;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The spec file each claim family owns alone ([DRIVER.CLI.SINCE]); every other spec file
/// (`driver.md`, `state.md`, `grids.md`, `conformance.md`...) concerns every port.
pub const FAMILY_FILES: [(&str, &str); 8] = [
    ("graph", "spec/graphs.md"),
    ("grid-search", "spec/grid-search.md"),
    ("replanning", "spec/replanning.md"),
    ("flow-field", "spec/flow-fields.md"),
    ("hex-search", "spec/hex-search.md"),
    ("voxel-search", "spec/voxel-search.md"),
    ("hpa", "spec/hpa.md"),
    ("grid-bidi", "spec/grid-bidi.md"),
];

/// The clause diff of a port run ([DRIVER.CLI.SINCE], member `port.clauses_since`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SinceDiff {
    /// What the older index was read from (the `--since` argument).
    pub from: String,
    /// The newer index: the run's `vectors/CLAUSES.json`.
    pub to: String,
    /// The `--family` selection the diff is limited to, or `null` for every family.
    pub families: Option<Vec<String>>,
    /// Clauses of the newer index only.
    pub added: Vec<DiffEntry>,
    /// Clauses whose text hash differs.
    pub changed: Vec<DiffEntry>,
    /// Clauses of the older index only.
    pub retired: Vec<DiffEntry>,
    /// Clauses in both with the same text (after the family limit).
    pub unchanged: usize,
}

/// Whether a clause defined in `file` concerns a run of `families`: a file no family owns
/// concerns every run; a family's own file only a run that selects it.
pub fn concerns(file: &str, families: FamilySet) -> bool {
    let names = families.names();
    FAMILY_FILES
        .iter()
        .filter(|(_, f)| *f == file)
        .all(|(fam, _)| names.iter().any(|n| n == fam))
}

/// Reads the older index named by `--since`: an existing file is an index file, anything else a
/// git revision of the checkout at `root` (none: not inside a checkout).
pub fn read_since(root: Option<&Path>, what: &str) -> Result<ClauseIndex, String> {
    let path = Path::new(what);
    if path.is_file() {
        return ClauseIndex::read(path).map_err(|e| e.to_string());
    }
    match root {
        Some(r) => ClauseIndex::of_git(r, what).map_err(|e| e.to_string()),
        None => Err(format!(
            "{what:?} is not a file, and the current directory is not inside an onepath-rs \
             checkout to read it as a git revision"
        )),
    }
}

/// The diff from `old` (read from `from`) to the `CLAUSES.json` of `vectors_dir`, limited to
/// `families` unless every family is selected.
pub fn since(
    old: &ClauseIndex,
    from: &str,
    vectors_dir: &Path,
    families: FamilySet,
) -> Result<SinceDiff, String> {
    let to_path = vectors_dir.join(INDEX_PATH);
    let new = ClauseIndex::read(&to_path).map_err(|e| e.to_string())?;
    let keep = |idx: &ClauseIndex| ClauseIndex {
        clauses: idx
            .clauses
            .iter()
            .filter(|c| families.is_all() || concerns(&c.file, families))
            .cloned()
            .collect(),
        ..idx.clone()
    };
    let to = to_path.display().to_string();
    let d = diff(&keep(old), from, &keep(&new), &to);
    Ok(SinceDiff {
        from: from.to_string(),
        to,
        families: (!families.is_all()).then(|| families.names()),
        added: d.added,
        changed: d.changed,
        retired: d.retired,
        unchanged: d.unchanged,
    })
}

impl SinceDiff {
    /// The lines of the text report: a count line, then one line per kind with the ids.
    pub fn to_text(&self) -> String {
        let scope = match &self.families {
            Some(f) => format!(" (families {} and the shared files)", f.join(", ")),
            None => String::new(),
        };
        let mut s = format!(
            "clauses since {}{scope}: {} added, {} changed, {} retired, {} unchanged\n",
            self.from,
            self.added.len(),
            self.changed.len(),
            self.retired.len(),
            self.unchanged
        );
        for (name, list) in [
            ("added", &self.added),
            ("changed", &self.changed),
            ("retired", &self.retired),
        ] {
            if !list.is_empty() {
                let ids: Vec<String> = list.iter().map(|e| format!("[{}]", e.id)).collect();
                s.push_str(&format!("  {name}: {}\n", ids.join(" ")));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_file_concerns_only_its_family() {
        let hex = FamilySet::parse("hex-search").unwrap();
        assert!(concerns("spec/hex-search.md", hex));
        assert!(concerns("spec/driver.md", hex));
        assert!(!concerns("spec/hpa.md", hex));
    }
}
