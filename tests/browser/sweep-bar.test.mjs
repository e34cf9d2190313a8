// <nl-bar-compare> swept through every control: the scale and offset sliders
// and their boxes, the eps box, every gray input bar's keyboard
// handle and the LayerNorm step button, 6 to 12 positions each (the ends, zero,
// the signs, the thresholds), in English and Chinese. After every position each sentence the figure writes (the
// description, the step caption, the table, the handles' labels) is checked
// against the `state` it came from, and the state against hand-derived
// formulas. Then bad attributes (a core error, an over-long list, a bad
// number) and a 360 px phone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, setAttributes, setup, shotsDir } from './helpers.mjs';

// "Unchanged" in the figure's text means: the output lies within this Euclidean
// distance of the original vector's output (stated in the figure's code and text).
const TOL = 1e-4;
const OUTPUTS = ['l2', 'layer_norm', 'rms_norm'];
const PANELS = ['input', ...OUTPUTS];
const NAMES = { l2: 'L2', layer_norm: 'LayerNorm', rms_norm: 'RMSNorm' };
// The rule for printed numbers, written here: 4 significant digits, no grouping, −0 as 0.
const formats = {
  en: new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4, useGrouping: false }),
  zh: new Intl.NumberFormat('zh-CN', { maximumSignificantDigits: 4, useGrouping: false }),
};

// Distances, the threshold and ε: 3 significant digits, and below 0.001 a power of ten written as a reader
// writes it (5.96 × 10⁻⁸, 10⁻⁴), never a run of zeros.
const formats3 = {
  en: new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3, useGrouping: false }),
  zh: new Intl.NumberFormat('zh-CN', { maximumSignificantDigits: 3, useGrouping: false }),
};
const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
function small(v, lang) {
  if (v === 0 || Math.abs(v) >= 1e-3) return formats3[lang].format(v === 0 ? 0 : v);
  const [m, e] = v.toExponential(2).split('e');
  const mantissa = String(Number(m)); // 1.00 → 1
  const power = `10${[...String(Number(e))].map((c) => SUP[c]).join('')}`;
  return mantissa === '1' ? power : `${mantissa} × ${power}`;
}

let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
  await page.locator('nl-bar-compare').scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current);
});
after(() => env.close());

const fig = () => page.locator('nl-bar-compare');

/** Everything the figure shows, read from the page. */
const snapshot = () =>
  page.evaluate(() => {
    const f = document.querySelector('nl-bar-compare');
    const root = f.shadowRoot;
    const s = f.state;
    return {
      state: JSON.parse(JSON.stringify(s)),
      lang: f.lang,
      desc: root.querySelector('[part~="description"]').textContent,
      error: root.querySelector('[part~="error"]').textContent,
      caption: root.querySelector('.steps-caption').textContent,
      cells: [...root.querySelectorAll('td.value')].map((td) => ({
        panel: td.dataset.panel,
        text: td.firstChild.textContent,
        ref: td.querySelector('.ref').textContent,
      })),
      changes: [...root.querySelectorAll('td.change')].map((td) => ({ panel: td.dataset.panel, text: td.textContent })),
      handles: [...root.querySelectorAll('.handle')].map((h) => ({
        label: h.getAttribute('aria-label'),
        now: h.getAttribute('aria-valuenow'),
      })),
      bars: [...root.querySelectorAll('g.panel')].map((g) => [
        g.dataset.panel,
        g.querySelectorAll('rect.bar.current').length,
      ]),
      // the drawn bar values (kept on each rect) must be the state's
      drawn: Object.fromEntries(
        [...root.querySelectorAll('g.panel')].map((g) => [
          g.dataset.panel,
          [...g.querySelectorAll('rect.bar.current')].map((r) => Number(r.dataset.value)),
        ]),
      ),
      bad: [...root.querySelectorAll('svg, svg *')].flatMap((e) =>
        [...e.attributes]
          .filter((a) => /NaN|Infinity|undefined/.test(a.value))
          .map((a) => `${e.tagName} ${a.name}=${a.value}`),
      ),
    };
  });

const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b} (tol ${tol})`);
const sum = (a) => a.reduce((x, y) => x + y, 0);

/** The claims of the description: {unchanged: [names], changed: [names]}. */
function claims(desc, lang) {
  const body =
    lang === 'en'
      ? desc.slice(desc.lastIndexOf('): ') + 3).replace(/\.$/, '')
      : desc.slice(desc.lastIndexOf('）：') + 2).replace(/。$/, '');
  const out = { unchanged: [], changed: [] };
  for (const clause of body.split(lang === 'en' ? '; ' : '；')) {
    const m = lang === 'en' ? clause.match(/^(.*) (unchanged|changed)$/) : clause.match(/^(.*) (不变|改变)$/);
    assert.ok(m, `clause "${clause}" in "${desc}"`);
    const kind = m[2] === 'unchanged' || m[2] === '不变' ? 'unchanged' : 'changed';
    out[kind].push(...m[1].split(lang === 'en' ? /, | and / : /、| 与 /));
  }
  return out;
}

let checks = 0;
/** Check every sentence against the state it came from, and the state against hand-derived formulas. */
function check(snap, where) {
  checks++;
  const { state: s, lang } = snap;
  const f = (v) => formats[lang].format(v === 0 ? 0 : v);
  const g = (v) => small(v, lang);
  const list = (a) => a.map(f).join(', ');
  assert.deepEqual(snap.bad, [], `${where}: no NaN/Infinity in the SVG`);
  const d = s.vector.length;
  assert.deepEqual(
    snap.bars,
    PANELS.map((p) => [p, d]),
    `${where}: one bar per coordinate in every panel`,
  );
  for (const p of PANELS) assert.deepEqual(snap.drawn[p], s.current[p], `${where}: drawn ${p} = state`);
  if (s.error) {
    assert.equal(snap.desc, '', `${where}: no description under an error`);
    assert.ok(snap.error.length > 0);
    return;
  }
  assert.equal(snap.error, '', where);

  // ---- the state against formulas derived by hand ----
  const scaleOf = (a) => 1e-6 * (1 + Math.max(...a.map(Math.abs)));
  s.vector.forEach((v, i) =>
    close(
      s.input[i],
      s.scale * v + s.offset,
      1e-6 * (1 + Math.abs(s.scale * v) + Math.abs(s.offset)),
      `${where} input[${i}]`,
    ),
  );
  const x = s.input;
  const mean = sum(x) / d;
  close(s.steps.mean, mean, scaleOf(x), `${where} mean`);
  s.steps.centered.forEach((c, i) => close(c, x[i] - mean, 4 * scaleOf(x), `${where} centered[${i}]`));
  const variance = sum(s.steps.centered.map((c) => c * c)) / d;
  close(s.steps.variance, variance, 1e-5 * (variance + 1e-6), `${where} variance`);
  const sd = Math.sqrt(s.steps.variance + s.eps);
  if (sd > 0)
    s.steps.output.forEach((y, i) => close(y, s.steps.centered[i] / sd, 1e-4 * (1 + Math.abs(y)), `${where} LN[${i}]`));
  assert.deepEqual(s.steps.output, s.current.layer_norm, `${where}: step 2 is LayerNorm's output`);
  const ms = sum(x.map((v) => v * v)) / d;
  if (ms + s.eps > 0)
    x.forEach((v, i) => close(s.current.rms_norm[i], v / Math.sqrt(ms + s.eps), 1e-4, `${where} RMS[${i}]`));
  const norm = Math.sqrt(sum(x.map((v) => v * v)));
  if (Math.max(norm, s.eps) > 0)
    x.forEach((v, i) => close(s.current.l2[i], v / Math.max(norm, s.eps), 1e-5, `${where} L2[${i}]`));

  // ---- the description ----
  const intro =
    lang === 'en'
      ? `Input (${list(s.input)}) = ${f(s.scale)} × (${list(s.vector)}) + ${f(s.offset)}.`
      : `输入 (${list(s.input)}) = ${f(s.scale)} × (${list(s.vector)}) + ${f(s.offset)}。`;
  assert.ok(snap.desc.startsWith(intro), `${where}: "${snap.desc}" starts with "${intro}"`);
  assert.ok(
    snap.desc.includes(`${lang === 'en' ? 'within a distance of ' : '距离不超过 '}10⁻⁴`),
    `${where}: the tolerance 10⁻⁴ is stated`,
  );
  const said = claims(snap.desc, lang);
  for (const p of OUTPUTS) {
    const dist = Math.sqrt(sum(s.current[p].map((v, i) => (v - s.reference[p][i]) ** 2)));
    close(s.change[p], dist, 1e-6 + 1e-4 * dist, `${where} distance ${p}`);
    const inSame = said.unchanged.includes(NAMES[p]),
      inMoved = said.changed.includes(NAMES[p]);
    assert.ok(inSame !== inMoved, `${where}: ${p} named exactly once (${snap.desc})`);
    // away from the threshold the verdict must follow the distance; at it, either is honest
    if (dist <= TOL * 0.999)
      assert.ok(inSame, `${where}: ${p} moved ${dist} ≤ ${TOL} but is called changed: ${snap.desc}`);
    if (dist >= TOL * 1.001)
      assert.ok(inMoved, `${where}: ${p} moved ${dist} > ${TOL} but is called unchanged: ${snap.desc}`);
  }

  // ---- the table: the same numbers with the same digits ----
  assert.equal(snap.cells.length, d * PANELS.length);
  snap.cells.forEach((c, k) => {
    const i = Math.floor(k / PANELS.length),
      p = PANELS[k % PANELS.length];
    assert.equal(c.panel, p);
    assert.equal(c.text, f(s.current[p][i]), `${where}: table ${p}[${i}]`);
    assert.equal(c.ref, `(${f(s.reference[p][i])})`, `${where}: table reference ${p}[${i}]`);
  });
  assert.deepEqual(
    snap.changes,
    OUTPUTS.map((p) => ({ panel: p, text: g(s.change[p]) })),
    `${where}: distances`,
  );

  // ---- the handles: the original vector's coordinates ----
  snap.handles.forEach((h, i) => {
    assert.ok(
      h.label.endsWith(`${lang === 'en' ? ': ' : '：'}${f(s.vector[i])}`),
      `${where}: handle ${i} "${h.label}"`,
    );
    assert.equal(Number(h.now), s.vector[i]);
  });

  // ---- the LayerNorm step caption ----
  const st = s.steps;
  if (s.step === 0) {
    assert.ok(
      snap.caption.includes(`(${list(s.input)})`) && snap.caption.includes(f(st.mean)),
      `${where}: ${snap.caption}`,
    );
    assert.ok(!/Step|步/.test(snap.caption), `${where}: step 0 names no step`);
  } else if (s.step === 1) {
    assert.ok(
      snap.caption.startsWith(lang === 'en' ? 'Step 1 of 2: subtract the mean ' : '第 1 步'),
      `${where}: ${snap.caption}`,
    );
    assert.ok(
      snap.caption.includes(f(st.mean)) && snap.caption.includes(`(${list(st.centered)})`),
      `${where}: ${snap.caption}`,
    );
  } else {
    assert.ok(
      snap.caption.startsWith(lang === 'en' ? 'Step 2 of 2: divide by ' : '第 2 步'),
      `${where}: ${snap.caption}`,
    );
    for (const part of [`σ² = ${f(st.variance)}`, `ε = ${g(s.eps)}`, `(${list(st.output)})`])
      assert.ok(snap.caption.includes(part), `${where}: "${part}" in ${snap.caption}`);
  }
}

const linspace = (a, b, n) => Array.from({ length: n }, (_, k) => Number((a + ((b - a) * k) / (n - 1)).toFixed(1)));

async function sweepSlider(name, values) {
  const slider = fig().getByRole('slider', { name, exact: true });
  for (const v of values) {
    await slider.fill(String(v));
    const snap = await snapshot();
    close(
      snap.state[name === 'Common scale' || name === '共同缩放' ? 'scale' : 'offset'],
      v,
      1e-9,
      `${name} slider at ${v}`,
    );
    check(snap, `${name} slider = ${v}`);
  }
}

async function sweepBox(name, key, values) {
  const box = fig().getByRole('spinbutton', { name, exact: true });
  for (const v of values) {
    await box.fill(String(v));
    await box.press('Enter');
    const snap = await snapshot();
    close(snap.state[key], v, 1e-12, `${name} box at ${v}`);
    check(snap, `${name} box = ${v}`);
  }
}

const setAttrs = (attrs) => setAttributes(page, 'nl-bar-compare', attrs);

test('sweep in English: scale and offset sliders and boxes, eps, every input bar, the step button', async () => {
  await setAttrs({ vector: '1,2,3', scale: '1', offset: '0', eps: '0.00001', step: '0' });
  // Sampled: both ends, zero (every input equal: LayerNorm's zero spread), the signs and both sides of 1 and
  // of the box's slider range; the positions between repeat the same code path (the full sweeps were ~2x this).
  await sweepSlider('Common scale', [-20, -7.7, -1, -0.1, 0, 0.1, 0.5, 1, 3.7, 12.4, 20]);
  await sweepBox('Common scale', 'scale', [-1000, -21, -1, -0.01, 0, 0.001, 0.25, 9.99, 21, 1000, 1]);
  await setAttrs({ scale: '1' });
  await sweepSlider('Common offset', linspace(-200, 200, 9).map(Math.round)); // the slider's step is 1
  await sweepBox('Common offset', 'offset', [-10000, -101, -1, -0.5, 0, 0.5, 2, 201, 10000, 0]);
  // eps at scale 10: L2 and RMSNorm are scale-free only while eps is small next to the vector's size
  // (around 1e-4, the "unchanged" threshold, the values stay dense)
  await setAttrs({ scale: '10' });
  await sweepBox('ε', 'eps', [0, 1e-12, 1e-6, 1e-5, 3e-5, 1e-4, 1e-3, 0.05, 0.6667, 10, 1000, 1e-5]);
  // every gray input bar, by keyboard, at scale 2 and offset 5
  await setAttrs({ scale: '2', offset: '5' });
  // each key twice or more, the coordinate crossing 0 on the way (x1: 1 → 1.3 → -1.7 → -1.9 → 0.1 …)
  const keys = [
    ...Array(3).fill('ArrowUp'),
    ...Array(3).fill('PageDown'),
    ...Array(2).fill('ArrowDown'),
    'PageUp',
    'PageUp',
    'ArrowRight',
    'ArrowLeft',
  ];
  for (const i of [1, 2, 3]) {
    const handle = fig().getByRole('slider', { name: new RegExp(`coordinate x${i}:`) });
    await handle.focus();
    let expected = (await snapshot()).state.vector[i - 1];
    for (const key of keys) {
      await page.keyboard.press(key);
      expected = Number(
        (
          expected + { ArrowUp: 0.1, ArrowRight: 0.1, ArrowDown: -0.1, ArrowLeft: -0.1, PageUp: 1, PageDown: -1 }[key]
        ).toFixed(6),
      );
      const snap = await snapshot();
      close(snap.state.vector[i - 1], expected, 1e-9, `x${i} after ${key}`);
      check(snap, `x${i} ${key} → ${expected}`);
    }
  }
  // the step button, 7 presses: 0 → 1 → 2 → 0 … (each step shown twice or more, the wrap-around twice)
  const next = fig().locator('button.next');
  let step = (await snapshot()).state.step;
  for (let k = 0; k < 7; k++) {
    await next.click();
    step = (step + 1) % 3;
    const snap = await snapshot();
    assert.equal(snap.state.step, step);
    check(snap, `step ${step}`);
  }
  console.log(`sweep-bar (en): ${checks} positions checked`);
  assert.deepEqual(problems, []);
});

test('sweep in Chinese: the sliders, eps and the step button, with the Chinese sentences', async () => {
  await page.click('[data-set-lang="zh"]');
  await setAttrs({ vector: '3,-1,0.5,2', scale: '1', offset: '0', eps: '0.00001', step: '1' });
  await sweepSlider('共同缩放', [-20, -3, -0.4, 0, 0.2, 1, 1.3, 8.8, 20]);
  await setAttrs({ scale: '1' });
  await sweepSlider('共同偏移', linspace(-200, 200, 9)); // on the slider's step of 1
  await setAttrs({ offset: '0', scale: '10' });
  await sweepBox('ε', 'eps', [0, 1e-9, 1e-5, 1e-4, 1e-3, 0.1, 2, 64, 1000]);
  const next = fig().locator('button.next');
  for (let k = 0; k < 6; k++) {
    await next.click();
    check(await snapshot(), `zh step press ${k}`);
  }
  assert.match((await snapshot()).desc, /^输入 \(/);
  await page.click('[data-set-lang="en"]');
  assert.deepEqual(problems, []);
});

test('a core error keeps the last good state and drawing with a localized message; no NaN, no console error', async () => {
  await setAttrs({ vector: '1,2,3', scale: '1', offset: '0', eps: '0.00001', step: '2' });
  await setAttrs({ eps: '0' }); // fine for (1, 2, 3)
  const good = await snapshot();
  check(good, 'eps 0');
  await setAttrs({ vector: '5,5,5,5' }); // zero spread with eps 0: LayerNorm's denominator is 0
  let snap = await snapshot();
  // the core's code zero_spread, told in the reader's words (en catalog: error_zero_spread)
  assert.match(snap.error, /^layer_norm: all values of a group are equal and eps is 0, so the division is by zero\./);
  assert.deepEqual(snap.state.vector, [1, 2, 3], 'the last good vector');
  assert.deepEqual(snap.state.current, good.state.current, 'the last good results');
  assert.equal(snap.state.eps, 0);
  check(snap, 'core error'); // 3 bars per panel, each the state's value, no NaN
  assert.equal(await page.evaluate(() => document.querySelector('nl-bar-compare').getAttribute('vector')), '5,5,5,5');
  // the same in Chinese
  await page.evaluate(() => document.querySelector('nl-bar-compare').setAttribute('lang', 'zh'));
  snap = await snapshot();
  assert.match(snap.error, /^layer_norm：某一组的值全部相等且 eps 为 0，分母为零。/);
  check(snap, 'core error, zh');
  await page.evaluate(() => document.querySelector('nl-bar-compare').removeAttribute('lang'));
  // recovery: a positive eps computes the new vector
  await setAttrs({ eps: '0.00001' });
  snap = await snapshot();
  assert.equal(snap.error, '');
  assert.deepEqual(snap.state.vector, [5, 5, 5, 5]);
  check(snap, 'recovered');
  assert.deepEqual(problems, [], 'no console error');
});

test('an over-long vector is refused at once with the localized tooLong message; 12 numbers are fine', async () => {
  await setAttrs({ vector: '1,2,3', eps: '0.00001' });
  const before = (await snapshot()).state;
  for (const [lang, pattern] of [
    ['en', /^vector takes at most 12 numbers in this figure\.$/],
    ['zh', /^此图中 vector 最多接受 12 个数。$/],
  ]) {
    await page.evaluate((l) => document.querySelector('nl-bar-compare').setAttribute('lang', l), lang);
    for (const n of [13, 100, 1_000_000]) {
      const ms = await page.evaluate((count) => {
        const text = Array.from({ length: count }, (_, i) => String(i % 7)).join(',');
        const t0 = performance.now();
        document.querySelector('nl-bar-compare').setAttribute('vector', text);
        return performance.now() - t0;
      }, n);
      const snap = await snapshot();
      assert.match(snap.error, pattern, `${n} numbers (${lang})`);
      assert.ok(ms < 150, `refused in ${ms.toFixed(1)} ms`);
      assert.deepEqual(snap.state.vector, before.vector, 'the last good state');
      check(snap, `${n} numbers`);
    }
  }
  await page.evaluate(() => document.querySelector('nl-bar-compare').removeAttribute('lang'));
  await setAttrs({ vector: '1,2,3,4,5,6,7,8,9,10,11,12' });
  const snap = await snapshot();
  assert.equal(snap.error, '');
  assert.equal(snap.state.vector.length, 12);
  check(snap, '12 numbers');
  // a bad number: localized, range stated, state kept
  await setAttrs({ scale: 'abc' });
  const bad = await snapshot();
  assert.match(bad.error, /^scale must be a number from -1000 to 1000 \(got "abc"\)\.$/);
  assert.equal(bad.state.scale, 1);
  check(bad, 'scale abc');
  await setAttrs({ scale: '1', vector: '1,2,3' });
  assert.equal((await snapshot()).error, '');
  assert.deepEqual(problems, []);
});

test('a 360 px phone: every label at least 10 px, nothing wider than the figure, controls 32 px tall (en, zh; light, dark)', async () => {
  for (const [lang, colorScheme] of [
    ['en', 'light'],
    ['zh', 'dark'],
  ]) {
    const context = await env.browser.newContext({ viewport: { width: 360, height: 780 }, colorScheme });
    const p = await context.newPage();
    const errors = [];
    p.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    p.on('pageerror', (e) => errors.push(e.message));
    await p.goto(env.url + 'web/index.html');
    if (lang === 'zh') await p.click('[data-set-lang="zh"]');
    await p.locator('nl-bar-compare').scrollIntoViewIfNeeded();
    await p.waitForFunction(() => document.querySelector('nl-bar-compare')?.state?.current);
    const cases = [
      { vector: '1,2,3', scale: '1', offset: '0', step: '0' },
      { vector: '1,2,3', scale: '1', offset: '100', step: '1' },
      { vector: '1,-2,3,4.5,5,-6,7,8,9,10,11,12', scale: '-1000', offset: '10000', step: '2' },
      { vector: '0.001,0.002', scale: '0.001', offset: '-10000', step: '1' },
    ];
    for (const c of cases) {
      await setAttributes(p, 'nl-bar-compare', c);
      await p.waitForTimeout(50);
      const m = await p.evaluate(() => {
        const f = document.querySelector('nl-bar-compare');
        const root = f.shadowRoot;
        const wrap = root.querySelector('[part~="figure"]').getBoundingClientRect();
        const small = [...root.querySelectorAll('text')]
          .filter((t) => t.textContent && t.getBBox().width > 0)
          .map((t) => [t.textContent, t.getScreenCTM().a * parseFloat(getComputedStyle(t).fontSize)])
          .filter(([, px]) => px < 10);
        const html = [...root.querySelectorAll('p, span, th, td, caption, label, button')]
          .filter((e) => e.textContent.trim())
          .map((e) => [e.textContent.slice(0, 20), parseFloat(getComputedStyle(e).fontSize)])
          .filter(([, px]) => px < 10);
        const wide = [...root.querySelectorAll('*')]
          .map((e) => [e, e.getBoundingClientRect()])
          .filter(([, r]) => r.width > 0 && (r.right > wrap.right + 0.5 || r.left < wrap.left - 0.5))
          .map(([e, r]) => `${e.tagName}.${e.getAttribute('class')} ${r.left.toFixed(1)}–${r.right.toFixed(1)}`);
        const scrollers = [...root.querySelectorAll('.table-box')].filter(
          (b) => b.scrollWidth > b.clientWidth + 1,
        ).length;
        const short = [...root.querySelectorAll('button, input, select')]
          .filter((e) => e.getBoundingClientRect().height < 32)
          .map((e) => e.outerHTML.slice(0, 60));
        const handles = [...root.querySelectorAll('.handle .hit')].map((h) => h.getBoundingClientRect().height);
        return {
          small,
          html,
          wide,
          scrollers,
          short,
          handles,
          figure: f.getBoundingClientRect().right,
          doc: document.documentElement.scrollWidth,
        };
      });
      const where = `${lang} ${JSON.stringify(c)}`;
      assert.deepEqual(m.small, [], `${where}: SVG labels under 10 px`);
      assert.deepEqual(m.html, [], `${where}: HTML text under 10 px`);
      assert.deepEqual(m.wide, [], `${where}: elements wider than the figure`);
      assert.equal(m.scrollers, 0, `${where}: the table fits without scrolling`);
      assert.deepEqual(m.short, [], `${where}: controls under 32 px`);
      assert.ok(
        m.handles.every((h) => h >= 32),
        `${where}: handle hit areas ${m.handles}`,
      );
      assert.ok(m.figure <= 360 && m.doc <= 360, `${where}: figure right ${m.figure}, page width ${m.doc}`);
    }
    await setAttributes(p, 'nl-bar-compare', { vector: '1,2,3', scale: '1', offset: '100', step: '2' });
    await p.waitForTimeout(600);
    await p
      .locator('nl-bar-compare')
      .screenshot({ path: join(shotsDir, `bar-compare-360-${lang}-${colorScheme}.png`) });
    assert.deepEqual(errors, []);
    await context.close();
  }
});
