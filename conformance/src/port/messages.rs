//! Every message of driver protocol version 2 as a serde type ([DRIVER.MSG.*], [DRIVER.OP.*]):
//! the handshake and one [`Request`] enum whose variants are grouped by kit family (graph,
//! state, grid search); the reply payloads are in `replies.rs` (re-exported here). The wire form is
//! exactly the serde encoding of these types; `spec/schemas/driver-v2/` holds the JSON Schemas
//! generated from them ([DRIVER.SCHEMA]). Reading is strict: unknown members are rejected and an
//! `Option` member must be present (as `null`), never defaulted.

pub use super::replies::*;
use super::wire::{Dec, Hex, Real};
use crate::grid::vectors::MapFile;
use crate::grid::{GridApi, GridOptionsData};
use crate::scenario::{GraphSpec, LandmarkSpec, Variant};
use crate::state::StateRecipe;
use schemars::JsonSchema;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// Makes an `Option` member required: serde would otherwise read a missing one as `None`.
pub fn required<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}

/// The kit's first line ([DRIVER.MSG.HELLO]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hello {
    /// Always `onepath-driver`.
    pub protocol: String,
    /// The protocol version the kit speaks (2).
    pub version: u32,
    /// The spec version the kit certifies (`1.1.0`).
    pub spec_version: String,
}

pub use crate::claims::Family;

/// The driver's handshake answer ([DRIVER.MSG.HELLO]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HelloReply {
    /// Always `onepath-driver`.
    pub protocol: String,
    /// 2.
    pub version: u32,
    /// The port's name.
    pub port: String,
    /// The port's version.
    pub port_version: String,
    /// The spec version the port implements.
    pub spec_version: String,
    /// The level (1-4) claimed per family.
    pub claims: BTreeMap<Family, ClaimLevel>,
}

/// A claimed level, 1 to 4 ([DRIVER.LEVEL.LIST]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ClaimLevel(#[schemars(range(min = 1, max = 4))] pub u8);

impl<'de> Deserialize<'de> for ClaimLevel {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let n = u64::deserialize(d)?;
        if (1..=4).contains(&n) {
            Ok(ClaimLevel(n as u8))
        } else {
            Err(D::Error::custom(format!(
                "a claimed level is 1 to 4, found {n}"
            )))
        }
    }
}

/// One request line: `{"id":N,"case":LABEL,"op":OP,"args":{...}}` ([DRIVER.MSG.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RequestLine {
    /// Unique within the run, increasing.
    pub id: u64,
    /// The vector id or generated case name (for logs).
    pub case: String,
    /// The op and its arguments.
    #[serde(flatten)]
    pub request: Request,
}

/// Every call into an implementation, grouped by kit family.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Request {
    /// Graph family ops.
    Graph(GraphRequest),
    /// State ops (the family follows the recipe's or the bytes' kind).
    State(StateRequestOp),
    /// Grid-search ops.
    GridSearch(GridSearchRequest),
    /// Replanning ops.
    Replanning(ReplanningRequest),
    /// Flow-field ops.
    FlowField(FlowFieldRequest),
    /// Hex- and voxel-search ops.
    Lattice(LatticeOpRequest),
    /// HPA* ops.
    Hpa(HpaOpRequest),
    /// Bidirectional grid-search ops.
    Bidi(BidiOpRequest),
    /// Debug-geometry ops (each request's family is its target's, [CONF.DEBUG.LEVEL]).
    Debug(DebugOpRequest),
    /// The rollback sync test ([DRIVER.OP.SYNCTEST]; family `grids`).
    Sync(SyncOpRequest),
}

impl Request {
    /// The op name on the wire.
    pub fn op(&self) -> &'static str {
        match self {
            Request::Graph(g) => match g {
                GraphRequest::RunCase(_) => "run_case",
                GraphRequest::RunSliced(_) => "run_sliced",
                GraphRequest::BuildLinks(_) => "build_links",
                GraphRequest::RunHooked(_) => "run_hooked",
                GraphRequest::RunCancelled(_) => "run_cancelled",
                GraphRequest::RunOps(_) => "run_ops",
                GraphRequest::BuildLandmarks(_) => "build_landmarks",
                GraphRequest::LowerBounds(_) => "lower_bounds",
                GraphRequest::DeserializeOplm(_) => "deserialize_oplm",
            },
            Request::State(StateRequestOp::StateRun(_)) => "state_run",
            Request::GridSearch(GridSearchRequest::RunGrid(_)) => "run_grid",
            Request::Replanning(ReplanningRequest::RunReplan(_)) => "run_replan",
            Request::FlowField(FlowFieldRequest::RunFlow(_)) => "run_flow",
            Request::Lattice(LatticeOpRequest::RunLattice(_)) => "run_lattice",
            Request::Hpa(HpaOpRequest::RunHpa(_)) => "run_hpa",
            Request::Bidi(BidiOpRequest::RunBidi(_)) => "run_bidi",
            Request::Debug(DebugOpRequest::Describe(_)) => "describe",
            Request::Sync(SyncOpRequest::Synctest(_)) => "synctest",
        }
    }
}

/// The graph family's ops.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum GraphRequest {
    /// [DRIVER.OP.RUN_CASE]; ok [`RunCaseReply`].
    RunCase(RunCaseArgs),
    /// [DRIVER.OP.RUN_SLICED]; ok [`OutcomeReply`].
    RunSliced(SlicedArgs),
    /// [DRIVER.OP.BUILD_LINKS]; ok [`LinksReply`].
    BuildLinks(LinkArgs),
    /// [DRIVER.OP.RUN_HOOKED]; ok [`HookedReply`].
    RunHooked(HookedArgs),
    /// [DRIVER.OP.RUN_CANCELLED]; ok [`CancelReply`].
    RunCancelled(CancelArgs),
    /// [DRIVER.OP.RUN_OPS]; ok [`OpsReply`].
    RunOps(OpsArgs),
    /// [DRIVER.OP.LANDMARKS]; ok [`OplmReply`].
    BuildLandmarks(CaseArgs),
    /// [DRIVER.OP.LANDMARKS]; ok [`BoundsReply`].
    LowerBounds(BoundsArgs),
    /// [DRIVER.OP.LANDMARKS]; ok [`DeserializeReply`].
    DeserializeOplm(OplmArgs),
}

/// The state op.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum StateRequestOp {
    /// [DRIVER.OP.STATE]; ok [`StateRunReply`].
    StateRun(StateRunArgs),
}

/// The grid-search op.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum GridSearchRequest {
    /// [DRIVER.OP.RUN_GRID]; ok [`GridRunReply`].
    RunGrid(GridRunArgs),
}

/// The replanning op: the request is the kit's own [`crate::replan::ReplanRequest`], whose serde
/// form is its wire form ([CONF.IMPL.REPLAN]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum ReplanningRequest {
    /// [DRIVER.OP.RUN_REPLAN]; ok [`crate::replan::ReplanReply`].
    RunReplan(crate::replan::ReplanRequest),
}

/// The flow-field op: the request is the kit's own [`crate::flow::FlowRequest`], whose serde
/// form is its wire form ([CONF.IMPL.FLOW]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum FlowFieldRequest {
    /// [DRIVER.OP.RUN_FLOW]; ok [`crate::flow::FlowReply`].
    RunFlow(crate::flow::FlowRequest),
}

/// The hex- and voxel-search op: the request is the kit's own
/// [`crate::lattice::LatticeRequest`], whose serde form is its wire form ([CONF.IMPL.LATTICE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum LatticeOpRequest {
    /// [DRIVER.OP.RUN_LATTICE]; ok [`crate::lattice::LatticeReply`].
    RunLattice(crate::lattice::LatticeRequest),
}

/// The HPA* op: the request is the kit's own [`crate::hpa::HpaRequest`], whose serde form is its
/// wire form ([CONF.IMPL.HPA]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum HpaOpRequest {
    /// [DRIVER.OP.RUN_HPA]; ok [`crate::hpa::HpaReply`].
    RunHpa(crate::hpa::HpaRequest),
}

/// The bidirectional grid-search op: the request is the kit's own [`crate::bidi::BidiRequest`],
/// whose serde form is its wire form ([CONF.IMPL.BIDI]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum BidiOpRequest {
    /// [DRIVER.OP.RUN_BIDI]; ok [`crate::bidi::BidiReply`].
    RunBidi(crate::bidi::BidiRequest),
}

/// The describe op: the request is the kit's own [`crate::debug::DescribeRequest`], whose serde
/// form is its wire form ([CONF.DEBUG.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum DebugOpRequest {
    /// [DRIVER.OP.DESCRIBE]; ok [`crate::debug::DescribeReply`].
    Describe(crate::debug::DescribeRequest),
}

/// The sync-test op: the request is the kit's own [`crate::synctest::Session`], whose serde form
/// is its wire form ([CONF.SYNC.SESSION]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "op", content = "args", rename_all = "snake_case")]
pub enum SyncOpRequest {
    /// [DRIVER.OP.SYNCTEST]; ok [`crate::synctest::SyncReply`].
    Synctest(crate::synctest::Session),
}

/// A case: the scenario members of the graph and the landmark options ([DRIVER.ENC.CASE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseArg {
    /// [CONF.SCN.GRAPH].
    pub graph: GraphSpec,
    /// [CONF.SCN.LANDMARKS].
    pub landmarks: LandmarkSpec,
}

/// Budget and recording of a tier-1 run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptsArg {
    /// 0 = unlimited.
    pub iteration_budget: u64,
    /// `record_expansions`.
    pub record_expansions: bool,
}

/// `run_case` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCaseArgs {
    /// The case.
    pub case: CaseArg,
    /// Variants, in answer order.
    pub variants: Vec<Variant>,
    /// `[start, goal]` pairs.
    pub queries: Vec<(u32, u32)>,
    /// Options.
    pub opts: OptsArg,
}

/// `run_sliced` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SlicedArgs {
    /// The case.
    pub case: CaseArg,
    /// The variant.
    pub variant: Variant,
    /// `[start, goal]`.
    pub query: (u32, u32),
    /// Step budgets, cycled; empty: `run(None)`.
    pub budgets: Vec<u64>,
}

/// `link_valid` as data.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkRuleArg {
    /// Rejects `(a, b)` when `(a + b) % m == 0`.
    pub reject_index_sum_multiple_of: u32,
}

/// `build_links` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkArgs {
    /// Points, each `[x, y, z]`.
    pub points: Vec<[Real; 3]>,
    /// Explicit links.
    pub explicit: Vec<[u32; 2]>,
    /// Link radius.
    pub max_distance: Real,
    /// Nearest count.
    pub nearest_count: u32,
    /// The rule, or null.
    #[serde(deserialize_with = "required")]
    pub rule: Option<LinkRuleArg>,
}

/// An `edge_cost` hook as data ([CONF.IMPL.HOOK_RULES]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum CostRuleArg {
    /// `weight * num / den`.
    Scale([u32; 2]),
    /// `weight + k`.
    AddConst(Real),
    /// NaN where `(from + to) % m == 0`.
    NanWhere(u32),
    /// `-1.0` there.
    NegativeWhere(u32),
    /// `-0.0` there.
    NegativeZeroWhere(u32),
    /// `+infinity` there.
    InfinityWhere(u32),
    /// `f64::MAX` there.
    MaxWhere(u32),
}

/// A `blocked` hook as data.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BlockedArg {
    /// Modulus.
    pub modulus: u32,
    /// Residue.
    pub residue: u32,
}

/// A `heuristic` hook as data.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum HeuristicArg {
    /// `[mul, modulus]`.
    Mod([u32; 2]),
    /// `[m, r]`.
    InfinityWhere([u32; 2]),
    /// `m`.
    NanWhere(u32),
    /// `m`.
    NegativeWhere(u32),
}

/// The three hooks, each null or a rule.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HooksArg {
    /// `edge_cost`.
    #[serde(deserialize_with = "required")]
    pub cost: Option<CostRuleArg>,
    /// `blocked`.
    #[serde(deserialize_with = "required")]
    pub blocked: Option<BlockedArg>,
    /// `heuristic`.
    #[serde(deserialize_with = "required")]
    pub heuristic: Option<HeuristicArg>,
}

/// Algorithm names of `run_hooked`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AlgorithmArg {
    /// Dijkstra.
    Dijkstra,
    /// A*.
    Astar,
    /// Bidirectional Dijkstra.
    BidirectionalDijkstra,
    /// Bidirectional A*.
    BidirectionalAstar,
}

/// `run_hooked` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookedArgs {
    /// The case.
    pub case: CaseArg,
    /// The algorithm.
    pub algorithm: AlgorithmArg,
    /// Use the case's landmark table.
    pub landmarks: bool,
    /// Points case: query the `PointGraph` itself.
    pub builtin_estimate: bool,
    /// The hooks.
    pub hooks: HooksArg,
    /// `[start, goal]`.
    pub query: (u32, u32),
    /// Options.
    pub opts: OptsArg,
}

/// `run_cancelled` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelArgs {
    /// The case.
    pub case: CaseArg,
    /// The variant.
    pub variant: Variant,
    /// `[start, goal]`.
    pub query: (u32, u32),
    /// `step` budget before the cancelled runs (0: no step call).
    pub first_steps: u64,
}

/// One error-script operation ([CONF.IMPL.OPS]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum OpArg {
    /// `Graph::from_edges`.
    FromEdges {
        /// `[from, to, weight]`.
        edges: Vec<(u32, u32, Real)>,
        /// Given node count or null.
        #[serde(deserialize_with = "required")]
        node_count: Option<Dec>,
        /// Directed.
        directed: bool,
    },
    /// `Graph::new(n)`.
    NewGraph(Dec),
    /// `CsrGraph::new(n, edges)`.
    Csr {
        /// Node count.
        node_count: Dec,
        /// Edges.
        edges: Vec<(u32, u32, Real)>,
    },
    /// `add_node()` (the member's value is null).
    AddNode(()),
    /// `add_edge(from, to, w)`.
    AddEdge((u32, u32, Real)),
    /// `remove_edge(id)`.
    RemoveEdge(u32),
    /// `set_weight(id, w)`.
    SetWeight((u32, Real)),
    /// `build_landmarks(count, Avoid, seed 1)`.
    BuildLandmarks(Dec),
    /// Tier-1 `find_path`.
    FindPath {
        /// Start.
        start: u32,
        /// Goal.
        goal: u32,
        /// Use the current table.
        landmarks: bool,
    },
    /// `PointGraph::new`.
    Points {
        /// Points.
        points: Vec<[Real; 3]>,
        /// Explicit links.
        explicit: Vec<[u32; 2]>,
        /// Link radius.
        max_distance: Real,
        /// Nearest count.
        nearest_count: u32,
    },
    /// `nearest_node(p)`.
    NearestNode([Real; 3]),
    /// `find_path_between(a, b)`.
    FindPathBetween(([Real; 3], [Real; 3])),
}

/// `run_ops` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpsArgs {
    /// The script.
    pub ops: Vec<OpArg>,
}

/// `build_landmarks` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CaseArgs {
    /// The case.
    pub case: CaseArg,
}

/// `lower_bounds` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoundsArgs {
    /// The case.
    pub case: CaseArg,
    /// `[u, v]` pairs.
    pub pairs: Vec<(u32, u32)>,
}

/// `deserialize_oplm` arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OplmArgs {
    /// The case.
    pub case: CaseArg,
    /// The bytes.
    pub bytes: Hex,
}

/// `state_run` arguments ([CONF.IMPL.STATE]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "request", rename_all = "snake_case", deny_unknown_fields)]
pub enum StateRunArgs {
    /// Build the recipe's object, save, restore the bytes when given, finish, save.
    Restore {
        /// [CONF.STATE.RECIPE].
        recipe: StateRecipe,
        /// Bytes to restore, or null.
        #[serde(deserialize_with = "required")]
        bytes: Option<Hex>,
        /// Searches: `run(None)` after the restore.
        finish: bool,
    },
    /// `from_state(bytes)` of kind 1-4, then save.
    FromState {
        /// The kind code.
        kind: u16,
        /// The bytes.
        bytes: Hex,
    },
}

/// `run_grid` arguments ([CONF.GRID.REQUEST]): the map in the vector form of [CONF.GRID.VECTOR].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridRunArgs {
    /// The map.
    pub map: MapFile,
    /// The options.
    pub options: GridOptionsData,
    /// The API.
    pub api: GridApi,
    /// `[x, y]`.
    pub start: (u32, u32),
    /// `[x, y]`.
    pub goal: (u32, u32),
    /// Step budgets, cycled; empty: `run(None)`.
    pub schedule: Vec<u64>,
    /// Snapshot after this many step calls, or null.
    #[serde(deserialize_with = "required")]
    pub snapshot_after: Option<u64>,
}
