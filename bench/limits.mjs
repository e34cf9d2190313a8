// `npm run bench` (last part): every op of both modules (core and training) called at (just under)
// the largest input the core accepts, in the WASM build. Each tensor holds
// at most 2^25 elements (128 MiB of float32), and ops whose cost grows faster
// than their inputs refuse more than about 2^30 weighted operations, so that
// any valid call answers within about a second; this prints how long the
// largest accepted calls take here.
//
//   node bench/limits.mjs              every case; exits 1 when an op of core.ops has no answered
//                                      case, or when a call fails with something other than a NormlabError
//   node bench/limits.mjs --only=film  the cases whose label holds "film" (no coverage check)
//   node bench/limits.mjs --repeat=3   the best of three calls per case
//
// A case that runs out of WASM memory (1 GiB at most) says so: it is tried
// again in a fresh process (a fresh core, so that memory left fragmented by
// earlier cases is not to blame), and then at half the size when it has a
// smaller fallback.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bothModules } from '../scripts/gen-types.mjs';

// the core's ops and the training module's, each call sent to the module that holds it
const core = await bothModules();
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const only = arg('only');
const exact = arg('case'); // one case by label, for the fresh-process retry
const repeat = Math.max(1, Number(arg('repeat') ?? 1));

const LIMIT = 1 << 25; // elements of one tensor
const count = (shape) => shape.reduce((a, b) => a * b, 1);

// Inputs are made before any clock starts (filling 2^25 numbers in JS takes
// longer than some ops): every input is a view of one of these buffers, so a
// case only names shapes.
const base = new Float32Array(LIMIT + 64);
for (let i = 0; i < base.length; i++) base[i] = Math.sin(i * 1.7) * 0.5;
const onesBuf = new Float32Array(LIMIT).fill(1);
const T = (shape, from = 0) => ({ shape, data: base.subarray(from, from + count(shape)) });
const ones = (shape) => ({ shape, data: onesBuf.subarray(0, count(shape)) }); // variances, std, iqr, masks: > 0
const series = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const TFM = { vocab: 256, d_model: 256, heads: 8, layers: 4, context: 256 };
const tfmTokens = (n) => ({
  tokens: { shape: [1, n], data: new Float32Array(n) },
  targets: { shape: [1, n], data: new Float32Array(n).fill(1) },
});

// A case: the op it calls (the very name passed to core.run), its inputs and
// attributes, an optional label (made from the shapes otherwise) and an
// optional fallback case at half the size for when memory runs out.
const C = (op, inputs, attrs = {}, more = {}) => ({ op, inputs, attrs, ...more });
const dims = (v) => (v.length > 8 ? `[${v.length} entries]` : `[${Array.from(v).join(',')}]`);
function labelOf(c) {
  if (c.label) return c.label;
  const ins = Object.entries(c.inputs).map(([n, t]) => `${n} ${dims(t.shape)}`);
  const ats = Object.entries(c.attrs).map(([n, v]) => `${n} ${Array.isArray(v) ? dims(v) : v}`);
  return `${c.op} ${[...ins, ...ats].join(', ')}${c.note ? ` (${c.note})` : ''}`;
}
// The same case at half the size (its fallback when memory runs out): every
// size equal to `channels` halved, or else the first axis of every input.
const half = (c, channels) => {
  const cut = (s) => (channels ? s.map((d) => (d === channels ? d / 2 : d)) : [s[0] / 2, ...s.slice(1)]);
  return {
    ...c,
    inputs: Object.fromEntries(
      Object.entries(c.inputs).map(([n, t]) => [
        n,
        { shape: cut(t.shape), data: t.data.subarray(0, count(cut(t.shape))) },
      ]),
    ),
    fallback: undefined,
    label: undefined,
  };
};

// Channels-heavy layouts ([2, 2^24] or [4, 2^23] with per-channel statistics)
// are the slowest for the normalizations: one statistic per column, read strided.
const q2k = T([1, 2048, 128]);
const cases = [
  // ---- the work-limited ops at their work limit (2^30) ----
  C(
    'scaled_dot_product_attention',
    { q: q2k, k: q2k, v: q2k, mask: ones([2048, 2048]) },
    {},
    { label: 'scaled_dot_product_attention, mask, [1,2048,128]' },
  ),
  C(
    'scaled_dot_product_attention',
    { q: q2k, k: q2k, v: q2k },
    { causal: true },
    { label: 'scaled_dot_product_attention, causal, [1,2048,128]' },
  ),
  C(
    'scaled_dot_product_attention',
    { q: T([1, 5792, 16]), k: T([1, 5792, 16]), v: T([1, 5792, 16]) },
    {},
    { note: 'weights of 2^25 elements' },
  ),
  C(
    'scaled_dot_product_attention',
    { q: q2k, k: q2k, v: q2k },
    { scale: 1e30 },
    { note: 'scores overflow float32: the double path' },
  ),
  C(
    'qk_norm_attention',
    { q: q2k, k: q2k, v: q2k, mask: ones([2048, 2048]) },
    { g: 1e30 },
    { note: 'scores overflow float32: the double path' },
  ),
  C('residual_block', { x: T([14560, 256]), W: T([256, 256]) }, {}, { label: 'residual_block x [14560,256]' }),
  C('residual_block', { x: T([524288, 32]), W: T([32, 32]) }, { placement: 'post' }),
  C('score_spread', {}, { d_k: 4096, count: 4096 }, { label: 'score_spread d_k 4096, count 4096' }),
  C(
    'linear_map',
    { W: T([256, 256]), points: T([10922, 256]) },
    {},
    { label: 'linear_map W [256,256], points [10922,256]' },
  ),
  C('linear_map', { W: T([4729, 32]), points: T([4729, 32]) }, {}, { note: 'at its work limit, 1.5 k m n' }),
  C('singular_values', { W: T([9556, 256]) }, {}, { label: 'singular_values W [9556,256]' }),
  C('singular_values', { W: T([698880, 32]) }),
  C(
    'local_response_norm',
    { x: T([4, 960, 256]) },
    { size: 960 },
    { label: 'local_response_norm x [4,960,256], size 960' },
  ),
  C('local_response_norm', { x: T([49152, 32, 1]) }, { size: 32 }),
  C(
    'spectral_norm',
    { W: T([4096, 4096]) },
    { n_power_iterations: 4 },
    { label: 'spectral_norm W [4096,4096], 4 iterations' },
  ),
  C('spectral_norm', { W: T([LIMIT / 2, 2]), u0: T([LIMIT / 2]) }, { n_power_iterations: 1 }, { fallback: 'first' }),
  C('covariance', { x: T([16384, 256]) }, {}, { label: 'covariance x [16384,256]' }),
  C('covariance', { x: T([32, 5792]) }, {}, { note: 'cov of 2^25 elements' }),
  C('whiten', { x: T([7168, 256]) }, {}, { label: 'whiten x [7168,256]' }),
  C('whiten', { x: T([524032, 32]) }),
  C('robust_fit', { x: T([16384, 1024]) }),
  C('robust_fit', { x: T([LIMIT, 1]) }),

  // ---- vector norms and softmax: x of 2^25 elements, along axis 0 of [2, 2^24] ----
  ...['l2_normalize', 'l1_normalize', 'max_normalize', 'softmax'].map((op) =>
    C(op, { x: T([2, LIMIT / 2]) }, { axis: 0 }),
  ),
  C('scale_norm', { x: T([2, LIMIT / 2]), g: T([1]) }, { axis: 0 }),

  // ---- normalizations of activations: x of 2^25 elements with every optional input ----
  C('layer_norm', { x: T([LIMIT / 2, 2]), gamma: T([2]), beta: T([2]) }),
  C('rms_norm', { x: T([LIMIT / 2, 2]), gamma: T([2]) }),
  C(
    'batch_norm',
    {
      x: T([2, LIMIT / 2]),
      gamma: T([LIMIT / 2]),
      beta: T([LIMIT / 2]),
      running_mean: T([LIMIT / 2]),
      running_var: ones([LIMIT / 2]),
    },
    {},
    { fallback: 'channels' },
  ),
  C('instance_norm', { x: T([1, LIMIT / 2, 2]), gamma: T([LIMIT / 2]), beta: T([LIMIT / 2]) }),
  C('group_norm', { x: T([1, LIMIT / 2, 2]), gamma: T([LIMIT / 2]), beta: T([LIMIT / 2]) }, { num_groups: LIMIT / 4 }),
  C(
    'ghost_batch_norm',
    { x: T([4, LIMIT / 4]), gamma: T([LIMIT / 4]), beta: T([LIMIT / 4]) },
    { virtual_batch_size: 2 },
    { fallback: 'channels' },
  ),
  C(
    'batch_renorm',
    {
      x: T([4, LIMIT / 4]),
      running_mean: T([LIMIT / 4]),
      running_var: ones([LIMIT / 4]),
      gamma: T([LIMIT / 4]),
      beta: T([LIMIT / 4]),
    },
    {},
    { fallback: 'channels' },
  ),
  C(
    'switchable_norm',
    {
      x: T([2, LIMIT / 4, 1, 2]),
      gamma: T([LIMIT / 4]),
      beta: T([LIMIT / 4]),
      mean_logits: T([3]),
      var_logits: T([3]),
    },
    {},
    { fallback: 'channels' },
  ),
  C(
    'filter_response_norm',
    { x: T([1, LIMIT / 2, 1, 2]), gamma: T([LIMIT / 2]), beta: T([LIMIT / 2]), tau: T([LIMIT / 2]) },
    {},
    { fallback: 'channels' },
  ),

  // ---- conditioning ----
  C(
    'ada_layer_norm',
    { x: T([LIMIT / 2, 1, 2]), scale: T([LIMIT / 2, 2]), shift: T([LIMIT / 2, 2]) },
    {},
    { fallback: 'first' },
  ),
  C(
    'adaptive_rms_norm',
    { x: T([LIMIT / 2, 1, 2]), scale: T([LIMIT / 2, 2]), shift: T([LIMIT / 2, 2]) },
    {},
    { fallback: 'first' },
  ),
  C(
    'gated_residual',
    { x: T([LIMIT / 2, 1, 2]), update: T([LIMIT / 2, 1, 2], 1), gate: T([LIMIT / 2, 2], 2) },
    {},
    { fallback: 'first' },
  ),
  C(
    'film',
    { x: T([LIMIT / 2, 2]), gamma: T([LIMIT / 2, 2], 1), beta: T([LIMIT / 2, 2], 2) },
    {},
    { fallback: 'first' },
  ),
  C(
    'conditional_batch_norm',
    {
      x: T([4, LIMIT / 4]),
      gamma: T([4, LIMIT / 4], 1),
      beta: T([4, LIMIT / 4], 2),
      running_mean: T([LIMIT / 4]),
      running_var: ones([LIMIT / 4]),
    },
    {},
    { fallback: 'channels' },
  ),
  C('adain', { x: T([1, LIMIT / 2, 2]), style: T([1, LIMIT / 2, 2], 1) }, {}, { fallback: 'channels' }),
  C(
    'spade',
    { x: T([32, 32, 256, 128]), gamma_map: T([32, 32, 256, 128], 1), beta_map: T([32, 32, 256, 128], 2) },
    {},
    { fallback: 'first' },
  ),

  // ---- weights and gradients ----
  C('weight_norm', { v: T([LIMIT / 2, 2]), g: T([LIMIT / 2], 1) }, {}, { fallback: 'first' }),
  C('weight_standardize', { w: T([LIMIT / 2, 2]) }),
  C('clip_grad_norm', { g: T([11184810]) }, { max_norm: 1, norm_type: 3.5 }, { note: 'at its work limit, 96 a power' }),
  C('clip_grad_norm', { g: T([LIMIT]) }, { max_norm: 1, norm_type: 2 }),
  C('l2_normalize_jacobian', { x: T([5180]) }, {}, { note: 'at its work limit, 40 d^2' }),
  C('layer_norm_jacobian', { x: T([5180]) }, {}, { note: 'at its work limit, 40 d^2' }),

  // ---- preprocessing: x [n, f] of 2^25 elements ----
  C('z_score_fit', { x: T([2, LIMIT / 2]) }),
  C('z_score_apply', { x: T([2, LIMIT / 2]), mean: T([LIMIT / 2], 1), std: ones([LIMIT / 2]) }),
  C('min_max_fit', { x: T([32768, 1024]) }),
  C('min_max_apply', { x: T([32768, 1024]), min: T([1024], 1), max: ones([1024]) }),
  C('robust_apply', { x: T([2, LIMIT / 2]), median: T([LIMIT / 2], 1), iqr: ones([LIMIT / 2]) }),

  // ---- figure helpers ----
  C('axis_ticks', { x: T([LIMIT]) }, { count: 50, symmetric: true }),
  C('angle_between', { a: T([LIMIT]), b: T([LIMIT], 1) }),
  C('random_normal', {}, { shape: [22369621] }, { note: 'at its work limit, 48 a normal' }),
  C('split_perturbation', { x: T([LIMIT]), delta: T([LIMIT], 1) }, {}, { note: 'closed form: three outputs of 2^25' }),
  C('bar_compare', { x: T([LIMIT / 8]) }, { offset: 100 }, { note: 'at its work limit, 256 a number' }),
  C('linspace', {}, { start: -1, stop: 1, count: 100000 }),
  C('unit_circle', {}, { count: 100000 }),
  C('moments', { x: T([LIMIT]) }),
  C('log_axis', { x: T([LIMIT / 4], 1) }, { count: 50 }, { note: 'at its work limit, 128 a logarithm' }),
  C('standardize_rows', { x: T([LIMIT / 2, 2]) }),
  C('row_entropy', { p: { shape: [LIMIT / 2, 2], data: new Float32Array(LIMIT).fill(0.5) } }),
  // ---- training (depth 64, width 64: 545,218 parameters; 63 points keep 262,080 activations, the most allowed) ----
  C('layer_norm_backward', { x: T([LIMIT / 8, 2]), dy: T([LIMIT / 8, 2], 1) }),
  C('rms_norm_backward', { x: T([LIMIT / 8, 2]), dy: T([LIMIT / 8, 2], 1) }),
  C('train_init', {}, { depth: 64, width: 64 }),
  C('train_data', {}, { count: 4096 }),
  C(
    'train_grad',
    { params: T([545218]), x: T([63, 2]), labels: { shape: [63], data: new Float32Array(63) } },
    { depth: 64, width: 64 },
  ),
  C(
    'train_step',
    {
      params: T([545218]),
      state: { shape: [1090437], data: new Float32Array(1090437) },
      x: T([63, 2]),
      labels: { shape: [63], data: new Float32Array(63) },
    },
    { depth: 64, width: 64, steps: 2 },
    { note: 'at its work limit: 2 steps' },
  ),
  C(
    'train_predict',
    { params: T([545218]), points: T([450, 2]) },
    { depth: 64, width: 64 },
    { note: 'at its work limit' },
  ),
  // ---- the transformer (vocab 256, d_model 256, 8 heads, 4 layers, context 256: 3,347,460 parameters) ----
  C('tfm_init', {}, { ...TFM }),
  C('tfm_grad', { params: T([3347460]), ...tfmTokens(48) }, TFM, { note: 'at its work limit: 48 positions' }),
  C(
    'tfm_step',
    { params: T([3347460]), state: { shape: [6694921], data: new Float32Array(6694921) }, ...tfmTokens(48) },
    TFM,
    { note: 'at its work limit: one step of 48 positions' },
  ),
  C(
    'tfm_sample',
    { params: T([3347460]), prompt: { shape: [1], data: new Float32Array(1) } },
    { ...TFM, count: 10 },
    { note: 'at its work limit: 10 tokens' },
  ),
  C(
    'reduction_group',
    {},
    { method: 'group_norm', shape: [1, 1024, 1024], index: [0, 5, 7], num_groups: 1 },
    { note: '2^20 members' },
  ),
  // Lists of sizes have no length limit of their own: 2^23 entries each is about the most 1 GiB of WASM memory holds.
  C(
    'reduce_shape',
    {},
    { shape: series(64, () => 1), axes: series(64, (i) => i) },
    { note: 'lists hold at most 64 entries' },
  ),
  C(
    'broadcast_shape',
    {},
    { a: series(64, () => 1), b: series(64, () => 3) },
    { note: 'lists hold at most 64 entries' },
  ),
];
for (const c of cases) {
  if (c.fallback === 'channels') c.fallback = half(c, c.inputs[Object.keys(c.inputs)[0]].shape[1]);
  else if (c.fallback === 'first') c.fallback = half(c);
}
const labels = cases.flatMap((c) => (c.fallback ? [c, c.fallback] : [c])).map(labelOf);
if (new Set(labels).size !== labels.length) throw new Error('bench/limits.mjs: two cases have the same label');

const isCoreError = (e) => e?.name === 'NormlabError';
const outOfMemory = (e) => isCoreError(e) && /out of memory/.test(e.message);

// One case: the best of `repeat` calls, each timed from the call to its
// results in JS. Results are dropped at once.
function time(c) {
  let best = Infinity;
  for (let k = 0; k < repeat; k++) {
    const a = performance.now();
    try {
      core.run(c.op, c.inputs, c.attrs);
    } catch (e) {
      return {
        ms: performance.now() - a,
        error: {
          name: e?.name ?? typeof e,
          message: String(e?.message ?? e),
          core: isCoreError(e),
          oom: outOfMemory(e),
        },
      };
    }
    best = Math.min(best, performance.now() - a);
  }
  return { ms: best };
}

// --case: one case in this fresh process, reported as JSON (the retry of a case that ran out of memory).
if (exact !== undefined) {
  const all = cases.flatMap((c) => (c.fallback ? [c, c.fallback] : [c]));
  const c = all.find((x) => labelOf(x) === exact);
  const r = c ? time(c) : { ms: 0, error: { name: 'Error', message: `no case '${exact}'`, core: false } };
  process.stdout.write(`${JSON.stringify(r)}\n`);
  process.exit(0);
}

function freshTry(c) {
  const self = fileURLToPath(import.meta.url);
  const p = spawnSync(process.execPath, [self, `--case=${labelOf(c)}`, `--repeat=${repeat}`], {
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 1 << 20,
  });
  try {
    return JSON.parse(p.stdout.trim().split('\n').pop());
  } catch {
    const why = (p.stderr || '').split('\n').find((l) => /Error|error:/.test(l)) ?? '';
    return {
      ms: NaN,
      error: {
        name: 'Error',
        message: `the fresh process failed (${p.error?.message ?? `status ${p.status}, signal ${p.signal}`}) ${why.trim()}`,
        core: false,
      },
      failed: true,
    };
  }
}

const short = (s) => (s.length > 90 ? `${s.slice(0, 90)}…` : s);
const rows = [];
const answered = new Map(); // op -> slowest answered case
let unexpected = 0;
function row(c, r, note = '') {
  let what = '';
  if (r.error) {
    if (r.error.oom) what = ' — out of memory';
    else if (r.error.core && /more than the limit of/.test(r.error.message))
      what = ` — refused: ${short(r.error.message)}`;
    else if (r.error.core) what = ` — error: ${short(r.error.message)}`;
    else {
      what = ` — UNEXPECTED ${r.error.name}: ${short(r.error.message)}`;
      unexpected++;
    }
  } else {
    const prev = answered.get(c.op);
    if (!prev || r.ms > prev.ms) answered.set(c.op, { ms: r.ms, label: labelOf(c) });
  }
  rows.push({ label: labelOf(c), ms: r.ms, ok: !r.error });
  console.log(`| ${labelOf(c)}${what}${note} | ${Number.isFinite(r.ms) ? r.ms.toFixed(0) : '—'} |`);
}

const selected = only
  ? cases.filter((c) => labelOf(c).includes(only) || labelOf(c.fallback ?? c).includes(only))
  : cases;
console.log('\n| op and case | ms |\n|---|---|');
for (const c of selected) {
  let r = time(c);
  if (r.error?.oom) {
    const fresh = freshTry(c);
    if (fresh.error?.oom) row(c, r, ' (also in a fresh process)');
    else if (fresh.failed) {
      unexpected++; // a crash of the fresh process is not an answer
      row(c, r, ` (${fresh.error.message.slice(0, 160)})`);
    } else row(c, fresh, ` (out of memory after the cases before it; in a fresh process)`);
    if ((fresh.error?.oom || fresh.failed) && c.fallback) {
      r = time(c.fallback);
      if (r.error?.oom) {
        const again = freshTry(c.fallback);
        row(c.fallback, again, again.error?.oom ? ' (also in a fresh process)' : ' (in a fresh process)');
      } else row(c.fallback, r, ' (half the size)');
    }
  } else row(c, r);
}

const missing = core.ops.filter((op) => !answered.has(op));
const unknown = [...new Set(selected.map((c) => c.op))].filter((op) => !core.ops.includes(op));
let slowest = null;
for (const [op, v] of answered) if (!slowest || v.ms > slowest.ms) slowest = { op, ...v };
const over = rows.filter((r) => r.ok && r.ms > 1000).length;
console.log(
  `\nCovered: ${answered.size} of ${core.ops.length} ops of core.ops answered a largest call` +
    (slowest ? `; slowest: ${slowest.label} (${slowest.ms.toFixed(0)} ms)` : '') +
    `; ${over} of ${rows.length} cases over 1000 ms` +
    (repeat > 1 ? ` (best of ${repeat})` : ''),
);
if (only) console.log(`(only cases matching '${only}': coverage not checked)`);
else if (missing.length) console.log(`Missing from the table (no answered case): ${missing.join(', ')}`);
if (unknown.length) console.log(`Cases for ops that core.ops does not list: ${unknown.join(', ')}`);
if (unexpected) console.log(`${unexpected} case(s) failed with something other than a NormlabError`);
if ((!only && missing.length) || unexpected) process.exitCode = 1;
