//! The Python port's flow fields (conformance/ports/python/onepath_py/flow_*.py, written from
//! spec/ alone) reproduce every committed flow-field vector (`vectors/flow-field/FLOW-*.json`):
//! every step's observations, field and state hashes, the final field, the path probes and the
//! final state bytes. A damaged vector is reported with its id, step and first differing field.
mod tools;

use std::path::Path;

fn check(dir: &Path) -> (bool, String) {
    tools::run_port_script("check_flow_vectors.py", &[dir])
}

fn vectors() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors/flow-field")
}

fn copy_vectors(tag: &str) -> std::path::PathBuf {
    let tmp =
        std::env::temp_dir().join(format!("onepath-flow-vectors-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    for e in std::fs::read_dir(vectors()).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.join(p.file_name().unwrap())).unwrap();
    }
    tmp
}

#[test]
fn python_port_matches_every_flow_field_vector() {
    let (ok, text) = check(&vectors());
    assert!(ok, "{text}");
    let total = std::fs::read_dir(vectors())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_string_lossy();
            name.starts_with("FLOW-") && name.ends_with(".json")
        })
        .count();
    assert!(total > 0);
    let want = format!("{total} of {total} flow-field vectors match");
    assert!(text.contains(&want), "{text}");
}

#[test]
fn a_damaged_flow_field_vector_is_named() {
    let tmp = copy_vectors("settled");
    // The first expected settled count of FLOW-0001 changed.
    let f = tmp.join("FLOW-0001.json");
    let text = std::fs::read_to_string(&f).unwrap();
    let key = "\"settled\": ";
    let at = text.find(key).expect("a step with settled") + key.len();
    let end = at + text[at..].find([',', '}']).unwrap();
    let n: u64 = text[at..end].parse().unwrap();
    let damaged = format!("{}{}{}", &text[..at], n + 1, &text[end..]);
    std::fs::write(&f, damaged).unwrap();
    let (ok, out) = check(&tmp);
    std::fs::remove_dir_all(&tmp).ok();
    assert!(!ok, "the damaged vector passed:\n{out}");
    assert!(out.contains("FLOW-0001: step 0: settled"), "{out}");
}

#[test]
fn a_damaged_final_cell_is_named() {
    let tmp = copy_vectors("cell");
    // The final step of cell 1 in FLOW-0034 (a 3 x 3 field: `next` is [null, 0, 1, ...]).
    let f = tmp.join("FLOW-0034.json");
    let text = std::fs::read_to_string(&f).unwrap();
    let key = "\"next\": [null, 0, 1,";
    assert!(text.contains(key), "FLOW-0034 changed");
    std::fs::write(&f, text.replacen(key, "\"next\": [null, 3, 1,", 1)).unwrap();
    let (ok, out) = check(&tmp);
    std::fs::remove_dir_all(&tmp).ok();
    assert!(!ok, "the damaged vector passed:\n{out}");
    assert!(
        out.contains("FLOW-0034: cell 1: next: expected 3, found 0"),
        "{out}"
    );
}
