//! The clause report ([CONF.CLAUSES.REPORT]): per clause, the code that cites it, the vectors
//! that cite it or caught a mutant of that code, and the mutants that survived in that code.

use super::checks::NamedCheck;
use super::citations::{Site, SiteKind};
use super::mutants::{CitedBy, MutantOutcome, MutantsSummary};
use super::spec_index::{Clause, Provenance};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

/// The schema name of the `clauses --json` object.
pub const SCHEMA: &str = "onepath.clauses";
/// Its version.
pub const VERSION: u32 = 3;

/// Mutant counts over the items that cite one clause.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MutantCounts {
    /// Caught by the judge.
    pub caught: usize,
    /// Survived.
    pub missed: usize,
    /// Timed out (a loop; counted as caught).
    pub timeout: usize,
    /// Did not compile.
    pub unviable: usize,
}

/// One clause of the report.
#[derive(Clone, Debug, Serialize)]
pub struct ClauseEntry {
    /// The clause id.
    pub id: String,
    /// Its provenance mark.
    pub provenance: Provenance,
    /// Where it is defined (`file:line`).
    pub defined_at: String,
    /// Code (crates, harness, tests, Python port) that cites it.
    pub code: Vec<Site>,
    /// Vector files (relative to `vectors/`) whose text cites it.
    pub vectors: Vec<String>,
    /// Committed vector files that caught a mutant of an item citing it.
    pub caught_by: Vec<String>,
    /// The named checks that pin it ([CONF.CLAUSES.PINS]).
    pub checks: Vec<NamedCheck>,
    /// Vector files the mutants summaries name as catching such a mutant that are no longer
    /// committed.
    pub caught_by_gone: Vec<String>,
    /// Mutants of items whose doc comment cites it.
    pub mutants: MutantCounts,
    /// The names of the surviving mutants among them.
    pub survivors: Vec<String>,
}

impl ClauseEntry {
    /// Whether the clause is behaviour (not informative).
    pub fn is_behavioural(&self) -> bool {
        self.provenance != Provenance::Informative
    }

    /// Whether one of the two crates cites it.
    pub fn cited_by_crates(&self) -> bool {
        self.code
            .iter()
            .any(|s| matches!(s.kind, SiteKind::Reference | SiteKind::Optimized))
    }

    /// Whether any code cites it.
    pub fn cited_by_code(&self) -> bool {
        self.code.iter().any(|s| s.kind.is_code())
    }

    /// Whether a vector cites it or caught a mutant of code that cites it.
    pub fn pinned_by_vector(&self) -> bool {
        !self.vectors.is_empty() || !self.caught_by.is_empty()
    }

    /// Whether a vector or a named check pins it.
    pub fn pinned(&self) -> bool {
        self.pinned_by_vector() || !self.checks.is_empty()
    }
}

/// A finding of [`ClauseReport::problems`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ClauseProblem {
    /// The clause id.
    pub id: String,
    /// `uncited` (a behavioural clause no code cites), `lost_vector` (every vector that cited
    /// it or caught a mutant of its code is gone from `vectors/`) or `unpinned` (code cites it,
    /// but no vector and no named check pins it).
    pub problem: String,
    /// Where it is defined.
    pub defined_at: String,
}

/// Totals of one imported mutants summary.
#[derive(Clone, Debug, Serialize)]
pub struct MutantRun {
    /// The mutated package.
    pub package: String,
    /// Which mutants ran.
    pub selection: String,
    /// Counts by outcome.
    pub counts: MutantCounts,
    /// Mutants whose item and module cite no clause.
    pub uncited_items: usize,
}

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct ClauseReport {
    /// Always [`SCHEMA`].
    pub schema: &'static str,
    /// Always [`VERSION`].
    pub version: u32,
    /// Every clause, in spec order.
    pub clauses: Vec<ClauseEntry>,
    /// The imported mutation runs.
    pub mutant_runs: Vec<MutantRun>,
    /// Cited ids that the spec does not define.
    pub undefined: Vec<String>,
}

fn count(c: &mut MutantCounts, o: MutantOutcome) {
    match o {
        MutantOutcome::Caught => c.caught += 1,
        MutantOutcome::Missed => c.missed += 1,
        MutantOutcome::Timeout => c.timeout += 1,
        MutantOutcome::Unviable => c.unviable += 1,
    }
}

impl ClauseReport {
    /// Builds the report from the spec's clauses, the citations, the committed vector files
    /// (relative to `vectors/`) and the mutants summaries.
    pub fn build(
        clauses: &[Clause],
        citations: &BTreeMap<String, Vec<Site>>,
        named_checks: &BTreeMap<String, Vec<NamedCheck>>,
        vector_files: &BTreeSet<String>,
        summaries: &[MutantsSummary],
    ) -> Self {
        let mut entries: Vec<ClauseEntry> = clauses
            .iter()
            .map(|c| {
                let sites = citations.get(&c.id).cloned().unwrap_or_default();
                let vectors: BTreeSet<String> = sites
                    .iter()
                    .filter(|s| s.kind == SiteKind::Vector)
                    .map(|s| s.file.trim_start_matches("vectors/").to_string())
                    .collect();
                ClauseEntry {
                    id: c.id.clone(),
                    provenance: c.provenance,
                    defined_at: format!("{}:{}", c.file, c.line),
                    code: sites.into_iter().filter(|s| s.kind.is_code()).collect(),
                    vectors: vectors.into_iter().collect(),
                    caught_by: Vec::new(),
                    checks: named_checks.get(&c.id).cloned().unwrap_or_default(),
                    caught_by_gone: Vec::new(),
                    mutants: MutantCounts::default(),
                    survivors: Vec::new(),
                }
            })
            .collect();
        let index: BTreeMap<String, usize> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id.clone(), i))
            .collect();
        let mut caught: Vec<BTreeSet<String>> = vec![BTreeSet::new(); entries.len()];
        let mut gone: Vec<BTreeSet<String>> = vec![BTreeSet::new(); entries.len()];
        let mut runs = Vec::new();
        for s in summaries {
            let mut counts = MutantCounts::default();
            let mut uncited_items = 0;
            for m in &s.mutants {
                count(&mut counts, m.outcome);
                if m.cited_by == CitedBy::None {
                    uncited_items += 1;
                }
                if m.cited_by != CitedBy::Item {
                    continue;
                }
                for id in &m.clauses {
                    let Some(&i) = index.get(id) else { continue };
                    count(&mut entries[i].mutants, m.outcome);
                    if m.outcome == MutantOutcome::Missed {
                        let checks = match m.checks {
                            Some(MutantOutcome::Caught | MutantOutcome::Timeout) => {
                                " (caught by the checks)"
                            }
                            Some(MutantOutcome::Missed) => " (missed by the checks too)",
                            _ => "",
                        };
                        entries[i].survivors.push(format!("{}{checks}", m.name));
                    }
                    for f in &m.caught_by {
                        if vector_files.contains(f) {
                            caught[i].insert(f.clone());
                        } else {
                            gone[i].insert(f.clone());
                        }
                    }
                }
            }
            runs.push(MutantRun {
                package: s.package.clone(),
                selection: s.selection.clone(),
                counts,
                uncited_items,
            });
        }
        for ((e, c), g) in entries.iter_mut().zip(caught).zip(gone) {
            e.caught_by = c.into_iter().collect();
            e.caught_by_gone = g.into_iter().collect();
        }
        let undefined = citations
            .keys()
            .filter(|id| {
                let chapter = format!("{id}.");
                !index.contains_key(*id) && !index.keys().any(|d| d.starts_with(&chapter))
            })
            .cloned()
            .collect();
        ClauseReport {
            schema: SCHEMA,
            version: VERSION,
            clauses: entries,
            mutant_runs: runs,
            undefined,
        }
    }

    /// The failures of [CONF.CLAUSES.CHECK]: a behavioural clause that no code cites; a clause
    /// that has lost its last vector (the summaries name catching vectors, none of which is
    /// still committed, and no committed vector cites it); and a clause that code cites but no
    /// vector and no named check pins.
    pub fn problems(&self) -> Vec<ClauseProblem> {
        let mut out = Vec::new();
        for e in self.clauses.iter().filter(|e| e.is_behavioural()) {
            let problem = if !e.cited_by_code() {
                "uncited"
            } else if !e.pinned_by_vector() && !e.caught_by_gone.is_empty() {
                "lost_vector"
            } else if !e.pinned() {
                "unpinned"
            } else {
                continue;
            };
            out.push(ClauseProblem {
                id: e.id.clone(),
                problem: problem.into(),
                defined_at: e.defined_at.clone(),
            });
        }
        out
    }

    /// The gaps of [CONF.CLAUSES.GAPS] (each also an `unpinned` problem): behavioural clauses
    /// the crates cite that no committed vector cites or is known to pin and no named check pins.
    pub fn gaps(&self) -> Vec<&ClauseEntry> {
        self.clauses
            .iter()
            .filter(|e| e.is_behavioural() && e.cited_by_crates() && !e.pinned())
            .collect()
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> String {
        let mut v = serde_json::to_value(self).expect("the report serialises");
        v["problems"] = serde_json::to_value(self.problems()).expect("problems serialise");
        v["gaps"] = serde_json::to_value(self.gaps().iter().map(|e| &e.id).collect::<Vec<_>>())
            .expect("ids serialise");
        serde_json::to_string_pretty(&v).expect("a value prints")
    }

    /// The human summary: totals, then every problem and every clause with survivors.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let behavioural = self.clauses.iter().filter(|e| e.is_behavioural()).count();
        let pinned = self
            .clauses
            .iter()
            .filter(|e| e.is_behavioural() && e.pinned_by_vector())
            .count();
        let by_check_only = self
            .clauses
            .iter()
            .filter(|e| e.is_behavioural() && !e.pinned_by_vector() && !e.checks.is_empty())
            .count();
        let _ = writeln!(
            t,
            "{} clauses ({} behavioural, {} informative); {} pinned by a vector, {} by a named check only",
            self.clauses.len(),
            behavioural,
            self.clauses.len() - behavioural,
            pinned,
            by_check_only
        );
        for r in &self.mutant_runs {
            let c = &r.counts;
            let _ = writeln!(
                t,
                "mutants of {} ({}): {} caught, {} missed, {} timeout, {} unviable; {} in items citing no clause",
                r.package, r.selection, c.caught, c.missed, c.timeout, c.unviable, r.uncited_items
            );
        }
        let problems = self.problems();
        let _ = writeln!(t, "{} problem(s)", problems.len());
        for p in &problems {
            let _ = writeln!(t, "  {:<10} [{}]  {}", p.problem, p.id, p.defined_at);
        }
        let gaps = self.gaps();
        let _ = writeln!(
            t,
            "{} gap(s): clauses the crates cite that no vector or named check pins",
            gaps.len()
        );
        for e in gaps {
            let _ = writeln!(t, "  [{}]  {}", e.id, e.defined_at);
        }
        let with_survivors: Vec<_> = self
            .clauses
            .iter()
            .filter(|e| !e.survivors.is_empty())
            .collect();
        let _ = writeln!(
            t,
            "{} clause(s) with surviving mutants",
            with_survivors.len()
        );
        for e in with_survivors {
            let _ = writeln!(
                t,
                "  [{}] {} caught, {} missed:",
                e.id,
                e.mutants.caught + e.mutants.timeout,
                e.mutants.missed
            );
            for s in &e.survivors {
                let _ = writeln!(t, "    {s}");
            }
        }
        for id in &self.undefined {
            let _ = writeln!(t, "undefined id cited: [{id}]");
        }
        t
    }
}
