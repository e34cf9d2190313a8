// The fast paths behind the named functions (direct SIMD exports, resident
// tensors in place) must pass the same reference cases as core.run: every
// committed case of the ops they serve is run through the named function with
// plain arrays and with resident tensors, and compared with the same
// tolerances. The direct exports are counted so the test knows it used them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareCase } from '../conformance/compare.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const casesDir = join(root, 'tests/conformance/cases');
const { loadCore } = await import('normlab');
const core = await loadCore();

const served = {
  layer_norm: 'layerNorm', rms_norm: 'rmsNorm', l2_normalize: 'l2Normalize', softmax: 'softmax',
  group_norm: 'groupNorm', scaled_dot_product_attention: 'attention',
};
const firstInput = { scaled_dot_product_attention: 'q' };
const camel = (s) => s.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

// Count the direct exports' successful calls (after one call each: Emscripten
// swaps in the raw export on the first call, which would drop a wrapper).
const m = core._m;
m._nl_rows(0, 0, 0, 0, 0, 0, 0, 0);
m._nl_attention(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
let direct = 0;
for (const name of ['_nl_rows', '_nl_attention']) {
  const f = m[name];
  m[name] = (...a) => {
    const r = f(...a);
    if (r === 0) direct++;
    return r;
  };
}
core._nlRows = m._nl_rows;

function runNamed(c, resident) {
  const method = served[c.op];
  const first = firstInput[c.op] ?? 'x';
  const made = [];
  const tensor = (t) => {
    if (!resident || !t || !Array.isArray(t.shape) || t.data?.some?.((v) => typeof v !== 'number')) return t;
    try {
      const r = core.tensor(t.shape, t.data);
      made.push(r);
      return r;
    } catch {
      return t; // shapes the tensor constructor refuses go as they are: the op names them
    }
  };
  try {
    const options = {};
    for (const [name, t] of Object.entries(c.inputs ?? {})) if (name !== first) options[camel(name)] = tensor(t);
    for (const [name, v] of Object.entries(c.attrs ?? {})) options[camel(name)] = v;
    const x = tensor(c.inputs?.[first]);
    const wantShapes = Object.fromEntries(Object.entries(c.expect?.outputs ?? {}).map(([k, v]) => [k, v.shape]));
    if (resident && wantShapes.y) options.out = tensor({ shape: wantShapes.y, data: new Array(wantShapes.y.reduce((a, b) => a * b, 1)).fill(0) });
    const res = core[method](x, options);
    const outputs = {};
    if (c.op === 'scaled_dot_product_attention') {
      outputs.out = { shape: wantShapes.out, data: Array.from(res.out) };
      outputs.weights = { shape: wantShapes.weights, data: Array.from(res.weights) };
    } else {
      const data = res.data instanceof Float32Array && !(res instanceof Float32Array) ? res.data : res;
      outputs.y = { shape: wantShapes.y, data: Array.from(data) };
    }
    return { id: c.id, outputs };
  } catch (e) {
    return { id: c.id, error: { message: e.message } };
  } finally {
    for (const t of made) t.free();
  }
}

for (const file of readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort()) {
  const cases = JSON.parse(readFileSync(join(casesDir, file), 'utf8')).filter((c) => served[c.op]);
  if (!cases.length) continue;
  for (const resident of [false, true]) {
    test(`${file}: ${cases.length} cases through the named functions with ${resident ? 'resident tensors' : 'arrays'}`, () => {
      const failures = cases.flatMap((c) => compareCase(c, runNamed(c, resident)));
      assert.deepEqual(failures, [], failures.slice(0, 10).join('\n'));
    });
  }
}

test('the direct exports served most of those cases', () => {
  const total = readdirSync(casesDir).filter((f) => f.endsWith('.json'))
    .flatMap((f) => JSON.parse(readFileSync(join(casesDir, f), 'utf8')))
    .filter((c) => served[c.op] && !c.expect?.error).length;
  console.log(`direct exports: ${direct} successful calls for ${total} good cases run twice`);
  assert.ok(direct >= total, `only ${direct} direct calls for ${2 * total} runs`);
});
