//! Port expectations files ([DRIVER.EXPECT.*]): schema `onepath.port-expectations` version 1,
//! the families a port claims and its known failures, each with a reason, in the manner of
//! BoringSSL's BoGo shim config. Entries that match nothing are themselves failures.
//! [DRIVER.EXPECT.FILE] the file and its strict reading; [DRIVER.EXPECT.MATCH] what a known
//! failure excuses.

use crate::error::{ErrorKind, HarnessError};
use serde::{Deserialize, Serialize};

/// The schema name.
pub const EXPECT_SCHEMA: &str = "onepath.port-expectations";

/// One known failure.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailure {
    /// Section name (`vectors`, `differential`, ..., `protocol`), or `*` for any.
    pub section: String,
    /// Vector id or generated case name; `*` matches any run of characters.
    #[serde(rename = "match")]
    pub pattern: String,
    /// Why the failure is accepted (required, non-empty).
    pub reason: String,
}

/// The expectations file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// [`EXPECT_SCHEMA`].
    pub schema: String,
    /// 1.
    pub version: u32,
    /// Optional comment.
    #[serde(rename = "_comment", default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The families the port claims; must equal the handshake's claims.
    pub families: Vec<String>,
    /// Known failures.
    pub known_failures: Vec<KnownFailure>,
}

impl Expectations {
    /// Parses and validates an expectations file.
    pub fn parse(text: &str) -> Result<Expectations, HarnessError> {
        // [CONF.JSON.UNIQUE]
        crate::json_text::check_unique_members(text).map_err(|e| HarnessError::json(&e))?;
        let e: Expectations = serde_json::from_str(text).map_err(|e| HarnessError::json(&e))?;
        if e.schema != EXPECT_SCHEMA {
            return Err(HarnessError::new(
                ErrorKind::Version,
                format!("schema {:?}, expected {EXPECT_SCHEMA:?}", e.schema),
            ));
        }
        if e.version != 1 {
            return Err(HarnessError::new(
                ErrorKind::Version,
                format!("unsupported version {}", e.version),
            ));
        }
        for (i, k) in e.known_failures.iter().enumerate() {
            if k.reason.trim().is_empty() {
                return Err(HarnessError::new(
                    ErrorKind::Schema,
                    format!("known_failures[{i}] has no reason"),
                ));
            }
            if k.pattern.is_empty() || k.section.is_empty() {
                return Err(HarnessError::new(
                    ErrorKind::Schema,
                    format!("known_failures[{i}] needs a section and a match pattern"),
                ));
            }
        }
        Ok(e)
    }

    /// The index of the first entry that matches `(section, label)`.
    pub fn find(&self, section: &str, label: &str) -> Option<usize> {
        self.known_failures
            .iter()
            .position(|k| (k.section == "*" || k.section == section) && glob(&k.pattern, label))
    }
}

/// `*`-only glob match (the whole string).
pub fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("GRAPH-0007", "GRAPH-0007"));
        assert!(!glob("GRAPH-0007", "GRAPH-00071"));
        assert!(glob("GRAPH-*", "GRAPH-0001"));
        assert!(glob("sparse#*", "sparse#123"));
        assert!(glob("*#1*3", "dense#123"));
        assert!(!glob("a*b", "ab_"));
    }

    #[test]
    fn reasons_are_required() {
        let t = r#"{"schema":"onepath.port-expectations","version":1,"families":["graph"],"known_failures":[{"section":"vectors","match":"GRAPH-0001","reason":" "}]}"#;
        assert!(Expectations::parse(t).is_err());
        let t = t.replace("\" \"", "\"ties\"");
        assert_eq!(
            Expectations::parse(&t)
                .unwrap()
                .find("vectors", "GRAPH-0001"),
            Some(0)
        );
    }
}
