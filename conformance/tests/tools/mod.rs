//! External tools some test binaries need, checked up front so that a missing tool fails the
//! test with its name and how to install it, instead of an unexplained driver failure.
#![allow(dead_code)] // each test binary uses a subset

use std::sync::OnceLock;

/// How to get Python 3 (the port and its driver use only the standard library).
pub const PYTHON_INSTALL: &str = "install Python 3 (tested with 3.11; standard library only) so \
     that `python3` is on PATH: Debian/Ubuntu `sudo apt-get install python3`, Fedora `sudo dnf \
     install python3`, macOS `brew install python`, others https://www.python.org/downloads/ \
     (README.md, 'Prerequisites')";

/// Panics, naming `python3` and how to install it, unless `python3 --version` runs and
/// reports Python 3. Checked once per test binary.
pub fn require_python3() {
    static FOUND: OnceLock<Result<String, String>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        match std::process::Command::new("python3")
            .arg("--version")
            .output()
        {
            Ok(o) if o.status.success() => {
                let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
                if v.starts_with("Python 3") {
                    Ok(v)
                } else {
                    Err(format!("`python3 --version` printed {v:?}, not Python 3"))
                }
            }
            Ok(o) => Err(format!("`python3 --version` exited with {}", o.status)),
            Err(e) => Err(format!("`python3` cannot be started: {e}")),
        }
    });
    if let Err(why) = found {
        panic!(
            "this test needs python3 (the Python port and test drivers): {why}; {PYTHON_INSTALL}"
        );
    }
}

/// Runs `python3 -B conformance/ports/python/<script> <args>` (after [`require_python3`]) from
/// that folder and returns whether it exited 0 and its stdout followed by its stderr.
pub fn run_port_script(script: &str, args: &[&std::path::Path]) -> (bool, String) {
    require_python3();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/python");
    let out = std::process::Command::new("python3")
        .arg("-B")
        .arg(dir.join(script))
        .args(args)
        .current_dir(&dir)
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// The repository's `vectors/` folder.
pub fn vectors_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

/// The number of `<prefix>*.json` files in `vectors/<family>/`.
pub fn count_vectors(family: &str, prefix: &str) -> usize {
    std::fs::read_dir(vectors_dir().join(family))
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.starts_with(prefix) && name.ends_with(".json")
        })
        .count()
}
