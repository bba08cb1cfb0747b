//! [CONF.CHECK.BIDI] [CONF.BIDI.ORACLE] [DRIVER.LEVEL.FAMILY] Deliberately wrong bidirectional
//! grid searches (wrappers of the optimized crate) are caught by the `grid-bidi` section, each
//! with the right first difference; the oracle catches a wrong reply of record; and a wrong
//! meeting cell breaks L2.

use onepath_conformance::bidi::{oracle, BidiReply, BidiRequest};
use onepath_conformance::checks::bidi;
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
};
use onepath_conformance::lattice::QueryReply;
use onepath_conformance::levels::{bidi_break, Level};
use onepath_conformance::{
    Case, Config, Implementation, OptimizedCrate, Outcome, ReferenceCrate, RunOptions, Section,
    Variant,
};

/// How the wrapper goes wrong.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    /// Adds one ulp to the cost of the first found query.
    PerturbCost,
    /// Swaps the first two recorded expansions of the first query that has two.
    SwapExpansions,
    /// Reports the start as the meeting cell of every sliced found query.
    MeetsAtTheStart,
    /// Drops the last recorded expansion of every sliced query.
    SlicedLosesAPop,
}

struct Wrong(Fault);

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
    fn run_bidi(
        &self,
        r: &BidiRequest,
    ) -> Result<BidiReply, onepath_conformance::error::HarnessError> {
        let mut reply = OptimizedCrate.run_bidi(r)?;
        let BidiReply::Ran(ran) = &mut reply else {
            return Ok(reply);
        };
        let mut done = false;
        for (i, (q, a)) in r.queries.iter().zip(ran.queries.iter_mut()).enumerate() {
            let QueryReply::Path(p) = a else { continue };
            match self.0 {
                Fault::PerturbCost if !done && p.cost.0.is_finite() => {
                    p.cost.0 = f64::from_bits(p.cost.0.to_bits() + 1);
                    done = true;
                }
                Fault::SwapExpansions
                    if !done && p.expanded.len() > 1 && p.expanded[0] != p.expanded[1] =>
                {
                    p.expanded.swap(0, 1);
                    done = true;
                }
                Fault::MeetsAtTheStart if p.status == 2 && p.cells.len() > 2 => {
                    if ran.meetings[i].is_some() {
                        ran.meetings[i] = p.cells.first().copied();
                    }
                }
                Fault::SlicedLosesAPop if !q.schedule.is_empty() => {
                    p.expanded.pop();
                }
                _ => {}
            }
        }
        Ok(reply)
    }
}

fn config() -> Config {
    Config {
        grid_cases: 16,
        vectors_dir: None,
        ..Config::ci(43)
    }
}

fn section(fault: Fault) -> Section {
    bidi::run(&[&ReferenceCrate, &Wrong(fault)], &config(), None)
}

fn whats(s: &Section) -> Vec<(String, String)> {
    s.failures
        .iter()
        .map(|f| (f.what.clone(), f.found.clone()))
        .collect()
}

#[test]
fn the_clean_crates_pass_the_section() {
    let s = bidi::run(&[&ReferenceCrate, &OptimizedCrate], &config(), None);
    assert_eq!(s.failed, 0, "{:?}", s.failures.first());
    assert!(s.passed > 16, "{}", s.passed);
}

#[test]
fn a_perturbed_cost_is_named_with_its_query_and_bits() {
    let s = section(Fault::PerturbCost);
    let f = &s.failures[0];
    assert_eq!(f.what, "cost", "{:?}", whats(&s));
    assert!(f.query.is_some(), "{f:?}");
    assert!(f.found.contains('('), "the bits are shown: {}", f.found);
}

#[test]
fn swapped_expansions_are_named_at_entry_0() {
    let s = section(Fault::SwapExpansions);
    assert_eq!(s.failures[0].what, "expanded entry 0", "{:?}", whats(&s));
}

// pins [CONF.BIDI.REPLY]: a comparison that skips the meetings after the queries, or does not name
// the query of a differing meeting cell, lets a wrong meeting cell pass or misnames it
#[test]
fn a_wrong_meeting_cell_is_named_with_its_query() {
    let s = section(Fault::MeetsAtTheStart);
    let f = &s.failures[0];
    assert_eq!(f.what, "meeting", "{:?}", whats(&s));
    assert!(f.query.is_some(), "{f:?}");
}

// pins [CONF.CHECK.BIDI]: a grid-bidi section without the sliced check of [CONF.CHECK.LATTICE] on
// tier-1 queries lets a sliced search that loses a pop pass, and this test fails
#[test]
fn a_sliced_form_that_loses_a_pop_is_caught_by_the_sliced_check() {
    let s = section(Fault::SlicedLosesAPop);
    assert!(
        s.failures.iter().any(|f| f.what == "sliced queries"
            && f.case.as_deref().is_some_and(|c| c.ends_with("/sliced"))),
        "{:?}",
        whats(&s)
    );
}

// pins [CONF.BIDI.ORACLE]: an oracle that does not hold a found cost to Dijkstra's (exact or within
// its bound), or does not require a sliced meeting cell on the path, passes a cost 1e-9 off or a
// meeting off the path
#[test]
fn the_oracle_catches_a_cost_off_the_optimum_and_a_meeting_off_the_path() {
    let (mut costs, mut meetings) = (0, 0);
    for i in 0..16 {
        let r = bidi::case_request(&config(), i);
        let reply = ReferenceCrate.run_bidi(&r).unwrap();
        assert_eq!(oracle::check(&r, &reply), None, "case {i}");
        let BidiReply::Ran(ran) = &reply else {
            continue;
        };
        for (j, a) in ran.queries.iter().enumerate() {
            let QueryReply::Path(p) = a else { continue };
            if p.status != 2 || p.cells.len() < 2 {
                continue;
            }
            let mut bad = reply.clone();
            let BidiReply::Ran(b) = &mut bad else {
                unreachable!()
            };
            let QueryReply::Path(q) = &mut b.queries[j] else {
                unreachable!()
            };
            q.cost.0 *= 1.0 + 1e-9;
            let problem = oracle::check(&r, &bad).expect("caught");
            assert!(problem.contains("[GBIDI.COST"), "{problem}");
            costs += 1;
            if ran.meetings[j].is_some() {
                let mut bad = reply.clone();
                let BidiReply::Ran(b) = &mut bad else {
                    unreachable!()
                };
                b.meetings[j] = Some(u32::MAX);
                let problem = oracle::check(&r, &bad).expect("caught");
                assert!(problem.contains("[GBIDI.MEETING_CELL]"), "{problem}");
                meetings += 1;
            }
            break;
        }
    }
    assert!(costs >= 6 && meetings >= 2, "{costs} {meetings}");
}

#[test]
fn a_wrong_meeting_cell_breaks_l2() {
    let r = bidi::case_request(&config(), 0);
    let reply = (0..16)
        .map(|i| {
            ReferenceCrate
                .run_bidi(&bidi::case_request(&config(), i))
                .unwrap()
        })
        .find(|a| matches!(a, BidiReply::Ran(ran) if ran.meetings.iter().any(Option::is_some)))
        .expect("a case with a meeting cell");
    let _ = r;
    let mut bad = reply.clone();
    let BidiReply::Ran(b) = &mut bad else {
        unreachable!()
    };
    let m = b.meetings.iter_mut().find(|m| m.is_some()).unwrap();
    *m = Some(u32::MAX);
    let level = bidi_break(&Ok(reply.clone()), &Ok(bad)).map(|b| b.level);
    assert_eq!(level, Some(Level::L2));
    assert_eq!(bidi_break(&Ok(reply.clone()), &Ok(reply)), None);
}
