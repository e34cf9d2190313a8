// `npm test`: every tier, each on the artifact it tests, then one summary.
//   1. build     the WASM module (incremental) — the shipped artifact
//   2. native    the C++ core and its Catch2 suite (ctest)
//      sanitize  the same suite under ASan + UBSan
//      fuzz      libFuzzer over run_op: regression inputs, then FUZZ_SECONDS (30) of fuzzing
//      types     tsc over the declarations (React, Preact, Solid, Vue);  lint  ESLint, Prettier, clang-format
//   3. wasm      the WASM module under Node: API tests and every conformance case
//   4. browser   the figures in Debian's Chromium (Playwright)
//   5. package   npm pack, SSR imports, and sites built from the tarball: Vite, VitePress,
//                MkDocs Material, Docusaurus, Astro
// `node scripts/test.mjs quick` (npm run test:quick) is the check before a commit: build,
// native, wasm and the browser files in QUICK_BROWSER.
// Prints "summary: N passed, N failed" last; exits non-zero on any failure.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { run as runTests } from 'node:test';
import { spec } from 'node:test/reporters';
import { launchServer, SHARED_ENV } from './browser.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// `node scripts/test.mjs --in-order N FILE...`: the test files N at a time in the order given, with the spec
// reporter (nodeTests' `ordered`: node --test sorts its files, the test runner's run() keeps their order).
if (process.argv[2] === '--in-order') {
  const [concurrency, ...files] = process.argv.slice(3);
  let failed = false;
  const stream = runTests({ files, concurrency: Number(concurrency) }).on('test:fail', () => (failed = true));
  for await (const text of stream.compose(spec)) process.stdout.write(text);
  process.exit(failed ? 1 : 0);
}
// The few browser files a developer runs before a commit: every figure drawn on the
// article page, the page itself, and the embeddings users copy.
const QUICK_BROWSER = ['tests/browser/figures.test.mjs', 'tests/browser/page.test.mjs', 'tests/browser/embed.test.mjs'];
const quick = process.argv.includes('quick');
const only = quick ? ['build', 'native', 'lint', 'wasm', 'browser'] : process.argv.slice(2);
const results = [];
const started = Date.now();

// Commands run asynchronously: the shared Chromium's server lives in this process
// and must answer while the test files run.
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      process.stderr.write(d);
    });
    child.on('error', (e) => {
      stderr += String(e);
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function tier(name, fn) {
  if (only.length && !only.includes(name)) return;
  console.log(`\n=== ${name} ===`);
  const t0 = Date.now();
  const { passed, failed, ok, detail = [] } = await fn();
  results.push({ name, passed, failed, ok, detail, seconds: (Date.now() - t0) / 1000 });
}

async function nodeTests(files, { concurrency = 1, env = process.env, ordered = false } = {}) {
  const r = await run(
    process.execPath,
    ordered
      ? [fileURLToPath(import.meta.url), '--in-order', String(concurrency), ...files.map((f) => join(root, f))]
      : ['--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...files],
    { env },
  );
  const num = (label) => Number((r.stdout.match(new RegExp(`ℹ ${label} (\\d+)`)) ?? [])[1] ?? 0);
  // The names of failing tests, repeated under the results: a log's tail is often all one gets to see.
  const detail = [...new Set((r.stdout.match(/^\s*✖ .*$/gm) ?? []).map((l) => l.trim()))].slice(0, 12);
  return {
    passed: num('pass'),
    failed: num('fail') + num('cancelled'),
    ok: r.status === 0 && num('tests') > 0,
    detail,
  };
}

await tier('build', async () => {
  const r = await run('bash', ['build-wasm.sh']);
  return { passed: r.status === 0 ? 1 : 0, failed: r.status === 0 ? 0 : 1, ok: r.status === 0 };
});

await tier('native', async () => {
  let r = await run('cmake', ['-S', '.', '-B', 'build/native', '-DCMAKE_BUILD_TYPE=Release']);
  if (r.status === 0) r = await run('cmake', ['--build', 'build/native', '-j2']);
  if (r.status !== 0) return { passed: 0, failed: 1, ok: false };
  r = await run('ctest', ['--test-dir', 'build/native', '--output-on-failure', '-j2']);
  const m = r.stdout.match(/(\d+)% tests passed, (\d+) tests failed out of (\d+)/);
  const total = m ? Number(m[3]) : 0,
    failed = m ? Number(m[2]) : 1;
  return { passed: total - failed, failed, ok: r.status === 0 && total > 0 };
});

// The sanitize and fuzz tiers share one build of the sources (clang, ASan + UBSan, and
// libFuzzer's coverage): build/asan holds the Catch2 suite and the fuzzer.
const configureAsan = () =>
  run('cmake', [
    '-S',
    '.',
    '-B',
    'build/asan',
    '-DNORMLAB_SANITIZE=ON',
    '-DNORMLAB_FUZZ=ON',
    '-DCMAKE_CXX_COMPILER=clang++',
    '-DCMAKE_BUILD_TYPE=RelWithDebInfo',
  ]);

await tier('sanitize', async () => {
  // The Catch2 suite again, built with AddressSanitizer + UndefinedBehaviorSanitizer.
  let r = await configureAsan();
  if (r.status === 0) r = await run('cmake', ['--build', 'build/asan', '-j2', '--target', 'normlab_tests']);
  if (r.status !== 0) return { passed: 0, failed: 1, ok: false };
  r = await run('build/asan/normlab_tests', [], {
    env: {
      ...process.env,
      ASAN_OPTIONS: 'detect_leaks=1:abort_on_error=1',
      UBSAN_OPTIONS: 'print_stacktrace=1:halt_on_error=1',
    },
  });
  const m =
    r.stdout.match(/test cases: +(\d+)(?: \| +(\d+) passed)?(?: \| +(\d+) failed)?/) ??
    r.stdout.match(/All tests passed \((\d+) assertions in (\d+) test cases\)/);
  const cases = m ? Number(m[0].startsWith('All') ? m[2] : m[1]) : 0;
  const failed = m && !m[0].startsWith('All') ? Number(m[3] ?? 0) : 0;
  console.log(`sanitizers: ${cases - failed} of ${cases} Catch2 test cases pass under ASan+UBSan (leak detection on)`);
  return {
    passed: cases - failed,
    failed: r.status === 0 ? failed : Math.max(failed, 1),
    ok: r.status === 0 && cases > 0,
  };
});

await tier('fuzz', async () => {
  // libFuzzer over run_op: every past crash input, then a bounded run from the committed corpus.
  const seconds = Number(process.env.FUZZ_SECONDS ?? 30);
  let r = await configureAsan();
  if (r.status === 0) r = await run('cmake', ['--build', 'build/asan', '-j2', '--target', 'fuzz_ops']);
  if (r.status !== 0) return { passed: 0, failed: 1, ok: false };
  const regressions = readdirSync(join(root, 'tests/fuzz/regressions')).map((f) => join('tests/fuzz/regressions', f));
  const reg = await run('build/asan/fuzz_ops', regressions);
  const work = mkdtempSync(join(tmpdir(), 'normlab-fuzz-'));
  cpSync(join(root, 'tests/fuzz/corpus'), work, { recursive: true });
  // -timeout: the core keeps every op at its work limit near a second in the release build;
  // under ASan + UBSan at -O1 that is up to ~15 s, so 30 s still flags a real hang.
  const f = await run('build/asan/fuzz_ops', [
    work,
    `-max_total_time=${seconds}`,
    '-timeout=30',
    '-rss_limit_mb=2048',
    `-artifact_prefix=${join(root, 'build', 'fuzz-crash-')}`,
    '-print_final_stats=1',
  ]);
  const text = f.stdout + f.stderr;
  const execs = Number((text.match(/stat::number_of_executed_units: *(\d+)/) ?? [])[1] ?? 0);
  const cov = (text.match(/cov: (\d+) ft: (\d+)/g) ?? []).pop() ?? 'cov: ?';
  const crashed = f.status !== 0;
  console.log(
    `fuzz: ${regressions.length} regression inputs ${reg.status === 0 ? 'pass' : 'FAIL'}; ${execs} executions in ${seconds} s, ${cov}, crashes ${crashed ? 1 : 0}`,
  );
  const ok = reg.status === 0 && !crashed && execs > 0;
  // A crash found in CI must be reproducible from the log's tail alone: the report's key lines,
  // the op and shapes the input makes, and the input itself (base64, for tests/fuzz/regressions/).
  const detail = [];
  const report = (t) =>
    (
      t.match(/^.*(ERROR|runtime error|SUMMARY|Test unit written|deadly signal|timeout|out-of-memory).*$/gm) ?? []
    ).slice(0, 6);
  if (reg.status !== 0) detail.push('a regression input fails:', ...report(reg.stdout + reg.stderr));
  if (crashed) {
    detail.push(...report(text));
    const artifact = (text.match(/Test unit written to (\S+)/) ?? [])[1];
    if (artifact) {
      const show = spawnSync('build/asan/fuzz_ops', [artifact], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, NORMLAB_FUZZ_SHOW: '1' },
      });
      detail.push(...(show.stderr.match(/^[a-z_0-9]+:.*$/gm) ?? []).slice(0, 2));
      detail.push(`input (base64): ${readFileSync(artifact).toString('base64')}`);
    }
  }
  return { passed: ok ? 2 : 0, failed: ok ? 0 : 1, ok, detail };
});

// Three programs: Vue's TSX is compiled as Vue's guide sets it up ("jsx": "preserve"), a Vue template by vue-tsc;
// React's, Preact's and Solid's with "react-jsx" (the Preact and Solid files name their jsxImportSource).
await tier('types', async () => {
  const detail = [];
  const programs = [
    ['tsc', 'node_modules/typescript/bin/tsc', 'tests/types/tsconfig.json'],
    ['tsc', 'node_modules/typescript/bin/tsc', 'tests/types/tsconfig.vue.json'],
    // a Vue single-file component's template, as vue-tsc checks it (attribute names camelized)
    ['vue-tsc', 'node_modules/vue-tsc/bin/vue-tsc.js', 'tests/types/tsconfig.sfc.json'],
  ];
  for (const [name, bin, config] of programs) {
    const r = await run(process.execPath, [bin, '-p', config]);
    if (r.status === 0) console.log(`${name}: the declarations check against the files of ${config}`);
    else detail.push(`${name} -p ${config} failed`);
  }
  return {
    passed: programs.length - detail.length,
    failed: detail.length,
    ok: detail.length === 0,
    detail,
  };
});

// ESLint, Prettier and clang-format over the tree (npm run lint): a few seconds.
await tier('lint', async () => {
  const r = await run('bash', ['scripts/lint.sh']);
  return {
    passed: r.status === 0 ? 1 : 0,
    failed: r.status === 0 ? 0 : 1,
    ok: r.status === 0,
    detail: (r.stdout + r.stderr)
      .split('\n')
      .filter((l) => /error|warn|clang-format/i.test(l))
      .slice(0, 8),
  };
});

// Two files at once: the WASM tests are compute, one core each.
await tier('wasm', () => nodeTests(['tests/js/'], { concurrency: 2 }));

// The browser files, longest first (measured): three run at once, so a long file started last runs on
// alone at the end (the sweeps, alphabetically last, were the tier's tail). The rest by size.
const BROWSER_LONGEST = [
  'axis-cube',
  'reliability',
  'depth-training',
  'sweep-code',
  'sweep-geometry',
  'sweep-bar',
  'sweep-cube',
  'page',
  'a11y',
  'embed',
  'sweep-stats',
  'sweep-depth',
  'phone',
  'figures',
];
function browserFiles() {
  const dir = join(root, 'tests/browser');
  const files = readdirSync(dir).filter((f) => f.endsWith('.test.mjs'));
  const rank = (f) => {
    const k = BROWSER_LONGEST.indexOf(f.replace(/\.test\.mjs$/, ''));
    return k < 0 ? BROWSER_LONGEST.length : k;
  };
  const size = (f) => statSync(join(dir, f)).size;
  return files.sort((a, b) => rank(a) - rank(b) || size(b) - size(a)).map((f) => `tests/browser/${f}`);
}

// One Chromium for the browser tier's files, which connect to it (tests/browser/helpers.mjs
// setup()); each file has its own contexts. Browser files spend much of their time
// waiting on Chromium: three at once keep two cores busy.
await tier('browser', async () => {
  const shared = await launchServer();
  try {
    return await nodeTests(quick ? QUICK_BROWSER : browserFiles(), {
      concurrency: 3,
      ordered: true,
      env: { ...process.env, [SHARED_ENV]: shared.wsEndpoint() },
    });
  } finally {
    await shared.close();
  }
});
// The three files install, build and serve different sites: mostly npm's network and disk
// time, so all three at once (Sphinx no longer waits for a Node site to finish).
await tier('package', () => nodeTests(['tests/package/'], { concurrency: 3 }));

console.log('\n=== results ===');
for (const r of results) {
  console.log(
    `${r.ok ? 'ok  ' : 'FAIL'} ${r.name.padEnd(8)} ${r.passed} passed, ${r.failed} failed (${r.seconds.toFixed(1)} s)`,
  );
  if (!r.ok) for (const line of r.detail) console.log(`       ${line.slice(0, 400)}`);
}
const passed = results.reduce((a, r) => a + r.passed, 0);
const failed = results.reduce((a, r) => a + r.failed, 0);
const allOk = results.every((r) => r.ok);
console.log(
  `total: ${((Date.now() - started) / 1000).toFixed(1)} s; tiers ${results.reduce((a, r) => a + r.seconds, 0).toFixed(1)} s`,
);
console.log(`summary: ${passed} passed, ${failed + (allOk || failed ? 0 : 1)} failed`);
process.exit(allOk ? 0 : 1);
