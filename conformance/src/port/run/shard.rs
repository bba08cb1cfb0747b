//! The sharding and labelling helpers of a port run: the cases of a shard, a ledger mark that
//! drops what the state probes recorded outside shard 1 ([DRIVER.SHARD]), and the naming of
//! failures over unanswered requests ([DRIVER.REPORT.NO_ANSWER]).

use crate::checks::Shard;
use crate::port::PortImpl;
use crate::report::Section;
use std::collections::BTreeMap;

/// A failure whose found value is a request that got no answer is named as such in every
/// section (`port: crash: oplm hash in scenario file (no answer)`), not as a difference.
pub(super) fn name_unanswered(sections: &mut [Section]) {
    for s in sections {
        for f in &mut s.failures {
            if let Some((kind, _)) = crate::vectors::no_answer(&f.found) {
                if !f.what.starts_with("port: ") {
                    f.what = format!("port: {kind}: {}", f.what);
                }
            }
        }
    }
}

/// The items of `list` whose ordinal is in `shard`.
pub(super) fn shard_subset<T>(list: &[T], shard: Shard) -> impl Iterator<Item = &T> {
    list.iter()
        .enumerate()
        .filter(move |(i, _)| shard.contains(*i))
        .map(|(_, x)| x)
}

/// The ledger's size at one point, to drop what was recorded after it.
pub(crate) struct LedgerMark {
    entries: usize,
    events: usize,
    requests: BTreeMap<String, u64>,
    answered: BTreeMap<String, u64>,
    answered_labels: BTreeMap<String, u64>,
}

impl LedgerMark {
    pub(crate) fn take(port: &PortImpl) -> LedgerMark {
        let l = port.ledger.lock().expect("ledger");
        LedgerMark {
            entries: l.entries.len(),
            events: l.events.len(),
            requests: l.requests.clone(),
            answered: l.answered.clone(),
            answered_labels: l.answered_labels.clone(),
        }
    }

    pub(crate) fn restore(self, port: &PortImpl) {
        let mut l = port.ledger.lock().expect("ledger");
        l.entries.truncate(self.entries);
        l.events.truncate(self.events);
        l.requests = self.requests;
        l.answered = self.answered;
        l.answered_labels = self.answered_labels;
    }
}
