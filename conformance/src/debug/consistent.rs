//! The kit's own reading of a description ([CONF.DEBUG.CONSISTENT]): world points by the kit's
//! arithmetic, list lengths, recording, and agreement with the same implementation's family op
//! on the same input. Independent of both crates: nothing here calls a crate directly.

use super::model::{
    DescribeEntry, DescribeReply, DescribeRequest, Description, GraphPathData, HierarchyData,
    PathData, ReplanData,
};
use crate::bidi::BidiRequest;
use crate::error::HarnessError;
use crate::grid::vectors::MapFile;
use crate::grid::{GridApi, GridRequest};
use crate::implementation::{Implementation, RunOptions};
use crate::lattice::{LatticeReply, PathReply, QueryReply};
use crate::outcome::Outcome;
use crate::port::wire::Real;
use crate::scenario::{Case, GraphSpec};

/// [GRID.SPACE.CENTER] [GRID.SPACE.UNASSIGNED] The space as used.
fn plane_space(space: Option<[f64; 3]>) -> (f64, f64, f64) {
    match space {
        Some([ox, oy, s]) if !(ox == 0.0 && oy == 0.0 && s == 0.0) => (ox, oy, s),
        _ => (0.0, 0.0, 1.0),
    }
}

/// [DEBUG.POINTS] The kit's world point of cell `c` on a grid of width `w`.
fn plane_point(space: Option<[f64; 3]>, w: u32, c: u32) -> [Real; 2] {
    let (ox, oy, s) = plane_space(space);
    let w = w.max(1);
    let (x, y) = (f64::from(c % w), f64::from(c / w));
    [Real(ox + (x + 0.5) * s), Real(oy + (y + 0.5) * s)]
}

/// [DEBUG.POINTS] The kit's world point of voxel `c` on a grid of size `size`.
fn voxel_point(space: Option<[f64; 4]>, size: [u32; 3], c: u32) -> [Real; 3] {
    let (ox, oy, oz, s) = match space {
        Some([ox, oy, oz, s]) if !(ox == 0.0 && oy == 0.0 && oz == 0.0 && s == 0.0) => {
            (ox, oy, oz, s)
        }
        _ => (0.0, 0.0, 0.0, 1.0),
    };
    let (sx, sy) = (u64::from(size[0].max(1)), u64::from(size[1].max(1)));
    let c = u64::from(c);
    let (x, y, z) = (c % sx, (c / sx) % sy, c / (sx * sy));
    [
        Real(ox + (x as f64 + 0.5) * s),
        Real(oy + (y as f64 + 0.5) * s),
        Real(oz + (z as f64 + 0.5) * s),
    ]
}

/// Collects problems, each naming the entry and the member.
struct Problems {
    at: String,
    out: Vec<String>,
}

impl Problems {
    fn say(&mut self, what: String) {
        self.out.push(format!("{}: {what}", self.at));
    }

    /// Every point equals the kit's point of its cell.
    fn points<P: PartialEq + std::fmt::Debug>(
        &mut self,
        member: &str,
        cells: &[u32],
        points: &[P],
        point: impl Fn(u32) -> P,
    ) {
        if cells.len() != points.len() {
            self.say(format!(
                "{member}: {} points for {} cells",
                points.len(),
                cells.len()
            ));
            return;
        }
        if let Some(i) = (0..cells.len()).find(|&i| points[i] != point(cells[i])) {
            self.say(format!(
                "{member} entry {i}: expected {:?} (the centre of cell {}), found {:?}",
                point(cells[i]),
                cells[i],
                points[i]
            ));
        }
    }

    /// [DEBUG.EXPANDED.OPT_IN] Empty without recording, `count` long with it.
    fn recorded(&mut self, record: bool, expanded: usize, count: u64) {
        if !record && expanded != 0 {
            self.say(format!("expanded: {expanded} entries without recording"));
        }
        if record && expanded as u64 != count {
            self.say(format!(
                "expanded: {expanded} entries for an expanded count of {count}"
            ));
        }
    }

    fn plane_path(&mut self, map: &MapFile, record: bool, p: &PathData) {
        if (p.width, p.height) != (map.width, map.height) {
            self.say(format!(
                "size: {}x{} for a {}x{} map",
                p.width, p.height, map.width, map.height
            ));
        }
        let point = |c| plane_point(map.space, map.width, c);
        self.points("points", &p.cells, &p.points, point);
        self.points("expanded_points", &p.expanded, &p.expanded_points, point);
        self.recorded(record, p.expanded.len(), p.expanded_count);
    }

    fn hierarchy(&mut self, map: &MapFile, h: &HierarchyData) {
        let cells: Vec<u32> = h.nodes.iter().map(|n| n[0]).collect();
        let point = |c| plane_point(map.space, map.width, c);
        self.points("node_points", &cells, &h.node_points, point);
        for (i, e) in h.edges.iter().enumerate() {
            let (Some(a), Some(b)) = (cells.get(e.from as usize), cells.get(e.to as usize)) else {
                self.say(format!("edges entry {i}: a node id past {}", cells.len()));
                continue;
            };
            if e.path.first() != Some(a) || e.path.last() != Some(b) {
                self.say(format!(
                    "edges entry {i}: the stored path does not run from cell {a} to cell {b}"
                ));
            }
        }
    }

    fn replan(&mut self, map: &MapFile, record: bool, r: &ReplanData, restored: bool) {
        let point = |c| plane_point(map.space, map.width, c);
        self.points("points", &r.cells, &r.points, point);
        self.points("expanded_points", &r.expanded, &r.expanded_points, point);
        if r.expanded_kinds.len() != r.expanded.len() {
            self.say(format!(
                "expanded_kinds: {} kinds for {} expansions",
                r.expanded_kinds.len(),
                r.expanded.len()
            ));
        }
        if !restored {
            self.recorded(record, r.expanded.len(), r.expanded_count);
        }
    }

    fn graph(&mut self, spec: &GraphSpec, g: &GraphPathData) {
        let known: Option<&Vec<[f64; 3]>> = match spec {
            GraphSpec::Points { points, .. } => Some(points),
            GraphSpec::Edges { positions, .. } => positions.as_ref(),
        };
        let pos = |n: u32| -> Option<[Real; 3]> {
            known?
                .get(n as usize)
                .map(|p| [Real(p[0]), Real(p[1]), Real(p[2])])
        };
        let all = |list: &[u32]| list.iter().map(|&n| pos(n)).collect::<Option<Vec<_>>>();
        let expect = match (all(&g.nodes), all(&g.expanded)) {
            (Some(a), Some(b)) => (a, b),
            _ => (Vec::new(), Vec::new()),
        };
        if g.positions != expect.0 {
            self.say(format!(
                "positions: expected {:?}, found {:?}",
                expect.0, g.positions
            ));
        }
        if g.expanded_positions != expect.1 {
            self.say("expanded_positions: not the case's positions of the expansions".into());
        }
        self.recorded(true, g.expanded.len(), g.expanded_count);
    }
}

/// [CONF.DEBUG.CONSISTENT] The kit's own reading of a reply: every problem, naming the entry
/// and the member. A reply whose shape does not fit the request (another entry count, a
/// description of the wrong kind) is one problem.
pub fn own_reading(request: &DescribeRequest, reply: &DescribeReply) -> Vec<String> {
    let DescribeReply::Ran(entries) = reply else {
        return Vec::new();
    };
    let mut p = Problems {
        at: "reply".into(),
        out: Vec::new(),
    };
    if entries.len() != request.expected_entries() {
        p.say(format!(
            "{} entries for a request of {}",
            entries.len(),
            request.expected_entries()
        ));
        return p.out;
    }
    for (i, entry) in entries.iter().enumerate() {
        p.at = super::compare::entry_name(request, i);
        let DescribeEntry::Described(d) = entry else {
            continue;
        };
        use DescribeRequest as R;
        match (request, d) {
            (R::Grid(b) | R::Bidi(b), Description::Path(x)) => {
                p.plane_path(&b.map, b.options.record, x)
            }
            (R::Hex(h), Description::Path(x)) => p.plane_path(&h.map, h.options.record, x),
            (R::Hpa(h), Description::Path(x)) => p.plane_path(&h.map, h.options.record, x),
            (R::Hpa(h), Description::Hierarchy(x)) if i == h.queries.len() => {
                p.hierarchy(&h.map, x)
            }
            (R::Voxel(v), Description::VoxelPath(x)) => {
                if x.size != v.size {
                    p.say(format!("size: {:?} for a grid of {:?}", x.size, v.size));
                }
                let point = |c| voxel_point(v.space, v.size, c);
                p.points("points", &x.cells, &x.points, point);
                p.points("expanded_points", &x.expanded, &x.expanded_points, point);
                p.recorded(v.options.record, x.expanded.len(), x.expanded_count);
            }
            (R::Graph(t), Description::GraphPath(x)) => p.graph(&t.case.graph, x),
            (R::Replan(r), Description::Replan(x)) => {
                use crate::replan::ReplanStep as S;
                let last = |f: &dyn Fn(&S) -> bool| r.script.iter().rposition(f);
                let replanned =
                    last(&|s| matches!(s, S::Replan { .. } | S::ReplanUntilDone { .. }));
                let restored = last(&|s| matches!(s, S::Restore { .. } | S::Rollback {}));
                // [DEBUG.EXPANDED.OPT_IN] A restore after the last replan empties the list.
                p.replan(&r.grid.map, r.options.record, x, restored > replanned)
            }
            (R::Flow(f), Description::Flow(x)) => {
                let n = u64::from(f.grid.map.width) * u64::from(f.grid.map.height);
                if x.costs.len() as u64 != n || x.next.len() as u64 != n {
                    p.say(format!(
                        "{} costs and {} steps for {n} cells",
                        x.costs.len(),
                        x.next.len()
                    ));
                }
            }
            (_, d) => p.say(format!(
                "a {} description for a {} target",
                d.kind(),
                request.target()
            )),
        }
    }
    p.out
}

/// The path fields shared by a description and a query reply, as one comparable tuple.
type PathView = (u8, u8, Real, Vec<u32>, Vec<Vec<Real>>, Vec<u32>, u64, u64);

fn view_of_description(p: &PathData) -> PathView {
    (
        p.status,
        p.algorithm,
        p.cost,
        p.cells.clone(),
        p.points.iter().map(|q| q.to_vec()).collect(),
        p.expanded.clone(),
        p.expanded_count,
        p.iterations,
    )
}

fn view_of_reply(p: &PathReply) -> PathView {
    (
        p.status,
        p.algorithm,
        p.cost,
        p.cells.clone(),
        p.points.clone(),
        p.expanded.clone(),
        p.expanded_count,
        p.iterations,
    )
}

/// Compares each path entry with the query reply of the family op.
fn against_queries(entries: &[DescribeEntry], replies: &[QueryReply], out: &mut Vec<String>) {
    for (i, (e, r)) in entries.iter().zip(replies).enumerate() {
        let same = match (e, r) {
            (DescribeEntry::Error(a), QueryReply::Error(b)) => a.error == *b,
            (DescribeEntry::Described(Description::Path(d)), QueryReply::Path(q)) => {
                view_of_description(d) == view_of_reply(q)
            }
            (DescribeEntry::Described(Description::VoxelPath(d)), QueryReply::Path(q)) => {
                let points: Vec<Vec<Real>> = d.points.iter().map(|p| p.to_vec()).collect();
                (d.status, d.algorithm, d.cost, &d.cells, points, &d.expanded)
                    == (
                        q.status,
                        q.algorithm,
                        q.cost,
                        &q.cells,
                        q.points.clone(),
                        &q.expanded,
                    )
                    && (d.expanded_count, d.iterations) == (q.expanded_count, q.iterations)
            }
            _ => false,
        };
        if !same {
            out.push(format!(
                "query {i}: the description is not the result the family op gave: {e:?} against {r:?}"
            ));
        }
    }
}

/// [CONF.DEBUG.CONSISTENT] The reply against the same implementation's family op on the same
/// input: every disagreement, naming the entry. `Err` when the family op got no answer.
pub fn against_results(
    imp: &dyn Implementation,
    label: &str,
    request: &DescribeRequest,
    reply: &DescribeReply,
) -> Result<Vec<String>, HarnessError> {
    let mut out = Vec::new();
    let entries = match reply {
        DescribeReply::Ran(e) if e.len() == request.expected_entries() => e,
        _ => return Ok(out),
    };
    match request {
        DescribeRequest::Grid(b) => {
            for (i, (q, e)) in b.queries.iter().zip(entries).enumerate() {
                let found = imp.run_grid(&tier1_request(b, q))?;
                let same = match (&found, e) {
                    (Err(class), DescribeEntry::Error(x)) => *class == x.error,
                    (Ok(g), DescribeEntry::Described(Description::Path(d))) => {
                        let points: Vec<(u64, u64)> = d
                            .points
                            .iter()
                            .map(|p| (p[0].0.to_bits(), p[1].0.to_bits()))
                            .collect();
                        (
                            g.status,
                            g.algorithm,
                            g.cost_bits,
                            &g.path,
                            &g.points,
                            &g.expansions,
                        ) == (
                            d.status,
                            d.algorithm,
                            d.cost.0.to_bits(),
                            &d.cells,
                            &points,
                            &d.expanded,
                        ) && (g.iterations, g.expanded) == (d.iterations, d.expanded_count)
                    }
                    _ => false,
                };
                if !same {
                    out.push(format!(
                        "query {i}: the description is not the tier-1 run_grid result: {e:?} against {found:?}"
                    ));
                }
            }
        }
        DescribeRequest::Bidi(b) => {
            if let crate::bidi::BidiReply::Ran(r) = imp.run_bidi_as(label, b)? {
                against_queries(entries, &r.queries, &mut out);
            }
        }
        DescribeRequest::Hex(h) => {
            let lattice = crate::lattice::LatticeRequest::Hex(h.clone());
            if let LatticeReply::Ran(r) = imp.run_lattice_as(label, &lattice)? {
                against_queries(entries, &r, &mut out);
            }
        }
        DescribeRequest::Voxel(v) => {
            let lattice = crate::lattice::LatticeRequest::Voxel(v.clone());
            if let LatticeReply::Ran(r) = imp.run_lattice_as(label, &lattice)? {
                against_queries(entries, &r, &mut out);
            }
        }
        DescribeRequest::Hpa(h) => {
            if let crate::hpa::HpaReply::Ran(r) = imp.run_hpa_as(label, h)? {
                let replies: Vec<QueryReply> = r
                    .queries
                    .iter()
                    .map(|q| match q {
                        crate::hpa::HpaQueryReply::Error(c) => QueryReply::Error(c.clone()),
                        crate::hpa::HpaQueryReply::Path(p) => QueryReply::Path(PathReply {
                            status: p.status,
                            algorithm: p.algorithm,
                            cost: p.cost,
                            cells: p.cells.clone(),
                            points: p.points.clone(),
                            expanded: p.expanded.clone(),
                            expanded_count: p.expanded_count,
                            iterations: p.iterations,
                            cancel: None,
                        }),
                    })
                    .collect();
                against_queries(entries, &replies, &mut out);
            }
        }
        DescribeRequest::Graph(t) => {
            let case = Case {
                graph: t.case.graph.clone(),
                landmarks: t.case.landmarks.clone(),
            };
            let opts = RunOptions {
                iteration_budget: 0,
                record_expansions: true,
            };
            let outcome = imp.run_query(&case, t.variant, t.query, opts);
            let same = match (&outcome, &entries[0]) {
                (Outcome::Error(c), DescribeEntry::Error(e)) => *c == e.error,
                (Outcome::Path(o), DescribeEntry::Described(Description::GraphPath(d))) => {
                    o.cost.to_bits() == d.cost.0.to_bits()
                        && o.nodes == d.nodes
                        && o.expanded == d.expanded
                        && (o.iterations, o.expanded_count) == (d.iterations, d.expanded_count)
                        && algorithm_name(o.algorithm) == d.algorithm
                        && status_code(o.status) == d.status
                }
                _ => false,
            };
            if !same {
                out.push(format!(
                    "graph path: the description is not the run_case outcome: {:?} against {outcome:?}",
                    entries[0]
                ));
            }
        }
        DescribeRequest::Replan(r) => {
            let reply = imp.run_replan_as(label, r)?;
            let (
                crate::replan::ReplanReply::Ran { steps, .. },
                Some(DescribeEntry::Described(Description::Replan(d))),
            ) = (&reply, entries.first())
            else {
                return Ok(out);
            };
            if let Some(s) = steps.last() {
                let ours = (
                    d.found,
                    d.cost,
                    &d.cells,
                    &d.path_error,
                    d.iterations,
                    &d.expanded,
                    d.expanded_count,
                    d.pending,
                );
                let theirs = (
                    s.found,
                    s.cost,
                    &s.path,
                    &s.path_error,
                    s.iterations,
                    &s.expansions,
                    s.last_expanded,
                    s.pending,
                );
                if ours != theirs {
                    out.push(format!(
                        "replanner: the description is not the last step run_replan observed: {ours:?} against {theirs:?}"
                    ));
                }
            }
        }
        DescribeRequest::Flow(f) => {
            let reply = imp.run_flow_as(label, f)?;
            if let (
                crate::flow::FlowReply::Ran { costs, next, .. },
                Some(DescribeEntry::Described(Description::Flow(d))),
            ) = (&reply, entries.first())
            {
                if *costs != d.costs || *next != d.next {
                    out.push(
                        "flow field: the costs or steps are not the final field run_flow reported"
                            .into(),
                    );
                }
            }
        }
    }
    Ok(out)
}

/// [CONF.DEBUG.REPLY] The wire name of a graph algorithm.
fn algorithm_name(a: crate::outcome::AlgorithmCode) -> &'static str {
    use crate::outcome::AlgorithmCode as A;
    match a {
        A::Dijkstra => "dijkstra",
        A::Astar => "astar",
        A::BidirectionalDijkstra => "bidirectional_dijkstra",
        A::BidirectionalAstar => "bidirectional_astar",
    }
}

/// [CONF.DEBUG.REPLY] The wire code of a path status.
fn status_code(s: crate::outcome::StatusCode) -> u8 {
    use crate::outcome::StatusCode as S;
    match s {
        S::Found => 2,
        S::NotFound => 3,
        S::BudgetExhausted => 4,
    }
}

/// The tier-1 `run_grid` request of one query of a `grid` target.
fn tier1_request(b: &BidiRequest, q: &crate::lattice::Query) -> GridRequest {
    GridRequest {
        map: crate::grid::GridMap {
            width: b.map.width,
            height: b.map.height,
            cells: hex::decode(&b.map.cells).unwrap_or_default(),
            multipliers: b.map.multipliers.clone(),
            space: b.map.space,
        },
        options: b.options.clone(),
        api: GridApi::Tier1,
        start: (q.start[0], q.start[1]),
        goal: (q.goal[0], q.goal[1]),
        schedule: Vec::new(),
        snapshot_after: None,
    }
}
