#!/usr/bin/env python3
"""Unit tests of grid state behaviour the vectors do not reach ([GRID.LISTEN.RESTORE] with several
listeners, [GRID.RESTORE_COUNT], [GS.CLEAR.GRID] after a restore, [STATE.ATOMIC],
[GS.STATE.FAILED], [STATE.STABLE] for -0.0).  Run: python3 -B test_state_grids.py"""

import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from onepath_py import grid_search as gs  # noqa: E402
from onepath_py.grid_state import GridStateError  # noqa: E402
from onepath_py.hex_grid import HexGrid  # noqa: E402
from onepath_py.voxel_grid import VoxelGrid  # noqa: E402


class GridStateTests(unittest.TestCase):
    def test_listeners_cells_outer_listeners_inner(self):
        a = gs.Grid(3, 2)
        a.set_cell(0, 0, 5)
        a.set_cell(2, 1, 255)
        b = gs.Grid(3, 2)
        b.set_cell(1, 0, 7)
        calls = []
        b.add_listener(lambda i, o, n: calls.append(("L1", i, o, n)))
        b.add_listener(lambda i, o, n: calls.append(("L2", i, o, n)))
        b.restore_state(a.save_state())
        self.assertEqual(calls, [("L1", 0, 0, 5), ("L2", 0, 0, 5), ("L1", 1, 7, 0), ("L2", 1, 7, 0),
                                 ("L1", 5, 0, 255), ("L2", 5, 0, 255)])
        self.assertEqual(b.restore_count(), 1)
        self.assertEqual(b.save_state(), a.save_state())

    def test_failed_restore_calls_nobody_and_changes_nothing(self):
        a = gs.Grid(3, 2)
        a.set_cell(0, 0, 5)
        data = bytearray(a.save_state())
        data[-1] = 9
        data += b"\x00"                       # trailing byte: fails last
        b = gs.Grid(3, 2)
        before = b.save_state()
        calls = []
        b.add_listener(lambda *c: calls.append(c))
        with self.assertRaises(GridStateError) as cm:
            b.restore_state(bytes(data))
        self.assertEqual((cm.exception.error_class, cm.exception.offset), ("trailing_bytes", len(data) - 1))
        self.assertEqual(calls, [])
        self.assertEqual(b.save_state(), before)
        self.assertEqual(b.restore_count(), 0)

    def test_clearance_follows_a_restore(self):
        a = gs.Grid(3, 3)
        a.set_cell(1, 1, 255)
        b = gs.Grid(3, 3)
        self.assertEqual(b.clearance_values()[0], 3)
        b.restore_state(a.save_state())
        self.assertEqual(b.clearance_values()[0], 1)

    def test_from_state_hex_and_neg_zero_space(self):
        h = HexGrid(4, 3, 2)
        h.set_cell(3, 2, 9)
        data = bytearray(h.save_state())
        data[40:48] = struct.pack("<d", -0.0)   # cell size -0.0 with zero origins is "zero"
        g = HexGrid.from_state(bytes(data))
        self.assertEqual(g.layout(), 2)
        self.assertEqual(g.save_state(), bytes(data))
        self.assertEqual(g.restore_count(), 0)

    def test_voxel_restore_listener_node_order(self):
        a = VoxelGrid(17, 2, 2, 4)
        a.set_voxel(16, 0, 0, 1)
        a.set_voxel(0, 1, 1, 255)
        b = VoxelGrid(17, 2, 2, 4)
        calls = []
        b.add_listener(lambda *c: calls.append(c))
        b.restore_state(a.save_state())
        self.assertEqual(calls, [(16, 4, 1), (17 + 17 * 2, 4, 255)])
        self.assertTrue(b._chunks[0] is not None and b._chunks[1] is not None)   # both chunks allocated

    def test_search_failed_restore_is_newly_created(self):
        g = gs.Grid(6, 5)
        s = gs.GridSearch(g, gs.GridOptions(algorithm=gs.GridAlgorithm.Jps))
        s.begin((0, 0), (5, 4))
        s.step(1)
        data = s.save_state()
        fresh = gs.GridSearch(g, gs.GridOptions(algorithm=gs.GridAlgorithm.Jps)).save_state()
        with self.assertRaises(GridStateError):
            s.restore_state(data[:-1])
        self.assertEqual(s.engine(), (0, 0))
        self.assertEqual(s.save_state(), fresh)
        s.restore_state(data)
        self.assertEqual(s.engine(), (3, 0))
        self.assertEqual(s.save_state(), data)

    def test_mode1_path_a_is_checked_before_path_b_is_read(self):
        """[STATE.ORDER] [GS.STATE.MODE1.CHECKS]: pathA is checked as soon as it is read. Found by
        certify --port-cases 1000 --seed 2 (STATE-GRIDSEARCH-0014 with 5 bytes deleted at 36: the
        port read pathB first and answered truncated@42 instead of out_of_range@35)."""
        g = gs.Grid(13, 11)
        g.set_cell(0, 5, gs.WALL)
        s = gs.GridSearch(g, gs.GridOptions())
        s.begin((1, 1), (0, 5))
        data = s.save_state()
        self.assertEqual(len(data), 47)
        hostile = data[:36] + data[41:]
        with self.assertRaises(GridStateError) as e:
            s.restore_state(hostile)
        self.assertEqual((e.exception.error_class, e.exception.offset), ("out_of_range", 35))


if __name__ == "__main__":
    unittest.main()
