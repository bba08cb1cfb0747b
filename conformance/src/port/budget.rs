//! The failure budget and the run deadline ([DRIVER.PROC.BUDGET], [DRIVER.PROC.DEADLINE]): a
//! family whose requests fail K times in a row (crash, timeout, malformed reply), a run with too
//! many failed requests in all, or a run past its deadline gets its further requests answered at
//! once as `not run` instead of being sent. The deadline only stops requests; no clock reading
//! reaches a result.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Default K of `--max-consecutive-failures`.
pub const DEFAULT_MAX_CONSECUTIVE_FAILURES: usize = 8;
/// Default of `--max-failures`: failed requests in the whole run.
pub const DEFAULT_MAX_FAILURES: u64 = 64;
/// Default of `--deadline`, seconds.
pub const DEFAULT_DEADLINE_SECS: u64 = 1800;

/// The message of a request a `--fail-fast` run did not send ([DRIVER.CLI.FAIL_FAST]).
pub const FAIL_FAST_NOT_SENT: &str = "stopped at the first failure (--fail-fast); request not sent";

/// Why a request was not sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotRunKind {
    /// Its family failed K requests in a row.
    Family,
    /// The run failed `--max-failures` requests.
    Run,
    /// The run's deadline passed.
    Deadline,
    /// `--fail-fast` stopped the run at its first failure ([DRIVER.CLI.FAIL_FAST]).
    FailFast,
}

/// A request answered `not run`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotRun {
    /// Why.
    pub kind: NotRunKind,
    /// The text reported with the request.
    pub message: String,
}

/// Whether a request may be sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Admission {
    /// Send it; wait at most this long for its reply (the time left before the deadline).
    Go(Option<Duration>),
    /// Answer it `not run` at once.
    NotRun(NotRun),
}

#[derive(Debug, Default)]
struct State {
    consecutive: BTreeMap<String, (usize, &'static str)>,
    /// Exhausted families: the kind of their last failure.
    exhausted: BTreeMap<String, &'static str>,
    failures: u64,
    run_exhausted: bool,
    deadline_hit: bool,
    /// The first failure that stopped a `--fail-fast` run ([DRIVER.CLI.FAIL_FAST]).
    halted: Option<String>,
}

/// The budget of one run (shared by every worker thread).
#[derive(Debug)]
pub struct Budget {
    max_consecutive: usize,
    max_failures: u64,
    deadline: Option<(Instant, Duration)>,
    state: Mutex<State>,
}

impl Budget {
    /// A budget: K = `max_consecutive` (at least 1), at most `max_failures` failed requests in
    /// the run (at least 1), and a deadline `deadline` from now.
    pub fn new(max_consecutive: usize, max_failures: u64, deadline: Option<Duration>) -> Budget {
        Budget {
            max_consecutive: max_consecutive.max(1),
            max_failures: max_failures.max(1),
            deadline: deadline.map(|d| (Instant::now() + d, d)),
            state: Mutex::new(State::default()),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn deadline_message(&self) -> String {
        let secs = self.deadline.map_or(0.0, |(_, d)| d.as_secs_f64());
        format!("deadline of {secs} s exceeded; request not sent")
    }

    /// Decides whether a request of `family` is sent.
    pub fn admit(&self, family: &str) -> Admission {
        let mut s = self.state();
        if s.halted.is_some() {
            return Admission::NotRun(NotRun {
                kind: NotRunKind::FailFast,
                message: FAIL_FAST_NOT_SENT.into(),
            });
        }
        let left = match self.deadline {
            Some((end, _)) => match end.checked_duration_since(Instant::now()) {
                Some(left) if !left.is_zero() && !s.deadline_hit => Some(left),
                _ => {
                    s.deadline_hit = true;
                    return Admission::NotRun(NotRun {
                        kind: NotRunKind::Deadline,
                        message: self.deadline_message(),
                    });
                }
            },
            None => None,
        };
        if s.run_exhausted {
            return Admission::NotRun(NotRun {
                kind: NotRunKind::Run,
                message: format!(
                    "{} failed requests in the run (--max-failures); request not sent",
                    self.max_failures
                ),
            });
        }
        if let Some(last) = s.exhausted.get(family) {
            return Admission::NotRun(NotRun {
                kind: NotRunKind::Family,
                message: format!(
                    "{} consecutive failed requests of family {family} (last: {last}; \
                     --max-consecutive-failures); request not sent",
                    self.max_consecutive
                ),
            });
        }
        Admission::Go(left)
    }

    /// Records the end of a sent request of `family`: `Some(kind)` when it failed (crash,
    /// timeout, malformed reply), `None` when the driver answered (which resets the count).
    pub fn record(&self, family: &str, failure: Option<&'static str>) {
        let mut s = self.state();
        match failure {
            None => {
                s.consecutive.remove(family);
            }
            Some(kind) => {
                s.failures += 1;
                if s.failures >= self.max_failures {
                    s.run_exhausted = true;
                }
                let n = {
                    let e = s.consecutive.entry(family.to_string()).or_insert((0, kind));
                    *e = (e.0 + 1, kind);
                    e.0
                };
                if n >= self.max_consecutive {
                    s.exhausted.entry(family.to_string()).or_insert(kind);
                }
            }
        }
    }

    /// The instant the deadline passes, or none ([DRIVER.PROC.DEADLINE]).
    pub fn deadline_at(&self) -> Option<Instant> {
        self.deadline.map(|(end, _)| end)
    }

    /// Marks the deadline as passed (a reply wait cut short by it).
    pub fn deadline_passed(&self) -> bool {
        let passed = self.deadline.is_some_and(|(end, _)| Instant::now() >= end);
        if passed {
            self.state().deadline_hit = true;
        }
        passed
    }

    /// The message of a request whose reply wait the deadline cut short.
    pub fn deadline_cut_message(&self) -> String {
        let secs = self.deadline.map_or(0.0, |(_, d)| d.as_secs_f64());
        format!("deadline of {secs} s exceeded while waiting for the reply; driver killed")
    }

    /// Stops the run at its first failure ([DRIVER.CLI.FAIL_FAST]): every further request is
    /// answered `not run`. Only the first call's `failure` is kept.
    pub fn halt(&self, failure: String) {
        let mut s = self.state();
        if s.halted.is_none() {
            s.halted = Some(failure);
        }
    }

    /// True once [`Budget::halt`] was called.
    pub fn halted(&self) -> bool {
        self.state().halted.is_some()
    }

    /// The verdict problems of the budget: the `--fail-fast` stop, each exhausted family, the
    /// run budget, the deadline.
    pub fn problems(&self) -> Vec<String> {
        let s = self.state();
        let mut out = Vec::new();
        if let Some(first) = &s.halted {
            out.push(format!(
                "stopped at the first failure (--fail-fast): {first}; the requests after it were not run"
            ));
        }
        if s.deadline_hit {
            let secs = self.deadline.map_or(0.0, |(_, d)| d.as_secs_f64());
            out.push(format!(
                "deadline of {secs} s exceeded: the requests after it were not run (--deadline)"
            ));
        }
        if s.run_exhausted {
            out.push(format!(
                "{} failed requests in the run: the requests after them were not run (--max-failures)",
                s.failures
            ));
        }
        for (family, last) in &s.exhausted {
            out.push(format!(
                "{family}: {} consecutive failed requests (last: {last}): the family's further requests were not run (--max-consecutive-failures)",
                self.max_consecutive
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_consecutive_failures_exhaust_a_family_and_a_success_resets() {
        let b = Budget::new(3, 100, None);
        for _ in 0..2 {
            b.record("graph", Some("timeout"));
        }
        b.record("graph", None);
        for _ in 0..2 {
            b.record("graph", Some("crash"));
        }
        // K - 1 in a row: still sent.
        assert_eq!(b.admit("graph"), Admission::Go(None));
        b.record("graph", Some("crash"));
        // K in a row: the family stops, the others go on.
        assert!(matches!(
            b.admit("graph"),
            Admission::NotRun(NotRun {
                kind: NotRunKind::Family,
                ..
            })
        ));
        assert_eq!(b.admit("grids"), Admission::Go(None));
        assert_eq!(b.problems().len(), 1, "{:?}", b.problems());
    }

    #[test]
    fn the_run_budget_counts_every_failure() {
        let b = Budget::new(100, 4, None);
        for i in 0..3 {
            b.record("graph", Some("timeout"));
            b.record("graph", None);
            assert_eq!(b.admit("grids"), Admission::Go(None), "{i}");
        }
        b.record("grids", Some("crash"));
        assert!(matches!(
            b.admit("grids"),
            Admission::NotRun(NotRun {
                kind: NotRunKind::Run,
                ..
            })
        ));
    }

    #[test]
    fn a_passed_deadline_stops_every_request() {
        let b = Budget::new(8, 64, Some(Duration::ZERO));
        match b.admit("graph") {
            Admission::NotRun(n) => {
                assert_eq!(n.kind, NotRunKind::Deadline);
                assert!(
                    n.message.starts_with("deadline of 0 s exceeded"),
                    "{}",
                    n.message
                );
            }
            other => panic!("{other:?}"),
        }
        assert!(b.problems()[0].starts_with("deadline of 0 s exceeded"));
        let later = Budget::new(8, 64, Some(Duration::from_secs(3600)));
        assert!(matches!(later.admit("graph"), Admission::Go(Some(_))));
    }
}
