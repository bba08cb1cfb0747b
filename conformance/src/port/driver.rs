//! Driver processes ([DRIVER.PROC.*]): started with `sh -c`, spoken to in JSON lines, each
//! request under a timeout; a crashed, hung or garbling driver is killed (by its process
//! group) and a fresh one is started for the next request.

use super::messages::{HelloReply, Request, RequestLine};
use super::protocol::{PROTOCOL, PROTOCOL_VERSION, RETIRED_VERSIONS};
use serde_json::Value;
use std::collections::{BTreeMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
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
    /// `{"id":..,"ok":{...}}`.
    Ok(Value),
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
        }
    }
}

struct Proc {
    child: Child,
    /// Set once the child was waited for: its pid (and process group id) may then be reused
    /// by an unrelated process, so it must never be signalled again.
    reaped: bool,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

impl Proc {
    fn spawn(command: &str) -> Result<Proc, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .env("ONEPATH_DRIVER", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|e| format!("cannot start `sh -c {command:?}`: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = child.stderr.take().expect("piped stderr");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match r.read_line(&mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                let mut t = tail.lock().expect("stderr tail");
                if t.len() == 8 {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        Ok(Proc {
            child,
            reaped: false,
            stdin: Some(stdin),
            rx,
            stderr_tail,
        })
    }

    fn send(&mut self, msg: &impl serde::Serialize) -> Result<(), String> {
        let mut line = serde_json::to_string(msg).map_err(|e| format!("encode request: {e}"))?;
        line.push('\n');
        let stdin = self.stdin.as_mut().ok_or("driver stdin closed")?;
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("write to driver: {e}"))
    }

    fn receive(&mut self, timeout: Duration) -> Result<String, Reply> {
        match self.rx.recv_timeout(timeout) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Reply::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                // The leader is at worst a zombie until waited for, so its group id is still ours.
                self.kill_group();
                let status = self
                    .child
                    .wait()
                    .map(|s| s.to_string())
                    .unwrap_or_else(|e| e.to_string());
                self.reaped = true;
                Err(Reply::Crash(format!(
                    "driver exited ({status}){}",
                    self.stderr_text()
                )))
            }
        }
    }

    fn stderr_text(&self) -> String {
        // Give the stderr reader a moment to drain the last lines of a dying process.
        std::thread::sleep(Duration::from_millis(20));
        let t = self.stderr_tail.lock().expect("stderr tail");
        if t.is_empty() {
            String::new()
        } else {
            format!(
                "; stderr: {}",
                t.iter().cloned().collect::<Vec<_>>().join(" | ")
            )
        }
    }

    /// Signals the process group this harness started (its id is the child's pid), only while
    /// the child has not been waited for.
    fn kill_group(&mut self) {
        let pid = self.child.id();
        if !self.reaped && pid > 1 && is_our_group_leader(pid) {
            // Never through the `kill` program: on some systems `kill -KILL -<pgid>` signals
            // every process of the user. killpg(2) names exactly one group.
            extern "C" {
                fn killpg(pgrp: i32, sig: i32) -> i32;
            }
            const SIGKILL: i32 = 9;
            // SAFETY: a plain system call on a process group this harness created and still owns
            // (its leader is our unreaped child, so the id cannot have been reused).
            unsafe {
                killpg(pid as i32, SIGKILL);
            }
        }
    }

    /// Ends the process group this harness started.
    fn kill(mut self) {
        self.kill_group();
        if !self.reaped {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    fn handshake(&mut self, timeout: Duration) -> Result<Hello, String> {
        self.send(&super::protocol::hello())?;
        let line = self.receive(timeout).map_err(|r| match r {
            Reply::Timeout => format!("no handshake within {timeout:?}"),
            Reply::Crash(m) => m,
            other => format!("{other:?}"),
        })?;
        parse_hello(&line)
    }
}

/// True when `pid` is a child of this process and leads its own process group (read from
/// `/proc/<pid>/stat`): the only processes the harness ever signals as a group.
fn is_our_group_leader(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // Fields after the parenthesised command: state, ppid, pgrp, ...
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return false;
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    f.len() > 2 && f[1] == std::process::id().to_string() && f[2] == pid.to_string()
}

/// Parses and checks the driver's handshake line ([DRIVER.MSG.HELLO]): the protocol name and
/// version first (a retired version gets its own message: the record model rejects, never
/// reinterprets), then the whole line strictly as a [`HelloReply`].
pub fn parse_hello(line: &str) -> Result<Hello, String> {
    let v: Value = serde_json::from_str(line.trim_end())
        .map_err(|e| format!("handshake is not JSON ({e}): {:?}", truncate(line)))?;
    if v.get("protocol").and_then(Value::as_str) != Some(PROTOCOL) {
        return Err(format!(
            "handshake names another protocol (expected {PROTOCOL:?}): {}",
            truncate(line)
        ));
    }
    match v.get("version").and_then(Value::as_u64) {
        Some(PROTOCOL_VERSION) => {}
        Some(old) if RETIRED_VERSIONS.contains(&old) => {
            return Err(format!(
                "protocol version {old} is retired; this kit speaks {PROTOCOL_VERSION} (spec/driver.md)"
            ))
        }
        _ => {
            return Err(format!(
                "handshake names an unsupported protocol version (this kit speaks {PROTOCOL_VERSION}): {}",
                truncate(line)
            ))
        }
    }
    let h: HelloReply = serde_json::from_value(v)
        .map_err(|e| format!("handshake does not match the schema ({e}): {}", truncate(line)))?;
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

/// Parses one reply line for request `id`.
pub fn parse_reply(line: &str, id: u64) -> Reply {
    let v: Value = match serde_json::from_str(line.trim_end()) {
        Ok(v) => v,
        Err(e) => return Reply::Malformed(format!("not JSON ({e}): {:?}", truncate(line))),
    };
    if v.get("id").and_then(Value::as_u64) != Some(id) {
        return Reply::Malformed(format!(
            "reply for another id (expected {id}): {}",
            truncate(line)
        ));
    }
    let members = v.as_object().map_or(0, |o| o.len());
    if members != 2 {
        return Reply::Malformed(format!(
            "a reply has exactly two members: {}",
            truncate(line)
        ));
    }
    if let Some(ok) = v.get("ok") {
        return Reply::Ok(ok.clone());
    }
    if v.get("unimplemented") == Some(&Value::Bool(true)) {
        return Reply::Unimplemented;
    }
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Reply::DriverError(e.to_string());
    }
    Reply::Malformed(format!(
        "neither ok, unimplemented nor error: {}",
        truncate(line)
    ))
}

/// A pool of driver processes (one per concurrent caller), restarted on failure.
pub struct Pool {
    command: String,
    timeout: Duration,
    free: Mutex<Vec<Proc>>,
    hello: Mutex<Option<Result<Hello, String>>>,
    next_id: AtomicU64,
    /// Processes started (restarts included).
    pub starts: AtomicU64,
    start_failures: AtomicUsize,
}

/// Default virtual-memory limit of a driver process, MiB.
pub const DEFAULT_MEMORY_LIMIT_MB: u64 = 4096;

/// After this many consecutive failed starts the pool stops trying.
const MAX_START_FAILURES: usize = 5;

impl Pool {
    /// A pool for `command` (run with `sh -c`) with a per-request `timeout`.
    pub fn new(command: &str, timeout: Duration) -> Pool {
        Pool::with_memory_limit(command, timeout, DEFAULT_MEMORY_LIMIT_MB)
    }

    /// As [`Pool::new`], with the driver's virtual memory limited to `limit_mb` MiB through the
    /// shell's `ulimit -v` (0: no limit) ([DRIVER.PROC.START]): a port that loops allocating
    /// must fail alone, not take the machine down.
    pub fn with_memory_limit(command: &str, timeout: Duration, limit_mb: u64) -> Pool {
        let command = if limit_mb > 0 {
            format!("ulimit -v {} 2>/dev/null; {command}", limit_mb * 1024)
        } else {
            command.to_string()
        };
        Pool {
            command,
            timeout,
            free: Mutex::new(Vec::new()),
            hello: Mutex::new(None),
            next_id: AtomicU64::new(1),
            starts: AtomicU64::new(0),
            start_failures: AtomicUsize::new(0),
        }
    }

    /// Starts one driver and returns its handshake (kept in the pool for reuse).
    pub fn hello(&self) -> Result<Hello, String> {
        if let Some(h) = self.hello.lock().expect("hello").clone() {
            return h;
        }
        match self.start() {
            Ok(p) => self.free.lock().expect("pool").push(p),
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

    fn start(&self) -> Result<Proc, String> {
        if self.start_failures.load(Ordering::SeqCst) >= MAX_START_FAILURES {
            return Err(format!(
                "driver failed to start {MAX_START_FAILURES} times in a row; not retrying"
            ));
        }
        self.starts.fetch_add(1, Ordering::SeqCst);
        let mut p = match Proc::spawn(&self.command) {
            Ok(p) => p,
            Err(e) => {
                self.start_failures.fetch_add(1, Ordering::SeqCst);
                return Err(e);
            }
        };
        // A driver's start-up (interpreter, imports) is not a request: it gets at least 30 s.
        match p.handshake(self.timeout.max(Duration::from_secs(30))) {
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
                let e = format!("handshake failed: {e}{}", p.stderr_text());
                p.kill();
                Err(e)
            }
        }
    }

    /// Sends one request and waits for its reply; returns the request id and the reply.
    pub fn request(&self, case: &str, request: &Request) -> (u64, Reply) {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        let popped = self.free.lock().expect("pool").pop();
        let mut p = match popped {
            Some(p) => p,
            None => match self.start() {
                Ok(p) => p,
                Err(e) => return (id, Reply::Crash(e)),
            },
        };
        let line = RequestLine {
            id,
            case: case.to_string(),
            request: request.clone(),
        };
        if let Err(e) = p.send(&line) {
            let msg = format!("{e}{}", p.stderr_text());
            p.kill();
            return (id, Reply::Crash(msg));
        }
        let reply = match p.receive(self.timeout) {
            Ok(line) => parse_reply(&line, id),
            Err(r) => r,
        };
        match &reply {
            Reply::Ok(_) | Reply::Unimplemented | Reply::DriverError(_) => {
                self.free.lock().expect("pool").push(p)
            }
            _ => p.kill(),
        }
        (id, reply)
    }

    /// Closes every idle driver's stdin and waits briefly for it to exit.
    pub fn shutdown(&self) {
        let procs: Vec<Proc> = std::mem::take(&mut *self.free.lock().expect("pool"));
        for mut p in procs {
            p.stdin = None;
            // Wait for a clean exit without reaping (try_wait would reap and free the pid).
            let mut exited = false;
            for _ in 0..50 {
                if matches!(
                    p.rx.recv_timeout(Duration::from_millis(10)),
                    Err(RecvTimeoutError::Disconnected)
                ) {
                    exited = true;
                    break;
                }
            }
            if !exited {
                p.kill_group();
            }
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_parsed_strictly() {
        assert_eq!(
            parse_reply("{\"id\":3,\"ok\":{}}\n", 3),
            Reply::Ok(serde_json::json!({}))
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
}
