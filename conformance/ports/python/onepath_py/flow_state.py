"""Flow-field state bytes, kind 7 (spec/flow-fields.md §6).

Clauses: [FLOW.STATE.HEADER] [FLOW.STATE.SEARCH] [FLOW.STATE.HEADER_CHECKS]
[FLOW.STATE.SEARCH_CHECKS] [FLOW.STATE.STRUCTURAL] [FLOW.STATE.SAVE] [FLOW.STATE.RESTORE]
[FLOW.RUN.SETTLED] [STATE.HEADER] [STATE.KINDS] [STATE.LE] [STATE.FLAG] [STATE.NAN]
[STATE.COUNT] [STATE.ORDER] [STATE.HEAP] [STATE.HEAP.VALID] [STATE.TRAILING] [STATE.BOUNDED].

``parse`` validates the whole input against the restoring field and the grid and returns a plain
record without touching anything; ``install`` applies it.  (Unlike the grid kinds, a failed
restore does change the field: the caller resets it to not started and unusable,
[FLOW.STATE.UNUSABLE].)
"""

import struct
from itertools import compress

from .flow_heap import first_heap_violation
from .grid_state import Reader, err, header

INF = float("inf")
I32_MAX = (1 << 31) - 1
KIND = 7


def save(f):
    """[FLOW.STATE.HEADER] [FLOW.STATE.SEARCH] [FLOW.STATE.SAVE] Canonical bytes; settled clamped
    at 2^31 - 1 ([FLOW.RUN.SETTLED])."""
    n = f._n
    cost, nxt = f._cost, f._next
    goals, pend, gset = f._goals, f._pending, f._goal_set
    parts = [header(KIND), struct.pack("<iiii", f._w, f._h, f._area_version, len(goals))]
    if goals:
        parts.append(struct.pack("<%di" % len(goals), *goals))
    parts.append(struct.pack("<i", len(pend)))
    if pend:
        parts.append(struct.pack("<%di" % len(pend), *pend))
    parts.append(struct.pack("<iBiBi", n, f._status, min(f._settled, I32_MAX),
                             1 if f._repairing else 0, len(gset)))
    if gset:
        parts.append(struct.pack("<%di" % len(gset), *gset))
    reached = list(compress(range(n), map(INF.__gt__, cost)))
    parts.append(struct.pack("<i", len(reached)))
    if reached:
        flat = [None] * (2 * len(reached))
        flat[0::2] = reached
        flat[1::2] = [cost[c] for c in reached]
        parts.append(struct.pack("<" + "id" * len(reached), *flat))
    steps = list(compress(range(n), map((-1).__lt__, nxt)))
    parts.append(struct.pack("<i", len(steps)))
    if steps:
        flat = [None] * (2 * len(steps))
        flat[0::2] = steps
        flat[1::2] = [nxt[c] for c in steps]
        parts.append(struct.pack("<%di" % (2 * len(steps)), *flat))
    h = f._heap
    qn = len(h.node)
    parts.append(struct.pack("<i", qn))
    if qn:
        flat = [None] * (3 * qn)
        flat[0::3] = h.node
        flat[1::3] = h.f
        flat[2::3] = h.g
        parts.append(struct.pack("<" + "idd" * qn, *flat))
    if f._repairing:
        t = f._touched
        parts.append(struct.pack("<i", len(t)))
        if t:
            parts.append(struct.pack("<%di" % len(t), *t))
    return b"".join(parts)


class FlowState(object):
    """A validated kind-7 state."""
    __slots__ = ("area_version", "pending", "status", "settled", "repairing", "reached", "steps",
                 "open", "touched")


def parse(f, grid, data):
    """[FLOW.STATE.HEADER_CHECKS] [FLOW.STATE.SEARCH_CHECKS] Every check in byte order
    ([STATE.ORDER]), the first failure reported with its class and offset; then
    [STATE.TRAILING]."""
    r = Reader(data)
    r.header(KIND)
    n = f._n
    st = FlowState()
    w, off = r.i32()
    if w != f._w or w != grid.width():
        raise err("size_mismatch", off)
    h, off = r.i32()
    if h != f._h or h != grid.height():
        raise err("size_mismatch", off)
    av, off = r.i32()
    if av < 0:
        raise err("out_of_range", off)
    st.area_version = av
    gc, off = r.i32()
    if gc != len(f._goals):
        raise err("goal_mismatch", off)
    for g in f._goals:
        v, off = r.i32()
        if v != g:
            raise err("goal_mismatch", off)
    pc, off = r.i32()
    if pc < 0 or pc > n or pc > r.left() // 4:
        raise err("count_out_of_range", off)
    pending = []
    seen = set()
    for _ in range(pc):
        c, off = r.i32()
        if not 0 <= c < n:
            raise err("index_out_of_range", off)
        if c in seen:
            raise err("duplicate_node", off)
        seen.add(c)
        pending.append(c)
    st.pending = pending
    # the flow field search
    nc, off = r.i32()
    if nc != n:
        raise err("size_mismatch", off)
    status, off = r.u8()
    if status > 2:
        raise err("out_of_range", off)
    st.status = status
    settled, off = r.i32()
    if settled < 0 or (status == 0 and settled != 0):
        raise err("out_of_range", off)
    st.settled = settled
    repairing, off = r.flag()
    if repairing and status != 1:
        raise err("out_of_range", off)
    st.repairing = repairing
    gsc, off = r.i32()
    gset = f._goal_set
    if gsc != len(gset):
        raise err("goal_mismatch", off)
    prev = -1
    for g in gset:
        v, off = r.i32()
        if not 0 <= v < n:
            raise err("index_out_of_range", off)
        if v <= prev:
            raise err("not_increasing", off)
        prev = v
        if v != g:
            raise err("goal_mismatch", off)
    # Counts were checked against the bytes left, so each list below is present in full: it is
    # unpacked at once and its fields checked in byte order, offsets computed.
    data = r.data
    rc, off = r.i32()
    if rc < 0 or rc > n or rc > r.left() // 12 or (status == 0 and rc != 0):
        raise err("count_out_of_range", off)
    base = r.pos
    reached = {}
    order = list(struct.iter_unpack("<id", data[base:base + 12 * rc])) if rc else []
    prev = -1
    for i, (c, x) in enumerate(order):
        off = base + 12 * i
        if not 0 <= c < n:
            raise err("index_out_of_range", off)
        if c <= prev:
            raise err("not_increasing", off)
        prev = c
        if x != x:
            raise err("nan", off + 4)
        if not (x >= 0.0 and x < INF):
            raise err("out_of_range", off + 4)
        reached[c] = x
    r.pos = base + 12 * rc
    st.reached = order
    sc, off = r.i32()
    if sc < 0 or sc > rc or sc > r.left() // 8:
        raise err("count_out_of_range", off)
    base = r.pos
    steps = list(struct.iter_unpack("<ii", data[base:base + 8 * sc])) if sc else []
    prev = -1
    for i, (c, v) in enumerate(steps):
        off = base + 8 * i
        if not 0 <= c < n:
            raise err("index_out_of_range", off)
        if c <= prev:
            raise err("not_increasing", off)
        prev = c
        if c not in reached:
            raise err("bad_parent", off)
        if not 0 <= v < n:
            raise err("index_out_of_range", off + 4)
        if v not in reached or not reached[v] <= reached[c]:
            raise err("bad_parent", off + 4)
    r.pos = base + 8 * sc
    st.steps = steps
    oc, off = r.i32()
    if oc < 0 or oc > rc or oc > r.left() // 20 or (status != 1 and oc != 0):
        raise err("count_out_of_range", off)
    base = r.pos
    entries = list(struct.iter_unpack("<idd", data[base:base + 20 * oc])) if oc else []
    seen = set()
    for i, (u, fu, gu) in enumerate(entries):
        off = base + 20 * i
        if u not in reached:
            raise err("bad_heap_node", off)
        if u in seen:
            raise err("duplicate_node", off)
        seen.add(u)
        if fu != fu:
            raise err("nan", off + 4)
        if gu != gu:
            raise err("nan", off + 12)
    r.pos = base + 20 * oc
    bad = first_heap_violation(entries)
    if bad is not None:
        raise err("heap_order", base + 20 * bad)
    st.open = entries
    touched = []
    if repairing:
        tc, off = r.i32()
        if tc < 0 or tc > n or tc > r.left() // 4:
            raise err("count_out_of_range", off)
        seen = set()
        for _ in range(tc):
            c, off = r.i32()
            if not 0 <= c < n:
                raise err("index_out_of_range", off)
            if c in seen:
                raise err("duplicate_node", off)
            seen.add(c)
            touched.append(c)
    st.touched = touched
    r.end()
    return st


def install(f, grid, st):
    """[FLOW.STATE.RESTORE] Every saved value (unlisted cells: +inf, no step), the saved area
    version, the grid's restore count, usable."""
    f._reset_not_started(grid)
    cost, nxt = f._cost, f._next
    for c, x in st.reached:
        cost[c] = x
    for c, v in st.steps:
        nxt[c] = v
    f._heap.install(st.open)
    for c in st.pending:
        f._pending.append(c)
        f._pending_set.add(c)
    for c in st.touched:
        f._touch(c)
    f._status = st.status
    f._settled = st.settled
    f._repairing = st.repairing
    f._area_version = st.area_version
    f._restore_count = grid.restore_count()
    f._usable = True
