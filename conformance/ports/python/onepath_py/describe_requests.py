"""Describe requests as data ([CONF.DEBUG.REQUEST], [CONF.DEBUG.REPLY], [DRIVER.OP.DESCRIBE]).

``run_describe(args, graph_query)`` answers one ``describe`` request of driver protocol 2: one
object with exactly one member naming the target, holding that family's own request:

- ``{"grid": R}`` / ``{"bidi": R}``: ``R`` the request of [CONF.BIDI.REQUEST]; each query by
  tier 1 ``find_grid_path`` / ``find_grid_path_bidirectional``, described by ``describe_path``;
- ``{"hex": H}`` / ``{"voxel": V}``: the members of [CONF.LATTICE.REQUEST]; ``find_hex_path`` /
  ``find_voxel_path``, ``describe_hex_path`` / ``describe_voxel_path``;
- ``{"hpa": R}``: the request of [CONF.HPA.REQUEST]; per query its edits, then tier 1
  ``find_hpa_path``; after the last query a NEW hierarchy with the request's options, refreshed on
  the grid as it is then, described by [DEBUG.HPA.FIELDS];
- ``{"graph": {"case", "variant", "query"}}``: one tier-1 ``find_path`` of the variant, recording
  on, no budget (run by the driver's graph code, ``graph_query``), described by
  ``describe_graph_path`` with the positions the driver gives;
- ``{"replan": R}`` ([CONF.REPLAN.REQUEST]): the replanner described after the whole script;
- ``{"flow": R}`` ([CONF.FLOW.REQUEST]): the field described after the whole script.

The reply is ``{"failed": class}`` when building the grid, graph or object failed (as the
family's own op reports it), else ``{"ran": [ENTRY, ...]}``: one entry per query (``grid``,
``bidi``, ``hex``, ``voxel``, ``hpa``), then for ``hpa`` the hierarchy; one entry for ``graph``,
``replan`` and ``flow``.  Each entry is ``{"error": class}`` or one description object, every
member present, reals as the 16 hex digits of their bit pattern ([DRIVER.ENC.REAL]).

A query with a non-empty schedule (a describe query is always tier 1), an unknown target or a
request of the wrong shape raises ``ValueError``: a harness error, answered as ``error``.
"""

from . import bidi_requests as B
from . import flow_requests as F
from . import hpa_requests as H
from . import lattice_requests as L
from . import replan_requests as R
from .debug import (describe_graph_path, describe_hex_path, describe_path, describe_voxel_path)
from .errors import OnePathError
from .grid_bidi import find_grid_path_bidirectional
from .grid_requests import real
from .grid_search import GridError, GridSearchError, find_grid_path
from .hex_search import find_hex_path
from .hpa import HpaEdgeKind, HpaHierarchy
from .hpa_search import find_hpa_path
from .options import Algorithm, PathStatus
from .voxel_search import find_voxel_path

TARGETS = ("grid", "bidi", "hex", "voxel", "hpa", "graph", "replan", "flow")
GRAPH_MEMBERS = ["case", "variant", "query"]
STATUS = {PathStatus.Found: 2, PathStatus.NotFound: 3, PathStatus.BudgetExhausted: 4}
GRAPH_ALGORITHM = {Algorithm.Dijkstra: "dijkstra", Algorithm.AStar: "astar",
                   Algorithm.BidirectionalDijkstra: "bidirectional_dijkstra",
                   Algorithm.BidirectionalAStar: "bidirectional_astar"}


class BuildFailed(Exception):
    """Raised by a ``graph_query`` callback when building the case's graph (or an object the
    variant needs) failed: the reply is ``{"failed": class}``."""

    def __init__(self, error_class):
        Exception.__init__(self, error_class)
        self.error_class = error_class


# ------------------------------------------------------------------ wire form

def _pts(points):
    return [[real(c) for c in p] for p in points]


def path_entry(d):
    """[CONF.DEBUG.REPLY] ``{"path": {...}}`` of a ``PathDescription``."""
    return {"path": {"width": d.width, "height": d.height, "algorithm": d.algorithm,
                     "status": STATUS[d.status], "cost": real(d.cost), "cells": list(d.cells),
                     "points": _pts(d.points), "expanded": list(d.expanded),
                     "expanded_points": _pts(d.expanded_points),
                     "expanded_count": d.expanded_count, "iterations": d.iterations}}


def voxel_path_entry(d):
    """[CONF.DEBUG.REPLY] ``{"voxel_path": {"size": [sx, sy, sz], ...}}``."""
    return {"voxel_path": {"size": list(d.size), "algorithm": d.algorithm,
                           "status": STATUS[d.status], "cost": real(d.cost),
                           "cells": list(d.cells), "points": _pts(d.points),
                           "expanded": list(d.expanded),
                           "expanded_points": _pts(d.expanded_points),
                           "expanded_count": d.expanded_count, "iterations": d.iterations}}


def graph_path_entry(d):
    """[CONF.DEBUG.REPLY] ``{"graph_path": {...}}``; algorithm by name."""
    return {"graph_path": {"algorithm": GRAPH_ALGORITHM[d.algorithm], "status": STATUS[d.status],
                           "cost": real(d.cost), "nodes": list(d.nodes),
                           "positions": _pts(d.positions), "expanded": list(d.expanded),
                           "expanded_positions": _pts(d.expanded_positions),
                           "expanded_count": d.expanded_count, "iterations": d.iterations}}


def replan_entry(d):
    """[CONF.DEBUG.REPLY] ``{"replan": {...}}``; mode 0 LPA*, 1 D* Lite; kinds ``settle`` /
    ``reset``."""
    return {"replan": {"width": d.width, "height": d.height, "mode": int(d.mode),
                       "start": d.start, "goal": d.goal, "initialized": d.initialized,
                       "found": d.found, "cost": real(d.cost), "cells": list(d.cells),
                       "path_error": d.path_error, "points": _pts(d.points),
                       "expanded": list(d.expanded), "expanded_kinds": list(d.expanded_kinds),
                       "expanded_points": _pts(d.expanded_points),
                       "expanded_count": d.expanded_count, "iterations": d.iterations,
                       "pending": d.pending}}


def hierarchy_entry(d):
    """[CONF.DEBUG.REPLY] ``{"hierarchy": {...}}``; nodes as ``[cell, chunk]``, each edge
    ``{"from", "to", "cost", "inter", "path"}``."""
    return {"hierarchy": {"built": d.built, "chunk_size": d.chunk_size, "chunks": list(d.chunks),
                          "nodes": [[c, k] for c, k in d.nodes],
                          "node_points": _pts(d.node_points),
                          "edges": [{"from": e.from_, "to": e.to, "cost": real(e.cost),
                                     "inter": e.kind == HpaEdgeKind.Inter, "path": list(e.path)}
                                    for e in d.edges]}}


def flow_entry(d):
    """[CONF.DEBUG.REPLY] ``{"flow": {...}}`` of [FLOW.DEBUG.DESCRIBE]: costs as bit patterns,
    ``next`` a cell or null per cell, status by [FLOW.RUN.STATUS] value."""
    return {"flow": {"width": d.width, "height": d.height, "costs": [real(c) for c in d.costs],
                     "next": list(d.next), "goals": list(d.goals), "status": int(d.status),
                     "settled": d.settled}}


# ------------------------------------------------------------------ targets

def _tier1_only(queries, what):
    """[CONF.DEBUG.REQUEST] Every query of a describe request has an empty schedule and no
    ``cancel`` (each query tuple ends ``schedule, cancel``)."""
    for i, q in enumerate(queries):
        assert not q[-2] and q[-1] is None, \
            "%s describe query %d has a schedule %r or a cancel %r (tier 1 only)" % (what, i, q[-2], q[-1])
    return queries


def _square(r, what, tier1):
    """``grid`` and ``bidi``: the grid of [CONF.BIDI.REQUEST], each query by ``tier1``."""
    L._members(r, B.REQUEST_MEMBERS, what)
    options = B.square_options(r["options"])
    queries = _tier1_only(L._queries(r["queries"], 2), what)
    try:
        grid = B.build_square(r["map"])
    except GridError as e:
        return {"failed": e.error_class}
    out = []
    for s, g, _, _ in queries:
        try:
            p = tier1(grid, s, g, options)
        except GridSearchError as e:
            out.append({"error": e.error_class})
            continue
        out.append(path_entry(describe_path(grid, p)))
    return {"ran": out}


def _lattice(r, shape):
    """``hex`` and ``voxel``: the grid of [CONF.LATTICE.REQUEST], each query by tier 1."""
    if shape == "hex":
        L._members(r, L.HEX_MEMBERS, "hex")
        options = L.hex_options(r["options"])
        queries = _tier1_only(L._queries(r["queries"], 2), "hex")
        build, tier1 = L.build_hex, find_hex_path
        describe, entry = describe_hex_path, path_entry
    else:
        L._members(r, L.VOXEL_MEMBERS, "voxel")
        options = L.voxel_options(r["options"])
        queries = _tier1_only(L._queries(r["queries"], 3), "voxel")
        build, tier1 = L.build_voxel, find_voxel_path
        describe, entry = describe_voxel_path, voxel_path_entry
    try:
        grid = build(r)
    except GridError as e:
        return {"failed": e.error_class}
    out = []
    for s, g, _, _ in queries:
        try:
            p = tier1(grid, s, g, options)
        except GridSearchError as e:
            out.append({"error": e.error_class})
            continue
        out.append(entry(describe(grid, p)))
    return {"ran": out}


def _hpa(r):
    """``hpa``: per query its edits, then tier 1 ``find_hpa_path``; then a new
    ``HpaHierarchy(options)`` refreshed on the final grid and described ([DEBUG.HPA.FIELDS]).
    When ``new`` fails the hierarchy entry is ``{"error": class}``."""
    L._members(r, H.REQUEST_MEMBERS, "hpa")
    options = H.hpa_options(r["options"])
    queries = H._queries(r["queries"])
    for i, q in enumerate(queries):
        assert q[4] is None, "hpa describe query %d cancels (tier 1 only)" % i   # [CONF.HPA.CANCEL]
    _tier1_only(queries, "hpa")
    try:
        grid = H.build_grid(r["map"])
    except GridError as e:
        return {"failed": e.error_class}
    w, h = grid.width(), grid.height()
    out = []
    for edits, s, g, _, _ in queries:
        for x, y, area in edits:
            assert x < w and y < h, "edit (%d, %d) outside the %dx%d map" % (x, y, w, h)
            grid.set_cell(x, y, area)
        try:
            p = find_hpa_path(grid, s, g, options)
        except GridSearchError as e:
            out.append({"error": e.error_class})
            continue
        out.append(path_entry(describe_path(grid, p)))
    try:
        hier = HpaHierarchy(options)
        hier.refresh(grid)
    except GridSearchError as e:
        out.append({"error": e.error_class})
    else:
        out.append(hierarchy_entry(hier.describe(grid)))
    return {"ran": out}


def _graph(r, graph_query):
    """``graph``: ``graph_query(case, variant, (s, g))`` returns ``(GraphPath, positions or
    None)``, raises ``BuildFailed`` when the graph could not be built and a ``OnePathError`` when
    the query failed."""
    L._members(r, GRAPH_MEMBERS, "graph")
    q = r["query"]
    assert isinstance(q, list) and len(q) == 2, "graph.query: %r" % (q,)
    assert graph_query is not None, "no graph runner given"
    try:
        path, positions = graph_query(r["case"], r["variant"], (q[0], q[1]))
    except BuildFailed as e:
        return {"failed": e.error_class}
    except OnePathError as e:
        return {"ran": [{"error": e.error_class}]}
    return {"ran": [graph_path_entry(describe_graph_path(path, positions))]}


def _replan(r):
    """``replan``: build ([CONF.REPLAN.REQUEST]), the whole script ([CONF.REPLAN.SCRIPT]), then
    ``describe(grid)`` ([DEBUG.REPLAN.FIELDS])."""
    try:
        grid, rep = R.build(r)
    except OnePathError as e:
        return {"failed": e.error_class}
    R.run_script(grid, rep, r["script"], observe=False)
    return {"ran": [replan_entry(rep.describe(grid))]}


def _flow(r):
    """``flow``: build ([CONF.FLOW.REQUEST]), the whole script ([CONF.FLOW.SCRIPT]), then the
    field's ``describe()`` ([FLOW.DEBUG.DESCRIBE])."""
    try:
        grid, field = F.build(r)
    except OnePathError as e:
        return {"failed": e.error_class}
    F.run_script(grid, field, r["script"], observe=False)
    return {"ran": [flow_entry(field.describe())]}


def run_describe(a, graph_query=None):
    """[DRIVER.OP.DESCRIBE] [CONF.DEBUG.REQUEST] One describe request; the reply payload of
    [CONF.DEBUG.REPLY]."""
    assert isinstance(a, dict) and len(a) == 1, "a describe request has exactly one member"
    (target, r), = a.items()
    if target == "grid":
        return _square(r, "grid", find_grid_path)
    if target == "bidi":
        return _square(r, "bidi", find_grid_path_bidirectional)
    if target in ("hex", "voxel"):
        return _lattice(r, target)
    if target == "hpa":
        return _hpa(r)
    if target == "graph":
        return _graph(r, graph_query)
    if target == "replan":
        return _replan(r)
    assert target == "flow", "unknown describe target %r (one of %s)" % (target, ", ".join(TARGETS))
    return _flow(r)
