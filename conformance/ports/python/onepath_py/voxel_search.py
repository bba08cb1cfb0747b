"""Voxel search: A* and Dijkstra on voxel grids (spec/voxel-search.md), from the spec alone.

Public names: ``VoxelConnectivity``, ``VoxelOptions``, ``VoxelSearch``, ``find_voxel_path`` and
``VoxelPath``.  The search is the graph A* of ``lattice_astar`` over the voxel move graph
([VOXEL.SEARCH.GRAPH]).
"""

import math

from .astar import SearchStatus
from .grid_search import GridSearchError
from .grid_search_engines import (ALG_ASTAR, ALG_DIJKSTRA, DIAG_ALWAYS, DIAG_AT_MOST_ONE,
                                  DIAG_NONE_BLOCKED)
from .hex_search import path_status
from . import lattice_astar

INF = math.inf
WALL = 255
SQRT_2 = 1.4142135623730951   # [VOXEL.COST.BASE]
SQRT_3 = 1.7320508075688772   # [VOXEL.COST.BASE] the f64 nearest sqrt(3)
BASE = (None, 1.0, SQRT_2, SQRT_3)   # by k, the number of non-zero components


class VoxelConnectivity(object):
    """[VOXEL.OPT.FIELDS] Six, Eighteen, TwentySix (default); the values are the wire codes of
    [CONF.LATTICE.REQUEST] and the largest ``k`` each uses is ``K_MAX``."""
    Six = 6
    Eighteen = 18
    TwentySix = 26
    K_MAX = {6: 1, 18: 2, 26: 3}


def _voxel_order():
    """[VOXEL.DIR.ORDER] The 26 offsets ordered by ``k`` (1, 2, 3), then by ``(dz, dy, dx)``
    lexicographically (-1 < 0 < 1)."""
    offs = []
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                k = (dx != 0) + (dy != 0) + (dz != 0)
                if k:
                    offs.append((k, dz, dy, dx))
    offs.sort()
    return tuple((dx, dy, dz) for _k, dz, dy, dx in offs)


VOXEL_ORDER = _voxel_order()
assert VOXEL_ORDER[:6] == ((0, 0, -1), (0, -1, 0), (-1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1))


def passed_offsets(d):
    """[VOXEL.MOVE.PASSED] The offsets ``d'`` from ``d`` with some, but not all, of its non-zero
    components set to 0 (two for k = 2, six for k = 3; none for k = 1)."""
    nz = [i for i in range(3) if d[i] != 0]
    out = []
    for mask in range(1, (1 << len(nz)) - 1):   # the kept components: a non-empty proper subset
        dd = [0, 0, 0]
        for j, i in enumerate(nz):
            if mask >> j & 1:
                dd[i] = d[i]
        out.append(tuple(dd))
    return tuple(out)


def voxel_distance(connectivity, dx, dy, dz):
    """[VOXEL.EST.DISTANCE] The move-count distance of each neighbourhood on an open lattice,
    ``a <= b <= c`` the sorted absolute differences, f64 operations in the order written."""
    a, b, c = sorted((abs(dx), abs(dy), abs(dz)))
    if connectivity == VoxelConnectivity.Six:
        return float(a + b + c)
    if connectivity == VoxelConnectivity.Eighteen:
        e = min((a + b + c) // 2, a + b)
        f = a + b + c - 2 * e
        return float(f) + float(e) * SQRT_2
    return (float(c - b) + float(b - a) * SQRT_2) + float(a) * SQRT_3


class VoxelOptions(object):
    """[VOXEL.OPT.FIELDS] Defaults: TwentySix, NoneBlocked, AStar, no hooks, weight 1.0, no
    budget, no recording.  There is no agent size."""

    def __init__(self, connectivity=VoxelConnectivity.TwentySix, diagonal=DIAG_NONE_BLOCKED,
                 algorithm=ALG_ASTAR, cell_cost=None, blocked=None, heuristic_weight=1.0,
                 iteration_budget=0, record_expansions=False):
        self.connectivity = connectivity
        self.diagonal = diagonal
        self.algorithm = algorithm
        self.cell_cost = cell_cost
        self.blocked = blocked
        self.heuristic_weight = heuristic_weight
        self.iteration_budget = iteration_budget
        self.record_expansions = record_expansions


class VoxelPath(object):
    """[VOXEL.TIER1] The ``VoxelPath`` debug row: algorithm, status, cost, cells (node
    indexes), points (voxel centres), expanded, expanded_count, iterations."""

    def __init__(self, algorithm, status, cost, cells, points, expanded, expanded_count, iterations):
        self.algorithm = algorithm
        self.status = status
        self.cost = cost
        self.cells = cells
        self.points = points
        self.expanded = expanded
        self.expanded_count = expanded_count
        self.iterations = iterations


def voxel_center(grid, node):
    """[GRID.SPACE.CENTER] with ``z``: ``(ox + (x + 0.5) * s, oy + (y + 0.5) * s, oz + (z +
    0.5) * s)``, ``(0, 0, 0, 1)`` when the space is unassigned ([GRID.SPACE.UNASSIGNED])."""
    sx, sy, _ = grid.size()
    x = node % sx
    y = (node // sx) % sy
    z = node // (sx * sy)
    sp = grid.space()
    if sp.unassigned():
        ox, oy, oz, s = 0.0, 0.0, 0.0, 1.0
    else:
        ox, oy, oz, s = sp.origin_x, sp.origin_y, sp.origin_z, sp.cell_size
    return (ox + (x + 0.5) * s, oy + (y + 0.5) * s, oz + (z + 0.5) * s)


def _areas(grid):
    """The area of every voxel in node index order ``x + sx * (y + sy * z)`` ([GRID.VOXEL.SIZE])."""
    sx, sy, sz = grid.size()
    out = bytearray(sx * sy * sz)
    i = 0
    for z in range(sz):
        for y in range(sy):
            for x in range(sx):
                out[i] = grid.voxel(x, y, z)
                i += 1
    return out


class VoxelSearch(object):
    """[VOXEL.SEARCH.GRAPH] [VOXEL.SEARCH.BEGIN] [VOXEL.SEARCH.RECORD] [VOXEL.SEARCH.NOT_SAVED]
    [VOXEL.SEARCH.GRID] A resumable voxel A* / Dijkstra over a borrowed ``VoxelGrid``."""

    def __init__(self, grid, options):
        """[VOXEL.OPT.VALID] The weight finite and ``>= 1.0`` (``invalid_options``, field
        ``heuristic_weight``), then the algorithm (``AStar``, ``Dijkstra``; else
        ``unsupported_algorithm``)."""
        w = float(options.heuristic_weight)
        if not (math.isfinite(w) and w >= 1.0):
            raise GridSearchError("invalid_options", field="heuristic_weight", value=w)
        if options.algorithm not in (ALG_ASTAR, ALG_DIJKSTRA):
            raise GridSearchError("unsupported_algorithm", algorithm=options.algorithm)
        # [CONF.LATTICE.REQUEST] the kit never sends another connectivity or diagonal rule
        assert options.connectivity in VoxelConnectivity.K_MAX, options.connectivity
        assert options.diagonal in (DIAG_ALWAYS, DIAG_AT_MOST_ONE, DIAG_NONE_BLOCKED), options.diagonal
        self._grid = grid
        self._opt = options
        self.algorithm = options.algorithm
        self._size = grid.size()
        sx, sy, sz = self._size
        self._n = sx * sy * sz
        self._weight = w
        # [VOXEL.EST.VALUE] mmin: the smallest multiplier of areas 0..=254 when created
        self._mult = [grid.area_multiplier(a) for a in range(255)]
        self._mmin = min(self._mult)
        self._conn = options.connectivity
        self._diag = options.diagonal
        self._cell_cost = options.cell_cost
        self._blocked = options.blocked
        kmax = VoxelConnectivity.K_MAX[self._conn]
        # [VOXEL.DIR.CONNECTIVITY] the offsets with k <= kmax, in voxel neighbour order
        self._dirs = tuple((d, sum(1 for c in d if c), passed_offsets(d))
                           for d in VOXEL_ORDER if sum(1 for c in d if c) <= kmax)
        self._areas = None
        self._pass = None
        self._goal_xyz = (0, 0, 0)
        self._engine = lattice_astar.LatticeEngine(
            self._n, self._moves, self._estimate, self._passable, bool(options.record_expansions))

    # ---------------------------------------------------------------- moves, costs, estimate

    def _materialise(self):
        """[VOXEL.PASS] Area 255 is solid; ``blocked(c)`` makes ``c`` impassable (hooks pure,
        [VOXEL.OPT.HOOKS], so they are asked once per voxel)."""
        if self._pass is None:
            areas = self._areas = _areas(self._grid)
            blocked = self._blocked
            if blocked is None:
                self._pass = [a != WALL for a in areas]
            else:
                self._pass = [areas[i] != WALL and not blocked(i) for i in range(self._n)]

    def _passable(self, c):
        self._materialise()
        return self._pass[c]

    def _pass_xyz(self, x, y, z):
        """[VOXEL.PASS] Outside the grid nothing is passable."""
        sx, sy, sz = self._size
        return (0 <= x < sx and 0 <= y < sy and 0 <= z < sz
                and self._pass[x + sx * (y + sy * z)])

    def _moves(self, u):
        """[VOXEL.MOVE.RULE] [VOXEL.COST.MOVE] For each offset of the connectivity in voxel
        neighbour order: ``u + d`` passable; for ``k >= 2`` the diagonal rule over the passed
        voxels ([VOXEL.MOVE.PASSED]): Always nothing more, AtMostOneBlocked at most one not
        passable (over all six for k = 3), NoneBlocked all passable.  Cost ``base * m(area(v))``
        then ``+ extra``; a move whose extra is NaN, negative or +infinity is not allowed."""
        sx, sy, _sz = self._size
        x = u % sx
        y = (u // sx) % sy
        z = u // (sx * sy)
        pxyz = self._pass_xyz
        areas, mult, hook, rule = self._areas, self._mult, self._cell_cost, self._diag
        out = []
        for (dx, dy, dz), k, passed in self._dirs:
            nx, ny, nz = x + dx, y + dy, z + dz
            if not pxyz(nx, ny, nz):
                continue
            if k >= 2 and rule != DIAG_ALWAYS:
                bad = 0
                for px, py, pz in passed:
                    if not pxyz(x + px, y + py, z + pz):
                        bad += 1
                if rule == DIAG_AT_MOST_ONE:
                    if bad > 1:
                        continue
                elif bad:
                    continue
            v = nx + sx * (ny + sy * nz)
            c = BASE[k] * mult[areas[v]]
            if hook is not None:
                extra = float(hook(u, v))
                if extra != extra or extra < 0.0 or extra == INF:
                    continue
                c = c + extra
            out.append((v, c))
        return out

    def _estimate(self, v):
        """[VOXEL.EST.VALUE] ``(o * mmin) * w``, ``o`` the distance of [VOXEL.EST.DISTANCE] to
        the goal; Dijkstra 0 (normalised by the engine, [GRAPH.ASTAR.ESTIMATE])."""
        if self.algorithm == ALG_DIJKSTRA:
            return 0.0
        sx, sy, _ = self._size
        gx, gy, gz = self._goal_xyz
        o = voxel_distance(self._conn, v % sx - gx, (v // sx) % sy - gy, v // (sx * sy) - gz)
        return (o * self._mmin) * self._weight

    # ---------------------------------------------------------------- the sliced surface

    def begin(self, start, goal):
        """[VOXEL.SEARCH.BEGIN] ``(x, y, z)`` triples; a component at or past its size is
        ``cell_out_of_range`` naming the axis and value (start first, then x, y, z) and changes
        nothing."""
        for name, p in (("start", start), ("goal", goal)):
            for axis, v, lim in zip("xyz", p, self._size):
                if not 0 <= v < lim:
                    raise GridSearchError("cell_out_of_range", which=name, axis=axis, value=v)
        self._materialise()
        sx, sy, _ = self._size
        s = start[0] + sx * (start[1] + sy * start[2])
        t = goal[0] + sx * (goal[1] + sy * goal[2])
        self._goal_xyz = tuple(goal)
        self._engine.begin_nodes(s, t)

    def step(self, budget):
        """[GRAPH.ASTAR.STEP] One iteration is one open-list pop, the goal's included."""
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
        """[VOXEL.SEARCH.RECORD]"""
        return self._engine.expansions()


def find_voxel_path(grid, start, goal, options):
    """[VOXEL.TIER1] ``new``, ``begin``, ``step(iteration_budget)`` when non-zero else
    ``run(None)``; a ``VoxelPath``.  Errors of ``new``, then ``begin``."""
    s = VoxelSearch(grid, options)
    s.begin(start, goal)
    if options.iteration_budget:
        st = s.step(options.iteration_budget)
    else:
        st = s.run(None)
    found = st == SearchStatus.Found
    cells = s.path() if found else []
    cost = s.path_cost() if found else INF
    return VoxelPath(options.algorithm, path_status(st), cost, cells,
                     [voxel_center(grid, c) for c in cells], s.expansions(), s.expanded_count(),
                     s.iterations())
