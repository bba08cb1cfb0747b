//! The Python port's own unit tests (conformance/ports/python/test_*.py, standard-library
//! `unittest`) pass: hand-checked cases and regressions of the port that the vectors do not
//! reach (e.g. the [STATE.ORDER] regression of `test_state_grids.py` found by a 1,000-case port
//! run, the HPA* property tests of `test_hpa.py` and the hand-derived descriptions of
//! `test_describe.py`).
mod tools;

fn run(script: &str) {
    let (ok, text) = tools::run_port_script(script, &[]);
    assert!(ok, "{script} failed:\n{text}");
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

#[test]
fn test_describe_py_passes() {
    run("test_describe.py");
}

#[test]
fn test_world_py_passes() {
    run("test_world.py");
}

/// The port-mutation judge's own tests ([CONF.PMUT.JUDGE]): site enumeration and splicing,
/// stable ids, sample and shard partitions, merge refusals, strict readers, and `run` end to end
/// against a fake kit (conformance/ports/mutants/test_port_mutants.py).
#[test]
fn test_port_mutants_py_passes() {
    tools::require_python3();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/mutants");
    let out = std::process::Command::new("python3")
        .args(["-B", "-m", "unittest", "test_port_mutants"])
        .current_dir(&dir)
        .output()
        .expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "test_port_mutants.py failed:\n{text}");
    assert!(text.contains("\nOK"), "{text}");
}
