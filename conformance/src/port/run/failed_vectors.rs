//! The `failed_vectors` member of a port report ([DRIVER.REPORT.JSON]): every vector of the run
//! with a difference or an unanswered request, and its first one in an order that does not
//! depend on `--threads` (the ledger holds them in the order the workers recorded them).

use crate::family::VectorRef;
use crate::port::run::rank;
use crate::port::{Ledger, LedgerEntry, ProtocolEvent};
use std::collections::BTreeMap;

/// The order of differences: section ([`rank`]: `vectors` first), label, variant, query, then
/// the difference itself (a vector's first difference here; after the level, a report's first
/// break in `run.rs`).
pub(super) fn entry_key(e: &LedgerEntry) -> impl Ord + '_ {
    (
        rank(&e.section),
        &e.label,
        &e.variant,
        &e.query,
        (&e.brk.what, &e.brk.expected, &e.brk.found),
    )
}

/// The order of a vector's unanswered requests: section ([`rank`]), label, op, then what
/// happened (request ids follow the workers' timing, so they are left out).
fn event_key(e: &ProtocolEvent) -> impl Ord + '_ {
    (rank(&e.section), &e.label, &e.op, &e.kind, &e.message)
}

/// Each vector of `vectors` with a difference (or, without one, an unanswered request other
/// than `unimplemented`) mapped to the first of them, in words.
pub(super) fn failed_vectors(vectors: &[VectorRef], ledger: &Ledger) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for v in vectors {
        let diff = ledger
            .entries
            .iter()
            .filter(|e| v.owns(&e.label))
            .min_by(|a, b| entry_key(a).cmp(&entry_key(b)))
            .map(|e| format!("{} ({} section, {})", e.quote(), e.section, e.op));
        let unanswered = ledger
            .events
            .iter()
            .filter(|e| e.kind != "unimplemented" && v.owns(&e.label))
            .min_by(|a, b| event_key(a).cmp(&event_key(b)))
            .map(|e| {
                format!(
                    "port: {} (request {}, {}): {}",
                    e.kind, e.id, e.op, e.message
                )
            });
        if let Some(line) = diff.or(unanswered) {
            out.insert(v.id.clone(), line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::Family;
    use crate::levels::{Break, Level};

    fn entry(section: &str, label: &str, what: &str) -> LedgerEntry {
        LedgerEntry {
            section: section.into(),
            label: label.into(),
            op: "describe".into(),
            variant: None,
            query: Some("0".into()),
            brk: Break::new(Level::L2, what, "1", "2"),
            clauses: Vec::new(),
        }
    }

    fn event(section: &str, label: &str, id: u64, message: &str) -> ProtocolEvent {
        ProtocolEvent {
            kind: "timeout".into(),
            id,
            section: section.into(),
            label: label.into(),
            op: "run_case".into(),
            message: message.into(),
        }
    }

    fn vector(id: &str) -> VectorRef {
        VectorRef {
            id: id.into(),
            claim: Family::Graph,
            hostile: false,
        }
    }

    /// Two workers record a vector's differences in either order; the vector's line is the
    /// same. The time-ordered choice this replaced named `expanded entry 18` for one order and
    /// `expanded entry 2` for the other.
    #[test]
    fn the_first_difference_of_a_vector_does_not_depend_on_the_recording_order() {
        let entries = vec![
            entry("vectors", "GRAPH-0009", "cost bits"),
            entry("describe", "GRAPH-0009", "expanded entry 18"),
            entry("describe", "GRAPH-0009", "expanded entry 2"),
            entry("describe", "GRAPH-0010", "cells entry 1"),
        ];
        let vectors = [
            vector("GRAPH-0009"),
            vector("GRAPH-0010"),
            vector("GRAPH-0011"),
        ];
        let mut lines = Vec::new();
        for order in [[0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1]] {
            let ledger = Ledger {
                entries: order.iter().map(|&i| entries[i].clone()).collect(),
                ..Default::default()
            };
            lines.push(failed_vectors(&vectors, &ledger));
        }
        assert_eq!(lines[0], lines[1]);
        assert_eq!(lines[0], lines[2]);
        // The vectors section ranks first (as for a family's first difference), then text order:
        // "entry 18" < "entry 2".
        assert!(lines[0]["GRAPH-0009"].contains("cost bits"), "{lines:?}");
        assert!(lines[0]["GRAPH-0009"].ends_with("(vectors section, describe)"));
        assert!(
            lines[0]["GRAPH-0010"].contains("cells entry 1"),
            "{lines:?}"
        );
        assert!(!lines[0].contains_key("GRAPH-0011"));
    }

    #[test]
    fn the_first_unanswered_request_of_a_vector_does_not_depend_on_the_recording_order() {
        let a = event("vectors", "GRAPH-0001", 7, "no reply in 1 s");
        let b = event("describe", "GRAPH-0001", 9, "no reply in 2 s");
        let vectors = [vector("GRAPH-0001")];
        let one = Ledger {
            events: vec![a.clone(), b.clone()],
            ..Default::default()
        };
        let other = Ledger {
            events: vec![b, a],
            ..Default::default()
        };
        let line = failed_vectors(&vectors, &one);
        assert_eq!(line, failed_vectors(&vectors, &other));
        assert_eq!(
            line["GRAPH-0001"],
            "port: timeout (request 7, run_case): no reply in 1 s"
        );
    }
}
