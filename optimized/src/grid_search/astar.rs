//! The generic grid A* `AStar` (kind 8): [GS.ASTAR.GRAPH], [GS.ASTAR.BEGIN],
//! [GS.ASTAR.ALGORITHMS].

use super::generic::{sliced_surface, Core, Rule};
use super::options::{unsupported, GridAlgorithm, GridOptions, GridSearchError};
use crate::astar::SearchStatus;
use crate::grid_error::GridStateError;
use crate::plane::Grid;
use std::sync::atomic::AtomicBool;

/// [GS.ASTAR.GRAPH] [GS.STATE.SEARCHES] Graph A* over the grid's move graph (kind 8).
pub struct AStar<'g> {
    pub(crate) core: Core<'g>,
}

impl<'g> AStar<'g> {
    /// [GS.ASTAR.ALGORITHMS] [GS.OPT.VALID] Accepts `AStar`, `Dijkstra` (and `Jps`/`JpsPlus`,
    /// run as `AStar`); `Theta`/`LazyTheta` are `unsupported_algorithm`.
    pub fn new(grid: &'g Grid, options: GridOptions) -> Result<Self, GridSearchError> {
        let alg = options.algorithm;
        let zero = alg == GridAlgorithm::Dijkstra;
        let core = Core::new(grid, options, Rule::AStar { zero })?;
        if matches!(alg, GridAlgorithm::Theta | GridAlgorithm::LazyTheta) {
            return Err(unsupported(alg, "AStar"));
        }
        Ok(AStar { core })
    }

    sliced_surface!();
}
