//! The judge `cargo mutants` runs for every mutant (`.cargo/mutants.toml`, `MUTANTS.md`): the
//! committed golden vectors, regenerated through each crate, must come out byte for byte as
//! committed ([CONF.VEC.SOURCE], [CONF.MUTANTS.JUDGE]). A mutant that changes any expected value, error class, byte
//! offset or state byte of any vector of any family is caught here; a mutant that survives is a
//! behaviour no vector pins, so no port is pinned on it either.
//!
//! It is also an ordinary test: both crates regenerate the committed vectors exactly.

use onepath_conformance::checks::default_vectors_dir;
use onepath_conformance::family::check_dir;
use onepath_conformance::{Implementation, OptimizedCrate, ReferenceCrate};

fn judge(imp: &dyn Implementation) {
    let problems = check_dir(&default_vectors_dir(), imp);
    assert!(
        problems.is_empty(),
        "{} does not regenerate the committed vectors:\n{}",
        imp.name(),
        problems.join("\n")
    );
}

// pins [CONF.MUTANTS.JUDGE]: this test is the judge: a crate (mutant) whose regenerated vectors
// differ in any byte from the committed ones fails check_dir's empty-problems assertion
#[test]
fn reference_regenerates_the_committed_vectors() {
    judge(&ReferenceCrate);
}

#[test]
fn optimized_regenerates_the_committed_vectors() {
    judge(&OptimizedCrate);
}
