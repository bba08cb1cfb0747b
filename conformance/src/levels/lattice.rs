//! The hex- and voxel-search levels ([DRIVER.LEVEL.FAMILY]): which level a difference between
//! two `run_lattice` replies breaks.

use super::{Break, Level};
use crate::lattice::{query_difference, LatticeReply, QueryReply};

/// [DRIVER.LEVEL.FAMILY] A `run_lattice` difference, judged at the lowest level any query breaks
/// (the first such query named): a grid error, or a query's error class, status or cost breaks
/// L1; its algorithm, cells or points L2; its expansions or counters L3. The families have no
/// state, so nothing breaks L4.
pub fn lattice_break(
    expected: &Result<LatticeReply, crate::error::HarnessError>,
    found: &Result<LatticeReply, crate::error::HarnessError>,
) -> Option<Break> {
    let (a, b) = match (expected, found) {
        (Ok(LatticeReply::Ran(a)), Ok(LatticeReply::Ran(b))) if a.len() == b.len() => (a, b),
        (a, b) if a == b => return None,
        (a, b) => {
            return Some(Break::new(
                Level::L1,
                "lattice result",
                super::divergence::reply_words(a),
                super::divergence::reply_words(b),
            ))
        }
    };
    let mut worst: Option<Break> = None;
    for (i, (e, f)) in a.iter().zip(b).enumerate() {
        let Some(d) = query_difference(e, f) else {
            continue;
        };
        let level = match (e, f) {
            (QueryReply::Path(_), QueryReply::Path(_)) => {
                let field = d.what.split(' ').next().unwrap_or("");
                match field {
                    "status" | "cost" => Level::L1,
                    "algorithm" | "cells" | "points" => Level::L2,
                    _ => Level::L3,
                }
            }
            _ => Level::L1,
        };
        if worst.as_ref().is_none_or(|w| level < w.level) {
            let b = Break::new(level, format!("query {i}: {}", d.what), d.expected, d.found);
            worst = Some(b);
        }
    }
    worst
}
