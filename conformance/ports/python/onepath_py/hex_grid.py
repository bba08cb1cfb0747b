"""Hex grids ([GRID.HEX.LAYOUT] [GRID.HEX.SIZE]) as far as their state (kind 2, [STATE.HEX]) needs.

A ``HexGrid`` is a ``Grid`` (cells, areas, versions, listeners, space, [GRID.*]) with a layout;
neighbourhoods of hex searches are not part of this port.
"""

from .grid_search import Grid, GridError

ODD_R, EVEN_R, ODD_Q, EVEN_Q = 0, 1, 2, 3   # [GRID.HEX.LAYOUT]


def hex_layout(value):
    """[GRID.HEX.LAYOUT] TryFrom<i32>: 0..=3, else ``invalid_layout``."""
    if value not in (ODD_R, EVEN_R, ODD_Q, EVEN_Q):
        raise GridError("invalid_layout", value=value)
    return value


class HexGrid(Grid):
    """[GRID.HEX.SIZE] [GRID.HEX.LAYOUT] kind 2."""

    _STATE_KIND = 2

    def __init__(self, width, height, layout):
        lay = hex_layout(layout)   # GUESS: layout checked before the size
        Grid.__init__(self, width, height)
        self._layout = lay

    def layout(self):
        return self._layout

    @classmethod
    def _new_for_state(cls, st):
        return cls(st.width, st.height, st.layout)
