//! The mutable graph: [GRAPH.MUT.NODES] .. [GRAPH.MUT.FROM_ERRORS].

use crate::csr::{check_edge, CsrGraph};
use crate::error::{BuildError, BuildKind};
use crate::landmarks::{LandmarkOptions, Landmarks};
use crate::tier1::{query, GraphOptions, GraphPath, Pool};
use crate::values::{store_weight, weight_ok};
use crate::{GraphEdge, QueryError, MAX_NODES};
use std::sync::OnceLock;

/// [GRAPH.MUT.NODES] [GRAPH.MUT.EDGE_ID] [GRAPH.MUT.COMPILE] An editable graph with stable edge
/// ids and a lazily compiled CSR form (Send + Sync; edits need `&mut`).
pub struct Graph {
    pub(crate) node_count: usize,
    pub(crate) edges: Vec<GraphEdge>,
    pub(crate) alive: Vec<bool>,
    pub(crate) compiled: OnceLock<CsrGraph>,
    pool: Pool,
}

fn too_many(requested: u64) -> BuildError {
    BuildError::new(BuildKind::TooManyNodes { requested })
}

impl Graph {
    /// [GRAPH.MUT.NODES] `n` isolated nodes (`n <= 2^26`, else `too_many_nodes`).
    pub fn new(node_count: usize) -> Result<Graph, BuildError> {
        if node_count > MAX_NODES {
            return Err(too_many(node_count as u64));
        }
        Ok(Graph {
            node_count,
            edges: Vec::new(),
            alive: Vec::new(),
            compiled: OnceLock::new(),
            pool: Pool::default(),
        })
    }

    /// [GRAPH.MUT.FROM] [GRAPH.MUT.FROM_COUNT] [GRAPH.MUT.SELF_LOOP] [GRAPH.MUT.FROM_ERRORS]
    /// Adds every input edge (and, unless `directed`, its reverse right after it). The node count
    /// is resolved and limit-checked first; then edges are checked in input order (from, to,
    /// weight), errors naming the input index.
    pub fn from_edges(
        edges: &[GraphEdge],
        node_count: Option<usize>,
        directed: bool,
    ) -> Result<Graph, BuildError> {
        let n = match node_count {
            Some(n) => n,
            None => edges
                .iter()
                .map(|e| e.from.max(e.to) as usize + 1)
                .max()
                .unwrap_or(0),
        };
        if n > MAX_NODES {
            return Err(too_many(n as u64));
        }
        // [GRAPH.CSR.EDGE_LIMIT]: the edge count is checked before any edge.
        let total = if directed {
            edges.len()
        } else {
            edges.len().saturating_mul(2)
        };
        if total > u32::MAX as usize {
            return Err(BuildError::new(BuildKind::TooManyEdges {
                requested: total as u64,
            }));
        }
        for (i, e) in edges.iter().enumerate() {
            check_edge(i, e, n)?;
        }
        let mut g = Graph::new(n)?;
        g.edges.reserve_exact(total);
        for e in edges {
            let w = store_weight(e.weight);
            g.edges.push(GraphEdge::new(e.from, e.to, w));
            if !directed {
                g.edges.push(GraphEdge::new(e.to, e.from, w));
            }
        }
        g.alive = vec![true; g.edges.len()];
        Ok(g)
    }

    /// [GRAPH.MUT.NODES] The current node count.
    pub fn node_count(&self) -> usize {
        self.node_count
    }

    /// [GRAPH.MUT.EDGE_ID] The number of edges ever added (removed ones included).
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// [GRAPH.MUT.EDGE_ID] Edge `id` and whether it is alive; `None` for an unknown id.
    pub fn edge(&self, id: u32) -> Option<(GraphEdge, bool)> {
        let i = id as usize;
        Some((*self.edges.get(i)?, self.alive[i]))
    }

    /// [GRAPH.MUT.ADD_NODE] Appends a node and returns its id (`too_many_nodes` at `2^26`).
    pub fn add_node(&mut self) -> Result<u32, BuildError> {
        if self.node_count >= MAX_NODES {
            return Err(too_many(self.node_count as u64 + 1));
        }
        self.node_count += 1;
        self.compiled = OnceLock::new();
        Ok(self.node_count as u32 - 1)
    }

    /// [GRAPH.MUT.ADD_EDGE] Adds `from -> to` with `weight`, validated like
    /// [GRAPH.CSR.VALIDATE] and naming the id it would get; on error nothing is added.
    pub fn add_edge(&mut self, from: u32, to: u32, weight: f64) -> Result<u32, BuildError> {
        let id = self.edges.len();
        let e = GraphEdge::new(from, to, weight);
        check_edge(id, &e, self.node_count)?;
        if id >= u32::MAX as usize {
            return Err(BuildError::new(BuildKind::TooManyEdges {
                requested: id as u64 + 1,
            }));
        }
        self.edges
            .push(GraphEdge::new(from, to, store_weight(weight)));
        self.alive.push(true);
        self.compiled = OnceLock::new();
        Ok(id as u32)
    }

    /// [GRAPH.MUT.EDIT_ERRORS] `unknown_edge` then `removed_edge`.
    fn live(&self, id: u32) -> Result<usize, BuildError> {
        let i = id as usize;
        if i >= self.edges.len() {
            return Err(BuildError::new(BuildKind::UnknownEdge {
                id,
                edge_count: self.edges.len(),
            }));
        }
        if !self.alive[i] {
            return Err(BuildError::new(BuildKind::RemovedEdge { id }));
        }
        Ok(i)
    }

    /// [GRAPH.MUT.EDIT] [GRAPH.MUT.EDIT_ERRORS] Removes edge `id` (its id is never reused).
    pub fn remove_edge(&mut self, id: u32) -> Result<(), BuildError> {
        let i = self.live(id)?;
        self.alive[i] = false;
        self.compiled = OnceLock::new();
        Ok(())
    }

    /// [GRAPH.MUT.EDIT] [GRAPH.MUT.EDIT_ERRORS] Re-weights edge `id`; the id checks precede the
    /// weight check.
    pub fn set_weight(&mut self, id: u32, weight: f64) -> Result<(), BuildError> {
        let i = self.live(id)?;
        if !weight_ok(weight) {
            return Err(BuildError::new(BuildKind::InvalidWeight {
                index: i,
                bits: weight.to_bits(),
            }));
        }
        self.edges[i].weight = store_weight(weight);
        self.compiled = OnceLock::new();
        Ok(())
    }

    /// [GRAPH.MUT.EDIT] [GRAPH.MUT.ADD_NODE] Whether the next query must recompile.
    pub fn is_stale(&self) -> bool {
        self.compiled.get().is_none()
    }

    /// [GRAPH.MUT.COMPILE] The CSR form of the live edges in id order, rebuilt lazily.
    pub fn compile(&self) -> &CsrGraph {
        self.compiled.get_or_init(|| {
            let live: Vec<GraphEdge> = self
                .edges
                .iter()
                .zip(&self.alive)
                .filter(|(_, &a)| a)
                .map(|(e, _)| *e)
                .collect();
            CsrGraph::build_unchecked(self.node_count, &live)
        })
    }

    /// Answers one query from `start` to `goal` (compiling the graph first when an edit made it
    /// stale) with the options' algorithm, hooks, landmarks and budget. Errors: a node out of
    /// range, stale landmarks; no path is a `NotFound` result, not an error.
    ///
    /// ```
    /// use onepath::{Algorithm, Graph, GraphEdge, GraphOptions, PathStatus};
    ///
    /// // Directed: 0 -> 1 -> 3 costs 1 + 1, 0 -> 2 -> 3 costs 1 + 3.
    /// let mut graph = Graph::from_edges(
    ///     &[GraphEdge::new(0, 1, 1.0), GraphEdge::new(1, 3, 1.0),
    ///       GraphEdge::new(0, 2, 1.0), GraphEdge::new(2, 3, 3.0)],
    ///     None,
    ///     true,
    /// ).unwrap();
    /// let path = graph.find_path(0, 3, &GraphOptions::default()).unwrap();
    /// assert_eq!((path.status, path.cost), (PathStatus::Found, 2.0));
    /// assert_eq!(path.nodes, vec![0, 1, 3]);
    /// // No edge leads back to 0.
    /// assert_eq!(graph.find_path(3, 0, &GraphOptions::default()).unwrap().status,
    ///            PathStatus::NotFound);
    /// // An edit is seen by the next query: make 1 -> 3 (edge id 1) expensive.
    /// graph.set_weight(1, 10.0).unwrap();
    /// let dijkstra = GraphOptions { algorithm: Algorithm::Dijkstra, ..Default::default() };
    /// let path = graph.find_path(0, 3, &dijkstra).unwrap();
    /// assert_eq!((path.nodes, path.cost), (vec![0, 2, 3], 4.0));
    /// ```
    ///
    /// [GRAPH.T1.CHECKS] [GRAPH.T1.POOL]
    pub fn find_path(
        &self,
        start: u32,
        goal: u32,
        options: &GraphOptions,
    ) -> Result<GraphPath, QueryError> {
        query(self.compile(), None, &self.pool, start, goal, options)
    }

    /// [GRAPH.ALT.COUNT] Builds a landmark table on the compiled graph.
    pub fn build_landmarks(&self, options: &LandmarkOptions) -> Result<Landmarks, BuildError> {
        Landmarks::build(self.compile(), options)
    }
}
