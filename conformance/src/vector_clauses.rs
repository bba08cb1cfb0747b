//! The clauses a committed vector pins ([CONF.REPORT.CLAUSES]): the clause ids its `_comment`
//! cites, so that a failure on a vector names the rule the implementation broke, not only the
//! vector.

use std::collections::BTreeMap;
use std::path::Path;

/// Vector id to the clause ids its `_comment` cites, in order of first citation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VectorClauses {
    by_id: BTreeMap<String, Vec<String>>,
}

/// The bracketed clause ids of `text` ([SPEC.CLAUSE.FORM]: `[FAMILY.TOPIC...]`, upper-case
/// words of letters, digits and `_` joined by dots, at least two), in order, each once.
pub fn cited_ids(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        rest = &rest[open + 1..];
        let Some(close) = rest.find(']') else { break };
        let id = &rest[..close];
        let words: Vec<&str> = id.split('.').collect();
        let is_id = words.len() >= 2
            && words.iter().all(|w| {
                !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            })
            && words[0]
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_uppercase());
        if is_id && !out.iter().any(|o| o == id) {
            out.push(id.to_string());
        }
    }
    out
}

impl VectorClauses {
    /// Reads every `*.json` file under `dir` that has a string `id` and a string `_comment`
    /// (vector envelopes, [CONF.VEC.ENVELOPE]); other files are skipped. An unreadable folder
    /// gives an empty table: the `vectors` section reports it.
    pub fn read(dir: &Path) -> VectorClauses {
        let mut by_id = BTreeMap::new();
        for rel in crate::vector_files::list_files(dir).unwrap_or_default() {
            if !rel.ends_with(".json") {
                continue;
            }
            let Ok(text) = crate::input::read_text_in_folder(dir, &rel) else {
                continue;
            };
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
                continue;
            };
            if let (Some(id), Some(comment)) = (
                v.get("id").and_then(|x| x.as_str()),
                v.get("_comment").and_then(|x| x.as_str()),
            ) {
                // A golden state vector and its hostile file share one id: both comments
                // count, the first file's ids first (files are read in path order).
                let ids: &mut Vec<String> = by_id.entry(id.to_string()).or_default();
                for c in cited_ids(comment) {
                    if !ids.contains(&c) {
                        ids.push(c);
                    }
                }
            }
        }
        VectorClauses { by_id }
    }

    /// The clauses vector `label` pins; a hostile case `<id>-H<nnnn>` pins its vector's. Empty
    /// for a generated case or an unknown id.
    pub fn of(&self, label: &str) -> Vec<String> {
        if let Some(c) = self.by_id.get(label) {
            return c.clone();
        }
        match label.rsplit_once("-H") {
            Some((base, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                self.by_id.get(base).cloned().unwrap_or_default()
            }
            _ => Vec::new(),
        }
    }

    /// Fills `clauses` of every failure in `sections` that names a vector.
    pub fn annotate(&self, sections: &mut [crate::report::Section]) {
        for s in sections {
            for f in &mut s.failures {
                if let Some(v) = &f.vector {
                    f.clauses = self.of(v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_bracketed_dotted_upper_case_words() {
        assert_eq!(
            cited_ids("a [GRID.SQUARE.SIZE] b [CONF.GRID.MAP] [GRID.SQUARE.SIZE] [x.Y] [A] [A.b] [2.A] [GS.CLEAR.VALUE]"),
            ["GRID.SQUARE.SIZE", "CONF.GRID.MAP", "GS.CLEAR.VALUE"]
        );
    }
}
