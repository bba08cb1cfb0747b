//! The `road` subcommand ([CONF.CLI.ROAD]): expansion counts and wall times of Dijkstra, A*,
//! bidirectional Dijkstra and bidirectional A* (optimized crate) on a DIMACS road graph or a
//! generated planar road-like graph.

use crate::error::{ErrorKind, HarnessError};
use crate::generators::{distance, road_network};
use crate::prng::SplitMix64;
use onepath::{Algorithm, Graph, GraphEdge, GraphOptions, PathStatus};
use std::sync::Arc;
use std::time::Instant;

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

/// Parses a DIMACS `.gr` file: `c` comments, one `p sp n m` line, `a u v w` arcs (1-based).
pub fn parse_gr(text: &str) -> Result<RoadGraph, HarnessError> {
    let mut node_count = None;
    let mut arcs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = |what: &str| {
            HarnessError::new(ErrorKind::Parse, format!("{what}: {line:?}")).at_line(i as u64 + 1)
        };
        match f.first().copied() {
            None | Some("c") => {}
            Some("p") => {
                if f.len() != 4 || f[1] != "sp" {
                    return Err(bad("expected `p sp n m`"));
                }
                node_count = Some(f[2].parse::<usize>().map_err(|_| bad("bad node count"))?);
            }
            Some("a") => {
                let n = node_count.ok_or_else(|| bad("arc before the `p` line"))?;
                if f.len() != 4 {
                    return Err(bad("expected `a u v w`"));
                }
                let u: usize = f[1].parse().map_err(|_| bad("bad tail"))?;
                let v: usize = f[2].parse().map_err(|_| bad("bad head"))?;
                let w: f64 = f[3].parse().map_err(|_| bad("bad weight"))?;
                if u == 0 || v == 0 || u > n || v > n {
                    return Err(bad("node id outside 1..n"));
                }
                arcs.push(((u - 1) as u32, (v - 1) as u32, w));
            }
            Some(_) => return Err(bad("unknown line type")),
        }
    }
    let node_count =
        node_count.ok_or_else(|| HarnessError::new(ErrorKind::Parse, "no `p sp n m` line"))?;
    Ok(RoadGraph {
        node_count,
        arcs,
        positions: None,
    })
}

/// Parses a DIMACS `.co` file (`v id x y`, 1-based) into positions for `n` nodes.
pub fn parse_co(text: &str, n: usize) -> Result<Vec<[f64; 3]>, HarnessError> {
    let mut positions = vec![[0.0; 3]; n];
    for (i, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.first() != Some(&"v") {
            continue;
        }
        let bad = |what: &str| {
            HarnessError::new(ErrorKind::Parse, format!("{what}: {line:?}")).at_line(i as u64 + 1)
        };
        if f.len() != 4 {
            return Err(bad("expected `v id x y`"));
        }
        let id: usize = f[1].parse().map_err(|_| bad("bad id"))?;
        if id == 0 || id > n {
            return Err(bad("id outside 1..n"));
        }
        let x: f64 = f[2].parse().map_err(|_| bad("bad x"))?;
        let y: f64 = f[3].parse().map_err(|_| bad("bad y"))?;
        positions[id - 1] = [x, y, 0.0];
    }
    Ok(positions)
}

/// A generated planar road-like graph of about `n` nodes (both directions of every street).
pub fn generated(n: usize, seed: u64) -> RoadGraph {
    let (positions, edges) = road_network(n, seed);
    let arcs = edges
        .iter()
        .flat_map(|&(a, b, w)| [(a, b, w), (b, a, w)])
        .collect();
    RoadGraph {
        node_count: positions.len(),
        arcs,
        positions: Some(positions),
    }
}

/// Runs the benchmark and returns the table.
pub fn benchmark(road: &RoadGraph, queries: usize, seed: u64) -> Result<String, String> {
    let edges: Vec<GraphEdge> = road
        .arcs
        .iter()
        .map(|&(a, b, w)| GraphEdge::new(a, b, w))
        .collect();
    let graph =
        Graph::from_edges(&edges, Some(road.node_count), true).map_err(|e| e.to_string())?;
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
        let f: onepath::HeuristicFn =
            Arc::new(move |u, v| scale * onepath::distance(pts[u as usize], pts[v as usize]));
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
            let r = graph.find_path(s, g, &options).map_err(|e| e.to_string())?;
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
        let co = "c\np aux sp co 3\nv 1 10 20\nv 3 -5 4\n";
        let p = parse_co(co, 3).unwrap();
        assert_eq!(p[2], [-5.0, 4.0, 0.0]);
        assert!(parse_gr("a 1 2 3\n").is_err());
    }
}
