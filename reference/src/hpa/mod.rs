//! [HPA] HPA* on square grids (spec/hpa.md): chunks and entrances, intra-chunk edges, the
//! hierarchy with its lazy build and dirty-chunk refresh, the abstract A* over permanent and
//! temporary nodes, refinement, smoothing and tier 1.
//!
//! One concern per file: `chunks.rs` (§2–§3 tiling, entrances, nodes, inter-chunk edges),
//! `intra.rs` (§4 the chunk search and intra-chunk edges), `hierarchy.rs` (§5–§6 inspection, build
//! and refresh), `search.rs` (§7, §10 temporary nodes, abstract search, tier 1), `refine.rs` (§8
//! refinement, loops, smoothing, cost).

pub(crate) mod chunks;
pub(crate) mod hierarchy;
pub(crate) mod intra;
pub(crate) mod refine;
pub(crate) mod search;

pub use hierarchy::HpaHierarchy;
pub use search::{find_hpa_path, HpaSearch};

/// [HPA.REFINE.LOOPS] The cell list `cells` with its loops cut, as every refined path is: for
/// `i = 0, 1, …`, with `j` the last index holding `cells[i]`, the cells `i + 1 ..= j` are
/// removed. Public so that the rule, which no search result can show (the stored paths of an
/// abstract path do not cross), is still checked on both crates.
pub fn cut_loops(cells: &[u32]) -> Vec<u32> {
    refine::refine_loops(cells.to_vec())
}

use crate::grid::Grid;
use crate::grid_search::moves::Terrain;
use crate::grid_search::{Connectivity, DiagonalRule, GridOptions, GridSearchError};

/// [HPA.OPT.FIELDS] [HPA.OPT.NO_HOOKS] The options of an HPA* hierarchy and its queries. There
/// is no agent size, no hook and no algorithm: HPA* plans for an agent of size 1 with A*.
#[derive(Clone, Debug, PartialEq)]
pub struct HpaOptions {
    /// [HPA.OPT.FIELDS] [HPA.CHUNK.TILING] The side of a chunk in cells (`2..=64`).
    pub chunk_size: u32,
    /// [HPA.OPT.FIELDS] [HPA.MOVE] Four or eight neighbours.
    pub connectivity: Connectivity,
    /// [HPA.OPT.FIELDS] [HPA.MOVE] The corner rule of diagonal moves.
    pub diagonal: DiagonalRule,
    /// [HPA.OPT.FIELDS] [HPA.SEARCH.ESTIMATE] The abstract estimate's weight (finite, `>= 1.0`).
    pub heuristic_weight: f64,
    /// [HPA.OPT.FIELDS] [HPA.SMOOTH.RULE] Smooth the refined path.
    pub smooth: bool,
    /// [HPA.OPT.FIELDS] [HPA.TIER1] Tier 1 only: the iteration cap (0 = unlimited).
    pub iteration_budget: u64,
    /// [HPA.OPT.FIELDS] [HPA.SEARCH.RECORD] Record the expanded abstract nodes' cells.
    pub record_expansions: bool,
}

impl Default for HpaOptions {
    /// [HPA.OPT.FIELDS] The defaults.
    fn default() -> Self {
        HpaOptions {
            chunk_size: 8,
            connectivity: Connectivity::Eight,
            diagonal: DiagonalRule::NoneBlocked,
            heuristic_weight: 1.0,
            smooth: false,
            iteration_budget: 0,
            record_expansions: false,
        }
    }
}

/// [HPA.OPT.VALID] The smallest and largest chunk sizes.
pub(crate) const CHUNK_SIZES: std::ops::RangeInclusive<u32> = 2..=64;

/// [HPA.OPT.VALID] `chunk_size` in `2..=64` first, then `heuristic_weight` finite and `>= 1.0`.
pub(crate) fn validate(options: &HpaOptions) -> Result<(), GridSearchError> {
    if !CHUNK_SIZES.contains(&options.chunk_size) {
        return Err(GridSearchError::options(
            "chunk_size",
            options.chunk_size.to_string(),
        ));
    }
    let w = options.heuristic_weight;
    if !(w.is_finite() && w >= 1.0) {
        return Err(GridSearchError::options(
            "heuristic_weight",
            format!("{w:?}"),
        ));
    }
    Ok(())
}

/// [HPA.PASS] [HPA.MOVE] The square terrain HPA* moves on: agent size 1, no hooks, the options'
/// connectivity and diagonal rule.
pub(crate) fn terrain<'g>(grid: &'g Grid, options: &HpaOptions) -> Terrain<'g> {
    let o = GridOptions {
        connectivity: options.connectivity,
        diagonal: options.diagonal,
        ..GridOptions::default()
    };
    Terrain::new(grid, &o)
}

/// [HPA.INSPECT.EDGES] Whether an edge joins two nodes of one chunk or crosses between chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HpaEdgeKind {
    /// [HPA.INTRA.EDGE] A path inside one chunk.
    Intra,
    /// [HPA.INTER.EDGE] One move across a chunk border (or a chunk corner).
    Inter,
}

/// [HPA.INSPECT.NODES] A permanent abstract node: its entrance cell and that cell's chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpaNode {
    /// [HPA.NODE.SET] The entrance cell (index `y * width + x`).
    pub cell: u32,
    /// [HPA.CHUNK.ID] The chunk of the cell.
    pub chunk: u32,
}

/// [HPA.INSPECT.EDGES] A directed edge between two permanent nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HpaEdge {
    /// [HPA.NODE.ID] The source node id.
    pub from: u32,
    /// [HPA.NODE.ID] The target node id.
    pub to: u32,
    /// [HPA.INTRA.COST] [HPA.INTER.EDGE] The edge's cost.
    pub cost: f64,
    /// [HPA.INSPECT.EDGES] Intra- or inter-chunk.
    pub kind: HpaEdgeKind,
}
