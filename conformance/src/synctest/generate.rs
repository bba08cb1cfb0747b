//! [CONF.SYNC.GENERATE] A session from a seed: a 16 x 16 map, a 6 x 6 lattice graph, and per
//! frame one to three ops drawn from the kit's PRNG.

use super::{Session, SyncGraph, SyncReplanner, SCHEMA, VERSION};
use crate::grid::vectors::MapFile;
use crate::grid::GridOptionsData;
use crate::prng::SplitMix64;
use crate::replan::ModeName;

/// The map's side.
pub const SIDE: u32 = 16;
/// The graph lattice's side.
pub const LATTICE: u32 = 6;

/// [CONF.SYNC.GENERATE] The session of `seed` with `frames` frames.
pub fn session(seed: u64, frames: usize) -> Session {
    let mut rng = SplitMix64::new(seed);
    let n = (SIDE * SIDE) as usize;
    let mut cells = vec![0u8; n];
    for c in cells.iter_mut() {
        *c = if rng.chance(0.2) {
            255
        } else {
            rng.below(4) as u8
        };
    }
    let walkable = |rng: &mut SplitMix64, cells: &mut [u8]| -> (u32, u32) {
        let i = rng.below(n as u64) as usize;
        if cells[i] == 255 {
            cells[i] = 0;
        }
        ((i as u32) % SIDE, (i as u32) / SIDE)
    };
    let start = walkable(&mut rng, &mut cells);
    let goal = walkable(&mut rng, &mut cells);
    let flow_goals = vec![
        walkable(&mut rng, &mut cells),
        walkable(&mut rng, &mut cells),
    ];
    let mut edges = Vec::new();
    for y in 0..LATTICE {
        for x in 0..LATTICE {
            let v = y * LATTICE + x;
            for (dx, dy) in [(1, 0), (0, 1)] {
                let (nx, ny) = (x + dx, y + dy);
                if nx < LATTICE && ny < LATTICE {
                    let u = ny * LATTICE + nx;
                    edges.push((v, u, rng.range(1, 9) as f64));
                    edges.push((u, v, rng.range(1, 9) as f64));
                }
            }
        }
    }
    let edge_count = edges.len() as u64;
    let nodes = u64::from(LATTICE * LATTICE);
    let mode = if rng.chance(0.5) {
        ModeName::Lpa
    } else {
        ModeName::DStarLite
    };
    let mut inputs = Vec::with_capacity(frames);
    for _ in 0..frames {
        let count = rng.range(1, 3);
        let mut frame = Vec::new();
        for _ in 0..count {
            let r = rng.unit();
            let budget = rng.range(1, 16) as i128;
            let op: Vec<i128> = if r < 0.05 {
                let cell = rng.below(n as u64) as i128;
                let area = [0, 1, 2, 3, 255][rng.below(5) as usize];
                vec![0, cell % SIDE as i128, cell / SIDE as i128, area]
            } else if r < 0.10 {
                vec![
                    5,
                    rng.below(edge_count) as i128,
                    rng.range(1, 90) as i128,
                    10,
                ]
            } else if r < 0.17 {
                let (s, g) = (rng.below(n as u64) as i128, rng.below(n as u64) as i128);
                vec![
                    3,
                    s % SIDE as i128,
                    s / SIDE as i128,
                    g % SIDE as i128,
                    g / SIDE as i128,
                ]
            } else if r < 0.24 {
                vec![6, rng.below(nodes) as i128, rng.below(nodes) as i128]
            } else {
                let code = [1, 2, 4, 7][rng.below(4) as usize];
                vec![code, budget]
            };
            frame.push(op);
        }
        inputs.push(frame);
    }
    Session {
        schema: SCHEMA.to_string(),
        version: VERSION,
        map: MapFile {
            width: SIDE,
            height: SIDE,
            cells: hex::encode(&cells),
            multipliers: vec![(1, 2.0), (2, 3.0), (3, 5.0)],
            space: None,
        },
        options: GridOptionsData {
            agent_size: 1,
            connectivity: 8,
            diagonal: 1,
            algorithm: 0,
            cell_cost: None,
            blocked: None,
            weight: 1.0,
            record: false,
            budget: 0,
        },
        graph: SyncGraph {
            node_count: LATTICE * LATTICE,
            edges,
        },
        replanner: SyncReplanner { mode, start, goal },
        flow_goals,
        containers: Vec::new(),
        inputs,
    }
}
