#!/usr/bin/env node
// The conformance runner (docs/conformance.md):
//   node tests/conformance/run-cases.mjs CASES.json OUT.json
// Loads the shipped WASM build through the package entry `normlab`, runs every
// case and writes one result per case. A failing case becomes an `error`
// entry and the run goes on. Exits non-zero only when CASES.json cannot be read
// or the module cannot be loaded.
import { readFileSync, writeFileSync } from 'node:fs';

const [casesPath, outPath] = process.argv.slice(2);
if (!casesPath || !outPath) {
  console.error('usage: node tests/conformance/run-cases.mjs CASES.json OUT.json');
  process.exit(2);
}

let cases;
try {
  cases = JSON.parse(readFileSync(casesPath, 'utf8'));
  if (!Array.isArray(cases)) throw new Error('the file must hold a JSON array of cases');
} catch (e) {
  console.error(`run-cases: cannot read cases from ${casesPath}: ${e.message}`);
  process.exit(2);
}

let core, trainer;
try {
  const { loadCore, loadTrainer } = await import('normlab');
  core = await loadCore();
  trainer = await loadTrainer(); // the training ops live in their own module
} catch (e) {
  console.error(`run-cases: cannot load the normlab WASM module: ${e.message}`);
  process.exit(3);
}

const special = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity };
const decode = (v) => (typeof v === 'string' && v in special ? special[v] : v);

const results = cases.map((c, i) => {
  const id = c?.id ?? `case-${i}`;
  try {
    const inputs = {};
    for (const [name, t] of Object.entries(c.inputs ?? {})) {
      inputs[name] = { shape: t.shape, data: (t.data ?? []).map(decode) };
    }
    const out = (trainer.ops.includes(c.op) ? trainer : core).run(c.op, inputs, c.attrs ?? {});
    const outputs = {};
    for (const [name, t] of Object.entries(out)) outputs[name] = { shape: t.shape, data: Array.from(t.data) };
    return { id, outputs };
  } catch (e) {
    return { id, error: { message: String(e?.message ?? e) } };
  }
});

writeFileSync(outPath, JSON.stringify(results));
