//! One driver process ([DRIVER.PROC.START], [DRIVER.PROC.CAP], [DRIVER.PROC.GROUPS]): started
//! with `sh -c` in a process group of its own, its stdout read in chunks into lines no longer
//! than a cap, its stderr kept as a short tail of short lines, and a registry of every live
//! process group so that a signal to the kit (or any exit path) kills them all.
//! [DRIVER.PROC.LINES] one JSON object per line; [DRIVER.PROC.TIMEOUT] every read has a deadline.

use std::collections::{BTreeSet, VecDeque};
use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Default cap of one reply line, MiB (`--max-reply-mb`). The largest line the Python driver
/// sends in a default run is about 33 KB; the cap leaves a margin of about 500 times.
pub const DEFAULT_MAX_REPLY_MB: u64 = 16;
/// Bytes kept of each stderr line ([DRIVER.PROC.STDERR]).
pub const STDERR_LINE_BYTES: usize = 120;
/// Stderr lines kept (the last ones).
pub const STDERR_LINES: usize = 4;
/// Bytes of any driver-supplied text (a bad reply, an error message, a stderr tail) quoted in
/// an event or a report ([DRIVER.PROC.QUOTE]).
pub const QUOTE_BYTES: usize = 600;

/// What [`read_line_bounded`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// One line, without its `\n`, at most the cap long.
    Line(Vec<u8>),
    /// The line is longer than the cap: the cap plus one byte was read, nothing more.
    TooLong,
    /// End of input (a last line without `\n` is still returned as [`LineRead::Line`]).
    Eof,
}

/// Reads one `\n`-ended line of at most `cap` bytes (the `\n` not counted) from `r`, in the
/// reader's own chunks: a longer line is [`LineRead::TooLong`] once `cap + 1` bytes of it were
/// seen, and the rest of it is never read or buffered.
pub fn read_line_bounded<R: BufRead>(r: &mut R, cap: usize) -> io::Result<LineRead> {
    let mut line = Vec::new();
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(if line.is_empty() {
                LineRead::Eof
            } else {
                LineRead::Line(line)
            });
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if line.len() + take > cap {
            return Ok(LineRead::TooLong);
        }
        line.extend_from_slice(&chunk[..take]);
        r.consume(take + usize::from(done));
        if done {
            return Ok(LineRead::Line(line));
        }
    }
}

/// Reads one line and keeps only its first `keep` bytes (the rest is read and dropped); `None`
/// at end of input. Used for stderr, which is free text of any length.
pub fn read_line_truncating<R: BufRead>(r: &mut R, keep: usize) -> io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let mut seen = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(seen.then_some(line));
        }
        seen = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        let room = keep.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..take.min(room)]);
        r.consume(take + usize::from(done));
        if done {
            return Ok(Some(line));
        }
    }
}

/// At most `max` bytes of `s` (cut at a character boundary), with `...` when cut.
pub fn clip(s: &str, max: usize) -> String {
    crate::error::clip(s, max)
}

/// One message from the stdout reader.
pub(crate) enum Out {
    /// A complete line (UTF-8, without `\n`).
    Line(String),
    /// A line over the cap; the reader stopped.
    TooLong,
    /// A line that is not UTF-8; the reader stopped.
    NotUtf8,
}

/// Why a driver could not be started, or spoken to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessErrorKind {
    /// `sh` could not be started.
    Spawn,
    /// Writing to the driver's stdin failed.
    Write,
    /// The driver did not take the whole message within the request's time (it stopped
    /// reading its stdin, [DRIVER.PROC.TIMEOUT]).
    WriteTimeout,
}

/// A process-level failure, with its kind and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessError {
    /// What failed.
    pub kind: ProcessErrorKind,
    /// Details (already clipped).
    pub message: String,
}

impl std::fmt::Display for ProcessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ProcessError {}

/// Process-group ids of every driver started and not yet reaped ([DRIVER.PROC.GROUPS]). A group
/// is removed only after it was killed and before its leader is waited for, so an id here never
/// names a reused pid.
static LIVE: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn live() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn killpg(pgid: i32) {
    if pgid > 1 {
        // SAFETY: a plain system call naming one process group this harness created and whose
        // leader it has not reaped.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
}

/// Kills every live driver process group (SIGKILL), then every descendant that left its group
/// or session (the kit is their subreaper, [`become_subreaper`]). Called on the kit's exit paths.
pub fn kill_all_drivers() {
    let groups = live();
    kill_groups_and_escapees(&groups);
    sweep_orphans(&groups);
}

/// Kills every process group in `groups` and every live descendant of their leaders that left
/// the group (a `setsid()` child), found before the kill: once its parent is dead such a child
/// is adopted by the kit only if the kit outlives that parent, which an exiting kit may not.
fn kill_groups_and_escapees(groups: &BTreeSet<i32>) {
    let escapees = live_descendants_of(groups);
    for &g in groups.iter() {
        killpg(g);
    }
    for pid in escapees {
        // SAFETY: a plain system call. `pid` was, an instant ago, a live descendant of a
        // driver this harness started and has not reaped; it is signalled once, at once.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// The live (not zombie) descendants of the processes `roots`, roots excluded (Linux:
/// `/proc/<pid>/stat`, field 4 the parent).
fn live_descendants_of(roots: &BTreeSet<i32>) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    // (pid, parent, alive)
    let mut table: Vec<(i32, i32, bool)> = Vec::new();
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let mut rest = stat
            .rsplit_once(')')
            .map(|(_, r)| r.split_whitespace())
            .into_iter()
            .flatten();
        let state = rest.next();
        let Some(ppid) = rest.next().and_then(|p| p.parse::<i32>().ok()) else {
            continue;
        };
        table.push((pid, ppid, !matches!(state, Some("Z" | "X"))));
    }
    let mut found: BTreeSet<i32> = roots.clone();
    let mut out = Vec::new();
    loop {
        let before = found.len();
        for &(pid, ppid, alive) in &table {
            if found.contains(&ppid) && found.insert(pid) && alive {
                out.push(pid);
            }
        }
        if found.len() == before {
            return out;
        }
    }
}

/// Makes the kit the reaper of its orphaned descendants ([DRIVER.PROC.GROUPS]; Linux
/// `PR_SET_CHILD_SUBREAPER`): a driver's grandchild that called `setsid()` and outlived its
/// parent becomes the kit's child instead of init's, so the exit paths can find it. Other
/// platforms: no effect (the limit is documented in the clause).
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one integer argument and changes only
    // which process adopts this process's orphaned descendants.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0);
    }
}

/// The kit's direct children (Linux: from `/proc/<pid>/stat`, field 4 the parent pid).
fn children_of_this_process() -> Vec<i32> {
    let me = std::process::id() as i32;
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so split after the
        // last `)`.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok());
        if ppid == Some(me) {
            out.push(pid);
        }
    }
    out
}

/// Whether a process of one of the process groups `groups` is alive (Linux: `/proc/<pid>/stat`,
/// field 5 the process group; a zombie, state `Z` or `X`, has exited and does not count).
fn any_group_alive(groups: &BTreeSet<i32>) -> bool {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return false;
    };
    dir.flatten().any(|entry| {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            return false;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            return false;
        };
        // `pid (comm) state ppid pgrp ...`, split after the last `)` as above.
        let mut rest = stat
            .rsplit_once(')')
            .map(|(_, r)| r.split_whitespace())
            .into_iter()
            .flatten();
        let state = rest.next();
        let pgrp = rest.nth(1).and_then(|p| p.parse::<i32>().ok());
        matches!(pgrp, Some(g) if groups.contains(&g)) && !matches!(state, Some("Z" | "X"))
    })
}

/// Kills and reaps every child of the kit other than the driver leaders in `drivers` (those are
/// killed by group and reaped by their owner, so their ids are never reused under it), again
/// and again while new ones appear (the orphans of what was just killed are adopted by the kit
/// as subreaper), for at most 100 rounds of 10 ms. Only called when no driver is wanted any
/// more: the kit starts no other processes.
///
/// It returns only once no process of a killed group is alive (a killed process takes a moment
/// to exit, and a child that left the group is adopted by the kit only when its parent has
/// exited: returning earlier let the kit exit first and such a child outlive it).
fn sweep_orphans(drivers: &BTreeSet<i32>) {
    for _ in 0..100 {
        let mut children = children_of_this_process();
        children.retain(|pid| !drivers.contains(pid));
        if children.is_empty() && !any_group_alive(drivers) {
            return;
        }
        for pid in children {
            // SAFETY: `pid` is this process's child and not yet reaped (it is listed under
            // /proc with this process as parent), so the id names no other process; waiting
            // for it reaps it.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The number of driver process groups started and not yet reaped.
pub fn live_driver_groups() -> usize {
    live().len()
}

/// Installs the kit's SIGINT / SIGTERM handling ([DRIVER.PROC.SIGNALS]): on either signal every
/// live driver group is killed and the kit exits with status 130 (SIGINT) or 143 (SIGTERM).
pub fn install_signal_handlers() -> io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    become_subreaper();
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    std::thread::spawn(move || {
        if let Some(sig) = signals.forever().next() {
            // Holding the registry lock: no driver can be started or reaped meanwhile.
            let groups = live();
            kill_groups_and_escapees(&groups);
            let killed = groups.len();
            sweep_orphans(&groups);
            let _ = io::stderr().write_all(
                format!(
                    "onepath-conformance: {} received; {} driver process group(s) killed\n",
                    if sig == SIGINT { "SIGINT" } else { "SIGTERM" },
                    killed
                )
                .as_bytes(),
            );
            std::process::exit(128 + sig);
        }
    });
    Ok(())
}

/// Whether the child `pid` has ended, read without reaping it (`waitid` with `WNOWAIT`: the
/// zombie keeps its pid and group id ours until [`Proc::reap`]): `None` while it runs,
/// `Some(Some(code))` when it exited with `code`, `Some(None)` when a signal ended it or the
/// status cannot be read.
#[cfg(target_os = "linux")]
fn exit_code_unreaped(pid: i32) -> Option<Option<i32>> {
    // SAFETY: `siginfo_t` is plain data, all zeroes a valid value.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: a plain system call on this process's own child, which is not yet reaped (its
    // owner reaps it only in `Proc::reap`); WNOWAIT leaves it waitable.
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    if r != 0 {
        return Some(None);
    }
    // SAFETY: waitid filled `info` (si_pid 0: the child has not changed state yet).
    let (who, status) = unsafe { (info.si_pid(), info.si_status()) };
    if who == 0 {
        None
    } else if info.si_code == libc::CLD_EXITED {
        Some(Some(status))
    } else {
        Some(None)
    }
}

/// Elsewhere the exit status is not read before the reap: never judged.
#[cfg(not(target_os = "linux"))]
fn exit_code_unreaped(_pid: i32) -> Option<Option<i32>> {
    Some(None)
}

/// A running driver process (the leader of its own process group).
pub(crate) struct Proc {
    child: Child,
    /// Set once the child was waited for: its pid (and process group id) may then be reused
    /// by an unrelated process, so it must never be signalled again.
    reaped: bool,
    /// Message lines to the writer thread, which owns the driver's stdin; dropping it closes
    /// stdin once the thread has written what it holds.
    writer: Option<Sender<Vec<u8>>>,
    /// What the writer thread did with each line: written and flushed, or the write error.
    written: Receiver<io::Result<()>>,
    pub(crate) rx: Receiver<Out>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

impl Proc {
    /// Starts `sh -c command` in a new process group; reply lines are capped at `cap` bytes.
    pub(crate) fn spawn(command: &str, cap: usize) -> Result<Proc, ProcessError> {
        let mut child = {
            // Registered under the lock: a signal handler sees either no process or its group.
            let mut groups = live();
            let child = Command::new("sh")
                .arg("-c")
                .arg(command)
                .env("ONEPATH_DRIVER", "1")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .process_group(0)
                .spawn()
                .map_err(|e| ProcessError {
                    kind: ProcessErrorKind::Spawn,
                    message: clip(
                        &format!("cannot start `sh -c {command:?}`: {e}"),
                        QUOTE_BYTES,
                    ),
                })?;
            groups.insert(child.id() as i32);
            child
        };
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let mut p = Proc::bare(child);
            p.reap();
            return Err(ProcessError {
                kind: ProcessErrorKind::Spawn,
                message: "driver pipes missing".into(),
            });
        };
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::with_capacity(64 * 1024, stdout);
            loop {
                let msg = match read_line_bounded(&mut r, cap) {
                    Ok(LineRead::Line(bytes)) => match String::from_utf8(bytes) {
                        Ok(s) => Out::Line(s),
                        Err(_) => Out::NotUtf8,
                    },
                    Ok(LineRead::TooLong) => Out::TooLong,
                    Ok(LineRead::Eof) | Err(_) => break,
                };
                let stop = !matches!(msg, Out::Line(_));
                if tx.send(msg).is_err() || stop {
                    break;
                }
            }
        });
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        std::thread::spawn(move || {
            let mut r = BufReader::with_capacity(8 * 1024, stderr);
            while let Ok(Some(line)) = read_line_truncating(&mut r, STDERR_LINE_BYTES) {
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(String::from_utf8_lossy(&line).into_owned());
            }
        });
        // A driver that stops reading must not block the kit in a write: the writer thread
        // blocks instead, and `send` waits for it no longer than the request's time.
        let (line_tx, line_rx) = channel::<Vec<u8>>();
        let (done_tx, done_rx) = channel();
        std::thread::spawn(move || {
            let mut stdin: ChildStdin = stdin;
            for line in line_rx {
                let r = stdin.write_all(&line).and_then(|_| stdin.flush());
                let failed = r.is_err();
                if done_tx.send(r).is_err() || failed {
                    break;
                }
            }
        });
        let mut p = Proc::bare(child);
        p.writer = Some(line_tx);
        p.written = done_rx;
        p.rx = rx;
        p.stderr_tail = stderr_tail;
        Ok(p)
    }

    fn bare(child: Child) -> Proc {
        let (_, rx) = channel();
        let (_, written) = channel();
        Proc {
            child,
            reaped: false,
            writer: None,
            written,
            rx,
            stderr_tail: Arc::new(Mutex::new(VecDeque::new())),
        }
    }

    /// Writes one message line, waiting at most `timeout` for the driver to take it.
    pub(crate) fn send(&mut self, line: &str, timeout: Duration) -> Result<(), ProcessError> {
        let err = |kind, m: String| ProcessError { kind, message: m };
        let writer = self
            .writer
            .as_ref()
            .ok_or_else(|| err(ProcessErrorKind::Write, "driver stdin closed".into()))?;
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        writer
            .send(bytes)
            .map_err(|_| err(ProcessErrorKind::Write, "driver stdin closed".into()))?;
        match self.written.recv_timeout(timeout) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(err(
                ProcessErrorKind::Write,
                format!("write to driver: {e}"),
            )),
            Err(RecvTimeoutError::Timeout) => {
                // The writer thread stays blocked until the driver's group is killed.
                self.writer = None;
                Err(err(
                    ProcessErrorKind::WriteTimeout,
                    format!(
                        "the driver did not read a {}-byte request within {timeout:?}",
                        line.len() + 1
                    ),
                ))
            }
            Err(RecvTimeoutError::Disconnected) => Err(err(
                ProcessErrorKind::Write,
                "write to driver: stdin closed".into(),
            )),
        }
    }

    /// Waits up to `timeout` for the next stdout message; `Ok(None)` on timeout, `Err` with the
    /// exit status (the process reaped) when stdout closed.
    pub(crate) fn next(&mut self, timeout: Duration) -> Result<Option<Out>, String> {
        match self.rx.recv_timeout(timeout) {
            Ok(m) => Ok(Some(m)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.reap();
                Err(status)
            }
        }
    }

    /// The last stderr lines, as `; stderr: a | b`, or empty.
    pub(crate) fn stderr_text(&self) -> String {
        // Give the stderr reader a moment to drain the last lines of a dying process.
        std::thread::sleep(Duration::from_millis(20));
        let t = self.stderr_tail.lock().unwrap_or_else(|e| e.into_inner());
        if t.is_empty() {
            String::new()
        } else {
            format!(
                "; stderr: {}",
                t.iter().cloned().collect::<Vec<_>>().join(" | ")
            )
        }
    }

    /// Closes stdin and waits up to `grace` for stdout to close and the leader to exit
    /// ([DRIVER.PROC.EOF]). Returns the leader's exit code when it exited by itself within
    /// `grace`; `None` when it is still running, was killed by a signal or its status cannot be
    /// read. The leader is not reaped here ([`Proc::reap`] does, after killing its group).
    pub(crate) fn close_and_wait(&mut self, grace: Duration) -> Option<i32> {
        self.writer = None;
        let end = std::time::Instant::now() + grace;
        loop {
            let left = end.checked_duration_since(std::time::Instant::now())?;
            match self.rx.recv_timeout(left.min(Duration::from_millis(10))) {
                Err(RecvTimeoutError::Disconnected) => break,
                _ => continue,
            }
        }
        loop {
            if let Some(code) = exit_code_unreaped(self.child.id() as i32) {
                return code;
            }
            end.checked_duration_since(std::time::Instant::now())?;
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Kills the whole process group, forgets it, then waits for the leader. Returns the exit
    /// status text. Idempotent.
    pub(crate) fn reap(&mut self) -> String {
        if self.reaped {
            return "already reaped".into();
        }
        let pid = self.child.id() as i32;
        {
            let mut groups = live();
            // The leader is at worst a zombie until waited for, so its group id is still ours.
            killpg(pid);
            groups.remove(&pid);
        }
        let status = self
            .child
            .wait()
            .map(|s| s.to_string())
            .unwrap_or_else(|e| e.to_string());
        self.reaped = true;
        status
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        self.reap();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // [DRIVER.PROC.EOF] The exit code of a driver that ends by itself once its stdin closes is
    // read (without reaping it); one still running after the wait is not judged.
    #[test]
    fn the_exit_code_after_end_of_input_is_read() {
        let mut p = Proc::spawn("cat >/dev/null; exit 3", 1 << 20).expect("sh starts");
        assert_eq!(p.close_and_wait(Duration::from_secs(10)), Some(3));
        assert!(p.reap().contains('3'), "the status is still there to reap");
        let mut q = Proc::spawn("cat >/dev/null", 1 << 20).expect("sh starts");
        assert_eq!(q.close_and_wait(Duration::from_secs(10)), Some(0));
        let mut r = Proc::spawn("sleep 30", 1 << 20).expect("sh starts");
        assert_eq!(r.close_and_wait(Duration::from_millis(100)), None);
    }

    // [DRIVER.PROC.TIMEOUT] A driver that never reads stdin: a 4 MiB request (far past any pipe
    // buffer) ends as a write timeout after the request's time, not when the driver exits.
    #[test]
    fn a_driver_that_does_not_read_gets_a_write_timeout() {
        let mut p = Proc::spawn("sleep 30", 1 << 20).expect("sh starts");
        let t = std::time::Instant::now();
        let e = p
            .send(&"x".repeat(4 << 20), Duration::from_millis(300))
            .unwrap_err();
        assert_eq!(e.kind, ProcessErrorKind::WriteTimeout, "{e}");
        assert!(e.message.contains("4194305-byte request"), "{e}");
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        // Small lines to a reading driver are taken at once.
        let mut cat = Proc::spawn("cat", 1 << 20).expect("sh starts");
        cat.send("{}", Duration::from_secs(5)).unwrap();
        assert!(matches!(cat.next(Duration::from_secs(5)), Ok(Some(Out::Line(l))) if l == "{}"));
    }

    fn read_all(input: &[u8], cap: usize, chunk: usize) -> Vec<LineRead> {
        let mut r = BufReader::with_capacity(chunk, input);
        let mut out = Vec::new();
        loop {
            let l = read_line_bounded(&mut r, cap).unwrap();
            let stop = l != LineRead::Eof && !matches!(l, LineRead::Line(_));
            let eof = l == LineRead::Eof;
            out.push(l);
            if stop || eof {
                return out;
            }
        }
    }

    #[test]
    fn a_line_at_the_cap_is_accepted_one_byte_over_is_rejected() {
        for chunk in [1, 3, 8, 64] {
            let at = [vec![b'x'; 10], b"\n".to_vec()].concat();
            assert_eq!(
                read_all(&at, 10, chunk),
                [LineRead::Line(vec![b'x'; 10]), LineRead::Eof],
                "chunk {chunk}"
            );
            let over = [vec![b'x'; 11], b"\n".to_vec()].concat();
            assert_eq!(
                read_all(&over, 10, chunk),
                [LineRead::TooLong],
                "chunk {chunk}"
            );
            // A last line without newline, at and over the cap.
            assert_eq!(
                read_all(&[b'y'; 10], 10, chunk),
                [LineRead::Line(vec![b'y'; 10]), LineRead::Eof]
            );
            assert_eq!(read_all(&[b'y'; 11], 10, chunk), [LineRead::TooLong]);
            assert_eq!(
                read_all(b"ab\ncd\n", 2, chunk),
                [
                    LineRead::Line(b"ab".to_vec()),
                    LineRead::Line(b"cd".to_vec()),
                    LineRead::Eof
                ]
            );
        }
    }

    #[test]
    fn an_over_long_line_is_not_buffered_past_the_cap() {
        // An endless line: a reader that never ends must still return after cap + 1 bytes.
        let mut r = BufReader::with_capacity(4096, io::repeat(b'z'));
        assert_eq!(
            read_line_bounded(&mut r, 1 << 20).unwrap(),
            LineRead::TooLong
        );
    }

    #[test]
    fn stderr_lines_are_truncated_and_the_rest_dropped() {
        let input = [vec![b'e'; 1000], b"\nshort\n".to_vec(), vec![b'f'; 5]].concat();
        let mut r = BufReader::with_capacity(7, &input[..]);
        assert_eq!(
            read_line_truncating(&mut r, 120).unwrap(),
            Some(vec![b'e'; 120])
        );
        assert_eq!(
            read_line_truncating(&mut r, 120).unwrap(),
            Some(b"short".to_vec())
        );
        assert_eq!(
            read_line_truncating(&mut r, 120).unwrap(),
            Some(vec![b'f'; 5])
        );
        assert_eq!(read_line_truncating(&mut r, 120).unwrap(), None);
        let exact = [vec![b'g'; 120], b"\n".to_vec()].concat();
        let mut r = BufReader::new(&exact[..]);
        assert_eq!(
            read_line_truncating(&mut r, 120).unwrap(),
            Some(vec![b'g'; 120])
        );
    }

    #[test]
    fn through_a_pipe_a_line_at_the_cap_is_read_one_byte_over_is_not() {
        let line = |n: usize| format!("head -c {n} /dev/zero | tr '\\0' x; echo; sleep 5");
        let mut at = Proc::spawn(&line(100_000), 100_000).unwrap();
        match at.next(Duration::from_secs(20)) {
            Ok(Some(Out::Line(s))) => assert_eq!(s.len(), 100_000),
            _ => panic!("a line at the cap was not read"),
        }
        let mut over = Proc::spawn(&line(100_001), 100_000).unwrap();
        assert!(matches!(
            over.next(Duration::from_secs(20)),
            Ok(Some(Out::TooLong))
        ));
    }

    #[test]
    fn the_stderr_tail_keeps_the_last_lines_only() {
        let six = (1..=6)
            .map(|i| format!("echo l{i} >&2"))
            .collect::<Vec<_>>();
        let mut p = Proc::spawn(&format!("{}; exit 3", six.join("; ")), 1024).unwrap();
        let pid = p.child.id() as i32;
        assert!(live().contains(&pid));
        let status = p.next(Duration::from_secs(20)).err().expect("exit");
        assert!(status.contains('3'), "{status}");
        // The last STDERR_LINES (4) of 6 lines; 5 lines would keep l2.
        assert_eq!(p.stderr_text(), "; stderr: l3 | l4 | l5 | l6");
        assert!(!live().contains(&pid), "reaped groups are forgotten");
    }

    #[test]
    fn clip_bounds_quoted_text() {
        assert_eq!(clip("abc", 3), "abc");
        let c = clip(&"é".repeat(QUOTE_BYTES), QUOTE_BYTES);
        assert!(c.len() <= QUOTE_BYTES + 20, "{}", c.len());
        assert!(
            c.ends_with(&format!("... ({} bytes)", 2 * QUOTE_BYTES)),
            "{c}"
        );
        // At the limit nothing is cut; one byte over is cut.
        assert_eq!(
            clip(&"a".repeat(QUOTE_BYTES), QUOTE_BYTES).len(),
            QUOTE_BYTES
        );
        assert!(clip(&"a".repeat(QUOTE_BYTES + 1), QUOTE_BYTES).contains("..."));
    }
}
