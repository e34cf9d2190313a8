// `node bench/training.mjs`: what training in the page costs. Prints, side by
// side in one run, milliseconds per training step of <nl-depth-training>'s
// network (128 points, width 16) for each placement at depth 8, 16 and 24 —
// the core compiled natively (g++ -O3) and the WASM build under Node — and
// then, in Chromium, the steps per second the figure reaches while playing
// and how long a reader's key press takes to reach the DOM meanwhile
// (p50/p95 over 12 s of presses).
import { buildNativeDriver } from './native.mjs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadTrainer } from '../web/core/normlab.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = 5,
  steps = 10;
const chromiumOnly = process.argv.includes('--chromium'); // only the Chromium part
const transformerOnly = process.argv.includes('--transformer'); // only <nl-transformer-training> in Chromium

const f = (v, d = 2) => v.toFixed(d);
if (!chromiumOnly && !transformerOnly) await nativeAndWasm();

async function nativeAndWasm() {
  buildNativeDriver('training_native');

  const core = await loadTrainer(); // the training module
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
      const native = JSON.parse(execFileSync(`${root}build/training_native`, [String(rounds)], { encoding: 'utf8' }))[
        `${placement}-${depth}`
      ];
      rows.push({ depth, placement, native, wasm });
    }
  }
  console.log('\n| depth | placement | native g++ -O3 ms/step | WASM (Node) ms/step | WASM / native |');
  console.log('|---|---|---|---|---|');
  for (const r of rows)
    console.log(`| ${r.depth} | ${r.placement} | ${f(r.native)} | ${f(r.wasm)} | ${f(r.wasm / r.native, 1)} |`);
}

// Chromium: the figure playing its default (depth 24, all four placements), while a reader presses
// keys: Space on a Compare box every 80-200 ms (it toggles a copy: the figure's state changes and it
// redraws). Input-to-DOM is from the key event's own time stamp (when the browser received it) to the
// end of the figure's change handler, so it counts the wait behind a training task and the redraw.
const { launch } = await import('../scripts/browser.mjs');
const { startServer } = await import('../scripts/serve.mjs');
if (!transformerOnly) {
  const { server, url } = await startServer({ port: 0, root });
  const browser = await launch();
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url + 'web/index.html');
  const fig = page.locator('nl-depth-training');
  await fig.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('nl-depth-training')?.state);
  await fig.evaluate((f) => {
    window.__lat = [];
    let last = 0;
    addEventListener(
      'keyup',
      (e) => {
        last = e.timeStamp;
      },
      true,
    );
    f.shadowRoot.addEventListener('change', () => window.__lat.push(performance.now() - last));
    f.play(); // (from the recorded run: a live run from step 0)
    window.__t0 = [performance.now(), f.state.step];
    // when the step count last grew: a run that ends inside the 12 s counts only its time
    window.__last = window.__t0;
    setInterval(() => {
      if (f.state.step !== window.__last[1]) window.__last = [performance.now(), f.state.step];
    }, 50);
  });
  await fig.locator('input[type=checkbox]').nth(1).focus();
  const began = Date.now();
  while (Date.now() - began < 12000) {
    await page.keyboard.press('Space');
    await page.waitForTimeout(80 + Math.random() * 120);
  }
  const m = await fig.evaluate((f) => {
    const [t0, s0] = window.__t0,
      [t1, s1] = window.__last;
    f.pause();
    const late = [...window.__lat].sort((a, b) => a - b);
    return {
      figureSteps: (s1 - s0) / ((t1 - t0) / 1000),
      p50: late[late.length >> 1],
      p95: late[Math.floor(late.length * 0.95)],
      max: late.at(-1),
      probes: late.length,
    };
  });
  await browser.close();
  server.close();
  console.log(
    `\nChromium, the figure playing (depth 24, up to 4 copies, one toggled on and off by the keys): ${f(m.figureSteps, 1)} figure steps/s`,
  );
  console.log(
    `(each figure step is one step of each copy that trains: up to ${f(m.figureSteps * 4, 0)} network steps/s);`,
  );
  console.log(
    `a key press while training reaches the DOM in ${f(m.p50, 1)} ms at p50, ${f(m.p95, 1)} ms at p95, ${f(m.max, 1)} ms at most (${m.probes} presses)`,
  );
}

// The transformer figure: its four variants playing in the Web Worker(s) while a reader presses Space on a
// variant box (it hides or shows a curve: a state change and a redraw), once on a quiet machine and once with a
// busy loop on every core beside it. Prints the main thread's longest tasks (PerformanceObserver longtask: > 50 ms)
// and input-to-DOM latency as above.
{
  const { spawn } = await import('node:child_process');
  const { cpus } = await import('node:os');
  const server2 = await startServer({ port: 0, root });
  const browser2 = await launch();
  for (const loaded of [false, true]) {
    const burners = loaded ? cpus().map(() => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' })) : [];
    const p = await browser2.newPage({ viewport: { width: 1280, height: 900 } });
    await p.goto(server2.url + 'web/index.html');
    const tf = p.locator('nl-transformer-training');
    await tf.scrollIntoViewIfNeeded();
    await p.waitForFunction(() => document.querySelector('nl-transformer-training')?.state);
    await p.waitForTimeout(1500); // the neighbouring figures' own start
    await tf.evaluate((f) => {
      window.__lat = [];
      window.__long = [];
      let last = 0;
      addEventListener('keyup', (e) => (last = e.timeStamp), true);
      f.shadowRoot.addEventListener('change', () => window.__lat.push(performance.now() - last));
      f.play();
    });
    await p.waitForFunction(() => document.querySelector('nl-transformer-training').state.step >= 10, null, {
      timeout: 120000,
    });
    await tf.evaluate((f) => {
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) window.__long.push(e.duration);
      }).observe({ type: 'longtask' });
      window.__t0 = [performance.now(), f.state.step];
    });
    await tf.locator('input[type=checkbox]').nth(0).focus();
    const began = Date.now();
    while (Date.now() - began < 10000) {
      await p.keyboard.press('Space');
      await p.waitForTimeout(80 + Math.random() * 120);
    }
    const r = await tf.evaluate((f) => {
      const [t0, s0] = window.__t0;
      const steps = (f.state.step - s0) / ((performance.now() - t0) / 1000);
      const where = f.state.where;
      f.pause();
      const late = [...window.__lat].sort((a, b) => a - b);
      return {
        steps,
        where,
        p50: late[late.length >> 1],
        p95: late[Math.floor(late.length * 0.95)],
        longest: Math.max(0, ...window.__long),
        longCount: window.__long.length,
      };
    });
    for (const b of burners) b.kill();
    await p.close();
    console.log(
      `\nChromium, <nl-transformer-training> playing (${r.where}; ${loaded ? `a busy loop on each of ${cpus().length} cores beside it` : 'nothing beside it'}): ` +
        `${f(r.steps, 1)} steps/s of each variant; main-thread tasks over 50 ms: ${r.longCount}` +
        `${r.longCount ? ` (longest ${f(r.longest, 0)} ms)` : ''}; a key press reaches the DOM in ${f(r.p50, 1)} ms at p50, ${f(r.p95, 1)} ms at p95`,
    );
  }
  await browser2.close();
  server2.server.close();
}
