"""Bidirectional grid search requests as data ([CONF.IMPL.BIDI], [CONF.BIDI.REQUEST],
[CONF.BIDI.QUERY], [CONF.BIDI.REPLY]).

``run_bidi(args)`` answers one ``run_bidi`` request of driver protocol 2 ([DRIVER.OP.RUN_BIDI]):
build the request's square grid ([CONF.GRID.MAP]), run its queries on it one after another (an
empty schedule: tier 1 ``find_grid_path_bidirectional``; otherwise ``GridBidiSearch.new``,
``begin`` and ``step(schedule[i mod len])`` while Running, at most 2^20 calls; a query with
``cancel``: the call sequence of [CONF.LATTICE.CANCEL]) and return
``{"failed": class}`` or ``{"ran": {"queries": [QR, ...], "meetings": [cell | None, ...]}}``,
every member present, reals as the 16 hex digits of their bit pattern ([DRIVER.ENC.REAL]).  The
query replies are the lattice replies of [CONF.LATTICE.REPLY] (the reading helpers of
``lattice_requests`` are reused).  The same functions serve ``check_bidi_vectors.py``.

A request the kit never sends (another connectivity, a diagonal above 2, an algorithm code
outside [GS.OPT.ALGORITHM], ``cells`` of another length, ends of another length, unknown or
missing members) raises ``ValueError``: a harness error, which the driver answers as ``error``
([CONF.BIDI.REQUEST]).
"""

from .grid_bidi import GridBidiSearch, find_grid_path_bidirectional
from .grid_search import Grid, GridError, GridSearchError, GridSpace
from . import lattice_requests as L

REQUEST_MEMBERS = ["map", "options", "queries"]


def build_square(m):
    """[CONF.BIDI.REQUEST] [CONF.GRID.MAP] ``Grid::new(width, height)``, the multipliers in
    order, ``set_space`` when not null, then ``set_cell`` for every non-zero cell in index
    order.  Grid errors propagate (``GridError``: ``invalid_size`` for a side of 0, and the
    setters' classes)."""
    L._members(m, L.MAP_MEMBERS, "map")
    w, h = L._int(m["width"], "map.width"), L._int(m["height"], "map.height")
    mults = L._multipliers(m["multipliers"], "map.multipliers")
    space = m["space"]
    assert space is None or (isinstance(space, list) and len(space) == 3), "map.space: %r" % (space,)
    cells = L._cells(m["cells"], w * h, "map.cells")
    g = Grid(w, h)
    for area, mult in mults:
        g.set_area_multiplier(area, mult)
    if space is not None:
        g.set_space(GridSpace(*[L._num(v, "map.space") for v in space]))
    for i, c in enumerate(cells):
        if c != 0:
            g.set_cell(i % w, i // w, c)
    return g


def square_options(o):
    """[CONF.BIDI.REQUEST] ``O``: the options object of [CONF.IMPL.GRID] as ``GridOptions``
    (connectivity 4 or 8, diagonal 0-2, an algorithm code 0-5, the hooks of [CONF.GRID.HOOKS];
    any integer agent size travels and [GBIDI.OPT.VALID] judges it).  The reading is the hex
    requests' one (the same options object)."""
    return L.hex_options(o)


def run_query(grid, options, start, goal, schedule, cancel=None):
    """[CONF.BIDI.QUERY] [CONF.BIDI.REPLY] One query: ``(reply, meeting)``.  An empty schedule
    runs tier 1 (meeting ``None``); otherwise ``new``, ``begin``, ``step(schedule[i mod len])``
    while Running (at most 2^20 calls) and the sliced fields read after the last step:
    ``status()``, the options' algorithm, ``path_cost()``, ``path()``, no points,
    ``expansions()``, ``expanded_count()``, ``iterations()``, and ``meeting_cell()``.  A failed
    ``new``, ``begin`` or tier 1 is ``{"error": class}`` with meeting ``None``.  A cancel query
    runs ``step(k)`` and the cancelled runs of [CONF.LATTICE.CANCEL] instead of the schedule."""
    try:
        if not schedule and cancel is None:
            p = find_grid_path_bidirectional(grid, start, goal, options)
            return L._path_reply(L.TIER1_STATUS[p.status], p.algorithm, p.cost, p.cells,
                                 p.points, p.expanded, p.expanded_count, p.iterations), None
        s = GridBidiSearch(grid, options)
        s.begin(start, goal)
    except GridSearchError as e:
        return {"error": e.error_class}, None
    trace = None
    if cancel is not None:
        trace = L.cancel_trace(s, cancel)
    else:
        st = s.status()
        calls = 0
        n = len(schedule)
        while st == L.RUNNING and calls < L.STEP_CAP:
            st = s.step(schedule[calls % n])
            calls += 1
    reply = L._path_reply(int(s.status()), options.algorithm, s.path_cost(), s.path(), [],
                          s.expansions(), s.expanded_count(), s.iterations())
    if trace is not None:
        reply["path"]["cancel"] = trace
    return reply, s.meeting_cell()


def run_bidi(a):
    """[DRIVER.OP.RUN_BIDI] [CONF.IMPL.BIDI] One request ``{"map", "options", "queries"}``; the
    reply payload ``{"failed": class}`` when building the grid failed, else ``{"ran":
    {"queries": [...], "meetings": [...]}}`` with one entry of each per query."""
    L._members(a, REQUEST_MEMBERS, "bidi request")
    options = square_options(a["options"])
    queries = L._queries(a["queries"], 2)
    try:
        grid = build_square(a["map"])
    except GridError as e:
        return {"failed": e.error_class}
    replies, meetings = [], []
    for s, g, sched, cancel in queries:
        r, m = run_query(grid, options, s, g, sched, cancel)
        replies.append(r)
        meetings.append(m)
    return {"ran": {"queries": replies, "meetings": meetings}}
