//! The crates.io peers on a `Workload`: `petgraph::algo::{dijkstra, astar}` over a
//! `DiGraph<(), f64>` and `pathfinding::prelude::{dijkstra, astar}` over `Vec<Vec<(u32, f64)>>`
//! with the f64 weights wrapped in an `Ord` newtype (`OrdF64`, ordered by `f64::total_cmp`,
//! `Zero`/`Add` forwarded to f64; not scaled). A* estimates read the workload's `est_points`.
#![allow(dead_code)]

use super::graphs::Workload;
use onepath::{distance, Point3};
use pathfinding::num_traits::Zero;
use petgraph::graph::{DiGraph, NodeIndex};
use std::cmp::Ordering;
use std::hint::black_box;
use std::ops::Add;

#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct OrdF64(pub f64);
impl Eq for OrdF64 {}
#[allow(clippy::derive_ord_xor_partial_ord)]
impl Ord for OrdF64 {
    fn cmp(&self, o: &Self) -> Ordering {
        self.0.total_cmp(&o.0)
    }
}
impl Add for OrdF64 {
    type Output = OrdF64;
    fn add(self, o: OrdF64) -> OrdF64 {
        OrdF64(self.0 + o.0)
    }
}
impl Zero for OrdF64 {
    fn zero() -> Self {
        OrdF64(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0 == 0.0
    }
}

/// The peers' copies of one workload's graph.
pub struct Peers {
    pub pet: DiGraph<(), f64>,
    pub adj: Vec<Vec<(u32, f64)>>,
}

impl Peers {
    pub fn new(w: &Workload) -> Peers {
        let n = w.node_count();
        let mut pet = DiGraph::<(), f64>::with_capacity(n, w.edges.len());
        for _ in 0..n {
            pet.add_node(());
        }
        let mut adj = vec![Vec::new(); n];
        for e in &w.edges {
            pet.add_edge(
                NodeIndex::new(e.from as usize),
                NodeIndex::new(e.to as usize),
                e.weight,
            );
            adj[e.from as usize].push((e.to, e.weight));
        }
        Peers { pet, adj }
    }
}

fn est(p: &[Point3], a: usize, b: usize) -> f64 {
    distance(p[a], p[b])
}

pub fn pet_dijkstra(p: &Peers, q: &[(u32, u32)]) -> Vec<f64> {
    q.iter()
        .map(|&(a, b)| {
            let m = petgraph::algo::dijkstra(
                &p.pet,
                NodeIndex::new(a as usize),
                Some(NodeIndex::new(b as usize)),
                |e| *e.weight(),
            );
            m.get(&NodeIndex::new(b as usize))
                .copied()
                .unwrap_or(f64::INFINITY)
        })
        .collect()
}

pub fn pet_astar(p: &Peers, pts: &[Point3], q: &[(u32, u32)]) -> Vec<f64> {
    q.iter()
        .map(|&(a, b)| {
            let goal = NodeIndex::new(b as usize);
            petgraph::algo::astar(
                &p.pet,
                NodeIndex::new(a as usize),
                |n| n == goal,
                |e| *e.weight(),
                |n| est(pts, n.index(), b as usize),
            )
            .map_or(f64::INFINITY, |(c, path)| {
                black_box(path);
                c
            })
        })
        .collect()
}

pub fn pf_dijkstra(p: &Peers, q: &[(u32, u32)]) -> Vec<f64> {
    q.iter()
        .map(|&(a, b)| {
            pathfinding::prelude::dijkstra(
                &a,
                |&v| p.adj[v as usize].iter().map(|&(t, w)| (t, OrdF64(w))),
                |&v| v == b,
            )
            .map_or(f64::INFINITY, |(path, c)| {
                black_box(path);
                c.0
            })
        })
        .collect()
}

pub fn pf_astar(p: &Peers, pts: &[Point3], q: &[(u32, u32)]) -> Vec<f64> {
    q.iter()
        .map(|&(a, b)| {
            pathfinding::prelude::astar(
                &a,
                |&v| p.adj[v as usize].iter().map(|&(t, w)| (t, OrdF64(w))),
                |&v| OrdF64(est(pts, v as usize, b as usize)),
                |&v| v == b,
            )
            .map_or(f64::INFINITY, |(path, c)| {
                black_box(path);
                c.0
            })
        })
        .collect()
}
