//! `vectors --check` passes on the committed vectors, regeneration is deterministic, and a
//! one-byte edit of a copy is caught and named.

use onepath_conformance::checks::default_vectors_dir;
use onepath_conformance::family::{check_dir, generate_files};
use onepath_conformance::vectors::{list_files, write_files};
use onepath_conformance::ReferenceCrate;
use std::path::PathBuf;

fn temp_copy(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onepath-vectors-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let src = default_vectors_dir();
    for rel in list_files(&src).unwrap() {
        let to = dir.join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(src.join(&rel), to).unwrap();
    }
    dir
}

#[test]
fn committed_vectors_are_current() {
    let problems = check_dir(&default_vectors_dir(), &ReferenceCrate);
    assert!(
        problems.is_empty(),
        "stale vectors (run `cargo run --release -p onepath-conformance -- vectors`):\n{}",
        problems.join("\n")
    );
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(
        generate_files(&ReferenceCrate),
        generate_files(&ReferenceCrate)
    );
}

#[test]
fn one_edited_byte_is_named() {
    let dir = temp_copy("edit");
    let victim = dir.join("graphs/GRAPH-0003.json");
    let mut bytes = std::fs::read(&victim).unwrap();
    let at = bytes.iter().position(|&b| b == b'7' || b == b'3').unwrap();
    bytes[at] = if bytes[at] == b'7' { b'8' } else { b'4' };
    std::fs::write(&victim, &bytes).unwrap();
    let problems = check_dir(&dir, &ReferenceCrate);
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("graphs/GRAPH-0003.json: stale")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("graphs/GRAPH-0003.json: SHA-256")),
        "{problems:?}"
    );
    // Regenerating the copy repairs it.
    write_files(&dir, &generate_files(&ReferenceCrate)).unwrap();
    assert!(check_dir(&dir, &ReferenceCrate).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn extra_and_missing_files_are_named() {
    let dir = temp_copy("extra");
    std::fs::write(dir.join("graphs/GRAPH-9999.json"), b"{}").unwrap();
    std::fs::remove_file(dir.join("graphs/GRAPH-0005.json")).unwrap();
    let problems = check_dir(&dir, &ReferenceCrate);
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("graphs/GRAPH-9999.json: unexpected")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("graphs/GRAPH-0005.json: missing")),
        "{problems:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
