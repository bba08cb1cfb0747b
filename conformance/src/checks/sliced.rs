//! The `sliced` section ([CONF.CHECK.SLICED]): tier-2 searches stepped with budgets 1, 2, 3, 7,
//! 64 (each repeated until done), a mixed schedule and `run(None)` all equal the tier-1 result;
//! a tier-1 `iteration_budget` below the full iteration count yields `BudgetExhausted` with a
//! prefix of the expansion list, identically across implementations.

use super::generated::{applicable, generated_case};
use super::{parallel_cases, Config};
use crate::implementation::{Implementation, RunOptions};
use crate::outcome::{first_difference, Outcome, StatusCode};
use crate::prng::derive_seed;
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// The step schedules of the section; the empty schedule means `run(None)`.
pub const SCHEDULES: [&[u64]; 7] = [&[], &[1], &[2], &[3], &[7], &[64], &[1, 2, 3, 7, 64]];

fn schedule_name(s: &[u64]) -> String {
    if s.is_empty() {
        "run(None)".into()
    } else {
        format!("step budgets {s:?}")
    }
}

/// Runs the section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let base = derive_seed(config.seed, 0x511CED);
    let mut sections = parallel_cases(config, config.sliced_graphs, &["sliced"], |i, sections| {
        let s = &mut sections[0];
        let (name, g) = generated_case(base, i);
        let variants = applicable(&g.case);
        let queries = &g.queries[..2.min(g.queries.len())];
        let mut budget_outcomes: Vec<Vec<Outcome>> = Vec::new();
        for imp in all {
            let tier1 = imp.run_case(&g.case, &variants, queries, RunOptions::MATRIX);
            let mut budgeted = Vec::new();
            for (vi, &variant) in variants.iter().enumerate() {
                for (qi, &query) in queries.iter().enumerate() {
                    let expected = &tier1[vi][qi];
                    let fail =
                        |what: String, expected: String, found: String, step: Option<usize>| {
                            Failure {
                                case: Some(name.clone()),
                                implementation: imp.name().to_string(),
                                variant: Some(variant.name().to_string()),
                                query: Some(qi),
                                what,
                                expected,
                                found,
                                step,
                                vector: None,
                                clauses: Vec::new(),
                            }
                        };
                    for schedule in SCHEDULES {
                        let got = imp.run_sliced(&g.case, variant, query, schedule);
                        s.record(first_difference(expected, &got).map(|d| {
                            fail(
                                format!("{} vs tier 1: {}", schedule_name(schedule), d.what),
                                d.expected,
                                d.found,
                                d.step,
                            )
                        }));
                    }
                    // Tier-1 budget one below the full iteration count.
                    let Outcome::Path(full) = expected else {
                        continue;
                    };
                    if full.iterations < 2 {
                        continue;
                    }
                    let b = full.iterations - 1;
                    let got = imp.run_query(
                        &g.case,
                        variant,
                        query,
                        RunOptions {
                            iteration_budget: b,
                            record_expansions: true,
                        },
                    );
                    let problem = match &got {
                        Outcome::Path(p)
                            if p.status == StatusCode::BudgetExhausted
                                && p.iterations == b
                                && p.nodes.is_empty()
                                && p.cost == f64::INFINITY
                                && full.expanded.starts_with(&p.expanded)
                                && p.expanded.len() as u64 == p.expanded_count =>
                        {
                            None
                        }
                        Outcome::Path(p) => Some(format!(
                            "{:?} after {} iterations, {} expansions (prefix of full list: {})",
                            p.status,
                            p.iterations,
                            p.expanded.len(),
                            full.expanded.starts_with(&p.expanded)
                        )),
                        Outcome::Error(c) => Some(format!("error {c}")),
                    };
                    s.record(problem.map(|found| {
                        fail(
                            format!("iteration_budget {b}"),
                            format!("BudgetExhausted after {b} iterations with a prefix of the full expansion list"),
                            found,
                            None,
                        )
                    }));
                    let full_budget = imp.run_query(
                        &g.case,
                        variant,
                        query,
                        RunOptions {
                            iteration_budget: full.iterations,
                            record_expansions: true,
                        },
                    );
                    s.record(first_difference(expected, &full_budget).map(|d| {
                        fail(
                            format!(
                                "iteration_budget {} (exactly enough): {}",
                                full.iterations, d.what
                            ),
                            d.expected,
                            d.found,
                            d.step,
                        )
                    }));
                    budgeted.push(got);
                }
            }
            budget_outcomes.push(budgeted);
        }
        // Budgeted outcomes identical across implementations.
        for (imp, outcomes) in all.iter().zip(&budget_outcomes).skip(1) {
            for (k, (a, b)) in budget_outcomes[0].iter().zip(outcomes).enumerate() {
                s.record(first_difference(a, b).map(|d| Failure {
                    case: Some(name.clone()),
                    implementation: imp.name().to_string(),
                    what: format!("budgeted run {k} vs {}: {}", all[0].name(), d.what),
                    expected: d.expected,
                    found: d.found,
                    step: d.step,
                    ..Default::default()
                }));
            }
        }
        if let Some(p) = progress {
            p.inc(1);
        }
    });
    sections.remove(0)
}
