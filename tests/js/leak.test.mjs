// Tens of thousands of calls through the public JS API, every op, good and bad
// inputs mixed: the WASM heap does not grow after warm-up, and out-of-range
// requests are errors, not aborts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';

const dir = new URL('../conformance/cases/', import.meta.url);
const decode = (v) => (v === 'NaN' ? NaN : v === 'Infinity' ? Infinity : v === '-Infinity' ? -Infinity : v);
// One small good case and one bad case per op, from the committed references.
function workload() {
  const all = readdirSync(dir).flatMap((f) => JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
  const pick = new Map();
  for (const c of all) {
    const size = Object.values(c.inputs).reduce((a, t) => a + t.data.length, 0);
    if (size > 64) continue;
    const key = `${c.op}:${c.expect.error ? 'bad' : 'good'}`;
    if (!pick.has(key)) pick.set(key, c);
  }
  return [...pick.values()].map((c) => ({
    op: c.op,
    bad: !!c.expect.error,
    inputs: Object.fromEntries(
      Object.entries(c.inputs).map(([k, t]) => [k, { shape: t.shape, data: Float32Array.from(t.data.map(decode)) }]),
    ),
    attrs: c.attrs,
  }));
}

test('every op, good and bad, called more times after warm-up than during it, leaves the WASM heaps where warm-up left them', async () => {
  const { loadCore, loadTrainer } = await import('normlab');
  const core = await loadCore();
  const trainer = await loadTrainer(); // the training ops' module
  const cases = workload().map((c) => ({ ...c, module: trainer.ops.includes(c.op) ? trainer : core }));
  const ops = new Set(cases.map((c) => c.op));
  assert.ok(ops.size >= 41, `${ops.size} ops in the workload`);
  const round = () => {
    let errors = 0;
    for (const c of cases) {
      try {
        c.module.run(c.op, c.inputs, c.attrs);
        if (c.bad) throw new Error(`${c.op}: a bad case passed`);
      } catch (e) {
        if (!c.bad) throw e;
        errors++;
      }
    }
    return errors;
  };
  // Sized to what it must detect. Heap in use (mallinfo) is exact: measured at the end
  // of each of 3000 rounds after the first, it did not move by a byte, so a leak of
  // 16 bytes in one path of one op shows after a single round; 400 rounds make it
  // 6400 bytes. A container that grows per call grows its buffer by doubling: more
  // calls after warm-up than in it cross at least one doubling, so it shows too.
  const warmup = 200,
    rounds = 2 * warmup;
  for (let i = 0; i < warmup; i++) round();
  const before = core.heapBytes(),
    memBefore = core.memoryBytes(),
    trainerBefore = trainer.heapBytes();
  let errors = 0;
  const t0 = Date.now();
  for (let i = 0; i < rounds; i++) errors += round();
  const after = core.heapBytes(),
    memAfter = core.memoryBytes(),
    trainerAfter = trainer.heapBytes();
  console.log(
    `leak: ${rounds * cases.length} calls over ${ops.size} ops (${errors} rejected as bad input) in ${((Date.now() - t0) / 1000).toFixed(1)} s; ` +
      `heap in use ${before} -> ${after} bytes, WASM memory ${memBefore} -> ${memAfter} bytes; ` +
      `training module's heap ${trainerBefore} -> ${trainerAfter} bytes`,
  );
  assert.ok(
    cases.some((c) => c.module === trainer) && trainerAfter <= trainerBefore,
    `training module's heap grew from ${trainerBefore} to ${trainerAfter}`,
  );
  assert.ok(after <= before, `heap grew from ${before} to ${after}`);
  assert.equal(memAfter, memBefore);
});

test('the camelCase spellings, targets and resident tensors give back all they take', async () => {
  const { loadCore } = await import('normlab');
  const core = await loadCore();
  const x = Float32Array.from({ length: 96 }, (_, i) => Math.sin(i));
  const round = () => {
    const t = core.tensor([4, 24], x),
      u = core.tensor([4, 24]);
    core.layerNorm(t, { out: u });
    core.rmsNorm(x, { shape: [4, 24], gamma: x.subarray(0, 24) });
    core.softmax(t);
    core.groupNorm(x, {
      shape: [2, 4, 12],
      numGroups: 2,
      out: u.data.length === 96 ? new Float32Array(96) : undefined,
    });
    core.attention(t, { k: t, v: t });
    core.l2Normalize([3, 4]);
    const bad = core.tensor([2], [1, NaN]);
    assert.throws(() => core.layerNorm(bad), /non-finite/);
    bad.free();
    t.free();
    u.free();
  };
  for (let i = 0; i < 200; i++) round();
  globalThis.gc?.();
  const before = core.heapBytes();
  for (let i = 0; i < 20000; i++) round();
  const after = core.heapBytes();
  console.log(
    `leak: 20,000 rounds of camelCase calls, targets and resident tensors: heap in use ${before} -> ${after} bytes`,
  );
  assert.ok(after <= before, `heap grew from ${before} to ${after}`);

  // Tensors nobody frees are freed once the garbage collector takes them.
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  core.tensor([64]).free(); // the allocator's own first-use bookkeeping
  gc();
  await new Promise((r) => setTimeout(r, 10));
  const start = core.heapBytes();
  (() => {
    for (let i = 0; i < 2000; i++) core.tensor([64]);
  })();
  const held = core.heapBytes();
  for (let i = 0; i < 10 && core.heapBytes() > start; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 10)); // finalizers run after the collection
  }
  console.log(
    `leak: 2,000 forgotten tensors: heap ${start} -> ${held} -> ${core.heapBytes()} bytes after garbage collection`,
  );
  assert.ok(held >= start + 2000 * 256, 'the tensors took their memory');
  // All of it back, up to the allocator's bookkeeping (less than one 64-number tensor, 264 bytes).
  assert.ok(core.heapBytes() <= start + 64, 'the garbage collector gave it back');
});

test('requests beyond the limits are errors, and the core stays usable', async () => {
  const { loadCore } = await import('normlab');
  const core = await loadCore();
  assert.throws(() => core.run('random_normal', {}, { shape: [1 << 13, 1 << 13] }), /more than the limit/);
  assert.throws(() => core.run('score_spread', {}, { d_k: 4096, count: 100000 }), /more than the limit/);
  assert.throws(
    () => core.run('spectral_norm', { W: { shape: [2, 2], data: [1, 0, 0, 1] } }, { n_power_iterations: 1e9 }),
    /n_power_iterations/,
  );
  assert.throws(
    () => core.run('l2_normalize_jacobian', { x: { shape: [1 << 13], data: new Float32Array(1 << 13).fill(1) } }),
    /limit/,
  );
  // Too much attention work is an error at once, not a minute's hang.
  const q = core.tensor([1, 4096, 1024]);
  assert.throws(
    () => core.attention(q, { k: q, v: q }),
    (e) => e.code === 'too_large' && /scaled_dot_product_attention: .*more than the limit/.test(e.message),
  );
  q.free();
  assert.throws(() => core.layerNorm({ shape: [1 << 26], data: new Float32Array(4) }), /layer_norm: .*limit/);
  // the largest tensor allowed still works (2^25 elements, 128 MiB)
  const big = core.run('z_score_apply', {
    x: { shape: [1 << 24, 2], data: new Float32Array(1 << 25).fill(3) },
    mean: { shape: [2], data: [1, 2] },
    std: { shape: [2], data: [2, 1] },
  });
  assert.equal(big.y.data.length, 1 << 25);
  assert.deepEqual([big.y.data[0], big.y.data[1], big.y.data[(1 << 25) - 1]], [1, 1, 1]);
  assert.deepEqual(Array.from(core.l2Normalize([3, 4])), [Math.fround(0.6), Math.fround(0.8)]);
});
