//! Running a record on a world ([RECORD.RUN.*]): the world's binding computed with the reference
//! crate, the checks of [RECORD.RUN.BIND], and the one family request of [RECORD.RUN.REQUEST]
//! run on any [`Implementation`].

use super::{QueryRecord, RecordQuery, WorldBinding};
use crate::bidi::{BidiReply, BidiRequest};
use crate::error::HarnessError;
use crate::flow::{FlowReply, FlowRequest, FlowStep};
use crate::grid::vectors::MapFile;
use crate::grid::{GridMap, GridOutcome, GridRequest};
use crate::hpa::{HpaQuery, HpaReply, HpaRequest};
use crate::implementation::{Implementation, RunOptions};
use crate::lattice::{HexRequest, LatticeReply, LatticeRequest, Query, VoxelRequest};
use crate::outcome::Outcome;
use crate::replan::{ReplanGrid, ReplanReply, ReplanRequest, ReplanStep};
use crate::scenario::{Case, GraphSpec, LandmarkSpec, StrategySpec};
use onepath_reference as op;
use sha2::{Digest, Sha256};
use std::fmt;

/// The world a record runs on, as the kit's requests describe it.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordWorld {
    /// A square grid (kind 1).
    Square(MapFile),
    /// A hex grid (kind 2).
    Hex {
        /// The [GRID.HEX.LAYOUT] value.
        layout: i32,
        /// Cells, multipliers, space.
        map: MapFile,
    },
    /// A voxel grid (kind 3).
    Voxel {
        /// `[sx, sy, sz]`.
        size: [u32; 3],
        /// The cells, lowercase hex.
        cells: String,
        /// `(area, multiplier)` calls.
        multipliers: Vec<(u8, f64)>,
        /// `[ox, oy, oz, s]` or none.
        space: Option<[f64; 4]>,
    },
    /// A graph (kind 4).
    Graph(GraphSpec),
}

/// Why a record did not run ([RECORD.RUN.BIND]).
#[derive(Clone, Debug, PartialEq)]
pub enum RecordRunError {
    /// The world is of another kind.
    WorldKindMismatch {
        /// The record's.
        expected: u8,
        /// The world's.
        found: u8,
    },
    /// The grid's area version differs.
    AreaVersionMismatch {
        /// The record's.
        expected: i32,
        /// The world's.
        found: i32,
    },
    /// The world differs (the member named: `state_sha256`, `node_count`, `fingerprint`,
    /// `positions_sha256`).
    WorldMismatch(&'static str),
    /// The landmarks were built on another graph.
    StaleLandmarks,
    /// The world cannot be built (its class), so it has no binding.
    Unbuildable(String),
    /// The implementation did not answer.
    Harness(HarnessError),
}

impl RecordRunError {
    /// The class name of [RECORD.RUN.BIND].
    pub fn class(&self) -> &'static str {
        match self {
            RecordRunError::WorldKindMismatch { .. } => "world_kind_mismatch",
            RecordRunError::AreaVersionMismatch { .. } => "area_version_mismatch",
            RecordRunError::WorldMismatch(_) => "world_mismatch",
            RecordRunError::StaleLandmarks => "stale_landmarks",
            RecordRunError::Unbuildable(_) => "unbuildable_world",
            RecordRunError::Harness(_) => "harness",
        }
    }
}

impl fmt::Display for RecordRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordRunError::WorldKindMismatch { expected, found } => write!(
                f,
                "world_kind_mismatch: the record names kind {expected}, the world is kind {found}"
            ),
            RecordRunError::AreaVersionMismatch { expected, found } => write!(
                f,
                "area_version_mismatch: the record names area version {expected}, the grid has {found}"
            ),
            RecordRunError::WorldMismatch(what) => {
                write!(f, "world_mismatch: the world's {what} differs from the record's")
            }
            RecordRunError::StaleLandmarks => write!(
                f,
                "stale_landmarks: the landmarks' graph fingerprint is not the world's"
            ),
            RecordRunError::Unbuildable(class) => {
                write!(f, "unbuildable_world: building the world failed with {class}")
            }
            RecordRunError::Harness(e) => write!(f, "harness: {e}"),
        }
    }
}

impl std::error::Error for RecordRunError {}

fn sha(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

fn grid_map(m: &MapFile) -> Result<GridMap, String> {
    Ok(GridMap {
        width: m.width,
        height: m.height,
        cells: hex::decode(&m.cells).map_err(|e| format!("bad cells hex: {e}"))?,
        multipliers: m.multipliers.clone(),
        space: m.space,
    })
}

fn voxel_request(world: &RecordWorld) -> Option<VoxelRequest> {
    let RecordWorld::Voxel {
        size,
        cells,
        multipliers,
        space,
    } = world
    else {
        return None;
    };
    Some(VoxelRequest {
        size: *size,
        cells: cells.clone(),
        multipliers: multipliers.clone(),
        space: *space,
        options: crate::lattice::VoxelOptionsData {
            connectivity: 6,
            diagonal: 0,
            algorithm: 0,
            cell_cost: None,
            blocked: None,
            weight: 1.0,
            record: false,
            budget: 0,
        },
        queries: Vec::new(),
    })
}

/// [RECORD.WORLD] The binding of a world, computed with the reference crate (its state bytes are
/// certified equal to every implementation's).
pub fn bind(world: &RecordWorld) -> Result<WorldBinding, RecordRunError> {
    let unbuildable = |e: String| RecordRunError::Unbuildable(e);
    let grid = |bytes: Vec<u8>, kind: u8, area_version: i32| WorldBinding::Grid {
        kind,
        state_sha256: sha(&bytes),
        area_version,
    };
    match world {
        RecordWorld::Square(m) => {
            let g = crate::grid::adapter::reference_adapter::build_grid(
                &grid_map(m).map_err(unbuildable)?,
            )
            .map_err(unbuildable)?;
            Ok(grid(g.save_state(), 1, g.area_version()))
        }
        RecordWorld::Hex { layout, map } => {
            let request = HexRequest {
                layout: *layout,
                map: map.clone(),
                options: Default::default(),
                queries: Vec::new(),
            };
            let g = crate::lattice::adapter::reference_adapter::hex_grid(&request)
                .map_err(|e| unbuildable(e.to_string()))?
                .map_err(unbuildable)?;
            Ok(grid(g.save_state(), 2, g.area_version()))
        }
        RecordWorld::Voxel { .. } => {
            let request = voxel_request(world).ok_or_else(|| unbuildable(String::new()))?;
            let g = crate::lattice::adapter::reference_adapter::voxel_grid(&request)
                .map_err(|e| unbuildable(e.to_string()))?
                .map_err(unbuildable)?;
            Ok(grid(g.save_state(), 3, g.area_version()))
        }
        RecordWorld::Graph(spec) => graph_binding(spec),
    }
}

fn positions_hash(points: &[[f64; 3]]) -> [u8; 32] {
    let mut bytes = Vec::with_capacity(points.len() * 24);
    for p in points {
        for c in p {
            bytes.extend_from_slice(&c.to_bits().to_le_bytes());
        }
    }
    sha(&bytes)
}

fn graph_binding(spec: &GraphSpec) -> Result<WorldBinding, RecordRunError> {
    let failed = |e: &dyn fmt::Display| RecordRunError::Unbuildable(e.to_string());
    let (fingerprint, node_count, positions) = match spec {
        GraphSpec::Edges {
            node_count,
            directed,
            edges,
            positions,
        } => {
            let list: Vec<op::GraphEdge> = edges
                .iter()
                .map(|&(a, b, w)| op::GraphEdge::new(a, b, w))
                .collect();
            let g = op::Graph::from_edges(&list, Some(*node_count as usize), *directed)
                .map_err(|e| failed(&e.class()))?;
            (
                g.compile().fingerprint(),
                *node_count,
                positions.as_deref().map(positions_hash),
            )
        }
        GraphSpec::Points {
            points,
            explicit,
            max_distance,
            nearest_count,
        } => {
            let pts: Vec<op::Point3> = points
                .iter()
                .map(|p| op::Point3::new(p[0], p[1], p[2]))
                .collect();
            let options = op::LinkOptions {
                explicit: explicit.iter().map(|l| (l[0], l[1])).collect(),
                max_distance: *max_distance,
                nearest_count: *nearest_count as usize,
                link_valid: None,
            };
            let pg = op::PointGraph::new(&pts, &options).map_err(|e| failed(&e.class()))?;
            (
                pg.csr().fingerprint(),
                points.len() as u32,
                Some(positions_hash(points)),
            )
        }
    };
    Ok(WorldBinding::Graph {
        fingerprint,
        node_count,
        positions_sha256: positions,
    })
}

/// [RECORD.RUN.BIND] The checks before a record runs on `world`.
pub fn check_binding(record: &QueryRecord, world: &RecordWorld) -> Result<(), RecordRunError> {
    let found = bind(world)?;
    if found.kind() != record.world.kind() {
        return Err(RecordRunError::WorldKindMismatch {
            expected: record.world.kind(),
            found: found.kind(),
        });
    }
    match (&record.world, &found) {
        (
            WorldBinding::Grid {
                state_sha256: a,
                area_version: va,
                ..
            },
            WorldBinding::Grid {
                state_sha256: b,
                area_version: vb,
                ..
            },
        ) => {
            if va != vb {
                return Err(RecordRunError::AreaVersionMismatch {
                    expected: *va,
                    found: *vb,
                });
            }
            if a != b {
                return Err(RecordRunError::WorldMismatch("state_sha256"));
            }
        }
        (
            WorldBinding::Graph {
                fingerprint: fa,
                node_count: na,
                positions_sha256: pa,
            },
            WorldBinding::Graph {
                fingerprint: fb,
                node_count: nb,
                positions_sha256: pb,
            },
        ) => {
            if na != nb {
                return Err(RecordRunError::WorldMismatch("node_count"));
            }
            if fa != fb {
                return Err(RecordRunError::WorldMismatch("fingerprint"));
            }
            if pa != pb {
                return Err(RecordRunError::WorldMismatch("positions_sha256"));
            }
            if let RecordQuery::Graph(g) = &record.query {
                if g.landmarks.is_some_and(|l| l.graph_fingerprint != *fb) {
                    return Err(RecordRunError::StaleLandmarks);
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// The one family request a record runs as ([RECORD.RUN.REQUEST]).
#[derive(Clone, Debug, PartialEq)]
pub enum RecordRequest {
    /// A graph query: the case, the variant, the query, the options and the schedule.
    Graph {
        /// The case.
        case: Case,
        /// The record's query.
        query: super::GraphQuery,
    },
    /// A grid request.
    Grid(GridRequest),
    /// A replanner request.
    Replan(ReplanRequest),
    /// A flow-field request.
    Flow(FlowRequest),
    /// A hex or voxel request.
    Lattice(LatticeRequest),
    /// An HPA* request.
    Hpa(HpaRequest),
    /// A bidirectional request.
    Bidi(BidiRequest),
}

/// What the request replied.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordReply {
    /// A graph outcome.
    Graph(Outcome),
    /// A grid outcome.
    Grid(GridOutcome),
    /// A replanner reply.
    Replan(ReplanReply),
    /// A flow-field reply.
    Flow(FlowReply),
    /// A hex or voxel reply.
    Lattice(LatticeReply),
    /// An HPA* reply.
    Hpa(HpaReply),
    /// A bidirectional reply.
    Bidi(BidiReply),
}

fn plane_grid(world: &RecordWorld) -> Option<ReplanGrid> {
    match world {
        RecordWorld::Square(map) => Some(ReplanGrid {
            hex_layout: None,
            map: map.clone(),
        }),
        RecordWorld::Hex { layout, map } => Some(ReplanGrid {
            hex_layout: Some(*layout),
            map: map.clone(),
        }),
        _ => None,
    }
}

fn query(start: Vec<u32>, goal: Vec<u32>, schedule: &[u64]) -> Query {
    Query {
        start,
        goal,
        schedule: schedule.to_vec(),
        cancel: None,
    }
}

/// [RECORD.RUN.BIND] [RECORD.RUN.REQUEST] The request of `record` on `world`, after the
/// binding checks.
pub fn request(record: &QueryRecord, world: &RecordWorld) -> Result<RecordRequest, RecordRunError> {
    check_binding(record, world)?;
    let mismatch = || RecordRunError::WorldKindMismatch {
        expected: record.world.kind(),
        found: bind(world).map(|b| b.kind()).unwrap_or(0),
    };
    let map = |w: &RecordWorld| match w {
        RecordWorld::Square(m) => Ok(m.clone()),
        _ => Err(mismatch()),
    };
    Ok(match &record.query {
        RecordQuery::Graph(g) => {
            let RecordWorld::Graph(spec) = world else {
                return Err(mismatch());
            };
            RecordRequest::Graph {
                case: Case {
                    graph: spec.clone(),
                    landmarks: g.landmarks.map(|l| l.spec).unwrap_or(LandmarkSpec {
                        count: 0,
                        strategy: StrategySpec::Avoid,
                        seed: 0,
                    }),
                },
                query: g.clone(),
            }
        }
        RecordQuery::GridSearch(q) => {
            let m = map(world)?;
            RecordRequest::Grid(GridRequest {
                map: grid_map(&m).map_err(RecordRunError::Unbuildable)?,
                options: q.options.clone(),
                api: q.api,
                start: q.start,
                goal: q.goal,
                schedule: q.schedule.clone(),
                snapshot_after: q.snapshot_after.map(|k| k as usize),
            })
        }
        RecordQuery::Replanning(q) => RecordRequest::Replan(ReplanRequest {
            grid: plane_grid(world).ok_or_else(mismatch)?,
            options: q.options.clone(),
            mode: q.mode,
            start: q.start,
            goal: q.goal,
            script: vec![ReplanStep::Replan { budget: q.budget }],
        }),
        RecordQuery::FlowField(q) => RecordRequest::Flow(FlowRequest {
            grid: plane_grid(world).ok_or_else(mismatch)?,
            options: q.options.clone(),
            goals: q.goals.clone(),
            script: vec![FlowStep::Step { budget: q.budget }],
            probes: Vec::new(),
        }),
        RecordQuery::Hex(q) => {
            let RecordWorld::Hex { layout, map } = world else {
                return Err(mismatch());
            };
            RecordRequest::Lattice(LatticeRequest::Hex(HexRequest {
                layout: *layout,
                map: map.clone(),
                options: q.options.clone(),
                queries: vec![query(
                    vec![q.start.0, q.start.1],
                    vec![q.goal.0, q.goal.1],
                    &q.schedule,
                )],
            }))
        }
        RecordQuery::Voxel(q) => {
            let mut r = voxel_request(world).ok_or_else(mismatch)?;
            r.options = q.options.clone();
            r.queries = vec![query(q.start.to_vec(), q.goal.to_vec(), &q.schedule)];
            RecordRequest::Lattice(LatticeRequest::Voxel(r))
        }
        RecordQuery::Hpa(q) => RecordRequest::Hpa(HpaRequest {
            map: map(world)?,
            options: q.options.clone(),
            queries: vec![HpaQuery {
                edits: Vec::new(),
                start: vec![q.start.0, q.start.1],
                goal: vec![q.goal.0, q.goal.1],
                schedule: q.schedule.clone(),
                cancel: None,
            }],
        }),
        RecordQuery::Bidi(q) => RecordRequest::Bidi(BidiRequest {
            map: map(world)?,
            options: q.options.clone(),
            queries: vec![query(
                vec![q.start.0, q.start.1],
                vec![q.goal.0, q.goal.1],
                &q.schedule,
            )],
        }),
    })
}

/// Runs a built request on `imp`, labelled `label` for a port's report.
pub fn run_request(
    imp: &dyn Implementation,
    label: &str,
    request: &RecordRequest,
) -> Result<RecordReply, HarnessError> {
    Ok(match request {
        RecordRequest::Graph { case, query } => {
            let q = (query.start, query.goal);
            RecordReply::Graph(if query.schedule.is_empty() {
                imp.run_query(
                    case,
                    query.variant,
                    q,
                    RunOptions {
                        iteration_budget: query.budget,
                        record_expansions: query.record,
                    },
                )
            } else {
                imp.run_sliced(case, query.variant, q, &query.schedule)
            })
        }
        RecordRequest::Grid(r) => RecordReply::Grid(imp.run_grid(r)?),
        RecordRequest::Replan(r) => RecordReply::Replan(imp.run_replan_as(label, r)?),
        RecordRequest::Flow(r) => RecordReply::Flow(imp.run_flow_as(label, r)?),
        RecordRequest::Lattice(r) => RecordReply::Lattice(imp.run_lattice_as(label, r)?),
        RecordRequest::Hpa(r) => RecordReply::Hpa(imp.run_hpa_as(label, r)?),
        RecordRequest::Bidi(r) => RecordReply::Bidi(imp.run_bidi_as(label, r)?),
    })
}

/// [RECORD.RUN.BIND] [RECORD.RUN.REQUEST] Runs `record` on `world` in `imp`.
pub fn run(
    imp: &dyn Implementation,
    record: &QueryRecord,
    world: &RecordWorld,
) -> Result<RecordReply, RecordRunError> {
    let r = request(record, world)?;
    run_request(imp, "record", &r).map_err(RecordRunError::Harness)
}
