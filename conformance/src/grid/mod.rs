//! The grid-search part of the kit (spec/grid-search.md, [CONF.GRID.*]): plain-data requests and
//! replies that cross the [`Implementation`](crate::Implementation) trait, an independent oracle
//! (move graph, exact Dijkstra, line of sight), seeded cases and the in-process adapters.

pub mod adapter;
pub mod cases;
pub mod oracle;
pub mod vector_slices;
pub mod vectors;

use serde::{Deserialize, Serialize};

/// A square grid as data ([CONF.GRID.MAP]): cells row-major (area ids, 255 = wall), then
/// `set_area_multiplier` calls in order, then the space (or none: unassigned).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridMap {
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// `width * height` area ids, row-major.
    pub cells: Vec<u8>,
    /// `(area, multiplier)` calls.
    pub multipliers: Vec<(u8, f64)>,
    /// `[origin_x, origin_y, cell_size]`, or none.
    pub space: Option<[f64; 3]>,
}

impl GridMap {
    /// The cell index of `(x, y)`.
    pub fn index(&self, x: u32, y: u32) -> u32 {
        y * self.width + x
    }
    /// The multiplier of `area` after the calls (1.0 when never set; none for the wall).
    pub fn multiplier(&self, area: u8) -> Option<f64> {
        if area == 255 {
            return None;
        }
        Some(
            self.multipliers
                .iter()
                .rev()
                .find(|(a, _)| *a == area)
                .map(|(_, m)| *m)
                .unwrap_or(1.0),
        )
    }
}

/// A deterministic `cell_cost(from, to)` hook as data ([CONF.GRID.HOOKS]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum CellCostRule {
    /// `extra` when `(from + 3 * to) % modulus == 0`, else `0.0`.
    ExtraWhere {
        /// Modulus (>= 1).
        modulus: u32,
        /// The extra cost.
        extra: f64,
    },
    /// NaN, `-1.0` or `+infinity` (cycling by `(from + to) % 3`) when `(from + 3 * to) % modulus
    /// == 0`, else `0.5`: moves the spec forbids.
    InvalidWhere {
        /// Modulus (>= 1).
        modulus: u32,
    },
}

impl CellCostRule {
    /// The hook's value.
    pub fn extra(self, from: u32, to: u32) -> f64 {
        let hit = |m: u32| (from as u64 + 3 * to as u64) % m.max(1) as u64 == 0;
        match self {
            CellCostRule::ExtraWhere { modulus, extra } => {
                if hit(modulus) {
                    extra
                } else {
                    0.0
                }
            }
            CellCostRule::InvalidWhere { modulus } => {
                if hit(modulus) {
                    [f64::NAN, -1.0, f64::INFINITY][((from as u64 + to as u64) % 3) as usize]
                } else {
                    0.5
                }
            }
        }
    }
}

/// A deterministic `blocked(cell)` hook: `cell % modulus == residue`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CellBlockRule {
    /// Modulus (>= 1).
    pub modulus: u32,
    /// Residue.
    pub residue: u32,
}

impl CellBlockRule {
    /// Whether `cell` is blocked.
    pub fn blocked(self, cell: u32) -> bool {
        cell % self.modulus.max(1) == self.residue
    }
}

/// `GridOptions` as data ([GS.OPT.FIELDS]); enums by their numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridOptionsData {
    /// Agent size.
    pub agent_size: u32,
    /// 4 or 8.
    pub connectivity: u8,
    /// 0 `Always`, 1 `AtMostOneBlocked`, 2 `NoneBlocked`.
    pub diagonal: u8,
    /// [GS.OPT.ALGORITHM] value.
    pub algorithm: u8,
    /// `cell_cost` hook.
    pub cell_cost: Option<CellCostRule>,
    /// `blocked` hook.
    pub blocked: Option<CellBlockRule>,
    /// Heuristic weight.
    pub weight: f64,
    /// `record_expansions`.
    pub record: bool,
    /// `iteration_budget` (tier 1 only).
    pub budget: u64,
}

impl Default for GridOptionsData {
    fn default() -> Self {
        GridOptionsData {
            agent_size: 1,
            connectivity: 8,
            diagonal: 2,
            algorithm: 0,
            cell_cost: None,
            blocked: None,
            weight: 1.0,
            record: true,
            budget: 0,
        }
    }
}

/// Algorithm names, by [GS.OPT.ALGORITHM] value.
pub const ALGORITHM_NAMES: [&str; 6] = [
    "astar",
    "dijkstra",
    "jps",
    "jps_plus",
    "theta",
    "lazy_theta",
];
/// Diagonal rule names, by value.
pub const RULE_NAMES: [&str; 3] = ["always", "at_most_one_blocked", "none_blocked"];

impl GridOptionsData {
    /// A short label: `jps/8/none_blocked/a1` plus hooks and weight when set.
    pub fn label(&self) -> String {
        let mut s = format!(
            "{}/{}/{}/a{}",
            ALGORITHM_NAMES.get(self.algorithm as usize).unwrap_or(&"?"),
            self.connectivity,
            RULE_NAMES.get(self.diagonal as usize).unwrap_or(&"?"),
            self.agent_size
        );
        if self.weight != 1.0 {
            s += &format!("/w{}", self.weight);
        }
        if let Some(c) = self.cell_cost {
            s += &format!("/cost:{c:?}");
        }
        if let Some(b) = self.blocked {
            s += &format!("/blocked:{}%{}", b.residue, b.modulus);
        }
        if self.budget > 0 {
            s += &format!("/budget{}", self.budget);
        }
        s
    }
}

/// Which API runs the query ([CONF.GRID.ENGINES]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GridApi {
    /// `find_grid_path` (tier 1).
    Tier1,
    /// `GridSearch` (the handle).
    Handle,
    /// `AStar`.
    #[serde(rename = "astar")]
    AStar,
    /// `JumpSearch`.
    Jump,
    /// `ThetaSearch`.
    Theta,
}

/// One grid query ([CONF.GRID.REQUEST]): build the grid, create the search, `begin`, then
/// `step(schedule[i % len])` until the status is not `Running` (`run(None)` when the schedule
/// is empty). With `snapshot_after = k`, after the `k`-th step call (if still running) the
/// search and the grid are saved, a new grid is made by `Grid::from_state`, a new search over it
/// by `new`, the search bytes restored into it, and the run continues on the new search.
#[derive(Clone, Debug, PartialEq)]
pub struct GridRequest {
    /// The grid.
    pub map: GridMap,
    /// Options.
    pub options: GridOptionsData,
    /// API.
    pub api: GridApi,
    /// Start `(x, y)`.
    pub start: (u32, u32),
    /// Goal `(x, y)`.
    pub goal: (u32, u32),
    /// Step budgets (tier 2), cycled; empty: `run(None)`.
    pub schedule: Vec<u64>,
    /// Snapshot after this many step calls.
    pub snapshot_after: Option<usize>,
}

/// What a grid query observed ([CONF.GRID.REPLY]).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GridReply {
    /// 0 NotStarted, 1 Running, 2 Found, 3 NotFound (tier 2); tier 1: 2 Found, 3 NotFound,
    /// 4 BudgetExhausted.
    pub status: u8,
    /// Handle and tier 1: the engine mode of [GS.STATE.HEADER12] (0 for the other APIs).
    pub mode: u8,
    /// Mode 3: the finder; else 0.
    pub finder: u8,
    /// The algorithm that ran ([GS.OPT.ALGORITHM]; the request's for the engines).
    pub algorithm: u8,
    /// Path cost bits.
    pub cost_bits: u64,
    /// Path cells.
    pub path: Vec<u32>,
    /// Tier 1: the world points' bits.
    pub points: Vec<(u64, u64)>,
    /// Recorded expansions.
    pub expansions: Vec<u32>,
    /// Iterations.
    pub iterations: u64,
    /// Expanded count.
    pub expanded: u64,
    /// Tier 2: `save_state()` at the end (empty for tier 1).
    pub state: Vec<u8>,
    /// The search bytes saved at the snapshot (empty when none was taken).
    pub snapshot: Vec<u8>,
    /// The restored search saved again right after its restore (must equal `snapshot`).
    pub resaved: Vec<u8>,
}

/// The result of a grid query: a reply, or the class of the error `new`/`begin` gave.
pub type GridOutcome = Result<GridReply, String>;

/// Status value of `Found`.
pub const FOUND: u8 = 2;
/// Status value of `NotFound`.
pub const NOT_FOUND: u8 = 3;
/// Tier-1 `BudgetExhausted`.
pub const BUDGET_EXHAUSTED: u8 = 4;

/// The first difference between two outcomes, as `(what, expected, found)`.
pub fn first_difference(
    expected: &GridOutcome,
    found: &GridOutcome,
) -> Option<(String, String, String)> {
    let (e, f) = match (expected, found) {
        (Ok(e), Ok(f)) => (e, f),
        (Err(a), Err(b)) if a == b => return None,
        _ => {
            let show = |o: &GridOutcome| match o {
                Ok(r) => format!("status {}", r.status),
                Err(c) => format!("error {c}"),
            };
            return Some(("result".into(), show(expected), show(found)));
        }
    };
    let scalar = |what: &str, a: u64, b: u64| {
        (a != b).then(|| (what.to_string(), a.to_string(), b.to_string()))
    };
    if let Some(d) = scalar("status", e.status as u64, f.status as u64)
        .or_else(|| scalar("engine mode", e.mode as u64, f.mode as u64))
        .or_else(|| scalar("finder", e.finder as u64, f.finder as u64))
        .or_else(|| scalar("algorithm", e.algorithm as u64, f.algorithm as u64))
    {
        return Some(d);
    }
    if e.cost_bits != f.cost_bits {
        return Some((
            "cost".into(),
            format!("{:?} ({:#018x})", f64::from_bits(e.cost_bits), e.cost_bits),
            format!("{:?} ({:#018x})", f64::from_bits(f.cost_bits), f.cost_bits),
        ));
    }
    let list = |what: &str, a: &[u32], b: &[u32]| -> Option<(String, String, String)> {
        let i = a
            .iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .or_else(|| (a.len() != b.len()).then(|| a.len().min(b.len())))?;
        let at = |v: &[u32]| {
            v.get(i)
                .map(|c| format!("cell {c}"))
                .unwrap_or_else(|| "end of list".into())
        };
        Some((format!("{what} entry {i}"), at(a), at(b)))
    };
    if let Some(d) =
        list("expansion", &e.expansions, &f.expansions).or_else(|| list("path", &e.path, &f.path))
    {
        return Some(d);
    }
    if let Some(d) = scalar("iterations", e.iterations, f.iterations)
        .or_else(|| scalar("expanded count", e.expanded, f.expanded))
    {
        return Some(d);
    }
    if e.points != f.points {
        return Some((
            "world points".into(),
            format!("{:?}", e.points),
            format!("{:?}", f.points),
        ));
    }
    let bytes = |what: &str, a: &[u8], b: &[u8]| -> Option<(String, String, String)> {
        let i = a
            .iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .or_else(|| (a.len() != b.len()).then(|| a.len().min(b.len())))?;
        let at = |v: &[u8]| {
            v.get(i)
                .map(|c| format!("{c:#04x}"))
                .unwrap_or_else(|| format!("end ({} bytes)", v.len()))
        };
        Some((format!("{what} byte {i}"), at(a), at(b)))
    };
    bytes("state", &e.state, &f.state)
        .or_else(|| bytes("snapshot", &e.snapshot, &f.snapshot))
        .or_else(|| bytes("re-saved snapshot", &e.resaved, &f.resaved))
}
