//! The HPA* half of the in-process adapters ([CONF.IMPL.ADAPTERS]): one `macro_rules!` body
//! instantiated for both crates, so a difference between them is always a crate bug;
//! `adapters.rs` forwards [`Implementation::run_hpa`](crate::Implementation::run_hpa) here.

use super::{
    EdgeData, HierarchyData, HpaPathReply, HpaQuery, HpaQueryReply, HpaRan, HpaReply, HpaRequest,
};
use crate::error::{ErrorKind, HarnessError};
use crate::lattice::MAX_STEP_CALLS;
use crate::port::wire::Real;

/// A malformed request ([CONF.HPA.REQUEST]): a harness error naming what.
fn malformed(what: String) -> HarnessError {
    HarnessError::new(ErrorKind::Schema, format!("hpa request: {what}"))
}

/// Checks what the kit never sends ([CONF.HPA.REQUEST]) and returns the decoded cells.
pub(crate) fn validate(r: &HpaRequest) -> Result<Vec<u8>, HarnessError> {
    let m = &r.map;
    let cells = crate::lattice::adapter::cells(&m.cells, u64::from(m.width) * u64::from(m.height))?;
    if r.options.connectivity != 4 && r.options.connectivity != 8 {
        return Err(malformed(format!(
            "connectivity {} is not 4 or 8",
            r.options.connectivity
        )));
    }
    if r.options.diagonal > 2 {
        return Err(malformed(format!(
            "diagonal {} is not 0-2",
            r.options.diagonal
        )));
    }
    for (i, q) in r.queries.iter().enumerate() {
        if q.start.len() != 2 || q.goal.len() != 2 {
            return Err(malformed(format!(
                "query {i}: ends of {} and {} members, not 2",
                q.start.len(),
                q.goal.len()
            )));
        }
        if q.cancel.is_some() && !q.schedule.is_empty() {
            return Err(malformed(format!(
                "query {i}: a cancel query with a schedule"
            )));
        }
        if let Some(&(x, y, _)) = q.edits.iter().find(|e| e.0 >= m.width || e.1 >= m.height) {
            return Err(malformed(format!(
                "query {i}: edit ({x}, {y}) outside the {} x {} map",
                m.width, m.height
            )));
        }
    }
    Ok(cells)
}

macro_rules! define_hpa_adapter {
    ($module:ident, $krate:ident) => {
        /// HPA* requests on one crate.
        pub mod $module {
            use super::*;
            use ::$krate as op;

            fn search_status(s: op::SearchStatus) -> u8 {
                match s {
                    op::SearchStatus::NotStarted => 0,
                    op::SearchStatus::Running => 1,
                    op::SearchStatus::Found => 2,
                    op::SearchStatus::NotFound => 3,
                }
            }

            fn path_status(s: op::PathStatus) -> u8 {
                match s {
                    op::PathStatus::Found => 2,
                    op::PathStatus::NotFound => 3,
                    op::PathStatus::BudgetExhausted => 4,
                }
            }

            /// The crate's options for the data.
            pub(crate) fn options(o: &super::super::HpaOptionsData) -> op::HpaOptions {
                op::HpaOptions {
                    chunk_size: o.chunk_size,
                    connectivity: if o.connectivity == 4 {
                        op::Connectivity::Four
                    } else {
                        op::Connectivity::Eight
                    },
                    diagonal: match o.diagonal {
                        0 => op::DiagonalRule::Always,
                        1 => op::DiagonalRule::AtMostOneBlocked,
                        _ => op::DiagonalRule::NoneBlocked,
                    },
                    heuristic_weight: o.weight,
                    smooth: o.smooth,
                    iteration_budget: o.budget,
                    record_expansions: o.record,
                }
            }

            /// [CONF.HPA.QUERY] Tier 1: `find_hpa_path` with its own hierarchy.
            fn tier1(g: &op::Grid, q: &HpaQuery, o: &op::HpaOptions) -> HpaQueryReply {
                let (start, goal) = ends(q);
                match op::find_hpa_path(g, start, goal, o) {
                    Err(e) => HpaQueryReply::Error(e.class().to_string()),
                    Ok(p) => HpaQueryReply::Path(HpaPathReply {
                        status: path_status(p.status),
                        algorithm: p.algorithm as u8,
                        cost: Real(p.cost),
                        cells: p.cells,
                        points: p
                            .points
                            .iter()
                            .map(|&(x, y)| vec![Real(x), Real(y)])
                            .collect(),
                        expanded: p.expanded,
                        expanded_count: p.expanded_count,
                        iterations: p.iterations,
                        abstract_path: vec![],
                        rebuilt: vec![],
                        cancel: None,
                    }),
                }
            }

            /// [CONF.HPA.QUERY] [CONF.HPA.CANCEL] The sliced form on the request's hierarchy:
            /// the schedule, or for a cancel query `step(k)`, two cancelled runs and a resumed
            /// one.
            fn sliced(g: &op::Grid, q: &HpaQuery, h: &mut op::HpaHierarchy) -> HpaQueryReply {
                let (start, goal) = ends(q);
                let mut s = op::HpaSearch::new(g, h);
                if let Err(e) = s.begin(start, goal) {
                    return HpaQueryReply::Error(e.class().to_string());
                }
                let mut trace = None;
                if let Some(k) = q.cancel {
                    if k > 0 {
                        s.step(k);
                    }
                    let flag = std::sync::atomic::AtomicBool::new(true);
                    let mut t = vec![(search_status(s.status()), s.iterations())];
                    for _ in 0..2 {
                        // the status the cancelled run returned ([CONF.HPA.CANCEL])
                        let returned = s.run(Some(&flag));
                        t.push((search_status(returned), s.iterations()));
                    }
                    flag.store(false, std::sync::atomic::Ordering::SeqCst);
                    s.run(Some(&flag));
                    trace = Some(t);
                }
                let mut calls = 0u64;
                while trace.is_none()
                    && s.status() == op::SearchStatus::Running
                    && calls < MAX_STEP_CALLS
                {
                    s.step(q.schedule[(calls % q.schedule.len() as u64) as usize]);
                    calls += 1;
                }
                let reply = HpaPathReply {
                    status: search_status(s.status()),
                    algorithm: op::GridAlgorithm::AStar as u8,
                    cost: Real(s.path_cost()),
                    cells: s.path(),
                    points: vec![],
                    expanded: s.expansions().to_vec(),
                    expanded_count: s.expanded_count(),
                    iterations: s.iterations(),
                    abstract_path: s.abstract_path(),
                    rebuilt: vec![],
                    cancel: trace,
                };
                drop(s);
                HpaQueryReply::Path(HpaPathReply {
                    rebuilt: h.rebuilt_chunks().to_vec(),
                    ..reply
                })
            }

            fn ends(q: &HpaQuery) -> ((usize, usize), (usize, usize)) {
                (
                    (q.start[0] as usize, q.start[1] as usize),
                    (q.goal[0] as usize, q.goal[1] as usize),
                )
            }

            /// [CONF.HPA.REPLY] The hierarchy as data.
            fn describe(h: &op::HpaHierarchy) -> HierarchyData {
                let (cx, cy) = h.chunks();
                HierarchyData {
                    built: h.is_built(),
                    chunks: (cx as u32, cy as u32),
                    nodes: h.nodes().iter().map(|n| (n.cell, n.chunk)).collect(),
                    edges: h
                        .edges()
                        .iter()
                        .map(|e| EdgeData {
                            from: e.from,
                            to: e.to,
                            cost: Real(e.cost),
                            inter: e.kind == op::HpaEdgeKind::Inter,
                            path: h.edge_path(e.from, e.to).unwrap_or_default(),
                        })
                        .collect(),
                }
            }

            /// [CONF.IMPL.HPA] Builds the grid and the hierarchy, runs the queries.
            pub fn run(r: &HpaRequest) -> Result<HpaReply, HarnessError> {
                let cells = validate(r)?;
                let failed = |e: op::GridError| Ok(HpaReply::Failed(e.class().to_string()));
                let mut g = match crate::lattice::adapter::$module::square_grid(&r.map, &cells) {
                    Ok(g) => g,
                    Err(e) => return failed(e),
                };
                let o = options(&r.options);
                let mut hierarchy = op::HpaHierarchy::new(o.clone());
                let mut queries = Vec::with_capacity(r.queries.len());
                for q in &r.queries {
                    for &(x, y, area) in &q.edits {
                        if let Err(e) = g.set_cell(x as usize, y as usize, area) {
                            return failed(e);
                        }
                    }
                    queries.push(if q.schedule.is_empty() && q.cancel.is_none() {
                        tier1(&g, q, &o)
                    } else {
                        match &mut hierarchy {
                            Ok(h) => sliced(&g, q, h),
                            Err(e) => HpaQueryReply::Error(e.class().to_string()),
                        }
                    });
                }
                Ok(HpaReply::Ran(HpaRan {
                    queries,
                    hierarchy: hierarchy.as_ref().ok().map(describe),
                }))
            }
        }
    };
}

define_hpa_adapter!(reference_adapter, onepath_reference);
define_hpa_adapter!(optimized_adapter, onepath);
