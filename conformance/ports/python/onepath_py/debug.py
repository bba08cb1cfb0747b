"""Debug geometry: plain-data descriptions of results (spec/debug.md, [DEBUG.*]).

Public names: ``PathDescription``, ``VoxelPathDescription``, ``GraphPathDescription``,
``ReplanExpansion``, ``ReplanDescription``, ``HierarchyEdgeDescription``,
``HierarchyDescription``, ``describe_path``, ``describe_hex_path``, ``describe_voxel_path``,
``describe_graph_path``, ``describe_replanner`` (behind ``GridReplanner.describe`` and
``HexReplanner.describe``) and ``describe_hierarchy`` (behind ``HpaHierarchy.describe``).  The
flow-field description is ``describe()`` of the field itself ([FLOW.DEBUG.DESCRIBE]).

[DEBUG.PLAIN] Every description is a new object holding fresh lists and tuples (copies), never a
reference into the result or object it was made from; making one changes nothing.
[DEBUG.TOTAL] No describe function raises: a cell outside the given grid still gets the point of
[DEBUG.POINTS] computed from the index and the given grid's width.
[DEBUG.EXPANDED.OPT_IN] Expansion lists are copied as the result recorded them; nothing records
more because this module exists.
"""

from .errors import OnePathError
from .voxel_search import voxel_center


class _Plain(object):
    """A plain value: its fields, named in ``_FIELDS`` ([DEBUG.PLAIN])."""

    _FIELDS = ()


class PathDescription(_Plain):
    """[DEBUG.PATH.FIELDS] A ``GridPath`` of a square or hex grid."""

    _FIELDS = ("width", "height", "algorithm", "status", "cost", "cells", "points", "expanded",
               "expanded_points", "expanded_count", "iterations")

    def __init__(self, width, height, algorithm, status, cost, cells, points, expanded,
                 expanded_points, expanded_count, iterations):
        self.width, self.height = width, height
        self.algorithm, self.status, self.cost = algorithm, status, cost
        self.cells, self.points = cells, points
        self.expanded, self.expanded_points = expanded, expanded_points
        self.expanded_count, self.iterations = expanded_count, iterations


class VoxelPathDescription(_Plain):
    """[DEBUG.VOXEL.FIELDS] A ``VoxelPath``: ``size`` and the fields of [DEBUG.PATH.FIELDS] with
    three-component points."""

    _FIELDS = ("size", "algorithm", "status", "cost", "cells", "points", "expanded",
               "expanded_points", "expanded_count", "iterations")

    def __init__(self, size, algorithm, status, cost, cells, points, expanded, expanded_points,
                 expanded_count, iterations):
        self.size = size
        self.algorithm, self.status, self.cost = algorithm, status, cost
        self.cells, self.points = cells, points
        self.expanded, self.expanded_points = expanded, expanded_points
        self.expanded_count, self.iterations = expanded_count, iterations


class GraphPathDescription(_Plain):
    """[DEBUG.GRAPH.FIELDS] A ``GraphPath`` with the positions of its nodes and expansions."""

    _FIELDS = ("algorithm", "status", "cost", "nodes", "positions", "expanded",
               "expanded_positions", "expanded_count", "iterations")

    def __init__(self, algorithm, status, cost, nodes, positions, expanded, expanded_positions,
                 expanded_count, iterations):
        self.algorithm, self.status, self.cost = algorithm, status, cost
        self.nodes, self.positions = nodes, positions
        self.expanded, self.expanded_positions = expanded, expanded_positions
        self.expanded_count, self.iterations = expanded_count, iterations


class ReplanExpansion(object):
    """[DEBUG.REPLAN.KINDS] What a replan did to a recorded node: step (b) of
    [REPLAN.COMPUTE.STEP] settled it (overconsistent) or step (c) reset it (underconsistent)."""
    Settle = "settle"
    Reset = "reset"


class ReplanDescription(_Plain):
    """[DEBUG.REPLAN.FIELDS] A replanner as it is."""

    _FIELDS = ("width", "height", "mode", "start", "goal", "initialized", "found", "cost", "cells",
               "path_error", "points", "expanded", "expanded_kinds", "expanded_points",
               "expanded_count", "iterations", "pending")

    def __init__(self, **kw):
        for f in self._FIELDS:
            setattr(self, f, kw[f])


class HierarchyEdgeDescription(_Plain):
    """[DEBUG.HPA.FIELDS] One edge with its stored path."""

    _FIELDS = ("from_", "to", "cost", "kind", "path")

    def __init__(self, from_, to, cost, kind, path):
        self.from_, self.to, self.cost, self.kind, self.path = from_, to, cost, kind, path


class HierarchyDescription(_Plain):
    """[DEBUG.HPA.FIELDS] A hierarchy as it was at its last build or refresh."""

    _FIELDS = ("built", "chunk_size", "chunks", "nodes", "node_points", "edges")

    def __init__(self, built, chunk_size, chunks, nodes, node_points, edges):
        self.built, self.chunk_size, self.chunks = built, chunk_size, chunks
        self.nodes, self.node_points, self.edges = nodes, node_points, edges


# ------------------------------------------------------------------ points

def cell_point(grid, cell):
    """[DEBUG.POINTS] The centre of [GRID.SPACE.CENTER] of ``(c mod w, c div w)`` with the
    grid's ``GridSpace`` (square and hex grids alike); any index, inside the grid or not
    ([DEBUG.TOTAL])."""
    return tuple(grid.center(cell))


def cell_points(grid, cells):
    return [cell_point(grid, c) for c in cells]


def points_on(width, space, cells):
    """[DEBUG.POINTS] [DEBUG.REPLAN.FIELDS] Centres of cell indexes of a grid of ``width``
    with ``space`` (a replanner's points: its own width, the given grid's space)."""
    if space.unassigned():
        ox, oy, s = 0.0, 0.0, 1.0
    else:
        ox, oy, s = space.origin_x, space.origin_y, space.cell_size
    w = max(width, 1)
    return [(ox + (c % w + 0.5) * s, oy + (c // w + 0.5) * s) for c in cells]


def voxel_point(grid, node):
    """[DEBUG.POINTS] The centre of ``(c mod sx, (c div sx) mod sy, c div (sx * sy))`` with the
    grid's ``VoxelSpace`` (node order of [GRID.VOXEL.SIZE])."""
    return tuple(voxel_center(grid, node))


# ------------------------------------------------------------------ paths

def describe_path(grid, path):
    """[DEBUG.PATH.FIELDS] ``describe_path(grid, path)`` over a ``Grid``: the given grid's size,
    the path's fields copied, and the world point of each expanded cell."""
    return PathDescription(grid.width(), grid.height(), path.algorithm, path.status, path.cost,
                           list(path.cells), [tuple(p) for p in path.points],
                           list(path.expanded), cell_points(grid, path.expanded),
                           path.expanded_count, path.iterations)


def describe_hex_path(grid, path):
    """[DEBUG.PATH.FIELDS] ``describe_hex_path(grid, path)`` over a ``HexGrid``: the same
    description ([DEBUG.POINTS] is [GRID.SPACE.CENTER] for hex cells too)."""
    return describe_path(grid, path)


def describe_voxel_path(grid, path):
    """[DEBUG.VOXEL.FIELDS] ``describe_voxel_path(grid, path)``."""
    return VoxelPathDescription(tuple(grid.size()), path.algorithm, path.status, path.cost,
                                list(path.cells), [tuple(p) for p in path.points],
                                list(path.expanded), [voxel_point(grid, c) for c in path.expanded],
                                path.expanded_count, path.iterations)


def describe_graph_path(path, positions=None):
    """[DEBUG.GRAPH.FIELDS] ``describe_graph_path(path, positions)``: the ``GraphPath``'s fields
    copied; ``positions`` and ``expanded_positions`` the point of each listed node when
    ``positions`` is a list (a ``PointGraph``'s ``points()`` or any points by node id) and every
    node of ``nodes`` and ``expanded`` is below its length, otherwise both empty."""
    nodes = list(path.nodes)
    expanded = list(path.expanded)
    pos, epos = [], []
    if positions is not None:
        n = len(positions)
        if all(0 <= v < n for v in nodes) and all(0 <= v < n for v in expanded):
            pos = [_point3(positions[v]) for v in nodes]
            epos = [_point3(positions[v]) for v in expanded]
    return GraphPathDescription(path.algorithm, path.status, path.cost, nodes, pos, expanded,
                                epos, path.expanded_count, path.iterations)


def _point3(p):
    """A ``Point3`` or any three numbers, as a plain tuple (a copy, [DEBUG.PLAIN])."""
    x, y, z = tuple(p)
    return (float(x), float(y), float(z))


# ------------------------------------------------------------------ replanners and hierarchies

def describe_replanner(rep, grid):
    """[DEBUG.REPLAN.FIELDS] ``GridReplanner::describe(grid)`` / ``HexReplanner::describe(grid)``:
    the replanner as it is.  ``cells`` is ``path(grid)`` or empty when it fails, ``path_error``
    that failure's class (``size_mismatch`` for a grid of another size) or None; ``points`` the
    world point of each path cell; the expansions with their kinds ([DEBUG.REPLAN.KINDS]) and
    points; every point with the replanner's own width and the given grid's space;
    ``expanded_count`` is ``last_expanded()``."""
    try:
        cells = list(rep.path(grid))
        path_error = None
    except OnePathError as e:
        cells, path_error = [], e.error_class
    expanded = list(rep.expansions())
    return ReplanDescription(
        width=rep._w, height=rep._h, mode=rep.mode(), start=rep.start(), goal=rep.goal(),
        initialized=rep.is_initialized(), found=rep.found(), cost=rep.path_cost(), cells=cells,
        path_error=path_error, points=points_on(rep._w, grid.space(), cells), expanded=expanded,
        expanded_kinds=list(rep.expansion_kinds()),
        expanded_points=points_on(rep._w, grid.space(), expanded),
        expanded_count=rep.last_expanded(), iterations=rep.iterations(),
        pending=rep.pending_count())


def describe_hierarchy(hier, grid):
    """[DEBUG.HPA.FIELDS] ``HpaHierarchy::describe(grid)``: ``built``, the chunk-size option,
    ``chunks()``, ``nodes()`` in id order, the world point of each node's cell on the given grid
    and ``edges()`` in (from, to) order ([HPA.INSPECT.EDGES]) with their stored paths; as at the
    last build or refresh ([HPA.INSPECT.UNBUILT])."""
    nodes = [(n.cell, n.chunk) for n in hier.nodes()]
    edges = []
    for e in hier.edges():
        p = hier.edge_path(e.from_, e.to)
        edges.append(HierarchyEdgeDescription(e.from_, e.to, e.cost, e.kind,
                                              [] if p is None else list(p)))
    return HierarchyDescription(hier.is_built(), hier.options().chunk_size, tuple(hier.chunks()),
                                nodes, [cell_point(grid, c) for c, _ in nodes], edges)
