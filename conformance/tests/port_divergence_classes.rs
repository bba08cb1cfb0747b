//! The first divergence ([DRIVER.LEVEL.FIRST]) for every reply class the other diagnostics
//! tests (`port_diagnostics.rs`: `run_lattice`, `state_run`, `run_case`) leave out, the graph
//! family's ops included (`run_sliced`, `build_links`, `run_hooked`, `run_cancelled`, `run_ops`,
//! `build_landmarks`, `lower_bounds`, `deserialize_oplm`): a wrapper
//! over the Python port (`alter_reply.py`) alters one member of one op's `ok` replies, and the
//! family's first divergence must name that member (by its path in the reply, or for bytes by
//! offset and state-layout field). One table row per reply class, one runner.

mod tools;

use onepath_conformance::config::FamilySet;
use onepath_conformance::port::run::{certify_port, PortOptions, PortRun};
use std::time::Duration;

const DRIVER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python");
const ALTER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/alter_reply.py");

/// One reply class: the op whose replies are altered, the member and how, the family the run
/// selects, and what the first divergence must contain.
struct Row {
    op: &'static str,
    path: &'static str,
    how: &'static str,
    family: &'static str,
    names: &'static str,
}

/// Certifies the Python port with `op`'s replies altered at `path` by `how`, in `family` only.
fn altered_run(op: &str, path: &str, how: &str, family: &str) -> PortRun {
    tools::require_python3();
    let env = format!("ALTER_OP={op} ALTER_PATH={path} ALTER_HOW={how}");
    let mut o = PortOptions::new(&format!("{env} python3 {ALTER} {DRIVER_DIR}"));
    o.cases = 1;
    // No test of this file is about timeouts; runs may share the machine.
    o.timeout = Duration::from_secs(120);
    o.families = FamilySet::parse(family).expect("family");
    certify_port(o)
}

fn check(row: Row) {
    let r = altered_run(row.op, row.path, row.how, row.family);
    assert!(!r.ok(), "{}: the altered port passed", row.op);
    let f = r
        .families
        .iter()
        .find(|f| f.family == row.family)
        .expect("the family");
    let e = f
        .first_break
        .as_ref()
        .unwrap_or_else(|| panic!("{}: no difference\n{}", row.op, r.to_table()));
    // The first divergence in reply order; a graph op's difference that is already the first
    // in its reply has none besides itself, and then the first difference must name the member.
    let div = match (&e.brk.first, row.family) {
        (Some(first), _) => first.clone(),
        (None, "graph") => e.quote(),
        (None, _) => panic!("{}: no first divergence for {}", row.op, e.quote()),
    };
    assert!(
        div.contains(row.names),
        "{}: the first divergence names {:?}, not {:?} (difference {})",
        row.op,
        row.names,
        div,
        e.quote()
    );
    for rust_form in ["Some(", "None", "Ok(", "Err("] {
        assert!(!div.contains(rust_form), "{}: Rust form in {div}", row.op);
    }
}

// pins [DRIVER.LEVEL.FIRST]: a grid reply's recorded expansion is named by its variant, query and step
#[test]
fn run_grid_expansion() {
    check(Row {
        op: "run_grid",
        path: "expansions/2",
        how: "inc",
        family: "grid-search",
        names: "expansion step 2: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a replanner's final state is named by byte offset and layout field
#[test]
fn run_replan_final_state() {
    check(Row {
        op: "run_replan",
        path: "ran/state",
        how: "flip:20",
        family: "replanning",
        names: "ran.state: bytes offset 20, field area_version: expected byte ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a flow field's cost is named by its member and index
#[test]
fn run_flow_cost() {
    check(Row {
        op: "run_flow",
        path: "ran/costs/3",
        how: "flip:7:1",
        family: "flow-field",
        names: "ran.costs[3]: bytes offset 7: expected byte ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: an HPA* hierarchy edge is named by its member path
#[test]
fn run_hpa_hierarchy_edge() {
    check(Row {
        op: "run_hpa",
        path: "ran/hierarchy/edges/0/to",
        how: "inc",
        family: "hpa",
        names: "ran.hierarchy.edges[0].to: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a bidirectional search's expansion is named by its member path
#[test]
fn run_bidi_expansion() {
    check(Row {
        op: "run_bidi",
        path: "ran/queries/0/path/expanded/1",
        how: "inc",
        family: "grid-bidi",
        names: "ran.queries[0].path.expanded[1]: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a description's counter is named by its member path
#[test]
fn describe_counter() {
    check(Row {
        op: "describe",
        path: "ran/0/path/iterations",
        how: "inc",
        family: "hex-search",
        names: "ran[0].path.iterations: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST] [DRIVER.LEVEL.FAMILY]: a sync test's wrong resimulation count breaks grids L4 and is named by its member path
#[test]
fn synctest_resimulated() {
    check(Row {
        op: "synctest",
        path: "ran/resimulated",
        how: "inc",
        family: "grids",
        names: "ran.resimulated: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST] [GRAPH.OPLM.LAYOUT]: a landmark table's byte is named by offset and OPLM field
// (this reply once crashed the kit: its hostile OPLM bytes were cut from the port's own table)
#[test]
fn build_landmarks_oplm_byte() {
    check(Row {
        op: "build_landmarks",
        path: "oplm",
        how: "flip:10",
        family: "graph",
        names: "OPLM bytes offset 10, field node_count: expected byte 0x",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a re-serialized table's byte is named by offset and OPLM field
#[test]
fn deserialize_oplm_byte() {
    check(Row {
        op: "deserialize_oplm",
        path: "oplm",
        how: "flip:28:1",
        family: "graph",
        names: "re-serialized OPLM offset 28, field ids[1]: expected byte 0x",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a lower bound is named by its index
#[test]
fn lower_bounds_entry() {
    check(Row {
        op: "lower_bounds",
        path: "bounds/3",
        how: "flip:7:1",
        family: "graph",
        names: "lower bound 3: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a graph script's result is named by its operation index
#[test]
fn run_ops_value() {
    check(Row {
        op: "run_ops",
        path: "results/1/value",
        how: "flip:0:1",
        family: "graph",
        names: "operation 1 value: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a sliced search's counter is named
#[test]
fn run_sliced_counter() {
    check(Row {
        op: "run_sliced",
        path: "outcome",
        how: "flip:12",
        family: "graph",
        names: "iterations: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a cancel trace is named by its member, the status in words
#[test]
fn run_cancelled_trace() {
    check(Row {
        op: "run_cancelled",
        path: "before/1",
        how: "inc",
        family: "graph",
        names: "cancel trace before: expected status 1 (running), iterations ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a hook log is named by its call index, the hooks in wire terms
#[test]
fn run_hooked_call() {
    check(Row {
        op: "run_hooked",
        path: "calls/0/1",
        how: "inc",
        family: "graph",
        names: "hook call 0: expected ",
    });
}

// pins [DRIVER.LEVEL.FIRST]: a link_valid log is named by its call index, the pair as JSON
#[test]
fn build_links_call() {
    check(Row {
        op: "build_links",
        path: "calls/0/0",
        how: "inc",
        family: "graph",
        names: "link_valid call 0: expected [",
    });
}

/// [DRIVER.OP.BUILD_LINKS]: a links encoding whose node count is not the request's point count
/// is a malformed reply naming both (the count was read past and never compared).
// pins [DRIVER.OP.BUILD_LINKS]: a kit that reads a build_links encoding whose node count is not the
// request's number of points as links, instead of a malformed reply, fails
#[test]
fn build_links_node_count_is_malformed() {
    let r = altered_run("build_links", "edges", "flip:0:1", "graph");
    assert!(!r.ok(), "the altered port passed");
    let p = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "protocol")
        .expect("protocol section");
    assert!(
        p.failures
            .iter()
            .any(|f| f.found.contains("links encoding node count")
                || f.what.contains("links encoding node count")),
        "{:?}",
        p.failures.iter().take(3).collect::<Vec<_>>()
    );
}
