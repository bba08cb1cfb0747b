//! Outcomes of one query as plain data, their canonical byte encoding ([CONF.ENC.*]) and the
//! "first differing field" explanation used by every comparing check.

use sha2::{Digest, Sha256};
use std::fmt;

/// The search that ran, as reported by a tier-1 result ([GRAPH.T1.RESULT]).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum AlgorithmCode {
    /// Dijkstra (A* with the zero estimate); byte 1.
    Dijkstra,
    /// A*; byte 2.
    Astar,
    /// Bidirectional Dijkstra; byte 3.
    BidirectionalDijkstra,
    /// Bidirectional A*; byte 4.
    BidirectionalAstar,
}

impl AlgorithmCode {
    /// The byte of [CONF.ENC.RESULT].
    pub fn byte(self) -> u8 {
        match self {
            AlgorithmCode::Dijkstra => 1,
            AlgorithmCode::Astar => 2,
            AlgorithmCode::BidirectionalDijkstra => 3,
            AlgorithmCode::BidirectionalAstar => 4,
        }
    }
}

/// A tier-2 status ([GRAPH.ASTAR.STATUS]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchCode {
    /// 0.
    NotStarted,
    /// 1.
    Running,
    /// 2.
    Found,
    /// 3.
    NotFound,
}

/// Final status of a tier-1 query.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum StatusCode {
    /// A path was found; byte 0.
    Found,
    /// No path exists; byte 1.
    NotFound,
    /// The iteration budget ran out; byte 2.
    BudgetExhausted,
}

impl StatusCode {
    /// The byte of [CONF.ENC.RESULT].
    pub fn byte(self) -> u8 {
        match self {
            StatusCode::Found => 0,
            StatusCode::NotFound => 1,
            StatusCode::BudgetExhausted => 2,
        }
    }
}

/// A completed query: everything [GRAPH.T1.RESULT] makes observable.
#[derive(Clone, Debug, PartialEq)]
pub struct PathOutcome {
    /// The search that ran.
    pub algorithm: AlgorithmCode,
    /// Final status.
    pub status: StatusCode,
    /// Path cost (`+infinity` unless found); compared by bit pattern.
    pub cost: f64,
    /// Iterations (pops).
    pub iterations: u64,
    /// Expansions.
    pub expanded_count: u64,
    /// The path, start first (empty unless found).
    pub nodes: Vec<u32>,
    /// The recorded expansion list.
    pub expanded: Vec<u32>,
}

/// The outcome of one query: a result, or an error class ([GRAPH.ERR.CLASSES]).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The query ran.
    Path(PathOutcome),
    /// The query (or building its graph or landmark table) failed with this class.
    Error(String),
}

impl Outcome {
    /// Appends the canonical encoding of [CONF.ENC.RESULT] / [CONF.ENC.ERROR] to `out`.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        match self {
            Outcome::Path(p) => {
                out.push(1);
                out.push(p.algorithm.byte());
                out.push(p.status.byte());
                out.extend_from_slice(&p.cost.to_bits().to_le_bytes());
                out.extend_from_slice(&p.iterations.to_le_bytes());
                out.extend_from_slice(&p.expanded_count.to_le_bytes());
                out.extend_from_slice(&(p.nodes.len() as u32).to_le_bytes());
                for n in &p.nodes {
                    out.extend_from_slice(&n.to_le_bytes());
                }
                out.extend_from_slice(&(p.expanded.len() as u32).to_le_bytes());
                for n in &p.expanded {
                    out.extend_from_slice(&n.to_le_bytes());
                }
            }
            Outcome::Error(class) => {
                out.push(2);
                out.extend_from_slice(&(class.len() as u16).to_le_bytes());
                out.extend_from_slice(class.as_bytes());
            }
        }
    }

    /// The canonical encoding of this outcome alone.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::new();
        self.encode_into(&mut v);
        v
    }

    /// The status, or `None` for an error.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Outcome::Path(p) => Some(p.status),
            Outcome::Error(_) => None,
        }
    }
}

/// Lowercase hex SHA-256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    // The digits by table into a fixed buffer: `hex::encode` pushes one `char` at a time, which
    // under the fuzz targets' instrumentation cost more than the digest (issue 36).
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let d = Sha256::digest(bytes);
    let mut out = [0u8; 64];
    for (i, b) in d.iter().enumerate() {
        out[2 * i] = DIGITS[usize::from(b >> 4)];
        out[2 * i + 1] = DIGITS[usize::from(b & 15)];
    }
    String::from_utf8(out.to_vec()).expect("hex digits are ASCII")
}

/// A matrix cell ([CONF.MATRIX.CELL]): SHA-256 of the concatenated encodings in query order.
pub fn cell_hash(outcomes: &[Outcome]) -> String {
    let mut bytes = Vec::new();
    for o in outcomes {
        o.encode_into(&mut bytes);
    }
    sha256_hex(&bytes)
}

/// The first field in which two outcomes differ ([CONF.DIFF.ORDER]).
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Which field: `kind`, `error class`, `algorithm`, `expansion step N`, `status`,
    /// `cost bits`, `path position N`, `path length`, `iterations`, `expanded_count`.
    pub what: String,
    /// The expected value, rendered.
    pub expected: String,
    /// The value found, rendered.
    pub found: String,
    /// The expansion step index when the difference is in the expansion list.
    pub step: Option<usize>,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: expected {}, found {}",
            self.what, self.expected, self.found
        )
    }
}

fn entry(list: &[u32], i: usize) -> String {
    match list.get(i) {
        Some(n) => format!("node {n}"),
        None => "end of list".to_string(),
    }
}

fn first_list_difference(a: &[u32], b: &[u32]) -> Option<usize> {
    let common = a.len().min(b.len());
    (0..common)
        .find(|&i| a[i] != b[i])
        .or(if a.len() != b.len() {
            Some(common)
        } else {
            None
        })
}

fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Path(_) => "a result".to_string(),
        Outcome::Error(c) => format!("error {c}"),
    }
}

/// Renders a cost as its value and its bit pattern.
pub fn cost_text(c: f64) -> String {
    format!("{c:?} (bits {:016x})", c.to_bits())
}

/// Compares `expected` with `found` and explains the first difference, or `None` when the two
/// are byte-identical under the canonical encoding.
pub fn first_difference(expected: &Outcome, found: &Outcome) -> Option<Difference> {
    let d = |what: &str, e: String, f: String| {
        Some(Difference {
            what: what.to_string(),
            expected: e,
            found: f,
            step: None,
        })
    };
    match (expected, found) {
        (Outcome::Error(a), Outcome::Error(b)) => {
            if a != b {
                return d("error class", a.clone(), b.clone());
            }
            None
        }
        (Outcome::Path(_), Outcome::Error(_)) | (Outcome::Error(_), Outcome::Path(_)) => {
            d("kind", describe(expected), describe(found))
        }
        (Outcome::Path(a), Outcome::Path(b)) => {
            if a.algorithm != b.algorithm {
                return d(
                    "algorithm",
                    format!("{:?}", a.algorithm),
                    format!("{:?}", b.algorithm),
                );
            }
            if let Some(i) = first_list_difference(&a.expanded, &b.expanded) {
                return Some(Difference {
                    what: format!("expansion step {i}"),
                    expected: entry(&a.expanded, i),
                    found: entry(&b.expanded, i),
                    step: Some(i),
                });
            }
            if a.status != b.status {
                return d(
                    "status",
                    format!("{:?}", a.status),
                    format!("{:?}", b.status),
                );
            }
            if a.cost.to_bits() != b.cost.to_bits() {
                return d("cost bits", cost_text(a.cost), cost_text(b.cost));
            }
            if let Some(i) = first_list_difference(&a.nodes, &b.nodes) {
                return d(
                    &format!("path position {i}"),
                    entry(&a.nodes, i),
                    entry(&b.nodes, i),
                );
            }
            if a.iterations != b.iterations {
                return d(
                    "iterations",
                    a.iterations.to_string(),
                    b.iterations.to_string(),
                );
            }
            if a.expanded_count != b.expanded_count {
                return d(
                    "expanded_count",
                    a.expanded_count.to_string(),
                    b.expanded_count.to_string(),
                );
            }
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_hex_is_the_lowercase_digest() {
        // FIPS 180-2 example "abc", and the empty input.
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(sha256_hex(&[]), hex::encode(Sha256::digest([])));
    }

    fn sample() -> PathOutcome {
        PathOutcome {
            algorithm: AlgorithmCode::Astar,
            status: StatusCode::Found,
            cost: 3.0,
            iterations: 3,
            expanded_count: 2,
            nodes: vec![0, 1],
            expanded: vec![0, 5],
        }
    }

    #[test]
    fn result_encoding_layout() {
        let bytes = Outcome::Path(sample()).encode();
        assert_eq!(bytes.len(), 3 + 8 * 3 + 4 + 8 + 4 + 8);
        assert_eq!(&bytes[..3], &[1, 2, 0]);
        assert_eq!(&bytes[3..11], &3.0f64.to_bits().to_le_bytes());
        assert_eq!(&bytes[27..31], &2u32.to_le_bytes());
    }

    #[test]
    fn error_encoding_layout() {
        let bytes = Outcome::Error("node_out_of_range".into()).encode();
        assert_eq!(bytes[0], 2);
        assert_eq!(u16::from_le_bytes([bytes[1], bytes[2]]), 17);
        assert_eq!(&bytes[3..], b"node_out_of_range");
    }

    #[test]
    fn difference_reports_first_expansion_step() {
        let a = sample();
        let mut b = sample();
        b.expanded.swap(0, 1);
        let diff = first_difference(&Outcome::Path(a), &Outcome::Path(b)).unwrap();
        assert_eq!(diff.what, "expansion step 0");
        assert_eq!(diff.step, Some(0));
        assert_eq!(
            diff.to_string(),
            "expansion step 0: expected node 0, found node 5"
        );
    }
}
