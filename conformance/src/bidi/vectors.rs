//! The bidirectional vectors ([CONF.BIDI.BidiVector]): `vectors/grid-bidi/BIDI-NNNN.json`, one
//! request and its expected reply per file (from the reference crate), checked on every
//! implementation with the first differing query and field named, and against the oracle.

use super::cases::request;
use super::{first_difference, oracle, BidiReply, BidiRequest, FAMILY};
use crate::envelope::Envelope;
use crate::error::HarnessError;
use crate::grid::vectors::MapFile;
use crate::grid::{CellBlockRule, CellCostRule, GridOptionsData};
use crate::implementation::Implementation;
use crate::json_text::to_text;
use crate::lattice::Query;
use crate::replan::cases::MULTIPLIERS;
use crate::report::Section;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The folder under `vectors/` and the id prefix.
pub const FOLDER: (&str, &str) = ("grid-bidi", "BIDI-");

/// One case: a request and the reference crate's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BidiCase {
    /// The request.
    pub request: BidiRequest,
    /// The reply of record.
    pub expected: BidiReply,
}

/// A committed vector.
#[derive(Clone, Debug, PartialEq)]
pub struct BidiVector {
    /// `BIDI-NNNN`.
    pub id: String,
    /// What it pins.
    pub comment: String,
    /// The case.
    pub case: BidiCase,
}

/// The seed of the generated vectors.
const SEED: u64 = 0x4249_4449; // "BIDI"

/// Both forms of a query, tier 1 first.
fn both(start: [u32; 2], goal: [u32; 2]) -> [Query; 2] {
    let q = Query {
        start: start.to_vec(),
        goal: goal.to_vec(),
        schedule: vec![],
        cancel: None,
    };
    [
        q.clone(),
        Query {
            schedule: vec![1_000_000],
            ..q
        },
    ]
}

fn sliced(start: [u32; 2], goal: [u32; 2], schedule: &[u64]) -> Query {
    Query {
        start: start.to_vec(),
        goal: goal.to_vec(),
        schedule: schedule.to_vec(),
        cancel: None,
    }
}

/// A map from rows: `.` area 0, `#` wall, `1`-`3` areas.
fn map(rows: &[&str], multipliers: &[(u8, f64)]) -> MapFile {
    let cells: Vec<u8> = rows
        .iter()
        .flat_map(|r| r.bytes())
        .map(|b| match b {
            b'#' => 255,
            b'1'..=b'3' => b - b'0',
            _ => 0,
        })
        .collect();
    MapFile {
        width: rows[0].len() as u32,
        height: rows.len() as u32,
        cells: hex::encode(cells),
        multipliers: multipliers.to_vec(),
        space: None,
    }
}

const ROOMS: [&str; 8] = [
    "....#...", ".1..#.2.", "....#...", "##.###.#", "........", ".3..#.3.", "....#...", "...2#...",
];

fn options(algorithm: u8, connectivity: u8) -> GridOptionsData {
    GridOptionsData {
        algorithm,
        connectivity,
        record: true,
        ..GridOptionsData::default()
    }
}

fn req(map: MapFile, options: GridOptionsData, queries: Vec<Query>) -> BidiRequest {
    BidiRequest {
        map,
        options,
        queries,
    }
}

/// The requests of the committed vectors, with their comments, in id order.
pub fn requests() -> Vec<(String, BidiRequest)> {
    let mut out = Vec::new();
    for i in 0..8u64 {
        out.push((
            format!("generated request {i}: corner rule {}, four queries (the last sliced); the recorded pop order, counters and paths [CONF.BIDI.CASES] [GBIDI.GRAPH] [GBIDI.TIER1] [GBIDI.FORWARD] [GBIDI.OPEN] [GBIDI.EXPAND] [GBIDI.PATH]", i % 3),
            request(SEED, i),
        ));
    }
    let mut push = |comment: &str, r: BidiRequest| out.push((comment.to_string(), r));
    let rooms = || map(&ROOMS, &MULTIPLIERS);
    let with = |f: &dyn Fn(&mut GridOptionsData)| {
        let mut o = options(0, 8);
        f(&mut o);
        o
    };
    let ends = || both([0, 0], [7, 7]).to_vec();
    push(
        "a heuristic weight of 1.5 is rejected (invalid_options), also for Dijkstra [GBIDI.OPT.WEIGHT]",
        req(rooms(), with(&|o| { o.weight = 1.5; o.algorithm = 1 }), ends()),
    );
    push(
        "a weight below 1 fails the square searches' check first (invalid_options) [GBIDI.OPT.VALID]",
        req(rooms(), with(&|o| o.weight = 0.5), ends()),
    );
    push(
        "agent size 0 is rejected before the algorithm is looked at [GBIDI.OPT.VALID]",
        req(
            rooms(),
            with(&|o| {
                o.agent_size = 0;
                o.algorithm = 2
            }),
            ends(),
        ),
    );
    for (code, name) in [(2, "Jps"), (5, "LazyTheta")] {
        push(
            &format!("{name} has no bidirectional form: unsupported_algorithm, no fallback [GBIDI.OPT.ALGORITHM]"),
            req(rooms(), with(&|o| o.algorithm = code), ends()),
        );
    }
    push(
        "ends outside the grid: x = width, y = height, on the start and on the goal (cell_out_of_range) [GBIDI.BEGIN] [GBIDI.API.ERRORS]",
        req(
            rooms(),
            options(0, 8),
            [both([8, 0], [1, 1]), both([0, 8], [1, 1]), both([1, 1], [8, 7]), both([1, 1], [7, 8])].concat(),
        ),
    );
    push(
        "a wall start and a wall goal (NotFound at once, no meeting); start = goal (Found, cost 0, no iteration, the meeting at the start) [GBIDI.BEGIN] [GBIDI.SAME_CELL]",
        req(
            rooms(),
            options(0, 8),
            [both([4, 0], [0, 0]), both([0, 0], [4, 0]), both([2, 2], [2, 2])].concat(),
        ),
    );
    push(
        "a corridor under Dijkstra: strict alternation, forward first, and the meeting in the middle [GBIDI.TURN] [GBIDI.MEET] [GBIDI.STOP]",
        req(map(&["....."], &[]), options(1, 4), both([0, 0], [4, 0]).to_vec()),
    );
    push(
        "an open 3 x 3 under Dijkstra with four neighbours: equal meeting candidates keep the first [GBIDI.MEET] [GBIDI.MEETING_CELL]",
        req(map(&["...", "...", "..."], &[]), options(1, 4), both([0, 0], [2, 2]).to_vec()),
    );
    push(
        "an open 4 x 4 under A*: equal keys pop the larger g first, and the potentials stop the search early [GBIDI.POTENTIAL] [GBIDI.STOP]",
        req(map(&["....", "....", "....", "...."], &[]), options(0, 8), both([0, 0], [3, 3]).to_vec()),
    );
    push(
        "the backward side prices the cell entered: multipliers 10, 1, 100 along a corridor, both ways [GBIDI.BACKWARD] [GS.COST.MOVE]",
        req(
            map(&["123"], &[(1, 10.0), (2, 1.0), (3, 100.0)]),
            options(1, 4),
            [both([0, 0], [2, 0]), both([2, 0], [0, 0])].concat(),
        ),
    );
    push(
        "the reported cost is mu, the meeting's one addition, not the path re-summed: 0.7 where a forward sum gives 0.7000000000000001 [GBIDI.COST]",
        req(map(&[".1121"], &[(1, 0.1), (2, 0.4)]), options(1, 4), both([0, 0], [4, 0]).to_vec()),
    );
    push(
        "the cell_cost hook is asked in the move's own direction on both sides [GBIDI.OPT.HOOKS] [GBIDI.BACKWARD]",
        req(
            rooms(),
            with(&|o| o.cell_cost = Some(CellCostRule::ExtraWhere { modulus: 3, extra: 0.75 })),
            [both([0, 0], [7, 7]), both([7, 7], [0, 0])].concat(),
        ),
    );
    push(
        "a cell_cost answer that refuses a move (NaN) removes that edge from both sides [GBIDI.GRAPH] [GS.COST.MOVE]",
        req(
            rooms(),
            with(&|o| o.cell_cost = Some(CellCostRule::InvalidWhere { modulus: 9 })),
            [both([0, 0], [7, 7]), both([7, 0], [0, 7])].concat(),
        ),
    );
    push(
        "the blocked hook makes cells not passable for both sides and for the ends [GBIDI.OPT.HOOKS] [GS.PASS]",
        req(
            rooms(),
            with(&|o| o.blocked = Some(CellBlockRule { modulus: 11, residue: 5 })),
            [both([0, 0], [7, 7]), both([3, 0], [7, 7])].concat(),
        ),
    );
    push(
        "agent size 2: clearance decides passability on both sides [GBIDI.OPT.FIELDS] [GS.CLEAR.VALUE]",
        req(
            map(&["........", "........", "...#....", "........", "......#.", "........", "..#.....", "........"], &MULTIPLIERS),
            with(&|o| o.agent_size = 2),
            both([0, 0], [6, 6]).to_vec(),
        ),
    );
    push(
        "integer costs with four neighbours: the cost equals a forward Dijkstra's bit for bit [GBIDI.COST.EXACT]",
        req(map(&ROOMS, &[(1, 2.0), (2, 3.0), (3, 5.0)]), options(0, 4), [both([0, 0], [7, 7]), both([7, 0], [0, 7])].concat()),
    );
    push(
        "a tier-1 budget of 3 (BudgetExhausted after 3 pops; ignored by the sliced form) and recording off [GBIDI.TIER1] [GBIDI.COUNTERS]",
        req(rooms(), with(&|o| { o.budget = 3; o.record = false }), ends()),
    );
    let mut spaced = rooms();
    spaced.space = Some([-3.5, 2.25, 0.75]);
    push(
        "the world points are the cell centres in the grid's space (-3.5, 2.25, 0.75) [GBIDI.TIER1] [GRID.SPACE.CENTER]",
        req(spaced, options(0, 8), vec![both([0, 0], [7, 7])[0].clone()]),
    );
    push(
        "budgets 1, 2, 3 cycled, and 0 (a step that pops nothing) inside a schedule (each step(n) returns Running after n pops); the meeting cell as the last step left it [GBIDI.SLICED] [GBIDI.MEETING_CELL] [GBIDI.STEP]",
        req(rooms(), options(0, 8), vec![sliced([0, 0], [7, 7], &[1, 2, 3]), sliced([7, 0], [0, 7], &[0, 2])]),
    );
    push(
        "the multipliers (1, 2.0), (2, 0.0): set_area_multiplier refuses 0.0, so the grid is not built and the reply is invalid_multiplier [GRID.AREA.SET] [CONF.BIDI.REQUEST]",
        req(map(&ROOMS, &[(1, 2.0), (2, 0.0)]), options(0, 8), ends()),
    );
    let open_row = ".".repeat(255);
    push(
        "agent size 255 on an open 255 x 255 map: the clearance of (0, 0) is 255 (the cells beyond the borders count 0, the values saturate at 255), so (0, 0) alone takes the agent: from (0, 0) to itself is Found at cost 0, to (1, 0) is not found [GS.CLEAR.VALUE] [GS.PASS] [GS.OPT.VALID]",
        req(map(&vec![open_row.as_str(); 255], &[]), with(&|o| o.agent_size = 255), [both([0, 0], [0, 0]), both([0, 0], [1, 0])].concat()),
    );
    // Port-mutation judge (issue 35, session 17): no bidirectional request passed a cancel
    // flag, so no check reached the cancel read of [GBIDI.RUN].
    let open = ".".repeat(40);
    let cancel = |start: [u32; 2], goal: [u32; 2], k: u64| Query {
        cancel: Some(k),
        ..sliced(start, goal, &[])
    };
    let mut queries: Vec<Query> = [0, 1, 2, 255, 256, 257, 1_000_000]
        .into_iter()
        .map(|k| cancel([0, 0], [39, 39], k))
        .collect();
    queries.push(cancel([5, 5], [5, 5], 0));
    queries.push(cancel([40, 0], [39, 39], 0));
    push(
        "cancel queries: Dijkstra both ways from (0, 0) to (39, 39) on an open 40 x 40 map, begin, step(k) for k = 0, 1, 2, 255, 256, 257 and 1,000,000 (past the end), two runs with the flag set (read at 0 iterations done, after the stop check: neither pops) and one with it cleared; start = goal (Found at begin, the runs change nothing); a start (40, 0) outside the map is begin's error [CONF.LATTICE.CANCEL] [GBIDI.RUN] [GBIDI.SAME_CELL]",
        req(map(&vec![open.as_str(); 40], &[]), with(&|o| { o.algorithm = 1; o.record = false }), queries),
    );
    out
}

/// Every vector file, generated from `imp`: path relative to `vectors/`, bytes.
pub fn generate_files(imp: &dyn Implementation) -> BTreeMap<String, Vec<u8>> {
    let (dir, prefix) = FOLDER;
    let mut files = BTreeMap::new();
    for (i, (comment, request)) in requests().into_iter().enumerate() {
        let id = format!("{prefix}{:04}", i + 1);
        let expected = imp
            .run_bidi(&request)
            .unwrap_or_else(|e| BidiReply::Failed(format!("harness: {e}")));
        let envelope = Envelope::new(&id, FAMILY, &comment, vec![BidiCase { request, expected }]);
        files.insert(format!("{dir}/{id}.json"), to_text(&envelope).into_bytes());
    }
    files
}

/// The committed vectors under `dir`, in id order.
pub fn read_dir(dir: &Path) -> Result<Vec<BidiVector>, HarnessError> {
    let (folder, prefix) = FOLDER;
    let files =
        crate::envelope::read_family(dir, folder, prefix, FAMILY, |e: Envelope<BidiCase>| {
            let (id, comment, case) = e.single()?;
            Ok(BidiVector { id, comment, case })
        })?;
    Ok(files.into_iter().map(|(_, v)| v).collect())
}

/// The family's part of the `vectors` section ([`crate::request_vectors`]).
pub fn certify(
    dir: &Path,
    all: &[&dyn Implementation],
    shard: crate::config::Shard,
    once: &mut Section,
    s: &mut Section,
) {
    crate::request_vectors::RequestVectors {
        family: FAMILY,
        op: "run_bidi",
        id: |v: &BidiVector| v.id.as_str(),
        oracle: &|v: &BidiVector| oracle::check(&v.case.request, &v.case.expected),
        run: &|imp: &dyn Implementation, v: &BidiVector| {
            imp.run_bidi_as(&v.id, &v.case.request)
                .map(|reply| first_difference(&v.case.expected, &reply))
        },
    }
    .certify(read_dir(dir), all, shard, once, s)
}
