//! The `hpa` certify section ([CONF.CHECK.HPA]): seeded requests on every implementation against
//! the reference crate (first differing query, field or edge) and the oracle; each request run
//! again with every query sliced on one refreshed hierarchy against its tier-1 replies; and the
//! refreshed hierarchy against one built new on the same cells.

use super::parallel_cases;
use crate::config::Config;
use crate::hpa::cases::{last_refresh, rebuilt, request, sliced};
use crate::hpa::{
    first_difference, hierarchy_difference, oracle, HpaPathReply, HpaQueryReply, HpaReply,
    HpaRequest, FAMILY,
};
use crate::implementation::Implementation;
use crate::prng::{derive_seed, SplitMix64};
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// The name of generated case `i` (requests and failures carry it).
pub fn case_name(i: usize) -> String {
    format!("hpa#{i}")
}

/// The generated request of case `i`.
pub fn case_request(config: &Config, i: usize) -> HpaRequest {
    request(derive_seed(config.seed, 0x4BA0), i as u64)
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

/// [CONF.CHECK.HPA] The first query whose sliced reply differs from its tier-1 reply in status,
/// cost, cells, expansions or counters (`whole` holds the tier-1 replies, `parts` the sliced).
pub fn sliced_difference(whole: &HpaReply, parts: &HpaReply) -> Option<String> {
    let (HpaReply::Ran(a), HpaReply::Ran(b)) = (whole, parts) else {
        return (whole != parts).then(|| format!("{parts:?}, expected {whole:?}"));
    };
    if a.queries.len() != b.queries.len() {
        return Some(format!(
            "{} query replies, expected {}",
            b.queries.len(),
            a.queries.len()
        ));
    }
    for (i, (x, y)) in a.queries.iter().zip(&b.queries).enumerate() {
        let same = match (x, y) {
            (HpaQueryReply::Path(p), HpaQueryReply::Path(s)) => same_run(p, s),
            (x, y) => x == y,
        };
        if !same {
            return Some(format!("query {i}: sliced {y:?}, tier 1 {x:?}"));
        }
    }
    None
}

fn same_run(tier1: &HpaPathReply, sliced: &HpaPathReply) -> bool {
    tier1.status == sliced.status
        && tier1.cost == sliced.cost
        && tier1.cells == sliced.cells
        && tier1.expanded == sliced.expanded
        && tier1.iterations == sliced.iterations
        && tier1.expanded_count == sliced.expanded_count
}

/// Runs `r` on `imp` and records a failure unless `judge` finds nothing.
fn self_check(
    imp: &dyn Implementation,
    name: &str,
    r: &HpaRequest,
    what: &str,
    expected: &str,
    judge: impl Fn(&HpaReply) -> Option<String>,
    s: &mut Section,
) {
    s.record(match imp.run_hpa_as(name, r) {
        Ok(got) => judge(&got).map(|d| failure(name, imp.name(), what.into(), expected, d)),
        Err(e) => Some(failure(
            name,
            imp.name(),
            "run_hpa".into(),
            "a reply",
            e.to_string(),
        )),
    });
}

/// One generated case on every implementation.
fn run_case(
    all: &[&dyn Implementation],
    name: &str,
    r: &HpaRequest,
    slice_seed: u64,
    s: &mut Section,
) {
    let reference = all[0];
    let (checked, replies) = super::beside(
        || {
            reference
                .run_hpa_as(name, r)
                .map(|want| (oracle::check(r, &want), want))
        },
        &all[1..],
        |imp| imp.run_hpa_as(name, r),
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
                "run_hpa".into(),
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
                "run_hpa".into(),
                "a reply",
                e.to_string(),
            )),
            Ok(got) => first_difference(&want, &got).map(|d| Failure {
                query: d.query,
                ..failure(name, imp.name(), d.what, &d.expected, d.found)
            }),
        });
    }
    let mut rng = SplitMix64::new(slice_seed);
    let parts = sliced(r, &mut rng);
    let tier1: Vec<usize> = (0..r.queries.len())
        .filter(|&i| r.queries[i].schedule.is_empty() && r.queries[i].cancel.is_none())
        .collect();
    for (imp, first) in all.iter().zip(firsts) {
        let Some(first) = first else { continue };
        // Sliced = tier 1, on one hierarchy refreshed before every query ([HPA.REFRESH.EQUAL]).
        if r.options.budget == 0 {
            let name_s = format!("{name}/sliced");
            self_check(
                *imp,
                &name_s,
                &parts,
                "sliced queries",
                "the tier-1 replies",
                |got| {
                    let (HpaReply::Ran(w), HpaReply::Ran(g)) = (&first, got) else {
                        return sliced_difference(&first, got);
                    };
                    let pick = |q: &[HpaQueryReply]| -> Vec<HpaQueryReply> {
                        tier1.iter().filter_map(|&i| q.get(i).cloned()).collect()
                    };
                    let only = |q: &[HpaQueryReply], h| {
                        HpaReply::Ran(crate::hpa::HpaRan {
                            queries: pick(q),
                            hierarchy: h,
                        })
                    };
                    sliced_difference(&only(&w.queries, None), &only(&g.queries, None))
                },
                s,
            );
        }
        // A refreshed hierarchy = a new one on the same cells ([HPA.REFRESH.EQUAL]).
        let Some(last) = last_refresh(r, &first) else {
            continue;
        };
        let Some(fresh) = rebuilt(r, last) else {
            continue;
        };
        let HpaReply::Ran(ran) = &first else { continue };
        self_check(
            *imp,
            &format!("{name}/rebuilt"),
            &fresh,
            "the refreshed hierarchy",
            "the hierarchy built new on the same cells",
            |got| match got {
                HpaReply::Ran(g) => {
                    hierarchy_difference(&g.hierarchy, &ran.hierarchy).map(|d| d.to_string())
                }
                other => Some(format!("{other:?}")),
            },
            s,
        );
    }
}

/// The `hpa` section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let mut sections = parallel_cases(config, config.grid_cases, &[FAMILY], |i, sections| {
        let r = case_request(config, i);
        let slice_seed = derive_seed(config.seed, 0x4BA1_0000 + i as u64);
        run_case(all, &case_name(i), &r, slice_seed, &mut sections[0]);
        if let Some(p) = progress {
            p.inc(1);
        }
    });
    sections.pop().expect("one section")
}
