//! The one vector envelope ([CONF.VEC.ENVELOPE], [CONF.VEC.RETIRED]) and the family registry
//! ([CONF.FAMILY.REGISTRY], [CONF.FAMILY.VECTORS]): every committed vector file is an envelope
//! its family reads; a retired, foreign, misnamed or malformed file is rejected with a typed
//! error naming the file and what is wrong.

use onepath_conformance::checks::default_vectors_dir;
use onepath_conformance::claims::Family;
use onepath_conformance::envelope::{read_family, Envelope, RETIRED_SCHEMAS, VECTOR_SCHEMA};
use onepath_conformance::error::ErrorKind;
use onepath_conformance::family::{claim_of, names, vector_refs};
use onepath_conformance::grid::vectors::GridVector;
use onepath_conformance::scenario::Scenario;
use onepath_conformance::state::files::{HostileFile, StateVector};
use onepath_conformance::vectors::list_files;
use serde_json::Value;

fn committed(rel: &str) -> String {
    std::fs::read_to_string(default_vectors_dir().join(rel)).expect("committed vector")
}

fn edited(rel: &str, edit: impl FnOnce(&mut serde_json::Map<String, Value>)) -> String {
    let mut v: Value = serde_json::from_str(&committed(rel)).unwrap();
    edit(v.as_object_mut().unwrap());
    v.to_string()
}

// pins [CONF.VEC.ENVELOPE]: every committed vector file must have exactly schema, version, id,
// family, _comment, cases in that order, schema onepath.vector, its folder's family and an id equal
// to its file name
#[test]
fn every_vector_file_is_an_envelope_of_its_family() {
    let dir = default_vectors_dir();
    let mut seen = 0;
    for rel in list_files(&dir).unwrap() {
        let family = match rel.split('/').next().unwrap() {
            "graphs" if rel.contains("GRAPH-") => "graph",
            "grids" if rel.contains("GRID-") => "grid-search",
            "replanning" => "replanning",
            "flow-field" => "flow-field",
            "hex-search" => "hex-search",
            "voxel-search" => "voxel-search",
            "hpa" => "hpa",
            "grid-bidi" => "grid-bidi",
            "state" => "state",
            "debug" => "debug",
            "records" => "records",
            "world" => "world",
            _ => continue,
        };
        let text = committed(&rel);
        let v: Value = serde_json::from_str(&text).unwrap();
        // Top-level members in file order: the lines indented by exactly two spaces.
        let keys: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("  \""))
            .filter_map(|l| l.split('"').next())
            .collect();
        assert_eq!(v.as_object().unwrap().len(), keys.len(), "{rel}");
        assert_eq!(
            keys,
            ["schema", "version", "id", "family", "_comment", "cases"],
            "{rel}"
        );
        assert_eq!(v["schema"], VECTOR_SCHEMA, "{rel}");
        assert_eq!(v["family"], family, "{rel}");
        let name = rel.rsplit('/').next().unwrap();
        assert_eq!(format!("{}.json", v["id"].as_str().unwrap()), name);
        seen += 1;
    }
    // Every vector once, one hostile file beside each state vector, and the record vectors
    // (which no port consumes, so they are not among the refs: [RECORD.VECTOR.CHECK]).
    let refs = vector_refs(&dir);
    let state = refs.iter().filter(|v| v.hostile).count();
    assert!(state > 0);
    let records = onepath_conformance::records::vectors::read_dir(&dir)
        .unwrap()
        .len();
    assert_eq!(records, 8);
    assert_eq!(seen, refs.len() + state + records);
}

// pins [CONF.VEC.RETIRED]: a file carrying any of the four retired schemas (graph-scenario,
// grid-vector, state-vector, state-hostile) must be rejected as a Version error naming the schema
// as retired
#[test]
fn retired_schemas_are_rejected_by_name() {
    for (rel, retired) in [
        ("graphs/GRAPH-0001.json", RETIRED_SCHEMAS[0]),
        ("grids/GRID-0001.json", RETIRED_SCHEMAS[1]),
        ("state/STATE-ASTAR-0001.json", RETIRED_SCHEMAS[2]),
        ("state/hostile/STATE-ASTAR-0001.json", RETIRED_SCHEMAS[3]),
    ] {
        let text = edited(rel, |o| {
            o.insert("schema".into(), retired.into());
        });
        let e = Envelope::<Value>::parse(&text, "graph").unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Version);
        assert!(
            e.to_string()
                .contains(&format!("schema {retired:?} is retired")),
            "{e}"
        );
    }
}

#[test]
fn header_errors_come_before_body_errors() {
    let rel = "graphs/GRAPH-0001.json";
    let cases = [
        (
            edited(rel, |o| {
                o.insert("version".into(), 2.into());
            }),
            ErrorKind::Version,
            "unsupported version 2",
        ),
        (
            edited(rel, |o| {
                o.insert("family".into(), "state".into());
            }),
            ErrorKind::Schema,
            "family \"state\", expected \"graph\"",
        ),
        (
            edited(rel, |o| {
                o.insert("extra".into(), 1.into());
            }),
            ErrorKind::Parse,
            "unknown field `extra`",
        ),
        (
            edited(rel, |o| {
                o.remove("_comment");
            }),
            ErrorKind::Parse,
            "missing field `_comment`",
        ),
        (
            edited(rel, |o| {
                let c = o["cases"][0].clone();
                o["cases"].as_array_mut().unwrap().push(c);
            }),
            ErrorKind::Schema,
            "2 cases, expected exactly 1",
        ),
        (
            edited(rel, |o| {
                o["cases"][0]
                    .as_object_mut()
                    .unwrap()
                    .insert("stray".into(), 1.into());
            }),
            ErrorKind::Parse,
            "unknown field `stray`",
        ),
    ];
    for (text, kind, what) in cases {
        let e = Scenario::parse(&text).unwrap_err();
        assert_eq!(e.kind(), kind, "{e}");
        assert!(e.to_string().contains(what), "{e} should say {what}");
    }
}

#[test]
fn state_files_hold_the_case_their_place_says() {
    let golden = committed("state/STATE-ASTAR-0001.json");
    let hostile = committed("state/hostile/STATE-ASTAR-0001.json");
    assert!(StateVector::parse(&golden).is_ok());
    assert!(HostileFile::parse(&hostile).is_ok());
    let e = StateVector::parse(&hostile).unwrap_err();
    assert!(e.to_string().contains("expected a golden case"), "{e}");
    let e = HostileFile::parse(&golden).unwrap_err();
    assert!(e.to_string().contains("expected a hostile case"), "{e}");
    let e = GridVector::parse(&golden).unwrap_err();
    assert!(e.to_string().contains("family \"state\""), "{e}");
}

#[test]
fn a_file_whose_id_is_not_its_name_is_named() {
    let tmp = std::env::temp_dir().join(format!("onepath-envelope-{}", std::process::id()));
    std::fs::create_dir_all(tmp.join("grids")).unwrap();
    std::fs::write(
        tmp.join("grids/GRID-0099.json"),
        committed("grids/GRID-0001.json"),
    )
    .unwrap();
    let e = read_family(&tmp, "grids", "GRID-", "grid-search", |e| {
        GridVector::from_envelope(e)
    })
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema);
    assert!(
        e.to_string().starts_with("grids/GRID-0099.json: ") && e.to_string().contains("GRID-0001"),
        "{e}"
    );
    std::fs::remove_dir_all(&tmp).unwrap();
}

// pins [CONF.FAMILY.REGISTRY]: the registry must list the twelve families in the spec's order, and
// each vector prefix (state per kind) must be claimed by the family the spec names
#[test]
fn the_registry_lists_every_family_and_owns_every_label() {
    assert_eq!(
        names(),
        [
            "graph",
            "grid-search",
            "replanning",
            "flow-field",
            "hex-search",
            "voxel-search",
            "hpa",
            "grid-bidi",
            "state",
            "debug",
            "records",
            "world"
        ]
    );
    let refs = vector_refs(&default_vectors_dir());
    for (prefix, claim) in [
        ("GRAPH-", Family::Graph),
        ("GRID-", Family::GridSearch),
        ("STATE-GRAPH-", Family::Graph),
        ("STATE-GRAPHASTAR-", Family::Graph),
        ("STATE-GRID-", Family::Grids),
        ("STATE-HEX-", Family::Grids),
        ("STATE-VOXEL-", Family::Grids),
        ("STATE-ASTAR-", Family::GridSearch),
        ("STATE-GRIDSEARCH-", Family::GridSearch),
        ("REPLAN-", Family::Replanning),
        ("STATE-GRIDREPLANNER-", Family::Replanning),
        ("STATE-HEXREPLANNER-", Family::Replanning),
        ("FLOW-", Family::FlowField),
        ("STATE-FLOWFIELD-", Family::FlowField),
        ("HEX-", Family::HexSearch),
        ("VOXEL-", Family::VoxelSearch),
        ("HPA-", Family::Hpa),
        ("BIDI-", Family::GridBidi),
        ("SYNC-", Family::Grids),
    ] {
        let of: Vec<_> = refs.iter().filter(|v| v.id.starts_with(prefix)).collect();
        assert!(!of.is_empty(), "no vector {prefix}*");
        for v in of {
            assert_eq!(v.claim, claim, "{}", v.id);
            assert_eq!(claim_of(&v.id, "-"), claim, "{}", v.id);
            let hostile = format!("{}-H0001", v.id);
            assert_eq!(v.owns(&hostile), v.id.starts_with("STATE-"), "{hostile}");
        }
    }
    assert_eq!(claim_of("oracle#17", "-"), Family::Graph);
    assert_eq!(claim_of("movingai#3", "-"), Family::GridSearch);
    assert_eq!(
        claim_of("snapshot#2", "port: crash (state_run:grids, request 9)"),
        Family::Grids
    );
}

/// [CONF.SCN.GRAPH] An edges graph's positions are one per node: a list one short (which would
/// leave the Euclidean estimate of the geo variants without a point for the last node) is a
/// schema error naming the member, never a run.
// pins [CONF.SCN.GRAPH]: an edges graph whose positions list is one short of node_count must be a
// schema error naming graph.positions, never a run; the edges/points forms are read with
// deny_unknown_fields
#[test]
fn positions_one_short_of_the_nodes_are_named() {
    let text = edited("graphs/GRAPH-0001.json", |o| {
        o["cases"][0]["graph"]["positions"]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    let e = Scenario::parse(&text).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Schema, "{e}");
    assert!(e.to_string().contains("7 positions for 8 nodes"), "{e}");
    assert!(e.to_string().contains("graph.positions"), "{e}");
}
