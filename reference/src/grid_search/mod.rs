//! [GS] Grid search on square grids: A*, Dijkstra, JPS, JPS+, Theta*, Lazy Theta*, the
//! `GridSearch` handle and state kinds 8, 9, 10 and 12 (spec/grid-search.md); bidirectional search
//! on square grids (spec/grid-bidi.md).

pub(crate) mod astar;
pub(crate) mod bidirectional;
pub(crate) mod handle;
pub(crate) mod jump;
pub(crate) mod moves;
pub(crate) mod options;
pub(crate) mod specialised_astar;
pub(crate) mod specialised_jump;
pub(crate) mod state;
pub(crate) mod state_handle;
pub(crate) mod state_mode3;
pub(crate) mod theta;

pub use astar::AStar;
pub use bidirectional::{find_grid_path_bidirectional, GridBidiSearch};
pub use handle::{find_grid_path, GridSearch};
pub use jump::JumpSearch;
pub use options::{
    CellBlockedFn, CellCostFn, Connectivity, DiagonalRule, GridAlgorithm, GridEngine, GridOptions,
    GridPath, GridSearchError,
};
pub use theta::ThetaSearch;
