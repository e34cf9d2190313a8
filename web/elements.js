// normlab/elements — the element classes and defineElements(). Importing this
// module defines nothing and touches no DOM global.
import { NlBarCompare } from './components/nl-bar-compare.js';

export { NlBarCompare };
export { loadCore } from './core/normlab.js';

/** Tag name → element class, for every figure. */
export const elements = {
  'nl-bar-compare': NlBarCompare,
};

/** Define every figure's custom element (idempotent; skips tags already taken). */
export function defineElements(registry = globalThis.customElements) {
  if (!registry) return;
  for (const [tag, cls] of Object.entries(elements)) {
    if (!registry.get(tag)) registry.define(tag, cls);
  }
}
