//! Grid errors: [GRID.EDIT.RANGE], [GRID.AREA.SET], [GRID.SPACE.RANGE], [GRID.SQUARE.SIZE],
//! [GRID.HEX.LAYOUT] (`GridError`) and the grid-kind state errors of [STATE.ERRORS]
//! (`GridStateError`).

use crate::wire::{Class, Fault};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GridKind {
    CellOutOfRange {
        axis: char,
        value: usize,
        size: usize,
    },
    AreaOutOfRange {
        area: u8,
    },
    InvalidMultiplier {
        value: f64,
    },
    InvalidSpace {
        field: &'static str,
        value: f64,
    },
    InvalidSize {
        sizes: [usize; 3],
        dims: u8,
    },
    InvalidLayout {
        value: i32,
    },
}

/// [GRID.EDIT.RANGE] [GRID.AREA.SET] [GRID.SPACE.RANGE] [GRID.SQUARE.SIZE] [GRID.VOXEL.SIZE]
/// [GRID.HEX.LAYOUT] An error building or editing a grid; `class()` is one of
/// `cell_out_of_range`, `area_out_of_range`, `invalid_multiplier`, `invalid_space`,
/// `invalid_size`, `invalid_layout`.
#[derive(Clone, Debug, PartialEq)]
pub struct GridError {
    kind: GridKind,
}

impl GridError {
    pub(crate) fn new(kind: GridKind) -> Self {
        GridError { kind }
    }

    /// [GRID.EDIT.RANGE] [GRID.AREA.SET] [GRID.SPACE.RANGE] [GRID.SQUARE.SIZE] [GRID.HEX.LAYOUT]
    /// The stable class name.
    pub fn class(&self) -> &'static str {
        match self.kind {
            GridKind::CellOutOfRange { .. } => "cell_out_of_range",
            GridKind::AreaOutOfRange { .. } => "area_out_of_range",
            GridKind::InvalidMultiplier { .. } => "invalid_multiplier",
            GridKind::InvalidSpace { .. } => "invalid_space",
            GridKind::InvalidSize { .. } => "invalid_size",
            GridKind::InvalidLayout { .. } => "invalid_layout",
        }
    }
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.class())?;
        match self.kind {
            GridKind::CellOutOfRange { axis, value, size } => {
                write!(
                    f,
                    "{axis} = {value} is not below the grid's {axis} size {size}"
                )
            }
            GridKind::AreaOutOfRange { area } => {
                write!(
                    f,
                    "area {area} has no multiplier (areas 0..=254; 255 is the wall)"
                )
            }
            GridKind::InvalidMultiplier { value } => {
                write!(f, "multiplier {value} is not finite and > 0")
            }
            GridKind::InvalidSpace { field, value } => write!(
                f,
                "{field} = {value}: origins must be finite with |origin| <= 2^21 and \
                 0 < cell_size <= 2^21 (or everything zero)"
            ),
            GridKind::InvalidSize { sizes, dims } => {
                let s = &sizes[..dims as usize];
                write!(
                    f,
                    "sizes {s:?}: each must be >= 1 and their product <= 2^26"
                )
            }
            GridKind::InvalidLayout { value } => {
                write!(
                    f,
                    "hex layout {value} is not 0 (odd-r), 1 (even-r), 2 (odd-q) or 3 (even-q)"
                )
            }
        }
    }
}

impl std::error::Error for GridError {}

/// [STATE.ERRORS] [STATE.CLASSES] An error restoring the state bytes of a grid kind (1, 2, 3):
/// a class name, the byte offset of the offending field, category `format`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridStateError {
    class: Class,
    offset: usize,
    field: &'static str,
}

impl GridStateError {
    pub(crate) fn from_fault(f: Fault) -> Self {
        GridStateError {
            class: f.class,
            offset: f.offset,
            field: f.field,
        }
    }

    /// [STATE.CLASSES] The stable class name, e.g. `"size_mismatch"`.
    pub fn class(&self) -> &'static str {
        self.class.name()
    }

    /// [STATE.ERRORS] The byte offset of the offending field (`truncated`: the input length;
    /// `trailing_bytes`: the first extra byte).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// [STATE.ERRORS] The category of every state error: `"format"`.
    pub fn category(&self) -> &'static str {
        "format"
    }
}

impl fmt::Display for GridStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte {}: field `{}`",
            self.class(),
            self.offset,
            self.field
        )
    }
}

impl std::error::Error for GridStateError {}
