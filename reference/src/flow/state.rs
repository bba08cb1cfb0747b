//! [FLOW.STATE.HEADER] [FLOW.STATE.SEARCH] [FLOW.STATE.HEADER_CHECKS] [FLOW.STATE.SEARCH_CHECKS]
//! Kind 7 (`GridFlowField`, `HexFlowField`): save, validate in byte order, then install
//! (spec/flow-fields.md §6).

use super::engine::{Engine, GridFacts};
use super::FlowStatus;
use crate::open_set::{precedes, Entry};
use crate::state::{fault, read_header, Fault, Reader, Writer};

/// [STATE.KINDS] Kind 7.
pub(crate) const KIND_FLOW_FIELD: u16 = 7;

/// [FLOW.RUN.SETTLED] A u64 counter as i32, saturating.
fn narrow(v: u64) -> i32 {
    i32::try_from(v).unwrap_or(i32::MAX)
}

/// [FLOW.STATE.SAVE] The bytes of `e`'s current state.
pub(crate) fn save(e: &Engine) -> Vec<u8> {
    let mut w = Writer::with_header(KIND_FLOW_FIELD);
    // [FLOW.STATE.HEADER]
    w.i32(e.width as i32);
    w.i32(e.height as i32);
    w.i32(e.area_version);
    w.i32(e.creation_goals.len() as i32);
    for &g in &e.creation_goals {
        w.i32(g as i32);
    }
    {
        let shared = e.shared();
        w.i32(shared.pending.len() as i32);
        for &p in &shared.pending {
            w.i32(p as i32);
        }
    }
    // [FLOW.STATE.SEARCH]
    w.i32(e.cells() as i32);
    w.u8(e.status as u8);
    w.i32(narrow(e.settled));
    w.u8(u8::from(e.repairing));
    w.i32(e.goal_set.len() as i32);
    for &g in &e.goal_set {
        w.i32(g as i32);
    }
    let reached: Vec<usize> = (0..e.cells())
        .filter(|&c| e.cost[c] < f64::INFINITY)
        .collect();
    w.i32(reached.len() as i32);
    for &c in &reached {
        w.i32(c as i32);
        w.f64(e.cost[c]);
    }
    let stepped: Vec<(usize, u32)> = (0..e.cells())
        .filter_map(|c| e.step[c].map(|n| (c, n)))
        .collect();
    w.i32(stepped.len() as i32);
    for (c, n) in stepped {
        w.i32(c as i32);
        w.i32(n as i32);
    }
    let heap = e.open.entries();
    w.i32(heap.len() as i32);
    for s in heap {
        w.i32(s.node as i32);
        w.f64(s.f);
        w.f64(s.g);
    }
    if e.repairing {
        w.i32(e.touched.len() as i32);
        for &t in &e.touched {
            w.i32(t as i32);
        }
    }
    w.out
}

/// A validated state, not yet installed.
pub(crate) struct Parsed {
    area_version: i32,
    pending: Vec<u32>,
    status: FlowStatus,
    settled: u64,
    repairing: bool,
    reached: Vec<(u32, f64)>,
    steps: Vec<(u32, u32)>,
    heap: Vec<Entry>,
    touched: Vec<u32>,
}

/// Reads an `i32` that must equal `expect` (`class` otherwise).
fn i32_eq(r: &mut Reader<'_>, what: &str, expect: i64, class: &'static str) -> Result<i32, Fault> {
    let at = r.pos();
    let v = r.i32()?;
    if i64::from(v) != expect {
        return fault(
            class,
            at,
            format!("{class} at byte {at}: {what} = {v}, expected {expect}"),
        );
    }
    Ok(v)
}

/// Reads a count `>= 0`, `<= max` and `<= bytes left / per` (`count_out_of_range`).
fn count(r: &mut Reader<'_>, what: &str, max: usize, per: usize) -> Result<usize, Fault> {
    let at = r.pos();
    let v = r.i32()?;
    let left = r.remaining() / per;
    if v < 0 || v as usize > max || v as usize > left {
        return fault(
            "count_out_of_range",
            at,
            format!("count_out_of_range at byte {at}: {what} = {v} (at most {max}, and {left} fit in the bytes left)"),
        );
    }
    Ok(v as usize)
}

/// Reads a cell index `>= 0` and `< cells` (`index_out_of_range`); returns it and its offset.
fn cell(r: &mut Reader<'_>, what: &str, cells: usize) -> Result<(u32, usize), Fault> {
    let at = r.pos();
    let v = r.i32()?;
    if v < 0 || v as usize >= cells {
        return fault(
            "index_out_of_range",
            at,
            format!("index_out_of_range at byte {at}: {what} {v} is outside 0..{cells}"),
        );
    }
    Ok((v as u32, at))
}

/// Fails with `class` at `at` unless `ok`.
fn require(ok: bool, class: &'static str, at: usize, detail: String) -> Result<(), Fault> {
    if ok {
        Ok(())
    } else {
        fault(class, at, format!("{class} at byte {at}: {detail}"))
    }
}

/// [FLOW.STATE.HEADER_CHECKS] [FLOW.STATE.SEARCH_CHECKS] Reads and validates every field in byte
/// order; nothing of `e` changes.
pub(crate) fn read(e: &Engine, size: (usize, usize), bytes: &[u8]) -> Result<Parsed, Fault> {
    let mut r = Reader::new(bytes);
    read_header(&mut r, KIND_FLOW_FIELD)?;
    let n = e.cells();
    // [FLOW.STATE.HEADER_CHECKS]
    i32_eq(&mut r, "width", size.0 as i64, "size_mismatch")?;
    i32_eq(&mut r, "height", size.1 as i64, "size_mismatch")?;
    let at = r.pos();
    let area_version = r.i32()?;
    require(
        area_version >= 0,
        "out_of_range",
        at,
        format!("area version {area_version} is negative"),
    )?;
    i32_eq(
        &mut r,
        "goal count",
        e.creation_goals.len() as i64,
        "goal_mismatch",
    )?;
    for (i, &g) in e.creation_goals.iter().enumerate() {
        i32_eq(
            &mut r,
            &format!("creation goal {i}"),
            i64::from(g),
            "goal_mismatch",
        )?;
    }
    let pc = count(&mut r, "pending count", n, 4)?;
    let mut is_pending = vec![false; n];
    let mut pending = Vec::with_capacity(pc);
    for _ in 0..pc {
        let (c, at) = cell(&mut r, "pending cell", n)?;
        require(
            !is_pending[c as usize],
            "duplicate_node",
            at,
            format!("pending cell {c} is listed twice"),
        )?;
        is_pending[c as usize] = true;
        pending.push(c);
    }
    // [FLOW.STATE.SEARCH_CHECKS]
    i32_eq(&mut r, "node count", n as i64, "size_mismatch")?;
    let at = r.pos();
    let status = match r.u8()? {
        0 => FlowStatus::NotStarted,
        1 => FlowStatus::Running,
        2 => FlowStatus::Complete,
        v => {
            return fault(
                "out_of_range",
                at,
                format!("out_of_range at byte {at}: status {v} is not 0..=2"),
            )
        }
    };
    let at = r.pos();
    let settled = r.i32()?;
    require(
        settled >= 0 && (status != FlowStatus::NotStarted || settled == 0),
        "out_of_range",
        at,
        format!("settled {settled} (0 when not started, never negative)"),
    )?;
    let at = r.pos();
    let repairing = r.flag("repairing")?;
    require(
        !repairing || status == FlowStatus::Running,
        "out_of_range",
        at,
        "repairing is set but the status is not Running".to_string(),
    )?;
    i32_eq(
        &mut r,
        "goal set count",
        e.goal_set.len() as i64,
        "goal_mismatch",
    )?;
    let mut prev: Option<u32> = None;
    for (i, &own) in e.goal_set.iter().enumerate() {
        let (g, at) = cell(&mut r, "goal set cell", n)?;
        require(
            prev.is_none_or(|p| g > p),
            "not_increasing",
            at,
            format!("goal set cell {g} does not increase"),
        )?;
        require(
            g == own,
            "goal_mismatch",
            at,
            format!("goal set cell {i} is {g}, the field's is {own}"),
        )?;
        prev = Some(g);
    }
    let started_max = if status == FlowStatus::NotStarted {
        0
    } else {
        n
    };
    let rc = count(&mut r, "reached count", started_max, 12)?;
    let mut cost = vec![f64::INFINITY; n];
    let mut reached = Vec::with_capacity(rc);
    let mut prev: Option<u32> = None;
    for _ in 0..rc {
        let (c, at) = cell(&mut r, "reached cell", n)?;
        require(
            prev.is_none_or(|p| c > p),
            "not_increasing",
            at,
            format!("reached cell {c} does not increase"),
        )?;
        prev = Some(c);
        let at = r.pos();
        let v = r.f64("cost")?;
        require(
            v.is_finite() && v >= 0.0,
            "out_of_range",
            at,
            format!("cost {v:?} of cell {c} is not finite and >= 0"),
        )?;
        cost[c as usize] = v;
        reached.push((c, v));
    }
    let sc = count(&mut r, "step count", rc, 8)?;
    let mut steps = Vec::with_capacity(sc);
    let mut prev: Option<u32> = None;
    for _ in 0..sc {
        let (c, at) = cell(&mut r, "step cell", n)?;
        require(
            prev.is_none_or(|p| c > p),
            "not_increasing",
            at,
            format!("step cell {c} does not increase"),
        )?;
        prev = Some(c);
        require(
            cost[c as usize] < f64::INFINITY,
            "bad_parent",
            at,
            format!("cell {c} has a step but no cost"),
        )?;
        let (next, at) = cell(&mut r, "next cell", n)?;
        require(
            cost[next as usize] <= cost[c as usize],
            "bad_parent",
            at,
            format!("the step of cell {c} leads to {next}, which is unreached or costs more"),
        )?;
        steps.push((c, next));
    }
    let open_max = if status == FlowStatus::Running { rc } else { 0 };
    let hc = count(&mut r, "open count", open_max, 20)?;
    let mut in_heap = vec![false; n];
    let mut heap = Vec::with_capacity(hc);
    let mut heap_at = Vec::with_capacity(hc);
    for _ in 0..hc {
        let at = r.pos();
        let v = r.i32()?;
        require(
            v >= 0 && (v as usize) < n && cost[v as usize] < f64::INFINITY,
            "bad_heap_node",
            at,
            format!("open node {v} is not a reached cell"),
        )?;
        let node = v as u32;
        require(
            !in_heap[node as usize],
            "duplicate_node",
            at,
            format!("open node {node} is listed twice"),
        )?;
        in_heap[node as usize] = true;
        let f = r.f64("open f")?;
        let g = r.f64("open g")?;
        heap.push(Entry { f, g, node });
        heap_at.push(at);
    }
    // [STATE.HEAP.VALID]
    for i in 1..heap.len() {
        let parent = (i - 1) / 2;
        require(
            !precedes(&heap[i], &heap[parent]),
            "heap_order",
            heap_at[i],
            format!("open slot {i} precedes its parent"),
        )?;
    }
    let mut touched = Vec::new();
    if repairing {
        let tc = count(&mut r, "touched count", n, 4)?;
        let mut is_touched = vec![false; n];
        for _ in 0..tc {
            let (c, at) = cell(&mut r, "touched cell", n)?;
            require(
                !is_touched[c as usize],
                "duplicate_node",
                at,
                format!("touched cell {c} is listed twice"),
            )?;
            is_touched[c as usize] = true;
            touched.push(c);
        }
    }
    r.finish()?;
    Ok(Parsed {
        area_version,
        pending,
        status,
        settled: settled as u64,
        repairing,
        reached,
        steps,
        heap,
        touched,
    })
}

/// [FLOW.STATE.RESTORE] Installs a validated state.
pub(crate) fn install(e: &mut Engine, p: Parsed, facts: &GridFacts) {
    e.reset(facts);
    for (c, v) in p.reached {
        e.cost[c as usize] = v;
    }
    for (c, next) in p.steps {
        e.step[c as usize] = Some(next);
    }
    e.open.install(p.heap);
    e.set_touched(p.touched);
    {
        let mut shared = e.shared();
        for c in p.pending {
            shared.is_pending[c as usize] = true;
            shared.pending.push(c);
        }
    }
    e.status = p.status;
    e.settled = p.settled;
    e.repairing = p.repairing;
    e.area_version = p.area_version;
    e.seen_restore = facts.restore_count;
    e.usable = true;
    e.update_listening();
}
