#!/usr/bin/env python3
"""Check the Python HPA* against vectors/hpa/HPA-*.json.

A thin client of ``onepath_py.hpa_requests``, the code that answers the driver's ``run_hpa`` op
([DRIVER.OP.RUN_HPA]): each case's ``request`` is run and the reply is compared with
``expected`` as [CONF.HPA.REPLY] compares two replies: the grid error, then query by query (the
fields in the order of [CONF.LATTICE.REPLY] — ``status``, ``cost`` (bits), ``algorithm``,
``cells``, ``points``, ``expanded``, ``iterations``, ``expanded_count`` — then ``abstract``, then
``rebuilt``), then the hierarchy (``built``, ``chunks``, ``nodes`` entry by entry, ``edges`` entry
by entry, each edge's fields in the order ``from``, ``to``, ``cost``, ``inter``, ``path``).
Prints the first difference of each vector that differs (vector, case, query or hierarchy,
field, entry), then the count; exit status 1 on any difference.  The kit's ``certify --port``
runs the same vectors through the driver; this script needs no Rust.

[CONF.HPA.VECTOR]: a case is ``{"request": R, "expected": REPLY}``, R the request of
[CONF.HPA.REQUEST] and REPLY the reply of [CONF.HPA.REPLY].  Every case of a file is run (the
kit writes one).

Usage: python3 -B check_hpa_vectors.py [VECTORS_ROOT]   (default: the repository's vectors/)
"""

import glob
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from onepath_py import hpa_requests  # noqa: E402
from onepath_py import vector_file  # noqa: E402

FAMILY, PREFIX = "hpa", "HPA"
STRICT_CASE = ["request", "expected"]
PATH_FIELDS = ["status", "cost", "algorithm", "cells", "points", "expanded", "iterations",
               "expanded_count", "abstract", "rebuilt"]
HIER_FIELDS = ["built", "chunks", "nodes", "edges"]
EDGE_FIELDS = ["from", "to", "cost", "inter", "path"]


def _list_diff(field, e, g):
    for i in range(min(len(e), len(g))):
        if e[i] != g[i]:
            return "%s entry %d: expected %r, found %r" % (field, i, e[i], g[i])
    if len(e) != len(g):
        return "%s: expected %d entries, found %d" % (field, len(e), len(g))
    return None


def _hierarchy_diff(e, g):
    """[CONF.HPA.REPLY] built, chunks, nodes entry by entry, edges entry by entry (fields in
    order)."""
    if e is None or g is None:
        if e is not g:
            return "hierarchy: expected %r, found %r" % (e, g)
        return None
    if sorted(g) != sorted(HIER_FIELDS):
        return "hierarchy: members %r" % (sorted(g),)
    if e["built"] != g["built"]:
        return "hierarchy: built: expected %r, found %r" % (e["built"], g["built"])
    d = _list_diff("chunks", e["chunks"], g["chunks"]) or _list_diff("nodes", e["nodes"], g["nodes"])
    if d:
        return "hierarchy: " + d
    ee, ge = e["edges"], g["edges"]
    for i in range(min(len(ee), len(ge))):
        if sorted(ge[i]) != sorted(EDGE_FIELDS):
            return "hierarchy: edges entry %d: members %r" % (i, sorted(ge[i]))
        for f in EDGE_FIELDS:
            if f == "path":
                d = _list_diff("path", ee[i][f], ge[i][f])
                if d:
                    return "hierarchy: edges entry %d (%d -> %d): %s" % (i, ee[i]["from"], ee[i]["to"], d)
            elif ee[i][f] != ge[i][f]:
                return "hierarchy: edges entry %d: %s: expected %r, found %r" % (i, f, ee[i][f], ge[i][f])
    if len(ee) != len(ge):
        return "hierarchy: edges: expected %d entries, found %d" % (len(ee), len(ge))
    return None


def first_difference(exp, got):
    """[CONF.HPA.REPLY] The first difference (query or hierarchy, field, entry), or None."""
    if "failed" in exp or "failed" in got:
        if exp.get("failed") != got.get("failed") or sorted(exp) != sorted(got):
            return "grid: expected %r, found %r" % (exp.get("failed", "ran"), got.get("failed", "ran"))
        return None
    if sorted(got["ran"]) != ["hierarchy", "queries"]:
        return "ran: members %r" % (sorted(got["ran"]),)
    er, gr = exp["ran"]["queries"], got["ran"]["queries"]
    for q in range(min(len(er), len(gr))):
        e, g = er[q], gr[q]
        if "error" in e or "error" in g:
            if e.get("error") != g.get("error") or sorted(e) != sorted(g):
                return "query %d: error: expected %r, found %r" % (
                    q, e.get("error", "a path"), g.get("error", "a path"))
            continue
        e, g = e["path"], g["path"]
        # [CONF.HPA.CANCEL] the cancel trace: exactly in the replies to cancel queries
        fields = PATH_FIELDS + (["cancel"] if "cancel" in e else [])
        if sorted(g) != sorted(fields):
            return "query %d: members %r" % (q, sorted(g))
        for f in fields:
            if isinstance(e[f], list):
                d = _list_diff(f, e[f], g[f])
                if d:
                    return "query %d: %s" % (q, d)
            elif e[f] != g[f]:
                return "query %d: %s: expected %r, found %r" % (q, f, e[f], g[f])
    if len(er) != len(gr):
        return "queries: expected %d, found %d" % (len(er), len(gr))
    return _hierarchy_diff(exp["ran"]["hierarchy"], got["ran"]["hierarchy"])


def run_file(path):
    """(cases, first difference or None) of one vector file."""
    d = vector_file.read(path, FAMILY)
    for ci, case in enumerate(d["cases"]):
        if sorted(case) != sorted(STRICT_CASE):
            return ci, "case %d: not an hpa case (members %r)" % (ci, list(case))
        try:
            got = hpa_requests.run_hpa(case["request"])
            diff = first_difference(case["expected"], got)
        except Exception as e:  # a port bug: name it, go on
            diff = "exception %s: %s" % (type(e).__name__, e)
        if diff is not None:
            return ci, "case %d: %s" % (ci, diff)
    return len(d["cases"]), None


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(HERE, "..", "..", "..", "vectors")
    files = sorted(glob.glob(os.path.join(root, FAMILY, PREFIX + "-*.json")))
    if not files:
        print("no hpa vectors found under %s" % root)
        return 1
    passed = 0
    t0 = time.time()
    for path in files:
        vid = os.path.basename(path)[:-5]
        try:
            _n, diff = run_file(path)
        except vector_file.VectorFileError as e:
            diff = str(e)
        if diff is None:
            passed += 1
        else:
            print("%s: %s" % (vid, diff))
    print("%d of %d hpa vectors match (%.2f s)" % (passed, len(files), time.time() - t0))
    return 0 if passed == len(files) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
