//! Seeded flow-field requests ([CONF.FLOW.CASES]): small square and hex maps of the replanners'
//! kinds, the option sets a flow field accepts, one to four goals (repeats included), and edit
//! scripts that mix steps (budgeted and not), runs, recomputes, cell and area edits near the
//! goals and anywhere, snapshots and rollbacks.

use super::{FlowGrid, FlowRequest, FlowStep};
use crate::grid::GridOptionsData;
use crate::prng::{derive_seed, SplitMix64};
use crate::replan::cases::map;

/// A random area for an edit: a wall with probability `wall`, else area 0-3.
fn area(rng: &mut SplitMix64, wall: f64) -> u8 {
    if rng.chance(wall) {
        255
    } else {
        rng.below(4) as u8
    }
}

/// The options of a case (square: agent sizes 1-3, both connectivities, every diagonal rule;
/// hex: agent size 1), with an iteration budget of 0-6 for `run` ([FLOW.API.OPTIONS]).
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
        record: false,
        budget: if rng.chance(0.5) { 0 } else { rng.below(7) },
    }
}

/// One to four goals; a repeated goal now and then ([FLOW.API.GOALS]).
pub fn goals(rng: &mut SplitMix64, w: u32, h: u32) -> Vec<(u32, u32)> {
    let n = 1 + rng.below(4) as usize;
    let mut out: Vec<(u32, u32)> = (0..n)
        .map(|_| (rng.below(w as u64) as u32, rng.below(h as u64) as u32))
        .collect();
    if n > 1 && rng.chance(0.2) {
        out[n - 1] = out[0];
    }
    out
}

/// The probes of a `w x h` map: the four corners and the centre, without repeats.
pub fn probes(w: u32, h: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for p in [
        (0, 0),
        (w - 1, 0),
        (0, h - 1),
        (w - 1, h - 1),
        (w / 2, h / 2),
    ] {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// A script of `len` steps (the first is an unbudgeted step). With `rollbacks`, saves and
/// rollbacks are mixed in.
pub fn script(
    rng: &mut SplitMix64,
    len: usize,
    (w, h): (u32, u32),
    goals: &[(u32, u32)],
    rollbacks: bool,
) -> Vec<FlowStep> {
    let mut out = vec![FlowStep::Step { budget: 0 }];
    let mut saved = false;
    while out.len() < len {
        let roll = rng.below(100);
        let step = if roll < 22 {
            FlowStep::Step { budget: 0 }
        } else if roll < 36 {
            FlowStep::Step {
                budget: 1 + rng.below(12),
            }
        } else if roll < 40 {
            FlowStep::Run {}
        } else if roll < 74 {
            let (x, y) = if rng.chance(0.5) {
                // Near a goal: the edits a repair must reach through the walk.
                let g = goals[rng.below(goals.len() as u64) as usize];
                let d = |rng: &mut SplitMix64, v: u32, n: u32| {
                    (v as i64 + rng.below(7) as i64 - 3).clamp(0, n as i64 - 1) as u32
                };
                (d(rng, g.0, w), d(rng, g.1, h))
            } else {
                (rng.below(w as u64) as u32, rng.below(h as u64) as u32)
            };
            FlowStep::SetCell {
                x,
                y,
                area: area(rng, 0.35),
            }
        } else if roll < 76 {
            FlowStep::SetArea {
                area: rng.below(4) as u8,
                multiplier: [0.5, 1.0, 2.0, 3.25][rng.below(4) as usize],
            }
        } else if roll < 79 {
            FlowStep::Recompute {
                budget: rng.below(3) * 5,
            }
        } else if roll < 81 {
            // An edit outside the map: an error step that changes nothing.
            FlowStep::SetCell {
                x: w + rng.below(3) as u32,
                y: rng.below(h as u64) as u32,
                area: 0,
            }
        } else if rollbacks && roll < 87 {
            saved = true;
            FlowStep::Save {}
        } else if rollbacks && saved && roll < 93 {
            if rng.chance(0.25) {
                FlowStep::RollbackGrid {}
            } else {
                FlowStep::Rollback {}
            }
        } else {
            FlowStep::StepUntilDone {
                budget: 1 + rng.below(6),
            }
        };
        out.push(step);
    }
    out
}

/// Generated request `i` of a run seeded `base`: side `3..=max_side`, `len` script steps.
pub fn request(base: u64, i: u64, max_side: u32, len: usize) -> FlowRequest {
    let mut rng = SplitMix64::new(derive_seed(base, i));
    let hex = i % 3 == 2;
    let w = 3 + rng.below(u64::from(max_side - 2)) as u32;
    let h = 3 + rng.below(u64::from(max_side - 2)) as u32;
    let map = map(&mut rng, w, h, i / 3);
    let options = options(&mut rng, hex);
    let goals = goals(&mut rng, w, h);
    let script = script(&mut rng, len, (w, h), &goals, true);
    FlowRequest {
        grid: FlowGrid {
            hex_layout: hex.then(|| (i / 6 % 4) as i32),
            map,
        },
        options,
        goals,
        script,
        probes: probes(w, h),
    }
}
