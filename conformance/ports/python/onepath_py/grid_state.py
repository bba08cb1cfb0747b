"""Grid state bytes, kinds 1 (Grid), 2 (HexGrid) and 3 (VoxelGrid), from spec/state.md §4 and §6.

Clauses: [STATE.API] [STATE.STABLE] [STATE.ATOMIC] [STATE.ERRORS] [STATE.BOUNDED] [STATE.LE]
[STATE.FLAG] [STATE.NAN] [STATE.ORDER] [STATE.TRAILING] [STATE.HEADER] [STATE.KINDS]
[STATE.SPACE] [STATE.AREAS] [STATE.GRID] [STATE.HEX] [STATE.VOXEL] [STATE.GRID.RESTORE]
[GRID.LISTEN.RESTORE] [GRID.VERSION.RESTORE] [GRID.RESTORE_COUNT].

Parsing never changes an object: ``parse_*`` return a plain record, ``install_*`` apply it, so a
failed restore leaves the grid (and its listeners) untouched ([STATE.ATOMIC]).
"""

import math
import struct

from .errors import OnePathError

MAGIC = 0x5347504F          # [STATE.HEADER] "OPGS"
KIND_HEX, KIND_VOXEL = 2, 3
MAX_CELLS = 1 << 26
SPACE_LIM = float(1 << 21)  # [GRID.SPACE.RANGE]


class GridStateError(OnePathError):
    """[STATE.ERRORS] Grid kinds (1-3, 8-10, 12): class of [STATE.CLASSES] / [GS.STATE.CLASSES], offset, category."""

    category = "format"

    def __init__(self, error_class=None, offset=0):
        super().__init__(error_class, offset=offset)


def err(cls, off):
    """[STATE.ERRORS] A GridStateError of class ``cls`` at byte ``off``."""
    return GridStateError(cls, off)


class Reader(object):
    """[STATE.LE] [STATE.ORDER] Little-endian reader over the whole input (absolute offsets).

    Any shortfall is ``truncated`` at the input length ([STATE.ORDER]).
    """

    def __init__(self, data, pos=0):
        self.data = bytes(data)
        self.pos = pos

    def left(self):
        return len(self.data) - self.pos

    def _take(self, fmt, size):
        off = self.pos
        if off + size > len(self.data):
            raise err("truncated", len(self.data))
        self.pos = off + size
        return struct.unpack_from(fmt, self.data, off)[0], off

    def u8(self):
        return self._take("<B", 1)

    def u16(self):
        return self._take("<H", 2)

    def u32(self):
        return self._take("<I", 4)

    def i32(self):
        return self._take("<i", 4)

    def u64(self):
        return self._take("<Q", 8)

    def f64(self):
        """[STATE.NAN] (value, bits, offset); a NaN of any pattern is ``nan`` at the field."""
        bits, off = self._take("<Q", 8)
        x = struct.unpack("<d", struct.pack("<Q", bits))[0]
        if x != x:
            raise err("nan", off)
        return x, bits, off

    def f64_raw(self):
        """(value, bits, offset) without the NaN check (mode-3 level, [GS.STATE.MODE3.CHECKS])."""
        bits, off = self._take("<Q", 8)
        return struct.unpack("<d", struct.pack("<Q", bits))[0], bits, off

    def flag(self):
        """[STATE.FLAG] 0 or 1, else ``bad_flag``."""
        v, off = self.u8()
        if v > 1:
            raise err("bad_flag", off)
        return v == 1, off

    def raw(self, n):
        """``n`` bytes (``truncated`` at the input length when short)."""
        off = self.pos
        if off + n > len(self.data):
            raise err("truncated", len(self.data))
        self.pos = off + n
        return self.data[off:off + n], off

    def header(self, kind):
        """[STATE.HEADER] [STATE.KINDS] each field checked as soon as it is complete."""
        m, _ = self.u32()
        if m != MAGIC:
            raise err("bad_magic", self.pos - 4)
        v, off = self.u16()
        if v != 1:
            raise err("unsupported_version", off)
        k, off = self.u16()
        if kind is not None and k != kind:
            raise err("wrong_kind", off)
        return k, off

    def end(self):
        """[STATE.TRAILING] ``trailing_bytes`` at the first extra byte."""
        if self.pos != len(self.data):
            raise err("trailing_bytes", self.pos)


def header(kind):
    """[STATE.HEADER] 8 header bytes."""
    return struct.pack("<IHH", MAGIC, 1, kind)


def f64_bytes(x):
    return struct.pack("<d", x)


# ------------------------------------------------------------------ pieces

def read_space(r, n_origins):
    """[STATE.SPACE] origins (checked as read), then the cell size; returns the raw floats (-0.0 kept)."""
    origins = []
    for _ in range(n_origins):
        x, _, off = r.f64()
        if not (math.isfinite(x) and abs(x) <= SPACE_LIM):
            raise err("out_of_range", off)
        origins.append(x)
    s, _, off = r.f64()
    if s == 0.0:
        if any(o != 0.0 for o in origins):
            raise err("out_of_range", off)
    elif not (math.isfinite(s) and 0.0 < s <= SPACE_LIM):
        raise err("out_of_range", off)
    return origins + [s]


def write_space(values):
    return b"".join(f64_bytes(v) for v in values)


def read_areas(r):
    """[STATE.AREAS] i32 version >= 0, 255 multipliers finite and > 0."""
    version, off = r.i32()
    if version < 0:
        raise err("out_of_range", off)
    if r.left() >= 255 * 8:
        # All 255 present: one unpack, the same checks in the same order at the same offsets.
        base = r.pos
        mult = list(struct.unpack_from("<255d", r.data, base))
        for i, m in enumerate(mult):
            if m != m:
                raise err("nan", base + 8 * i)
            if not (math.isfinite(m) and m > 0.0):
                raise err("out_of_range", base + 8 * i)
        r.pos = base + 255 * 8
        return version, mult
    # The bytes end inside the multipliers: the same checks one multiplier at a time, in order,
    # until a bad one or ``truncated`` at the first one cut short (r.f64 raises).  The loop never
    # completes, so it keeps nothing and nothing follows it.
    for _ in range(255):
        m, _, off = r.f64()
        if not (math.isfinite(m) and m > 0.0):
            raise err("out_of_range", off)


def write_areas(version, mult):
    return struct.pack("<i", version) + struct.pack("<255d", *mult)


# ------------------------------------------------------------------ kinds 1 and 2

class FlatState(object):
    """A validated kind-1 / kind-2 state."""
    __slots__ = ("width", "height", "layout", "version", "space", "area_version", "mult", "cells")


def save_flat(grid, kind):
    """[STATE.GRID] / [STATE.HEX] bytes of a square or hex grid."""
    sp = grid.space()
    parts = [header(kind), struct.pack("<ii", grid.width(), grid.height())]
    if kind == KIND_HEX:
        parts.append(struct.pack("<i", grid.layout()))
    parts.append(struct.pack("<i", grid.version()))
    parts.append(write_space([sp.origin_x, sp.origin_y, sp.cell_size]))
    parts.append(write_areas(grid.area_version(), grid._mult))
    parts.append(bytes(grid.cells()))
    return b"".join(parts)


def parse_flat(data, kind, target=None):
    """[STATE.GRID] [STATE.HEX] [STATE.ORDER] Validate kind 1/2 bytes against ``target`` (restore) or
    the size rules of [GRID.SQUARE.SIZE] / [GRID.HEX.LAYOUT] (``target`` None: from_state)."""
    r = Reader(data)
    r.header(kind)
    st = FlatState()
    w, woff = r.i32()
    if target is not None:
        if w != target.width():
            raise err("size_mismatch", woff)
    elif w < 1:
        raise err("out_of_range", woff)   # GUESS (SPEC_NOTES_STATE): from_state width < 1
    h, hoff = r.i32()
    if target is not None:
        if h != target.height():
            raise err("size_mismatch", hoff)
    elif h < 1 or w * h > MAX_CELLS:
        raise err("out_of_range", hoff)    # [STATE.GRID] product too large: at the height field
    st.layout = None
    if kind == KIND_HEX:
        lay, loff = r.i32()
        if target is not None:
            if lay != target.layout():
                raise err("size_mismatch", loff)
        elif not 0 <= lay <= 3:
            raise err("out_of_range", loff)   # [STATE.HEX] from_state: a valid layout
        st.layout = lay
    ver, voff = r.i32()
    if ver < 0:
        raise err("out_of_range", voff)
    st.width, st.height, st.version = w, h, ver
    st.space = read_space(r, 2)
    st.area_version, st.mult = read_areas(r)
    st.cells, _ = r.raw(w * h)
    r.end()
    return st


def install_flat(grid, st):
    """[STATE.GRID.RESTORE] [GRID.LISTEN.RESTORE] Install, bump restore_count, recompute caches, notify."""
    from .grid_search import GridSpace
    old = grid._cells
    new = bytearray(st.cells)
    grid._cells = new
    grid._version = st.version
    grid._space = GridSpace(*st.space)
    grid._area_version = st.area_version
    grid._mult = list(st.mult)
    grid._restore_count += 1
    changes = [(i, old[i], new[i]) for i in range(len(new)) if old[i] != new[i]]
    _notify(grid, changes)


def _notify(grid, changes):
    """[GRID.LISTEN.RESTORE] cells outer loop (ascending), listeners (in order added) inner."""
    ids = sorted(grid._listeners)
    for i, a, b in changes:
        for lid in ids:
            grid._listeners[lid](i, a, b)


# ------------------------------------------------------------------ kind 3

CHUNK = 4096


class VoxelState(object):
    """A validated kind-3 state."""
    __slots__ = ("size", "default_area", "version", "space", "area_version", "mult", "chunks")


def chunk_counts(sx, sy, sz):
    """[GRID.VOXEL.CHUNKS] ceil(size / 16) per axis."""
    return (sx + 15) // 16, (sy + 15) // 16, (sz + 15) // 16


def save_voxel(vg):
    """[STATE.VOXEL] bytes of a voxel grid."""
    sx, sy, sz = vg.size()
    sp = vg.space()
    parts = [header(KIND_VOXEL), struct.pack("<iiiBi", sx, sy, sz, vg.default_area(), vg.version()),
             write_space([sp.origin_x, sp.origin_y, sp.origin_z, sp.cell_size]),
             write_areas(vg.area_version(), vg._mult)]
    for c in vg._chunks:
        if c is None:
            parts.append(b"\x00")
        else:
            parts.append(b"\x01")
            parts.append(bytes(c))
    return b"".join(parts)


def parse_voxel(data, target=None):
    """[STATE.VOXEL] [STATE.ORDER] [STATE.BOUNDED] Validate kind-3 bytes."""
    r = Reader(data)
    r.header(KIND_VOXEL)
    sizes = []
    for axis in range(3):
        s, off = r.i32()
        if target is not None:
            if s != target.size()[axis]:
                raise err("size_mismatch", off)
        else:
            if s < 1:
                raise err("out_of_range", off)
            if axis == 2 and sizes[0] * sizes[1] * s > MAX_CELLS:
                raise err("out_of_range", off)
        sizes.append(s)
    st = VoxelState()
    st.size = tuple(sizes)
    da, off = r.u8()
    if target is not None and da != target.default_area():
        raise err("size_mismatch", off)
    st.default_area = da
    ver, off = r.i32()
    if ver < 0:
        raise err("out_of_range", off)
    st.version = ver
    st.space = read_space(r, 3)
    st.area_version, st.mult = read_areas(r)
    cx, cy, cz = chunk_counts(*sizes)
    chunks = []
    for _ in range(cx * cy * cz):
        allocated, _ = r.flag()
        if allocated:
            b, _ = r.raw(CHUNK)
            chunks.append(bytearray(b))
        else:
            chunks.append(None)
    st.chunks = chunks
    r.end()
    return st


def install_voxel(vg, st):
    """[STATE.GRID.RESTORE] [GRID.LISTEN.RESTORE] (voxels: ascending node index)."""
    from .voxel_grid import VoxelSpace
    old_chunks = vg._chunks
    vg._chunks = st.chunks
    vg._version = st.version
    vg._space = VoxelSpace(*st.space)
    vg._area_version = st.area_version
    vg._mult = list(st.mult)
    changes = []
    if vg._listeners:
        sx, sy, sz = vg.size()
        da = vg.default_area()
        ccx, ccy, _ = chunk_counts(sx, sy, sz)
        for z in range(sz):
            for y in range(sy):
                for x in range(sx):
                    ci = (x >> 4) + ccx * ((y >> 4) + ccy * (z >> 4))
                    li = (x & 15) | (y & 15) << 4 | (z & 15) << 8
                    oc, nc = old_chunks[ci], st.chunks[ci]
                    a = da if oc is None else oc[li]
                    b = da if nc is None else nc[li]
                    if a != b:
                        changes.append((x + sx * (y + sy * z), a, b))
    _notify(vg, changes)
