//! `report merge` ([CONF.REPORT.MERGE]): reads the `--json` reports of the shards of one run,
//! checks that they are the shards `1/n .. n/n` of the same run, sums the section counts,
//! concatenates the kept failures (bounded as in one report) and recomputes the verdict; for a
//! port run it also merges the families (minimum level, summed requests) and the expectations,
//! so the merged run renders as a table, JSON, JUnit and certificate like a single run.

use crate::config::Shard;
use crate::expectations::{Expectations, KnownFailure};
use crate::levels::{Break, Level};
use crate::port::driver::Hello;
use crate::port::run::{
    level_problem, rank, stale_expectation, FamilyResult, PortOptions, PortRun,
};
use crate::port::LedgerEntry;
use crate::report::{required, Report, RunInfo, Section, REPORT_SCHEMA, REPORT_VERSION};
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::time::Duration;

/// What is wrong with the inputs of a merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeErrorKind {
    /// No report given.
    NoInput,
    /// A file cannot be read.
    Read,
    /// A file is not JSON.
    Json,
    /// `schema` is missing or not `onepath.certify-report`.
    Schema,
    /// `version` is missing or not one this kit reads.
    Version,
    /// A member is unknown, missing or of the wrong type.
    Field,
    /// Two reports are not of the same run (the member named differs).
    Mismatch,
    /// A shard number appears twice.
    DuplicateShard,
    /// A shard number of `1..=n` is absent.
    MissingShard,
}

/// A rejected merge, naming the file and member at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeError {
    /// The kind of problem.
    pub kind: MergeErrorKind,
    /// The file at fault, when one is.
    pub file: Option<String>,
    /// The member at fault (`run.seed`, `version`...), when one is.
    pub field: Option<String>,
    /// The explanation.
    pub message: String,
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}: ")?;
        }
        if let Some(field) = &self.field {
            write!(f, "{field}: ")?;
        }
        // [CONF.JSON.UNIQUE] Quoted input is clipped: a message never carries more than 1,000
        // bytes of it.
        write!(f, "{}", crate::error::clip(&self.message, 1000))
    }
}

impl std::error::Error for MergeError {}

fn err(kind: MergeErrorKind, file: &str, field: Option<&str>, message: String) -> MergeError {
    MergeError {
        kind,
        file: Some(file.to_string()),
        field: field.map(str::to_string),
        message,
    }
}

/// One report file, as read.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportFile {
    /// `onepath.certify-report`.
    pub schema: String,
    /// [`REPORT_VERSION`].
    pub version: u32,
    /// The report's verdict.
    pub ok: bool,
    /// The kit that wrote it.
    pub kit: String,
    /// The run parameters.
    pub run: RunInfo,
    /// Implementation names.
    pub implementations: Vec<String>,
    /// Sections.
    pub sections: Vec<Section>,
    /// The port member, `null` for in-process runs.
    #[serde(deserialize_with = "required")]
    pub port: Option<PortFile>,
}

/// The `port` member ([DRIVER.REPORT.JSON]).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortFile {
    /// Driver command.
    pub command: String,
    /// Handshake or its error.
    pub handshake: HandshakeFile,
    /// `--port-cases`.
    pub port_cases: usize,
    /// `--timeout`.
    pub timeout_seconds: f64,
    /// The driver limits ([DRIVER.PROC.CAP], [DRIVER.PROC.BUDGET], [DRIVER.PROC.DEADLINE]).
    pub limits: LimitsFile,
    /// Driver processes started.
    pub driver_starts: u64,
    /// Requests not run ([DRIVER.PROC.BUDGET]).
    pub not_run: u64,
    /// Per family.
    pub families: Vec<FamilyFile>,
    /// The expectations with their excused counts, or `null`.
    #[serde(deserialize_with = "required")]
    pub expectations: Option<Vec<ExpectationFile>>,
    /// The verdict.
    pub ok: bool,
    /// Why it fails.
    pub problems: Vec<String>,
    /// The clause diff of `--since`, or `null` ([DRIVER.CLI.SINCE], version 4).
    #[serde(deserialize_with = "required")]
    pub clauses_since: Option<crate::port::since::SinceDiff>,
    /// Vectors with a difference or an unanswered request ([DRIVER.REPORT.JUNIT], version 4).
    pub failed_vectors: BTreeMap<String, String>,
}

/// The `limits` member of `port`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsFile {
    /// `--max-reply-mb`.
    pub max_reply_mb: u64,
    /// `--max-consecutive-failures`.
    pub max_consecutive_failures: usize,
    /// `--max-failures`.
    pub max_failures: u64,
    /// `--deadline`, or null.
    #[serde(deserialize_with = "required")]
    pub deadline_seconds: Option<f64>,
}

/// The handshake member.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum HandshakeFile {
    /// A handshake.
    Ok(HelloFile),
    /// Why it failed.
    Err(HandshakeError),
}

/// A handshake.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HelloFile {
    /// Port name.
    pub port: String,
    /// Port version.
    pub port_version: String,
    /// Spec version.
    pub spec_version: String,
    /// Claimed levels.
    pub claims: BTreeMap<String, u8>,
}

/// A failed handshake.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandshakeError {
    /// The error.
    pub error: String,
}

/// One family.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FamilyFile {
    /// Name.
    pub family: String,
    /// Claimed level name, or `null`.
    #[serde(deserialize_with = "required")]
    pub claimed: Option<String>,
    /// Reached level name.
    pub reached: String,
    /// Level before the no-answer rule.
    pub reached_by_differences: String,
    /// Requests sent.
    pub requests: u64,
    /// Requests answered.
    pub answered: u64,
    /// Unimplemented ops with counts.
    pub unimplemented: BTreeMap<String, u64>,
    /// The first difference, or `null`.
    #[serde(deserialize_with = "required")]
    pub first_difference: Option<EntryFile>,
}

/// A ledger record.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryFile {
    /// Section.
    pub section: String,
    /// Label.
    pub label: String,
    /// Op.
    pub op: String,
    /// Variant or `null`.
    #[serde(deserialize_with = "required")]
    pub variant: Option<String>,
    /// Query or `null`.
    #[serde(deserialize_with = "required")]
    pub query: Option<String>,
    /// Level name.
    pub level: String,
    /// What differs.
    pub what: String,
    /// Expected.
    pub expected: String,
    /// Found.
    pub found: String,
    /// Step or `null`.
    #[serde(deserialize_with = "required")]
    pub step: Option<usize>,
    /// Context or `null`.
    #[serde(deserialize_with = "required")]
    pub context: Option<ContextFile>,
    /// The clauses the vector pins ([CONF.REPORT.CLAUSES]).
    pub clauses: Vec<String>,
    /// The first place the replies diverge, or `null` ([DRIVER.LEVEL.FIRST], version 4).
    #[serde(deserialize_with = "required")]
    pub first_divergence: Option<String>,
}

/// Context around a step.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextFile {
    /// Expected entries.
    pub expected: String,
    /// Found entries.
    pub found: String,
}

/// One expectation with its excused count.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectationFile {
    /// Section.
    pub section: String,
    /// Pattern.
    #[serde(rename = "match")]
    pub pattern: String,
    /// Reason.
    pub reason: String,
    /// Failures excused.
    pub excused: u64,
}

/// Parses one report; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<ReportFile, MergeError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|e| err(MergeErrorKind::Json, file, None, format!("not JSON: {e}")))?;
    // [CONF.JSON.UNIQUE] A member given twice (a second `ok`) is refused, not collapsed.
    crate::json_text::check_unique_members(text)
        .map_err(|e| err(MergeErrorKind::Json, file, None, e.to_string()))?;
    match v.get("schema").and_then(Value::as_str) {
        Some(REPORT_SCHEMA) => {}
        Some(other) => {
            return Err(err(
                MergeErrorKind::Schema,
                file,
                Some("schema"),
                format!(
                    "{} is not {REPORT_SCHEMA:?}",
                    crate::error::clip(&format!("{other:?}"), 200)
                ),
            ))
        }
        None => {
            return Err(err(
                MergeErrorKind::Schema,
                file,
                Some("schema"),
                "missing (expected a string)".into(),
            ))
        }
    }
    match v.get("version").and_then(Value::as_u64) {
        Some(n) if n == u64::from(REPORT_VERSION) => {}
        Some(n) => {
            return Err(err(
                MergeErrorKind::Version,
                file,
                Some("version"),
                format!("version {n} is not supported (this kit reads version {REPORT_VERSION})"),
            ))
        }
        None => {
            return Err(err(
                MergeErrorKind::Version,
                file,
                Some("version"),
                "missing (expected a whole number)".into(),
            ))
        }
    }
    let report: ReportFile = serde_json::from_value(v)
        .map_err(|e| err(MergeErrorKind::Field, file, None, e.to_string()))?;
    // [CONF.REPORT.MERGE] A shard is k/n with 1 <= k <= n ("0 of 0" is no shard of any run).
    let shard = &report.run.shard;
    if shard.count == 0 || shard.index == 0 || shard.index > shard.count {
        return Err(err(
            MergeErrorKind::Field,
            file,
            Some("run.shard"),
            format!(
                "shard {} of {} is not k/n with 1 <= k <= n",
                shard.index, shard.count
            ),
        ));
    }
    // [CONF.CLI.FAMILY]: the run's families are family names, at least one.
    crate::config::FamilySet::parse(&report.run.families.join(",")).map_err(|e| {
        err(
            MergeErrorKind::Field,
            file,
            Some("run.families"),
            e.to_string(),
        )
    })?;
    // [DRIVER.CLI.LIMITS] The port's numbers are those its flags allow: a merge rebuilds the run's
    // options from them (a hostile `timeout_seconds` of 1e300 would not fit a Duration).
    if let Some(p) = &report.port {
        use crate::port::flags;
        let checks: [(&str, bool); 5] = [
            (
                "port.timeout_seconds",
                flags::parse_timeout(&p.timeout_seconds.to_string()).is_ok(),
            ),
            (
                "port.port_cases",
                (1..=flags::MAX_PORT_CASES).contains(&p.port_cases),
            ),
            (
                "port.limits.max_reply_mb",
                (1..=flags::MAX_REPLY_MB).contains(&p.limits.max_reply_mb),
            ),
            (
                "port.limits.deadline_seconds",
                p.limits
                    .deadline_seconds
                    .is_none_or(|d| d >= 1.0 && d <= flags::MAX_DEADLINE_SECS as f64),
            ),
            ("port.limits.max_failures", p.limits.max_failures >= 1),
        ];
        if let Some((member, _)) = checks.iter().find(|(_, ok)| !ok) {
            return Err(err(
                MergeErrorKind::Field,
                file,
                Some(member),
                "outside the range of its certify flag ([DRIVER.CLI.LIMITS])".into(),
            ));
        }
    }
    Ok(report)
}

/// A merged run.
#[derive(Debug)]
pub enum Merged {
    /// An in-process `certify` run.
    Crates(Box<Report>),
    /// A `certify --port` run.
    Port(Box<PortRun>),
}

impl Merged {
    /// The verdict.
    pub fn ok(&self) -> bool {
        match self {
            Merged::Crates(r) => r.ok,
            Merged::Port(p) => p.ok(),
        }
    }

    /// The JSON report of the merged run (shard `1/1`).
    pub fn to_json(&self) -> String {
        match self {
            Merged::Crates(r) => r.to_json(),
            Merged::Port(p) => p.to_json(),
        }
    }

    /// The table.
    pub fn to_table(&self) -> String {
        match self {
            Merged::Crates(r) => r.to_table(),
            Merged::Port(p) => p.to_table(),
        }
    }

    /// JUnit XML.
    pub fn to_junit(&self) -> String {
        match self {
            Merged::Crates(r) => r.to_junit(),
            Merged::Port(p) => p.to_junit(),
        }
    }
}

fn same<T: PartialEq + fmt::Debug>(
    files: &[(String, ReportFile)],
    field: &str,
    get: impl Fn(&ReportFile) -> T,
) -> Result<(), MergeError> {
    let first = get(&files[0].1);
    for (name, f) in &files[1..] {
        let v = get(f);
        if v != first {
            return Err(err(
                MergeErrorKind::Mismatch,
                name,
                Some(field),
                format!(
                    "{} differs from {} in {}: not a shard of the same run",
                    crate::error::clip(&format!("{v:?}"), 200),
                    crate::error::clip(&format!("{first:?}"), 200),
                    files[0].0
                ),
            ));
        }
    }
    Ok(())
}

fn level_of(file: &str, field: &str, name: &str) -> Result<Level, MergeError> {
    Level::ALL
        .iter()
        .copied()
        .find(|l| l.name() == name)
        .ok_or_else(|| {
            err(
                MergeErrorKind::Field,
                file,
                Some(field),
                format!("{name:?} is not a level (L0..L4)"),
            )
        })
}

/// Merges the reports `files` (name, parsed report) of the shards `1/n .. n/n` of one run.
pub fn merge(files: Vec<(String, ReportFile)>) -> Result<Merged, MergeError> {
    if files.is_empty() {
        return Err(MergeError {
            kind: MergeErrorKind::NoInput,
            file: None,
            field: None,
            message: "no report to merge".into(),
        });
    }
    same(&files, "kit", |f| f.kit.clone())?;
    same(&files, "run.seed", |f| f.run.seed)?;
    same(&files, "run.sizes", |f| f.run.sizes.clone())?;
    same(&files, "run.families", |f| f.run.families.clone())?;
    same(&files, "run.vectors_manifest_sha256", |f| {
        f.run.vectors_manifest_sha256.clone()
    })?;
    same(&files, "run.shard.count", |f| f.run.shard.count)?;
    same(&files, "implementations", |f| f.implementations.clone())?;
    same(&files, "sections (names)", |f| {
        f.sections
            .iter()
            .map(|s| s.name.clone())
            .collect::<Vec<_>>()
    })?;
    same(&files, "port", |f| f.port.is_some())?;
    same(&files, "port.command", |f| {
        f.port.as_ref().map(|p| p.command.clone())
    })?;
    same(&files, "port.port_cases", |f| {
        f.port.as_ref().map(|p| p.port_cases)
    })?;
    same(&files, "port.timeout_seconds", |f| {
        f.port.as_ref().map(|p| p.timeout_seconds.to_bits())
    })?;
    same(&files, "port.limits", |f| {
        f.port.as_ref().map(|p| {
            let l = &p.limits;
            (
                l.max_reply_mb,
                l.max_consecutive_failures,
                l.max_failures,
                l.deadline_seconds.map(f64::to_bits),
            )
        })
    })?;
    same(&files, "port.handshake", |f| {
        f.port.as_ref().map(|p| p.handshake.clone())
    })?;
    same(&files, "port.expectations", |f| {
        f.port.as_ref().map(|p| {
            p.expectations.as_ref().map(|e| {
                e.iter()
                    .map(|x| (x.section.clone(), x.pattern.clone(), x.reason.clone()))
                    .collect::<Vec<_>>()
            })
        })
    })?;
    let count = files[0].1.run.shard.count;
    let mut by_index: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, (name, f)) in files.iter().enumerate() {
        if let Some(&j) = by_index.get(&f.run.shard.index) {
            return Err(err(
                MergeErrorKind::DuplicateShard,
                name,
                Some("run.shard.index"),
                format!("shard {} is also {}", f.run.shard, files[j].0),
            ));
        }
        by_index.insert(f.run.shard.index, i);
    }
    if let Some(k) = (1..=count).find(|k| !by_index.contains_key(k)) {
        return Err(MergeError {
            kind: MergeErrorKind::MissingShard,
            file: None,
            field: Some("run.shard.index".into()),
            message: format!(
                "shard {k}/{count} is missing ({} report(s) given)",
                files.len()
            ),
        });
    }
    // Shard order, so kept failures come in a reproducible order.
    let ordered: Vec<&(String, ReportFile)> = by_index.values().map(|&i| &files[i]).collect();
    let first = &ordered[0].1;
    let mut sections: Vec<Section> = first
        .sections
        .iter()
        .map(|s| Section::new(&s.name))
        .collect();
    for (_, f) in &ordered {
        for (m, s) in sections.iter_mut().zip(&f.sections) {
            m.merge(s.clone());
        }
    }
    let run = RunInfo {
        shard: Shard::ALL,
        ..first.run.clone()
    };
    let report = Report::new(first.implementations.clone(), sections, run);
    match &first.port {
        None => Ok(Merged::Crates(Box::new(report))),
        Some(_) => merge_port(&ordered, report).map(|p| Merged::Port(Box::new(p))),
    }
}

fn merge_port(files: &[&(String, ReportFile)], report: Report) -> Result<PortRun, MergeError> {
    let port_of = |f: &ReportFile| f.port.clone().expect("checked: every report has port");
    let p0 = port_of(&files[0].1);
    let hello = match &p0.handshake {
        HandshakeFile::Ok(h) => Ok(Hello {
            port: h.port.clone(),
            port_version: h.port_version.clone(),
            spec_version: h.spec_version.clone(),
            claims: h.claims.clone(),
        }),
        HandshakeFile::Err(e) => Err(crate::port::driver::HandshakeError::reported(&e.error)),
    };
    // Families: the minimum level of the differences, summed requests ([CONF.REPORT.MERGE]).
    struct Acc {
        claimed: Option<Level>,
        by_differences: Level,
        requests: u64,
        answered: u64,
        unimplemented: BTreeMap<String, u64>,
        breaks: Vec<LedgerEntry>,
    }
    let mut acc: BTreeMap<String, Acc> = BTreeMap::new();
    let mut starts = 0u64;
    let mut excused: BTreeMap<usize, u64> = BTreeMap::new();
    let mut shard_problems: Vec<String> = Vec::new();
    for (name, f) in files {
        let p = port_of(f);
        starts += p.driver_starts;
        let mut own_level_problems = BTreeSet::new();
        for fam in &p.families {
            let claimed = match &fam.claimed {
                Some(c) => Some(level_of(name, "port.families.claimed", c)?),
                None => None,
            };
            let reached = level_of(name, "port.families.reached", &fam.reached)?;
            let by = level_of(
                name,
                "port.families.reached_by_differences",
                &fam.reached_by_differences,
            )?;
            if let Some(c) = claimed {
                own_level_problems.insert(level_problem(&fam.family, c, reached));
            }
            let a = acc.entry(fam.family.clone()).or_insert(Acc {
                claimed,
                by_differences: Level::L4,
                requests: 0,
                answered: 0,
                unimplemented: BTreeMap::new(),
                breaks: Vec::new(),
            });
            if a.claimed != claimed {
                return Err(err(
                    MergeErrorKind::Mismatch,
                    name,
                    Some("port.families.claimed"),
                    format!("family {} claims differ between shards", fam.family),
                ));
            }
            a.by_differences = a.by_differences.min(by);
            a.requests += fam.requests;
            a.answered += fam.answered;
            for (op, n) in &fam.unimplemented {
                *a.unimplemented.entry(op.clone()).or_default() += n;
            }
            if let Some(e) = &fam.first_difference {
                a.breaks.push(LedgerEntry {
                    section: e.section.clone(),
                    label: e.label.clone(),
                    op: e.op.clone(),
                    variant: e.variant.clone(),
                    query: e.query.clone(),
                    brk: Break {
                        level: level_of(name, "port.families.first_difference.level", &e.level)?,
                        what: e.what.clone(),
                        expected: e.expected.clone(),
                        found: e.found.clone(),
                        step: e.step,
                        context: e
                            .context
                            .as_ref()
                            .map(|c| (c.expected.clone(), c.found.clone())),
                        first: e.first_divergence.clone(),
                    },
                    clauses: e.clauses.clone(),
                });
            }
        }
        for (i, x) in p.expectations.iter().flatten().enumerate() {
            *excused.entry(i).or_default() += x.excused;
        }
        for problem in &p.problems {
            if !own_level_problems.contains(problem) && !shard_problems.contains(problem) {
                shard_problems.push(problem.clone());
            }
        }
    }
    excused.retain(|_, n| *n > 0);
    let mut families = Vec::new();
    for (family, a) in acc {
        let reached = if a.answered == 0 {
            Level::L0
        } else {
            a.by_differences
        };
        // The unsharded run's first break: the lowest level, then section, label, variant,
        // query and what.
        let first_break = a.breaks.into_iter().min_by(|x, y| {
            (
                x.brk.level,
                rank(&x.section),
                &x.label,
                &x.variant,
                &x.query,
                &x.brk.what,
            )
                .cmp(&(
                    y.brk.level,
                    rank(&y.section),
                    &y.label,
                    &y.variant,
                    &y.query,
                    &y.brk.what,
                ))
        });
        families.push(FamilyResult {
            family,
            claimed: a.claimed,
            reached,
            by_differences: a.by_differences,
            first_break,
            unimplemented: a.unimplemented,
            answered: a.answered,
            requests: a.requests,
        });
    }
    let expect = p0.expectations.as_ref().map(|list| Expectations {
        schema: "onepath.port-expectations".into(),
        version: 1,
        comment: None,
        families: hello
            .as_ref()
            .map(|h| h.claims.keys().cloned().collect())
            .unwrap_or_default(),
        known_failures: list
            .iter()
            .map(|x| KnownFailure {
                section: x.section.clone(),
                pattern: x.pattern.clone(),
                reason: x.reason.clone(),
            })
            .collect(),
    });
    let mut problems: Vec<String> = families
        .iter()
        .filter_map(|f| match f.claimed {
            Some(c) if f.reached < c => Some(level_problem(&f.family, c, f.reached)),
            _ => None,
        })
        .collect();
    for p in shard_problems {
        if !problems.contains(&p) {
            problems.push(p);
        }
    }
    if let Some(e) = &expect {
        for (i, k) in e.known_failures.iter().enumerate() {
            let p = stale_expectation(i, k);
            if !excused.contains_key(&i) && !problems.contains(&p) {
                problems.push(p);
            }
        }
    }
    let mut options = PortOptions::new(&p0.command);
    options.seed = report.run.seed;
    options.cases = p0.port_cases;
    options.timeout = Duration::from_secs_f64(p0.timeout_seconds);
    options.max_reply_mb = p0.limits.max_reply_mb;
    options.max_consecutive_failures = p0.limits.max_consecutive_failures;
    options.max_failures = p0.limits.max_failures;
    options.deadline = p0.limits.deadline_seconds.map(Duration::from_secs_f64);
    options.vectors_dir = report.run.vectors_dir.as_ref().map(Into::into);
    options.expect = expect.clone();
    options.threads = 1;
    options.families =
        crate::config::FamilySet::parse(&report.run.families.join(",")).expect("checked when read");
    // [DRIVER.CLI.SINCE] Every shard computed the same diff before its run: the first one's.
    options.since = p0.clauses_since.clone();
    let mut failed_vectors: BTreeMap<String, String> = BTreeMap::new();
    for (_, f) in files {
        for (id, line) in &port_of(f).failed_vectors {
            failed_vectors
                .entry(id.clone())
                .or_insert_with(|| line.clone());
        }
    }
    Ok(PortRun {
        hello,
        manifest_sha256: report
            .run
            .vectors_manifest_sha256
            .clone()
            .unwrap_or_default(),
        report,
        families,
        excused,
        problems,
        expect,
        starts,
        options,
        failed_vectors,
        failure_files: None,
    })
}
