//! The `grid-bidi` certify section ([CONF.CHECK.BIDI]): seeded requests on every implementation
//! against the reference crate (first differing query, field or meeting) and the oracle; each
//! tier-1 query run again in slices against its tier-1 reply.

use super::parallel_cases;
use crate::bidi::cases::request;
use crate::bidi::{first_difference, oracle, BidiReply, BidiRequest, FAMILY};
use crate::checks::lattice::sliced_difference;
use crate::config::Config;
use crate::implementation::Implementation;
use crate::lattice::LatticeReply;
use crate::prng::{derive_seed, SplitMix64};
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// The name of generated case `i`.
pub fn case_name(i: usize) -> String {
    format!("bidi#{i}")
}

/// The generated request of case `i`.
pub fn case_request(config: &Config, i: usize) -> BidiRequest {
    request(derive_seed(config.seed, 0xB1D1), i as u64)
}

fn failure(case: &str, imp: &str, what: String, expected: &str, found: String) -> Failure {
    Failure {
        case: Some(case.to_string()),
        implementation: imp.to_string(),
        what,
        expected: expected.to_string(),
        found,
        ..Default::default()
    }
}

/// [CONF.CHECK.BIDI] The sliced form of the tier-1 queries of `r` (one to three budgets of 1-5)
/// and their indexes.
pub fn sliced(r: &BidiRequest, rng: &mut SplitMix64) -> (BidiRequest, Vec<usize>) {
    let tier1: Vec<usize> = (0..r.queries.len())
        .filter(|&i| r.queries[i].schedule.is_empty())
        .collect();
    let mut out = r.clone();
    out.queries = tier1.iter().map(|&i| r.queries[i].clone()).collect();
    for q in &mut out.queries {
        q.schedule = (0..rng.range(1, 4)).map(|_| rng.range(1, 6)).collect();
    }
    (out, tier1)
}

/// The sliced difference of an implementation's own tier-1 replies (`first`, at `tier1`) and its
/// replies to the sliced request.
pub fn sliced_check(first: &BidiReply, tier1: &[usize], parts: &BidiReply) -> Option<String> {
    let whole = match first.lattice() {
        LatticeReply::Ran(q) => {
            LatticeReply::Ran(tier1.iter().filter_map(|&i| q.get(i).cloned()).collect())
        }
        failed => failed,
    };
    sliced_difference(&whole, &parts.lattice())
}

fn run_case(all: &[&dyn Implementation], name: &str, r: &BidiRequest, seed: u64, s: &mut Section) {
    let reference = all[0];
    let (checked, replies) = super::beside(
        || {
            reference
                .run_bidi_as(name, r)
                .map(|want| (oracle::check(r, &want), want))
        },
        &all[1..],
        |imp| imp.run_bidi_as(name, r),
    );
    let want = match checked {
        Ok((problem, want)) => {
            s.record(
                problem.map(|p| failure(name, reference.name(), "oracle".into(), "no problem", p)),
            );
            want
        }
        Err(e) => {
            s.fail(failure(
                name,
                reference.name(),
                "run_bidi".into(),
                "a reply",
                e.to_string(),
            ));
            return;
        }
    };
    let mut firsts = vec![Some(want.clone())];
    for (imp, reply) in all[1..].iter().zip(replies) {
        firsts.push(reply.as_ref().ok().cloned());
        s.record(match reply {
            Err(e) => Some(failure(
                name,
                imp.name(),
                "run_bidi".into(),
                "a reply",
                e.to_string(),
            )),
            Ok(got) => first_difference(&want, &got).map(|d| Failure {
                query: d.query,
                ..failure(name, imp.name(), d.what, &d.expected, d.found)
            }),
        });
    }
    if r.options.budget != 0 {
        return;
    }
    let (parts, tier1) = sliced(r, &mut SplitMix64::new(seed));
    let name_s = format!("{name}/sliced");
    for (imp, first) in all.iter().zip(firsts) {
        let Some(first) = first else { continue };
        s.record(match imp.run_bidi_as(&name_s, &parts) {
            Ok(got) => sliced_check(&first, &tier1, &got).map(|d| {
                failure(
                    &name_s,
                    imp.name(),
                    "sliced queries".into(),
                    "the tier-1 replies",
                    d,
                )
            }),
            Err(e) => Some(failure(
                &name_s,
                imp.name(),
                "run_bidi".into(),
                "a reply",
                e.to_string(),
            )),
        });
    }
}

/// The `grid-bidi` section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let mut sections = parallel_cases(config, config.grid_cases, &[FAMILY], |i, sections| {
        let r = case_request(config, i);
        let seed = derive_seed(config.seed, 0xB1D1_0000 + i as u64);
        run_case(all, &case_name(i), &r, seed, &mut sections[0]);
        if let Some(p) = progress {
            p.inc(1);
        }
    });
    sections.pop().expect("one section")
}
