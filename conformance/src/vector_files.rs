//! The file layer of `vectors/` ([CONF.MATRIX.FILE], [CONF.MANIFEST.FILE]): the matrix and
//! manifest types and paths, and listing and writing the files. It uses no other module of the
//! crate, so the vector writers of `vectors.rs`, `grid/vectors.rs` and `state/files.rs` all sit
//! on it without depending on each other.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Path of the matrix inside `vectors/`.
pub const MATRIX_PATH: &str = "graphs/matrix.json";
/// Path of the manifest inside `vectors/`.
pub const MANIFEST_PATH: &str = "MANIFEST.json";

/// The extra (non-variant) matrix columns.
pub const EXTRA_COLUMNS: [&str; 2] = ["links", "oplm"];

/// The hash matrix file ([CONF.MATRIX.FILE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Matrix {
    /// `onepath.hash-matrix`.
    pub schema: String,
    /// 1.
    pub version: u32,
    /// What the file is.
    #[serde(rename = "_comment")]
    pub comment: String,
    /// Column names in order.
    pub columns: Vec<String>,
    /// One row per scenario.
    pub rows: Vec<MatrixRow>,
}

/// One matrix row.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatrixRow {
    /// Vector id.
    pub scenario: String,
    /// Column name to lowercase hex SHA-256, or null when n/a.
    pub cells: BTreeMap<String, Option<String>>,
}

/// The manifest file ([CONF.MANIFEST.FILE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// `onepath.vectors-manifest`.
    pub schema: String,
    /// 1.
    pub version: u32,
    /// What the file is.
    #[serde(rename = "_comment")]
    pub comment: String,
    /// Every other file under `vectors/`, sorted by path.
    pub files: Vec<ManifestEntry>,
}

/// One manifest entry.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestEntry {
    /// Path relative to `vectors/`, `/`-separated.
    pub path: String,
    /// Lowercase hex SHA-256 of the file's bytes.
    pub sha256: String,
}

/// Every file under `dir` as relative `/`-separated paths, sorted. Symlinks are never followed
/// ([CONF.INPUT.FILES]): a link (to a file or a folder) is listed as a file, which no reader
/// then reads, and a folder link is not descended, so a link loop cannot make the walk endless.
pub fn list_files(dir: &Path) -> std::io::Result<Vec<String>> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                walk(root, &path, out)?;
            } else {
                let rel = path.strip_prefix(root).expect("under root");
                out.push(
                    rel.components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join("/"),
                );
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    if dir.exists() {
        walk(dir, dir, &mut out)?;
    }
    out.sort();
    Ok(out)
}

/// Writes the generated files into `dir`, removing files that are no longer generated.
pub fn write_files(dir: &Path, files: &BTreeMap<String, Vec<u8>>) -> std::io::Result<()> {
    for old in list_files(dir)? {
        if !files.contains_key(&old) {
            std::fs::remove_file(dir.join(&old))?;
        }
    }
    for (rel, bytes) in files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, bytes)?;
    }
    Ok(())
}
