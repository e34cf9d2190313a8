// Large calls within the documented limits (2^25 elements per tensor) answer,
// one after another, in one module of at most 1 GiB: an op holds nothing of
// the input's size beyond its inputs and outputs, and a call leaves no block
// behind that would split the heap's free space. Before, split_perturbation
// of two 2^25 vectors and layer_norm_backward on [4096, 4096] ran out of
// memory after seconds, and after a split_perturbation of that size a
// full-size spade never fit again.
//
//   node --test tests/js/memory.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';

const { loadCore, loadTrainer } = await import('normlab');
const core = await loadCore();
const trainer = await loadTrainer();
const N = 1 << 25;

test('split_perturbation, spade, layer_norm and spade again at 2^25 elements each, in one module', () => {
  const ones = new Float32Array(N).fill(1);
  const e0 = new Float32Array(N);
  e0[0] = 1;
  for (let round = 0; round < 2; round++) {
    // x = (1, ..., 1), delta = e_0: along = x / N, across = e_0 - x / N, dy = across / sqrt(N).
    const s = core.splitPerturbation(ones, { delta: e0 });
    assert.ok(Math.abs(s.along[N - 1] - 1 / N) < 1e-12, `along ${s.along[N - 1]}`);
    assert.ok(Math.abs(s.dy[0] - (1 - 1 / N) / Math.sqrt(N)) < 1e-7, `dy[0] ${s.dy[0]}`);
    // spade with a constant x: every channel's InstanceNorm statistics give x - mean = 0, so y = beta_map.
    const shape = [1, 32, 1024, 1024];
    const y = core.run('spade', {
      x: { shape, data: ones },
      gamma_map: { shape, data: ones },
      beta_map: { shape, data: e0 },
    }).y.data;
    assert.equal(y.length, N);
    assert.equal(y[0], 1);
    assert.equal(y[N - 1], 0);
    const ln = core.run('layer_norm', { x: { shape: [32, 1 << 20], data: ones } }).y.data;
    assert.equal(ln[12345], 0);
  }
});

test('layer_norm_backward on [4096, 4096] answers, and its first row is the same call on that row alone', () => {
  const w = 4096;
  const x = new Float32Array(w * w);
  for (let i = 0; i < x.length; i++) x[i] = (i * 7919) % 13;
  const dy = new Float32Array(w * w);
  for (let i = 0; i < dy.length; i++) dy[i] = ((i * 104729) % 11) - 5;
  const big = trainer.run('layer_norm_backward', { x: { shape: [w, w], data: x }, dy: { shape: [w, w], data: dy } });
  assert.equal(big.dx.data.length, w * w);
  const row = trainer.run('layer_norm_backward', {
    x: { shape: [1, w], data: x.subarray(0, w) },
    dy: { shape: [1, w], data: dy.subarray(0, w) },
  });
  assert.deepEqual(Array.from(big.dx.data.subarray(0, w)), Array.from(row.dx.data));
  // the gradient of the bias is the column sums of dy, exact in float32 here (integers below 2^24)
  let col0 = 0;
  for (let r = 0; r < w; r++) col0 += dy[r * w];
  assert.equal(big.dbias.data[0], col0);
});
