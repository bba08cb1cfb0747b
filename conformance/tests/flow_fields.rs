//! [CONF.FLOW.ORACLE] [CONF.CHECK.FLOW_FIELD] The reference flow fields against the oracle on
//! seeded edit scripts, both crates against each other, and the certify section's checks.

use onepath_conformance::checks::flow_field::{sliced, with_rollback};
use onepath_conformance::flow::{cases, first_difference, oracle, FlowReply};
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate};

#[test]
fn reference_replies_pass_the_oracle_on_generated_scripts() {
    let mut complete = 0;
    let mut repairs = 0;
    for i in 0..300u64 {
        let r = cases::request(0xC0FFEE, i, 16, 60);
        let reply = ReferenceCrate
            .run_flow(&r)
            .expect("the reference runs every request");
        if let Some(p) = oracle::check(&r, &reply) {
            panic!("case {i}: {p}");
        }
        if let FlowReply::Ran { steps, .. } = &reply {
            complete += steps.iter().filter(|s| s.returned == Some(2)).count();
            repairs += steps.iter().filter(|s| s.repairing).count();
        }
    }
    // Completed fields and repairs in progress occur often enough for the oracle to mean
    // something.
    assert!(
        complete > 2_000 && repairs > 100,
        "complete {complete}, repairing {repairs}"
    );
}

#[test]
fn both_crates_agree_on_generated_scripts() {
    for i in 0..300u64 {
        let r = cases::request(0xD1FF, i, 18, 80);
        let a = ReferenceCrate.run_flow(&r).expect("reference");
        let b = OptimizedCrate.run_flow(&r).expect("optimized");
        if let Some(d) = first_difference(&a, &b) {
            panic!(
                "case {i} (hex {:?}, options {:?}): {d}",
                r.grid.hex_layout, r.options
            );
        }
    }
}

#[test]
fn sliced_and_rolled_back_runs_equal_the_plain_run_in_both_crates() {
    for i in 0..60u64 {
        let r = cases::request(0x511CE, i, 14, 50);
        for imp in [&ReferenceCrate as &dyn Implementation, &OptimizedCrate] {
            let whole = imp.run_flow(&r).expect("reply");
            let cut = imp.run_flow(&sliced(&r, 1 + i % 4)).expect("reply");
            assert_eq!(
                first_difference(&whole, &cut),
                None,
                "case {i} {}",
                imp.name()
            );
            let (rb, first, second) = with_rollback(&r, 20);
            let FlowReply::Ran { steps, .. } = imp.run_flow(&rb).expect("reply") else {
                continue;
            };
            for k in 0..second - first - 1 {
                assert_eq!(steps[first + k], steps[second + k], "case {i} step {k}");
            }
        }
    }
}
