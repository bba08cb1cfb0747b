"""LPA* and D* Lite replanners on square and hex grids (spec/replanning.md §1, §4-§6).

Public names: ``ReplanMode``, ``GridReplanner`` (over a ``Grid``), ``HexReplanner`` (over a
``HexGrid``), ``ReplanError`` (a ``GridSearchError``).  State bytes (kinds 5 and 6) live in
``replan_state``.

Clauses: [REPLAN.API.NEW] [REPLAN.API.OPTIONS] [REPLAN.API.NO_HOOKS] [REPLAN.API.HEX_OPTIONS]
[REPLAN.API.ENDS] [REPLAN.API.DETACH] [REPLAN.API.CLASSES] [REPLAN.KEY.ESTIMATE] [REPLAN.KEY.SCALE]
[REPLAN.KEY.H] [REPLAN.KEY.CALC] [REPLAN.INIT.STATE] [REPLAN.INIT.RUN] [REPLAN.UPDATE]
[REPLAN.COMPUTE.STOP] [REPLAN.COMPUTE.STEP] [REPLAN.COMPUTE.LOOP] [REPLAN.EDIT.LISTEN]
[REPLAN.EDIT.LIMIT] [REPLAN.EDIT.CELLS] [REPLAN.EDIT.AREAS] [REPLAN.EDIT.GRID_RESTORE]
[REPLAN.RUN.RESTART] [REPLAN.RUN.REPLAN] [REPLAN.RUN.COUNTERS] [REPLAN.RUN.RECORD]
[REPLAN.RUN.SET_START] [REPLAN.RUN.SET_GOAL] [REPLAN.RUN.INVALIDATE] [REPLAN.PATH.WALK]
[REPLAN.PATH.BROKEN] [REPLAN.PATH.USE] [REPLAN.STATE.STRUCTURAL] [DEBUG.REPLAN.KINDS] [DEBUG.REPLAN.FIELDS].

Terms: LPA* searches forward (source = start, target = goal), D* Lite backward (source = goal,
target = start).  ``g`` and ``rhs`` are lists over every cell; the set ``_touched`` holds every cell
given a finite value since the last initialisation, so resets and saves walk what the replanner
reached, not every cell.
"""

import math
import weakref

from .astar import SearchStatus
from .grid_search import GridSearchError
from .grid_search_engines import ALG_ASTAR, ALG_DIJKSTRA
from .replan_moves import HexMoves, SquareMoves, WALL
from .replan_queue import ReplanOpenSet, key_less

from .debug import ReplanExpansion

SETTLE = ReplanExpansion.Settle   # [DEBUG.REPLAN.KINDS]
RESET = ReplanExpansion.Reset

INF = float("inf")


class ReplanMode(object):
    """[REPLAN.API.NEW] ``Lpa = 0``, ``DStarLite = 1``."""
    Lpa = 0
    DStarLite = 1


class ReplanError(GridSearchError):
    """[REPLAN.API.CLASSES] invalid_options, unsupported_algorithm, cell_out_of_range,
    size_mismatch, broken_path, path_cycle."""


def _check_options(options, hexgrid):
    """[REPLAN.API.OPTIONS] In order: [GS.OPT.VALID] (agent size, then weight finite and >= 1),
    the weight exactly 1.0, a hex agent size of 1 ([REPLAN.API.HEX_OPTIONS]), the hooks
    (cell_cost before blocked, [REPLAN.API.NO_HOOKS]), then the algorithm (A* or Dijkstra)."""
    k = options.agent_size
    if not (1 <= k <= 255):
        raise ReplanError("invalid_options", field="agent_size", value=k)
    w = float(options.heuristic_weight)
    if not (math.isfinite(w) and w >= 1.0):
        raise ReplanError("invalid_options", field="heuristic_weight", value=w)
    if w != 1.0:
        raise ReplanError("invalid_options", field="heuristic_weight", value=w)
    if hexgrid and k != 1:
        raise ReplanError("invalid_options", field="agent_size", value=k)
    if options.cell_cost is not None:
        raise ReplanError("invalid_options", field="cell_cost")
    if options.blocked is not None:
        raise ReplanError("invalid_options", field="blocked")
    if options.algorithm not in (ALG_ASTAR, ALG_DIJKSTRA):
        raise ReplanError("unsupported_algorithm", algorithm=options.algorithm)
    return w


def _scale(mult):
    """[REPLAN.KEY.SCALE] The smallest multiplier of areas 0..=254."""
    m = mult[0]
    for i in range(1, 255):
        if mult[i] < m:
            m = mult[i]
    return m


class _Replanner(object):
    """The engine shared by ``GridReplanner`` and ``HexReplanner``."""

    _KIND = None
    _HEX = False

    def __init__(self, grid, options, mode, start, goal):
        """[REPLAN.API.NEW] Options, then the ends (start first, x before y); the listener is
        registered only when everything succeeded."""
        self._weight = _check_options(options, self._HEX)
        assert mode in (ReplanMode.Lpa, ReplanMode.DStarLite), mode   # the two modes of the API
        w, h = grid.width(), grid.height()
        s = self._cell(w, h, start)
        t = self._cell(w, h, goal)
        self._w, self._h = w, h
        self._n = n = w * h
        self._mode = mode
        self._lpa = mode == ReplanMode.Lpa
        self._algorithm = options.algorithm
        self._zero_h = options.algorithm == ALG_DIJKSTRA
        self._record = bool(options.record_expansions)
        if self._HEX:
            self._moves = HexMoves(w, h, grid.layout())
        else:
            self._moves = SquareMoves(w, h, options)
        self._start, self._goal = s, t
        self._g = [INF] * n
        self._rhs = [INF] * n
        self._touched = set()
        self._q = ReplanOpenSet(n)
        self._km = 0.0
        self._pending = []
        self._overflow = False
        self._init = False
        self._found = False
        self._iterations = 0
        self._expanded = 0
        self._last_expanded = 0
        self._expansions = []
        self._kinds = []                               # [DEBUG.REPLAN.KINDS] beside _expansions
        self._limit = 64 + n // 16                     # [REPLAN.EDIT.LIMIT]
        self._mult = grid._mult
        self._scale = _scale(grid._mult)               # [REPLAN.KEY.SCALE] at creation
        self._src = s if self._lpa else t
        self._hkc = {}                                 # cache: cell -> hk(cell), for _hk_for
        self._hk_for = None
        self._body = None                              # cache: saved planned cells and queue
        self._area_version = grid.area_version()       # [REPLAN.EDIT.AREAS]
        self._restore_count = grid.restore_count()     # [REPLAN.EDIT.GRID_RESTORE]
        ref = weakref.ref(self)

        def listener(cell, old, new):
            r = ref()
            if r is not None:                          # [REPLAN.API.DETACH] a dropped replanner
                r._on_edit(cell, old, new)
        self._grid_ref = weakref.ref(grid)
        grid.add_listener(listener)                    # never removed: the port has no detach

    @staticmethod
    def _cell(w, h, xy):
        """[REPLAN.API.ENDS] ``cell_out_of_range`` naming the axis (x before y)."""
        x, y = xy
        if not (0 <= x < w):
            raise ReplanError("cell_out_of_range", axis="x", value=x)
        if not (0 <= y < h):
            raise ReplanError("cell_out_of_range", axis="y", value=y)
        return y * w + x

    # ------------------------------------------------------------ accessors

    def found(self):
        return self._found

    def is_initialized(self):
        return self._init

    def start(self):
        return self._start

    def goal(self):
        return self._goal

    def mode(self):
        return self._mode

    def iterations(self):
        return self._iterations

    def expanded_count(self):
        return self._expanded

    def last_expanded(self):
        return self._last_expanded

    def expansions(self):
        """[REPLAN.RUN.RECORD]"""
        return list(self._expansions)

    def expansion_kinds(self):
        """[DEBUG.REPLAN.KINDS] ``ReplanExpansion.Settle`` or ``Reset`` per recorded node, always
        as long as ``expansions()`` and emptied with it (not saved)."""
        return list(self._kinds)

    def describe(self, grid):
        """[DEBUG.REPLAN.FIELDS] A ``ReplanDescription`` of the replanner as it is (debug)."""
        from .debug import describe_replanner
        return describe_replanner(self, grid)

    def pending_count(self):
        return len(self._pending)

    def path_cost(self):
        """[REPLAN.PATH.WALK] ``g(target)`` when found, else +inf."""
        return self._g[self._target()] if self._found else INF

    def _source(self):
        return self._start if self._lpa else self._goal

    def _target(self):
        return self._goal if self._lpa else self._start

    # ------------------------------------------------------------ keys

    def _est(self, a, b):
        """[REPLAN.KEY.ESTIMATE] ``(o * mmin) * w``; +0.0 under Dijkstra."""
        if self._zero_h:
            return 0.0
        return (self._moves.distance(a, b) * self._scale) * self._weight

    def _key(self, s):
        """[REPLAN.KEY.CALC] [REPLAN.KEY.H] ``((m + hk(s)) + km, m)``, ``m = min(g, rhs)``;
        ``hk(s)`` is ``h(s, goal)`` (LPA*) or ``h(start, s)`` (D* Lite), cached per (start or
        goal, scale) by ``_fresh_hk``."""
        g = self._g[s]
        r = self._rhs[s]
        m = r if r < g else g
        hk = self._hkc.get(s)
        if hk is None:
            hk = self._hk(s)
        return (m + hk) + self._km, m

    def _fresh_hk(self):
        """Not a spec rule: drop the hk cache when the point it was computed for or the scale
        changed."""
        f = (self._goal if self._lpa else self._start, self._scale)
        if f != self._hk_for:
            self._hkc = {}
            self._hk_for = f

    # ------------------------------------------------------------ restart / initialise

    def _reset_values(self):
        g, rhs = self._g, self._rhs
        for c in self._touched:
            g[c] = INF
            rhs[c] = INF
        self._touched = set()

    def _restart(self):
        """[REPLAN.RUN.RESTART] [REPLAN.INIT.STATE] Uninitialised; counters and the recorded list
        are kept."""
        self._body = None
        self._reset_values()
        self._q.clear()
        self._km = 0.0
        self._pending = []
        self._overflow = False
        self._init = False
        self._found = False

    def _initialise(self):
        """[REPLAN.INIT.RUN] Everything at +inf, then ``rhs(source) = 0`` and the source queued."""
        self._restart()
        src = self._source()
        self._rhs[src] = 0.0
        self._touched.add(src)
        k1, k2 = self._key(src)
        self._q.push(src, k1, k2)
        self._init = True

    # ------------------------------------------------------------ edits

    def _on_edit(self, cell, old, new):
        """[REPLAN.EDIT.LISTEN] [REPLAN.EDIT.LIMIT] One pending entry per changed cell: ``cell`` when
        only its cost changed, ``~cell`` when its walls changed.  (Whatever the state, a change of
        walls also invalidates the cached neighbour lists nearby: a cache, not a spec rule.)"""
        walls_same = (old == WALL) == (new == WALL)
        if not walls_same:
            self._moves.invalidate(cell)
        if not self._init or self._overflow:
            return
        e = cell if walls_same else ~cell
        if len(self._pending) >= self._limit:
            self._overflow = True
            self._pending = []
        else:
            self._pending.append(e)

    # ------------------------------------------------------------ the algorithm

    def _update(self, u):
        """[REPLAN.UPDATE] UpdateVertex(u): (1) unless ``u`` is the source, ``rhs(u)`` is the
        smallest ``g(v) + c(v, u)`` (LPA*) or ``c(u, v) + g(v)`` (D* Lite) over the neighbours in
        order (strict ``<``, from +inf); (2) queue ``u`` with ``key(u)`` (update or push) when
        inconsistent, else remove it if queued.  (Written out inline for speed.)"""
        g = self._g
        rhs = self._rhs
        if u != self._src:
            mv = self._moves
            nb = mv._nb[u] if mv.cached else None
            if nb is None:
                nb = mv.neighbours(u)
            best = INF
            if nb:
                if self._lpa:
                    mu = self._mult[mv.cells[u]]
                    for v, base in nb:
                        val = g[v] + base * mu
                        if val < best:
                            best = val
                else:
                    cells = mv.cells
                    mult = self._mult
                    for v, base in nb:
                        val = base * mult[cells[v]] + g[v]
                        if val < best:
                            best = val
            rhs[u] = best
            if best < INF:
                self._touched.add(u)
            ru = best
        else:
            ru = rhs[u]
        gu = g[u]
        q = self._q
        slot = q.pos[u]
        if gu != ru:
            m = ru if ru < gu else gu                  # [REPLAN.KEY.CALC]
            hk = self._hkc.get(u)
            if hk is None:
                hk = self._hk(u)
            k1 = (m + hk) + self._km
            if slot >= 0:
                q.update(u, k1, m)
            else:
                q.push(u, k1, m)
        elif slot >= 0:
            q.remove(u)

    def _hk(self, s):
        """[REPLAN.KEY.H] ``h(s, goal)`` (LPA*) or ``h(start, s)`` (D* Lite), into the cache."""
        if self._lpa:
            hk = self._est(s, self._goal)
        else:
            hk = self._est(self._start, s)
        self._hkc[s] = hk
        return hk

    def _compute(self, budget):
        """[REPLAN.COMPUTE.LOOP] [REPLAN.COMPUTE.STOP] [REPLAN.COMPUTE.STEP] True when planning is
        done, False when the budget (> 0) stopped it."""
        q = self._q
        qnode, qk1, qk2 = q.node, q.k1, q.k2
        g, rhs = self._g, self._rhs
        t = self._target()
        done = 0
        record = self._record
        mv = self._moves
        update = self._update
        key = self._key
        while True:
            if not qnode:
                return True
            tk1, tk2 = key(t)
            o1 = qk1[0]
            o2 = qk2[0]
            if not (o1 < tk1 or (o1 == tk1 and o2 < tk2)) and rhs[t] == g[t] and self._walk_check():
                return True
            if budget > 0 and done == budget:
                return False
            done += 1
            self._iterations += 1
            u = qnode[0]
            n1, n2 = key(u)
            if o1 < n1 or (o1 == n1 and o2 < n2):
                q.update(u, n1, n2)                       # (a) re-key
                continue
            gu, ru = g[u], rhs[u]
            if gu > ru:                                   # (b) settle
                g[u] = ru
                self._touched.add(u)
                q.remove(u)
                self._expanded += 1
                self._last_expanded += 1
                if record:
                    self._expansions.append(u)
                    self._kinds.append(SETTLE)
                for v, _ in mv.neighbours(u):
                    update(v)
            else:                                         # (c) reset
                g[u] = INF
                self._expanded += 1
                self._last_expanded += 1
                if record:
                    self._expansions.append(u)
                    self._kinds.append(RESET)
                for v, _ in mv.neighbours(u):
                    update(v)
                update(u)

    def _walk_check(self):
        """[REPLAN.COMPUTE.STOP] The walk check: the walk of [REPLAN.PATH.WALK] from the target
        meets only consistent cells (the source included) until it reaches the source, finds no
        neighbour of finite value or has taken ``cells`` steps (those two also end planning).  Each
        cell met is tested for consistency before the walk ends or steps on from it."""
        mv = self._moves
        cells, mult, g, rhs = mv.cells, self._mult, self._g, self._rhs
        src = self._src
        u = self._target()
        n = self._n
        lpa = self._lpa
        steps = 0
        while True:
            if g[u] != rhs[u]:
                return False
            if u == src or steps >= n:
                return True
            best = INF
            bv = -1
            nb = mv.neighbours(u)
            if lpa:
                if nb:
                    mu = mult[cells[u]]
                    for v, base in nb:
                        val = g[v] + base * mu
                        if val < best:
                            best, bv = val, v
            else:
                for v, base in nb:
                    val = base * mult[cells[v]] + g[v]
                    if val < best:
                        best, bv = val, v
            if bv < 0:
                return True
            u = bv
            steps += 1

    def _bind(self, grid):
        if grid.width() != self._w or grid.height() != self._h:
            raise ReplanError("size_mismatch", width=grid.width(), height=grid.height())
        self._moves.bind(grid._cells, grid is self._grid_ref())
        self._mult = grid._mult

    def replan(self, grid, budget=0):
        """[REPLAN.RUN.REPLAN] Steps (1)-(6); returns Running, Found or NotFound."""
        self._bind(grid)
        self._scale = _scale(self._mult)                               # (1)
        if grid.restore_count() != self._restore_count or grid.area_version() != self._area_version:
            self._restart()
        self._restore_count = grid.restore_count()
        self._area_version = grid.area_version()
        if self._overflow:                                             # (2)
            self._restart()
        self._found = False                                            # (3)
        self._last_expanded = 0
        self._expansions = []
        self._kinds = []
        self._src = self._source()
        self._body = None
        self._fresh_hk()
        if not self._init:                                             # (4)
            self._initialise()
        else:
            pending, self._pending = self._pending, []
            mv, lpa = self._moves, self._lpa
            for e in pending:
                for c in mv.edit_cells(e, lpa):
                    self._update(c)
        if self._compute(budget):                                      # (5), (6)
            self._found = self._g[self._target()] < INF
            return SearchStatus.Found if self._found else SearchStatus.NotFound
        return SearchStatus.Running

    # ------------------------------------------------------------ ends

    def set_start(self, x, y):
        """[REPLAN.RUN.SET_START] LPA*: restart; D* Lite: ``km += h(old, new)`` when initialised
        (the scale read last), found cleared, no restart."""
        c = self._cell(self._w, self._h, (x, y))
        if c == self._start:
            return
        if self._lpa:
            self._start = c
            self._restart()
            return
        if self._init:
            self._km = self._km + self._est(self._start, c)
        self._start = c
        self._found = False

    def set_goal(self, x, y):
        """[REPLAN.RUN.SET_GOAL]"""
        c = self._cell(self._w, self._h, (x, y))
        if c == self._goal:
            return
        self._goal = c
        self._restart()

    def invalidate_all(self):
        """[REPLAN.RUN.INVALIDATE]"""
        self._restart()

    # ------------------------------------------------------------ path

    def path(self, grid):
        """[REPLAN.PATH.WALK] [REPLAN.PATH.BROKEN] The walk from the target to the source, start
        first; ``path_cycle`` after ``cells`` steps, ``broken_path`` at a cell with no neighbour of
        finite value."""
        self._bind(grid)
        if not self._found:
            return []
        mv = self._moves
        cells, mult, g = mv.cells, self._mult, self._g
        src = self._source()
        u = self._target()
        walk = [u]
        steps = 0
        n = self._n
        lpa = self._lpa
        while u != src:
            if steps >= n:
                raise ReplanError("path_cycle", cell=u)
            best = INF
            bv = -1
            nb = mv.neighbours(u)
            if lpa:
                if nb:
                    mu = mult[cells[u]]
                    for v, base in nb:
                        val = g[v] + base * mu
                        if val < best:
                            best, bv = val, v
            else:
                for v, base in nb:
                    val = base * mult[cells[v]] + g[v]
                    if val < best:
                        best, bv = val, v
            if bv < 0:
                raise ReplanError("broken_path", cell=u)
            u = bv
            walk.append(u)
            steps += 1
        if lpa:
            walk.reverse()
        return walk

    # ------------------------------------------------------------ state

    def save_state(self):
        """[REPLAN.STATE.SAVE] Kind 5 / 6 bytes (replan_state)."""
        from . import replan_state
        return replan_state.save(self)

    def restore_state(self, grid, data):
        """[REPLAN.STATE.CHECKS] [REPLAN.STATE.ATOMIC] [REPLAN.STATE.RESTORE] Validate everything,
        then install."""
        from . import replan_state
        st = replan_state.parse(self, grid, data)
        replan_state.install(self, grid, st)


class GridReplanner(_Replanner):
    """[REPLAN.API.NEW] Over a square ``Grid``; state kind 5."""
    _KIND = 5
    _HEX = False


class HexReplanner(_Replanner):
    """[REPLAN.API.NEW] [REPLAN.API.HEX_OPTIONS] Over a ``HexGrid``; state kind 6."""
    _KIND = 6
    _HEX = True
