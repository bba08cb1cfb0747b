"""Replanner state bytes, kinds 5 (GridReplanner) and 6 (HexReplanner), spec/replanning.md §7.

Clauses: [REPLAN.STATE.HEADER] [REPLAN.STATE.SEARCH] [REPLAN.STATE.CHECKS]
[REPLAN.STATE.STRUCTURAL] [REPLAN.STATE.SAVE] [REPLAN.STATE.ATOMIC] [REPLAN.STATE.RESTORE]
[REPLAN.STATE.ORDER] [REPLAN.RUN.COUNTERS] [STATE.HEADER] [STATE.KINDS] [STATE.LE] [STATE.FLAG]
[STATE.NAN] [STATE.COUNT] [STATE.ORDER] [STATE.TRAILING] [STATE.BOUNDED] [GS.STATE.CLASSES].

``parse`` validates the whole input against the restoring replanner and returns a plain record
without touching anything; ``install`` applies it.  So a failed restore changes nothing and calls
no listener ([REPLAN.STATE.ATOMIC]).
"""

import struct

from .grid_state import Reader, err, header
from .replan_queue import entry_precedes

INF = float("inf")
I64_MAX = (1 << 63) - 1
I32_MAX = (1 << 31) - 1


def save(r):
    """[REPLAN.STATE.HEADER] [REPLAN.STATE.SEARCH] [REPLAN.STATE.SAVE] Canonical bytes: the header,
    the replan search; when initialised km, overflow, the pending entries in order, every cell with
    a finite g or rhs in increasing index, and the queue as it lies.  Counters are clamped
    ([REPLAN.RUN.COUNTERS]; last_expanded, an i32, at 2^31 - 1)."""
    parts = [header(r._KIND),
             struct.pack("<iiBiii", r._w, r._h, r._algorithm, r._area_version, r._start, r._goal),
             struct.pack("<iBiiBBqqi", r._n, r._mode, r._start, r._goal, 1 if r._init else 0,
                         1 if r._found else 0, min(r._iterations, I64_MAX),
                         min(r._expanded, I64_MAX), min(r._last_expanded, I32_MAX))]
    if r._init:
        pend = r._pending
        parts.append(struct.pack("<dBi", r._km, 1 if r._overflow else 0, len(pend)))
        if pend:
            parts.append(struct.pack("<%di" % len(pend), *pend))
        if r._body is None:
            r._body = _body(r)
        parts.append(r._body)
    return b"".join(parts)


def _body(r):
    """The planned cells and the queue (kept by the replanner until g, rhs or the queue change)."""
    g, rhs = r._g, r._rhs
    planned = [c for c in sorted(r._touched) if g[c] < INF or rhs[c] < INF]
    count = len(planned)
    parts = [struct.pack("<i", count)]
    if count:
        flat = [None] * (3 * count)
        flat[0::3] = planned
        flat[1::3] = [g[c] for c in planned]
        flat[2::3] = [rhs[c] for c in planned]
        parts.append(struct.pack("<" + "idd" * count, *flat))
    q = r._q
    qn = len(q.node)
    parts.append(struct.pack("<i", qn))
    if qn:
        flat = [None] * (3 * qn)
        flat[0::3] = q.node
        flat[1::3] = q.k1
        flat[2::3] = q.k2
        parts.append(struct.pack("<" + "idd" * qn, *flat))
    return b"".join(parts)


class ReplanState(object):
    """A validated kind-5 / kind-6 state."""
    __slots__ = ("area_version", "start", "goal", "initialized", "found", "iterations", "expanded",
                 "last_expanded", "km", "overflow", "pending", "planned", "queue")


def _i64(r):
    return r._take("<q", 8)


def parse(rep, grid, data):
    """[REPLAN.STATE.CHECKS] Every check in byte order ([STATE.ORDER]), the first failure reported
    with its class and offset; then [STATE.TRAILING]."""
    r = Reader(data)
    r.header(rep._KIND)
    n = rep._n
    w, off = r.i32()
    if w != rep._w or w != grid.width():
        raise err("size_mismatch", off)
    h, off = r.i32()
    if h != rep._h or h != grid.height():
        raise err("size_mismatch", off)
    alg, off = r.u8()
    if alg != rep._algorithm:
        raise err("engine_mismatch", off)
    st = ReplanState()
    av, off = r.i32()
    if av < 0:
        raise err("out_of_range", off)
    st.area_version = av
    s, off = r.i32()
    if not 0 <= s < n:
        raise err("index_out_of_range", off)
    t, off = r.i32()
    if not 0 <= t < n:
        raise err("index_out_of_range", off)
    st.start, st.goal = s, t
    nc, off = r.i32()
    if nc != n:
        raise err("size_mismatch", off)
    mode, off = r.u8()
    if mode > 1:
        raise err("out_of_range", off)
    if mode != rep._mode:
        raise err("engine_mismatch", off)
    s2, off = r.i32()
    if s2 != s:
        raise err("out_of_range", off)
    t2, off = r.i32()
    if t2 != t:
        raise err("out_of_range", off)
    init, _ = r.flag()
    found, off = r.flag()
    if found and not init:
        raise err("out_of_range", off)
    st.initialized, st.found = init, found
    it, off = _i64(r)
    if it < 0:
        raise err("out_of_range", off)
    ex, off = _i64(r)
    if ex < 0 or ex > it:
        raise err("out_of_range", off)
    le, off = r.i32()
    if le < 0 or le > ex:
        raise err("out_of_range", off)
    st.iterations, st.expanded, st.last_expanded = it, ex, le
    st.km, st.overflow, st.pending, st.planned, st.queue = 0.0, False, [], [], []
    if init:
        km, _, off = r.f64()
        if not (km >= 0.0 and km < INF):
            raise err("out_of_range", off)
        if mode == 0 and km != 0.0:
            raise err("out_of_range", off)
        st.km = km
        ov, _ = r.flag()
        st.overflow = ov
        pc, off = r.i32()
        if pc < 0 or pc > rep._limit or pc > r.left() // 4 or (ov and pc != 0):
            raise err("count_out_of_range", off)
        # Counts were checked against the bytes left, so each list is present in full: read it
        # in one unpack and check its fields in byte order, offsets computed.
        base = r.pos
        pending = list(struct.unpack_from("<%di" % pc, r.data, base)) if pc else []
        for i, e in enumerate(pending):
            c = ~e if e < 0 else e
            if c >= n:
                raise err("index_out_of_range", base + 4 * i)
        r.pos = base + 4 * pc
        st.pending = pending
        plc, off = r.i32()
        if plc < 0 or plc > n or plc > r.left() // 20:
            raise err("count_out_of_range", off)
        planned = []
        member = set()
        prev = -1
        base = r.pos
        for i, (c, gv, rv) in enumerate(struct.iter_unpack("<idd", r.data[base:base + 20 * plc])):
            off = base + 20 * i
            if not 0 <= c < n:
                raise err("index_out_of_range", off)
            if c <= prev:
                raise err("not_increasing", off)
            prev = c
            if gv != gv:
                raise err("nan", off + 4)
            if not gv >= 0.0:
                raise err("out_of_range", off + 4)
            if rv != rv:
                raise err("nan", off + 12)
            if not rv >= 0.0:
                raise err("out_of_range", off + 12)
            if gv == INF and rv == INF:
                raise err("out_of_range", off + 12)
            planned.append((c, gv, rv))
            member.add(c)
        r.pos = base + 20 * plc
        st.planned = planned
        qc, off = r.i32()
        if qc < 0 or qc > plc or qc > r.left() // 20:
            raise err("count_out_of_range", off)
        queue = []
        seen = set()
        base = r.pos
        for i, (u, k1, k2) in enumerate(struct.iter_unpack("<idd", r.data[base:base + 20 * qc])):
            off = base + 20 * i
            if u not in member:
                raise err("bad_heap_node", off)
            if u in seen:
                raise err("duplicate_node", off)
            seen.add(u)
            if k1 != k1:
                raise err("nan", off + 4)
            if k2 != k2:
                raise err("nan", off + 12)
            queue.append((u, k1, k2))
        r.pos = base + 20 * qc
        for i in range(1, qc):
            a = queue[i]
            p = queue[(i - 1) >> 1]
            if entry_precedes(a[0], a[1], a[2], p[0], p[1], p[2]):
                raise err("heap_order", base + 20 * i)
        st.queue = queue
    r.end()
    return st


def install(rep, grid, st):
    """[REPLAN.STATE.RESTORE] Install the saved values (unlisted cells at +inf), pending entries,
    flags, km and counters; start, goal and area version from the bytes; read the scale, record
    the grid's restore count; empty the recorded list."""
    from .replan_engine import _scale
    rep._body = None
    rep._reset_values()
    g, rhs = rep._g, rep._rhs
    touched = rep._touched
    for c, gv, rv in st.planned:
        g[c] = gv
        rhs[c] = rv
        touched.add(c)
    rep._q.install(st.queue)
    rep._km = st.km
    rep._overflow = st.overflow
    rep._pending = list(st.pending)
    rep._init = st.initialized
    rep._found = st.found
    rep._iterations = st.iterations
    rep._expanded = st.expanded
    rep._last_expanded = st.last_expanded
    rep._start, rep._goal = st.start, st.goal
    rep._area_version = st.area_version
    # (rep._mult is not set here: replan and path read the grid's multipliers in _bind first)
    rep._scale = _scale(grid._mult)
    rep._restore_count = grid.restore_count()
    rep._expansions = []
    rep._kinds = []                   # [DEBUG.REPLAN.KINDS] emptied with the recorded list
