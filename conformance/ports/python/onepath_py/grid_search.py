"""Square grids and grid searches, written from spec/grids.md and spec/grid-search.md alone.

Public names: ``Grid``, ``GridSpace``, ``GridOptions``, ``GridPath``, ``GridSearch``,
``AStar``, ``JumpSearch``, ``ThetaSearch``, ``find_grid_path`` and the enums.  Engines live in
``grid_search_engines``.
"""

import math

from .astar import SearchStatus
from .errors import OnePathError
from .options import PathStatus
from . import grid_search_engines as eng
from .grid_search_engines import (ALG_ASTAR, ALG_DIJKSTRA, ALG_JPS, ALG_JPSPLUS, ALG_THETA,
                                  ALG_LAZY_THETA, CONN_EIGHT, CONN_FOUR, DIAG_NONE_BLOCKED,
                                  GridContext, INF)

WALL = 255
MAX_CELLS = 1 << 26


class GridAlgorithm(object):
    """[GS.OPT.ALGORITHM]"""
    AStar = ALG_ASTAR
    Dijkstra = ALG_DIJKSTRA
    Jps = ALG_JPS
    JpsPlus = ALG_JPSPLUS
    Theta = ALG_THETA
    LazyTheta = ALG_LAZY_THETA


class Connectivity(object):
    """[GS.OPT.FIELDS]"""
    Four = CONN_FOUR
    Eight = CONN_EIGHT


class GridError(OnePathError):
    """[GRID.*] cell_out_of_range, area_out_of_range, invalid_multiplier, invalid_space, invalid_size."""


class GridSearchError(OnePathError):
    """[GS.OPT.VALID] [GS.ASTAR.BEGIN] invalid_options, cell_out_of_range, unsupported_algorithm."""


# ------------------------------------------------------------------ grid

class GridSpace(object):
    """[GRID.SPACE.FIELDS]"""

    def __init__(self, origin_x=0.0, origin_y=0.0, cell_size=0.0):
        self.origin_x = float(origin_x)
        self.origin_y = float(origin_y)
        self.cell_size = float(cell_size)

    def unassigned(self):
        return self.origin_x == 0.0 and self.origin_y == 0.0 and self.cell_size == 0.0


class Grid(object):
    """[GRID.CELL.*] [GRID.AREA.*] [GRID.VERSION.*] [GRID.SPACE.*] [GRID.SQUARE.*] [GS.CLEAR.*]"""

    def __init__(self, width, height):
        if width < 1 or height < 1 or width * height > MAX_CELLS:
            raise GridError("invalid_size", width=width, height=height)
        self._w = width
        self._h = height
        self._cells = bytearray(width * height)
        self._mult = [1.0] * 255
        self._area_version = 0
        self._version = 0
        self._space = GridSpace()
        self._listeners = {}
        self._next_listener = 0
        self._restore_count = 0

    def restore_count(self):
        """[GRID.RESTORE_COUNT]"""
        return self._restore_count

    _STATE_KIND = 1

    def save_state(self):
        """[STATE.API] [STATE.GRID] Kind-1 bytes."""
        from . import grid_state
        return grid_state.save_flat(self, self._STATE_KIND)

    def restore_state(self, data):
        """[STATE.API] [STATE.ATOMIC] [STATE.GRID.RESTORE] Validate everything, then install and notify."""
        from . import grid_state
        st = grid_state.parse_flat(data, self._STATE_KIND, self)
        grid_state.install_flat(self, st)

    @classmethod
    def from_state(cls, data):
        """[STATE.API] [STATE.GRID] A new grid from kind-1 bytes."""
        from . import grid_state
        st = grid_state.parse_flat(data, cls._STATE_KIND, None)
        g = cls._new_for_state(st)
        grid_state.install_flat(g, st)
        g._restore_count = 0   # GUESS (SPEC_NOTES_STATE): a new object has restore_count 0
        return g

    @classmethod
    def _new_for_state(cls, st):
        return cls(st.width, st.height)

    def width(self):
        return self._w

    def height(self):
        return self._h

    def cells(self):
        return self._cells

    def _check(self, x, y):
        if not (0 <= x < self._w):
            raise GridError("cell_out_of_range", axis="x", value=x)
        if not (0 <= y < self._h):
            raise GridError("cell_out_of_range", axis="y", value=y)

    def set_cell(self, x, y, area):
        """[GRID.VERSION.COUNT] [GRID.LISTEN.EDIT] [GS.CLEAR.GRID]"""
        self._check(x, y)
        i = y * self._w + x
        old = self._cells[i]
        if old == area:
            return
        self._cells[i] = area
        self._version = 0 if self._version == 2 ** 31 - 1 else self._version + 1
        for lid in sorted(self._listeners):
            self._listeners[lid](i, old, area)

    def version(self):
        return self._version

    def area_multiplier(self, area):
        return None if area == WALL else self._mult[area]

    def set_area_multiplier(self, area, multiplier):
        """[GRID.AREA.SET] [GRID.AREA.VERSION]"""
        if not (0 <= area <= 254):
            raise GridError("area_out_of_range", area=area)
        m = float(multiplier)
        if not (math.isfinite(m) and m > 0.0):
            raise GridError("invalid_multiplier", value=m)
        self._mult[area] = m
        self._area_version = 0 if self._area_version == 2 ** 31 - 1 else self._area_version + 1

    def area_version(self):
        return self._area_version

    def space(self):
        return self._space

    def set_space(self, space):
        """[GRID.SPACE.RANGE]"""
        if not space.unassigned():
            lim = float(1 << 21)
            for name in ("origin_x", "origin_y"):
                v = getattr(space, name)
                if not (math.isfinite(v) and abs(v) <= lim):
                    raise GridError("invalid_space", field=name, value=v)
            s = space.cell_size
            if not (math.isfinite(s) and 0.0 < s <= lim):
                raise GridError("invalid_space", field="cell_size", value=s)
        self._space = GridSpace(space.origin_x, space.origin_y, space.cell_size)

    def add_listener(self, listener):
        lid = self._next_listener
        self._next_listener += 1
        self._listeners[lid] = listener
        return lid

    def remove_listener(self, lid):
        return self._listeners.pop(lid, None) is not None

    def clearance_values(self):
        """[GS.CLEAR.VALUE] Brushfire towards +x, +y, saturating at 255 (not cached).  The port
        reads clearance only as ``clearance >= agent_size``; it has no ``compute_clearance`` /
        ``clearance`` accessors ([GS.CLEAR.GRID]), which no request reads."""
        w, h, cells = self._w, self._h, self._cells
        clr = [0] * (w * h)
        for y in range(h - 1, -1, -1):
            for x in range(w - 1, -1, -1):
                i = y * w + x
                if cells[i] == WALL:
                    continue
                a = clr[i + 1] if x + 1 < w else 0
                b = clr[i + w] if y + 1 < h else 0
                c = clr[i + w + 1] if (x + 1 < w and y + 1 < h) else 0
                clr[i] = min(255, 1 + min(a, b, c))
        return clr

    def center(self, cell):
        """[GRID.SPACE.CENTER]"""
        sp = self._space
        if sp.unassigned():
            ox, oy, s = 0.0, 0.0, 1.0
        else:
            ox, oy, s = sp.origin_x, sp.origin_y, sp.cell_size
        x, y = cell % self._w, cell // self._w
        return (ox + (x + 0.5) * s, oy + (y + 0.5) * s)


# ------------------------------------------------------------------ options and results

class GridOptions(object):
    """[GS.OPT.FIELDS] Defaults: agent 1, Eight, NoneBlocked, AStar, no hooks, weight 1, no budget."""

    def __init__(self, agent_size=1, connectivity=CONN_EIGHT, diagonal=DIAG_NONE_BLOCKED,
                 algorithm=ALG_ASTAR, cell_cost=None, blocked=None, heuristic_weight=1.0,
                 iteration_budget=0, record_expansions=False):
        self.agent_size = agent_size
        self.connectivity = connectivity
        self.diagonal = diagonal
        self.algorithm = algorithm
        self.cell_cost = cell_cost
        self.blocked = blocked
        self.heuristic_weight = heuristic_weight
        self.iteration_budget = iteration_budget
        self.record_expansions = record_expansions


def validate_options(options):
    """[GS.OPT.VALID] agent size first, then the weight."""
    if not (1 <= options.agent_size <= 255):
        raise GridSearchError("invalid_options", field="agent_size", value=options.agent_size)
    w = float(options.heuristic_weight)
    if not (math.isfinite(w) and w >= 1.0):
        raise GridSearchError("invalid_options", field="heuristic_weight", value=w)


class GridPath(object):
    """[GS.TIER1] The debug table's GridPath fields."""

    def __init__(self, algorithm, status, cost, cells, points, expanded, expanded_count, iterations):
        self.algorithm = algorithm
        self.status = status
        self.cost = cost
        self.cells = cells
        self.points = points
        self.expanded = expanded
        self.expanded_count = expanded_count
        self.iterations = iterations


def grid_is_uniform(grid):
    """[GS.COST.UNIFORM]"""
    return all(grid.area_multiplier(a) == 1.0 for a in range(255))


def jump_applies(grid, options):
    """[GS.JUMP.APPLIES]"""
    return (grid_is_uniform(grid) and options.cell_cost is None and float(options.heuristic_weight) == 1.0
            and options.connectivity == CONN_EIGHT and options.diagonal == DIAG_NONE_BLOCKED)


# ------------------------------------------------------------------ tier-2 search objects

class _Wrapper(object):
    """The sliced surface shared by AStar, JumpSearch, ThetaSearch and GridSearch (each sets
    ``_engine`` to None in ``__init__``, after its option checks)."""

    def step(self, budget):
        return self._engine.step(budget) if self._engine else SearchStatus.NotStarted

    def run(self, cancel=None):
        return self._engine.run(cancel) if self._engine else SearchStatus.NotStarted

    def status(self):
        return self._engine.status() if self._engine else SearchStatus.NotStarted

    def path(self):
        return self._engine.path() if self._engine else []

    def path_cost(self):
        return self._engine.path_cost() if self._engine else INF

    def iterations(self):
        return self._engine.iterations() if self._engine else 0

    def expanded_count(self):
        return self._engine.expanded_count() if self._engine else 0

    def expansions(self):
        return self._engine.expansions() if self._engine else []


class AStar(_Wrapper):
    """[GS.ASTAR.GRAPH] [GS.ASTAR.ALGORITHMS] kind 8."""

    def __init__(self, grid, options):
        validate_options(options)
        if options.algorithm in (ALG_THETA, ALG_LAZY_THETA):
            raise GridSearchError("unsupported_algorithm", algorithm=options.algorithm)
        self._grid, self._opt = grid, options
        self._engine = None

    def begin(self, start, goal):
        e = eng.GenericAStar(GridContext(self._grid, self._opt), self._opt.algorithm, self._opt.record_expansions)
        e.begin(start, goal)
        self._engine = e

    def save_state(self):
        """[GS.STATE.SEARCHES] Kind-8 bytes."""
        if self._engine is None:
            return eng.save_kind8(eng.GenericAStar(GridContext(self._grid, self._opt), self._opt.algorithm, False))
        return eng.save_kind8(self._engine)

    def restore_state(self, data):
        """[GS.STATE.SEARCHES] [GS.STATE.FAILED] Kind 8; a failure leaves the search as newly created."""
        from . import grid_search_restore as rs
        self._engine = None
        st = rs.restore_generic(data, 8, self._grid.width() * self._grid.height(), float(self._opt.heuristic_weight))
        e = eng.GenericAStar(GridContext(self._grid, self._opt), self._opt.algorithm, self._opt.record_expansions)
        rs.install_generic(e, st)
        self._engine = e


class JumpSearch(_Wrapper):
    """[GS.JPSG.RULES] kind 9."""

    def __init__(self, grid, options):
        validate_options(options)
        if options.algorithm not in (ALG_JPS, ALG_JPSPLUS) or not jump_applies(grid, options):
            raise GridSearchError("unsupported_algorithm", algorithm=options.algorithm)
        self._grid, self._opt = grid, options
        self._engine = None

    def begin(self, start, goal):
        e = eng.GenericJump(GridContext(self._grid, self._opt), self._opt.algorithm, self._opt.record_expansions)
        e.begin(start, goal)
        self._engine = e

    def save_state(self):
        """[GS.STATE.SEARCHES] Kind-9 bytes (weight 1.0, start -1)."""
        e = self._engine or eng.GenericJump(GridContext(self._grid, self._opt), self._opt.algorithm, False)
        return eng.save_kind9(e)

    def restore_state(self, data):
        """[GS.STATE.SEARCHES] [GS.STATE.FAILED] Kind 9 (weight 1.0, start -1)."""
        from . import grid_search_restore as rs
        self._engine = None
        st = rs.restore_generic(data, 9, self._grid.width() * self._grid.height(), 1.0)
        e = eng.GenericJump(GridContext(self._grid, self._opt), self._opt.algorithm, self._opt.record_expansions)
        rs.install_generic(e, st)
        self._engine = e


class ThetaSearch(_Wrapper):
    """[GS.THETA.*] kind 10."""

    def __init__(self, grid, options):
        validate_options(options)
        if options.algorithm not in (ALG_THETA, ALG_LAZY_THETA):
            raise GridSearchError("unsupported_algorithm", algorithm=options.algorithm)
        self._grid, self._opt = grid, options
        self._engine = None

    def begin(self, start, goal):
        e = eng.ThetaEngine(GridContext(self._grid, self._opt), self._opt.algorithm, self._opt.record_expansions)
        e.begin(start, goal)
        self._engine = e

    def save_state(self):
        """[GS.STATE.SEARCHES] Kind-10 bytes (weight = the option, start -1)."""
        e = self._engine or eng.ThetaEngine(GridContext(self._grid, self._opt), self._opt.algorithm, False)
        return eng.save_kind10(e)

    def restore_state(self, data):
        """[GS.STATE.SEARCHES] [GS.STATE.FAILED] Kind 10 (weight = the option, start -1)."""
        from . import grid_search_restore as rs
        self._engine = None
        st = rs.restore_generic(data, 10, self._grid.width() * self._grid.height(),
                                float(self._opt.heuristic_weight))
        e = eng.ThetaEngine(GridContext(self._grid, self._opt), self._opt.algorithm, self._opt.record_expansions)
        rs.install_generic(e, st)
        self._engine = e


class GridSearch(_Wrapper):
    """[GS.HANDLE.SELECT] [GS.HANDLE.API] kind 12."""

    def __init__(self, grid, options):
        validate_options(options)
        if options.algorithm in (ALG_THETA, ALG_LAZY_THETA):
            raise GridSearchError("unsupported_algorithm", algorithm=options.algorithm)
        self._grid, self._opt = grid, options
        self._engine = None
        self._mode = 0
        self._finder = 0

    def select(self):
        """[GS.HANDLE.SELECT] (mode, finder, algorithm that runs)."""
        g, o = self._grid, self._opt
        alg = o.algorithm
        hooks = o.cell_cost is not None or o.blocked is not None
        if alg in (ALG_ASTAR, ALG_DIJKSTRA):
            if grid_is_uniform(g) and not hooks and float(o.heuristic_weight) == 1.0:
                return 1, 0, alg
            return 2, 0, alg
        if not jump_applies(g, o):
            return 2, 0, ALG_ASTAR
        if o.blocked is None and o.agent_size == 1:
            return 3, (1 if alg == ALG_JPSPLUS else 0), alg
        return 2, 0, alg

    def engine(self):
        return self._mode, self._finder

    def algorithm(self):
        if self._engine is not None:
            return self._engine.algorithm
        return self.select()[2]

    def save_state(self):
        """[GS.STATE.HEADER12] [GS.STATE.MODE1] [GS.STATE.MODE2] [GS.STATE.MODE3] Kind-12 bytes."""
        import struct
        g = self._grid
        head = eng.state_header(12) + struct.pack("<Bii", self._mode, g.width(), g.height())
        e = self._engine
        if self._mode == 0 or e is None:
            return eng.state_header(12) + struct.pack("<Bii", 0, g.width(), g.height())
        if self._mode == 1:
            return head + eng.save_mode1(e)
        if self._mode == 3:
            return head + eng.save_mode3(e)
        emb = eng.save_kind9(e) if isinstance(e, eng.GenericJump) else eng.save_kind8(e)
        w = g.width()
        return head + struct.pack("<iiiii", e._start % w, e._start // w, e._goal % w, e._goal // w,
                                  len(emb)) + emb

    def restore_state(self, data):
        """[GS.STATE.HEADER12] [GS.STATE.MODE1] [GS.STATE.MODE2] [GS.STATE.MODE3] [GS.STATE.FAILED]
        Kind 12; a failure leaves the handle in mode 0 as newly created."""
        from . import grid_search_restore as rs
        self._engine, self._mode, self._finder = None, 0, 0
        mode, st, extra = rs.parse_kind12(data, self)
        if mode == 0:
            return
        rec = self._opt.record_expansions
        if mode == 1:
            ctx, alg = extra
            e = eng.SpecialisedAStar(ctx, alg, rec)
            rs.install_pairs(e, st, 1)
        elif mode == 3:
            ctx, alg = extra
            e = eng.SpecialisedJump(ctx, alg, rec)
            rs.install_pairs(e, st, 3)
            self._finder = st.finder
        else:
            ctx, alg, kind, s_cell, _g_cell = extra
            e = eng.GenericJump(ctx, alg, rec) if kind == 9 else eng.GenericAStar(ctx, alg, rec)
            rs.install_generic(e, st)
            if kind == 9:
                e._start = s_cell   # [GS.STATE.MODE2] an embedded JumpSearch takes its start from the header
        self._engine, self._mode = e, mode

    def begin(self, start, goal):
        mode, finder, alg = self.select()
        ctx = GridContext(self._grid, self._opt)
        rec = self._opt.record_expansions
        if mode == 1:
            e = eng.SpecialisedAStar(ctx, alg, rec)
        elif mode == 3:
            e = eng.SpecialisedJump(ctx, alg, rec)
        elif alg in (ALG_JPS, ALG_JPSPLUS):
            e = eng.GenericJump(ctx, alg, rec)
        else:
            e = eng.GenericAStar(ctx, alg, rec)
        e.begin(start, goal)
        self._engine, self._mode, self._finder = e, mode, finder


def find_grid_path(grid, start, goal, options):
    """[GS.TIER1]"""
    if options.algorithm in (ALG_THETA, ALG_LAZY_THETA):
        s = ThetaSearch(grid, options)
    else:
        s = GridSearch(grid, options)
    s.begin(start, goal)
    if options.iteration_budget:
        st = s.step(options.iteration_budget)
    else:
        st = s.run(None)
    if st == SearchStatus.Found:
        status = PathStatus.Found
    elif st == SearchStatus.NotFound:
        status = PathStatus.NotFound
    else:
        status = PathStatus.BudgetExhausted
    cells = s.path() if st == SearchStatus.Found else []
    cost = s.path_cost() if st == SearchStatus.Found else INF
    return GridPath(s.algorithm() if isinstance(s, GridSearch) else options.algorithm, status, cost,
                    cells, [grid.center(c) for c in cells], s.expansions(), s.expanded_count(),
                    s.iterations())
