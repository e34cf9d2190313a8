// <nl-qk-norm> as a reader uses it: α and g by keyboard over their ranges, and
// a new draw. The queries and keys are the core's seeded draws, so the checks
// are what the definitions promise: one query's weights sum to 1 and their
// entropy and largest weight are those the state reports; every entropy lies
// in [0, log 16]; QK-Norm's curves are flat in α; without it attention
// sharpens as α grows; the uniform row gives log 16 and 1/16; and every
// sentence matches the state.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-qk-norm';
const fig = onArticlePage(TAG);
const snap = () => fig.snap();
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);
const f3 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }).format(v);
const entropyOf = (p) => -p.reduce((t, v) => t + (v > 0 ? v * Math.log(v) : 0), 0);

function check(sn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], where);
  close(s.maxEntropy, Math.log(16), 1e-5, `${where}: the uniform row's entropy is log 16`);
  close(s.uniformWeight, 1 / 16, 1e-7, where);
  for (const kind of ['plain', 'qk']) {
    const w = s.here[kind].weights;
    close(
      w.reduce((a, b) => a + b),
      1,
      1e-5,
      `${where} ${kind}: one query's weights sum to 1`,
    );
    close(s.here[kind].row.entropy, entropyOf(w), 1e-4, `${where} ${kind}: that row's entropy, from its weights`);
    close(s.here[kind].row.largest, Math.max(...w), 1e-7, `${where} ${kind}: that row's largest weight`);
    for (const h of s.entropy[kind])
      assert.ok(h >= -1e-6 && h <= Math.log(16) + 1e-5, `${where}: entropy within [0, log 16]`);
  }
  // QK-Norm's attention does not depend on α: flat curves, equal to the value at α
  for (const v of s.entropy.qk) close(v, s.entropy.qk[0], 1e-5, `${where}: QK-Norm entropy flat in α`);
  for (const v of s.largest.qk) close(v, s.largest.qk[0], 1e-6, `${where}: QK-Norm largest weight flat in α`);
  close(s.here.qk.entropy, s.entropy.qk[0], 1e-5, where);
  // without it, attention sharpens as α grows
  for (let i = 1; i < s.alphas.length; i++)
    assert.ok(s.entropy.plain[i] <= s.entropy.plain[i - 1] + 1e-4, `${where}: entropy falls with α`);
  const v = {
    a: f3(s.alpha),
    g: f3(s.g),
    h: f3(s.here.plain.entropy),
    m: f3(s.here.plain.largest),
    h2: f3(s.here.qk.entropy),
    m2: f3(s.here.qk.largest),
    hmax: f3(s.maxEntropy),
  };
  assert.ok(
    sn.desc.startsWith(
      `With q and k scaled by α = ${v.a}, attention without QK-Norm has mean entropy ${v.h} (at most ${v.hmax}, the uniform row) and mean largest weight ${v.m}:`,
    ),
    `${where}: ${sn.desc}`,
  );
  assert.equal(
    sn.desc.includes('It has nearly collapsed onto one key per query.'),
    s.here.plain.largest > 0.9,
    `${where}: "collapsed" exactly when the largest weight passes 0.9`,
  );
  assert.ok(
    sn.desc.endsWith(
      `within ±${v.g} whatever the norms: entropy ${v.h2} and largest weight ${v.m2}, the same at every α.`,
    ),
    where,
  );
}

test('α and g by keyboard across their ranges, and a new draw', async () => {
  const sliders = fig.page.locator(`${TAG} >> input[type=range]`);
  let n = 0,
    collapsed = 0;
  await sliders.nth(0).focus();
  for (const key of [
    'Home',
    'PageUp',
    'PageUp',
    'PageUp',
    'ArrowRight',
    'PageUp',
    'PageUp',
    'End',
    'PageDown',
    'ArrowLeft',
    'ArrowLeft',
  ]) {
    await fig.page.keyboard.press(key);
    const sn = await snap();
    check(sn, `α ${key} → ${sn.state.alpha}`);
    if (/collapsed/.test(sn.desc)) collapsed++;
    n++;
  }
  await sliders.nth(1).focus();
  for (const key of ['Home', 'PageUp', 'PageUp', 'End', 'PageDown', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft']) {
    await fig.page.keyboard.press(key);
    check(await snap(), `g ${key}`);
    n++;
  }
  const before = (await snap()).state;
  await fig.page.locator(`${TAG} >> button`).click();
  const after = await snap();
  assert.equal(after.state.seed, before.seed + 1);
  assert.notDeepEqual(after.state.here.plain.weights, before.here.plain.weights, 'other queries and keys');
  check(after, 'new draw');
  assert.ok(n >= 19 && collapsed >= 2, `${n} positions, ${collapsed} collapsed`);
  assert.deepEqual(fig.problems, []);
});

test('Chinese, and a bad attribute', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('alpha', '2');
    f.setAttribute('g', '5');
    f.setAttribute('lang', 'zh');
  }, TAG);
  const sn = await snap();
  assert.match(sn.desc, /^q 与 k 都乘以 α = 2 时，不用 QK-Norm 的 attention 平均熵为 /);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('alpha', '99'), TAG);
  assert.match((await snap()).error, /alpha/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('alpha', '2');
    f.setAttribute('lang', 'en');
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});

test('panel titles: three different ones, each naming what its panel plots, whole inside the panel', async () => {
  const titles = () =>
    fig.page.evaluate((t) => {
      const r = document.querySelector(t).shadowRoot;
      return [...r.querySelectorAll('svg')].map((svg) => {
        const title = svg.querySelector('.panel-title');
        const a = title.getBoundingClientRect(),
          b = svg.getBoundingClientRect();
        return { text: title.textContent, inside: a.left >= b.left - 0.5 && a.right <= b.right + 0.5 };
      });
    }, TAG);
  const want = {
    en: [/entropy/, /largest weight/, /^Query 1: weights on 16 keys, α = 2$/],
    zh: [/熵/, /最大 weight/, /^第 1 个 query 的 16 个 weight（α = 2）$/],
  };
  for (const width of [1280, 360]) {
    await fig.page.setViewportSize({ width, height: 900 });
    for (const lang of ['en', 'zh']) {
      await fig.page.evaluate(
        async ([t, l]) => {
          const f = document.querySelector(t);
          f.setAttribute('lang', l);
          f.setAttribute('alpha', '2');
          await f.updateComplete;
        },
        [TAG, lang],
      );
      await fig.page.waitForTimeout(100); // the redraw at the new width
      const got = await titles();
      assert.equal(new Set(got.map((g) => g.text)).size, 3, `${lang}: ${got.map((g) => g.text).join(' | ')}`);
      got.forEach((g, i) => {
        assert.match(g.text, want[lang][i]);
        assert.ok(g.inside, `${width} px, ${lang}: "${g.text}" runs out of its panel`);
      });
    }
  }
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'en'), TAG);
  await fig.page.setViewportSize({ width: 1100, height: 900 });
});
