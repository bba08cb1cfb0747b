//! Test support for the replanner tests: a generator, move rules written from the spec
//! ([REPLAN.MOVE.SQUARE], [GRID.HEX.MOVE]) independently of the crate, a plain O(N^2) Dijkstra
//! oracle and a move-by-move path check.
#![allow(dead_code)]
use onepath::*;

pub mod sim;

/// Test-local xorshift generator.
pub struct Xs(pub u64);
impl Xs {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Which grid the oracle runs over.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    Square {
        w: usize,
        h: usize,
        k: usize,
        four: bool,
        rule: DiagonalRule,
    },
    Hex {
        w: usize,
        h: usize,
        layout: HexLayout,
    },
}

const SQ: [(i64, i64); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// [GRID.HEX.OFFSETS], written again from the clause.
fn hex_offsets(layout: HexLayout, x: i64, y: i64) -> [(i64, i64); 6] {
    let r_even = [(0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
    let r_odd = [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1)];
    let q_even = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)];
    let q_odd = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];
    let (ry, qx) = (y % 2 == 1, x % 2 == 1);
    match layout {
        HexLayout::OddR => {
            if ry {
                r_odd
            } else {
                r_even
            }
        }
        HexLayout::EvenR => {
            if ry {
                r_even
            } else {
                r_odd
            }
        }
        HexLayout::OddQ => {
            if qx {
                q_odd
            } else {
                q_even
            }
        }
        HexLayout::EvenQ => {
            if qx {
                q_even
            } else {
                q_odd
            }
        }
    }
}

impl Shape {
    pub fn wh(&self) -> (usize, usize) {
        match *self {
            Shape::Square { w, h, .. } | Shape::Hex { w, h, .. } => (w, h),
        }
    }

    /// [GS.PASS] The k x k square anchored at (x, y) is inside and wall-free.
    fn pass(&self, cells: &[u8], x: i64, y: i64) -> bool {
        let (w, h) = self.wh();
        let k = match *self {
            Shape::Square { k, .. } => k as i64,
            Shape::Hex { .. } => 1,
        };
        if x < 0 || y < 0 || x + k > w as i64 || y + k > h as i64 {
            return false;
        }
        for yy in y..y + k {
            for xx in x..x + k {
                if cells[yy as usize * w + xx as usize] == WALL {
                    return false;
                }
            }
        }
        true
    }

    /// Allowed moves u -> v with base cost, in neighbour order.
    pub fn moves(&self, cells: &[u8], u: usize) -> Vec<(usize, f64)> {
        let (w, h) = self.wh();
        let (x, y) = ((u % w) as i64, (u / w) as i64);
        let mut out = Vec::new();
        match *self {
            Shape::Square { four, rule, .. } => {
                if !self.pass(cells, x, y) {
                    return out;
                }
                for (d, &(dx, dy)) in SQ.iter().enumerate() {
                    if four && d >= 4 {
                        break;
                    }
                    let (vx, vy) = (x + dx, y + dy);
                    if !self.pass(cells, vx, vy) {
                        continue;
                    }
                    if d >= 4 {
                        let a = self.pass(cells, x + dx, y);
                        let b = self.pass(cells, x, y + dy);
                        let ok = match rule {
                            DiagonalRule::Always => true,
                            DiagonalRule::AtMostOneBlocked => a || b,
                            DiagonalRule::NoneBlocked => a && b,
                        };
                        if !ok {
                            continue;
                        }
                    }
                    let base = if d < 4 { 1.0 } else { std::f64::consts::SQRT_2 };
                    out.push((vy as usize * w + vx as usize, base));
                }
            }
            Shape::Hex { layout, .. } => {
                if cells[u] == WALL {
                    return out;
                }
                for (dx, dy) in hex_offsets(layout, x, y) {
                    let (vx, vy) = (x + dx, y + dy);
                    if vx < 0 || vy < 0 || vx >= w as i64 || vy >= h as i64 {
                        continue;
                    }
                    let v = vy as usize * w + vx as usize;
                    if cells[v] != WALL {
                        out.push((v, 1.0));
                    }
                }
            }
        }
        out
    }
}

/// Plain O(N^2) Dijkstra from `source`. `forward`: `d(v) = d(u) + c(u, v)` over moves `u -> v`
/// (LPA*'s sums); else over reversed moves `v -> u`: `d(v) = c(v, u) + d(u)` (D* Lite's sums).
/// `c(a, b) = base * m(area(b))`.
pub fn dijkstra(
    shape: &Shape,
    cells: &[u8],
    mult: &[f64],
    source: usize,
    forward: bool,
) -> Vec<f64> {
    let n = cells.len();
    let mut d = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    d[source] = 0.0;
    loop {
        let mut u = usize::MAX;
        for i in 0..n {
            if !done[i] && d[i] < f64::INFINITY && (u == usize::MAX || d[i] < d[u]) {
                u = i;
            }
        }
        if u == usize::MAX {
            return d;
        }
        done[u] = true;
        for (v, base) in shape.moves(cells, u) {
            // Moves are symmetric: v -> u is allowed with the same base.
            let val = if forward {
                d[u] + base * mult[cells[v] as usize]
            } else {
                base * mult[cells[u] as usize] + d[u]
            };
            if val < d[v] {
                d[v] = val;
            }
        }
    }
}

/// Checks `path` move by move from `start` to `goal`; returns its cost summed in the order of the
/// replanner's `g` (LPA*: from the start, `g + c`; D* Lite: from the goal, `c + g`).
pub fn check_path(
    shape: &Shape,
    cells: &[u8],
    mult: &[f64],
    path: &[u32],
    start: u32,
    goal: u32,
    forward: bool,
) -> f64 {
    assert_eq!(path.first(), Some(&start), "path must begin at the start");
    assert_eq!(path.last(), Some(&goal), "path must end at the goal");
    let mut steps = Vec::new();
    for p in path.windows(2) {
        let (u, v) = (p[0] as usize, p[1] as usize);
        let base = shape
            .moves(cells, u)
            .into_iter()
            .find(|m| m.0 == v)
            .unwrap_or_else(|| panic!("{u} -> {v} is not an allowed move"))
            .1;
        steps.push(base * mult[cells[v] as usize]);
    }
    if forward {
        steps.iter().fold(0.0, |a, &c| a + c)
    } else {
        steps.iter().rev().fold(0.0, |a, &c| c + a)
    }
}

pub fn mult_of(get: impl Fn(u8) -> Option<f64>) -> Vec<f64> {
    (0..=255u8).map(|a| get(a).unwrap_or(1.0)).collect()
}
