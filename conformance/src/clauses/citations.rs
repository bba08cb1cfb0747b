//! Where each clause is cited ([CONF.CLAUSES.SITES]): the two crates, the harness, the kit's
//! tests, the Python port, the spec itself and the committed vectors.

use super::error::ClauseError;
use super::spec_index::bracketed_ids;
use super::tree::{read_text, relative, walk};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The kind of text that cites a clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SiteKind {
    /// `reference/src` (onepath-reference).
    Reference,
    /// `optimized/src` (onepath).
    Optimized,
    /// `conformance/src` (the checks, generators and driver protocol of the kit).
    Harness,
    /// `conformance/tests`, `reference/tests`, `optimized/tests` (tests of the kit and crates).
    Test,
    /// `conformance/ports/python` (the port written from the spec alone).
    PythonPort,
    /// `conformance/ports/mutants` (the port-mutation judge, [CONF.PMUT.JUDGE]).
    Tool,
    /// A committed vector file under `vectors/` (its `_comment`s and case descriptions).
    Vector,
    /// Another clause of `spec/`.
    Spec,
}

impl SiteKind {
    /// Whether a citation of this kind is code that implements or checks the clause.
    pub fn is_code(self) -> bool {
        !matches!(self, SiteKind::Vector | SiteKind::Spec)
    }
}

/// The folders scanned for each kind, with their file extensions.
const SCANNED: [(SiteKind, &str, &[&str]); 10] = [
    (SiteKind::Reference, "reference/src", &["rs"]),
    (SiteKind::Optimized, "optimized/src", &["rs"]),
    (SiteKind::Harness, "conformance/src", &["rs"]),
    (SiteKind::Test, "conformance/tests", &["rs", "py"]),
    (SiteKind::Test, "reference/tests", &["rs"]),
    (SiteKind::Test, "optimized/tests", &["rs"]),
    (SiteKind::PythonPort, "conformance/ports/python", &["py"]),
    (SiteKind::Tool, "conformance/ports/mutants", &["py"]),
    (SiteKind::Vector, "vectors", &["json"]),
    (SiteKind::Spec, "spec", &["md"]),
];

/// One citation of a clause.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Site {
    /// What kind of text cites it.
    pub kind: SiteKind,
    /// The file, relative to the checkout.
    pub file: String,
    /// The 1-based line.
    pub line: usize,
}

/// Every citation in the checkout at `root`, by cited id (exact ids only: a chapter id such as
/// `[GRAPH.ALT]` in a module header is a citation of the id `GRAPH.ALT`, not of each clause).
pub fn read_citations(root: &Path) -> Result<BTreeMap<String, Vec<Site>>, ClauseError> {
    let mut sites: BTreeMap<String, Vec<Site>> = BTreeMap::new();
    for (kind, dir, exts) in SCANNED {
        for path in walk(&root.join(dir), exts)? {
            let file = relative(root, &path);
            let text = read_text(&path)?;
            for (id, line) in bracketed_ids(&text) {
                if kind == SiteKind::Spec && is_definition_line(&text, line, &id) {
                    continue;
                }
                sites.entry(id).or_default().push(Site {
                    kind,
                    file: file.clone(),
                    line,
                });
            }
        }
    }
    for list in sites.values_mut() {
        list.sort();
        list.dedup();
    }
    Ok(sites)
}

/// Whether line `line` of a spec file is the definition of `id` (not a citation of it).
fn is_definition_line(text: &str, line: usize, id: &str) -> bool {
    text.lines()
        .nth(line - 1)
        .is_some_and(|l| l.starts_with(&format!("- [{id}]")))
}
