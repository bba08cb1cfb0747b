//! Grid search (spec/grid-search.md): A*, Dijkstra, JPS, JPS+, Theta*, Lazy Theta* on square
//! grids, sliced, with state kinds 8, 9, 10 and 12; bidirectional A* and Dijkstra
//! (spec/grid-bidi.md, never saved).

mod astar;
mod bidirectional;
mod bitjump;
mod cache;
mod ctx;
mod generic;
mod generic_state;
mod handle;
mod jps_plus;
mod jump;
mod options;
mod special_astar;
mod special_jump;
mod special_jump_state;
mod theta;

pub use astar::AStar;
pub use bidirectional::{find_grid_path_bidirectional, GridBidiSearch};
pub use handle::{find_grid_path, GridSearch};
pub use jump::JumpSearch;
pub use options::{
    CellBlockedFn, CellCostFn, Connectivity, DiagonalRule, GridAlgorithm, GridEngine, GridOptions,
    GridPath, GridSearchError,
};
pub use theta::ThetaSearch;

// The replanners (crate::replan) reuse the option checks, the error kinds and the move tables.
pub(crate) use cache::{GridCache, HpaEntry};
pub(crate) use ctx::{Ctx, Divisor, DX, DY, SQRT_2};
pub(crate) use handle::centre;
pub(crate) use options::{unsupported, validate, GsKind};

/// The unit tests' seeded generator: `next(n)` is a number in `0..n` from a 64-bit LCG (the
/// high 31 bits of each state).
#[cfg(test)]
fn test_lcg(mut seed: u64) -> impl FnMut(u64) -> u64 {
    move |n| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    }
}
