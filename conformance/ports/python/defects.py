"""Defects of the onepath_py port for testing the kit ([DRIVER.PY.DEFECTS]).

driver.py imports this module only when ONEPATH_PY_DEFECT is set, and applies the defects it
names (comma-separated) from the table DEFECTS before the handshake:
  gtie      flips the g tie-break of the open-set order (larger g no longer pops first)
  cycle     skips the parent-cycle check when a GraphAStar state is restored
  oplm_len  skips the OPLM length check of Landmarks.deserialize
  grid_gtie flips the g tie-break of the specialised grid A* (mode 1): the smaller g pops first
  grid_heap skips the heap-order check of a mode-3 GridSearch state restore
  neg_zero  keeps the sign of a -0.0 weight instead of storing +0.0 ([GRAPH.VAL.NEG_ZERO])
  flow_tie  the flow-field direction rule takes the last neighbour on ties instead of the first
            ([FLOW.DIR.RULE]: a later neighbour replaces the best on an equal value too)
  hex_tie   the hex search's open set breaks f ties the other way (the smaller g pops first,
            then the larger cell index; [STATE.HEAP.ARRAY] pops the larger g, then the smaller
            index); only HexSearch is affected (voxel and every other search keep the spec order)
  describe_kinds  settle and reset swapped in every replanner description's expanded_kinds
            ([DEBUG.REPLAN.FIELDS]); expansion_kinds() itself and every other op stay correct
  sync_perturb  right after the 20th world restore of a synctest loop ([CONF.SYNC.LOOP]) edge 0
            of the graph member (member 1) gets weight 1000.0 through the world's graph_mut, a
            non-deterministic object the loop must catch (its first resimulated frame, 16)
Each is a monkeypatch of a module of onepath_py (synctest, open_set, state, ...) applied at
start-up; the library itself and driver.py stay clean.  These are test instruments of the kit,
not port behaviour: the port-mutation judge (conformance/ports/mutants/) neither mutates this file
nor counts its lines ([CONF.PMUT.FILES]).
"""

import struct

from onepath_py import synctest


def _defect_gtie():
    import onepath_py.open_set as os_mod

    def precedes(an, af, ag, bn, bf, bg):
        if af < bf:
            return True
        if af == bf:
            if ag < bg:  # flipped: the spec pops the larger g first
                return True
            if ag == bg and an < bn:
                return True
        return False

    os_mod.precedes = precedes


def _defect_cycle():
    import inspect
    import onepath_py.state as st
    src = inspect.getsource(st.parse_search)
    needle = 'raise _err("parent_cycle", voff[smallest])'
    if needle not in src:
        raise RuntimeError("cycle defect: the parent-cycle check moved in onepath_py.state")
    src = src.replace(needle, "pass  # defect: cycle check skipped")
    code = compile(src, st.__file__, "exec")
    exec(code, st.__dict__)  # redefines st.parse_search in the module's namespace


def _defect_oplm_len():
    from onepath_py import landmarks as lm_mod
    original = lm_mod.Landmarks.deserialize

    def deserialize(data, graph):
        data = bytes(data)
        if len(data) >= 24 and data[0:4] == b"OPLM":
            n, k = struct.unpack_from("<ii", data, 8)
            if 1 <= k <= n:
                expected = 24 + 4 * k + 16 * k * n
                if len(data) != expected:  # defect: no length_mismatch, read what is there
                    data = data[:expected] + b"\0" * max(0, expected - len(data))
        return original(data, graph)

    lm_mod.Landmarks.deserialize = staticmethod(deserialize)


def _defect_grid_gtie():
    import onepath_py.grid_search_special as sp
    from onepath_py.grid_search_special import pair_lt

    def lt(self, o):
        if (self.fa, self.fb) != (o.fa, o.fb):
            return pair_lt(self.fa, self.fb, o.fa, o.fb)
        if (self.ga, self.gb) != (o.ga, o.gb):
            return pair_lt(self.ga, self.gb, o.ga, o.gb)  # flipped: the spec pops the larger g first
        return self.cell < o.cell

    sp._SAKey.__lt__ = lt


def _defect_grid_heap():
    import inspect
    import onepath_py.grid_search_restore as gr
    src = inspect.getsource(gr.parse_mode3)
    needle = 'raise err("heap_order", foffs[i])'
    if needle not in src:
        raise RuntimeError("grid_heap defect: the mode-3 heap-order check moved")
    src = src.replace(needle, "pass  # defect: heap order not checked")
    exec(compile(src, gr.__file__, "exec"), gr.__dict__)  # redefines gr.parse_mode3


def _defect_neg_zero():
    import onepath_py.csr as csr_mod
    import onepath_py.graph as graph_mod

    def keep_sign(w):
        return float(w)  # defect: -0.0 stays -0.0

    csr_mod.store_weight = keep_sign
    graph_mod.store_weight = keep_sign


def _defect_flow_tie():
    import inspect
    import onepath_py.flow_engine as fe
    cls = fe._FlowField
    src = inspect.getsource(cls._finish)
    needle = "if val < best:"
    if src.count(needle) != 1:
        raise RuntimeError("flow_tie defect: the direction rule's tie test moved")
    src = src.replace(needle, "if val <= best:  # defect: the last tied neighbour wins")
    import textwrap
    ns = {}
    exec(compile(textwrap.dedent(src), fe.__file__, "exec"), fe.__dict__, ns)
    cls._finish = ns["_finish"]


def _defect_hex_tie():
    import onepath_py.hex_search as hs
    import onepath_py.open_set as os_mod

    def precedes(an, af, ag, bn, bf, bg):
        if af < bf:
            return True
        if af == bf:
            if ag < bg:  # flipped: the spec pops the larger g first
                return True
            if ag == bg and an > bn:  # flipped: the spec pops the smaller index first
                return True
        return False

    class TieFlippedOpenSet(os_mod.OpenSet):
        __slots__ = ()

        def _prec(self, i, j):
            return precedes(self._n[i], self._f[i], self._g[i], self._n[j], self._f[j], self._g[j])

        def push(self, node, f, g):
            i = self._pos.get(node)
            if i is None:
                i = len(self._n)
                self._n.append(node)
                self._f.append(f)
                self._g.append(g)
                self._pos[node] = i
                self._up(i)
                return
            newer = precedes(node, f, g, node, self._f[i], self._g[i])
            self._f[i] = f
            self._g[i] = g
            if newer:
                self._up(i)
            else:
                self._down(i)

    hs.OPEN_SET_FACTORY = TieFlippedOpenSet


def _defect_describe_kinds():
    import onepath_py.replan_engine as re_mod
    from onepath_py.debug import ReplanExpansion
    original = re_mod._Replanner.describe
    swap = {ReplanExpansion.Settle: ReplanExpansion.Reset, ReplanExpansion.Reset: ReplanExpansion.Settle}

    def describe(self, grid):
        d = original(self, grid)
        d.expanded_kinds = [swap[k] for k in d.expanded_kinds]  # defect: settle <-> reset
        return d

    re_mod._Replanner.describe = describe


def _defect_sync_perturb():
    original = synctest.rollback

    def rollback(loop, world, data):
        original(loop, world, data)
        if loop.restores == 20:  # defect: the world changes behind the loop's back
            world.graph_mut(synctest.GRAPH).set_weight(0, 1000.0)

    synctest.rollback = rollback


DEFECTS = {"gtie": _defect_gtie, "cycle": _defect_cycle, "oplm_len": _defect_oplm_len,
           "grid_gtie": _defect_grid_gtie, "grid_heap": _defect_grid_heap,
           "neg_zero": _defect_neg_zero, "flow_tie": _defect_flow_tie,
           "hex_tie": _defect_hex_tie, "describe_kinds": _defect_describe_kinds,
           "sync_perturb": _defect_sync_perturb}
