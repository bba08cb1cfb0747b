"""Bidirectional A* and Dijkstra on square grids (spec/grid-bidi.md), from the spec alone.

Public names: ``GridBidiSearch`` (the sliced form, [GBIDI.STATUS] ... [GBIDI.RUN]) and
``find_grid_path_bidirectional`` (tier 1, [GBIDI.TIER1]; the result is the square searches'
``GridPath``).

The search is the graph chapter's bidirectional search ([GRAPH.BIDI.SIDES] ...
[GRAPH.BIDI.COUNTERS]) run over the square grid's move graph ([GBIDI.GRAPH]): the forward side
relaxes the allowed moves ``u -> v`` of a popped cell in neighbour order ([GBIDI.FORWARD]), the
backward side the in-edges ``x -> u`` in neighbour order, each priced in its true direction
([GBIDI.BACKWARD]).  Passability, the move rules, the area multipliers, ``mmin`` and the octile
value come from the square engines' ``GridContext`` ([GS.PASS], [GS.MOVE.STRAIGHT],
[GS.MOVE.DIAGONAL], [GS.COST.MOVE], [GS.EST.OCTILE], [GS.EST.SCALE]), built once when the search
is created ([GBIDI.GRID]).  Each side's open set is the port's array heap (``open_set.OpenSet``),
whose pop order is the strict total order [GBIDI.OPEN] asks for.  The search is never saved
([GBIDI.NOT_SAVED]): there is no ``save_state`` / ``restore_state``.
"""

import math

from .astar import SearchStatus, cancelled, normalize_estimate
from .grid_search import GridPath, GridSearchError, validate_options
from .grid_search_engines import ALG_ASTAR, ALG_DIJKSTRA, SQRT_2, GridContext
from .open_set import OpenSet
from .options import PathStatus

INF = math.inf
CANCEL_EVERY = 256   # [GBIDI.RUN] the cancel flag is read every 256 iterations of one call


class _Side(object):
    """[GRAPH.BIDI.SIDES] [GBIDI.OPEN] One side's buffers: ``g`` (+infinity = unreached),
    ``parent`` (-1 = none), ``closed`` and its own open set."""

    __slots__ = ("g", "parent", "closed", "open")

    def __init__(self, n):
        self.g = [INF] * n
        self.parent = [-1] * n
        self.closed = [False] * n
        self.open = OpenSet()


class GridBidiSearch(object):
    """[GBIDI.STATUS] [GBIDI.BEGIN] [GBIDI.TURN] [GBIDI.STOP] [GBIDI.STEP] [GBIDI.EXPAND]
    [GBIDI.MEET] [GBIDI.PATH] [GBIDI.COST] [GBIDI.COUNTERS] [GBIDI.MEETING_CELL] [GBIDI.SLICED]
    [GBIDI.RUN] [GBIDI.GRID] [GBIDI.NOT_SAVED] A resumable bidirectional search over a borrowed
    square ``Grid``."""

    def __init__(self, grid, options):
        """[GBIDI.OPT.VALID] In order: [GS.OPT.VALID] (agent size in 1..=255, then the weight
        finite and >= 1, each ``invalid_options`` naming the field), then [GBIDI.OPT.WEIGHT]
        (a weight other than exactly 1.0 is ``invalid_options``, field ``heuristic_weight``,
        also for Dijkstra), then [GBIDI.OPT.ALGORITHM] (only ``AStar`` and ``Dijkstra``; every
        other value is ``unsupported_algorithm``, no fallback).  [GBIDI.OPT.FIELDS]: every other
        field applies as on square grids.  [GBIDI.GRID]: ``mmin``, the clearance an agent larger
        than 1 needs and passability are computed here, once."""
        validate_options(options)
        w = float(options.heuristic_weight)
        if w != 1.0:
            raise GridSearchError("invalid_options", field="heuristic_weight", value=w)
        if options.algorithm not in (ALG_ASTAR, ALG_DIJKSTRA):
            raise GridSearchError("unsupported_algorithm", algorithm=options.algorithm)
        self._grid = grid
        self._opt = options
        self.algorithm = options.algorithm
        self._ctx = ctx = GridContext(grid, options)
        self._w, self._h, self._n = ctx.w, ctx.h, ctx.n
        self._record = bool(options.record_expansions)
        self._cell_cost = options.cell_cost
        self._zero = options.algorithm == ALG_DIJKSTRA
        self._nbr = [None] * ctx.n   # per cell: the allowed moves (di, cell) in neighbour order
        self._not_started()

    # ---------------------------------------------------------------- buffers

    def _reset(self):
        """[GBIDI.BEGIN] Both sides reset: every cell unreached, open sets empty, ``mu`` =
        +infinity, no meeting cell, counters zero, recorded list empty, the forward side to
        move."""
        n = self._n
        self._fwd = _Side(n)
        self._bwd = _Side(n)
        self._mu = INF
        self._meet = -1
        self._iterations = 0
        self._recorded = []
        self._forward_turn = True

    def _not_started(self):
        """[GBIDI.STATUS] A new search is NotStarted; [GBIDI.MEETING_CELL] none before the first
        ``begin``.  The ends (``_start``, ``_goal``) are set by ``begin``: their only reader,
        ``_potential``, runs in ``begin`` after they are set and in ``_expand``, which needs a
        Running search, so a search that has not begun has none."""
        self._reset()
        self._status = SearchStatus.NotStarted

    # ---------------------------------------------------------------- the move graph

    def _moves(self, u):
        """[GBIDI.FORWARD] [GBIDI.SYMMETRY] [GS.MOVE.ORDER] The neighbours ``(di, v)`` of a
        passable cell ``u`` in neighbour order ([GS.DIR]) for which the move ``u -> v`` is
        allowed ([GS.MOVE.STRAIGHT], [GS.MOVE.DIAGONAL]).  By [GBIDI.SYMMETRY] these are also
        exactly the ``x = u + d`` with ``x`` passable and the move ``x -> u`` allowed, so one
        list serves both sides (cached: the grid cannot change under a search, [GBIDI.GRID])."""
        lst = self._nbr[u]
        if lst is None:
            move = self._ctx.move
            lst = []
            for di in range(8):
                v = move(u, di)
                if v >= 0:
                    lst.append((di, v))
            self._nbr[u] = lst = tuple(lst)
        return lst

    def _est(self, a, b):
        """[GBIDI.POTENTIAL] [GS.EST.SCALE] ``est(a, b) = (o(a, b) * mmin) * w`` with ``w =
        1.0`` for AStar ([GS.EST.OCTILE] for the search's connectivity), ``+0.0`` for Dijkstra,
        normalised by [GRAPH.ASTAR.ESTIMATE].  ``x * 1.0`` is exactly ``x`` for every binary64
        ``x`` ([GBIDI.OPT.WEIGHT] allows no other weight), so the factor is not written."""
        if self._zero:
            return 0.0
        ctx = self._ctx
        return normalize_estimate(ctx.octile_f(a, b) * ctx.mmin)

    def _potential(self, v):
        """[GBIDI.POTENTIAL] [GRAPH.BIDI.POTENTIAL] ``ht = est(v, goal)``, ``hs = est(start,
        v)`` (both evaluated, in that order, afresh at every call); None when either is
        +infinity (the cell is never pushed on either side), else ``pf(v) = 0.5 * (ht -
        hs)``."""
        ht = self._est(v, self._goal)
        hs = self._est(self._start, v)
        if ht == INF or hs == INF:
            return None
        return 0.5 * (ht - hs)

    # ---------------------------------------------------------------- begin

    def begin(self, start, goal):
        """[GBIDI.BEGIN] [GBIDI.SAME_CELL] ``(x, y)`` pairs, in this order: ``x >= width`` or
        ``y >= height`` (or a negative coordinate) fails with ``cell_out_of_range`` naming the
        axis and value, start first, x before y, and changes nothing; then both sides are reset
        and the status is Running; a start or goal that is not passable ([GS.PASS]) ends
        NotFound at once with nothing pushed; ``start == goal`` ends Found at once (cost 0, path
        ``[start]``, meeting cell ``start``, no iteration, no estimate asked); otherwise the
        start is reached forward (``g = 0``) and pushed ``(start, 0 + pf(start), 0)``, then the
        goal backward and pushed ``(goal, 0 - pf(goal), 0)``, each only when its potential is
        finite (the start's potential evaluated first)."""
        w, h = self._w, self._h
        for name, (x, y) in (("start", start), ("goal", goal)):
            if not 0 <= x < w:
                raise GridSearchError("cell_out_of_range", which=name, axis="x", value=x)
            if not 0 <= y < h:
                raise GridSearchError("cell_out_of_range", which=name, axis="y", value=y)
        s = start[1] * w + start[0]
        t = goal[1] * w + goal[0]
        self._reset()
        self._start, self._goal = s, t
        self._status = SearchStatus.Running
        passable = self._ctx.passable
        if not (passable[s] and passable[t]):
            self._status = SearchStatus.NotFound
            return
        if s == t:
            self._status = SearchStatus.Found
            self._mu = 0.0
            self._meet = s
            self._fwd.g[s] = 0.0
            self._bwd.g[t] = 0.0
            return
        ps = self._potential(s)
        if ps is not None:
            self._fwd.g[s] = 0.0
            self._fwd.open.push(s, 0.0 + ps, 0.0)
        pg = self._potential(t)
        if pg is not None:
            self._bwd.g[t] = 0.0
            self._bwd.open.push(t, 0.0 - pg, 0.0)

    # ---------------------------------------------------------------- one iteration

    def _expand(self, forward, u):
        """[GBIDI.EXPAND] [GBIDI.FORWARD] [GBIDI.BACKWARD] [GBIDI.MEET] Relax the edges of the
        popped cell ``u`` in neighbour order.  Forward: out-edge ``u -> v`` of cost ``base(d) *
        m(area(v))``, then ``+ cell_cost(u, v)``.  Backward: in-edge ``x -> u`` of cost
        ``base(d) * m(area(u))`` (the area of the cell the move enters), then ``+ cell_cost(x,
        u)``.  An ``extra`` that is NaN, negative or +infinity makes the edge absent (``-0.0``
        counts as 0).  With ``y`` the cell reached: ``g2 = g_this[u] + c``; skip +infinity; when
        ``y`` is unreached on this side or ``g2 < g_this[y]`` strictly, evaluate ``pf(y)`` and
        skip ``y`` when it is not finite, else set ``g``, parent, reopen, push ``(y, g2 +
        pf(y), g2)`` forward or ``(y, g2 - pf(y), g2)`` backward, then the meeting test:
        when the other side has reached ``y``, ``g_this[y] + g_other[y]`` replaces ``mu`` when
        strictly smaller and ``y`` becomes the meeting cell (an equal candidate keeps the earlier
        one)."""
        if forward:
            this, other = self._fwd, self._bwd
        else:
            this, other = self._bwd, self._fwd
        g, parent, closed, push = this.g, this.parent, this.closed, this.open.push
        g_other = other.g
        gu = g[u]
        ctx = self._ctx
        mult, cells, hook = ctx.mult, ctx.cells, self._cell_cost
        m_u = mult[cells[u]]
        for di, y in self._moves(u):
            base = SQRT_2 if di >= 4 else 1.0
            if forward:
                c = base * mult[cells[y]]
                if hook is not None:
                    extra = float(hook(u, y))
                    if extra != extra or extra < 0.0 or extra == INF:
                        continue
                    c = c + extra
            else:
                c = base * m_u
                if hook is not None:
                    extra = float(hook(y, u))
                    if extra != extra or extra < 0.0 or extra == INF:
                        continue
                    c = c + extra
            g2 = gu + c
            if g2 == INF:
                continue
            gy = g[y]
            if gy == INF or g2 < gy:
                p = self._potential(y)
                if p is None:
                    continue
                g[y] = g2
                parent[y] = u
                closed[y] = False
                push(y, (g2 + p) if forward else (g2 - p), g2)
                go = g_other[y]
                if go != INF:
                    cand = g2 + go
                    if cand < self._mu:
                        self._mu = cand
                        self._meet = y

    def _loop(self, budget, cancel):
        """[GBIDI.STEP] [GBIDI.RUN] [GBIDI.STOP] [GBIDI.TURN] [GBIDI.COUNTERS] Nothing unless
        Running.  Before every iteration: the stop check (either open set empty, or
        ``top_f(forward) + top_f(backward) >= mu``: Found when ``mu`` is finite, else NotFound);
        then the budget (``step(n)``: ``n`` iterations done in this call return Running); then,
        for ``run(cancel)``, the cancel flag whenever the iterations done in this call are a
        multiple of 256 (0 included); then one pop of the side whose turn it is (forward first,
        strictly alternating across calls): close, count one iteration and one expansion, record,
        relax ([GBIDI.EXPAND])."""
        if self._status != SearchStatus.Running:
            return self._status
        done = 0
        fo, bo = self._fwd.open, self._bwd.open
        while True:
            if len(fo) == 0 or len(bo) == 0 or fo.peek_f() + bo.peek_f() >= self._mu:
                self._status = SearchStatus.Found if self._mu != INF else SearchStatus.NotFound
                return self._status
            if budget is not None and done >= budget:
                return SearchStatus.Running
            if cancel is not None and done % CANCEL_EVERY == 0 and cancelled(cancel):
                return SearchStatus.Running
            forward = self._forward_turn
            self._forward_turn = not forward
            side = self._fwd if forward else self._bwd
            u = side.open.pop()[0]
            side.closed[u] = True
            self._iterations += 1
            done += 1
            if self._record:
                self._recorded.append(u)
            self._expand(forward, u)

    # ---------------------------------------------------------------- the sliced surface

    def step(self, budget):
        """[GBIDI.STEP] [GBIDI.SLICED] At most ``budget`` iterations; ``step(0)`` pops nothing
        but still ends a search whose stop condition holds ([GBIDI.STOP])."""
        return self._loop(int(budget), None)

    def run(self, cancel=None):
        """[GBIDI.RUN] ``step`` without a budget; the cancel flag (None, a bool, a callable or an
        Event-like) is read after the stop check whenever the iterations done in this call are
        a multiple of 256; a set flag returns Running and the search can be continued."""
        return self._loop(None, cancel)

    def status(self):
        """[GBIDI.STATUS]"""
        return self._status

    def path(self):
        """[GBIDI.PATH] When Found: the forward parent chain from the meeting cell back to the
        start, reversed, then the backward parent chain from the meeting cell to the goal (the
        meeting cell once); cell indexes, start first.  Empty when not Found."""
        if self._status != SearchStatus.Found:
            return []
        out = []
        v = self._meet
        fp = self._fwd.parent
        while v != -1:
            out.append(v)
            v = fp[v]
        out.reverse()
        bp = self._bwd.parent
        v = bp[self._meet]
        while v != -1:
            out.append(v)
            v = bp[v]
        return out

    def path_cost(self):
        """[GBIDI.COST] [GBIDI.PATH] ``mu`` when Found (the one addition ``g_this[m] +
        g_other[m]`` that last lowered it, not re-summed), else +infinity."""
        return self._mu if self._status == SearchStatus.Found else INF

    def iterations(self):
        """[GBIDI.COUNTERS] Pops of both sides."""
        return self._iterations

    def expanded_count(self):
        """[GBIDI.COUNTERS] Equal to ``iterations``: every pop expands, there is no goal pop."""
        return self._iterations

    def expansions(self):
        """[GBIDI.COUNTERS] The popped cells in pop order (forward, backward, ...) when
        recording, else empty."""
        return list(self._recorded)

    def meeting_cell(self):
        """[GBIDI.MEETING_CELL] None before the first ``begin``, after a ``begin`` until a
        relaxation meets, and whenever ``mu`` is +infinity; otherwise the cell whose meeting gave
        the current ``mu`` (also while Running); the start for ``start == goal``."""
        if self._meet < 0:   # a meet sets a finite mu ([GBIDI.MEET]: +inf is never strictly lower)
            return None
        return self._meet


def _path_status(st):
    """[GBIDI.TIER1] Found, NotFound, or BudgetExhausted while the search is still running."""
    if st == SearchStatus.Found:
        return PathStatus.Found
    if st == SearchStatus.NotFound:
        return PathStatus.NotFound
    return PathStatus.BudgetExhausted


def find_grid_path_bidirectional(grid, start, goal, options):
    """[GBIDI.TIER1] [GBIDI.TIER1.SEPARATE] ``new``, ``begin``, then ``step(iteration_budget)``
    when the budget is non-zero, else ``run(None)``; a ``GridPath`` with the requested algorithm
    (AStar or Dijkstra), the status, the cost ([GBIDI.COST]; +infinity unless found), the cells
    (start first), their centres ([GRID.SPACE.CENTER]), the recorded cells and the counters.
    Errors are those of ``new``, then ``begin``."""
    s = GridBidiSearch(grid, options)
    s.begin(start, goal)
    if options.iteration_budget:
        st = s.step(options.iteration_budget)
    else:
        st = s.run(None)
    found = st == SearchStatus.Found
    cells = s.path() if found else []
    cost = s.path_cost() if found else INF
    return GridPath(options.algorithm, _path_status(st), cost, cells,
                    [grid.center(c) for c in cells], s.expansions(), s.expanded_count(),
                    s.iterations())
