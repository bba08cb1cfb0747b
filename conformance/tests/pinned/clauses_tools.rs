//! Named checks of the clause tooling and the port-mutation judge that no vector can show: how the
//! kit reads a clause definition ([SPEC.CLAUSE.FORM]), where it finds citations
//! ([CONF.CLAUSES.SITES]), the members of `clauses --json` ([CONF.CLAUSES.REPORT]) and what counts
//! as a gap ([CONF.CLAUSES.GAPS]), on small made-up checkouts; and the certify run the
//! port-mutation judge gives each mutant ([CONF.PMUT.RUN]), watched by a fake kit.
//!
//! The made-up texts write a clause id as `<ID>` so that this file cites none of them; the brackets
//! go in when a text is written.

use crate::cli;

use cli::{run, scratch};
use onepath_conformance::clauses::{self, citations};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Writes `text` to `dir/rel` with `<` and `>` turned into `[` and `]`.
fn put(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text.replace('<', "[").replace('>', "]")).unwrap();
}

/// A serialised enum (provenance, site kind) as its JSON string.
fn name<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

/// The sixteen families of [SPEC.CLAUSE.FORM], spelled out from the spec (not the kit's list).
const SPEC_FAMILIES: [&str; 16] = [
    "GRAPH", "STATE", "GRID", "GS", "GBIDI", "HEX", "VOXEL", "HPA", "REPLAN", "FLOW", "DEBUG",
    "RECORD", "WORLD", "CONF", "DRIVER", "SPEC",
];

// pins [SPEC.CLAUSE.FORM] [SPEC.CLAUSE.INFORMATIVE]: a reader that takes a fenced or prose id, a
// lower-case or unknown-family id, misses one of the 16 families or mislabels a mark fails the
// exact clause list
#[test]
fn a_clause_is_a_list_item_of_a_known_family_outside_fences() {
    let dir = scratch("pinned-clauses", "form");
    put(&dir, "Cargo.toml", "[workspace]\n");
    put(&dir, "vectors/MANIFEST.json", "{}\n");
    let mut spec = String::from(
        "# Title\n\
         \n\
         - <GRAPH.FORM.UP> (upstream) one.\n\
         - <GRAPH.FORM.DEF> (defined: a reason) two.\n\
         - <GRAPH.FORM.INF> (defined: informative, it points elsewhere) three.\n\
         - <GRAPH.FORM.PTR> (informative) four.\n\
         Prose naming <GRAPH.FORM.PROSE> defines nothing.\n\
         ```\n\
         - <GRAPH.FORM.FENCED> (defined) inside a fence.\n\
         ```\n\
         - <graph.form.lower> (defined) not an id.\n\
         - <NOPE.FORM.FAMILY> (defined) not a family.\n\
         - <GRAPH.FORM.UPINF> (upstream; informative note) five.\n",
    );
    for f in SPEC_FAMILIES {
        spec.push_str(&format!("- <{f}.FORM.X> (defined: t) of {f}.\n"));
    }
    put(&dir, "spec/README.md", &spec);
    let r = clauses::report(&dir).unwrap();
    let got: Vec<(String, String, String)> = r
        .clauses
        .iter()
        .map(|c| (c.id.clone(), name(&c.provenance), c.defined_at.clone()))
        .collect();
    let mut want: Vec<(String, String, String)> = [
        ("GRAPH.FORM.UP", "upstream", 3),
        ("GRAPH.FORM.DEF", "defined", 4),
        ("GRAPH.FORM.INF", "informative", 5),
        ("GRAPH.FORM.PTR", "informative", 6),
        ("GRAPH.FORM.UPINF", "informative", 13),
    ]
    .iter()
    .map(|(id, p, l)| (id.to_string(), p.to_string(), format!("spec/README.md:{l}")))
    .collect();
    for (i, f) in SPEC_FAMILIES.iter().enumerate() {
        want.push((
            format!("{f}.FORM.X"),
            "defined".into(),
            format!("spec/README.md:{}", 14 + i),
        ));
    }
    assert_eq!(got, want);
    // [SPEC.CLAUSE.INFORMATIVE]: none of them is cited by code; only the behavioural ones are
    // `uncited` problems.
    let uncited: Vec<String> = r.problems().into_iter().map(|p| p.id).collect();
    let behavioural: Vec<String> = want
        .iter()
        .filter(|w| w.1 != "informative")
        .map(|w| w.0.clone())
        .collect();
    assert_eq!(uncited, behavioural);
}

// pins [CONF.CLAUSES.SITES]: a scanner that misses or mislabels one of the nine folders, counts a
// file outside them, the definition line itself, or a chapter id as a clause's citation fails the
// exact site list
#[test]
fn citations_are_read_from_the_listed_folders_with_their_kinds() {
    let dir = scratch("pinned-clauses", "sites");
    put(&dir, "Cargo.toml", "[workspace]\n");
    put(&dir, "vectors/MANIFEST.json", "{}\n");
    put(
        &dir,
        "spec/conformance.md",
        "- <GRAPH.SITE.ONE> (defined: t) one.\n- <GRAPH.SITE.TWO> (defined: t) two, after <GRAPH.SITE.ONE>.\n",
    );
    put(&dir, "reference/src/lib.rs", "//! Crate.\n/// <GRAPH.SITE.ONE>\npub fn f() {}\n/// <GRAPH.SITE> the chapter\npub fn g() {}\n");
    put(&dir, "optimized/src/a/b.rs", "\n\n// <GRAPH.SITE.ONE>\n");
    put(&dir, "conformance/src/x.rs", "// <GRAPH.SITE.ONE>\n");
    put(&dir, "conformance/tests/t.rs", "\n// <GRAPH.SITE.ONE>\n");
    put(&dir, "conformance/tests/helper.py", "# <GRAPH.SITE.ONE>\n");
    put(&dir, "reference/tests/r.rs", "// <GRAPH.SITE.ONE>\n");
    put(&dir, "optimized/tests/o.rs", "// <GRAPH.SITE.ONE>\n");
    put(
        &dir,
        "conformance/ports/python/onepath_py/m.py",
        "\"\"\"<GRAPH.SITE.ONE>\"\"\"\n",
    );
    put(
        &dir,
        "conformance/ports/mutants/j.py",
        "# <GRAPH.SITE.ONE>\n",
    );
    put(
        &dir,
        "vectors/graphs/V-1.json",
        "{\"_comment\":\"<GRAPH.SITE.ONE>\"}\n",
    );
    // Outside the listed folders: no citation.
    put(&dir, "scripts/s.py", "# <GRAPH.SITE.ONE>\n");
    put(&dir, "benches/b.rs", "// <GRAPH.SITE.ONE>\n");
    put(&dir, "conformance/examples/e.rs", "// <GRAPH.SITE.ONE>\n");
    put(&dir, "README.md", "<GRAPH.SITE.ONE>\n");
    let sites = citations::read_citations(&dir).unwrap();
    let one: Vec<(String, String, usize)> = sites["GRAPH.SITE.ONE"]
        .iter()
        .map(|s| (name(&s.kind), s.file.clone(), s.line))
        .collect();
    let want: Vec<(String, String, usize)> = [
        ("reference", "reference/src/lib.rs", 2),
        ("optimized", "optimized/src/a/b.rs", 3),
        ("harness", "conformance/src/x.rs", 1),
        ("test", "conformance/tests/helper.py", 1),
        ("test", "conformance/tests/t.rs", 2),
        ("test", "optimized/tests/o.rs", 1),
        ("test", "reference/tests/r.rs", 1),
        ("python_port", "conformance/ports/python/onepath_py/m.py", 1),
        ("tool", "conformance/ports/mutants/j.py", 1),
        ("vector", "vectors/graphs/V-1.json", 1),
        ("spec", "spec/conformance.md", 2),
    ]
    .iter()
    .map(|(k, f, l)| (k.to_string(), f.to_string(), *l))
    .collect();
    assert_eq!(one, want);
    // The chapter id names the chapter only; TWO's own definition line is no citation.
    assert_eq!(sites["GRAPH.SITE"].len(), 1);
    assert!(!sites.contains_key("GRAPH.SITE.TWO"), "{sites:?}");
    // The first six kinds are code: the report's `code` holds them, `vectors` the vector file.
    let r = clauses::report(&dir).unwrap();
    let e = r.clauses.iter().find(|c| c.id == "GRAPH.SITE.ONE").unwrap();
    assert_eq!(e.code.len(), 9, "{:?}", e.code);
    assert!(e.code.iter().all(|s| s.kind.is_code()));
    assert_eq!(e.vectors, vec!["graphs/V-1.json"]);
}

/// A made-up checkout for the report: ONE is cited by a vector, TWO pinned by a caught mutant,
/// THREE informative, FOUR cited by the harness only, FIVE cited by a crate and pinned by nothing
/// (its mutants: two missed, a timeout, an unviable; a module-cited catch does not count), SIX
/// pinned by a named check, SEVEN caught only by a vector that is gone, EIGHT cited by nothing;
/// NINE is cited but not defined, and the chapter id is not an undefined id.
fn report_checkout(test: &str) -> PathBuf {
    let dir = scratch("pinned-clauses", test);
    put(&dir, "Cargo.toml", "[workspace]\n");
    put(&dir, "vectors/MANIFEST.json", "{}\n");
    put(
        &dir,
        "spec/conformance.md",
        "- <GRAPH.REP.ONE> (defined: t) one.\n\
         - <GRAPH.REP.TWO> (upstream) two.\n\
         - <GRAPH.REP.THREE> (informative) three.\n\
         - <GRAPH.REP.FOUR> (defined: t) four.\n\
         - <GRAPH.REP.FIVE> (defined: t) five.\n\
         - <GRAPH.REP.SIX> (defined: t) six.\n\
         - <GRAPH.REP.SEVEN> (defined: t) seven.\n\
         - <GRAPH.REP.EIGHT> (defined: t) eight.\n",
    );
    put(
        &dir,
        "reference/src/lib.rs",
        "//! Crate.\n\n/// <GRAPH.REP.ONE> <GRAPH.REP.TWO> <GRAPH.REP.THREE>\npub fn f() {}\n\
         /// <GRAPH.REP.FIVE> <GRAPH.REP.SIX> <GRAPH.REP.SEVEN> <GRAPH.REP.NINE> <GRAPH.REP>\npub fn g() {}\n",
    );
    put(&dir, "conformance/src/lib.rs", "/// <GRAPH.REP.FOUR>\n");
    put(
        &dir,
        "optimized/tests/api.rs",
        "// pins <GRAPH.REP.SIX>: a panic fails it\n#[test]\nfn six_pinned() {}\n",
    );
    put(
        &dir,
        "vectors/graphs/V-1.json",
        "{\"_comment\":\"<GRAPH.REP.ONE>\"}\n",
    );
    put(&dir, "vectors/graphs/V-2.json", "{\"_comment\":\"x\"}\n");
    let m = |name: &str,
             line: u32,
             outcome: &str,
             cited_by: &str,
             ids: &[&str],
             caught_by: &[&str],
             checks: Value| {
        json!({"name": format!("reference/src/lib.rs:{line}:{name}"), "file": "reference/src/lib.rs",
               "line": line, "function": "f", "outcome": outcome, "cited_by": cited_by,
               "clauses": ids, "caught_by": caught_by, "checks": checks})
    };
    let summary = json!({"schema": "onepath.mutants", "version": 1, "package": "onepath-reference",
        "cargo_mutants_version": "27.1.0", "selection": "all", "mutants": [
        m("14: replace f with ()", 4, "caught", "item", &["GRAPH.REP.ONE", "GRAPH.REP.TWO"], &["graphs/V-2.json"], Value::Null),
        m("15: replace f with g", 4, "missed", "item", &["GRAPH.REP.ONE"], &[], json!("caught")),
        m("14: replace g with ()", 6, "missed", "item", &["GRAPH.REP.FIVE"], &[], json!("missed")),
        m("15: replace g with h", 6, "missed", "item", &["GRAPH.REP.FIVE"], &[], Value::Null),
        m("16: replace g with i", 6, "timeout", "item", &["GRAPH.REP.FIVE"], &[], Value::Null),
        m("17: replace g with j", 6, "unviable", "item", &["GRAPH.REP.FIVE"], &[], Value::Null),
        m("18: replace g with k", 6, "caught", "item", &["GRAPH.REP.SEVEN"], &["graphs/V-9.json"], Value::Null),
        m("19: replace g with l", 6, "caught", "module", &["GRAPH.REP.FIVE"], &["graphs/V-1.json"], Value::Null),
        m("20: replace g with m", 6, "missed", "none", &[], &[], Value::Null),
    ]});
    put(
        &dir,
        "mutants/onepath-reference.json",
        &serde_json::to_string_pretty(&summary).unwrap(),
    );
    dir
}

// pins [CONF.CLAUSES.REPORT]: a report that drops, renames or miscomputes a member (spec order,
// provenance, sites, vectors, caught_by(_gone), checks, mutant counts, survivor suffixes, runs,
// undefined) fails the object's equality
#[test]
fn the_clause_report_json_has_every_member() {
    let dir = report_checkout("report");
    let (code, out, err) = run(&["clauses", "--json", "--root", dir.to_str().unwrap()]);
    assert_eq!(code, 1, "FOUR, FIVE, SEVEN and EIGHT are problems:\n{err}");
    let got: Value = serde_json::from_str(&out).unwrap();
    let at = |l: u32| format!("spec/conformance.md:{l}");
    let lib = |kind: &str, file: &str, line: u32| json!({"kind": kind, "file": file, "line": line});
    let counts = |c: u32, m: u32, t: u32, u: u32| json!({"caught": c, "missed": m, "timeout": t, "unviable": u});
    let entry = |id: &str, prov: &str, line: u32, code: Value| {
        json!({"id": format!("GRAPH.REP.{id}"), "provenance": prov, "defined_at": at(line),
               "code": code, "vectors": [], "caught_by": [], "caught_by_gone": [], "checks": [],
               "mutants": counts(0, 0, 0, 0), "survivors": []})
    };
    let f_site = json!([lib("reference", "reference/src/lib.rs", 3)]);
    let g_site = json!([lib("reference", "reference/src/lib.rs", 5)]);
    let mut one = entry("ONE", "defined", 1, f_site.clone());
    one["vectors"] = json!(["graphs/V-1.json"]);
    one["caught_by"] = json!(["graphs/V-2.json"]);
    one["mutants"] = counts(1, 1, 0, 0);
    one["survivors"] =
        json!(["reference/src/lib.rs:4:15: replace f with g (caught by the checks)"]);
    let mut two = entry("TWO", "upstream", 2, f_site.clone());
    two["caught_by"] = json!(["graphs/V-2.json"]);
    two["mutants"] = counts(1, 0, 0, 0);
    let three = entry("THREE", "informative", 3, f_site);
    let four = entry(
        "FOUR",
        "defined",
        4,
        json!([lib("harness", "conformance/src/lib.rs", 1)]),
    );
    let mut five = entry("FIVE", "defined", 5, g_site.clone());
    five["mutants"] = counts(0, 2, 1, 1);
    five["survivors"] = json!([
        "reference/src/lib.rs:6:14: replace g with () (missed by the checks too)",
        "reference/src/lib.rs:6:15: replace g with h"
    ]);
    let mut six = entry(
        "SIX",
        "defined",
        6,
        json!([
            lib("reference", "reference/src/lib.rs", 5),
            lib("test", "optimized/tests/api.rs", 1)
        ]),
    );
    six["checks"] = json!([{"file": "optimized/tests/api.rs", "line": 1, "test": "six_pinned",
                            "why": "a panic fails it"}]);
    let mut seven = entry("SEVEN", "defined", 7, g_site);
    seven["caught_by_gone"] = json!(["graphs/V-9.json"]);
    seven["mutants"] = counts(1, 0, 0, 0);
    let eight = entry("EIGHT", "defined", 8, json!([]));
    let want = json!({
        "schema": "onepath.clauses", "version": 3,
        "clauses": [one, two, three, four, five, six, seven, eight],
        "mutant_runs": [{"package": "onepath-reference", "selection": "all",
                         "counts": counts(3, 4, 1, 1), "uncited_items": 1}],
        "undefined": ["GRAPH.REP.NINE"],
        "problems": [
            {"id": "GRAPH.REP.FOUR", "problem": "unpinned", "defined_at": at(4)},
            {"id": "GRAPH.REP.FIVE", "problem": "unpinned", "defined_at": at(5)},
            {"id": "GRAPH.REP.SEVEN", "problem": "lost_vector", "defined_at": at(7)},
            {"id": "GRAPH.REP.EIGHT", "problem": "uncited", "defined_at": at(8)}
        ],
        "gaps": ["GRAPH.REP.FIVE", "GRAPH.REP.SEVEN"]
    });
    assert_eq!(
        got,
        want,
        "got:\n{}",
        serde_json::to_string_pretty(&got).unwrap()
    );
}

// pins [CONF.CLAUSES.GAPS]: counting an informative, harness-only, vector-cited, mutant-pinned or
// check-pinned clause as a gap, or a vector that is gone as a pin, changes the exact gap list
#[test]
fn a_gap_is_crate_cited_behaviour_that_nothing_committed_pins() {
    let dir = report_checkout("gaps");
    let r = clauses::report(&dir).unwrap();
    let gaps: Vec<&str> = r.gaps().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(gaps, vec!["GRAPH.REP.FIVE", "GRAPH.REP.SEVEN"]);
    let (_, out, _) = run(&["clauses", "--root", dir.to_str().unwrap()]);
    assert!(out.contains("\n2 gap(s): "), "{out}");
    for (id, line) in [("GRAPH.REP.FIVE", 5), ("GRAPH.REP.SEVEN", 7)] {
        let listed = format!("\n  [{id}]  spec/conformance.md:{line}\n");
        assert!(out.contains(&listed), "{listed} in:\n{out}");
    }
    // A committed vector that cites FIVE lifts it out of the gaps; SEVEN stays until one does.
    put(
        &dir,
        "vectors/graphs/V-3.json",
        "{\"_comment\":\"<GRAPH.REP.FIVE>\"}\n",
    );
    let r = clauses::report(&dir).unwrap();
    let gaps: Vec<&str> = r.gaps().iter().map(|e| e.id.as_str()).collect();
    assert_eq!(gaps, vec!["GRAPH.REP.SEVEN"]);
}

/// The fake kit of the [CONF.PMUT.RUN] check: answers `--version` and `certify --help` (naming
/// `--family`, `--heartbeat` and `--fail-fast`), and for each certify run logs its own path, the
/// arguments, which of the port's defect variables it sees, the files of the port copy it was
/// given and the MANIFEST of the vectors folder it was given; it fails (a readable report) when
/// the copy's `m.py` is not the original.
const FAKE_KIT: &str = r#"
import json, os, sys
args = sys.argv[1:]
if args == ["--version"]:
    print("onepath-conformance 0.0.0-fake")
    sys.exit(0)
if args[:2] == ["certify", "--help"]:
    print("--port <PORT> --family <F> --heartbeat <S> --fail-fast --threads <N>")
    sys.exit(0)
copy = os.path.dirname(args[args.index("--port") + 1].split(" ", 1)[1])
files = {}
for root, dirs, names in os.walk(copy):
    for n in names:
        p = os.path.join(root, n)
        with open(p, encoding="utf-8") as f:
            files[os.path.relpath(p, copy)] = f.read()
with open(os.path.join(args[args.index("--vectors") + 1], "MANIFEST.json"), encoding="utf-8") as f:
    manifest = f.read()
env = [k for k in ("ONEPATH_PY_DEFECT", "ONEPATH_PY_CLAIMS") if k in os.environ]
with open(os.environ["FAKE_KIT_LOG"], "a") as f:
    f.write(json.dumps({"kit": os.path.abspath(sys.argv[0]), "args": args, "copy": copy,
                        "files": files, "manifest": manifest, "env": env}) + "\n")
if files.get(os.path.join("onepath_py", "m.py")) == "def value(x):\n    return x\n":
    sys.exit(0)
print(json.dumps({"schema": "onepath.certify-report", "sections": [
    {"name": "vectors", "failed": 1, "failures": [{"vector": "GRAPH-0001", "case": None,
     "what": "w", "expected": "1", "found": "2", "implementation": "onepath_py"}]}],
    "port": {"families": []}}))
sys.exit(1)
"#;

// pins [CONF.PMUT.RUN]: a judge that certifies the port in place or with a stale __pycache__,
// changes another file, passes other certify flags, runs the original kit or vectors/, or keeps
// ONEPATH_PY_* fails the logged calls
#[test]
fn each_mutant_is_certified_in_a_fresh_copy_with_snapshots_of_kit_and_vectors() {
    let dir = scratch("pinned-clauses", "pmut-run");
    let port = dir.join("port");
    put(&port, "driver.py", "from onepath_py import m  # noqa\n");
    put(&port, "onepath_py/__init__.py", "");
    put(&port, "onepath_py/m.py", "def value(x):\n    return x\n");
    put(&port, "onepath_py/__pycache__/m.cpython-311.pyc", "stale");
    let kit = dir.join("fake-kit");
    std::fs::write(&kit, format!("#!/usr/bin/env python3\n{FAKE_KIT}")).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&kit, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let log = dir.join("log");
    let out = dir.join("report.json");
    let judge = Path::new(env!("CARGO_MANIFEST_DIR")).join("ports/mutants/port_mutants.py");
    let result = Command::new("python3")
        .arg("-B")
        .arg(&judge)
        .args([
            "run",
            "--kit",
            kit.to_str().unwrap(),
            "--port",
            port.to_str().unwrap(),
        ])
        .arg("--json")
        .arg(&out)
        .env("FAKE_KIT_LOG", &log)
        .env("ONEPATH_PY_DEFECT", "1")
        .env("ONEPATH_PY_CLAIMS", "graph=L1")
        .output()
        .expect("python3 runs the judge");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&result.stdout),
        String::from_utf8_lossy(&result.stderr)
    );
    assert_eq!(result.status.code(), Some(0), "{text}");
    let report: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let outcomes: Vec<&str> = report["mutants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, vec!["caught"], "{text}");
    let calls: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(calls.len(), 2, "the baseline and the one mutant: {calls:?}");
    let repo_vectors = Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors");
    let manifest = std::fs::read_to_string(repo_vectors.join("MANIFEST.json")).unwrap();
    let real = |p: &Path| std::fs::canonicalize(p).unwrap();
    for (i, call) in calls.iter().enumerate() {
        let args: Vec<&str> = call["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let copy = call["copy"].as_str().unwrap();
        let vectors = args[args.iter().position(|a| *a == "--vectors").unwrap() + 1];
        let driver = format!("python3 {copy}/driver.py");
        let want = vec![
            "certify",
            "--port",
            &driver,
            "--json",
            "--port-cases",
            "5",
            "--timeout",
            "30",
            "--threads",
            "1",
            "--vectors",
            vectors,
            "--heartbeat",
            "0",
            "--fail-fast",
        ];
        assert_eq!(args, want, "call {i}");
        // A copy of the port, not the port; of the kit, not the kit; of vectors/, not vectors/.
        assert_ne!(Path::new(copy), port.as_path());
        assert!(!copy.starts_with(port.to_str().unwrap()), "{copy}");
        let kit_used = call["kit"].as_str().unwrap();
        assert_ne!(Path::new(kit_used), kit.as_path(), "the kit ran in place");
        assert_ne!(
            Path::new(kit_used),
            real(&kit).as_path(),
            "the kit ran in place"
        );
        assert!(kit_used.ends_with("/fake-kit"), "{kit_used}");
        assert_ne!(
            std::fs::canonicalize(vectors).ok(),
            Some(real(&repo_vectors)),
            "the kit read vectors/ in place"
        );
        assert!(
            !vectors.starts_with(real(&repo_vectors).to_str().unwrap()),
            "{vectors}"
        );
        assert_eq!(
            call["manifest"].as_str().unwrap(),
            manifest,
            "the vectors copy"
        );
        assert_eq!(call["env"], json!([]), "ONEPATH_PY_* reached the kit");
        let m_py = if i == 0 {
            "def value(x):\n    return x\n"
        } else {
            "def value(x):\n    return None\n"
        };
        assert_eq!(
            call["files"],
            json!({"driver.py": "from onepath_py import m  # noqa\n",
                   "onepath_py/__init__.py": "", "onepath_py/m.py": m_py}),
            "call {i}: only the mutated file differs, no __pycache__"
        );
    }
    assert_ne!(calls[0]["copy"], calls[1]["copy"], "a fresh copy per run");
}
