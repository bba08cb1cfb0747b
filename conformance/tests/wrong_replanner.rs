//! [CONF.CHECK.REPLANNING] [CONF.REPLAN.VECTOR] Deliberately wrong replanners (wrappers of the
//! optimized crate) are caught by the `replanning` section and the replanning vectors, each with
//! the right first difference.

use onepath_conformance::checks::replanning;
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
};
use onepath_conformance::replan::{ReplanReply, ReplanRequest, ReplanStep};
use onepath_conformance::{
    Case, Config, Implementation, OptimizedCrate, Outcome, ReferenceCrate, RunOptions, Section,
    Variant,
};

/// How the wrapper goes wrong.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    /// Swaps recorded expansions 1 and 2 of every replan step (when they differ).
    SwapExpansions,
    /// Adds one ulp to every finite cost.
    PerturbCost,
    /// Runs every budgeted replan unbudgeted (a port that ignores the budget).
    IgnoreBudget,
    /// Treats a rollback as doing nothing (a port that cannot restore).
    IgnoreRollback,
}

struct Wrong(Fault);

impl Wrong {
    fn request(&self, r: &ReplanRequest) -> ReplanRequest {
        let mut r = r.clone();
        for s in &mut r.script {
            match (self.0, &s) {
                (
                    Fault::IgnoreBudget,
                    ReplanStep::Replan { .. } | ReplanStep::ReplanUntilDone { .. },
                ) => *s = ReplanStep::Replan { budget: 0 },
                // A save that is never used and a rollback that does nothing.
                (Fault::IgnoreRollback, ReplanStep::Rollback {}) => {
                    *s = ReplanStep::InvalidateAll {}
                }
                _ => {}
            }
        }
        r
    }
}

impl Implementation for Wrong {
    fn name(&self) -> &str {
        "wrong"
    }
    fn run_case(
        &self,
        c: &Case,
        v: &[Variant],
        q: &[(u32, u32)],
        o: RunOptions,
    ) -> Vec<Vec<Outcome>> {
        OptimizedCrate.run_case(c, v, q, o)
    }
    fn run_sliced(&self, c: &Case, v: Variant, q: (u32, u32), b: &[u64]) -> Outcome {
        OptimizedCrate.run_sliced(c, v, q, b)
    }
    fn build_links(&self, r: &LinkRequest) -> Result<LinkResult, BuildFailure> {
        OptimizedCrate.build_links(r)
    }
    fn run_hooked(&self, c: &Case, q: &HookedQuery) -> HookedRun {
        OptimizedCrate.run_hooked(c, q)
    }
    fn run_cancelled(
        &self,
        c: &Case,
        v: Variant,
        q: (u32, u32),
        f: u64,
    ) -> Result<CancelTrace, onepath_conformance::error::CallError> {
        OptimizedCrate.run_cancelled(c, v, q, f)
    }
    fn run_ops(&self, ops: &[GraphOp]) -> Vec<Result<u64, BuildFailure>> {
        OptimizedCrate.run_ops(ops)
    }
    fn build_landmarks(&self, c: &Case) -> Result<Vec<u8>, onepath_conformance::error::CallError> {
        OptimizedCrate.build_landmarks(c)
    }
    fn lower_bounds(
        &self,
        c: &Case,
        p: &[(u32, u32)],
    ) -> Result<Vec<f64>, onepath_conformance::error::CallError> {
        OptimizedCrate.lower_bounds(c, p)
    }
    fn deserialize_oplm(&self, c: &Case, b: &[u8]) -> Result<Vec<u8>, OplmError> {
        OptimizedCrate.deserialize_oplm(c, b)
    }
    fn run_replan(
        &self,
        r: &ReplanRequest,
    ) -> Result<ReplanReply, onepath_conformance::error::HarnessError> {
        let mut reply = OptimizedCrate.run_replan(&self.request(r))?;
        if let ReplanReply::Ran { steps, .. } = &mut reply {
            for s in steps.iter_mut() {
                match self.0 {
                    Fault::SwapExpansions
                        if s.status.is_some()
                            && s.expansions.len() > 2
                            && s.expansions[1] != s.expansions[2] =>
                    {
                        s.expansions.swap(1, 2)
                    }
                    Fault::PerturbCost if s.cost.0.is_finite() => {
                        s.cost.0 = f64::from_bits(s.cost.0.to_bits() + 1)
                    }
                    _ => {}
                }
            }
        }
        Ok(reply)
    }
}

fn section(fault: Fault) -> Section {
    let config = Config {
        replan_cases: 6,
        flow_cases: 6,
        vectors_dir: None,
        ..Config::ci(23)
    };
    replanning::run(&[&ReferenceCrate, &Wrong(fault)], &config, None)
}

fn whats(s: &Section) -> Vec<(String, String)> {
    s.failures
        .iter()
        .map(|f| (f.what.clone(), f.found.clone()))
        .collect()
}

#[test]
fn the_clean_crates_pass_the_section() {
    let config = Config {
        replan_cases: 6,
        flow_cases: 6,
        vectors_dir: None,
        ..Config::ci(23)
    };
    let s = replanning::run(&[&ReferenceCrate, &OptimizedCrate], &config, None);
    assert_eq!(s.failed, 0, "{:?}", s.failures.first());
    assert!(s.passed > 6);
}

// pins [CONF.REPLAN.REPLY]: a reply compare that skips expansions, or names no step and field, lets
// the swapped expansions pass or fails under another name
#[test]
fn swapped_expansions_are_named_at_their_step_and_position() {
    let s = section(Fault::SwapExpansions);
    assert!(s.failed > 0);
    let f = &s.failures[0];
    assert_eq!(f.what, "replan reply", "{:?}", whats(&s));
    assert!(
        f.found.contains(": expansions differ at position 1"),
        "{}",
        f.found
    );
}

#[test]
fn a_perturbed_cost_is_named_with_its_bits() {
    let s = section(Fault::PerturbCost);
    let f = &s.failures[0];
    assert_eq!(f.what, "replan reply");
    assert!(
        f.found.contains("cost is") && f.found.contains("bits"),
        "{}",
        f.found
    );
}

#[test]
fn an_ignored_budget_is_caught_at_the_first_budgeted_replan() {
    let s = section(Fault::IgnoreBudget);
    assert!(s.failed > 0);
    assert!(
        s.failures
            .iter()
            .any(|f| f.what == "replan reply" && f.found.contains("status is 2, expected 1")),
        "{:?}",
        whats(&s)
    );
}

// pins [CONF.CHECK.REPLANNING]: a replanning section without the P, save, S, rollback, S snapshot
// check lets a replanner that cannot restore pass, and this test fails
#[test]
fn an_ignored_rollback_is_caught_by_the_rollback_check() {
    let s = section(Fault::IgnoreRollback);
    assert!(
        s.failures
            .iter()
            .any(|f| f.what == "rollback" && f.found.contains("after the rollback differs")),
        "{:?}",
        whats(&s)
    );
}
