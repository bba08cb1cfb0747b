//! Shared helpers of the fuzz targets (`fuzz/`), the proptest properties
//! (`conformance/tests/proptest_*.rs`) and the regression replay test
//! (`conformance/tests/fuzz_regressions.rs`).
//!
//! Every target is one function `fn(&[u8]) -> Result<(), String>` in [`TARGETS`]: the bytes are
//! decoded with `arbitrary::Unstructured` into a small, bounded input (a graph, points, a byte
//! string to restore), run through `onepath-reference` and `onepath`, and any difference (or a
//! broken invariant) is returned as `Err` with the [`first_difference`] text. The fuzz targets
//! panic with that text ([`fuzz`]); the replay test and the proptest properties assert `Ok`.
//! A panic inside either crate propagates (libFuzzer reports it as a crash).
//!
//! Graph, landmark and link comparisons go through the [`Implementation`] trait and the one
//! adapter body of `adapters.rs`; the state targets drive the crates' state API directly through
//! one `macro_rules!` body instantiated for both crates (module [`state_hosts`]).

use crate::adapters::{OptimizedCrate, ReferenceCrate};
use crate::checks::generated::applicable;
use crate::generators::directed_edges;
use crate::implementation::{
    BlockedRule, CostRule, HeuristicRule, HookSpec, HookedQuery, Implementation, LinkRequest,
    LinkResult, LinkRule, OplmError, RunOptions,
};
use crate::links_bf;
use crate::oracle::distances;
use crate::outcome::{first_difference, AlgorithmCode, Outcome, StatusCode};
use crate::scenario::{Case, GraphSpec, LandmarkSpec, Query, StrategySpec};
use arbitrary::Unstructured;

/// The function of a fuzz target: `Err` is a divergence or a broken invariant.
pub type TargetFn = fn(&[u8]) -> Result<(), String>;

/// A search's continuation after `run(None)`:
/// `(status, iterations, expanded, cost bits, path, expansions, save)`.
pub type Resumed = (u8, u64, u64, u64, Vec<u32>, Vec<u32>, Vec<u8>);

/// The fuzz targets, by name, with the function each runs (the replay test walks
/// `fuzz/regressions/<name>/` and calls the function on every file).
pub const TARGETS: &[(&str, TargetFn)] = &[
    ("graph_query", graph_query),
    ("graph_landmarks", graph_landmarks),
    ("graph_points", graph_points),
    ("state_restore_graph", state_restore_graph),
    ("state_restore_graph_astar", state_restore_graph_astar),
    ("state_restore_grid", state_restore_grid),
    ("state_restore_hex", state_restore_hex),
    ("state_restore_voxel", state_restore_voxel),
    ("grid_search", crate::fuzzing_grid::grid_search),
    (
        "state_restore_grid_search",
        crate::fuzzing_grid::state_restore_grid_search,
    ),
];

/// The function of a target name.
pub fn target(name: &str) -> Option<TargetFn> {
    TARGETS.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// What a fuzz target calls: runs the target and panics with the divergence text.
pub fn fuzz(name: &str, data: &[u8]) {
    let f = target(name).unwrap_or_else(|| panic!("unknown fuzz target {name}"));
    if let Err(e) = f(data) {
        panic!("{name}: {e}");
    }
}

type U<'a> = Unstructured<'a>;
type Res<T> = arbitrary::Result<T>;

const REF: ReferenceCrate = ReferenceCrate;
const OPT: OptimizedCrate = OptimizedCrate;

fn pick<T: Copy>(u: &mut U, items: &[T]) -> Res<T> {
    Ok(*u.choose(items)?)
}

fn small(u: &mut U, lo: u32, hi: u32) -> Res<u32> {
    u.int_in_range(lo..=hi)
}

/// Edge weights: zero, fractional, large, the largest finite double, `-0.0` (accepted) and,
/// at the end, values every constructor rejects.
pub const WEIGHTS: [f64; 19] = [
    0.0,
    1.0,
    2.0,
    3.0,
    5.0,
    0.5,
    0.1,
    0.25,
    1.0 / 3.0,
    7.5,
    1e-300,
    1e9,
    4_503_599_627_370_496.0,
    1e300,
    f64::MAX,
    -0.0,
    f64::NAN,
    -1.0,
    f64::INFINITY,
];

fn weight(u: &mut U) -> Res<f64> {
    // The three invalid weights are drawn 1 time in 64.
    let b = u.arbitrary::<u8>()?;
    Ok(if b < 4 {
        WEIGHTS[16 + (b as usize % 3)]
    } else {
        WEIGHTS[b as usize % 16]
    })
}

/// A node id of an `n`-node graph, out of range when the byte is 255.
fn node(u: &mut U, n: u32) -> Res<u32> {
    let b = u.arbitrary::<u8>()?;
    Ok(if b == 255 || n == 0 {
        n + (b as u32 % 3)
    } else {
        b as u32 % n
    })
}

fn coordinate_small(u: &mut U) -> Res<f64> {
    Ok(match small(u, 0, 3)? {
        0 | 1 => small(u, 0, 6)? as f64,
        2 => u.int_in_range(-4000i32..=4000)? as f64 / 16.0,
        _ => u.int_in_range(-1_000_000i32..=1_000_000)? as f64 / 7.0,
    })
}

fn landmark_spec(u: &mut U) -> Res<LandmarkSpec> {
    let count = if u.ratio(1, 16)? { 0 } else { small(u, 1, 5)? };
    let strategy = if u.arbitrary()? {
        StrategySpec::Avoid
    } else {
        StrategySpec::Farthest
    };
    Ok(LandmarkSpec {
        count,
        strategy,
        seed: u.arbitrary::<u8>()? as u64,
    })
}

fn edges_graph(
    u: &mut U,
    max_nodes: u32,
    max_edges: u32,
    w: &mut dyn FnMut(&mut U) -> Res<f64>,
) -> Res<GraphSpec> {
    let n = small(u, 0, max_nodes)?;
    let directed = u.arbitrary()?;
    let m = if n == 0 { 0 } else { small(u, 0, max_edges)? };
    let mut edges = Vec::with_capacity(m as usize);
    for _ in 0..m {
        edges.push((node(u, n)?, node(u, n)?, w(u)?));
    }
    let positions = if u.arbitrary()? {
        Some(
            (0..n)
                .map(|_| Ok([coordinate_small(u)?, coordinate_small(u)?, 0.0]))
                .collect::<Res<Vec<_>>>()?,
        )
    } else {
        None
    };
    Ok(GraphSpec::Edges {
        node_count: n,
        directed,
        edges,
        positions,
    })
}

fn points_graph(u: &mut U) -> Res<GraphSpec> {
    let n = small(u, 0, 12)?;
    let points = (0..n)
        .map(|_| Ok([coordinate_small(u)?, coordinate_small(u)?, 0.0]))
        .collect::<Res<Vec<_>>>()?;
    let max_distance = pick(u, &[0.0, 1.0, 1.5, 2.5, 5.0, 40.0])?;
    let nearest_count = small(u, 0, 3)?;
    let explicit = (0..small(u, 0, 3)?)
        .map(|_| Ok([node(u, n)?, node(u, n)?]))
        .collect::<Res<Vec<_>>>()?;
    Ok(GraphSpec::Points {
        points,
        explicit,
        max_distance,
        nearest_count,
    })
}

fn cost_rule(u: &mut U) -> Res<CostRule> {
    let m = small(u, 1, 5)?;
    Ok(match small(u, 0, 6)? {
        0 => CostRule::Scale {
            num: small(u, 0, 4)?,
            den: small(u, 1, 3)?,
        },
        1 => CostRule::AddConst(pick(u, &[0.0, 0.5, 1.0, -0.5, -1e300, 1e300, -0.0])?),
        2 => CostRule::NanWhere(m),
        3 => CostRule::NegativeWhere(m),
        4 => CostRule::NegativeZeroWhere(m),
        5 => CostRule::InfinityWhere(m),
        _ => CostRule::MaxWhere(m),
    })
}

fn heuristic_rule(u: &mut U) -> Res<HeuristicRule> {
    let m = small(u, 1, 5)?;
    Ok(match small(u, 0, 3)? {
        0 => HeuristicRule::Mod {
            mul: small(u, 0, 9)?,
            modulus: small(u, 1, 7)?,
        },
        1 => HeuristicRule::InfinityWhere {
            m,
            r: small(u, 0, m - 1)?,
        },
        2 => HeuristicRule::NanWhere(m),
        _ => HeuristicRule::NegativeWhere(m),
    })
}

/// The decoded input of `graph_query`.
#[derive(Clone, Debug)]
pub struct QueryInput {
    /// Graph and landmark options.
    pub case: Case,
    /// Queries (some may name nodes outside the graph).
    pub queries: Vec<Query>,
    /// Budget and recording of the tier-1 runs.
    pub opts: RunOptions,
    /// Hooked tier-1 queries.
    pub hooked: Vec<HookedQuery>,
    /// A step schedule for the sliced comparison (never empty, never 0).
    pub budgets: Vec<u64>,
}

/// Decodes a `graph_query` input.
pub fn decode_query(data: &[u8]) -> Res<QueryInput> {
    let mut u = Unstructured::new(data);
    let u = &mut u;
    let graph = if u.ratio(1, 5)? {
        points_graph(u)?
    } else {
        edges_graph(u, 14, 40, &mut weight)?
    };
    let n = graph.node_count() as u32;
    let case = Case {
        graph,
        landmarks: landmark_spec(u)?,
    };
    let queries = (0..small(u, 1, 4)?)
        .map(|_| Ok((node(u, n)?, node(u, n)?)))
        .collect::<Res<Vec<_>>>()?;
    let opts = RunOptions {
        iteration_budget: if u.ratio(2, 3)? {
            0
        } else {
            small(u, 1, 20)? as u64
        },
        record_expansions: !u.ratio(1, 4)?,
    };
    let mut hooked = Vec::new();
    for _ in 0..small(u, 0, 3)? {
        let algorithm = pick(
            u,
            &[
                AlgorithmCode::Dijkstra,
                AlgorithmCode::Astar,
                AlgorithmCode::BidirectionalDijkstra,
                AlgorithmCode::BidirectionalAstar,
            ],
        )?;
        let hooks = HookSpec {
            cost: if u.arbitrary()? {
                Some(cost_rule(u)?)
            } else {
                None
            },
            blocked: if u.arbitrary()? {
                let modulus = small(u, 1, 5)?;
                Some(BlockedRule {
                    modulus,
                    residue: small(u, 0, modulus)?,
                })
            } else {
                None
            },
            heuristic: if u.arbitrary()? {
                Some(heuristic_rule(u)?)
            } else {
                None
            },
        };
        hooked.push(HookedQuery {
            algorithm,
            landmarks: u.arbitrary()?,
            builtin_estimate: u.arbitrary()?,
            hooks,
            query: pick(u, &queries)?,
            opts: RunOptions {
                iteration_budget: if u.ratio(3, 4)? {
                    0
                } else {
                    small(u, 1, 12)? as u64
                },
                record_expansions: u.arbitrary()?,
            },
        });
    }
    let budgets = (0..small(u, 1, 4)?)
        .map(|_| Ok(small(u, 1, 9)? as u64))
        .collect::<Res<Vec<_>>>()?;
    Ok(QueryInput {
        case,
        queries,
        opts,
        hooked,
        budgets,
    })
}

/// `graph_query`: decode and [`check_query`]. Inputs too short to decode are accepted.
pub fn graph_query(data: &[u8]) -> Result<(), String> {
    match decode_query(data) {
        Ok(input) => check_query(&input),
        Err(_) => Ok(()),
    }
}

fn outcome_diff(what: &str, expected: &Outcome, found: &Outcome) -> Result<(), String> {
    match first_difference(expected, found) {
        Some(d) => Err(format!("{what}: {d}")),
        None => Ok(()),
    }
}

/// The differential of `graph_query`: tier-1 outcomes of every applicable variant, hooked runs
/// (outcome and hook log), sliced runs (`step` schedule = `run(None)` = tier 1), identical in
/// both crates; a budgeted tier-1 run is a prefix of the unbudgeted one.
pub fn check_query(input: &QueryInput) -> Result<(), String> {
    let case = &input.case;
    let variants = applicable(case);
    let r = REF.run_case(case, &variants, &input.queries, input.opts);
    let o = OPT.run_case(case, &variants, &input.queries, input.opts);
    let full = if input.opts == RunOptions::MATRIX {
        r.clone()
    } else {
        REF.run_case(case, &variants, &input.queries, RunOptions::MATRIX)
    };
    for (vi, &variant) in variants.iter().enumerate() {
        for (qi, &query) in input.queries.iter().enumerate() {
            let at = format!(
                "variant {} query {qi} {query:?} opts {:?}",
                variant.name(),
                input.opts
            );
            outcome_diff(
                &format!("run_case {at}: reference vs onepath"),
                &r[vi][qi],
                &o[vi][qi],
            )?;
            // A budgeted run stops at the budget with a prefix of the full expansion list.
            if let (Outcome::Path(b), Outcome::Path(f)) = (&r[vi][qi], &full[vi][qi]) {
                if b.status == StatusCode::BudgetExhausted {
                    let ok = b.iterations == input.opts.iteration_budget
                        && b.nodes.is_empty()
                        && b.cost == f64::INFINITY
                        && (!input.opts.record_expansions || f.expanded.starts_with(&b.expanded));
                    if !ok {
                        return Err(format!("run_case {at}: budgeted run is not a prefix of the full run: {b:?} vs {f:?}"));
                    }
                } else if input.opts.record_expansions {
                    outcome_diff(
                        &format!(
                            "run_case {at}: budget not reached yet differs from the unbudgeted run"
                        ),
                        &full[vi][qi],
                        &r[vi][qi],
                    )?;
                }
            }
            // Sliced runs: run(None) and the fuzzed step schedule equal tier 1 (recording on).
            let tier1 = &full[vi][qi];
            for imp in [&REF as &dyn Implementation, &OPT] {
                let whole = imp.run_sliced(case, variant, query, &[]);
                let sliced = imp.run_sliced(case, variant, query, &input.budgets);
                outcome_diff(
                    &format!(
                        "{} sliced {at} budgets {:?} vs run(None)",
                        imp.name(),
                        input.budgets
                    ),
                    &whole,
                    &sliced,
                )?;
                if let Outcome::Path(_) = tier1 {
                    outcome_diff(
                        &format!("{} run(None) {at} vs tier 1", imp.name()),
                        tier1,
                        &whole,
                    )?;
                }
            }
        }
    }
    for (i, q) in input.hooked.iter().enumerate() {
        let a = REF.run_hooked(case, q);
        let b = OPT.run_hooked(case, q);
        outcome_diff(
            &format!("hooked query {i} {q:?}: reference vs onepath"),
            &a.outcome,
            &b.outcome,
        )?;
        if let Some(k) =
            (0..a.calls.len().max(b.calls.len())).find(|&k| a.calls.get(k) != b.calls.get(k))
        {
            let show = |c: Option<&crate::implementation::HookCall>| {
                c.map_or("end of log".to_string(), |c| c.to_string())
            };
            return Err(format!(
                "hooked query {i} {q:?}: hook call {k}: expected {}, found {}",
                show(a.calls.get(k)),
                show(b.calls.get(k))
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
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
pub fn graph_landmarks(data: &[u8]) -> Result<(), String> {
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
pub fn check_landmarks(input: &LandmarkInput) -> Result<(), String> {
    let case = &input.case;
    let (a, b) = (REF.build_landmarks(case), OPT.build_landmarks(case));
    let valid = match (&a, &b) {
        (Ok(x), Ok(y)) if x == y => x.clone(),
        (Err(x), Err(y)) if x == y => return Ok(()),
        _ => {
            let t = |r: &Result<Vec<u8>, String>| match r {
                Ok(b) => format!("{} bytes sha256 {}", b.len(), crate::outcome::sha256_hex(b)),
                Err(c) => format!("error {c}"),
            };
            return Err(format!(
                "build_landmarks: expected {}, found {}",
                t(&a),
                t(&b)
            ));
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
        (x, y) => return Err(format!("lower_bounds: {x:?} / {y:?}")),
    };
    for (i, &(u, v)) in pairs.iter().enumerate() {
        if lr[i].to_bits() != lo[i].to_bits() {
            return Err(format!(
                "lower_bound({u}, {v}) bits: expected {:?}, found {:?}",
                lr[i], lo[i]
            ));
        }
        if (u >= n || v >= n) && lr[i].to_bits() != 0 {
            return Err(format!(
                "lower_bound({u}, {v}) out of range: expected +0.0, found {:?}",
                lr[i]
            ));
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
                    return Err(format!(
                        "lower_bound({u}, {v}) = {:?} exceeds d = {:?}",
                        at(u, v),
                        truth[u as usize][v as usize]
                    ));
                }
            }
        }
        for &(u, v, w) in &edges {
            for t in 0..n {
                if !(at(u, t) <= w + at(v, t)) {
                    return Err(format!("inconsistent: lb({u},{t}) = {:?} > w({u},{v}) = {w:?} + lb({v},{t}) = {:?}", at(u, t), at(v, t)));
                }
            }
        }
    }
    for imp in [&REF as &dyn Implementation, &OPT] {
        match imp.deserialize_oplm(case, &valid) {
            Ok(again) if again == valid => {}
            other => {
                return Err(format!(
                    "{} OPLM round trip: {}",
                    imp.name(),
                    oplm_text(&other)
                ))
            }
        }
    }
    let bytes = input.hostile.apply(&valid);
    let (x, y) = (
        REF.deserialize_oplm(case, &bytes),
        OPT.deserialize_oplm(case, &bytes),
    );
    if x != y {
        return Err(format!(
            "hostile OPLM ({} bytes): expected {}, found {}",
            bytes.len(),
            oplm_text(&x),
            oplm_text(&y)
        ));
    }
    if let Ok(again) = &x {
        if *again != bytes {
            return Err(format!(
                "accepted hostile OPLM does not round-trip: {}",
                oplm_text(&x)
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// graph_points

/// The decoded input of `graph_points`.
#[derive(Clone, Debug)]
pub struct PointsInput {
    /// The request (with or without a rule).
    pub request: LinkRequest,
    /// A permutation of the points (for the stability check).
    pub permutation: Vec<u32>,
}

const LIMIT: f64 = 2_097_152.0; // 2^21

fn coordinate_points(u: &mut U, grid: bool, earlier: &[[f64; 3]], axis: usize) -> Res<f64> {
    if !earlier.is_empty() && u.ratio(1, 8)? {
        return Ok(earlier[u.choose_index(earlier.len())?][axis]);
    }
    if grid {
        return Ok(small(u, 0, 4)? as f64 * pick(u, &[1.0, 2.0, 0.5])?);
    }
    Ok(match small(u, 0, 7)? {
        0 => pick(
            u,
            &[
                LIMIT,
                -LIMIT,
                LIMIT - 0.5,
                -LIMIT + 1.0,
                LIMIT - 1.0,
                0.0,
                -0.0,
            ],
        )?,
        1 => LIMIT - small(u, 0, 8)? as f64,
        2 => -LIMIT + small(u, 0, 8)? as f64 * 0.25,
        3 => small(u, 0, 1 << 20)? as f64 * 2f64.powi(-30),
        // Faults: beyond 2^21, NaN, infinity (rare).
        4 if u.ratio(1, 8)? => pick(u, &[LIMIT + 1.0, f64::NAN, f64::INFINITY, -LIMIT - 0.5])?,
        _ => u.int_in_range(-100_000i32..=100_000)? as f64 / 64.0,
    })
}

/// Decodes a `graph_points` input.
pub fn decode_points(data: &[u8]) -> Res<PointsInput> {
    let mut u = Unstructured::new(data);
    let u = &mut u;
    let n = small(u, 0, 20)?;
    let grid = u.ratio(1, 3)?;
    let three_d = u.ratio(1, 4)?;
    let mut points: Vec<[f64; 3]> = Vec::with_capacity(n as usize);
    for _ in 0..n {
        if !points.is_empty() && u.ratio(1, 10)? {
            let p = points[u.choose_index(points.len())?];
            points.push(p);
            continue;
        }
        let x = coordinate_points(u, grid, &points, 0)?;
        let y = coordinate_points(u, grid, &points, 1)?;
        let z = if three_d {
            coordinate_points(u, grid, &points, 2)?
        } else {
            0.0
        };
        points.push([x, y, z]);
    }
    let tiny = 2f64.powi(-30);
    let max_distance = pick(
        u,
        &[
            0.0,
            0.0,
            tiny,
            tiny * (1.0 + f64::EPSILON),
            1.0,
            1.5,
            2.0,
            2.5,
            5.0,
            1e-3,
            LIMIT,
            8.0 * LIMIT,
            tiny * (1.0 - f64::EPSILON / 2.0),
            -1.0,
            f64::NAN,
            f64::INFINITY,
        ],
    )?;
    let nearest_count = if u.arbitrary()? { 0 } else { small(u, 1, 6)? };
    let explicit = (0..small(u, 0, 6)?)
        .map(|_| Ok([node(u, n)?, node(u, n)?]))
        .collect::<Res<Vec<_>>>()?;
    let rule = if u.ratio(2, 5)? {
        Some(LinkRule::RejectIndexSumMultipleOf(small(u, 1, 6)?))
    } else {
        None
    };
    let mut permutation: Vec<u32> = (0..n).collect();
    for i in (1..permutation.len()).rev() {
        let j = u.int_in_range(0..=i)?;
        permutation.swap(i, j);
    }
    Ok(PointsInput {
        request: LinkRequest {
            points,
            explicit,
            max_distance,
            nearest_count,
            rule,
        },
        permutation,
    })
}

/// `graph_points`: decode and [`check_points`].
pub fn graph_points(data: &[u8]) -> Result<(), String> {
    match decode_points(data) {
        Ok(input) => check_points(&input),
        Err(_) => Ok(()),
    }
}

/// The first difference between two link results (CSR slot, then `link_valid` call).
pub fn link_difference(a: &LinkResult, b: &LinkResult) -> Option<String> {
    let show = |e: Option<&(u32, u32, f64)>| match e {
        Some(e) => format!(
            "{} -> {} weight {:?} (bits {:016x})",
            e.0,
            e.1,
            e.2,
            e.2.to_bits()
        ),
        None => "end of list".into(),
    };
    for i in 0..a.edges.len().max(b.edges.len()) {
        let (x, y) = (a.edges.get(i), b.edges.get(i));
        let same = matches!((x, y), (Some(x), Some(y)) if x.0 == y.0 && x.1 == y.1 && x.2.to_bits() == y.2.to_bits());
        if !same {
            return Some(format!(
                "CSR edge slot {i}: expected {}, found {}",
                show(x),
                show(y)
            ));
        }
    }
    for i in 0..a.calls.len().max(b.calls.len()) {
        if a.calls.get(i) != b.calls.get(i) {
            return Some(format!(
                "link_valid call {i}: expected {:?}, found {:?}",
                a.calls.get(i),
                b.calls.get(i)
            ));
        }
    }
    None
}

fn position_pairs(req: &LinkRequest, result: &LinkResult) -> Vec<[u64; 6]> {
    let key = |p: [f64; 3]| [p[0].to_bits(), p[1].to_bits(), p[2].to_bits()];
    let mut pairs: Vec<[u64; 6]> = result
        .edges
        .iter()
        .map(|&(a, b, _)| {
            let (kp, kq) = (key(req.points[a as usize]), key(req.points[b as usize]));
            let (lo, hi) = if kp <= kq { (kp, kq) } else { (kq, kp) };
            [lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]]
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// The link invariants: both crates build the same CSR (bit for bit) and `link_valid` calls, or
/// fail with the same class and index; an accepted request equals the brute-force builder; without
/// a rule (and, in nearest modes, without distance ties or `-0.0`/`+0.0` mixes) permuting the
/// points leaves the links, as position pairs, unchanged.
pub fn check_points(input: &PointsInput) -> Result<(), String> {
    let req = &input.request;
    let (a, b) = (REF.build_links(req), OPT.build_links(req));
    let got = match (&a, &b) {
        (Ok(x), Ok(y)) => {
            if let Some(d) = link_difference(x, y) {
                return Err(format!("build_links reference vs onepath: {d}"));
            }
            x
        }
        (Err(x), Err(y)) if x == y => return Ok(()),
        (x, y) => {
            let t = |r: &Result<LinkResult, crate::implementation::BuildFailure>| match r {
                Ok(l) => format!("{} edges", l.edges.len()),
                Err(f) => f.to_string(),
            };
            return Err(format!("build_links: expected {}, found {}", t(x), t(y)));
        }
    };
    let expected = links_bf::build_links(req);
    if let Some(d) = link_difference(&expected, got) {
        return Err(format!("build_links vs brute force: {d}"));
    }
    // Permutation stability.
    if input.permutation.len() != req.points.len() {
        return Ok(());
    }
    let signed_zero = req
        .points
        .iter()
        .flatten()
        .any(|c| *c == 0.0 && c.is_sign_negative());
    let applies =
        req.nearest_count == 0 || (!links_bf::has_distance_ties(&req.points) && !signed_zero);
    if !applies {
        return Ok(());
    }
    let perm = &input.permutation;
    let mut inverse = vec![0u32; perm.len()];
    for (j, &p) in perm.iter().enumerate() {
        inverse[p as usize] = j as u32;
    }
    let remap = |i: u32| inverse.get(i as usize).copied().unwrap_or(i);
    let unruled = LinkRequest {
        rule: None,
        ..req.clone()
    };
    let shuffled = LinkRequest {
        points: perm.iter().map(|&p| req.points[p as usize]).collect(),
        explicit: req
            .explicit
            .iter()
            .map(|l| [remap(l[0]), remap(l[1])])
            .collect(),
        rule: None,
        ..req.clone()
    };
    for imp in [&REF as &dyn Implementation, &OPT] {
        match (imp.build_links(&unruled), imp.build_links(&shuffled)) {
            (Ok(x), Ok(y)) => {
                let (px, py) = (position_pairs(&unruled, &x), position_pairs(&shuffled, &y));
                if px != py {
                    return Err(format!(
                        "{}: permutation {perm:?} changes the links: {} position pairs before, {} after",
                        imp.name(),
                        px.len(),
                        py.len()
                    ));
                }
            }
            (x, y) => {
                return Err(format!(
                    "{}: permuted build: {:?} / {:?}",
                    imp.name(),
                    x.err(),
                    y.err()
                ))
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// state targets

/// What one crate did with one restore into a host object.
#[derive(Clone, Debug, PartialEq)]
pub struct Restored {
    /// The host's save before the restore.
    pub before: Vec<u8>,
    /// The restore: `Ok` or `(class, offset)`.
    pub result: Result<(), (String, usize)>,
    /// The host's save after the restore.
    pub after: Vec<u8>,
    /// The save of a newly created host (for a search: the NotStarted bytes).
    pub fresh: Vec<u8>,
    /// Listener calls `(index, old, new)` during the restore (grids).
    pub listener: Vec<(u32, u8, u8)>,
    /// For a restored search, the continuation after `run(None)`:
    /// `(status, iterations, expanded, cost bits, path, expansions, save)`.
    pub resumed: Option<Resumed>,
    /// `from_state(bytes)` (kinds 1-4): the new object's save, or `(class, offset)`.
    pub from_state: Option<Result<Vec<u8>, (String, usize)>>,
    /// For an accepted graph of at most 64 nodes: a Dijkstra query `0 -> N-1` after the restore
    /// `(status, cost bits, path, iterations)`.
    pub query: Option<(u8, u64, Vec<u32>, u64)>,
}

/// The state kinds the state targets fuzz.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// Kind 1.
    Grid,
    /// Kind 2.
    HexGrid,
    /// Kind 3.
    VoxelGrid,
    /// Kind 4.
    Graph,
    /// Kind 11.
    GraphAStar,
}

impl StateKind {
    /// The fuzz target of the kind.
    pub fn target(self) -> &'static str {
        match self {
            StateKind::Grid => "state_restore_grid",
            StateKind::HexGrid => "state_restore_hex",
            StateKind::VoxelGrid => "state_restore_voxel",
            StateKind::Graph => "state_restore_graph",
            StateKind::GraphAStar => "state_restore_graph_astar",
        }
    }

    /// All five.
    pub const ALL: [StateKind; 5] = [
        StateKind::Grid,
        StateKind::HexGrid,
        StateKind::VoxelGrid,
        StateKind::Graph,
        StateKind::GraphAStar,
    ];
}

/// A small deterministic host graph for searches: `n` nodes, a spine, extra edges with weights
/// 0..9 and a few fractional ones; node `n - 1` has no in-edges (unreachable goal).
pub fn host_edges(n: u32) -> Vec<(u32, u32, f64)> {
    let mut r = crate::prng::SplitMix64::new(0x57A7E);
    let mut edges = Vec::new();
    for v in 1..n - 1 {
        edges.push((r.below(v as u64) as u32, v, r.below(10) as f64));
    }
    for _ in 0..2 * n {
        let (a, b) = (r.below(n as u64) as u32, r.below(n as u64 - 1) as u32);
        let w = if r.chance(0.2) {
            r.below(40) as f64 / 4.0
        } else {
            r.below(10) as f64
        };
        edges.push((a, b, w));
    }
    edges
}

/// Number of nodes of the search host.
pub const SEARCH_NODES: u32 = 12;

macro_rules! state_host {
    ($module:ident, $krate:ident) => {
        /// State hosts and seed histories for one crate.
        pub mod $module {
            use super::{host_edges, Restored, StateKind, SEARCH_NODES};
            use ::$krate as op;
            use std::sync::{Arc, Mutex};

            /// An inconsistent but deterministic estimate (exercises reopening).
            pub struct Estimate;
            impl op::GraphHeuristic for Estimate {
                fn estimate(&self, from: u32, to: u32) -> f64 {
                    ((from as u64 * 3 + to as u64) % 4) as f64
                }
            }

            type Log = Arc<Mutex<Vec<(u32, u8, u8)>>>;
            fn listener(log: &Log) -> op::CellListener {
                let log = log.clone();
                Box::new(move |i: u32, a: u8, b: u8| {
                    log.lock().expect("listener log").push((i, a, b))
                })
            }

            fn grid() -> op::Grid {
                let mut g = op::Grid::new(7, 5).expect("host grid");
                g.set_space(op::GridSpace {
                    origin_x: 1.5,
                    origin_y: -2.0,
                    cell_size: 0.5,
                })
                .expect("space");
                g.set_area_multiplier(3, 2.5).expect("multiplier");
                for (i, a) in [(0usize, 0u8), (8, 255), (13, 3), (34, 7)] {
                    g.set_cell(i % 7, i / 7, a).expect("cell");
                }
                g
            }

            fn hex() -> op::HexGrid {
                let mut g = op::HexGrid::new(5, 4, op::HexLayout::EvenQ).expect("host hex");
                g.set_area_multiplier(9, 0.75).expect("multiplier");
                for (i, a) in [(1usize, 255u8), (6, 9), (19, 0)] {
                    g.set_cell(i % 5, i / 5, a).expect("cell");
                }
                g
            }

            fn voxel() -> op::VoxelGrid {
                let mut g = op::VoxelGrid::new(18, 3, 17, 1).expect("host voxel");
                g.set_area_multiplier(4, 3.0).expect("multiplier");
                for (x, y, z, a) in [
                    (0usize, 0usize, 0usize, 255u8),
                    (17, 2, 16, 4),
                    (16, 1, 3, 0),
                ] {
                    g.set_voxel(x, y, z, a).expect("voxel");
                }
                g
            }

            /// The host graph (also the search host's graph).
            pub fn graph(n: u32) -> op::Graph {
                let mut g = op::Graph::new(n as usize).expect("host graph");
                for (a, b, w) in host_edges(n) {
                    g.add_edge(a, b, w).expect("host edge");
                }
                g.set_weight(3, 0.125).expect("reweight");
                g.remove_edge(5).expect("removal");
                g
            }

            fn status_byte(s: op::SearchStatus) -> u8 {
                match s {
                    op::SearchStatus::NotStarted => 0,
                    op::SearchStatus::Running => 1,
                    op::SearchStatus::Found => 2,
                    op::SearchStatus::NotFound => 3,
                }
            }

            macro_rules! grid_restore {
                ($host:expr, $bytes:expr, $from:path) => {{
                    let fresh = $host.save_state();
                    let mut g = $host;
                    let before = g.save_state();
                    let log: Log = Arc::default();
                    g.add_listener(listener(&log));
                    let result = g
                        .restore_state($bytes)
                        .map_err(|e| (e.class().to_string(), e.offset()));
                    let after = g.save_state();
                    let listener = log.lock().expect("listener log").clone();
                    let from_state = Some(
                        $from($bytes)
                            .map(|g| g.save_state())
                            .map_err(|e| (e.class().to_string(), e.offset())),
                    );
                    Restored {
                        before,
                        result,
                        after,
                        fresh,
                        listener,
                        resumed: None,
                        from_state,
                        query: None,
                    }
                }};
            }

            /// Restores `bytes` into the kind's host object.
            pub fn restore(kind: StateKind, bytes: &[u8]) -> Restored {
                match kind {
                    StateKind::Grid => grid_restore!(grid(), bytes, op::Grid::from_state),
                    StateKind::HexGrid => grid_restore!(hex(), bytes, op::HexGrid::from_state),
                    StateKind::VoxelGrid => {
                        grid_restore!(voxel(), bytes, op::VoxelGrid::from_state)
                    }
                    StateKind::Graph => {
                        let mut g = graph(6);
                        let fresh = graph(6).save_state();
                        let before = g.save_state();
                        let result = g
                            .restore_state(bytes)
                            .map_err(|e| (e.class().to_string(), e.offset()));
                        let after = g.save_state();
                        let mut query = None;
                        if result.is_ok() && (1..=64).contains(&g.node_count()) {
                            let options = op::GraphOptions {
                                algorithm: op::Algorithm::Dijkstra,
                                ..Default::default()
                            };
                            let goal = g.node_count() as u32 - 1;
                            query = Some(match g.find_path(0, goal, &options) {
                                Ok(p) => (p.status as u8, p.cost.to_bits(), p.nodes, p.iterations),
                                Err(e) => (255, 0, e.class().bytes().map(u32::from).collect(), 0),
                            });
                        }
                        let from_state = Some(
                            op::Graph::from_state(bytes)
                                .map(|g| g.save_state())
                                .map_err(|e| (e.class().to_string(), e.offset())),
                        );
                        Restored {
                            before,
                            result,
                            after,
                            fresh,
                            listener: vec![],
                            resumed: None,
                            from_state,
                            query,
                        }
                    }
                    StateKind::GraphAStar => {
                        let g = graph(SEARCH_NODES);
                        let csr = g.compile();
                        let fresh =
                            op::GraphAStar::new(csr, op::DefaultGraphCost, Estimate).save_state();
                        let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, Estimate);
                        s.set_record_expansions(true);
                        s.begin(0, 9).expect("host begin");
                        s.step(3);
                        let before = s.save_state();
                        let result = s
                            .restore_state(bytes)
                            .map_err(|e| (e.class().to_string(), e.offset()));
                        let after = s.save_state();
                        let resumed = if result.is_ok() {
                            let st = s.run(None);
                            Some((
                                status_byte(st),
                                s.iterations(),
                                s.expanded_count(),
                                s.path_cost().to_bits(),
                                s.path(),
                                s.expansions().to_vec(),
                                s.save_state(),
                            ))
                        } else {
                            Some((
                                status_byte(s.status()),
                                s.iterations(),
                                s.expanded_count(),
                                0,
                                vec![],
                                s.expansions().to_vec(),
                                vec![],
                            ))
                        };
                        Restored {
                            before,
                            result,
                            after,
                            fresh,
                            listener: vec![],
                            resumed,
                            from_state: None,
                            query: None,
                        }
                    }
                }
            }

            /// Golden seed states of the kind: `(name, bytes)`, saved by this crate.
            pub fn seeds(kind: StateKind) -> Vec<(String, Vec<u8>)> {
                let mut out = Vec::new();
                match kind {
                    StateKind::Grid => {
                        out.push(("host".into(), grid().save_state()));
                        out.push((
                            "new-7x5".into(),
                            op::Grid::new(7, 5).expect("grid").save_state(),
                        ));
                        out.push((
                            "new-1x1".into(),
                            op::Grid::new(1, 1).expect("grid").save_state(),
                        ));
                        let mut g = op::Grid::new(17, 3).expect("grid");
                        g.set_cell(16, 2, 200).expect("cell");
                        out.push(("edited-17x3".into(), g.save_state()));
                    }
                    StateKind::HexGrid => {
                        out.push(("host".into(), hex().save_state()));
                        out.push((
                            "new-5x4-evenq".into(),
                            op::HexGrid::new(5, 4, op::HexLayout::EvenQ)
                                .expect("hex")
                                .save_state(),
                        ));
                        out.push((
                            "new-3x2-oddr".into(),
                            op::HexGrid::new(3, 2, op::HexLayout::OddR)
                                .expect("hex")
                                .save_state(),
                        ));
                    }
                    StateKind::VoxelGrid => {
                        out.push(("host".into(), voxel().save_state()));
                        out.push((
                            "new-18x3x17".into(),
                            op::VoxelGrid::new(18, 3, 17, 1)
                                .expect("voxel")
                                .save_state(),
                        ));
                        out.push((
                            "new-2x2x2".into(),
                            op::VoxelGrid::new(2, 2, 2, 0).expect("voxel").save_state(),
                        ));
                    }
                    StateKind::Graph => {
                        out.push(("host".into(), graph(6).save_state()));
                        out.push(("search-host".into(), graph(SEARCH_NODES).save_state()));
                        out.push((
                            "empty".into(),
                            op::Graph::new(0).expect("graph").save_state(),
                        ));
                        let mut big = graph(6).save_state()[..8].to_vec();
                        big.extend_from_slice(&(1i32 << 26).to_le_bytes());
                        big.extend_from_slice(&0i32.to_le_bytes());
                        out.push(("2pow26-nodes-no-edges".into(), big));
                    }
                    StateKind::GraphAStar => {
                        let g = graph(SEARCH_NODES);
                        let csr = g.compile();
                        let fresh = || {
                            let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, Estimate);
                            s.set_record_expansions(true);
                            s
                        };
                        out.push(("not-started".into(), fresh().save_state()));
                        for (start, goal, steps) in [
                            (0u32, 9u32, 0u64),
                            (0, 9, 1),
                            (0, 9, 3),
                            (0, 9, 6),
                            (2, 4, 2),
                            (0, SEARCH_NODES - 1, 4),
                        ] {
                            let mut s = fresh();
                            s.begin(start, goal).expect("begin");
                            if steps > 0 {
                                s.step(steps);
                            }
                            out.push((
                                format!("begin-{start}-{goal}-step-{steps}"),
                                s.save_state(),
                            ));
                        }
                        for (start, goal) in [(0u32, 9u32), (0, SEARCH_NODES - 1), (5, 5)] {
                            let mut s = fresh();
                            s.begin(start, goal).expect("begin");
                            s.run(None);
                            out.push((format!("run-{start}-{goal}"), s.save_state()));
                        }
                        let mut s = op::GraphAStar::new(csr, op::DefaultGraphCost, Estimate);
                        s.begin(0, 9).expect("begin");
                        s.step(4);
                        out.push(("unrecorded-0-9-step-4".into(), s.save_state()));
                    }
                }
                out
            }
        }
    };
}

state_host!(reference_state, onepath_reference);
state_host!(optimized_state, onepath);

/// The state invariants for one restore: no panic; both crates accept, or both reject with the
/// same class and offset; an accepted state re-encodes to the input bytes in both; a rejected
/// restore leaves a grid or graph exactly as before (and calls no listener) and a search
/// NotStarted (its save equals a new search's); a restored search continues identically;
/// `from_state` agrees likewise.
pub fn check_state(kind: StateKind, bytes: &[u8]) -> Result<(), String> {
    let a = reference_state::restore(kind, bytes);
    let b = optimized_state::restore(kind, bytes);
    let res = |r: &Result<(), (String, usize)>| match r {
        Ok(()) => "accepted".to_string(),
        Err((c, o)) => format!("{c} at {o}"),
    };
    if a.result != b.result {
        return Err(format!(
            "restore ({} bytes): expected {}, found {}",
            bytes.len(),
            res(&a.result),
            res(&b.result)
        ));
    }
    for (name, r) in [("onepath-reference", &a), ("onepath", &b)] {
        match &r.result {
            Ok(()) => {
                if r.after != bytes {
                    let at = r
                        .after
                        .iter()
                        .zip(bytes)
                        .position(|(x, y)| x != y)
                        .unwrap_or(r.after.len().min(bytes.len()));
                    return Err(format!(
                        "{name}: accepted state re-encodes differently ({} bytes saved, {} given, first difference at byte {at})",
                        r.after.len(),
                        bytes.len()
                    ));
                }
            }
            Err(_) => {
                let (expect, what) = if kind == StateKind::GraphAStar {
                    (&r.fresh, "a new search's")
                } else {
                    (&r.before, "the bytes before")
                };
                if r.after != *expect {
                    return Err(format!(
                        "{name}: after a failed restore ({}) the save differs from {what}",
                        res(&r.result)
                    ));
                }
                if !r.listener.is_empty() {
                    return Err(format!(
                        "{name}: a failed restore called listeners {:?}",
                        r.listener
                    ));
                }
                if let Some(s) = &r.resumed {
                    if s.0 != 0 || s.1 != 0 || s.2 != 0 || !s.5.is_empty() {
                        return Err(format!(
                            "{name}: search after a failed restore is not NotStarted: {s:?}"
                        ));
                    }
                }
            }
        }
    }
    if a.after != b.after {
        return Err("saves after the restore differ between the crates".into());
    }
    if a.listener != b.listener {
        let k = (0..a.listener.len().max(b.listener.len()))
            .find(|&k| a.listener.get(k) != b.listener.get(k))
            .unwrap_or(0);
        return Err(format!(
            "listener call {k}: expected {:?}, found {:?}",
            a.listener.get(k),
            b.listener.get(k)
        ));
    }
    if a.resumed != b.resumed {
        return Err(format!(
            "search continued after the restore: expected {:?}, found {:?}",
            a.resumed, b.resumed
        ));
    }
    if a.query != b.query {
        return Err(format!(
            "query after the restore: expected {:?}, found {:?}",
            a.query, b.query
        ));
    }
    if a.from_state != b.from_state {
        let t = |r: &Option<Result<Vec<u8>, (String, usize)>>| match r {
            Some(Ok(v)) => format!("accepted ({} bytes)", v.len()),
            Some(Err((c, o))) => format!("{c} at {o}"),
            None => "-".into(),
        };
        return Err(format!(
            "from_state: expected {}, found {}",
            t(&a.from_state),
            t(&b.from_state)
        ));
    }
    if let Some(Ok(saved)) = &a.from_state {
        if saved != bytes {
            return Err("from_state: the new object's save differs from the input".into());
        }
    }
    Ok(())
}

/// `state_restore_graph` (kind 4).
pub fn state_restore_graph(data: &[u8]) -> Result<(), String> {
    check_state(StateKind::Graph, data)
}
/// `state_restore_graph_astar` (kind 11).
pub fn state_restore_graph_astar(data: &[u8]) -> Result<(), String> {
    check_state(StateKind::GraphAStar, data)
}
/// `state_restore_grid` (kind 1).
pub fn state_restore_grid(data: &[u8]) -> Result<(), String> {
    check_state(StateKind::Grid, data)
}
/// `state_restore_hex` (kind 2).
pub fn state_restore_hex(data: &[u8]) -> Result<(), String> {
    check_state(StateKind::HexGrid, data)
}
/// `state_restore_voxel` (kind 3).
pub fn state_restore_voxel(data: &[u8]) -> Result<(), String> {
    check_state(StateKind::VoxelGrid, data)
}

/// The committed seed corpus: `(target, file name, bytes)`. State seeds are the reference crate's
/// saves (checked equal to the optimized crate's by the replay test); graph targets get
/// deterministic pseudo-random byte strings of several lengths.
pub fn seed_corpus() -> Vec<(&'static str, String, Vec<u8>)> {
    let mut out = Vec::new();
    for kind in StateKind::ALL {
        for (name, bytes) in reference_state::seeds(kind) {
            out.push((kind.target(), name, bytes));
        }
    }
    for (name, bytes) in crate::fuzzing_grid::grid_state_seeds(&ReferenceCrate) {
        out.push(("state_restore_grid_search", name, bytes));
    }
    for (t, target) in [
        "graph_query",
        "graph_landmarks",
        "graph_points",
        "grid_search",
    ]
    .iter()
    .enumerate()
    {
        let mut r = crate::prng::SplitMix64::new(0xF0220 + t as u64);
        for (i, len) in [16usize, 48, 96, 160, 256, 400, 640, 1024]
            .iter()
            .enumerate()
        {
            let bytes: Vec<u8> = (0..*len).map(|_| r.next_u64() as u8).collect();
            out.push((*target, format!("random-{i:02}-{len}"), bytes));
        }
    }
    out
}

/// Whether both crates save the same seed bytes (the seeds are golden for both).
pub fn seeds_agree() -> Result<(), String> {
    for kind in StateKind::ALL {
        let (a, b) = (reference_state::seeds(kind), optimized_state::seeds(kind));
        if a != b {
            return Err(format!("{:?}: seed saves differ between the crates", kind));
        }
    }
    if crate::fuzzing_grid::grid_state_seeds(&ReferenceCrate)
        != crate::fuzzing_grid::grid_state_seeds(&OptimizedCrate)
    {
        return Err("grid-search host seeds differ between the crates".into());
    }
    Ok(())
}
