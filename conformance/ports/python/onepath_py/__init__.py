"""onepath_py: an independent Python port of the OnePath graph family, written from spec/graphs.md.

Re-exports every public name ([GRAPH.API.*]).
"""

from .errors import *  # noqa: F401,F403
from .errors import BuildError, QueryError, GraphStateError, OnePathError  # noqa: F401
from .csr import MAX_NODES, CsrGraph, GraphEdge  # noqa: F401
from .graph import Graph  # noqa: F401
from .points import (LinkOptions, Point3, PointGraph,  # noqa: F401
                     distance, squared_distance)
from .open_set import OpenSet  # noqa: F401
from . import state  # noqa: F401
from .astar import (DefaultGraphCost, GraphAStar, SearchStatus, ZeroGraphHeuristic,  # noqa: F401
                    normalize_estimate)
from .bidirectional import BidirectionalGraphSearch  # noqa: F401
from .landmarks import LandmarkOptions, LandmarkStrategy, Landmarks  # noqa: F401
from .random import SeededRandom  # noqa: F401
from .options import Algorithm, GraphOptions, GraphPath, PathStatus  # noqa: F401
