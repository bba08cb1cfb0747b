//! The hex and voxel searches (spec/hex-search.md, spec/voxel-search.md): both crates bit for bit
//! (status, cost bits, path, expansions, counters) on seeded random worlds of every layout,
//! connectivity and corner rule, and both against an independent Dijkstra written here from the
//! spec's move rules (cost within rounding, `Found` exactly when the oracle reaches the goal).

use onepath_conformance::prng::SplitMix64;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::Arc;

const SQRT_3: f64 = 1.7320508075688772;
const WALL: u8 = 255;

/// A generated world: sizes, cells (x fastest), multipliers of areas 0..=3, and options.
#[derive(Clone, Debug)]
struct World {
    size: (usize, usize, usize),
    cells: Vec<u8>,
    multipliers: [f64; 4],
    connectivity: u8,
    diagonal: u8,
    dijkstra: bool,
    weight: f64,
    hook: bool,
    start: usize,
    goal: usize,
}

fn world(seed: u64, hex: bool) -> World {
    let mut r = SplitMix64::new(seed);
    let size = if hex {
        (r.range(2, 14) as usize, r.range(2, 14) as usize, 1)
    } else {
        (
            r.range(1, 9) as usize,
            r.range(1, 9) as usize,
            r.range(1, 9) as usize,
        )
    };
    let n = size.0 * size.1 * size.2;
    let density = r.unit() * 0.45;
    let cells = (0..n)
        .map(|_| {
            if r.chance(density) {
                WALL
            } else {
                r.below(4) as u8
            }
        })
        .collect();
    let multipliers = [1.0, 1.0 + r.below(4) as f64 * 0.25, 0.5, 3.0];
    World {
        size,
        cells,
        multipliers,
        connectivity: r.below(3) as u8,
        diagonal: r.below(3) as u8,
        dijkstra: r.chance(0.3),
        weight: if r.chance(0.3) { 1.5 } else { 1.0 },
        hook: r.chance(0.3),
        start: r.below(n as u64) as usize,
        goal: r.below(n as u64) as usize,
    }
}

/// The hook of a world with `hook`: a small extra cost that depends on both ends.
fn extra(u: u32, v: u32) -> f64 {
    ((u * 7 + v * 3) % 5) as f64 * 0.125
}

/// What a search reports: status text, cost bits, path, expansions, iterations, expanded count.
type Outcome = (String, u64, Vec<u32>, Vec<u32>, u64, u64);

macro_rules! voxel_run {
    ($krate:ident, $w:expr) => {{
        use $krate::{DiagonalRule, GridAlgorithm, VoxelConnectivity, VoxelGrid, VoxelOptions};
        let w: &World = $w;
        let mut g = VoxelGrid::new(w.size.0, w.size.1, w.size.2, 0).unwrap();
        for (a, &m) in w.multipliers.iter().enumerate() {
            g.set_area_multiplier(a as u8, m).unwrap();
        }
        for (i, &c) in w.cells.iter().enumerate() {
            let (x, y, z) = (
                i % w.size.0,
                (i / w.size.0) % w.size.1,
                i / (w.size.0 * w.size.1),
            );
            g.set_voxel(x, y, z, c).unwrap();
        }
        let o = VoxelOptions {
            connectivity: [
                VoxelConnectivity::Six,
                VoxelConnectivity::Eighteen,
                VoxelConnectivity::TwentySix,
            ][w.connectivity as usize],
            diagonal: [
                DiagonalRule::Always,
                DiagonalRule::AtMostOneBlocked,
                DiagonalRule::NoneBlocked,
            ][w.diagonal as usize],
            algorithm: if w.dijkstra {
                GridAlgorithm::Dijkstra
            } else {
                GridAlgorithm::AStar
            },
            cell_cost: if w.hook { Some(Arc::new(extra)) } else { None },
            heuristic_weight: w.weight,
            record_expansions: true,
            ..VoxelOptions::default()
        };
        let xyz = |i: usize| {
            (
                i % w.size.0,
                (i / w.size.0) % w.size.1,
                i / (w.size.0 * w.size.1),
            )
        };
        let p = $krate::find_voxel_path(&g, xyz(w.start), xyz(w.goal), &o).unwrap();
        let o: Outcome = (
            format!("{:?}", p.status),
            p.cost.to_bits(),
            p.cells,
            p.expanded,
            p.iterations,
            p.expanded_count,
        );
        o
    }};
}

macro_rules! hex_run {
    ($krate:ident, $w:expr, $layout:expr) => {{
        use $krate::{GridAlgorithm, GridOptions, HexGrid, HexLayout};
        let w: &World = $w;
        let layout = HexLayout::try_from($layout as i32).unwrap();
        let mut g = HexGrid::new(w.size.0, w.size.1, layout).unwrap();
        for (a, &m) in w.multipliers.iter().enumerate() {
            g.set_area_multiplier(a as u8, m).unwrap();
        }
        for (i, &c) in w.cells.iter().enumerate() {
            g.set_cell(i % w.size.0, i / w.size.0, c).unwrap();
        }
        let o = GridOptions {
            algorithm: if w.dijkstra {
                GridAlgorithm::Dijkstra
            } else {
                GridAlgorithm::AStar
            },
            cell_cost: if w.hook { Some(Arc::new(extra)) } else { None },
            heuristic_weight: w.weight,
            record_expansions: true,
            ..GridOptions::default()
        };
        let xy = |i: usize| (i % w.size.0, i / w.size.0);
        let p = $krate::find_hex_path(&g, xy(w.start), xy(w.goal), &o).unwrap();
        let o: Outcome = (
            format!("{:?}", p.status),
            p.cost.to_bits(),
            p.cells,
            p.expanded,
            p.iterations,
            p.expanded_count,
        );
        o
    }};
}

/// A min-heap entry of the oracle.
#[derive(PartialEq)]
struct Entry(f64, usize);
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

/// Plain Dijkstra over `moves(u) -> [(v, cost)]`; the goal's distance or `+infinity`.
fn dijkstra(
    n: usize,
    start: usize,
    goal: usize,
    moves: impl Fn(usize) -> Vec<(usize, f64)>,
) -> f64 {
    let mut dist = vec![f64::INFINITY; n];
    let mut heap = BinaryHeap::new();
    dist[start] = 0.0;
    heap.push(Entry(0.0, start));
    while let Some(Entry(d, u)) = heap.pop() {
        if d > dist[u] {
            continue;
        }
        if u == goal {
            return d;
        }
        for (v, c) in moves(u) {
            if d + c < dist[v] {
                dist[v] = d + c;
                heap.push(Entry(d + c, v));
            }
        }
    }
    f64::INFINITY
}

fn multiplier(w: &World, v: usize) -> f64 {
    w.multipliers[w.cells[v] as usize]
}

fn hook_extra(w: &World, u: usize, v: usize) -> f64 {
    if w.hook {
        extra(u as u32, v as u32)
    } else {
        0.0
    }
}

/// The voxel oracle: moves written from [VOXEL.DIR.*], [VOXEL.MOVE.*] and [VOXEL.COST.*].
fn voxel_oracle(w: &World) -> f64 {
    let (sx, sy, sz) = (w.size.0 as i64, w.size.1 as i64, w.size.2 as i64);
    let open = |x: i64, y: i64, z: i64| {
        x >= 0
            && y >= 0
            && z >= 0
            && x < sx
            && y < sy
            && z < sz
            && w.cells[(x + sx * (y + sy * z)) as usize] != WALL
    };
    let max_axes = w.connectivity as usize + 1;
    let moves = |u: usize| {
        let (x, y, z) = (u as i64 % sx, (u as i64 / sx) % sy, u as i64 / (sx * sy));
        let mut out = Vec::new();
        for dz in -1..=1i64 {
            for dy in -1..=1i64 {
                for dx in -1..=1i64 {
                    let d = [dx, dy, dz];
                    let k = d.iter().filter(|&&c| c != 0).count();
                    if k == 0 || k > max_axes || !open(x + dx, y + dy, z + dz) {
                        continue;
                    }
                    // The voxels swept past: `d` with some, not all, of its non-zero
                    // components kept (masks over the non-zero components only).
                    let mut blocked = 0;
                    for mask in 1..8u8 {
                        if (0..3).any(|i| mask & (1 << i) != 0 && d[i] == 0) {
                            continue;
                        }
                        let e: Vec<i64> = (0..3)
                            .map(|i| if mask & (1 << i) != 0 { d[i] } else { 0 })
                            .collect();
                        if e.iter().filter(|&&c| c != 0).count() == k {
                            continue;
                        }
                        if !open(x + e[0], y + e[1], z + e[2]) {
                            blocked += 1;
                        }
                    }
                    let allowed = match w.diagonal {
                        0 => true,
                        1 => blocked <= 1,
                        _ => blocked == 0,
                    };
                    if k >= 2 && !allowed {
                        continue;
                    }
                    let v = ((x + dx) + sx * ((y + dy) + sy * (z + dz))) as usize;
                    let base = [1.0, std::f64::consts::SQRT_2, SQRT_3][k - 1];
                    out.push((v, base * multiplier(w, v) + hook_extra(w, u, v)));
                }
            }
        }
        out
    };
    if w.cells[w.start] == WALL || w.cells[w.goal] == WALL {
        return f64::INFINITY;
    }
    dijkstra(w.cells.len(), w.start, w.goal, moves)
}

/// The hex oracle: neighbours by axial coordinates ([GRID.HEX.AXIAL]): the six cells at hex
/// distance 1, whatever the order.
fn hex_oracle(w: &World, layout: u8) -> f64 {
    let (width, height) = (w.size.0 as i64, w.size.1 as i64);
    let axial = |x: i64, y: i64| match layout {
        0 => (x - (y - (y & 1)) / 2, y),
        1 => (x - (y + (y & 1)) / 2, y),
        2 => (x, y - (x - (x & 1)) / 2),
        _ => (x, y - (x + (x & 1)) / 2),
    };
    let moves = |u: usize| {
        let (x, y) = (u as i64 % width, u as i64 / width);
        let (q, r) = axial(x, y);
        let mut out = Vec::new();
        for ny in (y - 1).max(0)..=(y + 1).min(height - 1) {
            for nx in (x - 1).max(0)..=(x + 1).min(width - 1) {
                let (nq, nr) = axial(nx, ny);
                let (dq, dr) = (nq - q, nr - r);
                if (dq.abs() + dr.abs() + (dq + dr).abs()) / 2 != 1 {
                    continue;
                }
                let v = (ny * width + nx) as usize;
                if w.cells[v] != WALL {
                    out.push((v, 1.0 * multiplier(w, v) + hook_extra(w, u, v)));
                }
            }
        }
        out
    };
    if w.cells[w.start] == WALL || w.cells[w.goal] == WALL {
        return f64::INFINITY;
    }
    dijkstra(w.cells.len(), w.start, w.goal, moves)
}

fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// [VOXEL.SEARCH.GRAPH] [VOXEL.MOVE.RULE] [VOXEL.EST.VALUE] Both crates agree bit for bit, and
/// with weight 1 the cost is the oracle's.
#[test]
fn voxel_searches_agree_with_each_other_and_the_oracle() {
    let mut found = 0;
    for seed in 0..1500u64 {
        let w = world(0x7E5E_0000 + seed, false);
        let a = voxel_run!(onepath_reference, &w);
        let b = voxel_run!(onepath, &w);
        assert_eq!(a, b, "seed {seed}: {w:?}");
        assert_eq!(a.3.len() as u64, a.5, "recorded length = expanded count");
        let truth = voxel_oracle(&w);
        let cost = f64::from_bits(a.1);
        assert_eq!(a.0 == "Found", truth.is_finite(), "seed {seed}: {w:?}");
        if w.weight == 1.0 && truth.is_finite() {
            assert!(close(cost, truth), "seed {seed}: {cost} vs {truth}: {w:?}");
            found += 1;
        } else if truth.is_finite() {
            assert!(cost >= truth - 1e-9, "seed {seed}");
        }
    }
    assert!(found > 300, "{found} optimal cases");
}

/// [HEX.SEARCH.GRAPH] [HEX.MOVE.RULE] [HEX.EST.VALUE] Both crates agree bit for bit on every
/// layout, and with weight 1 the cost is the oracle's.
#[test]
fn hex_searches_agree_with_each_other_and_the_oracle() {
    let mut found = 0;
    for seed in 0..1500u64 {
        let w = world(0x4E5E_0000 + seed, true);
        let layout = (seed % 4) as u8;
        let a = hex_run!(onepath_reference, &w, layout);
        let b = hex_run!(onepath, &w, layout);
        assert_eq!(a, b, "seed {seed} layout {layout}: {w:?}");
        assert_eq!(a.3.len() as u64, a.5);
        let truth = hex_oracle(&w, layout);
        let cost = f64::from_bits(a.1);
        assert_eq!(a.0 == "Found", truth.is_finite(), "seed {seed}: {w:?}");
        if w.weight == 1.0 && truth.is_finite() {
            assert!(close(cost, truth), "seed {seed}: {cost} vs {truth}");
            found += 1;
        }
    }
    assert!(found > 300, "{found} optimal cases");
}
