"""CSR graph: [GRAPH.CSR.*], values [GRAPH.VAL.*]."""

import math
import struct

from . import errors

MAX_NODES = 1 << 26
MAX_EDGES = (1 << 32) - 1   # [GRAPH.CSR.EDGE_LIMIT]
U64 = (1 << 64) - 1
FNV_OFFSET = 14695981039346656037
FNV_PRIME = 1099511628211


class GraphEdge(object):
    """[GRAPH.VAL.EDGE] A directed edge ``(from, to, weight)``."""

    __slots__ = ("from_", "to", "weight")

    def __init__(self, from_, to, weight):
        """[GRAPH.VAL.EDGE] Plain value; validation happens where the edge is used."""
        self.from_ = from_
        self.to = to
        self.weight = weight

def as_edge(e):
    """[GRAPH.VAL.EDGE] Accept a GraphEdge or a 3-tuple."""
    if isinstance(e, GraphEdge):
        return e
    f, t, w = e
    return GraphEdge(f, t, w)


def is_valid_weight(w):
    """[GRAPH.VAL.EDGE] [GRAPH.CSR.VALIDATE] Finite and >= 0 (-0.0 is accepted)."""
    return not (math.isnan(w) or math.isinf(w) or w < 0.0)


def store_weight(w):
    """[GRAPH.VAL.NEG_ZERO] A weight of -0.0 is stored as +0.0."""
    w = float(w)
    return 0.0 if w == 0.0 else w


def _node_ok(x, n):
    """[GRAPH.VAL.NODE] [GRAPH.VAL.PORT_INTS] [GRAPH.CSR.VALIDATE] An int in 0..n-1 (negative = too large)."""
    return isinstance(x, int) and 0 <= x < n


def validate_edge(index, from_, to, weight, n):
    """[GRAPH.CSR.VALIDATE] Checks in the order from, to, weight; errors name ``index``.

    The endpoint that failed is given as ``endpoint`` = "from" / "to" (the spec says
    "naming which endpoint" without a field name or encoding).
    """
    if not _node_ok(from_, n):
        raise errors.EndpointOutOfRange(index=index, endpoint="from")
    if not _node_ok(to, n):
        raise errors.EndpointOutOfRange(index=index, endpoint="to")
    if not isinstance(weight, (int, float)) or not is_valid_weight(float(weight)):
        raise errors.InvalidWeight(index=index)


def fnv1a64(data, h=FNV_OFFSET):
    """[GRAPH.CSR.FINGERPRINT] 64-bit FNV-1a over ``data`` (u64 arithmetic mod 2^64)."""
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & U64
    return h


class CsrGraph(object):
    """[GRAPH.CSR.LAYOUT] Immutable compressed-sparse-row graph with a reverse adjacency."""

    def __init__(self, node_count, edges):
        """[GRAPH.CSR.LIMIT] [GRAPH.CSR.VALIDATE] [GRAPH.CSR.LAYOUT] [GRAPH.CSR.ORDER] [GRAPH.CSR.KEEP] [GRAPH.VAL.NEG_ZERO]

        [GRAPH.CSR.EDGE_LIMIT] GUESS (order unstated for CsrGraph::new): node-count limit,
        then edge-count limit (too_many_nodes, no index), then the edges in list order.
        A negative node count is treated like a too large one ([GRAPH.VAL.PORT_INTS] by analogy).
        """
        if not isinstance(node_count, int) or node_count < 0 or node_count > MAX_NODES:
            raise errors.TooManyNodes()
        n = node_count
        edges = [as_edge(e) for e in edges]
        if len(edges) > MAX_EDGES:
            raise errors.TooManyNodes()
        for i, e in enumerate(edges):
            validate_edge(i, e.from_, e.to, e.weight, n)
        m = len(edges)
        # [GRAPH.CSR.ORDER] stable counting sort, forward by from
        offsets = [0] * (n + 1)
        roffsets = [0] * (n + 1)
        for e in edges:
            offsets[e.from_ + 1] += 1
            roffsets[e.to + 1] += 1
        for v in range(n):
            offsets[v + 1] += offsets[v]
            roffsets[v + 1] += roffsets[v]
        targets = [0] * m
        weights = [0.0] * m
        sources = [0] * m
        rweights = [0.0] * m
        cur = offsets[:n]
        rcur = roffsets[:n]
        for e in edges:
            w = store_weight(e.weight)
            s = cur[e.from_]
            cur[e.from_] = s + 1
            targets[s] = e.to
            weights[s] = w
            r = rcur[e.to]
            rcur[e.to] = r + 1
            sources[r] = e.from_
            rweights[r] = w
        self._n = n
        self._offsets = offsets
        self._targets = targets
        self._weights = weights
        self._roffsets = roffsets
        self._sources = sources
        self._rweights = rweights
        self._fp = None

    def node_count(self):
        """[GRAPH.CSR.LAYOUT] N."""
        return self._n

    def edge_count(self):
        """[GRAPH.CSR.LAYOUT] E = offsets[N]."""
        return len(self._targets)

    def offsets(self):
        """[GRAPH.CSR.LAYOUT] N + 1 forward offsets."""
        return self._offsets

    def targets(self):
        """[GRAPH.CSR.LAYOUT] Forward targets per slot."""
        return self._targets

    def weights(self):
        """[GRAPH.CSR.LAYOUT] Forward weights per slot."""
        return self._weights

    def reverse_offsets(self):
        """[GRAPH.CSR.LAYOUT] N + 1 reverse offsets."""
        return self._roffsets

    def sources(self):
        """[GRAPH.CSR.LAYOUT] Reverse sources per slot."""
        return self._sources

    def reverse_weights(self):
        """[GRAPH.CSR.LAYOUT] Reverse weights per slot."""
        return self._rweights

    def fingerprint(self):
        """[GRAPH.CSR.FINGERPRINT] [GRAPH.CSR.FP_WIDTH] [SPEC.NUM.LE]

        FNV-1a over: u32 node count, N+1 u32 offsets, then per forward slot u32 target
        followed by the f64 bit pattern of its weight.
        """
        if self._fp is None:
            n = self._n
            parts = [struct.pack("<I", n), struct.pack("<%dI" % (n + 1), *self._offsets)]
            for t, w in zip(self._targets, self._weights):
                parts.append(struct.pack("<Id", t, w))
            self._fp = fnv1a64(b"".join(parts))
        return self._fp
