//! Hex and voxel A* bench (spec/hex-search.md, spec/voxel-search.md) against the plain A* a user
//! writes in an afternoon (below: `BinaryHeap` with lazy deletion, ordered by `f` then larger
//! `g` then node, `Vec<f64>` g / parent / closed arrays allocated per query, the spec's moves,
//! costs and estimate, coordinates for bounds checks).
//!
//! Maps: `hex_random` (512² odd-r, 25 % random walls), `hex_cave` (512² odd-q, a smoothed cellular
//! cave with some mud, multiplier 2.0), `vox_random` (128³, 20 % random solids, 26-connected,
//! `NoneBlocked`), `vox_layered` (128³: solid floors every 8 levels with stair holes, walls every
//! 16 columns with doorways, a few pillars). Each map has a fixed list of reachable far-apart
//! queries; one bench iteration runs them all, in forward (`fwd`) or reverse (`rev`) order.
//!
//! Entries: **onepath** reuses one `HexSearch` / `VoxelSearch` (`begin` + `run`, the intended
//! use); **onepath_tier1** calls `find_hex_path` / `find_voxel_path` (a new search per query);
//! **plain** the baseline. Before timing, every query's cost is asserted equal (1e-9 relative)
//! across the three.

use criterion::{criterion_group, criterion_main, Criterion};
use onepath::*;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::hint::black_box;

const SQRT_2: f64 = std::f64::consts::SQRT_2;
const SQRT_3: f64 = 1.7320508075688772;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[derive(PartialEq)]
struct Item {
    f: f64,
    g: f64,
    node: u32,
}
impl Eq for Item {}
impl PartialOrd for Item {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Item {
    // Max-heap: the smallest f is the greatest item; then the larger g; then the smaller node.
    fn cmp(&self, o: &Self) -> Ordering {
        o.f.partial_cmp(&self.f)
            .unwrap()
            .then(self.g.partial_cmp(&o.g).unwrap())
            .then(o.node.cmp(&self.node))
    }
}

/// The afternoon A*: lazy deletion, closed set, per-query arrays.
fn plain_astar(
    n: usize,
    s: u32,
    t: u32,
    h: impl Fn(u32) -> f64,
    mut moves: impl FnMut(u32, &mut Vec<(u32, f64)>),
) -> Option<f64> {
    let mut g = vec![f64::INFINITY; n];
    let mut parent = vec![u32::MAX; n];
    let mut closed = vec![false; n];
    let mut heap = BinaryHeap::new();
    g[s as usize] = 0.0;
    heap.push(Item {
        f: h(s),
        g: 0.0,
        node: s,
    });
    let mut buf = Vec::with_capacity(26);
    while let Some(Item { g: gu, node: u, .. }) = heap.pop() {
        if closed[u as usize] || gu > g[u as usize] {
            continue;
        }
        if u == t {
            black_box(&parent);
            return Some(gu);
        }
        closed[u as usize] = true;
        buf.clear();
        moves(u, &mut buf);
        for &(v, c) in &buf {
            let g2 = gu + c;
            if g2 < g[v as usize] {
                g[v as usize] = g2;
                parent[v as usize] = u;
                closed[v as usize] = false;
                heap.push(Item {
                    f: g2 + h(v),
                    g: g2,
                    node: v,
                });
            }
        }
    }
    None
}

// ------------------------------------------------------------------------------------ hex

fn hex_offsets(layout: HexLayout, x: i64, y: i64) -> [(i64, i64); 6] {
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

fn axial(layout: HexLayout, x: i64, y: i64) -> (i64, i64) {
    match layout {
        HexLayout::OddR => (x - (y - (y & 1)) / 2, y),
        HexLayout::EvenR => (x - (y + (y & 1)) / 2, y),
        HexLayout::OddQ => (x, y - (x - (x & 1)) / 2),
        HexLayout::EvenQ => (x, y - (x + (x & 1)) / 2),
    }
}

fn mmin_hex(g: &HexGrid) -> f64 {
    (0..255u8)
        .map(|a| g.area_multiplier(a).unwrap())
        .fold(f64::INFINITY, f64::min)
}

fn plain_hex(g: &HexGrid, s: (usize, usize), t: (usize, usize)) -> Option<f64> {
    let (w, h) = (g.width() as i64, g.height() as i64);
    let layout = g.layout();
    let cells = g.cells();
    let mut mult = [1.0; 256];
    for a in 0..255u8 {
        mult[a as usize] = g.area_multiplier(a).unwrap();
    }
    let mmin = mmin_hex(g);
    let (tq, tr) = axial(layout, t.0 as i64, t.1 as i64);
    let est = |c: u32| {
        let (q, r) = axial(layout, c as i64 % w, c as i64 / w);
        let (dq, dr) = (q - tq, r - tr);
        ((dq.abs() + dr.abs() + (dq + dr).abs()) / 2) as f64 * mmin
    };
    let si = (s.1 as i64 * w + s.0 as i64) as u32;
    let ti = (t.1 as i64 * w + t.0 as i64) as u32;
    plain_astar(cells.len(), si, ti, est, |u, out| {
        let (x, y) = (u as i64 % w, u as i64 / w);
        for (dx, dy) in hex_offsets(layout, x, y) {
            let (vx, vy) = (x + dx, y + dy);
            if vx < 0 || vy < 0 || vx >= w || vy >= h {
                continue;
            }
            let v = (vy * w + vx) as usize;
            if cells[v] == WALL {
                continue;
            }
            out.push((v as u32, 1.0 * mult[cells[v] as usize]));
        }
    })
}

fn hex_random() -> HexGrid {
    let mut g = HexGrid::new(512, 512, HexLayout::OddR).unwrap();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for y in 0..512 {
        for x in 0..512 {
            if rng.below(100) < 25 {
                g.set_cell(x, y, WALL).unwrap();
            }
        }
    }
    g
}

fn hex_cave() -> HexGrid {
    let (w, h) = (512usize, 512usize);
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let mut wall: Vec<bool> = (0..w * h).map(|_| rng.below(100) < 45).collect();
    for _ in 0..5 {
        let mut next = wall.clone();
        for y in 0..h {
            for x in 0..w {
                let mut k = 0;
                for dy in -1i64..=1 {
                    for dx in -1i64..=1 {
                        let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                        if nx < 0
                            || ny < 0
                            || nx >= w as i64
                            || ny >= h as i64
                            || wall[ny as usize * w + nx as usize]
                        {
                            k += 1;
                        }
                    }
                }
                next[y * w + x] = k >= 5;
            }
        }
        wall = next;
    }
    let mut g = HexGrid::new(w, h, HexLayout::OddQ).unwrap();
    g.set_area_multiplier(1, 2.0).unwrap();
    for y in 0..h {
        for x in 0..w {
            let a = if wall[y * w + x] {
                WALL
            } else if (x / 24 + y / 24) % 5 == 0 {
                1
            } else {
                0
            };
            g.set_cell(x, y, a).unwrap();
        }
    }
    g
}

fn hex_queries(g: &HexGrid, seed: u64, count: usize) -> Vec<((usize, usize), (usize, usize))> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let (w, h) = (g.width(), g.height());
    while out.len() < count {
        let s = (
            rng.below(w as u64 / 4) as usize,
            rng.below(h as u64) as usize,
        );
        let t = (
            w - 1 - rng.below(w as u64 / 4) as usize,
            rng.below(h as u64) as usize,
        );
        if g.cell(s.0, s.1).unwrap() == WALL || g.cell(t.0, t.1).unwrap() == WALL {
            continue;
        }
        if plain_hex(g, s, t).is_some() {
            out.push((s, t));
        }
    }
    out
}

// ---------------------------------------------------------------------------------- voxel

fn plain_voxel(
    g: &VoxelGrid,
    areas: &[u8],
    s: (usize, usize, usize),
    t: (usize, usize, usize),
) -> Option<f64> {
    let (sx, sy, sz) = g.size();
    let (sx, sy, sz) = (sx as i64, sy as i64, sz as i64);
    let mut mult = [1.0; 256];
    for a in 0..255u8 {
        mult[a as usize] = g.area_multiplier(a).unwrap();
    }
    let mmin = (0..255u8)
        .map(|a| g.area_multiplier(a).unwrap())
        .fold(f64::INFINITY, f64::min);
    let idx = |x: i64, y: i64, z: i64| x + sx * (y + sy * z);
    let open = |x: i64, y: i64, z: i64| {
        x >= 0
            && y >= 0
            && z >= 0
            && x < sx
            && y < sy
            && z < sz
            && areas[idx(x, y, z) as usize] != 255
    };
    let (tx, ty, tz) = (t.0 as i64, t.1 as i64, t.2 as i64);
    let est = |c: u32| {
        let c = c as i64;
        let mut d = [
            (c % sx - tx).abs(),
            (c / sx % sy - ty).abs(),
            (c / (sx * sy) - tz).abs(),
        ];
        d.sort();
        let [a, b, c] = d;
        (((c - b) as f64 + ((b - a) as f64) * SQRT_2) + (a as f64) * SQRT_3) * mmin
    };
    let si = idx(s.0 as i64, s.1 as i64, s.2 as i64) as u32;
    let ti = idx(tx, ty, tz) as u32;
    plain_astar(areas.len(), si, ti, est, |u, out| {
        let u = u as i64;
        let (x, y, z) = (u % sx, u / sx % sy, u / (sx * sy));
        for dz in -1..=1i64 {
            for dy in -1..=1i64 {
                for dx in -1..=1i64 {
                    let k = (dx != 0) as usize + (dy != 0) as usize + (dz != 0) as usize;
                    if k == 0 || !open(x + dx, y + dy, z + dz) {
                        continue;
                    }
                    // NoneBlocked: every face / edge voxel the move sweeps past is open.
                    if k >= 2 {
                        let mut ok = true;
                        for m in 1..7u32 {
                            let e = [
                                if m & 1 != 0 { 0 } else { dx },
                                if m & 2 != 0 { 0 } else { dy },
                                if m & 4 != 0 { 0 } else { dz },
                            ];
                            let ke = e.iter().filter(|&&c| c != 0).count();
                            let zeroed_nonzero = (m & 1 == 0 || dx != 0)
                                && (m & 2 == 0 || dy != 0)
                                && (m & 4 == 0 || dz != 0);
                            if zeroed_nonzero
                                && ke > 0
                                && ke < k
                                && !open(x + e[0], y + e[1], z + e[2])
                            {
                                ok = false;
                                break;
                            }
                        }
                        if !ok {
                            continue;
                        }
                    }
                    let v = idx(x + dx, y + dy, z + dz) as usize;
                    let base = [1.0, SQRT_2, SQRT_3][k - 1];
                    out.push((v as u32, base * mult[areas[v] as usize]));
                }
            }
        }
    })
}

fn flat(g: &VoxelGrid) -> Vec<u8> {
    let (sx, sy, sz) = g.size();
    let mut out = Vec::with_capacity(sx * sy * sz);
    for z in 0..sz {
        for y in 0..sy {
            for x in 0..sx {
                out.push(g.voxel(x, y, z).unwrap());
            }
        }
    }
    out
}

fn vox_random() -> VoxelGrid {
    let mut g = VoxelGrid::new(128, 128, 128, 0).unwrap();
    let mut rng = Rng(0xdead_beef_1234_5678);
    for z in 0..128 {
        for y in 0..128 {
            for x in 0..128 {
                if rng.below(100) < 20 {
                    g.set_voxel(x, y, z, 255).unwrap();
                }
            }
        }
    }
    g
}

fn vox_layered() -> VoxelGrid {
    let mut g = VoxelGrid::new(128, 128, 128, 0).unwrap();
    g.set_area_multiplier(1, 1.5).unwrap();
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for z in 0..128 {
        for y in 0..128 {
            for x in 0..128 {
                let floor =
                    z % 8 == 0 && !(x % 32 < 3 && y % 32 < 3 && (x / 32 + y / 32 + z / 8) % 3 == 0);
                let wall = x % 16 == 15 && y % 24 >= 3 && z % 8 != 0;
                let pillar = rng.below(1000) < 15;
                let a = if floor || wall || pillar {
                    255
                } else if y % 40 < 4 {
                    1
                } else {
                    0
                };
                g.set_voxel(x, y, z, a).unwrap();
            }
        }
    }
    g
}

type V3 = (usize, usize, usize);

fn vox_queries(g: &VoxelGrid, areas: &[u8], seed: u64, count: usize) -> Vec<(V3, V3)> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let s = (
            rng.below(32) as usize,
            rng.below(128) as usize,
            rng.below(128) as usize,
        );
        let t = (
            96 + rng.below(32) as usize,
            rng.below(128) as usize,
            rng.below(128) as usize,
        );
        if g.voxel(s.0, s.1, s.2).unwrap() == 255 || g.voxel(t.0, t.1, t.2).unwrap() == 255 {
            continue;
        }
        if plain_voxel(g, areas, s, t).is_some() {
            out.push((s, t));
        }
    }
    out
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

fn bench(c: &mut Criterion) {
    for (name, g, seed) in [
        ("hex_random", hex_random(), 11u64),
        ("hex_cave", hex_cave(), 12),
    ] {
        let qs = hex_queries(&g, seed, 8);
        let mut s = HexSearch::new(&g, GridOptions::default()).unwrap();
        for &(a, b) in &qs {
            let want = plain_hex(&g, a, b).unwrap();
            s.begin(a, b).unwrap();
            assert_eq!(s.run(None), SearchStatus::Found);
            assert!(
                close(s.path_cost(), want),
                "{name} {a:?}->{b:?}: {} vs {want}",
                s.path_cost()
            );
            let p = find_hex_path(&g, a, b, &GridOptions::default()).unwrap();
            assert!(close(p.cost, want));
            println!(
                "bench-stat {name} {a:?}->{b:?} cost {want:.3} expanded {}",
                s.expanded_count()
            );
        }
        for (dir, order) in [
            ("fwd", qs.clone()),
            ("rev", qs.iter().rev().cloned().collect::<Vec<_>>()),
        ] {
            let mut grp = c.benchmark_group(format!("{name}_{dir}"));
            grp.sample_size(10);
            grp.bench_function("onepath", |bn| {
                bn.iter(|| {
                    let mut t = 0.0;
                    for &(a, b) in &order {
                        s.begin(a, b).unwrap();
                        s.run(None);
                        t += s.path_cost();
                        black_box(s.path());
                    }
                    t
                })
            });
            grp.bench_function("onepath_tier1", |bn| {
                bn.iter(|| {
                    let mut t = 0.0;
                    for &(a, b) in &order {
                        t += find_hex_path(&g, a, b, &GridOptions::default())
                            .unwrap()
                            .cost;
                    }
                    t
                })
            });
            grp.bench_function("plain", |bn| {
                bn.iter(|| {
                    let mut t = 0.0;
                    for &(a, b) in &order {
                        t += plain_hex(&g, a, b).unwrap();
                    }
                    t
                })
            });
            grp.finish();
        }
    }
    for (name, g, seed) in [
        ("vox_random", vox_random(), 21u64),
        ("vox_layered", vox_layered(), 22),
    ] {
        let areas = flat(&g);
        let qs = vox_queries(&g, &areas, seed, 4);
        let o = VoxelOptions::default();
        let mut s = VoxelSearch::new(&g, o.clone()).unwrap();
        for &(a, b) in &qs {
            let want = plain_voxel(&g, &areas, a, b).unwrap();
            s.begin(a, b).unwrap();
            assert_eq!(s.run(None), SearchStatus::Found);
            assert!(
                close(s.path_cost(), want),
                "{name} {a:?}->{b:?}: {} vs {want}",
                s.path_cost()
            );
            let p = find_voxel_path(&g, a, b, &o).unwrap();
            assert!(close(p.cost, want));
            println!(
                "bench-stat {name} {a:?}->{b:?} cost {want:.3} expanded {}",
                s.expanded_count()
            );
        }
        for (dir, order) in [
            ("fwd", qs.clone()),
            ("rev", qs.iter().rev().cloned().collect::<Vec<_>>()),
        ] {
            let mut grp = c.benchmark_group(format!("{name}_{dir}"));
            grp.sample_size(10);
            grp.bench_function("onepath", |bn| {
                bn.iter(|| {
                    let mut t = 0.0;
                    for &(a, b) in &order {
                        s.begin(a, b).unwrap();
                        s.run(None);
                        t += s.path_cost();
                        black_box(s.path());
                    }
                    t
                })
            });
            grp.bench_function("onepath_tier1", |bn| {
                bn.iter(|| {
                    let mut t = 0.0;
                    for &(a, b) in &order {
                        t += find_voxel_path(&g, a, b, &o).unwrap().cost;
                    }
                    t
                })
            });
            grp.bench_function("plain", |bn| {
                bn.iter(|| {
                    let mut t = 0.0;
                    for &(a, b) in &order {
                        t += plain_voxel(&g, &areas, a, b).unwrap();
                    }
                    t
                })
            });
            grp.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
