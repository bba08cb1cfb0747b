"""Bidirectional search: [GRAPH.BIDI.*]."""

import math

from .astar import (DefaultGraphCost, SearchStatus, ZeroGraphHeuristic, cancelled,
                    check_nodes, cost_blocked, normalize_estimate)
from .open_set import OpenSet

INF = math.inf


class _Side(object):
    """[GRAPH.BIDI.SIDES] One side's buffers and open set."""

    __slots__ = ("g", "parent", "open")

    def __init__(self, n):
        """[GRAPH.BIDI.SIDES] Fresh per-side buffers."""
        self.g = [INF] * n
        self.parent = [-1] * n
        self.open = OpenSet()


class BidirectionalGraphSearch(object):
    """[GRAPH.BIDI.SIDES] [GRAPH.BIDI.TURN] Resumable bidirectional search (same methods as GraphAStar)."""

    def __init__(self, graph, cost=None, heuristic=None):
        """[GRAPH.BIDI.SIDES] Two sides; status NotStarted."""
        self._graph = graph
        self._cost = cost if cost is not None else DefaultGraphCost()
        self._blocked = cost_blocked(self._cost)
        self._heur = heuristic if heuristic is not None else ZeroGraphHeuristic()
        n = graph.node_count()
        self._fwd = _Side(n)
        self._bwd = _Side(n)
        self._record = False
        self._recorded = []
        self._iterations = 0
        self._status = SearchStatus.NotStarted
        self._start = 0
        self._goal = 0
        self._mu = INF
        self._meet = -1
        self._turn = 0

    def set_record_expansions(self, record):
        """[GRAPH.BIDI.COUNTERS] Enable the recorded list of popped nodes."""
        self._record = bool(record)

    def _potential(self, v):
        """[GRAPH.BIDI.POTENTIAL] ht = estimate(v, goal), then hs = estimate(start, v); None if either is +inf.

        Both estimates are always evaluated (the spec says "evaluated in that order" but
        not whether hs is still asked when ht is already +infinity).
        """
        ht = normalize_estimate(self._heur.estimate(v, self._goal))
        hs = normalize_estimate(self._heur.estimate(self._start, v))
        if ht == INF or hs == INF:
            return None
        return 0.5 * (ht - hs)

    def begin(self, start, goal):
        """[GRAPH.BIDI.BEGIN] [GRAPH.ASTAR.BLOCKED] [GRAPH.T1.BLOCKED]

        Order (partly guessed): range checks, reset, blocked(start), blocked(goal),
        start == goal, pf(start) push forward, pf(goal) push backward.
        """
        n = self._graph.node_count()
        check_nodes(n, start, goal)
        self._fwd = _Side(n)
        self._bwd = _Side(n)
        self._recorded = []
        self._iterations = 0
        self._start = start
        self._goal = goal
        self._mu = INF
        # no _meet reset: path() reads it only when Found, which sets it (below, or with mu in _relax)
        self._turn = 0
        self._status = SearchStatus.Running
        if self._blocked(start) or self._blocked(goal):
            self._status = SearchStatus.NotFound
            return
        if start == goal:
            self._status = SearchStatus.Found
            self._mu = 0.0
            self._meet = start
            self._fwd.g[start] = 0.0
            self._bwd.g[goal] = 0.0
            return
        ps = self._potential(start)
        if ps is not None:
            self._fwd.g[start] = 0.0
            self._fwd.open.push(start, 0.0 + ps, 0.0)
        pg = self._potential(goal)
        if pg is not None:
            self._bwd.g[goal] = 0.0
            self._bwd.open.push(goal, 0.0 - pg, 0.0)

    def _relax(self, forward, u):
        """[GRAPH.BIDI.EXPAND] [GRAPH.BIDI.SIDES] [GRAPH.BIDI.MEET] [GRAPH.ASTAR.EXPAND]"""
        graph = self._graph
        if forward:
            this, other = self._fwd, self._bwd
            offs, nbrs, ws = graph.offsets(), graph.targets(), graph.weights()
        else:
            this, other = self._bwd, self._fwd
            offs, nbrs, ws = graph.reverse_offsets(), graph.sources(), graph.reverse_weights()
        g = this.g
        gu = g[u]
        blocked = self._blocked
        cost = self._cost.cost
        for slot in range(offs[u], offs[u + 1]):
            v = nbrs[slot]
            w = ws[slot]
            if blocked(v):
                continue
            # cost hooks get the edge's true direction
            c = float(cost(u, v, w) if forward else cost(v, u, w))
            if c != c or c < 0.0 or c == INF:
                continue
            g2 = gu + c
            if g2 == INF:
                continue
            if g[v] == INF or g2 < g[v]:
                p = self._potential(v)
                if p is None:
                    continue
                g[v] = g2
                this.parent[v] = u
                this.open.push(v, (g2 + p) if forward else (g2 - p), g2)
                if other.g[v] != INF:
                    cand = g[v] + other.g[v]
                    if cand < self._mu:
                        self._mu = cand
                        self._meet = v

    def _loop(self, budget, cancel):
        """[GRAPH.BIDI.STOP] [GRAPH.BIDI.TURN] [GRAPH.BIDI.COUNTERS] [GRAPH.ASTAR.RUN]"""
        if self._status != SearchStatus.Running:
            return self._status
        done = 0
        while True:
            fo, bo = self._fwd.open, self._bwd.open
            if len(fo) == 0 or len(bo) == 0 or fo.peek_f() + bo.peek_f() >= self._mu:
                self._status = SearchStatus.Found if self._mu != INF else SearchStatus.NotFound
                return self._status
            if budget is not None and done >= budget:
                return SearchStatus.Running
            if cancel is not None and done % 256 == 0 and cancelled(cancel):
                return SearchStatus.Running
            forward = self._turn == 0
            self._turn ^= 1
            side = self._fwd if forward else self._bwd
            u, _, _ = side.open.pop()
            self._iterations += 1
            done += 1
            if self._record:
                self._recorded.append(u)
            self._relax(forward, u)

    def step(self, max_iterations):
        """[GRAPH.ASTAR.STEP] [GRAPH.BIDI.STOP] [GRAPH.ASTAR.SLICED] At most ``max_iterations`` pops."""
        return self._loop(max_iterations, None)

    def run(self, cancel=None):
        """[GRAPH.ASTAR.RUN] No budget; cancel checked (after the stop check) before the first and every 256th iteration."""
        return self._loop(None, cancel)

    def status(self):
        """[GRAPH.ASTAR.STATUS] Current status."""
        return self._status

    def path(self):
        """[GRAPH.BIDI.PATH] Forward chain to the meeting node, then backward chain to the goal."""
        if self._status != SearchStatus.Found:
            return []
        head = []
        v = self._meet
        while v != -1:
            head.append(v)
            v = self._fwd.parent[v]
        head.reverse()
        v = self._bwd.parent[self._meet]
        while v != -1:
            head.append(v)
            v = self._bwd.parent[v]
        return head

    def path_cost(self):
        """[GRAPH.BIDI.PATH] [GRAPH.ASTAR.NOT_FOUND] mu when Found, else +infinity."""
        return self._mu if self._status == SearchStatus.Found else INF

    def iterations(self):
        """[GRAPH.BIDI.COUNTERS] Pops of both sides."""
        return self._iterations

    def expanded_count(self):
        """[GRAPH.BIDI.COUNTERS] Equal to iterations (every pop expands)."""
        return self._iterations

    def expansions(self):
        """[GRAPH.BIDI.COUNTERS] Popped nodes in pop order."""
        return list(self._recorded)
