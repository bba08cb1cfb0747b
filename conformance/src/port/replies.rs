//! The reply side of driver protocol version 2 ([DRIVER.MSG.REPLY], [DRIVER.OP.*]): the reply
//! line's envelope and one payload type per op for its `ok` member, read strictly
//! ([DRIVER.MSG.STRICT]). The request side is `messages.rs`.

use super::messages::required;
use super::wire::{Dec, Hex, HexOutcome, Real};
use schemars::JsonSchema;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

/// A payload that is either an answer or, when the object has member `$key`, its failure form.
/// Decoded by that member so that an error names the form the driver meant.
macro_rules! keyed_either {
    ($(#[$doc:meta])* $name:ident, $key:literal, $plain:ident($plain_ty:ty), $keyed:ident($keyed_ty:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
        #[serde(untagged)]
        pub enum $name {
            /// The answer.
            $plain($plain_ty),
            /// The failure form.
            $keyed($keyed_ty),
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                // Raw text, not a generic tree ([DRIVER.PROC.CAP]).
                let v = <Box<serde_json::value::RawValue>>::deserialize(d)?;
                if crate::raw_json::has_member(&v, $key) {
                    crate::raw_json::decode(&v).map($name::$keyed).map_err(D::Error::custom)
                } else {
                    crate::raw_json::decode(&v).map($name::$plain).map_err(D::Error::custom)
                }
            }
        }
    };
}

/// `run_case` ok: one outcome list per variant, one outcome per query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCaseReply {
    /// Outcomes.
    pub outcomes: Vec<Vec<HexOutcome>>,
}

/// `run_sliced` ok.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutcomeReply {
    /// The outcome.
    pub outcome: HexOutcome,
}

/// A build failure: class and index (or null).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FailureArg {
    /// Error class.
    pub class: String,
    /// Index named by the error, or null.
    #[serde(deserialize_with = "required")]
    pub index: Option<u64>,
}

/// `{"failure": {class, index}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BuildFailed {
    /// The failure.
    pub failure: FailureArg,
}

/// `{"failure": class}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassFailed {
    /// The error class.
    pub failure: String,
}

/// Built links.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinksBuilt {
    /// [CONF.ENC.LINKS] as hex.
    pub edges: Hex,
    /// `link_valid(a, b)` calls in order.
    pub calls: Vec<(u32, u32)>,
}

keyed_either!(
    /// `build_links` ok.
    LinksReply, "failure", Built(LinksBuilt), Failed(BuildFailed)
);

/// One hook call ([CONF.IMPL.HOOK_LOG]): `["edge_cost",from,to,REAL]`, `["blocked",node]` or
/// `["heuristic",from,to]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HookCallArg {
    /// `edge_cost(from, to, weight)`.
    EdgeCost(u32, u32, Real),
    /// `blocked(node)`.
    Blocked(u32),
    /// `heuristic(from, to)`.
    Heuristic(u32, u32),
}

impl Serialize for HookCallArg {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match *self {
            HookCallArg::EdgeCost(a, b, w) => ("edge_cost", a, b, w).serialize(s),
            HookCallArg::Blocked(n) => ("blocked", n).serialize(s),
            HookCallArg::Heuristic(a, b) => ("heuristic", a, b).serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for HookCallArg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Raw text, not a generic tree ([DRIVER.PROC.CAP]).
        let v = <Box<serde_json::value::RawValue>>::deserialize(d)?;
        let name = crate::raw_json::first_string(&v).unwrap_or_default();
        let r = match name.as_str() {
            "edge_cost" => crate::raw_json::decode::<(String, u32, u32, Real)>(&v)
                .map(|(_, a, b, w)| HookCallArg::EdgeCost(a, b, w)),
            "blocked" => {
                crate::raw_json::decode::<(String, u32)>(&v).map(|(_, n)| HookCallArg::Blocked(n))
            }
            "heuristic" => crate::raw_json::decode::<(String, u32, u32)>(&v)
                .map(|(_, a, b)| HookCallArg::Heuristic(a, b)),
            other => {
                return Err(D::Error::custom(format!(
                "a hook call starts with \"edge_cost\", \"blocked\" or \"heuristic\", found {:?}",
                other.chars().take(40).collect::<String>()
            )))
            }
        };
        r.map_err(D::Error::custom)
    }
}

impl JsonSchema for HookCallArg {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HookCall".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let real = g.subschema_for::<Real>();
        schemars::json_schema!({
            "oneOf": [
                {"type": "array", "prefixItems": [{"const": "edge_cost"}, {"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 0}, real], "items": false, "minItems": 4},
                {"type": "array", "prefixItems": [{"const": "blocked"}, {"type": "integer", "minimum": 0}], "items": false, "minItems": 2},
                {"type": "array", "prefixItems": [{"const": "heuristic"}, {"type": "integer", "minimum": 0}, {"type": "integer", "minimum": 0}], "items": false, "minItems": 3}
            ]
        })
    }
}

/// `run_hooked` ok.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HookedReply {
    /// The outcome.
    pub outcome: HexOutcome,
    /// Every hook call, in call order.
    pub calls: Vec<HookCallArg>,
}

/// A cancel trace ([CONF.IMPL.CANCEL]): `[status, iterations]` pairs and the resumed outcome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CancelTraceArg {
    /// After `begin` (and the optional `step`).
    pub before: (u8, u64),
    /// After the first cancelled `run`.
    pub cancelled: (u8, u64),
    /// After the second.
    pub cancelled_again: (u8, u64),
    /// After resuming.
    pub resumed: HexOutcome,
}

keyed_either!(
    /// `run_cancelled` ok.
    CancelReply, "failure", Trace(CancelTraceArg), Failed(ClassFailed)
);

/// `{"value": DEC}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpValue {
    /// The operation's value.
    pub value: Dec,
}

keyed_either!(
    /// One `run_ops` result.
    OpResult, "failure", Value(OpValue), Failed(BuildFailed)
);

/// `run_ops` ok.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpsReply {
    /// One result per operation.
    pub results: Vec<OpResult>,
}

/// `{"oplm": HEX}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OplmBytes {
    /// OPLM bytes.
    pub oplm: Hex,
}

keyed_either!(
    /// `build_landmarks` ok.
    OplmReply, "failure", Built(OplmBytes), Failed(ClassFailed)
);

/// `{"bounds": [REAL...]}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    /// One bound per pair.
    pub bounds: Vec<Real>,
}

keyed_either!(
    /// `lower_bounds` ok.
    BoundsReply, "failure", Bounds(Bounds), Failed(ClassFailed)
);

/// A rejection: class and byte offset.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rejection {
    /// Error class.
    pub class: String,
    /// Byte offset.
    pub offset: u64,
}

/// `{"rejected": {class, offset}}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rejected {
    /// The rejection.
    pub rejected: Rejection,
}

keyed_either!(
    /// `deserialize_oplm` ok.
    DeserializeReply, "rejected", Accepted(OplmBytes), Rejected(Rejected)
);

/// `true`, and nothing else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct True(pub bool);

impl JsonSchema for True {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "True".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"const": true})
    }
}

impl<'de> Deserialize<'de> for True {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match bool::deserialize(d)? {
            true => Ok(True(true)),
            false => Err(D::Error::custom("expected true")),
        }
    }
}

/// `{"ok": true}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RestoredOk {
    /// `true`.
    pub ok: True,
}

keyed_either!(
    /// A restore result: accepted, or rejected with class and offset.
    RestoreArg, "ok", Rejected(Rejection), Accepted(RestoredOk)
);

/// A search at the end of a state request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArg {
    /// Status code 0-3.
    pub status: u8,
    /// `iterations()`.
    pub iterations: u64,
    /// `expanded_count()`.
    pub expanded: u64,
    /// `path_cost()`.
    pub cost_bits: Real,
    /// `path()`.
    pub path: Vec<u32>,
    /// `expansions()`.
    pub expansions: Vec<u32>,
}

/// `state_run` ok.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StateRunReply {
    /// Saved right after building (empty for `from_state`).
    pub before: Hex,
    /// The restore result, or null when nothing was restored.
    #[serde(deserialize_with = "required")]
    pub restore: Option<RestoreArg>,
    /// Saved at the end.
    pub after: Hex,
    /// Listener calls `[index, old, new]`.
    pub cells: Vec<(u32, u8, u8)>,
    /// The search, or null.
    #[serde(deserialize_with = "required")]
    pub search: Option<SearchArg>,
}

/// A grid reply ([CONF.GRID.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GridReplyArg {
    /// Status.
    pub status: u8,
    /// Engine mode.
    pub mode: u8,
    /// Mode-3 finder.
    pub finder: u8,
    /// The algorithm that ran.
    pub algorithm: u8,
    /// Path cost.
    pub cost_bits: Real,
    /// Path cells.
    pub path: Vec<u32>,
    /// Tier 1: world points `[x, y]`.
    pub points: Vec<(Real, Real)>,
    /// Recorded expansions.
    pub expansions: Vec<u32>,
    /// Iterations.
    pub iterations: u64,
    /// Expanded count.
    pub expanded: u64,
    /// Tier 2: `save_state()` at the end.
    pub state: Hex,
    /// The snapshot's search bytes.
    pub snapshot: Hex,
    /// The restored search saved again.
    pub resaved: Hex,
}

keyed_either!(
    /// `run_grid` ok: a reply, or the class of the error `new`/`begin` gave.
    GridRunReply, "failure", Reply(GridReplyArg), Failed(ClassFailed)
);

/// One reply line's envelope ([DRIVER.MSG.REPLY]); the `ok` payload is the op's reply type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged, deny_unknown_fields)]
pub enum ReplyLine {
    /// `{"id":N,"ok":{...}}`.
    Ok {
        /// The request's id.
        id: u64,
        /// The op's payload.
        ok: serde_json::Map<String, serde_json::Value>,
    },
    /// `{"id":N,"unimplemented":true}`.
    Unimplemented {
        /// The request's id.
        id: u64,
        /// `true`.
        unimplemented: True,
    },
    /// `{"id":N,"error":"message"}`.
    Error {
        /// The request's id.
        id: u64,
        /// The driver's message.
        error: String,
    },
}
