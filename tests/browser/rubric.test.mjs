// The figure rubric (docs/figure-rubric.md) against the figures: where the
// rubric says a figure opens in its "aha" state, a fresh element with default
// attributes, and the page's own instance, show the property the rubric names;
// where it says the reader has to act first, the state after that action does.
// Every expected value is derived by hand in the rubric and again in the
// comments here, never read from the figure's code.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cubeGroup, openPage, setup } from './helpers.mjs';

let env, page, problems;
before(async () => {
  env = await setup();
  ({ page, problems } = await openPage(env.browser, env.url + 'web/index.html'));
});
after(() => env.close());

const close = (a, b, tol, msg) => assert.ok(Math.abs(a - b) <= tol, `${msg}: ${a} vs ${b} (tol ${tol})`);
const closeAll = (a, b, tol, msg) => {
  assert.equal(a.length, b.length, `${msg}: length`);
  b.forEach((v, i) => close(a[i], v, tol, `${msg}[${i}]`));
};
const dist = (a, b) => Math.hypot(...a.map((v, i) => v - b[i]));

/** The page's own instance of `tag`, scrolled to and drawn; its state. */
async function pageState(tag) {
  await page.locator(tag).first().scrollIntoViewIfNeeded();
  await page.waitForFunction((t) => document.querySelector(t)?.state && !document.querySelector(t).state.error, tag);
  return page.evaluate((t) => JSON.parse(JSON.stringify(document.querySelector(t).state)), tag);
}

/**
 * A fresh `tag` with only `attrs` set (none: every attribute at its default),
 * placed beside the page's instance so that it is laid out, drawn, read and
 * removed again.
 */
async function freshState(tag, attrs = {}) {
  await pageState(tag); // its code is loaded with the page's instance
  await page.evaluate(
    ([t, a]) => {
      const el = document.createElement(t);
      el.id = 'rubric-fresh';
      for (const [k, v] of Object.entries(a)) el.setAttribute(k, v);
      document.querySelector(t).closest('figure').after(el);
      el.scrollIntoView({ block: 'center' });
    },
    [tag, attrs],
  );
  await page.waitForFunction(() => {
    const s = document.getElementById('rubric-fresh')?.state;
    return s && !s.error;
  });
  return page.evaluate(() => {
    const el = document.getElementById('rubric-fresh');
    const s = JSON.parse(JSON.stringify(el.state));
    el.remove();
    return s;
  });
}

// ---- default = aha: checked on a fresh default element and on the page's instance ----
const AHA = {
  'nl-residual-turn'(st) {
    close(st.small.angle, 45, 1e-4, 'x = (1, 0) plus (0, 1): atan(1/1)');
    close(st.large.angle, (Math.atan(0.1) * 180) / Math.PI, 1e-4, '(10, 0) plus (0, 1): atan(1/10) = 5.7106°');
  },
  'nl-shared-stats'(st) {
    const n = [-1, 0, 1].map((v) => v / Math.sqrt(2 / 3)); // (1, 2, 3): mean 2, population variance 2/3
    closeAll(st.normalized[0], n, 1e-4, 'A normalized');
    closeAll(st.normalized[1], n, 1e-4, 'B normalized (mean 20, variance 200/3: the same vector)');
    closeAll(st.output[0], [2 * n[0], 0, n[2]], 1e-4, 'A with γ = (2, 1, 1)');
    closeAll(st.output[1], [2 * n[0], 0, n[2]], 1e-4, 'B with the same γ');
    assert.equal(st.sameNormalized, true);
    assert.equal(st.sameOutput, true, 'the shared affine step keeps A and B equal');
    assert.deepEqual(
      st.stats.map((s) => s.mean),
      [2, 20],
    );
  },
  'nl-epsilon'(st) {
    assert.equal(Number(st.eps), 1e-5);
    // first spread, going down, whose last coordinate falls below 0.1:
    // inside s/√(2s²/3 + ε): 3e-4 → 0.0946 (1e-3 → 0.306); outside s/(s√(2/3) + ε): 1e-6 → 0.0925 (3e-6 → 0.241)
    const firstBelow = (ys) => st.spreads.find((s, i) => ys[i] < 0.1);
    assert.equal(firstBelow(st.inside), 3e-4, 'ε inside the root takes over at spread 3·10⁻⁴');
    assert.equal(firstBelow(st.outside), 1e-6, 'ε outside only at 10⁻⁶');
    const at = st.spreads.indexOf(1e-4);
    close(st.inside[at], 1e-4 / Math.sqrt(2e-8 / 3 + 1e-5), 1e-5, 'inside at 10⁻⁴ (0.0316)');
    close(st.outside[at], 1e-4 / (1e-4 * Math.sqrt(2 / 3) + 1e-5), 1e-4, 'outside at 10⁻⁴ (1.0911)');
  },
  'nl-norm-geometry'(st) {
    const { x, shifted, scaled } = st.inputs;
    const ln = [-1, 0, 1].map((v) => v / Math.sqrt(2 / 3));
    for (const [name, v] of Object.entries({ x, shifted, scaled }))
      closeAll(v.layer_norm, ln, 1e-4, `LayerNorm of ${name}`);
    assert.ok(dist(x.layer_norm, shifted.layer_norm) < 1e-4, 'LayerNorm of x and x + 100 coincide');
    const l2x = [1, 2, 3].map((v) => v / Math.sqrt(14));
    closeAll(x.l2, l2x, 1e-6, 'L2 of x');
    closeAll(scaled.l2, l2x, 1e-6, 'L2 of 10x: the same point');
    const l2s = [101, 102, 103].map((v) => v / Math.sqrt(31214)); // 101² + 102² + 103² = 31214
    closeAll(shifted.l2, l2s, 1e-5, 'L2 of x + 100');
    close(dist(shifted.l2, x.l2), 0.37732, 1e-4, 'x + 100 moved the L2 point');
    closeAll(
      x.rms_norm,
      [1, 2, 3].map((v) => v / Math.sqrt(14 / 3)),
      1e-5,
      'RMSNorm of x: (1, 2, 3)/√(14/3)',
    );
  },
  'nl-causal-leak'(st) {
    // feature 1 (1, 0, 2, −1, 0.5, 1.5) with the last set to 5: its mean moves from 4/6 to 7.5/6, so BatchNorm moves
    // all five earlier tokens; LayerNorm and RMSNorm look inside each token only
    assert.deepEqual([st.edit, st.value, st.original], [6, 5, 1.5]);
    assert.deepEqual(st.earlierChanged, { batch_norm: 5, layer_norm: 0, rms_norm: 0 });
  },
  'nl-bn-variants'(st) {
    // one comparison by default: BatchNorm in training against evaluation, the other variants behind the steps
    assert.equal(st.show, 'bn');
    assert.deepEqual(st.rows, ['train', 'eval']);
    // channel means of the batch 4.5 and 21.75; from 0, five steps of momentum 0.1 reach μ(1 − 0.9⁵) = 0.40951 μ
    closeAll(st.running.mean, [4.5 * 0.40951, 21.75 * 0.40951], 1e-4, 'running mean after 5 steps');
    // example 1's first number, 1: training (1 − 4.5)/√(142/24) = −1.43889; evaluation, with the running mean
    // 1.842795 and variance 0.9⁵ + 0.40951 · 142/23 = 3.118772, (1 − 1.842795)/√3.118772 = −0.47723
    close(st.outputs.train[0], -1.43889, 1e-4, 'training');
    close(st.outputs.eval[0], -0.47723, 1e-4, 'evaluation');
    st.outputs.train.forEach((v, i) =>
      assert.ok(Math.abs(v - st.outputs.eval[i]) > 0.1, `training and evaluation differ for example 1 [${i}]`),
    );
  },
  'nl-axis-cube'(st) {
    // [B, T, d] = [3, 4, 6]: BatchNorm pools one feature over B·T = 12 cells, LayerNorm one token's 6 features,
    // InstanceNorm one feature of one sequence over its T = 4 tokens, GroupNorm (G = 2) 3 features × 4 tokens = 12
    const sizes = Object.fromEntries(st.multiples.map((m) => [m.method, m.members.length]));
    assert.deepEqual(sizes, { batch_norm: 12, layer_norm: 6, instance_norm: 4, group_norm: 12 });
  },
  'nl-vector-norms'(st) {
    closeAll(st.lengths, [Math.sqrt(10), Math.sqrt(5)], 1e-5, '|a|, |b|');
    close(st.dot, 5, 1e-6, '3·1 + 1·2');
    close(st.cosine, 5 / Math.sqrt(50), 1e-6, 'cosine');
    close(st.angle, 45, 1e-4, 'angle');
    closeAll(st.l2.a, [3 / Math.sqrt(10), 1 / Math.sqrt(10)], 1e-6, 'L2 of a');
    close(Math.hypot(...st.l2.b), 1, 1e-6, 'L2 of b has length 1');
    closeAll(st.l1.a, [0.75, 0.25], 1e-6, 'L1 of a');
    closeAll(st.max.a, [1, 1 / 3], 1e-6, 'max-norm of a');
    close(Math.hypot(...st.scale.a), 2, 1e-5, 'ScaleNorm puts a at length g = 2');
  },
  'nl-l2-jacobian'(st) {
    close(st.norm, 5, 1e-6, '|(3, 4)|');
    close(st.gain, 0.2, 1e-6, '1/|x|');
    closeAll(st.u, [0.6, 0.8], 1e-6, 'u');
    closeAll(st.along, [0.36, 0.48], 1e-6, '(δ·u)u = 0.6·(0.6, 0.8)');
    closeAll(st.across, [0.64, -0.48], 1e-6, 'δ minus its part along x');
    closeAll(st.dy, [0.128, -0.096], 1e-6, 'J·δ = 0.2·(0.64, −0.48)');
  },
  'nl-batch-dependence'(st) {
    // batch 1: means (3, 20), variances 8/3, 200/3; batch 2 with (−3, 16), (2, 4): means (0, 10), variances 14/3, 24
    closeAll(st.chosenTrain[0], [-2 / Math.sqrt(8 / 3), -10 / Math.sqrt(200 / 3)], 1e-4, 'training, batch 1');
    closeAll(st.chosenTrain[1], [1 / Math.sqrt(14 / 3), 0], 1e-4, 'training, batch 2');
    assert.ok(dist(st.chosenTrain[0], st.chosenTrain[1]) > 1, 'the companions change the training output');
    // five steps on batch 1 from mean 0, variance 1 with momentum 0.1: a = 1 − 0.9⁵ = 0.40951 of the way, so mean
    // (3, 20)·a = (1.22853, 8.19020) and variance 0.9⁵ + (4, 100)·a = (2.22853, 41.54149) (unbiased variances 4, 100)
    assert.equal(st.steps, 5);
    closeAll(st.running.mean, [1.22853, 8.1902], 1e-4, 'running mean');
    closeAll(st.running.var, [2.22853, 41.54149], 1e-3, 'running variance');
    // (1 − 1.22853)/√2.22854 = −0.153085, (10 − 8.1902)/√41.54150 = 0.280795: inside the axis, in both batches
    closeAll(st.chosenEval[0], [-0.153085, 0.280795], 1e-4, 'evaluation, batch 1');
    closeAll(st.chosenEval[1], [-0.153085, 0.280795], 1e-4, 'evaluation, batch 2: the same');
    assert.ok(
      st.clipped.flat(2).every((c) => !c),
      'no bar cut off at the axis',
    );
  },
  'nl-dk-scaling'(st) {
    const { dks, raw, scaled, qk_norm } = st.series;
    dks.forEach((d, i) => {
      close(raw[i] / Math.sqrt(d), 1, 0.2, `raw spread at d_k = ${d} over √d_k`);
      close(scaled[i], 1, 0.2, `scaled spread at d_k = ${d}`);
      close(qk_norm[i] / (st.g / Math.sqrt(d)), 1, 0.2, `QK-Norm spread at d_k = ${d} over g/√d_k`);
    });
    close(raw[dks.indexOf(256)] / raw[dks.indexOf(16)], 4, 0.6, 'raw spread: √(256/16) = 4 times wider');
  },
  'nl-qk-norm'(st) {
    const { plain, qk } = st.entropy;
    close(st.maxEntropy, Math.log(16), 1e-5, 'ln 16');
    assert.ok(plain[0] > 0.95 * Math.log(16), `α = ${st.alphas[0]}: nearly uniform (${plain[0]})`);
    for (let i = 1; i < plain.length; i++)
      assert.ok(plain[i] < plain[i - 1], `entropy falls from α = ${st.alphas[i - 1]} to ${st.alphas[i]}`);
    for (const e of qk) close(e, qk[0], 1e-5, 'QK-Norm: the same entropy at every α');
  },
  'nl-prepost-norm'(st) {
    assert.equal(st.d, 16);
    close(st.sqrtD, 4, 1e-6, '√16');
    st.post.norms.slice(1).forEach((n, l) => close(n, 4, 1e-3, `Post-Norm stream after layer ${l + 1}`));
    close(st.finalNorm, 4, 1e-3, 'final norm');
    assert.ok(Math.abs(st.pre.norms.at(-1) - 4) > 1, `Pre-Norm is not held at √d: ${st.pre.norms.at(-1)}`);
  },
  'nl-adaln'(st) {
    // x = (1, −2, 5, 2): mean 1.5, variance 6.25, σ = 2.5
    closeAll(st.normalized, [-0.2, -1.4, 1.4, 0.2], 1e-6, 'LN₀(x)');
    // cat: E's first column (2, 0, 1); SiLU z·σ(z) = (2σ(2), 0, σ(1))
    const sig = (z) => 1 / (1 + Math.exp(-z));
    const cat = st.classes.find((c) => c.name === 'cat');
    close(cat.scale[0], 0.5 * 2 * sig(2) - 0.5 * sig(1), 1e-5, 's₁ of cat (0.515268)');
    close(cat.gate[0], 0.5 * 2 * sig(2) + 0.25, 1e-5, 'g₁ of cat (1.130797)');
    const outs = st.classes.map((c) => c.output);
    for (let i = 0; i < outs.length; i++)
      for (let j = i + 1; j < outs.length; j++)
        assert.ok(dist(outs[i], outs[j]) > 0.1, `classes ${i} and ${j} end apart: ${outs[i]} / ${outs[j]}`);
  },
  'nl-depth-training'(st) {
    close(st.chance, Math.log(2), 1e-6, 'ln 2');
    const v = Object.fromEntries(st.variants.map((x) => [x.placement, x]));
    for (const x of st.variants) assert.equal(x.loss.length, 300, `${x.placement}: the 300 recorded steps`);
    for (const p of ['pre', 'pre_final']) {
      assert.ok(v[p].loss.at(-1) < 0.01 * Math.log(2), `${p} trains: ${v[p].loss.at(-1)}`);
      assert.equal(v[p].accuracy, 1, `${p}: every point right`);
    }
    close(v.post.loss.at(-1), Math.log(2), 0.1, 'Post-Norm near chance');
    assert.ok(!(v.none.loss.at(-1) <= Math.log(2)), `no normalization above chance: ${v.none.loss.at(-1)}`);
    assert.ok(v.pre.actNorm.at(-1) > 4 * v.pre.actNorm[0], 'the Pre-Norm stream grows with depth');
  },
  'nl-code-shapes'(st) {
    const e = Object.fromEntries(st.expressions.map((x) => [x.id, x]));
    assert.equal(st.selected, 'l2-norm');
    assert.deepEqual(
      [e['l2-norm'].shape, e['l2-norm'].symbolic],
      [
        [2, 5, 1],
        ['B', 'T', '1'],
      ],
    );
    assert.deepEqual(e['l2-divide'].shape, [2, 5, 8]);
    assert.deepEqual(
      [e['ada-scale'].shape, e['ada-scale'].symbolic],
      [
        [2, 1, 8],
        ['B', '1', 'd'],
      ],
    );
  },
  'nl-scalers'(st) {
    // nine values 2.1 … 4 and 12; median 3.2, quartiles 2.8 and 3.7 (linear, positions 2 and 6 of 0..8)
    closeAll(st.spans.minMax, [0, 1.9 / 9.9], 1e-5, 'the eight under min-max');
    close(st.robust.median, 3.2, 1e-5, 'median');
    close(st.robust.iqr, 0.9, 1e-5, 'IQR');
    closeAll(st.spans.robust, [-1.1 / 0.9, 0.8 / 0.9], 1e-4, 'the eight under robust scaling');
    // one axis for the three scaled rows; Σx = 36.7, Σx² = 222.99: σ = √(222.99/9 − (36.7/9)²) = 2.85454
    assert.deepEqual(st.axes.minMax, st.axes.zScore);
    assert.deepEqual(st.axes.zScore, st.axes.robust);
    close(st.widths.zScore, 1.9 / 2.85454, 1e-4, 'z-score band width');
    close(st.widths.robust / st.widths.minMax, 9.9 / 0.9, 1e-3, 'robust band 11 times the min-max band');
  },
  'nl-whitening'(st) {
    const [r00, r01, , r11] = st.covariance.raw;
    const z = st.covariance.zscore;
    closeAll([z[0], z[3]], [1, 1], 1e-4, 'z-score: unit variances');
    close(z[1], r01 / Math.sqrt(r00 * r11), 1e-4, 'z-score keeps the correlation');
    assert.ok(z[1] > 0.5, `still tilted: correlation ${z[1]}`);
    closeAll(st.covariance.whitened, [1, 0, 0, 1], 1e-3, 'whitened: the identity');
  },
  'nl-five-questions'(st) {
    assert.deepEqual(st.shape, [2, 4, 6]);
    const key = (m) => m.join(',');
    assert.deepEqual(
      st.members.map(key).sort(),
      cubeGroup('layer_norm', [2, 4, 6], [0, 1, 2]).map(key).sort(),
      'one token’s six features',
    );
    assert.equal(st.description.group.size, 6);
    assert.equal(st.description.group.count, 8);
    assert.equal(st.description.measure, 'mean_var');
    assert.equal(st.description.transform.center, true);
  },
};

for (const [tag, check] of Object.entries(AHA)) {
  test(`${tag}: default attributes open in the aha state`, async () => {
    check(await freshState(tag));
    check(await pageState(tag));
    assert.deepEqual(problems, []);
  });
}

// ---- default ≠ aha: the state after the interaction the rubric names ----
const AFTER = {
  'nl-softmax-sharpness': [
    { factor: '10' },
    (st) => {
      closeAll(st.weights, [1 / (1 + Math.exp(-10)), 1 / (1 + Math.exp(10))], 1e-6, 'scores (10, 0)');
      closeAll(st.reference, [1 / (1 + Math.exp(-1)), 1 / (1 + Math.exp(1))], 1e-6, 'reference (1, 0)');
    },
  ],
  'nl-bar-compare': [
    { offset: '100' },
    (st) => {
      assert.ok(st.change.layer_norm < 1e-4, `LayerNorm unchanged: ${st.change.layer_norm}`);
      close(st.change.l2, 0.37732, 1e-4, 'L2 moved: |(101, 102, 103)/√31214 − (1, 2, 3)/√14|');
      // (101, 102, 103)/√(31214/3) − (1, 2, 3)/√(14/3) = (0.52725, 0.07415, −0.37896)
      close(st.change.rms_norm, 0.65353, 1e-4, 'RMSNorm moved');
    },
  ],
  'nl-rms-decomposition': [
    { shift: '100' },
    (st) => {
      // x + c = (101, 102, 103): |μ| = 102, σ = √(2/3) = 0.816497, so θ = atan(0.816497 / 102) = 0.45864°
      close(st.theta, (Math.atan(Math.sqrt(2 / 3) / 102) * 180) / Math.PI, 1e-4, 'θ at c = 100');
      assert.ok(st.theta < 1, 'the spread is under a degree of the RMS: RMSNorm divides mostly by |μ|');
      // the dashed triangle, (1, 2, 3) itself (the default): tan θ = √(2/3) / 2 = 1/√6, θ = 22.2077°
      close(st.base.theta, (Math.atan(1 / Math.sqrt(6)) * 180) / Math.PI, 1e-3, 'θ of x itself');
    },
  ],
  'nl-adaln': [
    { projection: 'zero' },
    (st) => {
      for (const c of st.classes) {
        assert.deepEqual([...c.scale, ...c.shift, ...c.gate], Array(12).fill(0), `${c.name}: W = 0`);
        assert.deepEqual(c.output, st.features, `${c.name}: the zero gate returns x`);
      }
    },
  ],
  'nl-spectral': [
    { steps: '30' },
    (st) => {
      closeAll(st.singular, [3, 1], 1e-5, 'diag(3, 1)');
      closeAll(st.normalizedSingular, [1, 1 / 3], 1e-4, 'W/σ: the largest stretch is 1');
      assert.equal(st.converged, true);
    },
  ],
};

for (const [tag, [attrs, check]] of Object.entries(AFTER)) {
  test(`${tag}: the aha state after ${JSON.stringify(attrs)}`, async () => {
    check(await freshState(tag, attrs));
    assert.deepEqual(problems, []);
  });
}

// ---- the page's own instance set to open in the aha state (the element's default is not) ----
const ON_PAGE = {
  // factor="3" on the page: softmax(3, 0) = (1/(1 + e⁻³), 1/(1 + e³)) = (0.9525741, 0.0474259) against the gray
  // reference of factor 1, (0.7310586, 0.2689414)
  'nl-softmax-sharpness': (st) => {
    closeAll(st.weights, [1 / (1 + Math.exp(-3)), 1 / (1 + Math.exp(3))], 1e-6, 'scores (3, 0)');
    closeAll(st.reference, [1 / (1 + Math.exp(-1)), 1 / (1 + Math.exp(1))], 1e-6, 'reference (1, 0)');
  },
  // offset="100" on the page: the state the rubric reaches with "Add 100 only"
  'nl-bar-compare': AFTER['nl-bar-compare'][1],
};

for (const [tag, check] of Object.entries(ON_PAGE)) {
  test(`${tag}: the page's instance opens in the aha state`, async () => {
    check(await pageState(tag));
    assert.deepEqual(problems, []);
  });
}
