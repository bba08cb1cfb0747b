//! The Python port's hex and voxel searches (conformance/ports/python/onepath_py/hex_search.py,
//! voxel_search.py, lattice_requests.py, written from spec/ alone) reproduce every committed
//! hex-search and voxel-search vector: per query the status, cost bits, algorithm, path, world
//! points, expansions and counters. A damaged vector is reported with its id, query and field.
mod tools;

use std::path::Path;
use tools::{count_vectors as count, vectors_dir as vectors};

fn check(root: &Path) -> (bool, String) {
    tools::run_port_script("check_lattice_vectors.py", &[root])
}

#[test]
fn python_port_matches_every_hex_and_voxel_vector() {
    let (ok, text) = check(&vectors());
    assert!(ok, "{text}");
    let total = count("hex-search", "HEX-") + count("voxel-search", "VOXEL-");
    assert!(total > 50, "{total}");
    let want = format!("{total} of {total} lattice vectors match");
    assert!(text.contains(&want), "{text}");
}

#[test]
fn a_damaged_hex_vector_is_named_with_its_query_and_field() {
    let tmp = std::env::temp_dir().join(format!("onepath-lattice-vectors-{}", std::process::id()));
    for dir in ["hex-search", "voxel-search"] {
        std::fs::create_dir_all(tmp.join(dir)).unwrap();
        for e in std::fs::read_dir(vectors().join(dir)).unwrap() {
            let p = e.unwrap().path();
            std::fs::copy(&p, tmp.join(dir).join(p.file_name().unwrap())).unwrap();
        }
    }
    // HEX-0013 (Dijkstra, weight 2): the first expected iteration count changed.
    let f = tmp.join("hex-search/HEX-0013.json");
    let text = std::fs::read_to_string(&f).unwrap();
    let key = "\"iterations\": ";
    let at = text.find(key).expect("a path with iterations") + key.len();
    let end = at + text[at..].find([',', '}']).unwrap();
    let n: u64 = text[at..end].trim().parse().unwrap();
    std::fs::write(&f, format!("{}{}{}", &text[..at], n + 1, &text[end..])).unwrap();
    let (ok, out) = check(&tmp);
    std::fs::remove_dir_all(&tmp).ok();
    assert!(!ok, "the damaged vector passed:\n{out}");
    assert!(
        out.contains("HEX-0013") && out.contains("query 0") && out.contains("iterations"),
        "{out}"
    );
}
