//! Reference implementation of the onepath-rs spec: graphs (spec/graphs.md), grids
//! (spec/grids.md), grid search (spec/grid-search.md), grid bidirectional search
//! (spec/grid-bidi.md), HPA* (spec/hpa.md), replanners (spec/replanning.md), debug geometry
//! (spec/debug.md), state bytes (spec/state.md) and world snapshots (spec/world.md).
//!
//! Every module transcribes one chapter of the spec clause by clause; every public item's
//! doc comment starts with the clause ids it implements. The crate favours obvious correctness
//! over speed: std only, no `unsafe`, no hash containers in results.
//! [SPEC.NUM.IEEE] Plain IEEE binary64 `+ - * / sqrt` in the spec's order (no fused operations);
//! [SPEC.NUM.NO_HASH_ORDER] no hash container (`conformance/tests/determinism_sources.rs`).
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// IEEE comparisons are written as the spec writes them ([SPEC.NUM.COMPARE]): `!(a < b)` is
// deliberate, and index loops mirror the clauses.
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::needless_range_loop)]

mod astar;
mod bidirectional;
mod csr;
mod debug;
mod error;
mod flow;
mod graph;
mod grid;
mod grid_error;
mod grid_search;
mod hex_search;
mod hpa;
mod landmarks;
mod open_set;
mod options;
mod points;
mod random;
mod replan;
mod state;
mod voxel;
mod voxel_search;
mod world;
mod world_error;

pub use astar::{
    DefaultGraphCost, GraphAStar, GraphCost, GraphHeuristic, SearchStatus, ZeroGraphHeuristic,
};
pub use bidirectional::BidirectionalGraphSearch;
pub use csr::{CsrGraph, GraphEdge, MAX_NODES};
pub use debug::{
    describe_graph_path, describe_hex_path, describe_path, describe_voxel_path,
    GraphPathDescription, HierarchyDescription, HierarchyEdgeDescription, PathDescription,
    ReplanDescription, ReplanExpansion, VoxelPathDescription,
};
pub use error::{BuildError, GraphStateError, QueryError};
pub use flow::{FlowFieldDescription, FlowStatus, GridFlowField, HexFlowField};
pub use graph::Graph;
pub use grid::{CellListener, Grid, GridSpace, HexGrid, HexLayout, VoxelSpace, WALL};
pub use grid_error::{GridError, GridStateError};
pub use grid_search::{
    find_grid_path, find_grid_path_bidirectional, AStar, CellBlockedFn, CellCostFn, Connectivity,
    DiagonalRule, GridAlgorithm, GridBidiSearch, GridEngine, GridOptions, GridPath, GridSearch,
    GridSearchError, JumpSearch, ThetaSearch,
};
pub use hex_search::{find_hex_path, HexSearch};
pub use hpa::{
    cut_loops, find_hpa_path, HpaEdge, HpaEdgeKind, HpaHierarchy, HpaNode, HpaOptions, HpaSearch,
};
pub use landmarks::{
    AltGraphHeuristic, LandmarkOptions, LandmarkStrategy, Landmarks, MAX_LANDMARK_ENTRIES,
};
pub use options::{
    Algorithm, BlockedFn, EdgeCostFn, GraphOptions, GraphPath, HeuristicFn, PathStatus,
};
pub use points::{
    distance, squared_distance, EuclideanGraphHeuristic, LinkOptions, LinkValidFn, Point3,
    PointGraph, MAX_GENERATED_LINKS,
};
pub use random::SeededRandom;
pub use replan::{GridReplanner, HexReplanner, ReplanMode};
pub use voxel::VoxelGrid;
pub use voxel_search::{find_voxel_path, VoxelConnectivity, VoxelOptions, VoxelPath, VoxelSearch};
pub use world::{
    World, WorldError, WorldGraphSearch, MEMBER_FLOW_FIELD, MEMBER_GRAPH, MEMBER_GRAPH_SEARCH,
    MEMBER_GRID, MEMBER_GRID_SEARCH, MEMBER_REPLANNER,
};
