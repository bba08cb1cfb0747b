//! The bidirectional grid-search level ([DRIVER.LEVEL.FAMILY]): which level a difference between
//! two `run_bidi` replies breaks.

use super::{lattice_break, Break, Level};
use crate::bidi::{meeting_difference, BidiReply};

/// [DRIVER.LEVEL.FAMILY] A `run_bidi` difference: the queries as `run_lattice`'s
/// ([`lattice_break`]), else a differing meeting cell at L2. The search has no state, so nothing
/// breaks L4.
pub fn bidi_break(
    expected: &Result<BidiReply, crate::error::HarnessError>,
    found: &Result<BidiReply, crate::error::HarnessError>,
) -> Option<Break> {
    let lattice = |r: &Result<BidiReply, crate::error::HarnessError>| {
        r.as_ref().map(BidiReply::lattice).map_err(Clone::clone)
    };
    if let Some(b) = lattice_break(&lattice(expected), &lattice(found)) {
        return Some(b);
    }
    let (Ok(e), Ok(f)) = (expected, found) else {
        return None;
    };
    meeting_difference(e, f).map(|d| {
        Break::new(
            Level::L2,
            format!("query {}: {}", d.query.unwrap_or(0), d.what),
            d.expected,
            d.found,
        )
    })
}
