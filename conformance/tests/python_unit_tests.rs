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
// pins [CONF.PMUT.JUDGE]: test_port_mutants.py EndToEnd runs `run` against a fake kit: a certify
// exit 1 not read as caught, or an exit 0 not read as survived, fails the outcome assertions
// pins [CONF.PMUT.FILES]: test_port_mutants.py: mutating defects.py, test_/check_ files or an
// unimported module, or a docstring, import, __slots__, pragma or __main__ line, fails
// test_port_files/test_skipped
// pins [CONF.PMUT.OPERATORS]: test_port_mutants.py Enumeration asserts the exact sites of each
// operator on a synthetic source: a missing, extra or different replacement fails has()/assertFalse
// pins [CONF.PMUT.SPLICE]: test_port_mutants.py: a splice that changes a byte outside the span,
// adds or drops a line break, or yields uncompilable text fails test_splice_keeps_every_other_byte
// pins [CONF.PMUT.ID]: test_port_mutants.py: an id that moves with line numbers, ignores the
// occurrence, or a wrong qualified function or describe form fails the id/occurrence/describe
// assertions
// pins [CONF.PMUT.SELECT]: test_port_mutants.py Selection: shards that overlap or miss a mutant, an
// unseeded or order-dependent sample, or a bad k/n accepted fails the partition and sample
// assertions
// pins [CONF.PMUT.BASELINE]: test_port_mutants.py EndToEnd: a run that judges mutants after a
// failing baseline, certifies a baseline under --no-baseline, or skips the confirm baseline fails
// the status and call-count assertions
// pins [CONF.PMUT.OUTCOMES]: test_port_mutants.py EndToEnd: a fake kit that fails, passes, hangs or
// crashes must give caught (with section, family levels, first difference and clauses), survived,
// timeout and error
// pins [CONF.PMUT.FAMILIES]: test_port_mutants.py: a committed family table that differs from the
// imports, or a --family filter passed for a file the table lacks, fails the diff and call-log
// assertions
// pins [CONF.PMUT.CONFIRM]: test_port_mutants.py EndToEnd: a --confirm that does not rerun a
// survivor with --port-cases 200, or keeps the fast outcome, fails the confirm-kill stage
// assertions
// pins [CONF.PMUT.REPORT]: test_port_mutants.py: a schema or writer that adds, drops or mistypes a
// member fails the strict read of the test's full literal report or of the report `run` writes
// pins [CONF.PMUT.MERGE]: test_port_mutants.py Merge: merging a missing, duplicate or foreign
// shard, another seed or count, or keeping shard ledger notes under --ledger fails the
// refusal/ledger assertions
// pins [CONF.PMUT.COVERAGE]: test_port_mutants.py: wrong missed ranges or executable lines, a
// tracer that writes nothing on sys.exit, or a FAIL/changed-file coverage report accepted fails
// Coverage/Strict tests
// pins [CONF.PMUT.LEDGER]: test_port_mutants.py: a ledger reader that accepts a bad entry, or a run
// that does not explain a listed survivor or misses an equivalent-but-caught entry, fails
// Strict/EndToEnd
// pins [CONF.PMUT.VERDICT]: test_port_mutants.py: exit 0 with an error or ledger problem, non-2 on
// bad input, or a multi-line message or traceback on bad input fails the status and one-line
// assertions
// pins [CONF.PMUT.STRICT]: test_port_mutants.py Strict: a reader that accepts an unknown or missing
// member, checks anything before the version, or accepts a wrong type fails the InputError
// assertions
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
