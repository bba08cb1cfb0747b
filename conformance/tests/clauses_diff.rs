//! The clause index and `clauses diff` ([CONF.CLAUSES.INDEX], [CONF.CLAUSES.DIFF]): what counts as
//! a clause's text, the three kinds of change, git revisions and index files as inputs, and the
//! strict index reader.

mod cli;

use cli::{run, scratch, write};
use onepath_conformance::clauses::diff::diff;
use onepath_conformance::clauses::index::ClauseIndex;
use std::path::{Path, PathBuf};
use std::process::Command;

const OLD: &str = "# Old\n\n\
- {CONF.A.ONE} (upstream) One rule.\n\
- {CONF.A.TWO} (defined: why) Two rules:\n  - the first;\n  - the second.\n\
- {CONF.A.GONE} (defined) Retired later.\n\
- {CONF.A.MARK} (defined) Same words, new mark.\n\
\nA paragraph after the list.\n";

const NEW: &str = "# New\n\n\
- {CONF.A.ONE} (upstream) One rule.\n\
- {CONF.A.TWO} (defined: why) Two rules:\n  - the first;\n  - the second, changed.\n\
- {CONF.A.MARK} (upstream) Same words, new mark.\n\
- {CONF.A.NEW} (defined) Added.\n\
\nA paragraph after the list, edited.\n";

/// The made-up spec texts write `{ID}` so that this file cites none of their ids; the
/// brackets go in at run time.
fn spec(text: &str) -> String {
    text.replace('{', "[").replace('}', "]")
}

fn ids(list: &[onepath_conformance::clauses::diff::DiffEntry]) -> Vec<&str> {
    list.iter().map(|e| e.id.as_str()).collect()
}

// pins [CONF.CLAUSES.INDEX] [CONF.CLAUSES.DIFF]: an index that hashed only a clause's first line would miss the edited sub-item of CONF.A.TWO, and a diff that compared ids only would list no change at all
#[test]
fn added_changed_retired_and_a_changed_mark() {
    let old = ClauseIndex::from_files(&[("spec/a.md".into(), spec(OLD))]);
    let new = ClauseIndex::from_files(&[("spec/a.md".into(), spec(NEW))]);
    let d = diff(&old, "old", &new, "new");
    assert_eq!(ids(&d.added), ["CONF.A.NEW"]);
    assert_eq!(ids(&d.changed), ["CONF.A.TWO", "CONF.A.MARK"]);
    assert_eq!(ids(&d.retired), ["CONF.A.GONE"]);
    assert_eq!(d.unchanged, 1);
    let mark = &d.changed[1];
    assert_eq!(
        serde_json::to_value(mark).unwrap(),
        serde_json::json!({"id": "CONF.A.MARK", "provenance": "upstream", "file": "spec/a.md", "was": "defined"})
    );
    assert!(d.changed[0].was.is_none());
    let text = d.to_text();
    assert!(
        text.ends_with("1 added, 2 changed, 1 retired, 1 unchanged\n"),
        "{text}"
    );
}

// pins [CONF.CLAUSES.INDEX]: a clause's text stops at a blank line or unindented text, so prose after the list never changes a clause's hash, while trailing white space is ignored
#[test]
fn the_text_of_a_clause_ends_where_the_item_ends() {
    let a =
        "- {CONF.B.ONE} (defined) Rule.\n  more of it\n\nProse.\n- {CONF.B.TWO} (defined) Next.\n";
    let b = "- {CONF.B.ONE} (defined) Rule.   \n  more of it\t\n\nOther prose.\n- {CONF.B.TWO} (defined) Next.\n";
    let c = "- {CONF.B.ONE} (defined) Rule.\n  more of it, changed\n\nProse.\n- {CONF.B.TWO} (defined) Next.\n";
    let idx = |t: &str| ClauseIndex::from_files(&[("spec/b.md".into(), spec(t))]);
    assert_eq!(idx(a), idx(b));
    assert_ne!(idx(a).clauses[0].sha256, idx(c).clauses[0].sha256);
    assert_eq!(idx(a).clauses[1], idx(c).clauses[1]);
    // A fenced block is never a clause.
    let fenced = "```\n- {CONF.B.ONE} (defined) Example.\n```\n";
    assert!(idx(fenced).clauses.is_empty());
}

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs")
        .status
        .success();
    assert!(ok, "git {args:?}");
}

/// A made-up checkout (what `clauses` looks for) holding `spec/conformance.md` = `text`.
fn checkout(test: &str) -> PathBuf {
    let dir = scratch("clauses-diff", test);
    write(&dir, "Cargo.toml", "[workspace]\n");
    std::fs::create_dir_all(dir.join("spec")).unwrap();
    std::fs::create_dir_all(dir.join("vectors")).unwrap();
    write(&dir, "vectors/MANIFEST.json", "{}\n");
    write(&dir, "spec/conformance.md", spec(OLD));
    git(&dir, &["init", "-q"]);
    git(&dir, &["add", "-A"]);
    git(&dir, &["commit", "-q", "-m", "old"]);
    write(&dir, "spec/conformance.md", spec(NEW));
    git(&dir, &["commit", "-q", "-am", "new"]);
    dir
}

#[test]
fn git_revisions_index_files_and_the_working_tree() {
    let dir = checkout("git");
    let root = dir.to_str().unwrap();
    let (code, out, err) = run(&[
        "clauses", "--root", root, "diff", "HEAD~1", "HEAD", "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["schema"], "onepath.clauses-diff");
    assert_eq!(v["added"][0]["id"], "CONF.A.NEW");
    assert_eq!(v["retired"][0]["id"], "CONF.A.GONE");
    assert_eq!(v["changed"].as_array().unwrap().len(), 2);
    // An index file written at the old revision, against the working tree (the default TO).
    git(&dir, &["checkout", "-q", "HEAD~1", "--", "spec"]);
    let index = dir.join("old-index.json");
    let (code, _, err) = run(&[
        "clauses",
        "--root",
        root,
        "index",
        "--out",
        index.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    git(&dir, &["checkout", "-q", "HEAD", "--", "spec"]);
    let (code, out, err) = run(&["clauses", "--root", root, "diff", index.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("-> working tree"), "{out}");
    assert!(
        out.ends_with("1 added, 2 changed, 1 retired, 1 unchanged\n"),
        "{out}"
    );
    // A revision that does not exist, or looks like a flag: exit 2 naming it.
    for bad in ["no-such-rev", "--output=x"] {
        let (code, _, err) = run(&["clauses", "--root", root, "diff", "--", bad]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(err.contains(bad), "{err}");
    }
}

#[test]
fn the_index_reader_is_strict() {
    let dir = scratch("clauses-diff", "strict");
    let root = checkout("strict-root");
    let good = ClauseIndex::from_files(&[("spec/a.md".into(), spec(OLD))]).to_text();
    let cases: [(&str, String, &str); 6] = [
        (
            "version",
            good.replace("\"version\": 1", "\"version\": 2"),
            "version 2 is not supported",
        ),
        (
            "schema",
            good.replace("onepath.clause-index", "onepath.other"),
            "is not \"onepath.clause-index\"",
        ),
        (
            "unknown",
            good.replace("\"version\": 1,", "\"version\": 1, \"extra\": 0,"),
            "unknown field",
        ),
        (
            "duplicate",
            good.replace("\"version\": 1,", "\"version\": 1, \"version\": 1,"),
            "duplicate",
        ),
        (
            "missing",
            good.replace("\"_comment\"", "\"_remark\""),
            "unknown field",
        ),
        (
            "hash",
            good.replacen("\"sha256\": \"", "\"sha256\": \"X", 1),
            "clauses[0]",
        ),
    ];
    for (name, text, expect) in cases {
        let path = write(&dir, &format!("{name}.json"), text);
        let (code, _, err) = run(&[
            "clauses",
            "--root",
            root.to_str().unwrap(),
            "diff",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains(expect) && err.contains(&format!("{name}.json")),
            "{name}: {err}"
        );
    }
    let path = write(&dir, "good.json", &good);
    assert_eq!(ClauseIndex::read(&path).unwrap().to_text(), good);
}

#[test]
fn the_vectors_ship_this_checkouts_index() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let shipped = ClauseIndex::read(&root.join("vectors/CLAUSES.json")).unwrap();
    assert_eq!(shipped, ClauseIndex::of_checkout(root).unwrap());
    assert!(shipped.clauses.len() > 700, "{}", shipped.clauses.len());
}
