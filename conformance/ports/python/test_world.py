#!/usr/bin/env python3
"""Unit tests of onepath_py.world (spec/world.md): [WORLD.SAVE] round trips, [WORLD.READ] header
faults with their classes and absolute offsets, [WORLD.STAGE] / [WORLD.ATOMIC] (a bad member
changes nothing and calls no listener), [WORLD.COMMIT] (a successful restore tells the grid's
listeners), [WORLD.PARKED.EDIT], [WORLD.ACCESS] and [WORLD.ADD] errors, and a short session of
onepath_py.synctest.  Run: python3 -B test_world.py"""

import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from onepath_py import grid_search as gs  # noqa: E402
from onepath_py.grid_search_engines import DIAG_AT_MOST_ONE  # noqa: E402
from onepath_py import synctest  # noqa: E402
from onepath_py.graph import Graph  # noqa: E402
from onepath_py.replan_engine import ReplanMode  # noqa: E402
from onepath_py.world import World, WorldError  # noqa: E402

OPTS = gs.GridOptions(connectivity=8, diagonal=DIAG_AT_MOST_ONE,
                      algorithm=gs.GridAlgorithm.AStar)


def root(w, i):
    """A root member's object (the port has no shared accessors: no request reads them)."""
    return w._m[i].obj


def make_world():
    """Grid 0 (8 x 6, walls and areas), graph 1 (a 5-node chain and a shortcut), replanner 2,
    flow field 3, grid search 4, graph search 5: the member list of a session's world."""
    grid = gs.Grid(8, 6)
    grid.set_area_multiplier(1, 2.0)
    grid.set_area_multiplier(2, 3.0)
    for x, y, a in ((3, 1, 255), (3, 2, 255), (3, 3, 255), (5, 4, 1), (1, 4, 2), (6, 1, 1)):
        grid.set_cell(x, y, a)
    graph = Graph(5)
    for f, t, w in ((0, 1, 1.0), (1, 2, 2.0), (2, 3, 1.5), (3, 4, 1.0), (0, 4, 9.0), (1, 3, 4.0)):
        graph.add_edge(f, t, w)
    w = World()
    assert w.add_grid(grid) == 0
    assert w.add_graph(graph) == 1
    assert w.add_replanner(0, OPTS, ReplanMode.DStarLite, (0, 0), (7, 5)) == 2
    assert w.add_flow_field(0, OPTS, [(7, 0), (0, 5)]) == 3
    assert w.add_grid_search(0, OPTS) == 4
    assert w.add_graph_search(1) == 5
    return w


def drive(w, k=0):
    """Partial work in every dependent, so that every member's bytes are non-trivial."""
    rep, grid = w.replanner_mut(2)
    rep.replan(grid, 5 + k)
    field, grid = w.flow_field_mut(3)
    field.step(grid, 7 + k)
    w.with_grid_search(4, lambda s: s.begin((0, 0), (7, 5)))
    w.with_grid_search(4, lambda s: s.step(4 + k))
    w.with_graph_search(5, lambda s: s.begin(0, 4))
    w.with_graph_search(5, lambda s: s.step(2))


def spans(data):
    """(header offset, bytes start, bytes end) of each member, read independently of the port."""
    count = struct.unpack_from("<i", data, 6)[0]
    out = []
    pos = 10
    for _ in range(count):
        length = struct.unpack_from("<I", data, pos + 6)[0]
        out.append((pos, pos + 10, pos + 10 + length))
        pos += 10 + length
    return out


class WorldSaveRestore(unittest.TestCase):
    def test_header_and_members(self):
        w = make_world()
        drive(w)
        data = w.save_state()
        self.assertEqual(data[:4], b"OPWS")
        self.assertEqual(struct.unpack_from("<IHi", data, 0), (0x5357504F, 1, 6))
        sp = spans(data)
        self.assertEqual(sp[-1][2], len(data))
        types = [struct.unpack_from("<Hi", data, h) for h, _, _ in sp]
        self.assertEqual(types, [(1, -1), (4, -1), (5, 0), (7, 0), (12, 0), (11, 1)])
        self.assertEqual(data[sp[0][1]:sp[0][2]], root(w, 0).save_state())
        self.assertEqual(data[sp[1][1]:sp[1][2]], root(w, 1).save_state())
        self.assertEqual([data[s:e] for _, s, e in sp], w.member_states())
        self.assertEqual(w.save_state(), data)            # [WORLD.SAVE] twice, same bytes

    def test_round_trip_and_same_future(self):
        w = make_world()
        drive(w)
        saved = w.save_state()
        drive(w, 3)
        w.grid_mut(0).set_cell(2, 2, 1)
        w.graph_mut(1).set_weight(0, 0.5)
        drive(w, 1)
        self.assertNotEqual(w.save_state(), saved)
        w.restore_state(saved)
        self.assertEqual(w.save_state(), saved)
        # [WORLD.RESTORE.SAME] the restored world and a world built and driven the same way
        twin = make_world()
        drive(twin)
        self.assertEqual(twin.save_state(), saved)
        for x in (w, twin):
            drive(x, 2)
            x.grid_mut(0).set_cell(4, 4, 255)
            drive(x, 1)
        self.assertEqual(w.save_state(), twin.save_state())

    def test_restore_into_a_fresh_world(self):
        w = make_world()
        drive(w)
        saved = w.save_state()
        fresh = make_world()
        fresh.restore_state(saved)
        self.assertEqual(fresh.save_state(), saved)


class WorldAtomic(unittest.TestCase):
    def _check_rejected(self, w, data, cls, offset, state_class=None, index=None):
        before = w.member_states()
        calls = []
        root(w, 0).add_listener(lambda *c: calls.append(c))
        with self.assertRaises(WorldError) as cm:
            w.restore_state(data)
        e = cm.exception
        self.assertEqual((e.error_class, e.offset), (cls, offset), str(e))
        if state_class is not None:
            self.assertEqual((e.state_class, e.index), (state_class, index))
        self.assertEqual(w.member_states(), before)
        self.assertEqual(calls, [])
        self.assertEqual(root(w, 0).restore_count(), 0)
        return e

    def _edited(self):
        """A world whose grid now differs from the saved one (so a commit would notify)."""
        w = make_world()
        drive(w)
        saved = w.save_state()
        w.grid_mut(0).set_cell(0, 3, 255)
        w.grid_mut(0).set_cell(6, 1, 0)
        drive(w, 2)
        return w, saved

    def test_first_member_corrupted(self):
        w, saved = self._edited()
        _, start, _ = spans(saved)[0]
        bad = bytearray(saved)
        bad[start + 8] ^= 1                        # the grid's width: size_mismatch
        e = self._check_rejected(w, bytes(bad), "member", start + 8, "size_mismatch", 0)
        self.assertEqual(str(e), "world member 0 (type 1): size_mismatch at byte %d" % (start + 8))

    def test_last_member_corrupted(self):
        w, saved = self._edited()
        _, start, _ = spans(saved)[-1]
        bad = bytearray(saved)
        bad[start + 12] = 9                        # the graph search's status: out_of_range
        e = self._check_rejected(w, bytes(bad), "member", start + 12, "out_of_range", 5)
        self.assertEqual(e.member_type, 11)

    def test_last_member_truncated_inside(self):
        w, saved = self._edited()
        h, start, end = spans(saved)[-1]
        bad = bytearray(saved[:end - 1])
        struct.pack_into("<I", bad, h + 6, end - 1 - start)
        # the state's own truncated is at its input length: the end of the member's bytes
        self._check_rejected(w, bytes(bad), "member", end - 1, "truncated", 5)

    def test_flow_field_member(self):
        w, saved = self._edited()
        _, start, _ = spans(saved)[3]
        bad = bytearray(saved)
        bad[start + 8] ^= 1                        # the field's width
        self._check_rejected(w, bytes(bad), "member", start + 8, "size_mismatch", 3)

    def test_header_faults(self):
        w = make_world()
        drive(w)
        saved = w.save_state()
        sp = spans(saved)
        self._check_rejected(w, saved[:3], "truncated", 3)
        self._check_rejected(w, saved[:5], "truncated", 5)
        self._check_rejected(w, saved[:9], "truncated", 9)
        self._check_rejected(w, b"", "truncated", 0)
        self._check_rejected(w, b"OPWX" + saved[4:], "bad_magic", 0)
        self._check_rejected(w, b"OPWX", "bad_magic", 0)
        for v in (0, 2):
            bad = bytearray(saved)
            struct.pack_into("<H", bad, 4, v)
            self._check_rejected(w, bytes(bad), "unsupported_version", 4)
        for c in (5, 7, -1):
            bad = bytearray(saved)
            struct.pack_into("<i", bad, 6, c)
            self._check_rejected(w, bytes(bad), "shape_mismatch", 6)
        h3 = sp[3][0]
        bad = bytearray(saved)
        struct.pack_into("<H", bad, h3, 5)         # member 3 claims to be a replanner
        self._check_rejected(w, bytes(bad), "shape_mismatch", h3)
        h5 = sp[5][0]
        bad = bytearray(saved)
        struct.pack_into("<i", bad, h5 + 2, 0)     # the graph search's owner
        self._check_rejected(w, bytes(bad), "shape_mismatch", h5 + 2)
        bad = bytearray(saved)
        struct.pack_into("<i", bad, sp[0][0] + 2, 0)   # a root's owner is -1
        self._check_rejected(w, bytes(bad), "shape_mismatch", sp[0][0] + 2)
        bad = bytearray(saved)
        struct.pack_into("<I", bad, h5 + 6, len(saved) - sp[5][1] + 1)   # length past the end
        self._check_rejected(w, bytes(bad), "truncated", len(saved))
        self._check_rejected(w, saved[:h5 + 9], "truncated", h5 + 9)     # member header cut
        self._check_rejected(w, saved[:sp[1][0]], "truncated", sp[1][0])
        self._check_rejected(w, saved + b"\x00", "trailing_bytes", len(saved))

    def test_listener_called_on_successful_restore(self):
        w = make_world()
        saved = w.save_state()
        w.grid_mut(0).set_cell(2, 0, 2)
        calls = []
        root(w, 0).add_listener(lambda i, old, new: calls.append((i, old, new)))
        w.restore_state(saved)
        self.assertEqual(calls, [(2, 2, 0)])
        self.assertEqual(root(w, 0).restore_count(), 1)
        self.assertEqual(w.save_state(), saved)


class WorldAccess(unittest.TestCase):
    def test_parked_reset_on_mutable_access(self):
        w = make_world()
        not_begun = w.member_states()
        drive(w)
        begun = w.member_states()
        self.assertNotEqual(begun[4], not_begun[4])
        self.assertNotEqual(begun[5], not_begun[5])
        self.assertEqual(w.member_states(), begun)
        w.grid_mut(0)                              # no edit, still a reset of member 4 only
        after = w.member_states()
        self.assertEqual(after[4], not_begun[4])
        self.assertEqual(after[5], begun[5])
        w.graph_mut(1)
        self.assertEqual(w.member_states()[5], not_begun[5])
        self.assertEqual(w.with_grid_search(4, lambda s: int(s.status())), 0)

    def test_parked_survives_graph_growth(self):
        w = make_world()
        drive(w)
        w.graph_mut(1).add_node()
        w.with_graph_search(5, lambda s: s.begin(0, 5))
        self.assertEqual(int(w.with_graph_search(5, lambda s: s.run())), 3)   # NotFound

    def test_access_errors(self):
        w = make_world()
        with self.assertRaises(WorldError) as cm:
            w.grid_mut(6)
        self.assertEqual((cm.exception.error_class, cm.exception.index), ("unknown_member", 6))
        with self.assertRaises(WorldError) as cm:
            w.graph_mut(0)
        e = cm.exception
        self.assertEqual((e.error_class, e.index, e.found, e.expected), ("wrong_member_type", 0, 1, 4))
        with self.assertRaises(WorldError) as cm:
            w.replanner_mut(3)
        self.assertEqual(cm.exception.error_class, "wrong_member_type")
        with self.assertRaises(WorldError) as cm:
            w.with_graph_search(4, lambda s: None)
        self.assertEqual(cm.exception.error_class, "wrong_member_type")

    def test_add_errors_add_nothing(self):
        w = make_world()
        for call, cls in ((lambda: w.add_replanner(1, OPTS, ReplanMode.Lpa, (0, 0), (1, 1)), "wrong_member_type"),
                          (lambda: w.add_graph_search(0), "wrong_member_type"),
                          (lambda: w.add_flow_field(9, OPTS, [(0, 0)]), "unknown_member"),
                          (lambda: w.add_flow_field(0, OPTS, []), "build"),
                          (lambda: w.add_replanner(0, OPTS, ReplanMode.Lpa, (8, 0), (1, 1)), "build"),
                          (lambda: w.add_grid_search(0, gs.GridOptions(algorithm=gs.GridAlgorithm.Theta)),
                           "build")):
            with self.assertRaises(WorldError) as cm:
                call()
            self.assertEqual(cm.exception.error_class, cls)
            self.assertEqual(w.member_count(), 6)
        self.assertEqual(w.add_grid(gs.Grid(2, 2)), 6)


class SyncSession(unittest.TestCase):
    def _session(self, inputs, containers=None):
        return {"schema": "onepath.synctest", "version": 1,
                "map": {"width": 6, "height": 5, "cells": ("00" * 8 + "ff" * 2 + "01" * 4 + "00" * 16),
                        "multipliers": [[1, 2.0]], "space": None},
                "options": {"agent_size": 1, "connectivity": 8, "diagonal": 1, "algorithm": 0,
                            "cell_cost": None, "blocked": None, "weight": 1.0, "record": False,
                            "budget": 0},
                "graph": {"node_count": 4, "edges": [[0, 1, 1.0], [1, 2, 1.0], [2, 3, 1.0], [0, 3, 5.0]]},
                "replanner": {"mode": "lpa", "start": [0, 0], "goal": [5, 4]},
                "flow_goals": [[5, 0]], "containers": containers or [], "inputs": inputs}

    def test_loop(self):
        inputs = [[[1, 3], [2, 4]], [[3, 0, 0, 5, 4], [4, 3]], [[6, 0, 3], [7, 1]], [[0, 2, 3, 255]],
                  [[5, 3, 1, 2], [7, 0]], [[1, 0], [2, 0], [4, 0]]] * 3
        r = synctest.run_session(self._session(inputs))["ran"]
        self.assertIsNone(r["mismatch"])
        self.assertEqual(len(r["checksums"]), len(inputs))
        self.assertTrue(all(len(c) == 7 and all(len(x) == 16 for x in c) for c in r["checksums"]))
        self.assertEqual(r["resimulated"], sum(1 + f % 8 for f in range(len(inputs)) if f + 1 >= 1 + f % 8))

    def test_op8_restores(self):
        """[CONF.SYNC.OPS] op 8: a good container restores (output 0), a bad one reports its
        class, offset, member and state class and changes nothing."""
        base = self._session([[[1, 2], [3, 0, 0, 5, 4], [4, 2]]])
        w = synctest.build_world(base)
        synctest.run_frame(w, base["inputs"][0])
        good = w.save_state()
        bad = bytearray(good)
        bad[10 + 10 + 8] ^= 1                          # member 0's width
        sess = self._session([[[1, 1]], [[8, 0], [1, 3]], [[8, 1]], [[8, 2], [4, 1]]] * 4,
                             [good.hex(), bytes(bad).hex(), good[:3].hex()])
        r = synctest.run_session(sess)["ran"]
        self.assertIsNone(r["mismatch"])
        w = synctest.build_world(sess)
        self.assertEqual(synctest.run_op(w, (8, 0), [good]), b"\x08\x00")
        before = w.save_state()
        out = synctest.run_op(w, (8, 0), [bytes(bad)])
        self.assertEqual(out, b"\x08\x01\x06member" + struct.pack("<Ii", 28, 0) + b"\x0dsize_mismatch")
        out = synctest.run_op(w, (8, 0), [good[:3]])
        self.assertEqual(out, b"\x08\x01\x09truncated" + struct.pack("<Ii", 3, -1) + b"\x00")
        self.assertEqual(w.save_state(), before)
        self.assertTrue(synctest.run_session(self._session([[[8, 1]]], ["00"]))["failed"]
                        .startswith("bad_op: frame 0 op 0"))

    def test_refused(self):
        s = self._session([[[8]]])
        self.assertTrue(synctest.run_session(s)["failed"].startswith("bad_op: frame 0 op 0"))
        s = self._session([[[5, 0, 1, 0]]])
        self.assertTrue(synctest.run_session(s)["failed"].startswith("bad_op:"))
        s = dict(self._session([]), version=2)
        self.assertTrue(synctest.run_session(s)["failed"].startswith("unsupported_version"))
        s = dict(self._session([]), schema="onepath.other")
        self.assertTrue(synctest.run_session(s)["failed"].startswith("unknown_schema"))
        s = dict(self._session([]), flow_goals=[])
        self.assertTrue(synctest.run_session(s)["failed"].startswith("build:"))


if __name__ == "__main__":
    unittest.main()
