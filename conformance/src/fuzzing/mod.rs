//! Shared helpers of the fuzz targets (`fuzz/`), the proptest properties
//! (`conformance/tests/proptest_*.rs`) and the regression replay test
//! (`conformance/tests/fuzz_regressions.rs`).
//!
//! Every target is one function `fn(&[u8]) -> Result<(), Finding>` in [`TARGETS`]: the bytes are
//! decoded with `arbitrary::Unstructured` into a small, bounded input (a graph, points, a byte
//! string to restore), run through `onepath-reference` and `onepath`, and any difference (or a
//! broken invariant) is returned as `Err` with the [`first_difference`] text. The fuzz targets
//! panic with that text ([`fuzz`]); the replay test and the proptest properties assert `Ok`.
//! A panic inside either crate propagates (libFuzzer reports it as a crash).
//!
//! Graph, landmark and link comparisons go through the [`Implementation`] trait and the one
//! adapter body of `adapters.rs`; the state targets drive the crates' state API directly through
//! one `macro_rules!` body instantiated for both crates (`state_restore.rs`:
//! [`reference_state`], [`optimized_state`]). The grid-search targets are in [`grid`]; the
//! replanner targets in [`replan`]; the flow-field targets in [`flow`]; the hex and voxel search targets in [`lattice`]; the HPA* target in [`hpa`]; the bidirectional grid target in [`bidi`]; the record readers' target in [`records`]; the world restore target in [`world`]; the graph targets in
//! [`query`], [`landmarks`] and [`links`].

use crate::adapters::{OptimizedCrate, ReferenceCrate};
use crate::implementation::{CostRule, HeuristicRule};
use crate::scenario::{GraphSpec, LandmarkSpec, StrategySpec};
use arbitrary::Unstructured;

pub mod bidi;
pub mod flow;
pub mod grid;
pub mod hpa;
pub mod landmarks;
pub mod lattice;
pub mod links;
pub mod query;
pub mod records;
pub mod replan;
pub mod state_restore;
pub mod world;

pub use grid::*;
pub use landmarks::*;
pub use links::*;
pub use query::*;
pub use state_restore::*;

/// What a fuzz target found: a divergence between the crates, a broken invariant or a panic
/// turned into a message, in words (the input that produced it is the caller's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    what: String,
}

impl Finding {
    /// A finding saying `what`.
    pub fn new(what: impl Into<String>) -> Finding {
        Finding { what: what.into() }
    }
    /// What was found.
    pub fn what(&self) -> &str {
        &self.what
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for Finding {}

impl From<crate::error::HarnessError> for Finding {
    fn from(e: crate::error::HarnessError) -> Finding {
        Finding {
            what: e.to_string(),
        }
    }
}

impl From<String> for Finding {
    fn from(what: String) -> Finding {
        Finding { what }
    }
}

/// The function of a fuzz target: `Err` is a divergence or a broken invariant.
pub type TargetFn = fn(&[u8]) -> Result<(), Finding>;

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
    ("grid_search", crate::fuzzing::grid::grid_search),
    (
        "state_restore_grid_search",
        crate::fuzzing::grid::state_restore_grid_search,
    ),
    ("replan_script", crate::fuzzing::replan::replan_script),
    (
        "state_restore_replanner",
        crate::fuzzing::replan::state_restore_replanner,
    ),
    ("flow_script", crate::fuzzing::flow::flow_script),
    (
        "state_restore_flow_field",
        crate::fuzzing::flow::state_restore_flow_field,
    ),
    ("hex_search", crate::fuzzing::lattice::hex_search),
    ("voxel_search", crate::fuzzing::lattice::voxel_search),
    ("hpa_search", crate::fuzzing::hpa::hpa_search),
    ("grid_bidi", crate::fuzzing::bidi::grid_bidi),
    ("record_read", crate::fuzzing::records::record_read),
    ("world_restore", crate::fuzzing::world::world_restore),
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

/// How often a script or request target runs its expensive second-line checks (the family's
/// oracle, the sliced and snapshotted runs, a rebuilt hierarchy): on one input in `DEEP_ONE_IN`
/// ([`deep`]; issue 36). The two crates are compared on every input.
pub const DEEP_ONE_IN: u64 = 4;

static ALWAYS_DEEP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`deep`] true for every input of this process: the regression replay test and the
/// proptests that call a target function run every check on every input (a committed finding of
/// an oracle replays whatever its bytes hash to); the fuzz targets never call it.
pub fn set_always_deep() {
    ALWAYS_DEEP.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether the input `data` gets the expensive second-line checks of its target: one input in
/// [`DEEP_ONE_IN`], chosen by a hash (FNV-1a) of all its bytes, so the choice is a property of
/// the bytes (a crash file replays it; no clock, no counter) and every mutation draws it anew;
/// always true after [`set_always_deep`].
pub fn deep(data: &[u8]) -> bool {
    if ALWAYS_DEEP.load(std::sync::atomic::Ordering::Relaxed) {
        return true;
    }
    // The high bits: the low bits of an FNV product mix the last words least.
    (input_hash(data) >> 40).is_multiple_of(DEEP_ONE_IN)
}

/// One of `0..n` (`n` > 0) chosen by the same hash of the input's bytes as [`deep`], from other
/// bits (the choice and the sampling are independent): the part of a fixed input a target runs
/// on this input (`graph_query`'s variants, `hpa_search`'s query; issue 36, fifth round). A
/// property of the bytes, as [`deep`], but not changed by [`set_always_deep`]: a replayed file
/// runs the part the fuzzer ran, and over a campaign every part is drawn.
pub fn choice(data: &[u8], n: usize) -> usize {
    ((input_hash(data) >> 16) % n.max(1) as u64) as usize
}

/// FNV-1a over 8-byte words (a byte at a time cost ~100 us on the largest voxel inputs under
/// the instrumentation), then the length and the last partial word.
fn input_hash(data: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |w: u64| h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3);
    let words = data.chunks_exact(8);
    let rest = words.remainder();
    for w in words {
        mix(u64::from_le_bytes(w.try_into().unwrap_or_default()));
    }
    let mut last = [0u8; 8];
    last[..rest.len()].copy_from_slice(rest);
    mix(u64::from_le_bytes(last) ^ ((data.len() as u64) << 56));
    mix(data.len() as u64);
    h
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
    for (name, bytes) in crate::fuzzing::grid::grid_state_seeds(&ReferenceCrate) {
        out.push(("state_restore_grid_search", name, bytes));
    }
    for (name, bytes) in crate::fuzzing::replan::replanner_seeds() {
        out.push(("state_restore_replanner", name, bytes));
    }
    for (name, bytes) in crate::fuzzing::records::record_seeds() {
        out.push(("record_read", name, bytes));
    }
    for (name, bytes) in crate::fuzzing::world::world_seeds() {
        out.push(("world_restore", name, bytes));
    }
    for (name, bytes) in crate::fuzzing::flow::flow_field_seeds() {
        out.push(("state_restore_flow_field", name, bytes));
    }
    for (t, target) in [
        "graph_query",
        "graph_landmarks",
        "graph_points",
        "grid_search",
        "replan_script",
        "flow_script",
        "hex_search",
        "voxel_search",
        "hpa_search",
        "grid_bidi",
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
pub fn seeds_agree() -> Result<(), Finding> {
    for kind in StateKind::ALL {
        let (a, b) = (reference_state::seeds(kind), optimized_state::seeds(kind));
        if a != b {
            return Err(Finding::new(format!(
                "{:?}: seed saves differ between the crates",
                kind
            )));
        }
    }
    if crate::fuzzing::grid::grid_state_seeds(&ReferenceCrate)
        != crate::fuzzing::grid::grid_state_seeds(&OptimizedCrate)
    {
        return Err(Finding::new(
            "grid-search host seeds differ between the crates",
        ));
    }
    if crate::fuzzing::flow::flow_field_seeds_of(&ReferenceCrate)
        != crate::fuzzing::flow::flow_field_seeds_of(&OptimizedCrate)
    {
        return Err(Finding::new(
            "flow-field seeds (final saves of the fixed requests) differ between the crates",
        ));
    }
    Ok(())
}
