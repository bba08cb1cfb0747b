//! The hex- and voxel-search part of the kit (spec/hex-search.md, spec/voxel-search.md,
//! [CONF.LATTICE.*]): a request is a hex or voxel grid, the search options and a list of
//! queries on that grid (tier 1, or the sliced form with a step schedule); the reply reports
//! each query's path, cost, expansions and counters. The request and reply types are their own
//! wire form: the same serde encoding travels in vectors, across the
//! [`Implementation`](crate::Implementation) trait and through the driver protocol.

pub mod adapter;
pub mod cases;
pub mod oracle;
pub mod vectors;

use crate::grid::vectors::MapFile;
use crate::grid::{CellBlockRule, CellCostRule, GridOptionsData};
use crate::port::wire::Real;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// [CONF.LATTICE.QUERY] The cap on the step calls of a sliced query.
pub const MAX_STEP_CALLS: u64 = 1 << 20;

/// The grid shape of a request: which registry family it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A `HexGrid` (family `hex-search`).
    Hex,
    /// A `VoxelGrid` (family `voxel-search`).
    Voxel,
}

impl Shape {
    /// The registry and claim family's name.
    pub fn family(self) -> &'static str {
        match self {
            Shape::Hex => "hex-search",
            Shape::Voxel => "voxel-search",
        }
    }
}

/// `VoxelOptions` as data ([CONF.LATTICE.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VoxelOptionsData {
    /// 6, 18 or 26.
    pub connectivity: u8,
    /// 0 `Always`, 1 `AtMostOneBlocked`, 2 `NoneBlocked`.
    pub diagonal: u8,
    /// [GS.OPT.ALGORITHM] value.
    pub algorithm: u8,
    /// `cell_cost` hook.
    #[serde(deserialize_with = "crate::report::required")]
    pub cell_cost: Option<CellCostRule>,
    /// `blocked` hook.
    #[serde(deserialize_with = "crate::report::required")]
    pub blocked: Option<CellBlockRule>,
    /// Heuristic weight (finite JSON number).
    pub weight: f64,
    /// `record_expansions`.
    pub record: bool,
    /// `iteration_budget` (tier 1 only).
    pub budget: u64,
}

/// One query ([CONF.LATTICE.QUERY]): `start` and `goal` have two members on a hex grid and three
/// on a voxel grid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Query {
    /// The start.
    pub start: Vec<u32>,
    /// The goal.
    pub goal: Vec<u32>,
    /// Step budgets of the sliced form, cycled; empty: tier 1 (or a cancel query).
    pub schedule: Vec<u64>,
    /// [CONF.LATTICE.CANCEL] A cancel query: `step(k)` (when `k > 0`), two runs with the cancel
    /// flag set and one with it cleared. Absent (not null) in every other query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<u64>,
}

/// The hex request ([CONF.LATTICE.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexRequest {
    /// The [GRID.HEX.LAYOUT] value.
    pub layout: i32,
    /// The cells, multipliers and space, as a grid vector's map.
    pub map: MapFile,
    /// The options, as those of a grid request.
    pub options: GridOptionsData,
    /// The queries, in order.
    pub queries: Vec<Query>,
}

/// The voxel request ([CONF.LATTICE.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VoxelRequest {
    /// `[sx, sy, sz]`.
    pub size: [u32; 3],
    /// `sx * sy * sz` area ids, `x` fastest, then `y`, then `z`, lowercase hex.
    pub cells: String,
    /// `(area, multiplier)` calls, in order.
    pub multipliers: Vec<(u8, f64)>,
    /// `[ox, oy, oz, s]` or null.
    #[serde(deserialize_with = "crate::report::required")]
    pub space: Option<[f64; 4]>,
    /// The options.
    pub options: VoxelOptionsData,
    /// The queries, in order.
    pub queries: Vec<Query>,
}

/// A `run_lattice` request ([CONF.LATTICE.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum LatticeRequest {
    /// A hex grid and its queries.
    Hex(HexRequest),
    /// A voxel grid and its queries.
    Voxel(VoxelRequest),
}

impl LatticeRequest {
    /// The request's shape.
    pub fn shape(&self) -> Shape {
        match self {
            LatticeRequest::Hex(_) => Shape::Hex,
            LatticeRequest::Voxel(_) => Shape::Voxel,
        }
    }

    /// The queries.
    pub fn queries(&self) -> &[Query] {
        match self {
            LatticeRequest::Hex(r) => &r.queries,
            LatticeRequest::Voxel(r) => &r.queries,
        }
    }

    /// The queries, mutably.
    pub fn queries_mut(&mut self) -> &mut Vec<Query> {
        match self {
            LatticeRequest::Hex(r) => &mut r.queries,
            LatticeRequest::Voxel(r) => &mut r.queries,
        }
    }

    /// The options' tier-1 iteration budget.
    pub fn budget(&self) -> u64 {
        match self {
            LatticeRequest::Hex(r) => r.options.budget,
            LatticeRequest::Voxel(r) => r.options.budget,
        }
    }
}

/// What a query that ran reports ([CONF.LATTICE.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathReply {
    /// Tier 1: 2 `Found`, 3 `NotFound`, 4 `BudgetExhausted`; sliced: the [GRAPH.ASTAR.STATUS]
    /// code.
    pub status: u8,
    /// The algorithm ([GS.OPT.ALGORITHM] value).
    pub algorithm: u8,
    /// The path cost.
    pub cost: Real,
    /// The path, start first.
    pub cells: Vec<u32>,
    /// Tier 1: each cell's centre (two reals on a hex grid, three on a voxel grid); sliced: empty.
    pub points: Vec<Vec<Real>>,
    /// The recorded expansions.
    pub expanded: Vec<u32>,
    /// `expanded_count`.
    pub expanded_count: u64,
    /// `iterations`.
    pub iterations: u64,
    /// [CONF.LATTICE.CANCEL] A cancel query's `[status(), iterations()]` after `begin` and the
    /// step, then the status each cancelled run returned with `iterations()`. Absent (not null)
    /// in every other reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<Vec<(u8, u64)>>,
}

/// One query's reply ([CONF.LATTICE.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum QueryReply {
    /// The class of the error `new`, `begin` or tier 1 gave.
    Error(String),
    /// The result.
    Path(PathReply),
}

/// A `run_lattice` reply ([CONF.LATTICE.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum LatticeReply {
    /// The class of the error a grid constructor or setter gave.
    Failed(String),
    /// One reply per query.
    Ran(Vec<QueryReply>),
}

/// Where two replies first differ ([CONF.LATTICE.REPLY]): the query (if any), the field, what
/// was expected and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The query index, or `None` for the whole reply.
    pub query: Option<usize>,
    /// The field (`status`, `cost`, `cells entry 3`, ...).
    pub what: String,
    /// The expected value.
    pub expected: String,
    /// The found value.
    pub found: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(q) = self.query {
            write!(f, "query {q}: ")?;
        }
        write!(
            f,
            "{}: expected {}, found {}",
            self.what, self.expected, self.found
        )
    }
}

/// The first difference between two replies, in the field order of [CONF.LATTICE.REPLY].
pub fn first_difference(expected: &LatticeReply, found: &LatticeReply) -> Option<Difference> {
    let whole = |what: &str, e: String, f: String| Difference {
        query: None,
        what: what.into(),
        expected: e,
        found: f,
    };
    match (expected, found) {
        (LatticeReply::Failed(a), LatticeReply::Failed(b)) if a == b => None,
        (LatticeReply::Ran(a), LatticeReply::Ran(b)) => {
            if a.len() != b.len() {
                return Some(whole(
                    "query replies",
                    a.len().to_string(),
                    b.len().to_string(),
                ));
            }
            a.iter().zip(b).enumerate().find_map(|(i, (a, b))| {
                query_difference(a, b).map(|d| Difference {
                    query: Some(i),
                    ..d
                })
            })
        }
        (a, b) => Some(whole("grid", outline(a), outline(b))),
    }
}

fn outline(r: &LatticeReply) -> String {
    match r {
        LatticeReply::Failed(c) => format!("failed with {c}"),
        LatticeReply::Ran(q) => format!("{} query replies", q.len()),
    }
}

/// The first difference between two query replies (`query` unset).
pub fn query_difference(expected: &QueryReply, found: &QueryReply) -> Option<Difference> {
    let d = |what: &str, e: String, f: String| {
        Some(Difference {
            query: None,
            what: what.into(),
            expected: e,
            found: f,
        })
    };
    let (e, f) = match (expected, found) {
        (QueryReply::Path(e), QueryReply::Path(f)) => (e, f),
        (a, b) if a == b => return None,
        (a, b) => {
            let show = |q: &QueryReply| match q {
                QueryReply::Error(c) => format!("error {c}"),
                QueryReply::Path(p) => format!("status {}", p.status),
            };
            return d("result", show(a), show(b));
        }
    };
    if e.status != f.status {
        return d("status", e.status.to_string(), f.status.to_string());
    }
    if e.cost != f.cost {
        let show = |r: Real| format!("{:?} ({:016x})", r.0, r.0.to_bits());
        return d("cost", show(e.cost), show(f.cost));
    }
    if e.algorithm != f.algorithm {
        return d(
            "algorithm",
            e.algorithm.to_string(),
            f.algorithm.to_string(),
        );
    }
    if let Some((i, a, b)) = list_difference(&e.cells, &f.cells) {
        return d(&format!("cells entry {i}"), a, b);
    }
    if let Some((i, a, b)) = list_difference(&e.points, &f.points) {
        return d(&format!("points entry {i}"), a, b);
    }
    if let Some((i, a, b)) = list_difference(&e.expanded, &f.expanded) {
        return d(&format!("expanded entry {i}"), a, b);
    }
    if e.iterations != f.iterations {
        return d(
            "iterations",
            e.iterations.to_string(),
            f.iterations.to_string(),
        );
    }
    if e.expanded_count != f.expanded_count {
        return d(
            "expanded_count",
            e.expanded_count.to_string(),
            f.expanded_count.to_string(),
        );
    }
    cancel_difference(&e.cancel, &f.cancel).and_then(|(what, a, b)| d(&what, a, b))
}

/// [CONF.LATTICE.CANCEL] [CONF.HPA.CANCEL] Where two cancel traces first differ: `what`,
/// expected, found (both absent: none).
pub fn cancel_difference(
    e: &Option<Vec<(u8, u64)>>,
    f: &Option<Vec<(u8, u64)>>,
) -> Option<(String, String, String)> {
    match (e, f) {
        (Some(a), Some(b)) => list_difference(a, b)
            .map(|(i, x, y)| (format!("cancel entry {i} [status, iterations]"), x, y)),
        (None, None) => None,
        (a, b) => {
            let show = |c: &Option<Vec<(u8, u64)>>| {
                if c.is_some() {
                    "a cancel trace"
                } else {
                    "none"
                }
                .to_string()
            };
            Some(("cancel trace".into(), show(a), show(b)))
        }
    }
}

/// The first differing entry of two lists: index, expected, found (`end of list` past an end).
fn list_difference<T: PartialEq + std::fmt::Debug>(
    a: &[T],
    b: &[T],
) -> Option<(usize, String, String)> {
    let i = a
        .iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .or_else(|| (a.len() != b.len()).then(|| a.len().min(b.len())))?;
    let at = |v: &[T]| {
        v.get(i)
            .map(|c| format!("{c:?}"))
            .unwrap_or_else(|| "end of list".into())
    };
    Some((i, at(a), at(b)))
}
