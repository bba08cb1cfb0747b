// The open set of spec/state.md [STATE.HEAP.ARRAY] ... [STATE.HEAP.UPDATE]: a 0-based array binary
// heap holding each node at most once, with in-place updates. Only its pop order is observable in
// a hex search ([HEX.SEARCH.GRAPH]), but this is the heap the clauses give.

export class OpenSet {
  /** @param {number} nodeCount */
  constructor(nodeCount) {
    /** slot -> node */
    this.nodes = [];
    this.f = [];
    this.g = [];
    /** node -> slot, or -1 when not in the heap */
    this.slot = new Int32Array(nodeCount).fill(-1);
  }

  get count() {
    return this.nodes.length;
  }

  /** [STATE.HEAP.ARRAY] Entry at slot a precedes entry at slot b: smaller f, then larger g, then smaller node. */
  precedes(a, b) {
    if (this.f[a] !== this.f[b]) return this.f[a] < this.f[b];
    if (this.g[a] !== this.g[b]) return this.g[a] > this.g[b];
    return this.nodes[a] < this.nodes[b];
  }

  swap(a, b) {
    for (const arr of [this.nodes, this.f, this.g]) [arr[a], arr[b]] = [arr[b], arr[a]];
    this.slot[this.nodes[a]] = a;
    this.slot[this.nodes[b]] = b;
  }

  /** [STATE.HEAP.UP] */
  up(i) {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.precedes(i, p)) return;
      this.swap(i, p);
      i = p;
    }
  }

  /** [STATE.HEAP.DOWN] */
  down(i) {
    for (;;) {
      let c = 2 * i + 1;
      if (c >= this.count) return;
      if (c + 1 < this.count && this.precedes(c + 1, c)) c += 1;
      if (!this.precedes(c, i)) return;
      this.swap(c, i);
      i = c;
    }
  }

  /** [STATE.HEAP.PUSH] a new node; [STATE.HEAP.UPDATE] a node already in the heap. */
  push(node, f, g) {
    const at = this.slot[node];
    if (at < 0) {
      const i = this.count;
      this.nodes.push(node);
      this.f.push(f);
      this.g.push(g);
      this.slot[node] = i;
      this.up(i);
      return;
    }
    const oldF = this.f[at];
    const oldG = this.g[at];
    this.f[at] = f;
    this.g[at] = g;
    // Does the new entry precede the old one (same node, so f then g decide)?
    const earlier = f < oldF || (f === oldF && g > oldG);
    if (earlier) this.up(at);
    else this.down(at);
  }

  /** [STATE.HEAP.POP] Takes slot 0; the last entry moves there and sifts down. */
  pop() {
    const node = this.nodes[0];
    this.slot[node] = -1;
    const last = this.count - 1;
    if (last > 0) {
      this.nodes[0] = this.nodes[last];
      this.f[0] = this.f[last];
      this.g[0] = this.g[last];
      this.slot[this.nodes[0]] = 0;
    }
    this.nodes.pop();
    this.f.pop();
    this.g.pop();
    if (last > 0) this.down(0);
    return node;
  }
}
