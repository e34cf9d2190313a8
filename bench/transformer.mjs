// `node bench/transformer.mjs`: milliseconds per training step (tfm_step: forward, backward, AdamW with
// clipping) of two transformers, side by side in one run: the WASM training module under Node and in Chromium (a
// page of this repository served locally), the same core compiled natively (g++ -O3) and PyTorch CPU eager on one
// thread (float32, the reference model of scripts/gen_transformer_references.py). The models, both with MLP
// 4 x d_model GELU, Pre-LN with a final norm and a tied head, batch 8 x context:
//   "figure": <nl-transformer-training>'s default: vocab 79 (the English article's characters), d_model 32,
//             2 heads, 2 layers, context 32, RMSNorm QK-Norm off (its 300-step run is what the page waits for);
//   "bench":  vocab 80, d_model 64, 4 heads, 2 layers, context 64, L2 QK-Norm.
// The four are measured in alternation, round by round, so that they see the same machine.
import { buildNativeDriver } from './native.mjs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadTrainer } from '../web/core/normlab.js';
import { launch } from '../scripts/browser.mjs';
import { startServer } from '../scripts/serve.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 3);
const B = 8,
  steps = 3;
const MODELS = {
  figure: { vocab: 79, d_model: 32, heads: 2, layers: 2, context: 32, qk_norm: 'none' },
  bench: { vocab: 80, d_model: 64, heads: 4, layers: 2, context: 64, qk_norm: 'l2' },
};
const argsOf = (m) => [m.vocab, m.d_model, m.heads, m.layers, m.context, m.qk_norm].map(String);

buildNativeDriver('transformer_native');

// One timing loop, run as it is in Node and in the Chromium page (where it imports the loader itself).
async function timeSteps({ attrs, B, steps }, load) {
  const core = await (load ?? (await import('/web/core/normlab.js')).loadTrainer)();
  const T = attrs.context,
    V = attrs.vocab;
  let { params, state } = core.run('tfm_init', {}, attrs);
  const tokens = new Float32Array(B * T),
    targets = new Float32Array(B * T);
  for (let i = 0; i < B * T; i++) {
    tokens[i] = (i * 7 + Math.floor(i / 5)) % V;
    targets[i] = (i * 7 + 7 + Math.floor((i + 1) / 5)) % V;
  }
  const a = performance.now();
  for (let s = 0; s < steps; s++)
    ({ params, state } = core.run(
      'tfm_step',
      { params, state, tokens: { shape: [B, T], data: tokens }, targets: { shape: [B, T], data: targets } },
      attrs,
    ));
  return (performance.now() - a) / steps;
}

const { server, url } = await startServer({ port: 0 });
const browser = await launch();
const page = await browser.newPage();
await page.goto(url + 'dist/math.css'); // a page of the origin without the article's CSP
const chromiumMs = (attrs) => page.evaluate(timeSteps, { attrs, B, steps });

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const times = Object.fromEntries(
  Object.keys(MODELS).map((k) => [k, { node: [], chromium: [], native: [], torch: [] }]),
);
for (let r = 0; r < rounds; r++)
  for (const [name, m] of Object.entries(MODELS)) {
    const t = times[name];
    t.node.push(await timeSteps({ attrs: m, B, steps }, loadTrainer));
    t.chromium.push(await chromiumMs(m));
    t.native.push(Number(execFileSync(`${root}build/transformer_native`, ['1', ...argsOf(m)], { encoding: 'utf8' })));
    t.torch.push(
      Number(
        execFileSync('/usr/bin/python3', [`${root}bench/transformer_torch.py`, '1', ...argsOf(m)], {
          encoding: 'utf8',
        }),
      ),
    );
  }
await browser.close();
server.close();
const f = (v) => v.toFixed(1);
console.log(`\nbatch ${B} x context; median of ${rounds} rounds of ${steps} steps; ms per step`);
console.log(
  '| model | WASM (Node) | WASM (Chromium) | native g++ -O3 | PyTorch eager 1 thread | Chromium / PyTorch | 300 steps in Chromium |',
);
console.log('|---|---|---|---|---|---|---|');
for (const [name, m] of Object.entries(MODELS)) {
  const t = times[name];
  const c = median(t.chromium);
  console.log(
    `| ${name} (d_model ${m.d_model}, ${m.heads} heads, ${m.layers} layers, context ${m.context}) | ${f(median(t.node))} | ${f(c)} | ${f(median(t.native))} | ${f(median(t.torch))} | ${(c / median(t.torch)).toFixed(2)} | ${((c * 300) / 1000).toFixed(1)} s |`,
  );
}
