//! The hex and voxel search targets (spec/hex-search.md, spec/voxel-search.md): `hex_search` and
//! `voxel_search` decode a small world (a hex map of at most 13 x 13 cells on any layout, or a
//! voxel world of at most 8 x 8 x 8), the options (connectivity, corner rule, A* or Dijkstra,
//! weight, a cost hook) and the ends, run `find_hex_path` / `find_voxel_path` on both crates and
//! compare status, cost bits, path, expansions and counters; the reference's result must agree
//! with an independent Dijkstra written here from the spec's move rules ([`check_voxel`],
//! [`check_hex`]). The seeded generator [`world`] feeds `conformance/tests/hex_voxel_search.rs`.

use super::{Finding, Res, U};
use crate::prng::SplitMix64;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::sync::Arc;

const SQRT_3: f64 = 1.7320508075688772;
const WALL: u8 = 255;

/// A generated world: sizes, cells (x fastest), multipliers of areas 0..=3, and options.
#[derive(Clone, Debug)]
pub struct World {
    /// `(size_x, size_y, size_z)`; `size_z == 1` for a hex map.
    pub size: (usize, usize, usize),
    /// Areas, x fastest (255 = wall or solid).
    pub cells: Vec<u8>,
    /// The multipliers of areas 0..=3.
    pub multipliers: [f64; 4],
    /// Voxel connectivity 0 = Six, 1 = Eighteen, 2 = TwentySix (hex: unused).
    pub connectivity: u8,
    /// Corner rule 0 = Always, 1 = AtMostOneBlocked, 2 = NoneBlocked (hex: unused).
    pub diagonal: u8,
    /// Dijkstra instead of A*.
    pub dijkstra: bool,
    /// The heuristic weight (1.0 or 1.5).
    pub weight: f64,
    /// Whether the `cell_cost` hook [`extra`] is set.
    pub hook: bool,
    /// The start's node index.
    pub start: usize,
    /// The goal's node index.
    pub goal: usize,
}

/// A world from `seed`: a hex map of 2-13 cells a side or a voxel world of 1-8 a side.
pub fn world(seed: u64, hex: bool) -> World {
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
pub fn extra(u: u32, v: u32) -> f64 {
    ((u * 7 + v * 3) % 5) as f64 * 0.125
}

/// What a search reports: status text, cost bits, path, expansions, iterations, expanded count.
pub type Outcome = (String, u64, Vec<u32>, Vec<u32>, u64, u64);

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
pub fn voxel_oracle(w: &World) -> f64 {
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
pub fn hex_oracle(w: &World, layout: u8) -> f64 {
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

/// Equal up to rounding (relative 1e-9).
pub fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(1.0)
}

/// [VOXEL.SEARCH.GRAPH] Both crates' voxel results and the oracle's verdict on `w`.
pub fn check_voxel(w: &World) -> Result<Outcome, Finding> {
    let a = voxel_run!(onepath_reference, w);
    let b = voxel_run!(onepath, w);
    if a != b {
        return Err(Finding::new(format!(
            "voxel: reference {a:?} != onepath {b:?} on {w:?}"
        )));
    }
    judge(&a, voxel_oracle(w), w)?;
    Ok(a)
}

/// [HEX.SEARCH.GRAPH] Both crates' hex results on `layout` (0-3) and the oracle's verdict.
pub fn check_hex(w: &World, layout: u8) -> Result<Outcome, Finding> {
    let a = hex_run!(onepath_reference, w, layout);
    let b = hex_run!(onepath, w, layout);
    if a != b {
        return Err(Finding::new(format!(
            "hex layout {layout}: reference {a:?} != onepath {b:?} on {w:?}"
        )));
    }
    judge(&a, hex_oracle(w, layout), w)?;
    Ok(a)
}

/// [HEX.SEARCH.RECORD] [VOXEL.SEARCH.RECORD] The recorded list is as long as the expanded count;
/// `Found` exactly when the oracle reaches the goal; with weight 1 the oracle's cost (up to
/// rounding), with a larger weight never below it.
fn judge(a: &Outcome, truth: f64, w: &World) -> Result<(), Finding> {
    if a.3.len() as u64 != a.5 {
        return Err(Finding::new(format!(
            "{} recorded expansions, expanded count {}",
            a.3.len(),
            a.5
        )));
    }
    let cost = f64::from_bits(a.1);
    if (a.0 == "Found") != truth.is_finite() {
        return Err(Finding::new(format!(
            "status {} but the oracle's cost is {truth} on {w:?}",
            a.0
        )));
    }
    if truth.is_finite() {
        let ok = if w.weight == 1.0 {
            close(cost, truth)
        } else {
            cost >= truth - 1e-9 * truth.max(1.0)
        };
        if !ok {
            return Err(Finding::new(format!(
                "cost {cost} against the oracle's {truth} (weight {}) on {w:?}",
                w.weight
            )));
        }
    }
    Ok(())
}

/// A world from fuzz bytes (bounded as [`world`]).
fn decode(u: &mut U, hex: bool) -> Res<World> {
    let seed: u64 = u.arbitrary()?;
    let mut w = world(seed, hex);
    // The bytes also choose the cells directly, so libFuzzer can steer the map.
    for c in w.cells.iter_mut() {
        if u.is_empty() {
            break;
        }
        let b: u8 = u.arbitrary()?;
        *c = if b >= 192 { WALL } else { b % 4 };
    }
    Ok(w)
}

/// Target `voxel_search`.
pub fn voxel_search(data: &[u8]) -> Result<(), Finding> {
    let mut u = U::new(data);
    let Ok(w) = decode(&mut u, false) else {
        return Ok(());
    };
    check_voxel(&w).map(|_| ())
}

/// Target `hex_search`.
pub fn hex_search(data: &[u8]) -> Result<(), Finding> {
    let mut u = U::new(data);
    let Ok(layout) = u.int_in_range(0u8..=3) else {
        return Ok(());
    };
    let Ok(w) = decode(&mut u, true) else {
        return Ok(());
    };
    check_hex(&w, layout).map(|_| ())
}
