//! Compressed sparse row graphs: [GRAPH.CSR.LIMIT], [GRAPH.CSR.VALIDATE], [GRAPH.CSR.LAYOUT],
//! [GRAPH.CSR.ORDER], [GRAPH.CSR.KEEP], [GRAPH.CSR.FINGERPRINT], [GRAPH.CSR.FP_WIDTH].

use crate::error::{BuildError, BuildKind, End};
use crate::values::{store_weight, weight_ok};
use crate::{GraphEdge, MAX_NODES};

/// One adjacency slot in the interleaved copy the searches scan (weight and neighbour together).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Arc {
    pub w: f64,
    pub t: u32,
}

/// [GRAPH.CSR.LAYOUT] [GRAPH.CSR.ORDER] [GRAPH.CSR.KEEP] An immutable graph in CSR form with its
/// reverse adjacency (Send + Sync).
#[derive(Clone, Debug)]
pub struct CsrGraph {
    n: usize,
    offsets: Vec<u32>,
    targets: Vec<u32>,
    weights: Vec<f64>,
    rev_offsets: Vec<u32>,
    sources: Vec<u32>,
    rev_weights: Vec<f64>,
    fwd: Vec<Arc>,
    bwd: Vec<Arc>,
    fingerprint: u64,
}

/// [GRAPH.CSR.VALIDATE] Checks one edge against `n` nodes: from, to, then weight.
pub(crate) fn check_edge(index: usize, e: &GraphEdge, n: usize) -> Result<(), BuildError> {
    if e.from as usize >= n {
        return Err(BuildError::new(BuildKind::EndpointOutOfRange {
            index,
            end: End::From,
            value: e.from,
            node_count: n,
        }));
    }
    if e.to as usize >= n {
        return Err(BuildError::new(BuildKind::EndpointOutOfRange {
            index,
            end: End::To,
            value: e.to,
            node_count: n,
        }));
    }
    if !weight_ok(e.weight) {
        return Err(BuildError::new(BuildKind::InvalidWeight {
            index,
            bits: e.weight.to_bits(),
        }));
    }
    Ok(())
}

/// Stable counting sort of edge slots by `key` (forward: `from`, reverse: `to`).
fn counting_sort(
    n: usize,
    edges: &[GraphEdge],
    key: impl Fn(&GraphEdge) -> u32,
    other: impl Fn(&GraphEdge) -> u32,
) -> (Vec<u32>, Vec<u32>, Vec<f64>, Vec<Arc>) {
    let mut offsets = vec![0u32; n + 1];
    for e in edges {
        offsets[key(e) as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let m = edges.len();
    let mut cursor: Vec<u32> = offsets[..n].to_vec();
    let mut nodes = vec![0u32; m];
    let mut weights = vec![0f64; m];
    for e in edges {
        let k = key(e) as usize;
        let slot = cursor[k] as usize;
        cursor[k] += 1;
        nodes[slot] = other(e);
        weights[slot] = store_weight(e.weight);
    }
    let arcs = nodes
        .iter()
        .zip(&weights)
        .map(|(&t, &w)| Arc { w, t })
        .collect();
    (offsets, nodes, weights, arcs)
}

/// [GRAPH.CSR.FINGERPRINT] FNV-1a 64 over little-endian bytes.
struct Fnv(u64);

impl Fnv {
    #[inline(always)]
    fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 = (self.0 ^ x as u64).wrapping_mul(1_099_511_628_211);
        }
    }
}

impl CsrGraph {
    /// [GRAPH.CSR.LIMIT] [GRAPH.CSR.VALIDATE] [GRAPH.VAL.NEG_ZERO] Builds the graph, rejecting
    /// `node_count > 2^26` (`too_many_nodes`) and then the first bad edge in list order.
    pub fn new(node_count: usize, edges: &[GraphEdge]) -> Result<CsrGraph, BuildError> {
        if node_count > MAX_NODES {
            return Err(BuildError::new(BuildKind::TooManyNodes {
                requested: node_count as u64,
            }));
        }
        for (i, e) in edges.iter().enumerate() {
            check_edge(i, e, node_count)?;
        }
        if edges.len() > u32::MAX as usize {
            return Err(BuildError::new(BuildKind::TooManyEdges {
                requested: edges.len() as u64,
            }));
        }
        Ok(Self::build_unchecked(node_count, edges))
    }

    /// Builds from edges already validated for `n` nodes.
    pub(crate) fn build_unchecked(n: usize, edges: &[GraphEdge]) -> CsrGraph {
        let (offsets, targets, weights, fwd) = counting_sort(n, edges, |e| e.from, |e| e.to);
        let (rev_offsets, sources, rev_weights, bwd) =
            counting_sort(n, edges, |e| e.to, |e| e.from);
        let mut h = Fnv(14_695_981_039_346_656_037);
        h.bytes(&(n as u32).to_le_bytes());
        for o in &offsets {
            h.bytes(&o.to_le_bytes());
        }
        for (t, w) in targets.iter().zip(&weights) {
            h.bytes(&t.to_le_bytes());
            h.bytes(&w.to_bits().to_le_bytes());
        }
        CsrGraph {
            n,
            offsets,
            targets,
            weights,
            rev_offsets,
            sources,
            rev_weights,
            fwd,
            bwd,
            fingerprint: h.0,
        }
    }

    /// [GRAPH.VAL.NODE] The node count `N`.
    pub fn node_count(&self) -> usize {
        self.n
    }

    /// [GRAPH.CSR.LAYOUT] The edge count `E`.
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// [GRAPH.CSR.LAYOUT] Forward offsets (`N + 1` entries).
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// [GRAPH.CSR.LAYOUT] Forward targets in slot order.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// [GRAPH.CSR.LAYOUT] Forward weights in slot order.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    /// [GRAPH.CSR.LAYOUT] Reverse offsets (`N + 1` entries).
    pub fn reverse_offsets(&self) -> &[u32] {
        &self.rev_offsets
    }

    /// [GRAPH.CSR.LAYOUT] Reverse sources in slot order.
    pub fn sources(&self) -> &[u32] {
        &self.sources
    }

    /// [GRAPH.CSR.LAYOUT] Reverse weights in slot order.
    pub fn reverse_weights(&self) -> &[f64] {
        &self.rev_weights
    }

    /// [GRAPH.CSR.FINGERPRINT] [GRAPH.CSR.FP_WIDTH] The FNV-1a 64 fingerprint.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// Out-arcs of `u` in slot order.
    #[inline(always)]
    pub(crate) fn out_arcs(&self, u: u32) -> &[Arc] {
        let u = u as usize;
        &self.fwd[self.offsets[u] as usize..self.offsets[u + 1] as usize]
    }

    /// In-arcs of `v` in reverse slot order (`t` is the source).
    #[inline(always)]
    pub(crate) fn in_arcs(&self, v: u32) -> &[Arc] {
        let v = v as usize;
        &self.bwd[self.rev_offsets[v] as usize..self.rev_offsets[v + 1] as usize]
    }

    /// The interleaved forward adjacency.
    pub(crate) fn fwd_arcs(&self) -> &[Arc] {
        &self.fwd
    }

    /// The interleaved reverse adjacency.
    pub(crate) fn bwd_arcs(&self) -> &[Arc] {
        &self.bwd
    }

    /// Hints the CPU to start loading the out-arcs of `v` (a node just pushed on the open set is
    /// likely to be popped soon, and its arcs are otherwise a cold miss at pop time).
    #[inline(always)]
    pub(crate) fn prefetch_out(&self, v: u32) {
        if let Some(&o) = self.offsets.get(v as usize) {
            if let Some(a) = self.fwd.get(o as usize) {
                prefetch(a);
            }
        }
    }

    /// Like `prefetch_out` for the in-arcs of `v`.
    #[inline(always)]
    pub(crate) fn prefetch_in(&self, v: u32) {
        if let Some(&o) = self.rev_offsets.get(v as usize) {
            if let Some(a) = self.bwd.get(o as usize) {
                prefetch(a);
            }
        }
    }
}

/// Software prefetch of the cache line holding `r`.
#[inline(always)]
pub(crate) fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only hints the cache; it never faults or reads into the program,
    // and the pointer comes from a live reference. (On x86_64 SSE is always available.) It buys
    // about a third of the time of a search on graphs larger than the cache (BENCHMARKS.md).
    #[allow(unsafe_code)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(r as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}
