//! The Python port's own unit tests (conformance/ports/python/test_*.py, standard-library
//! `unittest`) pass: hand-checked cases and regressions of the port that the vectors do not
//! reach (e.g. the [STATE.ORDER] regression of `test_state_grids.py` found by a 1,000-case port
//! run, and the HPA* property tests of `test_hpa.py`).
mod tools;

use std::path::Path;
use std::process::Command;

fn run(script: &str) {
    tools::require_python3();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/python");
    let out = Command::new("python3")
        .arg("-B")
        .arg(dir.join(script))
        .current_dir(&dir)
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{script} failed:\n{text}");
    assert!(
        text.contains("\nOK") || text.starts_with("OK"),
        "{script}:\n{text}"
    );
}

#[test]
fn test_port_py_passes() {
    run("test_port.py");
}

#[test]
fn test_lattice_py_passes() {
    run("test_lattice.py");
}

#[test]
fn test_state_grids_py_passes() {
    run("test_state_grids.py");
}

#[test]
fn test_hpa_py_passes() {
    run("test_hpa.py");
}
