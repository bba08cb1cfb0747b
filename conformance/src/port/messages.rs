//! Every message of driver protocol version 2 as a serde type ([DRIVER.MSG.*], [DRIVER.OP.*]):
//! the handshake, one [`Request`] enum whose variants are grouped by kit family (graph, state,
//! grid search), and one payload type per op for the `ok` member of a reply. The wire form is
//! exactly the serde encoding of these types; `spec/schemas/driver-v2/` holds the JSON Schemas
//! generated from them ([DRIVER.SCHEMA]). Reading is strict: unknown members are rejected and an
//! `Option` member must be present (as `null`), never defaulted.

use super::wire::{Dec, Hex, HexOutcome, Real};
use crate::grid::vectors::MapFile;
use crate::grid::{GridApi, GridOptionsData};
use crate::scenario::{GraphSpec, LandmarkSpec, Variant};
use crate::state::StateRecipe;
use schemars::JsonSchema;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::BTreeMap;

/// Makes an `Option` member required: serde would otherwise read a missing one as `None`.
pub fn required<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
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

/// A family a port can claim ([DRIVER.LEVEL.FAMILY]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
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
}

impl Family {
    /// Every family, in report order.
    pub const ALL: [Family; 3] = [Family::Graph, Family::Grids, Family::GridSearch];

    /// The family's name on the wire and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Family::Graph => "graph",
            Family::Grids => "grids",
            Family::GridSearch => "grid-search",
        }
    }
}

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
            Err(D::Error::custom(format!("a claimed level is 1 to 4, found {n}")))
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

// ---------------------------------------------------------------- reply payloads

/// A payload that is either an answer or, when the object has member `$key`, its failure form.
/// Decoded by that member so that an error names the form the driver meant.
macro_rules! keyed_either {
    ($(#[$doc:meta])* $name:ident, $key:literal, $plain:ident($plain_ty:ty), $keyed:ident($keyed_ty:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
        #[serde(untagged)]
        pub enum $name {
            /// The answer.
            $plain($plain_ty),
            /// The failure form.
            $keyed($keyed_ty),
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = serde_json::Value::deserialize(d)?;
                if v.get($key).is_some() {
                    serde_json::from_value(v).map($name::$keyed).map_err(D::Error::custom)
                } else {
                    serde_json::from_value(v).map($name::$plain).map_err(D::Error::custom)
                }
            }
        }
    };
}

/// `run_case` ok: one outcome list per variant, one outcome per query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCaseReply {
    /// Outcomes.
    pub outcomes: Vec<Vec<HexOutcome>>,
}

/// `run_sliced` ok.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutcomeReply {
    /// The outcome.
    pub outcome: HexOutcome,
}

/// A build failure: class and index (or null).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FailureArg {
    /// Error class.
    pub class: String,
    /// Index named by the error, or null.
    #[serde(deserialize_with = "required")]
    pub index: Option<u64>,
}

/// `{"failure": {class, index}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildFailed {
    /// The failure.
    pub failure: FailureArg,
}

/// `{"failure": class}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassFailed {
    /// The error class.
    pub failure: String,
}

/// Built links.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinksBuilt {
    /// [CONF.ENC.LINKS] as hex.
    pub edges: Hex,
    /// `link_valid(a, b)` calls in order.
    pub calls: Vec<(u32, u32)>,
}

keyed_either!(
    /// `build_links` ok.
    LinksReply, "failure", Built(LinksBuilt), Failed(BuildFailed)
);

/// One hook call ([CONF.IMPL.HOOK_LOG]): `["edge_cost",from,to,REAL]`, `["blocked",node]` or
/// `["heuristic",from,to]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HookCallArg {
    /// `edge_cost(from, to, weight)`.
    EdgeCost(u32, u32, Real),
    /// `blocked(node)`.
    Blocked(u32),
    /// `heuristic(from, to)`.
    Heuristic(u32, u32),
}

impl Serialize for HookCallArg {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            HookCallArg::EdgeCost(a, b, w) => ("edge_cost", a, b, w).serialize(s),
            HookCallArg::Blocked(n) => ("blocked", n).serialize(s),
            HookCallArg::Heuristic(a, b) => ("heuristic", a, b).serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for HookCallArg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let name = v.get(0).and_then(|x| x.as_str()).unwrap_or("");
        let r = match name {
            "edge_cost" => serde_json::from_value::<(String, u32, u32, Real)>(v)
                .map(|(_, a, b, w)| HookCallArg::EdgeCost(a, b, w)),
            "blocked" => serde_json::from_value::<(String, u32)>(v).map(|(_, n)| HookCallArg::Blocked(n)),
            "heuristic" => serde_json::from_value::<(String, u32, u32)>(v)
                .map(|(_, a, b)| HookCallArg::Heuristic(a, b)),
            other => {
                return Err(D::Error::custom(format!(
                    "a hook call starts with \"edge_cost\", \"blocked\" or \"heuristic\", found {:?}",
                    other.chars().take(40).collect::<String>()
                )))
            }
        };
        r.map_err(D::Error::custom)
    }
}

impl JsonSchema for HookCallArg {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HookCall".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let real = g.subschema_for::<Real>();
        schemars::json_schema!({
            "oneOf": [
                {"type": "array", "prefixItems": [{"const": "edge_cost"}, {"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 0}, real], "items": false, "minItems": 4},
                {"type": "array", "prefixItems": [{"const": "blocked"}, {"type": "integer", "minimum": 0}], "items": false, "minItems": 2},
                {"type": "array", "prefixItems": [{"const": "heuristic"}, {"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 0}], "items": false, "minItems": 3}
            ]
        })
    }
}

/// `run_hooked` ok.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookedReply {
    /// The outcome.
    pub outcome: HexOutcome,
    /// Every hook call, in call order.
    pub calls: Vec<HookCallArg>,
}

/// A cancel trace ([CONF.IMPL.CANCEL]): `[status, iterations]` pairs and the resumed outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelTraceArg {
    /// After `begin` (and the optional `step`).
    pub before: (u8, u64),
    /// After the first cancelled `run`.
    pub cancelled: (u8, u64),
    /// After the second.
    pub cancelled_again: (u8, u64),
    /// After resuming.
    pub resumed: HexOutcome,
}

keyed_either!(
    /// `run_cancelled` ok.
    CancelReply, "failure", Trace(CancelTraceArg), Failed(ClassFailed)
);

/// `{"value": DEC}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpValue {
    /// The operation's value.
    pub value: Dec,
}

keyed_either!(
    /// One `run_ops` result.
    OpResult, "failure", Value(OpValue), Failed(BuildFailed)
);

/// `run_ops` ok.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpsReply {
    /// One result per operation.
    pub results: Vec<OpResult>,
}

/// `{"oplm": HEX}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OplmBytes {
    /// OPLM bytes.
    pub oplm: Hex,
}

keyed_either!(
    /// `build_landmarks` ok.
    OplmReply, "failure", Built(OplmBytes), Failed(ClassFailed)
);

/// `{"bounds": [REAL...]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    /// One bound per pair.
    pub bounds: Vec<Real>,
}

keyed_either!(
    /// `lower_bounds` ok.
    BoundsReply, "failure", Bounds(Bounds), Failed(ClassFailed)
);

/// A rejection: class and byte offset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rejection {
    /// Error class.
    pub class: String,
    /// Byte offset.
    pub offset: u64,
}

/// `{"rejected": {class, offset}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rejected {
    /// The rejection.
    pub rejected: Rejection,
}

keyed_either!(
    /// `deserialize_oplm` ok.
    DeserializeReply, "rejected", Accepted(OplmBytes), Rejected(Rejected)
);

/// `true`, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct True(pub bool);

impl JsonSchema for True {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "True".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"const": true})
    }
}

impl<'de> Deserialize<'de> for True {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match bool::deserialize(d)? {
            true => Ok(True(true)),
            false => Err(D::Error::custom("expected true")),
        }
    }
}

/// `{"ok": true}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RestoredOk {
    /// `true`.
    pub ok: True,
}

keyed_either!(
    /// A restore result: accepted, or rejected with class and offset.
    RestoreArg, "ok", Rejected(Rejection), Accepted(RestoredOk)
);

/// A search at the end of a state request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArg {
    /// Status code 0-3.
    pub status: u8,
    /// `iterations()`.
    pub iterations: u64,
    /// `expanded_count()`.
    pub expanded: u64,
    /// `path_cost()`.
    pub cost_bits: Real,
    /// `path()`.
    pub path: Vec<u32>,
    /// `expansions()`.
    pub expansions: Vec<u32>,
}

/// `state_run` ok.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateRunReply {
    /// Saved right after building (empty for `from_state`).
    pub before: Hex,
    /// The restore result, or null when nothing was restored.
    #[serde(deserialize_with = "required")]
    pub restore: Option<RestoreArg>,
    /// Saved at the end.
    pub after: Hex,
    /// Listener calls `[index, old, new]`.
    pub cells: Vec<(u32, u8, u8)>,
    /// The search, or null.
    #[serde(deserialize_with = "required")]
    pub search: Option<SearchArg>,
}

/// A grid reply ([CONF.GRID.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridReplyArg {
    /// Status.
    pub status: u8,
    /// Engine mode.
    pub mode: u8,
    /// Mode-3 finder.
    pub finder: u8,
    /// The algorithm that ran.
    pub algorithm: u8,
    /// Path cost.
    pub cost_bits: Real,
    /// Path cells.
    pub path: Vec<u32>,
    /// Tier 1: world points `[x, y]`.
    pub points: Vec<(Real, Real)>,
    /// Recorded expansions.
    pub expansions: Vec<u32>,
    /// Iterations.
    pub iterations: u64,
    /// Expanded count.
    pub expanded: u64,
    /// Tier 2: `save_state()` at the end.
    pub state: Hex,
    /// The snapshot's search bytes.
    pub snapshot: Hex,
    /// The restored search saved again.
    pub resaved: Hex,
}

keyed_either!(
    /// `run_grid` ok: a reply, or the class of the error `new`/`begin` gave.
    GridRunReply, "failure", Reply(GridReplyArg), Failed(ClassFailed)
);

/// One reply line's envelope ([DRIVER.MSG.REPLY]); the `ok` payload is the op's reply type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum ReplyLine {
    /// `{"id":N,"ok":{...}}`.
    Ok {
        /// The request's id.
        id: u64,
        /// The op's payload.
        ok: serde_json::Map<String, serde_json::Value>,
    },
    /// `{"id":N,"unimplemented":true}`.
    Unimplemented {
        /// The request's id.
        id: u64,
        /// `true`.
        unimplemented: True,
    },
    /// `{"id":N,"error":"message"}`.
    Error {
        /// The request's id.
        id: u64,
        /// The driver's message.
        error: String,
    },
}
