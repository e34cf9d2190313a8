// <nl-code-shapes> in Chromium: every highlighted expression's shown shape (in
// the callout at the expression and in the panel) matches a hand-derived list
// for two size settings; keyboard-only use; hover. The full sweep, bad input
// and the 360 px checks are in sweep-code.test.mjs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, setup, shotsDir } from './helpers.mjs';

let env, page;
before(async () => {
  env = await setup();
  ({ page } = await openPage(env.browser, env.url + 'web/index.html'));
  await page.locator('nl-code-shapes').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('nl-code-shapes')?.state?.expressions?.[0]?.shape);
});
after(() => env.close());

// Worked out by hand from the code: a last-axis reduction with keepdim keeps
// [B, T, 1]; broadcasting against x gives [B, T, d]; AdaLN's condition gives [B, 1, d].
const SYMBOLIC = {
  'l2-norm': 'B,T,1',
  'l2-divide': 'B,T,d',
  'ln-mean': 'B,T,1',
  'ln-var': 'B,T,1',
  'ln-hat': 'B,T,d',
  'ln-affine': 'B,T,d',
  'rms-ms': 'B,T,1',
  'rms-out': 'B,T,d',
  'ada-scale': 'B,1,d',
  'ada-shift': 'B,1,d',
  'ada-var': 'B,T,1',
  'ada-out': 'B,T,d',
};
const SETTINGS = [
  { sizes: { B: 2, T: 5, d: 8, d_c: 4 }, small: [2, 5, 1], full: [2, 5, 8], cond: [2, 1, 8] },
  { sizes: { B: 3, T: 1, d: 16, d_c: 7 }, small: [3, 1, 1], full: [3, 1, 16], cond: [3, 1, 16] },
];
const want = (setting, id) => {
  const sym = SYMBOLIC[id];
  return sym === 'B,T,1' ? setting.small : sym === 'B,T,d' ? setting.full : setting.cond;
};

const fig = () => page.locator('nl-code-shapes');
const state = () => page.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('nl-code-shapes').state)));

test('every expression is highlighted and its shown shape matches the hand-derived list, for two size settings', async () => {
  for (const setting of SETTINGS) {
    for (const [k, v] of Object.entries(setting.sizes)) {
      const box = fig().getByRole('spinbutton', { name: `size ${k}`, exact: true });
      await box.fill(String(v));
      await box.press('Enter');
    }
    const s = await state();
    assert.deepEqual(s.sizes, setting.sizes);
    assert.equal(s.expressions.length, Object.keys(SYMBOLIC).length);
    const nodes = fig().locator('.expr');
    assert.equal(await nodes.count(), s.expressions.length);
    for (let i = 0; i < s.expressions.length; i++) {
      const e = s.expressions[i];
      assert.deepEqual(e.shape, want(setting, e.id), `${e.id} in state`);
      assert.equal(e.symbolic.join(','), SYMBOLIC[e.id], `${e.id} symbolic`);
      await nodes.nth(i).hover();
      assert.equal(await nodes.nth(i).textContent(), e.code, 'the highlighted text is the expression');
      const expected = `[${SYMBOLIC[e.id].split(',').join(', ')}] → [${want(setting, e.id).join(', ')}]`;
      assert.equal(await fig().locator('.info .shape').textContent(), expected, `${e.id} shown in the panel`);
      assert.equal(await fig().locator('.callout').textContent(), expected, `${e.id} shown in the callout`);
      assert.ok(await fig().locator('.callout').isVisible(), 'the callout is open at the hovered expression');
      assert.equal((await state()).selected, e.id);
    }
  }
});

test('the sizes property takes an object or the attribute text; names left out keep their value', async () => {
  const set = (v) =>
    page.evaluate(async (v) => {
      const el = document.querySelector('nl-code-shapes');
      el.sizes = v;
      await el.updateComplete;
      return { sizes: el.sizes, attr: el.getAttribute('sizes') };
    }, v);
  const before = (await state()).sizes;
  let r = await set('B=7,d=12');
  assert.deepEqual(r.sizes, { ...before, B: 7, d: 12 });
  assert.equal(r.attr, `B=7,T=${before.T},d=12,d_c=${before.d_c}`, 'the attribute is written out in full');
  r = await set({ T: 9 });
  assert.deepEqual(r.sizes, { ...before, B: 7, d: 12, T: 9 });
  assert.deepEqual((await state()).expressions.find((e) => e.id === 'ln-mean').shape, [7, 9, 1]);
  await set(before); // the next tests start from the first test's sizes
  assert.deepEqual((await state()).sizes, before);
});

test('keyboard only: Tab into the code, arrow keys walk the expressions, End jumps to the last', async () => {
  await fig().locator('.expr').first().focus();
  assert.equal((await state()).selected, 'l2-norm');
  await page.keyboard.press('ArrowDown');
  assert.equal((await state()).selected, 'l2-divide');
  await page.keyboard.press('Tab');
  assert.equal((await state()).selected, 'ln-mean');
  await page.keyboard.press('End');
  assert.equal((await state()).selected, 'ada-out');
  assert.match(await fig().locator('.info .role').textContent(), /\[B, 1, d\] modulation broadcasts over tokens/);
  await page.keyboard.press('Home');
  assert.equal((await state()).selected, 'l2-norm');
  assert.equal((await state()).snippet, 'l2_normalize');
  assert.equal(await fig().locator('.callout').textContent(), '[B, T, 1] → [3, 1, 1]'); // sizes left by the first test
  await page.keyboard.press('Escape');
  assert.equal(await fig().locator('.callout').isVisible(), false, 'Escape closes the callout');
});

test('syntax colors come from the highlighter: keywords and numbers are tokens', async () => {
  assert.ok((await fig().locator('.token.keyword').count()) >= 8);
  assert.ok((await fig().locator('.token.number').count()) >= 8);
  assert.ok((await fig().locator('.token.comment').count()) >= 4);
});

test('a bad size shows a message; fixing it recovers; Chinese roles', async () => {
  const box = fig().getByRole('spinbutton', { name: 'size d', exact: true });
  await box.fill('0');
  await box.press('Enter');
  assert.match(await fig().locator('.error').textContent(), /d must be a whole number/);
  await box.fill('8');
  await box.press('Enter');
  assert.equal(await fig().locator('.error').textContent(), '');
  await page.click('[data-set-lang="zh"]');
  await fig().locator('.expr').nth(8).hover();
  assert.match(await fig().locator('.info .role').textContent(), /unsqueeze\(1\)/);
  assert.match(await fig().locator('.info .role').textContent(), /tokens 上重复/);
  await fig().screenshot({ path: join(shotsDir, 'code-shapes-zh.png') });
  await page.click('[data-set-lang="en"]');
});
