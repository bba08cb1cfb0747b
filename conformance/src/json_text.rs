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
