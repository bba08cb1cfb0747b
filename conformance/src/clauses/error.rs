//! The one error type of the clause report: what could not be read, and where.

use std::fmt;
use std::path::PathBuf;

/// Why the clause report could not be built.
#[derive(Debug)]
pub struct ClauseError {
    kind: ClauseErrorKind,
}

/// The class of a [`ClauseError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ClauseErrorClass {
    /// A file or folder could not be read or written.
    Io,
    /// A mutants file (cargo-mutants output or a committed summary) is not what it must be.
    Mutants,
    /// A `// pins` line of a test file is malformed ([CONF.CLAUSES.PINS]).
    Pin,
    /// A clause index file is not what [CONF.CLAUSES.INDEX] says it must be.
    Index,
    /// A git revision could not be read ([CONF.CLAUSES.DIFF]).
    Git,
}

#[derive(Debug)]
enum ClauseErrorKind {
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    Mutants {
        path: PathBuf,
        what: String,
    },
    Pin {
        file: String,
        line: usize,
        what: &'static str,
    },
    Index {
        path: PathBuf,
        what: String,
    },
    Git {
        rev: String,
        what: String,
    },
}

impl ClauseError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        ClauseError {
            kind: ClauseErrorKind::Io {
                path: path.into(),
                source,
            },
        }
    }

    pub(crate) fn mutants(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        ClauseError {
            kind: ClauseErrorKind::Mutants {
                path: path.into(),
                what: what.into(),
            },
        }
    }

    pub(crate) fn pin(file: &str, line: usize, what: &'static str) -> Self {
        ClauseError {
            kind: ClauseErrorKind::Pin {
                file: file.to_string(),
                line,
                what,
            },
        }
    }

    pub(crate) fn index(path: impl Into<PathBuf>, what: impl Into<String>) -> Self {
        ClauseError {
            kind: ClauseErrorKind::Index {
                path: path.into(),
                what: what.into(),
            },
        }
    }

    pub(crate) fn git(rev: &str, what: impl Into<String>) -> Self {
        ClauseError {
            kind: ClauseErrorKind::Git {
                rev: rev.to_string(),
                what: what.into(),
            },
        }
    }

    /// The class of the error.
    pub fn class(&self) -> ClauseErrorClass {
        match self.kind {
            ClauseErrorKind::Io { .. } => ClauseErrorClass::Io,
            ClauseErrorKind::Mutants { .. } => ClauseErrorClass::Mutants,
            ClauseErrorKind::Pin { .. } => ClauseErrorClass::Pin,
            ClauseErrorKind::Index { .. } => ClauseErrorClass::Index,
            ClauseErrorKind::Git { .. } => ClauseErrorClass::Git,
        }
    }
}

impl fmt::Display for ClauseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ClauseErrorKind::Io { path, source } => write!(f, "{}: {source}", path.display()),
            ClauseErrorKind::Mutants { path, what } => write!(f, "{}: {what}", path.display()),
            ClauseErrorKind::Pin { file, line, what } => write!(f, "{file}: line {line}: {what}"),
            ClauseErrorKind::Index { path, what } => write!(f, "{}: {what}", path.display()),
            ClauseErrorKind::Git { rev, what } => write!(f, "git revision {rev:?}: {what}"),
        }
    }
}

impl std::error::Error for ClauseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ClauseErrorKind::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
