//! Deliberately wrong implementations (adapter wrappers) are caught by the differential and
//! vectors checks with the right first differing field.

use onepath_conformance::checks::{cancel, default_threads, errors, generated, hooks, Config};
use onepath_conformance::family::vectors_section as certify_section;
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
    SearchCode,
};
use onepath_conformance::{
    Case, Implementation, OptimizedCrate, Outcome, ReferenceCrate, RunOptions, Variant,
};

/// How the wrapper corrupts results.
#[derive(Clone, Copy)]
enum Fault {
    /// Swap recorded expansions 3 and 4 (when they differ).
    SwapExpansions,
    /// Add one ulp to every finite cost.
    PerturbCost,
    /// Swap recorded hook calls 2 and 3 (when they differ).
    SwapHookCalls,
    /// Drop recorded hook call 4.
    DropHookCall,
    /// Report build errors without their index.
    DropIndex,
    /// Ignore a set cancel flag (run to the end).
    IgnoreCancel,
    /// Read a `nearest_count` above `2^31 - 1` as a signed 32-bit port does (negative) and treat
    /// the negative count as 0, nearest mode off (against [GRAPH.VAL.PORT_INTS]).
    NegativeNearestOff,
    /// Drop the current landmark table when `build_landmarks` fails (against
    /// [CONF.IMPL.OPS_TABLE]).
    DropTableOnFailedBuild,
    /// Answer a geo variant on an edges graph without positions with an error outcome (against
    /// [CONF.VAR.NOT_APPLICABLE]).
    NotApplicableAsError,
}

struct Wrong(Fault);

impl Wrong {
    fn corrupt(&self, o: &mut Outcome) {
        if let Outcome::Path(p) = o {
            match self.0 {
                Fault::SwapExpansions if p.expanded.len() > 4 && p.expanded[3] != p.expanded[4] => {
                    p.expanded.swap(3, 4)
                }
                Fault::PerturbCost if p.cost.is_finite() => {
                    p.cost = f64::from_bits(p.cost.to_bits() + 1)
                }
                _ => {}
            }
        }
    }
}

impl Wrong {
    fn strip(&self, mut e: BuildFailure) -> BuildFailure {
        if let Fault::DropIndex = self.0 {
            e.index = None;
        }
        e
    }
}

impl Implementation for Wrong {
    fn name(&self) -> &str {
        "wrong"
    }
    fn run_case(
        &self,
        case: &Case,
        variants: &[Variant],
        queries: &[(u32, u32)],
        opts: RunOptions,
    ) -> Vec<Vec<Outcome>> {
        let mut r = OptimizedCrate.run_case(case, variants, queries, opts);
        r.iter_mut().flatten().for_each(|o| self.corrupt(o));
        if let Fault::NotApplicableAsError = self.0 {
            for (list, v) in r.iter_mut().zip(variants) {
                if !v.applies_to(&case.graph) {
                    list.fill(Outcome::Error("harness: variant not applicable".into()));
                }
            }
        }
        r
    }
    fn run_sliced(
        &self,
        case: &Case,
        variant: Variant,
        query: (u32, u32),
        budgets: &[u64],
    ) -> Outcome {
        OptimizedCrate.run_sliced(case, variant, query, budgets)
    }
    fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, BuildFailure> {
        OptimizedCrate
            .build_links(request)
            .map_err(|e| self.strip(e))
    }
    fn run_hooked(&self, case: &Case, query: &HookedQuery) -> HookedRun {
        let mut r = OptimizedCrate.run_hooked(case, query);
        match self.0 {
            Fault::SwapHookCalls if r.calls.len() > 3 && r.calls[2] != r.calls[3] => {
                r.calls.swap(2, 3)
            }
            Fault::DropHookCall if r.calls.len() > 4 => {
                r.calls.remove(4);
            }
            _ => {}
        }
        r
    }
    fn run_cancelled(
        &self,
        case: &Case,
        variant: Variant,
        query: (u32, u32),
        first_steps: u64,
    ) -> Result<CancelTrace, onepath_conformance::error::CallError> {
        let mut t = OptimizedCrate.run_cancelled(case, variant, query, first_steps)?;
        if let (Fault::IgnoreCancel, Outcome::Path(p)) = (self.0, &t.resumed) {
            let done = if p.status == onepath_conformance::outcome::StatusCode::Found {
                SearchCode::Found
            } else {
                SearchCode::NotFound
            };
            t.cancelled = (done, p.iterations);
            t.cancelled_again = t.cancelled;
        }
        Ok(t)
    }
    fn run_ops(&self, ops: &[GraphOp]) -> Vec<Result<u64, BuildFailure>> {
        let ops: Vec<GraphOp> = ops
            .iter()
            .map(|o| match (self.0, o) {
                (
                    Fault::NegativeNearestOff,
                    GraphOp::Points {
                        points,
                        explicit,
                        max_distance,
                        nearest_count,
                    },
                ) if i32::try_from(*nearest_count).is_err() => GraphOp::Points {
                    points: points.clone(),
                    explicit: explicit.clone(),
                    max_distance: *max_distance,
                    nearest_count: 0,
                },
                _ => o.clone(),
            })
            .collect();
        let mut results: Vec<Result<u64, BuildFailure>> = OptimizedCrate
            .run_ops(&ops)
            .into_iter()
            .map(|r| r.map_err(|e| self.strip(e)))
            .collect();
        if let Fault::DropTableOnFailedBuild = self.0 {
            let mut dropped = false;
            for (o, r) in ops.iter().zip(results.iter_mut()) {
                match o {
                    GraphOp::BuildLandmarks(_) => dropped = r.is_err(),
                    GraphOp::FindPath {
                        landmarks: true, ..
                    } if dropped => {
                        *r = Err(BuildFailure::new(
                            "harness: no current landmark table",
                            None,
                        ))
                    }
                    _ => {}
                }
            }
        }
        results
    }
    fn build_landmarks(
        &self,
        case: &Case,
    ) -> Result<Vec<u8>, onepath_conformance::error::CallError> {
        OptimizedCrate.build_landmarks(case)
    }
    fn lower_bounds(
        &self,
        case: &Case,
        pairs: &[(u32, u32)],
    ) -> Result<Vec<f64>, onepath_conformance::error::CallError> {
        OptimizedCrate.lower_bounds(case, pairs)
    }
    fn deserialize_oplm(&self, case: &Case, bytes: &[u8]) -> Result<Vec<u8>, OplmError> {
        OptimizedCrate.deserialize_oplm(case, bytes)
    }
}

fn small() -> Config {
    Config {
        oracle_graphs: 60,
        landmark_graphs: 0,
        sliced_graphs: 0,
        link_sets: 0,
        hook_graphs: 40,
        cancel_graphs: 30,
        grid_cases: 0,
        replan_cases: 0,
        flow_cases: 0,
        movingai_buckets: 0,
        vectors_dir: None,
        threads: default_threads(),
        ..Config::ci(11)
    }
}

// pins [CONF.CHECK.DIFFERENTIAL]: a candidate whose recorded expansions 3 and 4 are swapped must
// fail the differential section at `expansion step 3`; a section that does not compare outcomes
// byte for byte passes it
#[test]
fn swapped_expansions_are_reported_at_the_first_differing_step() {
    let wrong = Wrong(Fault::SwapExpansions);
    let sections = generated::run(&ReferenceCrate, &[&wrong], &small(), None);
    let diff = &sections[1];
    assert_eq!(diff.name, "differential");
    assert!(diff.failed > 0);
    for f in &diff.failures {
        assert_eq!(f.implementation, "wrong");
        assert_eq!(f.what, "expansion step 3");
        assert_eq!(f.step, Some(3));
        assert_ne!(f.expected, f.found);
        assert!(f.expected.starts_with("node ") && f.found.starts_with("node "));
        assert!(f.case.is_some() && f.variant.is_some() && f.query.is_some());
    }
    // The reference and optimized crates themselves agree on the same cases.
    let clean = generated::run(&ReferenceCrate, &[&OptimizedCrate], &small(), None);
    assert_eq!(clean[1].failed, 0, "{:?}", clean[1].failures.first());
}

#[test]
fn perturbed_costs_are_reported_as_cost_bits() {
    let wrong = Wrong(Fault::PerturbCost);
    let sections = generated::run(&ReferenceCrate, &[&wrong], &small(), None);
    let diff = &sections[1];
    assert!(diff.failed > 0);
    assert!(
        diff.failures.iter().all(|f| f.what == "cost bits"),
        "{:?}",
        diff.failures.first()
    );
}

// pins [CONF.CHECK.VECTORS]: a candidate with swapped expansions must fail a committed GRAPH-
// scenario at `expansion step 3`, named by vector id; a section that does not re-run the scenarios
// passes it
#[test]
fn vectors_section_names_the_vector() {
    let wrong = Wrong(Fault::SwapExpansions);
    let s = certify_section(
        &onepath_conformance::checks::default_vectors_dir(),
        &[&wrong],
    );
    // The wrapper has no grid searches: the grid vectors fail once, as an unimplemented API.
    let grid: Vec<_> = s
        .failures
        .iter()
        .filter(|f| !f.vector.as_deref().unwrap_or("").starts_with("GRAPH-"))
        .collect();
    assert_eq!(grid.len(), 1, "{grid:?}");
    assert_eq!(grid[0].what, "grid-search API");
    let f = s
        .failures
        .iter()
        .find(|f| f.vector.as_deref().unwrap_or("").starts_with("GRAPH-"))
        .expect("a graph vector failure");
    assert_eq!(f.what, "expansion step 3");
    let line = f.line();
    assert!(
        line.contains("/ wrong / ") && line.contains("query"),
        "{line}"
    );
}

fn hook_failures(fault: Fault) -> Vec<onepath_conformance::Failure> {
    let wrong = Wrong(fault);
    let s = hooks::run(&[&ReferenceCrate, &wrong], &small(), None);
    assert_eq!(s.name, "hooks");
    assert!(
        s.failed > 0,
        "the hooks section missed {:?}",
        s.failures.first()
    );
    // Only the comparison with the reference is asserted here; the same fault may also break a
    // spec property (e.g. edge_cost no longer right after its blocked call).
    s.failures
        .into_iter()
        .filter(|f| f.what.contains(" vs onepath-reference"))
        .collect()
}

// pins [CONF.IMPL.HOOK_LOG]: a run_hooked whose hook-call log is out of call order (calls 2 and 3
// swapped) fails the hooks section at 'hook call 2 vs onepath-reference'; both crates' logs agree
// pins [CONF.CHECK.HOOKS]: a candidate whose hook calls 2 and 3 are swapped must fail as `hook call
// 2 vs onepath-reference`; a hooks section that does not compare the call logs passes it
#[test]
fn swapped_hook_calls_are_reported_at_the_first_differing_call() {
    let diffs = hook_failures(Fault::SwapHookCalls);
    assert!(!diffs.is_empty());
    for f in &diffs {
        assert_eq!(f.implementation, "wrong");
        assert_eq!(f.what, "hook call 2 vs onepath-reference", "{f:?}");
        assert_ne!(f.expected, f.found);
        assert!(f.case.is_some() && f.variant.is_some() && f.query.is_some());
    }
    // The two crates themselves agree (and obey the hook properties) on the same cases.
    let clean = hooks::run(&[&ReferenceCrate, &OptimizedCrate], &small(), None);
    assert!(clean.checks > 0);
    assert_eq!(clean.failed, 0, "{:?}", clean.failures.first());
}

#[test]
fn a_dropped_hook_call_is_named() {
    let diffs = hook_failures(Fault::DropHookCall);
    assert!(!diffs.is_empty());
    for f in &diffs {
        assert_eq!(f.what, "hook call 4 vs onepath-reference", "{f:?}");
        assert_ne!(f.expected, f.found);
    }
}

// pins [CONF.IMPL.CANCEL]: a run_cancelled whose run(Some(flag)) with the flag set reports the
// finished status instead of Running is caught by the cancel section; both crates pass it
// pins [CONF.CHECK.CANCEL]: a candidate whose cancelled run ignores the set flag must fail as
// run(Some(flag set)) expecting Running; a cancel section without the trace checks passes it
#[test]
fn ignoring_the_cancel_flag_is_caught() {
    let wrong = Wrong(Fault::IgnoreCancel);
    let s = cancel::run(&[&ReferenceCrate, &wrong], &small(), None);
    assert!(s.failed > 0);
    assert!(
        s.failures
            .iter()
            .any(|f| f.what.contains("run(Some(flag set)) [GRAPH.ASTAR.RUN]")
                && f.expected.starts_with("1 (running) after ")),
        "{:?}",
        s.failures.first()
    );
    let clean = cancel::run(&[&ReferenceCrate, &OptimizedCrate], &small(), None);
    assert!(clean.checks > 0);
    assert_eq!(clean.failed, 0, "{:?}", clean.failures.first());
}

// pins [CONF.IMPL.BUILD_FAILURE]: a wrapper that drops BuildFailure's index is caught by the errors
// section (expected 'endpoint_out_of_range (index 2)', found no index), while both crates pass
// pins [CONF.IMPL.OPS]: the errors section's fixed [CONF.IMPL.OPS] scripts (op values, no current
// graph or point graph after a failed constructor) must pass for both crates' run_ops; any other
// answer fails
// pins [CONF.CHECK.ERRORS]: a build error reported without its index must fail the errors scripts
// (expected endpoint_out_of_range (index 2)); scripts that compare classes only pass it
#[test]
fn a_missing_error_index_is_caught() {
    let wrong = Wrong(Fault::DropIndex);
    let s = errors::run(&[&wrong]);
    assert!(s.failed > 0);
    let f = s
        .failures
        .iter()
        .find(|f| f.expected == "endpoint_out_of_range (index 2)")
        .expect("endpoint failure");
    assert_eq!(f.found, "endpoint_out_of_range (no index)");
    assert!(errors::run(&[&ReferenceCrate, &OptimizedCrate]).failed == 0);
}

#[test]
fn a_negative_nearest_count_taken_as_off_is_caught() {
    let wrong = Wrong(Fault::NegativeNearestOff);
    let s = errors::run(&[&wrong]);
    let failures: Vec<_> = s
        .failures
        .iter()
        .filter(|f| {
            f.case
                .as_deref()
                .unwrap_or("")
                .contains("[GRAPH.VAL.PORT_INTS]")
        })
        .collect();
    // With a `max_distance` set, nearest mode off is radius mode, which links the same pairs as
    // every candidate within the radius ([GRAPH.PT.BOTH]): only the uncapped count tells.
    assert_eq!(failures.len(), 1, "{:?}", s.failures);
    assert_eq!(
        (failures[0].expected.as_str(), failures[0].found.as_str()),
        ("value 12", "value 0")
    );
    assert_eq!(s.failed, 1, "{:?}", s.failures);
}

// pins [CONF.IMPL.OPS_TABLE]: a run_ops that drops the current landmark table when build_landmarks
// fails is caught at operation 3 of the [CONF.IMPL.OPS_TABLE] script (expected cost 3.0)
#[test]
fn a_landmark_table_dropped_by_a_failed_build_is_caught() {
    let wrong = Wrong(Fault::DropTableOnFailedBuild);
    let s = errors::run(&[&wrong]);
    assert!(s.failed > 0);
    assert!(
        s.failures.iter().all(|f| f
            .case
            .as_deref()
            .unwrap_or("")
            .starts_with("[CONF.IMPL.OPS_TABLE]")),
        "{:?}",
        s.failures
    );
    let f = &s.failures[0];
    assert_eq!(
        f.what, "operation 3: find_path(0, 2, landmarks true)",
        "{f:?}"
    );
    assert_eq!(f.expected, "cost 3.0", "{f:?}");
    assert_eq!(f.found, "harness: no current landmark table (no index)");
}

// pins [CONF.VAR.NOT_APPLICABLE]: a run_case that answers a geo variant of an edges graph without
// positions with an error, not as its variant without geo, fails the oracle section with 'not
// applicable, [CONF.VAR.NOT_APPLICABLE]'
#[test]
fn an_error_for_a_variant_that_does_not_apply_is_caught() {
    let wrong = Wrong(Fault::NotApplicableAsError);
    let sections = generated::run(&ReferenceCrate, &[&wrong], &small(), None);
    let oracle = &sections[0];
    assert_eq!(oracle.name, "oracle");
    assert!(oracle.failed > 0);
    for f in &oracle.failures {
        assert_eq!(f.implementation, "wrong");
        assert!(
            f.what
                .starts_with("not applicable, [CONF.VAR.NOT_APPLICABLE]: "),
            "{f:?}"
        );
        assert!(
            f.variant.as_deref().unwrap_or("").contains("_geo")
                || f.variant.as_deref().unwrap_or("").contains("_both")
        );
    }
    assert!(sections[1].failed > 0, "the differential missed it too");
    // Both crates answer a variant that does not apply as its variant without geo.
    let clean = generated::run(&ReferenceCrate, &[&OptimizedCrate], &small(), None);
    assert_eq!(clean[0].failed, 0, "{:?}", clean[0].failures.first());
    assert_eq!(clean[1].failed, 0, "{:?}", clean[1].failures.first());
}
