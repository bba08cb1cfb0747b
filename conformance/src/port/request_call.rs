//! One request of a family op whose request and reply types are their own wire form
//! (`run_lattice`, `run_hpa`, `run_bidi`, `describe`): send it, fit the reply to the request,
//! compare it with the reference's reply and record the difference ([DRIVER.LEVEL.COMPARE]).

use super::messages::Request;
use super::{protocol, PortImpl};
use crate::error::HarnessError;
use crate::levels::Break;
use serde::de::DeserializeOwned;
use serde::Serialize;

impl PortImpl {
    /// Sends `wire` under `label` and `ledger_op`; a reply that does not `fit` the request is a
    /// malformed reply. An answer is compared with `expected()` by `judge`, the difference
    /// noted with the first place the two wire replies diverge when the judge did not name it
    /// ([DRIVER.LEVEL.FIRST]); an unanswered request is `unimplemented` or a no-answer harness
    /// error.
    pub(crate) fn family_request<R: DeserializeOwned + Serialize + Clone>(
        &self,
        label: &str,
        ledger_op: &str,
        wire: &Request,
        fit: impl FnOnce(R) -> Result<R, protocol::Mismatch>,
        expected: impl FnOnce() -> Result<R, HarnessError>,
        judge: impl FnOnce(&Result<R, HarnessError>, &Result<R, HarnessError>) -> Option<Break>,
    ) -> Result<R, HarnessError> {
        match self.call(label, ledger_op, wire, fit) {
            Ok(found) => {
                let reference = expected();
                let brk = judge(&reference, &Ok(found.clone())).map(|mut b| {
                    if b.first.is_none() {
                        if let Ok(r) = &reference {
                            b.first = crate::levels::divergence::json_divergence(r, &found);
                        }
                    }
                    b
                });
                self.note(label, ledger_op, None, None, brk);
                Ok(found)
            }
            Err(e) if e.unimplemented() => Err(HarnessError::unimplemented()),
            Err(e) => Err(HarnessError::no_answer(e.line)),
        }
    }
}
