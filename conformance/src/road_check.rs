//! `road --check` ([CONF.CLI.ROAD]): certifies both crates on a user's DIMACS graph. `Q` seeded
//! random queries run through Dijkstra and bidirectional Dijkstra (and, with coordinates, A* and
//! bidirectional A* with the `road` estimate) of `onepath-reference` and `onepath`; each cost is
//! compared with a textbook binary-heap Dijkstra written here (it shares no code with either
//! crate and needs no O(V^2) work, so it runs on road graphs of millions of nodes), each found
//! path is checked with [`crate::oracle::check_path`], and the two crates' status, cost bits and
//! paths must be equal.

use crate::generators::distance;
use crate::oracle::{check_path, costs_agree};
use crate::prng::SplitMix64;
use crate::road::{RoadError, RoadErrorKind, RoadGraph};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt::Write as _;
use std::time::Instant;

/// The most differences a report lists (all are counted).
pub const MAX_LISTED: usize = 20;

/// The graph as forward adjacency lists (compressed rows), for the oracle and for path checks.
struct Adjacency {
    start: Vec<usize>,
    /// `(head, weight)` per arc, grouped by tail.
    arcs: Vec<(u32, f64)>,
}

impl Adjacency {
    fn new(road: &RoadGraph) -> Adjacency {
        let n = road.node_count;
        let mut start = vec![0usize; n + 1];
        for &(a, _, _) in &road.arcs {
            start[a as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut arcs = vec![(0u32, 0.0f64); road.arcs.len()];
        for &(a, b, w) in &road.arcs {
            arcs[next[a as usize]] = (b, w);
            next[a as usize] += 1;
        }
        Adjacency { start, arcs }
    }

    fn out(&self, u: u32) -> &[(u32, f64)] {
        &self.arcs[self.start[u as usize]..self.start[u as usize + 1]]
    }
}

/// A non-negative f64 key for the heap (weights are finite and `>= 0`, so never NaN).
#[derive(Clone, Copy)]
struct Key(f64);
impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other).is_eq()
    }
}
impl Eq for Key {}
impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Textbook Dijkstra with a binary heap and lazy deletion: the least cost from `s` to `g`
/// (`+infinity` when unreachable). `dist` and `touched` are scratch space reused across queries.
fn oracle_cost(adj: &Adjacency, s: u32, g: u32, dist: &mut [f64], touched: &mut Vec<u32>) -> f64 {
    for &v in touched.iter() {
        dist[v as usize] = f64::INFINITY;
    }
    touched.clear();
    let mut heap = BinaryHeap::new();
    dist[s as usize] = 0.0;
    touched.push(s);
    heap.push(Reverse((Key(0.0), s)));
    while let Some(Reverse((Key(d), u))) = heap.pop() {
        if d > dist[u as usize] {
            continue;
        }
        if u == g {
            return d;
        }
        for &(v, w) in adj.out(u) {
            let nd = d + w;
            if nd < dist[v as usize] {
                if dist[v as usize].is_infinite() {
                    touched.push(v);
                }
                dist[v as usize] = nd;
                heap.push(Reverse((Key(nd), v)));
            }
        }
    }
    f64::INFINITY
}

/// The A* estimate shared by both crates' options.
type Estimate = std::sync::Arc<dyn Fn(u32, u32) -> f64 + Send + Sync>;

/// One crate's answer to one query: `(status name, cost, path nodes)`, or the error it gave.
pub type Answer = Result<(String, f64, Vec<u32>), String>;

/// The estimate of `road` (scaled straight-line distance), as a function of two nodes.
fn estimate(road: &RoadGraph) -> Option<Estimate> {
    let pos = road.positions.as_ref()?;
    let scale = road
        .arcs
        .iter()
        .filter_map(|&(a, b, w)| {
            let d = distance(pos[a as usize], pos[b as usize]);
            (d > 0.0).then_some(w / d)
        })
        .fold(f64::INFINITY, f64::min);
    let scale = if scale.is_finite() {
        scale * (1.0 - 1e-12)
    } else {
        0.0
    };
    let pos = pos.clone();
    Some(std::sync::Arc::new(move |u, v| {
        let h = scale * distance(pos[u as usize], pos[v as usize]);
        if h.is_nan() {
            0.0
        } else {
            h
        }
    }))
}

macro_rules! crate_graph {
    ($ty:ident, $krate:ident) => {
        /// One crate's compiled graph and the options of each algorithm (by index into
        /// [`ALGORITHMS`]).
        struct $ty {
            graph: ::$krate::Graph,
            options: Vec<::$krate::GraphOptions>,
        }

        impl $ty {
            fn new(road: &RoadGraph, h: &Option<Estimate>) -> Result<$ty, RoadError> {
                use ::$krate as op;
                let edges: Vec<op::GraphEdge> = road
                    .arcs
                    .iter()
                    .map(|&(a, b, w)| op::GraphEdge::new(a, b, w))
                    .collect();
                let graph = op::Graph::from_edges(&edges, Some(road.node_count), true)
                    .map_err(|e| RoadError::new(RoadErrorKind::Library, e.to_string()))?;
                graph.compile();
                let heuristic: Option<op::HeuristicFn> = h.clone();
                let options = (0..ALGORITHMS.len())
                    .map(|k| {
                        let (algorithm, uses_h) = match k {
                            0 => (op::Algorithm::Dijkstra, false),
                            1 => (op::Algorithm::BidirectionalDijkstra, false),
                            2 => (op::Algorithm::AStar, true),
                            _ => (op::Algorithm::BidirectionalAStar, true),
                        };
                        op::GraphOptions {
                            algorithm,
                            heuristic: if uses_h { heuristic.clone() } else { None },
                            ..Default::default()
                        }
                    })
                    .collect();
                Ok($ty { graph, options })
            }

            fn answer(&self, s: u32, g: u32, k: usize) -> Answer {
                match self.graph.find_path(s, g, &self.options[k]) {
                    Ok(p) => Ok((format!("{:?}", p.status), p.cost, p.nodes)),
                    Err(e) => Err(e.to_string()),
                }
            }
        }
    };
}

crate_graph!(ReferenceGraph, onepath_reference);
crate_graph!(OptimizedGraph, onepath);

/// The algorithms of a check, by index: the A* variants need coordinates.
pub const ALGORITHMS: [&str; 4] = [
    "dijkstra",
    "bidirectional dijkstra",
    "astar (euclidean)",
    "bidirectional astar",
];

/// The counts of one algorithm.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlgorithmCounts {
    /// The algorithm's name ([`ALGORITHMS`]).
    pub algorithm: String,
    /// Queries run.
    pub queries: u64,
    /// Queries on which both crates agree with the oracle, with each other and have valid paths.
    pub agree: u64,
    /// Queries with at least one difference.
    pub differ: u64,
}

/// The result of `road --check`.
#[derive(Clone, Debug, PartialEq)]
pub struct RoadCheckReport {
    /// Nodes.
    pub nodes: usize,
    /// Arcs.
    pub arcs: usize,
    /// True when every weight is an integer and their sum is below `2^53` (costs compared
    /// exactly), else costs agree within `1e-9` relative ([CONF.ORACLE.TOLERANCE]).
    pub integer_weights: bool,
    /// Per algorithm.
    pub counts: Vec<AlgorithmCounts>,
    /// Every difference, counted.
    pub difference_count: u64,
    /// The first [`MAX_LISTED`] differences, one line each.
    pub differences: Vec<String>,
    /// Seconds: oracle, reference, optimized.
    pub seconds: [f64; 3],
}

impl RoadCheckReport {
    /// True when there is no difference.
    pub fn ok(&self) -> bool {
        self.difference_count == 0
    }

    /// The human report.
    pub fn to_table(&self) -> String {
        let mut out = format!(
            "road check: {} nodes, {} arcs, costs compared {}\n{:<24} {:>8} {:>8} {:>8}\n",
            self.nodes,
            self.arcs,
            if self.integer_weights {
                "exactly (integer weights)"
            } else {
                "within 1e-9 relative"
            },
            "algorithm",
            "queries",
            "agree",
            "differ"
        );
        for c in &self.counts {
            let _ = writeln!(
                out,
                "{:<24} {:>8} {:>8} {:>8}",
                c.algorithm, c.queries, c.agree, c.differ
            );
        }
        let _ = writeln!(
            out,
            "time: oracle {:.3} s, onepath-reference {:.3} s, onepath {:.3} s",
            self.seconds[0], self.seconds[1], self.seconds[2]
        );
        if !self.differences.is_empty() {
            let _ = writeln!(
                out,
                "first differences ({} of {}):",
                self.differences.len().min(10),
                self.difference_count
            );
            for d in self.differences.iter().take(10) {
                let _ = writeln!(out, "  {d}");
            }
        }
        out += &if self.ok() {
            "ok: both crates agree with the oracle and with each other\n".to_string()
        } else {
            format!("FAILED: {} differences\n", self.difference_count)
        };
        out
    }
}

/// The arcs between consecutive path nodes (`check_path` scans the edge list it is given).
fn arcs_of(adj: &Adjacency, path: &[u32]) -> Vec<(u32, u32, f64)> {
    let mut out = Vec::new();
    for w in path.windows(2) {
        if (w[0] as usize) + 1 < adj.start.len() {
            out.extend(
                adj.out(w[0])
                    .iter()
                    .filter(|a| a.0 == w[1])
                    .map(|&(b, wt)| (w[0], b, wt)),
            );
        }
    }
    out
}

fn judge_with(
    adj: &Adjacency,
    integer_weights: bool,
    (s, g): (u32, u32),
    truth: f64,
    r: &Answer,
    o: &Answer,
) -> Vec<String> {
    let mut problems: Vec<String> = Vec::new();
    for (name, answer) in [("onepath-reference", &r), ("onepath", &o)] {
        match answer {
            Err(e) => problems.push(format!("{name}: error {e}")),
            Ok((status, cost, path)) => {
                if !costs_agree(truth, *cost, integer_weights) {
                    problems.push(format!(
                        "{name}: cost {cost:?}, oracle {:?} ({status})",
                        truth
                    ));
                } else if cost.is_finite() {
                    if let Err(p) =
                        check_path(&arcs_of(adj, path), s, g, path, *cost, integer_weights)
                    {
                        problems.push(format!("{name}: invalid path: {p}"));
                    }
                }
            }
        }
    }
    let same = match (&r, &o) {
        (Ok(r), Ok(o)) => r.0 == o.0 && r.1.to_bits() == o.1.to_bits() && r.2 == o.2,
        (Err(a), Err(b)) => a == b,
        _ => false,
    };
    if !same {
        let show = |a: &Answer| match a {
            Ok((st, c, p)) => {
                format!("{st} cost {c:?} ({:016x}), {} nodes", c.to_bits(), p.len())
            }
            Err(e) => format!("error {e}"),
        };
        problems.push(format!(
            "crates differ: onepath {} vs onepath-reference {}",
            show(o),
            show(r)
        ));
    }
    problems
}

/// The differences of one query `(s, g)` (0-based ids) on `road` whose oracle cost is `truth`:
/// each crate's cost against the oracle ([`costs_agree`]), each found path by [`check_path`],
/// and the candidate `o` against the reference `r` (status, cost bits, nodes). Empty when all
/// agree.
pub fn judge(
    road: &RoadGraph,
    (s, g): (u32, u32),
    truth: f64,
    r: &Answer,
    o: &Answer,
) -> Vec<String> {
    let integer_weights = integer_weights(road);
    judge_with(&Adjacency::new(road), integer_weights, (s, g), truth, r, o)
}

/// True when every weight is an integer and their sum is below `2^53`: every path sum is then
/// exact, and costs are compared exactly.
pub fn integer_weights(road: &RoadGraph) -> bool {
    let total: f64 = road.arcs.iter().map(|a| a.2).sum();
    road.arcs.iter().all(|a| a.2.fract() == 0.0) && total < 9_007_199_254_740_992.0
}

/// The oracle's cost of each `(start, goal)` pair (0-based ids; `+infinity` when unreachable).
pub fn oracle_costs(road: &RoadGraph, pairs: &[(u32, u32)]) -> Vec<f64> {
    let adj = Adjacency::new(road);
    let mut dist = vec![f64::INFINITY; road.node_count];
    let mut touched = Vec::new();
    pairs
        .iter()
        .map(|&(s, g)| oracle_cost(&adj, s, g, &mut dist, &mut touched))
        .collect()
}

/// Runs the check on `road` with `queries` random `(start, goal)` pairs drawn from `seed`
/// (SplitMix64, start then goal, each uniform over the nodes). A graph without nodes or more than
/// [`MAX_QUERIES`] queries is a [`RoadErrorKind::Argument`] error; a graph a crate rejects a
/// [`RoadErrorKind::Library`] error.
pub fn check(road: &RoadGraph, queries: usize, seed: u64) -> Result<RoadCheckReport, RoadError> {
    crate::road::check_query_args(road, queries)?;
    let integer_weights = integer_weights(road);
    let mut rng = SplitMix64::new(seed);
    let n = road.node_count as u64;
    let pairs: Vec<(u32, u32)> = (0..queries)
        .map(|_| (rng.below(n) as u32, rng.below(n) as u32))
        .collect();
    let adj = Adjacency::new(road);
    let t = Instant::now();
    let truth = oracle_costs(road, &pairs);
    let oracle_seconds = t.elapsed().as_secs_f64();
    let h = estimate(road);
    let algorithms: Vec<usize> = if h.is_some() {
        vec![0, 1, 2, 3]
    } else {
        vec![0, 1]
    };
    let reference = ReferenceGraph::new(road, &h)?;
    let optimized = OptimizedGraph::new(road, &h)?;
    let mut report = RoadCheckReport {
        nodes: road.node_count,
        arcs: road.arcs.len(),
        integer_weights,
        counts: Vec::new(),
        difference_count: 0,
        differences: Vec::new(),
        seconds: [oracle_seconds, 0.0, 0.0],
    };
    for &k in &algorithms {
        let mut counts = AlgorithmCounts {
            algorithm: ALGORITHMS[k].to_string(),
            queries: pairs.len() as u64,
            agree: 0,
            differ: 0,
        };
        for (qi, &(s, g)) in pairs.iter().enumerate() {
            let t = Instant::now();
            let r = reference.answer(s, g, k);
            report.seconds[1] += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let o = optimized.answer(s, g, k);
            report.seconds[2] += t.elapsed().as_secs_f64();
            let problems = judge_with(&adj, integer_weights, (s, g), truth[qi], &r, &o);
            if problems.is_empty() {
                counts.agree += 1;
            } else {
                counts.differ += 1;
            }
            for p in problems {
                report.difference_count += 1;
                if report.differences.len() < MAX_LISTED {
                    report.differences.push(format!(
                        "{} query {qi} ({} -> {}, 1-based ids): {p}",
                        ALGORITHMS[k],
                        s + 1,
                        g + 1
                    ));
                }
            }
        }
        report.counts.push(counts);
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn oracle_on_a_small_graph() {
        let road = RoadGraph {
            node_count: 5,
            arcs: vec![(0, 1, 4.0), (0, 2, 1.0), (2, 1, 2.0), (1, 3, 0.0)],
            positions: None,
        };
        let adj = Adjacency::new(&road);
        let mut dist = vec![f64::INFINITY; 5];
        let mut touched = Vec::new();
        let got: Vec<f64> = (0..5)
            .map(|g| oracle_cost(&adj, 0, g, &mut dist, &mut touched))
            .collect();
        assert_eq!(got, vec![0.0, 3.0, 1.0, 3.0, f64::INFINITY]);
        assert_eq!(
            oracle_cost(&adj, 3, 0, &mut dist, &mut touched),
            f64::INFINITY
        );
    }
}
