//! The specialised A* engine, `GridSearch` mode 1 ([GS.SA.PAIRS] .. [GS.SA.DIRECTION]) and its
//! state ([GS.STATE.MODE1], [GS.STATE.MODE1.CHECKS]). Costs are exact integer pairs; the open
//! list is a 4-ary heap with lazy deletion of `u128` keys, exact fixed-point images of the
//! pairs ([`Layout`]), on every grid but very thin long ones; those use a 4-ary heap keyed by
//! the pairs' f64 values, falling back to the exact pair comparison of [GS.COST.PAIR] on near
//! ties. Either way pops follow [GS.SA.ORDER] exactly.

use super::ctx::{octile_pair, pair_f64, pair_less, Ctx, DX, DY};
use super::generic_state::wide;
use crate::astar::SearchStatus;
use crate::visit_set::VisitSet;
use crate::wire::{fail, Class, Fault, Put, Reader};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

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

/// `floor(√2 · 2^62)`: `S62² <= 2^125 < (S62 + 1)²` (checked by a test), so
/// `√2 · 2^62 - 1 < S62 < √2 · 2^62` (√2 is irrational).
const S62: u64 = 0x5a82_7999_fcef_3242;

/// The fixed-point key `K_k(a, b) = a · 2^k + floor(b · S62 / 2^(62 - k))` of the pair `(a, b)`
/// (`k <= 62`; the caller's [`Layout`] guarantees the sum fits in 64 bits).
///
/// Writing `v = a + b√2`: `b · S62 / 2^(62 - k) = b√2 · 2^k - b (√2 · 2^62 - S62) / 2^(62 - k)`,
/// so `K_k(a, b) = v · 2^k - δ` with `0 <= δ < 1 + b / 2^(62 - k)` (the second term is in
/// `[0, b / 2^(62 - k))`, the floor takes off less than 1 more). In particular `K_k(a, b) <=
/// v · 2^k`, and equal pairs have equal keys. See [`Layout::scale`] for the order. (The mask
/// `& 63` changes nothing, `62 - k` being below 64; it spares the u128 shift's case of 64 or
/// more.)
#[inline(always)]
fn fix(a: u32, b: u32, k: u32) -> u64 {
    ((a as u64) << k) + ((b as u128 * S62 as u128) >> ((62 - k) & 63)) as u64
}

/// An integer upper bound of `b√2` (`b < 2^62`): `b√2 < (b · S62 + b) / 2^62 <
/// floor(b · S62 / 2^62) + 2`.
fn up(b: u64) -> u64 {
    ((b as u128 * S62 as u128) >> 62) as u64 + 2
}

/// Bits needed to hold `x`.
fn bits(x: u128) -> u32 {
    128 - x.leading_zeros()
}

/// Bounds of a class of pairs `(a, b)`: `a <= a_max`, `b <= b_max` and `a + b√2 <= v_max`.
#[derive(Clone, Copy, Debug)]
struct Bound {
    a_max: u64,
    b_max: u64,
    v_max: u64,
}

/// The bit layout of the fast open list's `u128` keys ([`SpecA::fheap`]):
/// `K_kf(f) << (hbits + cbits) | K_kh(h) << cbits | padded cell`, where `h = f - g` is the
/// entry's estimate pair (see [`fix`]).
///
/// Order: an entry is `(f, g, cell)` with `f = g + h` componentwise ([`SpecA::push`]).
/// [`Layout::scale`] makes `K_kf` strictly increasing in the real value of f and `K_kh` in that
/// of h, equal pairs giving equal keys, and each field fits its width, so comparing keys compares
/// f first; on equal f pairs it compares h, and for equal f, `h1 < h2` exactly when
/// `g1 = f - h1 > g2 = f - h2` (equal h pairs exactly when equal g pairs); then the padded cell,
/// whose order is the cell order. That is [GS.SA.ORDER] (smaller f, larger g, smaller cell).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Layout {
    /// Scale of the f field.
    kf: u32,
    /// Scale of the h field.
    kh: u32,
    /// Shift of the f field: `hbits + cbits`.
    fshift: u32,
    /// Shift of the h field: `cbits` (below 64).
    hshift: u32,
    /// `2^cbits - 1`.
    cmask: u64,
}

impl Layout {
    /// The scale `k` of the keys of a class of pairs and the width of its field, or `None`
    /// when the proof below does not apply (never for a grid of at most 2^26 cells).
    ///
    /// With `D = a_max + up(b_max) >= a_max + b_max√2`, two different pairs `x < y` of the
    /// class differ by `y - x = p + q√2` with integers `|p| <= a_max`, `|q| <= b_max`, not both 0:
    /// if `q = 0` it is at least 1, if `p = 0` at least √2, else `|p² - 2q²| >= 1` (√2 is
    /// irrational) gives `|p + q√2| >= 1 / |p - q√2| >= 1 / (|p| + |q|√2)`; so always
    /// `y - x >= 1 / D`. Take the smallest `k` with `2^k >= 2D` and require `b_max · D <= 2^60`
    /// and `k <= 62`. Then by [`fix`], `K(y) - K(x) = (y - x) 2^k - δ_y + δ_x > 2^k / D - 1 -
    /// b_max · 2^k / 2^62 = (2^k / D)(1 - b_max · D / 2^62) - 1 >= 2 · 3/4 - 1 > 0`. The keys
    /// are at most `v_max · 2^k`, so the field is `bits(v_max · 2^k)` wide (at most 64).
    fn scale(c: Bound) -> Option<(u32, u32)> {
        let d = c.a_max.checked_add(up(c.b_max))?;
        let k = bits(2 * d as u128 - 1);
        if k > 62 || (c.b_max as u128) * (d as u128) > 1u128 << 60 {
            return None;
        }
        let width = bits((c.v_max as u128) << k);
        (width <= 64).then_some((k, width))
    }

    /// The layout for a `w x h` grid (`n = w * h` cells, `padded` padded cells) with `nd`
    /// directions and the zero estimate or not; `None` when the three fields do not fit in 128
    /// bits, and the engine then uses the exact open list [`SpecA::heap`].
    ///
    /// Bounds. g: every g is the pair of a chain of distinct cells back to the start, one step
    /// per cell (a search sets `g = g(parent) + step` with the parent closed, so fixed; a
    /// restored state is checked to be such by [GS.STATE.MODE1.CHECKS] (1) and (2), whatever
    /// its directions), so `a + b <= n - 1` and `a + b√2 <= (n - 1)√2`. h ([`SpecA::hpair`],
    /// `dx < w`, `dy < h`): zero `(0, 0)`; 4 directions `(dx + dy, 0)`; 8 directions
    /// `(hi - lo, lo)` with `hi <= max(w, h) - 1 = X`, `lo <= min(w, h) - 1 = m`, of value
    /// `hi + lo(√2 - 1) <= X - m + m√2`. f = g + h componentwise. (The weight is 1: mode 1
    /// is never selected with another, [GS.HANDLE.SELECT].)
    ///
    /// Fit (checked by the tests): `8192²` with 8 directions needs 56 + 30 + 27 = 113 bits
    /// (112 with 4 directions, 83 with the zero estimate, whose h field is empty). Every grid
    /// with `min(w, h) >= 17` fits, and every zero-estimate grid; the exact open list is left
    /// only to thin long grids searched with an estimate, `min(w, h) <= 16` and `max(w, h) >
    /// 4194282`, so of at least `2^24 - 1` cells (the longest that fit: `1 x 16777214` with 8
    /// directions, `1 x 16777215` with 4, `2 x 11514060`, `16 x 4194282`).
    fn new(w: usize, h: usize, nd: usize, zero: bool, padded: usize) -> Option<Layout> {
        let (f, e) = Layout::classes(w, h, nd, zero);
        let (kf, fbits) = Layout::scale(f)?;
        let (kh, hbits) = Layout::scale(e)?;
        let cbits = bits(padded as u128 - 1);
        (fbits + hbits + cbits <= 128 && cbits < 64).then_some(Layout {
            kf,
            kh,
            fshift: hbits + cbits,
            hshift: cbits,
            cmask: (1u64 << cbits) - 1,
        })
    }

    /// The f and estimate classes of [`Layout::new`].
    fn classes(w: usize, h: usize, nd: usize, zero: bool) -> (Bound, Bound) {
        let (w, h, n) = (w as u64, h as u64, (w * h) as u64);
        let g = Bound {
            a_max: n - 1,
            b_max: n - 1,
            v_max: up(n - 1),
        };
        let e = if zero {
            Bound {
                a_max: 0,
                b_max: 0,
                v_max: 0,
            }
        } else if nd == 4 {
            Bound {
                a_max: w + h - 2,
                b_max: 0,
                v_max: w + h - 2,
            }
        } else {
            let (x, m) = (w.max(h) - 1, w.min(h) - 1);
            Bound {
                a_max: x,
                b_max: m,
                v_max: x - m + up(m),
            }
        };
        let f = Bound {
            a_max: g.a_max + e.a_max,
            b_max: g.b_max + e.b_max,
            v_max: g.v_max + e.v_max,
        };
        (f, e)
    }

    /// The key of an entry with f pair `(fa, fb)`, estimate pair `(ha, hb)` and padded cell `p`
    /// (the mask `& 63` changes nothing, `hshift` being below 64).
    #[inline(always)]
    fn key(&self, fa: u32, fb: u32, ha: u32, hb: u32, p: usize) -> u128 {
        (fix(fa, fb, self.kf) as u128) << self.fshift
            | (fix(ha, hb, self.kh) as u128) << (self.hshift & 63)
            | p as u128
    }
}

// The proofs' checks and the fast list against the exact one on large grids.
#[cfg(test)]
mod tests;

/// The mode-1 engine.
pub(crate) struct SpecA {
    cells: Vec<ACell>,
    epoch: u32,
    /// Exactly the padded cells whose `stamp` is the epoch (what a save walks).
    visits: VisitSet,
    /// Exact open list, for the grids whose keys do not fit [`Layout`] (very thin long grids
    /// only, see [`Layout::new`]).
    heap: Vec<AEntry>,
    /// Fast open list: integer keys of [`Layout`], whose order is [GS.SA.ORDER] exactly.
    fheap: Vec<u128>,
    /// The fast keys' layout (meaningful when `fast`).
    layout: Layout,
    /// Whether the fast open list is used: the grid's [`Layout`] fits in 128 bits.
    fast: bool,
    /// Per padded cell: bit `d` set when the move in direction `d` is allowed
    /// ([GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL]; mode 1 has no `blocked` hook).
    moves: Arc<Vec<u8>>,
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
    /// A mode-1 engine over `ctx`: the move masks come from the grid's cache and the cell
    /// array from its scratch pool when one is free ([`super::cache`]).
    pub fn new(ctx: &Ctx<'_>, zero: bool) -> SpecA {
        let len = ctx.pass.len();
        let o = &ctx.opts;
        let cache = ctx.grid.derived();
        let moves = cache.moves(o.agent_size, o.connectivity, o.diagonal, &ctx.pass, ctx.pw);
        let layout = Layout::new(ctx.w, ctx.h, ctx.nd, zero, len);
        let mut e = cache.take_spec_a(len).unwrap_or_else(|| SpecA::empty(len));
        e.moves = moves;
        e.layout = layout.unwrap_or_default();
        e.fast = layout.is_some();
        e.zero = zero;
        e.clear();
        e.start = 0;
        e.goal = 0;
        e.goal_xy = (0, 0);
        e
    }

    /// An engine of `len` padded cells with nothing visited and no move masks.
    pub fn empty(len: usize) -> SpecA {
        SpecA {
            cells: vec![ACell::default(); len],
            epoch: 0,
            visits: VisitSet::with_len(len),
            heap: Vec::new(),
            fheap: Vec::new(),
            layout: Layout::default(),
            fast: false,
            moves: Arc::default(),
            record: Vec::new(),
            status: SearchStatus::NotStarted,
            zero: false,
            start: 0,
            goal: 0,
            goal_xy: (0, 0),
            iterations: 0,
            expanded: 0,
        }
    }

    /// The padded cell count.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Drops the shared move masks (before the engine goes back to the pool).
    pub fn unshare(&mut self) {
        self.moves = Arc::default();
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
            let e = self.layout.key(fa, fb, ha, hb, p);
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
        (top as u64 & self.layout.cmask) as usize
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
    /// Fast list: an entry is stale exactly when its cell is closed. Pushes happen only on a
    /// strict improvement of g (so of f, the estimate being fixed per cell; a restore pushes
    /// one entry per open cell), and the f field of a [`Layout`] key is strictly increasing in
    /// f, so a cell's newest entry (the one with its current g) precedes its older ones and
    /// closes it before they reach the top.
    #[inline(always)]
    fn settle(&mut self) -> Option<usize> {
        if self.fast {
            while let Some(&e) = self.fheap.first() {
                let p = (e as u64 & self.layout.cmask) as usize;
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
        // The open list is rebuilt in the same pass as the parent checks (one walk over the
        // cells); a later failure clears it with the rest ([GS.STATE.FAILED]).
        self.goal_xy = ctx.xy(f.goal);
        let mut closed = 0u64;
        for k in 0..count {
            let c = cell_of(k);
            let p = ctx.pad(c);
            let cell = self.cells[p];
            closed += (cell.flags & 1) as u64;
            if cell.flags & 1 == 0 {
                let (x, y) = ctx.pxy(p);
                self.push(ctx, p, x, y, cell.a, cell.b);
            }
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
