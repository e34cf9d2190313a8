// Type declarations for the normlab core API (package entry `normlab`).

/** Tensor values: float32 data or any list of numbers (converted to float32). */
export type TensorData = Float32Array | ArrayLike<number>;

/** An input tensor, row-major. */
export interface TensorInput {
  shape: readonly number[];
  data: TensorData;
}

/** A float output: a fresh Float32Array, never a view of WASM memory. */
export interface TensorOutput {
  shape: number[];
  data: Float32Array;
}

/** An integer output (indices, shapes). */
export interface IntOutput {
  shape: number[];
  data: number[];
}

export type AttrValue = number | boolean | string | readonly number[];
export type Inputs = Record<string, TensorInput | null | undefined>;
export type Attrs = Record<string, AttrValue | undefined>;

/** Outputs of every operation of ops.md, by name. */
export interface OpOutputs {
  l2_normalize: { y: TensorOutput };
  l1_normalize: { y: TensorOutput };
  max_normalize: { y: TensorOutput };
  scale_norm: { y: TensorOutput };
  layer_norm: { y: TensorOutput };
  rms_norm: { y: TensorOutput };
  batch_norm: { y: TensorOutput; running_mean?: TensorOutput; running_var?: TensorOutput };
  instance_norm: { y: TensorOutput };
  group_norm: { y: TensorOutput };
  ghost_batch_norm: { y: TensorOutput };
  batch_renorm: { y: TensorOutput };
  switchable_norm: { y: TensorOutput };
  local_response_norm: { y: TensorOutput };
  filter_response_norm: { y: TensorOutput };
  ada_layer_norm: { y: TensorOutput };
  adaptive_rms_norm: { y: TensorOutput };
  gated_residual: { h: TensorOutput };
  film: { y: TensorOutput };
  conditional_batch_norm: { y: TensorOutput; running_mean?: TensorOutput; running_var?: TensorOutput };
  adain: { y: TensorOutput };
  spade: { y: TensorOutput };
  weight_norm: { w: TensorOutput };
  weight_standardize: { y: TensorOutput };
  spectral_norm: { w: TensorOutput; sigma: TensorOutput; u: TensorOutput };
  softmax: { y: TensorOutput };
  scaled_dot_product_attention: { out: TensorOutput; weights: TensorOutput };
  qk_norm_attention: { out: TensorOutput; weights: TensorOutput };
  residual_block: { y: TensorOutput };
  clip_grad_norm: { y: TensorOutput; total_norm: TensorOutput };
  z_score_fit: { mean: TensorOutput; std: TensorOutput };
  z_score_apply: { y: TensorOutput };
  min_max_fit: { min: TensorOutput; max: TensorOutput };
  min_max_apply: { y: TensorOutput };
  robust_fit: { median: TensorOutput; iqr: TensorOutput };
  robust_apply: { y: TensorOutput };
  whiten: { z: TensorOutput; mean: TensorOutput; matrix: TensorOutput };
  l2_normalize_jacobian: { J: TensorOutput };
  layer_norm_jacobian: { J: TensorOutput };
  reduction_group: { members: IntOutput };
  reduce_shape: { shape: IntOutput };
  broadcast_shape: { shape: IntOutput };
  /** A figure helper beyond ops.md: a nice axis covering x. */
  axis_ticks: { domain: TensorOutput; ticks: TensorOutput };
}

export type OpName = keyof OpOutputs;

export interface OpSpec {
  inputs: ReadonlyArray<{ name: string; optional: boolean }>;
  attrs: readonly string[];
  outputs: readonly string[];
}

/** An error reported by the core; the message names the operation and the argument. */
export class NormlabError extends Error {
  name: 'NormlabError';
}

/**
 * A float32 tensor kept in WASM memory (from core.tensor). The named functions
 * read and write it in place, with no copy across the boundary.
 */
export class NlTensor {
  private constructor();
  readonly shape: readonly number[];
  readonly size: number;
  /** A view of the tensor in WASM memory; take it anew after a call (a growing memory replaces views). */
  readonly data: Float32Array;
  /** Give the memory back (also done when the tensor is garbage-collected). */
  free(): void;
}

/** The first input of a named function: a 1-D array (unless `shape` is given), a tensor, or a resident tensor. */
export type XInput = TensorData | TensorInput | NlTensor;

/** Where a result goes: a Float32Array of the right length, or a resident tensor (returned as it is). */
export type OutTarget = Float32Array | NlTensor;

interface Common {
  /** Shape of the first input when it is given as a flat array. */
  shape?: readonly number[];
}

export class Core {
  private constructor();
  /** Names of every operation the core provides. */
  readonly ops: readonly string[];
  spec(op: string): OpSpec;
  /** Bytes currently allocated inside the WASM heap (diagnostics and leak tests). */
  heapBytes(): number;
  /** Bytes of the WASM memory (grows up to 1 GiB, never shrinks). */
  memoryBytes(): number;
  run<K extends OpName>(op: K, inputs?: Inputs, attrs?: Attrs): OpOutputs[K];
  run(op: string, inputs?: Inputs, attrs?: Attrs): Record<string, TensorOutput | IntOutput>;
  /** A tensor in WASM memory, zero-filled or holding a copy of `data`. */
  tensor(shape: readonly number[], data?: ArrayLike<number>): NlTensor;

  /** `out`: a Float32Array of the input's length to write into (no allocation). */
  l2Normalize<O extends OutTarget = Float32Array>(x: XInput, options?: Common & { axis?: number; eps?: number; out?: O }): O;
  l1Normalize(x: XInput, options?: Common & { axis?: number; eps?: number }): Float32Array;
  maxNormalize(x: XInput, options?: Common & { axis?: number; eps?: number }): Float32Array;
  scaleNorm(x: XInput, options: Common & { g: XInput; axis?: number; eps?: number }): Float32Array;
  layerNorm<O extends OutTarget = Float32Array>(x: XInput, options?: Common & { gamma?: XInput; beta?: XInput; normalizedNdim?: number; eps?: number; out?: O }): O;
  rmsNorm<O extends OutTarget = Float32Array>(x: XInput, options?: Common & { gamma?: XInput; normalizedNdim?: number; eps?: number; out?: O }): O;
  batchNorm(
    x: XInput,
    options?: Common & {
      gamma?: XInput; beta?: XInput; runningMean?: XInput; runningVar?: XInput;
      training?: boolean; momentum?: number; eps?: number;
    },
  ): { y: Float32Array; runningMean?: Float32Array; runningVar?: Float32Array } | Float32Array;
  instanceNorm(x: XInput, options?: Common & { gamma?: XInput; beta?: XInput; eps?: number }): Float32Array;
  groupNorm<O extends OutTarget = Float32Array>(x: XInput, options: Common & { numGroups: number; gamma?: XInput; beta?: XInput; eps?: number; out?: O }): O;
  adaLayerNorm(x: XInput, options: Common & { scale: XInput; shift: XInput; eps?: number }): Float32Array;
  adaptiveRmsNorm(x: XInput, options: Common & { scale: XInput; shift?: XInput; eps?: number }): Float32Array;
  film(x: XInput, options: Common & { gamma: XInput; beta: XInput }): Float32Array;
  adain(x: XInput, options: Common & { style: XInput; eps?: number }): Float32Array;
  weightNorm(v: XInput, options: Common & { g: XInput }): Float32Array;
  weightStandardize(w: XInput, options?: Common & { eps?: number }): Float32Array;
  spectralNorm(
    W: XInput,
    options?: Common & { u0?: XInput; nPowerIterations?: number; eps?: number },
  ): { w: Float32Array; sigma: Float32Array; u: Float32Array };
  softmax<O extends OutTarget = Float32Array>(x: XInput, options?: Common & { axis?: number; out?: O }): O;
  /** `out` / `outWeights`: where the two results go (Float32Arrays or resident tensors). */
  attention<O extends OutTarget = Float32Array, W extends OutTarget = Float32Array>(
    q: XInput,
    options: Common & { k: XInput; v: XInput; mask?: XInput; causal?: boolean; scale?: number; out?: O; outWeights?: W },
  ): { out: O; weights: W };
  qkNormAttention(
    q: XInput,
    options: Common & { k: XInput; v: XInput; mask?: XInput; g: number; causal?: boolean },
  ): { out: Float32Array; weights: Float32Array };
  residualBlock(
    x: XInput,
    options: Common & { W: XInput; b?: XInput; placement?: 'pre' | 'post'; norm?: 'layer_norm' | 'rms_norm'; eps?: number },
  ): Float32Array;
  clipGradNorm(g: XInput, options: Common & { maxNorm: number; normType?: number }): { y: Float32Array; totalNorm: Float32Array };
  whiten(x: XInput, options?: Common & { eps?: number }): { z: Float32Array; mean: Float32Array; matrix: Float32Array };
}

export interface LoadOptions {
  /** Where the .wasm file lives, for hosts where it is not next to the module. */
  wasmUrl?: string | URL;
}

/** Load the WASM core once per page; later calls return the same core. */
export function loadCore(options?: LoadOptions): Promise<Core>;
