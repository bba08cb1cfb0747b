//! The kit's vectors as records ([RECORD.CASES]): every query of the committed vectors whose
//! world can be built, with its world and, where the vector holds it, the reply it expects.

use super::run::{bind, RecordReply, RecordWorld};
use super::{
    FlowQuery, GraphQuery, GridQuery, HpaRecordQuery, PlaneQuery, QueryRecord, RecordLandmarks,
    RecordQuery, ReplanQuery, VoxelQuery,
};
use crate::error::HarnessError;
use crate::flow::{FlowReply, FlowStep, FlowStepReply};
use crate::hpa::{HpaQueryReply, HpaReply};
use crate::lattice::{LatticeReply, LatticeRequest, QueryReply, Shape};
use crate::replan::{ReplanReply, ReplanStep, StepReply};
use crate::scenario::DecodedOutcome;
use std::path::Path;

/// What the vector expects of a record's run, where it holds it ([RECORD.CASES.CHECK]).
#[derive(Clone, Debug, PartialEq)]
pub enum Expected {
    /// A graph outcome.
    Graph(DecodedOutcome),
    /// A grid run's expected reply.
    Grid(crate::grid::vectors::Expected),
    /// A hex or voxel query's reply.
    Lattice(QueryReply),
    /// An HPA* query's reply.
    Hpa(HpaQueryReply),
    /// A bidirectional query's reply and meeting cell.
    Bidi(QueryReply, Option<u32>),
    /// The first step of a replanning script.
    Replan(StepReply),
    /// The first step of a flow-field script.
    Flow(FlowStepReply),
}

impl Expected {
    /// `None` when `reply` is what the vector expects, else the first difference in words.
    pub fn difference(&self, reply: &RecordReply) -> Option<String> {
        let same = match (self, reply) {
            (Expected::Graph(e), RecordReply::Graph(o)) => *e == DecodedOutcome::from_outcome(o),
            (Expected::Grid(e), RecordReply::Grid(o)) => *e == crate::grid::vectors::expected_of(o),
            (Expected::Lattice(e), RecordReply::Lattice(LatticeReply::Ran(q))) => {
                q.len() == 1 && q[0] == *e
            }
            (Expected::Hpa(e), RecordReply::Hpa(HpaReply::Ran(r))) => {
                // A lone query builds the hierarchy itself, so which chunks it (re)built is not
                // part of its result ([RECORD.CASES.CHECK]).
                let fresh = |q: &HpaQueryReply| match q {
                    HpaQueryReply::Path(p) => HpaQueryReply::Path(crate::hpa::HpaPathReply {
                        rebuilt: Vec::new(),
                        ..p.clone()
                    }),
                    other => other.clone(),
                };
                r.queries.len() == 1 && fresh(&r.queries[0]) == fresh(e)
            }
            (Expected::Bidi(e, m), RecordReply::Bidi(crate::bidi::BidiReply::Ran(r))) => {
                r.queries.len() == 1 && r.queries[0] == *e && r.meetings == [*m]
            }
            (Expected::Replan(e), RecordReply::Replan(ReplanReply::Ran { steps, .. })) => {
                steps.len() == 1 && steps[0] == *e
            }
            (Expected::Flow(e), RecordReply::Flow(FlowReply::Ran { steps, .. })) => {
                steps.len() == 1 && steps[0] == *e
            }
            _ => false,
        };
        if same {
            None
        } else {
            Some(format!("expected {self:?}, found {reply:?}"))
        }
    }
}

/// One record of a vector.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordCase {
    /// `<vector id>#<n>`: the vector and the record's position among its records.
    pub label: String,
    /// The world.
    pub world: RecordWorld,
    /// The record.
    pub record: QueryRecord,
    /// What the vector expects, where it holds it.
    pub expected: Option<Expected>,
}

struct Collect {
    out: Vec<RecordCase>,
}

impl Collect {
    fn push(
        &mut self,
        id: &str,
        n: &mut usize,
        world: &RecordWorld,
        query: RecordQuery,
        expected: Option<Expected>,
    ) {
        // [RECORD.CASES] A world that cannot be built has no binding, so no record.
        let Ok(binding) = bind(world) else { return };
        let query = match query {
            RecordQuery::Graph(mut g) => {
                if let (Some(l), super::WorldBinding::Graph { fingerprint, .. }) =
                    (&mut g.landmarks, &binding)
                {
                    l.graph_fingerprint = *fingerprint;
                }
                RecordQuery::Graph(g)
            }
            q => q,
        };
        self.out.push(RecordCase {
            label: format!("{id}#{n}"),
            world: world.clone(),
            record: QueryRecord {
                world: binding,
                query,
            },
            expected,
        });
        *n += 1;
    }
}

fn pair(v: &[u32]) -> (u32, u32) {
    (
        v.first().copied().unwrap_or(0),
        v.get(1).copied().unwrap_or(0),
    )
}

/// [RECORD.CASES] Every record of the committed vectors under `dir` (`vectors/`), in family
/// order, then vector order.
pub fn all(dir: &Path) -> Result<Vec<RecordCase>, HarnessError> {
    let mut c = Collect { out: Vec::new() };
    for s in crate::vectors::read_scenarios(dir)? {
        let world = RecordWorld::Graph(s.graph.clone());
        let mut n = 0;
        for (variant, outcomes) in &s.outcomes {
            for (q, o) in s.queries.iter().zip(outcomes) {
                let landmarks = variant.uses_alt().then_some(RecordLandmarks {
                    spec: s.landmarks,
                    graph_fingerprint: 0,
                });
                let query = RecordQuery::Graph(GraphQuery {
                    variant: *variant,
                    start: q.0,
                    goal: q.1,
                    budget: 0,
                    record: true,
                    schedule: Vec::new(),
                    landmarks,
                });
                c.push(
                    &s.id,
                    &mut n,
                    &world,
                    query,
                    Some(Expected::Graph(o.clone())),
                );
            }
        }
    }
    for v in crate::grid::vectors::read_dir(dir)? {
        let world = RecordWorld::Square(v.map.clone());
        let mut n = 0;
        for r in &v.runs {
            let q = v.queries[r.query];
            let query = RecordQuery::GridSearch(GridQuery {
                api: r.api,
                options: r.options.clone(),
                start: (q[0], q[1]),
                goal: (q[2], q[3]),
                schedule: Vec::new(),
                snapshot_after: None,
            });
            c.push(
                &v.id,
                &mut n,
                &world,
                query,
                Some(Expected::Grid(r.expected.clone())),
            );
        }
    }
    for v in crate::replan::vectors::read_dir(dir)? {
        let r = &v.case.request;
        let world = plane_world(r.grid.hex_layout, &r.grid.map);
        let expected = match (r.script.first(), &v.case.expected) {
            (Some(ReplanStep::Replan { budget: 0 }), ReplanReply::Ran { steps, .. }) => {
                steps.first().cloned().map(Expected::Replan)
            }
            _ => None,
        };
        let query = RecordQuery::Replanning(ReplanQuery {
            options: r.options.clone(),
            mode: r.mode,
            start: r.start,
            goal: r.goal,
            budget: 0,
        });
        c.push(&v.id, &mut 0, &world, query, expected);
    }
    for v in crate::flow::vectors::read_dir(dir)? {
        let r = &v.case.request;
        let world = plane_world(r.grid.hex_layout, &r.grid.map);
        let expected = match (r.script.first(), &v.case.expected) {
            (Some(FlowStep::Step { budget: 0 }), FlowReply::Ran { steps, .. }) => {
                steps.first().cloned().map(Expected::Flow)
            }
            _ => None,
        };
        let query = RecordQuery::FlowField(FlowQuery {
            options: r.options.clone(),
            goals: r.goals.clone(),
            budget: 0,
        });
        c.push(&v.id, &mut 0, &world, query, expected);
    }
    for shape in [Shape::Hex, Shape::Voxel] {
        for v in crate::lattice::vectors::read_dir(shape, dir)? {
            let replies = match &v.case.expected {
                LatticeReply::Ran(q) => Some(q),
                LatticeReply::Failed(_) => None,
            };
            let mut n = 0;
            match &v.case.request {
                LatticeRequest::Hex(r) => {
                    let world = RecordWorld::Hex {
                        layout: r.layout,
                        map: r.map.clone(),
                    };
                    for (i, q) in r.queries.iter().enumerate() {
                        // [RECORD.CASES] A cancel query ([CONF.LATTICE.CANCEL]) is a call
                        // sequence, not a query a record can hold.
                        if q.cancel.is_some() {
                            continue;
                        }
                        let query = RecordQuery::Hex(PlaneQuery {
                            options: r.options.clone(),
                            start: pair(&q.start),
                            goal: pair(&q.goal),
                            schedule: q.schedule.clone(),
                        });
                        let e = replies
                            .and_then(|q| q.get(i))
                            .cloned()
                            .map(Expected::Lattice);
                        c.push(&v.id, &mut n, &world, query, e);
                    }
                }
                LatticeRequest::Voxel(r) => {
                    let world = RecordWorld::Voxel {
                        size: r.size,
                        cells: r.cells.clone(),
                        multipliers: r.multipliers.clone(),
                        space: r.space,
                    };
                    let triple = |v: &[u32]| [0, 1, 2].map(|i| v.get(i).copied().unwrap_or(0));
                    for (i, q) in r.queries.iter().enumerate() {
                        // [RECORD.CASES] A cancel query ([CONF.LATTICE.CANCEL]) is a call
                        // sequence, not a query a record can hold.
                        if q.cancel.is_some() {
                            continue;
                        }
                        let query = RecordQuery::Voxel(VoxelQuery {
                            options: r.options.clone(),
                            start: triple(&q.start),
                            goal: triple(&q.goal),
                            schedule: q.schedule.clone(),
                        });
                        let e = replies
                            .and_then(|q| q.get(i))
                            .cloned()
                            .map(Expected::Lattice);
                        c.push(&v.id, &mut n, &world, query, e);
                    }
                }
            }
        }
    }
    for v in crate::hpa::vectors::read_dir(dir)? {
        let r = &v.case.request;
        let world = RecordWorld::Square(r.map.clone());
        let replies = match &v.case.expected {
            HpaReply::Ran(ran) => Some(&ran.queries),
            HpaReply::Failed(_) => None,
        };
        let mut n = 0;
        for (i, q) in r.queries.iter().enumerate() {
            if !q.edits.is_empty() {
                break;
            }
            // [RECORD.CASES] A cancel query ([CONF.HPA.CANCEL]) is a call sequence, not a
            // query a record can hold.
            if q.cancel.is_some() {
                continue;
            }
            let query = RecordQuery::Hpa(HpaRecordQuery {
                options: r.options.clone(),
                start: pair(&q.start),
                goal: pair(&q.goal),
                schedule: q.schedule.clone(),
            });
            let e = replies.and_then(|q| q.get(i)).cloned().map(Expected::Hpa);
            c.push(&v.id, &mut n, &world, query, e);
        }
    }
    for v in crate::bidi::vectors::read_dir(dir)? {
        let r = &v.case.request;
        let world = RecordWorld::Square(r.map.clone());
        let ran = match &v.case.expected {
            crate::bidi::BidiReply::Ran(ran) => Some(ran),
            crate::bidi::BidiReply::Failed(_) => None,
        };
        let mut n = 0;
        for (i, q) in r.queries.iter().enumerate() {
            // [RECORD.CASES] A cancel query ([CONF.LATTICE.CANCEL]) is a call sequence.
            if q.cancel.is_some() {
                continue;
            }
            let query = RecordQuery::Bidi(PlaneQuery {
                options: r.options.clone(),
                start: pair(&q.start),
                goal: pair(&q.goal),
                schedule: q.schedule.clone(),
            });
            let e = ran.and_then(|ran| {
                Some(Expected::Bidi(
                    ran.queries.get(i)?.clone(),
                    *ran.meetings.get(i)?,
                ))
            });
            c.push(&v.id, &mut n, &world, query, e);
        }
    }
    Ok(c.out)
}

fn plane_world(hex_layout: Option<i32>, map: &crate::grid::vectors::MapFile) -> RecordWorld {
    match hex_layout {
        None => RecordWorld::Square(map.clone()),
        Some(layout) => RecordWorld::Hex {
            layout,
            map: map.clone(),
        },
    }
}
