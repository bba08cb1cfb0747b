//! State bytes of the flow fields, kind 7 ([FLOW.STATE.HEADER], [FLOW.STATE.SEARCH]): canonical
//! saves ([FLOW.STATE.SAVE]) and restores read in place with the checks of
//! [FLOW.STATE.HEADER_CHECKS] and [FLOW.STATE.SEARCH_CHECKS] in byte order ([STATE.ORDER]).
//! A failed restore leaves the field newly created and unusable ([FLOW.STATE.UNUSABLE]).
//! Saves and resets walk the reached set, not the map; nothing is allocated beyond what the
//! input's counts (each bounded by the bytes left) justify.

use super::field::{Field, View, NONE};
use super::listen::lock;
use super::open::{precedes, Entry};
use super::FlowStatus;
use crate::wire::{fail, Class, Fault, Put, Reader, KIND_FLOW};

/// Bytes per reached cell (`i32, f64`), per step (`i32, i32`) and per heap slot.
const REACHED_BYTES: usize = 12;
const STEP_BYTES: usize = 8;
const SLOT_BYTES: usize = 20;

/// [FLOW.RUN.SETTLED] The u64 count as the format's i32 (`2^31 - 1` at most).
fn narrow(v: u64) -> i32 {
    v.min(i32::MAX as u64) as i32
}

impl Field {
    /// [FLOW.STATE.HEADER] [FLOW.STATE.SEARCH] [FLOW.STATE.SAVE] [STATE.API.INTO] Writes the
    /// state into `out` (cleared first, its allocation reused).
    pub fn save(&self, out: &mut Vec<u8>) {
        out.clear();
        out.put_header(KIND_FLOW);
        out.put_i32(self.w as i32);
        out.put_i32(self.h as i32);
        out.put_i32(self.area_version);
        out.put_i32(self.goals.len() as i32);
        for &g in &self.goals {
            out.put_i32(g as i32);
        }
        {
            let s = lock(&self.shared);
            out.put_i32(s.pending.len() as i32);
            for &p in &s.pending {
                out.put_i32(p as i32);
            }
        }
        out.put_i32(self.n as i32);
        out.put_u8(self.status as u8);
        out.put_i32(narrow(self.settled));
        out.put_u8(self.repairing as u8);
        out.put_i32(self.goal_set.len() as i32);
        for &g in &self.goal_set {
            out.put_i32(g as i32);
        }
        let at = out.len();
        out.put_i32(0);
        let mut count = 0i32;
        self.reached.for_each(|c| {
            let v = self.cost[c];
            if v != f64::INFINITY {
                out.put_i32(c as i32);
                out.put_f64(v);
                count += 1;
            }
        });
        out[at..at + 4].copy_from_slice(&count.to_le_bytes());
        let at = out.len();
        out.put_i32(0);
        let mut count = 0i32;
        if !self.provisional {
            self.reached.for_each(|c| {
                let s = self.step[c];
                if s != NONE {
                    out.put_i32(c as i32);
                    out.put_i32(s as i32);
                    count += 1;
                }
            });
        }
        out[at..at + 4].copy_from_slice(&count.to_le_bytes());
        out.put_i32(self.open.len() as i32);
        for i in 0..self.open.len() {
            let e = self.open.entry(i);
            out.put_i32(e.node as i32);
            out.put_f64(e.f);
            out.put_f64(e.g);
        }
        if self.repairing {
            out.put_i32(self.touched.len() as i32);
            for &t in &self.touched {
                out.put_i32(t as i32);
            }
        }
    }

    /// [FLOW.STATE.RESTORE] [FLOW.STATE.UNUSABLE] [FLOW.STATE.ORDER] Restores `bytes` (the
    /// grid restored first): on success every saved value is installed, the saved area version
    /// and the grid's restore count recorded and the field usable; on error the field is newly
    /// created on `view` and unusable.
    pub fn restore(&mut self, view: &View<'_>, bytes: &[u8]) -> Result<(), Fault> {
        self.reset(view);
        let r = self.read(view, bytes);
        if r.is_err() {
            self.reset(view);
        }
        self.usable = r.is_ok();
        self.set_active();
        r
    }

    /// [FLOW.STATE.HEADER_CHECKS] [FLOW.STATE.SEARCH_CHECKS] [STATE.TRAILING] Reads and checks
    /// every field in byte order, installing as it goes into the blank field.
    fn read(&mut self, view: &View<'_>, b: &[u8]) -> Result<(), Fault> {
        let n = self.n;
        let mut r = Reader::new(b);
        r.header(KIND_FLOW)?;
        let at = r.pos;
        if r.i32("width")? as i64 != self.w as i64 || view.width != self.w {
            return fail(Class::SizeMismatch, at, "width");
        }
        let at = r.pos;
        if r.i32("height")? as i64 != self.h as i64 || view.height != self.h {
            return fail(Class::SizeMismatch, at, "height");
        }
        let at = r.pos;
        let area_version = r.i32("area_version")?;
        if area_version < 0 {
            return fail(Class::OutOfRange, at, "area_version");
        }
        let at = r.pos;
        if r.i32("goal_count")? as i64 != self.goals.len() as i64 {
            return fail(Class::GoalMismatch, at, "goal_count");
        }
        for i in 0..self.goals.len() {
            let at = r.pos;
            if r.i32("goal")? as i64 != self.goals[i] as i64 {
                return fail(Class::GoalMismatch, at, "goal");
            }
        }
        let pending = r.count(n, 4, "pending_count")?;
        {
            let mut s = lock(&self.shared);
            for _ in 0..pending {
                let at = r.pos;
                let c = r.i32("pending cell")?;
                if c < 0 || c as usize >= n {
                    return fail(Class::IndexOutOfRange, at, "pending cell");
                }
                if !s.add(c as u32) {
                    return fail(Class::DuplicateNode, at, "pending cell");
                }
            }
        }
        let at = r.pos;
        if r.i32("node_count")? as i64 != n as i64 {
            return fail(Class::SizeMismatch, at, "node_count");
        }
        let at = r.pos;
        let status = match r.u8("status")? {
            0 => FlowStatus::NotStarted,
            1 => FlowStatus::Running,
            2 => FlowStatus::Complete,
            _ => return fail(Class::OutOfRange, at, "status"),
        };
        let at = r.pos;
        let settled = r.i32("settled")?;
        if settled < 0 || (status == FlowStatus::NotStarted && settled != 0) {
            return fail(Class::OutOfRange, at, "settled");
        }
        let at = r.pos;
        let repairing = r.flag("repairing")?;
        if repairing && status != FlowStatus::Running {
            return fail(Class::OutOfRange, at, "repairing");
        }
        let at = r.pos;
        if r.i32("goal_set_count")? as i64 != self.goal_set.len() as i64 {
            return fail(Class::GoalMismatch, at, "goal_set_count");
        }
        let mut prev = -1i64;
        for i in 0..self.goal_set.len() {
            let at = r.pos;
            let c = r.i32("goal set cell")?;
            if c < 0 || c as usize >= n {
                return fail(Class::IndexOutOfRange, at, "goal set cell");
            }
            if (c as i64) <= prev {
                return fail(Class::NotIncreasing, at, "goal set cell");
            }
            if c as u32 != self.goal_set[i] {
                return fail(Class::GoalMismatch, at, "goal set cell");
            }
            prev = c as i64;
        }
        let at = r.pos;
        let reached = r.count(n, REACHED_BYTES, "reached_count")?;
        if status == FlowStatus::NotStarted && reached != 0 {
            return fail(Class::CountOutOfRange, at, "reached_count");
        }
        let mut prev = -1i64;
        for _ in 0..reached {
            let at = r.pos;
            let c = r.i32("reached cell")?;
            if c < 0 || c as usize >= n {
                return fail(Class::IndexOutOfRange, at, "reached cell");
            }
            if (c as i64) <= prev {
                return fail(Class::NotIncreasing, at, "reached cell");
            }
            prev = c as i64;
            let at = r.pos;
            let v = r.f64("cost")?;
            if !(v.is_finite() && v >= 0.0) {
                return fail(Class::OutOfRange, at, "cost");
            }
            self.install_cost(c as u32, v);
        }
        let steps = r.count(reached, STEP_BYTES, "step_count")?;
        let mut prev = -1i64;
        for _ in 0..steps {
            let at = r.pos;
            let c = r.i32("step cell")?;
            if c < 0 || c as usize >= n {
                return fail(Class::IndexOutOfRange, at, "step cell");
            }
            if (c as i64) <= prev {
                return fail(Class::NotIncreasing, at, "step cell");
            }
            prev = c as i64;
            let cc = self.cost[c as usize];
            if cc == f64::INFINITY {
                return fail(Class::BadParent, at, "step cell");
            }
            let at = r.pos;
            let next = r.i32("next")?;
            if next < 0 || next as usize >= n {
                return fail(Class::IndexOutOfRange, at, "next");
            }
            let cn = self.cost[next as usize];
            if cn == f64::INFINITY || cn > cc {
                return fail(Class::BadParent, at, "next");
            }
            self.step[c as usize] = next as u32;
        }
        let at = r.pos;
        let count = r.count(reached, SLOT_BYTES, "open count")?;
        if status != FlowStatus::Running && count != 0 {
            return fail(Class::CountOutOfRange, at, "open count");
        }
        let first = r.pos;
        for _ in 0..count {
            let at = r.pos;
            let node = r.i32("open node")?;
            if node < 0 || node as usize >= n || self.cost[node as usize] == f64::INFINITY {
                return fail(Class::BadHeapNode, at, "open node");
            }
            if self.pos[node as usize] != NONE {
                return fail(Class::DuplicateNode, at, "open node");
            }
            let f = r.f64("f")?;
            let g = r.f64("g")?;
            let e = Entry {
                f,
                g,
                node: node as u32,
            };
            self.open.push_raw(&mut self.pos, e);
        }
        // [STATE.HEAP.VALID] After the list: the first slot preceding its parent.
        for i in 1..count {
            if precedes(&self.open.entry(i), &self.open.entry((i - 1) / 2)) {
                return fail(Class::HeapOrder, first + i * SLOT_BYTES, "open node");
            }
        }
        if repairing {
            let touched = r.count(n, 4, "touched_count")?;
            for _ in 0..touched {
                let at = r.pos;
                let c = r.i32("touched cell")?;
                if c < 0 || c as usize >= n {
                    return fail(Class::IndexOutOfRange, at, "touched cell");
                }
                if !self.install_touched(c as u32) {
                    return fail(Class::DuplicateNode, at, "touched cell");
                }
            }
        }
        r.finish()?;
        self.status = status;
        self.settled = settled as u64;
        self.repairing = repairing;
        self.area_version = area_version;
        self.restore_count = view.restore_count;
        self.provisional = false;
        Ok(())
    }
}
