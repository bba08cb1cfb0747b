//! [RECORD.VECTOR.CHECK] [RECORD.RUN.BIND] A deliberately wrong implementation (a wrapper of the
//! optimized crate whose one-query hex searches cost one ulp more: exactly the requests records
//! make) is caught by the records part of the vectors section with the record's label; and a
//! record run on another world, area version or landmark graph is refused by its binding.

use onepath_conformance::config::{FamilySet, Shard};
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
};
use onepath_conformance::lattice::{LatticeReply, LatticeRequest, QueryReply};
use onepath_conformance::records::cases::all;
use onepath_conformance::records::run::{run, RecordRunError};
use onepath_conformance::records::{vectors, RecordQuery, WorldBinding};
use onepath_conformance::{
    Case, Implementation, OptimizedCrate, Outcome, ReferenceCrate, RunOptions, Section, Variant,
};
use std::path::Path;

struct Wrong;

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
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
    fn run_grid(
        &self,
        r: &onepath_conformance::grid::GridRequest,
    ) -> Result<onepath_conformance::grid::GridOutcome, onepath_conformance::error::HarnessError>
    {
        OptimizedCrate.run_grid(r)
    }
    fn run_replan(
        &self,
        r: &onepath_conformance::replan::ReplanRequest,
    ) -> Result<onepath_conformance::replan::ReplanReply, onepath_conformance::error::HarnessError>
    {
        OptimizedCrate.run_replan(r)
    }
    fn run_flow(
        &self,
        r: &onepath_conformance::flow::FlowRequest,
    ) -> Result<onepath_conformance::flow::FlowReply, onepath_conformance::error::HarnessError>
    {
        OptimizedCrate.run_flow(r)
    }
    fn run_hpa(
        &self,
        r: &onepath_conformance::hpa::HpaRequest,
    ) -> Result<onepath_conformance::hpa::HpaReply, onepath_conformance::error::HarnessError> {
        OptimizedCrate.run_hpa(r)
    }
    fn run_bidi(
        &self,
        r: &onepath_conformance::bidi::BidiRequest,
    ) -> Result<onepath_conformance::bidi::BidiReply, onepath_conformance::error::HarnessError>
    {
        OptimizedCrate.run_bidi(r)
    }
    fn run_lattice(
        &self,
        r: &LatticeRequest,
    ) -> Result<LatticeReply, onepath_conformance::error::HarnessError> {
        let mut reply = OptimizedCrate.run_lattice(r)?;
        if let (LatticeRequest::Hex(h), LatticeReply::Ran(q)) = (r, &mut reply) {
            if h.queries.len() == 1 {
                if let Some(QueryReply::Path(p)) = q.first_mut() {
                    p.cost.0 = f64::from_bits(p.cost.0.to_bits() + 1);
                }
            }
        }
        Ok(reply)
    }
}

fn records_section(imps: &[&dyn Implementation]) -> (Section, Section) {
    let (mut once, mut s) = (Section::new("vectors"), Section::new("vectors"));
    vectors::certify(&dir(), imps, Shard::ALL, FamilySet::ALL, &mut once, &mut s);
    (once, s)
}

// pins [RECORD.MODEL]: each committed golden record must read and write back as its committed text,
// so a record with another member order, an extra member (the world itself) or a missing one fails
// pins [RECORD.FAMILIES]: RECORD-0001..0008 are the families in code order; a family code or name
// that differs from the committed golden binary byte 6 or JSON family member fails the write-back
// check
// pins [RECORD.WORLD]: the binding of each golden record's world is recomputed from its source case
// and must equal the committed one; another hash, fingerprint, count or member set fails as 'record
// binding'
// pins [RECORD.BODY]: the golden bodies must keep their committed members, and the first record of
// every vector must run to that vector's reply; a member missing, renamed or meaning another
// request field fails
// pins [RECORD.JSON.WRITE]: each golden record read back must be written as its committed canonical
// text byte for byte; another member order, any whitespace or an extra member fails the golden
// write-back
// pins [RECORD.BIN.LAYOUT]: the 8 golden records must write the committed binary byte for byte, and
// every committed cut, flag and name byte must be refused at its committed offset; another layout
// fails
#[test]
fn the_clean_crates_pass_the_records_checks() {
    let (once, s) = records_section(&[&ReferenceCrate, &OptimizedCrate]);
    assert_eq!(once.failed + s.failed, 0, "{:?}", s.failures.first());
    assert!(s.passed > 1500, "{}", s.passed);
}

// pins [RECORD.VECTOR.CHECK]: a wrapper whose one-query hex searches cost one ulp more must fail
// the records part at the golden hex record and at HEX-0001#0, and only at hex records; missing or
// misnaming it fails
#[test]
fn a_wrong_one_query_hex_search_is_named_by_its_record() {
    let (once, s) = records_section(&[&ReferenceCrate, &Wrong]);
    assert_eq!(once.failed, 0);
    let first = s.failures.first().expect("a failure");
    assert_eq!(first.vector.as_deref(), Some("RECORD-0005"), "{first:?}");
    assert_eq!(
        (first.implementation.as_str(), first.what.as_str()),
        ("wrong", "record run")
    );
    let labels: Vec<&str> = s
        .failures
        .iter()
        .filter_map(|f| f.vector.as_deref())
        .collect();
    assert!(labels.contains(&"HEX-0001#0"), "{labels:?}");
    // Only hex records differ: every failing record is a hex one.
    assert!(
        labels
            .iter()
            .all(|l| *l == "RECORD-0005" || l.starts_with("HEX-")),
        "{labels:?}"
    );
}

// pins [RECORD.RUN.BIND]: a record run on another grid, with another area version, on a world of
// another kind or with landmarks of another graph must be refused with the class the rule names;
// running it anyway fails
#[test]
fn a_record_refuses_another_world() {
    let cases = all(&dir()).unwrap();
    let grid = cases
        .iter()
        .find(|c| c.record.family() == "grid-search")
        .unwrap();
    let other = cases
        .iter()
        .find(|c| {
            c.record.family() == "grid-search"
                && c.world != grid.world
                && matches!((&c.record.world, &grid.record.world),
                    (WorldBinding::Grid { area_version: a, .. }, WorldBinding::Grid { area_version: b, .. }) if a == b)
        })
        .unwrap();
    let e = run(&ReferenceCrate, &grid.record, &other.world).unwrap_err();
    assert!(
        matches!(e, RecordRunError::WorldMismatch("state_sha256")),
        "{e}"
    );
    let mut r = grid.record.clone();
    if let WorldBinding::Grid { area_version, .. } = &mut r.world {
        *area_version += 1;
    }
    let e = run(&ReferenceCrate, &r, &grid.world).unwrap_err();
    assert_eq!(e.class(), "area_version_mismatch", "{e}");
    let hex = cases
        .iter()
        .find(|c| c.record.family() == "hex-search")
        .unwrap();
    let e = run(&ReferenceCrate, &grid.record, &hex.world).unwrap_err();
    assert_eq!(
        e.to_string(),
        "world_kind_mismatch: the record names kind 1, the world is kind 2"
    );
    let alt = cases
        .iter()
        .find(|c| matches!(&c.record.query, RecordQuery::Graph(g) if g.landmarks.is_some()))
        .unwrap();
    let mut r = alt.record.clone();
    if let RecordQuery::Graph(g) = &mut r.query {
        if let Some(l) = &mut g.landmarks {
            l.graph_fingerprint ^= 1;
        }
    }
    assert_eq!(
        run(&ReferenceCrate, &r, &alt.world).unwrap_err(),
        RecordRunError::StaleLandmarks
    );
}
