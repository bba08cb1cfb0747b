"""Restore side of the grid-search states: kinds 8 (AStar), 9 (JumpSearch), 10 (ThetaSearch) and
12 (GridSearch, modes 0-3), written from spec/grid-search.md §10 and spec/state.md §8.

Clauses: [GS.STATE.SEARCHES] [GS.STATE.FAILED] [GS.STATE.HEADER12] [GS.STATE.MODE1]
[GS.STATE.MODE1.CHECKS] [GS.STATE.MODE2] [GS.STATE.MODE3] [GS.STATE.MODE3.CHECKS]
[GS.STATE.WRITE] [GS.STATE.RESTORE] [GS.HANDLE.RECORD] [STATE.SEARCH] [STATE.SEARCH.CHECKS]
[STATE.SEARCH.RECORD] [STATE.BUFFERS] [STATE.VISITED] [STATE.HEAP] [STATE.HEAP.VALID]
[STATE.ORDER].  Every parse validates the whole input before anything is installed; the caller
resets the search to "newly created" on any error ([GS.STATE.FAILED]).
"""

import math
import struct

from .astar import SearchStatus
from .grid_state import Reader, err
from .open_set import first_heap_violation

INF = math.inf
VISITED_ENTRY = 17      # [STATE.BUFFERS] i32 node, u8 closed, f64 g, i32 parent
HEAP_ENTRY = 20         # [STATE.HEAP] i32 node, f64 f, f64 g
NAN_BITS = 0x7FF8000000000000
# [GS.DIR] neighbour order N, E, S, W, NE, SE, SW, NW (= the mode-1 / mode-3 direction codes)
DIRS = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))


class GenericState(object):
    """A validated kind 8 / 9 / 10 state (visited: list of (node, closed, g, parent))."""
    __slots__ = ("kind", "status", "start", "goal", "expanded", "iterations", "path_cost",
                 "visited", "heap", "recorded", "start_off", "goal_off", "status_off")


def parse_generic(r, kind, n, weight):
    """[STATE.SEARCH] [STATE.SEARCH.CHECKS] [GS.STATE.SEARCHES] fields after the header of kind 8/9/10.

    Kinds 9 and 10 require start -1.
    """
    start_free = kind in (9, 10)
    nodes, off = r.i32()
    if nodes != n:
        raise err("size_mismatch", off)
    status, off = r.u8()
    status_off = off
    if status > 3:
        raise err("out_of_range", off)
    w, _, off = r.f64()
    if w != weight:
        raise err("size_mismatch", off)
    ns = status == 0
    st = GenericState()
    st.kind = kind
    st.status_off = status_off
    x, off = r.i32()
    st.start_off = off
    if (x != -1) if (ns or start_free) else not (0 <= x < n):
        raise err("index_out_of_range", off)
    start = x
    x, off = r.i32()
    st.goal_off = off
    if (x != -1) if ns else not (0 <= x < n):
        raise err("index_out_of_range", off)
    goal = x
    expanded, off = r.i32()
    if expanded < 0 or (ns and expanded != 0):
        raise err("out_of_range", off)
    iterations, off = r.i32()
    if iterations < 0 or expanded > iterations or (ns and iterations != 0):
        raise err("out_of_range", off)
    cost, _, cost_off = r.f64()
    if status == 2:
        if not (cost != INF and cost >= 0.0):
            raise err("out_of_range", cost_off)
    elif cost != INF:
        raise err("out_of_range", cost_off)
    st.status, st.start, st.goal = status, start, goal
    st.expanded, st.iterations, st.path_cost = expanded, iterations, cost
    st.visited, st.heap, st.recorded = [], [], []
    if ns:
        r.end()
        return st

    # [STATE.BUFFERS] [STATE.VISITED]: range before order
    vcount = _count(r, n, VISITED_ENTRY)
    visited = st.visited
    index = {}
    voff = []
    prev = -1
    for _ in range(vcount):
        v, off = r.i32()
        if not 0 <= v < n:
            raise err("index_out_of_range", off)
        if v <= prev:
            raise err("not_increasing", off)
        prev = v
        closed, _ = r.flag()
        gv, _, goff = r.f64()
        if gv == INF or gv < 0.0:
            raise err("out_of_range", goff)
        p, poff = r.i32()
        if p != -1 and not 0 <= p < n:
            raise err("index_out_of_range", poff)
        index[v] = len(visited)
        visited.append((v, closed, gv, p))
        voff.append(off)

    # [STATE.HEAP]
    hcount = _count(r, vcount, HEAP_ENTRY)
    hoff = []
    in_heap = set()
    for _ in range(hcount):
        v, off = r.i32()
        i = index.get(v)               # index holds visited nodes only, each in 0..n-1
        if i is None or visited[i][1]:
            raise err("bad_heap_node", off)
        if v in in_heap:
            raise err("duplicate_node", off)
        in_heap.add(v)
        f, _, _ = r.f64()
        gh, ghbits, ghoff = r.f64()
        if ghbits != _bits(visited[i][2]):
            raise err("out_of_range", ghoff)   # bit-equal to the visited g
        st.heap.append((v, f, gh))
        hoff.append(off)
    bad = first_heap_violation(st.heap)
    if bad is not None:
        raise err("heap_order", hoff[bad])      # [STATE.HEAP.VALID]

    # recorded expansion list
    rcount = _count(r, expanded, 4)
    for _ in range(rcount):
        v, off = r.i32()
        if v not in index:             # index holds visited nodes only, each in 0..n-1
            raise err("bad_heap_node", off)
        st.recorded.append(v)

    # cross checks: five passes in this order ([STATE.SEARCH.CHECKS])
    for k, (v, closed, _, _) in enumerate(visited):
        if not closed and v not in in_heap:
            raise err("missing_open_node", voff[k])
    for k, (v, _, gv, p) in enumerate(visited):
        if start_free:   # [GS.STATE.SEARCHES] kinds 9, 10: parent -1 means g 0
            if p == -1 and gv != 0.0:
                raise err("bad_parent", voff[k])
        elif (p == -1) != (v == start) or (v == start and gv != 0.0):
            raise err("bad_parent", voff[k])
    for k, (v, _, gv, p) in enumerate(visited):
        if p != -1:
            j = index.get(p)
            if j is None or visited[j][2] > gv:
                raise err("bad_parent", voff[k])
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
            raise err("parent_cycle", voff[min(cyc, key=lambda q: visited[q][0])])
        for q in walk:
            color[q] = 2
    if status == 2:
        j = index.get(goal)
        if j is None:
            raise err("out_of_range", cost_off)
        if not visited[j][1] or visited[j][2] != cost:
            raise err("out_of_range", voff[j])
    r.end()
    return st


def _bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _count(r, hi, entry):
    """[STATE.COUNT] [STATE.ORDER] i32 count in 0..=hi and <= bytes left // entry."""
    c, off = r.i32()
    if c < 0 or c > hi or c > r.left() // entry:
        raise err("count_out_of_range", off)
    return c


def install_generic(e, st):
    """[STATE.SEARCH.RESTORE] [STATE.SEARCH.RECORD] Install into a freshly reset generic engine."""
    e._not_started()
    for v, c, gv, p in st.visited:
        e._g[v] = gv
        e._parent[v] = p
        e._closed[v] = c
    e._open.load(st.heap)
    e._recorded = list(st.recorded)
    e._iterations = st.iterations
    e._expanded = st.expanded
    e._status = SearchStatus(st.status)
    e._start = st.start
    e._goal = st.goal
    e._restored_cost = st.path_cost if st.status == 2 else None


def restore_generic(data, kind, n, weight):
    """Kinds 8 / 9 / 10 as a whole input."""
    r = Reader(data)
    r.header(kind)
    return parse_generic(r, kind, n, weight)


# ------------------------------------------------------------------ kind 12

class PairState(object):
    """A validated mode-1 / mode-3 state: finder, status, zero, start, goal, expanded, iterations,
    path (pathA, pathB), cells {cell: (a, b, parent, flags, offset)}, order, level, heap, stack."""


def _fixed(r, n, want_zero):
    """[GS.STATE.MODE1.CHECKS] status .. pathB; returns (st, offsets)."""
    st = PairState()
    status, off = r.u8()
    if not 1 <= status <= 3:
        raise err("out_of_range", off)
    zero, off = r.flag()
    if zero != want_zero:
        raise err("engine_mismatch", off)
    start, soff = r.i32()
    if not 0 <= start < n:
        raise err("index_out_of_range", soff)
    goal, off = r.i32()
    if not 0 <= goal < n:
        raise err("index_out_of_range", off)
    expanded, eoff = r.i32()
    if expanded < 0:
        raise err("out_of_range", eoff)
    iterations, ioff = r.i32()
    if iterations < 0 or expanded > iterations:
        raise err("out_of_range", ioff)
    # [STATE.ORDER] each field is checked as soon as it is read: pathA before pathB is read.
    pa, paoff = r.i32()
    if (pa < 0) if status == 2 else (pa != -1):
        raise err("out_of_range", paoff)
    pb, off2 = r.i32()
    if (pb < 0) if status == 2 else (pb != -1):
        raise err("out_of_range", off2)
    st.status, st.zero, st.start, st.goal = status, zero, start, goal
    st.expanded, st.iterations, st.path = expanded, iterations, (pa, pb)
    return st, {"start": soff, "expanded": eoff, "iterations": ioff, "pathA": paoff}


def _cells(r, n, passable, entry, with_parent):
    """[GS.STATE.MODE1.CHECKS] [GS.STATE.MODE3.CHECKS] visited cells: dict cell -> [a, b, parent, flags, off]."""
    vcount = _count(r, n, entry)
    cells = {}
    order = []
    prev = -1
    for _ in range(vcount):
        c, off = r.i32()
        if not 0 <= c < n:
            raise err("index_out_of_range", off)
        if c <= prev:
            raise err("not_increasing", off)
        prev = c
        if not passable[c]:
            raise err("not_walkable", off)
        a, aoff = r.i32()
        if a < 0:
            raise err("out_of_range", aoff)
        b, boff = r.i32()
        if b < 0:
            raise err("out_of_range", boff)
        p = -1
        if with_parent:
            p, poff = r.i32()
            if p != -1 and not 0 <= p < n:
                raise err("index_out_of_range", poff)
        fl, foff = r.u8()
        if fl & 0xF0:
            raise err("bad_flag", foff)
        cells[c] = (a, b, p, fl, off)
        order.append(c)
    return cells, order


def _counters(st, cells, offs):
    """[GS.STATE.MODE1.CHECKS] (3) iterations = closed cells, expanded = iterations (- 1 when Found)."""
    closed = sum(1 for v in cells.values() if v[3] & 1)
    if st.iterations != closed:
        raise err("out_of_range", offs["iterations"])
    if st.expanded != st.iterations - (1 if st.status == 2 else 0):
        raise err("out_of_range", offs["expanded"])


def parse_mode1(r, w, n, passable, zero):
    """[GS.STATE.MODE1] [GS.STATE.MODE1.CHECKS]"""
    st, offs = _fixed(r, n, zero)
    cells, order = _cells(r, n, passable, 13, False)
    # (1) the start
    if order:
        s = cells.get(st.start)
        if s is None:
            raise err("bad_parent", offs["start"])
        if (s[0], s[1]) != (0, 0):
            raise err("bad_parent", s[4])
    # (2) parents: the cell minus its direction, visited, closed, one step below
    for c in order:
        if c == st.start:
            continue
        a, b, _, fl, off = cells[c]
        d = (fl >> 1) & 7
        dx, dy = DIRS[d]
        x, y = c % w - dx, c // w - dy
        if not (0 <= x < w and 0 <= y < n // w):
            raise err("bad_parent", off)
        pc = cells.get(y * w + x)
        if pc is None or not pc[3] & 1:
            raise err("bad_parent", off)
        want = (a - 1, b) if d < 4 else (a, b - 1)
        if (pc[0], pc[1]) != want:
            raise err("bad_parent", off)
    _counters(st, cells, offs)
    if st.status == 2:      # (4)
        g = cells.get(st.goal)
        if g is None or not g[3] & 1 or (g[0], g[1]) != st.path:
            raise err("out_of_range", offs["pathA"])
    r.end()
    st.cells, st.order = cells, order
    return st


def _sign(v):
    return (v > 0) - (v < 0)


def parse_mode3(r, w, n, passable, finder):
    """[GS.STATE.MODE3] [GS.STATE.MODE3.CHECKS]"""
    fb, off = r.u8()
    if fb > 1:
        raise err("out_of_range", off)
    if fb != finder:
        raise err("engine_mismatch", off)
    st, offs = _fixed(r, n, False)
    st.finder = fb
    cells, order = _cells(r, n, passable, 17, True)
    lvl, bits, loff = r.f64_raw()
    if lvl != lvl:
        if bits != NAN_BITS:
            raise err("nan", loff)
    elif not math.isfinite(lvl):
        raise err("out_of_range", loff)
    hcount, hcoff = r.i32()
    if hcount < 0 or hcount > r.left() // 16:
        raise err("count_out_of_range", hcoff)
    heap, foffs = [], []
    for _ in range(hcount):
        F, _, foff = r.f64()
        if not math.isfinite(F):
            raise err("out_of_range", foff)
        T, toff = r.u64()
        if (T & 0xFFFFFFFF) not in cells:
            raise err("bad_heap_node", toff)
        heap.append((F, T))
        foffs.append(foff)
    for i in range(1, len(heap)):        # [STATE.HEAP.VALID] with the (F, T) order of [GS.SJ.OPEN]
        a, b = heap[i], heap[(i - 1) // 2]
        if a[0] < b[0] or (a[0] == b[0] and a[1] < b[1]):
            raise err("heap_order", foffs[i])
    scount, scoff = r.i32()
    if scount < 0 or scount > r.left() // 4:
        raise err("count_out_of_range", scoff)
    stack = []
    for _ in range(scount):
        c, coff = r.i32()
        if c not in cells:
            raise err("bad_heap_node", coff)
        stack.append(c)
    # (1) the start, then per cell: parents present
    if order and st.start not in cells:
        raise err("bad_parent", offs["start"])
    for c in order:
        a, b, p, fl, off = cells[c]
        if c == st.start:
            if (a, b) != (0, 0) or p != -1 or (st.iterations != 0 and not fl & 1):
                raise err("bad_parent", off)
        elif p == -1:
            raise err("bad_parent", off)
    # (2) the hop parent -> cell
    for c in order:
        if c == st.start:
            continue
        a, b, p, fl, off = cells[c]
        pc = cells.get(p)
        if pc is None or not pc[3] & 1:
            raise err("bad_parent", off)
        dx, dy = c % w - p % w, c // w - p // w
        if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)) or (dx == 0 and dy == 0):
            raise err("bad_parent", off)
        lo, hi = sorted((abs(dx), abs(dy)))
        if (a - pc[0], b - pc[1]) != (hi - lo, lo):
            raise err("bad_parent", off)
        if DIRS[(fl >> 1) & 7] != (_sign(dx), _sign(dy)):
            raise err("bad_parent", off)
    _counters(st, cells, offs)      # (3)
    g = cells.get(st.goal)          # (4)
    goal_closed = g is not None and bool(g[3] & 1)
    if goal_closed != (st.status == 2) or (goal_closed and (g[0], g[1]) != st.path):
        raise err("out_of_range", offs["pathA"])
    if (lvl != lvl) != (st.iterations == 0):        # (5)
        raise err("out_of_range", loff)
    present = set(T & 0xFFFFFFFF for _, T in heap) | set(stack)
    for c in order:                                 # (6)
        if not cells[c][3] & 1 and c not in present:
            raise err("missing_open_node", cells[c][4])
    if st.status == 3 and (heap or stack):          # (7)
        raise err("out_of_range", hcoff)
    r.end()
    st.cells, st.order, st.level, st.heap, st.stack = cells, order, lvl, heap, stack
    return st


def install_pairs(e, st, mode):
    """[GS.STATE.RESTORE] [GS.HANDLE.RECORD] mode 1 rebuilds its open list by [GS.SA.ORDER]; mode 3
    installs level, heap and stack as they lie; the recorded list starts empty.  ``e`` is the
    engine ``GridSearch.restore_state`` has just created (its constructor leaves it NotStarted,
    every buffer fresh, the recorded list empty: ``_reset_common``), so nothing is reset here."""
    for c in st.order:
        a, b, p, fl, _ = st.cells[c]
        e._ga[c], e._gb[c] = a, b
        e._closed[c] = bool(fl & 1)
        e._dir[c] = (fl >> 1) & 7
        if mode == 3:
            e._parent[c] = p
    e._status = SearchStatus(st.status)
    e._start, e._goal = st.start, st.goal
    e._iterations, e._expanded = st.iterations, st.expanded
    if mode == 1:
        for c in st.order:
            if not e._closed[c]:
                e._push(c)
    else:
        e._level = st.level
        e._heap.a = list(st.heap)
        e._stack = list(st.stack)


def parse_kind12(data, handle):
    """[GS.STATE.HEADER12] then the mode's payload; returns (mode, parsed, extra)."""
    grid = handle._grid
    w, h = grid.width(), grid.height()
    n = w * h
    r = Reader(data)
    r.header(12)
    mode, moff = r.u8()
    if mode > 3:
        raise err("out_of_range", moff)
    x, off = r.i32()
    if x != w:
        raise err("size_mismatch", off)
    x, off = r.i32()
    if x != h:
        raise err("size_mismatch", off)
    if mode == 0:
        r.end()
        return 0, None, None
    sel_mode, sel_finder, sel_alg = handle.select()
    if mode != sel_mode:
        raise err("engine_mismatch", moff)
    from .grid_search_engines import ALG_DIJKSTRA, ALG_JPS, ALG_JPSPLUS, GridContext
    ctx = GridContext(grid, handle._opt)
    if mode == 1:
        return 1, parse_mode1(r, w, n, ctx.passable, sel_alg == ALG_DIJKSTRA), (ctx, sel_alg)
    if mode == 3:
        return 3, parse_mode3(r, w, n, ctx.passable, sel_finder), (ctx, sel_alg)
    # mode 2 [GS.STATE.MODE2]
    ends = []
    for lim in (w, h, w, h):
        v, off = r.i32()
        if not 0 <= v < lim:
            raise err("index_out_of_range", off)
        ends.append(v)
    length, off = r.i32()
    if length != r.left():
        raise err("count_out_of_range", off)
    want = 9 if sel_alg in (ALG_JPS, ALG_JPSPLUS) else 8
    m, _ = r.u32()
    if m != 0x5347504F:
        raise err("bad_magic", r.pos - 4)
    v, off = r.u16()
    if v != 1:
        raise err("unsupported_version", off)
    k, koff = r.u16()
    if k not in (8, 9):
        raise err("wrong_kind", koff)
    if k != want:
        raise err("engine_mismatch", koff)
    weight = float(handle._opt.heuristic_weight) if k == 8 else 1.0
    st = parse_generic(r, k, n, weight)
    # After the embedded state's own checks (trailing included): NotStarted first (engine_mismatch at
    # its status field), then kind 8's start and either kind's goal against the header's cells.
    # GUESS settled by STATE-GRIDSEARCH-0005-H0338 / -0006-H0258 (a NotStarted embedded state with a
    # start other than -1 fails index_out_of_range at the start field first) and -0006-H0277 (a
    # kind-9 goal is compared too) — see SPEC_NOTES_STATE.md.
    if st.status == 0:
        raise err("engine_mismatch", st.status_off)
    s_cell, g_cell = ends[1] * w + ends[0], ends[3] * w + ends[2]
    if k == 8 and st.start != s_cell:
        raise err("out_of_range", st.start_off)
    if st.goal != g_cell:
        raise err("out_of_range", st.goal_off)
    return 2, st, (ctx, sel_alg, k, s_cell, g_cell)
