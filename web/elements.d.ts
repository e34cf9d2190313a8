// Type declarations for `normlab/elements`.
import type { Core, Description, LoadOptions } from './core/normlab.js';

export { loadCore, loadTrainer } from './core/normlab.js';

export type Lang = 'en' | 'zh';

/** A catalog: figure sections of strings, shaped like web/i18n/en.js; missing keys fall back to English. */
export type Catalog = Record<string, Record<string, string>>;

/**
 * Add a language to every figure without forking the package. Figures whose
 * `lang` (or nearest ancestor's) is `lang`, or a regional form of it, switch
 * at once; numbers are formatted for `options.numberLocale` (default `lang`).
 */
export function registerLocale(lang: string, catalog: Catalog, options?: { numberLocale?: string }): void;

/** The languages the figures speak now ('en', 'zh' and any registered). */
export function languages(): string[];

/** The numbers one panel shows, per coordinate. */
export interface BarPanels {
  input: number[];
  l2: number[];
  layer_norm: number[];
  rms_norm: number[];
}

export interface BarCompareState {
  vector: number[];
  scale: number;
  offset: number;
  eps: number;
  input: number[];
  step: 0 | 1 | 2;
  reference: BarPanels;
  current: BarPanels;
  /** Each output's distance from the original vector's output. */
  change: { l2: number; layer_norm: number; rms_norm: number };
  /** LayerNorm's pieces for the current input. */
  steps: { mean: number; variance: number; centered: number[]; output: number[] };
  axes: Record<'input' | 'output' | 'centering' | 'dividing', { domain: number[]; ticks: number[] }>;
  /** The message shown in the figure when the core rejected the input, else null. */
  error: string | null;
}

/** Where a figure stands, for drawing it outside a page (normlab/render reads only this and `state`). */
export interface FigureRenderState {
  /** Why the core did not load, else null. */
  loadError: string | null;
  /** The message the figure shows for a refused input, else ''. */
  error: string;
  /** True while it still fetches something that changes the drawing (the code figure's highlighter). */
  busy: boolean;
  /** Its text description ('' until drawn, and under an error). */
  description: string;
}

/** Base of every figure. */
export class NlElement extends HTMLElement {
  lang: Lang | string;
  /**
   * The `theme` attribute: 'light' or 'dark' fixes the palette; 'auto' or none follows the site's marks
   * (VitePress html.dark, Docusaurus/Furo data-theme, MkDocs Material data-md-color-scheme, …), then the system.
   */
  theme: 'light' | 'dark' | 'auto' | null;
  renderState(): FigureRenderState;
  /** Resolves (true) once no update is queued: changes made in one task are computed and drawn together. */
  readonly updateComplete: Promise<boolean>;
  /** Queue an update: a recompute and a drawing (`compute` false: a drawing only). */
  requestUpdate(compute?: boolean): void;
}


export type CubeMethod = 'batch_norm' | 'layer_norm' | 'rms_norm' | 'instance_norm' | 'group_norm';

export interface AxisCubeState {
  shape: [number, number, number];
  method: CubeMethod;
  numGroups: number;
  index: [number, number, number];
  /** [b, t, d] of every element sharing statistics with `index`, sorted. */
  members: Array<[number, number, number]>;
  reading: 'sequence' | 'image';
  /** The three axis names of the reading: ['B', 'T', 'd'] or ['N', 'HW', 'C']. */
  axes: [string, string, string];
  /** Axes along which members differ, and those of them the group covers only in part. */
  varying: string[];
  partial: string[];
  geometry: 'point' | 'line' | 'plane' | 'block';
  groupCount: number;
  groupSize: number;
  channelsPerGroup: number | null;
  measure: 'mean_var' | 'mean_square';
  /** The G the core accepts for this D. */
  groupChoices: number[];
  /**
   * The small multiples: the same element's group under BatchNorm, LayerNorm, InstanceNorm and
   * GroupNorm (numGroups: GroupNorm's G, else null), from the core.
   */
  multiples: Array<{
    method: 'batch_norm' | 'layer_norm' | 'instance_norm' | 'group_norm';
    numGroups: number | null;
    members: Array<[number, number, number]>;
  }>;
  yaw: number;
  pitch: number;
  error: string | null;
}


export interface CodeSizes {
  B: number;
  T: number;
  d: number;
  d_c: number;
}

export interface CodeExpression {
  id: string;
  code: string;
  /** The expression's shape for the current sizes. */
  shape: number[] | null;
  /** The same shape in names, e.g. ['B', 'T', '1']. */
  symbolic: string[] | null;
  role: string;
}

/** <nl-code-shapes>'s sizes as one object (the `sizes` attribute; merged into the generated class below). */
export interface NlCodeShapes {
  get sizes(): CodeSizes;
  /** An object (names left out keep their value) or the attribute's text, 'B=3,d=16'. */
  set sizes(v: Partial<CodeSizes> | string);
}

export interface CodeShapesState {
  B: number; T: number; d: number; d_c: number;
  sizes: CodeSizes;
  expressions: Array<CodeExpression & { snippet: string }>;
  selected: string;
  /** The function holding the selected expression. */
  snippet: string;
  error: string | null;
}


/** Base of the parameter-driven figures: `change` carries the figure's state. */
export class NlFigure<S> extends NlElement {
  static readonly observedAttributes: string[];
  readonly state: S | null;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K, listener: (this: this, ev: HTMLElementEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: 'change', listener: (ev: CustomEvent<S>) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

interface Pair { a: number[]; b: number[] }

export interface SoftmaxSharpnessState {
  scores: number[]; factor: number; scaled: number[]; weights: number[]; reference: number[]; top: number;
  /** Every key whose weight equals the largest (ties are reported together). */
  leaders: number[];
  gap: number | null; curve: { gaps: number[]; weights: number[]; domain: number[]; ticks: number[] } | null; error: string | null;
}

interface Turn { start: number[]; end: number[]; angle: number }
export interface ResidualTurnState { x: number[]; u: number[]; scale: number; small: Turn; large: Turn; error: string | null }

export interface DkScalingState {
  dk: number; mode: 'raw' | 'scaled' | 'qk_norm'; g: number; seed: number; count: number; keys: number; std: number; scores: number[];
  uniform: number; at: number;
  series: { dks: number[]; raw: number[]; scaled: number[]; qk_norm: number[]; sqrt: number[] };
  peak: { raw: number[]; scaled: number[]; qk_norm: number[] }; error: string | null;
}

export interface BatchDependenceState {
  batch: number[]; companions: number[]; chosen: number; momentum: number; eps: number;
  /** Rows of batch 1 and of batch 2, each [[f1, f2], ...]. */
  rows: number[][][]; train: number[][][]; eval: number[][][];
  chosenRow: [number, number]; chosenTrain: number[][]; chosenEval: number[][];
  running: { mean: number[]; var: number[] };
  /** True while the running statistics are still mean 0, variance 1. */
  initial: boolean;
  batchStats: Array<{ mean: number[]; var: number[]; unbiased: number[] }>; steps: number;
  domain: number[]; ticks: number[]; clipped: boolean[][]; error: string | null;
}

export interface AdalnState {
  features: number[]; scale: number[]; shift: number[]; gate: number; normalized: number[]; modulated: number[]; output: number[]; error: string | null;
}

export interface SpectralState {
  matrix: number[]; steps: number; sigma: number; u: number[]; singular: number[]; normalizedSingular: number[];
  /** True when W/σ's longest semi-axis is within 0.001 of 1. */
  converged: boolean; error: string | null;
}

export interface L2JacobianState {
  x: number[]; delta: number[]; norm: number; gain: number; u: number[]; along: number[]; across: number[]; dy: number[]; moved: number[]; error: string | null;
}

interface Stream { norms: number[]; turns: number[] }
export interface PrepostNormState {
  layers: number; norm: 'layer_norm' | 'rms_norm'; seed: number; d: number; sqrtD: number;
  pre: Stream; post: Stream; finalNorm: number; postRange: [number, number]; error: string | null;
}

export interface WhiteningState {
  mixing: number; count: number; seed: number; mean: number[]; std: number[];
  covariance: { raw: number[]; zscore: number[]; whitened: number[] };
  points: { raw: number[]; zscore: number[]; whitened: number[] }; error: string | null;
}

type Methods<T> = { batch_norm: T; layer_norm: T; rms_norm: T };
export interface CausalLeakState {
  tokens: number[]; edit: number; value: number; original: number; input: number[];
  outputs: Methods<number[]>; baseline: Methods<number[]>; changed: Methods<boolean[]>; earlierChanged: Methods<number>;
  domain: number[]; ticks: number[]; outDomain: number[]; outTicks: number[]; error: string | null;
}

export interface RmsDecompositionState {
  x: number[]; shift: number; shifted: number[]; mean: number; absMean: number; variance: number; std: number; meanSquare: number; rms: number; meanSq: number;
  /** θ = atan(σ / |μ|) in degrees, and (cos θ, sin θ); null when x + c is all zeros */ theta: number | null; unit: number[] | null;
  layerNorm: number[]; rmsNorm: number[]; inDomain: number[]; inTicks: number[]; outDomain: number[]; outTicks: number[]; error: string | null;
}

export interface ScalersState {
  values: number[]; outlier: number; data: 'measurements' | 'token_ids'; ids: number[]; x: number[];
  minMax: { min: number; max: number; y: number[] }; zScore: { mean: number; std: number; y: number[] };
  robust: { median: number; iqr: number; y: number[] };
  spans: { raw: number[]; minMax: number[]; zScore: number[]; robust: number[] } | null; outside: boolean;
  axes: Record<'raw' | 'minMax' | 'zScore' | 'robust', { domain: number[]; ticks: number[] }>; error: string | null;
}

type EmbeddingPair = { a: number[]; b: number[] };
export interface VectorNormsState {
  a: number[]; b: number[]; g: number; l2: EmbeddingPair; l1: EmbeddingPair; max: EmbeddingPair; scale: EmbeddingPair; lengths: number[]; dot: number; cosine: number;
  angle: number; circle: number[]; circleG: number[]; domain: number[]; ticks: number[]; error: string | null;
}

export type FiveQuestionsMethod = 'layer_norm' | 'rms_norm' | 'batch_norm_train' | 'batch_norm_eval' | 'instance_norm' | 'group_norm'
  | 'l2_normalize' | 'l1_normalize' | 'max_normalize' | 'scale_norm' | 'softmax' | 'ada_layer_norm' | 'adaptive_rms_norm';
export interface FiveQuestionsState {
  method: FiveQuestionsMethod; index: number[]; op: string; shape: number[]; description: Description; names: string[];
  members: number[][]; error: string | null;
}

export type EpsilonChoice = '0' | '1e-12' | '1e-8' | '1e-6' | '1e-5' | '1e-4' | '1e-3' | '1e-2' | '1e-1';
export interface EpsilonState {
  eps: EpsilonChoice; spreads: number[]; /** log10 of each spread, from the core */ spreadLog: number[]; inside: number[]; outside: number[]; reference: number;
  constant: { inside: number; outside: number } | null; constantError: string | null;
  summary: Record<'inside' | 'outside', { kept: number | null; collapsed: number | null }>;
  axis: { domain: number[]; ticks: number[] }; error: string | null;
}

type PlainQk<T> = { plain: T; qk: T };
export interface QkNormState {
  alpha: number; g: number; seed: number; alphas: number[]; entropy: PlainQk<number[]>; largest: PlainQk<number[]>;
  here: PlainQk<{ entropy: number; largest: number; weights: number[] }>; maxEntropy: number; uniformWeight: number; error: string | null;
}

export interface SharedStatsState {
  a: number[]; b: number[]; gamma: number[]; beta: number[]; gamma1: number | null; beta1: number | null; cell: number[];
  stats: Array<{ mean: number; std: number }>; normalized: number[][]; output: number[][]; sameNormalized: boolean; sameOutput: boolean; error: string | null;
}

export interface BnVariantsState {
  steps: number; vbs: '2' | '4' | '8'; rmax: number; mix: 'equal' | 'in' | 'ln' | 'bn'; shape: number[]; batch: number[];
  batchMean: number[]; batchVar: number[]; unbiasedVar: number[];
  /** per step 0..steps, per channel */ trace: { mean: number[][]; var: number[][] }; running: { mean: number[]; var: number[] };
  /** example 1: channel 1's three positions, then channel 2's */ outputs: Record<'train' | 'eval' | 'ghost' | 'renorm' | 'switchable', number[]>;
  chunks: { first: number; last: number; mean: number[] }[]; weights: number[]; components: { in: number[]; ln: number; bn: number[] };
  axes: Record<'batch' | 'out' | 'steps' | 'mean' | 'var', { domain: number[]; ticks: number[] }>; error: string | null;
}

export interface DepthTrainingVariant {
  placement: 'none' | 'post' | 'pre' | 'pre_final'; /** its Compare box: trained and drawn */ enabled: boolean; loss: number[]; status: 'training' | 'done' | 'diverged'; accuracy: number;
  /** |dL/dh_l| at step 1, l = 0..depth */ gradFirst: number[];
  /** RMS of h_l at the last step, l = 0..depth */ actNorm: number[];
}
export interface DepthTrainingState {
  depth: number; lr: number; optimizer: 'adam' | 'sgd'; gate: 'none' | 'zero' | 'layer_scale'; norm: 'layer_norm' | 'rms_norm'; warmup: number; steps: number; seed: number;
  variants: DepthTrainingVariant[]; step: number; playing: boolean; chance: number; show: DepthTrainingVariant['placement']; map: number[]; mapStep: number;
  stepAxis: { domain: number[]; ticks: number[] }; lossAxis: { domain: number[]; ticks: number[] }; layerAxis: { domain: number[]; ticks: number[] };
  gradAxis?: { domain: number[]; ticks: number[] } | null; actAxis?: { domain: number[]; ticks: number[] } | null; error: string | null;
}
/** <nl-depth-training>'s controls beyond its attributes (merged into the generated class below). */
export interface NlDepthTraining {
  play(): void; pause(): void; stepOnce(): void; reset(): void;
}

/**
 * Define figures' elements (idempotent): every one, or only `tags` (an unknown tag throws). The bundle still
 * holds every figure; to ship only some, import `normlab/define/<tag>` for each instead.
 */
export function defineElements(tags?: ReadonlyArray<keyof typeof elements>, registry?: CustomElementRegistry): void;
export function defineElements(registry?: CustomElementRegistry): void;

export type { Core, LoadOptions };

// <figures>
// generated by scripts/gen-figures.mjs from the figure classes; do not edit.
/** <nl-adaln>: AdaLN: a class mapped to scale, shift and gate; AdaLN-Zero returns x. */
export class NlAdaln extends NlFigure<AdalnState> { features: number[]; condition: 'cat' | 'dog' | 'ship' | 'custom'; projection: 'trained' | 'zero'; scale: number[]; shift: number[]; gate: number[]; }
/** <nl-axis-cube>: The reduction group of one element of a [B, T, D] tensor, in 3-D. */
export class NlAxisCube extends NlFigure<AxisCubeState> { shape: number[]; method: 'batch_norm' | 'layer_norm' | 'rms_norm' | 'instance_norm' | 'group_norm'; numGroups: number; index: number[]; reading: 'sequence' | 'image'; }
/** <nl-bar-compare>: L2, LayerNorm and RMSNorm of one vector under a common scale and offset. */
export class NlBarCompare extends NlFigure<BarCompareState> { vector: number[]; scale: number; offset: number; eps: number; step: number; }
/** <nl-batch-dependence>: BatchNorm in training and evaluation, and its running statistics. */
export class NlBatchDependence extends NlFigure<BatchDependenceState> { batch: number[]; companions: number[]; chosen: number; steps: number; momentum: number; }
/** <nl-bn-variants>: A batch of 8 and its running statistics: BatchNorm in training against evaluation on its first example, then Ghost BN, Batch Renorm and Switchable Norm one step at a time. */
export class NlBnVariants extends NlFigure<BnVariantsState> { show: 'bn' | 'ghost' | 'renorm' | 'switchable' | 'all'; steps: number; vbs: '2' | '4' | '8'; rmax: number; dmax: number; mix: 'equal' | 'in' | 'ln' | 'bn'; }
/** <nl-causal-leak>: Editing a later token changes earlier outputs under BatchNorm over the sequence, never under LayerNorm or RMSNorm. */
export class NlCausalLeak extends NlFigure<CausalLeakState> { tokens: number[]; edit: number; value: number; }
/** <nl-code-shapes>: PyTorch normalization code with the shape of each expression. */
export class NlCodeShapes extends NlFigure<CodeShapesState> { B: number; T: number; d: number; d_c: number; selected: 'l2-norm' | 'l2-divide' | 'ln-mean' | 'ln-var' | 'ln-hat' | 'ln-affine' | 'rms-ms' | 'rms-out' | 'ada-scale' | 'ada-shift' | 'ada-var' | 'ada-out'; }
/** <nl-depth-training>: A deep residual network trained in the page four ways: no norm, Post-Norm, Pre-Norm, Pre-Norm + final norm. */
export class NlDepthTraining extends NlFigure<DepthTrainingState> { depth: number; lr: number; optimizer: 'adam' | 'sgd'; gate: 'none' | 'zero' | 'layer_scale'; norm: 'layer_norm' | 'rms_norm'; warmup: number; steps: number; seed: number; }
/** <nl-dk-scaling>: The spread of q·k scores against the head width, and the largest softmax weight. */
export class NlDkScaling extends NlFigure<DkScalingState> { dk: number; mode: 'raw' | 'scaled' | 'qk_norm'; g: number; seed: number; }
/** <nl-epsilon>: Rows of shrinking spread standardized with ε inside and outside the square root. */
export class NlEpsilon extends NlFigure<EpsilonState> { eps: '0' | '1e-12' | '1e-8' | '1e-6' | '1e-5' | '1e-4' | '1e-3' | '1e-2' | '1e-1'; }
/** <nl-five-questions>: The five questions answered from core.describe, with the chosen element's group in a small tensor. */
export class NlFiveQuestions extends NlFigure<FiveQuestionsState> { method: 'layer_norm' | 'rms_norm' | 'batch_norm_train' | 'batch_norm_eval' | 'instance_norm' | 'group_norm' | 'l2_normalize' | 'l1_normalize' | 'max_normalize' | 'scale_norm' | 'softmax' | 'ada_layer_norm' | 'adaptive_rms_norm'; index: number[]; }
/** <nl-l2-jacobian>: A change of x split along and across x, and J·δ. */
export class NlL2Jacobian extends NlFigure<L2JacobianState> { x: number[]; delta: number[]; }
/** <nl-norm-geometry>: x, x + 100 and 10x in 3-D with the unit sphere (L2), the √3 sphere (RMSNorm) and the LayerNorm circle ⊥ (1, 1, 1). */
export class NlNormGeometry extends NlFigure<Readonly<Record<string, unknown>>> { vector: number[]; offset: number; scale: number; eps: number; yaw: number; pitch: number; }
/** <nl-prepost-norm>: The residual stream's norm through L layers: Post-Norm, Pre-Norm and Pre-Norm + final norm. */
export class NlPrepostNorm extends NlFigure<PrepostNormState> { layers: number; norm: 'layer_norm' | 'rms_norm'; seed: number; }
/** <nl-qk-norm>: Growing q and k norms sharpen attention; QK-Norm keeps it the same. */
export class NlQkNorm extends NlFigure<QkNormState> { alpha: number; g: number; seed: number; }
/** <nl-residual-turn>: The angle one residual update turns a state by, for a short and a long state. */
export class NlResidualTurn extends NlFigure<ResidualTurnState> { x: number[]; u: number[]; scale: number; }
/** <nl-rms-decomposition>: RMS² = σ² + μ² as the angle θ = atan(σ/|μ|); a shift c of the mean changes RMSNorm, not LayerNorm. */
export class NlRmsDecomposition extends NlFigure<RmsDecompositionState> { x: number[]; shift: number; }
/** <nl-scalers>: Min-max, z-score and robust scaling of one feature with a draggable outlier; token IDs are not amounts. */
export class NlScalers extends NlFigure<ScalersState> { values: number[]; outlier: number; data: 'measurements' | 'token_ids'; ids: number[]; }
/** <nl-shared-stats>: Tokens share parameters, a token's coordinates share statistics; the affine step cannot restore the scale. */
export class NlSharedStats extends NlFigure<SharedStatsState> { a: number[]; b: number[]; gamma: number[]; beta: number[]; gamma1: number | null; beta1: number | null; cell: number[]; }
/** <nl-softmax-sharpness>: Scores under a common scale, and the two-key sigmoid. */
export class NlSoftmaxSharpness extends NlFigure<SoftmaxSharpnessState> { scores: number[]; factor: number; }
/** <nl-spectral>: Spectral normalization by power iteration. */
export class NlSpectral extends NlFigure<SpectralState> { matrix: number[]; steps: number; }
/** <nl-transformer-training>: A small transformer trained on the article in a Worker: Post-LN, Pre-LN, Pre-RMS, Pre-RMS + QK-Norm. */
export class NlTransformerTraining extends NlFigure<Readonly<Record<string, unknown>>> { lr: '0.001' | '0.003' | '0.01' | '0.03' | '0.1' | '0.3'; layers: '1' | '2' | '3' | '4'; text: 'auto' | 'en' | 'zh'; }
/** <nl-vector-norms>: L2, L1, max-norm and ScaleNorm on two embeddings, and cosine similarity. */
export class NlVectorNorms extends NlFigure<VectorNormsState> { a: number[]; b: number[]; g: number; }
/** <nl-whitening>: Z-scoring and ZCA whitening of a correlated cloud. */
export class NlWhitening extends NlFigure<WhiteningState> { mixing: number; count: number; seed: number; }

/** Tag name → element class, for every figure. */
export const elements: {
  'nl-adaln': typeof NlAdaln;
  'nl-axis-cube': typeof NlAxisCube;
  'nl-bar-compare': typeof NlBarCompare;
  'nl-batch-dependence': typeof NlBatchDependence;
  'nl-bn-variants': typeof NlBnVariants;
  'nl-causal-leak': typeof NlCausalLeak;
  'nl-code-shapes': typeof NlCodeShapes;
  'nl-depth-training': typeof NlDepthTraining;
  'nl-dk-scaling': typeof NlDkScaling;
  'nl-epsilon': typeof NlEpsilon;
  'nl-five-questions': typeof NlFiveQuestions;
  'nl-l2-jacobian': typeof NlL2Jacobian;
  'nl-norm-geometry': typeof NlNormGeometry;
  'nl-prepost-norm': typeof NlPrepostNorm;
  'nl-qk-norm': typeof NlQkNorm;
  'nl-residual-turn': typeof NlResidualTurn;
  'nl-rms-decomposition': typeof NlRmsDecomposition;
  'nl-scalers': typeof NlScalers;
  'nl-shared-stats': typeof NlSharedStats;
  'nl-softmax-sharpness': typeof NlSoftmaxSharpness;
  'nl-spectral': typeof NlSpectral;
  'nl-transformer-training': typeof NlTransformerTraining;
  'nl-vector-norms': typeof NlVectorNorms;
  'nl-whitening': typeof NlWhitening;
};

declare global {
  interface HTMLElementTagNameMap {
    'nl-adaln': NlAdaln;
    'nl-axis-cube': NlAxisCube;
    'nl-bar-compare': NlBarCompare;
    'nl-batch-dependence': NlBatchDependence;
    'nl-bn-variants': NlBnVariants;
    'nl-causal-leak': NlCausalLeak;
    'nl-code-shapes': NlCodeShapes;
    'nl-depth-training': NlDepthTraining;
    'nl-dk-scaling': NlDkScaling;
    'nl-epsilon': NlEpsilon;
    'nl-five-questions': NlFiveQuestions;
    'nl-l2-jacobian': NlL2Jacobian;
    'nl-norm-geometry': NlNormGeometry;
    'nl-prepost-norm': NlPrepostNorm;
    'nl-qk-norm': NlQkNorm;
    'nl-residual-turn': NlResidualTurn;
    'nl-rms-decomposition': NlRmsDecomposition;
    'nl-scalers': NlScalers;
    'nl-shared-stats': NlSharedStats;
    'nl-softmax-sharpness': NlSoftmaxSharpness;
    'nl-spectral': NlSpectral;
    'nl-transformer-training': NlTransformerTraining;
    'nl-vector-norms': NlVectorNorms;
    'nl-whitening': NlWhitening;
  }
}
// </figures>
