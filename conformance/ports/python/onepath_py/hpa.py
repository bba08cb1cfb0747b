"""HPA* hierarchy on square grids, written from spec/hpa.md alone (family ``HPA``).

Public names: ``HpaOptions``, ``HpaEdgeKind``, ``HpaNode``, ``HpaEdge``, ``HpaHierarchy``.
The abstract search, refinement and smoothing live in ``hpa_search``.

The moves, passability and costs are those of the square grid searches ([HPA.MOVE] is
[GS.MOVE.STRAIGHT] / [GS.MOVE.DIAGONAL] / [GS.COST.MOVE] for an agent of size 1 without hooks),
so a ``grid_search_engines.GridContext`` built with such ``GridOptions`` answers them.
"""

import heapq
import math
import struct

from .grid_search import GridOptions, GridSearchError
from .grid_search_engines import CONN_EIGHT, DIAG_ALWAYS, DIAG_NONE_BLOCKED, DIRS, GridContext

INF = math.inf
SQRT_2 = 1.4142135623730951  # [GS.COST.BASE]


# ------------------------------------------------------------------ options

class HpaOptions(object):
    """[HPA.OPT.FIELDS] [HPA.OPT.NO_HOOKS] the seven fields; no agent size, hooks or algorithm.
    Every field is required: a request names every option ([CONF.HPA.REQUEST] fills none), so
    the library's defaults (chunk size 8, Eight, NoneBlocked, weight 1.0, no smoothing, no
    budget, no recording) would be code no request reaches."""

    def __init__(self, chunk_size, connectivity, diagonal, heuristic_weight, smooth,
                 iteration_budget, record_expansions):
        self.chunk_size = chunk_size
        self.connectivity = connectivity
        self.diagonal = diagonal
        self.heuristic_weight = heuristic_weight
        self.smooth = smooth
        self.iteration_budget = iteration_budget
        self.record_expansions = record_expansions

    def copy(self):
        return HpaOptions(self.chunk_size, self.connectivity, self.diagonal, self.heuristic_weight,
                          self.smooth, self.iteration_budget, self.record_expansions)


def validate_hpa_options(options):
    """[HPA.OPT.VALID] ``chunk_size`` in 2..=64 (checked first), then ``heuristic_weight``
    finite and >= 1.0; otherwise ``invalid_options`` naming the field and its value."""
    s = options.chunk_size
    if isinstance(s, bool) or not isinstance(s, int) or not (2 <= s <= 64):
        raise GridSearchError("invalid_options", field="chunk_size", value=s)
    w = float(options.heuristic_weight)
    if not (math.isfinite(w) and w >= 1.0):
        raise GridSearchError("invalid_options", field="heuristic_weight", value=w)


def move_context(grid, options):
    """[HPA.PASS] [HPA.MOVE] The move rule of an agent of size 1 with no hook under the
    options' connectivity and diagonal rule ([GS.PASS], [GS.MOVE.*], [GS.COST.MOVE])."""
    return GridContext(grid, GridOptions(agent_size=1, connectivity=options.connectivity,
                                         diagonal=options.diagonal,
                                         heuristic_weight=options.heuristic_weight))


def direction_index(w, u, v):
    """[GS.DIR] The neighbour-order index of the one-cell step u -> v (None when not a step)."""
    dx = v % w - u % w
    dy = v // w - u // w
    try:
        return DIRS.index((dx, dy))
    except ValueError:
        return None


def path_cost(ctx, cells):
    """[HPA.COST.PATH] The left fold ``((0 + cost(c0 -> c1)) + cost(c1 -> c2)) + ...`` of the
    move costs ([HPA.MOVE]); a one-cell list costs 0."""
    total = 0.0
    w = ctx.w
    for i in range(len(cells) - 1):
        u, v = cells[i], cells[i + 1]
        total = total + ctx.move_cost(u, v, direction_index(w, u, v))
    return total


# ------------------------------------------------------------------ inspection types

class HpaEdgeKind(object):
    """[HPA.INSPECT.EDGES] ``Intra`` or ``Inter``."""
    Intra = "Intra"
    Inter = "Inter"


class HpaNode(object):
    """[HPA.INSPECT.NODES] ``(cell, chunk)``."""
    __slots__ = ("cell", "chunk")

    def __init__(self, cell, chunk):
        self.cell = cell
        self.chunk = chunk


class HpaEdge(object):
    """[HPA.INSPECT.EDGES] ``(from, to, cost, kind)``."""
    __slots__ = ("from_", "to", "cost", "kind")

    def __init__(self, from_, to, cost, kind):
        self.from_ = from_
        self.to = to
        self.cost = cost
        self.kind = kind


# ------------------------------------------------------------------ chunks

class Tiling(object):
    """[HPA.CHUNK.TILING] [HPA.CHUNK.ID] ``chunks_x = ceil(width / s)`` by ``chunks_y =
    ceil(height / s)``, anchored at the origin cell; the last column and row may be narrower."""

    def __init__(self, width, height, s):
        self.w, self.h, self.s = width, height, s
        self.cx = (width + s - 1) // s
        self.cy = (height + s - 1) // s
        self.count = self.cx * self.cy

    def chunk_of(self, cell):
        """[HPA.CHUNK.ID] The chunk of cell (x, y) is (x div s, y div s), id cy * chunks_x + cx."""
        w, s = self.w, self.s
        return (cell // w // s) * self.cx + (cell % w) // s

    def bounds(self, chunk):
        """[HPA.CHUNK.TILING] ``(x0, x1, y0, y1)``: the chunk covers x0 <= x < x1, y0 <= y < y1."""
        cx, cy = chunk % self.cx, chunk // self.cx
        s = self.s
        return cx * s, min((cx + 1) * s, self.w), cy * s, min((cy + 1) * s, self.h)


def chunk_search(ctx, bounds, a):
    """[HPA.INTRA.SEARCH] Graph A* ([GRAPH.ASTAR.STEP], [GRAPH.ASTAR.EXPAND],
    [GRAPH.ASTAR.FIRST_PARENT]) with the zero estimate from cell ``a`` over the cells of one
    chunk: out-edges the allowed moves ([HPA.MOVE]) in neighbour order ([GS.MOVE.ORDER]) whose
    target lies in the chunk, costs [HPA.MOVE], run until the open set is empty.

    The open order of [STATE.HEAP.ARRAY] with ``f = g`` is: smaller g, then smaller cell (the
    larger-g tie-break never decides when f = g).  It is a strict total order, so a lazy heap
    of ``(g, cell)`` pairs that skips superseded entries pops the same sequence ([GRAPH.OPEN.ORDER]).
    An overflowing sum is skipped ([GRAPH.ASTAR.EXPAND]), so a reached cell has a finite g.
    Returns ``(g, parent)`` dicts over the reached cells (the chunk cost and the parent links)."""
    x0, x1, y0, y1 = bounds
    w = ctx.w
    move, move_cost = ctx.move, ctx.move_cost
    g = {a: 0.0}
    parent = {a: -1}
    heap = [(0.0, a)]
    ndirs = 8 if ctx.conn == CONN_EIGHT else 4
    while heap:
        gu, u = heapq.heappop(heap)
        if gu != g[u]:
            continue   # a superseded entry (a pushed pair is never pushed again: g only falls)
        for di in range(ndirs):
            v = move(u, di)
            if v < 0:
                continue
            vx, vy = v % w, v // w
            if not (x0 <= vx < x1 and y0 <= vy < y1):
                continue
            g2 = gu + move_cost(u, v, di)
            if g2 == INF:
                continue
            gv = g.get(v)
            if gv is None or g2 < gv:
                g[v] = g2
                parent[v] = u
                heapq.heappush(heap, (g2, v))
    return g, parent


def chunk_path(parent, b):
    """[HPA.INTRA.SEARCH] [GRAPH.ASTAR.PATH] The parent chain from the search's start to ``b``,
    start first."""
    out = [b]
    while parent[out[-1]] != -1:
        out.append(parent[out[-1]])
    out.reverse()
    return out


# ------------------------------------------------------------------ entrances

def _runs(crossable):
    """[HPA.ENT.RUN] Maximal runs of consecutive crossable positions: ``(p0, L)`` offsets."""
    out = []
    i, n = 0, len(crossable)
    while i < n:
        if not crossable[i]:
            i += 1
            continue
        j = i
        while j < n and crossable[j]:
            j += 1
        out.append((i, j - i))
        i = j
    return out


def _place(p0, length):
    """[HPA.ENT.PLACE] ``p0 + (L - 1) div 2`` when L < 6; ``p0`` and ``p0 + L - 1`` when L >= 6."""
    if length < 6:
        return [p0 + (length - 1) // 2]
    return [p0, p0 + length - 1]


def entrance_pairs(ctx, tiling):
    """[HPA.CHUNK.BORDERS] [HPA.ENT.RUN] [HPA.ENT.PLACE] [HPA.ENT.DIAGONAL] Every entrance pair
    as ``(a, b, base)``: the two cells and the base cost of the crossing (1.0 for a border pair,
    SQRT_2 for a diagonal pair).  Borders are visited chunk by chunk in id order, east then
    south (informative: the order is not observable)."""
    w, s = ctx.w, tiling.s
    passable = ctx.passable
    pairs = []
    for chunk in range(tiling.count):
        cx, cy = chunk % tiling.cx, chunk // tiling.cx
        x0, x1, y0, y1 = tiling.bounds(chunk)
        if cx + 1 < tiling.cx:   # east border with (cx + 1, cy): positions y
            xw, xe = (cx + 1) * s - 1, (cx + 1) * s
            cross = [passable[y * w + xw] and passable[y * w + xe] for y in range(y0, y1)]
            for p0, length in _runs(cross):
                for p in _place(p0, length):
                    y = y0 + p
                    pairs.append((y * w + xw, y * w + xe, 1.0))
        if cy + 1 < tiling.cy:   # south border with (cx, cy + 1): positions x
            yn, ys = (cy + 1) * s - 1, (cy + 1) * s
            cross = [passable[yn * w + x] and passable[ys * w + x] for x in range(x0, x1)]
            for p0, length in _runs(cross):
                for p in _place(p0, length):
                    x = x0 + p
                    pairs.append((yn * w + x, ys * w + x, 1.0))
    if ctx.conn == CONN_EIGHT and ctx.diag == DIAG_ALWAYS:
        # [HPA.ENT.DIAGONAL] only Always allows a diagonal move with both side cells blocked;
        # each unordered pair once, as u above v (dy = +1).
        h = ctx.h
        for u in range(w * (h - 1)):
            if not passable[u]:
                continue
            xu, yu = u % w, u // w
            for dx in (-1, 1):
                xv = xu + dx
                if not (0 <= xv < w):
                    continue
                v = (yu + 1) * w + xv
                if not passable[v] or tiling.chunk_of(u) == tiling.chunk_of(v):
                    continue
                di = DIRS.index((dx, 1))
                if ctx.move(u, di) != v:
                    continue
                if passable[yu * w + xv] or passable[(yu + 1) * w + xu]:
                    continue
                pairs.append((u, v, SQRT_2))
    return pairs


# ------------------------------------------------------------------ hierarchy

def _mult_bits(grid):
    return struct.pack("<255d", *[grid.area_multiplier(a) for a in range(255)])


class HpaHierarchy(object):
    """[HPA.BUILD.LAZY] [HPA.REFRESH.*] [HPA.INSPECT.*] An HPA* hierarchy over one square grid.

    It holds nothing until the first ``refresh`` (which every ``HpaSearch.begin`` does).  It
    records what it was built from ([HPA.REFRESH.WHEN]) and keeps each chunk's intra-chunk
    edges keyed by cells, so a partial refresh recomputes only the dirty chunks
    ([HPA.REFRESH.DIRTY]) and renumbers the nodes ([HPA.NODE.ID])."""

    def __init__(self, options):
        """[HPA.OPT.VALID] ``HpaHierarchy::new``: validate, hold nothing ([HPA.INSPECT.UNBUILT])."""
        validate_hpa_options(options)
        self._opt = options.copy()
        self._built = False
        self._tiling = None
        self._node_cells = []          # [HPA.NODE.ID] ascending cell index
        self._node_chunks = []
        self._edges = {}               # (from id, to id) -> (cost, kind, path)
        self._out = []                 # per node id: [(to id, cost)] ascending to
        self._rebuilt = []
        self._intra = {}               # chunk -> {(a cell, b cell): (cost, path)}
        self._chunk_nodes = {}         # chunk -> tuple of node cells (ascending)
        self._rec = None               # (width, height, restore_count, multiplier bits, cells)

    def options(self):
        return self._opt

    def is_built(self):
        """[HPA.INSPECT.UNBUILT]"""
        return self._built

    def chunks(self):
        """(chunks_x, chunks_y) of the last build; (0, 0) before."""
        if self._tiling is None:
            return (0, 0)
        return (self._tiling.cx, self._tiling.cy)

    def nodes(self):
        """[HPA.INSPECT.NODES] The permanent nodes in id order as ``HpaNode(cell, chunk)``."""
        return [HpaNode(c, k) for c, k in zip(self._node_cells, self._node_chunks)]

    def edges(self):
        """[HPA.INSPECT.EDGES] Every edge between permanent nodes, sorted by from, then to."""
        return [HpaEdge(f, t, self._edges[(f, t)][0], self._edges[(f, t)][1])
                for f, t in sorted(self._edges)]

    def edge_path(self, from_, to):
        """[HPA.INSPECT.EDGES] The edge's stored path, or None."""
        e = self._edges.get((from_, to))
        return None if e is None else list(e[2])

    def describe(self, grid):
        """[DEBUG.HPA.FIELDS] A ``HierarchyDescription`` as at the last build or refresh, node
        points on the given grid (debug)."""
        from .debug import describe_hierarchy
        return describe_hierarchy(self, grid)

    def rebuilt_chunks(self):
        """[HPA.REFRESH.REBUILT] Chunks whose intra edges the last refresh recomputed, ascending."""
        return list(self._rebuilt)

    # -- used by hpa_search ------------------------------------------------

    def tiling(self):
        return self._tiling

    def node_count(self):
        return len(self._node_cells)

    def node_cell(self, i):
        return self._node_cells[i]

    def out_edges(self, i):
        """[HPA.QUERY.OUT_ORDER] A permanent node's edges ([HPA.INSPECT.EDGES]) in ascending
        target id, as ``(to, cost)``."""
        return self._out[i]

    def stored_path(self, from_, to):
        return self._edges[(from_, to)][2]

    def chunk_node_ids(self, chunk):
        """The permanent node ids of one chunk, ascending."""
        cells = self._chunk_nodes.get(chunk, ())
        ids = self._ids
        return [ids[c] for c in cells]

    # -- build and refresh -------------------------------------------------

    def refresh(self, grid):
        """[HPA.REFRESH.WHEN] [HPA.REFRESH.RESTORE] [HPA.REFRESH.DIRTY] [HPA.REFRESH.REBUILT]
        [HPA.REFRESH.EQUAL] A full rebuild when never built or the width, height,
        ``restore_count`` or any multiplier (by its bits) differ; otherwise a partial refresh:
        entrances, nodes and inter edges from the current cells, intra edges recomputed for
        exactly the dirty chunks (a cell differs from the recorded copy, or the chunk's list of
        node cells differs), the others kept; then node ids renumbered ([HPA.NODE.ID])."""
        o = self._opt
        w, h = grid.width(), grid.height()
        mbits = _mult_bits(grid)
        cells = bytes(grid.cells())
        rec = self._rec
        full = (not self._built or rec is None or rec[0] != w or rec[1] != h
                or rec[2] != grid.restore_count() or rec[3] != mbits)
        ctx = move_context(grid, o)
        tiling = Tiling(w, h, o.chunk_size)
        pairs = entrance_pairs(ctx, tiling)
        # [HPA.NODE.SET] [HPA.NODE.ID] distinct cells of the pairs, ascending
        node_cells = sorted(set([p[0] for p in pairs] + [p[1] for p in pairs]))
        chunk_nodes = {}
        for c in node_cells:
            chunk_nodes.setdefault(tiling.chunk_of(c), []).append(c)
        chunk_nodes = {k: tuple(v) for k, v in chunk_nodes.items()}
        if full:
            dirty = set(range(tiling.count))
            self._intra = {}
        else:
            dirty = set()
            old = rec[4]
            for i in range(w * h):
                if old[i] != cells[i]:
                    dirty.add(tiling.chunk_of(i))
            for k in set(chunk_nodes) | set(self._chunk_nodes):
                if chunk_nodes.get(k, ()) != self._chunk_nodes.get(k, ()):
                    dirty.add(k)
        for k in sorted(dirty):
            self._intra[k] = self._chunk_edges(ctx, tiling, k, chunk_nodes.get(k, ()))
        # [HPA.NODE.ID] renumber
        ids = {c: i for i, c in enumerate(node_cells)}
        edges = {}
        for k, table in self._intra.items():
            for (a, b), (cost, path) in table.items():
                edges[(ids[a], ids[b])] = (cost, HpaEdgeKind.Intra, path)
        mult = ctx.mult
        for a, b, base in pairs:
            # [HPA.INTER.EDGE] a -> b costs base * m(area(b)), b -> a base * m(area(a))
            edges[(ids[a], ids[b])] = (base * mult[cells[b]], HpaEdgeKind.Inter, (a, b))
            edges[(ids[b], ids[a])] = (base * mult[cells[a]], HpaEdgeKind.Inter, (b, a))
        out = [[] for _ in node_cells]
        for f, t in sorted(edges):
            out[f].append((t, edges[(f, t)][0]))
        self._tiling = tiling
        self._node_cells = node_cells
        self._node_chunks = [tiling.chunk_of(c) for c in node_cells]
        self._ids = ids
        self._chunk_nodes = chunk_nodes
        self._edges = edges
        self._out = out
        self._rebuilt = sorted(dirty)
        self._rec = (w, h, grid.restore_count(), mbits, cells)
        self._built = True
        return ctx

    @staticmethod
    def _chunk_edges(ctx, tiling, chunk, node_cells):
        """[HPA.INTRA.EDGE] [HPA.INTRA.COST] For every ordered pair of distinct nodes a, b of
        the chunk that the chunk search from a reaches: cost = b's chunk cost, stored path = b's
        chunk path from a.  An infinite chunk cost gives no edge (such a cell is never reached,
        [GRAPH.ASTAR.EXPAND])."""
        table = {}
        if len(node_cells) < 2:
            return table
        bounds = tiling.bounds(chunk)
        for a in node_cells:
            g, parent = chunk_search(ctx, bounds, a)
            for b in node_cells:
                if b != a and b in g and g[b] != INF:
                    table[(a, b)] = (g[b], tuple(chunk_path(parent, b)))
        return table
