//! The Python port's grid searches (conformance/ports/python/onepath_py/grid_search*.py, written
//! from spec/ alone) reproduce every committed grid vector: all tier-1 runs and all tier-2 runs
//! (handle, `AStar`, `JumpSearch`, `ThetaSearch`) including `reply_sha256`, which covers the
//! final state bytes. A damaged vector is reported with its id, run and first differing field.
mod tools;

use std::path::Path;
use std::process::Command;

fn check(dir: &Path) -> (bool, String) {
    tools::require_python3();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/python/check_grid_vectors.py");
    let out = Command::new("python3")
        .arg("-B")
        .arg(&script)
        .arg(dir)
        .output()
        .expect("python3 runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn vectors() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/grids")
}

#[test]
fn python_port_matches_every_grid_vector() {
    let (ok, text) = check(&vectors());
    assert!(ok, "{text}");
    assert!(text.contains("1744 of 1744 runs match"), "{text}");
    assert!(text.contains("580 of 580 match"), "{text}");
}

#[test]
fn a_damaged_grid_vector_is_named() {
    let tmp = std::env::temp_dir().join(format!("onepath-grid-vectors-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for e in std::fs::read_dir(vectors()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.join(p.file_name().unwrap())).unwrap();
    }
    // One expected expansion changed in GRID-0003.
    let f = tmp.join("GRID-0003.json");
    let text = std::fs::read_to_string(&f).unwrap();
    let key = "\"expansions\": [";
    let at = text.find(key).expect("a run with expansions") + key.len();
    let end = at + text[at..].find([',', ']']).unwrap();
    let n: u64 = text[at..end].parse().unwrap();
    let damaged = format!("{}{}{}", &text[..at], n + 1, &text[end..]);
    std::fs::write(&f, damaged).unwrap();
    let (ok, out) = check(&tmp);
    std::fs::remove_dir_all(&tmp).ok();
    assert!(!ok, "the damaged vector passed:\n{out}");
    assert!(
        out.contains("GRID-0003 run 0 ") && out.contains("expansion entry 0"),
        "{out}"
    );
}

/// The Python port's state code (`onepath_py/state_requests.py` and the kinds' modules, written
/// from spec/ alone) answers every golden and hostile state vector of every kind without the kit.
#[test]
fn python_port_matches_every_state_vector() {
    tools::require_python3();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/python/check_state_vectors.py");
    let out = Command::new("python3")
        .arg("-B")
        .arg(&script)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/state"))
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let last = text.lines().last().unwrap_or("");
    let (matched, total) = last
        .split_once(" of ")
        .map(|(a, b)| (a.to_string(), b.split(' ').next().unwrap_or("").to_string()))
        .unwrap_or_default();
    assert!(
        matched == total && total.parse::<u64>().unwrap_or(0) > 10_000,
        "{text}"
    );
}
