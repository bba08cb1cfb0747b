//! The `landmarks` section ([CONF.CHECK.LANDMARKS]): admissibility and consistency of
//! `lower_bound` against the oracle, OPLM round trips, cross-implementation byte equality, and
//! hostile OPLM bytes with the class and offset [GRAPH.OPLM.CHECKS] prescribes (a repeated
//! landmark id, [GRAPH.OPLM.DISTINCT_IDS]; a `-0.0` entry, [GRAPH.OPLM.SIGN_BIT]).

use super::{parallel_cases, Config};
use crate::generators::{directed_edges, generate, Kind};
use crate::implementation::{Implementation, OplmError};
use crate::oracle::distances;
use crate::outcome::sha256_hex;
use crate::prng::{derive_seed, SplitMix64};
use crate::report::{Failure, Section};
use crate::scenario::Case;
use indicatif::ProgressBar;

/// A hostile mutation of valid OPLM bytes and the rejection the spec prescribes.
#[derive(Clone, Debug, PartialEq)]
pub struct Mutation {
    /// What was changed.
    pub name: String,
    /// The mutated bytes.
    pub bytes: Vec<u8>,
    /// Expected class and offset.
    pub expected: OplmError,
}

/// Length of the OPLM header ([GRAPH.OPLM.LAYOUT]).
pub const HEADER: usize = 24;

fn rd32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn wr32(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

fn wr64(b: &mut [u8], at: usize, v: u64) {
    b[at..at + 8].copy_from_slice(&v.to_le_bytes());
}

/// The hostile mutations of a valid table `valid` (built on a graph of `N >= 1` nodes).
pub fn mutations(valid: &[u8], rng: &mut SplitMix64) -> Vec<Mutation> {
    let n = rd32(valid, 8) as u64;
    let k = rd32(valid, 12) as u64;
    let len = valid.len();
    let ids_at = HEADER;
    let table_at = HEADER + 4 * k as usize;
    let entries = (2 * k * n) as usize;
    let expected_len = |kk: u64| HEADER as u64 + 4 * kk + 16 * kk * n;
    let err = |class: &str, offset: usize| OplmError {
        class: class.to_string(),
        offset,
    };
    let mut out: Vec<Mutation> = Vec::new();
    let mut push = |name: String, bytes: Vec<u8>, expected: OplmError| {
        out.push(Mutation {
            name,
            bytes,
            expected,
        })
    };

    for cut in [0usize, 1, HEADER - 1] {
        push(
            format!("truncated to {cut} bytes"),
            valid[..cut].to_vec(),
            err("truncated", cut),
        );
    }
    for cut in [HEADER, table_at, len - 1] {
        if cut < len && cut >= HEADER {
            push(
                format!("truncated to {cut} bytes"),
                valid[..cut].to_vec(),
                err("length_mismatch", cut),
            );
        }
    }
    let mut b = valid.to_vec();
    b.push(0);
    push("one trailing byte".into(), b, err("length_mismatch", len));
    let mut b = valid.to_vec();
    b[rng.below(4) as usize] ^= 0x20;
    push("magic altered".into(), b, err("bad_magic", 0));
    for v in [0u32, 2, u32::MAX] {
        let mut b = valid.to_vec();
        wr32(&mut b, 4, v);
        push(format!("version {v}"), b, err("unsupported_version", 4));
    }
    for v in [n as u32 + 1, n as u32 - 1, u32::MAX] {
        let mut b = valid.to_vec();
        wr32(&mut b, 8, v);
        push(
            format!("node count {}", v as i32),
            b,
            err("node_count_mismatch", 8),
        );
    }
    for v in [0u32, n as u32 + 1, u32::MAX, i32::MAX as u32] {
        let mut b = valid.to_vec();
        wr32(&mut b, 12, v);
        push(
            format!("landmark count {}", v as i32),
            b,
            err("count_out_of_range", 12),
        );
    }
    if k >= 2 {
        let mut b = valid.to_vec();
        wr32(&mut b, 12, k as u32 - 1);
        push(
            "landmark count one less".into(),
            b,
            err("length_mismatch", expected_len(k - 1) as usize),
        );
    }
    if k >= 3 {
        // The smallest count: in range ([GRAPH.OPLM.CHECKS] accepts 1), so the length decides.
        let mut b = valid.to_vec();
        wr32(&mut b, 12, 1);
        push(
            "landmark count 1".into(),
            b,
            err("length_mismatch", expected_len(1) as usize),
        );
    }
    if k < n {
        let mut b = valid.to_vec();
        wr32(&mut b, 12, k as u32 + 1);
        push(
            "landmark count one more".into(),
            b,
            err("length_mismatch", len),
        );
    }
    let mut b = valid.to_vec();
    b[16 + rng.below(8) as usize] ^= 1 << rng.below(8);
    push(
        "fingerprint altered".into(),
        b,
        err("fingerprint_mismatch", 16),
    );
    let last = (k - 1) as usize;
    for (slot, v) in [(0usize, n as u32), (last, u32::MAX)] {
        let mut b = valid.to_vec();
        wr32(&mut b, ids_at + 4 * slot, v);
        push(
            format!("landmark id {slot} = {}", v as i32),
            b,
            err("index_out_of_range", ids_at + 4 * slot),
        );
    }
    if k >= 2 {
        let mut b = valid.to_vec();
        let first = rd32(valid, ids_at);
        wr32(&mut b, ids_at + 4 * last, first);
        push(
            "duplicate landmark id".into(),
            b,
            err("duplicate_node", ids_at + 4 * last),
        );
    }
    for (name, bits) in [
        ("NaN", f64::NAN.to_bits()),
        ("negative", (-1.5f64).to_bits()),
        ("-0.0", (-0.0f64).to_bits()),
        ("-inf", f64::NEG_INFINITY.to_bits()),
    ] {
        let e = rng.below(entries as u64) as usize;
        let mut b = valid.to_vec();
        wr64(&mut b, table_at + 8 * e, bits);
        push(
            format!("table entry {e} = {name}"),
            b,
            err("bad_distance", table_at + 8 * e),
        );
    }
    let l = rng.below(k) as usize;
    let id = rd32(valid, ids_at + 4 * l) as usize;
    for (side, value) in [(0usize, 1.0f64), (1, f64::INFINITY)] {
        let e = side * (k * n) as usize + l * n as usize + id;
        let mut b = valid.to_vec();
        wr64(&mut b, table_at + 8 * e, value.to_bits());
        let which = if side == 0 { "forward" } else { "backward" };
        push(
            format!("{which} self distance of landmark {l} = {value}"),
            b,
            err("self_distance", table_at + 8 * e),
        );
    }
    out
}

/// The out-of-range `lower_bound` pairs asked after the in-range ones for a graph of `n` nodes
/// ([GRAPH.ALT.ACCESSORS]: `+0.0` when `u` or `v` is out of range): `(n, 0)`, `(0, n)` and
/// `(2^32 - 1, 2^32 - 1)`.
pub fn out_of_range_pairs(n: u32) -> [(u32, u32); 3] {
    [(n, 0), (0, n), (u32::MAX, u32::MAX)]
}

/// The first out-of-range pair whose bound bits differ from the reference's (a missing bound
/// counts as a difference): `(what, expected, found)`.
fn outside_difference(
    pairs: &[(u32, u32)],
    reference: &[u64],
    found: &[u64],
) -> Option<(String, String, String)> {
    let word = |b: Option<&u64>| b.map_or("no bound".to_string(), |b| format!("{b:016x}"));
    pairs.iter().enumerate().find_map(|(k, &(u, v))| {
        (reference.get(k) != found.get(k)).then(|| {
            (
                format!("lower_bound({u}, {v}) out of range [GRAPH.ALT.ACCESSORS]"),
                word(reference.get(k)),
                word(found.get(k)),
            )
        })
    })
}

/// The integer-weight graph of landmark case `index`.
pub fn landmark_case(base: u64, index: usize) -> (String, Case, Vec<(u32, u32, f64)>) {
    let seed = derive_seed(base ^ 0x1A4D, index as u64);
    let kind = [Kind::Sparse, Kind::Dense, Kind::Grid][index % 3];
    let size = SplitMix64::new(seed).range(2, 40) as usize;
    let g = generate(kind, seed, size, 0);
    let edges = directed_edges(&g.case.graph).expect("edges graph");
    (format!("{}#{seed}", kind.name()), g.case, edges)
}

/// Runs the section.
pub fn run(
    all: &[&dyn Implementation],
    config: &Config,
    progress: Option<&ProgressBar>,
) -> Section {
    let mut sections = parallel_cases(
        config,
        config.landmark_graphs,
        &["landmarks"],
        |i, sections| {
            let s = &mut sections[0];
            let (name, case, edges) = landmark_case(config.seed, i);
            let n = case.graph.node_count();
            let truth: Vec<Vec<f64>> = (0..n as u32).map(|u| distances(n, &edges, u)).collect();
            let mut pairs: Vec<(u32, u32)> = (0..n as u32)
                .flat_map(|u| (0..n as u32).map(move |v| (u, v)))
                .collect();
            // [GRAPH.ALT.ACCESSORS] out-of-range pairs after the n * n in-range ones: each
            // candidate's bits must equal the reference's.
            pairs.extend(out_of_range_pairs(n as u32));
            let fail =
                |imp: &dyn Implementation, what: &str, expected: String, found: String| Failure {
                    case: Some(name.clone()),
                    implementation: imp.name().to_string(),
                    what: what.to_string(),
                    expected,
                    found,
                    ..Default::default()
                };
            let mut reference_bytes: Option<Vec<u8>> = None;
            let mut reference_outside: Option<Vec<u64>> = None;
            for (which, imp) in all.iter().enumerate() {
                let bytes = match imp.build_landmarks(&case) {
                    Ok(b) => b,
                    Err(class) => {
                        s.fail(fail(
                            *imp,
                            "build_landmarks",
                            "a table".into(),
                            format!("error {class}"),
                        ));
                        continue;
                    }
                };
                // Byte equality with the reference's table.
                if which == 0 {
                    reference_bytes = Some(bytes.clone());
                } else if let Some(r) = &reference_bytes {
                    s.record(
                        (r != &bytes)
                            .then(|| fail(*imp, "OPLM bytes", sha256_hex(r), sha256_hex(&bytes))),
                    );
                }
                // Admissibility and consistency.
                match imp.lower_bounds(&case, &pairs) {
                    Err(class) => s.fail(fail(
                        *imp,
                        "lower_bounds",
                        "bounds".into(),
                        format!("error {class}"),
                    )),
                    Ok(lb) => {
                        let outside: Vec<u64> =
                            lb.iter().skip(n * n).map(|b| b.to_bits()).collect();
                        if which == 0 {
                            reference_outside = Some(outside);
                        } else if let Some(r) = &reference_outside {
                            s.record(
                                outside_difference(&pairs[n * n..], r, &outside).map(
                                    |(what, expected, found)| fail(*imp, &what, expected, found),
                                ),
                            );
                        }
                        let at = |u: u32, v: u32| lb[u as usize * n + v as usize];
                        let bad = pairs[..n * n]
                            .iter()
                            .find(|&&(u, v)| !(at(u, v) <= truth[u as usize][v as usize]));
                        s.record(bad.map(|&(u, v)| {
                            fail(
                                *imp,
                                &format!("lower_bound({u}, {v}) <= d"),
                                format!("<= {:?}", truth[u as usize][v as usize]),
                                format!("{:?}", at(u, v)),
                            )
                        }));
                        let mut rng = SplitMix64::new(i as u64);
                        let targets: Vec<u32> =
                            (0..5).map(|_| rng.below(n as u64) as u32).collect();
                        let bad = edges
                            .iter()
                            .flat_map(|e| targets.iter().map(move |&t| (*e, t)))
                            .find(|&((u, v, w), t)| !(at(u, t) <= w + at(v, t)));
                        s.record(bad.map(|((u, v, w), t)| {
                            fail(
                                *imp,
                                &format!("consistency lb({u},{t}) <= w({u},{v}) + lb({v},{t})"),
                                format!("<= {:?}", w + at(v, t)),
                                format!("{:?}", at(u, t)),
                            )
                        }));
                    }
                }
                // Round trip.
                let again = imp.deserialize_oplm(&case, &bytes);
                s.record(match again {
                    Ok(b) if b == bytes => None,
                    Ok(b) => Some(fail(
                        *imp,
                        "OPLM round trip",
                        sha256_hex(&bytes),
                        sha256_hex(&b),
                    )),
                    Err(e) => Some(fail(
                        *imp,
                        "OPLM round trip",
                        "accepted".into(),
                        format!("{} at {}", e.class, e.offset),
                    )),
                });
                // Hostile bytes, mutated from the reference's table with the same draws for every
                // implementation: a candidate's own table may be anything a port sends (a wrong
                // table fails "OPLM bytes" above), and mutating it would read it as valid.
                let Some(base) = reference_bytes.as_deref() else {
                    continue;
                };
                let mut rng = SplitMix64::new(derive_seed(config.seed, i as u64));
                for m in mutations(base, &mut rng) {
                    let got = imp.deserialize_oplm(&case, &m.bytes);
                    let problem = match got {
                        Err(e) if e == m.expected => None,
                        Err(e) => Some(format!("{} at {}", e.class, e.offset)),
                        Ok(_) => Some("accepted".to_string()),
                    };
                    s.record(problem.map(|found| {
                        fail(
                            *imp,
                            &format!("hostile OPLM ({})", m.name),
                            format!("{} at {}", m.expected.class, m.expected.offset),
                            found,
                        )
                    }));
                }
            }
            if let Some(p) = progress {
                p.inc(1);
            }
        },
    );
    sections.remove(0)
}
