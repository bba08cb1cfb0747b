//! Tier-1 queries cost what they explore (issue 33): after a warm-up query, a stream of
//! one-call queries on every family's tier 1 (graph: `Graph::find_path` and
//! `PointGraph::find_path`; square grids: `find_grid_path` with every algorithm; hex:
//! `find_hex_path`; voxel: `find_voxel_path`; HPA*: `find_hpa_path`; bidirectional:
//! `find_grid_path_bidirectional`) allocates only its results plus a constant per query, the
//! same on a small and a large map.
//!
//! A counting global allocator counts the bytes (and calls) of the calling thread only (other test
//! threads do not disturb it); `realloc` counts its whole new size. For each family the same
//! short queries (the same cells near the origin, on maps whose cells there are equal) run on two
//! map sizes; the bytes a query allocates beyond what its result holds (`cells`, `points`,
//! `expanded` lengths times their element sizes) must stay under a constant that is far below one
//! byte per cell of the large map, and must not grow from the small map to the large one.

use onepath::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::Arc;

struct Counting;

thread_local! {
    static BYTES: Cell<u64> = const { Cell::new(0) };
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

fn count(n: usize) {
    // `try_with`: the allocator may run while the thread's locals are torn down.
    let _ = BYTES.try_with(|c| c.set(c.get() + n as u64));
    let _ = CALLS.try_with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn counters() -> (u64, u64) {
    (BYTES.with(|c| c.get()), CALLS.with(|c| c.get()))
}

/// The side of the small and the large square maps.
const SMALL: usize = 96;
const LARGE: usize = 1024;
/// The large side for the families whose build dominates the test's time (the lattice graphs,
/// HPA*'s first hierarchy).
const LARGE_BUILD: usize = 512;
/// Queries per stream.
const QUERIES: usize = 24;

/// What one stream allocated beyond its results, per query, and its calls per query (calls
/// are printed, not bounded: results may grow by doubling).
#[derive(Debug, Clone, Copy)]
#[allow(dead_code)]
struct Extra {
    bytes: f64,
    calls: f64,
}

/// Runs `query(i)` (returning the bytes its result holds and whether it found a path) over
/// `QUERIES` queries once to warm up, then again counting.
fn stream(what: &str, mut query: impl FnMut(usize) -> (usize, bool)) -> Extra {
    for i in 0..QUERIES {
        query(i);
    }
    let (b0, c0) = counters();
    let mut held = 0u64;
    let mut found = 0;
    for i in 0..QUERIES {
        let (bytes, ok) = query(i);
        held += bytes as u64;
        found += ok as usize;
    }
    let (b1, c1) = counters();
    assert!(found * 2 >= QUERIES, "{what}: only {found} paths found");
    let extra = (b1 - b0).saturating_sub(held);
    Extra {
        bytes: extra as f64 / QUERIES as f64,
        calls: (c1 - c0) as f64 / QUERIES as f64,
    }
}

/// The two streams' extra bytes per query stay under `limit` and do not grow with the map.
fn check(what: &str, small: Extra, large: Extra, limit: f64) {
    eprintln!("{what}: small {small:?}, large {large:?}");
    for (size, e) in [("small", small), ("large", large)] {
        assert!(
            e.bytes <= limit,
            "{what}: {:.0} bytes per query beyond the results on the {size} map (limit {limit})",
            e.bytes
        );
    }
    assert!(
        large.bytes <= small.bytes * 1.25 + 256.0,
        "{what}: {:.0} bytes per query beyond the results on the large map, {:.0} on the small",
        large.bytes,
        small.bytes
    );
}

/// A wall at about 12 % of the cells, by a hash of `(x, y)` (so the cells near the origin are
/// the same on every map size), never at `x < 2 && y < 2`.
fn wall(x: usize, y: usize) -> bool {
    let h = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let h = (h ^ (h >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h >> 40) % 100 < 12 && !(x < 2 && y < 2)
}

/// The short query `i`: start and goal within 12 cells of each other, inside the first 40 x 40
/// cells.
fn ends(i: usize) -> ((usize, usize), (usize, usize)) {
    let s = (4 + (i * 7) % 28, 4 + (i * 11) % 28);
    let g = (s.0 + (i * 5) % 13, s.1 + 12 - (i * 3) % 13);
    (s, g)
}

fn square(side: usize) -> Grid {
    let mut g = Grid::new(side, side).unwrap();
    for y in 0..side {
        for x in 0..side {
            if wall(x, y) {
                g.set_cell(x, y, WALL).unwrap();
            }
        }
    }
    g
}

fn grid_bytes(p: &GridPath) -> (usize, bool) {
    (
        p.cells.len() * 4 + p.points.len() * 16 + p.expanded.len() * 4,
        p.status == PathStatus::Found,
    )
}

// pins [GS.TIER1]: the grid-owned cache and scratch pool of find_grid_path (optimized/src/grid_search/cache.rs) for every algorithm: the bytes a query allocates beyond its result stay under 2 KiB and do not grow from a 96² to a 1024² map; a planted per-query `vec![0u8; cells]` in find_grid_path fails it.
#[test]
fn square_grid_tier1_allocates_its_results_only() {
    let (small, large) = (square(SMALL), square(LARGE));
    for alg in [
        GridAlgorithm::AStar,
        GridAlgorithm::Dijkstra,
        GridAlgorithm::Jps,
        GridAlgorithm::JpsPlus,
        GridAlgorithm::Theta,
        GridAlgorithm::LazyTheta,
    ] {
        let o = GridOptions {
            algorithm: alg,
            ..Default::default()
        };
        let run = |g: &Grid| {
            stream("grid", |i| {
                let (s, t) = ends(i);
                grid_bytes(&find_grid_path(g, s, t, &o).unwrap())
            })
        };
        check(&format!("grid {alg:?}"), run(&small), run(&large), 2048.0);
    }
}

// pins [GBIDI.TIER1]: the grid-owned scratch of find_grid_path_bidirectional; both sides' buffers come from the grid's pool, so the bytes beyond the result stay under 2 KiB per query on a 96² and a 1024² map; the two `Scratch::with_nodes(n)` per call it replaced fail it (about 50 MB per query on the large map).
#[test]
fn bidirectional_grid_tier1_allocates_its_results_only() {
    let (small, large) = (square(SMALL), square(LARGE));
    for alg in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
        let o = GridOptions {
            algorithm: alg,
            record_expansions: true,
            ..Default::default()
        };
        let run = |g: &Grid| {
            stream("bidi", |i| {
                let (s, t) = ends(i);
                grid_bytes(&find_grid_path_bidirectional(g, s, t, &o).unwrap())
            })
        };
        check(&format!("bidi {alg:?}"), run(&small), run(&large), 2048.0);
    }
}

// pins [HPA.TIER1] [HPA.REFRESH.EQUAL]: the grid-kept hierarchy of find_hpa_path; after the first query the hierarchy is reused, so a query allocates its result, its temporary start and goal edges (bounded by the chunk) and a constant: under 64 KiB per query on a 96² and a 512² map; building a new hierarchy per call (as before) fails it.
#[test]
fn hpa_tier1_allocates_its_results_only() {
    let (small, large) = (square(SMALL), square(LARGE_BUILD));
    for smooth in [false, true] {
        let o = HpaOptions {
            smooth,
            record_expansions: true,
            ..Default::default()
        };
        let run = |g: &Grid| {
            stream("hpa", |i| {
                let (s, t) = ends(i);
                grid_bytes(&find_hpa_path(g, s, t, &o).unwrap())
            })
        };
        check(
            &format!("hpa smooth {smooth}"),
            run(&small),
            run(&large),
            65536.0,
        );
    }
}

// pins [HEX.TIER1]: the grid-owned scratch pool of find_hex_path; under 2 KiB per query beyond the result on a 96² and a 1024² hex map, both algorithms; the per-call `Scratch::with_nodes(cells)` it replaced fails it.
#[test]
fn hex_tier1_allocates_its_results_only() {
    let hex = |side: usize| {
        let mut g = HexGrid::new(side, side, HexLayout::OddR).unwrap();
        for y in 0..side {
            for x in 0..side {
                if wall(x, y) {
                    g.set_cell(x, y, WALL).unwrap();
                }
            }
        }
        g
    };
    let (small, large) = (hex(SMALL), hex(LARGE));
    for alg in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
        let o = GridOptions {
            algorithm: alg,
            ..Default::default()
        };
        let run = |g: &HexGrid| {
            stream("hex", |i| {
                let (s, t) = ends(i);
                grid_bytes(&find_hex_path(g, s, t, &o).unwrap())
            })
        };
        check(&format!("hex {alg:?}"), run(&small), run(&large), 2048.0);
    }
}

// pins [VOXEL.TIER1]: the voxel grid's cache (optimized/src/voxel_cache.rs) under find_voxel_path; the flat area copy is kept by the grid and the scratch pooled, so a query allocates under 2 KiB beyond its result on a 24 x 24 x 8 and a 256 x 256 x 16 grid; the per-call flat copy and scratch it replaced fail it.
#[test]
fn voxel_tier1_allocates_its_results_only() {
    let voxel = |sx: usize, sz: usize| {
        let mut g = VoxelGrid::new(sx, sx, sz, 0).unwrap();
        for z in 0..sz.min(8) {
            for y in 0..sx.min(48) {
                for x in 0..sx.min(48) {
                    if wall(x + 7 * z, y) {
                        g.set_voxel(x, y, z, 255).unwrap();
                    }
                }
            }
        }
        g
    };
    let (small, large) = (voxel(48, 8), voxel(256, 16));
    for alg in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
        let o = VoxelOptions {
            algorithm: alg,
            ..Default::default()
        };
        let run = |g: &VoxelGrid| {
            stream("voxel", |i| {
                let ((sx, sy), (gx, gy)) = ends(i);
                let p = find_voxel_path(g, (sx, sy, i % 4), (gx, gy, 3 - i % 4), &o).unwrap();
                (
                    p.cells.len() * 4 + p.points.len() * 24 + p.expanded.len() * 4,
                    p.status == PathStatus::Found,
                )
            })
        };
        check(&format!("voxel {alg:?}"), run(&small), run(&large), 2048.0);
    }
}

/// A `side x side` lattice graph (4 neighbours, both directions, weights 1 + a hash in
/// [0, 0.5)), its walls removed as on the grids, with the points of its nodes.
fn lattice(side: usize) -> (Vec<GraphEdge>, Vec<Point3>) {
    let mut e = Vec::new();
    let id = |x: usize, y: usize| (y * side + x) as u32;
    for y in 0..side {
        for x in 0..side {
            for (nx, ny) in [(x + 1, y), (x, y + 1)] {
                if nx < side && ny < side && !wall(x, y) && !wall(nx, ny) {
                    let w = 1.0 + ((x * 31 + y * 17) % 50) as f64 / 100.0;
                    e.push(GraphEdge::new(id(x, y), id(nx, ny), w));
                }
            }
        }
    }
    let p = (0..side * side)
        .map(|i| Point3::new((i % side) as f64, (i / side) as f64, 0.0))
        .collect();
    (e, p)
}

// pins [GRAPH.T1.POOL]: Graph::find_path and PointGraph::find_path take their buffers from the graph's pool, so every algorithm (Dijkstra, A* through the hook, both bidirectional ones; A* on the points) allocates under 1 KiB per query beyond its result (nodes and recorded expansions) on a 96² and a 512² lattice; a planted per-query `vec![0u8; nodes]` in tier1::query fails it.
#[test]
fn graph_tier1_allocates_its_results_only() {
    let make = |side: usize| {
        let (e, p) = lattice(side);
        let g = Graph::from_edges(&e, Some(side * side), false).unwrap();
        let links = LinkOptions {
            explicit: e.iter().map(|e| (e.from, e.to)).collect(),
            ..Default::default()
        };
        let pg = PointGraph::new(&p, &links).unwrap();
        (g, pg)
    };
    let (small, large) = (make(SMALL), make(LARGE_BUILD));
    let h = |side: usize| -> HeuristicFn {
        Arc::new(move |a, b| {
            let (a, b) = (a as usize, b as usize);
            ((a % side).abs_diff(b % side) + (a / side).abs_diff(b / side)) as f64
        })
    };
    let node = |side: usize, (x, y): (usize, usize)| (y * side + x) as u32;
    for (name, alg, hook) in [
        ("dijkstra", Algorithm::Dijkstra, false),
        ("astar", Algorithm::AStar, true),
        ("bidi dijkstra", Algorithm::BidirectionalDijkstra, false),
        ("bidi astar", Algorithm::BidirectionalAStar, true),
    ] {
        let run = |g: &Graph, side: usize| {
            let o = GraphOptions {
                algorithm: alg,
                heuristic: hook.then(|| h(side)),
                record_expansions: true,
                ..Default::default()
            };
            stream("graph", |i| {
                let (s, t) = ends(i);
                let p = g.find_path(node(side, s), node(side, t), &o).unwrap();
                (
                    p.nodes.len() * 4 + p.expanded.len() * 4,
                    p.status == PathStatus::Found,
                )
            })
        };
        check(
            &format!("graph {name}"),
            run(&small.0, SMALL),
            run(&large.0, LARGE_BUILD),
            1024.0,
        );
    }
    let run = |g: &PointGraph, side: usize| {
        stream("points", |i| {
            let (s, t) = ends(i);
            let p = g
                .find_path(node(side, s), node(side, t), &GraphOptions::default())
                .unwrap();
            (p.nodes.len() * 4, p.status == PathStatus::Found)
        })
    };
    check(
        "point graph astar",
        run(&small.1, SMALL),
        run(&large.1, LARGE_BUILD),
        1024.0,
    );
}

// pins [GRAPH.T1.POOL]: the threading story of the crate docs; Graph and PointGraph are Sync (a compile-time check), and two threads sharing one &Graph, each running a stream of tier-1 queries through the pool, get exactly the answers of one thread alone; a pool that handed the same buffers to two queries at once would mix their searches and fail it.
#[test]
fn a_shared_graph_answers_concurrent_queries() {
    fn sync<T: Sync>() {}
    sync::<Graph>();
    sync::<PointGraph>();
    let (e, _) = lattice(SMALL);
    let g = Graph::from_edges(&e, Some(SMALL * SMALL), false).unwrap();
    let o = GraphOptions {
        algorithm: Algorithm::Dijkstra,
        record_expansions: true,
        ..Default::default()
    };
    let node = |(x, y): (usize, usize)| (y * SMALL + x) as u32;
    let alone: Vec<GraphPath> = (0..QUERIES)
        .map(|i| {
            let (s, t) = ends(i);
            g.find_path(node(s), node(t), &o).unwrap()
        })
        .collect();
    std::thread::scope(|sc| {
        let runs: Vec<_> = (0..2)
            .map(|k| {
                let (g, o) = (&g, &o);
                sc.spawn(move || {
                    (0..8 * QUERIES)
                        .map(|j| {
                            let i = (j + k * 5) % QUERIES;
                            let (s, t) = ends(i);
                            (i, g.find_path(node(s), node(t), o).unwrap())
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for r in runs {
            for (i, p) in r.join().unwrap() {
                assert_eq!(p, alone[i], "query {i}");
            }
        }
    });
}
