//! Hostile records ([RECORD.VECTOR]), derived mechanically from a golden record so that nobody
//! writes an expected path or offset by hand: the inputs come from walking the member tables,
//! the expected errors from the kit's reader.

use super::json::{parse, Json};
use super::schema::{self, Member, Ty, Val};
use super::QueryRecord;

/// Which transport a hostile input is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transport {
    /// The JSON text.
    Json,
    /// The binary form.
    Binary,
}

/// One hostile input before the reader judged it.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutation {
    /// What was changed, for people.
    pub what: String,
    /// The transport.
    pub transport: Transport,
    /// The input: text, or bytes.
    pub input: Vec<u8>,
}

/// Writes a JSON tree back as text, members in their order, no whitespace.
pub fn text_of(j: &Json) -> String {
    let mut out = String::new();
    write_json(&mut out, j);
    out
}

fn write_json(out: &mut String, j: &Json) {
    match j {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::UInt(v) => out.push_str(&v.to_string()),
        Json::NegInt(v) => out.push_str(&v.to_string()),
        Json::Float(v) => out.push_str(&serde_json::to_string(v).unwrap_or_default()),
        Json::Str(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
        Json::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Json::Obj(members) => {
            out.push('{');
            for (i, (k, v)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(':');
                write_json(out, v);
            }
            out.push('}');
        }
    }
}

/// A value of another JSON type than `j` that no member type accepts in `j`'s place.
fn other_type(j: &Json) -> Json {
    match j {
        Json::Str(_) | Json::Bool(_) => Json::UInt(0),
        Json::UInt(_) | Json::NegInt(_) | Json::Float(_) => Json::Str("x".into()),
        Json::Null | Json::Obj(_) => Json::Arr(Vec::new()),
        Json::Arr(_) => Json::Obj(Vec::new()),
    }
}

/// Every object member's path (indexes into nested objects), depth first in document order;
/// list items are not walked (their members are the list's).
fn member_paths(
    j: &Json,
    prefix: &mut Vec<usize>,
    out: &mut Vec<(Vec<usize>, String)>,
    name: &str,
) {
    if let Json::Obj(members) = j {
        for (i, (k, v)) in members.iter().enumerate() {
            prefix.push(i);
            let path = if name.is_empty() {
                k.clone()
            } else {
                format!("{name}.{k}")
            };
            out.push((prefix.clone(), path.clone()));
            member_paths(v, prefix, out, &path);
            prefix.pop();
        }
    }
}

/// Every object's path, depth first, the root first (`$`).
fn object_paths(
    j: &Json,
    prefix: &mut Vec<usize>,
    out: &mut Vec<(Vec<usize>, String)>,
    name: &str,
) {
    if let Json::Obj(members) = j {
        out.push((
            prefix.clone(),
            if name.is_empty() {
                "$".into()
            } else {
                name.into()
            },
        ));
        for (i, (k, v)) in members.iter().enumerate() {
            prefix.push(i);
            let path = if name.is_empty() {
                k.clone()
            } else {
                format!("{name}.{k}")
            };
            object_paths(v, prefix, out, &path);
            prefix.pop();
        }
    }
}

/// The object holding the member at `path` and the member's index in it.
fn parent_mut<'a>(j: &'a mut Json, path: &[usize]) -> Option<(&'a mut Vec<(String, Json)>, usize)> {
    let (last, up) = path.split_last()?;
    let mut cur = j;
    for &i in up {
        let Json::Obj(m) = cur else { return None };
        cur = &mut m.get_mut(i)?.1;
    }
    match cur {
        Json::Obj(m) => Some((m, *last)),
        _ => None,
    }
}

fn object_mut<'a>(j: &'a mut Json, path: &[usize]) -> Option<&'a mut Vec<(String, Json)>> {
    let mut cur = j;
    for &i in path {
        let Json::Obj(m) = cur else { return None };
        cur = &mut m.get_mut(i)?.1;
    }
    match cur {
        Json::Obj(m) => Some(m),
        _ => None,
    }
}

fn json_mutation(what: String, text: String) -> Mutation {
    Mutation {
        what,
        transport: Transport::Json,
        input: text.into_bytes(),
    }
}

fn root_member(text: &str, name: &str, value: Json) -> Option<String> {
    let mut j = parse(text).ok()?;
    let Json::Obj(m) = &mut j else { return None };
    m.iter_mut().find(|(k, _)| k == name)?.1 = value;
    Some(text_of(&j))
}

/// [RECORD.VECTOR] The JSON mutations of a canonical text, in the spec's order.
pub fn json_mutations(text: &str) -> Vec<Mutation> {
    let Ok(tree) = parse(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut members = Vec::new();
    member_paths(&tree, &mut Vec::new(), &mut members, "");
    for (path, name) in &members {
        let mut j = tree.clone();
        if let Some((m, i)) = parent_mut(&mut j, path) {
            m.remove(i);
            out.push(json_mutation(format!("{name} removed"), text_of(&j)));
        }
    }
    for (path, name) in &members {
        let mut j = tree.clone();
        if let Some((m, i)) = parent_mut(&mut j, path) {
            m[i].1 = other_type(&m[i].1);
            out.push(json_mutation(
                format!("{name} of another JSON type"),
                text_of(&j),
            ));
        }
    }
    let mut objects = Vec::new();
    object_paths(&tree, &mut Vec::new(), &mut objects, "");
    for (path, name) in &objects {
        let mut j = tree.clone();
        if let Some(m) = object_mut(&mut j, path) {
            m.push(("zz_unknown".into(), Json::UInt(0)));
            out.push(json_mutation(
                format!("an unknown member in {name}"),
                text_of(&j),
            ));
        }
    }
    if let Some(rest) = text.strip_prefix('{') {
        if let Some((first, _)) = rest.split_once(",\"") {
            out.push(json_mutation(
                "the first member written twice".into(),
                format!("{{{first},{rest}"),
            ));
        }
    }
    let versions = [
        ("version 0", Json::UInt(0)),
        ("version 2", Json::UInt(2)),
        ("version \"1\"", Json::Str("1".into())),
        ("version 1.5", Json::Float(1.5)),
    ];
    for (what, v) in versions {
        if let Some(t) = root_member(text, "version", v) {
            out.push(json_mutation(what.into(), t));
        }
    }
    if let Some(t) = root_member(text, "schema", Json::Str("onepath.unknown".into())) {
        out.push(json_mutation("an unknown schema".into(), t));
    }
    if let Some(t) = root_member(text, "family", Json::Str("unknown".into())) {
        out.push(json_mutation("an unknown family".into(), t));
    }
    out.push(json_mutation(
        "the text cut in half".into(),
        text[..text.len() / 2].to_string(),
    ));
    out
}

/// The offsets of every flag byte (`bool`, `opt`) and name byte (`name`, a cost rule's tag) of
/// a value written as `ty` at `at`; returns the offset after it.
fn flag_offsets(
    v: &Val,
    ty: &Ty,
    at: usize,
    flags: &mut Vec<usize>,
    names: &mut Vec<usize>,
) -> usize {
    let mut b = Vec::new();
    match (ty, v) {
        (Ty::Bool, _) => {
            flags.push(at);
            at + 1
        }
        (Ty::Name(_), _) => {
            names.push(at);
            at + 1
        }
        (Ty::Opt(inner), Val::Opt(o)) => {
            flags.push(at);
            match o {
                Some(x) => flag_offsets(x, inner, at + 1, flags, names),
                None => at + 1,
            }
        }
        (Ty::List(inner), Val::List(items)) => {
            let mut p = at + 4;
            for item in items {
                p = flag_offsets(item, inner, p, flags, names);
            }
            p
        }
        (Ty::Obj(members), Val::Obj(vals)) => members_offsets(members, vals, at, flags, names),
        (Ty::OneOf(members), Val::OneOf(i, x)) => {
            names.push(at);
            flag_offsets(x, &members[*i].ty, at + 1, flags, names)
        }
        _ => {
            super::binary::write(&mut b, v, ty);
            at + b.len()
        }
    }
}

fn members_offsets(
    members: &[Member],
    vals: &[Val],
    at: usize,
    flags: &mut Vec<usize>,
    names: &mut Vec<usize>,
) -> usize {
    members
        .iter()
        .zip(vals)
        .fold(at, |p, (m, v)| flag_offsets(v, &m.ty, p, flags, names))
}

fn binary_mutation(what: String, input: Vec<u8>) -> Mutation {
    Mutation {
        what,
        transport: Transport::Binary,
        input,
    }
}

/// [RECORD.VECTOR] The binary mutations of a record, in the spec's order.
pub fn binary_mutations(record: &QueryRecord) -> Vec<Mutation> {
    let bytes = record.to_binary();
    let mut out = Vec::new();
    for n in 0..bytes.len() {
        out.push(binary_mutation(
            format!("cut to {n} bytes"),
            bytes[..n].to_vec(),
        ));
    }
    let mut longer = bytes.clone();
    longer.push(0);
    out.push(binary_mutation("one byte appended".into(), longer));
    let with = |at: usize, v: u8, what: String| {
        let mut b = bytes.clone();
        b[at] = v;
        binary_mutation(what, b)
    };
    out.push(with(0, b'X', "a wrong magic".into()));
    out.push(with(4, 0, "version 0".into()));
    out.push(with(4, 2, "version 2".into()));
    out.push(with(6, schema::FAMILIES.len() as u8, "family 8".into()));
    let (mut flags, mut names) = (Vec::new(), Vec::new());
    let world_end = super::BINARY_HEADER + 1 + {
        let mut w = Vec::new();
        super::binary::write_members(
            &mut w,
            schema::world(record.world.kind() as u64),
            &record.world.to_val(),
        );
        // The world's only flag is the graph's positions flag.
        if record.world.kind() == 4 {
            flags.push(super::BINARY_HEADER + 1 + 12);
        }
        w.len()
    };
    members_offsets(
        schema::body(record.query.code()),
        &record.query.to_val(),
        world_end,
        &mut flags,
        &mut names,
    );
    for at in flags {
        out.push(with(at, 2, format!("the flag byte at {at} set to 2")));
    }
    for at in names {
        out.push(with(at, 255, format!("the name byte at {at} set to 255")));
    }
    out
}
