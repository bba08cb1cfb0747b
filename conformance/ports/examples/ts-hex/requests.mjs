// The hex requests of the driver: `run_lattice` with a `hex` request ([CONF.LATTICE.REQUEST],
// [CONF.LATTICE.QUERY], [CONF.LATTICE.REPLY]) and `describe` with a `hex` target
// ([CONF.DEBUG.REQUEST], [CONF.DEBUG.REPLY], [DEBUG.PATH.FIELDS]). Voxel and the other targets
// are not this example's: their handlers return undefined (`unimplemented`).

import { GridError, HexGrid } from "./hexgrid.mjs";
import { findHexPath, HexSearch, RUNNING } from "./hexsearch.mjs";

/** @typedef {import("./protocol.d.ts")} P */

/** [CONF.LATTICE.QUERY] The cap on `step` calls of a sliced query. */
const MAX_STEP_CALLS = 2 ** 20;

/**
 * Checks members like the template's `expectMembers` (passed in so this module does not import
 * the driver, which runs its protocol loop when imported).
 * @typedef {(obj: unknown, names: string[], where: string) => Record<string, any>} Expect
 */

/** A non-negative integer of the request (a u64 beyond 2^53 arrives as a BigInt). */
function count(v, where) {
  if (typeof v === "bigint" && v >= 0n) return Number(v); // only budgets can be this large
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`${where}: not a non-negative integer: ${v}`);
  return v;
}

/** A finite real of the request ([DRIVER.ENC.GRID]: finite JSON numbers). */
function real(v, where) {
  if (typeof v !== "number" || !Number.isFinite(v)) throw new Error(`${where}: not a finite number: ${v}`);
  return v;
}

/**
 * [CONF.GRID.HOOKS] A `cell_cost` rule as a function of (from, to).
 * @param {Expect} expect
 */
function cellCostRule(rule, expect) {
  if (rule === null) return null;
  const kinds = rule !== null && typeof rule === "object" ? Object.keys(rule) : [];
  if (kinds.length !== 1 || !["extra_where", "invalid_where"].includes(kinds[0])) {
    throw new Error(`options.cell_cost: not {"extra_where":...} or {"invalid_where":...}`);
  }
  const r = expect(rule, kinds, "options.cell_cost");
  if ("extra_where" in r) {
    const { modulus, extra } = expect(r.extra_where, ["modulus", "extra"], "cell_cost.extra_where");
    const m = count(modulus, "cell_cost.extra_where.modulus");
    const x = real(extra, "cell_cost.extra_where.extra");
    if (m === 0) throw new Error("cell_cost.extra_where.modulus: 0");
    return (from, to) => ((from + 3 * to) % m === 0 ? x : 0);
  }
  if ("invalid_where" in r) {
    const { modulus } = expect(r.invalid_where, ["modulus"], "cell_cost.invalid_where");
    const m = count(modulus, "cell_cost.invalid_where.modulus");
    if (m === 0) throw new Error("cell_cost.invalid_where.modulus: 0");
    const bad = [NaN, -1, Infinity];
    return (from, to) => ((from + 3 * to) % m === 0 ? bad[(from + to) % 3] : 0.5);
  }
  throw new Error("unreachable");
}

/** [CONF.GRID.HOOKS] A `blocked` rule as a predicate on a cell. @param {Expect} expect */
function blockedRule(rule, expect) {
  if (rule === null) return null;
  const { modulus, residue } = expect(rule, ["modulus", "residue"], "options.blocked");
  const m = count(modulus, "blocked.modulus");
  const r = count(residue, "blocked.residue");
  if (m === 0) throw new Error("blocked.modulus: 0");
  return (cell) => cell % m === r;
}

/**
 * [DRIVER.ENC.GRID] The options object as `HexOptions`; `connectivity` and `diagonal` are read
 * and ignored ([HEX.OPT.FIELDS]).
 * @param {Expect} expect @returns {import("./hexsearch.mjs").HexOptions}
 */
function options(o, expect) {
  const names = ["agent_size", "connectivity", "diagonal", "algorithm", "cell_cost", "blocked", "weight", "record", "budget"];
  const v = expect(o, names, "options");
  if (typeof v.record !== "boolean") throw new Error("options.record: not a boolean");
  return {
    agentSize: count(v.agent_size, "options.agent_size"),
    algorithm: count(v.algorithm, "options.algorithm"),
    weight: real(v.weight, "options.weight"),
    record: v.record,
    budget: count(v.budget, "options.budget"),
    cellCost: cellCostRule(v.cell_cost, expect),
    blocked: blockedRule(v.blocked, expect),
  };
}

/**
 * [CONF.LATTICE.REQUEST] `HexGrid::new(width, height, layout)`, the multipliers in order, the
 * space when not null, then `set_cell` for every non-zero cell in index order. A `GridError`
 * is the request's `failed` class.
 * @param {Expect} expect
 */
function buildGrid(layout, map, expect) {
  const m = expect(map, ["width", "height", "cells", "multipliers", "space"], "map");
  const width = count(m.width, "map.width");
  const height = count(m.height, "map.height");
  const grid = new HexGrid(width, height, layout);
  if (!Array.isArray(m.multipliers)) throw new Error("map.multipliers: not a list");
  for (const pair of m.multipliers) {
    if (!Array.isArray(pair) || pair.length !== 2) throw new Error("map.multipliers: not an [area, m] pair");
    grid.setAreaMultiplier(count(pair[0], "multiplier area"), real(pair[1], "multiplier"));
  }
  if (m.space !== null) {
    if (!Array.isArray(m.space) || m.space.length !== 3) throw new Error("map.space: not [ox, oy, s]");
    grid.setSpace(real(m.space[0], "space"), real(m.space[1], "space"), real(m.space[2], "space"));
  }
  if (typeof m.cells !== "string" || m.cells.length !== 2 * width * height || !/^([0-9a-f]{2})*$/.test(m.cells)) {
    throw new Error(`map.cells: not ${width * height} bytes of lowercase hex`);
  }
  for (let i = 0; i < width * height; i++) {
    const area = parseInt(m.cells.slice(2 * i, 2 * i + 2), 16);
    if (area !== 0) grid.setCell(i % width, Math.floor(i / width), area);
  }
  return grid;
}

/** An `[x, y]` end of a query. */
function end(v, where) {
  if (!Array.isArray(v) || v.length !== 2) throw new Error(`${where}: not [x, y]`);
  return [count(v[0], `${where}.x`), count(v[1], `${where}.y`)];
}

/**
 * [CONF.LATTICE.QUERY] One query: tier 1 for an empty schedule, else the sliced form.
 * Returns the `path` fields or throws the `GridError` of `new` / `begin`.
 */
function runQuery(grid, opts, q, expect, tier1Only) {
  // [CONF.LATTICE.CANCEL] `cancel` is present only in a cancel query.
  const cancels = q !== null && typeof q === "object" && "cancel" in q;
  const query = expect(q, ["start", "goal", "schedule", ...(cancels ? ["cancel"] : [])], "query");
  const start = end(query.start, "query.start");
  const goal = end(query.goal, "query.goal");
  if (!Array.isArray(query.schedule)) throw new Error("query.schedule: not a list");
  const schedule = query.schedule.map((b) => count(b, "query.schedule"));
  const k = cancels ? count(query.cancel, "query.cancel") : null;
  if (k !== null && schedule.length !== 0) throw new Error("query: a cancel query with a schedule");
  if (tier1Only && (schedule.length !== 0 || k !== null)) {
    throw new Error("describe: a query with a schedule or a cancel ([CONF.DEBUG.REQUEST]: every describe query is tier 1)");
  }
  if (schedule.length === 0 && k === null) return findHexPath(grid, start, goal, opts);
  const s = new HexSearch(grid, opts);
  s.begin(start, goal);
  let trace = null;
  if (k !== null) {
    // [CONF.LATTICE.CANCEL] step(k) when k > 0, two runs with the flag set, one cleared.
    if (k > 0) s.step(k);
    const flag = { set: true };
    trace = [[s.status, s.iterations]];
    for (let i = 0; i < 2; i++) {
      const returned = s.run(flag); // the status run returned, then the iterations
      trace.push([returned, s.iterations]);
    }
    flag.set = false;
    s.run(flag);
  } else {
    for (let i = 0; i < MAX_STEP_CALLS && s.status === RUNNING; i++) s.step(schedule[i % schedule.length]);
  }
  return {
    trace,
    status: s.status,
    algorithm: opts.algorithm,
    cost: s.pathCost(),
    cells: s.path(),
    points: [],
    expanded: s.expansions.slice(),
    expandedCount: s.expandedCount,
    iterations: s.iterations,
  };
}

/**
 * Builds the grid and runs every query. Returns `{failed}` or `{ran: [result | {error}]}`
 * with the results as the search module gives them (numbers, not yet bit patterns).
 * @param {P["HexRequest"]} hex @param {Expect} expect @param {boolean} tier1Only
 */
function runHex(hex, expect, tier1Only) {
  const h = expect(hex, ["layout", "map", "options", "queries"], "hex");
  if (!Number.isInteger(h.layout)) throw new Error("hex.layout: not an integer");
  if (!Array.isArray(h.queries)) throw new Error("hex.queries: not a list");
  let grid;
  try {
    grid = buildGrid(h.layout, h.map, expect);
  } catch (e) {
    if (e instanceof GridError) return { failed: e.cls };
    throw e;
  }
  const opts = options(h.options, expect);
  const ran = h.queries.map((q) => {
    try {
      return runQuery(grid, opts, q, expect, tier1Only);
    } catch (e) {
      if (e instanceof GridError) return { error: e.cls };
      throw e;
    }
  });
  return { grid, ran };
}

/**
 * `run_lattice` ([DRIVER.OP.RUN_LATTICE]): a hex request's reply; undefined (unimplemented)
 * for a voxel request.
 * @param {P["LatticeRequest"]} args @param {Expect} expect @param {(x: number) => string} bits
 * @returns {P["OkRunLattice"] | undefined}
 */
export function runLattice(args, expect, bits) {
  if (args === null || typeof args !== "object" || !("hex" in args)) return undefined;
  const out = runHex(expect(args, ["hex"], "run_lattice").hex, expect, false);
  if ("failed" in out) return { failed: out.failed };
  const pt = (p) => p.map(bits);
  return {
    ran: out.ran.map((r) =>
      "error" in r
        ? r
        : {
            path: {
              status: r.status,
              algorithm: r.algorithm,
              cost: bits(r.cost),
              cells: r.cells,
              points: r.points.map(pt),
              expanded: r.expanded,
              expanded_count: r.expandedCount,
              iterations: r.iterations,
              ...(r.trace ? { cancel: r.trace } : {}),
            },
          },
    ),
  };
}

/**
 * `describe` with a `hex` target ([CONF.DEBUG.REQUEST]): each query by tier 1, described by
 * [DEBUG.PATH.FIELDS]; undefined (unimplemented) for every other target.
 * @param {P["DescribeRequest"]} args @param {Expect} expect @param {(x: number) => string} bits
 * @returns {P["OkDescribe"] | undefined}
 */
export function describe(args, expect, bits) {
  if (args === null || typeof args !== "object" || !("hex" in args)) return undefined;
  const out = runHex(expect(args, ["hex"], "describe").hex, expect, true);
  if ("failed" in out) return { failed: out.failed };
  const { grid } = out;
  const pt = (p) => p.map(bits);
  return {
    ran: out.ran.map((r) =>
      "error" in r
        ? r
        : {
            path: {
              width: grid.width,
              height: grid.height,
              algorithm: r.algorithm,
              status: r.status,
              cost: bits(r.cost),
              cells: r.cells,
              points: r.points.map(pt),
              expanded: r.expanded,
              expanded_points: r.expanded.map((c) => pt(grid.center(c))),
              expanded_count: r.expandedCount,
              iterations: r.iterations,
            },
          },
    ),
  };
}
