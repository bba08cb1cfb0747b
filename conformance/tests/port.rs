//! `certify --port` ([DRIVER.*]): the Python port certifies at L4 for every family, each
//! defect switch fails at the expected level naming the vector or first differing step, and a
//! driver that crashes, hangs or sends garbage is reported per case while the run goes on.

mod tools;

use onepath_conformance::expectations::Expectations;
use onepath_conformance::levels::Level;
use onepath_conformance::port::run::{certify_port, PortOptions, PortRun};
use onepath_conformance::report_junit::check_well_formed;
use std::time::Duration;

const CASES: usize = 20;

/// Port runs share the machine with at most one other (the test harness runs two tests at a time
/// on two cores): a run waits on its driver for much of its time, so two overlap well, and the
/// per-request timeout of a Python run ([`PY_TIMEOUT`]) leaves room for that. The run that tests
/// timeouts with a 1 s limit takes the machine alone.
static RUNS: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// The per-request timeout of runs whose driver answers every request (no test here is about it).
const PY_TIMEOUT: f64 = 60.0;

fn shared() -> std::sync::RwLockReadGuard<'static, ()> {
    RUNS.read().unwrap_or_else(|e| e.into_inner())
}

fn python(defect: Option<&str>) -> String {
    tools::require_python3();
    let driver = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python/driver.py");
    match defect {
        Some(d) => format!("ONEPATH_PY_DEFECT={d} python3 {driver}"),
        None => format!("python3 {driver}"),
    }
}

fn fake(mode: &str) -> String {
    tools::require_python3();
    format!(
        "FAKE_MODE={mode} python3 {}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_driver.py")
    )
}

/// A run of the fake driver, which claims `graph` only, restricted to `families`
/// ([CONF.CLI.FAMILY]): the fake answers every other family's requests through the Python port,
/// so a run of all nine families would spend most of its time on families no assertion reads.
fn run(command: &str, timeout: f64, cases: usize, families: &str) -> PortRun {
    let _guard = shared();
    run_unlocked(command, timeout, cases, families)
}

fn run_unlocked(command: &str, timeout: f64, cases: usize, families: &str) -> PortRun {
    let mut o = PortOptions::new(command);
    o.cases = cases;
    o.timeout = Duration::from_secs_f64(timeout);
    o.families = onepath_conformance::config::FamilySet::parse(families).expect("families");
    certify_port(o)
}

/// A run of the named claim families only ([CONF.CLI.FAMILY]): a defect test certifies the
/// family its defect is in and one or two others that must stay at L4, not all nine (the one
/// every-family run is [`python_port_reaches_l4_for_every_family`]).
fn run_in(command: &str, cases: usize, families: &str) -> PortRun {
    let _guard = shared();
    let mut o = PortOptions::new(command);
    o.cases = cases;
    o.timeout = Duration::from_secs_f64(PY_TIMEOUT);
    o.families = onepath_conformance::config::FamilySet::parse(families).expect("families");
    certify_port(o)
}

fn graph(r: &PortRun) -> &onepath_conformance::port::run::FamilyResult {
    r.families
        .iter()
        .find(|f| f.family == "graph")
        .expect("graph family")
}

fn family<'a>(r: &'a PortRun, name: &str) -> &'a onepath_conformance::port::run::FamilyResult {
    r.families
        .iter()
        .find(|f| f.family == name)
        .unwrap_or_else(|| panic!("no family {name}: {}", r.to_table()))
}

// pins [CONF.FAMILY.VECTORS]: the JUnit vectors suite of a passing port run must hold one passing
// case for every listed vector of every family; a family whose vectors are not listed leaves ids
// missing
// pins [CONF.GRID.REQUEST]: the kit's adapter that saves at another call, skips from_state,
// restores into the old search or cycles budgets otherwise replies other snapshot or final bytes
// than the Python port
// pins [CONF.REPLAN.REQUEST]: a kit adapter that builds the grid in another order, ignores
// hex_layout or swaps start and goal replies unlike the Python port, which builds them as the
// clause says
// pins [CONF.REPLAN.SCRIPT]: a kit adapter that runs replan_until_done with budget 0, rolls back
// the replanner before the grid or restores onto the request's grid replies unlike the Python port
// pins [CONF.FLOW.REQUEST]: a kit adapter that builds the grid in another order, sorts or dedups
// the goals or ignores hex_layout replies unlike the Python port
// pins [CONF.FLOW.SCRIPT]: a kit adapter that runs step_until_done with budget 0, rolls back the
// field before the grid, or restores the field on rollback_grid replies unlike the Python port
// pins [DRIVER.CERT]: a passing port without a certificate, or one whose levels, date or manifest
// hash are not the clause's, fails (only-for-passing is not asserted here)
#[test]
fn python_port_reaches_l4_for_every_family() {
    let r = {
        let _guard = shared();
        let mut o = PortOptions::new(&python(None));
        o.cases = CASES;
        o.timeout = Duration::from_secs_f64(PY_TIMEOUT);
        certify_port(o)
    };
    let table = r.to_table();
    for fam in [
        "graph",
        "grids",
        "grid-search",
        "replanning",
        "flow-field",
        "hex-search",
        "voxel-search",
    ] {
        assert_eq!(family(&r, fam).reached, Level::L4, "{fam}: {table}");
        assert_eq!(family(&r, fam).claimed, Some(Level::L4), "{fam}: {table}");
    }
    assert!(r.ok(), "{table}");
    assert!(graph(&r).answered > 1000);
    assert!(family(&r, "grid-search").answered > 100, "{table}");
    // Every flow-field vector, the STATE-FLOWFIELD goldens and their hostile cases went through
    // run_flow and state_run.
    assert!(family(&r, "flow-field").answered > 2000, "{table}");
    let section = |n: &str| {
        r.report
            .sections
            .iter()
            .find(|s| s.name == n)
            .unwrap_or_else(|| panic!("no section {n}"))
    };
    for name in [
        "oracle",
        "differential",
        "landmarks",
        "sliced",
        "links",
        "hooks",
        "cancel",
        "errors",
        "state",
        "grid-search",
        "movingai",
        "protocol",
        "consumed",
    ] {
        assert!(
            section(name).checks > 0 && section(name).failed == 0,
            "{name}: {table}"
        );
    }
    assert!(section("vectors").checks > 0, "{table}");
    assert_eq!(section("vectors").failed, 0, "{table}");
    // The port answers every op: nothing is unimplemented.
    assert_eq!(section("unimplemented").failed, 0, "{table}");
    // [DRIVER.CONSUMED] covers the graph vectors, the golden state vectors of every claimed
    // family and the grid vectors: every one of them went through the driver.
    let count = |dir: &str, prefix: &str| {
        std::fs::read_dir(format!("{}/../vectors/{dir}", env!("CARGO_MANIFEST_DIR")))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(prefix)
            })
            .count() as u64
    };
    let (graphs, states, grids, replans, flows) = (
        count("graphs", "GRAPH-"),
        count("state", "STATE-"),
        count("grids", "GRID-"),
        count("replanning", "REPLAN-"),
        count("flow-field", "FLOW-"),
    );
    let (hexes, voxels) = (count("hex-search", "HEX-"), count("voxel-search", "VOXEL-"));
    let (hpas, bidis) = (count("hpa", "HPA-"), count("grid-bidi", "BIDI-"));
    let debugs = count("debug", "DEBUG-");
    let syncs = count("world", "SYNC-");
    assert!(syncs > 0);
    assert!(grids > 0 && states > 0 && graphs > 0 && replans > 0 && flows > 0);
    assert!(hexes > 0 && voxels > 0 && hpas > 0 && bidis > 0 && debugs > 0);
    assert_eq!(
        section("consumed").checks,
        graphs + states + grids + replans + flows + hexes + voxels + hpas + bidis + debugs + syncs,
        "every graph, state, grid, replanning, flow-field, hex, voxel, hpa, grid-bidi, description and sync-test vector is consumed: {table}"
    );
    for name in [
        "hex-search",
        "voxel-search",
        "hpa",
        "grid-bidi",
        "describe",
        "synctest",
    ] {
        assert!(
            section(name).checks > 0 && section(name).failed == 0,
            "{name}: {table}"
        );
    }
    // Reports: JSON member, JUnit, certificate.
    let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(v["schema"], "onepath.certify-report");
    assert_eq!(v["ok"], true);
    assert_eq!(v["port"]["handshake"]["port"], "onepath_py");
    assert!(v["port"]["families"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["family"] == "graph" && f["reached"] == "L4"));
    let xml = r.to_junit();
    check_well_formed(&xml).unwrap();
    assert!(xml.contains("name=\"GRAPH-0001\""));
    // [CONF.FAMILY.VECTORS]: the vectors suite has one passing case per vector of every family.
    let refs = onepath_conformance::family::vector_refs(
        &onepath_conformance::checks::default_vectors_dir(),
    );
    assert!(refs.iter().any(|v| v.id.starts_with("GRID-")));
    assert!(refs.iter().any(|v| v.id.starts_with("STATE-")));
    for v in &refs {
        let case = format!(
            "<testcase classname=\"onepath.vectors\" name=\"{}\"/>",
            v.id
        );
        assert!(
            xml.contains(&case),
            "{} is not a passing JUnit case:\n{xml}",
            v.id
        );
    }
    let cert: serde_json::Value = serde_json::from_str(
        &r.certificate("2026-01-02")
            .expect("a passing port gets a certificate"),
    )
    .unwrap();
    for fam in [
        "graph",
        "grids",
        "grid-search",
        "replanning",
        "flow-field",
        "hex-search",
        "voxel-search",
    ] {
        assert_eq!(cert["levels"][fam], "L4");
    }
    assert_eq!(cert["date"], "2026-01-02");
    assert_eq!(cert["vectors_manifest_sha256"].as_str().unwrap().len(), 64);
}

// pins [DRIVER.LEVEL.REACHED]: a run whose reached level is not the break's level - 1, whose first
// difference is not a vector, or whose header names another section or op than the quoted
// difference fails
#[test]
fn defect_gtie_fails_l2_with_the_first_differing_step() {
    let r = run_in(&python(Some("gtie")), CASES, "graph");
    let g = graph(&r);
    assert!(!r.ok());
    assert_eq!(g.reached, Level::L1, "{}", r.to_table());
    let b = g.first_break.as_ref().expect("first difference");
    assert_eq!(b.brk.level, Level::L2);
    assert!(
        b.label.starts_with("GRAPH-"),
        "vectors are named first: {b:?}"
    );
    assert!(
        b.variant.is_some() && b.query.is_some() && b.brk.context.is_some(),
        "{b:?}"
    );
    assert!(r.to_table().contains("reaches L1 but not L2"));
    // Header and quoted difference come from one record: the section and op named in the header
    // are those of the quoted vector's request.
    let table = r.to_table();
    let at = table
        .find("graph: reaches L1 but not L2; first difference (")
        .expect("header");
    let mut lines = table[at..].lines();
    let header = lines.next().unwrap();
    let quote = lines.next().unwrap().trim_start();
    assert_eq!(
        header,
        format!(
            "graph: reaches L1 but not L2; first difference ({} section, {}):",
            b.section, b.op
        ),
        "{table}"
    );
    let want = format!(
        "{}{}{}: {}: expected {}, found {}",
        b.label,
        b.variant
            .as_ref()
            .map_or(String::new(), |v| format!(" / {v}")),
        b.query
            .as_ref()
            .map_or(String::new(), |q| format!(" / query {q}")),
        b.brk.what,
        b.brk.expected,
        b.brk.found
    );
    assert_eq!(quote, want, "{table}");
    assert_eq!(
        (b.section.as_str(), b.op.as_str()),
        ("vectors", "run_case"),
        "{table}"
    );
    assert!(
        quote.starts_with("GRAPH-") && !quote.contains("recipe replay"),
        "{table}"
    );
    assert!(r.to_junit().contains(&format!(
        "first difference ({} section, {}):",
        b.section, b.op
    )));
    // Known failures excuse the sections (not the level); with the claim lowered to what the
    // port reaches it would pass: here the claim stays L4, so the verdict still fails.
    assert!(
        r.problems
            .iter()
            .any(|p| p == "graph: claimed L4, reached L1"),
        "{:?}",
        r.problems
    );
}

// pins [CONF.CHECK.GRID_SEARCH]: a port with a flipped grid tie-break must fail the grid-search
// section's comparison with the reference at expansion entry 2; a section without the reply
// comparison passes it
#[test]
fn defect_grid_gtie_is_caught_in_the_grid_search_family_only() {
    let r = run_in(&python(Some("grid_gtie")), CASES, "graph,grids,grid-search");
    let table = r.to_table();
    assert!(!r.ok());
    assert_eq!(graph(&r).reached, Level::L4, "{table}");
    assert_eq!(family(&r, "grids").reached, Level::L4, "{table}");
    let g = family(&r, "grid-search");
    // A flipped tie-break reorders the expansions (L3) of every mode-1 run, and a budgeted
    // tier-1 run then ends BudgetExhausted where the reference found its goal (L1).
    assert_eq!(g.reached, Level::L0, "{table}");
    let b = g.first_break.as_ref().expect("first difference");
    assert_eq!(
        (b.brk.level, b.op.as_str()),
        (Level::L1, "run_grid:grid-search"),
        "{table}"
    );
    assert!(
        b.variant.as_deref().unwrap_or("").contains("/budget"),
        "{b:?}"
    );
    // The same first differences as the deliberately wrong optimized crate of the grid issue.
    let failure = |section: &str| {
        r.report
            .sections
            .iter()
            .find(|s| s.name == section)
            .and_then(|s| s.failures.first())
            .map(|f| f.line())
            .unwrap_or_default()
    };
    assert!(
        failure("grid-search").contains("expansion entry 2: expected cell 291, found cell 336"),
        "{table}"
    );
    assert!(
        failure("vectors").starts_with(
            "GRID-0001 / onepath_py / Tier1/astar/8/none_blocked/a1 / query 0: expansion entry 1"
        ),
        "{table}"
    );
}

/// [DRIVER.PY.DEFECTS] `flow_tie`: the direction rule takes the last of the tied neighbours
/// ([FLOW.DIR.RULE] says the first). The families run beside it stay at L4. In the flow-field family
/// the steps differ at once (a step's field hash: L2, first named by the vectors, FLOW-0001
/// step 0). The repair's invalidation walk follows the steps ([FLOW.REPAIR.START] (2)), so a
/// wrong step changes which cells a later repair touches, hence its settled count and, under a
/// budget, the status a step returns (L1), and the family is left at L0, as a flipped tie-break
/// of grid A* leaves `grid-search`. The first L1 difference in section order is the state
/// section's STATE-FLOWFIELD-0012 (a repair restored with its touched list patched empty, then
/// run on: the wrong steps change where it goes on); the generated script shows the L1 status
/// difference in the flow-field section.
#[test]
fn defect_flow_tie_is_caught_in_the_flow_field_family_only() {
    let r = run_in(&python(Some("flow_tie")), 5, "graph,replanning,flow-field");
    let table = r.to_table();
    assert!(!r.ok());
    for fam in ["graph", "replanning"] {
        assert_eq!(family(&r, fam).reached, Level::L4, "{fam}: {table}");
    }
    let f = family(&r, "flow-field");
    assert_eq!(f.reached, Level::L0, "{table}");
    let b = f.first_break.as_ref().expect("first difference");
    assert_eq!(
        (b.brk.level, b.section.as_str(), b.op.as_str()),
        (Level::L1, "state", "state_run:flow-field"),
        "{table}"
    );
    assert_eq!(b.label, "STATE-FLOWFIELD-0012", "{b:?}");
    assert!(
        b.brk.what.contains("status"),
        "the differing field is named: {b:?}"
    );
    let first = |section: &str| {
        r.report
            .sections
            .iter()
            .find(|s| s.name == section)
            .and_then(|s| s.failures.first())
            .map(|f| f.line())
            .unwrap_or_default()
    };
    // The generated script's difference is named with its step.
    let script = first("flow-field");
    assert!(
        script.starts_with("flow#") && script.contains("step "),
        "the first differing step is named: {script}\n{table}"
    );
    let v = first("vectors");
    assert!(
        v.starts_with("FLOW-0001 / onepath_py: flow reply") && v.contains("step 0: field_sha256"),
        "the first differing vector and step: {v}\n{table}"
    );
    assert!(
        r.problems
            .iter()
            .any(|p| p == "flow-field: claimed L4, reached L0"),
        "{:?}",
        r.problems
    );
}

/// [DRIVER.PY.DEFECTS] [CONF.DEBUG.LEVEL] `describe_kinds`: every replanner description swaps
/// settle and reset. The replanner's own results are right, so only its descriptions differ:
/// `replanning` reaches L2 (an expansion kind is an L3 difference, named with its vector, entry
/// and index), the families run beside it stay at L4.
#[test]
fn defect_describe_kinds_is_caught_in_the_replanning_descriptions_only() {
    let r = run_in(&python(Some("describe_kinds")), 5, "graph,hpa,replanning");
    let table = r.to_table();
    assert!(!r.ok());
    for fam in ["graph", "hpa"] {
        assert_eq!(family(&r, fam).reached, Level::L4, "{fam}: {table}");
    }
    let f = family(&r, "replanning");
    assert_eq!(f.reached, Level::L2, "{table}");
    let b = f.first_break.as_ref().expect("first difference");
    assert_eq!(
        (b.brk.level, b.op.as_str(), b.brk.what.as_str()),
        (
            Level::L3,
            "describe:replanning",
            "replanner: expanded_kinds entry 0"
        ),
        "{table}"
    );
    // The first differing vector is a description vector or a replanning vector, and its
    // first kind is swapped.
    assert!(
        b.label.starts_with("DEBUG-") || b.label.starts_with("REPLAN-"),
        "{b:?}"
    );
    let swapped = [("\"settle\"", "\"reset\""), ("\"reset\"", "\"settle\"")];
    assert!(
        swapped.contains(&(b.brk.expected.as_str(), b.brk.found.as_str())),
        "{b:?}"
    );
    let describe = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "describe")
        .expect("the describe section");
    assert!(describe.failed > 0, "{table}");
    assert!(
        describe
            .failures
            .iter()
            .all(|f| f.what.starts_with("replan describe (L3): ")
                || f.what.starts_with("replan description consistent")),
        "{:?}",
        describe
            .failures
            .iter()
            .map(|f| &f.what)
            .collect::<Vec<_>>()
    );
}

/// [DRIVER.PY.DEFECTS] `hex_tie`: the hex search's open set breaks `f` ties the other way (the
/// smaller `g`, then the larger cell, first). Only `hex-search` sees it: the first difference
/// is a path position (L2), in a vector, and the families run beside it, `voxel-search` included, stay
/// at L4.
// pins [DRIVER.PY.DEFECTS]: a hex_tie switch that does not flip the hex open set's tie-breaks as
// the clause says, or leaks into other families, misses the clause's HEX-0002 and HEX-0001
// differences and fails
#[test]
fn defect_hex_tie_is_caught_in_the_hex_search_family_only() {
    let r = run_in(&python(Some("hex_tie")), 5, "graph,voxel-search,hex-search");
    let table = r.to_table();
    assert!(!r.ok());
    for fam in ["graph", "voxel-search"] {
        assert_eq!(family(&r, fam).reached, Level::L4, "{fam}: {table}");
    }
    let f = family(&r, "hex-search");
    assert_eq!(f.reached, Level::L1, "{table}");
    let b = f.first_break.as_ref().expect("first difference");
    assert_eq!(
        (b.brk.level, b.op.as_str(), b.label.as_str()),
        (Level::L2, "run_lattice:hex-search", "HEX-0002"),
        "{table}"
    );
    assert_eq!(
        (
            b.brk.what.as_str(),
            b.brk.expected.as_str(),
            b.brk.found.as_str()
        ),
        ("query 2: cells entry 1", "13", "14"),
        "{b:?}"
    );
    let v = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "vectors")
        .and_then(|s| s.failures.first())
        .map(|f| f.line())
        .unwrap_or_default();
    assert!(
        v.starts_with("HEX-0001 / onepath_py") && v.contains("expanded entry 3"),
        "the first differing vector and field: {v}\n{table}"
    );
}

#[test]
fn defect_grid_heap_fails_l4_naming_the_hostile_state() {
    let r = run_in(&python(Some("grid_heap")), 5, "graph,grid-search");
    let table = r.to_table();
    assert!(!r.ok());
    assert_eq!(graph(&r).reached, Level::L4, "{table}");
    let g = family(&r, "grid-search");
    assert_eq!(g.reached, Level::L3, "{table}");
    let b = g.first_break.as_ref().expect("first difference");
    assert_eq!(
        (b.section.as_str(), b.op.as_str(), b.brk.what.as_str()),
        ("state", "state_run:grid-search", "restore result"),
        "{table}"
    );
    assert!(
        b.label.starts_with("STATE-GRIDSEARCH-") && b.label.contains("-H"),
        "{b:?}"
    );
    assert!(b.brk.expected.starts_with("heap_order"), "{b:?}");
}

// pins [CONF.CHECK.LANDMARKS]: a port that misreads the OPLM length must fail a hostile OPLM
// mutation with the length_mismatch class; a landmarks section without the hostile mutations passes
// it
#[test]
fn defect_oplm_len_fails_l4_in_landmarks() {
    // The run also carries an expectation that matches no failure of it, which is itself a
    // failure of the run (a stale entry is never silently kept).
    let mut o = PortOptions::new(&python(Some("oplm_len")));
    o.cases = CASES;
    o.families = onepath_conformance::config::FamilySet::parse("graph").expect("graph");
    o.timeout = Duration::from_secs_f64(PY_TIMEOUT);
    o.expect = Some(
        Expectations::parse(r#"{"schema":"onepath.port-expectations","version":1,"families":["graph","grid-search","grids","replanning","flow-field"],"known_failures":[{"section":"vectors","match":"GRAPH-0003","reason":"was a tie-break bug"}]}"#).unwrap(),
    );
    let r = {
        let _guard = shared();
        certify_port(o)
    };
    assert!(
        r.problems.iter().any(|p| p.contains("matches no failure")),
        "{:?}",
        r.problems
    );
    let g = graph(&r);
    assert_eq!(g.reached, Level::L3, "{}", r.to_table());
    let b = g.first_break.as_ref().unwrap();
    assert_eq!(
        (b.op.as_str(), b.section.as_str()),
        ("deserialize_oplm", "landmarks")
    );
    assert!(
        b.brk.expected.starts_with("length_mismatch") || b.brk.expected.starts_with("truncated"),
        "{b:?}"
    );
    let lm = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "landmarks")
        .unwrap();
    assert!(lm
        .failures
        .iter()
        .any(|f| f.what.contains("hostile OPLM") && f.expected.starts_with("length_mismatch")));
}

#[test]
fn defect_neg_zero_fails_l4_on_the_negative_zero_vectors() {
    // [GRAPH.VAL.NEG_ZERO]: the sign of a stored zero weight shows in a CSR's fingerprint (the
    // landmark table of GRAPH-0019, compared by hash in the vectors section, which runs first)
    // and in the saved bytes of a graph (STATE-GRAPH-0006, state section).
    let r = run_in(&python(Some("neg_zero")), 5, "graph");
    let g = graph(&r);
    assert_eq!(g.reached, Level::L3, "{}", r.to_table());
    let b = g.first_break.as_ref().unwrap();
    assert_eq!(
        (b.section.as_str(), b.op.as_str()),
        ("vectors", "build_landmarks")
    );
    assert!(b.label.starts_with("GRAPH-0019"), "{b:?}");
    assert_eq!(b.brk.level, Level::L4, "{b:?}");
    let state = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "state")
        .expect("state section");
    assert!(
        state
            .failures
            .iter()
            .any(|f| f.vector.as_deref() == Some("STATE-GRAPH-0006")),
        "{:?}",
        state.failures.first()
    );
}

#[test]
fn defect_cycle_fails_l4_naming_the_state_vector() {
    let r = run_in(&python(Some("cycle")), 5, "graph");
    let g = graph(&r);
    assert_eq!(g.reached, Level::L3, "{}", r.to_table());
    let b = g.first_break.as_ref().unwrap();
    assert_eq!(b.brk.what, "restore result");
    // The level report names the hostile state vector, not a hash of the request.
    assert!(
        b.label.starts_with("STATE-GRAPHASTAR-") && b.label.contains("-H"),
        "{b:?}"
    );
    assert_eq!(
        (b.section.as_str(), b.op.as_str()),
        ("state", "state_run:graph")
    );
    assert!(
        r.to_table().contains(&format!(
            "first difference (state section, state_run:graph):\n  {}: restore result",
            b.label
        )),
        "{}",
        r.to_table()
    );
    let st = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "state")
        .unwrap();
    let f = st
        .failures
        .iter()
        .find(|f| f.found == "accepted" && f.expected.starts_with("parent_cycle@"))
        .expect("parent_cycle failure");
    assert!(
        f.vector
            .as_deref()
            .unwrap_or("")
            .starts_with("STATE-GRAPHASTAR-"),
        "{f:?}"
    );
}

// pins [DRIVER.PROC.FAILURES]: a crash, a hang and a non-JSON line must each be reported as crash,
// timeout and malformed reply with the case label, the driver restarted each time and the run go on
// to 500+ answers
#[test]
fn crashes_timeouts_and_garbage_are_reported_per_case_and_the_run_goes_on() {
    let r = {
        let _alone = RUNS.write().unwrap_or_else(|e| e.into_inner());
        run_unlocked(&fake("chaos"), 1.0, 5, "graph")
    };
    let p = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "protocol")
        .unwrap();
    let kinds: Vec<&str> = ["crash", "timeout", "malformed reply"]
        .into_iter()
        .filter(|k| {
            p.failures
                .iter()
                .any(|f| f.what.contains(&format!("port: {k} ")))
        })
        .collect();
    assert_eq!(
        kinds,
        ["crash", "timeout", "malformed reply"],
        "{:?}",
        p.failures
    );
    for f in &p.failures {
        assert!(f.case.is_some(), "{f:?}");
    }
    assert!(
        r.starts >= 4,
        "the driver was restarted after each failure ({} starts)",
        r.starts
    );
    assert!(graph(&r).answered > 500, "the run went on");
    assert!(!r.ok());
    assert!(
        r.problems
            .iter()
            .any(|p| p.starts_with("section consumed:")),
        "{:?}",
        r.problems
    );
    check_well_formed(&r.to_junit()).unwrap();
}

// pins [DRIVER.MSG.RETIRED]: a driver answering the handshake with version 1 must fail the run with
// 'protocol version 1 is retired; this kit speaks 2'; a kit that reinterprets version 1 passes it
// pins [DRIVER.MSG.UNIMPLEMENTED]: a port answering run_sliced `unimplemented` must have it counted
// under that op, its graph level capped at L2 and fail the run; a kit treating it as a pass reaches
// L4
#[test]
fn unimplemented_ops_are_never_a_pass_and_bad_handshakes_fail() {
    let r = run(&fake("unimplemented"), PY_TIMEOUT, 5, "graph");
    let g = graph(&r);
    assert_eq!(
        g.reached,
        Level::L2,
        "run_sliced carries L3 evidence: {}",
        r.to_table()
    );
    assert!(g.unimplemented.contains_key("run_sliced"));
    assert!(!r.ok());
    let bad = run(&fake("garbage_hello"), 2.0, 2, "graph");
    assert!(bad.hello.is_err());
    assert!(
        !bad.ok() && bad.problems[0].starts_with("handshake"),
        "{:?}",
        bad.problems
    );
    // [DRIVER.MSG.HELLO] a protocol-1 driver is rejected, never reinterpreted.
    let old = run(&fake("v1_hello"), 2.0, 2, "graph");
    assert!(!old.ok());
    assert!(
        old.problems[0].contains("protocol version 1 is retired; this kit speaks 2"),
        "{:?}",
        old.problems
    );
}

// pins [DRIVER.CLI.PROGRESS]: a certify --port run that prints progress to stdout (the JSON would
// not parse) or no progress line of the clause's form on stderr fails
#[test]
fn the_cli_writes_junit_json_and_a_certificate() {
    let dir = std::env::temp_dir().join(format!("onepath-port-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (junit, cert) = (dir.join("j.xml"), dir.join("cert.json"));
    let _guard = shared();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args([
            "certify",
            "--json",
            "--port",
            &python(None),
            "--port-cases",
            "5",
            "--family",
            "graph",
            "--junit",
        ])
        .arg(&junit)
        .arg("--certificate")
        .arg(&cert)
        .args([
            "--date",
            "2026-11-29",
            "--heartbeat",
            "1",
            "--timeout",
            "60",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // stdout is the JSON report alone; progress goes to stderr ([DRIVER.CLI.PROGRESS]).
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["port"]["ok"], true);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let beat = stderr
        .lines()
        .find(|l| l.starts_with("port: ") && l.contains(" answered; "))
        .unwrap_or_else(|| panic!("no progress line on stderr:\n{stderr}"));
    assert!(beat.contains("graph ") && beat.ends_with(" s"), "{beat}");
    check_well_formed(&std::fs::read_to_string(&junit).unwrap()).unwrap();
    let c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    assert_eq!(
        (
            c["port"].as_str(),
            c["date"].as_str(),
            c["spec_version"].as_str()
        ),
        (Some("onepath_py"), Some("2026-11-29"), Some("1.1.0"))
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// pins [DRIVER.CONSUMED]: a kit that counts a state vector with driver-error replies as consumed,
// requires vectors of unclaimed kinds, or lists answered ones fails
#[test]
fn unanswered_golden_state_vectors_of_a_claimed_family_are_not_consumed() {
    // Every restore is a driver error, and driver errors count against the failure budget
    // ([DRIVER.PROC.BUDGET]): budgets that never run out keep the rest of the family answered.
    let r = {
        let _guard = shared();
        let mut o = PortOptions::new(&fake("state_error"));
        o.cases = 3;
        o.timeout = Duration::from_secs_f64(PY_TIMEOUT);
        o.max_consecutive_failures = usize::MAX;
        o.max_failures = u64::MAX;
        // `grids` beside `graph`: the grid kinds' state vectors are sent, and must not be
        // required of a port that does not claim them.
        o.families =
            onepath_conformance::config::FamilySet::parse("graph,grids").expect("families");
        certify_port(o)
    };
    let c = r
        .report
        .sections
        .iter()
        .find(|s| s.name == "consumed")
        .unwrap();
    let vectors: Vec<&str> = c
        .failures
        .iter()
        .filter_map(|f| f.vector.as_deref())
        .collect();
    assert!(
        vectors.iter().any(|v| v.starts_with("STATE-GRAPH-")),
        "{:?}",
        c.failures
    );
    // Grid kinds are answered `unimplemented` by a port that claims only `graph`: not required.
    assert!(
        !vectors.iter().any(|v| v.starts_with("STATE-GRID-")
            || v.starts_with("STATE-HEX-")
            || v.starts_with("STATE-VOXEL-")),
        "{vectors:?}"
    );
    assert!(
        !vectors.iter().any(|v| v.starts_with("STATE-GRAPHASTAR-")),
        "GraphAStar vectors were answered: {vectors:?}"
    );
    assert!(
        r.problems
            .iter()
            .any(|p| p.starts_with("section consumed:") && p.contains("STATE-GRAPH-")),
        "{:?}",
        r.problems
    );
}

/// [CONF.IMPL.FROM_STATE] [DRIVER.MSG.STRICT] A `from_state` reply with one field out of shape
/// (`before` holding the input bytes, as a port that mirrors a restore might send; `restore`
/// null; `after` empty though accepted; a listener call; a search summary) does not fit its
/// request: it is a malformed reply naming the field, not an answer. The Python port's reply to
/// the same request fits and equals the reference's.
// pins [CONF.IMPL.FROM_STATE]: a from_state reply with bytes in before, restore null, an empty
// after when accepted, listener calls or a search must be a malformed reply naming that field; the
// fitting reply equals the reference's
// pins [DRIVER.MSG.STRICT]: a from_state reply that decodes but does not fit its request (before
// bytes, restore null, empty after, calls, a search) must be a malformed reply naming the field,
// never an answer
// pins [DRIVER.OP.STATE]: a kit that takes a from_state reply with bytes in before, restore null,
// an empty after though accepted, listener calls or a search summary as an answer, not a malformed
// reply, fails
#[test]
fn a_from_state_reply_out_of_shape_is_malformed() {
    use onepath_conformance::port::PortImpl;
    use onepath_conformance::state::{StateKind, StateRequest};
    use onepath_conformance::Implementation;
    let _guard = shared();
    let mut graph = onepath_reference::Graph::new(3).unwrap();
    graph.add_edge(0, 1, 2.5).unwrap();
    let request = StateRequest::FromState {
        kind: StateKind::Graph,
        bytes: graph.save_state(),
    };
    let expected = onepath_conformance::ReferenceCrate
        .run_state(&request)
        .expect("the reference answers");
    assert!(expected.before.is_empty() && !expected.after.is_empty());
    let port = PortImpl::new(&python(None), Duration::from_secs(10));
    assert_eq!(port.run_state(&request).expect("a fitting reply"), expected);
    for (field, says) in [
        ("before", "bytes in before"),
        ("restore", "restore null"),
        ("after", "accepted with an empty after"),
        ("cells", "listener calls"),
        ("search", "with a search"),
    ] {
        let fake = PortImpl::new(
            &fake(&format!("from_state_{field}")),
            Duration::from_secs(10),
        );
        let err = fake.run_state(&request).expect_err(&format!(
            "a from_state reply with {field} out of shape was accepted"
        ));
        assert!(
            err.what().contains("malformed reply") && err.what().contains(says),
            "{field}: {err}"
        );
        let events = &fake.ledger.lock().unwrap().events;
        assert_eq!(events.len(), 1, "{events:?}");
        assert_eq!(events[0].kind, "malformed reply");
    }
}
