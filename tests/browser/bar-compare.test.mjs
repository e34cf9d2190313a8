// <nl-bar-compare> in Chromium: the article's two experiments checked in the
// element's state and in the drawn bars, keyboard use, the language switch,
// recovery from bad attributes, dragging and keying the input bars, LayerNorm's
// two steps (played, and stepped under reduced motion), the colour tokens, no
// CSP violation; screenshots saved. The sweep over every control, the bad
// attributes and the phone width are in sweep-bar.test.mjs.
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

test('opens as the article sets it, (1,2,3) + 100; at offset 0 every panel matches its gray reference', async () => {
  const opened = await state();
  assert.deepEqual(opened.input, [101, 102, 103]);
  assert.ok(opened.change.layer_norm < 1e-4 && opened.change.l2 > 0.3 && opened.change.rms_norm > 0.6, 'LN stays');
  // the rest of this file starts from the plain vector, as an embedder's figure opens
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('offset', '0'));
  await page.waitForFunction(() => document.querySelector('nl-bar-compare').state.input[0] === 1);
  const s = await state();
  assert.deepEqual(s.vector, [1, 2, 3]);
  assert.deepEqual(s.input, [1, 2, 3]);
  const r = Math.sqrt(1.5);
  [-r, 0, r].forEach((w, i) => assert.ok(Math.abs(s.reference.layer_norm[i] - w) < 1e-4));
  for (const p of ['l2', 'layer_norm', 'rms_norm']) assert.ok(maxDiff(s.current[p], s.reference[p]) < 1e-7);
});

test('"Add 100 only": LayerNorm stays on its gray bars, L2 and RMSNorm move', async () => {
  const events = page.evaluate(
    () =>
      new Promise((resolve) =>
        document.querySelector('nl-bar-compare').addEventListener('change', () => resolve(true), { once: true }),
      ),
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
  const box = page.locator('nl-bar-compare').getByRole('spinbutton', { name: 'ε' });
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
    const label = await page.evaluate(
      () => document.querySelector('nl-bar-compare').shadowRoot.activeElement?.textContent,
    );
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
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('offset', '0')); // as test 1
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
  assert.ok(Math.abs(s.current.l2[0] - 0.6) < 1e-6, JSON.stringify(s));
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('vector', '1,2,3'));
});

test('a 300-character bad value is quoted shortened and the error wraps: the page does not scroll sideways', async () => {
  const fig = page.locator('nl-bar-compare');
  const err = fig.locator('.error');
  const long = 'w'.repeat(300);
  const viewport = page.viewportSize();
  const docWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  const before = await page.evaluate(() => document.querySelector('nl-bar-compare').getAttribute('scale'));
  try {
    await page.evaluate((v) => document.querySelector('nl-bar-compare').setAttribute('scale', v), long);
    const text = await err.textContent();
    assert.match(text, /\(300 characters\)/);
    assert.ok(
      !text.includes('w'.repeat(81)),
      `the error quotes more than 80 characters of the value: ${text.length} characters`,
    );
    assert.ok(
      (await docWidth()) <= viewport.width,
      `the page is ${await docWidth()} px wide in a ${viewport.width} px viewport`,
    );
    // on a phone even the shortened value is wider than the figure: it wraps
    await page.setViewportSize({ width: 360, height: viewport.height });
    await fig.scrollIntoViewIfNeeded();
    assert.ok((await docWidth()) <= 360, `the page is ${await docWidth()} px wide in a 360 px viewport`);
  } finally {
    await page.setViewportSize(viewport);
    await page.evaluate((v) => {
      const f = document.querySelector('nl-bar-compare');
      if (v === null) f.removeAttribute('scale');
      else f.setAttribute('scale', v);
    }, before);
  }
  assert.equal(await err.textContent(), '');
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

test('the gray input bars: keyboard handles with their value in the label', async () => {
  await clickButton('Reset');
  const fig = page.locator('nl-bar-compare');
  const handle = fig.getByRole('slider', { name: /coordinate x1/ });
  assert.equal(await handle.count(), 1);
  assert.match(await handle.getAttribute('aria-label'), /x1: 1$/);
  await handle.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowUp');
  let s = await state();
  assert.deepEqual(s.vector, [1.3, 2, 3], 'three steps of 0.1 up, with no binary noise');
  assert.ok(Math.abs(s.input[0] - 1.3) < 1e-6);
  assert.equal(
    await page.evaluate(() => document.querySelector('nl-bar-compare').getAttribute('vector')),
    '1.3,2,3',
    'reflected',
  );
  assert.match(await handle.getAttribute('aria-label'), /x1: 1\.3$/);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('ArrowLeft');
  s = await state();
  assert.deepEqual(s.vector, [0.2, 2, 3]);
  // the handle keeps focus through the redraws
  assert.equal(
    await page.evaluate(() => document.querySelector('nl-bar-compare').shadowRoot.activeElement?.getAttribute('role')),
    'slider',
  );
  await clickButton('Reset');
  assert.deepEqual((await state()).vector, [1, 2, 3], 'Reset restores the vector too');
});

// At offset 100 the gray input bars are 1 to 3 units on a 0..150 axis, slivers a reader cannot find: each has a
// round grip on its top, inside its hit area, at least 14 px across, whatever the bar's height.
test('every gray input bar has a round grip on its top, inside the handle, even when the bar is a sliver', async () => {
  await clickButton('Reset');
  const before = await page.evaluate(() => document.querySelector('nl-bar-compare').getAttribute('offset'));
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('offset', '100'));
  const r = await page.evaluate(() => {
    const root = document.querySelector('nl-bar-compare').shadowRoot;
    return [...root.querySelectorAll('.handle')].map((h) => {
      const g = h.querySelector('.grip').getBoundingClientRect();
      const hit = h.querySelector('.hit').getBoundingClientRect();
      const knob = h.querySelector('.knob').getBoundingClientRect();
      return { g, hit, knobY: knob.y };
    });
  });
  assert.equal(r.length, 3);
  for (const { g, hit, knobY } of r) {
    assert.ok(g.width >= 14, `grip ${g.width} px across`);
    const cx = g.x + g.width / 2,
      cy = g.y + g.height / 2;
    assert.ok(cx > hit.x && cx < hit.x + hit.width && cy > hit.y && cy < hit.y + hit.height, 'inside the hit area');
    assert.ok(g.y + g.height <= knobY + 3, 'on the bar top');
  }
  await page.evaluate((v) => {
    const f = document.querySelector('nl-bar-compare');
    if (v === null) f.removeAttribute('offset');
    else f.setAttribute('offset', v);
  }, before);
});

test('dragging a gray input bar with the mouse moves its coordinate; only the handle blocks page scrolling', async () => {
  const fig = page.locator('nl-bar-compare');
  const handle = fig.getByRole('slider', { name: /coordinate x3/ });
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.locator('.knob').boundingBox();
  const x = box.x + box.width / 2,
    y = box.y + box.height / 2;
  const changes = page.evaluate(
    () =>
      new Promise((resolve) => {
        let n = 0;
        document.querySelector('nl-bar-compare').addEventListener('change', () => ++n === 1 && resolve(true));
      }),
  );
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x, y - 20, { steps: 4 });
  await page.mouse.move(x, y - 40, { steps: 4 });
  await page.mouse.up();
  assert.equal(await changes, true);
  const s = await state();
  assert.ok(s.vector[2] > 3.2, `dragged up: ${s.vector}`);
  assert.deepEqual(s.vector.slice(0, 2), [1, 2]);
  const touch = await page.evaluate(() => {
    const root = document.querySelector('nl-bar-compare').shadowRoot;
    return {
      handle: getComputedStyle(root.querySelector('.handle')).touchAction,
      chart: getComputedStyle(root.querySelector('svg.chart')).touchAction,
      steps: getComputedStyle(root.querySelector('svg.steps-chart')).touchAction,
    };
  });
  assert.deepEqual(touch, { handle: 'none', chart: 'auto', steps: 'auto' });
  await clickButton('Reset');
});

test('dragging by touch moves a coordinate (pointer events from a touch screen)', async () => {
  const context = await env.browser.newContext({
    viewport: { width: 390, height: 800 },
    hasTouch: true,
    isMobile: true,
  });
  const p = await context.newPage();
  await p.goto(env.url + 'web/index.html');
  await p.locator('nl-bar-compare').scrollIntoViewIfNeeded();
  await p.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current);
  const handle = p.locator('nl-bar-compare').getByRole('slider', { name: /coordinate x2/ });
  await handle.scrollIntoViewIfNeeded();
  const box = await handle.locator('.knob').boundingBox();
  const x = box.x + box.width / 2,
    y = box.y + box.height / 2;
  const cdp = await context.newCDPSession(p);
  const touch = (type, yy) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: yy }] });
  await touch('touchStart', y);
  for (let k = 1; k <= 6; k++) await touch('touchMove', y + 5 * k);
  await touch('touchEnd');
  const s = await p.evaluate(() => document.querySelector('nl-bar-compare').state);
  assert.ok(s.vector[1] < 1.9, `dragged down by touch: ${s.vector}`);
  assert.equal(s.vector[0], 1);
  await context.close();
});

test("LayerNorm's two steps: Play walks input → x − mean → divided, with the step named in the text", async () => {
  await clickButton('Reset');
  const fig = page.locator('nl-bar-compare');
  const caption = fig.locator('.steps-caption');
  assert.match(await caption.textContent(), /^The input \(1, 2, 3\); its mean is 2\./);
  await fig.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForFunction(() => document.querySelector('nl-bar-compare').state.step === 1, null, { timeout: 5000 });
  let s = await state();
  // hand-derived: (1, 2, 3) − 2 = (−1, 0, 1)
  assert.deepEqual(s.steps.centered, [-1, 0, 1]);
  assert.equal(s.steps.mean, 2);
  assert.match(await caption.textContent(), /Step 1 of 2: subtract the mean 2 from every coordinate: \(-1, 0, 1\)/);
  await page.waitForFunction(() => document.querySelector('nl-bar-compare').state.step === 2, null, { timeout: 5000 });
  s = await state();
  assert.ok(Math.abs(s.steps.variance - 2 / 3) < 1e-6);
  const r = 1 / Math.sqrt(2 / 3 + 1e-5); // σ² = 2/3
  [-r, 0, r].forEach((w, i) => assert.ok(Math.abs(s.steps.output[i] - w) < 1e-5, `${s.steps.output}`));
  assert.match(
    await caption.textContent(),
    /Step 2 of 2: divide by √\(σ² \+ ε\), with σ² = 0\.6667 and ε = 10⁻⁵: \(-1\.225, 0, 1\.225\), the LayerNorm output\./,
  );
  assert.equal(await fig.getByRole('button', { name: 'Back to the input' }).count(), 1);
  await page
    .locator('nl-bar-compare')
    .locator('.steps')
    .screenshot({ path: join(shotsDir, 'bar-compare-steps.png') });
});

test('under prefers-reduced-motion: no Play button, Next steps one at a time', async () => {
  const context = await env.browser.newContext({ reducedMotion: 'reduce' });
  const p = await context.newPage();
  await p.goto(env.url + 'web/index.html');
  const fig = p.locator('nl-bar-compare');
  await fig.scrollIntoViewIfNeeded();
  await p.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current);
  assert.equal(await fig.getByRole('button', { name: 'Play', exact: true }).isVisible(), false);
  const next = fig.locator('button.next');
  const steps = [];
  for (let k = 0; k < 4; k++) {
    await next.click();
    steps.push(await p.evaluate(() => document.querySelector('nl-bar-compare').state.step));
  }
  assert.deepEqual(steps, [1, 2, 0, 1]);
  assert.match(await fig.locator('.steps-caption').textContent(), /^Step 1 of 2/);
  // no transition on the bars
  assert.equal(
    await p.evaluate(
      () =>
        getComputedStyle(document.querySelector('nl-bar-compare').shadowRoot.querySelector('.step-bar'))
          .transitionDuration,
    ),
    '0s',
  );
  await context.close();
});

test('colours come from the semantic tokens', async () => {
  const look = await page.evaluate(() => {
    const f = document.querySelector('nl-bar-compare');
    const root = f.shadowRoot;
    const host = getComputedStyle(f);
    const probe = (token) => {
      const d = document.createElement('div');
      d.style.color = host.getPropertyValue(token);
      document.body.append(d);
      const c = getComputedStyle(d).color;
      d.remove();
      return c;
    };
    const fill = (sel) => getComputedStyle(root.querySelector(sel)).fill;
    return {
      tokens: Object.fromEntries(
        ['--nl-input', '--nl-reference', '--nl-l2', '--nl-layer-norm', '--nl-rms-norm'].map((t) => [t, probe(t)]),
      ),
      fills: {
        '--nl-input': fill('rect.bar.current.input'),
        '--nl-reference': fill('rect.bar.reference.l2'),
        '--nl-l2': fill('rect.bar.current.l2'),
        '--nl-layer-norm': fill('rect.bar.current.layer_norm'),
        '--nl-rms-norm': fill('rect.bar.current.rms_norm'),
      },
    };
  });
  assert.deepEqual(look.fills, look.tokens);
  assert.equal(new Set(Object.values(look.tokens)).size, 5, 'five distinct colours');
});

test('no page errors and no CSP violation under the strict policy; full-page screenshot', async () => {
  assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
  assert.deepEqual(problems, []);
  await page.screenshot({ path: join(shotsDir, 'article-en.png'), fullPage: true });
});

test('Reset returns to what the page last set, not to the first values', async () => {
  await page.evaluate(() => {
    const f = document.querySelector('nl-bar-compare');
    f.setAttribute('vector', '1,2,3,4');
    f.setAttribute('offset', '5');
  });
  await clickButton('Multiply by 10 only');
  let s = await state();
  assert.equal(s.scale, 10);
  assert.equal(s.offset, 0);
  await clickButton('Reset');
  s = await state();
  assert.deepEqual(s.vector, [1, 2, 3, 4], 'the vector the page set');
  assert.equal(s.offset, 5, 'the offset the page set');
  assert.equal(s.scale, 1, 'the scale the page never set keeps its default');
  // The page sets the vector back; Reset follows it.
  await page.evaluate(() => document.querySelector('nl-bar-compare').removeAttribute('offset'));
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('vector', '1,2,3'));
  await clickButton('Reset');
  s = await state();
  assert.deepEqual([s.vector, s.offset], [[1, 2, 3], 0]);
});

test('ε is written ε; distances read at one precision (5.96 × 10⁻⁸, not 0.0000000596); the mean label speaks Chinese', async () => {
  const fig = page.locator('nl-bar-compare');
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('lang', 'en'));
  await clickButton('Reset');
  assert.equal((await fig.locator('label.control.eps > span').first().textContent()).trim(), 'ε');
  // The rule, written here: 3 significant digits; below 0.001 a power of ten (mantissa × 10ⁿ, 10ⁿ for mantissa 1).
  const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
  const readable = (v) => {
    if (v === 0 || Math.abs(v) >= 1e-3)
      return new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }).format(v);
    const [m, e] = v.toExponential(2).split('e');
    const power = `10${[...String(Number(e))].map((c) => SUP[c]).join('')}`;
    return Number(m) === 1 ? power : `${Number(m)} × ${power}`;
  };
  const cells = () =>
    page.evaluate(() =>
      [...document.querySelector('nl-bar-compare').shadowRoot.querySelectorAll('td.change')].map((t) => t.textContent),
    );
  for (const button of ['Add 100 only', 'Multiply by 10 only']) {
    await clickButton(button);
    const s = await state();
    const shown = await cells();
    assert.deepEqual(
      shown,
      ['l2', 'layer_norm', 'rms_norm'].map((p) => readable(s.change[p])),
      button,
    );
    for (const t of shown) assert.doesNotMatch(t, /0\.000/, `${button}: "${t}" is a run of zeros`);
  }
  // ×10 at ε = 10⁻⁵: L2 and RMSNorm move by float32 rounding and ε's share only (well below 0.001)
  assert.ok(
    (await cells()).some((t) => / × 10⁻|^10⁻/.test(t)),
    'a tiny distance in powers of ten',
  );
  assert.match(await fig.locator('.table-note').textContent(), /at most 10⁻⁴\./);
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('lang', 'zh'));
  await clickButton('重置');
  assert.equal((await fig.locator('label.control.eps > span').first().textContent()).trim(), 'ε');
  const labels = await page.evaluate(() =>
    [...document.querySelector('nl-bar-compare').shadowRoot.querySelectorAll('text.mean-label')].map(
      (t) => t.textContent,
    ),
  );
  assert.deepEqual(labels, ['mean 为 2'], 'the mean of (1, 2, 3) is 2, in a Chinese phrase');
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('lang', 'en'));
});
