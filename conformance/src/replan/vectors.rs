//! The replanning vectors ([CONF.REPLAN.VECTOR]): `vectors/replanning/REPLAN-NNNN.json`, one
//! request and its expected reply per file (from the reference crate), checked on every
//! implementation with the first differing step and field named, and against the oracle.

use super::cases::{map, request, MULTIPLIERS};
use super::{
    first_difference, oracle, ModeName, ReplanGrid, ReplanReply, ReplanRequest, ReplanStep,
};
use crate::envelope::Envelope;
use crate::error::HarnessError;
use crate::grid::vectors::MapFile;
use crate::grid::{CellCostRule, GridOptionsData};
use crate::implementation::Implementation;
use crate::json_text::to_text;
use crate::port::wire::Hex;
use crate::prng::SplitMix64;
use crate::report::{Failure, Section};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The family name of replanning vector files.
pub const REPLAN_FAMILY: &str = "replanning";
/// The folder under `vectors/`.
pub const REPLAN_FOLDER: &str = "replanning";

/// One case: a request and the reference crate's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReplanCase {
    /// The request.
    pub request: ReplanRequest,
    /// The reply of record.
    pub expected: ReplanReply,
}

/// A committed vector.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplanVector {
    /// `REPLAN-NNNN`.
    pub id: String,
    /// What it pins.
    pub comment: String,
    /// The case.
    pub case: ReplanCase,
}

/// The seed of the generated vectors.
const SEED: u64 = 0x5245_504C_414E; // "REPLAN"

fn small_request(
    hex_layout: Option<i32>,
    cells: &[u8],
    w: u32,
    options: GridOptionsData,
    mode: ModeName,
    start: (u32, u32),
    goal: (u32, u32),
    script: Vec<ReplanStep>,
) -> ReplanRequest {
    ReplanRequest {
        grid: ReplanGrid {
            hex_layout,
            map: MapFile {
                width: w,
                height: cells.len() as u32 / w,
                cells: hex::encode(cells),
                multipliers: MULTIPLIERS.to_vec(),
                space: None,
            },
        },
        options,
        mode,
        start,
        goal,
        script,
    }
}

/// Hand-written kind-5 bytes of an initialised LPA* replanner on a 4 x 1 grid (A*, start 3,
/// goal 0, nothing pending, an empty queue) with the given planned cells: a cost field that the
/// vectors below make inconsistent on purpose ([REPLAN.STATE.STRUCTURAL]).
fn planted_state(planned: &[(i32, f64, f64)], found: bool) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&0x5347_504Fu32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&5u16.to_le_bytes());
    for v in [4i32, 1] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.push(0); // algorithm AStar
    for v in [0i32, 3, 0] {
        b.extend_from_slice(&v.to_le_bytes()); // area version, start, goal
    }
    for v in [4i32] {
        b.extend_from_slice(&v.to_le_bytes()); // node count
    }
    b.push(0); // LPA*
    for v in [3i32, 0] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.push(1); // initialized
    b.push(u8::from(found));
    b.extend_from_slice(&7i64.to_le_bytes());
    b.extend_from_slice(&5i64.to_le_bytes());
    b.extend_from_slice(&0i32.to_le_bytes());
    b.extend_from_slice(&0f64.to_bits().to_le_bytes()); // km
    b.push(0); // overflow
    b.extend_from_slice(&0i32.to_le_bytes()); // pending
    b.extend_from_slice(&(planned.len() as i32).to_le_bytes());
    for &(v, g, rhs) in planned {
        b.extend_from_slice(&v.to_le_bytes());
        b.extend_from_slice(&g.to_bits().to_le_bytes());
        b.extend_from_slice(&rhs.to_bits().to_le_bytes());
    }
    b.extend_from_slice(&0i32.to_le_bytes()); // queue
    b
}

/// The requests of the committed vectors, with their comments, in id order.
pub fn requests() -> Vec<(String, ReplanRequest)> {
    let mut out = Vec::new();
    // Generated scripts: both modes, square and every hex layout, rollbacks included.
    for i in 0..24u64 {
        let r = request(SEED, i, 14, 48);
        let shape = match r.grid.hex_layout {
            None => "square".to_string(),
            Some(l) => format!("hex layout {l}"),
        };
        // Every step's reply holds the state bytes' hash (keys, queue slots, g/rhs, counters),
        // the expansion order, the counters and the path, so these rules are pinned by each
        // generated script; the end-move, invalidate and rollback rules only where the script
        // has such a step.
        let has = |f: &dyn Fn(&ReplanStep) -> bool| r.script.iter().any(f);
        let mut cites = String::from(" [REPLAN.API.NEW] [REPLAN.KEY.CALC] [REPLAN.KEY.ORDER] [REPLAN.KEY.ESTIMATE] [REPLAN.QUEUE.UPDATE] [REPLAN.QUEUE.REMOVE] [REPLAN.QUEUE.TOP] [REPLAN.INIT.RUN] [REPLAN.UPDATE] [REPLAN.COMPUTE.STEP] [REPLAN.MOVE.COST] [REPLAN.RUN.REPLAN] [REPLAN.RUN.COUNTERS] [REPLAN.RUN.RECORD] [REPLAN.RUN.RESTART] [REPLAN.PATH.WALK] [REPLAN.STATE.HEADER] [REPLAN.STATE.SEARCH]");
        cites.push_str(if r.grid.hex_layout.is_some() {
            " [REPLAN.MOVE.HEX]"
        } else {
            " [REPLAN.MOVE.SQUARE]"
        });
        if has(&|s| matches!(s, ReplanStep::SetGoal { .. })) {
            cites.push_str(" [REPLAN.RUN.SET_GOAL]");
        }
        if has(&|s| matches!(s, ReplanStep::InvalidateAll {})) {
            cites.push_str(" [REPLAN.RUN.INVALIDATE]");
        }
        if has(&|s| matches!(s, ReplanStep::Rollback {})) {
            cites.push_str(" [REPLAN.STATE.RESTORE] [REPLAN.STATE.ORDER]");
        }
        out.push((
            format!("generated edit script {i}: {shape}, {:?}, 48 steps (replans, edits near the path, end moves, saves and rollbacks){cites}", r.mode),
            r,
        ));
    }
    let open = vec![0u8; 16];
    let plain = GridOptionsData::default();
    // Option and end checks ([REPLAN.API.OPTIONS] order).
    let with = |f: &dyn Fn(&mut GridOptionsData)| {
        let mut o = plain.clone();
        f(&mut o);
        o
    };
    let rejections: Vec<(&str, Option<i32>, GridOptionsData, (u32, u32))> = vec![
        ("a cell_cost hook: invalid_options [REPLAN.API.NO_HOOKS]", None, with(&|o| o.cell_cost = Some(CellCostRule::ExtraWhere { modulus: 2, extra: 1.0 })), (0, 0)),
        ("a blocked hook: invalid_options [REPLAN.API.NO_HOOKS]", None, with(&|o| o.blocked = Some(crate::grid::CellBlockRule { modulus: 3, residue: 1 })), (0, 0)),
        ("algorithm Jps: unsupported_algorithm [REPLAN.API.OPTIONS]", None, with(&|o| o.algorithm = 2), (0, 0)),
        ("weight 0.5 before algorithm Theta: invalid_options [REPLAN.API.OPTIONS]", None, with(&|o| { o.algorithm = 4; o.weight = 0.5 }), (0, 0)),
        ("weight 1.5 (valid for searches): invalid_options heuristic_weight [REPLAN.API.OPTIONS]", None, with(&|o| { o.algorithm = 4; o.weight = 1.5 }), (0, 0)),
        ("hex agent size 2 before a hook: invalid_options [REPLAN.API.HEX_OPTIONS]", Some(0), with(&|o| { o.agent_size = 2; o.cell_cost = Some(CellCostRule::ExtraWhere { modulus: 2, extra: 1.0 }) }), (0, 0)),
        ("start x = 4 on a 4-wide grid: cell_out_of_range [REPLAN.API.ENDS]", None, plain.clone(), (4, 0)),
    ];
    for (comment, layout, o, start) in rejections {
        out.push((
            comment.to_string(),
            small_request(layout, &open, 4, o, ModeName::Lpa, start, (3, 3), vec![]),
        ));
    }
    // Overflow: 4 x 4 cells, L = 64 + 1 = 65; 66 edits between two replans overflow and restart.
    let mut script = vec![ReplanStep::Replan { budget: 0 }];
    for k in 0..66u32 {
        script.push(ReplanStep::SetCell {
            x: 1 + k % 2,
            y: 1,
            area: ((k / 2) % 2 + 1) as u8,
        });
    }
    script.push(ReplanStep::Replan { budget: 0 });
    out.push(("66 edits between replans on 16 cells overflow the pending list (L = 65) and restart [REPLAN.EDIT.LIMIT]".into(), small_request(None, &open, 4, plain.clone(), ModeName::DStarLite, (0, 0), (3, 3), script)));
    // Budgets, an area edit, end moves out of range.
    out.push((
        "budgeted replans (1, 2, 3) to completion, an area edit that restarts, ends out of range [REPLAN.COMPUTE.LOOP] [REPLAN.EDIT.AREAS]".into(),
        small_request(None, &[0, 0, 2, 0, 255, 0, 1, 0, 0, 0, 3, 0, 0, 255, 0, 0], 4, plain.clone(), ModeName::DStarLite, (0, 0), (3, 3), vec![
            ReplanStep::Replan { budget: 1 },
            ReplanStep::Replan { budget: 2 },
            ReplanStep::Replan { budget: 3 },
            ReplanStep::Replan { budget: 0 },
            ReplanStep::SetArea { area: 2, multiplier: 0.25 },
            ReplanStep::Replan { budget: 0 },
            ReplanStep::SetStart { x: 9, y: 0 },
            ReplanStep::SetGoal { x: 0, y: 4 },
            ReplanStep::SetStart { x: 1, y: 0 },
            ReplanStep::Replan { budget: 0 },
        ]),
    ));
    // Planted cost fields: broken_path and path_cycle ([REPLAN.PATH.BROKEN]).
    out.push((
        "a restored LPA* state whose goal has a cost but no neighbour with one: path() is broken_path; the restore itself succeeds although g, rhs and the queue disagree [REPLAN.PATH.BROKEN] [REPLAN.STATE.STRUCTURAL] [REPLAN.API.CLASSES]".into(),
        small_request(None, &[0, 0, 0, 0], 4, plain.clone(), ModeName::Lpa, (3, 0), (0, 0), vec![
            ReplanStep::Restore { bytes: Hex(planted_state(&[(0, 5.0, 5.0)], true)) },
        ]),
    ));
    out.push((
        "a restored LPA* state whose values lead round cells 1 and 2: path() is path_cycle after 4 steps; the restore succeeds and replan(3) on that state does 3 iterations [REPLAN.PATH.BROKEN] [REPLAN.STATE.STRUCTURAL] [REPLAN.API.CLASSES]".into(),
        small_request(None, &[0, 0, 0, 0], 4, plain.clone(), ModeName::Lpa, (3, 0), (0, 0), vec![
            ReplanStep::Restore { bytes: Hex(planted_state(&[(0, 5.0, 5.0), (1, 1.0, 1.0), (2, 0.5, 0.5)], true)) },
            ReplanStep::Replan { budget: 3 },
        ]),
    ));
    // [REPLAN.COMPUTE.STOP] The walk check, shrunk from a generated case: after the wall at
    // (4, 3) the stale cell (3, 3) has a key that ties key(start) in reals and rounds one ulp
    // above it in f64; without the walk check D* Lite stops with cost 3.12 instead of 9.08.
    out.push((
        "D* Lite stops only when the walk from the start meets consistent cells: a key tie that rounds one ulp above key(start) would otherwise end planning with a stale cost [REPLAN.COMPUTE.STOP]".into(),
        ReplanRequest {
            grid: ReplanGrid {
                hex_layout: None,
                map: MapFile {
                    width: 6,
                    height: 16,
                    cells: "010003ff030001ff010003ff0002010102ff0103ff0102ff03ff0003000302020200010202ffff03020103030202ff00000203ff0003ff03ff01ff03ff02030300ff010300ff03020203ffff020200ff02ff03ff0202ff0200000001ff0301ff".into(),
                    multipliers: MULTIPLIERS.to_vec(),
                    space: None,
                },
            },
            options: GridOptionsData { diagonal: 1, ..plain.clone() },
            mode: ModeName::DStarLite,
            start: (4, 2),
            goal: (5, 7),
            script: vec![
                ReplanStep::SetCell { x: 4, y: 3, area: 3 },
                ReplanStep::SetGoal { x: 5, y: 4 },
                ReplanStep::SetCell { x: 3, y: 4, area: 255 },
                ReplanStep::SetCell { x: 5, y: 4, area: 2 },
                ReplanStep::SetArea { area: 2, multiplier: 0.5 },
                ReplanStep::SetStart { x: 4, y: 1 },
                ReplanStep::Replan { budget: 0 },
                ReplanStep::SetCell { x: 4, y: 3, area: 255 },
                ReplanStep::Replan { budget: 0 },
            ],
        },
    ));
    // Hex moves on every layout: a 5 x 5 open hex map, Dijkstra, the goal at each corner.
    for layout in 0..4 {
        let mut rng = SplitMix64::new(SEED ^ layout as u64);
        let m = map(&mut rng, 5, 5, 0);
        let cells = hex::decode(&m.cells).expect("hex");
        out.push((
            format!("hex layout {layout}: LPA* and neighbour order on a 5 x 5 map, goals in every corner [GRID.HEX.OFFSETS]"),
            small_request(Some(layout), &cells, 5, with(&|o| o.algorithm = 0), ModeName::Lpa, (2, 2), (0, 0), vec![
                ReplanStep::Replan { budget: 0 },
                ReplanStep::SetGoal { x: 4, y: 0 },
                ReplanStep::Replan { budget: 0 },
                ReplanStep::SetGoal { x: 4, y: 4 },
                ReplanStep::Replan { budget: 0 },
                ReplanStep::SetGoal { x: 0, y: 4 },
                ReplanStep::Replan { budget: 0 },
            ]),
        ));
    }
    // [REPLAN.EDIT.CELLS] The complemented region of an agent of size 2 reaches (x-2, y-2): a
    // wall at (4, 4) makes (3..=4, 3..=4) impassable, and the cells of row and column 2 lose
    // their moves into them. Both modes, on an open 8 x 8 map with the path along the diagonal.
    for mode in [ModeName::DStarLite, ModeName::Lpa] {
        out.push((
            format!("{mode:?}, agent size 2: a wall edit re-examines (x-2..=x+1, y-2..=y+1), so the cells two rows and columns up-left of the wall, which lose their moves into the newly blocked 2 x 2 block, are updated [REPLAN.EDIT.CELLS]"),
            small_request(None, &[0u8; 64], 8, GridOptionsData { agent_size: 2, ..plain.clone() }, mode, (0, 0), (6, 6), vec![
                ReplanStep::Replan { budget: 0 },
                ReplanStep::SetCell { x: 4, y: 4, area: 255 },
                ReplanStep::Replan { budget: 0 },
                ReplanStep::SetCell { x: 4, y: 4, area: 0 },
                ReplanStep::Replan { budget: 0 },
            ]),
        ));
    }
    // [REPLAN.RUN.SET_START] km uses the scale as last read: an area edit lowers the smallest
    // multiplier (0.5 -> 0.25), then the start moves before any replan; km (in the state hash of
    // the set_start step) is priced with 0.5, then the replan restarts ([REPLAN.EDIT.AREAS]).
    out.push((
        "D* Lite: a start move after an area edit and before the next replan prices km with the scale as last read (0.5), not the grid's new smallest multiplier (0.25) [REPLAN.RUN.SET_START] [REPLAN.KEY.SCALE]".into(),
        small_request(None, &[0u8; 36], 6, plain.clone(), ModeName::DStarLite, (0, 0), (5, 5), vec![
            ReplanStep::Replan { budget: 0 },
            ReplanStep::SetArea { area: 1, multiplier: 0.25 },
            ReplanStep::SetStart { x: 1, y: 2 },
            ReplanStep::Replan { budget: 0 },
        ]),
    ));
    // [REPLAN.STATE.CHECKS] [REPLAN.STATE.ATOMIC] Rejected restores of kind-5 bytes that are
    // valid but for one field, each after a completed replan: the class and offset name the
    // field, and the state hash of every rejected step is the one the replan left.
    let valid = planted_state(&[(0, 5.0, 5.0)], true);
    let patched = |offset: usize, bytes: &[u8]| {
        let mut b = valid.clone();
        b[offset..offset + bytes.len()].copy_from_slice(bytes);
        Hex(b)
    };
    let unordered = planted_state(&[(1, 1.0, 1.0), (0, 5.0, 5.0)], true);
    out.push((
        "rejected restores after a replan: mode D* Lite into an LPA* replanner (engine_mismatch), iterations below expanded (out_of_range at expanded), km NaN (nan), km 1.0 under LPA* (out_of_range), planned cells not increasing (not_increasing); each leaves the replanner's state hash and reply unchanged [REPLAN.STATE.CHECKS] [REPLAN.STATE.ATOMIC]".into(),
        small_request(None, &[0, 0, 0, 0], 4, plain.clone(), ModeName::Lpa, (3, 0), (0, 0), vec![
            ReplanStep::Replan { budget: 0 },
            ReplanStep::Restore { bytes: patched(33, &[1]) },
            ReplanStep::Restore { bytes: patched(44, &3i64.to_le_bytes()) },
            ReplanStep::Restore { bytes: patched(64, &f64::NAN.to_bits().to_le_bytes()) },
            ReplanStep::Restore { bytes: patched(64, &1f64.to_bits().to_le_bytes()) },
            ReplanStep::Restore { bytes: Hex(unordered) },
            ReplanStep::Replan { budget: 0 },
        ]),
    ));
    // [REPLAN.STATE.RESTORE] Valid bytes of this replanner's size, restored against a grid of
    // another size: the width and the height are each checked against the grid as well as the
    // replanner, so another width with the same height fails at the width field and the same
    // width with another height at the height field.
    let onto = |width: u32, height: u32| ReplanStep::RestoreOnto {
        width,
        height,
        bytes: Hex(valid.clone()),
    };
    out.push((
        "restores of valid bytes of the replanner's own size (4 x 1) against a new grid of another size, after a replan: 5 x 1 and 3 x 1 (another width, the same height) are size_mismatch at the width field (offset 8), 4 x 2 (the same width, another height) size_mismatch at the height field (offset 12), 5 x 2 at the width field; each leaves the replanner's state hash and reply unchanged, and the replan after them on the replanner's own grid is Found with the same path [REPLAN.STATE.RESTORE] [REPLAN.STATE.CHECKS] [REPLAN.STATE.ATOMIC] (a width or height checked against the replanner's size alone, as the bytes were saved by a replanner of that size, accepts such a restore)".into(),
        small_request(None, &[0, 0, 0, 0], 4, plain.clone(), ModeName::Lpa, (3, 0), (0, 0), vec![
            ReplanStep::Replan { budget: 0 },
            onto(5, 1),
            onto(3, 1),
            onto(4, 2),
            onto(5, 2),
            ReplanStep::Replan { budget: 0 },
        ]),
    ));
    out
}

/// Every replanning vector file, generated from `imp`: path relative to `vectors/`, bytes.
pub fn generate_files(imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    for (i, (comment, request)) in requests().into_iter().enumerate() {
        let id = format!("REPLAN-{:04}", i + 1);
        let expected = imp
            .run_replan(&request)
            .unwrap_or_else(|e| ReplanReply::Failed(format!("harness: {e}")));
        let envelope = Envelope::new(
            &id,
            REPLAN_FAMILY,
            &comment,
            vec![ReplanCase { request, expected }],
        );
        files.insert(
            format!("{REPLAN_FOLDER}/{id}.json"),
            to_text(&envelope).into_bytes(),
        );
    }
    files
}

/// The committed vectors under `dir`, in id order.
pub fn read_dir(dir: &Path) -> Result<Vec<ReplanVector>, HarnessError> {
    let files = crate::envelope::read_family(
        dir,
        REPLAN_FOLDER,
        "REPLAN-",
        REPLAN_FAMILY,
        |e: Envelope<ReplanCase>| {
            let (id, comment, case) = e.single()?;
            Ok(ReplanVector { id, comment, case })
        },
    )?;
    Ok(files.into_iter().map(|(_, v)| v).collect())
}

/// The replanning part of the `vectors` section: every vector of `shard` on every
/// implementation (the first differing step and field), and the oracle on the reply of record.
pub fn certify(
    dir: &Path,
    all: &[&dyn Implementation],
    shard: crate::config::Shard,
    once: &mut Section,
    s: &mut Section,
) {
    let fail = |vector: &str, imp: &str, what: String, expected: String, found: String| Failure {
        vector: Some(vector.to_string()),
        implementation: imp.to_string(),
        what,
        expected,
        found,
        ..Default::default()
    };
    let vectors = match read_dir(dir) {
        Ok(v) => v,
        Err(e) => {
            return once.fail(fail(
                "-",
                "-",
                "replanning vector file".into(),
                "a valid vector".into(),
                e.to_string(),
            ))
        }
    };
    for (ordinal, v) in vectors.iter().enumerate() {
        if !shard.contains(ordinal) {
            continue;
        }
        s.record(oracle::check(&v.case.request, &v.case.expected).map(|p| {
            fail(
                &v.id,
                "vector",
                "the reply of record against the oracle".into(),
                "no problem".into(),
                p,
            )
        }));
        for imp in all {
            let got = imp.run_replan_as(&v.id, &v.case.request);
            s.record(match got {
                Err(e) => Some(fail(
                    &v.id,
                    imp.name(),
                    "run_replan".into(),
                    "a reply".into(),
                    e.to_string(),
                )),
                Ok(reply) => first_difference(&v.case.expected, &reply).map(|d| {
                    fail(
                        &v.id,
                        imp.name(),
                        "replan reply".into(),
                        "the reply of record".into(),
                        d,
                    )
                }),
            });
        }
    }
}
