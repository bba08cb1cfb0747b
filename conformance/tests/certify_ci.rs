//! The CI-scale certify run (2,000 oracle graphs, 200 landmark graphs, every section) on both
//! crates must report zero failures.

use onepath_conformance::checks::{Config, DEFAULT_SEED};
use onepath_conformance::family::certify;
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate};

#[test]
fn certify_ci_scale_passes() {
    let config = Config::ci(DEFAULT_SEED);
    assert!(config.oracle_graphs >= 2_000 && config.landmark_graphs >= 200);
    assert!(config.hook_graphs >= 300 && config.cancel_graphs >= 200);
    let candidates: [&dyn Implementation; 1] = [&OptimizedCrate];
    let report = certify(&ReferenceCrate, &candidates, &config, None);
    let names: Vec<&str> = report.sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "oracle",
            "differential",
            "landmarks",
            "sliced",
            "links",
            "hooks",
            "cancel",
            "errors",
            "grid-search",
            "movingai",
            "replanning",
            "flow-field",
            "hex-search",
            "voxel-search",
            "hpa",
            "grid-bidi",
            "state",
            "describe",
            "synctest",
            "vectors"
        ]
    );
    for s in &report.sections {
        assert!(s.checks > 0, "section {} ran no check", s.name);
    }
    assert!(report.ok, "certify failed:\n{}", report.to_table());
}

// pins [CONF.REPORT.JSON]: a certify report with another schema or version, a non-boolean ok, no
// run.families, the reference not first or a section without name/checks/passed/failed/failures
// fails here
#[test]
fn report_json_has_the_stable_shape() {
    let config = Config {
        oracle_graphs: 20,
        landmark_graphs: 5,
        sliced_graphs: 5,
        link_sets: 8,
        hook_graphs: 5,
        cancel_graphs: 5,
        grid_cases: 2,
        replan_cases: 2,
        flow_cases: 2,
        movingai_side: 32,
        movingai_buckets: 4,
        ..Config::ci(7)
    };
    let candidates: [&dyn Implementation; 1] = [&OptimizedCrate];
    let report = certify(&ReferenceCrate, &candidates, &config, None);
    let v: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(v["schema"], "onepath.certify-report");
    assert_eq!(v["version"], 4);
    assert!(v["ok"].is_boolean());
    // [CONF.REPORT.RUN]: a run without --family names every family.
    assert_eq!(
        v["run"]["families"],
        serde_json::json!([
            "graph",
            "grids",
            "grid-search",
            "replanning",
            "flow-field",
            "hex-search",
            "voxel-search",
            "hpa",
            "grid-bidi"
        ])
    );
    assert_eq!(v["implementations"][0], "onepath-reference");
    for s in v["sections"].as_array().unwrap() {
        for key in ["name", "checks", "passed", "failed", "failures"] {
            assert!(s.get(key).is_some(), "section lacks {key}");
        }
    }
}
