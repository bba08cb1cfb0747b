//! The `oracle` and `differential` sections over generated graphs ([CONF.CHECK.ORACLE],
//! [CONF.CHECK.DIFFERENTIAL]).

use super::{parallel_cases, Config};
use crate::generators::{directed_edges, generate, Generated, Kind};
use crate::implementation::{Implementation, LinkRequest, RunOptions};
use crate::links_bf;
use crate::oracle::{check_path, costs_agree, distances};
use crate::outcome::{first_difference, Outcome, StatusCode};
use crate::prng::{derive_seed, SplitMix64};
use crate::report::{Failure, Section};
use crate::scenario::{Case, GraphSpec, Variant};
use indicatif::ProgressBar;
use std::collections::BTreeMap;

/// Generated case `index` of a run with `base` seed: its name (`kind#seed`) and content.
pub fn generated_case(base: u64, index: usize) -> (String, Generated) {
    let seed = derive_seed(base, index as u64);
    let kind = Kind::ALL[index % Kind::ALL.len()];
    let mut rng = SplitMix64::new(seed ^ 0x5EED);
    let roll = rng.below(100);
    let mut size = if roll < 70 {
        rng.range(2, 25)
    } else if roll < 95 {
        rng.range(25, 80)
    } else {
        rng.range(80, 160)
    } as usize;
    if kind == Kind::Dense {
        size = size.min(40);
    }
    (
        format!("{}#{seed}", kind.name()),
        generate(kind, seed, size, 3),
    )
}

/// The directed edge list the library must build for a case (brute force for point graphs).
pub fn oracle_edges(case: &Case) -> Vec<(u32, u32, f64)> {
    match &case.graph {
        GraphSpec::Points {
            points,
            explicit,
            max_distance,
            nearest_count,
        } => {
            let req = LinkRequest {
                points: points.clone(),
                explicit: explicit.clone(),
                max_distance: *max_distance,
                nearest_count: *nearest_count,
                rule: None,
            };
            links_bf::build_links(&req).edges
        }
        graph => directed_edges(graph).expect("edges graph"),
    }
}

/// The applicable variants of a case.
pub fn applicable(case: &Case) -> Vec<Variant> {
    Variant::ALL
        .iter()
        .copied()
        .filter(|v| v.applies_to(&case.graph))
        .collect()
}

/// [CONF.VAR.NOT_APPLICABLE] The variants the oracle section also asks for generated case `index`
/// although they do not apply: the geo variants of every other edges graph without positions
/// (the even indexes), none for the other cases.
pub fn not_applicable_asked(index: usize, case: &Case) -> Vec<Variant> {
    if index % 2 != 0 {
        return Vec::new();
    }
    Variant::ALL
        .iter()
        .copied()
        .filter(|v| !v.applies_to(&case.graph))
        .collect()
}

fn oracle_problem(
    outcome: &Outcome,
    variant: Variant,
    query: (u32, u32),
    truth: f64,
    edges: &[(u32, u32, f64)],
    integer: bool,
) -> Option<(String, String, String)> {
    let p = match outcome {
        Outcome::Error(c) => return Some(("kind".into(), "a result".into(), format!("error {c}"))),
        Outcome::Path(p) => p,
    };
    if p.algorithm != variant.algorithm() {
        return Some((
            "algorithm".into(),
            crate::words::wire(&variant.algorithm()),
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
    if truth.is_infinite() {
        if p.status != StatusCode::NotFound || !p.nodes.is_empty() || p.cost != f64::INFINITY {
            return Some((
                "status".into(),
                "not_found, no path, cost inf".into(),
                format!("{} cost {:?}", crate::words::wire(&p.status), p.cost),
            ));
        }
        return None;
    }
    if p.status != StatusCode::Found {
        return Some((
            "status".into(),
            "found".into(),
            crate::words::wire(&p.status),
        ));
    }
    if !costs_agree(truth, p.cost, integer) {
        return Some(("cost".into(), format!("{truth:?}"), format!("{:?}", p.cost)));
    }
    if let Err(problem) = check_path(edges, query.0, query.1, &p.nodes, p.cost, integer) {
        return Some((
            "path".into(),
            "a valid path of the reported cost".into(),
            problem.0,
        ));
    }
    None
}

/// Runs both sections and returns `[oracle, differential]`.
pub fn run(
    reference: &dyn Implementation,
    candidates: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Vec<Section> {
    let mut all: Vec<&dyn Implementation> = vec![reference];
    all.extend_from_slice(candidates);
    parallel_cases(
        config,
        config.oracle_graphs,
        &["oracle", "differential"],
        |i, sections| {
            let (name, g) = generated_case(config.seed, i);
            let edges = oracle_edges(&g.case);
            let n = g.case.graph.node_count();
            let variants = applicable(&g.case);
            // [CONF.VAR.NOT_APPLICABLE] asked after the applicable ones, in one request.
            let extra = not_applicable_asked(i, &g.case);
            let asked: Vec<Variant> = variants.iter().chain(&extra).copied().collect();
            let mut truth: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
            for &(s, _) in &g.queries {
                truth.entry(s).or_insert_with(|| distances(n, &edges, s));
            }
            let results: Vec<Vec<Vec<Outcome>>> = all
                .iter()
                .map(|imp| imp.run_case(&g.case, &asked, &g.queries, RunOptions::MATRIX))
                .collect();
            for (imp, result) in all.iter().zip(&results) {
                for (vi, &variant) in variants.iter().enumerate() {
                    for (qi, &query) in g.queries.iter().enumerate() {
                        let d = truth[&query.0][query.1 as usize];
                        let problem = oracle_problem(
                            &result[vi][qi],
                            variant,
                            query,
                            d,
                            &edges,
                            g.integer_weights,
                        );
                        sections[0].record(problem.map(|(what, expected, found)| Failure {
                            case: Some(name.clone()),
                            implementation: imp.name().to_string(),
                            variant: Some(variant.name().to_string()),
                            query: Some(qi),
                            what,
                            expected,
                            found,
                            ..Default::default()
                        }));
                    }
                }
                for (xi, &variant) in extra.iter().enumerate() {
                    let vi = variants.len() + xi;
                    let plain = variant.without_geo();
                    let ci = variants
                        .iter()
                        .position(|&v| v == plain)
                        .expect("a variant without geo always applies");
                    for qi in 0..g.queries.len() {
                        let diff = first_difference(&result[ci][qi], &result[vi][qi]);
                        sections[0].record(diff.map(|d| Failure {
                            case: Some(name.clone()),
                            implementation: imp.name().to_string(),
                            variant: Some(variant.name().to_string()),
                            query: Some(qi),
                            what: format!(
                                "not applicable, [CONF.VAR.NOT_APPLICABLE]: {} vs {}",
                                d.what,
                                plain.name()
                            ),
                            expected: d.expected,
                            found: d.found,
                            step: d.step,
                            ..Default::default()
                        }));
                    }
                }
            }
            for (imp, result) in all.iter().zip(&results).skip(1) {
                for (vi, &variant) in asked.iter().enumerate() {
                    for qi in 0..g.queries.len() {
                        let diff = first_difference(&results[0][vi][qi], &result[vi][qi]);
                        sections[1].record(diff.map(|d| Failure {
                            case: Some(name.clone()),
                            implementation: imp.name().to_string(),
                            variant: Some(variant.name().to_string()),
                            query: Some(qi),
                            what: d.what,
                            expected: d.expected,
                            found: d.found,
                            step: d.step,
                            ..Default::default()
                        }));
                    }
                }
            }
            if let Some(p) = progress {
                p.inc(1);
            }
        },
    )
}
