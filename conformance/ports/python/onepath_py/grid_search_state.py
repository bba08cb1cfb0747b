"""Save-side state bytes of the grid searches: [GS.STATE.SEARCHES] kinds 8, 9, 10 and
[GS.STATE.HEADER12] / [GS.STATE.MODE1] / [GS.STATE.MODE3] payloads of kind 12."""

import struct

from .astar import SearchStatus
from .grid_search_engines import INF

_MAGIC = 0x5347504F
_NAN_BITS = 0x7FF8000000000000


def _clamp(c):
    """[STATE.SEARCH.WIDE]"""
    return c if c <= 2 ** 31 - 1 else 2 ** 31 - 1


def state_header(kind):
    """[STATE.HEADER]"""
    return struct.pack("<IHH", _MAGIC, 1, kind)


def _save_generic(e, kind, weight, start_field):
    """[GS.STATE.SEARCHES] [STATE.SEARCH] kinds 8 and 9 (kind 9 writes start -1)."""
    st = int(e._status)
    parts = [state_header(kind), struct.pack("<iBd", e.ctx.n, st, weight)]
    if st == 0:
        parts.append(struct.pack("<iiiid", -1, -1, 0, 0, INF))
        return b"".join(parts)
    cost = e.path_cost()
    if e._restored_cost is not None and st == 2:
        cost = e._restored_cost   # [STATE.STABLE] e.g. -0.0 accepted against g[goal] 0.0 (IEEE equality)
    parts.append(struct.pack("<iiiid", start_field, e._goal, _clamp(e._expanded), _clamp(e._iterations),
                             cost))
    g = e._g
    visited = [v for v in range(e.ctx.n) if g[v] != INF]
    parts.append(struct.pack("<i", len(visited)))
    for v in visited:
        parts.append(struct.pack("<iBdi", v, 1 if e._closed[v] else 0, g[v], e._parent[v]))
    heap = e._open.entries()
    parts.append(struct.pack("<i", len(heap)))
    for node, f, gg in heap:
        parts.append(struct.pack("<idd", node, f, gg))
    rec = e._recorded
    parts.append(struct.pack("<i", len(rec)))
    parts.append(struct.pack("<%di" % len(rec), *rec))
    return b"".join(parts)


def save_kind8(e):
    """[GS.STATE.SEARCHES] kind 8: weight is the heuristic_weight option."""
    return _save_generic(e, 8, e.ctx.weight, e._start)


def save_kind9(e):
    """[GS.STATE.SEARCHES] kind 9: weight 1.0, start -1."""
    return _save_generic(e, 9, 1.0, -1)


def save_kind10(e):
    """[GS.STATE.SEARCHES] kind 10: weight is the heuristic_weight option, start -1."""
    return _save_generic(e, 10, e.ctx.weight, -1)


def _fixed_fields(e, zero):
    """[GS.STATE.MODE1] [GS.STATE.WRITE] status .. pathB."""
    if e._status == SearchStatus.Found:
        pa, pb = e._ga[e._goal], e._gb[e._goal]
    else:
        pa = pb = -1
    return struct.pack("<BBiiiiii", int(e._status), 1 if zero else 0, e._start, e._goal,
                       _clamp(e._expanded), _clamp(e._iterations), pa, pb)


def save_mode1(e):
    """[GS.STATE.MODE1] payload after the kind-12 header fields."""
    parts = [_fixed_fields(e, e.zero)]
    visited = [v for v in range(e.ctx.n) if e._ga[v] >= 0]
    parts.append(struct.pack("<i", len(visited)))
    for v in visited:
        d = e._dir[v]   # [GS.STATE.MODE1.CHECKS] the start's direction bits are saved back as read (0 after begin)
        flags = (1 if e._closed[v] else 0) | (d << 1)
        parts.append(struct.pack("<iiiB", v, e._ga[v], e._gb[v], flags))
    return b"".join(parts)


def save_mode3(e):
    """[GS.STATE.MODE3] payload after the kind-12 header fields."""
    parts = [struct.pack("<B", e.finder_id), _fixed_fields(e, False)]
    visited = [v for v in range(e.ctx.n) if e._ga[v] >= 0]
    parts.append(struct.pack("<i", len(visited)))
    for v in visited:
        flags = (1 if e._closed[v] else 0) | (e._dir[v] << 1)
        parts.append(struct.pack("<iiiiB", v, e._ga[v], e._gb[v], e._parent[v], flags))
    lvl = e._level
    if lvl != lvl:
        parts.append(struct.pack("<Q", _NAN_BITS))
    else:
        parts.append(struct.pack("<d", lvl))
    parts.append(struct.pack("<i", len(e._heap.a)))
    for F, T in e._heap.a:
        parts.append(struct.pack("<dQ", F, T))
    parts.append(struct.pack("<i", len(e._stack)))
    for c in e._stack:
        parts.append(struct.pack("<i", c))
    return b"".join(parts)
