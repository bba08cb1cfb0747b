//! `certify --port --fail-fast` ([DRIVER.CLI.FAIL_FAST]): the run stops at its first difference
//! or unanswered request that already fails the verdict, one of a claimed family that puts the
//! family below its claim ([DRIVER.LEVEL.FAMILY], [DRIVER.LEVEL.UNANSWERED]). Every later request
//! is answered `not run` and no new generated case starts, so a wrong port (a mutant of the
//! port-mutation judge, [CONF.PMUT.RUN]) is judged in seconds while its verdict is the one the
//! whole run would give. Never armed together with `--expect`: an expectation could excuse the
//! failure that stopped the run.

use crate::case_stop::CaseStop;
use crate::levels::Level;
use std::collections::BTreeMap;

/// The claims a `--fail-fast` run judges, and the case stop it halts.
#[derive(Debug)]
pub struct FailFast {
    claims: BTreeMap<String, Level>,
    stop: CaseStop,
}

impl FailFast {
    /// Armed for the port's claims (family name to claimed level) and the run's case stop.
    pub fn new(claims: BTreeMap<String, Level>, stop: CaseStop) -> FailFast {
        FailFast { claims, stop }
    }

    /// True when a failure of `family` whose lowest broken level is `broken` puts that family
    /// below its claim: the family is claimed and the level below `broken` is under the claim.
    pub fn fails_verdict(&self, family: &str, broken: Level) -> bool {
        self.claims
            .get(family)
            .is_some_and(|&claimed| broken.below() < claimed)
    }

    /// Stops new generated cases.
    pub fn halt_cases(&self) {
        self.stop.halt();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_failure_below_a_claim_fails_the_verdict() {
        let claims = BTreeMap::from([("graph".to_string(), Level::L4), ("hpa".into(), Level::L2)]);
        let ff = FailFast::new(claims, CaseStop::never());
        // A byte difference (breaks L4) fails an L4 claim, not an L2 one.
        assert!(ff.fails_verdict("graph", Level::L4));
        assert!(!ff.fails_verdict("hpa", Level::L4));
        assert!(!ff.fails_verdict("hpa", Level::L3));
        // A path difference (breaks L2) fails an L2 claim.
        assert!(ff.fails_verdict("hpa", Level::L2));
        // An unclaimed family never stops the run.
        assert!(!ff.fails_verdict("grids", Level::L1));
    }
}
