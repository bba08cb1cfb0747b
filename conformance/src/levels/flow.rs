//! The flow-field levels ([DRIVER.LEVEL.FAMILY]): which level a difference between two
//! flow-field replies breaks.

use super::{Break, Level};
use crate::flow::{field_difference, FlowReply};

/// [DRIVER.LEVEL.FAMILY] A `run_flow` difference, judged at the lowest level any step breaks
/// (the first such step named): a constructor error, or a step's returned status, status,
/// repairing or usable flag breaks L1; its field hash, the final field or a path probe L2; its
/// settled or pending count L3; a step's error (a restore's class and offset), its state hash
/// or the final bytes L4.
pub fn flow_break(
    expected: &Result<FlowReply, crate::error::HarnessError>,
    found: &Result<FlowReply, crate::error::HarnessError>,
) -> Option<Break> {
    let (e, f) = match (expected, found) {
        (Ok(a @ FlowReply::Ran { .. }), Ok(b @ FlowReply::Ran { .. })) => (a, b),
        (a, b) if a == b => return None,
        (a, b) => {
            return Some(Break::new(
                Level::L1,
                "flow field result",
                result_summary(a),
                result_summary(b),
            ))
        }
    };
    let (
        FlowReply::Ran {
            steps: ea,
            costs: ca,
            next: na,
            paths: pa,
            state: sa,
        },
        FlowReply::Ran {
            steps: fa,
            costs: cb,
            next: nb,
            paths: pb,
            state: sb,
        },
    ) = (e, f)
    else {
        return None;
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
    let mut keep = |b: Option<Break>| {
        if let Some(b) = b {
            if worst.as_ref().is_none_or(|w| b.level < w.level) {
                worst = Some(b);
            }
        }
    };
    for (i, (e, f)) in ea.iter().zip(fa).enumerate() {
        let at = |level: Level, what: &str, a: String, b: String| {
            let mut b = Break::new(level, format!("step {i}: {what}"), a, b);
            b.step = Some(i);
            b
        };
        let b = if (e.returned, e.status, e.repairing, e.usable)
            != (f.returned, f.status, f.repairing, f.usable)
        {
            Some(at(
                Level::L1,
                "status",
                format!(
                    "returned {} status {} repairing {} usable {}",
                    super::divergence::opt(e.returned, "nothing"),
                    e.status,
                    e.repairing,
                    e.usable
                ),
                format!(
                    "returned {} status {} repairing {} usable {}",
                    super::divergence::opt(f.returned, "nothing"),
                    f.status,
                    f.repairing,
                    f.usable
                ),
            ))
        } else if e.field_sha256 != f.field_sha256 {
            Some(at(
                Level::L2,
                "field (costs and steps)",
                e.field_sha256.clone(),
                f.field_sha256.clone(),
            ))
        } else if (e.settled, e.pending) != (f.settled, f.pending) {
            Some(at(
                Level::L3,
                "settled / pending",
                format!("{} {}", e.settled, e.pending),
                format!("{} {}", f.settled, f.pending),
            ))
        } else if e.error != f.error || e.state_sha256 != f.state_sha256 {
            Some(at(
                Level::L4,
                "error / state bytes",
                format!(
                    "{} {}",
                    super::divergence::opt(e.error.as_ref(), "no error"),
                    e.state_sha256
                ),
                format!(
                    "{} {}",
                    super::divergence::opt(f.error.as_ref(), "no error"),
                    f.state_sha256
                ),
            ))
        } else {
            None
        };
        keep(b);
    }
    keep(
        field_difference(ca, na, cb, nb)
            .map(|d| Break::new(Level::L2, "final field", "the reference's field", d)),
    );
    keep((pa != pb).then(|| {
        Break::new(
            Level::L2,
            "path probes",
            super::divergence::clip(&serde_json::to_string(pa).unwrap_or_default()),
            super::divergence::clip(&serde_json::to_string(pb).unwrap_or_default()),
        )
    }));
    worst.or_else(|| super::divergence::final_state_break(&sa.0, &sb.0))
}

/// A reply's outcome in words, for a difference of outcome: `ran N steps`, `failed with CLASS` or
/// `no reply (why)` (no Rust debug form in a report).
fn result_summary(r: &Result<FlowReply, crate::error::HarnessError>) -> String {
    match r {
        Ok(FlowReply::Ran { steps, .. }) => format!("ran {} steps", steps.len()),
        Ok(FlowReply::Failed(class)) => format!("failed with {class}"),
        Err(e) => format!("no reply ({e})"),
    }
}
