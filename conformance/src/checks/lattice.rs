//! The `hex-search` and `voxel-search` certify sections ([CONF.CHECK.LATTICE]): seeded requests
//! on every implementation against the reference crate (first differing query and field) and
//! the oracle; each tier-1 query run again in slices against its tier-1 reply.

use super::parallel_cases;
use crate::config::Config;
use crate::implementation::Implementation;
use crate::lattice::cases::{request, sliced};
use crate::lattice::{
    first_difference, oracle, LatticeReply, LatticeRequest, PathReply, QueryReply, Shape,
};
use crate::prng::{derive_seed, SplitMix64};
use crate::report::{Failure, Section};
use indicatif::ProgressBar;

/// The name of generated case `i` of a shape (requests and failures carry it).
pub fn case_name(shape: Shape, i: usize) -> String {
    match shape {
        Shape::Hex => format!("hex#{i}"),
        Shape::Voxel => format!("voxel#{i}"),
    }
}

/// The generated request of case `i` of a shape.
pub fn case_request(shape: Shape, config: &Config, i: usize) -> LatticeRequest {
    let base = derive_seed(config.seed, 0x1A77);
    request(shape, base, i as u64)
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

/// [CONF.CHECK.LATTICE] The first query whose sliced reply differs from its tier-1 reply in
/// cost, cells, expansions or counters, or in a final status.
pub fn sliced_difference(whole: &LatticeReply, parts: &LatticeReply) -> Option<String> {
    let (LatticeReply::Ran(a), LatticeReply::Ran(b)) = (whole, parts) else {
        return (whole != parts).then(|| format!("{parts:?}, expected {whole:?}"));
    };
    if a.len() != b.len() {
        return Some(format!("{} query replies, expected {}", b.len(), a.len()));
    }
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        let same = match (x, y) {
            (QueryReply::Path(p), QueryReply::Path(s)) => same_run(p, s),
            (x, y) => x == y,
        };
        if !same {
            return Some(format!("query {i}: sliced {y:?}, tier 1 {x:?}"));
        }
    }
    None
}

fn same_run(tier1: &PathReply, sliced: &PathReply) -> bool {
    tier1.status == sliced.status
        && tier1.cost == sliced.cost
        && tier1.cells == sliced.cells
        && tier1.expanded == sliced.expanded
        && tier1.iterations == sliced.iterations
        && tier1.expanded_count == sliced.expanded_count
}

/// One generated case on every implementation.
fn run_case(
    all: &[&dyn Implementation],
    name: &str,
    r: &LatticeRequest,
    slice_seed: u64,
    s: &mut Section,
) {
    let reference = all[0];
    let (checked, replies) = super::beside(
        || {
            reference
                .run_lattice_as(name, r)
                .map(|want| (oracle::check(r, &want), want))
        },
        &all[1..],
        |imp| imp.run_lattice_as(name, r),
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
                "run_lattice".into(),
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
                "run_lattice".into(),
                "a reply",
                e.to_string(),
            )),
            Ok(got) => first_difference(&want, &got).map(|d| Failure {
                query: d.query,
                ..failure(name, imp.name(), d.what, &d.expected, d.found)
            }),
        });
    }
    if r.budget() != 0 {
        return;
    }
    // Sliced = tier 1 ([GRAPH.ASTAR.STEP]): the tier-1 queries, run again in slices.
    let tier1: Vec<usize> = (0..r.queries().len())
        .filter(|&i| r.queries()[i].schedule.is_empty())
        .collect();
    let mut rng = SplitMix64::new(slice_seed);
    let mut only = r.clone();
    only.queries_mut().retain(|q| q.schedule.is_empty());
    let parts = sliced(&only, &mut rng);
    let name_s = format!("{name}/sliced");
    for (imp, first) in all.iter().zip(firsts) {
        // The implementation's own tier-1 replies: sliced = unsliced within one implementation.
        let whole = match first {
            Some(LatticeReply::Ran(q)) => {
                LatticeReply::Ran(tier1.iter().filter_map(|&i| q.get(i).cloned()).collect())
            }
            Some(failed) => failed,
            None => continue,
        };
        let got = imp.run_lattice_as(&name_s, &parts);
        s.record(match got {
            Ok(b) => sliced_difference(&whole, &b).map(|d| {
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
                "run_lattice".into(),
                "a reply",
                e.to_string(),
            )),
        });
    }
}

/// The section of a shape (`hex-search` or `voxel-search`).
pub fn run(
    shape: Shape,
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let mut sections = parallel_cases(
        config,
        config.grid_cases,
        &[shape.family()],
        |i, sections| {
            let r = case_request(shape, config, i);
            let slice_seed = derive_seed(config.seed, 0x511C_0000 + i as u64);
            run_case(all, &case_name(shape, i), &r, slice_seed, &mut sections[0]);
            if let Some(p) = progress {
                p.inc(1);
            }
        },
    );
    sections.pop().expect("one section")
}
