//! The `describe` certify section ([CONF.CHECK.DESCRIBE]): every describe target of the
//! committed vectors and the generated requests, on every implementation: the reference's
//! reply against each candidate's ([CONF.DEBUG.COMPARE]), and every reply against the kit's own
//! reading and the same implementation's family op ([CONF.DEBUG.CONSISTENT]).

use super::parallel_cases;
use crate::config::Config;
use crate::debug::compare::{first_difference, render};
use crate::debug::consistent::{against_results, own_reading};
use crate::debug::DescribeReply;
use crate::debug::Target;
use crate::implementation::Implementation;
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// The section's name.
pub const SECTION: &str = "describe";

fn failure(t: &Target, imp: &str, what: String, expected: String, found: String) -> Failure {
    let vector = t.label.contains('-') && !t.label.contains('#');
    Failure {
        vector: vector.then(|| t.label.clone()),
        case: (!vector).then(|| t.label.clone()),
        implementation: imp.to_string(),
        what,
        expected,
        found,
        ..Default::default()
    }
}

/// [CONF.DEBUG.CONSISTENT] Checks one reply of `imp` against the kit's reading and its own
/// family op; one check.
fn consistency(imp: &dyn Implementation, t: &Target, reply: &DescribeReply, s: &mut Section) {
    let mut problems = own_reading(&t.request, reply);
    match against_results(imp, &t.label, &t.request, reply) {
        Ok(p) => problems.extend(p),
        Err(e) => problems.push(format!("the family op got no answer: {e}")),
    }
    match problems.into_iter().next() {
        None => s.pass(),
        Some(p) => s.fail(failure(
            t,
            imp.name(),
            format!("{} description consistent (L2): {p}", t.request.target()),
            "consistent".into(),
            "inconsistent".into(),
        )),
    }
}

/// Runs the section on `targets` (the vector and generated targets of
/// [CONF.CHECK.DESCRIBE], built by the caller; `setup` holds the failures of building them).
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    targets: &[Target],
    setup: Section,
    progress: Option<&ProgressBar>,
) -> Section {
    let (reference, candidates) = all.split_first().expect("the reference comes first");
    let mut sections = parallel_cases(config, targets.len(), &[SECTION], |i, sections| {
        let t = &targets[i];
        let s = &mut sections[0];
        let expected = match reference.describe_as(&t.label, &t.request) {
            Ok(r) => r,
            Err(e) => {
                s.fail(failure(
                    t,
                    reference.name(),
                    "describe".into(),
                    "a reply".into(),
                    e.to_string(),
                ));
                return;
            }
        };
        consistency(*reference, t, &expected, s);
        for imp in candidates {
            match imp.describe_as(&t.label, &t.request) {
                Err(e) => s.fail(failure(
                    t,
                    imp.name(),
                    format!("{} describe", t.request.target()),
                    "a reply".into(),
                    e.to_string(),
                )),
                Ok(found) => {
                    match first_difference(&expected, &found) {
                        None => s.pass(),
                        Some(d) => s.fail(failure(
                            t,
                            imp.name(),
                            format!(
                                "{} describe (L{}): {}",
                                t.request.target(),
                                d.level,
                                render(&t.request, &d)
                            ),
                            d.expected,
                            d.found,
                        )),
                    }
                    consistency(*imp, t, &found, s);
                }
            }
        }
        if let Some(p) = progress {
            p.inc(1);
        }
    });
    let mut section = setup;
    section.merge(sections.remove(0));
    section
}
