//! Square and hex grids: [GRID.SQUARE.SIZE], [GRID.SQUARE.INDEX], [GRID.HEX.LAYOUT],
//! [GRID.HEX.SIZE], edits ([GRID.VERSION.COUNT], [GRID.EDIT.RANGE], [GRID.LISTEN.EDIT]) and
//! their state kinds 1 and 2 ([STATE.GRID], [STATE.HEX], [STATE.GRID.RESTORE], [STATE.ATOMIC]).

use crate::cells::{
    bump, check_space, read_space, Areas, CellListener, GridSpace, HexLayout, Listeners,
};
use crate::grid_error::{GridError, GridKind, GridStateError};
use crate::grid_search::GridCache;
use crate::wire::{fail, Class, Fault, Put, Reader, KIND_GRID, KIND_HEX};
use crate::MAX_NODES;
use std::fmt;

/// The cells and tables a square or hex grid holds.
pub(crate) struct Plane {
    width: usize,
    height: usize,
    cells: Vec<u8>,
    version: i32,
    restore_count: u64,
    areas: Areas,
    space: GridSpace,
    listeners: Listeners,
    /// [GS.CLEAR.GRID] The clearance of every cell once computed (square grids only).
    clearance: Option<Vec<u8>>,
    /// The cells before a restore with listeners, kept for the comparison (reused, so a
    /// restore allocates nothing once it has grown).
    previous: Vec<u8>,
    /// Derived search data and scratch (square grids; see `grid_search::cache`).
    derived: GridCache,
}

/// [GS.CLEAR.VALUE] The clearance of every cell of a `w x h` row-major grid: 0 for a wall,
/// else `1 + min` of the east, south and south-east neighbours (0 outside), saturating at 255.
pub(crate) fn clearance_map(cells: &[u8], w: usize, h: usize) -> Vec<u8> {
    let mut c = Vec::new();
    clearance_into(cells, w, h, &mut c);
    c
}

/// [`clearance_map`] written into `c` (resized to `w * h`; its allocation is reused).
fn clearance_into(cells: &[u8], w: usize, h: usize, c: &mut Vec<u8>) {
    c.clear();
    c.resize(w * h, 0);
    for y in (0..h).rev() {
        for x in (0..w).rev() {
            let i = y * w + x;
            if cells[i] == crate::WALL {
                continue;
            }
            let e = if x + 1 < w { c[i + 1] } else { 0 };
            let s = if y + 1 < h { c[i + w] } else { 0 };
            let se = if x + 1 < w && y + 1 < h {
                c[i + w + 1]
            } else {
                0
            };
            c[i] = e.min(s).min(se).saturating_add(1);
        }
    }
}

/// A validated state, borrowing its cells from the input.
struct Parsed<'a> {
    width: usize,
    height: usize,
    layout: i32,
    version: i32,
    space: GridSpace,
    areas: Areas,
    cells: &'a [u8],
}

/// What the size fields must be: equal to a grid's (`restore_state`) or valid (`from_state`).
#[derive(Clone, Copy)]
enum Expect {
    Same {
        width: usize,
        height: usize,
        layout: i32,
    },
    Valid,
}

fn size_ok(width: usize, height: usize) -> bool {
    width >= 1 && height >= 1 && width.checked_mul(height).is_some_and(|n| n <= MAX_NODES)
}

impl Plane {
    fn new(width: usize, height: usize) -> Result<Plane, GridError> {
        if !size_ok(width, height) {
            return Err(GridError::new(GridKind::InvalidSize {
                sizes: [width, height, 1],
                dims: 2,
            }));
        }
        Ok(Plane {
            width,
            height,
            cells: vec![0; width * height],
            version: 0,
            restore_count: 0,
            areas: Areas::default(),
            space: GridSpace::default(),
            listeners: Listeners::default(),
            clearance: None,
            previous: Vec::new(),
            derived: GridCache::default(),
        })
    }

    fn index(&self, x: usize, y: usize) -> Result<usize, GridError> {
        if x >= self.width {
            return Err(GridError::new(GridKind::CellOutOfRange {
                axis: 'x',
                value: x,
                size: self.width,
            }));
        }
        if y >= self.height {
            return Err(GridError::new(GridKind::CellOutOfRange {
                axis: 'y',
                value: y,
                size: self.height,
            }));
        }
        Ok(y * self.width + x)
    }

    fn set_cell(&mut self, x: usize, y: usize, area: u8) -> Result<(), GridError> {
        let i = self.index(x, y)?;
        let old = self.cells[i];
        if old != area {
            self.cells[i] = area;
            self.version = bump(self.version);
            self.derived.edited(i, self.width, old, area);
            self.recompute_clearance();
            self.listeners.notify(i as u32, old, area);
        }
        Ok(())
    }

    /// [GS.CLEAR.GRID] Recomputes the clearance if it had been computed.
    fn recompute_clearance(&mut self) {
        if let Some(c) = &mut self.clearance {
            clearance_into(&self.cells, self.width, self.height, c);
        }
    }

    fn set_space(&mut self, s: GridSpace) -> Result<(), GridError> {
        check_space(&[
            ("origin_x", s.origin_x),
            ("origin_y", s.origin_y),
            ("cell_size", s.cell_size),
        ])?;
        self.space = s;
        Ok(())
    }

    /// [STATE.GRID] [STATE.HEX] Header, sizes (and layout), version, space, areas, cells.
    /// Writes the state bytes into `out` (cleared first, reserved at once).
    fn save(&self, kind: u16, layout: Option<i32>, out: &mut Vec<u8>) {
        out.clear();
        out.reserve(8 + 16 + 32 + 4 + 255 * 8 + self.cells.len());
        out.put_header(kind);
        out.put_i32(self.width as i32);
        out.put_i32(self.height as i32);
        if let Some(l) = layout {
            out.put_i32(l);
        }
        out.put_i32(self.version);
        out.put_f64(self.space.origin_x);
        out.put_f64(self.space.origin_y);
        out.put_f64(self.space.cell_size);
        self.areas.write(out);
        out.extend_from_slice(&self.cells);
    }

    /// [STATE.ORDER] [STATE.GRID] [STATE.HEX] Reads and checks every field in byte order.
    fn parse(bytes: &[u8], kind: u16, expect: Expect) -> Result<Parsed<'_>, Fault> {
        let mut r = Reader::new(bytes);
        r.header(kind)?;
        let hex = kind == KIND_HEX;
        let (wat, w) = (r.pos, r.i32("width")?);
        match expect {
            Expect::Same { width, .. } if w as i64 != width as i64 => {
                return fail(Class::SizeMismatch, wat, "width")
            }
            Expect::Valid if w < 1 => return fail(Class::OutOfRange, wat, "width"),
            _ => {}
        }
        let (hat, h) = (r.pos, r.i32("height")?);
        match expect {
            Expect::Same { height, .. } if h as i64 != height as i64 => {
                return fail(Class::SizeMismatch, hat, "height")
            }
            Expect::Valid if !size_ok(w as usize, h.max(0) as usize) => {
                return fail(Class::OutOfRange, hat, "height")
            }
            _ => {}
        }
        let mut layout = 0;
        if hex {
            let at = r.pos;
            layout = r.i32("layout")?;
            match expect {
                Expect::Same { layout: l, .. } if layout != l => {
                    return fail(Class::SizeMismatch, at, "layout")
                }
                Expect::Valid if HexLayout::try_from(layout).is_err() => {
                    return fail(Class::OutOfRange, at, "layout")
                }
                _ => {}
            }
        }
        let at = r.pos;
        let version = r.i32("version")?;
        if version < 0 {
            return fail(Class::OutOfRange, at, "version");
        }
        let [origin_x, origin_y, cell_size] = read_space::<3>(&mut r)?;
        let areas = Areas::read(&mut r)?;
        let (width, height) = (w as usize, h as usize);
        let cells = r.take(width * height, "cells")?;
        r.finish()?;
        Ok(Parsed {
            width,
            height,
            layout,
            version,
            space: GridSpace {
                origin_x,
                origin_y,
                cell_size,
            },
            areas,
            cells,
        })
    }

    fn expect(&self, layout: i32) -> Expect {
        Expect::Same {
            width: self.width,
            height: self.height,
            layout,
        }
    }

    /// [STATE.GRID.RESTORE] [GRID.LISTEN.RESTORE] Installs a validated state, then tells the
    /// listeners about the cells that differ.
    fn install(&mut self, p: Parsed<'_>) {
        self.version = p.version;
        self.space = p.space;
        self.areas = p.areas;
        self.restore_count += 1;
        self.derived.restored();
        if self.listeners.is_empty() {
            self.cells.copy_from_slice(p.cells);
        } else {
            std::mem::swap(&mut self.previous, &mut self.cells);
            self.cells.clear();
            self.cells.extend_from_slice(p.cells);
            self.recompute_clearance();
            self.listeners.notify_diff(0, &self.previous, &self.cells);
            return;
        }
        self.recompute_clearance();
    }

    fn from_parsed(p: Parsed<'_>) -> Plane {
        Plane {
            width: p.width,
            height: p.height,
            cells: p.cells.to_vec(),
            version: p.version,
            restore_count: 0,
            areas: p.areas,
            space: p.space,
            listeners: Listeners::default(),
            clearance: None,
            previous: Vec::new(),
            derived: GridCache::default(),
        }
    }

    fn debug(
        &self,
        f: &mut fmt::Formatter<'_>,
        name: &str,
        layout: Option<HexLayout>,
    ) -> fmt::Result {
        let mut d = f.debug_struct(name);
        d.field("width", &self.width).field("height", &self.height);
        if let Some(l) = layout {
            d.field("layout", &l);
        }
        d.field("version", &self.version)
            .field("restore_count", &self.restore_count)
            .field("area_version", &self.areas.version)
            .field("space", &self.space)
            .field("listeners", &self.listeners.len())
            .finish_non_exhaustive()
    }
}

/// The methods Grid and HexGrid share ([GRID.HEX.SIZE]: the same rules).
macro_rules! plane_methods {
    () => {
        /// [GRID.SQUARE.SIZE] The width (cells per row).
        pub fn width(&self) -> usize {
            self.p.width
        }

        /// [GRID.SQUARE.SIZE] The height (rows).
        pub fn height(&self) -> usize {
            self.p.height
        }

        /// [GRID.SQUARE.INDEX] [GRID.EDIT.RANGE] The area of cell `(x, y)`.
        pub fn cell(&self, x: usize, y: usize) -> Result<u8, GridError> {
            Ok(self.p.cells[self.p.index(x, y)?])
        }

        /// [GRID.VERSION.COUNT] [GRID.EDIT.RANGE] [GRID.LISTEN.EDIT] Sets cell `(x, y)`; a change
        /// bumps the version and then tells the listeners; writing the current value does nothing.
        pub fn set_cell(&mut self, x: usize, y: usize, area: u8) -> Result<(), GridError> {
            self.p.set_cell(x, y, area)
        }

        /// [GRID.SQUARE.INDEX] Every cell, row-major.
        pub fn cells(&self) -> &[u8] {
            &self.p.cells
        }

        /// [GRID.VERSION.COUNT] [GRID.VERSION.RESTORE] The cell version.
        pub fn version(&self) -> i32 {
            self.p.version
        }

        /// [GRID.RESTORE_COUNT] Successful restores so far (not saved).
        pub fn restore_count(&self) -> u64 {
            self.p.restore_count
        }

        /// [GRID.AREA.TABLE] The multiplier of `area`; `None` for 255 (the wall).
        pub fn area_multiplier(&self, area: u8) -> Option<f64> {
            self.p.areas.get(area)
        }

        /// [GRID.AREA.SET] Sets the multiplier of `area <= 254` (`area_out_of_range`) to a finite
        /// `m > 0` (`invalid_multiplier`) and bumps the area version.
        pub fn set_area_multiplier(&mut self, area: u8, multiplier: f64) -> Result<(), GridError> {
            self.p.areas.set(area, multiplier)?;
            self.p.derived.areas_changed();
            Ok(())
        }

        /// [GRID.AREA.VERSION] The area table's version.
        pub fn area_version(&self) -> i32 {
            self.p.areas.version
        }

        /// [GRID.SPACE.FIELDS] The grid's space.
        pub fn space(&self) -> GridSpace {
            self.p.space
        }

        /// [GRID.SPACE.RANGE] Sets the space (`invalid_space` naming the field and value).
        pub fn set_space(&mut self, space: GridSpace) -> Result<(), GridError> {
            self.p.set_space(space)
        }

        /// [GRID.LISTEN.EDIT] Adds a listener; returns its id.
        pub fn add_listener(&mut self, listener: CellListener) -> usize {
            self.p.listeners.add(listener)
        }

        /// [GRID.LISTEN.EDIT] Removes listener `id`; `false` when there is none.
        pub fn remove_listener(&mut self, id: usize) -> bool {
            self.p.listeners.remove(id)
        }
    };
}

/// [GRID.SQUARE.SIZE] [GRID.SQUARE.INDEX] [GRID.CELL.DEFAULT] A square grid of area cells.
pub struct Grid {
    p: Plane,
}

impl Grid {
    /// [GRID.SQUARE.SIZE] [GRID.CELL.DEFAULT] A `width x height` grid of area 0
    /// (`invalid_size`).
    pub fn new(width: usize, height: usize) -> Result<Grid, GridError> {
        Ok(Grid {
            p: Plane::new(width, height)?,
        })
    }

    plane_methods!();

    /// The grid's derived search data and scratch pool (`grid_search::cache`).
    pub(crate) fn derived(&self) -> &GridCache {
        &self.p.derived
    }

    /// [GRID.SQUARE.INDEX] `(x, y)` of the flat cell index `index` (`y * width + x`), as paths
    /// and expanded lists carry cells; `None` past the last cell.
    ///
    /// ```
    /// let grid = onepath::Grid::new(5, 4).unwrap();
    /// assert_eq!(grid.cell_xy(13), Some((3, 2)));
    /// assert_eq!(grid.cell_index(3, 2), Some(13));
    /// assert_eq!(grid.path_xy(&[0, 6, 12]), Some(vec![(0, 0), (1, 1), (2, 2)]));
    /// ```
    pub fn cell_xy(&self, index: u32) -> Option<(usize, usize)> {
        let i = index as usize;
        (i < self.p.cells.len()).then(|| (i % self.p.width, i / self.p.width))
    }

    /// [GRID.SQUARE.INDEX] The flat index of `(x, y)`; `None` outside the grid.
    pub fn cell_index(&self, x: usize, y: usize) -> Option<u32> {
        (x < self.p.width && y < self.p.height).then(|| (y * self.p.width + x) as u32)
    }

    /// [GRID.SQUARE.INDEX] `cells` (a path, start first) as `(x, y)` pairs; `None` when one is
    /// past the grid.
    pub fn path_xy(&self, cells: &[u32]) -> Option<Vec<(usize, usize)>> {
        cells.iter().map(|&c| self.cell_xy(c)).collect()
    }

    /// [GS.CLEAR.GRID] [GS.CLEAR.VALUE] Computes and keeps the clearance of every cell; from
    /// now on every cell edit and every successful restore recomputes it before returning.
    pub fn compute_clearance(&mut self) {
        self.p.clearance = Some(clearance_map(&self.p.cells, self.p.width, self.p.height));
    }

    /// [GS.CLEAR.GRID] The clearance of cell `(x, y)` (`None` until computed;
    /// `cell_out_of_range` outside the grid).
    pub fn clearance(&self, x: usize, y: usize) -> Result<Option<u8>, GridError> {
        let i = self.p.index(x, y)?;
        Ok(self.p.clearance.as_ref().map(|c| c[i]))
    }

    /// [STATE.GRID] [STATE.STABLE] The state bytes (kind 1).
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_state_into(&mut out);
        out
    }

    /// [STATE.API.INTO] The bytes of [`Grid::save_state`] written into `out` (cleared first; its
    /// allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        self.p.save(KIND_GRID, None, out);
    }

    /// [STATE.GRID] [STATE.ATOMIC] [STATE.GRID.RESTORE] Validates everything, then installs the
    /// state and tells the listeners; on error nothing changed.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let p =
            Plane::parse(bytes, KIND_GRID, self.p.expect(0)).map_err(GridStateError::from_fault)?;
        self.p.install(p);
        Ok(())
    }

    /// [STATE.API] [STATE.GRID] A new grid from state bytes ([GRID.SQUARE.SIZE] required).
    pub fn from_state(bytes: &[u8]) -> Result<Grid, GridStateError> {
        let p =
            Plane::parse(bytes, KIND_GRID, Expect::Valid).map_err(GridStateError::from_fault)?;
        Ok(Grid {
            p: Plane::from_parsed(p),
        })
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.p.debug(f, "Grid", None)
    }
}

/// [GRID.HEX.LAYOUT] [GRID.HEX.SIZE] A hex grid in one of four offset layouts.
pub struct HexGrid {
    p: Plane,
    layout: HexLayout,
}

impl HexGrid {
    /// [GRID.HEX.SIZE] [GRID.CELL.DEFAULT] A `width x height` hex grid of area 0
    /// (`invalid_size`).
    pub fn new(width: usize, height: usize, layout: HexLayout) -> Result<HexGrid, GridError> {
        Ok(HexGrid {
            p: Plane::new(width, height)?,
            layout,
        })
    }

    /// [GRID.HEX.LAYOUT] The layout.
    pub fn layout(&self) -> HexLayout {
        self.layout
    }

    /// The grid's scratch pool (`grid_search::cache`; hex searches use only its 4-ary scratch).
    pub(crate) fn derived(&self) -> &GridCache {
        &self.p.derived
    }

    plane_methods!();

    /// [STATE.HEX] [STATE.STABLE] The state bytes (kind 2).
    pub fn save_state(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.save_state_into(&mut out);
        out
    }

    /// [STATE.API.INTO] The bytes of [`HexGrid::save_state`] written into `out` (cleared first;
    /// its allocation is reused).
    pub fn save_state_into(&self, out: &mut Vec<u8>) {
        self.p.save(KIND_HEX, Some(self.layout as i32), out);
    }

    /// [STATE.HEX] [STATE.ATOMIC] [STATE.GRID.RESTORE] Validates everything (width, height and
    /// layout must equal this grid's), then installs; on error nothing changed.
    pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
        let e = self.p.expect(self.layout as i32);
        let p = Plane::parse(bytes, KIND_HEX, e).map_err(GridStateError::from_fault)?;
        self.p.install(p);
        Ok(())
    }

    /// [STATE.API] [STATE.HEX] A new hex grid from state bytes (valid size and layout).
    pub fn from_state(bytes: &[u8]) -> Result<HexGrid, GridStateError> {
        let p = Plane::parse(bytes, KIND_HEX, Expect::Valid).map_err(GridStateError::from_fault)?;
        let layout = HexLayout::try_from(p.layout).unwrap_or(HexLayout::OddR);
        Ok(HexGrid {
            p: Plane::from_parsed(p),
            layout,
        })
    }
}

impl fmt::Debug for HexGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.p.debug(f, "HexGrid", Some(self.layout))
    }
}
