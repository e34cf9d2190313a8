// <nl-bn-variants> as a reader uses it: the chunk size, r_max and the
// Switchable weight by keyboard over their ranges; after each step the first
// example's outputs under all five variants against float64 oracles written
// here from the definitions in docs/ops.md, and every sentence against the state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-bn-variants';
const fig = onArticlePage(TAG);
const snap = () => fig.snap();
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);
const f3 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }).format(v);
const L = (v) => `(${v.map(f3).join(', ')})`;
const EPS = 1e-5;
const clip = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const stats = (vs) => {
  const m = vs.reduce((a, b) => a + b) / vs.length;
  return [m, vs.reduce((a, b) => a + (b - m) ** 2, 0) / vs.length];
};

function oracle(s) {
  const X = [];
  for (let n = 0; n < 8; n++) X.push([s.batch[2 * n], s.batch[2 * n + 1]]);
  const col = (rows, c) => rows.map((r) => r[c]);
  const out = { train: [], eval: [], ghost: [], renorm: [], switchable: [] };
  const w = [0, 0, s.bnLogit].map(Math.exp),
    z = w.reduce((a, b) => a + b),
    mix = w.map((v) => v / z);
  for (let c = 0; c < 2; c++) {
    const x = X[0][c];
    const [mB, vB] = stats(col(X, c));
    out.train.push((x - mB) / Math.sqrt(vB + EPS));
    out.eval.push((x - s.running.mean[c]) / Math.sqrt(s.running.var[c] + EPS));
    const [mG, vG] = stats(col(X.slice(0, Number(s.vbs)), c));
    out.ghost.push((x - mG) / Math.sqrt(vG + EPS));
    const sB = Math.sqrt(vB + EPS),
      sR = Math.sqrt(s.running.var[c] + EPS);
    const r = clip(sB / sR, 1 / s.rmax, s.rmax),
      d = clip((mB - s.running.mean[c]) / sR, -5, 5);
    out.renorm.push(((x - mB) / sB) * r + d);
    // Switchable: IN over one value (mean x, variance 0), LN over the example's two features, BN over the eight examples
    const [mL, vL] = stats(X[0]);
    const mean = mix[0] * x + mix[1] * mL + mix[2] * mB,
      variance = mix[1] * vL + mix[2] * vB;
    out.switchable.push((x - mean) / Math.sqrt(variance + EPS));
  }
  return { out, mix };
}

function check(sn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], where);
  const { out, mix } = oracle(s);
  for (const k of Object.keys(out)) out[k].forEach((v, c) => close(s.outputs[k][c], v, 1e-4, `${where} ${k}[${c}]`));
  mix.forEach((v, i) => close(s.mix[i], v, 1e-6, `${where} mix`));
  assert.ok(
    sn.desc.startsWith(
      `In training, BatchNorm normalizes example (1, 10) with the statistics of all eight examples: ${L(s.outputs.train)}; in evaluation it uses the running statistics: ${L(s.outputs.eval)}.`,
    ),
    `${where}: ${sn.desc}`,
  );
  assert.ok(
    sn.desc.includes(
      s.vbs === '8'
        ? `Ghost BN with a chunk of 8 is plain BatchNorm: ${L(s.outputs.ghost)}.`
        : `Ghost BN with chunks of ${s.vbs} uses only `,
    ),
    where,
  );
  assert.equal(
    sn.desc.includes('nothing is clipped, so it gives what evaluation gives'),
    L(s.outputs.renorm) === L(s.outputs.eval),
    `${where}: "nothing is clipped" exactly when renorm reads as evaluation`,
  );
  assert.ok(sn.desc.endsWith(`weights ${L(s.mix)}: ${L(s.outputs.switchable)}.`), where);
}

test('the chunk size, r_max and the Switchable weight by keyboard: five variants against the definitions', async () => {
  let n = 0;
  const select = fig.page.locator(`${TAG} >> select`);
  await select.focus();
  for (const key of ['Home', 'ArrowDown', 'ArrowDown', 'ArrowUp']) {
    await fig.page.keyboard.press(key);
    check(await snap(), `vbs ${key}`);
    n++;
  }
  const sliders = fig.page.locator(`${TAG} >> input[type=range]`);
  for (const k of [0, 1]) {
    await sliders.nth(k).focus();
    for (const key of ['Home', 'ArrowRight', 'PageUp', 'PageUp', 'End', 'PageDown', 'ArrowLeft', 'PageDown']) {
      await fig.page.keyboard.press(key);
      check(await snap(), `slider ${k} ${key}`);
      n++;
    }
  }
  assert.ok(n >= 20, `${n} positions`);
  assert.deepEqual(fig.problems, []);
});

test('hand-derived: the batch column (1, 3, 5, 2, 4, 6, 0, 7) has mean 3.5 and variance 5.25; the running statistics give (1 − 3)/2 = −1', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('vbs', '2');
    f.setAttribute('rmax', '3');
    f.setAttribute('bn-logit', '0');
  }, TAG);
  const s = (await snap()).state;
  close(s.outputs.train[0], (1 - 3.5) / Math.sqrt(5.25), 1e-5, 'BatchNorm'); // −1.0911
  close(s.outputs.eval[0], -1, 1e-5, 'evaluation');
  close(s.outputs.ghost[0], -1, 1e-5, 'Ghost BN over (1, 3): ±1');
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'zh'), TAG);
  assert.match((await snap()).desc, /^训练模式下，BatchNorm 用全部八个 examples 的统计量标准化 example \(1, 10\)：/);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('vbs', '3'), TAG);
  assert.match((await snap()).error, /vbs/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('vbs', '2');
    f.setAttribute('lang', 'en');
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});
