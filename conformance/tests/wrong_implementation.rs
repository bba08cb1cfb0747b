//! Deliberately wrong implementations (adapter wrappers) are caught by the differential and
//! vectors checks with the right first differing field.

use onepath_conformance::checks::{default_threads, generated, Config};
use onepath_conformance::implementation::{LinkRequest, LinkResult, OplmError};
use onepath_conformance::vectors::certify_section;
use onepath_conformance::{Case, Implementation, OptimizedCrate, Outcome, ReferenceCrate, RunOptions, Variant};

/// How the wrapper corrupts results.
#[derive(Clone, Copy)]
enum Fault {
    /// Swap recorded expansions 3 and 4 (when they differ).
    SwapExpansions,
    /// Add one ulp to every finite cost.
    PerturbCost,
}

struct Wrong(Fault);

impl Wrong {
    fn corrupt(&self, o: &mut Outcome) {
        if let Outcome::Path(p) = o {
            match self.0 {
                Fault::SwapExpansions => {
                    if p.expanded.len() > 4 && p.expanded[3] != p.expanded[4] {
                        p.expanded.swap(3, 4);
                    }
                }
                Fault::PerturbCost => {
                    if p.cost.is_finite() {
                        p.cost = f64::from_bits(p.cost.to_bits() + 1);
                    }
                }
            }
        }
    }
}

impl Implementation for Wrong {
    fn name(&self) -> &str {
        "wrong"
    }
    fn run_case(&self, case: &Case, variants: &[Variant], queries: &[(u32, u32)], opts: RunOptions) -> Vec<Vec<Outcome>> {
        let mut r = OptimizedCrate.run_case(case, variants, queries, opts);
        r.iter_mut().flatten().for_each(|o| self.corrupt(o));
        r
    }
    fn run_sliced(&self, case: &Case, variant: Variant, query: (u32, u32), budgets: &[u64]) -> Outcome {
        OptimizedCrate.run_sliced(case, variant, query, budgets)
    }
    fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, String> {
        OptimizedCrate.build_links(request)
    }
    fn build_landmarks(&self, case: &Case) -> Result<Vec<u8>, String> {
        OptimizedCrate.build_landmarks(case)
    }
    fn lower_bounds(&self, case: &Case, pairs: &[(u32, u32)]) -> Result<Vec<f64>, String> {
        OptimizedCrate.lower_bounds(case, pairs)
    }
    fn deserialize_oplm(&self, case: &Case, bytes: &[u8]) -> Result<Vec<u8>, OplmError> {
        OptimizedCrate.deserialize_oplm(case, bytes)
    }
}

fn small() -> Config {
    Config { oracle_graphs: 60, landmark_graphs: 0, sliced_graphs: 0, link_sets: 0, vectors_dir: None, threads: default_threads(), ..Config::ci(11) }
}

#[test]
fn swapped_expansions_are_reported_at_the_first_differing_step() {
    let wrong = Wrong(Fault::SwapExpansions);
    let sections = generated::run(&ReferenceCrate, &[&wrong], &small(), None);
    let diff = &sections[1];
    assert_eq!(diff.name, "differential");
    assert!(diff.failed > 0);
    for f in &diff.failures {
        assert_eq!(f.implementation, "wrong");
        assert_eq!(f.what, "expansion step 3");
        assert_eq!(f.step, Some(3));
        assert_ne!(f.expected, f.found);
        assert!(f.expected.starts_with("node ") && f.found.starts_with("node "));
        assert!(f.case.is_some() && f.variant.is_some() && f.query.is_some());
    }
    // The reference and optimized crates themselves agree on the same cases.
    let clean = generated::run(&ReferenceCrate, &[&OptimizedCrate], &small(), None);
    assert_eq!(clean[1].failed, 0, "{:?}", clean[1].failures.first());
}

#[test]
fn perturbed_costs_are_reported_as_cost_bits() {
    let wrong = Wrong(Fault::PerturbCost);
    let sections = generated::run(&ReferenceCrate, &[&wrong], &small(), None);
    let diff = &sections[1];
    assert!(diff.failed > 0);
    assert!(diff.failures.iter().all(|f| f.what == "cost bits"), "{:?}", diff.failures.first());
}

#[test]
fn vectors_section_names_the_vector() {
    let wrong = Wrong(Fault::SwapExpansions);
    let s = certify_section(&onepath_conformance::checks::default_vectors_dir(), &[&wrong]);
    let f = s.failures.first().expect("a failure");
    assert!(f.vector.as_deref().unwrap().starts_with("GRAPH-"));
    assert_eq!(f.what, "expansion step 3");
    let line = f.line();
    assert!(line.contains("/ wrong / ") && line.contains("query"), "{line}");
}
