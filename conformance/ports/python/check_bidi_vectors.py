#!/usr/bin/env python3
"""Check the Python bidirectional grid search against vectors/grid-bidi/BIDI-*.json.

A thin client of ``onepath_py.bidi_requests``, the code that answers the driver's ``run_bidi`` op
([DRIVER.OP.RUN_BIDI]): each case's ``request`` is run and the reply is compared with
``expected`` as [CONF.BIDI.REPLY] compares two replies: the grid error, then query by query as
[CONF.LATTICE.REPLY] (each field in the order ``status``, ``cost`` (bits), ``algorithm``,
``cells``, ``points``, ``expanded``, ``iterations``, ``expanded_count``, a list by its first
differing entry), then the meetings entry by entry.  Prints the first difference of each vector
that differs (vector, case, query or meeting, field), then the count; exit status 1 on any
difference.  The kit's ``certify --port`` runs the same vectors through the driver; this script
needs no Rust.

[CONF.BIDI.VECTOR]: a case is ``{"request": R, "expected": REPLY}``, R the request of
[CONF.BIDI.REQUEST] and REPLY the reply of [CONF.BIDI.REPLY].  Every case of a file is run (the
kit writes one).

Usage: python3 -B check_bidi_vectors.py [VECTORS_ROOT]   (default: the repository's vectors/)
"""

import glob
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from onepath_py import bidi_requests  # noqa: E402
from onepath_py import vector_file  # noqa: E402

FAMILY, PREFIX = "grid-bidi", "BIDI"
STRICT_CASE = ["request", "expected"]
RAN_MEMBERS = ["queries", "meetings"]
PATH_FIELDS = ["status", "cost", "algorithm", "cells", "points", "expanded", "iterations",
               "expanded_count"]


def _list_diff(field, e, g):
    for i in range(min(len(e), len(g))):
        if e[i] != g[i]:
            return "%s entry %d: expected %r, found %r" % (field, i, e[i], g[i])
    if len(e) != len(g):
        return "%s: expected %d entries, found %d" % (field, len(e), len(g))
    return None


def _query_diff(q, e, g):
    """[CONF.LATTICE.REPLY] One query's first difference, or None."""
    if "error" in e or "error" in g:
        if e.get("error") != g.get("error") or sorted(e) != sorted(g):
            return "query %d: error: expected %r, found %r" % (q, e.get("error"), g.get("error"))
        return None
    e, g = e["path"], g["path"]
    # [CONF.LATTICE.CANCEL] the cancel trace: exactly in the replies to cancel queries
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
    return None


def first_difference(exp, got):
    """[CONF.BIDI.REPLY] The first difference (grid, query and field, or meeting), or None."""
    if "failed" in exp or "failed" in got:
        if exp.get("failed") != got.get("failed") or sorted(exp) != sorted(got):
            return "grid: expected %r, found %r" % (exp.get("failed", "ran"), got.get("failed", "ran"))
        return None
    er, gr = exp["ran"], got["ran"]
    if sorted(gr) != sorted(RAN_MEMBERS):
        return "ran: members %r" % (sorted(gr),)
    eq, gq = er["queries"], gr["queries"]
    for q in range(min(len(eq), len(gq))):
        d = _query_diff(q, eq[q], gq[q])
        if d:
            return d
    if len(eq) != len(gq):
        return "queries: expected %d, found %d" % (len(eq), len(gq))
    d = _list_diff("meetings", er["meetings"], gr["meetings"])
    if d:
        return d
    return None


def run_file(path):
    """(cases, first difference or None) of one vector file."""
    d = vector_file.read(path, FAMILY)
    for ci, case in enumerate(d["cases"]):
        if sorted(case) != sorted(STRICT_CASE):
            return ci, "case %d: not a %s case (members %r)" % (ci, FAMILY, list(case))
        try:
            got = bidi_requests.run_bidi(case["request"])
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
        print("no bidirectional vectors found under %s" % root)
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
    print("%d of %d grid-bidi vectors match (%.2f s)" % (passed, len(files), time.time() - t0))
    return 0 if passed == len(files) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
