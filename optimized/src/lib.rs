//! `onepath`: the optimized implementation of the onepath-rs graph family (spec/graphs.md).
//!
//! Every public item cites the clause ids of `spec/graphs.md` it implements. Results (statuses,
//! costs bit for bit, paths, expansion orders, counters, errors, OPLM bytes) are those of the spec.
#![deny(missing_docs)]
#![deny(unsafe_code)]

mod astar;
mod bidi;
mod csr;
mod error;
mod grid;
mod heap;
mod landmarks;
mod mutable;
mod oplm;
mod points;
mod rng;
mod tier1;
mod values;

pub use astar::{
    AltGraphHeuristic, DefaultGraphCost, EuclideanGraphHeuristic, GraphAStar, GraphCost,
    GraphHeuristic, SearchStatus, ZeroGraphHeuristic,
};
pub use bidi::BidirectionalGraphSearch;
pub use csr::CsrGraph;
pub use error::{BuildError, GraphStateError, QueryError};
pub use landmarks::{LandmarkOptions, LandmarkStrategy, Landmarks};
pub use mutable::Graph;
pub use points::{LinkOptions, LinkValidFn, PointGraph};
pub use rng::SeededRandom;
pub use tier1::{
    Algorithm, BlockedFn, EdgeCostFn, GraphOptions, GraphPath, HeuristicFn, PathStatus,
};
pub use values::{distance, squared_distance, GraphEdge, Point3};

/// [GRAPH.CSR.LIMIT] [GRAPH.MUT.NODES] The largest node count a graph may have (`2^26`).
pub const MAX_NODES: usize = 1 << 26;
