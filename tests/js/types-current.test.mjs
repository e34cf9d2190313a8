// The per-operation TypeScript declarations (web/core/ops.generated.d.ts) are
// generated from the core's registry by scripts/gen-types.mjs: the committed
// file must be what the built core generates now, and the facts the generator
// adds to the registry (integer outputs, outputs an op may leave out) must
// agree with what the core returns for every reference case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bothModules, generateTypes, outputPath } from '../../scripts/gen-types.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const core = await bothModules(); // the core's and the training module's registries

test('web/core/ops.generated.d.ts is current with the core registry', async () => {
  const want = await generateTypes(core);
  const got = readFileSync(outputPath, 'utf8');
  if (got === want) return;
  const a = got.split('\n'),
    b = want.split('\n');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  assert.fail(
    'web/core/ops.generated.d.ts is out of date with the core registry: run `node scripts/gen-types.mjs` ' +
      `(after bash build-wasm.sh).\nFirst difference at line ${i + 1}:\n  committed: ${a[i] ?? '(end of file)'}\n  generated: ${b[i] ?? '(end of file)'}`,
  );
});

test('integer and optional outputs in the declarations match what the core returns for every reference case', () => {
  const dir = join(root, 'tests/conformance/cases');
  const cases = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
  const decode = (v) => (typeof v === 'string' ? Number(v) : v);
  let checked = 0;
  for (const c of cases) {
    if (c.expect?.error || !core.ops.includes(c.op)) continue;
    const inputs = {};
    for (const [name, t] of Object.entries(c.inputs ?? {}))
      inputs[name] = { shape: t.shape, data: (t.data ?? []).map(decode) };
    let out;
    try {
      out = core.run(c.op, inputs, c.attrs ?? {});
    } catch {
      continue; // the conformance tests judge errors
    }
    for (const { name, integer, when } of core.spec(c.op).outputSpecs) {
      const optional = Boolean(when);
      if (!(name in out)) {
        assert.ok(
          optional,
          `${c.id}: ${c.op} left out ${name}, which the declarations give as always present: fix its outputs in the op's table row (cpp/src/ops_*.cpp), rebuild and run \`node scripts/gen-types.mjs\``,
        );
        continue;
      }
      assert.equal(
        Array.isArray(out[name].data),
        integer,
        `${c.id}: ${c.op}.${name} ${integer ? 'is declared' : 'is not declared'} as integers: fix its outputs in the op's table row (cpp/src/ops_*.cpp), rebuild and run \`node scripts/gen-types.mjs\``,
      );
      checked++;
    }
  }
  assert.ok(checked > 1000, `only ${checked} outputs checked`);
});
