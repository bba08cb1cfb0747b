//! [GRID] Square and hex grids of spec/grids.md: cells, areas, versions, listeners and space.

use crate::grid_error::{GridError, GridStateError};
use crate::state::SPACE_BOUND;

/// [GRID.CELL.AREA] The wall value: never walkable, has no multiplier.
pub const WALL: u8 = 255;
/// [GRID.AREA.TABLE] The number of areas with a multiplier (`0..=254`).
pub(crate) const AREA_COUNT: usize = 255;
/// [GRID.SQUARE.SIZE] [GRID.VOXEL.SIZE] The node cap `2^26`.
pub(crate) const MAX_CELLS: u64 = 1 << 26;

/// [GRID.LISTEN.EDIT] A cell listener, called with `(cell index, old value, new value)`.
pub type CellListener = Box<dyn FnMut(u32, u8, u8) + Send>;

/// [GRID.SPACE.FIELDS] [GRID.SPACE.UNASSIGNED] The world placement of a square or hex grid; all
/// zero (the default) is unassigned and behaves as origin 0, cell size 1.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct GridSpace {
    /// [GRID.SPACE.FIELDS] World x of the grid's corner.
    pub origin_x: f64,
    /// [GRID.SPACE.FIELDS] World y of the grid's corner.
    pub origin_y: f64,
    /// [GRID.SPACE.FIELDS] Edge length of one cell.
    pub cell_size: f64,
}

/// [GRID.SPACE.FIELDS] [GRID.SPACE.UNASSIGNED] The world placement of a voxel grid; all zero (the
/// default) is unassigned and behaves as origin 0, cell size 1.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct VoxelSpace {
    /// [GRID.SPACE.FIELDS] World x of the grid's corner.
    pub origin_x: f64,
    /// [GRID.SPACE.FIELDS] World y of the grid's corner.
    pub origin_y: f64,
    /// [GRID.SPACE.FIELDS] World z of the grid's corner.
    pub origin_z: f64,
    /// [GRID.SPACE.FIELDS] Edge length of one voxel.
    pub cell_size: f64,
}

/// [GRID.SPACE.RANGE] [GRID.SPACE.UNASSIGNED] Checks `(name, value)` pairs (origins, then the cell
/// size last): all zero, or origins finite with `|o| <= 2^21` and `0 < cell_size <= 2^21`; the
/// first offending field is named (`invalid_space`).
pub(crate) fn check_space(fields: &[(&'static str, f64)]) -> Result<(), GridError> {
    if fields.iter().all(|&(_, v)| v == 0.0) {
        return Ok(());
    }
    let last = fields.len() - 1;
    for (i, &(name, v)) in fields.iter().enumerate() {
        let ok = if i == last {
            v > 0.0 && v <= SPACE_BOUND
        } else {
            v.is_finite() && v.abs() <= SPACE_BOUND
        };
        if !ok {
            return Err(GridError::space(name, v));
        }
    }
    Ok(())
}

/// [GRID.HEX.LAYOUT] The four offset layouts of a hex grid; the numbers are saved in state bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum HexLayout {
    /// [GRID.HEX.LAYOUT] Pointy-top, odd rows shifted right by half a cell.
    OddR = 0,
    /// [GRID.HEX.LAYOUT] Pointy-top, even rows shifted right.
    EvenR = 1,
    /// [GRID.HEX.LAYOUT] Flat-top, odd columns shifted down.
    OddQ = 2,
    /// [GRID.HEX.LAYOUT] Flat-top, even columns shifted down.
    EvenQ = 3,
}

impl TryFrom<i32> for HexLayout {
    type Error = GridError;
    /// [GRID.HEX.LAYOUT] `0..=3`, anything else is `invalid_layout`.
    fn try_from(value: i32) -> Result<Self, GridError> {
        match value {
            0 => Ok(HexLayout::OddR),
            1 => Ok(HexLayout::EvenR),
            2 => Ok(HexLayout::OddQ),
            3 => Ok(HexLayout::EvenQ),
            v => Err(GridError::layout(v)),
        }
    }
}

/// [GRID.VERSION.COUNT] [GRID.AREA.VERSION] Adds 1, wrapping `2^31 - 1` to 0.
pub(crate) fn bump(v: i32) -> i32 {
    if v == i32::MAX {
        0
    } else {
        v + 1
    }
}

/// [GRID.AREA.TABLE] [GRID.AREA.VERSION] The area multipliers `0..=254` and their version.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AreaTable {
    pub(crate) multipliers: [f64; AREA_COUNT],
    pub(crate) version: i32,
}

impl AreaTable {
    /// [GRID.AREA.TABLE] Every multiplier 1.0, version 0.
    pub(crate) fn new() -> Self {
        AreaTable {
            multipliers: [1.0; AREA_COUNT],
            version: 0,
        }
    }

    /// [GRID.AREA.TABLE] The multiplier of `area`; `None` for the wall.
    pub(crate) fn get(&self, area: u8) -> Option<f64> {
        self.multipliers.get(area as usize).copied()
    }

    /// [GRID.AREA.SET] Checks the area then the multiplier; stores it and bumps the version.
    pub(crate) fn set(&mut self, area: u8, m: f64) -> Result<(), GridError> {
        if area as usize >= AREA_COUNT {
            return Err(GridError::area(area));
        }
        if !(m.is_finite() && m > 0.0) {
            return Err(GridError::multiplier(m));
        }
        self.multipliers[area as usize] = m;
        self.version = bump(self.version);
        Ok(())
    }
}

/// [GRID.LISTEN.EDIT] The listeners of one grid, in the order they were added.
#[derive(Default)]
pub(crate) struct Listeners {
    next_id: usize,
    list: Vec<(usize, CellListener)>,
}

impl Listeners {
    /// Adds a listener and returns its id.
    pub(crate) fn add(&mut self, l: CellListener) -> usize {
        let id = self.next_id;
        self.next_id += 1;
        self.list.push((id, l));
        id
    }
    /// Removes the listener `id`; false when there is none.
    pub(crate) fn remove(&mut self, id: usize) -> bool {
        match self.list.iter().position(|(i, _)| *i == id) {
            Some(p) => {
                drop(self.list.remove(p));
                true
            }
            None => false,
        }
    }
    /// [GRID.LISTEN.EDIT] Tells every listener, in order, about one changed cell.
    pub(crate) fn notify(&mut self, index: usize, old: u8, new: u8) {
        for (_, l) in self.list.iter_mut() {
            l(index as u32, old, new);
        }
    }
}

/// [GRID.SQUARE.SIZE] Checks `width >= 1`, `height >= 1`, `width * height <= 2^26`.
pub(crate) fn check_size(width: usize, height: usize) -> Result<(), GridError> {
    let product = (width as u128) * (height as u128);
    if width == 0 || height == 0 || product > u128::from(MAX_CELLS) {
        return Err(GridError::size(format!(
            "{width} x {height} cells: each side must be >= 1 and the product <= 2^26"
        )));
    }
    Ok(())
}

/// The state shared by `Grid` and `HexGrid`: a row-major cell array with its versions, areas,
/// space and listeners.
pub(crate) struct Plane {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) cells: Vec<u8>,
    pub(crate) version: i32,
    pub(crate) restore_count: u64,
    pub(crate) areas: AreaTable,
    pub(crate) space: GridSpace,
    pub(crate) listeners: Listeners,
    /// [GS.CLEAR.GRID] The clearance of every cell, once `compute_clearance` has been called.
    pub(crate) clearance: Option<Vec<u8>>,
}

/// [GS.CLEAR.VALUE] The clearance of every cell of a row-major `width x height` plane: 0 for a
/// wall, otherwise `1 + min(c(x+1, y), c(x, y+1), c(x+1, y+1))` with 0 outside the grid,
/// saturating at 255. Computed from the south-east corner backwards, so each cell's three
/// neighbours are known when it is reached.
pub(crate) fn clearance_of(cells: &[u8], width: usize, height: usize) -> Vec<u8> {
    let mut c = vec![0u8; width * height];
    let at = |c: &Vec<u8>, x: usize, y: usize| -> u8 {
        if x < width && y < height {
            c[y * width + x]
        } else {
            0
        }
    };
    for y in (0..height).rev() {
        for x in (0..width).rev() {
            if cells[y * width + x] == WALL {
                continue;
            }
            let east = at(&c, x + 1, y);
            let south = at(&c, x, y + 1);
            let south_east = at(&c, x + 1, y + 1);
            let least = east.min(south).min(south_east);
            c[y * width + x] = least.saturating_add(1);
        }
    }
    c
}

/// A validated, not yet installed plane state ([STATE.ATOMIC]).
pub(crate) struct PlaneState {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) layout: i32,
    pub(crate) version: i32,
    pub(crate) space: GridSpace,
    pub(crate) areas: AreaTable,
    pub(crate) cells: Vec<u8>,
}

impl Plane {
    /// [GRID.SQUARE.SIZE] [GRID.CELL.DEFAULT] A plane of area-0 cells.
    pub(crate) fn new(width: usize, height: usize) -> Result<Plane, GridError> {
        check_size(width, height)?;
        Ok(Plane {
            width,
            height,
            cells: vec![0; width * height],
            version: 0,
            restore_count: 0,
            areas: AreaTable::new(),
            space: GridSpace::default(),
            listeners: Listeners::default(),
            clearance: None,
        })
    }

    /// [STATE.API] A new plane holding a validated state (restore count 0, no listeners).
    pub(crate) fn from_parsed(s: PlaneState) -> Plane {
        Plane {
            width: s.width,
            height: s.height,
            cells: s.cells,
            version: s.version,
            restore_count: 0,
            areas: s.areas,
            space: s.space,
            listeners: Listeners::default(),
            clearance: None,
        }
    }

    /// [GS.CLEAR.GRID] Recomputes the clearance in place when it had been computed.
    fn refresh_clearance(&mut self) {
        if self.clearance.is_some() {
            self.clearance = Some(clearance_of(&self.cells, self.width, self.height));
        }
    }

    /// [GRID.SQUARE.INDEX] [GRID.EDIT.RANGE] The index of `(x, y)`, x checked first.
    fn index(&self, x: usize, y: usize) -> Result<usize, GridError> {
        if x >= self.width {
            return Err(GridError::cell('x', x, self.width));
        }
        if y >= self.height {
            return Err(GridError::cell('y', y, self.height));
        }
        Ok(y * self.width + x)
    }

    pub(crate) fn cell(&self, x: usize, y: usize) -> Result<u8, GridError> {
        Ok(self.cells[self.index(x, y)?])
    }

    /// [GRID.VERSION.COUNT] [GRID.LISTEN.EDIT] Writes a cell; a change bumps the version and then
    /// tells the listeners.
    pub(crate) fn set_cell(&mut self, x: usize, y: usize, area: u8) -> Result<(), GridError> {
        let i = self.index(x, y)?;
        let old = self.cells[i];
        if old != area {
            self.cells[i] = area;
            self.version = bump(self.version);
            self.refresh_clearance();
            self.listeners.notify(i, old, area);
        }
        Ok(())
    }

    pub(crate) fn set_space(&mut self, s: GridSpace) -> Result<(), GridError> {
        check_space(&[
            ("origin_x", s.origin_x),
            ("origin_y", s.origin_y),
            ("cell_size", s.cell_size),
        ])?;
        self.space = s;
        Ok(())
    }

    /// [STATE.GRID.RESTORE] [GRID.LISTEN.RESTORE] [GRID.RESTORE_COUNT] Installs a validated state,
    /// then tells the listeners about every differing cell in ascending index.
    pub(crate) fn install(&mut self, s: PlaneState) {
        let old = std::mem::replace(&mut self.cells, s.cells);
        self.version = s.version;
        self.space = s.space;
        self.areas = s.areas;
        self.restore_count = self.restore_count.wrapping_add(1);
        self.refresh_clearance();
        for i in 0..old.len() {
            let new = self.cells[i];
            if old[i] != new {
                self.listeners.notify(i, old[i], new);
            }
        }
    }
}

macro_rules! plane_methods {
    ($t:ty, $kind:expr) => {
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($t))
                    .field("width", &self.plane.width)
                    .field("height", &self.plane.height)
                    .field("layout", &self.layout_value())
                    .field("version", &self.plane.version)
                    .field("restore_count", &self.plane.restore_count)
                    .finish_non_exhaustive()
            }
        }
        impl $t {
            /// [GRID.SQUARE.SIZE] The width in cells.
            pub fn width(&self) -> usize {
                self.plane.width
            }
            /// [GRID.SQUARE.SIZE] The height in cells.
            pub fn height(&self) -> usize {
                self.plane.height
            }
            /// [GRID.SQUARE.INDEX] [GRID.EDIT.RANGE] The area of cell `(x, y)`.
            pub fn cell(&self, x: usize, y: usize) -> Result<u8, GridError> {
                self.plane.cell(x, y)
            }
            /// [GRID.VERSION.COUNT] [GRID.EDIT.RANGE] [GRID.LISTEN.EDIT] Sets cell `(x, y)`; a
            /// change bumps the version and notifies the listeners.
            pub fn set_cell(&mut self, x: usize, y: usize, area: u8) -> Result<(), GridError> {
                self.plane.set_cell(x, y, area)
            }
            /// [GRID.SQUARE.INDEX] All cells, row-major.
            pub fn cells(&self) -> &[u8] {
                &self.plane.cells
            }
            /// [GRID.VERSION.COUNT] The edit version.
            pub fn version(&self) -> i32 {
                self.plane.version
            }
            /// [GRID.RESTORE_COUNT] The number of successful restores.
            pub fn restore_count(&self) -> u64 {
                self.plane.restore_count
            }
            /// [GRID.AREA.TABLE] The multiplier of `area`; `None` for 255.
            pub fn area_multiplier(&self, area: u8) -> Option<f64> {
                self.plane.areas.get(area)
            }
            /// [GRID.AREA.SET] Sets the multiplier of `area`.
            pub fn set_area_multiplier(
                &mut self,
                area: u8,
                multiplier: f64,
            ) -> Result<(), GridError> {
                self.plane.areas.set(area, multiplier)
            }
            /// [GRID.AREA.VERSION] The area table's version.
            pub fn area_version(&self) -> i32 {
                self.plane.areas.version
            }
            /// [GRID.SPACE.FIELDS] The grid's space.
            pub fn space(&self) -> GridSpace {
                self.plane.space
            }
            /// [GRID.SPACE.RANGE] Sets the grid's space (`invalid_space`).
            pub fn set_space(&mut self, space: GridSpace) -> Result<(), GridError> {
                self.plane.set_space(space)
            }
            /// [GRID.LISTEN.EDIT] Adds a listener; returns its id.
            pub fn add_listener(&mut self, listener: CellListener) -> usize {
                self.plane.listeners.add(listener)
            }
            /// [GRID.LISTEN.EDIT] Removes listener `id`; false when unknown.
            pub fn remove_listener(&mut self, id: usize) -> bool {
                self.plane.listeners.remove(id)
            }
            /// [STATE.API] [STATE.STABLE] [STATE.GRID] [STATE.HEX] The state bytes.
            pub fn save_state(&self) -> Vec<u8> {
                crate::state::grid::save_plane(&self.plane, $kind, self.layout_value())
            }

            /// [STATE.API.INTO] The bytes of `save_state()` left in `out` (cleared first; its
            /// allocation is reused).
            pub fn save_state_into(&self, out: &mut Vec<u8>) {
                out.clear();
                out.extend_from_slice(&self.save_state());
            }
            /// [STATE.API] [STATE.ATOMIC] [STATE.GRID.RESTORE] Replaces the state by `bytes`,
            /// validating everything first; a failure changes nothing and calls no listener.
            pub fn restore_state(&mut self, bytes: &[u8]) -> Result<(), GridStateError> {
                let expect = (self.plane.width, self.plane.height, self.layout_value());
                let s = crate::state::grid::read_plane(bytes, $kind, Some(expect))?;
                self.plane.install(s);
                Ok(())
            }
        }
    };
}

/// [GRID.SQUARE.SIZE] [GRID.SQUARE.INDEX] A square grid of area cells.
pub struct Grid {
    plane: Plane,
}

impl Grid {
    /// [GRID.SQUARE.SIZE] [GRID.CELL.DEFAULT] A `width x height` grid of area-0 cells
    /// (`invalid_size`).
    pub fn new(width: usize, height: usize) -> Result<Grid, GridError> {
        Ok(Grid {
            plane: Plane::new(width, height)?,
        })
    }
    fn layout_value(&self) -> Option<i32> {
        None
    }
    /// [GRID.SQUARE.INDEX] The cell `(x, y)` of a flat index (`index = y * width + x`), the form
    /// of paths and expanded lists; `None` for an index past the last cell.
    ///
    /// ```
    /// let grid = onepath_reference::Grid::new(5, 4).unwrap();
    /// assert_eq!(grid.cell_xy(13), Some((3, 2)));
    /// assert_eq!(grid.cell_index(3, 2), Some(13));
    /// assert_eq!(grid.cell_xy(20), None);
    /// ```
    pub fn cell_xy(&self, index: u32) -> Option<(usize, usize)> {
        let width = self.plane.width;
        let height = self.plane.height;
        let index = index as usize;
        if index >= width * height {
            return None;
        }
        let y = index / width;
        let x = index - y * width;
        Some((x, y))
    }
    /// [GRID.SQUARE.INDEX] The flat index of `(x, y)`, or `None` outside the grid.
    pub fn cell_index(&self, x: usize, y: usize) -> Option<u32> {
        if x >= self.plane.width || y >= self.plane.height {
            return None;
        }
        Some((y * self.plane.width + x) as u32)
    }
    /// [GRID.SQUARE.INDEX] A path (or any cell list) as `(x, y)` pairs, start first; `None` when
    /// a cell is past the grid (a path of another grid).
    pub fn path_xy(&self, cells: &[u32]) -> Option<Vec<(usize, usize)>> {
        let mut out = Vec::with_capacity(cells.len());
        for &cell in cells {
            out.push(self.cell_xy(cell)?);
        }
        Some(out)
    }
    /// [GS.CLEAR.GRID] [GS.CLEAR.VALUE] Computes and keeps the clearance of every cell; from now
    /// on every changing edit and every successful restore recomputes it before returning.
    pub fn compute_clearance(&mut self) {
        let p = &mut self.plane;
        p.clearance = Some(clearance_of(&p.cells, p.width, p.height));
    }
    /// [GS.CLEAR.GRID] The clearance of `(x, y)`: `None` until computed (`cell_out_of_range`, x
    /// checked first).
    pub fn clearance(&self, x: usize, y: usize) -> Result<Option<u8>, GridError> {
        let i = self.plane.index(x, y)?;
        Ok(self.plane.clearance.as_ref().map(|c| c[i]))
    }
    /// [STATE.API] [STATE.GRID] A new grid from state bytes.
    pub fn from_state(bytes: &[u8]) -> Result<Grid, GridStateError> {
        let s = crate::state::grid::read_plane(bytes, crate::state::KIND_GRID, None)?;
        Ok(Grid {
            plane: Plane::from_parsed(s),
        })
    }
}

plane_methods!(Grid, crate::state::KIND_GRID);

/// [GRID.HEX.LAYOUT] [GRID.HEX.SIZE] A hex grid of area cells in one of four offset layouts.
pub struct HexGrid {
    plane: Plane,
    layout: HexLayout,
}

impl HexGrid {
    /// [GRID.HEX.SIZE] [GRID.CELL.DEFAULT] A `width x height` hex grid of area-0 cells
    /// (`invalid_size`).
    pub fn new(width: usize, height: usize, layout: HexLayout) -> Result<HexGrid, GridError> {
        Ok(HexGrid {
            plane: Plane::new(width, height)?,
            layout,
        })
    }
    /// [GRID.HEX.LAYOUT] The layout.
    pub fn layout(&self) -> HexLayout {
        self.layout
    }
    fn layout_value(&self) -> Option<i32> {
        Some(self.layout as i32)
    }
    /// [STATE.API] [STATE.HEX] A new hex grid from state bytes.
    pub fn from_state(bytes: &[u8]) -> Result<HexGrid, GridStateError> {
        let s = crate::state::grid::read_plane(bytes, crate::state::KIND_HEX, None)?;
        // read_plane has checked the layout ([STATE.HEX]); OddR is never used.
        let layout = HexLayout::try_from(s.layout).unwrap_or(HexLayout::OddR);
        Ok(HexGrid {
            plane: Plane::from_parsed(s),
            layout,
        })
    }
}

plane_methods!(HexGrid, crate::state::KIND_HEX);
