"""Graph A*: [GRAPH.ASTAR.*], [GRAPH.EST.ZERO]."""

import enum
import math

from . import errors
from .open_set import OpenSet

INF = math.inf


class SearchStatus(enum.IntEnum):
    """[GRAPH.ASTAR.STATUS] NotStarted = 0, Running = 1, Found = 2, NotFound = 3."""

    NotStarted = 0
    Running = 1
    Found = 2
    NotFound = 3


def normalize_estimate(e):
    """[GRAPH.ASTAR.ESTIMATE] +inf stays +inf; e if e > 0; +0.0 otherwise (NaN, negative, -0.0)."""
    e = float(e)
    if e == INF:
        return INF
    if e > 0.0:
        return e
    return 0.0


class DefaultGraphCost(object):
    """[GRAPH.API.TIER1_SEARCH] cost = weight; nothing blocked."""

    def cost(self, from_, to, weight):
        """[GRAPH.ASTAR.EXPAND] The edge weight."""
        return weight

    def blocked(self, node):
        """[GRAPH.ASTAR.BLOCKED] Nothing blocked."""
        return False


class ZeroGraphHeuristic(object):
    """[GRAPH.EST.ZERO] Estimate 0: A* is Dijkstra."""

    def estimate(self, from_, to):
        """[GRAPH.EST.ZERO] 0."""
        return 0.0


def cost_blocked(cost_obj):
    """[GRAPH.ASTAR.BLOCKED] The cost object's blocked hook, or a never-blocked default."""
    b = getattr(cost_obj, "blocked", None)
    return b if b is not None else (lambda node: False)


def check_nodes(n, start, goal):
    """[GRAPH.ASTAR.BEGIN] [GRAPH.T1.CHECKS] start < N then goal < N, else node_out_of_range."""
    if not (isinstance(start, int) and 0 <= start < n):
        raise errors.NodeOutOfRange(which="start")
    if not (isinstance(goal, int) and 0 <= goal < n):
        raise errors.NodeOutOfRange(which="goal")


def cancelled(cancel):
    """[GRAPH.ASTAR.RUN] Read a cancel flag (never None here: the callers test that first): a
    threading.Event-like or a bool."""
    return bool(cancel.is_set()) if hasattr(cancel, "is_set") else bool(cancel)


class GraphAStar(object):
    """[GRAPH.ASTAR.BUFFERS] [GRAPH.ASTAR.STEP] Resumable A* over a CsrGraph."""

    def __init__(self, graph, cost=None, heuristic=None):
        """[GRAPH.ASTAR.BUFFERS] Buffers are sized to the graph; status NotStarted."""
        self._graph = graph
        self._cost = cost if cost is not None else DefaultGraphCost()
        self._blocked = cost_blocked(self._cost)
        self._heur = heuristic if heuristic is not None else ZeroGraphHeuristic()
        self._open = OpenSet()
        self._record = False
        self._not_started()

    def _not_started(self):
        """[STATE.SEARCH.FIELDS] [STATE.SEARCH_FAILED] Fresh NotStarted buffers (also after a failed restore)."""
        n = self._graph.node_count()
        self._g = [INF] * n
        self._parent = [-1] * n
        self._closed = [False] * n
        self._open.clear()
        self._recorded = []
        self._iterations = 0
        self._expanded = 0
        self._status = SearchStatus.NotStarted
        self._start = -1
        self._goal = -1
        self._cost_found = INF

    def set_record_expansions(self, record):
        """[GRAPH.ASTAR.COUNTERS] Enable the recorded list of expanded nodes."""
        self._record = bool(record)

    def _estimate(self, v):
        """[GRAPH.ASTAR.ESTIMATE] Normalised estimate(v, goal)."""
        return normalize_estimate(self._heur.estimate(v, self._goal))

    def begin(self, start, goal):
        """[GRAPH.ASTAR.BEGIN] [GRAPH.ASTAR.BLOCKED] [GRAPH.ASTAR.START_INF]

        Range checks (start first) come before anything else; a failed check changes
        nothing.  Then the reset, then blocked(start), blocked(goal) (only if the start is
        not blocked), then the start estimate.
        """
        n = self._graph.node_count()
        check_nodes(n, start, goal)
        self._g = [INF] * n
        self._parent = [-1] * n
        self._closed = [False] * n
        self._open.clear()
        self._recorded = []
        self._iterations = 0
        self._expanded = 0
        self._start = start
        self._goal = goal
        self._cost_found = INF
        self._status = SearchStatus.Running
        if self._blocked(start) or self._blocked(goal):
            self._status = SearchStatus.NotFound
            return
        h = self._estimate(start)
        if h != INF:
            self._g[start] = 0.0
            self._parent[start] = -1
            self._open.push(start, h, 0.0)

    def _expand(self, u):
        """[GRAPH.ASTAR.EXPAND] [GRAPH.ASTAR.FIRST_PARENT] [GRAPH.ASTAR.BLOCKED]"""
        graph = self._graph
        offs = graph.offsets()
        targets = graph.targets()
        weights = graph.weights()
        g = self._g
        gu = g[u]
        blocked = self._blocked
        cost = self._cost.cost
        for slot in range(offs[u], offs[u + 1]):
            v = targets[slot]
            w = weights[slot]
            if blocked(v):
                continue
            c = float(cost(u, v, w))
            if c != c or c < 0.0 or c == INF:
                continue
            g2 = gu + c
            if g2 == INF:
                continue
            if g[v] == INF or g2 < g[v]:
                h = self._estimate(v)
                if h == INF:
                    continue
                g[v] = g2
                self._parent[v] = u
                self._closed[v] = False
                self._open.push(v, g2 + h, g2)

    def _loop(self, budget, cancel):
        """[GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.GOAL_CLOSED] [GRAPH.ASTAR.COUNTERS] [GRAPH.ASTAR.RUN]"""
        if self._status != SearchStatus.Running:
            return self._status
        done = 0
        while True:
            if len(self._open) == 0:
                self._status = SearchStatus.NotFound
                return self._status
            if budget is not None and done >= budget:
                return SearchStatus.Running
            if cancel is not None and done % 256 == 0 and cancelled(cancel):
                return SearchStatus.Running
            u, _, _ = self._open.pop()
            self._iterations += 1
            done += 1
            self._closed[u] = True
            if u == self._goal:
                self._status = SearchStatus.Found
                self._cost_found = self._g[u]
                return self._status
            self._expand(u)
            self._expanded += 1
            if self._record:
                self._recorded.append(u)

    def step(self, max_iterations):
        """[GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.SLICED] At most ``max_iterations`` pops."""
        return self._loop(max_iterations, None)

    def run(self, cancel=None):
        """[GRAPH.ASTAR.RUN] No budget; the cancel flag is read after the empty check, before
        each iteration whose in-call index is a multiple of 256 (0 included)."""
        return self._loop(None, cancel if cancel is not None else None)

    def status(self):
        """[GRAPH.ASTAR.STATUS] Current status."""
        return self._status

    def path(self):
        """[GRAPH.ASTAR.PATH] [GRAPH.ASTAR.NOT_FOUND] Parent chain from goal, reversed; empty unless Found."""
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
        """[GRAPH.ASTAR.STEP] [GRAPH.ASTAR.NOT_FOUND] g[goal] when Found, else +infinity."""
        return self._cost_found if self._status == SearchStatus.Found else INF

    def iterations(self):
        """[GRAPH.ASTAR.COUNTERS] Pops, the goal's included."""
        return self._iterations

    def expanded_count(self):
        """[GRAPH.ASTAR.COUNTERS] Expansions (the goal's pop is not one)."""
        return self._expanded

    def expansions(self):
        """[GRAPH.ASTAR.COUNTERS] Recorded expanded nodes in order."""
        return list(self._recorded)

    # ------------------------------------------------------------ [STATE.SEARCH]

    def save_state(self):
        """[STATE.API] [STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.STABLE] Kind-11 bytes of this search."""
        from .state import save_search
        return save_search(self._graph.node_count(), int(self._status), self._start, self._goal,
                           self._expanded, self._iterations, self._cost_found, self._g,
                           self._parent, self._closed, self._open.entries(), self._recorded)

    def restore_state(self, data):
        """[STATE.API] [STATE.SEARCH.CHECKS] [STATE.SEARCH_FAILED] [STATE.SEARCH.RECORD] [STATE.SEARCH.RESTORE]

        Validates against this search (node count, weight 1.0), then installs the saved
        buffers, heap (as it lies), counters and recorded list; the recording switch is
        kept.  On any failure the search is left NotStarted and the error is raised.
        """
        from .state import parse_search
        try:
            st = parse_search(data, self._graph.node_count(), 1.0)
        except errors.GraphStateError:
            self._not_started()
            raise
        self._not_started()
        g, parent, closed = self._g, self._parent, self._closed
        for v, c, gv, p in st.visited:
            g[v] = gv
            parent[v] = p
            closed[v] = c
        self._open.load(st.heap)
        self._recorded = list(st.recorded)
        self._iterations = st.iterations
        self._expanded = st.expanded
        self._status = SearchStatus(st.status)
        self._start = st.start
        self._goal = st.goal
        self._cost_found = st.path_cost
