//! `certify --shard k/n` and `report merge` ([CONF.CLI.SHARD], [CONF.REPORT.MERGE]): the merge
//! of the n shards of a run has the unsharded run's section counts and verdict (in-process for
//! n = 1, 3, 7; a Python port run for n = 1, 3, clean and with a defect), and the merge rejects
//! reports of different runs, a missing or duplicate shard, unknown members and versions,
//! naming the file.

mod tools;

use onepath_conformance::checks::{default_vectors_dir, Config, Shard};
use onepath_conformance::expectations::Expectations;
use onepath_conformance::family::certify;
use onepath_conformance::port::run::{certify_port, PortOptions, PortRun};
use onepath_conformance::report_merge::{merge, parse, MergeErrorKind, Merged};
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate};
use serde_json::Value;
use std::process::Command;

fn small(seed: u64) -> Config {
    Config {
        oracle_graphs: 40,
        landmark_graphs: 10,
        sliced_graphs: 12,
        link_sets: 12,
        hook_graphs: 10,
        cancel_graphs: 10,
        grid_cases: 6,
        replan_cases: 3,
        flow_cases: 3,
        movingai_side: 32,
        movingai_buckets: 4,
        vectors_dir: Some(default_vectors_dir()),
        ..Config::ci(seed)
    }
}

fn crates_json(config: &Config) -> String {
    let candidates: [&dyn Implementation; 1] = [&OptimizedCrate];
    certify(&ReferenceCrate, &candidates, config, None).to_json()
}

/// Section name, checks, passed, failed.
fn counts(json: &str) -> Vec<(String, u64, u64, u64)> {
    let v: Value = serde_json::from_str(json).unwrap();
    v["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["checks"].as_u64().unwrap(),
                s["passed"].as_u64().unwrap(),
                s["failed"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn ok_of(json: &str) -> bool {
    serde_json::from_str::<Value>(json).unwrap()["ok"]
        .as_bool()
        .unwrap()
}

fn merged(reports: &[String]) -> Merged {
    let files = reports
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let name = format!("shard-{}.json", i + 1);
            let f = parse(&name, t).unwrap_or_else(|e| panic!("{e}"));
            (name, f)
        })
        .collect();
    merge(files).unwrap_or_else(|e| panic!("{e}"))
}

fn total_checks(json: &str) -> u64 {
    counts(json).iter().map(|c| c.1).sum()
}

// pins [CONF.CLI.SHARD]: shards whose cases overlap, miss a case or repeat a folder-level check do
// not add up to the unsharded section counts, and the merged-count equality fails
#[test]
fn merged_in_process_shards_equal_the_unsharded_run() {
    let whole = crates_json(&small(3));
    let whole_counts = counts(&whole);
    for n in [1u32, 3, 7] {
        let shards: Vec<String> = (1..=n)
            .map(|k| {
                let mut c = small(3);
                c.shard = Shard { index: k, count: n };
                crates_json(&c)
            })
            .collect();
        if n > 1 {
            for s in &shards {
                assert!(
                    total_checks(s) < total_checks(&whole),
                    "a shard ran everything"
                );
            }
        }
        let m = merged(&shards);
        let json = m.to_json();
        assert_eq!(counts(&json), whole_counts, "n = {n}");
        assert_eq!(m.ok(), ok_of(&whole), "n = {n}");
        eprintln!("n = {n}: merged {:?}", counts(&json));
        // The merged report is itself a mergeable (1/1) report.
        assert_eq!(counts(&merged(&[json]).to_json()), whole_counts);
    }
    eprintln!("unsharded: {whole_counts:?}");
}

/// The claim families of the sharded port runs ([CONF.CLI.FAMILY]): four of the nine, whose
/// sections differ in kind (graph vectors and landmarks, grid searches with state vectors, the
/// lattice searches, HPA*), at about a third of the cost of every family; the unsharded and the
/// sharded runs select the same ones.
const SHARDED_FAMILIES: &str = "graph,grid-search,hex-search,hpa";

fn port_run_expecting(
    defect: Option<&str>,
    shard: Shard,
    expect: Option<&str>,
    families: &str,
) -> PortRun {
    tools::require_python3();
    let driver = concat!(env!("CARGO_MANIFEST_DIR"), "/ports/python/driver.py");
    let command = match defect {
        Some(d) => format!("ONEPATH_PY_DEFECT={d} python3 {driver}"),
        None => format!("python3 {driver}"),
    };
    let mut o = PortOptions::new(&command);
    o.cases = 3;
    // Two port runs share the machine here; no test of this file is about timeouts.
    o.timeout = std::time::Duration::from_secs(60);
    o.shard = shard;
    o.expect = expect.map(|e| Expectations::parse(e).unwrap());
    o.families = onepath_conformance::config::FamilySet::parse(families).expect("families");
    certify_port(o)
}

/// Family, claimed, reached, requests, answered, unimplemented ops.
fn families(p: &PortRun) -> Vec<String> {
    p.families
        .iter()
        .map(|f| {
            format!(
                "{} {:?} {:?} {} {} {:?}",
                f.family, f.claimed, f.reached, f.requests, f.answered, f.unimplemented
            )
        })
        .collect()
}

#[test]
fn merged_port_shards_equal_the_unsharded_run() {
    // One shard count per run kind keeps the test's cost at two port runs per kind: two shards of
    // the passing run here, three of the failing one (whose failures then land in several
    // shards) in the next test, which runs beside this one.
    merged_port_shards_equal(None, 2, SHARDED_FAMILIES);
}

// pins [DRIVER.SHARD]: shards that each record the state probes, or a merge that does not add
// requests, answers and unimplemented counts or take the minimum level and the lowest first
// difference, fail
#[test]
fn merged_failing_port_shards_equal_the_unsharded_run() {
    // The gtie defect breaks graph and hex-search ties: those two families are run.
    merged_port_shards_equal(Some("gtie"), 3, "graph,hex-search");
}

/// Runs the port whole and in `n` shards over the `selection` of families and compares the
/// merge with the whole.
fn merged_port_shards_equal(defect: Option<&str>, n: u32, selection: &str) {
    let port_run =
        |defect: Option<&str>, shard: Shard| port_run_expecting(defect, shard, None, selection);
    let whole = port_run(defect, Shard::ALL);
    let whole_json = whole.to_json();
    {
        let shards: Vec<String> = (1..=n)
            .map(|k| port_run(defect, Shard { index: k, count: n }).to_json())
            .collect();
        let m = merged(&shards);
        let Merged::Port(p) = &m else {
            panic!("a port run merges as a port run")
        };
        assert_eq!(
            counts(&m.to_json()),
            counts(&whole_json),
            "{defect:?} n = {n}"
        );
        assert_eq!(p.ok(), whole.ok(), "{defect:?} n = {n}: {:?}", p.problems);
        assert_eq!(families(p), families(&whole), "{defect:?} n = {n}");
        let first = |r: &PortRun| {
            r.families
                .iter()
                .map(|f| f.first_break.as_ref().map(|e| e.quote()))
                .collect::<Vec<_>>()
        };
        assert_eq!(first(p), first(&whole), "{defect:?} n = {n}");
        assert_eq!(
            p.certificate("2026-12-01"),
            whole.certificate("2026-12-01"),
            "the merged run's certificate is the unsharded run's"
        );
        eprintln!(
            "port {defect:?} n = {n}: ok {} merged {:?}",
            p.ok(),
            counts(&m.to_json())
        );
    }
    eprintln!(
        "port {defect:?} unsharded: ok {} {:?}",
        whole.ok(),
        counts(&whole_json)
    );
    if let Some(d) = defect {
        assert!(!whole.ok(), "defect {d} should fail the run");
    } else {
        // [DRIVER.CLI.LIMITS] A port report's numbers must be ones its flags allow: 1e300
        // seconds panicked in Duration::from_secs_f64 when the merge rebuilt the options.
        let (code, err) = cli_merge(&[("whole.json", &whole_json)]);
        assert_eq!(code, Some(0), "{err}");
        let cases: [(&str, &[&str], Value); 5] = [
            (
                "timeout_seconds",
                &["port", "timeout_seconds"],
                Value::from(1e300),
            ),
            (
                "timeout_seconds",
                &["port", "timeout_seconds"],
                Value::from(86400.5),
            ),
            ("port_cases", &["port", "port_cases"], Value::from(20001)),
            (
                "deadline_seconds",
                &["port", "limits", "deadline_seconds"],
                Value::from(1e300),
            ),
            (
                "max_reply_mb",
                &["port", "limits", "max_reply_mb"],
                Value::from(0),
            ),
        ];
        for (member, path, value) in cases {
            let bad = edit(&whole_json, |v| {
                let mut at = &mut *v;
                for k in path {
                    at = &mut at[*k];
                }
                *at = value.clone();
            });
            let (code, err) = cli_merge(&[("hostile.json", &bad)]);
            assert_eq!(code, Some(2), "{member} = {value}: {err}");
            assert!(
                err.contains("hostile.json") && err.contains(member) && !err.contains("panicked"),
                "{member} = {value}: {err}"
            );
        }
    }
}

fn tiny(seed: u64, shard: Shard) -> String {
    let c = Config {
        oracle_graphs: 4,
        landmark_graphs: 1,
        sliced_graphs: 1,
        link_sets: 2,
        hook_graphs: 1,
        cancel_graphs: 1,
        grid_cases: 1,
        movingai_side: 16,
        movingai_buckets: 1,
        vectors_dir: None,
        shard,
        ..Config::ci(seed)
    };
    crates_json(&c)
}

/// Runs `report merge` on the given (file name, contents) and returns (exit code, stderr).
fn cli_merge(files: &[(&str, &str)]) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("onepath-shard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let paths: Vec<_> = files
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            p
        })
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
        .args(["report", "merge"])
        .args(&paths)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn edit(json: &str, f: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(json).unwrap();
    f(&mut v);
    v.to_string()
}

// pins [CONF.REPORT.MERGE]: a merge that accepts shards of different runs (seed, count, kit), a
// missing or repeated shard, an unknown or missing member or another version fails an exit-2
// assertion naming file and member
#[test]
fn merge_rejects_reports_that_are_not_the_shards_of_one_run() {
    let half = |k| Shard { index: k, count: 2 };
    let (a, b) = (tiny(9, half(1)), tiny(9, half(2)));
    // The CLI merges the two shards and fails only on what is wrong.
    let (code, err) = cli_merge(&[("a.json", &a), ("b.json", &b)]);
    assert_eq!(code, Some(0), "{err}");

    let other_seed = tiny(10, half(2));
    let (code, err) = cli_merge(&[("a.json", &a), ("seed.json", &other_seed)]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("seed.json") && err.contains("run.seed"),
        "{err}"
    );

    let (code, err) = cli_merge(&[("a.json", &a)]);
    assert_eq!(code, Some(2));
    assert!(err.contains("shard 2/2 is missing"), "{err}");

    let (code, err) = cli_merge(&[("a.json", &a), ("again.json", &a)]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("again.json") && err.contains("run.shard.index"),
        "{err}"
    );

    let three = tiny(9, Shard { index: 2, count: 3 });
    let (code, err) = cli_merge(&[("a.json", &a), ("three.json", &three)]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("three.json") && err.contains("run.shard.count"),
        "{err}"
    );

    let unknown = edit(&b, |v| {
        v["sections"][0]["extra"] = Value::from(1);
    });
    let (code, err) = cli_merge(&[("a.json", &a), ("unknown.json", &unknown)]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("unknown.json") && err.contains("extra"),
        "{err}"
    );

    let missing = edit(&b, |v| {
        v["run"].as_object_mut().unwrap().remove("vectors_dir");
    });
    let (code, err) = cli_merge(&[("a.json", &a), ("missing.json", &missing)]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("missing.json") && err.contains("vectors_dir"),
        "{err}"
    );

    let version = edit(&b, |v| v["version"] = Value::from(99));
    let (code, err) = cli_merge(&[("a.json", &a), ("v99.json", &version)]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("v99.json") && err.contains("version 99"),
        "{err}"
    );

    let schema = edit(&b, |v| v["schema"] = Value::from("onepath.other"));
    let e = parse("schema.json", &schema).unwrap_err();
    assert_eq!(e.kind, MergeErrorKind::Schema);
    assert!(e.to_string().starts_with("schema.json: schema:"), "{e}");

    // A report of another kit version is of another run.
    let kit = edit(&b, |v| v["kit"] = Value::from("onepath-conformance 0.0.0"));
    let files = vec![
        ("a.json".to_string(), parse("a.json", &a).unwrap()),
        ("kit.json".to_string(), parse("kit.json", &kit).unwrap()),
    ];
    let e = merge(files).unwrap_err();
    assert_eq!(e.kind, MergeErrorKind::Mismatch);
    assert_eq!(e.field.as_deref(), Some("kit"));
}

// pins [CONF.JSON.UNIQUE]: a report merge input with a member given twice must exit 2 naming the
// file and 'duplicate member "kit"', and a 20 MB quoted value must be clipped (error under 4,000
// bytes)
#[test]
fn merge_refuses_duplicate_members_and_shard_0_of_0_and_clips_quoted_text() {
    let one = tiny(9, Shard::ALL);
    let (code, err) = cli_merge(&[("one.json", &one)]);
    assert_eq!(code, Some(0), "{err}");
    // [CONF.JSON.UNIQUE] A member given twice was collapsed (the last won) and merged.
    let dup = format!("{{\"kit\":\"another kit\",{}", &one[1..]);
    let (code, err) = cli_merge(&[("dup.json", &dup)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("dup.json") && err.contains("duplicate member \"kit\""),
        "{err}"
    );
    // [CONF.REPORT.MERGE] "0 of 0" was merged as a complete 1/1 run.
    for (k, n) in [(0, 0), (0, 1), (2, 1)] {
        let bad = edit(&one, |v| {
            v["run"]["shard"] = serde_json::json!({"index": k, "count": n});
        });
        let (code, err) = cli_merge(&[("zero.json", &bad)]);
        assert_eq!(code, Some(2), "{k}/{n}: {err}");
        assert!(
            err.contains("zero.json") && err.contains("run.shard"),
            "{k}/{n}: {err}"
        );
    }
    // A 20 MB `kit` string is quoted clipped, not whole.
    let half = |k| Shard { index: k, count: 2 };
    let a = tiny(9, half(1));
    let big = edit(&tiny(9, half(2)), |v| {
        v["kit"] = Value::from("k".repeat(20 << 20))
    });
    let (code, err) = cli_merge(&[("a.json", &a), ("big.json", &big)]);
    assert_eq!(code, Some(2), "{}", &err[..err.len().min(500)]);
    assert!(
        err.contains("big.json") && err.contains("kit"),
        "{}",
        &err[..err.len().min(500)]
    );
    assert!(err.len() < 4000, "{} bytes of error", err.len());
}

// pins [DRIVER.EXPECT.MATCH]: a kit that did not excuse the matched STATE-GRIDSEARCH-* section
// failures, or let their L4 difference lower grid-search below its claim, would have more than the
// one rotted-entry problem
// pins [DRIVER.EXPECT.ROT]: a run that keeps an entry that excuses nothing (NO-SUCH-VECTOR-*)
// without failing, or fails without naming it as expectation 1, fails; so does a merge that loses
// it
#[test]
fn rotted_expectations_are_judged_by_the_merge() {
    // With the grid_heap defect the mode-3 GridSearch state vectors fail:
    // the first entry excuses them where they are and has not rotted where they are not; the
    // second never matches anything.
    let expect = r#"{"schema":"onepath.port-expectations","version":1,"families":["graph","grid-search","grids","replanning","flow-field","hex-search","voxel-search","hpa","grid-bidi"],"known_failures":[
        {"section":"state","match":"STATE-GRIDSEARCH-*","reason":"mode-3 heap order not checked"},
        {"section":"vectors","match":"NO-SUCH-VECTOR-*","reason":"never matches"}]}"#;
    // The grid_heap defect lies in grid-search: that family alone is run ([CONF.CLI.FAMILY]; the
    // expectation families are compared within the selection).
    let whole = port_run_expecting(Some("grid_heap"), Shard::ALL, Some(expect), "grid-search");
    assert_eq!(whole.problems.len(), 1, "{:?}", whole.problems);
    assert!(
        whole.problems[0].starts_with("expectation 1 "),
        "{:?}",
        whole.problems
    );
    let shards: Vec<PortRun> = (1..=2)
        .map(|k| {
            port_run_expecting(
                Some("grid_heap"),
                Shard { index: k, count: 2 },
                Some(expect),
                "grid-search",
            )
        })
        .collect();
    for s in &shards {
        assert!(
            s.ok(),
            "a shard judged rotted expectations: {:?}",
            s.problems
        );
    }
    let m = merged(&shards.iter().map(PortRun::to_json).collect::<Vec<_>>());
    let Merged::Port(p) = &m else {
        panic!("port run")
    };
    assert_eq!(p.problems, whole.problems);
    assert_eq!(p.excused, whole.excused);
    assert!(!m.ok());
}

#[test]
fn bad_shard_values_exit_2_naming_the_value() {
    for value in ["0/3", "4/3", "1/0", "x", "2", "1/-3", "/3"] {
        let out = Command::new(env!("CARGO_BIN_EXE_onepath-conformance"))
            .args(["certify", "--shard", value])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--shard {value}: {err}");
        assert!(
            err.contains(&format!("{value:?}")),
            "--shard {value}: {err}"
        );
    }
}

#[test]
fn merged_failures_are_summed_bounded_and_fail_the_run() {
    let half = |k| Shard { index: k, count: 2 };
    // Each shard gets 40 failures in its first section; the counts add up, the kept list is
    // bounded as in one report, and the recomputed verdict fails.
    let with_failures = |json: String, tag: &str| {
        edit(&json, |v| {
            let s = &mut v["sections"][0];
            let failure = serde_json::json!({
                "vector": null, "case": format!("{tag}#1"), "implementation": "onepath",
                "variant": null, "query": 0, "what": "cost bits", "expected": "1", "found": "2",
                "step": null, "clauses": []
            });
            s["failures"] = Value::Array(vec![failure; 40]);
            s["failed"] = Value::from(40);
            s["checks"] = Value::from(s["passed"].as_u64().unwrap() + 40);
            v["ok"] = Value::Bool(false);
        })
    };
    let a = with_failures(tiny(9, half(1)), "a");
    let b = with_failures(tiny(9, half(2)), "b");
    let m = merged(&[a.clone(), b.clone()]);
    assert!(!m.ok());
    let v: Value = serde_json::from_str(&m.to_json()).unwrap();
    let s = &v["sections"][0];
    assert_eq!(s["failed"], 80);
    let kept = s["failures"].as_array().unwrap();
    assert_eq!(kept.len(), onepath_conformance::report::KEPT_FAILURES);
    // Shard order: all of shard 1's kept failures first.
    assert_eq!(kept[39]["case"], "a#1");
    assert_eq!(kept[40]["case"], "b#1");
    let passed = |j: &str| {
        serde_json::from_str::<Value>(j).unwrap()["sections"][0]["passed"]
            .as_u64()
            .unwrap()
    };
    assert_eq!(s["passed"].as_u64().unwrap(), passed(&a) + passed(&b));
}
