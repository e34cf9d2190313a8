// <nl-bn-variants> as a reader uses it: the default (BatchNorm in training
// against evaluation only, five steps in, where the two disagree), the step
// buttons that add Ghost BN, Batch Renorm and Switchable Norm one at a time
// with their settings, then the steps, the chunk size, r_max and Switchable
// Norm's weights by keyboard over their ranges; after each step the running
// statistics traced step by step, the chunks' means and example 1's outputs
// under all five variants against float64 oracles written here from the
// definitions in docs/ops.md, and every sentence against the state. Plus
// hand-derived numbers for the batch this figure draws, the language switch
// and a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { onArticlePage } from './helpers.mjs';

const TAG = 'nl-bn-variants';
const fig = onArticlePage(TAG);
const snap = async () => ({
  ...(await fig.snap()),
  ...(await fig.page.evaluate((t) => {
    const root = document.querySelector(t).shadowRoot;
    const strips = root.querySelector('svg.variants');
    const dots = [...strips.querySelectorAll('circle.pt')];
    const byRow = new Map();
    for (const d of dots.filter((c) => c.classList.contains('faint') && !c.classList.contains('legend')))
      byRow.set(d.getAttribute('cy'), [...(byRow.get(d.getAttribute('cy')) ?? []), d.getAttribute('cx')]);
    return {
      lede: root.querySelector('[part=lede]').textContent,
      // each row's label: the variant, then the line under it saying where its statistics come from
      rowLabels: [...strips.querySelectorAll('text.vlabel.row')].map(
        (e) => `${e.textContent} · ${e.nextElementSibling.textContent}`,
      ),
      newRow: [...strips.querySelectorAll('text.vlabel.new')].map(
        (e) => `${e.textContent} · ${e.nextElementSibling.textContent}`,
      ),
      pressed: [...root.querySelectorAll('.reveal button[aria-pressed=true]')].map((b) => b.textContent),
      // the settings a reader sees: each control's label text
      settings: [...root.querySelectorAll('label.control')]
        .filter((l) => l.checkVisibility())
        .map((l) => l.firstChild.textContent),
      chunkBoxes: root.querySelectorAll('svg.batch rect.chunk:not(.legend)').length,
      links: [...strips.querySelectorAll('line.link')].map((l) => [l.getAttribute('x1'), l.getAttribute('x2')]),
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
  // the rows each step draws, in order, and the settings it shows (the steps are the comparison's own)
  const rows = {
    bn: ['train', 'eval'],
    ghost: ['train', 'eval', 'ghost'],
    renorm: ['train', 'eval', 'renorm'],
    switchable: ['train', 'eval', 'switchable'],
    all: ['train', 'eval', 'ghost', 'renorm', 'switchable'],
  }[s.show];
  assert.deepEqual(s.rows, rows, where);
  const has = (k) => rows.includes(k);
  // the description follows example 1's channel 1 (its first three outputs) through the rows shown, one sentence each
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
        : `at step ${s.steps} they are mean ${L(s.running.mean)} and variance ${L(s.running.var)}, so it gives ${one('eval')}.`,
    ),
    `${where}: running`,
  );
  const ghostText =
    s.vbs === '8'
      ? `Ghost BN with a chunk of 8 uses the whole batch, as BatchNorm does: ${one('ghost')}.`
      : `Ghost BN uses example 1's own chunk, examples 1 to ${s.vbs} (channel 1's mean there is ${f3(s.chunks[0].mean[0])}): ${one('ghost')}.`;
  assert.equal(sn.desc.includes(ghostText), has('ghost'), `${where}: ghost`);
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
  if (has('renorm') && !near)
    assert.ok(sn.desc.includes(renorm + `${one('renorm')}.`), `${where}: renorm "${renorm}" in ${sn.desc}`);
  assert.equal(sn.desc.includes(`Batch Renorm corrects`), has('renorm'), where);
  const switchText = `Switchable Norm mixes three statistics with weights ${f3(s.weights[0])}, ${f3(s.weights[1])} and ${f3(s.weights[2])}: InstanceNorm's (mean ${f3(o.inMean)} over these 3 positions), LayerNorm's (${f3(o.lnMean)} over example 1's 6 numbers) and BatchNorm's (${f3(o.bm[0])} over the channel's 24). It gives ${one('switchable')}.`;
  assert.equal(sn.desc.endsWith(switchText), has('switchable'), `${where}: switchable`);
  // the step's sentence: what its variant changes, on example 1's first number, with the numbers of the state
  const first = (k) => f3(s.outputs[k][0]);
  const lede = {
    bn: [
      `In training BatchNorm uses this batch's statistics (channel 1's mean ${f3(o.bm[0])}): example 1's first number, 1, becomes ${first('train')}.`,
      s.steps === 0
        ? `still at their start (mean 0, variance 1) before any training step, so the same 1 becomes ${first('eval')}.`
        : `at step ${s.steps} their mean is ${f3(o.rm[0])}, not yet ${f3(o.bm[0])}, so the same 1 becomes ${first('eval')}.`,
    ],
    ghost: [
      s.vbs === '8'
        ? `With chunks of 8 the one chunk is the whole batch, so Ghost BN gives what BatchNorm in training gives: ${first('ghost')}.`
        : `example 1's chunk, examples 1 to ${s.vbs}, has channel 1's mean ${f3(o.chunks[0].mean[0])} instead of the batch's ${f3(o.bm[0])}, so 1 becomes ${first('ghost')} where BatchNorm in training gives ${first('train')}.`,
    ],
    renorm: [
      'Batch Renorm trains with the batch statistics corrected toward the running ones',
      `so 1 becomes ${first('renorm')}`,
    ],
    switchable: [
      `weights ${f3(o.mix[0])}, ${f3(o.mix[1])} and ${f3(o.mix[2])} on InstanceNorm's (mean ${f3(o.inMean)} over example 1's 3 positions), LayerNorm's (${f3(o.lnMean)} over its 6 numbers) and BatchNorm's (${f3(o.bm[0])}). So 1 becomes ${first('switchable')} where BatchNorm in training gives ${first('train')}.`,
    ],
    all: [
      `training ${first('train')}, evaluation ${first('eval')}, Ghost BN ${first('ghost')}, Batch Renorm ${first('renorm')}, Switchable Norm ${first('switchable')}.`,
    ],
  }[s.show];
  for (const part of lede) assert.ok(sn.lede.includes(part), `${where}: "${part}" in the step's sentence "${sn.lede}"`);
  if (s.show === 'renorm' && !near)
    assert.ok(
      sn.lede.includes(
        rClips || dClips
          ? `, so 1 becomes ${first('renorm')}: training gives ${first('train')}, evaluation ${first('eval')}.`
          : `exactly what evaluation gives.`,
      ),
      `${where}: ${sn.lede}`,
    );
  // the picture: the running panel titled with the steps, a strip per row shown with its label, the one row this
  // step adds in bold, and Ghost BN's chunks drawn only with its row
  assert.ok(sn.svg.includes(`Running statistics at step ${s.steps}`), `${where}: running title`);
  const label = {
    train: "BatchNorm, training · this batch's statistics",
    eval: 'BatchNorm, evaluation · running statistics',
    ghost: `Ghost BN · ${s.vbs === '8' ? 'one chunk of 8' : `its chunk of ${s.vbs}`}`,
    renorm: `Batch Renorm · r_max ${f3(s.rmax)}, d_max ${f3(s.dmax)}`,
    switchable: `Switchable Norm · weights ${s.weights.map((w) => new Intl.NumberFormat('en-US', { maximumSignificantDigits: 2 }).format(w)).join(', ')}`,
  };
  assert.deepEqual(
    sn.rowLabels,
    rows.map((k) => label[k]),
    `${where}: the strips`,
  );
  assert.deepEqual(sn.newRow, ['bn', 'all'].includes(s.show) ? [] : [label[s.show]], `${where}: the added row`);
  assert.equal(sn.chunkBoxes, has('ghost') ? o.chunks.length : 0, `${where}: Ghost BN's chunks`);
  const settings = {
    bn: ['Training steps'],
    ghost: ['Training steps', 'Ghost BN chunk size'],
    renorm: ['Training steps', 'Batch Renorm r_max', 'Batch Renorm d_max'],
    switchable: ['Training steps', 'Switchable Norm weights'],
    all: [
      'Training steps',
      'Ghost BN chunk size',
      'Batch Renorm r_max',
      'Batch Renorm d_max',
      'Switchable Norm weights',
    ],
  }[s.show];
  assert.deepEqual(sn.settings, settings, `${where}: the settings shown`);
  const pressed = {
    bn: 'Train vs eval',
    ghost: '+ Ghost BN',
    renorm: '+ Batch Renorm',
    switchable: '+ Switchable Norm',
    all: 'All',
  };
  assert.deepEqual(sn.pressed, [pressed[s.show]], `${where}: the step pressed`);
  // BatchNorm in training, faint behind every row after evaluation's (evaluation has the joining lines instead):
  // at the same x as the training row's dots, example 1's channel 1, three of them
  assert.equal(sn.faint.length, rows.length - 2, where);
  assert.equal(sn.trainXs.length, 3, `${where}: channel 1's three positions`);
  for (const row of sn.faint) assert.deepEqual(row, sn.trainXs, `${where}: faint dots where training's are`);
  // a line from each of those outputs in training to the same output in evaluation
  assert.equal(sn.links.length, 3, where);
  sn.links.forEach(([x1], i) => assert.equal(x1, sn.trainXs[i], `${where}: link ${i} starts at training's dot`));
}

test('hand-derived: the default compares BatchNorm in training and in evaluation only, five steps in', async () => {
  const sn = await snap();
  const s = sn.state;
  assert.deepEqual([s.show, s.steps, s.vbs, s.rmax, s.dmax, s.mix], ['bn', 5, '2', 1.2, 5, 'equal'], 'the default');
  // one comparison: two strips, the steps its only setting, no chunk drawn
  assert.deepEqual(s.rows, ['train', 'eval']);
  assert.deepEqual(s.settings, ['steps']);
  assert.deepEqual(sn.rowLabels, [
    "BatchNorm, training · this batch's statistics",
    'BatchNorm, evaluation · running statistics',
  ]);
  assert.deepEqual(sn.settings, ['Training steps']);
  assert.equal(sn.chunkBoxes, 0);
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
  // the aha: the same example, two outputs, because the running mean 1.84 is still far from the batch's 4.5
  assert.ok(Math.abs(s.outputs.train[0] - s.outputs.eval[0]) > 0.9, 'training and evaluation differ for example 1');
  s.outputs.train.forEach((v, i) => assert.ok(Math.abs(v - s.outputs.eval[i]) > 0.1, `output ${i} differs`));
  assert.equal(
    sn.lede,
    "Same example, two outputs. In training BatchNorm uses this batch's statistics (channel 1's mean 4.5): example 1's first number, 1, becomes -1.44. " +
      "In evaluation it uses the running statistics, a tenth of the way closer to the batch's at each step: at step 5 their mean is 1.84, not yet 4.5, so the same 1 becomes -0.477.",
  );
  // the description says the two rows drawn, no more
  assert.ok(sn.desc.endsWith('so it gives (-0.477, 0.089, 0.655).'), sn.desc);
  // Switchable's components for example 1, channel 1 (1, 2, 3): IN mean 2, LN mean (6 + 60) / 6 = 11, BN mean 4.5
  assert.deepEqual(s.components.in, [2, 20]);
  assert.equal(s.components.ln, 11);
  // the five disagree here too (Batch Renorm clipped: r = 2.4324 / 1.7660 = 1.377 > r_max 1.2)
  const firsts = Object.values(s.outputs).map((v) => f3(v[0]));
  assert.equal(new Set(firsts).size, 5, `five different outputs: ${firsts}`);
  // d = (4.5 − 1.842795) / 1.7660 = 1.505 and, channel 2, (21.75 − 8.906843) / √18.59 = 2.98: under d_max 5
  assert.deepEqual(s.clipped, { r: true, d: false });
  check(sn, 'default');
});

test('every legend marker is drawn like its series: the same colour, fill and line style', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('show', 'all'), TAG); // every series drawn
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
    const [batch, running, strips] = ['batch', 'running', 'variants'].map((c) => root.querySelector(`svg.${c}`));
    // a legend marker is the element just before its text
    const marker = (svgEl, text) => {
      const label = [...svgEl.querySelectorAll('text.key')].find((e) => e.textContent === text);
      const m = label?.previousElementSibling;
      return m?.classList.contains('legend') ? look(m) : `no marker before "${text}"`;
    };
    const first = (svgEl, sel) => look([...svgEl.querySelectorAll(sel)].find((e) => !e.classList.contains('legend')));
    return [
      [marker(batch, 'channel 1'), first(batch, 'circle.pt.c1')],
      [marker(batch, 'channel 2 (3 positions each)'), first(batch, 'circle.pt.c2')],
      [marker(batch, 'Ghost BN chunk'), first(batch, 'rect.chunk.mine')],
      [marker(batch, 'its means'), first(batch, 'line.cmean')],
      [marker(batch, 'batch means'), first(batch, 'line.bmean')],
      [marker(batch, 'running means'), first(batch, 'line.rmean')],
      [marker(running, 'running statistic'), first(running, '.trace')],
      [marker(running, "this batch's statistic"), first(running, 'line.target')],
      // one style per kind across the two panels: this batch's statistic as the batch's means, running as running
      [first(running, 'line.target').replace(/ \S+$/, ''), first(batch, 'line.bmean').replace(/ \S+$/, '')],
      [
        first(running, '.trace').split(' ').slice(1, -1).join(' '),
        first(batch, 'line.rmean').split(' ').slice(1, -1).join(' '),
      ],
      [marker(strips, 'faint: training'), first(strips, 'circle.pt.faint.c1')],
      [marker(strips, "example 1's first number"), first(strips, 'circle.ring')],
      // the batch's ring is the strips' one, keyed once, there
      [first(batch, 'circle.ring'), first(strips, 'circle.ring')],
      // the strips have no swatch for their colours: each row's label is drawn in its dots' colour
      ...['train', 'eval', 'ghost', 'renorm', 'switchable'].map((k) => [
        getComputedStyle(strips.querySelector(`text.vlabel.row.${k}`)).fill,
        getComputedStyle(strips.querySelector(`circle.pt.${k}`)).fill,
      ]),
    ];
  }, TAG);
  const labelFill = await fig.page.evaluate((t) => {
    const strips = document.querySelector(t).shadowRoot.querySelector('svg.variants');
    return ['train', 'eval'].map((k) => getComputedStyle(strips.querySelector(`text.vlabel.row.${k}`)).fill);
  }, TAG);
  assert.notEqual(labelFill[0], labelFill[1], 'training and evaluation are told apart by colour');
  await fig.page.evaluate((t) => document.querySelector(t).removeAttribute('show'), TAG);
  for (const [m, series] of r)
    assert.equal(m.replace(/ 1$/, ''), series.replace(/ 1$/, ''), `marker ${m} vs ${series}`);
  // the trace lines' markers are lines (no fill), like the traces
  assert.deepEqual(fig.problems, []);
});

test('the running statistics: a plot per statistic and channel, each on its own scale, the trace heading for its batch value', async () => {
  for (const steps of [5, 50]) {
    await fig.page.evaluate(([t, k]) => document.querySelector(t).setAttribute('steps', String(k)), [TAG, steps]);
    const subs = await fig.page.evaluate((t) => {
      const running = document.querySelector(t).shadowRoot.querySelector('svg.running');
      return [...running.querySelectorAll('g.sub')].map((g) => {
        const grid = [...g.querySelectorAll('g.axis line')].map((l) => Number(l.getAttribute('y1')));
        const target = g.querySelector('line.target');
        const pts = [
          ...g
            .querySelector('.trace')
            .getAttribute('d')
            .matchAll(/[ML]([\d.-]+),([\d.-]+)/g),
        ].map((m) => [Number(m[1]), Number(m[2])]);
        return {
          stat: g.dataset.stat,
          channel: g.dataset.channel,
          top: Math.min(...grid),
          bottom: Math.max(...grid),
          target: Number(target.getAttribute('y1')),
          start: pts[0][1],
          end: pts[pts.length - 1][1],
        };
      });
    }, TAG);
    const { state } = await fig.snap();
    assert.deepEqual(
      subs.map((g) => `${g.stat} ${g.channel}`),
      ['mean 1', 'mean 2', 'var 1', 'var 2'],
    );
    for (const g of subs) {
      const where = `steps ${steps}, ${g.stat} of channel ${g.channel}`;
      const h = g.bottom - g.top;
      // on its own scale the batch value sits in the upper part of the plot, not flat at the bottom: channel 1's
      // batch mean 4.5 on channel 2's scale (to 30) sat 15% up its plot
      assert.ok(g.bottom - g.target > 0.5 * h, `${where}: the batch line ${g.target} in [${g.top}, ${g.bottom}]`);
      assert.ok(g.target >= g.top - 0.5, `${where}: the batch line inside the plot`);
      // the trace moves toward it: its end is nearer the batch line than its start
      assert.ok(
        Math.abs(g.end - g.target) < Math.abs(g.start - g.target),
        `${where}: ${g.start} → ${g.end}, batch ${g.target}`,
      );
    }
    // the statistics themselves (0.1 of the way each step from PyTorch's start): after 50 steps 1 − 0.9⁵⁰ = 99.5% there
    if (steps === 50)
      close(state.running.mean[0], 4.5 * (1 - 0.9 ** 50), 1e-4, 'channel 1 running mean after 50 steps');
  }
  await fig.page.evaluate((t) => document.querySelector(t).removeAttribute('steps'), TAG);
});

test('the strips draw channel 1 only, three dots a row, and no line crosses a label, at 1280 and 360 px', async () => {
  const page = fig.page;
  // the strips follow example 1's channel 1, (1, 2, 3): one dot per position, so 3 a row, and 3 faint ones of
  // BatchNorm in training on each row after evaluation's; the joining lines run from training's strip to
  // evaluation's, where no text is (the labels sit left of the strips, the tick labels under the last one)
  const rowsOf = { bn: 2, ghost: 3, renorm: 3, switchable: 3, all: 5 };
  try {
    for (const width of [1280, 360]) {
      await page.setViewportSize({ width, height: 740 });
      for (const lang of ['en', 'zh'])
        for (const show of Object.keys(rowsOf)) {
          const where = `${width} px ${lang} ${show}`;
          await page.evaluate(
            ([t, lang, show]) => {
              const f = document.querySelector(t);
              f.setAttribute('lang', lang);
              f.setAttribute('show', show);
            },
            [TAG, lang, show],
          );
          await page.waitForTimeout(80); // the redraw at the new width
          const r = await page.evaluate((t) => {
            const strips = document.querySelector(t).shadowRoot.querySelector('svg.variants');
            const dots = [...strips.querySelectorAll('circle.pt:not(.legend)')];
            const count = (sel) => {
              const byRow = {};
              for (const d of dots.filter((c) => c.matches(sel)))
                byRow[d.getAttribute('cy')] = (byRow[d.getAttribute('cy')] ?? 0) + 1;
              return Object.values(byRow);
            };
            const ctm = strips.getScreenCTM();
            const at = (x, y) => new DOMPoint(x, y).matrixTransform(ctm);
            const texts = [...strips.querySelectorAll('text')]
              .filter((e) => e.textContent.trim())
              .map((e) => [e.textContent, e.getBoundingClientRect()]);
            // a segment against a box (Liang–Barsky): does any part of it lie inside?
            const crosses = (p, q, b) => {
              let t0 = 0,
                t1 = 1;
              const dx = q.x - p.x,
                dy = q.y - p.y;
              for (const [pp, qq] of [
                [-dx, p.x - b.left],
                [dx, b.right - p.x],
                [-dy, p.y - b.top],
                [dy, b.bottom - p.y],
              ]) {
                if (pp === 0) {
                  if (qq < 0) return false;
                } else {
                  const u = qq / pp;
                  if (pp < 0) t0 = Math.max(t0, u);
                  else t1 = Math.min(t1, u);
                }
              }
              return t0 < t1;
            };
            const hits = [];
            for (const l of strips.querySelectorAll('line')) {
              const n = (a) => parseFloat(l.getAttribute(a));
              const p = at(n('x1'), n('y1')),
                q = at(n('x2'), n('y2'));
              for (const [text, b] of texts)
                if (crosses(p, q, b)) hits.push(`${l.getAttribute('class') ?? 'grid'} × "${text}"`);
            }
            return {
              classes: [...new Set(dots.flatMap((d) => [...d.classList].filter((c) => /^c\d$/.test(c))))],
              shown: count(':not(.faint)'),
              faint: count('.faint'),
              links: strips.querySelectorAll('line.link').length,
              hits,
            };
          }, TAG);
          assert.deepEqual(r.classes, ['c1'], `${where}: channel 1 only`);
          assert.deepEqual(r.shown, Array(rowsOf[show]).fill(3), `${where}: three dots a row`);
          assert.deepEqual(r.faint, Array(rowsOf[show] - 2).fill(3), `${where}: faint training behind the variants`);
          assert.equal(r.links, 3, `${where}: a joining line per position`);
          assert.deepEqual(r.hits, [], `${where}: lines across labels`);
        }
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.evaluate((t) => {
      const f = document.querySelector(t);
      f.setAttribute('lang', 'en');
      f.removeAttribute('show');
    }, TAG);
  }
  assert.deepEqual(fig.problems, []);
});

test('the step buttons add one variant at a time, each with its row, its setting and its sentence', async () => {
  const page = fig.page;
  const changes = await page.evaluate((t) => {
    const f = document.querySelector(t);
    f._changes = 0;
    f.addEventListener('change', () => f._changes++);
    return f._changes;
  }, TAG);
  assert.equal(changes, 0);
  const f3x = (v) => f3(v);
  // at the default settings (5 steps, chunks of 2, r_max 1.2, d_max 5, equal weights), by hand:
  // Ghost BN, examples 1–2 of channel 1 = 1..6: mean 3.5, (1 − 3.5) / √(35/12) = −1.46385;
  // Batch Renorm: r = 2.43242 / 1.76601 = 1.377 clipped to 1.2, d = (4.5 − 1.842795) / 1.76601 = 1.50464, so
  // −1.43889 · 1.2 + 1.50464 = −0.22203; Switchable with weights 1/3: mean (2 + 11 + 4.5) / 3 = 5.83333, variance
  // (2/3 + 688/6 + 142/24) / 3 = 40.41667 (example 1's six numbers 1, 2, 3, 10, 20, 30 have Σ(x − 11)² = 688), so
  // (1 − 5.83333) / √40.41667 = −0.76027
  const expected = {
    ghost: [
      'Ghost BN',
      'Ghost BN chunk size',
      -1.46385,
      `has channel 1's mean 3.5 instead of the batch's 4.5, so 1 becomes ${f3x(-1.46385)} where BatchNorm in training gives -1.44.`,
    ],
    renorm: [
      'Batch Renorm',
      'Batch Renorm r_max',
      -0.22203,
      `Here r_max = 1.2 clips the correction of the scale (d_max = 5 clips nothing), so 1 becomes ${f3x(-0.22203)}: training gives -1.44, evaluation -0.477.`,
    ],
    switchable: [
      'Switchable Norm',
      'Switchable Norm weights',
      -0.76027,
      `weights 0.333, 0.333 and 0.333 on InstanceNorm's (mean 2 over example 1's 3 positions), LayerNorm's (11 over its 6 numbers) and BatchNorm's (4.5). So 1 becomes ${f3x(-0.76027)} where BatchNorm in training gives -1.44.`,
    ],
  };
  let n = 0;
  for (const [show, button] of [
    ['ghost', '+ Ghost BN'],
    ['renorm', '+ Batch Renorm'],
    ['switchable', '+ Switchable Norm'],
    ['all', 'All'],
    ['bn', 'Train vs eval'],
  ]) {
    await page.locator(TAG).getByRole('button', { name: button, exact: true }).click();
    const sn = await snap();
    assert.equal(sn.state.show, show, button);
    assert.equal(await page.evaluate((t) => document.querySelector(t).getAttribute('show'), TAG), show, 'reflected');
    assert.equal(await page.evaluate((t) => document.querySelector(t)._changes, TAG), ++n, 'a change event per press');
    check(sn, `step ${show}`);
    if (expected[show]) {
      const [row, setting, value, sentence] = expected[show];
      // one row more than the comparison, in bold, and one setting more than the steps
      assert.equal(sn.rowLabels.length, 3, show);
      assert.ok(sn.newRow[0].startsWith(`${row} · `), `${show}: ${sn.newRow}`);
      assert.deepEqual(sn.settings, [
        'Training steps',
        ...(show === 'renorm' ? [setting, 'Batch Renorm d_max'] : [setting]),
      ]);
      close(sn.state.outputs[show][0], value, 1e-4, `${show}: example 1's first output`);
      assert.ok(sn.lede.includes(sentence), `${show}: ${sn.lede}`);
    }
  }
  assert.equal((await snap()).rowLabels.length, 2, 'back to the comparison');
  // the keyboard reaches the buttons: Tab from the first, Enter presses
  await page.locator(TAG).getByRole('button', { name: 'Train vs eval', exact: true }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal((await snap()).state.show, 'ghost');
  // Chinese: the buttons and the sentence
  await page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'zh'), TAG);
  let sn = await snap();
  assert.deepEqual(sn.pressed, ['+ Ghost BN']);
  assert.match(sn.lede, /^Ghost BN 把 batch 分成每块 2 个 examples，每块用自己的统计量归一化：/);
  assert.match(sn.lede, /channel 1 的 mean 为 3\.5，而不是整个 batch 的 4\.5/);
  await page.evaluate((t) => {
    const f = document.querySelector(t);
    f.removeAttribute('show');
    f.setAttribute('lang', 'en');
  }, TAG);
  sn = await snap();
  assert.equal(sn.state.show, 'bn');
  assert.deepEqual(fig.problems, []);
});

test('steps, chunk size, r_max and the weights by keyboard: everything against the definitions', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('show', 'all'), TAG); // every setting shown
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
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('show', 'renorm'), TAG);
  check(await snap(), 'renorm after the keys');
  assert.deepEqual(fig.problems, []);
});

test('late in training evaluation and Batch Renorm agree; Chinese words; a bad value keeps the drawing', async () => {
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('steps', '50');
    f.setAttribute('rmax', '3');
    f.setAttribute('vbs', '8');
    f.setAttribute('show', 'all');
  }, TAG);
  let sn = await snap();
  check(sn, 'late');
  // and the comparison alone, late: the two outputs come together but stay apart (the running variance is the
  // unbiased one, 24/23 of the batch's): (1 − 4.47682) / √(0.9^50 + 0.99485 · 6.173913) = −1.40232 against −1.43889
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('show', 'bn'), TAG);
  sn = await snap();
  check(sn, 'late, the comparison');
  close(sn.state.outputs.eval[0], -1.40232, 1e-4, 'evaluation after 50 steps');
  assert.ok(sn.lede.includes('at step 50 their mean is 4.48, not yet 4.5, so the same 1 becomes -1.4.'), sn.lede);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('show', 'all'), TAG);
  sn = await snap();
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
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('show', 'batch'), TAG);
  assert.match((await snap()).error, /show/);
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    for (const [k, v] of Object.entries({ steps: '5', vbs: '2', rmax: '1.2', dmax: '5', mix: 'equal', lang: 'en' }))
      f.setAttribute(k, v);
    f.removeAttribute('show');
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
        { show: 'bn', steps: '5', vbs: '2', rmax: '1.2', mix: 'equal' },
        { show: 'ghost', steps: '5', vbs: '2', rmax: '1.2', mix: 'equal' },
        { show: 'renorm', steps: '1', vbs: '4', rmax: '1.2', mix: 'equal' },
        { show: 'switchable', steps: '5', vbs: '2', rmax: '1.2', mix: 'ln' },
        { show: 'all', steps: '5', vbs: '2', rmax: '1.2', mix: 'equal' },
        { show: 'all', steps: '0', vbs: '4', rmax: '1', mix: 'in' },
        { show: 'bn', steps: '0', vbs: '4', rmax: '1', mix: 'in' },
        { show: 'all', steps: '50', vbs: '8', rmax: '5', mix: 'bn' },
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
      f.removeAttribute('show');
    }, TAG);
  }
  assert.deepEqual(fig.problems, []);
});
