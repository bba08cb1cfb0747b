//! The clause report ([CONF.CLAUSES]): which code, vectors and mutation-testing evidence stand
//! behind each clause of `spec/`, and the check that every behavioural clause is cited by code
//! and pinned by a committed vector or a named check; and the clause index and its diff
//! ([CONF.CLAUSES.INDEX], [CONF.CLAUSES.DIFF]).

pub mod checks;
pub mod citations;
pub mod cli;
pub mod diff;
pub mod error;
pub mod index;
pub mod mutants;
pub mod report;
pub mod spec_index;
pub mod tree;

pub use error::{ClauseError, ClauseErrorClass};
pub use mutants::{import, MutantsSummary};
pub use report::{ClauseProblem, ClauseReport};

use std::collections::BTreeSet;
use std::path::Path;

/// The folder of committed mutants summaries ([CONF.MUTANTS.SUMMARY]), relative to the checkout.
pub const MUTANTS_DIR: &str = "mutants";

/// The report of the checkout at `root`: its spec, code, committed vectors and the committed
/// mutants summaries under [`MUTANTS_DIR`].
pub fn report(root: &Path) -> Result<ClauseReport, ClauseError> {
    let clauses = spec_index::read_spec(root)?;
    let citations = citations::read_citations(root)?;
    let named_checks = checks::read_named_checks(root)?;
    let vectors_dir = root.join("vectors");
    let vector_files: BTreeSet<String> = tree::walk(&vectors_dir, &["json"])?
        .iter()
        .map(|p| tree::relative(&vectors_dir, p))
        .collect();
    let mut summaries = Vec::new();
    for path in tree::walk(&root.join(MUTANTS_DIR), &["json"])? {
        summaries.push(MutantsSummary::read(&path)?);
    }
    Ok(ClauseReport::build(
        &clauses,
        &citations,
        &named_checks,
        &vector_files,
        &summaries,
    ))
}
