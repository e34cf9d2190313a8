// `npm run bench`: kernels and per-call costs measured side by side in one
// process, medians over repeated rounds, reported as ratios. Writes
// bench/results.json. Peers so far: plain JavaScript loops and the same C++
// compiled natively with g++ -O3; the WASM copy of the same bytes gives the
// memory-bandwidth reference.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadCore } from '../web/core/normlab.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

function median(fn, rounds = ROUNDS) {
  fn();
  const t = [];
  for (let i = 0; i < rounds; i++) {
    const a = performance.now();
    fn();
    t.push(performance.now() - a);
  }
  t.sort((x, y) => x - y);
  return t[t.length >> 1];
}

function filled(n) {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = ((i * 2654435761) % 1000) / 500 - 1;
  return a;
}

// ---- plain JavaScript peers (what a docs author might write) ----
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
    for (let i = 0; i < d; i++) z += (y[o + i] = Math.exp(x[o + i] - m));
    for (let i = 0; i < d; i++) y[o + i] /= z;
  }
  return y;
}
function jsGroupNorm(x, n, c, hw, g) {
  return jsLayerNorm(x, n * g, (c / g) * hw, 1e-5, false);
}
function jsAttention(q, b, t, d) {
  const out = new Float32Array(b * t * d), s = new Float32Array(t);
  const scale = 1 / Math.sqrt(d);
  for (let h = 0; h < b; h++) {
    const o = h * t * d;
    for (let i = 0; i < t; i++) {
      let m = -Infinity;
      for (let j = 0; j < t; j++) {
        let dot = 0;
        for (let e = 0; e < d; e++) dot += q[o + i * d + e] * q[o + j * d + e];
        s[j] = dot * scale;
        m = Math.max(m, s[j]);
      }
      let z = 0;
      for (let j = 0; j < t; j++) z += (s[j] = Math.exp(s[j] - m));
      for (let j = 0; j < t; j++) {
        const w = s[j] / z;
        for (let e = 0; e < d; e++) out[o + i * d + e] += w * q[o + j * d + e];
      }
    }
  }
  return out;
}

const core = await loadCore();
const LN = { shape: [8, 512, 768], data: filled(8 * 512 * 768) };
const SM = { shape: [96 * 128, 128], data: filled(96 * 128 * 128) };
const GN = { shape: [8, 32, 64, 64], data: filled(8 * 32 * 64 * 64) };
const Q = { shape: [8, 12, 128, 64], data: filled(8 * 12 * 128 * 64) };

// WASM copy bandwidth for the LayerNorm tensor: read + write of the same bytes.
const bytes = LN.data.length * 4;
const src = core._m.benchAlloc(bytes), dst = core._m.benchAlloc(bytes);
const copyMs = median(() => core._m.benchCopy(dst, src, bytes));
core._m.benchFree(src);
core._m.benchFree(dst);

console.log('building the native peer (g++ -O3)…');
mkdirSync(root + 'build', { recursive: true });
const sources = ['engine', 'kernels', 'linalg', 'registry', 'tensor', 'ops_norms', 'ops_conditioning', 'ops_weights', 'ops_attention',
  'ops_gradients', 'ops_preprocessing', 'ops_shapes', 'ops_figures'].map((f) => `${root}cpp/src/${f}.cpp`);
execFileSync('g++', ['-std=c++17', '-O3', '-DNDEBUG', `-I${root}cpp/include`, `${root}bench/native_bench.cpp`, ...sources, '-o', `${root}build/native_bench`], { stdio: 'inherit' });
const native = JSON.parse(execFileSync(`${root}build/native_bench`, [String(ROUNDS)], { encoding: 'utf8' }));

const rows = [];
const kernel = (name, ours, js, nativeMs, moved) => {
  const row = { name, normlab_ms: ours, js_ms: js, native_ms: nativeMs, vs_js: js / ours, native_over_wasm: nativeMs / ours };
  if (moved) row.fraction_of_copy_bandwidth = copyMs / ours;
  rows.push(row);
};
kernel('layer_norm [8,512,768]', median(() => core.run('layer_norm', { x: LN })), median(() => jsLayerNorm(LN.data, 4096, 768, 1e-5, false)), native.layer_norm, true);
kernel('rms_norm [8,512,768]', median(() => core.run('rms_norm', { x: LN })), median(() => jsLayerNorm(LN.data, 4096, 768, 1e-6, true)), native.rms_norm, true);
kernel('softmax [12288,128]', median(() => core.run('softmax', { x: SM })), median(() => jsSoftmax(SM.data, 12288, 128)), native.softmax);
kernel('group_norm [8,32,64,64] G=8', median(() => core.run('group_norm', { x: GN }, { num_groups: 8 })), median(() => jsGroupNorm(GN.data, 8, 32, 4096, 8)), native.group_norm);
kernel('attention [8,12,128,64]', median(() => core.run('scaled_dot_product_attention', { q: Q, k: Q, v: Q }), 3), median(() => jsAttention(Q.data, 96, 128, 64), 3), native.attention);

// Per call: a 3-vector 100k times through the public API vs plain JS.
const v3 = new Float32Array([1, 2, 3]);
const perCall = (name, apiFn, jsFn) => {
  const n = 100000;
  const api = median(() => { for (let i = 0; i < n; i++) apiFn(); }, 3);
  const js = median(() => { for (let i = 0; i < n; i++) jsFn(); }, 3);
  rows.push({ name: `${name} 3-vector x100k`, normlab_ms: api, js_ms: js, vs_js: js / api });
};
perCall('layerNorm', () => core.layerNorm(v3), () => jsLayerNorm(v3, 1, 3, 1e-5, false));
perCall('rmsNorm', () => core.rmsNorm(v3), () => jsLayerNorm(v3, 1, 3, 1e-6, true));
const out3 = new Float32Array(3);
perCall('layerNorm (out)', () => core.layerNorm(v3, { out: out3 }), () => jsLayerNorm(v3, 1, 3, 1e-5, false));
perCall('l2Normalize', () => core.l2Normalize(v3), () => { let s = 0; for (const e of v3) s += e * e; const n = Math.max(Math.sqrt(s), 1e-12); return v3.map((e) => e / n); });

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.versions.node}`;
console.log(`\nnormlab bench — ${machine}; WASM copy of ${bytes} bytes: ${copyMs.toFixed(2)} ms (native memcpy ${native.copy.toFixed(2)} ms)\n`);
console.log('| case | normlab ms | plain JS ms | native g++ -O3 ms | normlab vs JS | native/WASM | share of copy bandwidth |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  const f = (v, d = 2) => (v === undefined ? '' : v.toFixed(d));
  console.log(`| ${r.name} | ${f(r.normlab_ms)} | ${f(r.js_ms)} | ${f(r.native_ms)} | ${f(r.vs_js)}× | ${f(r.native_over_wasm)} | ${r.fraction_of_copy_bandwidth ? (100 * r.fraction_of_copy_bandwidth).toFixed(0) + '%' : ''} |`);
}
writeFileSync(root + 'bench/results.json', JSON.stringify({ machine, date: new Date().toISOString(), copy_ms: copyMs, native, rows }, null, 2));
console.log('\nwrote bench/results.json');
