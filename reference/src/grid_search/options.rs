//! [GS.OPT] Grid search options, enums, results and errors (spec/grid-search.md §1, §9, §11).

use std::fmt;
use std::sync::Arc;

use crate::options::PathStatus;

/// [GS.OPT.FIELDS] [GS.MOVE.DIAGONAL] Four or eight neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Connectivity {
    /// [GS.MOVE.DIAGONAL] Straight moves only.
    Four,
    /// [GS.MOVE.DIAGONAL] Straight and diagonal moves.
    #[default]
    Eight,
}

/// [GS.OPT.FIELDS] [GS.MOVE.DIAGONAL] When a diagonal move may pass a blocked corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DiagonalRule {
    /// [GS.MOVE.DIAGONAL] Nothing beyond the target cell is checked.
    Always,
    /// [GS.MOVE.DIAGONAL] At least one of the two side cells is passable.
    AtMostOneBlocked,
    /// [GS.MOVE.DIAGONAL] Both side cells are passable (no corner cutting).
    #[default]
    NoneBlocked,
}

/// [GS.OPT.ALGORITHM] The grid algorithms; the numbers are saved as a `u8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum GridAlgorithm {
    /// [GS.OPT.ALGORITHM] A* with the octile estimate.
    #[default]
    AStar = 0,
    /// [GS.OPT.ALGORITHM] A* with the zero estimate.
    Dijkstra = 1,
    /// [GS.OPT.ALGORITHM] Jump point search (block scans).
    Jps = 2,
    /// [GS.OPT.ALGORITHM] Jump point search (tables).
    JpsPlus = 3,
    /// [GS.OPT.ALGORITHM] Theta* (any angle).
    Theta = 4,
    /// [GS.OPT.ALGORITHM] Lazy Theta* (any angle).
    LazyTheta = 5,
}

/// [GS.OPT.HOOKS] The extra cost of the move `from -> to`.
pub type CellCostFn = Arc<dyn Fn(u32, u32) -> f64 + Send + Sync>;
/// [GS.OPT.HOOKS] Whether a cell is impassable.
pub type CellBlockedFn = Arc<dyn Fn(u32) -> bool + Send + Sync>;

/// [GS.OPT.FIELDS] The options of every grid search.
#[derive(Clone)]
pub struct GridOptions {
    /// [GS.OPT.FIELDS] [GS.PASS] The agent's side in cells (`1..=255`).
    pub agent_size: u32,
    /// [GS.OPT.FIELDS] Four or eight neighbours.
    pub connectivity: Connectivity,
    /// [GS.OPT.FIELDS] The corner rule of diagonal moves.
    pub diagonal: DiagonalRule,
    /// [GS.OPT.FIELDS] The algorithm asked for.
    pub algorithm: GridAlgorithm,
    /// [GS.OPT.HOOKS] [GS.COST.MOVE] An extra cost per move.
    pub cell_cost: Option<CellCostFn>,
    /// [GS.OPT.HOOKS] [GS.PASS] Cells made impassable.
    pub blocked: Option<CellBlockedFn>,
    /// [GS.OPT.FIELDS] [GS.EST.SCALE] The estimate's weight (finite, `>= 1.0`).
    pub heuristic_weight: f64,
    /// [GS.OPT.FIELDS] [GS.TIER1] Tier 1 only: the iteration cap (0 = unlimited).
    pub iteration_budget: u64,
    /// [GS.OPT.FIELDS] Record the expanded cells.
    pub record_expansions: bool,
}

impl Default for GridOptions {
    /// [GS.OPT.FIELDS] The defaults.
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

/// [GS.HANDLE.API] [GS.HANDLE.SELECT] The engine a `GridSearch` runs (its saved mode and finder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridEngine {
    /// [GS.HANDLE.SELECT] Mode 0: `begin` was not called.
    NotBegun,
    /// [GS.HANDLE.SELECT] Mode 1: the specialised A* engine.
    SpecialisedAStar,
    /// [GS.HANDLE.SELECT] Mode 2 with an `AStar`.
    GenericAStar,
    /// [GS.HANDLE.SELECT] Mode 2 with a `JumpSearch`.
    GenericJump,
    /// [GS.HANDLE.SELECT] Mode 3: the specialised jump engine (finder 0 JPS, 1 JPS+).
    SpecialisedJump {
        /// [GS.STATE.MODE3] 0 for `Jps`, 1 for `JpsPlus`.
        finder: u8,
    },
}

/// [GS.TIER1] A tier-1 grid result.
#[derive(Clone, Debug, PartialEq)]
pub struct GridPath {
    /// [GS.TIER1] The algorithm that ran.
    pub algorithm: GridAlgorithm,
    /// [GS.TIER1] `Found`, `NotFound` or `BudgetExhausted`.
    pub status: PathStatus,
    /// [GS.TIER1] The path cost (`+infinity` unless found).
    pub cost: f64,
    /// [GS.TIER1] The path's cells (Theta*: its waypoints), start first.
    pub cells: Vec<u32>,
    /// [GS.TIER1] [GRID.SPACE.CENTER] The centre of each path cell.
    pub points: Vec<(f64, f64)>,
    /// [GS.TIER1] The recorded expanded cells (empty unless recording).
    pub expanded: Vec<u32>,
    /// [GS.TIER1] The number of expansions.
    pub expanded_count: u64,
    /// [GS.TIER1] The number of iterations.
    pub iterations: u64,
}

/// Which grid search check failed.
#[derive(Clone, Debug, PartialEq)]
enum Kind {
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
    UnsupportedAlgorithm {
        algorithm: GridAlgorithm,
        search: &'static str,
    },
    SizeMismatch {
        expected: (usize, usize),
        found: (usize, usize),
    },
    BrokenPath {
        cell: u32,
    },
    PathCycle {
        cell: u32,
    },
    InvalidGoals {
        count: usize,
        cells: usize,
    },
    Unusable,
    NotComplete,
}

/// [GS.OPT.VALID] [GS.ASTAR.BEGIN] [GS.ASTAR.ALGORITHMS] A failed grid search call; classes
/// `invalid_options`, `cell_out_of_range`, `unsupported_algorithm`. The message names the field or
/// axis and the value.
#[derive(Clone, Debug, PartialEq)]
pub struct GridSearchError {
    kind: Kind,
}

impl GridSearchError {
    pub(crate) fn options(field: &'static str, value: String) -> Self {
        Self {
            kind: Kind::InvalidOptions { field, value },
        }
    }
    pub(crate) fn cell(which: &'static str, axis: char, value: usize, size: usize) -> Self {
        Self {
            kind: Kind::CellOutOfRange {
                which,
                axis,
                value,
                size,
            },
        }
    }
    pub(crate) fn unsupported(algorithm: GridAlgorithm, search: &'static str) -> Self {
        Self {
            kind: Kind::UnsupportedAlgorithm { algorithm, search },
        }
    }

    /// [REPLAN.API.CLASSES] A grid of another size than the replanner's.
    pub(crate) fn size_mismatch(expected: (usize, usize), found: (usize, usize)) -> Self {
        Self {
            kind: Kind::SizeMismatch { expected, found },
        }
    }
    /// [REPLAN.PATH.BROKEN] A walk that found no neighbour with a finite value at `cell`.
    pub(crate) fn broken_path(cell: u32) -> Self {
        Self {
            kind: Kind::BrokenPath { cell },
        }
    }
    /// [REPLAN.PATH.BROKEN] A walk that took `cells` steps without reaching its end.
    pub(crate) fn path_cycle(cell: u32) -> Self {
        Self {
            kind: Kind::PathCycle { cell },
        }
    }

    /// [FLOW.API.GOALS] An empty goal list or more goals than cells.
    pub(crate) fn invalid_goals(count: usize, cells: usize) -> Self {
        Self {
            kind: Kind::InvalidGoals { count, cells },
        }
    }
    /// [FLOW.STATE.UNUSABLE] A flow field used after a failed restore.
    pub(crate) fn unusable() -> Self {
        Self {
            kind: Kind::Unusable,
        }
    }
    /// [FLOW.PATH.WALK] A path asked of a flow field that is not complete.
    pub(crate) fn not_complete() -> Self {
        Self {
            kind: Kind::NotComplete,
        }
    }

    /// [GS.OPT.VALID] [GS.ASTAR.BEGIN] [GS.ASTAR.ALGORITHMS] [REPLAN.API.CLASSES] [FLOW.API.CLASSES] The stable
    /// class name.
    pub fn class(&self) -> &'static str {
        match self.kind {
            Kind::InvalidOptions { .. } => "invalid_options",
            Kind::CellOutOfRange { .. } => "cell_out_of_range",
            Kind::UnsupportedAlgorithm { .. } => "unsupported_algorithm",
            Kind::SizeMismatch { .. } => "size_mismatch",
            Kind::BrokenPath { .. } => "broken_path",
            Kind::PathCycle { .. } => "path_cycle",
            Kind::InvalidGoals { .. } => "invalid_goals",
            Kind::Unusable => "unusable",
            Kind::NotComplete => "not_complete",
        }
    }
}

impl fmt::Display for GridSearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::InvalidOptions { field, value } => {
                write!(f, "invalid_options: {field} = {value} is not allowed")
            }
            Kind::CellOutOfRange {
                which,
                axis,
                value,
                size,
            } => write!(
                f,
                "cell_out_of_range: {which} {axis} = {value} is outside 0..{size}"
            ),
            Kind::UnsupportedAlgorithm { algorithm, search } => write!(
                f,
                "unsupported_algorithm: {search} cannot run {algorithm:?}"
            ),
            Kind::SizeMismatch { expected, found } => write!(
                f,
                "size_mismatch: the replanner or flow field is {} x {} cells, the grid {} x {}",
                expected.0, expected.1, found.0, found.1
            ),
            Kind::BrokenPath { cell } => write!(
                f,
                "broken_path: cell {cell} has a cost but no neighbour with a finite value"
            ),
            Kind::PathCycle { cell } => write!(
                f,
                "path_cycle: the cost field leads round in a cycle (walk still at cell {cell})"
            ),
            Kind::InvalidGoals { count, cells } => write!(
                f,
                "invalid_goals: {count} goals given, a flow field needs 1..={cells}"
            ),
            Kind::Unusable => write!(
                f,
                "unusable: the flow field failed a restore; restore it again or recompute it"
            ),
            Kind::NotComplete => write!(
                f,
                "not_complete: the flow field is not complete; step it until it is"
            ),
        }
    }
}

impl std::error::Error for GridSearchError {}

/// [GS.OPT.VALID] `agent_size` in `1..=255` and `heuristic_weight` finite and `>= 1.0`.
pub(crate) fn validate(options: &GridOptions) -> Result<(), GridSearchError> {
    if !(1..=255).contains(&options.agent_size) {
        return Err(GridSearchError::options(
            "agent_size",
            options.agent_size.to_string(),
        ));
    }
    let w = options.heuristic_weight;
    if !(w.is_finite() && w >= 1.0) {
        return Err(GridSearchError::options(
            "heuristic_weight",
            format!("{w:?}"),
        ));
    }
    Ok(())
}

/// [GS.ASTAR.BEGIN] Checks start then goal, x before y; returns the two cell indexes.
pub(crate) fn check_cells(
    width: usize,
    height: usize,
    start: (usize, usize),
    goal: (usize, usize),
) -> Result<(u32, u32), GridSearchError> {
    for (which, (x, y)) in [("start", start), ("goal", goal)] {
        if x >= width {
            return Err(GridSearchError::cell(which, 'x', x, width));
        }
        if y >= height {
            return Err(GridSearchError::cell(which, 'y', y, height));
        }
    }
    Ok((
        (start.1 * width + start.0) as u32,
        (goal.1 * width + goal.0) as u32,
    ))
}
