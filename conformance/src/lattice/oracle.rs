//! The hex- and voxel-search oracle ([CONF.LATTICE.ORACLE]): the moves and costs written again
//! from spec/hex-search.md and spec/voxel-search.md (hex neighbours found by axial distance, not
//! by the offset tables; voxel corner rules by counting the swept voxels), a plain Dijkstra over
//! them, and the rules a reply must keep: found exactly when reachable, a path of allowed moves
//! whose costs add up to the reported cost bit for bit, the cost's bounds, the recorded list, the
//! counters and the world points.

use super::{LatticeReply, LatticeRequest, PathReply, Query, QueryReply, MAX_STEP_CALLS};
use crate::grid::{CellBlockRule, CellCostRule};
use std::cmp::Ordering;
use std::collections::BinaryHeap;

const WALL: u8 = 255;
const SQRT_2: f64 = std::f64::consts::SQRT_2;
const SQRT_3: f64 = 1.7320508075688772;

/// The move graph of a request, written from the spec's move rules.
struct World {
    /// Voxel sizes; a hex map is `(width, height, 1)`.
    size: (i64, i64, i64),
    /// `Some(layout)` for a hex map.
    layout: Option<i32>,
    cells: Vec<u8>,
    multipliers: [f64; 256],
    cell_cost: Option<CellCostRule>,
    blocked: Option<CellBlockRule>,
    /// Voxel: the largest number of non-zero offset components (1, 2 or 3).
    max_axes: usize,
    /// Voxel: 0 Always, 1 AtMostOneBlocked, 2 NoneBlocked.
    diagonal: u8,
    /// The world point of a cell: origin and size.
    space: (f64, f64, f64, f64),
    weight: f64,
    dijkstra: bool,
}

impl World {
    fn of(r: &LatticeRequest) -> Option<World> {
        let mut multipliers = [1.0; 256];
        let mut set = |pairs: &[(u8, f64)]| {
            for &(a, m) in pairs {
                multipliers[a as usize] = m;
            }
        };
        let w = match r {
            LatticeRequest::Hex(h) => {
                set(&h.map.multipliers);
                let [ox, oy, s] = h.map.space.unwrap_or([0.0, 0.0, 1.0]);
                World {
                    size: (i64::from(h.map.width), i64::from(h.map.height), 1),
                    layout: Some(h.layout),
                    cells: hex::decode(&h.map.cells).ok()?,
                    multipliers,
                    cell_cost: h.options.cell_cost,
                    blocked: h.options.blocked,
                    max_axes: 0,
                    diagonal: 0,
                    space: (ox, oy, 0.0, s),
                    weight: h.options.weight,
                    dijkstra: h.options.algorithm == 1,
                }
            }
            LatticeRequest::Voxel(v) => {
                set(&v.multipliers);
                let [ox, oy, oz, s] = v.space.unwrap_or([0.0, 0.0, 0.0, 1.0]);
                World {
                    size: (
                        i64::from(v.size[0]),
                        i64::from(v.size[1]),
                        i64::from(v.size[2]),
                    ),
                    layout: None,
                    cells: hex::decode(&v.cells).ok()?,
                    multipliers,
                    cell_cost: v.options.cell_cost,
                    blocked: v.options.blocked,
                    max_axes: match v.options.connectivity {
                        6 => 1,
                        18 => 2,
                        _ => 3,
                    },
                    diagonal: v.options.diagonal,
                    space: (ox, oy, oz, s),
                    weight: v.options.weight,
                    dijkstra: v.options.algorithm == 1,
                }
            }
        };
        Some(w)
    }

    fn index(&self, x: i64, y: i64, z: i64) -> usize {
        (x + self.size.0 * (y + self.size.1 * z)) as usize
    }

    fn xyz(&self, c: usize) -> (i64, i64, i64) {
        let c = c as i64;
        (
            c % self.size.0,
            (c / self.size.0) % self.size.1,
            c / (self.size.0 * self.size.1),
        )
    }

    /// [HEX.PASS] [VOXEL.PASS]
    fn passable(&self, x: i64, y: i64, z: i64) -> bool {
        let (sx, sy, sz) = self.size;
        if x < 0 || y < 0 || z < 0 || x >= sx || y >= sy || z >= sz {
            return false;
        }
        let c = self.index(x, y, z);
        self.cells[c] != WALL && !self.blocked.is_some_and(|b| b.blocked(c as u32))
    }

    /// [HEX.MOVE.COST] [VOXEL.COST.MOVE] `None` when the hook forbids the move or the cost
    /// overflows.
    fn cost(&self, base: f64, u: usize, v: usize) -> Option<f64> {
        let mut c = base * self.multipliers[self.cells[v] as usize];
        if let Some(rule) = self.cell_cost {
            let extra = rule.extra(u as u32, v as u32);
            if extra.is_nan() || extra < 0.0 || extra == f64::INFINITY {
                return None;
            }
            c += extra;
        }
        c.is_finite().then_some(c)
    }

    /// Axial coordinates of an offset cell ([GRID.HEX.AXIAL]).
    fn axial(&self, x: i64, y: i64) -> (i64, i64) {
        match self.layout {
            Some(0) => (x - (y - (y & 1)) / 2, y),
            Some(1) => (x - (y + (y & 1)) / 2, y),
            Some(2) => (x, y - (x - (x & 1)) / 2),
            _ => (x, y - (x + (x & 1)) / 2),
        }
    }

    /// The allowed moves out of `u` with their costs, in any order.
    fn moves(&self, u: usize) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        self.each_move(u, |v, c| out.push((v, c)));
        out
    }

    /// Calls `out(v, cost)` for every allowed move out of `u` (what [`World::moves`] lists,
    /// without a list per cell: Dijkstra calls it once per settled cell).
    fn each_move(&self, u: usize, mut out: impl FnMut(usize, f64)) {
        let (x, y, z) = self.xyz(u);
        if self.layout.is_some() {
            let (q, r) = self.axial(x, y);
            for ny in y - 1..=y + 1 {
                for nx in x - 1..=x + 1 {
                    if !self.passable(nx, ny, 0) {
                        continue;
                    }
                    let (nq, nr) = self.axial(nx, ny);
                    let (dq, dr) = (nq - q, nr - r);
                    if (dq.abs() + dr.abs() + (dq + dr).abs()) / 2 == 1 {
                        let v = self.index(nx, ny, 0);
                        if let Some(c) = self.cost(1.0, u, v) {
                            out(v, c);
                        }
                    }
                }
            }
            return;
        }
        for dz in -1..=1i64 {
            for dy in -1..=1i64 {
                for dx in -1..=1i64 {
                    let d = [dx, dy, dz];
                    let k = d.iter().filter(|&&c| c != 0).count();
                    if k == 0 || k > self.max_axes || !self.passable(x + dx, y + dy, z + dz) {
                        continue;
                    }
                    if k >= 2 && !self.corner_allows(x, y, z, d, k) {
                        continue;
                    }
                    let v = self.index(x + dx, y + dy, z + dz);
                    if let Some(c) = self.cost([1.0, SQRT_2, SQRT_3][k - 1], u, v) {
                        out(v, c);
                    }
                }
            }
        }
    }

    /// [VOXEL.MOVE.PASSED] [VOXEL.MOVE.RULE] Counts the swept voxels that are not passable: `d`
    /// with some, not all, of its non-zero components kept.
    fn corner_allows(&self, x: i64, y: i64, z: i64, d: [i64; 3], k: usize) -> bool {
        let mut blocked = 0;
        for mask in 1..8u8 {
            let keep = |i: usize| mask & (1 << i) != 0;
            if (0..3).any(|i| keep(i) && d[i] == 0) {
                continue;
            }
            let e: [i64; 3] = std::array::from_fn(|i| if keep(i) { d[i] } else { 0 });
            if e.iter().filter(|&&c| c != 0).count() == k {
                continue;
            }
            if !self.passable(x + e[0], y + e[1], z + e[2]) {
                blocked += 1;
            }
        }
        match self.diagonal {
            0 => true,
            1 => blocked <= 1,
            _ => blocked == 0,
        }
    }

    /// Plain Dijkstra from `start` (any pop order among equal keys): the distance of `goal`,
    /// final when it is first taken from the heap (the costs are not negative), where it stops.
    fn distance(&self, start: usize, goal: usize) -> f64 {
        let mut dist = vec![f64::INFINITY; self.cells.len()];
        let mut heap = BinaryHeap::new();
        dist[start] = 0.0;
        heap.push(Entry(0.0, start));
        while let Some(Entry(d, u)) = heap.pop() {
            if d > dist[u] {
                continue;
            }
            if u == goal {
                break;
            }
            self.each_move(u, |v, c| {
                if d + c < dist[v] {
                    dist[v] = d + c;
                    heap.push(Entry(d + c, v));
                }
            });
        }
        dist[goal]
    }

    /// Whether some estimate may overflow to `+infinity` ([HEX.EST.VALUE], [VOXEL.EST.VALUE]):
    /// then a reachable goal may be `NotFound`, and reachability is not checked.
    fn estimate_may_overflow(&self) -> bool {
        let mmin = self.multipliers[..255]
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min);
        let far = (self.size.0 + self.size.1 + self.size.2) as f64 * 2.0;
        !self.dijkstra && !((far * mmin) * self.weight).is_finite()
    }
}

/// A min-heap entry.
#[derive(PartialEq)]
struct Entry(f64, usize);
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        o.0.total_cmp(&self.0).then(o.1.cmp(&self.1))
    }
}

/// Within `1e-12` relative.
fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// [CONF.LATTICE.ORACLE] The first problem of `reply` as an answer to `request`, or `None`.
pub fn check(request: &LatticeRequest, reply: &LatticeReply) -> Option<String> {
    let LatticeReply::Ran(replies) = reply else {
        return None;
    };
    let w = World::of(request)?;
    let record = match request {
        LatticeRequest::Hex(h) => h.options.record,
        LatticeRequest::Voxel(v) => v.options.record,
    };
    // Dijkstra's distances by ends: the sliced query repeats the tier-1 query's.
    let mut memo: Vec<((usize, usize), f64)> = Vec::new();
    for (i, (q, r)) in request.queries().iter().zip(replies).enumerate() {
        if let QueryReply::Path(p) = r {
            if let Some(problem) = check_query(&w, request.budget(), record, q, p, &mut memo) {
                return Some(format!("query {i}: {problem}"));
            }
        }
    }
    None
}

/// [CONF.LATTICE.CANCEL] [GRAPH.ASTAR.RUN] A cancel query's trace: three `[status, iterations]`
/// pairs; `step(k)` did `min(k, ...)` iterations (`k` exactly while still Running); a cancelled
/// run pops nothing (the flag is read at 0 iterations done), so both leave the iterations as they
/// were; a Running search may end only with a status of `may_end` (its stop or empty-open check
/// comes before the read), any other status stays; the second changes nothing; the resumed run
/// (`iterations` after it) does not lose iterations. Only cancel queries carry a trace. Shared
/// by the lattice, bidirectional and HPA\* oracles ([CONF.HPA.CANCEL]).
pub(crate) fn check_cancel(
    cancel: Option<u64>,
    trace: &Option<Vec<(u8, u64)>>,
    iterations: u64,
    may_end: &[u8],
) -> Option<String> {
    let (k, t) = match (cancel, trace) {
        (None, None) => return None,
        (Some(k), Some(t)) => (k, t),
        (Some(_), None) => return Some("a cancel query without its trace".into()),
        (None, Some(_)) => return Some("a cancel trace on a query that does not cancel".into()),
    };
    if t.len() != 3 {
        return Some(format!("{} cancel trace entries, not 3", t.len()));
    }
    let (before, first, second) = (t[0], t[1], t[2]);
    if before.0 == 1 && before.1 != k {
        return Some(format!(
            "Running after step({k}) with {} iterations [GRAPH.ASTAR.STEP]",
            before.1
        ));
    }
    if before.1 > k {
        return Some(format!("{} iterations after step({k})", before.1));
    }
    let ok = first.1 == before.1
        && match before.0 {
            1 => first.0 == 1 || may_end.contains(&first.0),
            s => first.0 == s,
        };
    if !ok || second != first {
        return Some(format!(
            "cancelled runs went {before:?} -> {first:?} -> {second:?} [GRAPH.ASTAR.RUN]"
        ));
    }
    if iterations < first.1 {
        return Some(format!(
            "{iterations} iterations after resuming, fewer than the {} before [GRAPH.ASTAR.RUN]",
            first.1
        ));
    }
    None
}

/// [CONF.LATTICE.QUERY] The iterations of `step(schedule[i mod len])` for `i = 0 .. 2^20 - 1`
/// when every call pops its whole budget: the sum of the schedule over the capped calls.
fn capped_iterations(schedule: &[u64]) -> u128 {
    let len = schedule.len() as u64;
    let (cycles, rest) = (MAX_STEP_CALLS / len, MAX_STEP_CALLS % len);
    let all: u128 = schedule.iter().map(|&b| u128::from(b)).sum();
    let head: u128 = schedule[..rest as usize]
        .iter()
        .map(|&b| u128::from(b))
        .sum();
    u128::from(cycles) * all + head
}

fn check_query(
    w: &World,
    budget: u64,
    record: bool,
    q: &Query,
    p: &PathReply,
    memo: &mut Vec<((usize, usize), f64)>,
) -> Option<String> {
    let tier1 = q.schedule.is_empty() && q.cancel.is_none();
    if let Some(problem) = check_cancel(q.cancel, &p.cancel, p.iterations, &[1, 3]) {
        return Some(problem);
    }
    if record && p.expanded.len() as u64 != p.expanded_count {
        return Some(format!(
            "{} recorded expansions, expanded count {} [HEX.SEARCH.RECORD] [VOXEL.SEARCH.RECORD]",
            p.expanded.len(),
            p.expanded_count
        ));
    }
    if !record && !p.expanded.is_empty() {
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
                "BudgetExhausted after {} iterations with a budget of {budget} [HEX.TIER1] [VOXEL.TIER1]",
                p.iterations
            )
        });
    }
    if q.cancel.is_some() && p.status == 1 {
        return Some("Running after the resumed run [GRAPH.ASTAR.RUN]".into());
    }
    if !tier1 && p.status == 1 {
        // [CONF.LATTICE.QUERY] a sliced query is still Running only after the cap of step
        // calls, each of which popped its whole budget (a shorter one ends the search).
        let want = capped_iterations(&q.schedule);
        if u128::from(p.iterations) != want {
            return Some(format!(
                "Running after {} iterations; {} step calls of the schedule cycled from index 0 pop {want} [CONF.LATTICE.QUERY]",
                p.iterations, MAX_STEP_CALLS
            ));
        }
        return (p.cost.0 != f64::INFINITY || !p.cells.is_empty())
            .then(|| "a Running search with a finite cost or a path".to_string());
    }
    if p.status != 2 && p.status != 3 {
        return Some(format!("status {} after the run", p.status));
    }
    let end = |v: &[u32]| {
        let z = v.get(2).copied().unwrap_or(0);
        w.index(i64::from(v[0]), i64::from(v[1]), i64::from(z))
    };
    let (start, goal) = (end(&q.start), end(&q.goal));
    let (sx, sy, sz) = w.xyz(start);
    let (gx, gy, gz) = w.xyz(goal);
    let truth = if w.passable(sx, sy, sz) && w.passable(gx, gy, gz) {
        match memo.iter().find(|(e, _)| *e == (start, goal)) {
            Some(&(_, d)) => d,
            None => {
                let d = w.distance(start, goal);
                memo.push(((start, goal), d));
                d
            }
        }
    } else {
        f64::INFINITY
    };
    let found = p.status == 2;
    if found != truth.is_finite() && !(w.estimate_may_overflow() && !found) {
        return Some(format!(
            "status {} but Dijkstra's cost is {truth:?}",
            p.status
        ));
    }
    if !found {
        return (p.cost.0 != f64::INFINITY || !p.cells.is_empty() || !p.points.is_empty())
            .then(|| "a search that did not find the goal reports a cost or a path".into());
    }
    // The path: start to goal by allowed moves, costs added in path order.
    if p.cells.first() != Some(&(start as u32)) || p.cells.last() != Some(&(goal as u32)) {
        return Some(format!(
            "the path runs from {:?} to {:?}, not from {start} to {goal}",
            p.cells.first(),
            p.cells.last()
        ));
    }
    let mut sum = 0.0;
    for (j, pair) in p.cells.windows(2).enumerate() {
        let (u, v) = (pair[0] as usize, pair[1] as usize);
        match w.moves(u).into_iter().find(|&(to, _)| to == v) {
            Some((_, c)) => sum += c,
            None => return Some(format!("path step {j}: {u} -> {v} is not an allowed move")),
        }
    }
    if sum.to_bits() != p.cost.0.to_bits() {
        return Some(format!(
            "the path's moves add up to {sum:?}, the reported cost is {:?}",
            p.cost.0
        ));
    }
    let cost = p.cost.0;
    let ok = if w.dijkstra {
        cost.to_bits() == truth.to_bits()
    } else if w.weight == 1.0 {
        close(cost, truth)
    } else {
        (cost >= truth || close(cost, truth))
            && (cost <= w.weight * truth || close(cost, w.weight * truth))
    };
    if !ok {
        return Some(format!(
            "cost {cost:?} against Dijkstra's {truth:?} (algorithm {}, weight {})",
            p.algorithm, w.weight
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
        let (ox, oy, oz, s) = w.space;
        for (j, (&c, pt)) in p.cells.iter().zip(&p.points).enumerate() {
            let (x, y, z) = w.xyz(c as usize);
            // [GRID.SPACE.CENTER]
            let mut want = vec![ox + (x as f64 + 0.5) * s, oy + (y as f64 + 0.5) * s];
            if w.layout.is_none() {
                want.push(oz + (z as f64 + 0.5) * s);
            }
            let got: Vec<f64> = pt.iter().map(|r| r.0).collect();
            if want
                .iter()
                .map(|v| v.to_bits())
                .ne(got.iter().map(|v| v.to_bits()))
            {
                return Some(format!(
                    "point {j} is {got:?}, the centre of cell {c} is {want:?} [GRID.SPACE.CENTER]"
                ));
            }
        }
    } else if !p.points.is_empty() {
        return Some("a sliced query reports world points".into());
    }
    None
}
