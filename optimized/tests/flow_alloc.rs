//! [FLOW.API.NO_ALLOC] [STATE.NO_ALLOC] A rollback host's loop over a flow field (save the grid
//! and the field into reused buffers, edit, step in slices and repair, restore both) allocates
//! nothing once its buffers have grown: square fields (agent sizes 1 and 2) and hex fields.
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

/// Runs `round(i)` 6 times to warm up, then 24 times counting, and asserts no allocation.
fn steady(what: &str, mut round: impl FnMut(u32)) {
    for i in 0..6 {
        round(i);
    }
    let before = allocations();
    for i in 6..30 {
        round(i);
    }
    let n = allocations() - before;
    assert_eq!(n, 0, "{what}: {n} allocations in 24 steady rounds");
}

/// Deterministic wall cells of a `w x h` map.
fn walls(w: usize, h: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..w * h)
        .filter(|i| (i * 7919) % 13 == 0)
        .map(move |i| (i % w, i / w))
}

macro_rules! host_loop {
    ($what:expr, $g:ident, $f:ident) => {{
        let (mut gb, mut fb) = (Vec::new(), Vec::new());
        steady($what, |i| {
            $g.save_state_into(&mut gb);
            $f.save_state_into(&mut fb);
            let (x, y) = ((i as usize * 5) % 40, (i as usize * 3) % 30);
            let a = if i % 2 == 0 { WALL } else { 1 };
            $g.set_cell(x, y, a).unwrap();
            $g.set_cell(x + 1, y, a).unwrap();
            $f.step(&$g, 7).unwrap();
            $f.run(&$g).unwrap();
            let _ = $f.cost(x, y).unwrap();
            let _ = $f.next(x, y).unwrap();
            $g.set_cell(x, y + 1, 2).unwrap();
            $f.step(&$g, 3).unwrap();
            $f.save_state_into(&mut fb);
            $f.run(&$g).unwrap();
            $g.restore_state(&gb).unwrap();
            $f.restore_state(&$g, &fb).unwrap();
            $f.run(&$g).unwrap();
            if i % 5 == 0 {
                $f.recompute(&$g, 0).unwrap();
            }
        });
    }};
}

// pins [FLOW.API.NO_ALLOC]: a counting allocator over 24 steady rounds of save into reused buffers, edit, step, run, repair, query and restore of a square field (agent sizes 1 and 2) must see no allocation; a step, repair, save or restore that allocates once its buffers have grown fails.
#[test]
fn square_field_host_loop_allocates_nothing() {
    for k in [1u32, 2] {
        let mut g = Grid::new(48, 36).unwrap();
        g.set_area_multiplier(1, 2.5).unwrap();
        for (x, y) in walls(48, 36) {
            g.set_cell(x, y, WALL).unwrap();
        }
        let o = GridOptions {
            agent_size: k,
            ..GridOptions::default()
        };
        let mut f = GridFlowField::new(&mut g, o, &[(0, 0), (47, 35), (20, 20)]).unwrap();
        f.run(&g).unwrap();
        host_loop!("GridFlowField", g, f);
    }
}

#[test]
fn hex_field_host_loop_allocates_nothing() {
    let mut g = HexGrid::new(48, 36, HexLayout::OddQ).unwrap();
    for (x, y) in walls(48, 36) {
        g.set_cell(x, y, WALL).unwrap();
    }
    let mut f = HexFlowField::new(&mut g, GridOptions::default(), &[(3, 3), (40, 30)]).unwrap();
    f.run(&g).unwrap();
    host_loop!("HexFlowField", g, f);
}
