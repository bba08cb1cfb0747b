"""Property tests for the Python HPA* (stdlib unittest only).

Run: cd conformance/ports/python && python3 -B -m unittest -q test_hpa

Each test checks one property spec/hpa.md states, on seeded random grids:
[HPA.REFRESH.EQUAL] (a refreshed hierarchy equals a new one), [HPA.COMPLETE] and [HPA.QUALITY]
(found exactly when a Dijkstra over the moves reaches the goal, cost not below it, the path made
of allowed moves whose left-fold cost is the reported cost), [HPA.SLICED.API] (any step
schedule gives tier 1's result) and [HPA.REFRESH.REBUILT] (nothing changed: nothing rebuilt).
"""

import heapq
import math
import random
import unittest

from onepath_py.grid_search import Grid
from onepath_py.hpa import HpaHierarchy, HpaOptions, direction_index, move_context, path_cost
from onepath_py.hpa_search import HpaSearch, find_hpa_path
from onepath_py.options import PathStatus

INF = math.inf


def random_grid(rng):
    w, h = rng.randint(3, 18), rng.randint(3, 18)
    g = Grid(w, h)
    for area, m in ((1, 0.5), (2, 2.0), (3, 3.25)):
        g.set_area_multiplier(area, m)
    wall = rng.choice((0.05, 0.3))
    for y in range(h):
        for x in range(w):
            r = rng.random()
            if r < wall:
                g.set_cell(x, y, 255)
            elif r < wall + 0.2:
                g.set_cell(x, y, rng.randint(1, 3))
    return g


def random_options(rng):
    return HpaOptions(chunk_size=rng.randint(2, 8), connectivity=rng.choice((4, 8, 8)),
                      diagonal=rng.randint(0, 2), heuristic_weight=rng.choice((1.0, 1.5)),
                      smooth=rng.random() < 0.5, iteration_budget=0,
                      record_expansions=True)


def dijkstra(ctx, s):
    dist = {s: 0.0}
    heap = [(0.0, s)]
    done = set()
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        done.add(u)
        for di in range(8):
            v = ctx.move(u, di)
            if v < 0:
                continue
            nd = d + ctx.move_cost(u, v, di)
            if nd < dist.get(v, INF):
                dist[v] = nd
                heapq.heappush(heap, (nd, v))
    return dist


def snapshot(h):
    return ([(n.cell, n.chunk) for n in h.nodes()],
            [(e.from_, e.to, e.cost.hex(), e.kind, tuple(h.edge_path(e.from_, e.to)))
             for e in h.edges()], h.chunks())


class HpaProperties(unittest.TestCase):

    def test_refresh_equals_new(self):
        """[HPA.REFRESH.EQUAL] [HPA.REFRESH.DIRTY] after random edits."""
        rng = random.Random(7)
        for _ in range(60):
            g, o = random_grid(rng), random_options(rng)
            h = HpaHierarchy(o)
            h.refresh(g)
            for _round in range(3):
                for _e in range(rng.randint(0, 4)):
                    x, y = rng.randrange(g.width()), rng.randrange(g.height())
                    g.set_cell(x, y, 255 if rng.random() < 0.4 else rng.randint(0, 3))
                h.refresh(g)
                fresh = HpaHierarchy(o)
                fresh.refresh(g)
                self.assertEqual(snapshot(h), snapshot(fresh))

    def test_nothing_changed_rebuilds_nothing(self):
        """[HPA.REFRESH.REBUILT]"""
        rng = random.Random(8)
        g, o = random_grid(rng), random_options(rng)
        h = HpaHierarchy(o)
        h.refresh(g)
        cx, cy = h.chunks()
        self.assertEqual(h.rebuilt_chunks(), list(range(cx * cy)))
        h.refresh(g)
        self.assertEqual(h.rebuilt_chunks(), [])

    def test_complete_and_quality(self):
        """[HPA.COMPLETE] [HPA.QUALITY] [HPA.COST.REPORTED] against a Dijkstra over all cells."""
        rng = random.Random(9)
        for _ in range(120):
            g, o = random_grid(rng), random_options(rng)
            ctx = move_context(g, o)
            s = (rng.randrange(g.width()), rng.randrange(g.height()))
            t = (rng.randrange(g.width()), rng.randrange(g.height()))
            sc, tc = s[1] * g.width() + s[0], t[1] * g.width() + t[0]
            p = find_hpa_path(g, s, t, o)
            reach = ctx.passable[sc] and ctx.passable[tc] and tc in dijkstra(ctx, sc)
            self.assertEqual(p.status == PathStatus.Found, reach)
            if not reach:
                self.assertEqual((p.cells, p.cost), ([], INF))
                continue
            best = dijkstra(ctx, sc)[tc]
            self.assertEqual((p.cells[0], p.cells[-1]), (sc, tc))
            for a, b in zip(p.cells, p.cells[1:]):
                self.assertEqual(ctx.move(a, direction_index(g.width(), a, b)), b)
            self.assertEqual(path_cost(ctx, p.cells), p.cost)
            self.assertGreaterEqual(p.cost, best)
            self.assertEqual(len(p.expanded), p.expanded_count)

    def test_sliced_equals_tier1(self):
        """[HPA.SLICED.API] [GRAPH.ASTAR.SLICED]"""
        rng = random.Random(10)
        for _ in range(60):
            g, o = random_grid(rng), random_options(rng)
            s = (rng.randrange(g.width()), rng.randrange(g.height()))
            t = (rng.randrange(g.width()), rng.randrange(g.height()))
            p = find_hpa_path(g, s, t, o)
            h = HpaHierarchy(o)
            q = HpaSearch(g, h)
            q.begin(s, t)
            sched = [rng.randint(1, 5) for _ in range(rng.randint(1, 3))]
            i = 0
            while q.status() == 1:
                q.step(sched[i % len(sched)])
                i += 1
            self.assertEqual((q.path(), q.path_cost(), q.expansions(), q.iterations()),
                             (p.cells, p.cost, p.expanded, p.iterations))


if __name__ == "__main__":
    unittest.main()


class HpaCancelQuery(unittest.TestCase):
    """[CONF.HPA.CANCEL] The cancel query of ``run_hpa``: begin, step(k), two cancelled runs
    that pop nothing, a resumed run equal to the uncancelled query."""

    def request(self, queries):
        return {"map": {"width": 10, "height": 10, "cells": "00" * 100, "multipliers": [],
                        "space": None},
                "options": {"chunk_size": 4, "connectivity": 8, "diagonal": 2, "weight": 1.0,
                            "smooth": False, "record": True, "budget": 0},
                "queries": queries}

    def test_trace_and_resumed_outcome(self):
        from onepath_py import hpa_requests
        q = {"edits": [], "start": [0, 0], "goal": [9, 9], "schedule": []}
        plain = dict(q, schedule=[1000])
        r = hpa_requests.run_hpa(self.request([dict(q, cancel=k) for k in (0, 1, 2)] + [plain]))
        replies = [x["path"] for x in r["ran"]["queries"]]
        self.assertNotIn("cancel", replies[3])
        for k, p in zip((0, 1, 2), replies):
            self.assertEqual(p["cancel"], [[1, k]] * 3)
            same = {f: v for f, v in p.items() if f not in ("cancel", "rebuilt")}
            self.assertEqual(same, {f: v for f, v in replies[3].items() if f != "rebuilt"})

    def test_cancel_with_a_schedule_is_malformed(self):
        from onepath_py import hpa_requests
        q = {"edits": [], "start": [0, 0], "goal": [9, 9], "schedule": [1], "cancel": 0}
        with self.assertRaises(AssertionError):
            hpa_requests.run_hpa(self.request([q]))
