//! Why a record was rejected ([RECORD.ERROR.CLASSES]): a class, where (a member path, a line and
//! column, or a byte offset) and what was expected and found ([RECORD.ERROR.TEXT]).

use std::fmt;

/// The class of a rejected record, in the order of [RECORD.ERROR.CLASSES].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RecordErrorClass {
    /// Not one JSON value.
    Malformed,
    /// Longer than [`super::MAX_RECORD_BYTES`].
    TooLarge,
    /// A `schema` other than `onepath.query`.
    UnknownSchema,
    /// A `version` other than 1.
    UnsupportedVersion,
    /// A `family` that names no family of [RECORD.FAMILIES].
    UnknownFamily,
    /// A member the spec lists is absent.
    MissingField,
    /// A member the spec does not list.
    UnknownField,
    /// A member written twice.
    DuplicateField,
    /// A member of the wrong JSON type.
    WrongType,
    /// A value of the right type outside its domain.
    BadValue,
    /// Binary: the magic is not `OPQR`.
    BadMagic,
    /// Binary: the input ends inside a value.
    Truncated,
    /// Binary: a `bool` or `opt` flag that is neither 0 nor 1.
    BadFlag,
    /// Binary: a list count larger than the bytes left allow.
    TooLong,
    /// Binary: bytes after the record.
    TrailingBytes,
}

impl RecordErrorClass {
    /// Every class, in spec order.
    pub const ALL: [RecordErrorClass; 15] = [
        RecordErrorClass::Malformed,
        RecordErrorClass::TooLarge,
        RecordErrorClass::UnknownSchema,
        RecordErrorClass::UnsupportedVersion,
        RecordErrorClass::UnknownFamily,
        RecordErrorClass::MissingField,
        RecordErrorClass::UnknownField,
        RecordErrorClass::DuplicateField,
        RecordErrorClass::WrongType,
        RecordErrorClass::BadValue,
        RecordErrorClass::BadMagic,
        RecordErrorClass::Truncated,
        RecordErrorClass::BadFlag,
        RecordErrorClass::TooLong,
        RecordErrorClass::TrailingBytes,
    ];

    /// The class's name in reports and vectors.
    pub fn as_str(self) -> &'static str {
        match self {
            RecordErrorClass::Malformed => "malformed",
            RecordErrorClass::TooLarge => "too_large",
            RecordErrorClass::UnknownSchema => "unknown_schema",
            RecordErrorClass::UnsupportedVersion => "unsupported_version",
            RecordErrorClass::UnknownFamily => "unknown_family",
            RecordErrorClass::MissingField => "missing_field",
            RecordErrorClass::UnknownField => "unknown_field",
            RecordErrorClass::DuplicateField => "duplicate_field",
            RecordErrorClass::WrongType => "wrong_type",
            RecordErrorClass::BadValue => "bad_value",
            RecordErrorClass::BadMagic => "bad_magic",
            RecordErrorClass::Truncated => "truncated",
            RecordErrorClass::BadFlag => "bad_flag",
            RecordErrorClass::TooLong => "too_long",
            RecordErrorClass::TrailingBytes => "trailing_bytes",
        }
    }
}

impl fmt::Display for RecordErrorClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a rejection was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordPlace {
    /// A JSON member path (`query.options.weight`; `$` is the root).
    Path(String),
    /// A JSON text position (`malformed`).
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// A member written twice, at a text position.
    Duplicate {
        /// The member's name.
        member: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// A binary byte offset and the member being read.
    Byte {
        /// The offset of the value that caused the error.
        offset: usize,
        /// The member path.
        path: String,
    },
}

/// A rejected record ([RECORD.ERROR.CLASSES]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    class: RecordErrorClass,
    place: RecordPlace,
    detail: String,
}

impl RecordError {
    pub(crate) fn at_path(class: RecordErrorClass, path: &str, detail: impl Into<String>) -> Self {
        RecordError {
            class,
            place: RecordPlace::Path(path_or_root(path)),
            detail: detail.into(),
        }
    }

    pub(crate) fn at_byte(
        class: RecordErrorClass,
        offset: usize,
        path: &str,
        detail: impl Into<String>,
    ) -> Self {
        RecordError {
            class,
            place: RecordPlace::Byte {
                offset,
                path: path_or_root(path),
            },
            detail: detail.into(),
        }
    }

    pub(crate) fn at_text(class: RecordErrorClass, place: RecordPlace, detail: String) -> Self {
        RecordError {
            class,
            place,
            detail,
        }
    }

    /// The class.
    pub fn class(&self) -> RecordErrorClass {
        self.class
    }

    /// Where it was found.
    pub fn place(&self) -> &RecordPlace {
        &self.place
    }

    /// What was expected and found.
    pub fn detail(&self) -> &str {
        &self.detail
    }

    /// `class@where` as the hostile vectors write it ([RECORD.VECTOR]): the member path, the
    /// byte offset, `line:column`, or `member@line:column` for a duplicate.
    pub fn label(&self) -> String {
        let at = match &self.place {
            RecordPlace::Path(p) => p.clone(),
            RecordPlace::Text { line, column } => format!("{line}:{column}"),
            RecordPlace::Duplicate {
                member,
                line,
                column,
            } => format!("{member}@{line}:{column}"),
            RecordPlace::Byte { offset, .. } => offset.to_string(),
        };
        format!("{}@{at}", self.class)
    }
}

fn path_or_root(path: &str) -> String {
    if path.is_empty() {
        "$".to_string()
    } else {
        path.to_string()
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.place {
            RecordPlace::Path(p) => write!(f, "{} at {p}", self.class)?,
            RecordPlace::Text { line, column } => {
                write!(f, "{} at line {line} column {column}", self.class)?
            }
            RecordPlace::Duplicate {
                member,
                line,
                column,
            } => write!(
                f,
                "{} at {member} (line {line} column {column})",
                self.class
            )?,
            RecordPlace::Byte { offset, path } => {
                write!(f, "{} at byte {offset} ({path})", self.class)?
            }
        }
        if self.detail.is_empty() {
            Ok(())
        } else {
            write!(f, ": {}", self.detail)
        }
    }
}

impl std::error::Error for RecordError {}
