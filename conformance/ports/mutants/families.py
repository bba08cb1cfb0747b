"""Which port files are mutated, their mutation sites, and the claim families that reach each file.

[CONF.PMUT.FILES] ``port_files``: ``driver.py`` and the ``onepath_py`` modules it imports,
directly or through other port modules.  [CONF.PMUT.FAMILIES] ``FAMILY_TABLE``: the committed
table of the claim families whose requests can execute each file; ``family_table_differences``
derives it again from the imports (``port_mutants.py families``).  ``list_sites``: every mutant
of those files (sites.py).  Stdlib only (Python 3.11).
"""

import ast
import os

import sites as S
from common import InputError, read_text

FAMILIES = ("graph", "grids", "grid-search", "replanning", "flow-field", "hex-search",
            "voxel-search", "hpa", "grid-bidi")

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
    "onepath_py/landmarks.py": (G, GR),
    "onepath_py/lattice_astar.py": (GR, RP, FF, HX, VX, HP, GB),
    "onepath_py/lattice_requests.py": (HX, VX, HP, GB),
    "onepath_py/open_set.py": ALL,
    "onepath_py/options.py": ALL,
    "onepath_py/points.py": ALL,
    "onepath_py/random.py": (G, GR),
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


# ------------------------------------------------------------------ the port's files


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
