// normlab/elements — the element classes and defineElements(). Importing this
// module defines nothing and touches no DOM global.
import { NlAxisCube } from './components/nl-axis-cube.js';
import { NlBarCompare } from './components/nl-bar-compare.js';
import { NlCodeShapes } from './components/nl-code-shapes.js';

export { NlAxisCube, NlBarCompare, NlCodeShapes };
export { loadCore } from './core/normlab.js';

/** Tag name → element class, for every figure. */
export const elements = {
  'nl-bar-compare': NlBarCompare,
  'nl-axis-cube': NlAxisCube,
  'nl-code-shapes': NlCodeShapes,
};

/** Define every figure's custom element (idempotent; skips tags already taken). */
export function defineElements(registry = globalThis.customElements) {
  if (!registry) return;
  for (const [tag, cls] of Object.entries(elements)) {
    if (!registry.get(tag)) registry.define(tag, cls);
  }
}
