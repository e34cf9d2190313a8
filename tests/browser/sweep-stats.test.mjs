// Sweeps of <nl-batch-dependence> and <nl-softmax-sharpness>:
// every control driven through its range (10 to 12 positions: both ends, the
// ties and a sample between, by keyboard, clicks or the box), and after each position every sentence the figure writes checked
// against the state it came from, by rules written here. Expected numbers are
// derived by hand (or by the small reference formulas below), never read from
// the code under test. Plus bad attributes and a 360 px phone check (of <nl-adaln> too).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openPage, setup, shotsDir } from './helpers.mjs';

let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
});
after(() => env.close());

// The digits each quantity is printed with (the figures' documented formatters).
const nf = new Map();
const fmt = (v, digits, lang = 'en') => {
  const key = `${lang}:${digits}`;
  if (!nf.has(key))
    nf.set(key, new Intl.NumberFormat(lang === 'zh' ? 'zh-CN' : 'en-US', { maximumSignificantDigits: digits }));
  return nf.get(key).format(v);
};
// a softmax weight as printed: 5 significant digits, below 0.001 a power of ten (4.5398 × 10⁻⁵)
const SUP = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
const fmtW = (v) => {
  if (v === 0 || Math.abs(v) >= 1e-3) return fmt(v, 5);
  const [m, e] = v.toExponential(4).split('e');
  const power = `10${[...String(Number(e))].map((c) => SUP[c]).join('')}`;
  return Number(m) === 1 ? power : `${Number(m)} × ${power}`;
};
const list = (vs, d) => `(${vs.map((v) => fmt(v, d)).join(', ')})`;
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg ?? ''}: ${a} vs ${b}`);

async function ready(tag, attrs = {}) {
  await page.locator(tag).scrollIntoViewIfNeeded();
  await page.waitForFunction((t) => document.querySelector(t)?.state, tag);
  await page.evaluate(
    ([t, a]) => {
      const f = document.querySelector(t);
      f.setAttribute('lang', 'en');
      for (const [k, v] of Object.entries(a)) f.setAttribute(k, v);
    },
    [tag, attrs],
  );
  return page.locator(tag);
}
/** state, description, readout lines and every SVG attribute value of a figure. */
const snap = (tag) =>
  page.evaluate((t) => {
    const f = document.querySelector(t);
    const r = f.shadowRoot;
    const attrs = [];
    for (const n of r.querySelectorAll('svg *'))
      for (const a of n.attributes) attrs.push(`${n.tagName}.${a.name}=${a.value}`);
    return {
      state: JSON.parse(JSON.stringify(f.state)),
      desc: r.querySelector('[part=description]').textContent,
      error: r.querySelector('[part=error]').textContent,
      numbers: [...r.querySelectorAll('.numbers')].map((p) => p.textContent).join('\n'),
      svgText: [...r.querySelectorAll('svg text')].map((x) => x.textContent).join('|'),
      attrs,
    };
  }, tag);
const noNaN = (snapshot, where) => {
  const bad = snapshot.attrs.filter((a) => /NaN|Infinity|undefined/.test(a));
  assert.deepEqual(bad, [], `${where}: SVG attributes with NaN`);
};

// ---- softmax sharpness ------------------------------------------------------------
function checkSoftmax(sn, where) {
  const s = sn.state;
  const n = s.weights.length;
  noNaN(sn, where);
  // leaders as printed: weights with the same 5 digits as the largest
  let top = 0;
  for (let i = 1; i < n; i++) if (s.weights[i] > s.weights[top]) top = i;
  const shown = fmtW(s.weights[top]);
  const lead = s.weights.map((w, i) => (fmtW(w) === shown ? i : -1)).filter((i) => i >= 0);
  const w = shown;
  assert.ok(!/stays the most attended/.test(sn.desc), `${where}: old claim`);
  if (lead.length === n) {
    assert.match(
      sn.desc,
      new RegExp(`all ${n} keys tie: each gets weight ${w.replace('.', '\\.')}`),
      `${where}: all tie`,
    );
    assert.ok(!/gets the largest weight/.test(sn.desc), `${where}: a tie names no winner`);
  } else if (lead.length > 1) {
    assert.ok(sn.desc.includes(`tie for the largest weight, ${w} each`), `${where}: some tie ${sn.desc}`);
    assert.ok(!/gets the largest weight/.test(sn.desc.split('.')[0]), `${where}: a tie names no winner`);
  } else {
    assert.ok(sn.desc.includes(`key ${top + 1} gets the largest weight, ${w}.`), `${where}: winner ${sn.desc}`);
  }
  // any exact tie of the top two keys is reported as a tie
  if (n >= 2 && Math.abs(s.weights[0] - s.weights[1]) < 1e-9 && top <= 1)
    assert.match(sn.desc, /tie/, `${where}: |w1 - w2| < 1e-9 must read as a tie`);
  // the weights line prints the same digits
  assert.ok(sn.numbers.includes(`weights (${s.weights.map(fmtW).join(', ')})`), `${where}: weights line`);
  if (n === 2) {
    assert.ok(sn.desc.includes(`gap is ${fmt(s.gap, 4)}:`), `${where}: gap`);
    const w1 = s.weights[0];
    if (w1 >= 0.99 || w1 <= 0.01) assert.match(sn.desc, /flat tail/, `${where}: flat`);
    else if (w1 >= 0.1 && w1 <= 0.9) assert.match(sn.desc, /steep middle/, `${where}: steep`);
    else assert.match(sn.desc, /bending/, `${where}: bend`);
  }
  if (s.factor === 1) assert.match(sn.desc, /This is scale 1/);
  assert.equal(sn.error, '', `${where}: no error`);
}

test('softmax: the factor slider over 0..20 (keyboard to 3 and End, then 5 more positions) with scores (1,0); sentences follow the state', async () => {
  const fig = await ready('nl-softmax-sharpness', { scores: '1,0', factor: '1' });
  const slider = fig.getByRole('slider', { name: 'Query scale' });
  await slider.focus();
  await page.keyboard.press('Home');
  // 0..3 by arrow keys (0.1 a press), 20 by End, a sample between set on the slider: 210 key presses for
  // every whole factor took most of this test
  for (const k of [0, 1, 2, 3, 20, 5, 8, 10, 13, 16]) {
    if (k === 20) await page.keyboard.press('End');
    else if (k > 3) await slider.fill(String(k));
    const sn = await snap('nl-softmax-sharpness');
    close(sn.state.factor, k, 1e-9, 'factor');
    // two keys: w1 = 1 / (1 + e^-k), by hand
    close(sn.state.weights[0], 1 / (1 + Math.exp(-k)), 2e-6, `w1 at ${k}`);
    if (k === 0) {
      assert.deepEqual(sn.state.weights, [0.5, 0.5], 'factor 0: (1,0) -> (0.5, 0.5)');
      assert.match(sn.desc, /every scaled score is 0, so all 2 keys tie: each gets weight 0\.5\./);
    }
    if (k === 1) {
      close(sn.state.weights[0], 0.731059, 1e-6);
      close(sn.state.weights[1], 0.268941, 1e-6);
    }
    if (k === 10) close(sn.state.weights[0], 0.9999546, 1e-6);
    checkSoftmax(sn, `factor ${k}`);
    if (k < 3) for (let j = 0; j < 10; j++) await page.keyboard.press('ArrowRight');
  }
  // the buttons
  await fig.getByRole('button', { name: 'Scale 1', exact: true }).click();
  checkSoftmax(await snap('nl-softmax-sharpness'), 'button 1');
  await fig.getByRole('button', { name: 'Scale 10' }).click();
  checkSoftmax(await snap('nl-softmax-sharpness'), 'button 10');
  assert.deepEqual(problems, []);
});

test('softmax: the number box at 12 factors with tied top scores (1,1,0) and with 12 scores', async () => {
  const fig = await ready('nl-softmax-sharpness', { scores: '1,1,0', factor: '1' });
  const box = fig.getByRole('spinbutton', { name: 'Query scale' });
  const factors = [0, 0.05, 0.3, 0.9, 1, 1.3, 2.5, 5, 8, 12, 16, 20];
  for (const f of factors) {
    await box.fill(String(f));
    await box.press('Enter');
    await box.blur();
    const sn = await snap('nl-softmax-sharpness');
    close(sn.state.factor, f, 1e-12);
    assert.equal(sn.state.weights[0], sn.state.weights[1], 'equal scores, equal weights');
    if (f === 0) assert.match(sn.desc, /all 3 keys tie: each gets weight 0\.33333/);
    else assert.match(sn.desc, /keys 1 and 2 tie for the largest weight/);
    checkSoftmax(sn, `(1,1,0) factor ${f}`);
  }
  await ready('nl-softmax-sharpness', { scores: '3,1,2,0,-1,3,2,1,0,2,1,-2', factor: '2' });
  const sn = await snap('nl-softmax-sharpness');
  assert.equal(sn.state.weights.length, 12);
  checkSoftmax(sn, '12 scores');
  assert.match(sn.desc, /keys 1 and 6 tie/);
  assert.deepEqual(problems, []);
});

test('softmax: bad attributes keep the last good state with a localized message, no NaN, no console error', async () => {
  const fig = await ready('nl-softmax-sharpness', { scores: '1,0', factor: '1' });
  const good = (await snap('nl-softmax-sharpness')).state;
  const cases = [
    [{ scores: '1,2,3,4,5,6,7,8,9,10,11,12,13' }, 'scores takes at most 12 numbers in this figure.'],
    [{ scores: Array(1e5).fill('1').join(',') }, 'scores takes at most 12 numbers in this figure.'],
    [{ scores: Array(2e5).fill('0.5').join(',') }, 'scores takes at most 12 numbers in this figure.'],
    [{ scores: '1,abc' }, 'scores must be a comma-separated list of 2+ numbers (got "1,abc").'],
    [{ scores: '1' }, 'scores must be a comma-separated list of 2+ numbers (got "1").'],
    [{ factor: 'abc' }, 'factor must be a number from 0 to 20 (got "abc").'],
    [{ factor: '-1' }, 'factor must be a number from 0 to 20 (got "-1").'],
  ];
  for (const [attrs, message] of cases) {
    await page.evaluate((a) => {
      const f = document.querySelector('nl-softmax-sharpness');
      for (const [k, v] of Object.entries(a)) f.setAttribute(k, v);
    }, attrs);
    const sn = await snap('nl-softmax-sharpness');
    assert.equal(sn.error, message);
    assert.deepEqual(sn.state.weights, good.weights, 'last good weights kept');
    noNaN(sn, JSON.stringify(attrs).slice(0, 40));
    // back to a good value
    await page.evaluate(() => {
      const f = document.querySelector('nl-softmax-sharpness');
      f.setAttribute('scores', '1,0');
      f.setAttribute('factor', '1');
    });
  }
  await page.evaluate(() => document.querySelector('nl-softmax-sharpness').setAttribute('lang', 'zh'));
  await page.evaluate(() =>
    document.querySelector('nl-softmax-sharpness').setAttribute('scores', '1,2,3,4,5,6,7,8,9,10,11,12,13'),
  );
  assert.equal((await snap('nl-softmax-sharpness')).error, '此图中 scores 最多接受 12 个数。');
  await page.evaluate(() => {
    const f = document.querySelector('nl-softmax-sharpness');
    f.setAttribute('scores', '1,0');
    f.setAttribute('lang', 'en');
  });
  assert.equal((await snap('nl-softmax-sharpness')).error, '');
  void fig;
  assert.deepEqual(problems, []);
});

// ---- batch dependence ------------------------------------------------------------
// Reference BatchNorm (training): (x - mean) / sqrt(biased var + eps), per feature.
const EPS = 1e-5;
function bnTrain(rows) {
  const n = rows.length;
  return [0, 1].map((f) => {
    const col = rows.map((r) => r[f]);
    const mean = col.reduce((a, b) => a + b, 0) / n;
    const v = col.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
    return { mean, var: v, unbiased: (v * n) / (n - 1), out: col.map((x) => (x - mean) / Math.sqrt(v + EPS)) };
  });
}

function checkBatch(sn, where, expectRunning) {
  const s = sn.state;
  noNaN(sn, where);
  assert.equal(sn.error, '', `${where}: no error`);
  const x = s.rows[0][s.chosen];
  // training outputs against the reference
  for (const k of [0, 1]) {
    const ref = bnTrain(s.rows[k]);
    s.train[k].forEach((row, i) =>
      row.forEach((v, f) => close(v, ref[f].out[i], 2e-4, `${where}: train batch ${k + 1} row ${i} f${f}`)),
    );
  }
  // evaluation with the running statistics, the same in both batches
  const ev = x.map((v, f) => (v - s.running.mean[f]) / Math.sqrt(s.running.var[f] + EPS));
  for (const k of [0, 1])
    s.chosenEval[k].forEach((v, f) =>
      close(v, ev[f], 2e-4 * Math.max(1, Math.abs(ev[f])), `${where}: eval batch ${k + 1} f${f}`),
    );
  if (expectRunning)
    expectRunning.mean.forEach((m, f) => {
      close(s.running.mean[f], m, 1e-4 * Math.max(1, Math.abs(m)), `${where}: running mean f${f}`);
      close(
        s.running.var[f],
        expectRunning.var[f],
        1e-4 * Math.max(1, expectRunning.var[f]),
        `${where}: running var f${f}`,
      );
    });
  // sentences
  const xs = list(x, 4);
  const t1 = list(s.chosenTrain[0], 4),
    t2 = list(s.chosenTrain[1], 4);
  const e1 = list(s.chosenEval[0], 4),
    e2 = list(s.chosenEval[1], 4);
  if (t1 === t2) assert.ok(sn.desc.includes(`becomes ${t1} both next to`), `${where}: same training output`);
  else {
    assert.ok(sn.desc.includes(`example ${xs} becomes ${t1} next to`), `${where}: t1 in ${sn.desc}`);
    assert.ok(sn.desc.includes(`and ${t2} next to`), `${where}: t2`);
    assert.match(sn.desc, /depends on its companions/);
  }
  assert.equal(e1, e2, `${where}: evaluation does not depend on the batch`);
  assert.ok(sn.desc.includes(`${e1} in both batches`), `${where}: eval value in ${sn.desc}`);
  const initial = s.running.mean.every((v) => v === 0) && s.running.var.every((v) => v === 1);
  if (initial) {
    assert.match(
      sn.desc,
      /start at mean \(0, 0\) and variance \(1, 1\) before any update, so it returns about the raw input/,
      where,
    );
    if (s.steps > 0)
      assert.match(sn.desc, /With momentum 0, \d+ training steps? left the running statistics unchanged/, where);
  } else {
    assert.ok(!/before any update/.test(sn.desc), `${where}: no initial claim after an update`);
    assert.ok(
      sn.desc.includes(
        `after ${s.steps} training step${s.steps === 1 ? '' : 's'} (mean ${list(s.running.mean, 4)}, variance ${list(s.running.var, 4)})`,
      ),
      `${where}: running stats in ${sn.desc}`,
    );
  }
  // the readout line prints the same numbers
  assert.ok(
    sn.numbers.includes(
      `Example ${xs}: training ${t1} in batch 1, ${t2} in batch 2; evaluation ${e1} in batch 1, ${e2} in batch 2.`,
    ),
    `${where}: readout`,
  );
  assert.ok(
    sn.numbers.includes(`running ones after ${s.steps} training step${s.steps === 1 ? '' : 's'}.`),
    `${where}: table steps`,
  );
  // clipped marks follow the axis
  const [lo, hi] = s.domain;
  const cut = s.clipped.flat(2).some(Boolean);
  assert.equal(
    cut,
    [...s.train.flat(2), ...s.eval.flat(2)].some((v) => v < lo || v > hi),
    `${where}: clipped flags`,
  );
  assert.equal(/drawn cut off/.test(sn.desc), cut, `${where}: cut sentence iff something is cut`);
}

test('batch dependence: the momentum slider at 11 positions (0 to 1 by 0.1), each followed by a training step; sentences follow the state', async () => {
  const fig = await ready('nl-batch-dependence', {
    batch: '1,10,3,20,5,30',
    companions: '-3,16,2,4',
    chosen: '0',
    momentum: '0.1',
  });
  const reset = fig.getByRole('button', { name: 'Reset running statistics' });
  const step1 = fig.getByRole('button', { name: 'Training step on batch 1' });
  await reset.click();
  const domain = (await snap('nl-batch-dependence')).state.domain;
  const slider = fig.getByRole('slider', { name: 'Momentum' });
  await slider.focus();
  await page.keyboard.press('Home');
  for (let k = 0; k <= 20; k += 2) {
    const m = k * 0.05;
    await reset.click();
    let sn = await snap('nl-batch-dependence');
    close(sn.state.momentum, m, 1e-9, 'momentum');
    checkBatch(sn, `m=${m} before`, { mean: [0, 0], var: [1, 1] });
    await step1.click();
    sn = await snap('nl-batch-dependence');
    // one step on the article batch: mean m·(3, 20), variance (1 − m) + m·(4, 100) (unbiased)
    checkBatch(sn, `m=${m} after a step`, { mean: [3 * m, 20 * m], var: [1 - m + 4 * m, 1 - m + 100 * m] });
    assert.deepEqual(sn.state.domain, domain, 'the axis never rescales');
    assert.match(sn.numbers, new RegExp(`running = \\(1 − ${fmt(m, 3).replace('.', '\\.')}\\)`));
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
  }
  assert.deepEqual(problems, []);
});

test('batch dependence: 12 training steps alternating batches, then the example select over every row', async () => {
  const fig = await ready('nl-batch-dependence', {
    batch: '1,10,3,20,5,30',
    companions: '-3,16,2,4',
    chosen: '0',
    momentum: '0.1',
  });
  await fig.getByRole('button', { name: 'Reset running statistics' }).click();
  const stats = [
    bnTrain([
      [1, 10],
      [3, 20],
      [5, 30],
    ]),
    bnTrain([
      [1, 10],
      [-3, 16],
      [2, 4],
    ]),
  ];
  let run = { mean: [0, 0], var: [1, 1] };
  const domain = (await snap('nl-batch-dependence')).state.domain;
  for (let k = 0; k < 12; k++) {
    const b = k % 3 === 2 ? 1 : 0;
    await fig.getByRole('button', { name: `Training step on batch ${b + 1}` }).click();
    run = {
      mean: run.mean.map((v, f) => 0.9 * v + 0.1 * stats[b][f].mean),
      var: run.var.map((v, f) => 0.9 * v + 0.1 * stats[b][f].unbiased),
    };
    const sn = await snap('nl-batch-dependence');
    assert.equal(sn.state.steps, k + 1);
    checkBatch(sn, `step ${k + 1}`, run);
    assert.deepEqual(sn.state.domain, domain, 'the axis never rescales');
  }
  // the example of interest: every row of the batch
  const select = fig.getByRole('combobox', { name: 'Example of interest' });
  assert.deepEqual(await select.locator('option').allTextContents(), ['(1, 10)', '(3, 20)', '(5, 30)']);
  const k = 2 / Math.sqrt(8 / 3);
  for (const [i, expected] of [
    [1, [0, 0]],
    [2, [k, k]],
    [0, [-k, -k]],
  ]) {
    await select.selectOption(String(i));
    const sn = await snap('nl-batch-dependence');
    assert.equal(sn.state.chosen, i);
    sn.state.chosenTrain[0].forEach((v, f) => close(v, expected[f], 1e-4, `row ${i}`));
    checkBatch(sn, `chosen ${i}`, run);
    // the frame sits on the chosen example's label
    const bold = await fig.locator('svg text.chosen').first().textContent();
    assert.equal(
      bold,
      list(
        [
          [1, 10],
          [3, 20],
          [5, 30],
        ][i],
        4,
      ),
    );
  }
  assert.deepEqual(problems, []);
});

test('batch dependence: bad attributes keep the last good state with a localized message', async () => {
  await ready('nl-batch-dependence', {
    batch: '1,10,3,20,5,30',
    companions: '-3,16,2,4',
    chosen: '0',
    momentum: '0.1',
  });
  const good = (await snap('nl-batch-dependence')).state;
  const cases = [
    [{ batch: Array(18).fill('1').join(',') }, 'batch takes at most 16 numbers in this figure.'],
    [{ batch: Array(1e5).fill('2').join(',') }, 'batch takes at most 16 numbers in this figure.'],
    [{ batch: '1,10,3,20,5' }, 'batch must list pairs of numbers, two features per example (got "1,10,3,20,5").'],
    [{ batch: '1,x,3,20' }, 'batch must be a comma-separated list of 4+ numbers (got "1,x,3,20").'],
    [{ companions: '1,2,3' }, 'companions must list pairs of numbers, two features per example (got "1,2,3").'],
    [{ chosen: '5' }, 'chosen (5) must name a row of the batch, from 0 to 2.'],
    [{ chosen: '1.5' }, 'chosen must be a number from 0 to 7 (got "1.5").'],
    [{ momentum: '2' }, 'momentum must be a number from 0 to 1 (got "2").'],
    [{ momentum: 'NaN' }, 'momentum must be a number from 0 to 1 (got "NaN").'],
  ];
  for (const [attrs, message] of cases) {
    await page.evaluate((a) => {
      const f = document.querySelector('nl-batch-dependence');
      for (const [k, v] of Object.entries(a)) f.setAttribute(k, v);
    }, attrs);
    const sn = await snap('nl-batch-dependence');
    assert.equal(sn.error, message);
    assert.deepEqual(sn.state.train, good.train, 'last good outputs kept');
    noNaN(sn, JSON.stringify(attrs).slice(0, 40));
    // a training step while the input is bad changes nothing and throws nothing
    await page.locator('nl-batch-dependence').getByRole('button', { name: 'Training step on batch 1' }).click();
    assert.deepEqual((await snap('nl-batch-dependence')).state.running, good.running);
    await page.evaluate(() => {
      const f = document.querySelector('nl-batch-dependence');
      f.setAttribute('batch', '1,10,3,20,5,30');
      f.setAttribute('companions', '-3,16,2,4');
      f.setAttribute('chosen', '0');
      f.setAttribute('momentum', '0.1');
    });
  }
  await page.evaluate(() => {
    const f = document.querySelector('nl-batch-dependence');
    f.setAttribute('lang', 'zh');
    f.setAttribute('chosen', '4');
  });
  assert.equal((await snap('nl-batch-dependence')).error, 'chosen（4）必须是 batch 中的一行，从 0 到 2。');
  await page.evaluate(() => {
    const f = document.querySelector('nl-batch-dependence');
    f.setAttribute('chosen', '0');
    f.setAttribute('lang', 'en');
  });
  assert.equal((await snap('nl-batch-dependence')).error, '');
  assert.deepEqual(problems, []);
});

// <nl-adaln> has its own file, tests/browser/adaln.test.mjs; its phone check stays below.

// ---- phones -----------------------------------------------------------------------------
test('360 px: labels >= 10 px, nothing wider than the viewport, controls >= 32 px tall (en and zh)', async () => {
  const {
    page: phone,
    context,
    problems: phoneProblems,
  } = await openPage(env.browser, env.url + 'web/index.html', { viewport: { width: 360, height: 780 } });
  for (const lang of ['en', 'zh']) {
    for (const tag of ['nl-batch-dependence', 'nl-softmax-sharpness', 'nl-adaln']) {
      await phone.locator(tag).scrollIntoViewIfNeeded();
      await phone.waitForFunction((t) => document.querySelector(t)?.state, tag);
      await phone.evaluate(([t, l]) => document.querySelector(t).setAttribute('lang', l), [tag, lang]);
      await phone.waitForTimeout(100);
      const m = await phone.evaluate((t) => {
        const f = document.querySelector(t);
        const r = f.shadowRoot;
        const sizes = [...r.querySelectorAll('svg text')]
          .filter((x) => x.textContent && x.getBBox().width > 0)
          .map((x) => ({ text: x.textContent, px: x.getScreenCTM().a * parseFloat(getComputedStyle(x).fontSize) }));
        const rects = [...r.querySelectorAll('*')].map((e) => e.getBoundingClientRect()).filter((b) => b.width > 0);
        const controls = [...r.querySelectorAll('button, input, select')].map((e) => ({
          what: e.outerHTML.slice(0, 40),
          h: e.getBoundingClientRect().height,
        }));
        return {
          sizes,
          right: Math.max(...rects.map((b) => b.right)),
          fig: f.getBoundingClientRect().right,
          vw: document.documentElement.clientWidth,
          controls,
        };
      }, tag);
      const small = m.sizes.filter((s) => s.px < 10);
      assert.deepEqual(small, [], `${tag} ${lang}: labels under 10 px`);
      assert.ok(m.sizes.length > 5, `${tag}: has labels`);
      assert.ok(m.fig <= m.vw, `${tag} ${lang}: figure right edge ${m.fig} > ${m.vw}`);
      assert.ok(m.right <= m.vw + 0.5, `${tag} ${lang}: content right edge ${m.right} > ${m.vw}`);
      for (const c of m.controls) assert.ok(c.h >= 32, `${tag}: control ${c.what} is ${c.h} px tall`);
      await phone.locator(tag).screenshot({ path: join(shotsDir, `${tag}-360-${lang}.png`) });
    }
  }
  assert.deepEqual(phoneProblems, []);
  await context.close();
});
