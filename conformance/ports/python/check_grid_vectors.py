#!/usr/bin/env python3
"""Check the Python grid-search port against vectors/grids/GRID-*.json ([CONF.GRID.VECTOR]).

A thin client of ``onepath_py.grid_requests``, the code that answers the driver's ``run_grid``
op ([DRIVER.OP.RUN_GRID]): each run of each vector becomes one request, and the reply is
compared field by field with ``expected``, then by ``reply_sha256`` ([CONF.GRID.ENCODING]).
Prints one line per mismatch, then the counts; exit status 1 on any mismatch.  The kit's
``certify --port`` runs the same vectors through the driver; this script needs no Rust.

Usage: python3 check_grid_vectors.py [VECTOR_DIR]
"""

import glob
import hashlib
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from onepath_py import grid_requests  # noqa: E402
from onepath_py import vector_file  # noqa: E402

STRICT_CASE = ["map", "queries", "runs"]


def encode_reply(r):
    """[CONF.GRID.ENCODING] of a run_grid reply payload."""
    if "failure" in r:
        return b"\xff" + r["failure"].encode("utf-8")
    out = bytearray(struct.pack("<BBBBQ", r["status"], r["mode"], r["finder"], r["algorithm"],
                                int(r["cost_bits"], 16)))
    out += struct.pack("<I", len(r["path"])) + b"".join(struct.pack("<I", c) for c in r["path"])
    out += struct.pack("<I", len(r["points"]))
    for x, y in r["points"]:
        out += struct.pack("<QQ", int(x, 16), int(y, 16))
    out += struct.pack("<I", len(r["expansions"]))
    out += b"".join(struct.pack("<I", c) for c in r["expansions"])
    state = bytes.fromhex(r["state"])
    out += struct.pack("<QQ", r["iterations"], r["expanded"]) + struct.pack("<I", len(state)) + state
    return bytes(out)


def first_difference(exp, got):
    error = got.get("failure")
    if exp["error"] != error:
        return "error: expected %r, found %r" % (exp["error"], error)
    if error is None:
        for f in ("status", "mode", "finder", "algorithm", "cost_bits"):
            if exp[f] != got[f]:
                return "%s: expected %r, found %r" % (f, exp[f], got[f])
        for f, what in (("path", "path cell"), ("expansions", "expansion entry")):
            a, b = exp[f], got[f]
            for i in range(min(len(a), len(b))):
                if a[i] != b[i]:
                    return "%s %d: expected cell %d, found cell %d" % (what, i, a[i], b[i])
            if len(a) != len(b):
                return "%s length: expected %d, found %d" % (f, len(a), len(b))
        for f in ("iterations", "expanded"):
            if exp[f] != got[f]:
                return "%s: expected %r, found %r" % (f, exp[f], got[f])
    h = hashlib.sha256(encode_reply(got)).hexdigest()
    if h != exp["reply_sha256"]:
        return "reply_sha256: expected %s, found %s" % (exp["reply_sha256"], h)
    return None


def main(argv):
    vdir = argv[1] if len(argv) > 1 else os.path.join(HERE, "..", "..", "..", "vectors", "grids")
    files = sorted(glob.glob(os.path.join(vdir, "GRID-*.json")))
    if not files:
        print("no vectors found in %s" % vdir)
        return 1
    counts = {"tier1": [0, 0], "tier2": [0, 0]}
    for path in files:
        try:
            d = vector_file.single(path, "grid-search")
        except vector_file.VectorFileError as e:
            print(e)
            return 1
        if sorted(k for k in d if k != "id") != sorted(STRICT_CASE):
            print("%s: not a grid vector case (members %r)" % (path, list(d.keys())))
            return 1
        for idx, run in enumerate(d["runs"]):
            sx, sy, gx, gy = d["queries"][run["query"]]
            request = {"map": d["map"], "options": run["options"], "api": run["api"],
                       "start": [sx, sy], "goal": [gx, gy], "schedule": [], "snapshot_after": None}
            diff = first_difference(run["expected"], grid_requests.run_grid(request))
            c = counts["tier1" if run["api"] == "tier1" else "tier2"]
            c[0] += 1
            if diff is None:
                c[1] += 1
            else:
                print("%s run %d %s: %s" % (d["id"], idx, run["api"], diff))
    t1, t2 = counts["tier1"], counts["tier2"]
    print("%d of %d runs match" % (t1[1], t1[0]))
    print("tier-2 runs (handle, astar, jump, theta): %d of %d match" % (t2[1], t2[0]))
    return 0 if t1[0] == t1[1] and t2[0] == t2[1] else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
