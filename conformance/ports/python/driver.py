#!/usr/bin/env python3
"""Driver of the onepath_py port for `onepath-conformance certify --port` (spec/driver.md).

Speaks the JSON-lines protocol of [DRIVER.MSG.*] on stdin/stdout and answers every op of
[DRIVER.OP.*] with the public API of onepath_py.  Stdlib only.

Ops (table OPS): the graph ops here; state_run, run_grid, run_replan, run_flow, run_lattice,
run_hpa, run_bidi and describe ([DRIVER.OP.DESCRIBE]) in onepath_py.<family>_requests; synctest
([DRIVER.OP.SYNCTEST]) in onepath_py.synctest over onepath_py.world.

Defect switch (for testing the kit, [DRIVER.PY.DEFECTS]): ONEPATH_PY_DEFECT=
  gtie      flips the g tie-break of the open-set order (larger g no longer pops first)
  cycle     skips the parent-cycle check when a GraphAStar state is restored
  oplm_len  skips the OPLM length check of Landmarks.deserialize
  grid_gtie flips the g tie-break of the specialised grid A* (mode 1): the smaller g pops first
  grid_heap skips the heap-order check of a mode-3 GridSearch state restore
  neg_zero  keeps the sign of a -0.0 weight instead of storing +0.0 ([GRAPH.VAL.NEG_ZERO])
  flow_tie  the flow-field direction rule takes the last neighbour on ties instead of the first
            ([FLOW.DIR.RULE]: a later neighbour replaces the best on an equal value too)
  hex_tie   the hex search's open set breaks f ties the other way (the smaller g pops first,
            then the larger cell index; [STATE.HEAP.ARRAY] pops the larger g, then the smaller
            index); only HexSearch is affected (voxel and every other search keep the spec order)
  describe_kinds  settle and reset swapped in every replanner description's expanded_kinds
            ([DEBUG.REPLAN.FIELDS]); expansion_kinds() itself and every other op stay correct
  sync_perturb  right after the 20th world restore of a synctest loop ([CONF.SYNC.LOOP]) edge 0
            of the graph member (member 1) gets weight 1000.0 through the world's graph_mut, a
            non-deterministic object the loop must catch (its first resimulated frame, 16)
The defects are monkeypatches applied here; the library itself stays clean.  The variable may
name several defects separated by commas.
"""

import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import onepath_py as op  # noqa: E402
from onepath_py import errors as E  # noqa: E402
from onepath_py import bidi_requests  # noqa: E402
from onepath_py import describe_requests  # noqa: E402
from onepath_py import flow_requests  # noqa: E402
from onepath_py import grid_requests  # noqa: E402
from onepath_py import hpa_requests  # noqa: E402
from onepath_py import lattice_requests  # noqa: E402
from onepath_py import replan_requests  # noqa: E402
from onepath_py import state_requests  # noqa: E402
from onepath_py import synctest  # noqa: E402

PROTOCOL = "onepath-driver"
PROTOCOL_VERSION = 2
PORT_VERSION = "0.4.0"
SPEC_VERSION = "1.1.0"
INF = float("inf")


# ------------------------------------------------------------------ defects

def _defect_gtie():
    import onepath_py.open_set as os_mod

    def precedes(an, af, ag, bn, bf, bg):
        if af < bf:
            return True
        if af == bf:
            if ag < bg:  # flipped: the spec pops the larger g first
                return True
            if ag == bg and an < bn:
                return True
        return False

    os_mod.precedes = precedes


def _defect_cycle():
    import inspect
    import onepath_py.state as st
    src = inspect.getsource(st.parse_search)
    needle = 'raise _err("parent_cycle", voff[smallest])'
    if needle not in src:
        raise RuntimeError("cycle defect: the parent-cycle check moved in onepath_py.state")
    src = src.replace(needle, "pass  # defect: cycle check skipped")
    code = compile(src, st.__file__, "exec")
    exec(code, st.__dict__)  # redefines st.parse_search in the module's namespace


def _defect_oplm_len():
    from onepath_py import landmarks as lm_mod
    original = lm_mod.Landmarks.deserialize

    def deserialize(data, graph):
        data = bytes(data)
        if len(data) >= 24 and data[0:4] == b"OPLM":
            n, k = struct.unpack_from("<ii", data, 8)
            if 1 <= k <= n:
                expected = 24 + 4 * k + 16 * k * n
                if len(data) != expected:  # defect: no length_mismatch, read what is there
                    data = data[:expected] + b"\0" * max(0, expected - len(data))
        return original(data, graph)

    lm_mod.Landmarks.deserialize = staticmethod(deserialize)


def _defect_grid_gtie():
    import onepath_py.grid_search_special as sp
    from onepath_py.grid_search_special import pair_lt

    def lt(self, o):
        if (self.fa, self.fb) != (o.fa, o.fb):
            return pair_lt(self.fa, self.fb, o.fa, o.fb)
        if (self.ga, self.gb) != (o.ga, o.gb):
            return pair_lt(self.ga, self.gb, o.ga, o.gb)  # flipped: the spec pops the larger g first
        return self.cell < o.cell

    sp._SAKey.__lt__ = lt


def _defect_grid_heap():
    import inspect
    import onepath_py.grid_search_restore as gr
    src = inspect.getsource(gr.parse_mode3)
    needle = 'raise err("heap_order", foffs[i])'
    if needle not in src:
        raise RuntimeError("grid_heap defect: the mode-3 heap-order check moved")
    src = src.replace(needle, "pass  # defect: heap order not checked")
    exec(compile(src, gr.__file__, "exec"), gr.__dict__)  # redefines gr.parse_mode3


def _defect_neg_zero():
    import onepath_py.csr as csr_mod
    import onepath_py.graph as graph_mod

    def keep_sign(w):
        return float(w)  # defect: -0.0 stays -0.0

    csr_mod.store_weight = keep_sign
    graph_mod.store_weight = keep_sign


def _defect_flow_tie():
    import inspect
    import onepath_py.flow_engine as fe
    cls = fe._FlowField
    src = inspect.getsource(cls._finish)
    needle = "if val < best:"
    if src.count(needle) != 1:
        raise RuntimeError("flow_tie defect: the direction rule's tie test moved")
    src = src.replace(needle, "if val <= best:  # defect: the last tied neighbour wins")
    import textwrap
    ns = {}
    exec(compile(textwrap.dedent(src), fe.__file__, "exec"), fe.__dict__, ns)
    cls._finish = ns["_finish"]


def _defect_hex_tie():
    import onepath_py.hex_search as hs
    import onepath_py.open_set as os_mod

    def precedes(an, af, ag, bn, bf, bg):
        if af < bf:
            return True
        if af == bf:
            if ag < bg:  # flipped: the spec pops the larger g first
                return True
            if ag == bg and an > bn:  # flipped: the spec pops the smaller index first
                return True
        return False

    class TieFlippedOpenSet(os_mod.OpenSet):
        __slots__ = ()

        def _prec(self, i, j):
            return precedes(self._n[i], self._f[i], self._g[i], self._n[j], self._f[j], self._g[j])

        def push(self, node, f, g):
            i = self._pos.get(node)
            if i is None:
                i = len(self._n)
                self._n.append(node)
                self._f.append(f)
                self._g.append(g)
                self._pos[node] = i
                self._up(i)
                return
            newer = precedes(node, f, g, node, self._f[i], self._g[i])
            self._f[i] = f
            self._g[i] = g
            if newer:
                self._up(i)
            else:
                self._down(i)

    hs.OPEN_SET_FACTORY = TieFlippedOpenSet


def _defect_describe_kinds():
    import onepath_py.replan_engine as re_mod
    from onepath_py.debug import ReplanExpansion
    original = re_mod._Replanner.describe
    swap = {ReplanExpansion.Settle: ReplanExpansion.Reset, ReplanExpansion.Reset: ReplanExpansion.Settle}

    def describe(self, grid):
        d = original(self, grid)
        d.expanded_kinds = [swap[k] for k in d.expanded_kinds]  # defect: settle <-> reset
        return d

    re_mod._Replanner.describe = describe


def _defect_sync_perturb():
    original = synctest.rollback

    def rollback(loop, world, data):
        original(loop, world, data)
        if loop.restores == 20:  # defect: the world changes behind the loop's back
            world.graph_mut(synctest.GRAPH).set_weight(0, 1000.0)

    synctest.rollback = rollback


DEFECTS = {"gtie": _defect_gtie, "cycle": _defect_cycle, "oplm_len": _defect_oplm_len,
           "grid_gtie": _defect_grid_gtie, "grid_heap": _defect_grid_heap,
           "neg_zero": _defect_neg_zero, "flow_tie": _defect_flow_tie,
           "hex_tie": _defect_hex_tie, "describe_kinds": _defect_describe_kinds,
           "sync_perturb": _defect_sync_perturb}


# ------------------------------------------------------------------ encodings

def f64_of(s):
    """[DRIVER.ENC.REAL] 16 hex digits -> float."""
    return struct.unpack("<d", struct.pack("<Q", int(s, 16)))[0]


def bits_of(x):
    """[DRIVER.ENC.REAL] float -> 16 hex digits."""
    return "%016x" % struct.unpack("<Q", struct.pack("<d", float(x)))[0]


ALG_BYTE = {op.Algorithm.Dijkstra: 1, op.Algorithm.AStar: 2,
            op.Algorithm.BidirectionalDijkstra: 3, op.Algorithm.BidirectionalAStar: 4}
STATUS_BYTE = {op.PathStatus.Found: 0, op.PathStatus.NotFound: 1, op.PathStatus.BudgetExhausted: 2}


def enc_result(alg_byte, status_byte, cost, iterations, expanded_count, nodes, expanded):
    """[CONF.ENC.RESULT]"""
    out = [struct.pack("<BBBdQQ", 1, alg_byte, status_byte, cost, iterations, expanded_count),
           struct.pack("<I", len(nodes)), struct.pack("<%dI" % len(nodes), *nodes),
           struct.pack("<I", len(expanded)), struct.pack("<%dI" % len(expanded), *expanded)]
    return b"".join(out).hex()


def enc_error(cls):
    """[CONF.ENC.ERROR]"""
    b = cls.encode("utf-8")
    return (struct.pack("<BH", 2, len(b)) + b).hex()


def enc_path(p):
    return enc_result(ALG_BYTE[p.algorithm], STATUS_BYTE[p.status], p.cost, p.iterations,
                      p.expanded_count, list(p.nodes), list(p.expanded))


def outcome_of(fn):
    try:
        return enc_path(fn())
    except E.OnePathError as e:
        return enc_error(e.error_class)


# ------------------------------------------------------------------ cases

ALGORITHMS = {"dijkstra": op.Algorithm.Dijkstra, "astar": op.Algorithm.AStar,
              "bidirectional_dijkstra": op.Algorithm.BidirectionalDijkstra,
              "bidirectional_astar": op.Algorithm.BidirectionalAStar}
VARIANT_ALG = {"dijkstra": "dijkstra", "astar_alt": "astar", "astar_geo": "astar", "astar_both": "astar",
               "bidi_dijkstra": "bidirectional_dijkstra", "bidi_alt": "bidirectional_astar",
               "bidi_geo": "bidirectional_astar", "bidi_both": "bidirectional_astar"}


def uses_alt(v):
    return v.endswith("_alt") or v.endswith("_both")


def uses_geo(v):
    return v.endswith("_geo") or v.endswith("_both")


def csr_edges(csr):
    offs, targets, weights = csr.offsets(), csr.targets(), csr.weights()
    out = []
    for v in range(csr.node_count()):
        for s in range(offs[v], offs[v + 1]):
            out.append((v, targets[s], weights[s]))
    return out


class Built(object):
    """[CONF.SCN.GRAPH] [CONF.VAR.POINTS] The plain graph, and for point graphs the PointGraph."""

    def __init__(self, case):
        g = case["graph"]
        self.points = None
        self.positions = None
        if g["type"] == "edges":
            self.plain = op.Graph.from_edges([tuple(e) for e in g["edges"]], g["node_count"], g["directed"])
            if g["positions"] is not None:
                self.positions = [op.Point3(*p) for p in g["positions"]]
        else:
            pts = [op.Point3(*p) for p in g["points"]]
            opts = op.LinkOptions(explicit=[tuple(l) for l in g["explicit"]],
                                  max_distance=g["max_distance"], nearest_count=g["nearest_count"])
            self.points = op.PointGraph(pts, opts)
            self.plain = op.Graph.from_edges(csr_edges(self.points.csr()), len(pts), True)
        self.lm_spec = case["landmarks"]
        self._table = None

    def table(self):
        if self._table is None:
            s = self.lm_spec
            strategy = op.LandmarkStrategy.Avoid if s["strategy"] == "avoid" else op.LandmarkStrategy.Farthest
            self._table = self.plain.build_landmarks(op.LandmarkOptions(s["count"], strategy, s["seed"]))
        return self._table

    def geo(self, variant):
        if not uses_geo(variant):
            return None
        if self.points is not None:
            return self.points.points()
        return self.positions


class Estimate(object):
    """[GRAPH.EST.COMBINE] Euclidean then ALT, normalised, max (tier 2)."""

    def __init__(self, geo, alt):
        self.geo, self.alt = geo, alt

    def estimate(self, u, v):
        best = 0.0
        if self.geo is not None:
            e = op.normalize_estimate(op.distance(self.geo[u], self.geo[v]))
            if e > best:
                best = e
        if self.alt is not None:
            e = op.normalize_estimate(self.alt.lower_bound(u, v))
            if e > best:
                best = e
        return best


def tier2(built, variant):
    table = built.table() if uses_alt(variant) else None
    est = Estimate(built.geo(variant), table)
    csr = built.plain.compile()
    cls = op.BidirectionalGraphSearch if variant.startswith("bidi") else op.GraphAStar
    s = cls(csr, op.DefaultGraphCost(), est)
    s.set_record_expansions(True)
    return s


def finish(s, variant):
    st = s.status()
    alg = ALG_BYTE[ALGORITHMS[VARIANT_ALG[variant]]]
    if st == op.SearchStatus.Found:
        status = 0
    elif st == op.SearchStatus.NotFound:
        status = 1
    else:
        return enc_error("harness: tier-2 search ended %s" % st.name)
    return enc_result(alg, status, s.path_cost(), s.iterations(), s.expanded_count(),
                      list(s.path()), list(s.expansions()))


# ------------------------------------------------------------------ ops

def variant_options(built, v, iteration_budget, record_expansions):
    """[CONF.VAR.LIST] Variant ``v``'s tier-1 options: its algorithm, the landmark table for alt
    (a failed build raises), for geo on an edges case with positions the Euclidean heuristic."""
    opts = op.GraphOptions(algorithm=ALGORITHMS[VARIANT_ALG[v]], iteration_budget=iteration_budget,
                           record_expansions=record_expansions)
    if uses_alt(v):
        opts.landmarks = built.table()
    if uses_geo(v) and built.positions is not None:
        pos = built.positions
        opts.heuristic = lambda u, w, pos=pos: op.distance(pos[u], pos[w])
    return opts


def query_variant(built, v, opts, s, g):
    """[CONF.VAR.POINTS] Geo variants of a points case query its PointGraph, the rest the plain graph."""
    if built.points is not None and uses_geo(v):
        return built.points.find_path(s, g, opts)
    return built.plain.find_path(s, g, opts)


def op_run_case(a):
    """[DRIVER.OP.RUN_CASE] [CONF.VAR.NOT_APPLICABLE] A geo variant without positions gets no
    heuristic, so it runs as its variant without geo ([GRAPH.EST.AUTO])."""
    queries = a["queries"]
    variants = a["variants"]
    try:
        built = Built(a["case"])
    except E.OnePathError as e:
        return {"outcomes": [[enc_error(e.error_class)] * len(queries) for _ in variants]}
    out = []
    for v in variants:
        try:
            opts = variant_options(built, v, a["opts"]["iteration_budget"], a["opts"]["record_expansions"])
        except E.OnePathError as e:
            out.append([enc_error(e.error_class)] * len(queries))
            continue
        out.append([outcome_of(lambda: query_variant(built, v, opts, s, g)) for s, g in queries])
    return {"outcomes": out}


def describe_graph_query(case, variant, query):
    """[CONF.DEBUG.REQUEST] The graph describe target: the variant's tier-1 query as ``run_case``
    runs it, recording on, no budget; ``(GraphPath, positions)``.  A failed graph (or alt landmark)
    build raises ``BuildFailed``, a failed query its ``OnePathError``."""
    try:
        built = Built(case)
        opts = variant_options(built, variant, 0, True)
    except E.OnePathError as e:
        raise describe_requests.BuildFailed(e.error_class)
    s, g = query
    path = query_variant(built, variant, opts, s, g)
    # a points case's points, else an edges case's own positions (as the reference; SPEC_NOTES_DEBUG 1)
    positions = built.points.points() if built.points is not None else built.positions
    return path, positions


def op_run_sliced(a):
    v = a["variant"]
    try:
        built = Built(a["case"])
        s = tier2(built, v)
        s.begin(*a["query"])
    except E.OnePathError as e:
        return {"outcome": enc_error(e.error_class)}
    budgets = a["budgets"]
    if not budgets:
        st = s.run(None)
    else:
        i = 0
        while True:
            st = s.step(max(1, budgets[i % len(budgets)]))
            i += 1
            if st != op.SearchStatus.Running:
                break
    if st == op.SearchStatus.Running:
        s.run(None)
    return {"outcome": finish(s, v)}


def failure_of(e):
    return {"class": e.error_class, "index": getattr(e, "index", None)}


def op_build_links(a):
    pts = [tuple(f64_of(c) for c in p) for p in a["points"]]
    calls = []
    rule = a["rule"]
    link_valid = None
    if rule is not None:
        m = rule["reject_index_sum_multiple_of"]

        def link_valid(x, y):
            calls.append([x, y])
            return (x + y) % m != 0
    opts = op.LinkOptions(explicit=[tuple(l) for l in a["explicit"]], max_distance=f64_of(a["max_distance"]),
                          nearest_count=a["nearest_count"], link_valid=link_valid)
    try:
        pg = op.PointGraph([op.Point3(*p) for p in pts], opts)
    except E.OnePathError as e:
        return {"failure": failure_of(e)}
    edges = csr_edges(pg.csr())
    b = [struct.pack("<II", pg.node_count(), len(edges))]
    for f, t, w in edges:
        b.append(struct.pack("<IId", f, t, w))
    return {"edges": b"".join(b).hex(), "calls": calls}


def cost_rule(r):
    (name, arg), = r.items()

    def hit(u, v, m):
        return (u + v) % m == 0
    if name == "scale":
        num, den = arg
        return lambda u, v, w: w * float(num) / float(den)
    if name == "add_const":
        k = f64_of(arg)
        return lambda u, v, w: w + k
    special = {"nan_where": float("nan"), "negative_where": -1.0, "negative_zero_where": -0.0,
               "infinity_where": INF, "max_where": sys.float_info.max}[name]
    return lambda u, v, w: special if hit(u, v, arg) else w


def heuristic_rule(r):
    (name, arg), = r.items()

    def base(u, v):
        return float((u * 7 + v) % 5)
    if name == "mod":
        mul, modulus = arg
        return lambda u, v: float((u * mul + v) % modulus)
    if name == "infinity_where":
        m, rr = arg
        return lambda u, v: INF if u % m == rr else base(u, v)
    if name == "nan_where":
        return lambda u, v: float("nan") if (u + v) % arg == 0 else base(u, v)
    if name == "negative_where":
        return lambda u, v: -2.5 if (u + v) % arg == 0 else base(u, v)
    raise ValueError("unknown heuristic rule %r" % name)


def op_run_hooked(a):
    calls = []
    try:
        built = Built(a["case"])
    except E.OnePathError as e:
        return {"outcome": enc_error(e.error_class), "calls": calls}
    opts = op.GraphOptions(algorithm=ALGORITHMS[a["algorithm"]],
                           iteration_budget=a["opts"]["iteration_budget"],
                           record_expansions=a["opts"]["record_expansions"])
    if a["landmarks"]:
        try:
            opts.landmarks = built.table()
        except E.OnePathError as e:
            return {"outcome": enc_error(e.error_class), "calls": calls}
    h = a["hooks"]
    if h["cost"] is not None:
        rule = cost_rule(h["cost"])

        def edge_cost(u, v, w):
            calls.append(["edge_cost", u, v, bits_of(w)])
            return rule(u, v, w)
        opts.edge_cost = edge_cost
    if h["blocked"] is not None:
        mod, res = h["blocked"]["modulus"], h["blocked"]["residue"]

        def blocked(n):
            calls.append(["blocked", n])
            return n % mod == res
        opts.blocked = blocked
    if h["heuristic"] is not None:
        hr = heuristic_rule(h["heuristic"])

        def heuristic(u, v):
            calls.append(["heuristic", u, v])
            return hr(u, v)
        opts.heuristic = heuristic
    s, g = a["query"]
    if built.points is not None and a["builtin_estimate"]:
        o = outcome_of(lambda: built.points.find_path(s, g, opts))
    else:
        o = outcome_of(lambda: built.plain.find_path(s, g, opts))
    return {"outcome": o, "calls": calls}


def op_run_cancelled(a):
    v = a["variant"]
    try:
        built = Built(a["case"])
        s = tier2(built, v)
        s.begin(*a["query"])
    except E.OnePathError as e:
        return {"failure": e.error_class}
    k = a["first_steps"]
    if k > 0:
        s.step(k)
    before = [int(s.status()), s.iterations()]
    s.run(True)
    cancelled = [int(s.status()), s.iterations()]
    s.run(True)
    again = [int(s.status()), s.iterations()]
    s.run(False)
    return {"before": before, "cancelled": cancelled, "cancelled_again": again, "resumed": finish(s, v)}


def op_run_ops(a):
    """[DRIVER.OP.RUN_OPS] [CONF.IMPL.OPS] [CONF.IMPL.OPS_TABLE] Only a successful build_landmarks
    replaces the table; a failed one and a new (or failed) graph keep it."""
    graph = None
    points = None
    table = None
    results = []

    def edges(lst):
        return [(f, t, f64_of(w)) for f, t, w in lst]

    def pt(p):
        return op.Point3(*[f64_of(c) for c in p])

    def harness(what):
        return {"failure": {"class": "harness: no current %s" % what, "index": None}}
    for o in a["ops"]:
        (name, arg), = o.items()
        try:
            if name == "from_edges":
                n = None if arg["node_count"] is None else int(arg["node_count"])
                graph = None
                graph = op.Graph.from_edges(edges(arg["edges"]), n, arg["directed"])
                r = graph.edge_count()
            elif name == "new_graph":
                graph = None
                graph = op.Graph(int(arg))
                r = graph.node_count()
            elif name == "csr":
                r = op.CsrGraph(int(arg["node_count"]), [op.GraphEdge(*e) for e in edges(arg["edges"])]).edge_count()
            elif name in ("add_node", "add_edge", "remove_edge", "set_weight", "build_landmarks", "find_path") \
                    and graph is None:
                results.append(harness("graph"))
                continue
            elif name == "add_node":
                r = graph.add_node()
            elif name == "add_edge":
                r = graph.add_edge(arg[0], arg[1], f64_of(arg[2]))
            elif name == "remove_edge":
                graph.remove_edge(arg)
                r = 0
            elif name == "set_weight":
                graph.set_weight(arg[0], f64_of(arg[1]))
                r = 0
            elif name == "build_landmarks":
                t = graph.build_landmarks(op.LandmarkOptions(int(arg), op.LandmarkStrategy.Avoid, 1))
                table = t
                r = t.count()
            elif name == "find_path":
                if arg["landmarks"] and table is None:
                    results.append(harness("landmark table"))
                    continue
                opts = op.GraphOptions(landmarks=table if arg["landmarks"] else None)
                r = int(bits_of(graph.find_path(arg["start"], arg["goal"], opts).cost), 16)
            elif name == "points":
                points = None
                points = op.PointGraph([pt(p) for p in arg["points"]],
                                       op.LinkOptions(explicit=[tuple(l) for l in arg["explicit"]],
                                                      max_distance=f64_of(arg["max_distance"]),
                                                      nearest_count=arg["nearest_count"]))
                r = points.csr().edge_count()
            elif name in ("nearest_node", "find_path_between") and points is None:
                results.append(harness("point graph"))
                continue
            elif name == "nearest_node":
                r = points.nearest_node(pt(arg))
            elif name == "find_path_between":
                r = int(bits_of(points.find_path_between(pt(arg[0]), pt(arg[1]), op.GraphOptions()).cost), 16)
            else:
                raise ValueError("unknown operation %r" % name)
            results.append({"value": str(r)})
        except E.OnePathError as e:
            results.append({"failure": failure_of(e) if isinstance(e, E.BuildError)
                            else {"class": e.error_class, "index": None}})
    return {"results": results}


def op_build_landmarks(a):
    try:
        return {"oplm": Built(a["case"]).table().serialize().hex()}
    except E.OnePathError as e:
        return {"failure": e.error_class}


def op_lower_bounds(a):
    try:
        t = Built(a["case"]).table()
    except E.OnePathError as e:
        return {"failure": e.error_class}
    return {"bounds": [bits_of(t.lower_bound(u, v)) for u, v in a["pairs"]]}


def op_deserialize_oplm(a):
    built = Built(a["case"])
    try:
        t = op.Landmarks.deserialize(bytes.fromhex(a["bytes"]), built.plain.compile())
    except E.GraphStateError as e:
        return {"rejected": {"class": e.error_class, "offset": e.offset}}
    return {"oplm": t.serialize().hex()}


def op_state_run(a):
    """[DRIVER.OP.STATE] Every recipe kind and from_state of kinds 1-4: onepath_py.state_requests
    ([CONF.IMPL.STATE])."""
    try:
        return state_requests.run_state(a)
    except state_requests.Unimplemented:
        return None


def op_run_grid(a):
    """[DRIVER.OP.RUN_GRID] onepath_py.grid_requests ([CONF.IMPL.GRID])."""
    return grid_requests.run_grid(a)


def op_run_replan(a):
    """[DRIVER.OP.RUN_REPLAN] onepath_py.replan_requests ([CONF.IMPL.REPLAN])."""
    return replan_requests.run_replan(a)


def op_run_flow(a):
    """[DRIVER.OP.RUN_FLOW] onepath_py.flow_requests ([CONF.IMPL.FLOW])."""
    return flow_requests.run_flow(a)


def op_run_lattice(a):
    """[DRIVER.OP.RUN_LATTICE] onepath_py.lattice_requests ([CONF.IMPL.LATTICE]): hex requests
    belong to hex-search, voxel requests to voxel-search ([DRIVER.LEVEL.FAMILY])."""
    return lattice_requests.run_lattice(a)


def op_run_hpa(a):
    """[DRIVER.OP.RUN_HPA] onepath_py.hpa_requests ([CONF.IMPL.HPA]): the request of
    [CONF.HPA.REQUEST] exactly, the reply of [CONF.HPA.REPLY]; family hpa ([DRIVER.LEVEL.FAMILY])."""
    return hpa_requests.run_hpa(a)


def op_describe(a):
    """[DRIVER.OP.DESCRIBE] onepath_py.describe_requests ([CONF.DEBUG.REQUEST]); graph targets
    through ``describe_graph_query``; judged in the target's family ([CONF.DEBUG.LEVEL])."""
    return describe_requests.run_describe(a, describe_graph_query)


def op_synctest(a):
    """[DRIVER.OP.SYNCTEST] onepath_py.synctest: build the world of spec/world.md from the
    session ([CONF.SYNC.SESSION]), run [CONF.SYNC.LOOP] and answer [CONF.SYNC.REPLY]."""
    return synctest.run_session(a)


def op_run_bidi(a):
    """[DRIVER.OP.RUN_BIDI] onepath_py.bidi_requests ([CONF.IMPL.BIDI]): the request of
    [CONF.BIDI.REQUEST] exactly, the reply of [CONF.BIDI.REPLY]; belongs to grid-bidi
    ([DRIVER.LEVEL.FAMILY])."""
    return bidi_requests.run_bidi(a)


OPS = {
    "state_run": op_state_run,
    "run_grid": op_run_grid,
    "run_replan": op_run_replan,
    "run_flow": op_run_flow,
    "run_lattice": op_run_lattice,
    "run_hpa": op_run_hpa,
    "run_bidi": op_run_bidi,
    "describe": op_describe,
    "synctest": op_synctest,
    "run_case": op_run_case,
    "run_sliced": op_run_sliced,
    "build_links": op_build_links,
    "run_hooked": op_run_hooked,
    "run_cancelled": op_run_cancelled,
    "run_ops": op_run_ops,
    "build_landmarks": op_build_landmarks,
    "lower_bounds": op_lower_bounds,
    "deserialize_oplm": op_deserialize_oplm,
}


def send(obj):
    sys.stdout.write(json.dumps(obj, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def limit_memory():
    """Cap this process's address space (ONEPATH_PY_MEMORY_MB, default 1024): a port bug that
    loops allocating (a parent cycle walked by path()) becomes a MemoryError answered as an
    error instead of exhausting the machine."""
    try:
        import resource
        mb = int(os.environ.get("ONEPATH_PY_MEMORY_MB", "1024"))
        if mb > 0:
            resource.setrlimit(resource.RLIMIT_AS, (mb << 20, mb << 20))
    except (ImportError, ValueError, OSError):
        pass


def claims():
    """[DRIVER.PY.DRIVER] The claims: every family (graph, grids, grid-search, replanning,
    flow-field, hex-search, voxel-search, hpa, grid-bidi) at L4, or ONEPATH_PY_CLAIMS=family=level,...
    (the kit's own tests use it to certify a port that claims less than it answers)."""
    spec = os.environ.get("ONEPATH_PY_CLAIMS",
                          "graph=4,grids=4,grid-search=4,replanning=4,flow-field=4,"
                          "hex-search=4,voxel-search=4,hpa=4,grid-bidi=4")
    out = {}
    for item in filter(None, spec.split(",")):
        family, level = item.split("=")
        out[family] = int(level)
    return out


def main():
    limit_memory()
    for defect in filter(None, os.environ.get("ONEPATH_PY_DEFECT", "").split(",")):
        if defect not in DEFECTS:
            sys.stderr.write("unknown ONEPATH_PY_DEFECT %r\n" % defect)
            return 2
        DEFECTS[defect]()
    hello = sys.stdin.readline()
    if not hello:
        return 0
    h = json.loads(hello)
    if h.get("protocol") != PROTOCOL or h.get("version") != PROTOCOL_VERSION:
        sys.stderr.write("unsupported protocol %r\n" % (h,))
        return 2
    send({"protocol": PROTOCOL, "version": PROTOCOL_VERSION, "port": "onepath_py",
          "port_version": PORT_VERSION, "spec_version": SPEC_VERSION,
          "claims": claims()})
    for line in sys.stdin:
        req = json.loads(line)
        rid = req.get("id")
        if req.get("op") == "shutdown":
            break
        fn = OPS.get(req.get("op"))
        if fn is None:
            send({"id": rid, "unimplemented": True})
            continue
        try:
            result = fn(req["args"])
            if result is None:
                send({"id": rid, "unimplemented": True})
            else:
                send({"id": rid, "ok": result})
        except Exception as e:  # a bug of the driver or the port: report, keep serving
            send({"id": rid, "error": "%s: %s" % (type(e).__name__, e)})
    return 0


if __name__ == "__main__":
    sys.exit(main())
