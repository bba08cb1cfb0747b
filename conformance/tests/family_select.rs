//! `certify --family` ([CONF.CLI.FAMILY]): a run of the selected claim families only, in
//! process and for a port. The selection still catches a fault in a selected family (the Python
//! port's `hex_tie` defect), ignores one in an unselected family, names the selection in
//! `run.families`, and a selected family the port does not claim fails the verdict.

mod tools;

use onepath_conformance::config::{FamilySet, Shard};
use onepath_conformance::port::run::{certify_port, PortOptions, PortRun};
use onepath_conformance::{Config, Implementation, OptimizedCrate, ReferenceCrate};

const DRIVER_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python");

fn port_run(env: &str, families: &str) -> PortRun {
    tools::require_python3();
    let mut o = PortOptions::new(&format!("{env} python3 {DRIVER_DIR}/driver.py"));
    o.cases = 3;
    o.timeout = std::time::Duration::from_secs(60);
    o.families = FamilySet::parse(families).expect("families");
    certify_port(o)
}

fn section_names(r: &onepath_conformance::Report) -> Vec<String> {
    r.sections.iter().map(|s| s.name.clone()).collect()
}

#[test]
fn the_parser_takes_family_names_and_refuses_the_rest() {
    let s = FamilySet::parse("hpa,grid-bidi,hpa").expect("two families");
    assert_eq!(s.names(), ["hpa", "grid-bidi"]);
    assert!(FamilySet::parse(
        "graph,grids,grid-search,replanning,flow-field,hex-search,voxel-search,hpa,grid-bidi"
    )
    .expect("all")
    .is_all());
    for bad in ["", "hex", "graph,", "Graph", "graph,,hpa"] {
        let e = FamilySet::parse(bad).expect_err(bad);
        assert!(e.to_string().contains("not a family"), "{bad}: {e}");
    }
}

// pins [CONF.CLI.FAMILY]: a --family hex-search run that runs another family's section, names
// another selection in run.families or checks every family's vectors fails these assertions
#[test]
fn an_in_process_run_of_one_family_runs_only_its_sections() {
    let mut config = Config::ci(7);
    config.oracle_graphs = 10;
    config.grid_cases = 2;
    config.replan_cases = 1;
    config.flow_cases = 1;
    config.families = FamilySet::parse("hex-search").expect("hex");
    let candidates: [&dyn Implementation; 1] = [&OptimizedCrate];
    let report = onepath_conformance::family::certify(&ReferenceCrate, &candidates, &config, None);
    assert!(report.ok, "{}", report.to_table());
    assert_eq!(
        section_names(&report),
        ["hex-search", "describe", "vectors"]
    );
    assert_eq!(report.run.families, ["hex-search"]);
    // Every vector failure or check of the section is the manifest's or a hex vector's: the
    // count is the manifest's entries plus the hex vectors' checks, far below a full run's.
    let full = {
        let mut c = config.clone();
        c.families = FamilySet::ALL;
        c.shard = Shard::ALL;
        onepath_conformance::family::vectors_section(
            c.vectors_dir.as_deref().unwrap(),
            &[&ReferenceCrate],
        )
    };
    let own = report
        .sections
        .iter()
        .find(|s| s.name == "vectors")
        .unwrap();
    assert!(own.checks < full.checks, "{} < {}", own.checks, full.checks);
}

#[test]
fn a_port_fault_in_the_selected_family_is_caught() {
    let r = port_run("ONEPATH_PY_DEFECT=hex_tie", "hex-search");
    assert!(!r.ok(), "{}", r.to_table());
    let hex: Vec<_> = r.families.iter().map(|f| f.family.as_str()).collect();
    assert_eq!(hex, ["hex-search"], "only the selected family is judged");
    let f = &r.families[0];
    assert_eq!(f.reached.name(), "L1", "{}", r.to_table());
    let first = f.first_break.as_ref().expect("a first difference");
    assert!(first.label.starts_with("HEX-"), "{}", first.quote());
}

#[test]
fn a_port_fault_in_an_unselected_family_is_not_run() {
    let r = port_run("ONEPATH_PY_DEFECT=hex_tie", "grid-bidi");
    assert!(r.ok(), "{}", r.to_table());
    assert_eq!(r.report.run.families, ["grid-bidi"]);
    let h = r.hello.as_ref().expect("handshake");
    assert_eq!(h.claims.keys().collect::<Vec<_>>(), ["grid-bidi"]);
    assert!(
        !section_names(&r.report).iter().any(|s| s == "hex-search"),
        "{:?}",
        section_names(&r.report)
    );
}

#[test]
fn a_selected_family_the_port_does_not_claim_fails_the_verdict() {
    let r = port_run("ONEPATH_PY_CLAIMS=graph=4", "hpa");
    assert!(!r.ok(), "{}", r.to_table());
    assert!(
        r.problems
            .iter()
            .any(|p| p == "--family hpa: the port does not claim it"),
        "{:?}",
        r.problems
    );
}

#[test]
fn the_cli_refuses_an_unknown_family() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(["certify", "--family", "hex,hpa"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--family \"hex\": not a family"), "{err}");
}
