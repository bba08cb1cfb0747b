"""Open set: [GRAPH.OPEN.ORDER] [GRAPH.OPEN.PUSH] as the array heap of [STATE.HEAP.*]."""


def precedes(an, af, ag, bn, bf, bg):
    """[STATE.HEAP.ARRAY] [GRAPH.OPEN.ORDER] Entry a precedes b: smaller f, then larger g, then smaller node."""
    if af < bf:
        return True
    if af == bf:
        if ag > bg:
            return True
        if ag == bg and an < bn:
            return True
    return False


class OpenSet(object):
    """[STATE.HEAP.ARRAY] [GRAPH.OPEN.ORDER] [GRAPH.OPEN.PUSH] 0-based array binary heap of ``(node, f, g)``.

    The slot order is observable (it is saved by [STATE.HEAP]), so this is exactly the
    textbook heap of [STATE.HEAP.UP] / [STATE.HEAP.DOWN] / [STATE.HEAP.PUSH] /
    [STATE.HEAP.POP] / [STATE.HEAP.UPDATE].  ``_pos`` maps a node to its slot (a dict, so
    an open set over a huge graph allocates nothing per node).
    """

    __slots__ = ("_n", "_f", "_g", "_pos")

    def __init__(self):
        """[STATE.HEAP.ARRAY] Empty heap."""
        self._n = []
        self._f = []
        self._g = []
        self._pos = {}

    def clear(self):
        """[GRAPH.ASTAR.BEGIN] Reset to empty."""
        self._n = []
        self._f = []
        self._g = []
        self._pos = {}

    def __len__(self):
        """[STATE.HEAP] count."""
        return len(self._n)

    def _prec(self, i, j):
        """[STATE.HEAP.ARRAY] Entry at slot i precedes entry at slot j."""
        return precedes(self._n[i], self._f[i], self._g[i], self._n[j], self._f[j], self._g[j])

    def _swap(self, i, j):
        """[STATE.HEAP.UP] [STATE.HEAP.DOWN] Swap two slots, keeping positions."""
        n, f, g, pos = self._n, self._f, self._g, self._pos
        n[i], n[j] = n[j], n[i]
        f[i], f[j] = f[j], f[i]
        g[i], g[j] = g[j], g[i]
        pos[n[i]] = i
        pos[n[j]] = j

    def _up(self, i):
        """[STATE.HEAP.UP] While i > 0 and slot i precedes its parent (i-1)//2, swap."""
        while i > 0:
            p = (i - 1) // 2
            if not self._prec(i, p):
                return
            self._swap(i, p)
            i = p

    def _down(self, i):
        """[STATE.HEAP.DOWN] Pick the preceding child (c+1 only if it strictly precedes c); swap if it precedes i."""
        count = len(self._n)
        while True:
            c = 2 * i + 1
            if c >= count:
                return
            if c + 1 < count and self._prec(c + 1, c):
                c += 1
            if not self._prec(c, i):
                return
            self._swap(c, i)
            i = c

    def push(self, node, f, g):
        """[STATE.HEAP.PUSH] [STATE.HEAP.UPDATE] [GRAPH.OPEN.PUSH] Append and sift up, or overwrite in place."""
        i = self._pos.get(node)
        if i is None:
            i = len(self._n)
            self._n.append(node)
            self._f.append(f)
            self._g.append(g)
            self._pos[node] = i
            self._up(i)
            return
        newer = precedes(node, f, g, node, self._f[i], self._g[i])
        self._f[i] = f
        self._g[i] = g
        if newer:
            self._up(i)
        else:
            self._down(i)

    def peek_f(self):
        """[GRAPH.BIDI.STOP] Key ``f`` of the entry that would pop (slot 0; None when empty)."""
        return self._f[0] if self._n else None

    def pop(self):
        """[STATE.HEAP.POP] Take slot 0; move the last entry to slot 0 and sift down."""
        node, f, g = self._n[0], self._f[0], self._g[0]
        del self._pos[node]
        last = len(self._n) - 1
        if last > 0:
            self._n[0] = self._n[last]
            self._f[0] = self._f[last]
            self._g[0] = self._g[last]
            self._pos[self._n[0]] = 0
        self._n.pop()
        self._f.pop()
        self._g.pop()
        self._down(0)   # returns at once on an empty heap (c = 1 >= count 0)
        return node, f, g

    def entries(self):
        """[STATE.HEAP] Slots in array order as ``(node, f, g)`` (what save_state writes)."""
        return list(zip(self._n, self._f, self._g))

    def load(self, entries):
        """[STATE.SEARCH.RESTORE] Install validated slots as they lie (no re-heapify)."""
        self._n = [e[0] for e in entries]
        self._f = [e[1] for e in entries]
        self._g = [e[2] for e in entries]
        self._pos = {n: i for i, n in enumerate(self._n)}


def first_heap_violation(entries):
    """[STATE.HEAP.VALID] Index of the first slot whose entry precedes its parent's, or None."""
    for i in range(1, len(entries)):
        p = (i - 1) // 2
        a, b = entries[i], entries[p]
        if precedes(a[0], a[1], a[2], b[0], b[1], b[2]):
            return i
    return None
