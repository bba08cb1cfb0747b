//! [WORLD.ERROR.CLASSES] The error of world calls (spec/world.md): a class, and what and where
//! (the absolute byte offset, the member, its state class).

use std::fmt;

use crate::grid_search::GridSearchError;

/// [WORLD.ERROR.CLASSES] Why a world call failed.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldError {
    kind: ErrorKind,
}

#[derive(Clone, Debug, PartialEq)]
enum ErrorKind {
    Format(&'static str, usize),
    Member {
        index: usize,
        ty: u16,
        class: &'static str,
        offset: usize,
    },
    Unknown(usize),
    WrongType {
        index: usize,
        found: u16,
        wanted: u16,
    },
    Build(String),
    Internal,
}

impl WorldError {
    pub(crate) fn format(class: &'static str, offset: usize) -> Self {
        WorldError {
            kind: ErrorKind::Format(class, offset),
        }
    }
    pub(crate) fn member(index: usize, ty: u16, class: &'static str, offset: usize) -> Self {
        WorldError {
            kind: ErrorKind::Member {
                index,
                ty,
                class,
                offset,
            },
        }
    }
    pub(crate) fn unknown(index: usize) -> Self {
        WorldError {
            kind: ErrorKind::Unknown(index),
        }
    }
    pub(crate) fn wrong_type(index: usize, found: u16, wanted: u16) -> Self {
        WorldError {
            kind: ErrorKind::WrongType {
                index,
                found,
                wanted,
            },
        }
    }
    pub(crate) fn build(e: GridSearchError) -> Self {
        WorldError {
            kind: ErrorKind::Build(e.to_string()),
        }
    }
    pub(crate) fn internal() -> Self {
        WorldError {
            kind: ErrorKind::Internal,
        }
    }

    /// [WORLD.ERROR.CLASSES] The class name.
    pub fn class(&self) -> &'static str {
        match &self.kind {
            ErrorKind::Format(class, _) => class,
            ErrorKind::Member { .. } => "member",
            ErrorKind::Unknown(_) => "unknown_member",
            ErrorKind::WrongType { .. } => "wrong_member_type",
            ErrorKind::Build(_) => "build",
            ErrorKind::Internal => "internal",
        }
    }

    /// [WORLD.ERROR.CLASSES] The absolute byte offset of a format error.
    pub fn offset(&self) -> Option<usize> {
        match &self.kind {
            ErrorKind::Format(_, offset) | ErrorKind::Member { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// [WORLD.ERROR.CLASSES] The member named by a `member`, `unknown_member` or
    /// `wrong_member_type` error.
    pub fn member_index(&self) -> Option<usize> {
        match &self.kind {
            ErrorKind::Member { index, .. }
            | ErrorKind::Unknown(index)
            | ErrorKind::WrongType { index, .. } => Some(*index),
            _ => None,
        }
    }

    /// [WORLD.STAGE] The member's state class of a `member` error.
    pub fn state_class(&self) -> Option<&'static str> {
        match &self.kind {
            ErrorKind::Member { class, .. } => Some(class),
            _ => None,
        }
    }
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Format(class, offset) => {
                write!(f, "world container: {class} at byte {offset}")
            }
            ErrorKind::Member {
                index,
                ty,
                class,
                offset,
            } => write!(
                f,
                "world member {index} (type {ty}): {class} at byte {offset}"
            ),
            ErrorKind::Unknown(index) => write!(f, "world: no member {index}"),
            ErrorKind::WrongType {
                index,
                found,
                wanted,
            } => write!(f, "world member {index} has type {found}, not {wanted}"),
            ErrorKind::Build(text) => write!(f, "world: building a member failed: {text}"),
            ErrorKind::Internal => {
                write!(f, "world: internal error (a defect of the implementation)")
            }
        }
    }
}

impl std::error::Error for WorldError {}
