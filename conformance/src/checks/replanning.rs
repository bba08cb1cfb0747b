//! The `replanning` certify section ([CONF.CHECK.REPLANNING]): seeded edit scripts on every
//! implementation against the reference crate (first differing step and field) and the oracle;
//! budgeted replans against unbudgeted ones; rollbacks through snapshots against the run that
//! never left; one long script.

use super::parallel_cases;
use crate::config::Config;
use crate::implementation::Implementation;
use crate::prng::derive_seed;
use crate::replan::cases::request;
use crate::replan::{first_difference, oracle, ReplanReply, ReplanRequest, ReplanStep, StepReply};
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// The steps of the long script ([CONF.CHECK.REPLANNING]).
pub const LONG_SCRIPT: usize = 10_000;

/// The name of generated case `i` (requests and failures carry it).
pub fn case_name(i: usize) -> String {
    format!("replan#{i}")
}

/// The generated request of case `i`: case 0 is the long script on a 24 x 24 map, the others
/// 4..=20 cells a side with 120 steps.
pub fn case_request(config: &Config, i: usize) -> ReplanRequest {
    let base = derive_seed(config.seed, 0x5EB1A);
    if i == 0 {
        let mut r = request(base, 1, 24, LONG_SCRIPT);
        // A fixed 24 x 24 size for the long script.
        let mut rng = crate::prng::SplitMix64::new(base);
        r.grid.map = crate::replan::cases::map(&mut rng, 24, 24, 2);
        r.start = (0, 0);
        r.goal = (23, 23);
        r.script = crate::replan::cases::script(
            &mut rng,
            LONG_SCRIPT,
            (24, 24),
            r.start,
            r.goal,
            r.mode,
            true,
        );
        r
    } else {
        request(base, i as u64, 20, 120)
    }
}

/// Each unbudgeted replan of `r` as `replan(budget)` repeated while `Running`.
fn sliced(r: &ReplanRequest, budget: u64) -> ReplanRequest {
    let mut out = r.clone();
    for s in &mut out.script {
        if *s == (ReplanStep::Replan { budget: 0 }) {
            *s = ReplanStep::ReplanUntilDone { budget };
        }
    }
    out
}

/// A step reply without what a sliced replan counts per call (`last_expanded`, `expansions` and
/// the state hash, which holds `last_expanded`).
fn per_run(s: &StepReply) -> StepReply {
    StepReply {
        last_expanded: 0,
        expansions: Vec::new(),
        state_sha256: String::new(),
        ..s.clone()
    }
}

/// `r` with a snapshot after its first `at` steps: `P, save, S, rollback, S` where `S` is the
/// rest; returns the request and the index of the first step of each copy of `S`.
fn with_rollback(r: &ReplanRequest, at: usize) -> (ReplanRequest, usize, usize) {
    let (p, rest) = r.script.split_at(at.min(r.script.len()));
    let rest: Vec<ReplanStep> = rest
        .iter()
        .filter(|s| !matches!(s, ReplanStep::Save {} | ReplanStep::Rollback {}))
        .cloned()
        .collect();
    let p: Vec<ReplanStep> = p
        .iter()
        .filter(|s| !matches!(s, ReplanStep::Save {} | ReplanStep::Rollback {}))
        .cloned()
        .collect();
    let mut script = p.clone();
    script.push(ReplanStep::Save {});
    let first = script.len();
    script.extend(rest.iter().cloned());
    script.push(ReplanStep::Rollback {});
    let second = script.len();
    script.extend(rest.iter().cloned());
    let mut out = r.clone();
    out.script = script;
    (out, first, second)
}

fn failure(case: &str, imp: &str, what: &str, expected: &str, found: String) -> Failure {
    Failure {
        case: Some(case.to_string()),
        implementation: imp.to_string(),
        what: what.to_string(),
        expected: expected.to_string(),
        found,
        ..Default::default()
    }
}

/// One generated case on every implementation.
fn run_case(all: &[&dyn Implementation], name: &str, r: &ReplanRequest, s: &mut Section) {
    let reference = all[0];
    // The candidates run beside the reference and its oracle check ([`super::beside`]).
    let (checked, replies) = super::beside(
        || {
            reference
                .run_replan_as(name, r)
                .map(|want| (oracle::check(r, &want), want))
        },
        &all[1..],
        |imp| imp.run_replan_as(name, r),
    );
    let Ok((problem, want)) = checked else {
        s.fail(failure(
            name,
            reference.name(),
            "run_replan",
            "a reply",
            "no reply".into(),
        ));
        return;
    };
    s.record(problem.map(|p| failure(name, reference.name(), "oracle", "no problem", p)));
    for (imp, reply) in all[1..].iter().zip(replies) {
        s.record(match reply {
            Err(e) => Some(failure(
                name,
                imp.name(),
                "run_replan",
                "a reply",
                e.to_string(),
            )),
            Ok(got) => first_difference(&want, &got)
                .map(|d| failure(name, imp.name(), "replan reply", "the reference's reply", d)),
        });
    }
    if r.script.len() > 1_000 {
        return;
    }
    // Budgeted = unbudgeted ([REPLAN.COMPUTE.LOOP]).
    let budget = 1 + (r.script.len() as u64 % 5);
    for imp in all {
        let name_b = format!("{name}/budget{budget}");
        let got = imp.run_replan_as(&name_b, &sliced(r, budget));
        let whole = if imp.name() == reference.name() {
            Ok(want.clone())
        } else {
            imp.run_replan_as(name, r)
        };
        s.record(match (whole, got) {
            (Ok(ReplanReply::Ran { steps: a, .. }), Ok(ReplanReply::Ran { steps: b, .. })) => {
                let a: Vec<StepReply> = a.iter().map(per_run).collect();
                let b: Vec<StepReply> = b.iter().map(per_run).collect();
                let first = a.iter().zip(&b).position(|(x, y)| x != y);
                first.map(|k| {
                    failure(
                        &name_b,
                        imp.name(),
                        "budgeted replans",
                        "the unbudgeted steps",
                        format!("step {k} differs: {:?}", b[k]),
                    )
                })
            }
            (Ok(a), Ok(b)) if a == b => None,
            (a, b) => Some(failure(
                &name_b,
                imp.name(),
                "budgeted replans",
                "the same kind of reply",
                format!(
                    "{} vs {}",
                    crate::words::outcome(&a),
                    crate::words::outcome(&b)
                ),
            )),
        });
    }
    // Rollback = the run that never left ([REPLAN.STATE.RESTORE], [REPLAN.STATE.ORDER]).
    let at = r.script.len() / 3;
    let (rb, first, second) = with_rollback(r, at);
    let name_r = format!("{name}/rollback{at}");
    for imp in all {
        s.record(match imp.run_replan_as(&name_r, &rb) {
            Ok(ReplanReply::Ran { steps, .. }) => {
                let n = second - first - 1;
                // A restore empties the recorded list ([REPLAN.RUN.RECORD]): until the first
                // replan after the rollback, the lists are not compared.
                let replans = |k: usize| {
                    rb.script[second..second + k].iter().any(|s| {
                        matches!(
                            s,
                            ReplanStep::Replan { .. } | ReplanStep::ReplanUntilDone { .. }
                        )
                    })
                };
                let k = (0..n).find(|&k| {
                    let (a, b) = (&steps[first + k], &steps[second + k]);
                    if replans(k + 1) {
                        a != b
                    } else {
                        StepReply {
                            expansions: Vec::new(),
                            ..a.clone()
                        } != StepReply {
                            expansions: Vec::new(),
                            ..b.clone()
                        }
                    }
                });
                let rolled = &steps[second - 1];
                if rolled.error.is_some() {
                    Some(failure(
                        &name_r,
                        imp.name(),
                        "rollback",
                        "grid and replanner restored",
                        format!("{:?}", rolled.error),
                    ))
                } else {
                    k.map(|k| {
                        failure(
                            &name_r,
                            imp.name(),
                            "rollback",
                            "the steps of the run that never left",
                            format!(
                                "step {} after the rollback differs from step {}",
                                second + k,
                                first + k
                            ),
                        )
                    })
                }
            }
            Ok(ReplanReply::Failed(c)) => (want != ReplanReply::Failed(c.clone()))
                .then(|| failure(&name_r, imp.name(), "rollback", "a run", c)),
            Err(e) => Some(failure(
                &name_r,
                imp.name(),
                "run_replan",
                "a reply",
                e.to_string(),
            )),
        });
    }
}

/// The `replanning` section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let mut sections = parallel_cases(
        config,
        config.replan_cases,
        &["replanning"],
        |i, sections| {
            let r = case_request(config, i);
            run_case(all, &case_name(i), &r, &mut sections[0]);
            if let Some(p) = progress {
                p.inc(1);
            }
        },
    );
    sections.pop().expect("one section")
}
