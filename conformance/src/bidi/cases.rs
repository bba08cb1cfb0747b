//! Seeded bidirectional requests ([CONF.BIDI.CASES]): square maps of the replanners' kinds, the
//! options a bidirectional search accepts (and now and then one it rejects), the lattice cases'
//! hooks, recording, budgets and queries.

use super::BidiRequest;
use crate::grid::GridOptionsData;
use crate::lattice::cases::{common, hooks, queries};
use crate::prng::{derive_seed, SplitMix64};
use crate::replan::cases::map;

/// The generator of request `i` from `base` after its first two draws, and the map's
/// `(width, height)` they drew (the fuzz target picks a small map without generating it).
fn sized(base: u64, i: u64) -> (SplitMix64, (u32, u32)) {
    let mut rng = SplitMix64::new(derive_seed(base, i));
    let (w, h) = (rng.range(3, 21) as u32, rng.range(3, 21) as u32);
    (rng, (w, h))
}

/// The `(width, height)` of [`request`]`(base, i)`'s map, without generating the request.
pub fn request_sides(base: u64, i: u64) -> (u32, u32) {
    sized(base, i).1
}

/// Request `i` of the seed `base`: map kind cycles with `i`, 3-20 cells a side.
pub fn request(base: u64, i: u64) -> BidiRequest {
    let (mut rng, (w, h)) = sized(base, i);
    let mut m = map(&mut rng, w, h, i / 3);
    if rng.chance(0.25) {
        m.space = Some([-3.5, 2.25, 0.75]);
    }
    let (cell_cost, blocked) = hooks(&mut rng);
    let (_, record, budget) = common(&mut rng);
    let algorithm = if rng.chance(0.05) {
        2
    } else if rng.chance(2.0 / 3.0) {
        0
    } else {
        1
    };
    let options = GridOptionsData {
        agent_size: if rng.chance(0.1) {
            rng.range(2, 4) as u32
        } else {
            1
        },
        connectivity: if rng.chance(0.8) { 8 } else { 4 },
        diagonal: (i % 3) as u8,
        algorithm,
        cell_cost,
        blocked,
        weight: if rng.chance(0.05) { 1.5 } else { 1.0 },
        record,
        budget,
    };
    BidiRequest {
        map: m,
        options,
        queries: queries(&mut rng, &[w, h]),
    }
}
