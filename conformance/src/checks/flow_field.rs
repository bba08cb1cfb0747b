//! The `flow-field` certify section ([CONF.CHECK.FLOW_FIELD]): seeded edit scripts on every
//! implementation against the reference crate (first differing step and field, localised to the
//! first differing cell) and the oracle; sliced steps against unsliced ones; rollbacks through
//! snapshots against the run that never left; one long script.

use super::parallel_cases;
use crate::config::Config;
use crate::flow::cases::request;
use crate::flow::{field_difference, first_difference, oracle, FlowReply, FlowRequest, FlowStep};
use crate::implementation::Implementation;
use crate::prng::derive_seed;
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// The steps of the long script ([CONF.CHECK.FLOW_FIELD]).
pub const LONG_SCRIPT: usize = 10_000;

/// The name of generated case `i` (requests and failures carry it).
pub fn case_name(i: usize) -> String {
    format!("flow#{i}")
}

/// The generated request of case `i`: case 0 is the long script on a 24 x 24 map with three
/// goals, the others 3..=20 cells a side with 120 steps.
pub fn case_request(config: &Config, i: usize) -> FlowRequest {
    let base = derive_seed(config.seed, 0xF10F);
    if i == 0 {
        let mut r = request(base, 1, 24, LONG_SCRIPT);
        let mut rng = crate::prng::SplitMix64::new(base);
        r.grid.map = crate::replan::cases::map(&mut rng, 24, 24, 2);
        r.goals = vec![(0, 0), (23, 23), (12, 3)];
        r.probes = crate::flow::cases::probes(24, 24);
        r.script = crate::flow::cases::script(&mut rng, LONG_SCRIPT, (24, 24), &r.goals, true);
        r
    } else {
        request(base, i as u64, 20, 120)
    }
}

/// Each unbudgeted step of `r` as `step(budget)` repeated while `Running`.
pub fn sliced(r: &FlowRequest, budget: u64) -> FlowRequest {
    let mut out = r.clone();
    for s in &mut out.script {
        if *s == (FlowStep::Step { budget: 0 }) {
            *s = FlowStep::StepUntilDone { budget };
        }
    }
    out
}

/// Whether a step uses the snapshot slot.
fn snapshot_step(s: &FlowStep) -> bool {
    matches!(
        s,
        FlowStep::Save {} | FlowStep::Rollback {} | FlowStep::RollbackGrid {}
    )
}

/// `r` with a snapshot after its first `at` steps: `P, save, S, rollback, S` where `S` is the
/// rest; returns the request and the index of the first step of each copy of `S`.
pub fn with_rollback(r: &FlowRequest, at: usize) -> (FlowRequest, usize, usize) {
    let (p, rest) = r.script.split_at(at.min(r.script.len()));
    let keep = |v: &[FlowStep]| -> Vec<FlowStep> {
        v.iter().filter(|s| !snapshot_step(s)).cloned().collect()
    };
    let (p, rest) = (keep(p), keep(rest));
    let mut script = p;
    script.push(FlowStep::Save {});
    let first = script.len();
    script.extend(rest.iter().cloned());
    script.push(FlowStep::Rollback {});
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

/// The first step whose field hash differs, localised: both implementations run the script cut
/// after that step, and the first differing cell of the two final fields is named.
pub fn localise(
    reference: &dyn Implementation,
    imp: &dyn Implementation,
    name: &str,
    r: &FlowRequest,
    want: &FlowReply,
    got: &FlowReply,
) -> Option<String> {
    let (FlowReply::Ran { steps: a, .. }, FlowReply::Ran { steps: b, .. }) = (want, got) else {
        return None;
    };
    let k = a
        .iter()
        .zip(b)
        .position(|(x, y)| x.field_sha256 != y.field_sha256)?;
    let mut cut = r.clone();
    cut.script.truncate(k + 1);
    let (
        Ok(FlowReply::Ran {
            costs: ca,
            next: na,
            ..
        }),
        Ok(FlowReply::Ran {
            costs: cb,
            next: nb,
            ..
        }),
    ) = (
        reference.run_flow_as(name, &cut),
        imp.run_flow_as(&format!("{name}/cut{k}"), &cut),
    )
    else {
        return None;
    };
    field_difference(&ca, &na, &cb, &nb).map(|d| format!("after step {k}: {d}"))
}

/// One generated case on every implementation.
fn run_case(all: &[&dyn Implementation], name: &str, r: &FlowRequest, s: &mut Section) {
    let reference = all[0];
    // The candidates run beside the reference and its oracle check ([`super::beside`]).
    let (checked, replies) = super::beside(
        || {
            reference
                .run_flow_as(name, r)
                .map(|want| (oracle::check(r, &want), want))
        },
        &all[1..],
        |imp| imp.run_flow_as(name, r),
    );
    let Ok((problem, want)) = checked else {
        s.fail(failure(
            name,
            reference.name(),
            "run_flow",
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
                "run_flow",
                "a reply",
                e.to_string(),
            )),
            Ok(got) => first_difference(&want, &got).map(|d| {
                let cell = localise(reference, *imp, name, r, &want, &got)
                    .map(|c| format!("; {c}"))
                    .unwrap_or_default();
                failure(
                    name,
                    imp.name(),
                    "flow reply",
                    "the reference's reply",
                    format!("{d}{cell}"),
                )
            }),
        });
    }
    if r.script.len() > 1_000 {
        return;
    }
    // Sliced = unsliced ([FLOW.RUN.LOOP]): a run finished by budgeted steps is the same run.
    let budget = 1 + (r.script.len() as u64 % 5);
    for imp in all {
        let name_b = format!("{name}/budget{budget}");
        let got = imp.run_flow_as(&name_b, &sliced(r, budget));
        let whole = if imp.name() == reference.name() {
            Ok(want.clone())
        } else {
            imp.run_flow_as(name, r)
        };
        s.record(match (whole, got) {
            (Ok(a), Ok(b)) => first_difference(&a, &b)
                .map(|d| failure(&name_b, imp.name(), "sliced steps", "the unsliced reply", d)),
            (a, b) => Some(failure(
                &name_b,
                imp.name(),
                "sliced steps",
                "two replies",
                format!(
                    "{} vs {}",
                    crate::words::outcome(&a),
                    crate::words::outcome(&b)
                ),
            )),
        });
    }
    // Rollback = the run that never left ([FLOW.STATE.RESTORE], [FLOW.STATE.ORDER]).
    let at = r.script.len() / 3;
    let (rb, first, second) = with_rollback(r, at);
    let name_r = format!("{name}/rollback{at}");
    for imp in all {
        s.record(match imp.run_flow_as(&name_r, &rb) {
            Ok(FlowReply::Ran { steps, .. }) => {
                let n = second - first - 1;
                let rolled = &steps[second - 1];
                if rolled.error.is_some() {
                    Some(failure(
                        &name_r,
                        imp.name(),
                        "rollback",
                        "grid and field restored",
                        format!("{:?}", rolled.error),
                    ))
                } else {
                    (0..n)
                        .find(|&k| steps[first + k] != steps[second + k])
                        .map(|k| {
                            failure(
                                &name_r,
                                imp.name(),
                                "rollback",
                                "the steps of the run that never left",
                                format!(
                                    "step {} after the rollback differs from step {}: {:?} vs {:?}",
                                    second + k,
                                    first + k,
                                    steps[second + k],
                                    steps[first + k]
                                ),
                            )
                        })
                }
            }
            Ok(FlowReply::Failed(c)) => (want != FlowReply::Failed(c.clone()))
                .then(|| failure(&name_r, imp.name(), "rollback", "a run", c)),
            Err(e) => Some(failure(
                &name_r,
                imp.name(),
                "run_flow",
                "a reply",
                e.to_string(),
            )),
        });
    }
}

/// The `flow-field` section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let mut sections = parallel_cases(config, config.flow_cases, &["flow-field"], |i, sections| {
        let r = case_request(config, i);
        run_case(all, &case_name(i), &r, &mut sections[0]);
        if let Some(p) = progress {
            p.inc(1);
        }
    });
    sections.pop().expect("one section")
}
