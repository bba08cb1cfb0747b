#!/usr/bin/env node
// Driver template of a OnePath 1.1.0 port in JavaScript (Node 20, ES module, no dependencies),
// written by `onepath-conformance port init --lang ts` ([CONF.CLI.PORT_INIT]).
//
// It speaks the driver protocol of spec/driver.md, version 2, on stdin/stdout: the handshake
// ([DRIVER.MSG.HELLO]), then one request per line ([DRIVER.MSG.REQUEST]) answered in order
// ([DRIVER.PROC.ORDER]) with exactly one reply line ([DRIVER.MSG.REPLY]). As written it claims no
// family and answers every op `unimplemented` ([DRIVER.MSG.UNIMPLEMENTED]).
//
// To fill in a family: implement its ops in OPS below (return the `ok` payload; return
// undefined for what the port does not do yet), then add the family to CLAIMS.
// The request and reply shapes are in protocol.d.ts (generated from spec/schemas/driver-v2,
// [DRIVER.SCHEMA]); the JSDoc types below point into it, so an editor with TypeScript support
// checks a handler without any compiler step.
//
// Run:  onepath-conformance certify --port 'node DIR/driver.mjs' --family hex-search

import { createInterface } from "node:readline";
import { describe, runLattice } from "./requests.mjs";

const PROTOCOL = "onepath-driver";
const PROTOCOL_VERSION = 2;
const SPEC_VERSION = "1.1.0";
const PORT_NAME = "onepath-ts-hex"; // your port's name
const PORT_VERSION = "0.1.0"; // your port's version

/**
 * The claims of the handshake: family -> level 1..4 ([DRIVER.LEVEL.LIST]). Families: graph,
 * grids, grid-search, replanning, flow-field, hex-search, voxel-search, hpa, grid-bidi
 * ([DRIVER.LEVEL.FAMILY]). Claim a family only when its ops answer; e.g. { "hex-search": 4 }.
 * @type {import("./protocol.d.ts").HelloReply["claims"]}
 */
const CLAIMS = { "hex-search": 4 };

// ------------------------------------------------------------------------------------ ops
//
// One handler per op of spec/driver.md section 3. A handler gets the request's `args` and
// returns the `ok` payload (a plain object), or undefined for `unimplemented`. A thrown Error
// becomes an `error` reply ([DRIVER.MSG.REPLY]) and the driver keeps serving.
// Family of each op in brackets ([DRIVER.LEVEL.FAMILY]).

/** @typedef {import("./protocol.d.ts")} P */

/** @type {Record<string, (args: any, request: P["Request"]) => object | undefined>} */
const OPS = {
  /** [graph] [DRIVER.OP.RUN_CASE] @param {P["RunCaseArgs"]} args @returns {P["OkRunCase"] | undefined} */
  run_case: (args) => undefined,
  /** [graph] [DRIVER.OP.RUN_SLICED] @param {P["SlicedArgs"]} args @returns {P["OkRunSliced"] | undefined} */
  run_sliced: (args) => undefined,
  /** [graph] [DRIVER.OP.BUILD_LINKS] @param {P["LinkArgs"]} args @returns {P["OkBuildLinks"] | undefined} */
  build_links: (args) => undefined,
  /** [graph] [DRIVER.OP.RUN_HOOKED] @param {P["HookedArgs"]} args @returns {P["OkRunHooked"] | undefined} */
  run_hooked: (args) => undefined,
  /** [graph] [DRIVER.OP.RUN_CANCELLED] @param {P["CancelArgs"]} args @returns {P["OkRunCancelled"] | undefined} */
  run_cancelled: (args) => undefined,
  /** [graph] [DRIVER.OP.RUN_OPS] @param {P["OpsArgs"]} args @returns {P["OkRunOps"] | undefined} */
  run_ops: (args) => undefined,
  /** [graph] [DRIVER.OP.LANDMARKS] @param {P["CaseArgs"]} args @returns {P["OkBuildLandmarks"] | undefined} */
  build_landmarks: (args) => undefined,
  /** [graph] [DRIVER.OP.LANDMARKS] @param {P["BoundsArgs"]} args @returns {P["OkLowerBounds"] | undefined} */
  lower_bounds: (args) => undefined,
  /** [graph] [DRIVER.OP.LANDMARKS] @param {P["OplmArgs"]} args @returns {P["OkDeserializeOplm"] | undefined} */
  deserialize_oplm: (args) => undefined,
  /** [by kind: graph, grids, grid-search, replanning, flow-field] [DRIVER.OP.STATE]
   *  @param {P["StateRunArgs"]} args @returns {P["OkStateRun"] | undefined} */
  state_run: (args) => undefined,
  /** [grid-search] [DRIVER.OP.RUN_GRID] @param {P["GridRunArgs"]} args @returns {P["OkRunGrid"] | undefined} */
  run_grid: (args) => undefined,
  /** [replanning] [DRIVER.OP.RUN_REPLAN] @param {P["ReplanRequest"]} args @returns {P["OkRunReplan"] | undefined} */
  run_replan: (args) => undefined,
  /** [flow-field] [DRIVER.OP.RUN_FLOW] @param {P["FlowRequest"]} args @returns {P["OkRunFlow"] | undefined} */
  run_flow: (args) => undefined,
  /** [hex-search: args.hex; voxel-search: args.voxel] [DRIVER.OP.RUN_LATTICE]
   *  @param {P["LatticeRequest"]} args @returns {P["OkRunLattice"] | undefined} */
  run_lattice: (args) => runLattice(args, expectMembers, bitsOf),
  /** [hpa] [DRIVER.OP.RUN_HPA] @param {P["HpaRequest"]} args @returns {P["OkRunHpa"] | undefined} */
  run_hpa: (args) => undefined,
  /** [grid-bidi] [DRIVER.OP.RUN_BIDI] @param {P["BidiRequest"]} args @returns {P["OkRunBidi"] | undefined} */
  run_bidi: (args) => undefined,
  /** [the target's family] [DRIVER.OP.DESCRIBE] @param {P["DescribeRequest"]} args @returns {P["OkDescribe"] | undefined} */
  describe: (args) => describe(args, expectMembers, bitsOf),
  /** [grids] [DRIVER.OP.SYNCTEST] @param {P["Session"]} args @returns {P["OkSynctest"] | undefined} */
  synctest: (args) => undefined,
};

// ------------------------------------------------------------------------------ helpers

/**
 * Checks that `obj` is an object with exactly the members `names` (none missing, none unknown)
 * and returns it: the kit sends every member ([DRIVER.MSG.STRICT]), so a difference means the
 * port reads a protocol it does not speak. Use it in handlers for the args you read.
 * @param {unknown} obj @param {string[]} names @param {string} where
 * @returns {Record<string, any>}
 */
export function expectMembers(obj, names, where) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) {
    throw new Error(`${where}: not an object`);
  }
  for (const k of Object.keys(obj)) {
    if (!names.includes(k)) throw new Error(`${where}: unknown member ${JSON.stringify(k)}`);
  }
  for (const k of names) {
    if (!Object.prototype.hasOwnProperty.call(obj, k)) {
      throw new Error(`${where}: missing member ${JSON.stringify(k)}`);
    }
  }
  return /** @type {Record<string, any>} */ (obj);
}

/** [DRIVER.ENC.REAL] 16 lowercase hex digits of a binary64 bit pattern -> number. */
export function realOf(hex) {
  if (!/^[0-9a-f]{16}$/.test(hex)) throw new Error(`not a real bit pattern: ${hex}`);
  const v = new DataView(new ArrayBuffer(8));
  v.setBigUint64(0, BigInt("0x" + hex));
  return v.getFloat64(0);
}

/** [DRIVER.ENC.REAL] number -> 16 lowercase hex digits of its bit pattern (keeps -0.0, NaN bits). */
export function bitsOf(x) {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  return v.getBigUint64(0).toString(16).padStart(16, "0");
}

/**
 * Strict JSON reader: JSON.parse accepts a member twice and keeps the last; this reader rejects
 * it at any depth, so no request is read differently from what the kit sent. Integers beyond
 * 2^53 come back as BigInt (exact), other numbers as numbers.
 * @param {string} text
 */
export function parseStrict(text) {
  let i = 0;
  const fail = (what) => {
    throw new Error(`invalid JSON at byte ${i}: ${what}`);
  };
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i])) i++;
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      const out = {};
      ws();
      if (text[i] === "}") return i++, out;
      for (;;) {
        ws();
        if (text[i] !== '"') fail("expected a member name");
        const k = string();
        if (Object.prototype.hasOwnProperty.call(out, k)) fail(`duplicate member ${JSON.stringify(k)}`);
        ws();
        if (text[i++] !== ":") fail("expected ':'");
        Object.defineProperty(out, k, { value: value(), enumerable: true, writable: true, configurable: true });
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") return i++, out;
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      const out = [];
      ws();
      if (text[i] === "]") return i++, out;
      for (;;) {
        out.push(value());
        ws();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") return i++, out;
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
      if (text.startsWith(word, i)) return (i += word.length), v;
    }
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === "" || m[0] === "-") fail("unexpected character");
    i += m[0].length;
    const n = Number(m[0]);
    if (!m[2] && !m[3] && !Number.isSafeInteger(n)) return BigInt(m[0]);
    return n;
  };
  const string = () => {
    const start = i;
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      else if (text.charCodeAt(i) < 0x20) fail("control character in a string");
      i++;
    }
    if (i >= text.length) fail("unterminated string");
    i++;
    return JSON.parse(text.slice(start, i));
  };
  const v = value();
  ws();
  if (i !== text.length) fail("trailing characters");
  return v;
}

// ----------------------------------------------------------------------------- protocol

/** [DRIVER.PROC.LINES] One JSON object per line, flushed (stdout writes to a pipe are
 *  synchronous in Node on Linux and macOS). */
function send(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

/** [DRIVER.MSG.REPLY] Exactly two members: id and one of ok / unimplemented / error. */
function reply(id, kind, value) {
  if (kind === "ok" && (value === null || typeof value !== "object" || Array.isArray(value))) {
    kind = "error";
    value = "driver bug: an ok payload must be a JSON object";
  }
  send({ id, [kind]: value });
}

function die(message) {
  process.stderr.write(`driver: ${message}\n`);
  process.exit(2);
}

/** [DRIVER.MSG.HELLO] The kit's first line, read strictly; the driver's handshake. */
function handshake(line) {
  let h;
  try {
    h = expectMembers(parseStrict(line), ["protocol", "version", "spec_version"], "handshake");
  } catch (e) {
    die(`bad handshake: ${e.message}`);
  }
  if (h.protocol !== PROTOCOL || h.version !== PROTOCOL_VERSION || h.spec_version !== SPEC_VERSION) {
    die(`this driver speaks ${PROTOCOL} ${PROTOCOL_VERSION} for spec ${SPEC_VERSION}, the kit sent ${line.trim()}`);
  }
  send({
    protocol: PROTOCOL,
    version: PROTOCOL_VERSION,
    port: PORT_NAME,
    port_version: PORT_VERSION,
    spec_version: SPEC_VERSION,
    claims: CLAIMS,
  });
}

/** [DRIVER.MSG.REQUEST] One request, read strictly, dispatched, answered. */
function serve(line) {
  let req;
  try {
    req = parseStrict(line);
  } catch (e) {
    die(`unreadable request: ${e.message}`); // no id to answer: the kit sees a crash
  }
  const id = req !== null && typeof req === "object" ? req.id : undefined;
  if (!Number.isSafeInteger(id) || id < 1) die(`request without a positive integer id: ${line.slice(0, 200)}`);
  try {
    expectMembers(req, ["id", "case", "op", "args"], `request ${id}`);
    if (typeof req.case !== "string") throw new Error(`request ${id}: case is not a string`);
    if (typeof req.op !== "string") throw new Error(`request ${id}: op is not a string`);
    if (!Object.prototype.hasOwnProperty.call(OPS, req.op)) {
      throw new Error(`request ${id}: unknown op ${JSON.stringify(req.op)} (this driver speaks protocol ${PROTOCOL_VERSION})`);
    }
    const ok = OPS[req.op](req.args, req);
    if (ok === undefined) reply(id, "unimplemented", true);
    else reply(id, "ok", ok);
  } catch (e) {
    reply(id, "error", e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }
}

async function main() {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let first = true;
  for await (const line of rl) {
    if (first) {
      first = false;
      handshake(line);
    } else {
      serve(line);
    }
  }
  process.exit(0); // [DRIVER.PROC.EOF]
}

main();
