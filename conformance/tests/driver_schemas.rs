//! [DRIVER.SCHEMA]: the published JSON Schemas of driver protocol 2 are the generated ones, and
//! they validate every message of a whole port run in both directions (the Python driver's
//! handshake and replies, the kit's handshake and requests), each `ok` payload against its op's
//! schema. The schemas are not vacuous: damaged messages fail them.

mod tools;

use onepath_conformance::port::schemas;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

fn validators() -> BTreeMap<String, jsonschema::Validator> {
    schemas::all()
        .into_iter()
        .map(|(name, s)| {
            let v = jsonschema::validator_for(&s)
                .unwrap_or_else(|e| panic!("{name} is not a valid schema: {e}"));
            (name, v)
        })
        .collect()
}

fn check(
    v: &BTreeMap<String, jsonschema::Validator>,
    schema: &str,
    msg: &Value,
) -> Result<(), String> {
    let errors: Vec<String> = v[schema]
        .iter_errors(msg)
        .take(3)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        let text = msg.to_string();
        Err(format!(
            "{schema}: {errors:?} in {}",
            &text[..text.len().min(300)]
        ))
    }
}

// pins [DRIVER.SCHEMA]: the committed driver-v2 schemas must equal the generated ones, and the
// check must name a missing, a stale and an unexpected file; a stale schema or a check that misses
// one fails
#[test]
fn committed_schemas_are_the_generated_ones() {
    let dir = repo().join(schemas::SCHEMA_DIR);
    assert_eq!(
        schemas::check(&dir),
        vec![],
        "run `onepath-conformance schemas`"
    );
    // A stale file is named.
    let tmp = std::env::temp_dir().join(format!("onepath-schemas-{}", std::process::id()));
    schemas::write(&tmp).unwrap();
    std::fs::write(tmp.join("reply.json"), "{}\n").unwrap();
    std::fs::write(tmp.join("extra.json"), "{}\n").unwrap();
    std::fs::remove_file(tmp.join("hello.json")).unwrap();
    let problems: Vec<(String, &str)> = schemas::check(&tmp)
        .into_iter()
        .map(|s| (s.file, s.problem))
        .collect();
    assert_eq!(
        problems,
        [
            ("hello.json".to_string(), "missing"),
            ("reply.json".to_string(), "stale"),
            ("extra.json".to_string(), "unexpected"),
        ]
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

// pins [DRIVER.PROC.LINES]: every line the kit writes to a driver in a whole run is read back as
// one JSON object per line and checked against the schemas; a split, unterminated or non-object
// line fails
// pins [DRIVER.OP.RUN_CASE]: the kit's run_case requests and the Python port's replies are checked
// against the op's schemas in a passing run; a kit or port whose args or outcomes[variant][query]
// take another form fails
// pins [DRIVER.OP.RUN_SLICED]: the kit's run_sliced requests (case, variant, query, budgets) and
// the Python port's {outcome} replies are checked against the op's schemas in a passing run;
// another form fails
// pins [DRIVER.OP.RUN_HOOKED]: the kit's run_hooked requests (algorithm, landmarks, hooks C/H
// rules, query, opts) and the Python port's {outcome, calls} replies are checked against the op's
// schemas in a passing run
// pins [DRIVER.OP.RUN_CANCELLED]: the kit's run_cancelled requests and the Python port's {before,
// cancelled, cancelled_again, resumed} or {failure} replies are checked against the op's schemas in
// a passing run
// pins [DRIVER.OP.RUN_OPS]: the kit's run_ops scripts (every op form O) and the Python port's
// results ({value: DEC} or {failure}) are checked against the op's schemas in a passing run;
// another form fails
// pins [DRIVER.OP.LANDMARKS]: the kit's build_landmarks, lower_bounds and deserialize_oplm requests
// and the Python port's {oplm}/{bounds}/{rejected}/{failure} replies are checked against each op's
// schema in a passing run
// pins [DRIVER.OP.RUN_GRID]: the kit's run_grid requests (map, options, api, start, goal, schedule,
// snapshot_after) and the Python port's {failure} or full replies are checked against the op's
// schemas in a passing run
#[test]
fn every_message_of_a_port_run_matches_the_schemas() {
    tools::require_python3();
    let v = validators();
    let dir = std::env::temp_dir().join(format!("onepath-driver-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let driver = repo().join("conformance/ports/python/driver.py");
    // Each driver process logs what it was sent and what it answered to files named by the pid
    // of its shell (`$$`), so the two logs of one process hold whole lines in order while two
    // processes share the run.
    let command = format!(
        "tee -a '{dir}'/$$.in | python3 '{}' | tee -a '{dir}'/$$.out",
        driver.display(),
        dir = dir.display(),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args([
            "certify",
            "--port",
            &command,
            // One generated case per family: every op and reply shape is sent by the vectors
            // and that case; more cases repeat the same shapes.
            "--port-cases",
            "1",
            "--threads",
            "2",
            "--timeout",
            "60",
        ])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{table}{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let read = |p: &Path| -> Vec<Value> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:.200}")))
            .collect()
    };
    let mut logs: Vec<(Vec<Value>, Vec<Value>)> = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "in") {
            logs.push((read(&path), read(&path.with_extension("out"))));
        }
    }
    assert!(!logs.is_empty(), "no driver logged anything");
    let mut problems = Vec::new();
    let mut hellos = (0, 0);
    let (mut sent_total, mut got_total) = (0, 0);
    let mut answered: BTreeSet<String> = BTreeSet::new();
    for (sent, got) in &logs {
        sent_total += sent.len();
        got_total += got.len();
        let mut ops: BTreeMap<u64, String> = BTreeMap::new();
        for m in sent {
            if m.get("protocol").is_some() {
                hellos.0 += 1;
                problems.extend(check(&v, "hello.json", m).err());
            } else {
                problems.extend(check(&v, "request.json", m).err());
                ops.insert(
                    m["id"].as_u64().unwrap(),
                    m["op"].as_str().unwrap().to_string(),
                );
            }
        }
        for m in got {
            if m.get("protocol").is_some() {
                hellos.1 += 1;
                problems.extend(check(&v, "hello-reply.json", m).err());
                continue;
            }
            problems.extend(check(&v, "reply.json", m).err());
            let op = &ops[&m["id"].as_u64().unwrap()];
            if let Some(ok) = m.get("ok") {
                problems.extend(check(&v, &format!("ok-{op}.json"), ok).err());
                answered.insert(op.clone());
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems, first: {:#?}",
        problems.len(),
        &problems[..problems.len().min(5)]
    );
    assert!(hellos.0 >= 1 && hellos.0 == hellos.1, "{hellos:?}");
    // Every op of the protocol was exercised and answered.
    let all_ops: BTreeSet<String> = schemas::all()
        .into_iter()
        .filter_map(|(n, _)| {
            n.strip_prefix("ok-")
                .map(|o| o.trim_end_matches(".json").to_string())
        })
        .collect();
    assert_eq!(answered, all_ops);
    assert!(
        got_total > 1000 && got_total == sent_total,
        "{got_total} replies for {sent_total} requests"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_messages_fail_the_schemas() {
    let v = validators();
    let ok = |s: &str, m: Value| {
        if let Err(e) = check(&v, s, &m) {
            panic!("{e}")
        }
    };
    let bad = |s: &str, m: Value| assert!(check(&v, s, &m).is_err(), "{s} accepted {m}");
    ok(
        "reply.json",
        serde_json::json!({"id": 3, "unimplemented": true}),
    );
    bad(
        "reply.json",
        serde_json::json!({"id": 3, "unimplemented": false}),
    );
    bad(
        "reply.json",
        serde_json::json!({"id": 3, "ok": {}, "extra": 1}),
    );
    bad("reply.json", serde_json::json!({"ok": {}}));
    ok(
        "ok-run_sliced.json",
        serde_json::json!({"outcome": "0203006e6f"}),
    );
    bad(
        "ok-run_sliced.json",
        serde_json::json!({"outcome": "0203006E6F"}),
    );
    bad(
        "ok-run_sliced.json",
        serde_json::json!({"outcome": "0203006e6f", "x": 1}),
    );
    ok(
        "ok-lower_bounds.json",
        serde_json::json!({"bounds": ["3ff8000000000000"]}),
    );
    bad("ok-lower_bounds.json", serde_json::json!({"bounds": [1.5]}));
    ok(
        "ok-state_run.json",
        serde_json::json!({"before": "", "restore": {"ok": true}, "after": "00", "cells": [], "search": null}),
    );
    bad(
        "ok-state_run.json",
        serde_json::json!({"before": "", "restore": {"ok": true}, "after": "00", "cells": []}),
    );
    ok(
        "ok-run_grid.json",
        serde_json::json!({"failure": "invalid_options"}),
    );
    ok(
        "ok-run_hooked.json",
        serde_json::json!({"outcome": "0203006e6f", "calls": [["edge_cost", 1, 2, "3ff0000000000000"], ["blocked", 4], ["heuristic", 1, 2]]}),
    );
    bad(
        "ok-run_hooked.json",
        serde_json::json!({"outcome": "0203006e6f", "calls": [["blocked", 4, 5]]}),
    );
    bad(
        "hello-reply.json",
        serde_json::json!({"protocol": "onepath-driver", "version": 2, "port": "p", "port_version": "0", "spec_version": "1.1.0", "claims": {"graph": 5}}),
    );
    bad(
        "hello-reply.json",
        serde_json::json!({"protocol": "onepath-driver", "version": 2, "port": "p", "port_version": "0", "spec_version": "1.1.0", "claims": {"graphs": 4}}),
    );
}
