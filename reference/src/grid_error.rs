//! [GRID] [STATE.ERRORS] Errors of the grid family: edits (`GridError`) and grid state bytes.

use std::fmt;

use crate::state::Fault;

/// Which grid argument check failed.
#[derive(Clone, Debug, PartialEq)]
enum GridKind {
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
        detail: String,
    },
    InvalidLayout {
        value: i32,
    },
}

/// [GRID.EDIT.RANGE] [GRID.AREA.SET] [GRID.SPACE.RANGE] [GRID.SQUARE.SIZE] [GRID.HEX.LAYOUT] A
/// failed grid call; classes `cell_out_of_range`, `area_out_of_range`, `invalid_multiplier`,
/// `invalid_space`, `invalid_size`, `invalid_layout`. The grid is unchanged.
#[derive(Clone, Debug, PartialEq)]
pub struct GridError {
    kind: GridKind,
}

impl GridError {
    pub(crate) fn cell(axis: char, value: usize, size: usize) -> Self {
        Self {
            kind: GridKind::CellOutOfRange { axis, value, size },
        }
    }
    pub(crate) fn area(area: u8) -> Self {
        Self {
            kind: GridKind::AreaOutOfRange { area },
        }
    }
    pub(crate) fn multiplier(value: f64) -> Self {
        Self {
            kind: GridKind::InvalidMultiplier { value },
        }
    }
    pub(crate) fn space(field: &'static str, value: f64) -> Self {
        Self {
            kind: GridKind::InvalidSpace { field, value },
        }
    }
    pub(crate) fn size(detail: String) -> Self {
        Self {
            kind: GridKind::InvalidSize { detail },
        }
    }
    pub(crate) fn layout(value: i32) -> Self {
        Self {
            kind: GridKind::InvalidLayout { value },
        }
    }

    /// [GRAPH.ERR.CLASSES] The stable class name of this error.
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
        match &self.kind {
            GridKind::CellOutOfRange { axis, value, size } => {
                write!(f, "cell_out_of_range: {axis} = {value} is outside 0..{size}")
            }
            GridKind::AreaOutOfRange { area } => {
                write!(f, "area_out_of_range: area {area} has no multiplier (areas 0..=254)")
            }
            GridKind::InvalidMultiplier { value } => {
                write!(f, "invalid_multiplier: {value:?} is not finite and > 0")
            }
            GridKind::InvalidSpace { field, value } => write!(
                f,
                "invalid_space: {field} = {value:?} is out of range (origins finite with |o| <= 2^21, \
                 0 < cell_size <= 2^21, or all zero)"
            ),
            GridKind::InvalidSize { detail } => write!(f, "invalid_size: {detail}"),
            GridKind::InvalidLayout { value } => {
                write!(f, "invalid_layout: {value} is not a hex layout (0..=3)")
            }
        }
    }
}

impl std::error::Error for GridError {}

/// [STATE.ERRORS] [STATE.CLASSES] A rejected grid state (kinds 1-3), with the byte offset of the
/// offending field; category `format`.
#[derive(Clone, Debug, PartialEq)]
pub struct GridStateError {
    class: &'static str,
    offset: usize,
    detail: String,
}

impl GridStateError {
    /// [STATE.CLASSES] The stable class name of this error.
    pub fn class(&self) -> &'static str {
        self.class
    }

    /// [STATE.ERRORS] The byte offset of the offending field (`truncated`: the input length;
    /// `trailing_bytes`: the first extra byte).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// [STATE.ERRORS] The error category: always `"format"`.
    pub fn category(&self) -> &'static str {
        "format"
    }
}

impl From<Fault> for GridStateError {
    fn from(f: Fault) -> Self {
        GridStateError {
            class: f.class,
            offset: f.offset,
            detail: f.detail,
        }
    }
}

impl fmt::Display for GridStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.detail)
    }
}

impl std::error::Error for GridStateError {}
