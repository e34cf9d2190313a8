// Type declarations for the normlab core API (package entry `normlab`).
//
// The per-operation part — OpName, OpInputs, OpAttrs, OpOutputs, the options
// of every named function and the NamedFunctions interface — is generated from
// the core's registry into ops.generated.d.ts (`node scripts/gen-types.mjs`)
// and re-exported here; this file holds the rest.
import type {
  CoreOpName,
  DescribedOpName,
  NamedFunctions,
  TrainingFunctions,
  TrainingOpName,
  OpAttrs,
  OpInputs,
  OpName,
  OpOutputs,
} from './ops.generated.js';

export * from './ops.generated.js';

/** Tensor values: float32 data or any list of numbers (converted to float32). */
export type TensorData = Float32Array | ArrayLike<number>;

/** An input tensor, row-major; `data` may also be a resident tensor (read with this shape). */
export interface TensorInput {
  shape: readonly number[];
  data: TensorData | NlTensor;
}

/** An input of core.run: a tensor, or a resident tensor with its own shape. */
export type RunInput = TensorInput | NlTensor;

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

/** A float output written into a resident tensor given as its target (returned as it is). */
export interface ResidentOutput {
  shape: number[];
  data: NlTensor;
}

export type AttrValue = number | boolean | string | readonly number[];
/** Inputs of an operation whose name is not known statically. */
export type Inputs = Record<string, RunInput | null | undefined>;
/** Attributes of an operation whose name is not known statically. */
export type Attrs = Record<string, AttrValue | undefined>;

/** An attribute as the registry declares it. */
export interface AttrSpec {
  readonly name: string;
  readonly kind: 'number' | 'integer' | 'boolean' | 'string' | 'integers';
  /** The value used when the attribute is not given. */
  readonly default?: number | boolean | string;
  /** No default: the op needs the attribute. */
  readonly required?: true;
  /** No default, and the op does without the attribute; `note` says what it does then. */
  readonly optional?: true;
  readonly note?: string;
  /** The numbers a number or integer attribute may take (the core refuses others, code out_of_range). */
  readonly range?: {
    readonly lo?: number;
    readonly loInclusive?: boolean;
    readonly hi?: number;
    readonly hiInclusive?: boolean;
  };
  /** The values a string attribute takes; 'described': the name of an op with a description. */
  readonly values?: readonly string[] | 'described';
}

/** An output as the registry declares it (core.spec(op).outputSpecs, parallel to outputs). */
export interface OutputSpec {
  readonly name: string;
  /** It holds integers: number[] in the result, and it takes no target. */
  readonly integer: boolean;
  /** Given only when these optional inputs are given. */
  readonly when?: readonly string[];
}

/** An operation as the registry declares it (core.spec). */
export interface OpSpec {
  readonly name: string;
  readonly inputs: ReadonlyArray<{ readonly name: string; readonly optional: boolean }>;
  readonly attrs: readonly AttrSpec[];
  readonly outputs: readonly string[];
  /** Each output's flags, in the order of outputs. */
  readonly outputSpecs: readonly OutputSpec[];
  /** Whether core.describe knows the op. */
  readonly described: boolean;
}

/** Where core.run writes outputs: output name → Float32Array or resident tensor (integer outputs take none). */
export type OutTargets<K extends OpName> = {
  [N in keyof OpOutputs[K]]?: (OpOutputs[K][N] extends IntOutput ? never : OutTarget) | null;
};

type Landed<Target, Output> = Target extends NlTensor ? ResidentOutput : Output;

/** What core.run returns: every output the op gave, resident targets as the tensors themselves. */
export type RunResult<K extends OpName, T = {}> = {
  [N in keyof OpOutputs[K]]: N extends keyof T ? Landed<T[N], OpOutputs[K][N]> : OpOutputs[K][N];
};

export interface RunOptions<T> {
  /** Where outputs go, by output name. */
  out?: T;
}

/** core.run's arguments after the name: inputs and attributes may be left out when the op needs none. */
export type RunArgs<K extends OpName, T> = {} extends OpAttrs[K]
  ? {} extends OpInputs[K]
    ? [inputs?: OpInputs[K], attrs?: OpAttrs[K], options?: RunOptions<T>]
    : [inputs: OpInputs[K], attrs?: OpAttrs[K], options?: RunOptions<T>]
  : [inputs: OpInputs[K], attrs: OpAttrs[K], options?: RunOptions<T>];

/** Which elements a parameter varies along (core.describe). */
export interface ParamView {
  /** The input that holds it. */
  readonly input: string;
  /** Its shape as it broadcasts against the input. */
  readonly view: readonly number[];
  /** The input's axes it varies along. */
  readonly axes: readonly number[];
  readonly per: 'coordinate' | 'scalar' | 'channel' | 'example_channel' | 'example_coordinate' | 'element';
}

/** The five pieces of a normalization for one input shape (core.describe), as the core runs it. */
export interface Description {
  readonly op: DescribedOpName;
  /** The shape of the first input. */
  readonly shape: readonly number[];
  /** Which elements share statistics. */
  readonly group: {
    /** The input's elements laid out as the group sees them (an axis may be split, as GroupNorm splits C). */
    readonly layout: readonly number[];
    /** The axes of `layout` reduced over. */
    readonly reduced: readonly number[];
    /** For each axis of `layout`, the input axis it comes from. */
    readonly source: readonly number[];
    /** The input axes a group spans (wholly or in part). */
    readonly axes: readonly number[];
    /** The shape of the statistics with reduced axes kept as 1 (split axes keep their groups). */
    readonly statShape: readonly number[];
    /** [statOuter, reduceOuter, statInner, reduceInner]. */
    readonly extents: readonly [number, number, number, number];
    /** Number of groups (statistics). */
    readonly count: number;
    /** Elements per group. */
    readonly size: number;
  };
  /** What is measured over a group. */
  readonly measure: 'mean_var' | 'mean_square' | 'sum_square' | 'sum_abs' | 'max_abs' | 'sum_exp';
  readonly transform: {
    /** Whether the mean is subtracted. */
    readonly center: boolean;
    /** How the measured spread and eps make the denominator. */
    readonly denominator:
      | 'sqrt_spread_plus_eps'
      | 'max_sqrt_spread_eps'
      | 'max_spread_eps'
      | 'exp_over_spread'
      | 'sqrt_spread_then_plus_eps';
    readonly eps: number;
  };
  readonly params: {
    readonly scale: ParamView | null;
    readonly shift: ParamView | null;
    /** Added to the scale (1 for AdaLN's 1 + scale). */
    readonly scaleOffset: number;
  };
  /** 'running': statistics come from running_mean/running_var (evaluation mode). */
  readonly mode: 'current' | 'running';
  /** The channel axis, or -1 when the op has none. */
  readonly channelAxis: number;
}

/** What core.describe takes for op K: the first input's shape, other inputs' shapes, attributes. */
export type DescribeOptions<K extends DescribedOpName> = {
  shape: readonly number[];
  inputs?: { [N in keyof OpInputs[K]]?: readonly number[] };
} & ({} extends OpAttrs[K] ? { attrs?: OpAttrs[K] } : { attrs: OpAttrs[K] });

/** An error reported by the core; the message names the operation and the argument. */
/** Stable error codes (README, "Error codes"); pages key localized messages by them. */
export type NormlabErrorCode =
  | 'invalid'
  | 'unknown_op'
  | 'unknown_input'
  | 'unknown_attribute'
  | 'missing_input'
  | 'missing_attribute'
  | 'bad_type'
  | 'bad_shape'
  | 'empty'
  | 'not_finite'
  | 'out_of_range'
  | 'too_large'
  | 'overflow'
  | 'zero_spread'
  | 'zero_vector'
  | 'not_divisible'
  | 'out_of_memory'
  | 'internal'
  | 'load_failed';

export class NormlabError extends Error {
  name: 'NormlabError';
  /** What went wrong, as a stable key. */
  readonly code: NormlabErrorCode;
  /** The operation named at the start of the message ('' when none). */
  readonly op: string;
  /** The input or attribute at fault ('' when the core does not name one). */
  readonly argument: string;
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
  /** Whether free() was called. */
  readonly freed: boolean;
  /** Give the memory back (also done when the tensor is garbage-collected). */
  free(): void;
}

/** The first input of a named function: a 1-D array (unless `shape` is given), a tensor, or a resident tensor. */
export type XInput = TensorData | TensorInput | NlTensor;

/** Where a result goes: a Float32Array of the right length, or a resident tensor (returned as it is). */
export type OutTarget = Float32Array | NlTensor;

/**
 * What the core and the training module share: their registry, the heap, run
 * over the op names N the module holds, and resident tensors (each module's
 * its own).
 */
export interface ModuleBase<N extends OpName> {
  /** Names of every operation the module provides. */
  readonly ops: readonly string[];
  /** Inputs, attributes (kind, default) and outputs of an operation, as the module declares them. */
  spec(op: string): OpSpec;
  /** Bytes currently allocated inside the WASM heap (diagnostics and leak tests). */
  heapBytes(): number;
  /** Bytes of the WASM memory (grows up to 1 GiB, never shrinks). */
  memoryBytes(): number;
  /** Run an operation whose name is not known statically. */
  run<S extends string>(
    op: S & Exclude<S, OpName>,
    inputs?: Inputs,
    attrs?: Attrs,
    options?: RunOptions<Record<string, OutTarget | null | undefined>>,
  ): Record<string, TensorOutput | IntOutput | ResidentOutput>;
  /**
   * Run an operation by name, inputs and attributes by their registry (snake_case) names;
   * `options.out` names where outputs go. Inputs and attributes may be left out when the op needs none.
   */
  run<K extends N, T extends OutTargets<K> = {}>(op: K, ...args: RunArgs<K, T>): RunResult<K, T>;
  /**
   * The five pieces of a normalization for an input of `shape` — group,
   * measurement, transform, parameter views and mode — the very description the core runs.
   */
  describe<S extends string>(
    op: S & Exclude<S, OpName>,
    options: { shape: readonly number[]; inputs?: Record<string, readonly number[]>; attrs?: Attrs },
  ): Description;
  describe<K extends DescribedOpName & N>(op: K, options: DescribeOptions<K>): Description;
  /** A tensor in this module's WASM memory, zero-filled or holding a copy of `data`. */
  tensor(shape: readonly number[], data?: ArrayLike<number>): NlTensor;
}

/**
 * The loaded core. Besides the members of ModuleBase it has one named function per
 * operation (NamedFunctions, generated from the registry): `core.layerNorm(x, options)`.
 */
export interface Core extends ModuleBase<CoreOpName>, NamedFunctions {}
export class Core {
  private constructor();
}

/**
 * The training module (loadTrainer): a second core with its own memory, holding
 * the training ops, with one named function each (`trainer.trainStep(options)`).
 */
export interface Trainer extends ModuleBase<TrainingOpName>, TrainingFunctions {}

export interface LoadOptions {
  /** Where the .wasm file lives, for hosts where it is not next to the module. */
  wasmUrl?: string | URL;
}

export interface CoreLoadOptions extends LoadOptions {
  /** Where normlab-train.wasm lives, for a later loadTrainer() (nothing is fetched now). */
  trainerUrl?: string | URL;
}

/**
 * A caller's value as a message quotes it: on one line, and at most about 80
 * characters of it (a longer one keeps its two ends around an ellipsis and
 * gives its length). The API, the CLI and the figures quote values through it.
 */
export function short(value: unknown): string;
/** Runs `fn` in a task of its own, soon (a MessageChannel message: not held back as nested setTimeout(0) is); returns a function that cancels it. */
export function nextTask(fn: () => void): () => void;

/**
 * Load the WASM core once per page; later calls return the same core. It has every op but training.
 * A location that cannot be loaded rejects with a NormlabError of code 'load_failed' naming it; a later
 * call may try again.
 */
export function loadCore(options?: CoreLoadOptions): Promise<Core>;

/**
 * Load the training module once per page (a separate download, dist/normlab-train.wasm);
 * later calls return the same one. Resident tensors do not cross between it and the core.
 */
export function loadTrainer(options?: LoadOptions): Promise<Trainer>;

/** The training module in a Web Worker (trainerWorker): its calls return promises. */
export interface TrainerWorker {
  /** 'worker' (its script's address), 'blob' (a Blob worker from its text) or 'main' (no worker could start). */
  readonly where: 'worker' | 'blob' | 'main';
  /** core.run in the worker: the outputs, their data copied into Float32Arrays and transferred. */
  run(
    op: TrainingOpName,
    inputs?: Record<string, { shape: number[]; data: ArrayLike<number> } | null | undefined>,
    attrs?: Record<string, number | boolean | string | number[]>,
  ): Promise<Record<string, { shape: number[]; data: Float32Array }>>;
  /** Stop the worker; calls still out reject. */
  close(): void;
}

/**
 * Start the training module in a Web Worker of its own (each call another one: a pool trains side by side).
 * The page compiles dist/normlab-train.wasm once and hands the module to each worker.
 */
export function trainerWorker(options?: LoadOptions): Promise<TrainerWorker>;
