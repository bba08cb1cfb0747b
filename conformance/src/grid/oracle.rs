//! The independent grid oracle ([CONF.GRID.ORACLE]): the move graph of spec/grid-search.md §2-3
//! built here from the rules' text, a Dijkstra over it (exact cost pairs on uniform grids, f64
//! otherwise) and the line-of-sight rule [GS.LOS] in integers. Shares no code with either crate.

use super::{GridMap, GridOptionsData};
use crate::movingai::OctileCost;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// `SQRT_2` of [GS.COST.BASE].
pub const SQRT_2: f64 = std::f64::consts::SQRT_2;

/// The eight directions `(dx, dy)` in neighbour order [GS.DIR]: N, E, S, W, NE, SE, SW, NW.
pub const DIRS: [(i64, i64); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// The move graph of a map under options (passability, moves, costs).
pub struct MoveGraph<'a> {
    map: &'a GridMap,
    options: &'a GridOptionsData,
    passable: Vec<bool>,
}

impl<'a> MoveGraph<'a> {
    /// Builds passability ([GS.CLEAR.VALUE], [GS.PASS]) by the clearance recurrence.
    pub fn new(map: &'a GridMap, options: &'a GridOptionsData) -> MoveGraph<'a> {
        let (w, h) = (map.width as usize, map.height as usize);
        let mut clearance = vec![0u32; w * h];
        for y in (0..h).rev() {
            for x in (0..w).rev() {
                let i = y * w + x;
                if map.cells[i] == 255 {
                    continue;
                }
                let at = |xx: usize, yy: usize| {
                    if xx < w && yy < h {
                        clearance[yy * w + xx]
                    } else {
                        0
                    }
                };
                clearance[i] = (1 + at(x + 1, y).min(at(x, y + 1)).min(at(x + 1, y + 1))).min(255);
            }
        }
        let passable = (0..w * h)
            .map(|i| {
                clearance[i] >= options.agent_size
                    && !options.blocked.is_some_and(|b| b.blocked(i as u32))
            })
            .collect();
        MoveGraph {
            map,
            options,
            passable,
        }
    }

    /// Whether `(x, y)` is inside and passable.
    pub fn passable(&self, x: i64, y: i64) -> bool {
        x >= 0
            && y >= 0
            && x < self.map.width as i64
            && y < self.map.height as i64
            && self.passable[(y * self.map.width as i64 + x) as usize]
    }

    /// [GS.MOVE.STRAIGHT] / [GS.MOVE.DIAGONAL]: whether the move is allowed (ignoring hooks' costs).
    pub fn allowed(&self, x: i64, y: i64, dx: i64, dy: i64) -> bool {
        if !self.passable(x + dx, y + dy) {
            return false;
        }
        if dx == 0 || dy == 0 {
            return true;
        }
        if self.options.connectivity != 8 {
            return false;
        }
        let (a, b) = (self.passable(x + dx, y), self.passable(x, y + dy));
        match self.options.diagonal {
            0 => true,
            1 => a || b,
            _ => a && b,
        }
    }

    /// [GS.COST.MOVE]: the f64 cost of an allowed move `u -> v`, or none when the hook forbids it.
    pub fn move_cost(&self, u: u32, v: u32, diagonal: bool) -> Option<f64> {
        let base = if diagonal { SQRT_2 } else { 1.0 };
        let m = self.map.multiplier(self.map.cells[v as usize])?;
        let mut c = base * m;
        if let Some(rule) = self.options.cell_cost {
            let e = rule.extra(u, v);
            if e.is_nan() || e < 0.0 || e == f64::INFINITY {
                return None;
            }
            c += e;
        }
        Some(c)
    }

    /// Whether every area multiplier is 1 and there is no cost hook (costs are pairs).
    pub fn pairs_apply(&self) -> bool {
        self.options.cell_cost.is_none() && (0u8..=254).all(|a| self.map.multiplier(a) == Some(1.0))
    }

    /// The allowed moves out of `u`: `(v, diagonal)`.
    pub fn moves(&self, u: u32) -> impl Iterator<Item = (u32, bool)> + '_ {
        let w = self.map.width as i64;
        let (x, y) = (u as i64 % w, u as i64 / w);
        DIRS.iter()
            .filter(move |&&(dx, dy)| self.allowed(x, y, dx, dy))
            .map(move |&(dx, dy)| (((y + dy) * w + x + dx) as u32, dx != 0 && dy != 0))
    }

    /// Exact Dijkstra on pairs from `start` (uniform grids, no cost hook).
    pub fn pair_distances(&self, start: u32) -> Vec<Option<OctileCost>> {
        self.pair_dijkstra(start, None)
    }

    /// [`MoveGraph::pair_distances`]`(start)[goal]`, stopping when `goal` is settled (its
    /// distance is then final: the costs are not negative).
    pub fn pair_distance(&self, start: u32, goal: u32) -> Option<OctileCost> {
        self.pair_dijkstra(start, Some(goal))[goal as usize]
    }

    fn pair_dijkstra(&self, start: u32, stop: Option<u32>) -> Vec<Option<OctileCost>> {
        let n = self.passable.len();
        let mut dist: Vec<Option<OctileCost>> = vec![None; n];
        if !self.passable[start as usize] {
            return dist;
        }
        let mut done = vec![false; n];
        let mut heap = BinaryHeap::new();
        dist[start as usize] = Some(OctileCost::default());
        heap.push(Reverse((OctileCost::default(), start)));
        while let Some(Reverse((d, u))) = heap.pop() {
            if std::mem::replace(&mut done[u as usize], true) {
                continue;
            }
            if stop == Some(u) {
                break;
            }
            for (v, diag) in self.moves(u) {
                let nd = d.step(diag);
                if !done[v as usize] && dist[v as usize].map_or(true, |old| nd < old) {
                    dist[v as usize] = Some(nd);
                    heap.push(Reverse((nd, v)));
                }
            }
        }
        dist
    }

    /// Dijkstra in f64 from `start` with [GS.COST.MOVE] costs (any grid).
    pub fn f64_distances(&self, start: u32) -> Vec<f64> {
        self.f64_dijkstra(start, None, |u, v, diag| self.move_cost(u, v, diag))
    }

    /// [`MoveGraph::f64_distances`]`(start)[goal]`, stopping when `goal` is settled (its
    /// distance is then final: the costs are not negative).
    pub fn f64_distance(&self, start: u32, goal: u32) -> f64 {
        self.f64_dijkstra(start, Some(goal), |u, v, diag| self.move_cost(u, v, diag))[goal as usize]
    }

    /// Dijkstra in f64 with Euclidean step costs (1 or sqrt 2) over the same moves: the grid
    /// bound an any-angle path must not exceed ([CONF.GRID.THETA]).
    pub fn euclid_distances(&self, start: u32) -> Vec<f64> {
        self.f64_dijkstra(start, None, |_, _, diag| {
            Some(if diag { SQRT_2 } else { 1.0 })
        })
    }

    /// [`MoveGraph::euclid_distances`]`(start)[goal]`, stopping when `goal` is settled.
    pub fn euclid_distance(&self, start: u32, goal: u32) -> f64 {
        self.f64_dijkstra(start, Some(goal), |_, _, diag| {
            Some(if diag { SQRT_2 } else { 1.0 })
        })[goal as usize]
    }

    fn f64_dijkstra(
        &self,
        start: u32,
        stop: Option<u32>,
        cost: impl Fn(u32, u32, bool) -> Option<f64>,
    ) -> Vec<f64> {
        let n = self.passable.len();
        let mut dist = vec![f64::INFINITY; n];
        if !self.passable[start as usize] {
            return dist;
        }
        let mut done = vec![false; n];
        let mut heap = BinaryHeap::new();
        dist[start as usize] = 0.0;
        heap.push(Reverse((0u64, start)));
        while let Some(Reverse((bits, u))) = heap.pop() {
            if std::mem::replace(&mut done[u as usize], true) {
                continue;
            }
            if stop == Some(u) {
                break;
            }
            let d = f64::from_bits(bits);
            for (v, diag) in self.moves(u) {
                let Some(c) = cost(u, v, diag) else { continue };
                let nd = d + c;
                if !done[v as usize] && nd < dist[v as usize] {
                    dist[v as usize] = nd;
                    // Non-negative doubles order like their bit patterns.
                    heap.push(Reverse((nd.to_bits(), v)));
                }
            }
        }
        dist
    }

    /// [GS.LOS]: every cell whose closed square meets the closed segment between the centres is
    /// passable. Exact: doubled integer coordinates and cross products.
    pub fn line_of_sight(&self, p: u32, q: u32) -> bool {
        let w = self.map.width as i64;
        let (px, py) = (2 * (p as i64 % w) + 1, 2 * (p as i64 / w) + 1);
        let (qx, qy) = (2 * (q as i64 % w) + 1, 2 * (q as i64 / w) + 1);
        let (lo_x, hi_x) = (px.min(qx), px.max(qx));
        let (lo_y, hi_y) = (py.min(qy), py.max(qy));
        // Cells whose square [2x, 2x+2] overlaps [lo, hi] on each axis.
        let cells_x = (lo_x - 2).div_euclid(2).max(0)..=hi_x.div_euclid(2);
        for cy in (lo_y - 2).div_euclid(2).max(0)..=hi_y.div_euclid(2) {
            for cx in cells_x.clone() {
                let (x0, x1, y0, y1) = (2 * cx, 2 * cx + 2, 2 * cy, 2 * cy + 2);
                if x1 < lo_x || x0 > hi_x || y1 < lo_y || y0 > hi_y {
                    continue;
                }
                let side = |x: i64, y: i64| ((qx - px) * (y - py) - (qy - py) * (x - px)).signum();
                let s = [side(x0, y0), side(x1, y0), side(x0, y1), side(x1, y1)];
                let all_pos = s.iter().all(|&v| v > 0);
                let all_neg = s.iter().all(|&v| v < 0);
                if !all_pos && !all_neg && !self.passable(cx, cy) {
                    return false;
                }
            }
        }
        true
    }

    /// [GS.EST.EUCLID].
    pub fn euclid(&self, p: u32, q: u32) -> f64 {
        let w = self.map.width as i64;
        let dx = p as i64 % w - q as i64 % w;
        let dy = p as i64 / w - q as i64 / w;
        ((dx * dx + dy * dy) as f64).sqrt()
    }
}
