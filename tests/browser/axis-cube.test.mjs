// <nl-axis-cube> in Chromium: for every method, the orange points are exactly
// the group derived by hand from the definition, for several shapes and
// indices; rotation changes the view, not the group; keyboard-only use; errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, setup, shotsDir } from './helpers.mjs';

let env, page;
before(async () => {
  env = await setup();
  ({ page } = await openPage(env.browser, env.url + 'web/index.html'));
  await page.locator('nl-axis-cube').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
});
after(() => env.close());

// The group, by definition (independent of the core): which (b, t, d) share statistics with `index`.
function expected(method, [B, T, D], [b, t, d], G) {
  const out = [];
  for (let bb = 0; bb < B; bb++)
    for (let tt = 0; tt < T; tt++)
      for (let dd = 0; dd < D; dd++) {
        const same = {
          batch_norm: dd === d,
          layer_norm: bb === b && tt === t,
          rms_norm: bb === b && tt === t,
          instance_norm: bb === b && dd === d,
          group_norm: bb === b && Math.floor(dd / (D / G)) === Math.floor(d / (D / G)),
        }[method];
        if (same) out.push([bb, tt, dd]);
      }
  return out;
}

const state = () => page.evaluate(() => JSON.parse(JSON.stringify(document.querySelector('nl-axis-cube').state)));
const drawnOrange = () =>
  page.evaluate(() =>
    [...document.querySelector('nl-axis-cube').shadowRoot.querySelectorAll('circle.point.member')]
      .map((c) => [Number(c.dataset.b), Number(c.dataset.t), Number(c.dataset.d)])
      .sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]),
  );
const set = (attrs) =>
  page.evaluate((a) => {
    const f = document.querySelector('nl-axis-cube');
    for (const [k, v] of Object.entries(a)) f.setAttribute(k, v);
  }, attrs);

test('for every method, shape and index the orange points are the group', async () => {
  const shapes = [[3, 4, 5], [2, 3, 6], [1, 1, 4], [4, 2, 8]];
  let checked = 0;
  for (const shape of shapes) {
    const indices = [[0, 0, 0], shape.map((s) => s - 1), shape.map((s) => Math.floor(s / 2))];
    for (const index of indices) {
      for (const method of ['batch_norm', 'layer_norm', 'rms_norm', 'instance_norm', 'group_norm']) {
        const groups = method === 'group_norm' ? [...Array(shape[2]).keys()].map((g) => g + 1).filter((g) => shape[2] % g === 0) : [1];
        for (const G of groups) {
          await set({ shape: shape.join(','), index: index.join(','), method, 'num-groups': String(G) });
          const want = expected(method, shape, index, G);
          const s = await state();
          assert.equal(s.error, null);
          assert.deepEqual(s.members, want, `${method} G=${G} ${shape} ${index}: state`);
          assert.deepEqual(await drawnOrange(), want, `${method} G=${G} ${shape} ${index}: drawn`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked >= 80, `checked ${checked} configurations`);
});

test('GroupNorm: G = D gives InstanceNorm groups, G = 1 the whole example', async () => {
  await set({ shape: '3,4,5', index: '1,2,3', method: 'instance_norm' });
  const inst = (await state()).members;
  await set({ method: 'group_norm', 'num-groups': '5' });
  assert.deepEqual((await state()).members, inst);
  await set({ 'num-groups': '1' });
  const s = await state();
  assert.equal(s.members.length, 4 * 5);
  assert.ok(s.members.every((m) => m[0] === 1));
  assert.match(await page.locator('nl-axis-cube').locator('.summary').textContent(), /20 points .* a plane over T and D/);
});

test('a num-groups that does not divide D shows the core error, then recovers', async () => {
  await set({ shape: '3,4,5', method: 'group_norm', 'num-groups': '7' });
  const err = page.locator('nl-axis-cube').locator('.error');
  assert.match(await err.textContent(), /reduction_group: method group_norm: num_groups \(7\) must divide the channel count C \(5\)/);
  assert.equal(await page.locator('nl-axis-cube').locator('circle.point').count(), 60, 'the grid is still drawn');
  assert.equal((await drawnOrange()).length, 0);
  await set({ 'num-groups': '5' });
  assert.equal(await err.textContent(), '');
  assert.equal((await drawnOrange()).length, 4);
});

test('a bad shape attribute shows a message and the figure recovers', async () => {
  await set({ shape: '0,3,4' });
  assert.match(await page.locator('nl-axis-cube').locator('.error').textContent(), /shape must be three whole numbers/);
  await set({ shape: '2,3,4', method: 'layer_norm', index: '1,1,1' });
  assert.equal(await page.locator('nl-axis-cube').locator('.error').textContent(), '');
  assert.equal((await state()).members.length, 4);
});

test('arrow keys rotate the view and leave the group alone', async () => {
  await set({ shape: '3,4,5', method: 'batch_norm', index: '0,1,2' });
  const before = await state();
  const view = page.locator('nl-axis-cube').locator('.view');
  await view.focus();
  const x0 = await page.locator('nl-axis-cube').locator('circle.point').first().getAttribute('cx');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  const after = await state();
  assert.equal(after.yaw, before.yaw + 10);
  assert.equal(after.pitch, before.pitch + 10);
  assert.deepEqual(after.members, before.members);
  const x1 = await page.locator('nl-axis-cube').locator('circle.point').first().getAttribute('cx');
  assert.notEqual(x0, x1, 'the points moved on screen');
  await page.locator('nl-axis-cube').getByRole('button', { name: 'Reset view' }).click();
  await page.waitForFunction(() => document.querySelector('nl-axis-cube').state.yaw === -38);
});

test('dragging rotates; clicking a point picks the element', async () => {
  await set({ shape: '3,4,5', method: 'layer_norm', index: '0,0,0' });
  const box = await page.locator('nl-axis-cube').locator('.view').boundingBox();
  const yaw0 = (await state()).yaw;
  await page.mouse.move(box.x + 30, box.y + 30);
  await page.mouse.down();
  await page.mouse.move(box.x + 90, box.y + 40, { steps: 5 });
  await page.mouse.up();
  assert.notEqual((await state()).yaw, yaw0);
  const target = page.locator('nl-axis-cube').locator('circle[data-b="2"][data-t="3"][data-d="4"]');
  await target.click({ force: true });
  const s = await state();
  assert.deepEqual(s.index, [2, 3, 4]);
  assert.deepEqual(s.members, expected('layer_norm', [3, 4, 5], [2, 3, 4]));
});

test('keyboard only: choose a method and an element without the mouse', async () => {
  await set({ shape: '3,4,5', method: 'layer_norm', index: '0,0,0' });
  const cube = page.locator('nl-axis-cube');
  await cube.getByRole('combobox', { name: 'Method' }).focus();
  await page.keyboard.press('ArrowUp'); // layer_norm -> batch_norm
  let s = await state();
  assert.equal(s.method, 'batch_norm');
  await cube.getByRole('spinbutton', { name: 'index along D' }).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Tab');
  s = await state();
  assert.deepEqual(s.index, [0, 0, 1]);
  assert.deepEqual(s.members, expected('batch_norm', [3, 4, 5], [0, 0, 1]));
});

test('the image reading renames the axes and the meaning; Chinese text follows lang', async () => {
  await set({ shape: '3,4,5', method: 'instance_norm', index: '0,1,2', reading: 'image' });
  const cube = page.locator('nl-axis-cube');
  assert.match(await cube.locator('svg').textContent(), /HW \(4\)/);
  assert.match(await cube.locator('.description').textContent(), /Image reading: one channel of one image/);
  await page.click('[data-set-lang="zh"]');
  assert.match(await cube.locator('.summary').textContent(), /个点与元素/);
  await cube.screenshot({ path: join(shotsDir, 'axis-cube-zh.png') });
  await page.click('[data-set-lang="en"]');
  await set({ reading: 'sequence', method: 'group_norm', 'num-groups': '1' });
  await cube.screenshot({ path: join(shotsDir, 'axis-cube-gn.png') });
});
