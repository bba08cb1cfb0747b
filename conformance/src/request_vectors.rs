//! The `vectors` section's check of a request family ([CONF.LATTICE.VECTOR], [CONF.HPA.VECTOR],
//! [CONF.BIDI.VECTOR]): every committed vector of a shard run on every implementation, its
//! reply compared with the reply of record (the first difference named), and the reply of
//! record checked by the family's oracle. One body for every family whose vector is one request
//! and its expected reply.

use crate::error::HarnessError;
use crate::implementation::Implementation;
use crate::lattice::Difference;
use crate::report::{Failure, Section};

/// How one family's vectors are read and judged.
pub struct RequestVectors<'a, V> {
    /// The family's name (for a folder that does not read).
    pub family: &'a str,
    /// The op a failed call names (`run_lattice`, `run_hpa`, ...).
    pub op: &'a str,
    /// The vector's id.
    pub id: fn(&V) -> &str,
    /// The oracle's problem with the reply of record, if any.
    pub oracle: &'a dyn Fn(&V) -> Option<String>,
    /// The implementation's reply compared with the reply of record.
    pub run: &'a (dyn Fn(&dyn Implementation, &V) -> Result<Option<Difference>, HarnessError> + 'a),
}

impl<V> RequestVectors<'_, V> {
    /// Checks the vectors `read` found, of `shard`, on `all`; a folder that does not read is one
    /// failure of `once`.
    pub fn certify(
        &self,
        read: Result<Vec<V>, HarnessError>,
        all: &[&dyn Implementation],
        shard: crate::config::Shard,
        once: &mut Section,
        s: &mut Section,
    ) {
        let fail =
            |vector: &str, imp: &str, what: String, expected: String, found: String| Failure {
                vector: Some(vector.to_string()),
                implementation: imp.to_string(),
                what,
                expected,
                found,
                ..Default::default()
            };
        let vectors = match read {
            Ok(v) => v,
            Err(e) => {
                return once.fail(fail(
                    "-",
                    "-",
                    format!("{} vector file", self.family),
                    "a valid vector".into(),
                    e.to_string(),
                ))
            }
        };
        for (ordinal, v) in vectors.iter().enumerate() {
            if !shard.contains(ordinal) {
                continue;
            }
            let id = (self.id)(v);
            s.record((self.oracle)(v).map(|p| {
                fail(
                    id,
                    "vector",
                    "the reply of record against the oracle".into(),
                    "no problem".into(),
                    p,
                )
            }));
            for imp in all {
                s.record(match (self.run)(*imp, v) {
                    Err(e) => Some(fail(
                        id,
                        imp.name(),
                        self.op.into(),
                        "a reply".into(),
                        e.to_string(),
                    )),
                    Ok(d) => d.map(|d| Failure {
                        query: d.query,
                        ..fail(id, imp.name(), d.what, d.expected, d.found)
                    }),
                });
            }
        }
    }
}
