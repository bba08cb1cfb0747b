//! [GRID.VOXEL.*] [STATE.VOXEL] Voxel grids: indexing, chunk allocation, padding round trip.

use std::sync::{Arc, Mutex};

use onepath_reference::{VoxelGrid, VoxelSpace};

/// The offset of the first chunk flag: header, sizes, default, version, space, areas.
const CHUNKS_AT: usize = 8 + 12 + 1 + 4 + 32 + 4 + 255 * 8;

#[test]
fn sizes_and_indexing() {
    assert_eq!(
        VoxelGrid::new(0, 1, 1, 0).unwrap_err().class(),
        "invalid_size"
    );
    assert_eq!(
        VoxelGrid::new(1 << 9, 1 << 9, 257, 0).unwrap_err().class(),
        "invalid_size"
    );
    let mut v = VoxelGrid::new(17, 2, 1, 3).unwrap();
    assert_eq!((v.size(), v.default_area()), ((17, 2, 1), 3));
    assert_eq!(v.voxel(16, 1, 0).unwrap(), 3);
    assert_eq!(
        v.set_voxel(0, 0, 1, 1).unwrap_err().class(),
        "cell_out_of_range"
    );
    assert!(v.voxel(0, 2, 0).unwrap_err().to_string().contains("y = 2"));
    let log: Arc<Mutex<Vec<(u32, u8, u8)>>> = Arc::default();
    let l = log.clone();
    v.add_listener(Box::new(move |i, a, b| l.lock().unwrap().push((i, a, b))));
    v.set_voxel(16, 1, 0, 5).unwrap(); // node 16 + 17 * 1 = 33
    assert_eq!(*log.lock().unwrap(), vec![(33, 3, 5)]);
    assert_eq!(v.version(), 1);
    assert_eq!(
        v.set_space(VoxelSpace {
            cell_size: -1.0,
            ..Default::default()
        })
        .unwrap_err()
        .class(),
        "invalid_space"
    );
}

#[test]
fn chunks_allocate_on_first_change_only() {
    let mut v = VoxelGrid::new(17, 2, 1, 3).unwrap(); // chunks_x = 2, one chunk row
    assert!(!v.is_chunk_allocated(0) && !v.is_chunk_allocated(1) && !v.is_chunk_allocated(2));
    v.set_voxel(0, 0, 0, 3).unwrap(); // the current value: no write
    assert!(!v.is_chunk_allocated(0));
    assert_eq!(v.version(), 0);
    v.set_voxel(16, 1, 0, 5).unwrap();
    assert!(!v.is_chunk_allocated(0) && v.is_chunk_allocated(1));
    v.set_voxel(16, 1, 0, 3).unwrap(); // back to default: chunk stays
    assert!(v.is_chunk_allocated(1));
    v.set_voxel(16, 1, 0, 5).unwrap();
    let b = v.save_state();
    assert_eq!(b.len(), CHUNKS_AT + 1 + 1 + 4096);
    assert_eq!(b[CHUNKS_AT], 0);
    assert_eq!(b[CHUNKS_AT + 1], 1);
    let chunk = &b[CHUNKS_AT + 2..];
    // local (0, 1, 0) is byte 16; every other byte (padding included) is the default 3.
    for (i, &x) in chunk.iter().enumerate() {
        assert_eq!(x, if i == 16 { 5 } else { 3 }, "byte {i}");
    }
    assert_eq!(i32::from_le_bytes(b[16..20].try_into().unwrap()), 1); // size_z
    assert_eq!(b[20], 3); // default area
}

#[test]
fn padding_round_trip_and_listeners() {
    let mut v = VoxelGrid::new(17, 2, 1, 3).unwrap();
    v.set_voxel(16, 1, 0, 5).unwrap();
    let mut b = v.save_state();
    let chunk = CHUNKS_AT + 2;
    b[chunk + 1] = 99; // local (1, 0, 0) = x 17: padding
    b[chunk + 0x100] = 42; // local (0, 0, 1) = z 1: padding
    b[chunk] = 8; // local (0, 0, 0) = voxel (16, 0, 0), node 16
    let log: Arc<Mutex<Vec<(u32, u8, u8)>>> = Arc::default();
    let l = log.clone();
    v.add_listener(Box::new(move |i, a, b| l.lock().unwrap().push((i, a, b))));
    v.restore_state(&b).unwrap();
    assert_eq!(v.save_state(), b); // padding kept
    assert_eq!(*log.lock().unwrap(), vec![(16, 3, 8)]); // padding is not a voxel
    let w = VoxelGrid::from_state(&b).unwrap();
    assert_eq!(w.save_state(), b);
    // Restoring a state whose chunk 1 is unallocated frees it and reports the voxels.
    let fresh = VoxelGrid::new(17, 2, 1, 3).unwrap().save_state();
    log.lock().unwrap().clear();
    v.restore_state(&fresh).unwrap();
    assert!(!v.is_chunk_allocated(1));
    assert_eq!(*log.lock().unwrap(), vec![(16, 8, 3), (33, 5, 3)]);
    assert_eq!(v.restore_count(), 2);
}

#[test]
fn hostile_voxel_states() {
    let mut v = VoxelGrid::new(17, 2, 1, 3).unwrap();
    v.set_voxel(16, 1, 0, 5).unwrap();
    let good = v.save_state();
    let mut b = good.clone();
    b[CHUNKS_AT] = 2;
    let e = v.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("bad_flag", CHUNKS_AT));
    let mut b = good.clone();
    b[20] = 4;
    assert_eq!(v.restore_state(&b).unwrap_err().class(), "size_mismatch");
    assert_eq!(VoxelGrid::from_state(&b).unwrap().default_area(), 4);
    let mut b = good.clone();
    b[16..20].copy_from_slice(&3i32.to_le_bytes());
    let e = v.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("size_mismatch", 16));
    for len in 0..good.len() {
        let e = v.restore_state(&good[..len]).unwrap_err();
        assert_eq!((e.class(), e.offset()), ("truncated", len));
    }
    let mut b = good.clone();
    b.push(1);
    let e = v.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("trailing_bytes", good.len()));
    assert_eq!(v.save_state(), good);
    // from_state: a huge size with few bytes fails without allocating the world.
    let mut b = good.clone();
    b[8..20].copy_from_slice(&[0, 0, 0, 4, 1, 0, 0, 0, 1, 0, 0, 0]); // 2^26 x 1 x 1
    let e = VoxelGrid::from_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("truncated", b.len()));
}
