//! State save / restore throughput (spec/state.md) beside a plain copy of the same bytes into a
//! reused buffer ("memcpy"), plus restores of hostile bytes (failing late) to show linear time.
//!
//! Objects (each group: `save`, `restore` into the same object, `memcpy`; `Throughput::Bytes`):
//! - searches stopped mid-run, 1-20 MB of state: a `GraphAStar` Dijkstra on the `lattice`
//!   workload (`common/graphs.rs`, 1M nodes) after `step(k)`; a `GridSearch` in mode 1
//!   (specialised A*) and in mode 3 (JPS, specialised jump engine), and a generic grid `AStar`,
//!   on a 4096 x 4096 grid with 25 % random walls, each after `step(k)`;
//! - grids: 2048 x 2048 (fits the L3) and 8192 x 8192 (64 MiB of cells) `Grid`s with random areas,
//!   and a full 256^3 `VoxelGrid`.
//!
//! Entries: `save_into` (`save_state_into`, a reused buffer), `save` (`save_state()`, a fresh
//! `Vec` per call), `restore`, `memcpy`. Before timing, each object's restore of its own bytes is
//! asserted to round-trip (a save after the restore gives the same bytes) and `save_state_into`
//! is asserted to write the bytes of `save_state()`.
//!
//! `CARGO_TARGET_DIR=/tmp/t-bench cargo bench -p onepath-benches --bench state`

mod common;

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use onepath::*;
use std::time::Duration;

struct Xs(u64);
impl Xs {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A `side` x `side` grid with xorshift-random areas 0..7.
fn random_areas(side: usize) -> Grid {
    let mut g = Grid::new(side, side).unwrap();
    let mut rng = Xs(0x9E37_79B9_7F4A_7C15);
    let mut cells = vec![0u8; side * side];
    for c in cells.iter_mut() {
        *c = (rng.next() % 8) as u8;
    }
    // Install the random cells through a state (no per-cell edit loop needed).
    let mut s = g.save_state();
    let n = s.len();
    s[n - cells.len()..].copy_from_slice(&cells);
    g.restore_state(&s).unwrap();
    g
}

/// A `side` x `side` grid with 25 % random walls and the two search corners open.
fn walls25(side: usize) -> Grid {
    let mut g = Grid::new(side, side).unwrap();
    let mut rng = Xs(0x2545_F491_4F6C_DD1D);
    let mut s = g.save_state();
    let n = s.len();
    let cells = &mut s[n - side * side..];
    for c in cells.iter_mut() {
        if rng.next() % 4 == 0 {
            *c = WALL;
        }
    }
    cells[0] = 0;
    cells[side * side - 1] = 0;
    g.restore_state(&s).unwrap();
    g
}

fn full_voxels() -> VoxelGrid {
    let mut v = VoxelGrid::new(256, 256, 256, 0).unwrap();
    for z in (0..256).step_by(16) {
        for y in (0..256).step_by(16) {
            for x in (0..256).step_by(16) {
                v.set_voxel(x, y, z, 1).unwrap();
            }
        }
    }
    v
}

/// One group: `save_into` (a reused buffer), `save` (a fresh `Vec`), `restore` and `memcpy`.
fn group(
    c: &mut Criterion,
    name: &str,
    mut save_into: impl FnMut(&mut Vec<u8>),
    save: impl Fn() -> Vec<u8>,
    mut restore: impl FnMut(&[u8]),
) {
    let mut bytes = vec![0xAA; 3];
    save_into(&mut bytes);
    assert!(
        bytes == save(),
        "{name}: save_state_into differs from save_state"
    );
    // Round trip before timing.
    restore(&bytes);
    let mut again = Vec::new();
    save_into(&mut again);
    assert!(again == bytes, "{name}: save after restore differs");
    eprintln!("{name}: {} bytes of state", bytes.len());
    let mut g = c.benchmark_group(name);
    g.sample_size(10)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(300));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    let mut out = Vec::new();
    let mut entries: Vec<&str> = vec!["save_into", "save", "restore", "memcpy"];
    if common::graphs::reverse_order() {
        entries.reverse();
    }
    let mut dst = vec![0u8; bytes.len()];
    for e in entries {
        match e {
            "save_into" => g.bench_function("save_into", |b| {
                b.iter(|| {
                    save_into(&mut out);
                    black_box(&out);
                })
            }),
            "save" => g.bench_function("save", |b| b.iter(|| black_box(save()))),
            "restore" => g.bench_function("restore", |b| b.iter(|| restore(black_box(&bytes)))),
            _ => g.bench_function("memcpy", |b| {
                b.iter(|| {
                    dst.copy_from_slice(black_box(&bytes));
                    black_box(&dst);
                })
            }),
        };
    }
    g.finish();
}

/// Saves `x` into the reused buffer `out` (`save_state_into`).
macro_rules! save {
    ($x:expr, $out:expr) => {
        $x.save_state_into($out)
    };
}

fn benches(c: &mut Criterion) {
    // Searches stopped mid-run.
    let w = common::graphs::lattice();
    let mut dij = GraphAStar::new(&w.csr, DefaultGraphCost, ZeroGraphHeuristic);
    let far = (w.node_count() - 1) as u32;
    for (label, k) in [("1mb", 60_000u64), ("4mb", 240_000), ("16mb", 900_000)] {
        dij.begin(0, far).unwrap();
        assert_eq!(dij.step(k), SearchStatus::Running);
        let copy = dij.save_state();
        let mut twin = GraphAStar::new(&w.csr, DefaultGraphCost, ZeroGraphHeuristic);
        twin.restore_state(&copy).unwrap();
        group(
            c,
            &format!("state_graph_astar_{label}"),
            |o| save!(twin, o),
            || twin.save_state(),
            |b| dij.restore_state(b).unwrap(),
        );
    }
    drop(dij);
    drop(w);

    let grid = walls25(4096);
    let side = 4096;
    let goal = (side - 1, side - 1);
    for (mode, algorithm, steps) in [
        (
            "mode1",
            GridAlgorithm::AStar,
            [80_000u64, 320_000, 1_500_000],
        ),
        ("mode3", GridAlgorithm::Jps, [60_000, 240_000, 900_000]),
    ] {
        let opts = GridOptions {
            algorithm,
            ..GridOptions::default()
        };
        for (i, k) in steps.into_iter().enumerate() {
            let mut s = GridSearch::new(&grid, opts.clone()).unwrap();
            s.begin((0, 0), goal).unwrap();
            assert_eq!(s.step(k), SearchStatus::Running);
            let mut twin = GridSearch::new(&grid, opts.clone()).unwrap();
            twin.restore_state(&s.save_state()).unwrap();
            group(
                c,
                &format!(
                    "state_gridsearch_{mode}_{}",
                    ["small", "medium", "large"][i]
                ),
                |o| save!(twin, o),
                || twin.save_state(),
                |b| s.restore_state(b).unwrap(),
            );
        }
    }
    for (i, k) in [60_000u64, 240_000, 1_200_000].into_iter().enumerate() {
        let mut s = AStar::new(&grid, GridOptions::default()).unwrap();
        s.begin((0, 0), goal).unwrap();
        assert_eq!(s.step(k), SearchStatus::Running);
        let mut twin = AStar::new(&grid, GridOptions::default()).unwrap();
        twin.restore_state(&s.save_state()).unwrap();
        group(
            c,
            &format!("state_generic_astar_{}", ["small", "medium", "large"][i]),
            |o| save!(twin, o),
            || twin.save_state(),
            |b| s.restore_state(b).unwrap(),
        );
    }
    drop(grid);

    // Grids.
    for side in [2048, 8192] {
        let mut grid = random_areas(side);
        let copy = Grid::from_state(&grid.save_state()).unwrap();
        group(
            c,
            &format!("state_grid_{side}"),
            |o| save!(copy, o),
            || copy.save_state(),
            |b| grid.restore_state(b).unwrap(),
        );
    }

    let mut vox = full_voxels();
    let vcopy = VoxelGrid::from_state(&vox.save_state()).unwrap();
    assert!((0..4096).all(|i| vcopy.is_chunk_allocated(i)));
    group(
        c,
        "state_voxel_256_full",
        |o| save!(vcopy, o),
        || vcopy.save_state(),
        |b| vox.restore_state(b).unwrap(),
    );

    // Hostile inputs: each fails at (or near) its last byte, so the time is the whole walk.
    let vs = vox.save_state();
    let mut bad_flag = vs.clone();
    let last_flag = vs.len() - 4096 - 1;
    bad_flag[last_flag] = 2;
    let truncated = &vs[..vs.len() - 1];
    let mut gr = Graph::new(1 << 20).unwrap();
    for i in 0..(1u32 << 20) {
        gr.add_edge(i, (i * 7 + 1) % (1 << 20), 1.0).unwrap();
    }
    let gs = gr.save_state();
    let mut gbad = gs.clone();
    let last_alive = gs.len() - 1;
    gbad[last_alive] = 2;
    let mut h = c.benchmark_group("hostile_restore");
    h.sample_size(10)
        .measurement_time(Duration::from_secs(1))
        .warm_up_time(Duration::from_millis(300));
    let mut run = |name: &str, bytes: &[u8], f: &mut dyn FnMut(&[u8]) -> (String, usize)| {
        let (class, offset) = f(bytes);
        eprintln!("{name}: {} bytes -> {class} at {offset}", bytes.len());
        h.throughput(Throughput::Bytes(bytes.len() as u64));
        h.bench_with_input(BenchmarkId::from_parameter(name), bytes, |b, x| {
            b.iter(|| black_box(f(x)))
        });
    };
    let mut vf = |b: &[u8]| {
        let e = vox.restore_state(b).unwrap_err();
        (e.class().to_string(), e.offset())
    };
    run("voxel_bad_last_flag", &bad_flag, &mut vf);
    run("voxel_truncated_by_1", truncated, &mut vf);
    let mut gf = |b: &[u8]| {
        let e = gr.restore_state(b).unwrap_err();
        (e.class().to_string(), e.offset())
    };
    run("graph_1M_edges_bad_last_flag", &gbad, &mut gf);
    h.finish();
}

criterion_group!(state, benches);
criterion_main!(state);
