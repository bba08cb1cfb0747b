//! The record's members as data ([RECORD.BODY], [RECORD.WORLD]): one table of names and types
//! per object, read and written by both transports (`json.rs`, `binary.rs`) and walked by the
//! hostile-case generator, so the three can never disagree about a member.

/// The type of one value ([RECORD.BODY]'s type list).
#[derive(Debug)]
pub enum Ty {
    /// `u8`.
    U8,
    /// `u32`.
    U32,
    /// `u64`.
    U64,
    /// `i32`.
    I32,
    /// `f64` (finite).
    F64,
    /// `bool`.
    Bool,
    /// A SHA-256: 64 lowercase hex digits, or 32 bytes.
    Sha256,
    /// A u64 fingerprint: 16 lowercase hex digits, or a `u64`.
    Fingerprint,
    /// One of the names (binary: its position, a `u8`).
    Name(&'static [&'static str]),
    /// The value or null (binary: a flag, then the value).
    Opt(&'static Ty),
    /// A list (binary: a `u32` count, then the items).
    List(&'static Ty),
    /// A fixed number of `u32` (`xy`, `xyz`): a JSON array, or the values in order.
    Coords(usize),
    /// An object with these members, in order.
    Obj(&'static [Member]),
    /// An object with exactly one of these members (binary: a `u8` tag, then its value).
    OneOf(&'static [Member]),
}

/// One member of an object.
#[derive(Debug)]
pub struct Member {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub ty: Ty,
}

const fn m(name: &'static str, ty: Ty) -> Member {
    Member { name, ty }
}

/// A value read by either transport, shaped by its [`Ty`].
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// `U8`, `U32`, `U64`, `Fingerprint`.
    U(u64),
    /// `I32`.
    I(i64),
    /// `F64`.
    F(f64),
    /// `Bool`.
    B(bool),
    /// `Sha256`.
    Sha([u8; 32]),
    /// `Name`: the position.
    Name(usize),
    /// `Opt`.
    Opt(Option<Box<Val>>),
    /// `List`, `Coords`.
    List(Vec<Val>),
    /// `Obj`: the members in order.
    Obj(Vec<Val>),
    /// `OneOf`: which member, and its value.
    OneOf(usize, Box<Val>),
}

/// The families of [RECORD.FAMILIES], by code.
pub const FAMILIES: [&str; 8] = [
    "graph",
    "grid-search",
    "replanning",
    "flow-field",
    "hex-search",
    "voxel-search",
    "hpa",
    "grid-bidi",
];

/// The world of a grid (kinds 1-3) after `kind` ([RECORD.WORLD]).
pub static GRID_WORLD: [Member; 2] = [m("state_sha256", Ty::Sha256), m("area_version", Ty::I32)];
/// The world of a graph (kind 4) after `kind`.
pub static GRAPH_WORLD: [Member; 3] = [
    m("fingerprint", Ty::Fingerprint),
    m("node_count", Ty::U32),
    m("positions_sha256", Ty::Opt(&Ty::Sha256)),
];

static EXTRA_WHERE: [Member; 2] = [m("modulus", Ty::U32), m("extra", Ty::F64)];
static INVALID_WHERE: [Member; 1] = [m("modulus", Ty::U32)];
static COST_RULE: [Member; 2] = [
    m("extra_where", Ty::Obj(&EXTRA_WHERE)),
    m("invalid_where", Ty::Obj(&INVALID_WHERE)),
];
static BLOCK_RULE: [Member; 2] = [m("modulus", Ty::U32), m("residue", Ty::U32)];

/// Grid options ([RECORD.BODY]).
pub static GRID_OPTIONS: [Member; 9] = [
    m("agent_size", Ty::U32),
    m("connectivity", Ty::U8),
    m("diagonal", Ty::U8),
    m("algorithm", Ty::U8),
    m("cell_cost", Ty::Opt(&Ty::OneOf(&COST_RULE))),
    m("blocked", Ty::Opt(&Ty::Obj(&BLOCK_RULE))),
    m("weight", Ty::F64),
    m("record", Ty::Bool),
    m("budget", Ty::U64),
];
/// Voxel options.
pub static VOXEL_OPTIONS: [Member; 8] = [
    m("connectivity", Ty::U8),
    m("diagonal", Ty::U8),
    m("algorithm", Ty::U8),
    m("cell_cost", Ty::Opt(&Ty::OneOf(&COST_RULE))),
    m("blocked", Ty::Opt(&Ty::Obj(&BLOCK_RULE))),
    m("weight", Ty::F64),
    m("record", Ty::Bool),
    m("budget", Ty::U64),
];
/// HPA options.
pub static HPA_OPTIONS: [Member; 7] = [
    m("chunk_size", Ty::U32),
    m("connectivity", Ty::U8),
    m("diagonal", Ty::U8),
    m("weight", Ty::F64),
    m("smooth", Ty::Bool),
    m("record", Ty::Bool),
    m("budget", Ty::U64),
];

/// The graph variants, in [CONF.VAR.LIST] column order.
pub const VARIANTS: [&str; 8] = [
    "dijkstra",
    "astar_alt",
    "astar_geo",
    "astar_both",
    "bidi_dijkstra",
    "bidi_alt",
    "bidi_geo",
    "bidi_both",
];
/// The grid-search APIs.
pub const APIS: [&str; 5] = ["tier1", "handle", "astar", "jump", "theta"];
/// The replanner modes.
pub const MODES: [&str; 2] = ["lpa", "d_star_lite"];
/// The landmark strategies.
pub const STRATEGIES: [&str; 2] = ["avoid", "farthest"];

static LANDMARKS: [Member; 4] = [
    m("count", Ty::U32),
    m("strategy", Ty::Name(&STRATEGIES)),
    m("seed", Ty::U64),
    m("graph_fingerprint", Ty::Fingerprint),
];
static XY: Ty = Ty::Coords(2);

static GRAPH_BODY: [Member; 7] = [
    m("variant", Ty::Name(&VARIANTS)),
    m("start", Ty::U32),
    m("goal", Ty::U32),
    m("budget", Ty::U64),
    m("record", Ty::Bool),
    m("schedule", Ty::List(&Ty::U64)),
    m("landmarks", Ty::Opt(&Ty::Obj(&LANDMARKS))),
];
static GRID_BODY: [Member; 6] = [
    m("api", Ty::Name(&APIS)),
    m("options", Ty::Obj(&GRID_OPTIONS)),
    m("start", Ty::Coords(2)),
    m("goal", Ty::Coords(2)),
    m("schedule", Ty::List(&Ty::U64)),
    m("snapshot_after", Ty::Opt(&Ty::U32)),
];
static REPLAN_BODY: [Member; 5] = [
    m("options", Ty::Obj(&GRID_OPTIONS)),
    m("mode", Ty::Name(&MODES)),
    m("start", Ty::Coords(2)),
    m("goal", Ty::Coords(2)),
    m("budget", Ty::U64),
];
static FLOW_BODY: [Member; 3] = [
    m("options", Ty::Obj(&GRID_OPTIONS)),
    m("goals", Ty::List(&XY)),
    m("budget", Ty::U64),
];
static HEX_BODY: [Member; 4] = [
    m("options", Ty::Obj(&GRID_OPTIONS)),
    m("start", Ty::Coords(2)),
    m("goal", Ty::Coords(2)),
    m("schedule", Ty::List(&Ty::U64)),
];
static VOXEL_BODY: [Member; 4] = [
    m("options", Ty::Obj(&VOXEL_OPTIONS)),
    m("start", Ty::Coords(3)),
    m("goal", Ty::Coords(3)),
    m("schedule", Ty::List(&Ty::U64)),
];
static HPA_BODY: [Member; 4] = [
    m("options", Ty::Obj(&HPA_OPTIONS)),
    m("start", Ty::Coords(2)),
    m("goal", Ty::Coords(2)),
    m("schedule", Ty::List(&Ty::U64)),
];

/// The body members of family `code` ([RECORD.BODY]; grid-bidi has hex-search's shape).
pub fn body(code: usize) -> &'static [Member] {
    match code {
        0 => &GRAPH_BODY,
        1 => &GRID_BODY,
        2 => &REPLAN_BODY,
        3 => &FLOW_BODY,
        5 => &VOXEL_BODY,
        6 => &HPA_BODY,
        _ => &HEX_BODY,
    }
}

/// The world members after `kind` for world kind `kind` (1-4).
pub fn world(kind: u64) -> &'static [Member] {
    if kind == 4 {
        &GRAPH_WORLD
    } else {
        &GRID_WORLD
    }
}

/// The smallest number of binary bytes one value of `ty` takes ([RECORD.BIN.READ]'s bound).
pub fn min_bytes(ty: &Ty) -> usize {
    match ty {
        Ty::U8 | Ty::Bool | Ty::Name(_) | Ty::Opt(_) => 1,
        Ty::U32 | Ty::I32 | Ty::List(_) => 4,
        Ty::U64 | Ty::F64 | Ty::Fingerprint => 8,
        Ty::Sha256 => 32,
        Ty::Coords(n) => 4 * n,
        Ty::Obj(ms) => ms.iter().map(|m| min_bytes(&m.ty)).sum(),
        Ty::OneOf(ms) => 1 + ms.iter().map(|m| min_bytes(&m.ty)).min().unwrap_or(0),
    }
}
