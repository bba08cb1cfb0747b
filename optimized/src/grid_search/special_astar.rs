//! The specialised A* engine, `GridSearch` mode 1 ([GS.SA.PAIRS] .. [GS.SA.DIRECTION]) and its
//! state ([GS.STATE.MODE1], [GS.STATE.MODE1.CHECKS]). Costs are exact integer pairs; the open
//! list is a 4-ary heap with lazy deletion keyed by the pairs' f64 values, falling back to the
//! exact pair comparison of [GS.COST.PAIR] on near ties, so pops follow [GS.SA.ORDER] exactly.

use super::ctx::{octile_pair, pair_f64, pair_less, Ctx, DX, DY};
use super::generic_state::wide;
use crate::astar::SearchStatus;
use crate::visit_set::VisitSet;
use crate::wire::{fail, Class, Fault, Put, Reader};
use std::sync::atomic::{AtomicBool, Ordering};

/// Per padded cell: valid when `stamp` is the epoch.
#[derive(Clone, Copy, Default)]
struct ACell {
    stamp: u32,
    a: u32,
    b: u32,
    /// Bit 0 closed, bits 1-3 [GS.SA.DIRECTION] (the neighbour index of the move in).
    flags: u8,
}

/// An open entry: f and g pairs, their f64 values and the padded cell.
#[derive(Clone, Copy)]
struct AEntry {
    f: f64,
    g: f64,
    fa: u32,
    fb: u32,
    ga: u32,
    gb: u32,
    p: u32,
}

/// Whether `x < y` as reals for pairs with f64 values `xf`, `yf` (exact on near ties).
#[inline(always)]
fn real_less(xf: f64, yf: f64, xa: u32, xb: u32, ya: u32, yb: u32) -> bool {
    let d = xf - yf;
    if d.abs() > 1e-12 * (xf + yf) {
        d < 0.0
    } else {
        pair_less(xa, xb, ya, yb)
    }
}

/// [GS.SA.ORDER] Smaller f, then larger g, then smaller cell (padded order = cell order).
#[inline(always)]
fn precedes(x: &AEntry, y: &AEntry) -> bool {
    if x.fa != y.fa || x.fb != y.fb {
        return real_less(x.f, y.f, x.fa, x.fb, y.fa, y.fb);
    }
    if x.ga != y.ga || x.gb != y.gb {
        return real_less(y.g, x.g, y.ga, y.gb, x.ga, x.gb);
    }
    x.p < y.p
}

/// Scale of the quantised f64 keys of the fast open list (see [`SpecA::fast`]).
const QSCALE: f64 = (1u64 << 24) as f64;
/// Bits of a quantised key: values below `2^22` times `2^24`.
const QBITS: u32 = 46;
const QMASK: u64 = (1u64 << QBITS) - 1;
/// Largest pair value (bound) for which the fast keys are exact.
const FAST_LIMIT: f64 = (1u64 << 22) as f64;

/// The quantised key of a pair with f64 value `v` (`v < 2^22`): `floor(v * 2^24)`.
///
/// Exactness: for pairs of value below `2^22`, `pair_f64` is within `3 * 2^-53` relative
/// (`< 2^-29` absolute) of the real value, while two different pairs differ by at least
/// `1 / (|p| + |q|√2) >= 2^-23` as reals (`p + q√2` with integers `p, q` not both 0). So the
/// f64 values of different pairs are more than `2^-24` apart and in the real order, and their
/// floors at scale `2^24` differ in the same order; equal pairs give equal keys.
#[inline(always)]
fn quant(v: f64) -> u64 {
    (v * QSCALE) as u64
}

/// The mode-1 engine.
pub(crate) struct SpecA {
    cells: Vec<ACell>,
    epoch: u32,
    /// Exactly the padded cells whose `stamp` is the epoch (what a save walks).
    visits: VisitSet,
    /// Exact open list (grids too large for the fast keys).
    heap: Vec<AEntry>,
    /// Fast open list: `quant(f) << 82 | (QMASK - quant(g)) << 36 | padded cell`, a total
    /// order equal to [GS.SA.ORDER] (see [`quant`]).
    fheap: Vec<u128>,
    /// Whether every pair value of a search is below [`FAST_LIMIT`]: g is the cost of a simple
    /// path (at most `n - 1` steps of at most √2; restored pairs are checked to be such
    /// costs), the estimate at most `w + h` steps.
    fast: bool,
    /// Per padded cell: bit `d` set when the move in direction `d` is allowed
    /// ([GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL]; mode 1 has no `blocked` hook).
    moves: Vec<u8>,
    pub record: Vec<u32>,
    pub status: SearchStatus,
    pub zero: bool,
    pub start: u32,
    pub goal: u32,
    goal_xy: (u32, u32),
    pub iterations: u64,
    pub expanded: u64,
}

impl SpecA {
    pub fn new(ctx: &Ctx<'_>, zero: bool) -> SpecA {
        let mut moves = vec![0u8; ctx.pass.len()];
        for y in 1..=ctx.h {
            for x in 1..=ctx.w {
                let p = y * ctx.pw + x;
                if ctx.pass[p] == 0 {
                    continue;
                }
                let mut m = 0u8;
                for d in 0..ctx.nd {
                    if ctx.allowed(p, d) {
                        m |= 1 << d;
                    }
                }
                moves[p] = m;
            }
        }
        let bound = (ctx.n as f64 + ctx.w as f64 + ctx.h as f64 + 4.0) * 1.5;
        SpecA {
            cells: vec![ACell::default(); ctx.pass.len()],
            epoch: 0,
            visits: VisitSet::with_len(ctx.pass.len()),
            heap: Vec::new(),
            fheap: Vec::new(),
            fast: bound < FAST_LIMIT && ctx.pass.len() < (1usize << 36),
            moves,
            record: Vec::new(),
            status: SearchStatus::NotStarted,
            zero,
            start: 0,
            goal: 0,
            goal_xy: (0, 0),
            iterations: 0,
            expanded: 0,
        }
    }

    fn reset(&mut self) {
        self.heap.clear();
        self.fheap.clear();
        self.record.clear();
        self.visits.clear();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            for c in &mut self.cells {
                c.stamp = 0;
            }
            self.epoch = 1;
        }
        self.iterations = 0;
        self.expanded = 0;
    }

    /// [GS.SA.ORDER] [GS.EST.OCTILE] The estimate pair of `(x, y)`.
    #[inline(always)]
    fn hpair(&self, ctx: &Ctx<'_>, x: u32, y: u32) -> (u32, u32) {
        if self.zero {
            return (0, 0);
        }
        let (dx, dy) = (x.abs_diff(self.goal_xy.0), y.abs_diff(self.goal_xy.1));
        if ctx.nd == 4 {
            (dx + dy, 0)
        } else {
            octile_pair(dx, dy)
        }
    }

    /// Pushes padded cell `p` at `(x, y)` with g pair `(ga, gb)`.
    #[inline(always)]
    fn push(&mut self, ctx: &Ctx<'_>, p: usize, x: u32, y: u32, ga: u32, gb: u32) {
        let (ha, hb) = self.hpair(ctx, x, y);
        let (fa, fb) = (ga + ha, gb + hb);
        if self.fast {
            let qf = quant(pair_f64(fa, fb));
            let qg = QMASK - quant(pair_f64(ga, gb));
            let e = (qf as u128) << (QBITS + 36) | (qg as u128) << 36 | p as u128;
            let h = &mut self.fheap;
            let mut i = h.len();
            h.push(e);
            while i > 0 {
                let par = (i - 1) / 4;
                let pe = h[par];
                if e >= pe {
                    break;
                }
                h[i] = pe;
                i = par;
            }
            h[i] = e;
            return;
        }
        let e = AEntry {
            f: pair_f64(fa, fb),
            g: pair_f64(ga, gb),
            fa,
            fb,
            ga,
            gb,
            p: p as u32,
        };
        let mut i = self.heap.len();
        self.heap.push(e);
        while i > 0 {
            let par = (i - 1) / 4;
            if !precedes(&e, &self.heap[par]) {
                break;
            }
            self.heap[i] = self.heap[par];
            i = par;
        }
        self.heap[i] = e;
    }

    /// Pops the fast open list's top and returns its padded cell.
    #[inline(always)]
    fn fpop(&mut self) -> usize {
        let h = &mut self.fheap;
        let top = h[0];
        let last = h.pop().expect("non-empty");
        let len = h.len();
        if len > 0 {
            let mut i = 0;
            loop {
                let c = 4 * i + 1;
                if c + 3 < len {
                    let (a, b, cc, d) = (h[c], h[c + 1], h[c + 2], h[c + 3]);
                    let (m1, v1) = if b < a { (c + 1, b) } else { (c, a) };
                    let (m2, v2) = if d < cc { (c + 3, d) } else { (c + 2, cc) };
                    let (m, v) = if v2 < v1 { (m2, v2) } else { (m1, v1) };
                    if v >= last {
                        break;
                    }
                    h[i] = v;
                    i = m;
                } else {
                    if c >= len {
                        break;
                    }
                    let mut m = c;
                    for j in c + 1..len {
                        if h[j] < h[m] {
                            m = j;
                        }
                    }
                    if h[m] >= last {
                        break;
                    }
                    h[i] = h[m];
                    i = m;
                }
            }
            h[i] = last;
        }
        (top as u64 & ((1u64 << 36) - 1)) as usize
    }

    fn pop(&mut self) -> AEntry {
        let top = self.heap[0];
        let last = self.heap.pop().expect("non-empty");
        let len = self.heap.len();
        if len > 0 {
            let mut i = 0;
            loop {
                let c = 4 * i + 1;
                if c >= len {
                    break;
                }
                let mut m = c;
                for j in c + 1..len.min(c + 4) {
                    if precedes(&self.heap[j], &self.heap[m]) {
                        m = j;
                    }
                }
                if !precedes(&self.heap[m], &last) {
                    break;
                }
                self.heap[i] = self.heap[m];
                i = m;
            }
            self.heap[i] = last;
        }
        top
    }

    /// Drops stale tops and returns the top's padded cell (`None`: the open list is empty).
    /// An entry is stale exactly when its cell is closed: pushes happen only on a strict
    /// improvement of g (so of f, the estimate being fixed per cell), so a cell's newest
    /// entry precedes its older ones and closes it before they reach the top.
    #[inline(always)]
    fn settle(&mut self) -> Option<usize> {
        if self.fast {
            while let Some(&e) = self.fheap.first() {
                let p = (e as u64 & ((1u64 << 36) - 1)) as usize;
                if self.cells[p].flags & 1 != 0 {
                    self.fpop();
                } else {
                    return Some(p);
                }
            }
            return None;
        }
        while let Some(e) = self.heap.first() {
            let c = &self.cells[e.p as usize];
            if c.flags & 1 != 0 || c.a != e.ga || c.b != e.gb {
                self.pop();
            } else {
                return Some(e.p as usize);
            }
        }
        None
    }

    /// [GS.SA.BEGIN] Resets; an impassable start or goal ends NotFound with nothing visited.
    pub fn begin(&mut self, ctx: &Ctx<'_>, start: u32, goal: u32) {
        self.reset();
        self.start = start;
        self.goal = goal;
        self.goal_xy = ctx.xy(goal);
        self.status = SearchStatus::Running;
        if !ctx.passable(start) || !ctx.passable(goal) {
            self.status = SearchStatus::NotFound;
            return;
        }
        let p = ctx.pad(start);
        self.cells[p] = ACell {
            stamp: self.epoch,
            a: 0,
            b: 0,
            flags: 0,
        };
        self.visits.insert(p);
        let (x, y) = ctx.xy(start);
        self.push(ctx, p, x, y, 0, 0);
    }

    /// [GS.SA.STEP] [GRAPH.ASTAR.STEP] [GRAPH.ASTAR.RUN] The sliced loop.
    pub fn advance(
        &mut self,
        ctx: &Ctx<'_>,
        max: u64,
        cancel: Option<&AtomicBool>,
    ) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let goal = ctx.pad(self.goal);
        let epoch = self.epoch;
        let mut done = 0u64;
        loop {
            let Some(pu) = self.settle() else {
                self.status = SearchStatus::NotFound;
                return self.status;
            };
            if let Some(flag) = cancel {
                if done.is_multiple_of(256) && flag.load(Ordering::Relaxed) {
                    return SearchStatus::Running;
                }
            }
            if done == max {
                return SearchStatus::Running;
            }
            if self.fast {
                self.fpop();
            } else {
                self.pop();
            }
            done += 1;
            self.iterations += 1;
            let cell = &mut self.cells[pu];
            cell.flags |= 1;
            let (a, b) = (cell.a, cell.b);
            if pu == goal {
                self.status = SearchStatus::Found;
                return self.status;
            }
            let (x, y) = ctx.pxy(pu);
            let mut m = self.moves[pu];
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                let q = pu.wrapping_add_signed(ctx.off[d]);
                let (ga, gb) = if d < 4 { (a + 1, b) } else { (a, b + 1) };
                let c = self.cells[q];
                if c.stamp == epoch && (c.flags & 1 != 0 || !pair_less(ga, gb, c.a, c.b)) {
                    continue;
                }
                if c.stamp != epoch {
                    self.visits.insert(q);
                }
                self.cells[q] = ACell {
                    stamp: epoch,
                    a: ga,
                    b: gb,
                    flags: (d as u8) << 1,
                };
                let (qx, qy) = (x.wrapping_add_signed(DX[d]), y.wrapping_add_signed(DY[d]));
                self.push(ctx, q, qx, qy, ga, gb);
            }
            self.expanded += 1;
            if ctx.opts.record_expansions {
                self.record.push(ctx.cell(pu));
            }
        }
    }

    /// [GS.SA.PATH] The directions back from the goal, start first.
    pub fn path(&self, ctx: &Ctx<'_>) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        let mut out = Vec::new();
        let start = ctx.pad(self.start);
        let mut p = ctx.pad(self.goal);
        while out.len() <= ctx.n {
            out.push(ctx.cell(p));
            if p == start {
                break;
            }
            let d = (self.cells[p].flags >> 1) as usize;
            p = p.wrapping_add_signed(-ctx.off[d]);
        }
        out.reverse();
        out
    }

    fn goal_pair(&self, ctx: &Ctx<'_>) -> (u32, u32) {
        let c = self.cells[ctx.pad(self.goal)];
        (c.a, c.b)
    }

    /// [GS.SA.PATH] The f64 value of the goal's pair when Found, else `+infinity`.
    pub fn path_cost(&self, ctx: &Ctx<'_>) -> f64 {
        if self.status != SearchStatus::Found {
            return f64::INFINITY;
        }
        let (a, b) = self.goal_pair(ctx);
        pair_f64(a, b)
    }

    /// [GS.STATE.MODE1] [GS.STATE.WRITE] The mode-1 payload after the kind-12 header fields.
    pub fn save(&self, ctx: &Ctx<'_>, out: &mut Vec<u8>) {
        let found = (self.status == SearchStatus::Found).then(|| self.goal_pair(ctx));
        write_fixed(
            out,
            self.status,
            self.zero,
            (self.start, self.goal),
            (self.expanded, self.iterations),
            found,
        );
        // The visit set holds exactly the stamped padded cells; padded order is cell order.
        let visited = self.visits.count();
        out.put_i32(visited as i32);
        let at = out.len();
        out.resize(at + 13 * visited, 0);
        let mut chunks = out[at..].chunks_exact_mut(13);
        self.visits.for_each(|p| {
            let c = self.cells[p];
            if let Some(o) = chunks.next() {
                o[0..4].copy_from_slice(&ctx.cell(p).to_le_bytes());
                o[4..8].copy_from_slice(&c.a.to_le_bytes());
                o[8..12].copy_from_slice(&c.b.to_le_bytes());
                o[12] = c.flags;
            }
        });
    }

    /// [GS.STATE.FAILED] Nothing visited, NotStarted.
    pub fn clear(&mut self) {
        self.reset();
        self.status = SearchStatus::NotStarted;
    }

    /// [GS.STATE.MODE1.CHECKS] [GS.STATE.RESTORE] Reads the mode-1 payload at `r` (offset 17),
    /// through the trailing check; rebuilds the open list from the visited cells.
    pub fn restore(
        &mut self,
        ctx: &Ctx<'_>,
        bytes: &[u8],
        r: &mut Reader<'_>,
    ) -> Result<(), Fault> {
        self.clear();
        let f = read_fixed(r, ctx.n, self.zero)?;
        let count = r.count(ctx.n, 13, "visited")?;
        let first = r.pos;
        let epoch = self.epoch;
        let mut prev: Option<u32> = None;
        for _ in 0..count {
            let (c, a, b) = read_cell(r, ctx, &mut prev)?;
            let at = r.pos;
            let flags = r.u8("flags")?;
            if flags & 0xF0 != 0 {
                return fail(Class::BadFlag, at, "flags");
            }
            // [GS.STATE.MODE1.CHECKS]: the start's direction bits are not checked;
            // they are kept as read (so save -> restore -> save is equal).
            self.cells[ctx.pad(c)] = ACell {
                stamp: epoch,
                a,
                b,
                flags,
            };
            self.visits.insert(ctx.pad(c));
        }
        let cell_at = |k: usize| first + 13 * k;
        let cell_of = |k: usize| {
            let at = cell_at(k);
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let sp = ctx.pad(f.start);
        if count > 0 {
            let s = self.cells[sp];
            if s.stamp != epoch {
                return fail(Class::BadParent, f.base + 2, "start");
            }
            if s.a != 0 || s.b != 0 {
                let k = (0..count).find(|&k| cell_of(k) == f.start).unwrap_or(0);
                return fail(Class::BadParent, cell_at(k), "cell");
            }
        }
        let mut closed = 0u64;
        for k in 0..count {
            let c = cell_of(k);
            let p = ctx.pad(c);
            let cell = self.cells[p];
            closed += (cell.flags & 1) as u64;
            if c == f.start {
                continue;
            }
            let d = (cell.flags >> 1) as usize;
            let (x, y) = ctx.xy(c);
            let (px, py) = (x as i64 - DX[d] as i64, y as i64 - DY[d] as i64);
            let ok = px >= 0 && py >= 0 && (px as usize) < ctx.w && (py as usize) < ctx.h && {
                let par = self.cells[p.wrapping_add_signed(-ctx.off[d])];
                let (sa, sb) = if d < 4 { (1, 0) } else { (0, 1) };
                par.stamp == epoch
                    && par.flags & 1 != 0
                    && par.a as u64 + sa == cell.a as u64
                    && par.b as u64 + sb == cell.b as u64
            };
            if !ok {
                return fail(Class::BadParent, cell_at(k), "cell");
            }
        }
        check_counters(&f, closed)?;
        if f.status == SearchStatus::Found {
            let g = self.cells[ctx.pad(f.goal)];
            if g.stamp != epoch || g.flags & 1 == 0 || g.a != f.path.0 || g.b != f.path.1 {
                return fail(Class::OutOfRange, f.base + 18, "pathA");
            }
        }
        r.finish()?;
        self.status = f.status;
        self.start = f.start;
        self.goal = f.goal;
        self.goal_xy = ctx.xy(f.goal);
        self.iterations = f.iterations;
        self.expanded = f.expanded;
        for k in 0..count {
            let p = ctx.pad(cell_of(k));
            let c = self.cells[p];
            if c.flags & 1 == 0 {
                let (x, y) = ctx.pxy(p);
                self.push(ctx, p, x, y, c.a, c.b);
            }
        }
        Ok(())
    }
}

/// The fixed fields shared by modes 1 and 3 ([GS.STATE.MODE1]); `base` is the status offset.
pub(crate) struct Fixed {
    pub base: usize,
    pub status: SearchStatus,
    pub start: u32,
    pub goal: u32,
    pub expanded: u64,
    pub iterations: u64,
    pub path: (u32, u32),
}

/// [GS.STATE.MODE1] [GS.STATE.MODE3] [GS.STATE.WRITE] The fixed fields shared by modes 1 and 3:
/// status, zeroEstimate, start, goal, expanded, iterations, then the found pair or `-1, -1`.
pub(crate) fn write_fixed(
    out: &mut Vec<u8>,
    status: SearchStatus,
    zero: bool,
    (start, goal): (u32, u32),
    (expanded, iterations): (u64, u64),
    found: Option<(u32, u32)>,
) {
    out.put_u8(status as u8);
    out.put_u8(zero as u8);
    out.put_i32(start as i32);
    out.put_i32(goal as i32);
    out.put_i32(wide(expanded));
    out.put_i32(wide(iterations));
    let (pa, pb) = found.map_or((-1, -1), |(a, b)| (a as i32, b as i32));
    out.put_i32(pa);
    out.put_i32(pb);
}

/// [GS.STATE.MODE1.CHECKS] Status .. pathB, checked in byte order; `zero_expected` is the
/// restoring search's estimate flag (mode 3: always false), compared as soon as it is read.
pub(crate) fn read_fixed(
    r: &mut Reader<'_>,
    n: usize,
    zero_expected: bool,
) -> Result<Fixed, Fault> {
    let base = r.pos;
    let status = match r.u8("status")? {
        1 => SearchStatus::Running,
        2 => SearchStatus::Found,
        3 => SearchStatus::NotFound,
        _ => return fail(Class::OutOfRange, base, "status"),
    };
    let zero = r.flag("zeroEstimate")?;
    if zero != zero_expected {
        return fail(Class::EngineMismatch, base + 1, "zeroEstimate");
    }
    let mut ends = [0u32; 2];
    for (e, name) in ends.iter_mut().zip(["start", "goal"]) {
        let at = r.pos;
        let v = r.i32(name)?;
        if v < 0 || v as usize >= n {
            return fail(Class::IndexOutOfRange, at, name);
        }
        *e = v as u32;
    }
    let expanded = r.i32("expanded")?;
    if expanded < 0 {
        return fail(Class::OutOfRange, base + 10, "expanded");
    }
    let iterations = r.i32("iterations")?;
    if iterations < 0 || expanded > iterations {
        return fail(Class::OutOfRange, base + 14, "iterations");
    }
    let found = status == SearchStatus::Found;
    let mut path = [0u32; 2];
    for (p, name) in path.iter_mut().zip(["pathA", "pathB"]) {
        let at = r.pos;
        let v = r.i32(name)?;
        if (found && v < 0) || (!found && v != -1) {
            return fail(Class::OutOfRange, at, name);
        }
        *p = v as u32;
    }
    Ok(Fixed {
        base,
        status,
        start: ends[0],
        goal: ends[1],
        expanded: expanded as u64,
        iterations: iterations as u64,
        path: (path[0], path[1]),
    })
}

/// [GS.STATE.MODE1.CHECKS] A visited cell's `cell, a, b`: range, increasing, passable, pairs.
pub(crate) fn read_cell(
    r: &mut Reader<'_>,
    ctx: &Ctx<'_>,
    prev: &mut Option<u32>,
) -> Result<(u32, u32, u32), Fault> {
    let at = r.pos;
    let c = r.i32("cell")?;
    if c < 0 || c as usize >= ctx.n {
        return fail(Class::IndexOutOfRange, at, "cell");
    }
    let c = c as u32;
    if prev.is_some_and(|p| c <= p) {
        return fail(Class::NotIncreasing, at, "cell");
    }
    *prev = Some(c);
    if !ctx.passable(c) {
        return fail(Class::NotWalkable, at, "cell");
    }
    let mut ab = [0u32; 2];
    for (v, name) in ab.iter_mut().zip(["a", "b"]) {
        let at = r.pos;
        let x = r.i32(name)?;
        if x < 0 {
            return fail(Class::OutOfRange, at, name);
        }
        *v = x as u32;
    }
    Ok((c, ab[0], ab[1]))
}

/// [GS.STATE.MODE1.CHECKS] pass (3): iterations = closed cells, expanded = iterations (- 1).
pub(crate) fn check_counters(f: &Fixed, closed: u64) -> Result<(), Fault> {
    if f.iterations != closed {
        return fail(Class::OutOfRange, f.base + 14, "iterations");
    }
    let want = f.iterations as i64 - (f.status == SearchStatus::Found) as i64;
    if f.expanded as i64 != want {
        return fail(Class::OutOfRange, f.base + 10, "expanded");
    }
    Ok(())
}
