//! The clause report ([CONF.CLAUSES.CHECK]) on this checkout, and on small made-up checkouts that
//! show each problem is found: an uncited behavioural clause, a clause that lost its last vector,
//! and the import of cargo-mutants output ([CONF.MUTANTS.SUMMARY]).

mod cli;

use cli::{run, scratch};
use onepath_conformance::clauses::{self, report};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The unpinned clauses no vector or test can reach, each with why: the report still lists them
/// as problems, and this test fails when one is pinned (so the list cannot outlive its reason).
const UNREACHABLE: [(&str, &str); 1] = [(
    "GRAPH.CSR.EDGE_LIMIT",
    "needs more than 2^32 - 1 edges in one graph (tens of GiB); both crates hard-code the limit",
)];

#[test]
fn this_checkout_has_no_clause_problem() {
    let r = report(&root()).unwrap();
    assert!(r.clauses.len() > 300, "only {} clauses", r.clauses.len());
    let mut unreachable_seen = Vec::new();
    let problems: Vec<String> = r
        .problems()
        .iter()
        .filter(|p| {
            let known = p.problem == "unpinned" && UNREACHABLE.iter().any(|(id, _)| *id == p.id);
            if known {
                unreachable_seen.push(p.id.clone());
            }
            !known
        })
        .map(|p| format!("{} [{}] {}", p.problem, p.id, p.defined_at))
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(
        unreachable_seen,
        UNREACHABLE
            .iter()
            .map(|(id, _)| id.to_string())
            .collect::<Vec<_>>(),
        "a clause listed as unreachable is pinned now: take it off the list"
    );
    assert!(
        r.undefined.is_empty(),
        "cited, not defined: {:?}",
        r.undefined
    );
    // Every family is covered, GS included.
    for family in clauses::spec_index::FAMILIES {
        assert!(
            r.clauses
                .iter()
                .any(|c| c.id.starts_with(&format!("{family}."))),
            "no clause of {family}"
        );
    }
}

/// Writes `text` with the made-up ids `[G.TEST.*]` spelled `[GRAPH.TEST.*]` (so that this file
/// itself cites no undefined id).
fn put(dir: &Path, rel: &str, text: &str) {
    let text = text.replace("[G.TEST.", "[GRAPH.TEST.");
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A made-up checkout: clause ONE is cited by a vector, TWO is pinned by a mutant caught by
/// `graphs/V-2.json`, THREE is informative, FOUR is cited by no code unless `cite_four`.
fn tiny_checkout(test: &str, cite_four: bool) -> PathBuf {
    let dir = scratch("clauses", test);
    put(&dir, "Cargo.toml", "[workspace]\n");
    put(&dir, "vectors/MANIFEST.json", "{}\n");
    put(
        &dir,
        "spec/conformance.md",
        "- [G.TEST.ONE] (defined: t) one.\n- [G.TEST.TWO] (upstream) two.\n\
         - [G.TEST.THREE] (informative) three.\n- [G.TEST.FOUR] (defined: t) four.\n",
    );
    let four = if cite_four { " [G.TEST.FOUR]" } else { "" };
    put(
        &dir,
        "reference/src/lib.rs",
        &format!("//! Crate.\n\n/// [G.TEST.ONE] [G.TEST.TWO]{four}\npub fn f() {{}}\n"),
    );
    put(
        &dir,
        "vectors/graphs/V-1.json",
        "{\"_comment\":\"pins [G.TEST.ONE]\"}\n",
    );
    put(&dir, "vectors/graphs/V-2.json", "{\"_comment\":\"x\"}\n");
    put(
        &dir,
        "mutants/onepath-reference.json",
        r#"{"schema":"onepath.mutants","version":1,"package":"onepath-reference",
  "cargo_mutants_version":"27.1.0","selection":"all","mutants":[
  {"name":"reference/src/lib.rs:4:14: replace f with ()","file":"reference/src/lib.rs","line":4,
   "function":"f","outcome":"caught","cited_by":"item","clauses":["GRAPH.TEST.TWO"],
   "caught_by":["graphs/V-2.json"],"checks":null},
  {"name":"reference/src/lib.rs:4:15: replace f with g","file":"reference/src/lib.rs","line":4,
   "function":"f","outcome":"missed","cited_by":"item","clauses":["GRAPH.TEST.ONE"],
   "caught_by":[],"checks":"caught"}]}"#,
    );
    dir
}

fn problems(dir: &Path) -> Vec<(String, String)> {
    report(dir)
        .unwrap()
        .problems()
        .into_iter()
        .map(|p| (p.problem, p.id))
        .collect()
}

// pins [CONF.CLAUSES.CHECK]: a made-up clause that no code cites must be `uncited` and one that
// code cites but nothing pins `unpinned`, each failing the command with exit 1, until a pins line
// clears it
// pins [CONF.CLI.CLAUSES]: `clauses --root DIR` must exit 1 on a checkout with a problem, naming
// it, and 0 once none is left; `a_bad_mutants_summary_is_named` shows exit 2
#[test]
fn an_uncited_or_unpinned_behavioural_clause_is_a_problem() {
    let dir = tiny_checkout("uncited", false);
    assert_eq!(
        problems(&dir),
        vec![("uncited".to_string(), "GRAPH.TEST.FOUR".to_string())]
    );
    let (code, out, _) = run(&["clauses", "--root", dir.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("uncited    [{}]", "GRAPH.TEST.FOUR")),
        "{out}"
    );
    let cited = tiny_checkout("cited", true);
    // FOUR is implemented but pinned by nothing: unpinned, and a gap of the crates.
    assert_eq!(
        problems(&cited),
        vec![("unpinned".to_string(), "GRAPH.TEST.FOUR".to_string())]
    );
    let (code, out, _) = run(&["clauses", "--root", cited.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(&format!("unpinned   [{}]", "GRAPH.TEST.FOUR")),
        "{out}"
    );
    assert!(
        out.contains("1 gap(s)") && out.contains("GRAPH.TEST.FOUR"),
        "{out}"
    );
    assert!(out.contains("1 caught, 1 missed"), "{out}");
    put(
        &cited,
        "reference/tests/four.rs",
        "// pins [G.TEST.FOUR]: four's result is asserted\n#[test]\nfn four_holds() {}\n",
    );
    assert_eq!(problems(&cited), vec![]);
    let (code, out, _) = run(&["clauses", "--root", cited.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("0 problem(s)") && out.contains("0 gap(s)"),
        "{out}"
    );
}

#[test]
fn a_clause_that_loses_its_last_vector_is_a_problem() {
    let dir = tiny_checkout("lost", true);
    let r = report(&dir).unwrap();
    let two = r.clauses.iter().find(|c| c.id == "GRAPH.TEST.TWO").unwrap();
    assert_eq!(two.caught_by, vec!["graphs/V-2.json"]);
    let one = r.clauses.iter().find(|c| c.id == "GRAPH.TEST.ONE").unwrap();
    assert_eq!(one.vectors, vec!["graphs/V-1.json"]);
    assert_eq!(one.survivors.len(), 1);
    assert!(
        one.survivors[0].ends_with("(caught by the checks)"),
        "{:?}",
        one.survivors
    );
    std::fs::remove_file(dir.join("vectors/graphs/V-2.json")).unwrap();
    assert_eq!(
        problems(&dir),
        vec![
            ("lost_vector".to_string(), "GRAPH.TEST.TWO".to_string()),
            ("unpinned".to_string(), "GRAPH.TEST.FOUR".to_string())
        ]
    );
    let (code, out, _) = run(&["clauses", "--json", "--root", dir.to_str().unwrap()]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], "onepath.clauses");
    assert_eq!(v["version"], 3);
    assert_eq!(v["problems"][0]["problem"], "lost_vector");
    assert_eq!(v["clauses"][1]["caught_by_gone"][0], "graphs/V-2.json");
}

#[test]
fn a_bad_mutants_summary_is_named() {
    let dir = tiny_checkout("badsummary", true);
    put(
        &dir,
        "mutants/onepath-reference.json",
        r#"{"schema":"onepath.mutants","version":2,"mutants":[]}"#,
    );
    let err = report(&dir).unwrap_err();
    assert_eq!(err.class(), clauses::ClauseErrorClass::Mutants);
    assert!(
        err.to_string()
            .contains("onepath-reference.json: version Some(2)"),
        "{err}"
    );
    let (code, _, err) = run(&["clauses", "--root", dir.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
}

// pins [CONF.MUTANTS.SUMMARY]: an import that takes clauses from elsewhere than the item's doc
// comment, keeps MANIFEST.json in caught_by, or writes a summary its strict reader refuses fails
// the exact values
#[test]
fn import_reads_clauses_and_catching_vectors() {
    let dir = tiny_checkout("import", true);
    let out = dir.join("run/mutants.out");
    put(
        &out,
        "outcomes.json",
        r#"{"outcomes":[{"scenario":"Baseline","summary":"Success","log_path":null},
  {"scenario":{"Mutant":{"name":"reference/src/lib.rs:4:14: replace f with ()","package":"onepath-reference",
   "file":"reference/src/lib.rs","function":{"function_name":"f","span":{"start":{"line":3,"column":1}}},
   "span":{"start":{"line":4,"column":14}}}},"summary":"CaughtMutant","log_path":"log/f.log"}],
  "cargo_mutants_version":"27.1.0"}"#,
    );
    put(
        &out,
        "log/f.log",
        "MANIFEST.json: stale (differs)\ngraphs/V-2.json: stale (differs)\n",
    );
    let summary = clauses::import(&dir, &[&dir.join("run")], &[], "all").unwrap();
    assert_eq!(summary.mutants.len(), 1);
    let m = &summary.mutants[0];
    assert_eq!(
        m.clauses,
        vec!["GRAPH.TEST.FOUR", "GRAPH.TEST.ONE", "GRAPH.TEST.TWO"]
    );
    assert_eq!(m.caught_by, vec!["graphs/V-2.json"]);
    let file = dir.join("summary.json");
    let (code, stdout, stderr) = run(&[
        "clauses",
        "--root",
        dir.to_str().unwrap(),
        "import-mutants",
        dir.join("run").to_str().unwrap(),
        "--selection",
        "all",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("wrote 1 mutants of onepath-reference"),
        "{stdout}"
    );
    assert_eq!(
        clauses::MutantsSummary::read(&file).unwrap(),
        summary,
        "the written summary reads back"
    );
    // Foreign input is named.
    put(&out, "outcomes.json", "{\"x\":1}");
    let err = clauses::import(&dir, &[&dir.join("run")], &[], "all").unwrap_err();
    assert!(
        err.to_string()
            .contains("outcomes.json: not cargo-mutants output"),
        "{err}"
    );
}

// pins [CONF.CLAUSES.PINS]: a made-up pins line must lift its clause out of the gaps, and a
// malformed one must make the report fail naming file and line
#[test]
fn a_named_check_pins_a_gap_and_a_bad_pins_line_is_named() {
    let dir = tiny_checkout("named_check", true);
    let gap_before = report(&dir)
        .unwrap()
        .gaps()
        .iter()
        .map(|e| e.id.clone())
        .collect::<Vec<_>>();
    assert!(
        gap_before.contains(&"GRAPH.TEST.FOUR".to_string()),
        "{gap_before:?}"
    );
    put(
        &dir,
        "optimized/tests/api.rs",
        "// pins [G.TEST.FOUR]: a panic fails it\n#[test]\nfn four_never_panics() {}\n",
    );
    let r = report(&dir).unwrap();
    let four = r
        .clauses
        .iter()
        .find(|e| e.id == "GRAPH.TEST.FOUR")
        .unwrap();
    assert_eq!(four.checks.len(), 1);
    assert_eq!(four.checks[0].test, "four_never_panics");
    assert_eq!(four.checks[0].file, "optimized/tests/api.rs");
    assert!(!r.gaps().iter().any(|e| e.id == "GRAPH.TEST.FOUR"));
    assert!(r.to_json().contains("\"four_never_panics\""));
    put(
        &dir,
        "optimized/tests/api.rs",
        "fn x() {}\n// pins [G.TEST.FOUR]: why\nfn helper() {}\n",
    );
    let e = report(&dir).unwrap_err().to_string();
    assert!(e.starts_with("optimized/tests/api.rs: line 2: "), "{e}");
}
