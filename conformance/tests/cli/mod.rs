//! Helpers shared by the tests that run the `onepath-conformance` binary: a scratch folder per
//! test and one call of a subcommand with its exit code and output.
#![allow(dead_code)] // each test binary uses a subset

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh, empty folder `onepath-<prefix>-<pid>-<test>` under the temporary directory.
pub fn scratch(prefix: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onepath-{prefix}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `bytes` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Runs the binary with `args`: (exit code, -1 when killed by a signal; stdout; stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
