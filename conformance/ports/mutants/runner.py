"""Running the kit: one certify run per mutant, in a fresh copy of the port, under a time limit.

``Kit`` is a snapshot of the kit binary and the certify argv of a run ([CONF.PMUT.RUN]);
``run_limited`` runs it in its own process group and kills the group (and stray drivers) on the
limit or on an interrupt; ``parse_certify`` reads a caught mutant's certify report
([CONF.PMUT.OUTCOMES]); ``Runner`` runs the baseline and each mutant's stages
([CONF.PMUT.BASELINE]); ``parallel`` runs them on ``--jobs`` threads.  Stdlib only (Python 3.11).
"""

import atexit
import concurrent.futures
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import sites as S
from common import COVERAGE_ENV, REPO, InputError, read_text
from families import families_of, families_or_none

CLEARED_ENV = ("ONEPATH_PY_DEFECT", "ONEPATH_PY_CLAIMS", COVERAGE_ENV)


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
        # and of the vectors: the kit reads vectors/ of the tree it was built from by default, so
        # a vector added while a run goes on would change the judge half-way ([CONF.PMUT.RUN])
        self.vectors = os.path.join(self.dir, "vectors")
        try:
            shutil.copytree(os.path.join(REPO, "vectors"), self.vectors, symlinks=True)
        except OSError as e:
            raise InputError("vectors %s: cannot copy: %s"
                             % (os.path.join(REPO, "vectors"), getattr(e, "strerror", None) or e))
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
        self.has_fail_fast = "--fail-fast" in h.stdout

    def certify(self, driver_cmd, port_cases, timeout, families):
        """The argv of one mutant's (or the baseline's) certify run."""
        args = [self.path, "certify", "--port", driver_cmd, "--json", "--port-cases",
                str(port_cases), "--timeout", fmt_num(timeout), "--threads", "1",
                "--vectors", self.vectors]
        if self.has_heartbeat:
            args += ["--heartbeat", "0"]
        # [CONF.PMUT.RUN]: a mutant's verdict is the whole run's; stopping at the first failure
        # that fails it ([DRIVER.CLI.FAIL_FAST]) only saves the rest of the run.
        if self.has_fail_fast:
            args += ["--fail-fast"]
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


def _clauses(v):
    """The clause ids a certify failure names ([CONF.REPORT.CLAUSES]); [] when it names none."""
    if v is None:
        return []
    if not isinstance(v, list) or not all(isinstance(c, str) for c in v):
        raise ValueError("clauses: not a list of clause ids")
    return list(v)


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
                     dict({k: _text(fd.get(k)) for k in ("section", "label", "what", "expected", "found")},
                          clauses=_clauses(fd.get("clauses")))})
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
                     "found": _text(x.get("found")), "clauses": _clauses(x.get("clauses"))}
    return section, fams, first


def _text(v):
    if v is None or isinstance(v, str):
        return v
    return json.dumps(v)


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
