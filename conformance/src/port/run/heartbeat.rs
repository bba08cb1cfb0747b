//! The progress of a port run ([DRIVER.CLI.PROGRESS]): while the sections run, a line every
//! interval on stderr with the section, the requests sent and answered per family and the
//! failures so far — rewritten in place on a terminal, one line per beat in a log.

use crate::port::{op_family, PortImpl};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// One progress line: `port: <section>: graph 812/812, grid-search 40/40 answered; 0 failed; 12 s`.
pub fn line(port: &PortImpl, started: Instant) -> String {
    let l = port.ledger.lock().unwrap_or_else(|e| e.into_inner());
    let mut by_family: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for (op, n) in &l.requests {
        by_family.entry(op_family(op)).or_default().0 += n;
    }
    for (op, n) in &l.answered {
        by_family.entry(op_family(op)).or_default().1 += n;
    }
    let families: Vec<String> = by_family
        .iter()
        .map(|(f, (sent, answered))| format!("{f} {answered}/{sent}"))
        .collect();
    let failed = l
        .events
        .iter()
        .filter(|e| e.kind != "unimplemented")
        .count();
    format!(
        "port: {}: {} answered; {failed} failed; {} s",
        if l.section.is_empty() {
            "starting"
        } else {
            &l.section
        },
        if families.is_empty() {
            "no requests yet".to_string()
        } else {
            families.join(", ")
        },
        started.elapsed().as_secs()
    )
}

/// Runs `work` while a beat thread prints [`line`] every `every` (not at all when `None`).
pub fn with_heartbeat<T>(port: &PortImpl, every: Option<Duration>, work: impl FnOnce() -> T) -> T {
    let Some(every) = every else {
        return work();
    };
    let done = AtomicBool::new(false);
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let tick = Duration::from_millis(100).min(every);
            let mut next = every;
            while !done.load(Ordering::SeqCst) {
                std::thread::sleep(tick);
                if started.elapsed() >= next {
                    next += every;
                    let text = line(port, started);
                    let mut err = std::io::stderr().lock();
                    let _ = if terminal {
                        write!(err, "\r\x1b[2K{text}")
                    } else {
                        writeln!(err, "{text}")
                    };
                    let _ = err.flush();
                }
            }
            if terminal && started.elapsed() >= every {
                let _ = writeln!(std::io::stderr());
            }
        });
        let out = work();
        done.store(true, Ordering::SeqCst);
        out
    })
}
