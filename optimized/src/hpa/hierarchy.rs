//! [HPA.INSPECT.NODES] .. [HPA.REFRESH.EQUAL] The hierarchy: what it was built from, its nodes
//! and edges (flat, sorted by source then target, with the stored paths in one cell buffer),
//! the lazy build and the dirty-chunk refresh.

use super::chunks::{entrance_pairs, inter_edges, node_cells, Tiling};
use super::intra::ChunkSearch;
use super::runs::LineRuns;
use super::{move_options, validate, HpaEdge, HpaEdgeKind, HpaNode, HpaOptions};
use crate::grid_search::{Ctx, GridSearchError};
use crate::plane::Grid;

/// An intra-chunk edge by cells, kept per chunk across partial refreshes.
#[derive(Clone, Debug)]
struct CellEdge {
    from: u32,
    to: u32,
    cost: f64,
    path: Vec<u32>,
}

/// [HPA.BUILD.LAZY] An HPA* hierarchy: empty until the first refresh.
pub struct HpaHierarchy {
    options: HpaOptions,
    built: bool,
    /// [HPA.REFRESH.WHEN] What the last build read.
    size: (usize, usize),
    restore_count: u64,
    multipliers: Vec<u64>,
    cells: Vec<u8>,
    tiling: Tiling,
    /// [HPA.NODE.ID] Node cells, ascending; their chunks.
    pub(crate) node_cell: Vec<u32>,
    node_chunk: Vec<u32>,
    /// Per chunk: its node cells (for the dirty rule) and its intra edges.
    chunk_nodes: Vec<Vec<u32>>,
    chunk_edges: Vec<Vec<CellEdge>>,
    /// [HPA.INSPECT.EDGES] Edges sorted by `(from, to)`; `first[v]..first[v + 1]` are `v`'s.
    pub(crate) edges: Vec<HpaEdge>,
    pub(crate) first: Vec<u32>,
    /// Stored path of edge `i`: `path_cells[path_at[i]..path_at[i + 1]]`.
    path_at: Vec<u32>,
    path_cells: Vec<u32>,
    rebuilt: Vec<u32>,
    pub(crate) search: ChunkSearch,
    /// With `smooth`: the clear runs of the grid as last built or refreshed.
    pub(crate) runs: LineRuns,
}

impl HpaHierarchy {
    /// [HPA.OPT.VALID] [HPA.BUILD.LAZY] A hierarchy that holds nothing yet.
    pub fn new(options: HpaOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        Ok(HpaHierarchy {
            options,
            built: false,
            size: (0, 0),
            restore_count: 0,
            multipliers: Vec::new(),
            cells: Vec::new(),
            tiling: Tiling::default(),
            node_cell: Vec::new(),
            node_chunk: Vec::new(),
            chunk_nodes: Vec::new(),
            chunk_edges: Vec::new(),
            edges: Vec::new(),
            first: vec![0],
            path_at: vec![0],
            path_cells: Vec::new(),
            rebuilt: Vec::new(),
            search: ChunkSearch::default(),
            runs: LineRuns::default(),
        })
    }

    /// [HPA.OPT.FIELDS] The options.
    pub fn options(&self) -> &HpaOptions {
        &self.options
    }

    /// [HPA.INSPECT.UNBUILT] Whether a refresh has run.
    pub fn is_built(&self) -> bool {
        self.built
    }

    /// [HPA.CHUNK.TILING] `(chunks_x, chunks_y)` of the last build; `(0, 0)` before.
    pub fn chunks(&self) -> (usize, usize) {
        (self.tiling.cx, self.tiling.cy)
    }

    /// [HPA.INSPECT.NODES] The permanent nodes in id order.
    pub fn nodes(&self) -> Vec<HpaNode> {
        self.node_cell
            .iter()
            .zip(&self.node_chunk)
            .map(|(&cell, &chunk)| HpaNode { cell, chunk })
            .collect()
    }

    /// [HPA.INSPECT.EDGES] Every edge between permanent nodes, by `from`, then `to`.
    pub fn edges(&self) -> Vec<HpaEdge> {
        self.edges.clone()
    }

    /// [HPA.INSPECT.EDGES] The stored path of edge `from -> to`, if there is one.
    pub fn edge_path(&self, from: u32, to: u32) -> Option<Vec<u32>> {
        self.edge_index(from, to).map(|i| self.path(i).to_vec())
    }

    /// [DEBUG.HPA.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] The hierarchy of the last build as plain
    /// data; the nodes' world points are read on `grid`.
    pub fn describe(&self, grid: &Grid) -> crate::debug::HierarchyDescription {
        let plane = crate::debug::Plane::new(grid.space(), grid.width());
        let edges = self
            .edges
            .iter()
            .enumerate()
            .map(|(i, e)| crate::debug::HierarchyEdgeDescription {
                from: e.from,
                to: e.to,
                cost: e.cost,
                kind: e.kind,
                path: self.path(i).to_vec(),
            })
            .collect();
        crate::debug::HierarchyDescription {
            built: self.is_built(),
            chunk_size: self.options().chunk_size,
            chunks: self.chunks(),
            nodes: self.nodes(),
            node_points: plane.all(&self.node_cell),
            edges,
        }
    }

    /// [HPA.REFRESH.REBUILT] The chunks whose intra edges the last refresh recomputed.
    pub fn rebuilt_chunks(&self) -> &[u32] {
        &self.rebuilt
    }

    /// The index of edge `from -> to` in `edges`.
    pub(crate) fn edge_index(&self, from: u32, to: u32) -> Option<usize> {
        let f = from as usize;
        if f + 1 >= self.first.len() {
            return None;
        }
        let (lo, hi) = (self.first[f] as usize, self.first[f + 1] as usize);
        self.edges[lo..hi]
            .binary_search_by_key(&to, |e| e.to)
            .ok()
            .map(|k| lo + k)
    }

    /// The stored path of edge `i`.
    pub(crate) fn path(&self, i: usize) -> &[u32] {
        &self.path_cells[self.path_at[i] as usize..self.path_at[i + 1] as usize]
    }

    /// The chunk of cell `c` in the current tiling.
    pub(crate) fn chunk_of(&self, c: u32) -> u32 {
        self.tiling.chunk_of(c)
    }

    /// The tiling of the last build.
    pub(crate) fn tiling(&self) -> Tiling {
        self.tiling
    }

    /// Node ids of chunk `k`, ascending.
    pub(crate) fn nodes_of(&self, k: u32) -> impl Iterator<Item = u32> + '_ {
        let cells = &self.chunk_nodes[k as usize];
        cells.iter().map(move |c| {
            self.node_cell
                .binary_search(c)
                .expect("a chunk's node is a node") as u32
        })
    }

    /// [HPA.BUILD.LAZY] [HPA.REFRESH.WHEN] [HPA.REFRESH.RESTORE] [HPA.REFRESH.DIRTY]
    /// [HPA.REFRESH.REBUILT] Brings the hierarchy up to date with `grid`: a full rebuild when it
    /// was never built or the size, restore count or a multiplier's bits changed, else a partial
    /// refresh that recomputes the intra edges of the dirty chunks only.
    pub fn refresh(&mut self, grid: &Grid) {
        let (w, h) = (grid.width(), grid.height());
        let multipliers: Vec<u64> = (0..255u8)
            .map(|a| grid.area_multiplier(a).unwrap_or(1.0).to_bits())
            .collect();
        let full = !self.built
            || self.size != (w, h)
            || self.restore_count != grid.restore_count()
            || self.multipliers != multipliers;
        // A partial refresh with no changed cell has no dirty chunk and finds the same entrances
        // (they are a function of the cells): nothing to recompute.
        if !full && grid.cells() == &self.cells[..] {
            self.rebuilt.clear();
            return;
        }
        let ctx = Ctx::new(grid, move_options(&self.options)).expect("agent size 1, weight 1");
        if self.options.smooth {
            self.runs.rebuild(&ctx);
        }
        let t = Tiling::new(w, h, self.options.chunk_size as usize);
        let pairs = entrance_pairs(&ctx, &t);
        let node_cell = node_cells(&pairs);
        let mut chunk_nodes = vec![Vec::new(); t.count()];
        for &c in &node_cell {
            chunk_nodes[t.chunk_of(c) as usize].push(c);
        }
        let cells = grid.cells();
        let mut dirty = vec![full; t.count()];
        if !full {
            for (i, (&a, &b)) in cells.iter().zip(&self.cells).enumerate() {
                if a != b {
                    dirty[t.chunk_of(i as u32) as usize] = true;
                }
            }
            for k in 0..t.count() {
                if chunk_nodes[k] != self.chunk_nodes[k] {
                    dirty[k] = true;
                }
            }
        }
        if full {
            self.chunk_edges = vec![Vec::new(); t.count()];
        }
        self.rebuilt.clear();
        for k in 0..t.count() {
            if !dirty[k] {
                continue;
            }
            self.rebuilt.push(k as u32);
            let mut out = Vec::new();
            for &a in &chunk_nodes[k] {
                self.search.run(&ctx, &t, k as u32, a);
                for &b in &chunk_nodes[k] {
                    if b == a {
                        continue;
                    }
                    if let Some(cost) = self.search.cost(b) {
                        out.push(CellEdge {
                            from: a,
                            to: b,
                            cost,
                            path: self.search.path(b),
                        });
                    }
                }
            }
            self.chunk_edges[k] = out;
        }
        // Renumber ([HPA.NODE.ID]) and flatten, sorted by (from, to).
        let id = |c: u32| node_cell.binary_search(&c).expect("an edge joins nodes") as u32;
        let mut all: Vec<(u32, u32, f64, HpaEdgeKind, Vec<u32>)> = Vec::new();
        for list in &self.chunk_edges {
            for e in list {
                all.push((
                    id(e.from),
                    id(e.to),
                    e.cost,
                    HpaEdgeKind::Intra,
                    e.path.clone(),
                ));
            }
        }
        for (a, b, cost) in inter_edges(&ctx, &pairs) {
            all.push((id(a), id(b), cost, HpaEdgeKind::Inter, vec![a, b]));
        }
        all.sort_unstable_by_key(|e| (e.0, e.1));
        self.edges.clear();
        self.path_at.clear();
        self.path_cells.clear();
        self.path_at.push(0);
        self.first = vec![0; node_cell.len() + 1];
        for (from, to, cost, kind, path) in all {
            self.first[from as usize + 1] += 1;
            self.edges.push(HpaEdge {
                from,
                to,
                cost,
                kind,
            });
            self.path_cells.extend_from_slice(&path);
            self.path_at.push(self.path_cells.len() as u32);
        }
        for v in 0..node_cell.len() {
            self.first[v + 1] += self.first[v];
        }
        self.node_chunk = node_cell.iter().map(|&c| t.chunk_of(c)).collect();
        self.node_cell = node_cell;
        self.chunk_nodes = chunk_nodes;
        self.tiling = t;
        self.size = (w, h);
        self.restore_count = grid.restore_count();
        self.multipliers = multipliers;
        self.cells.clear();
        self.cells.extend_from_slice(cells);
        self.built = true;
    }
}
