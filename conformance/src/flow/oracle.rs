//! The independent flow-field oracle ([CONF.FLOW.ORACLE]): it replays a request's script on its
//! own copy of the grid and, after every step that returned `Complete`, rebuilds the field from
//! scratch — a multi-source Dijkstra from the goals over the moves of spec/flow-fields.md §2
//! (the replanning oracle's move lists) and the direction rule [FLOW.DIR.RULE] — and compares its
//! hash with the reply's. On the final field it follows the steps from every reached cell and
//! checks that they reach a goal at exactly the cell's cost. Shares no code with either crate.

use super::{field_sha256, FlowReply, FlowRequest, FlowStep};
use crate::grid::GridMap;
use crate::replan::oracle::moves_of;

/// Costs by Dijkstra from `goals` over reversed moves: `d(u) = min c(u, v) + d(v)`.
pub fn costs(moves: &[Vec<(u32, f64)>], goals: &[u32]) -> Vec<f64> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = moves.len();
    let mut into: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
    for (u, list) in moves.iter().enumerate() {
        for &(v, c) in list {
            into[v as usize].push((u as u32, c));
        }
    }
    let mut d = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::new();
    for &g in goals {
        d[g as usize] = 0.0;
        heap.push(Reverse((0u64, g)));
    }
    while let Some(Reverse((bits, v))) = heap.pop() {
        let v = v as usize;
        if done[v] || f64::from_bits(bits) != d[v] {
            continue;
        }
        done[v] = true;
        for &(u, c) in &into[v] {
            let cand = c + d[v];
            if cand < d[u as usize] {
                d[u as usize] = cand;
                // Non-negative f64 bit patterns order as the values do.
                heap.push(Reverse((cand.to_bits(), u)));
            }
        }
    }
    d
}

/// [FLOW.DIR.RULE] written again: the first move to a strictly cheaper cell with the smallest
/// `c(c, v) + cost(v)`; none for goals and unreached cells.
pub fn directions(moves: &[Vec<(u32, f64)>], d: &[f64], goals: &[u32]) -> Vec<Option<u32>> {
    (0..moves.len())
        .map(|c| {
            if goals.contains(&(c as u32)) || d[c] == f64::INFINITY {
                return None;
            }
            let mut best: Option<(u32, f64)> = None;
            for &(v, cost) in &moves[c] {
                if d[v as usize] < d[c] {
                    let value = cost + d[v as usize];
                    if best.is_none_or(|(_, b)| value < b) {
                        best = Some((v, value));
                    }
                }
            }
            best.map(|(v, _)| v)
        })
        .collect()
}

/// The goal set of `request`: distinct cell indexes.
fn goal_set(request: &FlowRequest) -> Vec<u32> {
    let w = request.grid.map.width;
    let mut g: Vec<u32> = request.goals.iter().map(|&(x, y)| y * w + x).collect();
    g.sort_unstable();
    g.dedup();
    g
}

/// [CONF.FLOW.ORACLE] Checks every completed step and the final field of `reply`; the first
/// problem, in words. Stops at a `restore` step (foreign bytes have no oracle) and at a `detach`
/// step (a field that no longer sees edits).
pub fn check(request: &FlowRequest, reply: &FlowReply) -> Option<String> {
    let FlowReply::Ran {
        steps,
        costs: final_costs,
        next: final_next,
        ..
    } = reply
    else {
        return None;
    };
    let Ok(cells) = hex::decode(&request.grid.map.cells) else {
        return Some("the request's cells are not hex".into());
    };
    let m = &request.grid.map;
    let mut world = GridMap {
        width: m.width,
        height: m.height,
        cells,
        multipliers: m.multipliers.clone(),
        space: m.space,
    };
    let goals = goal_set(request);
    let mut saved: Option<GridMap> = None;
    let mut current: Option<(Vec<Vec<(u32, f64)>>, Vec<f64>, Vec<Option<u32>>)> = None;
    for (i, (step, got)) in request.script.iter().zip(steps).enumerate() {
        let ok = got.error.is_none();
        match step {
            FlowStep::SetCell { x, y, area } if ok => {
                let at = (*y * world.width + *x) as usize;
                if world.cells[at] != *area {
                    current = None;
                }
                world.cells[at] = *area;
            }
            FlowStep::SetArea { area, multiplier } if ok => {
                world.multipliers.push((*area, *multiplier));
                current = None;
            }
            FlowStep::Save {} => saved = Some(world.clone()),
            FlowStep::Rollback {} | FlowStep::RollbackGrid {} if ok => {
                if let Some(s) = &saved {
                    world = s.clone();
                }
                current = None;
            }
            // Foreign bytes, and a field that no longer sees edits, have no oracle.
            FlowStep::Restore { .. } | FlowStep::Detach {} => return None,
            FlowStep::Step { .. }
            | FlowStep::StepUntilDone { .. }
            | FlowStep::Run {}
            | FlowStep::Recompute { .. }
                if got.returned == Some(2) =>
            {
                let moves = moves_of(&world, request.grid.hex_layout, &request.options);
                let d = costs(&moves, &goals);
                let next = directions(&moves, &d, &goals);
                let want = field_sha256(&d, &next);
                if got.field_sha256 != want {
                    return Some(format!(
                        "step {i}: the completed field's hash {} is not the oracle's {want} (Dijkstra from the goals and the direction rule)",
                        got.field_sha256
                    ));
                }
                current = Some((moves, d, next));
            }
            FlowStep::Step { .. }
            | FlowStep::StepUntilDone { .. }
            | FlowStep::Run {}
            | FlowStep::Recompute { .. } => current = None,
            _ => {}
        }
    }
    // The final field, when it is the oracle's: every step chain reaches a goal at its cost.
    let (moves, d, own_next) = current?;
    for (c, cost) in final_costs.iter().enumerate() {
        if cost.0.to_bits() != d[c].to_bits() {
            return Some(format!(
                "final field: cell {c} costs {:?}, Dijkstra {:?}",
                cost.0, d[c]
            ));
        }
        // A cell without a strictly cheaper neighbour ([FLOW.DIR.PLATEAU]) has no step, as the
        // hash check above already confirmed.
        if cost.0 == f64::INFINITY || goals.contains(&(c as u32)) || own_next[c].is_none() {
            continue;
        }
        // Each step of the walk adds up: cost(at) = c(at, next) + cost(next) (so the walk's
        // costs, added from the goal outwards, are the cell's), except where [FLOW.DIR.PLATEAU]
        // applies: cost(at) is reached only through a neighbour of equal cost (an addition that
        // rounded back), and then the step (the best strictly cheaper neighbour, if any) may
        // cost more or be missing.
        let plateau_at = |at: usize| {
            moves[at]
                .iter()
                .any(|&(v, cv)| d[v as usize] == d[at] && (cv + d[v as usize]) == d[at])
        };
        let mut at = c as u32;
        let mut walked = 0usize;
        while !goals.contains(&at) {
            let a = at as usize;
            let Some(n) = final_next[a] else {
                if moves[a].iter().any(|&(v, _)| d[v as usize] < d[a]) {
                    return Some(format!("final field: the walk from cell {c} stops at {at}"));
                }
                break;
            };
            let Some(&(_, step)) = moves[a].iter().find(|m| m.0 == n) else {
                return Some(format!(
                    "final field: no move {at} -> {n} on the walk from {c}"
                ));
            };
            if (step + d[n as usize]).to_bits() != d[a].to_bits() && !plateau_at(a) {
                return Some(format!(
                    "final field: on the walk from cell {c}, {at} -> {n} costs {step:?} + {:?}, the field says {:?} at {at}",
                    d[n as usize], d[a]
                ));
            }
            at = n;
            walked += 1;
            if walked > moves.len() {
                return Some(format!("final field: the walk from cell {c} cycles"));
            }
        }
    }
    None
}
