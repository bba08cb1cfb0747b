"""[CONF.PMUT.COVERAGE] Line coverage of the port: executable lines, never-executed ranges, reports.

``executable_lines`` gives a file's lines with bytecode minus docstrings, the ``__main__`` block
and ``# pragma: no mutate`` statements; ``read_data_files`` unites the files traced_driver.py
writes; ``coverage_report`` builds the per-file rows of ``port_mutants.py coverage``;
``read_coverage`` reads such a report back for ``run --coverage``.  Stdlib only (Python 3.11).
"""

import ast
import os
import types

import sites as S
from common import InputError, read_text, sha256_text
from reports import COVERAGE, COVERAGE_SCHEMA, DATA, DATA_SCHEMA, read_strict


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


# ------------------------------------------------------------------ coverage reports


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
