//! The rollback sync test (spec/synctest.md, [CONF.SYNC.*]): a session is a world and a list of
//! frames of ops; the loop checksums every frame, rolls back `d(f)` frames through a world
//! snapshot every frame, resimulates and compares. The loop is generic over [`SyncWorld`], so
//! the two crates, faulty wrappers in the tests and (through the driver) ports run the same
//! rules; [`judge`] compares any run with the reference's.

pub mod adapter;
pub mod cli;
pub mod generate;
pub mod vectors;

use crate::grid::vectors::MapFile;
use crate::grid::GridOptionsData;
use crate::replan::ModeName;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// [CONF.SYNC.SESSION] The schema name of a session.
pub const SCHEMA: &str = "onepath.synctest";
/// [CONF.SYNC.SESSION] The only session version.
pub const VERSION: u32 = 1;
/// [CONF.SYNC.SESSION] The world's members: grid, graph, replanner, flow field, grid search,
/// graph search.
pub const MEMBERS: usize = 6;
/// [CONF.SYNC.DISTANCE] The largest check distance.
pub const MAX_DISTANCE: usize = 8;
/// The most frames a session may have (a limit of the kit: 1,000,000 frames are about 100 MB
/// of checksums).
pub const MAX_FRAMES: usize = 1_000_000;

/// [CONF.SYNC.WORK] The most work a session file may ask of the `synctest` command: frames x
/// (map cells + graph nodes + graph edges + 1). Every frame saves, checksums and resimulates the
/// whole world, so the time grows with this product (about 100-200 ns per unit on one core).
pub const MAX_SESSION_WORK: u64 = 1 << 30;

/// [CONF.SYNC.WORK] Frames x (map cells + graph nodes + graph edges + 1) of `session`, as
/// declared (saturating).
pub fn session_work(session: &Session) -> u64 {
    let cells = u64::from(session.map.width) * u64::from(session.map.height);
    let world = cells
        .saturating_add(u64::from(session.graph.node_count))
        .saturating_add(session.graph.edges.len() as u64)
        .saturating_add(1);
    world.saturating_mul(session.inputs.len() as u64)
}

/// [CONF.SYNC.WORK] `Ok(work)` when the session's work is at most [`MAX_SESSION_WORK`], else the
/// text that says why it is refused.
pub fn check_work(session: &Session) -> Result<u64, String> {
    let work = session_work(session);
    if work <= MAX_SESSION_WORK {
        return Ok(work);
    }
    Err(format!(
        "the session asks for {work} units of work (frames x (cells + nodes + edges + 1) = \
         {} x ({} x {} + {} + {} + 1)), over the limit of {MAX_SESSION_WORK} (2^30) \
         [CONF.SYNC.WORK]",
        session.inputs.len(),
        session.map.width,
        session.map.height,
        session.graph.node_count,
        session.graph.edges.len(),
    ))
}

/// [CONF.SYNC.SESSION] The graph of a session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SyncGraph {
    /// `Graph::new(node_count)`.
    pub node_count: u32,
    /// `add_edge(from, to, weight)` in order.
    pub edges: Vec<(u32, u32, f64)>,
}

/// [CONF.SYNC.SESSION] The replanner of a session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SyncReplanner {
    /// LPA* or D* Lite.
    pub mode: ModeName,
    /// `(x, y)`.
    pub start: (u32, u32),
    /// `(x, y)`.
    pub goal: (u32, u32),
}

/// [CONF.SYNC.SESSION] A session: the world and the frames of ops.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Session {
    /// `onepath.synctest`.
    pub schema: String,
    /// 1.
    pub version: u32,
    /// The grid (member 0), as a grid vector's map.
    pub map: MapFile,
    /// The options of the replanner, the flow field and the grid search.
    pub options: GridOptionsData,
    /// The graph (member 1).
    pub graph: SyncGraph,
    /// The replanner (member 2).
    pub replanner: SyncReplanner,
    /// The flow field's goals (member 3).
    pub flow_goals: Vec<(u32, u32)>,
    /// World containers the ops of code 8 restore, lowercase hex.
    pub containers: Vec<crate::port::wire::Hex>,
    /// Per frame, its ops ([CONF.SYNC.OPS]) as integer arrays.
    pub inputs: Vec<Vec<Vec<OpInt>>>,
}

/// [CONF.SYNC.OPS] An op's integers decode as signed 128-bit integers, so a `u64` budget and a
/// value one past it are both read (the second is `bad_op`); a larger one does not decode, so no
/// session the kit sends to a port carries one ([DRIVER.MSG.REACH]).
pub type OpInt = i128;

/// [CONF.SYNC.OPS] One op, checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SyncOp {
    /// 0: `set_cell(x, y, area)` on member 0.
    SetCell(usize, usize, u8),
    /// 1: `replan(grid, budget)` of member 2.
    Replan(u64),
    /// 2: `step(grid, budget)` of member 3.
    FlowStep(u64),
    /// 3: `begin` of member 4.
    GridBegin((usize, usize), (usize, usize)),
    /// 4: `step(budget)` of member 4.
    GridStep(u64),
    /// 5: `set_weight(edge, num / den)` on member 1.
    SetWeight(u32, f64),
    /// 6: `begin(start, goal)` of member 5.
    GraphBegin(u32, u32),
    /// 7: `step(budget)` of member 5.
    GraphStep(u64),
    /// 8: `restore_state(containers[i])`.
    Restore(usize),
    /// 10: `set_area_multiplier(area, num / den)` on member 0 (9 is no op: SYNC-0006 pins an
    /// unknown code with it).
    SetArea(u8, f64),
}

impl SyncOp {
    /// [CONF.SYNC.OPS] Reads one op; `None` for another code, arity or an integer out of its
    /// range.
    pub fn parse(op: &[OpInt], containers: usize) -> Option<SyncOp> {
        let u = |v: OpInt| u32::try_from(v).ok();
        let budget = |v: OpInt| u64::try_from(v).ok();
        Some(match *op {
            [0, x, y, a] => SyncOp::SetCell(u(x)? as usize, u(y)? as usize, u8::try_from(a).ok()?),
            [1, b] => SyncOp::Replan(budget(b)?),
            [2, b] => SyncOp::FlowStep(budget(b)?),
            [3, sx, sy, gx, gy] => SyncOp::GridBegin(
                (u(sx)? as usize, u(sy)? as usize),
                (u(gx)? as usize, u(gy)? as usize),
            ),
            [4, b] => SyncOp::GridStep(budget(b)?),
            [5, e, num, den] if num.unsigned_abs() <= 1 << 53 && (1..=1 << 53).contains(&den) => {
                SyncOp::SetWeight(u(e)?, num as f64 / den as f64)
            }
            [6, s, g] => SyncOp::GraphBegin(u(s)?, u(g)?),
            [7, b] => SyncOp::GraphStep(budget(b)?),
            [8, i] if usize::try_from(i).is_ok_and(|i| i < containers) => {
                SyncOp::Restore(i as usize)
            }
            [10, a, num, den] if num.unsigned_abs() <= 1 << 53 && (1..=1 << 53).contains(&den) => {
                SyncOp::SetArea(u8::try_from(a).ok()?, num as f64 / den as f64)
            }
            _ => return None,
        })
    }
}

/// [CONF.SYNC.OPS] Every frame's ops, or the `bad_op` text naming the first bad one.
pub fn parse_inputs(session: &Session) -> Result<Vec<Vec<SyncOp>>, String> {
    if session.inputs.len() > MAX_FRAMES {
        return Err(format!(
            "too_many_frames: {} frames, at most {MAX_FRAMES}",
            session.inputs.len()
        ));
    }
    let mut frames = Vec::with_capacity(session.inputs.len());
    for (f, frame) in session.inputs.iter().enumerate() {
        let mut ops = Vec::with_capacity(frame.len());
        for (k, op) in frame.iter().enumerate() {
            ops.push(
                SyncOp::parse(op, session.containers.len())
                    .ok_or_else(|| format!("bad_op: frame {f} op {k}: {op:?}"))?,
            );
        }
        frames.push(ops);
    }
    Ok(frames)
}

/// [CONF.SYNC.SESSION] The schema and version, checked before anything runs.
pub fn check_schema(session: &Session) -> Result<(), String> {
    if session.schema != SCHEMA {
        return Err(format!(
            "unknown_schema: {:?} (expected {SCHEMA:?})",
            session.schema
        ));
    }
    if session.version != VERSION {
        return Err(format!(
            "unsupported_version: {} (expected {VERSION})",
            session.version
        ));
    }
    Ok(())
}

/// What the loop needs of a world.
pub trait SyncWorld {
    /// [CONF.SYNC.OPS] [CONF.SYNC.OUTPUT] Runs one op, appending `u8 code` and its output.
    fn run_op(&mut self, op: SyncOp, out: &mut Vec<u8>);
    /// [CONF.SYNC.CHECKSUM] Member `index`'s bytes in the container into `out`.
    fn member_bytes(&self, index: usize, out: &mut Vec<u8>);
    /// [WORLD.SAVE] The world container into `out`.
    fn save(&self, out: &mut Vec<u8>);
    /// [WORLD.READ] Restores a container; the error's text.
    fn restore(&mut self, bytes: &[u8]) -> Result<(), String>;
}

/// [CONF.SYNC.CHECKSUM] The first 8 bytes of SHA-256.
pub fn checksum(bytes: &[u8]) -> [u8; 8] {
    let d = Sha256::digest(bytes);
    let mut c = [0; 8];
    c.copy_from_slice(&d[..8]);
    c
}

/// [CONF.SYNC.CHECKSUM] The object names, in checksum order.
pub fn object_name(position: usize) -> String {
    if position < MEMBERS {
        format!("member {position}")
    } else {
        "outputs".to_string()
    }
}

/// [CONF.SYNC.REPLY] The first difference of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SyncMismatch {
    /// The resimulated frame.
    pub frame: u64,
    /// `member i`, `outputs` or `restore`.
    pub object: String,
    /// The checksum of the first simulation (or empty for `restore`).
    pub expected: String,
    /// The resimulated checksum (or the restore error's text).
    pub found: String,
}

/// [CONF.SYNC.REPLY] What a run saw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SyncRun {
    /// Per frame, per object, 16 lowercase hex digits.
    pub checksums: Vec<Vec<String>>,
    /// How many frames were resimulated.
    pub resimulated: u64,
    /// [CONF.SYNC.RESIMULATED] SHA-256 of the resimulated checksums, 64 lowercase hex digits.
    pub resim_digest: String,
    /// The first resimulated frame that differed, or null.
    #[serde(deserialize_with = "crate::report::required")]
    pub mismatch: Option<SyncMismatch>,
}

/// [CONF.SYNC.REPLY] A run, or why the session could not run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum SyncReply {
    /// The loop ran.
    Ran(SyncRun),
    /// The world could not be built, or an op was malformed.
    Failed(String),
}

fn frame_checksums<W: SyncWorld>(
    world: &W,
    outputs: &[u8],
    scratch: &mut Vec<u8>,
) -> [[u8; 8]; MEMBERS + 1] {
    let mut c = [[0; 8]; MEMBERS + 1];
    for (i, slot) in c.iter_mut().take(MEMBERS).enumerate() {
        world.member_bytes(i, scratch);
        *slot = checksum(scratch);
    }
    c[MEMBERS] = checksum(outputs);
    c
}

/// [CONF.SYNC.DISTANCE]
pub fn distance(frame: usize) -> usize {
    1 + frame % MAX_DISTANCE
}

/// [CONF.SYNC.LOOP] [CONF.SYNC.RESIMULATED] Runs the loop over `world`: each resimulated frame
/// checks [WORLD.RESTORE.SAME].
pub fn run_loop<W: SyncWorld>(world: &mut W, frames: &[Vec<SyncOp>]) -> SyncRun {
    // Snapshots S[f] in a ring: a rollback reaches at most MAX_DISTANCE frames back.
    let ring = MAX_DISTANCE + 1;
    let mut snapshots: Vec<Vec<u8>> = vec![Vec::new(); ring];
    world.save(&mut snapshots[0]);
    let mut first: Vec<[[u8; 8]; MEMBERS + 1]> = Vec::with_capacity(frames.len());
    let (mut outputs, mut scratch) = (Vec::new(), Vec::new());
    let mut digest = Sha256::new();
    let mut resimulated = 0u64;
    let mut mismatch = None;
    'frames: for (f, ops) in frames.iter().enumerate() {
        outputs.clear();
        for &op in ops {
            world.run_op(op, &mut outputs);
        }
        first.push(frame_checksums(world, &outputs, &mut scratch));
        world.save(&mut snapshots[(f + 1) % ring]);
        let d = distance(f);
        if f + 1 < d {
            continue;
        }
        let from = f + 1 - d;
        if let Err(text) = world.restore(&snapshots[from % ring]) {
            mismatch = Some(SyncMismatch {
                frame: from as u64,
                object: "restore".to_string(),
                expected: String::new(),
                found: text,
            });
            break;
        }
        for (g, ops) in frames.iter().enumerate().take(f + 1).skip(from) {
            outputs.clear();
            for &op in ops {
                world.run_op(op, &mut outputs);
            }
            let again = frame_checksums(world, &outputs, &mut scratch);
            resimulated += 1;
            for c in &again {
                digest.update(c);
            }
            if let Some(k) = (0..=MEMBERS).find(|&k| again[k] != first[g][k]) {
                mismatch = Some(SyncMismatch {
                    frame: g as u64,
                    object: object_name(k),
                    expected: hex::encode(first[g][k]),
                    found: hex::encode(again[k]),
                });
                break 'frames;
            }
            world.save(&mut snapshots[(g + 1) % ring]);
        }
    }
    SyncRun {
        checksums: first
            .iter()
            .map(|c| c.iter().map(hex::encode).collect())
            .collect(),
        resimulated,
        resim_digest: hex::encode(digest.finalize()),
        mismatch,
    }
}

/// [CONF.SYNC.RESIMULATED] The count and digest a run without a mismatch has, from its first
/// checksums alone.
pub fn expected_resimulation(checksums: &[[[u8; 8]; MEMBERS + 1]]) -> (u64, String) {
    let mut digest = Sha256::new();
    let mut count = 0u64;
    for f in 0..checksums.len() {
        let d = distance(f);
        if f + 1 < d {
            continue;
        }
        for frame in &checksums[f + 1 - d..=f] {
            count += 1;
            for c in frame {
                digest.update(c);
            }
        }
    }
    (count, hex::encode(digest.finalize()))
}

/// [CONF.SYNC.JUDGE] Why a subject failed.
#[derive(Clone, Debug, PartialEq)]
pub struct SyncFailure {
    /// The frame, when one is to blame.
    pub frame: Option<u64>,
    /// The object, when one is to blame.
    pub object: Option<String>,
    /// What was wrong.
    pub what: String,
}

impl std::fmt::Display for SyncFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.frame, &self.object) {
            (Some(fr), Some(o)) => write!(f, "frame {fr}, {o}: {}", self.what),
            (Some(fr), None) => write!(f, "frame {fr}: {}", self.what),
            _ => write!(f, "{}", self.what),
        }
    }
}

fn parse_checksum(s: &str) -> Option<[u8; 8]> {
    if s.len() != 16
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return None;
    }
    let mut c = [0; 8];
    hex::decode_to_slice(s, &mut c).ok()?;
    Some(c)
}

/// [CONF.SYNC.JUDGE] Judges `subject` against `reference` over a session of `frames` frames.
pub fn judge(reference: &SyncReply, subject: &SyncReply, frames: usize) -> Result<(), SyncFailure> {
    let plain = |what: String| SyncFailure {
        frame: None,
        object: None,
        what,
    };
    let (r, s) = match (reference, subject) {
        (SyncReply::Failed(a), SyncReply::Failed(b)) if class_of(a) == class_of(b) => return Ok(()),
        (SyncReply::Failed(a), SyncReply::Failed(b)) => {
            return Err(plain(format!(
                "failed with {b:?}, the reference with {a:?}"
            )))
        }
        (SyncReply::Failed(a), SyncReply::Ran(_)) => {
            return Err(plain(format!("ran, the reference failed with {a:?}")))
        }
        (SyncReply::Ran(_), SyncReply::Failed(b)) => {
            return Err(plain(format!("failed with {b:?}, the reference ran")))
        }
        (SyncReply::Ran(r), SyncReply::Ran(s)) => (r, s),
    };
    // Shape first: a missing or malformed checksum never passes.
    let mut own = Vec::with_capacity(frames);
    for f in 0..frames {
        let Some(list) = s.checksums.get(f) else {
            if let Some(m) = &s.mismatch {
                return Err(mismatch_failure(m));
            }
            return Err(SyncFailure {
                frame: Some(f as u64),
                object: None,
                what: format!(
                    "missing checksum: {} checksum lists for {frames} frames",
                    s.checksums.len()
                ),
            });
        };
        if list.len() != MEMBERS + 1 {
            return Err(SyncFailure {
                frame: Some(f as u64),
                object: None,
                what: format!(
                    "missing checksum: {} checksums, expected {}",
                    list.len(),
                    MEMBERS + 1
                ),
            });
        }
        let mut frame = [[0; 8]; MEMBERS + 1];
        for (k, c) in list.iter().enumerate() {
            frame[k] = parse_checksum(c).ok_or_else(|| SyncFailure {
                frame: Some(f as u64),
                object: Some(object_name(k)),
                what: format!("malformed checksum {c:?} (16 lowercase hex digits expected)"),
            })?;
        }
        own.push(frame);
    }
    if s.checksums.len() > frames {
        return Err(plain(format!(
            "{} checksum lists for {frames} frames",
            s.checksums.len()
        )));
    }
    if let Some(m) = &s.mismatch {
        return Err(mismatch_failure(m));
    }
    for f in 0..frames {
        let expected = r.checksums.get(f);
        for k in 0..=MEMBERS {
            let e = expected.and_then(|l| l.get(k));
            if e.map(String::as_str) != Some(s.checksums[f][k].as_str()) {
                return Err(SyncFailure {
                    frame: Some(f as u64),
                    object: Some(object_name(k)),
                    what: format!(
                        "checksum {} differs from the reference's {}",
                        s.checksums[f][k],
                        e.map_or("(none)", String::as_str)
                    ),
                });
            }
        }
    }
    let (count, digest) = expected_resimulation(&own);
    if s.resimulated != count || s.resim_digest != digest {
        return Err(plain(format!(
            "resimulation: {} frames with digest {}, expected {count} frames with digest {digest}",
            s.resimulated, s.resim_digest
        )));
    }
    Ok(())
}

/// [CONF.SYNC.JUDGE] The class of a `failed` text: what comes before the first `:`.
fn class_of(text: &str) -> &str {
    text.split(':').next().unwrap_or(text).trim()
}

fn mismatch_failure(m: &SyncMismatch) -> SyncFailure {
    SyncFailure {
        frame: Some(m.frame),
        object: Some(m.object.clone()),
        what: if m.object == "restore" {
            format!("the rollback's restore failed: {}", m.found)
        } else {
            format!(
                "resimulated checksum {} differs from the first simulation's {}",
                m.found, m.expected
            )
        },
    }
}
