//! [DRIVER.OP.STATE], [CONF.STATE.KIND_MISSING], [CONF.CLI.FAMILY]: a port that answers
//! `unimplemented` for the state kinds it lacks is judged in the kinds it has. The state
//! section's API probe used a graph recipe whenever the graph family was selected, so a port
//! without graph state lost the whole section (issue 34). Here the Python port, through
//! `lack_state_kinds.py`, lacks the graph kinds (4, 11) and answers only `state_run`, with the
//! graph family selected: the section must still run the replanner kinds and report only the
//! missing graph kinds.

mod tools;

use std::process::Command;

// pins [CONF.STATE.KIND_MISSING]: a state section that drops a port answering the graph probe
// unimplemented, or fails each vector of a missing kind, fails the state-API and per-kind
// assertions here
#[test]
fn a_port_without_graph_state_is_judged_in_the_kinds_it_has() {
    tools::require_python3();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let port = format!(
        "python3 {} {}",
        root.join("tests/lack_state_kinds.py").display(),
        root.join("ports/python").display()
    );
    let out = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args([
            "certify",
            "--json",
            "--port",
            &port,
            "--family",
            "graph,replanning",
        ])
        .args([
            "--port-cases",
            "1",
            "--vectors",
            root.join("../vectors").to_str().unwrap(),
        ])
        .env("LACK_KINDS", "graph,graph_astar")
        .env("LACK_CODES", "4,11")
        .env("ONLY_OPS", "state_run")
        .env("ONEPATH_PY_CLAIMS", "replanning=4")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let state = v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "state")
        .expect("a state section");
    let whats: Vec<&str> = state["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["what"].as_str().unwrap())
        .collect();
    assert!(
        !whats.iter().any(|w| w.contains("state API")),
        "the port was dropped from the state section: {whats:?}"
    );
    assert!(whats.contains(&"state kind 4 (Graph)"), "{whats:?}");
    assert!(whats.contains(&"state kind 11 (GraphAStar)"), "{whats:?}");
    assert!(
        !whats
            .iter()
            .any(|w| w.contains("kind 5") || w.contains("kind 6")),
        "{whats:?}"
    );
    // The replanner vectors, their hostile cases and the random cases ran.
    let checks = state["checks"].as_u64().unwrap();
    assert!(checks > 1000, "{checks} state checks");
}
