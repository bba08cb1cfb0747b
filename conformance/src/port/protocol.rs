//! The JSON-lines driver protocol of `spec/driver.md` ([DRIVER.MSG.*], [DRIVER.OP.*]): encoding
//! the arguments of each [`crate::Implementation`] method and decoding the driver's answers.

use crate::implementation::{
    BuildFailure, CancelTrace, CostRule, GraphOp, HeuristicRule, HookCall, HookSpec, HookedQuery,
    LinkRequest, LinkResult, LinkRule, OplmError, RunOptions, SearchCode,
};
use crate::outcome::{AlgorithmCode, Outcome, PathOutcome, StatusCode};
use crate::scenario::{Case, Query, Variant};
use serde_json::{json, Value};

/// The protocol name of the handshake.
pub const PROTOCOL: &str = "onepath-driver";
/// The protocol version.
pub const PROTOCOL_VERSION: u64 = 1;
/// The spec version the kit certifies against.
pub const SPEC_VERSION: &str = "1.1.0";

/// A real that may be non-finite or `-0.0`: 16 lowercase hex digits of its bit pattern ([DRIVER.ENC.REAL]).
pub fn bits(x: f64) -> Value {
    Value::String(format!("{:016x}", x.to_bits()))
}

/// Parses [`bits`].
pub fn parse_bits(v: &Value) -> Result<f64, String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("expected a 16-hex-digit real, found {v}"))?;
    if s.len() != 16
        || !s
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(format!("{s:?} is not 16 lowercase hex digits"));
    }
    u64::from_str_radix(s, 16)
        .map(f64::from_bits)
        .map_err(|e| e.to_string())
}

fn point(p: &[f64; 3]) -> Value {
    json!([bits(p[0]), bits(p[1]), bits(p[2])])
}

fn edges(list: &[(u32, u32, f64)]) -> Value {
    Value::Array(
        list.iter()
            .map(|&(a, b, w)| json!([a, b, bits(w)]))
            .collect(),
    )
}

/// The case object ([DRIVER.ENC.CASE]): the scenario forms of the graph and landmark options.
pub fn case(c: &Case) -> Value {
    json!({"graph": serde_json::to_value(&c.graph).expect("graph"), "landmarks": serde_json::to_value(c.landmarks).expect("landmarks")})
}

/// The name of an algorithm in requests.
pub fn algorithm_name(a: AlgorithmCode) -> &'static str {
    match a {
        AlgorithmCode::Dijkstra => "dijkstra",
        AlgorithmCode::Astar => "astar",
        AlgorithmCode::BidirectionalDijkstra => "bidirectional_dijkstra",
        AlgorithmCode::BidirectionalAstar => "bidirectional_astar",
    }
}

fn opts(o: RunOptions) -> Value {
    json!({"iteration_budget": o.iteration_budget, "record_expansions": o.record_expansions})
}

/// `run_case` arguments.
pub fn run_case(c: &Case, variants: &[Variant], queries: &[Query], o: RunOptions) -> Value {
    json!({"case": case(c), "variants": variants.iter().map(|v| v.name()).collect::<Vec<_>>(), "queries": queries, "opts": opts(o)})
}

/// `run_sliced` arguments.
pub fn run_sliced(c: &Case, variant: Variant, query: Query, budgets: &[u64]) -> Value {
    json!({"case": case(c), "variant": variant.name(), "query": query, "budgets": budgets})
}

/// `build_links` arguments.
pub fn build_links(r: &LinkRequest) -> Value {
    json!({
        "points": r.points.iter().map(point).collect::<Vec<_>>(),
        "explicit": r.explicit,
        "max_distance": bits(r.max_distance),
        "nearest_count": r.nearest_count,
        "rule": r.rule.map(|LinkRule::RejectIndexSumMultipleOf(m)| json!({"reject_index_sum_multiple_of": m})),
    })
}

fn cost_rule(r: CostRule) -> Value {
    match r {
        CostRule::Scale { num, den } => json!({"scale": [num, den]}),
        CostRule::AddConst(k) => json!({"add_const": bits(k)}),
        CostRule::NanWhere(m) => json!({"nan_where": m}),
        CostRule::NegativeWhere(m) => json!({"negative_where": m}),
        CostRule::NegativeZeroWhere(m) => json!({"negative_zero_where": m}),
        CostRule::InfinityWhere(m) => json!({"infinity_where": m}),
        CostRule::MaxWhere(m) => json!({"max_where": m}),
    }
}

fn heuristic_rule(r: HeuristicRule) -> Value {
    match r {
        HeuristicRule::Mod { mul, modulus } => json!({"mod": [mul, modulus]}),
        HeuristicRule::InfinityWhere { m, r } => json!({"infinity_where": [m, r]}),
        HeuristicRule::NanWhere(m) => json!({"nan_where": m}),
        HeuristicRule::NegativeWhere(m) => json!({"negative_where": m}),
    }
}

fn hooks(h: &HookSpec) -> Value {
    json!({
        "cost": h.cost.map(cost_rule),
        "blocked": h.blocked.map(|b| json!({"modulus": b.modulus, "residue": b.residue})),
        "heuristic": h.heuristic.map(heuristic_rule),
    })
}

/// `run_hooked` arguments.
pub fn run_hooked(c: &Case, q: &HookedQuery) -> Value {
    json!({
        "case": case(c),
        "algorithm": algorithm_name(q.algorithm),
        "landmarks": q.landmarks,
        "builtin_estimate": q.builtin_estimate,
        "hooks": hooks(&q.hooks),
        "query": q.query,
        "opts": opts(q.opts),
    })
}

/// `run_cancelled` arguments.
pub fn run_cancelled(c: &Case, variant: Variant, query: Query, first_steps: u64) -> Value {
    json!({"case": case(c), "variant": variant.name(), "query": query, "first_steps": first_steps})
}

fn graph_op(o: &GraphOp) -> Value {
    match o {
        GraphOp::FromEdges {
            edges: e,
            node_count,
            directed,
        } => {
            json!({"from_edges": {"edges": edges(e), "node_count": node_count.map(|n| n.to_string()), "directed": directed}})
        }
        GraphOp::NewGraph(n) => json!({"new_graph": n.to_string()}),
        GraphOp::Csr {
            node_count,
            edges: e,
        } => json!({"csr": {"node_count": node_count.to_string(), "edges": edges(e)}}),
        GraphOp::AddNode => json!({"add_node": null}),
        GraphOp::AddEdge(a, b, w) => json!({"add_edge": [a, b, bits(*w)]}),
        GraphOp::RemoveEdge(id) => json!({"remove_edge": id}),
        GraphOp::SetWeight(id, w) => json!({"set_weight": [id, bits(*w)]}),
        GraphOp::BuildLandmarks(n) => json!({"build_landmarks": n.to_string()}),
        GraphOp::FindPath {
            start,
            goal,
            landmarks,
        } => json!({"find_path": {"start": start, "goal": goal, "landmarks": landmarks}}),
        GraphOp::Points {
            points,
            explicit,
            max_distance,
            nearest_count,
        } => json!({"points": {
            "points": points.iter().map(point).collect::<Vec<_>>(),
            "explicit": explicit,
            "max_distance": bits(*max_distance),
            "nearest_count": nearest_count,
        }}),
        GraphOp::NearestNode(p) => json!({"nearest_node": point(p)}),
        GraphOp::FindPathBetween(a, b) => json!({"find_path_between": [point(a), point(b)]}),
    }
}

/// `run_ops` arguments.
pub fn run_ops(ops: &[GraphOp]) -> Value {
    json!({"ops": ops.iter().map(graph_op).collect::<Vec<_>>()})
}

/// `build_landmarks` arguments.
pub fn build_landmarks(c: &Case) -> Value {
    json!({"case": case(c)})
}

/// `lower_bounds` arguments.
pub fn lower_bounds(c: &Case, pairs: &[(u32, u32)]) -> Value {
    json!({"case": case(c), "pairs": pairs})
}

/// `deserialize_oplm` arguments.
pub fn deserialize_oplm(c: &Case, bytes: &[u8]) -> Value {
    json!({"case": case(c), "bytes": hex::encode(bytes)})
}

/// The family of a state request: `graph` for kinds 4 and 11, `grids` for kinds 1-3,
/// `grid-search` for kinds 8-10 and 12 ([DRIVER.LEVEL.FAMILY]).
pub fn state_family(r: &crate::state::StateRequest) -> &'static str {
    use crate::state::{StateKind, StateRequest};
    let kind = match r {
        StateRequest::Restore { recipe, .. } => recipe.kind(),
        StateRequest::FromState { kind, .. } => *kind,
    };
    if matches!(kind, StateKind::Graph | StateKind::GraphAStar) {
        "graph"
    } else if kind.is_search() {
        "grid-search"
    } else {
        "grids"
    }
}

/// `state_run` arguments ([DRIVER.OP.STATE]).
pub fn state_run(r: &crate::state::StateRequest) -> Value {
    use crate::state::StateRequest;
    match r {
        StateRequest::Restore {
            recipe,
            bytes,
            finish,
        } => json!({
            "request": "restore",
            "recipe": serde_json::to_value(recipe).expect("recipe"),
            "bytes": bytes.as_ref().map(hex::encode),
            "finish": finish,
        }),
        StateRequest::FromState { kind, bytes } => {
            json!({"request": "from_state", "kind": kind.code(), "bytes": hex::encode(bytes)})
        }
    }
}

// ---------------------------------------------------------------- decoding

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, String> {
    v.get(key).ok_or_else(|| format!("missing member {key:?}"))
}

fn u64_of(v: &Value) -> Result<u64, String> {
    v.as_u64()
        .ok_or_else(|| format!("expected an unsigned integer, found {v}"))
}

fn hex_of(v: &Value) -> Result<Vec<u8>, String> {
    let s = v
        .as_str()
        .ok_or_else(|| format!("expected a hex string, found {v}"))?;
    hex::decode(s).map_err(|e| format!("bad hex: {e}"))
}

fn rd_u8(b: &[u8], at: &mut usize) -> Result<u8, String> {
    let x = *b.get(*at).ok_or("encoding cut short")?;
    *at += 1;
    Ok(x)
}

fn rd<const N: usize>(b: &[u8], at: &mut usize) -> Result<[u8; N], String> {
    let s = b.get(*at..*at + N).ok_or("encoding cut short")?;
    *at += N;
    Ok(s.try_into().expect("length"))
}

/// Decodes one canonical outcome encoding ([CONF.ENC.RESULT], [CONF.ENC.ERROR]); the whole input
/// must be consumed.
pub fn decode_outcome(bytes: &[u8]) -> Result<Outcome, String> {
    let mut at = 0usize;
    let o = match rd_u8(bytes, &mut at)? {
        1 => {
            let algorithm = match rd_u8(bytes, &mut at)? {
                1 => AlgorithmCode::Dijkstra,
                2 => AlgorithmCode::Astar,
                3 => AlgorithmCode::BidirectionalDijkstra,
                4 => AlgorithmCode::BidirectionalAstar,
                x => return Err(format!("algorithm byte {x}")),
            };
            let status = match rd_u8(bytes, &mut at)? {
                0 => StatusCode::Found,
                1 => StatusCode::NotFound,
                2 => StatusCode::BudgetExhausted,
                x => return Err(format!("status byte {x}")),
            };
            let cost = f64::from_bits(u64::from_le_bytes(rd(bytes, &mut at)?));
            let iterations = u64::from_le_bytes(rd(bytes, &mut at)?);
            let expanded_count = u64::from_le_bytes(rd(bytes, &mut at)?);
            let list = |at: &mut usize| -> Result<Vec<u32>, String> {
                let n = u32::from_le_bytes(rd(bytes, at)?) as usize;
                if n > (bytes.len() - *at) / 4 {
                    return Err("list length beyond the encoding".into());
                }
                (0..n)
                    .map(|_| rd(bytes, at).map(u32::from_le_bytes))
                    .collect()
            };
            let nodes = list(&mut at)?;
            let expanded = list(&mut at)?;
            Outcome::Path(PathOutcome {
                algorithm,
                status,
                cost,
                iterations,
                expanded_count,
                nodes,
                expanded,
            })
        }
        2 => {
            let n = u16::from_le_bytes(rd(bytes, &mut at)?) as usize;
            let s = bytes.get(at..at + n).ok_or("class cut short")?;
            at += n;
            Outcome::Error(String::from_utf8(s.to_vec()).map_err(|e| e.to_string())?)
        }
        x => return Err(format!("outcome kind byte {x}")),
    };
    if at != bytes.len() {
        return Err(format!("{} bytes after the outcome", bytes.len() - at));
    }
    Ok(o)
}

/// An outcome given as hex.
pub fn outcome(v: &Value) -> Result<Outcome, String> {
    decode_outcome(&hex_of(v)?)
}

/// `run_case` answer.
pub fn decode_run_case(
    ok: &Value,
    variants: usize,
    queries: usize,
) -> Result<Vec<Vec<Outcome>>, String> {
    let lists = field(ok, "outcomes")?
        .as_array()
        .ok_or("outcomes is not a list")?;
    if lists.len() != variants {
        return Err(format!(
            "{} outcome lists for {variants} variants",
            lists.len()
        ));
    }
    lists
        .iter()
        .map(|l| {
            let l = l.as_array().ok_or("an outcome list is not a list")?;
            if l.len() != queries {
                return Err(format!("{} outcomes for {queries} queries", l.len()));
            }
            l.iter().map(outcome).collect()
        })
        .collect()
}

fn failure(v: &Value) -> Result<BuildFailure, String> {
    let class = field(v, "class")?
        .as_str()
        .ok_or("class is not a string")?
        .to_string();
    let index = match field(v, "index")? {
        Value::Null => None,
        x => Some(u64_of(x)? as usize),
    };
    Ok(BuildFailure { class, index })
}

/// `build_links` answer.
pub fn decode_links(ok: &Value) -> Result<Result<LinkResult, BuildFailure>, String> {
    if let Some(f) = ok.get("failure") {
        return Ok(Err(failure(f)?));
    }
    let b = hex_of(field(ok, "edges")?)?;
    if b.len() < 8 {
        return Err("links encoding shorter than 8 bytes".into());
    }
    let m = u32::from_le_bytes(b[4..8].try_into().expect("4")) as usize;
    if b.len() != 8 + 16 * m {
        return Err(format!("links encoding of {} bytes for {m} edges", b.len()));
    }
    let edges = (0..m)
        .map(|i| {
            let at = 8 + 16 * i;
            let r = |o: usize| u32::from_le_bytes(b[at + o..at + o + 4].try_into().expect("4"));
            (
                r(0),
                r(4),
                f64::from_bits(u64::from_le_bytes(
                    b[at + 8..at + 16].try_into().expect("8"),
                )),
            )
        })
        .collect();
    let calls = field(ok, "calls")?
        .as_array()
        .ok_or("calls is not a list")?
        .iter()
        .map(|c| match c.as_array().map(|a| a.as_slice()) {
            Some([a, b]) => Ok((u64_of(a)? as u32, u64_of(b)? as u32)),
            _ => Err(format!("bad call {c}")),
        })
        .collect::<Result<_, String>>()?;
    Ok(Ok(LinkResult { edges, calls }))
}

/// `run_hooked` answer.
pub fn decode_hooked(ok: &Value) -> Result<(Outcome, Vec<HookCall>), String> {
    let o = outcome(field(ok, "outcome")?)?;
    let calls = field(ok, "calls")?
        .as_array()
        .ok_or("calls is not a list")?
        .iter()
        .map(|c| {
            let a = c.as_array().ok_or_else(|| format!("bad call {c}"))?;
            match (a.first().and_then(|x| x.as_str()), a.len()) {
                (Some("edge_cost"), 4) => Ok(HookCall::EdgeCost(
                    u64_of(&a[1])? as u32,
                    u64_of(&a[2])? as u32,
                    parse_bits(&a[3])?.to_bits(),
                )),
                (Some("blocked"), 2) => Ok(HookCall::Blocked(u64_of(&a[1])? as u32)),
                (Some("heuristic"), 3) => Ok(HookCall::Heuristic(
                    u64_of(&a[1])? as u32,
                    u64_of(&a[2])? as u32,
                )),
                _ => Err(format!("bad call {c}")),
            }
        })
        .collect::<Result<_, String>>()?;
    Ok((o, calls))
}

fn search_pair(v: &Value) -> Result<(SearchCode, u64), String> {
    match v.as_array().map(|a| a.as_slice()) {
        Some([c, n]) => {
            let code = match u64_of(c)? {
                0 => SearchCode::NotStarted,
                1 => SearchCode::Running,
                2 => SearchCode::Found,
                3 => SearchCode::NotFound,
                x => return Err(format!("status code {x}")),
            };
            Ok((code, u64_of(n)?))
        }
        _ => Err(format!("bad [status, iterations] pair {v}")),
    }
}

/// `run_cancelled` answer.
pub fn decode_cancelled(ok: &Value) -> Result<Result<CancelTrace, String>, String> {
    if let Some(f) = ok.get("failure") {
        return Ok(Err(f
            .as_str()
            .ok_or("failure is not a string")?
            .to_string()));
    }
    Ok(Ok(CancelTrace {
        before: search_pair(field(ok, "before")?)?,
        cancelled: search_pair(field(ok, "cancelled")?)?,
        cancelled_again: search_pair(field(ok, "cancelled_again")?)?,
        resumed: outcome(field(ok, "resumed")?)?,
    }))
}

/// `run_ops` answer.
pub fn decode_ops(ok: &Value, count: usize) -> Result<Vec<Result<u64, BuildFailure>>, String> {
    let list = field(ok, "results")?
        .as_array()
        .ok_or("results is not a list")?;
    if list.len() != count {
        return Err(format!("{} results for {count} operations", list.len()));
    }
    list.iter()
        .map(|r| {
            if let Some(f) = r.get("failure") {
                return Ok(Err(failure(f)?));
            }
            let s = field(r, "value")?
                .as_str()
                .ok_or("value is not a decimal string")?;
            s.parse::<u64>()
                .map(Ok)
                .map_err(|e| format!("value {s:?}: {e}"))
        })
        .collect()
}

/// `build_landmarks` answer.
pub fn decode_oplm(ok: &Value) -> Result<Result<Vec<u8>, String>, String> {
    if let Some(f) = ok.get("failure") {
        return Ok(Err(f
            .as_str()
            .ok_or("failure is not a string")?
            .to_string()));
    }
    Ok(Ok(hex_of(field(ok, "oplm")?)?))
}

/// `lower_bounds` answer.
pub fn decode_bounds(ok: &Value, count: usize) -> Result<Result<Vec<f64>, String>, String> {
    if let Some(f) = ok.get("failure") {
        return Ok(Err(f
            .as_str()
            .ok_or("failure is not a string")?
            .to_string()));
    }
    let list = field(ok, "bounds")?
        .as_array()
        .ok_or("bounds is not a list")?;
    if list.len() != count {
        return Err(format!("{} bounds for {count} pairs", list.len()));
    }
    Ok(Ok(list.iter().map(parse_bits).collect::<Result<_, _>>()?))
}

/// `deserialize_oplm` answer.
pub fn decode_deserialize(ok: &Value) -> Result<Result<Vec<u8>, OplmError>, String> {
    if let Some(r) = ok.get("rejected") {
        let class = field(r, "class")?
            .as_str()
            .ok_or("class is not a string")?
            .to_string();
        let offset = u64_of(field(r, "offset")?)? as usize;
        return Ok(Err(OplmError { class, offset }));
    }
    Ok(Ok(hex_of(field(ok, "oplm")?)?))
}

/// `state_run` answer.
pub fn decode_state(ok: &Value) -> Result<crate::state::StateReply, String> {
    use crate::state::{SearchSummary, StateError, StateReply};
    let restore = match field(ok, "restore")? {
        Value::Null => None,
        r if r.get("ok") == Some(&Value::Bool(true)) => Some(Ok(())),
        r => Some(Err(StateError {
            class: field(r, "class")?
                .as_str()
                .ok_or("class is not a string")?
                .to_string(),
            offset: u64_of(field(r, "offset")?)?,
        })),
    };
    let cells = field(ok, "cells")?
        .as_array()
        .ok_or("cells is not a list")?
        .iter()
        .map(|c| match c.as_array().map(|a| a.as_slice()) {
            Some([i, a, b]) => Ok((u64_of(i)? as u32, u64_of(a)? as u8, u64_of(b)? as u8)),
            _ => Err(format!("bad cell call {c}")),
        })
        .collect::<Result<_, String>>()?;
    let list = |v: &Value| -> Result<Vec<u32>, String> {
        v.as_array()
            .ok_or("not a list")?
            .iter()
            .map(|x| u64_of(x).map(|n| n as u32))
            .collect()
    };
    let search = match field(ok, "search")? {
        Value::Null => None,
        s => Some(SearchSummary {
            status: search_pair(&serde_json::json!([field(s, "status")?, 0]))?.0,
            iterations: u64_of(field(s, "iterations")?)?,
            expanded: u64_of(field(s, "expanded")?)?,
            cost_bits: parse_bits(field(s, "cost_bits")?)?.to_bits(),
            path: list(field(s, "path")?)?,
            expansions: list(field(s, "expansions")?)?,
        }),
    };
    Ok(StateReply {
        before: hex_of(field(ok, "before")?)?,
        restore,
        after: hex_of(field(ok, "after")?)?,
        cells,
        search,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcome_round_trip() {
        let o = Outcome::Path(PathOutcome {
            algorithm: AlgorithmCode::BidirectionalAstar,
            status: StatusCode::NotFound,
            cost: f64::INFINITY,
            iterations: 9,
            expanded_count: 9,
            nodes: vec![],
            expanded: vec![1, 2, 3],
        });
        assert_eq!(decode_outcome(&o.encode()).unwrap(), o);
        let e = Outcome::Error("stale_landmarks".into());
        assert_eq!(decode_outcome(&e.encode()).unwrap(), e);
        assert!(decode_outcome(&[1, 9]).is_err());
        let mut extra = e.encode();
        extra.push(0);
        assert!(decode_outcome(&extra).is_err());
    }

    #[test]
    fn reals_travel_as_bits() {
        for x in [f64::NAN, -0.0, f64::INFINITY, 1.5e-300] {
            assert_eq!(parse_bits(&bits(x)).unwrap().to_bits(), x.to_bits());
        }
    }
}
