//! [REPLAN.STATE.HEADER] [REPLAN.STATE.SEARCH] [REPLAN.STATE.CHECKS] Kinds 5 (`GridReplanner`) and
//! 6 (`HexReplanner`): save, validate completely, then install (spec/replanning.md §7).

use super::engine::{pending_limit, Engine, GridFacts};
use super::queue::{precedes, Entry, Key};
use super::ReplanMode;
use crate::state::{fault, read_header, Fault, Reader, Writer};

/// [STATE.KINDS] Kind 5.
pub(crate) const KIND_GRID_REPLANNER: u16 = 5;
/// [STATE.KINDS] Kind 6.
pub(crate) const KIND_HEX_REPLANNER: u16 = 6;

/// [REPLAN.RUN.COUNTERS] A u64 counter as i64, saturating.
fn wide(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// [REPLAN.STATE.SAVE] The bytes of `e`'s current state.
pub(crate) fn save(e: &Engine, kind: u16) -> Vec<u8> {
    let mut w = Writer::with_header(kind);
    // [REPLAN.STATE.HEADER]
    w.i32(e.width as i32);
    w.i32(e.height as i32);
    w.u8(e.algorithm as u8);
    w.i32(e.area_version);
    w.i32(e.start as i32);
    w.i32(e.goal as i32);
    // [REPLAN.STATE.SEARCH]
    w.i32(e.cells() as i32);
    w.u8(e.mode as u8);
    w.i32(e.start as i32);
    w.i32(e.goal as i32);
    let pending = e.pending();
    w.u8(u8::from(pending.initialized));
    w.u8(u8::from(e.found));
    w.i64(wide(e.iterations));
    w.i64(wide(e.expanded));
    w.i32(i32::try_from(e.last_expanded).unwrap_or(i32::MAX));
    if pending.initialized {
        w.f64(e.km);
        w.u8(u8::from(pending.overflow));
        w.i32(pending.entries.len() as i32);
        for &p in &pending.entries {
            w.i32(p);
        }
        let planned: Vec<usize> = (0..e.cells())
            .filter(|&v| e.g[v] < f64::INFINITY || e.rhs[v] < f64::INFINITY)
            .collect();
        w.i32(planned.len() as i32);
        for v in planned {
            w.i32(v as i32);
            w.f64(e.g[v]);
            w.f64(e.rhs[v]);
        }
        w.i32(e.queue.slots.len() as i32);
        for s in &e.queue.slots {
            w.i32(s.node as i32);
            w.f64(s.key.k1);
            w.f64(s.key.k2);
        }
    }
    w.out
}

/// A validated state, not yet installed ([REPLAN.STATE.ATOMIC]).
pub(crate) struct Parsed {
    area_version: i32,
    start: u32,
    goal: u32,
    initialized: bool,
    found: bool,
    iterations: u64,
    expanded: u64,
    last_expanded: u64,
    km: f64,
    overflow: bool,
    pending: Vec<i32>,
    planned: Vec<(u32, f64, f64)>,
    queue: Vec<Entry>,
}

/// Reads an `i32` that must lie in `lo..=hi` (`class` otherwise).
fn i32_in(
    r: &mut Reader<'_>,
    what: &str,
    lo: i64,
    hi: i64,
    class: &'static str,
) -> Result<i32, Fault> {
    let at = r.pos();
    let v = r.i32()?;
    if i64::from(v) < lo || i64::from(v) > hi {
        return fault(
            class,
            at,
            format!("{class} at byte {at}: {what} = {v} is outside {lo}..={hi}"),
        );
    }
    Ok(v)
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

/// [REPLAN.STATE.CHECKS] A g or rhs: not NaN, `+inf` or finite `>= 0`.
fn cost(r: &mut Reader<'_>, what: &str) -> Result<f64, Fault> {
    let at = r.pos();
    let v = r.f64(what)?;
    if !(v == f64::INFINITY || (v.is_finite() && v >= 0.0)) {
        return fault(
            "out_of_range",
            at,
            format!("out_of_range at byte {at}: {what} = {v:?} is not +inf or finite >= 0"),
        );
    }
    Ok(v)
}

/// [REPLAN.STATE.CHECKS] Validates `bytes` against the replanner `e` and the grid of size `grid`,
/// in byte order, reporting the first failure.
pub(crate) fn read(
    e: &Engine,
    kind: u16,
    grid: (usize, usize),
    bytes: &[u8],
) -> Result<Parsed, Fault> {
    let mut r = Reader::new(bytes);
    read_header(&mut r, kind)?;
    let cells = e.cells();
    // [REPLAN.STATE.HEADER] [REPLAN.STATE.RESTORE] width, height: the replanner's and the grid's.
    for (what, own, of_grid) in [("width", e.width, grid.0), ("height", e.height, grid.1)] {
        let at = r.pos();
        let v = r.i32()?;
        if i64::from(v) != own as i64 || of_grid != own {
            return fault(
                "size_mismatch",
                at,
                format!("size_mismatch at byte {at}: {what} = {v}; the replanner has {own}, the grid {of_grid}"),
            );
        }
    }
    let at = r.pos();
    let algorithm = r.u8()?;
    if algorithm != e.algorithm as u8 {
        return fault(
            "engine_mismatch",
            at,
            format!(
                "engine_mismatch at byte {at}: algorithm {algorithm}, the replanner runs {}",
                e.algorithm as u8
            ),
        );
    }
    let area_version = i32_in(
        &mut r,
        "area_version",
        0,
        i64::from(i32::MAX),
        "out_of_range",
    )?;
    let last = cells as i64 - 1;
    let start = i32_in(&mut r, "start", 0, last, "index_out_of_range")?;
    let goal = i32_in(&mut r, "goal", 0, last, "index_out_of_range")?;
    // [REPLAN.STATE.SEARCH]
    i32_eq(&mut r, "node_count", cells as i64, "size_mismatch")?;
    let at = r.pos();
    let mode = r.u8()?;
    if mode > 1 {
        return fault(
            "out_of_range",
            at,
            format!("out_of_range at byte {at}: mode {mode} is not 0 or 1"),
        );
    }
    if mode != e.mode as u8 {
        return fault(
            "engine_mismatch",
            at,
            format!(
                "engine_mismatch at byte {at}: mode {mode}, the replanner runs {}",
                e.mode as u8
            ),
        );
    }
    i32_eq(&mut r, "inner start", i64::from(start), "out_of_range")?;
    i32_eq(&mut r, "inner goal", i64::from(goal), "out_of_range")?;
    let initialized = r.flag("initialized")?;
    let at = r.pos();
    let found = r.flag("found")?;
    if found && !initialized {
        return fault(
            "out_of_range",
            at,
            format!("out_of_range at byte {at}: found is set but initialized is not"),
        );
    }
    let at = r.pos();
    let iterations = r.i64()?;
    if iterations < 0 {
        return fault(
            "out_of_range",
            at,
            format!("out_of_range at byte {at}: iterations = {iterations} < 0"),
        );
    }
    let at = r.pos();
    let expanded = r.i64()?;
    if expanded < 0 || expanded > iterations {
        return fault(
            "out_of_range",
            at,
            format!("out_of_range at byte {at}: expanded = {expanded} is outside 0..={iterations}"),
        );
    }
    let last_expanded = i32_in(&mut r, "last_expanded", 0, expanded, "out_of_range")?;
    let mut parsed = Parsed {
        area_version,
        start: start as u32,
        goal: goal as u32,
        initialized,
        found,
        iterations: iterations as u64,
        expanded: expanded as u64,
        last_expanded: last_expanded as u64,
        km: 0.0,
        overflow: false,
        pending: Vec::new(),
        planned: Vec::new(),
        queue: Vec::new(),
    };
    if initialized {
        let at = r.pos();
        let km = r.f64("km")?;
        if !(km.is_finite() && km >= 0.0) {
            return fault(
                "out_of_range",
                at,
                format!("out_of_range at byte {at}: km = {km:?} is not finite >= 0"),
            );
        }
        if e.mode == ReplanMode::Lpa && km != 0.0 {
            return fault(
                "out_of_range",
                at,
                format!("out_of_range at byte {at}: km = {km:?} under LPA*, which keeps 0"),
            );
        }
        parsed.km = km;
        parsed.overflow = r.flag("overflow")?;
        let max = if parsed.overflow {
            0
        } else {
            pending_limit(cells)
        };
        let n = count(&mut r, "pending_count", max, 4)?;
        for _ in 0..n {
            let at = r.pos();
            let p = r.i32()?;
            let cell = if p < 0 { i64::from(!p) } else { i64::from(p) };
            if cell >= cells as i64 {
                return fault(
                    "index_out_of_range",
                    at,
                    format!("index_out_of_range at byte {at}: pending entry {p} names cell {cell}, outside 0..{cells}"),
                );
            }
            parsed.pending.push(p);
        }
        let n = count(&mut r, "planned_count", cells, 20)?;
        let mut planned_set = vec![false; cells];
        let mut previous: Option<i32> = None;
        for _ in 0..n {
            let at = r.pos();
            let v = i32_in(
                &mut r,
                "planned cell",
                0,
                cells as i64 - 1,
                "index_out_of_range",
            )?;
            if previous.is_some_and(|p| v <= p) {
                return fault(
                    "not_increasing",
                    at,
                    format!(
                        "not_increasing at byte {at}: planned cell {v} after {}",
                        previous.unwrap_or(0)
                    ),
                );
            }
            previous = Some(v);
            let g = cost(&mut r, "g")?;
            let at_rhs = r.pos();
            let rhs = cost(&mut r, "rhs")?;
            if g == f64::INFINITY && rhs == f64::INFINITY {
                return fault(
                    "out_of_range",
                    at_rhs,
                    format!(
                        "out_of_range at byte {at_rhs}: planned cell {v} has g and rhs both +inf"
                    ),
                );
            }
            planned_set[v as usize] = true;
            parsed.planned.push((v as u32, g, rhs));
        }
        let n = count(&mut r, "queue count", parsed.planned.len(), 20)?;
        let mut queued = vec![false; cells];
        let mut offsets = Vec::with_capacity(n);
        for _ in 0..n {
            let at = r.pos();
            let node = r.i32()?;
            if node < 0 || node as usize >= cells || !planned_set[node as usize] {
                return fault(
                    "bad_heap_node",
                    at,
                    format!("bad_heap_node at byte {at}: queue node {node} is not a planned cell"),
                );
            }
            if queued[node as usize] {
                return fault(
                    "duplicate_node",
                    at,
                    format!("duplicate_node at byte {at}: queue node {node} listed twice"),
                );
            }
            queued[node as usize] = true;
            let k1 = r.f64("key1")?;
            let k2 = r.f64("key2")?;
            offsets.push(at);
            parsed.queue.push(Entry {
                node: node as u32,
                key: Key { k1, k2 },
            });
        }
        // [STATE.HEAP.VALID] with [REPLAN.KEY.ORDER]
        for i in 1..parsed.queue.len() {
            if precedes(parsed.queue[i], parsed.queue[(i - 1) / 2]) {
                let at = offsets[i];
                return fault(
                    "heap_order",
                    at,
                    format!("heap_order at byte {at}: queue slot {i} precedes its parent"),
                );
            }
        }
    }
    r.finish()?;
    Ok(parsed)
}

/// [REPLAN.STATE.RESTORE] Installs a validated state: listed cells get their values, the rest
/// `+inf`; the scale is read from the grid and its restore count recorded.
pub(crate) fn install(e: &mut Engine, p: Parsed, facts: &GridFacts) {
    for v in 0..e.cells() {
        e.g[v] = f64::INFINITY;
        e.rhs[v] = f64::INFINITY;
    }
    for &(v, g, rhs) in &p.planned {
        e.g[v as usize] = g;
        e.rhs[v as usize] = rhs;
    }
    e.queue.install(p.queue);
    e.area_version = p.area_version;
    e.start = p.start;
    e.goal = p.goal;
    e.found = p.found;
    e.iterations = p.iterations;
    e.expanded = p.expanded;
    e.last_expanded = p.last_expanded;
    e.km = p.km;
    e.recorded.clear();
    e.recorded_kinds.clear();
    e.scale = facts.scale;
    e.seen_restore = facts.restore_count;
    let mut shared = e.pending();
    shared.initialized = p.initialized;
    shared.overflow = p.overflow;
    shared.entries = p.pending;
}
