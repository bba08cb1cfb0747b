"""World snapshots: many objects, one transactional restore, written from spec/world.md.

Clauses: [WORLD.MODEL] [WORLD.TYPES] [WORLD.ADD] [WORLD.ACCESS] [WORLD.PARKED]
[WORLD.PARKED.EDIT] [WORLD.SAVE] [WORLD.HEADER] [WORLD.MEMBER] [WORLD.NOT_SAVED] [WORLD.READ]
[WORLD.STAGE] [WORLD.ATOMIC] [WORLD.COMMIT] [WORLD.RESTORE.SAME] [WORLD.ERROR.CLASSES].

A ``World`` owns square grids (type 1) and graphs (type 4) as *roots*, and *dependents* built over
one earlier root: replanners (type 5) and flow fields (type 7) over a grid, and the *parked* sliced
searches: ``GridSearch`` handles (type 12) over a grid and ``GraphAStar`` searches (type 11, default
edge cost, zero estimate) over a graph.  A parked search is kept as its state bytes and rebuilt over
its owner on every access ([WORLD.PARKED]).

Every member saves the state kind of spec/state.md (its own ``save_state``); the world container is
``OPWS`` ([WORLD.HEADER]) followed by each member's header and bytes ([WORLD.MEMBER]).  A restore
reads the whole container, stages every member on scratch copies (so nothing changes and no listener
of the caller is called on any error, [WORLD.ATOMIC]), then commits in the order of
[WORLD.COMMIT].

Python has no borrow checker, so the shared and mutable accessors differ only in what the world
does: ``grid_mut`` and ``graph_mut`` first reset the parked searches over that root
([WORLD.PARKED.EDIT]); ``grid`` and ``graph`` do not.  A caller that edits through ``grid(i)`` breaks
the contract (as it would by editing through a reference obtained before a restore).
"""

import struct

from .astar import DefaultGraphCost, GraphAStar, ZeroGraphHeuristic
from .errors import OnePathError
from .flow_engine import GridFlowField
from .graph import Graph
from . import grid_search as gs
from .replan_engine import GridReplanner

MAGIC = 0x5357504F          # [WORLD.HEADER] bytes 4F 50 57 53, "OPWS"
VERSION = 1
HEADER_LEN = 10             # u32 magic, u16 version, i32 count
MEMBER_HEADER_LEN = 10      # u16 type, i32 owner, u32 length

TYPE_GRID = 1               # [WORLD.TYPES]
TYPE_GRAPH = 4
TYPE_REPLANNER = 5
TYPE_FLOW_FIELD = 7
TYPE_GRAPH_SEARCH = 11
TYPE_GRID_SEARCH = 12
ROOT_TYPES = (TYPE_GRID, TYPE_GRAPH)
PARKED_TYPES = (TYPE_GRAPH_SEARCH, TYPE_GRID_SEARCH)

_HEADER = struct.Struct("<IHi")
_MEMBER = struct.Struct("<HiI")


class WorldError(OnePathError):
    """[WORLD.ERROR.CLASSES] ``error_class`` is one of ``truncated``, ``bad_magic``,
    ``unsupported_version``, ``shape_mismatch``, ``trailing_bytes``, ``member``,
    ``unknown_member``, ``wrong_member_type``, ``build``, ``internal``.

    Format errors carry ``offset`` (absolute in the container); ``member`` also ``index``,
    ``member_type`` and ``state_class``; ``unknown_member`` ``index``; ``wrong_member_type``
    ``index``, ``found`` and ``expected``; ``build`` the constructor's error as ``cause``.  ``str(e)`` is ``text``: it names the class, the offset or index and,
    for ``member``, the state class (``world member 3 (type 7): bad_heap_node at byte 2211``).
    """

    def __init__(self, error_class, text, offset=None, index=None, member_type=None,
                 state_class=None, found=None, expected=None, cause=None):
        self.error_class = error_class
        self.text = text
        self.offset = offset
        self.index = index
        self.member_type = member_type
        self.state_class = state_class
        self.found = found
        self.expected = expected
        self.cause = cause
        Exception.__init__(self, text)
        self.details = {"offset": offset, "index": index}

    def __str__(self):
        return self.text


def _format_error(cls, offset):
    """[WORLD.ERROR.CLASSES] A format error of the container (not a member's)."""
    return WorldError(cls, "world: %s at byte %d" % (cls, offset), offset=offset)


def _member_error(index, mtype, state_error, base):
    """[WORLD.STAGE] A member's state error: index, type, state class, absolute offset."""
    off = base + state_error.offset
    return WorldError("member", "world member %d (type %d): %s at byte %d"
                      % (index, mtype, state_error.error_class, off),
                      offset=off, index=index, member_type=mtype,
                      state_class=state_error.error_class, cause=state_error)


def _unknown_member(index):
    return WorldError("unknown_member", "world: unknown_member %d" % (index,), index=index)


def _wrong_member_type(index, found, expected):
    return WorldError("wrong_member_type", "world: wrong_member_type: member %d is type %d, not %d"
                      % (index, found, expected), index=index, found=found, expected=expected)


def _state_errors():
    from .errors import GraphStateError
    from .grid_state import GridStateError
    return (GridStateError, GraphStateError)


STATE_ERRORS = _state_errors()


class _Member(object):
    """One member: its type, owner (-1 for a root), object (roots, replanners, flow fields) or
    parked bytes (sliced searches; None = a handle that has not begun) and creation arguments."""
    __slots__ = ("mtype", "owner", "obj", "parked", "args")

    def __init__(self, mtype, owner, obj=None, args=None):
        self.mtype = mtype
        self.owner = owner
        self.obj = obj
        self.parked = None
        self.args = args


def _new_graph_search(graph):
    """[WORLD.PARKED] GraphAStar over the graph's compiled form, default cost, zero estimate."""
    return GraphAStar(graph.compile(), DefaultGraphCost(), ZeroGraphHeuristic())


class World(object):
    """[WORLD.MODEL] Members numbered 0, 1, 2, ... in the order added; never removed."""

    def __init__(self):
        self._m = []

    # ------------------------------------------------------------ members

    def member_count(self):
        return len(self._m)

    def _get(self, i):
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(self._m):
            raise _unknown_member(i)
        return self._m[i]

    def _typed(self, i, mtype):
        m = self._get(i)
        if m.mtype != mtype:
            raise _wrong_member_type(i, m.mtype, mtype)
        return m

    def _add(self, m):
        self._m.append(m)
        return len(self._m) - 1

    # ------------------------------------------------------------ [WORLD.ADD]

    def add_grid(self, grid):
        """[WORLD.ADD] Take ownership of a square ``Grid``; its index."""
        assert type(grid) is gs.Grid, "add_grid takes a square Grid"
        return self._add(_Member(TYPE_GRID, -1, grid))

    def add_graph(self, graph):
        """[WORLD.ADD] Take ownership of a ``Graph``; its index."""
        assert isinstance(graph, Graph), "add_graph takes a Graph"
        return self._add(_Member(TYPE_GRAPH, -1, graph))

    def _build(self, make):
        """[WORLD.ADD] A dependent's constructor error is class ``build`` with its text."""
        try:
            return make()
        except OnePathError as e:
            raise WorldError("build", "build: %s" % (e,), cause=e)

    def add_replanner(self, owner, options, mode, start, goal):
        """[WORLD.ADD] ``GridReplanner::new`` over grid member ``owner``."""
        grid = self._typed(owner, TYPE_GRID).obj
        start, goal = tuple(start), tuple(goal)
        rep = self._build(lambda: GridReplanner(grid, options, mode, start, goal))
        return self._add(_Member(TYPE_REPLANNER, owner, rep, (options, mode, start, goal)))

    def add_flow_field(self, owner, options, goals):
        """[WORLD.ADD] ``GridFlowField::new`` over grid member ``owner``; ``goals`` is a list of
        ``(x, y)`` tuples, as its one caller (synctest.py) builds it."""
        grid = self._typed(owner, TYPE_GRID).obj
        field = self._build(lambda: GridFlowField(grid, options, goals))
        return self._add(_Member(TYPE_FLOW_FIELD, owner, field, (options, goals)))

    def add_grid_search(self, owner, options):
        """[WORLD.ADD] [WORLD.PARKED] ``GridSearch::new`` over grid member ``owner``, parked not
        begun."""
        grid = self._typed(owner, TYPE_GRID).obj
        self._build(lambda: gs.GridSearch(grid, options))
        return self._add(_Member(TYPE_GRID_SEARCH, owner, None, (options,)))

    def add_graph_search(self, owner):
        """[WORLD.ADD] [WORLD.PARKED] ``GraphAStar::new`` over graph member ``owner``, parked not
        begun."""
        graph = self._typed(owner, TYPE_GRAPH).obj
        self._build(lambda: _new_graph_search(graph))
        return self._add(_Member(TYPE_GRAPH_SEARCH, owner, None, ()))

    # ------------------------------------------------------------ [WORLD.ACCESS]

    def _reset_parked(self, i):
        """[WORLD.PARKED.EDIT] Every parked search over root ``i``, in member order, back to a
        handle that has not begun."""
        for m in self._m:
            if m.owner == i and m.mtype in PARKED_TYPES:
                m.parked = None

    def grid_mut(self, i):
        """[WORLD.ACCESS] [WORLD.PARKED.EDIT] The grid root ``i`` to edit; its parked searches are
        reset first, whether or not the caller edits."""
        g = self._typed(i, TYPE_GRID).obj
        self._reset_parked(i)
        return g

    def graph_mut(self, i):
        """[WORLD.ACCESS] [WORLD.PARKED.EDIT] The graph root ``i`` to edit; its parked searches are
        reset first."""
        g = self._typed(i, TYPE_GRAPH).obj
        self._reset_parked(i)
        return g

    def replanner_mut(self, i):
        """[WORLD.ACCESS] ``(replanner, grid)``: the replanner and its owner, to call
        ``replan(grid, budget)``, ``path(grid)`` and the rest with."""
        m = self._typed(i, TYPE_REPLANNER)
        return m.obj, self._m[m.owner].obj

    def flow_field_mut(self, i):
        """[WORLD.ACCESS] ``(field, grid)``: the flow field and its owner."""
        m = self._typed(i, TYPE_FLOW_FIELD)
        return m.obj, self._m[m.owner].obj

    def _parked_bytes(self, m):
        """The parked bytes; a handle that has not begun is materialised over the owner as it is
        now (SPEC_NOTES_WORLD: so that a graph_mut that adds nodes cannot break the next
        access)."""
        if m.parked is not None:
            return m.parked
        owner = self._m[m.owner].obj
        if m.mtype == TYPE_GRID_SEARCH:
            return gs.GridSearch(owner, m.args[0]).save_state()
        return _new_graph_search(owner).save_state()

    def _with_parked(self, i, mtype, make, f):
        m = self._typed(i, mtype)
        s = make(self._m[m.owner].obj)
        if m.parked is not None:
            try:
                s.restore_state(m.parked)
            except STATE_ERRORS as e:
                raise _member_error(i, mtype, e, 0)
        try:
            return f(s)
        finally:
            m.parked = s.save_state()

    def with_grid_search(self, i, f):
        """[WORLD.PARKED] Build ``GridSearch::new(owner, options)`` over the owner as it is now,
        restore the parked bytes, call ``f(search)``, park its save; ``f``'s result."""
        opts = self._typed(i, TYPE_GRID_SEARCH).args[0]
        return self._with_parked(i, TYPE_GRID_SEARCH, lambda g: gs.GridSearch(g, opts), f)

    def with_graph_search(self, i, f):
        """[WORLD.PARKED] The same with ``GraphAStar::new(owner.compile(), default cost, zero
        estimate)``."""
        return self._with_parked(i, TYPE_GRAPH_SEARCH, _new_graph_search, f)

    # ------------------------------------------------------------ [WORLD.SAVE]

    def member_states(self):
        """[WORLD.SAVE] Every member's bytes, in index order."""
        out = []
        for m in self._m:
            if m.mtype in PARKED_TYPES:
                out.append(self._parked_bytes(m))
            else:
                out.append(m.obj.save_state())
        return out

    def container(self, states):
        """[WORLD.HEADER] [WORLD.MEMBER] The container of the given member bytes (those of
        ``member_states()``)."""
        parts = [_HEADER.pack(MAGIC, VERSION, len(self._m))]
        for m, b in zip(self._m, states):
            parts.append(_MEMBER.pack(m.mtype, m.owner, len(b)))
            parts.append(b)
        return b"".join(parts)

    def save_state(self):
        """[WORLD.SAVE] The container: header, then per member its header and bytes."""
        return self.container(self.member_states())

    # ------------------------------------------------------------ [WORLD.READ]

    def _read(self, data):
        """[WORLD.READ] Check the container in byte order; the (start, end) of each member's
        bytes."""
        n = len(data)
        if n < 4:
            raise _format_error("truncated", n)
        magic, version, count = _HEADER.unpack_from(data, 0) if n >= HEADER_LEN else \
            (struct.unpack_from("<I", data, 0)[0], None, None)
        if magic != MAGIC:
            raise _format_error("bad_magic", 0)
        if n < 6:
            raise _format_error("truncated", n)
        if version is None:
            version = struct.unpack_from("<H", data, 4)[0]
        if version != VERSION:
            raise _format_error("unsupported_version", 4)
        if n < HEADER_LEN:
            raise _format_error("truncated", n)
        if count != len(self._m):
            raise _format_error("shape_mismatch", 6)
        spans = []
        pos = HEADER_LEN
        for m in self._m:
            h = pos
            if n - h < MEMBER_HEADER_LEN:
                raise _format_error("truncated", n)
            mtype, owner, length = _MEMBER.unpack_from(data, h)
            if mtype != m.mtype:
                raise _format_error("shape_mismatch", h)
            if owner != m.owner:
                raise _format_error("shape_mismatch", h + 2)
            start = h + MEMBER_HEADER_LEN
            if length > n - start:
                raise _format_error("truncated", n)
            spans.append((start, start + length))
            pos = start + length
        if pos < n:
            raise _format_error("trailing_bytes", pos)
        return spans

    # ------------------------------------------------------------ [WORLD.STAGE] [WORLD.COMMIT]

    def _stage(self, data, spans):
        """[WORLD.STAGE] Roots into scratch roots of the same shape (no caller's listener), then
        dependents into scratch dependents built with their creation arguments over their
        owner's scratch root; the first state error is a ``member`` error."""
        scratch = {}
        order = [i for i, m in enumerate(self._m) if m.mtype in ROOT_TYPES] + \
                [i for i, m in enumerate(self._m) if m.mtype not in ROOT_TYPES]
        for i in order:
            m = self._m[i]
            start, end = spans[i]
            b = data[start:end]
            try:
                if m.mtype == TYPE_GRID:
                    live = m.obj
                    s = gs.Grid(live.width(), live.height())
                    s.restore_state(b)
                    scratch[i] = s
                elif m.mtype == TYPE_GRAPH:
                    s = Graph(0)
                    s.restore_state(b)
                    scratch[i] = s
                    # [WORLD.STAGE.GRAPH_BOUND] a graph a search is staged over names at most
                    # as many nodes as the live graph has or the container has bytes.
                    searched = any(d.mtype == TYPE_GRAPH_SEARCH and d.owner == i
                                   for d in self._m)
                    if searched and s.node_count() > max(m.obj.node_count(), len(data)):
                        off = start + 8  # [STATE.GRAPH] node_count after the 8-byte header
                        raise WorldError("member", "world member %d (type %d): "
                                         "count_out_of_range at byte %d" % (i, m.mtype, off),
                                         offset=off, index=i, member_type=m.mtype,
                                         state_class="count_out_of_range")
                elif m.mtype == TYPE_REPLANNER:
                    g = scratch[m.owner]
                    options, mode, st, go = m.args
                    GridReplanner(g, options, mode, st, go).restore_state(g, b)
                elif m.mtype == TYPE_FLOW_FIELD:
                    g = scratch[m.owner]
                    options, goals = m.args
                    GridFlowField(g, options, goals).restore_state(g, b)
                elif m.mtype == TYPE_GRID_SEARCH:
                    gs.GridSearch(scratch[m.owner], m.args[0]).restore_state(b)
                else:
                    _new_graph_search(scratch[m.owner]).restore_state(b)
            except STATE_ERRORS as e:
                raise _member_error(i, m.mtype, e, start)

    def _commit(self, data, spans):
        """[WORLD.COMMIT] Roots in index order (a grid restore tells its listeners), then
        replanners and flow fields in index order over their restored owners, then the parked
        bytes.  Every step repeats a check that passed; a failure is ``internal``."""
        ms = self._m
        try:
            for i, m in enumerate(ms):
                if m.mtype in ROOT_TYPES:
                    start, end = spans[i]
                    m.obj.restore_state(data[start:end])
            for i, m in enumerate(ms):
                if m.mtype in (TYPE_REPLANNER, TYPE_FLOW_FIELD):
                    start, end = spans[i]
                    m.obj.restore_state(ms[m.owner].obj, data[start:end])
        except OnePathError as e:
            raise WorldError("internal", "world: internal: commit failed: %s" % (e,), cause=e)
        for i, m in enumerate(ms):
            if m.mtype in PARKED_TYPES:
                start, end = spans[i]
                m.parked = data[start:end]

    def restore_state(self, data):
        """[WORLD.READ] [WORLD.STAGE] [WORLD.ATOMIC] [WORLD.COMMIT] Read, stage, commit; on any
        error every member, the parked bytes and every listener are untouched."""
        data = bytes(data)
        spans = self._read(data)
        self._stage(data, spans)
        self._commit(data, spans)
