// Compiled by `tsc --noEmit` in the tests: the declarations must describe
// real use of the public API (and reject misuse, see the @ts-expect-error lines).
import {
  loadCore,
  loadTrainer,
  NormlabError,
  type Core,
  type Trainer,
  type Description,
  type IntOutput,
  type NlTensor,
  type ResidentOutput,
  type TensorOutput,
} from 'normlab';
import { defineElements, elements, NlBarCompare, type BarCompareState } from 'normlab/elements';
import 'normlab/auto';
import { figureTags, renderFigure, type RenderResult } from 'normlab/render';

async function pictures(): Promise<void> {
  const r: RenderResult = await renderFigure(
    'nl-bar-compare',
    { vector: '2,-1,3', scale: 2 },
    { lang: 'zh', theme: 'dark', width: 640 },
  );
  const svg: string = r.svg;
  const size: number = r.width * r.height;
  const tags: Record<string, string[]> = await figureTags();
  // @ts-expect-error the theme is light or dark
  await renderFigure('nl-bar-compare', {}, { theme: 'sepia' });
  void [svg, size, tags];
}
void pictures;

async function main(): Promise<void> {
  const core: Core = await loadCore({ wasmUrl: '/assets/normlab-core.wasm', trainerUrl: '/assets/normlab-train.wasm' });
  // The training ops live in the training module, each with its named function.
  const trainer: Trainer = await loadTrainer();
  const start = trainer.run('train_init', {}, { depth: 4, width: 8, placement: 'pre' });
  const params: Float32Array = trainer.trainInit({ depth: 4 }).params;
  const data = trainer.run('train_data', {}, { count: 16, seed: 1 });
  const stepped = trainer.run(
    'train_step',
    { params: start.params, state: start.state, x: data.x, labels: data.labels },
    { depth: 4, width: 8, placement: 'pre', steps: 2 },
  );
  const status: number[] = stepped.status.data;
  const losses: Float32Array = stepped.loss.data;
  // @ts-expect-error the core does not hold the training ops
  core.trainStep({ depth: 4 });
  // @ts-expect-error nor does the training module hold the core's
  trainer.layerNorm([1, 2, 3]);
  void [status, losses, params];
  const out = core.run('layer_norm', { x: { shape: [2, 3], data: [1, 2, 3, 4, 5, 6] } }, { eps: 1e-5 });
  const y: TensorOutput = out.y;
  const first: number = y.data[0];
  const members: number[] = core.run(
    'reduction_group',
    {},
    { method: 'layer_norm', shape: [3, 4, 5], index: [0, 0, 0] },
  ).members.data;
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
  // Every op of the registry has a typed named function (generated: web/core/ops.generated.d.ts).
  const ghost: Float32Array = core.ghostBatchNorm(
    { shape: [4, 2], data: new Float32Array(8) },
    { virtualBatchSize: 2 },
  );
  // @ts-expect-error ghostBatchNorm needs virtualBatchSize
  core.ghostBatchNorm([1, 2], { eps: 1e-5 });
  const fit = core.robustFit({ shape: [4, 1], data: [1, 2, 3, 4] }, { qLow: 10, qHigh: 90, outIqr: core.tensor([1]) });
  const median: Float32Array = fit.median;
  const iqr: NlTensor = fit.iqr;
  // @ts-expect-error robustFit's attribute is qLow, not qlow
  core.robustFit({ shape: [4, 1], data: [1, 2, 3, 4] }, { qlow: 10 });
  const stats = core.batchNorm([1, 3], { shape: [2, 1], runningMean: [0], runningVar: [1] });
  const runningMean: Float32Array = stats.runningMean; // given running stats, they come back
  const noStats: Float32Array | undefined = core.batchNorm([1, 3], { shape: [2, 1] }).runningMean;
  const grid: Float32Array = core.linspace({ start: 0, stop: 1, count: 5 });
  const kept: number[] = core.reduceShape({ shape: [2, 3, 4], axes: [1], keepdim: true });
  // run: inputs, attributes and outputs typed by the op's name
  const gn = core.run('group_norm', { x: xs }, { num_groups: 2, eps: 1e-5 }, { out: { y: core.tensor([4, 8]) } });
  const landed: NlTensor = gn.y.data;
  // @ts-expect-error a misspelled attribute (num_group)
  core.run('group_norm', { x: xs }, { num_group: 2 });
  // @ts-expect-error group_norm needs num_groups
  core.run('group_norm', { x: xs }, { eps: 1e-5 });
  // @ts-expect-error layer_norm has no output z
  core.run('layer_norm', { x: xs }, {}, { out: { z: core.tensor([4, 8]) } });
  const dynamic: string = core.ops.find((op) => core.spec(op).inputs.length === 0) ?? 'unit_circle';
  const anyOp: Record<string, TensorOutput | IntOutput | ResidentOutput> = core.run(dynamic, {}, { count: 8 });
  // describe: the five pieces as the core runs them
  const d: Description = core.describe('group_norm', { shape: [2, 4, 5], attrs: { num_groups: 2 } });
  const statShape: readonly number[] = d.group.statShape;
  const groupSize: number = d.group.size;
  const measure: 'mean_var' | 'mean_square' | 'sum_square' | 'sum_abs' | 'max_abs' | 'sum_exp' = d.measure;
  const eps: number = d.transform.eps;
  const per: string | undefined = d.params.scale?.per;
  const running: boolean =
    core.describe('batch_norm', { shape: [2, 4], attrs: { training: false } }).mode === 'running';
  // @ts-expect-error film has no description
  core.describe('film', { shape: [2, 4] });
  const attrs = core.spec('layer_norm').attrs.map((a) => `${a.name}: ${a.kind}`);
  console.log(
    ghost,
    median,
    iqr.size,
    runningMean,
    noStats,
    grid,
    kept,
    landed,
    anyOp,
    statShape,
    groupSize,
    measure,
    eps,
    per,
    running,
    attrs,
    d.channelAxis,
  );
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
code.sizes = { d: 16 }; // names left out keep their value
code.sizes = 'B=3,d=16'; // the attribute's text
const sizeB: number = code.sizes.B; // read back as an object
// @ts-expect-error sizes is an object or text
code.sizes = 4;
const shape: number[] | null | undefined = code.state?.expressions[0].shape;
console.log(shape, sizeB);
const spectral = document.createElement('nl-spectral');
spectral.steps = 5;
spectral.addEventListener('change', (e) => console.log(e.detail.sigma, e.detail.normalizedSingular[1]));
const dk = document.createElement('nl-dk-scaling');
dk.mode = 'qk_norm';
// @ts-expect-error not a mode
dk.mode = 'cosine';
const pp: number[] | undefined = document.createElement('nl-prepost-norm').state?.pre.norms;
console.log(pp, (elements['nl-whitening'] as unknown) !== null);
void main();
