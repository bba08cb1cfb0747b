"""Answer one state request of [CONF.IMPL.STATE] for every recipe kind of [CONF.STATE.RECIPE] and
[CONF.STATE.GRID_SEARCH]: ``grid``, ``hex_grid``, ``voxel_grid``, ``graph``, ``graph_astar``,
``grid_search``.

``run_state(request)`` takes ``{"request":"restore","recipe":R,"bytes":HEX|null,"finish":bool}`` or
``{"request":"from_state","kind":k,"bytes":HEX}`` (also ``replanner`` recipes, kinds 5 and 6,
[CONF.STATE.REPLANNER], and ``flow_field`` recipes, kind 7, [CONF.STATE.FLOW_FIELD]) and returns
``{"before","restore","after","cells","search"}`` (see [CONF.IMPL.STATE]).  Anything this port
implements every kind, so a request of another kind or shape is a kit bug: it fails an ``assert``
and the driver answers ``error`` (never a wrong answer).
"""

import struct

from . import errors
from .astar import DefaultGraphCost, GraphAStar, ZeroGraphHeuristic
from .graph import Graph
from . import grid_requests
from . import grid_search as gs
from .grid_state import GridStateError
from .hex_grid import HexGrid
from .voxel_grid import VoxelGrid, VoxelSpace


def bits_of(x):
    """[DRIVER.ENC.REAL] float -> 16 hex digits of its bit pattern."""
    return "%016x" % struct.unpack("<Q", struct.pack("<d", float(x)))[0]


# ------------------------------------------------------------------ recipes

def build_graph_recipe(r):
    """[CONF.STATE.RECIPE] Graph::new, add_node x added_nodes, add_edge, set_weight, remove_edge."""
    g = Graph(r["node_count"])
    for _ in range(r["added_nodes"]):
        g.add_node()
    for f, t, w in r["edges"]:
        g.add_edge(f, t, w)
    for i, w in r["reweights"]:
        g.set_weight(i, w)
    for i in r["removals"]:
        g.remove_edge(i)
    return g


class Mod5(object):
    """[CONF.STATE.RECIPE] ``mod5``: ((from * 7 + to) mod 5) as a double (inconsistent on purpose)."""

    def estimate(self, u, v):
        return float((u * 7 + v) % 5)


def build_grid_recipe(r):
    """[CONF.STATE.RECIPE] new, set_space (unless null), set_area_multiplier per pair, edits in order."""
    k = r["kind"]
    if k == "voxel_grid":
        g = VoxelGrid(r["size"][0], r["size"][1], r["size"][2], r["default_area"])
        if r["space"] is not None:
            g.set_space(VoxelSpace(*r["space"]))
    else:
        g = HexGrid(r["width"], r["height"], r["layout"]) if k == "hex_grid" else gs.Grid(r["width"], r["height"])
        if r["space"] is not None:
            g.set_space(gs.GridSpace(*r["space"]))
    for area, m in r["area_multipliers"]:
        g.set_area_multiplier(area, m)
    for e in r["edits"]:
        if k == "voxel_grid":
            g.set_voxel(e[0], e[1], e[2], e[3])
        else:
            g.set_cell(e[0], e[1], e[2])
    return g


# The options object and the engines are those of run_grid ([CONF.IMPL.GRID]).
make_options = grid_requests.make_options
SEARCH_TYPES = grid_requests.ENGINES


def build_search_recipe(r):
    """[CONF.STATE.RECIPE] graph_astar / [CONF.STATE.GRID_SEARCH] grid_search: new, begin, steps, run."""
    if r["kind"] == "graph_astar":
        g = build_graph_recipe(r["graph"])
        h = ZeroGraphHeuristic() if r["heuristic"] == "zero" else Mod5()
        s = GraphAStar(g.compile(), DefaultGraphCost(), h)
        s.set_record_expansions(r["record"])
        if r["start"] is not None and r["goal"] is not None:
            s.begin(r["start"], r["goal"])
    else:
        grid_r = dict(r, kind="grid")
        grid = build_grid_recipe(grid_r)
        s = SEARCH_TYPES[r["search"]](grid, make_options(r["options"]))
        if r["start"] is not None and r["goal"] is not None:
            s.begin(tuple(r["start"]), tuple(r["goal"]))
    for k in r["steps"]:
        s.step(k)
    if r["run"]:
        s.run(None)
    return s


def search_summary(s):
    """[CONF.IMPL.STATE] status, iterations, expanded, cost bits, path, recorded list."""
    return {"status": int(s.status()), "iterations": s.iterations(), "expanded": s.expanded_count(),
            "cost_bits": bits_of(s.path_cost()), "path": list(s.path()), "expansions": list(s.expansions())}


# ------------------------------------------------------------------ requests

STATE_ERRORS = (errors.GraphStateError, GridStateError)
FROM_STATE = {1: gs.Grid, 2: HexGrid, 3: VoxelGrid, 4: Graph}


def _restore(obj, data):
    if data is None:
        return None
    try:
        obj.restore_state(bytes.fromhex(data))
        return {"ok": True}
    except STATE_ERRORS as e:
        return {"class": e.error_class, "offset": e.offset}


def run_state(a):
    """[CONF.IMPL.STATE] One Restore or FromState request.

    [CONF.IMPL.FROM_STATE] A from_state reply: before "", the result, after the new object's
    save ("" when rejected), no cells, search null.
    """
    if a["request"] == "from_state":
        cls = FROM_STATE.get(a["kind"])
        assert cls is not None, "from_state of kind %r" % (a["kind"],)
        try:
            obj = cls.from_state(bytes.fromhex(a["bytes"]))
        except STATE_ERRORS as e:
            return {"before": "", "restore": {"class": e.error_class, "offset": e.offset}, "after": "",
                    "cells": [], "search": None}
        return {"before": "", "restore": {"ok": True}, "after": obj.save_state().hex(), "cells": [],
                "search": None}
    assert a["request"] == "restore", "request %r" % (a["request"],)
    r = a["recipe"]
    kind = r["kind"]
    if kind in ("grid", "hex_grid", "voxel_grid", "graph"):
        obj = build_graph_recipe(r) if kind == "graph" else build_grid_recipe(r)
        before = obj.save_state().hex()
        cells = []
        if kind != "graph":
            obj.add_listener(lambda i, old, new: cells.append([i, old, new]))
        res = _restore(obj, a["bytes"])
        return {"before": before, "restore": res, "after": obj.save_state().hex(), "cells": cells,
                "search": None}
    if kind in ("graph_astar", "grid_search"):
        s = build_search_recipe(r)
        before = s.save_state().hex()
        res = _restore(s, a["bytes"])
        if a["finish"]:
            s.run(None)
        return {"before": before, "restore": res, "after": s.save_state().hex(), "cells": [],
                "search": search_summary(s)}
    if kind == "replanner":
        return _replanner(a)
    assert kind == "flow_field", "recipe kind %r" % (kind,)
    return _flow_field(a)


def _replanner(a):
    """[CONF.STATE.REPLANNER] Build the request's grid and replanner, run its script, save
    (``before``), restore the bytes when given, ``replan(grid, 0)`` when ``finish`` (its status,
    counters, cost, path and recorded list are ``search``; GUESS: ``search`` is null without
    ``finish``, and a failing ``path`` gives an empty path), save again (``after``).  Replanners
    have no listeners of their own, so ``cells`` is empty."""
    from . import replan_requests
    req = a["recipe"]["request"]
    grid, rep = replan_requests.build(req)
    replan_requests.run_script(grid, rep, req["script"], observe=False)
    before = rep.save_state().hex()
    res = None
    if a["bytes"] is not None:
        try:
            rep.restore_state(grid, bytes.fromhex(a["bytes"]))
            res = {"ok": True}
        except GridStateError as e:
            res = {"class": e.error_class, "offset": e.offset}
    search = None
    if a["finish"]:
        st = rep.replan(grid, 0)
        try:
            path = rep.path(grid)
        except errors.OnePathError:
            path = []
        search = {"status": int(st), "iterations": rep.iterations(), "expanded": rep.expanded_count(),
                  "cost_bits": bits_of(rep.path_cost()), "path": path, "expansions": rep.expansions()}
    return {"before": before, "restore": res, "after": rep.save_state().hex(), "cells": [],
            "search": search}


def _flow_field(a):
    """[CONF.STATE.FLOW_FIELD] Build the request's grid and field, run its script, save
    (``before``), restore the bytes when given (``restore_state(grid, bytes)``; a failure leaves the
    field not started and unusable, [FLOW.STATE.UNUSABLE]), ``step(grid, 0)`` when ``finish``, and
    fill ``search`` with or without ``finish``: ``status()`` (Complete = 2 as found, Running,
    NotStarted), ``settled()`` as both counters, the first 8 bytes of the costs' hash as a
    little-endian u64 as the cost bits, the path from the first probe (empty when it fails) and
    no expansions; save again (``after``).  Fields have no
    listeners of their own, so ``cells`` is empty."""
    from . import flow_requests
    req = a["recipe"]["request"]
    grid, field = flow_requests.build(req)
    flow_requests.run_script(grid, field, req["script"], observe=False)
    before = field.save_state().hex()
    res = None
    if a["bytes"] is not None:
        try:
            field.restore_state(grid, bytes.fromhex(a["bytes"]))
            res = {"ok": True}
        except GridStateError as e:
            res = {"class": e.error_class, "offset": e.offset}
    if a["finish"]:
        try:
            field.step(grid, 0)
        except errors.OnePathError:
            pass
    probes = req["probes"]
    path = flow_requests.probe(field, *probes[0])["path"] if probes else []
    bits = struct.unpack("<Q", flow_requests.cost_hash(field)[:8])[0]
    search = {"status": int(field.status()), "iterations": field.settled(),
              "expanded": field.settled(), "cost_bits": "%016x" % bits, "path": path,
              "expansions": []}
    return {"before": before, "restore": res, "after": field.save_state().hex(), "cells": [],
            "search": search}
