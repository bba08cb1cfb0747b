//! The record vectors ([RECORD.VECTOR]): `vectors/records/RECORD-NNNN.json`, one golden record
//! per family with its hostile cases, and the `vectors` section's check of them and of every
//! record of the other families' vectors ([RECORD.CASES.CHECK]) on every implementation.

use super::cases::{all, RecordCase};
use super::hostile::{binary_mutations, json_mutations, Transport};
use super::run::{request, run_request};
use super::QueryRecord;
use crate::config::Shard;
use crate::envelope::{read_family, Envelope};
use crate::error::HarnessError;
use crate::implementation::Implementation;
use crate::report::{Failure, Section};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The registry family's name and the vectors' `family`.
pub const FAMILY: &str = "records";
/// The folder under `vectors/`.
pub const FOLDER: &str = "records";

/// A golden record in both transports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Golden {
    /// The canonical JSON text.
    pub json: String,
    /// The binary form, lowercase hex.
    pub binary: String,
}

/// One hostile case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostileCase {
    /// `RECORD-NNNN-HMMMM`.
    pub id: String,
    /// What was changed.
    pub what: String,
    /// `json` or `binary`.
    pub transport: String,
    /// The text, or the bytes as lowercase hex.
    pub input: String,
    /// `class@path` or `class@offset` ([`super::RecordError::label`]).
    pub error: String,
}

/// The one case of a record vector.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordVectorCase {
    /// The label of the record case it was taken from (`GRID-0001#0`).
    pub source: String,
    /// The record.
    pub golden: Golden,
    /// The hostile cases, in [RECORD.VECTOR] order.
    pub hostile: Vec<HostileCase>,
}

/// A committed record vector.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordVector {
    /// `RECORD-NNNN`.
    pub id: String,
    /// The case.
    pub case: RecordVectorCase,
}

fn input_of(m: &super::hostile::Mutation) -> (String, String) {
    match m.transport {
        Transport::Json => (
            "json".into(),
            String::from_utf8_lossy(&m.input).into_owned(),
        ),
        Transport::Binary => ("binary".into(), hex::encode(&m.input)),
    }
}

/// What the kit's reader says of a hostile input: the error label, or `ok`.
pub fn judge(transport: &str, input: &str) -> String {
    let read = match transport {
        "json" => QueryRecord::from_json(input),
        _ => match hex::decode(input) {
            Ok(b) => QueryRecord::from_binary(&b),
            Err(_) => return "bad hex".into(),
        },
    };
    match read {
        Ok(_) => "ok".into(),
        Err(e) => e.label(),
    }
}

/// [RECORD.VECTOR] The case of `RECORD-NNNN` from a record case.
pub fn case_of(id: &str, source: &RecordCase) -> RecordVectorCase {
    let text = source.record.to_json();
    let mut hostile = Vec::new();
    let mutations = json_mutations(&text)
        .into_iter()
        .chain(binary_mutations(&source.record));
    for (n, m) in mutations.enumerate() {
        let (transport, input) = input_of(&m);
        let error = judge(&transport, &input);
        if error == "ok" {
            continue; // not hostile: its number is skipped
        }
        hostile.push(HostileCase {
            id: format!("{id}-H{:04}", n + 1),
            what: m.what,
            transport,
            input,
            error,
        });
    }
    RecordVectorCase {
        source: source.label.clone(),
        golden: Golden {
            json: text,
            binary: hex::encode(source.record.to_binary()),
        },
        hostile,
    }
}

/// [RECORD.VECTOR] The first record case of each family, in code order.
fn sources(cases: &[RecordCase]) -> Vec<&RecordCase> {
    (0..super::schema::FAMILIES.len())
        .filter_map(|code| cases.iter().find(|c| c.record.query.code() == code))
        .collect()
}

/// Every record vector file, from the committed vectors of the other families under `dir`.
pub fn generate_files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let Ok(cases) = all(dir) else { return out };
    for (i, c) in sources(&cases).into_iter().enumerate() {
        let id = format!("RECORD-{:04}", i + 1);
        let case = case_of(&id, c);
        let comment = format!(
            "the golden {} record of {} in both transports and its hostile cases [RECORD.VECTOR] [RECORD.JSON.READ] [RECORD.BIN.READ] [RECORD.ERROR.CLASSES]",
            c.record.family(),
            c.label
        );
        let envelope = Envelope::new(&id, FAMILY, &comment, vec![case]);
        let text = crate::json_text::to_text(&envelope);
        out.insert(format!("{FOLDER}/{id}.json"), text.into_bytes());
    }
    out
}

/// [`generate_files`] over the files of the other families (paths relative to `vectors/`),
/// written to a scratch folder and read back as the committed ones would be; an empty map when
/// the folder cannot be written (and then `vectors --check` names every missing file).
pub fn generate_from(files: &BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<u8>> {
    static SCRATCH: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SCRATCH.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("onepath-records-{}-{n}", std::process::id()));
    let written =
        std::fs::create_dir_all(&dir).and_then(|()| crate::vector_files::write_files(&dir, files));
    let out = match written {
        Ok(()) => generate_files(&dir),
        Err(_) => BTreeMap::new(),
    };
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// The committed record vectors under `dir`.
pub fn read_dir(dir: &Path) -> Result<Vec<RecordVector>, HarnessError> {
    let files = read_family(
        dir,
        FOLDER,
        "RECORD-",
        FAMILY,
        |e: Envelope<RecordVectorCase>| {
            let (id, _, case) = e.single()?;
            Ok(RecordVector { id, case })
        },
    )?;
    Ok(files.into_iter().map(|(_, v)| v).collect())
}

/// The claim family of a record vector id: its golden record's family.
pub fn claim_of_id(label: &str) -> Option<crate::claims::Family> {
    use crate::claims::Family as F;
    let n: usize = label.strip_prefix("RECORD-")?.get(..4)?.parse().ok()?;
    [
        F::Graph,
        F::GridSearch,
        F::Replanning,
        F::FlowField,
        F::HexSearch,
        F::VoxelSearch,
        F::Hpa,
        F::GridBidi,
    ]
    .get(n.checked_sub(1)?)
    .copied()
}

fn failure(vector: &str, imp: &str, what: String, expected: String, found: String) -> Failure {
    Failure {
        vector: Some(vector.to_string()),
        implementation: imp.to_string(),
        what,
        expected,
        found,
        ..Default::default()
    }
}

/// The records part of the `vectors` section: the record vectors of `shard` (golden round trip
/// and hostile cases judged by the kit's reader, the golden record run on every implementation)
/// and the first record of every other vector of `shard`'s ordinals run on every implementation
/// and compared with the reference's reply and the vector's ([RECORD.CASES.CHECK]).
pub fn certify(
    dir: &Path,
    all_imps: &[&dyn Implementation],
    shard: Shard,
    families: crate::config::FamilySet,
    once: &mut Section,
    s: &mut Section,
) {
    // [CONF.CLI.FAMILY]: a record vector runs when its family is selected, the first record of
    // another family's vector when its record's family is.
    let keep = |f: Option<crate::claims::Family>| f.is_none_or(|f| families.contains(f));
    let read = read_dir(dir)
        .and_then(|v| Ok((v, all(dir)?)))
        .map(|(v, c)| {
            let v: Vec<RecordVector> = v.into_iter().filter(|v| keep(claim_of_id(&v.id))).collect();
            let c: Vec<RecordCase> = c
                .into_iter()
                .filter(|c| families.names().iter().any(|n| n == c.record.family()))
                .collect();
            (v, c)
        });
    let (vectors, cases) = match read {
        Ok(x) => x,
        Err(e) => {
            return once.fail(failure(
                "-",
                "-",
                "records vector file".into(),
                "a valid vector".into(),
                e.to_string(),
            ))
        }
    };
    for (ordinal, v) in vectors.iter().enumerate() {
        if !shard.contains(ordinal) {
            continue;
        }
        let g = &v.case.golden;
        let read = QueryRecord::from_json(&g.json);
        s.record(match &read {
            Ok(r) if r.to_json() == g.json && hex::encode(r.to_binary()) == g.binary => None,
            Ok(r) => Some(failure(
                &v.id,
                "vector",
                "golden record written back".into(),
                format!("{} / {}", g.json, g.binary),
                format!("{} / {}", r.to_json(), hex::encode(r.to_binary())),
            )),
            Err(e) => Some(failure(
                &v.id,
                "vector",
                "golden record".into(),
                "a record".into(),
                e.to_string(),
            )),
        });
        for h in &v.case.hostile {
            let found = judge(&h.transport, &h.input);
            s.record((found != h.error).then(|| {
                failure(
                    &v.id,
                    "vector",
                    format!("{}: {}", h.id, h.what),
                    h.error.clone(),
                    found,
                )
            }));
        }
        let source = cases.iter().find(|c| c.label == v.case.source);
        match (source, read) {
            (Some(c), Ok(record)) => run_case(&v.id, c, &record, all_imps, s),
            _ => s.fail(failure(
                &v.id,
                "vector",
                "source".into(),
                format!("the record case {}", v.case.source),
                "none in the committed vectors".into(),
            )),
        }
    }
    // The first record of every vector (every record runs in tests/records_vectors.rs).
    let mut seen = std::collections::BTreeSet::new();
    let firsts = cases
        .iter()
        .filter(|c| seen.insert(vector_of(&c.label).to_string()));
    for (ordinal, c) in firsts.enumerate() {
        if shard.contains(ordinal) {
            run_case(&c.label, c, &c.record, all_imps, s);
        }
    }
}

/// Runs `record` (read back from both transports) on every implementation; the first is the
/// reference, whose reply must be the vector's where it holds one.
fn run_case(
    label: &str,
    c: &RecordCase,
    record: &QueryRecord,
    all_imps: &[&dyn Implementation],
    s: &mut Section,
) {
    let request = match request(record, &c.world) {
        Ok(r) => r,
        Err(e) => {
            return s.fail(failure(
                label,
                "vector",
                "record binding".into(),
                "the world of the record".into(),
                e.to_string(),
            ))
        }
    };
    let mut reference: Option<Option<super::run::RecordReply>> = None;
    for imp in all_imps {
        let reply = run_request(*imp, label, &request);
        let f = match (&reply, &reference) {
            (Err(e), _) => Some(failure(
                label,
                imp.name(),
                "record run".into(),
                "a reply".into(),
                e.to_string(),
            )),
            (Ok(r), None) => c.expected.as_ref().and_then(|e| e.difference(r)).map(|d| {
                failure(
                    label,
                    imp.name(),
                    "record run against the vector".into(),
                    "the vector's reply".into(),
                    d,
                )
            }),
            (Ok(r), Some(Some(first))) => (r != first).then(|| {
                failure(
                    label,
                    imp.name(),
                    "record run".into(),
                    format!("{first:?}"),
                    format!("{r:?}"),
                )
            }),
            (Ok(_), Some(None)) => None,
        };
        s.record(f);
        if reference.is_none() {
            reference = Some(reply.ok());
        }
    }
}

/// A record case's vector id (`GRID-0001` of `GRID-0001#3`).
pub fn vector_of(label: &str) -> &str {
    label.split('#').next().unwrap_or(label)
}
