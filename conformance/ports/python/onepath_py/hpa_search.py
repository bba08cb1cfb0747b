"""HPA* queries on square grids, written from spec/hpa.md alone: the temporary start and goal
nodes, the abstract A* search, refinement, loop cutting, smoothing and tier 1.

Public names: ``HpaSearch``, ``find_hpa_path``.
"""

import math

from .astar import SearchStatus, cancelled, normalize_estimate
from .grid_search import GridPath, GridSearchError
from .grid_search_engines import CONN_EIGHT
from .hpa import (HpaHierarchy, chunk_path, chunk_search, direction_index, path_cost,
                  validate_hpa_options)
from .open_set import OpenSet
from .options import PathStatus

INF = math.inf
ALG_ASTAR = 0   # [HPA.TIER1.ALGORITHM]


def _sign(v):
    return (v > 0) - (v < 0)


# ------------------------------------------------------------------ refinement and smoothing

def cut_loops(cells):
    """[HPA.REFINE.LOOPS] For i = 0, 1, ... while i is below the length: j = the largest index
    with cell[j] = cell[i]; when j > i remove the cells at i + 1 ..= j."""
    cells = list(cells)
    i = 0
    while i < len(cells):
        c = cells[i]
        j = len(cells) - 1
        while cells[j] != c:
            j -= 1
        if j > i:
            del cells[i + 1:j + 1]
        i += 1
    return cells


def line(w, p, q, connectivity):
    """[HPA.SMOOTH.LINE] Eight: p, then steps of (sign(xq - x), sign(yq - y)) while both
    coordinates differ, then straight steps to q.  Four: along x until x = xq, then along y.
    Lists p and q."""
    x, y = p % w, p // w
    xq, yq = q % w, q // w
    out = [p]
    if connectivity == CONN_EIGHT:
        while x != xq and y != yq:
            x += _sign(xq - x)
            y += _sign(yq - y)
            out.append(y * w + x)
    while x != xq:
        x += _sign(xq - x)
        out.append(y * w + x)
    while y != yq:
        y += _sign(yq - y)
        out.append(y * w + x)
    return out


def moves_allowed(ctx, cells):
    """[HPA.MOVE] Every move of a cell list is an allowed move."""
    w = ctx.w
    for i in range(len(cells) - 1):
        di = direction_index(w, cells[i], cells[i + 1])
        if di is None or ctx.move(cells[i], di) != cells[i + 1]:
            return False
    return True


def smooth(ctx, cells):
    """[HPA.SMOOTH.RULE] Greedy string pull: for i = 0, 1, ... while i + 2 is below the length,
    for j from the last index down to i + 2: when every move of the line cell[i] -> cell[j] is
    allowed and its cost ([HPA.COST.PATH]) is strictly below the cost of cell[i ..= j], replace
    cell[i ..= j] by the line and stop trying j for this i.  Then cut loops again."""
    cells = list(cells)
    i = 0
    while i + 2 < len(cells):
        for j in range(len(cells) - 1, i + 1, -1):
            ln = line(ctx.w, cells[i], cells[j], ctx.conn)
            if not moves_allowed(ctx, ln):
                continue
            if path_cost(ctx, ln) < path_cost(ctx, cells[i:j + 1]):
                cells[i:j + 1] = ln
                break
        i += 1
    return cut_loops(cells)


# ------------------------------------------------------------------ the sliced search

class HpaSearch(object):
    """[HPA.SLICED.API] [HPA.SLICED.NOT_SAVED] A sliced HPA* search borrowing a grid and a
    hierarchy; no state bytes."""

    def __init__(self, grid, hierarchy):
        """[HPA.SLICED.API] ``HpaSearch::new(grid, hierarchy)``; status NotStarted."""
        self._grid = grid
        self._hier = hierarchy
        self._opt = hierarchy.options()
        self._status = SearchStatus.NotStarted
        self._iterations = 0
        self._expanded = 0
        self._recorded = []
        self._path = []
        self._cost = INF
        self._abstract = []

    # -- begin -------------------------------------------------------------

    def begin(self, start, goal):
        """[HPA.QUERY.BEGIN] (x, y) pairs: x >= width or y >= height is ``cell_out_of_range``
        naming the axis and value (start first, x before y), changing nothing.  Then refresh the
        hierarchy ([HPA.BUILD.LAZY]), reset ([GRAPH.ASTAR.BEGIN]: counters, recorded list,
        status Running) and end NotFound at once, nothing pushed, when an end is not passable.
        Otherwise add the temporary nodes ([HPA.QUERY.TEMP]) and edges ([HPA.QUERY.EDGES]) and
        push the start node ([GRAPH.ASTAR.BEGIN], [GRAPH.ASTAR.START_INF])."""
        w, h = self._grid.width(), self._grid.height()
        for name, (x, y) in (("start", start), ("goal", goal)):
            if not (0 <= x < w):
                raise GridSearchError("cell_out_of_range", which=name, axis="x", value=x)
            if not (0 <= y < h):
                raise GridSearchError("cell_out_of_range", which=name, axis="y", value=y)
        s_cell, g_cell = start[1] * w + start[0], goal[1] * w + goal[0]
        ctx = self._hier.refresh(self._grid)
        self._ctx = ctx
        self._status = SearchStatus.Running
        self._iterations = 0
        self._expanded = 0
        self._recorded = []
        self._path = []
        self._cost = INF
        self._open = OpenSet()
        self._g = {}
        self._parent = {}
        if not (ctx.passable[s_cell] and ctx.passable[g_cell]):
            self._status = SearchStatus.NotFound
            return
        self._connect(s_cell, g_cell)
        # [HPA.SEARCH.ESTIMATE] mmin at begin
        self._mmin = ctx.mmin
        self._weight = float(self._opt.heuristic_weight)
        hs = self._h(self._S)
        if hs != INF:
            self._g[self._S] = 0.0
            self._parent[self._S] = -1
            self._open.push(self._S, hs, 0.0)

    def _connect(self, s_cell, g_cell):
        """[HPA.QUERY.TEMP] [HPA.QUERY.EDGES] Temporary start node N and goal node N + 1 (one
        node N when start = goal).  S -> b for every permanent node b of the start's chunk, in
        ascending id, that the chunk search from the start reaches (a b on the start cell: cost 0,
        path [start]); a -> G for every permanent node a of the goal's chunk whose chunk search
        reaches the goal; S -> G when both ends share a chunk, differ, and the start's chunk
        search reaches the goal.  No edge enters S or leaves G; start = goal: no edges."""
        hier, ctx = self._hier, self._ctx
        tiling = hier.tiling()
        n = hier.node_count()
        self._N = n
        self._S = n
        self._start_cell, self._goal_cell = s_cell, g_cell
        self._s_out = []          # [(to, cost)] ascending to
        self._s_paths = {}
        self._to_goal = {}        # permanent id -> (cost, path)
        if s_cell == g_cell:
            self._G = n
            return
        self._G = n + 1
        k = tiling.chunk_of(s_cell)
        gl = tiling.chunk_of(g_cell)
        gs, ps = chunk_search(ctx, tiling.bounds(k), s_cell)
        for b in hier.chunk_node_ids(k):
            bc = hier.node_cell(b)
            if bc in gs and gs[bc] != INF:
                self._s_out.append((b, gs[bc]))
                self._s_paths[b] = chunk_path(ps, bc)
        bounds_l = tiling.bounds(gl)
        for a in hier.chunk_node_ids(gl):
            ga, pa = chunk_search(ctx, bounds_l, hier.node_cell(a))
            if g_cell in ga and ga[g_cell] != INF:
                self._to_goal[a] = (ga[g_cell], chunk_path(pa, g_cell))
        if k == gl and g_cell in gs and gs[g_cell] != INF:
            self._s_out.append((self._G, gs[g_cell]))
            self._s_paths[self._G] = chunk_path(ps, g_cell)

    # -- the abstract graph ------------------------------------------------

    def _cell(self, node):
        if node == self._S:
            return self._start_cell
        if node == self._G:
            return self._goal_cell
        return self._hier.node_cell(node)

    def _out(self, u):
        """[HPA.QUERY.OUT_ORDER] Permanent node: its hierarchy edges, then its edge to G; S: its
        edges to permanent nodes, then to G; G: none."""
        if u == self._S:
            return self._s_out if self._G != self._S else []
        if u == self._G:
            return []
        out = self._hier.out_edges(u)
        tg = self._to_goal.get(u)
        if tg is not None:
            return out + [(self._G, tg[0])]
        return out

    def _h(self, v):
        """[HPA.SEARCH.ESTIMATE] ``h = (o * mmin) * w`` with o the octile (Four: Manhattan) value
        between v's cell and the goal cell; normalised by [GRAPH.ASTAR.ESTIMATE]."""
        o = self._ctx.octile_f(self._cell(v), self._goal_cell)
        return normalize_estimate((o * self._mmin) * self._weight)

    def _edge_path(self, u, v):
        if u == self._S:
            return self._s_paths[v]
        if v == self._G:
            return self._to_goal[u][1]
        return self._hier.stored_path(u, v)

    # -- step and run --------------------------------------------------------

    def step(self, budget):
        """[HPA.SEARCH.GRAPH] [HPA.SEARCH.ITERATION] [GRAPH.ASTAR.STEP] At most ``budget`` pops."""
        return self._loop(budget, None)

    def run(self, cancel=None):
        """[GRAPH.ASTAR.RUN] ``step`` without a budget, reading the cancel flag before each
        iteration whose count in this call is a multiple of 256 (0 included)."""
        return self._loop(None, cancel)

    def _loop(self, budget, cancel):
        """[GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.GOAL_CLOSED]
        [GRAPH.ASTAR.COUNTERS] [HPA.SEARCH.RECORD]"""
        if self._status != SearchStatus.Running:
            return self._status
        done = 0
        open_ = self._open
        record = self._opt.record_expansions
        while True:
            if len(open_) == 0:
                self._status = SearchStatus.NotFound
                return self._status
            if budget is not None and done >= budget:
                return SearchStatus.Running
            if cancel is not None and done % 256 == 0 and cancelled(cancel):
                return SearchStatus.Running
            u = open_.pop()[0]
            self._iterations += 1
            done += 1
            if u == self._G:
                self._status = SearchStatus.Found
                self._finish()
                return self._status
            self._expand(u)
            self._expanded += 1
            if record:
                self._recorded.append(self._cell(u))

    def _expand(self, u):
        """[GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.FIRST_PARENT] Out-edges of [HPA.QUERY.OUT_ORDER]:
        skip NaN, negative or infinite costs and infinite sums; on a strict improvement (or an
        unreached target) with a finite estimate set g and parent, reopen, push (v, g2 + h, g2)."""
        g, parent = self._g, self._parent
        gu = g[u]
        for v, c in self._out(u):
            if c != c or c < 0.0 or c == INF:
                continue
            g2 = gu + c
            if g2 == INF:
                continue
            gv = g.get(v)
            if gv is None or g2 < gv:
                h = self._h(v)
                if h == INF:
                    continue
                g[v] = g2
                parent[v] = u
                self._open.push(v, g2 + h, g2)

    def _finish(self):
        """[GRAPH.ASTAR.PATH] [HPA.REFINE.CONCAT] [HPA.REFINE.LOOPS] [HPA.SMOOTH.RULE]
        [HPA.COST.REPORTED] The node path S ... G, its refined cell path (stored paths
        concatenated, each but the first without its first cell; [start] for one temporary
        node), loops cut, smoothed when asked, and its [HPA.COST.PATH] cost."""
        nodes = [self._G]
        while self._parent[nodes[-1]] != -1:
            nodes.append(self._parent[nodes[-1]])
        nodes.reverse()
        self._abstract = nodes
        if len(nodes) == 1:
            cells = [self._start_cell]
        else:
            cells = list(self._edge_path(nodes[0], nodes[1]))
            for i in range(1, len(nodes) - 1):
                cells.extend(self._edge_path(nodes[i], nodes[i + 1])[1:])
        cells = cut_loops(cells)
        if self._opt.smooth:
            cells = smooth(self._ctx, cells)
        self._path = cells
        self._cost = path_cost(self._ctx, cells)

    # -- observers -----------------------------------------------------------

    def status(self):
        return self._status

    def path(self):
        """[HPA.SLICED.API] The final path of §8 when Found, else empty."""
        return list(self._path) if self._status == SearchStatus.Found else []

    def path_cost(self):
        """[HPA.COST.REPORTED] The final path's cost, +infinity unless Found."""
        return self._cost if self._status == SearchStatus.Found else INF

    def iterations(self):
        return self._iterations

    def expanded_count(self):
        return self._expanded

    def expansions(self):
        """[HPA.SEARCH.RECORD] The expanded nodes' cells in expansion order."""
        return list(self._recorded)

    def abstract_path(self):
        """[HPA.SLICED.API] Node ids S ... G when Found, else empty."""
        return list(self._abstract) if self._status == SearchStatus.Found else []


# ------------------------------------------------------------------ tier 1

def find_hpa_path(grid, start, goal, options):
    """[HPA.TIER1] [HPA.TIER1.ALGORITHM] Validate ([HPA.OPT.VALID]), build a new hierarchy,
    begin (its errors follow), ``step(iteration_budget)`` when the budget is non-zero, else
    ``run(None)``; a ``GridPath`` with algorithm AStar, status Found / NotFound /
    BudgetExhausted (still running), the reported cost, the final cells, their centres
    ([GRID.SPACE.CENTER]), the recorded cells, expanded count and iterations."""
    validate_hpa_options(options)
    hier = HpaHierarchy(options)
    s = HpaSearch(grid, hier)
    s.begin(start, goal)
    if options.iteration_budget:
        st = s.step(options.iteration_budget)
    else:
        st = s.run(None)
    if st == SearchStatus.Found:
        status = PathStatus.Found
    elif st == SearchStatus.NotFound:
        status = PathStatus.NotFound
    else:
        status = PathStatus.BudgetExhausted
    cells = s.path()
    return GridPath(ALG_ASTAR, status, s.path_cost(), cells, [grid.center(c) for c in cells],
                    s.expansions(), s.expanded_count(), s.iterations())
