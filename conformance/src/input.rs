//! Reading input files within bounds ([CONF.INPUT.FILES], [CONF.INPUT.LIMITS],
//! [CONF.MANIFEST.PATHS]): a path is read only when it is a regular file no larger than the
//! limit of what it holds, so `/dev/zero` or a FIFO is a typed error instead of an unbounded
//! read or a hang; a file inside a vectors folder is read only through a relative path that
//! stays inside the folder, without following a symlink.

use crate::error::{ErrorKind, HarnessError};
use std::io::Read;
use std::path::{Component, Path};

const MIB: u64 = 1 << 20;

/// The largest vector file, `MANIFEST.json` or matrix read from a vectors folder: 64 MiB (the
/// largest committed file is under 1 MiB).
pub const MAX_VECTOR_FILE: u64 = 64 * MIB;
/// The largest `certify --json` report `report merge` reads: 64 MiB.
pub const MAX_REPORT: u64 = 64 * MIB;
/// The largest `--expect` expectations file: 16 MiB.
pub const MAX_EXPECT: u64 = 16 * MIB;
/// The largest `synctest --session` file: 64 MiB.
pub const MAX_SESSION: u64 = 64 * MIB;
/// The largest MovingAI `.map` or `.scen` file: 256 MiB (an 8192 x 8192 map is 64 MiB of text).
pub const MAX_MOVINGAI: u64 = 256 * MIB;
/// The largest DIMACS `.gr` or `.co` file: 2 GiB (the full USA graph is 1.3 GiB).
pub const MAX_ROAD: u64 = 2048 * MIB;

/// Why a path was not read: not a regular file, too large, or an I/O error.
fn refuse(path: &Path, what: String, kind: ErrorKind) -> HarnessError {
    HarnessError::new(kind, what).at_path(path)
}

/// The bytes of the regular file at `path` (a symlink to one is followed), at most `limit`
/// bytes. A directory, device, FIFO or socket, or a larger file, is an error naming the path;
/// the file is opened without blocking, so a FIFO swapped in after the check does not hang.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, HarnessError> {
    let meta = std::fs::metadata(path).map_err(|e| HarnessError::io(path, &e))?;
    check_meta(path, &meta, limit)?;
    let mut file = open_nonblocking(path).map_err(|e| HarnessError::io(path, &e))?;
    let meta = file.metadata().map_err(|e| HarnessError::io(path, &e))?;
    check_meta(path, &meta, limit)?;
    let mut out = Vec::with_capacity(meta.len() as usize);
    file.by_ref()
        .take(limit + 1)
        .read_to_end(&mut out)
        .map_err(|e| HarnessError::io(path, &e))?;
    if out.len() as u64 > limit {
        return Err(too_large(path, limit));
    }
    Ok(out)
}

/// [`read_bytes`] as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, HarnessError> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|e| {
        refuse(
            path,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
            ErrorKind::Parse,
        )
    })
}

fn too_large(path: &Path, limit: u64) -> HarnessError {
    refuse(
        path,
        format!("larger than the {limit}-byte limit of this input"),
        ErrorKind::Io,
    )
}

fn check_meta(path: &Path, meta: &std::fs::Metadata, limit: u64) -> Result<(), HarnessError> {
    let ft = meta.file_type();
    if !ft.is_file() {
        let kind = if ft.is_dir() {
            "a directory"
        } else {
            "a device, FIFO or socket"
        };
        return Err(refuse(
            path,
            format!("not a regular file ({kind})"),
            ErrorKind::Io,
        ));
    }
    if meta.len() > limit {
        return Err(too_large(path, limit));
    }
    Ok(())
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}

/// [CONF.MANIFEST.PATHS] Whether `rel` is a path a vectors folder may hold: relative,
/// `/`-separated, each part a plain name (no empty part, `.`, `..`, backslash or NUL).
pub fn check_rel(rel: &str) -> Result<(), String> {
    let bad = rel.is_empty()
        || rel.contains('\\')
        || rel.contains('\0')
        || rel
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..")
        || Path::new(rel)
            .components()
            .any(|c| !matches!(c, Component::Normal(_)));
    if bad {
        Err(format!(
            "path {:?} leaves the folder or is not a plain relative path",
            crate::error::clip(rel, 200)
        ))
    } else {
        Ok(())
    }
}

/// The bytes of `rel` inside the vectors folder `dir` ([CONF.INPUT.FILES]): `rel` must pass
/// [`check_rel`], no part of it may be a symlink (a link is never followed out of the folder),
/// and the file must be a regular file of at most [`MAX_VECTOR_FILE`] bytes. Errors name `rel`.
pub fn read_in_folder(dir: &Path, rel: &str) -> Result<Vec<u8>, HarnessError> {
    check_rel(rel).map_err(|e| HarnessError::new(ErrorKind::Schema, e).at_path(rel))?;
    let mut at = dir.to_path_buf();
    for part in rel.split('/') {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(HarnessError::new(
                    ErrorKind::Io,
                    "a symlink: a vectors folder is read without following links",
                )
                .at_path(rel));
            }
            Ok(_) => {}
            Err(e) => return Err(HarnessError::new(ErrorKind::Io, e.to_string()).at_path(rel)),
        }
    }
    read_bytes(&at, MAX_VECTOR_FILE).map_err(|e| e.at_path(rel))
}

/// [`read_in_folder`] as UTF-8 text.
pub fn read_text_in_folder(dir: &Path, rel: &str) -> Result<String, HarnessError> {
    String::from_utf8(read_in_folder(dir, rel)?).map_err(|e| {
        HarnessError::new(
            ErrorKind::Parse,
            format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()),
        )
        .at_path(rel)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_hold_at_and_past_the_edge() {
        let dir = std::env::temp_dir().join(format!("onepath-input-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        let p = dir.join("sub/f.json");
        std::fs::write(&p, vec![b'x'; 100]).unwrap();
        assert_eq!(read_bytes(&p, 100).unwrap().len(), 100);
        let e = read_bytes(&p, 99).unwrap_err();
        assert!(e.to_string().contains("99-byte limit"), "{e}");
        let e = read_bytes(Path::new("/dev/zero"), 100).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = read_bytes(&dir, 100).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        assert_eq!(read_in_folder(&dir, "sub/f.json").unwrap().len(), 100);
        for bad in [
            "../x",
            "/etc/passwd",
            "sub/../sub/f.json",
            "./sub/f.json",
            "sub//f.json",
            "",
        ] {
            let e = read_in_folder(&dir, bad).unwrap_err();
            assert!(e.to_string().contains("leaves the folder"), "{bad}: {e}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&p, dir.join("link.json")).unwrap();
            std::os::unix::fs::symlink(dir.join("sub"), dir.join("linkdir")).unwrap();
            for rel in ["link.json", "linkdir/f.json"] {
                let e = read_in_folder(&dir, rel).unwrap_err();
                assert!(e.to_string().contains("symlink"), "{rel}: {e}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
