//! [STATE.API.INTO] [STATE.NO_ALLOC] A rollback host's loop (save into a reused buffer, run on or
//! edit, restore the saved bytes) allocates nothing once its buffers have grown, for every state
//! kind: 1 `Grid`, 2 `HexGrid`, 3 `VoxelGrid` (with and without listeners), 4 `Graph`, 8 `AStar`,
//! 9 `JumpSearch`, 10 `ThetaSearch`, 11 `GraphAStar`, 12 `GridSearch` in modes 1, 2 and 3.
//!
//! A counting global allocator counts the allocations of the calling thread only (other test
//! threads do not disturb it). Each loop runs a few warm-up rounds, then counts over more rounds.

use onepath::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCS.with(|c| c.get())
}

/// Runs `round(i)` 4 times to warm up, then 16 times counting, and asserts no allocation.
fn steady(what: &str, mut round: impl FnMut(u32)) {
    for i in 0..4 {
        round(i);
    }
    let before = allocations();
    for i in 4..20 {
        round(i);
    }
    let n = allocations() - before;
    assert_eq!(n, 0, "{what}: {n} allocations in 16 steady rounds");
}

/// A 64 x 48 grid with walls, and areas when `areas` (deterministic).
fn grid(areas: bool) -> Grid {
    let mut g = Grid::new(64, 48).unwrap();
    if areas {
        g.set_area_multiplier(2, 2.5).unwrap();
    }
    for y in 0..48 {
        for x in 0..64 {
            let h = (x * 7 + y * 13) % 23;
            if h == 0 && !(x < 2 && y < 2) && !(x > 61 && y > 45) {
                g.set_cell(x, y, WALL).unwrap();
            } else if h == 5 && areas {
                g.set_cell(x, y, 2).unwrap();
            }
        }
    }
    g
}

// pins [STATE.NO_ALLOC]: a counting allocator over 16 save-into, edit, restore rounds of each grid
// kind (a voxel chunk freed and reallocated) must see no allocation; a restore that allocates fails
#[test]
fn grids_save_edit_restore_without_allocating() {
    for listen in [false, true] {
        let calls = Arc::new(AtomicU32::new(0));
        let mut g = grid(true);
        let mut h = HexGrid::new(40, 30, HexLayout::OddR).unwrap();
        let mut v = VoxelGrid::new(40, 20, 33, 0).unwrap();
        v.set_voxel(3, 4, 5, 7).unwrap();
        v.set_voxel(39, 19, 32, 9).unwrap();
        if listen {
            // Clearance is recomputed by every edit and restore once computed.
            g.compute_clearance();
            let c = calls.clone();
            g.add_listener(Box::new(move |_, _, _| {
                c.fetch_add(1, Ordering::Relaxed);
            }));
            let c = calls.clone();
            h.add_listener(Box::new(move |_, _, _| {
                c.fetch_add(1, Ordering::Relaxed);
            }));
            let c = calls.clone();
            v.add_listener(Box::new(move |_, _, _| {
                c.fetch_add(1, Ordering::Relaxed);
            }));
        }
        let mut buf = Vec::new();
        steady(&format!("Grid (listeners: {listen})"), |i| {
            g.save_state_into(&mut buf);
            g.set_cell(i as usize % 64, 7, (i % 3) as u8).unwrap();
            g.restore_state(&buf).unwrap();
        });
        steady(&format!("HexGrid (listeners: {listen})"), |i| {
            h.save_state_into(&mut buf);
            h.set_cell(i as usize % 40, 3, 1 + (i % 3) as u8).unwrap();
            h.restore_state(&buf).unwrap();
        });
        steady(&format!("VoxelGrid (listeners: {listen})"), |i| {
            v.save_state_into(&mut buf);
            // Chunks 0, 1 and 2 in turn: the edit allocates a chunk the restore frees again.
            v.set_voxel((i % 3) as usize * 16 + 1, 4, 5, 1 + (i % 4) as u8)
                .unwrap();
            v.restore_state(&buf).unwrap();
        });
        if listen {
            assert!(
                calls.load(Ordering::Relaxed) > 0,
                "the listeners saw the restores"
            );
        }
    }
}

#[test]
fn graph_save_edit_restore_without_allocating() {
    let mut g = Graph::new(500).unwrap();
    for i in 0..500u32 {
        g.add_edge(i, (i * 7 + 1) % 500, 1.0 + (i % 5) as f64)
            .unwrap();
        g.add_edge(i, (i + 1) % 500, 2.0).unwrap();
    }
    let mut buf = Vec::new();
    steady("Graph", |i| {
        g.save_state_into(&mut buf);
        g.set_weight(i % 1000, 9.5).unwrap();
        g.remove_edge((i * 3) % 1000).unwrap();
        g.restore_state(&buf).unwrap();
    });
}

#[test]
fn graph_search_save_step_restore_without_allocating() {
    let mut edges = Vec::new();
    for i in 0..2000u32 {
        edges.push(GraphEdge::new(i, (i * 7 + 1) % 2000, 1.0 + (i % 5) as f64));
        edges.push(GraphEdge::new(i, (i + 1) % 2000, 2.0));
        edges.push(GraphEdge::new((i + 1) % 2000, i, 2.0));
    }
    let csr = CsrGraph::new(2000, &edges).unwrap();
    let mut s = GraphAStar::new(&csr, DefaultGraphCost, ZeroGraphHeuristic);
    s.begin(0, 1999).unwrap();
    s.step(200);
    let mut buf = Vec::new();
    steady("GraphAStar", |_| {
        s.save_state_into(&mut buf);
        s.step(50);
        s.restore_state(&buf).unwrap();
    });
}

#[test]
fn grid_searches_save_step_restore_without_allocating() {
    let g = grid(false);
    let with_areas = grid(true);
    let base = GridOptions {
        record_expansions: true,
        ..GridOptions::default()
    };
    let (s, t) = ((0, 0), (63, 47));
    let mut buf = Vec::new();

    let mut a = AStar::new(&g, base.clone()).unwrap();
    a.begin(s, t).unwrap();
    a.step(300);
    steady("AStar (kind 8)", |_| {
        a.save_state_into(&mut buf);
        a.step(40);
        a.restore_state(&buf).unwrap();
    });

    let mut j = JumpSearch::new(
        &g,
        GridOptions {
            algorithm: GridAlgorithm::Jps,
            ..base.clone()
        },
    )
    .unwrap();
    j.begin(s, t).unwrap();
    j.step(20);
    steady("JumpSearch (kind 9)", |_| {
        j.save_state_into(&mut buf);
        j.step(5);
        j.restore_state(&buf).unwrap();
    });

    let mut th = ThetaSearch::new(
        &g,
        GridOptions {
            algorithm: GridAlgorithm::Theta,
            ..base.clone()
        },
    )
    .unwrap();
    th.begin(s, t).unwrap();
    th.step(300);
    steady("ThetaSearch (kind 10)", |_| {
        th.save_state_into(&mut buf);
        th.step(40);
        th.restore_state(&buf).unwrap();
    });

    // GridSearch: mode 1 (A*, Dijkstra on a uniform grid), mode 2 (A* and JPS on a grid with
    // areas run the generic engines), mode 3 (JPS, JPS+).
    for (alg, grid, mode) in [
        (GridAlgorithm::AStar, &g, 1),
        (GridAlgorithm::Dijkstra, &g, 1),
        (GridAlgorithm::AStar, &with_areas, 2),
        (GridAlgorithm::Jps, &with_areas, 2),
        (GridAlgorithm::Jps, &g, 3),
        (GridAlgorithm::JpsPlus, &g, 3),
    ] {
        let mut h = GridSearch::new(
            grid,
            GridOptions {
                algorithm: alg,
                ..base.clone()
            },
        )
        .unwrap();
        h.begin(s, t).unwrap();
        h.step(if mode == 3 { 15 } else { 300 });
        h.save_state_into(&mut buf);
        assert_eq!(buf[8], mode, "{alg:?} saves mode {mode}");
        steady(
            &format!("GridSearch {alg:?} (kind 12, mode {mode})"),
            |_| {
                h.save_state_into(&mut buf);
                h.step(if mode == 3 { 3 } else { 40 });
                h.restore_state(&buf).unwrap();
            },
        );
    }
}

#[test]
fn save_state_into_equals_save_state_and_clears_the_buffer() {
    let g = grid(false);
    let mut h = GridSearch::new(&g, GridOptions::default()).unwrap();
    h.begin((0, 0), (63, 47)).unwrap();
    h.step(100);
    let mut buf = vec![0xAB; 100_000];
    h.save_state_into(&mut buf);
    assert_eq!(buf, h.save_state());
    g.save_state_into(&mut buf);
    assert_eq!(buf, g.save_state());
}

/// [STATE.NO_ALLOC] Replanners (kinds 5, 6): a host loop that saves the grid and the replanner
/// into reused buffers, edits a cell near the path, replans (budgeted, then to the end) and
/// restores both allocates nothing in steady state.
#[test]
fn replanners_save_edit_replan_restore_without_allocating() {
    for mode in [ReplanMode::Lpa, ReplanMode::DStarLite] {
        let mut g = grid(true);
        let mut r =
            GridReplanner::new(&mut g, GridOptions::default(), mode, (0, 0), (63, 47)).unwrap();
        r.replan(&g, 0).unwrap();
        let (mut gb, mut rb) = (Vec::new(), Vec::new());
        steady(&format!("GridReplanner {mode:?}"), |i| {
            g.save_state_into(&mut gb);
            r.save_state_into(&mut rb);
            let (x, y) = (10 + (i as usize % 7) * 6, 10 + (i as usize % 5) * 6);
            g.set_cell(x, y, WALL).unwrap();
            r.replan(&g, 7).unwrap();
            r.replan(&g, 0).unwrap();
            g.restore_state(&gb).unwrap();
            r.restore_state(&g, &rb).unwrap();
        });
    }
    let mut h = HexGrid::new(40, 30, HexLayout::OddQ).unwrap();
    for i in (0..1200).step_by(11) {
        h.set_cell(i % 40, i / 40, WALL).unwrap();
    }
    h.set_cell(0, 0, 0).unwrap();
    h.set_cell(39, 29, 0).unwrap();
    let mut r = HexReplanner::new(
        &mut h,
        GridOptions::default(),
        ReplanMode::DStarLite,
        (0, 0),
        (39, 29),
    )
    .unwrap();
    r.replan(&h, 0).unwrap();
    let (mut gb, mut rb) = (Vec::new(), Vec::new());
    steady("HexReplanner", |i| {
        h.save_state_into(&mut gb);
        r.save_state_into(&mut rb);
        h.set_cell(5 + i as usize % 20, 7, WALL).unwrap();
        r.replan(&h, 0).unwrap();
        h.restore_state(&gb).unwrap();
        r.restore_state(&h, &rb).unwrap();
    });
}

// pins [GRAPH.T1.POOL]: a stream of tier-1 queries on one 2001-node graph (A*, Dijkstra and bidirectional, each exploring thousands of nodes) must allocate nothing for a query whose result is NotFound, and only for the result's growing lists (at most 8 per query) for a found one, once warm: a tier 1 that allocates its g, parent, closed or heap buffers per query fails.
#[test]
fn tier1_queries_reuse_their_buffers() {
    let mut edges = Vec::new();
    for i in 0..2000u32 {
        edges.push(GraphEdge::new(i, (i * 7 + 1) % 2000, 1.0 + (i % 5) as f64));
        edges.push(GraphEdge::new(i, (i + 1) % 2000, 2.0));
        edges.push(GraphEdge::new((i + 1) % 2000, i, 2.0));
    }
    // Node 2000 has no edge: every query to it explores the whole cycle and finds nothing.
    let g = Graph::from_edges(&edges, Some(2001), true).unwrap();
    let h: HeuristicFn = Arc::new(|a, b| ((a as f64) - (b as f64)).abs() * 0.0);
    for o in [
        GraphOptions::default(),
        GraphOptions {
            heuristic: Some(h.clone()),
            ..Default::default()
        },
        GraphOptions::bidirectional(),
    ] {
        steady("tier-1 NotFound query", |i| {
            let r = g.find_path(i * 37 % 2000, 2000, &o).unwrap();
            assert_eq!(r.status, PathStatus::NotFound);
        });
        for i in 0..4 {
            g.find_path(i, 1999 - i, &o).unwrap();
        }
        let before = allocations();
        for i in 4..20 {
            let r = g.find_path(i, 1999 - i, &o).unwrap();
            assert_eq!(r.status, PathStatus::Found);
        }
        let n = allocations() - before;
        assert!(n <= 8 * 16, "{n} allocations in 16 found queries");
    }
}
