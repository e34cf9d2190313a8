// <nl-rms-decomposition> as a reader drives it: the shift slider by keyboard
// over its range (more than 20 positions) and the three presets; after each,
// the statistics, the angle θ = atan(σ / |μ|) and both outputs against float64
// oracles written here from the definitions, RMS² = σ² + μ² in the core's own
// numbers, LayerNorm's output the same at every shift, and every sentence
// against the state. Plus the article's worked example (θ at c = 0 and 100 by
// hand), the default state (θ open) and the one press to the collapsed one, the language switch, bad attributes and a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-rms-decomposition';
const fig = onArticlePage(TAG);

const snap = () => fig.snap();
const nf = (digits, lang = 'en') =>
  new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumSignificantDigits: digits });
// the three terms of the identity and cos θ: exactly five significant digits each, trailing zeros kept
const fix5 = (v) =>
  new Intl.NumberFormat('en-US', { minimumSignificantDigits: 5, maximumSignificantDigits: 5 }).format(v);
const f4 = (v) => nf(4).format(v);
const list = (vs) => `(${vs.map(f4).join(', ')})`;
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);
const DEG = 180 / Math.PI;

/** Oracles from the definitions, in float64. */
function oracle(x, c) {
  const v = x.map((a) => a + c),
    d = v.length;
  const mean = v.reduce((a, b) => a + b) / d;
  const variance = v.reduce((a, b) => a + (b - mean) ** 2, 0) / d;
  const ms = v.reduce((a, b) => a + b * b, 0) / d;
  const std = Math.sqrt(variance);
  return {
    shifted: v,
    mean,
    variance,
    std,
    ms,
    rms: Math.sqrt(ms),
    theta: Math.atan2(std, Math.abs(mean)) * DEG,
    cos: Math.abs(mean) / Math.sqrt(ms),
    ln: v.map((a) => (a - mean) / Math.sqrt(variance + 1e-5)),
    rn: v.map((a) => a / Math.sqrt(ms + 1e-6)),
  };
}

function check(sn, firstLn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], where);
  const o = oracle(s.x, s.shift);
  const big = Math.max(1, Math.abs(o.mean));
  s.shifted.forEach((v, i) => close(v, o.shifted[i], 1e-6 * big, `${where} x+c`));
  close(s.mean, o.mean, 1e-6 * big, `${where} mean`);
  close(s.absMean, Math.abs(o.mean), 1e-6 * big, `${where} |mean|`);
  close(s.variance, o.variance, 1e-4 * big * big * 1e-3 + 1e-6, `${where} variance`);
  close(s.meanSquare, o.ms, 1e-6 * o.ms, `${where} RMS²`);
  close(s.rms, o.rms, 1e-6 * o.rms, `${where} RMS`);
  close(s.meanSq, o.mean ** 2, 1e-6 * o.mean ** 2 + 1e-9, `${where} μ²`);
  close(s.meanSquare, s.variance + s.meanSq, 1e-6 * o.ms + 1e-6, `${where}: RMS² = σ² + μ² in the core's numbers`);
  close(s.theta, o.theta, 1e-4 * Math.max(1, o.theta), `${where} θ`);
  close(s.unit[0], o.cos, 1e-6, `${where} cos θ`);
  s.rmsNorm.forEach((v, i) => close(v, o.rn[i], 1e-5, `${where} RMSNorm`));
  s.layerNorm.forEach((v, i) => close(v, o.ln[i], 2e-4, `${where} LayerNorm`));
  if (firstLn)
    s.layerNorm.forEach((v, i) => close(v, firstLn[i], 2e-4, `${where}: LayerNorm is the same at every shift`));
  assert.ok(
    sn.svg.includes(`RMS² = σ² + μ²: ${fix5(s.meanSquare)} = ${fix5(s.variance)} + ${fix5(s.meanSq)}`),
    `${where}: the identity under the triangle, its three terms at one precision`,
  );
  assert.ok(sn.svg.includes(`θ = ${f4(s.theta)}°, cos θ = |μ| / RMS = ${fix5(s.unit[0])}`), `${where}: θ line`);
  assert.ok(
    sn.svg.includes(`μ = ${f4(s.mean)}`) &&
      sn.svg.includes(`|μ| = ${f4(s.absMean)}`) &&
      sn.svg.includes(`RMS = ${f4(s.rms)}`) &&
      sn.svg.includes(`σ = ${f4(s.std)}`),
    where,
  );
  assert.ok(sn.svg.includes(`x + c, c = ${f4(s.shift)}`), `${where}: the shift is c, never m`);
  assert.ok(!sn.svg.some((t) => /\bm\b/.test(t)) && !/\bm\b/.test(sn.desc), `${where}: no "m" left`);
  // each bar names its coordinate with a subscript, x₁ + c … xₙ + c (not "x1", read as a variable's name)
  const subs = '₀₁₂₃₄₅₆₇₈₉';
  for (let i = 1; i <= s.x.length; i++) {
    const name = `x${[...String(i)].map((c) => subs[c]).join('')} + c`;
    assert.ok(sn.svg.includes(name), `${where}: bar label "${name}"`);
  }
  assert.ok(!sn.svg.some((t) => /x\d/.test(t)), `${where}: no "x1"-style label`);
  assert.ok(
    sn.desc.startsWith(
      `x + c = ${list(s.shifted)} has mean μ = ${f4(s.mean)}, standard deviation σ = ${f4(s.std)} and RMS ${f4(s.rms)}; ` +
        `RMS² = σ² + μ² reads ${fix5(s.meanSquare)} = ${fix5(s.variance)} + ${fix5(s.meanSq)}. ` +
        `The hypotenuse RMS makes the angle θ = atan(σ / |μ|) = ${f4(s.theta)}° with the leg |μ|, so |μ| is cos θ = ${fix5(s.unit[0])} of the RMS.`,
    ),
    `${where}: ${sn.desc}`,
  );
  // the triangle of x itself (c = 0), the dashed reference, and the sentence on what the shift did
  const o0 = oracle(s.x, 0);
  close(s.base.theta, o0.theta, 1e-4 * Math.max(1, o0.theta), `${where} θ of x itself`);
  close(s.base.absMean, Math.abs(o0.mean), 1e-6 * Math.max(1, Math.abs(o0.mean)), `${where} |μ| of x itself`);
  if (s.shift !== 0) {
    const verb = f4(s.theta) === f4(o0.theta) ? null : s.theta < o0.theta ? 'closed' : 'opened';
    assert.ok(sn.svg.includes(`c = 0: θ = ${f4(s.base.theta)}°`), `${where}: the dashed triangle is labelled`);
    assert.ok(
      sn.desc.includes(
        verb
          ? `Adding c = ${f4(s.shift)} to every coordinate left σ at ${f4(s.std)} but took |μ| from ${f4(s.base.absMean)} to ${f4(s.absMean)}, so θ ${verb} from ${f4(s.base.theta)}° (the dashed triangle, c = 0) to ${f4(s.theta)}°.`
          : `θ is ${f4(s.theta)}°, as at c = 0 (the dashed triangle).`,
      ),
      `${where}: ${sn.desc}`,
    );
  } else {
    assert.ok(!sn.svg.some((t) => t.startsWith('c = 0:')), `${where}: no reference at c = 0`);
    assert.ok(!/Adding c/.test(sn.desc), where);
    assert.equal(
      sn.desc.endsWith('Slide c up, or press “Add 100: (101, 102, 103)”, and watch θ close: σ stays, |μ| grows.'),
      s.mean >= 0,
      `${where}: the invitation only where a larger c closes θ`,
    );
  }
  if (f4(s.mean) === '0')
    assert.ok(
      sn.desc.includes(
        `With mean 0 the RMS is all spread, so RMSNorm and LayerNorm agree: ${list(s.layerNorm)} and ${list(s.rmsNorm)}.`,
      ),
      where,
    );
  else if (o.theta < 45) {
    assert.match(sn.desc, /θ is under 45°, so the RMS is mostly the mean, RMS = \|μ\| \/ cos θ/, where);
    // "all of one sign" only when every shifted coordinate has the mean's sign
    const oneSign = o.shifted.every((v) => Math.sign(v) === Math.sign(o.mean));
    assert.equal(sn.desc.includes('all of one sign'), oneSign, `${where}: "all of one sign" said exactly when true`);
  } else assert.match(sn.desc, /θ is at least 45°, so the RMS is mostly spread/, where);
}

const lensCount = () =>
  fig.page.evaluate((t) => document.querySelector(t).shadowRoot.querySelectorAll('.lens').length, TAG);

test('the default is (1, 2, 3) with θ open at 22.21°; one press goes to (101, 102, 103), where θ collapses', async () => {
  let sn = await snap();
  assert.equal(sn.state.shift, 0);
  assert.deepEqual(sn.state.x, [1, 2, 3]);
  check(sn, null, 'default');
  // by hand: μ = 2, σ = √(2/3), tan θ = √(2/3) / 2 = 1/√6 = 0.408248, θ = 22.2077°
  close(sn.state.theta, 22.2077, 1e-3, 'θ at c = 0');
  assert.equal(await lensCount(), 0, 'the σ leg is long enough to see: no magnifier');
  assert.match(sn.desc, /θ = atan\(σ \/ \|μ\|\) = 22\.21°/);
  // the quarter circle is named where it is drawn: a label starting within 12 px of its top end
  const dial = await fig.page.evaluate((t) => {
    const svg = document.querySelector(t).shadowRoot.querySelector('path.dial').ownerSVGElement;
    const top = svg.querySelector('path.dial').getBBox();
    const label = [...svg.querySelectorAll('text')].find((e) => /arc of radius RMS/.test(e.textContent));
    const b = label?.getBBox();
    return b && { dx: b.x - top.x, dy: top.y - (b.y + b.height) };
  }, TAG);
  assert.ok(dial && Math.abs(dial.dx) <= 12 && dial.dy >= -4 && dial.dy <= 12, JSON.stringify(dial));
  await fig.page.locator(`${TAG} >> button`, { hasText: 'Add 100' }).click();
  sn = await snap();
  check(sn, null, 'Add 100');
  assert.equal(sn.state.shift, 100);
  // by hand: σ = √(2/3) = 0.81650, |μ| = 102, tan θ = 0.81650 / 102 = 0.0080049, θ = 0.45865°
  close(sn.state.theta, 0.45865, 1e-4, 'θ at c = 100');
  // cos θ = 102 / √(31214/3) = 102 / 102.00327 = 0.999968
  close(sn.state.unit[0], 0.999968, 2e-6, 'cos θ at c = 100');
  close(sn.state.base.theta, 22.2077, 1e-3, 'the dashed triangle: x itself');
  assert.ok(
    sn.desc.endsWith(
      'Adding c = 100 to every coordinate left σ at 0.8165 but took |μ| from 2 to 102, so θ closed from 22.21° (the dashed triangle, c = 0) to 0.4586°.',
    ),
    sn.desc,
  );
  // the σ leg is under a pixel or two long at this angle: the magnifier shows it, labelled
  assert.equal(await lensCount(), 1, 'a magnifier over the σ leg');
  await fig.page.locator(`${TAG} >> button`, { hasText: 'Use (1, 2, 3)' }).click();
  assert.equal((await snap()).state.shift, 0, 'and back');
  assert.deepEqual(fig.problems, []);
});

test('the caption describes what is drawn by default, and names what appears only after the press after it', async () => {
  /** What the triangle panel draws now, and the caption's halves split at the press (its button's own label). */
  const read = (lang) =>
    fig.page.evaluate(
      ([t, lang]) => {
        const f = document.querySelector(t),
          r = f.shadowRoot;
        const press = [...r.querySelectorAll('button')].find((b) => /100/.test(b.textContent)).textContent;
        const caption = f
          .closest('figure')
          .querySelector(`figcaption [data-lang=${lang}]`)
          .textContent.replace(/\s+/g, ' ');
        const at = caption.indexOf(`“${press}”`);
        return {
          press,
          at,
          before: caption.slice(0, at),
          after: caption.slice(at),
          drawn: {
            dashedTriangle: r.querySelectorAll('.ref-leg').length,
            magnifier: r.querySelectorAll('.lens').length,
            legs: ['mu', 'sigma', 'rms'].map((k) => r.querySelectorAll(`path.leg.${k}`).length),
            sigmaLabel: [...r.querySelectorAll('text.label.sigma')].some((e) => e.textContent === 'σ'),
          },
        };
      },
      [TAG, lang],
    );
  // the words for what the shift adds: the dashed triangle of x itself, and the magnifier
  const added = { en: [/dashed/, /magnifier/], zh: [/虚线/, /放大镜/] };
  for (const lang of ['en', 'zh']) {
    await fig.page.evaluate(
      ([t, lang]) => {
        const f = document.querySelector(t);
        f.setAttribute('shift', '0');
        f.setAttribute('lang', lang);
      },
      [TAG, lang],
    );
    let r = await read(lang);
    assert.ok(r.at > 0, `${lang}: the caption names the press “${r.press}”`);
    // by default: the three sides, σ's leg long enough to label, no dashed triangle, no magnifier
    assert.deepEqual(r.drawn, { dashedTriangle: 0, magnifier: 0, legs: [1, 1, 1], sigmaLabel: true });
    for (const word of added[lang]) assert.doesNotMatch(r.before, word, `${lang}: not drawn by default`);
    // and what the caption says of the default is what is drawn: (1, 2, 3), |μ| = 2, σ = √(2/3) = 0.82,
    // θ = atan(1/√6) = 22.2°, about 22°
    for (const said of ['(1, 2, 3)', '|μ| = 2', 'σ = 0.82', '22°'])
      assert.ok(r.before.includes(said), `${lang}: ${said}`);
    // after the press, both are drawn, and the caption names them there
    await fig.page.locator(`${TAG} >> button`, { hasText: r.press }).click();
    r = await read(lang);
    assert.equal(r.drawn.dashedTriangle, 1, `${lang}: the dashed triangle after the shift`);
    assert.equal(r.drawn.magnifier, 1, `${lang}: the magnifier after the shift`);
    for (const word of added[lang]) {
      assert.match(r.after, word, `${lang}: named after the press`);
      // in a sentence that says it appears then (not as if it were on the default picture)
      const sentence = r.after.split(lang === 'zh' ? '。' : '. ').find((x) => word.test(x));
      assert.match(sentence, lang === 'zh' ? /这时.*(多出|出现)/ : /then appear/, `${lang}: "${sentence}"`);
    }
  }
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('shift', '0');
    f.setAttribute('lang', 'en');
  }, TAG);
});

test('the shift slider by keyboard across its range: statistics, angle, outputs and words follow', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('lang', 'en');
    f.setAttribute('x', '1,2,3');
    f.setAttribute('shift', '0');
  }, TAG);
  const first = await snap();
  check(first, null, 'start');
  const slider = fig.page.locator(`${TAG} >> input[type=range]`);
  await slider.focus();
  await fig.page.keyboard.press('Home');
  let n = 0;
  const kinds = new Set();
  const visit = async (where) => {
    const sn = await snap();
    check(sn, first.state.layerNorm, where);
    kinds.add(/under 45°/.test(sn.desc) ? 'mean' : /at least 45°/.test(sn.desc) ? 'spread' : 'centered');
    n++;
  };
  await visit('Home');
  for (let i = 0; i < 12; i++) {
    await fig.page.keyboard.press('PageUp');
    await visit(`PageUp ${i}`);
  }
  // near the mean's sign change, a step at a time: x + c crosses (−1, 0, 1)
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('shift', '-3'), TAG);
  for (let i = 0; i < 8; i++) {
    await fig.page.keyboard.press('ArrowRight');
    await visit(`Arrow ${i}`);
  }
  await fig.page.keyboard.press('End');
  await visit('End');
  assert.ok(n >= 20, `${n} positions`);
  assert.deepEqual([...kinds].sort(), ['centered', 'mean', 'spread'], 'all three verdicts are reached');
  assert.deepEqual(fig.problems, []);
});

test("the article's pair: θ from 22.21° at c = 0 to 0.4586° at c = 100; RMSNorm near 1, LayerNorm (−1.2247, 0, 1.2247)", async () => {
  await fig.page.locator(`${TAG} >> button`, { hasText: '(1, 2, 3)' }).first().click();
  let s = (await snap()).state;
  assert.equal(s.shift, 0);
  // by hand: μ = 2, σ = √(2/3), tan θ = √(2/3) / 2 = 1/√6 = 0.408248, θ = 22.2077°; cos θ = 2 / √(14/3) = 0.925820
  close(s.theta, 22.2077, 1e-3, 'θ at c = 0');
  close(s.unit[0], 0.92582, 1e-5, 'cos θ at c = 0');
  close(s.unit[1], 0.377964, 1e-5, 'sin θ = √(2/3) / √(14/3) = 1/√7');
  await fig.page.locator(`${TAG} >> button`, { hasText: '(101, 102, 103)' }).click();
  const sn = await snap();
  s = sn.state;
  assert.equal(s.shift, 100);
  // RMS² = (101² + 102² + 103²)/3 = 31214/3 = 10404.667 = σ² 2/3 + μ² 102²
  close(s.meanSquare, 31214 / 3, 1e-2, 'RMS²');
  close(s.meanSq, 10404, 1e-3, 'μ²');
  close(s.rms, Math.sqrt(31214 / 3), 1e-3, 'RMS');
  close(s.theta, 0.45865, 1e-4, 'θ at c = 100');
  // one precision for the three terms: 10,404.667 → 10,405, 2/3 → 0.66667, 10,404 → 10,404
  assert.ok(sn.svg.includes('RMS² = σ² + μ²: 10,405 = 0.66667 + 10,404'), sn.svg.join(' | '));
  [101, 102, 103].forEach((v, i) => close(s.rmsNorm[i], v / Math.sqrt(31214 / 3), 1e-5, `RMSNorm ${i}`));
  [-1.2247, 0, 1.2247].forEach((v, i) => close(s.layerNorm[i], v, 1e-3, `LayerNorm ${i}`));
  await fig.page.locator(`${TAG} >> button`, { hasText: 'mean 0' }).click();
  const c = await snap();
  assert.deepEqual(c.state.x, [-1, 0, 1]);
  close(c.state.theta, 90, 1e-4, 'mean 0: θ = 90°');
  c.state.rmsNorm.forEach((v, i) => close(v, c.state.layerNorm[i], 1e-4, 'mean 0: RMSNorm = LayerNorm'));
  // all zeros: no angle, said in words, no error
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('x', '0,0');
    f.setAttribute('shift', '0');
  }, TAG);
  const z = await snap();
  assert.equal(z.error, '');
  assert.equal(z.state.theta, null);
  assert.match(z.desc, /Every coordinate of x \+ c is 0: there is nothing to normalize and no angle\./);
  assert.deepEqual(z.bad, []);
});

test('Chinese words, and bad attributes keep the last drawing with a message', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('x', '1,2,3');
    f.setAttribute('shift', '100');
    f.setAttribute('lang', 'zh');
  }, TAG);
  let sn = await snap();
  assert.ok(
    sn.desc.startsWith(
      'x + c = (101, 102, 103) 的 mean μ = 102，标准差 σ = 0.8165，RMS 为 102；RMS² = σ² + μ² 即 10,405 = 0.66667 + 10,404。',
    ),
    sn.desc,
  );
  assert.match(sn.desc, /夹角为 θ = atan\(σ \/ \|μ\|\) = 0\.4586°/);
  assert.match(sn.desc, /θ 小于 45°，RMS 主要就是 mean/);
  assert.ok(
    sn.desc.endsWith(
      '每个坐标加上 c = 100 后，σ 仍是 0.8165，|μ| 却从 2 变为 102，所以 θ 从 22.21°（虚线三角形，c = 0）收窄到 0.4586°。',
    ),
    sn.desc,
  );
  assert.ok(sn.svg.includes('c = 0：θ = 22.21°'), sn.svg.join(' | '));
  assert.ok(sn.svg.includes('x + c，c = 100'), sn.svg.join(' | '));
  const good = sn.state;
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('x', '1,2,3,4,5,6,7,8,9'), TAG);
  sn = await snap();
  assert.match(sn.error, /x/);
  assert.deepEqual(sn.state.rmsNorm, good.rmsNorm, 'the last good drawing stays');
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('x', '1,2,3');
    f.setAttribute('shift', '500');
  }, TAG);
  sn = await snap();
  assert.match(sn.error, /shift/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('shift', '100');
    f.setAttribute('lang', 'en');
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});

test('at 360 px, in both languages and at c = 0, 100 and mean 0: labels ≥ 10 px, no two labels overlap, controls ≥ 44 px', async () => {
  const page = fig.page;
  await page.setViewportSize({ width: 360, height: 740 });
  try {
    for (const lang of ['en', 'zh'])
      for (const [x, c] of [
        ['1,2,3', '100'],
        ['1,2,3', '0'],
        ['-1,0,1', '0'],
        ['1,2,3', '-1.5'],
        ['1,2,3', '-110'],
      ]) {
        const where = `${lang} x=${x} c=${c}`;
        await page.evaluate(
          ([t, lang, x, c]) => {
            const f = document.querySelector(t);
            f.setAttribute('lang', lang);
            f.setAttribute('x', x);
            f.setAttribute('shift', c);
          },
          [TAG, lang, x, c],
        );
        await page.waitForTimeout(80); // the redraw at the new width
        const r = await page.evaluate((t) => {
          const root = document.querySelector(t).shadowRoot;
          const texts = [...root.querySelectorAll('svg text')].filter((e) => e.textContent.trim());
          const small = texts
            .map((e) => [e.textContent, parseFloat(getComputedStyle(e).fontSize) * Math.abs(e.getScreenCTM().a)])
            .filter(([, px]) => px < 10);
          const boxes = texts.map((e) => [e.textContent, e.getBoundingClientRect()]);
          const overlaps = [];
          for (let i = 0; i < boxes.length; i++)
            for (let j = i + 1; j < boxes.length; j++) {
              const [a, A] = boxes[i],
                [b, B] = boxes[j];
              const w = Math.min(A.right, B.right) - Math.max(A.left, B.left),
                h = Math.min(A.bottom, B.bottom) - Math.max(A.top, B.top);
              if (w > 1 && h > 1) overlaps.push(`"${a}" / "${b}"`);
            }
          const tiny = [...root.querySelectorAll('button, select, input')]
            .map((e) => [e.getAttribute('aria-label') ?? e.textContent, e.getBoundingClientRect()])
            .filter(([, b]) => b.height < 44 || b.width < 44)
            .map(([n, b]) => `${n} ${b.width.toFixed(0)}×${b.height.toFixed(0)}`);
          const right = document.querySelector(t).getBoundingClientRect().right;
          return { small, overlaps, tiny, right };
        }, TAG);
        assert.deepEqual(r.small, [], `${where}: small labels`);
        assert.deepEqual(r.overlaps, [], `${where}: overlapping labels`);
        assert.deepEqual(r.tiny, [], `${where}: small touch targets`);
        assert.ok(r.right <= 360.5, `${where}: right edge ${r.right}`);
      }
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.evaluate((t) => {
      const f = document.querySelector(t);
      f.setAttribute('lang', 'en');
      f.setAttribute('x', '1,2,3');
      f.setAttribute('shift', '0');
    }, TAG);
  }
  assert.deepEqual(fig.problems, []);
});
