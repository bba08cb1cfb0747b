#![allow(dead_code)]
use onepath::*;

/// Test-local xorshift generator (independent from the crate's SeededRandom).
pub struct Xs(pub u64);
impl Xs {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Random directed graph with small integer weights (dyadic sums are exact).
pub fn random_edges(rng: &mut Xs, n: u32, m: usize, int_weights: bool) -> Vec<GraphEdge> {
    (0..m)
        .map(|_| {
            let w = if int_weights {
                rng.below(10) as f64
            } else {
                rng.unit() * 10.0
            };
            GraphEdge::new(rng.below(n as u64) as u32, rng.below(n as u64) as u32, w)
        })
        .collect()
}

/// Plain textbook Dijkstra distance (O(N^2)), for cross-checks.
pub fn brute_dist(n: usize, edges: &[GraphEdge], s: u32) -> Vec<f64> {
    let mut d = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    d[s as usize] = 0.0;
    for _ in 0..n {
        let mut u = usize::MAX;
        for v in 0..n {
            if !done[v] && d[v] < f64::INFINITY && (u == usize::MAX || d[v] < d[u]) {
                u = v;
            }
        }
        if u == usize::MAX {
            break;
        }
        done[u] = true;
        for e in edges.iter().filter(|e| e.from as usize == u) {
            let nd = d[u] + e.weight;
            if nd < d[e.to as usize] {
                d[e.to as usize] = nd;
            }
        }
    }
    d
}
