#!/usr/bin/env python3
"""Test helper ([DRIVER.OP.STATE], [CONF.STATE.KIND_MISSING]): runs the Python driver (its folder
is argv[1]) as a port that has only some state kinds. LACK_KINDS lists recipe kinds
(`graph,graph_astar`) whose `state_run` restore requests, and LACK_CODES state kind codes
(`4,11`) whose `from_state` requests, are answered `unimplemented`; ONLY_OPS, when set, lists
the only ops answered at all (every other op is `unimplemented`).
"""
import os
import sys

sys.path.insert(0, sys.argv[1])
import driver  # noqa: E402

lack_kinds = set(filter(None, os.environ.get("LACK_KINDS", "").split(",")))
lack_codes = {int(c) for c in filter(None, os.environ.get("LACK_CODES", "").split(","))}
only_ops = set(filter(None, os.environ.get("ONLY_OPS", "").split(",")))
real_state_run = driver.OPS["state_run"]


def state_run(args):
    if args.get("request") == "restore" and args["recipe"]["kind"] in lack_kinds:
        return None
    if args.get("request") == "from_state" and args.get("kind") in lack_codes:
        return None
    return real_state_run(args)


driver.OPS["state_run"] = state_run
if only_ops:
    for op in list(driver.OPS):
        if op not in only_ops:
            del driver.OPS[op]
sys.exit(driver.main())
