//! [STATE.GRID] [STATE.ATOMIC] [STATE.STABLE] Grid state bytes: layout by hand, stability,
//! listener diffs, atomic failure and every hostile class with its offset.

use std::sync::{Arc, Mutex};

use onepath_reference::{Grid, GridSpace};

type Log = Arc<Mutex<Vec<(u32, u8, u8)>>>;

fn logger(grid: &mut Grid) -> Log {
    let log: Log = Arc::default();
    let l = log.clone();
    grid.add_listener(Box::new(move |i, a, b| l.lock().unwrap().push((i, a, b))));
    log
}

/// A 2 x 1 grid: cell (1, 0) = 7, area 3 = 2.5, space (1, 2, 0.5).
fn tiny() -> Grid {
    let mut g = Grid::new(2, 1).unwrap();
    g.set_cell(1, 0, 7).unwrap();
    g.set_area_multiplier(3, 2.5).unwrap();
    g.set_space(GridSpace {
        origin_x: 1.0,
        origin_y: 2.0,
        cell_size: 0.5,
    })
    .unwrap();
    g
}

#[test]
fn tiny_layout_by_hand() {
    let b = tiny().save_state();
    assert_eq!(b.len(), 8 + 12 + 24 + 4 + 255 * 8 + 2);
    assert_eq!(&b[0..8], &[0x4F, 0x50, 0x47, 0x53, 1, 0, 1, 0]);
    assert_eq!(&b[8..12], &2i32.to_le_bytes()); // width
    assert_eq!(&b[12..16], &1i32.to_le_bytes()); // height
    assert_eq!(&b[16..20], &1i32.to_le_bytes()); // version
    assert_eq!(&b[20..28], &1.0f64.to_bits().to_le_bytes());
    assert_eq!(&b[28..36], &2.0f64.to_bits().to_le_bytes());
    assert_eq!(&b[36..44], &0.5f64.to_bits().to_le_bytes());
    assert_eq!(&b[44..48], &1i32.to_le_bytes()); // area version
    for area in 0..255 {
        let at = 48 + 8 * area;
        let m = if area == 3 { 2.5f64 } else { 1.0 };
        assert_eq!(&b[at..at + 8], &m.to_bits().to_le_bytes(), "area {area}");
    }
    assert_eq!(&b[2088..], &[0, 7]);
}

#[test]
fn stable_and_round_trip() {
    let g = tiny();
    let b = g.save_state();
    assert_eq!(g.save_state(), b);
    let mut h = Grid::new(2, 1).unwrap();
    h.restore_state(&b).unwrap();
    assert_eq!(h.save_state(), b);
    assert_eq!(h.restore_count(), 1);
    assert_eq!((h.version(), h.area_version()), (1, 1));
    let f = Grid::from_state(&b).unwrap();
    assert_eq!(f.save_state(), b);
    assert_eq!(f.restore_count(), 0);
}

#[test]
fn restore_tells_listeners_the_differing_cells() {
    let mut g = Grid::new(3, 3).unwrap();
    g.set_cell(0, 0, 1).unwrap();
    g.set_cell(2, 2, 9).unwrap();
    let saved = g.save_state();
    g.set_cell(2, 2, 4).unwrap(); // 8: 9 -> 4
    g.set_cell(1, 0, 5).unwrap(); // 1: 0 -> 5
    g.set_cell(0, 0, 3).unwrap(); // 0: 1 -> 3
    g.set_cell(0, 1, 6).unwrap(); // 3: 0 -> 6
    g.set_cell(0, 1, 0).unwrap(); // 3 back to 0: no difference
    let log = logger(&mut g);
    g.restore_state(&saved).unwrap();
    assert_eq!(*log.lock().unwrap(), vec![(0, 3, 1), (1, 5, 0), (8, 4, 9)]);
    assert_eq!(g.version(), 2);
    assert_eq!(g.save_state(), saved);
}

#[test]
fn failed_restore_changes_nothing() {
    let mut g = tiny();
    let before = g.save_state();
    let log = logger(&mut g);
    let mut other = Grid::new(2, 1).unwrap();
    other.set_cell(0, 0, 200).unwrap();
    let mut bad = other.save_state();
    bad.push(0); // trailing byte: everything else is valid
    let e = g.restore_state(&bad).unwrap_err();
    assert_eq!(
        (e.class(), e.offset(), e.category()),
        ("trailing_bytes", 2090, "format")
    );
    assert_eq!(g.save_state(), before);
    assert_eq!(g.restore_count(), 0);
    assert!(log.lock().unwrap().is_empty());
}

fn put(b: &mut [u8], at: usize, v: &[u8]) {
    b[at..at + v.len()].copy_from_slice(v);
}

#[test]
fn hostile_classes_and_offsets() {
    let good = tiny().save_state();
    let f = |v: f64| v.to_bits().to_le_bytes();
    let cases: Vec<(usize, Vec<u8>, &str)> = vec![
        (0, vec![0x4F, 0x50, 0x47, 0x54], "bad_magic"),
        (4, vec![2, 0], "unsupported_version"),
        (6, vec![2, 0], "wrong_kind"),
        (8, 3i32.to_le_bytes().to_vec(), "size_mismatch"),
        (12, 2i32.to_le_bytes().to_vec(), "size_mismatch"),
        (16, (-1i32).to_le_bytes().to_vec(), "out_of_range"),
        (20, f(f64::NAN).to_vec(), "nan"),
        (28, f(4_194_304.0).to_vec(), "out_of_range"),
        (36, f(0.0).to_vec(), "out_of_range"), // origins are not zero
        (36, f(f64::INFINITY).to_vec(), "out_of_range"),
        (44, (-5i32).to_le_bytes().to_vec(), "out_of_range"),
        (48 + 8 * 7, f(0.0).to_vec(), "out_of_range"),
        (48 + 8 * 254, f(-1.0).to_vec(), "out_of_range"),
        (
            48 + 8 * 9,
            f(f64::from_bits(0x7FF0_0000_0000_0001)).to_vec(),
            "nan",
        ),
    ];
    for (at, bytes, class) in cases {
        let mut b = good.clone();
        put(&mut b, at, &bytes);
        let mut g = tiny();
        let e = g.restore_state(&b).unwrap_err();
        assert_eq!((e.class(), e.offset()), (class, at), "patch at {at}");
        assert_eq!(g.save_state(), good);
    }
    // Two faults: the first in byte order wins.
    let mut b = good.clone();
    put(&mut b, 44, &(-5i32).to_le_bytes());
    put(&mut b, 16, &(-1i32).to_le_bytes());
    assert_eq!(tiny().restore_state(&b).unwrap_err().offset(), 16);
    // All-zero space is the unassigned default.
    let mut b = good.clone();
    put(&mut b, 20, &[0; 24]);
    tiny().restore_state(&b).unwrap();
    // from_state size rules.
    let mut b = good.clone();
    put(&mut b, 8, &0i32.to_le_bytes());
    let e = Grid::from_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 8));
    put(&mut b, 8, &(1i32 << 14).to_le_bytes());
    put(&mut b, 12, &((1i32 << 12) + 1).to_le_bytes());
    let e = Grid::from_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 12));
    // A valid big size with few bytes: truncated at the input length (no 2^26 allocation).
    put(&mut b, 12, &(1i32 << 12).to_le_bytes());
    let e = Grid::from_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("truncated", b.len()));
}

#[test]
fn every_truncation_is_truncated_at_the_length() {
    let good = tiny().save_state();
    for len in 0..good.len() {
        let mut g = tiny();
        let e = g.restore_state(&good[..len]).unwrap_err();
        assert_eq!((e.class(), e.offset()), ("truncated", len), "length {len}");
        let e = Grid::from_state(&good[..len]).unwrap_err();
        assert_eq!((e.class(), e.offset()), ("truncated", len), "length {len}");
    }
}

#[test]
fn no_panic_on_byte_flips() {
    let good = tiny().save_state();
    for at in (0..good.len()).step_by(3) {
        for v in [0u8, 1, 0x7F, 0x80, 0xFF] {
            let mut b = good.clone();
            b[at] = v;
            let mut g = tiny();
            let _ = g.restore_state(&b);
            let _ = Grid::from_state(&b);
        }
    }
}
