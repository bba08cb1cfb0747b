//! Seeded replanner requests ([CONF.REPLAN.CASES]): small square and hex maps of several kinds,
//! the option sets a replanner accepts, and edit scripts that mix replans (budgeted and not),
//! cell and area edits near and away from the line between the ends, end moves, restarts,
//! snapshots and rollbacks.

use super::{ModeName, ReplanGrid, ReplanRequest, ReplanStep};
use crate::grid::vectors::MapFile;
use crate::grid::GridOptionsData;
use crate::prng::{derive_seed, SplitMix64};

/// The multipliers every generated map sets (areas 1-3; area 0 stays 1.0).
pub const MULTIPLIERS: [(u8, f64); 3] = [(1, 0.5), (2, 2.0), (3, 3.25)];

/// A random area for an edit or a cell: a wall with probability `wall`, else area 0-3.
fn area(rng: &mut SplitMix64, wall: f64) -> u8 {
    if rng.chance(wall) {
        255
    } else {
        rng.below(4) as u8
    }
}

/// The map of case `i`: kinds cycle through open, random walls and rooms.
pub fn map(rng: &mut SplitMix64, width: u32, height: u32, kind: u64) -> MapFile {
    let n = (width * height) as usize;
    let mut cells = vec![0u8; n];
    match kind % 3 {
        0 => {
            for c in cells.iter_mut() {
                *c = area(rng, 0.05);
            }
        }
        1 => {
            for c in cells.iter_mut() {
                *c = area(rng, 0.3);
            }
        }
        _ => {
            // Rooms: walls on every 5th row and column with a door in each wall segment.
            for y in 0..height {
                for x in 0..width {
                    let i = (y * width + x) as usize;
                    cells[i] = if (x % 5 == 4 || y % 5 == 4) && rng.below(5) != 0 {
                        255
                    } else {
                        area(rng, 0.0)
                    };
                }
            }
        }
    }
    MapFile {
        width,
        height,
        cells: hex::encode(&cells),
        multipliers: MULTIPLIERS.to_vec(),
        space: None,
    }
}

/// The options of case `i` (square: agent sizes 1-3, both connectivities, every diagonal rule;
/// hex: agent size 1); A* or Dijkstra; weight 1.0 ([REPLAN.API.OPTIONS]).
pub fn options(rng: &mut SplitMix64, hex: bool) -> GridOptionsData {
    GridOptionsData {
        agent_size: if hex || rng.chance(0.6) {
            1
        } else {
            2 + rng.below(2) as u32
        },
        connectivity: if rng.chance(0.3) { 4 } else { 8 },
        diagonal: rng.below(3) as u8,
        algorithm: rng.below(2) as u8,
        cell_cost: None,
        blocked: None,
        weight: 1.0,
        record: true,
        budget: 0,
    }
}

/// A cell near the segment between `a` and `b` (within 2 cells), clamped to the map.
fn near_line(rng: &mut SplitMix64, a: (u32, u32), b: (u32, u32), w: u32, h: u32) -> (u32, u32) {
    let t = rng.unit();
    let lerp = |p: u32, q: u32| p as f64 + (q as f64 - p as f64) * t;
    let jitter = |rng: &mut SplitMix64| rng.below(5) as f64 - 2.0;
    let x = (lerp(a.0, b.0) + jitter(rng))
        .round()
        .clamp(0.0, (w - 1) as f64) as u32;
    let y = (lerp(a.1, b.1) + jitter(rng))
        .round()
        .clamp(0.0, (h - 1) as f64) as u32;
    (x, y)
}

/// A script of `len` steps (the first is an unbudgeted replan). With `rollbacks`, saves and
/// rollbacks are mixed in; with `foreign`, the cells edited may lie outside the map (errors).
pub fn script(
    rng: &mut SplitMix64,
    len: usize,
    (w, h): (u32, u32),
    mut start: (u32, u32),
    goal: (u32, u32),
    mode: ModeName,
    rollbacks: bool,
) -> Vec<ReplanStep> {
    let mut out = vec![ReplanStep::Replan { budget: 0 }];
    let mut saved = false;
    let mut goal = goal;
    while out.len() < len {
        let roll = rng.below(100);
        let step = if roll < 28 {
            ReplanStep::Replan { budget: 0 }
        } else if roll < 38 {
            ReplanStep::Replan {
                budget: 1 + rng.below(8),
            }
        } else if roll < 72 {
            let (x, y) = if rng.chance(0.6) {
                near_line(rng, start, goal, w, h)
            } else {
                (rng.below(w as u64) as u32, rng.below(h as u64) as u32)
            };
            ReplanStep::SetCell {
                x,
                y,
                area: area(rng, 0.35),
            }
        } else if roll < 74 {
            ReplanStep::SetArea {
                area: rng.below(4) as u8,
                multiplier: [0.5, 1.0, 2.0, 3.25][rng.below(4) as usize],
            }
        } else if roll < 84 {
            // D* Lite's start walks to a neighbour cell; LPA*'s jumps (each move restarts it).
            let (x, y) = if mode == ModeName::DStarLite {
                let dx = rng.below(3) as i64 - 1;
                let dy = rng.below(3) as i64 - 1;
                (
                    (start.0 as i64 + dx).clamp(0, w as i64 - 1) as u32,
                    (start.1 as i64 + dy).clamp(0, h as i64 - 1) as u32,
                )
            } else {
                (rng.below(w as u64) as u32, rng.below(h as u64) as u32)
            };
            start = (x, y);
            ReplanStep::SetStart { x, y }
        } else if roll < 86 {
            goal = (rng.below(w as u64) as u32, rng.below(h as u64) as u32);
            ReplanStep::SetGoal {
                x: goal.0,
                y: goal.1,
            }
        } else if roll < 88 {
            ReplanStep::InvalidateAll {}
        } else if roll < 90 {
            // An edit outside the map: an error step that changes nothing.
            ReplanStep::SetCell {
                x: w + rng.below(3) as u32,
                y: rng.below(h as u64) as u32,
                area: 0,
            }
        } else if rollbacks && roll < 95 {
            saved = true;
            ReplanStep::Save {}
        } else if rollbacks && saved {
            ReplanStep::Rollback {}
        } else {
            ReplanStep::Replan { budget: 0 }
        };
        out.push(step);
    }
    out
}

/// Generated request `i` of a run seeded `base`: side `4..=max_side`, `len` script steps.
pub fn request(base: u64, i: u64, max_side: u32, len: usize) -> ReplanRequest {
    let mut rng = SplitMix64::new(derive_seed(base, i));
    let hex = i % 3 == 2;
    let w = 4 + rng.below(u64::from(max_side - 3)) as u32;
    let h = 4 + rng.below(u64::from(max_side - 3)) as u32;
    let map = map(&mut rng, w, h, i / 3);
    let options = options(&mut rng, hex);
    let mode = if i % 2 == 0 {
        ModeName::Lpa
    } else {
        ModeName::DStarLite
    };
    let start = (rng.below(w as u64) as u32, rng.below(h as u64) as u32);
    let goal = (rng.below(w as u64) as u32, rng.below(h as u64) as u32);
    let script = script(&mut rng, len, (w, h), start, goal, mode, true);
    ReplanRequest {
        grid: ReplanGrid {
            hex_layout: hex.then(|| (i / 6 % 4) as i32),
            map,
        },
        options,
        mode,
        start,
        goal,
        script,
    }
}
