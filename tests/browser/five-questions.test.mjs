// <nl-five-questions> as a reader uses it: every method chosen with the
// keyboard, and after each the five answers against what the article says of
// that method (written out here by hand), the highlighted group against the
// definitions (cubeGroup in helpers.mjs), and the description against the
// state; then the element chosen by arrow keys and by a click, Chinese, and
// a bad index.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cubeGroup, onArticlePage } from './helpers.mjs';

const TAG = 'nl-five-questions';
const fig = onArticlePage(TAG);

const snap = () => fig.snap();

const SHAPE = [2, 4, 6];
// What the article says of each method: [group size, axes, measure, centering, parameters, statistics]
const PER_TOKEN = (measure, center, params) => [6, 'd', measure, center, params, 'the current input’s own statistics'];
const EXPECTED = {
  layer_norm: PER_TOKEN('mean and variance', 'subtract the mean', 'gamma: one per feature; beta: one per feature'),
  rms_norm: PER_TOKEN('mean of the squares (RMS²)', 'no centering', 'gamma: one per feature'),
  batch_norm_train: [
    8,
    'B, T',
    'mean and variance',
    'subtract the mean',
    'gamma: one per channel (feature); beta: one per channel (feature)',
    'the current input’s own statistics',
  ],
  batch_norm_eval: [
    8,
    'B, T',
    'mean and variance',
    'subtract the mean',
    'gamma: one per channel (feature); beta: one per channel (feature)',
    'running statistics saved during training',
  ],
  instance_norm: [
    4,
    'T',
    'mean and variance',
    'subtract the mean',
    'gamma: one per channel (feature); beta: one per channel (feature)',
    'the current input’s own statistics',
  ],
  group_norm: [
    12,
    null,
    'mean and variance',
    'subtract the mean',
    'gamma: one per channel (feature); beta: one per channel (feature)',
    'the current input’s own statistics',
  ],
  l2_normalize: PER_TOKEN('sum of the squares (squared L2 length)', 'no centering', 'none'),
  l1_normalize: PER_TOKEN('sum of |x| (L1 length)', 'no centering', 'none'),
  max_normalize: PER_TOKEN('the largest |x|', 'no centering', 'none'),
  scale_norm: PER_TOKEN('sum of the squares (squared L2 length)', 'no centering', 'g: a single number'),
  softmax: PER_TOKEN('sum of the exponentials', 'subtract the maximum (for stability)', 'none'),
  ada_layer_norm: PER_TOKEN(
    'mean and variance',
    'subtract the mean',
    'scale: predicted from a condition, one per example and feature; shift: predicted from a condition, one per example and feature; the scale enters as 1 + scale',
  ),
  adaptive_rms_norm: PER_TOKEN(
    'mean of the squares (RMS²)',
    'no centering',
    'scale: predicted from a condition, one per example and feature; shift: predicted from a condition, one per example and feature; the scale enters as 1 + scale',
  ),
};
// the group by definition: BatchNorm pools B and T per feature, InstanceNorm T per (b, d), GroupNorm a block of d/G and T, the rest one token's d
const groupOf = (method, index) => {
  const m =
    {
      batch_norm_train: 'batch_norm',
      batch_norm_eval: 'batch_norm',
      instance_norm: 'instance_norm',
      group_norm: 'group_norm',
    }[method] ?? 'layer_norm';
  return cubeGroup(m, SHAPE, index, 2)
    .map((e) => e.join(','))
    .sort();
};

function check(sn, where) {
  const s = sn.state;
  assert.equal(sn.error, '', where);
  const [size, axes, measure, center, params, mode] = EXPECTED[s.method];
  const [aGroup, aMeasure, aTransform, aParams, aMode] = sn.answers;
  if (axes) assert.equal(aGroup, `${size} numbers along ${axes}, measured together; ${48 / size} such groups`, where);
  else assert.equal(aGroup, `${size} numbers: a block of 3 features of d, along T; ${48 / size} such groups`, where);
  assert.equal(aMeasure, measure, where);
  assert.ok(aTransform.startsWith(center), `${where}: ${aTransform}`);
  // the denominator names what is divided by, and ε is written as the page writes it
  const denominators = {
    layer_norm: 'divide by √(variance + ε), ε = 10⁻⁵',
    rms_norm: 'divide by √(mean square + ε), ε = 10⁻⁶',
    l2_normalize: 'divide by max(√sum of squares, ε), ε = 10⁻¹²',
    max_normalize: 'divide by max(largest |x|, ε), ε = 10⁻¹²',
  };
  if (denominators[s.method]) assert.ok(aTransform.endsWith(denominators[s.method]), `${where}: ${aTransform}`);
  assert.equal(aParams, params, where);
  assert.equal(aMode, mode, where);
  assert.deepEqual(sn.members, groupOf(s.method, s.index), `${where}: the highlighted group`);
  assert.deepEqual(s.members.map((m) => m.join(',')).sort(), groupOf(s.method, s.index), `${where}: the state's group`);
  assert.deepEqual(sn.chosen, [s.index.join(',')]);
  assert.ok(
    sn.desc.includes(
      `for element (${s.index.join(', ')}) of a [2, 4, 6] tensor: its group is ${size} elements. Which numbers: ${aGroup}. Measured: ${aMeasure}.`,
    ),
    `${where}: ${sn.desc}`,
  );
  assert.ok(sn.desc.endsWith(`Parameters: ${aParams}. Statistics: ${aMode}.`), where);
}

test('every method by keyboard, at two elements: answers and groups as the article defines them', async () => {
  const select = fig.page.locator(`${TAG} >> select`);
  const methods = await select.evaluate((s) => [...s.options].map((o) => o.value));
  assert.deepEqual(methods, Object.keys(EXPECTED));
  await select.focus();
  await fig.page.keyboard.press('Home');
  let n = 0;
  for (const [k, m] of methods.entries()) {
    if (k) await fig.page.keyboard.press('ArrowDown');
    let sn = await snap();
    assert.equal(sn.state.method, m);
    check(sn, `${m} at 0,1,2`);
    await fig.page.evaluate((t) => document.querySelector(t).setAttribute('index', '1,3,5'), TAG);
    sn = await snap();
    check(sn, `${m} at 1,3,5`);
    await fig.page.evaluate((t) => document.querySelector(t).setAttribute('index', '0,1,2'), TAG);
    n += 2;
  }
  assert.ok(n >= 20, `${n} positions`);
  assert.deepEqual(fig.problems, []);
});

test('the element by arrow keys and by a click; Chinese; a bad index', async () => {
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('method', 'group_norm'), TAG);
  await fig.page.locator(`${TAG} >> svg.tensor`).focus();
  const path = [
    ['ArrowRight', [0, 1, 3]],
    ['ArrowDown', [0, 2, 3]],
    ['PageDown', [1, 2, 3]],
    ['ArrowRight', [1, 2, 4]],
    ['ArrowRight', [1, 2, 5]],
    ['ArrowRight', [1, 2, 5]],
    ['PageUp', [0, 2, 5]],
  ];
  for (const [key, index] of path) {
    await fig.page.keyboard.press(key);
    const sn = await snap();
    assert.deepEqual(sn.state.index, index, key);
    check(sn, `${key} → ${index}`);
  }
  await fig.page.locator(`${TAG} >> rect[data-index="1,0,0"]`).click();
  const sn = await snap();
  assert.deepEqual(sn.state.index, [1, 0, 0]);
  check(sn, 'click');
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('lang', 'zh'), TAG);
  const zh = await snap();
  assert.match(zh.desc, /^GroupNorm（G = 2），\[2, 4, 6\] tensor 的元素 \(1, 0, 0\)：它的组有 12 个元素。/);
  await fig.page.evaluate((t) => document.querySelector(t).setAttribute('index', '2,0,0'), TAG);
  const bad = await snap();
  assert.equal(bad.error, 'index 必须是 [2, 4, 6] tensor 内的三个整数（收到的是“2,0,0”）。');
  assert.deepEqual(bad.state.index, [1, 0, 0], 'the last good state stays');
  await fig.page.evaluate((t) => {
    const f = document.querySelector(t);
    f.setAttribute('index', '0,1,2');
    f.setAttribute('method', 'layer_norm');
    f.setAttribute('lang', 'en');
  }, TAG);
  assert.equal((await snap()).error, '');
  assert.deepEqual(fig.problems, []);
});
