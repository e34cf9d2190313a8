// `npm test`: every tier, each on the artifact it tests, then one summary.
//   1. build     the WASM module (incremental) — the shipped artifact
//   2. native    the C++ core and its Catch2 suite (ctest)
//   3. wasm      the WASM module under Node: API tests and every conformance case
//   4. browser   the figures in Debian's Chromium (Playwright)
// Prints "summary: N passed, N failed" last; exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.slice(2);
const results = [];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  process.stdout.write(r.stdout ?? '');
  process.stderr.write(r.stderr ?? '');
  return r;
}

function tier(name, fn) {
  if (only.length && !only.includes(name)) return;
  console.log(`\n=== ${name} ===`);
  const t0 = Date.now();
  const { passed, failed, ok } = fn();
  results.push({ name, passed, failed, ok, seconds: (Date.now() - t0) / 1000 });
}

function nodeTests(dir) {
  const r = run(process.execPath, ['--test', '--test-reporter=spec', dir]);
  const num = (label) => Number((r.stdout.match(new RegExp(`ℹ ${label} (\\d+)`)) ?? [])[1] ?? 0);
  return { passed: num('pass'), failed: num('fail') + num('cancelled'), ok: r.status === 0 && num('tests') > 0 };
}

tier('build', () => {
  const r = run('bash', ['build-wasm.sh']);
  return { passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, ok: r.status === 0 };
});

tier('native', () => {
  let r = run('cmake', ['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release']);
  if (r.status === 0) r = run('cmake', ['--build', 'build/native', '-j2']);
  if (r.status !== 0) return { passed: 0, failed: 1, ok: false };
  r = run('ctest', ['--test-dir', 'build/native', '--output-on-failure']);
  const m = r.stdout.match(/(\d+)% tests passed, (\d+) tests failed out of (\d+)/);
  const total = m ? Number(m[3]) : 0, failed = m ? Number(m[2]) : 1;
  return { passed: total - failed, failed, ok: r.status === 0 && total > 0 };
});

tier('types', () => {
  const r = run(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tests/types/tsconfig.json']);
  if (r.status === 0) console.log('tsc: the declarations check against tests/types/usage.ts');
  return { passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, ok: r.status === 0 };
});

tier('wasm', () => nodeTests('tests/js/'));
tier('browser', () => nodeTests('tests/browser/'));

console.log('\n=== results ===');
for (const r of results) {
  console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(8)} ${r.passed} passed, ${r.failed} failed (${r.seconds.toFixed(1)} s)`);
}
const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
const allOk = results.every((r) => r.ok);
console.log(`summary: ${passed} passed, ${failed + (allOk || failed ? 0 : 1)} failed`);
process.exit(allOk ? 0 : 1);
