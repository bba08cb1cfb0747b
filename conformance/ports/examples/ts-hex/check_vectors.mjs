#!/usr/bin/env node
// Runs the committed hex-search vectors (vectors/hex-search/HEX-*.json, [CONF.LATTICE.VECTOR]) and
// the debug vectors with a `hex` target (vectors/debug/, [CONF.DEBUG.VECTOR]) through this
// example's handlers, without the kit, and prints each reply that differs from the one of record.
// A port author's first loop while filling in the family; certify is the judge.
//
//   node check_vectors.mjs [VECTORS_DIR]     (default: the checkout's vectors/)
// Exit 0 when every reply matches, 1 otherwise.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, runLattice } from "./requests.mjs";

const root = process.argv[2] ?? new URL("../../../../vectors/", import.meta.url).pathname;

/** Exactly these members, as the driver's expectMembers. */
function expectMembers(obj, names, where) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) throw new Error(`${where}: not an object`);
  for (const k of Object.keys(obj)) if (!names.includes(k)) throw new Error(`${where}: unknown member ${k}`);
  for (const k of names) if (!Object.hasOwn(obj, k)) throw new Error(`${where}: missing member ${k}`);
  return obj;
}

/** [DRIVER.ENC.REAL] */
function bitsOf(x) {
  const v = new DataView(new ArrayBuffer(8));
  v.setFloat64(0, x);
  return v.getBigUint64(0).toString(16).padStart(16, "0");
}

let checked = 0;
let differ = 0;
for (const [folder, handler, wanted] of [
  ["hex-search", runLattice, () => true],
  ["debug", describe, (request) => "hex" in request],
]) {
  for (const file of readdirSync(join(root, folder)).filter((f) => f.endsWith(".json")).sort()) {
    const vector = JSON.parse(readFileSync(join(root, folder, file), "utf8"));
    for (const c of vector.cases) {
      if (!wanted(c.request)) continue;
      checked += 1;
      let got;
      try {
        got = handler(c.request, expectMembers, bitsOf);
      } catch (e) {
        got = { thrown: String(e) };
      }
      if (JSON.stringify(got) !== JSON.stringify(c.expected)) {
        differ += 1;
        console.log(`${vector.id}: differs\n  expected ${JSON.stringify(c.expected).slice(0, 400)}\n  found    ${JSON.stringify(got).slice(0, 400)}`);
      }
    }
  }
}
console.log(`${checked} vectors, ${differ} differ`);
process.exit(differ === 0 && checked > 0 ? 0 : 1);
