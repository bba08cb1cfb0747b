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

// pins [CONF.VEC.IDS]: a recipe changed, renumbered or reused regenerates another file under an
// existing GRAPH id, which check_dir reports stale, so the committed set must match
// pins [CONF.STATE.IDS]: a kit that renumbers, reuses or regenerates a STATE id (other list order,
// changed recipe, other kind tag) writes other state files than the committed ones, which check_dir
// names stale
// pins [CONF.STATE.HOSTILE]: a kit that numbers hostile cases otherwise, keeps an accepted
// mutation, or derives other edits or expected results writes other hostile files than the
// committed ones: named stale
// pins [CONF.STATE.MUTATIONS]: a mutation list in another order, with a family dropped, changed or
// inserted before an older one, derives other hostile files than the committed ones, which
// check_dir names stale
// pins [CONF.STATE.GRID_SEARCH]: replaying a grid_search recipe otherwise (grid edits, options,
// begin/step/run order) or a hostile family changed changes the regenerated state files, which
// check_dir names stale
// pins [CONF.STATE.REPLANNER]: replaying a replanner recipe otherwise (script, save, restore,
// finish) or deriving another replanner hostile family changes the regenerated state files, which
// check_dir names stale
// pins [CONF.STATE.FLOW_FIELD]: building the flow-field search part otherwise (status, settled,
// cost-hash bits, probe path) or another flow hostile family changes the regenerated state files,
// named stale by check_dir
// pins [CONF.GRID.VECTOR]: a kit that builds a grid vector's map, queries or run list otherwise, or
// records another expected reply or hash, regenerates files unlike the committed GRID-*.json
// pins [CONF.GRID.MATRIX]: a matrix over other columns, other queries (query 3 included) or another
// concatenation regenerates a matrix.json unlike the committed one
// pins [CONF.REPLAN.VECTOR]: a kit whose REPLAN vector list, requests or expected replies drift
// from the committed REPLAN-*.json (a case dropped, renumbered or built otherwise) fails the
// regeneration compare
// pins [CONF.FLOW.VECTOR]: a kit whose FLOW vector list, requests or expected replies drift from
// the committed FLOW-*.json (a case dropped, renumbered or built otherwise) fails the regeneration
// compare
#[test]
fn committed_vectors_are_current() {
    let problems = check_dir(&default_vectors_dir(), &ReferenceCrate);
    assert!(
        problems.is_empty(),
        "stale vectors (run `cargo run --release -p onepath-conformance -- vectors`):\n{}",
        problems.join("\n")
    );
}

// pins [CONF.VEC.SOURCE]: two generations from the reference must give byte-identical files; any
// nondeterminism (hash order, clock, thread order) in generation fails
#[test]
fn generation_is_deterministic() {
    assert_eq!(
        generate_files(&ReferenceCrate),
        generate_files(&ReferenceCrate)
    );
}

// pins [CONF.VEC.CHECK]: a one-byte edit of a copied vector must be named both stale against
// generation and as differing from the manifest's SHA-256, and the regenerated copy must check
// clean
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
