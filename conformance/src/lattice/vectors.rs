//! The hex- and voxel-search vectors ([CONF.LATTICE.LatticeVector]): `vectors/hex-search/HEX-NNNN.json`
//! and `vectors/voxel-search/VOXEL-NNNN.json`, one request and its expected reply per file (from
//! the reference crate), checked on every implementation with the first differing query and
//! field named, and against the oracle.

use super::cases::request;
use super::{
    first_difference, oracle, HexRequest, LatticeReply, LatticeRequest, Query, Shape,
    VoxelOptionsData, VoxelRequest,
};
use crate::envelope::Envelope;
use crate::error::HarnessError;
use crate::grid::vectors::MapFile;
use crate::grid::{CellBlockRule, CellCostRule, GridOptionsData};
use crate::implementation::Implementation;
use crate::json_text::to_text;
use crate::replan::cases::MULTIPLIERS;
use crate::report::Section;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The folder under `vectors/` and the id prefix of a shape's vectors.
pub fn folder(shape: Shape) -> (&'static str, &'static str) {
    match shape {
        Shape::Hex => ("hex-search", "HEX-"),
        Shape::Voxel => ("voxel-search", "VOXEL-"),
    }
}

/// One case: a request and the reference crate's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatticeCase {
    /// The request.
    pub request: LatticeRequest,
    /// The reply of record.
    pub expected: LatticeReply,
}

/// A committed vector.
#[derive(Clone, Debug, PartialEq)]
pub struct LatticeVector {
    /// `HEX-NNNN` or `VOXEL-NNNN`.
    pub id: String,
    /// What it pins.
    pub comment: String,
    /// The case.
    pub case: LatticeCase,
}

/// The seed of the generated vectors.
const SEED: u64 = 0x4C41_5454; // "LATT"

fn q(start: &[u32], goal: &[u32]) -> Query {
    Query {
        start: start.to_vec(),
        goal: goal.to_vec(),
        schedule: vec![],
        cancel: None,
    }
}

fn sliced(start: &[u32], goal: &[u32], schedule: &[u64]) -> Query {
    Query {
        schedule: schedule.to_vec(),
        ..q(start, goal)
    }
}

/// [CONF.LATTICE.CANCEL] A cancel query after `k` steps.
fn cancel(start: &[u32], goal: &[u32], k: u64) -> Query {
    Query {
        cancel: Some(k),
        ..q(start, goal)
    }
}

/// The cancel queries of HEX-0031 and VOXEL-0044 from `start` to `goal` on an open map whose
/// search pops far more than 257 cells: after 0, 1, 2, 255, 256 and 257 steps and past the end,
/// then a start outside the map (the error of `begin` is the reply).
fn cancel_queries(start: &[u32], goal: &[u32], outside: &[u32]) -> Vec<Query> {
    let mut out: Vec<Query> = [0, 1, 2, 255, 256, 257, 1_000_000]
        .into_iter()
        .map(|k| cancel(start, goal, k))
        .collect();
    out.push(cancel(outside, goal, 0));
    out
}

fn hex(
    layout: i32,
    cells: &[u8],
    w: u32,
    options: GridOptionsData,
    queries: Vec<Query>,
) -> LatticeRequest {
    LatticeRequest::Hex(HexRequest {
        layout,
        map: MapFile {
            width: w,
            height: cells.len() as u32 / w,
            cells: hex::encode(cells),
            multipliers: MULTIPLIERS.to_vec(),
            space: None,
        },
        options,
        queries,
    })
}

fn voxel(
    size: [u32; 3],
    cells: &[u8],
    options: VoxelOptionsData,
    queries: Vec<Query>,
) -> LatticeRequest {
    LatticeRequest::Voxel(VoxelRequest {
        size,
        cells: hex::encode(cells),
        multipliers: MULTIPLIERS.to_vec(),
        space: None,
        options,
        queries,
    })
}

fn hex_options() -> GridOptionsData {
    GridOptionsData {
        record: true,
        ..GridOptionsData::default()
    }
}

fn voxel_options(connectivity: u8, diagonal: u8) -> VoxelOptionsData {
    VoxelOptionsData {
        connectivity,
        diagonal,
        algorithm: 0,
        cell_cost: None,
        blocked: None,
        weight: 1.0,
        record: true,
        budget: 0,
    }
}

/// The hex requests of the committed vectors, with their comments, in id order.
fn hex_requests() -> Vec<(String, LatticeRequest)> {
    let mut out = Vec::new();
    for i in 0..8u64 {
        out.push((
            format!("generated request {i}: hex layout {}, four queries (the last sliced) [CONF.LATTICE.CASES] [HEX.SEARCH.GRAPH] [HEX.TIER1]", i % 4),
            request(Shape::Hex, SEED, i),
        ));
    }
    let o = hex_options();
    let with = |f: &dyn Fn(&mut GridOptionsData)| {
        let mut x = o.clone();
        f(&mut x);
        x
    };
    let open = [0u8; 25];
    let both = |s: &[u32], g: &[u32]| vec![q(s, g), sliced(s, g, &[1])];
    // Options, in the order of [HEX.OPT.VALID].
    for (comment, options) in [
        ("agent size 0 is checked before the weight (0.5): invalid_options naming agent_size [HEX.OPT.VALID] [GS.OPT.VALID]", with(&|x| { x.agent_size = 0; x.weight = 0.5 })),
        ("agent size 2 on a hex grid: invalid_options naming agent_size, before the algorithm (JPS) [HEX.OPT.VALID]", with(&|x| { x.agent_size = 2; x.algorithm = 2 })),
        ("weight 0.5 is checked before the algorithm (Theta*): invalid_options [HEX.OPT.VALID]", with(&|x| { x.weight = 0.5; x.algorithm = 4 })),
        ("JPS+ on a hex grid: unsupported_algorithm [HEX.OPT.VALID]", with(&|x| x.algorithm = 3)),
        ("Dijkstra is accepted and validates the weight; connectivity 4 and corner rule Always are ignored [HEX.OPT.FIELDS] [HEX.OPT.VALID]", with(&|x| { x.algorithm = 1; x.weight = 2.0; x.connectivity = 4; x.diagonal = 0 })),
    ] {
        out.push((comment.to_string(), hex(0, &open, 5, options, both(&[0, 0], &[4, 4]))));
    }
    out.push((
        "begin checks the start, then the goal, x before y: cell_out_of_range for each; nothing runs [HEX.SEARCH.BEGIN]".into(),
        hex(1, &open, 5, o.clone(), vec![q(&[5, 0], &[9, 9]), q(&[0, 5], &[0, 0]), q(&[0, 0], &[2, 7]), sliced(&[0, 0], &[5, 5], &[0])]),
    ));
    let mut walled = open;
    walled[0] = 255;
    walled[24] = 255;
    out.push((
        "a wall start or goal ends the search NotFound at once: no iteration, nothing expanded; start = goal is Found at cost 0 after one pop [HEX.SEARCH.BEGIN] [GRAPH.ASTAR.BEGIN]".into(),
        hex(2, &walled, 5, o.clone(), vec![q(&[0, 0], &[2, 2]), sliced(&[2, 2], &[4, 4], &[3]), q(&[3, 3], &[3, 3])]),
    ));
    for layout in 0..4 {
        out.push((
            format!("layout {layout}: Dijkstra from the centre of an open 5 x 5 map records the hex neighbour order in its first expansions and breaks cost ties by it [HEX.MOVE.RULE] [GRID.HEX.NEIGHBOURS] [GRID.HEX.OFFSETS]"),
            hex(layout, &open, 5, with(&|x| x.algorithm = 1), vec![q(&[2, 2], &[0, 4]), q(&[2, 2], &[4, 0])]),
        ));
    }
    let areas = [
        0u8, 3, 3, 3, 0, 0, 1, 1, 1, 0, 0, 2, 255, 2, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0,
    ];
    out.push((
        "area multipliers price each move by the cell entered: 0.5 (area 1) beats 1 beats 2 and 3.25; mmin = 0.5 scales the estimate [HEX.MOVE.COST] [HEX.EST.VALUE]".into(),
        hex(0, &areas, 5, o.clone(), vec![q(&[0, 0], &[4, 4]), q(&[4, 0], &[0, 4])]),
    ));
    out.push((
        "weight 1.5: the estimate (d * mmin) * w pops cells nearer the goal first [HEX.EST.VALUE]"
            .into(),
        hex(
            0,
            &areas,
            5,
            with(&|x| x.weight = 1.5),
            vec![q(&[0, 0], &[4, 4]), q(&[4, 0], &[0, 4])],
        ),
    ));
    out.push((
        "cell_cost extra_where adds 1.5 to the moves (u, v) with (u + 3v) % 4 = 0, after the multiplier [HEX.MOVE.COST] [HEX.OPT.HOOKS] [CONF.GRID.HOOKS]".into(),
        hex(3, &open, 5, with(&|x| x.cell_cost = Some(CellCostRule::ExtraWhere { modulus: 4, extra: 1.5 })), both(&[0, 0], &[4, 3])),
    ));
    out.push((
        "cell_cost invalid_where: NaN, -1 and +infinity forbid a move; the other moves cost 0.5 more [HEX.MOVE.COST]".into(),
        hex(1, &open, 5, with(&|x| x.cell_cost = Some(CellCostRule::InvalidWhere { modulus: 5 })), both(&[0, 0], &[4, 4])),
    ));
    out.push((
        "blocked: cells with c % 3 = 1 are not passable, the start among them: NotFound at once [HEX.PASS] [HEX.SEARCH.BEGIN]".into(),
        hex(2, &open, 5, with(&|x| x.blocked = Some(CellBlockRule { modulus: 3, residue: 1 })), vec![q(&[0, 0], &[3, 4]), q(&[1, 0], &[3, 4]), sliced(&[0, 0], &[3, 4], &[2])]),
    ));
    out.push((
        "record_expansions off: the list stays empty, the counters do not [HEX.SEARCH.RECORD]"
            .into(),
        hex(
            0,
            &areas,
            5,
            with(&|x| x.record = false),
            both(&[0, 0], &[4, 4]),
        ),
    ));
    out.push((
        "iteration budget 4 in tier 1: BudgetExhausted after 4 pops, cost +infinity, no path; the sliced form ignores it, and its step(0) calls pop nothing [HEX.TIER1] [GRAPH.ASTAR.STEP]".into(),
        hex(0, &open, 5, with(&|x| x.budget = 4), vec![q(&[0, 0], &[4, 4]), sliced(&[0, 0], &[4, 4], &[0, 3]), q(&[2, 2], &[2, 2])]),
    ));
    let mut spaced = hex(3, &areas, 5, o.clone(), vec![q(&[0, 0], &[4, 4])]);
    if let LatticeRequest::Hex(h) = &mut spaced {
        h.map.space = Some([-3.5, 2.25, 0.75]);
    }
    out.push((
        "the world points are the centres of the path's offset cells in the grid's space (-3.5, 2.25, 0.75) [HEX.TIER1] [GRID.SPACE.CENTER]".into(),
        spaced,
    ));
    out.push((
        "the sliced form with budgets 1, 2, 3 cycled makes the pops of one run (same path, cost, expansions, counters) [HEX.SEARCH.GRAPH] [GRAPH.ASTAR.STEP]".into(),
        hex(1, &areas, 5, o.clone(), vec![q(&[4, 0], &[0, 4]), sliced(&[4, 0], &[0, 4], &[1, 2, 3])]),
    ));
    // Port-mutation judge (issue 35): a sliced search whose x test let x = width through read
    // the cell y * width + width, the next row's first cell, and ran; no vector's sliced query
    // had an end at x = width with y in range.
    out.push((
        "the sliced form checks x against the width: a start (5, 0) and then a goal (5, 3) on a 5 x 5 map, x = width with y in range, are cell_out_of_range naming x and 5, and nothing runs (read as cell y * 5 + 5 they would be the next row's first cell) [HEX.SEARCH.BEGIN]".into(),
        hex(0, &open, 5, o.clone(), vec![sliced(&[5, 0], &[0, 0], &[0]), sliced(&[0, 0], &[5, 3], &[1])]),
    ));
    // Port-mutation judge (session 14, survivor 4a8e2dd806d9): a driver whose call counter
    // started at 1 read the schedule from index 1 and made 2^20 - 1 calls; every earlier sliced
    // query ended long before the cap, so the reply was the same.
    let wide = [0u8; 48 * 32];
    let mut capped = vec![0u64; 1024];
    capped[0] = 1;
    out.push((
        "the sliced form stops after 2^20 step calls, the schedule read from index 0: Dijkstra from (0, 0) to (47, 31) across an open 48 x 32 map (1,536 cells) with the schedule [1, 0 x 1023] cycled pops once at calls 0, 1024, ..., 2^20 - 1024 and ends Running after exactly 1,024 iterations, cost +infinity, no path (a 2^20 + 1st call would read index 0 again and pop a 1,025th time; a schedule read from index 1 would pop at calls 1023, 2047, ..., the last one at call 2^20 - 1) [CONF.LATTICE.QUERY] [GRAPH.ASTAR.STEP]".into(),
        hex(0, &wide, 48, with(&|x| { x.algorithm = 1; x.record = false }), vec![sliced(&[0, 0], &[47, 31], &capped)]),
    ));
    // Port-mutation judge (issue 35, session 17): no lattice request passed a cancel flag, so
    // no check reached the cancel read of the search's run ([GRAPH.ASTAR.RUN]).
    out.push((
        "cancel queries: Dijkstra from (0, 0) to (47, 31) on the open 48 x 32 map, begin, step(k) for k = 0, 1, 2, 255, 256, 257 and 1,000,000 (past the end), two runs with the flag set (the flag is read at 0 iterations done, so neither pops) and one with it cleared (the search ends as tier 1 would); then a start (48, 0) outside the map, whose begin error is the reply [CONF.LATTICE.CANCEL] [HEX.SEARCH.GRAPH] [GRAPH.ASTAR.RUN]".into(),
        hex(0, &wide, 48, with(&|x| { x.algorithm = 1; x.record = false }), cancel_queries(&[0, 0], &[47, 31], &[48, 0])),
    ));
    out
}

/// The voxel requests of the committed vectors, with their comments, in id order.
fn voxel_requests() -> Vec<(String, LatticeRequest)> {
    let mut out = Vec::new();
    for i in 0..9u64 {
        out.push((
            format!(
                "generated request {i}: connectivity {}, corner rule {}, four queries (the last sliced) [CONF.LATTICE.CASES] [VOXEL.SEARCH.GRAPH] [VOXEL.TIER1]",
                [6, 18, 26][(i % 3) as usize],
                (i / 3) % 3
            ),
            request(Shape::Voxel, SEED, i),
        ));
    }
    let o = voxel_options(26, 2);
    let with = |f: &dyn Fn(&mut VoxelOptionsData)| {
        let mut x = o.clone();
        f(&mut x);
        x
    };
    let open = [0u8; 27];
    let both = |s: &[u32], g: &[u32]| vec![q(s, g), sliced(s, g, &[1])];
    for (comment, options) in [
        ("weight 0.5 is checked before the algorithm (JPS): invalid_options naming heuristic_weight [VOXEL.OPT.VALID]", with(&|x| { x.weight = 0.5; x.algorithm = 2 })),
        ("Theta* on a voxel grid: unsupported_algorithm [VOXEL.OPT.VALID]", with(&|x| x.algorithm = 4)),
        ("Dijkstra validates the weight (0.75): invalid_options [VOXEL.OPT.VALID]", with(&|x| { x.algorithm = 1; x.weight = 0.75 })),
    ] {
        out.push((comment.to_string(), voxel([3, 3, 3], &open, options, both(&[0, 0, 0], &[2, 2, 2]))));
    }
    out.push((
        "begin checks the start, then the goal, x, y, z in turn: cell_out_of_range for each [VOXEL.SEARCH.BEGIN]".into(),
        voxel([3, 3, 3], &open, o.clone(), vec![q(&[0, 0, 3], &[0, 0, 0]), q(&[0, 3, 0], &[0, 0, 5]), q(&[0, 0, 0], &[3, 0, 0]), sliced(&[0, 0, 0], &[0, 0, 4], &[0])]),
    ));
    for (connectivity, name) in [(6u8, "Six"), (18, "Eighteen"), (26, "TwentySix")] {
        out.push((
            format!("{name}: Dijkstra from the centre of an open 3 x 3 x 3 world expands the neighbours in voxel neighbour order (k, then (dz, dy, dx)); costs 1, sqrt 2, sqrt 3 [VOXEL.DIR.ORDER] [VOXEL.DIR.CONNECTIVITY] [VOXEL.COST.BASE]"),
            voxel([3, 3, 3], &open, VoxelOptionsData { algorithm: 1, ..voxel_options(connectivity, 0) }, vec![q(&[1, 1, 1], &[0, 0, 0]), q(&[1, 1, 1], &[2, 2, 0])]),
        ));
    }
    // A 2 x 2 x 2 cube: the move (0,0,0) -> (1,1,1) passes the other six voxels.
    for (solid, comment) in [
        (&[1usize][..], "one of the six passed voxels solid (1, 0, 0): Always and AtMostOneBlocked take the 3-d diagonal, NoneBlocked does not [VOXEL.MOVE.PASSED] [VOXEL.MOVE.RULE]"),
        (&[1, 6][..], "two passed voxels solid (a face (1, 0, 0) and an edge (0, 1, 1)): only Always takes the 3-d diagonal; AtMostOneBlocked counts over all six [VOXEL.MOVE.PASSED] [VOXEL.MOVE.RULE]"),
        (&[3][..], "the edge voxel (1, 1, 0) solid: a 3-d move passes it, the 2-d moves (0,0,0) -> (1,0,1) and (0,1,1) pass only faces [VOXEL.MOVE.PASSED]"),
    ] {
        let mut cells = [0u8; 8];
        for &s in solid {
            cells[s] = 255;
        }
        // One request per rule (the rule is an option).
        for diagonal in 0..3u8 {
            out.push((
                format!("{comment}; rule {diagonal}"),
                voxel([2, 2, 2], &cells, voxel_options(26, diagonal), vec![q(&[0, 0, 0], &[1, 1, 1]), q(&[0, 0, 0], &[1, 0, 1])]),
            ));
        }
    }
    out.push((
        "Eighteen on an open 6 x 4 x 3 world: the estimate o = f + e * sqrt 2 with e = min((a+b+c)/2, a+b) orders the pops; a 3-d step takes two moves [VOXEL.EST.DISTANCE] [VOXEL.EST.VALUE]".into(),
        voxel([6, 4, 3], &[0u8; 72], voxel_options(18, 2), vec![q(&[0, 0, 0], &[5, 3, 2]), q(&[5, 0, 2], &[0, 3, 0])]),
    ));
    let mut areas = vec![0u8; 72];
    for (i, a) in areas.iter_mut().enumerate() {
        *a = [0, 1, 2, 255, 3, 0, 1][i % 7];
    }
    out.push((
        "TwentySix with areas 0-3 and solid voxels: the cost is base * m(area entered); mmin = 0.5 scales o = (c-b) + (b-a) sqrt 2 + a sqrt 3 [VOXEL.COST.MOVE] [VOXEL.EST.DISTANCE] [VOXEL.EST.VALUE]".into(),
        voxel([6, 4, 3], &areas, voxel_options(26, 1), vec![q(&[0, 0, 0], &[5, 3, 2]), q(&[5, 3, 0], &[0, 0, 2])]),
    ));
    out.push((
        "weight 1.5 and Six: the pops follow (o * mmin) * w [VOXEL.EST.VALUE]".into(),
        voxel(
            [6, 4, 3],
            &areas,
            VoxelOptionsData {
                weight: 1.5,
                ..voxel_options(6, 2)
            },
            vec![q(&[0, 0, 0], &[5, 3, 2])],
        ),
    ));
    out.push((
        "cell_cost extra_where adds 0.75 to the moves (u, v) with (u + 3v) % 3 = 0, after base * multiplier [VOXEL.COST.MOVE] [VOXEL.OPT.HOOKS]".into(),
        voxel([3, 3, 3], &open, with(&|x| x.cell_cost = Some(CellCostRule::ExtraWhere { modulus: 3, extra: 0.75 })), both(&[0, 0, 0], &[2, 2, 2])),
    ));
    out.push((
        "cell_cost invalid_where: NaN, -1 and +infinity forbid a move, the other moves cost 0.5 more [VOXEL.COST.MOVE]".into(),
        voxel([3, 3, 3], &open, with(&|x| x.cell_cost = Some(CellCostRule::InvalidWhere { modulus: 2 })), both(&[0, 0, 0], &[2, 2, 2])),
    ));
    out.push((
        "blocked: voxels with c % 4 = 1 are not passable, neither as an end nor as a passed voxel under NoneBlocked [VOXEL.PASS] [VOXEL.MOVE.RULE]".into(),
        voxel([3, 3, 3], &open, with(&|x| x.blocked = Some(CellBlockRule { modulus: 4, residue: 1 })), vec![q(&[0, 0, 0], &[2, 2, 2]), q(&[1, 0, 0], &[0, 0, 0]), sliced(&[0, 0, 0], &[2, 2, 2], &[2])]),
    ));
    let mut solid_start = open;
    solid_start[0] = 255;
    out.push((
        "a solid start ends the search NotFound at once; start = goal is Found at cost 0 [VOXEL.SEARCH.BEGIN]".into(),
        voxel([3, 3, 3], &solid_start, o.clone(), vec![q(&[0, 0, 0], &[2, 2, 2]), q(&[1, 1, 1], &[1, 1, 1]), sliced(&[2, 2, 2], &[0, 0, 0], &[0, 4])]),
    ));
    out.push((
        "record_expansions off and an iteration budget of 5: BudgetExhausted after 5 pops in tier 1, an empty list; the sliced form runs on [VOXEL.SEARCH.RECORD] [VOXEL.TIER1]".into(),
        voxel([6, 4, 3], &areas, VoxelOptionsData { record: false, budget: 5, ..voxel_options(26, 1) }, vec![q(&[0, 0, 0], &[5, 3, 2]), sliced(&[0, 0, 0], &[5, 3, 2], &[2, 5])]),
    ));
    let mut spaced = voxel(
        [6, 4, 3],
        &areas,
        voxel_options(26, 0),
        vec![q(&[0, 3, 0], &[5, 0, 2])],
    );
    if let LatticeRequest::Voxel(v) = &mut spaced {
        v.space = Some([1.5, -2.0, 0.25, 0.5]);
    }
    out.push((
        "the world points are the voxel centres in the grid's space (1.5, -2, 0.25, 0.5) [VOXEL.TIER1] [GRID.SPACE.CENTER]".into(),
        spaced,
    ));
    out.extend(voxel_build_failures());
    // Port-mutation judge, issue 35: a port whose set_space refused an origin of exactly 2^21
    // (`<` for `<=`) passed every earlier vector; the cell size is at its limit too.
    let mut limit = voxel(
        [2, 2, 2],
        &[0u8; 8],
        voxel_options(26, 0),
        vec![q(&[0, 0, 0], &[1, 1, 1])],
    );
    if let LatticeRequest::Voxel(v) = &mut limit {
        v.space = Some([-2_097_152.0, 0.0, 2_097_152.0, 2_097_152.0]);
    }
    out.push((
        "the space (-2^21, 0, 2^21, 2^21): origins and a cell size of exactly 2^21 are in range, so the world is built and the points are the voxel centres in that space [GRID.SPACE.RANGE] [GRID.SPACE.CENTER] [VOXEL.TIER1]".into(),
        limit,
    ));
    // Port-mutation judge, issue 35: a port whose size check read `size_x < 1 or (size_y < 1
    // and size_z < 1)` passed every earlier vector (VOXEL-0035 has only size_x 0). The maps
    // have no cells ([CONF.VEC.MAPS]: none when the product is 0).
    for (size, which) in [([3u32, 0, 3], "size_y"), ([3, 3, 0], "size_z")] {
        out.push((
            format!("a world of size {} x {} x {} (no voxels, only {which} is 0): VoxelGrid::new refuses it, so the reply is invalid_size [GRID.VOXEL.SIZE] [CONF.LATTICE.REQUEST]", size[0], size[1], size[2]),
            voxel(size, &[], voxel_options(26, 0), vec![q(&[0, 0, 0], &[1, 1, 1])]),
        ));
    }
    // Port-mutation judge (issue 35, session 17): as HEX-0031 for the voxel search. The start
    // voxel (0, 0, 0) of the second request is walled in ([VOXEL.PASS]: a closed corner), so its
    // search ends NotFound at its first pop.
    let open = [0u8; 16 * 16 * 4];
    let mut walled = [0u8; 4 * 4 * 2];
    for c in [1, 4, 5, 16, 17, 20, 21] {
        walled[c] = 255;
    }
    let mut qs = cancel_queries(&[0, 0, 0], &[15, 15, 3], &[0, 16, 0]);
    qs.truncate(7);
    out.push((
        "cancel queries: Dijkstra from (0, 0, 0) to (15, 15, 3) in an open 16 x 16 x 4 world (26 neighbours), begin, step(k) for k = 0, 1, 2, 255, 256, 257 and 1,000,000 (past the end), two runs with the flag set (read at 0 iterations done: neither pops) and one with it cleared [CONF.LATTICE.CANCEL] [VOXEL.SEARCH.GRAPH] [GRAPH.ASTAR.RUN]".into(),
        voxel([16, 16, 4], &open, with(&|x| { x.algorithm = 1; x.record = false }), qs),
    ));
    out.push((
        "cancel queries in a 4 x 4 x 2 world whose voxel (0, 0, 0) is walled in: step(1) pops the start and ends the search NotFound, so both cancelled runs keep NotFound and 1 iteration; after step(0) they keep it Running with 0 iterations and the resumed run pops the start and ends NotFound; a start (0, 4, 0) outside the world is begin's error [CONF.LATTICE.CANCEL] [GRAPH.ASTAR.RUN] [VOXEL.SEARCH.BEGIN]".into(),
        voxel([4, 4, 2], &walled, with(&|x| { x.algorithm = 1; x.record = false }), vec![cancel(&[0, 0, 0], &[3, 3, 1], 1), cancel(&[0, 0, 0], &[3, 3, 1], 0), cancel(&[0, 4, 0], &[3, 3, 1], 0)]),
    ));
    // Port-mutation judge (issue 35, seed-43 shard 9): a voxel search that read the
    // multipliers of areas 0..=253 only passed every vector; no voxel vector used area 254.
    let mut band = [0u8; 6 * 6 * 2];
    for (i, c) in band.iter_mut().enumerate() {
        if (i % 6 + (i / 6) % 6) % 3 == 1 {
            *c = 254;
        }
    }
    out.push((
        "area 254, the last one that is not solid: its multiplier 0.25 is the smallest of areas 0..=254, so it is mmin of the A* estimate, and a diagonal band of area-254 voxels is cheap to cross (each entry costs its move times 0.25); tier 1 and the sliced form from (0, 0, 0) to (5, 5, 1) [VOXEL.EST.VALUE] [VOXEL.COST.MOVE] [GRID.AREA.SET]".into(),
        LatticeRequest::Voxel(VoxelRequest {
            size: [6, 6, 2],
            cells: hex::encode(band),
            multipliers: vec![(1, 0.5), (254, 0.25)],
            space: None,
            options: voxel_options(26, 1),
            queries: vec![q(&[0, 0, 0], &[5, 5, 1]), sliced(&[0, 0, 0], &[5, 5, 1], &[2, 3]), q(&[5, 0, 0], &[0, 5, 1])],
        }),
    ));
    out
}

/// VOXEL-0035..0040: requests whose grid is not built ([CONF.LATTICE.REQUEST]): the reply is the
/// class of the call that refused it, as for square maps (GRID-0011, GRID-0013..0016).
fn voxel_build_failures() -> Vec<(String, LatticeRequest)> {
    let query = || vec![q(&[0, 0, 0], &[1, 1, 1])];
    let build = |size: [u32; 3], mults: Vec<(u8, f64)>, space: Option<[f64; 4]>| {
        let n = size.iter().map(|&v| v as usize).product::<usize>();
        let mut r = voxel(size, &vec![0u8; n], voxel_options(26, 0), query());
        if let LatticeRequest::Voxel(v) = &mut r {
            v.multipliers = mults;
            v.space = space;
        }
        r
    };
    vec![
        (
            "a world of size 0 x 3 x 3 (no voxels): VoxelGrid::new refuses it, so the reply is invalid_size [GRID.VOXEL.SIZE] [CONF.LATTICE.REQUEST]".into(),
            build([0, 3, 3], vec![], None),
        ),
        (
            "multipliers (1, 0.5) then (2, 0.0): set_area_multiplier refuses 0.0, so the reply is invalid_multiplier [GRID.AREA.SET] [CONF.LATTICE.REQUEST]".into(),
            build([2, 2, 2], vec![(1, 0.5), (2, 0.0)], None),
        ),
        (
            "the multiplier (255, 2.0): area 255 is solid, so the reply is area_out_of_range [GRID.AREA.SET] [CONF.LATTICE.REQUEST]".into(),
            build([2, 2, 2], vec![(255, 2.0)], None),
        ),
        (
            "the space (0, 0, 3000000, 1): origin_z beyond 2^21, so the reply is invalid_space [GRID.SPACE.RANGE] [CONF.LATTICE.REQUEST]".into(),
            build([2, 2, 2], vec![], Some([0.0, 0.0, 3_000_000.0, 1.0])),
        ),
        (
            "the space (1, 2, 3, 0): a cell size of 0 with an origin that is not zero, so the reply is invalid_space [GRID.SPACE.RANGE] [CONF.LATTICE.REQUEST]".into(),
            build([2, 2, 2], vec![], Some([1.0, 2.0, 3.0, 0.0])),
        ),
        // Port-mutation judge, issue 35: a port whose voxel cell limit was 2^27 passed every
        // earlier vector. The map has no cells ([CONF.VEC.MAPS]: none past 2^26).
        (
            "a world of size 512 x 512 x 257, one layer past 2^26 voxels: VoxelGrid::new refuses it, so the reply is invalid_size [GRID.VOXEL.SIZE] [CONF.LATTICE.REQUEST]".into(),
            voxel([512, 512, 257], &[], voxel_options(26, 0), query()),
        ),
    ]
}

/// The requests of a shape's committed vectors, with their comments, in id order.
pub fn requests(shape: Shape) -> Vec<(String, LatticeRequest)> {
    match shape {
        Shape::Hex => hex_requests(),
        Shape::Voxel => voxel_requests(),
    }
}

/// Every vector file of a shape, generated from `imp`: path relative to `vectors/`, bytes.
pub fn generate_files(shape: Shape, imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
    let (dir, prefix) = folder(shape);
    let mut files = BTreeMap::new();
    for (i, (comment, request)) in requests(shape).into_iter().enumerate() {
        let id = format!("{prefix}{:04}", i + 1);
        let expected = imp
            .run_lattice(&request)
            .unwrap_or_else(|e| LatticeReply::Failed(format!("harness: {e}")));
        let envelope = Envelope::new(
            &id,
            shape.family(),
            &comment,
            vec![LatticeCase { request, expected }],
        );
        files.insert(format!("{dir}/{id}.json"), to_text(&envelope).into_bytes());
    }
    files
}

/// The committed vectors of a shape under `dir`, in id order.
pub fn read_dir(shape: Shape, dir: &Path) -> Result<Vec<LatticeVector>, HarnessError> {
    let (folder, prefix) = folder(shape);
    let files = crate::envelope::read_family(
        dir,
        folder,
        prefix,
        shape.family(),
        |e: Envelope<LatticeCase>| {
            let (id, comment, case) = e.single()?;
            if case.request.shape() != shape {
                return Err(HarnessError::new(
                    crate::error::ErrorKind::Schema,
                    format!(
                        "{id}: a {} request in {folder}/",
                        case.request.shape().family()
                    ),
                ));
            }
            Ok(LatticeVector { id, comment, case })
        },
    )?;
    Ok(files.into_iter().map(|(_, v)| v).collect())
}

/// The family's part of the `vectors` section ([`crate::request_vectors`]).
pub fn certify(
    shape: Shape,
    dir: &Path,
    all: &[&dyn Implementation],
    shard: crate::config::Shard,
    once: &mut Section,
    s: &mut Section,
) {
    crate::request_vectors::RequestVectors {
        family: shape.family(),
        op: "run_lattice",
        id: |v: &LatticeVector| v.id.as_str(),
        oracle: &|v: &LatticeVector| oracle::check(&v.case.request, &v.case.expected),
        run: &|imp: &dyn Implementation, v: &LatticeVector| {
            imp.run_lattice_as(&v.id, &v.case.request)
                .map(|reply| first_difference(&v.case.expected, &reply))
        },
    }
    .certify(read_dir(shape, dir), all, shard, once, s)
}
