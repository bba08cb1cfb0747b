//! Named checks of the request families' kit rules that no vector can tell from their negation
//! ([CONF.CLAUSES.PINS]): the lattice reply's wire form and comparison order, the `vectors`
//! section of the hex, voxel, HPA, bidirectional and debug families (a reader that rejects the
//! other shape, every vector run on every implementation with the first difference named, the
//! reply of record judged by the oracle), the HPA request checks and call sequence, the
//! bidirectional call sequence, and the describe request, reply and levels.

use onepath_conformance::bidi::{BidiReply, BidiRequest};
use onepath_conformance::config::{FamilySet, Shard};
use onepath_conformance::debug::{DescribeEntry, DescribeReply, DescribeRequest, Description};
use onepath_conformance::hpa::{HpaQueryReply, HpaReply, HpaRequest};
use onepath_conformance::lattice::{first_difference, LatticeReply, QueryReply, Shape};
use onepath_conformance::levels::{describe_break, Level};
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate, Section};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const CRATES: [&dyn Implementation; 2] = [&ReferenceCrate, &OptimizedCrate];

fn committed(rel: &str) -> Value {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../vectors")
        .join(rel);
    serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
}

/// The request of a committed vector, decoded as `T`.
fn request<T: serde::de::DeserializeOwned>(rel: &str) -> T {
    serde_json::from_value(committed(rel)["cases"][0]["request"].clone()).unwrap()
}

/// A fresh folder holding `rel` as committed beside `tampered` (relative path, edited by `edit`).
fn folder_with(tag: &str, clean: &str, tampered: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("onepath-pinned-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (rel, edit) in [(clean, None), (tampered, Some(edit))] {
        let mut v = committed(rel);
        if let Some(e) = edit {
            e(&mut v);
        }
        let to = dir.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::write(to, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    }
    dir
}

/// Adds one ulp to the real (a 16-digit hex bit pattern) at `pointer`.
fn ulp_up(v: &mut Value, pointer: &str) {
    let r = v.pointer_mut(pointer).unwrap();
    let bits = u64::from_str_radix(r.as_str().unwrap(), 16).unwrap();
    *r = json!(format!("{:016x}", bits + 1));
}

/// The failures of a `vectors` section part as (vector, implementation, query, what).
fn failures(s: &Section) -> Vec<(String, String, Option<usize>, String)> {
    s.failures
        .iter()
        .map(|f| {
            (
                f.vector.clone().unwrap_or_default(),
                f.implementation.clone(),
                f.query,
                f.what.clone(),
            )
        })
        .collect()
}

/// Both crates and the oracle caught the tampered vector `id`, and nothing else failed.
fn caught(s: &Section, once: &Section, id: &str, query: Option<usize>, what: &str) {
    assert_eq!(once.failed, 0, "{:?}", once.failures.first());
    let f = failures(s);
    let mut want = vec![(id.to_string(), "vector".to_string(), None, String::new())];
    for imp in CRATES {
        want.push((
            id.to_string(),
            imp.name().to_string(),
            query,
            what.to_string(),
        ));
    }
    let mut got = f.clone();
    got[0].3 = String::new();
    assert_eq!(got, want, "{f:#?}");
    assert_eq!(
        s.failures[0].what, "the reply of record against the oracle",
        "{f:?}"
    );
    // The clean vector ran on both crates and through the oracle too.
    assert_eq!(s.checks, 6, "{f:?}");
}

// pins [CONF.LATTICE.REPLY]: a reply not {"ran":[{"path":{...}}]} with the listed members, tier-1
// points not 2/3 reals, sliced points not empty, or fields compared out of the clause's order fails
#[test]
fn lattice_replies_have_the_wire_form_and_are_compared_in_field_order() {
    // HEX-0027 (tier 1, world points in a space) with the same query sliced after it.
    for (rel, n) in [
        ("hex-search/HEX-0027.json", 2),
        ("voxel-search/VOXEL-0034.json", 3),
    ] {
        let mut v = committed(rel)["cases"][0]["request"].clone();
        let qs = v.pointer_mut(if n == 2 {
            "/hex/queries"
        } else {
            "/voxel/queries"
        });
        let qs = qs.unwrap().as_array_mut().unwrap();
        let mut sliced = qs[0].clone();
        sliced["schedule"] = json!([1, 2]);
        qs.push(sliced);
        let r = serde_json::from_value(v).unwrap();
        for imp in CRATES {
            let reply = imp.run_lattice(&r).unwrap();
            let wire = serde_json::to_value(&reply).unwrap();
            let ran = wire["ran"].as_array().expect("{\"ran\":[...]}");
            assert_eq!(ran.len(), 2);
            for (i, q) in ran.iter().enumerate() {
                let p = q["path"].as_object().expect("{\"path\":{...}}");
                let keys: Vec<&str> = p.keys().map(String::as_str).collect();
                let mut want = [
                    "algorithm",
                    "cells",
                    "cost",
                    "expanded",
                    "expanded_count",
                    "iterations",
                    "points",
                    "status",
                ];
                want.sort();
                let mut sorted = keys.clone();
                sorted.sort();
                assert_eq!(sorted, want, "{rel} query {i}");
                assert_eq!(p["status"], 2, "{rel} query {i}: Found is 2");
                assert!(p["cost"].as_str().is_some_and(|c| c.len() == 16), "bits");
                let points = p["points"].as_array().unwrap();
                if i == 0 {
                    assert_eq!(points.len(), p["cells"].as_array().unwrap().len());
                    assert!(points.iter().all(|x| x.as_array().unwrap().len() == n));
                } else {
                    assert!(points.is_empty(), "{rel}: a sliced query has no points");
                    assert_eq!(p["cells"], ran[0]["path"]["cells"]);
                }
            }
        }
    }
    // The comparison: two fields changed at once, the earlier one in the clause's order named.
    let r = request("hex-search/HEX-0027.json");
    let good = ReferenceCrate.run_lattice(&r).unwrap();
    let mut two = good.clone();
    let LatticeReply::Ran(q) = &mut two else {
        panic!("built")
    };
    q.push(q[0].clone());
    q.push(q[0].clone());
    let good = two.clone();
    let order = [
        "status",
        "cost",
        "algorithm",
        "cells entry 1",
        "points entry 1",
        "expanded entry 1",
        "iterations",
        "expanded_count",
    ];
    let change = |p: &mut onepath_conformance::lattice::PathReply, field: &str| match field {
        "status" => p.status = 3,
        "cost" => p.cost.0 = f64::from_bits(p.cost.0.to_bits() + 1),
        "algorithm" => p.algorithm = 1,
        "cells entry 1" => p.cells[1] += 1,
        "points entry 1" => p.points[1][0].0 += 1.0,
        "expanded entry 1" => p.expanded[1] += 1,
        "iterations" => p.iterations += 1,
        _ => p.expanded_count += 1,
    };
    for (k, first) in order.iter().enumerate() {
        for later in &order[k..] {
            let mut bad = good.clone();
            let LatticeReply::Ran(q) = &mut bad else {
                unreachable!()
            };
            // The later field in query 1, the earlier one in queries 1 and 2.
            let QueryReply::Path(p) = &mut q[1] else {
                panic!("a path")
            };
            change(p, later);
            change(p, first);
            let QueryReply::Path(p) = &mut q[2] else {
                panic!("a path")
            };
            change(p, first);
            let d = first_difference(&good, &bad).expect("a difference");
            assert_eq!(
                (d.query, d.what.as_str()),
                (Some(1), *first),
                "{first} before {later}"
            );
        }
    }
    // A failed grid against one that ran, and an error against a path.
    let failed = LatticeReply::Failed("invalid_size".into());
    assert_eq!(first_difference(&good, &failed).unwrap().what, "grid");
    assert_eq!(
        serde_json::to_value(&failed).unwrap(),
        json!({"failed": "invalid_size"})
    );
    let mut err = good.clone();
    if let LatticeReply::Ran(q) = &mut err {
        q[2] = QueryReply::Error("cell_out_of_range".into());
    }
    let d = first_difference(&good, &err).unwrap();
    assert_eq!((d.query, d.what.as_str()), (Some(2), "result"));
    assert_eq!(
        serde_json::to_value(&err).unwrap()["ran"][2],
        json!({"error": "cell_out_of_range"})
    );
}

// pins [CONF.LATTICE.VECTOR]: a reader taking a voxel request from hex-search/ (or the reverse), or
// a section not running a vector on each crate with query and field named, or skipping the oracle,
// fails
#[test]
fn lattice_vectors_reject_the_other_shape_and_run_on_every_crate_and_the_oracle() {
    use onepath_conformance::lattice::vectors::{certify, read_dir};
    // A voxel request in hex-search/ and a hex request in voxel-search/.
    let dir = std::env::temp_dir().join(format!("onepath-pinned-shape-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (from, to, id) in [
        ("voxel-search/VOXEL-0001.json", "hex-search", "HEX-0001"),
        ("hex-search/HEX-0001.json", "voxel-search", "VOXEL-0001"),
    ] {
        let mut v = committed(from);
        v["id"] = json!(id);
        v["family"] = json!(to);
        std::fs::create_dir_all(dir.join(to)).unwrap();
        std::fs::write(dir.join(to).join(format!("{id}.json")), v.to_string()).unwrap();
    }
    let e = read_dir(Shape::Hex, &dir).expect_err("a voxel request in hex-search/");
    assert!(
        e.to_string()
            .contains("a voxel-search request in hex-search/"),
        "{e}"
    );
    let e = read_dir(Shape::Voxel, &dir).expect_err("a hex request in voxel-search/");
    assert!(
        e.to_string()
            .contains("a hex-search request in voxel-search/"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).ok();
    // HEX-0027's cost of record one ulp off: both crates differ at query 0's cost, and the
    // oracle rejects the reply of record; HEX-0002 beside it passes.
    let dir = folder_with(
        "hex",
        "hex-search/HEX-0002.json",
        "hex-search/HEX-0027.json",
        |v| ulp_up(v, "/cases/0/expected/ran/0/path/cost"),
    );
    let (mut once, mut s) = (Section::new("vectors"), Section::new("vectors"));
    certify(Shape::Hex, &dir, &CRATES, Shard::ALL, &mut once, &mut s);
    caught(&s, &once, "HEX-0027", Some(0), "cost");
    assert!(
        s.failures[0].found.contains("add up to"),
        "{}",
        s.failures[0].found
    );
    std::fs::remove_dir_all(&dir).ok();
}

// pins [CONF.HPA.VECTOR]: a section that does not run an hpa vector on each crate naming the query
// and field, or does not judge the reply of record by the oracle, fails
#[test]
fn hpa_vectors_run_on_every_crate_and_the_oracle() {
    let dir = folder_with("hpa", "hpa/HPA-0001.json", "hpa/HPA-0010.json", |v| {
        ulp_up(v, "/cases/0/expected/ran/queries/0/path/cost")
    });
    let (mut once, mut s) = (Section::new("vectors"), Section::new("vectors"));
    onepath_conformance::hpa::vectors::certify(&dir, &CRATES, Shard::ALL, &mut once, &mut s);
    caught(&s, &once, "HPA-0010", Some(0), "cost");
    assert!(
        s.failures[0].found.contains("add up to"),
        "{}",
        s.failures[0].found
    );
    std::fs::remove_dir_all(&dir).ok();
}

// pins [CONF.BIDI.VECTOR]: a section that does not run a grid-bidi vector on each crate naming the
// query and field, or does not judge the reply of record by the oracle, fails
#[test]
fn bidi_vectors_run_on_every_crate_and_the_oracle() {
    let dir = folder_with(
        "bidi",
        "grid-bidi/BIDI-0001.json",
        "grid-bidi/BIDI-0028.json",
        |v| {
            let m = v.pointer_mut("/cases/0/expected/ran/meetings/0").unwrap();
            *m = json!(u32::MAX);
        },
    );
    let (mut once, mut s) = (Section::new("vectors"), Section::new("vectors"));
    onepath_conformance::bidi::vectors::certify(&dir, &CRATES, Shard::ALL, &mut once, &mut s);
    caught(&s, &once, "BIDI-0028", Some(0), "meeting");
    assert!(
        s.failures[0].found.contains("[GBIDI.MEETING_CELL]"),
        "{}",
        s.failures[0].found
    );
    std::fs::remove_dir_all(&dir).ok();
}

// pins [CONF.DEBUG.VECTOR]: a section not running a debug vector on each crate (entry, member,
// index named), not checking the reply of record by the kit's reading, or a vector's claim not its
// target's family fails
#[test]
fn debug_vectors_run_on_every_crate_and_the_kits_own_reading() {
    use onepath_conformance::claims::Family;
    use onepath_conformance::debug::vectors::{certify, claim_of_id};
    let dir = folder_with(
        "debug",
        "debug/DEBUG-0005.json",
        "debug/DEBUG-0001.json",
        |v| ulp_up(v, "/cases/0/expected/ran/0/path/points/1/0"),
    );
    let (mut once, mut s) = (Section::new("vectors"), Section::new("vectors"));
    certify(&dir, &CRATES, Shard::ALL, FamilySet::ALL, &mut once, &mut s);
    caught(&s, &once, "DEBUG-0001", None, "query 0: points entry 1");
    assert_eq!(claim_of_id("DEBUG-0001"), Some(Family::GridSearch));
    assert_eq!(claim_of_id("DEBUG-0005"), Some(Family::GridBidi));
    assert_eq!(claim_of_id("DEBUG-0008"), Some(Family::Hpa));
    // Unselected, its target's family runs no vector of it.
    let (mut once, mut s) = (Section::new("vectors"), Section::new("vectors"));
    let only_bidi = FamilySet::of(&[Family::GridBidi]);
    certify(&dir, &CRATES, Shard::ALL, only_bidi, &mut once, &mut s);
    assert_eq!((s.checks, s.failed), (3, 0), "{:?}", failures(&s));
    std::fs::remove_dir_all(&dir).ok();
}

/// An HPA request on an open 10 x 8 map with chunk size 4 (3 x 2 chunks).
fn hpa_request(options: Value, queries: Value) -> HpaRequest {
    serde_json::from_value(json!({
        "map": {"width": 10, "height": 8, "cells": "00".repeat(80),
                "multipliers": [[1, 0.5]], "space": null},
        "options": options,
        "queries": queries,
    }))
    .unwrap()
}

fn hpa_options(chunk_size: u32) -> Value {
    json!({"chunk_size": chunk_size, "connectivity": 8, "diagonal": 2, "weight": 1.0,
           "smooth": false, "record": true, "budget": 0})
}

fn hpa_query(edits: Value, schedule: Value) -> Value {
    json!({"edits": edits, "start": [0, 0], "goal": [9, 7], "schedule": schedule})
}

// pins [CONF.HPA.REQUEST]: an in-process adapter that runs a request with connectivity 6, diagonal
// 3, a schedule beside cancel, an edit outside the map, 3-member ends or short cells, not a harness
// error, fails
#[test]
fn malformed_hpa_requests_are_harness_errors() {
    let good = || {
        serde_json::to_value(hpa_request(
            hpa_options(4),
            json!([hpa_query(json!([[1, 1, 255]]), json!([]))]),
        ))
        .unwrap()
    };
    for imp in CRATES {
        let r: HpaRequest = serde_json::from_value(good()).unwrap();
        assert!(matches!(imp.run_hpa(&r), Ok(HpaReply::Ran(_))));
    }
    let edits: [(&str, fn(&mut Value)); 6] = [
        ("connectivity", |v| v["options"]["connectivity"] = json!(6)),
        ("diagonal", |v| v["options"]["diagonal"] = json!(3)),
        ("cancel", |v| {
            v["queries"][0]["cancel"] = json!(2);
            v["queries"][0]["schedule"] = json!([1]);
        }),
        ("edit", |v| v["queries"][0]["edits"] = json!([[10, 0, 1]])),
        ("ends", |v| v["queries"][0]["goal"] = json!([9, 7, 0])),
        ("cells", |v| v["map"]["cells"] = json!("00".repeat(79))),
    ];
    for (name, edit) in edits {
        let mut v = good();
        edit(&mut v);
        let r: HpaRequest = serde_json::from_value(v).unwrap();
        for imp in CRATES {
            assert!(
                imp.run_hpa(&r).is_err(),
                "{name}: {} ran a malformed request",
                imp.name()
            );
        }
    }
}

// pins [CONF.HPA.QUERY]: a new hierarchy per sliced query (rebuilt chunks again), edits after the
// query, tier 1 run sliced (an abstract path), or sliced queries or a hierarchy when new failed,
// fails
#[test]
fn hpa_queries_share_one_hierarchy_and_edit_first() {
    let r = hpa_request(
        hpa_options(4),
        json!([
            hpa_query(json!([]), json!([1_000_000])),
            hpa_query(json!([]), json!([3])),
            hpa_query(json!([[5, 5, 255]]), json!([1_000_000])),
            hpa_query(json!([[9, 7, 255]]), json!([])),
            hpa_query(json!([[9, 7, 0]]), json!([])),
        ]),
    );
    for imp in CRATES {
        let HpaReply::Ran(ran) = imp.run_hpa(&r).unwrap() else {
            panic!("built")
        };
        let p: Vec<_> = ran
            .queries
            .iter()
            .map(|q| match q {
                HpaQueryReply::Path(p) => p.clone(),
                HpaQueryReply::Error(e) => panic!("{e}"),
            })
            .collect();
        assert_eq!(
            p[0].rebuilt,
            [0, 1, 2, 3, 4, 5],
            "the first refresh builds all"
        );
        assert!(p[0].abstract_path.len() >= 2 && p[0].points.is_empty());
        assert_eq!(p[1].rebuilt, Vec::<u32>::new(), "the hierarchy is reused");
        assert_eq!((p[1].status, &p[1].cells), (2, &p[0].cells));
        assert_eq!(
            p[2].rebuilt,
            [4],
            "the edit came first and dirtied chunk 4 alone"
        );
        assert!(!p[2].cells.contains(&55), "the wall (5, 5) is avoided");
        // Tier 1 on the edited grid: the goal walled, then opened again.
        assert_eq!(p[3].status, 3);
        assert_eq!(p[4].status, 2);
        for t in &p[3..] {
            assert!(t.abstract_path.is_empty() && t.rebuilt.is_empty());
        }
        assert_eq!(p[4].points.len(), p[4].cells.len());
        assert!(ran.hierarchy.as_ref().is_some_and(|h| h.built));
    }
    // new fails (chunk size 1): every sliced query is its error, tier 1 its own, no hierarchy.
    let r = hpa_request(
        hpa_options(1),
        json!([
            hpa_query(json!([]), json!([5])),
            hpa_query(json!([]), json!([]))
        ]),
    );
    for imp in CRATES {
        let HpaReply::Ran(ran) = imp.run_hpa(&r).unwrap() else {
            panic!("built")
        };
        let err = HpaQueryReply::Error("invalid_options".into());
        assert_eq!(ran.queries, [err.clone(), err]);
        assert_eq!(ran.hierarchy, None);
    }
}

/// A bidirectional request on an open `w` x `h` map.
fn bidi_request(w: u32, h: u32, algorithm: u8, queries: Value) -> BidiRequest {
    serde_json::from_value(json!({
        "map": {"width": w, "height": h, "cells": "00".repeat((w * h) as usize),
                "multipliers": [[1, 0.5]], "space": null},
        "options": {"agent_size": 1, "connectivity": 8, "diagonal": 2, "algorithm": algorithm,
                    "cell_cost": null, "blocked": null, "weight": 1.0, "record": true,
                    "budget": 0},
        "queries": queries,
    }))
    .unwrap()
}

// pins [CONF.BIDI.QUERY]: a scheduled query run as tier 1 (points, no meeting), a cancel query
// without its trace, or a sliced loop of one call more or fewer than 2^20 (not 1,024 pops each)
// fails
#[test]
fn bidi_queries_run_tier_1_sliced_or_cancelled_and_stop_at_the_cap() {
    let ends = json!({"start": [0, 0], "goal": [15, 11]});
    let q = |schedule: Value, cancel: Option<u64>| {
        let mut q = ends.clone();
        q["schedule"] = schedule;
        if let Some(k) = cancel {
            q["cancel"] = json!(k);
        }
        q
    };
    let r = bidi_request(
        16,
        12,
        0,
        json!([
            q(json!([]), None),
            q(json!([1, 2, 3]), None),
            q(json!([]), Some(2))
        ]),
    );
    for imp in CRATES {
        let BidiReply::Ran(ran) = imp.run_bidi(&r).unwrap() else {
            panic!("built")
        };
        let p: Vec<_> = ran
            .queries
            .iter()
            .map(|q| match q {
                QueryReply::Path(p) => p.clone(),
                QueryReply::Error(e) => panic!("{e}"),
            })
            .collect();
        assert_eq!(p[0].status, 2);
        assert_eq!(p[0].points.len(), p[0].cells.len(), "tier 1 has points");
        assert_eq!(ran.meetings[0], None, "tier 1 has no meeting");
        assert!(p[1].points.is_empty(), "the sliced form has none");
        assert_eq!(
            (p[1].status, &p[1].cells, p[1].iterations),
            (2, &p[0].cells, p[0].iterations)
        );
        let m = ran.meetings[1].expect("a sliced meeting");
        assert!(p[1].cells.contains(&m));
        assert_eq!(p[0].cancel, None);
        assert_eq!(p[1].cancel, None);
        let t = p[2].cancel.as_ref().expect("a cancel trace");
        assert_eq!(t.len(), 3);
        assert_eq!(t[0], (1, 2), "Running after step(2)");
        assert!(ran.meetings[2].is_some() || p[2].status == 1);
    }
    // Dijkstra across an open 64 x 64 map with [1, 0 x 1023] and [0 x 1023, 1] cycled: 2^20
    // calls pop 1,024 times each (one call more pops a 1,025th in the first, one fewer loses
    // the last pop of the second).
    let (mut first, mut last) = (vec![0u64; 1024], vec![0u64; 1024]);
    first[0] = 1;
    last[1023] = 1;
    let r = bidi_request(
        64,
        64,
        1,
        json!([{"start": [0, 0], "goal": [63, 63], "schedule": first},
               {"start": [0, 0], "goal": [63, 63], "schedule": last}]),
    );
    for imp in CRATES {
        let BidiReply::Ran(ran) = imp.run_bidi(&r).unwrap() else {
            panic!("built")
        };
        for q in &ran.queries {
            let QueryReply::Path(p) = q else {
                panic!("a path")
            };
            assert_eq!((p.status, p.iterations), (1, 1024), "{}", imp.name());
            assert!(p.cost.0.is_infinite() && p.cells.is_empty());
        }
    }
}

// pins [CONF.DEBUG.REQUEST]: describing a scheduled query instead of a harness error, an hpa
// hierarchy not new and refreshed, no error entry when new fails, or no grid failure class, fails
#[test]
fn describe_requests_are_tier_1_with_a_new_hierarchy() {
    let grid = || committed("debug/DEBUG-0001.json")["cases"][0]["request"].clone();
    let hpa = |chunk: u32| {
        json!({"hpa": hpa_request(
            hpa_options(chunk),
            json!([hpa_query(json!([]), json!([])), hpa_query(json!([[5, 5, 255]]), json!([]))]),
        )})
    };
    let decode = |v: Value| -> DescribeRequest { serde_json::from_value(v).unwrap() };
    for imp in CRATES {
        // A schedule in any path target is a harness error.
        for v in [
            grid(),
            json!({"bidi": grid()["grid"]}),
            committed("debug/DEBUG-0006.json")["cases"][0]["request"].clone(),
            committed("debug/DEBUG-0007.json")["cases"][0]["request"].clone(),
            hpa(4),
        ] {
            let target = v.as_object().unwrap().keys().next().unwrap().clone();
            assert!(imp.describe(&decode(v.clone())).is_ok(), "{target}");
            let mut bad = v;
            bad[&target]["queries"][0]["schedule"] = json!([1]);
            assert!(
                imp.describe(&decode(bad)).is_err(),
                "{target}: a schedule ran"
            );
        }
        // hpa: one path per query (tier 1), then a new hierarchy refreshed on the edited grid.
        let Ok(DescribeReply::Ran(e)) = imp.describe(&decode(hpa(4))) else {
            panic!("ran")
        };
        assert_eq!(e.len(), 3);
        assert!(matches!(&e[0], DescribeEntry::Described(Description::Path(p)) if p.status == 2));
        let DescribeEntry::Described(Description::Hierarchy(h)) = &e[2] else {
            panic!("a hierarchy")
        };
        assert!(h.built && h.chunks == [3, 2] && !h.nodes.is_empty());
        // new fails: the paths are tier 1's error, the hierarchy entry new's.
        let Ok(DescribeReply::Ran(e)) = imp.describe(&decode(hpa(1))) else {
            panic!("ran")
        };
        let err = serde_json::to_value(&e).unwrap();
        let e = json!({"error": "invalid_options"});
        assert_eq!(err, json!([e.clone(), e.clone(), e]));
        // A grid whose multiplier is refused: `failed` with the setter's class.
        let mut bad = grid();
        bad["grid"]["map"]["multipliers"] = json!([[1, 0.5], [2, 0.0]]);
        let reply = imp.describe(&decode(bad)).unwrap();
        assert_eq!(
            serde_json::to_value(&reply).unwrap(),
            json!({"failed": "invalid_multiplier"})
        );
    }
}

/// The member names of the one description of `entry`, in wire order.
fn members(entry: &Value) -> (String, Vec<String>) {
    let (kind, d) = entry.as_object().unwrap().iter().next().unwrap();
    (
        kind.clone(),
        d.as_object().unwrap().keys().cloned().collect(),
    )
}

// pins [CONF.DEBUG.REPLY]: a description with a member missing, renamed or out of the listed order,
// a status not 2/3/4, a graph algorithm not a name, or a real not a bit pattern fails
#[test]
fn descriptions_have_the_wire_form() {
    let path = [
        "width",
        "height",
        "algorithm",
        "status",
        "cost",
        "cells",
        "points",
        "expanded",
        "expanded_points",
        "expanded_count",
        "iterations",
    ];
    let voxel: Vec<&str> = ["size"]
        .into_iter()
        .chain(path[2..].iter().copied())
        .collect();
    let graph = [
        "algorithm",
        "status",
        "cost",
        "nodes",
        "positions",
        "expanded",
        "expanded_positions",
        "expanded_count",
        "iterations",
    ];
    let replan = [
        "width",
        "height",
        "mode",
        "start",
        "goal",
        "initialized",
        "found",
        "cost",
        "cells",
        "path_error",
        "points",
        "expanded",
        "expanded_kinds",
        "expanded_points",
        "expanded_count",
        "iterations",
        "pending",
    ];
    let hierarchy = [
        "built",
        "chunk_size",
        "chunks",
        "nodes",
        "node_points",
        "edges",
    ];
    let flow = [
        "width", "height", "costs", "next", "goals", "status", "settled",
    ];
    let mut seen = std::collections::BTreeSet::new();
    for n in 1..=17 {
        let rel = format!("debug/DEBUG-{n:04}.json");
        let r: DescribeRequest = request(&rel);
        for imp in CRATES {
            let DescribeReply::Ran(entries) = imp.describe(&r).unwrap() else {
                panic!("{rel}: ran")
            };
            for e in &entries {
                // Serialised to text, so the members keep their wire order.
                let text = serde_json::to_string(e).unwrap();
                let e: Value = serde_json::from_str(&text).unwrap();
                if e.get("error").is_some() {
                    continue;
                }
                let (kind, got) = members(&e);
                let want: &[&str] = match kind.as_str() {
                    "path" => &path,
                    "voxel_path" => &voxel,
                    "graph_path" => &graph,
                    "replan" => &replan,
                    "hierarchy" => &hierarchy,
                    "flow" => &flow,
                    other => panic!("{rel}: an entry {other}"),
                };
                let order: Vec<String> = {
                    // serde_json without preserve_order sorts; read the order from the text.
                    let at = |m: &str| text.find(&format!("\"{m}\":")).unwrap();
                    let mut g = got.clone();
                    g.sort_by_key(|m| at(m));
                    g
                };
                let mut sorted_want: Vec<&str> = want.to_vec();
                sorted_want.sort();
                let mut sorted_got: Vec<&str> = got.iter().map(String::as_str).collect();
                sorted_got.sort();
                assert_eq!(sorted_got, sorted_want, "{rel}: {kind}");
                assert_eq!(order, want, "{rel}: {kind} in order");
                let d = &e[&kind];
                if kind.ends_with("path") {
                    assert!([2, 3, 4].contains(&d["status"].as_u64().unwrap()), "{rel}");
                    assert!(d["cost"].as_str().is_some_and(|c| c.len() == 16), "{rel}");
                }
                if kind == "graph_path" {
                    let a = d["algorithm"].as_str().unwrap();
                    assert!(
                        [
                            "dijkstra",
                            "astar",
                            "bidirectional_dijkstra",
                            "bidirectional_astar"
                        ]
                        .contains(&a),
                        "{rel}: {a}"
                    );
                }
                seen.insert(kind);
            }
        }
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
}

// pins [CONF.DEBUG.LEVEL]: a target claimed by another family, a status, cost or failure class not
// at L1, cells, points, size or algorithm not at L2, or expansions or counters not at L3 fails
#[test]
fn describe_differences_break_the_level_of_what_they_copy() {
    use onepath_conformance::debug::vectors::claim;
    let want = [
        (1, "grid-search"),
        (5, "grid-bidi"),
        (6, "hex-search"),
        (7, "voxel-search"),
        (8, "hpa"),
        (9, "graph"),
        (12, "replanning"),
        (15, "flow-field"),
    ];
    for (n, family) in want {
        let r: DescribeRequest = request(&format!("debug/DEBUG-{n:04}.json"));
        assert_eq!(claim(&r).name(), family, "DEBUG-{n:04}");
    }
    let r: DescribeRequest = request("debug/DEBUG-0001.json");
    let good = ReferenceCrate.describe(&r).unwrap();
    let level = |f: &dyn Fn(&mut onepath_conformance::debug::PathData)| {
        let mut bad = good.clone();
        let DescribeReply::Ran(e) = &mut bad else {
            panic!("ran")
        };
        let DescribeEntry::Described(Description::Path(p)) = &mut e[0] else {
            panic!("a path")
        };
        f(p);
        describe_break(&r, &Ok(good.clone()), &Ok(bad)).map(|b| b.level)
    };
    assert_eq!(level(&|p| p.status = 3), Some(Level::L1));
    assert_eq!(level(&|p| p.cost.0 += 1.0), Some(Level::L1));
    assert_eq!(level(&|p| p.width += 1), Some(Level::L2));
    assert_eq!(level(&|p| p.algorithm = 1), Some(Level::L2));
    assert_eq!(level(&|p| p.cells[1] += 1), Some(Level::L2));
    assert_eq!(level(&|p| p.points[1][0].0 += 1.0), Some(Level::L2));
    assert_eq!(level(&|p| p.expanded[1] += 1), Some(Level::L3));
    assert_eq!(
        level(&|p| p.expanded_points[1][0].0 += 1.0),
        Some(Level::L3)
    );
    assert_eq!(level(&|p| p.iterations += 1), Some(Level::L3));
    assert_eq!(level(&|p| p.expanded_count += 1), Some(Level::L3));
    // The lowest level broken wins over the first member: cells (L2) come before the cost (L1).
    assert_eq!(
        level(&|p| {
            p.cells[1] += 1;
            p.cost.0 += 1.0
        }),
        Some(Level::L1)
    );
    assert_eq!(level(&|_| {}), None);
    let failed = DescribeReply::Failed("invalid_size".into());
    assert_eq!(
        describe_break(&r, &Ok(good.clone()), &Ok(failed)).map(|b| b.level),
        Some(Level::L1)
    );
}
