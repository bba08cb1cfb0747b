"""Replanner requests as data ([CONF.IMPL.REPLAN], [CONF.REPLAN.REQUEST], [CONF.REPLAN.SCRIPT],
[CONF.REPLAN.REPLY]).

``run_replan(args)`` answers one ``run_replan`` request of driver protocol 2
([DRIVER.OP.RUN_REPLAN]): build the grid (a ``HexGrid`` when ``hex_layout`` is not null), the
options and the replanner, run every script step and return ``{"failed": class}`` or
``{"ran": {"steps": [...], "state": HEX}}`` with every member of [CONF.REPLAN.REPLY] present,
``cost`` as the 16 hex digits of its bit pattern ([DRIVER.ENC.REAL]), ``state_sha256`` the
SHA-256 of the replanner's ``save_state()`` after the step and ``state`` the final save.  The same
function serves ``check_replan_vectors.py``.
"""

import hashlib
import struct

from . import grid_search as gs
from .errors import OnePathError
from .grid_requests import make_options
from .hex_grid import HexGrid
from .replan_engine import GridReplanner, HexReplanner, ReplanMode

MODES = {"lpa": ReplanMode.Lpa, "d_star_lite": ReplanMode.DStarLite}


def real(v):
    """[DRIVER.ENC.REAL] float -> 16 lowercase hex digits of its bits."""
    return "%016x" % struct.unpack("<Q", struct.pack("<d", float(v)))[0]


def build_grid(spec):
    """[CONF.REPLAN.REQUEST] [CONF.GRID.MAP] new (Grid, or HexGrid of the layout), multipliers in
    order, space, then set_cell for every non-zero cell."""
    m = spec["map"]
    w, h = m["width"], m["height"]
    if spec["hex_layout"] is None:
        g = gs.Grid(w, h)
    else:
        g = HexGrid(w, h, spec["hex_layout"])
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


def _observe(rep, grid, error, status):
    """[CONF.REPLAN.REPLY] What the step observed, read after it."""
    try:
        path = rep.path(grid)
        path_error = None
    except OnePathError as e:
        path, path_error = [], e.error_class
    return {"error": error, "status": status, "found": rep.found(), "cost": real(rep.path_cost()),
            "path": path, "path_error": path_error, "iterations": rep.iterations(),
            "expanded": rep.expanded_count(), "last_expanded": rep.last_expanded(),
            "pending": rep.pending_count(), "expansions": rep.expansions(),
            "state_sha256": hashlib.sha256(rep.save_state()).hexdigest()}


def build(a):
    """[CONF.REPLAN.REQUEST] The grid and the replanner of a request (errors propagate)."""
    grid = build_grid(a["grid"])
    opts = make_options(a["options"])
    cls = GridReplanner if a["grid"]["hex_layout"] is None else HexReplanner
    rep = cls(grid, opts, MODES[a["mode"]], tuple(a["start"]), tuple(a["goal"]))
    return grid, rep


def run_script(grid, rep, script, observe=True):
    """[CONF.REPLAN.SCRIPT] Run every step; with ``observe``, the observations of
    [CONF.REPLAN.REPLY] (one per step)."""
    slot = None
    steps = []
    for step in script:
        (name, p), = step.items()
        error = None
        status = None
        try:
            if name == "replan":
                status = int(rep.replan(grid, p["budget"]))
            elif name == "replan_until_done":
                b = max(p["budget"], 1)
                while True:
                    status = int(rep.replan(grid, b))
                    if status != 1:
                        break
            elif name == "set_cell":
                grid.set_cell(p["x"], p["y"], p["area"])
            elif name == "set_area":
                grid.set_area_multiplier(p["area"], p["multiplier"])
            elif name == "set_start":
                rep.set_start(p["x"], p["y"])
            elif name == "set_goal":
                rep.set_goal(p["x"], p["y"])
            elif name == "invalidate_all":
                rep.invalidate_all()
            elif name == "save":
                slot = (grid.save_state(), rep.save_state())
            elif name == "rollback":
                # [CONF.REPLAN.SCRIPT] the kit never sends a rollback with no save before it
                assert slot is not None, "harness: rollback with no save before it"
                grid.restore_state(slot[0])
                rep.restore_state(grid, slot[1])
            elif name == "restore_onto":
                # [CONF.REPLAN.SCRIPT] a new grid of that size, of the replanner's grid type
                if isinstance(grid, HexGrid):
                    other = HexGrid(p["width"], p["height"], grid.layout())
                else:
                    other = gs.Grid(p["width"], p["height"])
                rep.restore_state(other, bytes.fromhex(p["bytes"]))
            else:
                assert name == "restore", "unknown script step %r" % (name,)
                rep.restore_state(grid, bytes.fromhex(p["bytes"]))
        except OnePathError as e:
            status = None
            off = getattr(e, "offset", None)
            error = e.error_class if off is None else "%s@%d" % (e.error_class, off)
        if observe:
            steps.append(_observe(rep, grid, error, status))
    return steps


def run_replan(a):
    """[DRIVER.OP.RUN_REPLAN] [CONF.IMPL.REPLAN] One request; the reply payload."""
    try:
        grid, rep = build(a)
    except OnePathError as e:
        return {"failed": e.error_class}
    steps = run_script(grid, rep, a["script"])
    return {"ran": {"steps": steps, "state": rep.save_state().hex()}}
