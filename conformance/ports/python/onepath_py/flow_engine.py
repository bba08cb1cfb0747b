"""Flow fields on square and hex grids (spec/flow-fields.md §1-§5, §7).

Public names: ``FlowStatus``, ``GridFlowField`` (over a ``Grid``), ``HexFlowField`` (over a
``HexGrid``), ``FlowError`` (a ``GridSearchError``), ``FlowFieldDescription``.  State bytes
(kind 7) live in ``flow_state``.

Clauses: [FLOW.API.NEW] [FLOW.API.OPTIONS] [FLOW.API.GOALS] [FLOW.API.DETACH] [FLOW.API.CLASSES]
[FLOW.MOVE] [FLOW.MOVE.AROUND] [FLOW.COST.FIXED] [FLOW.DIR.RULE] [FLOW.DIR.PLATEAU]
[FLOW.RUN.STATUS] [FLOW.RUN.OPEN] [FLOW.RUN.BEGIN] [FLOW.RUN.ITERATE] [FLOW.RUN.FINISH]
[FLOW.RUN.LOOP] [FLOW.RUN.STEP] [FLOW.RUN.RUN] [FLOW.RUN.RECOMPUTE] [FLOW.RUN.SETTLED]
[FLOW.EDIT.LISTEN] [FLOW.EDIT.AREAS] [FLOW.EDIT.GRID_RESTORE] [FLOW.EDIT.DURING_RUN]
[FLOW.REPAIR.REGION] [FLOW.REPAIR.TOUCH] [FLOW.REPAIR.START] [FLOW.REPAIR.DIRECT]
[FLOW.REPAIR.EQUAL] [FLOW.QUERY.CELL] [FLOW.PATH.WALK] [FLOW.PATH.BROKEN] [FLOW.PATH.USE]
[FLOW.STATE.UNUSABLE] [FLOW.DEBUG.DESCRIBE].

Moves and costs are the replanners' ([FLOW.MOVE]: ``replan_moves.SquareMoves`` /
``replan_moves.HexMoves``, whose source cell may be impassable); the cost of ``u -> v`` is
``base * m(area(v))``, the cost of entering ``v``.
"""

import math
import weakref

from .grid_search import GridSearchError
from .grid_state import GridStateError
from .flow_heap import FlowHeap
from .replan_moves import HexMoves, SquareMoves, SQUARE_DIRS, WALL

INF = float("inf")


class FlowStatus(object):
    """[FLOW.RUN.STATUS]"""
    NotStarted = 0
    Running = 1
    Complete = 2


class FlowError(GridSearchError):
    """[FLOW.API.CLASSES] invalid_options, invalid_goals, cell_out_of_range, size_mismatch,
    unusable, not_complete, broken_path, path_cycle."""


class FlowFieldDescription(object):
    """[FLOW.DEBUG.DESCRIBE] Plain data, as the field lies."""

    def __init__(self, width, height, costs, next_, goals, status, settled):
        self.width, self.height = width, height
        self.costs, self.next = costs, next_
        self.goals, self.status, self.settled = goals, status, settled


def _check_options(options, hexgrid):
    """[FLOW.API.OPTIONS] [GS.OPT.VALID] agent size, weight (finite, >= 1); a hex agent size of 1;
    then the cell_cost hook, then the blocked hook.  algorithm, weight (beyond [GS.OPT.VALID]) and
    record_expansions are ignored."""
    k = options.agent_size
    if not (1 <= k <= 255):
        raise FlowError("invalid_options", field="agent_size", value=k)
    w = float(options.heuristic_weight)
    if not (math.isfinite(w) and w >= 1.0):
        raise FlowError("invalid_options", field="heuristic_weight", value=w)
    if hexgrid and k != 1:
        raise FlowError("invalid_options", field="agent_size", value=k)
    if options.cell_cost is not None:
        raise FlowError("invalid_options", field="cell_cost")
    if options.blocked is not None:
        raise FlowError("invalid_options", field="blocked")


def _check_cell(w, h, x, y):
    """[FLOW.API.GOALS] [FLOW.QUERY.CELL] ``cell_out_of_range`` naming the axis, x first."""
    if not (0 <= x < w):
        raise FlowError("cell_out_of_range", axis="x", value=x)
    if not (0 <= y < h):
        raise FlowError("cell_out_of_range", axis="y", value=y)
    return y * w + x


class _FlowField(object):
    """The engine shared by ``GridFlowField`` and ``HexFlowField``."""

    _HEX = False

    def __init__(self, grid, options, goals):
        """[FLOW.API.NEW] Options, then goals; the listener is registered only on success."""
        _check_options(options, self._HEX)
        w, h = grid.width(), grid.height()
        n = w * h
        goals = [tuple(g) for g in goals]
        if not goals or len(goals) > n:                     # [FLOW.API.GOALS]
            raise FlowError("invalid_goals", count=len(goals))
        cells = [_check_cell(w, h, x, y) for x, y in goals]
        self._w, self._h, self._n = w, h, n
        self._budget = options.iteration_budget
        self._goals = cells                                 # creation goals, as given
        self._goal_set = sorted(set(cells))                 # distinct, increasing
        self._is_goal = bytearray(n)
        for c in self._goal_set:
            self._is_goal[c] = 1
        if self._HEX:
            self._moves = HexMoves(w, h, grid.layout())
        else:
            self._moves = SquareMoves(w, h, options)
        self._around_cache = [None] * n
        self._cost = [INF] * n
        self._next = [-1] * n
        self._heap = FlowHeap(n)
        self._pending = []
        self._pending_set = set()
        self._touched = []
        self._touched_flag = bytearray(n)
        self._status = FlowStatus.NotStarted
        self._settled = 0
        self._repairing = False
        self._usable = True
        self._mult = grid._mult
        self._area_version = grid.area_version()
        self._restore_count = grid.restore_count()
        self._attached = True
        self._saved = None                                  # cache: save_state() bytes
        self._hashed = None                                 # cache: the field hash
        ref = weakref.ref(self)

        def listener(cell, old, new):
            f = ref()
            if f is not None:                               # [FLOW.API.DETACH] a dropped field
                f._on_edit(cell, old, new)
        self._grid_ref = weakref.ref(grid)
        self._listener = grid.add_listener(listener)

    # ------------------------------------------------------------ accessors

    def status(self):
        return self._status

    def is_repairing(self):
        return self._repairing

    def is_usable(self):
        return self._usable

    def settled(self):
        """[FLOW.RUN.SETTLED]"""
        return self._settled

    def pending_count(self):
        return len(self._pending)

    # ------------------------------------------------------------ geometry

    def _around(self, u):
        """[FLOW.MOVE.AROUND] The geometric neighbours: square, the eight cells of [GS.DIR] in that
        order whatever the connectivity; hex, [GRID.HEX.NEIGHBOURS]; inside the grid, walls too."""
        a = self._around_cache[u]
        if a is None:
            if self._HEX:
                a = self._moves.geometry(u)
            else:
                w, h = self._w, self._h
                x, y = u % w, u // w
                a = tuple((y + dy) * w + (x + dx) for dx, dy in SQUARE_DIRS
                          if 0 <= x + dx < w and 0 <= y + dy < h)
            self._around_cache[u] = a
        return a

    def _region(self, c):
        """[FLOW.REPAIR.REGION] Square: ``(x-k..=x+1, y-k..=y+1)``; hex: the cell and its six
        neighbours; inside the grid, increasing index (the complemented entries of
        [REPLAN.EDIT.CELLS])."""
        return self._moves.edit_cells(~c, True)

    # ------------------------------------------------------------ edits

    def _on_edit(self, cell, old, new):
        """[FLOW.EDIT.LISTEN] Append the cell to the pending cells unless already pending, when the
        field is started and usable.  (Whatever the state, a change of walls also drops the cached
        move lists nearby: a cache, not a spec rule.)"""
        if (old == WALL) != (new == WALL):
            self._moves.invalidate(cell)
        if self._status == FlowStatus.NotStarted or not self._usable:
            return
        if cell not in self._pending_set:
            self._pending_set.add(cell)
            self._pending.append(cell)
            self._saved = None

    def detach(self, grid):
        """[FLOW.API.DETACH]"""
        if self._grid_ref() is not grid:
            return False
        removed = grid.remove_listener(self._listener)
        if removed:
            self._attached = False
            self._moves.drop_cache()
        return removed

    # ------------------------------------------------------------ the algorithm

    def _bind(self, grid):
        """[FLOW.RUN.STEP] (1) size first."""
        if grid.width() != self._w or grid.height() != self._h:
            raise FlowError("size_mismatch", width=grid.width(), height=grid.height())
        self._moves.bind(grid._cells, self._attached and grid is self._grid_ref())
        self._mult = grid._mult

    def _clear_touched(self):
        tf = self._touched_flag
        for t in self._touched:
            tf[t] = 0
        self._touched = []

    def _clear_pending(self):
        self._pending = []
        self._pending_set = set()

    def _begin(self, grid):
        """[FLOW.RUN.BEGIN]"""
        cost, nxt = self._cost, self._next
        for i in range(self._n):
            cost[i] = INF
            nxt[i] = -1
        self._heap.clear()
        self._clear_pending()
        self._clear_touched()
        self._settled = 0
        self._repairing = False
        self._status = FlowStatus.Running
        self._area_version = grid.area_version()
        self._restore_count = grid.restore_count()
        heap = self._heap
        for c in self._goal_set:
            cost[c] = 0.0
            heap.push(c, 0.0, 0.0)

    def _touch(self, c):
        """[FLOW.REPAIR.TOUCH]"""
        if not self._touched_flag[c]:
            self._touched_flag[c] = 1
            self._touched.append(c)

    def _invalidate(self, c):
        """[FLOW.REPAIR.TOUCH] Touch, cost +inf, step cleared."""
        self._touch(c)
        self._cost[c] = INF
        self._next[c] = -1

    def _start_repair(self):
        """[FLOW.REPAIR.START] (1) the regions of the pending cells, (2) the walk down the steps,
        (3) pending emptied, (4) seeding from the untouched neighbours."""
        self._settled = 0
        self._repairing = True
        self._status = FlowStatus.Running
        self._clear_touched()
        tf = self._touched_flag
        for p in self._pending:                                        # (1)
            for c in self._region(p):
                if not tf[c]:
                    self._invalidate(c)
        touched, nxt = self._touched, self._next
        i = 0
        while i < len(touched):                                        # (2)
            t = touched[i]
            for w in self._around(t):
                if not tf[w] and (nxt[w] == t or not self._derived(w)):
                    self._invalidate(w)
            i += 1
        self._clear_pending()                                          # (3)
        cost, heap, mv = self._cost, self._heap, self._moves
        cells, mult, is_goal = mv.cells, self._mult, self._is_goal
        for t in touched:                                              # (4)
            if is_goal[t]:
                cost[t] = 0.0
                heap.push(t, 0.0, 0.0)
                continue
            best = INF
            for v, base in mv.neighbours(t):
                cv = cost[v]
                if not tf[v] and cv < INF:
                    val = base * mult[cells[v]] + cv
                    if val < best:
                        best = val
            if best < INF:
                cost[t] = best
                heap.push(t, best, best)

    def _derived(self, w):
        """[FLOW.REPAIR.DERIVED] A goal, an unreached cell, or a cell whose step ``n`` is one of
        its neighbours that is touched or gives ``c(w, n) + cost(n) == cost(w)``."""
        here = self._cost[w]
        if self._is_goal[w] or here == INF:
            return True
        n = self._next[w]
        if n < 0:
            return False
        mv = self._moves
        for v, base in mv.neighbours(w):
            if v == n and (self._touched_flag[n]
                           or base * self._mult[mv.cells[n]] + self._cost[n] == here):
                return True
        return False

    def _finish(self):
        """[FLOW.RUN.FINISH] The direction pass, then the touched list emptied, repairing
        cleared, Complete.  After a begun run every cell is directed in increasing index; after a
        repair ([FLOW.REPAIR.DIRECT]) each touched cell, then its geometric neighbours: costs do
        not change during the pass, so directing a cell again gives the same step, and each
        distinct cell is directed once.

        [FLOW.DIR.RULE] The direction of ``c``: none for a goal-set cell or an unreached one;
        otherwise, among the neighbours with a strictly smaller cost, the first with the smallest
        ``c(c, v) + cost(v)`` (a later neighbour replaces the best only when strictly smaller);
        none when no neighbour qualifies."""
        n = self._n
        if self._repairing:
            around = self._around
            seen = bytearray(n)
            order = []
            for t in self._touched:
                if not seen[t]:
                    seen[t] = 1
                    order.append(t)
                for w in around(t):
                    if not seen[w]:
                        seen[w] = 1
                        order.append(w)
        else:
            order = range(n)
        nxt, cost, is_goal = self._next, self._cost, self._is_goal
        mv = self._moves
        cells, mult = mv.cells, self._mult
        nbl = mv._nb if mv.cached else None
        neighbours = mv.neighbours
        for c in order:
            cc = cost[c]
            if is_goal[c] or cc == INF:
                nxt[c] = -1
                continue
            nb = nbl[c] if nbl is not None else None
            if nb is None:
                nb = neighbours(c)
            best = INF
            bv = -1
            for v, base in nb:
                cv = cost[v]
                if cv < cc:
                    val = base * mult[cells[v]] + cv
                    if val < best:
                        best, bv = val, v
            nxt[c] = bv
        self._clear_touched()
        self._repairing = False
        self._status = FlowStatus.Complete

    def _loop(self, budget):
        """[FLOW.RUN.LOOP] [FLOW.RUN.ITERATE] The emptiness test before the budget.  One
        iteration pops slot 0 ([STATE.HEAP.POP]), ``settled += 1``, and relaxes every neighbour
        ``v`` of ``u`` in order with ``cand = cost(u) + c(v, u)``: when ``cand < cost(v)`` the cost
        is lowered, the step cleared, ``v`` touched when repairing and queued ([STATE.HEAP.PUSH],
        [STATE.HEAP.UPDATE]).  The heap operations of ``flow_heap`` are written inline here (the
        same hole-moving sifts)."""
        heap = self._heap
        hn, hf, hg, pos = heap.node, heap.f, heap.g, heap.pos
        up, down = heap._up, heap._down
        cost, nxt = self._cost, self._next
        mv = self._moves
        cells, mult = mv.cells, self._mult
        repairing = self._repairing
        touch = self._touch
        nbl = mv._nb if mv.cached else None
        neighbours = mv.neighbours
        done = 0
        try:
            while True:
                if not hn:
                    self._finish()
                    return
                if budget > 0 and done == budget:
                    return
                done += 1
                # pop slot 0; the last entry moves to slot 0 and sifts down
                u = hn[0]
                pos[u] = -1
                ln, lf, lg = hn.pop(), hf.pop(), hg.pop()
                count = len(hn)
                if count:
                    i = 0
                    while True:
                        c = 2 * i + 1
                        if c >= count:
                            break
                        cf = hf[c]
                        d = c + 1
                        if d < count:
                            df = hf[d]
                            if df < cf or (df == cf and (hg[d] > hg[c] or (hg[d] == hg[c] and hn[d] < hn[c]))):
                                c = d
                                cf = df
                        cg = hg[c]
                        if cf < lf or (cf == lf and (cg > lg or (cg == lg and hn[c] < ln))):
                            cn = hn[c]
                            hn[i] = cn
                            hf[i] = cf
                            hg[i] = cg
                            pos[cn] = i
                            i = c
                        else:
                            break
                    hn[i] = ln
                    hf[i] = lf
                    hg[i] = lg
                    pos[ln] = i
                nb = nbl[u] if nbl is not None else None
                if nb is None:
                    nb = neighbours(u)
                if not nb:                              # a wall (or impassable) cell: no moves
                    continue
                cu = cost[u]
                mu = mult[cells[u]]
                for v, base in nb:
                    cand = cu + base * mu
                    if cand < cost[v]:
                        cost[v] = cand
                        nxt[v] = -1
                        if repairing:
                            touch(v)
                        i = pos[v]
                        if i < 0:                       # push: append, sift up
                            i = len(hn)
                            hn.append(v)
                            hf.append(cand)
                            hg.append(cand)
                            while i > 0:
                                p = (i - 1) >> 1
                                pf = hf[p]
                                if cand < pf or (cand == pf and (cand > hg[p] or (cand == hg[p] and v < hn[p]))):
                                    pn = hn[p]
                                    hn[i] = pn
                                    hf[i] = pf
                                    hg[i] = hg[p]
                                    pos[pn] = i
                                    i = p
                                else:
                                    break
                            hn[i] = v
                            hf[i] = cand
                            hg[i] = cand
                            pos[v] = i
                        else:                           # update in place
                            of, og = hf[i], hg[i]
                            newer = cand < of or (cand == of and cand > og)
                            hf[i] = cand
                            hg[i] = cand
                            if newer:
                                up(i)
                            else:
                                down(i)
        finally:
            self._settled += done

    def step(self, grid, budget=0):
        """[FLOW.RUN.STEP] (1) size, usability; (2) begin or start a repair (not counted);
        (3) Complete is returned as it is, otherwise the loop with the budget."""
        self._bind(grid)
        if not self._usable:
            raise FlowError("unusable")
        st = self._status
        if (st == FlowStatus.NotStarted or grid.restore_count() != self._restore_count
                or grid.area_version() != self._area_version
                or (st == FlowStatus.Running and self._pending)):
            self._changed()
            self._begin(grid)
        elif st == FlowStatus.Complete and self._pending:
            self._start_repair()
        if self._status == FlowStatus.Complete:
            return self._status
        self._changed()
        self._loop(budget)
        return self._status

    def _changed(self):
        """Not a spec rule: drop the cached save bytes and field hash."""
        self._saved = None
        self._hashed = None

    def run(self, grid):
        """[FLOW.RUN.RUN]"""
        return self.step(grid, self._budget)

    def recompute(self, grid, budget):
        """[FLOW.RUN.RECOMPUTE] Size check, usable again, begin, loop."""
        self._bind(grid)
        self._changed()
        self._usable = True
        self._begin(grid)
        self._loop(budget)
        return self._status

    # ------------------------------------------------------------ queries

    def _query_cell(self, x, y):
        """[FLOW.QUERY.CELL] ``unusable`` first, then the cell's range (x first)."""
        if not self._usable:
            raise FlowError("unusable")
        return _check_cell(self._w, self._h, x, y)

    def path(self, x, y):
        """[FLOW.PATH.WALK] [FLOW.PATH.BROKEN] ``not_complete`` unless Complete; empty from an
        unreached cell; otherwise the cell and its steps until a goal-set cell.  At each cell: a
        goal ends the walk, a cell reached after ``cells`` moves is ``path_cycle``, a cell without
        a step is ``broken_path``."""
        u = self._query_cell(x, y)
        if self._status != FlowStatus.Complete:
            raise FlowError("not_complete")
        if self._cost[u] == INF:
            return []
        walk = [u]
        moves = 0
        n, nxt, is_goal = self._n, self._next, self._is_goal
        while True:
            if is_goal[u]:
                return walk
            if moves >= n:
                raise FlowError("path_cycle", cell=u)
            v = nxt[u]
            if v < 0:
                raise FlowError("broken_path", cell=u)
            u = v
            walk.append(u)
            moves += 1

    def describe(self):
        """[FLOW.DEBUG.DESCRIBE]"""
        return FlowFieldDescription(self._w, self._h, list(self._cost),
                                    [None if c < 0 else c for c in self._next],
                                    list(self._goals), self._status, self._settled)

    # ------------------------------------------------------------ state

    def _reset_not_started(self, grid):
        """[FLOW.STATE.UNUSABLE] As if newly created on the grid as it is now (the caller sets the
        usable flag)."""
        self._changed()
        cost, nxt = self._cost, self._next
        for i in range(self._n):
            cost[i] = INF
            nxt[i] = -1
        self._heap.clear()
        self._clear_pending()
        self._clear_touched()
        self._settled = 0
        self._repairing = False
        self._status = FlowStatus.NotStarted
        self._area_version = grid.area_version()
        self._restore_count = grid.restore_count()
        self._mult = grid._mult

    def save_state(self):
        """[FLOW.STATE.SAVE] Kind 7 bytes (flow_state)."""
        from . import flow_state
        if self._saved is None:
            self._saved = flow_state.save(self)
        return self._saved

    def restore_state(self, grid, data):
        """[FLOW.STATE.RESTORE] [FLOW.STATE.UNUSABLE] Validate everything, then install; a failed
        restore leaves the field not started and unusable."""
        from . import flow_state
        try:
            st = flow_state.parse(self, grid, data)
        except GridStateError:
            self._reset_not_started(grid)
            self._usable = False
            raise
        flow_state.install(self, grid, st)


class GridFlowField(_FlowField):
    """[FLOW.API.NEW] Over a square ``Grid``; state kind 7."""
    _HEX = False


class HexFlowField(_FlowField):
    """[FLOW.API.NEW] Over a ``HexGrid``; state kind 7."""
    _HEX = True
