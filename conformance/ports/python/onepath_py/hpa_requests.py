"""HPA* requests as data ([CONF.IMPL.HPA], [CONF.HPA.REQUEST], [CONF.HPA.QUERY],
[CONF.HPA.REPLY]).

``run_hpa(args)`` answers one ``run_hpa`` request of driver protocol 2 ([DRIVER.OP.RUN_HPA]):
build the request's square grid, make one hierarchy with ``HpaHierarchy(options)``, run the
queries one after another (each after its edits; an empty schedule: tier 1 with its own
hierarchy; otherwise ``HpaSearch`` on the request's hierarchy, ``begin`` and ``step`` per budget
while Running, at most 2^20 calls; a query with ``cancel``: ``step(k)`` and two cancelled ``run``
calls, then a resumed one, [CONF.HPA.CANCEL]) and return ``{"failed": class}`` or
``{"ran": {"queries": [QR, ...], "hierarchy": HIER}}`` with every member present and reals as
the 16 hex digits of their bit pattern ([DRIVER.ENC.REAL]).  The same functions serve
``check_hpa_vectors.py``.

A request the kit never sends (a connectivity other than 4 or 8, a diagonal above 2, ``cells``
of another length, an edit outside the map, ends of another length, unknown or missing members)
fails an ``assert``: a precondition on the kit's requests (never mutated), which the driver
answers as ``error``.
"""


from .grid_requests import real
from .grid_search import Grid, GridError, GridSearchError, GridSpace
from .hpa import HpaEdgeKind, HpaHierarchy, HpaOptions
from .hpa_search import HpaSearch, find_hpa_path
from .lattice_requests import _cells, _int, _members, _multipliers, _num, cancel_trace
from .options import PathStatus

RUNNING = 1
STEP_CAP = 1 << 20   # [CONF.HPA.QUERY] at most 2^20 step calls, as [CONF.LATTICE.QUERY]

REQUEST_MEMBERS = ["map", "options", "queries"]
MAP_MEMBERS = ["width", "height", "cells", "multipliers", "space"]
OPTION_MEMBERS = ["chunk_size", "connectivity", "diagonal", "weight", "smooth", "record", "budget"]
QUERY_MEMBERS = ["edits", "start", "goal", "schedule"]
CANCEL_MEMBER = "cancel"   # [CONF.HPA.CANCEL] optional: present only in a cancel query
TIER1_STATUS = {PathStatus.Found: 2, PathStatus.NotFound: 3, PathStatus.BudgetExhausted: 4}


def hpa_options(o):
    """[CONF.HPA.REQUEST] ``H`` = ``HpaOptions`` as data ([HPA.OPT.FIELDS]); ``diagonal`` as in
    [CONF.IMPL.GRID] (0 Always, 1 AtMostOneBlocked, 2 NoneBlocked).  The chunk size and the
    weight travel as given: [HPA.OPT.VALID] judges them."""
    _members(o, OPTION_MEMBERS, "hpa.options")
    conn = o["connectivity"]
    assert conn in (4, 8) and not isinstance(conn, bool), "hpa.options.connectivity: %r" % (conn,)
    for name in ("smooth", "record"):
        assert isinstance(o[name], bool), "hpa.options.%s: %r is not a bool" % (name, o[name])
    return HpaOptions(chunk_size=_int(o["chunk_size"], "hpa.options.chunk_size"),
                      connectivity=conn,
                      diagonal=_int(o["diagonal"], "hpa.options.diagonal", 0, 2),
                      heuristic_weight=_num(o["weight"], "hpa.options.weight"),
                      smooth=o["smooth"],
                      iteration_budget=_int(o["budget"], "hpa.options.budget"),
                      record_expansions=o["record"])


def build_grid(m):
    """[CONF.HPA.REQUEST] [CONF.GRID.MAP] ``Grid::new(width, height)``, the multipliers in
    order, the space when not null, then ``set_cell`` for every non-zero cell in index order.
    Grid errors propagate (``GridError``)."""
    _members(m, MAP_MEMBERS, "hpa.map")
    w, h = _int(m["width"], "hpa.map.width"), _int(m["height"], "hpa.map.height")
    mults = _multipliers(m["multipliers"], "hpa.map.multipliers")
    space = m["space"]
    assert space is None or (isinstance(space, list) and len(space) == 3), \
        "hpa.map.space: %r" % (space,)
    cells = _cells(m["cells"], w * h, "hpa.map.cells")
    g = Grid(w, h)
    for area, mult in mults:
        g.set_area_multiplier(area, mult)
    if space is not None:
        g.set_space(GridSpace(*[_num(v, "hpa.map.space") for v in space]))
    for i, c in enumerate(cells):
        if c != 0:
            g.set_cell(i % w, i // w, c)
    return g


def _end(v, what):
    assert isinstance(v, list) and len(v) == 2, "%s: %r is not an [x, y] end" % (what, v)
    return (_int(v[0], what), _int(v[1], what))


def _queries(qs):
    assert isinstance(qs, list), "queries: not a list"
    out = []
    for i, q in enumerate(qs):
        cancels = isinstance(q, dict) and CANCEL_MEMBER in q
        _members(q, QUERY_MEMBERS + ([CANCEL_MEMBER] if cancels else []), "query %d" % i)
        edits = q["edits"]
        assert isinstance(edits, list), "query %d: edits %r" % (i, edits)
        ed = []
        for e in edits:
            assert isinstance(e, list) and len(e) == 3, \
                "query %d: edit %r is not [x, y, area]" % (i, e)
            ed.append((_int(e[0], "edit x"), _int(e[1], "edit y"), _int(e[2], "edit area", 0, 255)))
        sched = q["schedule"]
        assert isinstance(sched, list), "query %d: schedule %r" % (i, sched)
        cancel = _int(q[CANCEL_MEMBER], "query %d cancel" % i) if cancels else None
        assert cancel is None or not sched, "query %d: a cancel query has an empty schedule" % i
        out.append((ed, _end(q["start"], "query %d start" % i), _end(q["goal"], "query %d goal" % i),
                    [_int(b, "query %d schedule" % i) for b in sched], cancel))
    return out


def _path_reply(status, cost, cells, points, expanded, expanded_count, iterations, abstract, rebuilt):
    """[CONF.HPA.REPLY] ``{"path": {...}}`` with every member; algorithm 0 ([HPA.TIER1.ALGORITHM])."""
    return {"path": {"status": status, "algorithm": 0, "cost": real(cost), "cells": list(cells),
                     "points": [[real(c) for c in p] for p in points],
                     "expanded": list(expanded), "expanded_count": expanded_count,
                     "iterations": iterations, "abstract": list(abstract),
                     "rebuilt": list(rebuilt)}}


def _cancelled(s, hier, k):
    """[CONF.HPA.CANCEL] After ``begin``: ``step(k)`` when ``k > 0``, ``run`` twice with the flag
    set, ``run`` with it cleared; the sliced reply read after the last run, with ``cancel`` the
    ``[status(), iterations()]`` pair after the step and, after each cancelled run, the status it
    returned with ``iterations()``."""
    trace = cancel_trace(s, k)     # the call sequence of [CONF.LATTICE.CANCEL]
    reply = _path_reply(int(s.status()), s.path_cost(), s.path(), [], s.expansions(),
                        s.expanded_count(), s.iterations(), s.abstract_path(),
                        hier.rebuilt_chunks())
    reply["path"]["cancel"] = trace
    return reply


def run_query(grid, options, hier, hier_error, start, goal, schedule, cancel=None):
    """[CONF.HPA.QUERY] One query after its edits: tier 1 ``find_hpa_path`` for an empty
    schedule (``abstract`` and ``rebuilt`` empty); otherwise ``HpaSearch(grid, hierarchy)``,
    ``begin`` and ``step(schedule[i mod len])`` while Running, at most 2^20 calls, read after the
    last step ([CONF.HPA.REPLY]).  ``{"error": class}`` when ``new`` (every sliced query),
    ``begin`` or tier 1 failed."""
    try:
        if not schedule and cancel is None:
            p = find_hpa_path(grid, start, goal, options)
            return _path_reply(TIER1_STATUS[p.status], p.cost, p.cells, p.points, p.expanded,
                               p.expanded_count, p.iterations, [], [])
        if hier_error is not None:
            return {"error": hier_error}
        s = HpaSearch(grid, hier)
        s.begin(start, goal)
    except GridSearchError as e:
        return {"error": e.error_class}
    if cancel is not None:
        return _cancelled(s, hier, cancel)
    st = s.status()
    calls = 0
    n = len(schedule)
    while st == RUNNING and calls < STEP_CAP:
        st = s.step(schedule[calls % n])
        calls += 1
    return _path_reply(int(s.status()), s.path_cost(), s.path(), [], s.expansions(),
                       s.expanded_count(), s.iterations(), s.abstract_path(), hier.rebuilt_chunks())


def hierarchy_reply(hier):
    """[CONF.HPA.REPLY] ``HIER``: null when ``new`` failed, else ``built``, ``chunks``,
    ``nodes`` as ``[cell, chunk]`` and ``edges`` with their stored paths."""
    if hier is None:
        return None
    edges = []
    for e in hier.edges():
        edges.append({"from": e.from_, "to": e.to, "cost": real(e.cost),
                      "inter": e.kind == HpaEdgeKind.Inter, "path": hier.edge_path(e.from_, e.to)})
    return {"built": hier.is_built(), "chunks": list(hier.chunks()),
            "nodes": [[n.cell, n.chunk] for n in hier.nodes()], "edges": edges}


def run_hpa(a):
    """[DRIVER.OP.RUN_HPA] [CONF.IMPL.HPA] One request; the reply payload."""
    _members(a, REQUEST_MEMBERS, "hpa")
    options = hpa_options(a["options"])
    queries = _queries(a["queries"])
    try:
        grid = build_grid(a["map"])
    except GridError as e:
        return {"failed": e.error_class}
    hier, hier_error = None, None
    try:
        hier = HpaHierarchy(options)
    except GridSearchError as e:
        hier_error = e.error_class
    replies = []
    w, h = grid.width(), grid.height()
    for edits, start, goal, schedule, cancel in queries:
        for x, y, area in edits:
            assert x < w and y < h, "edit (%d, %d) outside the %dx%d map" % (x, y, w, h)
            grid.set_cell(x, y, area)
        replies.append(run_query(grid, options, hier, hier_error, start, goal, schedule, cancel))
    return {"ran": {"queries": replies, "hierarchy": hierarchy_reply(hier)}}
