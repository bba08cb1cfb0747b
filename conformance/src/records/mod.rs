//! Query records ([RECORD.*], spec/records.md): one complete query of any family, the world it
//! was made against named by hash, in two transports (JSON and binary) that read strictly and
//! never fill a missing member; running a record on a world ([`run`]); the kit's vectors as
//! records ([`cases`]); the hostile cases and vector files ([`hostile`], [`vectors`]).

pub mod binary;
pub mod cases;
mod convert;
pub mod error;
pub mod hostile;
pub mod json;
pub mod run;
pub mod schema;
pub mod vectors;

pub use convert::{
    FlowQuery, GraphQuery, GridQuery, HpaRecordQuery, PlaneQuery, RecordLandmarks, RecordQuery,
    ReplanQuery, VoxelQuery,
};
pub use error::{RecordError, RecordErrorClass, RecordPlace};

use error::RecordErrorClass as C;
use schema::{Member, Ty, Val, FAMILIES};

/// The record schema's name ([RECORD.SCHEMA]).
pub const RECORD_SCHEMA: &str = "onepath.query";
/// The only version.
pub const RECORD_VERSION: u64 = 1;
/// [RECORD.JSON.LIMIT] [RECORD.BIN.LIMIT] The longest record either transport reads.
pub const MAX_RECORD_BYTES: usize = 1 << 20;
/// [RECORD.BIN.LAYOUT] The binary magic, `OPQR`.
pub const RECORD_MAGIC: u32 = 0x5251_504F;
/// The bytes before the world in the binary form: magic, version, family.
pub const BINARY_HEADER: usize = 7;

/// [RECORD.WORLD] The world a record was made against.
#[derive(Clone, Debug, PartialEq)]
pub enum WorldBinding {
    /// A square (kind 1), hex (2) or voxel (3) grid.
    Grid {
        /// The grid's state kind.
        kind: u8,
        /// SHA-256 of its `save_state()` bytes.
        state_sha256: [u8; 32],
        /// Its `area_version()`.
        area_version: i32,
    },
    /// A graph (kind 4).
    Graph {
        /// [GRAPH.CSR.FINGERPRINT] of its compiled CSR.
        fingerprint: u64,
        /// Its node count.
        node_count: u32,
        /// SHA-256 of its positions, when it has them.
        positions_sha256: Option<[u8; 32]>,
    },
}

impl WorldBinding {
    /// The world kind (1-4).
    pub fn kind(&self) -> u8 {
        match self {
            WorldBinding::Grid { kind, .. } => *kind,
            WorldBinding::Graph { .. } => 4,
        }
    }

    fn to_val(&self) -> Vec<Val> {
        match self {
            WorldBinding::Grid {
                state_sha256,
                area_version,
                ..
            } => vec![Val::Sha(*state_sha256), Val::I(*area_version as i64)],
            WorldBinding::Graph {
                fingerprint,
                node_count,
                positions_sha256,
            } => vec![
                Val::U(*fingerprint),
                Val::U(*node_count as u64),
                Val::Opt(positions_sha256.map(|s| Box::new(Val::Sha(s)))),
            ],
        }
    }

    fn from_val(kind: u8, vals: &[Val]) -> Option<WorldBinding> {
        match (kind, vals) {
            (4, [Val::U(f), Val::U(n), Val::Opt(p)]) => Some(WorldBinding::Graph {
                fingerprint: *f,
                node_count: *n as u32,
                positions_sha256: match p {
                    None => None,
                    Some(b) => match **b {
                        Val::Sha(s) => Some(s),
                        _ => return None,
                    },
                },
            }),
            (1..=3, [Val::Sha(s), Val::I(a)]) => Some(WorldBinding::Grid {
                kind,
                state_sha256: *s,
                area_version: *a as i32,
            }),
            _ => None,
        }
    }
}

/// One query record ([RECORD.MODEL]); `family` is the query's.
#[derive(Clone, Debug, PartialEq)]
pub struct QueryRecord {
    /// The world it was made against.
    pub world: WorldBinding,
    /// The query.
    pub query: RecordQuery,
}

static KIND: Member = Member {
    name: "kind",
    ty: Ty::U8,
};

impl QueryRecord {
    /// The family's name.
    pub fn family(&self) -> &'static str {
        FAMILIES[self.query.code()]
    }

    /// [RECORD.JSON.WRITE] The canonical JSON text.
    pub fn to_json(&self) -> String {
        let code = self.query.code();
        let mut out = format!(
            "{{\"schema\":\"{RECORD_SCHEMA}\",\"version\":{RECORD_VERSION},\"family\":\"{}\",\"world\":{{\"kind\":{}",
            FAMILIES[code],
            self.world.kind()
        );
        let world = schema::world(self.world.kind() as u64);
        let mut inner = String::new();
        json::write_members(&mut inner, world, &self.world.to_val());
        // `inner` is `{...}`: splice its members after `kind`.
        if inner.len() > 2 {
            out.push(',');
            out.push_str(&inner[1..inner.len() - 1]);
        }
        out.push_str("},\"query\":");
        json::write_members(&mut out, schema::body(code), &self.query.to_val());
        out.push('}');
        out
    }

    /// [RECORD.BIN.LAYOUT] The binary form.
    pub fn to_binary(&self) -> Vec<u8> {
        let code = self.query.code();
        let mut out = RECORD_MAGIC.to_le_bytes().to_vec();
        out.extend_from_slice(&(RECORD_VERSION as u16).to_le_bytes());
        out.push(code as u8);
        out.push(self.world.kind());
        binary::write_members(
            &mut out,
            schema::world(self.world.kind() as u64),
            &self.world.to_val(),
        );
        binary::write_members(&mut out, schema::body(code), &self.query.to_val());
        out
    }

    /// [RECORD.JSON.READ] Reads a JSON record.
    pub fn from_json(text: &str) -> Result<QueryRecord, RecordError> {
        let root = json::parse(text)?;
        let json::Json::Obj(members) = &root else {
            return Err(RecordError::at_path(
                C::WrongType,
                "",
                "expected an object at the root",
            ));
        };
        let get = |name: &str| -> Result<&json::Json, RecordError> {
            members
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v)
                .ok_or_else(|| {
                    RecordError::at_path(C::MissingField, name, "expected the member, found none")
                })
        };
        let string = |name: &str| -> Result<&str, RecordError> {
            match get(name)? {
                json::Json::Str(s) => Ok(s.as_str()),
                other => Err(json::read(other, &Ty::Name(&[]), name)
                    .err()
                    .unwrap_or_else(|| RecordError::at_path(C::WrongType, name, ""))),
            }
        };
        let schema_name = string("schema")?;
        if schema_name != RECORD_SCHEMA {
            return Err(RecordError::at_path(
                C::UnknownSchema,
                "schema",
                format!("expected \"{RECORD_SCHEMA}\", found \"{schema_name}\""),
            ));
        }
        match get("version")? {
            json::Json::UInt(RECORD_VERSION) => {}
            json::Json::UInt(v) => {
                return Err(RecordError::at_path(
                    C::UnsupportedVersion,
                    "version",
                    format!("expected {RECORD_VERSION}, found {v}"),
                ))
            }
            json::Json::NegInt(v) => {
                return Err(RecordError::at_path(
                    C::UnsupportedVersion,
                    "version",
                    format!("expected {RECORD_VERSION}, found {v}"),
                ))
            }
            other => {
                return Err(json::read(other, &Ty::U64, "version")
                    .err()
                    .unwrap_or_else(|| RecordError::at_path(C::WrongType, "version", "")))
            }
        }
        let family = string("family")?;
        let code = FAMILIES.iter().position(|f| *f == family).ok_or_else(|| {
            RecordError::at_path(
                C::UnknownFamily,
                "family",
                format!(
                    "expected one of {}, found \"{family}\"",
                    FAMILIES.join(", ")
                ),
            )
        })?;
        let world = match get("world")? {
            json::Json::Obj(w) => {
                let kind_json = w.iter().find(|(k, _)| k == "kind").map(|(_, v)| v);
                let Some(kind_json) = kind_json else {
                    return Err(RecordError::at_path(
                        C::MissingField,
                        "world.kind",
                        "expected the member, found none",
                    ));
                };
                let kind = match json::read(kind_json, &Ty::U8, "world.kind")? {
                    Val::U(k @ 1..=4) => k,
                    Val::U(k) => {
                        return Err(RecordError::at_path(
                            C::BadValue,
                            "world.kind",
                            format!("expected 1, 2, 3 or 4, found {k}"),
                        ))
                    }
                    _ => 0,
                };
                let rest = schema::world(kind);
                let mut vals = Vec::new();
                for m in rest {
                    let p = format!("world.{}", m.name);
                    match w.iter().find(|(k, _)| k == m.name) {
                        Some((_, v)) => vals.push(json::read(v, &m.ty, &p)?),
                        None => {
                            return Err(RecordError::at_path(
                                C::MissingField,
                                &p,
                                "expected the member, found none",
                            ))
                        }
                    }
                }
                json::unknown_after(w, &[std::slice::from_ref(&KIND), rest], "world")?;
                WorldBinding::from_val(kind as u8, &vals).ok_or_else(internal)?
            }
            other => return Err(json::read(other, &Ty::Obj(&[]), "world").unwrap_err_or()),
        };
        let query = match get("query")? {
            json::Json::Obj(q) => json::read_members(q, schema::body(code), "query")?,
            other => return Err(json::read(other, &Ty::Obj(&[]), "query").unwrap_err_or()),
        };
        static ROOT: [Member; 5] = [
            Member {
                name: "schema",
                ty: Ty::U8,
            },
            Member {
                name: "version",
                ty: Ty::U8,
            },
            Member {
                name: "family",
                ty: Ty::U8,
            },
            Member {
                name: "world",
                ty: Ty::U8,
            },
            Member {
                name: "query",
                ty: Ty::U8,
            },
        ];
        json::unknown_after(members, &[&ROOT], "")?;
        let query = RecordQuery::from_val(code, &query).ok_or_else(internal)?;
        let record = QueryRecord { world, query };
        record
            .semantic()
            .map_err(|(class, path, detail)| RecordError::at_path(class, path, detail))?;
        Ok(record)
    }

    /// [RECORD.BIN.READ] Reads a binary record.
    pub fn from_binary(bytes: &[u8]) -> Result<QueryRecord, RecordError> {
        if bytes.len() > MAX_RECORD_BYTES {
            return Err(RecordError::at_byte(
                C::TooLarge,
                MAX_RECORD_BYTES,
                "",
                format!(
                    "expected at most {MAX_RECORD_BYTES} bytes, found {}",
                    bytes.len()
                ),
            ));
        }
        let mut r = binary::Reader::new(bytes);
        if r.u32("magic")? != RECORD_MAGIC {
            return Err(RecordError::at_byte(
                C::BadMagic,
                0,
                "magic",
                format!("expected 4f505152, found {}", hex::encode(&bytes[..4])),
            ));
        }
        let version = r.u16("version")?;
        if version as u64 != RECORD_VERSION {
            return Err(RecordError::at_byte(
                C::UnsupportedVersion,
                4,
                "version",
                format!("expected {RECORD_VERSION}, found {version}"),
            ));
        }
        let code = r.u8("family")? as usize;
        if code >= FAMILIES.len() {
            return Err(RecordError::at_byte(
                C::UnknownFamily,
                6,
                "family",
                format!("expected a code below {}, found {code}", FAMILIES.len()),
            ));
        }
        let kind = r.u8("world.kind")?;
        if !(1..=4).contains(&kind) {
            return Err(RecordError::at_byte(
                C::BadValue,
                BINARY_HEADER,
                "world.kind",
                format!("expected 1, 2, 3 or 4, found {kind}"),
            ));
        }
        let world_vals = binary::read_members(&mut r, schema::world(kind as u64), "world")?;
        let world = WorldBinding::from_val(kind, &world_vals).ok_or_else(internal)?;
        let body = binary::read_members(&mut r, schema::body(code), "query")?;
        if r.left() > 0 {
            return Err(RecordError::at_byte(
                C::TrailingBytes,
                r.pos(),
                "",
                format!("expected the end, found {} more bytes", r.left()),
            ));
        }
        let query = RecordQuery::from_val(code, &body).ok_or_else(internal)?;
        let record = QueryRecord { world, query };
        record.semantic().map_err(|(class, path, detail)| {
            let offset = record.binary_offset(path);
            RecordError::at_byte(class, offset, path, detail)
        })?;
        Ok(record)
    }

    /// [RECORD.WORLD.FAMILY] [RECORD.BODY.GRAPH] The checks made after a whole record was read.
    fn semantic(&self) -> Result<(), (RecordErrorClass, &'static str, String)> {
        let kind = self.world.kind();
        let allowed: &[u8] = match self.query {
            RecordQuery::Graph(_) => &[4],
            RecordQuery::Hex(_) => &[2],
            RecordQuery::Voxel(_) => &[3],
            RecordQuery::Replanning(_) | RecordQuery::FlowField(_) => &[1, 2],
            _ => &[1],
        };
        if !allowed.contains(&kind) {
            return Err((
                C::BadValue,
                "world.kind",
                format!(
                    "expected a world of kind {:?} for family {}, found {kind}",
                    allowed,
                    self.family()
                ),
            ));
        }
        if let RecordQuery::Graph(g) = &self.query {
            if g.landmarks.is_some() != g.variant.uses_alt() {
                return Err((
                    C::BadValue,
                    "query.landmarks",
                    format!(
                        "expected {} for variant {}",
                        if g.variant.uses_alt() {
                            "landmarks"
                        } else {
                            "null"
                        },
                        schema::VARIANTS[g.variant as usize]
                    ),
                ));
            }
            if !g.schedule.is_empty() && g.budget != 0 {
                return Err((
                    C::BadValue,
                    "query.budget",
                    format!("expected 0 with a schedule, found {}", g.budget),
                ));
            }
            if !g.schedule.is_empty() && !g.record {
                return Err((
                    C::BadValue,
                    "query.record",
                    "expected true with a schedule, found false".to_string(),
                ));
            }
        }
        Ok(())
    }

    /// The binary offset of `path` (`world.kind` or a body member) in this record's binary form.
    fn binary_offset(&self, path: &str) -> usize {
        if path == "world.kind" {
            return BINARY_HEADER;
        }
        let mut out = Vec::new();
        binary::write_members(
            &mut out,
            schema::world(self.world.kind() as u64),
            &self.world.to_val(),
        );
        let mut offset = BINARY_HEADER + 1 + out.len();
        let name = path.strip_prefix("query.").unwrap_or(path);
        for (m, v) in schema::body(self.query.code())
            .iter()
            .zip(self.query.to_val())
        {
            if m.name == name {
                break;
            }
            let mut b = Vec::new();
            binary::write(&mut b, &v, &m.ty);
            offset += b.len();
        }
        offset
    }
}

fn internal() -> RecordError {
    RecordError::at_path(
        C::BadValue,
        "",
        "internal: a value that passed its table did not convert",
    )
}

trait ErrOr {
    fn unwrap_err_or(self) -> RecordError;
}

impl ErrOr for Result<Val, RecordError> {
    fn unwrap_err_or(self) -> RecordError {
        match self {
            Err(e) => e,
            Ok(_) => internal(),
        }
    }
}
