//! The spec's clause ids ([spec/README.md], "How a clause is written"): every clause id is defined
//! once, with a provenance mark, and every id cited by the crates, the harness, the Python port or
//! the spec itself names a defined clause (or, as a module header does, a whole chapter).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const FAMILIES: [&str; 8] = [
    "GRAPH", "STATE", "GRID", "GS", "GBIDI", "CONF", "DRIVER", "SPEC",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// The bracketed ids `[FAMILY.PART(.PART)*]` in `text`.
fn bracketed_ids(text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find(']') else { break };
        let id = &rest[..close];
        let family = id.split('.').next().unwrap_or("");
        let well_formed = id.contains('.')
            && id.split('.').all(|p| {
                !p.is_empty()
                    && p.bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            });
        if FAMILIES.contains(&family) && well_formed {
            ids.push(id.to_string());
        }
    }
    ids
}

/// Clause definitions: list items `- [ID] (upstream...` or `- [ID] (defined...` outside code fences.
fn definitions() -> BTreeMap<String, Vec<String>> {
    let mut defs: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut specs = Vec::new();
    files(&root().join("spec"), "md", &mut specs);
    for path in specs {
        let text = fs::read_to_string(&path).unwrap();
        let mut fenced = false;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            let Some(item) = line.strip_prefix("- [") else {
                continue;
            };
            if fenced {
                continue;
            }
            let Some(close) = item.find(']') else {
                continue;
            };
            let id = &item[..close];
            let after = &item[close + 1..];
            assert!(
                after.starts_with(" (upstream")
                    || after.starts_with(" (defined")
                    || after.starts_with(" (informative"),
                "{}:{}: clause [{id}] has no provenance mark",
                path.display(),
                n + 1
            );
            defs.entry(id.to_string())
                .or_default()
                .push(format!("{}:{}", path.display(), n + 1));
        }
    }
    defs
}

#[test]
fn clause_ids_are_unique() {
    let defs = definitions();
    assert!(defs.len() > 250, "only {} clauses found", defs.len());
    let dups: Vec<_> = defs.iter().filter(|(_, at)| at.len() > 1).collect();
    assert!(
        dups.is_empty(),
        "clause ids defined more than once: {dups:?}"
    );
}

#[test]
fn every_cited_clause_exists() {
    let defs = definitions();
    let r = root();
    let mut sources = Vec::new();
    for dir in ["reference/src", "optimized/src", "conformance/src", "spec"] {
        files(&r.join(dir), "rs", &mut sources);
        files(&r.join(dir), "md", &mut sources);
    }
    files(
        &r.join("conformance/ports/python/onepath_py"),
        "py",
        &mut sources,
    );
    let mut missing: BTreeSet<String> = BTreeSet::new();
    let mut cited = 0;
    for path in sources {
        let text = fs::read_to_string(&path).unwrap();
        for id in bracketed_ids(&text) {
            cited += 1;
            // A chapter reference (`[GRAPH.ALT]` in a module header) names every clause under it.
            let chapter = format!("{id}.");
            let known = defs.contains_key(&id) || defs.keys().any(|d| d.starts_with(&chapter));
            if !known {
                missing.insert(format!(
                    "[{id}] in {}",
                    path.strip_prefix(&r).unwrap().display()
                ));
            }
        }
    }
    assert!(cited > 1000, "only {cited} citations found");
    assert!(
        missing.is_empty(),
        "cited clause ids that the spec does not define: {missing:#?}"
    );
}
