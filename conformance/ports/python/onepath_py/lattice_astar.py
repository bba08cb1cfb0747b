"""The graph A* both lattice searches run ([HEX.SEARCH.GRAPH], [VOXEL.SEARCH.GRAPH]).

Written from spec/graphs.md §6 ([GRAPH.ASTAR.BEGIN] ... [GRAPH.ASTAR.RUN]) over a *move graph*:
nodes are cell (or voxel) indexes, the out-edges of ``u`` are the allowed moves of ``u`` in the
family's neighbour order with their costs, and the estimate is the family's.  The open set is the
port's own array heap of [STATE.HEAP.ARRAY] ... [STATE.HEAP.UPDATE] (``open_set.OpenSet``); a
lattice search is never saved ([HEX.SEARCH.NOT_SAVED], [VOXEL.SEARCH.NOT_SAVED]), so only its pop
order is observable, and that order is the strict total order of [GRAPH.OPEN.ORDER].

The step / run loop is the square engines' (``grid_search_engines._Sliced``): empty-first
([GRAPH.ASTAR.EMPTY_FIRST]), then the budget, then pop, count, close, goal test, expand, count,
record ([GRAPH.ASTAR.STEP], [GRAPH.ASTAR.COUNTERS], [GRAPH.ASTAR.GOAL_CLOSED]); ``run`` reads the
cancel flag every 256 iterations ([GRAPH.ASTAR.RUN]).
"""

import math

from .astar import SearchStatus, normalize_estimate
from .grid_search_engines import _Sliced
from . import open_set as _open_set

INF = math.inf


def make_open_set():
    """[STATE.HEAP.ARRAY] The open set a lattice search uses (a hook point for the driver's
    ``hex_tie`` defect, which replaces the hex search's factory; the library never changes it)."""
    return _open_set.OpenSet()


class LatticeEngine(_Sliced):
    """[GRAPH.ASTAR.BUFFERS] [GRAPH.ASTAR.STEP] A resumable A* over ``n`` nodes.

    ``moves(u)`` gives the allowed out-edges of ``u`` as ``(v, c)`` in neighbour order, ``c`` the
    move's cost (a cost the graph rules skip, NaN / negative / +infinity, may be returned: the
    engine applies [GRAPH.ASTAR.EXPAND] to it).  ``estimate(v)`` gives the raw estimate of ``v``
    towards the current goal (``goal`` is set by ``begin`` before the first call);
    ``passable(c)`` is [HEX.PASS] / [VOXEL.PASS] for the begin rule ([HEX.SEARCH.BEGIN],
    [VOXEL.SEARCH.BEGIN]).  ``open_factory`` makes the open set.
    """

    def __init__(self, n, moves, estimate, passable, record, open_factory=make_open_set):
        self.n = n
        self.moves = moves
        self.estimate = estimate
        self.passable = passable
        self.record = record
        self._open = open_factory()
        self._not_started()

    def _not_started(self):
        """[GRAPH.ASTAR.BUFFERS] Every node unreached, counters zero, status NotStarted."""
        self._reset_common()
        n = self.n
        self._g = [INF] * n
        self._parent = [-1] * n
        self._closed = [False] * n
        self._open.clear()

    def _h(self, v):
        """[GRAPH.ASTAR.ESTIMATE] The normalised estimate of ``v``."""
        return normalize_estimate(self.estimate(v))

    def begin_nodes(self, s, t):
        """[GRAPH.ASTAR.BEGIN] [GRAPH.ASTAR.START_INF] ``s``, ``t`` already validated (the
        caller's coordinate checks come first and a failed ``begin`` changes nothing).  Reset,
        Running; a start or goal that is not passable ends NotFound at once with nothing pushed;
        otherwise push ``(s, h, 0)`` unless ``h(s)`` is +infinity."""
        self._not_started()
        self._start, self._goal = s, t
        self._status = SearchStatus.Running
        if not (self.passable(s) and self.passable(t)):
            self._status = SearchStatus.NotFound
            return
        h = self._h(s)
        if h != INF:
            self._g[s] = 0.0
            self._open.push(s, h, 0.0)

    def goal(self):
        return self._goal

    def _empty(self):
        return len(self._open) == 0

    def _pop(self):
        return self._open.pop()[0]

    def _close(self, u):
        self._closed[u] = True

    def _expand(self, u):
        """[GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.FIRST_PARENT] For each allowed move ``u -> v`` in
        neighbour order: skip a NaN, negative or +infinity cost (``-0.0`` is used); ``g2 = g[u] +
        c``, skip +infinity; if ``v`` is unreached or ``g2 < g[v]`` strictly: ``h``, skip
        +infinity, else set ``g``, parent, reopen and push ``(v, g2 + h, g2)``."""
        g = self._g
        gu = g[u]
        parent, closed, push = self._parent, self._closed, self._open.push
        for v, c in self.moves(u):
            if c != c or c < 0.0 or c == INF:
                continue
            g2 = gu + c
            if g2 == INF:
                continue
            gv = g[v]
            if gv == INF or g2 < gv:
                h = self._h(v)
                if h == INF:
                    continue
                g[v] = g2
                parent[v] = u
                closed[v] = False
                push(v, g2 + h, g2)

    def path(self):
        """[GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] Parent chain from the goal, reversed."""
        if self._status != SearchStatus.Found:
            return []
        out = []
        v = self._goal
        while v != -1:
            out.append(v)
            v = self._parent[v]
        out.reverse()
        return out

    def path_cost(self):
        """[GRAPH.ASTAR.STEP] g[goal] when Found, else +infinity ([GRAPH.ASTAR.NOT_FOUND])."""
        return self._g[self._goal] if self._status == SearchStatus.Found else INF
