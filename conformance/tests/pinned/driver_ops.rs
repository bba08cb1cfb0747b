//! Named checks ([CONF.CLAUSES.PINS]) of driver clauses no other test asserts directly:
//!
//! - the levels of [DRIVER.LEVEL.LIST] as the comparison functions assign them to the graph
//!   family's answers, field by field ([DRIVER.LEVEL.COMPARE]);
//! - the cap of an unanswered request per op ([DRIVER.LEVEL.UNANSWERED]);
//! - the strict reading of an expectations file and its `*` patterns ([DRIVER.EXPECT.FILE]);
//! - the section sizes of `--port-cases N` ([DRIVER.CLI.CASES]) and the flags of the `certify`
//!   synopsis ([DRIVER.CLI.CERTIFY]);
//! - for each op whose reply must hold one entry per script step, probe or query
//!   ([DRIVER.OP.RUN_REPLAN], [DRIVER.OP.RUN_FLOW], [DRIVER.OP.RUN_LATTICE],
//!   [DRIVER.OP.RUN_HPA], [DRIVER.OP.RUN_BIDI], [DRIVER.OP.DESCRIBE]): the Python port's reply to
//!   a committed vector's request is the reference's, and the same reply with its last entry
//!   dropped (a wrapper generated here) is a malformed reply naming the counts, not an answer.

use crate::tools;

use onepath_conformance::expectations::{glob, Expectations};
use onepath_conformance::levels::{
    bounds_break, calls_break, cancel_break, deserialize_break, failure_break, links_break,
    oplm_build_break, outcome_break, state_break, Level,
};
use onepath_conformance::outcome::{AlgorithmCode, StatusCode};
use onepath_conformance::port::run::PortOptions;
use onepath_conformance::port::{op_level, PortImpl};
use onepath_conformance::state::{SearchSummary, StateError, StateReply};
use onepath_conformance::{
    first_difference, BuildFailure, CancelTrace, HookCall, Implementation, LinkResult, OplmError,
    Outcome, PathOutcome, ReferenceCrate, SearchCode,
};
use serde::de::DeserializeOwned;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn found() -> PathOutcome {
    PathOutcome {
        algorithm: AlgorithmCode::Astar,
        status: StatusCode::Found,
        cost: 7.5,
        iterations: 6,
        expanded_count: 5,
        nodes: vec![0, 2, 4],
        expanded: vec![0, 1, 2, 3, 4],
    }
}

/// The level at which `f` applied to a found outcome breaks it (`None`: no difference).
fn outcome_level(f: impl FnOnce(&mut PathOutcome)) -> Option<(Level, String)> {
    let mut b = found();
    f(&mut b);
    outcome_break(&Outcome::Path(found()), &Outcome::Path(b)).map(|x| (x.level, x.what))
}

fn level_of(b: Option<onepath_conformance::levels::Break>) -> Option<Level> {
    b.map(|x| x.level)
}

fn state_reply() -> StateReply {
    StateReply {
        before: vec![1, 2, 3, 4],
        restore: Some(Ok(())),
        after: vec![1, 2, 3, 5],
        cells: vec![(3, 0, 1)],
        search: Some(SearchSummary {
            status: SearchCode::Found,
            iterations: 4,
            expanded: 3,
            cost_bits: 2.5f64.to_bits(),
            path: vec![0, 1, 2],
            expansions: vec![0, 1, 2],
        }),
    }
}

fn state_level(f: impl FnOnce(&mut StateReply)) -> Option<Level> {
    let mut b = state_reply();
    f(&mut b);
    level_of(state_break(&Ok(state_reply()), &Ok(b)))
}

// pins [DRIVER.LEVEL.LIST]: a graph answer's status, cost, class or links not at L1, algorithm or
// path not at L2, expansions, counters, hook/link_valid/cancel logs or bounds not at L3, OPLM/state
// bytes or restores not at L4 fail
#[test]
fn graph_answers_break_the_level_the_list_names() {
    use Level::*;
    // L1 costs: status among found / not found, cost bits, error class.
    let l = |f: fn(&mut PathOutcome)| outcome_level(f).map(|x| x.0);
    assert_eq!(
        l(|o| {
            o.status = StatusCode::NotFound;
            o.cost = f64::INFINITY;
            o.nodes.clear();
        }),
        Some(L1)
    );
    assert_eq!(l(|o| o.cost = 7.25), Some(L1));
    assert_eq!(
        level_of(outcome_break(
            &Outcome::Error("invalid_node".into()),
            &Outcome::Error("invalid_weight".into())
        )),
        Some(L1)
    );
    assert_eq!(
        level_of(failure_break(
            &BuildFailure::new("invalid_weight", Some(2)),
            &BuildFailure::new("invalid_node", Some(2))
        )),
        Some(L1)
    );
    // L2 paths: algorithm and path.
    assert_eq!(
        l(|o| o.algorithm = AlgorithmCode::BidirectionalAstar),
        Some(L2)
    );
    assert_eq!(l(|o| o.nodes = vec![0, 3, 4]), Some(L2));
    // L3 traces: expansion order and counters.
    assert_eq!(l(|o| o.expanded.swap(1, 2)), Some(L3));
    assert_eq!(l(|o| o.iterations += 1), Some(L3));
    assert_eq!(l(|o| o.expanded_count += 1), Some(L3));
    assert_eq!(l(|_| {}), None);
    // Links: the same links at L1, the link_valid log at L3.
    let links = LinkResult {
        edges: vec![(0, 1, 1.5), (1, 0, 1.5)],
        calls: vec![(0, 1), (0, 2)],
    };
    let mut other_edge = links.clone();
    other_edge.edges[1].2 = 2.5;
    assert_eq!(
        level_of(links_break(&Ok(links.clone()), &Ok(other_edge))),
        Some(L1)
    );
    let mut other_call = links.clone();
    other_call.calls[1] = (1, 2);
    assert_eq!(
        level_of(links_break(&Ok(links.clone()), &Ok(other_call))),
        Some(L3)
    );
    // Hook-call logs, lower bounds and cancel traces at L3.
    let calls = [HookCall::Blocked(1), HookCall::Heuristic(1, 4)];
    assert_eq!(
        level_of(calls_break(
            &calls,
            &[HookCall::Blocked(1), HookCall::Heuristic(2, 4)]
        )),
        Some(L3)
    );
    assert_eq!(
        level_of(bounds_break(&Ok(vec![1.0, 2.0]), &Ok(vec![1.0, 2.5]))),
        Some(L3)
    );
    let trace = CancelTrace {
        before: (SearchCode::Running, 2),
        cancelled: (SearchCode::Running, 2),
        cancelled_again: (SearchCode::Running, 2),
        resumed: Outcome::Path(found()),
    };
    let mut other_trace = trace.clone();
    other_trace.cancelled.1 = 3;
    assert_eq!(
        level_of(cancel_break(&Ok(trace.clone()), &Ok(other_trace))),
        Some(L3)
    );
    // L4 bytes: OPLM bytes, hostile OPLM rejected with the right class and offset, build-error
    // indexes, state bytes, restore results and listener calls.
    assert_eq!(
        level_of(oplm_build_break(&Ok(vec![1, 2, 3]), &Ok(vec![1, 2, 4]))),
        Some(L4)
    );
    let rejected = |class: &str, offset| -> Result<Vec<u8>, OplmError> {
        Err(OplmError {
            class: class.into(),
            offset,
        })
    };
    assert_eq!(
        level_of(deserialize_break(
            &rejected("length_mismatch", 8),
            &Ok(vec![1])
        )),
        Some(L4)
    );
    assert_eq!(
        level_of(deserialize_break(
            &rejected("length_mismatch", 8),
            &rejected("truncated", 8)
        )),
        Some(L4)
    );
    assert_eq!(
        level_of(deserialize_break(
            &rejected("length_mismatch", 8),
            &rejected("length_mismatch", 12)
        )),
        Some(L4)
    );
    assert_eq!(
        level_of(failure_break(
            &BuildFailure::new("invalid_weight", Some(2)),
            &BuildFailure::new("invalid_weight", Some(3))
        )),
        Some(L4)
    );
    assert_eq!(state_level(|r| r.after[3] = 6), Some(L4));
    assert_eq!(state_level(|r| r.before[0] = 0), Some(L4));
    assert_eq!(state_level(|r| r.cells.clear()), Some(L4));
    assert_eq!(
        state_level(|r| {
            r.restore = Some(Err(StateError {
                class: "parent_cycle".into(),
                offset: 40,
            }))
        }),
        Some(L4)
    );
    // The search a state request runs breaks the levels of a search.
    assert_eq!(
        state_level(|r| r.search.as_mut().unwrap().cost_bits = 3.0f64.to_bits()),
        Some(L1)
    );
    assert_eq!(
        state_level(|r| r.search.as_mut().unwrap().path = vec![0, 3, 2]),
        Some(L2)
    );
    assert_eq!(
        state_level(|r| r.search.as_mut().unwrap().expansions = vec![0, 2, 1]),
        Some(L3)
    );
    assert_eq!(state_level(|_| {}), None);
}

// pins [DRIVER.LEVEL.COMPARE]: a cost difference judged by the first differing field (expansion
// step 0) instead of at L1, a budget run out on one side taken as an L1 status, or a rejected
// restore judged by its search fail
#[test]
fn levels_are_decided_field_by_field() {
    // The expansion lists part at step 0 and the costs differ: the first differing field of
    // [CONF.DIFF.ORDER] is the expansion step, the level broken is L1 (cost bits).
    let mut b = found();
    b.expanded[0] = 9;
    b.cost = 8.0;
    let first = first_difference(&Outcome::Path(found()), &Outcome::Path(b.clone()))
        .expect("the outcomes differ");
    assert_eq!(first.what, "expansion step 0", "{first}");
    let brk = outcome_break(&Outcome::Path(found()), &Outcome::Path(b)).expect("a break");
    assert_eq!(
        (brk.level, brk.what.as_str()),
        (Level::L1, "cost bits"),
        "{brk:?}"
    );
    // A budget that runs out in one and not the other: not a found / not-found (L1) status
    // difference but a trace (L3) one, in either direction. (The other side here found no
    // path; against a found path the paths differ, an L2 difference.)
    let not_found = || {
        let mut o = found();
        o.status = StatusCode::NotFound;
        o.cost = f64::INFINITY;
        o.nodes.clear();
        o
    };
    let mut exhausted = not_found();
    exhausted.status = StatusCode::BudgetExhausted;
    exhausted.expanded.truncate(3);
    exhausted.iterations = 3;
    exhausted.expanded_count = 3;
    for (a, b) in [(not_found(), exhausted.clone()), (exhausted, not_found())] {
        let brk = outcome_break(&Outcome::Path(a), &Outcome::Path(b)).expect("a break");
        assert_eq!(brk.level, Level::L3, "{brk:?}");
    }
    // A restore one side accepts and the other rejects: the restore result (L4) is the
    // difference, though the searches after it differ in status and cost (L1).
    let mut rejected = state_reply();
    rejected.restore = Some(Err(StateError {
        class: "heap_order".into(),
        offset: 64,
    }));
    rejected.after = rejected.before.clone();
    rejected.search = Some(SearchSummary {
        status: SearchCode::NotStarted,
        iterations: 0,
        expanded: 0,
        cost_bits: f64::INFINITY.to_bits(),
        path: vec![],
        expansions: vec![],
    });
    let brk = state_break(&Ok(state_reply()), &Ok(rejected)).expect("a break");
    assert_eq!(
        (brk.level, brk.what.as_str()),
        (Level::L4, "restore result"),
        "{brk:?}"
    );
}

// pins [DRIVER.LEVEL.UNANSWERED]: an op whose unanswered request caps its family other than just
// below L1 (run_case ... run_lattice), L2 (describe), L3 (sliced, cancelled, bounds) or L4 (OPLM
// ops, state_run) fails
#[test]
fn an_unanswered_request_caps_its_family_just_below_its_evidence() {
    let caps = [
        ("run_case", Level::L0),
        ("build_links", Level::L0),
        ("run_hooked", Level::L0),
        ("run_ops", Level::L0),
        ("run_grid:grid-search", Level::L0),
        ("run_replan:replanning", Level::L0),
        ("run_flow:flow-field", Level::L0),
        ("run_lattice:hex-search", Level::L0),
        ("run_lattice:voxel-search", Level::L0),
        ("describe:hpa", Level::L1),
        ("describe:graph", Level::L1),
        ("run_sliced", Level::L2),
        ("run_cancelled", Level::L2),
        ("lower_bounds", Level::L2),
        ("build_landmarks", Level::L3),
        ("deserialize_oplm", Level::L3),
        ("state_run:graph", Level::L3),
        ("state_run:grid-search", Level::L3),
    ];
    for (op, cap) in caps {
        assert_eq!(op_level(op).below(), cap, "{op}");
    }
}

const EXPECT_HEAD: &str = r#""schema":"onepath.port-expectations","version":1"#;

fn expectations(body: &str) -> Result<Expectations, String> {
    Expectations::parse(&format!("{{{EXPECT_HEAD},{body}}}")).map_err(|e| e.to_string())
}

// pins [DRIVER.EXPECT.FILE]: a reader that accepts an unknown member, an empty or missing reason,
// another schema or version, or matches a `*` pattern or section other than as any run of
// characters fails
#[test]
fn an_expectations_file_is_read_strictly_and_matched_by_its_patterns() {
    let e = expectations(
        r#""_comment":"tracked bugs","families":["graph"],"known_failures":[
            {"section":"vectors","match":"GRAPH-00*7","reason":"tie-break"},
            {"section":"*","match":"sparse#*","reason":"slow"}]"#,
    )
    .expect("a valid file");
    assert_eq!(e.families, ["graph"]);
    assert_eq!(e.find("vectors", "GRAPH-0007"), Some(0));
    assert_eq!(e.find("vectors", "GRAPH-00117"), Some(0));
    assert_eq!(e.find("vectors", "GRAPH-0008"), None);
    assert_eq!(
        e.find("landmarks", "GRAPH-0007"),
        None,
        "the section must match"
    );
    assert_eq!(e.find("landmarks", "sparse#12"), Some(1));
    assert_eq!(e.find("protocol", "sparse#"), Some(1));
    assert!(glob("*", ""));
    assert!(glob("a*b*c", "a-b-b-c"));
    assert!(!glob("a*b*c", "a-c-b"));
    assert!(!glob("GRAPH-0001", "GRAPH-00012"));
    for (body, says) in [
        (
            r#""families":["graph"],"known_failures":[],"extra":1"#,
            "extra",
        ),
        (
            r#""families":["graph"],"known_failures":[{"section":"vectors","match":"GRAPH-0001","reason":"x","note":"y"}]"#,
            "note",
        ),
        (
            r#""families":["graph"],"known_failures":[{"section":"vectors","match":"GRAPH-0001","reason":"  "}]"#,
            "reason",
        ),
        (
            r#""families":["graph"],"known_failures":[{"section":"vectors","match":"GRAPH-0001"}]"#,
            "reason",
        ),
        (r#""known_failures":[]"#, "families"),
    ] {
        let err = expectations(body).expect_err(body);
        assert!(err.contains(says), "{body}: {err}");
    }
    for text in [
        r#"{"schema":"onepath.expectations","version":1,"families":[],"known_failures":[]}"#,
        r#"{"schema":"onepath.port-expectations","version":2,"families":[],"known_failures":[]}"#,
    ] {
        assert!(Expectations::parse(text).is_err(), "{text}");
    }
}

// pins [DRIVER.CLI.CASES]: a default other than 200, a section size other than N, N/10, N/5, N/25
// or N/50 (each at least 1), MovingAI other than side 32 with 4 buckets, or --port-cases 0 accepted
// fails
#[test]
fn port_cases_size_every_generated_section() {
    let o = PortOptions::new("true");
    assert_eq!(o.cases, 200);
    for (n, tenth, fifth, grid, script) in [
        (200, 20, 40, 8, 4),
        (1000, 100, 200, 40, 20),
        (49, 4, 9, 1, 1),
        (1, 1, 1, 1, 1),
    ] {
        let mut o = PortOptions::new("true");
        o.cases = n;
        let c = o.config();
        assert_eq!(
            (c.oracle_graphs, c.link_sets, c.landmark_graphs),
            (n, n, tenth),
            "N = {n}"
        );
        assert_eq!(
            (c.sliced_graphs, c.hook_graphs, c.cancel_graphs),
            (fifth, fifth, fifth),
            "N = {n}"
        );
        // grid-search maps and the hex-search, voxel-search, hpa and grid-bidi requests.
        assert_eq!(c.grid_cases, grid, "N = {n}");
        assert_eq!((c.replan_cases, c.flow_cases), (script, script), "N = {n}");
        assert_eq!((c.movingai_side, c.movingai_buckets), (32, 4), "N = {n}");
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(["certify", "--port", "true", "--port-cases", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--port-cases"));
}

/// The `--flags` of the clause `id` in spec/driver.md.
fn synopsis_flags(id: &str) -> Vec<String> {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/driver.md"))
        .expect("spec/driver.md");
    let line = spec
        .lines()
        .find(|l| l.starts_with(&format!("- [{id}]")))
        .unwrap_or_else(|| panic!("no clause {id}"));
    let mut flags = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("--") {
        let tail = &rest[at + 2..];
        let end = tail
            .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
            .unwrap_or(tail.len());
        if end > 0 {
            flags.push(format!("--{}", &tail[..end]));
        }
        rest = &tail[end..];
    }
    flags.sort();
    flags.dedup();
    flags
}

// pins [DRIVER.CLI.CERTIFY]: a certify command lacking any flag of the clause's synopsis (read from
// spec/driver.md), or naming it otherwise, fails
#[test]
fn every_flag_of_the_certify_synopsis_is_a_certify_option() {
    let flags = synopsis_flags("DRIVER.CLI.CERTIFY");
    assert!(flags.len() >= 20, "{flags:?}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(["certify", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    // The option lines (`  -h, --help`, `      --port <PORT>`), not their descriptions.
    let options: Vec<&str> = help
        .lines()
        .map(str::trim_start)
        .filter(|l| l.starts_with('-'))
        .filter_map(|l| l.split([' ', ',']).find(|w| w.starts_with("--")))
        .collect();
    assert!(options.contains(&"--help"), "{help}");
    for flag in &flags {
        assert!(
            options.contains(&flag.as_str()),
            "{flag} is not a certify option:\n{help}"
        );
    }
}

/// A driver that answers as the Python port does, except that it drops the last entry of the
/// list at `TRIM_PATH` (`/`-separated members) in its `ok` replies to `TRIM_OP`.
const TRIM_DRIVER: &str = r#"
import os
import sys

sys.path.insert(0, sys.argv[1])
import driver  # noqa: E402

real = driver.OPS[os.environ["TRIM_OP"]]


def trimmed(args):
    reply = real(args)
    node = reply
    for key in os.environ["TRIM_PATH"].split("/"):
        node = node[key]
    node.pop()
    return reply


driver.OPS[os.environ["TRIM_OP"]] = trimmed
sys.exit(driver.main())
"#;

fn trim_driver() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onepath-pinned-ops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("trim_reply.py");
    // Tests of this binary run in parallel: each writes the same bytes, then renames.
    let tmp = dir.join(format!("trim_reply.{:?}.py", std::thread::current().id()));
    std::fs::write(&tmp, TRIM_DRIVER).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    path
}

const PY_DRIVER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python");

/// `cases[0].request` of the committed vector `rel` (under vectors/).
fn vector_request<R: DeserializeOwned>(rel: &str) -> R {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../vectors")
        .join(rel);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    serde_json::from_value(v["cases"][0]["request"].clone())
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The Python port answers `call` as the reference does; with `path` of its `op` reply cut by
/// one entry, the same call is a malformed reply whose message contains `says`.
fn check_counts<R: PartialEq + std::fmt::Debug>(
    op: &str,
    path: &str,
    says: &str,
    call: impl Fn(&dyn Implementation) -> Result<R, onepath_conformance::error::HarnessError>,
) {
    tools::require_python3();
    let timeout = Duration::from_secs(120);
    let port = PortImpl::new(&format!("python3 {PY_DRIVER_DIR}/driver.py"), timeout);
    let expected = call(&ReferenceCrate).expect("the reference answers");
    assert_eq!(
        call(&port).expect("the Python port answers"),
        expected,
        "{op}"
    );
    let driver = trim_driver();
    let cut = PortImpl::new(
        &format!(
            "TRIM_OP={op} TRIM_PATH={path} python3 {} {PY_DRIVER_DIR}",
            driver.display()
        ),
        timeout,
    );
    let err = match call(&cut) {
        Ok(r) => panic!("{op}: a reply with one entry fewer at {path} was accepted: {r:?}"),
        Err(e) => e,
    };
    assert!(
        err.what().contains("malformed reply") && err.what().contains(says),
        "{op}: {err}"
    );
    let events = &cut.ledger.lock().unwrap().events;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].kind, "malformed reply", "{events:?}");
}

// pins [DRIVER.OP.RUN_REPLAN]: a kit that takes a run_replan reply with one step observation fewer
// than the script has steps (REPLAN-0001) as an answer, not a malformed reply, fails
#[test]
fn a_replan_reply_short_of_a_step_is_malformed() {
    let r: onepath_conformance::replan::ReplanRequest =
        vector_request("replanning/REPLAN-0001.json");
    let steps = r.script.len();
    check_counts(
        "run_replan",
        "ran/steps",
        &format!("{} step replies for a script of {steps}", steps - 1),
        |i| i.run_replan(&r),
    );
}

// pins [DRIVER.OP.RUN_FLOW]: a kit that takes a run_flow reply with one step observation or one
// path probe fewer than the request has (FLOW-0001) as an answer, not a malformed reply, fails
#[test]
fn a_flow_reply_short_of_a_step_or_a_probe_is_malformed() {
    let r: onepath_conformance::flow::FlowRequest = vector_request("flow-field/FLOW-0001.json");
    let (steps, probes) = (r.script.len(), r.probes.len());
    check_counts(
        "run_flow",
        "ran/steps",
        &format!(
            "{} step replies and {probes} path probes for a script of {steps} and {probes} probes",
            steps - 1
        ),
        |i| i.run_flow(&r),
    );
    check_counts(
        "run_flow",
        "ran/paths",
        &format!(
            "{steps} step replies and {} path probes for a script of {steps}",
            probes - 1
        ),
        |i| i.run_flow(&r),
    );
}

// pins [DRIVER.OP.RUN_LATTICE]: a kit that takes a run_lattice reply with one query reply fewer
// than the request has queries (HEX-0001, VOXEL-0001) as an answer, not a malformed reply, fails
#[test]
fn a_lattice_reply_short_of_a_query_is_malformed() {
    for rel in ["hex-search/HEX-0001.json", "voxel-search/VOXEL-0001.json"] {
        let r: onepath_conformance::lattice::LatticeRequest = vector_request(rel);
        let n = r.queries().len();
        check_counts(
            "run_lattice",
            "ran",
            &format!("{} query replies for {n} queries", n - 1),
            |i| i.run_lattice(&r),
        );
    }
}

// pins [DRIVER.OP.RUN_HPA]: a kit that takes a run_hpa reply with one query reply fewer than the
// request has queries (HPA-0001) as an answer, not a malformed reply, fails
#[test]
fn an_hpa_reply_short_of_a_query_is_malformed() {
    let r: onepath_conformance::hpa::HpaRequest = vector_request("hpa/HPA-0001.json");
    let n = r.queries.len();
    check_counts(
        "run_hpa",
        "ran/queries",
        &format!("{} query replies for {n} queries", n - 1),
        |i| i.run_hpa(&r),
    );
}

// pins [DRIVER.OP.RUN_BIDI]: a kit that takes a run_bidi reply with one query reply or one meeting
// fewer than the request has queries (BIDI-0001) as an answer, not a malformed reply, fails
#[test]
fn a_bidi_reply_short_of_a_query_or_a_meeting_is_malformed() {
    let r: onepath_conformance::bidi::BidiRequest = vector_request("grid-bidi/BIDI-0001.json");
    let n = r.queries.len();
    check_counts(
        "run_bidi",
        "ran/queries",
        &format!("{} query replies and {n} meetings for {n} queries", n - 1),
        |i| i.run_bidi(&r),
    );
    check_counts(
        "run_bidi",
        "ran/meetings",
        &format!("{n} query replies and {} meetings for {n} queries", n - 1),
        |i| i.run_bidi(&r),
    );
}

// pins [DRIVER.OP.DESCRIBE]: a kit that takes a describe reply that ran with one entry fewer than
// the request asks for (DEBUG-0001) as an answer, not a malformed reply, fails
#[test]
fn a_describe_reply_short_of_an_entry_is_malformed() {
    let r: onepath_conformance::debug::DescribeRequest = vector_request("debug/DEBUG-0001.json");
    let n = r.expected_entries();
    check_counts(
        "describe",
        "ran",
        &format!("{} entries for {n} expected", n - 1),
        |i| i.describe(&r),
    );
}
