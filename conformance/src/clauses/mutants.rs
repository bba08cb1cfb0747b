//! Mutation-testing evidence ([CONF.MUTANTS.SUMMARY]): cargo-mutants' `mutants.out` folders
//! imported into a committed summary that names, for every mutant, the clauses its item cites
//! and the vector files that caught it.

use super::error::ClauseError;
use super::spec_index::bracketed_ids;
use super::tree::read_text;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The schema name of a mutants summary.
pub const SCHEMA: &str = "onepath.mutants";
/// The schema version of a mutants summary.
pub const VERSION: u32 = 1;

/// What cargo-mutants found for one mutant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MutantOutcome {
    /// The judge failed: some vector (or the generation itself) changed.
    Caught,
    /// The judge passed: no vector pins the mutated behaviour.
    Missed,
    /// The judge did not finish in time (a mutant that loops); counted as caught.
    Timeout,
    /// The mutant did not compile.
    Unviable,
}

/// Where a mutant's clause ids come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitedBy {
    /// The doc comment of the mutated function.
    Item,
    /// The mutated function has none; the `//!` header of its module.
    Module,
    /// Neither cites a clause.
    None,
}

/// One mutant of a summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MutantRecord {
    /// cargo-mutants' name of the mutant (`file:line:col: replace ... with ...`).
    pub name: String,
    /// The mutated file, relative to the checkout.
    pub file: String,
    /// The 1-based line of the mutation.
    pub line: usize,
    /// The mutated function, as cargo-mutants names it (empty outside a function).
    pub function: String,
    /// The outcome.
    pub outcome: MutantOutcome,
    /// Where `clauses` come from.
    pub cited_by: CitedBy,
    /// The clause ids cited by the mutated item (or its module).
    pub clauses: Vec<String>,
    /// The vector files (relative to `vectors/`) the judge named as changed; empty for a mutant
    /// that was not caught, or that failed the judge without naming a file (a panic).
    pub caught_by: Vec<String>,
    /// For a mutant the vectors missed: its outcome under the second judge ([CONF.MUTANTS.CHECKS]),
    /// or null when that judge did not run on it.
    pub checks: Option<MutantOutcome>,
}

/// A committed summary of one crate's mutation run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MutantsSummary {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The mutated package.
    pub package: String,
    /// The cargo-mutants version that ran.
    pub cargo_mutants_version: String,
    /// Which mutants ran (the shards), in words.
    pub selection: String,
    /// The mutants, sorted by file, line and name.
    pub mutants: Vec<MutantRecord>,
}

impl MutantsSummary {
    /// Reads a committed summary strictly: the schema and version first, unknown fields rejected.
    pub fn read(path: &Path) -> Result<Self, ClauseError> {
        let text = read_text(path)?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| ClauseError::mutants(path, format!("not JSON: {e}")))?;
        let schema = value.get("schema").and_then(|s| s.as_str());
        if schema != Some(SCHEMA) {
            return Err(ClauseError::mutants(
                path,
                format!("schema is {schema:?}, expected \"{SCHEMA}\""),
            ));
        }
        let version = value.get("version").and_then(|v| v.as_u64());
        if version != Some(u64::from(VERSION)) {
            return Err(ClauseError::mutants(
                path,
                format!("version {version:?} is not supported; this kit reads {VERSION}"),
            ));
        }
        serde_json::from_value(value).map_err(|e| ClauseError::mutants(path, e.to_string()))
    }

    /// Counts by outcome.
    pub fn counts(&self) -> BTreeMap<MutantOutcome, usize> {
        let mut c = BTreeMap::new();
        for m in &self.mutants {
            *c.entry(m.outcome).or_insert(0) += 1;
        }
        c
    }
}

/// The parts of cargo-mutants' `outcomes.json` the import reads (its other fields are ignored:
/// the format is cargo-mutants', not ours).
#[derive(Deserialize)]
struct Outcomes {
    outcomes: Vec<OutcomeJson>,
    cargo_mutants_version: String,
}

#[derive(Deserialize)]
struct OutcomeJson {
    scenario: serde_json::Value,
    summary: String,
    log_path: Option<String>,
}

#[derive(Deserialize)]
struct MutantJson {
    name: String,
    package: String,
    file: String,
    function: Option<FunctionJson>,
    span: SpanJson,
}

#[derive(Deserialize)]
struct FunctionJson {
    function_name: String,
    span: SpanJson,
}

#[derive(Deserialize)]
struct SpanJson {
    start: PosJson,
}

#[derive(Deserialize)]
struct PosJson {
    line: usize,
}

/// One cargo-mutants output folder read into records (with the package they mutate).
fn read_run(root: &Path, dir: &Path) -> Result<(Vec<MutantRecord>, String, String), ClauseError> {
    let dir = if dir.join("mutants.out").is_dir() {
        dir.join("mutants.out")
    } else {
        dir.to_path_buf()
    };
    let path = dir.join("outcomes.json");
    let outcomes: Outcomes = serde_json::from_str(&read_text(&path)?)
        .map_err(|e| ClauseError::mutants(&path, format!("not cargo-mutants output: {e}")))?;
    let mut package = None::<String>;
    let mut records = Vec::new();
    for o in outcomes.outcomes {
        let Some(m) = o.scenario.get("Mutant") else {
            continue; // the baseline
        };
        let m: MutantJson = serde_json::from_value(m.clone())
            .map_err(|e| ClauseError::mutants(&path, format!("a mutant: {e}")))?;
        match &package {
            None => package = Some(m.package.clone()),
            Some(p) if *p != m.package => {
                return Err(ClauseError::mutants(
                    &path,
                    format!("mutants of {} and {}: import one package", p, m.package),
                ))
            }
            Some(_) => {}
        }
        let outcome = match o.summary.as_str() {
            "CaughtMutant" => MutantOutcome::Caught,
            "MissedMutant" => MutantOutcome::Missed,
            "Timeout" => MutantOutcome::Timeout,
            "Unviable" => MutantOutcome::Unviable,
            other => {
                return Err(ClauseError::mutants(
                    &path,
                    format!("{}: unknown outcome {other:?}", m.name),
                ))
            }
        };
        let caught_by = match (&o.log_path, outcome) {
            (Some(log), MutantOutcome::Caught) => changed_vectors(&read_text(&dir.join(log))?),
            _ => Vec::new(),
        };
        let source = read_text(&root.join(&m.file))?;
        let start = m.function.as_ref().map(|f| f.span.start.line);
        let (cited_by, clauses) = clauses_of(&source, start);
        records.push(MutantRecord {
            name: m.name,
            file: m.file,
            line: m.span.start.line,
            function: m.function.map(|f| f.function_name).unwrap_or_default(),
            outcome,
            cited_by,
            clauses,
            caught_by,
            checks: None,
        });
    }
    Ok((
        records,
        package.unwrap_or_default(),
        outcomes.cargo_mutants_version,
    ))
}

/// Imports cargo-mutants output folders of runs on one package into a summary, reading the
/// mutated sources under `root` for the clause ids. `dirs` are the runs under the vectors judge
/// (a later run's outcome for a mutant replaces an earlier one: a rerun of the survivors after
/// new vectors); `checks` are runs of survivors under the second judge ([CONF.MUTANTS.CHECKS]).
pub fn import(
    root: &Path,
    dirs: &[&Path],
    checks: &[&Path],
    selection: &str,
) -> Result<MutantsSummary, ClauseError> {
    let mut by_name: BTreeMap<String, MutantRecord> = BTreeMap::new();
    let mut package = None::<String>;
    let mut version = String::new();
    for dir in dirs.iter().chain(checks) {
        let (records, p, v) = read_run(root, dir)?;
        if !records.is_empty() {
            match &package {
                Some(q) if *q != p => {
                    return Err(ClauseError::mutants(
                        dir,
                        format!("mutants of {q} and {p}: import one package"),
                    ))
                }
                _ => package = Some(p),
            }
        }
        version = v;
        let second = checks.contains(dir);
        for r in records {
            if second {
                match by_name.get_mut(&r.name) {
                    Some(m) if m.outcome == MutantOutcome::Missed => m.checks = Some(r.outcome),
                    Some(_) => {}
                    None => {
                        return Err(ClauseError::mutants(
                            dir,
                            format!("{}: judged by the checks but not by the vectors", r.name),
                        ))
                    }
                }
            } else {
                by_name.insert(r.name.clone(), r);
            }
        }
    }
    let mut mutants: Vec<MutantRecord> = by_name.into_values().collect();
    mutants.sort_by(|a, b| (&a.file, a.line, &a.name).cmp(&(&b.file, b.line, &b.name)));
    Ok(MutantsSummary {
        schema: SCHEMA.into(),
        version: VERSION,
        package: package.unwrap_or_default(),
        cargo_mutants_version: version,
        selection: selection.into(),
        mutants,
    })
}

/// The vector files a failed judge log names (`<file>.json: stale|missing|unexpected ...`),
/// without the manifest (which changes with any of them).
fn changed_vectors(log: &str) -> Vec<String> {
    let mut files: Vec<String> = log
        .lines()
        .filter_map(|l| l.split_once(".json: "))
        .filter(|(_, rest)| {
            rest.starts_with("stale")
                || rest.starts_with("missing")
                || rest.starts_with("unexpected")
        })
        .map(|(file, _)| format!("{}.json", file.trim()))
        .filter(|f| f != "MANIFEST.json" && !f.contains(' '))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// The clause ids of the function whose item (doc comments included) starts at line `start` of
/// `source`: those of its doc comment, else those of the module's `//!` header.
fn clauses_of(source: &str, start: Option<usize>) -> (CitedBy, Vec<String>) {
    let lines: Vec<&str> = source.lines().collect();
    if let Some(start) = start {
        let mut ids = Vec::new();
        for line in lines.iter().skip(start.saturating_sub(1)) {
            let t = line.trim_start();
            if t.starts_with("///") || t.starts_with("#[doc") {
                ids.extend(bracketed_ids(t).into_iter().map(|(id, _)| id));
            } else if !t.starts_with("#[") {
                break; // the signature: the doc comment is over
            }
        }
        if !ids.is_empty() {
            ids.sort();
            ids.dedup();
            return (CitedBy::Item, ids);
        }
    }
    let header: String = lines
        .iter()
        .take_while(|l| l.starts_with("//!") || l.trim().is_empty())
        .map(|l| format!("{l}\n"))
        .collect();
    let mut ids: Vec<String> = bracketed_ids(&header)
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    ids.sort();
    ids.dedup();
    if ids.is_empty() {
        (CitedBy::None, ids)
    } else {
        (CitedBy::Module, ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn item_doc_then_module_header() {
        let src = "//! Module [GRAPH.ALT].\n\n/// [GRAPH.ASTAR.ESTIMATE] doc\n#[inline]\nfn a() {}\n\nfn b() {}\n";
        assert_eq!(
            clauses_of(src, Some(3)),
            (CitedBy::Item, vec!["GRAPH.ASTAR.ESTIMATE".to_string()])
        );
        assert_eq!(
            clauses_of(src, Some(7)),
            (CitedBy::Module, vec!["GRAPH.ALT".to_string()])
        );
        assert_eq!(clauses_of("fn c() {}\n", Some(1)), (CitedBy::None, vec![]));
    }

    #[test]
    fn judge_log_names_vectors() {
        let log = "MANIFEST.json: stale (differs)\ngraphs/GRAPH-0001.json: stale (differs)\nstate/x.json: missing\nother line\n";
        assert_eq!(
            changed_vectors(log),
            vec!["graphs/GRAPH-0001.json", "state/x.json"]
        );
    }
}
