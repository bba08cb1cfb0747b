//! The HPA* level ([DRIVER.LEVEL.FAMILY]): which level a difference between two `run_hpa`
//! replies breaks.

use super::{Break, Level};
use crate::hpa::{hierarchy_difference, query_reply_difference, HpaQueryReply, HpaReply};

/// [DRIVER.LEVEL.FAMILY] A `run_hpa` difference, judged at the lowest level anything breaks
/// (the first such query named): a grid error, or a query's error class, status or cost breaks
/// L1; its algorithm, cells, points or abstract path L2; its expansions, counters or rebuilt
/// chunks L3, and so does any difference of the hierarchy. HPA* has no state, so nothing
/// breaks L4.
pub fn hpa_break(
    expected: &Result<HpaReply, crate::error::HarnessError>,
    found: &Result<HpaReply, crate::error::HarnessError>,
) -> Option<Break> {
    let (a, b) = match (expected, found) {
        (Ok(HpaReply::Ran(a)), Ok(HpaReply::Ran(b))) if a.queries.len() == b.queries.len() => {
            (a, b)
        }
        (a, b) if a == b => return None,
        (a, b) => {
            return Some(Break::new(
                Level::L1,
                "hpa result",
                super::divergence::reply_words(a),
                super::divergence::reply_words(b),
            ))
        }
    };
    let mut worst: Option<Break> = None;
    for (i, (e, f)) in a.queries.iter().zip(&b.queries).enumerate() {
        let Some(d) = query_reply_difference(e, f) else {
            continue;
        };
        let level = match (e, f) {
            (HpaQueryReply::Path(_), HpaQueryReply::Path(_)) => {
                match d.what.split(' ').next().unwrap_or("") {
                    "status" | "cost" => Level::L1,
                    "algorithm" | "cells" | "points" | "abstract" => Level::L2,
                    _ => Level::L3,
                }
            }
            _ => Level::L1,
        };
        if worst.as_ref().map_or(true, |w| level < w.level) {
            worst = Some(Break::new(
                level,
                format!("query {i}: {}", d.what),
                d.expected,
                d.found,
            ));
        }
    }
    if worst.is_none() {
        if let Some(d) = hierarchy_difference(&a.hierarchy, &b.hierarchy) {
            worst = Some(Break::new(Level::L3, d.what, d.expected, d.found));
        }
    }
    worst
}
