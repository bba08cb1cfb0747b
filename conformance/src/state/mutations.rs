//! The systematic mutation list of [CONF.STATE.MUTATIONS]: from a golden vector's bytes and
//! layout, the fixed, seeded list of edits whose restore the reference must reject; the hostile
//! cases of `vectors/state/hostile/` are the mutations it rejects.

use super::layout::{walk, Field, Layout, Role, Ty};
use super::recipes::Splice;
use super::StateKind;
use crate::outcome::sha256_hex;
use crate::prng::SplitMix64;

/// A mutation before it is run: what it is and its splices.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutation {
    /// For people.
    pub what: String,
    /// Splices.
    pub edits: Vec<Splice>,
}

pub(super) fn set(at: usize, bytes: &[u8]) -> Splice {
    (at, bytes.len(), bytes.to_vec())
}
pub(super) fn set_i32(at: usize, v: i32) -> Splice {
    set(at, &v.to_le_bytes())
}
pub(super) fn set_f64(at: usize, v: f64) -> Splice {
    set(at, &v.to_bits().to_le_bytes())
}
pub(super) fn read_i32(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().expect("i32"))
}

/// Deterministic subset: every item when there are at most `cap`, else the first `cap / 2`,
/// the last and an evenly spaced sample.
fn sample<T: Clone>(items: &[T], cap: usize) -> Vec<T> {
    if items.len() <= cap {
        return items.to_vec();
    }
    let mut idx: Vec<usize> = (0..cap / 2).collect();
    let rest = cap - cap / 2;
    for k in 0..rest {
        idx.push(cap / 2 + (items.len() - 1 - cap / 2) * (k + 1) / rest);
    }
    idx.dedup();
    idx.into_iter().map(|i| items[i].clone()).collect()
}

/// The systematic mutation list of a golden vector ([CONF.STATE.MUTATIONS]), in a fixed order:
/// truncations, header fields, trailing bytes, per-field values, structural search faults.
pub fn mutations(id: &str, kind: StateKind, golden: &[u8]) -> Vec<Mutation> {
    let l = walk(kind, golden);
    let len = golden.len();
    let mut out: Vec<Mutation> = Vec::new();
    let mut m = |what: String, edits: Vec<Splice>| out.push(Mutation { what, edits });
    // 1. Truncations: every length below 64, 48 field starts past that (all when fewer), a
    //    seeded sample of 24 lengths elsewhere, and one byte short.
    let mut cuts: Vec<usize> = (0..len.min(64)).collect();
    let starts: Vec<usize> = l
        .fields
        .iter()
        .map(|f| f.offset)
        .filter(|&o| o >= 64 && o < len)
        .collect();
    cuts.extend(sample(&starts, 48));
    let mut r = SplitMix64::new(u64::from_le_bytes(
        sha256_bytes(id.as_bytes())[..8].try_into().expect("8"),
    ));
    if len > 64 {
        for _ in 0..24 {
            cuts.push(64 + r.below((len - 64) as u64) as usize);
        }
    }
    cuts.push(len - 1);
    cuts.sort_unstable();
    cuts.dedup();
    for c in cuts {
        m(
            format!("truncated to {c} bytes"),
            vec![(c, len - c, vec![])],
        );
    }
    // 2. Header fields.
    for (i, &b) in golden.iter().enumerate().take(4) {
        m(format!("magic byte {i} flipped"), vec![set(i, &[b ^ 0xFF])]);
    }
    m("magic \"OPLM\"".into(), vec![set(0, b"OPLM")]);
    for v in [0u16, 2, 0xFFFF] {
        m(format!("version {v}"), vec![set(4, &v.to_le_bytes())]);
    }
    for k in [0u16, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 0xFFFF] {
        if k != kind.code() {
            m(format!("kind {k}"), vec![set(6, &k.to_le_bytes())]);
        }
    }
    // 3. Trailing bytes.
    m("one trailing byte".into(), vec![(len, 0, vec![0])]);
    m("eight trailing bytes".into(), vec![(len, 0, vec![0xFF; 8])]);
    // 4. Field values.
    let n = match kind {
        StateKind::Graph
        | StateKind::GraphAStar
        | StateKind::AStar
        | StateKind::JumpSearch
        | StateKind::ThetaSearch => super::layout::node_count(golden),
        StateKind::GridSearch => read_i32(golden, 9).saturating_mul(read_i32(golden, 13)),
        StateKind::GridReplanner | StateKind::HexReplanner | StateKind::FlowField => {
            read_i32(golden, 8).saturating_mul(read_i32(golden, 12))
        }
        _ => 0,
    };
    let f64s: Vec<&Field> = l.fields.iter().filter(|f| f.ty == Ty::F64).collect();
    for (i, f) in f64s.iter().enumerate() {
        let nan = if i % 2 == 0 {
            0x7FF8_0000_0000_0000u64
        } else {
            0xFFF0_0000_0000_0001
        };
        m(
            format!("{} = NaN {nan:#018x}", f.name),
            vec![set(f.offset, &nan.to_le_bytes())],
        );
    }
    let flags: Vec<&Field> = l.fields.iter().filter(|f| f.ty == Ty::Flag).collect();
    for f in sample(&flags, 40) {
        m(format!("{} = 2", f.name), vec![set(f.offset, &[2])]);
    }
    if let Some(f) = flags.last() {
        m(format!("{} = 255", f.name), vec![set(f.offset, &[255])]);
        let v = golden[f.offset];
        m(
            format!("{} flipped to {}", f.name, 1 - v),
            vec![set(f.offset, &[1 - v])],
        );
    }
    if let Some(f) = flags.first() {
        let v = golden[f.offset];
        m(
            format!("{} flipped to {}", f.name, 1 - v),
            vec![set(f.offset, &[1 - v])],
        );
    }
    let mut index_fields = 0usize;
    for f in &l.fields {
        let cur = if f.ty == Ty::I32 {
            read_i32(golden, f.offset)
        } else {
            0
        };
        let left = len - f.offset - f.ty.width();
        match f.role {
            Role::Shape if f.ty == Ty::I32 => {
                for v in [cur + 1, cur - 1, 0, -1, i32::MAX] {
                    m(format!("{} = {v}", f.name), vec![set_i32(f.offset, v)]);
                }
            }
            Role::Shape => {
                m(
                    format!("{} = {}", f.name, golden[f.offset] ^ 1),
                    vec![set(f.offset, &[golden[f.offset] ^ 1])],
                );
            }
            Role::Counter if f.ty == Ty::I64 => {
                m(
                    format!("{} = -1", f.name),
                    vec![set(f.offset, &(-1i64).to_le_bytes())],
                );
                m(
                    format!("{} = i64::MIN", f.name),
                    vec![set(f.offset, &i64::MIN.to_le_bytes())],
                );
            }
            Role::Counter => {
                m(format!("{} = -1", f.name), vec![set_i32(f.offset, -1)]);
                m(
                    format!("{} = i32::MIN", f.name),
                    vec![set_i32(f.offset, i32::MIN)],
                );
            }
            Role::Count { elem, bound } => {
                let mut vals = vec![
                    (-1i64, "-1".to_string()),
                    (i64::from(i32::MAX), "i32::MAX".to_string()),
                ];
                if let Some(q) = left.checked_div(elem) {
                    vals.push((q as i64 + 1, "bytes left / item size + 1".into()));
                }
                if let Some(b) = bound {
                    vals.push((b + 1, "the object's bound + 1".into()));
                }
                vals.push((i64::from(cur) + 1, "one more".into()));
                if cur > 0 {
                    vals.push((i64::from(cur) - 1, "one fewer".into()));
                }
                for (v, why) in vals {
                    if let Ok(v) = i32::try_from(v) {
                        if v != cur {
                            m(
                                format!("{} = {v} ({why})", f.name),
                                vec![set_i32(f.offset, v)],
                            );
                        }
                    }
                }
            }
            Role::Index | Role::Parent if index_fields < 24 => {
                index_fields += 1;
                let mut vals = vec![n, -2, i32::MAX];
                if f.role == Role::Index && cur != -1 {
                    vals.push(-1);
                }
                for v in vals {
                    if v != cur {
                        m(format!("{} = {v}", f.name), vec![set_i32(f.offset, v)]);
                    }
                }
            }
            _ => {}
        }
    }
    // Out-of-range reals.
    for f in &l.fields {
        let bad: &[f64] = match f.name.as_str() {
            "origin_x" | "origin_y" | "origin_z" => &[4_194_304.0, f64::INFINITY],
            "cell_size" => &[-1.0, 0.0, 4_194_304.0],
            "areas[0]" | "areas[254]" => &[0.0, -1.0, f64::INFINITY, -0.0],
            "heuristic_weight" => &[2.0, -1.0],
            "path_cost" => &[5.0, -1.0, f64::INFINITY, 0.0],
            name if name.starts_with("edges[") && name.ends_with(".weight") => {
                &[-1.0, -0.0, f64::INFINITY]
            }
            name if name.starts_with("visited[") && name.ends_with(".g") => &[-1.0, f64::INFINITY],
            _ => &[],
        };
        if f.ty != Ty::F64 {
            continue;
        }
        let cur = f64::from_bits(u64::from_le_bytes(
            golden[f.offset..f.offset + 8].try_into().expect("8"),
        ));
        for &v in bad.iter().take(
            if f.name.starts_with("edges[") || f.name.starts_with("visited[") {
                2
            } else {
                4
            },
        ) {
            if v.to_bits() != cur.to_bits() {
                m(format!("{} = {v:?}", f.name), vec![set_f64(f.offset, v)]);
            }
        }
    }
    if let Some(s) = &l.search {
        search_mutations(&l, s, golden, &mut m);
    }
    if let Some(h) = &l.handle {
        handle_mutations(h, n, golden, &mut m);
    }
    if kind == StateKind::GridSearch && golden[8] == 2 {
        // Mode 2 header cells that disagree with the embedded state: start and goal both.
        let (sx, gx) = (read_i32(golden, 17), read_i32(golden, 25));
        let w = read_i32(golden, 9);
        let (sx2, gx2) = ((sx + 1) % w, (gx + 1) % w);
        m(
            format!("start_x = {sx2} and goal_x = {gx2} (both differ from the embedded state)"),
            vec![set_i32(17, sx2), set_i32(25, gx2)],
        );
        m(format!("goal_x = {gx2}"), vec![set_i32(25, gx2)]);
    }
    if kind == StateKind::GridSearch {
        for v in [0u8, 1, 2, 3, 4, 255] {
            if v != golden[8] {
                m(format!("mode = {v}"), vec![set(8, &[v])]);
            }
        }
    }
    // Families appended after every family above (so each existing `-HNNNN` keeps its meaning).
    appended_mutations(kind, &l, golden, &mut m);
    if kind.is_replanner() {
        super::replan_mutations::replanner_mutations(&l, golden, &mut m);
    }
    if kind == StateKind::FlowField {
        super::flow_mutations::flow_field_mutations(&l, golden, &mut m);
    }
    super::counter_mutations::counter_mutations(kind, &l, golden, &mut m);
    out
}

/// The families appended to [CONF.STATE.MUTATIONS] after the first list, in this order:
/// - the start made its own parent: [STATE.SEARCH.CHECKS] pass 2 reports `bad_parent` at the
///   start's entry, before the parent-cycle pass could report `parent_cycle` there (a parent of
///   the start with a larger g fails pass 3 at the same entry, so only a parent of equal g, the
///   start itself, tells the start rule apart);
/// - the header of the state embedded in a mode-2 handle ([GS.STATE.MODE2], [STATE.HEADER] at
///   absolute offsets): each magic byte flipped, versions 0, 2, 65535, and kinds 0, 10, 11, 12,
///   65535 and the other of 8 and 9.
/// - for grids (kinds 1, 2, 3), the cell limit of `from_state` at and past its edge
///   ([STATE.GRID], [STATE.VOXEL], [GRID.SQUARE.SIZE], [GRID.VOXEL.SIZE]): sizes whose product is
///   exactly `2^26` (the size check passes; the cells are missing, so `truncated`) and sizes whose
///   product is past `2^26` but not past `2^27` (`out_of_range` at the height or `size_z`), so a
///   limit off by one or by a factor of two reads differently;
/// - for grids (kinds 1, 2, 3), truncation at the start of the last area multiplier
///   (`areas[254]`) and 4 bytes into it ([STATE.AREAS], [STATE.ORDER]: `truncated` at the input
///   length after 254 multipliers read), which the 48 sampled field starts of the first
///   family need not hit.
fn appended_mutations(
    kind: StateKind,
    l: &Layout,
    golden: &[u8],
    m: &mut impl FnMut(String, Vec<Splice>),
) {
    if let Some(s) = &l.search {
        if let Some(e) = s.visited.iter().find(|e| e.node == s.start) {
            if e.parent != e.node {
                m(
                    format!("the start {} made its own parent (bad parent)", e.node),
                    vec![set_i32(e.at + 13, e.node)],
                );
            }
        }
    }
    if kind == StateKind::GridSearch && golden[8] == 2 {
        let at = |name: &str| {
            l.fields
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.offset)
                .expect("a mode-2 layout names the embedded header")
        };
        let (magic, version, ekind) = (
            at("embedded.magic"),
            at("embedded.version"),
            at("embedded.kind"),
        );
        for i in 0..4 {
            m(
                format!("embedded magic byte {i} flipped"),
                vec![set(magic + i, &[golden[magic + i] ^ 0xFF])],
            );
        }
        for v in [0u16, 2, 0xFFFF] {
            m(
                format!("embedded version {v}"),
                vec![set(version, &v.to_le_bytes())],
            );
        }
        let cur = u16::from_le_bytes([golden[ekind], golden[ekind + 1]]);
        let other = if cur == 8 { 9 } else { 8 };
        for k in [0u16, other, 10, 11, 12, 0xFFFF] {
            m(
                format!("embedded kind {k}"),
                vec![set(ekind, &k.to_le_bytes())],
            );
        }
    }
    let sizes: &[(&str, [i32; 3])] = match kind {
        StateKind::Grid | StateKind::HexGrid => &[
            ("8192 x 8192 (2^26 cells, at the limit)", [8192, 8192, 0]),
            ("8192 x 8193 (past 2^26 cells)", [8192, 8193, 0]),
            ("8192 x 16384 (2^27 cells)", [8192, 16384, 0]),
        ],
        StateKind::VoxelGrid => &[
            (
                "512 x 512 x 256 (2^26 cells, at the limit)",
                [512, 512, 256],
            ),
            ("512 x 512 x 257 (past 2^26 cells)", [512, 512, 257]),
            ("512 x 512 x 512 (2^27 cells)", [512, 512, 512]),
        ],
        _ => &[],
    };
    let axes = if kind == StateKind::VoxelGrid { 3 } else { 2 };
    for (what, v) in sizes {
        m(
            format!("sizes {what}"),
            (0..axes).map(|i| set_i32(8 + 4 * i, v[i])).collect(),
        );
    }
    if matches!(
        kind,
        StateKind::Grid | StateKind::HexGrid | StateKind::VoxelGrid
    ) {
        if let Some(f) = l.fields.iter().find(|f| f.name == "areas[254]") {
            let len = golden.len();
            for (what, c) in [
                ("at the start of areas[254]", f.offset),
                ("4 bytes into areas[254]", f.offset + 4),
            ] {
                m(
                    format!("truncated to {c} bytes ({what}, the last multiplier)"),
                    vec![(c, len - c, vec![])],
                );
            }
        }
    }
}

/// Structural faults of a kind-12 mode-1 or mode-3 state ([GS.STATE.MODE1.CHECKS],
/// [GS.STATE.MODE3.CHECKS]).
fn handle_mutations(
    h: &super::layout::HandleLayout,
    n: i32,
    golden: &[u8],
    m: &mut impl FnMut(String, Vec<Splice>),
) {
    for v in [0u8, 1, 2, 3, 4] {
        if v != h.status {
            m(format!("status = {v}"), vec![set(h.status_at, &[v])]);
        }
    }
    m(
        "zero_estimate flipped".into(),
        vec![set(h.status_at + 1, &[golden[h.status_at + 1] ^ 1])],
    );
    if h.mode == 3 {
        m(
            "finder flipped".into(),
            vec![set(h.status_at - 1, &[golden[h.status_at - 1] ^ 1])],
        );
    }
    let flags_at = |c: &super::layout::HandleCell| c.at + if h.mode == 3 { 16 } else { 12 };
    let pick: Vec<usize> = {
        let k = h.cells.len();
        let mut v: Vec<usize> = [0, 1, k / 3, k / 2, k.saturating_sub(2), k.saturating_sub(1)]
            .into_iter()
            .filter(|&i| i < k)
            .collect();
        v.dedup();
        v
    };
    for &i in &pick {
        let c = &h.cells[i];
        let f = flags_at(c);
        m(
            format!("visited[{i}] closed flag flipped"),
            vec![set(f, &[c.flags ^ 1])],
        );
        m(
            format!("visited[{i}] direction + 1"),
            vec![set(f, &[(c.flags & 1) | (((c.flags >> 1) + 1) & 7) << 1])],
        );
        m(
            format!("visited[{i}] flags bit 4 set"),
            vec![set(f, &[c.flags | 0x10])],
        );
        m(
            format!("visited[{i}].a + 1"),
            vec![set_i32(c.at + 4, c.a + 1)],
        );
        m(
            format!("visited[{i}].b + 1"),
            vec![set_i32(c.at + 8, c.b + 1)],
        );
        m(format!("visited[{i}].a = -1"), vec![set_i32(c.at + 4, -1)]);
        if h.mode == 3 {
            let other = h.cells[(i + 1) % h.cells.len()].cell;
            m(
                format!("visited[{i}].parent = cell {other}"),
                vec![set_i32(c.at + 12, other)],
            );
            m(
                format!("visited[{i}].parent = -1"),
                vec![set_i32(c.at + 12, -1)],
            );
        }
        if i + 1 < h.cells.len() {
            let next = h.cells[i + 1].cell;
            m(
                format!(
                    "visited[{i}].cell = visited[{}].cell (not increasing)",
                    i + 1
                ),
                vec![set_i32(c.at, next)],
            );
        }
        if c.cell + 1 < n && !h.cells.iter().any(|o| o.cell == c.cell + 1) {
            m(
                format!("visited[{i}].cell moved to {}", c.cell + 1),
                vec![set_i32(c.at, c.cell + 1)],
            );
        }
    }
    m("path_a = 0".into(), vec![set_i32(h.path_a_at, 0)]);
    m("path_b = 5".into(), vec![set_i32(h.path_a_at + 4, 5)]);
    m(
        "iterations + 1".into(),
        vec![set_i32(
            h.iterations_at,
            read_i32(golden, h.iterations_at).wrapping_add(1),
        )],
    );
    if h.mode == 3 {
        m(
            "level = NaN (0x7ff8...)".into(),
            vec![set(h.level_at, &0x7FF8_0000_0000_0000u64.to_le_bytes())],
        );
        m(
            "level = NaN (0x7ff0...01)".into(),
            vec![set(h.level_at, &0x7FF0_0000_0000_0001u64.to_le_bytes())],
        );
        m(
            "level = +inf".into(),
            vec![set_f64(h.level_at, f64::INFINITY)],
        );
        m("level = 1.5".into(), vec![set_f64(h.level_at, 1.5)]);
        if h.heap.len() >= 2 {
            let (a, b) = (&h.heap[0], &h.heap[1]);
            m(
                "heap slots 0 and 1 swapped".into(),
                vec![
                    set(a.0, &golden[b.0..b.0 + 16]),
                    set(b.0, &golden[a.0..a.0 + 16]),
                ],
            );
        }
        if let Some(last) = h.heap.last() {
            m("last heap F = -1".into(), vec![set_f64(last.0, -1.0)]);
            m(
                "last heap F = +inf".into(),
                vec![set_f64(last.0, f64::INFINITY)],
            );
            m(
                format!("last heap cell = {n}"),
                vec![set_i32(last.0 + 8, n)],
            );
            let unvisited = (0..n).find(|v| !h.cells.iter().any(|c| c.cell == *v));
            if let Some(v) = unvisited {
                m(
                    format!("last heap cell = unvisited {v}"),
                    vec![set_i32(last.0 + 8, v)],
                );
            }
            m(
                "last heap slot removed (count lowered)".into(),
                vec![
                    (last.0, 16, vec![]),
                    set_i32(h.heap_count_at, h.heap.len() as i32 - 1),
                ],
            );
        }
        if let Some(&(at, _)) = h.stack.first() {
            m("stack[0] = -1".into(), vec![set_i32(at, -1)]);
        }
        if !h.heap.is_empty() || !h.stack.is_empty() {
            let cut = h.heap_count_at;
            let end = h.stack_count_at + 4 + 4 * h.stack.len();
            let mut empty = 0i32.to_le_bytes().to_vec();
            empty.extend_from_slice(&0i32.to_le_bytes());
            m("open list emptied".into(), vec![(cut, end - cut, empty)]);
        }
    }
}

fn search_mutations(
    l: &Layout,
    s: &super::layout::SearchLayout,
    golden: &[u8],
    m: &mut impl FnMut(String, Vec<Splice>),
) {
    let status_at = s.status_at;
    for v in [0u8, 1, 2, 3, 4, 255] {
        if v != s.status {
            m(format!("status = {v}"), vec![set(status_at, &[v])]);
        }
    }
    let _ = l;
    let find = |node: i32| s.visited.iter().position(|e| e.node == node);
    let closed_plain: Vec<usize> = (0..s.visited.len())
        .filter(|&i| {
            s.visited[i].closed && s.visited[i].node != s.start && s.visited[i].node != s.goal
        })
        .collect();
    // Visited order.
    if s.visited.len() >= 2 {
        let (a, b) = (&s.visited[0], &s.visited[1]);
        m(
            "visited[0] and visited[1] node ids swapped (not increasing)".into(),
            vec![set_i32(a.at, b.node), set_i32(b.at, a.node)],
        );
        m(
            "visited[1].node = visited[0].node (not increasing)".into(),
            vec![set_i32(b.at, a.node)],
        );
    }
    if s.heap.len() >= 2 {
        let (h0, h1) = (&s.heap[0], &s.heap[1]);
        m(
            "heap[1].node = heap[0].node (duplicated heap node)".into(),
            vec![set_i32(h1.at, h0.node)],
        );
        m(
            "heap slots 0 and 1 swapped (heap order broken)".into(),
            vec![
                set(h0.at, &golden[h1.at..h1.at + 20]),
                set(h1.at, &golden[h0.at..h0.at + 20]),
            ],
        );
        let last = &s.heap[s.heap.len() - 1];
        let slot = s.heap.len() - 1;
        let parent = &s.heap[(slot - 1) / 2];
        m(
            format!(
                "heap[{slot}].f = heap[{}].f - 1 (precedes its parent)",
                (slot - 1) / 2
            ),
            vec![set_f64(last.at + 4, parent.f - 1.0)],
        );
    }
    if let Some(last) = s.heap.last() {
        m(
            format!(
                "last heap slot (node {}) removed and the heap count lowered (missing open node)",
                last.node
            ),
            vec![
                (last.at, 20, vec![]),
                set_i32(s.heap_count_at, s.heap.len() as i32 - 1),
            ],
        );
        m(
            format!("heap node {} given g + 1 (heap g differs)", last.node),
            vec![set_f64(last.at + 12, last.g + 1.0)],
        );
    }
    if let (Some(h), Some(&c)) = (s.heap.first(), closed_plain.first()) {
        m(
            format!(
                "heap[0].node = closed node {} (bad heap node)",
                s.visited[c].node
            ),
            vec![set_i32(h.at, s.visited[c].node)],
        );
    }
    if let Some((at, _)) = s.recorded.first() {
        if let Some(h) = s.heap.first() {
            m(
                format!("recorded[0] = open node {} (bad heap node)", h.node),
                vec![set_i32(*at, h.node)],
            );
        }
    }
    // Parent faults.
    if closed_plain.len() >= 2 {
        let (i, j) = (closed_plain[0], closed_plain[closed_plain.len() - 1]);
        let (a, b) = (&s.visited[i], &s.visited[j]);
        let g = a.g.min(b.g);
        m(
            format!(
                "nodes {} and {} made each other's parent with equal g {g:?} (parent cycle)",
                a.node, b.node
            ),
            vec![
                set_f64(a.at + 5, g),
                set_i32(a.at + 13, b.node),
                set_f64(b.at + 5, g),
                set_i32(b.at + 13, a.node),
            ],
        );
        if a.parent >= 0 {
            m(
                format!("node {} made its own parent (parent cycle)", a.node),
                vec![set_i32(a.at + 13, a.node)],
            );
        }
    }
    // A parent that costs more: a node whose g is below another visited node's.
    if let Some(&i) = closed_plain
        .iter()
        .find(|&&i| s.visited.iter().any(|e| e.g > s.visited[i].g))
    {
        let e = &s.visited[i];
        let k = s.visited.iter().position(|o| o.g > e.g).expect("exists");
        m(
            format!(
                "node {}'s parent set to node {} whose g is larger (parent costs more)",
                e.node, s.visited[k].node
            ),
            vec![set_i32(e.at + 13, s.visited[k].node)],
        );
    }
    if let Some(i) = find(s.start) {
        let e = &s.visited[i];
        if let Some(other) = s.visited.iter().find(|o| o.node != s.start) {
            m(
                format!(
                    "the start {} given parent {} (bad parent)",
                    e.node, other.node
                ),
                vec![set_i32(e.at + 13, other.node)],
            );
        }
        m(
            format!("the start {} given g 1 (bad parent)", e.node),
            vec![set_f64(e.at + 5, 1.0)],
        );
    }
    if let Some(&i) = closed_plain.first() {
        let e = &s.visited[i];
        m(
            format!("node {} given no parent (bad parent)", e.node),
            vec![set_i32(e.at + 13, -1)],
        );
        let absent = (0..s.n).find(|v| find(*v).is_none());
        if let Some(v) = absent {
            m(
                format!(
                    "node {}'s parent set to unvisited node {v} (bad parent)",
                    e.node
                ),
                vec![set_i32(e.at + 13, v)],
            );
        }
    }
    if s.status == 2 {
        let cost = f64::from_bits(u64::from_le_bytes(
            golden[s.cost_at..s.cost_at + 8].try_into().expect("8"),
        ));
        m(
            "Found path cost + 1 (goal g differs)".into(),
            vec![set_f64(s.cost_at, cost + 1.0)],
        );
        if let Some(i) = find(s.goal) {
            m(
                "the Found goal marked open".into(),
                vec![set(s.visited[i].at + 4, &[0])],
            );
        }
    }
}

fn sha256_bytes(b: &[u8]) -> Vec<u8> {
    hex::decode(sha256_hex(b)).expect("hex")
}
