"""Specialised square-grid engines: [GS.SA.*] (GridSearch mode 1) and [GS.SJ.*] (mode 3)."""

import heapq
import math

from .astar import SearchStatus
from .grid_search_engines import (ALG_DIJKSTRA, ALG_JPSPLUS, CONN_FOUR, DIRS, DIR_INDEX, INF, JumpFinder,
                                  _Sliced, expand_jump_path, f32_key, octile_pair, pair_lt, pair_value)


# ------------------------------------------------------------------ specialised A* (mode 1)

class _SAKey(object):
    """[GS.SA.ORDER] Smaller f pair, then larger g pair, then smaller cell."""

    __slots__ = ("fa", "fb", "ga", "gb", "cell")

    def __init__(self, fa, fb, ga, gb, cell):
        self.fa, self.fb, self.ga, self.gb, self.cell = fa, fb, ga, gb, cell

    def __lt__(self, o):
        if (self.fa, self.fb) != (o.fa, o.fb):
            return pair_lt(self.fa, self.fb, o.fa, o.fb)
        if (self.ga, self.gb) != (o.ga, o.gb):
            return pair_lt(o.ga, o.gb, self.ga, self.gb)
        return self.cell < o.cell


class SpecialisedAStar(_Sliced):
    """[GS.SA.PAIRS] [GS.SA.ORDER] [GS.SA.BEGIN] [GS.SA.STEP] [GS.SA.PATH]"""

    def __init__(self, ctx, algorithm, record):
        self.ctx = ctx
        self.algorithm = algorithm
        self.zero = algorithm == ALG_DIJKSTRA
        self.record = record
        self._not_started()

    def _not_started(self):
        self._reset_common()
        n = self.ctx.n
        self._ga = [-1] * n  # -1: unvisited
        self._gb = [0] * n
        self._dir = [0] * n  # [GS.DIR] index of the move INTO the cell (parent = cell - DIRS[dir])
        self._closed = [False] * n
        self._heap = []

    def _hpair(self, v):
        if self.zero:
            return 0, 0
        w = self.ctx.w
        t = self._goal
        if self.ctx.conn == CONN_FOUR:
            return abs(v % w - t % w) + abs(v // w - t // w), 0
        return octile_pair(v % w, v // w, t % w, t // w)

    def _push(self, v):
        ha, hb = self._hpair(v)
        a, b = self._ga[v], self._gb[v]
        heapq.heappush(self._heap, _SAKey(a + ha, b + hb, a, b, v))

    def begin(self, start, goal):
        s, t = self._check_cells(start, goal)
        self._not_started()
        self._start, self._goal = s, t
        self._status = SearchStatus.Running
        if not (self.ctx.passable[s] and self.ctx.passable[t]):
            self._status = SearchStatus.NotFound
            return
        self._ga[s] = 0
        self._gb[s] = 0
        self._push(s)

    def _drop_stale(self):
        h = self._heap
        while h:
            k = h[0]
            c = k.cell
            if self._closed[c] or self._ga[c] != k.ga or self._gb[c] != k.gb:
                heapq.heappop(h)
            else:
                return

    def _empty(self):
        self._drop_stale()
        return not self._heap

    def _pop(self):
        return heapq.heappop(self._heap).cell

    def _close(self, u):
        self._closed[u] = True

    def _expand(self, u):
        ctx = self.ctx
        ga, gb = self._ga[u], self._gb[u]
        for di in range(8):
            v = ctx.move(u, di)
            if v < 0 or self._closed[v]:
                continue
            if di < 4:
                a2, b2 = ga + 1, gb
            else:
                a2, b2 = ga, gb + 1
            if self._ga[v] < 0 or pair_lt(a2, b2, self._ga[v], self._gb[v]):
                self._ga[v], self._gb[v] = a2, b2
                self._dir[v] = di
                self._push(v)

    def path(self):
        if self._status != SearchStatus.Found:
            return []
        w = self.ctx.w
        out = [self._goal]
        v = self._goal
        while v != self._start:
            dx, dy = DIRS[self._dir[v]]
            v = v - dy * w - dx
            out.append(v)
        out.reverse()
        return out

    def path_cost(self):
        if self._status != SearchStatus.Found:
            return INF
        return pair_value(self._ga[self._goal], self._gb[self._goal])


# ------------------------------------------------------------------ specialised jump (mode 3)

class FTHeap(object):
    """[GS.SJ.OPEN] Array heap of (F, T) with the sift rules of [STATE.HEAP.*], no update."""

    def __init__(self):
        self.a = []

    def __len__(self):
        return len(self.a)

    @staticmethod
    def _prec(x, y):
        return x[0] < y[0] or (x[0] == y[0] and x[1] < y[1])

    def push(self, e):
        a = self.a
        a.append(e)
        i = len(a) - 1
        while i > 0:
            p = (i - 1) // 2
            if not self._prec(a[i], a[p]):
                break
            a[i], a[p] = a[p], a[i]
            i = p

    def pop(self):
        a = self.a
        top = a[0]
        last = a.pop()
        if a:
            a[0] = last
            i = 0
            count = len(a)
            while True:
                c = 2 * i + 1
                if c >= count:
                    break
                if c + 1 < count and self._prec(a[c + 1], a[c]):
                    c += 1
                if not self._prec(a[c], a[i]):
                    break
                a[c], a[i] = a[i], a[c]
                i = c
        return top


class SpecialisedJump(_Sliced):
    """[GS.SJ.CELLS] [GS.SJ.OPEN] [GS.SJ.PUSH] [GS.SJ.SETTLE] [GS.SJ.STEP] [GS.SJ.BEGIN]"""

    def __init__(self, ctx, algorithm, record):
        self.ctx = ctx
        self.algorithm = algorithm
        self.finder_id = 1 if algorithm == ALG_JPSPLUS else 0
        self.finder = JumpFinder(ctx)
        self.record = record
        self._not_started()

    def _not_started(self):
        self._reset_common()
        n = self.ctx.n
        self._ga = [-1] * n
        self._gb = [0] * n
        self._parent = [-1] * n
        self._dir = [0] * n
        self._closed = [False] * n
        self._level = math.nan
        self._heap = FTHeap()
        self._stack = []

    def begin(self, start, goal):
        s, t = self._check_cells(start, goal)
        self._not_started()
        self._start, self._goal = s, t
        self._status = SearchStatus.Running
        if not (self.ctx.passable[s] and self.ctx.passable[t]):
            self._status = SearchStatus.NotFound
            return
        self._ga[s] = 0
        self._gb[s] = 0
        self._push(s)

    def _key(self, c):
        gf = pair_value(self._ga[c], self._gb[c])
        return gf + self.ctx.octile_f(c, self._goal), f32_key(gf)

    def _push(self, c):
        """[GS.SJ.PUSH]"""
        F, k = self._key(c)
        if F == self._level:
            self._stack.append(c)
        else:
            self._heap.push((F, (k << 32) | c))

    def _settle(self):
        """[GS.SJ.SETTLE]"""
        st = self._stack
        hp = self._heap
        while True:
            if st and self._closed[st[-1]]:
                st.pop()
            elif not st and len(hp) > 0:
                F, T = hp.a[0]
                c = T & 0xFFFFFFFF
                if self._closed[c] or (T >> 32) != f32_key(pair_value(self._ga[c], self._gb[c])):
                    hp.pop()
                    self._level = F
                else:
                    return
            else:
                return

    def _empty(self):
        self._settle()
        return not self._stack and len(self._heap) == 0

    def _pop(self):
        if self._stack:
            return self._stack.pop()
        F, T = self._heap.pop()
        self._level = F
        return T & 0xFFFFFFFF

    def _close(self, u):
        self._closed[u] = True

    def _expand(self, c):
        reached = None if c == self._start else DIRS[self._dir[c]]
        ga, gb = self._ga[c], self._gb[c]
        for j, d, (ha, hb) in self.finder.successors(c, reached, self._goal):
            a2, b2 = ga + ha, gb + hb
            if self._ga[j] < 0 or (not self._closed[j] and pair_lt(a2, b2, self._ga[j], self._gb[j])):
                self._ga[j], self._gb[j] = a2, b2
                self._parent[j] = c
                self._dir[j] = DIR_INDEX[d]
                self._push(j)

    def jump_points(self):
        if self._status != SearchStatus.Found:
            return []
        out = []
        v = self._goal
        while v != -1:
            out.append(v)
            v = self._parent[v]
        out.reverse()
        return out

    def path(self):
        return expand_jump_path(self.jump_points(), self.ctx.w)

    def path_cost(self):
        if self._status != SearchStatus.Found:
            return INF
        return pair_value(self._ga[self._goal], self._gb[self._goal])
