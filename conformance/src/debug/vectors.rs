//! The description vectors ([CONF.DEBUG.VECTOR]): `vectors/debug/DEBUG-NNNN.json`, one describe
//! request and the reference crate's reply per file, checked on every implementation with the
//! first difference named ([CONF.DEBUG.COMPARE]) and against the kit's own reading
//! ([CONF.DEBUG.CONSISTENT]). Each vector is claimed by its target's family.

use super::compare::{entry_name, first_difference};
use super::consistent::own_reading;
use super::model::{DescribeReply, DescribeRequest, GraphTarget};
use crate::claims::Family;
use crate::envelope::Envelope;
use crate::error::HarnessError;
use crate::implementation::Implementation;
use crate::json_text::to_text;
use crate::lattice::{Difference, LatticeRequest};
use crate::report::Section;
use crate::scenario::{GraphSpec, LandmarkSpec, StrategySpec, Variant};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The folder under `vectors/` and the id prefix.
pub const FOLDER: (&str, &str) = ("debug", "DEBUG-");

/// The `family` member of the vector files.
pub const FAMILY: &str = "debug";

/// One case: a describe request and the reference crate's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebugCase {
    /// The request.
    pub request: DescribeRequest,
    /// The reply of record.
    pub expected: DescribeReply,
}

/// A committed vector.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugVector {
    /// `DEBUG-NNNN`.
    pub id: String,
    /// What it pins.
    pub comment: String,
    /// The case.
    pub case: DebugCase,
}

/// The seed of the generated requests.
const SEED: u64 = 0x4445_4247; // "DEBG"

fn edges_case(positions: Option<Vec<[f64; 3]>>) -> super::model::GraphCase {
    super::model::GraphCase {
        graph: GraphSpec::Edges {
            node_count: 5,
            directed: false,
            edges: vec![
                (0, 1, 1.5),
                (1, 2, 1.0),
                (0, 3, 2.0),
                (3, 2, 0.25),
                (2, 4, 3.0),
            ],
            positions,
        },
        landmarks: LandmarkSpec {
            count: 2,
            strategy: StrategySpec::Avoid,
            seed: 1,
        },
    }
}

/// The requests of the committed vectors, with their comments, in id order.
pub fn requests() -> Vec<(String, DescribeRequest)> {
    let mut out: Vec<(String, DescribeRequest)> = Vec::new();
    let mut push = |c: &str, r: DescribeRequest| out.push((c.to_string(), r));
    // An 8 x 8 map of rooms: `.` area 0, `#` wall, `1`-`3` areas (multipliers 2, 3, 5).
    let rooms = || {
        let rows = [
            "....#...", ".1..#.2.", "....#...", "##.###.#", "........", ".3..#.3.", "....#...",
            "...2#...",
        ];
        let cells: Vec<u8> = rows
            .iter()
            .flat_map(|r| r.bytes())
            .map(|b| match b {
                b'#' => 255,
                b'1'..=b'3' => b - b'0',
                _ => 0,
            })
            .collect();
        crate::grid::vectors::MapFile {
            width: 8,
            height: 8,
            cells: hex::encode(cells),
            multipliers: vec![(1, 2.0), (2, 3.0), (3, 5.0)],
            space: Some([-3.5, 2.25, 0.75]),
        }
    };
    let query = |s: [u32; 2], g: [u32; 2]| crate::lattice::Query {
        start: s.to_vec(),
        goal: g.to_vec(),
        schedule: vec![],
        cancel: None,
    };
    let spaced = |_i: u64, algorithm: u8, record: bool| crate::bidi::BidiRequest {
        map: rooms(),
        options: crate::grid::GridOptionsData {
            algorithm,
            record,
            ..Default::default()
        },
        queries: vec![
            query([0, 0], [7, 7]),
            query([7, 0], [0, 7]),
            query([5, 1], [5, 1]),
            query([0, 0], [4, 0]),
        ],
    };
    push(
        "A* paths described: the grid's size, the path copied, the expansions in order with their world points in the space (-3.5, 2.25, 0.75) [DEBUG.PATH.FIELDS] [DEBUG.POINTS] [DEBUG.EXPANDED.OPT_IN] [DEBUG.PLAIN]",
        DescribeRequest::Grid(spaced(0, 0, true)),
    );
    push(
        "JPS paths described: the expansions are the jump points popped [DEBUG.PATH.FIELDS] [DEBUG.EXPANDED.OPT_IN]",
        DescribeRequest::Grid({
            // Unit costs (no areas), so JPS runs as JPS rather than falling back to A*.
            let mut r = spaced(1, 2, true);
            let cells: Vec<u8> = hex::decode(&r.map.cells)
                .unwrap_or_default()
                .into_iter()
                .map(|c| if c == 255 { 255 } else { 0 })
                .collect();
            r.map.cells = hex::encode(cells);
            r.map.multipliers.clear();
            r
        }),
    );
    push(
        "Theta* paths described: the cells are the waypoints [DEBUG.PATH.FIELDS] [DEBUG.POINTS]",
        DescribeRequest::Grid(spaced(2, 4, true)),
    );
    push(
        "recording off: no expansion and no expansion point, the counts kept; a budget of 4 ends with BudgetExhausted [DEBUG.EXPANDED.OPT_IN] [DEBUG.PATH.FIELDS]",
        DescribeRequest::Grid({
            let mut r = spaced(3, 0, false);
            r.options.budget = 4;
            r
        }),
    );
    push(
        "bidirectional paths described [DEBUG.PATH.FIELDS] [DEBUG.POINTS]",
        DescribeRequest::Bidi(spaced(4, 0, true)),
    );
    let lattice = |shape| {
        let mut r = crate::lattice::cases::request(shape, SEED, 5);
        for q in r.queries_mut() {
            q.schedule.clear();
        }
        r
    };
    if let LatticeRequest::Hex(mut h) = lattice(crate::lattice::Shape::Hex) {
        h.map.space = Some([10.0, -4.0, 0.5]);
        h.options.record = true;
        push(
            "hex paths described: world points on offset coordinates in the space (10, -4, 0.5) [DEBUG.PATH.FIELDS] [DEBUG.POINTS]",
            DescribeRequest::Hex(h),
        );
    }
    if let LatticeRequest::Voxel(mut v) = lattice(crate::lattice::Shape::Voxel) {
        v.space = Some([1.0, 2.0, -3.0, 0.25]);
        v.options.record = true;
        push(
            "voxel paths described: three-component points, x fastest, then y, then z [DEBUG.VOXEL.FIELDS] [DEBUG.POINTS]",
            DescribeRequest::Voxel(v),
        );
    }
    let mut hpa = crate::hpa::cases::request(SEED, 6);
    for q in &mut hpa.queries {
        q.schedule.clear();
    }
    hpa.options.record = true;
    hpa.map.space = Some([0.0, 0.0, 2.0]);
    push(
        "HPA* paths, then a new hierarchy refreshed on the edited grid: nodes with their chunk and points, edges in (from, to) order with costs and stored paths [DEBUG.HPA.FIELDS] [DEBUG.POINTS] [DEBUG.PATH.FIELDS]",
        DescribeRequest::Hpa(hpa),
    );
    let points = super::model::GraphCase {
        graph: GraphSpec::Points {
            points: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.5, 0.0],
                [2.0, 0.0, 0.0],
                [1.0, -1.0, 0.0],
                [3.0, 1.0, 0.0],
                [2.5, -0.5, 1.0],
            ],
            explicit: vec![],
            max_distance: 1.6,
            nearest_count: 0,
        },
        landmarks: LandmarkSpec {
            count: 2,
            strategy: StrategySpec::Avoid,
            seed: 1,
        },
    };
    push(
        "a point graph's path described with the positions of its nodes and of its expansions [DEBUG.GRAPH.FIELDS]",
        DescribeRequest::Graph(GraphTarget {
            case: points,
            variant: Variant::AstarGeo,
            query: (0, 4),
        }),
    );
    push(
        "an edges graph without positions: both position lists are empty [DEBUG.GRAPH.FIELDS]",
        DescribeRequest::Graph(GraphTarget {
            case: edges_case(None),
            variant: Variant::Dijkstra,
            query: (0, 4),
        }),
    );
    push(
        "an edges graph with positions: the positions of the path's and the expansions' nodes; bidirectional expansions alternate sides [DEBUG.GRAPH.FIELDS] [DEBUG.EXPANDED.MEANING]",
        DescribeRequest::Graph(GraphTarget {
            case: edges_case(Some(vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [2.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [3.0, 0.0, 0.0],
            ])),
            variant: Variant::BidiDijkstra,
            query: (0, 4),
        }),
    );
    use crate::replan::{ModeName, ReplanGrid, ReplanRequest, ReplanStep};
    let open = |hex_layout: Option<i32>| ReplanGrid {
        hex_layout,
        map: crate::grid::vectors::MapFile {
            width: 8,
            height: 8,
            cells: hex::encode([0u8; 64]),
            multipliers: vec![(1, 2.0)],
            space: Some([0.5, 0.5, 1.5]),
        },
    };
    let wall = |x, y| ReplanStep::SetCell { x, y, area: 255 };
    push(
        "LPA* planned on an open grid, then three walls on its diagonal and a replan: the nodes that replan settled (overconsistent) and reset (underconsistent), in order, each with its kind; the new path and its points [DEBUG.REPLAN.FIELDS] [DEBUG.REPLAN.KINDS] [DEBUG.POINTS]",
        DescribeRequest::Replan(ReplanRequest {
            grid: open(None),
            options: crate::grid::GridOptionsData::default(),
            mode: ModeName::Lpa,
            start: (0, 0),
            goal: (7, 7),
            script: vec![ReplanStep::Replan { budget: 0 }, wall(2, 2), wall(3, 3), wall(4, 4), ReplanStep::Replan { budget: 0 }],
        }),
    );
    push(
        "D* Lite on a hex grid: two walls, the start moved (km grows) and a replan with a budget of 2: the kinds and counters of that call, the iterations since creation [DEBUG.REPLAN.FIELDS] [DEBUG.REPLAN.KINDS]",
        DescribeRequest::Replan(ReplanRequest {
            grid: open(Some(0)),
            options: crate::grid::GridOptionsData::default(),
            mode: ModeName::DStarLite,
            start: (0, 0),
            goal: (7, 6),
            script: vec![
                ReplanStep::Replan { budget: 0 },
                wall(3, 3),
                wall(4, 3),
                ReplanStep::SetStart { x: 1, y: 1 },
                ReplanStep::Replan { budget: 2 },
            ],
        }),
    );
    let mut recorded_off = crate::replan::cases::request(SEED, 1, 10, 40);
    recorded_off.options.record = false;
    push(
        "a replanner without recording: no expansion and no kind [DEBUG.REPLAN.FIELDS] [DEBUG.EXPANDED.OPT_IN]",
        DescribeRequest::Replan(recorded_off),
    );
    use crate::flow::{FlowRequest, FlowStep};
    let field = |script: Vec<FlowStep>| FlowRequest {
        grid: crate::replan::ReplanGrid {
            hex_layout: None,
            map: crate::grid::vectors::MapFile {
                width: 8,
                height: 6,
                cells: hex::encode([0u8; 48]),
                multipliers: vec![],
                space: None,
            },
        },
        options: crate::grid::GridOptionsData::default(),
        goals: vec![(6, 4), (1, 1)],
        script,
        probes: vec![(0, 5)],
    };
    push(
        "a flow field run to the end: every cell's cost and step, the creation goals, complete, settled [DEBUG.FLOW.FIELDS] [FLOW.DEBUG.DESCRIBE]",
        DescribeRequest::Flow(field(vec![FlowStep::Step { budget: 0 }])),
    );
    push(
        "a flow field after one step of 7: running, 7 settled, tentative costs and no steps [DEBUG.FLOW.FIELDS] [FLOW.DEBUG.DESCRIBE]",
        DescribeRequest::Flow(field(vec![FlowStep::Step { budget: 7 }])),
    );
    push(
        "a generated flow-field edit script on a hex or square grid [DEBUG.FLOW.FIELDS]",
        DescribeRequest::Flow(crate::flow::cases::request(SEED, 1, 10, 40)),
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
            .describe(&request)
            .unwrap_or_else(|e| DescribeReply::Failed(format!("harness: {e}")));
        let envelope = Envelope::new(&id, FAMILY, &comment, vec![DebugCase { request, expected }]);
        files.insert(format!("{dir}/{id}.json"), to_text(&envelope).into_bytes());
    }
    files
}

/// The committed vectors under `dir`, in id order.
pub fn read_dir(dir: &Path) -> Result<Vec<DebugVector>, HarnessError> {
    let (folder, prefix) = FOLDER;
    let files =
        crate::envelope::read_family(dir, folder, prefix, FAMILY, |e: Envelope<DebugCase>| {
            let (id, comment, case) = e.single()?;
            Ok(DebugVector { id, comment, case })
        })?;
    Ok(files.into_iter().map(|(_, v)| v).collect())
}

/// The claim family of a request ([CONF.DEBUG.LEVEL]).
pub fn claim(request: &DescribeRequest) -> Family {
    Family::ALL
        .iter()
        .copied()
        .find(|f| f.name() == request.family())
        .unwrap_or(Family::Graph)
}

/// The claim family of vector `DEBUG-NNNN`: its generated request's target family.
pub fn claim_of_id(id: &str) -> Option<Family> {
    static CLAIMS: std::sync::OnceLock<Vec<Family>> = std::sync::OnceLock::new();
    let n: usize = id.strip_prefix(FOLDER.1)?.parse().ok()?;
    let claims = CLAIMS.get_or_init(|| requests().iter().map(|(_, r)| claim(r)).collect());
    n.checked_sub(1).and_then(|i| claims.get(i).copied())
}

/// The family's part of the `vectors` section ([`crate::request_vectors`]).
pub fn certify(
    dir: &Path,
    all: &[&dyn Implementation],
    shard: crate::config::Shard,
    families: crate::config::FamilySet,
    once: &mut Section,
    s: &mut Section,
) {
    // [CONF.CLI.FAMILY]: a description vector runs when its target's family is selected.
    let read = read_dir(dir).map(|vs| {
        vs.into_iter()
            .filter(|v| claim_of_id(&v.id).is_none_or(|f| families.contains(f)))
            .collect()
    });
    crate::request_vectors::RequestVectors {
        family: FAMILY,
        op: "describe",
        id: |v: &DebugVector| v.id.as_str(),
        oracle: &|v: &DebugVector| {
            own_reading(&v.case.request, &v.case.expected)
                .into_iter()
                .next()
        },
        run: &|imp: &dyn Implementation, v: &DebugVector| {
            imp.describe_as(&v.id, &v.case.request).map(|reply| {
                first_difference(&v.case.expected, &reply).map(|d| Difference {
                    query: None,
                    what: match d.entry {
                        Some(e) => format!("{}: {}", entry_name(&v.case.request, e), d.what()),
                        None => d.what(),
                    },
                    expected: d.expected.clone(),
                    found: d.found.clone(),
                })
            })
        },
    }
    .certify(read, all, shard, once, s)
}
