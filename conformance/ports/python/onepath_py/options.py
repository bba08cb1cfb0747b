"""Tier 1: [GRAPH.T1.*], [GRAPH.EST.COMBINE], [GRAPH.EST.AUTO], [GRAPH.API.TIER1_SEARCH]."""

import enum
import math

from . import errors
from .astar import GraphAStar, SearchStatus, ZeroGraphHeuristic, check_nodes, normalize_estimate
from .bidirectional import BidirectionalGraphSearch
from .points import distance

INF = math.inf


class Algorithm(enum.Enum):
    """[GRAPH.T1.OPTIONS] [GRAPH.EST.AUTO] Auto and Bidirectional are resolved; a result never reports them."""

    Auto = "Auto"
    Dijkstra = "Dijkstra"
    AStar = "AStar"
    Bidirectional = "Bidirectional"
    BidirectionalDijkstra = "BidirectionalDijkstra"
    BidirectionalAStar = "BidirectionalAStar"


class PathStatus(enum.Enum):
    """[GRAPH.T1.RESULT] Found, NotFound, BudgetExhausted."""

    Found = "Found"
    NotFound = "NotFound"
    BudgetExhausted = "BudgetExhausted"


class GraphOptions(object):
    """[GRAPH.T1.OPTIONS] Hooks, algorithm, landmarks, iteration budget, recording."""

    def __init__(self, edge_cost=None, blocked=None, heuristic=None, algorithm=Algorithm.Auto,
                 landmarks=None, iteration_budget=0, record_expansions=False):
        """[GRAPH.T1.OPTIONS] Every field optional; default() = Auto and nothing else."""
        self.edge_cost = edge_cost
        self.blocked = blocked
        self.heuristic = heuristic
        self.algorithm = algorithm
        self.landmarks = landmarks
        self.iteration_budget = iteration_budget
        self.record_expansions = record_expansions

class GraphPath(object):
    """[GRAPH.T1.RESULT] Result of a tier-1 query."""

    def __init__(self, status, cost, nodes, algorithm, expanded_count, iterations, expanded):
        """[GRAPH.T1.RESULT]"""
        self.status = status
        self.cost = cost
        self.nodes = nodes
        self.algorithm = algorithm
        self.expanded_count = expanded_count
        self.iterations = iterations
        self.expanded = expanded

class _HookCost(object):
    """[GRAPH.API.TIER1_SEARCH] [GRAPH.T1.BLOCKED] Cost object from the edge_cost and blocked hooks."""

    def __init__(self, edge_cost, blocked):
        """[GRAPH.API.TIER1_SEARCH] Wrap the edge_cost and blocked hooks."""
        self._edge_cost = edge_cost
        self._blocked = blocked

    def cost(self, from_, to, weight):
        """[GRAPH.ASTAR.EXPAND] edge_cost hook or the weight."""
        if self._edge_cost is None:
            return weight
        return self._edge_cost(from_, to, weight)

    def blocked(self, node):
        """[GRAPH.T1.BLOCKED] blocked hook or never."""
        if self._blocked is None:
            return False
        return bool(self._blocked(node))


class _Combined(object):
    """[GRAPH.EST.COMBINE] [SPEC.NUM.COMPARE] Max of normalised estimates: Euclidean, ALT, hook."""

    def __init__(self, sources):
        """[GRAPH.EST.COMBINE] Estimate sources in order: Euclidean, ALT, hook."""
        self._sources = sources

    def estimate(self, from_, to):
        """[GRAPH.EST.COMBINE] max(a, b) = b if b > a else a, in the listed order."""
        best = None
        for src in self._sources:
            e = normalize_estimate(src(from_, to))
            if best is None or e > best:
                best = e
        return 0.0 if best is None else best


def find_path_csr(csr, start, goal, options, points=None):
    """[GRAPH.T1.CHECKS] [GRAPH.EST.COMBINE] [GRAPH.EST.AUTO] [GRAPH.T1.BUDGET] [GRAPH.T1.RESULT] [GRAPH.API.TIER1_SEARCH]

    Runs the tier-2 search chosen by [GRAPH.EST.AUTO] on ``csr``.
    """
    n = csr.node_count()
    check_nodes(n, start, goal)
    lm = options.landmarks
    if lm is not None and (lm.node_count() != n or lm.fingerprint() != csr.fingerprint()):
        raise errors.StaleLandmarks()
    sources = []
    if points is not None:
        sources.append(lambda u, v: distance(points[u], points[v]))
    if lm is not None:
        sources.append(lm.lower_bound)
    if options.heuristic is not None:
        sources.append(options.heuristic)
    has_est = bool(sources)
    alg = options.algorithm
    if alg in (Algorithm.Auto, Algorithm.AStar):
        alg = Algorithm.AStar if has_est else Algorithm.Dijkstra
    elif alg in (Algorithm.Bidirectional, Algorithm.BidirectionalAStar):
        alg = Algorithm.BidirectionalAStar if has_est else Algorithm.BidirectionalDijkstra
    heur = _Combined(sources) if alg in (Algorithm.AStar, Algorithm.BidirectionalAStar) \
        else ZeroGraphHeuristic()
    cost = _HookCost(options.edge_cost, options.blocked)
    if alg in (Algorithm.AStar, Algorithm.Dijkstra):
        search = GraphAStar(csr, cost, heur)
    else:
        search = BidirectionalGraphSearch(csr, cost, heur)
    search.set_record_expansions(options.record_expansions)
    search.begin(start, goal)
    if options.iteration_budget > 0:
        st = search.step(options.iteration_budget)
    else:
        st = search.run(None)
    if st == SearchStatus.Found:
        status = PathStatus.Found
    elif st == SearchStatus.Running:
        status = PathStatus.BudgetExhausted
    else:
        status = PathStatus.NotFound
    return GraphPath(status, search.path_cost() if status == PathStatus.Found else INF,
                     search.path() if status == PathStatus.Found else [], alg,
                     search.expanded_count(), search.iterations(),
                     search.expansions() if options.record_expansions else [])
