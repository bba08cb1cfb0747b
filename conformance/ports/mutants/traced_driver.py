#!/usr/bin/env python3
"""Run a port's driver under a line tracer: ``python3 traced_driver.py PATH/driver.py [ARGS...]``.

[CONF.PMUT.COVERAGE] the tracer half of ``port_mutants.py coverage``.

Installs ``sys.settrace`` (and ``threading.settrace``) for 'line' events of the code in files
under the driver's folder, runs the driver as ``__main__`` (``runpy``) with the driver's folder
as ``sys.path[0]``, exactly as ``python3 PATH/driver.py`` would, and when the process ends —
normal exit, ``sys.exit``, an exception, ``atexit``, SIGTERM or SIGINT — writes the executed
``(file, line)`` set to a new file ``cov-<pid>-<random>.json`` in the directory named by
``ONEPATH_PORT_COVERAGE_DIR`` (schema ``onepath.port-coverage-data`` version 1, written to a
temporary name and renamed, so a reader never sees half a file).  A process killed with SIGKILL
writes nothing.  ``port_mutants.py coverage`` unions the files of every driver process of a run.

A code object stops being traced once every line of it has been seen (new frames of it are not
traced, running frames stop at their next event), so the overhead falls as the run goes on.  Every
event of a traced frame counts its current line ('call', 'return' and 'exception' events fall on
lines that ran).
"""

import atexit
import json
import os
import runpy
import signal
import sys
import threading

ENV = "ONEPATH_PORT_COVERAGE_DIR"


def main():
    if len(sys.argv) < 2:
        sys.stderr.write("usage: traced_driver.py PATH/driver.py [ARGS...]\n")
        return 2
    out_dir = os.environ.get(ENV)
    if not out_dir or not os.path.isdir(out_dir):
        sys.stderr.write("traced_driver.py: %s must name an existing directory\n" % ENV)
        return 2
    driver = os.path.realpath(sys.argv[1])
    root = os.path.dirname(driver) + os.sep
    hits = {}       # file name -> set of lines seen
    pending = {}    # code object -> set of its lines not seen yet
    ours = {}       # file name -> under root?
    tracers = {}    # code object -> its local trace function
    written = []

    def global_trace(frame, event, arg):
        code = frame.f_code
        rem = pending.get(code)
        if rem is None:
            fn = code.co_filename
            mine = ours.get(fn)
            if mine is None:
                mine = ours[fn] = os.path.realpath(fn).startswith(root)
            if not mine:
                return None
            rem = pending[code] = {ln for _, _, ln in code.co_lines() if ln is not None and ln > 0}
        if not rem:
            return None
        tracer = tracers.get(code)
        if tracer is None:
            tracer = tracers[code] = make_local(rem, hits.setdefault(code.co_filename, set()))
        return tracer

    def make_local(rem, seen):
        def local_trace(frame, event, arg):
            ln = frame.f_lineno
            if ln in rem:
                rem.discard(ln)
                seen.add(ln)
            elif not rem:
                return None  # every line of this code seen: stop tracing the frame
            return local_trace
        return local_trace

    def write():
        if written:
            return
        written.append(True)
        sys.settrace(None)
        threading.settrace(None)
        files = {}
        for fn, lines in hits.items():
            files.setdefault(os.path.realpath(fn), set()).update(lines)
        data = {"schema": "onepath.port-coverage-data", "version": 1, "driver": driver,
                "pid": os.getpid(),
                "files": [{"path": p, "lines": sorted(ls)} for p, ls in sorted(files.items())]}
        name = os.path.join(out_dir, "cov-%d-%s.json" % (os.getpid(), os.urandom(4).hex()))
        try:
            with open(name + ".tmp", "w", encoding="utf-8") as f:
                json.dump(data, f, separators=(",", ":"))
            os.replace(name + ".tmp", name)
        except OSError as e:
            sys.stderr.write("traced_driver.py: cannot write %s: %s\n" % (name, e))

    def on_signal(signum, frame):
        write()
        os._exit(128 + signum)

    atexit.register(write)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sys.argv = [driver] + sys.argv[2:]
    sys.path[0] = os.path.dirname(driver)
    threading.settrace(global_trace)
    sys.settrace(global_trace)
    try:
        runpy.run_path(driver, run_name="__main__")
    finally:
        write()
    return 0


if __name__ == "__main__":
    sys.exit(main())
