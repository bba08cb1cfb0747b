//! The module graph of `conformance/src` has no direct import cycle (module A names `crate::B`
//! while B names `crate::A`) beyond the pre-existing ones listed in [`KNOWN`].
//!
//! Nodes are top-level modules (`x.rs`, `x/mod.rs` and `x/*.rs` are all `x`), except the
//! submodules of [`SPLIT`], which are nodes of their own: the vector writers must sit on
//! `vector_files` and `envelope` and not on each other (`vectors` <-> `grid::vectors`, `vectors` <->
//! `state::files`); `state` (its plain data) must not use `implementation`, which uses it; the
//! crate bindings (`grid::adapter`, `state::adapter`) sit above the plain data of both; the
//! parts of `debug` that run implementations (its adapter, consistency reading, targets, vectors
//! and `explain`) sit above `implementation`, which names the plain descriptions; likewise the
//! sync test's adapter, command line and vectors sit above its plain session and reply types.
//! Edges are `crate::a::b` paths and `use crate::{a, b::c}` groups outside `//` comments; the
//! crate root (`lib.rs`, `main.rs`) only declares and re-exports and is left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Submodules that are nodes of their own.
const SPLIT: [&str; 24] = [
    "grid::vectors",
    "state::files",
    "grid::adapter",
    "state::adapter",
    "replan::vectors",
    "replan::adapter",
    "flow::vectors",
    "flow::adapter",
    "lattice::vectors",
    "lattice::adapter",
    "hpa::vectors",
    "hpa::adapter",
    "bidi::vectors",
    "bidi::adapter",
    "port::wire",
    "debug::adapter",
    "debug::consistent",
    "debug::explain",
    "debug::explain_cli",
    "debug::targets",
    "debug::vectors",
    "synctest::adapter",
    "synctest::cli",
    "synctest::vectors",
];

/// The pairs this test was written for: never a cycle, whatever [`KNOWN`] says.
const GUARDED: [(&str, &str); 3] = [
    ("grid::vectors", "vectors"),
    ("state::files", "vectors"),
    ("implementation", "state"),
];

/// Direct cycles tolerated (sorted pairs): none since the family registry; a cycle fails the
/// test.
const KNOWN: [(&str, &str); 0] = [];

fn node_of(rel: &str) -> Option<String> {
    let stem = rel.strip_suffix(".rs")?;
    let mut parts: Vec<&str> = stem.split('/').collect();
    if parts.last() == Some(&"mod") {
        parts.pop();
    }
    if parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main") {
        return None;
    }
    if parts.len() >= 2 {
        let two = format!("{}::{}", parts[0], parts[1]);
        if SPLIT.contains(&two.as_str()) {
            return Some(two);
        }
    }
    Some(parts[0].to_string())
}

/// The node a path after `crate::` names (`None` for crate-root items such as `crate::Outcome`).
fn target(path: &str) -> Option<String> {
    let segs: Vec<&str> = path.split("::").map(str::trim).collect();
    let first = *segs.first()?;
    if first.is_empty() || first.starts_with(|c: char| c.is_uppercase()) {
        return None;
    }
    if segs.len() >= 2 {
        let two = format!("{}::{}", segs[0], segs[1]);
        if SPLIT.contains(&two.as_str()) {
            return Some(two);
        }
    }
    Some(first.to_string())
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The text between the outer braces of `s` (which starts with `{`).
fn group(s: &str) -> &str {
    let mut depth = 0;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &s[1..i];
                }
            }
            _ => {}
        }
    }
    &s[1..]
}

/// The top-level comma-separated items of a group.
fn items(g: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in g.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&g[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&g[start..]);
    out
}

/// Every path named after `crate::` in `text` (`//` comments removed); a group contributes
/// each member's leading path (`crate::{a::{B, C}, d}` gives `a` and `d`).
fn crate_paths(text: &str) -> Vec<String> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let standalone = rest[..i].chars().last().map_or(true, |c| !ident_char(c));
        rest = &rest[i + "crate::".len()..];
        if !standalone {
            continue;
        }
        let end = rest
            .find(|c: char| !(ident_char(c) || c == ':'))
            .unwrap_or(rest.len());
        let prefix = rest[..end].trim_end_matches(':');
        if rest[end..].starts_with('{') {
            for item in items(group(&rest[end..])) {
                let head = item.split('{').next().unwrap_or("");
                let head = head.trim().trim_end_matches(':');
                if head.is_empty() {
                    continue;
                }
                out.push(if prefix.is_empty() {
                    head.to_string()
                } else {
                    format!("{prefix}::{head}")
                });
            }
        } else if !prefix.is_empty() {
            out.push(prefix.to_string());
        }
    }
    out
}

fn walk(root: &Path, dir: &Path, edges: &mut BTreeMap<String, BTreeSet<String>>) {
    for entry in std::fs::read_dir(dir).expect("read conformance/src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            walk(root, &path, edges);
            continue;
        }
        let rel = path.strip_prefix(root).expect("under src");
        let rel = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/");
        let Some(from) = node_of(&rel) else { continue };
        let text = std::fs::read_to_string(&path).expect("read source");
        for p in crate_paths(&text) {
            if let Some(to) = target(&p) {
                if to != from {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges = BTreeMap::new();
    walk(&src, &src, &mut edges);
    edges
}

fn uses(g: &BTreeMap<String, BTreeSet<String>>, a: &str, b: &str) -> bool {
    g.get(a).is_some_and(|s| s.contains(b))
}

#[test]
fn the_parser_sees_the_expected_edges() {
    let g = graph();
    for (a, b) in [
        ("family", "grid::vectors"),
        ("family", "state::files"),
        ("family", "vectors"),
        ("vectors", "vector_files"),
        ("port", "family"),
        ("state::adapter", "grid::adapter"),
        ("grid::vectors", "vector_files"),
        ("grid::vectors", "envelope"),
        ("state::files", "envelope"),
        ("envelope", "vector_files"),
        ("state::files", "implementation"),
        ("implementation", "state"),
        ("fuzzing", "adapters"),
    ] {
        assert!(uses(&g, a, b), "expected an edge {a} -> {b}; graph: {g:?}");
    }
    let paths = crate_paths("use crate::{a::{B, C}, d};\nlet x = crate::e::f(); // crate::g\n");
    assert_eq!(paths, ["a", "d", "e::f"]);
}

#[test]
fn no_direct_import_cycle() {
    let g = graph();
    for (a, b) in GUARDED {
        assert!(
            !(uses(&g, a, b) && uses(&g, b, a)),
            "import cycle {a} <-> {b} (guarded pair)"
        );
    }
    let mut cycles = Vec::new();
    for (a, targets) in &g {
        for b in targets {
            if a < b && uses(&g, b, a) && !KNOWN.contains(&(a.as_str(), b.as_str())) {
                cycles.push(format!("{a} <-> {b}"));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "new import cycles in conformance/src: {}",
        cycles.join(", ")
    );
}
