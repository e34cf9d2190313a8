// `npm run bench`: kernels and per-call costs measured side by side in one
// process, medians over repeated rounds, reported as ratios to the peers of
// the same run. Writes bench/results.json.
//
// Peers: plain JavaScript loops (what a docs author might write),
// onnxruntime-web (WASM backend, one thread, one-node ONNX models built here),
// @tensorflow/tfjs-backend-wasm, and the same C++ kernels compiled natively
// with g++ -O3 (the ceiling). A copy of the same bytes inside WASM gives the
// memory-bandwidth reference.
//
// normlab is measured twice: "arrays" passes Float32Arrays through the public
// named functions (copied into WASM memory and out again into a Float32Array
// given as `out`; a fresh 12 MB result array alone costs ~6 ms), "resident" keeps
// the tensors in WASM memory (core.tensor) and works in place. tfjs keeps its
// input tensor resident and reads the result back (dataSync); onnxruntime
// copies in and out on every run, as its API does.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import * as ort from 'onnxruntime-web';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { loadCore } from '../web/core/normlab.js';
import { onnxModel } from './onnx.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);

async function median(fn, rounds = ROUNDS) {
  await fn();
  const t = [];
  for (let i = 0; i < rounds; i++) {
    const a = performance.now();
    await fn();
    t.push(performance.now() - a);
  }
  t.sort((x, y) => x - y);
  return t[t.length >> 1];
}

function filled(n) {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = Number((BigInt(i) * 2654435761n) % 1000n) / 500 - 1;
  return a;
}

// ---- plain JavaScript peers ----
function jsLayerNorm(x, rows, d, eps, rms) {
  const y = new Float32Array(x.length);
  for (let r = 0; r < rows; r++) {
    const o = r * d;
    let mean = 0;
    if (!rms) {
      for (let i = 0; i < d; i++) mean += x[o + i];
      mean /= d;
    }
    let v = 0;
    for (let i = 0; i < d; i++) {
      const c = x[o + i] - mean;
      v += c * c;
    }
    const inv = 1 / Math.sqrt(v / d + eps);
    for (let i = 0; i < d; i++) y[o + i] = (x[o + i] - mean) * inv;
  }
  return y;
}
function jsSoftmax(x, rows, d) {
  const y = new Float32Array(x.length);
  for (let r = 0; r < rows; r++) {
    const o = r * d;
    let m = -Infinity;
    for (let i = 0; i < d; i++) m = Math.max(m, x[o + i]);
    let z = 0;
    for (let i = 0; i < d; i++) z += y[o + i] = Math.exp(x[o + i] - m);
    for (let i = 0; i < d; i++) y[o + i] /= z;
  }
  return y;
}
function jsAttention(q, b, t, d) {
  const out = new Float32Array(b * t * d),
    w = new Float32Array(b * t * t);
  const scale = 1 / Math.sqrt(d);
  for (let h = 0; h < b; h++) {
    const o = h * t * d;
    for (let i = 0; i < t; i++) {
      const s = w.subarray((h * t + i) * t, (h * t + i + 1) * t);
      let m = -Infinity;
      for (let j = 0; j < t; j++) {
        let dot = 0;
        for (let e = 0; e < d; e++) dot += q[o + i * d + e] * q[o + j * d + e];
        s[j] = dot * scale;
        m = Math.max(m, s[j]);
      }
      let z = 0;
      for (let j = 0; j < t; j++) z += s[j] = Math.exp(s[j] - m);
      for (let j = 0; j < t; j++) {
        s[j] /= z;
        for (let e = 0; e < d; e++) out[o + i * d + e] += s[j] * q[o + j * d + e];
      }
    }
  }
  return { out, w };
}

// ---- the cases ----
const LN = [8, 512, 768],
  SM = [96 * 128, 128],
  GN = [8, 32, 64, 64],
  Q = [8, 12, 128, 64];
const size = (s) => s.reduce((a, b) => a * b, 1);
const data = { ln: filled(size(LN)), sm: filled(size(SM)), gn: filled(size(GN)), q: filled(size(Q)) };

const core = await loadCore();
ort.env.wasm.numThreads = 1;
ort.env.logLevel = 'error';
await tf.setBackend('wasm');
await tf.ready();

// WASM copy bandwidth: a memory.copy of as many bytes as each kernel reads
// (and writes: every kernel here writes as much as its main input, attention
// twice that with its weights), so each row shows its share of a plain copy.
// (a TypedArray copy between two resident tensors: memmove inside WASM memory).
async function copyTime(n) {
  const src = core.tensor([n / 4]),
    dst = core.tensor([n / 4]);
  const a = src.data,
    b = dst.data;
  const ms = await median(() => b.set(a));
  src.free();
  dst.free();
  return ms;
}
const bytes = data.ln.length * 4;
const copyMs = await copyTime(bytes);
const moves = { ln: bytes, rms: bytes, sm: data.sm.length * 4, gn: data.gn.length * 4, att: 3 * data.q.length * 4 };
const copyFor = {};
for (const [k, n] of Object.entries(moves)) copyFor[k] = k === 'ln' || k === 'rms' ? copyMs : await copyTime(n);

console.log('building the native peer (g++ -O3)…');
mkdirSync(root + 'build', { recursive: true });
execFileSync(
  'g++',
  [
    '-std=c++17',
    '-O3',
    '-DNDEBUG',
    `-I${root}cpp/include`,
    `${root}bench/native_bench.cpp`,
    `${root}cpp/src/kernels.cpp`,
    '-o',
    `${root}build/native_bench`,
  ],
  { stdio: 'inherit' },
);
const native = JSON.parse(execFileSync(`${root}build/native_bench`, [String(ROUNDS)], { encoding: 'utf8' }));

// onnxruntime-web: one session per case, built from a one-node model.
const ones = (n) => new Array(n).fill(1),
  zeros = (n) => new Array(n).fill(0);
async function ortCase(model, inputs) {
  const s = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  return async () => {
    const feeds = {};
    for (const [name, [shape, d]] of Object.entries(inputs)) feeds[name] = new ort.Tensor('float32', d, shape);
    const r = await s.run(feeds);
    for (const t of Object.values(r)) void t.data[0];
  };
}
const rowModel = (op, shape, extra, attrs, opset) =>
  onnxModel({
    opset,
    nodes: [{ op, inputs: ['x', ...extra.map((e) => e[0])], outputs: ['y'], attrs }],
    inputs: [['x', shape]],
    outputs: [['y', shape]],
    initializers: extra,
  });
const ortRuns = {
  ln: await ortCase(
    rowModel(
      'LayerNormalization',
      LN,
      [
        ['g', [768], ones(768)],
        ['b', [768], zeros(768)],
      ],
      { axis: -1, epsilon: 1e-5 },
      17,
    ),
    { x: [LN, data.ln] },
  ),
  rms: await ortCase(rowModel('RMSNormalization', LN, [['g', [768], ones(768)]], { axis: -1, epsilon: 1e-6 }, 23), {
    x: [LN, data.ln],
  }),
  sm: await ortCase(rowModel('Softmax', SM, [], { axis: -1 }, 13), { x: [SM, data.sm] }),
  gn: await ortCase(
    rowModel(
      'GroupNormalization',
      GN,
      [
        ['g', [32], ones(32)],
        ['b', [32], zeros(32)],
      ],
      { num_groups: 8, epsilon: 1e-5 },
      21,
    ),
    { x: [GN, data.gn] },
  ),
  att: await ortCase(
    onnxModel({
      opset: 23,
      nodes: [{ op: 'Attention', inputs: ['q', 'k', 'v'], outputs: ['y'] }],
      inputs: [
        ['q', Q],
        ['k', Q],
        ['v', Q],
      ],
      outputs: [['y', Q]],
    }),
    { q: [Q, data.q], k: [Q, data.q], v: [Q, data.q] },
  ),
};

// tfjs-backend-wasm: input tensors resident, the result read back.
const tfIn = {
  ln: tf.tensor(data.ln, LN),
  sm: tf.tensor(data.sm, SM),
  gn: tf.tensor(data.gn, GN),
  q: tf.tensor(data.q, Q),
};
const tfRun = (f) => () => {
  const y = tf.tidy(f);
  y.dataSync();
  y.dispose();
};
const tfLayer = (x, eps, rms) => {
  if (rms) return tf.mul(x, tf.rsqrt(tf.add(tf.mean(tf.square(x), -1, true), eps)));
  const { mean, variance } = tf.moments(x, -1, true);
  return tf.mul(tf.sub(x, mean), tf.rsqrt(tf.add(variance, eps)));
};
const tfRuns = {
  ln: tfRun(() => tfLayer(tfIn.ln, 1e-5, false)),
  rms: tfRun(() => tfLayer(tfIn.ln, 1e-6, true)),
  sm: tfRun(() => tf.softmax(tfIn.sm)),
  gn: tfRun(() => tf.reshape(tfLayer(tf.reshape(tfIn.gn, [8, 8, 4 * 64 * 64]), 1e-5, false), GN)),
  att: tfRun(() => {
    const s = tf.mul(tf.matMul(tfIn.q, tfIn.q, false, true), 1 / Math.sqrt(64));
    return tf.matMul(tf.softmax(s), tfIn.q);
  }),
};

// normlab: arrays through the named functions, and resident tensors.
const res = Object.fromEntries(
  Object.entries({ ln: LN, sm: SM, gn: GN, q: Q }).map(([k, s]) => [k, core.tensor(s, data[k])]),
);
const resOut = {
  ln: core.tensor(LN),
  sm: core.tensor(SM),
  gn: core.tensor(GN),
  q: core.tensor(Q),
  w: core.tensor([8, 12, 128, 128]),
};
const arrOut = {
  ln: new Float32Array(size(LN)),
  sm: new Float32Array(size(SM)),
  gn: new Float32Array(size(GN)),
  q: new Float32Array(size(Q)),
  w: new Float32Array(96 * 128 * 128),
};
const ours = {
  ln: [() => core.layerNorm(data.ln, { shape: LN, out: arrOut.ln }), () => core.layerNorm(res.ln, { out: resOut.ln })],
  rms: [() => core.rmsNorm(data.ln, { shape: LN, out: arrOut.ln }), () => core.rmsNorm(res.ln, { out: resOut.ln })],
  sm: [() => core.softmax(data.sm, { shape: SM, out: arrOut.sm }), () => core.softmax(res.sm, { out: resOut.sm })],
  gn: [
    () => core.groupNorm(data.gn, { shape: GN, numGroups: 8, out: arrOut.gn }),
    () => core.groupNorm(res.gn, { numGroups: 8, out: resOut.gn }),
  ],
  att: [
    () =>
      core.attention(
        { shape: Q, data: data.q },
        { k: { shape: Q, data: data.q }, v: { shape: Q, data: data.q }, out: arrOut.q, outWeights: arrOut.w },
      ),
    () => core.attention(res.q, { k: res.q, v: res.q, out: resOut.q, outWeights: resOut.w }),
  ],
};
// In place (out = x): no write-allocate traffic for a second 12 MB buffer.
const inPlace = {
  ln: () => core.layerNorm(res.ln, { out: res.ln }),
  rms: () => core.rmsNorm(res.ln, { out: res.ln }),
};
const js = {
  ln: () => jsLayerNorm(data.ln, 4096, 768, 1e-5, false),
  rms: () => jsLayerNorm(data.ln, 4096, 768, 1e-6, true),
  sm: () => jsSoftmax(data.sm, 12288, 128),
  gn: () => jsLayerNorm(data.gn, 64, 16384, 1e-5, false),
  att: () => jsAttention(data.q, 96, 128, 64),
};
const cases = [
  ['ln', 'layer_norm [8,512,768]', 'layer_norm'],
  ['rms', 'rms_norm [8,512,768]', 'rms_norm'],
  ['sm', 'softmax [12288,128]', 'softmax'],
  ['gn', 'group_norm [8,32,64,64] G=8', 'group_norm'],
  ['att', 'attention [8,12,128,64]', 'attention'],
];

const rows = [];
for (const [key, name, nativeKey] of cases) {
  const rounds = key === 'att' ? Math.max(3, ROUNDS >> 1) : ROUNDS;
  const row = { name };
  row.normlab_arrays_ms = await median(ours[key][0], rounds);
  row.normlab_resident_ms = await median(ours[key][1], rounds);
  if (inPlace[key]) row.normlab_in_place_ms = await median(inPlace[key], rounds);
  row.js_ms = await median(js[key], key === 'att' ? 3 : rounds);
  row.onnxruntime_ms = await median(ortRuns[key], rounds);
  row.tfjs_wasm_ms = await median(tfRuns[key], rounds);
  row.native_ms = native[nativeKey];
  const best = Math.min(row.normlab_arrays_ms, row.normlab_resident_ms, row.normlab_in_place_ms ?? Infinity);
  const peers = { js: row.js_ms, onnxruntime: row.onnxruntime_ms, tfjs_wasm: row.tfjs_wasm_ms };
  const [fastestName, fastest] = Object.entries(peers).sort((a, b) => a[1] - b[1])[0];
  row.fastest_peer = fastestName;
  row.vs_fastest_peer = fastest / best;
  row.vs_fastest_peer_arrays = fastest / row.normlab_arrays_ms;
  row.wasm_over_native = row.normlab_resident_ms / row.native_ms;
  row.copy_ms = copyFor[key];
  row.share_of_copy_bandwidth = copyFor[key] / row.normlab_resident_ms;
  if (row.normlab_in_place_ms) row.share_of_copy_bandwidth_in_place = copyFor[key] / row.normlab_in_place_ms;
  rows.push(row);
  console.log(
    `${name}: resident ${row.normlab_resident_ms.toFixed(2)} ms, arrays ${row.normlab_arrays_ms.toFixed(2)}, fastest peer ${fastestName} ${fastest.toFixed(2)}`,
  );
}

// The doors side by side: core.run and the camelCase function on Float32Arrays,
// with a fresh result array and with `out`, against plain JS in the same run.
const doors = [];
const CHUNK_ROWS = 128;
const chunk = core.tensor([CHUNK_ROWS, 768], data.ln.subarray(0, CHUNK_ROWS * 768));
function moveThrough(x, y) {
  const n = chunk.size,
    heap = chunk.data;
  for (let at = 0; at < x.length; at += n) {
    heap.set(x.subarray(at, at + n));
    y.set(heap, at);
  }
  return y;
}
for (const [, op, method, peer] of [
  ['ln', 'layer_norm', 'layerNorm', js.ln],
  ['rms', 'rms_norm', 'rmsNorm', js.rms],
]) {
  const row = { name: `${op} [8,512,768]` };
  row.js_ms = await median(peer);
  row.run_ms = await median(() => core.run(op, { x: { shape: LN, data: data.ln } }));
  row.run_out_ms = await median(() => core.run(op, { x: { shape: LN, data: data.ln } }, {}, { out: { y: arrOut.ln } }));
  row.named_ms = await median(() => core[method](data.ln, { shape: LN }));
  row.named_out_ms = await median(() => core[method](data.ln, { shape: LN, out: arrOut.ln }));
  row.resident_ms = await median(() => core[method](res.ln, { out: resOut.ln }));
  // What any door taking Float32Arrays must do, with no math at all: move the
  // input into WASM memory and the result out, in cache-sized chunks (the
  // cheapest order), into a fresh array and into a given one. js / floor is
  // the highest ratio a door could reach in this run.
  row.floor_fresh_ms = await median(() => moveThrough(data.ln, new Float32Array(data.ln.length)));
  row.floor_out_ms = await median(() => moveThrough(data.ln, arrOut.ln));
  // The math alone, on data already in cache: the same op in place on one
  // chunk of rows, as many times as there are chunks (the per-call cost of
  // those calls included).
  row.math_in_cache_ms = await median(() => {
    for (let r = 0; r < LN[0] * LN[1]; r += CHUNK_ROWS) core[method](chunk, { out: chunk });
  });
  for (const k of ['run', 'run_out', 'named', 'named_out', 'resident', 'floor_fresh', 'floor_out'])
    row[`${k}_vs_js`] = row.js_ms / row[`${k}_ms`];
  row.run_over_named = row.run_ms / row.named_ms;
  row.run_out_over_named_out = row.run_out_ms / row.named_out_ms;
  doors.push(row);
}

// Per call: a 3-vector 100k times through the public API vs plain JS.
const perCall = [];
const v3 = new Float32Array([1, 2, 3]),
  out3 = new Float32Array(3);
const jsL2 = (v) => {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.max(Math.sqrt(s), 1e-12),
    y = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) y[i] = v[i] / n;
  return y;
};
const r3 = core.tensor([3], v3),
  o3 = core.tensor([3]);
const x3 = { x: { shape: [3], data: v3 } };
for (const [name, api, peer] of [
  ['core.run layer_norm', () => core.run('layer_norm', x3), () => jsLayerNorm(v3, 1, 3, 1e-5, false)],
  ['layerNorm', () => core.layerNorm(v3), () => jsLayerNorm(v3, 1, 3, 1e-5, false)],
  ['layerNorm (resident)', () => core.layerNorm(r3, { out: o3 }), () => jsLayerNorm(v3, 1, 3, 1e-5, false)],
  ['layerNorm (out)', () => core.layerNorm(v3, { out: out3 }), () => jsLayerNorm(v3, 1, 3, 1e-5, false)],
  ['rmsNorm', () => core.rmsNorm(v3), () => jsLayerNorm(v3, 1, 3, 1e-6, true)],
  ['l2Normalize', () => core.l2Normalize(v3), () => jsL2(v3)],
]) {
  const n = 100000;
  const a = await median(() => {
    for (let i = 0; i < n; i++) api();
  }, 5);
  const b = await median(() => {
    for (let i = 0; i < n; i++) peer();
  }, 5);
  perCall.push({ name: `${name} 3-vector x100k`, normlab_ms: a, js_ms: b, vs_js: b / a });
}
r3.free();
o3.free();
// Embind's fixed cost per call (a bound function that does almost nothing), for the README.
const embindCall =
  ((await median(() => {
    for (let i = 0; i < 100000; i++) core._m.heapBytes();
  }, 5)) /
    100000) *
  1e6;

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.versions.node}`;
const f = (v, d = 2) => (v === undefined ? '' : v.toFixed(d));
console.log(
  `\nnormlab bench — ${machine}; WASM copy of ${bytes} bytes: ${copyMs.toFixed(2)} ms (native memcpy ${native.copy.toFixed(2)} ms)\n`,
);
console.log(
  '| kernel | normlab resident ms | in place ms | arrays ms | plain JS ms | onnxruntime-web ms | tfjs-wasm ms | native g++ -O3 ms | vs fastest peer | WASM / native | share of copy bandwidth (resident / in place) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const pct = (v) => (v ? (100 * v).toFixed(0) + '%' : '');
  const share =
    pct(r.share_of_copy_bandwidth) +
    (r.share_of_copy_bandwidth_in_place ? ` / ${pct(r.share_of_copy_bandwidth_in_place)}` : '');
  console.log(
    `| ${r.name} | ${f(r.normlab_resident_ms)} | ${f(r.normlab_in_place_ms)} | ${f(r.normlab_arrays_ms)} | ${f(r.js_ms)} | ${f(r.onnxruntime_ms)} | ${f(r.tfjs_wasm_ms)} | ${f(r.native_ms)} | ${f(r.vs_fastest_peer, 1)}× (${r.fastest_peer}) | ${f(r.wasm_over_native)} | ${share} |`,
  );
}
console.log(
  '\n| doors, Float32Arrays | plain JS ms | core.run ms | core.run + out ms | camelCase ms | camelCase + out ms | resident ms | run / camelCase (fresh, out) |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of doors) {
  const c = (k) => `${f(r[`${k}_ms`])} (${f(r[`${k}_vs_js`], 1)}×)`;
  console.log(
    `| ${r.name} | ${f(r.js_ms)} | ${c('run')} | ${c('run_out')} | ${c('named')} | ${c('named_out')} | ${c('resident')} | ${f(r.run_over_named)}, ${f(r.run_out_over_named_out)} |`,
  );
}
console.log(
  '\n| floor of an array door (same run) | plain JS ms | moving the data only, fresh result ms | moving the data only, into out ms | the math in cache ms | best a door could do, fresh / out |',
);
console.log('|---|---|---|---|---|---|');
for (const r of doors) {
  const c = (k) => `${f(r[`${k}_ms`])} (ceiling ${f(r[`${k}_vs_js`], 1)}×)`;
  const best = (k) =>
    `${f(r[`${k}_ms`] + r.math_in_cache_ms)} ms (${f(r.js_ms / (r[`${k}_ms`] + r.math_in_cache_ms), 1)}×)`;
  console.log(
    `| ${r.name} | ${f(r.js_ms)} | ${c('floor_fresh')} | ${c('floor_out')} | ${f(r.math_in_cache_ms)} | ${best('floor_fresh')} / ${best('floor_out')} |`,
  );
}
console.log(`\nEmbind's fixed cost per call: ${embindCall.toFixed(0)} ns`);
console.log('\n| per call | normlab ms | plain JS ms | normlab vs JS |');
console.log('|---|---|---|---|');
for (const r of perCall) console.log(`| ${r.name} | ${f(r.normlab_ms)} | ${f(r.js_ms)} | ${f(r.vs_js)}× |`);
writeFileSync(
  root + 'bench/results.json',
  JSON.stringify(
    {
      machine,
      date: new Date().toISOString(),
      copy_ms: copyMs,
      native,
      rows,
      doors,
      embind_call_ns: embindCall,
      per_call: perCall,
    },
    null,
    2,
  ),
);
console.log('\nwrote bench/results.json');
for (const t of [...Object.values(res), ...Object.values(resOut), chunk]) t.free();
