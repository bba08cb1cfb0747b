//! Driver protocol version 2 ([DRIVER.MSG.*], [DRIVER.OP.*]): the [`Request`] value of each
//! [`crate::Implementation`] call, and the conversion of each op's typed reply payload
//! (`messages.rs`) back into the kit's plain data. No JSON is written by hand: the wire form is
//! the serde encoding of the message types.
//! [DRIVER.ENC.GRID] Grid maps travel in the grid vectors' map form.

use super::messages::*;
use super::wire::{Dec, Hex, Real};
use crate::error::CallError;
use crate::grid::vectors::MapFile;
use crate::grid::{GridReply, GridRequest};
use crate::implementation::{
    BuildFailure, CancelTrace, CostRule, GraphOp, HeuristicRule, HookCall, HookSpec, HookedQuery,
    LinkRequest, LinkResult, LinkRule, OplmError, RunOptions, SearchCode,
};
use crate::outcome::{AlgorithmCode, Outcome};
use crate::scenario::{Case, Query, Variant};
use crate::state::{SearchSummary, StateError, StateKind, StateReply, StateRequest};

/// The protocol name of the handshake.
pub const PROTOCOL: &str = "onepath-driver";
/// The protocol version the kit speaks.
pub const PROTOCOL_VERSION: u64 = 2;
/// Protocol versions that once existed and are rejected at the handshake ([DRIVER.MSG.HELLO]).
pub const RETIRED_VERSIONS: [u64; 1] = [1];
/// The spec version the kit certifies against.
pub const SPEC_VERSION: &str = "1.1.0";

/// The kit's handshake line.
pub fn hello() -> Hello {
    Hello {
        protocol: PROTOCOL.into(),
        version: PROTOCOL_VERSION as u32,
        spec_version: SPEC_VERSION.into(),
    }
}

/// The case object ([DRIVER.ENC.CASE]).
pub fn case(c: &Case) -> CaseArg {
    CaseArg {
        graph: c.graph.clone(),
        landmarks: c.landmarks,
    }
}

fn opts(o: RunOptions) -> OptsArg {
    OptsArg {
        iteration_budget: o.iteration_budget,
        record_expansions: o.record_expansions,
    }
}

fn point(p: &[f64; 3]) -> [Real; 3] {
    [Real(p[0]), Real(p[1]), Real(p[2])]
}

fn edges(list: &[(u32, u32, f64)]) -> Vec<(u32, u32, Real)> {
    list.iter().map(|&(a, b, w)| (a, b, Real(w))).collect()
}

fn graph(r: GraphRequest) -> Request {
    Request::Graph(r)
}

/// `run_case`.
pub fn run_case(c: &Case, variants: &[Variant], queries: &[Query], o: RunOptions) -> Request {
    graph(GraphRequest::RunCase(RunCaseArgs {
        case: case(c),
        variants: variants.to_vec(),
        queries: queries.to_vec(),
        opts: opts(o),
    }))
}

/// `run_sliced`.
pub fn run_sliced(c: &Case, variant: Variant, query: Query, budgets: &[u64]) -> Request {
    graph(GraphRequest::RunSliced(SlicedArgs {
        case: case(c),
        variant,
        query,
        budgets: budgets.to_vec(),
    }))
}

/// The `build_links` arguments (also the key that names a link set).
pub fn link_args(r: &LinkRequest) -> LinkArgs {
    LinkArgs {
        points: r.points.iter().map(point).collect(),
        explicit: r.explicit.clone(),
        max_distance: Real(r.max_distance),
        nearest_count: r.nearest_count,
        rule: r
            .rule
            .map(|LinkRule::RejectIndexSumMultipleOf(m)| LinkRuleArg {
                reject_index_sum_multiple_of: m,
            }),
    }
}

/// `build_links`.
pub fn build_links(r: &LinkRequest) -> Request {
    graph(GraphRequest::BuildLinks(link_args(r)))
}

fn cost_rule(r: CostRule) -> CostRuleArg {
    match r {
        CostRule::Scale { num, den } => CostRuleArg::Scale([num, den]),
        CostRule::AddConst(k) => CostRuleArg::AddConst(Real(k)),
        CostRule::NanWhere(m) => CostRuleArg::NanWhere(m),
        CostRule::NegativeWhere(m) => CostRuleArg::NegativeWhere(m),
        CostRule::NegativeZeroWhere(m) => CostRuleArg::NegativeZeroWhere(m),
        CostRule::InfinityWhere(m) => CostRuleArg::InfinityWhere(m),
        CostRule::MaxWhere(m) => CostRuleArg::MaxWhere(m),
    }
}

fn heuristic_rule(r: HeuristicRule) -> HeuristicArg {
    match r {
        HeuristicRule::Mod { mul, modulus } => HeuristicArg::Mod([mul, modulus]),
        HeuristicRule::InfinityWhere { m, r } => HeuristicArg::InfinityWhere([m, r]),
        HeuristicRule::NanWhere(m) => HeuristicArg::NanWhere(m),
        HeuristicRule::NegativeWhere(m) => HeuristicArg::NegativeWhere(m),
    }
}

fn hooks(h: &HookSpec) -> HooksArg {
    HooksArg {
        cost: h.cost.map(cost_rule),
        blocked: h.blocked.map(|b| BlockedArg {
            modulus: b.modulus,
            residue: b.residue,
        }),
        heuristic: h.heuristic.map(heuristic_rule),
    }
}

fn algorithm(a: AlgorithmCode) -> AlgorithmArg {
    match a {
        AlgorithmCode::Dijkstra => AlgorithmArg::Dijkstra,
        AlgorithmCode::Astar => AlgorithmArg::Astar,
        AlgorithmCode::BidirectionalDijkstra => AlgorithmArg::BidirectionalDijkstra,
        AlgorithmCode::BidirectionalAstar => AlgorithmArg::BidirectionalAstar,
    }
}

/// `run_hooked`.
pub fn run_hooked(c: &Case, q: &HookedQuery) -> Request {
    graph(GraphRequest::RunHooked(HookedArgs {
        case: case(c),
        algorithm: algorithm(q.algorithm),
        landmarks: q.landmarks,
        builtin_estimate: q.builtin_estimate,
        hooks: hooks(&q.hooks),
        query: q.query,
        opts: opts(q.opts),
    }))
}

/// `run_cancelled`.
pub fn run_cancelled(c: &Case, variant: Variant, query: Query, first_steps: u64) -> Request {
    graph(GraphRequest::RunCancelled(CancelArgs {
        case: case(c),
        variant,
        query,
        first_steps,
    }))
}

fn graph_op(o: &GraphOp) -> OpArg {
    match o {
        GraphOp::FromEdges {
            edges: e,
            node_count,
            directed,
        } => OpArg::FromEdges {
            edges: edges(e),
            node_count: node_count.map(Dec),
            directed: *directed,
        },
        GraphOp::NewGraph(n) => OpArg::NewGraph(Dec(*n)),
        GraphOp::Csr {
            node_count,
            edges: e,
        } => OpArg::Csr {
            node_count: Dec(*node_count),
            edges: edges(e),
        },
        GraphOp::AddNode => OpArg::AddNode(()),
        GraphOp::AddEdge(a, b, w) => OpArg::AddEdge((*a, *b, Real(*w))),
        GraphOp::RemoveEdge(id) => OpArg::RemoveEdge(*id),
        GraphOp::SetWeight(id, w) => OpArg::SetWeight((*id, Real(*w))),
        GraphOp::BuildLandmarks(n) => OpArg::BuildLandmarks(Dec(*n)),
        GraphOp::FindPath {
            start,
            goal,
            landmarks,
        } => OpArg::FindPath {
            start: *start,
            goal: *goal,
            landmarks: *landmarks,
        },
        GraphOp::Points {
            points,
            explicit,
            max_distance,
            nearest_count,
        } => OpArg::Points {
            points: points.iter().map(point).collect(),
            explicit: explicit.clone(),
            max_distance: Real(*max_distance),
            nearest_count: *nearest_count,
        },
        GraphOp::NearestNode(p) => OpArg::NearestNode(point(p)),
        GraphOp::FindPathBetween(a, b) => OpArg::FindPathBetween((point(a), point(b))),
    }
}

/// The `run_ops` arguments (also the key that names a script).
pub fn ops_args(ops: &[GraphOp]) -> OpsArgs {
    OpsArgs {
        ops: ops.iter().map(graph_op).collect(),
    }
}

/// `run_ops`.
pub fn run_ops(ops: &[GraphOp]) -> Request {
    graph(GraphRequest::RunOps(ops_args(ops)))
}

/// `build_landmarks`.
pub fn build_landmarks(c: &Case) -> Request {
    graph(GraphRequest::BuildLandmarks(CaseArgs { case: case(c) }))
}

/// `lower_bounds`.
pub fn lower_bounds(c: &Case, pairs: &[(u32, u32)]) -> Request {
    graph(GraphRequest::LowerBounds(BoundsArgs {
        case: case(c),
        pairs: pairs.to_vec(),
    }))
}

/// `deserialize_oplm`.
pub fn deserialize_oplm(c: &Case, bytes: &[u8]) -> Request {
    graph(GraphRequest::DeserializeOplm(OplmArgs {
        case: case(c),
        bytes: Hex(bytes.to_vec()),
    }))
}

/// The family of a state kind: `graph` for kinds 4 and 11, `grid-search` for kinds 8-10 and
/// 12, `grids` for kinds 1-3 ([DRIVER.LEVEL.FAMILY]).
pub fn kind_family(kind: StateKind) -> Family {
    kind.family()
}

/// The family of a state request.
pub fn state_family(r: &StateRequest) -> Family {
    kind_family(match r {
        StateRequest::Restore { recipe, .. } => recipe.kind(),
        StateRequest::FromState { kind, .. } => *kind,
    })
}

/// `state_run` ([DRIVER.OP.STATE]).
pub fn state_run(r: &StateRequest) -> Request {
    let args = match r {
        StateRequest::Restore {
            recipe,
            bytes,
            finish,
        } => StateRunArgs::Restore {
            recipe: recipe.clone(),
            bytes: bytes.clone().map(Hex),
            finish: *finish,
        },
        StateRequest::FromState { kind, bytes } => StateRunArgs::FromState {
            kind: kind.code(),
            bytes: Hex(bytes.clone()),
        },
    };
    Request::State(StateRequestOp::StateRun(args))
}

/// A map in the vector form of [CONF.GRID.VECTOR] (cells as hex).
pub fn map_file(m: &crate::grid::GridMap) -> MapFile {
    MapFile {
        width: m.width,
        height: m.height,
        cells: hex::encode(&m.cells),
        multipliers: m.multipliers.clone(),
        space: m.space,
    }
}

/// `run_grid` ([DRIVER.OP.RUN_GRID]).
pub fn run_grid(r: &GridRequest) -> Request {
    Request::GridSearch(GridSearchRequest::RunGrid(GridRunArgs {
        map: map_file(&r.map),
        options: r.options.clone(),
        api: r.api,
        start: r.start,
        goal: r.goal,
        schedule: r.schedule.clone(),
        snapshot_after: r.snapshot_after.map(|k| k as u64),
    }))
}

// ---------------------------------------------------------------- replies to kit data

/// A reply payload that decodes but does not fit the request (counts, codes, encodings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch(pub String);

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn mismatch<T>(what: String) -> Result<T, Mismatch> {
    Err(Mismatch(what))
}

/// `run_case` answer: exactly one list per variant and one outcome per query.
pub fn run_case_reply(
    r: RunCaseReply,
    variants: usize,
    queries: usize,
) -> Result<Vec<Vec<Outcome>>, Mismatch> {
    if r.outcomes.len() != variants {
        return mismatch(format!(
            "{} outcome lists for {variants} variants",
            r.outcomes.len()
        ));
    }
    r.outcomes
        .into_iter()
        .map(|l| {
            if l.len() != queries {
                return mismatch(format!("{} outcomes for {queries} queries", l.len()));
            }
            Ok(l.into_iter().map(|o| o.0).collect())
        })
        .collect()
}

fn failure(f: FailureArg) -> BuildFailure {
    BuildFailure {
        class: f.class,
        index: f.index.map(|i| i as usize),
    }
}

/// `build_links` answer: the links encoding must hold exactly its edges.
pub fn links_reply(
    r: LinksReply,
    points: usize,
) -> Result<Result<LinkResult, BuildFailure>, Mismatch> {
    let built = match r {
        LinksReply::Failed(f) => return Ok(Err(failure(f.failure))),
        LinksReply::Built(b) => b,
    };
    let b = built.edges.0;
    if b.len() < 8 {
        return mismatch("links encoding shorter than 8 bytes".into());
    }
    // [DRIVER.OP.BUILD_LINKS] The encoding's node count is the request's point count.
    let n = u32::from_le_bytes(b[0..4].try_into().expect("4 bytes"));
    if n as u64 != points as u64 {
        return mismatch(format!(
            "links encoding node count {n} for a request of {points} points"
        ));
    }
    let m = u32::from_le_bytes(b[4..8].try_into().expect("4 bytes")) as usize;
    if b.len() as u64 != 8 + 16 * m as u64 {
        return mismatch(format!("links encoding of {} bytes for {m} edges", b.len()));
    }
    let edges = (0..m)
        .map(|i| {
            let at = 8 + 16 * i;
            let r = |o: usize| u32::from_le_bytes(b[at + o..at + o + 4].try_into().expect("4"));
            let w = u64::from_le_bytes(b[at + 8..at + 16].try_into().expect("8"));
            (r(0), r(4), f64::from_bits(w))
        })
        .collect();
    Ok(Ok(LinkResult {
        edges,
        calls: built.calls,
    }))
}

/// `run_hooked` answer.
pub fn hooked_reply(r: HookedReply) -> (Outcome, Vec<HookCall>) {
    let calls = r
        .calls
        .into_iter()
        .map(|c| match c {
            HookCallArg::EdgeCost(a, b, w) => HookCall::EdgeCost(a, b, w.0.to_bits()),
            HookCallArg::Blocked(n) => HookCall::Blocked(n),
            HookCallArg::Heuristic(a, b) => HookCall::Heuristic(a, b),
        })
        .collect();
    (r.outcome.0, calls)
}

/// A status code of [GRAPH.ASTAR.STATUS].
pub fn search_code(code: u8) -> Result<SearchCode, Mismatch> {
    Ok(match code {
        0 => SearchCode::NotStarted,
        1 => SearchCode::Running,
        2 => SearchCode::Found,
        3 => SearchCode::NotFound,
        x => return mismatch(format!("status code {x} (0-3)")),
    })
}

fn pair((code, n): (u8, u64)) -> Result<(SearchCode, u64), Mismatch> {
    Ok((search_code(code)?, n))
}

/// `run_cancelled` answer.
pub fn cancel_reply(r: CancelReply) -> Result<Result<CancelTrace, CallError>, Mismatch> {
    Ok(match r {
        CancelReply::Failed(f) => Err(CallError::Class(f.failure)),
        CancelReply::Trace(t) => Ok(CancelTrace {
            before: pair(t.before)?,
            cancelled: pair(t.cancelled)?,
            cancelled_again: pair(t.cancelled_again)?,
            resumed: t.resumed.0,
        }),
    })
}

/// `run_ops` answer: one result per operation.
pub fn ops_reply(r: OpsReply, count: usize) -> Result<Vec<Result<u64, BuildFailure>>, Mismatch> {
    if r.results.len() != count {
        return mismatch(format!(
            "{} results for {count} operations",
            r.results.len()
        ));
    }
    Ok(r.results
        .into_iter()
        .map(|x| match x {
            OpResult::Value(v) => Ok(v.value.0),
            OpResult::Failed(f) => Err(failure(f.failure)),
        })
        .collect())
}

/// `build_landmarks` answer.
pub fn oplm_reply(r: OplmReply) -> Result<Vec<u8>, CallError> {
    match r {
        OplmReply::Built(b) => Ok(b.oplm.0),
        OplmReply::Failed(f) => Err(CallError::Class(f.failure)),
    }
}

/// `lower_bounds` answer: one bound per pair.
pub fn bounds_reply(r: BoundsReply, count: usize) -> Result<Result<Vec<f64>, CallError>, Mismatch> {
    match r {
        BoundsReply::Failed(f) => Ok(Err(CallError::Class(f.failure))),
        BoundsReply::Bounds(b) if b.bounds.len() != count => {
            mismatch(format!("{} bounds for {count} pairs", b.bounds.len()))
        }
        BoundsReply::Bounds(b) => Ok(Ok(b.bounds.into_iter().map(|x| x.0).collect())),
    }
}

/// `deserialize_oplm` answer.
pub fn deserialize_reply(r: DeserializeReply) -> Result<Vec<u8>, OplmError> {
    match r {
        DeserializeReply::Accepted(b) => Ok(b.oplm.0),
        DeserializeReply::Rejected(r) => Err(OplmError {
            class: r.rejected.class,
            offset: r.rejected.offset as usize,
        }),
    }
}

/// `state_run` answer to `request`. [CONF.IMPL.FROM_STATE] A reply to `from_state` must have
/// an empty `before`, a non-null `restore`, `after` empty exactly when `restore` is a rejection,
/// no listener calls and a null `search`; any other shape does not fit the request
/// ([DRIVER.MSG.STRICT]).
pub fn state_reply(request: &StateRequest, r: StateRunReply) -> Result<StateReply, Mismatch> {
    if let StateRequest::FromState { .. } = request {
        if !r.before.0.is_empty() {
            return mismatch(format!(
                "from_state reply with {} bytes in before (must be empty)",
                r.before.0.len()
            ));
        }
        match &r.restore {
            None => return mismatch("from_state reply with restore null".into()),
            Some(RestoreArg::Accepted(_)) if r.after.0.is_empty() => {
                return mismatch("from_state accepted with an empty after".into())
            }
            Some(RestoreArg::Rejected(_)) if !r.after.0.is_empty() => {
                return mismatch(format!(
                    "from_state rejected with {} bytes in after (must be empty)",
                    r.after.0.len()
                ))
            }
            _ => {}
        }
        if !r.cells.is_empty() {
            return mismatch(format!(
                "from_state reply with {} listener calls (must be none)",
                r.cells.len()
            ));
        }
        if r.search.is_some() {
            return mismatch("from_state reply with a search (must be null)".into());
        }
    }
    let search = match r.search {
        None => None,
        Some(s) => Some(SearchSummary {
            status: search_code(s.status)?,
            iterations: s.iterations,
            expanded: s.expanded,
            cost_bits: s.cost_bits.0.to_bits(),
            path: s.path,
            expansions: s.expansions,
        }),
    };
    Ok(StateReply {
        before: r.before.0,
        restore: r.restore.map(|x| match x {
            RestoreArg::Accepted(_) => Ok(()),
            RestoreArg::Rejected(e) => Err(StateError {
                class: e.class,
                offset: e.offset,
            }),
        }),
        after: r.after.0,
        cells: r.cells,
        search,
    })
}

/// `run_grid` answer.
pub fn grid_reply(r: GridRunReply) -> crate::grid::GridOutcome {
    match r {
        GridRunReply::Failed(f) => Err(f.failure),
        GridRunReply::Reply(g) => Ok(GridReply {
            status: g.status,
            mode: g.mode,
            finder: g.finder,
            algorithm: g.algorithm,
            cost_bits: g.cost_bits.0.to_bits(),
            path: g.path,
            points: g
                .points
                .into_iter()
                .map(|(x, y)| (x.0.to_bits(), y.0.to_bits()))
                .collect(),
            expansions: g.expansions,
            iterations: g.iterations,
            expanded: g.expanded,
            state: g.state.0,
            snapshot: g.snapshot.0,
            resaved: g.resaved.0,
        }),
    }
}
