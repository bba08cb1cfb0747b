//! `graph_landmarks`: landmark tables and OPLM bytes built, saved and reloaded by both crates,
//! with hostile OPLM edits ([`Hostile`]) that both must reject the same way.

use super::Finding;
use super::*;
use crate::generators::directed_edges;
use crate::implementation::{Implementation, OplmError};
use crate::oracle::distances;
use crate::scenario::Case;
use arbitrary::Unstructured;

// graph_landmarks

/// The decoded input of `graph_landmarks`.
#[derive(Clone, Debug)]
pub struct LandmarkInput {
    /// An edges graph (integer weights when `integer`) and landmark options.
    pub case: Case,
    /// All weights are small integers (bounds are then checked exactly against the oracle).
    pub integer: bool,
    /// How to make the hostile bytes from the valid table.
    pub hostile: Hostile,
}

/// Hostile OPLM bytes, as a recipe over the valid table (or raw bytes).
#[derive(Clone, Debug)]
pub enum Hostile {
    /// These bytes as they are.
    Raw(Vec<u8>),
    /// The valid table with `bytes` written at `offset % len`.
    Overwrite {
        /// Offset (reduced modulo the length).
        offset: u32,
        /// Replacement bytes.
        bytes: Vec<u8>,
    },
    /// The valid table cut to `len % (length + 1)` bytes, then `tail` appended.
    Resize {
        /// New length (reduced).
        len: u32,
        /// Appended bytes.
        tail: Vec<u8>,
    },
    /// The valid table with a 32-bit little-endian value at a header or id field.
    Field {
        /// Field index: magic, version, N, k, fingerprint low, fingerprint high, id 0, id 1, ...
        field: u8,
        /// Value.
        value: u32,
    },
    /// The valid table with a 64-bit pattern at table entry `entry % entries`.
    Entry {
        /// Entry (reduced).
        entry: u32,
        /// Bit pattern.
        bits: u64,
    },
}

impl Hostile {
    /// The hostile bytes made from a valid table.
    pub fn apply(&self, valid: &[u8]) -> Vec<u8> {
        let mut b = valid.to_vec();
        match self {
            Hostile::Raw(bytes) => return bytes.clone(),
            Hostile::Overwrite { offset, bytes } => {
                if !b.is_empty() {
                    let at = *offset as usize % b.len();
                    for (i, x) in bytes.iter().enumerate() {
                        if at + i < b.len() {
                            b[at + i] = *x;
                        }
                    }
                }
            }
            Hostile::Resize { len, tail } => {
                b.truncate(*len as usize % (valid.len() + 1));
                b.extend_from_slice(tail);
            }
            Hostile::Field { field, value } => {
                let at = 4 * *field as usize;
                if at + 4 <= b.len() {
                    b[at..at + 4].copy_from_slice(&value.to_le_bytes());
                }
            }
            Hostile::Entry { entry, bits } => {
                if b.len() >= 24 {
                    let k = u32::from_le_bytes(b[12..16].try_into().expect("4 bytes")) as usize;
                    let table = 24 + 4 * k;
                    let entries = b.len().saturating_sub(table) / 8;
                    if entries > 0 {
                        let at = table + 8 * (*entry as usize % entries);
                        b[at..at + 8].copy_from_slice(&bits.to_le_bytes());
                    }
                }
            }
        }
        b
    }
}

/// Decodes a `graph_landmarks` input.
pub fn decode_landmarks(data: &[u8]) -> Res<LandmarkInput> {
    let mut u = Unstructured::new(data);
    let u = &mut u;
    let integer = !u.ratio(1, 4)?;
    let mut w = |u: &mut U| -> Res<f64> {
        if integer {
            pick(u, &[0.0, 1.0, 1.0, 2.0, 3.0, 5.0, 9.0, 1_048_576.0])
        } else {
            Ok(WEIGHTS[u.arbitrary::<u8>()? as usize % 16])
        }
    };
    let graph = edges_graph(u, 16, 40, &mut w)?;
    let mut landmarks = landmark_spec(u)?;
    landmarks.seed = u.arbitrary()?;
    let case = Case { graph, landmarks };
    let hostile = match small(u, 0, 4)? {
        0 => {
            let len = small(u, 0, 600)? as usize;
            Hostile::Raw(u.bytes(len)?.to_vec())
        }
        1 => {
            let (offset, len) = (u.arbitrary()?, small(u, 1, 16)? as usize);
            Hostile::Overwrite {
                offset,
                bytes: u.bytes(len)?.to_vec(),
            }
        }
        2 => {
            let (len, tail) = (u.arbitrary()?, small(u, 0, 16)? as usize);
            Hostile::Resize {
                len,
                tail: u.bytes(tail)?.to_vec(),
            }
        }
        3 => Hostile::Field {
            field: u.arbitrary::<u8>()? % 10,
            value: u.arbitrary()?,
        },
        _ => {
            let bits = match small(u, 0, 5)? {
                0 => f64::NAN.to_bits(),
                1 => (-0.0f64).to_bits(),
                2 => f64::INFINITY.to_bits(),
                3 => (-1.5f64).to_bits(),
                4 => 0,
                _ => u.arbitrary()?,
            };
            Hostile::Entry {
                entry: u.arbitrary()?,
                bits,
            }
        }
    };
    Ok(LandmarkInput {
        case,
        integer,
        hostile,
    })
}

/// `graph_landmarks`: decode and [`check_landmarks`].
pub fn graph_landmarks(data: &[u8]) -> Result<(), Finding> {
    match decode_landmarks(data) {
        Ok(input) => check_landmarks(&input),
        Err(_) => Ok(()),
    }
}

fn oplm_text(r: &Result<Vec<u8>, OplmError>) -> String {
    match r {
        Ok(b) => format!(
            "accepted ({} bytes, sha256 {})",
            b.len(),
            crate::outcome::sha256_hex(b)
        ),
        Err(e) => format!("{} at {}", e.class, e.offset),
    }
}

/// The landmark invariants: equal OPLM bytes (or equal build errors); equal `lower_bound` bits
/// (in range and out of range); for integer weights, bounds admissible and consistent against
/// the oracle; round trips; hostile bytes accepted or rejected alike (class and offset), and an
/// accepted table re-serializes to the same bytes ([GRAPH.OPLM.ROUNDTRIP]).
pub fn check_landmarks(input: &LandmarkInput) -> Result<(), Finding> {
    let case = &input.case;
    let (a, b) = (REF.build_landmarks(case), OPT.build_landmarks(case));
    let valid = match (&a, &b) {
        (Ok(x), Ok(y)) if x == y => x.clone(),
        (Err(x), Err(y)) if x == y => return Ok(()),
        _ => {
            let t = |r: &Result<Vec<u8>, crate::error::CallError>| match r {
                Ok(b) => format!("{} bytes sha256 {}", b.len(), crate::outcome::sha256_hex(b)),
                Err(c) => format!("error {c}"),
            };
            return Err(Finding::new(format!(
                "build_landmarks: expected {}, found {}",
                t(&a),
                t(&b)
            )));
        }
    };
    let n = case.graph.node_count() as u32;
    let mut pairs: Vec<(u32, u32)> = (0..n).flat_map(|u| (0..n).map(move |v| (u, v))).collect();
    pairs.extend([(n, 0), (0, n), (n + 7, n + 7), (u32::MAX, 0)]);
    let (lr, lo) = (
        REF.lower_bounds(case, &pairs),
        OPT.lower_bounds(case, &pairs),
    );
    let (lr, lo) = match (lr, lo) {
        (Ok(x), Ok(y)) => (x, y),
        (x, y) => return Err(Finding::new(format!("lower_bounds: {x:?} / {y:?}"))),
    };
    for (i, &(u, v)) in pairs.iter().enumerate() {
        if lr[i].to_bits() != lo[i].to_bits() {
            return Err(Finding::new(format!(
                "lower_bound({u}, {v}) bits: expected {:?}, found {:?}",
                lr[i], lo[i]
            )));
        }
        if (u >= n || v >= n) && lr[i].to_bits() != 0 {
            return Err(Finding::new(format!(
                "lower_bound({u}, {v}) out of range: expected +0.0, found {:?}",
                lr[i]
            )));
        }
    }
    if input.integer {
        let edges = directed_edges(&case.graph).expect("edges graph");
        let nn = n as usize;
        let truth: Vec<Vec<f64>> = (0..n).map(|s| distances(nn, &edges, s)).collect();
        let at = |u: u32, v: u32| lr[u as usize * nn + v as usize];
        for u in 0..n {
            for v in 0..n {
                if !(at(u, v) <= truth[u as usize][v as usize]) {
                    return Err(Finding::new(format!(
                        "lower_bound({u}, {v}) = {:?} exceeds d = {:?}",
                        at(u, v),
                        truth[u as usize][v as usize]
                    )));
                }
            }
        }
        for &(u, v, w) in &edges {
            for t in 0..n {
                if !(at(u, t) <= w + at(v, t)) {
                    return Err(Finding::new(format!("inconsistent: lb({u},{t}) = {:?} > w({u},{v}) = {w:?} + lb({v},{t}) = {:?}", at(u, t), at(v, t))));
                }
            }
        }
    }
    for imp in [&REF as &dyn Implementation, &OPT] {
        match imp.deserialize_oplm(case, &valid) {
            Ok(again) if again == valid => {}
            other => {
                return Err(Finding::new(format!(
                    "{} OPLM round trip: {}",
                    imp.name(),
                    oplm_text(&other)
                )))
            }
        }
    }
    let bytes = input.hostile.apply(&valid);
    let (x, y) = (
        REF.deserialize_oplm(case, &bytes),
        OPT.deserialize_oplm(case, &bytes),
    );
    if x != y {
        return Err(Finding::new(format!(
            "hostile OPLM ({} bytes): expected {}, found {}",
            bytes.len(),
            oplm_text(&x),
            oplm_text(&y)
        )));
    }
    if let Ok(again) = &x {
        if *again != bytes {
            return Err(Finding::new(format!(
                "accepted hostile OPLM does not round-trip: {}",
                oplm_text(&x)
            )));
        }
    }
    Ok(())
}
