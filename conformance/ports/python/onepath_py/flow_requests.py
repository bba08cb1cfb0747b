"""Flow-field requests as data ([CONF.IMPL.FLOW], [CONF.FLOW.REQUEST], [CONF.FLOW.SCRIPT],
[CONF.FLOW.REPLY]).

``run_flow(args)`` answers one ``run_flow`` request of driver protocol 2 ([DRIVER.OP.RUN_FLOW]):
build the grid (a ``HexGrid`` when ``hex_layout`` is not null), the options and the field, run
every script step and return ``{"failed": class}`` or ``{"ran": {"steps", "costs", "next",
"paths", "state"}}`` with every member present, reals as the 16 hex digits of their bit pattern
([DRIVER.ENC.REAL]).  The same functions serve ``check_flow_vectors.py`` and the kind-7 state
recipes ([CONF.STATE.FLOW_FIELD], ``state_requests``).
"""

import hashlib
import struct

from .errors import OnePathError
from .flow_engine import GridFlowField, HexFlowField
from .grid_requests import make_options
from .replan_requests import build_grid, real

RUNNING = 1


def field_hash(field):
    """[CONF.FLOW.REPLY] SHA-256 over every cell in index order: the cost's bits as a
    little-endian u64 (a packed f64 is exactly that), the step as a little-endian i32 (-1 for
    none), both as ``describe()`` gives them."""
    if field._hashed is None:
        n = field._n
        flat = [None] * (2 * n)
        flat[0::2] = field._cost
        flat[1::2] = field._next
        field._hashed = hashlib.sha256(struct.pack("<" + "di" * n, *flat)).digest()
    return field._hashed


def cost_hash(field):
    """[CONF.STATE.FLOW_FIELD] SHA-256 over every cell's cost bits (little-endian u64), in
    index order."""
    return hashlib.sha256(struct.pack("<%dd" % field._n, *field._cost)).digest()


def build(a):
    """[CONF.FLOW.REQUEST] The grid and the field of a request (errors propagate)."""
    grid = build_grid(a["grid"])
    opts = make_options(a["options"])
    cls = GridFlowField if a["grid"]["hex_layout"] is None else HexFlowField
    field = cls(grid, opts, [tuple(g) for g in a["goals"]])
    return grid, field


def _error_text(e):
    off = getattr(e, "offset", None)
    return e.error_class if off is None else "%s@%d" % (e.error_class, off)


def _observe(field, error, returned):
    """[CONF.FLOW.REPLY] What the step observed, read after it."""
    return {"error": error, "returned": returned, "status": int(field.status()),
            "repairing": field.is_repairing(), "usable": field.is_usable(),
            "settled": field.settled(), "pending": field.pending_count(),
            "field_sha256": field_hash(field).hex(),
            "state_sha256": hashlib.sha256(field.save_state()).hexdigest()}


def run_script(grid, field, script, observe=True):
    """[CONF.FLOW.SCRIPT] Run every step; with ``observe`` the observations (one per step)."""
    slot = None
    steps = []
    for step in script:
        (name, p), = step.items()
        error = None
        returned = None
        try:
            if name == "step":
                returned = int(field.step(grid, p["budget"]))
            elif name == "step_until_done":
                b = max(p["budget"], 1)
                while True:
                    returned = int(field.step(grid, b))
                    if returned != RUNNING:
                        break
            elif name == "run":
                returned = int(field.run(grid))
            elif name == "recompute":
                returned = int(field.recompute(grid, p["budget"]))
            elif name == "set_cell":
                grid.set_cell(p["x"], p["y"], p["area"])
            elif name == "set_area":
                grid.set_area_multiplier(p["area"], p["multiplier"])
            elif name == "save":
                slot = (grid.save_state(), field.save_state())
            elif name == "rollback":
                # [CONF.FLOW.SCRIPT] the kit never sends a rollback with no save before it
                assert slot is not None, "harness: rollback with no save before it"
                grid.restore_state(slot[0])
                field.restore_state(grid, slot[1])
            elif name == "rollback_grid":
                # [CONF.FLOW.SCRIPT] the kit never sends a rollback with no save before it
                assert slot is not None, "harness: rollback with no save before it"
                grid.restore_state(slot[0])
            elif name == "restore":
                field.restore_state(grid, bytes.fromhex(p["bytes"]))
            else:
                assert name == "detach", "unknown script step %r" % (name,)
                if not field.detach(grid):
                    error = "not_attached"
        except OnePathError as e:
            # returned is still None here: field.step raises only size_mismatch or unusable,
            # before any change and from the grid and usable flag alone, so in
            # step_until_done only its first call can raise, and no branch assigns returned
            # before its call returns ([FLOW.RUN.STEP] (1))
            error = _error_text(e)
        if observe:
            steps.append(_observe(field, error, returned))
    return steps


def probe(field, x, y):
    """[CONF.FLOW.REPLY] ``path(x, y)``, empty with its class when it fails."""
    try:
        return {"from": [x, y], "path": field.path(x, y), "error": None}
    except OnePathError as e:
        return {"from": [x, y], "path": [], "error": e.error_class}


def run_flow(a):
    """[DRIVER.OP.RUN_FLOW] [CONF.IMPL.FLOW] One request; the reply payload."""
    try:
        grid, field = build(a)
    except OnePathError as e:
        return {"failed": e.error_class}
    steps = run_script(grid, field, a["script"])
    d = field.describe()
    return {"ran": {"steps": steps, "costs": [real(c) for c in d.costs], "next": d.next,
                    "paths": [probe(field, x, y) for x, y in a["probes"]],
                    "state": field.save_state().hex()}}
