#!/usr/bin/env python3
"""Check the Python hex and voxel searches against vectors/hex-search/HEX-*.json and
vectors/voxel-search/VOXEL-*.json.

A thin client of ``onepath_py.lattice_requests``, the code that answers the driver's
``run_lattice`` op ([DRIVER.OP.RUN_LATTICE]): each case's ``request`` is run and the reply is
compared with ``expected`` as [CONF.LATTICE.REPLY] compares two replies: the grid error, then
query by query, each field in the order ``status``, ``cost`` (bits), ``algorithm``, ``cells``,
``points``, ``expanded``, ``iterations``, ``expanded_count``, a list by its first differing entry.
Prints the first difference of each vector that differs (vector, case, query, field), then the
count; exit status 1 on any difference.  The kit's ``certify --port`` runs the same vectors through
the driver; this script needs no Rust.

[CONF.LATTICE.VECTOR]: a case is ``{"request": R, "expected": REPLY}``, R the request of
[CONF.LATTICE.REQUEST] and REPLY the reply of [CONF.LATTICE.REPLY]; a hex request in
``hex-search/``, a voxel request in ``voxel-search/`` (the other shape is rejected).  Every case
of a file is run (the kit writes one).

Usage: python3 -B check_lattice_vectors.py [VECTORS_ROOT]   (default: the repository's vectors/)
       python3 -B check_lattice_vectors.py --self-test      (the hand-checked test_lattice.py)
"""

import glob
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from onepath_py import lattice_requests  # noqa: E402
from onepath_py import vector_file  # noqa: E402

FAMILIES = [("hex-search", "HEX"), ("voxel-search", "VOXEL")]
SHAPE = {"hex-search": "hex", "voxel-search": "voxel"}
STRICT_CASE = ["request", "expected"]
PATH_FIELDS = ["status", "cost", "algorithm", "cells", "points", "expanded", "iterations",
               "expanded_count"]


def _list_diff(field, e, g):
    for i in range(min(len(e), len(g))):
        if e[i] != g[i]:
            return "%s entry %d: expected %r, found %r" % (field, i, e[i], g[i])
    if len(e) != len(g):
        return "%s: expected %d entries, found %d" % (field, len(e), len(g))
    return None


def first_difference(exp, got):
    """[CONF.LATTICE.REPLY] The first difference (query, field, entry), or None."""
    if "failed" in exp or "failed" in got:
        if exp.get("failed") != got.get("failed") or sorted(exp) != sorted(got):
            return "grid: expected %r, found %r" % (exp.get("failed", "ran"), got.get("failed", "ran"))
        return None
    er, gr = exp["ran"], got["ran"]
    for q in range(min(len(er), len(gr))):
        e, g = er[q], gr[q]
        if "error" in e or "error" in g:
            if e.get("error") != g.get("error") or sorted(e) != sorted(g):
                return "query %d: error: expected %r, found %r" % (q, e.get("error"), g.get("error"))
            continue
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
    if len(er) != len(gr):
        return "queries: expected %d, found %d" % (len(er), len(gr))
    return None


def run_file(path, family):
    """(cases, first difference or None) of one vector file."""
    d = vector_file.read(path, family)
    for ci, case in enumerate(d["cases"]):
        if sorted(case) != sorted(STRICT_CASE):
            return ci, "case %d: not a %s case (members %r)" % (ci, family, list(case))
        if not isinstance(case["request"], dict) or list(case["request"]) != [SHAPE[family]]:
            return ci, "case %d: a %s vector holds a %r request" % (
                ci, family, list(case["request"]) if isinstance(case["request"], dict) else None)
        try:
            got = lattice_requests.run_lattice(case["request"])
            diff = first_difference(case["expected"], got)
        except Exception as e:  # a port bug: name it, go on
            diff = "exception %s: %s" % (type(e).__name__, e)
        if diff is not None:
            return ci, "case %d: %s" % (ci, diff)
    return len(d["cases"]), None


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        import unittest
        suite = unittest.defaultTestLoader.loadTestsFromName("test_lattice")
        res = unittest.TextTestRunner(verbosity=1).run(suite)
        return 0 if res.wasSuccessful() else 1
    root = argv[1] if len(argv) > 1 else os.path.join(HERE, "..", "..", "..", "vectors")
    files = []
    for family, prefix in FAMILIES:
        files += [(p, family) for p in sorted(glob.glob(os.path.join(root, family, prefix + "-*.json")))]
    if not files:
        print("no lattice vectors found under %s" % root)
        return 1
    passed = 0
    t0 = time.time()
    for path, family in files:
        vid = os.path.basename(path)[:-5]
        try:
            _n, diff = run_file(path, family)
        except vector_file.VectorFileError as e:
            diff = str(e)
        if diff is None:
            passed += 1
        else:
            print("%s: %s" % (vid, diff))
    print("%d of %d lattice vectors match (%.2f s)" % (passed, len(files), time.time() - t0))
    return 0 if passed == len(files) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
