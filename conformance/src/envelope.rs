//! The one envelope of every vector file ([CONF.VEC.ENVELOPE]): `schema`, `version`, `id`,
//! `family`, `_comment` and `cases`, in that order; each family defines its case type. One
//! strict reader ([`Envelope::parse`], [`read_family`]) serves every family, in the manner of
//! regex's `testdata`.

use crate::error::{ErrorKind, HarnessError};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The `schema` of every vector file.
pub const VECTOR_SCHEMA: &str = "onepath.vector";
/// The only `version` the kit reads and writes.
pub const VECTOR_VERSION: u32 = 1;
/// The schemas of the per-family formats the envelope replaced: a file in one of them is
/// rejected by name, never reinterpreted ([CONF.VEC.RETIRED]).
pub const RETIRED_SCHEMAS: [&str; 4] = [
    "onepath.graph-scenario",
    "onepath.grid-vector",
    "onepath.state-vector",
    "onepath.state-hostile",
];

/// A vector file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Envelope<C> {
    /// Always [`VECTOR_SCHEMA`].
    pub schema: String,
    /// Always [`VECTOR_VERSION`].
    pub version: u32,
    /// The vector id (`GRAPH-0001`, `GRID-0007`, `STATE-ASTAR-0003`).
    pub id: String,
    /// The family that reads the cases (`graph`, `grid-search`, `state`).
    pub family: String,
    /// What the vector exercises, for people.
    #[serde(rename = "_comment")]
    pub comment: String,
    /// The cases, in the family's case format.
    pub cases: Vec<C>,
}

/// The header members, read first so that a retired or foreign file is named before its body
/// is judged.
#[derive(Deserialize)]
struct Head {
    schema: String,
    version: u64,
    #[serde(default)]
    family: Option<String>,
}

impl<C> Envelope<C> {
    /// A file of `family` with `id`, `comment` and `cases`.
    pub fn new(id: &str, family: &str, comment: &str, cases: Vec<C>) -> Envelope<C> {
        Envelope {
            schema: VECTOR_SCHEMA.to_string(),
            version: VECTOR_VERSION,
            id: id.to_string(),
            family: family.to_string(),
            comment: comment.to_string(),
            cases,
        }
    }
}

impl<C: DeserializeOwned> Envelope<C> {
    /// Strict parse of a file of `family`: the schema (a retired one by name), the version and
    /// the family first, then every member (unknown or missing members are errors, with the
    /// line and column).
    pub fn parse(text: &str, family: &str) -> Result<Envelope<C>, HarnessError> {
        let head: Head = serde_json::from_str(text).map_err(|e| HarnessError::json(&e))?;
        // [CONF.JSON.UNIQUE]
        crate::json_text::check_unique_members(text).map_err(|e| HarnessError::json(&e))?;
        if RETIRED_SCHEMAS.contains(&head.schema.as_str()) {
            return Err(HarnessError::new(
                ErrorKind::Version,
                format!(
                    "schema {:?} is retired; this kit reads {VECTOR_SCHEMA:?} version {VECTOR_VERSION}",
                    head.schema
                ),
            ));
        }
        if head.schema != VECTOR_SCHEMA {
            return Err(HarnessError::new(
                ErrorKind::Version,
                format!("schema {:?}, expected {VECTOR_SCHEMA:?}", head.schema),
            ));
        }
        if head.version != u64::from(VECTOR_VERSION) {
            return Err(HarnessError::new(
                ErrorKind::Version,
                format!(
                    "unsupported version {}, this kit reads {VECTOR_VERSION}",
                    head.version
                ),
            ));
        }
        if let Some(f) = head.family.as_deref().filter(|f| *f != family) {
            return Err(HarnessError::new(
                ErrorKind::Schema,
                format!("family {f:?}, expected {family:?}"),
            ));
        }
        serde_json::from_str(text).map_err(|e| HarnessError::json(&e))
    }

    /// The only case of a family whose files hold exactly one.
    pub fn single(mut self) -> Result<(String, String, C), HarnessError> {
        if self.cases.len() != 1 {
            return Err(HarnessError::new(
                ErrorKind::Schema,
                format!("{} cases, expected exactly 1", self.cases.len()),
            )
            .in_member("cases"));
        }
        let case = self.cases.pop().expect("one case");
        Ok((self.id, self.comment, case))
    }
}

/// Reads every `<folder>/<prefix>*.json` directly under `dir/folder` (sorted by path) as a file
/// of `family`, with `parse` turning each envelope into the family's value; a file whose id is
/// not its name is an error naming the file.
pub fn read_family<C: DeserializeOwned, T>(
    dir: &Path,
    folder: &str,
    prefix: &str,
    family: &str,
    parse: impl Fn(Envelope<C>) -> Result<T, HarnessError>,
) -> Result<Vec<(String, T)>, HarnessError> {
    let mut out = Vec::new();
    let files = crate::vector_files::list_files(dir)
        .map_err(|e| HarnessError::new(ErrorKind::Io, e.to_string()))?;
    for rel in files {
        let Some(name) = rel
            .strip_prefix(folder)
            .and_then(|r| r.strip_prefix('/'))
            .filter(|r| !r.contains('/') && r.starts_with(prefix) && r.ends_with(".json"))
        else {
            continue;
        };
        let text = crate::input::read_text_in_folder(dir, &rel)?;
        let envelope: Envelope<C> = Envelope::parse(&text, family).map_err(|e| e.at_path(&rel))?;
        if format!("{}.json", envelope.id) != name {
            return Err(
                HarnessError::new(ErrorKind::Schema, format!("holds id {}", envelope.id))
                    .at_path(&rel),
            );
        }
        check_maps(&text).map_err(|e| e.at_path(&rel))?;
        let id = envelope.id.clone();
        out.push((id, parse(envelope).map_err(|e| e.at_path(&rel))?));
    }
    Ok(out)
}

/// The most cells a map of a vector file may have: `Grid::new` rejects more ([GRID.SQUARE.SIZE]).
pub const MAX_MAP_CELLS: u64 = 1 << 26;

/// [CONF.VEC.MAPS] Whether a map of `area` cells is a size `new` rejects (0, or past
/// [`MAX_MAP_CELLS`]), so that the map travels with no cells.
pub fn size_rejected(area: u128) -> bool {
    area == 0 || area > u128::from(MAX_MAP_CELLS)
}

/// [CONF.VEC.MAPS] Every map object of a vector file (an object with a `cells` string and
/// `width` and `height`, or a three-integer `size`, at any depth) has lowercase-hex cells of exactly `width * height` bytes, or
/// no cells when `width * height` is 0 or past [`MAX_MAP_CELLS`] (a size `new` rejects). Checked
/// when the file is read, before any oracle or adapter sizes a buffer from the map; the error
/// names the member (`cases[0].request.grid.map.cells`).
pub fn check_maps(text: &str) -> Result<(), HarnessError> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| HarnessError::json(&e))?;
    check_maps_in(&value, &mut String::new())
}

/// The sides of a map object: `width` and `height` (grids, hex grids) or the three integers of
/// `size` (voxel grids); none when the object is not a map.
fn map_sides(m: &serde_json::Map<String, serde_json::Value>) -> Option<Vec<u64>> {
    if let (Some(w), Some(h)) = (m.get("width"), m.get("height")) {
        return Some(vec![w.as_u64()?, h.as_u64()?]);
    }
    let size = m.get("size")?.as_array()?;
    (size.len() == 3)
        .then(|| size.iter().map(|s| s.as_u64()).collect())
        .flatten()
}

fn check_maps_in(v: &serde_json::Value, at: &mut String) -> Result<(), HarnessError> {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            if let Some((sides, Value::String(cells))) = map_sides(m).zip(m.get("cells")) {
                let area = sides
                    .iter()
                    .fold(1u128, |a, &s| a.saturating_mul(u128::from(s)));
                let shape = sides
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(" x ");
                let bytes = cells.len() / 2;
                let rejected = size_rejected(area);
                let bad = if cells.len() % 2 != 0 {
                    Some(format!("{} hex digits (an odd count)", cells.len()))
                } else if rejected && bytes != 0 {
                    Some(format!(
                        "{bytes} bytes for a {shape} map, which `new` rejects (0 or more than 2^26 cells): expected none"
                    ))
                } else if !rejected && bytes as u128 != area {
                    Some(format!("{bytes} bytes for a {shape} map, expected {area}"))
                } else {
                    None
                };
                if let Some(what) = bad {
                    let member = format!("{at}.cells");
                    return Err(HarnessError::new(ErrorKind::Schema, what)
                        .in_member(member.trim_start_matches('.')));
                }
            }
            for (k, x) in m {
                let len = at.len();
                at.push('.');
                at.push_str(k);
                check_maps_in(x, at)?;
                at.truncate(len);
            }
            Ok(())
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                check_maps_in(x, at)?;
                at.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
