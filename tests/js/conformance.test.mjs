// The WASM build under Node, through the conformance runner exactly as a user
// runs it: every committed reference case (PyTorch / NumPy) must pass.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareCase } from '../conformance/compare.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const casesDir = join(root, 'tests/conformance/cases');
const runner = join(root, 'tests/conformance/run-cases.mjs');
const outDir = mkdtempSync(join(tmpdir(), 'normlab-conformance-'));

const byOp = new Map(); // op -> {total, failures: []}
for (const file of readdirSync(casesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const cases = JSON.parse(readFileSync(join(casesDir, file), 'utf8'));
  const out = join(outDir, file);
  execFileSync(process.execPath, [runner, join(casesDir, file), out], { stdio: 'inherit' });
  const results = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(results.length, cases.length, `${file}: one result per case`);
  cases.forEach((c, i) => {
    const entry = byOp.get(c.op) ?? { total: 0, failures: [], errors: 0 };
    entry.total++;
    if (c.expect?.error) entry.errors++;
    entry.failures.push(...compareCase(c, results[i]));
    byOp.set(c.op, entry);
  });
}

const lines = [];
for (const [op, e] of [...byOp].sort()) {
  const failedCases = new Set(e.failures.map((f) => f.split(' ')[0])).size;
  lines.push(`${op}: ${e.total - failedCases}/${e.total} cases (${e.errors} bad-input)`);
  test(`conformance: ${op} matches its references`, () => {
    assert.deepEqual(e.failures, [], e.failures.slice(0, 10).join('\n'));
  });
}
console.log(lines.join('\n'));

test('conformance: the runner reports unreadable cases and keeps going after bad ones', () => {
  assert.throws(
    () =>
      execFileSync(process.execPath, [runner, join(outDir, 'missing.json'), join(outDir, 'x.json')], { stdio: 'pipe' }),
    (e) => e.status !== 0 && /cannot read cases/.test(String(e.stderr)),
  );
});
