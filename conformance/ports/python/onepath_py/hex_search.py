"""Hex search: A* and Dijkstra on hex grids (spec/hex-search.md), from the spec alone.

Public names: ``HexSearch`` and ``find_hex_path`` (the result is the square searches'
``GridPath``, [HEX.TIER1]).  The moves are the hex moves every hex family shares
([GRID.HEX.NEIGHBOURS] [GRID.HEX.OFFSETS] [GRID.HEX.AXIAL] [GRID.HEX.DISTANCE], the port's
``replan_moves`` geometry); the search is the graph A* of ``lattice_astar`` ([HEX.SEARCH.GRAPH]).
"""

import math

from .astar import SearchStatus
from .grid_search import GridPath, GridSearchError, validate_options, WALL
from .grid_search_engines import ALG_ASTAR, ALG_DIJKSTRA
from .options import PathStatus
from .replan_moves import hex_axial, hex_offsets
from . import lattice_astar

INF = math.inf

# The open-set factory of every HexSearch (the driver's hex_tie defect replaces it; the library
# never does).
OPEN_SET_FACTORY = lattice_astar.make_open_set




def hex_neighbours(layout, width, height, u):
    """[GRID.HEX.NEIGHBOURS] [GRID.HEX.OFFSETS] The in-grid neighbours of cell ``u`` in hex
    neighbour order (a neighbour outside the grid does not exist)."""
    x, y = u % width, u // width
    out = []
    for dx, dy in hex_offsets(layout, x, y):
        nx, ny = x + dx, y + dy
        if 0 <= nx < width and 0 <= ny < height:
            out.append(ny * width + nx)
    return tuple(out)


class HexSearch(object):
    """[HEX.SEARCH.GRAPH] [HEX.SEARCH.BEGIN] [HEX.SEARCH.RECORD] [HEX.SEARCH.NOT_SAVED]
    [HEX.SEARCH.GRID] A resumable hex A* / Dijkstra over a borrowed ``HexGrid``."""

    def __init__(self, grid, options):
        """[HEX.OPT.VALID] [GS.OPT.VALID]: agent size range, then the weight; then agent size
        exactly 1 (``invalid_options``, field ``agent_size``); then the algorithm (``AStar`` and
        ``Dijkstra``; every other is ``unsupported_algorithm``).  [HEX.OPT.FIELDS]: connectivity
        and diagonal are ignored."""
        validate_options(options)
        if options.agent_size != 1:
            raise GridSearchError("invalid_options", field="agent_size", value=options.agent_size)
        if options.algorithm not in (ALG_ASTAR, ALG_DIJKSTRA):
            raise GridSearchError("unsupported_algorithm", algorithm=options.algorithm)
        self._grid = grid
        self.algorithm = options.algorithm
        w, h = grid.width(), grid.height()
        self._w, self._h = w, h
        self._layout = grid.layout()
        self._cells = grid.cells()
        # [HEX.EST.VALUE] mmin: the smallest multiplier of areas 0..=254 when the search is created
        self._mult = [grid.area_multiplier(a) for a in range(255)]
        self._mmin = min(self._mult)
        self._weight = float(options.heuristic_weight)
        self._cell_cost = options.cell_cost
        self._blocked = options.blocked
        self._pass = None       # [HEX.PASS] per cell, computed at the first begin (hooks are pure)
        self._geo = [None] * (w * h)
        self._gq = self._gr = 0
        self._engine = lattice_astar.LatticeEngine(
            w * h, self._moves, self._estimate, self._passable, bool(options.record_expansions),
            OPEN_SET_FACTORY)

    # ---------------------------------------------------------------- moves, costs, estimate

    def _passable(self, c):
        """[HEX.PASS] Inside the grid (``c`` is an index of it), not a wall, not ``blocked``."""
        if self._pass is None:
            cells, blocked = self._cells, self._blocked
            if blocked is None:
                self._pass = [a != WALL for a in cells]
            else:
                self._pass = [cells[i] != WALL and not blocked(i) for i in range(len(cells))]
        return self._pass[c]

    def _moves(self, u):
        """[HEX.MOVE.RULE] [HEX.MOVE.COST] The allowed moves ``u -> v`` (``v`` passable) in hex
        neighbour order with cost ``1.0 * m(area(v))``, then ``+ extra`` with the hook; a move
        whose extra is NaN, negative or +infinity is not allowed (``-0.0`` counts as 0)."""
        geo = self._geo[u]
        if geo is None:
            geo = self._geo[u] = hex_neighbours(self._layout, self._w, self._h, u)
        passable, cells, mult, hook = self._pass, self._cells, self._mult, self._cell_cost
        out = []
        for v in geo:
            if not passable[v]:
                continue
            c = 1.0 * mult[cells[v]]
            if hook is not None:
                extra = float(hook(u, v))
                if extra != extra or extra < 0.0 or extra == INF:
                    continue
                c = c + extra
            out.append((v, c))
        return out

    def _estimate(self, v):
        """[HEX.EST.VALUE] ``(d as f64 * mmin) * w``, ``d`` the hex distance to the goal;
        Dijkstra 0.  (The engine normalises it, [GRAPH.ASTAR.ESTIMATE].)"""
        if self.algorithm == ALG_DIJKSTRA:
            return 0.0
        w = self._w
        q, r = hex_axial(self._layout, v % w, v // w)
        dq, dr = q - self._gq, r - self._gr
        d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        return (float(d) * self._mmin) * self._weight

    # ---------------------------------------------------------------- the sliced surface

    def begin(self, start, goal):
        """[HEX.SEARCH.BEGIN] ``(x, y)`` pairs; ``x >= width`` or ``y >= height`` is
        ``cell_out_of_range`` naming the axis and value (start first, x before y) and changes
        nothing ([GS.ASTAR.BEGIN]: a negative coordinate the same way)."""
        w, h = self._w, self._h
        for name, (x, y) in (("start", start), ("goal", goal)):
            if not 0 <= x < w:
                raise GridSearchError("cell_out_of_range", which=name, axis="x", value=x)
            if not 0 <= y < h:
                raise GridSearchError("cell_out_of_range", which=name, axis="y", value=y)
        s = start[1] * w + start[0]
        t = goal[1] * w + goal[0]
        self._gq, self._gr = hex_axial(self._layout, goal[0], goal[1])
        self._engine.begin_nodes(s, t)

    def step(self, budget):
        """[GRAPH.ASTAR.STEP] [GRAPH.ASTAR.EMPTY_FIRST] One iteration is one pop, the goal's
        included."""
        return self._engine.step(budget)

    def run(self, cancel=None):
        """[GRAPH.ASTAR.RUN]"""
        return self._engine.run(cancel)

    def status(self):
        return self._engine.status()

    def path(self):
        return self._engine.path()

    def path_cost(self):
        return self._engine.path_cost()

    def iterations(self):
        return self._engine.iterations()

    def expanded_count(self):
        return self._engine.expanded_count()

    def expansions(self):
        """[HEX.SEARCH.RECORD] The expanded cells in order (empty without recording)."""
        return self._engine.expansions()


def path_status(st):
    """[HEX.TIER1] [VOXEL.TIER1] Found, NotFound, or BudgetExhausted while still running."""
    if st == SearchStatus.Found:
        return PathStatus.Found
    if st == SearchStatus.NotFound:
        return PathStatus.NotFound
    return PathStatus.BudgetExhausted


def find_hex_path(grid, start, goal, options):
    """[HEX.TIER1] ``new``, ``begin``, ``step(iteration_budget)`` when non-zero else
    ``run(None)``; a ``GridPath`` with the requested algorithm, the status, the cost
    (+infinity unless found), the cells, their centres on offset coordinates
    ([GRID.SPACE.CENTER]), the recorded cells and the counters.  Errors of ``new``, then
    ``begin``."""
    s = HexSearch(grid, options)
    s.begin(start, goal)
    if options.iteration_budget:
        st = s.step(options.iteration_budget)
    else:
        st = s.run(None)
    found = st == SearchStatus.Found
    cells = s.path() if found else []
    cost = s.path_cost() if found else INF
    return GridPath(options.algorithm, path_status(st), cost, cells,
                    [grid.center(c) for c in cells], s.expansions(), s.expanded_count(),
                    s.iterations())
