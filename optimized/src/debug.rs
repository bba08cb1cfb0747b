//! [DEBUG] Debug geometry of spec/debug.md: plain-data descriptions of results, with the world
//! point of every listed cell, node or voxel.
//!
//! Describing is off the hot path: nothing here is called by a search, and no search records
//! more because this module exists ([DEBUG.EXPANDED.OPT_IN]). The replanner's and the
//! hierarchy's `describe` live with their types; the flow field's is in `flow/mod.rs`.

use crate::cells::{GridSpace, VoxelSpace};
use crate::grid_search::{GridAlgorithm, GridPath};
use crate::hpa::{HpaEdgeKind, HpaNode};
use crate::plane::{Grid, HexGrid};
use crate::replan::ReplanMode;
use crate::tier1::{Algorithm, GraphPath, PathStatus};
use crate::values::Point3;
use crate::voxel::VoxelGrid;
use crate::voxel_search::VoxelPath;

/// [DEBUG.PATH.FIELDS] A `GridPath` of a square or hex grid as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct PathDescription {
    /// Width of the grid the description was made on.
    pub width: usize,
    /// Height of that grid.
    pub height: usize,
    /// The algorithm the result names.
    pub algorithm: GridAlgorithm,
    /// The result's status.
    pub status: PathStatus,
    /// The result's cost, bit for bit.
    pub cost: f64,
    /// Path cells, start first.
    pub cells: Vec<u32>,
    /// The result's world points.
    pub points: Vec<(f64, f64)>,
    /// [DEBUG.EXPANDED.OPT_IN] Recorded expansions in order.
    pub expanded: Vec<u32>,
    /// [DEBUG.POINTS] Where each expansion lies.
    pub expanded_points: Vec<(f64, f64)>,
    /// Expansions counted.
    pub expanded_count: u64,
    /// Iterations counted.
    pub iterations: u64,
}

/// [DEBUG.VOXEL.FIELDS] A `VoxelPath` as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct VoxelPathDescription {
    /// `(sx, sy, sz)` of the grid the description was made on.
    pub size: (usize, usize, usize),
    /// The algorithm the result names.
    pub algorithm: GridAlgorithm,
    /// The result's status.
    pub status: PathStatus,
    /// The result's cost, bit for bit.
    pub cost: f64,
    /// Path voxels (node indexes), start first.
    pub cells: Vec<u32>,
    /// The result's world points.
    pub points: Vec<(f64, f64, f64)>,
    /// [DEBUG.EXPANDED.OPT_IN] Recorded expansions in order.
    pub expanded: Vec<u32>,
    /// [DEBUG.POINTS] Where each expansion lies.
    pub expanded_points: Vec<(f64, f64, f64)>,
    /// Expansions counted.
    pub expanded_count: u64,
    /// Iterations counted.
    pub iterations: u64,
}

/// [DEBUG.GRAPH.FIELDS] A `GraphPath` as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphPathDescription {
    /// The algorithm that ran.
    pub algorithm: Algorithm,
    /// The result's status.
    pub status: PathStatus,
    /// The result's cost, bit for bit.
    pub cost: f64,
    /// Path nodes, start first.
    pub nodes: Vec<u32>,
    /// Point of each path node; empty when positions are not known for every listed node.
    pub positions: Vec<Point3>,
    /// [DEBUG.EXPANDED.OPT_IN] Recorded expansions in order.
    pub expanded: Vec<u32>,
    /// Point of each expansion (empty exactly when `positions` is).
    pub expanded_positions: Vec<Point3>,
    /// Expansions counted.
    pub expanded_count: u64,
    /// Iterations counted.
    pub iterations: u64,
}

/// [DEBUG.REPLAN.KINDS] Whether a replan settled or reset a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplanExpansion {
    /// Overconsistent: `g` took `rhs`.
    Settle,
    /// Underconsistent: `g` went to `+inf`.
    Reset,
}

/// [DEBUG.REPLAN.FIELDS] A replanner as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplanDescription {
    /// Grid width the replanner was made for.
    pub width: usize,
    /// Grid height the replanner was made for.
    pub height: usize,
    /// LPA* or D* Lite.
    pub mode: ReplanMode,
    /// Start cell index.
    pub start: u32,
    /// Goal cell index.
    pub goal: u32,
    /// Whether planning has been initialised.
    pub initialized: bool,
    /// Whether the latest completed replan found a path.
    pub found: bool,
    /// `path_cost()`.
    pub cost: f64,
    /// `path(grid)`, empty when that fails.
    pub cells: Vec<u32>,
    /// Class of the failed `path(grid)`, if it failed.
    pub path_error: Option<&'static str>,
    /// [DEBUG.POINTS] Where each path cell lies.
    pub points: Vec<(f64, f64)>,
    /// Nodes the latest replan settled or reset, in order.
    pub expanded: Vec<u32>,
    /// Settle or reset, beside each of `expanded`.
    pub expanded_kinds: Vec<ReplanExpansion>,
    /// [DEBUG.POINTS] Where each of `expanded` lies.
    pub expanded_points: Vec<(f64, f64)>,
    /// `last_expanded()`.
    pub expanded_count: u64,
    /// `iterations()` since creation.
    pub iterations: u64,
    /// `pending_count()`.
    pub pending: usize,
}

/// [DEBUG.HPA.FIELDS] One edge of a described hierarchy.
#[derive(Clone, Debug, PartialEq)]
pub struct HierarchyEdgeDescription {
    /// Source node id.
    pub from: u32,
    /// Target node id.
    pub to: u32,
    /// Edge cost.
    pub cost: f64,
    /// Inside one chunk or across a border.
    pub kind: HpaEdgeKind,
    /// Stored cell path of the edge.
    pub path: Vec<u32>,
}

/// [DEBUG.HPA.FIELDS] An HPA* hierarchy as plain data.
#[derive(Clone, Debug, PartialEq)]
pub struct HierarchyDescription {
    /// Whether it has been built.
    pub built: bool,
    /// Its chunk size option.
    pub chunk_size: u32,
    /// `(chunks_x, chunks_y)` of the last build.
    pub chunks: (usize, usize),
    /// Permanent abstract nodes in id order.
    pub nodes: Vec<HpaNode>,
    /// [DEBUG.POINTS] Where each node's cell lies.
    pub node_points: Vec<(f64, f64)>,
    /// Every edge in `(from, to)` order with its stored path.
    pub edges: Vec<HierarchyEdgeDescription>,
}

/// [DEBUG.POINTS] [GRID.SPACE.CENTER] Centres of square or hex cell indexes on a grid of
/// width `w`, with the space's origin and size resolved once ([GRID.SPACE.UNASSIGNED]).
#[derive(Clone, Copy)]
pub(crate) struct Plane {
    ox: f64,
    oy: f64,
    s: f64,
    w: usize,
}

impl Plane {
    pub(crate) fn new(space: GridSpace, w: usize) -> Plane {
        let unassigned = space.origin_x == 0.0 && space.origin_y == 0.0 && space.cell_size == 0.0;
        let (ox, oy, s) = if unassigned {
            (0.0, 0.0, 1.0)
        } else {
            (space.origin_x, space.origin_y, space.cell_size)
        };
        // A grid never has width 0; `max` keeps a foreign call total ([DEBUG.TOTAL]).
        Plane {
            ox,
            oy,
            s,
            w: w.max(1),
        }
    }

    #[inline]
    fn at(self, c: u32) -> (f64, f64) {
        let c = c as usize;
        let (x, y) = ((c % self.w) as f64, (c / self.w) as f64);
        (self.ox + (x + 0.5) * self.s, self.oy + (y + 0.5) * self.s)
    }

    pub(crate) fn all(self, cells: &[u32]) -> Vec<(f64, f64)> {
        let mut out = Vec::with_capacity(cells.len());
        out.extend(cells.iter().map(|&c| self.at(c)));
        out
    }
}

/// [DEBUG.PATH.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] A square grid's `GridPath` as plain data.
pub fn describe_path(grid: &Grid, path: &GridPath) -> PathDescription {
    copy_path(grid.width(), grid.height(), grid.space(), path)
}

/// [DEBUG.PATH.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] A hex grid's `GridPath` as plain data.
pub fn describe_hex_path(grid: &HexGrid, path: &GridPath) -> PathDescription {
    copy_path(grid.width(), grid.height(), grid.space(), path)
}

fn copy_path(w: usize, h: usize, space: GridSpace, p: &GridPath) -> PathDescription {
    PathDescription {
        width: w,
        height: h,
        algorithm: p.algorithm,
        status: p.status,
        cost: p.cost,
        cells: p.cells.clone(),
        points: p.points.clone(),
        expanded_points: Plane::new(space, w).all(&p.expanded),
        expanded: p.expanded.clone(),
        expanded_count: p.expanded_count,
        iterations: p.iterations,
    }
}

/// [DEBUG.VOXEL.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] A `VoxelPath` as plain data.
pub fn describe_voxel_path(grid: &VoxelGrid, path: &VoxelPath) -> VoxelPathDescription {
    let size = grid.size();
    let sp: VoxelSpace = grid.space();
    let unassigned =
        sp.origin_x == 0.0 && sp.origin_y == 0.0 && sp.origin_z == 0.0 && sp.cell_size == 0.0;
    let (ox, oy, oz, s) = if unassigned {
        (0.0, 0.0, 0.0, 1.0)
    } else {
        (sp.origin_x, sp.origin_y, sp.origin_z, sp.cell_size)
    };
    let sx = size.0.max(1);
    let layer = sx * size.1.max(1);
    let expanded_points = path
        .expanded
        .iter()
        .map(|&c| {
            let c = c as usize;
            let (x, y, z) = (c % sx, (c % layer) / sx, c / layer);
            (
                ox + (x as f64 + 0.5) * s,
                oy + (y as f64 + 0.5) * s,
                oz + (z as f64 + 0.5) * s,
            )
        })
        .collect();
    VoxelPathDescription {
        size,
        algorithm: path.algorithm,
        status: path.status,
        cost: path.cost,
        cells: path.cells.clone(),
        points: path.points.clone(),
        expanded: path.expanded.clone(),
        expanded_points,
        expanded_count: path.expanded_count,
        iterations: path.iterations,
    }
}

/// [DEBUG.GRAPH.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] A `GraphPath` as plain data; positions come
/// from `positions` (by node id) when it has a point for every node of the path and of the
/// expansions.
pub fn describe_graph_path(path: &GraphPath, positions: Option<&[Point3]>) -> GraphPathDescription {
    let pts: &[Point3] = positions.unwrap_or(&[]);
    let known = positions.is_some()
        && path
            .nodes
            .iter()
            .chain(&path.expanded)
            .all(|&n| (n as usize) < pts.len());
    let (positions, expanded_positions) = if known {
        let at = |list: &[u32]| list.iter().map(|&n| pts[n as usize]).collect::<Vec<_>>();
        (at(&path.nodes), at(&path.expanded))
    } else {
        (Vec::new(), Vec::new())
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
