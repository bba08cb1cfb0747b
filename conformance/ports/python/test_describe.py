"""Tests of the debug descriptions and the describe op (stdlib unittest only).

Run: cd conformance/ports/python && python3 -B -m unittest -q test_describe

Every expected value here is derived by hand from spec/debug.md and the chapters it cites, not
read back from the port: world points by [DEBUG.POINTS] ([GRID.SPACE.CENTER] arithmetic, exact in
binary), the settle/reset kinds of a small LPA* and D* Lite script by walking
[REPLAN.COMPUTE.STEP] on a 3x1 corridor, a points case's positions by [DEBUG.GRAPH.FIELDS],
the wire form by [CONF.DEBUG.REPLY], and the describe_kinds defect by [DRIVER.PY.DEFECTS].
"""

import json
import os
import subprocess
import sys
import unittest

from onepath_py import describe_requests as D
from onepath_py.debug import (GraphPathDescription, ReplanExpansion, describe_graph_path,
                              describe_path, describe_voxel_path)
from onepath_py.grid_search import Grid, GridOptions, GridPath, GridSpace, find_grid_path
from onepath_py.grid_search_engines import DIAG_NONE_BLOCKED
from onepath_py.hpa import HpaHierarchy, HpaOptions
from onepath_py.options import Algorithm, GraphPath, PathStatus
from onepath_py.replan_engine import GridReplanner, ReplanMode
from onepath_py.voxel_grid import VoxelGrid, VoxelSpace
from onepath_py.voxel_search import VoxelPath

HERE = os.path.dirname(os.path.abspath(__file__))
INF = float("inf")


def fields(d):
    """A description's fields, for comparing two descriptions."""
    return {f: getattr(d, f) for f in d._FIELDS}

# bit patterns ([DRIVER.ENC.REAL]) of the reals used below, written out by hand
B = {0.0: "0000000000000000", 0.5: "3fe0000000000000", 1.0: "3ff0000000000000",
     1.5: "3ff8000000000000", 2.0: "4000000000000000", 2.5: "4004000000000000",
     3.0: "4008000000000000", 10.25: "4024800000000000", -1.75: "bffc000000000000",
     INF: "7ff0000000000000"}


def grid_map(w, h, cells=None, mults=(), space=None):
    return {"width": w, "height": h, "cells": bytes(cells or [0] * (w * h)).hex(),
            "multipliers": [list(m) for m in mults], "space": space}


def grid_opts(**kw):
    o = {"agent_size": 1, "connectivity": 4, "diagonal": 2, "algorithm": 0, "cell_cost": None,
         "blocked": None, "weight": 1.0, "record": True, "budget": 0}
    o.update(kw)
    return o


def corridor_replan(mode, record=True, extra=()):
    """A 3x1 corridor, area 1 costing 2.0; replan, make the middle cell area 1, replan."""
    return {"grid": {"hex_layout": None, "map": grid_map(3, 1, mults=[(1, 2.0)])},
            "options": grid_opts(record=record), "mode": mode, "start": [0, 0], "goal": [2, 0],
            "script": [{"replan": {"budget": 0}}, {"set_cell": {"x": 1, "y": 0, "area": 1}},
                       {"replan": {"budget": 0}}] + list(extra)}


class Points(unittest.TestCase):
    """[DEBUG.POINTS] [DEBUG.TOTAL] [DEBUG.PATH.FIELDS] [DEBUG.VOXEL.FIELDS]"""

    def test_expanded_points_of_a_3x3_grid_with_a_space(self):
        g = Grid(3, 3)
        g.set_space(GridSpace(10.0, -2.0, 0.5))
        # any expanded list, cell 11 outside the 3x3 grid: (11 mod 3, 11 div 3) = (2, 3)
        path = GridPath(0, PathStatus.Found, 1.0, [0, 4], [(10.25, -1.75), (10.75, -1.25)],
                        [0, 4, 8, 5, 11], 5, 6)
        d = describe_path(g, path)
        self.assertEqual((d.width, d.height), (3, 3))
        # ox + (x + 0.5) * s, oy + (y + 0.5) * s with (10, -2, 0.5)
        self.assertEqual(d.expanded_points, [(10.25, -1.75), (10.75, -1.25), (11.25, -0.75),
                                             (11.25, -1.25), (11.25, -0.25)])
        self.assertEqual(d.points, [(10.25, -1.75), (10.75, -1.25)])
        self.assertEqual((d.expanded_count, d.iterations), (5, 6))

    def test_unassigned_space_and_a_real_search(self):
        g = Grid(3, 3)
        p = find_grid_path(g, (0, 0), (2, 2), GridOptions(record_expansions=True))
        d = describe_path(g, p)
        self.assertEqual(len(d.expanded), d.expanded_count)
        self.assertEqual(len(d.expanded_points), len(d.expanded))
        for c, pt in zip(d.expanded, d.expanded_points):   # (0, 0, 1) when unassigned
            self.assertEqual(pt, (c % 3 + 0.5, c // 3 + 0.5))
        # [DEBUG.EXPANDED.OPT_IN] without recording the list is empty
        d0 = describe_path(g, find_grid_path(g, (0, 0), (2, 2), GridOptions()))
        self.assertEqual((d0.expanded, d0.expanded_points), ([], []))
        self.assertGreater(d0.expanded_count, 0)

    def test_voxel_points(self):
        g = VoxelGrid(2, 3, 4, 0)
        g.set_space(VoxelSpace(1.0, 2.0, 3.0, 2.0))
        # node 13 of (2, 3, 4): (13 mod 2, (13 div 2) mod 3, 13 div 6) = (1, 0, 2)
        p = VoxelPath(0, PathStatus.NotFound, INF, [], [], [13, 0], 2, 3)
        d = describe_voxel_path(g, p)
        self.assertEqual(d.size, (2, 3, 4))
        self.assertEqual(d.expanded_points, [(4.0, 3.0, 8.0), (2.0, 3.0, 4.0)])

    def test_plain_copies(self):
        """[DEBUG.PLAIN] A new value each call, equal on unchanged inputs, owning its lists."""
        g = Grid(2, 2)
        p = find_grid_path(g, (0, 0), (1, 1), GridOptions(record_expansions=True))
        a, b = describe_path(g, p), describe_path(g, p)
        self.assertEqual(fields(a), fields(b))
        a.expanded.append(99)
        a.cells.append(99)
        self.assertNotIn(99, p.expanded)
        self.assertNotIn(99, p.cells)
        self.assertNotEqual(a, b)


class Graph(unittest.TestCase):
    """[DEBUG.GRAPH.FIELDS]"""

    def path(self, nodes, expanded):
        return GraphPath(PathStatus.Found, 2.0, nodes, Algorithm.Dijkstra, len(expanded), 3, expanded)

    def test_positions_by_node_id(self):
        pos = [(0.0, 0.0, 0.0), (1.0, 2.0, 3.0), (-1.0, 0.5, 0.0)]
        d = describe_graph_path(self.path([0, 2], [0, 1]), pos)
        self.assertEqual(d.positions, [(0.0, 0.0, 0.0), (-1.0, 0.5, 0.0)])
        self.assertEqual(d.expanded_positions, [(0.0, 0.0, 0.0), (1.0, 2.0, 3.0)])

    def test_no_positions_or_too_few(self):
        for pos in (None, [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)]):   # node 2 is not below 2
            d = describe_graph_path(self.path([0, 2], [0, 1]), pos)
            self.assertEqual((d.positions, d.expanded_positions), ([], []))
            self.assertIsInstance(d, GraphPathDescription)
            self.assertEqual(d.nodes, [0, 2])


class Replan(unittest.TestCase):
    """[DEBUG.REPLAN.KINDS] [DEBUG.REPLAN.FIELDS]

    LPA* on the corridor 0-1-2 (start 0, goal 2, unit moves, h = distance): the first replan
    settles 0, 1, 2.  Cell 1 then costs 2 to enter: rhs(1) = 2 > g(1) = 1, so the second replan
    pops 1 and resets it (g = inf), which leaves rhs(2) = inf < g(2) = 2; 2 pops and is reset;
    then 1 (rhs 2) and 2 (rhs 3) are settled: kinds reset, reset, settle, settle over 1, 2, 1, 2,
    7 iterations in all, cost 3.

    D* Lite (source 2, target 0): the first replan settles 2, 1, 0; the edit raises rhs(0) to
    c(0, 1) + g(1) = 3 > g(0) = 2, so 0 is reset and then settled at 3: kinds reset, settle over
    0, 0, 5 iterations in all."""

    def test_lpa_kinds(self):
        r = D.run_describe({"replan": corridor_replan("lpa")})
        (e,) = r["ran"]
        d = e["replan"]
        self.assertEqual(d["expanded"], [1, 2, 1, 2])
        self.assertEqual(d["expanded_kinds"], ["reset", "reset", "settle", "settle"])
        self.assertEqual(d["expanded_points"], [[B[1.5], B[0.5]], [B[2.5], B[0.5]],
                                                [B[1.5], B[0.5]], [B[2.5], B[0.5]]])
        self.assertEqual((d["expanded_count"], d["iterations"], d["pending"]), (4, 7, 0))
        self.assertEqual((d["mode"], d["start"], d["goal"], d["width"], d["height"]), (0, 0, 2, 3, 1))
        self.assertEqual((d["initialized"], d["found"], d["cost"], d["path_error"]),
                         (True, True, B[3.0], None))
        self.assertEqual(d["cells"], [0, 1, 2])
        self.assertEqual(d["points"], [[B[0.5], B[0.5]], [B[1.5], B[0.5]], [B[2.5], B[0.5]]])

    def test_d_star_lite_kinds(self):
        d = D.run_describe({"replan": corridor_replan("d_star_lite")})["ran"][0]["replan"]
        self.assertEqual(d["expanded"], [0, 0])
        self.assertEqual(d["expanded_kinds"], ["reset", "settle"])
        self.assertEqual((d["mode"], d["expanded_count"], d["iterations"]), (1, 2, 5))

    def test_first_replan_settles_only(self):
        g = Grid(3, 1)
        rep = GridReplanner(g, GridOptions(connectivity=4, record_expansions=True), ReplanMode.Lpa,
                            (0, 0), (2, 0))
        self.assertEqual(rep.expansion_kinds(), [])
        rep.replan(g, 0)
        self.assertEqual(rep.expansions(), [0, 1, 2])
        self.assertEqual(rep.expansion_kinds(), [ReplanExpansion.Settle] * 3)
        before = rep.save_state()
        d = rep.describe(g)
        self.assertEqual(rep.save_state(), before)          # [DEBUG.PLAIN] changes nothing
        self.assertEqual(fields(d), fields(rep.describe(g)))
        # [REPLAN.STATE.RESTORE] the recorded list and its kinds are emptied by a restore
        rep.restore_state(g, before)
        self.assertEqual((rep.expansions(), rep.expansion_kinds()), ([], []))

    def test_no_recording_no_kinds(self):
        d = D.run_describe({"replan": corridor_replan("lpa", record=False)})["ran"][0]["replan"]
        self.assertEqual((d["expanded"], d["expanded_kinds"], d["expanded_points"]), ([], [], []))
        self.assertEqual(d["expanded_count"], 4)

    def test_size_mismatch(self):
        g = Grid(3, 1)
        rep = GridReplanner(g, GridOptions(connectivity=4), ReplanMode.Lpa, (0, 0), (2, 0))
        rep.replan(g, 0)
        d = rep.describe(Grid(4, 1))
        self.assertEqual((d.cells, d.points, d.path_error), ([], [], "size_mismatch"))
        self.assertEqual((d.width, d.height), (3, 1))


class Hierarchy(unittest.TestCase):
    """[DEBUG.HPA.FIELDS] [HPA.INSPECT.UNBUILT]"""

    def test_unbuilt_and_built(self):
        h = HpaHierarchy(HpaOptions(chunk_size=2, connectivity=4, diagonal=DIAG_NONE_BLOCKED,
                                    heuristic_weight=1.0, smooth=False, iteration_budget=0,
                                    record_expansions=False))
        g = Grid(4, 2)
        g.set_space(GridSpace(-2.0, 1.0, 2.0))
        d = h.describe(g)
        self.assertEqual((d.built, d.chunk_size, d.chunks, d.nodes, d.node_points, d.edges),
                         (False, 2, (0, 0), [], [], []))
        h.refresh(g)
        d = h.describe(g)
        self.assertTrue(d.built)
        self.assertEqual(d.chunks, (2, 1))
        self.assertTrue(d.nodes)
        for (cell, _), pt in zip(d.nodes, d.node_points):
            self.assertEqual(pt, (-2.0 + (cell % 4 + 0.5) * 2.0, 1.0 + (cell // 4 + 0.5) * 2.0))
        self.assertEqual([(e.from_, e.to) for e in d.edges], sorted((e.from_, e.to) for e in d.edges))


class Requests(unittest.TestCase):
    """[CONF.DEBUG.REQUEST] [CONF.DEBUG.REPLY]"""

    def test_grid_entries_and_failures(self):
        m = grid_map(3, 3, space=[10.0, -2.0, 0.5])
        q = [{"start": [0, 0], "goal": [2, 2], "schedule": []},
             {"start": [0, 0], "goal": [5, 0], "schedule": []}]
        r = D.run_describe({"grid": {"map": m, "options": grid_opts(connectivity=8), "queries": q}})
        first, second = r["ran"]
        p = first["path"]
        self.assertEqual(p["cells"][0], 0)
        self.assertEqual(p["points"][0], [B[10.25], B[-1.75]])
        self.assertEqual(len(p["expanded_points"]), p["expanded_count"])
        self.assertEqual(second, {"error": "cell_out_of_range"})
        bad = D.run_describe({"grid": {"map": grid_map(0, 3), "options": grid_opts(), "queries": q}})
        self.assertEqual(bad, {"failed": "invalid_size"})
        with self.assertRaises(AssertionError):   # a describe query is tier 1 only
            D.run_describe({"bidi": {"map": m, "options": grid_opts(),
                                     "queries": [{"start": [0, 0], "goal": [1, 1], "schedule": [2]}]}})

    def test_hpa_entries(self):
        o = {"chunk_size": 2, "connectivity": 4, "diagonal": 2, "weight": 1.0, "smooth": False,
             "record": True, "budget": 0}
        q = [{"edits": [], "start": [0, 0], "goal": [3, 1], "schedule": []},
             {"edits": [[1, 0, 255]], "start": [0, 0], "goal": [3, 1], "schedule": []}]
        r = D.run_describe({"hpa": {"map": grid_map(4, 2), "options": o, "queries": q}})
        self.assertEqual(len(r["ran"]), 3)                   # one per query, then the hierarchy
        self.assertEqual(r["ran"][0]["path"]["status"], 2)
        hier = r["ran"][2]["hierarchy"]
        self.assertTrue(hier["built"])
        self.assertEqual((hier["chunk_size"], hier["chunks"]), (2, [2, 1]))
        self.assertNotIn(1, [c for c, _ in hier["nodes"]])   # the final grid: cell 1 is a wall
        o["chunk_size"] = 0                                   # new fails: the hierarchy is an error
        r = D.run_describe({"hpa": {"map": grid_map(4, 2), "options": o, "queries": q[:1]}})
        self.assertEqual([list(e) for e in r["ran"]], [["error"], ["error"]])

    def test_flow(self):
        # a 3x1 corridor, goal (0, 0): costs 0, 1, 2; cell 1 steps to 0, cell 2 to 1
        r = {"grid": {"hex_layout": None, "map": grid_map(3, 1)}, "options": grid_opts(),
             "goals": [[0, 0]], "script": [{"run": {}}], "probes": []}
        (e,) = D.run_describe({"flow": r})["ran"]
        self.assertEqual(e, {"flow": {"width": 3, "height": 1, "costs": [B[0.0], B[1.0], B[2.0]],
                                      "next": [None, 0, 1], "goals": [0], "status": 2,
                                      "settled": 3}})


class Driver(unittest.TestCase):
    """[DRIVER.OP.DESCRIBE] [DRIVER.PY.DEFECTS] through driver.py."""

    def exchange(self, reqs, env=None):
        e = dict(os.environ)
        e.update(env or {})
        lines = [json.dumps({"protocol": "onepath-driver", "version": 2, "spec_version": "1.1.0"})]
        for i, a in enumerate(reqs, 1):
            lines.append(json.dumps({"id": i, "case": "describe#1", "op": "describe", "args": a}))
        p = subprocess.run([sys.executable, "-B", os.path.join(HERE, "driver.py")],
                           input="\n".join(lines) + "\n", capture_output=True, text=True, env=e,
                           timeout=120)
        return [json.loads(x) for x in p.stdout.splitlines()][1:]

    def test_graph_positions(self):
        lm = {"count": 1, "strategy": "avoid", "seed": 1}
        points = {"graph": {"type": "points", "points": [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0],
                                                         [3.0, 0.0, 0.0]],
                            "explicit": [[0, 1], [1, 2]], "max_distance": 0.0, "nearest_count": 0},
                  "landmarks": lm}
        edges = {"graph": {"type": "edges", "node_count": 3, "directed": True,
                           "edges": [[0, 1, 1.0], [1, 2, 1.0]], "positions": None}, "landmarks": lm}
        with_pos = json.loads(json.dumps(edges))
        with_pos["graph"]["positions"] = [[0.5, 0.0, 0.0], [1.5, 0.0, 0.0], [2.5, 0.0, 0.0]]
        replies = self.exchange([{"graph": {"case": c, "variant": "dijkstra", "query": [0, 2]}}
                                 for c in (points, edges, with_pos)])
        p = replies[0]["ok"]["ran"][0]["graph_path"]
        # Dijkstra 0 -> 2 on the line: the path 0, 1, 2 of cost 1 + 2, the goal popped but not
        # expanded ([GRAPH.ASTAR.EXPAND]); positions are the points by node id
        self.assertEqual((p["algorithm"], p["status"], p["cost"], p["nodes"]),
                         ("dijkstra", 2, B[3.0], [0, 1, 2]))
        z = B[0.0]
        self.assertEqual(p["positions"], [[z, z, z], [B[1.0], z, z], [B[3.0], z, z]])
        self.assertEqual(p["expanded"], [0, 1])
        self.assertEqual(p["expanded_positions"], [[z, z, z], [B[1.0], z, z]])
        q = replies[1]["ok"]["ran"][0]["graph_path"]
        self.assertEqual((q["nodes"], q["positions"], q["expanded_positions"]), ([0, 1, 2], [], []))
        r = replies[2]["ok"]["ran"][0]["graph_path"]
        self.assertEqual(r["positions"], [[B[0.5], z, z], [B[1.5], z, z], [B[2.5], z, z]])

    def test_describe_kinds_defect(self):
        req = {"replan": corridor_replan("lpa")}
        (good,) = self.exchange([req])
        (bad,) = self.exchange([req], {"ONEPATH_PY_DEFECT": "describe_kinds"})
        self.assertEqual(good["ok"]["ran"][0]["replan"]["expanded_kinds"],
                         ["reset", "reset", "settle", "settle"])
        self.assertEqual(bad["ok"]["ran"][0]["replan"]["expanded_kinds"],
                         ["settle", "settle", "reset", "reset"])
        # nothing else changes
        g, b = good["ok"]["ran"][0]["replan"], bad["ok"]["ran"][0]["replan"]
        g.pop("expanded_kinds")
        b.pop("expanded_kinds")
        self.assertEqual(g, b)


if __name__ == "__main__":
    unittest.main()
