//! A sweep of corrupted copies of `vectors/` ([CONF.STATE.SHAPE], [CONF.VEC.MAPS],
//! [DRIVER.VERDICT]): for every family, a file whose bytes are cut short with its hashes and the
//! manifest recomputed so they stay consistent, a member of the wrong shape, a wrong kind. Each
//! copy is certified (`--port` with the Python port, one generated case, the file's family) and
//! must end in exit 1 or 2 with the file named, never a panic (101), an abort or a pass.

mod cli;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A copy of `vectors/` with `rel` replaced by `text` and the manifest entry of `rel` set to
/// the new text's hash (so only the content is wrong, never the bookkeeping).
fn corrupted(test: &str, rel: &str, text: &str) -> PathBuf {
    let dir = cli::scratch("corrupt", test).join("vectors");
    copy_dir(&root().join("vectors"), &dir);
    std::fs::write(dir.join(rel), text).unwrap();
    let manifest = dir.join("MANIFEST.json");
    let mut m: Value = serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    for e in m["files"].as_array_mut().unwrap() {
        if e["path"] == rel {
            e["sha256"] = json!(sha(text.as_bytes()));
        }
    }
    std::fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap() + "\n").unwrap();
    dir
}

fn edited(rel: &str, edit: impl FnOnce(&mut Value)) -> String {
    let path = root().join("vectors").join(rel);
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

/// Cuts the hex string at `pointer` to `keep` bytes and, when its object has a `sha256`, sets
/// that to the hash of the cut bytes.
fn cut_hex(v: &mut Value, pointer: &str, keep: usize) {
    let (parent, member) = pointer.rsplit_once('/').unwrap();
    let obj = v.pointer_mut(parent).unwrap().as_object_mut().unwrap();
    let bytes = hex::decode(obj[member].as_str().unwrap()).unwrap();
    let cut = &bytes[..keep.min(bytes.len())];
    obj.insert(member.into(), json!(hex::encode(cut)));
    if obj.contains_key("sha256") {
        obj.insert("sha256".into(), json!(sha(cut)));
    }
}

/// Certifies `dir` for `family` with the Python port; (exit code, stdout and stderr).
fn certify(dir: &Path, family: &str) -> (i32, String) {
    let driver = root().join("conformance/ports/python/driver.py");
    let port = format!("python3 {}", driver.display());
    let (code, out, err) = cli::run(&[
        "certify",
        "--port",
        &port,
        "--family",
        family,
        "--port-cases",
        "1",
        "--threads",
        "1",
        "--heartbeat",
        "0",
        "--vectors",
        dir.to_str().unwrap(),
    ]);
    (code, out + &err)
}

struct Case {
    name: &'static str,
    rel: &'static str,
    family: &'static str,
    text: String,
}

fn case(name: &'static str, rel: &'static str, family: &'static str, text: String) -> Case {
    Case {
        name,
        rel,
        family,
        text,
    }
}

fn cases() -> Vec<Case> {
    let half = |rel: &str| {
        let t = std::fs::read_to_string(root().join("vectors").join(rel)).unwrap();
        t[..t.len() / 2].to_string()
    };
    vec![
        // The case: a golden state's bytes cut short, hex, sha256 and manifest
        // consistent (was a panic at state/layout.rs:259).
        case(
            "state_grid_cut",
            "state/STATE-GRID-0001.json",
            "grids",
            edited("state/STATE-GRID-0001.json", |v| {
                cut_hex(v, "/cases/0/golden/bytes", 40)
            }),
        ),
        case(
            "state_search_cut",
            "state/STATE-GRAPHASTAR-0003.json",
            "graph",
            edited("state/STATE-GRAPHASTAR-0003.json", |v| {
                cut_hex(v, "/cases/0/golden/bytes", 60)
            }),
        ),
        case(
            "state_flow_cut_one_byte",
            "state/STATE-FLOWFIELD-0003.json",
            "flow-field",
            edited("state/STATE-FLOWFIELD-0003.json", |v| {
                let n = v["cases"][0]["golden"]["bytes"].as_str().unwrap().len() / 2;
                cut_hex(v, "/cases/0/golden/bytes", n - 1)
            }),
        ),
        // A wrong kind: the grid golden's recipe read as a hex grid.
        case(
            "state_wrong_kind",
            "state/STATE-GRID-0002.json",
            "grids",
            edited("state/STATE-GRID-0002.json", |v| {
                let r = &mut v["cases"][0]["golden"]["recipe"];
                r["kind"] = json!("hex_grid");
                r["layout"] = json!(0);
            }),
        ),
        // A recipe of 2^31 rows (was an allocation abort of 27.9 GB in the state adapter).
        case(
            "state_recipe_huge",
            "state/STATE-GRIDSEARCH-0014.json",
            "grid-search",
            edited("state/STATE-GRIDSEARCH-0014.json", |v| {
                v["cases"][0]["golden"]["recipe"]["height"] = json!(1u64 << 31)
            }),
        ),
        case(
            "state_hostile_huge_edit",
            "state/hostile/STATE-GRID-0001.json",
            "grids",
            edited("state/hostile/STATE-GRID-0001.json", |v| {
                let e = &mut v["cases"][0]["hostile"]["mutations"][0]["edits"][0];
                e[0] = json!(u64::MAX);
                e[1] = json!(u64::MAX);
            }),
        ),
        // Maps whose cells disagree with their sides (were an index panic in grid/oracle.rs
        // and an allocation abort).
        case(
            "flow_cells_cut",
            "flow-field/FLOW-0001.json",
            "flow-field",
            edited("flow-field/FLOW-0001.json", |v| {
                cut_hex(v, "/cases/0/request/grid/map/cells", 35)
            }),
        ),
        case(
            "flow_width_huge",
            "flow-field/FLOW-0001.json",
            "flow-field",
            edited("flow-field/FLOW-0001.json", |v| {
                v["cases"][0]["request"]["grid"]["map"]["width"] = json!(1u64 << 31)
            }),
        ),
        case(
            "replan_cells_cut",
            "replanning/REPLAN-0001.json",
            "replanning",
            edited("replanning/REPLAN-0001.json", |v| {
                cut_hex(v, "/cases/0/request/grid/map/cells", 5)
            }),
        ),
        case(
            "grid_cells_cut",
            "grids/GRID-0001.json",
            "grid-search",
            edited("grids/GRID-0001.json", |v| {
                cut_hex(v, "/cases/0/map/cells", 5)
            }),
        ),
        case(
            "hpa_cells_cut",
            "hpa/HPA-0001.json",
            "hpa",
            edited("hpa/HPA-0001.json", |v| {
                cut_hex(v, "/cases/0/request/map/cells", 7)
            }),
        ),
        case(
            "hex_cells_cut",
            "hex-search/HEX-0001.json",
            "hex-search",
            edited("hex-search/HEX-0001.json", |v| {
                cut_hex(v, "/cases/0/request/hex/map/cells", 3)
            }),
        ),
        case(
            "voxel_cells_cut",
            "voxel-search/VOXEL-0001.json",
            "voxel-search",
            edited("voxel-search/VOXEL-0001.json", |v| {
                cut_hex(v, "/cases/0/request/voxel/cells", 20)
            }),
        ),
        case(
            "debug_cells_cut",
            "debug/DEBUG-0001.json",
            "grid-search",
            edited("debug/DEBUG-0001.json", |v| {
                cut_hex(v, "/cases/0/request/grid/map/cells", 9)
            }),
        ),
        case(
            "world_cells_cut",
            "world/SYNC-0001.json",
            "grids",
            edited("world/SYNC-0001.json", |v| {
                cut_hex(v, "/cases/0/session/map/cells", 100)
            }),
        ),
        // Cut text (was a pass: the folder's failure was excused as an unclaimed family).
        case(
            "bidi_text_cut",
            "grid-bidi/BIDI-0001.json",
            "grid-bidi",
            half("grid-bidi/BIDI-0001.json"),
        ),
        case(
            "records_text_cut",
            "records/RECORD-0001.json",
            "graph",
            half("records/RECORD-0001.json"),
        ),
        // Wrong shapes and kinds.
        case(
            "graph_edges_shape",
            "graphs/GRAPH-0002.json",
            "graph",
            edited("graphs/GRAPH-0002.json", |v| {
                v["cases"][0]["graph"]["edges"] = json!({"x": 1})
            }),
        ),
        case(
            "hex_wrong_family",
            "hex-search/HEX-0002.json",
            "hex-search",
            edited("hex-search/HEX-0002.json", |v| {
                v["family"] = json!("voxel-search")
            }),
        ),
    ]
}

/// One corrupted folder certified: `None` when it ended in a typed error naming the file.
fn judge(c: &Case) -> Option<String> {
    let dir = corrupted(c.name, c.rel, &c.text);
    let (code, out) = certify(&dir, c.family);
    let id = Path::new(c.rel).file_stem().unwrap().to_str().unwrap();
    let named = out.contains(c.rel) || out.contains(id);
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    if !(code == 1 || code == 2) || !named || out.contains("panicked") {
        let tail: String = out.lines().rev().take(12).collect::<Vec<_>>().join("\n");
        return Some(format!(
            "{} ({}): exit {code}, named {named}\n{tail}",
            c.name, c.rel
        ));
    }
    None
}

// pins [CONF.VEC.MAPS]: a map whose cells disagree with its sides, in every family's vectors (hash
// and manifest kept consistent), must be refused naming the file, never a panic (101) or a pass
// pins [CONF.STATE.SHAPE]: golden bytes of the wrong shape, a recipe past 2^26 cells or a hostile
// edit past the end with consistent hashes must end in an error naming the file; a panic or a pass
// fails here
#[test]
fn corrupted_vector_folders_end_in_a_typed_error_naming_the_file() {
    // Two certify processes at a time (each runs its port with one thread).
    let cases = cases();
    let (even, odd): (Vec<_>, Vec<_>) = cases.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let bad: Vec<String> = std::thread::scope(|s| {
        let halves = [even, odd].map(|half| {
            s.spawn(move || {
                half.into_iter()
                    .filter_map(|(_, c)| judge(c))
                    .collect::<Vec<_>>()
            })
        });
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("a judging thread panicked"))
            .collect()
    });
    assert!(cases.len() >= 19, "only {} cases", cases.len());
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}
