// Type declarations for `normlab/elements`.
import type { Core, LoadOptions } from './core/normlab.js';

export { loadCore } from './core/normlab.js';

export type Lang = 'en' | 'zh';

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
  reference: BarPanels;
  current: BarPanels;
  /** The message shown in the figure when the core rejected the input, else null. */
  error: string | null;
}

/** Base of every figure. */
export class NlElement extends HTMLElement {
  lang: Lang | string;
}

/** <nl-bar-compare>: L2, LayerNorm and RMSNorm of one vector under a common scale and offset. */
export class NlBarCompare extends NlElement {
  static readonly observedAttributes: string[];
  readonly state: BarCompareState | null;
  vector: number[];
  scale: number;
  offset: number;
  eps: number;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K, listener: (this: NlBarCompare, ev: HTMLElementEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: 'change', listener: (ev: CustomEvent<BarCompareState>) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
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
  yaw: number;
  pitch: number;
  error: string | null;
}

/** <nl-axis-cube>: the reduction group of one element of a [B, T, D] tensor, in 3-D. */
export class NlAxisCube extends NlElement {
  static readonly observedAttributes: string[];
  readonly state: AxisCubeState | null;
  shape: number[];
  method: CubeMethod;
  numGroups: number;
  index: number[];
  reading: 'sequence' | 'image';
  addEventListener(type: 'change', listener: (ev: CustomEvent<AxisCubeState>) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
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

export interface CodeShapesState {
  sizes: CodeSizes;
  expressions: CodeExpression[];
  selected: string;
  error: string | null;
}

/** <nl-code-shapes>: PyTorch normalization code with the shape of each expression. */
export class NlCodeShapes extends NlElement {
  static readonly observedAttributes: string[];
  readonly state: CodeShapesState | null;
  sizes: CodeSizes;
  selected: string;
  addEventListener(type: 'change', listener: (ev: CustomEvent<CodeShapesState>) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
}

/** Tag name → element class, for every figure. */
export const elements: {
  'nl-bar-compare': typeof NlBarCompare;
  'nl-axis-cube': typeof NlAxisCube;
  'nl-code-shapes': typeof NlCodeShapes;
};

/** Define every figure's element (idempotent). */
export function defineElements(registry?: CustomElementRegistry): void;

export type { Core, LoadOptions };

declare global {
  interface HTMLElementTagNameMap {
    'nl-bar-compare': NlBarCompare;
    'nl-axis-cube': NlAxisCube;
    'nl-code-shapes': NlCodeShapes;
  }
}
