//! OPLM landmark bytes: [GRAPH.OPLM.LAYOUT], [GRAPH.OPLM.CHECKS], [GRAPH.OPLM.ROUNDTRIP].

use crate::csr::CsrGraph;
use crate::error::{GraphStateError, StateKind};
use crate::landmarks::Landmarks;

const MAGIC: &[u8; 4] = b"OPLM";
const HEADER: usize = 24;

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

impl Landmarks {
    /// [GRAPH.OPLM.LAYOUT] The little-endian OPLM bytes (tables landmark-major).
    pub fn serialize(&self) -> Vec<u8> {
        let (n, k) = (self.n, self.ids.len());
        let mut out = Vec::with_capacity(HEADER + 4 * k + 16 * k * n);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&(n as i32).to_le_bytes());
        out.extend_from_slice(&(k as i32).to_le_bytes());
        out.extend_from_slice(&self.fingerprint.to_le_bytes());
        for &id in &self.ids {
            out.extend_from_slice(&(id as i32).to_le_bytes());
        }
        let stride = 2 * self.k;
        for side in [0, self.k] {
            for l in 0..k {
                for v in 0..n {
                    out.extend_from_slice(
                        &self.data[v * stride + side + l].to_bits().to_le_bytes(),
                    );
                }
            }
        }
        out
    }

    /// [GRAPH.OPLM.CHECKS] [GRAPH.OPLM.DISTINCT_IDS] [GRAPH.OPLM.SIGN_BIT] Decodes OPLM bytes for `graph`, running the checks in the clause's
    /// order and reporting the first failure with its byte offset. Nothing is allocated before
    /// the length check has matched the header against the input length.
    pub fn deserialize(bytes: &[u8], graph: &CsrGraph) -> Result<Landmarks, GraphStateError> {
        let len = bytes.len();
        let err = |kind, offset| Err(GraphStateError::new(kind, offset));
        if len < HEADER {
            return err(StateKind::Truncated, len);
        }
        if &bytes[0..4] != MAGIC {
            return err(StateKind::BadMagic, 0);
        }
        let version = u32_at(bytes, 4);
        if version != 1 {
            return err(StateKind::UnsupportedVersion(version), 4);
        }
        let n_raw = u32_at(bytes, 8) as i32;
        let n = graph.node_count();
        if n_raw < 0 || n_raw as usize != n {
            return err(
                StateKind::NodeCountMismatch {
                    found: n_raw,
                    expected: n,
                },
                8,
            );
        }
        let k_raw = u32_at(bytes, 12) as i32;
        if k_raw < 1 || k_raw > n_raw {
            return err(StateKind::CountOutOfRange(k_raw), 12);
        }
        let k = k_raw as usize;
        let expected = HEADER as u128 + 4 * k as u128 + 16 * (k as u128) * (n as u128);
        if len as u128 != expected {
            let offset = if len as u128 > expected {
                expected as usize
            } else {
                len
            };
            return err(
                StateKind::LengthMismatch {
                    found: len,
                    expected,
                },
                offset,
            );
        }
        let fp = u64_at(bytes, 16);
        if fp != graph.fingerprint() {
            return err(
                StateKind::FingerprintMismatch {
                    found: fp,
                    expected: graph.fingerprint(),
                },
                16,
            );
        }
        let mut ids = Vec::with_capacity(k);
        let mut seen = vec![false; n];
        for i in 0..k {
            let at = HEADER + 4 * i;
            let id = u32_at(bytes, at) as i32;
            if id < 0 || id as usize >= n {
                return err(StateKind::IndexOutOfRange(id), at);
            }
            if seen[id as usize] {
                return err(StateKind::DuplicateNode(id), at);
            }
            seen[id as usize] = true;
            ids.push(id as u32);
        }
        let base = HEADER + 4 * k;
        let stride = 2 * k;
        let mut data = vec![0.0f64; n * stride];
        for side in 0..2 {
            for l in 0..k {
                for v in 0..n {
                    let at = base + 8 * ((side * k + l) * n + v);
                    let bits = u64_at(bytes, at);
                    let x = f64::from_bits(bits);
                    if x.is_nan() || bits >> 63 != 0 {
                        return err(StateKind::BadDistance(bits), at);
                    }
                    data[v * stride + side * k + l] = x;
                }
            }
        }
        for (l, &id) in ids.iter().enumerate() {
            for side in 0..2 {
                let x = data[id as usize * stride + side * k + l];
                if x != 0.0 {
                    let at = base + 8 * ((side * k + l) * n + id as usize);
                    return err(StateKind::SelfDistance(x.to_bits()), at);
                }
            }
        }
        Ok(Landmarks {
            n,
            k,
            fingerprint: fp,
            ids,
            data,
        })
    }
}
