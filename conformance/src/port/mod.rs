//! Out-of-process ports ([DRIVER.*], `spec/driver.md`): the driver protocol, the process pool,
//! the [`PortImpl`] adapter that implements [`Implementation`] by forwarding to a driver, the
//! ledger that compares every answer with the reference's at level granularity, and the
//! `certify --port` run.

pub mod budget;
pub mod cli_args;
pub mod driver;
pub mod fail_fast;
pub mod failure_requests;
pub mod flags;
pub mod messages;
pub mod process;
pub mod protocol;
pub mod replies;
mod request_call;
pub mod run;
pub mod schemas;
pub mod since;
pub mod templates;
pub mod wire;

use crate::error::{CallError, HarnessError};
use crate::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, Implementation, LinkRequest,
    LinkResult, OplmError, RunOptions,
};
use crate::levels::{self, Break, Level};
use crate::outcome::{sha256_hex, Outcome};
use crate::scenario::{Case, Query, Variant};
use crate::ReferenceCrate;
use driver::{Pool, Reply};
use messages::Request;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::Duration;

/// The family an op belongs to ([DRIVER.LEVEL.FAMILY]): the claim family named after its `:`
/// (`run_lattice:hex-search`, `run_hpa:hpa`, `state_run:grids`, ...), else `graph`.
pub fn op_family(op: &str) -> &'static str {
    op.rsplit_once(':')
        .and_then(|(_, f)| {
            crate::claims::Family::ALL
                .iter()
                .map(|f| f.name())
                .find(|name| *name == f)
        })
        .unwrap_or("graph")
}

/// The lowest level whose evidence an op provides: an unimplemented op caps its family just
/// below it ([DRIVER.LEVEL.UNANSWERED]).
pub fn op_level(op: &str) -> Level {
    match op {
        "run_sliced" | "run_cancelled" | "lower_bounds" => Level::L3,
        "build_landmarks" | "deserialize_oplm" => Level::L4,
        o if o.starts_with("describe") => Level::L2,
        o if o.starts_with("state_") => Level::L4,
        _ => Level::L1,
    }
}

/// One difference between the port's and the reference's answer to the same call.
#[derive(Clone, Debug, PartialEq)]
pub struct LedgerEntry {
    /// The section running when the call was made.
    pub section: String,
    /// Vector id (graph, golden or hostile state vector), generated case name, or `case:<hash>`
    /// when the request has neither.
    pub label: String,
    /// The op.
    pub op: String,
    /// The variant, when the op has one.
    pub variant: Option<String>,
    /// The query index within the call, when the op has queries.
    pub query: Option<String>,
    /// The difference.
    pub brk: Break,
    /// The clauses the vector `label` pins ([CONF.REPORT.CLAUSES]); filled for a family's first
    /// difference when the run ends.
    pub clauses: Vec<String>,
}

/// A request that got no usable answer ([DRIVER.PROC.FAILURES]).
#[derive(Clone, Debug, PartialEq)]
pub struct ProtocolEvent {
    /// `crash`, `timeout`, `malformed reply`, `driver error`, `unimplemented`, `not run`.
    pub kind: String,
    /// The request id.
    pub id: u64,
    /// The section running.
    pub section: String,
    /// The case label.
    pub label: String,
    /// The op.
    pub op: String,
    /// Details.
    pub message: String,
}

/// Everything the adapter observed.
#[derive(Debug, Default)]
pub struct Ledger {
    /// The section running now.
    pub section: String,
    /// Differences from the reference, all of them.
    pub entries: Vec<LedgerEntry>,
    /// Requests without a usable answer (unimplemented included).
    pub events: Vec<ProtocolEvent>,
    /// Requests sent per op.
    pub requests: BTreeMap<String, u64>,
    /// Answered (ok) requests per op.
    pub answered: BTreeMap<String, u64>,
    /// Labels with at least one ok answer.
    pub answered_labels: BTreeMap<String, u64>,
}

/// A port driven over a pipe, as an [`Implementation`].
pub struct PortImpl {
    name: String,
    /// The driver processes.
    pub pool: Pool,
    /// What was observed.
    pub ledger: Mutex<Ledger>,
    labels: Mutex<HashMap<String, String>>,
    /// Armed by a `--fail-fast` run after the handshake ([DRIVER.CLI.FAIL_FAST]).
    fail_fast: std::sync::OnceLock<fail_fast::FailFast>,
    /// Depth of [`crate::family::Host::without_trace`] calls: what happens inside is dropped
    /// from the ledger, so it never stops a `--fail-fast` run.
    untraced: std::sync::atomic::AtomicUsize,
}

fn key_of(v: &impl Serialize) -> String {
    sha256_hex(
        serde_json::to_string(v)
            .expect("request values always encode")
            .as_bytes(),
    )
}

/// Why a port call gave no usable answer: the kind of [`ProtocolEvent`] and its message.
#[derive(Clone, Debug, PartialEq)]
pub struct CallFailure {
    /// `unimplemented`, `crash`, `timeout`, `malformed reply`, `driver error`.
    pub kind: String,
    /// The report line: `port: <kind> (request <id>, <op>, <label>): <message>`.
    pub line: String,
}

impl CallFailure {
    /// True when the port answered `unimplemented`.
    pub fn unimplemented(&self) -> bool {
        self.kind == "unimplemented"
    }

    /// The failure as a harness error: [`ErrorKind::Unimplemented`](crate::error::ErrorKind)
    /// or [`ErrorKind::NoAnswer`](crate::error::ErrorKind), saying the report line.
    pub fn into_harness(self) -> HarnessError {
        if self.unimplemented() {
            HarnessError::new(crate::error::ErrorKind::Unimplemented, self.line)
        } else {
            HarnessError::no_answer(self.line)
        }
    }
}

impl PortImpl {
    /// Starts nothing yet: the first request (or [`Pool::hello`]) starts a driver.
    pub fn new(command: &str, timeout: Duration) -> PortImpl {
        PortImpl::with_memory_limit(command, timeout, driver::DEFAULT_MEMORY_LIMIT_MB)
    }

    /// As [`PortImpl::new`] with a driver memory limit in MiB (0: none).
    pub fn with_memory_limit(command: &str, timeout: Duration, limit_mb: u64) -> PortImpl {
        PortImpl::with_limits(
            command,
            driver::DriverLimits {
                timeout,
                memory_limit_mb: limit_mb,
                ..driver::DriverLimits::default()
            },
        )
    }

    /// As [`PortImpl::new`] with every driver limit given ([DRIVER.PROC.*]).
    pub fn with_limits(command: &str, limits: driver::DriverLimits) -> PortImpl {
        PortImpl {
            name: "port".into(),
            pool: Pool::with_limits(command, limits),
            ledger: Mutex::new(Ledger::default()),
            labels: Mutex::new(HashMap::new()),
            fail_fast: std::sync::OnceLock::new(),
            untraced: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// Arms `--fail-fast` ([DRIVER.CLI.FAIL_FAST]); a second call is ignored.
    pub fn arm_fail_fast(&self, ff: fail_fast::FailFast) {
        let _ = self.fail_fast.set(ff);
    }

    /// Halts a `--fail-fast` run when a failure of `family` breaking `broken` fails the verdict
    /// ([DRIVER.CLI.FAIL_FAST]); `what` describes it for the verdict.
    fn fail_fast_on(&self, family: &str, broken: Level, what: impl FnOnce() -> String) {
        if self.untraced.load(std::sync::atomic::Ordering::SeqCst) > 0 {
            return;
        }
        if let Some(ff) = self.fail_fast.get() {
            if ff.fails_verdict(family, broken) && !self.pool.budget.halted() {
                self.pool.budget.halt(what());
                ff.halt_cases();
            }
        }
    }

    /// Sets the name used in reports (the port's name from the handshake).
    pub fn set_name(&mut self, name: &str) {
        self.name = name.to_string();
    }

    fn register(&self, key: String, label: &str) {
        self.labels
            .lock()
            .expect("labels")
            .entry(key)
            .or_insert_with(|| label.to_string());
    }

    /// Names a case (vector id or generated name) for requests and reports.
    pub fn register_case(&self, case: &Case, label: &str) {
        self.register(key_of(&protocol::case(case)), label);
    }

    /// Names a link request.
    pub fn register_links(&self, r: &LinkRequest, label: &str) {
        self.register(key_of(&protocol::link_args(r)), label);
    }

    /// Names an error script.
    pub fn register_ops(&self, ops: &[GraphOp], label: &str) {
        self.register(key_of(&protocol::ops_args(ops)), label);
    }

    /// Names every grid request on `map` (a grid vector's map, a generated map).
    pub fn register_grid_map(&self, map: &crate::grid::GridMap, label: &str) {
        self.register(key_of(&protocol::map_file(map)), label);
    }

    /// Sets the section recorded with later calls.
    pub fn set_section(&self, name: &str) {
        self.ledger.lock().expect("ledger").section = name.to_string();
    }

    fn label(&self, key: &impl Serialize) -> String {
        let k = key_of(key);
        self.labels
            .lock()
            .expect("labels")
            .get(&k)
            .cloned()
            .unwrap_or_else(|| format!("case:{}", &k[..12]))
    }

    /// Sends one request and decodes its `ok` payload as the op's reply type `P`, then `fit`s it
    /// to the request (counts, codes). Every failure is recorded as a [`ProtocolEvent`] under
    /// `ledger_op` (which names the family) and returned.
    fn call<P: DeserializeOwned, T>(
        &self,
        label: &str,
        ledger_op: &str,
        request: &Request,
        fit: impl FnOnce(P) -> Result<T, protocol::Mismatch>,
    ) -> Result<T, CallFailure> {
        {
            let mut l = self.ledger.lock().expect("ledger");
            *l.requests.entry(ledger_op.to_string()).or_default() += 1;
        }
        let decode = |text: &str| {
            serde_json::from_str::<P>(text)
                .map_err(|e| e.to_string())
                .and_then(|p| fit(p).map_err(|m| m.0))
        };
        let (id, answer) = self
            .pool
            .request_decoded(op_family(ledger_op), label, request, decode);
        let (kind, message) = match answer {
            Ok(t) => {
                let mut l = self.ledger.lock().expect("ledger");
                *l.answered.entry(ledger_op.to_string()).or_default() += 1;
                *l.answered_labels.entry(label.to_string()).or_default() += 1;
                return Ok(t);
            }
            // Not produced by `request_decoded` (a decoded payload is `Ok`); kept total.
            Err(Reply::Ok(_)) => (
                "malformed reply".to_string(),
                format!("the ok payload of {} was not decoded", request.op()),
            ),
            Err(Reply::Unimplemented) => (
                "unimplemented".to_string(),
                format!("op {ledger_op} is not implemented by the port"),
            ),
            Err(Reply::DriverError(m)) => ("driver error".to_string(), m),
            Err(Reply::Crash(m)) => ("crash".to_string(), m),
            Err(Reply::Timeout) => (
                "timeout".to_string(),
                "no reply within the timeout; driver restarted".to_string(),
            ),
            Err(Reply::Malformed(m)) => (
                "malformed reply".to_string(),
                format!("{m}; driver restarted"),
            ),
            Err(Reply::NotRun(m)) => ("not run".to_string(), m),
        };
        let message = process::clip(&message, process::QUOTE_BYTES);
        let mut l = self.ledger.lock().expect("ledger");
        let section = l.section.clone();
        l.events.push(ProtocolEvent {
            kind: kind.clone(),
            id,
            section: section.clone(),
            label: label.to_string(),
            op: ledger_op.to_string(),
            message: message.clone(),
        });
        drop(l);
        if kind != "not run" {
            self.fail_fast_on(op_family(ledger_op), op_level(ledger_op), || {
                format!("{section} / {label} / {ledger_op}: port: {kind}: {message}")
            });
        }
        Err(CallFailure {
            line: format!("port: {kind} (request {id}, {ledger_op}, {label}): {message}"),
            kind,
        })
    }

    fn note(
        &self,
        label: &str,
        op: &str,
        variant: Option<String>,
        query: Option<String>,
        brk: Option<Break>,
    ) {
        if let Some(brk) = brk {
            let mut l = self.ledger.lock().expect("ledger");
            let section = l.section.clone();
            let what = format!(
                "{section} / {label} / {op}: {}: expected {}, found {}",
                brk.what, brk.expected, brk.found
            );
            let broken = brk.level;
            l.entries.push(LedgerEntry {
                section,
                label: label.to_string(),
                op: op.to_string(),
                variant,
                query,
                brk,
                clauses: Vec::new(),
            });
            drop(l);
            self.fail_fast_on(op_family(op), broken, || {
                process::clip(&what, process::QUOTE_BYTES)
            });
        }
    }
}

/// A port run's host ([`crate::family::Host`]): sections and case names go to the ledger.
impl crate::family::Host for PortImpl {
    fn enter(&self, section: &str) {
        self.set_section(section);
    }
    fn without_trace(&self, f: &mut dyn FnMut()) {
        use std::sync::atomic::Ordering;
        let mark = run::shard::LedgerMark::take(self);
        self.untraced.fetch_add(1, Ordering::SeqCst);
        f();
        self.untraced.fetch_sub(1, Ordering::SeqCst);
        mark.restore(self);
    }
    fn name_case(&self, case: &Case, name: &str) {
        self.register_case(case, name);
    }
    fn name_grid_map(&self, map: &crate::grid::GridMap, name: &str) {
        self.register_grid_map(map, name);
    }
    fn name_links(&self, request: &LinkRequest, name: &str) {
        self.register_links(request, name);
    }
    fn name_ops(&self, ops: &[GraphOp], name: &str) {
        self.register_ops(ops, name);
    }
}

fn qname(q: Query) -> String {
    format!("({}, {})", q.0, q.1)
}

impl Implementation for PortImpl {
    fn name(&self) -> &str {
        &self.name
    }

    fn run_case(
        &self,
        case: &Case,
        variants: &[Variant],
        queries: &[Query],
        opts: RunOptions,
    ) -> Vec<Vec<Outcome>> {
        let label = self.label(&protocol::case(case));
        let request = protocol::run_case(case, variants, queries, opts);
        match self.call(&label, "run_case", &request, |r| {
            protocol::run_case_reply(r, variants.len(), queries.len())
        }) {
            Ok(found) => {
                let expected = ReferenceCrate.run_case(case, variants, queries, opts);
                for (vi, v) in variants.iter().enumerate() {
                    for (qi, q) in queries.iter().enumerate() {
                        let b = levels::outcome_break(&expected[vi][qi], &found[vi][qi]);
                        self.note(
                            &label,
                            "run_case",
                            Some(v.name().into()),
                            Some(format!("{qi} {}", qname(*q))),
                            b,
                        );
                    }
                }
                found
            }
            Err(e) => vec![vec![Outcome::Error(e.line); queries.len()]; variants.len()],
        }
    }

    fn run_sliced(&self, case: &Case, variant: Variant, query: Query, budgets: &[u64]) -> Outcome {
        let label = self.label(&protocol::case(case));
        let request = protocol::run_sliced(case, variant, query, budgets);
        match self.call(
            &label,
            "run_sliced",
            &request,
            |r: messages::OutcomeReply| Ok(r.outcome.0),
        ) {
            Ok(found) => {
                let expected = ReferenceCrate.run_sliced(case, variant, query, budgets);
                let b = levels::outcome_break(&expected, &found).map(|mut b| {
                    b.what = format!("sliced {budgets:?}: {}", b.what);
                    b
                });
                self.note(
                    &label,
                    "run_sliced",
                    Some(variant.name().into()),
                    Some(qname(query)),
                    b,
                );
                found
            }
            Err(e) => Outcome::Error(e.line),
        }
    }

    fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, BuildFailure> {
        let label = self.label(&protocol::link_args(request));
        match self.call(
            &label,
            "build_links",
            &protocol::build_links(request),
            |r| protocol::links_reply(r, request.points.len()),
        ) {
            Ok(found) => {
                let expected = ReferenceCrate.build_links(request);
                self.note(
                    &label,
                    "build_links",
                    None,
                    None,
                    levels::links_break(&expected, &found),
                );
                found
            }
            Err(e) => Err(BuildFailure {
                class: e.line,
                index: None,
            }),
        }
    }

    fn run_hooked(&self, case: &Case, query: &HookedQuery) -> HookedRun {
        let label = self.label(&protocol::case(case));
        match self.call(
            &label,
            "run_hooked",
            &protocol::run_hooked(case, query),
            |r| Ok(protocol::hooked_reply(r)),
        ) {
            Ok((outcome, calls)) => {
                let expected = ReferenceCrate.run_hooked(case, query);
                let b = levels::lowest(
                    levels::outcome_break(&expected.outcome, &outcome),
                    levels::calls_break(&expected.calls, &calls),
                );
                let variant = crate::checks::hooks::describe(query);
                self.note(
                    &label,
                    "run_hooked",
                    Some(variant),
                    Some(qname(query.query)),
                    b,
                );
                HookedRun { outcome, calls }
            }
            Err(e) => HookedRun {
                outcome: Outcome::Error(e.line),
                calls: Vec::new(),
            },
        }
    }

    fn run_cancelled(
        &self,
        case: &Case,
        variant: Variant,
        query: Query,
        first_steps: u64,
    ) -> Result<CancelTrace, CallError> {
        let label = self.label(&protocol::case(case));
        match self.call(
            &label,
            "run_cancelled",
            &protocol::run_cancelled(case, variant, query, first_steps),
            protocol::cancel_reply,
        ) {
            Ok(found) => {
                let expected = ReferenceCrate.run_cancelled(case, variant, query, first_steps);
                let b = levels::cancel_break(&expected, &found).map(|mut b| {
                    b.what = format!("first_steps {first_steps}: {}", b.what);
                    b
                });
                self.note(
                    &label,
                    "run_cancelled",
                    Some(variant.name().into()),
                    Some(qname(query)),
                    b,
                );
                found
            }
            Err(e) => Err(CallError::Harness(e.into_harness())),
        }
    }

    fn run_ops(&self, ops: &[GraphOp]) -> Vec<Result<u64, BuildFailure>> {
        let label = self.label(&protocol::ops_args(ops));
        match self.call(&label, "run_ops", &protocol::run_ops(ops), |r| {
            protocol::ops_reply(r, ops.len())
        }) {
            Ok(found) => {
                let expected = ReferenceCrate.run_ops(ops);
                self.note(
                    &label,
                    "run_ops",
                    None,
                    None,
                    levels::ops_break(&expected, &found),
                );
                found
            }
            Err(e) => ops
                .iter()
                .map(|_| {
                    Err(BuildFailure {
                        class: e.line.clone(),
                        index: None,
                    })
                })
                .collect(),
        }
    }

    fn build_landmarks(&self, case: &Case) -> Result<Vec<u8>, CallError> {
        let label = self.label(&protocol::case(case));
        match self.call(
            &label,
            "build_landmarks",
            &protocol::build_landmarks(case),
            |r| Ok(protocol::oplm_reply(r)),
        ) {
            Ok(found) => {
                let expected = ReferenceCrate.build_landmarks(case);
                self.note(
                    &label,
                    "build_landmarks",
                    None,
                    None,
                    levels::oplm_build_break(&expected, &found),
                );
                found
            }
            Err(e) => Err(CallError::Harness(e.into_harness())),
        }
    }

    fn lower_bounds(&self, case: &Case, pairs: &[(u32, u32)]) -> Result<Vec<f64>, CallError> {
        let label = self.label(&protocol::case(case));
        match self.call(
            &label,
            "lower_bounds",
            &protocol::lower_bounds(case, pairs),
            |r| protocol::bounds_reply(r, pairs.len()),
        ) {
            Ok(found) => {
                let expected = ReferenceCrate.lower_bounds(case, pairs);
                self.note(
                    &label,
                    "lower_bounds",
                    None,
                    None,
                    levels::bounds_break(&expected, &found),
                );
                found
            }
            Err(e) => Err(CallError::Harness(e.into_harness())),
        }
    }

    fn run_state(
        &self,
        request: &crate::state::StateRequest,
    ) -> Result<crate::state::StateReply, HarnessError> {
        let label = self.label(&protocol::state_run(request));
        self.run_state_as(&label, request)
    }

    fn run_state_as(
        &self,
        label: &str,
        request: &crate::state::StateRequest,
    ) -> Result<crate::state::StateReply, HarnessError> {
        let ledger_op = format!("state_run:{}", protocol::state_family(request).name());
        match self.call(label, &ledger_op, &protocol::state_run(request), |r| {
            protocol::state_reply(request, r)
        }) {
            Ok(found) => {
                let found = Ok(found);
                let expected = ReferenceCrate.run_state(request);
                self.note(
                    label,
                    &ledger_op,
                    None,
                    None,
                    levels::state_break(&expected, &found),
                );
                found
            }
            Err(e) if e.unimplemented() => Err(HarnessError::unimplemented()),
            Err(e) => Err(HarnessError::no_answer(e.line)),
        }
    }

    fn run_grid(
        &self,
        request: &crate::grid::GridRequest,
    ) -> Result<crate::grid::GridOutcome, HarnessError> {
        let wire = protocol::run_grid(request);
        let label = self.label(&protocol::map_file(&request.map));
        let ledger_op = format!("run_grid:{}", messages::Family::GridSearch.name());
        match self.call(&label, &ledger_op, &wire, |r| Ok(protocol::grid_reply(r))) {
            Ok(found) => {
                let found = Ok(found);
                let expected = ReferenceCrate.run_grid(request);
                let variant = format!("{:?}/{}", request.api, request.options.label());
                self.note(
                    &label,
                    &ledger_op,
                    Some(variant),
                    Some(format!(
                        "({}, {}) -> ({}, {})",
                        request.start.0, request.start.1, request.goal.0, request.goal.1
                    )),
                    levels::grid_break(&expected, &found),
                );
                found
            }
            Err(e) if e.unimplemented() => Err(HarnessError::unimplemented()),
            Err(e) => Err(HarnessError::no_answer(e.line)),
        }
    }

    fn run_replan(
        &self,
        request: &crate::replan::ReplanRequest,
    ) -> Result<crate::replan::ReplanReply, HarnessError> {
        self.run_replan_as("replanning", request)
    }

    /// [DRIVER.OP.RUN_REPLAN] The request under its vector id or case name; a reply with
    /// another number of steps than the script is a malformed reply.
    fn run_replan_as(
        &self,
        label: &str,
        request: &crate::replan::ReplanRequest,
    ) -> Result<crate::replan::ReplanReply, HarnessError> {
        let wire = Request::Replanning(messages::ReplanningRequest::RunReplan(request.clone()));
        let ledger_op = format!("run_replan:{}", messages::Family::Replanning.name());
        let steps = request.script.len();
        let fit = |r: crate::replan::ReplanReply| match &r {
            crate::replan::ReplanReply::Ran { steps: got, .. } if got.len() != steps => {
                Err(protocol::Mismatch(format!(
                    "{} step replies for a script of {steps}",
                    got.len()
                )))
            }
            _ => Ok(r),
        };
        self.family_request(
            label,
            &ledger_op,
            &wire,
            fit,
            || ReferenceCrate.run_replan(request),
            |e, f| levels::replan_break(e, f),
        )
    }

    fn run_flow(
        &self,
        request: &crate::flow::FlowRequest,
    ) -> Result<crate::flow::FlowReply, HarnessError> {
        self.run_flow_as("flow-field", request)
    }

    /// [DRIVER.OP.RUN_FLOW] The request under its vector id or case name; a reply with another
    /// number of steps than the script, or of probes than asked, is a malformed reply.
    fn run_flow_as(
        &self,
        label: &str,
        request: &crate::flow::FlowRequest,
    ) -> Result<crate::flow::FlowReply, HarnessError> {
        let wire = Request::FlowField(messages::FlowFieldRequest::RunFlow(request.clone()));
        let ledger_op = format!("run_flow:{}", messages::Family::FlowField.name());
        let (steps, probes) = (request.script.len(), request.probes.len());
        let fit = |r: crate::flow::FlowReply| match &r {
            crate::flow::FlowReply::Ran {
                steps: got, paths, ..
            } if got.len() != steps || paths.len() != probes => Err(protocol::Mismatch(format!(
                "{} step replies and {} path probes for a script of {steps} and {probes} probes",
                got.len(),
                paths.len()
            ))),
            _ => Ok(r),
        };
        self.family_request(
            label,
            &ledger_op,
            &wire,
            fit,
            || ReferenceCrate.run_flow(request),
            |e, f| levels::flow_break(e, f),
        )
    }

    fn run_lattice(
        &self,
        request: &crate::lattice::LatticeRequest,
    ) -> Result<crate::lattice::LatticeReply, HarnessError> {
        self.run_lattice_as(request.shape().family(), request)
    }

    /// [DRIVER.OP.RUN_LATTICE] The request under its vector id or case name; a reply with another
    /// number of query replies than the request has queries is a malformed reply.
    fn run_lattice_as(
        &self,
        label: &str,
        request: &crate::lattice::LatticeRequest,
    ) -> Result<crate::lattice::LatticeReply, HarnessError> {
        let wire = Request::Lattice(messages::LatticeOpRequest::RunLattice(request.clone()));
        let ledger_op = format!("run_lattice:{}", request.shape().family());
        let queries = request.queries().len();
        let fit = |r: crate::lattice::LatticeReply| match &r {
            crate::lattice::LatticeReply::Ran(got) if got.len() != queries => Err(
                protocol::Mismatch(format!("{} query replies for {queries} queries", got.len())),
            ),
            _ => Ok(r),
        };
        self.family_request(
            label,
            &ledger_op,
            &wire,
            fit,
            || ReferenceCrate.run_lattice(request),
            |e, f| levels::lattice_break(e, f),
        )
    }

    fn run_hpa(
        &self,
        request: &crate::hpa::HpaRequest,
    ) -> Result<crate::hpa::HpaReply, HarnessError> {
        self.run_hpa_as(crate::hpa::FAMILY, request)
    }

    /// [DRIVER.OP.RUN_HPA] The request under its vector id or case name; a reply with another
    /// number of query replies than the request has queries is a malformed reply.
    fn run_hpa_as(
        &self,
        label: &str,
        request: &crate::hpa::HpaRequest,
    ) -> Result<crate::hpa::HpaReply, HarnessError> {
        let wire = Request::Hpa(messages::HpaOpRequest::RunHpa(request.clone()));
        let ledger_op = format!("run_hpa:{}", crate::hpa::FAMILY);
        let queries = request.queries.len();
        let fit = |r: crate::hpa::HpaReply| match &r {
            crate::hpa::HpaReply::Ran(got) if got.queries.len() != queries => {
                Err(protocol::Mismatch(format!(
                    "{} query replies for {queries} queries",
                    got.queries.len()
                )))
            }
            _ => Ok(r),
        };
        self.family_request(
            label,
            &ledger_op,
            &wire,
            fit,
            || ReferenceCrate.run_hpa(request),
            |e, f| levels::hpa_break(e, f),
        )
    }

    fn run_bidi(
        &self,
        request: &crate::bidi::BidiRequest,
    ) -> Result<crate::bidi::BidiReply, HarnessError> {
        self.run_bidi_as(crate::bidi::FAMILY, request)
    }

    /// [DRIVER.OP.RUN_BIDI] The request under its vector id or case name; a reply with another
    /// number of query replies or meetings than the request has queries is a malformed reply.
    fn run_bidi_as(
        &self,
        label: &str,
        request: &crate::bidi::BidiRequest,
    ) -> Result<crate::bidi::BidiReply, HarnessError> {
        let wire = Request::Bidi(messages::BidiOpRequest::RunBidi(request.clone()));
        let ledger_op = format!("run_bidi:{}", crate::bidi::FAMILY);
        let queries = request.queries.len();
        let fit = |r: crate::bidi::BidiReply| match &r {
            crate::bidi::BidiReply::Ran(got)
                if got.queries.len() != queries || got.meetings.len() != queries =>
            {
                Err(protocol::Mismatch(format!(
                    "{} query replies and {} meetings for {queries} queries",
                    got.queries.len(),
                    got.meetings.len()
                )))
            }
            _ => Ok(r),
        };
        self.family_request(
            label,
            &ledger_op,
            &wire,
            fit,
            || ReferenceCrate.run_bidi(request),
            |e, f| levels::bidi_break(e, f),
        )
    }

    fn describe(
        &self,
        request: &crate::debug::DescribeRequest,
    ) -> Result<crate::debug::DescribeReply, HarnessError> {
        self.describe_as(request.family(), request)
    }

    /// [DRIVER.OP.DESCRIBE] The request under its vector id or case name, in its target's
    /// family; a reply that ran with another number of entries than [CONF.DEBUG.REPLY] asks
    /// for is a malformed reply.
    fn describe_as(
        &self,
        label: &str,
        request: &crate::debug::DescribeRequest,
    ) -> Result<crate::debug::DescribeReply, HarnessError> {
        let wire = Request::Debug(messages::DebugOpRequest::Describe(request.clone()));
        let ledger_op = format!("describe:{}", request.family());
        let entries = request.expected_entries();
        let fit = |r: crate::debug::DescribeReply| match &r {
            crate::debug::DescribeReply::Ran(got) if got.len() != entries => Err(
                protocol::Mismatch(format!("{} entries for {entries} expected", got.len())),
            ),
            _ => Ok(r),
        };
        self.family_request(
            label,
            &ledger_op,
            &wire,
            fit,
            || ReferenceCrate.describe(request),
            |e, f| levels::describe_break(request, e, f),
        )
    }

    /// [DRIVER.OP.SYNCTEST] The session in family `grids`; the port runs the loop itself, its
    /// reply is judged by the caller ([CONF.SYNC.JUDGE]) and noted here against the reference's
    /// (a judge failure breaks L4, or L1 when only one side ran).
    fn run_synctest(
        &self,
        session: &crate::synctest::Session,
    ) -> Result<crate::synctest::SyncReply, HarnessError> {
        self.run_synctest_as("synctest", session)
    }

    /// [DRIVER.OP.SYNCTEST] The session under its vector id or case name.
    fn run_synctest_as(
        &self,
        label: &str,
        session: &crate::synctest::Session,
    ) -> Result<crate::synctest::SyncReply, HarnessError> {
        let wire = Request::Sync(messages::SyncOpRequest::Synctest(session.clone()));
        let frames = session.inputs.len();
        self.family_request(
            label,
            "synctest:grids",
            &wire,
            Ok,
            || ReferenceCrate.run_synctest_as(label, session),
            |e, f| levels::synctest_break(e, f, frames),
        )
    }

    fn deserialize_oplm(&self, case: &Case, bytes: &[u8]) -> Result<Vec<u8>, OplmError> {
        let label = self.label(&protocol::case(case));
        match self.call(
            &label,
            "deserialize_oplm",
            &protocol::deserialize_oplm(case, bytes),
            |r| Ok(protocol::deserialize_reply(r)),
        ) {
            Ok(found) => {
                let expected = ReferenceCrate.deserialize_oplm(case, bytes);
                self.note(
                    &label,
                    "deserialize_oplm",
                    None,
                    None,
                    levels::deserialize_break(&expected, &found),
                );
                found
            }
            Err(e) => Err(OplmError {
                class: e.line,
                offset: usize::MAX,
            }),
        }
    }
}
