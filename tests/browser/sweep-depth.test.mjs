// Sweeps of the depth figures (<nl-prepost-norm>, <nl-dk-scaling>) through
// their real controls: after every position each generated sentence is checked
// against the state it came from, by rules written here, and the numbers
// against hand-derived values. Plus bad attributes and a 360 px phone check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { figureHelpers, openPage, setup } from './helpers.mjs';

let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
});
after(() => env.close());

const { ready, state } = figureHelpers(() => page);
const desc = (tag) =>
  page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('.description').textContent, tag);
const errorText = (tag) =>
  page.evaluate((t) => document.querySelector(t).shadowRoot.querySelector('.error').textContent, tag);
// The test's own formatters (en): n significant digits, as the figures promise.
const fmt = (v, digits) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: digits }).format(v);
const count = (text, sub) => text.split(sub).length - 1;

/** Every number-like attribute of every SVG node is finite. */
const svgNumbersFinite = (tag) =>
  page.evaluate((t) => {
    const bad = [];
    for (const node of document.querySelector(t).shadowRoot.querySelectorAll('svg *')) {
      for (const a of node.getAttributeNames()) {
        const v = node.getAttribute(a);
        if (/NaN|Infinity/.test(v)) bad.push(`${node.tagName}.${a}=${v}`);
      }
    }
    return bad;
  }, tag);

/** Set a range input inside the figure as a reader's drag does (input event). */
const slide = (tag, label, value) =>
  page.evaluate(
    ([t, l, v]) => {
      const r = [...document.querySelector(t).shadowRoot.querySelectorAll('input[type=range]')].find(
        (i) => i.getAttribute('aria-label') === l,
      );
      r.value = String(v);
      r.dispatchEvent(new Event('input', { bubbles: true }));
    },
    [tag, label, value],
  );

// ---- Pre/Post-Norm ----------------------------------------------------------------

const CHECKED_DEPTHS = new Set([1, 2, 3, 4, 6, 9, 12, 17, 24, 31, 32]);

function checkPrepost(s, text) {
  const L = s.layers;
  assert.equal(s.pre.norms.length, L + 1);
  assert.equal(s.post.turns.length, L);
  // hand-derived: ‖(1, ..., 1)‖ in d = 16 is 4; a LayerNorm/RMSNorm output
  // without affine has norm √d · sqrt(v / (v + eps)), i.e. 4 up to eps/v.
  assert.ok(Math.abs(s.sqrtD - 4) < 1e-5, `sqrt d ${s.sqrtD}`);
  for (const v of s.post.norms.slice(1)) assert.ok(Math.abs(v - 4) < 1e-3, `Post-Norm norm ${v}`);
  assert.ok(Math.abs(s.finalNorm - 4) < 1e-3, `final norm ${s.finalNorm}`);
  // sentence rules
  const a = fmt(s.pre.norms[0], 3),
    b = fmt(s.pre.norms[L], 3);
  const layers = L === 1 ? '1 layer' : `${L} layers`;
  assert.ok(text.startsWith(`Over ${layers}, `), `layer count: ${text}`);
  if (a === b) assert.match(text, new RegExp(`keeps norm ${a}\\.`));
  else if (s.pre.norms[L] > s.pre.norms[0]) assert.ok(text.includes(`grows from norm ${a} to ${b}`), `grows: ${text}`);
  else assert.ok(text.includes(`shrinks from norm ${a} to ${b}`), `shrinks: ${text}`);
  for (const w of ['grows', 'shrinks', 'keeps']) assert.ok(count(text, w) <= 1, `one verdict: ${text}`);
  const after = s.post.norms.slice(1).map((v) => fmt(v, 3));
  const lo = fmt(s.postRange[0], 3),
    hi = fmt(s.postRange[1], 3);
  assert.equal(lo, fmt(Math.min(...s.post.norms.slice(1)), 3));
  assert.equal(hi, fmt(Math.max(...s.post.norms.slice(1)), 3));
  if (L === 1) assert.ok(text.includes(`its stream has norm ${hi} (√d = 4)`), text);
  else if (new Set(after).size === 1) assert.ok(text.includes(`has norm ${hi} after every layer (√d = 4)`), text);
  else assert.ok(text.includes(`between norm ${lo} and ${hi}`), text);
  const N = s.norm === 'layer_norm' ? 'LayerNorm' : 'RMSNorm';
  assert.ok(
    text.includes(`A final ${N} brings the Pre-Norm output to norm ${fmt(s.finalNorm, 3)} before the head.`),
    text,
  );
  if (L === 1)
    assert.ok(
      text.includes(
        `turns the Pre-Norm stream by ${fmt(s.pre.turns[0], 3)}° and the Post-Norm stream by ${fmt(s.post.turns[0], 3)}°`,
      ),
      text,
    );
  else {
    assert.ok(
      text.includes(
        `first Pre-Norm layer turns the stream by ${fmt(s.pre.turns[0], 3)}°, the last by ${fmt(s.pre.turns[L - 1], 3)}°`,
      ),
      text,
    );
    assert.ok(
      text.includes(`first turns it by ${fmt(s.post.turns[0], 3)}°, the last by ${fmt(s.post.turns[L - 1], 3)}°`),
      text,
    );
  }
  assert.doesNotMatch(text, /NaN|undefined|\{/);
}

test('Pre/Post-Norm sweep: depth 1..32 by keyboard, both norms, 11 depths checked; sentences follow the state', async () => {
  const fig = await ready('nl-prepost-norm');
  const slider = fig.getByRole('slider', { name: 'Layers L' });
  for (const norm of ['layer_norm', 'rms_norm']) {
    await fig.getByRole('combobox', { name: 'Normalization N' }).selectOption(norm);
    await slider.focus();
    await page.keyboard.press('Home');
    for (let L = 1; L <= 32; L++) {
      // every press is made; the checks at the small depths (1 layer, the first turns), a sample and the end
      if (!CHECKED_DEPTHS.has(L)) {
        await page.keyboard.press('ArrowRight');
        continue;
      }
      const s = await state('nl-prepost-norm');
      assert.equal(s.layers, L);
      assert.equal(s.norm, norm);
      checkPrepost(s, await desc('nl-prepost-norm'));
      // the chart: one Pre-Norm and one Post-Norm point per layer, 0..L
      assert.equal(await fig.locator('circle.p-pre').count(), 2 * (L + 1) - 1, 'pre points in both charts');
      assert.deepEqual(await svgNumbersFinite('nl-prepost-norm'), []);
      if (L < 32) await page.keyboard.press('ArrowRight');
    }
  }
  // Post-Norm's line is drawn in the chosen norm's colour
  const colours = await page.evaluate(() => {
    const f = document.querySelector('nl-prepost-norm');
    const cs = getComputedStyle(f);
    return {
      post: getComputedStyle(f.shadowRoot.querySelector('.s-post')).stroke,
      rms: cs.getPropertyValue('--nl-rms-norm').trim(),
    };
  });
  assert.equal(
    colours.post,
    `rgb(${colours.rms
      .match(/[0-9a-f]{2}/gi)
      .map((h) => parseInt(h, 16))
      .join(', ')})`,
  );
  await fig.getByRole('combobox', { name: 'Normalization N' }).selectOption('layer_norm');
});

test('Pre/Post-Norm: New draw gives a new draw (20 draws), and the Pre-Norm stream grows as derived', async () => {
  const fig = await ready('nl-prepost-norm');
  await slide('nl-prepost-norm', 'Layers L', 32);
  // Derivation: x_{l+1} = x_l + W_l N(x_l) with W_l entries N(0, 1/16), and
  // ‖N(x)‖² = 16, so E‖W_l N(x_l)‖² = 16 and the cross term has mean 0:
  // E‖x_L‖² = ‖x_0‖² + 16 L. Over 20 draws the mean of ‖x_L‖² / (‖x_0‖² + 16 L)
  // is 1 within sampling error (each ratio has a spread of about 0.25; 4
  // standard errors of the mean of 20 is 0.23).
  const ratios = [];
  const seen = new Set();
  for (let k = 0; k < 20; k++) {
    const s = await state('nl-prepost-norm');
    seen.add(s.pre.norms[0]);
    checkPrepost(s, await desc('nl-prepost-norm'));
    ratios.push(s.pre.norms[32] ** 2 / (s.pre.norms[0] ** 2 + 16 * 32));
    await fig.getByRole('button', { name: 'New draw' }).click();
  }
  assert.equal(seen.size, 20, 'each draw is new');
  const mean = ratios.reduce((a, b) => a + b) / ratios.length;
  assert.ok(Math.abs(mean - 1) < 0.23, `mean ratio ${mean}`);
  await page.evaluate(() => document.querySelector('nl-prepost-norm').setAttribute('seed', '1'));
});

// ---- d_k scaling ----------------------------------------------------------------

const N_SCORES = 500; // the figure's draws per standard deviation (state.count)
// Relative standard error of a sample std from n draws of kurtosis κ is about
// sqrt((κ - 1) / (4n)); a product q·k of d unit normals has κ = 3 + 6/d.
// Four standard errors:
const tolStd = (d) => 4 * Math.sqrt((2 + 6 / d) / (4 * N_SCORES));

function checkDk(s, text, shown) {
  const i = s.at;
  const d = s.dk;
  assert.equal(s.series.dks[i], d);
  assert.equal(s.count, N_SCORES);
  // hand-derived: std of q·k is √d; scaled is 1; QK-Norm's g·cos has std g/√d
  // (cos of two random directions has variance 1/d); ‖1‖ in d dims is √d.
  assert.ok(Math.abs(s.series.sqrt[i] - Math.sqrt(d)) < 1e-4 * Math.sqrt(d), 'sqrt');
  assert.ok(Math.abs(s.series.raw[i] / Math.sqrt(d) - 1) < tolStd(d), `raw ${s.series.raw[i]} at ${d}`);
  assert.ok(Math.abs(s.series.scaled[i] - 1) < tolStd(d), `scaled ${s.series.scaled[i]} at ${d}`);
  assert.ok(
    Math.abs(s.series.qk_norm[i] / (s.g / Math.sqrt(d)) - 1) < tolStd(d),
    `qk ${s.series.qk_norm[i]} at ${d}, g ${s.g}`,
  );
  assert.equal(s.std, s.series[s.mode][i], 'the detail is its series');
  assert.ok(Math.abs(s.uniform - 1 / 16) < 1e-7, 'uniform weight 1/16');
  for (const m of ['raw', 'scaled', 'qk_norm'])
    assert.ok(s.peak[m][i] >= 1 / 16 - 1e-6 && s.peak[m][i] <= 1 + 1e-6, `peak ${m}`);
  // sentence rules: each quantity once, with its one formatter
  const std = { raw: fmt(s.series.raw[i], 3), scaled: fmt(s.series.scaled[i], 3), qk: fmt(s.series.qk_norm[i], 3) };
  assert.ok(text.startsWith(`At d_k = ${d} (√d_k = ${fmt(s.series.sqrt[i], 3)}), raw q·k scores`), text);
  assert.ok(
    text.includes(
      `standard deviation ${std.raw}; divided by √d_k, ${std.scaled}; with QK-Norm and g = ${fmt(s.g, 4)}, ${std.qk}.`,
    ),
    text,
  );
  assert.equal(count(text, 'standard deviation'), 1, 'one standard deviation per series');
  assert.ok(
    text.includes(
      `averages ${fmt(s.peak.raw[i], 3)} for raw scores, ${fmt(s.peak.scaled[i], 3)} for scaled ones and ${fmt(s.peak.qk_norm[i], 3)} for QK-Norm; uniform attention would give each key 0.0625.`,
    ),
    text,
  );
  assert.doesNotMatch(text, /NaN|undefined|\{/);
  // the strip's ±std label is the same number as the sentence's for that series
  assert.equal(shown.strip, `±${fmt(s.std, 3)}`);
  assert.equal(shown.markers, 3, 'one marker per chart over d_k');
  assert.deepEqual(shown.markerClasses, [`mk m-${s.mode}`]);
  assert.equal(shown.rugTicks, s.scores.length, 'one tick per score, no jitter');
  assert.equal(shown.rugYs, 1, 'every tick starts at the same height');
}

const dkShown = () =>
  page.evaluate(() => {
    const r = document.querySelector('nl-dk-scaling').shadowRoot;
    const rug = r.querySelector('path.rug').getAttribute('d');
    const starts = [...rug.matchAll(/M[-0-9.]+,([-0-9.]+)v/g)].map((m) => m[1]);
    const mk = [...r.querySelectorAll('circle.mk')];
    return {
      strip: [...r.querySelectorAll('text.label')].map((t) => t.textContent).find((t) => t.startsWith('±')),
      markers: mk.length,
      markerClasses: [...new Set(mk.map((c) => c.getAttribute('class')))],
      rugTicks: starts.length,
      rugYs: new Set(starts).size,
    };
  });

test('d_k sweep: 14 widths on a linear axis, every mode, 11 values of g; sentences follow the state', async () => {
  const fig = await ready('nl-dk-scaling');
  // the small widths (the kurtosis 3 + 6/d is largest there), powers of two, odd ones and the end
  const dks = [1, 2, 3, 5, 8, 16, 30, 64, 100, 128, 170, 210, 250, 256];
  for (const d of dks) {
    await slide('nl-dk-scaling', 'Head width d_k', d);
    const s = await state('nl-dk-scaling');
    assert.equal(s.dk, d);
    checkDk(s, await desc('nl-dk-scaling'), await dkShown());
  }
  // the x axis is linear: equal d_k steps are equal pixel steps (ticks 0, 64, ... 256)
  const xs = await page.evaluate(() =>
    [...document.querySelector('nl-dk-scaling').shadowRoot.querySelector('svg').querySelectorAll('.axis text')]
      .filter((t) => t.getAttribute('text-anchor') === 'middle')
      .map((t) => [t.textContent, Number(t.getAttribute('x'))]),
  );
  const steps = xs.slice(1).map(([, x], k) => x - xs[k][1]);
  for (const st of steps) assert.ok(Math.abs(st - steps[0]) < 0.2, `linear ticks ${JSON.stringify(xs)}`);
  assert.equal(xs.at(-1)[0], '256');
  // consequence, derived: unscaled at d_k = 256 the scores spread by 16, so the
  // top of 16 keys is typically several units above the next: its weight is
  // near 1. Scaled, the scores are 16 unit normals: the mean largest weight is
  // estimated here by the test's own simulation (independent of the core).
  let s = await state('nl-dk-scaling');
  assert.ok(s.peak.raw[s.at] > 0.8, `raw peak at 256: ${s.peak.raw[s.at]}`);
  let acc = 0;
  const n = 20000;
  const normal = () => Math.sqrt(-2 * Math.log(1 - Math.random())) * Math.cos(2 * Math.PI * Math.random());
  for (let k = 0; k < n; k++) {
    const z = Array.from({ length: 16 }, normal);
    const m = Math.max(...z);
    const e = z.map((v) => Math.exp(v - m));
    acc += 1 / e.reduce((a, b) => a + b);
  }
  const expected = acc / n; // about 0.25
  for (const v of s.peak.scaled) assert.ok(Math.abs(v - expected) < 0.06, `scaled peak ${v} vs ${expected}`);
  // every mode
  await slide('nl-dk-scaling', 'Head width d_k', 64);
  for (const mode of ['raw', 'qk_norm', 'scaled']) {
    await fig.getByRole('combobox', { name: 'Detail' }).selectOption(mode);
    s = await state('nl-dk-scaling');
    assert.equal(s.mode, mode);
    checkDk(s, await desc('nl-dk-scaling'), await dkShown());
    // the marker is filled with its series' colour
    const c = await page.evaluate((m) => {
      const r = document.querySelector('nl-dk-scaling').shadowRoot;
      return [
        getComputedStyle(r.querySelector('circle.mk')).fill,
        getComputedStyle(r.querySelector(`path.s-${m}`)).stroke,
      ];
    }, mode);
    assert.equal(c[0], c[1]);
  }
  // g over its range, QK-Norm in detail
  await fig.getByRole('combobox', { name: 'Detail' }).selectOption('qk_norm');
  for (let k = 0; k <= 20; k += 2) {
    const g = k === 0 ? 0.1 : 2 * k;
    await slide('nl-dk-scaling', 'QK-Norm scale g', g);
    s = await state('nl-dk-scaling');
    assert.equal(s.g, g);
    checkDk(s, await desc('nl-dk-scaling'), await dkShown());
    assert.deepEqual(await svgNumbersFinite('nl-dk-scaling'), []);
  }
  await slide('nl-dk-scaling', 'QK-Norm scale g', 8);
  await fig.getByRole('combobox', { name: 'Detail' }).selectOption('scaled');
  // keyboard reaches the d_k slider
  await fig.getByRole('slider', { name: 'Head width d_k' }).focus();
  await page.keyboard.press('ArrowLeft');
  assert.equal((await state('nl-dk-scaling')).dk, 63);
  await page.keyboard.press('ArrowRight');
});

test('d_k: New draw 10 times: a new seed each time, sentences still follow the state', async () => {
  const fig = await ready('nl-dk-scaling');
  const seeds = new Set();
  for (let k = 0; k < 10; k++) {
    await fig.getByRole('button', { name: 'New draw' }).click();
    const s = await state('nl-dk-scaling');
    seeds.add(s.seed);
    checkDk(s, await desc('nl-dk-scaling'), await dkShown());
  }
  assert.equal(seeds.size, 10);
  await page.evaluate(() => document.querySelector('nl-dk-scaling').setAttribute('seed', '1'));
});

// ---- bad attributes ----------------------------------------------------------------

test('bad attributes: a localized message, the last good state kept, no NaN, no console error', async () => {
  const cases = [
    ['nl-prepost-norm', 'layers', ['0', '33', '2.5', 'abc', '']],
    ['nl-prepost-norm', 'norm', ['batch_norm', 'LayerNorm']],
    ['nl-prepost-norm', 'seed', ['-1', 'x']],
    ['nl-dk-scaling', 'dk', ['0', '257', '1.5', 'NaN', '1e9']],
    ['nl-dk-scaling', 'mode', ['softmax']],
    ['nl-dk-scaling', 'g', ['0', '-1', '41', 'Infinity']],
  ];
  for (const [tag, attr, values] of cases) {
    await ready(tag);
    const good = await state(tag);
    const goodDesc = await desc(tag);
    for (const v of values) {
      // each language from a good state: a message made in one language is
      // not re-made by a later switch (base.js keeps the parsed message)
      for (const lang of ['en', 'zh']) {
        await page.evaluate(
          ([t, a, val, l]) => {
            const f = document.querySelector(t);
            f.setAttribute('lang', l);
            f.setAttribute(a, val);
          },
          [tag, attr, v, lang],
        );
        const msg = await errorText(tag);
        assert.ok(msg.includes(attr), `${tag} ${attr}=${v} (${lang}): names the attribute: ${msg}`);
        if (lang === 'zh') assert.match(msg, /[\u4e00-\u9fff]/, `localized: ${msg}`);
        else assert.doesNotMatch(msg, /[\u4e00-\u9fff]/);
        const s = await state(tag);
        assert.ok(s.error, 'the state carries the error');
        const { error, ...rest } = s;
        const { error: _e, ...goodRest } = good;
        assert.deepEqual(rest, goodRest, 'last good state kept');
        assert.deepEqual(await svgNumbersFinite(tag), []);
        await page.evaluate(
          ([t, a, val]) => {
            const f = document.querySelector(t);
            f.setAttribute(a, val);
            f.setAttribute('lang', 'en');
          },
          [tag, attr, String(good[attr])],
        );
        assert.equal(await errorText(tag), '');
        assert.equal(await desc(tag), goodDesc);
      }
    }
  }
  assert.deepEqual(problems, []);
});

// ---- phones ----------------------------------------------------------------------

test('360 px: both figures fit the width, every label is at least 10 px, controls at least 32 px tall', async () => {
  const phone = await openPage(env.browser, env.url + 'web/index.html', { viewport: { width: 360, height: 800 } });
  for (const lang of ['en', 'zh']) {
    if (lang === 'zh') await phone.page.click('[data-set-lang="zh"]');
    for (const tag of ['nl-prepost-norm', 'nl-dk-scaling']) {
      await phone.page.locator(tag).scrollIntoViewIfNeeded();
      await phone.page.waitForFunction((t) => document.querySelector(t)?.state, tag);
      await phone.page.waitForTimeout(100);
      const m = await phone.page.evaluate((t) => {
        const f = document.querySelector(t);
        const box = f.getBoundingClientRect();
        const small = [];
        let texts = 0;
        const over = [];
        for (const tx of f.shadowRoot.querySelectorAll('svg text')) {
          if (!tx.textContent) continue;
          texts++;
          const px = tx.getScreenCTM().a * parseFloat(getComputedStyle(tx).fontSize);
          if (px < 10) small.push(`${tx.textContent}: ${px}`);
          const r = tx.getBoundingClientRect();
          if (r.right > box.right + 0.5 || r.left < box.left - 0.5)
            over.push(`${tx.textContent}: ${r.left}..${r.right}`);
        }
        for (const n of f.shadowRoot.querySelectorAll('p, li, label, span')) {
          if (n.textContent && parseFloat(getComputedStyle(n).fontSize) < 10) small.push(n.textContent.slice(0, 20));
        }
        const controls = [...f.shadowRoot.querySelectorAll('input, select, button')]
          .filter((c) => c.offsetParent)
          .map((c) => c.getBoundingClientRect())
          .filter((r) => r.height < 32 || r.right > box.right + 0.5);
        return {
          width: box.width,
          right: box.right,
          doc: document.documentElement.clientWidth,
          small,
          texts,
          over,
          controls: controls.length,
        };
      }, tag);
      assert.ok(m.right <= m.doc + 0.5 && m.width <= 360, `${tag} fits: ${JSON.stringify(m)}`);
      assert.ok(m.texts > 10);
      assert.deepEqual(m.small, [], `${tag} (${lang}) labels >= 10 px`);
      assert.deepEqual(m.over, [], `${tag} (${lang}) labels inside the figure`);
      assert.equal(m.controls, 0, `${tag} controls >= 32 px tall, inside`);
    }
  }
  assert.deepEqual(phone.problems, []);
  await phone.context.close();
});
