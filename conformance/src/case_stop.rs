//! When a run stops taking new generated cases ([DRIVER.PROC.DEADLINE]): a port run's deadline
//! ends the requests it sends and also the cases it starts, so a large `--port-cases` cannot keep
//! the kit computing the reference's side of requests that will never be sent. An in-process
//! `certify` never stops ([`CaseStop::never`]). The clock decides only which cases run, never a
//! result.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The instant after which no new case starts, and the cases skipped per section.
#[derive(Clone, Debug, Default)]
pub struct CaseStop {
    at: Option<Instant>,
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

    /// True once the stop instant has passed.
    pub fn passed(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
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
    }
}
