// <nl-scalers> as a reader drives it: the outlier dragged by keyboard on its
// dot and by the slider over its range, and the data switched to token IDs;
// after each step every scaled value against float64 oracles written here
// (min-max, z-score with the population deviation, robust scaling with
// NumPy's linear percentiles), where the other values land, and every sentence
// against the state. Plus hand-derived numbers and bad attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-scalers';
const fig = onArticlePage(TAG);

const snap = () => fig.snap();
const f4 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 }).format(v);
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);

// ---- oracles ----
const percentile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b),
    pos = (q / 100) * (s.length - 1),
    lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
};
function oracle(x) {
  const n = x.length,
    min = Math.min(...x),
    max = Math.max(...x);
  const mean = x.reduce((a, b) => a + b) / n,
    std = Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  const median = percentile(x, 50),
    iqr = percentile(x, 75) - percentile(x, 25);
  return {
    minMax: x.map((v) => (v - min) / (max - min || 1)),
    zScore: x.map((v) => (v - mean) / (std || 1)),
    robust: x.map((v) => (v - median) / (iqr || 1)),
    min,
    max,
    mean,
    std,
    median,
    iqr,
  };
}

function check(sn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], where);
  const tokens = s.data === 'token_ids';
  const x = tokens ? s.ids : [...s.values, s.outlier];
  assert.deepEqual(s.x, x, where);
  const o = oracle(x);
  const tol = (v) => 1e-5 * Math.max(1, Math.abs(v));
  close(s.minMax.min, o.min, tol(o.min), `${where} min`);
  close(s.minMax.max, o.max, tol(o.max), `${where} max`);
  close(s.zScore.mean, o.mean, tol(o.mean), `${where} mean`);
  close(s.zScore.std, o.std, tol(o.std), `${where} std`);
  close(s.robust.median, o.median, tol(o.median), `${where} median`);
  close(s.robust.iqr, o.iqr, tol(o.iqr), `${where} iqr`);
  for (const k of ['minMax', 'zScore', 'robust'])
    s[k].y.forEach((v, i) => close(v, o[k][i], 1e-4 * Math.max(1, Math.abs(o[k][i])), `${where} ${k}[${i}]`));
  if (tokens) {
    const sorted = [...x].sort((a, b) => a - b);
    assert.ok(
      sn.desc.startsWith(
        `These are token IDs. Min-max puts ${sorted[0]} at 0 and ${sorted[1]} at ${f4(o.minMax[x.indexOf(sorted[1])])}, side by side, and ${sorted.at(-1)} at 1;`,
      ),
      `${where}: ${sn.desc}`,
    );
    return;
  }
  const others = x.slice(0, -1);
  const spanOf = (ys) => [Math.min(...ys.slice(0, -1)), Math.max(...ys.slice(0, -1))];
  close(s.spans.raw[0], Math.min(...others), 1e-6, where);
  close(s.spans.raw[1], Math.max(...others), 1e-6, where);
  for (const k of ['minMax', 'zScore', 'robust'])
    s.spans[k].forEach((v, i) => close(v, spanOf(o[k])[i], 1e-4, `${where} ${k} span`));
  const outside = s.outlier < Math.min(...others) || s.outlier > Math.max(...others);
  assert.equal(s.outside, outside, where);
  // one axis for the three scaled rows, covering every scaled value; the widths of the bands on it
  assert.deepEqual(s.axes.minMax, s.axes.scaled, where);
  assert.deepEqual(s.axes.zScore, s.axes.scaled, where);
  assert.deepEqual(s.axes.robust, s.axes.scaled, where);
  const all = ['minMax', 'zScore', 'robust'].flatMap((k) => o[k]);
  assert.ok(
    s.axes.scaled.domain[0] <= Math.min(...all) && s.axes.scaled.domain[1] >= Math.max(...all),
    `${where}: the shared axis holds every scaled value`,
  );
  const w = {};
  for (const k of ['minMax', 'zScore', 'robust']) {
    w[k] = spanOf(o[k])[1] - spanOf(o[k])[0];
    close(s.widths[k], w[k], 1e-4, `${where} ${k} width`);
  }
  assert.ok(
    sn.desc.includes(
      `On the common axis their band is ${f4(s.widths.minMax)} wide under min-max, ${f4(s.widths.zScore)} under z-scoring and ${f4(s.widths.robust)} under robust scaling.`,
    ),
    `${where}: ${sn.desc}`,
  );
  assert.ok(
    sn.desc.startsWith(
      `With the extra value at ${f4(s.outlier)}, the other ${others.length} values span ${f4(s.spans.raw[0])} to ${f4(s.spans.raw[1])}; ` +
        `min-max puts them between ${f4(s.spans.minMax[0])} and ${f4(s.spans.minMax[1])}, z-scoring between ${f4(s.spans.zScore[0])} and ${f4(s.spans.zScore[1])}, ` +
        `robust scaling between ${f4(s.spans.robust[0])} and ${f4(s.spans.robust[1])}.`,
    ),
    `${where}: ${sn.desc}`,
  );
  assert.ok(
    sn.desc.endsWith(
      outside
        ? `the median ${f4(s.robust.median)} and the IQR ${f4(s.robust.iqr)} hardly notice it.`
        : 'It lies among them, so no scaler is pulled by it.',
    ),
    `${where}: ${sn.desc}`,
  );
}

test('hand-derived: the default data, its quartiles and min-max of the largest ordinary value', async () => {
  const s = (await snap()).state;
  // sorted: 2.1 2.5 2.8 3 3.2 3.4 3.7 4 12 -> median 3.2, Q1 = 2.8 (position 2), Q3 = 3.7 (position 6), IQR 0.9
  close(s.robust.median, 3.2, 1e-6, 'median');
  close(s.robust.iqr, 0.9, 1e-6, 'IQR');
  close(s.minMax.y[7], (4 - 2.1) / (12 - 2.1), 1e-6, 'min-max of 4'); // 0.19192
  close(s.robust.y[8], (12 - 3.2) / 0.9, 1e-4, 'robust of 12'); // 9.778
  // the eight on the one shared axis: 1.9/9.9 = 0.19192 wide under min-max, 1.9/0.9 = 2.1111 under robust scaling;
  // z-score: Σx = 36.7, Σx² = 222.99, variance 222.99/9 − (36.7/9)² = 8.14840, σ = 2.85454, width 1.9/σ = 0.66561
  close(s.widths.minMax, 1.9 / 9.9, 1e-5, 'min-max width');
  close(s.widths.zScore, 0.66561, 1e-4, 'z-score width');
  close(s.widths.robust, 1.9 / 0.9, 1e-4, 'robust width');
  assert.deepEqual(s.axes.minMax, s.axes.robust, 'one axis');
  // the ticks stand at the same x on the three scaled rows
  const xs = await fig.page.evaluate((t) => {
    const lines = [...document.querySelector(t).shadowRoot.querySelectorAll('line.grid-line')];
    const byY = new Map();
    for (const l of lines) {
      const k = l.getAttribute('y1');
      byY.set(k, [...(byY.get(k) ?? []), l.getAttribute('x1')]);
    }
    return [...byY.values()];
  }, TAG);
  assert.equal(xs.length, 4, 'four rows of ticks');
  assert.deepEqual(xs[1], xs[2]);
  assert.deepEqual(xs[2], xs[3]);
});

test('the outlier dragged by keyboard on its dot and by the slider: every scaled value and sentence follows', async () => {
  const dot = fig.page.locator(`${TAG} >> .handle`);
  await dot.focus();
  let n = 0,
    outside = 0,
    inside = 0;
  const visit = async (where) => {
    const sn = await snap();
    check(sn, where);
    if (sn.state.outside) outside++;
    else inside++;
    n++;
  };
  await visit('start');
  // 1 at a time from 12 down to the crowd's edge (4), 0.1 at a time inside it, then 1 at a time out the other side
  for (const [key, times] of [
    ['Shift+ArrowLeft', 8],
    ['ArrowLeft', 6],
    ['Shift+ArrowLeft', 3],
  ]) {
    for (let i = 0; i < times; i++) {
      await fig.page.keyboard.press(key);
      await visit(`${key} ${i}`);
    }
  }
  const slider = fig.page.locator(`${TAG} >> input[type=range]`);
  await slider.focus();
  for (const key of ['Home', 'PageUp', 'PageUp', 'End', 'PageDown']) {
    await fig.page.keyboard.press(key);
    await visit(key);
  }
  assert.ok(n >= 20, `${n} positions`);
  assert.ok(outside >= 3 && inside >= 3, `${outside} outside, ${inside} inside`);
  assert.deepEqual(fig.problems, []);
});

test('token IDs: the select switches the data, the slider hides, the words warn', async () => {
  await fig.page.locator(`${TAG} >> select`).selectOption('token_ids');
  const sn = await snap();
  check(sn, 'token IDs');
  assert.equal(
    await fig.page.evaluate(
      (t) => document.querySelector(t).shadowRoot.querySelector('input[type=range]').closest('label').hidden,
      TAG,
    ),
    true,
  );
  assert.ok(sn.svg.includes('min 11, max 50,256'), 'the largest ID reads exactly');
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'zh'), TAG);
  assert.match(
    (await snap()).desc,
    /^这些是 token ID。Min-max 把 11 放在 0、17 放在 0\.0001194，彼此相邻，把 50256 放在 1；/,
  );
  await fig.page.locator(`${TAG} >> select`).selectOption('measurements');
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'en'), TAG);
});

test('bad attributes keep the last drawing with a message', async () => {
  const good = (await snap()).state;
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('values', '1,2'), TAG);
  let sn = await snap();
  assert.match(sn.error, /values/);
  assert.deepEqual(sn.state.minMax, good.minMax);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.removeAttribute('values');
    f.setAttribute('data', 'pixels');
  }, TAG);
  sn = await snap();
  assert.match(sn.error, /data/);
  await fig.page.evaluate((t) => document.querySelector(t).removeAttribute('data'), TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});

test('token IDs: nothing in the figure or its caption offers a value to drag', async () => {
  await fig.page.locator(`${TAG} >> select`).selectOption('token_ids');
  const r = await fig.page.evaluate((t) => {
    const f = document.querySelector(t),
      root = f.shadowRoot;
    void f.state;
    const shown = [...root.querySelectorAll('svg text, [part=description], label')]
      .filter((e) => e.getClientRects().length && !e.closest('[hidden]'))
      .map((e) => e.textContent)
      .join(' ');
    const handle = root.querySelector('.handle');
    return {
      shown,
      handle: !!handle && !handle.hasAttribute('hidden') && handle.getAttribute('display') !== 'none',
      caption: f.closest('figure').querySelector('figcaption [data-lang=en]').textContent,
      captionZh: f.closest('figure').querySelector('figcaption [data-lang=zh]').textContent,
    };
  }, TAG);
  assert.doesNotMatch(r.shown, /drag/i, r.shown);
  assert.match(r.shown, /8 token IDs: names of vocabulary entries, not amounts/);
  assert.equal(r.handle, false, 'no handle');
  // the caption does not promise a draggable value whatever the data: it says when there is one
  assert.doesNotMatch(r.caption, /drag/i, 'the caption never says drag: in token-ID mode nothing can be');
  assert.doesNotMatch(r.captionZh, /拖/);
  assert.match(r.caption, /As token IDs there is no outlier to set/);
  await fig.page.locator(`${TAG} >> select`).selectOption('measurements');
  assert.match((await snap()).svg.join(' '), /drag the large dot/);
  assert.deepEqual(fig.problems, []);
});
