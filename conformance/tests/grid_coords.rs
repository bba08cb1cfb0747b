//! [GRID.SQUARE.XY]: the coordinate form of grid paths, in both crates, agrees with
//! [GRID.SQUARE.INDEX] on real search results and at the edges of the grid.

use onepath::{find_grid_path as find_o, Grid as GridO, GridOptions as OptionsO};
use onepath_reference::{find_grid_path as find_r, Grid as GridR, GridOptions as OptionsR};

#[test]
fn paths_come_back_as_the_coordinates_that_went_in() {
    let (w, h) = (23usize, 9usize);
    let (mut r, mut o) = (GridR::new(w, h).unwrap(), GridO::new(w, h).unwrap());
    for y in 1..h - 1 {
        r.set_cell(11, y, onepath_reference::WALL).unwrap();
        o.set_cell(11, y, onepath::WALL).unwrap();
    }
    let (start, goal) = ((1, 4), (21, 4));
    let pr = find_r(&r, start, goal, &OptionsR::default()).unwrap();
    let po = find_o(&o, start, goal, &OptionsO::default()).unwrap();
    assert!(pr.cells.len() > 2, "a path around the wall");
    let xy_r = r.path_xy(&pr.cells).unwrap();
    let xy_o = o.path_xy(&po.cells).unwrap();
    assert_eq!(xy_r, xy_o);
    assert_eq!(xy_r.first(), Some(&start));
    assert_eq!(xy_r.last(), Some(&goal));
    for (&cell, &(x, y)) in pr.cells.iter().zip(&xy_r) {
        assert_eq!(cell as usize, y * w + x);
        assert_eq!(r.cell_index(x, y), Some(cell));
        assert_eq!(o.cell_index(x, y), Some(cell));
    }
}

// pins [GRID.SQUARE.XY]: cell_xy, cell_index and path_xy at and past every edge of a 7 x 3 grid on
// both crates: a wrong bound, a Some past the end or a path_xy that skips a bad cell fails
#[test]
fn the_edges_of_the_grid() {
    let (w, h) = (7usize, 3usize);
    let (r, o) = (GridR::new(w, h).unwrap(), GridO::new(w, h).unwrap());
    let last = (w * h - 1) as u32;
    for i in [0, 1, w as u32 - 1, w as u32, last, last + 1, u32::MAX] {
        assert_eq!(r.cell_xy(i), o.cell_xy(i), "cell {i}");
        assert_eq!(r.cell_xy(i).is_some(), i <= last, "cell {i}");
    }
    assert_eq!(r.cell_xy(last), Some((w - 1, h - 1)));
    for (x, y) in [
        (0, 0),
        (w - 1, h - 1),
        (w, 0),
        (0, h),
        (usize::MAX, usize::MAX),
    ] {
        assert_eq!(r.cell_index(x, y), o.cell_index(x, y), "({x}, {y})");
        assert_eq!(r.cell_index(x, y).is_some(), x < w && y < h, "({x}, {y})");
    }
    assert_eq!(r.path_xy(&[0, last + 1]), None);
    assert_eq!(o.path_xy(&[0, last + 1]), None);
    assert_eq!(r.path_xy(&[]), Some(vec![]));
}
