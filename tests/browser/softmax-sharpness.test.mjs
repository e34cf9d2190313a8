// <nl-softmax-sharpness> as a reader reads it: the weights line prints every
// weight at one precision (5 significant digits, a power of ten below 0.001,
// never "0.000045398" beside "0.99995"), and the bars' title names one scale
// when the chosen scale is the gray reference's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-softmax-sharpness';
const fig = onArticlePage(TAG);
const read = () =>
  fig.page.evaluate((t) => {
    const f = document.querySelector(t),
      r = f.shadowRoot;
    return {
      state: JSON.parse(JSON.stringify(f.state)),
      numbers: r.querySelector('.numbers').textContent,
      titles: [...r.querySelectorAll('.pane-title')].map((x) => x.textContent),
      desc: r.querySelector('[part=description]').textContent,
    };
  }, TAG);
const set = (attrs) =>
  fig.page.evaluate(
    ([t, a]) => {
      const f = document.querySelector(t);
      for (const [k, v] of Object.entries(a)) f.setAttribute(k, v);
    },
    [TAG, attrs],
  );

test('scale 10 on (1, 0): weights 0.99995 and 4.5398 × 10⁻⁵ (hand-derived), one precision', async () => {
  await set({ scores: '1,0', factor: '10' });
  const r = await read();
  // softmax(10, 0) = (1/(1 + e⁻¹⁰), 1/(1 + e¹⁰)) = (0.9999546, 0.0000453979)
  assert.ok(r.numbers.endsWith('weights (0.99995, 4.5398 × 10⁻⁵)'), r.numbers);
  assert.ok(!/0\.0000/.test(r.numbers + r.desc), 'no run of zeros');
  assert.equal(r.titles[0], 'Attention weights at scale 10 (gray: scale 1)');
});

test('at scale 1 the title names scale 1 once; Chinese too', async () => {
  await set({ scores: '1,0', factor: '1' });
  let r = await read();
  assert.equal(r.titles[0], 'Attention weights at scale 1');
  assert.match(r.desc, /This is scale 1, so the gray bars show the same weights\./);
  await set({ lang: 'zh' });
  r = await read();
  assert.equal(r.titles[0], '缩放 1 时的 attention weights');
  await set({ factor: '2' });
  assert.equal((await read()).titles[0], '缩放 2 时的 attention weights（灰色：缩放 1）');
  await set({ factor: '1', lang: 'en' });
  assert.deepEqual(fig.problems, []);
});
