//! The JSON Schemas of driver protocol version 2 ([DRIVER.SCHEMA]), generated from the message
//! types of `messages.rs` so that schema and wire form cannot drift apart. They are published
//! under `spec/schemas/driver-v2/`; `onepath-conformance schemas --check` (and a test) fails when
//! the committed files differ from the generated ones.

use super::messages::*;
use schemars::{generate::SchemaSettings, JsonSchema};
use std::path::Path;

/// The folder of the schemas inside the repository.
pub const SCHEMA_DIR: &str = "spec/schemas/driver-v2";

/// The members that are absent, not null, where they do not apply: the cancel query's `cancel`
/// and its reply's trace ([CONF.HPA.CANCEL], [CONF.LATTICE.CANCEL]), added after protocol 2 was
/// published, so that every older `run_hpa`, `run_lattice` and `run_bidi` request and reply keeps
/// its bytes. `(definition, member)`.
const OPTIONAL: [(&str, &str); 4] = [
    ("HpaQuery", "cancel"),
    ("HpaPathReply", "cancel"),
    ("Query", "cancel"),
    ("PathReply", "cancel"),
];

/// Every member of every message object is required ([DRIVER.MSG.STRICT]): an absent value is
/// `null`, never a missing member, so each object schema lists all its properties as required,
/// except the members of [`OPTIONAL`].
fn require_all(v: &mut serde_json::Value) {
    require_all_in(v, "");
}

/// [`require_all`] inside the definition named `def` (`""` outside a definition's own object).
fn require_all_in(v: &mut serde_json::Value, def: &str) {
    match v {
        serde_json::Value::Object(o) => {
            if let Some(serde_json::Value::Object(props)) = o.get("properties") {
                let names: Vec<serde_json::Value> = props
                    .keys()
                    .filter(|k| !OPTIONAL.contains(&(def, k.as_str())))
                    .map(|k| k.clone().into())
                    .collect();
                o.insert("required".into(), names.into());
            }
            for (key, value) in o.iter_mut() {
                match (key.as_str(), value) {
                    ("$defs", serde_json::Value::Object(defs)) => {
                        for (name, d) in defs.iter_mut() {
                            require_all_in(d, name);
                        }
                    }
                    (_, value) => require_all_in(value, ""),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|x| require_all_in(x, "")),
        _ => {}
    }
}

fn schema<T: JsonSchema>(title: &str, description: &str) -> serde_json::Value {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut v =
        serde_json::to_value(generator.into_root_schema_for::<T>()).expect("a schema is JSON");
    require_all(&mut v);
    if let Some(o) = v.as_object_mut() {
        o.insert("title".into(), title.into());
        o.insert("description".into(), description.into());
    }
    v
}

/// Every schema file: `(file name, schema)`, in a fixed order.
pub fn all() -> Vec<(String, serde_json::Value)> {
    // The request's `op`/`args` pair is flattened into the line: only `unevaluatedProperties`
    // (which sees through `anyOf`) closes the object without rejecting `id` and `case`.
    let mut request = schema::<RequestLine>(
        "onepath-driver v2: a request",
        "Every later line the kit writes ([DRIVER.MSG.REQUEST], [DRIVER.OP.*]).",
    );
    if let Some(o) = request.as_object_mut() {
        o.insert("unevaluatedProperties".into(), false.into());
    }
    // Claims are keyed by family name: schemars does not carry an enum key into the schema.
    let mut hello_reply = schema::<HelloReply>(
        "onepath-driver v2: the driver's handshake",
        "The first line a driver writes ([DRIVER.MSG.HELLO]).",
    );
    if let Some(claims) = hello_reply
        .pointer_mut("/properties/claims")
        .and_then(|c| c.as_object_mut())
    {
        let names: Vec<serde_json::Value> = Family::ALL.iter().map(|f| f.name().into()).collect();
        claims.insert("propertyNames".into(), serde_json::json!({ "enum": names }));
    }
    let mut out = vec![
        (
            "hello.json".to_string(),
            schema::<Hello>("onepath-driver v2: the kit's handshake", "The first line the kit writes ([DRIVER.MSG.HELLO])."),
        ),
        ("hello-reply.json".to_string(), hello_reply),
        ("request.json".to_string(), request),
        (
            "reply.json".to_string(),
            schema::<ReplyLine>("onepath-driver v2: a reply", "Every later line a driver writes ([DRIVER.MSG.REPLY]); the ok member follows the op's ok-<op>.json."),
        ),
    ];
    let payloads: [(&str, serde_json::Value); 18] = [
        (
            "run_case",
            schema::<RunCaseReply>("ok of run_case", "[DRIVER.OP.RUN_CASE]"),
        ),
        (
            "run_sliced",
            schema::<OutcomeReply>("ok of run_sliced", "[DRIVER.OP.RUN_SLICED]"),
        ),
        (
            "build_links",
            schema::<LinksReply>("ok of build_links", "[DRIVER.OP.BUILD_LINKS]"),
        ),
        (
            "run_hooked",
            schema::<HookedReply>("ok of run_hooked", "[DRIVER.OP.RUN_HOOKED]"),
        ),
        (
            "run_cancelled",
            schema::<CancelReply>("ok of run_cancelled", "[DRIVER.OP.RUN_CANCELLED]"),
        ),
        (
            "run_ops",
            schema::<OpsReply>("ok of run_ops", "[DRIVER.OP.RUN_OPS]"),
        ),
        (
            "build_landmarks",
            schema::<OplmReply>("ok of build_landmarks", "[DRIVER.OP.LANDMARKS]"),
        ),
        (
            "lower_bounds",
            schema::<BoundsReply>("ok of lower_bounds", "[DRIVER.OP.LANDMARKS]"),
        ),
        (
            "deserialize_oplm",
            schema::<DeserializeReply>("ok of deserialize_oplm", "[DRIVER.OP.LANDMARKS]"),
        ),
        (
            "state_run",
            schema::<StateRunReply>("ok of state_run", "[DRIVER.OP.STATE]"),
        ),
        (
            "run_grid",
            schema::<GridRunReply>("ok of run_grid", "[DRIVER.OP.RUN_GRID]"),
        ),
        (
            "run_replan",
            schema::<crate::replan::ReplanReply>("ok of run_replan", "[DRIVER.OP.RUN_REPLAN]"),
        ),
        (
            "run_flow",
            schema::<crate::flow::FlowReply>("ok of run_flow", "[DRIVER.OP.RUN_FLOW]"),
        ),
        (
            "run_lattice",
            schema::<crate::lattice::LatticeReply>("ok of run_lattice", "[DRIVER.OP.RUN_LATTICE]"),
        ),
        (
            "run_hpa",
            schema::<crate::hpa::HpaReply>("ok of run_hpa", "[DRIVER.OP.RUN_HPA]"),
        ),
        (
            "run_bidi",
            schema::<crate::bidi::BidiReply>("ok of run_bidi", "[DRIVER.OP.RUN_BIDI]"),
        ),
        (
            "describe",
            schema::<crate::debug::DescribeReply>("ok of describe", "[DRIVER.OP.DESCRIBE]"),
        ),
        (
            "synctest",
            schema::<crate::synctest::SyncReply>("ok of synctest", "[DRIVER.OP.SYNCTEST]"),
        ),
    ];
    for (op, s) in payloads {
        out.push((format!("ok-{op}.json"), s));
    }
    out
}

/// The text of a schema file: pretty JSON and a final newline.
pub fn text(v: &serde_json::Value) -> String {
    let mut t = serde_json::to_string_pretty(v).expect("a schema is JSON");
    t.push('\n');
    t
}

/// What `schemas --check` found wrong with one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaleSchema {
    /// The file, relative to the schema folder.
    pub file: String,
    /// `missing`, `stale` or `unexpected`.
    pub problem: &'static str,
}

/// Compares `dir` with the generated schemas: every generated file present and equal, and no
/// other `.json` file.
pub fn check(dir: &Path) -> Vec<StaleSchema> {
    let files = all();
    let mut out = Vec::new();
    for (name, v) in &files {
        match std::fs::read_to_string(dir.join(name)) {
            Ok(t) if t == text(v) => {}
            Ok(_) => out.push(StaleSchema {
                file: name.clone(),
                problem: "stale",
            }),
            Err(_) => out.push(StaleSchema {
                file: name.clone(),
                problem: "missing",
            }),
        }
    }
    if let Ok(rd) = std::fs::read_dir(dir) {
        let mut extra: Vec<String> = rd
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json") && !files.iter().any(|(f, _)| f == n))
            .collect();
        extra.sort();
        out.extend(extra.into_iter().map(|file| StaleSchema {
            file,
            problem: "unexpected",
        }));
    }
    out
}

/// Writes every schema into `dir` (created when missing).
pub fn write(dir: &Path) -> std::io::Result<usize> {
    std::fs::create_dir_all(dir)?;
    let files = all();
    for (name, v) in &files {
        crate::atomic::write(&dir.join(name), text(v))?;
    }
    Ok(files.len())
}
