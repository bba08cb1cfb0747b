//! ALT landmark tables: [GRAPH.ALT.TABLES], [GRAPH.ALT.TREE], [GRAPH.ALT.BOUND],
//! [GRAPH.ALT.COUNT], [GRAPH.ALT.ROOTS], [GRAPH.ALT.FARTHEST], [GRAPH.ALT.AVOID],
//! [GRAPH.ALT.FALLBACK], [GRAPH.ALT.OPTIONS].
//! [GRAPH.OPLM.TRUSTED] Accepted tables are used as they are.

use crate::csr::{Arc, CsrGraph};
use crate::error::{BuildError, BuildKind};
use crate::heap::{dist_key, LazyHeap, NO_PARENT};
use crate::rng::SeededRandom;

/// [GRAPH.ALT.FARTHEST] [GRAPH.ALT.AVOID] How landmarks are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LandmarkStrategy {
    /// [GRAPH.ALT.FARTHEST] Farthest-first selection.
    Farthest,
    /// [GRAPH.ALT.AVOID] The avoid strategy (default).
    #[default]
    Avoid,
}

/// [GRAPH.ALT.OPTIONS] Landmark build options (default: 16, Avoid, seed 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LandmarkOptions {
    /// [GRAPH.ALT.COUNT] Requested landmark count (`>= 1`).
    pub count: usize,
    /// [GRAPH.ALT.OPTIONS] Selection strategy.
    pub strategy: LandmarkStrategy,
    /// [GRAPH.RNG.SEED] Seed of the root generator.
    pub seed: u64,
}

impl Default for LandmarkOptions {
    /// [GRAPH.ALT.OPTIONS] 16 landmarks, Avoid, seed 1.
    fn default() -> Self {
        LandmarkOptions {
            count: 16,
            strategy: LandmarkStrategy::Avoid,
            seed: 1,
        }
    }
}

/// [GRAPH.ALT.TABLES] [GRAPH.ALT.STALE] A landmark table with the node count and fingerprint of
/// the graph it was built on. Stored node-major (`[fwd_0..fwd_k, bwd_0..bwd_k]` per node) so an
/// estimate touches a few adjacent cache lines; OPLM bytes are landmark-major.
#[derive(Clone, Debug)]
pub struct Landmarks {
    pub(crate) n: usize,
    /// Row stride / 2: the final landmark count.
    pub(crate) k: usize,
    pub(crate) fingerprint: u64,
    pub(crate) ids: Vec<u32>,
    /// `data[v * 2k + l] = d(L_l, v)`, `data[v * 2k + k + l] = d(v, L_l)`.
    pub(crate) data: Vec<f64>,
}

/// [GRAPH.ALT.LIMIT] Limit on `k * N`, the distances per direction of one table (`2^28`, so the
/// two directions take at most 4 GiB); a larger request fails before anything is allocated.
pub const MAX_LANDMARK_ENTRIES: usize = 1 << 28;

/// [GRAPH.ALT.LIMIT] `too_many_nodes` unless `k` landmarks on `n` nodes fit the limit.
fn fits(k: usize, n: usize) -> Result<(), BuildError> {
    if k.checked_mul(n).is_some_and(|e| e <= MAX_LANDMARK_ENTRIES) {
        Ok(())
    } else {
        Err(BuildError::new(BuildKind::TableTooLarge { k, n }))
    }
}

/// [GRAPH.ALT.TREE] The reusable buffers of the landmark Dijkstras: distances (`+infinity`
/// unreached), parents (valid for reached nodes only) and a lazy-deletion heap (never saved).
#[derive(Default)]
pub(crate) struct Tree {
    pub dist: Vec<f64>,
    pub parent: Vec<u32>,
    heap: LazyHeap,
}

impl Tree {
    /// [GRAPH.ALT.TREE] Dijkstra from `root` over `adj` with the default weights and the open-set
    /// key `(d, d)`: `dist` and `parent` are filled and `order` (settle order) when asked. The
    /// lazy heap pops the live entries in the order of [GRAPH.OPEN.ORDER] (see [`LazyHeap`]),
    /// so the parents and the settle order are those of the indexed open set.
    pub fn run(
        &mut self,
        n: usize,
        offsets: &[u32],
        adj: &[Arc],
        root: u32,
        mut order: Option<&mut Vec<u32>>,
    ) -> &[f64] {
        self.dist.clear();
        self.dist.resize(n, f64::INFINITY);
        self.parent.resize(n, NO_PARENT);
        self.heap.clear();
        self.dist[root as usize] = 0.0;
        self.parent[root as usize] = NO_PARENT;
        self.heap.push(0.0, root);
        while let Some(top) = self.heap.pop() {
            let u = top.node;
            let du = self.dist[u as usize];
            if top.key != dist_key(du) {
                continue; // stale: u was improved (and popped) since this entry was pushed
            }
            if let Some(o) = order.as_deref_mut() {
                o.push(u);
            }
            // The likely next pop: its arcs were prefetched when it was pushed; start loading
            // the distances its expansion reads.
            if let Some(w) = self.heap.peek() {
                let (a, b) = (
                    offsets[w as usize] as usize,
                    offsets[w as usize + 1] as usize,
                );
                for x in adj.get(a..b).unwrap_or(&[]) {
                    if let Some(dx) = self.dist.get(x.t as usize) {
                        crate::csr::prefetch(dx);
                    }
                }
            }
            let lo = offsets[u as usize] as usize;
            let hi = offsets[u as usize + 1] as usize;
            for a in &adj[lo..hi] {
                let g2 = du + a.w;
                if g2 == f64::INFINITY {
                    continue;
                }
                let dv = &mut self.dist[a.t as usize];
                if !(g2 < *dv) {
                    continue;
                }
                *dv = g2;
                self.parent[a.t as usize] = u;
                self.heap.push(g2, a.t);
                if let Some(x) = adj.get(offsets[a.t as usize] as usize) {
                    crate::csr::prefetch(x);
                }
            }
        }
        &self.dist
    }
}

impl Landmarks {
    /// Picks `min(count, N)` distinct landmarks of `graph` and stores every node's distance from
    /// and to each. Fails with `invalid_landmark_count` (count 0), then `empty_graph`, then
    /// `too_many_nodes` when the table would exceed [`MAX_LANDMARK_ENTRIES`] per direction
    /// (before allocating it).
    ///
    /// ```
    /// use onepath::{CsrGraph, GraphEdge, LandmarkOptions, Landmarks};
    ///
    /// // A directed ring 0 -> 1 -> 2 -> 3 -> 0 of weight 1 per edge.
    /// let ring: Vec<GraphEdge> = (0..4).map(|i| GraphEdge::new(i, (i + 1) % 4, 1.0)).collect();
    /// let csr = CsrGraph::new(4, &ring).unwrap();
    /// // More landmarks than nodes: every node becomes one.
    /// let table = Landmarks::build(&csr, &LandmarkOptions { count: 9, ..Default::default() })
    ///     .unwrap();
    /// assert_eq!(table.count(), 4);
    /// // With every node a landmark the bound is exact: d(1, 0) = 3 around the ring.
    /// assert_eq!(table.lower_bound(1, 0), 3.0);
    /// // The bytes round-trip against the same graph.
    /// let back = Landmarks::deserialize(&table.serialize(), &csr).unwrap();
    /// assert_eq!(back.serialize(), table.serialize());
    /// assert!(Landmarks::build(&csr, &LandmarkOptions { count: 0, ..Default::default() })
    ///     .is_err());
    /// ```
    ///
    /// [GRAPH.ALT.COUNT] [GRAPH.ALT.LIMIT] [GRAPH.ALT.ROOTS] [GRAPH.ALT.FALLBACK]
    pub fn build(graph: &CsrGraph, options: &LandmarkOptions) -> Result<Landmarks, BuildError> {
        if options.count < 1 {
            return Err(BuildError::new(BuildKind::InvalidLandmarkCount {
                count: options.count,
            }));
        }
        let n = graph.node_count();
        if n == 0 {
            return Err(BuildError::new(BuildKind::EmptyGraph));
        }
        let k = options.count.min(n);
        fits(k, n)?;
        let mut t = Landmarks {
            n,
            k,
            fingerprint: graph.fingerprint(),
            ids: Vec::with_capacity(k),
            data: vec![0.0; n * 2 * k],
        };
        let mut rng = SeededRandom::new(options.seed);
        let mut is_landmark = vec![false; n];
        let mut tree = Tree::default();
        let (fo, fa) = (graph.offsets(), graph.fwd_arcs());
        let (ro, ra) = (graph.reverse_offsets(), graph.bwd_arcs());
        for slot in 0..k {
            let r = rng.next_int(n as u32);
            let chosen = match options.strategy {
                LandmarkStrategy::Farthest => t.farthest(slot, r, fo, fa, &is_landmark, &mut tree),
                LandmarkStrategy::Avoid => t.avoid(slot, r, fo, fa, &is_landmark, &mut tree),
            };
            let l = match chosen {
                Some(l) => l,
                // [GRAPH.ALT.FALLBACK]
                None => (0..n as u32)
                    .find(|&v| !is_landmark[v as usize])
                    .expect("k <= N"),
            };
            is_landmark[l as usize] = true;
            t.ids.push(l);
            for (v, &x) in tree.run(n, fo, fa, l, None).iter().enumerate() {
                t.data[v * 2 * k + slot] = x;
            }
            for (v, &x) in tree.run(n, ro, ra, l, None).iter().enumerate() {
                t.data[v * 2 * k + k + slot] = x;
            }
        }
        Ok(t)
    }

    /// [GRAPH.ALT.FARTHEST] The farthest candidate for `slot`, or `None`.
    fn farthest(
        &self,
        slot: usize,
        r: u32,
        fo: &[u32],
        fa: &[Arc],
        is_landmark: &[bool],
        tree: &mut Tree,
    ) -> Option<u32> {
        let n = self.n;
        let mut best: Option<(u32, f64)> = None;
        if slot == 0 {
            let d = tree.run(n, fo, fa, r, None);
            for (v, &dv) in d.iter().enumerate() {
                if dv != f64::INFINITY && dv > 0.0 && best.is_none_or(|(_, b)| dv > b) {
                    best = Some((v as u32, dv));
                }
            }
        } else {
            let k = self.k();
            for v in 0..n {
                if is_landmark[v] {
                    continue;
                }
                let mut m: Option<f64> = None;
                for l in 0..slot {
                    let x = self.data[v * 2 * k + l];
                    if x != f64::INFINITY {
                        m = Some(match m {
                            Some(a) if !(x < a) => a,
                            _ => x,
                        });
                    }
                }
                if let Some(m) = m {
                    if m > 0.0 && best.is_none_or(|(_, b)| m > b) {
                        best = Some((v as u32, m));
                    }
                }
            }
        }
        best.map(|(v, _)| v)
    }

    /// [GRAPH.ALT.AVOID] The avoid candidate for `slot`, or `None`.
    fn avoid(
        &self,
        slot: usize,
        r: u32,
        fo: &[u32],
        fa: &[Arc],
        is_landmark: &[bool],
        tree: &mut Tree,
    ) -> Option<u32> {
        let n = self.n;
        let mut order = Vec::new();
        tree.run(n, fo, fa, r, Some(&mut order));
        let (d, parent) = (&tree.dist, &tree.parent);
        let mut size = vec![0.0f64; n];
        let mut blocked = vec![false; n];
        // Each reached node's own size and flag, in node order (each depends on its node only;
        // the settle order would read the table rows at random).
        for v in 0..n {
            if d[v] != f64::INFINITY {
                size[v] = d[v] - self.bound_with(slot, r, v as u32);
                blocked[v] = is_landmark[v];
            }
        }
        for &v in order.iter().rev() {
            if v == r {
                continue;
            }
            let p = parent[v as usize] as usize;
            size[p] += size[v as usize];
            if blocked[v as usize] {
                blocked[p] = true;
            }
        }
        // Best tree child of every node: greatest size, ties smaller id.
        let mut best_child = vec![NO_PARENT; n];
        let mut reached = vec![false; n];
        for &v in &order {
            reached[v as usize] = true;
        }
        for v in 0..n {
            if !reached[v] || v as u32 == r {
                continue;
            }
            let p = parent[v] as usize;
            let b = best_child[p];
            if b == NO_PARENT || size[v] > size[b as usize] {
                best_child[p] = v as u32;
            }
        }
        let mut top: Option<u32> = None;
        for v in 0..n {
            if reached[v]
                && !blocked[v]
                && size[v] > 0.0
                && top.is_none_or(|t| size[v] > size[t as usize])
            {
                top = Some(v as u32);
            }
        }
        let mut x = top?;
        while best_child[x as usize] != NO_PARENT {
            x = best_child[x as usize];
        }
        Some(x)
    }

    /// [GRAPH.ALT.BOUND] over the first `count` landmarks.
    #[inline(always)]
    fn bound_with(&self, count: usize, u: u32, v: u32) -> f64 {
        let k = self.k();
        let bu = u as usize * 2 * k;
        let bv = v as usize * 2 * k;
        let mut best = 0.0f64;
        for l in 0..count {
            let fu = self.data[bu + l];
            if fu != f64::INFINITY {
                let a = self.data[bv + l] - fu;
                if a > best {
                    best = a;
                }
            }
            let bwv = self.data[bv + k + l];
            if bwv != f64::INFINITY {
                let b = self.data[bu + k + l] - bwv;
                if b > best {
                    best = b;
                }
            }
        }
        best
    }

    #[inline(always)]
    fn k(&self) -> usize {
        self.k
    }

    /// [GRAPH.ALT.COUNT] The landmark count `k`.
    pub fn count(&self) -> usize {
        self.ids.len()
    }

    /// [GRAPH.ALT.STALE] Node count of the graph the table was built on.
    pub fn node_count(&self) -> usize {
        self.n
    }

    /// [GRAPH.ALT.STALE] Fingerprint of the graph the table was built on.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// [GRAPH.ALT.TABLES] The landmark ids in slot order.
    pub fn ids(&self) -> &[u32] {
        &self.ids
    }

    /// [GRAPH.ALT.TABLES] `d(L_landmark, node)`; `+infinity` when unreachable or out of range.
    pub fn forward(&self, landmark: usize, node: u32) -> f64 {
        let k = self.k;
        if landmark >= self.ids.len() || node as usize >= self.n {
            return f64::NAN;
        }
        self.data[node as usize * 2 * k + landmark]
    }

    /// [GRAPH.ALT.TABLES] [GRAPH.ALT.ACCESSORS] `d(node, L_landmark)`; `+infinity` when unreachable, NaN out of range.
    pub fn backward(&self, landmark: usize, node: u32) -> f64 {
        let k = self.k;
        if landmark >= self.ids.len() || node as usize >= self.n {
            return f64::NAN;
        }
        self.data[node as usize * 2 * k + k + landmark]
    }

    /// [GRAPH.ALT.BOUND] The ALT lower bound of `d(from, to)`; `+0.0` for an out-of-range node.
    #[inline]
    pub fn lower_bound(&self, from: u32, to: u32) -> f64 {
        if from as usize >= self.n || to as usize >= self.n {
            return 0.0;
        }
        self.bound_with(self.ids.len(), from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_boundary() {
        let per16 = MAX_LANDMARK_ENTRIES / 16;
        assert!(fits(16, per16).is_ok());
        assert!(fits(1, MAX_LANDMARK_ENTRIES).is_ok());
        assert!(fits(4, crate::MAX_NODES).is_ok());
        for (k, n) in [
            (16, per16 + 1),
            (16, crate::MAX_NODES),
            (1, MAX_LANDMARK_ENTRIES + 1),
            (usize::MAX, 3),
        ] {
            let e = fits(k, n).unwrap_err();
            assert_eq!(e.class(), "too_many_nodes");
            assert_eq!(e.index(), None);
        }
    }
}
