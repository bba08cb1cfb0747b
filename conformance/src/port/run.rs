//! `certify --port`: every section on the reference and the port, levels per family, the
//! expectations file, the consumed-vectors check, and the reports (table, JSON member `port`,
//! JUnit XML, certificate: rendered in [`super::report`]) ([DRIVER.CLI.*], [DRIVER.LEVEL.*],
//! [DRIVER.EXPECT.*], [DRIVER.REPORT.*]).
//! [CONF.CLI.PORT] is the entry point of this module.

use super::driver::Hello;
use super::protocol::SPEC_VERSION;
use super::{op_family, op_level, LedgerEntry, PortImpl};
use crate::checks::{self, Config, Shard};
use crate::config::FamilySet;
use crate::expectations::Expectations;
use crate::implementation::Implementation;
use crate::levels::{failure_level, Level};
use crate::outcome::sha256_hex;
use crate::report::{Failure, Report, Section};
use crate::ReferenceCrate;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

mod failed_vectors;
pub mod heartbeat;
mod render;
pub(crate) mod shard;
pub use render::entry_json;
use shard::{name_unanswered, shard_subset};

/// Default generated-case count of a port run (`--port-cases`).
pub const DEFAULT_PORT_CASES: usize = 200;
/// Default per-request timeout (`--timeout`, seconds).
pub const DEFAULT_TIMEOUT_SECS: f64 = 10.0;

/// How to run a port certification.
#[derive(Clone, Debug)]
pub struct PortOptions {
    /// The driver command (run with `sh -c`).
    pub command: String,
    /// Per-request timeout.
    pub timeout: Duration,
    /// Generated oracle cases (the other sections scale from it, [DRIVER.CLI.CASES]).
    pub cases: usize,
    /// Base seed.
    pub seed: u64,
    /// The committed vectors, or none.
    pub vectors_dir: Option<PathBuf>,
    /// Concurrent driver processes.
    pub threads: usize,
    /// The expectations file, parsed.
    pub expect: Option<Expectations>,
    /// Virtual-memory limit of each driver process, MiB (0: none).
    pub memory_limit_mb: u64,
    /// Cap of one reply line, MiB ([DRIVER.PROC.CAP]).
    pub max_reply_mb: u64,
    /// K of the failure budget ([DRIVER.PROC.BUDGET]).
    pub max_consecutive_failures: usize,
    /// Failed requests of the whole run after which nothing more is sent ([DRIVER.PROC.BUDGET]).
    pub max_failures: u64,
    /// The run's deadline, or none ([DRIVER.PROC.DEADLINE]).
    pub deadline: Option<Duration>,
    /// The part of the cases this run takes ([CONF.CLI.SHARD]).
    pub shard: Shard,
    /// The interval of the progress line on stderr, or none ([DRIVER.CLI.PROGRESS]).
    pub heartbeat: Option<Duration>,
    /// The claim families this run judges ([CONF.CLI.FAMILY]).
    pub families: FamilySet,
    /// The clause diff since the index the port was last certified against
    /// ([DRIVER.CLI.SINCE]), computed before the run.
    pub since: Option<super::since::SinceDiff>,
    /// Stop at the first failure that fails the verdict ([DRIVER.CLI.FAIL_FAST]).
    pub fail_fast: bool,
    /// Write the requests of every failing label there ([DRIVER.CLI.FAILURES_DIR]).
    pub failures_dir: Option<PathBuf>,
}

impl PortOptions {
    /// Defaults for `command`.
    pub fn new(command: &str) -> Self {
        PortOptions {
            command: command.to_string(),
            timeout: Duration::from_secs_f64(DEFAULT_TIMEOUT_SECS),
            cases: DEFAULT_PORT_CASES,
            seed: checks::DEFAULT_SEED,
            vectors_dir: Some(checks::default_vectors_dir()),
            threads: checks::default_threads(),
            expect: None,
            memory_limit_mb: super::driver::DEFAULT_MEMORY_LIMIT_MB,
            max_reply_mb: super::process::DEFAULT_MAX_REPLY_MB,
            max_consecutive_failures: super::budget::DEFAULT_MAX_CONSECUTIVE_FAILURES,
            max_failures: super::budget::DEFAULT_MAX_FAILURES,
            deadline: Some(Duration::from_secs(super::budget::DEFAULT_DEADLINE_SECS)),
            shard: Shard::ALL,
            heartbeat: None,
            families: FamilySet::ALL,
            since: None,
            fail_fast: false,
            failures_dir: None,
        }
    }

    /// The driver limits of these options.
    pub fn limits(&self) -> super::driver::DriverLimits {
        super::driver::DriverLimits {
            timeout: self.timeout,
            memory_limit_mb: self.memory_limit_mb,
            max_reply_mb: self.max_reply_mb,
            max_consecutive_failures: self.max_consecutive_failures,
            max_failures: self.max_failures,
            deadline: self.deadline,
        }
    }

    /// The section sizes for `cases` generated cases ([DRIVER.CLI.CASES]).
    pub fn config(&self) -> Config {
        let n = self.cases;
        Config {
            seed: self.seed,
            oracle_graphs: n,
            landmark_graphs: (n / 10).max(1),
            sliced_graphs: (n / 5).max(1),
            link_sets: n,
            hook_graphs: (n / 5).max(1),
            cancel_graphs: (n / 5).max(1),
            // [DRIVER.CLI.CASES]: N/25 generated grid maps, MovingAI maps of side 32 with 4
            // length buckets.
            grid_cases: (n / 25).max(1),
            // [DRIVER.CLI.CASES]: N/50 replanner edit scripts (the first is the long one).
            replan_cases: (n / 50).max(1),
            // [DRIVER.CLI.CASES]: N/50 flow-field edit scripts (the first is the long one).
            flow_cases: (n / 50).max(1),
            movingai_side: 32,
            movingai_buckets: 4,
            vectors_dir: self.vectors_dir.clone(),
            threads: self.threads.max(1),
            shard: self.shard,
            families: self.families,
            stop: crate::case_stop::CaseStop::never(),
        }
    }
}

/// The outcome of one family.
#[derive(Clone, Debug, PartialEq)]
pub struct FamilyResult {
    /// `graph`, `state`...
    pub family: String,
    /// The level the port claims, if it claims the family.
    pub claimed: Option<Level>,
    /// The highest level reached.
    pub reached: Level,
    /// The level the differences and unanswered requests allow, before the rule that a family
    /// with no answered request reaches L0 (what a merge of shards takes the minimum of).
    pub by_differences: Level,
    /// The first difference at the lowest broken level (sorted: level, vectors first, then
    /// section order, label, variant, query).
    pub first_break: Option<LedgerEntry>,
    /// Ops the port answered `unimplemented`, with counts.
    pub unimplemented: BTreeMap<String, u64>,
    /// Requests answered ok / sent.
    pub answered: u64,
    /// Requests sent.
    pub requests: u64,
}

impl LedgerEntry {
    /// The quoted difference: `label / variant / query q: what: expected e, found f`.
    pub fn quote(&self) -> String {
        format!(
            "{}{}{}: {}: expected {}, found {}",
            self.label,
            self.variant
                .as_ref()
                .map_or(String::new(), |v| format!(" / {v}")),
            self.query
                .as_ref()
                .map_or(String::new(), |q| format!(" / query {q}")),
            self.brk.what,
            self.brk.expected,
            self.brk.found
        )
    }
}

/// A ledger record as the first divergence of its request ([DRIVER.LEVEL.FIRST]): its variant
/// and query, then the place its walker named or else its difference.
fn first_of(x: &LedgerEntry) -> String {
    let mut at: Vec<String> = Vec::new();
    if let Some(v) = &x.variant {
        at.push(v.clone());
    }
    if let Some(q) = &x.query {
        at.push(format!("query {q}"));
    }
    let what = x.brk.first.clone().unwrap_or_else(|| {
        format!(
            "{}: expected {}, found {}",
            x.brk.what, x.brk.expected, x.brk.found
        )
    });
    if at.is_empty() {
        what
    } else {
        format!("{}: {what}", at.join(" / "))
    }
}

impl FamilyResult {
    /// The level report's first difference ([DRIVER.LEVEL.REACHED]): the header
    /// `<family>: reaches Lx but not Ly; first difference (<section> section, <op>):`, the quoted
    /// difference and its context, all rendered from the one ledger record `first_break`.
    pub fn first_difference_text(&self) -> Option<String> {
        let e = self.first_break.as_ref()?;
        let mut out = format!(
            "{}: reaches {} but not {}; first difference ({} section, {}):\n  {}\n",
            self.family,
            self.reached.name(),
            e.brk.level.name(),
            e.section,
            e.op,
            e.quote()
        );
        if let Some((a, b)) = &e.brk.context {
            out.push_str(&format!("    expected {a}\n    found    {b}\n"));
        }
        // [DRIVER.LEVEL.FIRST] Where the replies part first, beside the lowest level broken.
        if let Some(first) = &e.brk.first {
            out.push_str(&format!("  first divergence (reply order): {first}\n"));
        }
        if !e.clauses.is_empty() {
            out.push_str(&format!("  the vector pins [{}]\n", e.clauses.join("] [")));
        }
        Some(out)
    }
}

/// Everything a port run produced.
#[derive(Debug)]
pub struct PortRun {
    /// The handshake (or why it failed).
    pub hello: Result<Hello, super::driver::HandshakeError>,
    /// Every section, the `protocol`, `unimplemented` and `consumed` sections included.
    pub report: Report,
    /// Per family.
    pub families: Vec<FamilyResult>,
    /// Expectations that excused something: index, and how many failures.
    pub excused: BTreeMap<usize, u64>,
    /// The verdict: empty when the port passes.
    pub problems: Vec<String>,
    /// SHA-256 of `vectors/MANIFEST.json` (empty without vectors).
    pub manifest_sha256: String,
    /// The expectations used.
    pub expect: Option<Expectations>,
    /// Driver processes started.
    pub starts: u64,
    /// Options of the run.
    pub options: PortOptions,
    /// The run's vectors with a difference or an unanswered request, each with its first
    /// difference line, excused or not ([DRIVER.REPORT.JUNIT]).
    pub failed_vectors: BTreeMap<String, String>,
    /// What `--failures-dir` wrote, or why it could not ([DRIVER.CLI.FAILURES_DIR]).
    pub failure_files: Option<
        Result<super::failure_requests::FailureFiles, super::failure_requests::FailuresDirError>,
    >,
}

impl PortRun {
    /// True when the port passes ([DRIVER.VERDICT]).
    pub fn ok(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Whether a failure counts whatever the port claims ([DRIVER.VERDICT]): the reference's own
/// failures, and failures of the vectors folder itself (implementation `-`: a file that does
/// not read or validate, a manifest mismatch), which no claim can excuse.
pub(crate) fn always_counts(f: &crate::report::Failure) -> bool {
    f.implementation == ReferenceCrate.name() || f.implementation == "-"
}

/// The family a section failure belongs to: the first registry family that owns its label or
/// its request ([`crate::family::claim_of`]).
fn failure_family(_section: &str, label: &str, what: &str) -> &'static str {
    crate::family::claim_of(label, what).name()
}

const SECTION_ORDER: [&str; 11] = [
    "vectors",
    "differential",
    "landmarks",
    "sliced",
    "links",
    "hooks",
    "cancel",
    "errors",
    "state",
    "grid-search",
    "movingai",
];

pub(crate) fn rank(section: &str) -> usize {
    SECTION_ORDER
        .iter()
        .position(|s| section.starts_with(s))
        .unwrap_or(SECTION_ORDER.len())
}

/// How the verdict's problem for a section with failures that count begins (the renderer
/// tells a section whose failures all go uncounted by its absence, [DRIVER.REPORT.UNCLAIMED]).
pub(crate) fn section_problem_prefix(section: &str) -> String {
    format!("section {section}: ")
}

/// The verdict's problem for an expectation that excused nothing ([DRIVER.EXPECT.ROT]).
pub(crate) fn stale_expectation(i: usize, k: &crate::expectations::KnownFailure) -> String {
    format!(
        "expectation {i} ({} / {}: {}) matches no failure: it passes now or never matched; remove it",
        k.section, k.pattern, k.reason
    )
}

/// The verdict's problem for a family below its claim.
pub(crate) fn level_problem(family: &str, claimed: Level, reached: Level) -> String {
    format!(
        "{family}: claimed {}, reached {}",
        claimed.name(),
        reached.name()
    )
}

/// Runs the whole certification of the port behind `options.command`.
pub fn certify_port(options: PortOptions) -> PortRun {
    let mut port = PortImpl::with_limits(&options.command, options.limits());
    let mut config = options.config();
    // [DRIVER.PROC.DEADLINE]: past the deadline no new generated case starts either.
    if let Some(at) = port.pool.budget.deadline_at() {
        config.stop = crate::case_stop::CaseStop::at(at);
    }
    // [DRIVER.CLI.FAILURES_DIR] Every request line is spooled by label from the first one on.
    let mut spool_error = None;
    if let Some(dir) = &options.failures_dir {
        match super::failure_requests::RequestSpool::create(dir) {
            Ok(s) => {
                let _ = port.pool.spool.set(s);
            }
            Err(e) => spool_error = Some(e),
        }
    }
    let mut hello = port.pool.hello();
    // [CONF.CLI.FAMILY]: the run judges the port's claims in the selected families only; a
    // selected family the port does not claim is a problem of the verdict.
    let mut unclaimed_selected = Vec::new();
    if let Ok(h) = &mut hello {
        port.set_name(&h.port);
        if !config.families.is_all() {
            for f in config.families.names() {
                if !h.claims.contains_key(&f) {
                    unclaimed_selected.push(f);
                }
            }
            h.claims
                .retain(|f, _| config.families.names().iter().any(|n| n == f));
        }
    }
    // [DRIVER.CLI.FAIL_FAST] Armed with the claims the run judges (never with `--expect`).
    if let (true, None, Ok(h)) = (options.fail_fast, &options.expect, &hello) {
        let claims = h
            .claims
            .iter()
            .map(|(f, &l)| (f.clone(), Level::from_number(l as u64)))
            .collect();
        port.arm_fail_fast(super::fail_fast::FailFast::new(claims, config.stop.clone()));
    }
    crate::family::name_cases(&port, &config);
    let reference: &dyn Implementation = &ReferenceCrate;
    let all: [&dyn Implementation; 2] = [reference, &port];
    let mut sections: Vec<Section> = Vec::new();
    if hello.is_ok() {
        let run = crate::family::Run {
            reference,
            candidates: &[&port],
            all: &all,
            config: &config,
            progress: None,
            host: &port,
        };
        sections = heartbeat::with_heartbeat(&port, options.heartbeat, || {
            crate::family::certify_sections(&run)
        });
    }
    // [DRIVER.PROC.EOF] Each idle driver exits with status 0 once its stdin is closed.
    let bad_exits = port.pool.shutdown();
    let skipped = config.stop.skipped();
    let halted = config.stop.halted();
    if !skipped.is_empty() && !halted {
        // The cases were skipped because the deadline passed: the verdict names it.
        port.pool.budget.deadline_passed();
    }
    let starts = port.pool.starts.load(std::sync::atomic::Ordering::SeqCst);
    let spool = port.pool.spool.take();
    let budget_problems = port.pool.budget.problems();
    let ledger = port.ledger.into_inner().expect("ledger");
    let port_name = hello
        .as_ref()
        .map(|h| h.port.clone())
        .unwrap_or_else(|_| "port".into());

    // The protocol and unimplemented sections ([DRIVER.PROC.FAILURES], [DRIVER.MSG.UNIMPLEMENTED]).
    let mut protocol = Section::new("protocol");
    let mut unimpl = Section::new("unimplemented");
    // Requests the budget or the deadline stopped ([DRIVER.PROC.BUDGET]): never a pass.
    let mut not_run = Section::new("not run");
    let not_run_count = ledger.events.iter().filter(|e| e.kind == "not run").count() as u64;
    let total: u64 = ledger.requests.values().sum::<u64>() - not_run_count;
    let events_failed = ledger
        .events
        .iter()
        .filter(|e| e.kind != "unimplemented" && e.kind != "not run")
        .count() as u64;
    // Skipped cases first: a section's whole remainder is one line, kept before the requests.
    for (section, n) in &skipped {
        not_run.fail(Failure {
            case: Some(section.clone()),
            implementation: port_name.clone(),
            what: format!("port: not run ({n} generated cases of section {section} not started)"),
            expected: "an answer".into(),
            found: if halted {
                "stopped at the first failure (--fail-fast); cases not started".to_string()
            } else {
                format!(
                    "deadline of {} s exceeded; cases not started",
                    options.deadline.map_or(0.0, |d| d.as_secs_f64())
                )
            },
            ..Default::default()
        });
    }
    for e in &ledger.events {
        let f = Failure {
            case: Some(e.label.clone()),
            implementation: port_name.clone(),
            what: format!(
                "port: {} ({}, request {}, section {})",
                e.kind, e.op, e.id, e.section
            ),
            expected: if e.kind == "unimplemented" {
                "an implementation".into()
            } else {
                "an answer".into()
            },
            found: e.message.clone(),
            ..Default::default()
        };
        if e.kind == "unimplemented" {
            unimpl.fail(f);
        } else if e.kind == "not run" {
            not_run.fail(f);
        } else {
            protocol.fail(f);
        }
    }
    protocol.checks += total.saturating_sub(protocol.checks);
    protocol.passed = protocol.checks - events_failed;
    for code in &bad_exits {
        protocol.fail(Failure {
            implementation: port_name.clone(),
            what: "port: exit status after end of input".into(),
            expected: "exit status 0".into(),
            found: format!("exit status {code}"),
            ..Default::default()
        });
    }
    if let (Err(e), true) = (&hello, config.shard.is_first()) {
        protocol.fail(Failure {
            implementation: port_name.clone(),
            what: "port: handshake".into(),
            expected: "a handshake".into(),
            found: e.to_string(),
            ..Default::default()
        });
    }

    // Every committed vector consumed ([DRIVER.CONSUMED]).
    let mut consumed = Section::new("consumed");
    // Unimplemented ops are reported (and cap the level) on their own; a case is unanswered when
    // a request of it crashed, timed out or got a malformed or error reply.
    let unanswered_labels: BTreeSet<&str> = ledger
        .events
        .iter()
        .filter(|e| e.kind != "unimplemented")
        .map(|e| e.label.as_str())
        .collect();
    // The committed vectors of the claimed families, each family's in its shard order: a
    // vector's requests are those labelled with its id (or, for a vector with hostile cases,
    // `<id>-H<nnnn>`).
    let claimed_families: BTreeSet<&str> = hello
        .as_ref()
        .map(|h| h.claims.keys().map(String::as_str).collect())
        .unwrap_or_default();
    let vectors: Vec<crate::family::VectorRef> = match (&hello, config.vectors_dir.as_deref()) {
        (Ok(_), Some(dir)) => crate::family::REGISTRY
            .iter()
            .flat_map(|f| {
                // Selected first, then sharded: the order the sections take ([CONF.CLI.FAMILY]).
                let refs: Vec<crate::family::VectorRef> = f
                    .vectors(dir)
                    .into_iter()
                    .filter(|v| config.families.contains(v.claim))
                    .collect();
                shard_subset(&refs, config.shard)
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .filter(|v| claimed_families.contains(v.claim.name()))
            .collect(),
        _ => Vec::new(),
    };
    // [DRIVER.REPORT.JUNIT] Every vector with a difference or an unanswered request, from the
    // whole ledger (not only the failures a section keeps).
    let failed_vectors = failed_vectors::failed_vectors(&vectors, &ledger);
    for v in &vectors {
        let answered: u64 = ledger
            .answered_labels
            .iter()
            .filter(|(l, _)| v.owns(l))
            .map(|(_, n)| n)
            .sum();
        let unanswered = ledger
            .events
            .iter()
            .filter(|e| e.kind != "unimplemented" && v.owns(&e.label))
            .count();
        consumed.record((answered == 0 || unanswered > 0).then(|| Failure {
            vector: Some(v.id.clone()),
            implementation: port_name.clone(),
            what: "vector consumed".into(),
            expected: if v.hostile {
                "every request of the vector and its hostile cases answered".into()
            } else {
                "every request of the vector answered".into()
            },
            found: format!("{answered} answered, {unanswered} unanswered"),
            ..Default::default()
        }));
    }
    let is_vector = |l: &str| vectors.iter().any(|v| v.owns(l));
    for label in unanswered_labels.iter().filter(|l| !is_vector(l)) {
        consumed.fail(Failure {
            case: Some(label.to_string()),
            implementation: port_name.clone(),
            what: "case consumed".into(),
            expected: "every request of the case answered".into(),
            found: format!(
                "{} unanswered",
                ledger
                    .events
                    .iter()
                    .filter(|e| e.label == *label && e.kind != "unimplemented")
                    .count()
            ),
            ..Default::default()
        });
    }
    name_unanswered(&mut sections);
    sections.push(protocol);
    sections.push(unimpl);
    if not_run.failed > 0 {
        sections.push(not_run);
    }
    sections.push(consumed);

    // Expectations.
    let expect = options.expect.clone();
    let mut excused: BTreeMap<usize, u64> = BTreeMap::new();
    let mut is_excused = |section: &str, label: &str| -> bool {
        match expect.as_ref().and_then(|e| e.find(section, label)) {
            Some(i) => {
                *excused.entry(i).or_default() += 1;
                true
            }
            None => false,
        }
    };

    // Levels per family ([DRIVER.LEVEL.REACHED]).
    let claims: BTreeMap<String, u8> = hello.as_ref().map(|h| h.claims.clone()).unwrap_or_default();
    let mut family_names: BTreeSet<String> = claims.keys().cloned().collect();
    family_names.insert("graph".into());
    family_names.extend(ledger.requests.keys().map(|op| op_family(op).to_string()));
    let selection = config.families.names();
    family_names.retain(|f| selection.contains(f));
    let mut entries: Vec<&LedgerEntry> = ledger.entries.iter().collect();
    entries.sort_by(|a, b| {
        (a.brk.level, failed_vectors::entry_key(a))
            .cmp(&(b.brk.level, failed_vectors::entry_key(b)))
    });
    let pins = config
        .vectors_dir
        .as_deref()
        .map(crate::vector_clauses::VectorClauses::read);
    let mut families = Vec::new();
    for fam in &family_names {
        let mut reached = Level::L4;
        let mut first_break = None;
        for e in entries.iter().filter(|e| op_family(&e.op) == fam) {
            if is_excused(&e.section, &e.label) {
                continue;
            }
            if e.brk.level.below() < reached {
                reached = e.brk.level.below();
                first_break = Some((*e).clone());
            }
        }
        let mut unimplemented: BTreeMap<String, u64> = BTreeMap::new();
        for ev in ledger.events.iter().filter(|e| op_family(&e.op) == fam) {
            if is_excused(&ev.section, &ev.label) {
                continue;
            }
            // A request a `--fail-fast` run left unsent caps no level: the levels are those of
            // what ran ([DRIVER.CLI.FAIL_FAST]).
            if ev.kind == "not run" && ev.message == super::budget::FAIL_FAST_NOT_SENT {
                continue;
            }
            // No usable answer is no evidence for the levels the op shows ([DRIVER.LEVEL.UNANSWERED]).
            if ev.kind == "unimplemented" {
                *unimplemented.entry(ev.op.clone()).or_default() += 1;
            }
            let cap = op_level(&ev.op).below();
            reached = reached.min(cap);
        }
        let requests: u64 = ledger
            .requests
            .iter()
            .filter(|(op, _)| op_family(op) == fam)
            .map(|(_, n)| n)
            .sum();
        let answered: u64 = ledger
            .answered
            .iter()
            .filter(|(op, _)| op_family(op) == fam)
            .map(|(_, n)| n)
            .sum();
        let by_differences = reached;
        if answered == 0 {
            reached = Level::L0;
        }
        // [DRIVER.LEVEL.FIRST] The first difference of the same request in reply order: the
        // earliest ledger record of its section, label and op (queries and variants in the order
        // of the reply) when that is another record.
        if let Some(e) = first_break.as_mut() {
            let earliest = ledger.entries.iter().find(|x| {
                x.section == e.section
                    && x.label == e.label
                    && x.op == e.op
                    && expect
                        .as_ref()
                        .and_then(|ex| ex.find(&x.section, &x.label))
                        .is_none()
            });
            if let Some(x) = earliest.filter(|x| **x != *e) {
                e.brk.first = Some(first_of(x));
            }
        }
        // [CONF.REPORT.CLAUSES] The first difference names the clauses its vector pins.
        if let (Some(e), Some(table)) = (first_break.as_mut(), pins.as_ref()) {
            e.clauses = table.of(&e.label);
        }
        families.push(FamilyResult {
            family: fam.clone(),
            claimed: claims.get(fam).map(|&l| Level::from_number(l as u64)),
            reached,
            by_differences,
            first_break,
            unimplemented,
            answered,
            requests,
        });
    }

    // The verdict ([DRIVER.VERDICT]).
    let mut problems = Vec::new();
    match &hello {
        Err(e) => problems.push(format!("handshake: {e}")),
        Ok(h) => {
            if h.spec_version != SPEC_VERSION {
                problems.push(format!(
                    "the port implements spec {}, the kit certifies {SPEC_VERSION}",
                    h.spec_version
                ));
            }
            for f in &unclaimed_selected {
                problems.push(format!("--family {f}: the port does not claim it"));
            }
            if h.claims.is_empty() && unclaimed_selected.is_empty() {
                problems.push("the port claims no family".into());
            }
        }
    }
    problems.extend(budget_problems.iter().cloned());
    if let Some(code) = bad_exits.first() {
        problems.push(format!(
            "{} driver(s) exited with a status other than 0 after the kit closed their stdin (first: {code}) [DRIVER.PROC.EOF]",
            bad_exits.len()
        ));
    }
    for f in &families {
        if let Some(c) = f.claimed {
            if f.reached < c {
                problems.push(level_problem(&f.family, c, f.reached));
            }
        }
    }
    let claim_of = |fam: &str| claims.get(fam).map(|&l| Level::from_number(l as u64));
    for s in &sections {
        if s.failed == 0 {
            continue;
        }
        let mut unexcused = 0u64;
        let mut first: Option<String> = None;
        for f in &s.failures {
            let label = f
                .vector
                .clone()
                .or_else(|| f.case.clone())
                .unwrap_or_else(|| "-".into());
            if is_excused(&s.name, &label) {
                continue;
            }
            let fam = failure_family(&s.name, &label, &f.what);
            if !always_counts(f) && claim_of(fam).is_none() {
                continue; // a family the port does not claim
            }
            let beyond = matches!(claim_of(fam), Some(c) if failure_level(&s.name, &f.what) > c)
                && !always_counts(f);
            if beyond
                && !["protocol", "consumed", "unimplemented", "not run"].contains(&s.name.as_str())
            {
                continue;
            }
            unexcused += 1;
            first.get_or_insert_with(|| f.line());
        }
        let unseen = s.failed - s.failures.len() as u64;
        if unseen > 0 && unexcused == 0 {
            // [DRIVER.VERDICT] The failures past the kept ones are judged through the ledger,
            // which holds every difference: each must be excused, in a family the port does
            // not claim, or above the family's claim (as a kept failure would be).
            let all_excused = ledger
                .entries
                .iter()
                .filter(|e| e.section == s.name)
                .all(|e| {
                    let excused = expect
                        .as_ref()
                        .and_then(|x| x.find(&s.name, &e.label))
                        .is_some();
                    let fam = failure_family(&s.name, &e.label, &e.op);
                    let above = matches!(claim_of(fam), Some(c) if e.brk.level > c)
                        && !["protocol", "consumed", "unimplemented", "not run"]
                            .contains(&s.name.as_str());
                    excused || claim_of(fam).is_none() || above
                });
            if !all_excused {
                unexcused += unseen;
                first.get_or_insert_with(|| {
                    format!("{unseen} failures beyond the {} kept", s.failures.len())
                });
            }
        }
        if s.name == "unimplemented" {
            // Unimplemented ops cap the level (above); they fail the run only through a claim.
            continue;
        }
        if unexcused > 0 {
            problems.push(format!(
                "{}{unexcused} unexpected failure(s), first: {}",
                section_problem_prefix(&s.name),
                first.unwrap_or_default()
            ));
        }
    }
    if let Some(e) = &expect {
        let claimed: BTreeSet<&str> = claims.keys().map(String::as_str).collect();
        let listed: BTreeSet<&str> = e
            .families
            .iter()
            .map(String::as_str)
            .filter(|f| selection.iter().any(|n| n == f))
            .collect();
        if hello.is_ok() && claimed != listed {
            problems.push(format!(
                "expectations list families {listed:?}, the driver claims {claimed:?}"
            ));
        }
        // A shard sees part of the failures: stale expectations are judged by the merge
        // ([CONF.REPORT.MERGE]).
        for (i, k) in e.known_failures.iter().enumerate() {
            if options.shard.count == 1 && !excused.contains_key(&i) {
                problems.push(stale_expectation(i, k));
            }
        }
    }

    let manifest_sha256 = config
        .vectors_dir
        .as_ref()
        .and_then(|d| crate::input::read_in_folder(d, crate::vectors::MANIFEST_PATH).ok())
        .map(|b| sha256_hex(&b))
        .unwrap_or_default();
    let report = Report::new(
        vec![ReferenceCrate.name().to_string(), port_name],
        sections,
        crate::report::RunInfo::of(&config),
    );
    // [DRIVER.CLI.FAILURES_DIR] The requests of every label that failed in a claimed family.
    let failure_files = match (spool_error, spool) {
        (Some(e), _) => Some(Err(e)),
        (None, Some(spool)) => {
            let failing =
                super::failure_requests::failing_labels(&ledger.entries, &ledger.events, |fam| {
                    claims.contains_key(fam)
                });
            let hello_line =
                serde_json::to_string(&super::protocol::hello()).expect("the hello encodes");
            Some(spool.write(&failing, &hello_line, &options.command))
        }
        (None, None) => None,
    };
    PortRun {
        failure_files,
        hello,
        report,
        families,
        excused,
        problems,
        manifest_sha256,
        expect,
        starts,
        options,
        failed_vectors,
    }
}

pub use super::flags::{civil_date, today, valid_date};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(19_723), "2024-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert!(valid_date("2025-11-29") && !valid_date("2025-1-29"));
        assert!(valid_date("2024-02-29") && !valid_date("2025-02-29") && !valid_date("2025-13-01"));
    }
}
