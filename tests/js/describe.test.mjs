// core.describe for every normalization the engine runs: the five pieces
// (group, measure, transform, params, mode) for one shape each. The expected
// values are read off the definitions by hand (docs/ops.md): which axes a
// statistic is taken over, how many statistics and numbers each, what is
// measured, how the denominator is made, what each parameter is per.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from 'normlab';

const core = await loadCore();

// A parameter: its input, its view against x, the axes of x it varies along, what it is per.
const param = (input, view, axes, per) => ({ input, view, axes, per });
const channel = (input, rank, c) => param(input, [1, c, ...Array(rank - 2).fill(1)], [1], 'channel');

// op -> [options, expected]. group: [axes, count, size, statShape].
const cases = {
  l2_normalize: [
    { shape: [2, 3] },
    {
      group: [[1], 2, 3, [2, 1]],
      measure: 'sum_square',
      transform: [false, 'max_sqrt_spread_eps', 1e-12],
      scale: null,
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  l1_normalize: [
    { shape: [2, 3], attrs: { axis: 0 } },
    {
      group: [[0], 3, 2, [1, 3]],
      measure: 'sum_abs',
      transform: [false, 'max_spread_eps', 1e-12],
      scale: null,
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  max_normalize: [
    { shape: [4] },
    {
      group: [[0], 1, 4, [1]],
      measure: 'max_abs',
      transform: [false, 'max_spread_eps', 1e-12],
      scale: null,
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  scale_norm: [
    { shape: [2, 3] },
    {
      group: [[1], 2, 3, [2, 1]],
      measure: 'sum_square',
      transform: [false, 'max_sqrt_spread_eps', 1e-5],
      scale: param('g', [1], [], 'scalar'),
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  layer_norm: [
    { shape: [2, 3, 4], attrs: { normalized_ndim: 2 } },
    {
      group: [[1, 2], 2, 12, [2, 1, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: param('gamma', [3, 4], [1, 2], 'coordinate'),
      shift: param('beta', [3, 4], [1, 2], 'coordinate'),
      offset: 0,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  rms_norm: [
    { shape: [2, 5] },
    {
      group: [[1], 2, 5, [2, 1]],
      measure: 'mean_square',
      transform: [false, 'sqrt_spread_plus_eps', 1e-6],
      scale: param('gamma', [5], [1], 'coordinate'),
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  batch_norm: [
    { shape: [4, 3, 5], attrs: { training: false } },
    {
      group: [[0, 2], 3, 20, [1, 3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: channel('gamma', 3, 3),
      shift: channel('beta', 3, 3),
      offset: 0,
      mode: 'running',
      channelAxis: 1,
    },
  ],
  instance_norm: [
    { shape: [2, 3, 5] },
    {
      group: [[2], 6, 5, [2, 3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: channel('gamma', 3, 3),
      shift: channel('beta', 3, 3),
      offset: 0,
      mode: 'current',
      channelAxis: 1,
    },
  ],
  group_norm: [
    { shape: [2, 6, 5], attrs: { num_groups: 3 } },
    {
      group: [[1, 2], 6, 10, [2, 3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: channel('gamma', 3, 6),
      shift: channel('beta', 3, 6),
      offset: 0,
      mode: 'current',
      channelAxis: 1,
    },
  ],
  // 8 examples in virtual batches of 4: two batches times 3 channels, 4 * 5 numbers each
  ghost_batch_norm: [
    { shape: [8, 3, 5], attrs: { virtual_batch_size: 4 } },
    {
      group: [[0, 2], 6, 20, [2, 3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: channel('gamma', 3, 3),
      shift: channel('beta', 3, 3),
      offset: 0,
      mode: 'current',
      channelAxis: 1,
    },
  ],
  // BatchNorm's group; the correction toward the running statistics is folded into the params
  batch_renorm: [
    { shape: [4, 3, 5] },
    {
      group: [[0, 2], 3, 20, [1, 3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: channel('gamma', 3, 3),
      shift: channel('beta', 3, 3),
      offset: 0,
      mode: 'current',
      channelAxis: 1,
    },
  ],
  // per (n, c) statistics (a mix of IN, LN and BN ones), per-channel affine
  switchable_norm: [
    { shape: [2, 3, 4, 4], attrs: { eps: 1e-3 } },
    {
      group: [[2, 3], 6, 16, [2, 3, 1, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-3],
      scale: channel('gamma', 4, 3),
      shift: channel('beta', 4, 3),
      offset: 0,
      mode: 'current',
      channelAxis: 1,
    },
  ],
  // mean of squares over each (n, c) plane, no centering
  filter_response_norm: [
    { shape: [2, 3, 4, 4] },
    {
      group: [[2, 3], 6, 16, [2, 3, 1, 1]],
      measure: 'mean_square',
      transform: [false, 'sqrt_spread_plus_eps', 1e-6],
      scale: channel('gamma', 4, 3),
      shift: channel('beta', 4, 3),
      offset: 0,
      mode: 'current',
      channelAxis: 1,
    },
  ],
  ada_layer_norm: [
    { shape: [2, 3, 4] },
    {
      group: [[2], 6, 4, [2, 3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: param('scale', [2, 1, 4], [0, 2], 'example_coordinate'),
      shift: param('shift', [2, 1, 4], [0, 2], 'example_coordinate'),
      offset: 1,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  adaptive_rms_norm: [
    { shape: [2, 3, 4] },
    {
      group: [[2], 6, 4, [2, 3, 1]],
      measure: 'mean_square',
      transform: [false, 'sqrt_spread_plus_eps', 1e-6],
      scale: param('scale', [2, 1, 4], [0, 2], 'example_coordinate'),
      shift: param('shift', [2, 1, 4], [0, 2], 'example_coordinate'),
      offset: 1,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  // BatchNorm's statistics; gamma and beta [N, C] per example and channel
  conditional_batch_norm: [
    { shape: [4, 3, 5], attrs: { training: false } },
    {
      group: [[0, 2], 3, 20, [1, 3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: param('gamma', [4, 3, 1], [0, 1], 'example_channel'),
      shift: param('beta', [4, 3, 1], [0, 1], 'example_channel'),
      offset: 0,
      mode: 'running',
      channelAxis: 1,
    },
  ],
  // InstanceNorm; scale and shift are the style's sigma and mu per (n, c)
  adain: [
    { shape: [2, 3, 5] },
    {
      group: [[2], 6, 5, [2, 3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: param('style', [2, 3, 1], [0, 1], 'example_channel'),
      shift: param('style', [2, 3, 1], [0, 1], 'example_channel'),
      offset: 0,
      mode: 'current',
      channelAxis: 1,
    },
  ],
  // BatchNorm's statistics; (1 + gamma_map) and beta_map per element
  spade: [
    { shape: [2, 3, 4, 4] },
    {
      group: [[0, 2, 3], 3, 32, [1, 3, 1, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: param('gamma_map', [2, 3, 4, 4], [0, 1, 2, 3], 'element'),
      shift: param('beta_map', [2, 3, 4, 4], [0, 1, 2, 3], 'element'),
      offset: 1,
      mode: 'current',
      channelAxis: 1,
    },
  ],
  softmax: [
    { shape: [2, 3], attrs: { axis: 0 } },
    {
      group: [[0], 3, 2, [1, 3]],
      measure: 'sum_exp',
      transform: [true, 'exp_over_spread', 0],
      scale: null,
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: -1,
    },
  ],
  // weights [O, I, k]: one group per output unit, the L2 norm without eps, g per output
  weight_norm: [
    { shape: [4, 3, 2] },
    {
      group: [[1, 2], 4, 6, [4, 1, 1]],
      measure: 'sum_square',
      transform: [false, 'max_sqrt_spread_eps', 0],
      scale: param('g', [4, 1, 1], [0], 'channel'),
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: 0,
    },
  ],
  weight_standardize: [
    { shape: [4, 6] },
    {
      group: [[1], 4, 6, [4, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_plus_eps', 1e-5],
      scale: null,
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: 0,
    },
  ],
  // eps outside the root: (x - mean) / (std + eps)
  standardize_rows: [
    { shape: [3, 4], attrs: { eps: 0.1, eps_place: 'outside' } },
    {
      group: [[1], 3, 4, [3, 1]],
      measure: 'mean_var',
      transform: [true, 'sqrt_spread_then_plus_eps', 0.1],
      scale: null,
      shift: null,
      offset: 0,
      mode: 'current',
      channelAxis: -1,
    },
  ],
};

test('the ops with a description are exactly the normalizations the engine runs', () => {
  const described = core.ops.filter((op) => core.spec(op).described).sort();
  assert.deepEqual(described, Object.keys(cases).sort());
});

for (const [op, [options, want]] of Object.entries(cases)) {
  test(`describe ${op}: group, measure, transform, params, mode`, () => {
    const d = core.describe(op, options);
    assert.equal(d.op, op);
    assert.deepEqual(d.shape, options.shape);
    const [axes, count, size, statShape] = want.group;
    assert.deepEqual(
      { axes: d.group.axes, count: d.group.count, size: d.group.size, statShape: d.group.statShape },
      { axes, count, size, statShape },
    );
    assert.equal(
      d.group.count * d.group.size,
      options.shape.reduce((a, b) => a * b, 1),
    );
    assert.equal(d.measure, want.measure);
    const [center, denominator, eps] = want.transform;
    assert.deepEqual({ ...d.transform }, { center, denominator, eps });
    assert.deepEqual(d.params.scale && { ...d.params.scale }, want.scale);
    assert.deepEqual(d.params.shift && { ...d.params.shift }, want.shift);
    assert.equal(d.params.scaleOffset, want.offset);
    assert.equal(d.mode, want.mode);
    assert.equal(d.channelAxis, want.channelAxis);
  });
}

test('describe checks the shapes it is given, naming the op and the input', () => {
  assert.throws(
    () => core.describe('adain', { shape: [2, 3, 5], inputs: { style: [2, 4, 5] } }),
    /adain: style has shape \[2, 4, 5\]/,
  );
  assert.throws(
    () => core.describe('spade', { shape: [2, 3, 4, 4], inputs: { gamma_map: [2, 3, 4] } }),
    /spade: gamma_map has shape \[2, 3, 4\] but must have shape \[2, 3, 4, 4\]/,
  );
  assert.throws(
    () => core.describe('conditional_batch_norm', { shape: [4, 3, 5], inputs: { gamma: [3] } }),
    /conditional_batch_norm: gamma has shape \[3\] but must have shape \[4, 3\]/,
  );
  assert.throws(
    () => core.describe('weight_norm', { shape: [4, 3], inputs: { g: [3] } }),
    /weight_norm: g has shape \[3\] but must have shape \[4\]/,
  );
  assert.throws(
    () => core.describe('switchable_norm', { shape: [2, 3, 4] }),
    /switchable_norm: x must have shape \[N, C, H, W\]/,
  );
  assert.throws(
    () => core.describe('standardize_rows', { shape: [3, 4], attrs: { eps_place: 'middle' } }),
    /standardize_rows: eps_place/,
  );
  // an op that is not a normalization: said briefly (the registry lists the described ones)
  assert.throws(
    () => core.describe('spectral_norm', { shape: [3, 3] }),
    (e) =>
      /spectral_norm: not a normalization with a description \(22 ops have one/.test(e.message) &&
      e.message.length < 120,
  );
  // still usable afterwards
  assert.equal(core.describe('weight_norm', { shape: [4, 3] }).group.count, 4);
});
