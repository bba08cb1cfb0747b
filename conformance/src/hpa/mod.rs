//! The HPA* part of the kit (spec/hpa.md, [CONF.HPA.*]): a request is a square grid, the
//! hierarchy options and a list of queries, each with the cell edits made before it (tier 1, or
//! the sliced form on the request's one hierarchy); the reply reports each query's path, cost,
//! expansions, counters, abstract path and rebuilt chunks, and the hierarchy at the end. The
//! request and reply types are their own wire form: the same serde encoding travels in vectors,
//! across the [`Implementation`](crate::Implementation) trait and through the driver protocol.

pub mod adapter;
pub mod cases;
pub mod oracle;
pub mod vectors;

use crate::grid::vectors::MapFile;
use crate::lattice::{query_difference, Difference, PathReply, QueryReply as LatticeQueryReply};
use crate::port::wire::Real;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The registry and claim family's name.
pub const FAMILY: &str = "hpa";

/// `HpaOptions` as data ([CONF.HPA.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HpaOptionsData {
    /// [HPA.OPT.VALID] The chunk side (valid: 2-64).
    pub chunk_size: u32,
    /// 4 or 8.
    pub connectivity: u8,
    /// 0 `Always`, 1 `AtMostOneBlocked`, 2 `NoneBlocked`.
    pub diagonal: u8,
    /// Heuristic weight (finite JSON number).
    pub weight: f64,
    /// Smooth the refined path.
    pub smooth: bool,
    /// `record_expansions`.
    pub record: bool,
    /// `iteration_budget` (tier 1 only).
    pub budget: u64,
}

/// One query ([CONF.HPA.REQUEST]): the edits made first, then the ends and the schedule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HpaQuery {
    /// `(x, y, area)` calls of `set_cell`, in order, before the query.
    pub edits: Vec<(u32, u32, u8)>,
    /// `[x, y]`.
    pub start: Vec<u32>,
    /// `[x, y]`.
    pub goal: Vec<u32>,
    /// Step budgets of the sliced form, cycled; empty: tier 1 (or a cancel query).
    pub schedule: Vec<u64>,
    /// [CONF.HPA.CANCEL] A cancel query: `step(k)` (when `k > 0`), two runs with the cancel flag
    /// set and one with it cleared. Absent (not null) in every other query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<u64>,
}

/// A `run_hpa` request ([CONF.HPA.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HpaRequest {
    /// The cells, multipliers and space, as a grid vector's map.
    pub map: MapFile,
    /// The options.
    pub options: HpaOptionsData,
    /// The queries, in order.
    pub queries: Vec<HpaQuery>,
}

/// What a query that ran reports ([CONF.HPA.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HpaPathReply {
    /// Tier 1: 2 `Found`, 3 `NotFound`, 4 `BudgetExhausted`; sliced: the [GRAPH.ASTAR.STATUS]
    /// code.
    pub status: u8,
    /// The algorithm ([GS.OPT.ALGORITHM] value; [HPA.TIER1.ALGORITHM]).
    pub algorithm: u8,
    /// The path cost ([HPA.COST.REPORTED]).
    pub cost: Real,
    /// The final path, start first.
    pub cells: Vec<u32>,
    /// Tier 1: each cell's centre; sliced: empty.
    pub points: Vec<Vec<Real>>,
    /// The recorded expansions ([HPA.SEARCH.RECORD]).
    pub expanded: Vec<u32>,
    /// `expanded_count`.
    pub expanded_count: u64,
    /// `iterations` ([HPA.SEARCH.ITERATION]).
    pub iterations: u64,
    /// Sliced: `abstract_path()`; tier 1: empty.
    #[serde(rename = "abstract")]
    pub abstract_path: Vec<u32>,
    /// Sliced: the hierarchy's `rebuilt_chunks()` after the query; tier 1: empty.
    pub rebuilt: Vec<u32>,
    /// [CONF.HPA.CANCEL] A cancel query's `[status(), iterations()]` after `begin` and the
    /// step, then the status each cancelled run returned with `iterations()`. Absent (not null)
    /// in every other reply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<Vec<(u8, u64)>>,
}

impl HpaPathReply {
    /// The fields a lattice reply also has, to compare them by the same rules.
    pub fn common(&self) -> PathReply {
        PathReply {
            status: self.status,
            algorithm: self.algorithm,
            cost: self.cost,
            cells: self.cells.clone(),
            points: self.points.clone(),
            expanded: self.expanded.clone(),
            expanded_count: self.expanded_count,
            iterations: self.iterations,
            cancel: None,
        }
    }
}

/// One query's reply ([CONF.HPA.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum HpaQueryReply {
    /// The class of the error `new`, `begin` or tier 1 gave.
    Error(String),
    /// The result.
    Path(HpaPathReply),
}

/// One edge of the hierarchy ([CONF.HPA.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EdgeData {
    /// Source node id.
    pub from: u32,
    /// Target node id.
    pub to: u32,
    /// The edge's cost.
    pub cost: Real,
    /// Inter-chunk (else intra-chunk).
    pub inter: bool,
    /// `edge_path(from, to)`.
    pub path: Vec<u32>,
}

/// The hierarchy after the last query ([CONF.HPA.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HierarchyData {
    /// `is_built()`.
    pub built: bool,
    /// `chunks()`.
    pub chunks: (u32, u32),
    /// `nodes()` as `(cell, chunk)`.
    pub nodes: Vec<(u32, u32)>,
    /// `edges()` with their stored paths.
    pub edges: Vec<EdgeData>,
}

/// The queries' replies and the hierarchy ([CONF.HPA.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HpaRan {
    /// One reply per query.
    pub queries: Vec<HpaQueryReply>,
    /// The request's hierarchy at the end; null when `HpaHierarchy::new` failed.
    #[serde(deserialize_with = "crate::report::required")]
    pub hierarchy: Option<HierarchyData>,
}

/// A `run_hpa` reply ([CONF.HPA.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum HpaReply {
    /// The class of the error a grid constructor or setter gave.
    Failed(String),
    /// The replies and the hierarchy.
    Ran(HpaRan),
}

/// Where a difference lies: a query, or the hierarchy.
fn at_query(i: usize, d: Difference) -> Difference {
    Difference {
        query: Some(i),
        ..d
    }
}

fn diff(what: impl Into<String>, expected: String, found: String) -> Option<Difference> {
    Some(Difference {
        query: None,
        what: what.into(),
        expected,
        found,
    })
}

fn show_real(r: Real) -> String {
    format!("{:?} ({:016x})", r.0, r.0.to_bits())
}

/// The first difference between two query replies ([CONF.HPA.REPLY] field order).
pub fn query_reply_difference(e: &HpaQueryReply, f: &HpaQueryReply) -> Option<Difference> {
    let lattice = |q: &HpaQueryReply| match q {
        HpaQueryReply::Error(c) => LatticeQueryReply::Error(c.clone()),
        HpaQueryReply::Path(p) => LatticeQueryReply::Path(p.common()),
    };
    if let Some(d) = query_difference(&lattice(e), &lattice(f)) {
        return Some(d);
    }
    let (HpaQueryReply::Path(e), HpaQueryReply::Path(f)) = (e, f) else {
        return None;
    };
    if let Some((i, a, b)) = list_difference(&e.abstract_path, &f.abstract_path) {
        return diff(format!("abstract entry {i}"), a, b);
    }
    if let Some((i, a, b)) = list_difference(&e.rebuilt, &f.rebuilt) {
        return diff(format!("rebuilt entry {i}"), a, b);
    }
    crate::lattice::cancel_difference(&e.cancel, &f.cancel)
        .and_then(|(what, a, b)| diff(what, a, b))
}

/// The first difference between two hierarchies (`query` unset; `what` starts `hierarchy`).
pub fn hierarchy_difference(
    e: &Option<HierarchyData>,
    f: &Option<HierarchyData>,
) -> Option<Difference> {
    let (e, f) = match (e, f) {
        (Some(e), Some(f)) => (e, f),
        (None, None) => return None,
        (e, f) => {
            let show = |h: &Option<HierarchyData>| {
                if h.is_some() { "a hierarchy" } else { "null" }.to_string()
            };
            return diff("hierarchy", show(e), show(f));
        }
    };
    if e.built != f.built {
        return diff("hierarchy built", e.built.to_string(), f.built.to_string());
    }
    if e.chunks != f.chunks {
        return diff(
            "hierarchy chunks",
            format!("{:?}", e.chunks),
            format!("{:?}", f.chunks),
        );
    }
    if let Some((i, a, b)) = list_difference(&e.nodes, &f.nodes) {
        return diff(format!("hierarchy nodes entry {i}"), a, b);
    }
    let n = e.edges.len().max(f.edges.len());
    for i in 0..n {
        let (a, b) = match (e.edges.get(i), f.edges.get(i)) {
            (Some(a), Some(b)) => (a, b),
            (a, b) => {
                let show = |x: Option<&EdgeData>| {
                    x.map(|x| format!("{} -> {}", x.from, x.to))
                        .unwrap_or_else(|| "end of list".into())
                };
                return diff(format!("hierarchy edges entry {i}"), show(a), show(b));
            }
        };
        let what = |field: &str| format!("hierarchy edges entry {i} {field}");
        if (a.from, a.to) != (b.from, b.to) {
            return diff(
                what("ends"),
                format!("{} -> {}", a.from, a.to),
                format!("{} -> {}", b.from, b.to),
            );
        }
        if a.cost != b.cost {
            return diff(what("cost"), show_real(a.cost), show_real(b.cost));
        }
        if a.inter != b.inter {
            return diff(what("inter"), a.inter.to_string(), b.inter.to_string());
        }
        if let Some((j, x, y)) = list_difference(&a.path, &b.path) {
            return diff(what(&format!("path entry {j}")), x, y);
        }
    }
    None
}

/// The first difference between two replies, in the order of [CONF.HPA.REPLY].
pub fn first_difference(expected: &HpaReply, found: &HpaReply) -> Option<Difference> {
    match (expected, found) {
        (HpaReply::Failed(a), HpaReply::Failed(b)) if a == b => None,
        (HpaReply::Ran(a), HpaReply::Ran(b)) => {
            if a.queries.len() != b.queries.len() {
                return diff(
                    "query replies",
                    a.queries.len().to_string(),
                    b.queries.len().to_string(),
                );
            }
            a.queries
                .iter()
                .zip(&b.queries)
                .enumerate()
                .find_map(|(i, (x, y))| query_reply_difference(x, y).map(|d| at_query(i, d)))
                .or_else(|| hierarchy_difference(&a.hierarchy, &b.hierarchy))
        }
        (a, b) => diff("grid", outline(a), outline(b)),
    }
}

fn outline(r: &HpaReply) -> String {
    match r {
        HpaReply::Failed(c) => format!("failed with {c}"),
        HpaReply::Ran(r) => format!("{} query replies", r.queries.len()),
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
