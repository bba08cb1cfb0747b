//! The `cancel` section ([CONF.CHECK.CANCEL]): a tier-2 `run(Some(flag))` whose flag is set
//! before the call makes no iteration and returns `Running`, unless the search is already over
//! or would end without an iteration (empty open set, bidirectional stop rule), in which case it
//! returns that final status ([GRAPH.ASTAR.RUN]); cancelling again changes nothing; resuming with
//! the flag cleared reaches the tier-1 outcome; every candidate's traces equal the reference's.

use super::generated::{applicable, generated_case};
use super::{parallel_cases, Config};
use crate::implementation::{CancelTrace, Implementation, RunOptions, SearchCode};
use crate::outcome::{first_difference, Outcome, StatusCode};
use crate::prng::derive_seed;
use crate::report::{Failure, Section};
use crate::scenario::{Case, GraphSpec, LandmarkSpec, StrategySpec};
use crate::state::finish::status_words;
use indicatif::ProgressBar;

/// The `first_steps` values for a search of `full` iterations: 0, 1, half, `full - 1`, `full`.
pub fn step_points(full: u64) -> Vec<u64> {
    let mut v = vec![0, 1, full / 2, full.saturating_sub(1), full];
    v.retain(|&k| k <= full);
    v.sort_unstable();
    v.dedup();
    v
}

fn final_code(o: &Outcome) -> Option<SearchCode> {
    match o {
        Outcome::Path(p) if p.status == StatusCode::Found => Some(SearchCode::Found),
        Outcome::Path(p) if p.status == StatusCode::NotFound => Some(SearchCode::NotFound),
        _ => None,
    }
}

/// What a conforming trace shows for `first_steps = k`, given the uninterrupted outcome.
pub fn trace_problem(full: &Outcome, k: u64, t: &CancelTrace) -> Option<(String, String, String)> {
    let Outcome::Path(p) = full else { return None };
    let done = final_code(full)?;
    let total = p.iterations;
    if k > 0 && t.before.1 != k.min(total) {
        return Some((
            "iterations after step".into(),
            k.min(total).to_string(),
            t.before.1.to_string(),
        ));
    }
    let expected = if t.before.0 != SearchCode::Running {
        t.before
    } else if t.before.1 == total {
        (done, total)
    } else {
        (SearchCode::Running, t.before.1)
    };
    if t.cancelled != expected {
        return Some((
            "run(Some(flag set)) [GRAPH.ASTAR.RUN]".into(),
            format!(
                "{} after {} iterations",
                status_words(expected.0),
                expected.1
            ),
            format!(
                "{} after {} iterations",
                status_words(t.cancelled.0),
                t.cancelled.1
            ),
        ));
    }
    if t.cancelled_again != t.cancelled {
        return Some((
            "second run(Some(flag set))".into(),
            format!(
                "{} after {} iterations",
                status_words(t.cancelled.0),
                t.cancelled.1
            ),
            format!(
                "{} after {} iterations",
                status_words(t.cancelled_again.0),
                t.cancelled_again.1
            ),
        ));
    }
    first_difference(full, &t.resumed).map(|d| {
        (
            format!("resumed vs tier 1: {}", d.what),
            d.expected,
            d.found,
        )
    })
}

/// The first field in which two traces differ.
pub fn trace_difference(
    a: &CancelTrace,
    b: &CancelTrace,
) -> Option<(String, String, String, Option<usize>)> {
    for (what, x, y) in [
        ("before", a.before, b.before),
        ("cancelled", a.cancelled, b.cancelled),
        ("cancelled again", a.cancelled_again, b.cancelled_again),
    ] {
        if x != y {
            return Some((
                what.into(),
                format!("{} after {} iterations", status_words(x.0), x.1),
                format!("{} after {} iterations", status_words(y.0), y.1),
                None,
            ));
        }
    }
    first_difference(&a.resumed, &b.resumed)
        .map(|d| (format!("resumed: {}", d.what), d.expected, d.found, d.step))
}

/// The hand-made cases the section runs after the generated ones, as `(name, case, queries)`.
/// `cancel-alt-unreachable`: the directed edge 0 -> 1 (weight 1) with one landmark; from 1 to 0
/// the landmark bound is +infinity, so `begin` of an ALT search pushes nothing and the search
/// ends NotFound without an iteration: `step(0)` is never called ([CONF.IMPL.CANCEL]), so the
/// trace's `before` is still Running, while a port that called `step(0)` would already have
/// applied the stop check ([GRAPH.BIDI.STOP]) and show NotFound.
pub fn hand_cases() -> Vec<(String, Case, Vec<(u32, u32)>)> {
    let case = Case {
        graph: GraphSpec::Edges {
            node_count: 2,
            directed: true,
            edges: vec![(0, 1, 1.0)],
            positions: None,
        },
        landmarks: LandmarkSpec {
            count: 1,
            strategy: StrategySpec::Avoid,
            seed: 1,
        },
    };
    vec![("cancel-alt-unreachable".into(), case, vec![(1, 0), (0, 1)])]
}

/// Runs the section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let base = derive_seed(config.seed, 0xCA9CE1);
    let hand = hand_cases();
    let count = config.cancel_graphs + hand.len();
    let mut sections = parallel_cases(config, count, &["cancel"], |i, sections| {
        let s = &mut sections[0];
        let (name, case, queries) = match i.checked_sub(config.cancel_graphs) {
            Some(h) => hand[h].clone(),
            None => {
                let (name, g) = generated_case(base, i);
                let queries = g.queries[..2.min(g.queries.len())].to_vec();
                (name, g.case, queries)
            }
        };
        let queries = &queries[..];
        let variants = applicable(&case);
        let mut traces: Vec<Vec<Result<CancelTrace, crate::error::CallError>>> = Vec::new();
        for imp in all {
            let tier1 = imp.run_case(&case, &variants, queries, RunOptions::MATRIX);
            let mut mine = Vec::new();
            for (vi, &variant) in variants.iter().enumerate() {
                for (qi, &query) in queries.iter().enumerate() {
                    let full = &tier1[vi][qi];
                    let Outcome::Path(p) = full else { continue };
                    for k in step_points(p.iterations) {
                        let fail = |what: String, expected: String, found: String| Failure {
                            case: Some(name.clone()),
                            implementation: imp.name().to_string(),
                            variant: Some(variant.name().to_string()),
                            query: Some(qi),
                            what: format!("step({k}) then cancel: {what}"),
                            expected,
                            found,
                            ..Default::default()
                        };
                        let t = imp.run_cancelled(&case, variant, query, k);
                        s.record(match &t {
                            Ok(t) => trace_problem(full, k, t).map(|(w, e, f)| fail(w, e, f)),
                            Err(c) => {
                                Some(fail("kind".into(), "a trace".into(), format!("error {c}")))
                            }
                        });
                        mine.push(t);
                    }
                }
            }
            traces.push(mine);
        }
        for (imp, mine) in all.iter().zip(&traces).skip(1) {
            if mine.len() != traces[0].len() {
                s.fail(Failure {
                    case: Some(name.clone()),
                    implementation: imp.name().to_string(),
                    what: "number of cancel traces".into(),
                    expected: traces[0].len().to_string(),
                    found: mine.len().to_string(),
                    ..Default::default()
                });
                continue;
            }
            for (k, (a, b)) in traces[0].iter().zip(mine).enumerate() {
                let problem = match (a, b) {
                    (Ok(a), Ok(b)) => trace_difference(a, b),
                    (Err(a), Err(b)) if a == b => None,
                    (a, b) => Some((
                        "kind".into(),
                        crate::words::outcome(a),
                        crate::words::outcome(b),
                        None,
                    )),
                };
                s.record(problem.map(|(what, expected, found, step)| Failure {
                    case: Some(name.clone()),
                    implementation: imp.name().to_string(),
                    what: format!("cancel trace {k} vs {}: {what}", all[0].name()),
                    expected,
                    found,
                    step,
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
