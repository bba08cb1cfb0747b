//! JUnit XML for CI systems ([DRIVER.REPORT.JUNIT]): one `<testsuite>` per group, one
//! `<testcase>` per vector, section, family level or expectation.

use crate::error::{ErrorKind, HarnessError};

/// One test case.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// Test case name.
    pub name: String,
    /// Failure message (first line) and details, or `None` when it passed.
    pub failure: Option<(String, String)>,
    /// Skipped with this message (unimplemented ops).
    pub skipped: Option<String>,
}

/// One suite.
#[derive(Clone, Debug, PartialEq)]
pub struct Suite {
    /// Suite name.
    pub name: String,
    /// Its cases.
    pub cases: Vec<Case>,
}

/// Escapes text for XML attributes and content; drops characters XML 1.0 cannot carry.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The XML document.
pub fn render(name: &str, suites: &[Suite]) -> String {
    let count = |f: &dyn Fn(&Case) -> bool| {
        suites
            .iter()
            .flat_map(|s| &s.cases)
            .filter(|c| f(c))
            .count()
    };
    let mut x = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.push_str(&format!(
        "<testsuites name=\"{}\" tests=\"{}\" failures=\"{}\" skipped=\"{}\">\n",
        escape(name),
        count(&|_| true),
        count(&|c| c.failure.is_some()),
        count(&|c| c.skipped.is_some())
    ));
    for s in suites {
        let failures = s.cases.iter().filter(|c| c.failure.is_some()).count();
        let skipped = s.cases.iter().filter(|c| c.skipped.is_some()).count();
        x.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\">\n",
            escape(&s.name),
            s.cases.len()
        ));
        for c in &s.cases {
            let class = format!("onepath.{}", s.name);
            match (&c.failure, &c.skipped) {
                (Some((msg, detail)), _) => x.push_str(&format!(
                    "    <testcase classname=\"{}\" name=\"{}\">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                    escape(&class),
                    escape(&c.name),
                    escape(msg),
                    escape(detail)
                )),
                (None, Some(msg)) => x.push_str(&format!(
                    "    <testcase classname=\"{}\" name=\"{}\">\n      <skipped message=\"{}\"/>\n    </testcase>\n",
                    escape(&class),
                    escape(&c.name),
                    escape(msg)
                )),
                (None, None) => x.push_str(&format!("    <testcase classname=\"{}\" name=\"{}\"/>\n", escape(&class), escape(&c.name))),
            }
        }
        x.push_str("  </testsuite>\n");
    }
    x.push_str("</testsuites>\n");
    x
}

/// A well-formedness error of [`check_well_formed`].
fn parse(what: impl Into<String>) -> HarnessError {
    HarnessError::new(ErrorKind::Parse, what)
}

/// A small well-formedness check (balanced tags, quoted attributes, known entities, one root).
/// Returns the first problem found.
pub fn check_well_formed(xml: &str) -> Result<(), HarnessError> {
    let mut rest = xml.trim_start();
    if let Some(r) = rest.strip_prefix("<?xml") {
        let end = r
            .find("?>")
            .ok_or_else(|| parse("unterminated XML declaration"))?;
        rest = &r[end + 2..];
    }
    let mut stack: Vec<String> = Vec::new();
    let mut roots = 0;
    let mut i = 0usize;
    let b = rest.as_bytes();
    while i < b.len() {
        if b[i] == b'<' {
            let end = rest[i..]
                .find('>')
                .ok_or_else(|| parse("unterminated tag"))?
                + i;
            let tag = &rest[i + 1..end];
            if let Some(name) = tag.strip_prefix('/') {
                let open = stack
                    .pop()
                    .ok_or_else(|| parse(format!("closing </{name}> without an open tag")))?;
                if open != name.trim() {
                    return Err(parse(format!("</{}> closes <{open}>", name.trim())));
                }
            } else {
                let self_closing = tag.ends_with('/');
                let body = tag.trim_end_matches('/');
                let name: String = body.chars().take_while(|c| !c.is_whitespace()).collect();
                if name.is_empty()
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ':')
                {
                    return Err(parse(format!("bad tag name {name:?}")));
                }
                check_attributes(&body[name.len()..])?;
                if stack.is_empty() {
                    roots += 1;
                }
                if !self_closing {
                    stack.push(name);
                }
            }
            i = end + 1;
        } else {
            let end = rest[i..].find('<').map_or(b.len(), |k| k + i);
            let text = &rest[i..end];
            if stack.is_empty() && !text.trim().is_empty() {
                return Err(parse("text outside the root element"));
            }
            check_entities(text)?;
            i = end;
        }
    }
    if let Some(open) = stack.pop() {
        return Err(parse(format!("<{open}> is never closed")));
    }
    if roots != 1 {
        return Err(parse(format!("{roots} root elements")));
    }
    Ok(())
}

fn check_attributes(mut s: &str) -> Result<(), HarnessError> {
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return Ok(());
        }
        let eq = s
            .find('=')
            .ok_or_else(|| parse(format!("attribute without value: {s:?}")))?;
        let name = s[..eq].trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ':')
        {
            return Err(parse(format!("bad attribute name {name:?}")));
        }
        let v = s[eq + 1..].trim_start();
        let q = v
            .chars()
            .next()
            .ok_or_else(|| parse("attribute value missing"))?;
        if q != '"' && q != '\'' {
            return Err(parse(format!("unquoted attribute {name}")));
        }
        let close = v[1..]
            .find(q)
            .ok_or_else(|| parse("unterminated attribute value"))?
            + 1;
        let value = &v[1..close];
        if value.contains('<') {
            return Err(parse(format!("'<' in attribute {name}")));
        }
        check_entities(value)?;
        s = &v[close + 1..];
    }
}

fn check_entities(text: &str) -> Result<(), HarnessError> {
    let mut rest = text;
    while let Some(k) = rest.find('&') {
        let after = &rest[k + 1..];
        let semi = after.find(';').ok_or_else(|| parse("'&' without ';'"))?;
        let ent = &after[..semi];
        let ok = matches!(ent, "amp" | "lt" | "gt" | "quot" | "apos")
            || (ent.starts_with('#')
                && ent.len() > 1
                && ent[1..]
                    .trim_start_matches('x')
                    .chars()
                    .all(|c| c.is_ascii_hexdigit()));
        if !ok {
            return Err(parse(format!("unknown entity &{ent};")));
        }
        rest = &after[semi + 1..];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rendered_xml_is_well_formed() {
        let suites = vec![Suite {
            name: "vectors".into(),
            cases: vec![
                Case {
                    name: "GRAPH-0001".into(),
                    failure: None,
                    skipped: None,
                },
                Case {
                    name: "a<b & \"c\"".into(),
                    failure: Some(("x < y".into(), "expected & found\u{1}".into())),
                    skipped: None,
                },
                Case {
                    name: "state".into(),
                    failure: None,
                    skipped: Some("unimplemented".into()),
                },
            ],
        }];
        let x = render("t", &suites);
        check_well_formed(&x).unwrap();
        assert!(check_well_formed("<a><b></a></b>").is_err());
        assert!(check_well_formed("<a x=1/>").is_err());
        assert!(check_well_formed("<a>&foo;</a>").is_err());
        assert!(check_well_formed("<a/><b/>").is_err());
    }
}
