"""Grid-search requests as data ([CONF.IMPL.GRID], [CONF.GRID.REQUEST], [CONF.GRID.REPLY]).

``run_grid(args)`` answers one ``run_grid`` request of driver protocol 2 ([DRIVER.OP.RUN_GRID]):
build the map ([CONF.GRID.MAP], the vector form of [CONF.GRID.VECTOR]), make the options
([CONF.GRID.HOOKS] for the hooks), run the API with the step schedule and the optional
snapshot point, and return the reply payload: ``{"failure": class}`` or the reply fields with
reals as bit patterns and bytes as hex ([DRIVER.ENC.REAL]).  The same functions serve
``check_grid_vectors.py``.
"""

import struct

from . import grid_search as gs
from .options import PathStatus

RUNNING = 1


def f64_bits(v):
    return struct.unpack("<Q", struct.pack("<d", float(v)))[0]


def real(v):
    """[DRIVER.ENC.REAL] float -> 16 lowercase hex digits of its bits."""
    return "%016x" % f64_bits(v)


def build_grid(m):
    """[CONF.GRID.MAP] new, multipliers in order, space, set_cell for every non-zero cell."""
    w, h = m["width"], m["height"]
    g = gs.Grid(w, h)
    for area, mult in m["multipliers"]:
        g.set_area_multiplier(area, mult)
    if m["space"] is not None:
        ox, oy, s = m["space"]
        g.set_space(gs.GridSpace(ox, oy, s))
    cells = bytes.fromhex(m["cells"])
    assert len(cells) == w * h, "map.cells holds %d cells for %dx%d" % (len(cells), w, h)
    for i, c in enumerate(cells):
        if c != 0:
            g.set_cell(i % w, i // w, c)
    return g


def make_cell_cost(spec):
    """[CONF.GRID.HOOKS] {"extra_where": {modulus, extra}} or {"invalid_where": {modulus}}."""
    if spec is None:
        return None
    (name, p), = spec.items()
    if name == "extra_where":
        mod, extra = max(p["modulus"], 1), float(p["extra"])
        return lambda a, b: extra if (a + 3 * b) % mod == 0 else 0.0
    assert name == "invalid_where", "unknown cell_cost rule %r" % (name,)
    mod = max(p["modulus"], 1)
    bad = [float("nan"), -1.0, float("inf")]
    return lambda a, b: bad[(a + b) % 3] if (a + 3 * b) % mod == 0 else 0.5


def make_blocked(spec):
    """[CONF.GRID.HOOKS] {modulus, residue}: blocked when cell % modulus == residue."""
    if spec is None:
        return None
    mod, res = max(spec["modulus"], 1), spec["residue"]
    return lambda c: c % mod == res


def make_options(o):
    return gs.GridOptions(agent_size=o["agent_size"], connectivity=o["connectivity"],
                          diagonal=o["diagonal"], algorithm=o["algorithm"],
                          cell_cost=make_cell_cost(o["cell_cost"]), blocked=make_blocked(o["blocked"]),
                          heuristic_weight=o["weight"], iteration_budget=o["budget"],
                          record_expansions=o["record"])


ENGINES = {"astar": gs.AStar, "jump": gs.JumpSearch, "theta": gs.ThetaSearch, "handle": gs.GridSearch}


def _info(api, s, o):
    """(mode, finder, algorithm): the handle's engine and algorithm; 0, 0 and the request's
    algorithm for the engines themselves ([CONF.GRID.REPLY])."""
    if api == "handle":
        mode, finder = s.engine()
        return mode, finder, s.algorithm()
    return 0, 0, o["algorithm"]


def _observe(api, s, st, o, snapshot=b"", resaved=b""):
    mode, finder, algorithm = _info(api, s, o)
    return {"status": int(st), "mode": mode, "finder": finder, "algorithm": algorithm,
            "cost_bits": real(s.path_cost()), "path": list(s.path()), "points": [],
            "expansions": list(s.expansions()), "iterations": s.iterations(),
            "expanded": s.expanded_count(), "state": s.save_state().hex(),
            "snapshot": snapshot.hex(), "resaved": resaved.hex()}


def _tier1(grid, start, goal, opts):
    p = gs.find_grid_path(grid, start, goal, opts)
    status = {PathStatus.Found: 2, PathStatus.NotFound: 3, PathStatus.BudgetExhausted: 4}[p.status]
    return {"status": status, "mode": 0, "finder": 0, "algorithm": p.algorithm,
            "cost_bits": real(p.cost), "path": list(p.cells),
            "points": [[real(x), real(y)] for x, y in p.points],
            "expansions": list(p.expanded), "iterations": p.iterations,
            "expanded": p.expanded_count, "state": "", "snapshot": "", "resaved": ""}


def _tier2(grid, api, start, goal, opts, o, schedule, snapshot_after):
    """[CONF.GRID.REQUEST] begin; step(schedule[i % len]) until not Running (run(None) when the
    schedule is empty); with a snapshot point k, after the k-th call (still Running) save the
    search and the grid, Grid.from_state, a new search, restore, re-save, continue there."""
    cls = ENGINES[api]
    s = cls(grid, opts)
    s.begin(start, goal)
    calls = 0
    st = s.status()
    while st == RUNNING and schedule:
        st = s.step(schedule[calls % len(schedule)])
        calls += 1
        if snapshot_after == calls and st == RUNNING:
            break
    if snapshot_after is not None and st == RUNNING and schedule:
        snapshot = s.save_state()
        try:
            grid2 = gs.Grid.from_state(grid.save_state())
        except gs.OnePathError as e:
            return {"failure": "harness-grid: from_state: %s" % e.error_class}
        s2 = cls(grid2, opts)
        try:
            s2.restore_state(snapshot)
        except gs.OnePathError as e:
            return {"failure": "restore: %s@%d" % (e.error_class, e.offset)}
        resaved = s2.save_state()
        st2 = s2.status()
        while st2 == RUNNING:
            st2 = s2.step(schedule[calls % len(schedule)])
            calls += 1
        return _observe(api, s2, st2, o, snapshot, resaved)
    if st == RUNNING:
        st = s.run(None)
    return _observe(api, s, st, o)


def run_grid(a):
    """[DRIVER.OP.RUN_GRID] One request; the reply payload.

    [CONF.GRID.MAP] A map that ``Grid.__init__`` ([GRID.SQUARE.SIZE]), ``set_area_multiplier``
    ([GRID.AREA.SET]) or ``set_space`` ([GRID.SPACE.RANGE]) rejects is that error's class, as an
    error of ``new`` or ``begin`` is (a rejected size comes with no cells)."""
    try:
        grid = build_grid(a["map"])
    except gs.GridError as e:
        return {"failure": e.error_class}
    o = a["options"]
    start, goal = tuple(a["start"]), tuple(a["goal"])
    try:
        opts = make_options(o)
        if a["api"] == "tier1":
            return _tier1(grid, start, goal, opts)
        assert a["api"] in ENGINES, "unknown api %r" % (a["api"],)
        return _tier2(grid, a["api"], start, goal, opts, o, list(a["schedule"]), a["snapshot_after"])
    except gs.GridSearchError as e:
        return {"failure": e.error_class}
