// <nl-axis-cube> in Chromium: for every method, the group's cells are exactly
// the group derived by hand from the definition, for several shapes and
// indices; rotation changes the view, not the group; keyboard-only use; touch;
// painter's order with the chosen element on top; colour tokens; errors; depth
// cues and the group's solid outlined block; one cell per element at 360 px; axis arrows on the lattice's edges and their labels
// clear of each other at every angle (en, zh, 360 and 1280 px); the small
// multiples' groups against hand-derived cell sets; sizes on a phone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cubeGroup, openPage, setAttributes, setup, shotsDir } from './helpers.mjs';

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
/** In the page: set `attrs` (if any), wait for the update, and read the state and the cells drawn as the group. */
async function readGroup(attrs) {
  const f = document.querySelector('nl-axis-cube');
  for (const [k, v] of Object.entries(attrs ?? {})) f.setAttribute(k, v);
  await f.updateComplete;
  return {
    s: JSON.parse(JSON.stringify(f.state)),
    drawn: [...f.shadowRoot.querySelectorAll('path.voxel.member')]
      .map((c) => [Number(c.dataset.b), Number(c.dataset.t), Number(c.dataset.d)])
      .sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]),
  };
}
const drawnOrange = async () => (await page.evaluate(readGroup, null)).drawn;
const set = (attrs) => setAttributes(page, 'nl-axis-cube', attrs);

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
          // one round trip per configuration: set, wait for the update, read the state and the drawing
          const { s, drawn } = await page.evaluate(readGroup, {
            shape: shape.join(','),
            index: index.join(','),
            method,
            'num-groups': String(G),
          });
          const want = expected(method, shape, index, G);
          assert.equal(s.error, null);
          assert.deepEqual(s.members, want, `${method} G=${G} ${shape} ${index}: state`);
          assert.deepEqual(drawn, want, `${method} G=${G} ${shape} ${index}: drawn`);
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
    /^GroupNorm: 20 cells share statistics with element \(1, 2, 3\) of \[B, T, D\], a plane over T \(all 4\) and D \(all 5\)\./,
  );
});

test('a num-groups that does not divide D: a message naming the G that work, the last good drawing kept, then recovery', async () => {
  await set({ shape: '3,4,5', method: 'group_norm', 'num-groups': '5', index: '0,1,2' });
  const good = await state();
  await set({ 'num-groups': '7' });
  const err = page.locator('nl-axis-cube').locator('.error');
  assert.equal(
    await err.textContent(),
    'GroupNorm splits D = 5 into G equal groups, so G must divide 5; G = 7 does not. Choose G from 1, 5.',
  );
  const s = await state();
  assert.equal(s.error, await err.textContent());
  assert.deepEqual(s.members, good.members, 'the last good state is kept');
  assert.equal(await page.locator('nl-axis-cube').locator('path.voxel').count(), 60, 'the block is still drawn');
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
  const x0 = await page.locator('nl-axis-cube').locator('path.voxel').first().getAttribute('d');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowUp');
  const after = await state();
  assert.equal(after.yaw, before.yaw + 10);
  assert.equal(after.pitch, before.pitch + 10);
  assert.deepEqual(after.members, before.members);
  const x1 = await page.locator('nl-axis-cube').locator('path.voxel').first().getAttribute('d');
  assert.notEqual(x0, x1, 'the cells moved on screen');
  await page.locator('nl-axis-cube').getByRole('button', { name: 'Reset view' }).click();
  await page.waitForFunction(
    () =>
      document.querySelector('nl-axis-cube').state.yaw === -18 &&
      document.querySelector('nl-axis-cube').state.pitch === 30,
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
  const target = page.locator('nl-axis-cube').locator('path.voxel[data-b="2"][data-t="3"][data-d="4"]');
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
  await cube.getByRole('spinbutton', { name: /^index along D/ }).focus();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Tab');
  s = await state();
  assert.deepEqual(s.index, [0, 0, 1]);
  assert.deepEqual(s.members, expected('batch_norm', [3, 4, 5], [0, 0, 1]));
});

test('the image reading renames the axes (N, HW, C) everywhere; Chinese text follows lang', async () => {
  await set({ shape: '3,4,5', method: 'instance_norm', index: '0,1,2', reading: 'image' });
  const cube = page.locator('nl-axis-cube');
  assert.deepEqual(await cube.locator('svg.main text').allTextContents(), ['N (3)', 'HW (4)', 'C (5)']);
  const desc = await cube.locator('[part=description]').textContent();
  assert.match(
    desc,
    /^InstanceNorm: 4 cells share statistics with element \(0, 1, 2\) of \[N, HW, C\], a line along HW \(all 4\)\./,
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
    /^InstanceNorm：4 个格子与 \[N, HW, C\] 的元素 \(0, 1, 2\) 共享统计量，构成一条线，沿 HW 的全部 4 个位置。/,
  );
  await cube.screenshot({ path: join(shotsDir, 'axis-cube-zh.png') });
  await page.click('[data-set-lang="en"]');
  await set({ reading: 'sequence', method: 'group_norm', 'num-groups': '1' });
  await cube.screenshot({ path: join(shotsDir, 'axis-cube-gn.png') });
});

test('the hidden width has one name, D, in the picture, the small multiples, the controls, the text and the article', async () => {
  const cube = page.locator('nl-axis-cube');
  for (const lang of ['en', 'zh']) {
    await set({ shape: '2,4,6', method: 'group_norm', 'num-groups': '2', index: '1,2,4', reading: 'sequence', lang });
    await page.evaluate(() => document.querySelector('nl-axis-cube').updateComplete);
    assert.deepEqual(await cube.locator('svg.main text').allTextContents(), ['B (2)', 'T (4)', 'D (6)'], lang);
    const words = await cube.evaluate((f) => {
      const r = f.shadowRoot;
      return [
        r.querySelector('[part=description]').textContent,
        ...[...r.querySelectorAll('.index input')].map((i) => i.getAttribute('aria-label')),
        ...[...r.querySelectorAll('option')].map((o) => o.textContent),
        ...[...r.querySelectorAll('svg text, figcaption, .multiple *')].map((t) => t.textContent),
      ].join(' | ');
    });
    assert.match(words, /D\/G|\[B, T, D\]|along D/, `${lang}: ${words}`);
    assert.doesNotMatch(words, /\[B, T, d\]|\bd\/G|× d\b|\bd features|\bd 个|along d\b/, `${lang}: ${words}`);
  }
  // the article around the figure and its caption say D too
  const article = await page.evaluate(() =>
    [...document.querySelectorAll('#fig-cube figcaption, #fig-cube ~ *')].map((e) => e.textContent).join(' '),
  );
  assert.match(article, /\[T × D\]/);
  await set({ lang: 'en' });
});

test("painter's order: cells far to near, the chosen element last, full-size and on top wherever it sits", async () => {
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
      const circles = [...root.querySelectorAll('path.voxel')];
      const chosen = root.querySelector('path.voxel.chosen');
      const box = chosen.getBoundingClientRect();
      const top = root.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
      return {
        last: circles.at(-1) === chosen,
        // (every cell is the same cube seen from the same side, scaled: its width on screen measures its size)
        chosenR: chosen.getBBox().width,
        maxOtherR: Math.max(...circles.filter((c) => c !== chosen).map((c) => c.getBBox().width)),
        topIsChosen: top === chosen,
        chosenIndex: [chosen.dataset.b, chosen.dataset.t, chosen.dataset.d].join(','),
        // Depth from the state's angles, by the projection's definition: larger = nearer.
        order: circles
          .filter((c) => c !== chosen)
          .map((c) => [Number(c.dataset.b), Number(c.dataset.t), Number(c.dataset.d)]),
      };
    });
    assert.ok(m.last && m.topIsChosen, `${yaw}° ${index}: the chosen cell is on top`);
    assert.equal(m.chosenIndex, index);
    assert.ok(m.chosenR >= m.maxOtherR - 0.2, 'and no other cell is larger');
    // Far to near: d to the right, b down, t into the screen (one [T × D] sheet per b, as in the small
    // multiples), turned by yaw and tilted by pitch.
    const [B, T, D] = [3, 4, 5];
    const ry = (s.yaw * Math.PI) / 180,
      rp = (s.pitch * Math.PI) / 180;
    const depth = ([b, t, d]) => {
      const X = d - (D - 1) / 2,
        Y = (B - 1) / 2 - b,
        Z = (T - 1) / 2 - t;
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
      member: fill('path.voxel.member:not(.chosen)'),
      chosen: fill('path.voxel.chosen'),
      other: fill('path.voxel.other'),
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

/** The article on a touch phone of this viewport, scrolled to the cube once it has drawn its group. */
async function phoneAtCube(viewport) {
  const opened = await openPage(env.browser, env.url + 'web/index.html', { viewport, hasTouch: true, isMobile: true });
  const cube = opened.page.locator('nl-axis-cube');
  await cube.scrollIntoViewIfNeeded();
  await opened.page.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
  return { ...opened, cube };
}

test('touch: a horizontal swipe on the view turns the grid, a vertical swipe scrolls the page, a tap chooses a point', async () => {
  const { page: phone, context, problems: phoneProblems, cube } = await phoneAtCube({ width: 390, height: 760 });
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
    const c = [...root.querySelectorAll('path.voxel')].filter((p) => !p.classList.contains('chosen'));
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
        return hit === p || !hit?.classList?.contains('voxel');
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
      .shadowRoot.querySelector(`path.voxel[data-b="${b}"][data-t="${t}"][data-d="${d}"]`);
    const r = p.getBoundingClientRect();
    return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
  }, chosen);
  assert.ok(Math.hypot(where.x - target.x, where.y - target.y) <= 22, `the chosen point ${chosen} lies under the tap`);
  assert.equal(await cube.getAttribute('index'), chosen.join(','));
  assert.deepEqual(phoneProblems, []);
  await context.close();
});

// ---- legibility: depth, the group's box, axes on the lattice, labels clear at every angle ----------

/**
 * In the page: rotate the view by arrow keys sent to it (the view's own keydown handling) and
 * measure after each key the axis labels (screen boxes, font size), the axis arrows (start and
 * tip on screen) and the lattice's frame edges.
 */
function rotateAndMeasure(keys) {
  const f = document.querySelector('nl-axis-cube');
  const root = f.shadowRoot;
  const view = root.querySelector('.view');
  const svg = root.querySelector('svg.main');
  const screen = (node, x, y) => {
    const m = node.getScreenCTM();
    return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
  };
  const ends = (l) => ({
    from: screen(l, +l.getAttribute('x1'), +l.getAttribute('y1')),
    to: screen(l, +l.getAttribute('x2'), +l.getAttribute('y2')),
  });
  const measure = () => {
    const sb = svg.getBoundingClientRect();
    return {
      yaw: f.state.yaw,
      pitch: f.state.pitch,
      svg: { x0: sb.left, x1: sb.right, y0: sb.top, y1: sb.bottom },
      labels: [...svg.querySelectorAll('text.axis-label')].map((t) => {
        const r = t.getBoundingClientRect();
        return {
          text: t.textContent,
          axis: +t.dataset.axis,
          x0: r.left,
          x1: r.right,
          y0: r.top,
          y1: r.bottom,
          px: t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize),
        };
      }),
      arrows: [...svg.querySelectorAll('line.axis-line')].map((l) => ({ axis: +l.dataset.axis, ...ends(l) })),
      frame: [...svg.querySelectorAll('line.frame')].map(ends),
    };
  };
  const out = [measure()];
  for (const key of keys) {
    view.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }));
    out.push(measure());
  }
  return out;
}

// Every yaw in 10° steps at pitches 20°, 60°, 89° (the limit) and -30°, -89°: 180 angles.
const TURN = [
  ...Array(36).fill('ArrowRight'),
  ...Array(4).fill('ArrowUp'),
  ...Array(36).fill('ArrowRight'),
  ...Array(3).fill('ArrowUp'),
  ...Array(36).fill('ArrowRight'),
  ...Array(12).fill('ArrowDown'),
  ...Array(36).fill('ArrowRight'),
  ...Array(6).fill('ArrowDown'),
  ...Array(36).fill('ArrowRight'),
];
const apart = (a, b) => a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0;
const distToBox = (p, r) => Math.hypot(Math.max(r.x0 - p.x, 0, p.x - r.x1), Math.max(r.y0 - p.y, 0, p.y - r.y1));
const same = (p, q, tol = 0.6) => Math.hypot(p.x - q.x, p.y - q.y) <= tol;

/** The checks for one measured angle: labels apart, inside, ≥ 10 px, at their own arrow's tip; arrows on the lattice. */
function checkAngle(m, tag) {
  const at = `${tag} yaw ${m.yaw} pitch ${m.pitch}`;
  assert.equal(m.labels.length, 3, at);
  for (let i = 0; i < 3; i++)
    for (let j = i + 1; j < 3; j++)
      assert.ok(
        apart(m.labels[i], m.labels[j]),
        `${at}: "${m.labels[i].text}" and "${m.labels[j].text}" overlap ${JSON.stringify([m.labels[i], m.labels[j]])}`,
      );
  for (const L of m.labels) {
    assert.ok(L.px >= 10, `${at}: "${L.text}" is ${L.px.toFixed(1)} px`);
    assert.ok(
      L.x0 >= m.svg.x0 - 1 && L.x1 <= m.svg.x1 + 1 && L.y0 >= m.svg.y0 - 1 && L.y1 <= m.svg.y1 + 1,
      `${at}: "${L.text}" inside the drawing`,
    );
    const arrow = m.arrows.find((a) => a.axis === L.axis);
    const gap = distToBox(arrow.to, L);
    assert.ok(gap <= 48, `${at}: "${L.text}" is ${gap.toFixed(0)} px from its arrow's tip`);
  }
  // The three arrows start at one corner of the lattice's frame and each runs along a frame edge from it.
  assert.equal(m.arrows.length, 3, at);
  const o = m.arrows[0].from;
  for (const a of m.arrows) {
    assert.ok(same(a.from, o), `${at}: arrows start at one point`);
    const edges = m.frame.filter((e) => same(e.from, o) || same(e.to, o));
    // (more than three when an axis is seen end-on and two corners fall on one point)
    assert.ok(edges.length >= 3, `${at}: the start is a corner of the lattice (three edges meet there)`);
    const ux = a.to.x - a.from.x,
      uy = a.to.y - a.from.y;
    if (Math.hypot(ux, uy) < 8) continue; // seen end-on
    const along = edges.some((e) => {
      const far = same(e.from, o) ? e.to : e.from;
      const vx = far.x - o.x,
        vy = far.y - o.y;
      const cross = Math.abs(ux * vy - uy * vx) / (Math.hypot(ux, uy) * (Math.hypot(vx, vy) || 1));
      return cross < 0.02 && ux * vx + uy * vy > 0 && Math.hypot(ux, uy) >= Math.hypot(vx, vy) - 0.6;
    });
    // An axis seen end-on (its edge under 8 px on screen) has its arrow point outward instead.
    const endOn = edges.some((e) => Math.hypot(e.to.x - e.from.x, e.to.y - e.from.y) < 8);
    assert.ok(along || endOn, `${at}: arrow ${a.axis} runs along a lattice edge and past its end`);
  }
}

// The axis labels are the same letters in both languages (T (4), D (6); N, HW, C): English turns six shapes through
// the 180 angles, Chinese the first two (one per reading) again. (Where a label lands also depends on where it was:
// a Chinese turn after other shapes is not the English one pixel for pixel, so the texts are compared.)
const SHAPES = [
  ['3,4,6', 'sequence'],
  ['12,2,12', 'image'],
  ['2,12,12', 'sequence'],
  ['1,1,1', 'sequence'],
  ['2,4,6', 'image'],
  ['1,12,3', 'sequence'],
];
for (const width of [360, 1280])
  test(`axis labels never overlap and stay at their arrows at 180 angles (${width} px, six shapes; Chinese as English)`, async () => {
    const {
      page: p,
      context,
      problems: pp,
    } = await openPage(env.browser, env.url + 'web/index.html', {
      viewport: { width, height: 900 },
      ...(width === 360 ? { hasTouch: true, isMobile: true } : {}),
    });
    const cube = p.locator('nl-axis-cube');
    await cube.scrollIntoViewIfNeeded();
    await p.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
    let angles = 0;
    const turn = async ([shape, reading], lang) => {
      await setAttributes(p, 'nl-axis-cube', { lang, shape, reading, index: '0,0,0' });
      await cube.getByRole('button', { name: lang === 'zh' ? '重置视角' : 'Reset view' }).click();
      // (the turn ends five full yaw turns on, at -18 again: the reset's animation is over when the pitch is 30 too)
      await p.waitForFunction(() => {
        const { yaw, pitch } = document.querySelector('nl-axis-cube').state;
        return yaw === -18 && pitch === 30;
      });
      const ms = await p.evaluate(rotateAndMeasure, TURN);
      for (const m of ms) checkAngle(m, `${lang} ${width} ${shape}`);
      angles += ms.length;
      return ms;
    };
    const texts = (ms) => ms.map((m) => m.labels.map((L) => L.text).join(' '));
    const en = [];
    for (const shape of SHAPES) en.push(texts(await turn(shape, 'en')));
    // Chinese: both readings again, every check; the labels are the English letters at every angle, and the
    // placement reads nothing of the language but the labels' text (so the other four shapes hold in Chinese too)
    for (const k of [0, 1])
      assert.deepEqual(texts(await turn(SHAPES[k], 'zh')), en[k], `zh ${SHAPES[k]}: the same labels`);
    const lang = 'en';
    await p.evaluate(() => document.querySelector('nl-axis-cube').setAttribute('lang', 'en'));
    assert.ok(angles >= 8 * 180, `${angles} angles`);
    // And with the real keyboard and pointer, 12 angles more.
    await p.evaluate(() => document.querySelector('nl-axis-cube').setAttribute('shape', '3,4,6'));
    const view = cube.locator('.view');
    await view.focus();
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown']) {
      await p.keyboard.press(key);
      checkAngle((await p.evaluate(rotateAndMeasure, []))[0], `${lang} ${width} keyboard`);
    }
    const box = await view.boundingBox();
    for (let k = 0; k < 5; k++) {
      if (width === 360) {
        const cdp = await context.newCDPSession(p);
        const y = box.y + box.height / 2;
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: box.x + 40, y }] });
        for (let s = 1; s <= 6; s++)
          await cdp.send('Input.dispatchTouchEvent', {
            type: 'touchMove',
            touchPoints: [{ x: box.x + 40 + s * 12, y }],
          });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      } else {
        await p.mouse.move(box.x + 60, box.y + 60);
        await p.mouse.down();
        await p.mouse.move(box.x + 130, box.y + 40, { steps: 6 });
        await p.mouse.up();
      }
      checkAngle((await p.evaluate(rotateAndMeasure, []))[0], `${lang} ${width} pointer`);
    }
    assert.deepEqual(pp, []);
    await context.close();
  });

/**
 * In the page: the box corner of element (0, 0, 0) and the far ends of the lattice's three edges from
 * it, found from the cells alone (the projection is affine: a cell's screen box is centred on its
 * centre, one index step along axis a is cell e_a's centre minus cell (0, 0, 0)'s, and the box's
 * corner lies half a step back along every axis), with the arrows and the labels on screen.
 */
function cornerAndLabels() {
  const f = document.querySelector('nl-axis-cube');
  const svg = f.shadowRoot.querySelector('svg.main');
  const centre = (b, t, d) => {
    const r = svg.querySelector(`path.voxel[data-b="${b}"][data-t="${t}"][data-d="${d}"]`).getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  };
  const c0 = centre(0, 0, 0);
  const steps = [centre(1, 0, 0), centre(0, 1, 0), centre(0, 0, 1)].map((p) => ({ x: p.x - c0.x, y: p.y - c0.y }));
  const corner = {
    x: c0.x - (steps[0].x + steps[1].x + steps[2].x) / 2,
    y: c0.y - (steps[0].y + steps[1].y + steps[2].y) / 2,
  };
  const n = f.state.shape;
  const far = steps.map((s, a) => ({ x: corner.x + n[a] * s.x, y: corner.y + n[a] * s.y }));
  const screen = (node, x, y) => {
    const m = node.getScreenCTM();
    return { x: m.a * x + m.c * y + m.e, y: m.b * x + m.d * y + m.f };
  };
  const sb = svg.getBoundingClientRect();
  return {
    yaw: f.state.yaw,
    pitch: f.state.pitch,
    corner,
    far,
    svg: { x0: sb.left, x1: sb.right, y0: sb.top, y1: sb.bottom },
    arrows: [...svg.querySelectorAll('line.axis-line')].map((l) => ({
      axis: +l.dataset.axis,
      from: screen(l, +l.getAttribute('x1'), +l.getAttribute('y1')),
      to: screen(l, +l.getAttribute('x2'), +l.getAttribute('y2')),
    })),
    labels: [...svg.querySelectorAll('text.axis-label')].map((t) => {
      const r = t.getBoundingClientRect();
      return { text: t.textContent, x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
    }),
  };
}

/** Does the segment p–q pass through the inside of rectangle r (shrunk by 1 px)? Sampled finely. */
const segmentThroughBox = (p, q, r) => {
  for (let k = 0; k <= 200; k++) {
    const x = p.x + ((q.x - p.x) * k) / 200,
      y = p.y + ((q.y - p.y) * k) / 200;
    if (x > r.x0 + 1 && x < r.x1 - 1 && y > r.y0 + 1 && y < r.y1 - 1) return true;
  }
  return false;
};

test('24 keyboard turns (en, zh; 1280, 360 px): each arrow runs from the corner of element (0, 0, 0) to the far end of its edge; labels apart, inside, off the arrows', async () => {
  // 24 presses: yaw in 10° steps all the way round and back, the tilt up to 60° and down to 0°.
  const keys = [
    ...Array(8).fill('ArrowRight'),
    ...Array(3).fill('ArrowUp'),
    ...Array(7).fill('ArrowRight'),
    ...Array(6).fill('ArrowDown'),
  ];
  assert.equal(keys.length, 24);
  for (const width of [1280, 360])
    for (const lang of ['en', 'zh']) {
      const { page: p, context } = await openPage(env.browser, env.url + 'web/index.html', {
        viewport: { width, height: 900 },
        ...(width === 360 ? { hasTouch: true, isMobile: true } : {}),
      });
      const cube = p.locator('nl-axis-cube');
      await cube.scrollIntoViewIfNeeded();
      await p.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
      await p.evaluate((l) => document.querySelector('nl-axis-cube').setAttribute('lang', l), lang);
      await cube.locator('.view').focus();
      const seen = new Set();
      for (const key of ['', ...keys]) {
        if (key) await p.keyboard.press(key);
        const m = await p.evaluate(cornerAndLabels);
        const at = `${lang} ${width} px, yaw ${m.yaw} pitch ${m.pitch}`;
        seen.add(`${m.yaw},${m.pitch}`);
        assert.deepEqual(
          m.labels.map((L) => L.text),
          ['B (3)', 'T (4)', 'D (6)'],
          at,
        );
        for (const a of m.arrows) {
          const d0 = Math.hypot(a.from.x - m.corner.x, a.from.y - m.corner.y);
          assert.ok(d0 <= 2, `${at}: arrow ${a.axis} starts ${d0.toFixed(1)} px from the box corner of (0, 0, 0)`);
          const E = m.far[a.axis];
          const edge = Math.hypot(E.x - m.corner.x, E.y - m.corner.y);
          const len = Math.hypot(a.to.x - a.from.x, a.to.y - a.from.y);
          if (edge >= 16) {
            // Along the edge and ending at its far corner: on the lattice, not past it.
            const d1 = Math.hypot(a.to.x - E.x, a.to.y - E.y);
            assert.ok(d1 <= 2, `${at}: arrow ${a.axis} ends ${d1.toFixed(1)} px from its edge's far corner`);
          } else if (edge >= 4) {
            // A short edge on screen: the arrow keeps its direction and is long enough to read.
            const cross = Math.abs((a.to.x - a.from.x) * (E.y - m.corner.y) - (a.to.y - a.from.y) * (E.x - m.corner.x));
            assert.ok(cross / (len * edge) < 0.05 && len >= 15, `${at}: arrow ${a.axis} along its short edge`);
          }
        }
        for (let i = 0; i < 3; i++) {
          const L = m.labels[i];
          assert.ok(
            L.x0 >= m.svg.x0 && L.x1 <= m.svg.x1 && L.y0 >= m.svg.y0 && L.y1 <= m.svg.y1,
            `${at}: "${L.text}" inside the svg ${JSON.stringify([L, m.svg])}`,
          );
          for (let j = i + 1; j < 3; j++)
            assert.ok(apart(L, m.labels[j]), `${at}: "${L.text}" and "${m.labels[j].text}" apart`);
          for (const a of m.arrows)
            assert.ok(!segmentThroughBox(a.from, a.to, L), `${at}: arrow ${a.axis} does not run through "${L.text}"`);
        }
      }
      assert.ok(seen.size >= 20, `${seen.size} different angles`);
      await context.close();
    }
});

test('depth cue: glass cells drawn after the group and over it are fainter than the ones behind it', async () => {
  for (const [method, index, turns] of [
    ['layer_norm', '1,1,2', 0],
    ['layer_norm', '1,1,2', 5],
    ['instance_norm', '1,2,3', 3],
    ['batch_norm', '0,1,2', 9],
  ]) {
    await set({ shape: '3,4,6', method, index, reading: 'sequence', lang: 'en' });
    await page.locator('nl-axis-cube').getByRole('button', { name: 'Reset view' }).click();
    await page.waitForFunction(() => document.querySelector('nl-axis-cube').state.yaw === -18);
    await page.locator('nl-axis-cube .view').focus();
    for (let k = 0; k < turns; k++) await page.keyboard.press('ArrowRight');
    const m = await page.evaluate(() => {
      const svg = document.querySelector('nl-axis-cube').shadowRoot.querySelector('svg.main');
      const cells = [...svg.querySelectorAll('path.voxel')].map((c) => {
        const b = c.getBBox();
        const pts = [...c.getAttribute('d').matchAll(/(-?[\d.]+),(-?[\d.]+)/g)].map((q) => ({ x: +q[1], y: +q[2] }));
        return {
          member: c.classList.contains('member') && !c.classList.contains('chosen'),
          chosen: c.classList.contains('chosen'),
          front: c.classList.contains('front'),
          x: b.x + b.width / 2,
          y: b.y + b.height / 2,
          o: +c.getAttribute('fill-opacity'),
          so: +c.getAttribute('stroke-opacity'),
          pts,
        };
      });
      return { cells, yaw: document.querySelector('nl-axis-cube').state.yaw };
    });
    const tag = `${method} (${index}) at yaw ${m.yaw}`;
    // The group on screen: the convex hull of its cells' corners (members but the chosen, drawn apart).
    const pts = m.cells.filter((c) => c.member).flatMap((c) => c.pts);
    pts.sort((a, b) => a.x - b.x || a.y - b.y);
    const cross = (o, a, b) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
    const chain = (list) => {
      const out = [];
      for (const q of list) {
        while (out.length >= 2 && cross(out.at(-2), out.at(-1), q) <= 0) out.pop();
        out.push(q);
      }
      return out.slice(0, -1);
    };
    const hull = [...chain(pts), ...chain([...pts].reverse())];
    const inside = (c) =>
      hull.every((a, i) => {
        const b = hull[(i + 1) % hull.length];
        return cross(a, b, c) >= 0;
      }) ||
      hull.every((a, i) => {
        const b = hull[(i + 1) % hull.length];
        return cross(a, b, c) <= 0;
      });
    const first = m.cells.findIndex((c) => c.member),
      last = m.cells.findLastIndex((c) => c.member);
    const glass = m.cells.map((c, i) => ({ ...c, i })).filter((c) => !c.member && !c.chosen && inside(c));
    const before = glass.filter((c) => c.i < first),
      after = glass.filter((c) => c.i > last);
    assert.ok(
      before.length >= 1 && after.length >= 1,
      `${tag}: glass both behind (${before.length}) and in front (${after.length}) of the group`,
    );
    const maxFront = Math.max(...after.map((c) => c.o)),
      minBehind = Math.min(...before.map((c) => c.o));
    assert.ok(maxFront < minBehind, `${tag}: in front ${maxFront} < behind ${minBehind} (fill)`);
    assert.ok(Math.max(...after.map((c) => c.so)) < Math.min(...before.map((c) => c.so)), `${tag}: and edges`);
    // The ones behind stay as they were: not marked as in front.
    assert.ok(
      before.every((c) => !c.front) && after.every((c) => c.front),
      `${tag}: marked front exactly where in front`,
    );
  }
});

test('depth cues: nearer glass cells larger and more opaque; the group one solid outlined block; hidden edges dashed', async () => {
  await set({ shape: '3,4,6', method: 'instance_norm', index: '1,2,3', reading: 'sequence', lang: 'en' });
  const cube = page.locator('nl-axis-cube');
  await cube.locator('.view').focus();
  for (let k = 0; k < 8; k++) {
    const m = await page.evaluate(() => {
      const root = document.querySelector('nl-axis-cube').shadowRoot;
      const svg = root.querySelector('svg.main');
      const box = (n) => {
        const { x, y, width, height } = n.getBBox();
        return { x0: x, x1: x + width, y0: y, y1: y + height, w: width };
      };
      const cells = (sel) =>
        [...svg.querySelectorAll(sel)].map((c) => ({
          ...box(c),
          o: +c.getAttribute('fill-opacity'),
          so: +c.getAttribute('stroke-opacity'),
        }));
      return {
        // (the glass in front of the group is faded apart: the next test)
        glass: cells('path.voxel.other:not(.front)'),
        members: cells('path.voxel.member:not(.chosen)'),
        edges: [...svg.querySelectorAll('line.group-edge')].map(box),
        shades: [...svg.querySelectorAll('path.group-shade')].map(box),
        hiddenFrame: svg.querySelectorAll('line.frame.hidden').length,
        frame: svg.querySelectorAll('line.frame').length,
        dash: getComputedStyle(svg.querySelector('line.frame.hidden') ?? svg).strokeDasharray,
      };
    });
    // Document order is far to near (the painter's-order test): the glass cells' size and opacity never
    // fall along it (every cell is the same cube from the same side, so its width on screen is its size;
    // corners are written to 0.1 px).
    for (let i = 1; i < m.glass.length; i++) {
      assert.ok(m.glass[i].w >= m.glass[i - 1].w - 0.25, `glass grows nearer (${i})`);
      assert.ok(m.glass[i].o >= m.glass[i - 1].o - 0.0011, `and more opaque (${i})`);
      assert.ok(m.glass[i].so >= m.glass[i - 1].so - 0.0011, `its edges too (${i})`);
    }
    const ws = m.glass.map((p) => p.w),
      os = m.glass.map((p) => p.o);
    assert.ok(Math.max(...ws) / Math.min(...ws) > 1.15, 'near glass clearly larger than far');
    assert.ok(Math.max(...os) - Math.min(...os) > 0.1, 'and clearly more opaque');
    // The group: InstanceNorm of (1, 2, 3) is sequence 1, feature 3, all four tokens (the chosen one
    // drawn apart): three full-size cells, each larger than any glass cell, filling the outlined box.
    assert.equal(m.members.length, 3);
    const mw = m.members.map((p) => p.w);
    assert.ok(Math.max(...mw) - Math.min(...mw) < 0.3, 'the group cells all one (full) size');
    assert.ok(Math.min(...mw) > Math.max(...ws), 'larger than any glass cell');
    assert.equal(m.edges.length, 12, 'the group outlined by its box');
    const union = (bs) => ({
      x0: Math.min(...bs.map((b) => b.x0)),
      x1: Math.max(...bs.map((b) => b.x1)),
      y0: Math.min(...bs.map((b) => b.y0)),
      y1: Math.max(...bs.map((b) => b.y1)),
    });
    const outline = union(m.edges);
    // (the members with the chosen cell at t = 2 fill it; without it, the outline still holds them)
    const cellsBox = union(m.members);
    for (const side of ['x0', 'y0']) assert.ok(cellsBox[side] >= outline[side] - 1, `members inside the outline`);
    for (const side of ['x1', 'y1']) assert.ok(cellsBox[side] <= outline[side] + 1, `members inside the outline`);
    assert.ok(m.shades.length <= 2, 'at most two side faces shaded');
    for (const sh of m.shades)
      assert.ok(
        sh.x0 >= outline.x0 - 1 && sh.x1 <= outline.x1 + 1 && sh.y0 >= outline.y0 - 1 && sh.y1 <= outline.y1 + 1,
        "the shading on the group's own faces",
      );
    assert.equal(m.frame, 12, "the lattice's twelve edges");
    assert.ok(m.hiddenFrame >= 1 && m.hiddenFrame <= 5, `${m.hiddenFrame} hidden edges`);
    assert.notEqual(m.dash, 'none', 'hidden edges dashed');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press(k % 2 ? 'ArrowUp' : 'ArrowLeft');
    await page.keyboard.press('ArrowRight');
  }
});

test("360 px: the large view draws one cell per element, the group's cells are the hand-derived group, labels apart while turning", async () => {
  const { page: p, context, problems: pp } = await phoneAtCube({ width: 360, height: 740 });
  // By hand, from each method's definition:
  //   [3, 4, 6] BatchNorm of (1, 2, 3): feature 3 over every b and t, 3 · 4 = 12 of 72 cells;
  //   [3, 4, 6] GroupNorm G = 3 of (1, 2, 3): D = 6 in groups {0, 1}, {2, 3}, {4, 5}, so sequence 1,
  //     features 2 and 3, all four tokens: 8 cells;
  //   [2, 3, 5] LayerNorm of (1, 0, 4): token (1, 0)'s five features, 5 of 2 · 3 · 5 = 30 cells;
  //   [4, 2, 3] InstanceNorm of (3, 1, 0): feature 0 of sequence 3 over its two tokens, 2 of 24 cells;
  //   [1, 1, 1] RMSNorm: the one cell, alone.
  const cases = [
    ['3,4,6', 'batch_norm', '1,2,3', '1', 72, cells([0, 1, 2], range(0, 3), [3])],
    ['3,4,6', 'group_norm', '1,2,3', '3', 72, cells([1], range(0, 3), [2, 3])],
    ['2,3,5', 'layer_norm', '1,0,4', '1', 30, cells([1], [0], range(0, 4))],
    ['4,2,3', 'instance_norm', '3,1,0', '1', 24, cells([3], [0, 1], [0])],
    ['1,1,1', 'rms_norm', '0,0,0', '1', 1, [[0, 0, 0]]],
  ];
  const sorted = (l) => l.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  for (const lang of ['en', 'zh'])
    for (const [shape, method, index, G, count, want] of cases) {
      await p.evaluate(
        ([l, sh, m, i, g]) => {
          const f = document.querySelector('nl-axis-cube');
          for (const [k, v] of Object.entries({ lang: l, shape: sh, method: m, index: i, 'num-groups': g }))
            f.setAttribute(k, v);
        },
        [lang, shape, method, index, G],
      );
      await p.waitForTimeout(30);
      const [B, T, D] = shape.split(',').map(Number);
      const all = sorted(cells(range(0, B - 1), range(0, T - 1), range(0, D - 1)));
      for (const keys of [
        [],
        ['ArrowRight', 'ArrowRight', 'ArrowUp'],
        ['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowDown'],
      ]) {
        for (const key of keys)
          await p.evaluate(
            (k) =>
              document
                .querySelector('nl-axis-cube')
                .shadowRoot.querySelector('.view')
                .dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true })),
            key,
          );
        const m = await p.evaluate(() => {
          const f = document.querySelector('nl-axis-cube');
          const svg = f.shadowRoot.querySelector('svg.main');
          const id = (c) => [+c.dataset.b, +c.dataset.t, +c.dataset.d];
          const screenBox = (t) => {
            const r = t.getBoundingClientRect();
            return { x0: r.left, x1: r.right, y0: r.top, y1: r.bottom, text: t.textContent };
          };
          return {
            cells: [...svg.querySelectorAll('path.voxel')].map(id),
            group: [...svg.querySelectorAll('path.voxel.member')].map(id),
            chosen: [...svg.querySelectorAll('path.voxel.chosen')].map(id),
            empty: [...svg.querySelectorAll('path.voxel')].filter((c) => !/^M[\d.-]/.test(c.getAttribute('d') ?? ''))
              .length,
            labels: [...svg.querySelectorAll('text.axis-label')].map(screenBox),
            px: [...svg.querySelectorAll('text.axis-label')].map(
              (t) => t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize),
            ),
            members: f.state.members,
            yaw: f.state.yaw,
          };
        });
        const tag = `${lang} [${shape}] ${method} (${index}) yaw ${m.yaw}`;
        assert.equal(m.cells.length, count, `${tag}: one cell per element`);
        assert.deepEqual(sorted(m.cells), all, `${tag}: every element once`);
        assert.equal(m.empty, 0, `${tag}: every cell drawn`);
        assert.deepEqual(sorted(m.group), want, `${tag}: the group's cells`);
        assert.deepEqual(m.members, want, `${tag}: the state's group is the same`);
        assert.deepEqual(m.chosen, [index.split(',').map(Number)], `${tag}: the chosen cell`);
        for (const px of m.px) assert.ok(px >= 10, `${tag}: label ${px.toFixed(1)} px`);
        for (let i = 0; i < 3; i++)
          for (let j = i + 1; j < 3; j++)
            assert.ok(
              apart(m.labels[i], m.labels[j]),
              `${tag}: "${m.labels[i].text}" and "${m.labels[j].text}" overlap`,
            );
      }
    }
  assert.deepEqual(pp, []);
  await context.close();
});

// ---- the small multiples -------------------------------------------------------------------------------

/** Every (b, t, d) with b in bs, t in ts, d in ds: a hand-written group as ranges. */
const cells = (bs, ts, ds) => bs.flatMap((b) => ts.flatMap((t) => ds.map((d) => [b, t, d])));
const range = (lo, hi) => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

const multiples = () =>
  page.evaluate(() =>
    [...document.querySelector('nl-axis-cube').shadowRoot.querySelectorAll('.multiple')].map((b) => ({
      method: b.dataset.method,
      name: b.querySelector('.multiple-name').textContent,
      count: b.querySelector('.multiple-count').textContent,
      pressed: b.querySelector('button').getAttribute('aria-pressed'),
      cells: [...b.querySelectorAll('path.cell')]
        .map((c) => [+c.dataset.b, +c.dataset.t, +c.dataset.d])
        .sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]),
      sheets: b.querySelectorAll('path.sheet').length,
    })),
  );

test('small multiples: each shaded group is the hand-derived cell set of its method ([B=2, T=4, d=6], element (1, 2, 4))', async () => {
  await set({
    shape: '2,4,6',
    index: '1,2,4',
    method: 'layer_norm',
    'num-groups': '1',
    reading: 'sequence',
    lang: 'en',
  });
  // By hand, element (b, t, d) = (1, 2, 4):
  //   BatchNorm pools feature d = 4 over both sequences and all four tokens: 2 × 4 = 8 cells;
  //   LayerNorm takes token (1, 2)'s six features: 6 cells;
  //   InstanceNorm takes feature 4 of sequence 1 over its four tokens: 4 cells;
  //   GroupNorm with G = 2 (the smallest G above 1 for d = 6, since the figure's G is 1): features
  //   split into {0, 1, 2} and {3, 4, 5}, so sequence 1, features 3 to 5, all four tokens: 12 cells.
  const want = {
    batch_norm: cells([0, 1], range(0, 3), [4]),
    layer_norm: cells([1], [2], range(0, 5)),
    instance_norm: cells([1], range(0, 3), [4]),
    group_norm: cells([1], range(0, 3), range(3, 5)),
  };
  let ms = await multiples();
  assert.deepEqual(
    ms.map((m) => m.method),
    ['batch_norm', 'layer_norm', 'instance_norm', 'group_norm'],
  );
  for (const m of ms) {
    assert.deepEqual(m.cells, want[m.method], m.method);
    assert.equal(m.sheets, 2, `${m.method}: one [T × D] sheet per b`);
  }
  assert.deepEqual(
    ms.map((m) => [m.name, m.count, m.pressed]),
    [
      ['BatchNorm', '8 cells', 'false'],
      ['LayerNorm', '6 cells', 'true'],
      ['InstanceNorm', '4 cells', 'false'],
      ['GroupNorm (G = 2)', '12 cells', 'false'],
    ],
  );
  // The figure's own G when it shows GroupNorm: G = 3 splits d into {0, 1}, {2, 3}, {4, 5}: features 4 and 5.
  await set({ method: 'group_norm', 'num-groups': '3' });
  ms = await multiples();
  assert.deepEqual(ms[3].cells, cells([1], range(0, 3), [4, 5]));
  assert.equal(ms[3].name, 'GroupNorm (G = 3)');
  assert.equal(ms[3].pressed, 'true');
  // G = 1 shown: the whole of sequence 1 (24 cells); G = 6: InstanceNorm's 4 cells.
  await set({ 'num-groups': '1' });
  assert.deepEqual((await multiples())[3].cells, cells([1], range(0, 3), range(0, 5)));
  await set({ 'num-groups': '6' });
  assert.deepEqual((await multiples())[3].cells, want.instance_norm);
  // Another element and the image reading: (0, 3, 1) in [N=2, HW=4, C=6], G = 2 for the small cube.
  await set({ method: 'batch_norm', 'num-groups': '1', index: '0,3,1', reading: 'image' });
  ms = await multiples();
  assert.deepEqual(ms[0].cells, cells([0, 1], range(0, 3), [1]));
  assert.deepEqual(ms[1].cells, cells([0], [3], range(0, 5)));
  assert.deepEqual(ms[2].cells, cells([0], range(0, 3), [1]));
  assert.deepEqual(ms[3].cells, cells([0], range(0, 3), range(0, 2)));
  assert.deepEqual(
    ms.map((m) => m.pressed),
    ['true', 'false', 'false', 'false'],
  );
  // The same sets in the state, which come from the core.
  const s = await state();
  assert.deepEqual(
    s.multiples.map((m) => [m.method, m.numGroups, m.members]),
    ms.map((m) => [m.method, m.method === 'group_norm' ? 2 : null, m.cells]),
  );
});

test('the description says what the small multiples show, in English and Chinese', async () => {
  await set({
    shape: '2,4,6',
    index: '1,2,4',
    method: 'layer_norm',
    'num-groups': '1',
    reading: 'sequence',
    lang: 'en',
  });
  const desc = () => page.locator('nl-axis-cube').locator('[part=description]').textContent();
  assert.ok(
    (await desc()).endsWith(
      'Below, the same element under four methods: BatchNorm pools 8 cells, LayerNorm pools 6 cells, InstanceNorm pools 4 cells, GroupNorm (G = 2) pools 12 cells.',
    ),
    await desc(),
  );
  await set({ lang: 'zh' });
  const zh = await desc();
  assert.ok(
    zh.endsWith(
      '下方是同一元素在四种方法下的组：BatchNorm 汇集 8 个格子、LayerNorm 汇集 6 个格子、InstanceNorm 汇集 4 个格子、GroupNorm（G = 2）汇集 12 个格子。',
    ),
    zh,
  );
  assert.match(zh, /每组各有自己的统计量：mean 与 variance。/, 'no Latin word glued to Chinese');
  await set({ lang: 'en' });
});

test('choosing a small multiple (pointer or keyboard) shows its method above, with its G, and fires change', async () => {
  await set({ shape: '3,4,6', index: '0,1,2', method: 'layer_norm', 'num-groups': '1', reading: 'sequence' });
  const cube = page.locator('nl-axis-cube');
  await page.evaluate(() => {
    window.__cubeChanges = 0;
    document.querySelector('nl-axis-cube').addEventListener('change', () => window.__cubeChanges++);
  });
  await cube.getByRole('button', { name: /^GroupNorm \(G = 2\)/ }).click();
  let s = await state();
  assert.equal(s.method, 'group_norm');
  assert.equal(s.numGroups, 2);
  assert.equal(await cube.getAttribute('num-groups'), '2');
  assert.deepEqual(s.members, expected('group_norm', [3, 4, 6], [0, 1, 2], 2));
  assert.deepEqual(await drawnOrange(), s.members, 'the large view follows');
  assert.equal(await page.evaluate(() => window.__cubeChanges), 1);
  assert.equal(await cube.getByRole('button', { name: /^GroupNorm/ }).getAttribute('aria-pressed'), 'true');
  // The keyboard: focus BatchNorm's small cube and press Enter.
  await cube.getByRole('button', { name: /^BatchNorm/ }).focus();
  await page.keyboard.press('Enter');
  s = await state();
  assert.equal(s.method, 'batch_norm');
  assert.equal(await page.evaluate(() => window.__cubeChanges), 2);
  assert.equal(await cube.getByRole('button', { name: /^BatchNorm/ }).getAttribute('aria-pressed'), 'true');
  assert.equal(await cube.getByRole('button', { name: /^GroupNorm/ }).getAttribute('aria-pressed'), 'false');
  await set({ method: 'layer_norm', 'num-groups': '1' });
});

for (const lang of ['en', 'zh'])
  test(`360 px phone (${lang}): small multiples in a 2 × 2 grid, every label ≥ 10 px, every target ≥ 44 px`, async () => {
    const {
      page: p,
      context,
      problems: pp,
    } = await openPage(env.browser, env.url + 'web/index.html', {
      viewport: { width: 360, height: 740 },
      hasTouch: true,
      isMobile: true,
    });
    const cube = p.locator('nl-axis-cube');
    await cube.scrollIntoViewIfNeeded();
    await p.waitForFunction(() => document.querySelector('nl-axis-cube')?.state?.members?.length);
    for (const [shape, method] of [
      ['3,4,6', 'layer_norm'],
      ['12,12,12', 'group_norm'],
      ['1,1,1', 'batch_norm'],
    ]) {
      await setAttributes(p, 'nl-axis-cube', { lang, shape, method, 'num-groups': '2' });
      await p.waitForTimeout(60);
      const m = await p.evaluate(() => {
        const root = document.querySelector('nl-axis-cube').shadowRoot;
        const texts = [...root.querySelectorAll('svg text')].map((t) => ({
          text: t.textContent,
          px: t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize),
          box: (({ left, right, top, bottom }) => ({ x0: left, x1: right, y0: top, y1: bottom }))(
            t.getBoundingClientRect(),
          ),
          mini: t.closest('.multiple')?.dataset.method ?? null,
        }));
        const html = [...root.querySelectorAll('p, span, button, label, option')]
          .filter((n) => n.textContent.trim() && n.getClientRects().length)
          .map((n) => ({ text: n.textContent.slice(0, 30), px: parseFloat(getComputedStyle(n).fontSize) }));
        const targets = [...root.querySelectorAll('select, input, button')]
          .filter((n) => n.getClientRects().length)
          .map((n) => {
            const r = n.getBoundingClientRect();
            return {
              name: n.getAttribute('aria-label') ?? n.textContent.slice(0, 20),
              w: r.width,
              h: r.height,
              right: r.right,
            };
          });
        const mults = [...root.querySelectorAll('.multiple')].map((b) => b.getBoundingClientRect().toJSON());
        return {
          texts,
          html,
          targets,
          mults,
          scroll: document.documentElement.scrollWidth,
          error: document.querySelector('nl-axis-cube').state.error,
        };
      });
      const tag = `${lang} ${shape} ${method}`;
      assert.equal(m.error, null, tag);
      for (const t of m.texts) assert.ok(t.px >= 10, `${tag}: "${t.text}" is ${t.px.toFixed(1)} px`);
      for (const t of m.html) assert.ok(t.px >= 10, `${tag}: "${t.text}" is ${t.px} px`);
      for (const t of m.targets) {
        assert.ok(t.h >= 44, `${tag}: "${t.name}" is ${t.h.toFixed(0)} px tall`);
        assert.ok(t.w >= 44, `${tag}: "${t.name}" is ${t.w.toFixed(0)} px wide`);
        assert.ok(t.right <= 360, `${tag}: "${t.name}" inside the screen`);
      }
      // The four small cubes wrap into two columns and two rows.
      const xs = new Set(m.mults.map((r) => Math.round(r.x))),
        ys = new Set(m.mults.map((r) => Math.round(r.y)));
      assert.equal(xs.size, 2, `${tag}: two columns`);
      assert.equal(ys.size, 2, `${tag}: two rows`);
      // The small cubes' labels: inside their own cube, clear of each other.
      for (const method of ['batch_norm', 'layer_norm', 'instance_norm', 'group_norm']) {
        const own = m.texts.filter((t) => t.mini === method);
        assert.ok(own.length >= 3, `${tag}: ${method} names its axes`);
        const cell = m.mults[['batch_norm', 'layer_norm', 'instance_norm', 'group_norm'].indexOf(method)];
        for (const t of own)
          assert.ok(
            t.box.x0 >= cell.left && t.box.x1 <= cell.right && t.box.y0 >= cell.top && t.box.y1 <= cell.bottom,
            `${tag}: ${method} "${t.text}" inside its small cube`,
          );
        for (let i = 0; i < own.length; i++)
          for (let j = i + 1; j < own.length; j++)
            assert.ok(apart(own[i].box, own[j].box), `${tag}: ${method} "${own[i].text}" and "${own[j].text}" overlap`);
      }
      assert.ok(m.scroll <= 360, `${tag}: no sideways scroll (${m.scroll})`);
    }
    assert.deepEqual(pp, []);
    await context.close();
  });

test('no console error, page error or CSP violation on the way', async () => {
  assert.deepEqual(problems, []);
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
});

test('the element boxes say which axis each one is, in the reading chosen, in both languages', async () => {
  const label = () =>
    page.evaluate(() => document.querySelector('nl-axis-cube').shadowRoot.querySelector('.index > span').textContent);
  assert.equal(await label(), 'Element (b, t, d)');
  await set({ reading: 'image' });
  assert.equal(await label(), 'Element (n, hw, c)');
  await set({ lang: 'zh' });
  assert.equal(await label(), '元素（n, hw, c）');
  await page.evaluate(() => {
    const f = document.querySelector('nl-axis-cube');
    f.removeAttribute('lang');
    f.setAttribute('reading', 'sequence');
  });
  assert.equal(await label(), 'Element (b, t, d)');
});
