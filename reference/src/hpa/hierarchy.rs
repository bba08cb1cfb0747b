//! [HPA.BUILD] [HPA.REFRESH] [HPA.INSPECT] The hierarchy: its lazy build, the dirty-chunk
//! refresh and the inspection rows (spec/hpa.md §5–§6).

use std::collections::BTreeMap;

use super::chunks::{border_pairs, ent_diagonal, inter_edges, node_set, Chunks};
use super::intra::intra_edges;
use super::{terrain, validate, HpaEdge, HpaEdgeKind, HpaNode, HpaOptions};
use crate::debug::{square_points, HierarchyDescription, HierarchyEdgeDescription};
use crate::grid::{Grid, AREA_COUNT};
use crate::grid_search::GridSearchError;

/// [HPA.INTRA.EDGE] One chunk's node cells (ascending) and its intra-chunk edges keyed by
/// `(from cell, to cell)`, with cost and stored path.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ChunkEdges {
    pub(crate) nodes: Vec<u32>,
    pub(crate) edges: BTreeMap<(u32, u32), (f64, Vec<u32>)>,
}

/// [HPA.REFRESH.WHEN] What a hierarchy was built from, and what it holds.
#[derive(Clone, Debug)]
pub(crate) struct Built {
    width: usize,
    height: usize,
    restore_count: u64,
    multipliers: Vec<u64>,
    cells: Vec<u8>,
    pub(crate) chunks: Chunks,
    /// [HPA.NODE.ID] The node cells in ascending order (node id = position).
    pub(crate) node_cells: Vec<u32>,
    /// [HPA.INTER.EDGE] Keyed by `(from cell, to cell)`.
    pub(crate) inter: BTreeMap<(u32, u32), f64>,
    /// [HPA.INTRA.EDGE] Per chunk id.
    pub(crate) intra: Vec<ChunkEdges>,
}

impl Built {
    /// [HPA.NODE.ID] The id of the node on `cell`.
    pub(crate) fn node_id(&self, cell: u32) -> Option<u32> {
        self.node_cells.binary_search(&cell).ok().map(|i| i as u32)
    }

    /// [HPA.INSPECT.EDGES] Every edge as `(from id, to id, cost, kind, stored path)`, sorted by
    /// `from`, then `to`.
    pub(crate) fn edge_rows(&self) -> Vec<(u32, u32, f64, HpaEdgeKind, Vec<u32>)> {
        let mut rows = Vec::new();
        for (&(a, b), &c) in &self.inter {
            if let (Some(i), Some(j)) = (self.node_id(a), self.node_id(b)) {
                rows.push((i, j, c, HpaEdgeKind::Inter, vec![a, b]));
            }
        }
        for ce in &self.intra {
            for (&(a, b), (c, p)) in &ce.edges {
                if let (Some(i), Some(j)) = (self.node_id(a), self.node_id(b)) {
                    rows.push((i, j, *c, HpaEdgeKind::Intra, p.clone()));
                }
            }
        }
        rows.sort_by_key(|r| (r.0, r.1));
        rows
    }
}

/// [HPA.REFRESH.WHEN] The bits of the 255 multipliers.
fn multiplier_bits(grid: &Grid) -> Vec<u64> {
    (0..AREA_COUNT)
        .map(|a| grid.area_multiplier(a as u8).unwrap_or(0.0).to_bits())
        .collect()
}

/// [HPA.BUILD.LAZY] [HPA.INSPECT] An HPA* hierarchy: abstract nodes on entrance cells, intra-
/// and inter-chunk edges. It borrows no grid; it records what it was built from and refreshes
/// itself against the grid it is given ([HPA.REFRESH.WHEN]).
#[derive(Clone, Debug)]
pub struct HpaHierarchy {
    options: HpaOptions,
    pub(crate) built: Option<Built>,
    rebuilt: Vec<u32>,
}

impl HpaHierarchy {
    /// [HPA.OPT.VALID] [HPA.BUILD.LAZY] A hierarchy that holds nothing yet; fails with
    /// `invalid_options` (chunk size first, then the weight).
    pub fn new(options: HpaOptions) -> Result<Self, GridSearchError> {
        validate(&options)?;
        Ok(HpaHierarchy {
            options,
            built: None,
            rebuilt: Vec::new(),
        })
    }

    /// [HPA.OPT.FIELDS] The options.
    pub fn options(&self) -> &HpaOptions {
        &self.options
    }

    /// [HPA.INSPECT.UNBUILT] Whether it was ever built.
    pub fn is_built(&self) -> bool {
        self.built.is_some()
    }

    /// [HPA.CHUNK.TILING] `(chunks_x, chunks_y)` of the last build; `(0, 0)` before.
    pub fn chunks(&self) -> (usize, usize) {
        self.built
            .as_ref()
            .map_or((0, 0), |b| (b.chunks.count_x, b.chunks.count_y))
    }

    /// [HPA.INSPECT.NODES] The permanent nodes in id order, as `(cell, chunk)`.
    pub fn nodes(&self) -> Vec<HpaNode> {
        let Some(b) = &self.built else {
            return Vec::new();
        };
        b.node_cells
            .iter()
            .map(|&cell| HpaNode {
                cell,
                chunk: b.chunks.chunk_of(cell),
            })
            .collect()
    }

    /// [HPA.INSPECT.EDGES] Every edge between permanent nodes, by `from` then `to`.
    pub fn edges(&self) -> Vec<HpaEdge> {
        let Some(b) = &self.built else {
            return Vec::new();
        };
        b.edge_rows()
            .into_iter()
            .map(|(from, to, cost, kind, _)| HpaEdge {
                from,
                to,
                cost,
                kind,
            })
            .collect()
    }

    /// [DEBUG.HPA.FIELDS] [DEBUG.PLAIN] [DEBUG.TOTAL] The hierarchy as plain data, the nodes'
    /// world points read on `grid`.
    pub fn describe(&self, grid: &Grid) -> HierarchyDescription {
        let nodes = self.nodes();
        let cells: Vec<u32> = nodes.iter().map(|n| n.cell).collect();
        let edges = self
            .edges()
            .into_iter()
            .map(|e| HierarchyEdgeDescription {
                from: e.from,
                to: e.to,
                cost: e.cost,
                kind: e.kind,
                path: self.edge_path(e.from, e.to).unwrap_or_default(),
            })
            .collect();
        HierarchyDescription {
            built: self.is_built(),
            chunk_size: self.options().chunk_size,
            chunks: self.chunks(),
            node_points: square_points(grid.space(), grid.width(), &cells),
            nodes,
            edges,
        }
    }

    /// [HPA.INSPECT.EDGES] The stored path of the edge `from -> to`, or `None`.
    pub fn edge_path(&self, from: u32, to: u32) -> Option<Vec<u32>> {
        let b = self.built.as_ref()?;
        let (a, c) = (
            *b.node_cells.get(from as usize)?,
            *b.node_cells.get(to as usize)?,
        );
        if let Some(_cost) = b.inter.get(&(a, c)) {
            return Some(vec![a, c]);
        }
        let ce = &b.intra[b.chunks.chunk_of(a) as usize];
        ce.edges.get(&(a, c)).map(|(_, p)| p.clone())
    }

    /// [HPA.REFRESH.REBUILT] The chunks whose intra-chunk edges the last refresh recomputed,
    /// ascending.
    pub fn rebuilt_chunks(&self) -> &[u32] {
        &self.rebuilt
    }

    /// [HPA.REFRESH.WHEN] [HPA.REFRESH.RESTORE] [HPA.REFRESH.DIRTY] [HPA.REFRESH.EQUAL] Brings
    /// the hierarchy up to date with `grid`: a full rebuild when never built or the size,
    /// `restore_count` or a multiplier's bits differ; otherwise every entrance, node and
    /// inter-chunk edge from scratch, and the intra-chunk edges of the dirty chunks only.
    pub fn refresh(&mut self, grid: &Grid) {
        let t = terrain(grid, &self.options);
        let ch = Chunks::new(
            self.options.chunk_size as usize,
            grid.width(),
            grid.height(),
        );
        let multipliers = multiplier_bits(grid);
        let old = self.built.take().filter(|b| {
            b.width == grid.width()
                && b.height == grid.height()
                && b.restore_count == grid.restore_count()
                && b.multipliers == multipliers
        });
        // [HPA.REFRESH.DIRTY] Chunks holding a cell that differs from the recorded copy.
        let mut cells_changed = vec![old.is_none(); ch.count()];
        if let Some(b) = &old {
            for (c, (&now, &was)) in grid.cells().iter().zip(&b.cells).enumerate() {
                if now != was {
                    cells_changed[ch.chunk_of(c as u32) as usize] = true;
                }
            }
        }
        let mut pairs = border_pairs(&t, &ch);
        pairs.extend(ent_diagonal(&t, &ch));
        let node_cells = node_set(&pairs);
        let inter = inter_edges(&t, &pairs);
        let mut per_chunk: Vec<Vec<u32>> = vec![Vec::new(); ch.count()];
        for &c in &node_cells {
            per_chunk[ch.chunk_of(c) as usize].push(c);
        }
        let mut old_intra = old.map(|b| b.intra);
        let mut intra = Vec::with_capacity(ch.count());
        self.rebuilt.clear();
        for (k, nodes) in per_chunk.into_iter().enumerate() {
            let kept = old_intra
                .as_mut()
                .map(|v| std::mem::replace(&mut v[k], ChunkEdges::empty()))
                .filter(|ce| !cells_changed[k] && ce.nodes == nodes);
            match kept {
                Some(ce) => intra.push(ce),
                None => {
                    self.rebuilt.push(k as u32);
                    let edges = intra_edges(&t, &ch, k as u32, &nodes);
                    intra.push(ChunkEdges { nodes, edges });
                }
            }
        }
        self.built = Some(Built {
            width: grid.width(),
            height: grid.height(),
            restore_count: grid.restore_count(),
            multipliers,
            cells: grid.cells().to_vec(),
            chunks: ch,
            node_cells,
            inter,
            intra,
        });
    }
}

impl ChunkEdges {
    /// No nodes, no edges.
    fn empty() -> ChunkEdges {
        ChunkEdges {
            nodes: Vec::new(),
            edges: BTreeMap::new(),
        }
    }
}
