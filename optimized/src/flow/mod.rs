//! Flow fields (spec/flow-fields.md): a multi-source Dijkstra toward a set of goals on a square
//! grid (`GridFlowField`) or a hex grid (`HexFlowField`), its direction field, the repair of
//! grid edits, path queries and state kind 7. The public surface of [FLOW.API.NEW] ..
//! [FLOW.API.NO_ALLOC]; the engine lives in `field`, the open set in `open`, the geometry in
//! `shape`, the edit feed in `listen`, the bytes in `state`.

mod field;
mod listen;
mod open;
mod shape;
mod state;

use self::field::{cell_of, Field, View, NONE};
use self::listen::{listener, lock, Shared};
use self::shape::{HexShape, SquareShape};
use crate::grid_search::{validate, GsKind};
use crate::{Grid, GridOptions, GridSearchError, GridStateError, HexGrid};
use std::sync::{Arc, Mutex};

/// [FLOW.RUN.STATUS] The status of a flow field (the number is saved).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum FlowStatus {
    /// [FLOW.RUN.STATUS] Not begun (0).
    NotStarted = 0,
    /// [FLOW.RUN.STATUS] A run or a repair in progress (1).
    Running = 1,
    /// [FLOW.RUN.STATUS] Costs and directions describe the grid of the latest run (2).
    Complete = 2,
}

/// [FLOW.DEBUG.DESCRIBE] A flow field's debug description, as it lies (a running field shows
/// its tentative costs).
#[derive(Clone, Debug, PartialEq)]
pub struct FlowFieldDescription {
    /// [FLOW.DEBUG.DESCRIBE] The grid's width.
    pub width: usize,
    /// [FLOW.DEBUG.DESCRIBE] The grid's height.
    pub height: usize,
    /// [FLOW.DEBUG.DESCRIBE] The cost of every cell, in index order.
    pub costs: Vec<f64>,
    /// [FLOW.DEBUG.DESCRIBE] The step of every cell (or none), in index order.
    pub next: Vec<Option<u32>>,
    /// [FLOW.DEBUG.DESCRIBE] The creation goals, as cell indexes.
    pub goals: Vec<u32>,
    /// [FLOW.DEBUG.DESCRIBE] The status.
    pub status: FlowStatus,
    /// [FLOW.DEBUG.DESCRIBE] [FLOW.RUN.SETTLED] Iterations since the run began or its repair
    /// started.
    pub settled: u64,
}

/// [REPLAN.MOVE.COST] The multiplier table of a grid (area 255 unused: 1.0).
fn mult_table(get: impl Fn(u8) -> Option<f64>) -> [f64; 256] {
    let mut m = [1.0; 256];
    for a in 0..255u8 {
        m[a as usize] = get(a).unwrap_or(1.0);
    }
    m
}

/// The field's view of a square grid.
fn square_view(grid: &Grid) -> View<'_> {
    View {
        width: grid.width(),
        height: grid.height(),
        cells: grid.cells(),
        version: grid.version(),
        area_version: grid.area_version(),
        restore_count: grid.restore_count(),
        mult: mult_table(|a| grid.area_multiplier(a)),
    }
}

/// The field's view of a hex grid.
fn hex_view(grid: &HexGrid) -> View<'_> {
    View {
        width: grid.width(),
        height: grid.height(),
        cells: grid.cells(),
        version: grid.version(),
        area_version: grid.area_version(),
        restore_count: grid.restore_count(),
        mult: mult_table(|a| grid.area_multiplier(a)),
    }
}

fn invalid(field: &'static str, value: String) -> GridSearchError {
    GridSearchError::new(GsKind::InvalidOptions { field, value })
}

/// [FLOW.API.OPTIONS] The checks in order: [GS.OPT.VALID]; a hex field's agent size must be 1;
/// a `cell_cost` hook, then a `blocked` hook, is `invalid_options`.
fn check_options(o: &GridOptions, hex: bool) -> Result<(), GridSearchError> {
    validate(o)?;
    if hex && o.agent_size != 1 {
        return Err(invalid("agent_size", o.agent_size.to_string()));
    }
    if o.cell_cost.is_some() {
        return Err(invalid("cell_cost", "a hook".into()));
    }
    if o.blocked.is_some() {
        return Err(invalid("blocked", "a hook".into()));
    }
    Ok(())
}

/// [FLOW.API.GOALS] An empty list or more goals than cells is `invalid_goals`; then each goal in
/// order is range-checked (x before y). Returns the goals as cell indexes, as given.
fn check_goals(goals: &[(usize, usize)], w: usize, h: usize) -> Result<Vec<u32>, GridSearchError> {
    if goals.is_empty() || goals.len() > w * h {
        return Err(GridSearchError::new(GsKind::InvalidGoals {
            count: goals.len(),
            cells: w * h,
        }));
    }
    goals.iter().map(|&g| cell_of("goal", g, w, h)).collect()
}

/// [FLOW.API.NEW] [FLOW.EDIT.LISTEN] The edit feed of a new field and its listener's id.
fn attach(
    cells: usize,
    add: impl FnOnce(crate::CellListener) -> usize,
) -> (Arc<Mutex<Shared>>, usize) {
    let shared = Arc::new(Mutex::new(Shared::new(cells)));
    let id = add(listener(&shared));
    (shared, id)
}

/// The methods both flow fields share ([FLOW.API.NEW]: the same methods over either grid).
macro_rules! flow_methods {
    ($grid:ty, $view:ident) => {
        /// [FLOW.RUN.STEP] [FLOW.RUN.LOOP] Steps with `budget` iterations (0 = unlimited):
        /// begins when not started, after a grid restore or area edit, or after edits during a
        /// run; repairs a complete field's pending edits; returns the status. `size_mismatch`
        /// for a grid of another size (nothing changed), then `unusable` after a failed
        /// restore.
        pub fn step(&mut self, grid: &$grid, budget: u64) -> Result<FlowStatus, GridSearchError> {
            self.f.check_size(grid.width(), grid.height())?;
            self.f.check_usable()?;
            Ok(self.f.step(&mut self.shape, &$view(grid), budget))
        }

        /// [FLOW.RUN.RUN] `step(grid, options.iteration_budget)`.
        pub fn run(&mut self, grid: &$grid) -> Result<FlowStatus, GridSearchError> {
            self.step(grid, self.budget)
        }

        /// [FLOW.RUN.RECOMPUTE] Checks the size (`size_mismatch`, nothing changed), makes the
        /// field usable, begins and steps with `budget`.
        pub fn recompute(
            &mut self,
            grid: &$grid,
            budget: u64,
        ) -> Result<FlowStatus, GridSearchError> {
            self.f.check_size(grid.width(), grid.height())?;
            Ok(self.f.recompute(&mut self.shape, &$view(grid), budget))
        }

        /// [FLOW.RUN.STATUS] The status.
        pub fn status(&self) -> FlowStatus {
            self.f.status
        }

        /// [FLOW.RUN.STATUS] Whether the running field is repairing.
        pub fn is_repairing(&self) -> bool {
            self.f.repairing
        }

        /// [FLOW.STATE.UNUSABLE] False after a failed restore, until a restore or `recompute`
        /// succeeds.
        pub fn is_usable(&self) -> bool {
            self.f.usable
        }

        /// [FLOW.RUN.SETTLED] Iterations since the run began or its repair started.
        pub fn settled(&self) -> u64 {
            self.f.settled
        }

        /// [FLOW.EDIT.LISTEN] The pending edited cells.
        pub fn pending_count(&self) -> usize {
            lock(&self.f.shared).pending.len()
        }

        /// [FLOW.API.GOALS] The creation goals as cell indexes, as given.
        pub fn goals(&self) -> &[u32] {
            &self.f.goals
        }

        /// [FLOW.QUERY.CELL] The cost of `(x, y)` as it lies (`unusable`, then
        /// `cell_out_of_range`).
        pub fn cost(&self, x: usize, y: usize) -> Result<f64, GridSearchError> {
            self.f.check_usable()?;
            let c = cell_of("cell", (x, y), self.f.w, self.f.h)?;
            Ok(self.f.cost[c as usize])
        }

        /// [FLOW.QUERY.CELL] The step of `(x, y)` as a cell index, or none (`unusable`, then
        /// `cell_out_of_range`).
        pub fn next(&self, x: usize, y: usize) -> Result<Option<u32>, GridSearchError> {
            self.f.check_usable()?;
            let c = cell_of("cell", (x, y), self.f.w, self.f.h)?;
            let s = self.f.step_of(c);
            Ok((s != NONE).then_some(s))
        }

        /// [FLOW.PATH.WALK] [FLOW.PATH.BROKEN] [FLOW.PATH.USE] The path from `(x, y)` along the
        /// steps to a goal, start first (`unusable`, `cell_out_of_range`, `not_complete`;
        /// empty when unreached; `path_cycle` / `broken_path` on an inconsistent state).
        pub fn path(&self, x: usize, y: usize) -> Result<Vec<u32>, GridSearchError> {
            self.f.check_usable()?;
            let c = cell_of("cell", (x, y), self.f.w, self.f.h)?;
            self.f.path(c)
        }

        /// [FLOW.DEBUG.DESCRIBE] Sizes, every cost and step in index order, the creation
        /// goals, the status and `settled`, as they lie.
        pub fn describe(&self) -> FlowFieldDescription {
            FlowFieldDescription {
                width: self.f.w,
                height: self.f.h,
                costs: self.f.cost.clone(),
                next: (0..self.f.n as u32)
                    .map(|c| {
                        let s = self.f.step_of(c);
                        (s != NONE).then_some(s)
                    })
                    .collect(),
                goals: self.f.goals.clone(),
                status: self.f.status,
                settled: self.f.settled,
            }
        }

        /// [FLOW.API.DETACH] Removes this field's listener from `grid` (the grid it was created
        /// on); `false` when it has none there.
        pub fn detach(&self, grid: &mut $grid) -> bool {
            grid.remove_listener(self.f.listener)
        }

        /// [FLOW.STATE.HEADER] [FLOW.STATE.SAVE] [STATE.STABLE] The state bytes (kind 7).
        pub fn save_state(&self) -> Vec<u8> {
            let mut out = Vec::new();
            self.save_state_into(&mut out);
            out
        }

        /// [STATE.API.INTO] The bytes of `save_state` written into `out` (cleared first; its
        /// allocation is reused).
        pub fn save_state_into(&self, out: &mut Vec<u8>) {
            self.f.save(out);
        }

        /// [FLOW.STATE.RESTORE] [FLOW.STATE.HEADER_CHECKS] [FLOW.STATE.SEARCH_CHECKS]
        /// [FLOW.STATE.UNUSABLE] [FLOW.STATE.ORDER] Restores saved bytes (restore the grid
        /// first); `grid` is the grid the field was created on (another size is
        /// `size_mismatch` at the width or height field). On error the field is as newly
        /// created on `grid` and unusable.
        pub fn restore_state(&mut self, grid: &$grid, bytes: &[u8]) -> Result<(), GridStateError> {
            self.f
                .restore(&$view(grid), bytes)
                .map_err(GridStateError::from_fault)
        }
    };
}

/// [FLOW.API.NEW] A flow field toward a set of goals on a square `Grid`: per cell the cheapest
/// cost to a goal and the neighbour to step to, kept up to date by the grid's edits
/// ([FLOW.EDIT.LISTEN]) and repaired in place ([FLOW.REPAIR.START]).
pub struct GridFlowField {
    f: Field,
    shape: SquareShape,
    budget: u64,
}

impl GridFlowField {
    /// [FLOW.API.NEW] [FLOW.API.OPTIONS] [FLOW.API.GOALS] A new, not-started field on `grid`
    /// (options checked first, then the goals); registers its listener on the grid.
    pub fn new(
        grid: &mut Grid,
        options: GridOptions,
        goals: &[(usize, usize)],
    ) -> Result<Self, GridSearchError> {
        check_options(&options, false)?;
        let (w, h) = (grid.width(), grid.height());
        let goals = check_goals(goals, w, h)?;
        let shape = SquareShape::new(
            w,
            h,
            options.agent_size as usize,
            options.connectivity,
            options.diagonal,
        );
        let feed = attach(w * h, |l| grid.add_listener(l));
        let f = Field::new(&square_view(grid), goals, feed);
        Ok(GridFlowField {
            f,
            shape,
            budget: options.iteration_budget,
        })
    }

    flow_methods!(Grid, square_view);
}

/// [FLOW.API.NEW] [FLOW.API.OPTIONS] A flow field on a `HexGrid` (moves of [GRID.HEX.MOVE]);
/// the same methods as [`GridFlowField`].
pub struct HexFlowField {
    f: Field,
    shape: HexShape,
    budget: u64,
}

impl HexFlowField {
    /// [FLOW.API.NEW] [FLOW.API.OPTIONS] [FLOW.API.GOALS] A new, not-started field on `grid`
    /// (agent size must be 1; connectivity and diagonal rule are ignored); registers its
    /// listener on the grid.
    pub fn new(
        grid: &mut HexGrid,
        options: GridOptions,
        goals: &[(usize, usize)],
    ) -> Result<Self, GridSearchError> {
        check_options(&options, true)?;
        let (w, h) = (grid.width(), grid.height());
        let goals = check_goals(goals, w, h)?;
        let shape = HexShape::new(w, h, grid.layout());
        let feed = attach(w * h, |l| grid.add_listener(l));
        let f = Field::new(&hex_view(grid), goals, feed);
        Ok(HexFlowField {
            f,
            shape,
            budget: options.iteration_budget,
        })
    }

    flow_methods!(HexGrid, hex_view);
}

impl std::fmt::Debug for GridFlowField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        debug(&self.f, "GridFlowField", f)
    }
}

impl std::fmt::Debug for HexFlowField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        debug(&self.f, "HexFlowField", f)
    }
}

fn debug(c: &Field, name: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    f.debug_struct(name)
        .field("width", &c.w)
        .field("height", &c.h)
        .field("goals", &c.goals.len())
        .field("status", &c.status)
        .field("repairing", &c.repairing)
        .field("settled", &c.settled)
        .field("usable", &c.usable)
        .finish_non_exhaustive()
}
