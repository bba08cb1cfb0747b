"""Point graphs: [GRAPH.PT.*], [GRAPH.VAL.POINT]."""

import math

from . import errors
from .csr import MAX_NODES, CsrGraph, GraphEdge

COORD_BOUND = float(1 << 21)
MIN_MAX_DISTANCE = 2.0 ** -30


class Point3(object):
    """[GRAPH.VAL.POINT] A position (x, y, z); plane graphs use z = 0."""

    __slots__ = ("x", "y", "z")

    def __init__(self, x, y, z=0.0):
        """[GRAPH.VAL.POINT]"""
        self.x = float(x)
        self.y = float(y)
        self.z = float(z)

    def __iter__(self):
        """[GRAPH.VAL.POINT] Unpack as (x, y, z)."""
        return iter((self.x, self.y, self.z))


def squared_distance(a, b):
    """[GRAPH.PT.DIST] (dx*dx + dy*dy) + dz*dz with dx = b.x - a.x, in that order."""
    dx = b.x - a.x
    dy = b.y - a.y
    dz = b.z - a.z
    return (dx * dx + dy * dy) + dz * dz


def distance(a, b):
    """[GRAPH.PT.DIST] sqrt(d2(a, b)) (math.sqrt is correctly rounded)."""
    return math.sqrt(squared_distance(a, b))


def check_point(p):
    """[GRAPH.PT.COORD] Returns the first bad (axis, value) in x, y, z order, or None."""
    for axis, c in (("x", p.x), ("y", p.y), ("z", p.z)):
        if not (abs(c) <= COORD_BOUND):  # also rejects NaN and infinities
            return axis, c
    return None


class LinkOptions(object):
    """[GRAPH.PT.EXPLICIT] [GRAPH.PT.MAXDIST] [GRAPH.PT.NEAREST] [GRAPH.PT.VALID] Link options."""

    def __init__(self, explicit=(), max_distance=0.0, nearest_count=0, link_valid=None):
        """[GRAPH.PT.EXPLICIT] explicit pairs; max_distance 0 = off; nearest_count 0 = off."""
        self.explicit = list(explicit)
        self.max_distance = max_distance
        self.nearest_count = nearest_count
        self.link_valid = link_valid


def generate_links(points, options):
    """[GRAPH.PT.EXPLICIT] [GRAPH.PT.ORDER] [GRAPH.PT.RADIUS] [GRAPH.PT.NEAREST] [GRAPH.PT.BOTH] [GRAPH.PT.VALID] [GRAPH.PT.VALID_ORDER] [GRAPH.PT.MERGE]

    [GRAPH.VAL.PORT_INTS] A negative nearest_count takes every candidate, as one that is too large.

    Returns the sorted list of unordered pairs (min, max).  Nearest candidates are found by
    a full sort on (d2, j) (conforms per the informative [GRAPH.PT.RING]).
    """
    n = len(points)
    md = float(options.max_distance)
    k = options.nearest_count
    if k < 0:
        k = n                   # [GRAPH.VAL.PORT_INTS] negative = too large: every candidate
    valid = options.link_valid
    pairs = set()
    for a, b in options.explicit:
        if a != b:
            pairs.add((min(a, b), max(a, b)))
    if md > 0.0 and k == 0:
        lim = md * md
        for a in range(n):
            pa = points[a]
            for b in range(a + 1, n):
                if squared_distance(pa, points[b]) <= lim:
                    if valid is None or valid(a, b):
                        pairs.add((a, b))
    elif k > 0:
        lim = md * md if md > 0.0 else None
        for i in range(n):
            pi = points[i]
            cands = sorted((squared_distance(pi, points[j]), j) for j in range(n) if j != i)
            accepted = 0
            for d2, j in cands:
                if accepted >= k:
                    break
                if lim is not None and not (d2 <= lim):
                    continue
                a, b = (i, j) if i < j else (j, i)
                if valid is None or valid(a, b):
                    pairs.add((a, b))
                    accepted += 1
    return sorted(pairs)


class PointGraph(object):
    """[GRAPH.PT.*] A CSR graph over positions with Euclidean weights."""

    def __init__(self, points, options=None):
        """[GRAPH.PT.COORD] [GRAPH.PT.MAXDIST] [GRAPH.PT.MAXDIST_FINITE] [GRAPH.PT.EXPLICIT] [GRAPH.PT.MERGE]

        [GRAPH.PT.CHECKS] order: node count limit, coordinates, max_distance, explicit links.
        """
        if options is None:
            options = LinkOptions()
        pts = list(points)
        n = len(pts)
        if n > MAX_NODES:
            raise errors.TooManyNodes()
        for i, p in enumerate(pts):
            bad = check_point(p)
            if bad is not None:
                raise errors.CoordinateOutOfRange(index=i, axis=bad[0], value=bad[1],
                                                  bound=COORD_BOUND)
        md = options.max_distance
        if not isinstance(md, (int, float)) or not (
                md == 0 or (math.isfinite(md) and md >= MIN_MAX_DISTANCE)):
            raise errors.InvalidMaxDistance()
        for pos, (a, b) in enumerate(options.explicit):
            if not (isinstance(a, int) and isinstance(b, int) and 0 <= a < n and 0 <= b < n):
                raise errors.LinkOutOfRange(index=pos)
        edges = []
        for a, b in generate_links(pts, options):
            w = distance(pts[a], pts[b])
            edges.append(GraphEdge(a, b, w))
            edges.append(GraphEdge(b, a, w))
        self._points = pts
        self._csr = CsrGraph(n, edges)

    def node_count(self):
        """[GRAPH.PT.COORD] Number of points."""
        return len(self._points)

    def points(self):
        """[GRAPH.VAL.POINT] The positions by node id."""
        return list(self._points)

    def csr(self):
        """[GRAPH.PT.MERGE] The built CSR graph."""
        return self._csr

    def nearest_node(self, position):
        """[GRAPH.PT.NEAREST_NODE] Smallest (d2(p_node, p), id) by a linear scan.

        invalid_position is checked first, empty_graph (a query error) second.
        """
        p = position
        bad = check_point(p)
        if bad is not None:
            raise errors.InvalidPosition(axis=bad[0], value=bad[1], bound=COORD_BOUND)
        if not self._points:
            raise errors.EmptyGraph()
        best = 0
        best_d = squared_distance(self._points[0], p)
        for i in range(1, len(self._points)):
            d = squared_distance(self._points[i], p)
            if d < best_d:
                best, best_d = i, d
        return best

    def find_path(self, start, goal, options=None):
        """[GRAPH.PT.ESTIMATE] [GRAPH.EST.COMBINE] Tier-1 query with the Euclidean estimate."""
        from .options import GraphOptions, find_path_csr
        return find_path_csr(self._csr, start, goal,
                             options if options is not None else GraphOptions(),
                             points=self._points)

    def find_path_between(self, from_, to, options=None):
        """[GRAPH.PT.FIND_BY_POS] Snap from, then to, to nearest_node; run the node query."""
        s = self.nearest_node(from_)
        t = self.nearest_node(to)
        return self.find_path(s, t, options)
