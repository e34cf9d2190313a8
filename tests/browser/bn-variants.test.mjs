// <nl-bn-variants> as a reader uses it: the steps, the chunk size, r_max and
// Switchable Norm's weights by keyboard over their ranges; after each step the
// running statistics traced step by step, the chunks' means and example 1's
// outputs under all five variants against float64 oracles written here from
// the definitions in docs/ops.md, and every sentence against the state. Plus
// hand-derived numbers for the batch this figure draws, the default (early in
// training, where the variants disagree), the language switch and a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-bn-variants';
const fig = onArticlePage(TAG);
const snap = async () => ({
  ...(await fig.snap()),
  ...(await fig.page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    const strips = [...root.querySelectorAll('svg')][2];
    const dots = [...strips.querySelectorAll('circle.pt')];
    const byRow = new Map();
    for (const d of dots.filter((c) => c.classList.contains('faint') && !c.classList.contains('legend')))
      byRow.set(d.getAttribute('cy'), [...(byRow.get(d.getAttribute('cy')) ?? []), d.getAttribute('cx')]);
    return {
      summary: root.querySelector('details.settings > summary').textContent,
      faint: [...byRow.values()],
      trainXs: dots
        .filter((c) => c.classList.contains('train') && !c.classList.contains('legend'))
        .map((c) => c.getAttribute('cx')),
    };
  }, TAG)),
});
const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b}`);
const f3 = (v) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }).format(v);
const L = (v) => `(${v.map(f3).join(', ')})`;
const EPS = 1e-5;
const clip = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const meanOf = (vs) => vs.reduce((a, b) => a + b) / vs.length;
const varOf = (vs) => {
  const m = meanOf(vs);
  return vs.reduce((a, b) => a + (b - m) ** 2, 0) / vs.length;
};
const LOGITS = { equal: [0, 0, 0], in: [2, 0, 0], ln: [0, 2, 0], bn: [0, 0, 2] };

/** Everything the figure shows, from the definitions, for x [8, 2, 3] laid out as state.batch. */
function oracle(s) {
  const at = (n, c, l) => s.batch[(n * 2 + c) * 3 + l];
  const ns = [...Array(8).keys()],
    ls = [0, 1, 2];
  const chan = (c, rows = ns) => rows.flatMap((n) => ls.map((l) => at(n, c, l)));
  const bm = [0, 1].map((c) => meanOf(chan(c))),
    bv = [0, 1].map((c) => varOf(chan(c)));
  const uv = bv.map((v) => (v * 24) / 23);
  // running statistics: from (0, 1), running = 0.9 · running + 0.1 · batch (unbiased variance), once per step
  let rm = [0, 0],
    rv = [1, 1];
  for (let t = 0; t < s.steps; t++) {
    rm = rm.map((m, c) => 0.9 * m + 0.1 * bm[c]);
    rv = rv.map((v, c) => 0.9 * v + 0.1 * uv[c]);
  }
  const size = Number(s.vbs);
  const chunk = ns.slice(0, size);
  const w = LOGITS[s.mix].map(Math.exp),
    z = w.reduce((a, b) => a + b),
    mix = w.map((v) => v / z);
  const ex1 = [...chan(0, [0]), ...chan(1, [0])];
  const out = { train: [], eval: [], ghost: [], renorm: [], switchable: [] };
  for (let c = 0; c < 2; c++)
    for (const l of ls) {
      const x = at(0, c, l);
      const sB = Math.sqrt(bv[c] + EPS),
        sR = Math.sqrt(rv[c] + EPS);
      out.train.push((x - bm[c]) / sB);
      out.eval.push((x - rm[c]) / sR);
      const g = chan(c, chunk);
      out.ghost.push((x - meanOf(g)) / Math.sqrt(varOf(g) + EPS));
      const r = clip(sB / sR, 1 / s.rmax, s.rmax),
        d = clip((bm[c] - rm[c]) / sR, -s.dmax, s.dmax);
      out.renorm.push(((x - bm[c]) / sB) * r + d);
      // Switchable: IN over example 1's channel c (3 positions), LN over example 1's 6 numbers, BN over channel c's 24
      const inV = chan(c, [0]);
      const mean = mix[0] * meanOf(inV) + mix[1] * meanOf(ex1) + mix[2] * bm[c];
      const variance = mix[0] * varOf(inV) + mix[1] * varOf(ex1) + mix[2] * bv[c];
      out.switchable.push((x - mean) / Math.sqrt(variance + EPS));
    }
  const chunks = [];
  for (let f = 0; f < 8; f += size) {
    const rows = ns.slice(f, f + size);
    chunks.push({ first: f + 1, last: f + size, mean: [0, 1].map((c) => meanOf(chan(c, rows))) });
  }
  return { bm, bv, uv, rm, rv, out, mix, chunks, inMean: meanOf(chan(0, [0])), lnMean: meanOf(ex1) };
}

function check(sn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  assert.deepEqual(sn.bad, [], where);
  const o = oracle(s);
  o.bm.forEach((v, c) => close(s.batchMean[c], v, 1e-5, `${where} batch mean`));
  o.uv.forEach((v, c) => close(s.unbiasedVar[c], v, 1e-4, `${where} unbiased variance`));
  o.rm.forEach((v, c) => close(s.running.mean[c], v, 1e-4, `${where} running mean`));
  o.rv.forEach((v, c) => close(s.running.var[c], v, 1e-4, `${where} running variance`));
  assert.equal(s.trace.mean.length, s.steps + 1, `${where}: a point per step and the start`);
  assert.deepEqual(s.trace.mean[0], [0, 0]);
  assert.deepEqual(s.trace.var[0], [1, 1]);
  assert.equal(s.chunks.length, o.chunks.length, where);
  o.chunks.forEach((ch, i) => {
    assert.equal(s.chunks[i].first, ch.first, where);
    assert.equal(s.chunks[i].last, ch.last, where);
    ch.mean.forEach((v, c) => close(s.chunks[i].mean[c], v, 1e-5, `${where} chunk ${i} mean`));
  });
  for (const k of Object.keys(o.out))
    o.out[k].forEach((v, i) => close(s.outputs[k][i], v, 2e-4, `${where} ${k}[${i}]`));
  o.mix.forEach((v, i) => close(s.weights[i], v, 1e-6, `${where} weights`));
  // the text follows example 1's channel 1 (its first three outputs) through every variant
  const one = (k) => L(s.outputs[k].slice(0, 3));
  assert.ok(
    sn.desc.startsWith(
      `BatchNorm in training pools each channel of the 8 examples over its 24 numbers (channel 1's mean is ${f3(s.batchMean[0])}), so example 1's channel 1, (1, 2, 3), becomes ${one('train')}.`,
    ),
    `${where}: ${sn.desc}`,
  );
  assert.ok(
    sn.desc.includes(
      s.steps === 0
        ? `no training step has run yet, so they are still mean (0, 0) and variance (1, 1), and it gives ${one('eval')}.`
        : `after ${s.steps} steps they are mean ${L(s.running.mean)} and variance ${L(s.running.var)}, so it gives ${one('eval')}.`,
    ),
    `${where}: running`,
  );
  assert.ok(
    sn.desc.includes(
      s.vbs === '8'
        ? `Ghost BN with a chunk of 8 uses the whole batch, as BatchNorm does: ${one('ghost')}.`
        : `Ghost BN uses example 1's own chunk, examples 1 to ${s.vbs} (channel 1's mean there is ${f3(s.chunks[0].mean[0])}): ${one('ghost')}.`,
    ),
    `${where}: ghost`,
  );
  // which limit clips, from the definitions: r = σ_B/σ outside [1/r_max, r_max], |d| = |μ_B − μ|/σ above d_max
  const sB = o.bv.map((v) => Math.sqrt(v + EPS)),
    sR = o.rv.map((v) => Math.sqrt(v + EPS));
  const rRatio = [0, 1].map((c) => sB[c] / sR[c]),
    dShift = [0, 1].map((c) => Math.abs(o.bm[c] - o.rm[c]) / sR[c]);
  const rClips = rRatio.some((r) => r > s.rmax + 1e-4 || r < 1 / s.rmax - 1e-4);
  const dClips = dShift.some((d) => d > s.dmax + 1e-4);
  // at a limit itself rounding may go either way
  const near =
    rRatio.some((r) => Math.abs(r - s.rmax) < 2e-3 || Math.abs(r - 1 / s.rmax) < 2e-3) ||
    dShift.some((d) => Math.abs(d - s.dmax) < 2e-3);
  const R = `r_max = ${f3(s.rmax)}`,
    D = `d_max = ${f3(s.dmax)}`;
  const renorm =
    rClips && dClips
      ? `but ${R} clips the correction of the scale and ${D} that of the mean: `
      : rClips
        ? `but ${R} clips the correction of the scale (${D} clips nothing): `
        : dClips
          ? `but ${D} clips the correction of the mean (${R} clips nothing): `
          : `with ${R} and ${D} nothing is clipped, so it gives what evaluation gives: `;
  if (!near) assert.ok(sn.desc.includes(renorm + `${one('renorm')}.`), `${where}: renorm "${renorm}" in ${sn.desc}`);
  assert.ok(sn.desc.includes(`${one('renorm')}.`), where);
  assert.ok(
    sn.desc.endsWith(
      `Switchable Norm mixes three statistics with weights ${f3(s.weights[0])}, ${f3(s.weights[1])} and ${f3(s.weights[2])}: InstanceNorm's (mean ${f3(o.inMean)} over these 3 positions), LayerNorm's (${f3(o.lnMean)} over example 1's 6 numbers) and BatchNorm's (${f3(o.bm[0])} over the channel's 24). It gives ${one('switchable')}.`,
    ),
    `${where}: switchable`,
  );
  // the picture: one box per chunk, the running panel titled with the steps, a strip per variant
  assert.ok(sn.svg.includes(`Running statistics after ${s.steps} steps`), `${where}: running title`);
  assert.ok(sn.svg.includes(`Ghost BN · ${s.vbs === '8' ? 'one chunk of 8' : `its chunk of ${s.vbs}`}`), where);
  assert.ok(sn.svg.includes(`Batch Renorm · r_max ${f3(s.rmax)}, d_max ${f3(s.dmax)}`), where);
  const mixName = { equal: 'equal', in: 'mostly IN', ln: 'mostly LN', bn: 'mostly BN' }[s.mix];
  assert.equal(
    sn.summary,
    `Settings: ${s.steps} training steps · chunks of ${s.vbs} · r_max ${f3(s.rmax)} · d_max ${f3(s.dmax)} · weights ${mixName}`,
    `${where}: the disclosure's summary says the settings`,
  );
  // BatchNorm in training, faint behind the four other variants: at the same x as the training row's dots
  assert.equal(sn.faint.length, 4, where);
  for (const row of sn.faint) assert.deepEqual(row, sn.trainXs, `${where}: faint dots where training's are`);
}

test('hand-derived: the batch, its chunks, five steps of running statistics and example 1, at the default', async () => {
  const sn = await snap();
  const s = sn.state;
  assert.deepEqual([s.steps, s.vbs, s.rmax, s.dmax, s.mix], [5, '2', 1.2, 5, 'equal'], 'the default');
  // channel 1 sums by example: 6, 15, 3, 12, 21, 21, 9, 21 = 108 over 24 numbers: mean 4.5; channel 2: 522 / 24 = 21.75
  close(s.batchMean[0], 4.5, 1e-6, 'channel 1 mean');
  close(s.batchMean[1], 21.75, 1e-6, 'channel 2 mean');
  // chunks of 2: channel 1 (6 + 15) / 6 = 3.5, (3 + 12) / 6 = 2.5, 42 / 6 = 7, 30 / 6 = 5; channel 2 19, 18, 26, 24
  assert.deepEqual(
    s.chunks.map((c) => c.mean.map((v) => Math.round(v * 1e4) / 1e4)),
    [
      [3.5, 19],
      [2.5, 18],
      [7, 26],
      [5, 24],
    ],
  );
  // running mean after k steps on one batch, from 0 with momentum 0.1: μ (1 − 0.9^k); k = 5: 4.5 · 0.40951 = 1.842795
  close(s.running.mean[0], 1.842795, 1e-5, 'running mean, channel 1');
  close(s.running.mean[1], 8.906843, 1e-4, 'running mean, channel 2: 21.75 · 0.40951');
  // Σx² of channel 1 is 628, so Σ(x − 4.5)² = 628 − 24 · 20.25 = 142; unbiased variance 142 / 23 = 6.173913;
  // running variance 0.9^5 · 1 + 0.40951 · 6.173913 = 0.59049 + 2.528282 = 3.118772
  close(s.running.var[0], 3.118772, 1e-4, 'running variance, channel 1');
  close(s.trace.mean[1][0], 0.45, 1e-6, 'after one step: 0.1 · 4.5');
  // example 1's first number, 1: training (1 − 4.5) / √(142/24) = −1.43889; evaluation (1 − 1.842795) / √3.118772 = −0.47723;
  // Ghost BN over examples 1–2, channel 1 = 1..6: (1 − 3.5) / √(35/12) = −1.46385
  close(s.outputs.train[0], -1.43889, 1e-4, 'training');
  close(s.outputs.eval[0], -0.47723, 1e-4, 'evaluation');
  close(s.outputs.ghost[0], -1.46385, 1e-4, 'Ghost BN');
  // Switchable's components for example 1, channel 1 (1, 2, 3): IN mean 2, LN mean (6 + 60) / 6 = 11, BN mean 4.5
  assert.deepEqual(s.components.in, [2, 20]);
  assert.equal(s.components.ln, 11);
  // the aha: the five disagree here (Batch Renorm clipped: r = 2.4324 / 1.7660 = 1.377 > r_max 1.2)
  const firsts = Object.values(s.outputs).map((v) => f3(v[0]));
  assert.equal(new Set(firsts).size, 5, `five different outputs: ${firsts}`);
  // d = (4.5 − 1.842795) / 1.7660 = 1.505 and, channel 2, (21.75 − 8.906843) / √18.59 = 2.98: under d_max 5
  assert.ok(sn.desc.includes('but r_max = 1.2 clips the correction of the scale (d_max = 5 clips nothing)'), sn.desc);
  assert.deepEqual(s.clipped, { r: true, d: false });
  check(sn, 'default');
});

test('every legend marker is drawn like its series: the same colour, fill and line style', async () => {
  const r = await fig.page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    const look = (e) => {
      const c = getComputedStyle(e);
      return [
        e.localName === 'line' || c.fill === 'none' ? 'no fill' : c.fill,
        c.stroke,
        c.strokeDasharray,
        c.fillOpacity,
      ].join(' '); // a line draws no fill
    };
    const [batch, running, strips] = [...root.querySelectorAll('svg')];
    // a legend marker is the element just before its text
    const marker = (svgEl, text) => {
      const label = [...svgEl.querySelectorAll('text.key')].find((e) => e.textContent === text);
      const m = label?.previousElementSibling;
      return m?.classList.contains('legend') ? look(m) : `no marker before "${text}"`;
    };
    const first = (svgEl, sel) => look([...svgEl.querySelectorAll(sel)].find((e) => !e.classList.contains('legend')));
    return [
      [marker(batch, 'input, channel 1'), first(batch, 'circle.pt.c1')],
      [marker(batch, 'channel 2'), first(batch, 'circle.pt.c2')],
      [marker(batch, 'Ghost BN chunk'), first(batch, 'rect.chunk.mine')],
      [marker(batch, 'its means'), first(batch, 'line.cmean')],
      [marker(batch, 'batch means'), first(batch, 'line.bmean')],
      [marker(batch, 'running means'), first(batch, 'line.rmean')],
      [marker(running, 'channel 1'), first(running, '.trace.c1')],
      [marker(running, 'channel 2'), first(running, '.trace.c2')],
      [marker(running, 'this batch'), first(running, 'line.target')],
      [marker(strips, 'faint: BatchNorm in training'), first(strips, 'circle.pt.faint.c1')],
      // the strip's swatches are the dots' own look: filled and hollow in the training-time colour, grey evaluation
      [marker(strips, 'output, channel 1'), first(strips, 'circle.pt.train.c1')],
      [marker(strips, 'channel 2 (3 positions each)'), first(strips, 'circle.pt.ghost.c2')],
      [marker(strips, 'grey: evaluation'), first(strips, 'circle.pt.eval.c1')],
    ];
  }, TAG);
  for (const [m, series] of r)
    assert.equal(m.replace(/ 1$/, ''), series.replace(/ 1$/, ''), `marker ${m} vs ${series}`);
  // the trace lines' markers are lines (no fill), like the traces
  assert.deepEqual(fig.problems, []);
});

test('the settings sit in a disclosure: open on a wide screen, closed on a phone, the picture first', async () => {
  const page = fig.page;
  const open = await page.evaluate(
    (t) => document.querySelector(t).shadowRoot.querySelector('details.settings').open,
    TAG,
  );
  assert.equal(open, true, 'open at 1280 px');
  await page.setViewportSize({ width: 360, height: 740 });
  try {
    const r = await page.evaluate(async (t) => {
      const f = document.createElement(t);
      f.id = 'bn-phone';
      document.querySelector(t).closest('figure').after(f);
      f.scrollIntoView();
      await new Promise((res) => {
        const c = () => (f.state ? res() : setTimeout(c, 25));
        c();
      });
      await new Promise((res) => setTimeout(res, 100));
      const root = f.shadowRoot;
      const d = root.querySelector('details.settings');
      const top = f.getBoundingClientRect().top;
      const out = {
        open: d.open,
        summary: d.querySelector('summary').getBoundingClientRect().height,
        picture: root.querySelector('svg').getBoundingClientRect().top - top,
        controlsShown: [...root.querySelectorAll('input, select')].filter((e) => e.checkVisibility()).length,
      };
      d.querySelector('summary').click();
      await new Promise((res) => setTimeout(res, 50));
      out.afterClick = [...root.querySelectorAll('input, select')].filter((e) => e.checkVisibility()).length;
      f.remove();
      return out;
    }, TAG);
    assert.equal(r.open, false, 'closed on a phone');
    assert.ok(r.summary >= 44, `the summary is a 44 px touch target (${r.summary})`);
    assert.ok(r.picture < 110, `the batch is drawn ${r.picture} px from the figure's top`);
    assert.equal(r.controlsShown, 0);
    assert.equal(r.afterClick, 8, 'a tap opens it: three sliders with their boxes and two selects');
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
  }
  assert.deepEqual(fig.problems, []);
});

test('steps, chunk size, r_max and the weights by keyboard: everything against the definitions', async () => {
  let n = 0;
  const sliders = fig.page.locator(`${TAG} >> input[type=range]`);
  const selects = fig.page.locator(`${TAG} >> select`);
  await sliders.nth(0).focus();
  for (const key of ['Home', 'ArrowRight', 'ArrowRight', 'PageUp', 'End', 'PageDown', 'ArrowLeft']) {
    await fig.page.keyboard.press(key);
    check(await snap(), `steps ${key}`);
    n++;
  }
  for (const k of [0, 1]) {
    await selects.nth(k).focus();
    for (const key of ['Home', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowUp']) {
      await fig.page.keyboard.press(key);
      check(await snap(), `select ${k} ${key}`);
      n++;
    }
  }
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('steps', '2'), TAG); // early: d is clipped at 5
  await sliders.nth(1).focus();
  for (const key of ['Home', 'ArrowRight', 'PageUp', 'PageUp', 'End', 'PageDown', 'ArrowLeft', 'PageDown']) {
    await fig.page.keyboard.press(key);
    check(await snap(), `r_max ${key}`);
    n++;
  }
  // d_max: at step 2 channel 2's shift is (21.75 − 0.19 · 21.75) / √(0.81 + 0.19 · 43.07) = 17.62 / 3.010 = 5.85
  await sliders.nth(2).focus();
  for (const key of ['Home', 'ArrowRight', 'PageUp', 'End', 'PageDown', 'ArrowLeft']) {
    await fig.page.keyboard.press(key);
    check(await snap(), `d_max ${key}`);
    n++;
  }
  assert.ok(n >= 26, `${n} positions`);
  assert.deepEqual(fig.problems, []);
});

test('late in training evaluation and Batch Renorm agree; Chinese words; a bad value keeps the drawing', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('steps', '50');
    f.setAttribute('rmax', '3');
    f.setAttribute('vbs', '8');
  }, TAG);
  let sn = await snap();
  check(sn, 'late');
  // 0.9^50 = 0.00515: the running mean is 4.5 · 0.99485 = 4.47682
  close(sn.state.running.mean[0], 4.47682, 1e-4, 'after 50 steps');
  sn.state.outputs.ghost.forEach((v, i) => close(v, sn.state.outputs.train[i], 1e-5, 'a chunk of 8 is BatchNorm'));
  assert.match(sn.desc, /nothing is clipped, so it gives what evaluation gives/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('steps', '0');
    f.setAttribute('lang', 'zh');
  }, TAG);
  sn = await snap();
  assert.match(sn.desc, /^训练模式下的 BatchNorm 把 8 个 examples 中每个 channel 的 24 个数汇集在一起/);
  assert.match(sn.desc, /还没有训练过一步，它们仍是 mean \(0, 0\)、variance \(1, 1\)/);
  const good = sn.state;
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('vbs', '3'), TAG);
  sn = await snap();
  assert.match(sn.error, /vbs/);
  assert.deepEqual(sn.state.outputs, good.outputs, 'the last good drawing stays');
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('steps', '7.5'), TAG);
  assert.match((await snap()).error, /steps/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    for (const [k, v] of Object.entries({ steps: '5', vbs: '2', rmax: '1.2', dmax: '5', mix: 'equal', lang: 'en' }))
      f.setAttribute(k, v);
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});

test('at 360 px, in both languages, early and late: labels ≥ 10 px, no two labels overlap, controls ≥ 44 px', async () => {
  const page = fig.page;
  await page.setViewportSize({ width: 360, height: 740 });
  try {
    for (const lang of ['en', 'zh'])
      for (const attrs of [
        { steps: '5', vbs: '2', rmax: '1.2', mix: 'equal' },
        { steps: '0', vbs: '4', rmax: '1', mix: 'in' },
        { steps: '50', vbs: '8', rmax: '5', mix: 'bn' },
      ]) {
        const where = `${lang} ${JSON.stringify(attrs)}`;
        await page.evaluate(
          ([t, lang, attrs]) => {
            const f = document.querySelector(t);
            f.setAttribute('lang', lang);
            for (const [k, v] of Object.entries(attrs)) f.setAttribute(k, v);
          },
          [TAG, lang, attrs],
        );
        await page.waitForTimeout(80); // the redraw at the new width
        const r = await page.evaluate((t) => {
          const host = document.querySelector(t),
            root = host.shadowRoot;
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
          const box = host.getBoundingClientRect();
          const outside = boxes.filter(([, b]) => b.right > box.right + 1 || b.left < box.left - 1).map(([s]) => s);
          const tiny = [...root.querySelectorAll('button, select, input, summary')]
            .filter((e) => e.checkVisibility())
            .map((e) => [e.getAttribute('aria-label') ?? e.textContent, e.getBoundingClientRect()])
            .filter(([, b]) => b.height < 44 || b.width < 44)
            .map(([n, b]) => `${n} ${b.width.toFixed(0)}×${b.height.toFixed(0)}`);
          return { small, overlaps, tiny, outside, right: box.right };
        }, TAG);
        assert.deepEqual(r.small, [], `${where}: small labels`);
        assert.deepEqual(r.overlaps, [], `${where}: overlapping labels`);
        assert.deepEqual(r.outside, [], `${where}: labels past the figure's edge`);
        assert.deepEqual(r.tiny, [], `${where}: small touch targets`);
        assert.ok(r.right <= 360.5, `${where}: right edge ${r.right}`);
      }
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.evaluate((t) => {
      const f = document.querySelector(t);
      for (const [k, v] of Object.entries({ steps: '5', vbs: '2', rmax: '1.2', dmax: '5', mix: 'equal', lang: 'en' }))
        f.setAttribute(k, v);
    }, TAG);
  }
  assert.deepEqual(fig.problems, []);
});
