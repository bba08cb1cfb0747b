//! Bench-shared grid code of `benches/benches/` (not part of the kit): the `Ord` f64 for
//! `pathfinding`, connected components and queries under the MovingAI moves, exact octile cost
//! pairs of paths, pathfinding's A* over a `MovingAiMap`, and the onepath `Grid` of a map.
#![allow(dead_code)]

use onepath_conformance::movingai::{move_allowed, MovingAiMap, OctileCost, MOVES};
use onepath_conformance::prng::SplitMix64;
use std::cmp::Ordering;

/// An `Ord` f64 for `pathfinding` (ordered by `total_cmp`; costs are never NaN).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct OrdF64(pub f64);
impl Eq for OrdF64 {}
impl PartialOrd for OrdF64 {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for OrdF64 {
    fn cmp(&self, o: &Self) -> Ordering {
        self.0.total_cmp(&o.0)
    }
}
impl std::ops::Add for OrdF64 {
    type Output = OrdF64;
    fn add(self, o: OrdF64) -> OrdF64 {
        OrdF64(self.0 + o.0)
    }
}
impl pathfinding::num_traits::Zero for OrdF64 {
    fn zero() -> Self {
        OrdF64(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

/// Connected components under the MovingAI moves (8-connected, no corner cutting); `u32::MAX`
/// for walls.
pub fn components(m: &MovingAiMap) -> Vec<u32> {
    let (w, h) = (m.width(), m.height());
    let mut comp = vec![u32::MAX; w * h];
    let mut next = 0;
    let mut stack = Vec::new();
    for s in 0..w * h {
        if comp[s] != u32::MAX || !m.passable((s % w) as i64, (s / w) as i64) {
            continue;
        }
        comp[s] = next;
        stack.push(s);
        while let Some(u) = stack.pop() {
            let (x, y) = ((u % w) as i64, (u / w) as i64);
            for &(dx, dy) in &MOVES {
                if move_allowed(m, x, y, dx, dy) {
                    let v = (y + dy) as usize * w + (x + dx) as usize;
                    if comp[v] == u32::MAX {
                        comp[v] = next;
                        stack.push(v);
                    }
                }
            }
        }
        next += 1;
    }
    comp
}

pub type Query = ((usize, usize), (usize, usize));

/// `count` seeded uniform pairs of distinct passable cells in the same component.
pub fn connected_queries(m: &MovingAiMap, count: usize, seed: u64) -> Vec<Query> {
    let w = m.width();
    let comp = components(m);
    let open: Vec<usize> = (0..comp.len()).filter(|&c| comp[c] != u32::MAX).collect();
    let mut r = SplitMix64::new(seed);
    let mut queries = Vec::new();
    while queries.len() < count {
        let a = open[r.below(open.len() as u64) as usize];
        let b = open[r.below(open.len() as u64) as usize];
        if comp[a] == comp[b] && a != b {
            queries.push(((a % w, a / w), (b % w, b / w)));
        }
    }
    queries
}

/// The exact cost pair of a path of unit steps, and whether every step is a unit step.
pub fn pair_of_path(cells: &[(usize, usize)]) -> (OctileCost, bool) {
    let mut c = OctileCost::default();
    let mut unit_steps = true;
    for w in cells.windows(2) {
        let diag = w[0].0 != w[1].0 && w[0].1 != w[1].1;
        let long = w[0].0.abs_diff(w[1].0) > 1 || w[0].1.abs_diff(w[1].1) > 1;
        unit_steps &= !long;
        c = c.step(diag);
    }
    (c, unit_steps)
}

/// `pathfinding::prelude::astar` with the MovingAI moves, f64 costs and the octile estimate.
pub fn pathfinding_astar(
    m: &MovingAiMap,
    a: (usize, usize),
    g: (usize, usize),
) -> Vec<(usize, usize)> {
    pathfinding::prelude::astar(
        &a,
        |&(x, y)| {
            let (x, y) = (x as i64, y as i64);
            MOVES
                .iter()
                .filter(move |&&(dx, dy)| move_allowed(m, x, y, dx, dy))
                .map(move |&(dx, dy)| {
                    let c = if dx != 0 && dy != 0 {
                        std::f64::consts::SQRT_2
                    } else {
                        1.0
                    };
                    (((x + dx) as usize, (y + dy) as usize), OrdF64(c))
                })
                .collect::<Vec<_>>()
        },
        |&(x, y)| {
            let (dx, dy) = (x.abs_diff(g.0) as f64, y.abs_diff(g.1) as f64);
            OrdF64(dx.max(dy) - dx.min(dy) + dx.min(dy) * std::f64::consts::SQRT_2)
        },
        |&p| p == g,
    )
    .expect("connected")
    .0
}

/// The onepath `Grid` of a map (walls = `WALL`, everything else area 0).
pub fn onepath_grid(m: &MovingAiMap) -> onepath::Grid {
    let (w, h) = (m.width(), m.height());
    let mut grid = onepath::Grid::new(w, h).expect("grid");
    for y in 0..h {
        for x in 0..w {
            if !m.passable(x as i64, y as i64) {
                grid.set_cell(x, y, onepath::WALL).expect("cell");
            }
        }
    }
    grid
}

/// The `onepath-reference` `Grid` of a map (walls = `WALL`, everything else area 0).
pub fn reference_grid(m: &MovingAiMap) -> onepath_reference::Grid {
    let (w, h) = (m.width(), m.height());
    let mut grid = onepath_reference::Grid::new(w, h).expect("grid");
    for y in 0..h {
        for x in 0..w {
            if !m.passable(x as i64, y as i64) {
                grid.set_cell(x, y, onepath_reference::WALL).expect("cell");
            }
        }
    }
    grid
}

/// `grid_pathfinding`'s grid of a map (its components generated, as its JPS needs).
pub fn grid_pathfinding_grid(m: &MovingAiMap) -> grid_pathfinding::PathingGrid {
    use grid_util::grid::ValueGrid;
    let mut pg = grid_pathfinding::PathingGrid::new(m.width(), m.height(), false);
    for y in 0..m.height() {
        for x in 0..m.width() {
            if !m.passable(x as i64, y as i64) {
                pg.set(x as i32, y as i32, true);
            }
        }
    }
    pg.generate_components();
    pg
}

/// `grid_pathfinding`'s JPS path from `a` to `g`, as cells.
pub fn grid_pathfinding_path(
    pg: &grid_pathfinding::PathingGrid,
    a: (usize, usize),
    g: (usize, usize),
) -> Option<Vec<(usize, usize)>> {
    let p = pg.get_path_single_goal(
        grid_util::point::Point::new(a.0 as i32, a.1 as i32),
        grid_util::point::Point::new(g.0 as i32, g.1 as i32),
        false,
    )?;
    Some(p.iter().map(|q| (q.x as usize, q.y as usize)).collect())
}

/// Whether the bench order is reversed (`ONEPATH_BENCH_REVERSE=1`).
pub fn reverse_order() -> bool {
    std::env::var("ONEPATH_BENCH_REVERSE").is_ok_and(|v| v == "1")
}
