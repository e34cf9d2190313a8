// Property-based tests of the one door (fast-check): random shapes (0, 1,
// fractional, negative, 2^31 and beyond, NaN), values (NaN, +-Inf, denormals,
// 1e38), attributes and option objects go through core.run and the camelCase
// functions. Every result must be a NormlabError or agree with a float64
// oracle and with the other spelling; nothing may throw anything else (a trap,
// RangeError or TypeError); a good call afterwards is right; the heap comes
// back to where it was.
//
// npm test runs a bounded number of cases from a fixed seed; for a long run:
//   NL_PROPERTY_RUNS=20000 NL_PROPERTY_SEED=$RANDOM node --test tests/js/properties.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';

const { loadCore, loadTrainer, NormlabError } = await import('normlab');
const core = await loadCore();
const trainer = await loadTrainer(); // the training ops' own module, behind the same door
const RUNS = Number(process.env.NL_PROPERTY_RUNS ?? 250);
const SEED = Number(process.env.NL_PROPERTY_SEED ?? 20261130);
const params = (runs = RUNS) => ({ numRuns: runs, seed: SEED, endOnFailure: true });
const camel = (s) => s.replace(/_([a-z0-9])/g, (_, c) => c.toUpperCase());

// ---- the float64 oracle: each op over contiguous rows of the last axis -----
function rows(x, width, f) {
  const y = new Float64Array(x.length);
  for (let o = 0; o < x.length; o += width) f(x.subarray(o, o + width), y.subarray(o, o + width));
  return y;
}
const oracle = {
  layer_norm: (x, w, eps) =>
    rows(x, w, (r, y) => {
      let m = 0;
      for (const v of r) m += v;
      m /= w;
      let s = 0;
      for (const v of r) s += (v - m) ** 2;
      const d = Math.sqrt(s / w + eps);
      r.forEach((v, i) => (y[i] = (v - m) / d));
      return d;
    }),
  rms_norm: (x, w, eps) =>
    rows(x, w, (r, y) => {
      let s = 0;
      for (const v of r) s += v * v;
      const d = Math.sqrt(s / w + eps);
      r.forEach((v, i) => (y[i] = v / d));
    }),
  l2_normalize: (x, w, eps) =>
    rows(x, w, (r, y) => {
      let s = 0;
      for (const v of r) s += v * v;
      const d = Math.max(Math.sqrt(s), eps);
      r.forEach((v, i) => (y[i] = v / d));
    }),
  softmax: (x, w) =>
    rows(x, w, (r, y) => {
      const m = Math.max(...r);
      let z = 0;
      r.forEach((v, i) => (z += y[i] = Math.exp(v - m)));
      y.forEach((v, i) => (y[i] = v / z));
    }),
};
const defaultEps = { layer_norm: 1e-5, rms_norm: 1e-6, l2_normalize: 1e-12, softmax: 0 };

// ---- generators ---------------------------------------------------------------
const special = fc.constantFrom(NaN, Infinity, -Infinity, 0, -0, 1e-40, -1e-45, 1e38, -3.4e38, 1e-30);
const value = fc.oneof(
  { weight: 8, arbitrary: fc.float({ min: -1000, max: 1000, noNaN: true }) },
  { weight: 1, arbitrary: special },
);
const size = fc.oneof(
  { weight: 10, arbitrary: fc.integer({ min: 1, max: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1.5, -1, 2 ** 31, 2 ** 32 + 3, 2 ** 53 + 2, NaN, Infinity, -0) },
);
const shape = fc.array(size, { minLength: 0, maxLength: 4 });
const eps = fc.oneof(
  { weight: 4, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constantFrom(0, 1e-5, 0.1) },
  { weight: 1, arbitrary: fc.constantFrom(-1, NaN, Infinity, 1e38, '1e-5', null, true, [1e-5]) },
);

// A case: an op, a shape, data of about that many numbers (sometimes the wrong count), eps.
const rowCase = fc.record({
  op: fc.constantFrom('layer_norm', 'rms_norm', 'l2_normalize', 'softmax'),
  shape,
  extra: fc.oneof({ weight: 9, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -2, max: 2 }) }),
  seedValues: fc.array(value, { minLength: 1, maxLength: 64 }),
  eps,
  float32: fc.boolean(),
});

function dataFor(c) {
  const n = c.shape.reduce((a, b) => a * b, 1);
  const count = Number.isSafeInteger(n) && n >= 0 && n <= 4096 ? Math.max(0, n + c.extra) : c.seedValues.length;
  const vals = Array.from({ length: count }, (_, i) => c.seedValues[i % c.seedValues.length]);
  return c.float32 ? Float32Array.from(vals) : vals;
}

// Only a NormlabError (or a result) may come out; anything else fails the property.
function attempt(fn) {
  try {
    return { value: fn() };
  } catch (e) {
    if (!(e instanceof NormlabError)) throw new Error(`not a NormlabError: ${e?.name}: ${e?.message}`, { cause: e });
    assert.ok(e.message.length < 400, `an error message of ${e.message.length} characters`);
    return { error: e.message };
  }
}

function goodCallStillRight() {
  const y = core.layerNorm([1, 2, 3], { eps: 0 });
  const r = Math.sqrt(1.5);
  assert.ok(Math.abs(y[0] + r) < 1e-6 && Math.abs(y[1]) < 1e-7 && Math.abs(y[2] - r) < 1e-6, `after: ${y}`);
}

// The training module after junk: LayerNorm's backward pass at x = (1, 2, 3), dy = 1 has
// dx = 0 (the outputs always sum to 0), dweight = the normalized x = (-sqrt 1.5, 0, sqrt 1.5), dbias = dy.
function goodTrainerCallStillRight() {
  const g = trainer.layerNormBackward(
    { shape: [1, 3], data: [1, 2, 3] },
    { dy: { shape: [1, 3], data: [1, 1, 1] }, eps: 0 },
  );
  const r = Math.sqrt(1.5);
  assert.ok(
    g.dx.every((v) => Math.abs(v) < 1e-6) &&
      Math.abs(g.dweight[0] + r) < 1e-6 &&
      Math.abs(g.dweight[2] - r) < 1e-6 &&
      g.dbias.every((v) => v === 1),
    `after: ${JSON.stringify(g)}`,
  );
}
const trainerBaseline = (() => {
  goodTrainerCallStillRight();
  return trainer.heapBytes();
})();

const baseline = (() => {
  core.run('layer_norm', { x: { shape: [1 << 17], data: new Float32Array(1 << 17).fill(1).map((_, i) => i % 5) } });
  goodCallStillRight();
  return core.heapBytes();
})();

test('row ops: core.run and the camelCase function agree, and match a float64 oracle or give a NormlabError', () => {
  let good = 0,
    bad = 0;
  fc.assert(
    fc.property(rowCase, (c) => {
      const data = dataFor(c);
      const attrs = c.eps === undefined || c.op === 'softmax' ? {} : { eps: c.eps };
      const viaRun = attempt(() => core.run(c.op, { x: { shape: c.shape, data } }, attrs).y.data);
      const viaNamed = attempt(() => core[camel(c.op)](data, { shape: c.shape, ...attrs }));
      assert.deepEqual(viaNamed, viaRun, 'the two spellings differ');
      if (viaRun.error) {
        bad++;
        assert.match(viaRun.error, new RegExp(`^${c.op}: |^normlab: `));
      } else {
        good++;
        const y = viaRun.value;
        const width = c.shape[c.shape.length - 1];
        const want = oracle[c.op](Float64Array.from(Float32Array.from(data)), width, attrs.eps ?? defaultEps[c.op]);
        assert.equal(y.length, want.length);
        for (let i = 0; i < y.length; i++) {
          assert.ok(Number.isFinite(y[i]), `y[${i}] = ${y[i]} is not finite`);
          // where the float64 oracle itself overflows (1e38 squared) the core's careful path still answers
          if (Number.isFinite(want[i]))
            assert.ok(
              Math.abs(y[i] - want[i]) <= 2e-4 + 2e-4 * Math.abs(want[i]),
              `y[${i}] = ${y[i]}, want ${want[i]}`,
            );
        }
      }
      goodCallStillRight();
    }),
    params(),
  );
  console.log(`row ops: ${good} results checked against the oracle, ${bad} NormlabErrors`);
  assert.ok(good > RUNS / 5 && bad > RUNS / 20, `a fair mix: ${good} results, ${bad} errors`);
});

// Anything at all in every position of every op, through both spellings.
const junk = fc.oneof(
  fc.anything({ maxDepth: 2, withBigInt: true, withTypedArray: true, withNullPrototype: true, withBoxedValues: true }),
  fc.constantFrom(Symbol('s'), () => 1, new Proxy({}, {}), new DataView(new ArrayBuffer(8)), 'x'.repeat(100000)),
  fc.record({ shape: shape, data: fc.array(value, { maxLength: 30 }) }),
);

const modules = [
  ['core', core, goodCallStillRight],
  ['training module', trainer, goodTrainerCallStillRight],
];
for (const [module, core, goodCallStillRight] of modules) {
  test(`junk in any position of any op of the ${module} is a NormlabError or a result, never a crash`, () => {
    const ops = core.ops;
    const keys = fc.dictionary(fc.string({ maxLength: 12 }), junk, { maxKeys: 4 });
    const picks = fc.array(fc.boolean(), { minLength: 12, maxLength: 12 });
    fc.assert(
      fc.property(fc.constantFrom(...ops), keys, keys, junk, picks, (op, inputs, attrs, x, pick) => {
        const spec = core.spec(op);
        // often give the op real inputs and attributes of the right kind, so that deeper checks run too
        spec.inputs.forEach((i, k) => pick[k % 12] && (inputs[i.name] = { shape: [2, 2], data: [1, 2, 3, 4] }));
        spec.attrs.forEach(
          (a, k) =>
            pick[(k + 5) % 12] &&
            (attrs[a.name] =
              a.kind === 'integers' ? [2, 2] : a.kind === 'string' ? 'pre' : a.kind === 'boolean' ? true : 1),
        );
        attempt(() => core.run(op, inputs, attrs));
        attempt(() => core[camel(op)](x, { ...attrs, ...inputs }));
        attempt(() => core.run(op, x, inputs, attrs));
        attempt(() => core.describe(op, { shape: x?.shape ?? x, attrs }));
        goodCallStillRight();
      }),
      params(),
    );
  });
}

test('resident tensors: any shape is a tensor or a NormlabError; ops on them agree with arrays', () => {
  fc.assert(
    fc.property(rowCase, fc.boolean(), (c, inPlace) => {
      const made = attempt(() => core.tensor(c.shape, dataFor(c)));
      if (made.error) return;
      const t = made.value;
      try {
        const plain = attempt(() => core[camel(c.op)](Float32Array.from(t.data), { shape: c.shape }));
        const out = inPlace ? t : attempt(() => core.tensor(c.shape)).value;
        const resident = attempt(() => core[camel(c.op)](t, { out }));
        if (plain.error) assert.equal(resident.error, plain.error);
        else {
          assert.equal(resident.value, out, 'the out tensor comes back');
          assert.deepEqual(Array.from(out.data), Array.from(plain.value));
        }
        if (!inPlace) out?.free();
      } finally {
        t.free();
      }
      goodCallStillRight();
    }),
    params(),
  );
});

test('a re-entrant call from a valueOf or getter cannot disturb the outer call', () => {
  fc.assert(
    fc.property(
      fc.array(fc.float({ min: -10, max: 10, noNaN: true }), { minLength: 2, maxLength: 40 }),
      fc.integer({ min: 0, max: 39 }),
      (vals, at) => {
        const want = core.layerNorm(Float32Array.from(vals));
        const sneaky = vals.slice();
        const k = at % vals.length;
        sneaky[k] = { valueOf: () => (core.layerNorm(new Float32Array(3000).fill(2).map((_, i) => i)), vals[k]) };
        const got = core.layerNorm(sneaky);
        assert.deepEqual(Array.from(got), Array.from(want));
        const shapeGetter = {
          get shape() {
            core.rmsNorm([5, 6, 7, 8]);
            return [vals.length];
          },
          data: vals,
        };
        assert.deepEqual(Array.from(core.run('layer_norm', { x: shapeGetter }).y.data), Array.from(want));
      },
    ),
    params(Math.min(RUNS, 100)),
  );
});

test('the heap returns to its baseline after all of the above', () => {
  globalThis.gc?.();
  core.run('layer_norm', { x: { shape: [1 << 17], data: new Float32Array(1 << 17).fill(1).map((_, i) => i % 5) } });
  goodCallStillRight();
  const after = core.heapBytes();
  console.log(`heap in use: ${baseline} bytes before the properties, ${after} after`);
  assert.ok(after <= baseline + 4096, `heap ${baseline} -> ${after}`);
  goodTrainerCallStillRight();
  const trained = trainer.heapBytes();
  console.log(`training module's heap: ${trainerBaseline} bytes before, ${trained} after`);
  assert.ok(trained <= trainerBaseline + 4096, `training module's heap ${trainerBaseline} -> ${trained}`);
});
