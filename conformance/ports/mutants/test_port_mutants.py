"""Unit tests of the port-mutation judge, without the kit: ``python3 -m unittest`` in this folder.

Site enumeration and splicing on a synthetic source, id stability, sample/shard selection, merge
refusals, the strict readers, coverage line ranges, the tracer and the family table.
"""

import contextlib
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import common  # noqa: E402
import coverage_lines as CL  # noqa: E402
import families as F  # noqa: E402
import port_mutants as P  # noqa: E402
import reports as R  # noqa: E402
import sites as S  # noqa: E402
import strict as J  # noqa: E402

SRC = '''"""Module doc."""
import os

X = 3


def f(a, b):
    """Doc."""
    if a < b and not a:
        a += 1
    while a >= 0:
        a = a - 2 * b
    return len(b)


def g(x):
    return x in (1, 2) if x is not None else -1


def h(flag, y):
    if not (flag):
        return True
    s = "%d" % y + "!"
    t = (y  # comment
         + 0x10)
    return False


class C(object):
    __slots__ = ("a",)

    def m(self, v):
        if v == 1 or v != 2:  # pragma: no mutate
            v = v << 1
        return [w for w in v if w > 0]


if __name__ == "__main__":
    f(1, 2)
'''


def sites_of(text, rel="m.py"):
    return S.assign_ids(S.enumerate_sites(S.Source(rel, text)))


def table(sites):
    return {(s.operator, s.line, s.col, s.end_line, s.end_col, s.original, s.replacement)
            for s in sites}


class Enumeration(unittest.TestCase):
    def setUp(self):
        self.sites = sites_of(SRC)
        self.t = table(self.sites)

    def has(self, *row):
        self.assertIn(row, self.t)

    def test_compare(self):
        self.has("compare", 9, 9, 9, 10, "<", "<=")
        self.has("compare", 9, 9, 9, 10, "<", ">=")
        self.has("compare", 11, 12, 11, 14, ">=", ">")
        self.has("compare", 11, 12, 11, 14, ">=", "<")
        self.has("compare", 17, 13, 17, 15, "in", "not in")
        self.has("compare", 17, 28, 17, 34, "is not", "is")

    def test_arith(self):
        self.has("arith", 10, 10, 10, 12, "+=", "-=")
        self.has("arith", 12, 14, 12, 15, "-", "+")
        self.has("arith", 12, 18, 12, 19, "*", "/")
        self.has("arith", 25, 9, 25, 10, "+", "-")
        # string formatting and concatenation with a literal are not arithmetic
        self.assertFalse([s for s in self.sites if s.line == 23 and s.operator == "arith"])

    def test_const(self):
        self.has("const", 10, 13, 10, 14, "1", "2")
        self.has("const", 10, 13, 10, 14, "1", "0")
        self.has("const", 17, 45, 17, 47, "-1", "0")
        self.has("const", 17, 45, 17, 47, "-1", "-2")
        self.has("const", 25, 11, 25, 15, "0x10", "0x11")
        self.has("const", 25, 11, 25, 15, "0x10", "0xf")
        # the literal 1 of a negative literal is not a site of its own
        self.assertFalse([s for s in self.sites if s.line == 17 and s.col == 46])

    def test_boolop_negate_not(self):
        self.has("boolop", 9, 13, 9, 16, "and", "or")
        self.has("negate", 9, 7, 9, 22, "a < b and not a", "not (a < b and not a)")
        self.has("negate", 11, 10, 11, 16, "a >= 0", "not (a >= 0)")
        self.has("negate", 17, 26, 17, 39, "x is not None", "not (x is not None)")
        self.has("negate", 35, 32, 35, 37, "w > 0", "not (w > 0)")  # comprehension if
        self.has("unary_not", 9, 17, 9, 21, "not ", "")
        self.has("unary_not", 21, 7, 21, 11, "not ", "")  # `not (flag)` -> `(flag)`
        # a test that is `not x` is not negated again (unary_not covers it)
        self.assertFalse([s for s in self.sites if s.operator == "negate" and s.line == 21])

    def test_delete_and_return(self):
        self.has("delete", 10, 8, 10, 14, "a += 1", "pass")
        self.has("delete", 12, 8, 12, 21, "a = a - 2 * b", "pass")
        self.has("delete", 24, 4, 25, 16, "t = (y  # comment\n         + 0x10)", "pass \\\n")
        self.has("return", 13, 11, 13, 17, "len(b)", "None")
        self.has("return", 13, 11, 13, 17, "len(b)", "len(b) + 1")
        self.has("return", 22, 15, 22, 19, "True", "False")
        self.has("return", 26, 11, 26, 16, "False", "True")
        self.has("return", 17, 11, 17, 47, "x in (1, 2) if x is not None else -1", "None")

    def test_skipped(self):
        lines = {s.line for s in self.sites}
        for ln in (1, 2, 8, 30, 33, 34, 38, 39):  # docstrings, import, __slots__, pragma, __main__
            self.assertNotIn(ln, lines)
        self.assertFalse([s for s in self.sites if s.operator == "delete" and "__slots__" in s.original])

    def test_functions(self):
        by_line = {s.line: s.function for s in self.sites}
        self.assertEqual(by_line[4], "<module>")
        self.assertEqual(by_line[9], "f")
        self.assertEqual(by_line[35], "C.m")

    def test_splice_keeps_every_other_byte(self):
        for s in self.sites:
            out = S.splice(SRC, s)
            a = S.Source("m.py", SRC).offset(s.line, s.col)
            b = S.Source("m.py", SRC).offset(s.end_line, s.end_col)
            self.assertEqual(out[:a], SRC[:a])
            self.assertEqual(out[a + len(s.replacement):], SRC[b:])
            self.assertEqual(out.count("\n"), SRC.count("\n"), s.describe())
            compile(out, "m.py", "exec")

    def test_splice_refuses_a_changed_source(self):
        s = self.sites[0]
        with self.assertRaises(S.SourceError):
            S.splice(SRC.replace("X = 3", "X = 4"), s)

    def test_ids_stable_when_a_line_is_added_above(self):
        moved = sites_of("import sys\nY = 7\n" + SRC)
        new = {s.id: s for s in moved}
        for s in self.sites:
            self.assertIn(s.id, new, s.describe())
            self.assertEqual(new[s.id].line, s.line + 2)
            self.assertEqual((new[s.id].original, new[s.id].replacement),
                             (s.original, s.replacement))
        self.assertEqual(len(moved), len(self.sites) + 3)  # Y = 7: delete, 8, 6

    def test_identical_sites_on_one_line(self):
        ss = sites_of("def k(a, b, c, d):\n    return a < b or c < d\n")
        lt = [s for s in ss if s.operator == "compare" and s.replacement == "<="]
        self.assertEqual([s.occurrence for s in lt], [0, 1])
        self.assertNotEqual(lt[0].id, lt[1].id)
        self.assertEqual(len({s.id for s in ss}), len(ss))

    def test_describe(self):
        s = [s for s in self.sites if s.operator == "compare" and s.replacement == "<="][0]
        self.assertEqual(s.describe(), "m.py:9:9 compare <-><=")


class Selection(unittest.TestCase):
    IDS = ["%012x" % random.Random(5).getrandbits(48) for _ in range(1)] + \
          ["%012x" % i for i in range(0, 2000, 7)]

    def test_shards_partition_the_selection(self):
        for sample in (None, 50, 10 ** 6):
            full, total, digest = R.select(self.IDS, 3, sample, (1, 1))
            self.assertEqual(total, len(full))
            for n in (1, 2, 3, 7):
                parts = [R.select(self.IDS, 3, sample, (k, n)) for k in range(1, n + 1)]
                got = [m for p in parts for m in p[0]]
                self.assertEqual(sorted(got), full)
                self.assertEqual(len(got), len(set(got)))
                for p in parts:
                    self.assertEqual((p[1], p[2]), (total, digest))

    def test_sample_is_seeded(self):
        a = R.select(self.IDS, 1, 20, (1, 1))
        b = R.select(list(reversed(self.IDS)), 1, 20, (1, 1))
        c = R.select(self.IDS, 2, 20, (1, 1))
        self.assertEqual(a, b)
        self.assertNotEqual(a[0], c[0])
        self.assertEqual(len(a[0]), 20)
        self.assertEqual(a[0], sorted(a[0]))

    def test_shard_parse(self):
        self.assertEqual(R.parse_shard("2/5"), (2, 5))
        for bad in ("0/3", "4/3", "1", "a/b", "1/0"):
            with self.assertRaises(common.InputError):
                R.parse_shard(bad)


def fake_report(index, count, ids, seed=1, total=None, digest=None):
    all_ids = sorted(ids) if total is None else None
    mutants = []
    for i in ids:
        mutants.append({
            "id": i, "describe": "m.py:1:0 const 1->2", "file": "m.py", "line": 1, "col": 0,
            "end_line": 1, "end_col": 1, "operator": "const", "original": "1", "replacement": "2",
            "function": "<module>", "context": "X = 1", "occurrence": 0,
            "claim_families": ["graph"], "outcome": "caught", "stage": "fast", "seconds": 1.5,
            "stages": [{"stage": "fast", "outcome": "caught", "seconds": 1.5, "exit_code": 1,
                        "family_filter": ["graph"], "port_cases": 5}],
            "exit_code": 1, "section": "vectors",
            "families": [{"family": "graph", "claimed": "L4", "reached": "L1",
                          "first_difference": {"section": "vectors", "label": "GRAPH-0001",
                                               "what": "path", "expected": "1", "found": "2",
                                               "clauses": ["GRAPH.SEARCH.ORDER"]}}],
            "first_difference": {"section": "vectors", "label": "GRAPH-0001", "what": "path",
                                 "expected": "1", "found": "2", "clauses": ["GRAPH.SEARCH.ORDER"]},
            "stderr_tail": None, "ledger": None})
    import hashlib
    return {"schema": "onepath.port-mutants", "version": 2, "kit": "onepath-conformance 0.1.0",
            "port_dir": "conformance/ports/python", "seed": seed, "sample": 6,
            "shard": {"index": index, "count": count}, "merged_shards": None,
            "selection_total": total if total is not None else len(all_ids),
            "selection_sha256": digest if digest is not None else
            hashlib.sha256("\n".join(all_ids).encode()).hexdigest(),
            "port_cases": 5, "timeout_seconds": 30, "mutant_timeout_seconds": 90.0, "confirm": False,
            "files": None, "operators": None, "ids": None, "coverage": None, "ledger": None,
            "baseline_seconds": 30.0, "ledger_problems": [], "mutants": mutants}


class Merge(unittest.TestCase):
    IDS = ["%012x" % i for i in range(6)]

    def shards(self, n=3, seed=1):
        full, total, digest = R.select(self.IDS, seed, None, (1, 1))
        out = []
        for k in range(1, n + 1):
            mine = R.select(self.IDS, seed, None, (k, n))[0]
            r = fake_report(k, n, mine, seed=seed, total=total, digest=digest)
            J.check(r, R.REPORT)
            out.append(("s%d.json" % k, r))
        return out

    def test_merge(self):
        m = R.merge_reports(self.shards())
        self.assertEqual(m["merged_shards"], 3)
        self.assertEqual(sorted(x["id"] for x in m["mutants"]), self.IDS)
        J.check(m, R.REPORT)

    def test_merge_with_another_ledger(self):
        # [CONF.PMUT.MERGE] merge --ledger: the run's notes give way to the given ledger's
        m = R.merge_reports(self.shards())
        a, b = m["mutants"][0], m["mutants"][1]
        a["outcome"] = "survived_explained"
        a["ledger"] = {"status": "open", "reason": "old", "killed_by": None}
        b["outcome"] = "survived"
        ledger = {b["id"]: {"status": "equivalent", "reason": "new", "killed_by": None},
                  m["mutants"][2]["id"]: {"status": "equivalent", "reason": "x", "killed_by": None}}
        problems = R.reapply_ledger(m["mutants"], ledger)
        self.assertEqual((a["outcome"], a["ledger"]), ("survived", None))
        self.assertEqual((b["outcome"], b["ledger"]["reason"]), ("survived_explained", "new"))
        self.assertEqual(len(problems), 1)
        self.assertIn("is listed as equivalent but was caught", problems[0])
        J.check(m, R.REPORT)

    def refuse(self, reports, needle):
        with self.assertRaises(common.InputError) as cm:
            R.merge_reports(reports)
        self.assertIn(needle, str(cm.exception))

    def test_missing_shard(self):
        self.refuse(self.shards()[:2], "shard 3/3 of 3 missing")

    def test_duplicate_shard(self):
        s = self.shards()
        self.refuse([s[0], s[1], ("again.json", s[1][1])], "shard 2/3 is also s2.json")

    def test_different_seed(self):
        s = self.shards()
        other = self.shards(seed=2)
        self.refuse([s[0], s[1], other[2]], "seed")

    def test_different_count(self):
        s = self.shards()
        two = self.shards(n=2)
        self.refuse([s[0], two[1]], "shard.count")

    def test_foreign_mutants(self):
        s = self.shards()
        s[2][1]["mutants"] = s[2][1]["mutants"][:1]
        self.refuse(s, "not the run's selection")


class Strict(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="port-mutants-test-")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, value, name="f.json"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            json.dump(value, f)
        return path

    def ledger(self, **change):
        e = {"package": "onepath_py", "mutant": "0123456789ab", "describe": "m.py:1:0 const 1->2",
             "status": "equivalent", "reason": "the constant is only compared with 0",
             "killed_by": None}
        e.update(change)
        return {"schema": "onepath.mutants-ledger", "version": 1, "entries": [e]}

    def ledger_error(self, value):
        with self.assertRaises(common.InputError) as cm:
            R.read_ledger(self.write(value))
        msg = str(cm.exception)
        self.assertTrue(msg.startswith(os.path.join(self.dir, "f.json") + ": "), msg)
        return msg

    def test_ledger_reads(self):
        got = R.read_ledger(self.write(self.ledger()))
        self.assertEqual(list(got), ["0123456789ab"])

    def test_committed_ledger_reads(self):
        R.read_ledger(os.path.join(HERE, "ledger.json"))

    def test_unknown_member(self):
        v = self.ledger()
        v["entries"][0]["note"] = "x"
        self.assertIn('entries[0]: unknown member "note"', self.ledger_error(v))
        v = self.ledger()
        v["_comment"] = "x"
        self.assertIn('unknown member "_comment"', self.ledger_error(v))

    def test_missing_member(self):
        v = self.ledger()
        del v["entries"][0]["killed_by"]
        self.assertIn('entries[0]: missing member "killed_by"', self.ledger_error(v))

    def test_wrong_version_is_checked_first(self):
        v = self.ledger()
        v["version"] = 2
        v["entries"] = "not even a list"
        self.assertIn("unsupported version 2", self.ledger_error(v))
        v["schema"] = "onepath.other"
        self.assertIn('schema: expected "onepath.mutants-ledger"', self.ledger_error(v))

    def test_wrong_types_and_rules(self):
        self.assertIn("entries[0].status", self.ledger_error(self.ledger(status="maybe")))
        self.assertIn("entries[0].killed_by", self.ledger_error(self.ledger(killed_by="GRAPH-0001")))
        self.assertIn("entries[0].killed_by", self.ledger_error(self.ledger(status="killed")))
        self.assertIn("entries[0].reason", self.ledger_error(self.ledger(reason="dead code")))
        self.assertIn("entries[0].reason", self.ledger_error(self.ledger(reason="")))
        self.assertIn("entries[0].mutant", self.ledger_error(self.ledger(mutant="xyz")))
        v = self.ledger()
        v["entries"].append(dict(v["entries"][0]))
        self.assertIn("entries[1].mutant", self.ledger_error(v))

    def test_report_reader(self):
        r = fake_report(1, 1, ["0123456789ab"])
        self.assertEqual(R.read_report(self.write(r))["seed"], 1)
        r["mutants"][0]["families"][0]["reached"] = "L9"
        with self.assertRaises(common.InputError) as cm:
            R.read_report(self.write(r))
        self.assertIn("mutants[0].families[0].reached", str(cm.exception))
        r = fake_report(1, 1, ["0123456789ab"])
        del r["mutants"][0]["stages"][0]["port_cases"]
        with self.assertRaises(common.InputError) as cm:
            R.read_report(self.write(r))
        self.assertIn('mutants[0].stages[0]: missing member "port_cases"', str(cm.exception))
        r = fake_report(1, 1, ["0123456789ab"])
        r["version"] = 1
        with self.assertRaises(common.InputError) as cm:
            R.read_report(self.write(r))
        self.assertIn("unsupported version 1 of onepath.port-mutants", str(cm.exception))

    def test_not_json(self):
        path = os.path.join(self.dir, "bad.json")
        with open(path, "w") as f:
            f.write("{nope")
        with self.assertRaises(common.InputError) as cm:
            R.read_report(path)
        self.assertIn("bad.json: not JSON", str(cm.exception))
        with open(path, "w") as f:
            f.write('{"schema":"onepath.port-mutants","version":1,"x":NaN}')
        with self.assertRaises(common.InputError):
            R.read_report(path)

    def test_cli_exit_2_one_line(self):
        bad = self.write(dict(fake_report(1, 1, []), version=7))
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = P.main(["merge", bad])
        self.assertEqual(status, 2)
        self.assertEqual(err.getvalue().count("\n"), 1)
        self.assertIn("unsupported version 7", err.getvalue())
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(P.main(["run", "--shard", "4/3", "--kit", "/nonexistent"]), 2)
        self.assertEqual(err.getvalue().count("\n"), 1)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(P.main(["run", "--sample", "0"]), 2)
        self.assertIn("--sample", err.getvalue())

    def test_coverage_reader(self):
        port = os.path.join(self.dir, "port")
        os.makedirs(os.path.join(port, "onepath_py"))
        text = "import sys\n\n\ndef f(x):\n    if x:\n        return 1\n    return 2\n"
        with open(os.path.join(port, "driver.py"), "w") as f:
            f.write(text)
        rows, total = CL.coverage_report(port, ["driver.py"],
                                        {os.path.join(os.path.realpath(port), "driver.py"): {1, 4, 5, 7}})
        self.assertEqual(rows[0]["missed"], [[6, 6]])
        cov = {"schema": "onepath.port-coverage", "version": 1, "kit": "k", "port_dir": port,
               "certify": {"args": [], "exit_code": 0, "verdict": "PASS", "seconds": 1.0},
               "driver_starts": 1, "driver_processes": 1, "files": rows, "total": total}
        got = CL.read_coverage(self.write(cov), port, ["driver.py"])
        self.assertEqual(got["driver.py"][1], {6})
        cov["certify"]["verdict"] = "FAIL"
        with self.assertRaises(common.InputError):
            CL.read_coverage(self.write(cov), port, ["driver.py"])
        cov["certify"]["verdict"] = "PASS"
        with open(os.path.join(port, "driver.py"), "a") as f:
            f.write("# changed\n")
        with self.assertRaises(common.InputError) as cm:
            CL.read_coverage(self.write(cov), port, ["driver.py"])
        self.assertIn("changed since the coverage was measured", str(cm.exception))


class Coverage(unittest.TestCase):
    def test_line_ranges(self):
        exe = {1, 3, 4, 6, 8, 10, 11, 12}
        self.assertEqual(CL.line_ranges({3, 4, 6, 10}, exe), [[3, 6], [10, 10]])
        self.assertEqual(CL.line_ranges({10, 11, 12}, exe), [[10, 12]])
        self.assertEqual(CL.line_ranges(set(), exe), [])
        self.assertEqual(CL.ranges_text([[3, 6], [10, 10]]), "3-6, 10")

    def test_executable_lines(self):
        text = ('"""Doc\nstring."""\nX = 1\n\n\ndef f():\n    """Doc."""\n    return X\n\n\n'
                'if __name__ == "__main__":\n    f()\n')
        self.assertEqual(CL.executable_lines(text, "t.py"), {3, 6, 8})

    def test_tracer(self):
        d = tempfile.mkdtemp(prefix="port-mutants-tracer-")
        try:
            port = os.path.join(d, "port")
            os.makedirs(port)
            with open(os.path.join(port, "helper.py"), "w") as f:
                f.write("def used(x):\n    if x:\n        return 1\n    return 2\n")
            with open(os.path.join(port, "driver.py"), "w") as f:
                f.write("import sys\nimport helper\nhelper.used(0)\nsys.exit(3)\n")
            out = os.path.join(d, "out")
            os.makedirs(out)
            env = dict(os.environ, ONEPATH_PORT_COVERAGE_DIR=out)
            rc = subprocess.run([sys.executable, os.path.join(HERE, "traced_driver.py"),
                                 os.path.join(port, "driver.py")], env=env).returncode
            self.assertEqual(rc, 3)
            hits, n = CL.read_data_files(out)
            self.assertEqual(n, 1)
            real = os.path.realpath(port)
            self.assertEqual(hits[os.path.join(real, "helper.py")], {1, 2, 4})
            self.assertEqual(hits[os.path.join(real, "driver.py")], {1, 2, 3, 4})
        finally:
            shutil.rmtree(d)


FAKE_KIT = r'''
import json, os, sys, time
args = sys.argv[1:]
if args == ["--version"]:
    print("onepath-conformance 0.0.0-fake")
    sys.exit(0)
if args[:2] == ["certify", "--help"]:
    print("--port <PORT> --family <F[,G]> --heartbeat <HEARTBEAT> --threads <THREADS>")
    sys.exit(0)
with open(os.environ["FAKE_KIT_LOG"], "a") as f:
    f.write(json.dumps(args) + "\n")
port = os.path.dirname(args[args.index("--port") + 1].split(" ", 1)[1])
cases = args[args.index("--port-cases") + 1]
orig = open(os.path.join(os.environ["FAKE_KIT_ORIGINAL"], "onepath_py", "m.py")).read().split("\n")
now = open(os.path.join(port, "onepath_py", "m.py")).read().split("\n")
changed = [o for o, n in zip(orig, now) if o != n]
if not changed:
    sys.exit(1 if os.environ.get("FAKE_KIT_FAIL_BASELINE") else 0)
line = changed[0]
if "# survive" in line or ("# confirm-kill" in line and cases != "200"):
    sys.exit(0)
if "# hang" in line:
    time.sleep(30)
if "# crash" in line:
    sys.stderr.write("boom\n")
    sys.exit(2)
fd = {"section": "vectors", "label": "GRAPH-0001", "op": "run_case", "level": "L2",
      "what": "path position 1", "expected": "3", "found": "4", "clauses": ["GRAPH.ASTAR.ORDER"]}
print(json.dumps({"schema": "onepath.certify-report", "sections": [
    {"name": "oracle", "failed": 0, "failures": []},
    {"name": "vectors", "failed": 1, "failures": [{"vector": "GRAPH-0001", "case": None,
     "what": "path position 1", "expected": "3", "found": "4", "implementation": "onepath_py"}]}],
    "port": {"families": [
        {"family": "graph", "claimed": "L4", "reached": "L1", "first_difference": fd},
        {"family": "grids", "claimed": "L4", "reached": "L4", "first_difference": None}]}}))
sys.exit(1)
'''

FAKE_PORT = {
    "driver.py": "from onepath_py import m  # noqa\n",
    "onepath_py/__init__.py": "",
    "onepath_py/m.py": ("def value(x):\n"
                        "    if x:\n"
                        "        return x  # survive\n"
                        "    y = x  # confirm-kill\n"
                        "    z = y  # hang\n"
                        "    w = z  # crash\n"
                        "    return w\n"),
}


class EndToEnd(unittest.TestCase):
    """``run`` against a fake kit that judges by the mutated line's comment."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="port-mutants-e2e-")
        self.port = os.path.join(self.dir, "port")
        for rel, text in FAKE_PORT.items():
            os.makedirs(os.path.dirname(os.path.join(self.port, rel)), exist_ok=True)
            with open(os.path.join(self.port, rel), "w") as f:
                f.write(text)
        self.kit = os.path.join(self.dir, "fake-kit")
        with open(self.kit, "w") as f:
            f.write("#!" + sys.executable + "\n" + FAKE_KIT)
        os.chmod(self.kit, 0o755)
        self.log = os.path.join(self.dir, "log")
        self.env = {"FAKE_KIT_LOG": self.log, "FAKE_KIT_ORIGINAL": self.port}
        self.saved = {k: os.environ.get(k) for k in list(self.env) + ["FAKE_KIT_FAIL_BASELINE"]}
        os.environ.update(self.env)
        files, _, _ = F.port_files(self.port)
        self.sites = {s.context.split("#")[-1].strip() if "#" in s.context else s.context: s
                      for s in F.list_sites(self.port, files)}

    def tearDown(self):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(self.dir)

    def run_judge(self, *extra):
        out = os.path.join(self.dir, "report.json")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()) as so:
            status = P.main(["run", "--kit", self.kit, "--port", self.port, "--json", out,
                             "--mutant-timeout", "1"] + list(extra))
        report = R.read_report(out) if os.path.exists(out) else None
        return status, report, err.getvalue(), so.getvalue()

    def test_outcomes_confirm_and_ledger(self):
        self.assertEqual(sorted(self.sites), ["confirm-kill", "crash", "hang", "if x:",
                                              "return w", "survive"])
        ledger = os.path.join(self.dir, "ledger.json")
        entry = {"package": "onepath_py", "describe": "d", "status": "equivalent",
                 "reason": "checkable", "killed_by": None}
        with open(ledger, "w") as f:
            json.dump({"schema": "onepath.mutants-ledger", "version": 1, "entries": [
                dict(entry, mutant=self.sites["survive"].id),
                dict(entry, mutant=self.sites["if x:"].id)]}, f)
        status, r, err, out = self.run_judge("--confirm", "--ledger", ledger)
        self.assertEqual(status, 1, err)
        got = {m["context"].split("#")[-1].strip() if "#" in m["context"] else m["context"]: m
               for m in r["mutants"]}
        self.assertEqual(got["if x:"]["outcome"], "caught")
        self.assertEqual(got["if x:"]["section"], "vectors")
        self.assertEqual(got["if x:"]["families"][0]["reached"], "L1")
        self.assertEqual(got["if x:"]["first_difference"]["label"], "GRAPH-0001")
        self.assertEqual(got["if x:"]["first_difference"]["clauses"], ["GRAPH.ASTAR.ORDER"])
        self.assertEqual(got["return w"]["outcome"], "caught")
        self.assertEqual(got["survive"]["outcome"], "survived_explained")
        self.assertEqual([s["stage"] for s in got["survive"]["stages"]], ["fast", "confirm"])
        self.assertEqual(got["confirm-kill"]["outcome"], "caught")
        self.assertEqual(got["confirm-kill"]["stage"], "confirm")
        self.assertEqual([(s["outcome"], s["port_cases"]) for s in got["confirm-kill"]["stages"]],
                         [("survived", 5), ("caught", 200)])
        self.assertEqual(got["hang"]["outcome"], "timeout")
        self.assertEqual(got["crash"]["outcome"], "error")
        self.assertIn("boom", got["crash"]["stderr_tail"])
        self.assertEqual(len(r["ledger_problems"]), 1)
        self.assertIn("listed as equivalent but was caught", r["ledger_problems"][0])
        with open(self.log) as f:
            calls = [json.loads(x) for x in f]
        self.assertTrue(all("--threads" in c and c[c.index("--threads") + 1] == "1" for c in calls))
        self.assertFalse([c for c in calls if "--family" in c])  # m.py: every family
        # baseline, 6 fast runs, confirm baseline, 2 confirm runs
        self.assertEqual(len(calls), 10)
        self.assertIn("kill%", out)

    def test_clean_run_exits_0(self):
        status, r, err, _ = self.run_judge("--ids", self.sites["if x:"].id, self.sites["return w"].id)
        self.assertEqual(status, 0, err)
        self.assertEqual([m["outcome"] for m in r["mutants"]], ["caught", "caught"])
        self.assertEqual(r["ids"], sorted([self.sites["if x:"].id, self.sites["return w"].id]))

    def test_failing_baseline_exits_2(self):
        os.environ["FAKE_KIT_FAIL_BASELINE"] = "1"
        status, r, err, _ = self.run_judge()
        self.assertEqual(status, 2)
        self.assertIn("the unmutated port does not pass", err)
        self.assertIsNone(r)

    def test_no_baseline_runs_no_baseline(self):
        # [CONF.PMUT.BASELINE] The same failing port: with --no-baseline it is never certified
        # unmutated, so the mutants are judged and the report says baseline_seconds 0.
        os.environ["FAKE_KIT_FAIL_BASELINE"] = "1"
        status, r, err, _ = self.run_judge("--no-baseline", "--ids", self.sites["if x:"].id)
        self.assertEqual(status, 0, err)
        self.assertEqual([m["outcome"] for m in r["mutants"]], ["caught"])
        self.assertEqual(r["baseline_seconds"], 0)
        self.assertNotIn("baseline", err)
        with open(self.log) as f:
            self.assertEqual(len(f.readlines()), 1)  # the mutant's run only

    def test_no_baseline_needs_a_mutant_timeout(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            status = P.main(["run", "--kit", self.kit, "--port", self.port, "--no-baseline"])
        self.assertEqual(status, 2)
        self.assertIn("--no-baseline needs --mutant-timeout", err.getvalue())


class RealPort(unittest.TestCase):
    def test_family_table_matches_the_imports(self):
        _, _, diffs = F.family_table_differences(common.DEFAULT_PORT)
        self.assertEqual(diffs, [])

    def test_port_files(self):
        files, excluded, _ = F.port_files(common.DEFAULT_PORT)
        self.assertEqual(files[0], "driver.py")
        self.assertNotIn("defects.py", files)
        self.assertFalse([f for f in files if "/test_" in f or "/check_" in f])
        self.assertEqual([f for f, _ in excluded], ["onepath_py/vector_file.py"])

    def test_a_sample_of_real_mutants_compiles(self):
        files, _, _ = F.port_files(common.DEFAULT_PORT)
        sites = F.list_sites(common.DEFAULT_PORT, files)
        self.assertGreater(len(sites), 10000)
        texts = {}
        for s in random.Random(7).sample(sites, 150):
            if s.file not in texts:
                texts[s.file] = common.read_text(os.path.join(common.DEFAULT_PORT, s.file))
            out = S.splice(texts[s.file], s)
            self.assertEqual(out.count("\n"), texts[s.file].count("\n"))
            compile(out, s.file, "exec", dont_inherit=True)
        # nothing of the defect switch in main() is a site
        self.assertFalse([s for s in sites if "ONEPATH_PY_DEFECT" in s.context
                          or "defects." in s.context])


if __name__ == "__main__":
    unittest.main()
