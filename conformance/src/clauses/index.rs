//! The clause index ([CONF.CLAUSES.INDEX]): every clause of `spec/` with its provenance, its file
//! and the SHA-256 of its text, read from a checkout, from a git revision of one, or from an
//! index file (`vectors/CLAUSES.json` ships one with the vectors).

use super::error::ClauseError;
use super::spec_index::{parse_spec_file, Provenance};
use super::tree::{read_text, relative, walk};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::process::Command;

/// The schema name of an index file.
pub const SCHEMA: &str = "onepath.clause-index";
/// The only version of an index file.
pub const VERSION: u32 = 1;
/// The index file's path inside `vectors/`.
pub const INDEX_PATH: &str = "CLAUSES.json";
/// The largest index file read: 16 MiB (today's is about 200 KiB).
pub const MAX_INDEX_FILE: u64 = 16 << 20;

/// An index of every clause of one `spec/` ([CONF.CLAUSES.INDEX]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClauseIndex {
    /// [`SCHEMA`].
    pub schema: String,
    /// [`VERSION`].
    pub version: u32,
    /// What the file is.
    #[serde(rename = "_comment")]
    pub comment: String,
    /// Every clause, in spec order (files by path, then lines).
    pub clauses: Vec<IndexEntry>,
}

/// One clause of an index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexEntry {
    /// The clause id.
    pub id: String,
    /// Its provenance mark.
    pub provenance: Provenance,
    /// The spec file that defines it, relative to the checkout.
    pub file: String,
    /// Lowercase hex SHA-256 of its text ([CONF.CLAUSES.INDEX]).
    pub sha256: String,
}

/// Only the two members an index is judged by first.
#[derive(Deserialize)]
struct Head {
    schema: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
}

impl ClauseIndex {
    /// The index of spec files given as `(path relative to the checkout, text)`, in that order.
    pub fn from_files(files: &[(String, String)]) -> ClauseIndex {
        let mut clauses = Vec::new();
        for (file, text) in files {
            for (c, t) in parse_spec_file(file, text) {
                clauses.push(IndexEntry {
                    id: c.id,
                    provenance: c.provenance,
                    file: c.file,
                    sha256: crate::outcome::sha256_hex(t.as_bytes()),
                });
            }
        }
        ClauseIndex {
            schema: SCHEMA.into(),
            version: VERSION,
            comment: "Every clause of spec/ with the SHA-256 of its text (spec/clauses.md CONF.CLAUSES.INDEX); `onepath-conformance clauses diff` compares two.".into(),
            clauses,
        }
    }

    /// The index of the working tree's `spec/` under `root`.
    pub fn of_checkout(root: &Path) -> Result<ClauseIndex, ClauseError> {
        let mut files = Vec::new();
        for path in walk(&root.join("spec"), &["md"])? {
            files.push((relative(root, &path), read_text(&path)?));
        }
        Ok(ClauseIndex::from_files(&files))
    }

    /// The index of `spec/` at git revision `rev` of the repository at `root`.
    pub fn of_git(root: &Path, rev: &str) -> Result<ClauseIndex, ClauseError> {
        if rev.starts_with('-') {
            return Err(ClauseError::git(rev, "a revision does not start with '-'"));
        }
        let list = git(
            root,
            rev,
            &["ls-tree", "-r", "--name-only", rev, "--", "spec"],
        )?;
        let mut names: Vec<&str> = list
            .lines()
            .filter(|l| l.ends_with(".md") && l.starts_with("spec/"))
            .collect();
        names.sort_unstable();
        if names.is_empty() {
            return Err(ClauseError::git(rev, "has no spec/*.md files"));
        }
        let mut files = Vec::new();
        for name in names {
            let text = git(root, rev, &["show", &format!("{rev}:{name}")])?;
            files.push((name.to_string(), text));
        }
        Ok(ClauseIndex::from_files(&files))
    }

    /// Reads an index file: a regular file of at most [`MAX_INDEX_FILE`] bytes, unique members,
    /// the schema and version judged before anything else, no unknown or missing member.
    pub fn read(path: &Path) -> Result<ClauseIndex, ClauseError> {
        let text = crate::input::read_text(path, MAX_INDEX_FILE)
            .map_err(|e| ClauseError::index(path, e.to_string()))?;
        crate::json_text::check_unique_members(&text)
            .map_err(|e| ClauseError::index(path, format!("invalid JSON: {e}")))?;
        let head: Head = serde_json::from_str(&text)
            .map_err(|e| ClauseError::index(path, format!("invalid JSON: {e}")))?;
        match head.schema {
            Some(serde_json::Value::String(s)) if s == SCHEMA => {}
            Some(other) => {
                return Err(ClauseError::index(
                    path,
                    format!("schema {other} is not {SCHEMA:?}"),
                ))
            }
            None => return Err(ClauseError::index(path, "member schema is missing")),
        }
        match head.version {
            Some(v) if v == serde_json::json!(VERSION) => {}
            Some(other) => {
                return Err(ClauseError::index(
                    path,
                    format!("version {other} is not supported (this kit reads version {VERSION})"),
                ))
            }
            None => return Err(ClauseError::index(path, "member version is missing")),
        }
        let index: ClauseIndex = serde_json::from_str(&text)
            .map_err(|e| ClauseError::index(path, format!("invalid index: {e}")))?;
        for (i, c) in index.clauses.iter().enumerate() {
            let hex_ok = c.sha256.len() == 64
                && c.sha256
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            if !super::spec_index::is_clause_id(&c.id) || !hex_ok {
                return Err(ClauseError::index(
                    path,
                    format!("clauses[{i}]: not a clause id and a lowercase SHA-256"),
                ));
            }
        }
        Ok(index)
    }

    /// The index as the text of an index file.
    pub fn to_text(&self) -> String {
        crate::json_text::to_text(self)
    }
}

/// `git -C root args...`'s standard output, or a typed error naming the revision.
fn git(root: &Path, rev: &str, args: &[&str]) -> Result<String, ClauseError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .output()
        .map_err(|e| ClauseError::git(rev, format!("cannot run git: {e}")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let first = err.lines().next().unwrap_or("").chars().take(200);
        return Err(ClauseError::git(
            rev,
            format!("git {} failed: {}", args[0], first.collect::<String>()),
        ));
    }
    String::from_utf8(out.stdout).map_err(|_| ClauseError::git(rev, "a spec file is not UTF-8"))
}
