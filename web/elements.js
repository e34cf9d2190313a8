// normlab/elements — the element classes and defineElements(). Importing this
// module defines nothing and touches no DOM global.
import { NlAdaln } from './components/nl-adaln.js';
import { NlBatchDependence } from './components/nl-batch-dependence.js';
import { NlDkScaling } from './components/nl-dk-scaling.js';
import { NlL2Jacobian } from './components/nl-l2-jacobian.js';
import { NlPrepostNorm } from './components/nl-prepost-norm.js';
import { NlResidualTurn } from './components/nl-residual-turn.js';
import { NlSoftmaxSharpness } from './components/nl-softmax-sharpness.js';
import { NlSpectral } from './components/nl-spectral.js';
import { NlWhitening } from './components/nl-whitening.js';
import { NlAxisCube } from './components/nl-axis-cube.js';
import { NlBarCompare } from './components/nl-bar-compare.js';
import { NlCodeShapes } from './components/nl-code-shapes.js';
import { NlCausalLeak } from './components/nl-causal-leak.js';
import { NlRmsDecomposition } from './components/nl-rms-decomposition.js';
import { NlScalers } from './components/nl-scalers.js';
import { NlVectorNorms } from './components/nl-vector-norms.js';
import { NlFiveQuestions } from './components/nl-five-questions.js';
import { NlEpsilon } from './components/nl-epsilon.js';
import { NlQkNorm } from './components/nl-qk-norm.js';
import { NlSharedStats } from './components/nl-shared-stats.js';
import { NlBnVariants } from './components/nl-bn-variants.js';
import { NlDepthTraining } from './components/nl-depth-training.js';

export {
  NlAdaln, NlAxisCube, NlBarCompare, NlBatchDependence, NlCodeShapes, NlDkScaling, NlL2Jacobian, NlPrepostNorm,
  NlResidualTurn, NlSoftmaxSharpness, NlSpectral, NlWhitening, NlCausalLeak, NlRmsDecomposition, NlScalers, NlVectorNorms, NlFiveQuestions, NlEpsilon, NlQkNorm, NlSharedStats, NlBnVariants, NlDepthTraining,
};
export { loadCore, loadTrainer } from './core/normlab.js';
export { registerLocale, languages } from './i18n/index.js';

/** Tag name → element class, for every figure. */
export const elements = {
  'nl-bar-compare': NlBarCompare,
  'nl-axis-cube': NlAxisCube,
  'nl-code-shapes': NlCodeShapes,
  'nl-adaln': NlAdaln,
  'nl-batch-dependence': NlBatchDependence,
  'nl-dk-scaling': NlDkScaling,
  'nl-l2-jacobian': NlL2Jacobian,
  'nl-prepost-norm': NlPrepostNorm,
  'nl-residual-turn': NlResidualTurn,
  'nl-softmax-sharpness': NlSoftmaxSharpness,
  'nl-spectral': NlSpectral,
  'nl-whitening': NlWhitening,
  'nl-causal-leak': NlCausalLeak,
  'nl-rms-decomposition': NlRmsDecomposition,
  'nl-scalers': NlScalers,
  'nl-vector-norms': NlVectorNorms,
  'nl-five-questions': NlFiveQuestions,
  'nl-epsilon': NlEpsilon,
  'nl-qk-norm': NlQkNorm,
  'nl-shared-stats': NlSharedStats,
  'nl-bn-variants': NlBnVariants,
  'nl-depth-training': NlDepthTraining,
};

/** Define every figure's custom element (idempotent; skips tags already taken). */
export function defineElements(registry = globalThis.customElements) {
  if (!registry) return;
  for (const [tag, cls] of Object.entries(elements)) {
    if (!registry.get(tag)) registry.define(tag, cls);
  }
}
