//! Seeded square-grid maps for the replanning bench (`benches/benches/replan.rs`), with the
//! helpers it needs to pick long queries and to check paths move by move.
//!
//! - `open`: a `side`² map with few walls: `side²/1750` rectangular obstacles (600 at 1024²) of
//!   1..=12 by 1..=12 cells at uniform positions (about 2 % of the cells are walls).
//! - `rooms`: rooms of `room` cells separated by one-cell walls; every wall segment between two
//!   neighbouring rooms has one door (one cell) at a uniform position, and a quarter of them a
//!   second door.
//! - `add_terrain`: marks `patches` uniform rectangles (4..=32 by 4..=32) of passable cells with
//!   `area` (walls stay walls), for the workloads with integer per-cell costs.
//!
//! All from the benches' xorshift64* `Prng`.
#![allow(dead_code)]

use super::graphs::Prng;
use onepath::{Grid, WALL};

/// `side`² with `side²/1750` rectangular obstacles of 1..=12 × 1..=12.
pub fn open(side: usize, seed: u64) -> Grid {
    let mut g = Grid::new(side, side).unwrap();
    let mut r = Prng(seed);
    for _ in 0..(side * side / 1750) {
        let (w, h) = (1 + r.below(12) as usize, 1 + r.below(12) as usize);
        let (x0, y0) = (r.below(side as u64) as usize, r.below(side as u64) as usize);
        for y in y0..(y0 + h).min(side) {
            for x in x0..(x0 + w).min(side) {
                g.set_cell(x, y, WALL).unwrap();
            }
        }
    }
    g
}

/// Rooms of `room` × `room` cells, one-cell walls, one door per shared wall segment (a second
/// one with probability 1/4).
pub fn rooms(side: usize, room: usize, seed: u64) -> Grid {
    let mut g = Grid::new(side, side).unwrap();
    let mut r = Prng(seed);
    let pitch = room + 1;
    for y in 0..side {
        for x in 0..side {
            if x % pitch == room || y % pitch == room {
                g.set_cell(x, y, WALL).unwrap();
            }
        }
    }
    let n = side.div_ceil(pitch);
    for j in 0..n {
        for i in 0..n {
            let (x0, y0) = (i * pitch, j * pitch);
            // The wall to the right of room (i, j) and the wall below it.
            for vertical in [true, false] {
                let doors = 1 + (r.below(4) == 0) as usize;
                for _ in 0..doors {
                    let t = r.below(room as u64) as usize;
                    let (x, y) = if vertical {
                        (x0 + room, y0 + t)
                    } else {
                        (x0 + t, y0 + room)
                    };
                    if x < side && y < side {
                        g.set_cell(x, y, 0).unwrap();
                    }
                }
            }
        }
    }
    g
}

/// Marks `patches` rectangles of passable cells with `area`.
pub fn add_terrain(g: &mut Grid, patches: usize, area: u8, seed: u64) {
    let (w, h) = (g.width(), g.height());
    let mut r = Prng(seed);
    for _ in 0..patches {
        let (pw, ph) = (4 + r.below(29) as usize, 4 + r.below(29) as usize);
        let (x0, y0) = (r.below(w as u64) as usize, r.below(h as u64) as usize);
        for y in y0..(y0 + ph).min(h) {
            for x in x0..(x0 + pw).min(w) {
                if g.cell(x, y).unwrap() != WALL {
                    g.set_cell(x, y, area).unwrap();
                }
            }
        }
    }
}

/// 4-connected component labels of the passable cells (`u32::MAX` for walls). Under the
/// no-corner-cutting rule, 8-connected components are the same sets.
pub fn components(g: &Grid) -> Vec<u32> {
    let (w, h) = (g.width(), g.height());
    let cells = g.cells();
    let mut label = vec![u32::MAX; w * h];
    let mut next = 0u32;
    let mut stack = Vec::new();
    for s in 0..w * h {
        if cells[s] == WALL || label[s] != u32::MAX {
            continue;
        }
        label[s] = next;
        stack.push(s);
        while let Some(c) = stack.pop() {
            let (x, y) = (c % w, c / w);
            let mut visit = |n: usize| {
                if cells[n] != WALL && label[n] == u32::MAX {
                    label[n] = next;
                    stack.push(n);
                }
            };
            if x > 0 {
                visit(c - 1);
            }
            if x + 1 < w {
                visit(c + 1);
            }
            if y > 0 {
                visit(c - w);
            }
            if y + 1 < h {
                visit(c + w);
            }
        }
        next += 1;
    }
    label
}

/// `n` seeded pairs of passable cells in the same component with Manhattan distance at least
/// `min_dist` (long queries).
pub fn long_pairs(
    g: &Grid,
    n: usize,
    min_dist: usize,
    seed: u64,
) -> Vec<((usize, usize), (usize, usize))> {
    let (w, h) = (g.width(), g.height());
    let label = components(g);
    let mut r = Prng(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let a = r.below((w * h) as u64) as usize;
        let b = r.below((w * h) as u64) as usize;
        if label[a] == u32::MAX || label[a] != label[b] {
            continue;
        }
        let (ax, ay, bx, by) = (a % w, a / w, b % w, b / w);
        if ax.abs_diff(bx) + ay.abs_diff(by) < min_dist {
            continue;
        }
        out.push(((ax, ay), (bx, by)));
    }
    out
}

/// Checks `path` (cells, start first) move by move on `g` (passable cells, one step in one of
/// the allowed directions, diagonals only with both corner cells passable) from `start` to
/// `goal`, and returns its exact cost as the pair (sum of the entered cells' multipliers over
/// straight moves, the same over diagonal moves); the cost is `pair.0 + pair.1 * sqrt(2)`.
/// Every multiplier used must be an integer.
pub fn exact_pair(g: &Grid, path: &[u32], start: u32, goal: u32, eight: bool) -> (u64, u64) {
    let w = g.width();
    let cells = g.cells();
    assert_eq!(path.first(), Some(&start), "path must start at the start");
    assert_eq!(path.last(), Some(&goal), "path must end at the goal");
    let mult = |c: usize| {
        let m = g.area_multiplier(cells[c]).expect("area with a multiplier");
        assert_eq!(m, m.trunc(), "integer multipliers only");
        m as u64
    };
    let (mut s, mut d) = (0u64, 0u64);
    for pair in path.windows(2) {
        let (a, b) = (pair[0] as usize, pair[1] as usize);
        assert!(cells[a] != WALL && cells[b] != WALL, "path through a wall");
        let (ax, ay, bx, by) = (a % w, a / w, b % w, b / w);
        let (dx, dy) = (ax.abs_diff(bx), ay.abs_diff(by));
        match (dx, dy) {
            (1, 0) | (0, 1) => s += mult(b),
            (1, 1) if eight => {
                assert!(
                    cells[ay * w + bx] != WALL && cells[by * w + ax] != WALL,
                    "diagonal move past a wall corner"
                );
                d += mult(b);
            }
            _ => panic!("not a move: {a} -> {b}"),
        }
    }
    (s, d)
}
