// The geometry figures (<nl-residual-turn>, <nl-l2-jacobian>, <nl-spectral>,
// <nl-whitening>) driven through their real controls: every control across
// its range (10 to 31 positions: the ends, the ties and turning points, a
// sample between), and after each position every sentence is
// checked against the state it came from by rules written here, the numbers
// against values derived by hand from the definitions. Then pointer drags,
// bad attributes and a 360 px phone (axe-core over each figure alone: a11y.test.mjs).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { figureHelpers, openPage, setAttributes, setup, shotsDir } from './helpers.mjs';

const TAGS = ['nl-residual-turn', 'nl-l2-jacobian', 'nl-spectral', 'nl-whitening'];
let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
});
after(() => env.close());

// ---- helpers ---------------------------------------------------------------------
const { ready, state } = figureHelpers(() => page);
const texts = (tag) =>
  page.evaluate((t) => {
    const r = document.querySelector(t).shadowRoot;
    return {
      desc: r.querySelector('[part="description"]').textContent,
      readout: r.querySelector('.readout')?.textContent ?? '',
      svgs: [...r.querySelectorAll('svg')].map((s) => s.textContent),
      tables: [...r.querySelectorAll('table')].map((s) => s.textContent),
      error: r.querySelector('[part="error"]').textContent,
    };
  }, tag);
const set = (tag, attrs) => setAttributes(page, tag, attrs);
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg ?? ''}: ${a} vs ${b}`);
/** Set a range input's value and fire `input`, as a reader's drag of the thumb does. */
const slide = (tag, value) =>
  page.evaluate(
    ([t, v]) => {
      const r = document.querySelector(t).shadowRoot.querySelector('input[type=range]');
      r.value = String(v);
      r.dispatchEvent(new Event('input', { bubbles: true }));
    },
    [tag, value],
  );
/** No NaN/Infinity in any SVG attribute of the figure. */
const badGeometry = (tag) =>
  page.evaluate((t) => {
    const out = [];
    for (const n of document.querySelector(t).shadowRoot.querySelectorAll('svg, svg *')) {
      for (const a of n.attributes) if (/NaN|Infinity/.test(a.value)) out.push(`${n.tagName}[${a.name}=${a.value}]`);
    }
    return out;
  }, tag);

// Formatters written from the figures' documented rules (not imported from them).
const fixed = (v, d, min = 0) =>
  new Intl.NumberFormat('en-US', {
    maximumFractionDigits: d,
    minimumFractionDigits: min,
    signDisplay: 'negative',
  }).format(v);
const sig = (v, d) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: d }).format(v);
const vec3 = (v) => `(${v.map((c) => fixed(c, 3)).join(', ')})`;
const deg = (a, b) => {
  const c = (a[0] * b[0] + a[1] * b[1]) / Math.hypot(...a) / Math.hypot(...b);
  return (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
};
/** A route of arrow-key presses that wanders in all four directions. */
function route(n, seed = 1) {
  const keys = ['ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown'];
  const out = [];
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out.push(keys[Math.floor(i / 4 + (s % 3)) % 4]);
  }
  return out;
}

// ---- residual turn ------------------------------------------------------------------
function checkTurn(s, t, where) {
  const a = fixed(s.small.angle, 2),
    b = fixed(s.large.angle, 2);
  close(s.small.angle, deg(s.x, [s.x[0] + s.u[0], s.x[1] + s.u[1]]), 2e-3, `${where} small angle`);
  close(s.large.angle, deg(s.x, [s.scale * s.x[0] + s.u[0], s.scale * s.x[1] + s.u[1]]), 2e-3, `${where} large angle`);
  assert.ok(t.desc.includes(`${a}°`) && t.desc.includes(`${b}°`), `${where}: both angles in "${t.desc}"`);
  assert.ok(t.svgs[0].includes(`${a}°`) && t.svgs[1].includes(`${b}°`), `${where}: the titles read ${a}° and ${b}°`);
  if (a === '0') assert.match(t.desc, /does not turn/, where);
  else assert.doesNotMatch(t.desc, /does not turn/, where);
  if (a === b) {
    assert.match(t.desc, /the same angle/, `${where}: a tie is a tie`);
    assert.doesNotMatch(t.desc, /only|less|more/, where);
  } else if (s.large.angle < s.small.angle) {
    if (s.large.angle < 10) assert.match(t.desc, /only/, `${where}: small and smaller`);
    else assert.match(t.desc, /by less/, where);
  } else assert.match(t.desc, /by more/, where);
  if (/only/.test(t.desc))
    assert.ok(s.large.angle < 10 && s.large.angle < s.small.angle, `${where}: "only" with ${b}°`);
}

test('residual turn: the scale slider, the x handle and the u handle, 10 to 22 positions each, words follow the angles', async () => {
  const fig = await ready('nl-residual-turn');
  await set('nl-residual-turn', { x: '1,0', u: '0,1', scale: '10' });
  // hand-derived: 45° for (1,0)+(0,1); atan(1/10) = 5.71° for (10,0)+(0,1)
  let s = await state('nl-residual-turn');
  close(s.small.angle, 45, 1e-4);
  close(s.large.angle, 5.7106, 1e-3);
  assert.match((await texts('nl-residual-turn')).desc, /only 5\.71°/);
  let n = 0;
  // the slider's ends, both sides of 1 (the tie) and a sample of the rest
  for (const v of [0.1, 0.5, 0.9, 1, 1.1, 2.1, 5.1, 10.1, 15.1, 20]) {
    await slide('nl-residual-turn', v);
    s = await state('nl-residual-turn');
    checkTurn(s, await texts('nl-residual-turn'), `scale ${s.scale}`);
    n++;
  }
  // scale 1: the same vector twice, a tie
  await slide('nl-residual-turn', 1);
  assert.match((await texts('nl-residual-turn')).desc, /the same angle, 45°/);
  // the x handle: arrow keys by 0.1
  await slide('nl-residual-turn', 3);
  const hx = fig.locator('.handle.input');
  await hx.focus();
  for (const key of route(12, 3)) {
    const before = (await state('nl-residual-turn')).x;
    await page.keyboard.press(key);
    s = await state('nl-residual-turn');
    const d = { ArrowRight: [0.1, 0], ArrowLeft: [-0.1, 0], ArrowUp: [0, 0.1], ArrowDown: [0, -0.1] }[key];
    if (!s.error) {
      close(s.x[0], before[0] + d[0], 1e-9, `${key} x0`);
      close(s.x[1], before[1] + d[1], 1e-9, `${key} x1`);
      checkTurn(s, await texts('nl-residual-turn'), `x ${s.x}`);
    }
    n++;
  }
  // the u handle: down through u = (0, 0) (no turn at all) and beyond
  await set('nl-residual-turn', { x: '1,0', u: '0,1', scale: '10' });
  const hu = fig.locator('.handle.update');
  await hu.focus();
  let sawNoTurn = false;
  for (let i = 0; i < 22; i++) {
    await page.keyboard.press(i < 15 ? 'ArrowDown' : 'ArrowLeft');
    s = await state('nl-residual-turn');
    const t = await texts('nl-residual-turn');
    checkTurn(s, t, `u ${s.u}`);
    if (/does not turn/.test(t.desc)) sawNoTurn = true;
    n++;
  }
  assert.ok(sawNoTurn, 'u = (0, 0) passes by: "does not turn"');
  assert.equal(await page.evaluate(() => document.querySelector('nl-residual-turn').getAttribute('u')), '-0.7,-0.5');
  assert.equal(n, 10 + 12 + 22);
  // a scale below 1: the copy is shorter and turns more
  await set('nl-residual-turn', { x: '1,0', u: '0,1', scale: '0.5' });
  checkTurn(await state('nl-residual-turn'), await texts('nl-residual-turn'), 'scale 0.5');
  assert.match((await texts('nl-residual-turn')).desc, /by more, 63\.43°/); // atan(1/0.5)
  // never "only 84.3°": (1,0)+(0,10) turns 84.29°, at scale 1.05 still 84.0°
  await set('nl-residual-turn', { x: '1,0', u: '0,10', scale: '1.1' });
  assert.doesNotMatch((await texts('nl-residual-turn')).desc, /only/);
  assert.deepEqual(await badGeometry('nl-residual-turn'), []);
});

// ---- L2 Jacobian -------------------------------------------------------------------------
function checkL2(s, t, where) {
  // by hand: along = (δ·x̂) x̂, across = δ − along, J·δ = across/|x|
  const n = Math.hypot(...s.x);
  const xh = [s.x[0] / n, s.x[1] / n];
  const dot = s.delta[0] * xh[0] + s.delta[1] * xh[1];
  const along = [dot * xh[0], dot * xh[1]];
  const across = [s.delta[0] - along[0], s.delta[1] - along[1]];
  [0, 1].forEach((i) => {
    close(s.along[i], along[i], 1e-5, `${where} along`);
    close(s.across[i], across[i], 1e-5, `${where} across`);
    close(s.dy[i], across[i] / n, 1e-5, `${where} J·δ`);
  });
  close(s.norm, n, 1e-5 * n, `${where} |x|`);
  close(s.gain, 1 / n, 1e-5 / n + 1e-7, `${where} gain`);
  const V = { along: vec3(s.along), across: vec3(s.across), dy: vec3(s.dy), delta: vec3(s.delta) };
  assert.ok(
    t.desc.includes(`|x| = ${sig(s.norm, 4)}`) && t.readout.includes(`|x| = ${sig(s.norm, 4)}`),
    `${where}: |x| reads the same`,
  );
  assert.ok(
    t.desc.includes(`1/|x| = ${sig(s.gain, 4)}`) && t.readout.includes(`1/|x| = ${sig(s.gain, 4)}`),
    `${where}: 1/|x| reads the same`,
  );
  assert.ok(t.readout.includes(V.dy) && t.desc.includes(V.dy), `${where}: J·δ ${V.dy} in both`);
  if (V.delta === '(0, 0)') assert.match(t.desc, /does not move/, where);
  else if (V.across === '(0, 0)') assert.match(t.desc, /points along x: normalization removes all of it/, where);
  else if (V.along === '(0, 0)') assert.match(t.desc, /is across x: nothing is removed/, where);
  else {
    assert.ok(
      t.desc.includes(`splits into ${V.along} along x`) && t.desc.includes(`and ${V.across} across it`),
      `${where}: ${t.desc}`,
    );
    assert.ok(t.readout.includes(V.along) && t.readout.includes(V.across), where);
  }
}

test('L2 Jacobian: the δ handle (31 positions) and the x handle (16); hand-derived split; the gain falls as x grows', async () => {
  const fig = await ready('nl-l2-jacobian');
  await set('nl-l2-jacobian', { x: '3,4', delta: '1,0' });
  let s = await state('nl-l2-jacobian');
  // hand-derived at x = (3, 4), δ = (1, 0): along (0.36, 0.48), across (0.64, −0.48), J·δ = across/5
  [0.36, 0.48].forEach((v, i) => close(s.along[i], v, 1e-6));
  [0.64, -0.48].forEach((v, i) => close(s.across[i], v, 1e-6));
  [0.128, -0.096].forEach((v, i) => close(s.dy[i], v, 1e-6));
  close(s.norm, 5, 1e-6);
  close(s.gain, 0.2, 1e-6);
  let t = await texts('nl-l2-jacobian');
  assert.match(t.desc, /\(0\.36, 0\.48\) along x.*\(0\.64, -0\.48\) across it.*J·δ = \(0\.128, -0\.096\)/);
  checkL2(s, t, 'default');
  // δ handle: toward (0.3, 0.4) (along x), (0, 0), (−0.4, 0.3)... wait: across x is (0.4, −0.3)
  const hd = fig.locator('.handle.update');
  await hd.focus();
  const path = [
    ...Array(7).fill('ArrowLeft'),
    ...Array(4).fill('ArrowUp'), // (0.3, 0.4): along x
    ...Array(3).fill('ArrowLeft'),
    ...Array(4).fill('ArrowDown'), // (0, 0)
    ...Array(4).fill('ArrowRight'),
    ...Array(3).fill('ArrowDown'), // (0.4, −0.3): across x
    ...route(6, 5),
  ];
  const seen = new Set();
  for (const key of path) {
    await page.keyboard.press(key);
    s = await state('nl-l2-jacobian');
    t = await texts('nl-l2-jacobian');
    checkL2(s, t, `δ ${s.delta}`);
    if (/removes all of it/.test(t.desc)) seen.add('along');
    if (/does not move/.test(t.desc)) seen.add('zero');
    if (/nothing is removed/.test(t.desc)) seen.add('across');
  }
  assert.deepEqual([...seen].sort(), ['across', 'along', 'zero']);
  assert.ok(path.length >= 20);
  // x handle: Shift moves by 1; outward along (3, 4) the gain falls
  await set('nl-l2-jacobian', { x: '3,4', delta: '1,0' });
  const hx = fig.locator('.handle.input');
  await hx.focus();
  let lastGain = Infinity;
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press(i % 2 ? 'Shift+ArrowUp' : 'Shift+ArrowRight');
    s = await state('nl-l2-jacobian');
    checkL2(s, await texts('nl-l2-jacobian'), `x ${s.x}`);
    assert.ok(s.gain < lastGain, 'a longer x, a smaller gain');
    lastGain = s.gain;
  }
  assert.deepEqual(s.x, [8, 9]);
  for (const key of route(6, 7)) {
    await page.keyboard.press(key);
    s = await state('nl-l2-jacobian');
    checkL2(s, await texts('nl-l2-jacobian'), `x ${s.x}`);
  }
  assert.deepEqual(await badGeometry('nl-l2-jacobian'), []);
  // the zoomed panels make the split and J·δ visible: at least 40 px on screen
  await set('nl-l2-jacobian', { x: '3,4', delta: '1,0' });
  const lengths = await page.evaluate(() => {
    const r = document.querySelector('nl-l2-jacobian').shadowRoot;
    const len = (p) => {
      const b = p.getBoundingClientRect();
      return Math.hypot(b.width, b.height);
    };
    return {
      across: len(r.querySelector('svg.zoom .arrow.update.part')),
      dy: Math.max(
        ...[...r.querySelectorAll('svg.unit .arrow.l2')]
          .map(len)
          .sort((a, b) => a - b)
          .slice(0, 1),
      ),
    };
  });
  assert.ok(lengths.across >= 40, `the across part is ${lengths.across} px`);
  assert.ok(lengths.dy >= 40, `J·δ is ${lengths.dy} px`);
});

test('pointer drags move x, δ, the columns of W and the cloud; the handle stays under the pointer', async () => {
  const drag = async (tag, sel, dx, dy) => {
    const h = page.locator(tag).locator(sel).first();
    await h.scrollIntoViewIfNeeded();
    const b = await h.boundingBox();
    const x0 = b.x + b.width / 2,
      y0 = b.y + b.height / 2;
    await page.mouse.move(x0, y0);
    await page.mouse.down();
    for (let i = 1; i <= 5; i++) await page.mouse.move(x0 + (dx * i) / 5, y0 + (dy * i) / 5);
    await page.mouse.up();
    const a = await h.boundingBox();
    return { moved: [a.x + a.width / 2 - x0, a.y + a.height / 2 - y0] };
  };
  // L2: x to the right: x0 grows, x1 stays; the handle follows the pointer while dragging
  await ready('nl-l2-jacobian');
  await set('nl-l2-jacobian', { x: '3,4', delta: '1,0' });
  await drag('nl-l2-jacobian', '.handle.input', 30, 0);
  let s = await state('nl-l2-jacobian');
  assert.ok(s.x[0] > 3.3 && Math.abs(s.x[1] - 4) < 0.11, `x dragged right: ${s.x}`);
  await drag('nl-l2-jacobian', '.handle.update', 0, -40);
  s = await state('nl-l2-jacobian');
  assert.ok(s.delta[1] > 0.3 && Math.abs(s.delta[0] - 1) < 0.11, `δ dragged up: ${s.delta}`);
  // residual turn: u up makes a larger angle
  await ready('nl-residual-turn');
  await set('nl-residual-turn', { x: '1,0', u: '0,1', scale: '10' });
  const r = await drag('nl-residual-turn', '.handle.update', 0, -30);
  s = await state('nl-residual-turn');
  assert.ok(s.u[1] > 1.2 && s.small.angle > 45, `u dragged up: ${s.u}`);
  assert.ok(Math.abs(r.moved[1] + 30) < 12, `the handle followed the pointer: ${r.moved}`);
  // spectral: column 1 to the left shrinks W00
  await ready('nl-spectral');
  await set('nl-spectral', { matrix: '3,0,0,1', steps: '1' });
  await drag('nl-spectral', '.handle.input', -40, 0);
  s = await state('nl-spectral');
  assert.ok(s.matrix[0] < 2.5 && s.matrix[1] === 0 && s.matrix[3] === 1, `column 1 dragged left: ${s.matrix}`);
  // whitening: the handle up raises the mixing
  await ready('nl-whitening');
  await set('nl-whitening', { mixing: '0' });
  await drag('nl-whitening', '.handle', 0, -30);
  s = await state('nl-whitening');
  assert.ok(s.mixing > 0.3, `mixing dragged up: ${s.mixing}`);
  assert.deepEqual(problems, []);
});

// ---- spectral ----------------------------------------------------------------------------
/** Singular values of a 2x2 matrix in closed form. */
function sv2([a, b, c, d]) {
  const s1 = a * a + b * b + c * c + d * d,
    det = Math.abs(a * d - b * c);
  const r = Math.sqrt(Math.max(0, s1 * s1 - 4 * det * det));
  return [Math.sqrt((s1 + r) / 2), Math.sqrt(Math.max(0, (s1 - r) / 2))];
}
function checkSpectral(s, t, where) {
  const [t1, t2] = sv2(s.matrix);
  close(s.singular[0], t1, 1e-4 * t1, `${where} s1`);
  close(s.singular[1], t2, 1e-4 * t1 + 1e-5, `${where} s2`);
  close(s.normalizedSingular[0], s.singular[0] / s.sigma, 1e-4, `${where} W/σ semi-axis`);
  const a = s.normalizedSingular[0];
  const A = sig(a, 4),
    sg = sig(s.sigma, 5);
  assert.ok(t.desc.includes(`σ ≈ ${sg}`) && t.readout.includes(`σ ≈ ${sg}`), `${where}: σ reads ${sg} in both`);
  assert.ok(t.desc.includes(A) && t.readout.includes(A), `${where}: the semi-axis reads ${A} in both`);
  if (Math.abs(a - 1) <= 0.001) {
    assert.match(t.desc, /^.*Converged/, where);
    assert.doesNotMatch(t.desc, /Not converged|outside/, where);
  } else {
    assert.doesNotMatch(t.desc, /Converged|fits/, `${where}: ${a} is not converged`);
    if (a > 1) assert.ok(t.desc.includes(`still reaches ${A}, outside the unit circle`), where);
    else assert.match(t.desc, /inside the unit circle/, where);
  }
}

test('spectral: steps 1..30 (12 of them) for two matrices and the column handles, converged only within 0.001', async () => {
  const fig = await ready('nl-spectral');
  await set('nl-spectral', { matrix: '3,0,0,1', steps: '1' });
  let s = await state('nl-spectral');
  // by hand: u0 = (1,1)/√2, v = (3,1)/√10, u = (9,1)/√82, σ = 82/√820 = √8.2
  close(s.sigma, Math.sqrt(8.2), 1e-4);
  let t = await texts('nl-spectral');
  assert.match(t.desc, /Not converged yet.*still reaches 1\.048, outside the unit circle/);
  checkSpectral(s, t, 'default');
  let converged = 0,
    not = 0;
  for (const matrix of ['3,0,0,1', '2,1.5,0.5,1']) {
    await set('nl-spectral', { matrix, steps: '1' });
    // every step while it converges, then a sample up to the slider's end
    for (const k of [1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 20, 30]) {
      await slide('nl-spectral', k);
      s = await state('nl-spectral');
      assert.equal(s.steps, k);
      t = await texts('nl-spectral');
      checkSpectral(s, t, `${matrix} steps ${k}`);
      if (/Converged/.test(t.desc)) converged++;
      else not++;
    }
  }
  assert.ok(converged > 10 && not >= 2, `both verdicts seen: ${converged} converged, ${not} not`);
  // "Next step" adds one
  await set('nl-spectral', { matrix: '3,0,0,1', steps: '1' });
  await fig.getByRole('button', { name: 'Next step' }).click();
  assert.equal((await state('nl-spectral')).steps, 2);
  // the column handles: arrow keys move a column by 0.1
  for (const [i, sel] of [
    [0, 0],
    [1, 1],
  ]) {
    await set('nl-spectral', { matrix: '3,0,0,1', steps: '3' });
    const h = fig.locator('.handle.input').nth(sel);
    await h.focus();
    for (const key of route(10, 11 + i)) {
      const before = (await state('nl-spectral')).matrix;
      await page.keyboard.press(key);
      s = await state('nl-spectral');
      const d = { ArrowRight: [0.1, 0], ArrowLeft: [-0.1, 0], ArrowUp: [0, 0.1], ArrowDown: [0, -0.1] }[key];
      close(s.matrix[i], before[i] + d[0], 1e-9, `column ${i + 1} ${key}`);
      close(s.matrix[2 + i], before[2 + i] + d[1], 1e-9, `column ${i + 1} ${key}`);
      checkSpectral(s, await texts('nl-spectral'), `matrix ${s.matrix}`);
    }
  }
  assert.deepEqual(await badGeometry('nl-spectral'), []);
});

// ---- whitening ---------------------------------------------------------------------------
function checkWhitening(s, t, where) {
  const c = s.covariance;
  const m = s.mixing;
  // by hand, for a large sample: cov(W z) = W Wᵀ = [[4, 4m], [4m, 4m² + 0.36]] (loosely, 300 points)
  close(c.raw[0], 4, 1.2, `${where} raw var 1`);
  close(c.raw[3], 4 * m * m + 0.36, 0.3 * (4 * m * m + 0.36) + 0.1, `${where} raw var 2`);
  close(c.zscore[0], 1, 1e-4, where);
  close(c.zscore[3], 1, 1e-4, where);
  close(
    c.zscore[1],
    c.raw[1] / Math.sqrt(c.raw[0] * c.raw[3]),
    1e-3,
    `${where} z-scored off-diagonal is the correlation`,
  );
  const f = (v) => fixed(v, 3, 3);
  for (const v of [c.raw[0], c.raw[3], c.raw[1], c.zscore[1], c.whitened[1], c.whitened[0]]) {
    assert.ok(t.desc.includes(f(v)), `${where}: ${f(v)} in the description`);
    assert.ok(t.tables.join(' ').includes(f(v)), `${where}: ${f(v)} in a table`);
  }
  if (Math.abs(c.zscore[1]) < 0.1) assert.match(t.desc, /already near 0/, where);
  else assert.match(t.desc, /keeps the correlation .*stays tilted/, where);
  if (f(c.whitened[1]) === '0.000') assert.match(t.desc, /removes the correlation/, where);
  else assert.match(t.desc, /reduces the correlation/, where);
}

test('whitening: the slider over 13 positions and the handle over 12, text follows the covariances', async () => {
  const fig = await ready('nl-whitening');
  let near = 0,
    kept = 0;
  for (let i = 0; i <= 24; i += 2) {
    const m = Number((Math.round((-1.5 + i * 0.125) / 0.05) * 0.05).toFixed(2)); // on the slider's 0.05 grid
    await slide('nl-whitening', m);
    const s = await state('nl-whitening');
    close(s.mixing, m, 1e-9);
    const t = await texts('nl-whitening');
    checkWhitening(s, t, `mixing ${m}`);
    if (/already near 0/.test(t.desc)) near++;
    else kept++;
  }
  assert.ok(near >= 1 && kept >= 8, `${near} nearly uncorrelated, ${kept} correlated`);
  await set('nl-whitening', { mixing: '-1' });
  const h = fig.locator('.handle');
  await h.focus();
  for (let i = 0; i < 12; i++) {
    const before = (await state('nl-whitening')).mixing;
    await page.keyboard.press(i < 8 ? 'ArrowUp' : 'Shift+ArrowDown');
    const s = await state('nl-whitening');
    close(s.mixing, Math.max(-1.5, before + (i < 8 ? 0.05 : -0.5)), 1e-9, `key ${i}`);
    checkWhitening(s, await texts('nl-whitening'), `handle ${s.mixing}`);
  }
  assert.deepEqual(await badGeometry('nl-whitening'), []);
});

// ---- bad attributes -------------------------------------------------------------------------
test('bad attributes: a localized message, the last good state kept, no NaN geometry, no console error', async () => {
  const cases = [
    ['nl-residual-turn', 'x', '2,0', ['1,2,3', 'a,b', '1e400,0', '', Array(17).fill(1).join(',')]],
    ['nl-residual-turn', 'u', '0,2', ['1', '0,nope']],
    ['nl-l2-jacobian', 'x', '3,4', ['1,2,3', 'x,y', '1e999,1', Array(40).fill(2).join(',')]],
    ['nl-l2-jacobian', 'delta', '1,0', ['1,,2', Array(17).fill(0).join(',')]],
    ['nl-spectral', 'matrix', '3,0,0,1', ['1,2,3', '1,2,3,x', Array(17).fill(1).join(','), 'NaN,0,0,1']],
    ['nl-whitening', 'mixing', '0.5', ['abc', '7', '']],
  ];
  for (const [tag, attr, good, bads] of cases) {
    await ready(tag);
    await set(tag, { [attr]: good });
    const kept = await state(tag);
    for (const lang of ['en', 'zh']) {
      await set(tag, { lang });
      for (const bad of bads) {
        await set(tag, { [attr]: bad });
        const t = await texts(tag);
        assert.ok(t.error.length > 10, `${tag} ${attr}="${bad.slice(0, 20)}": a message`);
        if (lang === 'zh') assert.match(t.error, /[\u4e00-\u9fff]/, `${tag}: a Chinese message`);
        else assert.match(t.error, /must be|at most/, `${tag}: an English message`);
        if (bad.split(',').length > 16) {
          const max = attr === 'matrix' ? 4 : 2;
          assert.ok(t.error.includes(lang === 'zh' ? `最多接受 ${max} 个数` : `at most ${max} numbers`), t.error);
        }
        const s = await state(tag);
        assert.deepEqual(s[attr], kept[attr], `${tag}: the last good ${attr} is kept`);
        assert.deepEqual(await badGeometry(tag), [], `${tag}: no NaN geometry`);
        await set(tag, { [attr]: good });
        assert.equal((await texts(tag)).error, '');
      }
    }
    await set(tag, { lang: 'en' });
  }
  // a core error (x = 0 has no direction): the message, the last good drawing
  await set('nl-l2-jacobian', { x: '3,4' });
  await set('nl-l2-jacobian', { x: '0,0' });
  const t = await texts('nl-l2-jacobian');
  assert.match(t.error, /zero/);
  assert.deepEqual((await state('nl-l2-jacobian')).norm, 5);
  assert.deepEqual(await badGeometry('nl-l2-jacobian'), []);
  await set('nl-l2-jacobian', { x: '3,4' });
  assert.deepEqual(problems, []);
});

// ---- phones, screenshots ------------------------------------------------------------------
test('at 360 px: labels >= 10 px, nothing wider than the viewport, handles >= 32 px; screenshots', async () => {
  // English in light, Chinese in dark: sizes and widths come from the words, which are the same in both
  // themes, so two loads see both languages and both themes (four took ~50 s of the tier)
  for (const [colorScheme, lang] of [
    ['light', 'en'],
    ['dark', 'zh'],
  ]) {
    const {
      page: p,
      context,
      problems: probs,
    } = await openPage(env.browser, env.url + 'web/index.html', {
      viewport: { width: 360, height: 760 },
      colorScheme,
    });
    if (lang === 'zh') await p.click('[data-set-lang="zh"]');
    for (const tag of TAGS) {
      await p.locator(tag).scrollIntoViewIfNeeded();
      await p.waitForFunction((t) => document.querySelector(t)?.state, tag);
      await p.waitForTimeout(50);
      const m = await p.evaluate((t) => {
        const f = document.querySelector(t);
        const r = f.shadowRoot;
        const small = [...r.querySelectorAll('text')]
          .filter((x) => x.textContent && x.getScreenCTM().a * parseFloat(getComputedStyle(x).fontSize) < 10)
          .map((x) => x.textContent);
        const wide = [...r.querySelectorAll('*')]
          .filter((n) => n.getBoundingClientRect().right > innerWidth + 0.5 && !n.closest('.plot'))
          .map((n) => n.tagName);
        const handles = [...r.querySelectorAll('.handle')].map((h) => h.getBoundingClientRect().height);
        return { width: f.getBoundingClientRect().right, small, wide, handles };
      }, tag);
      assert.deepEqual(m.small, [], `${tag} ${lang}: labels under 10 px`);
      assert.ok(m.width <= 360, `${tag}: ${m.width} px wide`);
      assert.deepEqual(m.wide, [], `${tag}: overflows`);
      assert.ok(
        m.handles.every((h) => h >= 32),
        `${tag}: handles ${m.handles}`,
      );
      await p.locator(tag).screenshot({ path: join(shotsDir, `${tag}-360-${lang}-${colorScheme}.png`) });
    }
    assert.deepEqual(probs, []);
    await context.close();
  }
});
