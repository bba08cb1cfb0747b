//! The `certify --port` flags ([DRIVER.CLI.CERTIFY]), with the ranges of [DRIVER.CLI.LIMITS].

use std::path::PathBuf;

/// Options of `certify --port` ([DRIVER.CLI.CERTIFY]).
#[derive(clap::Args)]
pub struct PortArgs {
    /// Per-request timeout in seconds (port runs).
    #[arg(long, default_value_t = crate::port::run::DEFAULT_TIMEOUT_SECS, requires = "port", value_parser = crate::port::flags::parse_timeout)]
    pub timeout: f64,
    /// Generated oracle cases of a port run, at least 1; the other sections scale from it.
    #[arg(long, default_value_t = crate::port::run::DEFAULT_PORT_CASES, requires = "port", value_parser = crate::port::flags::parse_port_cases)]
    pub port_cases: usize,
    /// Expectations file (schema onepath.port-expectations).
    #[arg(long, requires = "port")]
    pub expect: Option<PathBuf>,
    /// Write a JUnit XML report.
    #[arg(long, requires = "port")]
    pub junit: Option<PathBuf>,
    /// Write a certificate when the port passes.
    #[arg(long, requires = "port")]
    pub certificate: Option<PathBuf>,
    /// Virtual-memory limit of each driver process in MiB (`ulimit -v`; 0 = none).
    #[arg(long, default_value_t = crate::port::driver::DEFAULT_MEMORY_LIMIT_MB, requires = "port", value_parser = crate::port::flags::parse_memory_limit_mb)]
    pub memory_limit_mb: u64,
    /// Certificate date (YYYY-MM-DD) instead of the system clock.
    #[arg(long, requires = "certificate", value_parser = crate::port::flags::parse_date)]
    pub date: Option<String>,
    /// Cap of one reply line in MiB: a longer line is a malformed reply (not buffered).
    #[arg(long, default_value_t = crate::port::process::DEFAULT_MAX_REPLY_MB, requires = "port", value_parser = crate::port::flags::parse_max_reply_mb)]
    pub max_reply_mb: u64,
    /// After this many failed requests in a row a family's further requests are `not run`.
    #[arg(long, default_value_t = crate::port::budget::DEFAULT_MAX_CONSECUTIVE_FAILURES, requires = "port", value_parser = parse_positive)]
    pub max_consecutive_failures: usize,
    /// After this many failed requests in the whole run every further request is `not run`.
    #[arg(long, default_value_t = crate::port::budget::DEFAULT_MAX_FAILURES, requires = "port", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_failures: u64,
    /// Whole-run deadline in seconds: after it every further request is `not run`.
    #[arg(long, default_value_t = crate::port::budget::DEFAULT_DEADLINE_SECS, requires = "port", value_parser = crate::port::flags::parse_deadline)]
    pub deadline: u64,
    /// Seconds between progress lines on stderr (rewritten in place on a terminal, one line
    /// per beat in a log); 0 turns them off.
    #[arg(long, default_value_t = 10, requires = "port", value_parser = crate::port::flags::parse_heartbeat)]
    pub heartbeat: u64,
    /// The clause index the port was last certified against (a `CLAUSES.json` file or a git
    /// revision of the checkout): the report lists the clauses added, changed and retired since.
    #[arg(long, value_name = "CLAUSES.json|REV", requires = "port")]
    pub since: Option<String>,
    /// Stop at the first difference or unanswered request that fails the verdict: the verdict
    /// is the whole run's, the report holds what ran before it (not with `--expect`).
    #[arg(long, requires = "port", conflicts_with = "expect")]
    pub fail_fast: bool,
    /// Write, per case label with a difference or a failed request in a claimed family, the
    /// request lines it was sent (the handshake first) as DIR/<label>.jsonl, with DIR/index.json:
    /// `CMD < DIR/<label>.jsonl` replays them. DIR must be new, empty, or written by this flag.
    #[arg(long, value_name = "DIR", requires = "port")]
    pub failures_dir: Option<PathBuf>,
}

/// A whole number of at least 1.
fn parse_positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{s:?} is not a positive integer")),
    }
}
