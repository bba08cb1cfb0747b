//! The `hooks` section ([CONF.CHECK.HOOKS]): tier-1 queries with `edge_cost`, `blocked` and
//! `heuristic` hooks given as data ([CONF.IMPL.HOOK_RULES]). Every implementation's outcome and
//! hook-call log must equal the reference's (first differing call index reported), obey the
//! hook rules of [GRAPH.T1.BLOCKED], [GRAPH.ASTAR.BLOCKED], [GRAPH.EST.AUTO], and, where the
//! rule keeps the estimates admissible, agree with the oracle run on the transformed graph.
//! [CONF.CHECK.HOOKS_ORACLE] decides when the oracle's distance is still the truth.

use super::generated::{generated_case, oracle_edges};
use super::{parallel_cases, Config};
use crate::implementation::{
    BlockedRule, CostRule, HeuristicRule, HookCall, HookSpec, HookedQuery, HookedRun,
    Implementation, RunOptions,
};
use crate::oracle::{check_path, costs_agree, distances};
use crate::outcome::{first_difference, AlgorithmCode, Outcome, StatusCode};
use crate::prng::{derive_seed, SplitMix64};
use crate::report::{Failure, Section};
use crate::scenario::{Case, GraphSpec, LandmarkSpec, Query, StrategySpec};
use indicatif::ProgressBar;
use std::collections::HashSet;

/// A random cost rule (every kind of [CONF.IMPL.HOOK_RULES] in turn).
pub fn random_cost_rule(rng: &mut SplitMix64) -> CostRule {
    let m = rng.range(2, 5) as u32;
    match rng.below(7) {
        0 => CostRule::Scale {
            num: rng.range(1, 4) as u32,
            den: rng.range(1, 4) as u32,
        },
        1 => CostRule::AddConst([0.5, 1.0, 3.0][rng.below(3) as usize]),
        2 => CostRule::NanWhere(m),
        3 => CostRule::NegativeWhere(m),
        4 => CostRule::NegativeZeroWhere(m),
        5 => CostRule::InfinityWhere(m),
        _ => CostRule::MaxWhere(m),
    }
}

/// A random blocked rule.
pub fn random_blocked_rule(rng: &mut SplitMix64) -> BlockedRule {
    let modulus = rng.range(2, 7) as u32;
    BlockedRule {
        modulus,
        residue: rng.below(modulus as u64) as u32,
    }
}

/// A random (inconsistent) heuristic rule.
pub fn random_heuristic_rule(rng: &mut SplitMix64) -> HeuristicRule {
    let m = rng.range(2, 6) as u32;
    match rng.below(4) {
        0 => HeuristicRule::Mod {
            mul: rng.range(3, 9) as u32,
            modulus: rng.range(3, 11) as u32,
        },
        1 => HeuristicRule::InfinityWhere {
            m,
            r: rng.below(m as u64) as u32,
        },
        2 => HeuristicRule::NanWhere(m),
        _ => HeuristicRule::NegativeWhere(m),
    }
}

/// The hook specs of case `index`: a cost rule (with or without blocking), a heuristic rule
/// (with or without the others), and all three.
pub fn hook_specs(rng: &mut SplitMix64) -> Vec<HookSpec> {
    let mut a = HookSpec {
        cost: Some(random_cost_rule(rng)),
        ..Default::default()
    };
    if rng.chance(0.6) {
        a.blocked = Some(random_blocked_rule(rng));
    }
    let mut b = HookSpec {
        heuristic: Some(random_heuristic_rule(rng)),
        ..Default::default()
    };
    if rng.chance(0.5) {
        b.cost = Some(random_cost_rule(rng));
    }
    if rng.chance(0.5) {
        b.blocked = Some(random_blocked_rule(rng));
    }
    let c = HookSpec {
        cost: Some(random_cost_rule(rng)),
        blocked: Some(random_blocked_rule(rng)),
        heuristic: Some(random_heuristic_rule(rng)),
    };
    vec![a, b, c]
}

/// The `(algorithm requested, landmarks, built-in estimate)` configurations of the section.
pub const CONFIGS: [(AlgorithmCode, bool, bool); 6] = [
    (AlgorithmCode::Dijkstra, false, false),
    (AlgorithmCode::Astar, false, false),
    (AlgorithmCode::Astar, true, true),
    (AlgorithmCode::BidirectionalDijkstra, false, false),
    (AlgorithmCode::BidirectionalAstar, false, false),
    (AlgorithmCode::BidirectionalAstar, true, true),
];

/// The algorithm a conforming query reports ([GRAPH.EST.AUTO]).
pub fn expected_algorithm(case: &Case, q: &HookedQuery) -> AlgorithmCode {
    let estimate = q.landmarks
        || q.hooks.heuristic.is_some()
        || (q.builtin_estimate && case.graph.is_points());
    match (q.algorithm, estimate) {
        (AlgorithmCode::Astar, false) => AlgorithmCode::Dijkstra,
        (AlgorithmCode::BidirectionalAstar, false) => AlgorithmCode::BidirectionalDijkstra,
        (a, _) => a,
    }
}

fn bidirectional(a: AlgorithmCode) -> bool {
    matches!(
        a,
        AlgorithmCode::BidirectionalDijkstra | AlgorithmCode::BidirectionalAstar
    )
}

/// A short name of a hooked query's configuration for reports.
pub fn describe(q: &HookedQuery) -> String {
    let algorithm = match q.algorithm {
        AlgorithmCode::Dijkstra => "dijkstra",
        AlgorithmCode::Astar => "astar",
        AlgorithmCode::BidirectionalDijkstra => "bidirectional_dijkstra",
        AlgorithmCode::BidirectionalAstar => "bidirectional_astar",
    };
    let mut parts = vec![algorithm.to_string()];
    if q.landmarks {
        parts.push("landmarks".into());
    }
    if q.builtin_estimate {
        parts.push("built-in estimate".into());
    }
    if let Some(c) = q.hooks.cost {
        parts.push(format!("edge_cost {}", cost_words(c)));
    }
    if let Some(b) = q.hooks.blocked {
        parts.push(format!("blocked node % {} == {}", b.modulus, b.residue));
    }
    if let Some(h) = q.hooks.heuristic {
        parts.push(format!("heuristic {}", heuristic_words(h)));
    }
    parts.join(", ")
}

/// A cost hook in the request's wire terms ([DRIVER.OP.RUN_HOOKED]): `{"nan_where":5}`.
fn cost_words(c: CostRule) -> String {
    match c {
        CostRule::Scale { num, den } => format!("{{\"scale\":[{num},{den}]}}"),
        CostRule::AddConst(v) => format!("{{\"add_const\":{v:?}}}"),
        CostRule::NanWhere(m) => format!("{{\"nan_where\":{m}}}"),
        CostRule::NegativeWhere(m) => format!("{{\"negative_where\":{m}}}"),
        CostRule::NegativeZeroWhere(m) => format!("{{\"negative_zero_where\":{m}}}"),
        CostRule::InfinityWhere(m) => format!("{{\"infinity_where\":{m}}}"),
        CostRule::MaxWhere(m) => format!("{{\"max_where\":{m}}}"),
    }
}

/// A heuristic hook in the request's wire terms ([DRIVER.OP.RUN_HOOKED]): `{"mod":[3,7]}`.
fn heuristic_words(h: HeuristicRule) -> String {
    match h {
        HeuristicRule::Mod { mul, modulus } => format!("{{\"mod\":[{mul},{modulus}]}}"),
        HeuristicRule::InfinityWhere { m, r } => format!("{{\"infinity_where\":[{m},{r}]}}"),
        HeuristicRule::NanWhere(m) => format!("{{\"nan_where\":{m}}}"),
        HeuristicRule::NegativeWhere(m) => format!("{{\"negative_where\":{m}}}"),
    }
}

/// The first index where two hook-call logs differ, with both entries rendered.
pub fn first_call_difference(
    expected: &[HookCall],
    found: &[HookCall],
) -> Option<(usize, String, String)> {
    let show = |c: Option<&HookCall>| c.map_or("end of calls".to_string(), |c| c.to_string());
    let n = expected.len().max(found.len());
    (0..n)
        .find(|&i| expected.get(i) != found.get(i))
        .map(|i| (i, show(expected.get(i)), show(found.get(i))))
}

/// Whether the oracle applies: no user heuristic, no overflow rule, no `-0.0` rule (its class is
/// the crates' business, compared differentially), and either a Dijkstra search or a rule that
/// never lowers a weight (so the landmark and Euclidean estimates stay admissible and consistent).
pub fn oracle_applies(spec: &HookSpec, ran: AlgorithmCode) -> bool {
    if spec.heuristic.is_some() {
        return false;
    }
    let monotone = match spec.cost {
        None => true,
        Some(CostRule::Scale { num, den }) => num >= den,
        Some(CostRule::AddConst(k)) => k >= 0.0,
        Some(CostRule::NanWhere(_) | CostRule::NegativeWhere(_) | CostRule::InfinityWhere(_)) => {
            true
        }
        Some(CostRule::NegativeZeroWhere(_) | CostRule::MaxWhere(_)) => return false,
    };
    monotone
        || matches!(
            ran,
            AlgorithmCode::Dijkstra | AlgorithmCode::BidirectionalDijkstra
        )
}

/// The oracle's graph: blocked nodes removed, costs transformed, skipped edges dropped
/// ([GRAPH.ASTAR.EXPAND], [GRAPH.T1.BLOCKED]).
pub fn transformed_edges(edges: &[(u32, u32, f64)], spec: &HookSpec) -> Vec<(u32, u32, f64)> {
    edges
        .iter()
        .filter(|e| {
            spec.blocked
                .map_or(true, |b| !b.blocked(e.0) && !b.blocked(e.1))
        })
        .filter_map(|&(a, b, w)| {
            let c = spec.cost.map_or(w, |r| r.cost(a, b, w));
            (!(c.is_nan() || c < 0.0 || c == f64::INFINITY)).then_some((a, b, c))
        })
        .collect()
}

fn integer_rule(spec: &HookSpec) -> bool {
    match spec.cost {
        None => true,
        Some(CostRule::Scale { den, .. }) => den == 1,
        Some(CostRule::AddConst(k)) => k.fract() == 0.0,
        Some(_) => true,
    }
}

/// Spec properties of one hooked run that need no second implementation.
pub fn property_problem(
    case: &Case,
    q: &HookedQuery,
    run: &HookedRun,
    edges: &HashSet<(u32, u32, u64)>,
) -> Option<(String, String, String)> {
    let p = match &run.outcome {
        Outcome::Error(c) => return Some(("kind".into(), "a result".into(), format!("error {c}"))),
        Outcome::Path(p) => p,
    };
    let ran = expected_algorithm(case, q);
    if p.algorithm != ran {
        return Some((
            "algorithm [GRAPH.EST.AUTO]".into(),
            crate::words::wire(&ran),
            crate::words::wire(&p.algorithm),
        ));
    }
    if p.expanded.len() as u64 != p.expanded_count {
        return Some((
            "expanded list length".into(),
            p.expanded_count.to_string(),
            p.expanded.len().to_string(),
        ));
    }
    let (start, goal) = q.query;
    if let Some(rule) = q.hooks.blocked {
        let mut expected_prefix = vec![HookCall::Blocked(start)];
        if !rule.blocked(start) {
            expected_prefix.push(HookCall::Blocked(goal));
        }
        if let Some((i, e, f)) = first_call_difference(
            &expected_prefix,
            &run.calls[..expected_prefix.len().min(run.calls.len())],
        ) {
            return Some((format!("hook call {i} [GRAPH.ASTAR.BLOCKED]"), e, f));
        }
        if rule.blocked(start) || rule.blocked(goal) {
            if run.calls.len() != expected_prefix.len() {
                return Some((
                    format!("hook call {} [GRAPH.T1.BLOCKED]", expected_prefix.len()),
                    "no further hook call (start or goal blocked)".into(),
                    run.calls[expected_prefix.len()].to_string(),
                ));
            }
            if p.status != StatusCode::NotFound || p.iterations != 0 || p.expanded_count != 0 {
                return Some((
                    "blocked start or goal [GRAPH.T1.BLOCKED]".into(),
                    "not_found after 0 iterations".into(),
                    format!(
                        "{} after {} iterations",
                        crate::words::wire(&p.status),
                        p.iterations
                    ),
                ));
            }
        }
        if p.nodes.iter().any(|&n| rule.blocked(n)) {
            return Some((
                "path [GRAPH.T1.BLOCKED]".into(),
                "no blocked node".into(),
                format!("{:?}", p.nodes),
            ));
        }
    }
    let dijkstra = matches!(
        ran,
        AlgorithmCode::Dijkstra | AlgorithmCode::BidirectionalDijkstra
    );
    for (i, call) in run.calls.iter().enumerate() {
        match *call {
            HookCall::Heuristic(..) if dijkstra => {
                return Some((
                    format!("hook call {i} [GRAPH.EST.AUTO]"),
                    "no heuristic call in a Dijkstra search".into(),
                    call.to_string(),
                ));
            }
            HookCall::EdgeCost(a, b, w) => {
                if !edges.contains(&(a, b, w)) {
                    return Some((
                        format!("hook call {i}"),
                        "edge_cost of an edge of the graph".into(),
                        call.to_string(),
                    ));
                }
                if let Some(rule) = q.hooks.blocked {
                    let before = if i > 0 { Some(run.calls[i - 1]) } else { None };
                    let ok = match before {
                        Some(HookCall::Blocked(x)) => {
                            (x == b || (bidirectional(ran) && x == a)) && !rule.blocked(x)
                        }
                        _ => false,
                    };
                    if !ok {
                        let shown = before.map_or("nothing".to_string(), |c| c.to_string());
                        return Some((
                            format!("hook call {} [GRAPH.ASTAR.BLOCKED]", i.saturating_sub(1)),
                            format!("blocked() of the unblocked node entered by {call}"),
                            shown,
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

fn oracle_problem(
    truth: f64,
    q: &HookedQuery,
    run: &HookedRun,
    edges: &[(u32, u32, f64)],
    integer: bool,
) -> Option<(String, String, String)> {
    let Outcome::Path(p) = &run.outcome else {
        return None;
    };
    if truth.is_infinite() {
        if p.status != StatusCode::NotFound || !p.nodes.is_empty() || p.cost != f64::INFINITY {
            return Some((
                "oracle status".into(),
                "not_found, no path, cost inf".into(),
                format!("{} cost {:?}", crate::words::wire(&p.status), p.cost),
            ));
        }
        return None;
    }
    if p.status != StatusCode::Found {
        return Some((
            "oracle status".into(),
            "found".into(),
            crate::words::wire(&p.status),
        ));
    }
    if !costs_agree(truth, p.cost, integer) {
        return Some((
            "oracle cost".into(),
            format!("{truth:?}"),
            format!("{:?}", p.cost),
        ));
    }
    if let Err(problem) = check_path(edges, q.query.0, q.query.1, &p.nodes, p.cost, integer) {
        return Some((
            "oracle path".into(),
            "a valid path of the reported cost".into(),
            problem.0,
        ));
    }
    None
}

/// The hand-made cases run after the generated graphs ([CONF.CHECK.HOOKS]): name, case, queries,
/// whether its weights are integers, and its hook specs.
///
/// `hooks-negative-bidi`: the directed edges 0 -> 1 (1), 1 -> 2 (1), 2 -> 3 (1), 0 -> 3 (2) and
/// 1 -> 3 (5) with the cost rule `negative_where 3` alone, which makes 0 -> 3 and 1 -> 2 cost -1.0,
/// so both are skipped ([GRAPH.ASTAR.EXPAND]) and 0 -> 3 is found through 0 -> 1 -> 3 at cost 6;
/// every configuration runs, so the bidirectional ones' skip ([GRAPH.BIDI.EXPAND]) is pinned at
/// any number of generated graphs.
pub fn hand_cases() -> Vec<(String, Case, Vec<Query>, bool, Vec<HookSpec>)> {
    let case = Case {
        graph: GraphSpec::Edges {
            node_count: 4,
            directed: true,
            edges: vec![
                (0, 1, 1.0),
                (1, 2, 1.0),
                (2, 3, 1.0),
                (0, 3, 2.0),
                (1, 3, 5.0),
            ],
            positions: None,
        },
        landmarks: LandmarkSpec {
            count: 1,
            strategy: StrategySpec::Avoid,
            seed: 1,
        },
    };
    let spec = HookSpec {
        cost: Some(CostRule::NegativeWhere(3)),
        ..Default::default()
    };
    vec![(
        "hooks-negative-bidi".into(),
        case,
        vec![(0, 3)],
        true,
        vec![spec],
    )]
}

/// One case of the section: the graph, its queries and whether its weights are integers.
struct HookCase {
    case: Case,
    queries: Vec<Query>,
    integer_weights: bool,
}

/// Runs the section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let base = derive_seed(config.seed, 0x400C5);
    let hand = hand_cases();
    let count = config.hook_graphs + hand.len();
    let mut sections = parallel_cases(config, count, &["hooks"], |i, sections| {
        let s = &mut sections[0];
        let (name, case, queries, integer_weights, specs) = match i.checked_sub(config.hook_graphs)
        {
            Some(h) => hand[h].clone(),
            None => {
                let (name, g) = generated_case(base, i);
                let mut rng = SplitMix64::new(derive_seed(base ^ 0xB10C, i as u64));
                let specs = hook_specs(&mut rng);
                (name, g.case, g.queries, g.integer_weights, specs)
            }
        };
        let g = HookCase {
            case,
            queries,
            integer_weights,
        };
        let n = g.case.graph.node_count();
        let edges = oracle_edges(&g.case);
        let edge_set: HashSet<(u32, u32, u64)> =
            edges.iter().map(|&(a, b, w)| (a, b, w.to_bits())).collect();
        for spec in &specs {
            let transformed = transformed_edges(&edges, spec);
            let integer = g.integer_weights && integer_rule(spec);
            let mut truth: std::collections::BTreeMap<u32, Vec<f64>> = Default::default();
            for &(algorithm, landmarks, builtin) in &CONFIGS {
                if builtin && !g.case.graph.is_points() && !landmarks {
                    continue;
                }
                for (qi, &query) in g.queries.iter().enumerate() {
                    let q = HookedQuery {
                        algorithm,
                        landmarks,
                        builtin_estimate: builtin,
                        hooks: *spec,
                        query,
                        opts: RunOptions::MATRIX,
                    };
                    let runs: Vec<HookedRun> =
                        all.iter().map(|imp| imp.run_hooked(&g.case, &q)).collect();
                    let ran = expected_algorithm(&g.case, &q);
                    let use_oracle = oracle_applies(spec, ran);
                    for (imp, r) in all.iter().zip(&runs) {
                        let fail = |what: String, expected: String, found: String| Failure {
                            case: Some(name.clone()),
                            implementation: imp.name().to_string(),
                            variant: Some(describe(&q)),
                            query: Some(qi),
                            what,
                            expected,
                            found,
                            ..Default::default()
                        };
                        s.record(
                            property_problem(&g.case, &q, r, &edge_set)
                                .map(|(w, e, f)| fail(w, e, f)),
                        );
                        if use_oracle {
                            let blocked_end = spec
                                .blocked
                                .is_some_and(|b| b.blocked(query.0) || b.blocked(query.1));
                            let d = if blocked_end {
                                f64::INFINITY
                            } else {
                                truth
                                    .entry(query.0)
                                    .or_insert_with(|| distances(n, &transformed, query.0))
                                    [query.1 as usize]
                            };
                            s.record(
                                oracle_problem(d, &q, r, &transformed, integer)
                                    .map(|(w, e, f)| fail(w, e, f)),
                            );
                        }
                    }
                    for (imp, r) in all.iter().zip(&runs).skip(1) {
                        let fail =
                            |what: String, expected: String, found: String, step: Option<usize>| {
                                Failure {
                                    case: Some(name.clone()),
                                    implementation: imp.name().to_string(),
                                    variant: Some(describe(&q)),
                                    query: Some(qi),
                                    what,
                                    expected,
                                    found,
                                    step,
                                    ..Default::default()
                                }
                            };
                        s.record(first_call_difference(&runs[0].calls, &r.calls).map(
                            |(i, e, f)| {
                                fail(format!("hook call {i} vs {}", all[0].name()), e, f, None)
                            },
                        ));
                        s.record(first_difference(&runs[0].outcome, &r.outcome).map(|d| {
                            fail(
                                format!("outcome vs {}: {}", all[0].name(), d.what),
                                d.expected,
                                d.found,
                                d.step,
                            )
                        }));
                    }
                }
            }
        }
        if let Some(p) = progress {
            p.inc(1);
        }
    });
    sections.remove(0)
}
