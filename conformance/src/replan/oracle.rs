//! The independent replanning oracle ([CONF.REPLAN.ORACLE]): it replays a request's script on its
//! own copy of the grid and, after every replan that finished, checks the reply against a plain
//! Dijkstra over the moves of spec/replanning.md §2 (square moves through the grid oracle's
//! [`MoveGraph`], hex moves written here from spec/grids.md §6.1). Shares no code with either
//! crate.

use super::{ModeName, ReplanReply, ReplanRequest, ReplanStep};
use crate::grid::oracle::MoveGraph;
use crate::grid::{GridMap, GridOptionsData};

/// [GRID.HEX.OFFSETS] Odd-r rows (even, odd), in hex neighbour order.
const ODD_R: [[(i64, i64); 6]; 2] = [
    [(0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1)],
    [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1)],
];
/// [GRID.HEX.OFFSETS] Odd-q columns (even, odd).
const ODD_Q: [[(i64, i64); 6]; 2] = [
    [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)],
    [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)],
];

/// The simulated world: the map as the script has edited it, and the ends.
#[derive(Clone)]
struct World {
    map: GridMap,
    start: (u32, u32),
    goal: (u32, u32),
}

/// `(v, c(u, v))` for every allowed move out of `u` ([REPLAN.MOVE.SQUARE], [REPLAN.MOVE.HEX],
/// [REPLAN.MOVE.COST]; the flow fields' moves too, [FLOW.MOVE]).
pub(crate) fn moves_of(
    map: &GridMap,
    hex_layout: Option<i32>,
    options: &GridOptionsData,
) -> Vec<Vec<(u32, f64)>> {
    let (w, h) = (map.width as i64, map.height as i64);
    let n = (w * h) as usize;
    let mut out = vec![Vec::new(); n];
    match hex_layout {
        None => {
            let g = MoveGraph::new(map, options);
            for (u, list) in out.iter_mut().enumerate() {
                let (x, y) = (u as i64 % w, u as i64 / w);
                if !g.passable(x, y) {
                    continue;
                }
                for (v, diagonal) in g.moves(u as u32) {
                    if let Some(c) = g.move_cost(u as u32, v, diagonal) {
                        list.push((v, c));
                    }
                }
            }
        }
        Some(layout) => {
            for (u, list) in out.iter_mut().enumerate() {
                let (x, y) = (u as i64 % w, u as i64 / w);
                if map.cells[u] == 255 {
                    continue;
                }
                let (row, col) = ((y & 1) as usize, (x & 1) as usize);
                let offsets = match layout {
                    0 => ODD_R[row],
                    1 => ODD_R[1 - row],
                    2 => ODD_Q[col],
                    _ => ODD_Q[1 - col],
                };
                for (dx, dy) in offsets {
                    let (vx, vy) = (x + dx, y + dy);
                    if vx < 0 || vy < 0 || vx >= w || vy >= h {
                        continue;
                    }
                    let v = (vy * w + vx) as usize;
                    if let Some(m) = map.multiplier(map.cells[v]) {
                        list.push((v as u32, 1.0 * m));
                    }
                }
            }
        }
    }
    out
}

/// Dijkstra from `source` with sums in the replanner's order: forward `d(u) + c(u, v)` for LPA*,
/// backward `c(v, u) + d(u)` over reversed moves for D* Lite ([REPLAN.UPDATE]).
fn distances(moves: &[Vec<(u32, f64)>], source: u32, forward: bool) -> Vec<f64> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = moves.len();
    let mut into: Vec<Vec<(u32, f64)>> = vec![Vec::new(); n];
    if !forward {
        for (u, list) in moves.iter().enumerate() {
            for &(v, c) in list {
                into[v as usize].push((u as u32, c));
            }
        }
    }
    let mut d = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::new();
    d[source as usize] = 0.0;
    heap.push(Reverse((0u64, source)));
    while let Some(Reverse((bits, u))) = heap.pop() {
        let u = u as usize;
        if done[u] || f64::from_bits(bits) != d[u] {
            continue;
        }
        done[u] = true;
        let list = if forward { &moves[u] } else { &into[u] };
        for &(v, c) in list {
            let cand = if forward { d[u] + c } else { c + d[u] };
            if cand < d[v as usize] {
                d[v as usize] = cand;
                // Non-negative f64 bit patterns order as the values do.
                heap.push(Reverse((cand.to_bits(), v)));
            }
        }
    }
    d
}

/// [CONF.REPLAN.ORACLE] Checks every finished replan of `reply` against the oracle; the first
/// problem, in words. Stops at a `restore` or `restore_onto` step (foreign bytes have no
/// oracle).
pub fn check(request: &ReplanRequest, reply: &ReplanReply) -> Option<String> {
    let ReplanReply::Ran { steps, .. } = reply else {
        return None;
    };
    let Ok(cells) = hex::decode(&request.grid.map.cells) else {
        return Some("the request's cells are not hex".into());
    };
    let m = &request.grid.map;
    let mut world = World {
        map: GridMap {
            width: m.width,
            height: m.height,
            cells,
            multipliers: m.multipliers.clone(),
            space: m.space,
        },
        start: request.start,
        goal: request.goal,
    };
    let mut saved: Option<World> = None;
    let lpa = request.mode == ModeName::Lpa;
    for (i, (step, got)) in request.script.iter().zip(steps).enumerate() {
        let ok = got.error.is_none();
        match step {
            ReplanStep::SetCell { x, y, area } if ok => {
                let at = (*y * world.map.width + *x) as usize;
                world.map.cells[at] = *area;
            }
            ReplanStep::SetArea { area, multiplier } if ok => {
                world.map.multipliers.push((*area, *multiplier));
            }
            ReplanStep::SetStart { x, y } if ok => world.start = (*x, *y),
            ReplanStep::SetGoal { x, y } if ok => world.goal = (*x, *y),
            ReplanStep::Save {} => saved = Some(world.clone()),
            ReplanStep::Rollback {} if ok => {
                if let Some(s) = &saved {
                    world = s.clone();
                }
            }
            ReplanStep::Restore { .. } | ReplanStep::RestoreOnto { .. } => return None,
            ReplanStep::Replan { .. } | ReplanStep::ReplanUntilDone { .. }
                if got.status.is_some_and(|s| s == 2 || s == 3) =>
            {
                let w = world.map.width;
                let s = world.start.1 * w + world.start.0;
                let t = world.goal.1 * w + world.goal.0;
                let moves = moves_of(&world.map, request.grid.hex_layout, &request.options);
                let (source, target) = if lpa { (s, t) } else { (t, s) };
                let d = distances(&moves, source, lpa);
                let want = d[target as usize];
                let found = got.status == Some(2);
                if found != (want < f64::INFINITY) {
                    return Some(format!(
                        "step {i}: status {:?}, but Dijkstra's cost is {want:?}",
                        got.status
                    ));
                }
                if got.cost.0.to_bits() != want.to_bits() {
                    return Some(format!(
                        "step {i}: cost {:?} (bits {:016x}), Dijkstra {want:?} (bits {:016x})",
                        got.cost.0,
                        got.cost.0.to_bits(),
                        want.to_bits()
                    ));
                }
                if found {
                    if let Some(p) = path_problem(&got.path, &moves, s, t, lpa, got.cost.0) {
                        return Some(format!("step {i}: {p}"));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// The path runs from `s` to `t` by allowed moves and its cost, summed in the replanner's order
/// (LPA* from the start, D* Lite from the goal), is `want`.
fn path_problem(
    path: &[u32],
    moves: &[Vec<(u32, f64)>],
    s: u32,
    t: u32,
    lpa: bool,
    want: f64,
) -> Option<String> {
    if path.first() != Some(&s) || path.last() != Some(&t) {
        return Some(format!(
            "the path runs {:?} .. {:?}, not from the start {s} to the goal {t}",
            path.first(),
            path.last()
        ));
    }
    let mut costs = Vec::with_capacity(path.len());
    for (k, pair) in path.windows(2).enumerate() {
        match moves[pair[0] as usize].iter().find(|m| m.0 == pair[1]) {
            Some(&(_, c)) => costs.push(c),
            None => {
                return Some(format!(
                    "path position {k}: no allowed move {} -> {}",
                    pair[0], pair[1]
                ))
            }
        }
    }
    let sum = if lpa {
        costs.iter().fold(0.0, |a, &c| a + c)
    } else {
        costs.iter().rev().fold(0.0, |a, &c| c + a)
    };
    (sum.to_bits() != want.to_bits())
        .then(|| format!("the path's moves sum to {sum:?}, not the cost {want:?}"))
}
