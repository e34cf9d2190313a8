// <nl-rms-decomposition> as a reader drives it: the shift slider by keyboard
// over its range (more than 20 positions) and the three presets; after each,
// the statistics and both outputs against float64 oracles written here from
// the definitions, RMS² = σ² + μ² in the core's own numbers, LayerNorm's output
// the same at every shift, and every sentence against the state. Plus the
// article's worked example, the language switch and bad attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-rms-decomposition';
const fig = onArticlePage(TAG);

const snap = () => fig.snap();
const nf = (digits, lang = 'en') =>
  new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumSignificantDigits: digits });
const f4 = (v) => nf(4).format(v),
  f7 = (v) => nf(7).format(v);
const list = (vs) => `(${vs.map(f4).join(', ')})`;
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);

/** Oracles from the definitions, in float64. */
function oracle(x, m) {
  const v = x.map((a) => a + m),
    d = v.length;
  const mean = v.reduce((a, b) => a + b) / d;
  const variance = v.reduce((a, b) => a + (b - mean) ** 2, 0) / d;
  const ms = v.reduce((a, b) => a + b * b, 0) / d;
  return {
    shifted: v,
    mean,
    variance,
    std: Math.sqrt(variance),
    ms,
    rms: Math.sqrt(ms),
    ln: v.map((a) => (a - mean) / Math.sqrt(variance + 1e-5)),
    rn: v.map((a) => a / Math.sqrt(ms + 1e-6)),
  };
}

function check(sn, firstLn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], where);
  const o = oracle(s.x, s.shift);
  const big = Math.max(1, Math.abs(o.mean));
  s.shifted.forEach((v, i) => close(v, o.shifted[i], 1e-6 * big, `${where} x+m`));
  close(s.mean, o.mean, 1e-6 * big, `${where} mean`);
  close(s.variance, o.variance, 1e-4 * big * big * 1e-3 + 1e-6, `${where} variance`);
  close(s.meanSquare, o.ms, 1e-6 * o.ms, `${where} RMS²`);
  close(s.rms, o.rms, 1e-6 * o.rms, `${where} RMS`);
  close(s.meanSq, o.mean ** 2, 1e-6 * o.mean ** 2 + 1e-9, `${where} μ²`);
  close(s.meanSquare, s.variance + s.meanSq, 1e-6 * o.ms + 1e-6, `${where}: RMS² = σ² + μ² in the core's numbers`);
  s.rmsNorm.forEach((v, i) => close(v, o.rn[i], 1e-5, `${where} RMSNorm`));
  s.layerNorm.forEach((v, i) => close(v, o.ln[i], 2e-4, `${where} LayerNorm`));
  if (firstLn)
    s.layerNorm.forEach((v, i) => close(v, firstLn[i], 2e-4, `${where}: LayerNorm is the same at every shift`));
  assert.ok(
    sn.svg.includes(`RMS² ${f7(s.meanSquare)} = σ² ${f7(s.variance)} + μ² ${f7(s.meanSq)}`),
    `${where}: the identity under the triangle`,
  );
  assert.ok(
    sn.svg.includes(`μ = ${f4(s.mean)}`) &&
      sn.svg.includes(`RMS = ${f4(s.rms)}`) &&
      sn.svg.includes(`σ = ${f4(s.std)}`),
    where,
  );
  assert.ok(
    sn.desc.startsWith(
      `x + m = ${list(s.shifted)} has mean μ = ${f4(s.mean)}, standard deviation σ = ${f4(s.std)} and RMS ${f4(s.rms)}: ` +
        `RMS² = σ² + μ² reads ${f7(s.meanSquare)} = ${f7(s.variance)} + ${f7(s.meanSq)}.`,
    ),
    `${where}: ${sn.desc}`,
  );
  if (f4(s.mean) === '0')
    assert.ok(
      sn.desc.endsWith(
        `With mean 0 the RMS equals σ, so RMSNorm and LayerNorm agree: ${list(s.layerNorm)} and ${list(s.rmsNorm)}.`,
      ),
      where,
    );
  else if (Math.abs(o.mean) > o.std) {
    assert.match(sn.desc, /Here \|μ\| is larger than σ, so the RMS mostly measures the mean/, where);
    // "all of one sign" only when every shifted coordinate has the mean's sign
    const oneSign = o.shifted.every((v) => Math.sign(v) === Math.sign(o.mean));
    assert.equal(sn.desc.includes('all of one sign'), oneSign, `${where}: "all of one sign" said exactly when true`);
  } else assert.match(sn.desc, /Here σ is at least \|μ\|, so the RMS still mostly measures the spread/, where);
}

test('the shift slider by keyboard across its range: statistics, outputs and words follow', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('lang', 'en');
    f.setAttribute('x', '1,2,3');
    f.setAttribute('shift', '0');
  }, TAG);
  const first = await snap();
  check(first, null, 'start');
  const slider = fig.page.locator(`${TAG} >> input[type=range]`);
  await slider.focus();
  await fig.page.keyboard.press('Home');
  let n = 0;
  const kinds = new Set();
  const visit = async (where) => {
    const sn = await snap();
    check(sn, first.state.layerNorm, where);
    kinds.add(/larger than σ/.test(sn.desc) ? 'mean' : /at least/.test(sn.desc) ? 'spread' : 'centered');
    n++;
  };
  await visit('Home');
  for (let i = 0; i < 12; i++) {
    await fig.page.keyboard.press('PageUp');
    await visit(`PageUp ${i}`);
  }
  // near the mean's sign change, a step at a time: x + m crosses (−1, 0, 1)
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('shift', '-3'), TAG);
  for (let i = 0; i < 8; i++) {
    await fig.page.keyboard.press('ArrowRight');
    await visit(`Arrow ${i}`);
  }
  await fig.page.keyboard.press('End');
  await visit('End');
  assert.ok(n >= 20, `${n} positions`);
  assert.deepEqual([...kinds].sort(), ['centered', 'mean', 'spread'], 'all three verdicts are reached');
  assert.deepEqual(fig.problems, []);
});

test("the article's pair: (101, 102, 103) gives RMSNorm three positive values close to 1 and LayerNorm (−1.2247, 0, 1.2247)", async () => {
  await fig.page.locator(`${TAG} >> button`, { hasText: '(101, 102, 103)' }).click();
  const s = (await snap()).state;
  assert.equal(s.shift, 100);
  // RMS² = (101² + 102² + 103²)/3 = 31214/3 = 10404.667 = σ² 2/3 + μ² 102²
  close(s.meanSquare, 31214 / 3, 1e-2, 'RMS²');
  close(s.meanSq, 10404, 1e-3, 'μ²');
  close(s.rms, Math.sqrt(31214 / 3), 1e-3, 'RMS');
  [101, 102, 103].forEach((v, i) => close(s.rmsNorm[i], v / Math.sqrt(31214 / 3), 1e-5, `RMSNorm ${i}`));
  [-1.2247, 0, 1.2247].forEach((v, i) => close(s.layerNorm[i], v, 1e-3, `LayerNorm ${i}`));
  await fig.page.locator(`${TAG} >> button`, { hasText: 'mean 0' }).click();
  const c = await snap();
  assert.deepEqual(c.state.x, [-1, 0, 1]);
  c.state.rmsNorm.forEach((v, i) => close(v, c.state.layerNorm[i], 1e-4, 'mean 0: RMSNorm = LayerNorm'));
});

test('Chinese words, and bad attributes keep the last drawing with a message', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('x', '1,2,3');
    f.setAttribute('shift', '100');
    f.setAttribute('lang', 'zh');
  }, TAG);
  let sn = await snap();
  assert.ok(sn.desc.startsWith('x + m = (101, 102, 103) 的 mean μ = 102，标准差 σ = 0.8165，RMS 为 102：'), sn.desc);
  assert.match(sn.desc, /此时 \|μ\| 大于 σ，RMS 主要反映 mean/);
  const good = sn.state;
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('x', '1,2,3,4,5,6,7,8,9'), TAG);
  sn = await snap();
  assert.match(sn.error, /x/);
  assert.deepEqual(sn.state.rmsNorm, good.rmsNorm, 'the last good drawing stays');
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('x', '1,2,3');
    f.setAttribute('shift', '500');
  }, TAG);
  sn = await snap();
  assert.match(sn.error, /shift/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('shift', '0');
    f.setAttribute('lang', 'en');
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});
