//! The flow-field part of the kit (spec/flow-fields.md, [CONF.FLOW.*]): a flow-field request is a
//! grid, options, goals and a *script* of steps (sliced steps, runs, recomputes, cell and area
//! edits, snapshots and rollbacks, foreign bytes); the reply reports what every step observed and
//! the final field cell by cell. The request and reply types are their own wire form: the same
//! serde encoding travels in vectors, across the [`Implementation`](crate::Implementation) trait
//! and through the driver protocol.

pub mod adapter;
pub mod cases;
pub mod oracle;
pub mod vectors;

use crate::grid::GridOptionsData;
use crate::port::wire::{Hex, Real};
pub use crate::replan::sha256_hex;
use crate::replan::ReplanGrid;
use crate::report::required;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The grid a flow field runs on: the replanners' grid form ([CONF.FLOW.REQUEST]).
pub type FlowGrid = ReplanGrid;

/// One step of a script ([CONF.FLOW.SCRIPT]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum FlowStep {
    /// `step(grid, budget)` (0 = unlimited).
    Step {
        /// The budget.
        budget: u64,
    },
    /// `step(grid, budget)` repeated while it returns `Running` (budget >= 1); the reply is the
    /// last call's.
    StepUntilDone {
        /// The budget of each call.
        budget: u64,
    },
    /// `run(grid)`: a step with the options' iteration budget.
    Run {},
    /// `recompute(grid, budget)`.
    Recompute {
        /// The budget.
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
    /// Saves the grid and then the field into the one snapshot slot.
    Save {},
    /// Restores the grid and then the field from the snapshot slot ([FLOW.STATE.ORDER]).
    Rollback {},
    /// Restores the grid alone from the snapshot slot ([FLOW.EDIT.GRID_RESTORE]).
    RollbackGrid {},
    /// `detach(grid)`; the error is `not_attached` when it returns false ([FLOW.API.DETACH]).
    Detach {},
    /// `restore_state(grid, bytes)` on the field alone.
    Restore {
        /// The bytes, lowercase hex.
        bytes: Hex,
    },
}

/// A flow-field request ([CONF.FLOW.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowRequest {
    /// The grid.
    pub grid: FlowGrid,
    /// The options, as those of a grid request ([DRIVER.ENC.GRID]).
    pub options: GridOptionsData,
    /// The goals `(x, y)`, in creation order (the list `new` receives).
    pub goals: Vec<(u32, u32)>,
    /// The steps, in order.
    pub script: Vec<FlowStep>,
    /// The cells `(x, y)` whose `path` the reply reports after the last step.
    pub probes: Vec<(u32, u32)>,
}

/// What one step observed ([CONF.FLOW.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowStepReply {
    /// The class of the step's failed call (`class@offset` for a rejected restore), or null.
    #[serde(deserialize_with = "required")]
    pub error: Option<String>,
    /// What a step, run or recompute returned ([FLOW.RUN.STATUS] code); null for other steps
    /// and for a failed call.
    #[serde(deserialize_with = "required")]
    pub returned: Option<u8>,
    /// `status()` after the step.
    pub status: u8,
    /// `is_repairing()`.
    pub repairing: bool,
    /// `is_usable()`.
    pub usable: bool,
    /// `settled()`.
    pub settled: u64,
    /// `pending_count()`.
    pub pending: u64,
    /// [CONF.FLOW.REPLY] SHA-256 of the field (per cell: cost bits, step), lowercase hex.
    pub field_sha256: String,
    /// SHA-256 of the field's `save_state()` after the step, lowercase hex.
    pub state_sha256: String,
}

/// A path query after the last step ([CONF.FLOW.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathProbe {
    /// The cell asked, `(x, y)`.
    pub from: (u32, u32),
    /// The path (empty when it fails).
    pub path: Vec<u32>,
    /// The class of a failed `path`, or null.
    #[serde(deserialize_with = "required")]
    pub error: Option<String>,
}

/// A flow-field reply ([CONF.FLOW.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum FlowReply {
    /// The class of the error `Grid::new` / `HexGrid::new` or the field's `new` gave.
    Failed(String),
    /// Every step's observation, the final field and the final state bytes.
    Ran {
        /// One per script step.
        steps: Vec<FlowStepReply>,
        /// The final `describe().costs`, by bit pattern.
        costs: Vec<Real>,
        /// The final `describe().next`.
        next: Vec<Option<u32>>,
        /// One per probe.
        paths: Vec<PathProbe>,
        /// The field's final `save_state()`.
        state: Hex,
    },
}

/// [CONF.FLOW.REPLY] The field hash: SHA-256 over every cell in index order of its cost's bit
/// pattern (u64 little-endian) and its step (i32 little-endian, -1 for none).
pub fn field_sha256(costs: &[f64], next: &[Option<u32>]) -> String {
    let mut bytes = Vec::with_capacity(costs.len() * 12);
    for (c, n) in costs.iter().zip(next) {
        bytes.extend_from_slice(&c.to_bits().to_le_bytes());
        bytes.extend_from_slice(&n.map_or(-1i32, |v| v as i32).to_le_bytes());
    }
    sha256_hex(&bytes)
}

/// The first difference between two replies, in words (step index and field, or the first
/// differing cell), or `None`.
pub fn first_difference(expected: &FlowReply, found: &FlowReply) -> Option<String> {
    match (expected, found) {
        (FlowReply::Failed(a), FlowReply::Failed(b)) if a == b => None,
        (FlowReply::Failed(a), FlowReply::Failed(b)) => {
            Some(format!("new failed with {b}, expected {a}"))
        }
        (FlowReply::Failed(a), FlowReply::Ran { .. }) => {
            Some(format!("new succeeded, expected failure {a}"))
        }
        (FlowReply::Ran { .. }, FlowReply::Failed(b)) => {
            Some(format!("new failed with {b}, expected success"))
        }
        (
            FlowReply::Ran {
                steps: ea,
                costs: ca,
                next: na,
                paths: pa,
                state: sa,
            },
            FlowReply::Ran {
                steps: eb,
                costs: cb,
                next: nb,
                paths: pb,
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
            if let Some(d) = field_difference(ca, na, cb, nb) {
                return Some(format!("final field: {d}"));
            }
            if pa.len() != pb.len() {
                return Some(format!("{} path probes, expected {}", pb.len(), pa.len()));
            }
            for (a, b) in pa.iter().zip(pb) {
                if a != b {
                    return Some(format!(
                        "path from {} is {} (error {}), expected {} (error {})",
                        crate::replan::json_words(&a.from),
                        crate::replan::json_words(&b.path),
                        crate::replan::json_words(&b.error),
                        crate::replan::json_words(&a.path),
                        crate::replan::json_words(&a.error)
                    ));
                }
            }
            (sa != sb).then(|| "the final state bytes differ".to_string())
        }
    }
}

/// The first differing cell of two fields (cost bits, then step), in words.
pub fn field_difference(
    ca: &[Real],
    na: &[Option<u32>],
    cb: &[Real],
    nb: &[Option<u32>],
) -> Option<String> {
    if ca.len() != cb.len() || na.len() != nb.len() {
        return Some(format!(
            "{} costs and {} steps, expected {} and {}",
            cb.len(),
            nb.len(),
            ca.len(),
            na.len()
        ));
    }
    for (i, ((a, b), (x, y))) in ca.iter().zip(cb).zip(na.iter().zip(nb)).enumerate() {
        if a != b {
            return Some(format!(
                "cell {i}: cost {:?} (bits {:016x}), expected {:?} (bits {:016x})",
                b.0,
                b.0.to_bits(),
                a.0,
                a.0.to_bits()
            ));
        }
        if x != y {
            return Some(format!(
                "cell {i}: step {}, expected {}",
                y.as_ref()
                    .map_or_else(|| "none".to_string(), |v| v.to_string()),
                x.as_ref()
                    .map_or_else(|| "none".to_string(), |v| v.to_string())
            ));
        }
    }
    None
}

/// The first differing field of two step replies.
fn step_difference(a: &FlowStepReply, b: &FlowStepReply) -> Option<String> {
    macro_rules! field {
        ($f:ident) => {
            if a.$f != b.$f {
                return Some(format!(
                    concat!(stringify!($f), " is {}, expected {}"),
                    crate::replan::json_words(&b.$f),
                    crate::replan::json_words(&a.$f)
                ));
            }
        };
    }
    field!(error);
    field!(returned);
    field!(status);
    field!(repairing);
    field!(usable);
    field!(settled);
    field!(pending);
    field!(field_sha256);
    field!(state_sha256);
    None
}
