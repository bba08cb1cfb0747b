//! Reading the checkout: a sorted recursive walk by extension, text reads with typed errors.

use super::error::ClauseError;
use std::path::{Path, PathBuf};

/// Every file under `dir` whose extension is one of `exts`, sorted by path; a missing folder
/// holds no files.
pub fn walk(dir: &Path, exts: &[&str]) -> Result<Vec<PathBuf>, ClauseError> {
    let mut out = Vec::new();
    if dir.is_dir() {
        walk_into(dir, exts, &mut out)?;
    }
    out.sort();
    Ok(out)
}

fn walk_into(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) -> Result<(), ClauseError> {
    let entries = std::fs::read_dir(dir).map_err(|e| ClauseError::io(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| ClauseError::io(dir, e))?.path();
        if path.is_dir() {
            walk_into(&path, exts, out)?;
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| exts.contains(&e))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// The text of `path`.
pub fn read_text(path: &Path) -> Result<String, ClauseError> {
    std::fs::read_to_string(path).map_err(|e| ClauseError::io(path, e))
}

/// `path` relative to `root`, with `/` separators.
pub fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
