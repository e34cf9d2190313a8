// `node bench/training.mjs`: what training in the page costs. Prints, side by
// side in one run, milliseconds per training step of <nl-depth-training>'s
// network (128 points, width 16) for each placement at depth 8, 16 and 24 —
// the core compiled natively (g++ -O3) and the WASM build under Node — and
// then, in Chromium, the steps per second the figure reaches while playing
// and how late a task queued during training starts (the delay a reader's
// input would see), as p50/p95 over 3 s.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../web/core/normlab.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = 5, steps = 10;

console.log('building the native core (cmake, g++ -O3) and bench/training_native.cpp…');
execFileSync('cmake', ['-S', root, '-B', `${root}build/native`, '-DCMAKE_BUILD_TYPE=Release'], { stdio: 'ignore' });
execFileSync('cmake', ['--build', `${root}build/native`, '-j2', '--target', 'normlab'], { stdio: 'inherit' });
execFileSync('g++', ['-std=c++17', '-O3', '-DNDEBUG', `-I${root}cpp/include`, `${root}bench/training_native.cpp`, `${root}build/native/libnormlab.a`, '-o', `${root}build/training_native`], { stdio: 'inherit' });

const core = await loadCore();
const data = core.run('train_data', {}, { count: 128, seed: 1 });
function wasmMs(depth, placement) {
  const attrs = { depth, width: 16, placement };
  let { params, state } = core.run('train_init', {}, attrs);
  const t = [];
  for (let r = 0; r < rounds; r++) {
    const a = performance.now();
    const out = core.run('train_step', { params, state, x: data.x, labels: data.labels }, { ...attrs, steps });
    t.push((performance.now() - a) / steps);
    ({ params, state } = out);
  }
  return t.sort((a, b) => a - b)[t.length >> 1];
}

// Native and WASM measured in alternation, case by case, so that both see the same machine.
const rows = [];
for (const depth of [8, 16, 24]) {
  for (const placement of ['none', 'post', 'pre', 'pre_final']) {
    const wasm = wasmMs(depth, placement);
    const native = JSON.parse(execFileSync(`${root}build/training_native`, [String(rounds)], { encoding: 'utf8' }))[`${placement}-${depth}`];
    rows.push({ depth, placement, native, wasm });
  }
}
const f = (v, d = 2) => v.toFixed(d);
console.log('\n| depth | placement | native g++ -O3 ms/step | WASM (Node) ms/step | WASM / native |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.depth} | ${r.placement} | ${f(r.native)} | ${f(r.wasm)} | ${f(r.wasm / r.native, 1)} |`);

// Chromium: the figure playing its default (depth 24, all four placements).
const { launch } = await import('../scripts/browser.mjs');
const { startServer } = await import('../scripts/serve.mjs');
const { server, url } = await startServer({ port: 0, root });
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(url + 'web/index.html');
await page.locator('nl-depth-training').scrollIntoViewIfNeeded();
await page.waitForFunction(() => document.querySelector('nl-depth-training')?.state);
const m = await page.evaluate(() => new Promise((done) => {
  const f = document.querySelector('nl-depth-training');
  const late = [];
  let probing = true;
  const probe = () => {
    const due = performance.now();
    setTimeout(() => {
      late.push(performance.now() - due);
      if (probing) setTimeout(probe, 20);
    }, 0);
  };
  const s0 = f.state.step, t0 = performance.now();
  f.play();
  probe();
  setTimeout(() => {
    probing = false;
    const s1 = f.state.step, t1 = performance.now();
    f.pause();
    late.sort((a, b) => a - b);
    done({ stepsPerSecond: ((s1 - s0) * 4) / ((t1 - t0) / 1000), figureSteps: (s1 - s0) / ((t1 - t0) / 1000), p50: late[late.length >> 1], p95: late[Math.floor(late.length * 0.95)], probes: late.length });
  }, 3000);
}));
await browser.close();
server.close();
console.log(`\nChromium, the figure playing (depth 24, 4 placements): ${f(m.stepsPerSecond, 0)} network steps/s (${f(m.figureSteps, 1)} figure steps/s);`);
console.log(`a task queued while training starts ${f(m.p50, 1)} ms late at p50, ${f(m.p95, 1)} ms at p95 (${m.probes} probes)`);
