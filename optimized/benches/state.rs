//! State save / restore throughput (spec/state.md) beside a plain copy of the same byte count
//! into a reused buffer, plus restores of hostile bytes (failing late) to show linear time.
//!
//! `CARGO_TARGET_DIR=/tmp/t-opt cargo bench -p onepath --bench state`
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

fn big_grid() -> Grid {
    let mut g = Grid::new(2048, 2048).unwrap();
    let mut rng = Xs(0x9E37_79B9_7F4A_7C15);
    let mut cells = vec![0u8; 2048 * 2048];
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

fn group(
    c: &mut Criterion,
    name: &str,
    save: impl Fn() -> Vec<u8>,
    mut restore: impl FnMut(&[u8]),
) {
    let bytes = save();
    let mut g = c.benchmark_group(name);
    g.sample_size(20)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("save", |b| b.iter(|| black_box(save())));
    g.bench_function("restore", |b| b.iter(|| restore(black_box(&bytes))));
    let mut dst = vec![0u8; bytes.len()];
    g.bench_function("memcpy", |b| {
        b.iter(|| {
            dst.copy_from_slice(black_box(&bytes));
            black_box(&dst);
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let mut grid = big_grid();
    let copy = Grid::from_state(&grid.save_state()).unwrap();
    group(
        c,
        "grid_2048x2048",
        || copy.save_state(),
        |b| grid.restore_state(b).unwrap(),
    );

    let mut vox = full_voxels();
    let vcopy = VoxelGrid::from_state(&vox.save_state()).unwrap();
    assert!((0..4096).all(|i| vcopy.is_chunk_allocated(i)));
    group(
        c,
        "voxel_256^3_full",
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
    h.sample_size(20)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    let mut run = |name: &str, bytes: &[u8], f: &mut dyn FnMut(&[u8]) -> (String, usize)| {
        let (class, offset) = f(bytes);
        println!("{name}: {} bytes -> {class} at {offset}", bytes.len());
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
