"""The rollback sync test of spec/synctest.md, run by the port itself ([DRIVER.OP.SYNCTEST]).

Clauses: [CONF.SYNC.SESSION] [CONF.SYNC.OPS] [CONF.SYNC.STATUS] [CONF.SYNC.OUTPUT]
[CONF.SYNC.CHECKSUM] [CONF.SYNC.DISTANCE] [CONF.SYNC.LOOP] [CONF.SYNC.RESIMULATED]
[CONF.SYNC.REPLY].

``run_session(session)`` validates the session, builds the world of [CONF.SYNC.SESSION]
(``onepath_py.world``), runs the loop and returns the reply payload: ``{"ran": {...}}`` or
``{"failed": TEXT}`` with ``TEXT`` starting with the class.  Op 8 restores the world from one of the
session's ``containers`` between the other ops (its outcome is part of the frame's output).  A
session that does not decode as [CONF.SYNC.SESSION] says (not an object of its members, a frame
that is not a list, an edge that is not ``[from, to, number]``, an unknown replanner mode) is a
harness error: the kit never sends one, and an ``assert`` makes the driver answer ``error``.

The loop keeps its per-run counters in a ``Loop`` object; ``rollback(loop, world, data)`` is the
single place that restores the world, so the driver's ``sync_perturb`` defect can wrap it.
"""

import hashlib
import json
import struct

from . import grid_search as gs
from .errors import OnePathError
from .graph import Graph
from .grid_requests import build_grid, make_options
from .replan_engine import ReplanMode
from .world import World, WorldError

SCHEMA = "onepath.synctest"
VERSION = 1
MAX_FRAMES = 1000000
SESSION_KEYS = ("schema", "version", "map", "options", "graph", "replanner", "flow_goals", "containers",
                "inputs")
MODES = {"lpa": ReplanMode.Lpa, "d_star_lite": ReplanMode.DStarLite}

# member indexes of the session's world ([CONF.SYNC.SESSION])
GRID, GRAPH, REPLANNER, FLOW, GRID_SEARCH, GRAPH_SEARCH = 0, 1, 2, 3, 4, 5

U8, U32, U64 = (1 << 8) - 1, (1 << 32) - 1, (1 << 64) - 1
TWO53 = 1 << 53
I128 = 1 << 127   # [CONF.SYNC.OPS] elements decode as signed 128-bit integers

# [CONF.SYNC.OPS] per op code: the ranges of the integers after the code
# (GUESS: budgets are u64, the API's budget type; SPEC_NOTES_WORLD)
OP_RANGES = {
    0: ((0, U32), (0, U32), (0, U8)),                 # set_cell x, y, area
    1: ((0, U64),),                                   # replan budget
    2: ((0, U64),),                                   # flow step budget
    3: ((0, U32),) * 4,                               # grid-search begin sx, sy, gx, gy
    4: ((0, U64),),                                   # grid-search step budget
    5: ((0, U32), (-TWO53, TWO53), (1, TWO53)),       # set_weight edge, num, den
    6: ((0, U32), (0, U32)),                          # graph-search begin start, goal
    7: ((0, U64),),                                   # graph-search step budget
    8: ((0, U32),),                                   # world restore of containers[i]
    10: ((0, U8), (-TWO53, TWO53), (1, TWO53)),      # set_area_multiplier area, num, den
}

_U8 = struct.Struct("<B")
_BB = struct.Struct("<BB")
_STATUS_COST = struct.Struct("<BBd")
_STATUS_COST_IT = struct.Struct("<BBdI")


class Failed(Exception):
    """[CONF.SYNC.REPLY] ``{"failed": text}``; ``text`` starts with the class."""

    def __init__(self, text):
        Exception.__init__(self, text)
        self.text = text


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


# ------------------------------------------------------------------ the session

def validate(session):
    """[CONF.SYNC.SESSION] [CONF.SYNC.OPS] Schema, version, the frame count, then every op in
    order (``bad_op`` before anything runs).  Returns the inputs as tuples of ints."""
    assert isinstance(session, dict), "the session is not a JSON object"
    if session.get("schema") != SCHEMA:
        raise Failed("unknown_schema: %r" % (session.get("schema"),))
    if session.get("version") != VERSION or not _is_int(session.get("version")):
        raise Failed("unsupported_version: %r" % (session.get("version"),))
    keys = set(session)
    missing = [k for k in SESSION_KEYS if k not in keys]
    unknown = sorted(keys - set(SESSION_KEYS))
    assert not (missing or unknown), "session members: missing %s, unknown %s" % (missing, unknown)
    containers = session["containers"]
    assert isinstance(containers, list) and all(_is_hex(c) for c in containers), \
        "containers is not a list of lowercase hex strings"
    inputs = session["inputs"]
    assert isinstance(inputs, list), "inputs is not a list"
    if len(inputs) > MAX_FRAMES:
        raise Failed("too_many_frames: %d frames (at most %d)" % (len(inputs), MAX_FRAMES))
    frames = []
    for f, frame in enumerate(inputs):
        assert isinstance(frame, list), "frame %d is not a list" % f
        ops = []
        for k, o in enumerate(frame):
            ops.append(_check_op(f, k, o, len(containers)))
        frames.append(ops)
    return frames


def _is_hex(c):
    """[CONF.SYNC.SESSION] a containers entry: lowercase hex of whole bytes."""
    return isinstance(c, str) and len(c) % 2 == 0 and all(ch in "0123456789abcdef" for ch in c)


def _op_text(o):
    """The op as compact JSON (a decoded session's op always encodes)."""
    return json.dumps(o, separators=(",", ":"))


def _check_op(f, k, o, containers):
    """[CONF.SYNC.OPS] An array of integers: a known code, its number of integers, each in
    range (an op 8's index below the number of containers); else ``bad_op: frame F op K: [..]``.
    An op that is not a list of integers in the signed 128-bit range does not decode."""
    assert isinstance(o, list) and all(_is_int(v) and -I128 <= v < I128 for v in o), \
        "frame %d op %d is not a list of 128-bit integers" % (f, k)
    ok = len(o) > 0
    if ok:
        ranges = OP_RANGES.get(o[0])
        ok = ranges is not None and len(o) == 1 + len(ranges) and \
            all(lo <= v <= hi for v, (lo, hi) in zip(o[1:], ranges)) and \
            (o[0] != 8 or o[1] < containers)
    if not ok:
        raise Failed("bad_op: frame %d op %d: %s" % (f, k, _op_text(o)))
    return tuple(o)


def _class_text(e):
    """``class: details`` of a build error."""
    details = ", ".join("%s=%r" % kv for kv in sorted(getattr(e, "details", {}).items()))
    return "%s: %s" % (e.error_class, details) if details else e.error_class


def _weight(w):
    """[CONF.SYNC.SESSION] An edge weight: a finite JSON number."""
    assert not isinstance(w, bool) and isinstance(w, (int, float)), "edge weight %r" % (w,)
    return float(w)


def build_world(session):
    """[CONF.SYNC.SESSION] Member 0 the grid of the map, 1 the graph, 2 the replanner, 3 the flow
    field, 4 the grid search, 5 the graph search.  The first error is ``Failed`` with its class."""
    try:
        grid = build_grid(session["map"])
    except OnePathError as e:
        raise Failed(_class_text(e))
    opts = make_options(session["options"])
    g = session["graph"]
    try:
        graph = Graph(g["node_count"])
        for e in g["edges"]:
            assert isinstance(e, list) and len(e) == 3, "edge %r" % (e,)
            graph.add_edge(e[0], e[1], _weight(e[2]))
    except OnePathError as e:
        raise Failed(_class_text(e))
    rp = session["replanner"]
    assert rp.get("mode") in MODES, "replanner mode %r" % (rp.get("mode"),)
    w = World()
    try:
        w.add_grid(grid)
        w.add_graph(graph)
        w.add_replanner(GRID, opts, MODES[rp["mode"]], tuple(rp["start"]), tuple(rp["goal"]))
        w.add_flow_field(GRID, opts, [tuple(x) for x in session["flow_goals"]])
        w.add_grid_search(GRID, opts)
        w.add_graph_search(GRAPH)
    except WorldError as e:
        raise Failed(e.text)
    return w


# ------------------------------------------------------------------ ops

def _search_step(code, budget, with_iterations):
    def f(s):
        st = int(s.step(budget))
        if with_iterations:
            return _STATUS_COST_IT.pack(code, st, s.path_cost(), s.iterations() & U32)
        return _STATUS_COST.pack(code, st, s.path_cost())
    return f


def _begin(a, b):
    def f(s):
        try:
            s.begin(a, b)
            return 0
        except OnePathError:
            return 1
    return f


def _name(text):
    """[CONF.SYNC.OPS] A name: ``u8`` length and its ASCII bytes."""
    b = (text or "").encode("ascii")
    return _U8.pack(len(b)) + b


def restore_output(world, data):
    """[CONF.SYNC.OPS] Op 8's output after the code: ``u8`` 0, or ``u8`` 1, the class, ``u32``
    offset (0 when none), ``i32`` member index (-1 unless ``member``), the member's state class
    (empty when none)."""
    try:
        world.restore_state(data)
        return b"\0"
    except WorldError as e:
        index = e.index if e.error_class == "member" else -1
        return (b"\1" + _name(e.error_class) + struct.pack("<Ii", e.offset or 0, index)
                + _name(e.state_class))


def run_op(world, o, containers=()):
    """[CONF.SYNC.OPS] [CONF.SYNC.OUTPUT] One op's output bytes, ``u8 code`` first
    (``containers``: the session's decoded containers, for op 8)."""
    code = o[0]
    if code == 0:
        try:
            world.grid_mut(GRID).set_cell(o[1], o[2], o[3])
            r = 0
        except OnePathError:
            r = 1
        return _BB.pack(0, r)
    if code == 1:
        # Within a session neither the access nor replan can fail, so the 255 of [CONF.SYNC.OPS]
        # is never written (the members are fixed and share the one grid; a refused op-8 restore
        # changes nothing, [WORLD.ATOMIC]).
        rep, grid = world.replanner_mut(REPLANNER)
        st = int(rep.replan(grid, o[1]))
        cost = rep.path_cost()
        try:
            path = rep.path(grid)
        except OnePathError:
            path = []
        n = len(path)
        return _STATUS_COST.pack(1, st, cost) + struct.pack("<i%di" % n, n, *path)
    if code == 2:
        # As for op 1: the field's step cannot fail within a session (no size_mismatch, never
        # unusable), so 255 is never written.
        field, grid = world.flow_field_mut(FLOW)
        return _BB.pack(2, int(field.step(grid, o[1])))
    if code == 3:
        r = world.with_grid_search(GRID_SEARCH, _begin((o[1], o[2]), (o[3], o[4])))
        return _BB.pack(3, r)
    if code == 4:
        return world.with_grid_search(GRID_SEARCH, _search_step(4, o[1], True))
    if code == 5:
        try:
            world.graph_mut(GRAPH).set_weight(o[1], float(o[2]) / float(o[3]))
            r = 0
        except OnePathError:
            r = 1
        return _BB.pack(5, r)
    if code == 6:
        r = world.with_graph_search(GRAPH_SEARCH, _begin(o[1], o[2]))
        return _BB.pack(6, r)
    if code == 8:
        return _U8.pack(8) + restore_output(world, containers[o[1]])
    if code == 10:
        try:
            world.grid_mut(GRID).set_area_multiplier(o[1], float(o[2]) / float(o[3]))
            r = 0
        except OnePathError:
            r = 1
        return _BB.pack(10, r)
    # code 7
    return world.with_graph_search(GRAPH_SEARCH, _search_step(7, o[1], False))


def run_frame(world, ops, containers=()):
    """[CONF.SYNC.OUTPUT] The frame's output bytes: every op's, in order."""
    return b"".join([run_op(world, o, containers) for o in ops])


def checksums(states, output):
    """[CONF.SYNC.CHECKSUM] The first 8 bytes of the SHA-256 of each member's bytes, then of the
    frame's output bytes."""
    sha = hashlib.sha256
    out = [sha(b).digest()[:8] for b in states]
    out.append(sha(output).digest()[:8])
    return out


def object_name(k, members):
    """[CONF.SYNC.CHECKSUM] ``member i`` ... then ``outputs``."""
    return "member %d" % k if k < members else "outputs"


# ------------------------------------------------------------------ the loop

class Loop(object):
    """The counters of one run of the loop (``restores``: world restores so far)."""
    __slots__ = ("restores",)

    def __init__(self):
        self.restores = 0


def rollback(loop, world, data):
    """[CONF.SYNC.LOOP] ``restore_state(S[f + 1 - d(f)])``; raises ``WorldError``."""
    world.restore_state(data)
    loop.restores += 1


def run_loop(world, frames, containers=()):
    """[CONF.SYNC.DISTANCE] [CONF.SYNC.LOOP] [CONF.SYNC.RESIMULATED] ``(C, resimulated count,
    digest, mismatch)``; ``C`` holds raw 8-byte checksums."""
    loop = Loop()
    members = world.member_count()
    C = []
    S = [world.save_state()]
    digest = hashlib.sha256()
    count = 0
    mismatch = None
    for f, ops in enumerate(frames):
        out = run_frame(world, ops, containers)
        states = world.member_states()
        C.append(checksums(states, out))
        S.append(world.container(states))
        d = 1 + f % 8
        first = f + 1 - d
        try:
            rollback(loop, world, S[first])
        except WorldError as e:
            mismatch = {"frame": first, "object": "restore", "expected": "", "found": e.text}
            break
        for g in range(first, f + 1):
            out = run_frame(world, frames[g], containers)
            cs = checksums(world.member_states(), out)
            digest.update(b"".join(cs))
            count += 1
            if cs != C[g]:
                k = next(k for k in range(len(cs)) if cs[k] != C[g][k])
                mismatch = {"frame": g, "object": object_name(k, members),
                            "expected": C[g][k].hex(), "found": cs[k].hex()}
                break
        if mismatch is not None:
            break
    return C, count, digest.hexdigest(), mismatch


def run_session(session):
    """[DRIVER.OP.SYNCTEST] [CONF.SYNC.REPLY] The reply payload of one session."""
    try:
        frames = validate(session)
        world = build_world(session)
    except Failed as e:
        return {"failed": e.text}
    containers = [bytes.fromhex(c) for c in session["containers"]]
    C, count, digest, mismatch = run_loop(world, frames, containers)
    return {"ran": {"checksums": [[c.hex() for c in cs] for cs in C], "resimulated": count,
                    "resim_digest": digest, "mismatch": mismatch}}
