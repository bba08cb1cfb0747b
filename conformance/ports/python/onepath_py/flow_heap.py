"""The open set of a flow field ([FLOW.RUN.OPEN]): the array heap of [STATE.HEAP.ARRAY] with its
push, pop and update ([STATE.HEAP.PUSH], [STATE.HEAP.POP], [STATE.HEAP.UPDATE], [STATE.HEAP.UP],
[STATE.HEAP.DOWN]), over entries ``(node, f, g)``.

The slot order is saved as it lies ([FLOW.STATE.SEARCH]), so this is exactly the textbook heap.
A flow field pushes ``f = g = cost(node)``; a restored state may hold entries with ``f != g``
([FLOW.STATE.STRUCTURAL]), so the order compares all three keys as [STATE.HEAP.ARRAY] says:
smaller ``f``, then larger ``g``, then smaller node.  ``pos`` is a per-cell slot list (``-1``:
not in the heap).
"""


def precedes(an, af, ag, bn, bf, bg):
    """[STATE.HEAP.ARRAY] Entry a precedes entry b."""
    if af < bf:
        return True
    if af == bf:
        if ag > bg:
            return True
        if ag == bg and an < bn:
            return True
    return False


class FlowHeap(object):
    """[FLOW.RUN.OPEN] 0-based array binary heap of ``(node, f, g)`` over ``n`` cells."""

    __slots__ = ("node", "f", "g", "pos")

    def __init__(self, n):
        self.node = []
        self.f = []
        self.g = []
        self.pos = [-1] * n

    def __len__(self):
        return len(self.node)

    def clear(self):
        pos = self.pos
        for u in self.node:
            pos[u] = -1
        self.node = []
        self.f = []
        self.g = []

    def _up(self, i):
        """[STATE.HEAP.UP]"""
        node, f, g, pos = self.node, self.f, self.g, self.pos
        while i > 0:
            p = (i - 1) >> 1
            if not precedes(node[i], f[i], g[i], node[p], f[p], g[p]):
                return
            node[i], node[p] = node[p], node[i]
            f[i], f[p] = f[p], f[i]
            g[i], g[p] = g[p], g[i]
            pos[node[i]] = i
            pos[node[p]] = p
            i = p

    def _down(self, i):
        """[STATE.HEAP.DOWN] The right child only when it strictly precedes the left."""
        node, f, g, pos = self.node, self.f, self.g, self.pos
        count = len(node)
        while True:
            c = 2 * i + 1
            if c >= count:
                return
            d = c + 1
            if d < count and precedes(node[d], f[d], g[d], node[c], f[c], g[c]):
                c = d
            if not precedes(node[c], f[c], g[c], node[i], f[i], g[i]):
                return
            node[i], node[c] = node[c], node[i]
            f[i], f[c] = f[c], f[i]
            g[i], g[c] = g[c], g[i]
            pos[node[i]] = i
            pos[node[c]] = c
            i = c

    def push(self, u, fu, gu):
        """[STATE.HEAP.PUSH] [STATE.HEAP.UPDATE] Append and sift up, or overwrite in place and sift
        up when the new entry precedes the old one, else down."""
        i = self.pos[u]
        if i < 0:
            i = len(self.node)
            self.node.append(u)
            self.f.append(fu)
            self.g.append(gu)
            self.pos[u] = i
            self._up(i)
            return
        newer = precedes(u, fu, gu, u, self.f[i], self.g[i])
        self.f[i] = fu
        self.g[i] = gu
        if newer:
            self._up(i)
        else:
            self._down(i)

    def pop(self):
        """[STATE.HEAP.POP] Take slot 0; the last entry moves to slot 0 and sifts down."""
        node, f, g, pos = self.node, self.f, self.g, self.pos
        u = node[0]
        pos[u] = -1
        last = len(node) - 1
        if last > 0:
            node[0] = node[last]
            f[0] = f[last]
            g[0] = g[last]
            pos[node[0]] = 0
        node.pop()
        f.pop()
        g.pop()
        if last > 0:
            self._down(0)
        return u

    def entries(self):
        """[STATE.HEAP] Slots in array order."""
        return list(zip(self.node, self.f, self.g))

    def install(self, entries):
        """[FLOW.STATE.RESTORE] Validated slots as they lie (no re-heapify)."""
        self.clear()
        for i, (u, fu, gu) in enumerate(entries):
            self.node.append(u)
            self.f.append(fu)
            self.g.append(gu)
            self.pos[u] = i


def first_heap_violation(entries):
    """[STATE.HEAP.VALID] The first slot whose entry precedes its parent's, or None."""
    for i in range(1, len(entries)):
        a = entries[i]
        p = entries[(i - 1) >> 1]
        if precedes(a[0], a[1], a[2], p[0], p[1], p[2]):
            return i
    return None
