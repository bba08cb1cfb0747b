//! The families a port claims ([DRIVER.LEVEL.FAMILY]): the unit of a claim, of a level and of
//! a failure budget. A leaf module: the driver messages, the state recipes and the family
//! registry all name it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A family a port can claim ([DRIVER.LEVEL.FAMILY]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
pub enum Family {
    /// Graphs, graph searches, landmarks, links, graph state (kinds 4 and 11).
    #[serde(rename = "graph")]
    Graph,
    /// Square, hex and voxel grid state (kinds 1-3) with their listeners.
    #[serde(rename = "grids")]
    Grids,
    /// Square-grid searches (`run_grid`) and their state (kinds 8, 9, 10, 12).
    #[serde(rename = "grid-search")]
    GridSearch,
    /// Replanners on square and hex grids (`run_replan`) and their state (kinds 5, 6).
    #[serde(rename = "replanning")]
    Replanning,
    /// Flow fields on square and hex grids (`run_flow`) and their state (kind 7).
    #[serde(rename = "flow-field")]
    FlowField,
    /// Hex-grid A* and Dijkstra (`run_lattice` on a hex grid).
    #[serde(rename = "hex-search")]
    HexSearch,
    /// Voxel A* and Dijkstra (`run_lattice` on a voxel grid).
    #[serde(rename = "voxel-search")]
    VoxelSearch,
    /// HPA* on square grids (`run_hpa`).
    #[serde(rename = "hpa")]
    Hpa,
    /// Bidirectional square-grid search (`run_bidi`).
    #[serde(rename = "grid-bidi")]
    GridBidi,
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 9] = [
        Family::Graph,
        Family::Grids,
        Family::GridSearch,
        Family::Replanning,
        Family::FlowField,
        Family::HexSearch,
        Family::VoxelSearch,
        Family::Hpa,
        Family::GridBidi,
    ];

    /// The family's name on the wire and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::Graph => "graph",
            Family::Grids => "grids",
            Family::GridSearch => "grid-search",
            Family::Replanning => "replanning",
            Family::FlowField => "flow-field",
            Family::HexSearch => "hex-search",
            Family::VoxelSearch => "voxel-search",
            Family::Hpa => "hpa",
            Family::GridBidi => "grid-bidi",
        }
    }
}
