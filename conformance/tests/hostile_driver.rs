//! Hostile drivers against the real `certify --port` binary ([DRIVER.PROC.CAP],
//! [DRIVER.PROC.BUDGET], [DRIVER.PROC.DEADLINE], [DRIVER.PROC.GROUPS], [DRIVER.PROC.SIGNALS],
//! [DRIVER.CLI.CHECKS]): a driver that hangs, exits after its handshake, sends a 100 MB line,
//! sends an endless line, or forks a child that hangs holding stdout. Each run must end within
//! a bound computed from its flags, stay below 1 GB of memory, name what happened, exit 1 and
//! leave no process behind. A SIGTERM / SIGINT to the kit kills its drivers (exit 143 / 130).
//! The bad flags are refused before any driver starts (exit 2).
//!
//! Every hostile driver is a python3 script generated here; its handshake line is built from
//! the protocol constants, and it gets a unique marker argument so that `/proc/*/cmdline` shows
//! whether any process of it is left.

mod tools;

use onepath_conformance::port::protocol::{PROTOCOL, PROTOCOL_VERSION, SPEC_VERSION};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Failed requests in a row before a family is `not run` (`--max-consecutive-failures`).
const K: u64 = 3;
/// Per-request timeout, seconds.
const TIMEOUT: f64 = 0.5;
/// Families that get requests in a port run: graph, grids, grid-search, replanning, flow-field,
/// hex-search, voxel-search, hpa, grid-bidi.
const FAMILIES: u64 = 9;
/// Per failed request beyond its timeout: a driver restart (sh + python3 start, handshake).
const RESTART_SLACK: f64 = 1.0;
/// The kit's own work (reference side, bookkeeping) on two busy cores.
const RUN_SLACK: f64 = 20.0;
/// Peak resident memory allowed, KiB (1 GB).
const MAX_RSS_KB: i64 = 1_000_000;

/// The bound of a run where every request of each of its `families` fails: F × K × (timeout +
/// restart) plus the run's own work. With one thread at most K requests of a family fail.
fn bound(families: u64) -> Duration {
    Duration::from_secs_f64(families as f64 * K as f64 * (TIMEOUT + RESTART_SLACK) + RUN_SLACK)
}

fn hello_line() -> String {
    serde_json::json!({
        "protocol": PROTOCOL, "version": PROTOCOL_VERSION, "port": "hostile",
        "port_version": "0", "spec_version": SPEC_VERSION, "claims": {"graph": 4},
    })
    .to_string()
}

struct Hostile {
    marker: String,
    dir: PathBuf,
    command: String,
}

impl Drop for Hostile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Writes a hostile driver: handshake, then `behaviour` (python, at top level; `MARK` is the
/// marker, `sys`, `os`, `time`, `subprocess` are imported). A behaviour's line `#PRELUDE:` and
/// what follows it on that line run before the handshake (to build a big line in advance).
fn hostile(name: &str, behaviour: &str) -> Hostile {
    tools::require_python3();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let marker = format!("onepath-hostile-{name}-{}-{nanos}", std::process::id());
    let dir = std::env::temp_dir().join(&marker);
    std::fs::create_dir_all(&dir).unwrap();
    let (prelude, behaviour) = match behaviour.strip_prefix("#PRELUDE:") {
        Some(rest) => rest.split_once('\n').unwrap_or((rest, "")),
        None => ("", behaviour),
    };
    let script = format!(
        "import sys, os, time, subprocess\nMARK = sys.argv[1]\n{prelude}\nsys.stdin.readline()\n\
         sys.stdout.write({hello:?} + \"\\n\")\nsys.stdout.flush()\n{behaviour}\n",
        hello = hello_line()
    );
    let path = dir.join("driver.py");
    std::fs::write(&path, script).unwrap();
    Hostile {
        command: format!("python3 {} {marker}", path.display()),
        marker,
        dir,
    }
}

const HANG: &str = "for line in sys.stdin:\n    time.sleep(600)";
const EXIT: &str = "os._exit(0)";
/// The 100 MB line is built before the handshake, so that it is sent at once.
const BIG: &str = "#PRELUDE:big = '{\"id\":1,\"ok\":\"' + 'x' * 100_000_000 + '\"}\\n'\nfor line in sys.stdin:\n    sys.stdout.write(big)\n    sys.stdout.flush()";
const ENDLESS: &str =
    "chunk = 'x' * 65536\nfor line in sys.stdin:\n    while True:\n        sys.stdout.write(chunk)";
/// On the first request: a child (and its own child, a grandchild) that sleep holding stdout,
/// then the driver itself exits: stdout stays open, so only the timeout can end the request.
const FORK: &str = "for line in sys.stdin:\n    subprocess.Popen([sys.executable, '-c', \
     'import subprocess, sys, time; subprocess.Popen([sys.executable, \"-c\", \"import time; time.sleep(600)\", sys.argv[1]]); time.sleep(600)', MARK])\n    os._exit(0)";

/// Pids of live processes whose command line contains `marker` (zombies have none).
fn processes_with(marker: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if pid == std::process::id() {
            continue;
        }
        if let Ok(c) = std::fs::read(e.path().join("cmdline")) {
            if String::from_utf8_lossy(&c).contains(marker) {
                out.push(pid);
            }
        }
    }
    out
}

struct KitRun {
    code: Option<i32>,
    signal: Option<i32>,
    stdout: String,
    stderr: String,
    wall: Duration,
    max_rss_kb: i64,
}

/// Runs the kit with `args`; `during(pid)` runs once it started. The kit is killed (and the
/// test fails) after `hard` seconds. Waits with `wait4` for its peak memory (which also
/// covers the drivers it waited for).
// The child is reaped with `wait4` (for its rusage), not `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run_kit(args: &[&str], hard: Duration, during: impl FnOnce(u32)) -> KitRun {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    during(pid);
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value for wait4 to fill in.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let mut killed = false;
    loop {
        // SAFETY: waits for our own child only, with valid pointers.
        let r = unsafe { libc::wait4(pid as i32, &mut status, libc::WNOHANG, &mut ru) };
        if r == pid as i32 {
            break;
        }
        assert_eq!(r, 0, "wait4 failed");
        if start.elapsed() > hard && !killed {
            // SAFETY: our unreaped child.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            killed = true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let wall = start.elapsed();
    assert!(!killed, "the kit ran past {hard:?} and was killed");
    KitRun {
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
        signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        wall,
        max_rss_kb: ru.ru_maxrss,
    }
}

fn certify_args<'a>(command: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "certify",
        "--json",
        "--port",
        command,
        "--port-cases",
        "5",
        "--threads",
        "1",
    ];
    v.extend_from_slice(extra);
    v
}

/// Runs a hostile driver to its end and checks everything the kit owes: the time bound, the
/// memory bound, exit 1, a bounded report naming `expect`, the budget at work, no process left.
/// The run certifies the graph family only ([CONF.CLI.FAMILY]): the misbehaviour and the budget
/// rule are the same in every family, and the one run over every family is
/// [`a_driver_that_hangs_on_every_request_is_stopped_by_the_budget`].
fn check_hostile(name: &str, behaviour: &str, expect: &str) -> serde_json::Value {
    check_hostile_seen(name, behaviour, expect, None)
}

/// As [`check_hostile`]; with `seen = Some((text, n))` it also requires that at some moment
/// of the run `n` processes of the driver whose command line contains `text` were alive.
fn check_hostile_seen(
    name: &str,
    behaviour: &str,
    expect: &str,
    seen: Option<(&str, usize)>,
) -> serde_json::Value {
    check_hostile_with(name, behaviour, expect, seen, &["--family", "graph"])
}

/// As [`check_hostile_seen`], with `extra` certify flags.
fn check_hostile_with(
    name: &str,
    behaviour: &str,
    expect: &str,
    seen: Option<(&str, usize)>,
    extra: &[&str],
) -> serde_json::Value {
    let h = hostile(name, behaviour);
    let timeout = TIMEOUT.to_string();
    let k = K.to_string();
    let mut flags = vec!["--timeout", &timeout, "--max-consecutive-failures", &k];
    flags.extend_from_slice(extra);
    let args = certify_args(&h.command, &flags);
    // Families that get requests: one with `--family`, else all of them.
    let families = if extra.contains(&"--family") {
        1
    } else {
        FAMILIES
    };
    let bound = bound(families);
    let marker = h.marker.clone();
    let r = run_kit(&args, bound + Duration::from_secs(30), |_| {
        if let Some((text, n)) = seen {
            let t = Instant::now();
            loop {
                let alive = processes_with(&marker)
                    .into_iter()
                    .filter(|p| {
                        std::fs::read(format!("/proc/{p}/cmdline"))
                            .is_ok_and(|c| String::from_utf8_lossy(&c).contains(text))
                    })
                    .count();
                if alive >= n {
                    break;
                }
                assert!(
                    t.elapsed() < Duration::from_secs(15),
                    "{name}: never saw {n} x {text:?}"
                );
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    });
    eprintln!(
        "{name}: wall {:.2} s (bound {:.1} s), peak rss {} KiB, exit {:?}",
        r.wall.as_secs_f64(),
        bound.as_secs_f64(),
        r.max_rss_kb,
        r.code
    );
    assert!(r.wall < bound, "{name}: {:?} > {bound:?}", r.wall);
    assert!(
        r.max_rss_kb < MAX_RSS_KB,
        "{name}: peak rss {} KiB",
        r.max_rss_kb
    );
    assert_eq!(r.code, Some(1), "{name}: {:?} {}", r.signal, r.stderr);
    assert!(
        r.stdout.len() < 1 << 20,
        "{name}: a {} byte report",
        r.stdout.len()
    );
    assert!(
        processes_with(&h.marker).is_empty(),
        "{name}: processes left: {:?}",
        processes_with(&h.marker)
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    let sections = v["sections"].as_array().unwrap();
    let protocol = sections.iter().find(|s| s["name"] == "protocol").unwrap();
    let quoted: Vec<&serde_json::Value> = protocol["failures"].as_array().unwrap().iter().collect();
    assert!(
        quoted.iter().any(|f| f["what"]
            .as_str()
            .unwrap()
            .contains(&format!("port: {expect}"))
            || f["found"].as_str().unwrap().contains(expect)),
        "{name}: no {expect:?} in {quoted:?}"
    );
    for f in &quoted {
        let n = f["found"].as_str().unwrap().len();
        assert!(n <= 700, "{name}: a {n} byte quote");
    }
    let not_run = sections.iter().find(|s| s["name"] == "not run");
    assert!(
        not_run.is_some_and(|s| s["failed"].as_u64().unwrap() > 100),
        "{name}: the remaining requests are not run"
    );
    let problems: Vec<&str> = v["port"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("graph: 3 consecutive failed requests")),
        "{name}: {problems:?}"
    );
    // Restarts are bounded by the budget: one start per failed request, plus the first.
    let starts = v["port"]["driver_starts"].as_u64().unwrap();
    assert!(starts <= families * K + 1, "{name}: {starts} starts");
    v
}

#[test]
fn a_driver_that_hangs_on_every_request_is_stopped_by_the_budget() {
    // Every family: each one's budget runs out on its own.
    check_hostile_with("hang", HANG, "timeout", None, &[]);
}

#[test]
fn a_driver_that_exits_after_its_handshake_is_not_restarted_without_end() {
    check_hostile("exit", EXIT, "crash");
}

#[test]
fn a_100_mb_reply_line_is_malformed_and_not_buffered() {
    check_hostile("big", BIG, "line over 16 MB");
}

#[test]
fn an_endless_reply_line_is_malformed_and_not_buffered() {
    check_hostile("endless", ENDLESS, "line over 16 MB");
}

/// Never reads a request: a request larger than the pipe buffer (the grid-search vectors'
/// maps) blocked the kit in its write for ever ([DRIVER.PROC.TIMEOUT]).
const NOREAD: &str = "time.sleep(600)";

// pins [DRIVER.PROC.TIMEOUT]: a driver that never reads its stdin must end as `timeout` within the
// flags' bound; a kit whose timeout does not cover writing a large request blocks in the write and
// is killed
#[test]
fn a_driver_that_stops_reading_its_stdin_times_out_and_does_not_block_the_kit() {
    check_hostile("noread", NOREAD, "timeout");
}

/// On each request: a child in a session of its own (out of the driver's process group) that
/// ignores SIGTERM and sleeps, then the driver hangs. Killing the driver's group does not reach
/// the child; the kit, as its subreaper, must ([DRIVER.PROC.GROUPS]).
const SETSID: &str = "for line in sys.stdin:\n    subprocess.Popen([sys.executable, '-c', \
     'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)', MARK], \
     start_new_session=True)\n    time.sleep(600)";

#[test]
fn a_grandchild_in_its_own_session_is_killed_at_the_end_of_the_run() {
    check_hostile_seen("setsid", SETSID, "timeout", Some(("SIG_IGN", 1)));
}

/// Answers every request with a driver error of 1 MiB (read, then `error` with its id).
const ERRORS: &str = "import json\nmsg = 'e' * (1 << 20)\nfor line in sys.stdin:\n    \
     sys.stdout.write(json.dumps({'id': json.loads(line)['id'], 'error': msg}) + '\\n')\n    \
     sys.stdout.flush()";

// pins [DRIVER.PROC.QUOTE]: a driver error of 1 MiB per reply must be quoted in the report's
// protocol failures with at most 700 bytes each; a kit that does not cut driver text at 600 bytes
// fails
// pins [DRIVER.PROC.BUDGET]: a port answering `error` to every request must stop after K=3 failures
// in a row: `not run` section, the budget problem, few starts, in bounded time; a kit not counting
// driver errors runs on
#[test]
fn a_driver_that_answers_error_to_everything_is_stopped_by_the_budget() {
    check_hostile("errors", ERRORS, "driver error");
}

/// Answers every request `ok` with a payload that no op's reply type decodes.
const UNDECODABLE: &str = "import json\nfor line in sys.stdin:\n    \
     sys.stdout.write(json.dumps({'id': json.loads(line)['id'], 'ok': {'bogus': 1}}) + '\\n')\n    \
     sys.stdout.flush()";

/// [DRIVER.PROC.FAILURES], [DRIVER.PROC.BUDGET]: an `ok` payload that does not decode is a
/// malformed reply like any other: charged to the budget, its driver killed and restarted.
#[test]
fn undecodable_ok_payloads_are_charged_to_the_budget_and_restart_the_driver() {
    // One family keeps the run short; the budget rule is the same for every family.
    let v = check_hostile_with(
        "undecodable",
        UNDECODABLE,
        "does not decode",
        None,
        &["--family", "graph"],
    );
    let starts = v["port"]["driver_starts"].as_u64().unwrap();
    // One thread: one start per failed request (K of them); a kept driver would be 1 start.
    assert!(
        starts >= K,
        "{starts} starts: the driver was kept after a malformed reply"
    );
}

// pins [DRIVER.PROC.GROUPS]: a child and grandchild of the driver holding its stdout must not stop
// the timeout and must be dead when certify ends; a kit that kills only the leader or waits for EOF
// fails
#[test]
fn a_forked_child_holding_stdout_does_not_stop_the_timeout_and_its_group_is_killed() {
    // The child and the grandchild (reparented away from the driver, still in its group).
    check_hostile_seen("fork", FORK, "timeout", Some(("time.sleep(600)", 2)));
}

#[test]
fn the_deadline_stops_every_further_request() {
    let h = hostile("deadline", HANG);
    // A budget that never runs out within the deadline: only the deadline can end the run.
    let args = certify_args(
        &h.command,
        &[
            "--timeout",
            "1",
            "--max-consecutive-failures",
            "1000",
            "--max-failures",
            "1000",
            "--deadline",
            "2",
        ],
    );
    let bound = Duration::from_secs_f64(2.0 + RUN_SLACK);
    let r = run_kit(&args, bound + Duration::from_secs(30), |_| {});
    eprintln!(
        "deadline: wall {:.2} s (bound {:.1} s), peak rss {} KiB",
        r.wall.as_secs_f64(),
        bound.as_secs_f64(),
        r.max_rss_kb
    );
    assert!(r.wall < bound, "{:?}", r.wall);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(processes_with(&h.marker).is_empty());
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let problems = v["port"]["problems"].as_array().unwrap();
    assert!(
        problems
            .iter()
            .any(|p| p.as_str().unwrap().starts_with("deadline of 2 s exceeded")),
        "{problems:?}"
    );
    let not_run = v["port"]["not_run"].as_u64().unwrap();
    assert!(not_run > 100, "{not_run}");
}

/// Answers every request `unimplemented` at once: the kit's own side of each case is the cost.
const UNIMPLEMENTED: &str = "import json\nfor line in sys.stdin:\n    \
     sys.stdout.write(json.dumps({'id': json.loads(line)['id'], 'unimplemented': True}) + '\\n')\n    \
     sys.stdout.flush()";

// pins [DRIVER.PROC.DEADLINE]: with 20000 cases and --deadline 3 the run must end in seconds, list
// the unstarted generated cases and fail with 'deadline of 3 s exceeded'; a kit ignoring the
// deadline runs for minutes
#[test]
fn the_deadline_stops_generated_cases_too() {
    // 20,000 cases answered at once: before the cases obeyed the deadline, the kit computed the
    // reference's side of every one (minutes) although no request after the deadline was sent.
    let h = hostile("deadline-cases", UNIMPLEMENTED);
    let args = [
        "certify",
        "--json",
        "--port",
        &h.command,
        "--port-cases",
        "20000",
        "--threads",
        "1",
        "--deadline",
        "3",
        "--timeout",
        "5",
    ];
    let bound = Duration::from_secs_f64(3.0 + RUN_SLACK);
    let r = run_kit(&args, bound + Duration::from_secs(30), |_| {});
    eprintln!(
        "deadline-cases: wall {:.2} s (bound {:.1} s), peak rss {} KiB",
        r.wall.as_secs_f64(),
        bound.as_secs_f64(),
        r.max_rss_kb
    );
    assert!(r.wall < bound, "{:?}", r.wall);
    assert!(r.max_rss_kb < MAX_RSS_KB, "{}", r.max_rss_kb);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(processes_with(&h.marker).is_empty());
    assert!(
        r.stdout.contains("generated cases of section"),
        "{}",
        &r.stdout[..r.stdout.len().min(4000)]
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let problems = v["port"]["problems"].as_array().unwrap();
    assert!(
        problems
            .iter()
            .any(|p| p.as_str().unwrap().starts_with("deadline of 3 s exceeded")),
        "{problems:?}"
    );
}

// pins [DRIVER.PROC.SIGNALS]: SIGTERM and SIGINT to certify --port must exit 143 and 130 at once,
// say so on stderr and leave no driver process (also a setsid child) alive
#[test]
fn sigterm_and_sigint_kill_the_drivers_and_their_escaped_children_and_exit_143_and_130() {
    for (sig, code, behaviour) in [
        (libc::SIGTERM, 143, HANG),
        (libc::SIGINT, 130, HANG),
        (libc::SIGTERM, 143, SETSID),
    ] {
        let h = hostile(&format!("signal{sig}"), behaviour);
        let args = certify_args(&h.command, &["--timeout", "30"]);
        let marker = h.marker.clone();
        let mut signalled = None;
        let r = run_kit(&args, Duration::from_secs(40), |pid| {
            // Wait for the driver (sh and python3, besides the kit itself) to be running a
            // request, then signal the kit.
            let t = Instant::now();
            // sh and python3, and with SETSID the child in its own session.
            let want = if behaviour == SETSID { 3 } else { 2 };
            while processes_with(&marker)
                .iter()
                .filter(|&&p| p != pid)
                .count()
                < want
            {
                assert!(t.elapsed() < Duration::from_secs(20), "no driver started");
                std::thread::sleep(Duration::from_millis(20));
            }
            std::thread::sleep(Duration::from_millis(500));
            // SAFETY: our unreaped child.
            unsafe { libc::kill(pid as i32, sig) };
            signalled = Some(Instant::now());
        });
        let after = signalled.unwrap().elapsed();
        eprintln!(
            "signal {sig}: exited {:?} after the signal, status {:?}",
            after, r.code
        );
        assert_eq!(r.code, Some(code), "{:?} {}", r.signal, r.stderr);
        assert!(after < Duration::from_secs(5), "{after:?}");
        assert!(
            r.stderr.contains("driver process group(s) killed"),
            "{}",
            r.stderr
        );
        assert!(
            processes_with(&h.marker).is_empty(),
            "left: {:?}",
            processes_with(&h.marker)
        );
    }
}

#[test]
fn bad_flags_are_refused_before_any_driver_starts() {
    let h = hostile("flags", HANG);
    let dir = h.dir.clone();
    let file = dir.join("plain-file");
    std::fs::write(&file, "x").unwrap();
    let missing = dir.join("missing/j.xml");
    let under_file = file.join("c.json");
    let missing = missing.to_str().unwrap();
    let under_file = under_file.to_str().unwrap();
    let ok_cert = dir.join("c.json");
    let ok_cert = ok_cert.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--junit", missing], "does not exist"),
        (vec!["--certificate", under_file], "is not a directory"),
        (
            vec!["--certificate", "/proc/onepath-c.json"],
            "not writable",
        ),
        (vec!["--junit", dir.to_str().unwrap()], "is a directory"),
        (
            vec!["--certificate", ok_cert, "--date", "2026-02-30"],
            "no such day",
        ),
        (
            vec!["--certificate", ok_cert, "--date", "2026-13-01"],
            "no such month",
        ),
        (
            vec!["--certificate", ok_cert, "--date", "26-1-1"],
            "YYYY-MM-DD",
        ),
        (vec!["--full"], "cannot be used with"),
        (vec!["--max-consecutive-failures", "0"], "positive"),
        (vec!["--max-reply-mb", "0"], "--max-reply-mb"),
        (vec!["--deadline", "0"], "--deadline"),
        (vec!["--max-failures", "0"], "--max-failures"),
    ];
    for (extra, expect) in cases {
        let args = certify_args(&h.command, &extra);
        let r = run_kit(&args, Duration::from_secs(20), |_| {});
        assert_eq!(r.code, Some(2), "{extra:?}: {}", r.stderr);
        assert!(r.stderr.contains(expect), "{extra:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{extra:?}: the run started");
        assert!(r.wall < Duration::from_secs(5), "{extra:?}: {:?}", r.wall);
        assert!(processes_with(&h.marker).is_empty());
    }
    assert!(!dir.join("c.json").exists());
}
