"""Property tests for onepath_py (stdlib unittest only).

Run: cd /work/main/conformance/ports/python && python3 -m unittest -q test_port
"""

import math
import random
import struct
import threading
import unittest

import onepath_py as op
from onepath_py import errors as E

INF = math.inf


# ----------------------------------------------------------------- helpers

def lm_ids(lm):
    """[GRAPH.ALT.TABLES] Landmark ids in table order (the port keeps no accessor: no request reads it)."""
    return list(lm._ids)


def lm_forward(lm, landmark, node):
    """[GRAPH.ALT.ACCESSORS] d(L, v); NaN when l or v is out of range."""
    if not (lm._in(landmark, len(lm._ids)) and lm._in(node, lm._n)):
        return math.nan
    return lm._fwd[landmark][node]


def lm_backward(lm, landmark, node):
    """[GRAPH.ALT.ACCESSORS] d(v, L); NaN when l or v is out of range."""
    if not (lm._in(landmark, len(lm._ids)) and lm._in(node, lm._n)):
        return math.nan
    return lm._bwd[landmark][node]


class AltGraphHeuristic(object):
    """[GRAPH.ALT.BOUND] A tier-2 estimate from a landmark table: lower_bound(from, to)."""

    def __init__(self, landmarks):
        self._lm = landmarks

    def estimate(self, from_, to):
        return self._lm.lower_bound(from_, to)


def graph_edge(g, edge_id):
    """[GRAPH.MUT.EDGE_ID] (GraphEdge, alive) of a Graph's edge id."""
    return (op.GraphEdge(g._from[edge_id], g._to[edge_id], g._w[edge_id]), g._alive[edge_id])


def point_graph(pts, options=None):
    """A PointGraph over (x, y, z) tuples: the port takes Point3 values only."""
    return op.PointGraph([op.Point3(*p) for p in pts], options)


def edge_tuple(e):
    return (e.from_, e.to, e.weight)


def floyd_warshall(n, edges):
    d = [[INF] * n for _ in range(n)]
    for i in range(n):
        d[i][i] = 0.0
    for f, t, w in edges:
        if w < d[f][t]:
            d[f][t] = w
    for k in range(n):
        dk = d[k]
        for i in range(n):
            dik = d[i][k]
            if dik == INF:
                continue
            di = d[i]
            for j in range(n):
                x = dik + dk[j]
                if x < di[j]:
                    di[j] = x
    return d


def random_int_graph(rng, n, m, wmax=9, zero_ok=True):
    edges = []
    for _ in range(m):
        f = rng.randrange(n)
        t = rng.randrange(n)
        w = float(rng.randint(0 if zero_ok else 1, wmax))
        edges.append((f, t, w))
    return edges


def path_cost(edges, path):
    """Cheapest parallel edge for each consecutive pair (float sum in path order)."""
    total = 0.0
    for a, b in zip(path, path[1:]):
        best = min(w for f, t, w in edges if f == a and t == b)
        total = total + best
    return total


def fnv_by_hand(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) % (1 << 64)
    return h


def run_sliced(search, budget):
    st = search.step(budget)
    guard = 0
    while st == op.SearchStatus.Running:
        st = search.step(budget)
        guard += 1
        assert guard < 100000
    return st


def snapshot(search, st):
    return (st, search.path(), search.path_cost(), search.iterations(),
            search.expanded_count(), search.expansions())


# ----------------------------------------------------------------- CSR

class CsrTests(unittest.TestCase):
    def test_order_layout_keep(self):
        edges = [(2, 0, 1.0), (0, 1, 2.0), (2, 2, 3.0), (0, 1, 4.0), (1, 2, 5.0),
                 (0, 2, 6.0), (2, 1, -0.0)]
        g = op.CsrGraph(3, edges)
        self.assertEqual(g.offsets(), [0, 3, 4, 7])
        self.assertEqual(g.targets(), [1, 1, 2, 2, 0, 2, 1])
        self.assertEqual(g.weights(), [2.0, 4.0, 6.0, 5.0, 1.0, 3.0, 0.0])
        self.assertEqual(math.copysign(1.0, g.weights()[6]), 1.0)   # -0.0 stored as +0.0
        # reverse: grouped by `to`, input order inside each group
        self.assertEqual(g.reverse_offsets(), [0, 1, 4, 7])
        self.assertEqual(g.sources(), [2, 0, 0, 2, 2, 1, 0])
        self.assertEqual(g.reverse_weights(), [1.0, 2.0, 4.0, 0.0, 3.0, 5.0, 6.0])
        self.assertEqual(g.edge_count(), 7)

    def test_order_property_random(self):
        rng = random.Random(5)
        for _ in range(50):
            n = rng.randint(1, 8)
            edges = random_int_graph(rng, n, rng.randint(0, 20))
            g = op.CsrGraph(n, edges)
            for v in range(n):
                fw = [(t, w) for f, t, w in edges if f == v]
                sl = range(g.offsets()[v], g.offsets()[v + 1])
                self.assertEqual([(g.targets()[s], g.weights()[s]) for s in sl], fw)
                rv = [(f, w) for f, t, w in edges if t == v]
                sl = range(g.reverse_offsets()[v], g.reverse_offsets()[v + 1])
                self.assertEqual([(g.sources()[s], g.reverse_weights()[s]) for s in sl], rv)

    def test_fingerprint_by_hand(self):
        # N = 2, one edge 0 -> 1 weight 1.0 (0x3FF0000000000000).
        data = bytes([2, 0, 0, 0,            # node count
                      0, 0, 0, 0,            # offsets[0]
                      1, 0, 0, 0,            # offsets[1]
                      1, 0, 0, 0,            # offsets[2]
                      1, 0, 0, 0,            # target of slot 0
                      0, 0, 0, 0, 0, 0, 0xF0, 0x3F])  # weight 1.0
        g = op.CsrGraph(2, [(0, 1, 1.0)])
        self.assertEqual(g.fingerprint(), fnv_by_hand(data))
        self.assertEqual(op.CsrGraph(0, []).fingerprint(), fnv_by_hand(bytes(8)))
        # -0.0 hashes like +0.0 ([GRAPH.VAL.NEG_ZERO])
        self.assertEqual(op.CsrGraph(2, [(0, 1, -0.0)]).fingerprint(),
                         op.CsrGraph(2, [(0, 1, 0.0)]).fingerprint())
        # the reverse adjacency is not hashed, but forward order is
        self.assertNotEqual(op.CsrGraph(2, [(0, 1, 1.0), (0, 0, 1.0)]).fingerprint(),
                            op.CsrGraph(2, [(0, 0, 1.0), (0, 1, 1.0)]).fingerprint())

    def test_validate_order(self):
        with self.assertRaises(E.EndpointOutOfRange) as cm:
            op.CsrGraph(2, [(0, 1, 1.0), (2, 5, math.nan)])
        self.assertEqual((cm.exception.index, cm.exception.endpoint), (1, "from"))
        with self.assertRaises(E.EndpointOutOfRange) as cm:
            op.CsrGraph(2, [(0, 2, math.nan)])
        self.assertEqual((cm.exception.index, cm.exception.endpoint), (0, "to"))
        for bad in (math.nan, math.inf, -math.inf, -1e-300):
            with self.assertRaises(E.InvalidWeight) as cm:
                op.CsrGraph(2, [(0, 1, 1.0), (1, 0, 2.0), (1, 1, bad)])
            self.assertEqual(cm.exception.index, 2)
            self.assertEqual(cm.exception.error_class, "invalid_weight")
        with self.assertRaises(E.TooManyNodes):
            op.CsrGraph(op.MAX_NODES + 1, [])


# ----------------------------------------------------------------- mutable graph

class MutableGraphTests(unittest.TestCase):
    def test_ids_and_edits(self):
        g = op.Graph.from_edges([(0, 1, 1.0), (1, 2, 2.0), (2, 2, 3.0)], None, False)
        self.assertEqual(g.node_count(), 3)
        self.assertEqual(g.edge_count(), 6)
        self.assertEqual(edge_tuple(graph_edge(g, 3)[0]), (2, 1, 2.0))
        self.assertEqual(edge_tuple(graph_edge(g, 5)[0]), (2, 2, 3.0))   # self-loop added twice
        self.assertEqual(g.find_path(0, 2).cost, 3.0)
        g.remove_edge(2)
        self.assertTrue(g.is_stale())
        self.assertEqual(g.find_path(0, 2).status, op.PathStatus.NotFound)
        self.assertFalse(g.is_stale())
        with self.assertRaises(E.RemovedEdge) as cm:
            g.set_weight(2, 1.0)
        self.assertEqual(cm.exception.index, 2)
        with self.assertRaises(E.UnknownEdge) as cm:
            g.remove_edge(6)
        self.assertEqual(cm.exception.index, 6)
        with self.assertRaises(E.InvalidWeight) as cm:
            g.set_weight(1, -1.0)
        self.assertEqual(cm.exception.index, 1)
        self.assertEqual(g.add_edge(1, 2, 7.0), 6)
        with self.assertRaises(E.EndpointOutOfRange) as cm:
            g.add_edge(1, 3, 7.0)
        self.assertEqual(cm.exception.index, 7)
        self.assertEqual(g.edge_count(), 7)
        self.assertEqual(g.add_node(), 3)
        self.assertEqual(g.compile().node_count(), 4)
        self.assertEqual(g.find_path(0, 2).cost, 8.0)

    def test_from_edges_errors(self):
        with self.assertRaises(E.EndpointOutOfRange) as cm:
            op.Graph.from_edges([(0, 1, 1.0), (1, 3, 1.0)], 3, False)
        self.assertEqual(cm.exception.index, 1)
        with self.assertRaises(E.InvalidWeight) as cm:
            op.Graph.from_edges([(0, 1, 1.0), (1, 0, 1.0), (1, 1, math.nan)], None, False)
        self.assertEqual(cm.exception.index, 2)
        self.assertEqual(op.Graph.from_edges([], None, True).node_count(), 0)

    def test_stale_landmarks(self):
        g = op.Graph.from_edges([(0, 1, 1.0), (1, 2, 1.0)], None, False)
        lm = g.build_landmarks(op.LandmarkOptions(count=2))
        self.assertEqual(g.find_path(0, 2, op.GraphOptions(landmarks=lm)).cost, 2.0)
        g.set_weight(0, 5.0)
        with self.assertRaises(E.StaleLandmarks):
            g.find_path(0, 2, op.GraphOptions(landmarks=lm))
        with self.assertRaises(E.NodeOutOfRange):   # range check precedes staleness
            g.find_path(0, 3, op.GraphOptions(landmarks=lm))


# ----------------------------------------------------------------- open set and A*

class AStarTests(unittest.TestCase):
    def test_open_set_order_property(self):
        rng = random.Random(1)
        for _ in range(200):
            s = op.OpenSet()
            ref = {}
            for _ in range(rng.randint(1, 30)):
                node = rng.randrange(10)
                f = float(rng.randint(0, 4))
                g = float(rng.randint(0, 4))
                s.push(node, f, g)
                ref[node] = (f, g)
            out = []
            while len(s):
                out.append(s.pop())
            exp = sorted(((n, f, g) for n, (f, g) in ref.items()),
                         key=lambda e: (e[1], -e[2], e[0]))
            self.assertEqual(out, exp)

    def test_tie_break_f_asc_g_desc_id_asc(self):
        # node: g, h, f   1: 1, 2, 3   2: 2, 1, 3   3: 2, 1, 3   4: 0.5, 2, 2.5   goal 5
        edges = [(0, 3, 2.0), (0, 1, 1.0), (0, 2, 2.0), (0, 4, 0.5),
                 (1, 5, 10.0), (2, 5, 10.0), (3, 5, 10.0), (4, 5, 10.0)]
        hv = {0: 0.0, 1: 2.0, 2: 1.0, 3: 1.0, 4: 2.0, 5: 0.0}

        class H(object):
            def estimate(self, a, b):
                return hv[a]
        g = op.CsrGraph(6, edges)
        s = op.GraphAStar(g, op.DefaultGraphCost(), H())
        s.set_record_expansions(True)
        s.begin(0, 5)
        self.assertEqual(s.run(), op.SearchStatus.Found)
        self.assertEqual(s.expansions(), [0, 4, 2, 3, 1])
        self.assertEqual((s.iterations(), s.expanded_count()), (6, 5))
        self.assertEqual(s.path(), [0, 4, 5])
        self.assertEqual(s.path_cost(), 10.5)

    def test_first_parent_and_start_goal(self):
        g = op.CsrGraph(4, [(0, 1, 1.0), (0, 2, 1.0), (1, 3, 1.0), (2, 3, 1.0)])
        s = op.GraphAStar(g)
        s.begin(0, 3)
        s.run()
        self.assertEqual(s.path(), [0, 1, 3])   # 2 -> 3 ties, never replaces
        s.begin(2, 2)
        self.assertEqual(s.run(), op.SearchStatus.Found)
        self.assertEqual((s.path(), s.path_cost(), s.iterations(), s.expanded_count()),
                         ([2], 0.0, 1, 0))

    def test_empty_first_and_step_zero(self):
        g = op.CsrGraph(2, [])
        s = op.GraphAStar(g)
        s.begin(0, 1)
        self.assertEqual(s.step(0), op.SearchStatus.Running)
        self.assertEqual(s.step(1), op.SearchStatus.NotFound)   # budget out as set empties
        self.assertEqual(s.step(5), op.SearchStatus.NotFound)
        self.assertEqual(s.path_cost(), INF)

        class Inf(object):
            def estimate(self, a, b):
                return INF
        s = op.GraphAStar(op.CsrGraph(2, [(0, 1, 1.0)]), None, Inf())
        s.begin(0, 1)
        self.assertEqual(s.step(0), op.SearchStatus.NotFound)
        self.assertEqual(s.iterations(), 0)

    def test_blocked_hooks(self):
        calls = []

        def blocked(n):
            calls.append(("b", n))
            return n == 0

        def cost(a, b, w):
            calls.append(("c", a, b))
            return w

        def heur(a, b):
            calls.append(("h", a, b))
            return 0.0
        g = op.Graph.from_edges([(0, 1, 1.0)], None, False)
        r = g.find_path(0, 1, op.GraphOptions(edge_cost=cost, blocked=blocked, heuristic=heur))
        self.assertEqual((r.status, r.iterations, r.expanded_count), (op.PathStatus.NotFound, 0, 0))
        self.assertEqual(calls, [("b", 0)])
        calls.clear()
        r = g.find_path(1, 0, op.GraphOptions(edge_cost=cost, blocked=blocked, heuristic=heur))
        self.assertEqual(calls, [("b", 1), ("b", 0)])
        # blocked middle node is skipped before its cost is asked
        calls.clear()
        g = op.Graph.from_edges([(1, 0, 1.0), (1, 2, 1.0)], None, True)
        r = g.find_path(1, 2, op.GraphOptions(edge_cost=cost, blocked=blocked))
        self.assertEqual(r.cost, 1.0)
        self.assertNotIn(("c", 1, 0), calls)

    def test_cost_skips(self):
        g = op.Graph.from_edges([(0, 1, 1.0), (0, 2, 1.0), (2, 1, 1.0)], None, True)
        for bad in (math.nan, -1.0, INF):
            r = g.find_path(0, 1, op.GraphOptions(
                edge_cost=lambda a, b, w, bad=bad: bad if (a, b) == (0, 1) else w))
            self.assertEqual((r.cost, r.nodes), (2.0, [0, 2, 1]))

    def test_estimate_normalisation(self):
        self.assertEqual(op.normalize_estimate(math.nan), 0.0)
        self.assertEqual(math.copysign(1, op.normalize_estimate(-0.0)), 1.0)
        self.assertEqual(op.normalize_estimate(-5.0), 0.0)
        self.assertEqual(op.normalize_estimate(INF), INF)
        self.assertEqual(op.normalize_estimate(-INF), 0.0)
        self.assertEqual(op.normalize_estimate(2.5), 2.5)

    def test_slicing_equals_unsliced(self):
        rng = random.Random(7)
        for trial in range(60):
            n = rng.randint(1, 12)
            edges = random_int_graph(rng, n, rng.randint(0, 35))
            g = op.CsrGraph(n, edges)
            pts = [(rng.randint(0, 5), rng.randint(0, 5), 0) for _ in range(n)]

            class H(object):
                def estimate(self, a, b):
                    return 0.5 * math.dist(pts[a], pts[b])
            s, t = rng.randrange(n), rng.randrange(n)
            for cls in (op.GraphAStar, op.BidirectionalGraphSearch):
                for heur in (None, H()):
                    ref = cls(g, None, heur)
                    ref.set_record_expansions(True)
                    ref.begin(s, t)
                    want = snapshot(ref, ref.run())
                    for b in (1, 2, 3, 7):
                        x = cls(g, None, heur)
                        x.set_record_expansions(True)
                        x.begin(s, t)
                        self.assertEqual(snapshot(x, run_sliced(x, b)), want, (trial, cls, b))

    def test_run_cancel(self):
        n = 600
        g = op.CsrGraph(n, [(i, i + 1, 1.0) for i in range(n - 1)])
        ev = threading.Event()
        ev.set()
        s = op.GraphAStar(g)
        s.begin(0, n - 1)
        self.assertEqual(s.run(ev), op.SearchStatus.Running)
        self.assertEqual(s.iterations(), 0)
        class Flag(object):             # an Event-like flag, set at the second check
            k = 0

            def is_set(self):
                self.k += 1
                return self.k == 2          # -> after 256 iterations
        self.assertEqual(s.run(Flag()), op.SearchStatus.Running)
        self.assertEqual(s.iterations(), 256)
        self.assertEqual(s.run(None), op.SearchStatus.Found)
        self.assertEqual(s.path_cost(), float(n - 1))

    def test_budget_exhausted_and_auto(self):
        g = op.Graph.from_edges([(i, i + 1, 1.0) for i in range(9)], None, False)
        r = g.find_path(0, 9, op.GraphOptions(iteration_budget=3, record_expansions=True))
        self.assertEqual((r.status, r.cost, r.nodes, r.iterations, r.expanded),
                         (op.PathStatus.BudgetExhausted, INF, [], 3, [0, 1, 2]))
        self.assertEqual(r.algorithm, op.Algorithm.Dijkstra)
        r = g.find_path(0, 9, op.GraphOptions(heuristic=lambda a, b: abs(a - b)))
        self.assertEqual(r.algorithm, op.Algorithm.AStar)
        r = g.find_path(0, 9, op.GraphOptions(algorithm=op.Algorithm.AStar))
        self.assertEqual(r.algorithm, op.Algorithm.Dijkstra)
        r = g.find_path(0, 9, op.GraphOptions(algorithm=op.Algorithm.Bidirectional))
        self.assertEqual(r.algorithm, op.Algorithm.BidirectionalDijkstra)
        called = []
        r = g.find_path(0, 9, op.GraphOptions(algorithm=op.Algorithm.Dijkstra,
                                              heuristic=lambda a, b: called.append(1) or 0.0))
        self.assertEqual((r.algorithm, called), (op.Algorithm.Dijkstra, []))


# ----------------------------------------------------------------- bidirectional

class BidirectionalTests(unittest.TestCase):
    def test_cost_equals_floyd_warshall(self):
        rng = random.Random(11)
        for trial in range(150):
            n = rng.randint(1, 10)
            edges = random_int_graph(rng, n, rng.randint(0, 30))
            fw = floyd_warshall(n, edges)
            g = op.CsrGraph(n, edges)
            for _ in range(4):
                s, t = rng.randrange(n), rng.randrange(n)
                for cls in (op.BidirectionalGraphSearch, op.GraphAStar):
                    x = cls(g)
                    x.begin(s, t)
                    st = x.run()
                    if fw[s][t] == INF:
                        self.assertEqual(st, op.SearchStatus.NotFound)
                        self.assertEqual((x.path(), x.path_cost()), ([], INF))
                    else:
                        self.assertEqual(st, op.SearchStatus.Found, (trial, s, t))
                        self.assertEqual(x.path_cost(), fw[s][t], (trial, cls, s, t))
                        p = x.path()
                        self.assertEqual((p[0], p[-1]), (s, t))
                        self.assertEqual(path_cost(edges, p), fw[s][t])
                    if cls is op.BidirectionalGraphSearch:
                        self.assertEqual(x.iterations(), x.expanded_count())

    def test_cost_hook_true_direction_and_alternation(self):
        seen = []

        def cost(a, b, w):
            seen.append((a, b))
            return w
        g = op.Graph.from_edges([(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0)], None, True)
        r = g.find_path(0, 3, op.GraphOptions(edge_cost=cost, record_expansions=True,
                                              algorithm=op.Algorithm.BidirectionalDijkstra))
        self.assertEqual((r.cost, r.nodes), (3.0, [0, 1, 2, 3]))
        # by hand: F pops 0 (g_f[1]=1); B pops 3 (g_b[2]=1); F pops 1 (g_f[2]=2, meets: mu=3);
        # stop check: top_f(F)=2 + top_f(B)=1 >= 3 -> Found after 3 iterations.
        self.assertEqual((r.expanded, r.iterations, r.expanded_count), ([0, 3, 1], 3, 3))
        for a, b in seen:
            self.assertEqual(b, a + 1)
        r = g.find_path(2, 2, op.GraphOptions(algorithm=op.Algorithm.Bidirectional))
        self.assertEqual((r.status, r.cost, r.nodes, r.iterations), (op.PathStatus.Found, 0.0, [2], 0))


# ----------------------------------------------------------------- landmarks

class LandmarkTests(unittest.TestCase):
    def test_bounds_admissible(self):
        rng = random.Random(3)
        for trial in range(60):
            n = rng.randint(1, 12)
            edges = random_int_graph(rng, n, rng.randint(0, 30))
            fw = floyd_warshall(n, edges)
            g = op.CsrGraph(n, edges)
            for strat in (op.LandmarkStrategy.Avoid, op.LandmarkStrategy.Farthest):
                cnt = rng.randint(1, 5)
                lm = op.Landmarks.build(g, op.LandmarkOptions(cnt, strat, rng.randrange(1 << 64)))
                self.assertEqual(lm.count(), min(cnt, n))
                self.assertEqual(len(set(lm_ids(lm))), lm.count())
                for l, L in enumerate(lm_ids(lm)):
                    for v in range(n):
                        self.assertEqual(lm_forward(lm, l, v), fw[L][v])
                        self.assertEqual(lm_backward(lm, l, v), fw[v][L])
                for u in range(n):
                    for v in range(n):
                        b = lm.lower_bound(u, v)
                        self.assertGreaterEqual(b, 0.0)
                        self.assertLessEqual(b, fw[u][v], (trial, strat, u, v))
                # ALT A* finds the optimal cost
                for _ in range(3):
                    s, t = rng.randrange(n), rng.randrange(n)
                    x = op.GraphAStar(g, None, AltGraphHeuristic(lm))
                    x.begin(s, t)
                    x.run()
                    self.assertEqual(x.path_cost(), fw[s][t])

    def test_count_errors_and_determinism(self):
        with self.assertRaises(E.InvalidLandmarkCount):
            op.Landmarks.build(op.CsrGraph(0, []), op.LandmarkOptions(0))
        with self.assertRaises(E.EmptyGraph):
            op.Landmarks.build(op.CsrGraph(0, []), op.LandmarkOptions(1))
        g = op.CsrGraph(5, [(i, (i + 1) % 5, float(i + 1)) for i in range(5)])
        a = op.Landmarks.build(g, op.LandmarkOptions(3, op.LandmarkStrategy.Avoid, 42))
        b = op.Landmarks.build(g, op.LandmarkOptions(3, op.LandmarkStrategy.Avoid, 42))
        self.assertEqual(a.serialize(), b.serialize())
        # fallback: a graph without edges takes the smallest free ids
        lm = op.Landmarks.build(op.CsrGraph(4, []), op.LandmarkOptions(3))
        self.assertEqual(lm_ids(lm), [0, 1, 2])

    def test_hand_computed_selection(self):
        # seed 1: next_int(4) draws 1, 3 (root of slot 0 and 1).
        # Path 0-1-2-3 (undirected, w 1).  Avoid slot 0, root 1: sizes 0:1 1:4 2:3 3:2 ->
        # start at 1, descend to child 2 (3 > 1), then 3 -> landmark 3.  Slot 1, root 3 is a
        # landmark, everything blocked -> fallback 0.  Farthest: d(1, .) max at 3; then
        # m(v) = d(3, v) max at 0.
        g = op.Graph.from_edges([(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0)], None, False)
        self.assertEqual(lm_ids(g.build_landmarks(op.LandmarkOptions(2))), [3, 0])
        self.assertEqual(lm_ids(g.build_landmarks(
            op.LandmarkOptions(2, op.LandmarkStrategy.Farthest))), [3, 0])
        # seed 1: next_int(6) draws 5.  Directed tree from 5: d = 5:0 0:1 1:1 3:3 4:5 2:6;
        # sizes 0:7 1:9 3:8 4:5 2:6 5:16 -> descend 5 -> 1 -> 3 -> 4 (Farthest takes 2).
        t = op.CsrGraph(6, [(5, 0, 1.0), (5, 1, 1.0), (0, 2, 5.0), (1, 3, 2.0), (3, 4, 2.0)])
        self.assertEqual(lm_ids(op.Landmarks.build(t, op.LandmarkOptions(1))), [4])
        self.assertEqual(lm_ids(op.Landmarks.build(
            t, op.LandmarkOptions(1, op.LandmarkStrategy.Farthest))), [2])

    def test_splitmix(self):
        r = op.SeededRandom(0)
        self.assertEqual(r.next_u64(), 0xE220A8397B1DCDAF)   # published SplitMix64 vector
        r = op.SeededRandom(1)
        for n in (1, 2, 3, 7, 1 << 26, (1 << 32) - 1):
            self.assertTrue(0 <= r.next_int(n) < n)


class OplmTests(unittest.TestCase):
    def setUp(self):
        self.g = op.CsrGraph(3, [(0, 1, 1.0), (1, 2, 2.0), (2, 0, 4.0)])
        self.lm = op.Landmarks.build(self.g, op.LandmarkOptions(2))
        self.b = self.lm.serialize()
        self.k, self.n = 2, 3
        self.tab = 24 + 4 * self.k

    def err(self, data, graph=None):
        with self.assertRaises(E.GraphStateError) as cm:
            op.Landmarks.deserialize(data, graph or self.g)
        e = cm.exception
        self.assertEqual(e.category, "format")
        return e.error_class, e.offset

    def patch(self, off, fmt, val, base=None):
        b = bytearray(base if base is not None else self.b)
        struct.pack_into(fmt, b, off, val)
        return bytes(b)

    def test_roundtrip(self):
        self.assertEqual(len(self.b), 24 + 4 * self.k + 16 * self.k * self.n)
        self.assertEqual(self.b[:4], b"OPLM")
        lm2 = op.Landmarks.deserialize(self.b, self.g)
        self.assertEqual(lm2.serialize(), self.b)
        self.assertEqual(lm_ids(lm2), lm_ids(self.lm))
        # a hand-made table that is accepted also round-trips
        b = self.patch(self.tab + 8 * 1 if lm_ids(self.lm)[0] != 1 else self.tab + 8 * 2, "<d", INF)
        self.assertEqual(op.Landmarks.deserialize(b, self.g).serialize(), b)

    def test_hostile(self):
        b, k, n, tab = self.b, self.k, self.n, self.tab
        ids = lm_ids(self.lm)
        self.assertEqual(self.err(b[:23]), ("truncated", 23))
        self.assertEqual(self.err(b[:1]), ("truncated", 1))
        self.assertEqual(self.err(b[:24]), ("length_mismatch", 24))
        self.assertEqual(self.err(b[:24 + 4 * k]), ("length_mismatch", 24 + 4 * k))
        self.assertEqual(self.err(b""), ("truncated", 0))
        self.assertEqual(self.err(b"OPLX" + b[4:]), ("bad_magic", 0))
        self.assertEqual(self.err(b"OPLX" + b[4:23]), ("truncated", 23))   # length first
        self.assertEqual(self.err(self.patch(4, "<I", 2)), ("unsupported_version", 4))
        self.assertEqual(self.err(self.patch(8, "<i", 4)), ("node_count_mismatch", 8))
        self.assertEqual(self.err(self.patch(8, "<i", -3)), ("node_count_mismatch", 8))
        self.assertEqual(self.err(self.patch(12, "<i", 0)), ("count_out_of_range", 12))
        self.assertEqual(self.err(self.patch(12, "<i", 4)), ("count_out_of_range", 12))
        self.assertEqual(self.err(self.patch(12, "<i", -1)), ("count_out_of_range", 12))
        self.assertEqual(self.err(self.patch(12, "<i", 3)), ("length_mismatch", len(b)))
        self.assertEqual(self.err(b + b"\0"), ("length_mismatch", len(b)))
        self.assertEqual(self.err(b[:-1]), ("length_mismatch", len(b) - 1))
        self.assertEqual(self.err(self.patch(16, "<Q", self.g.fingerprint() ^ 1)),
                         ("fingerprint_mismatch", 16))
        other = op.CsrGraph(3, [(0, 1, 1.0)])
        self.assertEqual(self.err(b, other), ("fingerprint_mismatch", 16))
        self.assertEqual(self.err(self.patch(24 + 4, "<i", 3)), ("index_out_of_range", 28))
        self.assertEqual(self.err(self.patch(24, "<i", -1)), ("index_out_of_range", 24))
        self.assertEqual(self.err(self.patch(24 + 4, "<i", ids[0])), ("duplicate_node", 28))
        for bad in (math.nan, -1.0, -0.0, -INF):
            off = tab + 8 * 4
            self.assertEqual(self.err(self.patch(off, "<d", bad)), ("bad_distance", off))
        nan_neg = self.patch(tab + 8 * 5, "<Q", 0xFFF8000000000000)
        self.assertEqual(self.err(nan_neg), ("bad_distance", tab + 40))
        # earliest bad entry in byte order wins
        two = self.patch(tab + 8 * 9, "<d", -1.0, self.patch(tab + 8 * 2, "<d", math.nan))
        self.assertEqual(self.err(two), ("bad_distance", tab + 16))
        # self distance: fwd[l][L_l] then bwd[l][L_l]
        off_f = tab + 8 * (0 * n + ids[0])
        self.assertEqual(self.err(self.patch(off_f, "<d", 1.0)), ("self_distance", off_f))
        off_b = tab + 8 * (k * n + 1 * n + ids[1])
        self.assertEqual(self.err(self.patch(off_b, "<d", 1.0)), ("self_distance", off_b))
        # a bad distance anywhere precedes a self-distance error
        both = self.patch(tab + 8 * (2 * k * n - 1), "<d", -2.0, self.patch(off_f, "<d", 1.0))
        self.assertEqual(self.err(both)[0], "bad_distance")
        # index error precedes bad distance
        ib = self.patch(24, "<i", 9, self.patch(tab, "<d", math.nan))
        self.assertEqual(self.err(ib), ("index_out_of_range", 24))


# ----------------------------------------------------------------- point graphs

def d2(a, b):
    dx, dy, dz = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    return (dx * dx + dy * dy) + dz * dz


def brute_links(pts, explicit, md, k, valid):
    n = len(pts)
    links = set()
    for a, b in explicit:
        if a != b:
            links.add((min(a, b), max(a, b)))
    asked = []

    def ask(a, b):
        asked.append((a, b))
        return valid is None or valid(a, b)
    if md > 0 and k == 0:
        for a in range(n):
            for b in range(a + 1, n):
                if math.sqrt(d2(pts[a], pts[b])) <= md and ask(a, b):
                    links.add((a, b))
    elif k > 0:
        for i in range(n):
            order = sorted(range(n), key=lambda j: (d2(pts[i], pts[j]), j))
            got = 0
            for j in order:
                if j == i or got == k:
                    continue
                if md > 0 and d2(pts[i], pts[j]) > md * md:
                    continue
                if ask(min(i, j), max(i, j)):
                    links.add((min(i, j), max(i, j)))
                    got += 1
    return sorted(links), asked


def links_of(pg):
    c = pg.csr()
    out = set()
    for u in range(c.node_count()):
        for s in range(c.offsets()[u], c.offsets()[u + 1]):
            out.add((min(u, c.targets()[s]), max(u, c.targets()[s])))
    return sorted(out)


class PointGraphTests(unittest.TestCase):
    def test_link_modes_vs_brute_force(self):
        rng = random.Random(2)
        for trial in range(120):
            n = rng.randint(0, 14)
            pts = [(float(rng.randint(-4, 4)), float(rng.randint(-4, 4)),
                    float(rng.choice([0, 0, rng.randint(-2, 2)]))) for _ in range(n)]
            explicit = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 3))] if n else []
            md = rng.choice([0.0, 1.0, 1.5, 2.0, 3.0])
            k = rng.choice([0, 0, 1, 2, 3])
            seed = rng.random()

            def valid(a, b, seed=seed):
                self.assertLess(a, b)
                return ((a * 31 + b * 17) * 1000 + int(seed * 1000)) % 3 != 0
            use_valid = rng.random() < 0.5
            want, want_asked = brute_links(pts, explicit, md, k, valid if use_valid else None)
            asked = []

            def rec(a, b):
                asked.append((a, b))
                return valid(a, b)
            pg = point_graph(pts, op.LinkOptions(explicit, md, k, rec if use_valid else None))
            self.assertEqual(links_of(pg), want, (trial, md, k))
            if use_valid:
                self.assertEqual(asked, want_asked)
            c = pg.csr()
            self.assertEqual(c.edge_count(), 2 * len(want))
            # each pair emits min -> max then max -> min; weight distance(p_min, p_max)
            for u in range(n):
                for s in range(c.offsets()[u], c.offsets()[u + 1]):
                    v = c.targets()[s]
                    self.assertEqual(c.weights()[s], math.sqrt(d2(pts[min(u, v)], pts[max(u, v)])))

    def test_nearest_node_and_find_between(self):
        pts = [(0, 0, 0), (3, 0, 0), (3, 4, 0), (0, 4, 0), (3, 0, 0)]
        pg = point_graph(pts, op.LinkOptions(nearest_count=2))
        for q in [(1, 1, 0), (2.9, 0.1, 0), (3, 0, 0), (1.5, 2, 0), (10, 10, 10)]:
            best = min(range(len(pts)), key=lambda i: (d2(pts[i], q), i))
            self.assertEqual(pg.nearest_node(op.Point3(*q)), best)
        r = pg.find_path_between(op.Point3(0.1, 0.1), op.Point3(2.9, 3.9))
        self.assertEqual(r.status, op.PathStatus.Found)
        self.assertEqual(r.algorithm, op.Algorithm.AStar)
        self.assertEqual(r.cost, 7.0)
        with self.assertRaises(E.InvalidPosition):
            pg.nearest_node(op.Point3(0, math.nan, 0))
        with self.assertRaises(E.EmptyGraph):
            point_graph([]).nearest_node(op.Point3(0, 0, 0))

    def test_point_errors(self):
        B = 2.0 ** 21
        point_graph([(B, -B, B)])   # the bound itself is fine
        with self.assertRaises(E.CoordinateOutOfRange) as cm:
            point_graph([(0, 0, 0), (0, math.nextafter(B, INF), math.nan)])
        e = cm.exception
        self.assertEqual((e.index, e.axis, e.value, e.bound), (1, "y", math.nextafter(B, INF), B))
        for md in (math.nan, -1.0, INF, 2.0 ** -31):
            with self.assertRaises(E.InvalidMaxDistance):
                point_graph([(0, 0, 0)], op.LinkOptions(max_distance=md))
        point_graph([(0, 0, 0)], op.LinkOptions(max_distance=2.0 ** -30))
        with self.assertRaises(E.LinkOutOfRange) as cm:
            point_graph([(0, 0, 0), (1, 0, 0)], op.LinkOptions(explicit=[(0, 1), (1, 2)]))
        self.assertEqual(cm.exception.index, 1)

    def test_negative_nearest_count_takes_every_candidate(self):
        # [GRAPH.VAL.PORT_INTS]: a negative nearest_count is like one that is too large.
        pts = [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (2.0, 0.0, 0.0), (10.0, 0.0, 0.0)]
        for md, edges in ((0.0, 12), (2.5, 6)):
            for k in (-1, -(2 ** 40), 3, 2 ** 32 - 1):
                pg = point_graph(pts, op.LinkOptions(max_distance=md, nearest_count=k))
                self.assertEqual(pg.csr().edge_count(), edges, (md, k))

    def test_permutation_invariance_radius(self):
        rng = random.Random(9)
        pts = [(float(rng.randint(0, 9)), float(rng.randint(0, 9)), 0.0) for _ in range(12)]
        base = point_graph(pts, op.LinkOptions(max_distance=3.0))
        perm = list(range(12))
        rng.shuffle(perm)
        moved = point_graph([pts[p] for p in perm], op.LinkOptions(max_distance=3.0))
        back = sorted(tuple(sorted((perm[a], perm[b]))) for a, b in links_of(moved))
        self.assertEqual(back, links_of(base))


# ----------------------------------------------------------------- graphs.md revisions

class SpecRevisionTests(unittest.TestCase):
    def test_oplm_header_by_hand(self):
        g = op.CsrGraph(2, [(0, 1, 2.0)])
        lm = op.Landmarks.build(g, op.LandmarkOptions(1))
        b = lm.serialize()
        L = lm_ids(lm)[0]
        want = (b"OPLM" + struct.pack("<I", 1) + struct.pack("<i", 2) + struct.pack("<i", 1)
                + struct.pack("<Q", g.fingerprint()) + struct.pack("<i", L))
        fwd = [0.0, 2.0] if L == 0 else [INF, 0.0]
        bwd = [0.0, INF] if L == 0 else [2.0, 0.0]
        want += struct.pack("<2d", *fwd) + struct.pack("<2d", *bwd)
        self.assertEqual(b, want)
        self.assertEqual(len(b), 24 + 4 + 16 * 2)

    def test_oplm_mutations_of_conformance_list(self):
        g = op.CsrGraph(4, [(0, 1, 1.0), (1, 2, 1.0), (2, 3, 1.0), (3, 0, 1.0)])
        lm = op.Landmarks.build(g, op.LandmarkOptions(2))
        b = lm.serialize()
        n, k = 4, 2

        def err(data):
            with self.assertRaises(E.GraphStateError) as cm:
                op.Landmarks.deserialize(data, g)
            return cm.exception.error_class, cm.exception.offset

        def patch(off, fmt, v):
            x = bytearray(b)
            struct.pack_into(fmt, x, off, v)
            return bytes(x)
        for ver in (0, 2, (1 << 32) - 1):
            self.assertEqual(err(patch(4, "<I", ver)), ("unsupported_version", 4))
        for nn in (n + 1, n - 1, -1):
            self.assertEqual(err(patch(8, "<i", nn)), ("node_count_mismatch", 8))
        for kk in (0, n + 1, -1, (1 << 31) - 1):
            self.assertEqual(err(patch(12, "<i", kk)), ("count_out_of_range", 12))
        # k - 1: expected length smaller than the input -> offset = expected length
        exp_small = 24 + 4 * (k - 1) + 16 * (k - 1) * n
        self.assertEqual(err(patch(12, "<i", k - 1)), ("length_mismatch", exp_small))
        self.assertEqual(err(patch(12, "<i", k + 1)), ("length_mismatch", len(b)))
        self.assertEqual(err(b + b"\x00"), ("length_mismatch", len(b)))

    def test_is_stale_rule(self):
        g = op.Graph(2)
        self.assertTrue(g.is_stale())                 # new graph: no compiled form
        g.compile()
        self.assertFalse(g.is_stale())
        g.add_node()
        self.assertTrue(g.is_stale())                 # a successful add_node counts
        g.compile()
        eid = g.add_edge(0, 1, 2.0)
        self.assertTrue(g.is_stale())
        g.compile()
        g.set_weight(eid, 2.0)                        # same weight still counts
        self.assertTrue(g.is_stale())
        g.compile()
        for bad in (lambda: g.set_weight(eid, -1.0), lambda: g.remove_edge(9),
                    lambda: g.add_edge(0, 7, 1.0)):
            with self.assertRaises(E.BuildError):
                bad()
            self.assertFalse(g.is_stale())            # a failed edit changes nothing
        g.remove_edge(eid)
        self.assertTrue(g.is_stale())
        with self.assertRaises(E.RemovedEdge):
            g.set_weight(eid, math.nan)               # removed_edge before invalid_weight

    def test_from_edges_orders(self):
        M = op.MAX_NODES
        with self.assertRaises(E.TooManyNodes) as cm:
            op.Graph.from_edges([(0, 9, math.nan)], M + 1, True)
        self.assertIsNone(cm.exception.index)
        with self.assertRaises(E.TooManyNodes) as cm:
            op.Graph.from_edges([(0, 1, math.nan), (0, M, 1.0)], None, False)
        self.assertIsNone(cm.exception.index)
        with self.assertRaises(E.TooManyNodes):
            op.Graph.from_edges([(0, 1, math.nan)], (1 << 64) - 1, True)
        # a negative endpoint with no count is like a too large one
        with self.assertRaises(E.TooManyNodes):
            op.Graph.from_edges([(0, 1, 1.0), (-1, 0, 1.0)], None, True)
        # with a count, it names the input index (not the edge id) in an undirected build
        for i in range(3):
            edges = [(0, 1, 1.0)] * 3
            edges[i] = (0, -1 if i == 1 else 5, 1.0)
            with self.assertRaises(E.EndpointOutOfRange) as cm:
                op.Graph.from_edges(edges, 3, False)
            self.assertEqual((cm.exception.index, cm.exception.endpoint), (i, "to"))
        with self.assertRaises(E.EndpointOutOfRange) as cm:   # endpoint before weight
            op.Graph.from_edges([(7, 0, -1.0)], 3, True)
        self.assertEqual(cm.exception.endpoint, "from")
        g = op.Graph.from_edges([(0, 1, -0.0)], None, True)
        self.assertEqual(math.copysign(1.0, graph_edge(g, 0)[0].weight), 1.0)
        with self.assertRaises(E.TooManyNodes):
            op.Graph(M + 1)
        with self.assertRaises(E.TooManyNodes):
            op.Graph(M).add_node()

    def test_port_ints_negative(self):
        g = op.Graph.from_edges([(0, 1, 1.0)], None, True)
        with self.assertRaises(E.UnknownEdge) as cm:
            g.remove_edge(-1)
        self.assertEqual(cm.exception.index, -1)
        with self.assertRaises(E.NodeOutOfRange):
            g.find_path(-1, 0)
        with self.assertRaises(E.EndpointOutOfRange) as cm:
            op.CsrGraph(2, [(0, 1, 1.0), (0, -3, 1.0)])
        self.assertEqual(cm.exception.index, 1)
        with self.assertRaises(E.LinkOutOfRange) as cm:
            point_graph([(0, 0, 0), (1, 0, 0)], op.LinkOptions(explicit=[(0, 1), (-1, 0)]))
        self.assertEqual(cm.exception.index, 1)
        s = op.GraphAStar(g.compile())
        with self.assertRaises(E.NodeOutOfRange):
            s.begin(0, -2)

    def test_point_graph_check_order(self):
        M = 2.0 ** 21
        bad_pts = [(0, 0, 0), (0, M * 2, 0), (math.nan, 0, 0)]
        with self.assertRaises(E.CoordinateOutOfRange) as cm:
            point_graph(bad_pts, op.LinkOptions(explicit=[(0, 9)], max_distance=-1.0))
        self.assertEqual((cm.exception.index, cm.exception.axis), (1, "y"))
        with self.assertRaises(E.InvalidMaxDistance) as cm:
            point_graph([(0, 0, 0)], op.LinkOptions(explicit=[(0, 9)], max_distance=math.inf))
        self.assertIsNone(cm.exception.index)
        point_graph([(M, -M, M), (-M, M, -M)], op.LinkOptions(max_distance=2.0 ** -30))

    def test_nearest_node_order_and_classes(self):
        empty = point_graph([])
        with self.assertRaises(E.InvalidPosition):
            empty.nearest_node(op.Point3(math.inf, 0, 0))     # position first, even on an empty graph
        with self.assertRaises(E.EmptyGraph) as cm:
            empty.nearest_node(op.Point3(0, 0, 0))
        self.assertIsInstance(cm.exception, E.QueryError)
        self.assertIn("empty_graph", E.QUERY_CLASSES)
        with self.assertRaises(E.InvalidPosition):
            empty.find_path_between(op.Point3(math.nan, 0, 0), op.Point3(0, 0, 0))
        with self.assertRaises(E.EmptyGraph):
            empty.find_path_between(op.Point3(0, 0, 0), op.Point3(math.nan, 0, 0))   # first position's error wins

    def test_failed_begin_changes_nothing(self):
        g = op.CsrGraph(3, [(0, 1, 1.0), (1, 2, 1.0)])
        for cls in (op.GraphAStar, op.BidirectionalGraphSearch):
            s = cls(g)
            s.begin(0, 2)
            s.run()
            before = (s.status(), s.path(), s.path_cost(), s.iterations())
            with self.assertRaises(E.NodeOutOfRange) as cm:
                s.begin(3, 7)
            self.assertEqual(cm.exception.which, "start")
            self.assertEqual((s.status(), s.path(), s.path_cost(), s.iterations()), before)

    def test_blocked_asked_per_slot_even_when_reached(self):
        # 0 -> 1, 0 -> 1 (parallel), 1 -> 0 (back to the closed start): blocked asked each slot
        log = []

        class C(object):
            def cost(self, a, b, w):
                log.append(("c", a, b))
                return w

            def blocked(self, v):
                log.append(("b", v))
                return False
        g = op.CsrGraph(3, [(0, 1, 1.0), (0, 1, 2.0), (1, 0, 1.0), (1, 2, 1.0)])
        s = op.GraphAStar(g, C())
        s.begin(0, 2)
        s.run()
        self.assertEqual(log, [("b", 0), ("b", 2),
                               ("b", 1), ("c", 0, 1), ("b", 1), ("c", 0, 1),
                               ("b", 0), ("c", 1, 0), ("b", 2), ("c", 1, 2)])

    def test_bidi_begin_sequence(self):
        log = []

        class C(object):
            def cost(self, a, b, w):
                return w

            def blocked(self, v):
                log.append(("b", v))
                return False

        class H(object):
            def estimate(self, a, b):
                log.append(("h", a, b))
                return 0.0
        g = op.CsrGraph(3, [(0, 1, 1.0), (1, 2, 1.0)])
        s = op.BidirectionalGraphSearch(g, C(), H())
        s.begin(0, 2)
        self.assertEqual(log, [("b", 0), ("b", 2), ("h", 0, 2), ("h", 0, 0),
                               ("h", 2, 2), ("h", 0, 2)])
        log.clear()
        s.begin(1, 1)
        self.assertEqual(log, [("b", 1), ("b", 1)])   # start == goal: no estimate asked
        self.assertEqual((s.status(), s.path(), s.path_cost(), s.iterations()),
                         (op.SearchStatus.Found, [1], 0.0, 0))

    def test_run_cancel_after_termination_check(self):
        ev = threading.Event()
        ev.set()
        g = op.CsrGraph(2, [(0, 1, 1.0)])

        class Inf(object):          # [GRAPH.ASTAR.START_INF]: Running with an empty open set
            def estimate(self, a, b):
                return INF
        for cls in (op.GraphAStar, op.BidirectionalGraphSearch):
            s = cls(g, None, Inf())
            s.begin(0, 1)
            self.assertEqual(s.status(), op.SearchStatus.Running)
            self.assertEqual(s.run(ev), op.SearchStatus.NotFound)   # empty/stop wins over cancel
            self.assertEqual(s.iterations(), 0)
        g = op.CsrGraph(3, [(0, 1, 1.0), (1, 2, 1.0)])
        s = op.GraphAStar(g)
        s.begin(0, 2)
        self.assertEqual(s.run(ev), op.SearchStatus.Running)
        self.assertEqual(s.run(ev), op.SearchStatus.Running)
        self.assertEqual(s.iterations(), 0)
        self.assertEqual(s.run(None), op.SearchStatus.Found)

    def test_accessors(self):
        g = op.CsrGraph(3, [(0, 1, 1.0), (1, 2, 1.0)])
        lm = op.Landmarks.build(g, op.LandmarkOptions(2))
        for l, v in ((2, 0), (-1, 0), (0, 3), (0, -1)):
            self.assertTrue(math.isnan(lm_forward(lm, l, v)))
            self.assertTrue(math.isnan(lm_backward(lm, l, v)))
        for u, v in ((3, 0), (0, 3), (-1, 0), (0, -1)):
            b = lm.lower_bound(u, v)
            self.assertEqual((b, math.copysign(1.0, b)), (0.0, 1.0))
        r = op.SeededRandom(7)
        self.assertEqual(r.next_int(0), 0)
        self.assertEqual(r.next_u64(), op.SeededRandom(7).next_u64())   # nothing drawn

    def test_heap_discipline_by_hand(self):
        s = op.OpenSet()
        s.push(5, 3.0, 0.0)
        s.push(6, 1.0, 0.0)
        s.push(7, 2.0, 0.0)
        s.push(8, 2.0, 1.0)
        nodes = lambda: [e[0] for e in s.entries()]
        self.assertEqual(nodes(), [6, 8, 7, 5])
        s.push(6, 2.0, 0.5)        # later -> sift down
        self.assertEqual(nodes(), [8, 6, 7, 5])
        s.push(5, 2.0, 0.5)        # earlier -> sift up; ties on (f, g) broken by node id
        self.assertEqual(nodes(), [8, 5, 7, 6])
        s.push(8, 2.0, 0.0)        # equal f, smaller g -> later -> sift down
        self.assertEqual(nodes(), [5, 6, 7, 8])
        self.assertEqual(s.pop(), (5, 2.0, 0.5))
        self.assertEqual(nodes(), [6, 8, 7])
        self.assertEqual(s.entries(), [(6, 2.0, 0.5), (8, 2.0, 0.0), (7, 2.0, 0.0)])


# ----------------------------------------------------------------- state (kinds 4 and 11)

HDR_GRAPH = bytes([0x4F, 0x50, 0x47, 0x53, 0x01, 0x00, 0x04, 0x00])
HDR_SEARCH = bytes([0x4F, 0x50, 0x47, 0x53, 0x01, 0x00, 0x0B, 0x00])


def search_bytes(n, status, start, goal, expanded, iterations, cost, visited=(), heap=(),
                 recorded=(), weight=1.0, vcount=None, hcount=None, rcount=None):
    """Kind-11 bytes written from spec/state.md, independently of the port's writer."""
    b = HDR_SEARCH + struct.pack("<iBdiiiid", n, status, weight, start, goal, expanded,
                                 iterations, cost)
    if status == 0:
        return b
    b += struct.pack("<i", len(visited) if vcount is None else vcount)
    for v, c, g, p in visited:
        b += struct.pack("<iBdi", v, c, g, p)
    b += struct.pack("<i", len(heap) if hcount is None else hcount)
    for v, f, g in heap:
        b += struct.pack("<idd", v, f, g)
    b += struct.pack("<i", len(recorded) if rcount is None else rcount)
    for v in recorded:
        b += struct.pack("<i", v)
    return b


# visited entry i of a kind-11 state starts at 49 + 17 i
def voff(i):
    return 49 + 17 * i


class GraphStateTests(unittest.TestCase):
    def err(self, fn, data):
        with self.assertRaises(E.GraphStateError) as cm:
            fn(data)
        e = cm.exception
        self.assertEqual(e.category, "format")
        return e.error_class, e.offset

    def test_layout_by_hand(self):
        g = op.Graph.from_edges([(0, 1, 1.5)], 3, False)
        g.remove_edge(1)
        want = (HDR_GRAPH + bytes([3, 0, 0, 0, 2, 0, 0, 0])
                + bytes([0, 0, 0, 0, 1, 0, 0, 0]) + bytes([0, 0, 0, 0, 0, 0, 0xF8, 0x3F]) + b"\x01"
                + bytes([1, 0, 0, 0, 0, 0, 0, 0]) + bytes([0, 0, 0, 0, 0, 0, 0xF8, 0x3F]) + b"\x00")
        self.assertEqual(g.save_state(), want)
        self.assertEqual(g.save_state(), want)               # twice equal
        h = op.Graph.from_state(want)
        self.assertEqual(h.save_state(), want)
        self.assertEqual((h.node_count(), h.edge_count()), (3, 2))
        self.assertEqual(edge_tuple(graph_edge(h, 1)[0]), (1, 0, 1.5))
        self.assertFalse(graph_edge(h, 1)[1])                       # removed edge keeps its id
        self.assertEqual(h.find_path(1, 0).status, op.PathStatus.NotFound)
        self.assertEqual(op.Graph(0).save_state(), HDR_GRAPH + bytes(8))

    def test_restore_replaces_and_drops_compiled(self):
        g = op.Graph.from_edges([(0, 1, 1.0), (1, 2, 1.0)], None, True)
        self.assertEqual(g.find_path(0, 2).cost, 2.0)
        self.assertFalse(g.is_stale())
        src = op.Graph.from_edges([(0, 1, 5.0)], 2, True)
        g.restore_state(src.save_state())
        self.assertTrue(g.is_stale())
        self.assertEqual((g.node_count(), g.edge_count()), (2, 1))
        self.assertEqual(g.find_path(0, 1).cost, 5.0)
        self.assertEqual(g.add_edge(1, 0, 1.0), 1)            # ids continue after the restored list

    def test_hostile_graph_states_and_atomic(self):
        src = op.Graph.from_edges([(0, 1, 1.0), (1, 2, 2.0)], 3, True)
        b = src.save_state()
        e1 = 16 + 17        # second edge
        target = op.Graph.from_edges([(0, 0, 7.0)], 1, True)
        target.compile()
        keep = target.save_state()

        def patch(off, fmt, v, base=b):
            x = bytearray(base)
            struct.pack_into(fmt, x, off, v)
            return bytes(x)
        cases = [
            (b"OPG", ("truncated", 3)),
            (b"OPGX" + b[4:], ("bad_magic", 0)),
            (b"OPGX", ("bad_magic", 0)),
            (patch(4, "<H", 2), ("unsupported_version", 4)),
            (patch(6, "<H", 11), ("wrong_kind", 6)),
            (patch(8, "<i", op.MAX_NODES + 1), ("count_out_of_range", 8)),
            (patch(8, "<i", -1), ("count_out_of_range", 8)),
            (patch(12, "<i", 3), ("count_out_of_range", 12)),
            (patch(12, "<i", -1), ("count_out_of_range", 12)),
            (b[:-1], ("count_out_of_range", 12)),              # list cut short -> at its count
            (patch(e1, "<i", 3), ("index_out_of_range", e1)),
            (patch(e1 + 4, "<i", -1), ("index_out_of_range", e1 + 4)),
            (patch(e1 + 8, "<Q", 0x7FF8000000000001), ("nan", e1 + 8)),
            (patch(e1 + 8, "<Q", 0xFFF8000000000000), ("nan", e1 + 8)),
            (patch(e1 + 8, "<d", -0.0), ("out_of_range", e1 + 8)),
            (patch(e1 + 8, "<d", -1.0), ("out_of_range", e1 + 8)),
            (patch(e1 + 8, "<d", INF), ("out_of_range", e1 + 8)),
            (patch(e1 + 16, "<B", 2), ("bad_flag", e1 + 16)),
            (b + b"\x00", ("trailing_bytes", len(b))),
            # two faults: the earlier field wins
            (patch(e1 + 16, "<B", 2, patch(16, "<i", 9)), ("index_out_of_range", 16)),
        ]
        for data, want in cases:
            self.assertEqual(self.err(target.restore_state, data), want, want)
            self.assertEqual(self.err(op.Graph.from_state, data), want, want)
            self.assertEqual(target.save_state(), keep)        # [STATE.ATOMIC]
            self.assertFalse(target.is_stale())
        for cut in range(len(b)):
            cls, off = self.err(target.restore_state, b[:cut])
            self.assertIn(cls, ("truncated", "count_out_of_range"))
            if cls == "truncated":
                self.assertEqual(off, cut)
        self.assertEqual(target.save_state(), keep)

    def test_huge_node_count_allocates_nothing_per_node(self):
        import tracemalloc
        data = HDR_GRAPH + struct.pack("<ii", op.MAX_NODES, 0)
        g = op.Graph(1)
        tracemalloc.start()
        g.restore_state(data)
        h = op.Graph.from_state(data)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        self.assertLess(peak, 64 * 1024)
        self.assertEqual((g.node_count(), h.node_count()), (op.MAX_NODES, op.MAX_NODES))
        self.assertEqual(h.save_state(), data)


class SearchStateTests(unittest.TestCase):
    def setUp(self):
        self.g = op.CsrGraph(3, [(0, 1, 1.0), (0, 2, 4.0), (1, 2, 1.0)])

    def fresh(self, record=True, graph=None, heur=None):
        s = op.GraphAStar(graph or self.g, None, heur)
        s.set_record_expansions(record)
        return s

    def err(self, s, data):
        with self.assertRaises(E.GraphStateError) as cm:
            s.restore_state(data)
        e = cm.exception
        self.assertEqual(e.category, "format")
        self.assertEqual(s.status(), op.SearchStatus.NotStarted)   # [STATE.SEARCH_FAILED]
        return e.error_class, e.offset

    def test_not_started_by_hand(self):
        want = (HDR_SEARCH + bytes([3, 0, 0, 0]) + b"\x00" + bytes([0, 0, 0, 0, 0, 0, 0xF0, 0x3F])
                + b"\xff" * 8 + bytes(8) + bytes([0, 0, 0, 0, 0, 0, 0xF0, 0x7F]))
        self.assertEqual(len(want), 45)
        self.assertEqual(self.fresh().save_state(), want)

    def test_running_state_by_hand(self):
        s = self.fresh()
        s.begin(0, 2)
        s.step(1)
        want = (HDR_SEARCH
                + bytes([3, 0, 0, 0]) + b"\x01" + bytes([0, 0, 0, 0, 0, 0, 0xF0, 0x3F])   # N, status, weight
                + bytes([0, 0, 0, 0]) + bytes([2, 0, 0, 0])                             # start, goal
                + bytes([1, 0, 0, 0]) + bytes([1, 0, 0, 0])                             # expanded, iterations
                + bytes([0, 0, 0, 0, 0, 0, 0xF0, 0x7F])                                 # path cost +inf
                + bytes([3, 0, 0, 0])                                                   # visited
                + bytes([0, 0, 0, 0]) + b"\x01" + bytes(8) + b"\xff\xff\xff\xff"
                + bytes([1, 0, 0, 0]) + b"\x00" + bytes([0, 0, 0, 0, 0, 0, 0xF0, 0x3F]) + bytes(4)
                + bytes([2, 0, 0, 0]) + b"\x00" + bytes([0, 0, 0, 0, 0, 0, 0x10, 0x40]) + bytes(4)
                + bytes([2, 0, 0, 0])                                                   # heap count
                + bytes([1, 0, 0, 0]) + bytes([0, 0, 0, 0, 0, 0, 0xF0, 0x3F]) * 2
                + bytes([2, 0, 0, 0]) + bytes([0, 0, 0, 0, 0, 0, 0x10, 0x40]) * 2
                + bytes([1, 0, 0, 0]) + bytes([0, 0, 0, 0]))                            # recorded [0]
        self.assertEqual(s.save_state(), want)
        self.assertEqual(s.save_state(), want)
        self.assertEqual(search_bytes(3, 1, 0, 2, 1, 1, INF, [(0, 1, 0.0, -1), (1, 0, 1.0, 0),
                                                            (2, 0, 4.0, 0)],
                                      [(1, 1.0, 1.0), (2, 4.0, 4.0)], [0]), want)
        t = self.fresh()
        t.restore_state(want)
        self.assertEqual(t.save_state(), want)
        self.assertEqual(t.run(), op.SearchStatus.Found)
        self.assertEqual((t.path(), t.path_cost(), t.iterations(), t.expanded_count(),
                          t.expansions()), ([0, 1, 2], 2.0, 3, 2, [0, 1]))

    def test_recording_switch_is_not_state(self):
        s = self.fresh(record=True)
        s.begin(0, 2)
        s.step(1)
        t = self.fresh(record=False)
        t.restore_state(s.save_state())
        self.assertEqual(t.expansions(), [0])          # installed as it is
        t.run()
        self.assertEqual(t.expansions(), [0])          # not recording: no appends
        self.assertEqual(t.expanded_count(), 2)

    def test_found_and_notfound_roundtrip(self):
        s = self.fresh()
        s.begin(0, 2)
        s.run()
        b = s.save_state()
        t = self.fresh()
        t.restore_state(b)
        self.assertEqual((t.status(), t.path(), t.path_cost()), (op.SearchStatus.Found, [0, 1, 2], 2.0))
        self.assertEqual(t.save_state(), b)
        s.begin(2, 0)
        s.run()
        t.restore_state(s.save_state())
        self.assertEqual((t.status(), t.path(), t.path_cost()), (op.SearchStatus.NotFound, [], INF))
        self.assertEqual(t.save_state(), s.save_state())

    def test_sliced_through_snapshots(self):
        rng = random.Random(11)
        checked = 0
        for trial in range(80):
            n = rng.randint(2, 14)
            edges = random_int_graph(rng, n, rng.randint(n, 4 * n))
            g = op.CsrGraph(n, edges)
            hv = [rng.randint(0, 6) for _ in range(n)]

            class H(object):        # inconsistent on purpose: reopenings happen
                def estimate(self, a, b, hv=hv):
                    return float(hv[a]) if a != b else 0.0
            s, t = rng.randrange(n), rng.randrange(n)
            alt = AltGraphHeuristic(op.Landmarks.build(g, op.LandmarkOptions(2)))
            # (estimate, recording): the inconsistent estimate reopens recorded nodes
            for heur, record in ((None, True), (alt, True), (H(), True), (H(), False)):
                ref = self.fresh(record=record, graph=g, heur=heur)
                ref.begin(s, t)
                ref.run()
                want = (ref.status(), ref.path(), ref.path_cost(), ref.iterations(),
                        ref.expanded_count(), ref.expansions())
                final = ref.save_state()
                for k in sorted({0, 1, 2, 3, ref.iterations() // 2, ref.iterations()}):
                    x = self.fresh(record=record, graph=g, heur=heur)
                    x.begin(s, t)
                    x.step(k)
                    snap = x.save_state()
                    self.assertEqual(x.save_state(), snap)
                    y = self.fresh(record=record, graph=g, heur=heur)
                    y.restore_state(snap)
                    self.assertEqual(y.save_state(), snap)             # save -> restore -> save
                    y.run()
                    got = (y.status(), y.path(), y.path_cost(), y.iterations(),
                           y.expanded_count(), y.expansions())
                    self.assertEqual(got, want, (trial, k))
                    self.assertEqual(y.save_state(), final, (trial, k))
                    checked += 1
        self.assertGreater(checked, 400)

    def test_reopened_recorded_node(self):
        # [GRAPH.ASTAR.EXPAND] reopens closed nodes, so a recorded (expanded) node can be open
        # again; [STATE.SEARCH.CHECKS] therefore asks recorded nodes to be visited, not closed.
        # 0 -> 1 (2), 0 -> 2 (0), 2 -> 1 (0), 1 -> 3 (5); h(2) = 3, else 0.  Pops: 0; 1 (f 2,
        # expanded at g 2); 2 (f 3) relaxes 2 -> 1 to g 0 < 2, so 1 is reopened and pushed.
        g = op.CsrGraph(4, [(0, 1, 2.0), (0, 2, 0.0), (2, 1, 0.0), (1, 3, 5.0)])
        hv = {0: 0.0, 1: 0.0, 2: 3.0, 3: 0.0}

        class H(object):
            def estimate(self, a, b):
                return hv[a]
        s = op.GraphAStar(g, None, H())
        s.set_record_expansions(True)
        s.begin(0, 3)
        s.step(3)                  # pops 0, 1 (g 2, f 2), 2 (g 0, f 3) -> 1 reopened at g 0
        self.assertEqual(s.expansions(), [0, 1, 2])
        self.assertIn(1, [e[0] for e in s._open.entries()])
        b = s.save_state()
        t = op.GraphAStar(g, None, H())
        t.set_record_expansions(True)
        t.restore_state(b)
        self.assertEqual(t.save_state(), b)
        s.run()
        t.run()
        self.assertEqual((t.expansions(), t.save_state()), (s.expansions(), s.save_state()))
        # without recording the same search round-trips
        s.set_record_expansions(False)
        s.begin(0, 3)
        s.step(3)
        t.restore_state(s.save_state())
        self.assertEqual(t.save_state(), s.save_state())

    def test_hostile_search_states(self):
        n = 3
        ok_v = [(0, 1, 0.0, -1), (1, 0, 1.0, 0), (2, 0, 4.0, 0)]
        ok_h = [(1, 1.0, 1.0), (2, 4.0, 4.0)]
        base = search_bytes(n, 1, 0, 2, 1, 1, INF, ok_v, ok_h, [0])
        heap_at = voff(3) + 4           # first heap slot's node field
        rec_at = heap_at + 2 * 20       # recorded count
        s = self.fresh()
        s.restore_state(base)

        def patch(off, fmt, v, data=base):
            x = bytearray(data)
            struct.pack_into(fmt, x, off, v)
            return bytes(x)
        sb = search_bytes
        cases = [
            (b"", ("truncated", 0)),
            (patch(6, "<H", 4), ("wrong_kind", 6)),
            (patch(8, "<i", 4), ("size_mismatch", 8)),
            (patch(12, "<B", 4), ("out_of_range", 12)),
            (patch(13, "<d", 2.0), ("size_mismatch", 13)),
            (patch(13, "<d", math.nan), ("nan", 13)),
            (patch(21, "<i", 3), ("index_out_of_range", 21)),
            (patch(25, "<i", -1), ("index_out_of_range", 25)),
            (sb(n, 0, 0, -1, 0, 0, INF), ("index_out_of_range", 21)),
            (sb(n, 0, -1, -1, 1, 1, INF), ("out_of_range", 29)),
            (sb(n, 0, -1, -1, 0, 0, 1.0), ("out_of_range", 37)),
            (sb(n, 0, -1, -1, 0, 0, INF) + b"\x00", ("trailing_bytes", 45)),
            (patch(29, "<i", -1), ("out_of_range", 29)),
            (patch(29, "<i", 2), ("out_of_range", 33)),        # expanded > iterations
            (patch(37, "<d", 2.0), ("out_of_range", 37)),      # not Found: cost must be +inf
            (patch(37, "<d", math.nan), ("nan", 37)),
            (patch(45, "<i", 4), ("count_out_of_range", 45)),
            (patch(45, "<i", -1), ("count_out_of_range", 45)),
            (patch(voff(1), "<i", 0), ("not_increasing", voff(1))),
            (patch(voff(2), "<i", 3), ("index_out_of_range", voff(2))),
            (patch(voff(1) + 4, "<B", 2), ("bad_flag", voff(1) + 4)),         # flag 2
            (patch(voff(1) + 5, "<d", math.nan), ("nan", voff(1) + 5)),
            (patch(voff(1) + 5, "<d", -1.0), ("out_of_range", voff(1) + 5)),
            (patch(voff(1) + 5, "<d", INF), ("out_of_range", voff(1) + 5)),
            (patch(voff(1) + 13, "<i", 3), ("index_out_of_range", voff(1) + 13)),
            (patch(voff(1) + 13, "<i", -2), ("index_out_of_range", voff(1) + 13)),
            (patch(voff(3), "<i", 3), ("count_out_of_range", voff(3))),      # heap > visited
            (patch(heap_at, "<i", 0), ("bad_heap_node", heap_at)),           # closed node
            (patch(heap_at, "<i", 7), ("bad_heap_node", heap_at)),           # outside 0..N
            (patch(heap_at + 20, "<i", 1), ("duplicate_node", heap_at + 20)),
            (patch(heap_at + 4, "<d", math.nan), ("nan", heap_at + 4)),
            (patch(heap_at + 12, "<d", 1.5), ("out_of_range", heap_at + 12)),
            (sb(n, 1, 0, 2, 1, 1, INF, ok_v, ok_h[::-1], [0]), ("heap_order", heap_at + 20)),
            (patch(rec_at, "<i", 2), ("count_out_of_range", rec_at)),        # > expanded
            (patch(rec_at + 4, "<i", 5), ("bad_heap_node", rec_at + 4)),      # outside 0..N
            (base + b"\x00", ("trailing_bytes", len(base))),
            # cross checks
            (sb(n, 1, 0, 2, 1, 1, INF, ok_v, ok_h[:1], [0]), ("missing_open_node", voff(2))),
            (sb(n, 1, 0, 2, 1, 1, INF, [(0, 1, 0.0, -1), (1, 0, 1.0, -1), (2, 0, 4.0, 0)],
                ok_h, [0]), ("bad_parent", voff(1))),
            (sb(n, 1, 0, 2, 1, 1, INF, [(0, 1, 0.5, -1), (1, 0, 1.0, 0), (2, 0, 4.0, 0)],
                ok_h, [0]), ("bad_parent", voff(0))),
            (sb(n, 1, 0, 2, 1, 1, INF, [(0, 1, 0.0, 1), (1, 0, 1.0, 0), (2, 0, 4.0, 0)],
                ok_h, [0]), ("bad_parent", voff(0))),
            # parent costing more than the child
            (sb(n, 1, 0, 2, 1, 1, INF, [(0, 1, 0.0, -1), (1, 0, 1.0, 2), (2, 0, 4.0, 0)],
                ok_h, [0]), ("bad_parent", voff(1))),
            # parent not visited
            (sb(n, 1, 0, 2, 1, 1, INF, [(0, 1, 0.0, -1), (2, 0, 4.0, 1)],
                [(2, 4.0, 4.0)], [0]), ("bad_parent", voff(1))),
            # parent cycle 1 <-> 2 at equal g: reported at the smaller node
            (sb(n, 1, 0, 2, 1, 1, INF, [(0, 1, 0.0, -1), (1, 0, 1.0, 2), (2, 0, 1.0, 1)],
                [(1, 1.0, 1.0), (2, 1.0, 1.0)], [0]), ("parent_cycle", voff(1))),
            # self-parent
            (sb(n, 1, 0, 2, 1, 1, INF, [(0, 1, 0.0, -1), (2, 0, 0.0, 2)],
                [(2, 0.0, 0.0)], [0]), ("parent_cycle", voff(1))),
            # Found: goal never visited -> path-cost field; goal g differs -> goal's entry
            (sb(n, 2, 0, 2, 1, 2, 2.0, [(0, 1, 0.0, -1), (1, 1, 1.0, 0)], [], [0]),
             ("out_of_range", 37)),
            (sb(n, 2, 0, 2, 2, 3, 3.0, [(0, 1, 0.0, -1), (1, 1, 1.0, 0), (2, 1, 2.0, 1)], [], [0, 1]),
             ("out_of_range", voff(2))),
            (sb(n, 2, 0, 2, 1, 1, 4.0, ok_v, ok_h, [0]), ("out_of_range", voff(2))),   # goal open
            (patch(37, "<d", -1.0, sb(n, 2, 0, 0, 0, 1, 0.0, [(0, 1, 0.0, -1)], [], [])),
             ("out_of_range", 37)),
        ]
        for data, want in cases:
            self.assertEqual(self.err(s, data), want, want)
            self.assertEqual(s.save_state(), self.fresh().save_state())
            s.restore_state(base)                       # restorable again afterwards
        # every listed state is accepted once the fault is removed
        good = sb(n, 2, 0, 2, 2, 3, 2.0, [(0, 1, 0.0, -1), (1, 1, 1.0, 0), (2, 1, 2.0, 1)], [], [0, 1])
        s.restore_state(good)
        self.assertEqual((s.path(), s.save_state()), ([0, 1, 2], good))

    def test_truncation_everywhere(self):
        rng = random.Random(4)
        for _ in range(15):
            n = rng.randint(2, 9)
            g = op.CsrGraph(n, random_int_graph(rng, n, 3 * n))
            s = self.fresh(graph=g)
            s.begin(rng.randrange(n), rng.randrange(n))
            s.step(rng.randint(0, 4))
            b = s.save_state()
            t = self.fresh(graph=g)
            for cut in range(len(b)):
                try:
                    t.restore_state(b[:cut])
                except E.GraphStateError as e:
                    self.assertIn(e.error_class, ("truncated", "count_out_of_range"))
                    if e.error_class == "truncated":
                        self.assertEqual(e.offset, cut)
                else:
                    self.fail("accepted a truncated state")
                self.assertEqual(t.status(), op.SearchStatus.NotStarted)
            t.restore_state(b)
            self.assertEqual(t.save_state(), b)

    def test_wide_counters_clamped(self):
        s = self.fresh()
        s.begin(0, 2)
        s.step(1)
        s._iterations = 1 << 40
        s._expanded = 1 << 40
        b = s.save_state()
        self.assertEqual(struct.unpack_from("<ii", b, 29), ((1 << 31) - 1, (1 << 31) - 1))


if __name__ == "__main__":
    unittest.main()
