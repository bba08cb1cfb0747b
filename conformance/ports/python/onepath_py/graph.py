"""Mutable graph: [GRAPH.MUT.*]."""

from . import errors
from .csr import MAX_NODES, CsrGraph, GraphEdge, as_edge, is_valid_weight, store_weight, validate_edge


class Graph(object):
    """[GRAPH.MUT.NODES] [GRAPH.MUT.EDGE_ID] Stable node ids, edge ids never reused, lazily compiled CSR."""

    def __init__(self, node_count=0):
        """[GRAPH.MUT.NODES] ``n`` isolated nodes, ``n <= 2^26`` else too_many_nodes."""
        if not isinstance(node_count, int) or node_count < 0 or node_count > MAX_NODES:
            raise errors.TooManyNodes()
        self._n = node_count
        self._from = []
        self._to = []
        self._w = []
        self._alive = []
        self._compiled = None
        self._stale = True

    @staticmethod
    def from_edges(edges, node_count=None, directed=True):
        """[GRAPH.MUT.FROM] [GRAPH.MUT.FROM_COUNT] [GRAPH.MUT.SELF_LOOP] [GRAPH.MUT.FROM_ERRORS]

        Guessed order: the node count is settled first (too_many_nodes, no index), then
        each input edge i is validated (from, to, weight) naming i, then added (and its
        reverse when undirected).
        """
        edges = [as_edge(e) for e in edges]
        if node_count is None:
            n = 0
            for e in edges:
                for x in (e.from_, e.to):
                    if isinstance(x, int) and x + 1 > n:
                        n = x + 1
        else:
            n = node_count
        g = Graph(n)
        for i, e in enumerate(edges):
            validate_edge(i, e.from_, e.to, e.weight, n)
            g._push(e.from_, e.to, e.weight)
            if not directed:
                g._push(e.to, e.from_, e.weight)
        return g

    def _push(self, f, t, w):
        """[GRAPH.MUT.EDGE_ID] [GRAPH.VAL.NEG_ZERO] Append a validated edge; id = edges ever added; stale."""
        self._from.append(f)
        self._to.append(t)
        self._w.append(store_weight(w))
        self._alive.append(True)
        self._stale = True
        return len(self._from) - 1

    def node_count(self):
        """[GRAPH.MUT.NODES] Current node count."""
        return self._n

    def edge_count(self):
        """[GRAPH.MUT.EDGE_ID] Every edge ever added (removed ones included)."""
        return len(self._from)

    def edge(self, edge_id):
        """[GRAPH.MUT.EDGE_ID] (GraphEdge, alive) or None for an unknown id."""
        if not isinstance(edge_id, int) or not 0 <= edge_id < len(self._from):
            return None
        return (GraphEdge(self._from[edge_id], self._to[edge_id], self._w[edge_id]),
                self._alive[edge_id])

    def add_node(self):
        """[GRAPH.MUT.ADD_NODE] Append a node, return its id; too_many_nodes at 2^26 nodes.

        Marks the compiled form stale (the next query recompiles with the new count).
        """
        if self._n >= MAX_NODES:
            raise errors.TooManyNodes()
        self._n += 1
        self._stale = True
        return self._n - 1

    def add_edge(self, from_, to, weight):
        """[GRAPH.MUT.ADD_EDGE] [GRAPH.MUT.EDGE_ID] Validate like the CSR naming the would-be id; nothing added on error."""
        validate_edge(len(self._from), from_, to, weight, self._n)
        return self._push(from_, to, weight)

    def _check_id(self, edge_id):
        """[GRAPH.MUT.EDIT_ERRORS] unknown_edge, then removed_edge, naming the id."""
        if not isinstance(edge_id, int) or not 0 <= edge_id < len(self._from):
            raise errors.UnknownEdge(index=edge_id)
        if not self._alive[edge_id]:
            raise errors.RemovedEdge(index=edge_id)

    def remove_edge(self, edge_id):
        """[GRAPH.MUT.EDIT] [GRAPH.MUT.EDIT_ERRORS] Mark removed; stale."""
        self._check_id(edge_id)
        self._alive[edge_id] = False
        self._stale = True

    def set_weight(self, edge_id, weight):
        """[GRAPH.MUT.EDIT] [GRAPH.MUT.EDIT_ERRORS] [GRAPH.VAL.NEG_ZERO]

        Guessed order: unknown_edge, removed_edge, then invalid_weight.
        """
        self._check_id(edge_id)
        if not isinstance(weight, (int, float)) or not is_valid_weight(float(weight)):
            raise errors.InvalidWeight(index=edge_id)
        self._w[edge_id] = store_weight(weight)
        self._stale = True

    def is_stale(self):
        """[GRAPH.MUT.EDIT] True until the next compile after any change (or before the first)."""
        return self._stale or self._compiled is None

    def compile(self):
        """[GRAPH.MUT.COMPILE] CSR from live edges in increasing id order over the current node count."""
        if self.is_stale():
            edges = [GraphEdge(self._from[i], self._to[i], self._w[i])
                     for i in range(len(self._from)) if self._alive[i]]
            self._compiled = CsrGraph(self._n, edges)
            self._stale = False
        return self._compiled

    def find_path(self, start, goal, options=None):
        """[GRAPH.MUT.COMPILE] [GRAPH.T1.CHECKS] Compile if stale, then the tier-1 query."""
        from .options import GraphOptions, find_path_csr
        return find_path_csr(self.compile(), start, goal,
                             options if options is not None else GraphOptions())

    def build_landmarks(self, options=None):
        """[GRAPH.ALT.COUNT] Landmarks over the compiled CSR."""
        from .landmarks import Landmarks
        return Landmarks.build(self.compile(), options)
