//! Values in words for failure messages that reach a port author: an optional value, or
//! whether a call answered, never a Rust debug form such as `Some(1)` or `Ok(())` (issue 34).
//! Shared by `checks` and `levels`, so neither imports the other for it.

use std::fmt::Display;

/// An optional value in words: the value, or `none` when absent (never `Some(x)` / `None`).
pub fn opt<T: Display>(o: Option<T>, none: &str) -> String {
    o.map_or_else(|| none.to_string(), |v| v.to_string())
}

/// Whether a call answered, in words: `a reply`, or `error E` with the error's text (never a
/// Rust form such as `Ok(())` or `Some(..)`, issue 34).
pub fn outcome<T, E: Display>(r: &Result<T, E>) -> String {
    match r {
        Ok(_) => "a reply".to_string(),
        Err(e) => format!("error {e}"),
    }
}

/// A protocol value in its wire form (the serde form the driver protocol uses): a status or
/// algorithm reads `found`, `not_found`, `jps_plus`, never the Rust variant name `NotFound`.
pub fn wire<T: serde::Serialize>(x: &T) -> String {
    match serde_json::to_value(x) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(v) => v.to_string(),
        Err(e) => format!("(a value that does not encode: {e})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_forms_not_variant_names() {
        use crate::outcome::{AlgorithmCode, StatusCode};
        assert_eq!(wire(&StatusCode::NotFound), "not_found");
        assert_eq!(wire(&StatusCode::Found), "found");
        assert_eq!(wire(&AlgorithmCode::Dijkstra), "dijkstra");
        assert_eq!(wire(&3u32), "3");
    }

    #[test]
    fn outcomes_and_options_in_words() {
        assert_eq!(outcome(&Ok::<u32, String>(7)), "a reply");
        assert_eq!(
            outcome(&Err::<u32, _>("too_many_nodes")),
            "error too_many_nodes"
        );
        assert_eq!(opt(Some(3u32), "no cell"), "3");
        assert_eq!(opt(None::<u32>, "no cell"), "no cell");
    }
}
