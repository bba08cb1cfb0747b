"""The open set of a flow field ([FLOW.RUN.OPEN]): the array heap of [STATE.HEAP.ARRAY] with its
sifts ([STATE.HEAP.UP], [STATE.HEAP.DOWN]) and the push of a new cell ([STATE.HEAP.PUSH]), over
entries ``(node, f, g)``; the pop and the update in place are inline in ``flow_engine._loop``.

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

    def clear(self):
        pos = self.pos
        for u in self.node:
            pos[u] = -1
        self.node = []
        self.f = []
        self.g = []

    def _up(self, i):
        """[STATE.HEAP.UP] While the moving entry precedes its parent, the parent moves down (the
        same layout as swapping; [STATE.HEAP.ARRAY]'s order written inline)."""
        node, f, g, pos = self.node, self.f, self.g, self.pos
        un, uf, ug = node[i], f[i], g[i]
        while i > 0:
            p = (i - 1) >> 1
            pf = f[p]
            if uf < pf or (uf == pf and (ug > g[p] or (ug == g[p] and un < node[p]))):
                pn = node[p]
                node[i] = pn
                f[i] = pf
                g[i] = g[p]
                pos[pn] = i
                i = p
            else:
                break
        node[i] = un
        f[i] = uf
        g[i] = ug
        pos[un] = i

    def _down(self, i):
        """[STATE.HEAP.DOWN] The right child only when it strictly precedes the left; the child
        moves up while it precedes the moving entry."""
        node, f, g, pos = self.node, self.f, self.g, self.pos
        count = len(node)
        un, uf, ug = node[i], f[i], g[i]
        while True:
            c = 2 * i + 1
            if c >= count:
                break
            cf = f[c]
            d = c + 1
            if d < count:
                df = f[d]
                if df < cf or (df == cf and (g[d] > g[c] or (g[d] == g[c] and node[d] < node[c]))):
                    c = d
                    cf = df
            cg = g[c]
            if cf < uf or (cf == uf and (cg > ug or (cg == ug and node[c] < un))):
                cn = node[c]
                node[i] = cn
                f[i] = cf
                g[i] = cg
                pos[cn] = i
                i = c
            else:
                break
        node[i] = un
        f[i] = uf
        g[i] = ug
        pos[un] = i

    def push(self, u, fu, gu):
        """[STATE.HEAP.PUSH] Append and sift up.  Only a cell not in the heap is pushed here:
        [FLOW.RUN.BEGIN] empties the open set and queues each goal-set cell once, and
        [FLOW.REPAIR.START] begins with an empty open set and queues each touched cell once; the
        relaxation's push and update in place ([STATE.HEAP.UPDATE]) and the pop are written inline
        in ``flow_engine``."""
        i = len(self.node)
        self.node.append(u)
        self.f.append(fu)
        self.g.append(gu)
        self.pos[u] = i
        self._up(i)

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
