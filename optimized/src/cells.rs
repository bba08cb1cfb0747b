//! Pieces every grid shares: areas ([GRID.CELL.AREA], [GRID.AREA.TABLE], [GRID.AREA.SET],
//! [GRID.AREA.VERSION], [STATE.AREAS]), versions ([GRID.VERSION.COUNT]), listeners
//! ([GRID.LISTEN.EDIT], [GRID.LISTEN.RESTORE]), space ([GRID.SPACE.FIELDS] ..
//! [GRID.SPACE.CENTER], [STATE.SPACE]) and the hex layout ([GRID.HEX.LAYOUT]).

use crate::grid_error::{GridError, GridKind};
use crate::wire::{fail, Class, Fault, Put, Reader};

/// [GRID.CELL.AREA] The wall: a cell value that is never walkable and has no multiplier.
pub const WALL: u8 = 255;

/// [GRID.LISTEN.EDIT] [GRID.LISTEN.RESTORE] A cell listener, called with
/// `(cell index, old value, new value)` (voxels: the node index).
pub type CellListener = Box<dyn FnMut(u32, u8, u8) + Send>;

/// [GRID.SPACE.FIELDS] [GRID.SPACE.UNASSIGNED] Where a square or hex grid lies in the world; all
/// zero (the default) is unassigned and behaves as origin 0, cell size 1.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct GridSpace {
    /// [GRID.SPACE.FIELDS] World x of the grid's corner.
    pub origin_x: f64,
    /// [GRID.SPACE.FIELDS] World y of the grid's corner.
    pub origin_y: f64,
    /// [GRID.SPACE.FIELDS] The side of one cell.
    pub cell_size: f64,
}

/// [GRID.SPACE.FIELDS] [GRID.SPACE.UNASSIGNED] Where a voxel grid lies in the world; all zero (the
/// default) is unassigned and behaves as origin 0, cell size 1.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct VoxelSpace {
    /// [GRID.SPACE.FIELDS] World x of the grid's corner.
    pub origin_x: f64,
    /// [GRID.SPACE.FIELDS] World y of the grid's corner.
    pub origin_y: f64,
    /// [GRID.SPACE.FIELDS] World z of the grid's corner.
    pub origin_z: f64,
    /// [GRID.SPACE.FIELDS] The side of one voxel.
    pub cell_size: f64,
}

/// [GRID.HEX.LAYOUT] The four offset layouts of a hex grid (the numbers are saved).
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

    /// [GRID.HEX.LAYOUT] `0..=3`; any other value fails with `invalid_layout`.
    fn try_from(value: i32) -> Result<Self, GridError> {
        match value {
            0 => Ok(HexLayout::OddR),
            1 => Ok(HexLayout::EvenR),
            2 => Ok(HexLayout::OddQ),
            3 => Ok(HexLayout::EvenQ),
            _ => Err(GridError::new(GridKind::InvalidLayout { value })),
        }
    }
}

/// `2^21`, the coordinate bound of [GRID.SPACE.RANGE].
const LIMIT: f64 = 2_097_152.0;

/// [GRID.VERSION.COUNT] [GRID.AREA.VERSION] Adds 1, wrapping `2^31 - 1` to 0.
#[inline]
pub(crate) fn bump(v: i32) -> i32 {
    if v == i32::MAX {
        0
    } else {
        v + 1
    }
}

/// [GRID.SPACE.RANGE] Checks origins then the cell size (the last value); returns the index of
/// the first bad field.
fn space_fault(values: &[f64]) -> Option<usize> {
    let (cell, origins) = values.split_last()?;
    for (i, &o) in origins.iter().enumerate() {
        if !(o.is_finite() && o.abs() <= LIMIT) {
            return Some(i);
        }
    }
    let all_zero = origins.iter().all(|&o| o == 0.0) && *cell == 0.0;
    if !all_zero && !(*cell > 0.0 && *cell <= LIMIT) {
        return Some(origins.len());
    }
    None
}

/// [GRID.SPACE.RANGE] Validates a space given as `(field name, value)` pairs, cell size last.
pub(crate) fn check_space(fields: &[(&'static str, f64)]) -> Result<(), GridError> {
    let values: Vec<f64> = fields.iter().map(|f| f.1).collect();
    match space_fault(&values) {
        None => Ok(()),
        Some(i) => Err(GridError::new(GridKind::InvalidSpace {
            field: fields[i].0,
            value: fields[i].1,
        })),
    }
}

/// [STATE.SPACE] Reads `N` space fields (origins, then the cell size) with the checks of
/// [GRID.SPACE.RANGE], each at its own offset (NaN is `nan`).
pub(crate) fn read_space<const N: usize>(r: &mut Reader<'_>) -> Result<[f64; N], Fault> {
    let mut v = [0.0; N];
    for i in 0..N {
        let at = r.pos;
        let x = r.f64("space")?;
        v[i] = x;
        let bad = if i + 1 < N {
            !(x.is_finite() && x.abs() <= LIMIT)
        } else {
            space_fault(&v).is_some()
        };
        if bad {
            return fail(Class::OutOfRange, at, "space");
        }
    }
    Ok(v)
}

/// [GRID.AREA.TABLE] [GRID.AREA.VERSION] The area table: multipliers of areas `0..=254` and its
/// version.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Areas {
    pub mult: [f64; 255],
    pub version: i32,
}

impl Default for Areas {
    fn default() -> Self {
        Areas {
            mult: [1.0; 255],
            version: 0,
        }
    }
}

impl Areas {
    /// [GRID.AREA.TABLE] `None` for the wall.
    pub fn get(&self, area: u8) -> Option<f64> {
        self.mult.get(area as usize).copied()
    }

    /// [GRID.AREA.SET] Range check, multiplier check, store, version + 1.
    pub fn set(&mut self, area: u8, m: f64) -> Result<(), GridError> {
        if area == WALL {
            return Err(GridError::new(GridKind::AreaOutOfRange { area }));
        }
        if !(m.is_finite() && m > 0.0) {
            return Err(GridError::new(GridKind::InvalidMultiplier { value: m }));
        }
        self.mult[area as usize] = m;
        self.version = bump(self.version);
        Ok(())
    }

    /// [STATE.AREAS] `i32 version`, 255 `f64` multipliers.
    pub fn write(&self, out: &mut Vec<u8>) {
        out.put_i32(self.version);
        for &m in &self.mult {
            out.put_f64(m);
        }
    }

    /// [STATE.AREAS] Reads and checks a table (version `>= 0`, multipliers finite and `> 0`).
    pub fn read(r: &mut Reader<'_>) -> Result<Areas, Fault> {
        let at = r.pos;
        let version = r.i32("area version")?;
        if version < 0 {
            return fail(Class::OutOfRange, at, "area version");
        }
        let mut a = Areas {
            mult: [0.0; 255],
            version,
        };
        for m in a.mult.iter_mut() {
            let at = r.pos;
            let v = r.f64("area multiplier")?;
            if !(v.is_finite() && v > 0.0) {
                return fail(Class::OutOfRange, at, "area multiplier");
            }
            *m = v;
        }
        Ok(a)
    }
}

/// [GRID.LISTEN.EDIT] Listeners in the order they were added, with their ids.
#[derive(Default)]
pub(crate) struct Listeners {
    list: Vec<(usize, CellListener)>,
    next: usize,
}

impl Listeners {
    pub fn add(&mut self, l: CellListener) -> usize {
        let id = self.next;
        self.next += 1;
        self.list.push((id, l));
        id
    }

    pub fn remove(&mut self, id: usize) -> bool {
        match self.list.iter().position(|e| e.0 == id) {
            Some(i) => {
                drop(self.list.remove(i));
                true
            }
            None => false,
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// [GRID.LISTEN.EDIT] Calls every listener, in the order added.
    #[inline]
    pub fn notify(&mut self, index: u32, old: u8, new: u8) {
        for (_, l) in self.list.iter_mut() {
            l(index, old, new);
        }
    }

    /// [GRID.LISTEN.RESTORE] Tells the listeners about every index where `old` and `new`
    /// differ, ascending (cells outer, listeners inner in the order added).
    pub fn notify_diff(&mut self, base: u32, old: &[u8], new: &[u8]) {
        const BLOCK: usize = 64;
        for (k, (a, b)) in old.chunks(BLOCK).zip(new.chunks(BLOCK)).enumerate() {
            if a == b {
                continue;
            }
            for (j, (&x, &y)) in a.iter().zip(b).enumerate() {
                if x != y {
                    self.notify(base + (k * BLOCK + j) as u32, x, y);
                }
            }
        }
    }
}
