//! `onepath`: the optimized implementation of the onepath-rs spec: the graph family
//! (spec/graphs.md), grids (spec/grids.md), grid search (spec/grid-search.md), replanning
//! (spec/replanning.md), flow fields (spec/flow-fields.md), hex search (spec/hex-search.md),
//! voxel search (spec/voxel-search.md), debug geometry (spec/debug.md) and state bytes v1
//! (spec/state.md).
//!
//! Every public item cites the clause ids it implements. Results (statuses, costs bit for bit,
//! paths, expansion orders, counters, errors, OPLM and state bytes) are those of the spec.
//! [SPEC.NUM.IEEE] Plain IEEE binary64 `+ - * / sqrt` in the spec's order (no fused operations);
//! [SPEC.NUM.NO_HASH_ORDER] hash containers for lookups only, never iterated into a result
//! (`conformance/tests/determinism_sources.rs`).
//!
//! Cost of a query: a square [`Grid`] keeps what its searches derive from it (the padded
//! passability per agent size, clearance included; the move masks; the JPS block masks; the
//! JPS+ tables) and a small pool of search scratch reset by an epoch, so after the first query
//! [`find_grid_path`] costs what it explores, not what the map holds. Edits and restores take
//! `&mut Grid` and repair or drop what they touch (a wall edit repairs the agent-size-1
//! passability, move masks, JPS block masks and JPS+ tables in place, the tables along the rows,
//! columns and diagonals whose entries change; the larger agents' clearance is rebuilt by the
//! next search that needs it).
//! The other tier-1 calls follow the same rule: [`find_grid_path_bidirectional`] and
//! [`find_hex_path`] take their per-cell buffers from the grid's scratch pool; a [`VoxelGrid`]
//! keeps the flat copy of its voxels that searches read (repaired in place by an edit, rewritten
//! after a restore) and a scratch pool; [`find_hpa_path`] keeps its hierarchy (and the abstract
//! search's buffers) on the grid, refreshed by the next query after an edit, restore or
//! multiplier change ([HPA.REFRESH.EQUAL]: a refreshed hierarchy answers as a new one);
//! [`Graph::find_path`] and [`PointGraph::find_path`] take theirs from the graph's pool
//! ([GRAPH.T1.POOL]). So after the first query a stream of tier-1 queries allocates only its
//! results (`tests/tier1_alloc.rs`). None of this is observable in results or state bytes.
//!
//! Threads: every type is `Send`. [`Graph`], [`PointGraph`] and [`CsrGraph`] are also `Sync`: a
//! `&Graph` shared by threads answers concurrent `find_path` calls, each taking its own buffers
//! from the pool (a mutex held only to take or give them; more concurrent queries than pooled
//! buffers allocate their own, kept afterwards). `Grid`, `HexGrid` and `VoxelGrid` are not `Sync`
//! (their cell listeners are `FnMut + Send`, the same API as `onepath-reference`), so a `&Grid`
//! cannot be handed to other threads; run concurrent queries on one grid per thread
//! (`Grid::from_state(&grid.save_state())`) or behind a lock. The grids' caches themselves are
//! guarded by a mutex held only for `Arc` look-ups, scratch and hierarchy hand-offs (and, on a
//! voxel grid, the rewrite of a stale flat copy), so they are safe under any sharing the types
//! allow.
#![deny(missing_docs)]
#![deny(unsafe_code)]

mod astar;
mod bidi;
mod cells;
mod csr;
mod debug;
mod error;
mod flow;
mod graph_state;
mod grid;
mod grid_error;
mod grid_search;
mod heap;
mod hex_search;
mod hpa;
mod landmarks;
mod lattice;
mod mutable;
mod oplm;
mod plane;
mod points;
mod replan;
mod rng;
mod search_state;
mod tier1;
mod values;
mod visit_set;
mod voxel;
mod voxel_cache;
mod voxel_search;
mod wire;
mod world;
mod world_error;

pub use astar::{
    AltGraphHeuristic, DefaultGraphCost, EuclideanGraphHeuristic, GraphAStar, GraphCost,
    GraphHeuristic, SearchStatus, ZeroGraphHeuristic,
};
pub use bidi::BidirectionalGraphSearch;
pub use cells::{CellListener, GridSpace, HexLayout, VoxelSpace, WALL};
pub use csr::CsrGraph;
pub use debug::{
    describe_graph_path, describe_hex_path, describe_path, describe_voxel_path,
    GraphPathDescription, HierarchyDescription, HierarchyEdgeDescription, PathDescription,
    ReplanDescription, ReplanExpansion, VoxelPathDescription,
};
pub use error::{BuildError, GraphStateError, QueryError};
pub use flow::{FlowFieldDescription, FlowStatus, GridFlowField, HexFlowField};
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
pub use landmarks::{LandmarkOptions, LandmarkStrategy, Landmarks, MAX_LANDMARK_ENTRIES};
pub use mutable::Graph;
pub use plane::{Grid, HexGrid};
pub use points::{LinkOptions, LinkValidFn, PointGraph, MAX_GENERATED_LINKS};
pub use replan::{GridReplanner, HexReplanner, ReplanMode};
pub use rng::SeededRandom;
pub use tier1::{
    Algorithm, BlockedFn, EdgeCostFn, GraphOptions, GraphPath, HeuristicFn, PathStatus,
};
pub use values::{distance, squared_distance, GraphEdge, Point3};
pub use voxel::VoxelGrid;
pub use voxel_search::{find_voxel_path, VoxelConnectivity, VoxelOptions, VoxelPath, VoxelSearch};
pub use world::{
    World, WorldError, WorldGraphSearch, MEMBER_FLOW_FIELD, MEMBER_GRAPH, MEMBER_GRAPH_SEARCH,
    MEMBER_GRID, MEMBER_GRID_SEARCH, MEMBER_REPLANNER,
};

/// [GRAPH.CSR.LIMIT] [GRAPH.MUT.NODES] The largest node count a graph may have (`2^26`).
pub const MAX_NODES: usize = 1 << 26;
