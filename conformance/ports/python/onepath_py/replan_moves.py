"""Moves, costs and estimates of the replanners (spec/replanning.md §2).

Clauses: [REPLAN.MOVE.SQUARE] [REPLAN.MOVE.HEX] [REPLAN.MOVE.COST] [REPLAN.KEY.ESTIMATE]
[REPLAN.KEY.SCALE] [GS.PASS] [GS.CLEAR.VALUE] [GS.DIR] [GS.MOVE.STRAIGHT] [GS.MOVE.DIAGONAL]
[GS.COST.BASE] [GS.COST.MOVE] [GS.EST.OCTILE] [GS.EST.SCALE] [GRID.HEX.NEIGHBOURS]
[GRID.HEX.OFFSETS] [GRID.HEX.AXIAL] [GRID.HEX.DISTANCE] [GRID.HEX.MOVE] [GRID.HEX.COST]
[GRID.HEX.ESTIMATE].

The geometry (which cells lie in which direction, inside the grid) never changes, so it is built
once per cell, lazily; which of those moves are allowed is read from the grid's cells at the time
of the call (the replanners read the grid live, [REPLAN.PATH.USE]).  Each ``neighbours(u)`` call
returns ``[(v, base), ...]`` in neighbour order; the cost of ``u -> v`` is ``base * m(area(v))``
([REPLAN.MOVE.COST]).
"""

from .grid_search_engines import CONN_FOUR, DIAG_ALWAYS, DIAG_AT_MOST_ONE

WALL = 255
SQRT_2 = 1.4142135623730951  # [GS.COST.BASE]

# [GS.DIR] neighbour order N, E, S, W, NE, SE, SW, NW
SQUARE_DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))

# [GRID.HEX.OFFSETS] (dx, dy) in hex neighbour order ([GRID.HEX.NEIGHBOURS])
_ODD_R_EVEN = ((0, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (-1, -1))
_ODD_R_ODD = ((1, -1), (1, 0), (1, 1), (0, 1), (-1, 0), (0, -1))
_ODD_Q_EVEN = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_ODD_Q_ODD = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


def hex_offsets(layout, x, y):
    """[GRID.HEX.OFFSETS] The six offsets of cell (x, y); even-r / even-q swap the odd lists."""
    if layout == 0:
        return _ODD_R_ODD if y & 1 else _ODD_R_EVEN
    if layout == 1:
        return _ODD_R_EVEN if y & 1 else _ODD_R_ODD
    if layout == 2:
        return _ODD_Q_ODD if x & 1 else _ODD_Q_EVEN
    return _ODD_Q_EVEN if x & 1 else _ODD_Q_ODD


def hex_axial(layout, x, y):
    """[GRID.HEX.AXIAL] (q, r); the divisions are of even numbers, so exact."""
    if layout == 0:
        return x - (y - (y & 1)) // 2, y
    if layout == 1:
        return x - (y + (y & 1)) // 2, y
    if layout == 2:
        return x, y - (x - (x & 1)) // 2
    return x, y - (x + (x & 1)) // 2


class SquareMoves(object):
    """[REPLAN.MOVE.SQUARE] Moves on a square grid for one replanner's options (no hooks)."""

    hex = False

    def __init__(self, width, height, options):
        self.w, self.h = width, height
        self.n = width * height
        self.k = options.agent_size
        self.four = options.connectivity == CONN_FOUR
        self.rule = options.diagonal
        self._geo = [None] * self.n
        self.cells = None
        self._pass = None
        self._nb = [None] * self.n
        self.cached = False

    def bind(self, cells, cached):
        """Read the grid's current cells (a restore replaces the grid's buffer, so every call
        binds again).  ``cached``: the neighbour lists may be kept between calls (the grid is the
        one whose listener invalidates them)."""
        self.cells = cells
        self._pass = {} if self.k > 1 else None
        self.cached = cached

    def invalidate(self, c):
        """Not a spec rule (a cache): the walls of ``c`` changed, so the passability of
        ``(x-k+1..=x, y-k+1..=y)`` and the moves of those cells and their neighbours, the cells of
        ``(x-k..=x+1, y-k..=y+1)``, may have changed."""
        nb = self._nb
        for v in self.edit_cells(~c, True):
            nb[v] = None

    def drop_cache(self):
        self._nb = [None] * self.n

    def geometry(self, u):
        """[GS.DIR] The in-grid cells around ``u`` in neighbour order: ``(v, base, a, b)`` with the
        two corner cells ``a = (x+dx, y)``, ``b = (x, y+dy)`` of a diagonal (-1 for straight)."""
        g = self._geo[u]
        if g is None:
            w, h = self.w, self.h
            x, y = u % w, u // w
            out = []
            for i, (dx, dy) in enumerate(SQUARE_DIRS):
                if i >= 4 and self.four:
                    break
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h:
                    v = ny * w + nx
                    if i < 4:
                        out.append((v, 1.0, -1, -1))
                    else:
                        out.append((v, SQRT_2, y * w + nx, ny * w + x))
            g = self._geo[u] = tuple(out)
        return g

    def passable(self, c):
        """[GS.PASS] [GS.CLEAR.VALUE] clearance >= k for k >= 2 (its one caller reads the cells
        inline for k = 1): the k x k square anchored at ``c`` lies in the grid and holds no wall.
        Memoised per call."""
        cells = self.cells
        memo = self._pass
        r = memo.get(c)
        if r is None:
            w, h, k = self.w, self.h, self.k
            x, y = c % w, c // w
            r = x + k <= w and y + k <= h
            if r:
                for yy in range(y, y + k):
                    row = yy * w
                    for xx in range(x, x + k):
                        if cells[row + xx] == WALL:
                            r = False
                            break
                    if not r:
                        break
            memo[c] = r
        return r

    def neighbours(self, u):
        """[REPLAN.MOVE.SQUARE] ``[(v, base)]`` (kept until an edit of walls nearby invalidates it)."""
        if self.cached:
            r = self._nb[u]
            if r is None:
                r = self._nb[u] = self._neighbours(u)
            return r
        return self._neighbours(u)

    def _neighbours(self, u):
        """[REPLAN.MOVE.SQUARE] ``[(v, base)]``: ``u`` passable, ``v`` passable, and a diagonal by
        [GS.MOVE.DIAGONAL] (Always; AtMostOneBlocked: a corner passable; NoneBlocked: both)."""
        if self.k == 1:
            cells = self.cells
            if cells[u] == WALL:
                return ()
            rule = self.rule
            out = []
            for v, base, a, b in self.geometry(u):
                if cells[v] == WALL:
                    continue
                if a >= 0 and rule != DIAG_ALWAYS:
                    if rule == DIAG_AT_MOST_ONE:
                        if cells[a] == WALL and cells[b] == WALL:
                            continue
                    elif cells[a] == WALL or cells[b] == WALL:
                        continue
                out.append((v, base))
            return tuple(out)
        p = self.passable
        if not p(u):
            return ()
        rule = self.rule
        out = []
        for v, base, a, b in self.geometry(u):
            if not p(v):
                continue
            if a >= 0 and rule != DIAG_ALWAYS:
                if rule == DIAG_AT_MOST_ONE:
                    if not p(a) and not p(b):
                        continue
                elif not (p(a) and p(b)):
                    continue
            out.append((v, base))
        return tuple(out)

    def distance(self, a, b):
        """[GS.EST.OCTILE] The octile f64 value ``o`` (connectivity Four: ``dx + dy``)."""
        w = self.w
        dx = abs(a % w - b % w)
        dy = abs(a // w - b // w)
        if self.four:
            return float(dx + dy)
        lo, hi = (dx, dy) if dx < dy else (dy, dx)
        return float(hi - lo) + float(lo) * SQRT_2

    def edit_cells(self, e, lpa):
        """[REPLAN.EDIT.CELLS] The cells a pending entry updates, in ascending index, in the grid."""
        w, h = self.w, self.h
        if e >= 0:
            if lpa:
                return (e,)
            x, y = e % w, e // w
            x0, x1, y0, y1 = x - 1, x + 1, y - 1, y + 1
            skip = e
        else:
            c = ~e
            x, y = c % w, c // w
            k = self.k
            x0, x1, y0, y1 = x - k, x + 1, y - k, y + 1
            skip = -1
        out = []
        for yy in range(max(y0, 0), min(y1, h - 1) + 1):
            for xx in range(max(x0, 0), min(x1, w - 1) + 1):
                v = yy * w + xx
                if v != skip:
                    out.append(v)
        return out


class HexMoves(object):
    """[REPLAN.MOVE.HEX] Moves on a hex grid: both cells in the grid and neither a wall."""

    hex = True

    def __init__(self, width, height, layout):
        self.w, self.h = width, height
        self.n = width * height
        self.layout = layout
        self._geo = [None] * self.n
        self.cells = None
        self._nb = [None] * self.n
        self.cached = False

    def bind(self, cells, cached):
        self.cells = cells
        self.cached = cached

    def invalidate(self, c):
        """Not a spec rule (a cache): the walls of ``c`` changed; its moves and its neighbours'."""
        nb = self._nb
        nb[c] = None
        for v in self.geometry(c):
            nb[v] = None

    def drop_cache(self):
        self._nb = [None] * self.n

    def geometry(self, u):
        """[GRID.HEX.NEIGHBOURS] [GRID.HEX.OFFSETS] The in-grid neighbours in hex neighbour order."""
        g = self._geo[u]
        if g is None:
            w, h = self.w, self.h
            x, y = u % w, u // w
            out = []
            for dx, dy in hex_offsets(self.layout, x, y):
                nx, ny = x + dx, y + dy
                if 0 <= nx < w and 0 <= ny < h:
                    out.append(ny * w + nx)
            g = self._geo[u] = tuple(out)
        return g

    def neighbours(self, u):
        """[GRID.HEX.MOVE] ``[(v, 1.0)]`` (kept until an edit of walls nearby invalidates it)."""
        if self.cached:
            r = self._nb[u]
            if r is None:
                r = self._nb[u] = self._neighbours(u)
            return r
        return self._neighbours(u)

    def _neighbours(self, u):
        """[GRID.HEX.MOVE] [GRID.HEX.COST] ``[(v, 1.0)]`` (every hex step has base 1.0)."""
        cells = self.cells
        if cells[u] == WALL:
            return ()
        return tuple((v, 1.0) for v in self.geometry(u) if cells[v] != WALL)

    def distance(self, a, b):
        """[GRID.HEX.DISTANCE] The hex distance as f64."""
        w, lay = self.w, self.layout
        qa, ra = hex_axial(lay, a % w, a // w)
        qb, rb = hex_axial(lay, b % w, b // w)
        dq, dr = qa - qb, ra - rb
        return float((abs(dq) + abs(dr) + abs(dq + dr)) // 2)

    def edit_cells(self, e, lpa):
        """[REPLAN.EDIT.CELLS] Plain: LPA* the cell, D* Lite its six neighbours; complemented: the
        cell and its neighbours; ascending index."""
        if e >= 0:
            if lpa:
                return (e,)
            return sorted(self.geometry(e))
        c = ~e
        return sorted(self.geometry(c) + (c,))
