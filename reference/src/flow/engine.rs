//! [FLOW.RUN.BEGIN] [FLOW.RUN.ITERATE] [FLOW.RUN.FINISH] [FLOW.RUN.STEP] [FLOW.REPAIR.START]
//! The flow-field engine shared by `GridFlowField` and `HexFlowField`: costs, steps, the open set,
//! the touched list, the pending cells and the status, with every step written as
//! spec/flow-fields.md §2–§4 writes it.

use std::sync::{Arc, Mutex, MutexGuard};

use super::FlowStatus;
use crate::open_set::OpenSet;
use crate::replan::moves::Surface;

/// [FLOW.EDIT.LISTEN] What the grid listener shares with its field.
#[derive(Debug)]
pub(crate) struct Shared {
    /// Whether the listener appends (status not `NotStarted` and the field usable).
    pub(crate) listening: bool,
    /// The pending cells, in order of first edit.
    pub(crate) pending: Vec<u32>,
    /// Whether each cell is pending.
    pub(crate) is_pending: Vec<bool>,
}

impl Shared {
    /// [FLOW.EDIT.LISTEN] The listener's action for one changed cell.
    pub(crate) fn on_edit(&mut self, cell: u32) {
        if !self.listening {
            return;
        }
        let c = cell as usize;
        if c < self.is_pending.len() && !self.is_pending[c] {
            self.is_pending[c] = true;
            self.pending.push(cell);
        }
    }

    /// Empties the pending cells.
    pub(crate) fn clear(&mut self) {
        for &c in &self.pending {
            self.is_pending[c as usize] = false;
        }
        self.pending.clear();
    }
}

/// The grid facts a step reads besides the surface.
pub(crate) struct GridFacts {
    pub(crate) restore_count: u64,
    pub(crate) area_version: i32,
}

/// The engine of one flow field.
pub(crate) struct Engine {
    pub(crate) width: usize,
    pub(crate) height: usize,
    /// [FLOW.API.GOALS] The creation goals, as given.
    pub(crate) creation_goals: Vec<u32>,
    /// [FLOW.API.GOALS] The goal set: distinct, increasing.
    pub(crate) goal_set: Vec<u32>,
    is_goal: Vec<bool>,
    pub(crate) cost: Vec<f64>,
    pub(crate) step: Vec<Option<u32>>,
    pub(crate) open: OpenSet,
    pub(crate) touched: Vec<u32>,
    is_touched: Vec<bool>,
    pub(crate) status: FlowStatus,
    pub(crate) repairing: bool,
    pub(crate) settled: u64,
    /// [FLOW.EDIT.AREAS] The recorded area version.
    pub(crate) area_version: i32,
    /// [FLOW.EDIT.GRID_RESTORE] The recorded restore count.
    pub(crate) seen_restore: u64,
    pub(crate) usable: bool,
    pub(crate) budget: u64,
    pub(crate) shared: Arc<Mutex<Shared>>,
}

impl Engine {
    /// [FLOW.API.NEW] A new, not-started engine.
    pub(crate) fn new(
        width: usize,
        height: usize,
        goals: Vec<u32>,
        budget: u64,
        facts: &GridFacts,
    ) -> Self {
        let n = width * height;
        let mut goal_set = goals.clone();
        goal_set.sort_unstable();
        goal_set.dedup();
        let mut is_goal = vec![false; n];
        for &g in &goal_set {
            is_goal[g as usize] = true;
        }
        Engine {
            width,
            height,
            creation_goals: goals,
            goal_set,
            is_goal,
            cost: vec![f64::INFINITY; n],
            step: vec![None; n],
            open: OpenSet::new(n),
            touched: Vec::new(),
            is_touched: vec![false; n],
            status: FlowStatus::NotStarted,
            repairing: false,
            settled: 0,
            area_version: facts.area_version,
            seen_restore: facts.restore_count,
            usable: true,
            budget,
            shared: Arc::new(Mutex::new(Shared {
                listening: false,
                pending: Vec::new(),
                is_pending: vec![false; n],
            })),
        }
    }

    /// Locks the shared pending state (a poisoned lock still holds valid data).
    pub(crate) fn shared(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The number of cells.
    pub(crate) fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Whether `c` is in the goal set.
    pub(crate) fn is_goal(&self, c: u32) -> bool {
        self.is_goal[c as usize]
    }

    /// [FLOW.EDIT.LISTEN] The listener appends while started and usable.
    pub(crate) fn update_listening(&self) {
        let on = self.usable && self.status != FlowStatus::NotStarted;
        self.shared().listening = on;
    }

    fn clear_touched(&mut self) {
        for &t in &self.touched {
            self.is_touched[t as usize] = false;
        }
        self.touched.clear();
    }

    /// [FLOW.STATE.UNUSABLE] The state of a newly created field on the grid as it is now.
    pub(crate) fn reset(&mut self, facts: &GridFacts) {
        self.cost.iter_mut().for_each(|c| *c = f64::INFINITY);
        self.step.iter_mut().for_each(|s| *s = None);
        self.open.clear();
        self.clear_touched();
        self.shared().clear();
        self.status = FlowStatus::NotStarted;
        self.repairing = false;
        self.settled = 0;
        self.area_version = facts.area_version;
        self.seen_restore = facts.restore_count;
        self.update_listening();
    }

    /// [FLOW.RUN.OPEN] Queues `c` with `f = g = cost(c)`.
    fn queue(&mut self, c: u32) {
        let k = self.cost[c as usize];
        self.open.push(c, k, k);
    }

    /// [FLOW.RUN.BEGIN] Begins a multi-source run from the goal set.
    pub(crate) fn begin(&mut self, facts: &GridFacts) {
        self.cost.iter_mut().for_each(|c| *c = f64::INFINITY);
        self.step.iter_mut().for_each(|s| *s = None);
        self.open.clear();
        self.shared().clear();
        self.clear_touched();
        self.settled = 0;
        self.repairing = false;
        self.status = FlowStatus::Running;
        self.area_version = facts.area_version;
        self.seen_restore = facts.restore_count;
        for i in 0..self.goal_set.len() {
            let g = self.goal_set[i];
            self.cost[g as usize] = 0.0;
            self.queue(g);
        }
        self.update_listening();
    }

    /// [FLOW.STATE.RESTORE] Installs a validated touched list (distinct cells).
    pub(crate) fn set_touched(&mut self, touched: Vec<u32>) {
        self.clear_touched();
        for t in touched {
            self.touch(t);
        }
    }

    /// [FLOW.REPAIR.TOUCH] Appends `c` to the touched list unless it is on it.
    fn touch(&mut self, c: u32) {
        if !self.is_touched[c as usize] {
            self.is_touched[c as usize] = true;
            self.touched.push(c);
        }
    }

    /// [FLOW.REPAIR.TOUCH] Touches `c`, sets its cost to `+inf` and clears its step.
    fn invalidate(&mut self, c: u32) {
        self.touch(c);
        self.cost[c as usize] = f64::INFINITY;
        self.step[c as usize] = None;
    }

    /// [FLOW.REPAIR.START] [FLOW.REPAIR.REGION] The invalidation walk and the seeding.
    pub(crate) fn start_repair(&mut self, surface: &dyn Surface) {
        self.settled = 0;
        self.repairing = true;
        self.status = FlowStatus::Running;
        self.clear_touched();
        // (1) the regions of the pending cells, in pending order
        let pending = self.shared().pending.clone();
        for p in pending {
            // [FLOW.REPAIR.REGION] the complemented entry's cells of [REPLAN.EDIT.CELLS]
            for r in surface.edit_cells(!(p as i32), false) {
                if !self.is_touched[r as usize] {
                    self.invalidate(r);
                }
            }
        }
        // (2) the walk over the touched list
        let mut i = 0;
        while i < self.touched.len() {
            let u = self.touched[i];
            for w in surface.around(u) {
                if !self.is_touched[w as usize]
                    && (self.step[w as usize] == Some(u) || !self.derived(surface, w))
                {
                    self.invalidate(w);
                }
            }
            i += 1;
        }
        // (3)
        self.shared().clear();
        // (4) seeding, in list order, from cells not touched
        for i in 0..self.touched.len() {
            let t = self.touched[i];
            if self.is_goal(t) {
                self.cost[t as usize] = 0.0;
                self.queue(t);
                continue;
            }
            let mut best = f64::INFINITY;
            for nb in surface.neighbours(t) {
                let v = nb.v as usize;
                if self.is_touched[v] || self.cost[v] == f64::INFINITY {
                    continue;
                }
                let value = nb.out_cost + self.cost[v];
                if value < best {
                    best = value;
                }
            }
            if best < f64::INFINITY {
                self.cost[t as usize] = best;
                self.queue(t);
            }
        }
    }

    /// [FLOW.REPAIR.DERIVED] Whether `w` is derived through its step: in the goal set, or
    /// unreached, or its step `n` is a neighbour that is touched or has
    /// `c(w, n) + cost(n) == cost(w)`.
    fn derived(&self, surface: &dyn Surface, w: u32) -> bool {
        let here = self.cost[w as usize];
        if self.is_goal(w) || here == f64::INFINITY {
            return true;
        }
        let Some(n) = self.step[w as usize] else {
            return false;
        };
        surface.neighbours(w).iter().any(|nb| {
            nb.v == n
                && (self.is_touched[n as usize] || nb.out_cost + self.cost[n as usize] == here)
        })
    }

    /// [FLOW.RUN.ITERATE] Settles the open set's slot 0 and relaxes its neighbours.
    fn iterate(&mut self, surface: &dyn Surface) {
        let Some(top) = self.open.pop() else {
            return;
        };
        let u = top.node;
        self.settled += 1;
        for nb in surface.neighbours(u) {
            let v = nb.v;
            // c(v, u): entering u from v
            let cand = self.cost[u as usize] + nb.in_cost;
            if cand < self.cost[v as usize] {
                self.cost[v as usize] = cand;
                self.step[v as usize] = None;
                if self.repairing {
                    self.touch(v);
                }
                self.queue(v);
            }
        }
    }

    /// [FLOW.DIR.RULE] The direction of `c`.
    pub(crate) fn direction(&self, surface: &dyn Surface, c: u32) -> Option<u32> {
        let here = self.cost[c as usize];
        if self.is_goal(c) || here == f64::INFINITY {
            return None;
        }
        let mut best: Option<(u32, f64)> = None;
        for nb in surface.neighbours(c) {
            let cv = self.cost[nb.v as usize];
            if !(cv < here) {
                continue;
            }
            let value = nb.out_cost + cv;
            match best {
                Some((_, b)) if !(value < b) => {}
                _ => best = Some((nb.v, value)),
            }
        }
        best.map(|(v, _)| v)
    }

    /// [FLOW.DIR.RULE] Directs `c`.
    fn direct(&mut self, surface: &dyn Surface, c: u32) {
        self.step[c as usize] = self.direction(surface, c);
    }

    /// [FLOW.RUN.FINISH] [FLOW.REPAIR.DIRECT] The direction pass, then `Complete`.
    fn finish(&mut self, surface: &dyn Surface) {
        if self.repairing {
            for i in 0..self.touched.len() {
                let t = self.touched[i];
                self.direct(surface, t);
                for w in surface.around(t) {
                    self.direct(surface, w);
                }
            }
        } else {
            for c in 0..self.cells() as u32 {
                self.direct(surface, c);
            }
        }
        self.clear_touched();
        self.repairing = false;
        self.status = FlowStatus::Complete;
    }

    /// [FLOW.RUN.LOOP] Steps with budget `n` (0 = unlimited).
    pub(crate) fn run_loop(&mut self, surface: &dyn Surface, n: u64) {
        let mut done = 0u64;
        loop {
            if self.open.is_empty() {
                self.finish(surface);
                return;
            }
            if n > 0 && done == n {
                return;
            }
            self.iterate(surface);
            done += 1;
        }
    }

    /// [FLOW.RUN.STEP] Steps 2 and 3 (the size and usability checks are the caller's).
    pub(crate) fn step(&mut self, surface: &dyn Surface, facts: &GridFacts, n: u64) -> FlowStatus {
        let pending = !self.shared().pending.is_empty();
        let stale =
            facts.restore_count != self.seen_restore || facts.area_version != self.area_version;
        if self.status == FlowStatus::NotStarted
            || stale
            || (self.status == FlowStatus::Running && pending)
        {
            self.begin(facts);
        } else if self.status == FlowStatus::Complete && pending {
            self.start_repair(surface);
        }
        if self.status != FlowStatus::Complete {
            self.run_loop(surface, n);
        }
        self.status
    }
}
