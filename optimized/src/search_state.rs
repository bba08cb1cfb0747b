//! State kind 11 of `GraphAStar`: [STATE.SEARCH], [STATE.SEARCH.FIELDS], [STATE.SEARCH.WIDE],
//! [STATE.BUFFERS], [STATE.VISITED], [STATE.HEAP], [STATE.HEAP.VALID], [STATE.SEARCH.CHECKS],
//! [STATE.SEARCH.RECORD], [STATE.SEARCH.RESTORE], [STATE.SEARCH_FAILED],
//! [STATE.SEARCH.STRUCTURAL] (well-formed states that could not arise are accepted).
//!
//! Restore reads in place into the search's own buffers (no allocation beyond the heap and the
//! recorded list, both bounded by the bytes left); the cross checks walk the visited entries in
//! the input itself, and the cycle check is an iterative colour walk using the slots' `pos`.

use crate::astar::{Engine, GraphAStar, GraphCost, GraphHeuristic, SearchStatus};
use crate::error::GraphStateError;
use crate::heap::{Buffers, Entry, NOT_IN_HEAP, NO_PARENT};
use crate::wire::{fail, Class, Fault, Put, Reader, KIND_GRAPH_ASTAR};

/// Bytes per visited entry: `i32 node, u8 closed, f64 g, i32 parent`.
const VISITED_BYTES: usize = 17;
/// Bytes per heap slot: `i32 node, f64 f, f64 g`.
const SLOT_BYTES: usize = 20;
/// `pos` of a visited open node not yet seen in the saved heap.
const PENDING: u32 = u32::MAX - 1;
/// `pos` of a node whose cycle walk finished without finding a cycle.
const DONE: u32 = u32::MAX;
/// Offset of the path-cost field.
const PATH_COST_AT: usize = 37;

/// [STATE.SEARCH.WIDE] Counters above `2^31 - 1` are written as `2^31 - 1`.
pub(crate) fn wide(v: u64) -> i32 {
    v.min(i32::MAX as u64) as i32
}

/// A little-endian `u32` of a 4-byte slice.
#[inline(always)]
fn le_u32(c: &[u8]) -> u32 {
    u32::from_le_bytes([c[0], c[1], c[2], c[3]])
}

/// A little-endian `f64` of an 8-byte slice.
#[inline(always)]
fn le_f64(c: &[u8]) -> f64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&c[..8]);
    f64::from_bits(u64::from_le_bytes(b))
}

/// The node id of an already validated visited entry (input offset of its node field).
fn node_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The fixed fields of a search state ([STATE.SEARCH]): `start` is `None` for the kinds that write
/// `-1` there ([GS.STATE.SEARCHES]).
pub(crate) struct SearchFields {
    pub kind: u16,
    pub status: SearchStatus,
    pub weight: f64,
    pub start: Option<u32>,
    pub goal: u32,
    pub expanded: u64,
    pub iterations: u64,
    pub path_cost: f64,
}

/// [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] Appends the bytes of a search over `n`
/// nodes (kinds 8-11) to `out`: the fixed fields, then, unless NotStarted, the buffers. The
/// visited entries come from the buffers' visit set (only what was reached, in increasing node
/// order) and every list is written into space reserved at once.
pub(crate) fn write_search_state<const D: usize>(
    f: &SearchFields,
    n: usize,
    s: &Buffers<D>,
    out: &mut Vec<u8>,
) {
    out.put_header(f.kind);
    out.put_i32(n as i32);
    out.put_u8(f.status as u8);
    out.put_f64(f.weight);
    if f.status == SearchStatus::NotStarted {
        out.put_i32(-1);
        out.put_i32(-1);
        out.put_i32(0);
        out.put_i32(0);
        out.put_f64(f64::INFINITY);
        return;
    }
    out.put_i32(f.start.map_or(-1, |v| v as i32));
    out.put_i32(f.goal as i32);
    out.put_i32(wide(f.expanded));
    out.put_i32(wide(f.iterations));
    out.put_f64(f.path_cost);
    debug_assert!(D == 2, "only the binary-heap buffers keep their visit set");
    let visited = s.visits.count();
    out.put_i32(visited as i32);
    let heap = s.heap();
    let at = out.len();
    out.resize(
        at + VISITED_BYTES * visited + 4 + SLOT_BYTES * heap.len() + 4 + 4 * s.record.len(),
        0,
    );
    let (entries, rest) = out[at..].split_at_mut(VISITED_BYTES * visited);
    let mut chunks = entries.chunks_exact_mut(VISITED_BYTES);
    s.visits.for_each(|v| {
        let slot = &s.slots[v];
        if let Some(c) = chunks.next() {
            c[0..4].copy_from_slice(&(v as u32).to_le_bytes());
            c[4] = (slot.pos == NOT_IN_HEAP) as u8;
            c[5..13].copy_from_slice(&slot.g.to_bits().to_le_bytes());
            c[13..17].copy_from_slice(&slot.parent.to_le_bytes());
        }
    });
    let (count, rest) = rest.split_at_mut(4);
    count.copy_from_slice(&(heap.len() as u32).to_le_bytes());
    let (slots, rest) = rest.split_at_mut(SLOT_BYTES * heap.len());
    for (c, e) in slots.chunks_exact_mut(SLOT_BYTES).zip(heap) {
        c[0..4].copy_from_slice(&e.node.to_le_bytes());
        c[4..12].copy_from_slice(&e.f().to_bits().to_le_bytes());
        c[12..20].copy_from_slice(&s.entry_g(e).to_bits().to_le_bytes());
    }
    let (count, rest) = rest.split_at_mut(4);
    count.copy_from_slice(&(s.record.len() as u32).to_le_bytes());
    for (c, &v) in rest.chunks_exact_mut(4).zip(&s.record) {
        c.copy_from_slice(&v.to_le_bytes());
    }
}

/// The validated visited entries, in increasing node order: `(node, node field offset)`.
#[derive(Clone, Copy)]
pub(crate) struct Visited<'a> {
    bytes: &'a [u8],
    first: usize,
    count: usize,
}

impl<'a> Visited<'a> {
    fn iter(self) -> impl Iterator<Item = (u32, usize)> + 'a {
        (0..self.count).map(move |k| {
            let at = self.first + VISITED_BYTES * k;
            (node_at(self.bytes, at), at)
        })
    }

    /// The offset of node `v`'s entry (binary search: the entries are strictly increasing).
    fn offset_of(self, v: u32) -> Option<usize> {
        let (mut lo, mut hi) = (0, self.count);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let at = self.first + VISITED_BYTES * mid;
            match node_at(self.bytes, at).cmp(&v) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(at),
            }
        }
        None
    }
}

impl<C: GraphCost, H: GraphHeuristic, const D: usize> Engine<'_, C, H, D> {
    /// [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] Appends the state bytes of this
    /// search to `out`.
    fn save(&self, out: &mut Vec<u8>) {
        let fields = SearchFields {
            kind: KIND_GRAPH_ASTAR,
            status: self.status,
            weight: 1.0,
            start: Some(self.start),
            goal: self.goal,
            expanded: self.expanded,
            iterations: self.iterations,
            path_cost: self.path_cost(),
        };
        write_search_state(&fields, self.graph.node_count(), &self.scratch, out)
    }

    /// [STATE.SEARCH_FAILED] The definite state after a failed restore: `NotStarted`, counters
    /// zero, no recorded list.
    fn clear(&mut self) {
        let n = self.graph.node_count();
        self.scratch.reset(n);
        self.status = SearchStatus::NotStarted;
        self.start = 0;
        self.goal = 0;
        self.iterations = 0;
        self.expanded = 0;
        self.path_cost = f64::INFINITY;
    }

    /// [STATE.SEARCH.CHECKS] [STATE.SEARCH.BASE_CHECKS] Reads in place, in byte order, then the cross checks, then the
    /// trailing-bytes check.
    fn restore(&mut self, bytes: &[u8]) -> Result<(), Fault> {
        let n = self.graph.node_count();
        let mut r = Reader::new(bytes);
        r.header(KIND_GRAPH_ASTAR)?;
        if r.i32("node_count")? as i64 != n as i64 {
            return fail(Class::SizeMismatch, 8, "node_count");
        }
        let status = match r.u8("status")? {
            0 => SearchStatus::NotStarted,
            1 => SearchStatus::Running,
            2 => SearchStatus::Found,
            3 => SearchStatus::NotFound,
            _ => return fail(Class::OutOfRange, 12, "status"),
        };
        if r.f64("heuristic_weight")? != 1.0 {
            return fail(Class::SizeMismatch, 13, "heuristic_weight");
        }
        let idle = status == SearchStatus::NotStarted;
        let mut ends = [0u32; 2];
        for (end, name) in ends.iter_mut().zip(["start", "goal"]) {
            let at = r.pos;
            let v = r.i32(name)?;
            if (idle && v != -1) || (!idle && v as u32 as usize >= n) {
                return fail(Class::IndexOutOfRange, at, name);
            }
            *end = v as u32;
        }
        let expanded = r.i32("expanded")?;
        if expanded < 0 || (idle && expanded != 0) {
            return fail(Class::OutOfRange, 29, "expanded");
        }
        let iterations = r.i32("iterations")?;
        if iterations < 0 || (idle && iterations != 0) || expanded > iterations {
            return fail(Class::OutOfRange, 33, "iterations");
        }
        let path_cost = r.f64("path_cost")?;
        let cost_ok = if status == SearchStatus::Found {
            path_cost.is_finite() && path_cost >= 0.0
        } else {
            path_cost == f64::INFINITY
        };
        if !cost_ok {
            return fail(Class::OutOfRange, PATH_COST_AT, "path_cost");
        }
        self.clear();
        if !idle {
            let n = self.graph.node_count();
            let vis = read_search_buffers(&mut self.scratch, n, &mut r, bytes, expanded as usize)?;
            search_cross_checks(
                &mut self.scratch,
                vis,
                Some(ends[0]),
                status,
                ends[1],
                path_cost,
                PATH_COST_AT,
            )?;
        }
        r.finish()?;
        if !idle {
            self.status = status;
            self.start = ends[0];
            self.goal = ends[1];
            self.expanded = expanded as u64;
            self.iterations = iterations as u64;
            self.path_cost = path_cost;
        }
        Ok(())
    }
}

/// [STATE.BUFFERS] [STATE.VISITED] [STATE.HEAP] [STATE.HEAP.VALID] The visited entries, the
/// heap as it lies and the recorded list, installed into the (just reset) buffers.
pub(crate) fn read_search_buffers<'b, const D: usize>(
    s: &mut Buffers<D>,
    n: usize,
    r: &mut Reader<'b>,
    bytes: &'b [u8],
    expanded: usize,
) -> Result<Visited<'b>, Fault> {
    let epoch = s.epoch;
    let count = r.count(n, VISITED_BYTES, "visited")?;
    let vis = Visited {
        bytes,
        first: r.pos,
        count,
    };
    // The count fits the bytes left ([STATE.COUNT]), so the whole list is read as one block and
    // each field is checked in byte order, as the field-by-field reads would.
    let block = r.take(VISITED_BYTES * count, "visited")?;
    let mut prev: Option<u32> = None;
    for (k, c) in block.chunks_exact(VISITED_BYTES).enumerate() {
        let at = vis.first + VISITED_BYTES * k;
        let v = le_u32(&c[0..4]);
        if v as usize >= n {
            return fail(Class::IndexOutOfRange, at, "visited node");
        }
        if prev.is_some_and(|p| v <= p) {
            return fail(Class::NotIncreasing, at, "visited node");
        }
        prev = Some(v);
        let closed = match c[4] {
            0 => false,
            1 => true,
            _ => return fail(Class::BadFlag, at + 4, "closed"),
        };
        let g = le_f64(&c[5..13]);
        if g.is_nan() {
            return fail(Class::Nan, at + 5, "g");
        }
        if !(g.is_finite() && g >= 0.0) {
            return fail(Class::OutOfRange, at + 5, "g");
        }
        let p = le_u32(&c[13..17]);
        if p != NO_PARENT && p as usize >= n {
            return fail(Class::IndexOutOfRange, at + 13, "parent");
        }
        let slot = &mut s.slots[v as usize];
        slot.g = g;
        slot.parent = p;
        slot.stamp = epoch;
        slot.pos = if closed { NOT_IN_HEAP } else { PENDING };
        if D == 2 {
            s.visits.insert(v as usize);
        }
    }
    let heap_at = r.pos;
    let h = r.count(count, SLOT_BYTES, "heap count")?;
    s.reserve_heap(h);
    let block = r.take(SLOT_BYTES * h, "heap")?;
    for (i, c) in block.chunks_exact(SLOT_BYTES).enumerate() {
        let at = heap_at + 4 + SLOT_BYTES * i;
        let v = le_u32(&c[0..4]);
        let slot = match s.slots.get(v as usize) {
            Some(&sl) if (v as usize) < n && sl.stamp == epoch && sl.pos != NOT_IN_HEAP => sl,
            _ => return fail(Class::BadHeapNode, at, "heap node"),
        };
        if slot.pos != PENDING {
            return fail(Class::DuplicateNode, at, "heap node");
        }
        let f = le_f64(&c[4..12]);
        if f.is_nan() {
            return fail(Class::Nan, at + 4, "heap f");
        }
        let g = le_f64(&c[12..20]);
        if g.is_nan() {
            return fail(Class::Nan, at + 12, "heap g");
        }
        if g.to_bits() != slot.g.to_bits() {
            return fail(Class::OutOfRange, at + 12, "heap g");
        }
        s.slots[v as usize].pos = i as u32;
        s.push_raw(Entry::exact(f, v));
    }
    let heap = s.heap();
    for i in 1..heap.len() {
        if s.less(&heap[i], &heap[(i - 1) / 2]) {
            return fail(Class::HeapOrder, heap_at + 4 + SLOT_BYTES * i, "heap node");
        }
    }
    let rec_at = r.pos;
    let rc = r.count(expanded, 4, "recorded")?;
    s.record.reserve(rc);
    let block = r.take(4 * rc, "recorded")?;
    for (i, c) in block.chunks_exact(4).enumerate() {
        let v = le_u32(c);
        match s.slots.get(v as usize) {
            // Visited is enough: an expanded node may have been reopened since.
            Some(sl) if (v as usize) < n && sl.stamp == epoch => {}
            _ => return fail(Class::BadHeapNode, rec_at + 4 + 4 * i, "recorded node"),
        }
        s.record.push(v);
    }
    Ok(vis)
}

/// [STATE.SEARCH.CHECKS] The cross checks, each a separate pass over the visited entries in
/// increasing node order.
///
/// `start` is `None` for kinds whose start field is unused ([GS.STATE.SEARCHES]: a node with
/// parent `-1` must then have `g` 0); `path_cost_at` is the offset of the path-cost field.
pub(crate) fn search_cross_checks<const D: usize>(
    s: &mut Buffers<D>,
    vis: Visited<'_>,
    start: Option<u32>,
    status: SearchStatus,
    goal: u32,
    path_cost: f64,
    path_cost_at: usize,
) -> Result<(), Fault> {
    let epoch = s.epoch;
    // The three per-entry checks in one pass over the entries; each keeps its first fault, and
    // the faults are reported in the order of the separate passes of [STATE.SEARCH.CHECKS]
    // (missing open node, then the start rule, then the parent rule), so the result is that of
    // three passes.
    let (mut missing, mut start_rule, mut parent_rule) = (None, None, None);
    // Whether some parent has the same g as its child: a parent cycle needs one on every link
    // (g never decreases from parent to child around it), so without one no walk is needed.
    let mut equal_link = false;
    for (v, at) in vis.iter() {
        let sl = s.slots[v as usize];
        if missing.is_none() && sl.pos == PENDING {
            missing = Some(at);
        }
        if start_rule.is_none() {
            let bad = match start {
                Some(start) => {
                    (sl.parent == NO_PARENT) != (v == start) || (v == start && sl.g != 0.0)
                }
                None => sl.parent == NO_PARENT && sl.g != 0.0,
            };
            if bad {
                start_rule = Some(at);
            }
        }
        if sl.parent != NO_PARENT {
            let p = s.slots[sl.parent as usize];
            if p.stamp != epoch || p.g > sl.g {
                if parent_rule.is_none() {
                    parent_rule = Some(at);
                }
            } else if p.g == sl.g {
                equal_link = true;
            }
        }
    }
    if let Some(at) = missing {
        return fail(Class::MissingOpenNode, at, "visited node");
    }
    if let Some(at) = start_rule {
        return fail(Class::BadParent, at, "visited node");
    }
    if let Some(at) = parent_rule {
        return fail(Class::BadParent, at, "visited node");
    }
    if equal_link {
        parent_cycles(s, vis)?;
    }
    if status == SearchStatus::Found {
        let sl = s.slots[goal as usize];
        match vis.offset_of(goal) {
            None => return fail(Class::OutOfRange, path_cost_at, "path_cost"),
            Some(at) if sl.pos != NOT_IN_HEAP || sl.g != path_cost => {
                return fail(Class::OutOfRange, at, "visited node")
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// [STATE.SEARCH.CHECKS] The parent-cycle check: a colour walk from every entry in increasing
/// node order; a cycle is reported at its smallest node. `pos` is borrowed for the colours and
/// restored to the open / closed marks afterwards.
fn parent_cycles<const D: usize>(s: &mut Buffers<D>, vis: Visited<'_>) -> Result<(), Fault> {
    // Colour walk: pos 0 = unwalked, k + 1 = on the walk started at entry k, DONE = acyclic.
    for (v, _) in vis.iter() {
        s.slots[v as usize].pos = 0;
    }
    for (k, (v, _)) in vis.iter().enumerate() {
        if s.slots[v as usize].pos != 0 {
            continue;
        }
        let w = k as u32 + 1;
        let mut cur = v;
        loop {
            let sl = &mut s.slots[cur as usize];
            if sl.pos == 0 {
                sl.pos = w;
                if sl.parent == NO_PARENT {
                    break;
                }
                cur = sl.parent;
            } else if sl.pos == w {
                let mut m = cur;
                let mut c = s.slots[cur as usize].parent;
                while c != cur {
                    m = m.min(c);
                    c = s.slots[c as usize].parent;
                }
                let at = vis.offset_of(m).unwrap_or(vis.first);
                return fail(Class::ParentCycle, at, "visited node");
            } else {
                break;
            }
        }
        let mut cur = v;
        while s.slots[cur as usize].pos == w {
            s.slots[cur as usize].pos = DONE;
            match s.slots[cur as usize].parent {
                NO_PARENT => break,
                p => cur = p,
            }
        }
    }
    // Back to the open / closed marks.
    for (v, _) in vis.iter() {
        s.slots[v as usize].pos = NOT_IN_HEAP;
    }
    for i in 0..s.heap().len() {
        let v = s.heap()[i].node;
        s.slots[v as usize].pos = i as u32;
    }
    Ok(())
}

impl<C: GraphCost, H: GraphHeuristic> GraphAStar<'_, C, H> {
    /// [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.SEARCH.WIDE] [STATE.BUFFERS] [STATE.STABLE]
    /// The state bytes (kind 11): the header fields, then (unless `NotStarted`) the visited
    /// entries in increasing node order, the binary heap as it lies and the recorded list.
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_state_into(&mut out);
        out
    }

    /// [STATE.API.INTO] The bytes of [`GraphAStar::save_state`] written into `out` (cleared
    /// first; its allocation is reused, so a host saving every frame allocates nothing once
    /// `out` has grown to the state's size).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        out.clear();
        self.e.save(out);
    }

    /// [STATE.SEARCH.RESTORE] [STATE.SAME_WAY] [STATE.SEARCH.CHECKS] [STATE.SEARCH.RECORD]
    /// [STATE.SEARCH_FAILED] Restores a state saved by a search created the same way; the
    /// recording switch is kept. On error the search is `NotStarted` (counters zero, no recorded
    /// list) and must be restored or begun again.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GraphStateError> {
        self.e.restore(bytes).map_err(|f| {
            self.e.clear();
            GraphStateError::from_fault(f)
        })
    }
}
