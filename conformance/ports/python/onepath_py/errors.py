"""Error classes of the graph family.

[GRAPH.ERR.CLASSES] [GRAPH.ERR.NO_PANIC] [GRAPH.API.INDEX]

Three families, as in the Rust API surface: ``BuildError``, ``QueryError`` and
``GraphStateError``.  Every error carries ``error_class`` (the stable class name
of [GRAPH.ERR.CLASSES]).  ``BuildError`` carries ``index`` (None when the class
names no index), ``GraphStateError`` carries ``offset`` and ``category``.

For each class name there is also a Python subclass (``TooManyNodes`` ...), so a
caller can either compare ``err.error_class`` or catch the subclass.  ``empty_graph``
is both a build and a query class ([GRAPH.ERR.CLASSES]), so ``EmptyGraph`` derives from
both ``BuildError`` and ``QueryError``.  ``GraphStateError`` also carries the snapshot
classes of [STATE.CLASSES] ([STATE.ERRORS]: graph kinds fail with ``GraphStateError``).
"""


class OnePathError(Exception):
    """[GRAPH.ERR.CLASSES] Base class; ``error_class`` is the stable name, given by the
    subclass (``TooManyNodes`` ...) or by the construction (``GridError("invalid_size")``)."""

    def __init__(self, error_class=None, **details):
        """[GRAPH.ERR.CLASSES] Build an error with its class name and detail fields."""
        if error_class is not None:
            self.error_class = error_class
        self.details = dict(details)
        for key, value in details.items():
            setattr(self, key, value)
        super().__init__(self._message())

    def _message(self):
        """[GRAPH.ERR.CLASSES] Human-readable text (not normative)."""
        extra = ", ".join("%s=%r" % kv for kv in sorted(self.details.items()))
        return "%s%s" % (self.error_class, (" (" + extra + ")") if extra else "")


class BuildError(OnePathError):
    """[GRAPH.ERR.CLASSES] [GRAPH.API.INDEX] Build error; ``index`` names the input."""

    def __init__(self, error_class=None, index=None, **details):
        """[GRAPH.API.INDEX] ``index``: edge index, link position or point index."""
        self.index = index
        super().__init__(error_class, index=index, **details)


class QueryError(OnePathError):
    """[GRAPH.ERR.CLASSES] Query error (no index)."""

    def __init__(self, error_class=None, **details):
        """[GRAPH.ERR.CLASSES] Query error constructor."""
        super().__init__(error_class, **details)


class GraphStateError(OnePathError):
    """[GRAPH.ERR.CLASSES] [GRAPH.OPLM.CHECKS] State error: class, byte offset, category "format"."""

    category = "format"

    def __init__(self, error_class=None, offset=0):
        """[GRAPH.OPLM.CHECKS] ``offset`` is the byte offset the check reports."""
        self.offset = offset
        super().__init__(error_class, offset=offset)


def _mk(name, base, cls_name):
    """[GRAPH.ERR.CLASSES] Make the Python subclass for one class name."""
    return type(name, (base,), {"error_class": cls_name,
                                "__doc__": "[GRAPH.ERR.CLASSES] `%s`." % cls_name})


# build errors
TooManyNodes = _mk("TooManyNodes", BuildError, "too_many_nodes")
EndpointOutOfRange = _mk("EndpointOutOfRange", BuildError, "endpoint_out_of_range")
InvalidWeight = _mk("InvalidWeight", BuildError, "invalid_weight")
UnknownEdge = _mk("UnknownEdge", BuildError, "unknown_edge")
RemovedEdge = _mk("RemovedEdge", BuildError, "removed_edge")
CoordinateOutOfRange = _mk("CoordinateOutOfRange", BuildError, "coordinate_out_of_range")
InvalidMaxDistance = _mk("InvalidMaxDistance", BuildError, "invalid_max_distance")
LinkOutOfRange = _mk("LinkOutOfRange", BuildError, "link_out_of_range")
InvalidLandmarkCount = _mk("InvalidLandmarkCount", BuildError, "invalid_landmark_count")


class EmptyGraph(BuildError, QueryError):
    """[GRAPH.ERR.CLASSES] [GRAPH.ALT.COUNT] [GRAPH.PT.NEAREST_NODE] `empty_graph` (build and query)."""

    error_class = "empty_graph"

    def __init__(self, error_class=None, index=None, **details):
        """[GRAPH.ERR.CLASSES] No index."""
        BuildError.__init__(self, error_class, index=index, **details)


# query errors
NodeOutOfRange = _mk("NodeOutOfRange", QueryError, "node_out_of_range")
StaleLandmarks = _mk("StaleLandmarks", QueryError, "stale_landmarks")
InvalidPosition = _mk("InvalidPosition", QueryError, "invalid_position")

# state errors (category "format")
Truncated = _mk("Truncated", GraphStateError, "truncated")
BadMagic = _mk("BadMagic", GraphStateError, "bad_magic")
UnsupportedVersion = _mk("UnsupportedVersion", GraphStateError, "unsupported_version")
NodeCountMismatch = _mk("NodeCountMismatch", GraphStateError, "node_count_mismatch")
CountOutOfRange = _mk("CountOutOfRange", GraphStateError, "count_out_of_range")
LengthMismatch = _mk("LengthMismatch", GraphStateError, "length_mismatch")
FingerprintMismatch = _mk("FingerprintMismatch", GraphStateError, "fingerprint_mismatch")
IndexOutOfRange = _mk("IndexOutOfRange", GraphStateError, "index_out_of_range")
DuplicateNode = _mk("DuplicateNode", GraphStateError, "duplicate_node")
BadDistance = _mk("BadDistance", GraphStateError, "bad_distance")
SelfDistance = _mk("SelfDistance", GraphStateError, "self_distance")
# [STATE.CLASSES] snapshot classes not already above
WrongKind = _mk("WrongKind", GraphStateError, "wrong_kind")
SizeMismatch = _mk("SizeMismatch", GraphStateError, "size_mismatch")
OutOfRange = _mk("OutOfRange", GraphStateError, "out_of_range")
NanValue = _mk("NanValue", GraphStateError, "nan")
BadFlag = _mk("BadFlag", GraphStateError, "bad_flag")
NotIncreasing = _mk("NotIncreasing", GraphStateError, "not_increasing")
BadHeapNode = _mk("BadHeapNode", GraphStateError, "bad_heap_node")
HeapOrder = _mk("HeapOrder", GraphStateError, "heap_order")
MissingOpenNode = _mk("MissingOpenNode", GraphStateError, "missing_open_node")
BadParent = _mk("BadParent", GraphStateError, "bad_parent")
ParentCycle = _mk("ParentCycle", GraphStateError, "parent_cycle")
TrailingBytes = _mk("TrailingBytes", GraphStateError, "trailing_bytes")

_STATE_BY_CLASS = {c.error_class: c for c in (
    Truncated, BadMagic, UnsupportedVersion, WrongKind, SizeMismatch, CountOutOfRange,
    IndexOutOfRange, OutOfRange, NanValue, BadFlag, NotIncreasing, DuplicateNode, BadHeapNode,
    HeapOrder, MissingOpenNode, BadParent, ParentCycle, TrailingBytes)}


def state_error(error_class, offset):
    """[STATE.ERRORS] The GraphStateError subclass for a [STATE.CLASSES] name at ``offset``."""
    return _STATE_BY_CLASS[error_class](offset=offset)

BUILD_CLASSES = ("too_many_nodes", "endpoint_out_of_range", "invalid_weight", "unknown_edge",
                 "removed_edge", "coordinate_out_of_range", "invalid_max_distance",
                 "link_out_of_range", "invalid_landmark_count", "empty_graph")
QUERY_CLASSES = ("node_out_of_range", "stale_landmarks", "invalid_position", "empty_graph")
STATE_CLASSES = ("truncated", "bad_magic", "unsupported_version", "node_count_mismatch",
                 "count_out_of_range", "length_mismatch", "fingerprint_mismatch",
                 "index_out_of_range", "duplicate_node", "bad_distance", "self_distance")
SNAPSHOT_CLASSES = ("truncated", "bad_magic", "unsupported_version", "wrong_kind", "size_mismatch",
                    "count_out_of_range", "index_out_of_range", "out_of_range", "nan", "bad_flag",
                    "not_increasing", "duplicate_node", "bad_heap_node", "heap_order",
                    "missing_open_node", "bad_parent", "parent_cycle", "trailing_bytes")
