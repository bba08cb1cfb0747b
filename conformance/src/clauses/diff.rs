//! `clauses diff` ([CONF.CLAUSES.DIFF]): the clauses added, changed and retired between two clause
//! indexes, so a port author certified at an older kit learns which rules moved since.

use super::index::{ClauseIndex, IndexEntry};
use super::spec_index::Provenance;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The schema name of `clauses diff --json`.
pub const SCHEMA: &str = "onepath.clauses-diff";
/// Its version.
pub const VERSION: u32 = 1;

/// One clause in a diff.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiffEntry {
    /// The clause id.
    pub id: String,
    /// Its provenance (in the newer index; in the older one for a retired clause).
    pub provenance: Provenance,
    /// Its file (as for `provenance`).
    pub file: String,
    /// For a changed clause whose provenance changed: the older provenance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub was: Option<Provenance>,
}

/// The differences between two indexes ([CONF.CLAUSES.DIFF]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClauseDiff {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// [`VERSION`].
    pub version: u32,
    /// What the older index was read from (a revision or a file).
    pub from: String,
    /// What the newer index was read from.
    pub to: String,
    /// Clauses of the newer index only, in its order.
    pub added: Vec<DiffEntry>,
    /// Clauses of both whose text hash differs, in the newer index's order.
    pub changed: Vec<DiffEntry>,
    /// Clauses of the older index only, in its order.
    pub retired: Vec<DiffEntry>,
    /// How many clauses are in both with the same text.
    pub unchanged: usize,
}

fn entry(e: &IndexEntry, was: Option<Provenance>) -> DiffEntry {
    DiffEntry {
        id: e.id.clone(),
        provenance: e.provenance,
        file: e.file.clone(),
        was,
    }
}

/// Each id's first definition in `idx`.
fn first_definitions(idx: &ClauseIndex) -> BTreeMap<&str, &IndexEntry> {
    let mut m: BTreeMap<&str, &IndexEntry> = BTreeMap::new();
    for c in &idx.clauses {
        m.entry(c.id.as_str()).or_insert(c);
    }
    m
}

/// The diff from `old` to `new`. An id defined twice in one index counts by its first definition.
pub fn diff(old: &ClauseIndex, from: &str, new: &ClauseIndex, to: &str) -> ClauseDiff {
    let (olds, news) = (first_definitions(old), first_definitions(new));
    let mut out = ClauseDiff {
        schema: SCHEMA,
        version: VERSION,
        from: from.to_string(),
        to: to.to_string(),
        added: Vec::new(),
        changed: Vec::new(),
        retired: Vec::new(),
        unchanged: 0,
    };
    for c in &new.clauses {
        if !std::ptr::eq(news[c.id.as_str()], c) {
            continue;
        }
        match olds.get(c.id.as_str()) {
            None => out.added.push(entry(c, None)),
            Some(o) if o.sha256 != c.sha256 => {
                let was = (o.provenance != c.provenance).then_some(o.provenance);
                out.changed.push(entry(c, was));
            }
            Some(_) => out.unchanged += 1,
        }
    }
    for c in &old.clauses {
        if std::ptr::eq(olds[c.id.as_str()], c) && !news.contains_key(c.id.as_str()) {
            out.retired.push(entry(c, None));
        }
    }
    out
}

fn prov(p: Provenance) -> &'static str {
    match p {
        Provenance::Upstream => "upstream",
        Provenance::Defined => "defined",
        Provenance::Informative => "informative",
    }
}

impl ClauseDiff {
    /// The human-readable form: one section per kind, then a count line.
    pub fn to_text(&self) -> String {
        let mut s = format!("clauses diff: {} -> {}\n", self.from, self.to);
        for (name, list) in [
            ("added", &self.added),
            ("changed", &self.changed),
            ("retired", &self.retired),
        ] {
            if list.is_empty() {
                continue;
            }
            s.push_str(&format!("{name} ({}):\n", list.len()));
            for e in list {
                let was = e
                    .was
                    .map(|w| format!(", was {}", prov(w)))
                    .unwrap_or_default();
                s.push_str(&format!(
                    "  [{}] ({}{was}) {}\n",
                    e.id,
                    prov(e.provenance),
                    e.file
                ));
            }
        }
        s.push_str(&format!(
            "{} added, {} changed, {} retired, {} unchanged\n",
            self.added.len(),
            self.changed.len(),
            self.retired.len(),
            self.unchanged
        ));
        s
    }

    /// The `--json` form (schema [`SCHEMA`]).
    pub fn to_json(&self) -> String {
        crate::json_text::to_text(self)
    }
}
