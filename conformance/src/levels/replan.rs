//! The replanning levels ([DRIVER.LEVEL.FAMILY]): which level a difference between two
//! replanner replies breaks.

use super::divergence::opt;
use super::{Break, Level};
use crate::replan::ReplanReply;

/// A replanner reply's difference ([CONF.REPLAN.REPLY], [DRIVER.LEVEL.LIST]): a constructor error
/// or a step's status, found flag or cost breaks L1; its path or path error L2; its counters,
/// pending count or expansions L3; a step's error (a restore's class and offset), its state hash
/// or the final bytes L4.
pub fn replan_break(
    expected: &Result<crate::replan::ReplanReply, crate::error::HarnessError>,
    found: &Result<crate::replan::ReplanReply, crate::error::HarnessError>,
) -> Option<Break> {
    let (ea, fa, es, fs) = match (expected, found) {
        (
            Ok(ReplanReply::Ran {
                steps: a,
                state: sa,
            }),
            Ok(ReplanReply::Ran {
                steps: b,
                state: sb,
            }),
        ) => (a, b, sa, sb),
        (a, b) if a == b => return None,
        (a, b) => {
            return Some(Break::new(
                Level::L1,
                "replanner result",
                result_summary(a),
                result_summary(b),
            ))
        }
    };
    if ea.len() != fa.len() {
        return Some(Break::new(
            Level::L1,
            "step count",
            ea.len().to_string(),
            fa.len().to_string(),
        ));
    }
    let mut worst: Option<Break> = None;
    for (i, (e, f)) in ea.iter().zip(fa).enumerate() {
        let at = |level: Level, what: &str, a: String, b: String| {
            let mut b = Break::new(level, format!("step {i}: {what}"), a, b);
            b.step = Some(i);
            b
        };
        let b = if (e.status, e.found, e.cost) != (f.status, f.found, f.cost) {
            Some(at(
                Level::L1,
                "status / cost",
                format!("{:?} {:?}", e.status, e.cost.0),
                format!("{:?} {:?}", f.status, f.cost.0),
            ))
        } else if (&e.path, &e.path_error) != (&f.path, &f.path_error) {
            Some(at(
                Level::L2,
                "path",
                path_words(&e.path_error, &e.path),
                path_words(&f.path_error, &f.path),
            ))
        } else if (e.iterations, e.expanded, e.last_expanded, e.pending)
            != (f.iterations, f.expanded, f.last_expanded, f.pending)
        {
            Some(at(
                Level::L3,
                "counters",
                format!(
                    "{} {} {} {}",
                    e.iterations, e.expanded, e.last_expanded, e.pending
                ),
                format!(
                    "{} {} {} {}",
                    f.iterations, f.expanded, f.last_expanded, f.pending
                ),
            ))
        } else if e.expansions != f.expansions {
            Some(at(
                Level::L3,
                "expansions",
                format!("{:?}", e.expansions),
                format!("{:?}", f.expansions),
            ))
        } else if e.error != f.error || e.state_sha256 != f.state_sha256 {
            Some(at(
                Level::L4,
                "error / state bytes",
                format!("{} {}", opt(e.error.as_ref(), "no error"), e.state_sha256),
                format!("{} {}", opt(f.error.as_ref(), "no error"), f.state_sha256),
            ))
        } else {
            None
        };
        // The lowest level broken anywhere, first step on ties.
        if let Some(b) = b {
            if worst.as_ref().is_none_or(|w| b.level < w.level) {
                worst = Some(b);
            }
        }
    }
    worst.or_else(|| super::divergence::final_state_break(&es.0, &fs.0))
}

/// A step's path in words: the path error's class, or the path.
fn path_words(error: &Option<String>, path: &[u32]) -> String {
    match error {
        Some(class) => format!("path error {class}"),
        None => format!("path {path:?}"),
    }
}

/// A reply's outcome in words, for a difference of outcome: `ran N steps`, `failed with CLASS` or
/// `no reply (why)` (no Rust debug form in a report).
fn result_summary(r: &Result<ReplanReply, crate::error::HarnessError>) -> String {
    match r {
        Ok(ReplanReply::Ran { steps, .. }) => format!("ran {} steps", steps.len()),
        Ok(ReplanReply::Failed(class)) => format!("failed with {class}"),
        Err(e) => format!("no reply ({e})"),
    }
}
