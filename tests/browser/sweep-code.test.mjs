// <nl-code-shapes> swept through its real controls: every size control over 14
// positions (number box: both ends, powers of two and their neighbours; slider:
// Home, steps, End), every expression of every
// snippet chosen at each position, and every shape the figure writes (callout,
// panel, description, aria-label) checked against `state` and against a rule
// derived by hand from the PyTorch code. Bad attributes and bad typed sizes
// keep the last good state with a localized message; a core error goes through
// the catalog; at 360 px the code scrolls inside its block and the callout
// sits next to the tapped expression.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, setup, shotsDir } from './helpers.mjs';

let env;
before(async () => {
  env = await setup();
});
after(() => env.close());

// Read off the code by hand: a last-axis reduction with keepdim=True leaves
// [B, T, 1]; anything combined with x broadcasts back to [B, T, d]; gamma is
// [d], so x_hat * gamma stays [B, T, d]; c @ W is [B, d_c] @ [d_c, d] = [B, d],
// and unsqueeze(1) gives [B, 1, d]; (1 + scale) * x_hat + shift is [B, T, d].
const EXPRS = [
  ['l2-norm', 'l2_normalize', 'B,T,1'],
  ['l2-divide', 'l2_normalize', 'B,T,d'],
  ['ln-mean', 'layer_norm', 'B,T,1'],
  ['ln-var', 'layer_norm', 'B,T,1'],
  ['ln-hat', 'layer_norm', 'B,T,d'],
  ['ln-affine', 'layer_norm', 'B,T,d'],
  ['rms-ms', 'rms_norm', 'B,T,1'],
  ['rms-out', 'rms_norm', 'B,T,d'],
  ['ada-scale', 'ada_layer_norm', 'B,1,d'],
  ['ada-shift', 'ada_layer_norm', 'B,1,d'],
  ['ada-var', 'ada_layer_norm', 'B,T,1'],
  ['ada-out', 'ada_layer_norm', 'B,T,d'],
];
const SNIPPET_NAME = {
  en: {
    l2_normalize: 'l2_normalize (L2 normalization)',
    layer_norm: 'layer_norm (LayerNorm)',
    rms_norm: 'rms_norm (RMSNorm)',
    ada_layer_norm: 'ada_layer_norm (AdaLN)',
  },
};
const NAMES = ['B', 'T', 'd', 'd_c'];
const symbolic = (id) => EXPRS.find((e) => e[0] === id)[2].split(',');
const numeric = (id, sizes) => symbolic(id).map((n) => (n === '1' ? 1 : sizes[n]));
const bracket = (a) => `[${a.join(', ')}]`;

const TAG = 'nl-code-shapes';
const getState = (page) => page.evaluate((t) => JSON.parse(JSON.stringify(document.querySelector(t).state)), TAG);

async function ready(page) {
  await page.locator(TAG).scrollIntoViewIfNeeded();
  await page.waitForFunction(
    (t) => document.querySelector(t)?.state?.expressions && !document.querySelector(t).state.error,
    TAG,
  );
  // the highlighter re-renders the code once: wait for its tokens
  await page.waitForFunction((t) => document.querySelector(t).shadowRoot.querySelector('.token.keyword'), TAG);
}

// What the figure shows right now, read from its shadow DOM.
const shown = (page) =>
  page.evaluate((t) => {
    const f = document.querySelector(t);
    const r = f.shadowRoot;
    const callout = r.querySelector('.callout');
    const active = [...r.querySelectorAll('.expr.active')];
    const rect = (n) => {
      const b = n.getBoundingClientRect();
      return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
    };
    return {
      calloutHidden: callout.hidden || getComputedStyle(callout).display === 'none',
      callout: callout.textContent,
      calloutRect: rect(callout),
      info: r.querySelector('.info .shape').textContent,
      where: r.querySelector('.info .where').textContent,
      desc: r.querySelector('[part=description]').textContent,
      error: r.querySelector('[part=error]').textContent,
      active: active.map((n) => n.dataset.id),
      activeRect: active[0] && rect(active[0]),
      // the expression as drawn: its highlight band, inset by ::before inside a 44 px touch target on a phone
      bandRect:
        active[0] &&
        (() => {
          const b = rect(active[0]);
          const inset = parseFloat(getComputedStyle(active[0], '::before').top) || 0;
          return { ...b, top: b.top + inset, bottom: b.bottom - inset };
        })(),
      activeLabel: active[0]?.getAttribute('aria-label'),
      focused: r.activeElement?.dataset?.id ?? null,
      boxes: Object.fromEntries(
        [...r.querySelectorAll('input[type=number]')].map((b) => [
          b.getAttribute('aria-label').replace('size ', ''),
          b.value,
        ]),
      ),
    };
  }, TAG);

const overlaps = (a, b) =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

/** Every check of one chosen expression, in English. */
function checkChosen(s, v, id, sizes, where) {
  const e = s.expressions.find((x) => x.id === id);
  const [, snippet] = EXPRS.find((x) => x[0] === id);
  assert.equal(s.selected, id, where);
  assert.equal(s.snippet, snippet, `${where}: snippet`);
  assert.deepEqual(e.symbolic, symbolic(id), `${where}: symbolic shape from the core vs by hand`);
  assert.deepEqual(e.shape, numeric(id, sizes), `${where}: shape from the core vs by hand`);
  const text = `${bracket(e.symbolic)} → ${bracket(e.shape)}`;
  assert.equal(v.calloutHidden, false, `${where}: callout open`);
  assert.equal(v.callout, text, `${where}: callout`);
  assert.equal(v.info, text, `${where}: panel`);
  assert.deepEqual(v.active, [id], `${where}: one highlighted expression`);
  assert.ok(!overlaps(v.calloutRect, v.activeRect), `${where}: the callout does not cover its expression`);
  assert.ok(
    Math.min(Math.abs(v.calloutRect.top - v.activeRect.bottom), Math.abs(v.activeRect.top - v.calloutRect.bottom)) < 14,
    `${where}: the callout sits right above or below its expression`,
  );
  assert.equal(v.activeLabel, `${e.code}, shape ${bracket(e.symbolic)} = ${bracket(e.shape)}`, `${where}: aria-label`);
  assert.equal(v.where, `in ${SNIPPET_NAME.en[snippet]}`, `${where}: panel names the snippet`);
  // The description: snippet, code, both shapes, and exactly the sizes that appear in the shape.
  assert.ok(
    v.desc.startsWith(
      `In ${SNIPPET_NAME.en[snippet]}, the selected expression ${e.code} has shape ${bracket(e.symbolic)}`,
    ),
    `${where}: ${v.desc}`,
  );
  assert.ok(v.desc.endsWith(`that is ${bracket(e.shape)}.`), `${where}: ${v.desc}`);
  for (const n of NAMES) {
    const says = new RegExp(`(^|[ ,])${n} = ${sizes[n]}[,; ]`).test(v.desc);
    assert.equal(says, e.symbolic.includes(n), `${where}: description ${says ? 'names' : 'omits'} ${n}: ${v.desc}`);
  }
  for (const [n, val] of Object.entries(v.boxes)) assert.equal(Number(val), sizes[n], `${where}: box ${n}`);
}

/** Choose every expression of every snippet with the keyboard and check each. */
async function walkAll(page, sizes, where) {
  const fig = page.locator(TAG);
  await fig.locator('.expr').first().focus();
  for (let i = 0; i < EXPRS.length; i++) {
    if (i) await page.keyboard.press('ArrowDown');
    const [s, v] = await Promise.all([getState(page), shown(page)]);
    assert.equal(v.focused, EXPRS[i][0], `${where}: focus`);
    assert.deepEqual(s.sizes, sizes, `${where}: sizes in state`);
    checkChosen(s, v, EXPRS[i][0], sizes, `${where} ${EXPRS[i][0]}`);
  }
}

test('sweep: each size over 8 typed values and 6 slider steps; every expression chosen', async () => {
  const { page, problems } = await openPage(env.browser, env.url + 'web/index.html');
  await ready(page);
  const fig = page.locator(TAG);
  const nodes = fig.locator('.expr');
  const DEFAULTS = { B: 2, T: 5, d: 8, d_c: 4 };
  // Sampled: the ends (1, 4096), small sizes, a power of two and the numbers beside one, large odd sizes. The
  // 20 values swept before took the same path between them (~2.5x the time).
  const TYPED = [1, 2, 7, 64, 127, 1000, 3001, 4096];
  let positions = 0,
    chosen = 0;
  // At each position: every expression's shape in state against the rule, and
  // one expression (a different one each time) chosen and checked everywhere it
  // is written; at the ends of each range, every expression chosen in turn.
  const atPosition = async (sizes, where, all) => {
    const s = await getState(page);
    assert.deepEqual(s.sizes, sizes, `${where}: sizes in state`);
    for (const [id] of EXPRS)
      assert.deepEqual(s.expressions.find((e) => e.id === id).shape, numeric(id, sizes), `${where} ${id}`);
    if (all) return walkAll(page, sizes, where).then(() => (chosen += EXPRS.length));
    const k = positions % EXPRS.length;
    await nodes.nth(k).focus();
    const [s2, v] = await Promise.all([getState(page), shown(page)]);
    checkChosen(s2, v, EXPRS[k][0], sizes, `${where} ${EXPRS[k][0]}`);
    chosen++;
  };
  for (const n of NAMES) {
    const sizes = { ...DEFAULTS };
    const box = fig.getByRole('spinbutton', { name: `size ${n}`, exact: true });
    for (const [i, value] of TYPED.entries()) {
      await box.fill(String(value));
      await box.press('Enter');
      sizes[n] = value;
      await atPosition(sizes, `${n}=${value} (typed)`, i === 0 || i === TYPED.length - 1);
      positions++;
    }
    // The slider, by keyboard: Home, then one step right at a time, then End.
    const slider = fig.getByRole('slider', { name: `size ${n}`, exact: true });
    await slider.focus();
    await page.keyboard.press('Home');
    sizes[n] = 1;
    for (let k = 0; k < 6; k++) {
      if (k) {
        await slider.press('ArrowRight');
        sizes[n] += 1;
      }
      await atPosition(sizes, `${n}=${sizes[n]} (slider)`, false);
      positions++;
    }
    await slider.press('End');
    sizes[n] = 4096;
    await atPosition(sizes, `${n}=4096 (slider End)`, false);
    // back to the default for the next size
    await box.fill(String(DEFAULTS[n]));
    await box.press('Enter');
  }
  assert.equal(positions, 4 * (TYPED.length + 6));
  console.log(`sweep-code: ${positions} size positions, ${chosen} choices checked`);
  // every expression was chosen at each end of every range
  assert.ok(chosen >= 8 * EXPRS.length);
  // the attribute follows the reader's changes
  assert.equal(await fig.getAttribute('sizes'), 'B=2,T=5,d=8,d_c=4');
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('the callout follows focus and hover, Escape closes it, a tap elsewhere too', async () => {
  const { page, problems } = await openPage(env.browser, env.url + 'web/index.html');
  await ready(page);
  const fig = page.locator(TAG);
  assert.equal((await shown(page)).calloutHidden, true, 'closed until the reader chooses');
  await fig.locator('.expr').nth(2).focus();
  let v = await shown(page);
  assert.equal(v.calloutHidden, false);
  assert.equal(v.callout, '[B, T, 1] → [2, 5, 1]');
  await page.keyboard.press('Tab');
  v = await shown(page);
  assert.equal(v.focused, 'ln-var');
  assert.equal(v.callout, '[B, T, 1] → [2, 5, 1]');
  await page.keyboard.press('End');
  v = await shown(page);
  assert.equal(v.callout, '[B, T, d] → [2, 5, 8]');
  await page.keyboard.press('Escape');
  assert.equal((await shown(page)).calloutHidden, true, 'Escape closes');
  assert.equal((await getState(page)).selected, 'ada-out', 'Escape does not change the choice');
  await page.keyboard.press('ArrowUp');
  assert.equal((await shown(page)).callout, '[B, T, 1] → [2, 5, 1]', 'reopens on the next move');
  await fig.locator('.expr').nth(8).hover();
  v = await shown(page);
  assert.deepEqual(v.active, ['ada-scale']);
  assert.equal(v.callout, '[B, 1, d] → [2, 1, 8]');
  await page.locator('h1').first().click();
  assert.equal((await shown(page)).calloutHidden, true, 'focus leaving the code closes it');
  assert.deepEqual(problems, []);
  await page.context().close();
});

// Every attribute value in the shadow DOM, and inline styles: no NaN anywhere.
const noNaN = (page) =>
  page.evaluate((t) => {
    const bad = [];
    for (const n of document.querySelector(t).shadowRoot.querySelectorAll('*')) {
      for (const a of n.attributes)
        if (/NaN|undefined|Infinity/.test(a.value)) bad.push(`${n.localName}[${a.name}=${a.value}]`);
    }
    return bad;
  }, TAG);

test('bad sizes and choices: a localized message, the last good state kept, no NaN, no console error', async () => {
  const { page, problems } = await openPage(env.browser, env.url + 'web/index.html');
  await ready(page);
  const fig = page.locator(TAG);
  const set = (name, value) =>
    fig.evaluate((f, [n, v]) => (v === null ? f.removeAttribute(n) : f.setAttribute(n, v)), [name, value]);
  await set('sizes', 'B=3,T=4,d=6,d_c=2');
  const good = await getState(page);
  assert.deepEqual(good.sizes, { B: 3, T: 4, d: 6, d_c: 2 });
  assert.deepEqual(good.expressions.find((e) => e.id === 'l2-norm').shape, [3, 4, 1]);
  const same = (s) => {
    assert.deepEqual(s.sizes, good.sizes);
    assert.deepEqual(
      s.expressions.map((e) => e.shape),
      good.expressions.map((e) => e.shape),
    );
    assert.equal(s.selected, good.selected);
  };
  const cases = [
    [
      'sizes',
      'B=0',
      /^B must be a whole number from 1 to 4096 \(got "0"\)\.$/,
      /^B 必须是 1 到 4096 的整数（收到的是“0”）。$/,
    ],
    ['sizes', 'T=-3', /^T must be a whole number from 1 to 4096/, /^T 必须是 1 到 4096 的整数/],
    ['sizes', 'd=1e9', /^d must be a whole number from 1 to 4096 \(got "1e9"\)/, /^d 必须是/],
    ['sizes', 'd=2.5', /^d must be a whole number/, /^d 必须是/],
    ['sizes', 'd_c=4097', /^d_c must be a whole number/, /^d_c 必须是/],
    ['sizes', 'x=3', /^sizes must look like "B=2,T=5,d=8,d_c=4"/, /^sizes 的格式应为/],
    ['sizes', 'garbage', /^sizes must look like/, /^sizes 的格式应为/],
    ['sizes', '', /^sizes must look like/, /^sizes 的格式应为/],
    ['sizes', 'B=2,'.repeat(5000), /^sizes must look like/, /^sizes 的格式应为/],
    ['d', '0', /^d must be a whole number from 1 to 4096 \(got "0"\)/, /^d 必须是/],
    ['b', '-1', /^B must be a whole number/, /^B 必须是/],
    ['t', 'abc', /^T must be a whole number/, /^T 必须是/],
    ['d-c', '1.5', /^d_c must be a whole number/, /^d_c 必须是/],
    ['d', '99999999999999999999', /^d must be a whole number/, /^d 必须是/],
    [
      'selected',
      'nope',
      /^selected must name one of the highlighted expressions: l2-norm, /,
      /^selected 必须是某个高亮表达式的名字/,
    ],
  ];
  for (const [attr, value, en, zh] of cases) {
    const before = { sizes: 'B=3,T=4,d=6,d_c=2', b: '3', t: '4', d: '6', 'd-c': '2', selected: 'l2-norm' }[attr];
    await set(attr, value);
    let v = await shown(page);
    assert.match(v.error, en, `${attr}="${value.slice(0, 20)}"`);
    let s = await getState(page);
    assert.ok(s.error, 'the error is in state');
    same(s);
    assert.deepEqual(await noNaN(page), []);
    await fig.evaluate((f) => f.setAttribute('lang', 'zh'));
    v = await shown(page);
    assert.match(v.error, zh, `zh ${attr}="${value.slice(0, 20)}"`);
    await fig.evaluate((f) => f.removeAttribute('lang'));
    await set(attr, before);
    v = await shown(page);
    assert.equal(v.error, '', `${attr} restored`);
    s = await getState(page);
    assert.equal(s.error, null);
    same(s);
  }

  // Typed into a number box: the same checks; the other sizes stay usable afterwards.
  const box = fig.getByRole('spinbutton', { name: 'size T', exact: true });
  for (const value of ['0', '-2', '5000', '2.5', '']) {
    await box.fill(value);
    await box.press('Enter');
    const v = await shown(page);
    assert.match(v.error, /^T must be a whole number from 1 to 4096/, `typed "${value}"`);
    same(await getState(page));
    assert.deepEqual(await noNaN(page), []);
  }
  await box.fill('7');
  await box.press('Enter');
  let s = await getState(page);
  assert.equal(s.error, null);
  assert.deepEqual(s.expressions.find((e) => e.id === 'ln-hat').shape, [3, 7, 6]);

  // A core error keeps the last good state and reads through the catalog (en, then zh).
  await fig.evaluate((f) => {
    f.__describe = f._core.describe;
    f._core.describe = () => {
      throw Object.assign(new Error('simulated failure'), {});
    };
  });
  await set('sizes', 'B=5');
  let v = await shown(page);
  assert.equal(v.error, 'The core could not compute this: simulated failure');
  s = await getState(page);
  assert.deepEqual(s.sizes.B, 3, 'last good sizes kept');
  await fig.evaluate((f) => f.setAttribute('lang', 'zh'));
  v = await shown(page);
  assert.match(v.error, /simulated failure/);
  assert.notEqual(v.error, 'The core could not compute this: simulated failure', 'localized');
  await fig.evaluate((f) => {
    f.removeAttribute('lang');
    f._core.describe = f.__describe;
    delete f.__describe;
  });
  await set('sizes', 'B=6');
  s = await getState(page);
  assert.equal(s.error, null);
  assert.deepEqual(s.expressions.find((e) => e.id === 'ada-scale').shape, [6, 1, 6]);
  assert.deepEqual(await noNaN(page), []);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('360 px: text >= 10 px, the code scrolls inside its block with a hint, the callout sits at the tapped expression', async () => {
  for (const lang of ['en', 'zh']) {
    const { page, problems } = await openPage(env.browser, env.url + 'web/index.html', {
      viewport: { width: 360, height: 740 },
      hasTouch: true,
      isMobile: true,
    });
    if (lang === 'zh') await page.click('[data-set-lang="zh"]');
    await ready(page);
    const fig = page.locator(TAG);
    const m = await fig.evaluate((f) => {
      const r = f.shadowRoot;
      const small = [];
      for (const n of r.querySelectorAll('*')) {
        const hasText = [...n.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
        if (!hasText || !n.getClientRects().length) continue;
        const size = parseFloat(getComputedStyle(n).fontSize);
        if (size < 10) small.push(`${n.localName}.${n.className}: ${size}px`);
      }
      const pre = r.querySelector('pre');
      const hint = r.querySelector('.scroll-hint');
      const fb = f.getBoundingClientRect(),
        pb = pre.getBoundingClientRect();
      return {
        small,
        figLeft: fb.left,
        figRight: fb.right,
        pageWidth: document.documentElement.scrollWidth,
        preLeft: pb.left,
        preRight: pb.right,
        preScroll: pre.scrollWidth,
        preClient: pre.clientWidth,
        hint: hint.getClientRects().length
          ? { text: hint.textContent, size: parseFloat(getComputedStyle(hint).fontSize) }
          : null,
        box: r.querySelector('.code-box').className,
        controls: [...r.querySelectorAll('input')].map((i) => i.getBoundingClientRect().height),
        controlsRight: Math.max(...[...r.querySelectorAll('input, label')].map((i) => i.getBoundingClientRect().right)),
      };
    });
    assert.deepEqual(m.small, [], `${lang}: text under 10 px`);
    assert.ok(m.figLeft >= 0 && m.figRight <= 360, `${lang}: figure within the viewport (${m.figLeft}..${m.figRight})`);
    assert.ok(m.pageWidth <= 360, `${lang}: page does not scroll sideways (${m.pageWidth})`);
    assert.ok(m.preLeft >= m.figLeft && m.preRight <= m.figRight, `${lang}: code block inside the figure`);
    assert.ok(m.preScroll > m.preClient + 50, `${lang}: the code is wider than its block and scrolls inside it`);
    assert.ok(m.hint && m.hint.size >= 10, `${lang}: scroll hint shown`);
    assert.match(m.hint.text, lang === 'en' ? /scrolls sideways/ : /左右滚动/);
    assert.match(m.box, /more-right/, 'a fade on the side with more code');
    assert.doesNotMatch(m.box, /more-left/);
    assert.ok(
      m.controls.every((h) => h >= 32),
      `${lang}: controls >= 32 px tall: ${m.controls}`,
    );
    assert.ok(m.controlsRight <= m.figRight, `${lang}: controls within the figure`);

    // Tap each expression: the callout shows its shape next to it, inside the screen.
    const nodes = fig.locator('.expr');
    for (let i = 0; i < EXPRS.length; i++) {
      await nodes.nth(i).tap();
      const [s, v] = await Promise.all([getState(page), shown(page)]);
      const id = EXPRS[i][0];
      assert.equal(s.selected, id);
      const e = s.expressions.find((x) => x.id === id);
      assert.equal(v.calloutHidden, false, `${lang} ${id}: callout open`);
      assert.equal(v.callout, `${bracket(symbolic(id))} → ${bracket(numeric(id, { B: 2, T: 5, d: 8, d_c: 4 }))}`);
      assert.equal(v.callout, `${bracket(e.symbolic)} → ${bracket(e.shape)}`);
      const c = v.calloutRect;
      assert.ok(
        c.left >= m.preLeft - 1 && c.right <= m.preRight + 1,
        `${lang} ${id}: callout within the code block (${c.left}..${c.right})`,
      );
      assert.ok(c.top >= 0 && c.bottom <= 740, `${lang} ${id}: callout on screen (${c.top}..${c.bottom})`);
      assert.ok(!overlaps(c, v.bandRect), `${lang} ${id}: the callout does not cover the expression`);
      assert.ok(
        v.activeRect.bottom - v.activeRect.top >= 22,
        `${lang} ${id}: a finger-sized target (${v.activeRect.bottom - v.activeRect.top} px)`,
      );
      if (i === 4) await fig.screenshot({ path: join(shotsDir, `code-shapes-360-${lang}.png`) });
    }
    // Scrolled to its end, the fade moves to the other side.
    await fig.evaluate((f) => {
      const p = f.shadowRoot.querySelector('pre');
      p.scrollLeft = p.scrollWidth;
    });
    await page.waitForFunction(
      (t) => /more-left/.test(document.querySelector(t).shadowRoot.querySelector('.code-box').className),
      TAG,
    );
    const cls = await fig.evaluate((f) => f.shadowRoot.querySelector('.code-box').className);
    assert.doesNotMatch(cls, /more-right/);
    assert.deepEqual(problems, []);
    await page.context().close();
  }
});
