// Numbers the core prints: describe()'s JSON and the values error messages
// quote are written by the C++ core's own printer (cpp/src/tensor.cpp,
// num_str). The reference here is JavaScript's Number#toString, an
// independent implementation of the same rule: the shortest decimal that
// reads back as the double, ties to the even digit.
//
//   node --test tests/js/numbers.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

const { loadCore, loadTrainer } = await import('normlab');
const core = await loadCore();
const runs = Number(process.env.NL_PROPERTY_RUNS || 400);

function message(f) {
  try {
    f();
  } catch (e) {
    return e.message;
  }
  assert.fail('expected an error');
}

test('a leading digit that rounds up keeps its decimal point: eps 0.999 and a shape of 96 read back as given', () => {
  // The printer once gave [2, 960] and 9.99 here: 0.999 rounded to one digit is 1, and that carry moved the point.
  const d = core.describe('layer_norm', { shape: [2, 96], attrs: { eps: 0.999 } });
  assert.deepEqual(Array.from(d.shape), [2, 96]);
  assert.equal(d.transform.eps, 0.999);
  assert.match(
    message(() => core.layerNorm([1, 2, 3], { eps: -0.95 })),
    /\(got -0\.95\)/,
  );
  assert.match(
    message(() => core.layerNorm([1, 2, 3], { eps: -9.99 })),
    /\(got -9\.99\)/,
  );
});

test('property: describe() gives back every eps and size it was given, exactly', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1e300, noNaN: true })),
      fc.integer({ min: 1, max: 100000 }),
      (eps, n) => {
        const d = core.describe('layer_norm', { shape: [3, n], attrs: { eps } });
        assert.deepEqual(Array.from(d.shape), [3, n]);
        assert.equal(d.transform.eps, eps);
      },
    ),
    { numRuns: runs, seed: 23 },
  );
});

test('property: a refused value is quoted as JavaScript writes it (shortest round-trip digits)', () => {
  fc.assert(
    fc.property(fc.double({ max: -Number.MIN_VALUE, noNaN: true, noDefaultInfinity: true }), (eps) => {
      const text = message(() => core.layerNorm([1, 2, 3], { eps }));
      assert.ok(text.includes(`(got ${String(eps)})`), `${text} does not quote ${String(eps)}`);
    }),
    { numRuns: runs, seed: 24 },
  );
});

test('the training limit says what it counted: (depth + 1) x points x width', async () => {
  const trainer = await loadTrainer();
  // beta2's default, printed by the core's number printer, was once 9.99.
  assert.equal(trainer.spec('train_step').attrs.find((a) => a.name === 'beta2').default, 0.999);
  // depth 1, width 64 and 2048 points: (1 + 1) x 2048 x 64 = 262144 fits; 2049 points do not.
  const n = 2049;
  const text = message(() =>
    trainer.run(
      'train_grad',
      {
        x: { shape: [n, 2], data: new Float32Array(2 * n) },
        labels: { shape: [n], data: new Float32Array(n) },
        params: { shape: [1], data: new Float32Array(1) },
      },
      { depth: 1, width: 64 },
    ),
  );
  assert.match(text, /262272 activations; at most 262144/);
});

test('split_perturbation of x = (1e-45, 0) along x: every part is finite (dy = 0), not a float32 overflow', () => {
  // x is a float32 subnormal; delta = (1, 0) lies along x, so along = (1, 0), across = (0, 0) and dy = 0.
  const r = core.splitPerturbation([1e-45, 0], { delta: [1, 0] });
  assert.deepEqual(Array.from(r.along), [1, 0]);
  assert.deepEqual(Array.from(r.across), [0, 0]);
  assert.deepEqual(Array.from(r.dy), [0, 0]);
});
