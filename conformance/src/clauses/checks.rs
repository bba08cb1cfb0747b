//! Named checks ([CONF.CLAUSES.PINS]): a test of the kit or of a crate that declares, on a
//! `// pins [ID] ...: why` line directly above its `#[test]`, that it fails when an
//! implementation breaks those clauses. It pins a clause no vector can tell from its negation
//! (an API shape, an allocation bound, a panic-freedom duty).

use super::error::ClauseError;
use super::spec_index::bracketed_ids;
use super::tree::{read_text, relative, walk};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The test folders whose `pins` lines count.
pub const PIN_FOLDERS: [&str; 3] = ["conformance/tests", "reference/tests", "optimized/tests"];

/// One named check of a clause.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct NamedCheck {
    /// The test file, relative to the checkout.
    pub file: String,
    /// The 1-based line of the `pins` line.
    pub line: usize,
    /// The test function's name.
    pub test: String,
    /// The text after the colon: why the test fails the clause's negation.
    pub why: String,
}

/// Every named check in the checkout at `root`, by pinned clause id.
pub fn read_named_checks(root: &Path) -> Result<BTreeMap<String, Vec<NamedCheck>>, ClauseError> {
    let mut out: BTreeMap<String, Vec<NamedCheck>> = BTreeMap::new();
    for dir in PIN_FOLDERS {
        for path in walk(&root.join(dir), &["rs"])? {
            let file = relative(root, &path);
            for (ids, check) in pins_of(&file, &read_text(&path)?)? {
                for id in ids {
                    out.entry(id).or_default().push(check.clone());
                }
            }
        }
    }
    Ok(out)
}

/// The `pins` lines of one test file with the test each names. A `pins` line is a line whose
/// trimmed text starts with `// pins [`; it must cite at least one clause id before a `:`, give
/// a reason after it, and be followed (across further `//` comment and `#[...]` attribute lines
/// only) by a `#[test]` attribute and then the test's `fn` line; anything else is an error
/// naming the file and line.
pub fn pins_of(file: &str, text: &str) -> Result<Vec<(Vec<String>, NamedCheck)>, ClauseError> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, raw) in lines.iter().enumerate() {
        let Some(rest) = raw.trim_start().strip_prefix("// pins [") else {
            continue;
        };
        let line = i + 1;
        let bad = |what: &'static str| ClauseError::pin(file, line, what);
        let rest = format!("[{rest}");
        let Some((head, why)) = rest.split_once("]:") else {
            return Err(bad(
                "a pins line is `// pins [ID] [ID2]: why`; no `]:` found",
            ));
        };
        let head = format!("{head}]");
        let ids: Vec<String> = bracketed_ids(&head).into_iter().map(|(id, _)| id).collect();
        let leftover = head
            .split(['[', ']'])
            .enumerate()
            .any(|(k, part)| k % 2 == 0 && !part.trim().is_empty());
        if ids.is_empty() || leftover {
            return Err(bad(
                "only bracketed clause ids may stand between `pins` and `:`",
            ));
        }
        let why = why.trim();
        if why.is_empty() {
            return Err(bad(
                "a pins line says why the test fails the negation after `:`",
            ));
        }
        let mut seen_test = false;
        let mut test = None;
        for next in &lines[i + 1..] {
            let t = next.trim();
            if t.starts_with("//") {
                continue;
            }
            if t == "#[test]" {
                seen_test = true;
                continue;
            }
            if t.starts_with("#[") {
                continue;
            }
            if seen_test {
                test = fn_name(t);
            }
            break;
        }
        let Some(test) = test else {
            return Err(bad("a pins line must stand directly above a `#[test]` fn"));
        };
        out.push((
            ids,
            NamedCheck {
                file: file.to_string(),
                line,
                test,
                why: why.to_string(),
            },
        ));
    }
    Ok(out)
}

/// The name of the function a `fn` line declares.
fn fn_name(line: &str) -> Option<String> {
    let after = line.split_once("fn ")?.1;
    let name: String = after
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The made-up ids `G.X` spelled as graph ids, so that this file cites no undefined id.
    fn spelled(text: &str) -> String {
        text.replace("[G.", "[GRAPH.")
    }

    #[test]
    fn a_pins_line_names_its_test() {
        let text = "// pins [G.AB] [G.CD]: a panic fails it\n#[test]\nfn no_panic() {}\n";
        let got = pins_of("t.rs", &spelled(text)).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].0,
            vec!["GRAPH.AB".to_string(), "GRAPH.CD".to_string()]
        );
        assert_eq!(got[0].1.test, "no_panic");
        assert_eq!(got[0].1.line, 1);
        assert_eq!(got[0].1.why, "a panic fails it");
    }

    #[test]
    fn attributes_and_comments_may_stand_between() {
        let text =
            "    // pins [G.AB]: why\n    // more\n    #[test]\n    #[ignore]\n    pub fn t() {}";
        assert_eq!(pins_of("t.rs", &spelled(text)).unwrap()[0].1.test, "t");
    }

    #[test]
    fn malformed_pins_lines_are_errors_with_file_and_line() {
        for text in [
            "x\n// pins [G.AB] why\n#[test]\nfn t() {}",
            "x\n// pins [G.AB]:\n#[test]\nfn t() {}",
            "x\n// pins [G.AB] and [G.CD]: why\n#[test]\nfn t() {}",
            "x\n// pins [G.AB]: why\nfn helper() {}",
            "x\n// pins [G.AB]: why\n\n#[test]\nfn t() {}",
            "x\n// pins [graph.ab]: why\n#[test]\nfn t() {}",
        ] {
            let e = pins_of("t.rs", &spelled(text)).unwrap_err().to_string();
            assert!(e.starts_with("t.rs: line 2: "), "{text:?}: {e}");
        }
    }
}
