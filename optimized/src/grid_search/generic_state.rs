//! State kinds 8, 9 and 10 ([GS.STATE.SEARCHES]): the layout and checks of [STATE.SEARCH] /
//! [STATE.SEARCH.CHECKS] over `width * height` nodes, read in place at any base offset (a
//! `GridSearch` embeds them, [GS.STATE.MODE2]).

use super::generic::{Core, Rule};
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::heap::{less, Entry, NOT_IN_HEAP, NO_PARENT};
use crate::wire::{fail, Class, Fault, Put, Reader, KIND_ASTAR, KIND_JUMP, KIND_THETA};

const VISITED_BYTES: usize = 17;
const SLOT_BYTES: usize = 20;
const PENDING: u32 = u32::MAX - 1;
const DONE: u32 = u32::MAX;

/// [STATE.SEARCH.WIDE] Counters above `2^31 - 1` are written as `2^31 - 1`.
pub(crate) fn wide(v: u64) -> i32 {
    v.min(i32::MAX as u64) as i32
}

fn node_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

#[derive(Clone, Copy)]
struct Visited<'a> {
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

impl Core<'_> {
    /// [STATE.KINDS] This engine's kind.
    pub(crate) fn kind(&self) -> u16 {
        match self.rule {
            Rule::AStar { .. } => KIND_ASTAR,
            Rule::Jump => KIND_JUMP,
            Rule::Theta | Rule::LazyTheta => KIND_THETA,
        }
    }

    /// [GS.STATE.SEARCHES] The saved weight: the search's (kinds 8, 10) or 1.0 (kind 9).
    fn saved_weight(&self) -> f64 {
        if self.rule == Rule::Jump {
            1.0
        } else {
            self.ctx.opts.heuristic_weight
        }
    }

    /// [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] [GS.STATE.SEARCHES] The bytes.
    pub(crate) fn save(&self) -> Vec<u8> {
        let n = self.ctx.n;
        let s = &self.buf;
        let started = self.status != SearchStatus::NotStarted;
        let mut out = Vec::with_capacity(64 + 20 * s.heap().len() + 4 * s.record.len());
        out.put_header(self.kind());
        out.put_i32(n as i32);
        out.put_u8(self.status as u8);
        out.put_f64(self.saved_weight());
        if !started {
            out.put_i32(-1);
            out.put_i32(-1);
            out.put_i32(0);
            out.put_i32(0);
            out.put_f64(f64::INFINITY);
            return out;
        }
        let has_start = self.kind() == KIND_ASTAR;
        out.put_i32(if has_start { self.start as i32 } else { -1 });
        out.put_i32(self.goal as i32);
        out.put_i32(wide(self.expanded));
        out.put_i32(wide(self.iterations));
        out.put_f64(self.path_cost());
        let count_at = out.len();
        out.put_i32(0);
        let mut visited = 0i32;
        for (v, slot) in s.slots[..n].iter().enumerate() {
            if slot.stamp == s.epoch {
                visited += 1;
                out.put_i32(v as i32);
                out.put_u8((slot.pos == NOT_IN_HEAP) as u8);
                out.put_f64(slot.g);
                out.put_i32(slot.parent as i32);
            }
        }
        out[count_at..count_at + 4].copy_from_slice(&visited.to_le_bytes());
        out.put_i32(s.heap().len() as i32);
        for e in s.heap() {
            out.put_i32(e.node as i32);
            out.put_f64(e.f());
            out.put_f64(e.g());
        }
        out.put_i32(s.record.len() as i32);
        for &v in &s.record {
            out.put_i32(v as i32);
        }
        out
    }

    /// [GS.STATE.SEARCHES] [GS.STATE.FAILED] A whole standalone state; on error NotStarted.
    pub(crate) fn restore_whole(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let mut r = Reader::new(bytes);
        let res = r
            .header(self.kind())
            .and_then(|_| self.restore_body(bytes, 0));
        res.map_err(|f| {
            self.clear();
            GridStateError::from_fault(f)
        })
    }

    /// [STATE.SEARCH.CHECKS] [GS.STATE.SEARCHES] Reads the payload of a state whose (already
    /// checked) header starts at `base`, through the trailing-bytes check at the input's end.
    /// Offsets are absolute. On error the caller clears the search.
    pub(crate) fn restore_body(&mut self, bytes: &[u8], base: usize) -> Result<(), Fault> {
        let n = self.ctx.n;
        let mut r = Reader::new(bytes);
        r.pos = base + 8;
        if r.i32("node_count")? as i64 != n as i64 {
            return fail(Class::SizeMismatch, base + 8, "node_count");
        }
        let status = match r.u8("status")? {
            0 => SearchStatus::NotStarted,
            1 => SearchStatus::Running,
            2 => SearchStatus::Found,
            3 => SearchStatus::NotFound,
            _ => return fail(Class::OutOfRange, base + 12, "status"),
        };
        if r.f64("heuristic_weight")? != self.saved_weight() {
            return fail(Class::SizeMismatch, base + 13, "heuristic_weight");
        }
        let idle = status == SearchStatus::NotStarted;
        let has_start = self.kind() == KIND_ASTAR;
        let mut ends = [0u32; 2];
        for (k, (end, name)) in ends.iter_mut().zip(["start", "goal"]).enumerate() {
            let at = r.pos;
            let v = r.i32(name)?;
            let must_be_none = idle || (k == 0 && !has_start);
            if (must_be_none && v != -1) || (!must_be_none && v as u32 as usize >= n) {
                return fail(Class::IndexOutOfRange, at, name);
            }
            *end = v as u32;
        }
        let expanded = r.i32("expanded")?;
        if expanded < 0 || (idle && expanded != 0) {
            return fail(Class::OutOfRange, base + 29, "expanded");
        }
        let iterations = r.i32("iterations")?;
        if iterations < 0 || (idle && iterations != 0) || expanded > iterations {
            return fail(Class::OutOfRange, base + 33, "iterations");
        }
        let path_cost = r.f64("path_cost")?;
        let cost_ok = if status == SearchStatus::Found {
            path_cost.is_finite() && path_cost >= 0.0
        } else {
            path_cost == f64::INFINITY
        };
        if !cost_ok {
            return fail(Class::OutOfRange, base + 37, "path_cost");
        }
        self.clear();
        if !idle {
            let vis = self.read_buffers(&mut r, bytes, expanded as usize)?;
            self.cross_checks(
                vis,
                ends[0],
                has_start,
                status,
                ends[1],
                path_cost,
                base + 37,
            )?;
        }
        r.finish()?;
        self.ctx.refresh();
        if !idle {
            self.status = status;
            self.start = ends[0];
            if !has_start {
                self.start = NO_PARENT;
            }
            self.goal = ends[1];
            self.expanded = expanded as u64;
            self.iterations = iterations as u64;
            self.path_cost = path_cost;
        }
        Ok(())
    }

    /// [STATE.BUFFERS] [STATE.VISITED] [STATE.HEAP] [STATE.HEAP.VALID] Visited entries, the heap
    /// as it lies and the recorded list, into the (just reset) buffers.
    fn read_buffers<'b>(
        &mut self,
        r: &mut Reader<'b>,
        bytes: &'b [u8],
        expanded: usize,
    ) -> Result<Visited<'b>, Fault> {
        let n = self.ctx.n;
        let s = &mut self.buf;
        let epoch = s.epoch;
        let count = r.count(n, VISITED_BYTES, "visited")?;
        let vis = Visited {
            bytes,
            first: r.pos,
            count,
        };
        let mut prev: Option<u32> = None;
        for _ in 0..count {
            let at = r.pos;
            let v = r.i32("visited node")? as u32;
            if v as usize >= n {
                return fail(Class::IndexOutOfRange, at, "visited node");
            }
            if prev.is_some_and(|p| v <= p) {
                return fail(Class::NotIncreasing, at, "visited node");
            }
            prev = Some(v);
            let closed = r.flag("closed")?;
            let at = r.pos;
            let g = r.f64("g")?;
            if !(g.is_finite() && g >= 0.0) {
                return fail(Class::OutOfRange, at, "g");
            }
            let at = r.pos;
            let p = r.i32("parent")?;
            if p != -1 && p as u32 as usize >= n {
                return fail(Class::IndexOutOfRange, at, "parent");
            }
            let slot = &mut s.slots[v as usize];
            slot.g = g;
            slot.parent = if p == -1 { NO_PARENT } else { p as u32 };
            slot.stamp = epoch;
            slot.pos = if closed { NOT_IN_HEAP } else { PENDING };
        }
        let heap_at = r.pos;
        let h = r.count(count, SLOT_BYTES, "heap count")?;
        s.reserve_heap(h);
        for i in 0..h {
            let at = r.pos;
            let v = r.i32("heap node")? as u32;
            let slot = match s.slots.get(v as usize) {
                Some(&sl) if (v as usize) < n && sl.stamp == epoch && sl.pos != NOT_IN_HEAP => sl,
                _ => return fail(Class::BadHeapNode, at, "heap node"),
            };
            if slot.pos != PENDING {
                return fail(Class::DuplicateNode, at, "heap node");
            }
            let f = r.f64("heap f")?;
            let at_g = r.pos;
            let g = r.f64("heap g")?;
            if g.to_bits() != slot.g.to_bits() {
                return fail(Class::OutOfRange, at_g, "heap g");
            }
            s.slots[v as usize].pos = i as u32;
            s.push_raw(Entry::exact(f, g, v));
        }
        let heap = s.heap();
        for i in 1..heap.len() {
            if less(&heap[i], &heap[(i - 1) / 2]) {
                return fail(Class::HeapOrder, heap_at + 4 + SLOT_BYTES * i, "heap node");
            }
        }
        let rc = r.count(expanded, 4, "recorded")?;
        s.record.reserve(rc);
        for _ in 0..rc {
            let at = r.pos;
            let v = r.i32("recorded node")? as u32;
            match s.slots.get(v as usize) {
                Some(sl) if (v as usize) < n && sl.stamp == epoch => {}
                _ => return fail(Class::BadHeapNode, at, "recorded node"),
            }
            s.record.push(v);
        }
        Ok(vis)
    }

    /// [STATE.SEARCH.CHECKS] [GS.STATE.SEARCHES] The five cross-check passes.
    #[allow(clippy::too_many_arguments)]
    fn cross_checks(
        &mut self,
        vis: Visited<'_>,
        start: u32,
        has_start: bool,
        status: SearchStatus,
        goal: u32,
        path_cost: f64,
        path_cost_at: usize,
    ) -> Result<(), Fault> {
        let s = &mut self.buf;
        let epoch = s.epoch;
        for (v, at) in vis.iter() {
            if s.slots[v as usize].pos == PENDING {
                return fail(Class::MissingOpenNode, at, "visited node");
            }
        }
        for (v, at) in vis.iter() {
            let sl = &s.slots[v as usize];
            let bad = if has_start {
                (sl.parent == NO_PARENT) != (v == start) || (v == start && sl.g != 0.0)
            } else {
                sl.parent == NO_PARENT && sl.g != 0.0
            };
            if bad {
                return fail(Class::BadParent, at, "visited node");
            }
        }
        for (v, at) in vis.iter() {
            let sl = s.slots[v as usize];
            if sl.parent != NO_PARENT {
                let p = s.slots[sl.parent as usize];
                if p.stamp != epoch || p.g > sl.g {
                    return fail(Class::BadParent, at, "visited node");
                }
            }
        }
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
        for (v, _) in vis.iter() {
            s.slots[v as usize].pos = NOT_IN_HEAP;
        }
        for i in 0..s.heap().len() {
            let v = s.heap()[i].node;
            s.slots[v as usize].pos = i as u32;
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
}
