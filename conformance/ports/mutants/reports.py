"""The judge's JSON files: their schemas and strict readers, the selection, the table, merge.

[CONF.PMUT.STRICT] The schemas (built with strict.py) of the report ([CONF.PMUT.REPORT]), the
coverage report and the tracer's data files ([CONF.PMUT.COVERAGE]) and the ledger
([CONF.PMUT.LEDGER]), and their readers.  ``select`` and ``merge_reports`` share the selection
and its SHA-256 ([CONF.PMUT.SELECT], [CONF.PMUT.MERGE]); ``apply_ledger``, ``tally``,
``summary_text`` and ``verdict_status`` turn outcomes into the table and the exit status
([CONF.PMUT.VERDICT]).  Stdlib only (Python 3.11).
"""

import hashlib
import json
import random
import re

import sites as S
import strict as J
from common import InputError
from families import FAMILIES

OUTCOMES = ("caught", "timeout", "survived", "survived_explained", "unviable", "not_executed",
            "error")
LEVELS = ("L0", "L1", "L2", "L3", "L4")

# ------------------------------------------------------------------ schemas

FD = J.Alt(J.NULL, J.Obj({"section": J.Alt(J.STR, J.NULL), "label": J.Alt(J.STR, J.NULL),
                          "what": J.Alt(J.STR, J.NULL), "expected": J.Alt(J.STR, J.NULL),
                          "found": J.Alt(J.STR, J.NULL), "clauses": J.List(J.STR)}))
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
REPORT_VERSION = 2  # 1 (retired): first_difference had no "clauses"
REPORT = J.Obj({
    "schema": J.Const(REPORT_SCHEMA), "version": J.Const(REPORT_VERSION), "kit": J.STR, "port_dir": J.STR,
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



def read_strict(path, schema_name, schema, version=1):
    try:
        return J.read(path, schema_name, version, schema)
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
    d = read_strict(path, REPORT_SCHEMA, REPORT, REPORT_VERSION)
    ids = set()
    for i, m in enumerate(d["mutants"]):
        if m["id"] in ids:
            raise InputError("%s: mutants[%d].id: %s is listed twice" % (path, i, m["id"]))
        ids.add(m["id"])
    sh = d["shard"]
    if not 1 <= sh["index"] <= sh["count"]:
        raise InputError("%s: shard: index %d of %d" % (path, sh["index"], sh["count"]))
    return d


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


def reapply_ledger(records, ledger):
    """[CONF.PMUT.MERGE] ``merge --ledger``: the run's own ledger notes are dropped (an explained
    survivor is a survivor again) and ``ledger`` is applied instead; the new problems."""
    for m in records:
        if m["outcome"] == "survived_explained":
            m["outcome"] = "survived"
        m["ledger"] = None
    return apply_ledger(records, ledger)


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
    """Counts per outcome; ``equivalent`` and ``open`` split ``survived_explained`` by the ledger's
    status; ``kill`` the percentage of the non-equivalent viable mutants caught or timed out
    ([CONF.PMUT.OUTCOMES])."""
    c = {o: 0 for o in OUTCOMES}
    c["equivalent"] = c["open"] = 0
    for m in mutants:
        c[m["outcome"]] += 1
        if m["outcome"] == "survived_explained":
            c["equivalent" if m["ledger"]["status"] == "equivalent" else "open"] += 1
    viable = c["caught"] + c["timeout"] + c["survived"] + c["open"]
    c["mutants"] = len(mutants)
    c["kill"] = (100.0 * (c["caught"] + c["timeout"]) / viable) if viable else None
    return c


COLUMNS = (("mutants", "mutants"), ("caught", "caught"), ("timeout", "timeout"),
           ("survived", "survived"), ("equivalent", "equiv"), ("open", "open"),
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
