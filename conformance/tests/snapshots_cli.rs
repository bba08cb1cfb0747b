//! The human outputs of the kit under review ([CONF.CLI.CERTIFY], [DRIVER.REPORT.TABLE],
//! [DRIVER.LEVEL.REACHED], [DRIVER.REPORT.JUNIT]): the certify table, the first-difference
//! text of a port family, the JUnit file and the port table of a failed handshake, as `insta`
//! snapshots under `tests/snapshots/`. A change to any of them fails here until the new text is
//! reviewed and accepted (`cargo insta review`, or `INSTA_UPDATE=always` and a diff in review).

mod tools;

use onepath_conformance::checks::Config;
use onepath_conformance::levels::{Break, Level};
use onepath_conformance::port::run::{certify_port, FamilyResult, PortOptions};
use onepath_conformance::port::LedgerEntry;
use onepath_conformance::report::RunInfo;
use onepath_conformance::{Failure, Report, Section};
use std::collections::BTreeMap;

/// A report with one passing and one failing section (the failure names vector, variant, query
/// and step), as a run of the kit would assemble it.
fn report() -> Report {
    let mut pass = Section::new("oracle");
    for _ in 0..3 {
        pass.pass();
    }
    let mut diff = Section::new("vectors");
    diff.pass();
    diff.fail(Failure {
        vector: Some("GRAPH-0007".into()),
        implementation: "wrong".into(),
        variant: Some("bidi_alt".into()),
        query: Some(2),
        what: "expansion step 41".into(),
        expected: "node 17".into(),
        found: "node 12".into(),
        step: Some(41),
        ..Default::default()
    });
    let mut config = Config::ci(7);
    config.vectors_dir = None;
    config.threads = 1;
    Report::new(
        vec!["onepath-reference".into(), "wrong".into()],
        vec![pass, diff],
        RunInfo::of(&config),
    )
}

#[test]
fn certify_table() {
    insta::assert_snapshot!(report().to_table());
}

#[test]
fn certify_junit() {
    insta::assert_snapshot!(report().to_junit());
}

#[test]
fn port_first_difference() {
    let family = FamilyResult {
        family: "grid-search".into(),
        claimed: Some(Level::L4),
        reached: Level::L2,
        by_differences: Level::L2,
        first_break: Some(LedgerEntry {
            section: "vectors".into(),
            label: "GRID-0003".into(),
            op: "run_grid:grid-search".into(),
            variant: Some("Tier1/astar/always".into()),
            query: Some("(1, 2) -> (19, 14)".into()),
            brk: Break {
                level: Level::L3,
                what: "expansion 5".into(),
                expected: "cell 44".into(),
                found: "cell 23".into(),
                step: Some(5),
                context: Some(("[21, 43, 44, 65]".into(), "[21, 43, 23, 65]".into())),
                first: Some("expansions[5]: expected 44, found 23".into()),
            },
            clauses: vec!["GS.ASTAR.ORDER".into(), "CONF.GRID.VECTOR".into()],
        }),
        unimplemented: BTreeMap::new(),
        answered: 720,
        requests: 720,
    };
    insta::assert_snapshot!(family.first_difference_text().unwrap());
}

// pins [DRIVER.REPORT.TABLE]: a port table whose section rows, family columns (claimed, L1-L4
// pass/FAIL/-, reached) or verdict with reasons change fails until the new text is reviewed
#[test]
fn port_table_of_a_retired_driver() {
    tools::require_python3();
    let command = format!(
        "FAKE_MODE=v1_hello python3 {}",
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fake_driver.py")
    );
    let mut o = PortOptions::new(&command);
    o.cases = 5;
    o.threads = 1;
    o.vectors_dir = None;
    let table = certify_port(o).to_table();
    // The driver command carries this checkout's path.
    let table = table.replace(env!("CARGO_MANIFEST_DIR"), "<conformance>");
    insta::assert_snapshot!(table);
}
