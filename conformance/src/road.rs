//! The `road` subcommand ([CONF.CLI.ROAD]): expansion counts and wall times of Dijkstra, A*,
//! bidirectional Dijkstra and bidirectional A* (optimized crate) on a DIMACS road graph or a
//! generated planar road-like graph.
//!
//! Reading DIMACS files never panics and never allocates more than the file's length justifies:
//! every fault is a [`RoadError`] with a [`RoadErrorKind`], the file and the 1-based line.
//!
//! What the readers accept:
//!
//! - `.gr`: blank lines and `c` comments anywhere; exactly one `p sp n m` line before any arc,
//!   with `n` in `1..=2^26` (the library's node limit) and at most `max(2^20, 2m)` (every node of
//!   a road graph ends an arc), `m` a decimal count; `a u v w` arcs with
//!   `u`, `v` in `1..=n` and `w` finite and `>= 0`; exactly `m` arcs in all. Any other line is an
//!   error.
//! - `.co`: blank lines and `c` comments anywhere; an optional `p aux sp co n` line whose `n` must
//!   be the graph's node count; `v id x y` lines with `id` in `1..=n`, each id exactly once, every
//!   id present, and `x`, `y` finite. Any other line is an error.

use crate::generators::{distance, road_network};
use crate::prng::SplitMix64;
use onepath::{Algorithm, Graph, GraphEdge, GraphOptions, PathStatus, MAX_NODES};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The most nodes `--generate` accepts (`2^22`): a generated graph of that size takes about a
/// gigabyte; real data of any size up to the library's limit comes in through `--gr`.
pub const MAX_GENERATED_NODES: usize = 1 << 22;

/// The most queries one run accepts (`2^24`): the run keeps every query's cost for the
/// comparison with Dijkstra.
pub const MAX_QUERIES: usize = 1 << 24;

/// The class of a [`RoadError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RoadErrorKind {
    /// The file cannot be read.
    Io,
    /// The file is not UTF-8 text.
    Encoding,
    /// A line of an unknown type, or a line with the wrong number of fields.
    Syntax,
    /// A `p` line is missing, repeated, malformed, out of order or has a bad count.
    Header,
    /// A node id outside `1..=n`, repeated where it must be unique, or missing.
    NodeId,
    /// An arc weight that is not a finite number `>= 0`.
    Weight,
    /// A coordinate that is not a finite number.
    Coordinate,
    /// The file declares a count that its contents do not match.
    Count,
    /// A command-line argument out of its documented range.
    Argument,
    /// The library rejected the graph or a query.
    Library,
}

/// A failure to read or run a road graph: its class, what went wrong, and where (file and
/// 1-based line, when known). Displayed as `[<file>: ][line L: ]<what>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoadError {
    kind: RoadErrorKind,
    what: String,
    path: Option<PathBuf>,
    line: Option<u64>,
}

impl RoadError {
    /// An error of `kind` saying `what`, without a location.
    pub fn new(kind: RoadErrorKind, what: impl Into<String>) -> RoadError {
        RoadError {
            kind,
            what: what.into(),
            path: None,
            line: None,
        }
    }
    /// The same error, on 1-based line `line`.
    pub fn at_line(mut self, line: u64) -> RoadError {
        self.line = Some(line);
        self
    }
    /// The same error, in file `path`.
    pub fn at_path(mut self, path: impl AsRef<Path>) -> RoadError {
        self.path = Some(path.as_ref().to_path_buf());
        self
    }
    /// The class.
    pub fn kind(&self) -> RoadErrorKind {
        self.kind
    }
    /// The message, without the location.
    pub fn what(&self) -> &str {
        &self.what
    }
    /// The file, when known.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
    /// The 1-based line, when known.
    pub fn line(&self) -> Option<u64> {
        self.line
    }
}

impl fmt::Display for RoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}: ", p.display())?;
        }
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        f.write_str(&self.what)
    }
}

impl std::error::Error for RoadError {}

/// A directed road graph with optional coordinates.
#[derive(Clone, Debug)]
pub struct RoadGraph {
    /// Node count.
    pub node_count: usize,
    /// Directed arcs `(from, to, weight)`, 0-based.
    pub arcs: Vec<(u32, u32, f64)>,
    /// Coordinates, when known.
    pub positions: Option<Vec<[f64; 3]>>,
}

/// The text of `bytes`, or an [`RoadErrorKind::Encoding`] error on the line of the first byte
/// that is not UTF-8.
fn text_of(bytes: Vec<u8>) -> Result<String, RoadError> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        RoadError::new(
            RoadErrorKind::Encoding,
            format!("byte {at} is not UTF-8 text"),
        )
        .at_line(line)
    })
}

/// Reads the file at `path` as text; every error names the file.
fn read_text(path: &Path) -> Result<String, RoadError> {
    let bytes = crate::input::read_bytes(path, crate::input::MAX_ROAD)
        .map_err(|e| RoadError::new(RoadErrorKind::Io, e.what()).at_path(path))?;
    text_of(bytes).map_err(|e| e.at_path(path))
}

/// Reads and parses the DIMACS `.gr` file at `path` ([`parse_gr`]); errors name the file.
pub fn read_gr(path: &Path) -> Result<RoadGraph, RoadError> {
    parse_gr(&read_text(path)?).map_err(|e| e.at_path(path))
}

/// Reads and parses the DIMACS `.co` file at `path` for `n` nodes ([`parse_co`]); errors name
/// the file.
pub fn read_co(path: &Path, n: usize) -> Result<Vec<[f64; 3]>, RoadError> {
    parse_co(&read_text(path)?, n).map_err(|e| e.at_path(path))
}

/// The node count a `.gr` may declare whatever its arc count ([CONF.CLI.ROAD]): beyond it, at
/// most twice the arc count.
pub const MAX_ISOLATED_FLOOR: u64 = 1 << 20;

/// A decimal count (digits only, no sign).
fn count(field: &str) -> Option<u64> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    field.parse().ok()
}

/// Parses a DIMACS `.gr` text (the rules are in the module docs). Errors carry the 1-based line.
pub fn parse_gr(text: &str) -> Result<RoadGraph, RoadError> {
    // (node count, declared arc count, line of the `p` line)
    let mut header: Option<(usize, u64, u64)> = None;
    let mut arcs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = i as u64 + 1;
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = |kind: RoadErrorKind, what: &str| {
            RoadError::new(kind, format!("{what}: {:?}", line.trim())).at_line(at)
        };
        match f.first().copied() {
            None | Some("c") => {}
            Some("p") => {
                if let Some((_, _, first)) = header {
                    return Err(bad(
                        RoadErrorKind::Header,
                        &format!("a second `p` line (the first is line {first})"),
                    ));
                }
                if f.len() != 4 || f[1] != "sp" {
                    return Err(bad(RoadErrorKind::Header, "expected `p sp n m`"));
                }
                let n = count(f[2])
                    .ok_or_else(|| bad(RoadErrorKind::Header, "the node count is not a count"))?;
                let m = count(f[3])
                    .ok_or_else(|| bad(RoadErrorKind::Header, "the arc count is not a count"))?;
                if n == 0 || n > MAX_NODES as u64 {
                    return Err(bad(
                        RoadErrorKind::Header,
                        &format!("the node count must be 1 to {MAX_NODES} (2^26)"),
                    ));
                }
                // [CONF.CLI.ROAD] Every node of a road graph ends an arc: a node count beyond
                // max(2^20, 2m) names nodes no arc can reach, and a 26-byte file could make the
                // tool allocate gigabytes for them.
                let most = MAX_ISOLATED_FLOOR.max(m.saturating_mul(2));
                if n > most {
                    return Err(bad(
                        RoadErrorKind::Header,
                        &format!(
                            "the node count {n} is over max(2^20, 2 x the arc count {m}) = {most}"
                        ),
                    ));
                }
                header = Some((n as usize, m, at));
            }
            Some("a") => {
                let (n, m, _) = header
                    .ok_or_else(|| bad(RoadErrorKind::Header, "an arc before the `p` line"))?;
                if f.len() != 4 {
                    return Err(bad(RoadErrorKind::Syntax, "expected `a u v w`"));
                }
                if arcs.len() as u64 == m {
                    return Err(bad(
                        RoadErrorKind::Count,
                        &format!("more arcs than the {m} the `p` line declares"),
                    ));
                }
                let id = |field: &str, end: &str| match count(field) {
                    Some(v) if v >= 1 && v <= n as u64 => Ok((v - 1) as u32),
                    _ => Err(bad(
                        RoadErrorKind::NodeId,
                        &format!("the {end} `{field}` is not a node id in 1..={n}"),
                    )),
                };
                let u = id(f[1], "tail")?;
                let v = id(f[2], "head")?;
                let w = match f[3].parse::<f64>() {
                    Ok(w) if w.is_finite() && w >= 0.0 => w,
                    _ => {
                        return Err(bad(
                            RoadErrorKind::Weight,
                            &format!("the weight `{}` is not a finite number >= 0", f[3]),
                        ))
                    }
                };
                arcs.push((u, v, w));
            }
            Some(_) => return Err(bad(RoadErrorKind::Syntax, "not a `c`, `p` or `a` line")),
        }
    }
    let Some((node_count, m, p_line)) = header else {
        return Err(RoadError::new(
            RoadErrorKind::Header,
            "no `p sp n m` line (is this a DIMACS .gr file?)",
        ));
    };
    if arcs.len() as u64 != m {
        return Err(RoadError::new(
            RoadErrorKind::Count,
            format!(
                "the `p` line declares {m} arcs, the file has {}",
                arcs.len()
            ),
        )
        .at_line(p_line));
    }
    Ok(RoadGraph {
        node_count,
        arcs,
        positions: None,
    })
}

/// Parses a DIMACS `.co` text (the rules are in the module docs) into positions for `n` nodes.
/// Errors carry the 1-based line.
pub fn parse_co(text: &str, n: usize) -> Result<Vec<[f64; 3]>, RoadError> {
    if n > MAX_NODES {
        return Err(RoadError::new(
            RoadErrorKind::Argument,
            format!("{n} nodes: at most {MAX_NODES} (2^26)"),
        ));
    }
    let mut positions = vec![[0.0; 3]; n];
    // The line of each id's `v` line (0: not seen yet).
    let mut seen = vec![0u64; n];
    let mut header_line: Option<u64> = None;
    let mut found = 0usize;
    for (i, line) in text.lines().enumerate() {
        let at = i as u64 + 1;
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = |kind: RoadErrorKind, what: &str| {
            RoadError::new(kind, format!("{what}: {:?}", line.trim())).at_line(at)
        };
        match f.first().copied() {
            None | Some("c") => {}
            Some("p") => {
                if let Some(first) = header_line {
                    return Err(bad(
                        RoadErrorKind::Header,
                        &format!("a second `p` line (the first is line {first})"),
                    ));
                }
                if found > 0 {
                    return Err(bad(RoadErrorKind::Header, "a `p` line after a `v` line"));
                }
                if f.len() != 5 || f[1..4] != ["aux", "sp", "co"] {
                    return Err(bad(RoadErrorKind::Header, "expected `p aux sp co n`"));
                }
                match count(f[4]) {
                    Some(c) if c == n as u64 => {}
                    _ => {
                        return Err(bad(
                            RoadErrorKind::Count,
                            &format!("the graph has {n} nodes"),
                        ))
                    }
                }
                header_line = Some(at);
            }
            Some("v") => {
                if f.len() != 4 {
                    return Err(bad(RoadErrorKind::Syntax, "expected `v id x y`"));
                }
                let id = match count(f[1]) {
                    Some(v) if v >= 1 && v <= n as u64 => v as usize,
                    _ => {
                        return Err(bad(
                            RoadErrorKind::NodeId,
                            &format!("the id `{}` is not a node id in 1..={n}", f[1]),
                        ))
                    }
                };
                if seen[id - 1] != 0 {
                    return Err(bad(
                        RoadErrorKind::NodeId,
                        &format!("node {id} already has coordinates (line {})", seen[id - 1]),
                    ));
                }
                let coord = |field: &str, axis: &str| match field.parse::<f64>() {
                    Ok(c) if c.is_finite() => Ok(c),
                    _ => Err(bad(
                        RoadErrorKind::Coordinate,
                        &format!("{axis} `{field}` is not a finite number"),
                    )),
                };
                let x = coord(f[2], "x")?;
                let y = coord(f[3], "y")?;
                positions[id - 1] = [x, y, 0.0];
                seen[id - 1] = at;
                found += 1;
            }
            Some(_) => return Err(bad(RoadErrorKind::Syntax, "not a `c`, `p` or `v` line")),
        }
    }
    if found < n {
        let missing = seen.iter().position(|&l| l == 0).map_or(0, |i| i + 1);
        return Err(RoadError::new(
            RoadErrorKind::Count,
            format!("{found} of {n} nodes have coordinates; node {missing} is the first without"),
        ));
    }
    Ok(positions)
}

/// A generated planar road-like graph of about `n` nodes (both directions of every street);
/// `n` must be in `1..=`[`MAX_GENERATED_NODES`].
pub fn generated(n: usize, seed: u64) -> Result<RoadGraph, RoadError> {
    if n == 0 || n > MAX_GENERATED_NODES {
        return Err(RoadError::new(
            RoadErrorKind::Argument,
            format!("--generate {n}: must be 1 to {MAX_GENERATED_NODES} (2^22)"),
        ));
    }
    let (positions, edges) = road_network(n, seed);
    let arcs = edges
        .iter()
        .flat_map(|&(a, b, w)| [(a, b, w), (b, a, w)])
        .collect();
    Ok(RoadGraph {
        node_count: positions.len(),
        arcs,
        positions: Some(positions),
    })
}

/// What every command that queries `road` needs first: at least one node, at most
/// [`MAX_QUERIES`] queries, and coordinates (when given) for exactly the graph's nodes; each
/// failure a [`RoadErrorKind::Argument`] error.
pub fn check_query_args(road: &RoadGraph, queries: usize) -> Result<(), RoadError> {
    if road.node_count == 0 {
        return Err(RoadError::new(
            RoadErrorKind::Argument,
            "the graph has no nodes: there is nothing to query",
        ));
    }
    if queries > MAX_QUERIES {
        return Err(RoadError::new(
            RoadErrorKind::Argument,
            format!("--queries {queries}: at most {MAX_QUERIES} (2^24)"),
        ));
    }
    if road
        .positions
        .as_ref()
        .is_some_and(|p| p.len() != road.node_count)
    {
        return Err(RoadError::new(
            RoadErrorKind::Argument,
            "the coordinates do not cover exactly the graph's nodes",
        ));
    }
    Ok(())
}

/// Runs the benchmark and returns the table. A graph without nodes, or more than
/// [`MAX_QUERIES`] queries, is a [`RoadErrorKind::Argument`] error; a graph the library rejects a
/// [`RoadErrorKind::Library`] error.
pub fn benchmark(road: &RoadGraph, queries: usize, seed: u64) -> Result<String, RoadError> {
    check_query_args(road, queries)?;
    let library = |e: &dyn fmt::Display| RoadError::new(RoadErrorKind::Library, e.to_string());
    let edges: Vec<GraphEdge> = road
        .arcs
        .iter()
        .map(|&(a, b, w)| GraphEdge::new(a, b, w))
        .collect();
    let graph = Graph::from_edges(&edges, Some(road.node_count), true).map_err(|e| library(&e))?;
    graph.compile();
    let mut rng = SplitMix64::new(seed);
    let pairs: Vec<(u32, u32)> = (0..queries)
        .map(|_| {
            (
                rng.below(road.node_count as u64) as u32,
                rng.below(road.node_count as u64) as u32,
            )
        })
        .collect();
    // Scale the straight-line distance so it never exceeds an arc's weight (admissible estimate).
    let heuristic = road.positions.as_ref().map(|pos| {
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
        let pts: Vec<onepath::Point3> = pos
            .iter()
            .map(|p| onepath::Point3::new(p[0], p[1], p[2]))
            .collect();
        let f: onepath::HeuristicFn = Arc::new(move |u, v| {
            // Coordinates far apart can make the distance infinite and `0 * inf` NaN: then
            // the estimate says nothing (0).
            let h = scale * onepath::distance(pts[u as usize], pts[v as usize]);
            if h.is_nan() {
                0.0
            } else {
                h
            }
        });
        f
    });
    let mut runs = vec![
        ("dijkstra", Algorithm::Dijkstra, false),
        (
            "bidirectional dijkstra",
            Algorithm::BidirectionalDijkstra,
            false,
        ),
    ];
    if heuristic.is_some() {
        runs.insert(1, ("astar (euclidean)", Algorithm::AStar, true));
        runs.push(("bidirectional astar", Algorithm::BidirectionalAStar, true));
    }
    let mut out =
        format!(
        "road graph: {} nodes, {} arcs, {} queries{}\n{:<24} {:>8} {:>14} {:>14} {:>12} {:>10}\n",
        road.node_count,
        road.arcs.len(),
        queries,
        if heuristic.is_some() { "" } else { " (no coordinates: A* variants skipped)" },
        "algorithm",
        "found",
        "expanded",
        "per query",
        "total ms",
        "ms/query"
    );
    let mut baseline: Vec<f64> = Vec::new();
    for (name, algorithm, uses_h) in runs {
        let options = GraphOptions {
            algorithm,
            heuristic: if uses_h { heuristic.clone() } else { None },
            ..Default::default()
        };
        let (mut found, mut expanded, mut costs) = (0usize, 0u64, Vec::new());
        let t = Instant::now();
        for &(s, g) in &pairs {
            let r = graph.find_path(s, g, &options).map_err(|e| library(&e))?;
            found += (r.status == PathStatus::Found) as usize;
            expanded += r.expanded_count;
            costs.push(r.cost);
        }
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        let mismatches = if baseline.is_empty() {
            baseline = costs.clone();
            0
        } else {
            baseline
                .iter()
                .zip(&costs)
                .filter(|(a, b)| !crate::oracle::costs_agree(**a, **b, false))
                .count()
        };
        out.push_str(&format!(
            "{:<24} {:>8} {:>14} {:>14.1} {:>12.1} {:>10.3}{}\n",
            name,
            found,
            expanded,
            expanded as f64 / queries.max(1) as f64,
            ms,
            ms / queries.max(1) as f64,
            if mismatches > 0 {
                format!("  ({mismatches} costs differ from dijkstra)")
            } else {
                String::new()
            }
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_dimacs() {
        let gr = "c test\np sp 3 2\na 1 2 5\na 2 3 7\n";
        let g = parse_gr(gr).unwrap();
        assert_eq!(g.node_count, 3);
        assert_eq!(g.arcs, vec![(0, 1, 5.0), (1, 2, 7.0)]);
        let co = "c\np aux sp co 3\nv 1 10 20\nv 3 -5 4\nv 2 0 0\n";
        let p = parse_co(co, 3).unwrap();
        assert_eq!(p[2], [-5.0, 4.0, 0.0]);
        let e = parse_gr("a 1 2 3\n").unwrap_err();
        assert_eq!((e.kind(), e.line()), (RoadErrorKind::Header, Some(1)));
    }
}
