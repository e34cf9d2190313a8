// `npm run bench` (last part): every op whose cost grows faster than its
// inputs, called at (just under) its work limit in the WASM build. The core
// refuses more work than about 2^30 weighted operations so that no call runs
// for long; this prints how long the largest accepted calls take here.
import { loadCore } from '../web/core/normlab.js';

const core = await loadCore();
const T = (shape) => ({ shape, data: new Float32Array(shape.reduce((a, b) => a * b)).map((_, i) => Math.sin(i * 1.7) * 0.5) });
const q = T([1, 2048, 128]);
// Inputs are made before the clock starts (filling 16 M numbers in JS takes longer than some ops).
const x16k = T([16384, 256]), w256 = T([256, 256]), w4k = T([4096, 4096]), lrn = T([4, 1024, 256]);
const ones = { shape: [2048, 2048], data: new Float32Array(2048 * 2048).fill(1) };
const cases = [
  ['scaled_dot_product_attention, mask, [1,2048,128]', () => core.run('scaled_dot_product_attention', { q, k: q, v: q, mask: ones })],
  ['scaled_dot_product_attention, causal, [1,2048,128]', () => core.run('scaled_dot_product_attention', { q, k: q, v: q }, { causal: true })],
  ['residual_block x [16384,256]', () => core.run('residual_block', { x: x16k, W: w256 })],
  ['score_spread d_k 4096, count 5400', () => core.run('score_spread', {}, { d_k: 4096, count: 5400 })],
  ['linear_map W [256,256], points [16384,256]', () => core.run('linear_map', { W: w256, points: x16k })],
  ['singular_values W [16384,256]', () => core.run('singular_values', { W: x16k })],
  ['local_response_norm x [4,1024,256], size 1024', () => core.run('local_response_norm', { x: lrn }, { size: 1024 })],
  ['spectral_norm W [4096,4096], 4 iterations', () => core.run('spectral_norm', { W: w4k }, { n_power_iterations: 4 })],
  ['covariance x [16384,256]', () => core.run('covariance', { x: x16k })],
  ['whiten x [16384,256]', () => core.run('whiten', { x: x16k })],
];
console.log('\n| op at its work limit | ms |\n|---|---|');
for (const [name, f] of cases) {
  const a = performance.now();
  let note = '';
  try {
    f();
  } catch (e) {
    note = ` (refused: ${e.message.slice(0, 60)}…)`;
  }
  console.log(`| ${name}${note} | ${(performance.now() - a).toFixed(0)} |`);
}
