//! Tier-1 queries of the other families (issue 33): one call per query, no reused handle, on two
//! map sizes each, short queries (start and goal at most 10 cells or nodes apart per axis):
//! `Graph::find_path` on a lattice graph of 256² and 2048² = 2^22 nodes (Dijkstra, A* through
//! the `heuristic` hook, bidirectional Dijkstra), `find_hex_path` on 256² and 2048² hex grids,
//! `find_voxel_path` on 64 x 64 x 16 and 256 x 256 x 64 voxel grids, `find_hpa_path` on 256² and
//! 2048² square grids and `find_grid_path_bidirectional` on the same square grids, each beside
//! `onepath-reference` where one call of it is affordable (not its HPA* on 2048², which builds a
//! whole hierarchy per call).
//!
//! Then "edit, then query" on the large maps (the `edit` groups): each query is preceded by an
//! edit near it that makes a free cell a wall and followed by one that undoes it, so the two
//! edits and the query are timed together (per query: one edit that the query sees, one that the
//! next query sees), beside the same queries without edits; square-grid A*, JPS and JPS+ are
//! included, since what an edit keeps differs by cache entry.
//!
//! Every query is checked first: onepath and the reference agree bit for bit (costs, and cells
//! or nodes). Each group runs its entries in the listed order, reversed under
//! `ONEPATH_BENCH_REVERSE=1` (as are the families and sizes); a group's first batch (criterion's
//! warm-up) builds the caches, so the medians are "after the first query".
//!
//! Run: `cargo bench -p onepath-benches --bench tier1_families` (BENCHMARKS.md, "Tier-1 queries of the
//! other families").

use criterion::{criterion_group, criterion_main, Criterion};
mod common;

use common::{group, Entry};
use std::hint::black_box;
use std::sync::Arc;

/// Queries per batch.
const Q: usize = 4;

type Query = ((usize, usize), (usize, usize));

/// A batch of square-grid queries.
type Batch = fn(&onepath::Grid, &[Query]) -> Vec<f64>;

fn lcg(s: &mut u64) -> u64 {
    *s = s
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *s >> 33
}

/// 15 % walls by a seeded generator.
fn walls(side: usize, seed: u64) -> Vec<bool> {
    let mut s = seed;
    (0..side * side).map(|_| lcg(&mut s) % 100 < 15).collect()
}

/// `Q` short queries (offsets of 5 to 10 per axis) between free cells, accepted by `ok`.
fn queries(side: usize, w: &[bool], seed: u64, ok: impl Fn(Query) -> bool) -> Vec<Query> {
    let mut s = seed;
    let mut out = Vec::new();
    let n = side as i64;
    while out.len() < Q {
        let (x, y) = (
            (lcg(&mut s) % side as u64) as i64,
            (lcg(&mut s) % side as u64) as i64,
        );
        let mut off = || {
            let v = 5 + (lcg(&mut s) % 6) as i64;
            if lcg(&mut s).is_multiple_of(2) {
                v
            } else {
                -v
            }
        };
        let (gx, gy) = (x + off(), y + off());
        if gx < 0 || gy < 0 || gx >= n || gy >= n {
            continue;
        }
        let (a, b) = ((x as usize, y as usize), (gx as usize, gy as usize));
        if w[a.1 * side + a.0] || w[b.1 * side + b.0] || !ok((a, b)) {
            continue;
        }
        out.push((a, b));
    }
    out
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|c| c.to_bits()).collect()
}

/// A free cell next to the straight segment of query `(s, g)` (its midpoint's row), for the
/// edit groups: `None` when that row has no free cell near the midpoint.
fn edit_cell(side: usize, w: &[bool], (s, g): Query) -> Option<(usize, usize)> {
    let (mx, my) = ((s.0 + g.0) / 2, (s.1 + g.1) / 2);
    (0..side.min(8))
        .map(|d| ((mx + d).min(side - 1), my))
        .find(|&(x, y)| !w[y * side + x] && (x, y) != s && (x, y) != g)
}

// ---------------------------------------------------------------------------------------------
// Graph

/// A `side x side` lattice graph, 4 neighbours, both directions, without the edges of wall
/// cells, weights 1 + a hash in [0, 0.5).
fn lattice(side: usize, w: &[bool]) -> Vec<(u32, u32, f64)> {
    let mut e = Vec::with_capacity(2 * side * side);
    for y in 0..side {
        for x in 0..side {
            let a = y * side + x;
            for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                let b = ny * side + nx;
                if nx < side && ny < side && !w[a] && !w[b] {
                    let wt = 1.0 + ((x * 31 + y * 17) % 50) as f64 / 100.0;
                    e.push((a as u32, b as u32, wt));
                }
            }
        }
    }
    e
}

fn graph_groups(c: &mut Criterion, side: usize) {
    let w = walls(side, 0x9A + side as u64);
    let e = lattice(side, &w);
    let n = side * side;
    let v: Vec<_> = e
        .iter()
        .map(|&(a, b, x)| onepath::GraphEdge::new(a, b, x))
        .collect();
    let g = onepath::Graph::from_edges(&v, Some(n), false).unwrap();
    // A copy for the edit group (small graph only: every edit recompiles).
    let mut edited_graph =
        (side <= 256).then(|| onepath::Graph::from_edges(&v, Some(n), false).unwrap());
    let w0 = v[0].weight;
    drop(v);
    let rg = {
        let v: Vec<_> = e
            .iter()
            .map(|&(a, b, x)| onepath_reference::GraphEdge::new(a, b, x))
            .collect();
        onepath_reference::Graph::from_edges(&v, Some(n), false).unwrap()
    };
    drop(e);
    let id = |(x, y): (usize, usize)| (y * side + x) as u32;
    let q = queries(side, &w, 0x5EED ^ side as u64, |(a, b)| {
        g.find_path(id(a), id(b), &Default::default())
            .unwrap()
            .status
            == onepath::PathStatus::Found
    });
    // Manhattan distance: a lower bound, since every weight is at least 1.
    let h = move |a: u32, b: u32| {
        let (a, b) = (a as usize, b as usize);
        ((a % side).abs_diff(b % side) + (a / side).abs_diff(b / side)) as f64
    };
    let mut algs = vec![
        ("dijkstra", onepath::Algorithm::Dijkstra, false),
        ("astar", onepath::Algorithm::AStar, true),
        (
            "bidi_dijkstra",
            onepath::Algorithm::BidirectionalDijkstra,
            false,
        ),
    ];
    if common::graphs::reverse_order() {
        algs.reverse();
    }
    for (name, alg, hook) in algs {
        let o = onepath::GraphOptions {
            algorithm: alg,
            heuristic: hook.then(|| Arc::new(h) as onepath::HeuristicFn),
            ..Default::default()
        };
        let ralg = match alg {
            onepath::Algorithm::Dijkstra => onepath_reference::Algorithm::Dijkstra,
            onepath::Algorithm::AStar => onepath_reference::Algorithm::AStar,
            _ => onepath_reference::Algorithm::BidirectionalDijkstra,
        };
        let ro = onepath_reference::GraphOptions {
            algorithm: ralg,
            heuristic: hook.then(|| Arc::new(h) as onepath_reference::HeuristicFn),
            ..Default::default()
        };
        let mine = |q: &[Query]| -> Vec<f64> {
            q.iter()
                .map(|&(a, b)| {
                    let p = g.find_path(id(a), id(b), &o).unwrap();
                    black_box(&p.nodes);
                    p.cost
                })
                .collect()
        };
        let theirs = |q: &[Query]| -> Vec<f64> {
            q.iter()
                .map(|&(a, b)| {
                    let p = rg.find_path(id(a), id(b), &ro).unwrap();
                    black_box(&p.nodes);
                    p.cost
                })
                .collect()
        };
        assert_eq!(bits(&mine(&q)), bits(&theirs(&q)), "graph {side} {name}");
        let entries: Vec<Entry<'_>> = vec![
            ("onepath", Box::new(|| mine(&q))),
            ("reference", Box::new(|| theirs(&q))),
        ];
        group(c, &format!("tier1f/graph/{side}/{name}"), Q, entries);
        if let Some(mut edited) = edited_graph.take_if(|_| name == "dijkstra") {
            // An edit (a re-weight of edge 0 and back) before each query: the next query
            // recompiles the graph.
            let edits = |g: &mut onepath::Graph| -> Vec<f64> {
                q.iter()
                    .map(|&(a, b)| {
                        g.set_weight(0, w0 * 2.0).unwrap();
                        let p = g.find_path(id(a), id(b), &o).unwrap();
                        g.set_weight(0, w0).unwrap();
                        black_box(&p.nodes);
                        p.cost
                    })
                    .collect()
            };
            let entries: Vec<Entry<'_>> = vec![
                ("query", Box::new(|| mine(&q))),
                ("edit_query", Box::new(move || edits(&mut edited))),
            ];
            group(c, &format!("tier1f/edit/graph{side}/dijkstra"), Q, entries);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Square grids: HPA* and the bidirectional search

struct Square {
    side: usize,
    walls: Vec<bool>,
    grid: onepath::Grid,
    rgrid: onepath_reference::Grid,
}

fn square(side: usize) -> Square {
    let w = walls(side, 0x7133 + side as u64);
    let mut grid = onepath::Grid::new(side, side).unwrap();
    let mut rgrid = onepath_reference::Grid::new(side, side).unwrap();
    for (i, &b) in w.iter().enumerate() {
        if b {
            grid.set_cell(i % side, i / side, onepath::WALL).unwrap();
            rgrid
                .set_cell(i % side, i / side, onepath_reference::WALL)
                .unwrap();
        }
    }
    Square {
        side,
        walls: w,
        grid,
        rgrid,
    }
}

fn square_queries(m: &Square) -> Vec<Query> {
    queries(m.side, &m.walls, 0x5EED ^ m.side as u64, |(a, b)| {
        onepath::find_grid_path(&m.grid, a, b, &Default::default())
            .unwrap()
            .status
            == onepath::PathStatus::Found
    })
}

fn hpa_batch(g: &onepath::Grid, q: &[Query]) -> Vec<f64> {
    let o = onepath::HpaOptions::default();
    q.iter()
        .map(|&(a, b)| {
            let p = onepath::find_hpa_path(g, a, b, &o).unwrap();
            black_box(&p.cells);
            p.cost
        })
        .collect()
}

fn bidi_batch(g: &onepath::Grid, q: &[Query], a: onepath::GridAlgorithm) -> Vec<f64> {
    let o = onepath::GridOptions {
        algorithm: a,
        ..Default::default()
    };
    q.iter()
        .map(|&(s, t)| {
            let p = onepath::find_grid_path_bidirectional(g, s, t, &o).unwrap();
            black_box(&p.cells);
            p.cost
        })
        .collect()
}

fn square_groups(c: &mut Criterion, side: usize) {
    let m = square(side);
    let q = square_queries(&m);
    let rhpa = |q: &[Query]| -> Vec<f64> {
        let o = onepath_reference::HpaOptions::default();
        q.iter()
            .map(|&(a, b)| {
                let p = onepath_reference::find_hpa_path(&m.rgrid, a, b, &o).unwrap();
                black_box(&p.cells);
                p.cost
            })
            .collect()
    };
    // The reference builds a whole hierarchy per call: timed on the small map only.
    let with_ref = side <= 256;
    let mine = hpa_batch(&m.grid, &q);
    if with_ref {
        assert_eq!(bits(&mine), bits(&rhpa(&q)), "hpa {side}");
    }
    let mut entries: Vec<Entry<'_>> = vec![("onepath", Box::new(|| hpa_batch(&m.grid, &q)))];
    if with_ref {
        entries.push(("reference", Box::new(|| rhpa(&q))));
    }
    group(c, &format!("tier1f/hpa/{side}"), Q, entries);
    for (name, a, ra) in [
        (
            "astar",
            onepath::GridAlgorithm::AStar,
            onepath_reference::GridAlgorithm::AStar,
        ),
        (
            "dijkstra",
            onepath::GridAlgorithm::Dijkstra,
            onepath_reference::GridAlgorithm::Dijkstra,
        ),
    ] {
        let theirs = |q: &[Query]| -> Vec<f64> {
            let o = onepath_reference::GridOptions {
                algorithm: ra,
                ..Default::default()
            };
            q.iter()
                .map(|&(s, t)| {
                    let p = onepath_reference::find_grid_path_bidirectional(&m.rgrid, s, t, &o)
                        .unwrap();
                    black_box(&p.cells);
                    p.cost
                })
                .collect()
        };
        assert_eq!(
            bits(&bidi_batch(&m.grid, &q, a)),
            bits(&theirs(&q)),
            "bidi {side} {name}"
        );
        let entries: Vec<Entry<'_>> = vec![
            ("onepath", Box::new(|| bidi_batch(&m.grid, &q, a))),
            ("reference", Box::new(|| theirs(&q))),
        ];
        group(c, &format!("tier1f/bidi/{side}/{name}"), Q, entries);
    }
}

/// Edit, then query, on the large square map: HPA*, bidirectional A* and square-grid A*, JPS
/// and JPS+ (`find_grid_path`).
fn square_edit_groups(c: &mut Criterion, side: usize) {
    let m = square(side);
    let q = square_queries(&m);
    let cells: Vec<(usize, usize)> = q
        .iter()
        .map(|&x| edit_cell(side, &m.walls, x).expect("a free cell to edit"))
        .collect();
    let kinds: [(&str, Batch); 5] = [
        ("hpa", hpa_batch),
        ("bidi_astar", |g, q| {
            bidi_batch(g, q, onepath::GridAlgorithm::AStar)
        }),
        ("astar", |g, q| {
            grid_batch(g, q, onepath::GridAlgorithm::AStar)
        }),
        ("jps", |g, q| grid_batch(g, q, onepath::GridAlgorithm::Jps)),
        ("jps_plus", |g, q| {
            grid_batch(g, q, onepath::GridAlgorithm::JpsPlus)
        }),
    ];
    for (name, f) in kinds {
        let still = onepath::Grid::from_state(&m.grid.save_state()).unwrap();
        let mut edited = onepath::Grid::from_state(&m.grid.save_state()).unwrap();
        let edits = |g: &mut onepath::Grid| -> Vec<f64> {
            let mut out = Vec::with_capacity(Q);
            for (i, &(x, y)) in cells.iter().enumerate() {
                g.set_cell(x, y, onepath::WALL).unwrap();
                out.extend(f(g, &q[i..i + 1]));
                g.set_cell(x, y, 0).unwrap();
            }
            out
        };
        let entries: Vec<Entry<'_>> = vec![
            ("query", Box::new(|| f(&still, &q))),
            ("edit_query", Box::new(move || edits(&mut edited))),
        ];
        group(c, &format!("tier1f/edit/{side}/{name}"), Q, entries);
    }
}

fn grid_batch(g: &onepath::Grid, q: &[Query], a: onepath::GridAlgorithm) -> Vec<f64> {
    let o = onepath::GridOptions {
        algorithm: a,
        ..Default::default()
    };
    q.iter()
        .map(|&(s, t)| {
            let p = onepath::find_grid_path(g, s, t, &o).unwrap();
            black_box(&p.cells);
            p.cost
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Hex

fn hex_groups(c: &mut Criterion, side: usize) {
    let w = walls(side, 0x4E + side as u64);
    let layout = onepath::HexLayout::OddR;
    let mut g = onepath::HexGrid::new(side, side, layout).unwrap();
    let mut rg =
        onepath_reference::HexGrid::new(side, side, onepath_reference::HexLayout::OddR).unwrap();
    for (i, &b) in w.iter().enumerate() {
        if b {
            g.set_cell(i % side, i / side, onepath::WALL).unwrap();
            rg.set_cell(i % side, i / side, onepath_reference::WALL)
                .unwrap();
        }
    }
    let q = queries(side, &w, 0x5EED ^ side as u64, |(a, b)| {
        onepath::find_hex_path(&g, a, b, &Default::default())
            .unwrap()
            .status
            == onepath::PathStatus::Found
    });
    let mine = |g: &onepath::HexGrid, q: &[Query]| -> Vec<f64> {
        q.iter()
            .map(|&(a, b)| {
                let p = onepath::find_hex_path(g, a, b, &Default::default()).unwrap();
                black_box(&p.cells);
                p.cost
            })
            .collect()
    };
    let theirs = |q: &[Query]| -> Vec<f64> {
        q.iter()
            .map(|&(a, b)| {
                let p = onepath_reference::find_hex_path(&rg, a, b, &Default::default()).unwrap();
                black_box(&p.cells);
                p.cost
            })
            .collect()
    };
    assert_eq!(bits(&mine(&g, &q)), bits(&theirs(&q)), "hex {side}");
    let entries: Vec<Entry<'_>> = vec![
        ("onepath", Box::new(|| mine(&g, &q))),
        ("reference", Box::new(|| theirs(&q))),
    ];
    group(c, &format!("tier1f/hex/{side}/astar"), Q, entries);
    if side >= 2048 {
        let cells: Vec<(usize, usize)> = q
            .iter()
            .map(|&x| edit_cell(side, &w, x).expect("a free cell to edit"))
            .collect();
        let mut edited = onepath::HexGrid::from_state(&g.save_state()).unwrap();
        let edits = |g: &mut onepath::HexGrid| -> Vec<f64> {
            let mut out = Vec::with_capacity(Q);
            for (i, &(x, y)) in cells.iter().enumerate() {
                g.set_cell(x, y, onepath::WALL).unwrap();
                out.extend(mine(g, &q[i..i + 1]));
                g.set_cell(x, y, 0).unwrap();
            }
            out
        };
        let entries: Vec<Entry<'_>> = vec![
            ("query", Box::new(|| mine(&g, &q))),
            ("edit_query", Box::new(move || edits(&mut edited))),
        ];
        group(c, &format!("tier1f/edit/{side}/hex"), Q, entries);
    }
}

// ---------------------------------------------------------------------------------------------
// Voxel

fn voxel_groups(c: &mut Criterion, (sx, sz): (usize, usize)) {
    let mut s = 0x40u64 + sx as u64;
    let mut g = onepath::VoxelGrid::new(sx, sx, sz, 0).unwrap();
    let mut rg = onepath_reference::VoxelGrid::new(sx, sx, sz, 0).unwrap();
    let mut solid = vec![false; sx * sx * sz];
    for (i, v) in solid.iter_mut().enumerate() {
        if lcg(&mut s) % 100 < 15 {
            *v = true;
            let (x, y, z) = (i % sx, i / sx % sx, i / (sx * sx));
            g.set_voxel(x, y, z, 255).unwrap();
            rg.set_voxel(x, y, z, 255).unwrap();
        }
    }
    let layer = sz / 2;
    let flat: Vec<bool> = solid[layer * sx * sx..(layer + 1) * sx * sx].to_vec();
    let vq = |(a, b): Query| ((a.0, a.1, layer), (b.0, b.1, layer - 1 + a.0 % 3));
    let q = queries(sx, &flat, 0x5EED ^ sx as u64, |x| {
        let (a, b) = vq(x);
        let i = b.0 + sx * (b.1 + sx * b.2);
        !solid[i]
            && onepath::find_voxel_path(&g, a, b, &Default::default())
                .unwrap()
                .status
                == onepath::PathStatus::Found
    });
    let mine = |g: &onepath::VoxelGrid, q: &[Query]| -> Vec<f64> {
        q.iter()
            .map(|&x| {
                let (a, b) = vq(x);
                let p = onepath::find_voxel_path(g, a, b, &Default::default()).unwrap();
                black_box(&p.cells);
                p.cost
            })
            .collect()
    };
    let theirs = |q: &[Query]| -> Vec<f64> {
        q.iter()
            .map(|&x| {
                let (a, b) = vq(x);
                let p = onepath_reference::find_voxel_path(&rg, a, b, &Default::default()).unwrap();
                black_box(&p.cells);
                p.cost
            })
            .collect()
    };
    assert_eq!(bits(&mine(&g, &q)), bits(&theirs(&q)), "voxel {sx}");
    let name = format!("{sx}x{sx}x{sz}");
    let entries: Vec<Entry<'_>> = vec![
        ("onepath", Box::new(|| mine(&g, &q))),
        ("reference", Box::new(|| theirs(&q))),
    ];
    group(c, &format!("tier1f/voxel/{name}/astar"), Q, entries);
    if sx >= 256 {
        let cells: Vec<(usize, usize)> = q
            .iter()
            .map(|&x| edit_cell(sx, &flat, x).expect("a free voxel to edit"))
            .collect();
        let mut edited = onepath::VoxelGrid::from_state(&g.save_state()).unwrap();
        let edits = |g: &mut onepath::VoxelGrid| -> Vec<f64> {
            let mut out = Vec::with_capacity(Q);
            for (i, &(x, y)) in cells.iter().enumerate() {
                g.set_voxel(x, y, layer, 255).unwrap();
                out.extend(mine(g, &q[i..i + 1]));
                g.set_voxel(x, y, layer, 0).unwrap();
            }
            out
        };
        let entries: Vec<Entry<'_>> = vec![
            ("query", Box::new(|| mine(&g, &q))),
            ("edit_query", Box::new(move || edits(&mut edited))),
        ];
        group(c, &format!("tier1f/edit/{name}/voxel"), Q, entries);
    }
}

fn bench(c: &mut Criterion) {
    let rev = common::graphs::reverse_order();
    let order = |mut v: Vec<usize>| {
        if rev {
            v.reverse();
        }
        v
    };
    let mut families: Vec<&str> = vec!["graph", "square", "hex", "voxel", "edit"];
    if rev {
        families.reverse();
    }
    for f in families {
        match f {
            "graph" => order(vec![256, 2048])
                .into_iter()
                .for_each(|s| graph_groups(c, s)),
            "square" => order(vec![256, 2048])
                .into_iter()
                .for_each(|s| square_groups(c, s)),
            "hex" => order(vec![256, 2048])
                .into_iter()
                .for_each(|s| hex_groups(c, s)),
            "voxel" => order(vec![64, 256])
                .into_iter()
                .for_each(|s| voxel_groups(c, if s == 64 { (64, 16) } else { (256, 64) })),
            _ => square_edit_groups(c, 2048),
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
