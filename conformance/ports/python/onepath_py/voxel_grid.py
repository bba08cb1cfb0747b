"""Voxel grids as far as their state (kind 3, [STATE.VOXEL]) needs: [GRID.VOXEL.SIZE]
[GRID.VOXEL.DEFAULT] [GRID.VOXEL.CHUNKS] [GRID.VOXEL.ALLOC] [GRID.VOXEL.PADDING] [GRID.AREA.*]
[GRID.VERSION.*] [GRID.LISTEN.*] [GRID.SPACE.*].  No ``restore_count`` ([GRID.RESTORE_COUNT]): only
a grid's dependents read it, and the port's flow fields, replanners and HPA take square or hex
grids only; no request observes a voxel grid's."""

import math

from .grid_search import GridError, WALL
from . import grid_state

MAX_CELLS = 1 << 26


class VoxelSpace(object):
    """[GRID.SPACE.FIELDS]"""

    def __init__(self, origin_x=0.0, origin_y=0.0, origin_z=0.0, cell_size=0.0):
        self.origin_x = float(origin_x)
        self.origin_y = float(origin_y)
        self.origin_z = float(origin_z)
        self.cell_size = float(cell_size)

    def unassigned(self):
        return (self.origin_x == 0.0 and self.origin_y == 0.0 and self.origin_z == 0.0
                and self.cell_size == 0.0)


class VoxelGrid(object):
    """[GRID.VOXEL.*] kind 3."""

    def __init__(self, size_x, size_y, size_z, default_area):
        if size_x < 1 or size_y < 1 or size_z < 1 or size_x * size_y * size_z > MAX_CELLS:
            raise GridError("invalid_size", size=(size_x, size_y, size_z))
        self._size = (size_x, size_y, size_z)
        self._default = default_area
        cx, cy, cz = grid_state.chunk_counts(size_x, size_y, size_z)
        self._cc = (cx, cy, cz)
        self._chunks = [None] * (cx * cy * cz)
        self._mult = [1.0] * 255
        self._area_version = 0
        self._version = 0
        self._space = VoxelSpace()
        self._listeners = {}
        self._next_listener = 0

    def size(self):
        return self._size

    def default_area(self):
        return self._default

    def _locate(self, x, y, z):
        sx, sy, sz = self._size
        for axis, v, lim in (("x", x, sx), ("y", y, sy), ("z", z, sz)):
            if not 0 <= v < lim:
                raise GridError("cell_out_of_range", axis=axis, value=v)
        cx, cy, _ = self._cc
        ci = (x >> 4) + cx * ((y >> 4) + cy * (z >> 4))
        return ci, (x & 15) | (y & 15) << 4 | (z & 15) << 8

    def voxel(self, x, y, z):
        ci, li = self._locate(x, y, z)
        c = self._chunks[ci]
        return self._default if c is None else c[li]

    def set_voxel(self, x, y, z, area):
        """[GRID.VOXEL.ALLOC] [GRID.VERSION.COUNT] [GRID.LISTEN.EDIT]"""
        ci, li = self._locate(x, y, z)
        c = self._chunks[ci]
        old = self._default if c is None else c[li]
        if old == area:
            return
        if c is None:
            c = bytearray([self._default]) * grid_state.CHUNK
            self._chunks[ci] = c
        c[li] = area
        self._version = 0 if self._version == 2 ** 31 - 1 else self._version + 1
        sx, sy, _ = self._size
        idx = x + sx * (y + sy * z)
        for lid in sorted(self._listeners):
            self._listeners[lid](idx, old, area)

    def version(self):
        return self._version

    def area_multiplier(self, area):
        return None if area == WALL else self._mult[area]

    def set_area_multiplier(self, area, multiplier):
        """[GRID.AREA.SET] [GRID.AREA.VERSION]"""
        if not (0 <= area <= 254):
            raise GridError("area_out_of_range", area=area)
        m = float(multiplier)
        if not (math.isfinite(m) and m > 0.0):
            raise GridError("invalid_multiplier", value=m)
        self._mult[area] = m
        self._area_version = 0 if self._area_version == 2 ** 31 - 1 else self._area_version + 1

    def area_version(self):
        return self._area_version

    def space(self):
        return self._space

    def set_space(self, space):
        """[GRID.SPACE.RANGE]"""
        if not space.unassigned():
            lim = float(1 << 21)
            for name in ("origin_x", "origin_y", "origin_z"):
                v = getattr(space, name)
                if not (math.isfinite(v) and abs(v) <= lim):
                    raise GridError("invalid_space", field=name, value=v)
            s = space.cell_size
            if not (math.isfinite(s) and 0.0 < s <= lim):
                raise GridError("invalid_space", field="cell_size", value=s)
        self._space = VoxelSpace(space.origin_x, space.origin_y, space.origin_z, space.cell_size)

    def add_listener(self, listener):
        lid = self._next_listener
        self._next_listener += 1
        self._listeners[lid] = listener
        return lid

    def save_state(self):
        """[STATE.VOXEL]"""
        return grid_state.save_voxel(self)

    def restore_state(self, data):
        """[STATE.ATOMIC] [STATE.GRID.RESTORE]"""
        st = grid_state.parse_voxel(data, self)
        grid_state.install_voxel(self, st)

    @classmethod
    def from_state(cls, data):
        """[STATE.API] [STATE.VOXEL]"""
        st = grid_state.parse_voxel(data, None)
        g = cls(st.size[0], st.size[1], st.size[2], st.default_area)
        grid_state.install_voxel(g, st)
        return g
