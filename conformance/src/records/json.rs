//! The JSON transport ([RECORD.JSON.*]): a strict parse into a tree that keeps member order and
//! refuses duplicates, the reading of that tree by the member tables of `schema.rs` with the
//! first error by member path, and the canonical writer.

use super::error::{RecordError, RecordErrorClass as C, RecordPlace};
use super::schema::{Member, Ty, Val};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A parsed JSON value; objects keep their members in document order.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// A non-negative integer literal.
    UInt(u64),
    /// A negative integer literal.
    NegInt(i64),
    /// A number with a fraction or an exponent (or an integer beyond 64 bits).
    Float(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Json>),
    /// An object.
    Obj(Vec<(String, Json)>),
}

/// The marker that tells a duplicate member from other parse errors.
const DUPLICATE: &str = "\u{1}duplicate member ";

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::UInt(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(if v >= 0 {
            Json::UInt(v as u64)
        } else {
            Json::NegInt(v)
        })
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::Str(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Arr(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members: Vec<(String, Json)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if members.iter().any(|(k, _)| *k == key) {
                return Err(de::Error::custom(format!("{DUPLICATE}{key}")));
            }
            let value = map.next_value()?;
            members.push((key, value));
        }
        Ok(Json::Obj(members))
    }
}

/// [RECORD.JSON.LIMIT] [RECORD.JSON.READ] Parses `text` strictly (no duplicate member).
pub fn parse(text: &str) -> Result<Json, RecordError> {
    if text.len() > super::MAX_RECORD_BYTES {
        return Err(RecordError::at_path(
            C::TooLarge,
            "",
            format!(
                "expected at most {} bytes, found {}",
                super::MAX_RECORD_BYTES,
                text.len()
            ),
        ));
    }
    serde_json::from_str::<Json>(text).map_err(|e| {
        let message = e.to_string();
        let (line, column) = (e.line(), e.column());
        match message.find(DUPLICATE) {
            Some(i) => {
                let rest = &message[i + DUPLICATE.len()..];
                let member = rest.split(" at line ").next().unwrap_or(rest).to_string();
                RecordError::at_text(
                    C::DuplicateField,
                    RecordPlace::Duplicate {
                        member: member.clone(),
                        line,
                        column,
                    },
                    format!("member `{member}` written twice"),
                )
            }
            None => RecordError::at_text(
                C::Malformed,
                RecordPlace::Text { line, column },
                message
                    .split(" at line ")
                    .next()
                    .unwrap_or(&message)
                    .to_string(),
            ),
        }
    })
}

fn kind_name(j: &Json) -> &'static str {
    match j {
        Json::Null => "null",
        Json::Bool(_) => "a boolean",
        Json::UInt(_) | Json::NegInt(_) => "an integer",
        Json::Float(_) => "a real number",
        Json::Str(_) => "a string",
        Json::Arr(_) => "an array",
        Json::Obj(_) => "an object",
    }
}

fn wrong(path: &str, expected: &str, found: &Json) -> RecordError {
    RecordError::at_path(
        C::WrongType,
        path,
        format!("expected {expected}, found {}", kind_name(found)),
    )
}

fn bad(path: &str, detail: String) -> RecordError {
    RecordError::at_path(C::BadValue, path, detail)
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn integer(j: &Json, path: &str, min: i64, max: u64) -> Result<Val, RecordError> {
    let expected = "an integer";
    match *j {
        Json::UInt(v) if v <= max => Ok(if min < 0 { Val::I(v as i64) } else { Val::U(v) }),
        Json::NegInt(v) if v >= min => Ok(Val::I(v)),
        Json::UInt(_) | Json::NegInt(_) => Err(bad(
            path,
            format!("expected an integer in {min}..={max}, found {}", show(j)),
        )),
        _ => Err(wrong(path, expected, j)),
    }
}

fn show(j: &Json) -> String {
    match j {
        Json::UInt(v) => v.to_string(),
        Json::NegInt(v) => v.to_string(),
        Json::Float(v) => v.to_string(),
        Json::Str(s) => format!("\"{s}\""),
        other => kind_name(other).to_string(),
    }
}

fn hex_digits(j: &Json, path: &str, digits: usize) -> Result<Vec<u8>, RecordError> {
    let Json::Str(s) = j else {
        return Err(wrong(path, "a string", j));
    };
    let lower = s
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if s.len() != digits || !lower {
        return Err(bad(
            path,
            format!("expected {digits} lowercase hex digits, found \"{s}\""),
        ));
    }
    hex::decode(s).map_err(|e| bad(path, e.to_string()))
}

/// Reads the value at `path` as `ty` ([RECORD.JSON.READ]) in the shapes of [RECORD.JSON.SHAPE].
pub fn read(j: &Json, ty: &Ty, path: &str) -> Result<Val, RecordError> {
    match ty {
        Ty::U8 => integer(j, path, 0, u8::MAX as u64),
        Ty::U32 => integer(j, path, 0, u32::MAX as u64),
        Ty::U64 => integer(j, path, 0, u64::MAX),
        Ty::I32 => integer(j, path, i32::MIN as i64, i32::MAX as u64),
        Ty::F64 => match *j {
            Json::UInt(v) => Ok(Val::F(v as f64)),
            Json::NegInt(v) => Ok(Val::F(v as f64)),
            Json::Float(v) if v.is_finite() => Ok(Val::F(v)),
            Json::Float(v) => Err(bad(path, format!("expected a finite number, found {v}"))),
            _ => Err(wrong(path, "a number", j)),
        },
        Ty::Bool => match *j {
            Json::Bool(b) => Ok(Val::B(b)),
            _ => Err(wrong(path, "a boolean", j)),
        },
        Ty::Sha256 => {
            let bytes = hex_digits(j, path, 64)?;
            let mut a = [0u8; 32];
            a.copy_from_slice(&bytes);
            Ok(Val::Sha(a))
        }
        Ty::Fingerprint => {
            let bytes = hex_digits(j, path, 16)?;
            let mut a = [0u8; 8];
            a.copy_from_slice(&bytes);
            Ok(Val::U(u64::from_be_bytes(a)))
        }
        Ty::Name(names) => match j {
            Json::Str(s) => names
                .iter()
                .position(|n| n == s)
                .map(Val::Name)
                .ok_or_else(|| {
                    bad(
                        path,
                        format!("expected one of {}, found \"{s}\"", names.join(", ")),
                    )
                }),
            _ => Err(wrong(path, "a string", j)),
        },
        Ty::Opt(inner) => match j {
            Json::Null => Ok(Val::Opt(None)),
            _ => Ok(Val::Opt(Some(Box::new(read(j, inner, path)?)))),
        },
        Ty::List(inner) => match j {
            Json::Arr(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| read(item, inner, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()
                .map(Val::List),
            _ => Err(wrong(path, "an array", j)),
        },
        Ty::Coords(n) => match j {
            Json::Arr(items) if items.len() == *n => items
                .iter()
                .enumerate()
                .map(|(i, item)| read(item, &Ty::U32, &format!("{path}[{i}]")))
                .collect::<Result<_, _>>()
                .map(Val::List),
            Json::Arr(items) => Err(bad(
                path,
                format!("expected {n} integers, found {}", items.len()),
            )),
            _ => Err(wrong(path, "an array", j)),
        },
        Ty::Obj(members) => match j {
            Json::Obj(got) => read_members(got, members, path).map(Val::Obj),
            _ => Err(wrong(path, "an object", j)),
        },
        Ty::OneOf(members) => match j {
            Json::Obj(got) => {
                let Some((name, value)) = got.first() else {
                    return Err(RecordError::at_path(
                        C::MissingField,
                        path,
                        format!("expected one member of {}", names_of(members)),
                    ));
                };
                let Some(which) = members.iter().position(|m| m.name == name) else {
                    return Err(RecordError::at_path(
                        C::UnknownField,
                        &join(path, name),
                        format!("expected one of {}", names_of(members)),
                    ));
                };
                if let Some((extra, _)) = got.get(1) {
                    return Err(RecordError::at_path(
                        C::UnknownField,
                        &join(path, extra),
                        format!("expected only `{name}`"),
                    ));
                }
                let v = read(value, &members[which].ty, &join(path, name))?;
                Ok(Val::OneOf(which, Box::new(v)))
            }
            _ => Err(wrong(path, "an object", j)),
        },
    }
}

fn names_of(members: &[Member]) -> String {
    members
        .iter()
        .map(|m| m.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The members of an object, in the table's order, then the unknown-member check.
pub fn read_members(
    got: &[(String, Json)],
    members: &[Member],
    path: &str,
) -> Result<Vec<Val>, RecordError> {
    let mut out = Vec::with_capacity(members.len());
    for m in members {
        let p = join(path, m.name);
        match got.iter().find(|(k, _)| k == m.name) {
            Some((_, v)) => out.push(read(v, &m.ty, &p)?),
            None => {
                return Err(RecordError::at_path(
                    C::MissingField,
                    &p,
                    "expected the member, found none",
                ))
            }
        }
    }
    unknown_after(got, &[members], path)?;
    Ok(out)
}

/// [RECORD.JSON.READ] The first member of `got` that no table of `known` lists.
pub fn unknown_after(
    got: &[(String, Json)],
    known: &[&[Member]],
    path: &str,
) -> Result<(), RecordError> {
    for (k, _) in got {
        if !known.iter().any(|ms| ms.iter().any(|m| m.name == k)) {
            return Err(RecordError::at_path(
                C::UnknownField,
                &join(path, k),
                "a member the spec does not list",
            ));
        }
    }
    Ok(())
}

/// [RECORD.JSON.WRITE] [RECORD.JSON.NUMBERS] Appends the canonical text of `v` as `ty`.
pub fn write(out: &mut String, v: &Val, ty: &Ty) {
    match (ty, v) {
        (Ty::Sha256, Val::Sha(a)) => {
            out.push('"');
            out.push_str(&hex::encode(a));
            out.push('"');
        }
        (Ty::Fingerprint, Val::U(x)) => out.push_str(&format!("\"{x:016x}\"")),
        (_, Val::U(x)) => out.push_str(&x.to_string()),
        (_, Val::I(x)) => out.push_str(&x.to_string()),
        (_, Val::F(x)) => out.push_str(&serde_json::to_string(x).unwrap_or_default()),
        (_, Val::B(b)) => out.push_str(if *b { "true" } else { "false" }),
        (Ty::Name(names), Val::Name(i)) => {
            out.push('"');
            out.push_str(names.get(*i).copied().unwrap_or(""));
            out.push('"');
        }
        (Ty::Opt(_), Val::Opt(None)) => out.push_str("null"),
        (Ty::Opt(inner), Val::Opt(Some(x))) => write(out, x, inner),
        (Ty::List(inner), Val::List(items)) => write_items(out, items, inner),
        (Ty::Coords(_), Val::List(items)) => write_items(out, items, &Ty::U32),
        (Ty::Obj(members), Val::Obj(vals)) => write_members(out, members, vals),
        (Ty::OneOf(members), Val::OneOf(i, x)) => {
            let m = &members[*i];
            out.push_str(&format!("{{\"{}\":", m.name));
            write(out, x, &m.ty);
            out.push('}');
        }
        _ => out.push_str("null"),
    }
}

fn write_items(out: &mut String, items: &[Val], ty: &Ty) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write(out, item, ty);
    }
    out.push(']');
}

/// Appends `{"name":value,...}` for the members.
pub fn write_members(out: &mut String, members: &[Member], vals: &[Val]) {
    out.push('{');
    for (i, (m, v)) in members.iter().zip(vals).enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("\"{}\":", m.name));
        write(out, v, &m.ty);
    }
    out.push('}');
}
