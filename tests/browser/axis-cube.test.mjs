// <nl-axis-cube> in Chromium: for every method, the group's points are exactly
// the group derived by hand from the definition, for several shapes and
// indices; rotation changes the view, not the group; keyboard-only use; touch;
// painter's order with the chosen element on top; colour tokens; errors.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cubeGroup, openPage, setup, shotsDir } from './helpers.mjs';

let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
  await page.locator('nl-axis-cube').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
});
after(() => env.close());

// The group, by definition (independent of the core): which (b, t, d) share statistics with `index`.
const expected = cubeGroup;

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

test('for every method, shape and index the highlighted points are the group', async () => {
  const shapes = [
    [3, 4, 5],
    [2, 3, 6],
    [1, 1, 4],
    [4, 2, 8],
  ];
  let checked = 0;
  for (const shape of shapes) {
    const indices = [[0, 0, 0], shape.map((s) => s - 1), shape.map((s) => Math.floor(s / 2))];
    for (const index of indices) {
      for (const method of ['batch_norm', 'layer_norm', 'rms_norm', 'instance_norm', 'group_norm']) {
        const groups =
          method === 'group_norm'
            ? [...Array(shape[2]).keys()].map((g) => g + 1).filter((g) => shape[2] % g === 0)
            : [1];
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
  assert.match(
    await page.locator('nl-axis-cube').locator('[part=description]').textContent(),
    /^GroupNorm: 20 points share statistics with element \(1, 2, 3\) of \[B, T, d\], a plane over T \(all 4\) and d \(all 5\)\./,
  );
});

test('a num-groups that does not divide D: a message naming the G that work, the last good drawing kept, then recovery', async () => {
  await set({ shape: '3,4,5', method: 'group_norm', 'num-groups': '5', index: '0,1,2' });
  const good = await state();
  await set({ 'num-groups': '7' });
  const err = page.locator('nl-axis-cube').locator('.error');
  assert.equal(
    await err.textContent(),
    'GroupNorm splits d = 5 into G equal groups, so G must divide 5; G = 7 does not. Choose G from 1, 5.',
  );
  const s = await state();
  assert.equal(s.error, await err.textContent());
  assert.deepEqual(s.members, good.members, 'the last good state is kept');
  assert.equal(await page.locator('nl-axis-cube').locator('circle.point').count(), 60, 'the grid is still drawn');
  assert.deepEqual(await drawnOrange(), good.members, 'and its group');
  const g = page.locator('nl-axis-cube').getByRole('combobox', { name: 'Groups G' });
  assert.deepEqual(await g.locator('option').allTextContents(), ['7 (not allowed)', '1', '5']);
  await g.selectOption('1');
  assert.equal(await err.textContent(), '');
  assert.equal((await drawnOrange()).length, 20);
  assert.equal(await page.locator('nl-axis-cube').getAttribute('num-groups'), '1');
  assert.deepEqual(await g.locator('option').allTextContents(), ['1', '5'], 'the refused G is gone once left');
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
  await page.waitForFunction(
    () =>
      document.querySelector('nl-axis-cube').state.yaw === -18 &&
      document.querySelector('nl-axis-cube').state.pitch === 20,
  );
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
  await cube.getByRole('spinbutton', { name: /^index along d/ }).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Tab');
  s = await state();
  assert.deepEqual(s.index, [0, 0, 1]);
  assert.deepEqual(s.members, expected('batch_norm', [3, 4, 5], [0, 0, 1]));
});

test('the image reading renames the axes (N, HW, C) everywhere; Chinese text follows lang', async () => {
  await set({ shape: '3,4,5', method: 'instance_norm', index: '0,1,2', reading: 'image' });
  const cube = page.locator('nl-axis-cube');
  assert.deepEqual(await cube.locator('svg text').allTextContents(), ['N (3)', 'HW (4)', 'C (5)']);
  const desc = await cube.locator('[part=description]').textContent();
  assert.match(
    desc,
    /^InstanceNorm: 4 points share statistics with element \(0, 1, 2\) of \[N, HW, C\], a line along HW \(all 4\)\./,
  );
  assert.match(desc, /Image reading: one channel of one image/);
  assert.doesNotMatch(desc, /\[B, T, d\]|\(b, t, d\)/);
  assert.deepEqual(await cube.locator('.index input').evaluateAll((l) => l.map((i) => i.getAttribute('aria-label'))), [
    'index along N (0 to 2)',
    'index along HW (0 to 3)',
    'index along C (0 to 4)',
  ]);
  await page.click('[data-set-lang="zh"]');
  assert.match(
    await cube.locator('[part=description]').textContent(),
    /^InstanceNorm：4 个点与 \[N, HW, C\] 的元素 \(0, 1, 2\) 共享统计量，构成一条线，沿 HW 的全部 4 个位置。/,
  );
  await cube.screenshot({ path: join(shotsDir, 'axis-cube-zh.png') });
  await page.click('[data-set-lang="en"]');
  await set({ reading: 'sequence', method: 'group_norm', 'num-groups': '1' });
  await cube.screenshot({ path: join(shotsDir, 'axis-cube-gn.png') });
});

test("painter's order: points far to near, the chosen element last, larger and on top wherever it sits", async () => {
  const cube = page.locator('nl-axis-cube');
  for (const [yaw, index] of [
    [0, '0,0,0'],
    [0, '2,3,4'],
    [60, '1,2,2'],
    [-120, '0,3,0'],
  ]) {
    await set({ shape: '3,4,5', method: 'layer_norm', index, reading: 'sequence' });
    // Turn the view with the keyboard to near the wanted yaw (steps of 10 degrees).
    await cube.locator('.view').focus();
    let s = await state();
    for (let k = 0; k < 40 && Math.abs(s.yaw - yaw) > 5; k++) {
      await page.keyboard.press(s.yaw < yaw ? 'ArrowRight' : 'ArrowLeft');
      s = await state();
    }
    const m = await page.evaluate(() => {
      const root = document.querySelector('nl-axis-cube').shadowRoot;
      const circles = [...root.querySelectorAll('circle.point')];
      const chosen = root.querySelector('circle.chosen');
      const box = chosen.getBoundingClientRect();
      const top = root.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return {
        last: circles.at(-1) === chosen,
        chosenR: Number(chosen.getAttribute('r')),
        maxOtherR: Math.max(...circles.filter((c) => c !== chosen).map((c) => Number(c.getAttribute('r')))),
        topIsChosen: top === chosen,
        chosenIndex: [chosen.dataset.b, chosen.dataset.t, chosen.dataset.d].join(','),
        // Depth from the state's angles, by the projection's definition: larger = nearer.
        order: circles
          .filter((c) => c !== chosen)
          .map((c) => [Number(c.dataset.b), Number(c.dataset.t), Number(c.dataset.d)]),
      };
    });
    assert.ok(m.last && m.topIsChosen, `${yaw}° ${index}: the chosen point is on top`);
    assert.equal(m.chosenIndex, index);
    assert.ok(m.chosenR > m.maxOtherR, 'and larger than any other');
    // Far to near: d to the right, t down, b into the screen, turned by yaw and tilted by pitch.
    const [B, T, D] = [3, 4, 5];
    const ry = (s.yaw * Math.PI) / 180,
      rp = (s.pitch * Math.PI) / 180;
    const depth = ([b, t, d]) => {
      const X = d - (D - 1) / 2,
        Y = (T - 1) / 2 - t,
        Z = (B - 1) / 2 - b;
      return Math.sin(rp) * Y + Math.cos(rp) * (-Math.sin(ry) * X + Math.cos(ry) * Z);
    };
    const depths = m.order.map(depth);
    for (let i = 1; i < depths.length; i++)
      assert.ok(depths[i] >= depths[i - 1] - 1e-9, `${yaw}°: drawn far to near (${i})`);
  }
});

test('colours: group members --nl-group, the chosen element --nl-chosen, the others --nl-reference', async () => {
  await set({ shape: '3,4,6', method: 'batch_norm', index: '1,1,1', reading: 'sequence' });
  const c = await page.evaluate(() => {
    const f = document.querySelector('nl-axis-cube');
    const root = f.shadowRoot;
    const probe = document.createElement('span');
    root.append(probe);
    const token = (name) => {
      probe.style.color = `var(${name})`;
      return getComputedStyle(probe).color;
    };
    const fill = (sel) => getComputedStyle(root.querySelector(sel)).fill;
    const out = {
      member: fill('circle.member:not(.chosen)'),
      chosen: fill('circle.chosen'),
      other: fill('circle.other'),
      group: token('--nl-group'),
      chosenToken: token('--nl-chosen'),
      reference: token('--nl-reference'),
    };
    probe.remove();
    return out;
  });
  assert.equal(c.member, c.group);
  assert.equal(c.chosen, c.chosenToken);
  assert.equal(c.other, c.reference);
  assert.notEqual(c.group, c.reference);
});

test('touch: a horizontal swipe on the view turns the grid, a vertical swipe scrolls the page, a tap chooses a point', async () => {
  const {
    page: phone,
    context,
    problems: phoneProblems,
  } = await openPage(env.browser, env.url + 'web/index.html', {
    viewport: { width: 390, height: 760 },
    hasTouch: true,
    isMobile: true,
  });
  const cube = phone.locator('nl-axis-cube');
  await cube.scrollIntoViewIfNeeded();
  await phone.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
  await phone.evaluate(() => document.querySelector('nl-axis-cube').setAttribute('shape', '3,4,6'));
  await cube.locator('.view').evaluate((v) => v.scrollIntoView({ block: 'center' }));
  const cdp = await context.newCDPSession(phone);
  const swipe = async (x0, y0, x1, y1) => {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x0, y: y0 }] });
    for (let k = 1; k <= 8; k++) {
      await cdp.send('Input.dispatchTouchEvent', {
        type: 'touchMove',
        touchPoints: [{ x: x0 + ((x1 - x0) * k) / 8, y: y0 + ((y1 - y0) * k) / 8 }],
      });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await phone.waitForTimeout(250);
  };
  const st = () =>
    phone.evaluate(() => ({
      yaw: document.querySelector('nl-axis-cube').state.yaw,
      pitch: document.querySelector('nl-axis-cube').state.pitch,
      index: document.querySelector('nl-axis-cube').state.index,
      scroll: window.scrollY,
    }));
  const box = await cube.locator('.view').boundingBox();
  const s0 = await st();
  await swipe(box.x + 60, box.y + box.height / 2, box.x + 220, box.y + box.height / 2);
  const s1 = await st();
  assert.notEqual(s1.yaw, s0.yaw, 'a horizontal swipe turns the grid');
  assert.equal(s1.pitch, s0.pitch, 'and does not tilt it');
  assert.deepEqual(s1.index, s0.index, 'a swipe is not a tap');
  await swipe(box.x + 120, box.y + box.height / 2 + 60, box.x + 120, box.y + box.height / 2 - 140);
  const s2 = await st();
  assert.ok(s2.scroll > s1.scroll + 20, `a vertical swipe scrolls the page (${s1.scroll} -> ${s2.scroll})`);
  assert.ok(Math.abs(s2.yaw - s1.yaw) < 3, 'without turning the grid much');
  // A tap on a point chooses it (the point drawn on top there).
  await cube.locator('.view').evaluate((v) => v.scrollIntoView({ block: 'center' }));
  await phone.waitForTimeout(100);
  const target = await phone.evaluate(() => {
    const root = document.querySelector('nl-axis-cube').shadowRoot;
    const c = [...root.querySelectorAll('circle.point')].filter((p) => !p.classList.contains('chosen'));
    // a point that no other point touches: a finger's tap on it can mean only it
    const clear = (p, x, y) =>
      [
        [0, 0],
        [-5, 0],
        [5, 0],
        [0, -5],
        [0, 5],
      ].every(([dx, dy]) => {
        const hit = root.elementFromPoint(x + dx, y + dy);
        return hit === p || !hit?.classList?.contains('point');
      });
    for (const p of c.reverse()) {
      const b = p.getBoundingClientRect();
      const x = b.x + b.width / 2,
        y = b.y + b.height / 2;
      if (root.elementFromPoint(x, y) === p && clear(p, x, y))
        return { x, y, index: [+p.dataset.b, +p.dataset.t, +p.dataset.d] };
    }
    return null;
  });
  assert.ok(target, 'a point is visible on top somewhere');
  const before = (await st()).index;
  await phone.touchscreen.tap(target.x, target.y);
  await phone.waitForTimeout(100);
  // The figure takes the point under the finger (or the nearest within a finger's reach, 22 px): where dots
  // touch, that may be a neighbour of the one the test aimed at, so check the promise, not one dot.
  const chosen = (await st()).index;
  assert.notDeepEqual(chosen, before, 'the tap chose an element');
  const where = await phone.evaluate(([b, t, d]) => {
    const p = document
      .querySelector('nl-axis-cube')
      .shadowRoot.querySelector(`circle.point[data-b="${b}"][data-t="${t}"][data-d="${d}"]`);
    const r = p.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }, chosen);
  assert.ok(Math.hypot(where.x - target.x, where.y - target.y) <= 22, `the chosen point ${chosen} lies under the tap`);
  assert.equal(await cube.getAttribute('index'), chosen.join(','));
  assert.deepEqual(phoneProblems, []);
  await context.close();
});

test('no console error, page error or CSP violation on the way', async () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
});
