//! When a run stops taking new generated cases ([DRIVER.PROC.DEADLINE]): a port run's deadline
//! ends the requests it sends and also the cases it starts, so a large `--port-cases` cannot keep
//! the kit computing the reference's side of requests that will never be sent. An in-process
//! `certify` never stops ([`CaseStop::never`]). A `--fail-fast` port run also stops taking cases
//! at its first failure ([DRIVER.CLI.FAIL_FAST], [`CaseStop::halt`]). The clock decides only which
//! cases run, never a result.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The instant after which no new case starts, and the cases skipped per section.
#[derive(Clone, Debug, Default)]
pub struct CaseStop {
    at: Option<Instant>,
    halted: Arc<AtomicBool>,
    skipped: Arc<Mutex<BTreeMap<String, u64>>>,
}

impl CaseStop {
    /// Never stops (an in-process run, or a port run without `--deadline`).
    pub fn never() -> CaseStop {
        CaseStop::default()
    }

    /// Stops taking cases once `at` has passed.
    pub fn at(at: Instant) -> CaseStop {
        CaseStop {
            at: Some(at),
            ..CaseStop::default()
        }
    }

    /// True once the stop instant has passed or the run was halted.
    pub fn passed(&self) -> bool {
        self.halted() || self.at.is_some_and(|at| Instant::now() >= at)
    }

    /// Stops taking cases now, whatever the clock says (a `--fail-fast` run's first failure);
    /// every clone of this stop sees it.
    pub fn halt(&self) {
        self.halted.store(true, Ordering::SeqCst);
    }

    /// True once [`CaseStop::halt`] was called.
    pub fn halted(&self) -> bool {
        self.halted.load(Ordering::SeqCst)
    }

    /// Records that one case of `section` was not started.
    pub fn skip(&self, section: &str) {
        let mut m = self.skipped.lock().unwrap_or_else(|e| e.into_inner());
        *m.entry(section.to_string()).or_insert(0) += 1;
    }

    /// The cases not started, per section (section order by name).
    pub fn skipped(&self) -> Vec<(String, u64)> {
        let m = self.skipped.lock().unwrap_or_else(|e| e.into_inner());
        m.iter().map(|(s, n)| (s.clone(), *n)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn never_and_past() {
        assert!(!CaseStop::never().passed());
        let past = CaseStop::at(Instant::now());
        assert!(past.passed());
        let future = CaseStop::at(Instant::now() + Duration::from_secs(3600));
        assert!(!future.passed());
        past.skip("b");
        past.skip("a");
        past.skip("b");
        assert_eq!(past.skipped(), vec![("a".into(), 1), ("b".into(), 2)]);
        let clone = future.clone();
        future.halt();
        assert!(clone.passed() && clone.halted() && !CaseStop::never().halted());
    }
}
