//! [CONF.CHECK.FLOW_FIELD] [CONF.FLOW.VECTOR] Deliberately wrong flow fields (wrappers of the
//! optimized crate) are caught by the `flow-field` section, each with the right first difference.

use onepath_conformance::checks::flow_field;
use onepath_conformance::flow::{FlowReply, FlowRequest, FlowStep};
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
};
use onepath_conformance::{
    Case, Config, Implementation, OptimizedCrate, Outcome, ReferenceCrate, RunOptions, Section,
    Variant,
};

/// How the wrapper goes wrong.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    /// Adds one ulp to the last finite cost of the final field.
    PerturbCost,
    /// Runs every budgeted step unbudgeted (a port that ignores the budget).
    IgnoreBudget,
    /// Treats a rollback as an edit outside the grid (a port that cannot restore).
    IgnoreRollback,
    /// Applies the first cell edit of a script with another area (a port that misreads an
    /// edit): the field differs from the next completed step on.
    MisreadEdit,
    /// Reports the first probe's path reversed.
    ReversePath,
}

struct Wrong(Fault);

impl Wrong {
    fn request(&self, r: &FlowRequest) -> FlowRequest {
        let mut r = r.clone();
        let w = r.grid.map.width;
        let mut misread = self.0 == Fault::MisreadEdit;
        for s in &mut r.script {
            match (self.0, &s) {
                (Fault::IgnoreBudget, FlowStep::Step { .. } | FlowStep::StepUntilDone { .. }) => {
                    *s = FlowStep::Step { budget: 0 }
                }
                (Fault::IgnoreRollback, FlowStep::Rollback {}) => {
                    *s = FlowStep::SetCell {
                        x: w,
                        y: 0,
                        area: 0,
                    }
                }
                (Fault::MisreadEdit, FlowStep::SetCell { x, y, area }) if misread && *x < w => {
                    let area = if *area == 255 { 2 } else { 255 };
                    *s = FlowStep::SetCell { x: *x, y: *y, area };
                    misread = false;
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
    fn run_flow(
        &self,
        r: &FlowRequest,
    ) -> Result<FlowReply, onepath_conformance::error::HarnessError> {
        let mut reply = OptimizedCrate.run_flow(&self.request(r))?;
        if let FlowReply::Ran { costs, paths, .. } = &mut reply {
            match self.0 {
                Fault::PerturbCost => {
                    if let Some(c) = costs.iter_mut().rev().find(|c| c.0.is_finite()) {
                        c.0 = f64::from_bits(c.0.to_bits() + 1);
                    }
                }
                Fault::ReversePath => {
                    if let Some(p) = paths.iter_mut().find(|p| p.path.len() > 1) {
                        p.path.reverse();
                    }
                }
                _ => {}
            }
        }
        Ok(reply)
    }
}

fn config() -> Config {
    Config {
        flow_cases: 6,
        vectors_dir: None,
        ..Config::ci(29)
    }
}

fn section(fault: Fault) -> Section {
    flow_field::run(&[&ReferenceCrate, &Wrong(fault)], &config(), None)
}

fn whats(s: &Section) -> Vec<(String, String)> {
    s.failures
        .iter()
        .map(|f| (f.what.clone(), f.found.clone()))
        .collect()
}

#[test]
fn the_clean_crates_pass_the_section() {
    let s = flow_field::run(&[&ReferenceCrate, &OptimizedCrate], &config(), None);
    assert_eq!(s.failed, 0, "{:?}", s.failures.first());
    assert!(s.passed > 6);
}

#[test]
fn a_perturbed_cost_is_named_with_its_cell_and_bits() {
    let s = section(Fault::PerturbCost);
    let f = &s.failures[0];
    assert_eq!(f.what, "flow reply", "{:?}", whats(&s));
    assert!(
        f.found.contains("final field: cell") && f.found.contains("bits"),
        "{}",
        f.found
    );
}

#[test]
fn an_ignored_budget_is_caught_at_the_first_budgeted_step() {
    let s = section(Fault::IgnoreBudget);
    assert!(
        s.failures
            .iter()
            .any(|f| f.what == "flow reply" && f.found.contains("returned is 2, expected 1")),
        "{:?}",
        whats(&s)
    );
}

#[test]
fn an_ignored_rollback_is_caught_by_the_rollback_check() {
    let s = section(Fault::IgnoreRollback);
    assert!(
        s.failures.iter().any(|f| f.what == "rollback"),
        "{:?}",
        whats(&s)
    );
}

// pins [CONF.CHECK.FLOW_FIELD]: a flow-field section that does not cut the script after the
// differing step and name the first differing cell fails this localisation assertion
// pins [CONF.FLOW.REPLY]: a reply compare that skips the field hash, names no step or cell, or
// compares final costs other than by bits lets the misread edit pass or names it otherwise
#[test]
fn a_misread_edit_is_localised_to_the_first_differing_cell() {
    let s = section(Fault::MisreadEdit);
    assert!(
        s.failures.iter().any(|f| f.what == "flow reply"
            && f.found.contains("field_sha256 is")
            && f.found.contains("; after step")
            && f.found.contains(": cell ")),
        "{:?}",
        whats(&s)
    );
}

#[test]
fn a_reversed_path_is_named_with_its_probe() {
    let s = section(Fault::ReversePath);
    assert!(
        s.failures
            .iter()
            .any(|f| f.what == "flow reply" && f.found.contains("path from")),
        "{:?}",
        whats(&s)
    );
}
