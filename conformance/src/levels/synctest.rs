//! The level of a port's sync-test reply ([DRIVER.OP.SYNCTEST], [DRIVER.LEVEL.FAMILY]): a reply
//! that [CONF.SYNC.JUDGE] fails against the reference's breaks L1 when the two disagree on
//! whether the session ran (or on the failure class), else L4 (the checksums are hashes of the
//! world's saved bytes across rollbacks).

use super::{Break, Level};
use crate::error::HarnessError;
use crate::synctest::SyncReply;

/// The break of `found` against `expected` over a session of `frames` input frames, or `None`
/// when the judge passes it.
pub fn synctest_break(
    expected: &Result<SyncReply, HarnessError>,
    found: &Result<SyncReply, HarnessError>,
    frames: usize,
) -> Option<Break> {
    let (Ok(e), Ok(f)) = (expected, found) else {
        return (expected != found).then(|| {
            Break::new(
                Level::L1,
                "synctest result",
                super::divergence::reply_words(expected),
                super::divergence::reply_words(found),
            )
        });
    };
    let failure = crate::synctest::judge(e, f, frames).err()?;
    let level = match (e, f) {
        (SyncReply::Ran(_), SyncReply::Ran(_)) => Level::L4,
        _ => Level::L1,
    };
    Some(Break::new(
        level,
        "synctest run",
        "the reference's run",
        failure.to_string(),
    ))
}
