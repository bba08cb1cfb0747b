//! State bytes of the replanners, kinds 5 (`GridReplanner`) and 6 (`HexReplanner`):
//! [REPLAN.STATE.HEADER], [REPLAN.STATE.SEARCH], the checks of [REPLAN.STATE.CHECKS] in byte
//! order ([STATE.ORDER]), canonical saves ([REPLAN.STATE.SAVE]) and atomic restores
//! ([REPLAN.STATE.ATOMIC], [REPLAN.STATE.RESTORE]): the whole input is validated in one pass over
//! the bytes, and only then installed in a second.

use super::core::{Core, GridView};
use super::engine::scale_of;
use super::listen::{lock, Shared};
use super::moves::entry_cell;
use super::queue::{precedes, Entry, Key};
use super::ReplanMode;
use crate::wire::{fail, Class, Fault, Put, Reader};

/// [STATE.KINDS] [REPLAN.STATE.HEADER] The kind of a `GridReplanner` state.
pub(crate) const KIND_GRID_REPLANNER: u16 = 5;
/// [STATE.KINDS] [REPLAN.STATE.HEADER] The kind of a `HexReplanner` state.
pub(crate) const KIND_HEX_REPLANNER: u16 = 6;

/// Bytes per planned cell and per queue slot (`i32, f64, f64`).
const CELL_BYTES: usize = 20;

/// [REPLAN.RUN.COUNTERS] A u64 counter as the format's i64 (`2^63 - 1` at most).
fn wide(v: u64) -> u64 {
    v.min(i64::MAX as u64)
}

/// Where the lists of a validated state lie in the input.
struct Layout {
    start: u32,
    goal: u32,
    area_version: i32,
    initialized: bool,
    found: bool,
    iterations: u64,
    expanded: u64,
    last_expanded: u64,
    km: f64,
    overflow: bool,
    pending: (usize, usize),
    planned: (usize, usize),
    queue: (usize, usize),
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn f64_at(b: &[u8], at: usize) -> f64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    f64::from_le_bytes(a)
}

/// [REPLAN.STATE.CHECKS] `+infinity` or finite `>= 0` (`-0.0` included).
fn value_ok(v: f64) -> bool {
    v == f64::INFINITY || (v.is_finite() && v >= 0.0)
}

/// Scratch for the duplicate check of the queue (reused across restores).
#[derive(Default)]
pub(crate) struct Marks {
    stamp: Vec<u32>,
    epoch: u32,
}

impl Marks {
    /// Starts a new round over `n` nodes.
    fn begin(&mut self, n: usize) {
        if self.stamp.len() != n {
            self.stamp.clear();
            self.stamp.resize(n, 0);
            self.epoch = 0;
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
    }

    /// Marks `c`; false when it was already marked this round.
    fn mark(&mut self, c: usize) -> bool {
        let fresh = self.stamp[c] != self.epoch;
        self.stamp[c] = self.epoch;
        fresh
    }
}

impl Core {
    /// [REPLAN.STATE.HEADER] [REPLAN.STATE.SEARCH] [REPLAN.STATE.SAVE] [REPLAN.RUN.COUNTERS]
    /// Writes the state (cleared first): header, sizes, algorithm, area version, ends, then the
    /// replan search; an uninitialised replanner stops after `last_expanded`. Counters above the
    /// format's range are written at its maximum.
    pub fn save(&self, kind: u16, out: &mut Vec<u8>) {
        out.clear();
        let e = &self.e;
        let s = lock(&self.shared);
        out.put_header(kind);
        out.put_i32(self.w as i32);
        out.put_i32(self.h as i32);
        out.put_u8(self.algorithm as u8);
        out.put_i32(self.area_version);
        out.put_i32(e.start as i32);
        out.put_i32(e.goal as i32);
        out.put_i32(e.n as i32);
        out.put_u8(self.mode as u8);
        out.put_i32(e.start as i32);
        out.put_i32(e.goal as i32);
        out.put_u8(s.initialized as u8);
        out.put_u8(e.found as u8);
        out.put_u64(wide(e.iterations));
        out.put_u64(wide(e.expanded));
        out.put_i32(e.last_expanded.min(i32::MAX as u64) as i32);
        if !s.initialized {
            return;
        }
        out.put_f64(e.km);
        out.put_u8(s.overflow as u8);
        out.put_i32(s.pending.len() as i32);
        for &p in &s.pending {
            out.put_i32(p);
        }
        let count_at = out.len();
        out.put_i32(0);
        let mut planned = 0i32;
        e.each_planned(|c, g, r| {
            out.put_i32(c as i32);
            out.put_f64(g);
            out.put_f64(r);
            planned += 1;
        });
        out[count_at..count_at + 4].copy_from_slice(&planned.to_le_bytes());
        out.put_i32(e.queue.len() as i32);
        for q in &e.queue.heap {
            out.put_i32(q.node as i32);
            out.put_f64(q.key.0);
            out.put_f64(q.key.1);
        }
    }

    /// [REPLAN.STATE.CHECKS] [STATE.ORDER] Reads and checks every field in byte order; changes
    /// nothing observable (only the duplicate-check scratch).
    fn parse(
        &self,
        grid: (usize, usize),
        kind: u16,
        b: &[u8],
        marks: &mut Marks,
    ) -> Result<Layout, Fault> {
        let n = self.e.n;
        let mut r = Reader::new(b);
        r.header(kind)?;
        let at = r.pos;
        if r.i32("width")? as i64 != self.w as i64 || grid.0 != self.w {
            return fail(Class::SizeMismatch, at, "width");
        }
        let at = r.pos;
        if r.i32("height")? as i64 != self.h as i64 || grid.1 != self.h {
            return fail(Class::SizeMismatch, at, "height");
        }
        let at = r.pos;
        if r.u8("algorithm")? != self.algorithm as u8 {
            return fail(Class::EngineMismatch, at, "algorithm");
        }
        let at = r.pos;
        let area_version = r.i32("area_version")?;
        if area_version < 0 {
            return fail(Class::OutOfRange, at, "area_version");
        }
        let mut ends = [0u32; 2];
        for (k, field) in ["start", "goal"].into_iter().enumerate() {
            let at = r.pos;
            let c = r.i32(field)?;
            if c < 0 || c as usize >= n {
                return fail(Class::IndexOutOfRange, at, field);
            }
            ends[k] = c as u32;
        }
        let at = r.pos;
        if r.i32("node_count")? as i64 != n as i64 {
            return fail(Class::SizeMismatch, at, "node_count");
        }
        let at = r.pos;
        let mode = r.u8("mode")?;
        if mode > 1 {
            return fail(Class::OutOfRange, at, "mode");
        }
        if mode != self.mode as u8 {
            return fail(Class::EngineMismatch, at, "mode");
        }
        for (k, field) in ["search start", "search goal"].into_iter().enumerate() {
            let at = r.pos;
            if r.i32(field)? as i64 != ends[k] as i64 {
                return fail(Class::OutOfRange, at, field);
            }
        }
        let initialized = r.flag("initialized")?;
        let at = r.pos;
        let found = r.flag("found")?;
        if found && !initialized {
            return fail(Class::OutOfRange, at, "found");
        }
        let at = r.pos;
        let iterations = r.u64("iterations")? as i64;
        if iterations < 0 {
            return fail(Class::OutOfRange, at, "iterations");
        }
        let at = r.pos;
        let expanded = r.u64("expanded")? as i64;
        if expanded < 0 || expanded > iterations {
            return fail(Class::OutOfRange, at, "expanded");
        }
        let at = r.pos;
        let last_expanded = r.i32("last_expanded")? as i64;
        if last_expanded < 0 || last_expanded > expanded {
            return fail(Class::OutOfRange, at, "last_expanded");
        }
        let mut out = Layout {
            start: ends[0],
            goal: ends[1],
            area_version,
            initialized,
            found,
            iterations: iterations as u64,
            expanded: expanded as u64,
            last_expanded: last_expanded as u64,
            km: 0.0,
            overflow: false,
            pending: (0, 0),
            planned: (0, 0),
            queue: (0, 0),
        };
        if initialized {
            self.parse_search(&mut r, b, marks, &mut out)?;
        }
        r.finish()?;
        Ok(out)
    }

    /// [REPLAN.STATE.CHECKS] The fields after `last_expanded` of an initialised state.
    fn parse_search(
        &self,
        r: &mut Reader<'_>,
        b: &[u8],
        marks: &mut Marks,
        out: &mut Layout,
    ) -> Result<(), Fault> {
        let n = self.e.n;
        let at = r.pos;
        let km = r.f64("km")?;
        if !(km.is_finite() && km >= 0.0) || (self.mode == ReplanMode::Lpa && km != 0.0) {
            return fail(Class::OutOfRange, at, "km");
        }
        out.km = km;
        out.overflow = r.flag("overflow")?;
        let at = r.pos;
        let pending = r.count(Shared::limit_for(n), 4, "pending_count")?;
        if out.overflow && pending != 0 {
            return fail(Class::CountOutOfRange, at, "pending_count");
        }
        out.pending = (r.pos, pending);
        for _ in 0..pending {
            let at = r.pos;
            if entry_cell(r.i32("pending entry")?) as usize >= n {
                return fail(Class::IndexOutOfRange, at, "pending entry");
            }
        }
        let planned = r.count(n, CELL_BYTES, "planned_count")?;
        out.planned = (r.pos, planned);
        let mut prev: i64 = -1;
        for _ in 0..planned {
            let at = r.pos;
            let c = r.i32("planned cell")?;
            if c < 0 || c as usize >= n {
                return fail(Class::IndexOutOfRange, at, "planned cell");
            }
            if c as i64 <= prev {
                return fail(Class::NotIncreasing, at, "planned cell");
            }
            prev = c as i64;
            let at = r.pos;
            let g = r.f64("g")?;
            if !value_ok(g) {
                return fail(Class::OutOfRange, at, "g");
            }
            let at = r.pos;
            let rhs = r.f64("rhs")?;
            if !value_ok(rhs) || (g == f64::INFINITY && rhs == f64::INFINITY) {
                return fail(Class::OutOfRange, at, "rhs");
            }
        }
        let count = r.count(planned, CELL_BYTES, "queue count")?;
        out.queue = (r.pos, count);
        let first = out.planned.0;
        marks.begin(n);
        for _ in 0..count {
            let at = r.pos;
            let node = r.i32("queue node")?;
            if !is_planned(b, first, planned, node) {
                return fail(Class::BadHeapNode, at, "queue node");
            }
            if !marks.mark(node as usize) {
                return fail(Class::DuplicateNode, at, "queue node");
            }
            r.f64("key1")?;
            r.f64("key2")?;
        }
        let slot = |i: usize| {
            let at = out.queue.0 + i * CELL_BYTES;
            Entry {
                node: i32_at(b, at) as u32,
                key: Key(f64_at(b, at + 4), f64_at(b, at + 12)),
            }
        };
        for i in 1..count {
            if precedes(&slot(i), &slot((i - 1) / 2)) {
                return fail(Class::HeapOrder, out.queue.0 + i * CELL_BYTES, "queue node");
            }
        }
        Ok(())
    }

    /// [REPLAN.STATE.ATOMIC] [REPLAN.STATE.RESTORE] Validates `bytes` completely, then installs
    /// them: saved values (other cells at `+infinity`), pending entries, flags, `km`, counters,
    /// ends and area version; the scale is read from the grid and its restore count recorded;
    /// the recorded list is emptied. On error nothing observable changed.
    pub fn restore(
        &mut self,
        view: &GridView<'_>,
        kind: u16,
        bytes: &[u8],
        marks: &mut Marks,
    ) -> Result<(), Fault> {
        let l = self.parse((view.width, view.height), kind, bytes, marks)?;
        self.forget_cache();
        let e = &mut self.e;
        e.clear_values();
        e.start = l.start;
        e.goal = l.goal;
        e.found = l.found;
        e.iterations = l.iterations;
        e.expanded = l.expanded;
        e.last_expanded = l.last_expanded;
        e.expansions.clear();
        e.expansion_kinds.clear();
        e.mult = view.mult;
        e.scale = scale_of(&view.mult);
        self.area_version = l.area_version;
        self.restore_count = view.restore_count;
        let mut s = lock(&self.shared);
        s.initialized = l.initialized;
        s.overflow = l.overflow;
        s.pending.clear();
        if !l.initialized {
            return Ok(());
        }
        e.km = l.km;
        let (at, count) = l.pending;
        s.pending
            .extend((0..count).map(|i| i32_at(bytes, at + 4 * i)));
        let (at, count) = l.planned;
        for i in 0..count {
            let p = at + i * CELL_BYTES;
            e.install_cell(
                i32_at(bytes, p) as u32,
                f64_at(bytes, p + 4),
                f64_at(bytes, p + 12),
            );
        }
        let (at, count) = l.queue;
        e.queue.install((0..count).map(|i| {
            let p = at + i * CELL_BYTES;
            Entry {
                node: i32_at(bytes, p) as u32,
                key: Key(f64_at(bytes, p + 4), f64_at(bytes, p + 12)),
            }
        }));
        Ok(())
    }
}

/// [REPLAN.STATE.CHECKS] Whether `node` is one of the `count` planned cells listed (strictly
/// increasing, already checked) from byte `first` on: a binary search in the input.
fn is_planned(b: &[u8], first: usize, count: usize, node: i32) -> bool {
    let (mut lo, mut hi) = (0usize, count);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let c = i32_at(b, first + mid * CELL_BYTES);
        if c == node {
            return true;
        }
        if c < node {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    false
}
