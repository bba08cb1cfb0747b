//! The HPA* vectors ([CONF.HPA.HpaVector]): `vectors/hpa/HPA-NNNN.json`, one request and its
//! expected reply per file (from the reference crate), checked on every implementation with the
//! first differing query, field or edge named, and against the oracle.

use super::cases::request;
use super::{first_difference, oracle, HpaOptionsData, HpaQuery, HpaReply, HpaRequest, FAMILY};
use crate::envelope::Envelope;
use crate::error::HarnessError;
use crate::grid::vectors::MapFile;
use crate::implementation::Implementation;
use crate::json_text::to_text;
use crate::replan::cases::MULTIPLIERS;
use crate::report::Section;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The folder under `vectors/` and the id prefix.
pub const FOLDER: (&str, &str) = ("hpa", "HPA-");

/// One case: a request and the reference crate's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HpaCase {
    /// The request.
    pub request: HpaRequest,
    /// The reply of record.
    pub expected: HpaReply,
}

/// A committed vector.
#[derive(Clone, Debug, PartialEq)]
pub struct HpaVector {
    /// `HPA-NNNN`.
    pub id: String,
    /// What it pins.
    pub comment: String,
    /// The case.
    pub case: HpaCase,
}

/// The seed of the generated vectors.
const SEED: u64 = 0x4850_4121; // "HPA!"

/// A tier-1 query.
fn q(start: [u32; 2], goal: [u32; 2]) -> HpaQuery {
    HpaQuery {
        edits: vec![],
        start: start.to_vec(),
        goal: goal.to_vec(),
        schedule: vec![],
        cancel: None,
    }
}

/// A sliced query.
fn sl(start: [u32; 2], goal: [u32; 2], schedule: &[u64]) -> HpaQuery {
    HpaQuery {
        schedule: schedule.to_vec(),
        cancel: None,
        ..q(start, goal)
    }
}

/// A cancel query ([CONF.HPA.CANCEL]): `step(k)`, two cancelled runs, one resumed.
fn cancel(start: [u32; 2], goal: [u32; 2], k: u64) -> HpaQuery {
    HpaQuery {
        cancel: Some(k),
        ..q(start, goal)
    }
}

/// Both forms of a query, tier 1 first.
fn both(start: [u32; 2], goal: [u32; 2]) -> [HpaQuery; 2] {
    [q(start, goal), sl(start, goal, &[1_000_000])]
}

/// A map from rows: `.` area 0, `#` wall, `1`-`3` areas with [`MULTIPLIERS`].
fn map(rows: &[&str]) -> MapFile {
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
        multipliers: MULTIPLIERS.to_vec(),
        space: None,
    }
}

/// An open map of `w` x `h`.
fn open(w: usize, h: usize) -> MapFile {
    let row = ".".repeat(w);
    map(&vec![row.as_str(); h])
}

fn options(chunk_size: u32) -> HpaOptionsData {
    HpaOptionsData {
        chunk_size,
        connectivity: 8,
        diagonal: 2,
        weight: 1.0,
        smooth: false,
        record: true,
        budget: 0,
    }
}

fn req(map: MapFile, options: HpaOptionsData, queries: Vec<HpaQuery>) -> HpaRequest {
    HpaRequest {
        map,
        options,
        queries,
    }
}

const ROOMS: [&str; 12] = [
    "......#.....",
    "......#.....",
    "..##..#..#..",
    "......#..#..",
    "...........#",
    "######.#####",
    "............",
    ".2222.#.333.",
    ".2222.......",
    "......#.#...",
    "...#..#.#...",
    "......#.....",
];

/// The requests of the committed vectors, with their comments, in id order.
pub fn requests() -> Vec<(String, HpaRequest)> {
    let mut out = Vec::new();
    for i in 0..8u64 {
        out.push((
            format!("generated request {i}: corner rule {}, two tier-1 and two sliced queries with edits between; the hierarchy's nodes, edges and stored paths, the abstract pops and the algorithm field [CONF.HPA.CASES] [HPA.TIER1] [HPA.SLICED.API] [HPA.REFRESH.DIRTY] [HPA.PASS] [HPA.NODE.SET] [HPA.INTRA.SEARCH] [HPA.INTRA.EDGE] [HPA.INSPECT.NODES] [HPA.INSPECT.EDGES] [HPA.SEARCH.GRAPH] [HPA.TIER1.ALGORITHM]", i % 3),
            request(SEED, i),
        ));
    }
    let mut push = |comment: &str, r: HpaRequest| out.push((comment.to_string(), r));
    let ends = || [both([0, 0], [7, 7]), both([9, 0], [9, 0])].concat();
    for (size, note) in [
        (1, "chunk size 1 is rejected: invalid_options from tier 1 and from new (every sliced query) [HPA.OPT.VALID]"),
        (2, "chunk size 2 is the smallest valid one [HPA.OPT.VALID] [HPA.CHUNK.TILING]"),
        (64, "chunk size 64 is the largest valid one: one chunk, no entrances, the temporary edge S -> G [HPA.OPT.VALID] [HPA.QUERY.EDGES]"),
        (65, "chunk size 65 is rejected [HPA.OPT.VALID]"),
    ] {
        push(note, req(open(10, 8), options(size), ends()));
    }
    let mut o = options(4);
    o.weight = 0.5;
    push(
        "a heuristic weight below 1 is rejected [HPA.OPT.VALID]",
        req(open(10, 8), o, ends()),
    );
    push(
        "ends outside the grid: x = width, y = height, on the start and on the goal (cell_out_of_range; a failed begin refreshes nothing, so the hierarchy stays unbuilt: built false, chunks (0, 0), no nodes or edges) [HPA.QUERY.BEGIN] [HPA.BUILD.LAZY] [HPA.INSPECT.UNBUILT]",
        req(
            open(6, 5),
            options(3),
            [
                both([6, 0], [1, 1]),
                both([0, 5], [1, 1]),
                both([1, 1], [6, 4]),
                both([1, 1], [5, 5]),
            ]
            .concat(),
        ),
    );
    push(
        "a wall start, a wall goal (NotFound, no iteration; begin still refreshes), start = goal on an open cell and on an entrance cell (one temporary node) [HPA.QUERY.BEGIN] [HPA.QUERY.TEMP]",
        req(
            map(&ROOMS),
            options(6),
            [
                both([2, 2], [11, 11]),
                both([0, 0], [6, 0]),
                both([1, 1], [1, 1]),
                both([6, 5], [6, 5]),
            ]
            .concat(),
        ),
    );
    push(
        "entrance placement: runs shorter than 6 give the lower middle (every run here is 1 or 2 long; runs of 6 and more: HPA-0037); borders stop at chunk corners [HPA.ENT.RUN] [HPA.ENT.PLACE] [HPA.NODE.ID]",
        req(
            map(&[
                "............",
                "......#.....",
                "............",
                "......#.....",
                "............",
                "............",
                "#.###..##.##",
                "............",
                ".....#......",
                ".....#......",
                "............",
                ".....#......",
            ]),
            options(6),
            both([0, 0], [11, 11]).to_vec(),
        ),
    );
    let diagonal_map = map(&["..#...", "..#...", "...#..", "..#...", "..#...", "..#..."]);
    for (rule, note) in [
        (0, "Always: a diagonal move between two chunks with both side cells blocked is a diagonal entrance pair, so HPA* finds the only path [HPA.ENT.DIAGONAL] [HPA.COMPLETE]"),
        (1, "AtMostOneBlocked: the same corner cannot be crossed and there is no diagonal entrance: NotFound [HPA.ENT.DIAGONAL] [HPA.MOVE]"),
    ] {
        let mut o = options(3);
        o.diagonal = rule;
        push(note, req(diagonal_map.clone(), o, both([0, 0], [5, 5]).to_vec()));
    }
    push(
        "directed costs: crossing into area 2 costs 2, back into area 0 costs 1; intra edges in an area-2 chunk cost twice their length [HPA.MOVE] [HPA.INTER.EDGE] [HPA.INTRA.COST]",
        req(
            map(&["...2222", "...2222", "...2222", "...2222"]),
            options(3),
            [both([0, 0], [6, 3]), both([6, 3], [0, 0])].concat(),
        ),
    );
    let mut four = options(4);
    four.connectivity = 4;
    push(
        "Four neighbours: no diagonal moves or entrances; the Manhattan estimate [HPA.MOVE] [HPA.SEARCH.ESTIMATE]",
        req(map(&ROOMS), four, both([0, 0], [11, 11]).to_vec()),
    );
    for (smooth, note) in [
        (false, "an open map without smoothing: the path bends through entrance cells (cost above the optimum) [HPA.REFINE.CONCAT] [HPA.QUALITY]"),
        (true, "the same map with smoothing: lines strictly cheaper than the refined stretch replace it [HPA.SMOOTH.LINE] [HPA.SMOOTH.RULE] [HPA.COST.REPORTED]"),
    ] {
        let mut o = options(4);
        o.smooth = smooth;
        push(
            note,
            req(open(16, 16), o, [both([0, 1], [15, 14]), both([2, 15], [13, 0])].concat()),
        );
    }
    let mut four_smooth = options(5);
    four_smooth.connectivity = 4;
    four_smooth.smooth = true;
    push(
        "smoothing with Four neighbours: the line runs along x, then y [HPA.SMOOTH.LINE]",
        req(map(&ROOMS), four_smooth, both([0, 11], [11, 0]).to_vec()),
    );
    let edit = |edits: Vec<(u32, u32, u8)>, start: [u32; 2], goal: [u32; 2]| HpaQuery {
        edits,
        ..sl(start, goal, &[3])
    };
    push(
        "refresh: nothing changed (no chunk rebuilt), a cell inside one chunk (that chunk), a wall on a border (the chunks whose node lists change), then a tier-1 query on the edited grid [HPA.REFRESH.WHEN] [HPA.REFRESH.DIRTY] [HPA.REFRESH.REBUILT] [HPA.REFRESH.EQUAL]",
        req(
            open(12, 12),
            options(4),
            vec![
                edit(vec![], [0, 0], [11, 11]),
                edit(vec![], [11, 0], [0, 11]),
                edit(vec![(5, 5, 255)], [0, 0], [11, 11]),
                edit(vec![(3, 1, 255), (8, 7, 2)], [0, 0], [11, 11]),
                HpaQuery {
                    edits: vec![(4, 9, 255)],
                    ..q([0, 11], [11, 0])
                },
            ],
        ),
    );
    let mut weighted = options(4);
    weighted.weight = 1.5;
    push(
        "a heuristic weight of 1.5 and area multipliers: the estimate is octile x mmin x weight [HPA.SEARCH.ESTIMATE]",
        req(map(&ROOMS), weighted, both([0, 11], [11, 0]).to_vec()),
    );
    let mut budget = options(4);
    budget.budget = 3;
    budget.record = false;
    push(
        "a tier-1 budget of 3 (BudgetExhausted after 3 pops; ignored by the sliced form) and recording off [HPA.TIER1] [HPA.SEARCH.RECORD]",
        req(map(&ROOMS), budget, both([0, 0], [11, 11]).to_vec()),
    );
    let mut spaced = map(&ROOMS);
    spaced.space = Some([-3.5, 2.25, 0.75]);
    push(
        "the world points are the cell centres in the grid's space (-3.5, 2.25, 0.75) [HPA.TIER1] [GRID.SPACE.CENTER]",
        req(spaced, options(4), vec![q([0, 0], [11, 11])]),
    );
    push(
        "budgets 1, 2, 3 cycled, and 0 (a step that pops nothing) inside a schedule [HPA.SEARCH.ITERATION] [HPA.SLICED.API]",
        req(
            map(&ROOMS),
            options(4),
            vec![sl([0, 0], [11, 11], &[1, 2, 3]), sl([11, 0], [0, 11], &[0, 2])],
        ),
    );
    push(
        "a map whose width and height are not multiples of the chunk size: narrow last chunks [HPA.CHUNK.TILING] [HPA.CHUNK.ID]",
        req(
            map(&[
                ".............",
                "....#........",
                "....#...#....",
                "........#....",
                "..###...#....",
                ".............",
                ".....##......",
            ]),
            options(4),
            both([0, 6], [12, 0]).to_vec(),
        ),
    );
    push(
        "smoothing compares the line with the stretch's own left fold from 0, not a difference of the whole path's running costs (the two round differently here) [HPA.SMOOTH.RULE] [HPA.COST.PATH]",
        req(
            map(&[
                "..3..2#.",
                "...23..3",
                ".2...133",
                "12.3#212",
                ".2..1..2",
                "3.3..31.",
                "1.#1..2#",
                "3.32.#.#",
                "#..1..#.",
            ]),
            HpaOptionsData {
                diagonal: 1,
                smooth: true,
                ..options(3)
            },
            vec![q([6, 7], [7, 1]), q([7, 1], [0, 0])],
        ),
    );
    let edited = |edits: Vec<(u32, u32, u8)>, start: [u32; 2], goal: [u32; 2]| HpaQuery {
        edits,
        ..sl(start, goal, &[1_000_000])
    };
    push(
        "an edit undone before the next refresh leaves its chunk clean (cells are compared with the recorded copy, not the edit log); the same edit kept rebuilds the chunk [HPA.REFRESH.DIRTY] [HPA.REFRESH.REBUILT]",
        req(
            open(12, 12),
            options(4),
            vec![
                sl([0, 0], [11, 11], &[1_000_000]),
                edited(vec![(5, 5, 255), (5, 5, 0)], [0, 0], [11, 11]),
                edited(vec![(5, 5, 255)], [0, 0], [11, 11]),
            ],
        ),
    );
    push(
        "a chunk whose every node disappears is dirty although none of its cells changed: walling chunk 1's west column removes chunk 0's only border [HPA.REFRESH.DIRTY] [HPA.REFRESH.REBUILT]",
        req(
            open(8, 4),
            options(4),
            vec![
                sl([0, 0], [7, 3], &[1_000_000]),
                edited(
                    vec![(4, 0, 255), (4, 1, 255), (4, 2, 255), (4, 3, 255)],
                    [0, 0],
                    [7, 3],
                ),
            ],
        ),
    );
    push(
        "cancel queries: begin, step(k) for k = 0, 1 and 2, then two runs with the cancel flag set (it is read before the first pop of a call, at 0 iterations done, so neither pops and the search stays Running) and one with it cleared (runs to the end, as the uncancelled query); k past the end (the search already Found: the cancelled runs change nothing); a wall goal (NotFound at begin) [CONF.HPA.CANCEL] [HPA.SEARCH.GRAPH] [GRAPH.ASTAR.RUN]",
        req(
            map(&ROOMS),
            options(4),
            vec![
                cancel([0, 0], [11, 11], 0),
                cancel([0, 0], [11, 11], 1),
                cancel([0, 0], [11, 11], 2),
                cancel([0, 11], [11, 0], 1_000_000),
                cancel([0, 0], [6, 0], 0),
            ],
        ),
    );
    let strip = {
        let mut rows = [".".repeat(522), ".".repeat(522)];
        // The goal (521, 1) walled in: about 520 abstract pops before NotFound.
        rows[0].replace_range(520..522, "##");
        rows[1].replace_range(520..521, "#");
        rows
    };
    push(
        "cancel queries at the 256 boundary: step(255), step(256) and step(257) on a 522 x 2 strip whose goal is walled in (about 520 abstract pops, NotFound), then the cancelled runs: the flag is read when the iterations done in this call, not since begin, are a multiple of 256, so neither run pops; the resumed run ends NotFound [CONF.HPA.CANCEL] [HPA.SEARCH.GRAPH] [GRAPH.ASTAR.RUN]",
        req(
            map(&[strip[0].as_str(), strip[1].as_str()]),
            HpaOptionsData {
                record: false,
                ..options(2)
            },
            vec![
                cancel([0, 0], [521, 1], 255),
                cancel([0, 0], [521, 1], 256),
                cancel([0, 0], [521, 1], 257),
            ],
        ),
    );
    let mut always = options(3);
    always.diagonal = 0;
    push(
        "Always, a diagonal entrance in the last two rows: a 6 x 7 map whose last chunk row is one cell high (7 = 2 x 3 + 1); row 6 is reached only by the diagonal move (2, 5) -> (3, 6) between the blocked side cells (3, 5) and (2, 6), a pair of chunks (0, 1) and (1, 2), so HPA* finds the only path; a pair scan that stops one row early loses it and answers NotFound [HPA.ENT.DIAGONAL] [HPA.COMPLETE]",
        req(
            map(&[
                "......",
                "......",
                "......",
                "......",
                "......",
                "...###",
                "###...",
            ]),
            always,
            both([0, 0], [5, 6]).to_vec(),
        ),
    );
    // A cancel query with k = 0 whose begin leaves the start unpushed: a port that stepped
    // step(0) there too (`k >= 0`) ended the search NotFound before the first trace entry,
    // and every earlier cancel query with k = 0 had its start pushed (step(0) then does nothing).
    push(
        "a start estimate that overflows: weight 1e308 on an open 8 x 8 map, so h(S) = (o * 1) * 1e308 = +infinity for the goal (7, 7) (o = 7 * sqrt(2)); begin leaves the start unpushed and the status Running, the first step ends NotFound without an iteration [GRAPH.ASTAR.START_INF] [HPA.SEARCH.ESTIMATE]; as a tier-1 query, a sliced one (step(1)) and cancel queries with k = 0 (the trace's first entry is Running with 0 iterations: no step(0) after begin) and k = 1 (NotFound with 0 iterations) [CONF.HPA.CANCEL]",
        req(
            open(8, 8),
            HpaOptionsData {
                weight: 1e308,
                ..options(4)
            },
            vec![
                q([0, 0], [7, 7]),
                sl([0, 0], [7, 7], &[1]),
                cancel([0, 0], [7, 7], 0),
                cancel([0, 0], [7, 7], 1),
            ],
        ),
    );
    push(
        "entrance runs of 6 and more: a 16 x 16 map, chunk 8; east borders with runs of 6 (rows 0-5: both ends, rows 0 and 5) and 1 (row 7), of 5 (rows 8-12: the middle, row 10) and 2 (rows 14-15: the lower middle, row 14); south borders with runs of 7 (x 1-7: both ends) and 8 (x 8-15: both ends). The threshold is exactly 6: a port placing a run of 6 in its middle, or one of 5 at its ends, has other nodes [HPA.ENT.RUN] [HPA.ENT.PLACE] [HPA.NODE.SET]",
        req(
            map(&[
                "................",
                "................",
                "................",
                "................",
                "................",
                "................",
                "........#.......",
                "................",
                "#...............",
                "................",
                "................",
                "................",
                "................",
                ".......#........",
                "................",
                "................",
            ]),
            options(8),
            both([0, 0], [15, 15]).to_vec(),
        ),
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
            .run_hpa(&request)
            .unwrap_or_else(|e| HpaReply::Failed(format!("harness: {e}")));
        let envelope = Envelope::new(&id, FAMILY, &comment, vec![HpaCase { request, expected }]);
        files.insert(format!("{dir}/{id}.json"), to_text(&envelope).into_bytes());
    }
    files
}

/// The committed vectors under `dir`, in id order.
pub fn read_dir(dir: &Path) -> Result<Vec<HpaVector>, HarnessError> {
    let (folder, prefix) = FOLDER;
    let files =
        crate::envelope::read_family(dir, folder, prefix, FAMILY, |e: Envelope<HpaCase>| {
            let (id, comment, case) = e.single()?;
            Ok(HpaVector { id, comment, case })
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
        op: "run_hpa",
        id: |v: &HpaVector| v.id.as_str(),
        oracle: &|v: &HpaVector| oracle::check(&v.case.request, &v.case.expected),
        run: &|imp: &dyn Implementation, v: &HpaVector| {
            imp.run_hpa_as(&v.id, &v.case.request)
                .map(|reply| first_difference(&v.case.expected, &reply))
        },
    }
    .certify(read_dir(dir), all, shard, once, s)
}
