"""Hex and voxel search requests as data ([CONF.IMPL.LATTICE], [CONF.LATTICE.REQUEST],
[CONF.LATTICE.QUERY], [CONF.LATTICE.REPLY], [CONF.LATTICE.CANCEL]).

``run_lattice(args)`` answers one ``run_lattice`` request of driver protocol 2
([DRIVER.OP.RUN_LATTICE]): build the request's hex or voxel grid, run its queries on it one after
another (an empty schedule: tier 1; otherwise ``new``, ``begin`` and ``step`` per budget while
Running, at most 2^20 calls; a query with ``cancel``: ``step(k)``, two cancelled ``run`` calls
and a resumed one) and return ``{"failed": class}`` or ``{"ran": [QR, ...]}`` with one
reply per query, every member present, reals as the 16 hex digits of their bit pattern
([DRIVER.ENC.REAL]).  The same functions serve ``check_lattice_vectors.py``.

A request the kit never sends (a layout outside 0-3, another connectivity, a diagonal above 2, an
algorithm code outside [GS.OPT.ALGORITHM], ``cells`` of another length, ends of the other shape,
unknown or missing members) fails an ``assert``: a precondition on the kit's requests, not a
behaviour of the port, so it is an assertion (never mutated, [CONF.PMUT.OPERATORS]) and the
driver answers it as ``error`` ([CONF.LATTICE.REQUEST]).
"""

import threading

from .grid_search import GridError, GridSearchError, GridSpace, GridOptions
from .grid_requests import make_blocked, make_cell_cost, real
from .hex_grid import HexGrid
from .hex_search import HexSearch, find_hex_path
from .options import PathStatus
from .voxel_grid import VoxelGrid, VoxelSpace
from .voxel_search import VoxelOptions, VoxelSearch, find_voxel_path

RUNNING = 1
STEP_CAP = 1 << 20   # [CONF.LATTICE.QUERY] at most 2^20 step calls

HEX_MEMBERS = ["layout", "map", "options", "queries"]
VOXEL_MEMBERS = ["size", "cells", "multipliers", "space", "options", "queries"]
MAP_MEMBERS = ["width", "height", "cells", "multipliers", "space"]
GRID_OPTION_MEMBERS = ["agent_size", "connectivity", "diagonal", "algorithm", "cell_cost",
                       "blocked", "weight", "record", "budget"]
VOXEL_OPTION_MEMBERS = ["connectivity", "diagonal", "algorithm", "cell_cost", "blocked", "weight",
                        "record", "budget"]
QUERY_MEMBERS = ["start", "goal", "schedule"]
CANCEL_MEMBER = "cancel"   # [CONF.LATTICE.CANCEL] optional: present only in a cancel query
TIER1_STATUS = {PathStatus.Found: 2, PathStatus.NotFound: 3, PathStatus.BudgetExhausted: 4}


def _members(obj, names, what):
    """Strict reading: exactly these members ([DRIVER.MSG.STRICT] in spirit)."""
    assert isinstance(obj, dict) and sorted(obj) == sorted(names), (what, obj, names)


def _int(v, what, lo=0, hi=None):
    ok = not isinstance(v, bool) and isinstance(v, int) and v >= lo and (hi is None or v <= hi)
    assert ok, "%s: %r is not an integer in range" % (what, v)
    return v


def _num(v, what):
    assert not isinstance(v, bool) and isinstance(v, (int, float)), "%s: %r is not a number" % (what, v)
    return float(v)


def _cells(hexstr, n, what):
    """[CONF.VEC.MAPS] n cells, or none for a size ``new`` rejects (more than 2^26 cells)."""
    cells = bytes.fromhex(hexstr)
    assert len(cells) == n or (not cells and n > 1 << 26), "%s holds %d cells, expected %d" % (what, len(cells), n)
    return cells


def _multipliers(pairs, what):
    out = []
    for p in pairs:
        assert isinstance(p, list) and len(p) == 2, "%s: %r is not an [area, m] pair" % (what, p)
        out.append((_int(p[0], what + " area"), _num(p[1], what + " multiplier")))
    return out


def _common_options(o, what):
    """The members a hex and a voxel options object share: algorithm (a [GS.OPT.ALGORITHM]
    value), diagonal 0-2, the hooks of [CONF.GRID.HOOKS], weight, record, budget."""
    alg = _int(o["algorithm"], what + ".algorithm", 0, 5)
    diag = _int(o["diagonal"], what + ".diagonal", 0, 2)
    assert isinstance(o["record"], bool), "%s.record: %r is not a bool" % (what, o["record"])
    return dict(algorithm=alg, diagonal=diag, cell_cost=make_cell_cost(o["cell_cost"]),
                blocked=make_blocked(o["blocked"]), heuristic_weight=_num(o["weight"], what + ".weight"),
                iteration_budget=_int(o["budget"], what + ".budget"), record_expansions=o["record"])


def hex_options(o):
    """[CONF.LATTICE.REQUEST] ``O``: the options object of [CONF.IMPL.GRID] as ``GridOptions``
    (connectivity 4 or 8, ignored by a hex search, [HEX.OPT.FIELDS])."""
    _members(o, GRID_OPTION_MEMBERS, "hex.options")
    conn = o["connectivity"]
    assert conn in (4, 8) and not isinstance(conn, bool), "hex.options.connectivity: %r" % (conn,)
    kw = _common_options(o, "hex.options")
    # agent_size: any integer travels; [HEX.OPT.VALID] judges it (0 and 256 are invalid_options)
    agent = o["agent_size"]
    assert not isinstance(agent, bool) and isinstance(agent, int), "hex.options.agent_size: %r" % (agent,)
    return GridOptions(agent_size=agent, connectivity=conn, **kw)


def voxel_options(o):
    """[CONF.LATTICE.REQUEST] ``V``: ``VoxelOptions`` as data (connectivity 6, 18 or 26)."""
    _members(o, VOXEL_OPTION_MEMBERS, "voxel.options")
    conn = o["connectivity"]
    assert conn in (6, 18, 26) and not isinstance(conn, bool), "voxel.options.connectivity: %r" % (conn,)
    return VoxelOptions(connectivity=conn, **_common_options(o, "voxel.options"))


def build_hex(r):
    """[CONF.LATTICE.REQUEST] ``HexGrid::new(width, height, layout)``, ``set_area_multiplier``
    per pair in order, ``set_space`` when not null, ``set_cell`` for every non-zero cell in
    index order.  Grid errors propagate (``GridError``)."""
    m = r["map"]
    _members(m, MAP_MEMBERS, "hex.map")
    layout = _int(r["layout"], "hex.layout", 0, 3)
    w, h = _int(m["width"], "hex.map.width"), _int(m["height"], "hex.map.height")
    mults = _multipliers(m["multipliers"], "hex.map.multipliers")
    space = m["space"]
    assert space is None or (isinstance(space, list) and len(space) == 3), "hex.map.space: %r" % (space,)
    cells = _cells(m["cells"], w * h, "hex.map.cells")
    g = HexGrid(w, h, layout)
    for area, mult in mults:
        g.set_area_multiplier(area, mult)
    if space is not None:
        g.set_space(GridSpace(*[_num(v, "hex.map.space") for v in space]))
    for i, c in enumerate(cells):
        if c != 0:
            g.set_cell(i % w, i // w, c)
    return g


def build_voxel(r):
    """[CONF.LATTICE.REQUEST] ``VoxelGrid::new(sx, sy, sz, 0)``, the multipliers in order,
    ``set_space`` when not null, ``set_voxel(x, y, z, area)`` for every non-zero voxel in index
    order ``x + sx * (y + sy * z)``."""
    size = r["size"]
    assert isinstance(size, list) and len(size) == 3, "voxel.size: %r" % (size,)
    sx, sy, sz = [_int(v, "voxel.size") for v in size]
    mults = _multipliers(r["multipliers"], "voxel.multipliers")
    space = r["space"]
    assert space is None or (isinstance(space, list) and len(space) == 4), "voxel.space: %r" % (space,)
    cells = _cells(r["cells"], sx * sy * sz, "voxel.cells")
    g = VoxelGrid(sx, sy, sz, 0)
    for area, mult in mults:
        g.set_area_multiplier(area, mult)
    if space is not None:
        g.set_space(VoxelSpace(*[_num(v, "voxel.space") for v in space]))
    for i, c in enumerate(cells):
        if c != 0:
            x = i % sx
            y = (i // sx) % sy
            z = i // (sx * sy)
            g.set_voxel(x, y, z, c)
    return g


def _end(v, dims, what):
    assert isinstance(v, list) and len(v) == dims, "%s: %r is not an end of %d coordinates" % (what, v, dims)
    return tuple(_int(c, what, lo=-(1 << 63)) for c in v)


def _queries(qs, dims):
    assert isinstance(qs, list), "queries: not a list"
    out = []
    for i, q in enumerate(qs):
        cancels = isinstance(q, dict) and CANCEL_MEMBER in q
        _members(q, QUERY_MEMBERS + ([CANCEL_MEMBER] if cancels else []), "query %d" % i)
        sched = q["schedule"]
        assert isinstance(sched, list), "query %d: schedule %r" % (i, sched)
        cancel = _int(q[CANCEL_MEMBER], "query %d cancel" % i) if cancels else None
        assert cancel is None or not sched, "query %d: a cancel query has an empty schedule" % i
        out.append((_end(q["start"], dims, "query %d start" % i),
                    _end(q["goal"], dims, "query %d goal" % i),
                    [_int(b, "query %d schedule" % i) for b in sched], cancel))
    return out


def cancel_trace(s, k):
    """[CONF.LATTICE.CANCEL] After ``begin``: ``step(k)`` when ``k > 0``, ``run`` twice with the
    flag set, ``run`` with it cleared; the trace: ``[status(), iterations()]`` after the step,
    then the status each cancelled ``run`` returned and ``iterations()``."""
    if k > 0:
        s.step(k)
    flag = threading.Event()
    flag.set()
    trace = [[int(s.status()), s.iterations()]]
    for _ in range(2):
        returned = s.run(flag)
        trace.append([int(returned), s.iterations()])
    flag.clear()
    s.run(flag)
    return trace


def _path_reply(status, algorithm, cost, cells, points, expanded, expanded_count, iterations):
    """[CONF.LATTICE.REPLY] ``{"path": {...}}`` with every member, reals as bit patterns."""
    return {"path": {"status": status, "algorithm": algorithm, "cost": real(cost),
                     "cells": list(cells), "points": [[real(c) for c in p] for p in points],
                     "expanded": list(expanded), "expanded_count": expanded_count,
                     "iterations": iterations}}


def run_query(grid, options, start, goal, schedule, search_cls, tier1, cancel=None):
    """[CONF.LATTICE.QUERY] One query: tier 1 for an empty schedule, else the sliced form
    (``new``, ``begin``, ``step(schedule[i mod len])`` while Running, at most 2^20 calls, or the
    cancel sequence of [CONF.LATTICE.CANCEL] with its trace), read as [CONF.LATTICE.REPLY] says;
    ``{"error": class}`` when ``new``, ``begin`` or tier 1 failed."""
    try:
        if not schedule and cancel is None:
            p = tier1(grid, start, goal, options)
            return _path_reply(TIER1_STATUS[p.status], p.algorithm, p.cost, p.cells, p.points,
                               p.expanded, p.expanded_count, p.iterations)
        s = search_cls(grid, options)
        s.begin(start, goal)
    except GridSearchError as e:
        return {"error": e.error_class}
    trace = None
    if cancel is not None:
        trace = cancel_trace(s, cancel)
    else:
        st = s.status()
        calls = 0
        n = len(schedule)
        while st == RUNNING and calls < STEP_CAP:
            st = s.step(schedule[calls % n])
            calls += 1
    reply = _path_reply(int(s.status()), options.algorithm, s.path_cost(), s.path(), [],
                        s.expansions(), s.expanded_count(), s.iterations())
    if trace is not None:
        reply["path"]["cancel"] = trace
    return reply


def run_lattice(a):
    """[DRIVER.OP.RUN_LATTICE] [CONF.IMPL.LATTICE] One request; the reply payload."""
    assert isinstance(a, dict) and len(a) == 1, "a lattice request is {\"hex\": ...} or {\"voxel\": ...}"
    (shape, r), = a.items()
    if shape == "hex":
        _members(r, HEX_MEMBERS, "hex")
        options = hex_options(r["options"])
        queries = _queries(r["queries"], 2)
        build, cls, tier1 = build_hex, HexSearch, find_hex_path
    else:
        assert shape == "voxel", "unknown lattice shape %r" % (shape,)
        _members(r, VOXEL_MEMBERS, "voxel")
        options = voxel_options(r["options"])
        queries = _queries(r["queries"], 3)
        build, cls, tier1 = build_voxel, VoxelSearch, find_voxel_path
    try:
        grid = build(r)
    except GridError as e:
        return {"failed": e.error_class}
    return {"ran": [run_query(grid, options, s, g, sched, cls, tier1, cancel)
                    for s, g, sched, cancel in queries]}
