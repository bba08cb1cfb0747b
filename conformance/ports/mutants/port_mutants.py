#!/usr/bin/env python3
"""The port-mutation judge: mutate the Python port one change at a time and ask the kit.

A mutant of the port that ``onepath-conformance certify --port`` still certifies (exit 0) is a
behaviour of the port that no vector, check or level pins.  Stdlib only (Python 3.11).

    port_mutants.py list [--port DIR] [--json]
    port_mutants.py families [--port DIR]
    port_mutants.py coverage [--kit BIN] [--port DIR] [--json OUT] [certify flags...]
    port_mutants.py run [--kit BIN] [--port DIR] [--seed N] [--sample N] [--shard k/n] [--jobs J]
                        [--coverage COV.json] [--confirm] [--port-cases N] [--timeout S]
                        [--mutant-timeout S] [--ledger FILE] [--json OUT] [--files GLOB...]
                        [--operators OP...] [--ids ID...]
    port_mutants.py merge A.json B.json ... [--ledger FILE] [--json OUT]

Exit status: 0 (no unexplained survivor, no error), 1 (an unexplained survivor, a mutant the
judge could not judge, a ledger contradiction; for ``coverage`` a certify run that did not pass;
for ``families`` a table that disagrees with the imports), 2 (bad input: a one-line message).
The rules are the clauses ``CONF.PMUT.*`` of spec/clauses.md ([CONF.PMUT.JUDGE],
[CONF.PMUT.VERDICT]); README.md in this folder shows the commands.
"""

import argparse
import ast
import atexit
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sites as S  # noqa: E402
import strict as J  # noqa: E402

REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DEFAULT_PORT = os.path.join(REPO, "conformance", "ports", "python")
DEFAULT_KIT = os.path.join(REPO, "target", "release", "onepath-conformance")
TRACER = os.path.join(HERE, "traced_driver.py")
COVERAGE_ENV = "ONEPATH_PORT_COVERAGE_DIR"
CLEARED_ENV = ("ONEPATH_PY_DEFECT", "ONEPATH_PY_CLAIMS", COVERAGE_ENV)

FAMILIES = ("graph", "grids", "grid-search", "replanning", "flow-field", "hex-search",
            "voxel-search", "hpa", "grid-bidi")
CONFIRM_PORT_CASES = 200
OUTCOMES = ("caught", "timeout", "survived", "survived_explained", "unviable", "not_executed",
            "error")
LEVELS = ("L0", "L1", "L2", "L3", "L4")

# ------------------------------------------------------------------ the family table
#
# [CONF.PMUT.FAMILIES]
# Where each claim family's requests enter the port (spec/driver.md [DRIVER.PY.DRIVER],
# [DRIVER.LEVEL.FAMILY]): graph ops through the package (state kinds 4 and 11 too); grids: the
# grid, hex-grid and voxel-grid state kinds 1-3 and synctest ([DRIVER.OP.SYNCTEST]); grid-search:
# run_grid and kinds 8, 9, 10, 12; replanning: run_replan and kinds 5, 6; flow-field: run_flow
# and kind 7; hex-search / voxel-search: run_lattice; hpa: run_hpa; grid-bidi: run_bidi.
ENTRIES = {
    "graph": ("onepath_py/__init__.py",),
    "grids": ("onepath_py/grid_state.py", "onepath_py/grid_search.py", "onepath_py/hex_grid.py",
              "onepath_py/voxel_grid.py", "onepath_py/synctest.py"),
    "grid-search": ("onepath_py/grid_requests.py", "onepath_py/grid_search_restore.py",
                    "onepath_py/grid_search_state.py"),
    "replanning": ("onepath_py/replan_requests.py", "onepath_py/replan_state.py"),
    "flow-field": ("onepath_py/flow_requests.py", "onepath_py/flow_state.py"),
    "hex-search": ("onepath_py/lattice_requests.py", "onepath_py/hex_search.py",
                   "onepath_py/hex_grid.py"),
    "voxel-search": ("onepath_py/lattice_requests.py", "onepath_py/voxel_search.py",
                     "onepath_py/voxel_grid.py"),
    "hpa": ("onepath_py/hpa_requests.py",),
    "grid-bidi": ("onepath_py/bidi_requests.py",),
}
# Dispatchers that serve requests of every family (the driver's op table, state_run of every
# kind, describe of every target and the descriptions themselves).
SHARED = ("driver.py", "onepath_py/state_requests.py", "onepath_py/describe_requests.py",
          "onepath_py/debug.py")

ALL = FAMILIES
G, GR, GS, RP, FF, HX, VX, HP, GB = FAMILIES
# FAMILY_TABLE[file]: the families whose requests can execute the file's code: SHARED files
# serve every family; any other file serves the families whose ENTRIES import it, directly or
# through other port modules (function-level imports included).  `port_mutants.py families`
# derives this from the imports and exits 1 when it differs; test_port_mutants.py checks it.
FAMILY_TABLE = {
    "driver.py": ALL,
    "onepath_py/__init__.py": (G,),
    "onepath_py/astar.py": ALL,
    "onepath_py/bidi_requests.py": (GB,),
    "onepath_py/bidirectional.py": ALL,
    "onepath_py/csr.py": ALL,
    "onepath_py/debug.py": ALL,
    "onepath_py/describe_requests.py": ALL,
    "onepath_py/errors.py": ALL,
    "onepath_py/flow_engine.py": (GR, FF),
    "onepath_py/flow_heap.py": (GR, FF),
    "onepath_py/flow_requests.py": (FF,),
    "onepath_py/flow_state.py": (GR, FF),
    "onepath_py/graph.py": (G, GR),
    "onepath_py/grid_bidi.py": (GB,),
    "onepath_py/grid_requests.py": (GR, GS, RP, FF, HX, VX, HP, GB),
    "onepath_py/grid_search.py": (GR, GS, RP, FF, HX, VX, HP, GB),
    "onepath_py/grid_search_engines.py": (GR, GS, RP, FF, HX, VX, HP, GB),
    "onepath_py/grid_search_restore.py": (GR, GS, RP, FF, HX, VX, HP, GB),
    "onepath_py/grid_search_special.py": (GR, GS, RP, FF, HX, VX, HP, GB),
    "onepath_py/grid_search_state.py": (GR, GS, RP, FF, HX, VX, HP, GB),
    "onepath_py/grid_state.py": (GR, GS, RP, FF, HX, VX, HP, GB),
    "onepath_py/hex_grid.py": (GR, RP, FF, HX, VX, HP, GB),
    "onepath_py/hex_search.py": (GR, RP, FF, HX, VX, HP, GB),
    "onepath_py/hpa.py": (HP,),
    "onepath_py/hpa_requests.py": (HP,),
    "onepath_py/hpa_search.py": (HP,),
    "onepath_py/landmarks.py": ALL,
    "onepath_py/lattice_astar.py": (GR, RP, FF, HX, VX, HP, GB),
    "onepath_py/lattice_requests.py": (HX, VX, HP, GB),
    "onepath_py/open_set.py": ALL,
    "onepath_py/options.py": ALL,
    "onepath_py/points.py": ALL,
    "onepath_py/random.py": ALL,
    "onepath_py/replan_engine.py": (GR, RP, FF),
    "onepath_py/replan_moves.py": (GR, RP, FF, HX, VX, HP, GB),
    "onepath_py/replan_queue.py": (GR, RP, FF),
    "onepath_py/replan_requests.py": (RP, FF),
    "onepath_py/replan_state.py": (GR, RP, FF),
    "onepath_py/state.py": ALL,
    "onepath_py/state_requests.py": ALL,
    "onepath_py/synctest.py": (GR,),
    "onepath_py/voxel_grid.py": (GR, GS, RP, FF, HX, VX, HP, GB),
    "onepath_py/voxel_search.py": (GR, RP, FF, HX, VX, HP, GB),
    "onepath_py/world.py": (GR,),
}


class InputError(Exception):
    """Bad input: exit 2 with this one-line message."""


class Interrupted(Exception):
    def __init__(self, status):
        Exception.__init__(self, "interrupted")
        self.status = status


# ------------------------------------------------------------------ the port's files


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8")
    except OSError as e:
        raise InputError("%s: cannot read: %s" % (path, e.strerror or e))
    except UnicodeDecodeError:
        raise InputError("%s: not UTF-8" % path)


def _module_file(name, known):
    """The port file of dotted module ``name`` (``onepath_py.x`` -> ``onepath_py/x.py``)."""
    if name == "onepath_py":
        rel = "onepath_py/__init__.py"
    else:
        rel = name.replace(".", "/") + ".py"
    return rel if rel in known else None


def imports_of(rel, tree, known):
    """The port files ``rel`` imports anywhere (module level or inside functions)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                f = _module_file(a.name, known)
                if f:
                    out.add(f)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = rel.split("/")[:-1]
                if node.level > 1:
                    parts = parts[:len(parts) - (node.level - 1)]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            names_only = True
            for a in node.names:
                f = _module_file(base + "." + a.name if base else a.name, known)
                if f:
                    out.add(f)
                else:
                    names_only = False
            # ``from . import x`` imports the submodule x; the package itself counts only when
            # a name is not a submodule (``from .m import name``, ``from onepath_py import Graph``)
            f = _module_file(base, known) if base and not names_only else None
            if f:
                out.add(f)
    out.discard(rel)
    return out


def import_graph(port_dir, candidates):
    known = set(candidates)
    graph = {}
    for rel in candidates:
        text = read_text(os.path.join(port_dir, rel))
        try:
            tree = ast.parse(text, filename=rel)
        except SyntaxError as e:
            raise InputError("%s: does not parse: %s" % (os.path.join(port_dir, rel), e))
        graph[rel] = imports_of(rel, tree, known)
    return graph


def closure(graph, roots):
    seen = set()
    stack = [r for r in roots if r in graph]
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        stack.extend(graph.get(f, ()))
    return seen


def candidate_files(port_dir):
    if not os.path.isfile(os.path.join(port_dir, "driver.py")):
        raise InputError("%s: no driver.py (--port names the port's folder)" % port_dir)
    pkg = os.path.join(port_dir, "onepath_py")
    if not os.path.isdir(pkg):
        raise InputError("%s: no onepath_py package" % port_dir)
    names = sorted(n for n in os.listdir(pkg)
                   if n.endswith(".py") and not n.startswith(("test_", "check_")))
    return ["driver.py"] + ["onepath_py/" + n for n in names]


def port_files(port_dir):
    """[CONF.PMUT.FILES] ``(files, excluded, graph)``: driver.py and the onepath_py modules it reaches by imports;
    ``excluded`` the other onepath_py modules with the reason.  Never defects.py, test_*.py,
    check_*.py (the kit's instruments and the port's own tests)."""
    cands = candidate_files(port_dir)
    graph = import_graph(port_dir, cands)
    reach = closure(graph, ["driver.py"])
    files = [f for f in cands if f in reach]
    excluded = [(f, "not imported by driver.py, directly or through other port modules")
                for f in cands if f not in reach]
    return files, excluded, graph


def derive_family_table(files, graph):
    """The family table from the imports: SHARED files serve every family, any other file the
    families whose ENTRIES reach it."""
    table = {f: set() for f in files}
    for fam in FAMILIES:
        for f in closure(graph, ENTRIES[fam]):
            if f in table:
                table[f].add(fam)
    for f in SHARED:
        if f in table:
            table[f] = set(FAMILIES)
    return {f: tuple(x for x in FAMILIES if x in fams) for f, fams in table.items()}


def families_or_none(families):
    """The ``--family`` list for ``families``, or None for every family."""
    fams = [f for f in FAMILIES if f in families]
    return None if len(fams) == len(FAMILIES) else fams


def families_of(rel):
    """The claim families whose requests can execute ``rel`` (every family when not listed)."""
    return tuple(FAMILY_TABLE.get(rel, FAMILIES))


def list_sites(port_dir, files):
    """Every mutation site of the port's files, ids assigned, in file order."""
    out = []
    for rel in files:
        try:
            src = S.Source(rel, read_text(os.path.join(port_dir, rel)))
        except S.SourceError as e:
            raise InputError(str(e))
        out.extend(S.assign_ids(S.enumerate_sites(src)))
    ids = {}
    for s in out:
        if s.id in ids:
            raise InputError("mutant id %s of %s collides with %s" % (s.id, s.describe(),
                                                                       ids[s.id].describe()))
        ids[s.id] = s
    return out


# ------------------------------------------------------------------ schemas

FD = J.Alt(J.NULL, J.Obj({"section": J.Alt(J.STR, J.NULL), "label": J.Alt(J.STR, J.NULL),
                          "what": J.Alt(J.STR, J.NULL), "expected": J.Alt(J.STR, J.NULL),
                          "found": J.Alt(J.STR, J.NULL)}))
FAMILY_RESULT = J.Obj({"family": J.Enum(*FAMILIES), "claimed": J.Alt(J.Enum(*LEVELS), J.NULL),
                       "reached": J.Enum(*LEVELS), "first_difference": FD})
STAGE = J.Obj({"stage": J.Enum("fast", "confirm"),
               "outcome": J.Enum("caught", "timeout", "survived", "error"),
               "seconds": J.NUM, "exit_code": J.Alt(J.INT, J.NULL),
               "family_filter": J.Alt(J.List(J.Enum(*FAMILIES)), J.NULL), "port_cases": J.INT})
LEDGER_NOTE = J.Alt(J.NULL, J.Obj({"status": J.Enum("equivalent", "open", "killed"), "reason": J.LINE,
                                   "killed_by": J.Alt(J.LINE, J.NULL)}))
MUTANT = J.Obj({
    "id": J.HEX12, "describe": J.LINE, "file": J.LINE, "line": J.INT, "col": J.INT,
    "end_line": J.INT, "end_col": J.INT, "operator": J.Enum(*S.OPERATORS), "original": J.STR,
    "replacement": J.STR, "function": J.LINE, "context": J.STR, "occurrence": J.INT,
    "claim_families": J.List(J.Enum(*FAMILIES)), "outcome": J.Enum(*OUTCOMES),
    "stage": J.Alt(J.Enum("fast", "confirm"), J.NULL), "seconds": J.NUM,
    "stages": J.List(STAGE), "exit_code": J.Alt(J.INT, J.NULL), "section": J.Alt(J.STR, J.NULL),
    "families": J.List(FAMILY_RESULT), "first_difference": FD,
    "stderr_tail": J.Alt(J.STR, J.NULL), "ledger": LEDGER_NOTE,
})
REPORT_SCHEMA = "onepath.port-mutants"
REPORT = J.Obj({
    "schema": J.Const(REPORT_SCHEMA), "version": J.Const(1), "kit": J.STR, "port_dir": J.STR,
    "seed": J.INT, "sample": J.Alt(J.INT, J.NULL),
    "shard": J.Obj({"index": J.INT, "count": J.INT}), "merged_shards": J.Alt(J.INT, J.NULL),
    "selection_total": J.INT, "selection_sha256": J.STR, "port_cases": J.INT,
    "timeout_seconds": J.NUM, "mutant_timeout_seconds": J.NUM, "confirm": J.BOOL,
    "files": J.Alt(J.List(J.STR), J.NULL), "operators": J.Alt(J.List(J.Enum(*S.OPERATORS)), J.NULL),
    "ids": J.Alt(J.List(J.HEX12), J.NULL),
    "coverage": J.Alt(J.STR, J.NULL), "ledger": J.Alt(J.STR, J.NULL), "baseline_seconds": J.NUM,
    "ledger_problems": J.List(J.LINE), "mutants": J.List(MUTANT),
})
COVERAGE_SCHEMA = "onepath.port-coverage"
COVERAGE = J.Obj({
    "schema": J.Const(COVERAGE_SCHEMA), "version": J.Const(1), "kit": J.STR, "port_dir": J.STR,
    "certify": J.Obj({"args": J.List(J.STR), "exit_code": J.Alt(J.INT, J.NULL),
                      "verdict": J.Enum("PASS", "FAIL", "ERROR"), "seconds": J.NUM}),
    "driver_starts": J.Alt(J.INT, J.NULL), "driver_processes": J.INT,
    "files": J.List(J.Obj({"file": J.LINE, "sha256": J.STR, "executable": J.INT,
                           "executed": J.INT, "percent": J.NUM, "missed": J.List(J.List(J.INT))})),
    "total": J.Obj({"executable": J.INT, "executed": J.INT, "percent": J.NUM}),
})
DATA_SCHEMA = "onepath.port-coverage-data"
DATA = J.Obj({"schema": J.Const(DATA_SCHEMA), "version": J.Const(1), "driver": J.STR,
              "pid": J.INT, "files": J.List(J.Obj({"path": J.STR, "lines": J.List(J.INT)}))})
LEDGER_SCHEMA = "onepath.mutants-ledger"
LEDGER = J.Obj({"schema": J.Const(LEDGER_SCHEMA), "version": J.Const(1), "entries": J.List(J.Obj({
    "package": J.Enum("onepath_py", "onepath-reference", "onepath"), "mutant": J.LINE,
    "describe": J.LINE, "status": J.Enum("equivalent", "open", "killed"), "reason": J.LINE,
    "killed_by": J.Alt(J.LINE, J.NULL)}))})


def read_strict(path, schema_name, schema):
    try:
        return J.read(path, schema_name, 1, schema)
    except J.StrictError as e:
        raise InputError(str(e))


def read_ledger(path):
    """[CONF.PMUT.LEDGER] [CONF.PMUT.STRICT] ``{mutant id: entry}`` of the onepath_py entries of a ledger file (strict)."""
    d = read_strict(path, LEDGER_SCHEMA, LEDGER)
    out = {}
    seen = set()
    for i, e in enumerate(d["entries"]):
        where = "%s: entries[%d]" % (path, i)
        key = (e["package"], e["mutant"])
        if key in seen:
            raise InputError("%s.mutant: %s %s is listed twice" % (where, e["package"], e["mutant"]))
        seen.add(key)
        if e["package"] == "onepath_py" and not re.fullmatch("[0-9a-f]{12}", e["mutant"]):
            raise InputError("%s.mutant: an onepath_py mutant id is 12 lowercase hex digits, found %s"
                             % (where, json.dumps(e["mutant"])))
        if e["status"] in ("equivalent", "open") and e["killed_by"] is not None:
            raise InputError("%s.killed_by: must be null for an %s mutant" % (where, e["status"]))
        if e["status"] == "killed" and e["killed_by"] is None:
            raise InputError("%s.killed_by: a killed mutant names the vector or check that kills it"
                             % where)
        if e["status"] in ("equivalent", "open") and e["reason"].strip().rstrip(".").lower() in (
                "dead code", "unreachable", "equivalent"):
            raise InputError("%s.reason: %s is not a reason a reviewer can check"
                             % (where, json.dumps(e["reason"])))
        if e["package"] == "onepath_py":
            out[e["mutant"]] = e
    return out


def read_report(path):
    d = read_strict(path, REPORT_SCHEMA, REPORT)
    ids = set()
    for i, m in enumerate(d["mutants"]):
        if m["id"] in ids:
            raise InputError("%s: mutants[%d].id: %s is listed twice" % (path, i, m["id"]))
        ids.add(m["id"])
    sh = d["shard"]
    if not 1 <= sh["index"] <= sh["count"]:
        raise InputError("%s: shard: index %d of %d" % (path, sh["index"], sh["count"]))
    return d


def read_coverage(path, port_dir, files):
    """[CONF.PMUT.COVERAGE] ``{file: set of never-executed executable lines}`` from a coverage report that was
    measured on exactly these files (sha256) and on a passing run."""
    d = read_strict(path, COVERAGE_SCHEMA, COVERAGE)
    if d["certify"]["verdict"] != "PASS":
        raise InputError("%s: certify.verdict: the coverage was measured on a run that did not pass "
                         "(%s)" % (path, d["certify"]["verdict"]))
    if d["driver_starts"] != d["driver_processes"]:
        raise InputError("%s: driver_processes: %d of %s driver processes wrote their lines; the "
                         "coverage is incomplete" % (path, d["driver_processes"], d["driver_starts"]))
    by_file = {}
    for i, f in enumerate(d["files"]):
        where = "%s: files[%d]" % (path, i)
        if f["file"] in by_file:
            raise InputError("%s.file: %s is listed twice" % (where, f["file"]))
        prev = 0
        for j, r in enumerate(f["missed"]):
            if len(r) != 2 or r[0] > r[1] or r[0] <= prev:
                raise InputError("%s.missed[%d]: expected an ascending range [first, last]" % (where, j))
            prev = r[1]
        by_file[f["file"]] = f
    out = {}
    for rel in files:
        if rel not in by_file:
            raise InputError("%s: files: no entry for %s; rerun coverage" % (path, rel))
        text = read_text(os.path.join(port_dir, rel))
        if sha256_text(text) != by_file[rel]["sha256"]:
            raise InputError("%s: files: %s changed since the coverage was measured (sha256); rerun "
                             "coverage" % (path, rel))
        exe = executable_lines(text, rel)
        missed = set()
        for a, b in by_file[rel]["missed"]:
            missed.update(range(a, b + 1))
        out[rel] = (exe, missed & exe)
    return out


def sha256_text(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ------------------------------------------------------------------ coverage


def _docstring_and_skipped_lines(tree, src_lines):
    """Lines of docstrings, of the ``__main__`` block and of ``# pragma: no mutate`` statements."""
    out = set()

    def span(node):
        out.update(range(node.lineno, node.end_lineno + 1))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                and body and S._is_docstring(body[0]):
            span(body[0])
        if isinstance(node, ast.stmt) and (S._is_main_block(node)
                                           or S.PRAGMA in src_lines[node.lineno - 1]):
            span(node)
    return out


_EXE_CACHE = {}


def executable_lines(text, rel):
    """[CONF.PMUT.COVERAGE] Lines with bytecode (``co_lines()`` of every code object, recursively) minus docstrings,
    the ``__main__`` block and ``# pragma: no mutate`` statements."""
    key = (rel, sha256_text(text))
    if key in _EXE_CACHE:
        return _EXE_CACHE[key]
    try:
        code = compile(text, rel, "exec", dont_inherit=True)
        tree = ast.parse(text, filename=rel)
    except (SyntaxError, ValueError) as e:
        raise InputError("%s: does not compile: %s" % (rel, e))
    lines = set()
    stack = [code]
    while stack:
        c = stack.pop()
        lines.update(ln for _, _, ln in c.co_lines() if ln is not None and ln > 0)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    lines -= _docstring_and_skipped_lines(tree, text.split("\n"))
    _EXE_CACHE[key] = lines
    return lines


def line_ranges(missed, executable):
    """``missed`` as ascending ``[first, last]`` ranges; a range runs over lines that are not
    executable (blank lines, comments, ``else:``) but never over an executed line."""
    out = []
    for ln in sorted(missed):
        if out and all(x not in executable or x in missed for x in range(out[-1][1] + 1, ln)):
            out[-1][1] = ln
        else:
            out.append([ln, ln])
    return out


def ranges_text(ranges):
    return ", ".join(str(a) if a == b else "%d-%d" % (a, b) for a, b in ranges)


def percent(part, whole):
    return round(100.0 * part / whole, 1) if whole else 100.0


# ------------------------------------------------------------------ the kit


class Kit(object):
    def __init__(self, path):
        path = os.path.abspath(path)
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            raise InputError("kit %s not found or not executable (build it: cargo build --release "
                             "-p onepath-conformance, or name it with --kit)" % path)
        # a snapshot of the binary: a rebuild during a long run must not change the judge
        self.source = path
        self.dir = tempfile.mkdtemp(prefix="onepath-kit-")
        atexit.register(shutil.rmtree, self.dir, True)
        self.path = os.path.join(self.dir, os.path.basename(path))
        try:
            shutil.copy2(path, self.path)
        except OSError as e:
            raise InputError("kit %s: cannot copy: %s" % (path, e.strerror or e))
        try:
            v = subprocess.run([self.path, "--version"], capture_output=True, text=True,
                               timeout=60, cwd=REPO)
            h = subprocess.run([self.path, "certify", "--help"], capture_output=True, text=True,
                               timeout=60, cwd=REPO)
        except (OSError, subprocess.TimeoutExpired) as e:
            raise InputError("kit %s does not run: %s" % (path, e))
        if v.returncode != 0 or h.returncode != 0:
            raise InputError("kit %s: --version / certify --help failed (exit %s / %s)"
                             % (path, v.returncode, h.returncode))
        self.version = v.stdout.strip()
        self.has_family = "--family" in h.stdout
        self.has_heartbeat = "--heartbeat" in h.stdout

    def certify(self, driver_cmd, port_cases, timeout, families):
        """The argv of one mutant's (or the baseline's) certify run."""
        args = [self.path, "certify", "--port", driver_cmd, "--json", "--port-cases",
                str(port_cases), "--timeout", fmt_num(timeout), "--threads", "1"]
        if self.has_heartbeat:
            args += ["--heartbeat", "0"]
        if families is not None and self.has_family:
            args += ["--family", ",".join(families)]
        return args


def fmt_num(x):
    return str(int(x)) if float(x).is_integer() else repr(float(x))


def child_env():
    env = dict(os.environ)
    for k in CLEARED_ENV:
        env.pop(k, None)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


_LIVE = {}
_LIVE_LOCK = threading.Lock()


def _kill_group(pid, sig):
    try:
        os.killpg(pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _kill_strays(tag):
    """Kill the processes (drivers of a mutant's copy) whose command line names ``tag``."""
    if not tag:
        return
    me = os.getpid()
    for name in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmd = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        if tag in cmd:
            try:
                os.kill(int(name), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


def run_limited(args, wall, env, tag=None, stderr_to=None):
    """Run ``args`` in its own process group; ``(exit code, stdout, stderr, seconds, timed out)``.
    On the wall limit the group gets SIGTERM (the kit then kills its drivers' groups), after 5 s
    SIGKILL, and any process still naming ``tag`` SIGKILL."""
    start = time.monotonic()
    try:
        p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=stderr_to if stderr_to is not None else subprocess.PIPE,
                             env=env, start_new_session=True, cwd=REPO)
    except OSError as e:
        raise InputError("cannot run %s: %s" % (args[0], e))
    with _LIVE_LOCK:
        _LIVE[p.pid] = tag
    timed_out = False
    try:
        try:
            out, err = p.communicate(timeout=wall)
        except subprocess.TimeoutExpired:
            timed_out = True
            _kill_group(p.pid, signal.SIGTERM)
            try:
                out, err = p.communicate(timeout=5)
            except subprocess.TimeoutExpired:
                _kill_group(p.pid, signal.SIGKILL)
                out, err = p.communicate()
            _kill_strays(tag)
    finally:
        with _LIVE_LOCK:
            _LIVE.pop(p.pid, None)
    return p.returncode, out or b"", err or b"", time.monotonic() - start, timed_out


def kill_live():
    with _LIVE_LOCK:
        live = dict(_LIVE)
    for pid in live:
        _kill_group(pid, signal.SIGTERM)
    time.sleep(1.0)
    for pid, tag in live.items():
        _kill_group(pid, signal.SIGKILL)
        _kill_strays(tag)


def tail(data, lines=12, limit=1500):
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    t = "\n".join(text.rstrip().split("\n")[-lines:])
    return t[-limit:]


def parse_certify(out):
    """[CONF.PMUT.OUTCOMES] ``(section, families, first_difference)`` from a certify --json report; ValueError when
    it is not one."""
    d = json.loads(out.decode("utf-8"))
    if not isinstance(d, dict) or d.get("schema") != "onepath.certify-report":
        raise ValueError("not an onepath.certify-report")
    section = None
    for s in d["sections"]:
        if s["failed"] > 0:
            section = s["name"]
            break
    fams = []
    port = d.get("port")
    for f in (port or {}).get("families", []):
        fd = f["first_difference"]
        if fd is None and f["reached"] == f["claimed"]:
            continue
        fams.append({"family": f["family"], "claimed": f["claimed"], "reached": f["reached"],
                     "first_difference": None if fd is None else
                     {k: _text(fd.get(k)) for k in ("section", "label", "what", "expected", "found")}})
    first = None
    for f in sorted((f for f in fams if f["first_difference"] is not None),
                    key=lambda f: f["reached"]):
        first = f["first_difference"]
        break
    if first is None and section is not None:
        # no compared difference (every request of the family failed, say): the first failure
        # of the first failing section, the port's own before the reference's
        s = [s for s in d["sections"] if s["name"] == section][0]
        fails = sorted(s["failures"], key=lambda x: x.get("implementation") != "onepath_py")
        if fails:
            x = fails[0]
            first = {"section": section, "label": _text(x.get("vector") or x.get("case")),
                     "what": _text(x.get("what")), "expected": _text(x.get("expected")),
                     "found": _text(x.get("found"))}
    return section, fams, first


def _text(v):
    if v is None or isinstance(v, str):
        return v
    return json.dumps(v)


# ------------------------------------------------------------------ selection


def parse_shard(text):
    m = re.fullmatch(r"(\d+)/(\d+)", text or "")
    if not m:
        raise InputError("--shard: expected k/n, found %r" % text)
    k, n = int(m.group(1)), int(m.group(2))
    if not 1 <= k <= n:
        raise InputError("--shard: k must be in 1..n, found %s" % text)
    return k, n


def select(ids, seed, sample, shard):
    """[CONF.PMUT.SELECT] ``(shard's ids, selection_total, selection_sha256)``: the ids sorted; with ``sample`` a
    seeded ``random.Random(seed).sample`` of that many (all when there are fewer), sorted again;
    shard ``k/n`` the ids whose ordinal in the selection is ``k-1`` modulo ``n``."""
    sel = sorted(ids)
    if sample is not None and sample < len(sel):
        sel = sorted(random.Random(seed).sample(sel, sample))
    digest = hashlib.sha256("\n".join(sel).encode("ascii")).hexdigest()
    k, n = shard
    return [m for i, m in enumerate(sel) if i % n == k - 1], len(sel), digest


# ------------------------------------------------------------------ summary


def tally(mutants):
    c = {o: 0 for o in OUTCOMES}
    for m in mutants:
        c[m["outcome"]] += 1
    viable = c["caught"] + c["timeout"] + c["survived"] + c["survived_explained"]
    c["mutants"] = len(mutants)
    c["kill"] = (100.0 * (c["caught"] + c["timeout"]) / viable) if viable else None
    return c


COLUMNS = (("mutants", "mutants"), ("caught", "caught"), ("timeout", "timeout"),
           ("survived", "survived"), ("survived_explained", "explained"),
           ("unviable", "unviable"), ("not_executed", "not_exec"), ("error", "error"))


def summary_text(mutants):
    by_file, by_family = {}, {}
    for m in mutants:
        by_file.setdefault(m["file"], []).append(m)
        for f in m["claim_families"]:
            by_family.setdefault(f, []).append(m)
    width = max([len("total")] + [len(f) for f in by_file] + [len(f) for f in FAMILIES]) + 2
    head = "%-*s" % (width, "") + "".join("%10s" % h for _, h in COLUMNS) + "%8s" % "kill%"

    def row(name, ms):
        c = tally(ms)
        kill = "-" if c["kill"] is None else "%.1f%%" % c["kill"]
        return "%-*s" % (width, name) + "".join("%10d" % c[k] for k, _ in COLUMNS) + "%8s" % kill
    lines = ["per file".ljust(width) + head[width:]]
    lines += [row(f, by_file[f]) for f in sorted(by_file)]
    lines.append("")
    lines.append("per family".ljust(width) + head[width:])
    lines += [row(f, by_family[f]) for f in FAMILIES if f in by_family]
    lines.append("")
    lines.append(row("total", mutants))
    surv = [m for m in mutants if m["outcome"] in ("survived", "error")]
    if surv:
        lines.append("")
        lines.append("unexplained survivors and errors:")
        for m in sorted(surv, key=lambda m: (m["file"], m["line"], m["col"], m["id"])):
            lines.append("  %s %-8s %s  (%s)%s" % (
                m["id"], m["outcome"], m["describe"], m["function"],
                "" if m["ledger"] is None else "  ledger: %s by %s" % (m["ledger"]["status"],
                                                                      m["ledger"]["killed_by"])))
    return "\n".join(lines)


def verdict_status(mutants, problems):
    bad = [m for m in mutants if m["outcome"] in ("survived", "error")]
    return 1 if bad or problems else 0


def write_json(path, value):
    d = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".port-mutants-", dir=d)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(value, f, indent=1, ensure_ascii=False)
            f.write("\n")
        os.replace(tmp, path)
    except OSError as e:
        raise InputError("%s: cannot write: %s" % (path, e.strerror or e))


def check_out_path(path):
    if path is None:
        return
    d = os.path.dirname(os.path.abspath(path)) or "."
    if not os.path.isdir(d):
        raise InputError("%s: no such directory %s" % (path, d))
    if os.path.isdir(path):
        raise InputError("%s: is a directory" % path)


def display_path(path):
    a = os.path.abspath(path)
    r = os.path.relpath(a, REPO)
    return a if r.startswith("..") else r


# ------------------------------------------------------------------ run


class Runner(object):
    def __init__(self, a, kit, port_dir, files):
        self.a = a
        self.kit = kit
        self.port_dir = port_dir
        self.files = files
        self.env = child_env()
        self.progress_lock = threading.Lock()
        self.done = 0
        self.stopping = False

    def copy_port(self, tmp):
        dst = os.path.join(tmp, "python")
        shutil.copytree(self.port_dir, dst, ignore=shutil.ignore_patterns("__pycache__"))
        return dst

    def driver_cmd(self, port_copy):
        return "python3 " + shlex.quote(os.path.join(port_copy, "driver.py"))

    def baseline(self, port_cases, families=None):
        """[CONF.PMUT.BASELINE] Certify the unmutated port (a pristine copy); InputError when it does not pass."""
        tmp = tempfile.mkdtemp(prefix="onepath-baseline-")
        try:
            port = self.copy_port(tmp)
            if not self.kit.has_family:
                families = None
            args = self.kit.certify(self.driver_cmd(port), port_cases, self.a.timeout, families)
            sys.stderr.write("baseline: %s\n" % " ".join(shlex.quote(x) for x in args[1:]))
            rc, out, err, secs, _ = run_limited(args, None, self.env, tag=tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        if rc != 0:
            reason = ""
            try:
                d = json.loads(out.decode("utf-8"))
                reason = "; ".join(str(p) for p in (d.get("port") or {}).get("problems", [])[:3])
            except (ValueError, AttributeError):
                pass
            raise InputError("the unmutated port does not pass (certify exit %s%s)%s" % (
                rc, ": " + reason if reason else "",
                "; stderr: " + tail(err, 3, 400).replace("\n", " | ") if rc not in (0, 1) else ""))
        sys.stderr.write("baseline: PASS in %.1f s\n" % secs)
        return secs

    def stage(self, site, stage, port_cases, families, wall):
        """[CONF.PMUT.RUN] [CONF.PMUT.OUTCOMES] One certify run of ``site``'s mutant: a stage record plus details."""
        fam = families_or_none(families) if self.kit.has_family else None
        rec = {"stage": stage, "outcome": None, "seconds": 0.0, "exit_code": None,
               "family_filter": fam, "port_cases": port_cases}
        info = {"section": None, "families": [], "first_difference": None, "stderr_tail": None}
        tmp = tempfile.mkdtemp(prefix="onepath-mutant-%s-" % site.id)
        try:
            port = self.copy_port(tmp)
            path = os.path.join(port, site.file)
            mutated = S.splice(read_text(path), site)
            try:
                compile(mutated, path, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as e:
                return None, {"unviable": "%s: %s" % (type(e).__name__, e)}
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(mutated)
            args = self.kit.certify(self.driver_cmd(port), port_cases, self.a.timeout, fam)
            rc, out, err, secs, timed_out = run_limited(args, wall, self.env, tag=tmp)
        except (OSError, InputError, S.SourceError) as e:
            rec["outcome"] = "error"
            info["stderr_tail"] = "the judge could not run this mutant: %s" % e
            return rec, info
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        rec["seconds"] = round(secs, 2)
        rec["exit_code"] = None if timed_out else rc
        if self.stopping:
            rec["outcome"] = "error"
            info["stderr_tail"] = "interrupted"
        elif timed_out:
            rec["outcome"] = "timeout"
        elif rc == 0:
            rec["outcome"] = "survived"
        elif rc == 1:
            try:
                info["section"], info["families"], info["first_difference"] = parse_certify(out)
                rec["outcome"] = "caught"
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                rec["outcome"] = "error"
                info["stderr_tail"] = "exit 1 without a readable report (%s); stderr: %s" % (
                    e, tail(err))
        else:
            rec["outcome"] = "error"
            info["stderr_tail"] = "exit %s; stderr: %s" % (rc, tail(err))
        return rec, info

    def judge(self, site, m, stage, port_cases, families, wall):
        rec, info = self.stage(site, stage, port_cases, families, wall)
        if rec is None:
            m["outcome"] = "unviable"
            m["stderr_tail"] = info["unviable"]
            return
        m["stages"].append(rec)
        m["seconds"] = round(sum(s["seconds"] for s in m["stages"]), 2)
        m["outcome"] = rec["outcome"]
        m["stage"] = stage
        m["exit_code"] = rec["exit_code"]
        m.update(info)

    def progress(self, total, m, note=""):
        with self.progress_lock:
            self.done += 1
            extra = ""
            if m["outcome"] == "caught":
                fams = ", ".join("%s %s" % (f["family"], f["reached"]) for f in m["families"])
                extra = "  [%s%s]" % (m["section"] or "-", "; " + fams if fams else "")
            elif m["outcome"] in ("error", "unviable") and m["stderr_tail"]:
                extra = "  [%s]" % m["stderr_tail"].replace("\n", " | ")[:160]
            sys.stderr.write("[%*d/%d] %-18s %7.1fs  %s%s%s\n" % (
                len(str(total)), self.done, total, m["outcome"], m["seconds"], m["describe"],
                extra, note))
            sys.stderr.flush()


def new_record(site):
    d = site.as_json()
    d.update({"claim_families": list(families_of(site.file)), "outcome": None, "stage": None,
              "seconds": 0.0, "stages": [], "exit_code": None, "section": None, "families": [],
              "first_difference": None, "stderr_tail": None, "ledger": None})
    return d


def parallel(jobs, items, fn, runner):
    """Run ``fn(item)`` for every item on ``jobs`` threads; SIGINT/SIGTERM stop everything."""
    ex = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    futs = [ex.submit(fn, it) for it in items]
    try:
        pending = set(futs)
        while pending:
            done, pending = concurrent.futures.wait(pending, timeout=0.5)
            for f in done:
                f.result()
    except BaseException:
        runner.stopping = True
        for f in futs:
            f.cancel()
        kill_live()
        ex.shutdown(wait=True, cancel_futures=True)
        raise
    ex.shutdown(wait=True)


def cmd_run(a):
    """[CONF.PMUT.RUN] [CONF.PMUT.CONFIRM] [CONF.PMUT.REPORT] [CONF.PMUT.VERDICT]"""
    began = time.monotonic()
    port_dir = os.path.abspath(a.port)
    kit = Kit(a.kit)
    check_out_path(a.json)
    files, _, _ = port_files(port_dir)
    all_sites = list_sites(port_dir, files)
    by_id = {s.id: s for s in all_sites}
    chosen = all_sites
    if a.files:
        chosen = [s for s in chosen if any(fnmatch.fnmatchcase(s.file, g) for g in a.files)]
        if not chosen:
            raise InputError("--files %s: matches no port file with mutants (files: %s)"
                             % (" ".join(a.files), ", ".join(files)))
    operators = None
    if a.operators:
        operators = []
        for item in a.operators:
            for op in filter(None, item.split(",")):
                if op not in S.OPERATORS:
                    raise InputError("--operators: unknown operator %r (known: %s)"
                                     % (op, ", ".join(S.OPERATORS)))
                if op not in operators:
                    operators.append(op)
        chosen = [s for s in chosen if s.operator in operators]
    if a.ids:
        unknown = [i for i in a.ids if i not in by_id]
        if unknown:
            raise InputError("--ids: %s names no mutant of the port" % ", ".join(unknown))
        chosen = [s for s in chosen if s.id in set(a.ids)]
    shard = parse_shard(a.shard) if a.shard else (1, 1)
    ids, total, digest = select([s.id for s in chosen], a.seed, a.sample, shard)
    if not total:
        raise InputError("no mutant selected")
    coverage = read_coverage(a.coverage, port_dir, files) if a.coverage else None
    ledger = read_ledger(a.ledger) if a.ledger else {}
    stale = sorted(i for i in ledger if i not in by_id)
    for i in stale:
        sys.stderr.write("ledger: entry %s (%s) names no current mutant of the port\n"
                         % (i, ledger[i]["describe"]))
    runner = Runner(a, kit, port_dir, files)
    sys.stderr.write("%s; %d mutants in %d files, %d selected, shard %d/%d: %d; --family %s\n" % (
        kit.version, len(all_sites), len(files), total, shard[0], shard[1], len(ids),
        "supported" if kit.has_family else "not supported: every family runs"))
    records = {i: new_record(by_id[i]) for i in ids}
    to_run = []
    for i in ids:
        s, m = by_id[i], records[i]
        if coverage is not None:
            exe, missed = coverage[s.file]
            lines = set(range(s.node_lines[0], s.node_lines[1] + 1)) & exe
            if lines and lines <= missed:
                m["outcome"] = "not_executed"
                runner.progress(len(ids), m)
                continue
        to_run.append(i)
    # the baseline runs the families the fast stage will run (every family when that is all)
    needed = {f for i in to_run for f in families_of(by_id[i].file)}
    base = runner.baseline(a.port_cases, families_or_none(needed)) if to_run else 0.0
    wall = a.mutant_timeout if a.mutant_timeout else max(60.0, 3.0 * base)

    def fast(i):
        if runner.stopping:
            return
        s, m = by_id[i], records[i]
        runner.judge(s, m, "fast", a.port_cases, families_of(s.file), wall)
        runner.progress(len(ids), m)
    parallel(a.jobs, to_run, fast, runner)

    survivors = [i for i in ids if records[i]["outcome"] == "survived"]
    if a.confirm and survivors:
        sys.stderr.write("confirm: %d survivors with every family and --port-cases %d\n"
                         % (len(survivors), CONFIRM_PORT_CASES))
        cbase = runner.baseline(CONFIRM_PORT_CASES)
        cwall = max(wall, 3.0 * cbase)
        runner.done = 0

        def confirm(i):
            if runner.stopping:
                return
            s, m = by_id[i], records[i]
            runner.judge(s, m, "confirm", CONFIRM_PORT_CASES, FAMILIES, cwall)
            runner.progress(len(survivors), m)
        parallel(a.jobs, survivors, confirm, runner)

    problems = apply_ledger(records.values(), ledger)
    report = {
        "schema": REPORT_SCHEMA, "version": 1, "kit": kit.version,
        "port_dir": display_path(port_dir), "seed": a.seed, "sample": a.sample,
        "shard": {"index": shard[0], "count": shard[1]}, "merged_shards": None,
        "selection_total": total, "selection_sha256": digest, "port_cases": a.port_cases,
        "timeout_seconds": a.timeout, "mutant_timeout_seconds": round(wall, 1),
        "confirm": bool(a.confirm), "files": list(a.files) if a.files else None,
        "operators": operators, "ids": sorted(set(a.ids)) if a.ids else None,
        "coverage": display_path(a.coverage) if a.coverage else None,
        "ledger": display_path(a.ledger) if a.ledger else None,
        "baseline_seconds": round(base, 2), "ledger_problems": problems,
        "mutants": [records[i] for i in ids],
    }
    J.check(report, REPORT)  # the tool never writes what it would not read back
    if a.json:
        write_json(a.json, report)
    print(summary_text(report["mutants"]))
    for p in problems:
        print("ledger: " + p)
    print("wall time %.1f s (baseline %.1f s, mutant limit %.0f s)"
          % (time.monotonic() - began, base, wall))
    return verdict_status(report["mutants"], problems)


def apply_ledger(records, ledger):
    """[CONF.PMUT.LEDGER] Survivors the ledger lists as equivalent or open become ``survived_explained``; a ledger
    entry contradicted by the run (an equivalent or open mutant caught) is a problem."""
    problems = []
    for m in records:
        e = ledger.get(m["id"])
        if e is None:
            continue
        m["ledger"] = {"status": e["status"], "reason": e["reason"], "killed_by": e["killed_by"]}
        if m["outcome"] == "survived" and e["status"] in ("equivalent", "open"):
            m["outcome"] = "survived_explained"
        elif m["outcome"] in ("caught", "timeout") and e["status"] == "equivalent":
            problems.append("%s (%s) is listed as equivalent but was %s" % (
                m["id"], m["describe"], m["outcome"]))
        elif m["outcome"] in ("caught", "timeout") and e["status"] == "open":
            problems.append("%s (%s) is listed as open but was %s: mark it killed, naming what "
                            "kills it" % (m["id"], m["describe"], m["outcome"]))
    return problems


# ------------------------------------------------------------------ merge

MERGE_KEYS = ("kit", "seed", "sample", "selection_total", "selection_sha256", "port_cases",
              "timeout_seconds", "confirm", "files", "operators", "ids")


def merge_reports(reports):
    """[CONF.PMUT.MERGE] ``reports``: ``[(path, report)]``, the shards 1/n .. n/n of one run; the merged report."""
    if not reports:
        raise InputError("merge: no report given")
    p0, r0 = reports[0]
    n = r0["shard"]["count"]
    seen = {}
    for p, r in reports:
        if r["merged_shards"] is not None:
            raise InputError("%s: merged_shards: already a merged report" % p)
        for k in MERGE_KEYS:
            if r[k] != r0[k]:
                raise InputError("%s: %s: %s differs from %s in %s (not shards of one run)"
                                 % (p, k, json.dumps(r[k]), json.dumps(r0[k]), p0))
        if r["shard"]["count"] != n:
            raise InputError("%s: shard.count: %d differs from %d in %s"
                             % (p, r["shard"]["count"], n, p0))
        k = r["shard"]["index"]
        if k in seen:
            raise InputError("%s: shard.index: shard %d/%d is also %s" % (p, k, n, seen[k]))
        seen[k] = p
    missing = [k for k in range(1, n + 1) if k not in seen]
    if missing:
        raise InputError("merge: shard%s %s of %d missing" % (
            "s" if len(missing) > 1 else "", ", ".join("%d/%d" % (k, n) for k in missing), n))
    mutants, ids = [], set()
    for p, r in reports:
        for m in r["mutants"]:
            if m["id"] in ids:
                raise InputError("%s: mutant %s is in two shards" % (p, m["id"]))
            ids.add(m["id"])
            mutants.append(m)
    digest = hashlib.sha256("\n".join(sorted(ids)).encode("ascii")).hexdigest()
    if len(ids) != r0["selection_total"] or digest != r0["selection_sha256"]:
        raise InputError("merge: the shards' mutants (%d) are not the run's selection (%d, sha256 %s)"
                         % (len(ids), r0["selection_total"], r0["selection_sha256"][:12]))
    mutants.sort(key=lambda m: m["id"])
    merged = dict(r0)
    merged.update({"shard": {"index": 1, "count": 1}, "merged_shards": n,
                   "baseline_seconds": max(r["baseline_seconds"] for _, r in reports),
                   "mutant_timeout_seconds": max(r["mutant_timeout_seconds"] for _, r in reports),
                   "ledger_problems": [x for _, r in reports for x in r["ledger_problems"]],
                   "mutants": mutants})
    return merged


def cmd_merge(a):
    check_out_path(a.json)
    reports = [(p, read_report(p)) for p in a.reports]
    merged = merge_reports(reports)
    J.check(merged, REPORT)
    if a.json:
        write_json(a.json, merged)
    print("merged %d shards: %d mutants (seed %d, sample %s)" % (
        merged["merged_shards"], len(merged["mutants"]), merged["seed"], merged["sample"]))
    print(summary_text(merged["mutants"]))
    for p in merged["ledger_problems"]:
        print("ledger: " + p)
    return verdict_status(merged["mutants"], merged["ledger_problems"])


# ------------------------------------------------------------------ list, families


def cmd_list(a):
    port_dir = os.path.abspath(a.port)
    files, excluded, _ = port_files(port_dir)
    sites = list_sites(port_dir, files)
    if a.json:
        out = {"schema": "onepath.port-mutant-sites", "version": 1,
               "port_dir": display_path(port_dir), "files": files,
               "excluded": [{"file": f, "reason": r} for f, r in excluded],
               "mutants": [dict(s.as_json(), claim_families=list(families_of(s.file)))
                           for s in sites]}
        json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
        return 0
    for s in sites:
        print("%s  %s  (%s)" % (s.id, s.describe(), s.function))
    counts = {}
    for s in sites:
        counts[s.operator] = counts.get(s.operator, 0) + 1
    sys.stderr.write("%d mutants in %d files (%s)\n" % (
        len(sites), len(files), ", ".join("%s %d" % (o, counts.get(o, 0)) for o in S.OPERATORS)))
    for f, r in excluded:
        sys.stderr.write("not mutated: %s: %s\n" % (f, r))
    return 0


def family_table_differences(port_dir):
    files, _, graph = port_files(port_dir)
    derived = derive_family_table(files, graph)
    diffs = []
    for f in files:
        have = FAMILY_TABLE.get(f)
        if have is None:
            diffs.append("%s: not in FAMILY_TABLE; the imports give %s" % (f, ",".join(derived[f])))
        elif tuple(have) != derived[f]:
            diffs.append("%s: FAMILY_TABLE says %s; the imports give %s"
                         % (f, ",".join(have), ",".join(derived[f])))
    for f in FAMILY_TABLE:
        if f not in files:
            diffs.append("%s: in FAMILY_TABLE but not a port file" % f)
    return files, derived, diffs


def cmd_families(a):
    files, derived, diffs = family_table_differences(os.path.abspath(a.port))
    w = max(len(f) for f in files)
    for f in files:
        fams = derived[f]
        print("%-*s  %s" % (w, f, "every family" if fams == FAMILIES else ",".join(fams)))
    for d in diffs:
        print("DIFFERS " + d)
    return 1 if diffs else 0


# ------------------------------------------------------------------ coverage command


def read_data_files(d):
    """Union of the tracer's data files in ``d``: ``({abs path: set of lines}, processes)``."""
    hits, n = {}, 0
    for name in sorted(os.listdir(d)):
        if not name.endswith(".json"):
            continue
        data = read_strict(os.path.join(d, name), DATA_SCHEMA, DATA)
        n += 1
        for f in data["files"]:
            hits.setdefault(os.path.realpath(f["path"]), set()).update(f["lines"])
    return hits, n


def coverage_report(port_dir, files, hits):
    rows = []
    te = tx = 0
    root = os.path.realpath(port_dir)
    for rel in files:
        text = read_text(os.path.join(port_dir, rel))
        exe = executable_lines(text, rel)
        got = hits.get(os.path.join(root, rel), set()) & exe
        missed = exe - got
        rows.append({"file": rel, "sha256": sha256_text(text), "executable": len(exe),
                     "executed": len(got), "percent": percent(len(got), len(exe)),
                     "missed": line_ranges(missed, exe)})
        te += len(exe)
        tx += len(got)
    return rows, {"executable": te, "executed": tx, "percent": percent(tx, te)}


def cmd_coverage(a, extra):
    """[CONF.PMUT.COVERAGE]"""
    for flag in extra:
        name = flag.split("=")[0]
        if name in ("--port", "--json", "--shard", "--full"):
            raise InputError("coverage: %s is not a certify flag of a coverage run (the judge sets "
                             "--port and --json; a shard or --full would not cover the port)" % name)
        if flag.startswith("--") and name not in CERTIFY_FLAGS:
            raise InputError("coverage: unknown flag %s" % name)
    port_dir = os.path.abspath(a.port)
    kit = Kit(a.kit)
    check_out_path(a.json)
    files, _, _ = port_files(port_dir)
    tmp = tempfile.mkdtemp(prefix="onepath-port-coverage-")
    try:
        env = child_env()
        env[COVERAGE_ENV] = tmp
        cmd = "python3 %s %s" % (shlex.quote(TRACER), shlex.quote(os.path.join(port_dir, "driver.py")))
        args = [kit.path, "certify", "--port", cmd, "--json"] + list(extra)
        sys.stderr.write("coverage: %s\n" % " ".join(shlex.quote(x) for x in args[1:]))
        rc, out, _, secs, _ = run_limited(args, None, env, tag=tmp, stderr_to=sys.stderr)
        hits, procs = read_data_files(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    verdict = "PASS" if rc == 0 else "FAIL" if rc == 1 else "ERROR"
    try:
        starts = json.loads(out.decode("utf-8"))["port"]["driver_starts"]
    except (ValueError, KeyError, TypeError):
        starts = None
    rows, total = coverage_report(port_dir, files, hits)
    report = {"schema": COVERAGE_SCHEMA, "version": 1, "kit": kit.version,
              "port_dir": display_path(port_dir),
              "certify": {"args": args[1:], "exit_code": rc, "verdict": verdict,
                          "seconds": round(secs, 2)},
              "driver_starts": starts, "driver_processes": procs, "files": rows, "total": total}
    J.check(report, COVERAGE)
    if a.json:
        write_json(a.json, report)
    w = max(len(r["file"]) for r in rows)
    print("%-*s %10s %9s %7s  never executed" % (w, "file", "executable", "executed", "%"))
    for r in rows:
        print("%-*s %10d %9d %6.1f%%  %s" % (w, r["file"], r["executable"], r["executed"],
                                             r["percent"], ranges_text(r["missed"])))
    print("%-*s %10d %9d %6.1f%%" % (w, "total", total["executable"], total["executed"],
                                     total["percent"]))
    print("certify: %s (exit %s) in %.1f s, %s driver start%s, %d traced driver process%s wrote "
          "%s lines" % (verdict, rc, secs, "?" if starts is None else starts,
                        "" if starts == 1 else "s", procs, "" if procs == 1 else "es",
                        "its" if procs == 1 else "their"))
    if verdict != "PASS":
        print("coverage: the certify run did not pass; the coverage is not meaningful")
        return 1
    if starts != procs:
        print("coverage: %s driver processes started but %d wrote their lines (one was killed); "
              "the never-executed lines may have run" % (starts, procs))
        return 1
    return 0


CERTIFY_FLAGS = ("--seed", "--vectors", "--threads", "--family", "--timeout", "--port-cases",
                 "--expect", "--junit", "--certificate", "--memory-limit-mb", "--date",
                 "--max-reply-mb", "--max-consecutive-failures", "--max-failures", "--deadline",
                 "--heartbeat")


# ------------------------------------------------------------------ main


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise InputError("%s: %s" % (self.prog, message))


def positive_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected an integer, found %r" % text)
    if v < 1:
        raise argparse.ArgumentTypeError("must be at least 1, found %d" % v)
    return v


def non_negative_int(text):
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected an integer, found %r" % text)
    if v < 0:
        raise argparse.ArgumentTypeError("must be at least 0, found %d" % v)
    return v


def positive_num(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a number, found %r" % text)
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError("must be a positive number, found %r" % text)
    return int(v) if v.is_integer() else v


def build_parser():
    p = Parser(prog="port_mutants.py", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", parser_class=Parser)
    lp = sub.add_parser("list", help="every mutation site of the port")
    lp.add_argument("--port", default=DEFAULT_PORT)
    lp.add_argument("--json", action="store_true")
    fp = sub.add_parser("families", help="the family table, checked against the imports")
    fp.add_argument("--port", default=DEFAULT_PORT)
    cp = sub.add_parser("coverage", help="line coverage of the port under a certify run")
    cp.add_argument("--kit", default=DEFAULT_KIT)
    cp.add_argument("--port", default=DEFAULT_PORT)
    cp.add_argument("--json", metavar="OUT")
    rp = sub.add_parser("run", help="run the mutants")
    rp.add_argument("--kit", default=DEFAULT_KIT)
    rp.add_argument("--port", default=DEFAULT_PORT)
    rp.add_argument("--seed", type=non_negative_int, default=1)
    rp.add_argument("--sample", type=positive_int)
    rp.add_argument("--shard")
    rp.add_argument("--jobs", type=positive_int, default=1)
    rp.add_argument("--coverage", metavar="COV.json")
    rp.add_argument("--confirm", action="store_true")
    rp.add_argument("--port-cases", type=positive_int, default=5)
    rp.add_argument("--timeout", type=positive_num, default=30)
    rp.add_argument("--mutant-timeout", type=positive_num)
    rp.add_argument("--ledger", metavar="FILE")
    rp.add_argument("--json", metavar="OUT")
    rp.add_argument("--files", nargs="+", metavar="GLOB")
    rp.add_argument("--operators", nargs="+", metavar="OP")
    rp.add_argument("--ids", nargs="+", metavar="ID")
    mp = sub.add_parser("merge", help="merge the shards of one run")
    mp.add_argument("reports", nargs="+", metavar="REPORT.json")
    mp.add_argument("--json", metavar="OUT")
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv

    def on_term(signum, frame):
        raise Interrupted(143)
    signal.signal(signal.SIGTERM, on_term)
    try:
        p = build_parser()
        if argv[:1] == ["coverage"]:
            a, extra = p.parse_known_args(argv)
        else:
            a, extra = p.parse_args(argv), []
        if a.command is None:
            raise InputError("expected a command: list, families, coverage, run or merge")
        if a.command == "list":
            return cmd_list(a)
        if a.command == "families":
            return cmd_families(a)
        if a.command == "coverage":
            return cmd_coverage(a, extra)
        if a.command == "run":
            return cmd_run(a)
        return cmd_merge(a)
    except InputError as e:
        sys.stderr.write("port_mutants: %s\n" % str(e).replace("\n", " "))
        return 2
    except KeyboardInterrupt:
        kill_live()
        sys.stderr.write("port_mutants: interrupted (SIGINT); no report written\n")
        return 130
    except Interrupted as e:
        kill_live()
        sys.stderr.write("port_mutants: interrupted (SIGTERM); no report written\n")
        return e.status
    except BrokenPipeError:
        return 1


if __name__ == "__main__":
    sys.exit(main())
