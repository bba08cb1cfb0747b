//! The replanning part of the kit (spec/replanning.md, [CONF.REPLAN.*]): a replanner request is a
//! grid, options, a mode, the ends and a *script* of steps (replans, edits, end moves, snapshots
//! and rollbacks, foreign bytes); the reply reports what every step observed. The request and
//! reply types are their own wire form: the same serde encoding travels in vectors, across the
//! [`Implementation`](crate::Implementation) trait and through the driver protocol.

pub mod adapter;
pub mod cases;
pub mod oracle;
pub mod vectors;

use crate::grid::vectors::MapFile;
use crate::grid::GridOptionsData;
use crate::port::wire::{Hex, Real};
use crate::report::required;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The grid a replanner runs on ([CONF.REPLAN.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplanGrid {
    /// `null` for a square `Grid`, else the [GRID.HEX.LAYOUT] value of a `HexGrid`.
    #[serde(deserialize_with = "required")]
    pub hex_layout: Option<i32>,
    /// The cells, multipliers and space, as a grid vector's map ([CONF.GRID.VECTOR]).
    pub map: MapFile,
}

/// [REPLAN.API.NEW] The mode by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ModeName {
    /// LPA*.
    Lpa,
    /// D* Lite.
    DStarLite,
}

/// One step of a script ([CONF.REPLAN.SCRIPT]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ReplanStep {
    /// `replan(grid, budget)` (0 = unlimited).
    Replan {
        /// The budget.
        budget: u64,
    },
    /// `replan(grid, budget)` repeated while it returns `Running` (budget >= 1); the reply is the
    /// last call's, and `last_expanded` / `expansions` are those of the last call.
    ReplanUntilDone {
        /// The budget of each call.
        budget: u64,
    },
    /// `grid.set_cell(x, y, area)`.
    SetCell {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
        /// The new area id.
        area: u8,
    },
    /// `grid.set_area_multiplier(area, multiplier)`.
    SetArea {
        /// The area.
        area: u8,
        /// The multiplier (finite JSON number).
        multiplier: f64,
    },
    /// `set_start(x, y)`.
    SetStart {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// `set_goal(x, y)`.
    SetGoal {
        /// Column.
        x: u32,
        /// Row.
        y: u32,
    },
    /// `invalidate_all()`.
    InvalidateAll {},
    /// Saves the grid and then the replanner into the one snapshot slot.
    Save {},
    /// Restores the grid and then the replanner from the snapshot slot ([REPLAN.STATE.ORDER]).
    Rollback {},
    /// `restore_state(grid, bytes)` on the replanner alone.
    Restore {
        /// The bytes, lowercase hex.
        bytes: Hex,
    },
    /// `restore_state(other, bytes)` on the replanner, `other` a new grid of `width x height`
    /// (every cell 0; a `HexGrid` of the request's layout for a hex replanner): a grid of another
    /// size than the replanner's is `size_mismatch` ([REPLAN.STATE.RESTORE]).
    RestoreOnto {
        /// The other grid's width.
        width: u32,
        /// The other grid's height.
        height: u32,
        /// The bytes, lowercase hex.
        bytes: Hex,
    },
}

/// A replanner request ([CONF.REPLAN.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplanRequest {
    /// The grid.
    pub grid: ReplanGrid,
    /// The options, as those of a grid request ([DRIVER.ENC.GRID]).
    pub options: GridOptionsData,
    /// LPA* or D* Lite.
    pub mode: ModeName,
    /// `(x, y)`.
    pub start: (u32, u32),
    /// `(x, y)`.
    pub goal: (u32, u32),
    /// The steps, in order.
    pub script: Vec<ReplanStep>,
}

/// What one step observed ([CONF.REPLAN.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepReply {
    /// The class of the step's failed call (`class@offset` for a rejected restore), or null.
    #[serde(deserialize_with = "required")]
    pub error: Option<String>,
    /// A replan's result ([GRAPH.ASTAR.STATUS] code: 1 running, 2 found, 3 not found); null for
    /// other steps and for a failed replan.
    #[serde(deserialize_with = "required")]
    pub status: Option<u8>,
    /// `found()` after the step.
    pub found: bool,
    /// `path_cost()` after the step, by bit pattern.
    pub cost: Real,
    /// `path(grid)` after the step (empty when it fails).
    pub path: Vec<u32>,
    /// The class of a failed `path(grid)`, or null.
    #[serde(deserialize_with = "required")]
    pub path_error: Option<String>,
    /// `iterations()`.
    pub iterations: u64,
    /// `expanded_count()`.
    pub expanded: u64,
    /// `last_expanded()`.
    pub last_expanded: u64,
    /// `pending_count()`.
    pub pending: u64,
    /// `expansions()`.
    pub expansions: Vec<u32>,
    /// SHA-256 of the replanner's `save_state()` after the step, lowercase hex.
    pub state_sha256: String,
}

/// A replanner reply ([CONF.REPLAN.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ReplanReply {
    /// The class of the error `Grid::new` / `HexGrid::new` or the replanner's `new` gave.
    Failed(String),
    /// Every step's observation and the final state bytes.
    Ran {
        /// One per script step.
        steps: Vec<StepReply>,
        /// The replanner's final `save_state()`.
        state: Hex,
    },
}

/// SHA-256 of `bytes`, lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    // The same text as before, without a `format!` per byte (issue 36: the fuzz targets hash
    // every step's state).
    crate::outcome::sha256_hex(bytes)
}

/// The first difference between two replies, in words (step index and field), or `None`.
pub fn first_difference(expected: &ReplanReply, found: &ReplanReply) -> Option<String> {
    match (expected, found) {
        (ReplanReply::Failed(a), ReplanReply::Failed(b)) if a == b => None,
        (ReplanReply::Failed(a), ReplanReply::Failed(b)) => {
            Some(format!("new failed with {b}, expected {a}"))
        }
        (ReplanReply::Failed(a), ReplanReply::Ran { .. }) => {
            Some(format!("new succeeded, expected failure {a}"))
        }
        (ReplanReply::Ran { .. }, ReplanReply::Failed(b)) => {
            Some(format!("new failed with {b}, expected success"))
        }
        (
            ReplanReply::Ran {
                steps: ea,
                state: sa,
            },
            ReplanReply::Ran {
                steps: eb,
                state: sb,
            },
        ) => {
            if ea.len() != eb.len() {
                return Some(format!("{} step replies, expected {}", eb.len(), ea.len()));
            }
            for (i, (a, b)) in ea.iter().zip(eb).enumerate() {
                if let Some(d) = step_difference(a, b) {
                    return Some(format!("step {i}: {d}"));
                }
            }
            (sa != sb).then(|| "the final state bytes differ".to_string())
        }
    }
}

/// A reply member in words: its JSON text (`null`, `"class"`, `3`), never a Rust debug form.
pub(crate) fn json_words<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// The first differing field of two step replies.
fn step_difference(a: &StepReply, b: &StepReply) -> Option<String> {
    macro_rules! field {
        ($f:ident) => {
            if a.$f != b.$f {
                return Some(format!(
                    concat!(stringify!($f), " is {}, expected {}"),
                    json_words(&b.$f),
                    json_words(&a.$f)
                ));
            }
        };
    }
    field!(error);
    field!(status);
    field!(found);
    if a.cost != b.cost {
        return Some(format!(
            "cost is {:?} (bits {:016x}), expected {:?} (bits {:016x})",
            b.cost.0,
            b.cost.0.to_bits(),
            a.cost.0,
            a.cost.0.to_bits()
        ));
    }
    field!(path_error);
    if a.path != b.path {
        let at = a
            .path
            .iter()
            .zip(&b.path)
            .take_while(|(x, y)| x == y)
            .count();
        return Some(format!(
            "path differs at position {at} (length {} vs expected {})",
            b.path.len(),
            a.path.len()
        ));
    }
    field!(iterations);
    field!(expanded);
    field!(last_expanded);
    field!(pending);
    if a.expansions != b.expansions {
        let at = a
            .expansions
            .iter()
            .zip(&b.expansions)
            .take_while(|(x, y)| x == y)
            .count();
        return Some(format!(
            "expansions differ at position {at} (found {}, expected {})",
            b.expansions
                .get(at)
                .map_or_else(|| "the end".to_string(), |v| v.to_string()),
            a.expansions
                .get(at)
                .map_or_else(|| "the end".to_string(), |v| v.to_string())
        ));
    }
    field!(state_sha256);
    None
}
