// <nl-norm-geometry> in Chromium, on the article page: the running example's
// numbers against values derived by hand (L2 of (1, 2, 3) is (1, 2, 3)/√14,
// RMSNorm divides by √(14/3 + ε), LayerNorm gives (−1, 0, 1)/√(2/3 + ε)); ×10
// leaves every output in place, +100 moves L2 and RMSNorm toward (1, 1, 1) but
// not LayerNorm; the text says so and follows the state as the sliders move;
// the picture merges exactly the coinciding outputs; the view turns by keys
// and by dragging, with a `change` event; Reset; Chinese; bad attributes; and
// at 360 px no label is small, overlaps another or covers a point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { onArticlePage, openPage, shotsDir } from './helpers.mjs';

const TAG = 'nl-norm-geometry';
const fig = onArticlePage(TAG);
const EPS = 1e-5;
const close = (a, b, tol, msg = '') => assert.ok(Math.abs(a - b) <= tol, `${msg} ${a} vs ${b} (tol ${tol})`);
const closeAll = (a, b, tol, msg = '') => b.forEach((v, i) => close(a[i], v, tol, `${msg}[${i}]`));
const state = () => fig.page.evaluate((t) => JSON.parse(JSON.stringify(document.querySelector(t).state)), TAG);
const desc = () => fig.page.locator(TAG).locator('[part=description]').textContent();
const set = (attrs) =>
  fig.page.evaluate(
    async ([t, a]) => {
      const el = document.querySelector(t);
      for (const [k, v] of Object.entries(a)) el.setAttribute(k, v);
      await el.updateComplete;
    },
    [TAG, attrs],
  );
/**
 * Start recording the figure's `change` events (their states) in the page; the
 * returned function reads what has been recorded since. The listener is in place
 * before this resolves, so a key pressed after it cannot be missed.
 */
const recordChanges = async () => {
  await fig.page.evaluate((t) => {
    window.__changes = [];
    if (window.__recording) return; // one listener, however many tests record
    window.__recording = true;
    document
      .querySelector(t)
      .addEventListener('change', (e) => window.__changes.push(JSON.parse(JSON.stringify(e.detail))));
  }, TAG);
  return () => fig.page.evaluate(() => window.__changes);
};

/** The numbers table, measured in the page: cells outside the figure's box, a sideways scroll, its text. */
const tableFit = (page) =>
  page.evaluate((t) => {
    const f = document.querySelector(t);
    const box = f.shadowRoot.querySelector('.table-box');
    const outer = f.getBoundingClientRect();
    const cut = [...box.querySelectorAll('tbody th, tbody td')]
      .filter((c) => {
        const r = c.getBoundingClientRect();
        return r.left < outer.left + 1 || r.right > outer.right - 1 || !r.width;
      })
      .map((c) => c.textContent);
    // each cell as a reader sees it where the rows stack: its column's name (data-label), then its value
    const rows = [...box.querySelectorAll('tbody tr')].map((r) =>
      [...r.children].map((c) => `${c.dataset.label ?? ''} ${c.textContent}`.trim()).join(' '),
    );
    return { cut, scrolls: box.scrollWidth > box.clientWidth + 1, rows, width: outer.width };
  }, TAG);

// ---- the running example, by hand ------------------------------------------------
const dot = (a, b) => a.reduce((s, v, i) => s + v * b[i], 0);
const norm = (a) => Math.sqrt(dot(a, a));
const x = [1, 2, 3],
  shifted = [101, 102, 103],
  scaled = [10, 20, 30];
const l2 = (v) => v.map((c) => c / norm(v));
const rms = (v) => v.map((c) => c / Math.sqrt(dot(v, v) / 3 + EPS));
const deg = (rad) => (rad * 180) / Math.PI;
const angleToOnes = (v) => deg(Math.acos(dot(v, [1, 1, 1]) / (norm(v) * Math.sqrt(3))));
// (1, 2, 3): mean 2, population variance 2/3, so LayerNorm gives (−1, 0, 1)/√(2/3 + ε) ≈ (−1.2247, 0, 1.2247).
const lnX = [-1, 0, 1].map((c) => c / Math.sqrt(2 / 3 + EPS));
const fmt4 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4, useGrouping: false }).format(v);

test('default state: the three inputs and their outputs match the hand-derived values', async () => {
  const s = await state();
  assert.deepEqual([s.vector, s.offset, s.scale, s.eps], [x, 100, 10, EPS]);
  assert.deepEqual(s.inputs.x.input, x);
  assert.deepEqual(s.inputs.shifted.input, shifted);
  assert.deepEqual(s.inputs.scaled.input, scaled);
  const q = s.inputs.x;
  closeAll(q.l2, [1 / Math.sqrt(14), 2 / Math.sqrt(14), 3 / Math.sqrt(14)], 1e-6, 'L2(x)');
  closeAll(
    q.rms_norm,
    [1, 2, 3].map((c) => c / Math.sqrt(14 / 3 + EPS)),
    1e-5,
    'RMSNorm(x)',
  );
  closeAll(q.layer_norm, lnX, 1e-5, 'LayerNorm(x)');
  close(q.layer_norm[2], 1.2247, 1e-4, 'LayerNorm(x)₃ ≈ 1.2247');
  close(q.norm, Math.sqrt(14), 1e-5, '‖x‖');
  close(q.mean, 2, 1e-6, 'mean of x');
  close(q.angle, angleToOnes(x), 1e-3, 'angle of x to (1, 1, 1)');
  // the drop's foot: RMSNorm(x) less its mean 2/√(14/3 + ε) in every coordinate
  closeAll(
    q.dropped,
    [-1, 0, 1].map((c) => c / Math.sqrt(14 / 3 + EPS)),
    1e-5,
    'foot of the drop',
  );
  close(s.radii.l2, 1, 1e-6, 'unit sphere');
  close(s.radii.rms_norm, Math.sqrt(3), 1e-6, 'sphere of radius √3');
  closeAll(
    s.ones,
    [1, 1, 1].map((c) => c / Math.sqrt(3)),
    1e-6,
    '(1, 1, 1)/√3',
  );
});

test('×10 leaves all three outputs in place; +100 moves L2 and RMSNorm toward (1, 1, 1), not LayerNorm', async () => {
  const s = await state();
  // 10x: the same outputs as x within 1e-4, by the formulas for x
  closeAll(s.inputs.scaled.l2, l2(x), 1e-4, 'L2(10x)');
  closeAll(s.inputs.scaled.rms_norm, rms(x), 1e-4, 'RMSNorm(10x)');
  closeAll(s.inputs.scaled.layer_norm, lnX, 1e-4, 'LayerNorm(10x)');
  for (const m of ['l2', 'rms_norm', 'layer_norm']) assert.ok(s.change.scaled[m] <= 1e-4, `10x: ${m} moved`);
  // x + 100: L2 and RMSNorm by their formulas, far from x's; LayerNorm still (−1, 0, 1)/√(2/3 + ε)
  closeAll(s.inputs.shifted.l2, l2(shifted), 1e-5, 'L2(x + 100)');
  closeAll(s.inputs.shifted.rms_norm, rms(shifted), 1e-4, 'RMSNorm(x + 100)');
  closeAll(s.inputs.shifted.layer_norm, lnX, 1e-4, 'LayerNorm(x + 100)');
  const dist = (a, b) => norm(a.map((v, i) => v - b[i]));
  close(s.change.shifted.l2, dist(l2(x), l2(shifted)), 1e-4, 'L2 distance');
  close(s.change.shifted.rms_norm, dist(rms(x), rms(shifted)), 1e-4, 'RMSNorm distance');
  assert.ok(s.change.shifted.l2 > 0.3 && s.change.shifted.rms_norm > 0.6, 'L2 and RMSNorm moved');
  assert.ok(s.change.shifted.layer_norm <= 1e-4, 'LayerNorm stayed');
  // toward (1, 1, 1): the angle drops from about 22.2° to under half a degree
  close(s.inputs.shifted.angle, angleToOnes(shifted), 1e-2, 'angle of x + 100');
  assert.ok(s.inputs.shifted.angle < 0.5 && s.inputs.x.angle > 22);
});

test('the text states the claim with the numbers of the state', async () => {
  const d = await desc();
  assert.match(d, /x = \(1, 2, 3\), x \+ 100 = \(101, 102, 103\) and 10x = \(10, 20, 30\)/);
  assert.match(d, /Multiplying x by 10 changes none of the three outputs: 10x points the same way as x\./);
  const from = fmt4(angleToOnes(x)),
    to = fmt4(angleToOnes(shifted));
  assert.ok(
    d.includes(
      `Adding 100 to every coordinate moves the L2 and RMSNorm outputs toward (1, 1, 1) (the angle to (1, 1, 1) goes from ${from}° to ${to}°), but LayerNorm's output stays at (${fmt4(lnX[0])}, 0, ${fmt4(lnX[2])})`,
    ),
    d,
  );
  assert.match(d, /LayerNorm removes the component along \(1, 1, 1\), the mean, before it scales\./);
});

test('the picture: two rays, the outputs that coincide drawn as one point, each labelled', async () => {
  const r = await fig.snap();
  assert.deepEqual(r.bad, [], 'no NaN in the drawing');
  const counts = await fig.page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    const n = (sel) => root.querySelectorAll(sel).length;
    return {
      l2: n('circle.dot.l2'),
      rms: n('circle.dot.rms_norm'),
      ln: n('circle.dot.layer_norm'),
      discs: n('circle.disc'),
    };
  }, TAG);
  // x and 10x share a point on each sphere, x + 100 has its own; LayerNorm has one point for all three
  assert.deepEqual([counts.l2, counts.rms, counts.ln, counts.discs], [2, 2, 1, 2]);
  const texts = r.svg;
  // a point is labelled with its method and the inputs it is the output of (x and 10x share one: same direction);
  // the one point all three share says so
  for (const label of [
    'L2(x, 10x)',
    'L2(x + 100)',
    'RMSNorm(x, 10x)',
    'RMSNorm(x + 100)',
    'x = (1, 2, 3)',
    '10x = (10, 20, 30)',
    'x + 100 = (101, 102, 103)',
    'LayerNorm: all three inputs',
    '(1, 1, 1):',
    'direction of the mean',
  ])
    assert.ok(texts.includes(label), `label "${label}" in ${JSON.stringify(texts)}`);
  // with scale 1 and offset 0 all three inputs are x: one ray, one point per method
  await set({ offset: '0', scale: '1' });
  const one = await fig.snap();
  assert.ok(
    one.svg.includes('L2: all three inputs') && one.svg.includes('RMSNorm: all three inputs'),
    JSON.stringify(one.svg),
  );
  assert.match(one.desc, /Adding 0 to every coordinate changes none of the three outputs\./);
  await set({ offset: '100', scale: '10' });
});

test('the text follows the state as the sliders move: each claim holds for the distances', async () => {
  const loc = fig.page.locator(TAG);
  for (const [offset, scale] of [
    [-100, 10],
    [50, 0.5],
    [200, 20],
    [0, 3],
  ]) {
    await loc.getByRole('spinbutton', { name: 'Shift added to every coordinate' }).fill(String(offset));
    await loc.getByRole('spinbutton', { name: 'Shift added to every coordinate' }).press('Enter');
    await loc.getByRole('spinbutton', { name: 'Factor multiplying x' }).fill(String(scale));
    await loc.getByRole('spinbutton', { name: 'Factor multiplying x' }).press('Enter');
    const s = await state();
    assert.deepEqual([s.offset, s.scale], [offset, scale]);
    const d = await desc();
    // a positive scale never moves a normalization's output
    assert.match(
      d,
      new RegExp(`Multiplying x by ${fmt4(scale).replace('.', '\\.')} changes none of the three outputs`),
    );
    if (offset === 0) assert.match(d, /Adding 0 to every coordinate changes none of the three outputs/);
    else {
      assert.ok(s.change.shifted.layer_norm <= 1e-4 && s.change.shifted.l2 > 1e-4, JSON.stringify(s.change));
      // toward (1, 1, 1) exactly when the angle to it shrinks: +50, +200 toward, −100 away
      const way = offset > 0 ? 'toward' : 'away from';
      assert.ok(offset > 0 ? s.inputs.shifted.angle < s.inputs.x.angle : s.inputs.shifted.angle > s.inputs.x.angle);
      const action = offset > 0 ? `Adding ${offset} to` : `Subtracting ${-offset} from`;
      assert.ok(d.includes(`${action} every coordinate moves the L2 and RMSNorm outputs ${way} (1, 1, 1)`), d);
    }
  }
  await set({ offset: '100', scale: '10' });
});

test('arrow keys turn the view, with a change event; the drawing moves and the numbers do not', async () => {
  const view = fig.page.locator(TAG).locator('[part=stage]');
  const before = await state();
  const lnDot = () =>
    fig.page.evaluate((t) => {
      const c = document.querySelector(t).shadowRoot.querySelector('circle.dot.layer_norm');
      return [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))];
    }, TAG);
  const at0 = await lnDot();
  await view.focus();
  const changes = await recordChanges();
  await fig.page.keyboard.press('ArrowRight');
  let s = (await changes()).at(-1);
  assert.equal((await changes()).length, 1, 'one change event per key');
  assert.deepEqual([s.yaw, s.pitch], [before.yaw + 10, before.pitch]);
  const at1 = await lnDot();
  assert.ok(Math.hypot(at1[0] - at0[0], at1[1] - at0[1]) > 5, `the LayerNorm point moved on screen: ${at0} → ${at1}`);
  await fig.page.keyboard.press('ArrowUp');
  s = (await changes()).at(-1);
  assert.equal(s.pitch, before.pitch + 10);
  await fig.page.keyboard.press('Shift+ArrowLeft');
  s = await state();
  assert.equal(s.yaw, before.yaw + 8);
  assert.equal(await fig.page.locator(TAG).getAttribute('yaw'), String(before.yaw + 8), 'reflected to the attribute');
  assert.deepEqual(s.inputs, before.inputs, 'turning changes no number');
  assert.match(
    await view.getAttribute('aria-label'),
    new RegExp(`turned ${before.yaw + 8}° and tilted ${before.pitch + 10}°`),
  );
  // pitch stops at 89
  for (let i = 0; i < 12; i++) await fig.page.keyboard.press('ArrowUp');
  assert.equal((await state()).pitch, 89);
});

test('dragging the view turns it, with one change event per drag; Reset restores the page values', async () => {
  const loc = fig.page.locator(TAG);
  await loc.getByRole('button', { name: 'Reset' }).click();
  const s0 = await state();
  assert.deepEqual([s0.yaw, s0.pitch, s0.offset, s0.scale], [-60, 20, 100, 10]);
  const box = await loc.locator('[part=stage]').boundingBox();
  const changes = await recordChanges();
  await fig.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await fig.page.mouse.down();
  for (let i = 1; i <= 8; i++) await fig.page.mouse.move(box.x + box.width / 2 + 5 * i, box.y + box.height / 2 - 2 * i);
  await fig.page.mouse.up();
  assert.equal((await changes()).length, 1, 'one change event for the drag');
  const s1 = await state();
  close(s1.yaw, -60 + 20, 1e-9, 'yaw after 40 px to the right');
  close(s1.pitch, 20 - 8, 1e-9, 'pitch after 16 px up');
  // a slider change, then Reset: everything back to the page's values
  await loc.getByRole('slider', { name: 'Shift added to every coordinate' }).focus();
  await fig.page.keyboard.press('ArrowRight');
  assert.equal((await state()).offset, 101);
  await loc.getByRole('button', { name: 'Reset' }).click();
  const s2 = (await changes()).at(-1);
  assert.equal((await changes()).length, 3, 'drag, key and Reset each fire one change');
  assert.deepEqual([s2.yaw, s2.pitch, s2.offset, s2.scale, s2.vector], [-60, 20, 100, 10, x]);
});

test('bad attributes show a message in place and the figure recovers', async () => {
  for (const [attr, bad, good, pattern] of [
    ['vector', '1,2', '1,2,3', /vector must be a comma-separated list of 3 numbers/],
    ['offset', '5000', '100', /offset must be a number from -1000 to 1000/],
    ['scale', '0', '10', /scale must be a number from 0\.1 to 100/],
    ['pitch', '95', '20', /pitch must be a number from -89 to 89/],
  ]) {
    await set({ [attr]: bad });
    const r = await fig.snap();
    assert.match(r.error, pattern, `${attr}=${bad}`);
    assert.ok(r.state.error, 'the state names the error');
    await set({ [attr]: good });
    const back = await fig.snap();
    assert.deepEqual([back.error, back.state.error], ['', null], `${attr} recovers`);
  }
  // a zero vector has no direction: the core's error in place, then recovery
  await set({ vector: '0,0,0' });
  assert.match((await fig.snap()).error, /zero vector/);
  await set({ vector: '1,2,3' });
  assert.equal((await fig.snap()).error, '');
});

test('Chinese: labels, description and legend follow lang', async () => {
  await set({ lang: 'zh' });
  const r = await fig.snap();
  assert.ok(r.svg.includes('LayerNorm：三个输入都落在这里'), JSON.stringify(r.svg));
  // a point's inputs are a function's arguments: "L2(x, 10x)", never the prose list mark "、"
  assert.ok(r.svg.includes('L2(x, 10x)') && r.svg.includes('RMSNorm(x, 10x)'), JSON.stringify(r.svg));
  assert.ok(r.svg.includes('(1, 1, 1)：') && r.svg.includes('mean 的方向'));
  assert.match(r.desc, /把 x 乘以 10，三个输出都不变：10x 与 x 方向相同。/);
  assert.match(r.desc, /每个坐标加 100，L2 与 RMSNorm 的输出移向 \(1, 1, 1\)/);
  assert.match(r.desc, /LayerNorm 的输出却停在 \(-1\.225, 0, 1\.225\)：LayerNorm 先去掉沿 \(1, 1, 1\) 的分量/);
  const legend = await fig.page.locator(TAG).locator('[part=legend]').textContent();
  assert.match(legend, /RMSNorm 输出：在半径 √3 = 1\.732 的球面上/);
  // the arrows are drawn one length: the legend says so, with the three lengths (√14 = 3.7417, √(101² + 102² + 103²) = √31214 = 176.67, 10√14 = 37.417)
  assert.match(
    legend,
    /箭头：只表示输入的方向，画成同一长度，不按比例（‖x‖₂ = 3\.742、‖x \+ 100‖₂ = 176\.7、‖10x‖₂ = 37\.42）/,
  );
  await fig.page.locator(TAG).screenshot({ path: join(shotsDir, 'norm-geometry-zh.png') });
  await set({ lang: 'en' });
  assert.match(await desc(), /^Inputs: /);
});

test('360 px, both languages: labels at least 10 px, inside the picture, never over another label, a point or an arrowhead', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, context, problems } = await openPage(fig.env.browser, fig.env.url + 'web/index.html', {
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    if (lang === 'zh') await page.click('[data-set-lang="zh"]');
    await page.locator(TAG).scrollIntoViewIfNeeded();
    await page.waitForFunction((t) => document.querySelector(t)?.state, TAG);
    await page.waitForTimeout(100); // the redraw at the measured width
    for (const [yaw, pitch] of [
      [null, null], // the default view, where x + 100's ray runs 0.46° from the (1, 1, 1) axis
      [-60, 20],
      [30, 45],
      [150, -30],
    ]) {
      await page.evaluate(
        async ([t, y, p]) => {
          const el = document.querySelector(t);
          if (y === null) return;
          el.yaw = y;
          el.pitch = p;
          await el.updateComplete;
        },
        [TAG, yaw, pitch],
      );
      const r = await page.evaluate((t) => {
        const root = document.querySelector(t).shadowRoot;
        const svg = root.querySelector('svg').getBoundingClientRect();
        const texts = [...root.querySelectorAll('svg text')].map((e) => ({
          t: e.textContent,
          b: e.getBoundingClientRect(),
          px: parseFloat(getComputedStyle(e).fontSize) * e.getScreenCTM().a,
        }));
        const dots = [...root.querySelectorAll('circle.dot')].map((c) => c.getBoundingClientRect());
        const heads = [...root.querySelectorAll('.head')].map((c) => c.getBoundingClientRect());
        const hit = (a, b) =>
          Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
          Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
        const out = [];
        texts.forEach((a, i) => {
          if (a.px < 10) out.push(`"${a.t}" is ${a.px.toFixed(1)} px`);
          if (a.b.left < svg.left - 0.5 || a.b.right > svg.right + 0.5 || a.b.top < svg.top - 0.5)
            out.push(`"${a.t}" outside the picture`);
          texts.slice(i + 1).forEach((b) => hit(a.b, b.b) && out.push(`"${a.t}" over "${b.t}"`));
          dots.forEach((d) => hit(a.b, d) && out.push(`"${a.t}" over a point`));
          heads.forEach((d) => hit(a.b, d) && out.push(`"${a.t}" over an arrowhead`));
        });
        return { out, count: texts.length, width: svg.width };
      }, TAG);
      assert.ok(r.count >= 9 && r.width < 340, `${lang}: ${r.count} labels, ${r.width} px`);
      assert.deepEqual(r.out, [], `${lang}, yaw ${yaw}, pitch ${pitch}`);
    }
    // the numbers table: every cell on screen, no sideways scroll, each input's outputs named in its row
    const table = await tableFit(page);
    assert.deepEqual(table.cut, [], `${lang}: table cells cut off at ${table.width} px`);
    assert.equal(table.scrolls, false, `${lang}: the table scrolls sideways`);
    assert.equal(table.rows.length, 3);
    for (const row of table.rows) assert.match(row, /L2 \(.*RMSNorm \(.*LayerNorm \(/, `${lang}: ${row}`);
    await page.locator(TAG).screenshot({ path: join(shotsDir, `norm-geometry-360-${lang}.png`) });
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the numbers table fits at 1280 px and at the page width: no cell cut off, no sideways scroll', async () => {
  for (const width of [1280, 1100, 700]) {
    await fig.page.setViewportSize({ width, height: 900 });
    await fig.page.waitForTimeout(100);
    const table = await tableFit(fig.page);
    assert.deepEqual(table.cut, [], `${width} px: cells cut off`);
    assert.equal(table.scrolls, false, `${width} px: the table scrolls sideways`);
    assert.match(table.rows[0], /^x coordinates \(1, 2, 3\)/);
  }
  await fig.page.setViewportSize({ width: 1100, height: 900 });
});

test('no page error or CSP violation on the way', async () => {
  assert.deepEqual(fig.problems, []);
  assert.deepEqual(await fig.page.evaluate(() => window.__cspViolations), []);
});
