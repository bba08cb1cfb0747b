//! [GRID.*] Square and hex grids: cells, areas, versions, listeners, space.

use std::sync::{Arc, Mutex};

use onepath_reference::{Grid, GridSpace, HexGrid, HexLayout, WALL};

type Log = Arc<Mutex<Vec<(u32, u8, u8)>>>;

fn logger(grid: &mut Grid) -> Log {
    let log: Log = Arc::default();
    let l = log.clone();
    grid.add_listener(Box::new(move |i, a, b| l.lock().unwrap().push((i, a, b))));
    log
}

#[test]
fn sizes_and_defaults() {
    assert_eq!(Grid::new(0, 3).err().unwrap().class(), "invalid_size");
    assert_eq!(Grid::new(3, 0).err().unwrap().class(), "invalid_size");
    assert_eq!(
        Grid::new(1 << 13, (1 << 13) + 1).err().unwrap().class(),
        "invalid_size"
    );
    assert!(Grid::new(1 << 13, 1 << 13).is_ok());
    let g = Grid::new(3, 2).unwrap();
    assert_eq!(g.cells(), &[0; 6]);
    assert_eq!(
        (g.version(), g.restore_count(), g.area_version()),
        (0, 0, 0)
    );
    assert_eq!(g.area_multiplier(0), Some(1.0));
    assert_eq!(g.area_multiplier(254), Some(1.0));
    assert_eq!(g.area_multiplier(WALL), None);
    assert_eq!(g.space(), GridSpace::default());
}

#[test]
fn edits_versions_and_listeners() {
    let mut g = Grid::new(3, 2).unwrap();
    let log = logger(&mut g);
    let order: Log = Arc::default();
    let o = order.clone();
    let second = g.add_listener(Box::new(move |i, _, _| o.lock().unwrap().push((i, 0, 2))));
    g.set_cell(2, 1, 7).unwrap(); // index 1 * 3 + 2 = 5
    assert_eq!(g.cells()[5], 7);
    assert_eq!(g.version(), 1);
    g.set_cell(2, 1, 7).unwrap(); // same value: no edit
    assert_eq!(g.version(), 1);
    assert_eq!(*log.lock().unwrap(), vec![(5, 0, 7)]);
    assert_eq!(*order.lock().unwrap(), vec![(5, 0, 2)]);
    assert!(g.remove_listener(second));
    assert!(!g.remove_listener(second));
    g.set_cell(0, 0, WALL).unwrap();
    assert_eq!(*log.lock().unwrap(), vec![(5, 0, 7), (0, 0, 255)]);
    assert_eq!(order.lock().unwrap().len(), 1);
    let e = g.set_cell(3, 0, 1).unwrap_err();
    assert_eq!(e.class(), "cell_out_of_range");
    assert!(e.to_string().contains("x = 3"));
    let e = g.set_cell(0, 2, 1).unwrap_err();
    assert!(e.to_string().contains("y = 2"));
    assert_eq!(g.cell(1, 1).unwrap(), 0);
    assert_eq!(g.version(), 2);
}

#[test]
fn areas() {
    let mut g = Grid::new(1, 1).unwrap();
    assert_eq!(
        g.set_area_multiplier(255, 1.0).unwrap_err().class(),
        "area_out_of_range"
    );
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert_eq!(
            g.set_area_multiplier(3, bad).unwrap_err().class(),
            "invalid_multiplier"
        );
    }
    assert_eq!(g.area_version(), 0);
    g.set_area_multiplier(3, 2.5).unwrap();
    g.set_area_multiplier(3, 2.5).unwrap(); // equal value still counts
    assert_eq!(g.area_version(), 2);
    assert_eq!(g.area_multiplier(3), Some(2.5));
}

#[test]
fn space_rules() {
    let mut g = Grid::new(1, 1).unwrap();
    let b = 2_097_152.0;
    g.set_space(GridSpace {
        origin_x: -b,
        origin_y: b,
        cell_size: b,
    })
    .unwrap();
    g.set_space(GridSpace::default()).unwrap();
    let bad = [
        (
            GridSpace {
                origin_x: b * 2.0,
                origin_y: 0.0,
                cell_size: 1.0,
            },
            "origin_x",
        ),
        (
            GridSpace {
                origin_x: 0.0,
                origin_y: f64::NAN,
                cell_size: 1.0,
            },
            "origin_y",
        ),
        (
            GridSpace {
                origin_x: 1.0,
                origin_y: 0.0,
                cell_size: 0.0,
            },
            "cell_size",
        ),
        (
            GridSpace {
                origin_x: 0.0,
                origin_y: 0.0,
                cell_size: -1.0,
            },
            "cell_size",
        ),
    ];
    for (s, field) in bad {
        let e = g.set_space(s).unwrap_err();
        assert_eq!(e.class(), "invalid_space");
        assert!(e.to_string().contains(field), "{e}");
    }
    assert_eq!(g.space(), GridSpace::default());
}

#[test]
fn version_wraps() {
    // Drive the version to 2^31 - 1 through a restore, then one edit wraps it to 0.
    let mut g = Grid::new(1, 1).unwrap();
    let mut bytes = g.save_state();
    bytes[16..20].copy_from_slice(&i32::MAX.to_le_bytes());
    g.restore_state(&bytes).unwrap();
    assert_eq!(g.version(), i32::MAX);
    g.set_cell(0, 0, 1).unwrap();
    assert_eq!(g.version(), 0);
    // Area version likewise (at offset 44).
    bytes[44..48].copy_from_slice(&i32::MAX.to_le_bytes());
    g.restore_state(&bytes).unwrap();
    g.set_area_multiplier(0, 2.0).unwrap();
    assert_eq!(g.area_version(), 0);
}

#[test]
fn hex_grid() {
    assert_eq!(
        HexLayout::try_from(4).unwrap_err().class(),
        "invalid_layout"
    );
    assert_eq!(HexLayout::try_from(2).unwrap(), HexLayout::OddQ);
    let mut h = HexGrid::new(4, 3, HexLayout::EvenQ).unwrap();
    assert_eq!(h.layout(), HexLayout::EvenQ);
    h.set_cell(3, 2, 9).unwrap();
    assert_eq!(h.cells()[11], 9);
    let b = h.save_state();
    assert_eq!(&b[6..8], &[2, 0]);
    assert_eq!(i32::from_le_bytes(b[16..20].try_into().unwrap()), 3);
    let h2 = HexGrid::from_state(&b).unwrap();
    assert_eq!(h2.layout(), HexLayout::EvenQ);
    assert_eq!(h2.save_state(), b);
    let mut other = HexGrid::new(4, 3, HexLayout::OddR).unwrap();
    let e = other.restore_state(&b).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("size_mismatch", 16));
    let mut bad = b.clone();
    bad[16] = 4;
    let e = HexGrid::from_state(&bad).unwrap_err();
    assert_eq!((e.class(), e.offset()), ("out_of_range", 16));
    assert_eq!(Grid::from_state(&b).unwrap_err().class(), "wrong_kind");
}
