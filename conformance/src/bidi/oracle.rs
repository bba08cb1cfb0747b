//! The bidirectional oracle ([CONF.BIDI.ORACLE]): the grid oracle's move graph (agent size,
//! hooks, [CONF.GRID.ORACLE]) and its Dijkstra for every query — found exactly when reachable,
//! a path of allowed moves, the cost equal to Dijkstra's when every cost is an integer and within
//! the bound of [GBIDI.COST.BOUND] otherwise — and the counters, meeting cell and points.

use super::{BidiReply, BidiRequest};
use crate::grid::oracle::MoveGraph;
use crate::grid::GridMap;
use crate::lattice::{PathReply, Query, QueryReply};

/// The map of a request.
fn grid_map(r: &BidiRequest) -> Option<GridMap> {
    let cells = hex::decode(&r.map.cells).ok()?;
    (cells.len() as u64 == u64::from(r.map.width) * u64::from(r.map.height)).then(|| GridMap {
        width: r.map.width,
        height: r.map.height,
        cells,
        multipliers: r.map.multipliers.clone(),
        space: r.map.space,
    })
}

/// [GBIDI.COST.EXACT] Whether every move cost is an integer: four neighbours, integer
/// multipliers, no cost hook.
fn integer_costs(r: &BidiRequest, map: &GridMap) -> bool {
    r.options.connectivity == 4
        && r.options.cell_cost.is_none()
        && (0u8..=254).all(|a| map.multiplier(a).is_some_and(|m| m.fract() == 0.0))
}

/// [CONF.BIDI.ORACLE] The first problem of `reply` as an answer to `request`, or `None`.
pub fn check(request: &BidiRequest, reply: &BidiReply) -> Option<String> {
    let BidiReply::Ran(ran) = reply else {
        return None;
    };
    let map = grid_map(request)?;
    let g = MoveGraph::new(&map, &request.options);
    let exact = integer_costs(request, &map);
    for (i, q) in request.queries.iter().enumerate() {
        let (Some(QueryReply::Path(p)), Some(meeting)) = (ran.queries.get(i), ran.meetings.get(i))
        else {
            continue;
        };
        if let Some(problem) = check_query(request, &map, &g, exact, q, p, *meeting) {
            return Some(format!("query {i}: {problem}"));
        }
    }
    None
}

fn check_query(
    r: &BidiRequest,
    map: &GridMap,
    g: &MoveGraph<'_>,
    exact: bool,
    q: &Query,
    p: &PathReply,
    meeting: Option<u32>,
) -> Option<String> {
    let tier1 = q.schedule.is_empty() && q.cancel.is_none();
    let (budget, record) = (r.options.budget, r.options.record);
    // [GBIDI.RUN] the stop check comes before the cancel read: a cancelled run may end it.
    if let Some(problem) =
        crate::lattice::oracle::check_cancel(q.cancel, &p.cancel, p.iterations, &[2, 3])
    {
        return Some(problem);
    }
    if record && p.expanded.len() as u64 != p.expanded_count {
        return Some(format!(
            "{} recorded expansions, expanded count {} [GBIDI.COUNTERS]",
            p.expanded.len(),
            p.expanded_count
        ));
    }
    if !record && !p.expanded.is_empty() {
        return Some("expansions recorded without record_expansions".into());
    }
    if p.iterations != p.expanded_count {
        return Some(format!(
            "{} iterations and {} expansions: every pop expands [GBIDI.COUNTERS]",
            p.iterations, p.expanded_count
        ));
    }
    if tier1 && meeting.is_some() {
        return Some("a tier-1 query reports a meeting cell".into());
    }
    if tier1 && p.status == 4 {
        return (budget == 0 || p.iterations != budget).then(|| {
            format!(
                "BudgetExhausted after {} iterations with a budget of {budget} [GBIDI.TIER1]",
                p.iterations
            )
        });
    }
    if p.status != 2 && p.status != 3 {
        return Some(format!("status {} after the run", p.status));
    }
    let (start, goal) = (
        map.index(q.start[0], q.start[1]),
        map.index(q.goal[0], q.goal[1]),
    );
    let xy = |c: u32| (i64::from(c % map.width), i64::from(c / map.width));
    let passable = |c: u32| g.passable(xy(c).0, xy(c).1);
    let truth = if passable(start) && passable(goal) {
        g.f64_distance(start, goal)
    } else {
        f64::INFINITY
    };
    let found = p.status == 2;
    if found != truth.is_finite() {
        return Some(format!(
            "status {} but Dijkstra's cost is {truth:?} [GBIDI.COST.BOUND]",
            p.status
        ));
    }
    if !found {
        return (p.cost.0 != f64::INFINITY || !p.cells.is_empty() || meeting.is_some()).then(
            || "a search that did not find the goal reports a cost, a path or a meeting".into(),
        );
    }
    if start == goal && (p.cost.0 != 0.0 || p.iterations != 0 || p.cells != [start]) {
        return Some(format!(
            "start = goal: cost {:?}, {} iterations, path {:?} [GBIDI.SAME_CELL]",
            p.cost.0, p.iterations, p.cells
        ));
    }
    if p.cells.first() != Some(&start) || p.cells.last() != Some(&goal) {
        return Some(format!(
            "the path runs from {:?} to {:?}, not from {start} to {goal}",
            p.cells.first(),
            p.cells.last()
        ));
    }
    let mut sum = 0.0;
    for (j, pair) in p.cells.windows(2).enumerate() {
        let (u, v) = (pair[0], pair[1]);
        let Some((_, diag)) = g.moves(u).find(|&(to, _)| to == v) else {
            return Some(format!("path step {j}: {u} -> {v} is not an allowed move"));
        };
        match g.move_cost(u, v, diag) {
            Some(c) => sum += c,
            None => return Some(format!("path step {j}: {u} -> {v} has no allowed cost")),
        }
    }
    let cost = p.cost.0;
    let n = f64::from(map.width) * f64::from(map.height);
    let bound = truth * n * 2f64.powi(-50);
    if exact && cost.to_bits() != truth.to_bits() {
        return Some(format!(
            "cost {cost:?} on integer costs, Dijkstra's is {truth:?} [GBIDI.COST.EXACT]"
        ));
    }
    if (cost - truth).abs() > bound {
        return Some(format!(
            "cost {cost:?} is more than {bound:e} from Dijkstra's {truth:?} [GBIDI.COST.BOUND]"
        ));
    }
    if (sum - cost).abs() > 2.0 * bound {
        return Some(format!(
            "the path's moves add up to {sum:?}, more than {:e} from the reported cost {cost:?}",
            2.0 * bound
        ));
    }
    if tier1 {
        if p.points.len() != p.cells.len() {
            return Some(format!(
                "{} points for {} cells",
                p.points.len(),
                p.cells.len()
            ));
        }
        let [ox, oy, s] = map.space.unwrap_or([0.0, 0.0, 1.0]);
        for (j, (&c, pt)) in p.cells.iter().zip(&p.points).enumerate() {
            let (x, y) = xy(c);
            // [GRID.SPACE.CENTER]
            let want = [ox + (x as f64 + 0.5) * s, oy + (y as f64 + 0.5) * s];
            if pt.len() != 2
                || want
                    .iter()
                    .zip(pt)
                    .any(|(a, b)| a.to_bits() != b.0.to_bits())
            {
                return Some(format!(
                    "point {j} is {pt:?}, the centre of cell {c} is {want:?} [GRID.SPACE.CENTER]"
                ));
            }
        }
        return None;
    }
    if !p.points.is_empty() {
        return Some("a sliced query reports world points".into());
    }
    match meeting {
        Some(m) if p.cells.contains(&m) => None,
        m => Some(format!(
            "meeting cell {m:?} is not on the path [GBIDI.MEETING_CELL]"
        )),
    }
}
