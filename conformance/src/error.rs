//! Typed harness errors: what went wrong ([`ErrorKind`]), in words, and where (file, member,
//! line and column), in the manner of `serde_json::Error`.
//!
//! The text of an error is `[<path>: ][line L: ][<member>: ]<what>[ at line L column C]` (a line
//! without a column is a prefix, a line with a column the `serde_json` suffix), so an error
//! without a location reads exactly like the `String` errors it replaces.

use std::fmt;
use std::path::{Path, PathBuf};

/// At most `max` bytes of `s` (cut at a character boundary), with `... (N bytes)` when cut:
/// how every error quotes input ([CONF.JSON.UNIQUE]).
pub fn clip(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &s[..end], s.len())
}

/// The most bytes of its message a [`HarnessError`] prints.
pub const MAX_MESSAGE: usize = 4000;

/// The class of a [`HarnessError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading or writing a file failed.
    Io,
    /// The text is not valid JSON, or does not have the expected members and types.
    Parse,
    /// A well-formed file breaks a rule of its format (hex, sizes, ids, hashes, references).
    Schema,
    /// Another `schema` or `version` than the one the kit reads.
    Version,
    /// Two things that must agree do not (e.g. a cost and its bits).
    Mismatch,
    /// The implementation has no support for the request ([`UNIMPLEMENTED`]).
    Unimplemented,
    /// Building an input or a host object failed.
    Build,
    /// A port's request got no usable answer: a crash, a timeout, a malformed reply, a driver
    /// error, or a request the failure budget did not send ([DRIVER.PROC.FAILURES]).
    NoAnswer,
    /// An in-process implementation panicked during the call.
    Panicked,
}

/// A harness error: a kind, a message and an optional location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HarnessError {
    kind: ErrorKind,
    what: String,
    path: Option<PathBuf>,
    member: Option<String>,
    line: Option<u64>,
    column: Option<u64>,
}

impl HarnessError {
    /// An error of `kind` saying `what`, without a location.
    pub fn new(kind: ErrorKind, what: impl Into<String>) -> HarnessError {
        HarnessError {
            kind,
            what: what.into(),
            path: None,
            member: None,
            line: None,
            column: None,
        }
    }
    /// The default trait bodies' error: the implementation has no support for the request
    /// (its text is [`UNIMPLEMENTED`]).
    pub fn unimplemented() -> HarnessError {
        HarnessError::new(ErrorKind::Unimplemented, UNIMPLEMENTED)
    }
    /// A port request without a usable answer; `message` is the port failure's text
    /// (`port: crash (request 4, ...): ...`).
    pub fn no_answer(message: impl Into<String>) -> HarnessError {
        HarnessError::new(ErrorKind::NoAnswer, message)
    }
    /// A JSON error: [`ErrorKind::Parse`] for syntax, data and end-of-input errors, with the
    /// line and column `serde_json` reports ([`ErrorKind::Io`] for its I/O errors).
    pub fn json(e: &serde_json::Error) -> HarnessError {
        let kind = if e.is_io() {
            ErrorKind::Io
        } else {
            ErrorKind::Parse
        };
        let text = e.to_string();
        let (line, column) = (e.line() as u64, e.column() as u64);
        let suffix = format!(" at line {line} column {column}");
        match text.strip_suffix(&suffix) {
            Some(what) if line > 0 => HarnessError {
                line: Some(line),
                column: Some(column),
                ..HarnessError::new(kind, what)
            },
            _ => HarnessError::new(kind, text),
        }
    }
    /// An I/O error on `path`.
    pub fn io(path: impl AsRef<Path>, e: &std::io::Error) -> HarnessError {
        HarnessError::new(ErrorKind::Io, e.to_string()).at_path(path)
    }
    /// The same error, in file `path` (replacing an earlier path).
    pub fn at_path(mut self, path: impl AsRef<Path>) -> HarnessError {
        self.path = Some(path.as_ref().to_path_buf());
        self
    }
    /// The same error, on 1-based line `line` of its text (no column).
    pub fn at_line(mut self, line: u64) -> HarnessError {
        self.line = Some(line);
        self.column = None;
        self
    }
    /// The same error, inside `member` (an outer member is prepended: `outer: inner`).
    pub fn in_member(mut self, member: impl Into<String>) -> HarnessError {
        let outer = member.into();
        self.member = Some(match self.member.take() {
            Some(inner) => format!("{outer}: {inner}"),
            None => outer,
        });
        self
    }
    /// The class.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
    /// The message, without the location.
    pub fn what(&self) -> &str {
        &self.what
    }
    /// The file, when known.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
    /// The member (`runs[3].query`, `variant dijkstra query 2`, a case id), when known.
    pub fn member(&self) -> Option<&str> {
        self.member.as_deref()
    }
    /// The 1-based line, when known.
    pub fn line(&self) -> Option<u64> {
        self.line
    }
    /// The 1-based column, when known.
    pub fn column(&self) -> Option<u64> {
        self.column
    }
    /// Whether the implementation reported no support for the request.
    pub fn is_unimplemented(&self) -> bool {
        self.kind == ErrorKind::Unimplemented
    }
}

impl fmt::Display for HarnessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}: ", p.display())?;
        }
        if let (Some(line), None) = (self.line, self.column) {
            write!(f, "line {line}: ")?;
        }
        if let Some(m) = &self.member {
            write!(f, "{m}: ")?;
        }
        // [CONF.JSON.UNIQUE] A message quoting input (serde quotes a whole wrongly typed string)
        // is clipped.
        f.write_str(&clip(&self.what, MAX_MESSAGE))?;
        if let (Some(line), Some(column)) = (self.line, self.column) {
            write!(f, " at line {line} column {column}")?;
        }
        Ok(())
    }
}

impl std::error::Error for HarnessError {}

impl From<HarnessError> for String {
    /// The error's text, for callers that still carry `String` errors.
    fn from(e: HarnessError) -> String {
        e.to_string()
    }
}

/// Why a call of the graph family's table and trace methods (`run_cancelled`,
/// `build_landmarks`, `lower_bounds`) returned no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallError {
    /// The API's error class ([GRAPH.ERR.CLASSES]): an outcome, compared with the reference's
    /// and hashed as one ([CONF.ENC.ERROR]).
    Class(String),
    /// No answer: the implementation lacks the API, or a port's request failed. Never an
    /// outcome; its text stands where a hash over the answer would be.
    Harness(HarnessError),
}

impl CallError {
    /// The text an outcome encoding carries: the class, or the harness error's text (which no
    /// reference reports, so it never matches one).
    pub fn text(&self) -> String {
        match self {
            CallError::Class(c) => c.clone(),
            CallError::Harness(h) => h.to_string(),
        }
    }
    /// The port failure's message when the call got no usable answer ([DRIVER.PROC.FAILURES]).
    pub fn no_answer(&self) -> Option<&HarnessError> {
        match self {
            CallError::Harness(h) if h.kind() == ErrorKind::NoAnswer => Some(h),
            _ => None,
        }
    }
}

impl fmt::Display for CallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Class(c) => f.write_str(c),
            CallError::Harness(h) => h.fmt(f),
        }
    }
}

impl std::error::Error for CallError {}

/// The class a default trait body reports: the implementation has no state support (also
/// `crate::state::UNIMPLEMENTED`).
pub const UNIMPLEMENTED: &str = "harness: unimplemented";

/// Whether a `String` error of the [`Implementation`](crate::Implementation) trait (whose
/// signatures keep `String`) is the default bodies' [`UNIMPLEMENTED`].
pub fn is_unimplemented(err: &str) -> bool {
    err == UNIMPLEMENTED
}

/// A `String` error of the `Implementation` trait as a typed error.
pub fn from_implementation(err: String) -> HarnessError {
    let kind = if is_unimplemented(&err) {
        ErrorKind::Unimplemented
    } else {
        ErrorKind::Build
    };
    HarnessError::new(kind, err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_errors_keep_serde_text_and_position() {
        let e = serde_json::from_str::<serde_json::Value>("{\n  \"a\": }").unwrap_err();
        let h = HarnessError::json(&e);
        assert_eq!(h.to_string(), e.to_string());
        assert_eq!((h.kind(), h.line()), (ErrorKind::Parse, Some(2)));
        let h = h.in_member("b").in_member("a").at_path("x/y.json");
        assert_eq!(h.to_string(), format!("x/y.json: a: b: {e}"));
        let g = HarnessError::new(ErrorKind::Parse, "bad tail: \"a x 1 1\"").at_line(3);
        assert_eq!(g.to_string(), "line 3: bad tail: \"a x 1 1\"");
        assert_eq!((g.line(), g.column()), (Some(3), None));
    }

    #[test]
    fn long_messages_are_clipped() {
        let e = HarnessError::new(ErrorKind::Parse, "x".repeat(200 << 20)).at_path("v.json");
        let text = e.to_string();
        assert!(text.len() < MAX_MESSAGE + 100, "{} bytes", text.len());
        assert!(
            text.ends_with(&format!("... ({} bytes)", 200 << 20)),
            "{}",
            &text[text.len() - 40..]
        );
    }

    #[test]
    fn unimplemented_is_typed() {
        let e = from_implementation(UNIMPLEMENTED.to_string());
        assert!(e.is_unimplemented());
        assert_eq!(e.to_string(), "harness: unimplemented");
        assert!(!from_implementation("boom".into()).is_unimplemented());
    }
}
