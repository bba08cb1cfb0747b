//! The sync-test vectors ([CONF.SYNC.VECTOR]): `vectors/world/SYNC-NNNN.json`, one session and
//! the reference's run per file, judged on every implementation by [CONF.SYNC.JUDGE]; and the
//! `synctest` section, a generated session on every implementation.

use super::adapter::reference_adapter;
use super::{generate, judge, parse_inputs, Session, SyncReply, SyncWorld};
use crate::envelope::Envelope;
use crate::error::HarnessError;
use crate::implementation::Implementation;
use crate::json_text::to_text;
use crate::port::wire::Hex;
use crate::report::{Failure, Section};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The family name of the vector files.
pub const FAMILY: &str = "world";
/// The folder under `vectors/`.
pub const FOLDER: &str = "world";
/// [CONF.SYNC.SECTION] Frames of the `synctest` section's session.
pub const SECTION_FRAMES: usize = 1000;

/// One case: a session and the reference crate's run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SyncCase {
    /// The session.
    pub session: Session,
    /// The run of record.
    pub expected: SyncReply,
}

/// A committed vector.
#[derive(Clone, Debug, PartialEq)]
pub struct SyncVector {
    /// `SYNC-NNNN`.
    pub id: String,
    /// What it pins.
    pub comment: String,
    /// The case.
    pub case: SyncCase,
}

/// The reference world's container after running `frames` of `s` without rollbacks.
fn container_after(s: &Session, frames: usize) -> Vec<u8> {
    let ops = parse_inputs(s).unwrap_or_default();
    let mut out = Vec::new();
    if let Ok(mut w) = reference_adapter::build(s) {
        let mut scratch = Vec::new();
        for frame in ops.iter().take(frames) {
            for &op in frame {
                w.run_op(op, &mut scratch);
            }
        }
        w.save(&mut out);
    }
    out
}

/// The start and length of each member's bytes in a container.
fn spans(c: &[u8]) -> Vec<(usize, usize)> {
    let mut at = 10;
    let mut out = Vec::new();
    while at + 10 <= c.len() {
        let len = u32::from_le_bytes([c[at + 6], c[at + 7], c[at + 8], c[at + 9]]) as usize;
        out.push((at + 10, len));
        at += 10 + len;
    }
    out
}

/// [CONF.SYNC.VECTOR] The hostile containers derived from `good`, with what each changes.
pub fn hostile_containers(good: &[u8]) -> Vec<(String, Vec<u8>)> {
    let sp = spans(good);
    let n = good.len();
    let edit = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.to_vec();
        f(&mut b);
        b
    };
    let mut out: Vec<(String, Vec<u8>)> = vec![
        ("empty".into(), Vec::new()),
        ("3 bytes".into(), good[..3].to_vec()),
        ("bad magic".into(), edit(&|b| b[1] = b'X')),
        ("version 0".into(), edit(&|b| b[4] = 0)),
        ("version 2".into(), edit(&|b| b[4] = 2)),
        ("9 bytes".into(), good[..9].to_vec()),
        ("count 7".into(), edit(&|b| b[6] = 7)),
        ("a member header cut".into(), good[..15].to_vec()),
        ("member 0 of type 2".into(), edit(&|b| b[10] = 2)),
        ("member 0 with owner 0".into(), edit(&|b| b[12] = 0)),
        (
            "member 0 longer than the rest".into(),
            edit(&|b| b[16..20].copy_from_slice(&u32::MAX.to_le_bytes())),
        ),
        ("one byte short".into(), good[..n - 1].to_vec()),
        ("a trailing byte".into(), edit(&|b| b.push(0))),
    ];
    for (i, &(start, len)) in sp.iter().enumerate() {
        out.push((
            format!("member {i}: bad state magic"),
            edit(&|b| b[start] ^= 0xFF),
        ));
        out.push((
            format!("member {i}: wrong state kind"),
            edit(&|b| b[start + 6] ^= 0x0F),
        ));
        out.push((
            format!("member {i}: its last byte"),
            edit(&|b| b[start + len - 1] ^= 0x5A),
        ));
        out.push((
            format!("member {i}: a byte in the middle"),
            edit(&|b| b[start + len / 2] ^= 0x81),
        ));
    }
    out.push(("the good container".into(), good.to_vec()));
    out
}

/// The sessions of the committed vectors, with their comments, in id order.
pub fn sessions() -> Vec<(String, Session)> {
    let mut out = Vec::new();
    let first = generate::session(1, 240);
    let other = (2..)
        .map(|seed| (seed, generate::session(seed, 240)))
        .find(|(_, s)| s.replanner.mode != first.replanner.mode)
        .expect("a seed with the other mode");
    out.push((
        format!("generated session of seed 1, 240 frames, {:?}: a world of six members built in order (grid, graph, replanner, flow field, parked grid and graph searches) and driven through its accessors; every frame rolls back 1..8 frames through a world snapshot (built the same way, nothing but the members' bytes saved) and resimulates [WORLD.MODEL] [WORLD.TYPES] [WORLD.ADD] [WORLD.ACCESS] [WORLD.NOT_SAVED] [CONF.SYNC.LOOP] [WORLD.SAVE] [WORLD.COMMIT] [WORLD.PARKED] [WORLD.PARKED.EDIT] [WORLD.RESTORE.SAME]", first.replanner.mode),
        first,
    ));
    out.push((
        format!(
            "generated session of seed {}, 240 frames, {:?} [CONF.SYNC.LOOP] [WORLD.RESTORE.SAME]",
            other.0, other.1.replanner.mode
        ),
        other.1,
    ));
    // Hostile containers: the world after frame 60, corrupted every way [CONF.SYNC.VECTOR]
    // lists, one restore per frame from frame 80 on, between the session's own ops.
    let mut s = generate::session(11, 240);
    let good = container_after(&s, 60);
    let hostile = hostile_containers(&good);
    for (i, _) in hostile.iter().enumerate() {
        s.inputs[80 + i].push(vec![8, i as i64]);
    }
    let names: Vec<&str> = hostile.iter().map(|(n, _)| n.as_str()).collect();
    s.containers = hostile.iter().map(|(_, b)| Hex(b.clone())).collect();
    out.push((
        format!("seed 11, 240 frames; from frame 80 one restore per frame of the world's container after frame 60, corrupted: {}; each refused restore names its class, offset, member and state class and changes nothing; the last one restores [WORLD.HEADER] [WORLD.MEMBER] [WORLD.READ] [WORLD.STAGE] [WORLD.ATOMIC] [WORLD.COMMIT] [WORLD.ERROR.CLASSES]", names.join(", ")),
        s,
    ));
    // Good restores in the middle of a session, rolled back over by the loop.
    let mut s = generate::session(13, 200);
    s.containers = vec![Hex(container_after(&s, 50)), Hex(container_after(&s, 140))];
    s.inputs[120].push(vec![8, 0]);
    s.inputs[150].insert(0, vec![8, 1]);
    s.inputs[170].push(vec![8, 0]);
    out.push((
        "seed 13, 200 frames; the world's containers after frames 50 and 140 restored at frames 120, 150 and 170, inside frames the loop rolls back over [WORLD.COMMIT] [WORLD.RESTORE.SAME] [CONF.SYNC.OPS]".into(),
        s,
    ));
    out
}

/// Every sync-test vector file, generated from `imp`: path relative to `vectors/`, bytes.
pub fn generate_files(imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for (i, (comment, session)) in sessions().into_iter().enumerate() {
        let id = format!("SYNC-{:04}", i + 1);
        let expected = imp
            .run_synctest(&session)
            .unwrap_or_else(|e| SyncReply::Failed(format!("harness: {e}")));
        let envelope = Envelope::new(&id, FAMILY, &comment, vec![SyncCase { session, expected }]);
        files.insert(
            format!("{FOLDER}/{id}.json"),
            to_text(&envelope).into_bytes(),
        );
    }
    files
}

/// The committed vectors under `dir`, in id order.
pub fn read_dir(dir: &Path) -> Result<Vec<SyncVector>, HarnessError> {
    let files =
        crate::envelope::read_family(dir, FOLDER, "SYNC-", FAMILY, |e: Envelope<SyncCase>| {
            let (id, comment, case) = e.single()?;
            Ok(SyncVector { id, comment, case })
        })?;
    Ok(files.into_iter().map(|(_, v)| v).collect())
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

/// One run judged ([CONF.SYNC.JUDGE]): `None` on a pass.
fn judged(
    label: &str,
    imp: &dyn Implementation,
    session: &Session,
    expected: &SyncReply,
) -> Option<Failure> {
    let frames = session.inputs.len();
    match imp.run_synctest_as(label, session) {
        Err(e) => Some(failure(
            label,
            imp.name(),
            "synctest".into(),
            "a run".into(),
            e.to_string(),
        )),
        Ok(reply) => judge(expected, &reply, frames).err().map(|f| {
            failure(
                label,
                imp.name(),
                "synctest run".into(),
                "the run of record".into(),
                f.to_string(),
            )
        }),
    }
}

/// The sync-test part of the `vectors` section: each vector's run of record judged against
/// itself, then every implementation's run against it.
pub fn certify(
    dir: &Path,
    all: &[&dyn Implementation],
    shard: crate::config::Shard,
    once: &mut Section,
    s: &mut Section,
) {
    let vectors = match read_dir(dir) {
        Ok(v) => v,
        Err(e) => {
            return once.fail(failure(
                "-",
                "-",
                "world vector file".into(),
                "a valid vector".into(),
                e.to_string(),
            ))
        }
    };
    for (ordinal, v) in vectors.iter().enumerate() {
        if !shard.contains(ordinal) {
            continue;
        }
        let frames = v.case.session.inputs.len();
        s.record(
            judge(&v.case.expected, &v.case.expected, frames)
                .err()
                .map(|f| {
                    failure(
                        &v.id,
                        "vector",
                        "the run of record".into(),
                        "a run without a mismatch".into(),
                        f.to_string(),
                    )
                }),
        );
        for imp in all {
            s.record(judged(&v.id, *imp, &v.case.session, &v.case.expected));
        }
    }
}

/// [CONF.SYNC.SECTION] The `synctest` section: the generated session of the run's seed on
/// every implementation, judged against the reference's run.
pub fn section(all: &[&dyn Implementation], seed: u64, frames: usize) -> Section {
    let mut s = Section::new("synctest");
    let session = generate::session(seed, frames);
    let label = format!("synctest#{seed}");
    let Some((reference, rest)) = all.split_first() else {
        return s;
    };
    let expected = match reference.run_synctest_as(&label, &session) {
        Ok(r) => r,
        Err(e) => {
            s.fail(failure(
                &label,
                reference.name(),
                "synctest".into(),
                "a run".into(),
                e.to_string(),
            ));
            return s;
        }
    };
    s.record(judge(&expected, &expected, frames).err().map(|f| {
        failure(
            &label,
            reference.name(),
            "synctest run".into(),
            "a run without a mismatch".into(),
            f.to_string(),
        )
    }));
    for imp in rest {
        s.record(judged(&label, *imp, &session, &expected));
    }
    s
}
