//! Grid search options, results and errors (spec/grid-search.md §1, §9, §11).

use crate::tier1::PathStatus;
use std::fmt;
use std::sync::Arc;

/// [GS.OPT.FIELDS] [GS.MOVE.DIAGONAL] Four- or eight-connected moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Connectivity {
    /// [GS.MOVE.DIAGONAL] Straight moves only.
    Four,
    /// [GS.MOVE.DIAGONAL] Straight and diagonal moves.
    #[default]
    Eight,
}

/// [GS.MOVE.DIAGONAL] When a diagonal move may pass a blocked corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DiagonalRule {
    /// [GS.MOVE.DIAGONAL] No corner condition.
    Always,
    /// [GS.MOVE.DIAGONAL] At least one of the two corner cells passable.
    AtMostOneBlocked,
    /// [GS.MOVE.DIAGONAL] Both corner cells passable (no corner cutting).
    #[default]
    NoneBlocked,
}

/// [GS.OPT.ALGORITHM] The algorithm a grid search runs (saved as a `u8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum GridAlgorithm {
    /// [GS.OPT.ALGORITHM] A*.
    #[default]
    AStar = 0,
    /// [GS.OPT.ALGORITHM] Dijkstra (A* with the zero estimate).
    Dijkstra = 1,
    /// [GS.OPT.ALGORITHM] Jump point search.
    Jps = 2,
    /// [GS.OPT.ALGORITHM] Jump point search with precomputed tables.
    JpsPlus = 3,
    /// [GS.OPT.ALGORITHM] Theta*.
    Theta = 4,
    /// [GS.OPT.ALGORITHM] Lazy Theta*.
    LazyTheta = 5,
}

/// [GS.OPT.HOOKS] Extra cost of the move `from -> to` (cell indexes).
pub type CellCostFn = Arc<dyn Fn(u32, u32) -> f64 + Send + Sync>;
/// [GS.OPT.HOOKS] Whether a cell is impassable.
pub type CellBlockedFn = Arc<dyn Fn(u32) -> bool + Send + Sync>;

/// [GS.OPT.FIELDS] Options of a grid search.
#[derive(Clone)]
pub struct GridOptions {
    /// [GS.OPT.FIELDS] [GS.PASS] Agent size `1..=255` (clearance needed).
    pub agent_size: u32,
    /// [GS.OPT.FIELDS] Four or eight neighbours.
    pub connectivity: Connectivity,
    /// [GS.OPT.FIELDS] [GS.MOVE.DIAGONAL] The corner rule.
    pub diagonal: DiagonalRule,
    /// [GS.OPT.FIELDS] [GS.OPT.ALGORITHM] The algorithm.
    pub algorithm: GridAlgorithm,
    /// [GS.OPT.HOOKS] Extra move cost hook.
    pub cell_cost: Option<CellCostFn>,
    /// [GS.OPT.HOOKS] Blocked-cell hook.
    pub blocked: Option<CellBlockedFn>,
    /// [GS.OPT.FIELDS] [GS.EST.SCALE] Heuristic weight (finite, `>= 1`).
    pub heuristic_weight: f64,
    /// [GS.OPT.FIELDS] [GS.TIER1] Iteration budget of `find_grid_path` (0 = unlimited).
    pub iteration_budget: u64,
    /// [GS.OPT.FIELDS] Whether expanded cells are recorded.
    pub record_expansions: bool,
}

impl Default for GridOptions {
    fn default() -> Self {
        GridOptions {
            agent_size: 1,
            connectivity: Connectivity::Eight,
            diagonal: DiagonalRule::NoneBlocked,
            algorithm: GridAlgorithm::AStar,
            cell_cost: None,
            blocked: None,
            heuristic_weight: 1.0,
            iteration_budget: 0,
            record_expansions: false,
        }
    }
}

impl fmt::Debug for GridOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GridOptions")
            .field("agent_size", &self.agent_size)
            .field("connectivity", &self.connectivity)
            .field("diagonal", &self.diagonal)
            .field("algorithm", &self.algorithm)
            .field("cell_cost", &self.cell_cost.is_some())
            .field("blocked", &self.blocked.is_some())
            .field("heuristic_weight", &self.heuristic_weight)
            .field("iteration_budget", &self.iteration_budget)
            .field("record_expansions", &self.record_expansions)
            .finish()
    }
}

/// [GS.HANDLE.API] [GS.HANDLE.SELECT] The engine a `GridSearch` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridEngine {
    /// [GS.HANDLE.SELECT] Mode 0: `begin` not called yet.
    NotBegun,
    /// [GS.HANDLE.SELECT] Mode 1.
    SpecialisedAStar,
    /// [GS.HANDLE.SELECT] Mode 2 with an `AStar`.
    GenericAStar,
    /// [GS.HANDLE.SELECT] Mode 2 with a `JumpSearch`.
    GenericJump,
    /// [GS.HANDLE.SELECT] Mode 3 (finder 0 JPS, 1 JPS+).
    SpecialisedJump {
        /// [GS.STATE.MODE3] 0 block scans, 1 tables.
        finder: u8,
    },
}

/// [GS.TIER1] The result of `find_grid_path`.
#[derive(Clone, Debug, PartialEq)]
pub struct GridPath {
    /// [GS.TIER1] The algorithm that ran.
    pub algorithm: GridAlgorithm,
    /// [GS.TIER1] Found, NotFound or BudgetExhausted.
    pub status: PathStatus,
    /// [GS.TIER1] The path cost (`+infinity` unless found).
    pub cost: f64,
    /// [GS.TIER1] The path cells (Theta*: waypoints).
    pub cells: Vec<u32>,
    /// [GS.TIER1] [GRID.SPACE.CENTER] Each path cell's centre.
    pub points: Vec<(f64, f64)>,
    /// [GS.TIER1] The recorded expanded cells.
    pub expanded: Vec<u32>,
    /// [GS.TIER1] Expansions.
    pub expanded_count: u64,
    /// [GS.TIER1] Iterations.
    pub iterations: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum GsKind {
    InvalidOptions {
        field: &'static str,
        value: String,
    },
    CellOutOfRange {
        which: &'static str,
        axis: char,
        value: usize,
        size: usize,
    },
    Unsupported {
        algorithm: GridAlgorithm,
        engine: &'static str,
    },
    /// [REPLAN.API.CLASSES] [REPLAN.RUN.REPLAN] A grid of another size than the replanner's.
    SizeMismatch {
        expected: (usize, usize),
        found: (usize, usize),
    },
    /// [REPLAN.API.CLASSES] [REPLAN.PATH.BROKEN] No neighbour with a finite value at `cell`.
    BrokenPath {
        cell: u32,
    },
    /// [REPLAN.API.CLASSES] [REPLAN.PATH.BROKEN] `steps` steps without reaching the source.
    PathCycle {
        steps: usize,
    },
    /// [FLOW.API.GOALS] [FLOW.API.CLASSES] An empty goal list, or more goals than cells.
    InvalidGoals {
        count: usize,
        cells: usize,
    },
    /// [FLOW.STATE.UNUSABLE] [FLOW.API.CLASSES] A flow field after a failed restore.
    Unusable,
    /// [FLOW.PATH.WALK] [FLOW.API.CLASSES] A path query on a field that is not complete.
    NotComplete,
}

/// [GS.OPT.VALID] [GS.ASTAR.BEGIN] [GS.ASTAR.ALGORITHMS] [REPLAN.API.CLASSES] A grid search
/// error; `class()` is `invalid_options`, `cell_out_of_range`, `unsupported_algorithm` or, from
/// the replanners, `size_mismatch`, `broken_path` and `path_cycle`, or, from the flow fields
/// ([FLOW.API.CLASSES]), `invalid_goals`, `unusable` and `not_complete`.
#[derive(Clone, Debug, PartialEq)]
pub struct GridSearchError {
    kind: GsKind,
}

impl GridSearchError {
    pub(crate) fn new(kind: GsKind) -> Self {
        GridSearchError { kind }
    }

    /// [GS.OPT.VALID] [GS.ASTAR.BEGIN] [GS.ASTAR.ALGORITHMS] [REPLAN.API.CLASSES] The stable
    /// class name.
    pub fn class(&self) -> &'static str {
        match self.kind {
            GsKind::InvalidOptions { .. } => "invalid_options",
            GsKind::CellOutOfRange { .. } => "cell_out_of_range",
            GsKind::Unsupported { .. } => "unsupported_algorithm",
            GsKind::SizeMismatch { .. } => "size_mismatch",
            GsKind::BrokenPath { .. } => "broken_path",
            GsKind::PathCycle { .. } => "path_cycle",
            GsKind::InvalidGoals { .. } => "invalid_goals",
            GsKind::Unusable => "unusable",
            GsKind::NotComplete => "not_complete",
        }
    }
}

impl fmt::Display for GridSearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.class())?;
        match &self.kind {
            GsKind::InvalidOptions { field, value } => {
                write!(f, "option {field} = {value} is not valid")
            }
            GsKind::CellOutOfRange {
                which,
                axis,
                value,
                size,
            } => write!(
                f,
                "{which} {axis} = {value} is not below the grid's {axis} size {size}"
            ),
            GsKind::Unsupported { algorithm, engine } => {
                write!(f, "{engine} does not run algorithm {algorithm:?}")
            }
            GsKind::SizeMismatch { expected, found } => write!(
                f,
                "the grid is {}x{}, the replanner's or flow field's is {}x{}",
                found.0, found.1, expected.0, expected.1
            ),
            GsKind::BrokenPath { cell } => write!(
                f,
                "cell {cell} has a cost but no way on (no neighbour with a finite value, or no step)"
            ),
            GsKind::PathCycle { steps } => write!(
                f,
                "the path walk took {steps} steps without reaching the source or a goal (a cycle)"
            ),
            GsKind::InvalidGoals { count, cells } => write!(
                f,
                "{count} goals: a flow field needs 1 to {cells} goals (the grid's cell count)"
            ),
            GsKind::Unusable => write!(
                f,
                "the flow field is unusable after a failed restore (restore it or recompute)"
            ),
            GsKind::NotComplete => write!(
                f,
                "the flow field is not complete (step or run it to completion first)"
            ),
        }
    }
}

impl std::error::Error for GridSearchError {}

/// [GS.OPT.VALID] Agent size `1..=255`, weight finite and `>= 1`.
// [GS.OPT.VALID]/[GS.ASTAR.ALGORITHMS]: when both apply, invalid_options is reported
// before unsupported_algorithm (agent_size before heuristic_weight).
pub(crate) fn validate(o: &GridOptions) -> Result<(), GridSearchError> {
    if !(1..=255).contains(&o.agent_size) {
        return Err(GridSearchError::new(GsKind::InvalidOptions {
            field: "agent_size",
            value: o.agent_size.to_string(),
        }));
    }
    if !(o.heuristic_weight.is_finite() && o.heuristic_weight >= 1.0) {
        return Err(GridSearchError::new(GsKind::InvalidOptions {
            field: "heuristic_weight",
            value: o.heuristic_weight.to_string(),
        }));
    }
    Ok(())
}

pub(crate) fn unsupported(algorithm: GridAlgorithm, engine: &'static str) -> GridSearchError {
    GridSearchError::new(GsKind::Unsupported { algorithm, engine })
}
