// normlab/elements — the element classes and defineElements(). Importing this
// module defines nothing and touches no DOM global.
import { NlAdaln } from './components/figures/nl-adaln.js';
import { NlBatchDependence } from './components/figures/nl-batch-dependence.js';
import { NlDkScaling } from './components/figures/nl-dk-scaling.js';
import { NlL2Jacobian } from './components/figures/nl-l2-jacobian.js';
import { NlPrepostNorm } from './components/figures/nl-prepost-norm.js';
import { NlResidualTurn } from './components/figures/nl-residual-turn.js';
import { NlSoftmaxSharpness } from './components/figures/nl-softmax-sharpness.js';
import { NlSpectral } from './components/figures/nl-spectral.js';
import { NlWhitening } from './components/figures/nl-whitening.js';
import { NlAxisCube } from './components/figures/nl-axis-cube.js';
import { NlBarCompare } from './components/figures/nl-bar-compare.js';
import { NlCodeShapes } from './components/figures/nl-code-shapes.js';
import { NlCausalLeak } from './components/figures/nl-causal-leak.js';
import { NlRmsDecomposition } from './components/figures/nl-rms-decomposition.js';
import { NlScalers } from './components/figures/nl-scalers.js';
import { NlVectorNorms } from './components/figures/nl-vector-norms.js';
import { NlFiveQuestions } from './components/figures/nl-five-questions.js';
import { NlEpsilon } from './components/figures/nl-epsilon.js';
import { NlQkNorm } from './components/figures/nl-qk-norm.js';
import { NlSharedStats } from './components/figures/nl-shared-stats.js';
import { NlBnVariants } from './components/figures/nl-bn-variants.js';
import { NlDepthTraining } from './components/figures/nl-depth-training.js';

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
