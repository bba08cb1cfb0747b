// The hex grid of spec/grids.md: cells and areas (§1), space (§4), the hex grid and its moves (§6).
// Only what a hex search reads: no versions, listeners or state bytes (those are the `grids`
// family's, which this example does not claim).

/** A grid error: `class` is the [GRID.*] class the kit compares. */
export class GridError extends Error {
  /** @param {string} cls @param {string} message */
  constructor(cls, message) {
    super(`${cls}: ${message}`);
    this.name = "GridError";
    this.cls = cls;
  }
}

/** [GRID.CELL.AREA] Area 255 is the wall. */
export const WALL = 255;

const MAX_CELLS = 2 ** 26; // [GRID.SQUARE.SIZE]
const MAX_SPACE = 2 ** 21; // [GRID.SPACE.RANGE]

/**
 * [GRID.HEX.OFFSETS] The (dx, dy) of each neighbour in hex neighbour order
 * ([GRID.HEX.NEIGHBOURS]), for odd-r; index [0] is the even row (column), [1] the odd one.
 */
const ODD_R = [
  [[0, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [-1, -1]],
  [[1, -1], [1, 0], [1, 1], [0, 1], [-1, 0], [0, -1]],
];
/** [GRID.HEX.OFFSETS] odd-q: [0] the even column, [1] the odd column. */
const ODD_Q = [
  [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 0], [-1, -1]],
  [[0, -1], [1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0]],
];

export class HexGrid {
  /**
   * [GRID.HEX.SIZE] and [GRID.HEX.LAYOUT]: `invalid_size` for a side of 0 or more than 2^26
   * cells, `invalid_layout` for a layout outside 0..3. Cells start at area 0
   * ([GRID.CELL.DEFAULT]), multipliers at 1.0 ([GRID.AREA.TABLE]), the space unassigned.
   * @param {number} width @param {number} height @param {number} layout
   */
  constructor(width, height, layout) {
    if (!(width >= 1 && height >= 1 && width * height <= MAX_CELLS)) {
      throw new GridError("invalid_size", `${width} x ${height}`);
    }
    if (![0, 1, 2, 3].includes(layout)) throw new GridError("invalid_layout", `layout ${layout}`);
    this.width = width;
    this.height = height;
    this.layout = layout;
    this.cells = new Uint8Array(width * height);
    this.multipliers = new Float64Array(255).fill(1.0);
    /** [GRID.SPACE.FIELDS] origin x, origin y, cell size; all zero is unassigned. */
    this.space = [0, 0, 0];
  }

  /** [GRID.AREA.SET] `area_out_of_range` (checked first), then `invalid_multiplier`. */
  setAreaMultiplier(area, m) {
    if (!(Number.isInteger(area) && area >= 0 && area <= 254)) {
      throw new GridError("area_out_of_range", `area ${area}`);
    }
    if (!(Number.isFinite(m) && m > 0)) throw new GridError("invalid_multiplier", `multiplier ${m}`);
    this.multipliers[area] = m;
  }

  /** [GRID.SPACE.RANGE] Unless all are zero: finite origins within 2^21, 0 < size <= 2^21. */
  setSpace(ox, oy, s) {
    const unassigned = ox === 0 && oy === 0 && s === 0; // -0.0 counts as zero
    if (!unassigned) {
      for (const [name, o] of [["origin_x", ox], ["origin_y", oy]]) {
        if (!(Number.isFinite(o) && Math.abs(o) <= MAX_SPACE)) {
          throw new GridError("invalid_space", `${name} ${o}`);
        }
      }
      if (!(s > 0 && s <= MAX_SPACE)) throw new GridError("invalid_space", `cell_size ${s}`);
    }
    this.space = [ox, oy, s];
  }

  /** [GRID.EDIT.RANGE] */
  setCell(x, y, area) {
    if (x >= this.width) throw new GridError("cell_out_of_range", `x ${x}`);
    if (y >= this.height) throw new GridError("cell_out_of_range", `y ${y}`);
    this.cells[y * this.width + x] = area;
  }

  /** [GRID.AREA.TABLE] The multiplier of an area 0..254. */
  multiplier(area) {
    return this.multipliers[area];
  }

  /** The smallest multiplier of areas 0..=254 ([GRID.HEX.ESTIMATE]'s `mmin`). */
  minMultiplier() {
    let m = Infinity;
    for (const v of this.multipliers) if (v < m) m = v;
    return m;
  }

  /**
   * [GRID.HEX.NEIGHBOURS] [GRID.HEX.OFFSETS] The neighbours of `cell` inside the grid, in hex
   * neighbour order. Even-r and even-q use the odd lists the other way round.
   * @param {number} cell @returns {number[]}
   */
  neighbours(cell) {
    const x = cell % this.width;
    const y = (cell - x) / this.width;
    let list;
    if (this.layout <= 1) list = ODD_R[(y & 1) ^ this.layout];
    else list = ODD_Q[(x & 1) ^ (this.layout - 2)];
    const out = [];
    for (const [dx, dy] of list) {
      const nx = x + dx;
      const ny = y + dy;
      if (nx >= 0 && ny >= 0 && nx < this.width && ny < this.height) out.push(ny * this.width + nx);
    }
    return out;
  }

  /** [GRID.HEX.AXIAL] Axial (q, r) of cell (x, y); every division is of an even number. */
  axial(x, y) {
    switch (this.layout) {
      case 0: return [x - (y - (y & 1)) / 2, y];
      case 1: return [x - (y + (y & 1)) / 2, y];
      case 2: return [x, y - (x - (x & 1)) / 2];
      default: return [x, y - (x + (x & 1)) / 2];
    }
  }

  /** [GRID.HEX.DISTANCE] (|dq| + |dr| + |dq + dr|) / 2 between two cell indexes. */
  distance(a, b) {
    const w = this.width;
    const [qa, ra] = this.axial(a % w, Math.floor(a / w));
    const [qb, rb] = this.axial(b % w, Math.floor(b / w));
    const dq = qa - qb;
    const dr = ra - rb;
    return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
  }

  /**
   * [GRID.SPACE.CENTER] / [DEBUG.POINTS] The world point of cell index `c`:
   * (ox + (x + 0.5) * s, oy + (y + 0.5) * s), with (0, 0, 1) when unassigned.
   * @param {number} c @returns {[number, number]}
   */
  center(c) {
    const x = c % this.width;
    const y = Math.floor(c / this.width);
    let [ox, oy, s] = this.space;
    if (ox === 0 && oy === 0 && s === 0) [ox, oy, s] = [0, 0, 1];
    return [ox + (x + 0.5) * s, oy + (y + 0.5) * s];
  }
}
