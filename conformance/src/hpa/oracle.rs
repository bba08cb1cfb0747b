//! The HPA* oracle ([CONF.HPA.ORACLE]): the edits replayed on the kit's own copy of the map, the
//! grid oracle's move graph (agent size 1, no hook) and Dijkstra for every query — found exactly
//! when reachable, a path of allowed moves whose costs add up to the reported cost bit for bit,
//! never cheaper than Dijkstra — and the hierarchy's entrances computed again from the tiling,
//! run and placement rules, with every edge's stored path walked and priced.

use super::cases::{cells_after, last_refresh};
use super::{HierarchyData, HpaPathReply, HpaQuery, HpaQueryReply, HpaReply, HpaRequest};
use crate::grid::oracle::MoveGraph;
use crate::grid::{GridMap, GridOptionsData};
use std::collections::BTreeSet;

/// The grid map of a request with the edits of queries `0..=last` applied (none: the map).
fn grid_map(r: &HpaRequest, last: Option<usize>) -> Option<GridMap> {
    let cells = match last {
        Some(l) => cells_after(r, l)?,
        None => hex::decode(&r.map.cells).ok()?,
    };
    (cells.len() as u64 == u64::from(r.map.width) * u64::from(r.map.height)).then(|| GridMap {
        width: r.map.width,
        height: r.map.height,
        cells,
        multipliers: r.map.multipliers.clone(),
        space: r.map.space,
    })
}

/// [HPA.PASS] [HPA.MOVE] The move rules of HPA*: agent size 1, no hooks.
fn move_options(r: &HpaRequest) -> GridOptionsData {
    GridOptionsData {
        agent_size: 1,
        connectivity: r.options.connectivity,
        diagonal: r.options.diagonal,
        cell_cost: None,
        blocked: None,
        ..GridOptionsData::default()
    }
}

/// The left-fold cost of a cell list by allowed moves, or the first step that is not one.
fn walk(g: &MoveGraph<'_>, cells: &[u32]) -> Result<f64, String> {
    let mut sum = 0.0;
    for (j, pair) in cells.windows(2).enumerate() {
        let (u, v) = (pair[0], pair[1]);
        match g.moves(u).find(|&(to, _)| to == v) {
            Some((_, diag)) => match g.move_cost(u, v, diag) {
                Some(c) => sum += c,
                None => return Err(format!("step {j}: {u} -> {v} has no cost")),
            },
            None => return Err(format!("step {j}: {u} -> {v} is not an allowed move")),
        }
    }
    Ok(sum)
}

/// [HPA.SEARCH.ESTIMATE] Whether the start's estimate `(o * mmin) * w` is `+infinity`: `o` the
/// octile (Four: Manhattan) value from the start to the goal, `mmin` the smallest multiplier of
/// areas `0..=254` (1.0 for an area the map does not list), `w` the weight.
fn start_estimate_overflows(r: &HpaRequest, map: &GridMap, q: &HpaQuery) -> bool {
    let mut m = [1.0f64; 255];
    for &(area, v) in &map.multipliers {
        if let Some(slot) = m.get_mut(usize::from(area)) {
            *slot = v;
        }
    }
    let mmin = m.iter().copied().fold(f64::INFINITY, f64::min);
    let dx = f64::from(q.start[0].abs_diff(q.goal[0]));
    let dy = f64::from(q.start[1].abs_diff(q.goal[1]));
    let o = if r.options.connectivity == 4 {
        dx + dy
    } else {
        dx.max(dy) + (std::f64::consts::SQRT_2 - 1.0) * dx.min(dy)
    };
    ((o * mmin) * r.options.weight).is_infinite()
}

/// [CONF.HPA.ORACLE] The first problem of `reply` as an answer to `request`, or `None`.
pub fn check(request: &HpaRequest, reply: &HpaReply) -> Option<String> {
    let HpaReply::Ran(ran) = reply else {
        return None;
    };
    let options = move_options(request);
    for (i, (q, r)) in request.queries.iter().zip(&ran.queries).enumerate() {
        if let HpaQueryReply::Path(p) = r {
            let map = grid_map(request, Some(i))?;
            let g = MoveGraph::new(&map, &options);
            if let Some(problem) = check_query(request, &map, &g, q, p) {
                return Some(format!("query {i}: {problem}"));
            }
        }
    }
    let Some(h) = &ran.hierarchy else {
        return None;
    };
    let last = last_refresh(request, reply);
    if last.is_none() {
        return (h.built || !h.nodes.is_empty() || !h.edges.is_empty())
            .then(|| "hierarchy: built or listed with no refresh [HPA.INSPECT.UNBUILT]".into());
    }
    let map = grid_map(request, last)?;
    let g = MoveGraph::new(&map, &options);
    check_hierarchy(request, &map, &g, h).map(|p| format!("hierarchy: {p}"))
}

fn check_query(
    r: &HpaRequest,
    map: &GridMap,
    g: &MoveGraph<'_>,
    q: &HpaQuery,
    p: &HpaPathReply,
) -> Option<String> {
    let (tier1, budget) = (
        q.schedule.is_empty() && q.cancel.is_none(),
        r.options.budget,
    );
    if let Some(problem) =
        // [CONF.HPA.CANCEL] a Running search may end only NotFound (the empty-first check)
        crate::lattice::oracle::check_cancel(q.cancel, &p.cancel, p.iterations, &[3])
    {
        return Some(problem);
    }
    if r.options.record && p.expanded.len() as u64 != p.expanded_count {
        return Some(format!(
            "{} recorded expansions, expanded count {} [HPA.SEARCH.RECORD]",
            p.expanded.len(),
            p.expanded_count
        ));
    }
    if !r.options.record && !p.expanded.is_empty() {
        return Some("expansions recorded without record_expansions".into());
    }
    if p.iterations < p.expanded_count {
        return Some(format!(
            "{} iterations, fewer than the expanded count {}",
            p.iterations, p.expanded_count
        ));
    }
    if tier1 && p.status == 4 {
        return (budget == 0 || p.iterations != budget).then(|| {
            format!(
                "BudgetExhausted after {} iterations with a budget of {budget} [HPA.TIER1]",
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
    // [HPA.COMPLETE]'s exception: a start whose estimate overflows is never pushed
    // ([GRAPH.ASTAR.START_INF]), so the query ends NotFound without an iteration.
    let start_unpushed = !found && p.iterations == 0 && start_estimate_overflows(r, map, q);
    if found != truth.is_finite() && !start_unpushed {
        return Some(format!(
            "status {} but Dijkstra's cost is {truth:?} [HPA.COMPLETE]",
            p.status
        ));
    }
    if !found {
        return (p.cost.0 != f64::INFINITY
            || !p.cells.is_empty()
            || !p.points.is_empty()
            || !p.abstract_path.is_empty())
        .then(|| "a search that did not find the goal reports a cost or a path".into());
    }
    if p.cells.first() != Some(&start) || p.cells.last() != Some(&goal) {
        return Some(format!(
            "the path runs from {:?} to {:?}, not from {start} to {goal}",
            p.cells.first(),
            p.cells.last()
        ));
    }
    let sum = match walk(g, &p.cells) {
        Ok(s) => s,
        Err(e) => return Some(format!("path {e}")),
    };
    if sum.to_bits() != p.cost.0.to_bits() {
        return Some(format!(
            "the path's moves add up to {sum:?}, the reported cost is {:?} [HPA.COST.REPORTED]",
            p.cost.0
        ));
    }
    if p.cost.0 < truth {
        return Some(format!(
            "cost {:?} is below Dijkstra's {truth:?} [HPA.QUALITY]",
            p.cost.0
        ));
    }
    if tier1 {
        if p.points.len() != p.cells.len() || !p.abstract_path.is_empty() || !p.rebuilt.is_empty() {
            return Some(format!(
                "{} points for {} cells, {} abstract ids and {} rebuilt chunks from tier 1",
                p.points.len(),
                p.cells.len(),
                p.abstract_path.len(),
                p.rebuilt.len()
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
    let a = &p.abstract_path;
    let ok = if start == goal {
        a.len() == 1
    } else {
        a.len() >= 2 && a.last().copied() == a.first().map(|f| f + 1)
    };
    (!ok).then(|| format!("abstract path {a:?} for a found query [HPA.QUERY.TEMP]"))
}

/// [HPA.ENT.RUN] [HPA.ENT.PLACE] [HPA.ENT.DIAGONAL] The entrance pairs, computed again: each
/// `(a, b, diagonal)` with `a < b` as cell indices.
fn entrance_pairs(map: &GridMap, g: &MoveGraph<'_>, s: u32) -> BTreeSet<(u32, u32, bool)> {
    let (w, h) = (map.width, map.height);
    let (cx_n, cy_n) = (w.div_ceil(s), h.div_ceil(s));
    let pass = |x: u32, y: u32| g.passable(i64::from(x), i64::from(y));
    let mut pairs = BTreeSet::new();
    // One border: the crossable flags of its positions, then each run's placed positions.
    let mut border = |cells: Vec<(u32, u32, u32, u32)>| {
        let mut k = 0;
        while k < cells.len() {
            let crossable = |(ax, ay, bx, by): (u32, u32, u32, u32)| pass(ax, ay) && pass(bx, by);
            if !crossable(cells[k]) {
                k += 1;
                continue;
            }
            let p0 = k;
            while k < cells.len() && crossable(cells[k]) {
                k += 1;
            }
            let len = k - p0;
            let placed = if len < 6 {
                vec![p0 + (len - 1) / 2]
            } else {
                vec![p0, p0 + len - 1]
            };
            for at in placed {
                let (ax, ay, bx, by) = cells[at];
                let (a, b) = (map.index(ax, ay), map.index(bx, by));
                pairs.insert((a.min(b), a.max(b), false));
            }
        }
    };
    for cy in 0..cy_n {
        for cx in 0..cx_n {
            if cx + 1 < cx_n {
                let x = (cx + 1) * s;
                border(
                    (cy * s..((cy + 1) * s).min(h))
                        .map(|y| (x - 1, y, x, y))
                        .collect(),
                );
            }
            if cy + 1 < cy_n {
                let y = (cy + 1) * s;
                border(
                    (cx * s..((cx + 1) * s).min(w))
                        .map(|x| (x, y - 1, x, y))
                        .collect(),
                );
            }
        }
    }
    let chunk = |x: i64, y: i64| (x / i64::from(s), y / i64::from(s));
    for y in 0..i64::from(h) {
        for x in 0..i64::from(w) {
            if !g.passable(x, y) {
                continue;
            }
            for (dx, dy) in [(-1i64, -1i64), (-1, 1), (1, -1), (1, 1)] {
                let (vx, vy) = (x + dx, y + dy);
                if g.allowed(x, y, dx, dy)
                    && chunk(x, y) != chunk(vx, vy)
                    && !g.passable(x + dx, y)
                    && !g.passable(x, y + dy)
                {
                    let (a, b) = (
                        map.index(x as u32, y as u32),
                        map.index(vx as u32, vy as u32),
                    );
                    pairs.insert((a.min(b), a.max(b), true));
                }
            }
        }
    }
    pairs
}

fn check_hierarchy(
    r: &HpaRequest,
    map: &GridMap,
    g: &MoveGraph<'_>,
    h: &HierarchyData,
) -> Option<String> {
    let s = r.options.chunk_size;
    let (cx_n, cy_n) = (map.width.div_ceil(s), map.height.div_ceil(s));
    if !h.built || h.chunks != (cx_n, cy_n) {
        return Some(format!(
            "built {} with chunks {:?}, expected built with ({cx_n}, {cy_n}) [HPA.CHUNK.TILING]",
            h.built, h.chunks
        ));
    }
    let chunk_of = |c: u32| (c / map.width / s) * cx_n + (c % map.width) / s;
    let pairs = entrance_pairs(map, g, s);
    let cells: BTreeSet<u32> = pairs.iter().flat_map(|&(a, b, _)| [a, b]).collect();
    let want: Vec<(u32, u32)> = cells.iter().map(|&c| (c, chunk_of(c))).collect();
    if h.nodes != want {
        let i = h.nodes.iter().zip(&want).position(|(a, b)| a != b);
        let i = i.unwrap_or(h.nodes.len().min(want.len()));
        return Some(format!(
            "node {i} is {:?}, the entrance rules give {:?} ({} nodes, expected {}) [HPA.NODE.SET] [HPA.NODE.ID]",
            h.nodes.get(i),
            want.get(i),
            h.nodes.len(),
            want.len()
        ));
    }
    let id = |cell: u32| want.binary_search_by_key(&cell, |n| n.0).ok();
    for (a, b, _) in &pairs {
        let (ia, ib) = (id(*a)?, id(*b)?);
        for (f, t) in [(ia, ib), (ib, ia)] {
            let has = h
                .edges
                .iter()
                .any(|e| (e.from, e.to) == (f as u32, t as u32) && e.inter);
            if !has {
                return Some(format!(
                    "no inter-chunk edge {f} -> {t} for the entrance pair of cells {a} and {b} [HPA.INTER.EDGE]"
                ));
            }
        }
    }
    for (i, e) in h.edges.iter().enumerate() {
        if i > 0 && (h.edges[i - 1].from, h.edges[i - 1].to) >= (e.from, e.to) {
            return Some(format!("edge {i} is out of order [HPA.INSPECT.EDGES]"));
        }
        let (Some(&(fc, fk)), Some(&(tc, tk))) =
            (want.get(e.from as usize), want.get(e.to as usize))
        else {
            return Some(format!("edge {i} names a node that is not listed"));
        };
        if e.path.first() != Some(&fc) || e.path.last() != Some(&tc) {
            return Some(format!(
                "edge {i}: the stored path runs from {:?} to {:?}, not from {fc} to {tc}",
                e.path.first(),
                e.path.last()
            ));
        }
        if e.inter && (e.path.len() != 2 || fk == tk) {
            return Some(format!(
                "edge {i}: an inter-chunk edge of {} cells within chunks {fk} and {tk} [HPA.INTER.EDGE]",
                e.path.len()
            ));
        }
        if !e.inter && (fk != tk || e.path.iter().any(|&c| chunk_of(c) != fk)) {
            return Some(format!(
                "edge {i}: an intra-chunk edge leaves chunk {fk} [HPA.INTRA.EDGE]"
            ));
        }
        match walk(g, &e.path) {
            Err(p) => return Some(format!("edge {i}: stored path {p}")),
            Ok(sum) if sum.to_bits() != e.cost.0.to_bits() => {
                return Some(format!(
                    "edge {i}: the stored path's moves add up to {sum:?}, the edge costs {:?} [HPA.INTRA.COST]",
                    e.cost.0
                ))
            }
            Ok(_) => {}
        }
    }
    None
}
