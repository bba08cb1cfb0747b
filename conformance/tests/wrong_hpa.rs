//! [CONF.CHECK.HPA] [CONF.HPA.ORACLE] [DRIVER.LEVEL.FAMILY] Deliberately wrong HPA* searches
//! (wrappers of the optimized crate) are caught by the `hpa` section, each with the right first
//! difference; the oracle catches a wrong reply of record; and a difference breaks the level
//! its field belongs to.

use onepath_conformance::checks::hpa;
use onepath_conformance::hpa::{oracle, HpaQueryReply, HpaReply, HpaRequest};
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
};
use onepath_conformance::levels::{hpa_break, Level};
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
    /// Drops the last rebuilt chunk of the first sliced query that lists one.
    ForgetsARebuiltChunk,
    /// Adds one ulp to the cost of the hierarchy's first edge.
    PerturbEdgeCost,
    /// Drops the last recorded expansion of every sliced query (a port whose sliced form loses
    /// a pop): only the sliced check sees it on queries the generator left tier 1.
    SlicedLosesAPop,
    /// Drops the last edge of a hierarchy built new for the rebuild check's one query (a port
    /// whose refreshed hierarchy differs from a new one).
    NewHierarchyDiffers,
}

struct Wrong(Fault);

/// Whether `r` is the rebuild check's request: one sliced query from (0, 0) to (0, 0).
fn is_rebuild(r: &HpaRequest) -> bool {
    r.queries.len() == 1
        && r.queries[0].edits.is_empty()
        && r.queries[0].start == [0, 0]
        && r.queries[0].goal == [0, 0]
        && r.queries[0].schedule == [1]
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
    fn run_hpa(
        &self,
        r: &HpaRequest,
    ) -> Result<HpaReply, onepath_conformance::error::HarnessError> {
        let mut reply = OptimizedCrate.run_hpa(r)?;
        let HpaReply::Ran(ran) = &mut reply else {
            return Ok(reply);
        };
        match self.0 {
            Fault::PerturbEdgeCost => {
                if let Some(e) = ran.hierarchy.as_mut().and_then(|h| h.edges.first_mut()) {
                    e.cost.0 = f64::from_bits(e.cost.0.to_bits() + 1);
                }
                return Ok(reply);
            }
            Fault::NewHierarchyDiffers => {
                if is_rebuild(r) {
                    if let Some(h) = ran.hierarchy.as_mut() {
                        h.edges.pop();
                    }
                }
                return Ok(reply);
            }
            _ => {}
        }
        let mut done = false;
        for (q, a) in r.queries.iter().zip(ran.queries.iter_mut()) {
            let HpaQueryReply::Path(p) = a else { continue };
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
                Fault::ForgetsARebuiltChunk if !done && !p.rebuilt.is_empty() => {
                    p.rebuilt.pop();
                    done = true;
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
        ..Config::ci(41)
    }
}

fn section(fault: Fault) -> Section {
    hpa::run(&[&ReferenceCrate, &Wrong(fault)], &config(), None)
}

fn whats(s: &Section) -> Vec<(String, String)> {
    s.failures
        .iter()
        .map(|f| (f.what.clone(), f.found.clone()))
        .collect()
}

#[test]
fn the_clean_crates_pass_the_section() {
    let s = hpa::run(&[&ReferenceCrate, &OptimizedCrate], &config(), None);
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

#[test]
fn a_forgotten_rebuilt_chunk_is_named_with_its_entry() {
    let s = section(Fault::ForgetsARebuiltChunk);
    let f = &s.failures[0];
    assert!(f.what.starts_with("rebuilt entry "), "{:?}", whats(&s));
    assert_eq!(f.found, "end of list", "{f:?}");
}

// pins [CONF.HPA.REPLY]: a comparison that skips the hierarchy after the queries, or does not name
// it, the edges entry and the edge's field, gives a first failure other than `hierarchy edges entry
// 0 cost`
#[test]
fn a_perturbed_edge_cost_is_named_in_the_hierarchy() {
    let s = section(Fault::PerturbEdgeCost);
    let f = &s.failures[0];
    assert_eq!(f.what, "hierarchy edges entry 0 cost", "{:?}", whats(&s));
    assert_eq!(f.query, None);
}

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

// pins [CONF.CHECK.HPA]: an hpa section without the rebuild check (a new hierarchy of the edited
// map equals the refreshed one) lets this wrapper pass, and the test fails
#[test]
fn a_new_hierarchy_unlike_the_refreshed_one_is_caught_by_the_rebuild_check() {
    let s = section(Fault::NewHierarchyDiffers);
    assert!(!s.failures.is_empty());
    for f in &s.failures {
        assert_eq!(f.what, "the refreshed hierarchy", "{:?}", whats(&s));
        assert!(
            f.case.as_deref().is_some_and(|c| c.ends_with("/rebuilt")),
            "{f:?}"
        );
        assert!(f.found.contains("hierarchy edges entry"), "{}", f.found);
    }
}

/// The reference's replies of the generated cases that have a built hierarchy and a found path.
fn replies() -> Vec<(HpaRequest, HpaReply)> {
    (0..16)
        .map(|i| {
            let r = hpa::case_request(&config(), i);
            let reply = ReferenceCrate.run_hpa(&r).unwrap();
            assert_eq!(oracle::check(&r, &reply), None, "case {i}");
            (r, reply)
        })
        .collect()
}

// pins [CONF.HPA.ORACLE]: an oracle that does not re-add a found path's or an intra edge's moves
// bit for bit, or does not recompute the entrance node set, passes a one-ulp cost, a wrong edge
// cost or a missing node
#[test]
fn the_oracle_catches_a_cost_that_is_not_its_path_a_missing_node_and_a_wrong_edge_cost() {
    let (mut costs, mut nodes, mut edges) = (0, 0, 0);
    for (r, reply) in replies() {
        let HpaReply::Ran(ran) = &reply else { continue };
        if let Some(i) = ran
            .queries
            .iter()
            .position(|a| matches!(a, HpaQueryReply::Path(p) if p.status == 2 && p.cells.len() > 1))
        {
            let mut bad = reply.clone();
            let HpaReply::Ran(b) = &mut bad else {
                unreachable!()
            };
            let HpaQueryReply::Path(p) = &mut b.queries[i] else {
                unreachable!()
            };
            p.cost.0 = f64::from_bits(p.cost.0.to_bits() + 1);
            let problem = oracle::check(&r, &bad).expect("caught");
            assert!(problem.contains("add up to"), "{problem}");
            costs += 1;
        }
        if ran.hierarchy.as_ref().is_some_and(|h| h.nodes.len() > 1) {
            let mut bad = reply.clone();
            let HpaReply::Ran(b) = &mut bad else {
                unreachable!()
            };
            b.hierarchy.as_mut().unwrap().nodes.pop();
            let problem = oracle::check(&r, &bad).expect("caught");
            assert!(problem.contains("[HPA.NODE.SET]"), "{problem}");
            nodes += 1;
            let mut bad = reply.clone();
            let HpaReply::Ran(b) = &mut bad else {
                unreachable!()
            };
            let e = &mut b.hierarchy.as_mut().unwrap().edges[0];
            e.cost.0 = f64::from_bits(e.cost.0.to_bits() + 1);
            let problem = oracle::check(&r, &bad).expect("caught");
            assert!(problem.contains("add up to"), "{problem}");
            edges += 1;
        }
    }
    assert!(
        costs >= 8 && nodes >= 8 && edges >= 8,
        "{costs} {nodes} {edges}"
    );
}

/// The first sliced found query of a reply with an abstract path of two or more ids.
fn sliced_found(a: &mut HpaReply) -> &mut onepath_conformance::hpa::HpaPathReply {
    let HpaReply::Ran(ran) = a else {
        unreachable!()
    };
    ran.queries
        .iter_mut()
        .find_map(|q| match q {
            HpaQueryReply::Path(p) if p.status == 2 && p.abstract_path.len() > 1 => Some(p),
            _ => None,
        })
        .unwrap()
}

#[test]
fn each_field_breaks_its_level() {
    let (r, reply) = replies()
        .into_iter()
        .find(|(_, a)| {
            matches!(a, HpaReply::Ran(ran) if ran.hierarchy.as_ref().is_some_and(|h| !h.edges.is_empty())
                && ran.queries.iter().any(|q| matches!(q, HpaQueryReply::Path(p) if p.status == 2 && p.abstract_path.len() > 1)))
        })
        .expect("a case with a sliced found query and edges");
    let _ = r;
    let mutate = |f: &dyn Fn(&mut HpaReply)| {
        let mut bad = reply.clone();
        f(&mut bad);
        hpa_break(&Ok(reply.clone()), &Ok(bad)).map(|b| b.level)
    };
    assert_eq!(mutate(&|a| sliced_found(a).cost.0 += 1.0), Some(Level::L1));
    assert_eq!(
        mutate(&|a| sliced_found(a).abstract_path.reverse()),
        Some(Level::L2)
    );
    assert_eq!(
        mutate(&|a| sliced_found(a).iterations += 1),
        Some(Level::L3)
    );
    assert_eq!(
        mutate(&|a| {
            let HpaReply::Ran(ran) = a else {
                unreachable!()
            };
            ran.hierarchy.as_mut().unwrap().edges[0].cost.0 += 1.0;
        }),
        Some(Level::L3)
    );
    assert_eq!(mutate(&|_| {}), None);
}
