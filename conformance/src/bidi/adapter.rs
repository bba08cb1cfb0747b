//! The bidirectional half of the in-process adapters ([CONF.IMPL.ADAPTERS]): one `macro_rules!`
//! body instantiated for both crates, so a difference between them is always a crate bug;
//! `adapters.rs` forwards [`Implementation::run_bidi`](crate::Implementation::run_bidi) here.

use super::{BidiRan, BidiReply, BidiRequest};
use crate::error::{ErrorKind, HarnessError};
use crate::lattice::{PathReply, Query, QueryReply, MAX_STEP_CALLS};
use crate::port::wire::Real;

/// A malformed request ([CONF.BIDI.REQUEST]): a harness error naming what.
fn malformed(what: String) -> HarnessError {
    HarnessError::new(ErrorKind::Schema, format!("bidi request: {what}"))
}

/// Checks what the kit never sends ([CONF.BIDI.REQUEST]) and returns the decoded cells.
pub(crate) fn validate(r: &BidiRequest) -> Result<Vec<u8>, HarnessError> {
    let m = &r.map;
    let cells = crate::lattice::adapter::cells(&m.cells, u64::from(m.width) * u64::from(m.height))?;
    let o = &r.options;
    if o.connectivity != 4 && o.connectivity != 8 {
        return Err(malformed(format!(
            "connectivity {} is not 4 or 8",
            o.connectivity
        )));
    }
    if o.diagonal > 2 {
        return Err(malformed(format!("diagonal {} is not 0-2", o.diagonal)));
    }
    if o.algorithm > 5 {
        return Err(malformed(format!("algorithm {} is not 0-5", o.algorithm)));
    }
    for (i, q) in r.queries.iter().enumerate() {
        if q.cancel.is_some() && !q.schedule.is_empty() {
            return Err(malformed(format!(
                "query {i}: a cancel query with a schedule"
            )));
        }
        if q.start.len() != 2 || q.goal.len() != 2 {
            return Err(malformed(format!(
                "query {i}: ends of {} and {} members, not 2",
                q.start.len(),
                q.goal.len()
            )));
        }
    }
    Ok(cells)
}

macro_rules! define_bidi_adapter {
    ($module:ident, $krate:ident) => {
        /// Bidirectional requests on one crate.
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

            /// [CONF.BIDI.QUERY] One query and its meeting cell.
            fn query(g: &op::Grid, q: &Query, o: &op::GridOptions) -> (QueryReply, Option<u32>) {
                let (start, goal) = (
                    (q.start[0] as usize, q.start[1] as usize),
                    (q.goal[0] as usize, q.goal[1] as usize),
                );
                let error =
                    |e: op::GridSearchError| (QueryReply::Error(e.class().to_string()), None);
                if q.schedule.is_empty() && q.cancel.is_none() {
                    return match op::find_grid_path_bidirectional(g, start, goal, o) {
                        Err(e) => error(e),
                        Ok(p) => (
                            QueryReply::Path(PathReply {
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
                                cancel: None,
                            }),
                            None,
                        ),
                    };
                }
                let mut s = match op::GridBidiSearch::new(g, o.clone()) {
                    Ok(s) => s,
                    Err(e) => return error(e),
                };
                if let Err(e) = s.begin(start, goal) {
                    return error(e);
                }
                let cancel = q
                    .cancel
                    .map(|k| crate::lattice::adapter::cancel_trace!(s, k));
                let mut calls = 0u64;
                while cancel.is_none()
                    && s.status() == op::SearchStatus::Running
                    && calls < MAX_STEP_CALLS
                {
                    s.step(q.schedule[(calls % q.schedule.len() as u64) as usize]);
                    calls += 1;
                }
                (
                    QueryReply::Path(PathReply {
                        status: search_status(s.status()),
                        algorithm: o.algorithm as u8,
                        cost: Real(s.path_cost()),
                        cells: s.path(),
                        points: vec![],
                        expanded: s.expansions().to_vec(),
                        expanded_count: s.expanded_count(),
                        iterations: s.iterations(),
                        cancel,
                    }),
                    s.meeting_cell(),
                )
            }

            /// [CONF.IMPL.BIDI] Builds the grid and runs the queries.
            pub fn run(r: &BidiRequest) -> Result<BidiReply, HarnessError> {
                let cells = validate(r)?;
                let g = match crate::lattice::adapter::$module::square_grid(&r.map, &cells) {
                    Ok(g) => g,
                    Err(e) => return Ok(BidiReply::Failed(e.class().to_string())),
                };
                let o = crate::grid::adapter::$module::options(&r.options);
                let (queries, meetings) = r.queries.iter().map(|q| query(&g, q, &o)).unzip();
                Ok(BidiReply::Ran(BidiRan { queries, meetings }))
            }
        }
    };
}

define_bidi_adapter!(reference_adapter, onepath_reference);
define_bidi_adapter!(optimized_adapter, onepath);
