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
        s.inputs[80 + i].push(vec![8, i as i128]);
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
    out.push(edge_containers());
    out.extend(bad_sessions());
    out.push(version_wrap());
    out.push(refused_calls());
    out.push(graph_bound());
    out.push(header_versions());
    out.extend(bad_op_bounds());
    out.extend(refused_members());
    out.push(area_version_wrap());
    out.extend(area_op_bounds());
    out.push(budget_edge());
    out.extend(budget_bounds());
    out
}

/// The largest budget an op carries ([CONF.SYNC.OPS]: budgets are `u64`).
const BUDGET_MAX: i128 = u64::MAX as i128;

/// SYNC-0057: every budget op at the top of its range, `2^64 - 1`, which the session reads (it
/// does not fit a signed 64-bit integer) and passes to its call as given.
fn budget_edge() -> (String, Session) {
    let mut s = generate::session(19, 4);
    s.inputs[3].extend([
        vec![1, BUDGET_MAX],
        vec![2, BUDGET_MAX],
        vec![4, BUDGET_MAX],
        vec![7, BUDGET_MAX],
    ]);
    (
        "seed 19, 4 frames; frame 3 ends with replan, flow step, grid-search step and graph-search step, each with budget 2^64 - 1 (the top of the u64 range, read as given and passed to the call) [CONF.SYNC.OPS] [CONF.SYNC.SESSION]".into(),
        s,
    )
}

/// SYNC-0058 onwards: every budget op one past the top of its range, `2^64`, then a replan with
/// each end of the integers a session decodes ([CONF.SYNC.OPS]: signed 128-bit), out of range.
fn budget_bounds() -> Vec<(String, Session)> {
    let ops: [(&str, Vec<i128>); 6] = [
        ("replan with budget 2^64", vec![1, BUDGET_MAX + 1]),
        ("flow step with budget 2^64", vec![2, BUDGET_MAX + 1]),
        ("grid-search step with budget 2^64", vec![4, BUDGET_MAX + 1]),
        (
            "graph-search step with budget 2^64",
            vec![7, BUDGET_MAX + 1],
        ),
        ("replan with budget 2^127 - 1", vec![1, i128::MAX]),
        ("replan with budget -2^127", vec![1, i128::MIN]),
    ];
    bad_op_sessions(&ops)
}

/// SYNC-0050: a grid restored at area version 2^31 - 1 whose multipliers op 10
/// changes across the wrap ([GRID.AREA.VERSION]), with the refusals of `set_area_multiplier`.
fn area_version_wrap() -> (String, Session) {
    let mut s = generate::session(41, 60);
    s.containers = vec![Hex(grid_at_limit(&s, 20, &[GRID_AREA_VERSION]))];
    s.inputs[30] = vec![
        vec![8, 0],
        vec![10, 255, 1, 1],
        vec![10, 2, 0, 1],
        vec![10, 2, -3, 2],
        vec![10, 1, 3, 2],
        vec![2, 0],
        vec![1, 0],
    ];
    s.inputs[31].insert(0, vec![10, 1, 1, 10]);
    (
        "seed 41, 60 frames; frame 30 restores the world's container after frame 20 with member 0's grid at area version 2^31 - 1 [STATE.GRID] [STATE.AREAS], then sets the multiplier of area 255 (refused: area_out_of_range), of area 2 to 0 and to -1.5 (refused: invalid_multiplier), each writing 1 and changing nothing, then of area 1 to 1.5: the area version wraps to 0; the flow field and the replanner then run on the new multipliers; frame 31 sets area 1 to 0.1 (not dyadic) and the area version counts 1 [GRID.AREA.SET] [GRID.AREA.VERSION] [CONF.SYNC.OPS]".into(),
        s,
    )
}

/// The session of SYNC-0006 (seed 19, 4 frames) with frame 2 ending in each op: one vector each.
fn bad_op_sessions(ops: &[(&str, Vec<i128>)]) -> Vec<(String, Session)> {
    let mut out = Vec::new();
    for (what, op) in ops {
        let mut s = generate::session(19, 4);
        s.inputs[2].push(op.clone());
        out.push((
            format!("seed 19, 4 frames; frame 2 ends with {what}, {op:?}: the session is failed with bad_op (frame 2, op {}) before any frame runs [CONF.SYNC.OPS] [CONF.SYNC.SESSION]", s.inputs[2].len() - 1),
            s,
        ));
    }
    out
}

/// SYNC-0051 onwards: op 10 one past each of its ranges ([CONF.SYNC.OPS]).
fn area_op_bounds() -> Vec<(String, Session)> {
    const F53: i128 = 1 << 53;
    let ops: [(&str, Vec<i128>); 6] = [
        ("set_area_multiplier of area -1", vec![10, -1, 1, 1]),
        ("set_area_multiplier of area 256", vec![10, 256, 1, 1]),
        (
            "set_area_multiplier with numerator 2^53 + 1",
            vec![10, 1, F53 + 1, 1],
        ),
        ("set_area_multiplier with denominator 0", vec![10, 1, 1, 0]),
        (
            "set_area_multiplier with denominator 2^53 + 1",
            vec![10, 1, 1, F53 + 1],
        ),
        ("set_area_multiplier with three integers", vec![10, 1, 1]),
    ];
    bad_op_sessions(&ops)
}

/// SYNC-0023: [WORLD.STAGE.GRAPH_BOUND] at and past its edge: the container's graph member (1)
/// and its graph search (member 5) name `N` nodes, for `N` one past the container's length, `2^26`
/// and `2^26 + 1` (refused), then exactly the container's length (restored).
fn graph_bound() -> (String, Session) {
    let mut s = generate::session(31, 40);
    let good = container_after(&s, 10);
    let sp = spans(&good);
    let len = good.len() as i32;
    // [STATE.GRAPH] [STATE.SEARCH] node_count follows each state's 8-byte header.
    let with_nodes = |n: i32| {
        let mut b = good.clone();
        b[sp[1].0 + 8..sp[1].0 + 12].copy_from_slice(&n.to_le_bytes());
        b[sp[5].0 + 8..sp[5].0 + 12].copy_from_slice(&n.to_le_bytes());
        Hex(b)
    };
    s.containers = vec![
        with_nodes(len + 1),
        with_nodes(1 << 26),
        with_nodes((1 << 26) + 1),
        with_nodes(len),
    ];
    for (i, frame) in (20..24).enumerate() {
        s.inputs[frame].push(vec![8, i as i128]);
    }
    (
        format!("seed 31, 40 frames; frames 20-23 restore the world's container after frame 10 ({len} bytes) with its graph (member 1) and its graph search (member 5) both at node_count {}, 2^26, 2^26 + 1 and {len}: the first two are refused as member 1, count_out_of_range at its node_count field, before the search is staged over the graph (its compile and buffers would take O(N) bytes), the third by the graph's own check [STATE.GRAPH] at the same field, the last (the edge: the container's length) restores, and the session goes on over a graph of {len} nodes [WORLD.STAGE.GRAPH_BOUND] [WORLD.STAGE] [WORLD.ATOMIC] [STATE.BOUNDED]", len + 1),
        s,
    )
}

/// SYNC-0024: the version field of [WORLD.READ] at the header's cut points, which SYNC-0005
/// (a good version at 6 and 10 bytes) leaves out: a bad version is judged as soon as its two
/// bytes are there, before the input's length is.
fn header_versions() -> (String, Session) {
    let mut s = generate::session(31, 40);
    let good = container_after(&s, 10);
    let with_version = |n: usize, v: u16| {
        let mut b = good[..n].to_vec();
        b[4..6].copy_from_slice(&v.to_le_bytes());
        b
    };
    let faults: Vec<(&str, Vec<u8>)> = vec![
        (
            "5 bytes: the magic and half the version",
            good[..5].to_vec(),
        ),
        ("6 bytes: the magic and version 2", with_version(6, 2)),
        ("6 bytes: the magic and version 0", with_version(6, 0)),
        ("9 bytes: version 2 and a cut count", with_version(9, 2)),
        (
            "the whole container at version 2",
            with_version(good.len(), 2),
        ),
    ];
    let names: Vec<&str> = faults.iter().map(|(n, _)| *n).collect();
    for (i, _) in faults.iter().enumerate() {
        s.inputs[20 + i].push(vec![8, i as i128]);
    }
    s.containers = faults.into_iter().map(|(_, b)| Hex(b)).collect();
    // Budget 0 in every op that takes a budget: the bottom of each op's range ([CONF.SYNC.OPS]).
    s.inputs[30].extend([vec![1, 0], vec![2, 0], vec![4, 0], vec![7, 0]]);
    (
        format!("seed 31, 40 frames; from frame 20 one restore per frame of the world's container after frame 10, changed: {}; a 5-byte input is truncated at 5, a bad version is unsupported_version at 4 whatever follows it (6 and 9 bytes are not judged by their length first), and each refused restore changes nothing [WORLD.READ] [WORLD.HEADER] [WORLD.ATOMIC]; frame 30 ends with replan, flow step, grid-search step and graph-search step of budget 0, the bottom of their ranges (unlimited for replan and the flow step, no iteration for the sliced searches) [CONF.SYNC.OPS]", names.join(", ")),
        s,
    )
}

/// SYNC-0025 onwards: one past each end of every op range [CONF.SYNC.OPS] names that
/// SYNC-0006..0016 leave out (an op that is not refused would run, or a later bound would be
/// reported), and a grid-search `begin` with five integers; each session, as
/// [`bad_sessions`]'s, is failed with `bad_op` at that op before any frame runs.
fn bad_op_bounds() -> Vec<(String, Session)> {
    const U32_END: i128 = 1 << 32;
    const F53: i128 = 1 << 53;
    let ops: [(&str, Vec<i128>); 23] = [
        ("set_cell at y = -1", vec![0, 0, -1, 0]),
        ("set_cell at x = 2^32", vec![0, U32_END, 0, 0]),
        ("set_cell at y = 2^32", vec![0, 0, U32_END, 0]),
        ("set_cell to area -1", vec![0, 0, 0, -1]),
        ("flow step with budget -1", vec![2, -1]),
        ("grid begin at x = -1", vec![3, -1, 0, 0, 0]),
        ("grid begin at y = -1", vec![3, 0, -1, 0, 0]),
        ("grid begin to x = -1", vec![3, 0, 0, -1, 0]),
        ("grid begin to y = -1", vec![3, 0, 0, 0, -1]),
        ("grid begin at y = 2^32", vec![3, 0, U32_END, 0, 0]),
        ("grid begin to x = 2^32", vec![3, 0, 0, U32_END, 0]),
        ("grid begin to y = 2^32", vec![3, 0, 0, 0, U32_END]),
        ("grid begin with five integers", vec![3, 0, 0, 0, 0, 0]),
        ("grid-search step with budget -1", vec![4, -1]),
        ("set_weight of edge -1", vec![5, -1, 1, 1]),
        ("set_weight of edge 2^32", vec![5, U32_END, 1, 1]),
        (
            "set_weight with numerator -2^53 - 1",
            vec![5, 0, -F53 - 1, 1],
        ),
        ("graph begin at node -1", vec![6, -1, 0]),
        ("graph begin to node -1", vec![6, 0, -1]),
        ("graph begin at node 2^32", vec![6, U32_END, 0]),
        ("graph begin to node 2^32", vec![6, 0, U32_END]),
        ("graph-search step with budget -1", vec![7, -1]),
        ("restore of container -1", vec![8, -1]),
    ];
    bad_op_sessions(&ops)
}

/// SYNC-0048 and SYNC-0049: sessions whose grid and graph build but whose world refuses a
/// dependent member ([WORLD.ADD]: its constructor's error is class `build`): the replanner's start
/// one past the last column, and a flow field with no goals.
fn refused_members() -> Vec<(String, Session)> {
    let mut out = Vec::new();
    let mut s = generate::session(19, 4);
    s.replanner.start = (s.map.width, 0);
    out.push((
        format!("seed 19, 4 frames; the replanner's start ({}, 0) is one past the last column: add_replanner refuses it (GridReplanner::new's cell_out_of_range), so the session is failed with build [WORLD.ADD] [CONF.SYNC.SESSION]", s.map.width),
        s,
    ));
    let mut s = generate::session(19, 4);
    s.flow_goals.clear();
    out.push((
        "seed 19, 4 frames; no flow goals: add_flow_field refuses them (GridFlowField::new's invalid_goals) after the replanner was added, so the session is failed with build [WORLD.ADD] [CONF.SYNC.SESSION]".into(),
        s,
    ));
    out
}

/// SYNC-0022: well-formed ops whose calls refuse their arguments ([CONF.SYNC.OPS]: output 1),
/// inside frames the loop rolls back over.
fn refused_calls() -> (String, Session) {
    let mut s = generate::session(29, 40);
    let (w, h) = (s.map.width as i128, s.map.height as i128);
    let edges = s.graph.edges.len() as i128;
    let nodes = s.graph.node_count as i128;
    let (x, y) = first_open(&s);
    s.inputs[10].extend([
        vec![0, w, 0, 1],
        vec![0, 0, h, 1],
        vec![3, w, 0, x, y],
        vec![3, x, y, 0, h],
        vec![4, 3],
    ]);
    s.inputs[11].extend([
        vec![5, edges, 1, 1],
        vec![5, 0, -1, 1],
        vec![6, nodes, 0],
        vec![6, 0, nodes],
        vec![7, 3],
    ]);
    (
        format!("seed 29, 40 frames; frame 10 ends with set_cell at x = {w} and at y = {h} (outside the {w} x {h} grid) and a grid-search begin from and to a cell outside it, then a step; frame 11 with set_weight of edge {edges} (one past the last) and of weight -1 / 1, and a graph-search begin from and to node {nodes} (one past the last), then a step: each refused call writes 1 and changes nothing (the parked searches keep their runs), and the rolled-back frames refuse them again [CONF.SYNC.OPS] [GRID.EDIT.RANGE] [GS.ASTAR.BEGIN] [GRAPH.MUT.EDIT_ORDER] [GRAPH.VAL.EDGE] [GRAPH.ASTAR.BEGIN]"),
        s,
    )
}

/// [STATE.GRID] The offsets, within member 0's grid bytes, of its version and area version.
const GRID_VERSION: usize = 16;
const GRID_AREA_VERSION: usize = 44;

/// The world's container after `frame` of `s`, with the `i32` fields of member 0's grid at
/// `offsets` set to 2^31 - 1.
fn grid_at_limit(s: &Session, frame: usize, offsets: &[usize]) -> Vec<u8> {
    let mut b = container_after(s, frame);
    let (g, _) = spans(&b)[0];
    for &o in offsets {
        b[g + o..g + o + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    }
    b
}

/// SYNC-0021: a grid restored at version 2^31 - 1 and edited across the wrap
/// ([GRID.VERSION.COUNT]).
fn version_wrap() -> (String, Session) {
    let mut s = generate::session(23, 60);
    let wrap = grid_at_limit(&s, 20, &[GRID_VERSION, GRID_AREA_VERSION]);
    let (x, y) = first_open(&s);
    s.containers = vec![Hex(wrap)];
    s.inputs[30] = vec![vec![8, 0], vec![0, x, y, 3], vec![0, x, y, 0], vec![1, 4]];
    s.inputs[31].insert(0, vec![0, x, y, 2]);
    (
        format!("seed 23, 60 frames; frame 30 restores the world's container after frame 20 with member 0's grid at version and area version 2^31 - 1 [STATE.GRID] [STATE.AREAS], then sets cell ({x}, {y}) to 3 and back to 0: the version wraps to 0, then counts 1; frame 31 sets it to 2 [GRID.VERSION.COUNT]"),
        s,
    )
}

/// SYNC-0005: the header edges of [WORLD.READ] that SYNC-0003's faults leave out, and a grid
/// version at its wrap ([GRID.VERSION.COUNT]).
fn edge_containers() -> (String, Session) {
    let mut s = generate::session(17, 120);
    let good = container_after(&s, 30);
    let sp = spans(&good);
    let header = |m: usize| sp[m].0 - 10;
    let edit = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut b = good.to_vec();
        f(&mut b);
        b
    };
    let faults: Vec<(String, Vec<u8>)> = vec![
        (
            "4 bytes with a bad magic".into(),
            edit(&|b| {
                b.truncate(4);
                b[1] = b'X'
            }),
        ),
        ("4 bytes: the magic alone".into(), good[..4].to_vec()),
        (
            "6 bytes: the magic and the version".into(),
            good[..6].to_vec(),
        ),
        ("10 bytes: the header alone".into(), good[..10].to_vec()),
        (
            "cut at member 1's header".into(),
            good[..header(1)].to_vec(),
        ),
        (
            "cut at the last member's header".into(),
            good[..header(sp.len() - 1)].to_vec(),
        ),
        (
            "cut 4 bytes into member 3's header".into(),
            good[..header(3) + 4].to_vec(),
        ),
        ("count 5".into(), edit(&|b| b[6] = 5)),
        ("count 0".into(), edit(&|b| b[6] = 0)),
        (
            "count -1".into(),
            edit(&|b| b[6..10].copy_from_slice(&(-1i32).to_le_bytes())),
        ),
        (
            "member 2 with owner -1".into(),
            edit(&|b| {
                let h = header(2);
                b[h + 2..h + 6].copy_from_slice(&(-1i32).to_le_bytes())
            }),
        ),
        (
            "member 5 of type 0".into(),
            edit(&|b| {
                let h = header(5);
                b[h..h + 2].copy_from_slice(&0u16.to_le_bytes())
            }),
        ),
        (
            "member 1 one byte short of its length".into(),
            good[..sp[1].0 + sp[1].1 - 1].to_vec(),
        ),
        (
            "member 2's header alone".into(),
            good[..header(2) + 10].to_vec(),
        ),
        ("member 2's header alone, of type 0".into(), {
            let mut b = good[..header(2) + 10].to_vec();
            let h = header(2);
            b[h..h + 2].copy_from_slice(&0u16.to_le_bytes());
            b
        }),
    ];
    let names: Vec<String> = faults.iter().map(|(n, _)| n.clone()).collect();
    for (i, _) in faults.iter().enumerate() {
        s.inputs[40 + i].push(vec![8, i as i128]);
    }
    s.containers = faults.iter().map(|(_, b)| Hex(b.clone())).collect();
    (
        format!("seed 17, 120 frames; from frame 40 one restore per frame of the world's container after frame 30, changed: {}; each refused restore names its class and offset in byte order ([WORLD.READ]: a 4-byte input is judged by its magic first, a cut member header is truncated whatever it holds, a whole one is read) and changes nothing [WORLD.HEADER] [WORLD.MEMBER] [WORLD.ATOMIC]", names.join(", ")),
        s,
    )
}

/// The first cell of a session's map that is not a wall (row-major), as op integers.
fn first_open(s: &Session) -> (i128, i128) {
    let cells = hex::decode(&s.map.cells).unwrap_or_default();
    let w = s.map.width.max(1) as usize;
    let i = cells.iter().position(|&c| c != 255).unwrap_or(0);
    ((i % w) as i128, (i / w) as i128)
}

/// SYNC-0006 onwards: sessions refused before they run ([CONF.SYNC.OPS]: `bad_op` in frame and
/// op order) and sessions whose world cannot be built ([CONF.SYNC.SESSION]).
fn bad_sessions() -> Vec<(String, Session)> {
    let base = || generate::session(19, 4);
    let mut out = Vec::new();
    let bad_ops: [(&str, Vec<i128>); 11] = [
        ("op code 9", vec![9]),
        ("an empty op", vec![]),
        ("set_cell with three integers", vec![0, 1, 2]),
        ("set_cell at x = -1", vec![0, -1, 0, 0]),
        ("set_cell to area 256", vec![0, 0, 0, 256]),
        ("grid begin at x = 2^32", vec![3, 1 << 32, 0, 0, 0]),
        ("replan with budget -1", vec![1, -1]),
        (
            "set_weight with numerator 2^53 + 1",
            vec![5, 0, (1 << 53) + 1, 1],
        ),
        ("set_weight with denominator 0", vec![5, 0, 1, 0]),
        (
            "set_weight with denominator 2^53 + 1",
            vec![5, 0, 1, (1 << 53) + 1],
        ),
        ("restore of container 0 in a session of none", vec![8, 0]),
    ];
    for (what, op) in bad_ops {
        let mut s = base();
        // Frame 2, after the frame's own ops: a later op in frame order than anything valid.
        s.inputs[2].push(op.clone());
        out.push((
            format!("seed 19, 4 frames; frame 2 ends with {what}, {op:?}: the session is failed with bad_op (frame 2, op {}) before any frame runs [CONF.SYNC.OPS] [CONF.SYNC.SESSION]", s.inputs[2].len() - 1),
            s,
        ));
    }
    let mut s = base();
    s.map.multipliers = vec![(1, 2.0), (2, 0.0)];
    out.push((
        "seed 19, 4 frames; the map's multipliers (1, 2.0), (2, 0.0): set_area_multiplier refuses 0.0, so the world is not built and the session is failed with invalid_multiplier [GRID.AREA.SET] [CONF.SYNC.SESSION]".into(),
        s,
    ));
    let mut s = base();
    s.map.multipliers = vec![(255, 2.0)];
    out.push((
        "seed 19, 4 frames; the map's multiplier (255, 2.0): area 255 is the wall, so the session is failed with area_out_of_range [GRID.AREA.SET] [CONF.SYNC.SESSION]".into(),
        s,
    ));
    let mut s = base();
    s.map.width = 0;
    s.map.cells = String::new();
    out.push((
        "seed 19, 4 frames; a map of width 0 (no cells): Grid::new refuses it, so the session is failed with invalid_size [GRID.SQUARE.SIZE] [CONF.SYNC.SESSION]".into(),
        s,
    ));
    let mut s = base();
    if let Some(e) = s.graph.edges.get_mut(3) {
        e.2 = -1.5;
    }
    out.push((
        "seed 19, 4 frames; edge 3 of the graph has weight -1.5: add_edge refuses it, so the session is failed with that class [GRAPH.VAL.EDGE] [CONF.SYNC.SESSION]".into(),
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
