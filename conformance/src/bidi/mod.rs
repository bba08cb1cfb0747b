//! The bidirectional grid-search part of the kit (spec/grid-bidi.md, [CONF.BIDI.*]): a request is
//! a square grid, the search options and a list of queries (tier 1, or the sliced form with a
//! step schedule); the reply is the lattice reply of every query ([CONF.LATTICE.REPLY]) and each
//! sliced query's meeting cell. The request and reply types are their own wire form: the same
//! serde encoding travels in vectors, across the [`Implementation`](crate::Implementation) trait
//! and through the driver protocol.

pub mod adapter;
pub mod cases;
pub mod oracle;
pub mod vectors;

use crate::grid::vectors::MapFile;
use crate::grid::GridOptionsData;
use crate::lattice::{Difference, LatticeReply, Query, QueryReply};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The registry and claim family's name.
pub const FAMILY: &str = "grid-bidi";

/// A `run_bidi` request ([CONF.BIDI.REQUEST]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BidiRequest {
    /// The cells, multipliers and space, as a grid vector's map.
    pub map: MapFile,
    /// The options, as those of a grid request.
    pub options: GridOptionsData,
    /// The queries, in order (`[x, y]` ends).
    pub queries: Vec<Query>,
}

/// The replies and meeting cells ([CONF.BIDI.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BidiRan {
    /// One reply per query, as [CONF.LATTICE.REPLY].
    pub queries: Vec<QueryReply>,
    /// One entry per query: a sliced query's `meeting_cell()`, else null.
    pub meetings: Vec<Option<u32>>,
}

/// A `run_bidi` reply ([CONF.BIDI.REPLY]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum BidiReply {
    /// The class of the error a grid constructor or setter gave.
    Failed(String),
    /// The replies and meeting cells.
    Ran(BidiRan),
}

impl BidiReply {
    /// The queries' part as a lattice reply (compared, levelled and sliced by the lattice rules).
    pub fn lattice(&self) -> LatticeReply {
        match self {
            BidiReply::Failed(c) => LatticeReply::Failed(c.clone()),
            BidiReply::Ran(r) => LatticeReply::Ran(r.queries.clone()),
        }
    }
}

/// The first difference between two replies ([CONF.BIDI.REPLY]): the queries as
/// [`crate::lattice::first_difference`], then the meetings.
pub fn first_difference(expected: &BidiReply, found: &BidiReply) -> Option<Difference> {
    if let Some(d) = crate::lattice::first_difference(&expected.lattice(), &found.lattice()) {
        return Some(d);
    }
    meeting_difference(expected, found)
}

/// The first differing meeting cell (`query` set).
pub fn meeting_difference(expected: &BidiReply, found: &BidiReply) -> Option<Difference> {
    let (BidiReply::Ran(a), BidiReply::Ran(b)) = (expected, found) else {
        return None;
    };
    let n = a.meetings.len().max(b.meetings.len());
    (0..n).find_map(|i| {
        let (x, y) = (a.meetings.get(i), b.meetings.get(i));
        (x != y).then(|| {
            let show = |m: Option<&Option<u32>>| match m {
                None => "end of list".to_string(),
                Some(m) => format!("{m:?}"),
            };
            Difference {
                query: Some(i),
                what: "meeting".into(),
                expected: show(x),
                found: show(y),
            }
        })
    })
}
