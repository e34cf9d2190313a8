// <nl-vector-norms> as a reader drives it: both embeddings moved by keyboard
// on their tips and the ScaleNorm slider over its range; after each step the
// four results, the dot product, the cosine and the angle against float64
// oracles written here from the definitions, and the sentences against the
// state. Plus the article's worked example, Chinese, and bad attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-vector-norms';
const fig = onArticlePage(TAG);

const snap = () => fig.snap();
const f4 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 }).format(v);
const f3 = (v) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 3, signDisplay: 'negative' }).format(v);
const vec = (v) => `(${v.map(f3).join(', ')})`;
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);

function check(sn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], where);
  const norm2 = (v) => Math.hypot(...v),
    norm1 = (v) => v.reduce((t, c) => t + Math.abs(c), 0),
    normMax = (v) => Math.max(...v.map(Math.abs));
  const want = {
    l2: (v) => v.map((c) => c / Math.max(norm2(v), 1e-12)),
    l1: (v) => v.map((c) => c / Math.max(norm1(v), 1e-12)),
    max: (v) => v.map((c) => c / Math.max(normMax(v), 1e-12)),
    scale: (v) => v.map((c) => (s.g * c) / Math.max(norm2(v), 1e-5)),
  };
  for (const [m, fn] of Object.entries(want))
    for (const k of ['a', 'b']) fn(s[k]).forEach((v, i) => close(s[m][k][i], v, 1e-5, `${where} ${m}(${k})`));
  const dot = s.a[0] * s.b[0] + s.a[1] * s.b[1];
  close(s.dot, dot, 1e-5 * Math.max(1, Math.abs(dot)), `${where} a·b`);
  const cos = dot / (norm2(s.a) * norm2(s.b));
  close(s.cosine, cos, 1e-5, `${where} cosine`);
  close(s.angle, (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI, 1e-3, `${where} angle`);
  close(s.lengths[0], norm2(s.a), 1e-5, where);
  assert.ok(
    sn.desc.startsWith(
      `L2 keeps each direction and sets length 1: a becomes ${vec(s.l2.a)}, b ${vec(s.l2.b)}. L1 divides by |x₁| + |x₂|: ${vec(s.l1.a)} and ${vec(s.l1.b)}.`,
    ),
    `${where}: ${sn.desc}`,
  );
  assert.ok(
    sn.desc.endsWith(
      `The raw dot product a·b = ${f4(s.dot)} mixes length and alignment; after L2 normalization it is the cosine, ${f4(s.cosine)}, whatever the lengths.`,
    ),
    where,
  );
  assert.ok(
    sn.readout.startsWith(`a·b = ${f4(s.dot)} (lengths ${f4(s.lengths[0])} and ${f4(s.lengths[1])},`),
    `${where}: ${sn.readout}`,
  );
}

test("the article's example: (3, 4) has length 5 and L2 gives (0.6, 0.8); (30, 40) gives the same", async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('a', '3,4');
    f.setAttribute('b', '30,40');
  }, TAG);
  const s = (await snap()).state;
  close(s.lengths[0], 5, 1e-6, '‖(3, 4)‖');
  [0.6, 0.8].forEach((v, i) => close(s.l2.a[i], v, 1e-6, 'L2 (3, 4)'));
  [0.6, 0.8].forEach((v, i) => close(s.l2.b[i], v, 1e-6, 'L2 (30, 40)'));
  close(s.cosine, 1, 1e-6, 'parallel vectors: cosine 1');
  close(s.dot, 250, 1e-4, 'raw dot 3·30 + 4·40');
  [3 / 7, 4 / 7].forEach((v, i) => close(s.l1.a[i], v, 1e-6, 'L1 (3, 4)'));
  [0.75, 1].forEach((v, i) => close(s.max.a[i], v, 1e-6, 'max-norm (3, 4)'));
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('a', '3,1');
    f.setAttribute('b', '1,2');
  }, TAG);
});

test('both tips by keyboard and the g slider over its range: results, cosine and words follow', async () => {
  let n = 0;
  for (const [i, keys] of [
    [
      0,
      [
        'ArrowUp',
        'ArrowUp',
        'Shift+ArrowLeft',
        'Shift+ArrowLeft',
        'Shift+ArrowLeft',
        'ArrowDown',
        'Shift+ArrowDown',
        'Shift+ArrowDown',
      ],
    ],
    [
      1,
      [
        'Shift+ArrowRight',
        'Shift+ArrowRight',
        'ArrowDown',
        'Shift+ArrowDown',
        'Shift+ArrowDown',
        'Shift+ArrowLeft',
        'Shift+ArrowLeft',
      ],
    ],
  ]) {
    await fig.page.locator(`${TAG} >> .handle`).nth(i).focus();
    for (const key of keys) {
      await fig.page.keyboard.press(key);
      check(await snap(), `handle ${i} ${key} ${n}`);
      n++;
    }
  }
  const slider = fig.page.locator(`${TAG} >> input[type=range]`);
  await slider.focus();
  for (const key of ['Home', 'PageUp', 'ArrowRight', 'End', 'PageDown', 'ArrowLeft']) {
    await fig.page.keyboard.press(key);
    const sn = await snap();
    check(sn, `g ${key}`);
    n++;
  }
  assert.ok(n >= 20, `${n} positions`);
  const s = (await snap()).state;
  assert.notDeepEqual(s.a, [3, 1], 'a moved');
  assert.deepEqual(fig.problems, []);
});

test('Chinese words and bad attributes', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('a', '3,1');
    f.setAttribute('b', '1,2');
    f.setAttribute('g', '2');
    f.setAttribute('lang', 'zh');
  }, TAG);
  let sn = await snap();
  assert.match(sn.desc, /^L2 保留每个方向并把长度设为 1：a 变为 \(0\.949, 0\.316\)，b 变为 \(0\.447, 0\.894\)。/);
  assert.match(sn.readout, /^a·b = 5（长度 3\.162 与 2\.236，夹角 45°）/); // 3·1 + 1·2 = 5; cos = 5/√50 = 1/√2
  const good = sn.state;
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('a', '1,2,3'), TAG);
  sn = await snap();
  assert.match(sn.error, /a/);
  assert.deepEqual(sn.state.l2, good.l2);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('a', '0,0');
  }, TAG);
  sn = await snap();
  assert.notEqual(sn.error, '', 'a zero vector has no direction: a message, not NaN');
  assert.deepEqual(sn.bad, []);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('a', '3,1');
    f.setAttribute('lang', 'en');
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});

test('on a phone (360 px) the four panels are a 2 × 2 grid, under 900 px tall, with titles inside their panels', async () => {
  const context = await fig.env.browser.newContext({
    viewport: { width: 360, height: 740 },
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  const page = await context.newPage();
  await page.goto(fig.env.url + 'web/index.html');
  await page.locator(TAG).scrollIntoViewIfNeeded();
  await page.waitForFunction((t) => document.querySelector(t)?.state, TAG);
  await page.waitForTimeout(100);
  const r = await page.locator(TAG).evaluate((el) => {
    void el.state;
    const panels = [...el.shadowRoot.querySelectorAll('.vn-panels > svg')].map((s) => s.getBoundingClientRect());
    const spill = [];
    for (const s of el.shadowRoot.querySelectorAll('.vn-panels > svg')) {
      const b = s.getBoundingClientRect();
      for (const t of s.querySelectorAll('.panel-title, .panel-sub')) {
        const tb = t.getBoundingClientRect();
        if (tb.right > b.right + 1 || tb.left < b.left - 1) spill.push(t.textContent);
      }
    }
    return {
      height: el.getBoundingClientRect().height,
      rows: [...new Set(panels.map((p) => Math.round(p.top)))].length,
      cols: [...new Set(panels.map((p) => Math.round(p.left)))].length,
      spill,
    };
  });
  assert.equal(r.rows, 2, 'two rows');
  assert.equal(r.cols, 2, 'two columns');
  assert.ok(r.height <= 900, `${r.height.toFixed(0)} px tall`);
  assert.deepEqual(r.spill, [], 'titles stay inside their panels');
  await context.close();
});
