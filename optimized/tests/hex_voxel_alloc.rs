//! [HEX.SEARCH.GRAPH] [VOXEL.SEARCH.GRAPH] A steady stream of `begin` / `run` (and `step`) on one
//! hex or voxel search allocates nothing once its buffers have grown, except the one allocation
//! of each non-empty path that `path()` returns.
//!
//! A counting global allocator counts the allocations of the calling thread only.

use onepath::*;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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

/// Runs `round(i)` (which returns how many allocations it expects: its non-empty paths) over
/// the same 12 queries twice to warm up, then twice counting.
fn steady(what: &str, mut round: impl FnMut(u32) -> u64) {
    for i in 0..24 {
        round(i % 12);
    }
    let before = allocations();
    let mut expected = 0;
    for i in 0..24 {
        expected += round(i % 12);
    }
    let n = allocations() - before;
    assert!(expected > 0, "{what}: no path found");
    assert_eq!(n, expected, "{what}: {n} allocations, {expected} paths");
}

#[test]
fn hex_search_steady_state() {
    for layout in [HexLayout::OddR, HexLayout::EvenQ] {
        let mut g = HexGrid::new(60, 50, layout).unwrap();
        for i in 0..3000usize {
            if (i * 7919) % 5 == 0 {
                g.set_cell(i % 60, i / 60, WALL).unwrap();
            }
        }
        for alg in [GridAlgorithm::AStar, GridAlgorithm::Dijkstra] {
            let o = GridOptions {
                algorithm: alg,
                record_expansions: true,
                ..Default::default()
            };
            let mut s = HexSearch::new(&g, o).unwrap();
            steady("hex", |i| {
                let i = i as usize;
                let st = ((i * 13) % 60, (i * 7) % 50);
                let go = ((i * 31 + 5) % 60, (i * 17 + 3) % 50);
                s.begin(st, go).unwrap();
                if i.is_multiple_of(3) {
                    while s.step(37) == SearchStatus::Running {}
                } else {
                    s.run(None);
                }
                let p = s.path();
                !p.is_empty() as u64
            });
        }
    }
}

#[test]
fn voxel_search_steady_state() {
    let mut g = VoxelGrid::new(20, 18, 16, 0).unwrap();
    for i in 0..20 * 18 * 16usize {
        if (i * 7919) % 6 == 0 {
            g.set_voxel(i % 20, i / 20 % 18, i / 360, 255).unwrap();
        }
    }
    for conn in [VoxelConnectivity::Six, VoxelConnectivity::TwentySix] {
        let o = VoxelOptions {
            connectivity: conn,
            record_expansions: true,
            ..Default::default()
        };
        let mut s = VoxelSearch::new(&g, o).unwrap();
        steady("voxel", |i| {
            let i = i as usize;
            let st = ((i * 13) % 20, (i * 7) % 18, (i * 5) % 16);
            let go = ((i * 31 + 5) % 20, (i * 17 + 3) % 18, (i * 11 + 7) % 16);
            s.begin(st, go).unwrap();
            s.run(None);
            let p = s.path();
            !p.is_empty() as u64
        });
    }
}
