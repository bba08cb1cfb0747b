//! HPA* on square grids (spec/hpa.md): `chunks.rs` (§2–§3 tiling, entrances, nodes, inter-chunk
//! edges), `intra.rs` (§4 the chunk search), `hierarchy.rs` (§5–§6 inspection, build and
//! dirty-chunk refresh), `search.rs` (§7, §10 temporary nodes, abstract A*, tier 1), `refine.rs`
//! (§8 refinement, loops, smoothing, cost), `runs.rs` (clear-run lengths for smoothing lines). The abstract graph is kept in flat arrays (edges
//! sorted by source, stored paths in one cell buffer); the chunk and abstract searches reuse
//! epoch-reset open sets.

mod chunks;
mod hierarchy;
mod intra;
mod refine;
mod runs;
mod search;

pub use hierarchy::HpaHierarchy;
pub use search::{find_hpa_path, HpaSearch};

/// [HPA.REFINE.LOOPS] The cell list `cells` with its loops cut, as every refined path is (the
/// same function as `onepath_reference::hpa::cut_loops`). Public so that the rule, which no
/// search result can show, is still checked on both crates.
pub fn cut_loops(cells: &[u32]) -> Vec<u32> {
    let mut out = cells.to_vec();
    refine::cut_loops(&mut out, &mut Vec::new());
    out
}

use crate::grid_search::{Connectivity, DiagonalRule, GridOptions, GridSearchError, GsKind};

/// [HPA.OPT.FIELDS] [HPA.OPT.NO_HOOKS] The options of an HPA* hierarchy and its queries: no
/// agent size, no hook, no algorithm (agent size 1, A*).
#[derive(Clone, Debug, PartialEq)]
pub struct HpaOptions {
    /// [HPA.CHUNK.TILING] The side of a chunk in cells (`2..=64`).
    pub chunk_size: u32,
    /// [HPA.MOVE] Four or eight neighbours.
    pub connectivity: Connectivity,
    /// [HPA.MOVE] The corner rule of diagonal moves.
    pub diagonal: DiagonalRule,
    /// [HPA.SEARCH.ESTIMATE] The abstract estimate's weight (finite, `>= 1.0`).
    pub heuristic_weight: f64,
    /// [HPA.SMOOTH.RULE] Smooth the refined path.
    pub smooth: bool,
    /// [HPA.TIER1] Tier 1 only: the iteration cap (0 = unlimited).
    pub iteration_budget: u64,
    /// [HPA.SEARCH.RECORD] Record the expanded abstract nodes' cells.
    pub record_expansions: bool,
}

impl Default for HpaOptions {
    /// [HPA.OPT.FIELDS] Chunk size 8, eight neighbours, `NoneBlocked`, weight 1, no smoothing,
    /// no budget, no recording.
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

/// [HPA.OPT.VALID] `chunk_size` first, then the weight.
pub(crate) fn validate(o: &HpaOptions) -> Result<(), GridSearchError> {
    if !(2..=64).contains(&o.chunk_size) {
        return Err(GridSearchError::new(GsKind::InvalidOptions {
            field: "chunk_size",
            value: o.chunk_size.to_string(),
        }));
    }
    let w = o.heuristic_weight;
    if !(w.is_finite() && w >= 1.0) {
        return Err(GridSearchError::new(GsKind::InvalidOptions {
            field: "heuristic_weight",
            value: w.to_string(),
        }));
    }
    Ok(())
}

/// [HPA.PASS] [HPA.MOVE] The grid-search options HPA* moves by: agent size 1, no hooks.
pub(crate) fn move_options(o: &HpaOptions) -> GridOptions {
    GridOptions {
        connectivity: o.connectivity,
        diagonal: o.diagonal,
        ..GridOptions::default()
    }
}

/// [HPA.INSPECT.EDGES] Whether an edge joins two nodes of one chunk or crosses chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HpaEdgeKind {
    /// [HPA.INTRA.EDGE] A path inside one chunk.
    Intra,
    /// [HPA.INTER.EDGE] One move across a border or a chunk corner.
    Inter,
}

/// [HPA.INSPECT.NODES] A permanent abstract node: its entrance cell and that cell's chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HpaNode {
    /// [HPA.NODE.SET] The entrance cell (`y * width + x`).
    pub cell: u32,
    /// [HPA.CHUNK.ID] Its chunk.
    pub chunk: u32,
}

/// [HPA.INSPECT.EDGES] A directed edge between two permanent nodes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HpaEdge {
    /// [HPA.NODE.ID] Source node id.
    pub from: u32,
    /// [HPA.NODE.ID] Target node id.
    pub to: u32,
    /// [HPA.INTRA.COST] [HPA.INTER.EDGE] The cost.
    pub cost: f64,
    /// Intra- or inter-chunk.
    pub kind: HpaEdgeKind,
}
