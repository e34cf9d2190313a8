// <nl-transformer-training> as a reader uses it: it opens on the recorded runs, whose outcome at the
// default rate is PyTorch's (tests/conformance/transformer-sweep.json, scripts/gen_transformer_sweep.py);
// Play trains the same numbers again in a Web Worker without a long task on the page's thread; Step, Pause,
// Reset; the sweep trains a run again to the recorded number; the Chinese text has its own opening.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-transformer-training';
const TORCH = JSON.parse(readFileSync(new URL('../conformance/transformer-sweep.json', import.meta.url), 'utf8'));
const fig = onArticlePage(TAG);
const r4 = (v) => Number(v.toPrecision(4));
const state = () => fig.page.evaluate((t) => JSON.parse(JSON.stringify(document.querySelector(t).state)), TAG);
// the steps each variant has trained
const lengths = async () => (await state()).variants.map((v) => v.loss.length);
const call = (method) => fig.page.evaluate(([t, m]) => void document.querySelector(t)[m](), [TAG, method]);
const until = (fn, arg, timeout = 120_000) => fig.page.waitForFunction(fn, arg, { timeout, polling: 100 });
// block 1's largest attention logit over the run, every 10 steps (as the figure records it)
const peak1 = (rows) => Math.max(...rows.map((r) => r[0]));
const torchRun = (name, lr) => TORCH.runs.find((r) => r.variant === name && r.lr === lr);

test('it opens on the recorded runs at rate 0.1: QK-Norm keeps block 1 logits small, as in PyTorch (rubric)', async () => {
  const sn = await fig.snap();
  const s = sn.state;
  assert.equal(s.recorded, true);
  assert.equal(s.step, 300);
  assert.equal(s.lr, 0.1);
  assert.deepEqual(
    s.variants.map((v) => [v.id, v.loss.length, v.val.length]),
    ['post_ln', 'pre_ln', 'pre_rms', 'pre_rms_qk'].map((id) => [id, 300, 30]),
  );
  const by = Object.fromEntries(s.variants.map((v) => [v.id, v]));
  // PyTorch's runs of the same settings: without QK-Norm block 1's logits pass 30, with it they stay under 15
  for (const [id, name] of [
    ['pre_ln', 'Pre-LN'],
    ['pre_rms', 'Pre-RMS'],
  ]) {
    const t = torchRun(name, 0.1).max_logit.filter((_, i) => (i + 1) % 10 === 0);
    assert.ok(peak1(t) > 30, `torch ${name}: ${peak1(t)}`);
    assert.ok(peak1(by[id].maxLogit) > 30, `${id}: ${peak1(by[id].maxLogit)}`);
  }
  const tq = torchRun('Pre-RMS + QK-Norm', 0.1).max_logit.filter((_, i) => (i + 1) % 10 === 0);
  assert.ok(peak1(tq) < 15 && peak1(by.pre_rms_qk.maxLogit) < 15);
  // Post-LN's held-out loss ends highest, in PyTorch and here
  const last = (name) => torchRun(name, 0.1).val.at(-1);
  assert.ok(['Pre-LN', 'Pre-RMS', 'Pre-RMS + QK-Norm'].every((n) => last('Post-LN') > last(n) + 0.2));
  assert.ok(['pre_ln', 'pre_rms', 'pre_rms_qk'].every((id) => by.post_ln.val.at(-1) > by[id].val.at(-1) + 0.2));
  // the text says what the logit panel shows, with its numbers
  const f3 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }).format(v);
  const top = ['post_ln', 'pre_ln', 'pre_rms'].reduce((a, b) =>
    peak1(by[b].maxLogit) > peak1(by[a].maxLogit) ? b : a,
  );
  assert.match(
    sn.desc,
    new RegExp(`With QK-Norm the largest attention logit stays at ${f3(peak1(by.pre_rms_qk.maxLogit))};`),
  );
  assert.ok(sn.desc.includes(`reaches ${f3(peak1(by[top].maxLogit))}`), sn.desc);
  assert.ok(sn.desc.includes('These are the recorded runs'));
  // the sweep panel is filled: 24 runs; the attention maps and samples are drawn
  assert.equal(s.sweep.length, 24);
  assert.ok(by.pre_rms.attention.length > 0 && by.pre_rms_qk.attention.length > 0);
  assert.ok(s.variants.every((v) => v.sample.length > 0));
  assert.deepEqual(sn.bad, []);
  // the sweep's learning-rate axis spans the six rates: 0.001 sits at the plot's left end, 0.3 at its right end
  // (the horizontal grid lines), with no stretch of axis past the largest rate
  const ends = await fig.page.evaluate((t) => {
    const svg = document.querySelector(t).shadowRoot.querySelector('svg.sweep');
    const grid = [...svg.querySelectorAll('g.axis line')].filter((l) => l.getAttribute('y1') === l.getAttribute('y2'));
    const ticks = [...svg.querySelectorAll('text.tick')].filter((e) => /^0\.(001|3)$/.test(e.textContent));
    return {
      right: Math.max(...grid.map((l) => Number(l.getAttribute('x2')))),
      left: Math.min(...grid.map((l) => Number(l.getAttribute('x1')))),
      at: Object.fromEntries(ticks.map((e) => [e.textContent, Number(e.getAttribute('x'))])),
    };
  }, TAG);
  assert.ok(ends.right - ends.at['0.3'] <= 10, JSON.stringify(ends));
  assert.ok(ends.at['0.001'] - ends.left <= 10, JSON.stringify(ends));
});

test('Play trains the recorded numbers again in a Worker, with no long task on the page (Pause, Step)', async () => {
  // the figures near this one start when it scrolls into view (their chunks load and compute on this thread):
  // wait until every figure in view has drawn, so that their start is not counted as training's
  await until(() =>
    [...document.querySelectorAll('*')]
      .filter((e) => e.localName.startsWith('nl-') && customElements.get(e.localName))
      .filter((e) => e.getBoundingClientRect().bottom > 0 && e.getBoundingClientRect().top < innerHeight)
      .every((e) => e.state),
  );
  await fig.page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__long.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
  });
  const recorded = (await state()).variants.map((v) => v.loss.slice(0, 20));
  const play = fig.page.locator(`${TAG} >> button`).filter({ hasText: /^Play$/ });
  await play.focus();
  await fig.page.keyboard.press('Enter');
  // the worker starts (it compiles the training module): long tasks are counted from its first chunk on
  await until((t) => document.querySelector(t).state.step >= 10, TAG);
  const from = await fig.page.evaluate(() => ((window.__long = []), performance.now()));
  const before = await lengths();
  await until((t) => document.querySelector(t).state.step >= 30, TAG);
  const long = await fig.page.evaluate(() => window.__long);
  const span = (await fig.page.evaluate(() => performance.now())) - from;
  const chunks = (await lengths()).reduce((n, k, i) => n + (k - before[i]) / 10, 0);
  await fig.page.evaluate((t) => document.querySelector(t).pause(), TAG); // resolves when the steps still out are back
  const s = await state();
  assert.equal(s.where, 'worker');
  assert.equal(s.recorded, false);
  assert.equal(s.playing, false);
  s.variants.forEach((v, i) => assert.deepEqual(v.loss.slice(0, 20).map(r4), recorded[i], v.id));
  // A long task is one over 50 ms; on a loaded machine a drawing (4-7 ms here) can stretch past that, so
  // the bound is measured in the same run, side by side: a 10-step chunk of one variant, timed in the
  // worker over this window (~135 ms here, on this machine's load). Training on the page's thread would
  // make tasks of about a chunk each; the page's own tasks stay well under half of one.
  const chunk = span / chunks;
  const bound = Math.max(50, chunk / 2);
  assert.ok(chunks >= 4, `chunks in the window: ${chunks}`);
  assert.deepEqual(
    long.filter((d) => d > bound),
    [],
    `main-thread tasks over ${Math.round(bound)} ms (half a ${Math.round(chunk)} ms chunk) while training: ${long}`,
  );
  // paused: no more steps (each variant stops where its last chunk ended: one worker serves the four in turn,
  // so they may stand 10 steps apart)
  const held = s.variants.map((v) => v.loss.length);
  await fig.page.waitForTimeout(1500);
  assert.deepEqual(await lengths(), held);
  // Step: ten more steps of each
  await call('stepOnce');
  await until(
    ([t, k]) => document.querySelector(t).state.variants.every((v, i) => v.loss.length >= k[i] + 10),
    [TAG, held],
  );
  assert.deepEqual(
    await lengths(),
    held.map((k) => k + 10),
  );
});

test('Reset returns to the recorded runs; the sweep trains a run again to its recorded number', async () => {
  await call('reset');
  let s = await state();
  assert.equal(s.recorded, true);
  assert.equal(s.step, 300);
  const recorded = s.sweep;
  await call('runSweep');
  await until((t) => document.querySelector(t).state.sweepRunning, TAG);
  assert.match(await fig.page.locator(`${TAG} >> .progress`).textContent(), /^Sweep: \d+ of 24 runs done\.$/);
  await until((t) => document.querySelector(t).state.sweep.length >= 1, TAG, 240_000);
  await call('runSweep'); // a second press stops it
  s = await state();
  assert.equal(s.sweepRunning, false);
  for (const p of s.sweep) {
    const want = recorded.find((r) => r.variant === p.variant && r.lr === p.lr);
    assert.equal(r4(p.val), want.val, `${p.variant} lr ${p.lr}`);
  }
});

test('in Chinese it trains on the Chinese text, with its own recorded opening', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'zh'), TAG);
  await until((t) => document.querySelector(t).state.language === 'zh', TAG);
  const sn = await fig.snap();
  assert.equal(sn.state.recorded, true);
  assert.equal(sn.state.step, 300);
  assert.ok(sn.desc.includes('文章的中文文本'), sn.desc);
  assert.ok(sn.state.chance > Math.log(300), `ln of the Chinese vocabulary: ${sn.state.chance}`);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'en'), TAG);
  assert.deepEqual(fig.problems, []);
});
