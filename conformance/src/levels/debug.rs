//! The level of a `describe` difference ([CONF.DEBUG.LEVEL]): the lowest level any member of
//! any entry breaks, the first such member named.

use super::{Break, Level};
use crate::debug::compare::{entry_name, lowest_difference};
use crate::debug::{DescribeReply, DescribeRequest};

/// [CONF.DEBUG.LEVEL] A `describe` difference: L1 a failure or error class, a status, `found`,
/// `initialized` or a cost; L2 the shape, sizes, algorithm, mode, ends, cells, points,
/// positions, path error, hierarchy or flow field; L3 expansions, their points or kinds,
/// counters, `pending` or `settled`. Descriptions have no bytes, so nothing breaks L4.
pub fn describe_break(
    request: &DescribeRequest,
    expected: &Result<DescribeReply, crate::error::HarnessError>,
    found: &Result<DescribeReply, crate::error::HarnessError>,
) -> Option<Break> {
    match (expected, found) {
        (Ok(e), Ok(f)) => lowest_difference(e, f).map(|d| {
            let level = match d.level {
                1 => Level::L1,
                2 => Level::L2,
                _ => Level::L3,
            };
            let what = match d.entry {
                Some(i) => format!("{}: {}", entry_name(request, i), d.what()),
                None => d.what(),
            };
            let mut b = Break::new(level, what, d.expected, d.found);
            b.step = d.index;
            b
        }),
        (a, b) if a == b => None,
        (a, b) => Some(Break::new(
            Level::L1,
            "describe result",
            super::divergence::reply_words(a),
            super::divergence::reply_words(b),
        )),
    }
}
