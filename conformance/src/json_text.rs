//! Deterministic JSON layout for committed files ([CONF.FILES.LAYOUT]): serde's field order,
//! two-space indentation, and any array or object without nested containers on one line.

use serde::Serialize;

enum Node {
    Scalar(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn string_end(&self, mut i: usize) -> usize {
        i += 1;
        while self.text[i] != b'"' {
            i += if self.text[i] == b'\\' { 2 } else { 1 };
        }
        i + 1
    }

    fn node(&mut self) -> Node {
        match self.text[self.at] {
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                while self.text[self.at] != b']' {
                    items.push(self.node());
                    if self.text[self.at] == b',' {
                        self.at += 1;
                    }
                }
                self.at += 1;
                Node::Array(items)
            }
            b'{' => {
                self.at += 1;
                let mut items = Vec::new();
                while self.text[self.at] != b'}' {
                    let end = self.string_end(self.at);
                    let key = String::from_utf8(self.text[self.at..end].to_vec()).expect("utf-8");
                    self.at = end + 1; // the ':'
                    items.push((key, self.node()));
                    if self.text[self.at] == b',' {
                        self.at += 1;
                    }
                }
                self.at += 1;
                Node::Object(items)
            }
            b'"' => {
                let end = self.string_end(self.at);
                let s = String::from_utf8(self.text[self.at..end].to_vec()).expect("utf-8");
                self.at = end;
                Node::Scalar(s)
            }
            _ => {
                let start = self.at;
                while !matches!(self.text[self.at], b',' | b']' | b'}') {
                    self.at += 1;
                }
                Node::Scalar(String::from_utf8(self.text[start..self.at].to_vec()).expect("utf-8"))
            }
        }
    }
}

fn flat(node: &Node) -> bool {
    match node {
        Node::Scalar(_) => true,
        Node::Array(items) => items.iter().all(|n| matches!(n, Node::Scalar(_))),
        Node::Object(items) => items.iter().all(|(_, n)| matches!(n, Node::Scalar(_))),
    }
}

fn write(node: &Node, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent + 1);
    match node {
        Node::Scalar(s) => out.push_str(s),
        Node::Array(items) if flat(node) => {
            out.push('[');
            for (i, n) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write(n, indent, out);
            }
            out.push(']');
        }
        Node::Object(items) if flat(node) => {
            out.push('{');
            for (i, (k, n)) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(k);
                out.push_str(": ");
                write(n, indent, out);
            }
            out.push('}');
        }
        Node::Array(items) => {
            out.push_str("[\n");
            for (i, n) in items.iter().enumerate() {
                out.push_str(&pad);
                write(n, indent + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push(']');
        }
        Node::Object(items) => {
            out.push_str("{\n");
            for (i, (k, n)) in items.iter().enumerate() {
                out.push_str(&pad);
                out.push_str(k);
                out.push_str(": ");
                write(n, indent + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&"  ".repeat(indent));
            out.push('}');
        }
    }
}

/// Serializes `value` in the committed-file layout, ending with a newline.
pub fn to_text<T: Serialize>(value: &T) -> String {
    let compact = serde_json::to_string(value).expect("value serializes");
    let mut parser = Parser {
        text: compact.as_bytes(),
        at: 0,
    };
    let node = parser.node();
    let mut out = String::new();
    write(&node, 0, &mut out);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips() {
        let v = serde_json::json!({"a": [[1, 2.5, -0.0], [3, 4, 5]], "b": {"c": "x,\"]"}, "d": [], "e": {"f": [1]}});
        let text = to_text(&v);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
        assert!(text.contains("[1, 2.5, -0.0]"));
    }
}

/// [CONF.JSON.UNIQUE] Checks that no object of the JSON `text` has a member twice (serde_json
/// keeps the last of two members of a `Value` or a map, and a check of "exactly two members"
/// over such a value would count one). The error names the member (clipped to 200 bytes), with
/// the line and column of the second occurrence.
pub fn check_unique_members(text: &str) -> Result<(), serde_json::Error> {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(text);
    Unique.deserialize(&mut de)?;
    de.end()
}

struct Unique;

impl<'de> serde::de::DeserializeSeed<'de> for Unique {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(Unique)
    }
}

impl<'de> serde::de::Visitor<'de> for Unique {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        while a.next_element_seed(Unique)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = a.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "duplicate member {:?}",
                    crate::error::clip(&key, 200)
                )));
            }
            a.next_value_seed(Unique)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod unique_tests {
    use super::check_unique_members;

    #[test]
    fn duplicates_are_refused_at_any_depth() {
        assert!(check_unique_members(r#"{"a":[{"b":1,"c":{"d":2}}],"e":null}"#).is_ok());
        let e = check_unique_members(r#"{"id":1,"ok":{"x":1},"ok":{"x":2}}"#).unwrap_err();
        assert!(e.to_string().contains("duplicate member \"ok\""), "{e}");
        assert!(check_unique_members(r#"[{"a":{"b":1,"b":1}}]"#).is_err());
        assert!(check_unique_members(r#"{"a":1} x"#).is_err());
    }
}
