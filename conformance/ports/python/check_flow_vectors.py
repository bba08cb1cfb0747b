#!/usr/bin/env python3
"""Check the Python flow fields against vectors/flow-field/FLOW-*.json ([CONF.FLOW.VECTOR]).

A thin client of ``onepath_py.flow_requests``, the code that answers the driver's ``run_flow``
op ([DRIVER.OP.RUN_FLOW]): each vector's ``request`` is run and the reply is compared with
``expected`` in the order of [CONF.FLOW.REPLY]: step by step, each field in order, then the final
field cell by cell (cost bits, then step), the path probes and the state bytes.  Prints the first
difference of each vector that differs (vector id, step and field, or cell), then the counts;
exit status 1 on any difference.  The kit's ``certify --port`` runs the same vectors through the
driver; this script needs no Rust.

Usage: python3 -B check_flow_vectors.py [VECTOR_DIR]
"""

import glob
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from onepath_py import flow_requests  # noqa: E402
from onepath_py import vector_file  # noqa: E402

STRICT_CASE = ["request", "expected"]
STEP_FIELDS = ["error", "returned", "status", "repairing", "usable", "settled", "pending",
               "field_sha256", "state_sha256"]
PROBE_FIELDS = ["from", "path", "error"]


def first_difference(exp, got):
    """[CONF.FLOW.REPLY] The first differing step and field, cell, probe or state byte, or None."""
    if "failed" in exp or "failed" in got:
        if exp.get("failed") != got.get("failed"):
            return "failed: expected %r, found %r" % (exp.get("failed"), got.get("failed"))
        return None
    e, g = exp["ran"], got["ran"]
    es, gs = e["steps"], g["steps"]
    for i in range(min(len(es), len(gs))):
        if sorted(gs[i]) != sorted(STEP_FIELDS):
            return "step %d: members %r" % (i, sorted(gs[i]))
        for f in STEP_FIELDS:
            if es[i][f] != gs[i][f]:
                return "step %d: %s: expected %r, found %r" % (i, f, es[i][f], gs[i][f])
    if len(es) != len(gs):
        return "steps: expected %d, found %d" % (len(es), len(gs))
    for i in range(min(len(e["costs"]), len(g["costs"]))):
        if e["costs"][i] != g["costs"][i]:
            return "cell %d: cost: expected %s, found %s" % (i, e["costs"][i], g["costs"][i])
        if e["next"][i] != g["next"][i]:
            return "cell %d: next: expected %r, found %r" % (i, e["next"][i], g["next"][i])
    if len(e["costs"]) != len(g["costs"]) or len(e["next"]) != len(g["next"]):
        return "cells: expected %d, found %d" % (len(e["costs"]), len(g["costs"]))
    for i in range(min(len(e["paths"]), len(g["paths"]))):
        for f in PROBE_FIELDS:
            if e["paths"][i][f] != g["paths"][i][f]:
                return "probe %d %r: %s: expected %r, found %r" % (
                    i, e["paths"][i]["from"], f, e["paths"][i][f], g["paths"][i][f])
    if len(e["paths"]) != len(g["paths"]):
        return "probes: expected %d, found %d" % (len(e["paths"]), len(g["paths"]))
    a, b = e["state"], g["state"]
    if a != b:
        if len(a) != len(b):
            return "state length: expected %d bytes, found %d" % (len(a) // 2, len(b) // 2)
        i = next(k for k in range(0, len(a), 2) if a[k:k + 2] != b[k:k + 2])
        return "state byte %d: expected %s, found %s" % (i // 2, a[i:i + 2], b[i:i + 2])
    return None


def main(argv):
    vdir = argv[1] if len(argv) > 1 else os.path.join(HERE, "..", "..", "..", "vectors", "flow-field")
    files = sorted(glob.glob(os.path.join(vdir, "FLOW-*.json")))
    if not files:
        print("no vectors found in %s" % vdir)
        return 1
    passed = 0
    t0 = time.time()
    for path in files:
        try:
            d = vector_file.single(path, "flow-field")
        except vector_file.VectorFileError as e:
            print(e)
            return 1
        if sorted(k for k in d if k != "id") != sorted(STRICT_CASE):
            print("%s: not a flow-field vector case (members %r)" % (path, list(d.keys())))
            return 1
        try:
            got = flow_requests.run_flow(d["request"])
            diff = first_difference(d["expected"], got)
        except Exception as e:  # a port bug: name it, go on
            diff = "exception %s: %s" % (type(e).__name__, e)
        if diff is None:
            passed += 1
        else:
            print("%s: %s" % (d["id"], diff))
    print("%d of %d flow-field vectors match (%.2f s)" % (passed, len(files), time.time() - t0))
    return 0 if passed == len(files) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
