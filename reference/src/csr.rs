//! [GRAPH.VAL] [GRAPH.CSR] Values and the compressed sparse row graph of spec/graphs.md sections 1-2.

use crate::error::BuildError;

/// [GRAPH.CSR.LIMIT] [GRAPH.MUT.NODES] The largest node count, `2^26`.
pub const MAX_NODES: usize = 1 << 26;

/// [GRAPH.VAL.EDGE] A directed edge `from -> to` with a finite weight that is 0 or more.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphEdge {
    /// [GRAPH.VAL.NODE] The tail node id.
    pub from: u32,
    /// [GRAPH.VAL.NODE] The head node id.
    pub to: u32,
    /// [GRAPH.VAL.EDGE] The weight (validated where the edge is stored).
    pub weight: f64,
}

impl GraphEdge {
    /// [GRAPH.VAL.EDGE] Creates an edge (no validation happens here).
    pub fn new(from: u32, to: u32, weight: f64) -> Self {
        Self { from, to, weight }
    }
}

/// [GRAPH.VAL.NEG_ZERO] Stores `-0.0` as `+0.0`; every other value unchanged.
pub(crate) fn store_weight(w: f64) -> f64 {
    if w == 0.0 {
        0.0
    } else {
        w
    }
}

/// [GRAPH.VAL.EDGE] A weight is valid when it is finite and not negative.
pub(crate) fn weight_is_valid(w: f64) -> bool {
    w.is_finite() && w >= 0.0
}

/// [GRAPH.CSR.VALIDATE] Checks one edge in the order from, to, weight, naming `index`.
pub(crate) fn validate_edge(
    index: usize,
    from: u32,
    to: u32,
    weight: f64,
    node_count: usize,
) -> Result<(), BuildError> {
    if from as usize >= node_count {
        return Err(BuildError::endpoint(index, "from", from, node_count));
    }
    if to as usize >= node_count {
        return Err(BuildError::endpoint(index, "to", to, node_count));
    }
    if !weight_is_valid(weight) {
        return Err(BuildError::invalid_weight(index, weight));
    }
    Ok(())
}

/// [GRAPH.CSR.LAYOUT] [GRAPH.CSR.ORDER] [GRAPH.CSR.KEEP] An immutable directed graph in CSR form
/// with its reverse adjacency. `Send + Sync`.
#[derive(Clone, Debug)]
pub struct CsrGraph {
    node_count: usize,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    weights: Vec<f64>,
    reverse_offsets: Vec<u32>,
    sources: Vec<u32>,
    reverse_weights: Vec<f64>,
    fingerprint: u64,
}

impl CsrGraph {
    /// [GRAPH.CSR.LIMIT] [GRAPH.CSR.VALIDATE] [GRAPH.VAL.NEG_ZERO] Builds the CSR graph of
    /// `node_count` nodes from `edges`, rejecting the first bad edge in list order.
    pub fn new(node_count: usize, edges: &[GraphEdge]) -> Result<CsrGraph, BuildError> {
        if node_count > MAX_NODES {
            return Err(BuildError::too_many_nodes(node_count as u64));
        }
        if edges.len() > u32::MAX as usize {
            return Err(BuildError::too_many_edges(edges.len() as u64));
        }
        for (i, e) in edges.iter().enumerate() {
            validate_edge(i, e.from, e.to, e.weight, node_count)?;
        }
        Ok(Self::from_valid(node_count, edges))
    }

    /// [GRAPH.CSR.ORDER] Builds both adjacencies by a stable counting sort. The caller guarantees
    /// that `node_count <= MAX_NODES`, at most `u32::MAX` edges, and every edge valid.
    pub(crate) fn from_valid(node_count: usize, edges: &[GraphEdge]) -> CsrGraph {
        let (offsets, targets, weights) = counting_sort(node_count, edges, |e| (e.from, e.to));
        let (reverse_offsets, sources, reverse_weights) =
            counting_sort(node_count, edges, |e| (e.to, e.from));
        let fingerprint = fingerprint_of(node_count, &offsets, &targets, &weights);
        CsrGraph {
            node_count,
            offsets,
            targets,
            weights,
            reverse_offsets,
            sources,
            reverse_weights,
            fingerprint,
        }
    }

    /// [GRAPH.CSR.LAYOUT] The number of nodes `N`.
    pub fn node_count(&self) -> usize {
        self.node_count
    }

    /// [GRAPH.CSR.LAYOUT] The number of edges `E` (parallel edges and self-loops included).
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// [GRAPH.CSR.LAYOUT] The `N + 1` forward offsets.
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// [GRAPH.CSR.LAYOUT] The head of each forward edge slot.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// [GRAPH.CSR.LAYOUT] [GRAPH.VAL.NEG_ZERO] The weight of each forward edge slot.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// [GRAPH.CSR.LAYOUT] The `N + 1` reverse offsets.
    pub fn reverse_offsets(&self) -> &[u32] {
        &self.reverse_offsets
    }

    /// [GRAPH.CSR.LAYOUT] The tail of each reverse edge slot.
    pub fn sources(&self) -> &[u32] {
        &self.sources
    }

    /// [GRAPH.CSR.LAYOUT] The weight of each reverse edge slot.
    pub fn reverse_weights(&self) -> &[f64] {
        &self.reverse_weights
    }

    /// [GRAPH.CSR.FINGERPRINT] [GRAPH.CSR.FP_WIDTH] The FNV-1a fingerprint of the forward adjacency.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// [GRAPH.CSR.LAYOUT] The forward slots of `node` as `(target, weight)` in slot order.
    pub(crate) fn out_slots(&self, node: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let lo = self.offsets[node as usize] as usize;
        let hi = self.offsets[node as usize + 1] as usize;
        (lo..hi).map(move |s| (self.targets[s], self.weights[s]))
    }

    /// [GRAPH.CSR.LAYOUT] The reverse slots of `node` as `(source, weight)` in slot order.
    pub(crate) fn in_slots(&self, node: u32) -> impl Iterator<Item = (u32, f64)> + '_ {
        let lo = self.reverse_offsets[node as usize] as usize;
        let hi = self.reverse_offsets[node as usize + 1] as usize;
        (lo..hi).map(move |s| (self.sources[s], self.reverse_weights[s]))
    }
}

/// [GRAPH.CSR.ORDER] Stable counting sort of `edges` by the first element of `key`; returns the
/// offsets, the second element of `key` per slot and the stored weight per slot.
fn counting_sort(
    node_count: usize,
    edges: &[GraphEdge],
    key: impl Fn(&GraphEdge) -> (u32, u32),
) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
    let mut offsets = vec![0u32; node_count + 1];
    for e in edges {
        offsets[key(e).0 as usize + 1] += 1;
    }
    for v in 0..node_count {
        offsets[v + 1] += offsets[v];
    }
    let mut next: Vec<u32> = offsets[..node_count].to_vec();
    let mut other = vec![0u32; edges.len()];
    let mut weights = vec![0.0f64; edges.len()];
    for e in edges {
        let (group, o) = key(e);
        let slot = next[group as usize] as usize;
        next[group as usize] += 1;
        other[slot] = o;
        weights[slot] = store_weight(e.weight);
    }
    (offsets, other, weights)
}

/// [GRAPH.CSR.FINGERPRINT] The FNV-1a 64-bit offset basis.
const FNV_OFFSET: u64 = 14695981039346656037;
/// [GRAPH.CSR.FINGERPRINT] The FNV-1a 64-bit prime.
const FNV_PRIME: u64 = 1099511628211;

/// [GRAPH.CSR.FINGERPRINT] Feeds `bytes` into the FNV-1a state `h`.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(FNV_PRIME);
    }
    h
}

/// [GRAPH.CSR.FINGERPRINT] [GRAPH.CSR.FP_WIDTH] Hashes the count (u32), every offset (u32), then per
/// slot its target (u32) and weight bits (u64), all little-endian.
fn fingerprint_of(node_count: usize, offsets: &[u32], targets: &[u32], weights: &[f64]) -> u64 {
    let mut h = FNV_OFFSET;
    h = fnv(h, &(node_count as u32).to_le_bytes());
    for &o in offsets {
        h = fnv(h, &o.to_le_bytes());
    }
    for (t, w) in targets.iter().zip(weights) {
        h = fnv(h, &t.to_le_bytes());
        h = fnv(h, &w.to_bits().to_le_bytes());
    }
    h
}
