//! [WORLD.ERROR.CLASSES] The error of world calls (spec/world.md): a class, and what and where
//! (the absolute byte offset, the member, its state class).

use std::fmt;

use crate::grid_search::GridSearchError;

/// [WORLD.ERROR.CLASSES] Why a world call failed.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldError {
    kind: Kind,
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Format {
        class: &'static str,
        offset: usize,
    },
    Member {
        index: usize,
        member_type: u16,
        state_class: &'static str,
        offset: usize,
    },
    UnknownMember {
        index: usize,
    },
    WrongMemberType {
        index: usize,
        found: u16,
        wanted: u16,
    },
    Build {
        text: String,
    },
    Internal,
}

impl WorldError {
    pub(crate) fn format(class: &'static str, offset: usize) -> Self {
        WorldError {
            kind: Kind::Format { class, offset },
        }
    }
    pub(crate) fn member(
        index: usize,
        member_type: u16,
        state_class: &'static str,
        offset: usize,
    ) -> Self {
        WorldError {
            kind: Kind::Member {
                index,
                member_type,
                state_class,
                offset,
            },
        }
    }
    pub(crate) fn unknown(index: usize) -> Self {
        WorldError {
            kind: Kind::UnknownMember { index },
        }
    }
    pub(crate) fn wrong_type(index: usize, found: u16, wanted: u16) -> Self {
        WorldError {
            kind: Kind::WrongMemberType {
                index,
                found,
                wanted,
            },
        }
    }
    pub(crate) fn build(e: GridSearchError) -> Self {
        WorldError {
            kind: Kind::Build {
                text: e.to_string(),
            },
        }
    }
    pub(crate) fn internal() -> Self {
        WorldError {
            kind: Kind::Internal,
        }
    }

    /// [WORLD.ERROR.CLASSES] The class name.
    pub fn class(&self) -> &'static str {
        match &self.kind {
            Kind::Format { class, .. } => class,
            Kind::Member { .. } => "member",
            Kind::UnknownMember { .. } => "unknown_member",
            Kind::WrongMemberType { .. } => "wrong_member_type",
            Kind::Build { .. } => "build",
            Kind::Internal => "internal",
        }
    }

    /// [WORLD.ERROR.CLASSES] The absolute byte offset of a format error.
    pub fn offset(&self) -> Option<usize> {
        match &self.kind {
            Kind::Format { offset, .. } | Kind::Member { offset, .. } => Some(*offset),
            _ => None,
        }
    }

    /// [WORLD.ERROR.CLASSES] The member named by a `member`, `unknown_member` or
    /// `wrong_member_type` error.
    pub fn member_index(&self) -> Option<usize> {
        match &self.kind {
            Kind::Member { index, .. }
            | Kind::UnknownMember { index }
            | Kind::WrongMemberType { index, .. } => Some(*index),
            _ => None,
        }
    }

    /// [WORLD.STAGE] The member's state class of a `member` error.
    pub fn state_class(&self) -> Option<&'static str> {
        match &self.kind {
            Kind::Member { state_class, .. } => Some(state_class),
            _ => None,
        }
    }
}

impl fmt::Display for WorldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::Format { class, offset } => {
                write!(f, "world container: {class} at byte {offset}")
            }
            Kind::Member {
                index,
                member_type,
                state_class,
                offset,
            } => write!(
                f,
                "world member {index} (type {member_type}): {state_class} at byte {offset}"
            ),
            Kind::UnknownMember { index } => write!(f, "world: no member {index}"),
            Kind::WrongMemberType {
                index,
                found,
                wanted,
            } => write!(f, "world member {index} has type {found}, not {wanted}"),
            Kind::Build { text } => write!(f, "world: building a member failed: {text}"),
            Kind::Internal => write!(f, "world: internal error (a defect of the implementation)"),
        }
    }
}

impl std::error::Error for WorldError {}
