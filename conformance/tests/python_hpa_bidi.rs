//! The Python port's HPA* and bidirectional grid search (conformance/ports/python/onepath_py/
//! hpa.py, hpa_search.py, hpa_requests.py, grid_bidi.py, bidi_requests.py, written from spec/
//! alone) reproduce every committed HPA and BIDI vector (the port's own unit tests run in
//! `python_unit_tests.rs`). A damaged vector is reported with its id, query and field.
mod tools;

use tools::{count_vectors as count, run_port_script as python, vectors_dir as vectors};

#[test]
fn python_port_matches_every_hpa_vector() {
    let (ok, text) = python("check_hpa_vectors.py", &[&vectors()]);
    assert!(ok, "{text}");
    let total = count("hpa", "HPA-");
    assert!(total >= 30, "{total}");
    assert!(
        text.contains(&format!("{total} of {total} hpa vectors match")),
        "{text}"
    );
}

#[test]
fn python_port_matches_every_bidi_vector() {
    let (ok, text) = python("check_bidi_vectors.py", &[&vectors()]);
    assert!(ok, "{text}");
    let total = count("grid-bidi", "BIDI-");
    assert!(total >= 28, "{total}");
    assert!(
        text.contains(&format!("{total} of {total} grid-bidi vectors match")),
        "{text}"
    );
}

/// Copies `family`'s vectors into a fresh directory, raises the first `"iterations": N` of
/// `id` by one and returns the checker's verdict on the copy.
fn damaged(script: &str, family: &str, id: &str) -> (bool, String) {
    let tmp = std::env::temp_dir().join(format!("onepath-{family}-vectors-{}", std::process::id()));
    std::fs::create_dir_all(tmp.join(family)).unwrap();
    for e in std::fs::read_dir(vectors().join(family)).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.join(family).join(p.file_name().unwrap())).unwrap();
    }
    let f = tmp.join(family).join(format!("{id}.json"));
    let text = std::fs::read_to_string(&f).unwrap();
    let key = "\"iterations\": ";
    let at = text.find(key).expect("a query with iterations") + key.len();
    let end = at + text[at..].find([',', '}']).unwrap();
    let n: u64 = text[at..end].trim().parse().unwrap();
    std::fs::write(&f, format!("{}{}{}", &text[..at], n + 1, &text[end..])).unwrap();
    let out = python(script, &[&tmp]);
    std::fs::remove_dir_all(&tmp).ok();
    out
}

#[test]
fn a_damaged_hpa_vector_is_named_with_its_query_and_field() {
    let (ok, out) = damaged("check_hpa_vectors.py", "hpa", "HPA-0002");
    assert!(!ok, "the damaged vector passed:\n{out}");
    assert!(
        out.contains("HPA-0002") && out.contains("iterations"),
        "{out}"
    );
}

#[test]
fn a_damaged_bidi_vector_is_named_with_its_query_and_field() {
    let (ok, out) = damaged("check_bidi_vectors.py", "grid-bidi", "BIDI-0001");
    assert!(!ok, "the damaged vector passed:\n{out}");
    assert!(
        out.contains("BIDI-0001") && out.contains("iterations"),
        "{out}"
    );
}
