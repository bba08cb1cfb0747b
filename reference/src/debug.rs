//! Debug geometry (spec/debug.md, `DEBUG.*`): descriptions that copy a result into plain data,
//! with the world point of every cell they list.
//!
//! The replanner's and the hierarchy's `describe` live with their types (`replan/mod.rs`,
//! `hpa/mod.rs`); the flow field's is [FLOW.DEBUG.DESCRIBE] in `flow/mod.rs`.

use crate::grid::{Grid, GridSpace, HexGrid, VoxelSpace};
use crate::grid_search::{GridAlgorithm, GridPath};
use crate::hpa::{HpaEdgeKind, HpaNode};
use crate::options::{Algorithm, GraphPath, PathStatus};
use crate::points::Point3;
use crate::replan::ReplanMode;
use crate::voxel::VoxelGrid;
use crate::voxel_search::VoxelPath;

/// [DEBUG.PATH.FIELDS] A described `GridPath` (square searches, bidirectional, HPA*, hex).
#[derive(Clone, Debug, PartialEq)]
pub struct PathDescription {
    /// The given grid's width.
    pub width: usize,
    /// The given grid's height.
    pub height: usize,
    /// The algorithm that ran.
    pub algorithm: GridAlgorithm,
    /// The status.
    pub status: PathStatus,
    /// The path cost (the same bits).
    pub cost: f64,
    /// The path's cells, start first.
    pub cells: Vec<u32>,
    /// The path's world points, copied.
    pub points: Vec<(f64, f64)>,
    /// [DEBUG.EXPANDED.OPT_IN] The recorded expansions, copied.
    pub expanded: Vec<u32>,
    /// [DEBUG.POINTS] The world point of each expanded cell.
    pub expanded_points: Vec<(f64, f64)>,
    /// The number of expansions.
    pub expanded_count: u64,
    /// The number of iterations.
    pub iterations: u64,
}

/// [DEBUG.VOXEL.FIELDS] A described `VoxelPath`.
#[derive(Clone, Debug, PartialEq)]
pub struct VoxelPathDescription {
    /// The given grid's size `(sx, sy, sz)`.
    pub size: (usize, usize, usize),
    /// The algorithm that ran.
    pub algorithm: GridAlgorithm,
    /// The status.
    pub status: PathStatus,
    /// The path cost.
    pub cost: f64,
    /// The path's node indexes, start first.
    pub cells: Vec<u32>,
    /// The path's world points, copied.
    pub points: Vec<(f64, f64, f64)>,
    /// [DEBUG.EXPANDED.OPT_IN] The recorded expansions, copied.
    pub expanded: Vec<u32>,
    /// [DEBUG.POINTS] The world point of each expanded voxel.
    pub expanded_points: Vec<(f64, f64, f64)>,
    /// The number of expansions.
    pub expanded_count: u64,
    /// The number of iterations.
    pub iterations: u64,
}

/// [DEBUG.GRAPH.FIELDS] A described `GraphPath`.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphPathDescription {
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// The status.
    pub status: PathStatus,
    /// The path cost.
    pub cost: f64,
    /// The path's nodes, start first.
    pub nodes: Vec<u32>,
    /// The point of each path node (empty without positions).
    pub positions: Vec<Point3>,
    /// [DEBUG.EXPANDED.OPT_IN] The recorded expansions, copied.
    pub expanded: Vec<u32>,
    /// The point of each expanded node (empty without positions).
    pub expanded_positions: Vec<Point3>,
    /// The number of expansions.
    pub expanded_count: u64,
    /// The number of iterations.
    pub iterations: u64,
}

/// [DEBUG.REPLAN.KINDS] What a replan did to a recorded node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplanExpansion {
    /// Step (b) of [REPLAN.COMPUTE.STEP]: overconsistent, `g = rhs`.
    Settle,
    /// Step (c) of [REPLAN.COMPUTE.STEP]: underconsistent, `g = +inf`.
    Reset,
}

/// [DEBUG.REPLAN.FIELDS] A described replanner.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplanDescription {
    /// The replanner's grid width.
    pub width: usize,
    /// The replanner's grid height.
    pub height: usize,
    /// LPA* or D* Lite.
    pub mode: ReplanMode,
    /// The start cell index.
    pub start: u32,
    /// The goal cell index.
    pub goal: u32,
    /// `is_initialized()`.
    pub initialized: bool,
    /// `found()`.
    pub found: bool,
    /// `path_cost()`.
    pub cost: f64,
    /// `path(grid)`, or empty when it fails.
    pub cells: Vec<u32>,
    /// The class of a failed `path(grid)`.
    pub path_error: Option<&'static str>,
    /// [DEBUG.POINTS] The world point of each path cell.
    pub points: Vec<(f64, f64)>,
    /// `expansions()`.
    pub expanded: Vec<u32>,
    /// `expansion_kinds()`.
    pub expanded_kinds: Vec<ReplanExpansion>,
    /// [DEBUG.POINTS] The world point of each expanded cell.
    pub expanded_points: Vec<(f64, f64)>,
    /// `last_expanded()`.
    pub expanded_count: u64,
    /// `iterations()`.
    pub iterations: u64,
    /// `pending_count()`.
    pub pending: usize,
}

/// [DEBUG.HPA.FIELDS] One described hierarchy edge.
#[derive(Clone, Debug, PartialEq)]
pub struct HierarchyEdgeDescription {
    /// The source node id.
    pub from: u32,
    /// The target node id.
    pub to: u32,
    /// The edge cost.
    pub cost: f64,
    /// Intra- or inter-chunk.
    pub kind: HpaEdgeKind,
    /// The stored path (`edge_path(from, to)`).
    pub path: Vec<u32>,
}

/// [DEBUG.HPA.FIELDS] A described HPA* hierarchy.
#[derive(Clone, Debug, PartialEq)]
pub struct HierarchyDescription {
    /// `is_built()`.
    pub built: bool,
    /// The chunk size option.
    pub chunk_size: u32,
    /// `chunks()`.
    pub chunks: (usize, usize),
    /// `nodes()`, in id order.
    pub nodes: Vec<HpaNode>,
    /// [DEBUG.POINTS] The world point of each node's cell.
    pub node_points: Vec<(f64, f64)>,
    /// `edges()`, each with its stored path.
    pub edges: Vec<HierarchyEdgeDescription>,
}

/// [GRID.SPACE.UNASSIGNED] The space as used: `(0, 0, 1)` when unassigned.
fn square_space(sp: GridSpace) -> (f64, f64, f64) {
    if sp.origin_x == 0.0 && sp.origin_y == 0.0 && sp.cell_size == 0.0 {
        (0.0, 0.0, 1.0)
    } else {
        (sp.origin_x, sp.origin_y, sp.cell_size)
    }
}

/// [DEBUG.POINTS] [GRID.SPACE.CENTER] The world point of cell index `c` on a grid of width
/// `width` (a width of 0 cannot occur on a grid; it is read as 1 so the call stays total).
pub(crate) fn square_point(space: GridSpace, width: usize, c: u32) -> (f64, f64) {
    let (ox, oy, s) = square_space(space);
    let w = width.max(1);
    let x = (c as usize % w) as f64;
    let y = (c as usize / w) as f64;
    (ox + (x + 0.5) * s, oy + (y + 0.5) * s)
}

/// [DEBUG.POINTS] The world points of a list of cells.
pub(crate) fn square_points(space: GridSpace, width: usize, cells: &[u32]) -> Vec<(f64, f64)> {
    cells
        .iter()
        .map(|&c| square_point(space, width, c))
        .collect()
}

/// [DEBUG.POINTS] [GRID.SPACE.CENTER] The world point of voxel node `c` on a grid of size `size`.
fn voxel_point(space: VoxelSpace, size: (usize, usize, usize), c: u32) -> (f64, f64, f64) {
    let (ox, oy, oz, s) = if space.origin_x == 0.0
        && space.origin_y == 0.0
        && space.origin_z == 0.0
        && space.cell_size == 0.0
    {
        (0.0, 0.0, 0.0, 1.0)
    } else {
        (
            space.origin_x,
            space.origin_y,
            space.origin_z,
            space.cell_size,
        )
    };
    let (sx, sy) = (size.0.max(1), size.1.max(1));
    let c = c as usize;
    let x = (c % sx) as f64;
    let y = ((c / sx) % sy) as f64;
    let z = (c / (sx * sy)) as f64;
    (ox + (x + 0.5) * s, oy + (y + 0.5) * s, oz + (z + 0.5) * s)
}

/// [DEBUG.PATH.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] Describes a `GridPath` of a square grid.
pub fn describe_path(grid: &Grid, path: &GridPath) -> PathDescription {
    described(grid.width(), grid.height(), grid.space(), path)
}

/// [DEBUG.PATH.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] Describes a `GridPath` of a hex grid (its
/// world points are those of [GRID.SPACE.CENTER] on offset coordinates).
pub fn describe_hex_path(grid: &HexGrid, path: &GridPath) -> PathDescription {
    described(grid.width(), grid.height(), grid.space(), path)
}

/// [DEBUG.PATH.FIELDS] The copy and the expansions' points.
fn described(width: usize, height: usize, space: GridSpace, path: &GridPath) -> PathDescription {
    PathDescription {
        width,
        height,
        algorithm: path.algorithm,
        status: path.status,
        cost: path.cost,
        cells: path.cells.clone(),
        points: path.points.clone(),
        expanded: path.expanded.clone(),
        expanded_points: square_points(space, width, &path.expanded),
        expanded_count: path.expanded_count,
        iterations: path.iterations,
    }
}

/// [DEBUG.VOXEL.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] Describes a `VoxelPath`.
pub fn describe_voxel_path(grid: &VoxelGrid, path: &VoxelPath) -> VoxelPathDescription {
    let (size, space) = (grid.size(), grid.space());
    VoxelPathDescription {
        size,
        algorithm: path.algorithm,
        status: path.status,
        cost: path.cost,
        cells: path.cells.clone(),
        points: path.points.clone(),
        expanded: path.expanded.clone(),
        expanded_points: path
            .expanded
            .iter()
            .map(|&c| voxel_point(space, size, c))
            .collect(),
        expanded_count: path.expanded_count,
        iterations: path.iterations,
    }
}

/// [DEBUG.GRAPH.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] Describes a `GraphPath`, with positions
/// when `positions` (a point graph's `points()`, or any list by node id) holds a point for
/// every listed node.
pub fn describe_graph_path(path: &GraphPath, positions: Option<&[Point3]>) -> GraphPathDescription {
    let lookup = |list: &[u32]| -> Option<Vec<Point3>> {
        let pts = positions?;
        list.iter().map(|&n| pts.get(n as usize).copied()).collect()
    };
    let (positions, expanded_positions) = match (lookup(&path.nodes), lookup(&path.expanded)) {
        (Some(a), Some(b)) => (a, b),
        _ => (Vec::new(), Vec::new()),
    };
    GraphPathDescription {
        algorithm: path.algorithm,
        status: path.status,
        cost: path.cost,
        nodes: path.nodes.clone(),
        positions,
        expanded: path.expanded.clone(),
        expanded_positions,
        expanded_count: path.expanded_count,
        iterations: path.iterations,
    }
}
