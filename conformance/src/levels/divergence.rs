//! The first place two replies diverge ([DRIVER.LEVEL.FIRST]): the first differing member of the
//! wire reply in its own member order (`ran[0].expanded[2]`), the byte offset of differing state
//! bytes with the state-layout field it falls in (`offset 131, field visited[3].g`), and plain
//! words for values that reach a port author (never a Rust debug form such as `Some(1)`).

use crate::state::{layout, StateKind};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Serialize;
use std::fmt;

/// The longest rendered value of a divergence, in characters.
pub const CLIP: usize = 80;

/// `s` cut to [`CLIP`] characters, with `...` when cut.
pub fn clip(s: &str) -> String {
    if s.chars().count() <= CLIP {
        return s.to_string();
    }
    let mut out: String = s.chars().take(CLIP).collect();
    out.push_str("...");
    out
}

pub use crate::words::{opt, outcome};

/// A whole reply in words: its compact JSON (clipped), or `no reply (why)`.
pub fn reply_words<T: Serialize>(r: &Result<T, crate::error::HarnessError>) -> String {
    match r {
        Ok(v) => clip(&serde_json::to_string(v).unwrap_or_else(|e| e.to_string())),
        Err(e) => format!("no reply ({e})"),
    }
}

/// Every state kind, for reading a header's `u16 kind`.
const KINDS: [StateKind; 12] = [
    StateKind::Grid,
    StateKind::HexGrid,
    StateKind::VoxelGrid,
    StateKind::Graph,
    StateKind::GraphAStar,
    StateKind::AStar,
    StateKind::JumpSearch,
    StateKind::ThetaSearch,
    StateKind::GridSearch,
    StateKind::GridReplanner,
    StateKind::HexReplanner,
    StateKind::FlowField,
];

/// The state-layout field that byte `offset` of `bytes` falls in (`visited[3].g`, `cells[17]`),
/// when `bytes` are state bytes ([STATE.HEADER]: magic `OPGS`, a known kind) whose shape the
/// layout walker accepts; else `None`.
pub fn state_field(bytes: &[u8], offset: usize) -> Option<String> {
    if bytes.get(..4)? != b"OPGS" {
        return None;
    }
    let code = u16::from_le_bytes(bytes.get(6..8)?.try_into().ok()?);
    let kind = KINDS.into_iter().find(|k| k.code() == code)?;
    let walk = layout::try_walk(kind, bytes)?;
    let f = walk.fields.iter().rev().find(|f| f.offset <= offset)?;
    if offset >= f.offset + f.ty.width() {
        return None;
    }
    Some(match f.ty {
        layout::Ty::Bytes(_) => format!("{}[{}]", f.name, offset - f.offset),
        _ => f.name.clone(),
    })
}

/// The OPLM field ([GRAPH.OPLM.LAYOUT]) that byte `offset` of `bytes` falls in (`node_count`,
/// `ids[2]`, `forward[1][7]`: landmark 1, node 7), when `bytes` start with the magic `OPLM` and
/// their header's counts are in range; else `None`.
pub fn oplm_field(bytes: &[u8], offset: usize) -> Option<String> {
    if bytes.get(..4)? != b"OPLM" {
        return None;
    }
    let i32_at = |at: usize| -> Option<usize> {
        let v = i32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?);
        usize::try_from(v).ok()
    };
    let header = [
        (0, "magic"),
        (4, "version"),
        (8, "node_count"),
        (12, "landmark_count"),
        (16, "fingerprint"),
    ];
    if offset < 24 {
        return header
            .iter()
            .rev()
            .find(|(at, _)| *at <= offset)
            .map(|(_, name)| name.to_string());
    }
    let (n, k) = (i32_at(8)?, i32_at(12)?);
    let ids_end = 24usize.checked_add(k.checked_mul(4)?)?;
    if offset < ids_end {
        return Some(format!("ids[{}]", (offset - 24) / 4));
    }
    let table = k.checked_mul(n)?.checked_mul(8)?;
    let (entry, name) = match offset - ids_end {
        at if at < table => (at / 8, "forward"),
        at if at - table < table => ((at - table) / 8, "backward"),
        _ => return None,
    };
    Some(format!("{name}[{}][{}]", entry / n, entry % n))
}

/// The field that byte `offset` of `bytes` falls in: a state-layout field ([`state_field`]) for
/// state bytes, an OPLM field ([`oplm_field`]) for landmark tables.
pub fn byte_field(bytes: &[u8], offset: usize) -> Option<String> {
    state_field(bytes, offset).or_else(|| oplm_field(bytes, offset))
}

/// Where two byte strings first differ: `offset i[, field F]: expected byte 0x.., found ...`,
/// the field named from the expected bytes' state layout when they are state bytes.
pub fn bytes_divergence(expected: &[u8], found: &[u8]) -> Option<String> {
    let (at, e, f) = bytes_difference(expected, found)?;
    Some(format!("{at}: expected {e}, found {f}"))
}

/// The parts of [`bytes_divergence`]: `offset i[, field F]` and the two bytes in words.
pub fn bytes_difference(expected: &[u8], found: &[u8]) -> Option<(String, String, String)> {
    let i = (0..expected.len().max(found.len())).find(|&i| expected.get(i) != found.get(i))?;
    let show = |x: &[u8]| {
        x.get(i)
            .map_or(format!("end of bytes (length {})", x.len()), |v| {
                format!("byte {v:#04x}")
            })
    };
    let field = byte_field(expected, i)
        .map(|f| format!(", field {f}"))
        .unwrap_or_default();
    Some((format!("offset {i}{field}"), show(expected), show(found)))
}

/// The L4 break of two final state byte strings that differ ([DRIVER.LEVEL.FIRST]):
/// `final state bytes offset i, field F` with the two bytes, never their two equal lengths.
pub fn final_state_break(expected: &[u8], found: &[u8]) -> Option<super::Break> {
    let (at, e, f) = bytes_difference(expected, found)?;
    Some(super::Break::new(
        super::Level::L4,
        format!("final state bytes {at}"),
        e,
        f,
    ))
}

/// A JSON value with its members in text order (serde_json's map sorts them by name).
#[derive(Clone, Debug, PartialEq)]
enum Node {
    Null,
    Bool(bool),
    /// A number, compared by its text (so `-0.0` differs from `0.0`).
    Num(String),
    Str(String),
    Arr(Vec<Node>),
    Obj(Vec<(String, Node)>),
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Node;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Node, E> {
                Ok(Node::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
                Ok(Node::Bool(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
                Ok(Node::Num(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
                Ok(Node::Num(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
                Ok(Node::Num(
                    serde_json::to_string(&v).unwrap_or_else(|_| v.to_string()),
                ))
            }
            fn visit_str<E>(self, v: &str) -> Result<Node, E> {
                Ok(Node::Str(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Node, E> {
                Ok(Node::Str(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut out = Vec::new();
                while let Some(x) = a.next_element()? {
                    out.push(x);
                }
                Ok(Node::Arr(out))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Node, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Node>()? {
                    out.push((k, v));
                }
                Ok(Node::Obj(out))
            }
        }
        d.deserialize_any(V)
    }
}

impl Node {
    fn of<T: Serialize>(v: &T) -> Option<Node> {
        serde_json::from_str(&serde_json::to_string(v).ok()?).ok()
    }

    /// The value in words: compact JSON, clipped.
    fn words(&self) -> String {
        let text = match self {
            Node::Null => "null".to_string(),
            Node::Bool(b) => b.to_string(),
            Node::Num(n) => n.clone(),
            Node::Str(s) => serde_json::to_string(s).unwrap_or_default(),
            Node::Arr(a) => format!("a list of {}", a.len()),
            Node::Obj(o) => format!(
                "an object with {}",
                o.iter()
                    .map(|(k, _)| k.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        clip(&text)
    }
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    if s.len() < 16 {
        return None;
    }
    hex::decode(s).ok()
}

fn walk(a: &Node, b: &Node, path: &str) -> Option<String> {
    if a == b {
        return None;
    }
    match (a, b) {
        (Node::Obj(x), Node::Obj(y)) => {
            for (k, va) in x {
                match y.iter().find(|(kb, _)| kb == k) {
                    Some((_, vb)) => {
                        if let Some(d) = walk(va, vb, &join(path, k)) {
                            return Some(d);
                        }
                    }
                    None => {
                        return Some(format!(
                            "{}: expected {}, found no member",
                            join(path, k),
                            va.words()
                        ))
                    }
                }
            }
            y.iter()
                .find(|(k, _)| !x.iter().any(|(ka, _)| ka == k))
                .map(|(k, v)| format!("{}: expected no member, found {}", join(path, k), v.words()))
        }
        (Node::Arr(x), Node::Arr(y)) => {
            let n = x.len().max(y.len());
            for i in 0..n {
                let at = format!("{path}[{i}]");
                match (x.get(i), y.get(i)) {
                    (Some(va), Some(vb)) => {
                        if let Some(d) = walk(va, vb, &at) {
                            return Some(d);
                        }
                    }
                    (Some(va), None) => {
                        return Some(format!(
                            "{at}: expected {}, found the end of the list (length {})",
                            va.words(),
                            y.len()
                        ))
                    }
                    (None, Some(vb)) => {
                        return Some(format!(
                            "{at}: expected the end of the list (length {}), found {}",
                            x.len(),
                            vb.words()
                        ))
                    }
                    (None, None) => {}
                }
            }
            None
        }
        (Node::Str(x), Node::Str(y)) => {
            let name = if path.is_empty() { "reply" } else { path };
            if let (Some(bx), Some(by)) = (hex_bytes(x), hex_bytes(y)) {
                return Some(format!(
                    "{name}: bytes {}",
                    bytes_divergence(&bx, &by).unwrap_or_default()
                ));
            }
            let hash = if path.ends_with("sha256") {
                " (a SHA-256 over bytes the reply does not carry: the first place they differ is this one)"
            } else {
                ""
            };
            Some(format!(
                "{name}: expected {}, found {}{hash}",
                a.words(),
                b.words()
            ))
        }
        _ => Some(format!(
            "{}: expected {}, found {}",
            if path.is_empty() { "reply" } else { path },
            a.words(),
            b.words()
        )),
    }
}

/// The first member, in the wire reply's own member order, where `found` differs from
/// `expected` ([DRIVER.LEVEL.FIRST]): `ran[0].expanded[2]: expected 50, found 73`; `None` when
/// their JSON forms are equal.
pub fn json_divergence<T: Serialize>(expected: &T, found: &T) -> Option<String> {
    walk(&Node::of(expected)?, &Node::of(found)?, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_order_not_name_order() {
        #[derive(Serialize)]
        struct R {
            zeta: Vec<u32>,
            alpha: u32,
        }
        let a = R {
            zeta: vec![1, 2, 3],
            alpha: 1,
        };
        let b = R {
            zeta: vec![1, 9, 3],
            alpha: 2,
        };
        assert_eq!(
            json_divergence(&a, &b).unwrap(),
            "zeta[1]: expected 2, found 9"
        );
        assert_eq!(json_divergence(&a, &a), None);
        assert_eq!(
            json_divergence(&0.0f64, &-0.0f64).unwrap(),
            "reply: expected 0.0, found -0.0"
        );
    }

    #[test]
    fn opt_has_no_debug_form() {
        assert_eq!(opt(Some(1), "none"), "1");
        assert_eq!(opt(None::<u32>, "end of path"), "end of path");
    }

    /// [GRAPH.OPLM.LAYOUT]: N = 3 nodes, k = 2 landmarks: ids at 24..32, forward table at
    /// 32..80, backward at 80..128; past the end, a foreign magic or a negative count: no field.
    #[test]
    fn oplm_fields_follow_the_layout() {
        let mut b = b"OPLM".to_vec();
        for v in [1i32, 3, 2] {
            b.extend(v.to_le_bytes());
        }
        b.resize(128, 0);
        let at = |o| oplm_field(&b, o);
        assert_eq!(at(3).as_deref(), Some("magic"));
        assert_eq!(at(10).as_deref(), Some("node_count"));
        assert_eq!(at(12).as_deref(), Some("landmark_count"));
        assert_eq!(at(23).as_deref(), Some("fingerprint"));
        assert_eq!(at(28).as_deref(), Some("ids[1]"));
        assert_eq!(at(32).as_deref(), Some("forward[0][0]"));
        assert_eq!(at(32 + 8 * 4 + 7).as_deref(), Some("forward[1][1]"));
        assert_eq!(at(80).as_deref(), Some("backward[0][0]"));
        assert_eq!(at(127).as_deref(), Some("backward[1][2]"));
        assert_eq!(at(128), None);
        let mut other = b.clone();
        other[0] = b'X';
        assert_eq!(oplm_field(&other, 10), None);
        let mut negative = b.clone();
        negative[12..16].copy_from_slice(&(-1i32).to_le_bytes());
        assert_eq!(oplm_field(&negative, 40), None);
        assert_eq!(oplm_field(&negative, 9).as_deref(), Some("node_count"));
        assert_eq!(
            bytes_divergence(&b, &other).unwrap(),
            "offset 0, field magic: expected byte 0x4f, found byte 0x58"
        );
    }
}
