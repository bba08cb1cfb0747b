//! The STATE part of the kit ([CONF.STATE.*]): recipes (a small JSON data language that says how
//! to build a grid, graph or search and its history), the plain-data requests and replies that
//! cross the [`Implementation`](crate::Implementation) trait, an independent layout walker of
//! state bytes (spec/state.md), golden state vectors and the hostile vectors derived from them.

pub mod adapter;
mod counter_mutations;
pub mod files;
pub mod finish;
mod flow_mutations;
pub mod layout;
pub mod mutations;
pub mod recipes;
mod recipes_appended;
mod replan_mutations;

use crate::outcome::SearchCode;
use serde::{Deserialize, Serialize};

pub use crate::error::UNIMPLEMENTED;

/// The state kinds the kit covers ([STATE.KINDS]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StateKind {
    /// Kind 1.
    Grid,
    /// Kind 2.
    HexGrid,
    /// Kind 3.
    VoxelGrid,
    /// Kind 4.
    Graph,
    /// Kind 11.
    GraphAStar,
    /// Kind 8 (spec/grid-search.md).
    AStar,
    /// Kind 9.
    JumpSearch,
    /// Kind 10.
    ThetaSearch,
    /// Kind 12.
    GridSearch,
    /// Kind 5 (spec/replanning.md).
    GridReplanner,
    /// Kind 6.
    HexReplanner,
    /// Kind 7 (spec/flow-fields.md): square and hex flow fields.
    FlowField,
}

impl StateKind {
    /// The `u16 kind` of the header.
    pub fn code(self) -> u16 {
        match self {
            StateKind::Grid => 1,
            StateKind::HexGrid => 2,
            StateKind::VoxelGrid => 3,
            StateKind::Graph => 4,
            StateKind::GraphAStar => 11,
            StateKind::AStar => 8,
            StateKind::JumpSearch => 9,
            StateKind::ThetaSearch => 10,
            StateKind::GridSearch => 12,
            StateKind::GridReplanner => 5,
            StateKind::HexReplanner => 6,
            StateKind::FlowField => 7,
        }
    }
    /// The upper-case tag of vector ids (`STATE-<TAG>-NNNN`).
    pub fn tag(self) -> &'static str {
        match self {
            StateKind::Grid => "GRID",
            StateKind::HexGrid => "HEX",
            StateKind::VoxelGrid => "VOXEL",
            StateKind::Graph => "GRAPH",
            StateKind::GraphAStar => "GRAPHASTAR",
            StateKind::AStar => "ASTAR",
            StateKind::JumpSearch => "JUMP",
            StateKind::ThetaSearch => "THETA",
            StateKind::GridSearch => "GRIDSEARCH",
            StateKind::GridReplanner => "GRIDREPLANNER",
            StateKind::HexReplanner => "HEXREPLANNER",
            StateKind::FlowField => "FLOWFIELD",
        }
    }
    /// Whether the kind has `from_state` ([STATE.API]).
    pub fn has_from_state(self) -> bool {
        !self.is_search() && !self.is_replanner() && self != StateKind::FlowField
    }
    /// Whether the kind is a replanner (kinds 5, 6).
    pub fn is_replanner(self) -> bool {
        matches!(self, StateKind::GridReplanner | StateKind::HexReplanner)
    }
    /// Whether the kind is a sliced search (kinds 8-12).
    pub fn is_search(self) -> bool {
        matches!(
            self,
            StateKind::GraphAStar
                | StateKind::AStar
                | StateKind::JumpSearch
                | StateKind::ThetaSearch
                | StateKind::GridSearch
        )
    }
    /// The family a port claims to certify this kind ([DRIVER.LEVEL.FAMILY]): graph state
    /// (kinds 4, 11) is `graph`, the other searches (8, 9, 10, 12) `grid-search`, grid state
    /// (1-3) `grids`.
    pub fn family(self) -> crate::claims::Family {
        use crate::claims::Family;
        if matches!(self, StateKind::Graph | StateKind::GraphAStar) {
            Family::Graph
        } else if self.is_replanner() {
            Family::Replanning
        } else if self == StateKind::FlowField {
            Family::FlowField
        } else if self.is_search() {
            Family::GridSearch
        } else {
            Family::Grids
        }
    }
    /// Whether a failed restore leaves the object unchanged ([STATE.ATOMIC]); otherwise the
    /// search is `NotStarted` ([STATE.SEARCH_FAILED]) or the flow field reset and unusable
    /// ([FLOW.STATE.UNUSABLE]).
    pub fn atomic(self) -> bool {
        !self.is_search() && self != StateKind::FlowField
    }
}

/// How to build a `Graph` ([CONF.STATE.RECIPE]): `Graph::new(node_count)`, then `add_node()`
/// `added_nodes` times, `add_edge` for each edge (ids 0, 1, ...), `set_weight` for each reweight,
/// `remove_edge` for each removal, in that order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphRecipe {
    /// `Graph::new(node_count)`.
    pub node_count: u64,
    /// `add_node()` calls.
    pub added_nodes: u32,
    /// `add_edge(from, to, weight)` calls.
    pub edges: Vec<(u32, u32, f64)>,
    /// `set_weight(id, weight)` calls.
    pub reweights: Vec<(u32, f64)>,
    /// `remove_edge(id)` calls.
    pub removals: Vec<u32>,
}

/// The estimates a search recipe can name (cost is always `DefaultGraphCost`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HeuristicName {
    /// `ZeroGraphHeuristic`.
    Zero,
    /// `((from * 7 + to) mod 5)` as a double: deliberately inconsistent, so nodes reopen.
    Mod5,
}

impl HeuristicName {
    /// The estimate.
    pub fn estimate(self, from: u32, to: u32) -> f64 {
        match self {
            HeuristicName::Zero => 0.0,
            HeuristicName::Mod5 => ((from as u64 * 7 + to as u64) % 5) as f64,
        }
    }
}

/// A recipe: how to build one object and its history ([CONF.STATE.RECIPE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum StateRecipe {
    /// `Grid::new(width, height)`, then `set_space` (when not null), `set_area_multiplier` for
    /// each pair, `set_cell(x, y, area)` for each edit.
    Grid {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// `[origin_x, origin_y, cell_size]` or null (unassigned).
        #[serde(deserialize_with = "crate::report::required")]
        space: Option<[f64; 3]>,
        /// `(area, multiplier)` calls.
        area_multipliers: Vec<(u8, f64)>,
        /// `(x, y, area)` edits.
        edits: Vec<(u32, u32, u8)>,
    },
    /// As `grid` with `HexGrid::new(width, height, layout)`.
    HexGrid {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// Layout 0..=3 ([GRID.HEX.LAYOUT]).
        layout: i32,
        /// `[origin_x, origin_y, cell_size]` or null.
        #[serde(deserialize_with = "crate::report::required")]
        space: Option<[f64; 3]>,
        /// `(area, multiplier)` calls.
        area_multipliers: Vec<(u8, f64)>,
        /// `(x, y, area)` edits.
        edits: Vec<(u32, u32, u8)>,
    },
    /// `VoxelGrid::new(x, y, z, default_area)`, then space, multipliers, `set_voxel` edits.
    VoxelGrid {
        /// `[size_x, size_y, size_z]`.
        size: [u32; 3],
        /// Default area.
        default_area: u8,
        /// `[origin_x, origin_y, origin_z, cell_size]` or null.
        #[serde(deserialize_with = "crate::report::required")]
        space: Option<[f64; 4]>,
        /// `(area, multiplier)` calls.
        area_multipliers: Vec<(u8, f64)>,
        /// `(x, y, z, area)` edits.
        edits: Vec<(u32, u32, u32, u8)>,
    },
    /// A `Graph` ([`GraphRecipe`]).
    Graph(GraphRecipe),
    /// `GraphAStar::new(graph.compile(), DefaultGraphCost, heuristic)`, `set_record_expansions(record)`,
    /// then (when `start` and `goal` are not null) `begin(start, goal)`, `step(k)` for each `k` of
    /// `steps`, and `run(None)` when `run`.
    GraphAstar {
        /// The graph.
        graph: GraphRecipe,
        /// The estimate.
        heuristic: HeuristicName,
        /// `set_record_expansions`.
        record: bool,
        /// `begin` start, or null (no `begin`: NotStarted).
        #[serde(deserialize_with = "crate::report::required")]
        start: Option<u32>,
        /// `begin` goal, or null.
        #[serde(deserialize_with = "crate::report::required")]
        goal: Option<u32>,
        /// `step(k)` budgets, in order.
        steps: Vec<u64>,
        /// `run(None)` at the end.
        run: bool,
    },
    /// A grid search (kinds 8, 9, 10, 12; spec/grid-search.md): the grid as the `grid` recipe,
    /// then `<search>::new(&grid, options)`, `begin(start, goal)` when both are not null,
    /// `step(k)` for each `k` of `steps`, and `run(None)` when `run`.
    GridSearch {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// `[origin_x, origin_y, cell_size]` or null.
        #[serde(deserialize_with = "crate::report::required")]
        space: Option<[f64; 3]>,
        /// `(area, multiplier)` calls.
        area_multipliers: Vec<(u8, f64)>,
        /// `(x, y, area)` edits.
        edits: Vec<(u32, u32, u8)>,
        /// Which search: `astar` (kind 8), `jump` (9), `theta` (10), `handle` (12).
        search: crate::grid::GridApi,
        /// The options.
        options: crate::grid::GridOptionsData,
        /// `begin` start `(x, y)`, or null.
        #[serde(deserialize_with = "crate::report::required")]
        start: Option<(u32, u32)>,
        /// `begin` goal, or null.
        #[serde(deserialize_with = "crate::report::required")]
        goal: Option<(u32, u32)>,
        /// `step(k)` budgets, in order.
        steps: Vec<u64>,
        /// `run(None)` at the end.
        run: bool,
    },
    /// [CONF.STATE.REPLANNER] A replanner (kinds 5, 6): the request's grid, options, mode and
    /// ends, its script run first.
    Replanner {
        /// The request (grid, options, mode, ends, script).
        request: crate::replan::ReplanRequest,
    },
    /// [CONF.STATE.FLOW_FIELD] A flow field (kind 7): the request's grid, options and goals, its
    /// script run first; the first probe is the path a finished summary reports.
    FlowField {
        /// The request (grid, options, goals, script, probes).
        request: crate::flow::FlowRequest,
    },
}

impl StateRecipe {
    /// A search recipe with its `steps` and `run` replaced (other recipes unchanged).
    pub fn with_schedule(&self, new_steps: Vec<u64>, new_run: bool) -> StateRecipe {
        let mut out = self.clone();
        match &mut out {
            StateRecipe::GraphAstar { steps, run, .. }
            | StateRecipe::GridSearch { steps, run, .. } => {
                *steps = new_steps;
                *run = new_run;
            }
            _ => {}
        }
        out
    }

    /// The kind of the object the recipe builds.
    pub fn kind(&self) -> StateKind {
        match self {
            StateRecipe::Grid { .. } => StateKind::Grid,
            StateRecipe::HexGrid { .. } => StateKind::HexGrid,
            StateRecipe::VoxelGrid { .. } => StateKind::VoxelGrid,
            StateRecipe::Graph(_) => StateKind::Graph,
            StateRecipe::GraphAstar { .. } => StateKind::GraphAStar,
            StateRecipe::GridSearch { search, .. } => match search {
                crate::grid::GridApi::AStar => StateKind::AStar,
                crate::grid::GridApi::Jump => StateKind::JumpSearch,
                crate::grid::GridApi::Theta => StateKind::ThetaSearch,
                _ => StateKind::GridSearch,
            },
            StateRecipe::Replanner { request } => match request.grid.hex_layout {
                None => StateKind::GridReplanner,
                Some(_) => StateKind::HexReplanner,
            },
            StateRecipe::FlowField { .. } => StateKind::FlowField,
        }
    }

    /// The object hostile and valid states are restored into ([CONF.STATE.TARGET]): the same shape
    /// without history for grids (same sizes, layout, default area), a one-node graph with one
    /// edge for graphs (a graph restore has no shape), and the recipe itself for a search (so that
    /// `NotStarted` after a failure is a visible change).
    pub fn target(&self) -> StateRecipe {
        match self.clone() {
            StateRecipe::Grid { width, height, .. } => StateRecipe::Grid {
                width,
                height,
                space: None,
                area_multipliers: vec![],
                edits: vec![],
            },
            StateRecipe::HexGrid {
                width,
                height,
                layout,
                ..
            } => StateRecipe::HexGrid {
                width,
                height,
                layout,
                space: None,
                area_multipliers: vec![],
                edits: vec![],
            },
            StateRecipe::VoxelGrid {
                size, default_area, ..
            } => StateRecipe::VoxelGrid {
                size,
                default_area,
                space: None,
                area_multipliers: vec![],
                edits: vec![],
            },
            StateRecipe::Graph(_) => StateRecipe::Graph(GraphRecipe {
                node_count: 1,
                added_nodes: 0,
                edges: vec![(0, 0, 2.5)],
                reweights: vec![],
                removals: vec![],
            }),
            s @ (StateRecipe::GraphAstar { .. } | StateRecipe::GridSearch { .. }) => s,
            // [CONF.STATE.REPLANNER] A new replanner over the same initial grid, no script.
            StateRecipe::Replanner { mut request } => {
                request.script.clear();
                StateRecipe::Replanner { request }
            }
            // [CONF.STATE.FLOW_FIELD] A new field over the same initial grid, no script.
            StateRecipe::FlowField { mut request } => {
                request.script.clear();
                StateRecipe::FlowField { request }
            }
        }
    }

    /// For a search recipe: a fresh (NotStarted) search over the same graph with the same options.
    pub fn fresh_search(&self) -> Option<StateRecipe> {
        match self.clone() {
            StateRecipe::GraphAstar {
                graph,
                heuristic,
                record,
                ..
            } => Some(StateRecipe::GraphAstar {
                graph,
                heuristic,
                record,
                start: None,
                goal: None,
                steps: vec![],
                run: false,
            }),
            StateRecipe::GridSearch {
                width,
                height,
                space,
                area_multipliers,
                edits,
                search,
                options,
                ..
            } => Some(StateRecipe::GridSearch {
                width,
                height,
                space,
                area_multipliers,
                edits,
                search,
                options,
                start: None,
                goal: None,
                steps: vec![],
                run: false,
            }),
            _ => None,
        }
    }
}

/// A rejected state as plain data: class ([STATE.CLASSES]) and byte offset ([STATE.ERRORS]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateError {
    /// Class.
    pub class: String,
    /// Byte offset.
    pub offset: u64,
}

impl StateError {
    /// The compact form used in hostile files: `class@offset`.
    pub fn compact(&self) -> String {
        format!("{}@{}", self.class, self.offset)
    }
    /// Parses the compact form.
    pub fn parse(s: &str) -> Option<StateError> {
        let (c, o) = s.rsplit_once('@')?;
        Some(StateError {
            class: c.to_string(),
            offset: o.parse().ok()?,
        })
    }
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} at byte {}", self.class, self.offset)
    }
}

/// A request to an implementation ([CONF.IMPL.STATE]).
#[derive(Clone, Debug, PartialEq)]
pub enum StateRequest {
    /// Build the recipe's object, save (`before`), attach a recording listener (grids), restore
    /// `bytes` when given, `run(None)` when `finish` (searches), save (`after`).
    Restore {
        /// The object.
        recipe: StateRecipe,
        /// Bytes to restore, or none.
        bytes: Option<Vec<u8>>,
        /// Searches: `run(None)` after the restore.
        finish: bool,
    },
    /// `from_state(bytes)` of the kind (1-4), then save the new object (`after`).
    FromState {
        /// The kind.
        kind: StateKind,
        /// The bytes.
        bytes: Vec<u8>,
    },
}

/// A search's observable result ([GRAPH.ASTAR.*]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchSummary {
    /// Status.
    pub status: SearchCode,
    /// `iterations()`.
    pub iterations: u64,
    /// `expanded_count()`.
    pub expanded: u64,
    /// `path_cost()` bits.
    pub cost_bits: u64,
    /// `path()`.
    pub path: Vec<u32>,
    /// `expansions()`.
    pub expansions: Vec<u32>,
}

/// What a state request observed.
#[derive(Clone, Debug, PartialEq)]
pub struct StateReply {
    /// `save_state()` right after building (empty for `FromState`).
    pub before: Vec<u8>,
    /// The restore / `from_state` result, or none when nothing was restored.
    pub restore: Option<Result<(), StateError>>,
    /// `save_state()` at the end (empty when `from_state` failed).
    pub after: Vec<u8>,
    /// Every listener call `(index, old, new)` in order (grids).
    pub cells: Vec<(u32, u8, u8)>,
    /// The search at the end (searches).
    pub search: Option<SearchSummary>,
}
