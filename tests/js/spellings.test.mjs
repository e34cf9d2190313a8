// One door: every reference case of every op, run through its camelCase
// function (generated from the core's registry) with plain arrays and with
// resident tensors, must give what core.run gives — the same numbers and the
// same errors, compared against the committed PyTorch/NumPy references with
// the conformance tolerances.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareCase } from '../conformance/compare.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const casesDir = join(root, 'tests/conformance/cases');
const { loadCore, loadTrainer } = await import('normlab');
const cores = [await loadCore(), await loadTrainer()]; // every op lives in exactly one of them
const coreOf = (op) => cores.find((c) => c.ops.includes(op));
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

// The case's JSON numbers ("NaN" and friends as strings) as a Float32Array.
const values = (data) => Float32Array.from(data, (v) => (typeof v === 'string' ? Number(v) : v));

function runNamed(c, resident) {
  const core = coreOf(c.op);
  const spec = core.spec(c.op);
  const first = spec.inputs[0]?.name;
  const made = [];
  const tensor = (t) => {
    if (!t || !Array.isArray(t.shape)) return t;
    if (!resident) return { shape: t.shape, data: values(t.data) };
    try {
      const r = core.tensor(t.shape, values(t.data));
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
    const want = c.expect?.outputs ?? {};
    const firstOut = spec.outputs[0];
    if (resident && want[firstOut] && firstOut === 'y') {
      options.out = core.tensor(want[firstOut].shape);
      made.push(options.out);
    }
    const res = first ? core[camel(c.op)](tensor(c.inputs?.[first]), options) : core[camel(c.op)](options);
    const outputs = {};
    const dataOf = (d) => Array.from(d?.data instanceof Float32Array ? d.data : d);
    if (spec.outputs.length === 1) outputs[firstOut] = { shape: want[firstOut]?.shape, data: dataOf(res) };
    else
      for (const name of Object.keys(want))
        outputs[name] = { shape: want[name].shape, data: dataOf(res[camel(name)] ?? []) };
    return { id: c.id, outputs };
  } catch (e) {
    return { id: c.id, error: { message: e.message } };
  } finally {
    for (const t of made) t.free();
  }
}

const files = readdirSync(casesDir)
  .filter((f) => f.endsWith('.json'))
  .sort();
let runs = 0;
for (const file of files) {
  // (cases of unknown ops test core.run's names; they have no camelCase function)
  const cases = JSON.parse(readFileSync(join(casesDir, file), 'utf8')).filter((c) => coreOf(c.op));
  for (const resident of [false, true]) {
    test(`${file}: ${cases.length} cases through the camelCase functions with ${resident ? 'resident tensors' : 'arrays'}`, () => {
      const failures = cases.flatMap((c) => compareCase(c, runNamed(c, resident)));
      runs += cases.length;
      assert.deepEqual(failures, [], failures.slice(0, 10).join('\n'));
    });
  }
}

test('every op of the registry has its camelCase function, in exactly one module', () => {
  for (const core of cores) for (const op of core.ops) assert.equal(typeof core[camel(op)], 'function', camel(op));
  assert.deepEqual(
    cores[0].ops.filter((op) => cores[1].ops.includes(op)),
    [],
  );
  assert.ok(cores[1].ops.includes('train_step') && !cores[0].ops.includes('train_step'));
  assert.equal(cores[0].attention, cores[0].attention);
  assert.ok(runs > 2000, `${runs} runs`);
});
