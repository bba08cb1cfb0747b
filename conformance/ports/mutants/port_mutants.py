#!/usr/bin/env python3
"""The port-mutation judge: mutate the Python port one change at a time and ask the kit.

A mutant of the port that ``onepath-conformance certify --port`` still certifies (exit 0) is a
behaviour of the port that no vector, check or level pins.  Stdlib only (Python 3.11).

    port_mutants.py list [--port DIR] [--json]
    port_mutants.py families [--port DIR]
    port_mutants.py coverage [--kit BIN] [--port DIR] [--json OUT] [certify flags...]
    port_mutants.py run [--kit BIN] [--port DIR] [--seed N] [--sample N] [--shard k/n] [--jobs J]
                        [--coverage COV.json] [--confirm] [--port-cases N] [--timeout S]
                        [--mutant-timeout S [--no-baseline]] [--ledger FILE] [--json OUT]
                        [--files GLOB...]
                        [--operators OP...] [--ids ID...]
    port_mutants.py merge A.json B.json ... [--ledger FILE] [--json OUT]

Exit status: 0 (no unexplained survivor, no error), 1 (an unexplained survivor, a mutant the
judge could not judge, a ledger contradiction; for ``coverage`` a certify run that did not pass;
for ``families`` a table that disagrees with the imports), 2 (bad input: a one-line message).
The rules are the clauses ``CONF.PMUT.*`` of spec/clauses.md ([CONF.PMUT.JUDGE],
[CONF.PMUT.VERDICT]); README.md in this folder shows the commands.

This module is the CLI; the work is done in families.py (the mutated files, their sites and
the family table), reports.py (the JSON files, selection, table and merge), coverage_lines.py
(line coverage), runner.py (running the kit) and common.py (paths, bad input).
"""

import argparse
import fnmatch
import json
import os
import shlex
import shutil
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import sites as S  # noqa: E402
import strict as J  # noqa: E402
from common import (DEFAULT_KIT, DEFAULT_PORT, COVERAGE_ENV, TRACER, InputError,  # noqa: E402
                    check_out_path, display_path, write_json)
from coverage_lines import (coverage_report, ranges_text, read_coverage,  # noqa: E402
                            read_data_files)
from families import (FAMILIES, families_of, families_or_none,  # noqa: E402
                      family_table_differences, list_sites, port_files)
from reports import (COVERAGE, COVERAGE_SCHEMA, REPORT, REPORT_SCHEMA, REPORT_VERSION,  # noqa: E402
                     apply_ledger, merge_reports, parse_shard, read_ledger, read_report,
                     reapply_ledger, select,
                     summary_text, verdict_status)
from runner import Kit, Runner, child_env, kill_live, new_record, parallel, run_limited  # noqa: E402

CONFIRM_PORT_CASES = 200


class Interrupted(Exception):
    def __init__(self, status):
        Exception.__init__(self, "interrupted")
        self.status = status


# ------------------------------------------------------------------ run


def cmd_run(a):
    """[CONF.PMUT.RUN] [CONF.PMUT.CONFIRM] [CONF.PMUT.REPORT] [CONF.PMUT.VERDICT]"""
    began = time.monotonic()
    if a.no_baseline and not a.mutant_timeout:
        # [CONF.PMUT.BASELINE] without a baseline there is no time to derive the limit from
        raise InputError("--no-baseline needs --mutant-timeout S (the default limit is three "
                         "times the baseline's time)")
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
    run_baseline = to_run and not a.no_baseline
    base = runner.baseline(a.port_cases, families_or_none(needed)) if run_baseline else 0.0
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
        "schema": REPORT_SCHEMA, "version": REPORT_VERSION, "kit": kit.version,
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


# ------------------------------------------------------------------ merge


def cmd_merge(a):
    check_out_path(a.json)
    reports = [(p, read_report(p)) for p in a.reports]
    merged = merge_reports(reports)
    if a.ledger:
        merged["ledger_problems"] = reapply_ledger(merged["mutants"], read_ledger(a.ledger))
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
        # the kit's snapshot of this tree's vectors, as `run` passes ([CONF.PMUT.RUN]): without it
        # the kit reads vectors/ of the tree it was built from, which may be another
        given = any(f.split("=")[0] == "--vectors" for f in extra)
        args = [kit.path, "certify", "--port", cmd, "--json"] + \
            ([] if given else ["--vectors", kit.vectors]) + list(extra)
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
    rp.add_argument("--no-baseline", action="store_true")
    rp.add_argument("--ledger", metavar="FILE")
    rp.add_argument("--json", metavar="OUT")
    rp.add_argument("--files", nargs="+", metavar="GLOB")
    rp.add_argument("--operators", nargs="+", metavar="OP")
    rp.add_argument("--ids", nargs="+", metavar="ID")
    mp = sub.add_parser("merge", help="merge the shards of one run")
    mp.add_argument("reports", nargs="+", metavar="REPORT.json")
    mp.add_argument("--json", metavar="OUT")
    mp.add_argument("--ledger", metavar="FILE")
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
