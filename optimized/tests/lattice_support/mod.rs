//! Shared by `hex_voxel_search.rs` and `hex_voxel_random.rs`: a test-local generator, a plain
//! `BinaryHeap` Dijkstra, and the hex and voxel move rules written again from the spec.
#![allow(dead_code, unused_imports)]

pub use onepath::*;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
pub use std::sync::atomic::AtomicBool;
pub use std::sync::Arc;

pub const SQRT_2: f64 = std::f64::consts::SQRT_2;
pub const SQRT_3: f64 = 1.7320508075688772;

pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[derive(PartialEq)]
pub struct Item(pub f64, pub u32);
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.partial_cmp(&self.0).unwrap().then(o.1.cmp(&self.1))
    }
}

/// Plain Dijkstra over `moves(u) -> [(v, cost)]` (cost already validated by the caller).
pub fn dijkstra(
    n: usize,
    s: u32,
    t: u32,
    moves: impl Fn(u32, &mut Vec<(u32, f64)>),
) -> Option<f64> {
    let mut dist = vec![f64::INFINITY; n];
    let mut heap = BinaryHeap::new();
    dist[s as usize] = 0.0;
    heap.push(Item(0.0, s));
    let mut buf = Vec::new();
    while let Some(Item(d, u)) = heap.pop() {
        if d > dist[u as usize] {
            continue;
        }
        if u == t {
            return Some(d);
        }
        buf.clear();
        moves(u, &mut buf);
        for &(v, c) in &buf {
            let nd = d + c;
            if nd < dist[v as usize] {
                dist[v as usize] = nd;
                heap.push(Item(nd, v));
            }
        }
    }
    None
}

pub fn close(a: f64, b: f64) -> bool {
    a == b || ((a - b).abs() <= 1e-9 * a.abs().max(b.abs()))
}

pub fn extra_ok(e: f64) -> bool {
    e >= 0.0 && e != f64::INFINITY
}

// ---------------------------------------------------------------- hex reference moves

pub fn hex_offsets(layout: HexLayout, x: i64, y: i64) -> [(i64, i64); 6] {
    let re = [(0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
    let ro = [(1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1)];
    let qe = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)];
    let qo = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)];
    match layout {
        HexLayout::OddR => {
            if y % 2 == 0 {
                re
            } else {
                ro
            }
        }
        HexLayout::EvenR => {
            if y % 2 == 0 {
                ro
            } else {
                re
            }
        }
        HexLayout::OddQ => {
            if x % 2 == 0 {
                qe
            } else {
                qo
            }
        }
        HexLayout::EvenQ => {
            if x % 2 == 0 {
                qo
            } else {
                qe
            }
        }
    }
}

pub fn hex_ref(g: &HexGrid, o: &GridOptions, s: (usize, usize), t: (usize, usize)) -> Option<f64> {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let pass = |c: u32| g.cells()[c as usize] != WALL && o.blocked.as_ref().is_none_or(|b| !b(c));
    let si = (s.1 * g.width() + s.0) as u32;
    let ti = (t.1 * g.width() + t.0) as u32;
    if !pass(si) || !pass(ti) {
        return None;
    }
    dijkstra(g.cells().len(), si, ti, |u, out| {
        let (x, y) = (u as i64 % w, u as i64 / w);
        for (dx, dy) in hex_offsets(g.layout(), x, y) {
            let (vx, vy) = (x + dx, y + dy);
            if vx < 0 || vy < 0 || vx >= w || vy >= h {
                continue;
            }
            let v = (vy * w + vx) as u32;
            if !pass(v) {
                continue;
            }
            let mut c = 1.0 * g.area_multiplier(g.cells()[v as usize]).unwrap();
            if let Some(f) = &o.cell_cost {
                let e = f(u, v);
                if !extra_ok(e) {
                    continue;
                }
                c += e;
            }
            out.push((v, c));
        }
    })
}

// ---------------------------------------------------------------- voxel reference moves

pub fn vox_ref(
    g: &VoxelGrid,
    o: &VoxelOptions,
    s: (usize, usize, usize),
    t: (usize, usize, usize),
) -> Option<f64> {
    let (sx, sy, sz) = g.size();
    let idx = |x: i64, y: i64, z: i64| (x as usize + sx * (y as usize + sy * z as usize)) as u32;
    let inside = |x: i64, y: i64, z: i64| {
        x >= 0 && y >= 0 && z >= 0 && (x as usize) < sx && (y as usize) < sy && (z as usize) < sz
    };
    let pass = |x: i64, y: i64, z: i64| {
        inside(x, y, z)
            && g.voxel(x as usize, y as usize, z as usize).unwrap() != 255
            && o.blocked.as_ref().is_none_or(|b| !b(idx(x, y, z)))
    };
    let (s3, t3) = (
        (s.0 as i64, s.1 as i64, s.2 as i64),
        (t.0 as i64, t.1 as i64, t.2 as i64),
    );
    if !pass(s3.0, s3.1, s3.2) || !pass(t3.0, t3.1, t3.2) {
        return None;
    }
    let maxk = match o.connectivity {
        VoxelConnectivity::Six => 1,
        VoxelConnectivity::Eighteen => 2,
        VoxelConnectivity::TwentySix => 3,
    };
    dijkstra(
        sx * sy * sz,
        idx(s3.0, s3.1, s3.2),
        idx(t3.0, t3.1, t3.2),
        |u, out| {
            let u = u as usize;
            let (x, y, z) = (
                (u % sx) as i64,
                (u / sx % sy) as i64,
                (u / (sx * sy)) as i64,
            );
            for dz in -1..=1i64 {
                for dy in -1..=1i64 {
                    for dx in -1..=1i64 {
                        let d = [dx, dy, dz];
                        let k = d.iter().filter(|&&c| c != 0).count();
                        if k == 0 || k > maxk || !pass(x + dx, y + dy, z + dz) {
                            continue;
                        }
                        // Passed voxels: zero a non-empty proper subset of the non-zero components.
                        let mut shut = 0;
                        for mask in 1..7u32 {
                            let e: Vec<i64> = (0..3)
                                .map(|a| if mask >> a & 1 == 1 { 0 } else { d[a] })
                                .collect();
                            let ke = e.iter().filter(|&&c| c != 0).count();
                            let zeroed_nonzero = (0..3).all(|a| mask >> a & 1 == 0 || d[a] != 0);
                            if !zeroed_nonzero || ke == 0 || ke == k {
                                continue;
                            }
                            if !pass(x + e[0], y + e[1], z + e[2]) {
                                shut += 1;
                            }
                        }
                        let ok = k == 1
                            || match o.diagonal {
                                DiagonalRule::Always => true,
                                DiagonalRule::AtMostOneBlocked => shut <= 1,
                                DiagonalRule::NoneBlocked => shut == 0,
                            };
                        if !ok {
                            continue;
                        }
                        let v = idx(x + dx, y + dy, z + dz);
                        let base = [1.0, SQRT_2, SQRT_3][k - 1];
                        let (vx, vy, vz) =
                            ((x + dx) as usize, (y + dy) as usize, (z + dz) as usize);
                        let mut c = base * g.area_multiplier(g.voxel(vx, vy, vz).unwrap()).unwrap();
                        if let Some(f) = &o.cell_cost {
                            let e = f(u as u32, v);
                            if !extra_ok(e) {
                                continue;
                            }
                            c += e;
                        }
                        out.push((v, c));
                    }
                }
            }
        },
    )
}
