//! [HPA.INTRA] The chunk search (a plain Dijkstra restricted to one chunk's cells) and the
//! intra-chunk edges it gives (spec/hpa.md §4).

use std::collections::BTreeMap;

use super::chunks::Chunks;
use crate::astar::parent_chain;
use crate::grid_search::moves::{Terrain, DIRS};
use crate::open_set::OpenSet;

/// [HPA.INTRA.SEARCH] The result of one chunk search: per cell of the chunk (local index
/// `(y - y0) * (x1 - x0) + (x - x0)`), its final `g` and parent.
pub(crate) struct ChunkTree {
    bounds: (usize, usize, usize, usize),
    width: usize,
    g: Vec<f64>,
    parent: Vec<Option<u32>>,
    reached: Vec<bool>,
}

impl ChunkTree {
    /// The local index of grid cell `c`, when it lies in the chunk.
    fn local(&self, c: u32) -> Option<usize> {
        let (x0, y0, x1, y1) = self.bounds;
        let (x, y) = (c as usize % self.width, c as usize / self.width);
        if x < x0 || x >= x1 || y < y0 || y >= y1 {
            return None;
        }
        Some((y - y0) * (x1 - x0) + (x - x0))
    }

    /// The grid index of local index `l`.
    fn global(&self, l: usize) -> u32 {
        let (x0, y0, x1, _) = self.bounds;
        let cw = x1 - x0;
        ((y0 + l / cw) * self.width + x0 + l % cw) as u32
    }

    /// [HPA.INTRA.SEARCH] The chunk cost of cell `c` (`None` when unreached or outside).
    pub(crate) fn cost(&self, c: u32) -> Option<f64> {
        let l = self.local(c)?;
        self.reached[l].then_some(self.g[l])
    }

    /// [HPA.INTRA.SEARCH] [GRAPH.ASTAR.PATH] The chunk path to `c` (grid indexes, source first),
    /// or `None` when unreached.
    pub(crate) fn path(&self, c: u32) -> Option<Vec<u32>> {
        let l = self.local(c)?;
        if !self.reached[l] {
            return None;
        }
        Some(
            parent_chain(&self.parent, l as u32)
                .into_iter()
                .map(|v| self.global(v as usize))
                .collect(),
        )
    }
}

/// [HPA.INTRA.SEARCH] [GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.FIRST_PARENT] [STATE.HEAP.ARRAY] The
/// chunk search from cell `from` over the cells of `chunk`: zero estimate (`f = g`), allowed moves
/// in neighbour order whose target is in the chunk, costs [HPA.MOVE], strict improvement only,
/// reopening as graph A*; it runs until the open set is empty.
pub(crate) fn intra_search(t: &Terrain<'_>, ch: &Chunks, chunk: u32, from: u32) -> ChunkTree {
    let bounds = ch.bounds(chunk);
    let (x0, y0, x1, y1) = bounds;
    let n = (x1 - x0) * (y1 - y0);
    let mut tree = ChunkTree {
        bounds,
        width: ch.width,
        g: vec![f64::INFINITY; n],
        parent: vec![None; n],
        reached: vec![false; n],
    };
    let mut open = OpenSet::new(n);
    let Some(s) = tree.local(from) else {
        return tree;
    };
    tree.g[s] = 0.0;
    tree.reached[s] = true;
    open.push(s as u32, 0.0, 0.0);
    while let Some(entry) = open.pop() {
        // A popped cell is closed; with no negative cost it never improves again, so the
        // closed flags of [GRAPH.ASTAR.EXPAND] (cleared on reopening) change nothing here.
        let ul = entry.node as usize;
        let u = tree.global(ul);
        let pu = t.xy(u);
        for d in DIRS {
            if !t.move_allowed(pu, d) {
                continue;
            }
            let v = t.index((pu.0 + d.0, pu.1 + d.1));
            let Some(vl) = tree.local(v) else {
                continue;
            };
            let Some(c) = t.move_cost(u, v, d.0 != 0 && d.1 != 0) else {
                continue;
            };
            let g2 = tree.g[ul] + c;
            if g2 == f64::INFINITY {
                continue;
            }
            if !tree.reached[vl] || g2 < tree.g[vl] {
                tree.g[vl] = g2;
                tree.parent[vl] = Some(ul as u32);
                tree.reached[vl] = true;
                open.push(vl as u32, g2, g2);
            }
        }
    }
    tree
}

/// [HPA.INTRA.EDGE] [HPA.INTRA.COST] The intra-chunk edges of `chunk` over its node cells
/// `nodes` (ascending): for each ordered pair of distinct nodes `a -> b` that the chunk search
/// from `a` reaches, `b`'s chunk cost and chunk path, keyed by `(a, b)` cells.
pub(crate) fn intra_edges(
    t: &Terrain<'_>,
    ch: &Chunks,
    chunk: u32,
    nodes: &[u32],
) -> BTreeMap<(u32, u32), (f64, Vec<u32>)> {
    let mut edges = BTreeMap::new();
    for &a in nodes {
        let tree = intra_search(t, ch, chunk, a);
        for &b in nodes {
            if a == b {
                continue;
            }
            if let (Some(c), Some(p)) = (tree.cost(b), tree.path(b)) {
                edges.insert((a, b), (c, p));
            }
        }
    }
    edges
}
