//! The specialised jump point engine, `GridSearch` mode 3: [GS.SJ.CELLS], [GS.SJ.OPEN],
//! [GS.SJ.PUSH], [GS.SJ.SETTLE], [GS.SJ.STEP], [GS.SJ.DIRECTION], [GS.SJ.BEGIN]. The (F, T) heap
//! follows [STATE.HEAP.ARRAY] .. [STATE.HEAP.POP] exactly (it is saved as it lies).

use super::bitjump::Bits;
use super::ctx::{octile_pair, pair_f64, pair_less, Ctx, NONE};
use super::jps_plus::Tables;
use super::jump::Jumper;
use crate::astar::SearchStatus;
use crate::visit_set::VisitSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// [GS.STATE.WRITE] The canonical NaN of an unpopped level.
pub(crate) const LEVEL_NAN: u64 = 0x7FF8_0000_0000_0000;

/// Per padded cell, valid when `stamp` is the epoch.
#[derive(Clone, Copy, Default)]
pub(crate) struct JCell {
    pub stamp: u32,
    pub a: u32,
    pub b: u32,
    /// Padded parent, `NONE` for the start.
    pub parent: u32,
    /// Bit 0 closed, bits 1-3 the direction of the last move in ([GS.SJ.CELLS]).
    pub flags: u8,
}

/// [GS.SJ.OPEN] `a` precedes `b`: smaller F, then smaller T.
#[inline(always)]
pub(crate) fn precedes(a: (f64, u64), b: (f64, u64)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// [GS.SJ.OPEN] The T key of a pair with f64 value `gf` at cell `c`.
#[inline(always)]
pub(crate) fn t_key(gf: f64, c: u32) -> u64 {
    ((!(gf as f32).to_bits()) as u64) << 32 | c as u64
}

/// The mode-3 engine.
pub(crate) struct SpecJ {
    pub cells: Vec<JCell>,
    pub epoch: u32,
    /// Exactly the padded cells whose `stamp` is the epoch (what a save walks).
    pub visits: VisitSet,
    pub level: f64,
    pub heap: Vec<(f64, u64)>,
    /// Padded cells of the current level.
    pub stack: Vec<u32>,
    pub record: Vec<u32>,
    pub status: SearchStatus,
    pub finder: u8,
    pub start: u32,
    pub goal: u32,
    pub iterations: u64,
    pub expanded: u64,
    /// [GS.JUMP.TABLES] Finder 1's tables, from the grid's cache at the first search.
    tables: Option<Arc<Tables>>,
    /// Finder 0's block scan masks, from the grid's cache at the first search.
    bits: Option<Arc<Bits>>,
    /// Keeps the table reads of [`Tables::touch`].
    sink: i32,
}

impl SpecJ {
    /// A mode-3 engine over `ctx`, its cell array from the grid's scratch pool when one is
    /// free ([`super::cache`]).
    pub fn new(ctx: &Ctx<'_>, finder: u8) -> SpecJ {
        let len = ctx.pass.len();
        let mut e = ctx
            .grid
            .derived()
            .take_spec_j(len)
            .unwrap_or_else(|| SpecJ::empty(len));
        e.finder = finder;
        e.clear();
        e.start = 0;
        e.goal = 0;
        e
    }

    /// An engine of `len` padded cells with nothing visited and no tables.
    pub fn empty(len: usize) -> SpecJ {
        SpecJ {
            cells: vec![JCell::default(); len],
            epoch: 0,
            visits: VisitSet::with_len(len),
            level: f64::from_bits(LEVEL_NAN),
            heap: Vec::new(),
            stack: Vec::new(),
            record: Vec::new(),
            status: SearchStatus::NotStarted,
            finder: 0,
            start: 0,
            goal: 0,
            iterations: 0,
            expanded: 0,
            tables: None,
            bits: None,
            sink: 0,
        }
    }

    /// Drops the shared tables and masks (before the engine goes back to the pool).
    pub fn unshare(&mut self) {
        self.tables = None;
        self.bits = None;
    }

    /// [GS.SJ.BEGIN] Every cell unvisited, counters, recorded list, level, heap and stack reset.
    pub fn reset(&mut self) {
        self.heap.clear();
        self.stack.clear();
        self.record.clear();
        self.visits.clear();
        self.level = f64::from_bits(LEVEL_NAN);
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

    /// [STATE.HEAP.PUSH] [STATE.HEAP.UP]
    fn heap_push(&mut self, e: (f64, u64)) {
        let mut i = self.heap.len();
        self.heap.push(e);
        while i > 0 {
            let p = (i - 1) / 2;
            if !precedes(self.heap[i], self.heap[p]) {
                break;
            }
            self.heap.swap(i, p);
            i = p;
        }
    }

    /// [STATE.HEAP.POP] [STATE.HEAP.DOWN]
    fn heap_pop(&mut self) -> (f64, u64) {
        let top = self.heap[0];
        let last = self.heap.pop().expect("non-empty");
        let n = self.heap.len();
        if n > 0 {
            self.heap[0] = last;
            let mut i = 0;
            loop {
                let mut c = 2 * i + 1;
                if c >= n {
                    break;
                }
                if c + 1 < n && precedes(self.heap[c + 1], self.heap[c]) {
                    c += 1;
                }
                if precedes(self.heap[c], self.heap[i]) {
                    self.heap.swap(c, i);
                    i = c;
                } else {
                    break;
                }
            }
        }
        top
    }

    /// [GS.SJ.PUSH] Onto the stack when `F == level`, else onto the heap.
    fn push(&mut self, ctx: &Ctx<'_>, p: usize, goal_xy: (u32, u32)) {
        let c = self.cells[p];
        let gf = pair_f64(c.a, c.b);
        let (x, y) = ctx.pxy(p);
        let (ha, hb) = octile_pair(x.abs_diff(goal_xy.0), y.abs_diff(goal_xy.1));
        let f = gf + pair_f64(ha, hb);
        if f == self.level {
            self.stack.push(p as u32);
        } else {
            self.heap_push((f, t_key(gf, ctx.cell(p))));
        }
    }

    /// [GS.SJ.SETTLE] Drops stale stack tops and stale heap tops (setting the level).
    fn settle(&mut self, ctx: &Ctx<'_>) {
        loop {
            if let Some(&top) = self.stack.last() {
                if self.cells[top as usize].flags & 1 != 0 {
                    self.stack.pop();
                    continue;
                }
                return;
            }
            let Some(&(f, t)) = self.heap.first() else {
                return;
            };
            let c = self.cells[ctx.pad(t as u32)];
            let stale = c.flags & 1 != 0 || (t >> 32) != t_key(pair_f64(c.a, c.b), 0) >> 32;
            if !stale {
                return;
            }
            self.heap_pop();
            self.level = f;
        }
    }

    /// [GS.SJ.BEGIN] Resets; an impassable start or goal ends NotFound with nothing visited;
    /// else the start is visited with (0, 0) and pushed.
    pub fn begin(&mut self, ctx: &Ctx<'_>, start: u32, goal: u32) {
        self.reset();
        self.start = start;
        self.goal = goal;
        self.status = SearchStatus::Running;
        if !ctx.passable(start) || !ctx.passable(goal) {
            self.status = SearchStatus::NotFound;
            return;
        }
        let p = ctx.pad(start);
        self.cells[p] = JCell {
            stamp: self.epoch,
            a: 0,
            b: 0,
            parent: NONE,
            flags: 0,
        };
        self.visits.insert(p);
        self.push(ctx, p, ctx.xy(goal));
    }

    /// [GS.SJ.STEP] [GRAPH.ASTAR.RUN] The sliced loop (finder 1 builds its tables first).
    pub fn advance(
        &mut self,
        ctx: &Ctx<'_>,
        max: u64,
        cancel: Option<&AtomicBool>,
    ) -> SearchStatus {
        if self.status != SearchStatus::Running {
            return self.status;
        }
        let agent = ctx.opts.agent_size;
        let cache = ctx.grid.derived();
        if self.finder == 1 && self.tables.is_none() {
            self.tables = Some(cache.tables(agent, &ctx.pass, ctx.pw));
        }
        if self.finder == 0 && self.bits.is_none() {
            self.bits = Some(cache.bits(agent, &ctx.pass, ctx.pw));
        }
        // Shared handles (a reference count each); the empty ones allocate nothing.
        let (tables, bits) = (self.tables.clone(), self.bits.clone());
        let (no_tables, no_bits) = (Tables::default(), Bits::default());
        let t = tables.as_deref().unwrap_or(&no_tables);
        let b = bits.as_deref().unwrap_or(&no_bits);
        self.advance_with(ctx, max, cancel, t, b)
    }

    fn advance_with(
        &mut self,
        ctx: &Ctx<'_>,
        max: u64,
        cancel: Option<&AtomicBool>,
        tables: &Tables,
        bits: &Bits,
    ) -> SearchStatus {
        let plus = self.finder == 1;
        let goal = ctx.pad(self.goal);
        let goal_xy = ctx.xy(self.goal);
        let goal_pxy = (goal_xy.0 as usize + 1, goal_xy.1 as usize + 1);
        let epoch = self.epoch;
        let pass = &ctx.pass;
        let jumper = Jumper {
            pass,
            pw: ctx.pw as isize,
            goal,
        };
        let mut done = 0u64;
        let mut dirs = [0u8; 8];
        let mut sink = 0i32;
        loop {
            self.sink = self.sink.wrapping_add(sink);
            self.settle(ctx);
            if self.stack.is_empty() && self.heap.is_empty() {
                self.status = SearchStatus::NotFound;
                return self.status;
            }
            if let Some(flag) = cancel {
                if done.is_multiple_of(256) && flag.load(Ordering::Relaxed) {
                    return SearchStatus::Running;
                }
            }
            if done == max {
                return SearchStatus::Running;
            }
            let pc = match self.stack.pop() {
                Some(p) => p as usize,
                None => {
                    let (f, t) = self.heap_pop();
                    self.level = f;
                    ctx.pad(t as u32)
                }
            };
            done += 1;
            self.iterations += 1;
            self.cells[pc].flags |= 1;
            if pc == goal {
                self.status = SearchStatus::Found;
                return self.status;
            }
            self.expanded += 1;
            if ctx.opts.record_expansions {
                self.record.push(ctx.cell(pc));
            }
            let c = self.cells[pc];
            let by = if c.parent == NONE {
                None
            } else {
                Some((c.flags >> 1) as usize)
            };
            let (xc, yc) = ctx.pxy(pc);
            let k = jumper.directions(pc, by, &mut dirs);
            // The jumps first, then every jump point's cell read before any is used (their
            // reads overlap), then the successors in direction order (distinct rays end at
            // distinct cells, so the reads stay valid).
            let mut js = [(0u8, 0u32); 8];
            let mut m = 0;
            for &d in &dirs[..k] {
                let jumped = if plus {
                    tables.jump(pc, d as usize, goal)
                } else {
                    let cxy = (xc as usize + 1, yc as usize + 1);
                    bits.jump(pass, pc, cxy, d as usize, goal, goal_pxy)
                };
                if let Some(j) = jumped {
                    js[m] = (d, j as u32);
                    m += 1;
                }
            }
            let mut seen = [JCell::default(); 8];
            for (s, &(_, j)) in seen.iter_mut().zip(&js[..m]) {
                *s = self.cells[j as usize];
            }
            for (&(d, j), &cj) in js[..m].iter().zip(&seen[..m]) {
                let j = j as usize;
                let (xj, yj) = ctx.pxy(j);
                let (ha, hb) = octile_pair(xc.abs_diff(xj), yc.abs_diff(yj));
                let (ga, gb) = (c.a + ha, c.b + hb);
                if cj.stamp == epoch && (cj.flags & 1 != 0 || !pair_less(ga, gb, cj.a, cj.b)) {
                    continue;
                }
                if cj.stamp != epoch {
                    self.visits.insert(j);
                }
                self.cells[j] = JCell {
                    stamp: epoch,
                    a: ga,
                    b: gb,
                    parent: pc as u32,
                    flags: d << 1,
                };
                self.push(ctx, j, goal_xy);
                if plus {
                    // Reads j's table row now (used when j is expanded); the read overlaps.
                    sink ^= tables.touch(j);
                }
            }
        }
    }

    /// [GS.JUMP.PATH] Every cell from the start to the goal.
    pub fn path(&self, ctx: &Ctx<'_>) -> Vec<u32> {
        if self.status != SearchStatus::Found {
            return Vec::new();
        }
        let mut chain = Vec::new();
        let mut p = ctx.pad(self.goal) as u32;
        while p != NONE && chain.len() <= ctx.n {
            chain.push(ctx.cell(p as usize));
            p = self.cells[p as usize].parent;
        }
        chain.reverse();
        super::jump::fill_path(ctx, &chain)
    }

    /// The goal's pair.
    pub fn goal_pair(&self, ctx: &Ctx<'_>) -> (u32, u32) {
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

    /// [GS.STATE.FAILED] Nothing visited, NotStarted.
    pub fn clear(&mut self) {
        self.reset();
        self.status = SearchStatus::NotStarted;
    }
}
