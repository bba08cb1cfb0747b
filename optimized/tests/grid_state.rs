//! Grids (spec/grids.md) and their state kinds 1-3 (spec/state.md), hand-computed expectations.
use onepath::*;
use std::sync::{Arc, Mutex};

type Log = Arc<Mutex<Vec<(u32, u8, u8)>>>;

fn listener(log: &Log) -> CellListener {
    let l = log.clone();
    Box::new(move |i, a, b| l.lock().unwrap().push((i, a, b)))
}

fn le32(v: i32) -> [u8; 4] {
    v.to_le_bytes()
}

#[test]
fn grid_edits_versions_listeners_and_errors() {
    let mut g = Grid::new(3, 2).unwrap();
    assert_eq!(g.cells(), &[0; 6]);
    let log: Log = Default::default();
    g.add_listener(listener(&log));
    g.set_cell(2, 1, 9).unwrap();
    g.set_cell(2, 1, 9).unwrap(); // current value: no edit
    g.set_cell(0, 0, WALL).unwrap();
    assert_eq!((g.version(), g.cell(2, 1).unwrap()), (2, 9));
    assert_eq!(*log.lock().unwrap(), vec![(5, 0, 9), (0, 0, 255)]);
    assert_eq!(
        g.set_cell(3, 0, 1).unwrap_err().class(),
        "cell_out_of_range"
    );
    assert_eq!(g.cell(0, 2).unwrap_err().class(), "cell_out_of_range");
    assert_eq!(
        g.set_area_multiplier(255, 1.0).unwrap_err().class(),
        "area_out_of_range"
    );
    assert_eq!(
        g.set_area_multiplier(3, 0.0).unwrap_err().class(),
        "invalid_multiplier"
    );
    assert_eq!(
        g.set_area_multiplier(3, f64::NAN).unwrap_err().class(),
        "invalid_multiplier"
    );
    g.set_area_multiplier(3, 1.0).unwrap(); // same value still counts
    assert_eq!(
        (
            g.area_version(),
            g.area_multiplier(3),
            g.area_multiplier(255)
        ),
        (1, Some(1.0), None)
    );
    let bad = GridSpace {
        origin_x: 1.0,
        origin_y: 0.0,
        cell_size: 0.0,
    };
    assert_eq!(g.set_space(bad).unwrap_err().class(), "invalid_space");
    g.set_space(GridSpace::default()).unwrap();
    assert_eq!(Grid::new(0, 1).unwrap_err().class(), "invalid_size");
    assert_eq!(
        Grid::new(1 << 13, (1 << 13) + 1).unwrap_err().class(),
        "invalid_size"
    );
    assert_eq!(
        HexLayout::try_from(4).unwrap_err().class(),
        "invalid_layout"
    );
    assert_eq!(HexLayout::try_from(2).unwrap(), HexLayout::OddQ);
    assert!(format!("{g:?}").contains("Grid"));
}

/// The state of a 2x1 grid, field by field.
#[test]
fn tiny_grid_state_bytes() {
    let mut g = Grid::new(2, 1).unwrap();
    g.set_cell(1, 0, 7).unwrap();
    g.set_area_multiplier(3, 2.5).unwrap();
    g.set_space(GridSpace {
        origin_x: 1.0,
        origin_y: -2.0,
        cell_size: 0.5,
    })
    .unwrap();
    let mut want = vec![0x4F, 0x50, 0x47, 0x53, 1, 0, 1, 0];
    want.extend(le32(2)); // width
    want.extend(le32(1)); // height
    want.extend(le32(1)); // version
    for v in [1.0f64, -2.0, 0.5] {
        want.extend(v.to_bits().to_le_bytes());
    }
    want.extend(le32(1)); // area version
    for a in 0..255 {
        want.extend((if a == 3 { 2.5f64 } else { 1.0 }).to_bits().to_le_bytes());
    }
    want.extend([0, 7]);
    let b = g.save_state();
    assert_eq!(b.len(), 8 + 12 + 24 + 4 + 2040 + 2);
    assert_eq!(b, want);
    assert_eq!(g.save_state(), b, "save twice");
    let h = Grid::from_state(&b).unwrap();
    assert_eq!(
        (h.width(), h.height(), h.version(), h.cells()),
        (2, 1, 1, &[0u8, 7][..])
    );
    assert_eq!(h.save_state(), b);
    let mut k = Grid::new(2, 1).unwrap();
    k.restore_state(&b).unwrap();
    assert_eq!((k.save_state(), k.restore_count()), (b, 1));
}

#[test]
fn restore_tells_listeners_ascending_and_failure_tells_nobody() {
    let mut g = Grid::new(4, 4).unwrap();
    let saved = g.save_state();
    g.set_cell(3, 3, 1).unwrap();
    g.set_cell(0, 1, 2).unwrap();
    g.set_cell(1, 0, 3).unwrap();
    let log: Log = Default::default();
    let log2: Log = Default::default();
    g.add_listener(listener(&log));
    let id = g.add_listener(listener(&log2));
    assert!(g.remove_listener(id) && !g.remove_listener(id));
    let before = g.save_state();
    let mut bad = saved.clone();
    bad[19] = 0xFF; // version's top byte -> negative
    let e = g.restore_state(&bad).unwrap_err();
    assert_eq!(
        (e.class(), e.offset(), e.category()),
        ("out_of_range", 16, "format")
    );
    assert_eq!((g.save_state(), g.restore_count()), (before.clone(), 0));
    assert!(log.lock().unwrap().is_empty());
    g.restore_state(&saved).unwrap();
    assert_eq!(*log.lock().unwrap(), vec![(1, 3, 0), (4, 2, 0), (15, 1, 0)]);
    assert_eq!((g.version(), g.restore_count()), (0, 1));
    assert!(log2.lock().unwrap().is_empty());
    g.restore_state(&before).unwrap();
    assert_eq!(g.save_state(), before);
}

fn expect_err(r: Result<(), GridStateError>, class: &str, offset: usize) {
    let e = r.unwrap_err();
    assert_eq!((e.class(), e.offset()), (class, offset), "{e}");
}

#[test]
fn grid_hostile_classes_with_offsets() {
    let g0 = Grid::new(3, 2).unwrap();
    let s = g0.save_state();
    let mut g = Grid::new(3, 2).unwrap();
    let mutate = |at: usize, bytes: &[u8]| {
        let mut b = s.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    let nan = f64::NAN.to_bits().to_le_bytes();
    let cases: Vec<(Vec<u8>, &str, usize)> = vec![
        (mutate(0, b"OPGX"), "bad_magic", 0),
        (mutate(4, &[2, 0]), "unsupported_version", 4),
        (mutate(6, &[2, 0]), "wrong_kind", 6),
        (mutate(8, &le32(4)), "size_mismatch", 8),
        (mutate(12, &le32(-1)), "size_mismatch", 12),
        (mutate(16, &le32(-5)), "out_of_range", 16),
        (mutate(20, &nan), "nan", 20),
        (
            mutate(28, &f64::INFINITY.to_bits().to_le_bytes()),
            "out_of_range",
            28,
        ),
        (
            mutate(20, &1.0f64.to_bits().to_le_bytes()),
            "out_of_range",
            36,
        ), // origin set, cell 0
        (
            mutate(36, &4194304.0f64.to_bits().to_le_bytes()),
            "out_of_range",
            36,
        ),
        (mutate(44, &le32(-1)), "out_of_range", 44),
        (
            mutate(48 + 8 * 254, &0.0f64.to_bits().to_le_bytes()),
            "out_of_range",
            48 + 8 * 254,
        ),
        (mutate(48 + 8 * 7, &nan), "nan", 48 + 8 * 7),
        ([s.clone(), vec![0]].concat(), "trailing_bytes", s.len()),
    ];
    for (b, class, off) in cases {
        expect_err(g.restore_state(&b), class, off);
        assert_eq!(g.save_state(), s);
    }
    // from_state: sizes are checked for validity instead of equality.
    let e = Grid::from_state(&mutate(8, &le32(0))).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 8));
    let mut big = mutate(8, &le32(1 << 25));
    big[12..16].copy_from_slice(&le32(4));
    let e = Grid::from_state(&big).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 12));
    let e = Grid::from_state(&mutate(8, &le32(1000))).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("truncated", s.len()));
}

#[test]
fn truncation_at_every_offset() {
    let mut g = Grid::new(3, 2).unwrap();
    g.set_cell(1, 1, 4).unwrap();
    let s = g.save_state();
    for cut in 0..s.len() {
        expect_err(g.restore_state(&s[..cut]), "truncated", cut);
        assert_eq!(
            Grid::from_state(&s[..cut]).unwrap_err().class(),
            "truncated"
        );
    }
    let mut h = HexGrid::new(2, 2, HexLayout::EvenQ).unwrap();
    let hs = h.save_state();
    for cut in 0..hs.len() {
        expect_err(h.restore_state(&hs[..cut]), "truncated", cut);
    }
    let mut v = VoxelGrid::new(17, 2, 1, 3).unwrap();
    v.set_voxel(16, 1, 0, 4).unwrap();
    let vs = v.save_state();
    for cut in 0..vs.len() {
        expect_err(v.restore_state(&vs[..cut]), "truncated", cut);
        assert_eq!(
            VoxelGrid::from_state(&vs[..cut]).unwrap_err().class(),
            "truncated"
        );
    }
    assert_eq!(v.save_state(), vs);
}

#[test]
fn hex_grid_state() {
    let mut h = HexGrid::new(3, 2, HexLayout::EvenR).unwrap();
    h.set_cell(2, 1, 200).unwrap();
    let s = h.save_state();
    assert_eq!(&s[6..8], &[2, 0]);
    assert_eq!(&s[16..20], &le32(1)); // layout
    assert_eq!(&s[20..24], &le32(1)); // version
    assert_eq!(s.len(), 8 + 16 + 24 + 2044 + 6);
    let k = HexGrid::from_state(&s).unwrap();
    assert_eq!(
        (k.layout(), k.cell(2, 1).unwrap(), k.save_state()),
        (HexLayout::EvenR, 200, s.clone())
    );
    let mut other = HexGrid::new(3, 2, HexLayout::OddR).unwrap();
    expect_err(other.restore_state(&s), "size_mismatch", 16);
    let mut b = s.clone();
    b[16..20].copy_from_slice(&le32(7));
    let e = HexGrid::from_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 16));
    expect_err(Grid::new(3, 2).unwrap().restore_state(&s), "wrong_kind", 6);
    assert!(format!("{k:?}").contains("EvenR"));
}

#[test]
fn voxel_chunks_allocate_on_first_change_and_keep_padding() {
    let mut v = VoxelGrid::new(17, 1, 1, 6).unwrap();
    assert_eq!(v.voxel(16, 0, 0).unwrap(), 6);
    v.set_voxel(16, 0, 0, 6).unwrap(); // current value: nothing allocated
    assert!(!v.is_chunk_allocated(0) && !v.is_chunk_allocated(1) && !v.is_chunk_allocated(2));
    assert_eq!(v.version(), 0);
    v.set_voxel(16, 0, 0, 9).unwrap();
    assert!(!v.is_chunk_allocated(0) && v.is_chunk_allocated(1));
    assert_eq!((v.version(), v.voxel(16, 0, 0).unwrap()), (1, 9));
    assert_eq!(
        v.set_voxel(0, 1, 0, 1).unwrap_err().class(),
        "cell_out_of_range"
    );
    let s = v.save_state();
    let chunks_at = 8 + 13 + 4 + 32 + 2044;
    assert_eq!(s.len(), chunks_at + 1 + 1 + 4096);
    assert_eq!(&s[chunks_at..chunks_at + 2], &[0, 1]);
    assert_eq!(s[chunks_at + 2], 9); // local (0,0,0) of chunk 1
    assert_eq!(s[chunks_at + 3], 6); // padding: default area
    let mut p = s.clone();
    p[chunks_at + 3] = 77; // padding byte (x = 17 is past the edge)
    p[chunks_at + 2 + 4095] = 78;
    v.restore_state(&p).unwrap();
    assert_eq!(v.save_state(), p, "padding kept through a round trip");
    assert_eq!(VoxelGrid::from_state(&p).unwrap().save_state(), p);
    assert_eq!(v.voxel(16, 0, 0).unwrap(), 9);
    // A saved unallocated chunk becomes unallocated.
    let fresh = VoxelGrid::new(17, 1, 1, 6).unwrap().save_state();
    v.restore_state(&fresh).unwrap();
    assert!(!v.is_chunk_allocated(1));
    assert_eq!(v.save_state(), fresh);
    // Hostile: bad flag, default area mismatch, size mismatch, bad size in from_state.
    let mut b = s.clone();
    b[chunks_at + 1] = 2;
    expect_err(v.restore_state(&b), "bad_flag", chunks_at + 1);
    let mut b = s.clone();
    b[20] = 5;
    expect_err(v.restore_state(&b), "size_mismatch", 20);
    let mut b = s.clone();
    b[16..20].copy_from_slice(&le32(17));
    expect_err(v.restore_state(&b), "size_mismatch", 16);
    let e = VoxelGrid::from_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("truncated", b.len())); // 17x1x17 has 4 chunks
    b[16..20].copy_from_slice(&le32(1 << 22));
    let e = VoxelGrid::from_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 16));
    assert_eq!(v.save_state(), fresh);
}

#[test]
fn voxel_restore_listeners_in_node_order() {
    let mut v = VoxelGrid::new(20, 18, 2, 0).unwrap();
    let saved = v.save_state();
    // chunk order: (16,0,0) is chunk 1, (0,17,0) chunk 2; node order puts (0,17,0) after (16,0,0)
    // but (17,0,1) has a larger node index than both.
    v.set_voxel(0, 17, 0, 1).unwrap();
    v.set_voxel(16, 0, 0, 2).unwrap();
    v.set_voxel(17, 0, 1, 3).unwrap();
    v.set_voxel(3, 0, 0, 4).unwrap();
    let log: Log = Default::default();
    v.add_listener(listener(&log));
    let node = |x: u32, y: u32, z: u32| x + 20 * (y + 18 * z);
    v.restore_state(&saved).unwrap();
    let want = vec![
        (node(3, 0, 0), 4, 0),
        (node(16, 0, 0), 2, 0),
        (node(0, 17, 0), 1, 0),
        (node(17, 0, 1), 3, 0),
    ];
    assert_eq!(*log.lock().unwrap(), want);
    assert_eq!(v.save_state(), saved);
    assert_eq!(v.space(), VoxelSpace::default());
    let sp = VoxelSpace {
        origin_x: 0.0,
        origin_y: 0.0,
        origin_z: 0.0,
        cell_size: -1.0,
    };
    assert_eq!(v.set_space(sp).unwrap_err().class(), "invalid_space");
}
