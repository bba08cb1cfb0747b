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

#[cfg(test)]
mod tests {
    use super::*;

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
