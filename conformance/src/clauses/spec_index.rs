//! The clause index of `spec/` ([SPEC.CLAUSE.FORM]): every clause definition, with its provenance
//! mark, file and line; and the bracketed clause ids cited by any text.

use super::error::ClauseError;
use super::tree::{read_text, relative, walk};
use serde::Serialize;
use std::path::Path;

/// The families of clause ids ([SPEC.CLAUSE.FORM]).
pub const FAMILIES: [&str; 16] = [
    "GRAPH", "STATE", "GRID", "GS", "GBIDI", "HEX", "VOXEL", "HPA", "REPLAN", "FLOW", "DEBUG",
    "RECORD", "WORLD", "CONF", "DRIVER", "SPEC",
];

/// A clause's provenance mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provenance {
    /// A fact of the upstream text.
    Upstream,
    /// Chosen by this project where upstream is silent or beyond it.
    Defined,
    /// [SPEC.CLAUSE.INFORMATIVE] Prose that states no behaviour (the mark contains `informative`);
    /// it never needs a citation.
    Informative,
}

/// One clause definition.
#[derive(Clone, Debug, Serialize)]
pub struct Clause {
    /// The id, `FAMILY.TOPIC.RULE`.
    pub id: String,
    /// Its provenance mark.
    pub provenance: Provenance,
    /// The spec file, relative to the checkout.
    pub file: String,
    /// The 1-based line of the definition.
    pub line: usize,
}

impl Clause {
    /// Whether the clause states behaviour (not informative prose).
    pub fn is_behavioural(&self) -> bool {
        self.provenance != Provenance::Informative
    }
}

/// Every clause defined under `root/spec`, in file order then line order. A definition is a list
/// item `- [ID] (mark...` outside code fences; the mark is the parenthesised text after the id.
pub fn read_spec(root: &Path) -> Result<Vec<Clause>, ClauseError> {
    let mut clauses = Vec::new();
    for path in walk(&root.join("spec"), &["md"])? {
        let text = read_text(&path)?;
        let file = relative(root, &path);
        clauses.extend(parse_spec_file(&file, &text).into_iter().map(|(c, _)| c));
    }
    Ok(clauses)
}

/// [CONF.CLAUSES.INDEX] The clauses defined in one spec file's `text` (`file` is its path relative
/// to the checkout), each with its text: the definition's line and the lines after it up to the
/// first blank line, heading, code fence, unindented line or next list item at the left margin,
/// each with its trailing white space removed, joined by `\n`.
pub fn parse_spec_file(file: &str, text: &str) -> Vec<(Clause, String)> {
    let mut out: Vec<(Clause, String)> = Vec::new();
    let mut fenced = false;
    // Whether the last clause's text is still open to continuation lines.
    let mut open = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            open = false;
            continue;
        }
        if fenced {
            continue;
        }
        let Some(item) = line.strip_prefix("- [") else {
            let continues = !line.trim().is_empty() && line.starts_with([' ', '\t']);
            if open && continues {
                if let Some((_, t)) = out.last_mut() {
                    t.push('\n');
                    t.push_str(line.trim_end());
                }
            } else {
                open = false;
            }
            continue;
        };
        open = false;
        let Some(close) = item.find(']') else {
            continue;
        };
        let id = &item[..close];
        if !is_clause_id(id) {
            continue;
        }
        let mark = item[close + 1..]
            .trim_start()
            .strip_prefix('(')
            .and_then(|m| m.split(')').next())
            .unwrap_or("");
        let provenance = if mark.contains("informative") {
            Provenance::Informative
        } else if mark.starts_with("upstream") {
            Provenance::Upstream
        } else if mark.starts_with("defined") {
            Provenance::Defined
        } else {
            // No mark: `spec_clauses` fails on it; the report counts it as behavioural.
            Provenance::Defined
        };
        out.push((
            Clause {
                id: id.to_string(),
                provenance,
                file: file.to_string(),
                line: n + 1,
            },
            line.trim_end().to_string(),
        ));
        open = true;
    }
    out
}

/// Whether `id` is a well-formed clause id of a known family: upper-case parts joined by dots.
pub fn is_clause_id(id: &str) -> bool {
    let family = id.split('.').next().unwrap_or("");
    FAMILIES.contains(&family)
        && id.contains('.')
        && id.split('.').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        })
}

/// The bracketed clause ids `[FAMILY.PART(.PART)*]` in `text`, with their 1-based lines.
pub fn bracketed_ids(text: &str) -> Vec<(String, usize)> {
    let mut ids = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(open) = rest.find('[') {
            rest = &rest[open + 1..];
            let Some(close) = rest.find(']') else { break };
            let id = &rest[..close];
            if is_clause_id(id) {
                ids.push((id.to_string(), n + 1));
            }
        }
    }
    ids
}
