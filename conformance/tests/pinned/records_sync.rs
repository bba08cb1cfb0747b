//! Named checks for rules of records and of the sync test that no vector cites: the world kind
//! each record family runs on, the graph body's paired members, options and hook rules carried
//! as written, exact numbers, the error text of every place, the records of the committed
//! vectors; the sync test's output bytes, checksums, resimulation digest, reply, generated
//! session and section; the jump hop's cost.

use onepath_conformance::grid::vectors::MapFile;
use onepath_conformance::grid::{CellBlockRule, CellCostRule, GridMap, GridRequest};
use onepath_conformance::implementation::{
    BuildFailure, CancelTrace, GraphOp, HookedQuery, HookedRun, LinkRequest, LinkResult, OplmError,
};
use onepath_conformance::records::cases::{all as record_cases, RecordCase};
use onepath_conformance::records::run::{bind, run, RecordReply, RecordWorld};
use onepath_conformance::records::vectors::read_dir as record_vectors;
use onepath_conformance::records::{QueryRecord, RecordQuery, WorldBinding};
use onepath_conformance::synctest::adapter::{optimized_adapter as opt, reference_adapter as refa};
use onepath_conformance::synctest::{
    generate, parse_inputs, run_loop, Session, SyncOp, SyncReply, SyncRun, SyncWorld, MEMBERS,
};
use onepath_conformance::{
    Case, Implementation, OptimizedCrate, Outcome, ReferenceCrate, RunOptions, Variant,
};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../vectors")
}

/// The golden JSON of `RECORD-000n` (n = family code + 1), as a tree.
fn golden(n: usize) -> Value {
    let v = &record_vectors(&dir()).unwrap()[n - 1];
    serde_json::from_str(&v.case.golden.json).unwrap()
}

/// The golden text of `RECORD-000n`.
fn golden_text(n: usize) -> String {
    record_vectors(&dir()).unwrap()[n - 1]
        .case
        .golden
        .json
        .clone()
}

/// Reads a JSON record; the error as `class@path`.
fn read(v: &Value) -> Result<QueryRecord, String> {
    QueryRecord::from_json(&v.to_string()).map_err(|e| e.label())
}

/// A world of `kind` with the members of [RECORD.WORLD] (values that read, bound to nothing).
fn world_of_kind(kind: u64) -> Value {
    if kind == 4 {
        json!({"kind": 4, "fingerprint": "0123456789abcdef", "node_count": 8, "positions_sha256": null})
    } else {
        json!({"kind": kind, "state_sha256": "ab".repeat(32), "area_version": 0})
    }
}

// pins [RECORD.WORLD.FAMILY]: every family's golden record read with worlds of kinds 1-4 (JSON and
// binary); a kind the family does not run on must be bad_value at world.kind, the others must read
#[test]
fn a_world_of_a_kind_the_family_does_not_run_on_is_bad_value() {
    // Family code order ([RECORD.FAMILIES]): graph, grid-search, replanning, flow-field,
    // hex-search, voxel-search, hpa, grid-bidi.
    let runs_on: [&[u64]; 8] = [&[4], &[1], &[1, 2], &[1, 2], &[2], &[3], &[1], &[1]];
    for (code, kinds) in runs_on.iter().enumerate() {
        let g = golden(code + 1);
        let family = g["family"].as_str().unwrap().to_string();
        let good = read(&g).unwrap();
        for kind in 1..=4u64 {
            let mut v = g.clone();
            v["world"] = world_of_kind(kind);
            let r = read(&v);
            // The binary form of the same record: the golden one with its world replaced.
            let mut b = good.clone();
            b.world = if kind == 4 {
                WorldBinding::Graph {
                    fingerprint: 0x0123_4567_89ab_cdef,
                    node_count: 8,
                    positions_sha256: None,
                }
            } else {
                WorldBinding::Grid {
                    kind: kind as u8,
                    state_sha256: [0xab; 32],
                    area_version: 0,
                }
            };
            let rb = QueryRecord::from_binary(&b.to_binary()).map_err(|e| e.label());
            if kinds.contains(&kind) {
                assert!(r.is_ok(), "{family} on kind {kind}: {r:?}");
                assert_eq!(rb, Ok(b), "{family} on kind {kind} (binary)");
            } else {
                assert_eq!(
                    r.unwrap_err(),
                    "bad_value@world.kind",
                    "{family} on kind {kind}"
                );
                assert_eq!(
                    rb.unwrap_err(),
                    "bad_value@7",
                    "{family} on kind {kind} (binary)"
                );
            }
        }
    }
}

// pins [RECORD.BODY.GRAPH]: landmarks without an alt variant (or missing with one), a schedule with
// a budget or without recording, a bad graph_fingerprint: each must be bad_value at its member
#[test]
fn a_graph_body_pairs_landmarks_with_the_variant_and_a_schedule_with_no_budget() {
    let g = golden(1);
    let landmarks = json!({"count": 2, "strategy": "avoid", "seed": 0, "graph_fingerprint": "0123456789abcdef"});
    let variants = [
        ("dijkstra", false),
        ("astar_alt", true),
        ("astar_geo", false),
        ("astar_both", true),
        ("bidi_dijkstra", false),
        ("bidi_alt", true),
        ("bidi_geo", false),
        ("bidi_both", true),
    ];
    for (variant, alt) in variants {
        for with in [false, true] {
            let mut v = g.clone();
            v["query"]["variant"] = json!(variant);
            v["query"]["landmarks"] = if with { landmarks.clone() } else { Value::Null };
            let r = read(&v);
            if with == alt {
                assert!(r.is_ok(), "{variant}, landmarks {with}: {r:?}");
            } else {
                assert_eq!(
                    r.unwrap_err(),
                    "bad_value@query.landmarks",
                    "{variant}, landmarks {with}"
                );
            }
        }
    }
    // An empty schedule: any budget, recording or not.
    let mut v = g.clone();
    v["query"]["budget"] = json!(5);
    v["query"]["record"] = json!(false);
    assert!(read(&v).is_ok());
    // A schedule: budget 0 and recording on.
    let mut v = g.clone();
    v["query"]["schedule"] = json!([3, 4]);
    let sliced = read(&v).unwrap();
    v["query"]["budget"] = json!(5);
    assert_eq!(read(&v).unwrap_err(), "bad_value@query.budget");
    v["query"]["budget"] = json!(0);
    v["query"]["record"] = json!(false);
    assert_eq!(read(&v).unwrap_err(), "bad_value@query.record");
    // The same in binary, named by the member.
    for (budget, record, member) in [(5, true, "query.budget"), (0, false, "query.record")] {
        let mut r = sliced.clone();
        let RecordQuery::Graph(q) = &mut r.query else {
            unreachable!()
        };
        q.budget = budget;
        q.record = record;
        let e = QueryRecord::from_binary(&r.to_binary()).unwrap_err();
        assert!(
            e.label().starts_with("bad_value@") && e.to_string().contains(&format!("({member})")),
            "{e}"
        );
    }
    // graph_fingerprint: 16 lowercase hex digits.
    for bad in [
        "0123456789ABCDEF",
        "0123456789abcde",
        "0123456789abcdef0",
        "0123456789abcdeg",
    ] {
        let mut v = g.clone();
        v["query"]["variant"] = json!("astar_alt");
        v["query"]["landmarks"] = landmarks.clone();
        v["query"]["landmarks"]["graph_fingerprint"] = json!(bad);
        assert_eq!(
            read(&v).unwrap_err(),
            "bad_value@query.landmarks.graph_fingerprint",
            "{bad}"
        );
    }
}

/// The grid-search golden record (RECORD-0002) and the world of its source case.
fn grid_golden() -> (Value, RecordCase) {
    let source = record_vectors(&dir()).unwrap()[1].case.source.clone();
    let case = record_cases(&dir())
        .unwrap()
        .into_iter()
        .find(|c| c.label == source)
        .unwrap();
    (golden(2), case)
}

/// The grid request of a grid-search record on its square world, built here from the map file
/// (not by the records module), as a host running the query itself would.
fn direct(record: &QueryRecord, world: &RecordWorld) -> GridRequest {
    let (RecordQuery::GridSearch(q), RecordWorld::Square(m)) = (&record.query, world) else {
        panic!("a grid-search record on a square world")
    };
    let m: &MapFile = m;
    GridRequest {
        map: GridMap {
            width: m.width,
            height: m.height,
            cells: hex::decode(&m.cells).unwrap(),
            multipliers: m.multipliers.clone(),
            space: m.space,
        },
        options: q.options.clone(),
        api: q.api,
        start: q.start,
        goal: q.goal,
        schedule: q.schedule.clone(),
        snapshot_after: q.snapshot_after.map(|k| k as usize),
    }
}

fn grid_reply(imp: &dyn Implementation, r: &QueryRecord, case: &RecordCase) -> RecordReply {
    run(imp, r, &case.world).unwrap()
}

// pins [RECORD.BODY.VERBATIM]: agent sizes 0, 256, weight 0.5, connectivity 5 must read as written
// and run to the reply of the same options run directly; a reader that validates or normalises
// fails
#[test]
fn options_are_read_as_written_and_run_to_the_implementations_own_error() {
    let (g, case) = grid_golden();
    for (member, value, fails) in [
        ("agent_size", json!(0), true),
        ("agent_size", json!(256), true),
        ("weight", json!(0.5), true),
        ("connectivity", json!(5), false),
    ] {
        let mut v = g.clone();
        v["query"]["options"][member] = value.clone();
        let r = read(&v).unwrap_or_else(|e| panic!("{member} {value}: {e}"));
        let RecordQuery::GridSearch(q) = &r.query else {
            unreachable!()
        };
        let kept = match member {
            "agent_size" => json!(q.options.agent_size),
            "weight" => json!(q.options.weight),
            _ => json!(q.options.connectivity),
        };
        assert_eq!(kept, value, "{member} kept as written");
        assert_eq!(QueryRecord::from_binary(&r.to_binary()).unwrap(), r);
        for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
            let RecordReply::Grid(outcome) = grid_reply(imp, &r, &case) else {
                panic!("a grid reply")
            };
            assert_eq!(
                outcome,
                imp.run_grid(&direct(&r, &case.world)).unwrap(),
                "{member} {value} on {}",
                imp.name()
            );
            assert_eq!(outcome.is_err(), fails, "{member} {value}: {outcome:?}");
            if fails {
                assert!(outcome.unwrap_err().starts_with("invalid_options"));
            }
        }
    }
}

// pins [RECORD.BODY.HOOKS]: cell_cost and blocked read into the kit's rules, write back by name and
// run like the rules run directly (a reply that differs from none); a dropped or altered rule fails
#[test]
fn hook_members_are_the_kits_named_rules_and_run_as_such() {
    let (g, case) = grid_golden();
    let plain = read(&g).unwrap();
    let plain_reply = grid_reply(&ReferenceCrate, &plain, &case);
    let mut differs = 0;
    for (cost, blocked, rule, block) in [
        (
            json!({"extra_where": {"modulus": 3, "extra": 2.5}}),
            Value::Null,
            Some(CellCostRule::ExtraWhere {
                modulus: 3,
                extra: 2.5,
            }),
            None,
        ),
        (
            json!({"invalid_where": {"modulus": 2}}),
            Value::Null,
            Some(CellCostRule::InvalidWhere { modulus: 2 }),
            None,
        ),
        (
            Value::Null,
            json!({"modulus": 4, "residue": 1}),
            None,
            Some(CellBlockRule {
                modulus: 4,
                residue: 1,
            }),
        ),
    ] {
        let mut v = g.clone();
        v["query"]["options"]["cell_cost"] = cost.clone();
        v["query"]["options"]["blocked"] = blocked.clone();
        let r = read(&v).unwrap();
        let RecordQuery::GridSearch(q) = &r.query else {
            unreachable!()
        };
        assert_eq!((q.options.cell_cost, q.options.blocked), (rule, block));
        let text: Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(text["query"]["options"]["cell_cost"], cost);
        assert_eq!(text["query"]["options"]["blocked"], blocked);
        for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
            let RecordReply::Grid(outcome) = grid_reply(imp, &r, &case) else {
                panic!("a grid reply")
            };
            assert_eq!(outcome, imp.run_grid(&direct(&r, &case.world)).unwrap());
        }
        differs += (grid_reply(&ReferenceCrate, &r, &case) != plain_reply) as usize;
    }
    assert_eq!(differs, 3, "every rule changes the golden query's reply");
}

// pins [RECORD.JSON.NUMBERS]: f64 text read to the nearest binary64 and written shortest (-0.0
// signed); integers with a fraction or exponent wrong_type, out of range bad_value, u64::MAX exact
#[test]
fn numbers_are_read_exactly_and_written_shortest() {
    let text = golden_text(2);
    assert!(text.contains("\"weight\":1.0"));
    let weight = |lit: &str| -> (u64, String) {
        let t = text.replace("\"weight\":1.0", &format!("\"weight\":{lit}"));
        let r = QueryRecord::from_json(&t).unwrap_or_else(|e| panic!("{lit}: {e}"));
        let RecordQuery::GridSearch(q) = &r.query else {
            unreachable!()
        };
        let written = r.to_json();
        let at = written.find("\"weight\":").unwrap() + 9;
        let end = at + written[at..].find(',').unwrap();
        (q.options.weight.to_bits(), written[at..end].to_string())
    };
    for (lit, shortest) in [
        ("1e0", "1.0"),
        ("15E-1", "1.5"),
        ("2", "2.0"),
        ("-0.0", "-0.0"),
        (
            "0.1000000000000000055511151231257827021181583404541015625",
            "0.1",
        ),
        ("0.30000000000000004", "0.30000000000000004"),
        ("4.9406564584124654e-324", "5e-324"),
        ("2.2250738585072011e-308", "2.225073858507201e-308"),
        ("1.7976931348623157e308", "1.7976931348623157e+308"),
        ("9007199254740993", "9007199254740992.0"),
    ] {
        let (bits, written) = weight(lit);
        let nearest: f64 = lit.parse().unwrap();
        assert_eq!(
            bits,
            nearest.to_bits(),
            "{lit} read to the nearest binary64"
        );
        assert_eq!(written, shortest, "{lit} written shortest");
        let back: f64 = written.parse().unwrap();
        assert_eq!(back.to_bits(), bits, "{written} reads back");
    }
    assert!(text.contains("\"budget\":0"));
    let budget = |lit: &str| -> Result<u64, String> {
        let t = text.replace("\"budget\":0", &format!("\"budget\":{lit}"));
        let r = QueryRecord::from_json(&t).map_err(|e| e.label())?;
        let RecordQuery::GridSearch(q) = &r.query else {
            unreachable!()
        };
        assert!(r
            .to_json()
            .contains(&format!("\"budget\":{}", q.options.budget)));
        Ok(q.options.budget)
    };
    assert_eq!(budget("18446744073709551615"), Ok(u64::MAX));
    assert_eq!(budget("7"), Ok(7));
    for lit in ["1.0", "1e2", "7E0"] {
        assert_eq!(
            budget(lit),
            Err("wrong_type@query.options.budget".into()),
            "{lit}"
        );
    }
    assert_eq!(budget("-1"), Err("bad_value@query.options.budget".into()));
    let t = text.replace("\"agent_size\":1", "\"agent_size\":4294967296");
    assert_eq!(
        QueryRecord::from_json(&t).unwrap_err().label(),
        "bad_value@query.options.agent_size"
    );
}

// pins [RECORD.ERROR.TEXT]: the displays of a path, a malformed text position, a duplicate member
// and a binary offset, each with expected and found; another wording or place fails
#[test]
fn every_error_displays_class_place_and_what() {
    let e = QueryRecord::from_json("{\"schema\":\"onepath.query\",\"version\":3}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unsupported_version at version: expected 1, found 3"
    );
    let e = QueryRecord::from_json("{\"schema\":\"onepath.query\",\n\"version\":}").unwrap_err();
    assert_eq!(e.label(), "malformed@2:11");
    assert_eq!(
        e.to_string(),
        "malformed at line 2 column 11: expected value"
    );
    let e = QueryRecord::from_json("{\"schema\":\"onepath.query\",\"schema\":1}").unwrap_err();
    assert_eq!(
        e.to_string(),
        "duplicate_field at schema (line 1 column 34): member `schema` written twice"
    );
    let e = QueryRecord::from_binary(&[0x4F, 0x50, 0x51, 0x52, 1, 0, 9]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown_family at byte 6 (family): expected a code below 8, found 9"
    );
    let mut b = read(&golden(1)).unwrap().to_binary();
    let n = b.len();
    // The graph body ends with record (bool), schedule (u32 count 0) and landmarks (flag 0).
    assert_eq!(&b[n - 6..], &[1, 0, 0, 0, 0, 0]);
    b[n - 6] = 2;
    let e = QueryRecord::from_binary(&b).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "bad_flag at byte {} (query.record): expected 0 or 1, found 2",
            n - 6
        )
    );
}

/// The vector id of a record label.
fn vector_of(label: &str) -> &str {
    label.split('#').next().unwrap()
}

// pins [RECORD.CASES]: records counted from the vector files (queries x variants, runs, non-cancel
// queries, HPA queries before an edit, one per case, none without a world), labelled <id>#0.. in
// order
#[test]
fn every_query_of_the_committed_vectors_is_one_record() {
    use onepath_conformance::lattice::{LatticeRequest, Shape};
    let d = dir();
    let cases = record_cases(&d).unwrap();
    let mut labels: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for c in &cases {
        labels
            .entry(vector_of(&c.label).to_string())
            .or_default()
            .push(c.label.clone());
    }
    for (id, ls) in &labels {
        let want: Vec<String> = (0..ls.len()).map(|n| format!("{id}#{n}")).collect();
        assert_eq!(ls, &want, "{id}: labels in order from 0");
    }
    let count = |id: &str| labels.get(id).map_or(0, |l| l.len());
    // The number of records of a vector: its queries when its world can be built, else none.
    let mut expected: BTreeMap<String, usize> = BTreeMap::new();
    let mut put = |id: &str, world: RecordWorld, n: usize| {
        let n = if bind(&world).is_ok() { n } else { 0 };
        assert!(expected.insert(id.to_string(), n).is_none(), "{id} twice");
    };
    let plane = |layout: Option<i32>, map: &MapFile| match layout {
        None => RecordWorld::Square(map.clone()),
        Some(layout) => RecordWorld::Hex {
            layout,
            map: map.clone(),
        },
    };
    for s in onepath_conformance::vectors::read_scenarios(&d).unwrap() {
        let n: usize = s.outcomes.iter().map(|(_, o)| o.len()).sum();
        assert!(s.outcomes.iter().all(|(_, o)| o.len() == s.queries.len()));
        put(&s.id, RecordWorld::Graph(s.graph.clone()), n);
    }
    for v in onepath_conformance::grid::vectors::read_dir(&d).unwrap() {
        put(&v.id, RecordWorld::Square(v.map.clone()), v.runs.len());
    }
    for v in onepath_conformance::replan::vectors::read_dir(&d).unwrap() {
        let g = &v.case.request.grid;
        put(&v.id, plane(g.hex_layout, &g.map), 1);
    }
    for v in onepath_conformance::flow::vectors::read_dir(&d).unwrap() {
        let g = &v.case.request.grid;
        put(&v.id, plane(g.hex_layout, &g.map), 1);
    }
    for shape in [Shape::Hex, Shape::Voxel] {
        for v in onepath_conformance::lattice::vectors::read_dir(shape, &d).unwrap() {
            match &v.case.request {
                LatticeRequest::Hex(r) => {
                    let n = r.queries.iter().filter(|q| q.cancel.is_none()).count();
                    let world = RecordWorld::Hex {
                        layout: r.layout,
                        map: r.map.clone(),
                    };
                    put(&v.id, world, n);
                }
                LatticeRequest::Voxel(r) => {
                    let n = r.queries.iter().filter(|q| q.cancel.is_none()).count();
                    let world = RecordWorld::Voxel {
                        size: r.size,
                        cells: r.cells.clone(),
                        multipliers: r.multipliers.clone(),
                        space: r.space,
                    };
                    put(&v.id, world, n);
                }
            }
        }
    }
    for v in onepath_conformance::hpa::vectors::read_dir(&d).unwrap() {
        let r = &v.case.request;
        let n = r
            .queries
            .iter()
            .take_while(|q| q.edits.is_empty())
            .filter(|q| q.cancel.is_none())
            .count();
        put(&v.id, RecordWorld::Square(r.map.clone()), n);
    }
    for v in onepath_conformance::bidi::vectors::read_dir(&d).unwrap() {
        let r = &v.case.request;
        let n = r.queries.iter().filter(|q| q.cancel.is_none()).count();
        put(&v.id, RecordWorld::Square(r.map.clone()), n);
    }
    assert_eq!(
        expected.get("GRID-0011"),
        Some(&0),
        "GRID-0011's width-0 grid has no world"
    );
    let mut total = 0;
    for (id, n) in &expected {
        assert_eq!(count(id), *n, "{id}: records");
        total += n;
    }
    assert_eq!(total, cases.len(), "no record of another vector");
    assert!(total > 1500, "{total} records");
}

/// An independent single-source Dijkstra over the session graph (integer weights: exact).
fn dijkstra(s: &Session, from: u32, to: u32) -> f64 {
    let n = s.graph.node_count as usize;
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[from as usize] = 0.0;
    for _ in 0..n {
        let Some(u) = (0..n)
            .filter(|&u| !done[u] && dist[u].is_finite())
            .min_by(|&a, &b| dist[a].partial_cmp(&dist[b]).unwrap())
        else {
            break;
        };
        done[u] = true;
        for &(a, b, w) in &s.graph.edges {
            if a as usize == u && dist[u] + w < dist[b as usize] {
                dist[b as usize] = dist[u] + w;
            }
        }
    }
    dist[to as usize]
}

fn op_bytes<W: SyncWorld>(w: &mut W, op: SyncOp) -> Vec<u8> {
    let mut out = Vec::new();
    w.run_op(op, &mut out);
    out
}

fn f64_le(x: f64) -> [u8; 8] {
    x.to_bits().to_le_bytes()
}

macro_rules! status_bytes {
    ($m:ident, $krate:ident) => {{
        use $krate::SearchStatus;
        let mut s = generate::session(1, 1);
        // Node 35 gets no in-edge: unreachable from node 0.
        s.graph.edges.retain(|e| e.1 != 35);
        let cells = hex::decode(&s.map.cells).unwrap();
        let wall = cells.iter().position(|&c| c == 255).unwrap();
        let open = cells.iter().position(|&c| c != 255).unwrap();
        let xy = |i: usize| (i % 16, i / 16);
        let mut w = $m::build(&s).ok().unwrap();
        let mut frame = Vec::new();
        let go = |w: &mut $m::CrateWorld, op: SyncOp, frame: &mut Vec<u8>| {
            let out = op_bytes(w, op);
            frame.extend_from_slice(&out);
            out
        };
        // Graph search: NotStarted before begin, Running after one iteration, Found with the
        // Dijkstra cost, NotFound for the unreachable node.
        let out = go(&mut w, SyncOp::GraphStep(3), &mut frame);
        let (st, cost) = w
            .world
            .with_graph_search(5, |h| (h.status(), h.path_cost()))
            .unwrap();
        assert_eq!(st, SearchStatus::NotStarted);
        assert_eq!(out[..2], [7, 0]);
        assert_eq!(out[2..], f64_le(cost));
        assert_eq!(go(&mut w, SyncOp::GraphBegin(0, 34), &mut frame), [6, 0]);
        let out = go(&mut w, SyncOp::GraphStep(1), &mut frame);
        assert_eq!(out[..2], [7, 1], "Running");
        let out = go(&mut w, SyncOp::GraphStep(10_000), &mut frame);
        let mut want = vec![7, 2];
        want.extend_from_slice(&f64_le(dijkstra(&s, 0, 34)));
        assert_eq!(out, want, "Found, then the cost's bits little-endian");
        assert_eq!(
            w.world.with_graph_search(5, |h| h.status()).unwrap(),
            SearchStatus::Found
        );
        assert_eq!(go(&mut w, SyncOp::GraphBegin(0, 35), &mut frame), [6, 0]);
        let out = go(&mut w, SyncOp::GraphStep(10_000), &mut frame);
        assert_eq!(out[..2], [7, 3], "NotFound");
        // Grid search: a goal that is a wall ends NotFound at begin; start = goal is Found.
        let (o, g) = (xy(open), xy(wall));
        assert_eq!(go(&mut w, SyncOp::GridBegin(o, g), &mut frame), [3, 0]);
        let out = go(&mut w, SyncOp::GridStep(5), &mut frame);
        let (cost, it) = w
            .world
            .with_grid_search(4, |h| (h.path_cost(), h.iterations()))
            .unwrap();
        let mut want = vec![4, 3];
        want.extend_from_slice(&f64_le(cost));
        want.extend_from_slice(&(it as u32).to_le_bytes());
        assert_eq!(out, want, "NotFound, cost, iterations");
        assert_eq!(go(&mut w, SyncOp::GridBegin(o, o), &mut frame), [3, 0]);
        let out = go(&mut w, SyncOp::GridStep(5), &mut frame);
        let (st, cost, it) = w
            .world
            .with_grid_search(4, |h| (h.status(), h.path_cost(), h.iterations()))
            .unwrap();
        assert_eq!(st, SearchStatus::Found);
        let mut want = vec![4, 2];
        want.extend_from_slice(&f64_le(cost));
        want.extend_from_slice(&(it as u32).to_le_bytes());
        assert_eq!(out, want, "Found, cost, iterations");
        // Replan: status, cost, then the path's length and cells as i32.
        let out = go(&mut w, SyncOp::Replan(0), &mut frame);
        let (grid, rp) = w.world.replanner_mut(2).unwrap();
        let path = rp.path(grid).unwrap_or_default();
        let st = if rp.path_cost().is_finite() { 2 } else { 3 };
        let mut want = vec![1, st];
        want.extend_from_slice(&f64_le(rp.path_cost()));
        want.extend_from_slice(&(path.len() as i32).to_le_bytes());
        for c in &path {
            want.extend_from_slice(&(*c as i32).to_le_bytes());
        }
        assert_eq!(out, want, "replan output");
        // An edit: its code, then 0 (done) or 1 (refused).
        assert_eq!(go(&mut w, SyncOp::SetCell(0, 0, 2), &mut frame), [0, 0]);
        assert_eq!(go(&mut w, SyncOp::SetCell(16, 0, 2), &mut frame), [0, 1]);
        frame
    }};
}

// pins [CONF.SYNC.STATUS] [CONF.SYNC.OUTPUT]: op outputs on both crates: statuses 0-3 checked
// against the searches' own and a Dijkstra cost, code then output, f64 bits and integers
// little-endian
#[test]
fn op_outputs_are_the_code_then_the_status_and_values_little_endian() {
    let a = status_bytes!(refa, onepath_reference);
    let b = status_bytes!(opt, onepath);
    assert_eq!(a, b, "a frame's output bytes are the same on both crates");
}

/// A world whose restores do nothing (a host that forgot its snapshot).
struct NoRestore(opt::CrateWorld);

impl SyncWorld for NoRestore {
    fn run_op(&mut self, op: SyncOp, out: &mut Vec<u8>) {
        self.0.run_op(op, out)
    }
    fn member_bytes(&self, i: usize, out: &mut Vec<u8>) {
        self.0.member_bytes(i, out)
    }
    fn save(&self, out: &mut Vec<u8>) {
        self.0.save(out)
    }
    fn restore(&mut self, _: &[u8]) -> Result<(), String> {
        Ok(())
    }
}

fn first8(bytes: &[u8]) -> [u8; 8] {
    let d = Sha256::digest(bytes);
    let mut c = [0; 8];
    c.copy_from_slice(&d[..8]);
    c
}

// pins [CONF.SYNC.CHECKSUM] [CONF.SYNC.RESIMULATED]: checksums recomputed here from member and
// output bytes, count and digest from them by the loop's distances; both crates' runs must equal
// them
#[test]
fn checksums_and_the_resimulation_digest_follow_from_the_bytes() {
    const FRAMES: usize = 100;
    let s = generate::session(9, FRAMES);
    let frames = parse_inputs(&s).unwrap();
    // The first simulation, by hand: no rollback.
    let mut w = refa::build(&s).ok().unwrap();
    let mut mine: Vec<Vec<[u8; 8]>> = Vec::new();
    let mut bytes = Vec::new();
    for ops in &frames {
        let mut out = Vec::new();
        for &op in ops {
            w.run_op(op, &mut out);
        }
        let mut c = Vec::new();
        for i in 0..MEMBERS {
            bytes.clear();
            bytes.extend_from_slice(&w.world.member_state(i).unwrap());
            c.push(first8(&bytes));
        }
        c.push(first8(&out));
        mine.push(c);
    }
    let hex16: Vec<Vec<String>> = mine
        .iter()
        .map(|f| f.iter().map(hex::encode).collect())
        .collect();
    assert!(hex16.iter().flatten().all(|h| h.len() == 16
        && h.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))));
    // The resimulated frames of [CONF.SYNC.LOOP]: after frame f, frames f + 1 - d(f) ..= f.
    let (mut count, mut digest) = (0u64, Sha256::new());
    for f in 0..FRAMES {
        let d = 1 + f % 8;
        for frame in &mine[f + 1 - d..=f] {
            count += 1;
            for c in frame {
                digest.update(c);
            }
        }
    }
    let digest = hex::encode(digest.finalize());
    let runs = [
        run_loop(&mut refa::build(&s).ok().unwrap(), &frames),
        run_loop(&mut opt::build(&s).ok().unwrap(), &frames),
    ];
    for r in runs {
        assert_eq!(r.mismatch, None);
        assert_eq!(r.checksums, hex16);
        assert_eq!(r.checksums[0].len(), MEMBERS + 1);
        assert_eq!(r.resimulated, count);
        assert_eq!(r.resim_digest, digest);
    }
    assert_eq!(count, 12 * 36 + 1 + 2 + 3 + 4);
}

// pins [CONF.SYNC.REPLY]: ran/failed JSON members, a missing mismatch refused, a bad op's text
// starts with its class, a mismatching run keeps every checksum before the mismatch
#[test]
fn the_reply_has_its_members_and_keeps_the_checksums_before_a_mismatch() {
    let s = generate::session(4, 40);
    let SyncReply::Ran(good) = refa::run(&s).unwrap() else {
        panic!("ran")
    };
    let v = serde_json::to_value(SyncReply::Ran(good.clone())).unwrap();
    let ran = v.as_object().unwrap();
    assert_eq!(ran.keys().collect::<Vec<_>>(), ["ran"]);
    let mut keys: Vec<&String> = ran["ran"].as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        ["checksums", "mismatch", "resim_digest", "resimulated"]
    );
    assert_eq!(ran["ran"]["mismatch"], Value::Null);
    assert_eq!(ran["ran"]["resim_digest"].as_str().unwrap().len(), 64);
    assert_eq!(
        serde_json::from_value::<SyncReply>(v.clone()).unwrap(),
        SyncReply::Ran(good)
    );
    let mut missing = v.clone();
    missing["ran"].as_object_mut().unwrap().remove("mismatch");
    assert!(serde_json::from_value::<SyncReply>(missing).is_err());
    assert_eq!(
        serde_json::to_value(SyncReply::Failed("bad_op: frame 1 op 0: [9]".into())).unwrap(),
        json!({"failed": "bad_op: frame 1 op 0: [9]"})
    );
    let mut bad = s.clone();
    bad.inputs[3] = vec![vec![9]];
    let SyncReply::Failed(text) = refa::run(&bad).unwrap() else {
        panic!("failed")
    };
    assert!(text.starts_with("bad_op:"), "{text}");
    // A world that skips its restores: the mismatch, and every checksum before it.
    let frames = parse_inputs(&s).unwrap();
    let r: SyncRun = run_loop(&mut NoRestore(opt::build(&s).ok().unwrap()), &frames);
    let m = r.mismatch.clone().expect("a mismatch");
    assert!(
        r.checksums.len() as u64 > m.frame,
        "{} lists, mismatch at {}",
        r.checksums.len(),
        m.frame
    );
    assert!(r.checksums.iter().all(|c| c.len() == MEMBERS + 1));
    let SyncReply::Ran(reference) = refa::run(&s).unwrap() else {
        panic!("ran")
    };
    assert_eq!(
        r.checksums[..m.frame as usize],
        reference.checksums[..m.frame as usize]
    );
    let v = serde_json::to_value(SyncReply::Ran(r)).unwrap();
    let mut keys: Vec<&String> = v["ran"]["mismatch"].as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(keys, ["expected", "found", "frame", "object"]);
}

// pins [CONF.SYNC.GENERATE]: sessions of five seeds checked against the recipe (map, walls,
// multipliers, options, lattice and weights, walkable cells, ops per frame, op shares and ranges)
#[test]
fn generated_sessions_follow_the_recipe() {
    let mut shares: BTreeMap<i128, usize> = BTreeMap::new();
    let (mut ops, mut walls, mut cells_seen) = (0usize, 0usize, 0usize);
    for seed in [1u64, 2, 3, 5, 8] {
        let s = generate::session(seed, 4000);
        assert_eq!((s.schema.as_str(), s.version), ("onepath.synctest", 1));
        assert_eq!((s.map.width, s.map.height), (16, 16));
        assert_eq!(s.map.multipliers, vec![(1, 2.0), (2, 3.0), (3, 5.0)]);
        assert_eq!(s.map.space, None);
        let o = &s.options;
        assert_eq!(
            (o.agent_size, o.connectivity, o.diagonal, o.algorithm),
            (1, 8, 1, 0),
            "connectivity 8, at_most_one_blocked, A*"
        );
        assert!(o.cell_cost.is_none() && o.blocked.is_none() && o.weight == 1.0);
        let cells = hex::decode(&s.map.cells).unwrap();
        assert!(cells.iter().all(|&c| c <= 3 || c == 255));
        walls += cells.iter().filter(|&&c| c == 255).count();
        cells_seen += cells.len();
        let walkable = |(x, y): (u32, u32)| x < 16 && y < 16 && cells[(y * 16 + x) as usize] != 255;
        assert!(walkable(s.replanner.start) && walkable(s.replanner.goal));
        assert_eq!(s.flow_goals.len(), 2);
        assert!(s.flow_goals.iter().all(|&p| walkable(p)));
        assert!(s.containers.is_empty());
        assert_eq!(s.graph.node_count, 36);
        assert_eq!(s.graph.edges.len(), 120);
        for &(a, b, w) in &s.graph.edges {
            let (ax, ay, bx, by) = (a % 6, a / 6, b % 6, b / 6);
            assert_eq!(
                ax.abs_diff(bx) + ay.abs_diff(by),
                1,
                "a lattice edge {a} -> {b}"
            );
            assert!(w.fract() == 0.0 && (1.0..=9.0).contains(&w), "weight {w}");
            assert!(
                s.graph.edges.iter().any(|e| (e.0, e.1) == (b, a)),
                "both directions"
            );
        }
        for frame in &s.inputs {
            assert!((1..=3).contains(&frame.len()));
            for op in frame {
                ops += 1;
                *shares.entry(op[0]).or_default() += 1;
                match op[0] {
                    0 => {
                        assert!(op.len() == 4 && op[1] < 16 && op[2] < 16);
                        assert!([0, 1, 2, 3, 255].contains(&op[3]));
                    }
                    5 => {
                        assert!(op.len() == 4 && op[1] < 120 && op[3] == 10);
                        // k in 1-90 (weight 0.1 to 9.0); the committed SYNC vectors hold 90.
                        assert!((1..=90).contains(&op[2]), "{op:?}");
                    }
                    3 => assert!(op.len() == 5 && op[1..].iter().all(|&v| (0..16).contains(&v))),
                    6 => assert!(op.len() == 3 && op[1..].iter().all(|&v| (0..36).contains(&v))),
                    1 | 2 | 4 | 7 => assert!(op.len() == 2 && (1..=16).contains(&op[1])),
                    c => panic!("op code {c}"),
                }
            }
        }
    }
    let share = |c: i128| shares.get(&c).copied().unwrap_or(0) as f64 / ops as f64;
    for (code, want) in [(0, 0.05), (5, 0.05), (3, 0.07), (6, 0.07)] {
        assert!(
            (share(code) - want).abs() < 0.01,
            "op {code}: {:.4}",
            share(code)
        );
    }
    for code in [1, 2, 4, 7] {
        assert!(
            (share(code) - 0.76 / 4.0).abs() < 0.015,
            "op {code}: {:.4}",
            share(code)
        );
    }
    let wall_share = walls as f64 / cells_seen as f64;
    assert!((0.12..0.25).contains(&wall_share), "walls {wall_share}");
}

/// A wrapper of the optimized crate that records the sync-test requests it gets and can
/// change one checksum of its reply.
struct Spy {
    seen: Mutex<Vec<(String, Session)>>,
    /// The label and the frame whose outputs checksum the reply changes.
    tamper: Option<(&'static str, usize)>,
}

impl Implementation for Spy {
    fn name(&self) -> &str {
        "spy"
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
    fn run_synctest_as(
        &self,
        label: &str,
        session: &Session,
    ) -> Result<SyncReply, onepath_conformance::error::HarnessError> {
        self.seen
            .lock()
            .unwrap()
            .push((label.to_string(), session.clone()));
        let mut r = OptimizedCrate.run_synctest(session)?;
        if let (Some((l, frame)), SyncReply::Ran(run)) = (self.tamper, &mut r) {
            if l != label {
                return Ok(r);
            }
            let c = &mut run.checksums[frame][MEMBERS];
            *c = if c.starts_with('0') {
                c.replacen('0', "1", 1)
            } else {
                format!("0{}", &c[1..])
            };
        }
        Ok(r)
    }
}

// pins [CONF.SYNC.SECTION]: the section runs the seed's 1,000-frame session labelled synctest#SEED,
// one check for the reference and one per implementation, and names a changed checksum's frame
#[test]
fn the_section_judges_each_implementation_on_the_seeds_session() {
    use onepath_conformance::synctest::vectors::{section, SECTION_FRAMES};
    assert_eq!(SECTION_FRAMES, 1000);
    for tamper in [false, true] {
        let spy = Spy {
            seen: Mutex::new(Vec::new()),
            tamper: tamper.then_some(("synctest#5", 500)),
        };
        let s = section(&[&ReferenceCrate, &spy], 5, SECTION_FRAMES);
        assert_eq!(s.name, "synctest");
        assert_eq!(s.checks, 2, "the reference against itself, then the spy");
        let seen = spy.seen.lock().unwrap();
        assert_eq!(seen.len(), 1);
        assert_eq!(seen[0].0, "synctest#5");
        assert!(
            seen[0].1 == generate::session(5, 1000),
            "the seed's session of 1,000 frames"
        );
        if tamper {
            assert_eq!(s.failed, 1);
            let f = &s.failures[0];
            assert_eq!(
                (f.vector.as_deref(), f.implementation.as_str()),
                (Some("synctest#5"), "spy")
            );
            assert!(f.found.contains("frame 500, outputs"), "{}", f.found);
        } else {
            assert_eq!(s.failed, 0, "{:?}", s.failures);
        }
    }
}

// pins [CONF.SYNC.VECTOR]: the 63 listed vectors with their results' classes, and the vectors
// section failing an edited committed result as the vector and a changed checksum as the
// implementation
#[test]
fn the_sync_vectors_are_the_listed_sessions_and_judge_every_run() {
    use onepath_conformance::config::Shard;
    use onepath_conformance::synctest::vectors::{certify, read_dir};
    use onepath_conformance::Section;
    let vectors = read_dir(&dir()).unwrap();
    let ids: Vec<String> = vectors.iter().map(|v| v.id.clone()).collect();
    let want: Vec<String> = (1..=63).map(|n| format!("SYNC-{n:04}")).collect();
    assert_eq!(ids, want);
    for (i, v) in vectors.iter().enumerate() {
        let n = i + 1;
        let class = match &v.case.expected {
            SyncReply::Failed(t) => t.split(':').next().unwrap().to_string(),
            SyncReply::Ran(r) => {
                assert_eq!(r.checksums.len(), v.case.session.inputs.len(), "{}", v.id);
                assert_eq!(r.mismatch, None, "{}", v.id);
                "ran".to_string()
            }
        };
        let want = match n {
            6..=16 | 25..=47 | 51..=56 | 58..=63 => "bad_op",
            17 => "invalid_multiplier",
            18 => "area_out_of_range",
            19 => "invalid_size",
            20 => "invalid_weight",
            48 | 49 => "build",
            _ => "ran",
        };
        assert_eq!(class, want, "{}", v.id);
        let frames = match n {
            1..=3 => 240,
            5 => 120,
            21 | 50 => 60,
            22..=24 => 40,
            _ => 0,
        };
        if frames > 0 {
            assert_eq!(v.case.session.inputs.len(), frames, "{}", v.id);
        }
    }
    let modes: Vec<_> = vectors[..2]
        .iter()
        .map(|v| v.case.session.replanner.mode)
        .collect();
    assert_ne!(
        modes[0], modes[1],
        "SYNC-0001 and SYNC-0002: one per replanner mode"
    );
    assert!(vectors[..2]
        .iter()
        .all(|v| v.case.session.containers.is_empty()));
    let section = |d: &Path, imps: &[&dyn Implementation]| {
        let (mut once, mut s) = (Section::new("vectors"), Section::new("vectors"));
        certify(d, imps, Shard::ALL, &mut once, &mut s);
        (once, s)
    };
    let (once, s) = section(&dir(), &[&ReferenceCrate, &OptimizedCrate]);
    assert_eq!((once.failed, s.failed), (0, 0), "{:?}", s.failures.first());
    assert_eq!(
        s.checks,
        63 * 3,
        "the run of record, then each implementation"
    );
    let spy = Spy {
        seen: Mutex::new(Vec::new()),
        tamper: Some(("SYNC-0003", 100)),
    };
    let (_, s) = section(&dir(), &[&ReferenceCrate, &spy]);
    assert_eq!(s.failed, 1, "{:?}", s.failures);
    let f = &s.failures[0];
    assert_eq!(
        (f.vector.as_deref(), f.implementation.as_str()),
        (Some("SYNC-0003"), "spy")
    );
    assert!(f.found.contains("frame 100, outputs"), "{}", f.found);
    assert_eq!(
        spy.seen.lock().unwrap().len(),
        63,
        "every vector, labelled by its id"
    );
    // A committed result whose digest does not follow from its checksums fails as the vector.
    let tmp = std::env::temp_dir().join(format!("onepath-pinned-sync-{}", std::process::id()));
    std::fs::create_dir_all(tmp.join("world")).unwrap();
    let text = std::fs::read_to_string(dir().join("world/SYNC-0001.json")).unwrap();
    let SyncReply::Ran(r) = &vectors[0].case.expected else {
        unreachable!()
    };
    assert_eq!(text.matches(&r.resim_digest).count(), 1);
    let edited = text.replace(&r.resim_digest, &"0".repeat(64));
    std::fs::write(tmp.join("world/SYNC-0001.json"), edited).unwrap();
    let (once, s) = section(&tmp, &[&ReferenceCrate]);
    std::fs::remove_dir_all(&tmp).ok();
    assert_eq!(once.failed, 0);
    assert_eq!(s.checks, 2);
    assert_eq!(s.failed, 1, "{:?}", s.failures);
    assert_eq!(
        (
            s.failures[0].vector.as_deref(),
            s.failures[0].implementation.as_str()
        ),
        (Some("SYNC-0001"), "vector")
    );
}

// pins [GS.JUMP.HOP]: a diagonal jump of k = 7..=12 cells is one hop, so both crates' jump searches
// cost k * SQRT_2 rounded once, not SQRT_2 added k times; a hop priced step by step fails
#[test]
fn a_hop_costs_its_octile_pairs_value() {
    const S2: f64 = std::f64::consts::SQRT_2;
    for k in 7..=12usize {
        let pair = k as f64 * S2;
        let stepwise = (0..k).fold(0.0, |a, _| a + S2);
        assert_ne!(
            pair.to_bits(),
            stepwise.to_bits(),
            "k = {k} tells them apart"
        );
        {
            use onepath_reference::*;
            let g = Grid::new(k + 1, k + 1).unwrap();
            let o = GridOptions {
                algorithm: GridAlgorithm::Jps,
                ..GridOptions::default()
            };
            let mut j = JumpSearch::new(&g, o.clone()).unwrap();
            j.begin((0, 0), (k, k)).unwrap();
            assert_eq!(j.run(None), SearchStatus::Found);
            assert_eq!(
                j.path_cost().to_bits(),
                pair.to_bits(),
                "reference, k = {k}"
            );
            let mut h = GridSearch::new(&g, o).unwrap();
            h.begin((0, 0), (k, k)).unwrap();
            assert_eq!(h.run(None), SearchStatus::Found);
            assert_eq!(
                h.path_cost().to_bits(),
                pair.to_bits(),
                "reference handle, k = {k}"
            );
        }
        {
            use onepath::*;
            let g = Grid::new(k + 1, k + 1).unwrap();
            let o = GridOptions {
                algorithm: GridAlgorithm::Jps,
                ..GridOptions::default()
            };
            let mut j = JumpSearch::new(&g, o.clone()).unwrap();
            j.begin((0, 0), (k, k)).unwrap();
            assert_eq!(j.run(None), SearchStatus::Found);
            assert_eq!(j.path_cost().to_bits(), pair.to_bits(), "onepath, k = {k}");
            let mut h = GridSearch::new(&g, o).unwrap();
            h.begin((0, 0), (k, k)).unwrap();
            assert_eq!(h.run(None), SearchStatus::Found);
            assert_eq!(
                h.path_cost().to_bits(),
                pair.to_bits(),
                "onepath handle, k = {k}"
            );
        }
    }
}
