// The public JS API of the WASM core under Node: one shared core, named
// functions, errors as JS Errors with the core's message, usable afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';

test('importing normlab and normlab/elements touches no DOM global', async () => {
  assert.equal(typeof globalThis.document, 'undefined');
  const api = await import('normlab');
  const elements = await import('normlab/elements');
  assert.equal(typeof api.loadCore, 'function');
  assert.equal(typeof elements.defineElements, 'function');
  assert.ok(elements.elements['nl-bar-compare']);
  elements.defineElements(); // no customElements registry in Node: a no-op, not a crash
  assert.equal(typeof globalThis.window, 'undefined');
});

test('loadCore returns one shared core however many ask', async () => {
  const { loadCore } = await import('normlab');
  const [a, b] = await Promise.all([loadCore(), loadCore()]);
  assert.equal(a, b);
  assert.equal(await loadCore(), a);
});

test('the training module: its own core, loaded on request, with the training ops and none of the others', async () => {
  const { loadCore, loadTrainer, NormlabError } = await import('normlab');
  const [core, trainer] = await Promise.all([loadCore(), loadTrainer()]);
  assert.equal(await loadTrainer(), trainer);
  assert.notEqual(trainer, core);
  assert.deepEqual([...trainer.ops].sort(), [
    'layer_norm_backward',
    'rms_norm_backward',
    'tfm_grad',
    'tfm_init',
    'tfm_sample',
    'tfm_step',
    'train_data',
    'train_grad',
    'train_init',
    'train_predict',
    'train_step',
  ]);
  assert.ok(!core.ops.includes('train_step'));
  assert.throws(
    () => core.run('train_step', {}, {}),
    (e) => e instanceof NormlabError && e.code === 'unknown_op',
  );
  // A resident tensor belongs to one module's memory: the other refuses it, as input and as target, by name.
  const t = core.tensor([1, 3], [1, 2, 3]);
  const dy = { shape: [1, 3], data: [1, 1, 1] };
  assert.throws(
    () => trainer.run('layer_norm_backward', { x: t, dy }),
    (e) =>
      e instanceof NormlabError &&
      /layer_norm_backward: input x is a tensor of the other module/.test(e.message) &&
      e.argument === 'x',
  );
  const u = trainer.tensor([1, 3]);
  assert.throws(
    () => core.layerNorm([1, 2, 3], { out: u }),
    /layer_norm: the target for output y is a tensor of the other module/,
  );
  assert.throws(() => core.layerNorm([1, 2, 3], { out: u.data }), /tensor of the other module/);
  assert.deepEqual(Array.from(u.data), [0, 0, 0]); // not written
  // the data itself crosses: LN backward at x = (1, 2, 3), dy = 1 (hand-derived: dx = 0, dweight = normalized x)
  const g = trainer.layerNormBackward(Float32Array.from(t.data), { shape: [1, 3], dy, eps: 0 });
  assert.ok(g.dx.every((v) => Math.abs(v) < 1e-6));
  assert.ok(Math.abs(g.dweight[2] - Math.sqrt(1.5)) < 1e-6);
  trainer.layerNormBackward(t.data, { shape: [1, 3], dy, eps: 0, outDx: u }); // a view of the core's memory is copied in
  assert.ok(u.data.every((v) => Math.abs(v) < 1e-6));
  t.free();
  u.free();
  assert.deepEqual(
    Array.from(core.layerNorm([1, 2, 3], { eps: 0 })).map((v) => Math.round(v * 1e4) / 1e4),
    [-1.2247, 0, 1.2247],
  );
});

// docs/ops.md, read as the registry reads: one `### op` section per operation, then
// `- key: value` lines (module, inputs, attrs, outputs, reference).
function readOpsDoc(text) {
  const sections = new Map();
  for (const part of text.split(/^### /m).slice(1)) {
    const [head, ...lines] = part.split('\n');
    const fields = {};
    for (const line of lines) {
      const m = line.match(/^- (\w+): (.*)$/);
      if (m) fields[m[1]] = m[2];
    }
    sections.set(head.trim(), fields);
  }
  return sections;
}

test('docs/ops.md documents every op of both modules as the registry declares it', async () => {
  const { loadCore, loadTrainer } = await import('normlab');
  const [core, trainer] = await Promise.all([loadCore(), loadTrainer()]);
  const fs = await import('node:fs');
  const doc = readOpsDoc(fs.readFileSync(new URL('../../docs/ops.md', import.meta.url), 'utf8'));
  const live = [...core.ops, ...trainer.ops];
  assert.ok(live.length >= 62, `the modules hold ${live.length} ops`);
  assert.deepEqual(
    live.filter((op) => !doc.has(op)),
    [],
    'ops of the registry with no section in docs/ops.md',
  );
  assert.deepEqual(
    [...doc.keys()].filter((op) => !live.includes(op)),
    [],
    'sections of docs/ops.md for no op of the registry',
  );
  const list = (v) => (v === '—' ? [] : v.split(', '));
  for (const op of live) {
    const f = doc.get(op);
    const spec = (core.ops.includes(op) ? core : trainer).spec(op);
    for (const key of ['module', 'inputs', 'attrs', 'outputs'])
      assert.ok(key in f, `docs/ops.md: ${op} has no ${key} line`);
    assert.equal(
      f.module,
      (core.ops.includes(op) ? 'core' : 'training') + (spec.described ? ' · described' : ''),
      `docs/ops.md: module of ${op}`,
    );
    assert.deepEqual(
      list(f.inputs),
      spec.inputs.map((i) => i.name + (i.optional ? '?' : '')),
      `docs/ops.md: inputs of ${op}`,
    );
    assert.deepEqual(list(f.outputs), spec.outputs, `docs/ops.md: outputs of ${op}`);
    // `name (kind) = default`, or `name (kind, required | optional: why)` for an attribute with no default
    const attrs =
      f.attrs === '—'
        ? []
        : f.attrs.split('; ').map((a) => {
            const m = a.match(/^(\w+) \((\w+)(, (?:required|optional: [^)]+))?\)( = .+)?$/);
            assert.ok(m, `docs/ops.md: ${op} has an attribute it cannot read: ${a}`);
            assert.ok(!m[3] !== !m[4], `docs/ops.md: ${op}: ${a} needs either a default or 'required' / 'optional: …'`);
            return { name: m[1], kind: m[2], hasDefault: Boolean(m[4]), optional: Boolean(m[3]?.includes('optional')) };
          });
    assert.deepEqual(
      attrs,
      spec.attrs.map((a) => ({
        name: a.name,
        kind: a.kind,
        hasDefault: 'default' in a,
        optional: Boolean(a.optional),
      })),
      `docs/ops.md: attributes of ${op}`,
    );
  }
});

test('every op with a reference in docs/ops.md is provided by one module and has good and bad reference cases', async () => {
  const { loadCore, loadTrainer } = await import('normlab');
  const core = await loadCore();
  const trainer = await loadTrainer();
  const fs = await import('node:fs');
  const documented = JSON.parse(fs.readFileSync(new URL('../conformance/ops-list.json', import.meta.url), 'utf8'));
  assert.ok(documented.length >= 41, `ops-list.json names ${documented.length} ops`);
  const doc = readOpsDoc(fs.readFileSync(new URL('../../docs/ops.md', import.meta.url), 'utf8'));
  const referenced = [...doc].filter(([, f]) => 'reference' in f).map(([op]) => op);
  assert.deepEqual(
    documented,
    referenced,
    'tests/conformance/ops-list.json is out of date: rerun scripts/gen_references.py',
  );
  const dir = new URL('../conformance/cases/', import.meta.url);
  const cases = fs.readdirSync(dir).flatMap((f) => JSON.parse(fs.readFileSync(new URL(f, dir), 'utf8')));
  for (const op of documented) {
    assert.ok(core.ops.includes(op) !== trainer.ops.includes(op), `${op} is in neither module or in both`);
    assert.ok(
      cases.some((c) => c.op === op && c.expect.outputs),
      `${op} has no reference case`,
    );
    assert.ok(
      cases.some((c) => c.op === op && c.expect.error),
      `${op} has no bad-input case`,
    );
  }
});

test('named functions take and return Float32Arrays (article values)', async () => {
  const { loadCore } = await import('normlab');
  const core = await loadCore();
  const ln = core.layerNorm(new Float32Array([101, 102, 103]), { eps: 0 });
  assert.ok(ln instanceof Float32Array);
  const r = Math.sqrt(1.5);
  [-r, 0, r].forEach((w, i) => assert.ok(Math.abs(ln[i] - w) < 1e-6, `ln[${i}] = ${ln[i]}`));
  const l2 = core.l2Normalize([3, 4]);
  assert.ok(Math.abs(l2[0] - 0.6) < 1e-7 && Math.abs(l2[1] - 0.8) < 1e-7);
  const rms = core.rmsNorm([3, 4], { eps: 0 });
  assert.ok(Math.abs(rms[0] - 3 / Math.sqrt(12.5)) < 1e-6);
  const sm = core.softmax([10, 0]);
  assert.ok(Math.abs(sm[0] - 0.9999546) < 1e-6);
  const bn = core.batchNorm([1, 3], { shape: [2, 1], runningMean: [0], runningVar: [1], momentum: 0.5, eps: 0 });
  assert.deepEqual(Array.from(bn.y), [-1, 1]);
  assert.deepEqual(Array.from(bn.runningMean), [1]);
  assert.deepEqual(Array.from(bn.runningVar), [1.5]);
  const gn = core.groupNorm({ shape: [1, 2, 2], data: [1, 3, 5, 7] }, { numGroups: 2, eps: 0 });
  assert.deepEqual(Array.from(gn), [-1, 1, -1, 1]);
  const att = core.attention(
    { shape: [1, 2], data: [1, 0] },
    { k: { shape: [2, 2], data: [1, 0, 0, 1] }, v: { shape: [2, 1], data: [1, 0] }, scale: 1 },
  );
  assert.ok(Math.abs(att.weights[0] - 0.7310586) < 1e-6);
});

test('errors are JS Errors carrying the core message, and the core stays usable', async () => {
  const { loadCore, NormlabError } = await import('normlab');
  const core = await loadCore();
  const x = { shape: [3], data: [1, 2, 3] };
  // [call, message, code, argument]: the code and argument are what pages key translations by.
  const cases = [
    [
      () => core.run('layer_norm', { x: { shape: [3], data: [1, NaN, 3] } }),
      /layer_norm: x has a non-finite value \(NaN\) at index 1/,
      'not_finite',
      'x',
    ],
    [
      () => core.run('layer_norm', { x }, { eps: -1 }),
      /layer_norm: eps must be >= 0 \(got -1\)/,
      'out_of_range',
      'eps',
    ],
    [
      () => core.run('layer_norm', { x, gamma: { shape: [2], data: [1, 1] } }),
      /layer_norm: gamma has shape \[2\] but must have shape \[3\]/,
      'bad_shape',
      'gamma',
    ],
    [() => core.run('layer_norm', { x: { shape: [0], data: [] } }), /layer_norm: x is empty/, 'empty', 'x'],
    [
      () => core.run('layer_norm', { x }, { epsilon: 1 }),
      /layer_norm: unknown attribute 'epsilon'/,
      'unknown_attribute',
      'epsilon',
    ],
    [() => core.run('no_such_op', { x }), /unknown operation 'no_such_op'/, 'unknown_op', ''],
    [
      () => core.run('layer_norm', { x: { shape: [2, 2], data: [1, 2, 3] } }),
      /layer_norm: x has 3 values but shape \[2, 2\] needs 4/,
      'bad_shape',
      'x',
    ],
    [() => core.run('layer_norm', { x: { shape: [1e9, 1e9], data: [] } }), /limit/, 'too_large', 'x'],
    [() => core.run('layer_norm', { x: { shape: [-1], data: [] } }), /invalid size/, 'bad_shape', 'x'],
    [() => core.run('layer_norm', { x }, { eps: {} }), /attribute eps must be/, 'invalid', 'eps'],
    [
      () => core.run('layer_norm', { x: { shape: [3], data: [2, 2, 2] } }, { eps: 0 }),
      /zero spread and eps is 0/,
      'zero_spread',
      'eps',
    ],
    [
      () => core.run('group_norm', { x: { shape: [1, 5, 2], data: new Array(10).fill(1) } }, { num_groups: 2 }),
      /must divide/,
      'not_divisible',
      'num_groups',
    ],
    [
      () =>
        core.run('reduction_group', {}, { method: 'group_norm', shape: [3, 4, 5], index: [0, 0, 0], num_groups: 2 }),
      /method group_norm: num_groups \(2\) must divide/,
      'not_divisible',
      'num_groups',
    ],
    [
      () => core.run('angle_between', { a: { shape: [2], data: [0, 0] }, b: { shape: [2], data: [1, 0] } }),
      /zero vector/,
      'zero_vector',
      '',
    ],
  ];
  for (const [fn, re, code, argument] of cases) {
    assert.throws(fn, (e) => e instanceof Error && e instanceof NormlabError && re.test(e.message), String(re));
    try {
      fn();
    } catch (e) {
      assert.equal(e.code, code, `code of ${e.message}`);
      assert.equal(e.argument, argument, `argument of ${e.message}`);
      if (code !== 'unknown_op') assert.equal(e.op, e.message.split(':')[0]);
    }
    const y = core.layerNorm([1, 2, 3], { eps: 0 }); // usable right after
    assert.ok(Math.abs(y[2] - Math.sqrt(1.5)) < 1e-6);
  }
});

test('outputs are copies, not views into WASM memory', async () => {
  const { loadCore } = await import('normlab');
  const core = await loadCore();
  const a = core.l2Normalize([3, 4]);
  core.run('layer_norm', { x: { shape: [1 << 20], data: new Float32Array(1 << 20).fill(1).map((v, i) => i % 7) } });
  assert.deepEqual(Array.from(a), [Math.fround(0.6), Math.fround(0.8)]);
});

test('the camelCase functions agree with core.run and keep its errors', async () => {
  const { loadCore } = await import('normlab');
  const core = await loadCore();
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 6 - 3;
  for (const width of [1, 3, 4, 33, 768]) {
    const rows = 3;
    const x = Float32Array.from({ length: rows * width }, () => rnd() + 100);
    const gamma = Float32Array.from({ length: width }, rnd),
      beta = Float32Array.from({ length: width }, rnd);
    const t = { shape: [rows, width], data: x };
    const cases = [
      [
        core.layerNorm(x, { shape: [rows, width], gamma, beta, eps: 1e-3 }),
        core.run(
          'layer_norm',
          { x: t, gamma: { shape: [width], data: gamma }, beta: { shape: [width], data: beta } },
          { eps: 1e-3 },
        ).y.data,
      ],
      [
        core.rmsNorm(x, { shape: [rows, width], gamma }),
        core.run('rms_norm', { x: t, gamma: { shape: [width], data: gamma } }).y.data,
      ],
      [core.l2Normalize(x, { shape: [rows, width] }), core.run('l2_normalize', { x: t }).y.data],
    ];
    if (width === 1) cases.shift(); // LayerNorm of one number: a zero variance needs eps, tested below
    for (const [named, viaRun] of cases) {
      assert.equal(named.length, viaRun.length);
      named.forEach((v, i) => assert.equal(v, viaRun[i], `width ${width} [${i}] ${v} vs ${viaRun[i]}`));
    }
  }
  assert.throws(() => core.layerNorm([1, NaN, 3]), /layer_norm: x has a non-finite value \(NaN\) at index 1/);
  assert.throws(() => core.layerNorm([2, 2, 2], { eps: 0 }), /layer_norm: group 0 has zero spread/);
  assert.throws(() => core.rmsNorm([1, 2], { eps: -1 }), /rms_norm: eps must be >= 0/);
  const out = new Float32Array(3);
  assert.equal(core.layerNorm([1, 2, 3], { eps: 0, out }), out, 'writes into a given out array');
  assert.ok(Math.abs(out[2] - Math.sqrt(1.5)) < 1e-6);
});

test('resident tensors (core.tensor) are read and written in place and agree with core.run', async () => {
  const { loadCore, NlTensor } = await import('normlab');
  const core = await loadCore();
  let seed = 11;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 8 - 4;
  const close = (got, want, what) => {
    assert.equal(got.length, want.length, what);
    for (let i = 0; i < want.length; i++)
      assert.ok(
        Math.abs(got[i] - want[i]) <= 1e-6 + 1e-5 * Math.abs(want[i]),
        `${what} [${i}] ${got[i]} vs ${want[i]}`,
      );
  };
  const shape = [2, 6, 20];
  const data = Float32Array.from({ length: 240 }, rnd);
  const x = core.tensor(shape, data),
    y = core.tensor(shape);
  assert.ok(x instanceof NlTensor);
  assert.deepEqual([...x.shape], shape);
  const run = (op, attrs = {}) => core.run(op, { x: { shape, data } }, attrs).y.data;
  assert.equal(core.layerNorm(x, { out: y }), y, 'the out tensor is returned');
  close(y.data, run('layer_norm'), 'layerNorm');
  close(core.rmsNorm(x, { out: y }).data, run('rms_norm'), 'rmsNorm');
  close(core.softmax(x, { out: y }).data, run('softmax'), 'softmax');
  close(core.groupNorm(x, { numGroups: 3, out: y }).data, run('group_norm', { num_groups: 3 }), 'groupNorm');
  close(core.layerNorm(x, { normalizedNdim: 2 }), run('layer_norm', { normalized_ndim: 2 }), 'layerNorm over two axes');
  close(core.softmax(x, { axis: 1 }), run('softmax', { axis: 1 }), 'softmax along axis 1');
  const q = core.tensor([3, 5, 4], Float32Array.from({ length: 60 }, rnd));
  const k = core.tensor([3, 7, 4], Float32Array.from({ length: 84 }, rnd));
  const v = core.tensor([3, 7, 2], Float32Array.from({ length: 42 }, rnd));
  const o = core.tensor([3, 5, 2]),
    w = core.tensor([3, 5, 7]);
  const a = core.attention(q, { k, v, out: o, outWeights: w });
  const b = core.run('scaled_dot_product_attention', { q, k, v });
  assert.equal(a.out, o);
  close(o.data, b.out.data, 'attention out');
  close(w.data, b.weights.data, 'attention weights');
  // In place: x is both input and output.
  const copy = Float32Array.from(x.data);
  core.layerNorm(x, { out: x });
  close(x.data, core.run('layer_norm', { x: { shape, data: copy } }).y.data, 'layerNorm in place');
  // A growth of WASM memory replaces views; `data` is taken anew.
  const before = core.memoryBytes();
  const big = core.tensor([1 << 24]);
  assert.ok(core.memoryBytes() > before, 'the big tensor grew the memory');
  close(
    core.layerNorm(x),
    core.run('layer_norm', { x: { shape, data: Float32Array.from(x.data) } }).y.data,
    'after growth',
  );
  // Errors keep their messages; the tensor stays usable; freed tensors say so.
  x.data[5] = NaN;
  assert.throws(() => core.layerNorm(x), /layer_norm: x has a non-finite value \(NaN\) at index 5/);
  assert.throws(
    () => core.attention(q, { k, v: core.tensor([3, 7, 2], new Float32Array(42).fill(Infinity)) }),
    /scaled_dot_product_attention: v has a non-finite value/,
  );
  assert.throws(() => core.tensor([2, 2], [1, 2, 3]), /tensor: data has 3 numbers but shape \[2, 2\] holds 4/);
  // A view of WASM memory passed as a plain array survives a growth the call itself causes.
  const n = 1 << 23;
  const big2 = core.tensor(
    [n / 64, 64],
    Float32Array.from({ length: n }, (_, i) => Math.sin(i)),
  );
  const copy2 = Float32Array.from(big2.data);
  const grown = core.memoryBytes();
  const viaView = core.softmax(big2.data, { shape: [n / 64, 64] });
  const viaRun = core.run('softmax', { x: { shape: [n / 64, 64], data: big2.data } }).y.data;
  assert.ok(core.memoryBytes() > grown, 'the calls grew the memory');
  const want = core.softmax(copy2, { shape: [n / 64, 64] });
  for (const got of [viaView, viaRun]) for (let i = 0; i < n; i += 4099) assert.equal(got[i], want[i], `[${i}]`);
  big2.free();
  big.free();
  // A target that does not fit is an error, not a silently fresh array.
  assert.throws(
    () => core.layerNorm(new Float32Array(5), { out: new Float32Array(4) }),
    /layerNorm: out must be a Float32Array or resident tensor of 5 elements \(got a Float32Array of 4\)/,
  );
  assert.throws(
    () => core.instanceNorm([1, 2, 3, 4], { shape: [1, 2, 2], out: [0, 0, 0, 0] }),
    /instanceNorm: out must be a Float32Array or resident tensor for output y \(got another kind of object\)/,
  );
  assert.throws(
    () => core.attention(q, { k, v, outWeights: core.tensor([3]) }),
    /scaled_dot_product_attention: the target for output weights holds 3 numbers but weights has 105/,
  );
  const bnOut = new Float32Array(2);
  assert.equal(
    core.batchNorm([1, 3], { shape: [2, 1], runningMean: [0], runningVar: [1], out: bnOut }).y,
    bnOut,
    'out is the first output',
  );
  const inst = new Float32Array(4);
  assert.equal(core.instanceNorm([1, 2, 3, 4], { shape: [1, 2, 2], out: inst }), inst, 'out through the checked path');
  for (const t of [x, y, q, k, v, o, w]) t.free();
  assert.throws(() => core.layerNorm(x), /layer_norm: input x is a resident tensor that was freed/);
  assert.throws(() => x.data, /tensor: this tensor was freed/);
});

test('core.spec carries ranges, string values, optional attributes and output flags from the op table', async () => {
  const { loadCore, loadTrainer } = await import('normlab');
  const core = await loadCore();
  const trainer = await loadTrainer();
  const attr = (m, op, name) => m.spec(op).attrs.find((a) => a.name === name);
  // ranges, by hand from docs/ops.md: eps >= 0, momentum in [0, 1], 1 <= n_power_iterations <= 10000
  assert.deepEqual(attr(core, 'layer_norm', 'eps').range, { lo: 0, loInclusive: true });
  assert.deepEqual(attr(core, 'batch_norm', 'momentum').range, { lo: 0, loInclusive: true, hi: 1, hiInclusive: true });
  assert.deepEqual(attr(core, 'group_norm', 'num_groups').range, { lo: 1, loInclusive: true });
  assert.deepEqual(attr(core, 'spectral_norm', 'n_power_iterations').range, {
    lo: 1,
    loInclusive: true,
    hi: 10000,
    hiInclusive: true,
  });
  assert.deepEqual(attr(core, 'batch_renorm', 'r_max').range, { lo: 1, loInclusive: true });
  assert.deepEqual(attr(core, 'batch_renorm', 'd_max').range, { lo: 0, loInclusive: true });
  // the trainer's momentum and betas stop short of 1 (docs/ops.md, train_step); its eps is in (0, 1]
  assert.deepEqual(attr(trainer, 'train_step', 'momentum').range, {
    lo: 0,
    loInclusive: true,
    hi: 1,
    hiInclusive: false,
  });
  assert.deepEqual(attr(trainer, 'train_init', 'eps').range, { lo: 0, loInclusive: false, hi: 1, hiInclusive: true });
  assert.deepEqual(attr(trainer, 'train_step', 'optimizer').values, ['sgd', 'adam']);
  assert.deepEqual(attr(trainer, 'train_step', 'placement').values, ['none', 'post', 'pre', 'pre_final']);
  assert.throws(
    () => trainer.run('train_init', {}, { depth: 1, gate: 'half' }),
    (e) =>
      e.code === 'out_of_range' &&
      e.argument === 'gate' &&
      e.message === 'train_init: gate must be "none", "zero" or "layer_scale" (got "half")',
  );
  assert.equal(attr(core, 'layer_norm', 'normalized_ndim').range.lo, 1);
  assert.equal('range' in attr(core, 'min_max_apply', 'low'), false);
  assert.equal('range' in attr(core, 'batch_norm', 'training'), false);
  // the door refuses what the range excludes, and takes its ends
  assert.throws(() => core.batchNorm([1, 2], { shape: [2, 1], momentum: 1.01 }), /momentum must be in \[0, 1\]/);
  assert.equal(core.batchNorm([1, 2], { shape: [2, 1], momentum: 1 }).y.length, 2);
  // string values
  assert.deepEqual(attr(core, 'residual_block', 'placement').values, ['pre', 'post']);
  assert.deepEqual(attr(core, 'residual_block', 'norm').values, ['layer_norm', 'rms_norm']);
  assert.deepEqual(attr(core, 'score_spread', 'mode').values, ['raw', 'scaled', 'qk_norm', 'all']);
  assert.equal(attr(core, 'reduction_group', 'method').values, 'described');
  // optional without a default: not required
  for (const [op, name] of [
    ['reduction_group', 'num_groups'],
    ['scaled_dot_product_attention', 'scale'],
  ]) {
    const a = attr(core, op, name);
    assert.equal(a.optional, true, `${op}.${name}`);
    assert.equal(a.required, undefined, `${op}.${name}`);
    assert.equal('default' in a, false, `${op}.${name}`);
    assert.equal(typeof a.note, 'string');
  }
  assert.equal(attr(core, 'group_norm', 'num_groups').required, true);
  // outputs: integers, and those that need optional inputs (outputSpecs parallels outputs)
  const flags = (m, op) => m.spec(op).outputSpecs;
  for (const [m, op] of [
    [core, 'batch_norm'],
    [core, 'conditional_batch_norm'],
    [core, 'reduce_shape'],
    [trainer, 'train_step'],
  ])
    assert.deepEqual(
      flags(m, op).map((o) => o.name),
      m.spec(op).outputs,
    );
  const when = ['running_mean', 'running_var'];
  for (const op of ['batch_norm', 'conditional_batch_norm'])
    assert.deepEqual(flags(core, op), [
      { name: 'y', integer: false },
      { name: 'running_mean', integer: false, when },
      { name: 'running_var', integer: false, when },
    ]);
  assert.deepEqual(flags(core, 'broadcast_shape'), [{ name: 'shape', integer: true }]);
  assert.deepEqual(flags(core, 'reduce_shape'), [{ name: 'shape', integer: true }]);
  assert.deepEqual(flags(core, 'reduction_group'), [{ name: 'members', integer: true }]);
  assert.deepEqual(
    flags(trainer, 'train_step')
      .filter((o) => o.integer)
      .map((o) => o.name),
    ['status'],
  );
  assert.deepEqual(flags(core, 'layer_norm'), [{ name: 'y', integer: false }]);
});
