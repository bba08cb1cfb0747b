//! [CONF.CHECK.DESCRIBE] [CONF.DEBUG.CONSISTENT] Both crates describe every target of the
//! committed vectors and of the generated requests identically, and every description agrees
//! with the kit's own reading and with the crate's family op.

use onepath_conformance::checks::default_vectors_dir;
use onepath_conformance::checks::describe;
use onepath_conformance::{Config, OptimizedCrate, ReferenceCrate};

#[test]
fn both_crates_describe_every_target_alike() {
    let config = Config {
        grid_cases: 24,
        replan_cases: 6,
        flow_cases: 6,
        vectors_dir: Some(default_vectors_dir()),
        ..Config::ci(7)
    };
    let s = {
        let (t, setup) = onepath_conformance::debug::targets::section_targets(&config);
        describe::run(
            &[&ReferenceCrate, &OptimizedCrate],
            &config,
            &t,
            setup,
            None,
        )
    };
    let lines: Vec<String> = s.failures.iter().map(|f| f.line()).collect();
    assert_eq!(s.failed, 0, "{lines:#?}");
    // Every vector target and every generated one, each compared and checked twice over.
    assert!(s.checks > 1_000, "only {} checks", s.checks);
}

#[test]
fn every_vector_family_gives_targets() {
    let targets =
        onepath_conformance::debug::targets::vector_targets(&default_vectors_dir()).unwrap();
    for prefix in [
        "GRAPH-", "GRID-", "REPLAN-", "FLOW-", "HEX-", "VOXEL-", "HPA-", "BIDI-",
    ] {
        let n = targets
            .iter()
            .filter(|t| t.label.starts_with(prefix))
            .count();
        assert!(n > 0, "no describe target from the {prefix} vectors");
    }
}
