"""Mutable graph: [GRAPH.MUT.*]."""

from . import errors
from .csr import (MAX_EDGES, MAX_NODES, CsrGraph, GraphEdge, as_edge, is_valid_weight, store_weight,
                  validate_edge)


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
        """[GRAPH.MUT.FROM] [GRAPH.MUT.FROM_COUNT] [GRAPH.MUT.SELF_LOOP] [GRAPH.MUT.FROM_ERRORS] [GRAPH.CSR.EDGE_LIMIT]

        Order: the node count is settled first (too_many_nodes, no index): a given count
        > 2^26 (or negative), or, absent, a largest endpoint >= 2^26 -- a negative endpoint
        counts as too large ([GRAPH.VAL.PORT_INTS]); a largest endpoint >= 2^26 gives a count
        > 2^26, which ``Graph(n)`` refuses.  GUESS: then the edge-count limit
        (E or 2E ids > 2^32 - 1, too_many_nodes), then each input edge i is validated
        (from, to, weight) naming i and added (and its reverse when undirected).
        """
        edges = [as_edge(e) for e in edges]
        if node_count is None:
            n = 0
            for e in edges:
                for x in (e.from_, e.to):
                    if isinstance(x, int):
                        if x < 0:
                            raise errors.TooManyNodes()
                        if x + 1 > n:
                            n = x + 1
        else:
            n = node_count
        g = Graph(n)
        if len(edges) * (1 if directed else 2) > MAX_EDGES:
            raise errors.TooManyNodes()
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

    def add_node(self):
        """[GRAPH.MUT.ADD_NODE] [GRAPH.MUT.STALE] Append a node, return its id; too_many_nodes at 2^26 nodes.

        A successful add_node makes is_stale() true (the next query recompiles).
        """
        if self._n >= MAX_NODES:
            raise errors.TooManyNodes()
        self._n += 1
        self._stale = True
        return self._n - 1

    def add_edge(self, from_, to, weight):
        """[GRAPH.MUT.ADD_EDGE] [GRAPH.MUT.EDGE_ID] [GRAPH.CSR.EDGE_LIMIT] Validate like the CSR naming the would-be id.

        The edge is validated first, then the edge-id limit (2^32 - 1 edges ever added,
        too_many_nodes, no index) is checked.  Nothing is added on error.
        """
        validate_edge(len(self._from), from_, to, weight, self._n)
        if len(self._from) >= MAX_EDGES:
            raise errors.TooManyNodes()
        return self._push(from_, to, weight)

    def _check_id(self, edge_id):
        """[GRAPH.MUT.EDIT_ERRORS] [GRAPH.MUT.EDIT_ORDER] [GRAPH.VAL.PORT_INTS] unknown_edge, then removed_edge, naming the id.

        A negative id is unknown_edge naming the id as given (GUESS: the index of a negative id).
        """
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
        """[GRAPH.MUT.EDIT] [GRAPH.MUT.EDIT_ERRORS] [GRAPH.MUT.EDIT_ORDER] [GRAPH.MUT.STALE] [GRAPH.VAL.NEG_ZERO]

        unknown_edge, removed_edge, then invalid_weight; stale even for the same weight.
        """
        self._check_id(edge_id)
        if not isinstance(weight, (int, float)) or not is_valid_weight(float(weight)):
            raise errors.InvalidWeight(index=edge_id)
        self._w[edge_id] = store_weight(weight)
        self._stale = True

    def is_stale(self):
        """[GRAPH.MUT.STALE] True when no compiled form exists or a successful edit happened after it."""
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

    # ------------------------------------------------------------ [STATE.GRAPH]

    def save_state(self):
        """[STATE.API] [STATE.GRAPH] [STATE.STABLE] Kind-4 bytes: header, node count, every edge ever added."""
        from .state import save_graph
        return save_graph(self._n, self._from, self._to, self._w, self._alive)

    def restore_state(self, data):
        """[STATE.API] [STATE.ATOMIC] [STATE.GRAPH.RESTORE] Validate everything, then replace in place.

        On success the node count and the whole edge list (ids kept) are replaced and the graph
        is stale (is_stale() is true, so the next query compiles again).  On failure nothing
        changes.
        """
        from .state import parse_graph
        n, fr, to, w, alive = parse_graph(data)
        self._n = n
        self._from = fr
        self._to = to
        self._w = w
        self._alive = alive
        self._stale = True

    @staticmethod
    def from_state(data):
        """[STATE.API] [STATE.GRAPH] A new Graph from kind-4 bytes."""
        g = Graph(0)
        g.restore_state(data)
        return g
