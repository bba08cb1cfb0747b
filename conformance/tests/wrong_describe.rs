//! [CONF.CHECK.DESCRIBE] [CONF.DEBUG.COMPARE] [CONF.DEBUG.CONSISTENT] [CONF.DEBUG.LEVEL]
//! Deliberately wrong descriptions (wrappers of the optimized crate) are caught by the
//! `describe` section, each with the right first difference and level; a description that
//! disagrees with the wrapper's own family op is caught by the consistency check alone; and the
//! level of a difference is the one its member belongs to.

use onepath_conformance::checks::{default_vectors_dir, describe};
use onepath_conformance::debug::{
    DescribeEntry, DescribeReply, DescribeRequest, Description, ExpansionKind,
};
use onepath_conformance::error::{CallError, HarnessError};
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
};
use onepath_conformance::lattice::{LatticeReply, LatticeRequest, QueryReply};
use onepath_conformance::levels::{describe_break, Level};
use onepath_conformance::{
    Case, Config, Implementation, OptimizedCrate, Outcome, ReferenceCrate, RunOptions, Section,
    Variant,
};

/// How the wrapper goes wrong.
#[derive(Clone, Copy, PartialEq)]
enum Fault {
    /// Adds one ulp to the x of the first expanded point of every path description.
    ExpandedPointOff,
    /// Swaps settle and reset in every replanner description.
    KindsSwapped,
    /// Drops the last node point of every hierarchy description.
    NodePointLost,
    /// Describes correctly, but its `run_lattice` adds one ulp to every found hex cost (a
    /// description that is not the result the same implementation gives).
    LatticeCostOff,
    /// Adds one ulp to the y of every graph position.
    PositionOff,
    /// Swaps the first two differing expansions (and their points) of every path description.
    ExpansionsSwapped,
}

struct Wrong(Fault);

fn ulp(x: &mut f64) {
    *x = f64::from_bits(x.to_bits() + 1);
}

fn spoil(fault: Fault, d: &mut Description) {
    match (fault, d) {
        (Fault::ExpandedPointOff, Description::Path(p)) => {
            if let Some(q) = p.expanded_points.first_mut() {
                ulp(&mut q[0].0);
            }
        }
        (Fault::KindsSwapped, Description::Replan(r)) => {
            for k in &mut r.expanded_kinds {
                *k = match k {
                    ExpansionKind::Settle => ExpansionKind::Reset,
                    ExpansionKind::Reset => ExpansionKind::Settle,
                };
            }
        }
        (Fault::NodePointLost, Description::Hierarchy(h)) => {
            h.node_points.pop();
        }
        (Fault::ExpansionsSwapped, Description::Path(p)) => {
            if let Some(i) = (1..p.expanded.len()).find(|&i| p.expanded[i] != p.expanded[0]) {
                p.expanded.swap(0, i);
                p.expanded_points.swap(0, i);
            }
        }
        (Fault::PositionOff, Description::GraphPath(g)) => {
            for p in &mut g.positions {
                ulp(&mut p[1].0);
            }
        }
        _ => {}
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
    ) -> Result<CancelTrace, CallError> {
        OptimizedCrate.run_cancelled(c, v, q, f)
    }
    fn run_ops(&self, ops: &[GraphOp]) -> Vec<Result<u64, BuildFailure>> {
        OptimizedCrate.run_ops(ops)
    }
    fn build_landmarks(&self, c: &Case) -> Result<Vec<u8>, CallError> {
        OptimizedCrate.build_landmarks(c)
    }
    fn lower_bounds(&self, c: &Case, p: &[(u32, u32)]) -> Result<Vec<f64>, CallError> {
        OptimizedCrate.lower_bounds(c, p)
    }
    fn deserialize_oplm(&self, c: &Case, b: &[u8]) -> Result<Vec<u8>, OplmError> {
        OptimizedCrate.deserialize_oplm(c, b)
    }
    fn run_grid(
        &self,
        r: &onepath_conformance::grid::GridRequest,
    ) -> Result<onepath_conformance::grid::GridOutcome, HarnessError> {
        OptimizedCrate.run_grid(r)
    }
    fn run_replan(
        &self,
        r: &onepath_conformance::replan::ReplanRequest,
    ) -> Result<onepath_conformance::replan::ReplanReply, HarnessError> {
        OptimizedCrate.run_replan(r)
    }
    fn run_flow(
        &self,
        r: &onepath_conformance::flow::FlowRequest,
    ) -> Result<onepath_conformance::flow::FlowReply, HarnessError> {
        OptimizedCrate.run_flow(r)
    }
    fn run_hpa(
        &self,
        r: &onepath_conformance::hpa::HpaRequest,
    ) -> Result<onepath_conformance::hpa::HpaReply, HarnessError> {
        OptimizedCrate.run_hpa(r)
    }
    fn run_bidi(
        &self,
        r: &onepath_conformance::bidi::BidiRequest,
    ) -> Result<onepath_conformance::bidi::BidiReply, HarnessError> {
        OptimizedCrate.run_bidi(r)
    }
    fn run_lattice(&self, r: &LatticeRequest) -> Result<LatticeReply, HarnessError> {
        let mut reply = OptimizedCrate.run_lattice(r)?;
        if let (Fault::LatticeCostOff, LatticeRequest::Hex(_), LatticeReply::Ran(q)) =
            (self.0, r, &mut reply)
        {
            for p in q.iter_mut() {
                if let QueryReply::Path(p) = p {
                    if p.cost.0.is_finite() {
                        ulp(&mut p.cost.0);
                    }
                }
            }
        }
        Ok(reply)
    }
    fn describe(&self, r: &DescribeRequest) -> Result<DescribeReply, HarnessError> {
        let mut reply = OptimizedCrate.describe(r)?;
        if let DescribeReply::Ran(entries) = &mut reply {
            for e in entries {
                if let DescribeEntry::Described(d) = e {
                    spoil(self.0, d);
                }
            }
        }
        Ok(reply)
    }
}

fn config() -> Config {
    Config {
        grid_cases: 8,
        replan_cases: 3,
        flow_cases: 3,
        vectors_dir: Some(default_vectors_dir()),
        ..Config::ci(11)
    }
}

fn section(fault: Fault) -> Section {
    {
        let config = config();
        let (t, setup) = onepath_conformance::debug::targets::section_targets(&config);
        describe::run(&[&ReferenceCrate, &Wrong(fault)], &config, &t, setup, None)
    }
}

/// The first failure of the wrapper (the reference's own consistency checks pass).
fn first(s: &Section) -> String {
    assert!(
        s.failures.iter().all(|f| f.implementation == "wrong"),
        "{:?}",
        s.failures.first()
    );
    s.failures
        .first()
        .map(|f| f.what.clone())
        .expect("the fault is caught")
}

// pins [CONF.CHECK.DESCRIBE]: a describe section that does not compare descriptions with the
// reference's and check their consistency, in the `<target> describe (L<n>):` form, fails these
// assertions
// pins [CONF.DEBUG.COMPARE]: a comparison that does not walk entries and members in order, or does
// not name the entry, member and list index, gives another first failure than `query 0:
// expanded_points entry 0`
#[test]
fn an_expanded_point_one_ulp_off_is_named_with_its_entry_at_l3() {
    let s = section(Fault::ExpandedPointOff);
    let what = first(&s);
    assert!(
        what.starts_with("grid describe (L3): query 0: expanded_points entry 0: "),
        "{what}"
    );
    // The kit's own reading catches it too: the point is not the cell's centre.
    assert!(
        s.failures
            .iter()
            .any(|f| f.what.contains("description consistent (L2)")
                && f.what.contains("expanded_points entry 0: expected")),
        "{:?}",
        s.failures.iter().map(|f| &f.what).collect::<Vec<_>>()
    );
}

#[test]
fn swapped_settle_and_reset_are_named_in_the_replanner() {
    let what = first(&section(Fault::KindsSwapped));
    assert!(
        what.starts_with("replan describe (L3): replanner: expanded_kinds entry 0: "),
        "{what}"
    );
}

#[test]
fn a_lost_node_point_is_named_in_the_hierarchy_and_by_its_count() {
    let s = section(Fault::NodePointLost);
    let what = first(&s);
    assert!(
        what.starts_with("hpa describe (L2): hierarchy: node_points entry "),
        "{what}"
    );
    assert!(
        s.failures
            .iter()
            .any(|f| f.what.contains("hierarchy: node_points: ") && f.what.contains("points for")),
        "{:?}",
        s.failures.iter().map(|f| &f.what).collect::<Vec<_>>()
    );
}

// pins [CONF.DEBUG.CONSISTENT]: a consistency check that does not compare a path description with
// the same implementation's family op lets a description whose cost is not run_lattice's pass: no
// failure is raised
#[test]
fn a_description_that_is_not_the_family_result_is_caught_by_consistency_alone() {
    let s = section(Fault::LatticeCostOff);
    assert!(!s.failures.is_empty());
    for f in &s.failures {
        assert!(
            f.what
                .starts_with("hex description consistent (L2): query ")
                && f.what
                    .contains("the description is not the result the family op gave"),
            "{}",
            f.what
        );
    }
}

#[test]
fn a_position_one_ulp_off_is_named_in_the_graph_path() {
    let what = first(&section(Fault::PositionOff));
    assert!(
        what.starts_with("graph describe (L2): graph path: positions entry 0: "),
        "{what}"
    );
}

#[test]
fn a_difference_breaks_the_level_of_its_member() {
    let targets = onepath_conformance::debug::targets::generated_targets(&config());
    let t = targets
        .iter()
        .find(|t| matches!(t.request, DescribeRequest::Replan(_)))
        .expect("a replan target");
    let expected = ReferenceCrate.describe(&t.request);
    let level = |fault| {
        let found = Wrong(fault).describe(&t.request);
        describe_break(&t.request, &expected, &found).map(|b| b.level)
    };
    assert_eq!(level(Fault::KindsSwapped), Some(Level::L3));
    assert_eq!(
        level(Fault::ExpandedPointOff),
        None,
        "replanners have no path description"
    );
}

/// The first grid vector whose reference description records two different expansions.
fn grid_vector_with_expansions() -> String {
    let targets =
        onepath_conformance::debug::targets::vector_targets(&default_vectors_dir()).unwrap();
    targets
        .iter()
        .find(|t| {
            matches!(t.request, DescribeRequest::Grid(_))
                && matches!(ReferenceCrate.describe(&t.request), Ok(DescribeReply::Ran(e))
                    if matches!(e.first(), Some(DescribeEntry::Described(Description::Path(p)))
                        if p.expanded.len() > 1 && p.expanded[1] != p.expanded[0]))
        })
        .map(|t| t.label.clone())
        .expect("a grid vector that records expansions")
}

#[test]
fn explain_draws_both_sides_and_rings_the_first_differing_expansion() {
    use onepath_conformance::debug::explain::{explain, picture};
    let id = grid_vector_with_expansions();
    let e = explain(
        &default_vectors_dir(),
        &id,
        &Wrong(Fault::ExpansionsSwapped),
    )
    .unwrap();
    let d = e.difference.as_ref().expect("the swap is a difference");
    assert_eq!(
        (d.member.as_str(), d.index),
        ("expanded", Some(0)),
        "{}",
        e.report()
    );
    assert!(
        e.report().contains("query 0: expanded entry 0: expected "),
        "{}",
        e.report()
    );
    let svg = picture(&e, false);
    let doc = roxmltree::Document::parse(&svg).expect("the picture is XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let text: String = doc.descendants().filter_map(|n| n.text()).collect();
    assert!(
        text.contains("expected: onepath-reference") && text.contains("found: wrong"),
        "{text}"
    );
    let marks = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("mark"))
        .count();
    assert!(marks >= 2, "a mark on each side: {marks}");
    // The clean crate draws no difference: one picture, no mark.
    let clean = explain(&default_vectors_dir(), &id, &OptimizedCrate).unwrap();
    assert!(clean.difference.is_none(), "{}", clean.report());
    assert!(!picture(&clean, false).contains("class=\"mark\""));
}

#[test]
fn explain_html_has_both_pictures_and_marks_the_first_differing_row() {
    use onepath_conformance::debug::explain::{explain, picture};
    let id = grid_vector_with_expansions();
    let e = explain(
        &default_vectors_dir(),
        &id,
        &Wrong(Fault::ExpansionsSwapped),
    )
    .unwrap();
    let page = picture(&e, true);
    assert!(
        page.starts_with("<!DOCTYPE html>"),
        "{}",
        &page[..60.min(page.len())]
    );
    assert_eq!(page.matches("<svg").count(), 2);
    let d = e.difference.as_ref().unwrap();
    let row = page
        .split("id=\"first-difference\"")
        .nth(1)
        .and_then(|rest| rest.split("</tr>").next())
        .expect("a marked row");
    assert!(row.contains(&d.expected) && row.contains(&d.found), "{row}");
}

#[test]
fn explain_names_an_unknown_id() {
    use onepath_conformance::debug::explain::{explain, ExplainError};
    match explain(&default_vectors_dir(), "GRID-9999", &OptimizedCrate) {
        Err(e @ ExplainError::UnknownId { .. }) => {
            assert!(e.to_string().starts_with("GRID-9999: "))
        }
        other => panic!("{:?}", other.map(|e| e.report())),
    }
}
