// Imported first by the article page (web/page.js): starts fetching and
// compiling the WASM core before the figures are defined and upgraded, so the
// two overlap. The URL holds for web/ and for the bundle in dist/ alike.
import { loadCore } from './core/normlab.js';

export const core = loadCore({
  wasmUrl: new URL('../dist/normlab-core.wasm', import.meta.url),
  // fetched only when the training figure starts (loadTrainer)
  trainerUrl: new URL('../dist/normlab-train.wasm', import.meta.url),
});
core.catch(() => {}); // a failed load is shown by each figure in its own words
