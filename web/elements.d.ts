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

/** Tag name → element class, for every figure. */
export const elements: {
  'nl-bar-compare': typeof NlBarCompare;
};

/** Define every figure's element (idempotent). */
export function defineElements(registry?: CustomElementRegistry): void;

export type { Core, LoadOptions };

declare global {
  interface HTMLElementTagNameMap {
    'nl-bar-compare': NlBarCompare;
  }
}
