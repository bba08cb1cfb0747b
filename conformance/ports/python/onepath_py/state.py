"""Snapshot / restore byte format v1 for kinds 4 (Graph) and 11 (GraphAStar): [STATE.*]."""

import math
import struct

from . import errors
from .csr import MAX_NODES
from .open_set import first_heap_violation

INF = math.inf
MAGIC = 0x5347504F          # [STATE.HEADER] bytes 4F 50 47 53 "OPGS"
VERSION = 1
KIND_GRAPH = 4              # [STATE.KINDS]
KIND_GRAPH_ASTAR = 11
I32_MAX = (1 << 31) - 1
SIGN = 1 << 63

VISITED_ENTRY = 17          # [STATE.BUFFERS] i32 node, u8 closed, f64 g, i32 parent
HEAP_ENTRY = 20             # [STATE.HEAP] i32 node, f64 f, f64 g


def _err(cls, off):
    """[STATE.ERRORS] A GraphStateError of class ``cls`` at byte ``off``."""
    return errors.state_error(cls, off)


class _Reader(object):
    """[STATE.LE] [STATE.ORDER] Little-endian reader; a shortfall is ``truncated`` at the input length."""

    def __init__(self, data):
        """[STATE.ORDER] Read from offset 0."""
        self.data = bytes(data)
        self.pos = 0

    def left(self):
        """[STATE.ORDER] Bytes left after the current position."""
        return len(self.data) - self.pos

    def _take(self, fmt, size):
        """[STATE.ORDER] Read one field; returns (value, its offset)."""
        off = self.pos
        if off + size > len(self.data):
            raise _err("truncated", len(self.data))
        self.pos = off + size
        return struct.unpack_from(fmt, self.data, off)[0], off

    def u8(self):
        """[STATE.LE] u8."""
        return self._take("<B", 1)

    def u16(self):
        """[STATE.LE] u16."""
        return self._take("<H", 2)

    def u32(self):
        """[STATE.LE] u32."""
        return self._take("<I", 4)

    def i32(self):
        """[STATE.LE] i32 (signed)."""
        return self._take("<i", 4)

    def f64(self):
        """[STATE.LE] [STATE.NAN] f64 by bit pattern; NaN (any pattern) is ``nan`` at the field."""
        bits, off = self._take("<Q", 8)
        x = struct.unpack("<d", struct.pack("<Q", bits))[0]
        if x != x:
            raise _err("nan", off)
        return x, bits, off

    def flag(self):
        """[STATE.FLAG] u8 0 or 1, else ``bad_flag``."""
        v, off = self.u8()
        if v > 1:
            raise _err("bad_flag", off)
        return v == 1, off

    def header(self, kind):
        """[STATE.HEADER] [STATE.KINDS] magic (bad_magic 0), version (unsupported_version 4), kind (wrong_kind 6).

        GUESS ([STATE.ORDER] vs [GRAPH.OPLM.CHECKS]): each header field is checked as soon as
        it is read, so 4 bytes with a wrong magic give ``bad_magic`` and not ``truncated``.
        """
        m, _ = self.u32()
        if m != MAGIC:
            raise _err("bad_magic", 0)
        v, _ = self.u16()
        if v != VERSION:
            raise _err("unsupported_version", 4)
        k, _ = self.u16()
        if k != kind:
            raise _err("wrong_kind", 6)

    def count(self, lo, hi, entry_size):
        """[STATE.COUNT] [STATE.ORDER] i32 count in lo..=hi and <= bytes left // entry_size (count_out_of_range)."""
        c, off = self.i32()
        if c < lo or c > hi or (entry_size and c > self.left() // entry_size):
            raise _err("count_out_of_range", off)
        return c, off

    def end(self):
        """[STATE.TRAILING] Nothing may follow the payload (trailing_bytes at the first extra byte)."""
        if self.pos != len(self.data):
            raise _err("trailing_bytes", self.pos)


def _header(kind):
    """[STATE.HEADER] 8 header bytes."""
    return struct.pack("<IHH", MAGIC, VERSION, kind)


# ------------------------------------------------------------------ kind 4

def save_graph(n, fr, to, w, alive):
    """[STATE.GRAPH] i32 node_count, i32 edge_count, per edge in id order i32 from, i32 to, f64 weight, u8 alive."""
    parts = [_header(KIND_GRAPH), struct.pack("<ii", n, len(fr))]
    pack = struct.Struct("<iidB").pack
    for i in range(len(fr)):
        parts.append(pack(fr[i], to[i], w[i], 1 if alive[i] else 0))
    return b"".join(parts)


def parse_graph(data):
    """[STATE.GRAPH] [STATE.ORDER] [STATE.BOUNDED] Validate kind-4 bytes; returns (n, from, to, weight, alive).

    Nothing is allocated per node, so 2^26 nodes with no edges costs nothing.
    GUESS: node_count outside 0..=2^26 is ``count_out_of_range`` ([STATE.COUNT]).
    """
    r = _Reader(data)
    r.header(KIND_GRAPH)
    n, _ = r.count(0, MAX_NODES, 0)
    m, _ = r.count(0, I32_MAX, 17)
    fr, to, w, alive = [], [], [], []
    for _ in range(m):
        a, off = r.i32()
        if not 0 <= a < n:
            raise _err("index_out_of_range", off)
        b, off = r.i32()
        if not 0 <= b < n:
            raise _err("index_out_of_range", off)
        x, bits, off = r.f64()
        if x == INF or bits & SIGN:
            raise _err("out_of_range", off)
        live, _ = r.flag()
        fr.append(a)
        to.append(b)
        w.append(x)
        alive.append(live)
    r.end()
    return n, fr, to, w, alive


# ------------------------------------------------------------------ kind 11

def _clamp(c):
    """[STATE.SEARCH.WIDE] Counters above 2^31 - 1 are written as 2^31 - 1."""
    return c if c <= I32_MAX else I32_MAX


def save_search(n, status, start, goal, expanded, iterations, path_cost, g, parent, closed,
                heap_entries, recorded):
    """[STATE.SEARCH] [STATE.SEARCH.FIELDS] [STATE.BUFFERS] [STATE.HEAP] Kind-11 bytes.

    ``status`` is the int of [GRAPH.ASTAR.STATUS]; visited = nodes with a finite g.
    """
    parts = [_header(KIND_GRAPH_ASTAR), struct.pack("<iBd", n, status, 1.0)]
    if status == 0:
        parts.append(struct.pack("<iiiid", -1, -1, 0, 0, INF))
        return b"".join(parts)
    parts.append(struct.pack("<iiiid", start, goal, _clamp(expanded), _clamp(iterations),
                             path_cost if status == 2 else INF))
    visited = [v for v in range(n) if g[v] != INF]
    parts.append(struct.pack("<i", len(visited)))
    vpack = struct.Struct("<iBdi").pack
    for v in visited:
        parts.append(vpack(v, 1 if closed[v] else 0, g[v], parent[v]))
    parts.append(struct.pack("<i", len(heap_entries)))
    hpack = struct.Struct("<idd").pack
    for node, f, gg in heap_entries:
        parts.append(hpack(node, f, gg))
    parts.append(struct.pack("<i", len(recorded)))
    parts.append(struct.pack("<%di" % len(recorded), *recorded))
    return b"".join(parts)


class SearchState(object):
    """[STATE.SEARCH.RESTORE] A validated kind-11 state, ready to install."""

    __slots__ = ("status", "start", "goal", "expanded", "iterations", "path_cost",
                 "visited", "heap", "recorded")


def parse_search(data, n, weight=1.0):
    """[STATE.SEARCH] [STATE.SEARCH.CHECKS] [STATE.SEARCH.BASE_CHECKS] [STATE.ORDER] Validate kind-11 bytes against a search over ``n`` nodes.

    Returns a SearchState; ``visited`` is a list of (node, closed, g, parent).
    Guesses (see the report): node range before ``not_increasing``; a Found path cost
    must be finite and >= 0 at its field; the two ``bad_parent`` rules are separate passes.
    """
    r = _Reader(data)
    r.header(KIND_GRAPH_ASTAR)
    nodes, off = r.i32()
    if nodes != n:
        raise _err("size_mismatch", off)
    status, off = r.u8()
    if status > 3:
        raise _err("out_of_range", off)
    w, _, off = r.f64()
    if w != weight:
        raise _err("size_mismatch", off)
    not_started = status == 0
    ends = []
    for _ in range(2):
        x, off = r.i32()
        if (x != -1) if not_started else not (0 <= x < n):
            raise _err("index_out_of_range", off)
        ends.append(x)
    start, goal = ends
    expanded, off = r.i32()
    if expanded < 0 or (not_started and expanded != 0):
        raise _err("out_of_range", off)
    iterations, off = r.i32()
    if iterations < 0 or expanded > iterations or (not_started and iterations != 0):
        raise _err("out_of_range", off)
    cost, _, cost_off = r.f64()
    if status == 2:
        if not (cost != INF and cost >= 0.0):
            raise _err("out_of_range", cost_off)
    elif cost != INF:
        raise _err("out_of_range", cost_off)
    st = SearchState()
    st.status, st.start, st.goal = status, start, goal
    st.expanded, st.iterations, st.path_cost = expanded, iterations, cost
    st.visited, st.heap, st.recorded = [], [], []
    if not_started:
        r.end()
        return st

    # [STATE.BUFFERS] [STATE.VISITED]
    vcount, _ = r.count(0, n, VISITED_ENTRY)
    visited = st.visited
    index = {}           # node -> position in ``visited``
    voff = []            # offset of each visited entry's node field
    prev = -1
    for _ in range(vcount):
        v, off = r.i32()
        if not 0 <= v < n:
            raise _err("index_out_of_range", off)
        if v <= prev:
            raise _err("not_increasing", off)
        prev = v
        closed, _ = r.flag()
        gv, _, goff = r.f64()
        if gv == INF or gv < 0.0:
            raise _err("out_of_range", goff)
        p, poff = r.i32()
        if p != -1 and not 0 <= p < n:
            raise _err("index_out_of_range", poff)
        index[v] = len(visited)
        visited.append((v, closed, gv, p))
        voff.append(off)

    # [STATE.HEAP]
    hcount, _ = r.count(0, vcount, HEAP_ENTRY)
    heap = st.heap
    hoff = []
    in_heap = set()
    for _ in range(hcount):
        v, off = r.i32()
        i = index.get(v) if 0 <= v < n else None
        if i is None or visited[i][1]:
            raise _err("bad_heap_node", off)
        if v in in_heap:
            raise _err("duplicate_node", off)
        in_heap.add(v)
        f, _, _ = r.f64()
        gh, ghbits, ghoff = r.f64()
        if ghbits != struct.unpack("<Q", struct.pack("<d", visited[i][2]))[0]:   # bit-equal ([STATE.SEARCH.CHECKS])
            raise _err("out_of_range", ghoff)
        heap.append((v, f, gh))
        hoff.append(off)
    bad = first_heap_violation(heap)
    if bad is not None:
        raise _err("heap_order", hoff[bad])

    # recorded expansion list
    rcount, _ = r.count(0, expanded, 4)
    for _ in range(rcount):
        v, off = r.i32()
        i = index.get(v) if 0 <= v < n else None
        if i is None:       # a visited node; it may have been reopened since its expansion
            raise _err("bad_heap_node", off)
        st.recorded.append(v)

    # cross checks, separate passes in the listed order
    for k, (v, closed, _, _) in enumerate(visited):
        if not closed and v not in in_heap:
            raise _err("missing_open_node", voff[k])
    for k, (v, _, gv, p) in enumerate(visited):
        if (p == -1) != (v == start) or (v == start and gv != 0.0):
            raise _err("bad_parent", voff[k])
    for k, (v, _, gv, p) in enumerate(visited):
        if p != -1:
            j = index.get(p)
            if j is None or visited[j][2] > gv:
                raise _err("bad_parent", voff[k])
    color = [0] * len(visited)
    for k in range(len(visited)):
        if color[k]:
            continue
        walk = []
        j = k
        while j is not None and color[j] == 0:
            color[j] = 1
            walk.append(j)
            p = visited[j][3]
            j = index[p] if p != -1 else None
        if j is not None and color[j] == 1:
            cyc = walk[walk.index(j):]
            smallest = min(cyc, key=lambda q: visited[q][0])
            raise _err("parent_cycle", voff[smallest])
        for q in walk:
            color[q] = 2
    if status == 2:
        j = index.get(goal)
        if j is None:
            raise _err("out_of_range", cost_off)
        if not visited[j][1] or visited[j][2] != cost:
            raise _err("out_of_range", voff[j])
    r.end()
    return st
