//! [FLOW] Flow fields of spec/flow-fields.md: `GridFlowField` (square grids) and `HexFlowField`
//! (hex grids): a multi-source Dijkstra toward the goals, the direction field, repair after
//! edits, sliced steps and their state bytes (kind 7).

mod engine;
mod state;

use std::sync::{Arc, Mutex};

use engine::{Engine, GridFacts, Shared};

use crate::grid::{Grid, HexGrid};
use crate::grid_error::GridStateError;
use crate::grid_search::options::validate;
use crate::grid_search::{Connectivity, DiagonalRule, GridOptions, GridSearchError};
use crate::replan::moves::{HexSurface, SquareSurface};

/// [FLOW.RUN.STATUS] The status of a flow field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum FlowStatus {
    /// [FLOW.RUN.STATUS] Never begun (or reset by a failed restore).
    NotStarted = 0,
    /// [FLOW.RUN.STATUS] A begun run or a repair is in progress.
    Running = 1,
    /// [FLOW.RUN.STATUS] Costs and directions are final.
    Complete = 2,
}

/// [FLOW.DEBUG.DESCRIBE] A flow field copied into plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowFieldDescription {
    /// Cells per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Every cell's integration cost, in index order, as it lies.
    pub costs: Vec<f64>,
    /// Every cell's step, in index order.
    pub next: Vec<Option<u32>>,
    /// The creation goals.
    pub goals: Vec<u32>,
    /// The status.
    pub status: FlowStatus,
    /// [FLOW.RUN.SETTLED] Iterations of the current run.
    pub settled: u64,
}

/// [FLOW.API.OPTIONS] Validates the options in the order of [FLOW.API.OPTIONS].
fn check_options(options: &GridOptions, hex: bool) -> Result<(), GridSearchError> {
    validate(options)?;
    if hex && options.agent_size != 1 {
        return Err(GridSearchError::options(
            "agent_size",
            format!("{} (hex flow fields need 1)", options.agent_size),
        ));
    }
    if options.cell_cost.is_some() {
        return Err(GridSearchError::options(
            "cell_cost",
            "a hook (flow fields take none)".to_string(),
        ));
    }
    if options.blocked.is_some() {
        return Err(GridSearchError::options(
            "blocked",
            "a hook (flow fields take none)".to_string(),
        ));
    }
    Ok(())
}

/// [FLOW.API.GOALS] Checks the goal list; returns the goals as cell indexes, in order.
fn check_goals(
    width: usize,
    height: usize,
    goals: &[(usize, usize)],
) -> Result<Vec<u32>, GridSearchError> {
    let cells = width * height;
    if goals.is_empty() || goals.len() > cells {
        return Err(GridSearchError::invalid_goals(goals.len(), cells));
    }
    let mut out = Vec::with_capacity(goals.len());
    for &(x, y) in goals {
        if x >= width {
            return Err(GridSearchError::cell("goal", 'x', x, width));
        }
        if y >= height {
            return Err(GridSearchError::cell("goal", 'y', y, height));
        }
        out.push((y * width + x) as u32);
    }
    Ok(out)
}

/// [FLOW.API.NEW] [FLOW.EDIT.LISTEN] The listener that feeds `shared`.
fn listener_for(shared: &Arc<Mutex<Shared>>) -> crate::grid::CellListener {
    let weak = Arc::downgrade(shared);
    Box::new(move |cell, _old, _new| {
        // [FLOW.API.DETACH] A dropped field's listener does nothing.
        if let Some(s) = weak.upgrade() {
            s.lock().unwrap_or_else(|e| e.into_inner()).on_edit(cell);
        }
    })
}

macro_rules! flow_field_methods {
    ($t:ty, $grid:ty) => {
        impl $t {
            /// [FLOW.RUN.STEP] Begins, repairs or goes on, with `budget` iterations (0 =
            /// unlimited).
            pub fn step(
                &mut self,
                grid: &$grid,
                budget: u64,
            ) -> Result<FlowStatus, GridSearchError> {
                self.check_grid(grid)?;
                if !self.engine.usable {
                    return Err(GridSearchError::unusable());
                }
                let facts = Self::facts(grid);
                let surface = self.surface(grid);
                Ok(self.engine.step(&surface, &facts, budget))
            }

            /// [FLOW.RUN.RUN] `step(grid, options.iteration_budget)`.
            pub fn run(&mut self, grid: &$grid) -> Result<FlowStatus, GridSearchError> {
                let budget = self.engine.budget;
                self.step(grid, budget)
            }

            /// [FLOW.RUN.RECOMPUTE] Makes the field usable, begins and steps with `budget`.
            pub fn recompute(
                &mut self,
                grid: &$grid,
                budget: u64,
            ) -> Result<FlowStatus, GridSearchError> {
                self.check_grid(grid)?;
                let facts = Self::facts(grid);
                let surface = self.surface(grid);
                self.engine.usable = true;
                self.engine.begin(&facts);
                self.engine.run_loop(&surface, budget);
                Ok(self.engine.status)
            }

            /// [FLOW.RUN.STATUS] The status.
            pub fn status(&self) -> FlowStatus {
                self.engine.status
            }

            /// [FLOW.RUN.STATUS] Whether the running field is repairing.
            pub fn is_repairing(&self) -> bool {
                self.engine.repairing
            }

            /// [FLOW.STATE.UNUSABLE] False after a failed restore, until a restore or recompute.
            pub fn is_usable(&self) -> bool {
                self.engine.usable
            }

            /// [FLOW.RUN.SETTLED] Iterations of the current run.
            pub fn settled(&self) -> u64 {
                self.engine.settled
            }

            /// [FLOW.EDIT.LISTEN] The number of pending cells.
            pub fn pending_count(&self) -> usize {
                self.engine.shared().pending.len()
            }

            /// [FLOW.API.GOALS] The creation goals as cell indexes.
            pub fn goals(&self) -> &[u32] {
                &self.engine.creation_goals
            }

            /// [FLOW.QUERY.CELL] The cell's cost as it lies.
            pub fn cost(&self, x: usize, y: usize) -> Result<f64, GridSearchError> {
                let c = self.check_cell(x, y)?;
                Ok(self.engine.cost[c as usize])
            }

            /// [FLOW.QUERY.CELL] The cell's step, or none.
            pub fn next(&self, x: usize, y: usize) -> Result<Option<u32>, GridSearchError> {
                let c = self.check_cell(x, y)?;
                Ok(self.engine.step[c as usize])
            }

            /// [FLOW.PATH.WALK] [FLOW.PATH.BROKEN] The path from `(x, y)` to a goal, following
            /// the steps (empty when the cell is unreached).
            pub fn path(&self, x: usize, y: usize) -> Result<Vec<u32>, GridSearchError> {
                let mut cur = self.check_cell(x, y)?;
                let e = &self.engine;
                if e.status != FlowStatus::Complete {
                    return Err(GridSearchError::not_complete());
                }
                if e.cost[cur as usize] == f64::INFINITY {
                    return Ok(Vec::new());
                }
                let mut path = vec![cur];
                let mut moves = 0usize;
                loop {
                    if e.is_goal(cur) {
                        return Ok(path);
                    }
                    if moves == e.cells() {
                        return Err(GridSearchError::path_cycle(cur));
                    }
                    match e.step[cur as usize] {
                        None => return Err(GridSearchError::broken_path(cur)),
                        Some(next) => {
                            cur = next;
                            path.push(cur);
                            moves += 1;
                        }
                    }
                }
            }

            /// [FLOW.DEBUG.DESCRIBE] The field as plain data, as it lies.
            pub fn describe(&self) -> FlowFieldDescription {
                let e = &self.engine;
                FlowFieldDescription {
                    width: e.width,
                    height: e.height,
                    costs: e.cost.clone(),
                    next: e.step.clone(),
                    goals: e.creation_goals.clone(),
                    status: e.status,
                    settled: e.settled,
                }
            }

            /// [FLOW.API.DETACH] Removes the listener from `grid` (the grid it was created on).
            pub fn detach(&self, grid: &mut $grid) -> bool {
                grid.remove_listener(self.listener)
            }

            /// [STATE.API] [FLOW.STATE.SAVE] The state bytes.
            pub fn save_state(&self) -> Vec<u8> {
                state::save(&self.engine)
            }

            /// [STATE.API.INTO] The state bytes into `out` (cleared first).
            pub fn save_state_into(&self, out: &mut Vec<u8>) {
                out.clear();
                out.extend_from_slice(&self.save_state());
            }

            /// [STATE.API] [FLOW.STATE.RESTORE] [FLOW.STATE.UNUSABLE] Restores the state bytes;
            /// after a failure the field is reset and unusable.
            pub fn restore_state(
                &mut self,
                grid: &$grid,
                bytes: &[u8],
            ) -> Result<(), GridStateError> {
                let facts = Self::facts(grid);
                match state::read(&self.engine, (grid.width(), grid.height()), bytes) {
                    Ok(parsed) => {
                        state::install(&mut self.engine, parsed, &facts);
                        Ok(())
                    }
                    Err(fault) => {
                        self.engine.usable = false;
                        self.engine.reset(&facts);
                        Err(fault.into())
                    }
                }
            }

            fn facts(grid: &$grid) -> GridFacts {
                GridFacts {
                    restore_count: grid.restore_count(),
                    area_version: grid.area_version(),
                }
            }

            /// [FLOW.RUN.STEP] A grid of another size is `size_mismatch`.
            fn check_grid(&self, grid: &$grid) -> Result<(), GridSearchError> {
                let (w, h) = (self.engine.width, self.engine.height);
                if grid.width() != w || grid.height() != h {
                    return Err(GridSearchError::size_mismatch(
                        (w, h),
                        (grid.width(), grid.height()),
                    ));
                }
                Ok(())
            }

            /// [FLOW.QUERY.CELL] Usability first, then the range (x first).
            fn check_cell(&self, x: usize, y: usize) -> Result<u32, GridSearchError> {
                let (w, h) = (self.engine.width, self.engine.height);
                if !self.engine.usable {
                    return Err(GridSearchError::unusable());
                }
                if x >= w {
                    return Err(GridSearchError::cell("cell", 'x', x, w));
                }
                if y >= h {
                    return Err(GridSearchError::cell("cell", 'y', y, h));
                }
                Ok((y * w + x) as u32)
            }
        }
    };
}

/// [FLOW.API.NEW] A flow field over a square `Grid`.
pub struct GridFlowField {
    engine: Engine,
    agent_size: u32,
    connectivity: Connectivity,
    diagonal: DiagonalRule,
    listener: usize,
}

impl std::fmt::Debug for GridFlowField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GridFlowField")
            .field("width", &self.engine.width)
            .field("height", &self.engine.height)
            .field("status", &self.engine.status)
            .finish_non_exhaustive()
    }
}

impl GridFlowField {
    /// [FLOW.API.NEW] [FLOW.API.OPTIONS] [FLOW.API.GOALS] A new, not-started flow field
    /// listening to `grid`.
    pub fn new(
        grid: &mut Grid,
        options: GridOptions,
        goals: &[(usize, usize)],
    ) -> Result<Self, GridSearchError> {
        check_options(&options, false)?;
        let goals = check_goals(grid.width(), grid.height(), goals)?;
        let facts = Self::facts(grid);
        let engine = Engine::new(
            grid.width(),
            grid.height(),
            goals,
            options.iteration_budget,
            &facts,
        );
        let listener = grid.add_listener(listener_for(&engine.shared));
        Ok(GridFlowField {
            engine,
            agent_size: options.agent_size,
            connectivity: options.connectivity,
            diagonal: options.diagonal,
            listener,
        })
    }

    fn surface<'g>(&self, grid: &'g Grid) -> SquareSurface<'g> {
        SquareSurface::new(grid, self.agent_size, self.connectivity, self.diagonal)
    }
}

flow_field_methods!(GridFlowField, Grid);

/// [FLOW.API.NEW] A flow field over a `HexGrid`.
pub struct HexFlowField {
    engine: Engine,
    listener: usize,
}

impl std::fmt::Debug for HexFlowField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HexFlowField")
            .field("width", &self.engine.width)
            .field("height", &self.engine.height)
            .field("status", &self.engine.status)
            .finish_non_exhaustive()
    }
}

impl HexFlowField {
    /// [FLOW.API.NEW] [FLOW.API.OPTIONS] [FLOW.API.GOALS] A new, not-started flow field
    /// listening to `grid`.
    pub fn new(
        grid: &mut HexGrid,
        options: GridOptions,
        goals: &[(usize, usize)],
    ) -> Result<Self, GridSearchError> {
        check_options(&options, true)?;
        let goals = check_goals(grid.width(), grid.height(), goals)?;
        let facts = Self::facts(grid);
        let engine = Engine::new(
            grid.width(),
            grid.height(),
            goals,
            options.iteration_budget,
            &facts,
        );
        let listener = grid.add_listener(listener_for(&engine.shared));
        Ok(HexFlowField { engine, listener })
    }

    fn surface<'g>(&self, grid: &'g HexGrid) -> HexSurface<'g> {
        HexSurface::new(grid)
    }
}

flow_field_methods!(HexFlowField, HexGrid);
