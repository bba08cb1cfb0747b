//! The hex and voxel search targets (spec/hex-search.md, spec/voxel-search.md): `hex_search` and
//! `voxel_search` decode a small world (a hex map of at most 13 x 13 cells on any layout, or a
//! voxel world of at most 8 x 8 x 8), the options (connectivity, corner rule, A* or Dijkstra,
//! weight, a cost hook) and the ends, turn it into a `run_lattice` request ([`request`]: one
//! tier-1 query and the same query sliced) and run it as the `hex-search` and `voxel-search`
//! sections do: both crates through the in-process adapters, compared reply for reply, the
//! reference's reply against the family's oracle ([`crate::lattice::oracle`]) and the sliced
//! query against the tier-1 one ([`check_voxel`], [`check_hex`]). The seeded generator [`world`]
//! feeds `conformance/tests/hex_voxel_search.rs`. `voxel_search` runs the oracle on one input in
//! [`super::DEEP_ONE_IN`] ([`super::deep`]; issue 36); the crates are compared on every input.

use super::{deep, Finding, Res, U};
use crate::adapters::{OptimizedCrate, ReferenceCrate};
use crate::checks::lattice::sliced_difference;
use crate::grid::vectors::MapFile;
use crate::grid::{CellCostRule, GridOptionsData};
use crate::implementation::Implementation;
use crate::lattice::{
    first_difference, oracle, HexRequest, LatticeReply, LatticeRequest, PathReply, Query,
    QueryReply, VoxelOptionsData, VoxelRequest,
};
use crate::prng::SplitMix64;

const WALL: u8 = 255;

/// A generated world: sizes, cells (x fastest), multipliers of areas 0..=3, and options.
#[derive(Clone, Debug)]
pub struct World {
    /// `(size_x, size_y, size_z)`; `size_z == 1` for a hex map.
    pub size: (usize, usize, usize),
    /// Areas, x fastest (255 = wall or solid).
    pub cells: Vec<u8>,
    /// The multipliers of areas 0..=3.
    pub multipliers: [f64; 4],
    /// Voxel connectivity 0 = Six, 1 = Eighteen, 2 = TwentySix (hex: unused).
    pub connectivity: u8,
    /// Corner rule 0 = Always, 1 = AtMostOneBlocked, 2 = NoneBlocked (hex: unused).
    pub diagonal: u8,
    /// Dijkstra instead of A*.
    pub dijkstra: bool,
    /// The heuristic weight (1.0 or 1.5).
    pub weight: f64,
    /// Whether the `cell_cost` hook [`HOOK`] is set.
    pub hook: bool,
    /// The start's node index.
    pub start: usize,
    /// The goal's node index.
    pub goal: usize,
}

/// The generator of [`world`]`(seed, hex)` after its size draws, and the size they drew.
fn sized(seed: u64, hex: bool) -> (SplitMix64, (usize, usize, usize)) {
    let mut r = SplitMix64::new(seed);
    let size = if hex {
        (r.range(2, 14) as usize, r.range(2, 14) as usize, 1)
    } else {
        (
            r.range(1, 9) as usize,
            r.range(1, 9) as usize,
            r.range(1, 9) as usize,
        )
    };
    (r, size)
}

/// A world from `seed`: a hex map of 2-13 cells a side or a voxel world of 1-8 a side.
pub fn world(seed: u64, hex: bool) -> World {
    let (mut r, size) = sized(seed, hex);
    let n = size.0 * size.1 * size.2;
    let density = r.unit() * 0.45;
    let cells = (0..n)
        .map(|_| {
            if r.chance(density) {
                WALL
            } else {
                r.below(4) as u8
            }
        })
        .collect();
    let multipliers = [1.0, 1.0 + r.below(4) as f64 * 0.25, 0.5, 3.0];
    World {
        size,
        cells,
        multipliers,
        connectivity: r.below(3) as u8,
        diagonal: r.below(3) as u8,
        dijkstra: r.chance(0.3),
        weight: if r.chance(0.3) { 1.5 } else { 1.0 },
        hook: r.chance(0.3),
        start: r.below(n as u64) as usize,
        goal: r.below(n as u64) as usize,
    }
}

/// The `cell_cost` hook of a world with `hook` ([CONF.GRID.HOOKS]).
pub const HOOK: CellCostRule = CellCostRule::ExtraWhere {
    modulus: 3,
    extra: 0.375,
};

/// The `run_lattice` request of a world (`layout` for a hex map): one tier-1 query from the start
/// to the goal, then the same query sliced by budgets 1, 3 and 2 cycled.
pub fn request(w: &World, layout: Option<u8>) -> LatticeRequest {
    let multipliers: Vec<(u8, f64)> = (0..4u8).map(|a| (a, w.multipliers[a as usize])).collect();
    let at = |i: usize| -> Vec<u32> {
        let (x, y, z) = (
            i % w.size.0,
            (i / w.size.0) % w.size.1,
            i / (w.size.0 * w.size.1),
        );
        let mut v = vec![x as u32, y as u32];
        if layout.is_none() {
            v.push(z as u32);
        }
        v
    };
    let tier1 = Query {
        start: at(w.start),
        goal: at(w.goal),
        schedule: vec![],
        cancel: None,
    };
    let sliced = Query {
        schedule: vec![1, 3, 2],
        ..tier1.clone()
    };
    let queries = vec![tier1, sliced];
    let algorithm = u8::from(w.dijkstra);
    let cell_cost = w.hook.then_some(HOOK);
    match layout {
        Some(layout) => LatticeRequest::Hex(HexRequest {
            layout: i32::from(layout),
            map: MapFile {
                width: w.size.0 as u32,
                height: w.size.1 as u32,
                cells: hex::encode(&w.cells),
                multipliers,
                space: None,
            },
            options: GridOptionsData {
                algorithm,
                cell_cost,
                weight: w.weight,
                record: true,
                ..GridOptionsData::default()
            },
            queries,
        }),
        None => LatticeRequest::Voxel(VoxelRequest {
            size: [w.size.0 as u32, w.size.1 as u32, w.size.2 as u32],
            cells: hex::encode(&w.cells),
            multipliers,
            space: None,
            options: VoxelOptionsData {
                connectivity: [6, 18, 26][w.connectivity as usize],
                diagonal: w.diagonal,
                algorithm,
                cell_cost,
                blocked: None,
                weight: w.weight,
                record: true,
                budget: 0,
            },
            queries,
        }),
    }
}

/// [CONF.CHECK.LATTICE] Both crates' replies to the request of `w` must be equal, the
/// reference's must pass the oracle, and the sliced query must make the tier-1 query's pops; the
/// tier-1 result. The oracle only when `with_oracle` is set.
fn check(w: &World, layout: Option<u8>, with_oracle: bool) -> Result<PathReply, Finding> {
    let r = request(w, layout);
    let run = |imp: &dyn Implementation| {
        imp.run_lattice(&r)
            .map_err(|e| Finding::new(format!("{}: harness error {e} on {w:?}", imp.name())))
    };
    let a = run(&ReferenceCrate)?;
    let b = run(&OptimizedCrate)?;
    if let Some(d) = first_difference(&a, &b) {
        return Err(Finding::new(format!(
            "onepath differs from the reference: {d} on {w:?}"
        )));
    }
    if let Some(p) = with_oracle.then(|| oracle::check(&r, &a)).flatten() {
        return Err(Finding::new(format!("oracle: {p} on {w:?}")));
    }
    let LatticeReply::Ran(q) = &a else {
        return Err(Finding::new(format!("the grid failed: {a:?} on {w:?}")));
    };
    let (whole, parts) = (
        LatticeReply::Ran(vec![q[0].clone()]),
        LatticeReply::Ran(vec![q[1].clone()]),
    );
    if let Some(d) = sliced_difference(&whole, &parts) {
        return Err(Finding::new(format!("sliced: {d} on {w:?}")));
    }
    match &q[0] {
        QueryReply::Path(p) => Ok(p.clone()),
        QueryReply::Error(c) => Err(Finding::new(format!("tier 1 failed with {c} on {w:?}"))),
    }
}

/// [VOXEL.SEARCH.GRAPH] The voxel request of `w`, checked ([`check`]).
pub fn check_voxel(w: &World) -> Result<PathReply, Finding> {
    check(w, None, true)
}

/// [HEX.SEARCH.GRAPH] The hex request of `w` on `layout` (0-3), checked ([`check`]).
pub fn check_hex(w: &World, layout: u8) -> Result<PathReply, Finding> {
    check(w, Some(layout), true)
}

/// The largest side of a fuzzed voxel world (issue 36: [`world`] draws 1-8; the searches and
/// the oracle's Dijkstra over 512 voxels took most of the executions).
pub const MAX_VOXEL_SIDE: usize = 6;

/// A world from fuzz bytes (bounded as [`world`]; a voxel world is the first of `seed`,
/// `seed + 1`, ... at most [`MAX_VOXEL_SIDE`] a side, about two seeds in five; at most 64
/// tried, then the last).
fn decode(u: &mut U, hex: bool) -> Res<World> {
    let seed: u64 = u.arbitrary()?;
    let fits = |k: u64| {
        let (x, y, z) = sized(seed.wrapping_add(k), hex).1;
        hex || x.max(y).max(z) <= MAX_VOXEL_SIDE
    };
    let k = (0..64).find(|&k| fits(k)).unwrap_or(63);
    let mut w = world(seed.wrapping_add(k), hex);
    // The bytes also choose the cells directly, so libFuzzer can steer the map.
    for c in w.cells.iter_mut() {
        if u.is_empty() {
            break;
        }
        let b: u8 = u.arbitrary()?;
        *c = if b >= 192 { WALL } else { b % 4 };
    }
    Ok(w)
}

/// Target `voxel_search`.
pub fn voxel_search(data: &[u8]) -> Result<(), Finding> {
    let mut u = U::new(data);
    let Ok(w) = decode(&mut u, false) else {
        return Ok(());
    };
    // The oracle on one input in DEEP_ONE_IN (issue 36).
    check(&w, None, deep(data)).map(|_| ())
}

/// Target `hex_search`.
pub fn hex_search(data: &[u8]) -> Result<(), Finding> {
    let mut u = U::new(data);
    let Ok(layout) = u.int_in_range(0u8..=3) else {
        return Ok(());
    };
    let Ok(w) = decode(&mut u, true) else {
        return Ok(());
    };
    check_hex(&w, layout).map(|_| ())
}
