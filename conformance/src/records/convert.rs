//! The typed queries of a record ([RECORD.BODY]) and their conversion to and from the values of
//! the member tables; a value that passed its table always converts. Options are carried as
//! written, valid or not ([RECORD.BODY.VERBATIM]); hooks are the kit's named rules
//! ([RECORD.BODY.HOOKS]).

use super::schema::Val;
use crate::grid::{CellBlockRule, CellCostRule, GridApi, GridOptionsData};
use crate::hpa::HpaOptionsData;
use crate::lattice::VoxelOptionsData;
use crate::replan::ModeName;
use crate::scenario::{LandmarkSpec, StrategySpec, Variant};

/// The landmarks of a graph record: the options and the fingerprint of the graph they were
/// built on ([RECORD.BODY.GRAPH]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RecordLandmarks {
    /// Count, strategy, seed.
    pub spec: LandmarkSpec,
    /// [GRAPH.CSR.FINGERPRINT] of the graph.
    pub graph_fingerprint: u64,
}

/// A `graph` body.
#[derive(Clone, Debug, PartialEq)]
pub struct GraphQuery {
    /// The variant.
    pub variant: Variant,
    /// Start node.
    pub start: u32,
    /// Goal node.
    pub goal: u32,
    /// Tier-1 iteration budget.
    pub budget: u64,
    /// Record expansions.
    pub record: bool,
    /// Step budgets of the sliced form; empty: tier 1.
    pub schedule: Vec<u64>,
    /// The landmarks, for the alt variants.
    pub landmarks: Option<RecordLandmarks>,
}

/// A `grid-search` body.
#[derive(Clone, Debug, PartialEq)]
pub struct GridQuery {
    /// The API.
    pub api: GridApi,
    /// The options.
    pub options: GridOptionsData,
    /// `(x, y)`.
    pub start: (u32, u32),
    /// `(x, y)`.
    pub goal: (u32, u32),
    /// Step budgets.
    pub schedule: Vec<u64>,
    /// Snapshot after this many step calls.
    pub snapshot_after: Option<u32>,
}

/// A `replanning` body.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplanQuery {
    /// The options.
    pub options: GridOptionsData,
    /// LPA* or D* Lite.
    pub mode: ModeName,
    /// `(x, y)`.
    pub start: (u32, u32),
    /// `(x, y)`.
    pub goal: (u32, u32),
    /// The budget of the one replan.
    pub budget: u64,
}

/// A `flow-field` body.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowQuery {
    /// The options.
    pub options: GridOptionsData,
    /// The goals, in creation order.
    pub goals: Vec<(u32, u32)>,
    /// The budget of the one step.
    pub budget: u64,
}

/// A `hex-search` or `grid-bidi` body.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaneQuery {
    /// The options.
    pub options: GridOptionsData,
    /// `(x, y)`.
    pub start: (u32, u32),
    /// `(x, y)`.
    pub goal: (u32, u32),
    /// Step budgets; empty: tier 1.
    pub schedule: Vec<u64>,
}

/// A `voxel-search` body.
#[derive(Clone, Debug, PartialEq)]
pub struct VoxelQuery {
    /// The options.
    pub options: VoxelOptionsData,
    /// `(x, y, z)`.
    pub start: [u32; 3],
    /// `(x, y, z)`.
    pub goal: [u32; 3],
    /// Step budgets; empty: tier 1.
    pub schedule: Vec<u64>,
}

/// An `hpa` body.
#[derive(Clone, Debug, PartialEq)]
pub struct HpaRecordQuery {
    /// The options.
    pub options: HpaOptionsData,
    /// `(x, y)`.
    pub start: (u32, u32),
    /// `(x, y)`.
    pub goal: (u32, u32),
    /// Step budgets; empty: tier 1.
    pub schedule: Vec<u64>,
}

/// The query of a record, by family ([RECORD.FAMILIES]).
#[derive(Clone, Debug, PartialEq)]
pub enum RecordQuery {
    /// `graph`.
    Graph(GraphQuery),
    /// `grid-search`.
    GridSearch(GridQuery),
    /// `replanning`.
    Replanning(ReplanQuery),
    /// `flow-field`.
    FlowField(FlowQuery),
    /// `hex-search`.
    Hex(PlaneQuery),
    /// `voxel-search`.
    Voxel(VoxelQuery),
    /// `hpa`.
    Hpa(HpaRecordQuery),
    /// `grid-bidi`.
    Bidi(PlaneQuery),
}

const API_ORDER: [GridApi; 5] = [
    GridApi::Tier1,
    GridApi::Handle,
    GridApi::AStar,
    GridApi::Jump,
    GridApi::Theta,
];

fn u(v: u64) -> Val {
    Val::U(v)
}
fn xy(p: (u32, u32)) -> Val {
    Val::List(vec![u(p.0 as u64), u(p.1 as u64)])
}
fn list(s: &[u64]) -> Val {
    Val::List(s.iter().map(|&x| u(x)).collect())
}
fn cost_rule(c: &Option<CellCostRule>) -> Val {
    Val::Opt(c.map(|c| {
        Box::new(match c {
            CellCostRule::ExtraWhere { modulus, extra } => Val::OneOf(
                0,
                Box::new(Val::Obj(vec![u(modulus as u64), Val::F(extra)])),
            ),
            CellCostRule::InvalidWhere { modulus } => {
                Val::OneOf(1, Box::new(Val::Obj(vec![u(modulus as u64)])))
            }
        })
    }))
}
fn block_rule(b: &Option<CellBlockRule>) -> Val {
    Val::Opt(b.map(|b| Box::new(Val::Obj(vec![u(b.modulus as u64), u(b.residue as u64)]))))
}
fn grid_options(o: &GridOptionsData) -> Val {
    Val::Obj(vec![
        u(o.agent_size as u64),
        u(o.connectivity as u64),
        u(o.diagonal as u64),
        u(o.algorithm as u64),
        cost_rule(&o.cell_cost),
        block_rule(&o.blocked),
        Val::F(o.weight),
        Val::B(o.record),
        u(o.budget),
    ])
}

impl RecordQuery {
    /// The family code ([RECORD.FAMILIES]).
    pub fn code(&self) -> usize {
        match self {
            RecordQuery::Graph(_) => 0,
            RecordQuery::GridSearch(_) => 1,
            RecordQuery::Replanning(_) => 2,
            RecordQuery::FlowField(_) => 3,
            RecordQuery::Hex(_) => 4,
            RecordQuery::Voxel(_) => 5,
            RecordQuery::Hpa(_) => 6,
            RecordQuery::Bidi(_) => 7,
        }
    }

    /// The body's member values, in table order.
    pub(crate) fn to_val(&self) -> Vec<Val> {
        match self {
            RecordQuery::Graph(g) => vec![
                Val::Name(g.variant as usize),
                u(g.start as u64),
                u(g.goal as u64),
                u(g.budget),
                Val::B(g.record),
                list(&g.schedule),
                Val::Opt(g.landmarks.map(|l| {
                    Box::new(Val::Obj(vec![
                        u(l.spec.count as u64),
                        Val::Name(match l.spec.strategy {
                            StrategySpec::Avoid => 0,
                            StrategySpec::Farthest => 1,
                        }),
                        u(l.spec.seed),
                        u(l.graph_fingerprint),
                    ]))
                })),
            ],
            RecordQuery::GridSearch(g) => vec![
                Val::Name(API_ORDER.iter().position(|a| *a == g.api).unwrap_or(0)),
                grid_options(&g.options),
                xy(g.start),
                xy(g.goal),
                list(&g.schedule),
                Val::Opt(g.snapshot_after.map(|k| Box::new(u(k as u64)))),
            ],
            RecordQuery::Replanning(r) => vec![
                grid_options(&r.options),
                Val::Name(match r.mode {
                    ModeName::Lpa => 0,
                    ModeName::DStarLite => 1,
                }),
                xy(r.start),
                xy(r.goal),
                u(r.budget),
            ],
            RecordQuery::FlowField(f) => vec![
                grid_options(&f.options),
                Val::List(f.goals.iter().map(|&g| xy(g)).collect()),
                u(f.budget),
            ],
            RecordQuery::Hex(p) | RecordQuery::Bidi(p) => vec![
                grid_options(&p.options),
                xy(p.start),
                xy(p.goal),
                list(&p.schedule),
            ],
            RecordQuery::Voxel(v) => {
                let o = &v.options;
                vec![
                    Val::Obj(vec![
                        u(o.connectivity as u64),
                        u(o.diagonal as u64),
                        u(o.algorithm as u64),
                        cost_rule(&o.cell_cost),
                        block_rule(&o.blocked),
                        Val::F(o.weight),
                        Val::B(o.record),
                        u(o.budget),
                    ]),
                    Val::List(v.start.iter().map(|&c| u(c as u64)).collect()),
                    Val::List(v.goal.iter().map(|&c| u(c as u64)).collect()),
                    list(&v.schedule),
                ]
            }
            RecordQuery::Hpa(h) => {
                let o = &h.options;
                vec![
                    Val::Obj(vec![
                        u(o.chunk_size as u64),
                        u(o.connectivity as u64),
                        u(o.diagonal as u64),
                        Val::F(o.weight),
                        Val::B(o.smooth),
                        Val::B(o.record),
                        u(o.budget),
                    ]),
                    xy(h.start),
                    xy(h.goal),
                    list(&h.schedule),
                ]
            }
        }
    }

    /// The query of family `code` from its member values (`None` only if they do not have the
    /// table's shape, which a reader never lets through).
    pub(crate) fn from_val(code: usize, vals: &[Val]) -> Option<RecordQuery> {
        Some(match code {
            0 => {
                let [Val::Name(variant), start, goal, budget, Val::B(record), schedule, Val::Opt(l)] =
                    vals
                else {
                    return None;
                };
                let landmarks = match l {
                    None => None,
                    Some(b) => {
                        let Val::Obj(m) = &**b else { return None };
                        let [count, Val::Name(strategy), seed, fp] = m.as_slice() else {
                            return None;
                        };
                        Some(RecordLandmarks {
                            spec: LandmarkSpec {
                                count: uint(count)? as u32,
                                strategy: if *strategy == 0 {
                                    StrategySpec::Avoid
                                } else {
                                    StrategySpec::Farthest
                                },
                                seed: uint(seed)?,
                            },
                            graph_fingerprint: uint(fp)?,
                        })
                    }
                };
                RecordQuery::Graph(GraphQuery {
                    variant: *Variant::ALL.get(*variant)?,
                    start: uint(start)? as u32,
                    goal: uint(goal)? as u32,
                    budget: uint(budget)?,
                    record: *record,
                    schedule: uints(schedule)?,
                    landmarks,
                })
            }
            1 => {
                let [Val::Name(api), options, start, goal, schedule, Val::Opt(snap)] = vals else {
                    return None;
                };
                RecordQuery::GridSearch(GridQuery {
                    api: *API_ORDER.get(*api)?,
                    options: grid_options_of(options)?,
                    start: pair(start)?,
                    goal: pair(goal)?,
                    schedule: uints(schedule)?,
                    snapshot_after: match snap {
                        None => None,
                        Some(b) => Some(uint(b)? as u32),
                    },
                })
            }
            2 => {
                let [options, Val::Name(mode), start, goal, budget] = vals else {
                    return None;
                };
                RecordQuery::Replanning(ReplanQuery {
                    options: grid_options_of(options)?,
                    mode: if *mode == 0 {
                        ModeName::Lpa
                    } else {
                        ModeName::DStarLite
                    },
                    start: pair(start)?,
                    goal: pair(goal)?,
                    budget: uint(budget)?,
                })
            }
            3 => {
                let [options, Val::List(goals), budget] = vals else {
                    return None;
                };
                RecordQuery::FlowField(FlowQuery {
                    options: grid_options_of(options)?,
                    goals: goals.iter().map(pair).collect::<Option<_>>()?,
                    budget: uint(budget)?,
                })
            }
            4 | 7 => {
                let [options, start, goal, schedule] = vals else {
                    return None;
                };
                let p = PlaneQuery {
                    options: grid_options_of(options)?,
                    start: pair(start)?,
                    goal: pair(goal)?,
                    schedule: uints(schedule)?,
                };
                if code == 4 {
                    RecordQuery::Hex(p)
                } else {
                    RecordQuery::Bidi(p)
                }
            }
            5 => {
                let [Val::Obj(o), start, goal, schedule] = vals else {
                    return None;
                };
                let [c, d, a, cost, blocked, Val::F(weight), Val::B(record), budget] = o.as_slice()
                else {
                    return None;
                };
                RecordQuery::Voxel(VoxelQuery {
                    options: VoxelOptionsData {
                        connectivity: uint(c)? as u8,
                        diagonal: uint(d)? as u8,
                        algorithm: uint(a)? as u8,
                        cell_cost: cost_rule_of(cost)?,
                        blocked: block_rule_of(blocked)?,
                        weight: *weight,
                        record: *record,
                        budget: uint(budget)?,
                    },
                    start: triple(start)?,
                    goal: triple(goal)?,
                    schedule: uints(schedule)?,
                })
            }
            6 => {
                let [Val::Obj(o), start, goal, schedule] = vals else {
                    return None;
                };
                let [chunk, c, d, Val::F(weight), Val::B(smooth), Val::B(record), budget] =
                    o.as_slice()
                else {
                    return None;
                };
                RecordQuery::Hpa(HpaRecordQuery {
                    options: HpaOptionsData {
                        chunk_size: uint(chunk)? as u32,
                        connectivity: uint(c)? as u8,
                        diagonal: uint(d)? as u8,
                        weight: *weight,
                        smooth: *smooth,
                        record: *record,
                        budget: uint(budget)?,
                    },
                    start: pair(start)?,
                    goal: pair(goal)?,
                    schedule: uints(schedule)?,
                })
            }
            _ => return None,
        })
    }
}

fn uint(v: &Val) -> Option<u64> {
    match v {
        Val::U(x) => Some(*x),
        _ => None,
    }
}
fn uints(v: &Val) -> Option<Vec<u64>> {
    match v {
        Val::List(items) => items.iter().map(uint).collect(),
        _ => None,
    }
}
fn pair(v: &Val) -> Option<(u32, u32)> {
    match uints(v)?.as_slice() {
        [x, y] => Some((*x as u32, *y as u32)),
        _ => None,
    }
}
fn triple(v: &Val) -> Option<[u32; 3]> {
    match uints(v)?.as_slice() {
        [x, y, z] => Some([*x as u32, *y as u32, *z as u32]),
        _ => None,
    }
}
fn cost_rule_of(v: &Val) -> Option<Option<CellCostRule>> {
    let Val::Opt(o) = v else { return None };
    let Some(b) = o else { return Some(None) };
    let Val::OneOf(tag, inner) = &**b else {
        return None;
    };
    let Val::Obj(m) = &**inner else { return None };
    Some(Some(match (tag, m.as_slice()) {
        (0, [modulus, Val::F(extra)]) => CellCostRule::ExtraWhere {
            modulus: uint(modulus)? as u32,
            extra: *extra,
        },
        (1, [modulus]) => CellCostRule::InvalidWhere {
            modulus: uint(modulus)? as u32,
        },
        _ => return None,
    }))
}
fn block_rule_of(v: &Val) -> Option<Option<CellBlockRule>> {
    let Val::Opt(o) = v else { return None };
    let Some(b) = o else { return Some(None) };
    let Val::Obj(m) = &**b else { return None };
    let [modulus, residue] = m.as_slice() else {
        return None;
    };
    Some(Some(CellBlockRule {
        modulus: uint(modulus)? as u32,
        residue: uint(residue)? as u32,
    }))
}
fn grid_options_of(v: &Val) -> Option<GridOptionsData> {
    let Val::Obj(o) = v else { return None };
    let [agent, c, d, a, cost, blocked, Val::F(weight), Val::B(record), budget] = o.as_slice()
    else {
        return None;
    };
    Some(GridOptionsData {
        agent_size: uint(agent)? as u32,
        connectivity: uint(c)? as u8,
        diagonal: uint(d)? as u8,
        algorithm: uint(a)? as u8,
        cell_cost: cost_rule_of(cost)?,
        blocked: block_rule_of(blocked)?,
        weight: *weight,
        record: *record,
        budget: uint(budget)?,
    })
}
