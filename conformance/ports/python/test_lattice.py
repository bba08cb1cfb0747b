"""Hand-checked tests of the hex and voxel searches (spec/hex-search.md, spec/voxel-search.md)
and of the run_lattice wire form ([CONF.LATTICE.*]), stdlib unittest only.

Every expected value below was worked out by hand from the spec (the working is in the comments);
``test_oracle_*`` add a randomized comparison with a Dijkstra written here again from [HEX.PASS] ...
[HEX.MOVE.COST] and [VOXEL.PASS] ... [VOXEL.COST.MOVE] ([CONF.LATTICE.ORACLE]).

Run: cd conformance/ports/python && python3 -B -m unittest -q test_lattice
"""

import heapq
import math
import random
import struct
import subprocess
import sys
import os
import json
import unittest

from onepath_py import lattice_requests as L
from onepath_py.hex_search import hex_neighbours
from onepath_py.replan_moves import hex_axial
from onepath_py.voxel_search import VOXEL_ORDER, passed_offsets, voxel_distance

INF = math.inf
SQRT_2 = 1.4142135623730951
SQRT_3 = 1.7320508075688772
HERE = os.path.dirname(os.path.abspath(__file__))


def hex_distance(layout, x1, y1, x2, y2):
    """[GRID.HEX.DISTANCE] ``(|dq| + |dr| + |dq + dr|) / 2`` over axial coordinates (the port's
    search computes it inline; no request reads it alone)."""
    q1, r1 = hex_axial(layout, x1, y1)
    q2, r2 = hex_axial(layout, x2, y2)
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def bits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", float(x)))[0]


def unbits(s):
    return struct.unpack("<d", struct.pack("<Q", int(s, 16)))[0]


def hex_opts(**kw):
    o = {"agent_size": 1, "connectivity": 8, "diagonal": 2, "algorithm": 0, "cell_cost": None,
         "blocked": None, "weight": 1.0, "record": True, "budget": 0}
    o.update(kw)
    return o


def vox_opts(**kw):
    o = {"connectivity": 26, "diagonal": 2, "algorithm": 0, "cell_cost": None, "blocked": None,
         "weight": 1.0, "record": True, "budget": 0}
    o.update(kw)
    return o


def hex_req(w, h, cells=None, layout=0, mults=(), space=None, options=None, queries=()):
    cells = cells if cells is not None else [0] * (w * h)
    return {"hex": {"layout": layout,
                    "map": {"width": w, "height": h, "cells": bytes(cells).hex(),
                            "multipliers": [list(p) for p in mults], "space": space},
                    "options": options or hex_opts(),
                    "queries": [{"start": list(s), "goal": list(g), "schedule": list(sc)}
                                for s, g, sc in queries]}}


def vox_req(size, cells=None, mults=(), space=None, options=None, queries=()):
    n = size[0] * size[1] * size[2]
    cells = cells if cells is not None else [0] * n
    return {"voxel": {"size": list(size), "cells": bytes(cells).hex(),
                      "multipliers": [list(p) for p in mults], "space": space,
                      "options": options or vox_opts(),
                      "queries": [{"start": list(s), "goal": list(g), "schedule": list(sc)}
                                  for s, g, sc in queries]}}


def one(req):
    r = L.run_lattice(req)
    return r["ran"][0]


def path(q):
    return q["path"]


class HexGeometry(unittest.TestCase):
    """[GRID.HEX.NEIGHBOURS] [GRID.HEX.OFFSETS] [GRID.HEX.AXIAL] [GRID.HEX.DISTANCE]"""

    def test_neighbour_order_per_layout(self):
        # 3x3 grids; the centre cell (1, 1) = 4 and the middle of the top row (1, 0) = 1.
        # odd-r, (1,1) odd row: (1,-1)(1,0)(1,1)(0,1)(-1,0)(0,-1) -> (2,0)(2,1)(2,2)(1,2)(0,1)(1,0)
        self.assertEqual(hex_neighbours(0, 3, 3, 4), (2, 5, 8, 7, 3, 1))
        # odd-r, (1,0) even row: (0,-1)x (1,0)->(2,0) (0,1)->(1,1) (-1,1)->(0,1) (-1,0)->(0,0) (-1,-1)x
        self.assertEqual(hex_neighbours(0, 3, 3, 1), (2, 4, 3, 0))
        # even-r, (1,1) odd row uses odd-r's even list: (0,-1)(1,0)(0,1)(-1,1)(-1,0)(-1,-1)
        #   -> (1,0)(2,1)(1,2)(0,2)(0,1)(0,0)
        self.assertEqual(hex_neighbours(1, 3, 3, 4), (1, 5, 7, 6, 3, 0))
        # even-r, (1,0) even row uses the odd list: (1,-1)x (1,0)->(2,0) (1,1)->(2,1) (0,1)->(1,1)
        #   (-1,0)->(0,0) (0,-1)x
        self.assertEqual(hex_neighbours(1, 3, 3, 1), (2, 5, 4, 0))
        # odd-q, (1,1) odd column: (0,-1)(1,0)(1,1)(0,1)(-1,1)(-1,0) -> (1,0)(2,1)(2,2)(1,2)(0,2)(0,1)
        self.assertEqual(hex_neighbours(2, 3, 3, 4), (1, 5, 8, 7, 6, 3))
        # odd-q, (0,1) even column: (0,-1)->(0,0) (1,-1)->(1,0) (1,0)->(1,1) (0,1)->(0,2) (-1,0)x (-1,-1)x
        self.assertEqual(hex_neighbours(2, 3, 3, 3), (0, 1, 4, 6))
        # even-q, (1,1) odd column uses odd-q's even list: (0,-1)(1,-1)(1,0)(0,1)(-1,0)(-1,-1)
        #   -> (1,0)(2,0)(2,1)(1,2)(0,1)(0,0)
        self.assertEqual(hex_neighbours(3, 3, 3, 4), (1, 2, 5, 7, 3, 0))
        # even-q, (0,1) even column uses the odd list: (0,-1)->(0,0) (1,0)->(1,1) (1,1)->(1,2)
        #   (0,1)->(0,2) (-1,1)x (-1,0)x
        self.assertEqual(hex_neighbours(3, 3, 3, 3), (0, 4, 7, 6))

    def test_distance(self):
        # odd-r (0,0) -> (3,2): axial (0,0) and (3 - (2 - 0)/2, 2) = (2, 2): (2 + 2 + 4) / 2 = 4
        self.assertEqual(hex_distance(0, 0, 0, 3, 2), 4)
        # even-r (0,0) -> (0,1): axial (0,0), (0 - (1 + 1)/2, 1) = (-1, 1): (1 + 1 + 0) / 2 = 1
        self.assertEqual(hex_distance(1, 0, 0, 0, 1), 1)
        # odd-q (0,0) -> (2,1): axial (0,0), (2, 1 - 1) = (2, 0): 2
        self.assertEqual(hex_distance(2, 0, 0, 2, 1), 2)
        # even-q (1,0) -> (0,0): axial (1, 0 - 1) = (1,-1), (0,0): (1 + 1 + 0) / 2 = 1
        self.assertEqual(hex_distance(3, 1, 0, 0, 0), 1)
        # every neighbour is at distance 1, in every layout
        for lay in range(4):
            for u in range(25):
                for v in hex_neighbours(lay, 5, 5, u):
                    self.assertEqual(hex_distance(lay, u % 5, u // 5, v % 5, v // 5), 1)


class HexSearches(unittest.TestCase):
    """[HEX.*] through the wire form."""

    def test_costs_multipliers_and_counters(self):
        # odd-r 3x1: cells 0, 1 (area 1, m 2.5), 2 (area 2, m 0.5); mmin = 0.5.
        # begin: h(0) = (2 * 0.5) * 1 = 1.0, push (0, 1, 0).  pop 0 (it 1), expand: 1 with
        # g 2.5, h 0.5, f 3.0 (expanded 1).  pop 1 (it 2): 2 with g 2.5 + 0.5 = 3.0, h 0 (expanded
        # 2).  pop 2 (it 3): Found, cost 3.0.  Centres (x + 0.5, 0.5).
        q = path(one(hex_req(3, 1, [0, 1, 2], mults=[(1, 2.5), (2, 0.5)],
                             queries=[((0, 0), (2, 0), [])])))
        self.assertEqual(q, {"status": 2, "algorithm": 0, "cost": bits(3.0), "cells": [0, 1, 2],
                             "points": [[bits(0.5), bits(0.5)], [bits(1.5), bits(0.5)],
                                        [bits(2.5), bits(0.5)]],
                             "expanded": [0, 1], "expanded_count": 2, "iterations": 3})

    def test_tie_order_and_first_parent(self):
        # odd-r 2x2: 0 -> [1, 2]; 1 -> [3, 2, 0]; 2 -> [1, 3, 0]; 3 -> [2, 1].  Dijkstra 0 -> 3:
        # pop 0, push 1, 2 (f = g = 1); pop 1 (smaller index), push 3 (g 2); pop 2: 3 at g 2 is
        # no improvement (first parent); pop 3: path 0, 1, 3, cost 2, 4 iterations.
        q = path(one(hex_req(2, 2, options=hex_opts(algorithm=1), queries=[((0, 0), (1, 1), [])])))
        self.assertEqual((q["cells"], q["cost"], q["expanded"], q["iterations"]),
                         ([0, 1, 3], bits(2.0), [0, 1, 2], 4))

    def test_walls_blocked_and_space(self):
        # odd-r 3x2 with (1,0) a wall: 0 (0,0) -> [1x, 3]; 3 (0,1) odd: (1,0)x->1 wall, (1,1)->4,
        # (0,0)->0 ...; goal (2,0) = 2 via 0, 3, 4, 2 ((1,1) odd row NE is (2,0)): cost 3.
        # space (1, -2, 0.5): centre of (x, y) is (1 + (x + 0.5) * 0.5, -2 + (y + 0.5) * 0.5).
        q = path(one(hex_req(3, 2, [0, 255, 0, 0, 0, 0], space=[1.0, -2.0, 0.5],
                             queries=[((0, 0), (2, 0), [])])))
        self.assertEqual(q["cells"], [0, 3, 4, 2])
        self.assertEqual(q["cost"], bits(3.0))
        self.assertEqual(q["points"][1], [bits(1.25), bits(-1.25)])
        # a blocked hook on cell 3 (3 % 4 == 3) leaves 0 with no move: NotFound after 1 pop.
        q = path(one(hex_req(3, 2, [0, 255, 0, 0, 0, 0],
                             options=hex_opts(blocked={"modulus": 4, "residue": 3}),
                             queries=[((0, 0), (2, 0), [])])))
        self.assertEqual((q["status"], q["cost"], q["cells"], q["points"], q["iterations"],
                          q["expanded_count"]), (3, bits(INF), [], [], 1, 1))
        # a wall start: NotFound at once, nothing pushed, no iteration.
        q = path(one(hex_req(3, 2, [0, 255, 0, 0, 0, 0], queries=[((1, 0), (2, 0), [])])))
        self.assertEqual((q["status"], q["iterations"], q["expanded"]), (3, 0, []))

    def test_hooks(self):
        # 3x1 row: moves 0->1 and 1->2.  extra_where{1, 0.25}: every move + 0.25: 1.25 + 1.25.
        q = path(one(hex_req(3, 1, options=hex_opts(cell_cost={"extra_where": {"modulus": 1, "extra": 0.25}}),
                             queries=[((0, 0), (2, 0), [])])))
        self.assertEqual(q["cost"], bits(2.5))
        # extra -0.0 counts as 0: cost 2.0 exactly.
        q = path(one(hex_req(3, 1, options=hex_opts(cell_cost={"extra_where": {"modulus": 1, "extra": -0.0}}),
                             queries=[((0, 0), (2, 0), [])])))
        self.assertEqual(q["cost"], bits(2.0))
        # invalid_where{1}: every move's extra is NaN, -1 or +inf: no move allowed.
        q = path(one(hex_req(3, 1, options=hex_opts(cell_cost={"invalid_where": {"modulus": 1}}),
                             queries=[((0, 0), (2, 0), [])])))
        self.assertEqual((q["status"], q["iterations"]), (3, 1))
        # invalid_where{2}: (from + 3 to) % 2 == 0 for 0->1? 3 % 2 = 1: extra 0.5; 1->2: 7 % 2 = 1:
        # 0.5.  Cost 1.5 + 1.5 = 3.0.
        q = path(one(hex_req(3, 1, options=hex_opts(cell_cost={"invalid_where": {"modulus": 2}}),
                             queries=[((0, 0), (2, 0), [])])))
        self.assertEqual(q["cost"], bits(3.0))

    def test_budget_sliced_and_start_goal(self):
        # tier-1 budget 1 on the 3x1 row: pop 0, expand, then the budget: BudgetExhausted (4).
        q = path(one(hex_req(3, 1, options=hex_opts(budget=1), queries=[((0, 0), (2, 0), [])])))
        self.assertEqual((q["status"], q["cost"], q["cells"], q["expanded"], q["expanded_count"],
                          q["iterations"]), (4, bits(INF), [], [0], 1, 1))
        # the sliced form with budgets [1] ends Found with the tier-1 counters, no points.
        r = L.run_lattice(hex_req(3, 1, queries=[((0, 0), (2, 0), []), ((0, 0), (2, 0), [1]),
                                                 ((0, 0), (2, 0), [2, 1])]))
        t1, s1, s2 = [path(x) for x in r["ran"]]
        self.assertEqual(s1["points"], [])
        for k in ("status", "cost", "cells", "expanded", "expanded_count", "iterations"):
            self.assertEqual(t1[k], s1[k], k)
            self.assertEqual(t1[k], s2[k], k)
        # step(0) pops nothing ([GRAPH.ASTAR.STEP]; SPEC_NOTES_LATTICE.md 1): [0, 1] interleaves
        # empty calls, [0] alone stops at the 2^20 cap, Running with no iteration.
        r = L.run_lattice(hex_req(3, 1, queries=[((0, 0), (2, 0), [0, 1]), ((0, 0), (2, 0), [0])]))
        self.assertEqual(path(r["ran"][0])["iterations"], 3)
        self.assertEqual((path(r["ran"][1])["status"], path(r["ran"][1])["iterations"]), (1, 0))
        # step(0) on an empty open set reports NotFound ([GRAPH.ASTAR.EMPTY_FIRST])
        mults = [(a, 1e308) for a in range(255)]
        q = path(one(hex_req(3, 1, mults=mults, queries=[((0, 0), (2, 0), [0])])))
        self.assertEqual((q["status"], q["iterations"]), (3, 0))
        # start == goal: [start], cost 0, one iteration, no expansion.
        q = path(one(hex_req(3, 1, queries=[((1, 0), (1, 0), [])])))
        self.assertEqual((q["cells"], q["cost"], q["iterations"], q["expanded_count"]),
                         ([1], bits(0.0), 1, 0))

    def test_estimate_overflow(self):
        # every multiplier 1e308: mmin = 1e308, h(start) = 2 * 1e308 = +inf: the start is not
        # pushed, the first step ends NotFound with no iteration ([GRAPH.ASTAR.START_INF]).
        mults = [(a, 1e308) for a in range(255)]
        q = path(one(hex_req(3, 1, mults=mults, queries=[((0, 0), (2, 0), [])])))
        self.assertEqual((q["status"], q["iterations"]), (3, 0))
        # Dijkstra ignores the estimate: 1e308 + 1e308 overflows, so 1 -> 2 is a skipped edge.
        q = path(one(hex_req(3, 1, mults=mults, options=hex_opts(algorithm=1),
                             queries=[((0, 0), (2, 0), []), ((0, 0), (1, 0), [])])))
        self.assertEqual((q["status"], q["iterations"]), (3, 2))

    def test_errors_and_their_order(self):
        def err(opts, s=(0, 0)):
            return one(hex_req(3, 1, options=opts, queries=[(s, (2, 0), [])]))
        self.assertEqual(err(hex_opts(agent_size=0)), {"error": "invalid_options"})
        self.assertEqual(err(hex_opts(agent_size=2)), {"error": "invalid_options"})
        self.assertEqual(err(hex_opts(agent_size=2, algorithm=2)), {"error": "invalid_options"})
        self.assertEqual(err(hex_opts(weight=0.5, algorithm=4)), {"error": "invalid_options"})
        for alg in (2, 3, 4, 5):
            self.assertEqual(err(hex_opts(algorithm=alg)), {"error": "unsupported_algorithm"})
        self.assertEqual(err(hex_opts(algorithm=4), s=(3, 0)), {"error": "unsupported_algorithm"})
        self.assertEqual(err(hex_opts(), s=(3, 0)), {"error": "cell_out_of_range"})
        self.assertEqual(err(hex_opts(), s=(0, 1)), {"error": "cell_out_of_range"})
        # connectivity and diagonal are ignored
        self.assertEqual(path(err(hex_opts(connectivity=4, diagonal=0)))["cost"], bits(2.0))
        # grid errors: the constructor first, then the multipliers in order, then the space
        self.assertEqual(L.run_lattice(hex_req(0, 4)), {"failed": "invalid_size"})
        self.assertEqual(L.run_lattice(hex_req(2, 1, mults=[(255, 2.0)])), {"failed": "area_out_of_range"})
        self.assertEqual(L.run_lattice(hex_req(2, 1, mults=[(3, 0.0)])), {"failed": "invalid_multiplier"})
        self.assertEqual(L.run_lattice(hex_req(2, 1, mults=[(3, -1.0), (255, 1.0)])),
                         {"failed": "invalid_multiplier"})
        self.assertEqual(L.run_lattice(hex_req(2, 1, mults=[(3, 0.0)], space=[1.0, 0.0, 0.0])),
                         {"failed": "invalid_multiplier"})
        self.assertEqual(L.run_lattice(hex_req(2, 1, space=[1.0, 0.0, 0.0])), {"failed": "invalid_space"})
        # every query answers on its own
        r = L.run_lattice(hex_req(3, 1, queries=[((5, 0), (0, 0), []), ((0, 0), (2, 0), [3])]))
        self.assertEqual(r["ran"][0], {"error": "cell_out_of_range"})
        self.assertEqual(r["ran"][1]["path"]["status"], 2)

    def test_malformed(self):
        bad = [hex_req(2, 1, layout=4), hex_req(2, 1, options=hex_opts(algorithm=6)),
               hex_req(2, 1, options=hex_opts(diagonal=3)), hex_req(2, 1, options=hex_opts(connectivity=6)),
               hex_req(2, 1, queries=[((0, 0, 0), (1, 0), [])])]
        r = hex_req(2, 1)
        r["hex"]["map"]["cells"] = "00"
        bad.append(r)
        r = hex_req(2, 1)
        r["hex"]["extra"] = 1
        bad.append(r)
        bad.append({"square": {}})
        for b in bad:
            with self.assertRaises(AssertionError):
                L.run_lattice(b)


class VoxelGeometry(unittest.TestCase):
    """[VOXEL.DIR.ORDER] [VOXEL.MOVE.PASSED] [VOXEL.EST.DISTANCE]"""

    def test_order(self):
        self.assertEqual(VOXEL_ORDER, (
            (0, 0, -1), (0, -1, 0), (-1, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1),
            (0, -1, -1), (-1, 0, -1), (1, 0, -1), (0, 1, -1),
            (-1, -1, 0), (1, -1, 0), (-1, 1, 0), (1, 1, 0),
            (0, -1, 1), (-1, 0, 1), (1, 0, 1), (0, 1, 1),
            (-1, -1, -1), (1, -1, -1), (-1, 1, -1), (1, 1, -1),
            (-1, -1, 1), (1, -1, 1), (-1, 1, 1), (1, 1, 1)))

    def test_passed(self):
        self.assertEqual(passed_offsets((1, 0, 0)), ())
        self.assertEqual(sorted(passed_offsets((1, 0, -1))), [(0, 0, -1), (1, 0, 0)])
        self.assertEqual(sorted(passed_offsets((1, -1, 1))),
                         sorted([(1, 0, 0), (0, -1, 0), (0, 0, 1), (1, -1, 0), (1, 0, 1), (0, -1, 1)]))

    def test_distance(self):
        # (1, 2, 3): 26: (3 - 2) + (2 - 1) sqrt2 + 1 sqrt3; 18: e = min(3, 3) = 3, f = 0: 3 sqrt2;
        # 6: 6.  (0, 0, 3): 18: e = min(1, 0) = 0, f = 3.  (1, 1, 1): 18: e = 1, f = 1.
        self.assertEqual(voxel_distance(26, 1, -2, 3), (1.0 + 1.0 * SQRT_2) + 1.0 * SQRT_3)
        self.assertEqual(voxel_distance(18, 3, 1, -2), 0.0 + 3.0 * SQRT_2)
        self.assertEqual(voxel_distance(6, -1, 2, 3), 6.0)
        self.assertEqual(voxel_distance(18, 0, 0, 3), 3.0)
        self.assertEqual(voxel_distance(18, 1, 1, 1), 1.0 + SQRT_2)
        self.assertEqual(voxel_distance(26, 0, 0, 0), 0.0)


class VoxelSearches(unittest.TestCase):
    """[VOXEL.*] through the wire form."""

    def test_step_lengths(self):
        # 2x2x2 open world, 0 = (0,0,0) -> 7 = (1,1,1): 26: one k = 3 step, sqrt3; 18: a k = 1 and
        # a k = 2 step, 1 + sqrt2 (or sqrt2 + 1: both f64 sums are the same); 6: 3.
        for conn, cost in ((26, SQRT_3), (18, 1.0 + SQRT_2), (6, 3.0)):
            q = path(one(vox_req((2, 2, 2), options=vox_opts(connectivity=conn),
                                 queries=[((0, 0, 0), (1, 1, 1), [])])))
            self.assertEqual(q["cost"], bits(cost), conn)
        q = path(one(vox_req((2, 2, 2), queries=[((0, 0, 0), (1, 1, 1), [])])))
        self.assertEqual((q["cells"], q["iterations"], q["expanded"]), ([0, 7], 2, [0]))
        self.assertEqual(q["points"], [[bits(0.5)] * 3, [bits(1.5)] * 3])
        # area 1 at voxel 7 with m 3: entering 7 costs base * 3, cheapest with base 1, so
        # sqrt2 (to (1,1,0), area 0) + 1 * 3 beats sqrt3 * 3
        q = path(one(vox_req((2, 2, 2), [0] * 7 + [1], mults=[(1, 3.0)],
                             queries=[((0, 0, 0), (1, 1, 1), [])])))
        self.assertEqual(q["cost"], bits(SQRT_2 + 3.0))
        self.assertEqual(len(q["cells"]), 3)
        # with 3, 5, 6 (7's face neighbours) solid and Always, 7 is entered by a k = 2 step from
        # 1, 2, 4 (1 + sqrt2 * 3 = 5.24) or the k = 3 step from 0: sqrt3 * 3 = 5.196 wins
        q = path(one(vox_req((2, 2, 2), [0, 0, 0, 255, 0, 255, 255, 1], mults=[(1, 3.0)],
                             options=vox_opts(diagonal=0), queries=[((0, 0, 0), (1, 1, 1), [])])))
        self.assertEqual((q["cost"], q["cells"]), (bits(SQRT_3 * 3.0), [0, 7]))

    def test_corner_rules_k2(self):
        # 2x2x1, voxel 1 = (1,0,0) solid; 0 -> 3 = (1,1,0): the k = 2 move passes 1 and 2.
        # Always and AtMostOneBlocked: sqrt2 directly; NoneBlocked: around, 0 -> 2 -> 3 = 2.
        for rule, cost, cells in ((0, SQRT_2, [0, 3]), (1, SQRT_2, [0, 3]), (2, 2.0, [0, 2, 3])):
            q = path(one(vox_req((2, 2, 1), [0, 255, 0, 0], options=vox_opts(diagonal=rule),
                                 queries=[((0, 0, 0), (1, 1, 0), [])])))
            self.assertEqual((q["cost"], q["cells"]), (bits(cost), cells), rule)
        # both passed voxels solid: AtMostOneBlocked forbids it too; Always still allows it
        for rule, status in ((0, 2), (1, 3), (2, 3)):
            q = path(one(vox_req((2, 2, 1), [0, 255, 255, 0], options=vox_opts(diagonal=rule),
                                 queries=[((0, 0, 0), (1, 1, 0), [])])))
            self.assertEqual(q["status"], status, rule)

    def test_corner_rules_k3(self):
        # 2x2x2, 0 -> 7.  One solid passed voxel (1 = (1,0,0)): AtMostOneBlocked takes the k = 3
        # step (sqrt3); NoneBlocked cannot, and its best is a k = 1 plus a k = 2 step avoiding 1's
        # sweeps: 0 -> 2 (0,1,0) is k = 1, 2 -> 7 sweeps (1,1,0), (0,1,1): open: 1 + sqrt2.
        cells = [0, 255, 0, 0, 0, 0, 0, 0]
        q = path(one(vox_req((2, 2, 2), cells, options=vox_opts(diagonal=1),
                             queries=[((0, 0, 0), (1, 1, 1), [])])))
        self.assertEqual((q["cost"], q["cells"]), (bits(SQRT_3), [0, 7]))
        q = path(one(vox_req((2, 2, 2), cells, options=vox_opts(diagonal=2),
                             queries=[((0, 0, 0), (1, 1, 1), [])])))
        self.assertEqual(q["cost"], bits(1.0 + SQRT_2))
        # two solid passed voxels (1 and 6 = (0,1,1), a face and an edge neighbour): counted over
        # all six, so AtMostOneBlocked forbids the k = 3 step as well
        cells = [0, 255, 0, 0, 0, 0, 255, 0]
        q = path(one(vox_req((2, 2, 2), cells, options=vox_opts(diagonal=1),
                             queries=[((0, 0, 0), (1, 1, 1), [])])))
        self.assertNotEqual(q["cost"], bits(SQRT_3))
        self.assertEqual(len(q["cells"]), 3)
        q = path(one(vox_req((2, 2, 2), cells, options=vox_opts(diagonal=0),
                             queries=[((0, 0, 0), (1, 1, 1), [])])))
        self.assertEqual(q["cost"], bits(SQRT_3))

    def test_dijkstra_order_six(self):
        # 3x1x1 with Six: 0 -> 2: pops 0, 1, 2; expansions [0, 1]; cost 2.
        q = path(one(vox_req((3, 1, 1), options=vox_opts(connectivity=6, algorithm=1),
                             queries=[((0, 0, 0), (2, 0, 0), [])])))
        self.assertEqual((q["algorithm"], q["cost"], q["cells"], q["expanded"], q["iterations"]),
                         (1, bits(2.0), [0, 1, 2], [0, 1], 3))
        # 2x2x1 Six Dijkstra 0 -> 3: the k = 1 order is (0,-1,0) (-1,0,0) (1,0,0) (0,1,0): 1 and 2
        # at g 1 (f ties: smaller index 1 pops first), 1 reaches 3 first: path 0, 1, 3.
        q = path(one(vox_req((2, 2, 1), options=vox_opts(connectivity=6, algorithm=1),
                             queries=[((0, 0, 0), (1, 1, 0), [])])))
        self.assertEqual((q["cells"], q["expanded"], q["iterations"]), ([0, 1, 3], [0, 1, 2], 4))

    def test_hooks_budget_errors(self):
        o6 = dict(connectivity=6)
        q = path(one(vox_req((3, 1, 1), options=vox_opts(cell_cost={"extra_where": {"modulus": 1, "extra": 0.25}}, **o6),
                             queries=[((0, 0, 0), (2, 0, 0), [])])))
        self.assertEqual(q["cost"], bits(2.5))
        q = path(one(vox_req((3, 1, 1), options=vox_opts(cell_cost={"invalid_where": {"modulus": 1}}, **o6),
                             queries=[((0, 0, 0), (2, 0, 0), [])])))
        self.assertEqual((q["status"], q["iterations"], q["expanded_count"]), (3, 1, 1))
        # blocked start (0 % 3 == 0): NotFound at once
        q = path(one(vox_req((3, 1, 1), options=vox_opts(blocked={"modulus": 3, "residue": 0}, **o6),
                             queries=[((0, 0, 0), (2, 0, 0), [])])))
        self.assertEqual((q["status"], q["iterations"]), (3, 0))
        # budget 1: BudgetExhausted after one pop
        q = path(one(vox_req((3, 1, 1), options=vox_opts(budget=1, **o6),
                             queries=[((0, 0, 0), (2, 0, 0), [])])))
        self.assertEqual((q["status"], q["iterations"], q["expanded"]), (4, 1, [0]))
        # record off: empty list, counters kept
        q = path(one(vox_req((3, 1, 1), options=vox_opts(record=False, **o6),
                             queries=[((0, 0, 0), (2, 0, 0), [])])))
        self.assertEqual((q["expanded"], q["expanded_count"]), ([], 2))
        # space (1, 2, 3, 0.5): centre of voxel 1 = (1,0,0) is (1.75, 2.25, 3.25)
        q = path(one(vox_req((3, 1, 1), space=[1.0, 2.0, 3.0, 0.5], options=vox_opts(**o6),
                             queries=[((0, 0, 0), (1, 0, 0), [])])))
        self.assertEqual(q["points"][1], [bits(1.75), bits(2.25), bits(3.25)])
        # errors: weight, then algorithm; begin after new; start before goal (class only)
        def err(opts, s=(0, 0, 0), g=(2, 0, 0)):
            return one(vox_req((3, 1, 1), options=opts, queries=[(s, g, [])]))
        self.assertEqual(err(vox_opts(weight=0.5)), {"error": "invalid_options"})
        self.assertEqual(err(vox_opts(weight=0.5, algorithm=4)), {"error": "invalid_options"})
        self.assertEqual(err(vox_opts(algorithm=2)), {"error": "unsupported_algorithm"})
        self.assertEqual(err(vox_opts(algorithm=2), s=(0, 0, 1)), {"error": "unsupported_algorithm"})
        self.assertEqual(err(vox_opts(), s=(0, 0, 1)), {"error": "cell_out_of_range"})
        self.assertEqual(err(vox_opts(), g=(3, 0, 0)), {"error": "cell_out_of_range"})
        self.assertEqual(L.run_lattice(vox_req((0, 1, 1))), {"failed": "invalid_size"})
        self.assertEqual(L.run_lattice(vox_req((1, 1, 1), space=[0.0, 0.0, 1.0, 0.0])),
                         {"failed": "invalid_space"})
        # an all-zero space (also -0.0) is unassigned: centres as (0, 0, 0, 1)
        q = path(one(vox_req((1, 1, 1), space=[-0.0, 0.0, -0.0, 0.0], queries=[((0, 0, 0), (0, 0, 0), [])])))
        self.assertEqual(q["points"], [[bits(0.5)] * 3])

    def test_cost_overflow(self):
        # every multiplier 1.7e308: a k = 3 step costs sqrt3 * 1.7e308 = +inf (skipped); k = 1
        # steps are finite but two of them overflow.  Dijkstra 0 -> 7 in 2x2x2: not reachable.
        mults = [(a, 1.7e308) for a in range(255)]
        q = path(one(vox_req((2, 2, 2), mults=mults, options=vox_opts(algorithm=1),
                             queries=[((0, 0, 0), (1, 1, 1), []), ((0, 0, 0), (1, 0, 0), [])])))
        self.assertEqual(q["status"], 3)
        q = path(L.run_lattice(vox_req((2, 2, 2), mults=mults, options=vox_opts(algorithm=1),
                                       queries=[((0, 0, 0), (1, 0, 0), [])]))["ran"][0])
        self.assertEqual((q["status"], q["cost"]), (2, bits(1.7e308)))

    def test_malformed(self):
        for b in (vox_req((2, 1, 1), options=vox_opts(connectivity=8)),
                  vox_req((2, 1, 1), options=vox_opts(diagonal=3)),
                  vox_req((2, 1, 1), queries=[((0, 0), (1, 0, 0), [])])):
            with self.assertRaises(AssertionError):
                L.run_lattice(b)


# ---------------------------------------------------------------- the oracle ([CONF.LATTICE.ORACLE])

def oracle_hex(w, h, layout, cells, mult, blocked, extra):
    n = w * h

    def passable(c):
        return cells[c] != 255 and not (blocked and blocked(c))

    def edges(u):
        for v in hex_neighbours(layout, w, h, u):
            if not passable(v):
                continue
            c = 1.0 * mult[cells[v]]
            if extra:
                e = extra(u, v)
                if e != e or e < 0 or e == INF:
                    continue
                c = c + e
            if c != INF:
                yield v, c
    return n, passable, edges


def oracle_voxel(size, cells, mult, blocked, extra, conn, rule):
    sx, sy, sz = size
    n = sx * sy * sz

    def passable(c):
        return cells[c] != 255 and not (blocked and blocked(c))

    def p3(x, y, z):
        return 0 <= x < sx and 0 <= y < sy and 0 <= z < sz and passable(x + sx * (y + sy * z))

    offs = []
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                k = abs(dx) + abs(dy) + abs(dz)
                if 0 < k <= {6: 1, 18: 2, 26: 3}[conn]:
                    offs.append((dx, dy, dz, k))

    def edges(u):
        x, y, z = u % sx, (u // sx) % sy, u // (sx * sy)
        for dx, dy, dz, k in offs:
            if not p3(x + dx, y + dy, z + dz):
                continue
            if k >= 2 and rule != 0:
                swept = set((ax, ay, az) for ax in (0, dx) for ay in (0, dy) for az in (0, dz))
                swept -= {(0, 0, 0), (dx, dy, dz)}
                bad = sum(1 for ax, ay, az in swept if not p3(x + ax, y + ay, z + az))
                if bad > (1 if rule == 1 else 0):
                    continue
            v = (x + dx) + sx * ((y + dy) + sy * (z + dz))
            c = (1.0, SQRT_2, SQRT_3)[k - 1] * mult[cells[v]]
            if extra:
                e = extra(u, v)
                if e != e or e < 0 or e == INF:
                    continue
                c = c + e
            if c != INF:
                yield v, c
    return n, passable, edges


def dijkstra(n, passable, edges, s):
    d = [INF] * n
    if not passable(s):
        return d
    d[s] = 0.0
    pq = [(0.0, s)]
    while pq:
        du, u = heapq.heappop(pq)
        if du > d[u]:
            continue
        for v, c in edges(u):
            nd = du + c
            if nd < d[v]:
                d[v] = nd
                heapq.heappush(pq, (nd, v))
    return d


class Oracle(unittest.TestCase):
    """[CONF.LATTICE.ORACLE] on random worlds: Found exactly when reachable; the path's own cost,
    added in path order, is the reported cost bit for bit; Dijkstra bit-equal to the oracle, A*
    with weight 1 within 1e-12, weight 1.5 at most 1.5 times; sliced = tier 1."""

    def check(self, req, oracle, s, g, weight, alg):
        r = L.run_lattice(req)
        n, passable, edges = oracle
        d = dijkstra(n, passable, edges, s)
        t1, sl = r["ran"][0], r["ran"][1]
        if "error" in t1:
            self.fail(t1)
        t1, sl = t1["path"], sl["path"]
        for k in ("cost", "cells", "expanded", "iterations", "expanded_count"):
            self.assertEqual(t1[k], sl[k], k)
        self.assertEqual(t1["status"] == 2, d[g] < INF)
        if d[g] == INF:
            self.assertEqual((t1["cost"], t1["cells"]), (bits(INF), []))
            return
        cells = t1["cells"]
        self.assertEqual((cells[0], cells[-1]), (s, g))
        acc = 0.0
        for u, v in zip(cells, cells[1:]):
            acc = acc + dict(edges(u))[v]
        cost = unbits(t1["cost"])
        self.assertEqual(acc, cost)
        if alg == 1:
            self.assertEqual(cost, d[g])
        elif weight == 1.0:
            self.assertLessEqual(abs(cost - d[g]), 1e-12 * max(1.0, d[g]))
        else:
            self.assertLessEqual(cost, weight * d[g] * (1 + 1e-12))
        self.assertGreaterEqual(t1["iterations"], t1["expanded_count"])
        self.assertEqual(len(t1["expanded"]), t1["expanded_count"])

    def test_oracle_hex(self):
        rnd = random.Random(7)
        for case in range(120):
            w, h, layout = rnd.randint(1, 9), rnd.randint(1, 9), case % 4
            cells = [255 if rnd.random() < 0.25 else rnd.randint(0, 3) for _ in range(w * h)]
            mults = [(a, rnd.choice([0.5, 1.25, 2.0, 3.0])) for a in (1, 2, 3)]
            mult = [1.0] * 255
            for a, m in mults:
                mult[a] = m
            weight = rnd.choice([1.0, 1.0, 1.5])
            alg = rnd.choice([0, 0, 1])
            extra_rule = rnd.choice([None, None, {"extra_where": {"modulus": 3, "extra": 0.75}},
                                     {"invalid_where": {"modulus": 5}}])
            blocked_rule = rnd.choice([None, None, None, {"modulus": 7, "residue": 2}])
            from onepath_py.grid_requests import make_blocked, make_cell_cost
            s = rnd.randrange(w * h)
            g = rnd.randrange(w * h)
            req = hex_req(w, h, cells, layout=layout, mults=mults,
                          options=hex_opts(algorithm=alg, weight=weight, cell_cost=extra_rule,
                                           blocked=blocked_rule),
                          queries=[((s % w, s // w), (g % w, g // w), []),
                                   ((s % w, s // w), (g % w, g // w), [rnd.randint(1, 5), rnd.randint(1, 5)])])
            self.check(req, oracle_hex(w, h, layout, cells, mult, make_blocked(blocked_rule),
                                       make_cell_cost(extra_rule)), s, g, weight, alg)

    def test_oracle_voxel(self):
        rnd = random.Random(11)
        for case in range(120):
            size = (rnd.randint(1, 5), rnd.randint(1, 5), rnd.randint(1, 5))
            n = size[0] * size[1] * size[2]
            cells = [255 if rnd.random() < 0.3 else rnd.randint(0, 3) for _ in range(n)]
            mults = [(a, rnd.choice([0.5, 1.25, 2.0, 3.0])) for a in (1, 2, 3)]
            mult = [1.0] * 255
            for a, m in mults:
                mult[a] = m
            weight = rnd.choice([1.0, 1.0, 1.5])
            alg = rnd.choice([0, 0, 1])
            conn = (6, 18, 26)[case % 3]
            rule = (case // 3) % 3
            extra_rule = rnd.choice([None, None, {"extra_where": {"modulus": 3, "extra": 0.75}},
                                     {"invalid_where": {"modulus": 5}}])
            blocked_rule = rnd.choice([None, None, None, {"modulus": 7, "residue": 2}])
            from onepath_py.grid_requests import make_blocked, make_cell_cost
            s = rnd.randrange(n)
            g = rnd.randrange(n)

            def xyz(c):
                return (c % size[0], (c // size[0]) % size[1], c // (size[0] * size[1]))
            req = vox_req(size, cells, mults=mults,
                          options=vox_opts(connectivity=conn, diagonal=rule, algorithm=alg,
                                           weight=weight, cell_cost=extra_rule, blocked=blocked_rule),
                          queries=[(xyz(s), xyz(g), []), (xyz(s), xyz(g), [rnd.randint(1, 5)])])
            self.check(req, oracle_voxel(size, cells, mult, make_blocked(blocked_rule),
                                         make_cell_cost(extra_rule), conn, rule), s, g, weight, alg)


class Driver(unittest.TestCase):
    """[DRIVER.OP.RUN_LATTICE] [DRIVER.PY.DEFECTS] through driver.py."""

    def exchange(self, reqs, env=None):
        e = dict(os.environ)
        e.update(env or {})
        lines = [json.dumps({"protocol": "onepath-driver", "version": 2, "spec_version": "1.1.0"})]
        for i, a in enumerate(reqs, 1):
            lines.append(json.dumps({"id": i, "case": "hex#1", "op": "run_lattice", "args": a}))
        p = subprocess.run([sys.executable, "-B", os.path.join(HERE, "driver.py")],
                           input="\n".join(lines) + "\n", capture_output=True, text=True, env=e,
                           timeout=120)
        out = [json.loads(x) for x in p.stdout.splitlines()]
        return out[0], out[1:]

    def test_claims_and_defect(self):
        req = hex_req(2, 2, options=hex_opts(algorithm=1), queries=[((0, 0), (1, 1), [])])
        hello, replies = self.exchange([req, vox_req((2, 2, 1), queries=[((0, 0, 0), (1, 1, 0), [])])])
        self.assertEqual(hello["claims"]["hex-search"], 4)
        self.assertEqual(hello["claims"]["voxel-search"], 4)
        self.assertEqual(replies[0]["ok"]["ran"][0]["path"]["cells"], [0, 1, 3])
        # hex_tie: 1 and 2 tie at f = g = 1; the flipped order pops 2 first, which reaches 3 first
        _, bad = self.exchange([req, vox_req((2, 2, 1), options=vox_opts(connectivity=6, algorithm=1),
                                             queries=[((0, 0, 0), (1, 1, 0), [])])],
                               {"ONEPATH_PY_DEFECT": "hex_tie"})
        self.assertEqual(bad[0]["ok"]["ran"][0]["path"]["cells"], [0, 2, 3])
        self.assertEqual(bad[0]["ok"]["ran"][0]["path"]["expanded"], [0, 2, 1])
        # the voxel search keeps the spec order
        self.assertEqual(bad[1]["ok"]["ran"][0]["path"]["cells"], [0, 1, 3])


class Checker(unittest.TestCase):
    """check_lattice_vectors.py on vector files written here (own replies as expected)."""

    def test_match_and_first_difference(self):
        import tempfile
        import check_lattice_vectors as chk
        req = hex_req(3, 1, queries=[((0, 0), (2, 0), []), ((0, 0), (2, 0), [1])])
        vreq = vox_req((2, 2, 1), queries=[((0, 0, 0), (1, 1, 0), [])])
        with tempfile.TemporaryDirectory() as root:
            def write(family, vid, r, exp):
                os.makedirs(os.path.join(root, family), exist_ok=True)
                with open(os.path.join(root, family, vid + ".json"), "w") as fh:
                    json.dump({"schema": "onepath.vector", "version": 1, "id": vid, "family": family,
                               "_comment": "test", "cases": [{"request": r, "expected": exp}]}, fh)
            write("hex-search", "HEX-0001", req, L.run_lattice(req))
            write("voxel-search", "VOXEL-0001", vreq, L.run_lattice(vreq))
            self.assertEqual(chk.main(["x", root]), 0)
            bad = L.run_lattice(req)
            bad["ran"][1]["path"]["expanded"][1] = 7
            write("hex-search", "HEX-0002", req, bad)
            self.assertEqual(chk.first_difference(bad, L.run_lattice(req)),
                             "query 1: expanded entry 1: expected 7, found 1")
            self.assertEqual(chk.main(["x", root]), 1)


if __name__ == "__main__":
    unittest.main()
