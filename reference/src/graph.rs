//! [GRAPH.MUT] The mutable graph of spec/graphs.md section 3, with its lazily compiled CSR form.

use std::sync::OnceLock;

use crate::csr::{store_weight, validate_edge, weight_is_valid, CsrGraph, GraphEdge, MAX_NODES};
use crate::error::{BuildError, QueryError};
use crate::landmarks::{LandmarkOptions, Landmarks};
use crate::options::{find_path_on, GraphOptions, GraphPath};

/// [GRAPH.MUT.NODES] [GRAPH.MUT.EDGE_ID] [GRAPH.MUT.COMPILE] A graph that can grow and be edited;
/// queries run on its compiled CSR form, rebuilt after every edit. `Send + Sync`.
pub struct Graph {
    pub(crate) node_count: usize,
    /// Every edge ever added, indexed by id, with its liveness flag.
    pub(crate) edges: Vec<(GraphEdge, bool)>,
    /// The compiled form; empty means stale.
    pub(crate) compiled: OnceLock<CsrGraph>,
}

impl Graph {
    /// [GRAPH.MUT.NODES] Creates `node_count` isolated nodes (`too_many_nodes` above `2^26`).
    pub fn new(node_count: usize) -> Result<Graph, BuildError> {
        if node_count > MAX_NODES {
            return Err(BuildError::too_many_nodes(node_count as u64));
        }
        Ok(Graph {
            node_count,
            edges: Vec::new(),
            compiled: OnceLock::new(),
        })
    }

    /// [GRAPH.MUT.FROM] [GRAPH.MUT.FROM_COUNT] [GRAPH.MUT.SELF_LOOP] [GRAPH.MUT.FROM_ERRORS] Builds a
    /// graph from an edge list: edge `i` gets id `i` (directed) or ids `2i`, `2i + 1` (undirected,
    /// the second being the reverse). The node count is checked first (`too_many_nodes`), then the
    /// edges in list order (from, to, weight), errors naming the input index `i`.
    pub fn from_edges(
        edges: &[GraphEdge],
        node_count: Option<usize>,
        directed: bool,
    ) -> Result<Graph, BuildError> {
        let n: u64 = match node_count {
            Some(n) => n as u64,
            None => edges
                .iter()
                .map(|e| u64::from(e.from.max(e.to)) + 1)
                .max()
                .unwrap_or(0),
        };
        if n > MAX_NODES as u64 {
            return Err(BuildError::too_many_nodes(n));
        }
        let n = n as usize;
        let per_input: u64 = if directed { 1 } else { 2 };
        let total = edges.len() as u64 * per_input;
        if total > u32::MAX as u64 {
            return Err(BuildError::too_many_edges(total));
        }
        for (i, e) in edges.iter().enumerate() {
            validate_edge(i, e.from, e.to, e.weight, n)?;
        }
        let mut graph = Graph::new(n)?;
        graph.edges.reserve(total as usize);
        for e in edges {
            let w = store_weight(e.weight);
            graph.edges.push((GraphEdge::new(e.from, e.to, w), true));
            if !directed {
                graph.edges.push((GraphEdge::new(e.to, e.from, w), true));
            }
        }
        Ok(graph)
    }

    /// [GRAPH.MUT.NODES] The current node count.
    pub fn node_count(&self) -> usize {
        self.node_count
    }

    /// [GRAPH.MUT.EDGE_ID] The number of edges ever added (removed edges included).
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// [GRAPH.MUT.EDGE_ID] The edge with id `id` and whether it is alive; `None` for an unknown id.
    pub fn edge(&self, id: u32) -> Option<(GraphEdge, bool)> {
        self.edges.get(id as usize).copied()
    }

    /// [GRAPH.MUT.ADD_NODE] Appends one isolated node and returns its id; `too_many_nodes` at
    /// `2^26` nodes. The compiled form is reset, so the next query recompiles.
    pub fn add_node(&mut self) -> Result<u32, BuildError> {
        if self.node_count >= MAX_NODES {
            return Err(BuildError::too_many_nodes(self.node_count as u64 + 1));
        }
        let id = self.node_count as u32;
        self.node_count += 1;
        self.compiled = OnceLock::new();
        Ok(id)
    }

    /// [GRAPH.MUT.ADD_EDGE] [GRAPH.MUT.EDGE_ID] Validates like [GRAPH.CSR.VALIDATE] (naming the id
    /// the edge would get) and adds the edge; returns its id. On error nothing is added.
    pub fn add_edge(&mut self, from: u32, to: u32, weight: f64) -> Result<u32, BuildError> {
        let id = self.edges.len();
        validate_edge(id, from, to, weight, self.node_count)?;
        if id >= u32::MAX as usize {
            return Err(BuildError::too_many_edges(id as u64 + 1));
        }
        self.edges
            .push((GraphEdge::new(from, to, store_weight(weight)), true));
        self.compiled = OnceLock::new();
        Ok(id as u32)
    }

    /// [GRAPH.MUT.EDIT] [GRAPH.MUT.EDIT_ERRORS] Removes edge `id` (`unknown_edge`, `removed_edge`).
    pub fn remove_edge(&mut self, id: u32) -> Result<(), BuildError> {
        let slot = self.live_slot(id)?;
        self.edges[slot].1 = false;
        self.compiled = OnceLock::new();
        Ok(())
    }

    /// [GRAPH.MUT.EDIT] [GRAPH.MUT.EDIT_ERRORS] [GRAPH.VAL.NEG_ZERO] Changes the weight of edge `id`
    /// (`unknown_edge`, `removed_edge`, then `invalid_weight` naming the id).
    pub fn set_weight(&mut self, id: u32, weight: f64) -> Result<(), BuildError> {
        let slot = self.live_slot(id)?;
        if !weight_is_valid(weight) {
            return Err(BuildError::invalid_weight(id as usize, weight));
        }
        self.edges[slot].0.weight = store_weight(weight);
        self.compiled = OnceLock::new();
        Ok(())
    }

    /// [GRAPH.MUT.EDIT_ERRORS] The index of live edge `id`, or the error naming it.
    fn live_slot(&self, id: u32) -> Result<usize, BuildError> {
        match self.edges.get(id as usize) {
            None => Err(BuildError::unknown_edge(id, self.edges.len())),
            Some((_, false)) => Err(BuildError::removed_edge(id)),
            Some((_, true)) => Ok(id as usize),
        }
    }

    /// [GRAPH.MUT.EDIT] True when the compiled form must be rebuilt before the next query: after
    /// any edit (`add_node`, `add_edge`, `remove_edge`, `set_weight`) and before the first compile.
    pub fn is_stale(&self) -> bool {
        self.compiled.get().is_none()
    }

    /// [GRAPH.MUT.COMPILE] The CSR form of the live edges in increasing id order over the current
    /// node count; rebuilt lazily, cached until the next edit.
    pub fn compile(&self) -> &CsrGraph {
        self.compiled.get_or_init(|| {
            let live: Vec<GraphEdge> = self
                .edges
                .iter()
                .filter(|(_, alive)| *alive)
                .map(|(e, _)| *e)
                .collect();
            CsrGraph::from_valid(self.node_count, &live)
        })
    }

    /// Finds a cheapest path from `start` to `goal` on the compiled graph, with the tier-1
    /// options (algorithm, hooks, landmarks, budget). Fails only on a node out of range or a
    /// stale landmark table; an unreachable goal is a `NotFound` result.
    ///
    /// ```
    /// use onepath_reference::{Graph, GraphEdge, GraphOptions, PathStatus};
    ///
    /// // Undirected: 0 - 1 - 2 costs 2 + 2, the direct edge 0 - 2 costs 5.
    /// let edges = [
    ///     GraphEdge::new(0, 1, 2.0),
    ///     GraphEdge::new(1, 2, 2.0),
    ///     GraphEdge::new(0, 2, 5.0),
    /// ];
    /// let graph = Graph::from_edges(&edges, None, false).unwrap();
    /// let path = graph.find_path(2, 0, &GraphOptions::default()).unwrap();
    /// assert_eq!(path.status, PathStatus::Found);
    /// assert_eq!(path.nodes, vec![2, 1, 0]);
    /// assert_eq!(path.cost, 4.0);
    /// assert_eq!(graph.find_path(0, 3, &GraphOptions::default()).unwrap_err().class(),
    ///            "node_out_of_range");
    /// ```
    ///
    /// [GRAPH.T1.CHECKS] [GRAPH.API.TIER1_SEARCH]
    pub fn find_path(
        &self,
        start: u32,
        goal: u32,
        options: &GraphOptions,
    ) -> Result<GraphPath, QueryError> {
        find_path_on(self.compile(), None, start, goal, options)
    }

    /// [GRAPH.ALT.COUNT] Builds an ALT landmark table on the compiled graph.
    pub fn build_landmarks(&self, options: &LandmarkOptions) -> Result<Landmarks, BuildError> {
        Landmarks::build(self.compile(), options)
    }
}
