#!/usr/bin/env python3
"""Driver of the onepath_py port for `onepath-conformance certify --port` (spec/driver.md).

Speaks the JSON-lines protocol of [DRIVER.MSG.*] on stdin/stdout and answers every op of
[DRIVER.OP.*] with the public API of onepath_py.  Stdlib only.

Ops (table OPS): the graph ops here; state_run, run_grid, run_replan, run_flow, run_lattice,
run_hpa, run_bidi and describe ([DRIVER.OP.DESCRIBE]) in onepath_py.<family>_requests; synctest
([DRIVER.OP.SYNCTEST]) in onepath_py.synctest over onepath_py.world.

Defect switch (for testing the kit, [DRIVER.PY.DEFECTS]): ONEPATH_PY_DEFECT=NAME[,NAME...]
applies the monkeypatches of defects.py (same folder), which main() imports only when the variable
is set; the list of defects is in that module's docstring.  The library and this driver stay clean:
a run without the variable never loads defects.py.
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
    assert st in (op.SearchStatus.Found, op.SearchStatus.NotFound), st  # both callers run to the end
    return enc_result(alg, 0 if st == op.SearchStatus.Found else 1, s.path_cost(), s.iterations(), s.expanded_count(),
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
    assert name == "negative_where", "unknown heuristic rule %r" % name
    return lambda u, v: -2.5 if (u + v) % arg == 0 else base(u, v)


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
    cancelled = [int(s.run(True)), s.iterations()]     # the status run returned
    again = [int(s.run(True)), s.iterations()]
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
            else:
                assert name == "find_path_between", "unknown operation %r" % name
                r = int(bits_of(points.find_path_between(pt(arg[0]), pt(arg[1]), op.GraphOptions()).cost), 16)
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
    return state_requests.run_state(a)


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
    if os.environ.get("ONEPATH_PY_DEFECT"):  # pragma: no mutate (test instruments, [CONF.PMUT.FILES])
        import defects  # defects.py next to this file ([DRIVER.PY.DEFECTS])
        for defect in filter(None, os.environ["ONEPATH_PY_DEFECT"].split(",")):
            if defect not in defects.DEFECTS:
                sys.stderr.write("unknown ONEPATH_PY_DEFECT %r\n" % defect)
                return 2
            defects.DEFECTS[defect]()
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
