//! The oracle ([CONF.ORACLE.*]): a textbook O(V^2) Dijkstra (array scan, no heap) over a plain
//! directed edge list, written here and sharing no code with either crate, plus the path
//! validation used by the `oracle` check.

/// [CONF.ORACLE.DIJKSTRA]
/// Shortest distances from `source` over `edges` (`+infinity` when unreachable).
pub fn distances(node_count: usize, edges: &[(u32, u32, f64)], source: u32) -> Vec<f64> {
    let mut adjacency: Vec<Vec<(usize, f64)>> = vec![Vec::new(); node_count];
    for &(a, b, w) in edges {
        adjacency[a as usize].push((b as usize, w));
    }
    let mut dist = vec![f64::INFINITY; node_count];
    let mut done = vec![false; node_count];
    dist[source as usize] = 0.0;
    loop {
        let mut best: Option<usize> = None;
        for v in 0..node_count {
            if !done[v] && dist[v].is_finite() && best.map_or(true, |b| dist[v] < dist[b]) {
                best = Some(v);
            }
        }
        let Some(u) = best else { break };
        done[u] = true;
        for &(v, w) in &adjacency[u] {
            let candidate = dist[u] + w;
            if candidate < dist[v] {
                dist[v] = candidate;
            }
        }
    }
    dist
}

/// Cost comparison of [CONF.ORACLE.TOLERANCE]: exact for integer weights, else 1e-9 relative.
pub fn costs_agree(expected: f64, found: f64, integer_weights: bool) -> bool {
    if expected.is_infinite() || found.is_infinite() || integer_weights {
        return expected == found;
    }
    let scale = expected.abs().max(found.abs()).max(1e-300);
    (expected - found).abs() <= 1e-9 * scale
}

/// Checks that `path` walks from `start` to `goal` along edges and that the sum of the
/// cheapest edge weight between consecutive nodes agrees with `cost`. Returns the problem.
pub fn check_path(
    edges: &[(u32, u32, f64)],
    start: u32,
    goal: u32,
    path: &[u32],
    cost: f64,
    integer_weights: bool,
) -> Result<(), PathProblem> {
    path_problem(edges, start, goal, path, cost, integer_weights).map_err(PathProblem)
}

/// Why a reported path fails [`check_path`], in words (which node or edge, which cost).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathProblem(pub String);

impl std::fmt::Display for PathProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PathProblem {}

fn path_problem(
    edges: &[(u32, u32, f64)],
    start: u32,
    goal: u32,
    path: &[u32],
    cost: f64,
    integer_weights: bool,
) -> Result<(), String> {
    if path.first() != Some(&start) {
        return Err(format!(
            "path starts at {:?}, expected node {start}",
            path.first()
        ));
    }
    if path.last() != Some(&goal) {
        return Err(format!(
            "path ends at {:?}, expected node {goal}",
            path.last()
        ));
    }
    let mut sum = 0.0;
    for (i, pair) in path.windows(2).enumerate() {
        let cheapest = edges
            .iter()
            .filter(|e| e.0 == pair[0] && e.1 == pair[1])
            .map(|e| e.2)
            .fold(f64::INFINITY, f64::min);
        if cheapest.is_infinite() {
            return Err(format!(
                "path position {i}: no edge {} -> {}",
                pair[0], pair[1]
            ));
        }
        sum += cheapest;
    }
    if !costs_agree(cost, sum, integer_weights) {
        return Err(format!(
            "path weight sum {sum:?} disagrees with reported cost {cost:?}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_graph_distances() {
        let edges = [(0, 1, 4.0), (0, 2, 1.0), (2, 1, 2.0), (1, 3, 0.0)];
        let d = distances(5, &edges, 0);
        assert_eq!(d, vec![0.0, 3.0, 1.0, 3.0, f64::INFINITY]);
    }

    #[test]
    fn path_validation() {
        let edges = [(0, 1, 4.0), (0, 1, 2.0), (1, 2, 1.0)];
        assert!(check_path(&edges, 0, 2, &[0, 1, 2], 3.0, true).is_ok());
        assert!(check_path(&edges, 0, 2, &[0, 2], 3.0, true).is_err());
        assert!(check_path(&edges, 0, 2, &[0, 1, 2], 5.0, true).is_err());
    }

    #[test]
    fn tolerance() {
        assert!(costs_agree(1.0, 1.0 + 1e-12, false));
        assert!(!costs_agree(1.0, 1.0 + 1e-12, true));
    }
}
