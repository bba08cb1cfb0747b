#!/usr/bin/env python3
"""Test helper ([DRIVER.LEVEL.FIRST], [DRIVER.REPORT.JUNIT]): runs the Python driver (its folder is
argv[1]) but alters one member of the `ok` replies of one op, so the kit's report must name that
member as the first divergence.

ALTER_OP        the ops whose replies are altered, comma-separated (`run_lattice,describe`).
ALTER_PATH      the member, `/`-separated (`ran/0/path/status`, `after`); several, `;`-separated.
ALTER_HOW       `inc` (add 1 to an integer) or `flip:N[:MASK]` (xor MASK, default 0xff, into byte
                N of a hex string); one per ALTER_PATH, `;`-separated.
ALTER_VECTOR    optional: a vector file; only the request equal to its `cases[0].request` is
                altered (one named vector fails, every other passes).
A reply that has no such member is left as it is.
"""
import json
import os
import sys

sys.path.insert(0, sys.argv[1])
import driver  # noqa: E402

ops = os.environ["ALTER_OP"].split(",")
changes = list(zip(os.environ["ALTER_PATH"].split(";"), os.environ["ALTER_HOW"].split(";")))
only = None
if os.environ.get("ALTER_VECTOR"):
    with open(os.environ["ALTER_VECTOR"]) as f:
        only = json.load(f)["cases"][0]["request"]


def alter(result, path, how):
    path = path.split("/")
    node = result
    for key in path[:-1]:
        key = int(key) if isinstance(node, list) else key
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return
    last = int(path[-1]) if isinstance(node, list) else path[-1]
    try:
        value = node[last]
    except (KeyError, IndexError, TypeError):
        return
    if how == "inc" and isinstance(value, int) and not isinstance(value, bool):
        node[last] = value + 1
    elif how.startswith("flip:") and isinstance(value, str):
        parts = how.split(":")
        at = int(parts[1])
        mask = int(parts[2], 0) if len(parts) > 2 else 0xFF
        b = bytearray.fromhex(value)
        if at < len(b):
            b[at] ^= mask
            node[last] = b.hex()


def wrap(real):
    def wrapped(args):
        result = real(args)
        if result is not None and (only is None or args == only):
            for path, how in changes:
                alter(result, path, how)
        return result
    return wrapped


for op in ops:
    driver.OPS[op] = wrap(driver.OPS[op])
sys.exit(driver.main())
