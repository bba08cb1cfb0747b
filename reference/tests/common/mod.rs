//! Helpers shared by the integration tests: a tiny deterministic generator and Floyd–Warshall.
#![allow(dead_code)]

use onepath_reference::GraphEdge;

/// A 64-bit LCG (Knuth's MMIX constants), independent of the crate's SeededRandom.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random directed graph with small integer weights (so every sum is exact).
pub fn random_edges(rng: &mut Lcg, n: u32, m: usize, max_w: u64) -> Vec<GraphEdge> {
    (0..m)
        .map(|_| {
            GraphEdge::new(
                rng.below(n as u64) as u32,
                rng.below(n as u64) as u32,
                rng.below(max_w + 1) as f64,
            )
        })
        .collect()
}

/// All-pairs shortest distances (`+inf` when unreachable).
pub fn floyd_warshall(n: usize, edges: &[GraphEdge]) -> Vec<Vec<f64>> {
    let mut d = vec![vec![f64::INFINITY; n]; n];
    for (i, row) in d.iter_mut().enumerate() {
        row[i] = 0.0;
    }
    for e in edges {
        let (a, b) = (e.from as usize, e.to as usize);
        if e.weight < d[a][b] {
            d[a][b] = e.weight;
        }
    }
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let via = d[i][k] + d[k][j];
                if via < d[i][j] {
                    d[i][j] = via;
                }
            }
        }
    }
    d
}

/// The cost of `path` along the cheapest parallel edge of each step, or None if a step is missing.
pub fn path_cost(edges: &[GraphEdge], path: &[u32]) -> Option<f64> {
    let mut total = 0.0;
    for w in path.windows(2) {
        let best = edges
            .iter()
            .filter(|e| e.from == w[0] && e.to == w[1])
            .map(|e| e.weight)
            .fold(f64::INFINITY, f64::min);
        if best == f64::INFINITY {
            return None;
        }
        total += best;
    }
    Some(total)
}
