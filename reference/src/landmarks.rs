//! [GRAPH.ALT] ALT landmarks of spec/graphs.md section 9, with the OPLM bytes of section 9.2.
//! [GRAPH.OPLM.TRUSTED] Accepted tables are used as they are.

use crate::astar::GraphHeuristic;
use crate::csr::CsrGraph;
use crate::error::{BuildError, GraphStateError, StateKind};
use crate::open_set::OpenSet;
use crate::random::SeededRandom;

/// [GRAPH.ALT.FARTHEST] [GRAPH.ALT.AVOID] How landmarks are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LandmarkStrategy {
    /// [GRAPH.ALT.FARTHEST] Farthest from the landmarks chosen so far.
    Farthest,
    /// [GRAPH.ALT.AVOID] Avoid (the default).
    #[default]
    Avoid,
}

/// [GRAPH.ALT.OPTIONS] Landmark count, strategy and seed; defaults 16, Avoid, 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LandmarkOptions {
    /// [GRAPH.ALT.COUNT] The requested count (at least 1; capped at `N`).
    pub count: usize,
    /// [GRAPH.ALT.FARTHEST] [GRAPH.ALT.AVOID] The strategy.
    pub strategy: LandmarkStrategy,
    /// [GRAPH.RNG.SEED] The seed of the root draws.
    pub seed: u64,
}

impl Default for LandmarkOptions {
    /// [GRAPH.ALT.OPTIONS] Count 16, strategy Avoid, seed 1.
    fn default() -> Self {
        LandmarkOptions {
            count: 16,
            strategy: LandmarkStrategy::Avoid,
            seed: 1,
        }
    }
}

/// [GRAPH.ALT.LIMIT] The most distances one direction of a landmark table may hold: a table of
/// `k` landmarks on `N` nodes is built only when `k * N <= 2^28` (2 GiB of `f64` per direction).
pub const MAX_LANDMARK_ENTRIES: usize = 1 << 28;

/// [GRAPH.ALT.LIMIT] Whether `k` landmarks on `n` nodes fit [`MAX_LANDMARK_ENTRIES`]; the error
/// (`too_many_nodes`) comes before anything is allocated for the table.
pub(crate) fn check_table_size(k: usize, n: usize) -> Result<(), BuildError> {
    match k.checked_mul(n) {
        Some(entries) if entries <= MAX_LANDMARK_ENTRIES => Ok(()),
        _ => Err(BuildError::landmark_table_too_large(k, n)),
    }
}

/// [GRAPH.ALT.TREE] A shortest-path tree: distances, first-final parents, settle order.
pub(crate) struct ShortestPathTree {
    pub(crate) dist: Vec<f64>,
    pub(crate) parent: Vec<Option<u32>>,
    pub(crate) order: Vec<u32>,
}

/// [GRAPH.ALT.TREE] [GRAPH.ALT.TABLES] Dijkstra from `root` with the default weights over out-edges
/// (`reverse = false`) or in-edges (`reverse = true`), open-set key `(d, d)`; parents change only on
/// strict improvement. Unreached nodes keep `+infinity`.
pub(crate) fn shortest_path_tree(graph: &CsrGraph, root: u32, reverse: bool) -> ShortestPathTree {
    let n = graph.node_count();
    let mut dist = vec![f64::INFINITY; n];
    let mut reached = vec![false; n];
    let mut parent = vec![None; n];
    let mut order = Vec::new();
    let mut open = OpenSet::new(n);
    dist[root as usize] = 0.0;
    reached[root as usize] = true;
    open.push(root, 0.0, 0.0);
    while let Some(entry) = open.pop() {
        let u = entry.node;
        order.push(u);
        let du = dist[u as usize];
        let slots: Vec<(u32, f64)> = if reverse {
            graph.in_slots(u).collect()
        } else {
            graph.out_slots(u).collect()
        };
        for (v, w) in slots {
            let d2 = du + w;
            if d2 == f64::INFINITY {
                continue;
            }
            let vi = v as usize;
            if !reached[vi] || d2 < dist[vi] {
                dist[vi] = d2;
                reached[vi] = true;
                parent[vi] = Some(u);
                open.push(v, d2, d2);
            }
        }
    }
    ShortestPathTree {
        dist,
        parent,
        order,
    }
}

/// [SPEC.NUM.COMPARE] `max(a, b)` as `if b > a { b } else { a }`.
fn max(a: f64, b: f64) -> f64 {
    if b > a {
        b
    } else {
        a
    }
}

/// [GRAPH.ALT.BOUND] The bound over the first `k` landmarks of the landmark-major tables.
fn bound(fwd: &[f64], bwd: &[f64], n: usize, k: usize, u: u32, v: u32) -> f64 {
    let (u, v) = (u as usize, v as usize);
    let mut best = 0.0f64;
    if u >= n || v >= n {
        return best;
    }
    for l in 0..k {
        let fu = fwd[l * n + u];
        if fu.is_finite() {
            let a = fwd[l * n + v] - fu;
            best = max(best, a);
        }
        let bv = bwd[l * n + v];
        if bv.is_finite() {
            let b = bwd[l * n + u] - bv;
            best = max(best, b);
        }
    }
    best
}

/// [GRAPH.OPLM.LAYOUT] Length of the OPLM header: magic, version, `N`, `k`, fingerprint.
const HEADER_LEN: usize = 24;

/// [GRAPH.ALT.TABLES] [GRAPH.ALT.STALE] A landmark table: ids, distance tables, and the node count
/// and fingerprint of the CSR graph it was built on.
#[derive(Clone, Debug)]
pub struct Landmarks {
    node_count: usize,
    fingerprint: u64,
    ids: Vec<u32>,
    fwd: Vec<f64>,
    bwd: Vec<f64>,
}

impl Landmarks {
    /// Chooses `min(count, N)` distinct landmarks of `graph` and computes, for each, the
    /// distances from it and to it of every node; fails on a count of 0, an empty graph, or a
    /// table larger than [`MAX_LANDMARK_ENTRIES`] per direction (checked before allocating).
    /// [GRAPH.ALT.COUNT] [GRAPH.ALT.LIMIT] [GRAPH.ALT.ROOTS] [GRAPH.ALT.FARTHEST]
    /// [GRAPH.ALT.AVOID] [GRAPH.ALT.FALLBACK] [GRAPH.ALT.TABLES]
    ///
    /// ```
    /// use onepath_reference::{Graph, GraphEdge, GraphOptions, LandmarkOptions, PathStatus};
    /// use std::sync::Arc;
    ///
    /// // An undirected chain 0 - 1 - ... - 9 with unit weights.
    /// let edges: Vec<GraphEdge> = (0..9).map(|i| GraphEdge::new(i, i + 1, 1.0)).collect();
    /// let graph = Graph::from_edges(&edges, None, false).unwrap();
    /// let table = graph
    ///     .build_landmarks(&LandmarkOptions { count: 2, ..Default::default() })
    ///     .unwrap();
    /// assert_eq!(table.count(), 2);
    /// // The bound never exceeds the true distance (9 from 0 to 9).
    /// assert!(table.lower_bound(0, 9) <= 9.0);
    /// let path = graph
    ///     .find_path(0, 9, &GraphOptions::with_landmarks(Arc::new(table)))
    ///     .unwrap();
    /// assert_eq!((path.status, path.cost), (PathStatus::Found, 9.0));
    /// ```
    pub fn build(graph: &CsrGraph, options: &LandmarkOptions) -> Result<Landmarks, BuildError> {
        if options.count == 0 {
            return Err(BuildError::invalid_landmark_count(options.count));
        }
        let n = graph.node_count();
        if n == 0 {
            return Err(BuildError::empty_graph());
        }
        let k = options.count.min(n);
        check_table_size(k, n)?;
        let mut rng = SeededRandom::new(options.seed);
        let mut table = Landmarks {
            node_count: n,
            fingerprint: graph.fingerprint(),
            ids: Vec::with_capacity(k),
            fwd: Vec::new(),
            bwd: Vec::new(),
        };
        let mut is_landmark = vec![false; n];
        for _slot in 0..k {
            let root = rng.next_int(n as u32);
            let choice = match options.strategy {
                LandmarkStrategy::Farthest => table.farthest(graph, root, &is_landmark),
                LandmarkStrategy::Avoid => table.avoid(graph, root, &is_landmark),
            };
            // [GRAPH.ALT.FALLBACK]
            let chosen = choice.unwrap_or_else(|| {
                (0..n as u32)
                    .find(|&v| !is_landmark[v as usize])
                    .unwrap_or(0)
            });
            is_landmark[chosen as usize] = true;
            table.ids.push(chosen);
            table
                .fwd
                .extend(shortest_path_tree(graph, chosen, false).dist);
            table
                .bwd
                .extend(shortest_path_tree(graph, chosen, true).dist);
        }
        Ok(table)
    }

    /// [GRAPH.ALT.FARTHEST] The Farthest choice for the next slot, if any.
    fn farthest(&self, graph: &CsrGraph, root: u32, is_landmark: &[bool]) -> Option<u32> {
        let n = self.node_count;
        let mut best: Option<(f64, u32)> = None;
        let mut offer = |value: f64, v: u32| match best {
            Some((b, _)) if !(value > b) => {}
            _ => best = Some((value, v)),
        };
        if self.ids.is_empty() {
            let tree = shortest_path_tree(graph, root, false);
            for v in 0..n {
                let d = tree.dist[v];
                if d.is_finite() && d > 0.0 {
                    offer(d, v as u32);
                }
            }
        } else {
            for v in 0..n {
                if is_landmark[v] {
                    continue;
                }
                let mut m: Option<f64> = None;
                for l in 0..self.ids.len() {
                    let d = self.fwd[l * n + v];
                    if d.is_finite() {
                        m = Some(match m {
                            Some(a) if !(d < a) => a,
                            _ => d,
                        });
                    }
                }
                if let Some(m) = m {
                    if m > 0.0 {
                        offer(m, v as u32);
                    }
                }
            }
        }
        best.map(|(_, v)| v)
    }

    /// [GRAPH.ALT.AVOID] The Avoid choice for the next slot, if any.
    fn avoid(&self, graph: &CsrGraph, root: u32, is_landmark: &[bool]) -> Option<u32> {
        let n = self.node_count;
        let k = self.ids.len();
        let tree = shortest_path_tree(graph, root, false);
        let mut size = vec![0.0f64; n];
        let mut blocked = vec![false; n];
        for &v in &tree.order {
            let vi = v as usize;
            size[vi] = tree.dist[vi] - bound(&self.fwd, &self.bwd, n, k, root, v);
            blocked[vi] = is_landmark[vi];
        }
        for &v in tree.order.iter().rev() {
            if v == root {
                continue;
            }
            if let Some(p) = tree.parent[v as usize] {
                let s = size[v as usize];
                size[p as usize] += s;
                if blocked[v as usize] {
                    blocked[p as usize] = true;
                }
            }
        }
        let mut children: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut in_tree = vec![false; n];
        for &v in &tree.order {
            in_tree[v as usize] = true;
        }
        for v in 0..n as u32 {
            if in_tree[v as usize] && v != root {
                if let Some(p) = tree.parent[v as usize] {
                    children[p as usize].push(v);
                }
            }
        }
        for v in 0..n {
            if blocked[v] {
                size[v] = 0.0;
            }
        }
        let mut best: Option<(f64, u32)> = None;
        for v in 0..n {
            if in_tree[v] && !blocked[v] && size[v] > 0.0 {
                match best {
                    Some((b, _)) if !(size[v] > b) => {}
                    _ => best = Some((size[v], v as u32)),
                }
            }
        }
        let (_, mut x) = best?;
        loop {
            let mut next: Option<(f64, u32)> = None;
            for &c in &children[x as usize] {
                match next {
                    Some((b, _)) if !(size[c as usize] > b) => {}
                    _ => next = Some((size[c as usize], c)),
                }
            }
            match next {
                Some((_, c)) => x = c,
                None => return Some(x),
            }
        }
    }

    /// [GRAPH.ALT.COUNT] The number of landmarks `k`.
    pub fn count(&self) -> usize {
        self.ids.len()
    }

    /// [GRAPH.ALT.STALE] The node count of the graph the table was built on.
    pub fn node_count(&self) -> usize {
        self.node_count
    }

    /// [GRAPH.ALT.STALE] The fingerprint of the graph the table was built on.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// [GRAPH.ALT.TABLES] The landmark ids in table order.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// [GRAPH.ALT.TABLES] `d(L_landmark, node)`; NaN when either index is out of range.
    pub fn forward(&self, landmark: usize, node: u32) -> f64 {
        self.entry(&self.fwd, landmark, node)
    }

    /// [GRAPH.ALT.TABLES] `d(node, L_landmark)`; NaN when either index is out of range.
    pub fn backward(&self, landmark: usize, node: u32) -> f64 {
        self.entry(&self.bwd, landmark, node)
    }

    fn entry(&self, table: &[f64], landmark: usize, node: u32) -> f64 {
        if landmark >= self.ids.len() || node as usize >= self.node_count {
            return f64::NAN;
        }
        table[landmark * self.node_count + node as usize]
    }

    /// [GRAPH.ALT.BOUND] The ALT lower bound on `d(from, to)`; `+0.0` when an id is out of range.
    pub fn lower_bound(&self, from: u32, to: u32) -> f64 {
        bound(
            &self.fwd,
            &self.bwd,
            self.node_count,
            self.ids.len(),
            from,
            to,
        )
    }

    /// [GRAPH.OPLM.LAYOUT] The OPLM bytes of the table: the 24-byte header (magic, version, `N`,
    /// `k`, fingerprint), ids, forward table, backward table.
    pub fn serialize(&self) -> Vec<u8> {
        let k = self.ids.len();
        let mut out = Vec::with_capacity(HEADER_LEN + 4 * k + 16 * k * self.node_count);
        out.extend_from_slice(b"OPLM");
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&(self.node_count as i32).to_le_bytes());
        out.extend_from_slice(&(k as i32).to_le_bytes());
        out.extend_from_slice(&self.fingerprint.to_le_bytes());
        for &id in &self.ids {
            out.extend_from_slice(&(id as i32).to_le_bytes());
        }
        for &d in self.fwd.iter().chain(&self.bwd) {
            out.extend_from_slice(&d.to_bits().to_le_bytes());
        }
        out
    }

    /// [GRAPH.OPLM.CHECKS] [GRAPH.OPLM.DISTINCT_IDS] [GRAPH.OPLM.SIGN_BIT] [GRAPH.OPLM.ROUNDTRIP]
    /// [GRAPH.ERR.NO_PANIC] Reads OPLM bytes for `graph`, running the checks in the clause's order;
    /// nothing is allocated before the length check.
    pub fn deserialize(bytes: &[u8], graph: &CsrGraph) -> Result<Landmarks, GraphStateError> {
        let err = |kind, offset| Err(GraphStateError::new(kind, offset));
        let len = bytes.len();
        if len < HEADER_LEN {
            return err(StateKind::Truncated { length: len }, len);
        }
        let u32_at =
            |o: usize| u32::from_le_bytes([bytes[o], bytes[o + 1], bytes[o + 2], bytes[o + 3]]);
        let i32_at = |o: usize| u32_at(o) as i32;
        let u64_at = |o: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&bytes[o..o + 8]);
            u64::from_le_bytes(b)
        };
        if &bytes[0..4] != b"OPLM" {
            return err(StateKind::BadMagic, 0);
        }
        let version = u32_at(4);
        if version != 1 {
            return err(StateKind::UnsupportedVersion { version }, 4);
        }
        let stored_n = i32_at(8);
        let n = graph.node_count();
        if i64::from(stored_n) != n as i64 {
            return err(
                StateKind::NodeCountMismatch {
                    stored: stored_n,
                    graph: n,
                },
                8,
            );
        }
        let stored_k = i32_at(12);
        if stored_k < 1 || stored_k > stored_n {
            return err(
                StateKind::CountOutOfRange {
                    count: stored_k,
                    node_count: stored_n,
                },
                12,
            );
        }
        let k = stored_k as usize;
        let expected: u128 = HEADER_LEN as u128 + 4 * k as u128 + 16 * (k as u128) * (n as u128);
        if expected != len as u128 {
            let offset = if (len as u128) > expected {
                expected as usize
            } else {
                len
            };
            let expected = u64::try_from(expected).unwrap_or(u64::MAX);
            return err(
                StateKind::LengthMismatch {
                    expected,
                    actual: len,
                },
                offset,
            );
        }
        let stored_fp = u64_at(16);
        if stored_fp != graph.fingerprint() {
            return err(
                StateKind::FingerprintMismatch {
                    stored: stored_fp,
                    graph: graph.fingerprint(),
                },
                16,
            );
        }
        let mut ids: Vec<u32> = Vec::with_capacity(k);
        for slot in 0..k {
            let offset = HEADER_LEN + 4 * slot;
            let id = i32_at(offset);
            if id < 0 || id >= stored_n {
                return err(
                    StateKind::IndexOutOfRange {
                        slot,
                        id,
                        node_count: stored_n,
                    },
                    offset,
                );
            }
            if ids.contains(&(id as u32)) {
                return err(StateKind::DuplicateNode { slot, id }, offset);
            }
            ids.push(id as u32);
        }
        let table_start = HEADER_LEN + 4 * k;
        let mut values: Vec<f64> = Vec::with_capacity(2 * k * n);
        for i in 0..2 * k * n {
            let offset = table_start + 8 * i;
            let bits = u64_at(offset);
            let d = f64::from_bits(bits);
            if d.is_nan() || d < 0.0 || d.is_sign_negative() {
                return err(StateKind::BadDistance { value_bits: bits }, offset);
            }
            values.push(d);
        }
        let bwd = values.split_off(k * n);
        let fwd = values;
        for (l, &id) in ids.iter().enumerate() {
            let f_index = l * n + id as usize;
            if fwd[f_index] != 0.0 {
                let value_bits = fwd[f_index].to_bits();
                let at = table_start + 8 * f_index;
                return err(
                    StateKind::SelfDistance {
                        landmark: l,
                        backward: false,
                        value_bits,
                    },
                    at,
                );
            }
            if bwd[f_index] != 0.0 {
                let value_bits = bwd[f_index].to_bits();
                let at = table_start + 8 * (k * n + f_index);
                return err(
                    StateKind::SelfDistance {
                        landmark: l,
                        backward: true,
                        value_bits,
                    },
                    at,
                );
            }
        }
        Ok(Landmarks {
            node_count: n,
            fingerprint: stored_fp,
            ids,
            fwd,
            bwd,
        })
    }
}

/// [GRAPH.EST.COMBINE] [GRAPH.ALT.BOUND] The ALT estimate `lower_bound(from, to)`.
#[derive(Clone, Copy, Debug)]
pub struct AltGraphHeuristic<'a> {
    landmarks: &'a Landmarks,
}

impl<'a> AltGraphHeuristic<'a> {
    /// [GRAPH.ALT.BOUND] An estimate over `landmarks`.
    pub fn new(landmarks: &'a Landmarks) -> Self {
        AltGraphHeuristic { landmarks }
    }
}

impl GraphHeuristic for AltGraphHeuristic<'_> {
    fn estimate(&self, from: u32, to: u32) -> f64 {
        self.landmarks.lower_bound(from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_size_at_and_past_the_limit() {
        // The default 16 landmarks fit 2^24 nodes, not one more; 4 landmarks fit 2^26 nodes.
        assert!(check_table_size(16, MAX_LANDMARK_ENTRIES / 16).is_ok());
        assert!(check_table_size(4, crate::MAX_NODES).is_ok());
        for (k, n) in [
            (16, MAX_LANDMARK_ENTRIES / 16 + 1),
            (16, crate::MAX_NODES),
            (5, crate::MAX_NODES),
            (usize::MAX, 2),
        ] {
            let e = check_table_size(k, n).unwrap_err();
            assert_eq!((e.class(), e.index()), ("too_many_nodes", None));
            assert!(e.to_string().contains("2^28"), "{e}");
        }
    }
}
