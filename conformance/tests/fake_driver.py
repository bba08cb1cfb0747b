#!/usr/bin/env python3
"""A misbehaving driver for the kit's own tests ([DRIVER.PROC.FAILURES]).

It answers like ports/python/driver.py, except: FAKE_MODE=chaos crashes on request id 40,
hangs on request id 80 and prints garbage for request id 120 (ids are the harness's, global
across restarts); FAKE_MODE=unimplemented answers `unimplemented` for run_sliced; FAKE_MODE=garbage_hello
sends a bad handshake; FAKE_MODE=v1_hello answers the handshake as a protocol-1 driver would;
FAKE_MODE=state_error answers `error` for every `state_run` restore of bytes
into a `graph` (kind 4) recipe, so the golden Graph state vectors are never fully answered;
FAKE_MODE=from_state_<field> answers every `from_state` like the Python port but with one field
out of the shape of [CONF.IMPL.FROM_STATE]: `before` holding the given bytes, `restore` null,
`after` empty, `cells` holding one call or `search` holding a summary.
"""
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "ports", "python"))
import driver  # noqa: E402

mode = os.environ.get("FAKE_MODE", "chaos")
hello = sys.stdin.readline()
if mode == "garbage_hello":
    sys.stdout.write("hello there\n")
    sys.stdout.flush()
    sys.exit(0)
if mode == "v1_hello":
    driver.send({"protocol": "onepath-driver", "version": 1, "port": "fake", "port_version": "0",
                 "spec_version": "1.1.0", "claims": {"graph": 4}})
    sys.exit(0)
driver.send({"protocol": "onepath-driver", "version": driver.PROTOCOL_VERSION, "port": "fake", "port_version": "0",
             "spec_version": "1.1.0", "claims": {"graph": 4}})
served = 0
for line in sys.stdin:
    req = json.loads(line)
    served += 1
    if mode == "chaos" and req["id"] == 40:
        sys.stderr.write("fake driver: crashing on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    if mode == "chaos" and req["id"] == 80:
        time.sleep(30)
    if mode == "chaos" and req["id"] == 120:
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
        continue
    if mode == "unimplemented" and req["op"] == "run_sliced":
        driver.send({"id": req["id"], "unimplemented": True})
        continue
    if mode == "state_error" and req["op"] == "state_run":
        a = req["args"]
        if a.get("request") == "restore" and a.get("bytes") is not None and a["recipe"].get("kind") == "graph":
            driver.send({"id": req["id"], "error": "fake driver: graph state restore fails on purpose"})
            continue
    if mode.startswith("from_state_") and req["op"] == "state_run" and req["args"]["request"] == "from_state":
        reply = driver.OPS["state_run"](req["args"])
        field = mode[len("from_state_"):]
        reply[field] = {"before": req["args"]["bytes"], "restore": None, "after": "", "cells": [[0, 0, 1]],
                        "search": {"status": 0, "iterations": 0, "expanded": 0, "cost_bits": "7ff0000000000000",
                                   "path": [], "expansions": []}}[field]
        driver.send({"id": req["id"], "ok": reply})
        continue
    fn = driver.OPS.get(req["op"])
    result = fn(req["args"]) if fn else None
    if result is None:
        driver.send({"id": req["id"], "unimplemented": True})
    else:
        driver.send({"id": req["id"], "ok": result})
