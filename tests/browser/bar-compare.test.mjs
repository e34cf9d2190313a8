// <nl-bar-compare> in Chromium: the article's two experiments checked in the
// element's state and in the drawn bars, keyboard use, the language switch,
// recovery from bad attributes, no CSP violation; screenshots saved.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, setup, shotsDir } from './helpers.mjs';

let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
  await page.locator('nl-bar-compare').scrollIntoViewIfNeeded(); // figures start when they scroll into view
  await page.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current);
});
after(() => env.close());

const state = () => page.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('nl-bar-compare').state)));
// Heights of the drawn bars, per panel and kind, read from the SVG.
const heights = () =>
  page.evaluate(() => {
    const root = document.querySelector('nl-bar-compare').shadowRoot;
    const out = {};
    for (const g of root.querySelectorAll('g.panel')) {
      const p = g.dataset.panel;
      out[p] = {
        reference: [...g.querySelectorAll('rect.reference')].map((r) => Number(r.getAttribute('height'))),
        current: [...g.querySelectorAll('rect.current')].map((r) => Number(r.getAttribute('height'))),
      };
    }
    return out;
  });
const maxDiff = (a, b) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));
const clickButton = (name) => page.locator('nl-bar-compare').getByRole('button', { name, exact: true }).click();

test('starts at (1,2,3) with every panel computed', async () => {
  const s = await state();
  assert.deepEqual(s.vector, [1, 2, 3]);
  assert.deepEqual(s.input, [1, 2, 3]);
  const r = Math.sqrt(1.5);
  [-r, 0, r].forEach((w, i) => assert.ok(Math.abs(s.reference.layer_norm[i] - w) < 1e-4));
  for (const p of ['l2', 'layer_norm', 'rms_norm']) assert.ok(maxDiff(s.current[p], s.reference[p]) < 1e-7);
});

test('"Add 100 only": LayerNorm stays on its gray bars, L2 and RMSNorm move', async () => {
  const events = page.evaluate(
    () => new Promise((resolve) => document.querySelector('nl-bar-compare').addEventListener('change', () => resolve(true), { once: true })),
  );
  await clickButton('Add 100 only');
  assert.equal(await events, true, 'a change event fires');
  const s = await state();
  assert.deepEqual(s.input, [101, 102, 103]);
  assert.equal(s.offset, 100);
  assert.equal(s.scale, 1);
  assert.ok(maxDiff(s.current.layer_norm, s.reference.layer_norm) <= 1e-6, 'LN equals its reference');
  assert.ok(maxDiff(s.current.l2, s.reference.l2) > 0.1, 'L2 changed');
  assert.ok(maxDiff(s.current.rms_norm, s.reference.rms_norm) > 0.1, 'RMSNorm changed');
  const h = await heights();
  assert.ok(maxDiff(h.layer_norm.current, h.layer_norm.reference) < 0.01, `LN bars ${JSON.stringify(h.layer_norm)}`);
  assert.ok(maxDiff(h.l2.current, h.l2.reference) > 1, 'L2 bars differ');
  assert.ok(maxDiff(h.rms_norm.current, h.rms_norm.reference) > 1, 'RMSNorm bars differ');
  const desc = await page.locator('nl-bar-compare').locator('.description').textContent();
  assert.match(desc, /LayerNorm unchanged/);
  assert.match(desc, /L2 and RMSNorm changed/);
  await page.locator('nl-bar-compare').screenshot({ path: join(shotsDir, 'bar-compare-add100.png') });
});

test('"Multiply by 10 only": all three outputs return to their references up to eps', async () => {
  await clickButton('Multiply by 10 only');
  const s = await state();
  assert.deepEqual(s.input, [10, 20, 30]);
  for (const p of ['l2', 'layer_norm', 'rms_norm']) {
    assert.ok(maxDiff(s.current[p], s.reference[p]) < 1e-4, `${p}: ${s.current[p]} vs ${s.reference[p]}`);
  }
  const h = await heights();
  for (const p of ['l2', 'layer_norm', 'rms_norm']) assert.ok(maxDiff(h[p].current, h[p].reference) < 0.05, p);
  assert.ok(maxDiff(h.input.current, h.input.reference) > 1, 'the input bars are ten times taller');
});

test('eps is shown and settable; a large eps makes the x10 difference visible', async () => {
  const box = page.locator('nl-bar-compare').getByRole('spinbutton', { name: 'eps' });
  assert.equal(Number(await box.inputValue()), 1e-5);
  await box.fill('10');
  await box.press('Enter');
  const s = await state();
  assert.equal(s.eps, 10);
  assert.ok(maxDiff(s.current.layer_norm, s.reference.layer_norm) > 0.1, 'eps = 10 dominates the variance of (1,2,3)');
  await box.fill('0.00001');
  await box.press('Enter');
});

test('keyboard only: Tab to the scale slider, arrow keys move it, Enter presses Reset', async () => {
  await clickButton('Reset');
  await page.locator('nl-bar-compare').getByRole('slider', { name: 'Common scale' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  let s = await state();
  assert.ok(Math.abs(s.scale - 1.2) < 1e-9, `scale ${s.scale}`);
  assert.ok(Math.abs(s.input[2] - 3.6) < 1e-5);
  // Tab through the offset slider and its box to the buttons
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press('Tab');
    const label = await page.evaluate(() => document.querySelector('nl-bar-compare').shadowRoot.activeElement?.textContent);
    if (label === 'Reset') break;
  }
  await page.keyboard.press('Enter');
  s = await state();
  assert.equal(s.scale, 1);
  assert.equal(s.offset, 0);
});

test('the language switch changes the page and the figure, and is remembered', async () => {
  await page.click('[data-set-lang="zh"]');
  const fig = page.locator('nl-bar-compare');
  assert.equal(await fig.getByRole('button', { name: '只加 100' }).count(), 1);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.match(await fig.locator('.description').textContent(), /不变/);
  await page.locator('#fig-bars').screenshot({ path: join(shotsDir, 'bar-compare-zh.png') });
  await page.reload();
  await page.locator('nl-bar-compare').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current);
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
  assert.equal(await fig.getByRole('button', { name: '只乘 10' }).count(), 1);
  await page.click('[data-set-lang="en"]');
  assert.equal(await fig.getByRole('button', { name: 'Multiply by 10 only' }).count(), 1);
});

test('a bad vector attribute shows a message in place and the figure recovers', async () => {
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('vector', 'a,b'));
  const err = page.locator('nl-bar-compare').locator('.error');
  assert.match(await err.textContent(), /at least two numbers/);
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('vector', '3,4'));
  assert.equal(await err.textContent(), '');
  const s = await state();
  assert.deepEqual(s.vector, [3, 4]);
  assert.ok(Math.abs(s.current.l2[0] - 0.6) < 1e-6);
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('vector', '1,2,3'));
});

test('a zero-variance input with eps 0 shows the core error, then recovers', async () => {
  await page.evaluate(() => {
    const f = document.querySelector('nl-bar-compare');
    f.eps = 0;
    f.scale = 0;
    f.offset = 5; // input (5, 5, 5): L2 and RMSNorm are fine, LayerNorm's variance is 0
  });
  assert.match(await page.locator('nl-bar-compare').locator('.error').textContent(), /layer_norm: .*zero/);
  await page.evaluate(() => {
    const f = document.querySelector('nl-bar-compare');
    f.scale = 1;
    f.offset = 0;
    f.eps = 1e-5;
  });
  assert.equal(await page.locator('nl-bar-compare').locator('.error').textContent(), '');
});

test('no page errors and no CSP violation under the strict policy; full-page screenshot', async () => {
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(problems, []);
  await page.screenshot({ path: join(shotsDir, 'article-en.png'), fullPage: true });
});
