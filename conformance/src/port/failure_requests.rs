//! `certify --port ... --failures-dir DIR` ([DRIVER.CLI.FAILURES_DIR]): every request line the
//! kit sends is spooled, with its case label, to a hidden file beside `DIR` (unlinked at once
//! where the platform allows, so a killed run leaves nothing); when the run ends, the request
//! lines of every label with a difference or a failed request in a family the port claims are
//! written out as one replayable file per label, the handshake first, so that
//! `CMD < DIR/<file>.jsonl` replays exactly what the port was sent. The folder is written as
//! [CONF.CLI.ATOMIC] says (built beside `DIR`, then swapped in), with an `index.json`.

use super::{LedgerEntry, ProtocolEvent};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Schema name of `index.json`.
pub const INDEX_SCHEMA: &str = "onepath.failure-requests";
/// Version of `index.json`.
pub const INDEX_VERSION: u64 = 1;
/// At most this many request files are written; the failing labels past it (in label order)
/// are counted in `index.json` as left out.
pub const MAX_FILES: usize = 1_000;
/// At most this many bytes of request files are written in all (256 MiB); a label whose file
/// would pass it is left out.
pub const MAX_BYTES: u64 = 256 << 20;
/// A file name keeps at most this many characters of its label.
const MAX_NAME_CHARS: usize = 80;

/// What went wrong with `--failures-dir`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailuresDirErrorClass {
    /// The folder's parent does not exist or is not a directory.
    NoParent,
    /// The path exists and is not a folder this flag may replace (see [`check_dir`]).
    NotReplaceable,
    /// Spooling, reading back or writing failed (an I/O error).
    Io,
}

/// An error of `--failures-dir`: what, and the path.
#[derive(Debug)]
pub struct FailuresDirError {
    class: FailuresDirErrorClass,
    path: PathBuf,
    why: String,
}

impl FailuresDirError {
    fn new(class: FailuresDirErrorClass, path: &Path, why: impl Into<String>) -> Self {
        FailuresDirError {
            class,
            path: path.to_path_buf(),
            why: why.into(),
        }
    }

    /// The class of the error.
    pub fn class(&self) -> FailuresDirErrorClass {
        self.class
    }
}

impl std::fmt::Display for FailuresDirError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.why)
    }
}

impl std::error::Error for FailuresDirError {}

fn parent_of(dir: &Path) -> &Path {
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Checks `dir` before the run ([DRIVER.CLI.CHECKS]): its parent (`.` for a bare name) is an
/// existing directory, and `dir` does not exist, or is an empty folder, or a folder holding an
/// `index.json` of schema [`INDEX_SCHEMA`] (one an earlier run wrote: it is replaced whole).
/// Anything else (a file, a folder of other files, `.`) is refused, so the flag never replaces
/// a folder it did not write.
pub fn check_dir(dir: &Path) -> Result<(), FailuresDirError> {
    use FailuresDirErrorClass::*;
    let parent = parent_of(dir);
    match std::fs::metadata(parent) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => {
            return Err(FailuresDirError::new(
                NoParent,
                dir,
                "its parent is not a directory",
            ))
        }
        Err(e) => {
            return Err(FailuresDirError::new(
                NoParent,
                dir,
                format!("directory {} does not exist ({e})", parent.display()),
            ))
        }
    }
    if dir.file_name().is_none() {
        return Err(FailuresDirError::new(
            NotReplaceable,
            dir,
            "names no folder of its own (`.` or `..`)",
        ));
    }
    let meta = match std::fs::symlink_metadata(dir) {
        Err(_) => return Ok(()),
        Ok(m) => m,
    };
    if !meta.is_dir() {
        return Err(FailuresDirError::new(
            NotReplaceable,
            dir,
            "exists and is not a folder",
        ));
    }
    let empty = std::fs::read_dir(dir)
        .map_err(|e| FailuresDirError::new(Io, dir, e.to_string()))?
        .next()
        .is_none();
    if empty || written_by_this_flag(&dir.join("index.json")) {
        return Ok(());
    }
    Err(FailuresDirError::new(
        NotReplaceable,
        dir,
        format!("is a folder that --failures-dir did not write (no index.json of schema {INDEX_SCHEMA}); name a new or empty folder"),
    ))
}

fn written_by_this_flag(index: &Path) -> bool {
    let Ok(text) = crate::input::read_text(index, 1 << 20) else {
        return false;
    };
    serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| {
            v.get("schema")
                .and_then(|s| s.as_str())
                .map(|s| s == INDEX_SCHEMA)
        })
        .unwrap_or(false)
}

struct SpoolInner {
    writer: BufWriter<File>,
    written: u64,
    /// Per label, the byte ranges of its request lines (newline included), in the order sent.
    lines: BTreeMap<String, Vec<(u64, u64)>>,
    error: Option<String>,
}

/// The request lines of a run, spooled to disk by label.
pub struct RequestSpool {
    dir: PathBuf,
    path: PathBuf,
    inner: Mutex<SpoolInner>,
}

impl RequestSpool {
    /// Creates the spool as a hidden sibling of `dir`, `.<name>.spool.<pid>`, unlinked at once
    /// (on platforms that keep an open unlinked file).
    pub fn create(dir: &Path) -> Result<RequestSpool, FailuresDirError> {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "failures".into());
        let path = parent_of(dir).join(format!(".{name}.spool.{}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|e| FailuresDirError::new(FailuresDirErrorClass::Io, &path, e.to_string()))?;
        #[cfg(unix)]
        let _ = std::fs::remove_file(&path);
        Ok(RequestSpool {
            dir: dir.to_path_buf(),
            path,
            inner: Mutex::new(SpoolInner {
                writer: BufWriter::new(file),
                written: 0,
                lines: BTreeMap::new(),
                error: None,
            }),
        })
    }

    /// Appends one request line (without its newline) sent under `label`.
    pub fn record(&self, label: &str, line: &str) {
        let mut s = self.inner.lock().expect("spool");
        if s.error.is_some() {
            return;
        }
        let at = s.written;
        let result = s
            .writer
            .write_all(line.as_bytes())
            .and_then(|()| s.writer.write_all(b"\n"));
        match result {
            Ok(()) => {
                let len = line.len() as u64 + 1;
                s.written += len;
                s.lines
                    .entry(label.to_string())
                    .or_default()
                    .push((at, len));
            }
            Err(e) => s.error = Some(format!("spooling a request failed: {e}")),
        }
    }

    /// Writes the request file of every label of `failing` (label to its first failure in
    /// words) into the folder, with `hello_line` first, and `index.json`; returns what was
    /// written.
    pub fn write(
        self,
        failing: &BTreeMap<String, String>,
        hello_line: &str,
        command: &str,
    ) -> Result<FailureFiles, FailuresDirError> {
        let io = |e: std::io::Error| {
            FailuresDirError::new(FailuresDirErrorClass::Io, &self.path, e.to_string())
        };
        let inner = self.inner.into_inner().expect("spool");
        if let Some(e) = inner.error {
            return Err(FailuresDirError::new(
                FailuresDirErrorClass::Io,
                &self.path,
                e,
            ));
        }
        let mut file = inner.writer.into_inner().map_err(|e| io(e.into_error()))?;
        #[cfg(not(unix))]
        let _ = std::fs::remove_file(&self.path);
        let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        let mut entries = Vec::new();
        let mut names = BTreeSet::new();
        let (mut bytes, mut left_out) = (0u64, 0u64);
        for (label, first) in failing {
            let Some(ranges) = inner.lines.get(label) else {
                continue; // no request of its own was sent (a check over other requests' answers)
            };
            let size = hello_line.len() as u64 + 1 + ranges.iter().map(|r| r.1).sum::<u64>();
            if entries.len() >= MAX_FILES || bytes + size > MAX_BYTES {
                left_out += 1;
                continue;
            }
            let mut text = Vec::with_capacity(size as usize);
            text.extend_from_slice(hello_line.as_bytes());
            text.push(b'\n');
            for &(at, len) in ranges {
                let start = text.len();
                text.resize(start + len as usize, 0);
                file.seek(SeekFrom::Start(at)).map_err(io)?;
                file.read_exact(&mut text[start..]).map_err(io)?;
            }
            bytes += size;
            let name = file_name(label, &mut names);
            entries.push(serde_json::json!({
                "file": name,
                "label": label,
                "requests": ranges.len(),
                "first_failure": first,
            }));
            files.insert(name, text);
        }
        let written = entries.len();
        let index = serde_json::json!({
            "schema": INDEX_SCHEMA,
            "version": INDEX_VERSION,
            "command": command,
            "files": entries,
            "left_out": left_out,
        });
        let mut index_text = serde_json::to_string_pretty(&index).expect("the index encodes");
        index_text.push('\n');
        files.insert("index.json".into(), index_text.into_bytes());
        crate::atomic::replace_dir(&self.dir, &files).map_err(|e| {
            FailuresDirError::new(FailuresDirErrorClass::Io, &self.dir, e.to_string())
        })?;
        Ok(FailureFiles {
            dir: self.dir,
            written,
            left_out,
        })
    }
}

/// What `--failures-dir` wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct FailureFiles {
    /// The folder.
    pub dir: PathBuf,
    /// Request files written.
    pub written: usize,
    /// Failing labels left out by [`MAX_FILES`] or [`MAX_BYTES`].
    pub left_out: u64,
}

/// The file name of `label`: its characters `A-Z a-z 0-9 - _ .` kept and every other one `_`
/// (at most [`MAX_NAME_CHARS`]), `-2`, `-3`, ... appended when two labels give one name, then
/// `.jsonl`.
fn file_name(label: &str, taken: &mut BTreeSet<String>) -> String {
    let mut stem: String = label
        .chars()
        .take(MAX_NAME_CHARS)
        .map(|c| match c {
            'A'..='Z' | 'a'..='z' | '0'..='9' | '-' | '_' | '.' => c,
            _ => '_',
        })
        .collect();
    if stem.starts_with('.') || stem.is_empty() || stem == "index" {
        stem.insert(0, '_');
    }
    let mut name = format!("{stem}.jsonl");
    let mut n = 2;
    while !taken.insert(name.clone()) {
        name = format!("{stem}-{n}.jsonl");
        n += 1;
    }
    name
}

/// The labels of the run with a difference or a failed request (crash, timeout, malformed
/// reply, driver error; not `unimplemented` or `not run`) in a family `claimed` holds, each
/// with its first such failure in words (differences before request failures).
pub fn failing_labels(
    entries: &[LedgerEntry],
    events: &[ProtocolEvent],
    claimed: impl Fn(&str) -> bool,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for e in entries {
        if claimed(crate::family::claim_of(&e.label, &e.op).name()) {
            out.entry(e.label.clone())
                .or_insert_with(|| format!("{}: {}", e.section, e.quote()));
        }
    }
    for e in events {
        if e.kind == "unimplemented" || e.kind == "not run" {
            continue;
        }
        if claimed(crate::family::claim_of(&e.label, &e.op).name()) {
            out.entry(e.label.clone()).or_insert_with(|| {
                format!(
                    "{}: {} / {}: port: {}: {}",
                    e.section, e.label, e.op, e.kind, e.message
                )
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_distinct() {
        let mut taken = BTreeSet::new();
        assert_eq!(file_name("replan#0", &mut taken), "replan_0.jsonl");
        assert_eq!(file_name("replan/0", &mut taken), "replan_0-2.jsonl");
        assert_eq!(file_name("../x", &mut taken), "_.._x.jsonl");
        assert_eq!(file_name("index", &mut taken), "_index.jsonl");
        assert_eq!(file_name("", &mut taken), "_.jsonl");
        let long = "a".repeat(200);
        assert_eq!(file_name(&long, &mut taken).len(), MAX_NAME_CHARS + 6);
    }

    #[test]
    fn the_spool_gives_back_each_labels_lines_in_order() {
        let base = std::env::temp_dir().join(format!("onepath-spool-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        std::fs::create_dir_all(&base).unwrap();
        let dir = base.join("failures");
        check_dir(&dir).unwrap();
        let spool = RequestSpool::create(&dir).unwrap();
        spool.record("a", "{\"id\":1}");
        spool.record("b", "{\"id\":2}");
        spool.record("a", "{\"id\":3}");
        let failing: BTreeMap<String, String> = [("a".to_string(), "why".to_string())].into();
        let out = spool.write(&failing, "{\"hello\":1}", "cmd").unwrap();
        assert_eq!((out.written, out.left_out), (1, 0));
        let text = std::fs::read_to_string(dir.join("a.jsonl")).unwrap();
        assert_eq!(text, "{\"hello\":1}\n{\"id\":1}\n{\"id\":3}\n");
        // The folder it wrote may be replaced; a folder of other files may not.
        check_dir(&dir).unwrap();
        std::fs::write(base.join("other.txt"), "x").unwrap();
        assert_eq!(
            check_dir(&base).unwrap_err().class(),
            FailuresDirErrorClass::NotReplaceable
        );
        assert_eq!(
            check_dir(&base.join("other.txt")).unwrap_err().class(),
            FailuresDirErrorClass::NotReplaceable
        );
        assert_eq!(
            check_dir(&base.join("missing/x")).unwrap_err().class(),
            FailuresDirErrorClass::NoParent
        );
        // No spool file is left beside the folder.
        let left: Vec<_> = std::fs::read_dir(&base)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(left.iter().all(|n| !n.contains("spool")), "{left:?}");
        std::fs::remove_dir_all(&base).unwrap();
    }
}
