//! Atomic writes of the files and folders the kit produces ([CONF.CLI.ATOMIC]): a file is
//! written to a temporary sibling, synced and renamed over its path; a folder (`vectors --out`)
//! is built as a temporary sibling folder and swapped into place. A kill at any moment leaves
//! the old content or the new, never a mix or a partial file.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A hidden sibling of `path` named `.<name>.<tag>.<pid>.<n>`.
fn sibling(path: &Path, tag: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{tag}.{}.{n}", std::process::id()))
}

/// Writes `bytes` to `path` atomically: a temporary sibling, synced, then renamed over `path`.
/// A path that exists and is not a regular file or a symlink (a device such as `/dev/null`
/// or `/dev/stdout`, a FIFO) is written in place, since it cannot be replaced by a rename.
pub fn write(path: &Path, bytes: impl AsRef<[u8]>) -> std::io::Result<()> {
    let bytes = bytes.as_ref();
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        let ft = meta.file_type();
        if !ft.is_file() && !ft.is_symlink() {
            return std::fs::write(path, bytes);
        }
    }
    let tmp = sibling(path, "tmp");
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Replaces the folder `dir` by exactly `files` (relative `/`-separated path to bytes): the new
/// folder is built as a hidden sibling, then swapped with `dir` (Linux: one
/// `renameat2(RENAME_EXCHANGE)`, so `dir` always holds the old set or the new one; elsewhere two
/// renames, so a kill between them leaves `dir` missing and both sets as hidden siblings), and
/// the old set is removed. Hidden siblings that a killed earlier run left behind are removed
/// first.
pub fn replace_dir(dir: &Path, files: &BTreeMap<String, Vec<u8>>) -> std::io::Result<()> {
    remove_stale(dir);
    let new = sibling(dir, "new");
    let result = (|| {
        std::fs::create_dir_all(&new)?;
        for (rel, bytes) in files {
            let path = new.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            let mut f = std::fs::File::create(&path)?;
            f.write_all(bytes)?;
            f.sync_all()?;
        }
        swap_in(&new, dir)
    })();
    let _ = std::fs::remove_dir_all(&new);
    result
}

/// Puts the folder `new` at `dir`; afterwards `new` holds the old folder (or nothing).
fn swap_in(new: &Path, dir: &Path) -> std::io::Result<()> {
    if std::fs::symlink_metadata(dir).is_err() {
        return std::fs::rename(new, dir);
    }
    if exchange(new, dir)? {
        return Ok(());
    }
    let old = sibling(dir, "old");
    std::fs::rename(dir, &old)?;
    std::fs::rename(new, dir)?;
    std::fs::rename(&old, new)
}

/// Swaps two paths atomically where the platform can; `Ok(false)` when it cannot.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<bool> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| {
        CString::new(p.as_os_str().as_bytes())
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))
    };
    let (ca, cb) = (c(a)?, c(b)?);
    // SAFETY: both paths are NUL-terminated C strings that outlive the call.
    let r = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            ca.as_ptr(),
            libc::AT_FDCWD,
            cb.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    match e.raw_os_error() {
        // Not supported by the kernel or the file system: fall back to two renames.
        Some(libc::ENOSYS) | Some(libc::EINVAL) => Ok(false),
        _ => Err(e),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_a: &Path, _b: &Path) -> std::io::Result<bool> {
    Ok(false)
}

/// Removes `.<name>.new.<pid>.*` and `.<name>.old.<pid>.*` siblings of `dir` whose process no
/// longer runs (left by a run that was killed).
fn remove_stale(dir: &Path) {
    let (Some(parent), Some(name)) = (dir.parent(), dir.file_name()) else {
        return;
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    let name = name.to_string_lossy();
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(rest) = file.strip_prefix(&format!(".{name}.")) else {
            continue;
        };
        let mut parts = rest.split('.');
        let (Some(tag), Some(pid)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if (tag == "new" || tag == "old") && !alive(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(unix)]
fn alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

#[cfg(not(unix))]
fn alive(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_replaces_and_leaves_no_sibling() {
        let dir = std::env::temp_dir().join(format!("onepath-atomic-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.txt");
        write(&p, "old").unwrap();
        write(&p, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        let sub = dir.join("set");
        let one: BTreeMap<String, Vec<u8>> = [("x/1".to_string(), b"1".to_vec())].into();
        let two: BTreeMap<String, Vec<u8>> = [("y".to_string(), b"2".to_vec())].into();
        replace_dir(&sub, &one).unwrap();
        replace_dir(&sub, &two).unwrap();
        assert_eq!(std::fs::read(sub.join("y")).unwrap(), b"2");
        assert!(!sub.join("x").exists());
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
