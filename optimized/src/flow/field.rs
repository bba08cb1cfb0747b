//! The flow field engine shared by `GridFlowField` and `HexFlowField`: beginning, iterating and
//! finishing a run ([FLOW.RUN.BEGIN] .. [FLOW.RUN.LOOP]), the direction rule ([FLOW.DIR.RULE]),
//! the repair of edits ([FLOW.REPAIR.REGION] .. [FLOW.REPAIR.DIRECT]) and the queries
//! ([FLOW.QUERY.CELL], [FLOW.PATH.WALK], [FLOW.PATH.BROKEN]).
//!
//! Costs are reset through the set of cells that were ever reached since the last reset (a
//! two-level bitset), the touched and directed marks through epochs, so beginning, repairing,
//! saving and resetting cost what was reached or touched, not the map.
//!
//! A begun run computes each cell's direction when the cell is popped: the cells cheaper than
//! the popped one are exactly the settled ones, with their final costs (pops come in
//! nondecreasing cost order, and every relaxation offers at least the popped cost), so the
//! direction at the pop equals the direction of the final pass of [FLOW.RUN.FINISH]. Until the
//! run finishes those directions are *provisional*: every query, save and description reads
//! "no step", as the spec's run has cleared every step.

use super::listen::{lock, Shared};
use super::open::Open;
use super::shape::FlowTopo;
use super::FlowStatus;
use crate::grid_search::GsKind;
use crate::replan::moves::Nbrs;
use crate::visit_set::VisitSet;
use crate::GridSearchError;
use std::sync::{Arc, Mutex};

/// "No cell": no step, not in the open set.
pub(crate) const NONE: u32 = u32::MAX;
const INF: f64 = f64::INFINITY;

/// What a step reads from the grid it is given.
pub(crate) struct View<'a> {
    pub width: usize,
    pub height: usize,
    pub cells: &'a [u8],
    pub version: i32,
    pub area_version: i32,
    pub restore_count: u64,
    /// [REPLAN.MOVE.COST] Multiplier by area (255 unused).
    pub mult: [f64; 256],
}

/// Per-cell marks reset by an epoch.
#[derive(Default)]
struct Stamps {
    stamp: Vec<u32>,
    epoch: u32,
}

impl Stamps {
    fn new(n: usize) -> Stamps {
        Stamps {
            stamp: vec![0; n],
            epoch: 1,
        }
    }

    /// Unmarks every cell.
    fn next(&mut self) {
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
    }

    #[inline(always)]
    fn has(&self, c: u32) -> bool {
        self.stamp[c as usize] == self.epoch
    }

    /// Marks `c`; false when it was marked already.
    #[inline(always)]
    fn set(&mut self, c: u32) -> bool {
        let s = &mut self.stamp[c as usize];
        let fresh = *s != self.epoch;
        *s = self.epoch;
        fresh
    }
}

/// The grid's state when the passability cache (agents above one cell) was last synced.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SyncPoint {
    version: i32,
    restore_count: u64,
    calls: u64,
    recorded: u64,
}

/// The flow field behind both public types.
pub(crate) struct Field {
    pub w: usize,
    pub h: usize,
    pub n: usize,
    /// [FLOW.API.GOALS] The creation goals, as given.
    pub goals: Vec<u32>,
    /// [FLOW.API.GOALS] The goal set: the distinct goals in increasing index.
    pub goal_set: Vec<u32>,
    goal_bits: Vec<u64>,
    /// Per cell: the integration cost.
    pub cost: Vec<f64>,
    /// Per cell: the step (`NONE` for none).
    pub step: Vec<u32>,
    /// Per cell: its open-set slot (`NONE` when not queued).
    pub pos: Vec<u32>,
    pub open: Open,
    /// A superset of the reached cells: every cell given a finite cost since the last reset.
    pub reached: VisitSet,
    /// [FLOW.REPAIR.TOUCH] The touched list, in order.
    pub touched: Vec<u32>,
    touch: Stamps,
    directed: Stamps,
    pub status: FlowStatus,
    pub repairing: bool,
    pub settled: u64,
    /// [FLOW.STATE.UNUSABLE] False after a failed restore.
    pub usable: bool,
    /// The steps in `cell` are the provisional directions of a begun run (see the module docs).
    pub provisional: bool,
    /// [FLOW.EDIT.AREAS] The recorded area version.
    pub area_version: i32,
    /// [FLOW.EDIT.GRID_RESTORE] The recorded restore count.
    pub restore_count: u64,
    pub shared: Arc<Mutex<Shared>>,
    pub listener: usize,
    /// Scratch: the pending cells being repaired.
    work: Vec<u32>,
    /// Scratch: pending cells as cache-patch entries.
    entries: Vec<i32>,
    /// Scratch: one region.
    region: Vec<u32>,
    sync: Option<SyncPoint>,
}

/// [FLOW.QUERY.CELL] `(x, y)` inside `w x h` (x first), else `cell_out_of_range`.
pub(crate) fn cell_of(
    which: &'static str,
    (x, y): (usize, usize),
    w: usize,
    h: usize,
) -> Result<u32, GridSearchError> {
    for (axis, value, size) in [('x', x, w), ('y', y, h)] {
        if value >= size {
            return Err(GridSearchError::new(GsKind::CellOutOfRange {
                which,
                axis,
                value,
                size,
            }));
        }
    }
    Ok((y * w + x) as u32)
}

/// [FLOW.DIR.RULE] The direction of `c`: none for a goal or an unreached cell; else the first
/// neighbour, among those strictly cheaper than `c`, with the smallest `c(c, v) + cost(v)`.
#[inline]
fn direction<T: FlowTopo>(t: &T, view: &View<'_>, cost: &[f64], goal: bool, c: u32) -> u32 {
    let cc = cost[c as usize];
    if goal || cc == INF {
        return NONE;
    }
    let mut nb: Nbrs = [(0, 0.0); 8];
    let k = t.moves(view.cells, c, &mut nb);
    let (mut best, mut bv) = (INF, NONE);
    for &(v, base) in &nb[..k] {
        let cv = cost[v as usize];
        if cv < cc {
            let val = base * view.mult[view.cells[v as usize] as usize] + cv;
            if bv == NONE || val < best {
                best = val;
                bv = v;
            }
        }
    }
    bv
}

impl Field {
    /// [FLOW.API.NEW] A new, not-started, usable field with checked goals.
    pub fn new(
        view: &View<'_>,
        goals: Vec<u32>,
        (shared, listener): (Arc<Mutex<Shared>>, usize),
    ) -> Field {
        let n = view.width * view.height;
        let mut goal_bits = vec![0u64; n.div_ceil(64)];
        for &g in &goals {
            goal_bits[g as usize >> 6] |= 1 << (g & 63);
        }
        let mut goal_set = goals.clone();
        goal_set.sort_unstable();
        goal_set.dedup();
        Field {
            w: view.width,
            h: view.height,
            n,
            goals,
            goal_set,
            goal_bits,
            cost: vec![INF; n],
            step: vec![NONE; n],
            pos: vec![NONE; n],
            open: Open::default(),
            reached: VisitSet::with_len(n),
            touched: Vec::new(),
            touch: Stamps::new(n),
            directed: Stamps::new(n),
            status: FlowStatus::NotStarted,
            repairing: false,
            settled: 0,
            usable: true,
            provisional: false,
            area_version: view.area_version,
            restore_count: view.restore_count,
            shared,
            listener,
            work: Vec::new(),
            entries: Vec::new(),
            region: Vec::new(),
            sync: None,
        }
    }

    /// [FLOW.API.GOALS] Whether `c` is in the goal set.
    #[inline(always)]
    pub fn is_goal(&self, c: u32) -> bool {
        self.goal_bits[c as usize >> 6] & (1 << (c & 63)) != 0
    }

    /// [FLOW.EDIT.LISTEN] Tells the listener whether to record edits.
    pub fn set_active(&self) {
        lock(&self.shared).active = self.usable && self.status != FlowStatus::NotStarted;
    }

    /// The step of `c` as the spec's field holds it (none while directions are provisional).
    #[inline]
    pub fn step_of(&self, c: u32) -> u32 {
        if self.provisional {
            NONE
        } else {
            self.step[c as usize]
        }
    }

    /// [FLOW.RUN.RECOMPUTE] [FLOW.RUN.STEP] `size_mismatch` for a grid of another size.
    pub fn check_size(&self, width: usize, height: usize) -> Result<(), GridSearchError> {
        if (width, height) != (self.w, self.h) {
            return Err(GridSearchError::new(GsKind::SizeMismatch {
                expected: (self.w, self.h),
                found: (width, height),
            }));
        }
        Ok(())
    }

    /// [FLOW.STATE.UNUSABLE] `unusable` after a failed restore.
    pub fn check_usable(&self) -> Result<(), GridSearchError> {
        if !self.usable {
            return Err(GridSearchError::new(GsKind::Unusable));
        }
        Ok(())
    }

    /// Every cost `+infinity`, every step cleared, the open set and the touched list empty:
    /// walks the reached set and the heap only.
    fn clear_values(&mut self) {
        self.open.clear(&mut self.pos);
        let (reached, cost, step) = (&self.reached, &mut self.cost, &mut self.step);
        reached.for_each(|c| {
            cost[c] = INF;
            step[c] = NONE;
        });
        self.reached.clear();
        self.touched.clear();
        self.touch.next();
        self.provisional = false;
    }

    /// [FLOW.STATE.UNUSABLE] As newly created on the grid `view` (status `NotStarted`, no
    /// cost, step or pending cell, `settled = 0`, the grid's area version and restore count);
    /// the caller sets `usable` and the listener's flag.
    pub fn reset(&mut self, view: &View<'_>) {
        self.clear_values();
        lock(&self.shared).clear();
        self.status = FlowStatus::NotStarted;
        self.repairing = false;
        self.settled = 0;
        self.area_version = view.area_version;
        self.restore_count = view.restore_count;
        self.sync = None;
    }

    /// Gives `c` the finite cost `v`, adding it to the reached set when it was unreached.
    #[inline(always)]
    fn set_cost(&mut self, c: u32, v: f64) {
        let slot = &mut self.cost[c as usize];
        if *slot == INF {
            self.reached.insert(c as usize);
        }
        *slot = v;
    }

    /// [FLOW.RUN.BEGIN] Every cost `+infinity`, no step, the open set, pending cells and touched
    /// list empty, `settled = 0`, not repairing, `Running`, the grid's area version and restore
    /// count recorded; each goal-set cell in increasing index costs `0.0` and is queued.
    pub fn begin(&mut self, view: &View<'_>) {
        self.clear_values();
        lock(&self.shared).clear();
        self.settled = 0;
        self.repairing = false;
        self.status = FlowStatus::Running;
        self.area_version = view.area_version;
        self.restore_count = view.restore_count;
        for i in 0..self.goal_set.len() {
            let g = self.goal_set[i];
            self.set_cost(g, 0.0);
            self.open.queue(&mut self.pos, g, 0.0);
        }
        self.provisional = true;
        self.set_active();
    }

    /// Brings the passability cache of `t` (agents above one cell) up to date with the grid:
    /// patched from the pending cells when they account for every change since the last sync,
    /// rebuilt otherwise.
    pub fn sync_cache<T: FlowTopo>(&mut self, t: &mut T, view: &View<'_>) {
        if !t.has_cache() {
            return;
        }
        let s = lock(&self.shared);
        let now = SyncPoint {
            version: view.version,
            restore_count: view.restore_count,
            calls: s.calls,
            recorded: s.recorded,
        };
        match self.sync {
            Some(p) if p == now => {}
            Some(p)
                if p.restore_count == now.restore_count && {
                    let dc = now.calls.wrapping_sub(p.calls);
                    let dr = now.recorded.wrapping_sub(p.recorded);
                    let dv = (now.version as i64 - p.version as i64).rem_euclid(1 << 31) as u64;
                    dc == dr && dr == dv
                } =>
            {
                self.entries.clear();
                self.entries.extend(s.pending.iter().map(|&c| !(c as i32)));
                t.patch(view.cells, &self.entries);
            }
            _ => t.rebuild(view.cells),
        }
        drop(s);
        self.sync = Some(now);
    }

    /// [FLOW.RUN.STEP] (2) and (3): begin when not started, after a grid restore or an area
    /// edit, or after edits during a run; start a repair when complete with pending cells; then
    /// loop with the budget unless complete.
    pub fn step<T: FlowTopo>(&mut self, t: &mut T, view: &View<'_>, budget: u64) -> FlowStatus {
        self.sync_cache(t, view);
        let pending = !lock(&self.shared).pending.is_empty();
        if self.status == FlowStatus::NotStarted
            || view.restore_count != self.restore_count
            || view.area_version != self.area_version
            || (self.status == FlowStatus::Running && pending)
        {
            self.begin(view);
        } else if self.status == FlowStatus::Complete && pending {
            self.start_repair(t, view);
        }
        if self.status != FlowStatus::Complete {
            self.run_loop(t, view, budget);
        }
        self.status
    }

    /// [FLOW.RUN.RECOMPUTE] Usable again, begin, loop with the budget.
    pub fn recompute<T: FlowTopo>(
        &mut self,
        t: &mut T,
        view: &View<'_>,
        budget: u64,
    ) -> FlowStatus {
        self.usable = true;
        self.sync_cache(t, view);
        self.begin(view);
        self.run_loop(t, view, budget);
        self.status
    }

    /// [FLOW.RUN.LOOP] Repeats: an empty open set finishes and stops; `budget > 0` iterations
    /// done stop (still `Running`); else one iteration.
    fn run_loop<T: FlowTopo>(&mut self, t: &T, view: &View<'_>, budget: u64) {
        let mut done = 0u64;
        loop {
            if self.open.is_empty() {
                self.finish(t, view);
                return;
            }
            if budget > 0 && done == budget {
                return;
            }
            if self.provisional {
                self.iterate_begun(t, view);
            } else {
                self.iterate(t, view);
            }
            done += 1;
        }
    }

    /// [FLOW.RUN.ITERATE] One iteration of a begun run, with the pop-time direction of `u`
    /// (provisional). The cheaper neighbours give the direction, the others are relaxed: a
    /// cheaper neighbour can never be lowered (`cost(u) + c >= cost(u)`), so the split changes
    /// nothing.
    #[inline(always)]
    fn iterate_begun<T: FlowTopo>(&mut self, t: &T, view: &View<'_>) {
        let Some(u) = self.open.pop(&mut self.pos) else {
            return;
        };
        self.settled += 1;
        let cu = self.cost[u as usize];
        let mu = view.mult[view.cells[u as usize] as usize];
        let goal = self.is_goal(u);
        let mut nb: Nbrs = [(0, 0.0); 8];
        let k = t.moves(view.cells, u, &mut nb);
        let (mut best, mut bv) = (INF, NONE);
        for &(v, base) in &nb[..k] {
            let cv = self.cost[v as usize];
            if cv < cu {
                // [FLOW.DIR.RULE] `c(u, v) + cost(v)`, strict replacement.
                let val = base * view.mult[view.cells[v as usize] as usize] + cv;
                if bv == NONE || val < best {
                    best = val;
                    bv = v;
                }
            } else {
                // [FLOW.RUN.ITERATE] `cand = cost(u) + c(v, u)`, `c(v, u) = base * m(area(u))`.
                let cand = cu + base * mu;
                if cand < cv {
                    // `v`'s step is already clear: it was never popped in this run (a popped
                    // cell costs at most `cost(u) <= cand`), and begin cleared every step.
                    self.set_cost(v, cand);
                    self.open.queue(&mut self.pos, v, cand);
                }
            }
        }
        self.step[u as usize] = if goal { NONE } else { bv };
    }

    /// [FLOW.RUN.ITERATE] One iteration of a repair or of a restored run: pop, count, relax
    /// every neighbour (clearing its step and touching it when repairing).
    #[inline(always)]
    fn iterate<T: FlowTopo>(&mut self, t: &T, view: &View<'_>) {
        let Some(u) = self.open.pop(&mut self.pos) else {
            return;
        };
        self.settled += 1;
        let cu = self.cost[u as usize];
        let mu = view.mult[view.cells[u as usize] as usize];
        let mut nb: Nbrs = [(0, 0.0); 8];
        let k = t.moves(view.cells, u, &mut nb);
        for &(v, base) in &nb[..k] {
            let cand = cu + base * mu;
            if cand < self.cost[v as usize] {
                self.set_cost(v, cand);
                self.step[v as usize] = NONE;
                if self.repairing {
                    self.touch(v);
                }
                self.open.queue(&mut self.pos, v, cand);
            }
        }
    }

    /// [FLOW.RUN.FINISH] The direction pass (after a repair [FLOW.REPAIR.DIRECT]; after a begun
    /// run every cell in increasing index: the cells outside the reached set have no cost and
    /// no step, so they are skipped; a begun run's pop-time directions are already final), then
    /// the touched list emptied, not repairing, `Complete`.
    fn finish<T: FlowTopo>(&mut self, t: &T, view: &View<'_>) {
        if self.repairing {
            self.direct_repair(t, view);
        } else if !self.provisional {
            let Field {
                reached,
                cost,
                step,
                goal_bits,
                ..
            } = self;
            reached.for_each(|c| {
                let goal = goal_bits[c >> 6] & (1 << (c & 63)) != 0;
                let d = direction(t, view, cost, goal, c as u32);
                step[c] = d;
            });
        }
        self.provisional = false;
        self.touched.clear();
        self.touch.next();
        self.repairing = false;
        self.status = FlowStatus::Complete;
    }

    /// [FLOW.REPAIR.DIRECT] Each touched cell in list order, then its geometric neighbours in
    /// order; a cell directed once already this pass is skipped (its direction is the same).
    fn direct_repair<T: FlowTopo>(&mut self, t: &T, view: &View<'_>) {
        self.directed.next();
        let mut around = [0u32; 8];
        for i in 0..self.touched.len() {
            let c = self.touched[i];
            self.direct(t, view, c);
            let k = t.around(c, &mut around);
            for &w in &around[..k] {
                self.direct(t, view, w);
            }
        }
    }

    #[inline]
    fn direct<T: FlowTopo>(&mut self, t: &T, view: &View<'_>, c: u32) {
        if self.directed.set(c) {
            let d = direction(t, view, &self.cost, self.is_goal(c), c);
            self.step[c as usize] = d;
        }
    }

    /// [FLOW.STATE.RESTORE] Installs a saved cost (the field is blank).
    pub fn install_cost(&mut self, c: u32, v: f64) {
        self.set_cost(c, v);
    }

    /// [FLOW.STATE.RESTORE] Installs a saved touched cell; false when it is listed already.
    pub fn install_touched(&mut self, c: u32) -> bool {
        let fresh = self.touch.set(c);
        if fresh {
            self.touched.push(c);
        }
        fresh
    }

    /// [FLOW.REPAIR.TOUCH] Appends `c` to the touched list unless it is on it.
    #[inline(always)]
    fn touch(&mut self, c: u32) {
        if self.touch.set(c) {
            self.touched.push(c);
        }
    }

    /// [FLOW.REPAIR.TOUCH] Touch, cost `+infinity`, step cleared.
    #[inline]
    fn invalidate(&mut self, c: u32) {
        self.touch(c);
        self.cost[c as usize] = INF;
        self.step[c as usize] = NONE;
    }

    /// [FLOW.REPAIR.START] `settled = 0`, repairing, `Running`, the touched list emptied; (1)
    /// each pending cell's region invalidated (cells not touched yet); (2) the walk over the
    /// growing touched list invalidating the geometric neighbours whose step is the touched
    /// cell; (3) the pending cells emptied; (4) seeding in touched order.
    fn start_repair<T: FlowTopo>(&mut self, t: &T, view: &View<'_>) {
        self.settled = 0;
        self.repairing = true;
        self.status = FlowStatus::Running;
        self.touched.clear();
        self.touch.next();
        // (1) and (3): the pending cells are taken (the list is empty from here on).
        let mut work = std::mem::take(&mut self.work);
        lock(&self.shared).take(&mut work);
        let mut region = std::mem::take(&mut self.region);
        for &p in &work {
            t.region(p, &mut region);
            for &r in &region {
                if !self.touch.has(r) {
                    self.invalidate(r);
                }
            }
        }
        work.clear();
        self.work = work;
        self.region = region;
        // (2) the walk: a step into the touched cell, or a cost that did not come through the
        // cell's step ([FLOW.REPAIR.DERIVED]).
        let mut around = [0u32; 8];
        let mut i = 0;
        while i < self.touched.len() {
            let c = self.touched[i];
            let k = t.around(c, &mut around);
            for &w in &around[..k] {
                if !self.touch.has(w) && (self.step[w as usize] == c || !self.derived(t, view, w)) {
                    self.invalidate(w);
                }
            }
            i += 1;
        }
        // (4) seeding.
        let mut nb: Nbrs = [(0, 0.0); 8];
        for i in 0..self.touched.len() {
            let c = self.touched[i];
            if self.is_goal(c) {
                self.set_cost(c, 0.0);
                self.open.queue(&mut self.pos, c, 0.0);
                continue;
            }
            let k = t.moves(view.cells, c, &mut nb);
            let mut best = INF;
            for &(v, base) in &nb[..k] {
                let cv = self.cost[v as usize];
                if cv != INF && !self.touch.has(v) {
                    let val = base * view.mult[view.cells[v as usize] as usize] + cv;
                    if val < best {
                        best = val;
                    }
                }
            }
            if best != INF {
                self.set_cost(c, best);
                self.open.queue(&mut self.pos, c, best);
            }
        }
    }

    /// [FLOW.REPAIR.DERIVED] A goal, an unreached cell, or a cell whose step `n` is one of its
    /// moves and is touched (the walk reaches `w` through it) or has `c(w, n) + cost(n) ==
    /// cost(w)`.
    fn derived<T: FlowTopo>(&self, t: &T, view: &View<'_>, w: u32) -> bool {
        let here = self.cost[w as usize];
        if here == INF || self.is_goal(w) {
            return true;
        }
        let n = self.step[w as usize];
        if n == NONE {
            return false;
        }
        let mut nb: Nbrs = [(0, 0.0); 8];
        let k = t.moves(view.cells, w, &mut nb);
        nb[..k].iter().any(|&(v, base)| {
            v == n
                && (self.touch.has(v)
                    || base * view.mult[view.cells[v as usize] as usize] + self.cost[v as usize]
                        == here)
        })
    }

    /// [FLOW.PATH.WALK] [FLOW.PATH.BROKEN] The path from cell `c` (checked by the caller) of a
    /// complete field: empty when unreached; else steps until a goal-set cell; `path_cycle` at
    /// a cell reached after `cells` steps, `broken_path` at a cell without a step.
    pub fn path(&self, c: u32) -> Result<Vec<u32>, GridSearchError> {
        if self.status != FlowStatus::Complete {
            return Err(GridSearchError::new(GsKind::NotComplete));
        }
        if self.cost[c as usize] == INF {
            return Ok(Vec::new());
        }
        let mut path = vec![c];
        let mut at = c;
        let mut steps = 0usize;
        loop {
            if self.is_goal(at) {
                return Ok(path);
            }
            if steps >= self.n {
                return Err(GridSearchError::new(GsKind::PathCycle { steps }));
            }
            let s = self.step_of(at);
            if s == NONE || s as usize >= self.n {
                return Err(GridSearchError::new(GsKind::BrokenPath { cell: at }));
            }
            at = s;
            steps += 1;
            path.push(at);
        }
    }
}
