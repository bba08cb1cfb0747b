#!/usr/bin/env python3
"""Check the Python replanners against vectors/replanning/REPLAN-*.json ([CONF.REPLAN.VECTOR]).

A thin client of ``onepath_py.replan_requests``, the code that answers the driver's
``run_replan`` op ([DRIVER.OP.RUN_REPLAN]): each vector's ``cases[0].request`` is run and the
reply is compared with ``cases[0].expected`` field by field in the order of [CONF.REPLAN.REPLY],
step by step.  Prints the first difference of each vector that differs, then the counts; exit
status 1 on any difference.  The kit's ``certify --port`` runs the same vectors through the
driver; this script needs no Rust.

Usage: python3 check_replan_vectors.py [VECTOR_DIR]
"""

import glob
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from onepath_py import replan_requests  # noqa: E402
from onepath_py import vector_file  # noqa: E402

STRICT_CASE = ["request", "expected"]
STEP_FIELDS = ["error", "status", "found", "cost", "path", "path_error", "iterations", "expanded",
               "last_expanded", "pending", "expansions", "state_sha256"]


def _list_diff(what, a, b):
    for i in range(min(len(a), len(b))):
        if a[i] != b[i]:
            return "%s %d: expected %r, found %r" % (what, i, a[i], b[i])
    if len(a) != len(b):
        return "%s length: expected %d, found %d" % (what, len(a), len(b))
    return None


def first_difference(exp, got):
    """[CONF.REPLAN.REPLY] The first differing step and field, or None."""
    if "failed" in exp or "failed" in got:
        if exp.get("failed") != got.get("failed"):
            return "failed: expected %r, found %r" % (exp.get("failed"), got.get("failed"))
        return None
    es, gs = exp["ran"]["steps"], got["ran"]["steps"]
    for i in range(min(len(es), len(gs))):
        e, g = es[i], gs[i]
        if sorted(g) != sorted(STEP_FIELDS):
            return "step %d: members %r" % (i, sorted(g))
        for f in STEP_FIELDS:
            if f in ("path", "expansions"):
                d = _list_diff("%s entry" % f, e[f], g[f])
                if d:
                    return "step %d: %s" % (i, d)
            elif e[f] != g[f]:
                return "step %d: %s: expected %r, found %r" % (i, f, e[f], g[f])
    if len(es) != len(gs):
        return "steps: expected %d, found %d" % (len(es), len(gs))
    a, b = exp["ran"]["state"], got["ran"]["state"]
    if a != b:
        if len(a) != len(b):
            return "state length: expected %d bytes, found %d" % (len(a) // 2, len(b) // 2)
        i = next(k for k in range(0, len(a), 2) if a[k:k + 2] != b[k:k + 2])
        return "state byte %d: expected %s, found %s" % (i // 2, a[i:i + 2], b[i:i + 2])
    return None


def main(argv):
    vdir = argv[1] if len(argv) > 1 else os.path.join(HERE, "..", "..", "..", "vectors", "replanning")
    files = sorted(glob.glob(os.path.join(vdir, "REPLAN-*.json")))
    if not files:
        print("no vectors found in %s" % vdir)
        return 1
    passed = 0
    t0 = time.time()
    for path in files:
        try:
            d = vector_file.single(path, "replanning")
        except vector_file.VectorFileError as e:
            print(e)
            return 1
        if sorted(k for k in d if k != "id") != sorted(STRICT_CASE):
            print("%s: not a replanning vector case (members %r)" % (path, list(d.keys())))
            return 1
        try:
            got = replan_requests.run_replan(d["request"])
            diff = first_difference(d["expected"], got)
        except Exception as e:  # a port bug: name it, go on
            diff = "exception %s: %s" % (type(e).__name__, e)
        if diff is None:
            passed += 1
        else:
            print("%s: %s" % (d["id"], diff))
    print("%d of %d replanning vectors match (%.2f s)" % (passed, len(files), time.time() - t0))
    return 0 if passed == len(files) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
