//! Mode-3 state bytes of `GridSearch`: [GS.STATE.MODE3], [GS.STATE.MODE3.CHECKS],
//! [GS.STATE.WRITE], [GS.STATE.RESTORE].

use super::ctx::{dir_index, octile_pair, Ctx, NONE};
use super::special_astar::{check_counters, read_cell, read_fixed, write_fixed};
use super::special_jump::{precedes, JCell, SpecJ, LEVEL_NAN};
use crate::astar::SearchStatus;
use crate::wire::{fail, Class, Fault, Put, Reader};

/// Temporary flag bit: the cell has an open entry (bits 4-7 are zero in valid states).
const HAS_ENTRY: u8 = 0x80;

impl SpecJ {
    /// [GS.STATE.MODE3] [GS.STATE.WRITE] The payload after the kind-12 header fields.
    pub fn save(&self, ctx: &Ctx<'_>, out: &mut Vec<u8>) {
        out.put_u8(self.finder);
        let found = (self.status == SearchStatus::Found).then(|| self.goal_pair(ctx));
        write_fixed(
            out,
            self.status,
            false,
            (self.start, self.goal),
            (self.expanded, self.iterations),
            found,
        );
        // The visit set holds exactly the stamped padded cells; padded order is cell order.
        let visited = self.visits.count();
        out.put_i32(visited as i32);
        let at = out.len();
        out.resize(at + 17 * visited, 0);
        let mut chunks = out[at..].chunks_exact_mut(17);
        self.visits.for_each(|p| {
            let c = self.cells[p];
            if let Some(o) = chunks.next() {
                let parent = if c.parent == NONE {
                    u32::MAX
                } else {
                    ctx.cell(c.parent as usize)
                };
                o[0..4].copy_from_slice(&ctx.cell(p).to_le_bytes());
                o[4..8].copy_from_slice(&c.a.to_le_bytes());
                o[8..12].copy_from_slice(&c.b.to_le_bytes());
                o[12..16].copy_from_slice(&parent.to_le_bytes());
                o[16] = c.flags;
            }
        });
        if self.level.is_nan() {
            out.put_u64(LEVEL_NAN);
        } else {
            out.put_f64(self.level);
        }
        out.put_i32(self.heap.len() as i32);
        for &(f, t) in &self.heap {
            out.put_f64(f);
            out.put_u64(t);
        }
        out.put_i32(self.stack.len() as i32);
        for &p in &self.stack {
            out.put_i32(ctx.cell(p as usize) as i32);
        }
    }

    /// [GS.STATE.MODE3.CHECKS] [GS.STATE.RESTORE] Reads the payload at `r` (the finder byte,
    /// offset 17) through the trailing check; `finder` is the selected finder.
    pub fn restore(
        &mut self,
        ctx: &Ctx<'_>,
        bytes: &[u8],
        r: &mut Reader<'_>,
    ) -> Result<(), Fault> {
        self.clear();
        let at = r.pos;
        let finder = r.u8("finder")?;
        if finder > 1 {
            return fail(Class::OutOfRange, at, "finder");
        }
        if finder != self.finder {
            return fail(Class::EngineMismatch, at, "finder");
        }
        let f = read_fixed(r, ctx.n, false)?;
        let count = r.count(ctx.n, 17, "visited")?;
        let first = r.pos;
        let epoch = self.epoch;
        let mut prev: Option<u32> = None;
        for _ in 0..count {
            let (c, a, b) = read_cell(r, ctx, &mut prev)?;
            let at = r.pos;
            let parent = r.i32("parent")?;
            if parent < -1 || (parent >= 0 && parent as usize >= ctx.n) {
                return fail(Class::IndexOutOfRange, at, "parent");
            }
            let at = r.pos;
            let flags = r.u8("flags")?;
            if flags & 0xF0 != 0 {
                return fail(Class::BadFlag, at, "flags");
            }
            self.cells[ctx.pad(c)] = JCell {
                stamp: epoch,
                a,
                b,
                parent: if parent < 0 {
                    NONE
                } else {
                    ctx.pad(parent as u32) as u32
                },
                flags,
            };
            self.visits.insert(ctx.pad(c));
        }
        let level_at = r.pos;
        let bits = r.u64("level")?;
        let level = f64::from_bits(bits);
        if level.is_nan() && bits != LEVEL_NAN {
            return fail(Class::Nan, level_at, "level");
        }
        if level.is_infinite() {
            return fail(Class::OutOfRange, level_at, "level");
        }
        let heap_at = r.pos;
        let hc = r.count(usize::MAX, 16, "heapCount")?;
        self.heap.reserve(hc);
        for _ in 0..hc {
            let at = r.pos;
            let fv = r.f64("F")?;
            if fv.is_infinite() {
                return fail(Class::OutOfRange, at, "F");
            }
            let at = r.pos;
            let t = r.u64("T")?;
            let c = t as u32;
            // [GS.STATE.MODE3.CHECKS]: bad_heap_node is reported at the slot's T field.
            if c as usize >= ctx.n || self.cells[ctx.pad(c)].stamp != epoch {
                return fail(Class::BadHeapNode, at, "T");
            }
            self.cells[ctx.pad(c)].flags |= HAS_ENTRY;
            self.heap.push((fv, t));
        }
        for i in 1..self.heap.len() {
            if precedes(self.heap[i], self.heap[(i - 1) / 2]) {
                return fail(Class::HeapOrder, heap_at + 4 + 16 * i, "F");
            }
        }
        let sc = r.count(usize::MAX, 4, "stackCount")?;
        self.stack.reserve(sc);
        for _ in 0..sc {
            let at = r.pos;
            let c = r.i32("stack cell")?;
            if c < 0 || c as usize >= ctx.n || self.cells[ctx.pad(c as u32)].stamp != epoch {
                return fail(Class::BadHeapNode, at, "stack cell");
            }
            let p = ctx.pad(c as u32);
            self.cells[p].flags |= HAS_ENTRY;
            self.stack.push(p as u32);
        }
        self.cross_checks(ctx, bytes, &f, first, count, level, level_at, heap_at)?;
        r.finish()?;
        for k in 0..count {
            let p = ctx.pad(cell_at(bytes, first, k).1);
            self.cells[p].flags &= !HAS_ENTRY;
        }
        self.status = f.status;
        self.start = f.start;
        self.goal = f.goal;
        self.iterations = f.iterations;
        self.expanded = f.expanded;
        self.level = level;
        Ok(())
    }

    /// [GS.STATE.MODE3.CHECKS] Cross-check passes (1) .. (7).
    #[allow(clippy::too_many_arguments)]
    fn cross_checks(
        &self,
        ctx: &Ctx<'_>,
        bytes: &[u8],
        f: &super::special_astar::Fixed,
        first: usize,
        count: usize,
        level: f64,
        level_at: usize,
        heap_at: usize,
    ) -> Result<(), Fault> {
        let epoch = self.epoch;
        let cells = || (0..count).map(|k| cell_at(bytes, first, k));
        // (1) the start rule.
        if count > 0 {
            let s = self.cells[ctx.pad(f.start)];
            if s.stamp != epoch {
                return fail(Class::BadParent, f.base + 2, "start");
            }
            for (at, c) in cells() {
                let cell = self.cells[ctx.pad(c)];
                let bad = if c == f.start {
                    cell.a != 0
                        || cell.b != 0
                        || cell.parent != NONE
                        || (f.iterations != 0 && cell.flags & 1 == 0)
                } else {
                    cell.parent == NONE
                };
                if bad {
                    return fail(Class::BadParent, at, "cell");
                }
            }
        }
        // (2) hops.
        for (at, c) in cells() {
            if c == f.start {
                continue;
            }
            let cell = self.cells[ctx.pad(c)];
            let par = self.cells[cell.parent as usize];
            let (xc, yc) = ctx.xy(c);
            let (xp, yp) = ctx.pxy(cell.parent as usize);
            let (dx, dy) = (xc as i64 - xp as i64, yc as i64 - yp as i64);
            let shape = (dx != 0 || dy != 0) && (dx == 0 || dy == 0 || dx.abs() == dy.abs());
            let (ha, hb) = octile_pair(xc.abs_diff(xp), yc.abs_diff(yp));
            let ok = shape
                && par.stamp == epoch
                && par.flags & 1 != 0
                && par.a as u64 + ha as u64 == cell.a as u64
                && par.b as u64 + hb as u64 == cell.b as u64
                && (cell.flags >> 1) & 7 == dir_index(dx.signum() as i32, dy.signum() as i32) as u8;
            if !ok {
                return fail(Class::BadParent, at, "cell");
            }
        }
        // (3) counters.
        let closed = cells()
            .filter(|&(_, c)| self.cells[ctx.pad(c)].flags & 1 != 0)
            .count() as u64;
        check_counters(f, closed)?;
        // (4) the goal.
        let g = self.cells[ctx.pad(f.goal)];
        let goal_closed = g.stamp == epoch && g.flags & 1 != 0;
        let found = f.status == SearchStatus::Found;
        if goal_closed != found || (found && (g.a != f.path.0 || g.b != f.path.1)) {
            return fail(Class::OutOfRange, f.base + 18, "pathA");
        }
        // (5) level.
        if level.is_nan() != (f.iterations == 0) {
            return fail(Class::OutOfRange, level_at, "level");
        }
        // (6) open cells have entries.
        for (at, c) in cells() {
            let fl = self.cells[ctx.pad(c)].flags;
            if fl & 1 == 0 && fl & HAS_ENTRY == 0 {
                return fail(Class::MissingOpenNode, at, "cell");
            }
        }
        // (7) NotFound has no entries.
        if f.status == SearchStatus::NotFound && (!self.heap.is_empty() || !self.stack.is_empty()) {
            return fail(Class::OutOfRange, heap_at, "heapCount");
        }
        Ok(())
    }
}

/// `(offset, cell)` of the `k`-th visited entry (17 bytes each).
fn cell_at(bytes: &[u8], first: usize, k: usize) -> (usize, u32) {
    let at = first + 17 * k;
    (
        at,
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]),
    )
}
