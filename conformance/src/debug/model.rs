//! The wire form of describe requests and descriptions ([CONF.DEBUG.REQUEST],
//! [CONF.DEBUG.REPLY]): the same serde encoding crosses the
//! [`Implementation`](crate::Implementation) trait, the driver protocol and the pictures.

use crate::bidi::BidiRequest;
use crate::flow::FlowRequest;
use crate::hpa::HpaRequest;
use crate::lattice::{HexRequest, VoxelRequest};
use crate::port::wire::Real;
use crate::replan::ReplanRequest;
use crate::scenario::{GraphSpec, LandmarkSpec, Variant};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A graph case: the scenario members of the graph and the landmark options, as a driver's
/// case argument ([DRIVER.ENC.CASE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphCase {
    /// [CONF.SCN.GRAPH].
    pub graph: GraphSpec,
    /// [CONF.SCN.LANDMARKS].
    pub landmarks: LandmarkSpec,
}

/// A `graph` describe target: one tier-1 query of one variant, recording on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphTarget {
    /// The case ([DRIVER.ENC.CASE]).
    pub case: GraphCase,
    /// The variant ([CONF.VAR.LIST]).
    pub variant: Variant,
    /// `[start, goal]`.
    pub query: (u32, u32),
}

/// A describe request ([CONF.DEBUG.REQUEST]): one object with one member naming the target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DescribeRequest {
    /// Square grid, tier-1 `find_grid_path` per query.
    Grid(BidiRequest),
    /// Square grid, tier-1 `find_grid_path_bidirectional` per query.
    Bidi(BidiRequest),
    /// Hex grid, `find_hex_path` per query.
    Hex(HexRequest),
    /// Voxel grid, `find_voxel_path` per query.
    Voxel(VoxelRequest),
    /// Square grid, `find_hpa_path` per query, then the hierarchy.
    Hpa(HpaRequest),
    /// One graph query.
    Graph(GraphTarget),
    /// A replanner after its script.
    Replan(ReplanRequest),
    /// A flow field after its script.
    Flow(FlowRequest),
}

impl DescribeRequest {
    /// The target's name on the wire.
    pub fn target(&self) -> &'static str {
        match self {
            DescribeRequest::Grid(_) => "grid",
            DescribeRequest::Bidi(_) => "bidi",
            DescribeRequest::Hex(_) => "hex",
            DescribeRequest::Voxel(_) => "voxel",
            DescribeRequest::Hpa(_) => "hpa",
            DescribeRequest::Graph(_) => "graph",
            DescribeRequest::Replan(_) => "replan",
            DescribeRequest::Flow(_) => "flow",
        }
    }

    /// The claim family the request belongs to ([CONF.DEBUG.LEVEL]).
    pub fn family(&self) -> &'static str {
        match self {
            DescribeRequest::Grid(_) => "grid-search",
            DescribeRequest::Bidi(_) => crate::bidi::FAMILY,
            DescribeRequest::Hex(_) => "hex-search",
            DescribeRequest::Voxel(_) => "voxel-search",
            DescribeRequest::Hpa(_) => "hpa",
            DescribeRequest::Graph(_) => "graph",
            DescribeRequest::Replan(_) => "replanning",
            DescribeRequest::Flow(_) => "flow-field",
        }
    }

    /// How many descriptions a reply that ran must hold ([CONF.DEBUG.REPLY]).
    pub fn expected_entries(&self) -> usize {
        match self {
            DescribeRequest::Grid(r) | DescribeRequest::Bidi(r) => r.queries.len(),
            DescribeRequest::Hex(r) => r.queries.len(),
            DescribeRequest::Voxel(r) => r.queries.len(),
            DescribeRequest::Hpa(r) => r.queries.len() + 1,
            DescribeRequest::Graph(_) | DescribeRequest::Replan(_) | DescribeRequest::Flow(_) => 1,
        }
    }
}

/// One describe request and its label (a vector id or a generated case name).
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// The label.
    pub label: String,
    /// The request.
    pub request: DescribeRequest,
}

/// [DEBUG.PATH.FIELDS] A path of a square or hex grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathData {
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
    /// [GS.OPT.ALGORITHM] value.
    pub algorithm: u8,
    /// 2 `Found`, 3 `NotFound`, 4 `BudgetExhausted`.
    pub status: u8,
    /// The cost.
    pub cost: Real,
    /// The path's cells.
    pub cells: Vec<u32>,
    /// The path's world points.
    pub points: Vec<[Real; 2]>,
    /// The recorded expansions.
    pub expanded: Vec<u32>,
    /// Their world points.
    pub expanded_points: Vec<[Real; 2]>,
    /// `expanded_count`.
    pub expanded_count: u64,
    /// `iterations`.
    pub iterations: u64,
}

/// [DEBUG.VOXEL.FIELDS] A voxel path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VoxelPathData {
    /// `[sx, sy, sz]`.
    pub size: [u32; 3],
    /// [GS.OPT.ALGORITHM] value.
    pub algorithm: u8,
    /// 2 `Found`, 3 `NotFound`, 4 `BudgetExhausted`.
    pub status: u8,
    /// The cost.
    pub cost: Real,
    /// The path's node indexes.
    pub cells: Vec<u32>,
    /// The path's world points.
    pub points: Vec<[Real; 3]>,
    /// The recorded expansions.
    pub expanded: Vec<u32>,
    /// Their world points.
    pub expanded_points: Vec<[Real; 3]>,
    /// `expanded_count`.
    pub expanded_count: u64,
    /// `iterations`.
    pub iterations: u64,
}

/// [DEBUG.GRAPH.FIELDS] A graph path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GraphPathData {
    /// `dijkstra`, `astar`, `bidirectional_dijkstra` or `bidirectional_astar`.
    pub algorithm: String,
    /// 2 `Found`, 3 `NotFound`, 4 `BudgetExhausted`.
    pub status: u8,
    /// The cost.
    pub cost: Real,
    /// The path's nodes.
    pub nodes: Vec<u32>,
    /// Their positions (empty without positions).
    pub positions: Vec<[Real; 3]>,
    /// The recorded expansions.
    pub expanded: Vec<u32>,
    /// Their positions (empty without positions).
    pub expanded_positions: Vec<[Real; 3]>,
    /// `expanded_count`.
    pub expanded_count: u64,
    /// `iterations`.
    pub iterations: u64,
}

/// [DEBUG.REPLAN.KINDS] What a replan did to a recorded node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExpansionKind {
    /// Overconsistent: settled.
    Settle,
    /// Underconsistent: reset.
    Reset,
}

/// [DEBUG.REPLAN.FIELDS] A replanner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplanData {
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
    /// 0 LPA*, 1 D* Lite.
    pub mode: u8,
    /// Start cell index.
    pub start: u32,
    /// Goal cell index.
    pub goal: u32,
    /// `is_initialized()`.
    pub initialized: bool,
    /// `found()`.
    pub found: bool,
    /// `path_cost()`.
    pub cost: Real,
    /// `path(grid)` (empty when it fails).
    pub cells: Vec<u32>,
    /// The class of a failed `path(grid)`, or null.
    #[serde(deserialize_with = "crate::report::required")]
    pub path_error: Option<String>,
    /// The path's world points.
    pub points: Vec<[Real; 2]>,
    /// `expansions()`.
    pub expanded: Vec<u32>,
    /// `expansion_kinds()`.
    pub expanded_kinds: Vec<ExpansionKind>,
    /// The expansions' world points.
    pub expanded_points: Vec<[Real; 2]>,
    /// `last_expanded()`.
    pub expanded_count: u64,
    /// `iterations()`.
    pub iterations: u64,
    /// `pending_count()`.
    pub pending: u64,
}

/// [DEBUG.HPA.FIELDS] One hierarchy edge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EdgeData {
    /// Source node id.
    pub from: u32,
    /// Target node id.
    pub to: u32,
    /// The cost.
    pub cost: Real,
    /// Inter-chunk (else intra).
    pub inter: bool,
    /// The stored path.
    pub path: Vec<u32>,
}

/// [DEBUG.HPA.FIELDS] An HPA* hierarchy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HierarchyData {
    /// `is_built()`.
    pub built: bool,
    /// The chunk size option.
    pub chunk_size: u32,
    /// `[chunks_x, chunks_y]`.
    pub chunks: [u32; 2],
    /// `[cell, chunk]` per node in id order.
    pub nodes: Vec<[u32; 2]>,
    /// The world point of each node's cell.
    pub node_points: Vec<[Real; 2]>,
    /// The edges in `(from, to)` order.
    pub edges: Vec<EdgeData>,
}

/// [FLOW.DEBUG.DESCRIBE] A flow field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowData {
    /// Grid width.
    pub width: u32,
    /// Grid height.
    pub height: u32,
    /// The cost of every cell, index order.
    pub costs: Vec<Real>,
    /// The step of every cell (or null), index order.
    pub next: Vec<Option<u32>>,
    /// The creation goals.
    pub goals: Vec<u32>,
    /// [FLOW.RUN.STATUS] value.
    pub status: u8,
    /// `settled`.
    pub settled: u64,
}

/// One description ([CONF.DEBUG.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Description {
    /// A square or hex grid path.
    Path(PathData),
    /// A voxel path.
    VoxelPath(VoxelPathData),
    /// A graph path.
    GraphPath(GraphPathData),
    /// A replanner.
    Replan(ReplanData),
    /// An HPA* hierarchy.
    Hierarchy(HierarchyData),
    /// A flow field.
    Flow(FlowData),
}

impl Description {
    /// The member name on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Description::Path(_) => "path",
            Description::VoxelPath(_) => "voxel_path",
            Description::GraphPath(_) => "graph_path",
            Description::Replan(_) => "replan",
            Description::Hierarchy(_) => "hierarchy",
            Description::Flow(_) => "flow",
        }
    }
}

/// One entry of a reply: the query's error class, or its description.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum DescribeEntry {
    /// `{"error":class}`.
    Error(ErrorEntry),
    /// The description.
    Described(Description),
}

impl<'de> Deserialize<'de> for DescribeEntry {
    /// An object with the member `error` is an [`ErrorEntry`], anything else a description;
    /// decoded from the raw text, without a generic tree ([DRIVER.PROC.CAP]).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let v = <Box<serde_json::value::RawValue>>::deserialize(d)?;
        if crate::raw_json::has_member(&v, "error") {
            crate::raw_json::decode(&v).map(DescribeEntry::Error)
        } else {
            crate::raw_json::decode(&v).map(DescribeEntry::Described)
        }
        .map_err(D::Error::custom)
    }
}

/// `{"error":class}`: the query's call failed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorEntry {
    /// The class.
    pub error: String,
}

/// A describe reply ([CONF.DEBUG.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum DescribeReply {
    /// Building the grid, graph or object failed.
    Failed(String),
    /// One entry per query (and the hierarchy for `hpa`).
    Ran(Vec<DescribeEntry>),
}
