//! Reference implementation of the graph family of the onepath-rs spec (spec/graphs.md).
//!
//! Every module transcribes one chapter of `spec/graphs.md` clause by clause; every public item's
//! doc comment starts with the clause ids it implements. The crate favours obvious correctness
//! over speed: std only, no `unsafe`, no hash containers in results.
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// IEEE comparisons are written as the spec writes them ([SPEC.NUM.COMPARE]): `!(a < b)` is
// deliberate, and index loops mirror the clauses.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

mod astar;
mod bidirectional;
mod csr;
mod error;
mod graph;
mod landmarks;
mod open_set;
mod options;
mod points;
mod random;

pub use astar::{
    DefaultGraphCost, GraphAStar, GraphCost, GraphHeuristic, SearchStatus, ZeroGraphHeuristic,
};
pub use bidirectional::BidirectionalGraphSearch;
pub use csr::{CsrGraph, GraphEdge, MAX_NODES};
pub use error::{BuildError, GraphStateError, QueryError};
pub use graph::Graph;
pub use landmarks::{AltGraphHeuristic, LandmarkOptions, LandmarkStrategy, Landmarks};
pub use options::{
    Algorithm, BlockedFn, EdgeCostFn, GraphOptions, GraphPath, HeuristicFn, PathStatus,
};
pub use points::{
    distance, squared_distance, EuclideanGraphHeuristic, LinkOptions, LinkValidFn, Point3,
    PointGraph,
};
pub use random::SeededRandom;
