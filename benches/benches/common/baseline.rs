//! The plain hand-written baseline: the graph search a user writes in an afternoon with only
//! `std`, part of no crate (it lives beside the benches and is measured against onepath).
//!
//! - The graph is three CSR arrays: `offsets: Vec<u32>` (N + 1), `targets: Vec<u32>` and
//!   `weights: Vec<f64>` (one per directed edge).
//! - Dijkstra and A* share one loop: a `std::collections::BinaryHeap` of `(key, node)` entries
//!   ordered in reverse by the f64 key (`f64::total_cmp`; a min-heap), lazy deletion (an entry is
//!   pushed on every improvement and skipped on pop when stale), a `dist: Vec<f64>` reset to
//!   `+infinity` at the start of every query (O(N) per query, as such code usually does) and a
//!   `parent: Vec<u32>` read only along the found path.
//! - A* is the same loop with `key = g + h(node)`, stopping when the goal is popped; with a
//!   consistent estimate (all estimates here are) each node is expanded once.
//!
//! No prefetching, no epoch counters, no custom heap: that is the point of a baseline.
#![allow(dead_code)]

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// CSR arrays of a directed graph.
pub struct Csr {
    pub offsets: Vec<u32>,
    pub targets: Vec<u32>,
    pub weights: Vec<f64>,
}

impl Csr {
    pub fn node_count(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The CSR arrays from a plain `(from, to, weight)` edge list (counting sort by `from`).
    pub fn from_edges(n: usize, edges: &[(u32, u32, f64)]) -> Csr {
        let mut offsets = vec![0u32; n + 1];
        for &(f, _, _) in edges {
            offsets[f as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        let mut weights = vec![0f64; edges.len()];
        for &(f, t, w) in edges {
            let k = fill[f as usize] as usize;
            targets[k] = t;
            weights[k] = w;
            fill[f as usize] += 1;
        }
        Csr {
            offsets,
            targets,
            weights,
        }
    }

    /// The graph with every edge reversed.
    pub fn reversed(&self) -> Csr {
        let n = self.node_count();
        let mut edges = Vec::with_capacity(self.targets.len());
        for u in 0..n {
            for k in self.offsets[u] as usize..self.offsets[u + 1] as usize {
                edges.push((self.targets[k], u as u32, self.weights[k]));
            }
        }
        Csr::from_edges(n, &edges)
    }
}

/// A heap entry: ordered by `key` reversed (so `BinaryHeap`, a max-heap, pops the smallest).
#[derive(Clone, Copy)]
struct Entry {
    key: f64,
    node: u32,
}
impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        o.key
            .total_cmp(&self.key)
            .then_with(|| o.node.cmp(&self.node))
    }
}

/// The reusable buffers of the baseline search.
pub struct Search {
    dist: Vec<f64>,
    parent: Vec<u32>,
    heap: BinaryHeap<Entry>,
}

const NONE: u32 = u32::MAX;

impl Search {
    pub fn new(n: usize) -> Search {
        Search {
            dist: vec![f64::INFINITY; n],
            parent: vec![NONE; n],
            heap: BinaryHeap::new(),
        }
    }

    /// Dijkstra from `s` to `t`: the cost and the path, or `None` when unreachable.
    pub fn dijkstra(&mut self, g: &Csr, s: u32, t: u32) -> Option<(f64, Vec<u32>)> {
        self.astar(g, s, t, |_| 0.0)
    }

    /// A* from `s` to `t` with the estimate `h(node)` (of the cost from `node` to `t`).
    pub fn astar(
        &mut self,
        g: &Csr,
        s: u32,
        t: u32,
        h: impl Fn(u32) -> f64,
    ) -> Option<(f64, Vec<u32>)> {
        self.dist.fill(f64::INFINITY);
        self.heap.clear();
        self.dist[s as usize] = 0.0;
        self.parent[s as usize] = NONE;
        self.heap.push(Entry { key: h(s), node: s });
        while let Some(Entry { key, node: u }) = self.heap.pop() {
            let du = self.dist[u as usize];
            if key > du + h(u) {
                continue; // stale: u was improved after this entry was pushed
            }
            if u == t {
                let mut path = vec![t];
                let mut v = t;
                while self.parent[v as usize] != NONE {
                    v = self.parent[v as usize];
                    path.push(v);
                }
                path.reverse();
                return Some((du, path));
            }
            let (a, b) = (
                g.offsets[u as usize] as usize,
                g.offsets[u as usize + 1] as usize,
            );
            for k in a..b {
                let v = g.targets[k];
                let nd = du + g.weights[k];
                if nd < self.dist[v as usize] {
                    self.dist[v as usize] = nd;
                    self.parent[v as usize] = u;
                    self.heap.push(Entry {
                        key: nd + h(v),
                        node: v,
                    });
                }
            }
        }
        None
    }

    /// Dijkstra from `s` over the whole graph; the distances (`+infinity` if unreachable).
    pub fn one_to_all(&mut self, g: &Csr, s: u32) -> &[f64] {
        self.dist.fill(f64::INFINITY);
        self.heap.clear();
        self.dist[s as usize] = 0.0;
        self.heap.push(Entry { key: 0.0, node: s });
        while let Some(Entry { key, node: u }) = self.heap.pop() {
            let du = self.dist[u as usize];
            if key > du {
                continue;
            }
            let (a, b) = (
                g.offsets[u as usize] as usize,
                g.offsets[u as usize + 1] as usize,
            );
            for k in a..b {
                let v = g.targets[k];
                let nd = du + g.weights[k];
                if nd < self.dist[v as usize] {
                    self.dist[v as usize] = nd;
                    self.heap.push(Entry { key: nd, node: v });
                }
            }
        }
        &self.dist
    }
}
