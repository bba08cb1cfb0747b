//! The Python port's replanners (conformance/ports/python/onepath_py/replan*.py, written from
//! spec/ alone) reproduce every committed replanning vector (`vectors/replanning/REPLAN-*.json`):
//! every step's observations, state hashes and the final state bytes. A damaged vector is
//! reported with its id, step and first differing field.
mod tools;

use std::path::Path;

fn check(dir: &Path) -> (bool, String) {
    tools::run_port_script("check_replan_vectors.py", &[dir])
}

fn vectors() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/replanning")
}

#[test]
fn python_port_matches_every_replanning_vector() {
    let (ok, text) = check(&vectors());
    assert!(ok, "{text}");
    let total = std::fs::read_dir(vectors())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.starts_with("REPLAN-") && name.ends_with(".json")
        })
        .count();
    assert!(total > 0);
    let want = format!("{total} of {total} replanning vectors match");
    assert!(text.contains(&want), "{text}");
}

#[test]
fn a_damaged_replanning_vector_is_named() {
    let tmp = std::env::temp_dir().join(format!("onepath-replan-vectors-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for e in std::fs::read_dir(vectors()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.join(p.file_name().unwrap())).unwrap();
    }
    // The first expected iteration count of REPLAN-0001 changed.
    let f = tmp.join("REPLAN-0001.json");
    let text = std::fs::read_to_string(&f).unwrap();
    let key = "\"iterations\": ";
    let at = text.find(key).expect("a step with iterations") + key.len();
    let end = at + text[at..].find([',', '}']).unwrap();
    let n: u64 = text[at..end].parse().unwrap();
    let damaged = format!("{}{}{}", &text[..at], n + 1, &text[end..]);
    std::fs::write(&f, damaged).unwrap();
    let (ok, out) = check(&tmp);
    std::fs::remove_dir_all(&tmp).ok();
    assert!(!ok, "the damaged vector passed:\n{out}");
    assert!(out.contains("REPLAN-0001: step 0: iterations"), "{out}");
}
