"""The replanners' queue (``ReplanOpenSet``), written from spec/replanning.md §3 and spec/state.md §5.

Clauses: [REPLAN.KEY.ORDER] [REPLAN.QUEUE.HEAP] [REPLAN.QUEUE.UPDATE] [REPLAN.QUEUE.REMOVE]
[REPLAN.QUEUE.TOP] [STATE.HEAP.ARRAY] [STATE.HEAP.UP] [STATE.HEAP.DOWN] [STATE.HEAP.PUSH]
[STATE.HEAP.POP].

A 0-based binary heap of entries ``(node, key1, key2)`` kept in three parallel lists, plus a
``pos`` list (node -> slot, -1 when not queued) so that a node is in it at most once and its slot
is found in O(1).  The heap lies in the saved bytes as it lies here ([REPLAN.STATE.SEARCH]).
"""


def key_less(a1, a2, b1, b2):
    """[REPLAN.KEY.ORDER] Key ``(a1, a2)`` is less than ``(b1, b2)``: lexicographic, IEEE ``<``."""
    return a1 < b1 or (a1 == b1 and a2 < b2)


def entry_precedes(an, a1, a2, bn, b1, b2):
    """[REPLAN.KEY.ORDER] Entry ``a`` precedes entry ``b``: a smaller key, or equal keys (both
    parts ``==``) and the smaller node."""
    if a1 < b1:
        return True
    if a1 == b1:
        if a2 < b2:
            return True
        if a2 == b2 and an < bn:
            return True
    return False


class ReplanOpenSet(object):
    """[REPLAN.QUEUE.HEAP] The queue of one replanner over ``n`` nodes."""

    __slots__ = ("node", "k1", "k2", "pos")

    def __init__(self, n):
        # k1 and k2 are made by clear(), which runs before any other use: a replanner's first
        # replan initialises through _restart (clear) and a restore installs (clear first)
        self.node = []
        self.pos = [-1] * n

    def clear(self):
        """Empty the queue (O(entries), not O(nodes))."""
        pos = self.pos
        for u in self.node:
            pos[u] = -1
        self.node = []
        self.k1 = []
        self.k2 = []

    def _up(self, i):
        """[STATE.HEAP.UP] While ``i > 0`` and slot ``i`` precedes its parent, swap and go on.
        (The entry is carried down the path and written once; the order is [REPLAN.KEY.ORDER].)"""
        node, k1, k2, pos = self.node, self.k1, self.k2, self.pos
        u, a1, a2 = node[i], k1[i], k2[i]
        while i > 0:
            p = (i - 1) >> 1
            b1 = k1[p]
            if a1 < b1 or (a1 == b1 and (a2 < k2[p] or (a2 == k2[p] and u < node[p]))):
                pn = node[p]
                node[i], k1[i], k2[i] = pn, b1, k2[p]
                pos[pn] = i
                i = p
            else:
                break
        node[i], k1[i], k2[i] = u, a1, a2
        pos[u] = i

    def _down(self, i):
        """[STATE.HEAP.DOWN] Let ``c = 2i + 1``; the right child when it precedes the left; swap
        while the child precedes the entry."""
        node, k1, k2, pos = self.node, self.k1, self.k2, self.pos
        count = len(node)
        u, a1, a2 = node[i], k1[i], k2[i]
        while True:
            c = 2 * i + 1
            if c >= count:
                break
            d = c + 1
            if d < count:
                x1, y1 = k1[d], k1[c]
                if x1 < y1 or (x1 == y1 and (k2[d] < k2[c] or (k2[d] == k2[c] and node[d] < node[c]))):
                    c = d
            c1 = k1[c]
            if c1 < a1 or (c1 == a1 and (k2[c] < a2 or (k2[c] == a2 and node[c] < u))):
                cn = node[c]
                node[i], k1[i], k2[i] = cn, c1, k2[c]
                pos[cn] = i
                i = c
            else:
                break
        node[i], k1[i], k2[i] = u, a1, a2
        pos[u] = i

    def push(self, u, k1, k2):
        """[STATE.HEAP.PUSH] Append at slot ``count`` and sift up (``u`` not queued)."""
        i = len(self.node)
        self.node.append(u)
        self.k1.append(k1)
        self.k2.append(k2)
        self.pos[u] = i
        self._up(i)

    def update(self, u, k1, k2):
        """[REPLAN.QUEUE.UPDATE] Overwrite ``u``'s keys in its slot; sift up when the new entry
        precedes the old one (same node: a smaller key), otherwise down."""
        i = self.pos[u]
        o1, o2 = self.k1[i], self.k2[i]
        self.k1[i] = k1
        self.k2[i] = k2
        if key_less(k1, k2, o1, o2):
            self._up(i)
        else:
            self._down(i)

    def remove(self, u):
        """[REPLAN.QUEUE.REMOVE] Remove ``u`` from its slot ``i``: the last slot's entry moves to
        ``i`` and sifts up when it precedes the removed entry, otherwise down."""
        node, k1, k2, pos = self.node, self.k1, self.k2, self.pos
        i = pos[u]
        pos[u] = -1
        last = len(node) - 1
        if i == last:
            node.pop()
            k1.pop()
            k2.pop()
            return
        r1, r2 = k1[i], k2[i]
        m, m1, m2 = node.pop(), k1.pop(), k2.pop()
        node[i], k1[i], k2[i] = m, m1, m2
        pos[m] = i
        if entry_precedes(m, m1, m2, u, r1, r2):
            self._up(i)
        else:
            self._down(i)

    def install(self, entries):
        """[REPLAN.STATE.RESTORE] Replace the contents by ``entries`` ``(node, key1, key2)`` in slot
        order, as they lie (already validated)."""
        self.clear()
        for i, (u, a, b) in enumerate(entries):
            self.node.append(u)
            self.k1.append(a)
            self.k2.append(b)
            self.pos[u] = i
