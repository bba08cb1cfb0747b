//! `graph_query`: a fuzzed graph, landmarks, query and cost/heuristic rules run through every
//! applicable variant of both crates (tier-1, hooked and sliced runs); see [`check_query`]. The
//! target runs two of the variants, chosen by the input's bytes ([`selected_variants`]; issue 36,
//! fifth round), and the budgeted-prefix check and the sliced runs on one input in
//! [`super::DEEP_ONE_IN`] ([`super::deep`]), the sliced runs on one crate chosen by the input's
//! length (issue 36); the crates' tier-1 and hooked runs are compared on every input.

use super::Finding;
use super::*;
use crate::checks::generated::applicable;
use crate::implementation::{BlockedRule, HookSpec, HookedQuery, Implementation, RunOptions};
use crate::outcome::{first_difference, AlgorithmCode, Outcome, StatusCode};
use crate::scenario::{Case, Query, Variant};
use arbitrary::Unstructured;

/// The decoded input of `graph_query`.
#[derive(Clone, Debug)]
pub struct QueryInput {
    /// Graph and landmark options.
    pub case: Case,
    /// Queries (some may name nodes outside the graph).
    pub queries: Vec<Query>,
    /// Budget and recording of the tier-1 runs.
    pub opts: RunOptions,
    /// Hooked tier-1 queries.
    pub hooked: Vec<HookedQuery>,
    /// A step schedule for the sliced comparison (never empty, never 0).
    pub budgets: Vec<u64>,
}

/// Decodes a `graph_query` input.
pub fn decode_query(data: &[u8]) -> Res<QueryInput> {
    let mut u = Unstructured::new(data);
    let u = &mut u;
    let graph = if u.ratio(1, 5)? {
        points_graph(u)?
    } else {
        edges_graph(u, 14, 40, &mut weight)?
    };
    let n = graph.node_count() as u32;
    let case = Case {
        graph,
        landmarks: landmark_spec(u)?,
    };
    let queries = (0..small(u, 1, 4)?)
        .map(|_| Ok((node(u, n)?, node(u, n)?)))
        .collect::<Res<Vec<_>>>()?;
    let opts = RunOptions {
        iteration_budget: if u.ratio(2, 3)? {
            0
        } else {
            small(u, 1, 20)? as u64
        },
        record_expansions: !u.ratio(1, 4)?,
    };
    let mut hooked = Vec::new();
    for _ in 0..small(u, 0, 3)? {
        let algorithm = pick(
            u,
            &[
                AlgorithmCode::Dijkstra,
                AlgorithmCode::Astar,
                AlgorithmCode::BidirectionalDijkstra,
                AlgorithmCode::BidirectionalAstar,
            ],
        )?;
        let hooks = HookSpec {
            cost: if u.arbitrary()? {
                Some(cost_rule(u)?)
            } else {
                None
            },
            blocked: if u.arbitrary()? {
                let modulus = small(u, 1, 5)?;
                Some(BlockedRule {
                    modulus,
                    residue: small(u, 0, modulus)?,
                })
            } else {
                None
            },
            heuristic: if u.arbitrary()? {
                Some(heuristic_rule(u)?)
            } else {
                None
            },
        };
        hooked.push(HookedQuery {
            algorithm,
            landmarks: u.arbitrary()?,
            builtin_estimate: u.arbitrary()?,
            hooks,
            query: pick(u, &queries)?,
            opts: RunOptions {
                iteration_budget: if u.ratio(3, 4)? {
                    0
                } else {
                    small(u, 1, 12)? as u64
                },
                record_expansions: u.arbitrary()?,
            },
        });
    }
    let budgets = (0..small(u, 1, 4)?)
        .map(|_| Ok(small(u, 1, 9)? as u64))
        .collect::<Res<Vec<_>>>()?;
    Ok(QueryInput {
        case,
        queries,
        opts,
        hooked,
        budgets,
    })
}

/// `graph_query`: decode and [`check_query_on`]. Inputs too short to decode are accepted.
pub fn graph_query(data: &[u8]) -> Result<(), Finding> {
    let Ok(input) = decode_query(data) else {
        return Ok(());
    };
    // The sliced runs on one input in DEEP_ONE_IN, on one crate by the input's length (issue 36:
    // they were a third of an execution; each crate's are compared with the same tier-1 reply).
    let on: &dyn Implementation = if data.len().is_multiple_of(2) {
        &REF
    } else {
        &OPT
    };
    let ons = [on];
    let deep = deep(data);
    let variants = selected_variants(&input.case, choice(data, 4));
    check_query_on(&input, &variants, if deep { &ons } else { &[] }, deep)
}

/// The two variants `graph_query` runs on an input (issue 36, fifth round): of the applicable
/// ones (column order: the four one-directional variants, then their bidirectional forms; two
/// of each without positions), the `k`-th one-directional variant (`k` modulo their number) and
/// its bidirectional form. The target draws `k` from the input's bytes ([`super::choice`]), so
/// over a campaign every variant runs; [`check_query`] runs them all.
pub fn selected_variants(case: &Case, k: usize) -> Vec<Variant> {
    let all = applicable(case);
    let half = (all.len() / 2).max(1);
    all.iter()
        .enumerate()
        .filter(|&(i, _)| i % half == k % half)
        .map(|(_, &v)| v)
        .collect()
}

/// `Err` naming `what()` (formatted only then) and the first difference, if any.
fn outcome_diff(
    what: impl FnOnce() -> String,
    expected: &Outcome,
    found: &Outcome,
) -> Result<(), Finding> {
    match first_difference(expected, found) {
        Some(d) => Err(Finding::new(format!("{}: {d}", what()))),
        None => Ok(()),
    }
}

/// The differential of `graph_query`: tier-1 outcomes of every applicable variant, hooked runs
/// (outcome and hook log), sliced runs (`step` schedule = `run(None)` = tier 1), identical in
/// both crates; a budgeted tier-1 run is a prefix of the unbudgeted one. Every applicable
/// variant, everything on both crates.
pub fn check_query(input: &QueryInput) -> Result<(), Finding> {
    check_query_on(input, &applicable(&input.case), &[&REF, &OPT], true)
}

/// As [`check_query`], on `variants` only, with the sliced runs only on `sliced_on`, and the
/// budgeted-prefix check (a second, unbudgeted reference run of every variant and query) only
/// when `prefix` is set (the target: on a [`super::deep`] input, issue 36, fifth round; the
/// sliced runs compare with that unbudgeted run, so a non-empty `sliced_on` runs it too).
pub fn check_query_on(
    input: &QueryInput,
    variants: &[Variant],
    sliced_on: &[&dyn Implementation],
    prefix: bool,
) -> Result<(), Finding> {
    let case = &input.case;
    let r = REF.run_case(case, variants, &input.queries, input.opts);
    let o = OPT.run_case(case, variants, &input.queries, input.opts);
    let full = if !prefix && sliced_on.is_empty() {
        Vec::new()
    } else if input.opts == RunOptions::MATRIX {
        r.clone()
    } else {
        REF.run_case(case, variants, &input.queries, RunOptions::MATRIX)
    };
    // Sliced runs of every variant and query, the graph and landmarks built once per crate.
    let sliced: Vec<_> = sliced_on
        .iter()
        .map(|imp| imp.run_sliced_case(case, variants, &input.queries, &input.budgets))
        .collect();
    for (vi, &variant) in variants.iter().enumerate() {
        for (qi, &query) in input.queries.iter().enumerate() {
            // Where, in words: formatted only for a finding.
            let at = || {
                format!(
                    "variant {} query {qi} {query:?} opts {:?}",
                    variant.name(),
                    input.opts
                )
            };
            if let Some(d) = first_difference(&r[vi][qi], &o[vi][qi]) {
                return Err(Finding::new(format!(
                    "run_case {}: reference vs onepath: {d}",
                    at()
                )));
            }
            let Some(tier1) = full.get(vi).map(|f| &f[qi]) else {
                continue;
            };
            // A budgeted run stops at the budget with a prefix of the full expansion list.
            if let (Outcome::Path(b), Outcome::Path(f)) = (&r[vi][qi], tier1) {
                if b.status == StatusCode::BudgetExhausted {
                    let ok = b.iterations == input.opts.iteration_budget
                        && b.nodes.is_empty()
                        && b.cost == f64::INFINITY
                        && (!input.opts.record_expansions || f.expanded.starts_with(&b.expanded));
                    if !ok {
                        return Err(Finding::new(format!("run_case {}: budgeted run is not a prefix of the full run: {b:?} vs {f:?}", at())));
                    }
                } else if input.opts.record_expansions {
                    if let Some(d) = first_difference(tier1, &r[vi][qi]) {
                        return Err(Finding::new(format!(
                            "run_case {}: budget not reached yet differs from the unbudgeted run: {d}",
                            at()
                        )));
                    }
                }
            }
            // Sliced runs: run(None) and the fuzzed step schedule equal tier 1 (recording on).
            for (imp, runs) in sliced_on.iter().zip(&sliced) {
                let (whole, sliced) = &runs[vi][qi];
                if let Some(d) = first_difference(whole, sliced) {
                    return Err(Finding::new(format!(
                        "{} sliced {} budgets {:?} vs run(None): {d}",
                        imp.name(),
                        at(),
                        input.budgets
                    )));
                }
                if let Outcome::Path(_) = tier1 {
                    if let Some(d) = first_difference(tier1, whole) {
                        return Err(Finding::new(format!(
                            "{} run(None) {} vs tier 1: {d}",
                            imp.name(),
                            at()
                        )));
                    }
                }
            }
        }
    }
    for (i, q) in input.hooked.iter().enumerate() {
        let a = REF.run_hooked(case, q);
        let b = OPT.run_hooked(case, q);
        outcome_diff(
            || format!("hooked query {i} {q:?}: reference vs onepath"),
            &a.outcome,
            &b.outcome,
        )?;
        if let Some(k) =
            (0..a.calls.len().max(b.calls.len())).find(|&k| a.calls.get(k) != b.calls.get(k))
        {
            let show = |c: Option<&crate::implementation::HookCall>| {
                c.map_or("end of log".to_string(), |c| c.to_string())
            };
            return Err(Finding::new(format!(
                "hooked query {i} {q:?}: hook call {k}: expected {}, found {}",
                show(a.calls.get(k)),
                show(b.calls.get(k))
            )));
        }
    }
    Ok(())
}
