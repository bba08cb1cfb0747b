//! Driver processes ([DRIVER.PROC.*]): a pool of them, each spoken to in JSON lines, each
//! request under a timeout and the run's failure budget and deadline; a crashed, hung or
//! garbling driver is killed (by its process group) and a fresh one is started for the next
//! request. Process handling is in [`super::process`], the budget in [`super::budget`].

use super::budget::{Admission, Budget};
use super::messages::{HelloReply, Request, RequestLine};
use super::process::{clip, Out, Proc, QUOTE_BYTES};
use super::protocol::{PROTOCOL, PROTOCOL_VERSION, RETIRED_VERSIONS};
use crate::raw_json;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// What the driver said in its handshake ([DRIVER.MSG.HELLO]).
#[derive(Clone, Debug, PartialEq)]
pub struct Hello {
    /// Port name.
    pub port: String,
    /// Port version.
    pub port_version: String,
    /// The spec version the port implements.
    pub spec_version: String,
    /// Family name to claimed level (1..=4).
    pub claims: BTreeMap<String, u8>,
}

/// The answer to one request.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// `{"id":..,"ok":{...}}`: the raw JSON text of the `ok` member.
    Ok(String),
    /// `{"id":..,"unimplemented":true}`.
    Unimplemented,
    /// `{"id":..,"error":"..."}`: the driver caught an exception of its own.
    DriverError(String),
    /// The process died (or could not start) before answering.
    Crash(String),
    /// No answer within the timeout.
    Timeout,
    /// An answer that is not a valid reply to this request.
    Malformed(String),
    /// Not sent: the failure budget or the deadline stopped it ([DRIVER.PROC.BUDGET]).
    NotRun(String),
}

impl Reply {
    /// The protocol failure kind for reports, or `None` for an ok or unimplemented answer.
    pub fn failure_kind(&self) -> Option<&'static str> {
        match self {
            Reply::Ok(_) | Reply::Unimplemented => None,
            Reply::DriverError(_) => Some("driver error"),
            Reply::Crash(_) => Some("crash"),
            Reply::Timeout => Some("timeout"),
            Reply::Malformed(_) => Some("malformed reply"),
            Reply::NotRun(_) => Some("not run"),
        }
    }
}

/// Why a handshake failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandshakeErrorKind {
    /// The driver could not be started, or the run's budget or deadline refused to start it.
    NotStarted,
    /// The driver sent nothing usable in time (exited, timed out, an over-long line).
    NoAnswer,
    /// The line is not a handshake of this protocol (not JSON, another protocol, an unknown
    /// version, a member that breaks the schema).
    Malformed,
    /// The driver speaks a retired protocol version ([DRIVER.MSG.RETIRED]).
    Retired,
    /// Read back from a JSON report, which records the message only ([CONF.REPORT.MERGE]).
    Reported,
}

/// A failed handshake: its kind and, in words, what happened (the driver's stderr included when
/// it said something).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandshakeError {
    kind: HandshakeErrorKind,
    what: String,
}

impl HandshakeError {
    fn new(kind: HandshakeErrorKind, what: impl Into<String>) -> HandshakeError {
        HandshakeError {
            kind,
            what: what.into(),
        }
    }
    /// A failure read back from a report's `handshake.error`.
    pub fn reported(what: &str) -> HandshakeError {
        HandshakeError::new(HandshakeErrorKind::Reported, what)
    }
    /// Why the handshake failed.
    pub fn kind(&self) -> HandshakeErrorKind {
        self.kind
    }
    /// The message, clipped to `bytes`.
    fn clipped(self, bytes: usize) -> HandshakeError {
        HandshakeError {
            what: clip(&self.what, bytes),
            ..self
        }
    }
}

impl std::fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for HandshakeError {}

/// Parses and checks the driver's handshake line ([DRIVER.MSG.HELLO]): the protocol name and
/// version first (a retired version gets its own message: the record model rejects, never
/// reinterprets), then the whole line strictly as a [`HelloReply`].
pub fn parse_hello(line: &str) -> Result<Hello, HandshakeError> {
    use HandshakeErrorKind::{Malformed, Retired};
    let text = line.trim_end();
    // [DRIVER.PROC.CAP] The members are kept as raw text: no generic tree of the line is built.
    let members = raw_json::members(text).map_err(|e| {
        HandshakeError::new(
            Malformed,
            if e.is_data() {
                format!("handshake is not a JSON object: {}", truncate(line))
            } else {
                format!("handshake is not JSON ({e}): {:?}", truncate(line))
            },
        )
    })?;
    // [CONF.JSON.UNIQUE]
    crate::json_text::check_unique_members(text).map_err(|e| {
        HandshakeError::new(Malformed, format!("handshake {e}: {}", truncate(line)))
    })?;
    let member = |name: &str| members.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
    if member("protocol")
        .and_then(|v| raw_json::decode::<String>(v).ok())
        .as_deref()
        != Some(PROTOCOL)
    {
        return Err(HandshakeError::new(
            Malformed,
            format!(
                "handshake names another protocol (expected {PROTOCOL:?}): {}",
                truncate(line)
            ),
        ));
    }
    match member("version").and_then(|v| raw_json::decode::<u64>(v).ok()) {
        Some(PROTOCOL_VERSION) => {}
        Some(old) if RETIRED_VERSIONS.contains(&old) => {
            return Err(HandshakeError::new(Retired, format!(
                "protocol version {old} is retired; this kit speaks {PROTOCOL_VERSION} (spec/driver.md)"
            )))
        }
        _ => {
            return Err(HandshakeError::new(Malformed, format!(
                "handshake names an unsupported protocol version (this kit speaks {PROTOCOL_VERSION}): {}",
                truncate(line)
            )))
        }
    }
    let h: HelloReply = serde_json::from_str(text).map_err(|e| {
        HandshakeError::new(
            Malformed,
            format!(
                "handshake does not match the schema ({e}): {}",
                truncate(line)
            ),
        )
    })?;
    Ok(Hello {
        port: h.port,
        port_version: h.port_version,
        spec_version: h.spec_version,
        claims: h
            .claims
            .into_iter()
            .map(|(f, l)| (f.name().to_string(), l.0))
            .collect(),
    })
}

fn truncate(s: &str) -> String {
    let t: String = s.trim_end().chars().take(200).collect();
    if t.len() < s.trim_end().len() {
        format!("{t}...")
    } else {
        t
    }
}

/// Parses one reply line for request `id`. The `ok` payload is kept as its raw JSON text, to be
/// decoded straight into the op's reply type ([DRIVER.PROC.CAP]: no generic tree of the line).
pub fn parse_reply(line: &str, id: u64) -> Reply {
    let text = line.trim_end();
    let members = match raw_json::members(text) {
        Ok(m) => m,
        Err(e) if e.is_data() => {
            return Reply::Malformed(format!("a reply is a JSON object: {}", truncate(line)))
        }
        Err(e) => return Reply::Malformed(format!("not JSON ({e}): {:?}", truncate(line))),
    };
    // [CONF.JSON.UNIQUE] A member given twice is malformed.
    if let Err(e) = crate::json_text::check_unique_members(text) {
        return Reply::Malformed(format!("{e}: {}", truncate(line)));
    }
    let member = |name: &str| members.iter().find(|(k, _)| k == name).map(|(_, v)| *v);
    if member("id").and_then(|v| raw_json::decode::<u64>(v).ok()) != Some(id) {
        return Reply::Malformed(format!(
            "reply for another id (expected {id}): {}",
            truncate(line)
        ));
    }
    if members.len() != 2 {
        return Reply::Malformed(format!(
            "a reply has exactly two members: {}",
            truncate(line)
        ));
    }
    if let Some(ok) = member("ok") {
        return Reply::Ok(ok.get().to_string());
    }
    if member("unimplemented").is_some_and(|v| raw_json::decode::<bool>(v).ok() == Some(true)) {
        return Reply::Unimplemented;
    }
    if let Some(e) = member("error").and_then(|v| raw_json::decode::<String>(v).ok()) {
        return Reply::DriverError(e);
    }
    Reply::Malformed(format!(
        "neither ok, unimplemented nor error: {}",
        truncate(line)
    ))
}

/// The limits of a port run's driver processes ([DRIVER.PROC.*]).
#[derive(Clone, Debug, PartialEq)]
pub struct DriverLimits {
    /// Per-request timeout (`--timeout`).
    pub timeout: Duration,
    /// Virtual-memory limit of each driver, MiB (`--memory-limit-mb`, 0: none).
    pub memory_limit_mb: u64,
    /// Cap of one reply line, MiB (`--max-reply-mb`, at least 1).
    pub max_reply_mb: u64,
    /// K: failed requests in a row after which a family is not run (`--max-consecutive-failures`).
    pub max_consecutive_failures: usize,
    /// Failed requests after which the run stops sending (`--max-failures`).
    pub max_failures: u64,
    /// The run's deadline from the pool's creation (`--deadline`), or none.
    pub deadline: Option<Duration>,
}

impl Default for DriverLimits {
    fn default() -> Self {
        DriverLimits {
            timeout: Duration::from_secs(10),
            memory_limit_mb: DEFAULT_MEMORY_LIMIT_MB,
            max_reply_mb: super::process::DEFAULT_MAX_REPLY_MB,
            max_consecutive_failures: super::budget::DEFAULT_MAX_CONSECUTIVE_FAILURES,
            max_failures: super::budget::DEFAULT_MAX_FAILURES,
            deadline: Some(Duration::from_secs(super::budget::DEFAULT_DEADLINE_SECS)),
        }
    }
}

impl DriverLimits {
    /// The reply-line cap in bytes.
    pub fn max_reply_bytes(&self) -> usize {
        usize::try_from(self.max_reply_mb.max(1).saturating_mul(1 << 20)).unwrap_or(usize::MAX)
    }
}

/// [DRIVER.PROC.ORDER] One request at a time per process, one process per worker thread.
/// A pool of driver processes (one per concurrent caller), restarted on failure.
pub struct Pool {
    command: String,
    limits: DriverLimits,
    free: Mutex<Vec<Proc>>,
    hello: Mutex<Option<Result<Hello, HandshakeError>>>,
    next_id: AtomicU64,
    /// Processes started (restarts included).
    pub starts: AtomicU64,
    start_failures: AtomicUsize,
    /// The failure budget and deadline of the run.
    pub budget: Budget,
    /// Where every request line sent is spooled by label ([DRIVER.CLI.FAILURES_DIR]).
    pub spool: std::sync::OnceLock<super::failure_requests::RequestSpool>,
}

/// Default virtual-memory limit of a driver process, MiB.
pub const DEFAULT_MEMORY_LIMIT_MB: u64 = 4096;

/// After this many consecutive failed starts the pool stops trying.
const MAX_START_FAILURES: usize = 5;

/// Waits for the next reply line of `p`.
fn receive(p: &mut Proc, timeout: Duration, max_reply_mb: u64) -> Result<String, Reply> {
    match p.next(timeout) {
        Ok(Some(Out::Line(s))) => Ok(s),
        Ok(Some(Out::TooLong)) => Err(Reply::Malformed(format!(
            "line over {max_reply_mb} MB (--max-reply-mb); the rest was not read"
        ))),
        Ok(Some(Out::NotUtf8)) => Err(Reply::Malformed("line is not UTF-8".into())),
        Ok(None) => Err(Reply::Timeout),
        Err(status) => Err(Reply::Crash(clip(
            &format!("driver exited ({status}){}", p.stderr_text()),
            QUOTE_BYTES,
        ))),
    }
}

impl Pool {
    /// A pool for `command` (run with `sh -c`) with a per-request `timeout`.
    pub fn new(command: &str, timeout: Duration) -> Pool {
        Pool::with_memory_limit(command, timeout, DEFAULT_MEMORY_LIMIT_MB)
    }

    /// As [`Pool::new`], with the driver's virtual memory limited to `limit_mb` MiB through the
    /// shell's `ulimit -v` (0: no limit) ([DRIVER.PROC.START]): a port that loops allocating
    /// must fail alone, not take the machine down.
    pub fn with_memory_limit(command: &str, timeout: Duration, limit_mb: u64) -> Pool {
        Pool::with_limits(
            command,
            DriverLimits {
                timeout,
                memory_limit_mb: limit_mb,
                ..DriverLimits::default()
            },
        )
    }

    /// A pool with every limit given; the deadline starts now.
    pub fn with_limits(command: &str, limits: DriverLimits) -> Pool {
        let command = if limits.memory_limit_mb > 0 {
            format!(
                "ulimit -v {} 2>/dev/null; {command}",
                limits.memory_limit_mb.saturating_mul(1024)
            )
        } else {
            command.to_string()
        };
        Pool {
            command,
            budget: Budget::new(
                limits.max_consecutive_failures,
                limits.max_failures,
                limits.deadline,
            ),
            limits,
            free: Mutex::new(Vec::new()),
            hello: Mutex::new(None),
            next_id: AtomicU64::new(1),
            spool: std::sync::OnceLock::new(),
            starts: AtomicU64::new(0),
            start_failures: AtomicUsize::new(0),
        }
    }

    /// The limits of this pool.
    pub fn limits(&self) -> &DriverLimits {
        &self.limits
    }

    fn free(&self) -> std::sync::MutexGuard<'_, Vec<Proc>> {
        self.free.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts one driver and returns its handshake (kept in the pool for reuse).
    pub fn hello(&self) -> Result<Hello, HandshakeError> {
        if let Some(h) = self.hello.lock().expect("hello").clone() {
            return h;
        }
        let admitted = match self.budget.admit("handshake") {
            Admission::Go(left) => Ok(left),
            Admission::NotRun(n) => Err(HandshakeError::new(
                HandshakeErrorKind::NotStarted,
                n.message,
            )),
        };
        match admitted.and_then(|left| self.start(left)) {
            Ok(p) => self.free().push(p),
            Err(e) => {
                let mut h = self.hello.lock().expect("hello");
                if h.is_none() {
                    *h = Some(Err(e));
                }
            }
        }
        self.hello
            .lock()
            .expect("hello")
            .clone()
            .expect("set by start")
    }

    /// Starts a driver and completes its handshake, waiting at most `left` (the deadline).
    fn start(&self, left: Option<Duration>) -> Result<Proc, HandshakeError> {
        if self.start_failures.load(Ordering::SeqCst) >= MAX_START_FAILURES {
            return Err(HandshakeError::new(
                HandshakeErrorKind::NotStarted,
                format!("driver failed to start {MAX_START_FAILURES} times in a row; not retrying"),
            ));
        }
        self.starts.fetch_add(1, Ordering::SeqCst);
        let mut p = match Proc::spawn(&self.command, self.limits.max_reply_bytes()) {
            Ok(p) => p,
            Err(e) => {
                self.start_failures.fetch_add(1, Ordering::SeqCst);
                return Err(HandshakeError::new(
                    HandshakeErrorKind::NotStarted,
                    e.message,
                ));
            }
        };
        // A driver's start-up (interpreter, imports) is not a request: it gets at least 30 s.
        let mut wait = self.limits.timeout.max(Duration::from_secs(30));
        if let Some(left) = left {
            wait = wait.min(left);
        }
        match self.handshake(&mut p, wait) {
            Ok(h) => {
                self.start_failures.store(0, Ordering::SeqCst);
                let mut slot = self.hello.lock().expect("hello");
                if slot.is_none() {
                    *slot = Some(Ok(h));
                }
                Ok(p)
            }
            Err(e) => {
                self.start_failures.fetch_add(1, Ordering::SeqCst);
                let e = HandshakeError::new(
                    e.kind,
                    format!("handshake failed: {}{}", e.what, p.stderr_text()),
                )
                .clipped(QUOTE_BYTES);
                drop(p);
                Err(e)
            }
        }
    }

    fn handshake(&self, p: &mut Proc, timeout: Duration) -> Result<Hello, HandshakeError> {
        use HandshakeErrorKind::NoAnswer;
        let hello = serde_json::to_string(&super::protocol::hello()).expect("the hello encodes");
        p.send(&hello, timeout)
            .map_err(|e| HandshakeError::new(NoAnswer, e.message))?;
        let line = receive(p, timeout, self.limits.max_reply_mb).map_err(|r| match r {
            Reply::Timeout => {
                HandshakeError::new(NoAnswer, format!("no handshake within {timeout:?}"))
            }
            Reply::Crash(m) | Reply::Malformed(m) => HandshakeError::new(NoAnswer, m),
            other => HandshakeError::new(NoAnswer, format!("{other:?}")),
        })?;
        parse_hello(&line).map_err(|e| e.clipped(QUOTE_BYTES))
    }

    /// Sends one request and waits for its reply; returns the request id and the reply. The
    /// request counts against the budget of `op`'s family ([`super::op_family`]).
    pub fn request(&self, case: &str, request: &Request) -> (u64, Reply) {
        self.request_in(super::op_family(request.op()), case, request)
    }

    /// As [`Pool::request`], counting the request against the budget of `family`.
    pub fn request_in(&self, family: &str, case: &str, request: &Request) -> (u64, Reply) {
        let (id, answer) = self.request_decoded(family, case, request, |text| Ok(text.to_string()));
        (id, answer.map_or_else(|r| r, Reply::Ok))
    }

    /// Sends one request (counted against the budget of `family`) and decodes an `ok` payload
    /// with `decode` before the driver is kept: `Ok` is the decoded payload, `Err` every other
    /// reply. A payload that `decode` refuses is a malformed reply ([DRIVER.PROC.FAILURES]): the
    /// driver is killed, the next request starts a fresh one, and the failure counts against the
    /// budget ([DRIVER.PROC.BUDGET]) like any other malformed reply.
    pub fn request_decoded<T>(
        &self,
        family: &str,
        case: &str,
        request: &Request,
        decode: impl FnOnce(&str) -> Result<T, String>,
    ) -> (u64, Result<T, Reply>) {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let left = match self.budget.admit(family) {
            Admission::Go(left) => left,
            Admission::NotRun(n) => return (id, Err(Reply::NotRun(n.message))),
        };
        let answer = self.exchange(id, case, request, left, decode);
        let answer = answer.map_err(|reply| match reply {
            Reply::Timeout if self.budget.deadline_passed() => {
                Reply::NotRun(self.budget.deadline_cut_message())
            }
            Reply::DriverError(m) => Reply::DriverError(clip(&m, QUOTE_BYTES)),
            Reply::Crash(m) => Reply::Crash(clip(&m, QUOTE_BYTES)),
            Reply::Malformed(m) => Reply::Malformed(clip(&m, QUOTE_BYTES)),
            other => other,
        });
        match &answer {
            Ok(_) | Err(Reply::Ok(_) | Reply::Unimplemented) => self.budget.record(family, None),
            // [DRIVER.PROC.BUDGET] A driver error is a failed request too (the driver is kept):
            // a port answering `error` to everything ran until the deadline.
            Err(Reply::NotRun(_)) => {}
            Err(failed) => self.budget.record(family, failed.failure_kind()),
        }
        (id, answer)
    }

    fn exchange<T>(
        &self,
        id: u64,
        case: &str,
        request: &Request,
        left: Option<Duration>,
        decode: impl FnOnce(&str) -> Result<T, String>,
    ) -> Result<T, Reply> {
        let popped = self.free().pop();
        let mut p = match popped {
            Some(p) => p,
            None => match self.start(left) {
                Ok(p) => p,
                Err(e) => return Err(Reply::Crash(e.to_string())),
            },
        };
        let line = RequestLine {
            id,
            case: case.to_string(),
            request: request.clone(),
        };
        let msg = serde_json::to_string(&line).expect("requests encode");
        if let Some(spool) = self.spool.get() {
            spool.record(case, &msg);
        }
        // [DRIVER.PROC.TIMEOUT] The request's time covers writing it as well as the reply.
        let wait = left.map_or(self.limits.timeout, |l| l.min(self.limits.timeout));
        let started = std::time::Instant::now();
        if let Err(e) = p.send(&msg, wait) {
            // `p` is dropped on return, which kills its process group.
            if e.kind == super::process::ProcessErrorKind::WriteTimeout {
                return Err(Reply::Timeout);
            }
            return Err(Reply::Crash(format!("{e}{}", p.stderr_text())));
        }
        let wait = wait.saturating_sub(started.elapsed());
        let reply = match receive(&mut p, wait, self.limits.max_reply_mb) {
            Ok(line) => parse_reply(&line, id),
            Err(r) => r,
        };
        match reply {
            Reply::Ok(text) => match decode(&text) {
                Ok(decoded) => {
                    self.free().push(p);
                    Ok(decoded)
                }
                // [DRIVER.PROC.FAILURES] An ok payload that does not decode is a malformed
                // reply: `p` is dropped here, which kills its process group.
                Err(e) => Err(Reply::Malformed(format!(
                    "the ok payload of {} does not decode: {e}",
                    request.op()
                ))),
            },
            Reply::Unimplemented | Reply::DriverError(_) => {
                self.free().push(p);
                Err(reply)
            }
            // Any other reply: `p` is dropped here, which kills its process group.
            other => Err(other),
        }
    }

    /// Closes every idle driver's stdin, waits briefly for it to exit, then kills what is left
    /// of its process group. Returns the exit code of each driver that exited by itself within
    /// the wait with a status other than 0 ([DRIVER.PROC.EOF]).
    pub fn shutdown(&self) -> Vec<i32> {
        let procs: Vec<Proc> = std::mem::take(&mut *self.free());
        let mut bad = Vec::new();
        for mut p in procs {
            match p.close_and_wait(Duration::from_millis(500)) {
                Some(code) if code != 0 => bad.push(code),
                _ => {}
            }
        }
        bad
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Exit codes are judged only where `certify --port` calls `shutdown` itself ([DRIVER.PROC.EOF]).
        let _ = self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_parsed_strictly() {
        assert_eq!(
            parse_reply("{\"id\":3,\"ok\":{}}\n", 3),
            Reply::Ok("{}".into())
        );
        assert_eq!(
            parse_reply("{\"id\":3,\"unimplemented\":true}", 3),
            Reply::Unimplemented
        );
        assert!(matches!(
            parse_reply("{\"id\":4,\"ok\":{}}", 3),
            Reply::Malformed(_)
        ));
        assert!(matches!(parse_reply("garbage", 3), Reply::Malformed(_)));
        assert!(matches!(
            parse_reply("{\"id\":3,\"ok\":{},\"x\":1}", 3),
            Reply::Malformed(_)
        ));
        assert_eq!(
            parse_reply("{\"id\":3,\"error\":\"boom\"}", 3),
            Reply::DriverError("boom".into())
        );
    }

    #[test]
    fn replies_with_a_member_twice_are_malformed() {
        // [CONF.JSON.UNIQUE] A Value keeps the last member: these were a two-member reply
        // and the `ok` of the second object.
        for line in [
            r#"{"id":3,"ok":{},"id":3,"ok":{}}"#,
            r#"{"id":3,"ok":{"cost":1},"ok":{"cost":2}}"#,
            r#"{"id":3,"ok":{"a":1,"a":2}}"#,
        ] {
            match parse_reply(line, 3) {
                Reply::Malformed(m) => assert!(m.contains("duplicate member"), "{m}"),
                other => panic!("{line}: {other:?}"),
            }
        }
    }
}
