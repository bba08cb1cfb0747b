//! Seeded hex and voxel requests ([CONF.LATTICE.CASES]): hex maps of the replanners' kinds on
//! every layout, voxel worlds of random density, options that cover both algorithms, the
//! weights, hooks, recording, budgets and (voxel) every connectivity and corner rule, and four
//! queries each, the last one sliced.

use super::{HexRequest, LatticeRequest, Query, Shape, VoxelOptionsData, VoxelRequest};
use crate::grid::{CellBlockRule, CellCostRule, GridOptionsData};
use crate::prng::{derive_seed, SplitMix64};
use crate::replan::cases::{map, MULTIPLIERS};

/// The algorithm code: A* two in three, else Dijkstra; one in twenty JPS (unsupported).
fn algorithm(rng: &mut SplitMix64) -> u8 {
    if rng.chance(0.05) {
        2
    } else if rng.chance(2.0 / 3.0) {
        0
    } else {
        1
    }
}

/// The hooks: `extra_where` one in five, `invalid_where` one in twenty; `blocked` one in ten.
pub(crate) fn hooks(rng: &mut SplitMix64) -> (Option<CellCostRule>, Option<CellBlockRule>) {
    let cost = if rng.chance(0.2) {
        Some(CellCostRule::ExtraWhere {
            modulus: 2 + rng.below(4) as u32,
            extra: 0.25 * (1 + rng.below(6)) as f64,
        })
    } else if rng.chance(0.05) {
        Some(CellCostRule::InvalidWhere {
            modulus: 3 + rng.below(5) as u32,
        })
    } else {
        None
    };
    let blocked = rng.chance(0.1).then(|| {
        let modulus = 5 + rng.below(6) as u32;
        CellBlockRule {
            modulus,
            residue: rng.below(u64::from(modulus)) as u32,
        }
    });
    (cost, blocked)
}

/// Weight 1 or 1.5; recording four in five; a budget of 1-40 one in five.
pub(crate) fn common(rng: &mut SplitMix64) -> (f64, bool, u64) {
    let weight = if rng.chance(0.3) { 1.5 } else { 1.0 };
    let record = rng.chance(0.8);
    let budget = if rng.chance(0.2) { rng.range(1, 41) } else { 0 };
    (weight, record, budget)
}

/// Four queries between random cells of a grid of `size` (one end in twenty outside it); the
/// last has a schedule of one to three budgets of 0-7, the last at least 1.
pub(crate) fn queries(rng: &mut SplitMix64, size: &[u32]) -> Vec<Query> {
    let end = |rng: &mut SplitMix64| -> Vec<u32> {
        let out = rng.chance(0.05);
        size.iter()
            .map(|&s| {
                if out && rng.chance(0.5) {
                    s + rng.below(2) as u32
                } else {
                    rng.below(u64::from(s)) as u32
                }
            })
            .collect()
    };
    (0..4)
        .map(|i| {
            let start = end(rng);
            let goal = end(rng);
            let schedule = if i == 3 {
                let mut s: Vec<u64> = (0..rng.range(1, 4)).map(|_| rng.below(8)).collect();
                if let Some(last) = s.last_mut() {
                    *last = (*last).max(1);
                }
                s
            } else {
                vec![]
            };
            Query {
                start,
                goal,
                schedule,
                cancel: None,
            }
        })
        .collect()
}

/// Hex request `i` of the seed `base`: map kind and layout cycle with `i`, 3-20 cells a side.
pub fn hex_request(base: u64, i: u64) -> LatticeRequest {
    let mut rng = SplitMix64::new(derive_seed(base, i));
    let (w, h) = (rng.range(3, 21) as u32, rng.range(3, 21) as u32);
    let mut m = map(&mut rng, w, h, i / 4);
    if rng.chance(0.25) {
        m.space = Some([-3.5, 2.25, 0.75]);
    }
    let (cell_cost, blocked) = hooks(&mut rng);
    let (weight, record, budget) = common(&mut rng);
    let options = GridOptionsData {
        agent_size: if rng.chance(0.05) { 2 } else { 1 },
        connectivity: 8,
        diagonal: 2,
        algorithm: algorithm(&mut rng),
        cell_cost,
        blocked,
        weight,
        record,
        budget,
    };
    LatticeRequest::Hex(HexRequest {
        layout: (i % 4) as i32,
        map: m,
        options,
        queries: queries(&mut rng, &[w, h]),
    })
}

/// Voxel request `i` of the seed `base`: 1-8 voxels a side, solid at a density of 0-45 %.
pub fn voxel_request(base: u64, i: u64) -> LatticeRequest {
    let mut rng = SplitMix64::new(derive_seed(base, i));
    let size = [
        rng.range(1, 9) as u32,
        rng.range(1, 9) as u32,
        rng.range(1, 9) as u32,
    ];
    let n = (size[0] * size[1] * size[2]) as usize;
    let density = rng.unit() * 0.45;
    let cells: Vec<u8> = (0..n)
        .map(|_| {
            if rng.chance(density) {
                255
            } else {
                rng.below(4) as u8
            }
        })
        .collect();
    let space = rng.chance(0.25).then_some([1.5, -2.0, 0.25, 0.5]);
    let (cell_cost, blocked) = hooks(&mut rng);
    let (weight, record, budget) = common(&mut rng);
    let options = VoxelOptionsData {
        connectivity: [6, 18, 26][(i % 3) as usize],
        diagonal: ((i / 3) % 3) as u8,
        algorithm: algorithm(&mut rng),
        cell_cost,
        blocked,
        weight,
        record,
        budget,
    };
    LatticeRequest::Voxel(VoxelRequest {
        size,
        cells: hex::encode(&cells),
        multipliers: MULTIPLIERS.to_vec(),
        space,
        options,
        queries: queries(&mut rng, &size),
    })
}

/// Request `i` of a shape.
pub fn request(shape: Shape, base: u64, i: u64) -> LatticeRequest {
    match shape {
        Shape::Hex => hex_request(base, i),
        Shape::Voxel => voxel_request(base, i),
    }
}

/// [CONF.CHECK.LATTICE] The sliced form of `r`: every query's schedule replaced by one to three
/// budgets of 1-5 drawn from `rng`.
pub fn sliced(r: &LatticeRequest, rng: &mut SplitMix64) -> LatticeRequest {
    let mut out = r.clone();
    for q in out.queries_mut() {
        q.schedule = (0..rng.range(1, 4)).map(|_| rng.range(1, 6)).collect();
    }
    out
}
