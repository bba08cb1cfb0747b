//! [CONF.REPLAN.ORACLE] [CONF.CHECK.REPLANNING] The reference replanners against the oracle on
//! seeded edit scripts, and the certify section's checks on the in-process crates.

use onepath_conformance::replan::{cases, oracle, ReplanReply};
use onepath_conformance::{Implementation, ReferenceCrate};

#[test]
fn reference_replies_pass_the_oracle_on_generated_scripts() {
    let mut found = 0;
    let mut not_found = 0;
    for i in 0..300u64 {
        let r = cases::request(0xC0FFEE, i, 16, 60);
        let reply = ReferenceCrate
            .run_replan(&r)
            .expect("the reference runs every request");
        if let Some(p) = oracle::check(&r, &reply) {
            panic!("case {i}: {p}");
        }
        if let ReplanReply::Ran { steps, .. } = &reply {
            found += steps.iter().filter(|s| s.status == Some(2)).count();
            not_found += steps.iter().filter(|s| s.status == Some(3)).count();
        }
    }
    // Both outcomes occur often enough for the oracle to mean something.
    assert!(
        found > 1_000 && not_found > 500,
        "found {found}, not found {not_found}"
    );
}

#[test]
fn both_crates_agree_on_generated_scripts() {
    use onepath_conformance::replan::first_difference;
    use onepath_conformance::OptimizedCrate;
    for i in 0..300u64 {
        let r = cases::request(0xD1FF, i, 18, 80);
        let a = ReferenceCrate.run_replan(&r).expect("reference");
        let b = OptimizedCrate.run_replan(&r).expect("optimized");
        if let Some(d) = first_difference(&a, &b) {
            panic!(
                "case {i} ({:?}, hex {:?}, options {:?}): {d}",
                r.mode, r.grid.hex_layout, r.options
            );
        }
    }
}
