// The hex search of spec/hex-search.md: options (§1), moves, costs and estimate (§2), the sliced
// search `HexSearch` (§3, the graph A* rules of spec/graphs.md §6 over cells) and tier 1 (§4).

import { OpenSet } from "./openset.mjs";
import { GridError, WALL } from "./hexgrid.mjs";

/** [GS.OPT.ALGORITHM] */
export const ASTAR = 0;
export const DIJKSTRA = 1;

/** [GRAPH.ASTAR.STATUS] */
export const NOT_STARTED = 0;
export const RUNNING = 1;
export const FOUND = 2;
export const NOT_FOUND = 3;
/** The tier-1 `BudgetExhausted` code of [CONF.LATTICE.REPLY]. */
export const BUDGET_EXHAUSTED = 4;

/**
 * The options of [HEX.OPT.FIELDS] as this example holds them: the kit's options object
 * ([DRIVER.ENC.GRID]) with its hook rules turned into functions ([CONF.GRID.HOOKS]).
 * @typedef {{agentSize: number, algorithm: number, weight: number, record: boolean,
 *   budget: number, cellCost: ((from: number, to: number) => number) | null,
 *   blocked: ((cell: number) => boolean) | null}} HexOptions
 */

/**
 * [HEX.OPT.VALID] Agent size 1..255, then a finite weight >= 1 ([GS.OPT.VALID]), then agent size
 * exactly 1 (`invalid_options`); then the algorithm: A* and Dijkstra only (`unsupported_algorithm`).
 * @param {HexOptions} o
 */
function validate(o) {
  if (!(o.agentSize >= 1 && o.agentSize <= 255)) {
    throw new GridError("invalid_options", `agent_size ${o.agentSize}`);
  }
  if (!(Number.isFinite(o.weight) && o.weight >= 1.0)) {
    throw new GridError("invalid_options", `heuristic_weight ${o.weight}`);
  }
  if (o.agentSize !== 1) throw new GridError("invalid_options", `agent_size ${o.agentSize} (hex grids have no clearance)`);
  if (o.algorithm !== ASTAR && o.algorithm !== DIJKSTRA) {
    throw new GridError("unsupported_algorithm", `algorithm ${o.algorithm}`);
  }
}

/** [GRAPH.ASTAR.ESTIMATE] +infinity stays, a positive value stays, anything else is +0.0. */
function normalise(e) {
  if (e === Infinity) return Infinity;
  return e > 0 ? e : 0;
}

export class HexSearch {
  /**
   * [HEX.OPT.VALID], then `mmin` read at creation ([HEX.EST.VALUE], [HEX.SEARCH.GRID]).
   * @param {import("./hexgrid.mjs").HexGrid} grid @param {HexOptions} options
   */
  constructor(grid, options) {
    validate(options);
    this.grid = grid;
    this.options = options;
    this.mmin = grid.minMultiplier();
    const n = grid.width * grid.height;
    this.g = new Float64Array(n).fill(Infinity);
    this.parent = new Int32Array(n).fill(-1);
    this.closed = new Uint8Array(n);
    this.reached = new Uint8Array(n);
    this.open = new OpenSet(n);
    this.status = NOT_STARTED;
    this.start = -1;
    this.goal = -1;
    this.iterations = 0;
    this.expandedCount = 0;
    /** @type {number[]} */
    this.expansions = [];
  }

  /** [HEX.PASS] Inside the grid (the caller's), not a wall, not blocked by the hook. */
  passable(c) {
    if (this.grid.cells[c] === WALL) return false;
    return !(this.options.blocked && this.options.blocked(c));
  }

  /** [HEX.EST.VALUE] (d * mmin) * w, normalised; Dijkstra: 0. */
  estimate(v) {
    if (this.options.algorithm === DIJKSTRA) return 0;
    return normalise(this.grid.distance(v, this.goal) * this.mmin * this.options.weight);
  }

  /**
   * [HEX.SEARCH.BEGIN] Range checks (start first, x before y; a failure changes nothing), then
   * the reset of [GRAPH.ASTAR.BEGIN]; a start or goal that is not passable ends `NotFound` at
   * once with nothing pushed; a start whose estimate is +infinity is not pushed
   * ([GRAPH.ASTAR.START_INF]).
   */
  begin(start, goal) {
    const { width, height } = this.grid;
    for (const [name, [x, y]] of [["start", start], ["goal", goal]]) {
      if (x >= width) throw new GridError("cell_out_of_range", `${name} x ${x}`);
      if (y >= height) throw new GridError("cell_out_of_range", `${name} y ${y}`);
    }
    this.g.fill(Infinity);
    this.parent.fill(-1);
    this.closed.fill(0);
    this.reached.fill(0);
    this.open = new OpenSet(this.g.length);
    this.iterations = 0;
    this.expandedCount = 0;
    this.expansions = [];
    this.start = start[1] * width + start[0];
    this.goal = goal[1] * width + goal[0];
    this.status = RUNNING;
    if (!this.passable(this.start) || !this.passable(this.goal)) {
      this.status = NOT_FOUND;
      return;
    }
    const h = this.estimate(this.start);
    if (h === Infinity) return;
    this.g[this.start] = 0;
    this.reached[this.start] = 1;
    this.open.push(this.start, h, 0);
  }

  /**
   * [HEX.MOVE.COST] 1.0 * m(area(v)), then + extra of the hook; NaN, negative or +infinity
   * extra: the move is not allowed (null).
   */
  moveCost(u, v) {
    let c = 1.0 * this.grid.multiplier(this.grid.cells[v]);
    if (this.options.cellCost) {
      const extra = this.options.cellCost(u, v);
      if (Number.isNaN(extra) || extra < 0 || extra === Infinity) return null;
      c = c + extra;
    }
    return c;
  }

  /** [GRAPH.ASTAR.EXPAND] over the moves of [HEX.MOVE.RULE] in hex neighbour order. */
  expand(u) {
    for (const v of this.grid.neighbours(u)) {
      if (!this.passable(v)) continue;
      const c = this.moveCost(u, v);
      if (c === null || Number.isNaN(c) || c < 0 || c === Infinity) continue;
      const g2 = this.g[u] + c;
      if (g2 === Infinity) continue;
      if (this.reached[v] && !(g2 < this.g[v])) continue; // [GRAPH.ASTAR.FIRST_PARENT]
      const h = this.estimate(v);
      if (h === Infinity) continue;
      this.g[v] = g2;
      this.reached[v] = 1;
      this.parent[v] = u;
      this.closed[v] = 0; // reopening
      this.open.push(v, g2 + h, g2);
    }
  }

  /**
   * [GRAPH.ASTAR.STEP] and [GRAPH.ASTAR.EMPTY_FIRST]; `budget` Infinity is `run`, whose
   * `cancel` (a `{ set: boolean }` or null) is read after the empty check whenever the
   * iterations done in this call are a multiple of 256, 0 included ([GRAPH.ASTAR.RUN]).
   */
  step(budget, cancel = null) {
    if (this.status !== RUNNING) return this.status;
    let done = 0;
    for (;;) {
      if (this.open.count === 0) {
        this.status = NOT_FOUND;
        return this.status;
      }
      if (done >= budget) return RUNNING;
      if (cancel !== null && done % 256 === 0 && cancel.set) return RUNNING;
      const u = this.open.pop();
      done += 1;
      this.iterations += 1;
      this.closed[u] = 1;
      if (u === this.goal) {
        this.status = FOUND;
        return this.status;
      }
      this.expand(u);
      this.expandedCount += 1;
      if (this.options.record) this.expansions.push(u); // [HEX.SEARCH.RECORD]
    }
  }

  /** [GRAPH.ASTAR.RUN] `cancel`: null, or a flag `{ set: boolean }`. */
  run(cancel = null) {
    return this.step(Infinity, cancel);
  }

  /** [GRAPH.ASTAR.PATH] / [GRAPH.ASTAR.NOT_FOUND] */
  path() {
    if (this.status !== FOUND) return [];
    const out = [];
    for (let c = this.goal; c !== -1; c = this.parent[c]) out.push(c);
    return out.reverse();
  }

  pathCost() {
    return this.status === FOUND ? this.g[this.goal] : Infinity;
  }
}

/**
 * [HEX.TIER1] `find_hex_path`: new, begin, then `step(budget)` when the options' budget is not 0,
 * else `run(None)`. Returns the `GridPath` fields; errors are those of `new` and `begin`.
 * @param {import("./hexgrid.mjs").HexGrid} grid @param {[number, number]} start
 * @param {[number, number]} goal @param {HexOptions} options
 */
export function findHexPath(grid, start, goal, options) {
  const s = new HexSearch(grid, options);
  s.begin(start, goal);
  const st = options.budget !== 0 ? s.step(options.budget) : s.run();
  const cells = s.path();
  return {
    status: st === RUNNING ? BUDGET_EXHAUSTED : st,
    algorithm: options.algorithm,
    cost: s.pathCost(),
    cells,
    points: cells.map((c) => grid.center(c)),
    expanded: s.expansions.slice(),
    expandedCount: s.expandedCount,
    iterations: s.iterations,
  };
}
