//! The implementation-under-test interface ([CONF.IMPL.*]). Everything that crosses it is plain
//! data (scenario structs, outcomes, bytes, error class strings), so an out-of-process port
//! driven over a pipe can implement it as well as the two in-process crates.

use crate::outcome::Outcome;
use crate::scenario::{Case, Query, Variant};

/// Per-query options of a tier-1 run ([CONF.VAR.TIER1]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunOptions {
    /// `iteration_budget` (0 = unlimited).
    pub iteration_budget: u64,
    /// `record_expansions`.
    pub record_expansions: bool,
}

impl RunOptions {
    /// The options of every matrix cell: no budget, recording on.
    pub const MATRIX: RunOptions = RunOptions { iteration_budget: 0, record_expansions: true };
}

/// A deterministic `link_valid` rule, as data so it can cross a process boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkRule {
    /// Rejects the pair `(a, b)` when `(a + b) % m == 0`.
    RejectIndexSumMultipleOf(u32),
}

impl LinkRule {
    /// Whether the rule accepts the pair.
    pub fn accepts(self, a: u32, b: u32) -> bool {
        match self {
            LinkRule::RejectIndexSumMultipleOf(m) => (a as u64 + b as u64) % m as u64 != 0,
        }
    }
}

/// A point-graph link build request ([GRAPH.PT.*]).
#[derive(Clone, Debug, PartialEq)]
pub struct LinkRequest {
    /// The points.
    pub points: Vec<[f64; 3]>,
    /// Explicit links.
    pub explicit: Vec<[u32; 2]>,
    /// Link radius (0 = off).
    pub max_distance: f64,
    /// Nearest count (0 = off).
    pub nearest_count: u32,
    /// `link_valid`, or none (accept everything).
    pub rule: Option<LinkRule>,
}

/// The result of a link build.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkResult {
    /// The CSR edge list in slot order: `(from, to, weight)`.
    pub edges: Vec<(u32, u32, f64)>,
    /// Every `link_valid(a, b)` call, in call order.
    pub calls: Vec<(u32, u32)>,
}

/// A typed OPLM rejection: class and byte offset ([GRAPH.OPLM.CHECKS]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OplmError {
    /// Error class.
    pub class: String,
    /// Byte offset.
    pub offset: usize,
}

/// An implementation under test.
pub trait Implementation: Sync {
    /// A short name for reports (`onepath-reference`, `onepath`, a port's name).
    fn name(&self) -> &str;

    /// Builds the case's graph (and, for alt variants, its landmark table) and runs every query
    /// with every listed variant through tier-1 `find_path`. Returns one list of outcomes per
    /// variant, in the order given, each with one outcome per query. A graph or landmark build
    /// failure is reported as an error outcome for each affected query.
    fn run_case(&self, case: &Case, variants: &[Variant], queries: &[Query], opts: RunOptions) -> Vec<Vec<Outcome>>;

    /// One query of one variant (a convenience over [`Implementation::run_case`]).
    fn run_query(&self, case: &Case, variant: Variant, query: Query, opts: RunOptions) -> Outcome {
        self.run_case(case, &[variant], &[query], opts).remove(0).remove(0)
    }

    /// Runs one query on the tier-2 search of the variant (`GraphAStar` or
    /// `BidirectionalGraphSearch`, with recording on) and reports its final state. With
    /// `budgets` empty it calls `run(None)` once; otherwise it calls `step(budgets[i % len])`
    /// for `i = 0, 1, ...` until the status is no longer `Running`. Budgets are never 0.
    fn run_sliced(&self, case: &Case, variant: Variant, query: Query, budgets: &[u64]) -> Outcome;

    /// Builds a point graph with the given options and reports its CSR edges and `link_valid` calls.
    fn build_links(&self, request: &LinkRequest) -> Result<LinkResult, String>;

    /// Builds the case's landmark table and returns its OPLM bytes ([GRAPH.OPLM.LAYOUT]).
    fn build_landmarks(&self, case: &Case) -> Result<Vec<u8>, String>;

    /// `lower_bound(u, v)` of the case's landmark table for each pair.
    fn lower_bounds(&self, case: &Case, pairs: &[(u32, u32)]) -> Result<Vec<f64>, String>;

    /// Deserializes OPLM bytes against the case's graph and, when accepted, serializes again.
    fn deserialize_oplm(&self, case: &Case, bytes: &[u8]) -> Result<Vec<u8>, OplmError>;
}
