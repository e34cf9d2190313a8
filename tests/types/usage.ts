// Compiled by `tsc --noEmit` in the tests: the declarations must describe
// real use of the public API (and reject misuse, see the @ts-expect-error lines).
import { loadCore, NormlabError, type Core, type NlTensor, type TensorOutput } from 'normlab';
import { defineElements, elements, NlBarCompare, type BarCompareState } from 'normlab/elements';
import 'normlab/auto';

async function main(): Promise<void> {
  const core: Core = await loadCore({ wasmUrl: '/assets/normlab-core.wasm' });
  const out = core.run('layer_norm', { x: { shape: [2, 3], data: [1, 2, 3, 4, 5, 6] } }, { eps: 1e-5 });
  const y: TensorOutput = out.y;
  const first: number = y.data[0];
  const members: number[] = core.run('reduction_group', {}, { method: 'layer_norm', shape: [3, 4, 5], index: [0, 0, 0] }).members.data;
  const ln: Float32Array = core.layerNorm(new Float32Array([1, 2, 3]), { eps: 0 });
  const att = core.attention([1, 0], { shape: [1, 2], k: { shape: [2, 2], data: [1, 0, 0, 1] }, v: [1, 0], scale: 1 });
  const w: Float32Array = att.weights;
  const sn = core.spectralNorm({ shape: [2, 2], data: [3, 0, 0, 1] }, { nPowerIterations: 20 });
  const sigma: number = sn.sigma[0];
  // @ts-expect-error groupNorm needs numGroups
  core.groupNorm([1, 2, 3]);
  const xs: NlTensor = core.tensor([4, 8], new Float32Array(32));
  const ys: NlTensor = core.layerNorm(xs, { out: core.tensor([4, 8]) });
  const copied: Float32Array = core.rmsNorm(xs);
  const heads = core.attention(xs, { k: xs, v: xs, out: core.tensor([4, 8]), outWeights: new Float32Array(16) });
  const resident: NlTensor = heads.out;
  const plain: Float32Array = heads.weights;
  // @ts-expect-error a resident result is not a Float32Array
  const wrong: Float32Array = core.softmax(xs, { out: ys });
  console.log(ys.data[0], copied, resident.size, plain, wrong);
  ys.free();
  // @ts-expect-error residual placement is 'pre' or 'post'
  core.residualBlock([1, 2], { W: [1, 0, 0, 1], placement: 'middle' });
  try {
    core.run('layer_norm', { x: { shape: [1], data: [Number.NaN] } });
  } catch (e) {
    if (e instanceof NormlabError) console.log(e.message.toUpperCase());
  }
  console.log(first, members.length, ln.length, w.length, sigma, core.ops.includes('softmax'));
}

defineElements();
const bar: NlBarCompare = document.createElement('nl-bar-compare');
bar.scale = 10;
bar.vector = [1, 2, 3];
bar.addEventListener('change', (e) => {
  const s: BarCompareState = e.detail;
  console.log(s.current.layer_norm[0], s.error);
});
const st: BarCompareState | null = bar.state;
const cls: typeof NlBarCompare = elements['nl-bar-compare'];
console.log(st, cls);
const cube = document.createElement('nl-axis-cube');
cube.method = 'group_norm';
cube.numGroups = 2;
cube.addEventListener('change', (e) => console.log(e.detail.members.length, e.detail.yaw));
// @ts-expect-error not a method of the cube
cube.method = 'weight_norm';
const code = document.createElement('nl-code-shapes');
code.sizes = { B: 2, T: 5, d: 8, d_c: 4 };
const shape: number[] | null | undefined = code.state?.expressions[0].shape;
console.log(shape);
const spectral = document.createElement('nl-spectral');
spectral.steps = 5;
spectral.addEventListener('change', (e) => console.log(e.detail.sigma, e.detail.normalizedSingular[1]));
const dk = document.createElement('nl-dk-scaling');
dk.mode = 'qk_norm';
// @ts-expect-error not a mode
dk.mode = 'cosine';
const pp: number[] | undefined = document.createElement('nl-prepost-norm').state?.pre.b;
console.log(pp, (elements['nl-whitening'] as unknown) !== null);
void main();
