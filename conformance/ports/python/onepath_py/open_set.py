"""Open set: [GRAPH.OPEN.ORDER] [GRAPH.OPEN.PUSH]."""

import heapq


class OpenSet(object):
    """[GRAPH.OPEN.ORDER] [GRAPH.OPEN.PUSH] Entries ``(node, f, g)``, at most one per node.

    Pops the smallest ``f``, then the larger ``g``, then the smaller node id.  A binary
    heap keyed ``(f, -g, node)`` with lazy deletion; since the order is a strict total
    order the pop sequence does not depend on the storage.
    """

    __slots__ = ("_heap", "_cur", "_seq")

    def __init__(self):
        """[GRAPH.OPEN.ORDER] Empty set."""
        self._heap = []
        self._cur = {}
        self._seq = 0

    def clear(self):
        """[GRAPH.ASTAR.BEGIN] Reset to empty."""
        self._heap = []
        self._cur = {}

    def __len__(self):
        """[GRAPH.OPEN.ORDER] Number of live entries."""
        return len(self._cur)

    def __contains__(self, node):
        """[GRAPH.OPEN.PUSH] Whether ``node`` has an entry."""
        return node in self._cur

    def push(self, node, f, g):
        """[GRAPH.OPEN.PUSH] Insert, or replace the entry's ``f`` and ``g``."""
        self._seq += 1
        self._cur[node] = self._seq
        heapq.heappush(self._heap, (f, -g, node, self._seq))

    def _clean(self):
        """[GRAPH.OPEN.PUSH] Drop replaced (lazy-deleted) heap entries from the top."""
        heap = self._heap
        cur = self._cur
        while heap and cur.get(heap[0][2]) != heap[0][3]:
            heapq.heappop(heap)

    def peek_f(self):
        """[GRAPH.BIDI.STOP] Key ``f`` of the entry that would pop (None when empty)."""
        self._clean()
        return self._heap[0][0] if self._heap else None

    def pop(self):
        """[GRAPH.OPEN.ORDER] Remove and return ``(node, f, g)`` of the smallest entry."""
        self._clean()
        f, ng, node, _ = heapq.heappop(self._heap)
        del self._cur[node]
        return node, f, -ng
