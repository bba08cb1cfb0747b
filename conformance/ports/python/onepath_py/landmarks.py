"""ALT landmarks and OPLM bytes: [GRAPH.ALT.*], [GRAPH.OPLM.*]."""

import enum
import math
import struct

from . import errors
from .open_set import OpenSet
from .random import SeededRandom

INF = math.inf
MAGIC = b"OPLM"
MAX_LANDMARK_ENTRIES = 1 << 28  # [GRAPH.ALT.LIMIT] distances per direction
# [GRAPH.OPLM.LAYOUT] 24-byte header (magic 0, version 4, N 8, k 12, fingerprint 16); ids at 24.
HEADER = 24


class LandmarkStrategy(enum.Enum):
    """[GRAPH.ALT.FARTHEST] [GRAPH.ALT.AVOID] Selection strategy (default Avoid)."""

    Farthest = "farthest"
    Avoid = "avoid"


class LandmarkOptions(object):
    """[GRAPH.ALT.OPTIONS] count 16, strategy Avoid, seed 1 by default."""

    def __init__(self, count=16, strategy=LandmarkStrategy.Avoid, seed=1):
        """[GRAPH.ALT.OPTIONS] [GRAPH.RNG.SEED]"""
        self.count = count
        self.strategy = strategy
        self.seed = seed


def shortest_tree(graph, root, reverse=False):
    """[GRAPH.ALT.TREE] [GRAPH.ALT.TABLES] Dijkstra with default weights and open-set key (d, d).

    Returns (dist, parent, settle_order).  The parent is the first predecessor that gave
    the final distance (strict improvement only).  ``reverse`` walks in-edges.
    """
    n = graph.node_count()
    if reverse:
        offs, nbrs, ws = graph.reverse_offsets(), graph.sources(), graph.reverse_weights()
    else:
        offs, nbrs, ws = graph.offsets(), graph.targets(), graph.weights()
    dist = [INF] * n
    parent = [-1] * n
    order = []
    dist[root] = 0.0
    op = OpenSet()
    op.push(root, 0.0, 0.0)
    while len(op):
        u, _, _ = op.pop()
        order.append(u)
        du = dist[u]
        for slot in range(offs[u], offs[u + 1]):
            v = nbrs[slot]
            nd = du + ws[slot]
            if nd == INF:
                continue
            if nd < dist[v]:
                dist[v] = nd
                parent[v] = u
                op.push(v, nd, nd)
    return dist, parent, order


def _bound(fwd_rows, bwd_rows, u, v):
    """[GRAPH.ALT.BOUND] [SPEC.NUM.COMPARE] best = +0.0; max over landmarks in table order."""
    best = 0.0
    for fr, br in zip(fwd_rows, bwd_rows):
        fu = fr[u]
        if fu != INF:
            a = fr[v] - fu
            if a > best:
                best = a
        bv = br[v]
        if bv != INF:
            b = br[u] - bv
            if b > best:
                best = b
    return best


class Landmarks(object):
    """[GRAPH.ALT.TABLES] [GRAPH.ALT.STALE] Landmark ids, fwd/bwd tables, node count and fingerprint."""

    def __init__(self, node_count, fingerprint, ids, fwd_rows, bwd_rows):
        """[GRAPH.ALT.TABLES] Rows are landmark-major: fwd_rows[l][v] = d(L_l, v)."""
        self._n = node_count
        self._fp = fingerprint
        self._ids = list(ids)
        self._fwd = fwd_rows
        self._bwd = bwd_rows

    @staticmethod
    def build(graph, options=None):
        """[GRAPH.ALT.COUNT] [GRAPH.ALT.LIMIT] [GRAPH.ALT.ROOTS] [GRAPH.ALT.FARTHEST] [GRAPH.ALT.AVOID] [GRAPH.ALT.FALLBACK]

        The count check precedes the empty-graph check (the clause lists them in that order).
        Each landmark's tables are computed as soon as it is chosen.
        """
        if options is None:
            options = LandmarkOptions()
        if not isinstance(options.count, int) or options.count < 1:
            raise errors.InvalidLandmarkCount()
        n = graph.node_count()
        if n == 0:
            raise errors.EmptyGraph()
        k = min(options.count, n)
        if k * n > MAX_LANDMARK_ENTRIES:
            # [GRAPH.ALT.LIMIT] after the count and empty-graph checks, before any root.
            raise errors.TooManyNodes()
        rng = SeededRandom(options.seed)
        ids = []
        is_lm = [False] * n
        fwd_rows = []
        bwd_rows = []
        for slot in range(k):
            r = rng.next_int(n)
            if options.strategy == LandmarkStrategy.Farthest:
                cand = _farthest(graph, r, slot, is_lm, fwd_rows)
            else:
                cand = _avoid(graph, r, is_lm, fwd_rows, bwd_rows)
            if cand is None:
                cand = is_lm.index(False)
            ids.append(cand)
            is_lm[cand] = True
            fwd_rows.append(shortest_tree(graph, cand, False)[0])
            bwd_rows.append(shortest_tree(graph, cand, True)[0])
        return Landmarks(n, graph.fingerprint(), ids, fwd_rows, bwd_rows)

    def count(self):
        """[GRAPH.ALT.COUNT] k."""
        return len(self._ids)

    def node_count(self):
        """[GRAPH.ALT.STALE] N of the graph built on."""
        return self._n

    def fingerprint(self):
        """[GRAPH.ALT.STALE] Fingerprint of the graph built on."""
        return self._fp

    def _in(self, x, limit):
        """[GRAPH.ALT.ACCESSORS] [GRAPH.VAL.PORT_INTS] 0 <= x < limit (negative = out of range)."""
        return isinstance(x, int) and 0 <= x < limit

    def lower_bound(self, from_, to):
        """[GRAPH.ALT.BOUND] [GRAPH.ALT.ACCESSORS] Lower bound on d(from, to); +0.0 when u or v is out of range."""
        if not (self._in(from_, self._n) and self._in(to, self._n)):
            return 0.0
        return _bound(self._fwd, self._bwd, from_, to)

    def serialize(self):
        """[GRAPH.OPLM.LAYOUT] [SPEC.NUM.LE] 'OPLM', u32 1, i32 N, i32 k, u64 fp, k i32 ids, fwd, bwd."""
        k = len(self._ids)
        n = self._n
        parts = [MAGIC, struct.pack("<IiiQ", 1, n, k, self._fp),
                 struct.pack("<%di" % k, *self._ids)]
        for row in self._fwd:
            parts.append(struct.pack("<%dd" % n, *row))
        for row in self._bwd:
            parts.append(struct.pack("<%dd" % n, *row))
        return b"".join(parts)

    @staticmethod
    def deserialize(data, graph):
        """[GRAPH.OPLM.CHECKS] [GRAPH.OPLM.DISTINCT_IDS] [GRAPH.OPLM.SIGN_BIT] [GRAPH.OPLM.ROUNDTRIP]
        [GRAPH.ERR.NO_PANIC] Checks in the spec's order.  ``data`` is a bytes-like object
        (the driver passes ``bytes.fromhex``'s bytes)."""
        length = len(data)
        if length < HEADER:
            raise errors.Truncated(offset=length)
        if data[0:4] != MAGIC:
            raise errors.BadMagic(offset=0)
        (version,) = struct.unpack_from("<I", data, 4)
        if version != 1:
            raise errors.UnsupportedVersion(offset=4)
        (n,) = struct.unpack_from("<i", data, 8)
        if n != graph.node_count():
            raise errors.NodeCountMismatch(offset=8)
        (k,) = struct.unpack_from("<i", data, 12)
        if k < 1 or k > n:
            raise errors.CountOutOfRange(offset=12)
        expected = HEADER + 4 * k + 16 * k * n  # Python ints: no overflow
        if length != expected:
            raise errors.LengthMismatch(offset=expected if length > expected else length)
        (fp,) = struct.unpack_from("<Q", data, 16)
        if fp != graph.fingerprint():
            raise errors.FingerprintMismatch(offset=16)
        ids = list(struct.unpack_from("<%di" % k, data, HEADER))
        seen = set()
        for l, lid in enumerate(ids):
            off = HEADER + 4 * l
            if lid < 0 or lid >= n:
                raise errors.IndexOutOfRange(offset=off)
            if lid in seen:
                raise errors.DuplicateNode(offset=off)
            seen.add(lid)
        table_at = HEADER + 4 * k
        count = 2 * k * n
        bits = struct.unpack_from("<%dQ" % count, data, table_at)
        vals = struct.unpack_from("<%dd" % count, data, table_at)
        for i in range(count):
            x = vals[i]
            if x != x or (bits[i] >> 63) == 1 or x < 0.0:
                raise errors.BadDistance(offset=table_at + 8 * i)
        fwd_rows = [list(vals[l * n:(l + 1) * n]) for l in range(k)]
        bwd_rows = [list(vals[(k + l) * n:(k + l + 1) * n]) for l in range(k)]
        for l in range(k):
            lid = ids[l]
            if fwd_rows[l][lid] != 0.0:
                raise errors.SelfDistance(offset=table_at + 8 * (l * n + lid))
            if bwd_rows[l][lid] != 0.0:
                raise errors.SelfDistance(offset=table_at + 8 * (k * n + l * n + lid))
        return Landmarks(n, fp, ids, fwd_rows, bwd_rows)


def _farthest(graph, r, slot, is_lm, fwd_rows):
    """[GRAPH.ALT.FARTHEST] Slot 0: farthest finite d(r, v) > 0; later: greatest min-over-landmarks fwd > 0."""
    n = graph.node_count()
    best = None
    best_val = None
    if slot == 0:
        dist = shortest_tree(graph, r, False)[0]
        for v in range(n):
            d = dist[v]
            if d != INF and d > 0.0 and (best is None or d > best_val):
                best, best_val = v, d
        return best
    for v in range(n):
        if is_lm[v]:
            continue
        m = None
        for row in fwd_rows:
            x = row[v]
            if x != INF and (m is None or x < m):
                m = x
        if m is None or not (m > 0.0):
            continue
        if best is None or m > best_val:
            best, best_val = v, m
    return best


def _avoid(graph, r, is_lm, fwd_rows, bwd_rows):
    """[GRAPH.ALT.AVOID] weight = d - lower_bound_current; subtree sizes in reverse settle order; descend."""
    n = graph.node_count()
    dist, parent, order = shortest_tree(graph, r, False)
    size = [0.0] * n
    blocked = [False] * n
    for v in order:
        size[v] = dist[v] - _bound(fwd_rows, bwd_rows, r, v)
        blocked[v] = is_lm[v]
    children = [[] for _ in range(n)]
    for v in reversed(order):
        if v == r:
            continue
        p = parent[v]
        size[p] += size[v]
        if blocked[v]:
            blocked[p] = True
        children[p].append(v)
    for v in order:
        if blocked[v]:
            size[v] = 0.0
    best = None
    best_val = None
    for v in sorted(order):
        if blocked[v]:
            continue
        s = size[v]
        if s > 0.0 and (best is None or s > best_val):
            best, best_val = v, s
    if best is None:
        return None
    v = best
    while children[v]:
        nxt = None
        nval = None
        for c in sorted(children[v]):
            if nxt is None or size[c] > nval:
                nxt, nval = c, size[c]
        v = nxt
    return v
