// `node bench/transformer.mjs`: milliseconds per training step (tfm_step: forward, backward, AdamW with
// clipping) of the default transformer, side by side in one run: the WASM training module under Node, the same
// core compiled natively (g++ -O3) and PyTorch CPU eager on one thread (float32, the reference model of
// scripts/gen_transformer_references.py). The model: vocab 80 (a character vocabulary), d_model 64, 4 heads,
// 2 layers, context 64, MLP 4 x d_model with GELU, Pre-LN with a final norm, L2 QK-Norm, tied head; batch 8 x 64.
// The three are measured in alternation, round by round, so that they see the same machine.
import { buildNativeDriver } from './native.mjs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadTrainer } from '../web/core/normlab.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 3);
const B = 8,
  T = 64,
  V = 80,
  steps = 3;
const attrs = { vocab: V, d_model: 64, heads: 4, layers: 2, context: 64, qk_norm: 'l2' };

buildNativeDriver('transformer_native');

const core = await loadTrainer();
let { params, state } = core.run('tfm_init', {}, attrs);
const tokens = new Float32Array(B * T),
  targets = new Float32Array(B * T);
for (let i = 0; i < B * T; i++) {
  tokens[i] = (i * 7 + Math.floor(i / 5)) % V;
  targets[i] = (i * 7 + 7 + Math.floor((i + 1) / 5)) % V;
}
function wasmMs() {
  const a = performance.now();
  for (let s = 0; s < steps; s++)
    ({ params, state } = core.run(
      'tfm_step',
      { params, state, tokens: { shape: [B, T], data: tokens }, targets: { shape: [B, T], data: targets } },
      attrs,
    ));
  return (performance.now() - a) / steps;
}
const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const wasm = [],
  native = [],
  torch = [];
for (let r = 0; r < rounds; r++) {
  wasm.push(wasmMs());
  native.push(Number(execFileSync(`${root}build/transformer_native`, ['1'], { encoding: 'utf8' })));
  torch.push(
    Number(execFileSync('/usr/bin/python3', [`${root}bench/transformer_torch.py`, '1'], { encoding: 'utf8' })),
  );
}
const f = (v) => v.toFixed(1);
console.log(`\nvocab ${V}, d_model 64, 4 heads, 2 layers, context 64, MLP 256 GELU, pre_final LayerNorm, L2 QK-Norm,`);
console.log(`tied head; batch ${B} x ${T}; median of ${rounds} rounds of ${steps} steps`);
console.log('| WASM (Node) ms/step | native g++ -O3 ms/step | PyTorch eager 1 thread ms/step |');
console.log('|---|---|---|');
console.log(`| ${f(median(wasm))} | ${f(median(native))} | ${f(median(torch))} |`);
