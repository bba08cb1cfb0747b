#!/usr/bin/env python3
"""Harvests criterion medians and renders the tables of BENCHMARKS.md (used by scripts/bench-tables).

harvest: reads every `<criterion>/**/new/estimates.json` newer than `--since` (with the
`benchmark.json` beside it: group, function, throughput) and stores the medians of one pass of
one bench target in the results file, with the load average before/after.

render: one Markdown table per bench target, each between `<!-- bench-tables:TARGET -->` and
`<!-- /bench-tables:TARGET -->` in the document (or printed). Every ratio is the quotient of two
medians of the same pass; forward and reverse passes are shown side by side as `fwd / rev`.
"""
import argparse
import json
import os
import re
import sys


def harvest(a):
    since = os.path.getmtime(a.since)
    rows = []
    for d, _dirs, files in os.walk(a.criterion):
        if os.path.basename(d) != "new" or "estimates.json" not in files:
            continue
        est = os.path.join(d, "estimates.json")
        if os.path.getmtime(est) < since:
            continue
        with open(est) as f:
            e = json.load(f)
        with open(os.path.join(d, "benchmark.json")) as f:
            b = json.load(f)
        func = b.get("function_id") or b.get("value_str") or ""
        thr = b.get("throughput") or {}
        rows.append(
            {
                "group": b["group_id"],
                "function": func,
                "median_ns": e["median"]["point_estimate"],
                "elements": thr.get("Elements"),
                "bytes": thr.get("Bytes"),
            }
        )
    # `bench-stat group=G function=F expanded=X` lines of the pass's log (the replan bench's
    # correctness pre-pass): shown beside the medians.
    stats = {}
    if a.log and os.path.exists(a.log):
        with open(a.log) as f:
            for line in f:
                m = re.match(r"bench-stat group=(\S+) function=(\S+) expanded=(\S+)", line)
                if m:
                    stats.setdefault(m.group(1), {})[m.group(2)] = float(m.group(3))
    # `bench-subopt group=G function=F mean=X max=Y` lines (the HPA* bench's check): path-length
    # ratios to the optimum.
    subopt = {}
    if a.log and os.path.exists(a.log):
        with open(a.log) as f:
            for line in f:
                m = re.match(r"bench-subopt group=(\S+) function=(\S+) mean=(\S+) max=(\S+)", line)
                if m:
                    subopt.setdefault(m.group(1), {})[m.group(2)] = [float(m.group(3)), float(m.group(4))]
    res = {}
    if os.path.exists(a.results):
        with open(a.results) as f:
            res = json.load(f)
    res.setdefault(a.target, {})[a.pass_] = {
        "load_before": a.load_before,
        "load_after": a.load_after,
        "seconds": a.seconds,
        "commit": a.commit,
        "rows": sorted(rows, key=lambda r: (r["group"], r["function"])),
        "stats": stats,
        "subopt": subopt,
    }
    with open(a.results, "w") as f:
        json.dump(res, f, indent=1)
    print(f"harvested {len(rows)} medians of {a.target} ({a.pass_})", file=sys.stderr)


def fmt_time(ns):
    if ns is None:
        return "–"
    for unit, k in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= k:
            v = ns / k
            return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"
    return f"{ns:.3g} ns"


def fmt_ratio(x):
    return "–" if x is None else (f"{x:.2f}" if x < 100 else f"{x:.0f}")


def both(fwd, rev, f):
    a = f(fwd) if fwd is not None else None
    b = f(rev) if rev is not None else None
    if rev is None:
        return a if isinstance(a, str) else "–"
    return f"{a} / {b}"


# Per target: the reference entry of the ratios, the entries shown (in order), whether times
# are per query (median / elements) or per batch, and a note for the header.
SPECS = {
    "graph": dict(ref="onepath", funcs=["onepath", "onepath_tier1", "onepath_bidi", "baseline", "petgraph", "pathfinding"], per="query"),
    "graph_reference": dict(ref="onepath", funcs=["onepath", "reference", "baseline"], per="query"),
    "grid_large": dict(ref="onepath_astar", funcs=["onepath_astar", "pathfinding_astar"], per="query"),
    "alt": dict(ref=None, funcs=None, per="query"),
    "state": dict(ref="memcpy", funcs=["save_into", "save", "restore", "memcpy"], per="batch"),
    # flow: two sub-tables (render): full fields against the plain Dijkstra, repairs against the
    # recompute on the same edited grid.
    "flow": dict(ref="dijkstra", funcs=["onepath", "onepath_new", "dijkstra", "dijkstra_dirs"], per="query",
                 stats=["onepath", "dijkstra"], stat_label="cells settled / reached"),
    "flow_reference": dict(ref="onepath", funcs=["onepath", "reference"], per="query", label="per field"),
    "flow_repair": dict(ref="repair", funcs=["repair", "recompute"], per="query", stats=["repair", "recompute"],
                        stat_label="cells settled"),
    "hpa": dict(ref="onepath", funcs=["onepath", "onepath_smooth", "hpa_crate", "astar"], per="query"),
    "replan": dict(ref="dstar", funcs=["dstar", "lpa", "condor", "astar", "astar_run"], per="query",
                   stats=["dstar", "lpa", "condor", "astar"], flag="walk_mismatch"),
}


def index(p):
    t = {}
    for r in p["rows"]:
        t.setdefault(r["group"], {})[r["function"]] = r
    return t


def per(r, mode):
    if r is None:
        return None
    if mode == "query" and r.get("elements"):
        return r["median_ns"] / r["elements"]
    return r["median_ns"]


def load_line(target, passes):
    parts = []
    for name in ("forward", "reverse"):
        p = passes.get(name)
        if p:
            parts.append(
                f"{name}: load average (1/5/15 min) {p['load_before']} before, {p['load_after']} after, "
                f"{p['seconds']} s, commit {p['commit']}"
            )
    return f"`scripts/bench-tables {target}`: " + "; ".join(parts) + "."


def group_order(t):
    def key(g):
        m = re.search(r"_(\d+)$", g)
        return (re.sub(r"_\d+$", "", g), int(m.group(1)) if m else 0, g)
    return sorted(t, key=key)


def render_generic(target, passes, spec):
    fwd, rev = index(passes["forward"]), index(passes["reverse"]) if "reverse" in passes else None
    groups = group_order(fwd)
    present = [f for f in spec["funcs"] if any(f in fwd[g] for g in groups)]
    ref = spec["ref"]
    others = [f for f in present if f != ref]
    unit = spec.get("label") or ("per query" if spec["per"] == "query" else "median")
    stats_f = passes["forward"].get("stats", {})
    shown = [f for f in spec.get("stats", []) if any(f in stats_f.get(g, {}) for g in groups)]
    flag = spec.get("flag") if any(spec.get("flag") in stats_f.get(g, {}) for g in groups) else None
    head = ["group", "n"] + [f"{f} ({unit})" for f in present] + [f"{f} ÷ {ref}" for f in others]
    head += [f"{f} expanded ({spec.get('stat_label', 'per query')})" for f in shown] + ([flag] if flag else [])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for g in groups:
        rf = fwd[g]
        rr = rev.get(g) if rev else None
        any_row = next(iter(rf.values()))
        n = any_row.get("elements") or any_row.get("bytes") or ""
        if any_row.get("bytes"):
            n = f"{any_row['bytes'] / 1e6:.1f} MB"
        cells = [g, str(n)]
        for f in present:
            cells.append(both(rf, rr, lambda t: fmt_time(per(t.get(f), spec["per"]))))
        for f in others:
            def ratio(t, f=f):
                a, b = per(t.get(f), spec["per"]), per(t.get(ref), spec["per"])
                return fmt_ratio(a / b if a and b else None)
            cells.append(both(rf, rr, ratio))
        # Expansions come from the forward pass's pre-pass (the same in both passes: the work is
        # deterministic).
        for f in shown:
            x = stats_f.get(g, {}).get(f)
            cells.append("–" if x is None else f"{x:,.0f}")
        if flag:
            x = stats_f.get(g, {}).get(flag)
            cells.append("–" if x is None else f"{x:.0f}")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def render_alt(passes):
    fwd, rev = index(passes["forward"]), index(passes["reverse"]) if "reverse" in passes else None
    lines = []
    builds = [g for g in group_order(fwd) if g.startswith("alt_build_")]
    if builds:
        head = ["workload", "landmarks_build (16)", "2x16 Dijkstras, baseline", "2x16 Dijkstras, onepath",
                "build ÷ baseline Dijkstras", "build ÷ onepath Dijkstras"]
        lines += ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for g in builds:
            rf, rr = fwd[g], (rev.get(g) if rev else None)
            cells = [g[len("alt_build_"):]]
            for f in ("landmarks_build", "dijkstra_2x16_baseline", "dijkstra_2x16_onepath"):
                cells.append(both(rf, rr, lambda t, f=f: fmt_time(per(t.get(f), "batch"))))
            for f in ("dijkstra_2x16_baseline", "dijkstra_2x16_onepath"):
                def ratio(t, f=f):
                    a, b = per(t.get("landmarks_build"), "batch"), per(t.get(f), "batch")
                    return fmt_ratio(a / b if a and b else None)
                cells.append(both(rf, rr, ratio))
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    queries = [g for g in group_order(fwd) if g.startswith("alt_") and not g.startswith("alt_build_")]
    if queries:
        spec = dict(ref="onepath_alt16", funcs=["onepath_alt16", "onepath_weak", "baseline_alt16", "baseline_weak"], per="query")
        sub = {"forward": {"rows": [r for r in passes["forward"]["rows"] if r["group"] in queries]}}
        if "reverse" in passes:
            sub["reverse"] = {"rows": [r for r in passes["reverse"]["rows"] if r["group"] in queries]}
        lines += render_generic("alt", sub, spec)
    return lines


def render_state(passes):
    fwd = index(passes["forward"])
    rev = index(passes["reverse"]) if "reverse" in passes else None
    lines = render_generic("state", {"forward": {"rows": [r for r in passes["forward"]["rows"] if r["group"] != "hostile_restore"]},
                                     **({"reverse": {"rows": [r for r in passes["reverse"]["rows"] if r["group"] != "hostile_restore"]}} if rev else {})},
                           SPECS["state"])
    # Throughput of save and restore (GiB/s).
    if "hostile_restore" in fwd:
        lines += ["", "| hostile restore | bytes | median |", "|---|---|---|"]
        for f, r in sorted(fwd["hostile_restore"].items()):
            rr = rev.get("hostile_restore", {}) if rev else None
            lines.append(f"| {f} | {r.get('bytes') or ''} | {both(fwd['hostile_restore'], rr, lambda t: fmt_time(per(t.get(f), 'batch')))} |")
    return lines


def render(a):
    with open(a.results) as f:
        res = json.load(f)
    blocks = {}
    for target, passes in res.items():
        if "forward" not in passes:
            continue
        if target == "alt":
            body = render_alt(passes)
        elif target == "state":
            body = render_state(passes)
        elif target == "flow":
            body = []
            for prefix, spec, note in (("full_", SPECS["flow"], "Full fields (time per field; expanded = cells settled):"),
                                       ("repair_", SPECS["flow_repair"], "Repairs after k edits near the centre (time per field, the k `set_cell`s included; expanded = cells settled by the repair / the recompute):")):
                sub = {k: {"rows": [r for r in v["rows"] if r["group"].startswith(prefix)],
                           "stats": v.get("stats", {})} for k, v in passes.items() if k in ("forward", "reverse")}
                if sub["forward"]["rows"]:
                    body += ["", note, ""] + render_generic(target, sub, dict(spec, label="per field"))
        elif target == "hpa":
            body = []
            for prefix, note, label in (("hpa_build_", "Hierarchy builds (time per build):", "per build"),
                                        ("hpa_query_", "Queries on a built hierarchy (time per query; `astar` is the optimal flat search):", "per query")):
                sub = {k: {"rows": [r for r in v["rows"] if r["group"].startswith(prefix)]} for k, v in passes.items() if k in ("forward", "reverse")}
                if sub["forward"]["rows"]:
                    body += ["", note, ""] + render_generic(target, sub, dict(SPECS[target], label=label))
            so = passes["forward"].get("subopt", {})
            if so:
                funcs = ["onepath", "onepath_smooth", "hpa_crate"]
                body += ["", "Path length ÷ optimal length over the group's queries (mean / max), from the forward pass's check:", "",
                         "| group | " + " | ".join(funcs) + " |", "|" + "---|" * (len(funcs) + 1)]
                for g in sorted(so):
                    body.append("| " + g + " | " + " | ".join(
                        (f"{so[g][f][0]:.4f} / {so[g][f][1]:.4f}" if f in so[g] else "–") for f in funcs) + " |")
        elif target == "grid_large":
            # Map groups per query; sweep groups per onepath-expanded cell (their throughput).
            body = []
            for prefix, note, label in (("grid_", "Maps (n = queries per batch; time per query):", "per query"),
                                        ("sweep_", "Size sweep, 25 % random walls (n = cells expanded by onepath per batch; time per expanded cell):", "per expanded cell")):
                sub = {k: {"rows": [r for r in v["rows"] if r["group"].startswith(prefix)]} for k, v in passes.items() if k in ("forward", "reverse")}
                if sub["forward"]["rows"]:
                    body += ["", note, ""] + render_generic(target, sub, dict(SPECS[target], label=label))
        else:
            body = render_generic(target, passes, SPECS.get(target, dict(ref="onepath", funcs=sorted({r["function"] for r in passes["forward"]["rows"]}), per="query")))
        shape = "`forward / reverse` pass" if "reverse" in passes else "forward pass only"
        cells = f"Cells: {shape} (criterion median" + (", divided by the batch size" if target not in ("state",) else "") + "); ratios are within one pass."
        blocks[target] = [load_line(target, passes), "", cells, ""] + body
    if not a.doc:
        for t, b in blocks.items():
            print(f"### {t}\n" + "\n".join(b) + "\n")
        return
    with open(a.doc) as f:
        doc = f.read()
    for t, b in blocks.items():
        begin, end = f"<!-- bench-tables:{t} -->", f"<!-- /bench-tables:{t} -->"
        if begin not in doc:
            print(f"no {begin} marker in {a.doc}; table of {t} not written", file=sys.stderr)
            continue
        i, j = doc.index(begin) + len(begin), doc.index(end)
        doc = doc[:i] + "\n" + "\n".join(b) + "\n" + doc[j:]
    with open(a.doc, "w") as f:
        f.write(doc)
    print(f"wrote {len(blocks)} tables into {a.doc}", file=sys.stderr)


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    h = sub.add_parser("harvest")
    h.add_argument("--results", required=True)
    h.add_argument("--criterion", required=True)
    h.add_argument("--since", required=True)
    h.add_argument("--target", required=True)
    h.add_argument("--pass", dest="pass_", required=True)
    h.add_argument("--load-before", default="")
    h.add_argument("--load-after", default="")
    h.add_argument("--seconds", type=int, default=0)
    h.add_argument("--commit", default="")
    h.add_argument("--log")
    r = sub.add_parser("render")
    r.add_argument("--results", required=True)
    r.add_argument("--doc")
    a = p.parse_args()
    harvest(a) if a.cmd == "harvest" else render(a)


if __name__ == "__main__":
    main()
