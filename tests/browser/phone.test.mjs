// Phones: on the article page at a 360 px viewport, in both languages, every
// label of every figure renders at least 10 CSS px tall, no figure is
// wider than the screen or overflows its own box, and every control is a
// comfortable touch target: every button, slider, select and number box at
// least 44 px tall, and every other target (svg drag handles, code
// expressions, tensor cells, checkboxes with their labels) at least 44 x 44 px
// in its hit area.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FIGURE_TAGS, openPage, setup } from './helpers.mjs';

const TAGS = FIGURE_TAGS;

let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

/** Sizes of what one figure shows, measured in the page. */
function measure(el) {
  const root = el.shadowRoot;
  const small = [];
  // SVG text: its font size times the scale its <svg> is drawn at.
  for (const t of root.querySelectorAll('svg text')) {
    if (!t.textContent.trim() || t.closest('[hidden]') || !t.getClientRects().length) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.abs(t.getScreenCTM()?.a ?? 1);
    if (px < 10) small.push(`svg "${t.textContent.slice(0, 20)}" ${px.toFixed(1)} px`);
  }
  // HTML text: every element that holds text directly.
  for (const e of root.querySelectorAll('*')) {
    if (e.closest('svg') || !e.getClientRects().length) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const px = parseFloat(getComputedStyle(e).fontSize);
    if (px < 10) small.push(`${e.localName}.${e.className} "${e.textContent.trim().slice(0, 20)}" ${px.toFixed(1)} px`);
  }
  const box = el.getBoundingClientRect();
  const wide = [...root.querySelectorAll('*')]
    .filter((e) => {
      // clipped drawing shows only inside its clip; clip paths, definitions and groups are not drawn themselves
      if (!e.getClientRects().length || e.closest('[clip-path], clipPath, defs, mask') || e.localName === 'g')
        return false;
      // inside a box that scrolls horizontally on purpose (code, wide tables) is fine
      for (let p = e.parentElement; p; p = p.parentElement)
        if (['auto', 'scroll'].includes(getComputedStyle(p).overflowX)) return false;
      const r = e.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return false;
      return r.right > box.right + 1 || r.left < box.left - 1;
    })
    .map((e) => `${e.localName}.${e.getAttribute('class') ?? ''}`);
  // Every touch target, the expressions in code and the cells of a clickable svg among them, is at least 44 x 44 px
  // where a finger lands on it: an svg handle's invisible hit shape (its `.hit` child), a checkbox's label, else the
  // control itself (a range slider's height is checked below with the other controls). Hidden ones are exempt.
  const hitBox = (c) =>
    c.querySelector(':scope > .hit') ?? (['checkbox', 'radio'].includes(c.type) ? c.closest('label') : null) ?? c;
  const targets = [
    ...root.querySelectorAll('button, input, select, [role=slider], [role=button], [tabindex="0"]'),
    ...root.querySelectorAll('svg[tabindex="0"] [data-index]'),
  ].filter((c) => c.getClientRects().length && !c.closest('[hidden]'));
  const tiny = targets
    .filter((c) => {
      const r = hitBox(c).getBoundingClientRect();
      return c.type === 'range' ? r.width < 43.5 : r.height < 43.5 || r.width < 43.5;
    })
    .map((c) => {
      const r = hitBox(c).getBoundingClientRect();
      const name = c.getAttribute('aria-label') ?? c.dataset.index ?? c.type ?? '';
      return `${c.localName}.${c.getAttribute('class') ?? ''}[${name}] ${r.width.toFixed(0)} x ${r.height.toFixed(0)} px`;
    });
  // every button, slider, select and number box is at least 44 px tall on a phone (checkboxes have their own rule)
  const short = [...root.querySelectorAll('button, select, input')]
    .filter((c) => c.getClientRects().length && !c.closest('[hidden]') && !['checkbox', 'radio'].includes(c.type))
    .filter((c) => c.getBoundingClientRect().height < 44)
    .map(
      (c) =>
        `${c.localName}[${c.getAttribute('aria-label') ?? c.type ?? ''}] ${c.getBoundingClientRect().height.toFixed(0)} px tall`,
    );
  return {
    width: box.width,
    right: box.right,
    small,
    wide: [...new Set(wide)].slice(0, 5),
    tiny: tiny.slice(0, 5),
    targets: targets.length,
    short: [...new Set(short)].slice(0, 5),
  };
}

for (const lang of ['en', 'zh']) {
  test(`360 px, ${lang}: labels >= 10 px, no figure wider than the screen, controls >= 44 px tall`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html', {
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    if (lang === 'zh') await page.click('[data-set-lang="zh"]');
    const report = {};
    for (const tag of TAGS) {
      const fig = page.locator(tag).first();
      await fig.scrollIntoViewIfNeeded();
      await fig.evaluate(
        (el) =>
          new Promise((resolve) => {
            const c = () => (el.state ? resolve() : setTimeout(c, 25));
            c();
          }),
      );
      await page.waitForTimeout(50); // a redraw at the measured width
      report[tag] = await fig.evaluate(measure);
    }
    const bad = Object.entries(report).flatMap(([tag, r]) => [
      ...(r.right > 360.5 ? [`${tag}: right edge at ${r.right.toFixed(0)} px`] : []),
      ...r.small.map((s) => `${tag}: ${s}`),
      ...r.wide.map((s) => `${tag}: ${s} sticks out`),
      ...r.tiny.map((s) => `${tag}: touch target under 44 x 44 px: ${s}`),
      ...r.short.map((s) => `${tag}: control under 44 px: ${s}`),
    ]);
    assert.deepEqual(bad, []);
    // the 48 cells of the five-questions tensor alone are targets: the rule above measured them
    const targets = Object.values(report).reduce((n, r) => n + r.targets, 0);
    assert.ok(targets > 48 + 20, `touch targets measured: ${targets}`);
    assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360, 'the page scrolls sideways');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// The one shared rule (web/components/lib/base.js): 44 px controls at 600 px or less with a mouse, and at any width
// with a finger; a desktop with a mouse keeps the figures' own smaller controls.
for (const [label, options, tall] of [
  ['600 px, mouse', { viewport: { width: 600, height: 900 } }, true],
  ['1280 px, touch', { viewport: { width: 1280, height: 900 }, hasTouch: true, isMobile: true }, true],
  ['1280 px, mouse', { viewport: { width: 1280, height: 900 } }, false],
]) {
  test(`${label}: every button, select, number box and slider ${tall ? 'is' : 'need not be'} 44 px tall`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html', options);
    const heights = {};
    for (const tag of ['nl-norm-geometry', 'nl-depth-training', 'nl-axis-cube', 'nl-qk-norm']) {
      const fig = page.locator(tag).first();
      await fig.scrollIntoViewIfNeeded();
      await page.waitForFunction((t) => document.querySelector(t)?.state, tag);
      heights[tag] = await fig.evaluate((el) =>
        [...el.shadowRoot.querySelectorAll('button, select, input')]
          .filter((c) => c.getClientRects().length && !c.closest('[hidden]') && !['checkbox', 'radio'].includes(c.type))
          .map((c) => [`${c.localName}[${c.type}]`, c.getBoundingClientRect().height]),
      );
    }
    const all = Object.entries(heights).flatMap(([tag, hs]) => hs.map(([n, h]) => [`${tag} ${n}`, h]));
    assert.ok(
      all.some(([n]) => n.includes('[range]')) && all.some(([n]) => n.includes('select')),
      'sliders and selects',
    );
    const short = all.filter(([, h]) => h < 43.5).map(([n, h]) => `${n} ${h.toFixed(0)} px`);
    if (tall) assert.deepEqual(short, []);
    else assert.ok(short.length > 0, 'a desktop with a mouse keeps the smaller controls');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// The hit circle is what a finger lands on: on a phone a press 20 px beside the centre of residual-turn's x dot
// (outside the 17 px circle a mouse gets, inside the 22 px one) takes the handle, and dragging it 40 px up raises
// x's second coordinate; on a desktop with a mouse the same press misses and x stays (1, 0): the desktop keeps its
// smaller targets.
for (const [label, options, grabs] of [
  ['360 px, touch', { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true }, true],
  ['1280 px, mouse', { viewport: { width: 1280, height: 900 } }, false],
]) {
  test(`${label}: a press 20 px beside a drag handle's dot ${grabs ? 'takes' : 'misses'} it`, async () => {
    const { page, context, problems } = await openPage(env.browser, env.url + 'web/index.html', options);
    const fig = page.locator('nl-residual-turn').first();
    await fig.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('nl-residual-turn')?.state);
    await fig.evaluate((el) => el.shadowRoot.querySelector('.handle.input').scrollIntoView({ block: 'center' }));
    await page.waitForTimeout(100);
    const c = await fig.evaluate((el) => {
      const r = el.shadowRoot.querySelector('.handle.input .dot').getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    });
    const before = await fig.evaluate((el) => [...el.state.x]);
    assert.deepEqual(before, [1, 0]);
    await page.mouse.move(c.x + 20, c.y);
    await page.mouse.down();
    for (let k = 1; k <= 4; k++) await page.mouse.move(c.x + 20, c.y - 10 * k);
    await page.mouse.up();
    const after = await fig.evaluate((el) => [...el.state.x]);
    if (grabs) assert.ok(after[1] > 0, `x after the drag: ${after}`);
    else assert.deepEqual(after, [1, 0]);
    // five-questions' tensor cells: 44 px targets on the phone, the 22 px cells of the 24 px grid with a mouse
    const cells = page.locator('nl-five-questions').first();
    await cells.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector('nl-five-questions')?.state);
    const cell = await cells.evaluate((el) => {
      const r = el.shadowRoot.querySelector('[data-index]').getBoundingClientRect();
      return [Math.round(r.width), Math.round(r.height)];
    });
    assert.deepEqual(cell, grabs ? [44, 44] : [22, 22]);
    assert.deepEqual(problems, []);
    await context.close();
  });
}
