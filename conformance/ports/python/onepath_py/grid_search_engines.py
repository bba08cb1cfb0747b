"""Square-grid search engines, written from spec/grid-search.md alone.

[GS.ASTAR.GRAPH] generic A* (kind 8), [GS.JPSG.RULES] generic JumpSearch (kind 9),
[GS.THETA.*] ThetaSearch (kind 10), [GS.SA.*] the specialised A* engine (mode 1) and
[GS.SJ.*] the specialised jump engine (mode 3).
"""

import math
import struct

from .astar import SearchStatus, cancelled, normalize_estimate
from .open_set import OpenSet

INF = math.inf
SQRT_2 = 1.4142135623730951  # [GS.COST.BASE]

# [GS.DIR] neighbour order N, E, S, W, NE, SE, SW, NW
DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
DIR_INDEX = {d: i for i, d in enumerate(DIRS)}

ALG_ASTAR, ALG_DIJKSTRA, ALG_JPS, ALG_JPSPLUS, ALG_THETA, ALG_LAZY_THETA = range(6)
CONN_FOUR, CONN_EIGHT = 4, 8
DIAG_ALWAYS, DIAG_AT_MOST_ONE, DIAG_NONE_BLOCKED = 0, 1, 2


def _sign(v):
    return (v > 0) - (v < 0)


# ------------------------------------------------------------------ exact pairs

def pair_lt(a1, b1, a2, b2):
    """[GS.COST.PAIR] (a1, b1) < (a2, b2) as reals a + b*sqrt(2), exactly."""
    p = a1 - a2
    q = b2 - b1
    if (p < 0 and q >= 0) or (p <= 0 and q > 0):
        return True
    if p >= 0 and q <= 0:
        return False
    if p > 0:  # both positive
        return p * p < 2 * q * q
    return p * p > 2 * q * q  # both negative


def pair_value(a, b):
    """[GS.COST.PAIR] f64 value a + b*SQRT_2 (product rounded first)."""
    return float(a) + float(b) * SQRT_2


def octile_pair(x1, y1, x2, y2):
    """[GS.EST.OCTILE] (hi - lo, lo)."""
    dx = abs(x1 - x2)
    dy = abs(y1 - y2)
    lo, hi = (dx, dy) if dx < dy else (dy, dx)
    return hi - lo, lo


def f32_key(gf):
    """[GS.SJ.OPEN] (!bits(gf as f32)) as u32."""
    bits = struct.unpack("<I", struct.pack("<f", gf))[0]
    return (~bits) & 0xFFFFFFFF


# ------------------------------------------------------------------ move context

class GridContext(object):
    """[GS.PASS] [GS.MOVE.*] [GS.COST.*] [GS.EST.*] What a search knows about grid + options.

    Passability is precomputed once per search ([GS.OPT.HOOKS]: hooks are pure for the
    length of a search and their call pattern is unspecified).
    """

    def __init__(self, grid, options):
        self.w = grid.width()
        self.h = grid.height()
        self.n = self.w * self.h
        self.cells = grid.cells()
        self.mult = [grid.area_multiplier(a) for a in range(255)]
        self.mmin = self.mult[0]
        for m in self.mult:
            if m < self.mmin:
                self.mmin = m
        self.conn = options.connectivity
        self.diag = options.diagonal
        self.cell_cost = options.cell_cost
        self.weight = float(options.heuristic_weight)
        agent = options.agent_size
        blocked = options.blocked
        if agent == 1:
            clear_ok = [c != 255 for c in self.cells]
        else:
            clr = grid.clearance_values()
            clear_ok = [c >= agent for c in clr]
        if blocked is not None:
            self.passable = [clear_ok[i] and not blocked(i) for i in range(self.n)]
        else:
            self.passable = clear_ok

    def pass_xy(self, x, y):
        """[GS.PASS] Inside the grid and passable."""
        return 0 <= x < self.w and 0 <= y < self.h and self.passable[y * self.w + x]

    def move(self, u, di, conn=None, diag=None):
        """[GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL] Target cell of the move u -> u + DIRS[di], or -1."""
        conn = self.conn if conn is None else conn
        diag = self.diag if diag is None else diag
        x, y = u % self.w, u // self.w
        dx, dy = DIRS[di]
        if di >= 4:
            if conn != CONN_EIGHT:
                return -1
            if not self.pass_xy(x + dx, y + dy):
                return -1
            if diag == DIAG_AT_MOST_ONE:
                if not (self.pass_xy(x + dx, y) or self.pass_xy(x, y + dy)):
                    return -1
            elif diag == DIAG_NONE_BLOCKED:
                if not (self.pass_xy(x + dx, y) and self.pass_xy(x, y + dy)):
                    return -1
            return (y + dy) * self.w + x + dx
        if not self.pass_xy(x + dx, y + dy):
            return -1
        return (y + dy) * self.w + x + dx

    def move_cost(self, u, v, di):
        """[GS.COST.MOVE] base * m(area(v)) (+ extra); None when the move is not allowed."""
        base = SQRT_2 if di >= 4 else 1.0
        c = base * self.mult[self.cells[v]]
        if self.cell_cost is not None:
            extra = float(self.cell_cost(u, v))
            if extra != extra or extra < 0.0 or extra == INF:
                return None
            c = c + extra
        return c

    def octile_f(self, u, v):
        """[GS.EST.OCTILE] f64 octile value (Four: dx + dy)."""
        w = self.w
        x1, y1, x2, y2 = u % w, u // w, v % w, v // w
        if self.conn == CONN_FOUR:
            return float(abs(x1 - x2) + abs(y1 - y2))
        a, b = octile_pair(x1, y1, x2, y2)
        return pair_value(a, b)

    def euclid(self, u, v):
        """[GS.EST.EUCLID] sqrt of the exact integer sum."""
        w = self.w
        dx = u % w - v % w
        dy = u // w - v // w
        return math.sqrt(float(dx * dx + dy * dy))

    def los(self, p, q):
        """[GS.LOS] Exact closed-segment line of sight in doubled coordinates."""
        w = self.w
        xp, yp, xq, yq = p % w, p // w, q % w, q // w
        px, py, qx, qy = 2 * xp + 1, 2 * yp + 1, 2 * xq + 1, 2 * yq + 1
        ex, ey = qx - px, qy - py
        passable = self.passable
        for y in range(min(yp, yq), max(yp, yq) + 1):
            for x in range(min(xp, xq), max(xp, xq) + 1):
                # bounding boxes overlap by construction of the ranges
                cx0, cy0 = 2 * x, 2 * y
                pos = neg = 0
                for cx, cy in ((cx0, cy0), (cx0 + 2, cy0), (cx0, cy0 + 2), (cx0 + 2, cy0 + 2)):
                    cr = ex * (cy - py) - ey * (cx - px)
                    if cr > 0:
                        pos += 1
                    elif cr < 0:
                        neg += 1
                if pos == 4 or neg == 4:
                    continue
                if not passable[y * w + x]:
                    return False
        return True


class _Sliced(object):
    """[GRAPH.ASTAR.STEP] [GRAPH.ASTAR.RUN] Common counters and the step/run loop shape."""

    def _reset_common(self):
        self._status = SearchStatus.NotStarted
        self._iterations = 0
        self._expanded = 0
        self._recorded = []
        self._start = -1
        self._goal = -1
        self._restored_cost = None   # [STATE.STABLE] a restored Found path cost is saved back as read

    def _check_cells(self, start, goal):
        """[GS.ASTAR.BEGIN] (x, y) pairs; x >= width or y >= height is cell_out_of_range."""
        from .grid_search import GridSearchError
        w, h = self.ctx.w, self.ctx.h
        for name, (x, y) in (("start", start), ("goal", goal)):
            if not (0 <= x < w):
                raise GridSearchError("cell_out_of_range", which=name, axis="x", value=x)
            if not (0 <= y < h):
                raise GridSearchError("cell_out_of_range", which=name, axis="y", value=y)
        return start[1] * w + start[0], goal[1] * w + goal[0]

    def step(self, budget):
        return self._loop(budget, None)

    def run(self, cancel=None):
        return self._loop(None, cancel)

    def _loop(self, budget, cancel):
        """[GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] [GRAPH.ASTAR.RUN]"""
        if self._status != SearchStatus.Running:
            return self._status
        done = 0
        while True:
            if self._empty():
                self._status = SearchStatus.NotFound
                return self._status
            if budget is not None and done >= budget:
                return SearchStatus.Running
            if cancel is not None and done % 256 == 0 and cancelled(cancel):
                return SearchStatus.Running
            u = self._pop()
            self._iterations += 1
            done += 1
            self._close(u)
            if u == self._goal:
                self._status = SearchStatus.Found
                return self._status
            self._expand(u)
            self._expanded += 1
            if self.record:
                self._recorded.append(u)

    def status(self):
        return self._status

    def iterations(self):
        return self._iterations

    def expanded_count(self):
        return self._expanded

    def expansions(self):
        return list(self._recorded)


# ------------------------------------------------------------------ generic A* (kind 8)

class GenericAStar(_Sliced):
    """[GS.ASTAR.GRAPH] Graph A* over the move graph with f64 costs and [STATE.HEAP] open set."""

    def __init__(self, ctx, algorithm, record):
        self.ctx = ctx
        self.algorithm = ALG_DIJKSTRA if algorithm == ALG_DIJKSTRA else ALG_ASTAR
        self.record = record
        self._open = OpenSet()
        self._not_started()

    def _not_started(self):
        self._reset_common()
        n = self.ctx.n
        self._g = [INF] * n
        self._parent = [-1] * n
        self._closed = [False] * n
        self._open.clear()

    def _h(self, v):
        """[GS.EST.SCALE] h = (o * mmin) * w; Dijkstra 0; normalised [GRAPH.ASTAR.ESTIMATE]."""
        if self.algorithm == ALG_DIJKSTRA:
            return 0.0
        ctx = self.ctx
        return normalize_estimate((ctx.octile_f(v, self._goal) * ctx.mmin) * ctx.weight)

    def begin(self, start, goal):
        """[GS.ASTAR.BEGIN] [GRAPH.ASTAR.BEGIN]"""
        s, t = self._check_cells(start, goal)
        self._not_started()
        self._start, self._goal = s, t
        self._status = SearchStatus.Running
        if not (self.ctx.passable[s] and self.ctx.passable[t]):
            self._status = SearchStatus.NotFound
            return
        h = self._h(s)
        if h != INF:
            self._g[s] = 0.0
            self._open.push(s, h, 0.0)

    def _empty(self):
        return len(self._open) == 0

    def _pop(self):
        return self._open.pop()[0]

    def _close(self, u):
        self._closed[u] = True

    def _expand(self, u):
        """[GRAPH.ASTAR.EXPAND] out-edges = allowed moves in neighbour order."""
        ctx = self.ctx
        g = self._g
        gu = g[u]
        for di in range(8):
            v = ctx.move(u, di)
            if v < 0:
                continue
            c = ctx.move_cost(u, v, di)
            if c is None:
                continue
            g2 = gu + c
            if g2 == INF:
                continue
            if g[v] == INF or g2 < g[v]:
                h = self._h(v)
                if h == INF:
                    continue
                g[v] = g2
                self._parent[v] = u
                self._closed[v] = False
                self._open.push(v, g2 + h, g2)

    def path(self):
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
        return self._g[self._goal] if self._status == SearchStatus.Found else INF


# ------------------------------------------------------------------ jump points (section 5)

class JumpFinder(object):
    """[GS.JUMP.FORCED] [GS.JUMP.STRAIGHT] [GS.JUMP.DIAGONAL] [GS.JUMP.SUCCESSORS]"""

    def __init__(self, ctx):
        self.ctx = ctx

    def forced_sides(self, x, y, dx, dy):
        """[GS.JUMP.FORCED] Forced sides s in (-1, +1) of a straight move standing on (x, y)."""
        p = self.ctx.pass_xy
        out = []
        for s in (-1, 1):
            if dx != 0:
                if p(x, y + s) and not p(x - dx, y + s):
                    out.append(s)
            else:
                if p(x + s, y) and not p(x + s, y - dy):
                    out.append(s)
        return out

    def jump(self, c, dx, dy, goal):
        """[GS.JUMP.STRAIGHT] / [GS.JUMP.DIAGONAL] The jump point from c in (dx, dy), or -1."""
        ctx = self.ctx
        w = ctx.w
        p = ctx.pass_xy
        x, y = c % w, c // w
        gx, gy = goal % w, goal // w
        if dx == 0 or dy == 0:
            while True:
                if not p(x + dx, y + dy):
                    return -1
                x += dx
                y += dy
                if (x == gx and y == gy) or self.forced_sides(x, y, dx, dy):
                    return y * w + x
        while True:
            if not (p(x + dx, y + dy) and p(x + dx, y) and p(x, y + dy)):
                return -1
            x += dx
            y += dy
            n = y * w + x
            if (x == gx and y == gy) or self.jump(n, dx, 0, goal) >= 0 or self.jump(n, 0, dy, goal) >= 0:
                return n

    def directions(self, c, reached):
        """[GS.JUMP.SUCCESSORS] Directions tried from c; ``reached`` is (dx, dy) or None."""
        if reached is None:
            return list(DIRS)
        dx, dy = reached
        if dx != 0 and dy != 0:
            return [(dx, 0), (0, dy), (dx, dy)]
        w = self.ctx.w
        sides = self.forced_sides(c % w, c // w, dx, dy)
        out = [(dx, dy)]
        for s in sides:
            out.append((0, s) if dx != 0 else (s, 0))
        for s in sides:
            out.append((dx, s) if dx != 0 else (s, dy))
        return out

    def successors(self, c, reached, goal):
        """[GS.JUMP.SUCCESSORS] [GS.JUMP.HOP] List of (jump point, direction, hop pair)."""
        w = self.ctx.w
        out = []
        cx, cy = c % w, c // w
        for d in self.directions(c, reached):
            j = self.jump(c, d[0], d[1], goal)
            if j < 0:
                continue
            out.append((j, d, octile_pair(cx, cy, j % w, j // w)))
        return out


def expand_jump_path(points, w):
    """[GS.JUMP.PATH] Every cell between consecutive jump points, start first."""
    if not points:
        return []
    out = [points[0]]
    for i in range(1, len(points)):
        p, j = points[i - 1], points[i]
        x, y = p % w, p // w
        xj, yj = j % w, j // w
        while x != xj or y != yj:
            x += _sign(xj - x)
            y += _sign(yj - y)
            out.append(y * w + x)
    return out


# ------------------------------------------------------------------ generic JumpSearch (kind 9)

class GenericJump(GenericAStar):
    """[GS.JPSG.RULES] Graph A* whose out-edges are the jump successors."""

    def __init__(self, ctx, algorithm, record):
        GenericAStar.__init__(self, ctx, ALG_ASTAR, record)
        self.algorithm = algorithm
        self.finder = JumpFinder(ctx)

    def _h(self, v):
        """[GS.JPSG.RULES] h = o(j, goal), octile f64."""
        return normalize_estimate(self.ctx.octile_f(v, self._goal))

    def _expand(self, u):
        """[GS.JPSG.RULES] [GRAPH.ASTAR.EXPAND] with hop costs; reached-by from the parent."""
        w = self.ctx.w
        p = self._parent[u]
        reached = None
        if p >= 0:
            reached = (_sign(u % w - p % w), _sign(u // w - p // w))
        g = self._g
        gu = g[u]
        for j, _d, (a, b) in self.finder.successors(u, reached, self._goal):
            g2 = gu + pair_value(a, b)
            if g2 == INF:
                continue
            if g[j] == INF or g2 < g[j]:
                h = self._h(j)
                if h == INF:
                    continue
                g[j] = g2
                self._parent[j] = u
                self._closed[j] = False
                self._open.push(j, g2 + h, g2)

    def jump_points(self):
        return GenericAStar.path(self)

    def path(self):
        return expand_jump_path(self.jump_points(), self.ctx.w)


# ------------------------------------------------------------------ ThetaSearch (kind 10)

class ThetaEngine(GenericAStar):
    """[GS.THETA.COST] [GS.THETA.EXPAND] [GS.THETA.LAZY] [GS.THETA.COUNT]"""

    def __init__(self, ctx, algorithm, record):
        GenericAStar.__init__(self, ctx, ALG_ASTAR, record)
        self.algorithm = algorithm
        self.lazy = algorithm == ALG_LAZY_THETA

    def _h(self, v):
        """[GS.THETA.COST] euclid(v, goal) * w."""
        return normalize_estimate(self.ctx.euclid(v, self._goal) * self.ctx.weight)

    def _close(self, u):
        """[GS.THETA.LAZY] After the pop, before the goal test, fix u's parent when out of sight."""
        self._closed[u] = True
        if not self.lazy:
            return
        p = self._parent[u]
        ctx = self.ctx
        if p < 0 or ctx.los(p, u):
            return
        w = ctx.w
        ux, uy = u % w, u // w
        best = None
        best_s = -1
        for di, (dx, dy) in enumerate(DIRS):
            sx, sy = ux + dx, uy + dy
            if not (0 <= sx < ctx.w and 0 <= sy < ctx.h):
                continue
            s = sy * w + sx
            if not self._closed[s] or s == u:
                continue
            back = DIR_INDEX[(-dx, -dy)]
            if ctx.move(s, back) != u:
                continue
            cand = self._g[s] + ctx.euclid(s, u)
            if best is None or cand < best:
                best = cand
                best_s = s
        if best_s >= 0:
            self._parent[u] = best_s
            self._g[u] = best

    def _expand(self, u):
        ctx = self.ctx
        g = self._g
        closed = self._closed
        p = self._parent[u]
        for di in range(8):
            v = ctx.move(u, di)
            if v < 0 or closed[v]:
                continue
            if self.lazy:
                if p >= 0:
                    par, gv = p, g[p] + ctx.euclid(p, v)
                else:
                    par, gv = u, g[u] + ctx.euclid(u, v)
            else:
                if p >= 0 and ctx.los(p, v):
                    par, gv = p, g[p] + ctx.euclid(p, v)
                else:
                    par, gv = u, g[u] + ctx.euclid(u, v)
            if g[v] == INF or gv < g[v]:
                h = self._h(v)
                g[v] = gv
                self._parent[v] = par
                self._open.push(v, gv + h, gv)


# Specialised engines: grid_search_special.py; state bytes: grid_search_state.py.
from .grid_search_special import SpecialisedAStar, SpecialisedJump, FTHeap  # noqa: E402,F401
from .grid_search_state import (state_header, save_kind8, save_kind9, save_kind10,  # noqa: E402,F401
                                save_mode1, save_mode3)
